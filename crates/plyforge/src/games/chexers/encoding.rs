//! Chexers' encodings.

use chexers::board::{CELLS, STEPS};
use chexers::{DefaultEval, Hex, Move, Position, Terms, PLAYERS, TURN_LIMIT};
use search::{Evaluator, Game, Player};

use super::Chexers;
use crate::adapter::actions::fill_plane;
use crate::adapter::{push_bits, Encoding, FeatureChanges};

/// Hexes of the board, hence `MOVE`s (or `JUMP`s) from a hex in each of the six directions.
const STEP_ACTIONS: usize = CELLS * 6;
const JUMP0: usize = STEP_ACTIONS;
const EXIT0: usize = 2 * STEP_ACTIONS;
const PASS: usize = EXIT0 + CELLS;

/// Terms per player ([`Encoding::terms`]).
const TERM_COUNT: usize = 11;

/// Side of the square grid that holds the hexagon.
const SIDE: usize = 7;

/// The first feature of the exits (after each player's pieces on the 37 hexes).
const EXIT_FEATURES: u32 = (PLAYERS * CELLS) as u32;
/// The first feature of the turns played (after three exits for each player).
const TURN_FEATURES: u32 = EXIT_FEATURES + 3 * PLAYERS as u32;
/// Turns per feature of the turns played: 768 turns in 13 steps.
const TURNS_PER_FEATURE: u32 = 64;

/// `SEEN[player][hex]`: the index of the hex that `player` sees at `hex`, the board turned
/// so that its exits are on the q = 3 edge (as the observation turns it).
const SEEN: [[u8; CELLS]; PLAYERS] = {
    let mut t = [[0u8; CELLS]; PLAYERS];
    let mut i = 0;
    while i < CELLS {
        let h = match Hex::from_index(i) {
            Some(h) => h,
            None => panic!("indices below CELLS are hexes"),
        };
        let (q, r, s) = (h.q(), h.r(), h.s());
        let turned = [(q, r), (r, s), (s, q)];
        let mut p = 0;
        while p < PLAYERS {
            t[p][i] = match Hex::new(turned[p].0, turned[p].1) {
                Some(h) => h.index() as u8,
                None => panic!("a turned hex is a hex"),
            };
            p += 1;
        }
        i += 1;
    }
    t
};

/// The hexes of `bits` as `player` sees them (the board turned, as [`SEEN`]).
#[inline]
fn seen_bits(bits: u64, player: Player) -> u64 {
    if player == 0 {
        return bits;
    }
    let mut out = 0;
    let mut b = bits;
    while b != 0 {
        out |= 1u64 << SEEN[player][b.trailing_zeros() as usize];
        b &= b - 1;
    }
    out
}

/// The hexes of `before` and `after` as `player` sees them, each plus `base`, into
/// `changes`: those in `after` only added, those in `before` only removed.
#[inline]
fn seen_changes(changes: &mut FeatureChanges, before: u64, after: u64, player: Player, base: u32) {
    let mut b = after & !before;
    while b != 0 {
        changes.add(base + u32::from(SEEN[player][b.trailing_zeros() as usize]));
        b &= b - 1;
    }
    let mut b = before & !after;
    while b != 0 {
        changes.remove(base + u32::from(SEEN[player][b.trailing_zeros() as usize]));
        b &= b - 1;
    }
}

/// The exit features of a count of exits: one per exit up to three.
#[inline]
fn exit_bits(exits: u32) -> u32 {
    (1u32 << exits.min(3)) - 1
}

