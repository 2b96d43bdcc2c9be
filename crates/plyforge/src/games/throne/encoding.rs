//! Throne's encodings.

use search::{Game, Player};
use throne::{Cell, Move, Piece, Position, BLACK, CELLS, MAX_PLIES};

use super::Throne;
use crate::adapter::actions::fill_plane;
use crate::adapter::{push_bits, Encoding, FeatureChanges};

/// Side of the square grid that holds the hexagon.
const SIDE: usize = 11;
const PASS: usize = CELLS * CELLS;

/// The first feature of the imprisonments (after the four planes of pieces).
const TRAP_FEATURES: u32 = 4 * CELLS as u32;
/// Imprisoned soldiers counted by features, per player (5 points each in the score).
const PTRAP_STEPS: u32 = 8;
/// Imprisoned queens counted by features, per player (10 points each).
const QTRAP_STEPS: u32 = 3;
/// Features of the imprisonments of one player.
const TRAPS: u32 = PTRAP_STEPS + QTRAP_STEPS;
/// The first feature of the plies played.
const PLY_FEATURES: u32 = TRAP_FEATURES + 2 * TRAPS;
/// Plies per feature of the plies played: 300 plies in 13 steps.
const PLIES_PER_FEATURE: u32 = 25;

/// What `player` sees of `pos` as feature planes: its queen, its soldiers, the opponent's
/// queen and soldiers as bitboards of the cells it sees (White sees the board turned half
/// round: cell `i` at `90 − i`), each imprisonment counter as the features up to it, and
/// the plies' step.
fn planes(pos: &Position, player: Player) -> ([u128; 4], [u32; 2], u32) {
    let seen = |b: u128| {
        if player == BLACK {
            b
        } else {
            b.reverse_bits() >> (128 - CELLS)
        }
    };
    let mut boards = [0; 4];
    let mut traps = [0; 2];
    for (k, side) in [player, 1 - player].into_iter().enumerate() {
        let queen = 1u128 << pos.queen(side).index();
        let all = pos.occupied(side);
        boards[2 * k] = seen(queen);
        boards[2 * k + 1] = seen(all & !queen);
        let p = (1u32 << pos.ptrap(side).min(PTRAP_STEPS)) - 1;
        let q = (1u32 << pos.qtrap(side).min(QTRAP_STEPS)) - 1;
        traps[k] = p | q << PTRAP_STEPS;
    }
    (boards, traps, pos.ply() / PLIES_PER_FEATURE)
}

/// Throne's encodings.
///
/// Cells are numbered 0 to 90 in notation order (rows r = −5 … 5, each from its smallest q
/// upward: cell 0 is (0, −5), the throne (0, 0) is cell 45, cell 90 is (0, 5)).
///
/// **Actions (8282):** a step or a release from cell `f` to cell `t` is `91 f + t` (0 to
/// 8280; the numbers with `f = t` name no move); `pass` is 8281.
///
/// **Observation `[11, 11, 11]`,** from the observer's point of view: the hexagon in an
/// 11 × 11 grid, entry `[r' + 5][q' + 5]` for the cell (q', r'), where Black sees the board as
/// it is, (q', r') = (q, r), and White sees it turned half round, (q', r') = (−q, −r), so
/// that the observer always starts on the r' = 5 edge. The 30 grid entries that are no cell
/// are 0 in planes 0 to 4. Planes:
/// 0. the observer's queen (1.0);
/// 1. the observer's soldiers (1.0);
/// 2. the opponent's queen (1.0);
/// 3. the opponent's soldiers (1.0);
/// 4. the cells of the board (1.0);
/// 5. every entry: 1.0 when the observer is the side to move;
/// 6. every entry: the plies played / 300 (the move limit);
/// 7. to 10. every entry: the counters as they are (not scaled): the observer's Ptrap and
///    Qtrap, the opponent's Ptrap and Qtrap (how often each imprisoned enemy soldiers and
///    the enemy queen).
///
/// **Features (399),** own ([`Encoding::OBSERVED_FEATURES`] is false), from the observer's
/// point of view (the cells turned as above, cell index `c` in notation order): the
/// observer's queen `c` (0 to 90), its soldiers `91 + c`, the opponent's queen `182 + c`,
/// its soldiers `273 + c`; the observer's imprisoned soldiers, at least `n` (1 to 8):
/// `364 + n − 1`, its imprisoned queens, at least `n` (1 to 3): `372 + n − 1`, the same of
/// the opponent at `375` and `383`; the plies played, one feature for each 25: `386 + ply /
/// 25` (386 to 398). Changes come from the bitboards' xor.
impl Encoding for Throne {
    const ACTIONS: usize = PASS + 1;
    const SHAPE: &'static [usize] = &[11, SIDE, SIDE];