/// Chexers' encodings.
///
/// Hexes are numbered 0 to 36 in notation order (rows r = −3 … 3, each from its smallest q
/// upward: hex 0 is (0, −3), hex 36 is (0, 3)); the six directions are the rules' neighbour
/// steps in their order, d = 0 … 5: (−1,0) (0,−1) (+1,−1) (+1,0) (0,+1) (−1,+1).
///
/// **Actions (482):**
/// - `MOVE` from hex h in direction d: `6h + d` (0 to 221);
/// - `JUMP` from hex h in direction d (over the neighbour, to the hex two steps away):
///   `222 + 6h + d` (222 to 443);
/// - `EXIT` from hex h: `444 + h` (444 to 480);
/// - `PASS`: 481.
///
/// **Observation `[11, 7, 7]`,** from the observer's point of view: the hexagon in a 7 × 7
/// grid, entry `[r' + 3][q' + 3]` for the hex (q', r'), where the coordinates are turned so
/// that the observer's exits are always on the q' = 3 edge (as Red's are): Red sees
/// (q', r') = (q, r), Green (r, s), Blue (s, q), with s = −q − r. The 12 grid entries that
/// are no hex are 0 in planes 0 to 3. Players are counted from the observer in turn order:
/// the observer, the next player, the one after. Planes, 1.0 where true:
/// 0. the observer's pieces;
/// 1. the next player's pieces;
/// 2. the pieces of the player after;
/// 3. the hexes of the board;
/// 4. to 6. every entry: the exit count (0 to 4) / 4 of the observer, the next player, the
///    one after;
/// 7. to 9. every entry: the player to move is the observer, the next player, the one after;
/// 10. every entry: the turns played / 768 (the turn limit).
///
/// The repetition count (the fourth occurrence draws) is not part of the tensor.
///
/// **Features (133),** own ([`Encoding::OBSERVED_FEATURES`] is false), from the
/// observer's point of view, the players counted from the observer as above: the pieces
/// of player `k` on the hex that the observer sees at index `h` (turned as the
/// observation is) are feature `37 k + h` (0 to 110); player `k` has made at least `e`
/// exits, `e` from 1 to 3: `111 + 3 k + e − 1`; the turns played, one feature for each 64
/// turns: `120 + turns / 64` (120 to 132). Changes come from the bitboards' xor.
///
/// **Terms (36),** the default evaluation's measurements ([`chexers::Terms::of`]) for the
/// observer, the next player and the one after, 11 each: hopeless (1 or 0), work to the
/// exits / 20, exits missing beyond the pieces owned / 4, spare pieces / 4, pieces below
/// three while short / 3, threatened pieces / 4, of them by the next mover / 4, threatened
/// while short / 4, legal actions / 30, pairs side by side / 6, force (pieces and exits) /
/// 12; then the default evaluation's three scores as the default terms give them
/// ([`crate::adapter::default_terms`]).
impl Encoding for Chexers {
    const ACTIONS: usize = PASS + 1;
    const SHAPE: &'static [usize] = &[11, SIDE, SIDE];

    fn action(mv: Move) -> Option<usize> {
        match mv {
            Move::Move(a, b) => a.direction_to(b, 1).map(|d| 6 * a.index() + d),
            Move::Jump(a, b) => a.direction_to(b, 2).map(|d| JUMP0 + 6 * a.index() + d),
            Move::Exit(a) => Some(EXIT0 + a.index()),
            Move::Pass => Some(PASS),
        }
    }

    fn decode(action: usize) -> Option<Move> {
        let step = |a: usize, distance: i8| {
            let from = Hex::from_index(a / 6)?;
            let (dq, dr) = STEPS[a % 6];
            let to = Hex::new(from.q() + distance * dq, from.r() + distance * dr)?;
            Some((from, to))
        };
        match action {
            a if a < JUMP0 => step(a, 1).map(|(f, t)| Move::Move(f, t)),
            a if a < EXIT0 => step(a - JUMP0, 2).map(|(f, t)| Move::Jump(f, t)),
            a if a < PASS => Hex::from_index(a - EXIT0).map(Move::Exit),
            PASS => Some(Move::Pass),
            _ => None,
        }
    }

    const TERMS: usize = PLAYERS * TERM_COUNT + PLAYERS;

    fn terms(pos: &Position, player: Player, out: &mut [f32]) {
        let all = [0, 1, 2].map(|p| Terms::of(pos, p));
        for k in 0..PLAYERS {
            let t = all[(player + k) % PLAYERS];
            let row = [
                f32::from(u8::from(t.hopeless)),
                t.work as f32 / 20.0,
                t.missing as f32 / 4.0,
                t.spare as f32 / 4.0,
                t.short_below_three as f32 / 3.0,
                t.threatened as f32 / 4.0,
                t.threatened_next as f32 / 4.0,
                t.short_threatened as f32 / 4.0,
                t.mobility as f32 / 30.0,
                t.pairs as f32 / 6.0,
                t.force as f32 / 12.0,
            ];
            out[k * TERM_COUNT..(k + 1) * TERM_COUNT].copy_from_slice(&row);
        }
        // The default evaluation's scores, from the terms measured (the same numbers).
        let eval = DefaultEval::default();
        let scores = eval
            .scores_from_terms(pos, &all)
            .unwrap_or_else(|| eval.evaluate(pos));
        crate::adapter::score_terms::<Chexers>(
            &scores,
            eval.aspiration_window(),
            player,
            &mut out[PLAYERS * TERM_COUNT..],
        );
    }

    const FEATURES: usize = TURN_FEATURES as usize + (TURN_LIMIT / TURNS_PER_FEATURE) as usize + 1;
    const OBSERVED_FEATURES: bool = false;

    fn features(pos: &Position, player: Player, out: &mut Vec<u32>) {
        for k in 0..PLAYERS {
            let seen = seen_bits(pos.pieces((player + k) % PLAYERS), player);
            push_bits(out, seen.into(), (k * CELLS) as u32);
        }
        for k in 0..PLAYERS {
            let exits = exit_bits(pos.exits((player + k) % PLAYERS));
            push_bits(out, exits.into(), EXIT_FEATURES + 3 * k as u32);
        }
        out.push(TURN_FEATURES + pos.turns() / TURNS_PER_FEATURE);
    }

    fn feature_changes(
        before: &Position,
        after: &Position,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool {
        for k in 0..PLAYERS {
            let q = (player + k) % PLAYERS;
            let (a, b) = (before.pieces(q), after.pieces(q));
            seen_changes(changes, a, b, player, (k * CELLS) as u32);
            let (a, b) = (exit_bits(before.exits(q)), exit_bits(after.exits(q)));
            changes.bits(a.into(), b.into(), EXIT_FEATURES + 3 * k as u32);
        }
        let (a, b) = (
            before.turns() / TURNS_PER_FEATURE,
            after.turns() / TURNS_PER_FEATURE,
        );
        if a != b {
            changes.add(TURN_FEATURES + b);
            changes.remove(TURN_FEATURES + a);
        }
        true
    }

    fn observe(pos: &Position, player: Player, out: &mut [f32]) {
        const PLANE: usize = SIDE * SIDE;
        let seen = |h: Hex| -> usize {
            let (q, r, s) = (h.q(), h.r(), h.s());
            let (q2, r2) = match player {
                0 => (q, r),
                1 => (r, s),
                _ => (s, q),
            };
            (r2 + 3) as usize * SIDE + (q2 + 3) as usize
        };
        for i in 0..CELLS {
            let h = Hex::from_index(i).expect("indices below CELLS are hexes");
            let cell = seen(h);
            out[3 * PLANE + cell] = 1.0;
            if let Some(owner) = pos.piece_at(h) {
                let k = (owner + PLAYERS - player) % PLAYERS;
                out[k * PLANE + cell] = 1.0;
            }
        }
        let to_move = pos.to_move();
        for k in 0..PLAYERS {
            let p = (player + k) % PLAYERS;
            fill_plane(out, 4 + k, PLANE, pos.exits(p) as f32 / 4.0);
            if p == to_move {
                fill_plane(out, 7 + k, PLANE, 1.0);
            }
        }
        fill_plane(
            out,
            10,
            PLANE,
            pos.turns() as f32 / chexers::TURN_LIMIT as f32,
        );
    }
}