    fn action(mv: Move) -> Option<usize> {
        match mv {
            Move::Step { from, to } if from != to => Some(from.index() * CELLS + to.index()),
            Move::Step { .. } => None,
            Move::Pass => Some(PASS),
        }
    }

    fn decode(action: usize) -> Option<Move> {
        if action == PASS {
            return Some(Move::Pass);
        }
        let from = Cell::from_index(action / CELLS)?;
        let to = Cell::from_index(action % CELLS)?;
        (from != to && action < PASS).then_some(Move::Step { from, to })
    }

    const FEATURES: usize = (PLY_FEATURES + MAX_PLIES / PLIES_PER_FEATURE + 1) as usize;
    const OBSERVED_FEATURES: bool = false;

    fn features(pos: &Position, player: Player, out: &mut Vec<u32>) {
        let (boards, traps, ply) = planes(pos, player);
        for (k, b) in boards.into_iter().enumerate() {
            push_bits(out, b, (k * CELLS) as u32);
        }
        for (k, t) in traps.into_iter().enumerate() {
            push_bits(out, t.into(), TRAP_FEATURES + k as u32 * TRAPS);
        }
        out.push(PLY_FEATURES + ply);
    }

    fn feature_changes(
        before: &Position,
        after: &Position,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool {
        let ((a, ta, pa), (b, tb, pb)) = (planes(before, player), planes(after, player));
        for k in 0..4 {
            changes.bits(a[k], b[k], (k * CELLS) as u32);
        }
        for k in 0..2 {
            let base = TRAP_FEATURES + k as u32 * TRAPS;
            changes.bits(ta[k].into(), tb[k].into(), base);
        }
        if pa != pb {
            changes.add(PLY_FEATURES + pb);
            changes.remove(PLY_FEATURES + pa);
        }
        true
    }

    fn observe(pos: &Position, player: Player, out: &mut [f32]) {
        const PLANE: usize = SIDE * SIDE;
        let sign = if player == BLACK { 1 } else { -1 };
        for cell in Cell::all() {
            let (q, r) = (sign * cell.q(), sign * cell.r());
            let at = (r + 5) as usize * SIDE + (q + 5) as usize;
            out[4 * PLANE + at] = 1.0;
            if let Some((owner, piece)) = pos.piece_at(cell) {
                let plane =
                    if owner == player { 0 } else { 2 } + usize::from(piece == Piece::Soldier);
                out[plane * PLANE + at] = 1.0;
            }
        }
        if pos.to_move() == player {
            fill_plane(out, 5, PLANE, 1.0);
        }
        fill_plane(out, 6, PLANE, pos.ply() as f32 / MAX_PLIES as f32);
        let other = 1 - player;
        fill_plane(out, 7, PLANE, pos.ptrap(player) as f32);
        fill_plane(out, 8, PLANE, pos.qtrap(player) as f32);
        fill_plane(out, 9, PLANE, pos.ptrap(other) as f32);
        fill_plane(out, 10, PLANE, pos.qtrap(other) as f32);
    }
}
