//! The rules: positions, moves, prisoners, the end of the game, Zobrist keys.

use search::{DrawKind, Game, MoveList, Outcome, Player};

use crate::board::{
    cells, far, neighbour, sandwiched, Cell, Mask, ALL, CELLS, QUEEN_STEPS, RING1, RING5,
    SOLDIER_STEPS, THRONE_BIT, THRONE_INDEX,
};

/// Black, who moves first (player 0, letter `b`). In every plyforge game the player
/// indices follow the turn order, player 0 moving first, whatever its colour: Throne's
/// Black is 0 where Jumpy3's White is.
pub const BLACK: Player = 0;
/// White (player 1, letter `w`).
pub const WHITE: Player = 1;

/// Moves each side has (a pass is a move).
pub const MOVES_PER_SIDE: u32 = 150;
/// Plies in a full game: after this many the score decides.
pub const MAX_PLIES: u32 = 2 * MOVES_PER_SIDE;

/// Soldiers each side has.
pub const SOLDIERS: usize = 6;

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Piece {
    /// One of the six soldiers.
    Soldier,
    /// The queen, the only piece that may enter the throne.
    Queen,
}

/// A move: a step (or a release, written the same way: from the prison cell to the target),
/// or a pass.
///
/// Notation: `q,r>q,r` or `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Moves the piece on `from` to `to`: an ordinary step, or a release of a prisoner.
    Step {
        /// The cell the piece leaves.
        from: Cell,
        /// The cell the piece goes to.
        to: Cell,
    },
    /// No move (forced when prisoners cannot be released).
    Pass,
}

/// A Throne position: the board, the side to move, the plies played, and both sides'
/// Ptrap/Qtrap counters (how often each side imprisoned enemy soldiers and the enemy queen).
///
/// The position alone decides the legal moves and the result: prisoners are the pieces that
/// stand imprisoned on the board, and the ply count gives the move limit. Notation: see
/// [`Position::from_str`](std::str::FromStr) and the crate documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Every piece of each side (queen included).
    pub(crate) occ: [Mask; 2],
    /// Cell index of each side's queen.
    pub(crate) queen: [u8; 2],
    pub(crate) side: u8,
    pub(crate) ply: u16,
    pub(crate) ptrap: [u16; 2],
    pub(crate) qtrap: [u16; 2],
    pub(crate) key: u64,
}

// ---------------------------------------------------------------------------------------------
// Zobrist keys

use search::rng::splitmix64 as splitmix;

/// Piece-square keys: `[player * 2 + (queen as usize)][cell]`.
const Z_PIECE: [[u64; CELLS]; 4] = {
    let mut t = [[0u64; CELLS]; 4];
    let mut k = 0;
    while k < 4 {
        let mut c = 0;
        while c < CELLS {
            t[k][c] = splitmix(0x7468_726f_6e65_0000 ^ ((k as u64) << 8) ^ c as u64);
            c += 1;
        }
        k += 1;
    }
    t
};
const Z_WHITE_TO_MOVE: u64 = splitmix(0x7468_726f_6e65_5749);

/// Key of a counter value: `field` 0 = ply, 1..=4 = Black Ptrap, Black Qtrap, White Ptrap,
/// White Qtrap. A mixing function instead of a table, so that any value has a key.
#[inline]
fn z_counter(field: u64, value: u16) -> u64 {
    if value == 0 {
        0
    } else {
        splitmix((field << 32) ^ 0x636f_756e_7465_7200 ^ value as u64)
    }
}

#[inline]
fn z_piece(player: usize, queen: bool, cell: usize) -> u64 {
    Z_PIECE[player * 2 + queen as usize][cell]
}

// ---------------------------------------------------------------------------------------------

impl Position {
    /// The start position: Black's soldiers on the r = 5 edge and queen on (−2, 4); White the
    /// point mirror image; Black to move, no plies played, all counters 0.
    pub fn start() -> Position {
        let mut occ = [0u128; 2];
        let mut queen = [0u8; 2];
        for q in -5..=0 {
            occ[BLACK] |= Cell::new(q, 5).expect("on board").bit();
            occ[WHITE] |= Cell::new(-q, -5).expect("on board").bit();
        }
        let bq = Cell::new(-2, 4).expect("on board");
        let wq = Cell::new(2, -4).expect("on board");
        occ[BLACK] |= bq.bit();
        occ[WHITE] |= wq.bit();
        queen[BLACK] = bq.raw();
        queen[WHITE] = wq.raw();
        Position::from_parts(occ, queen, BLACK, 0, [0, 0], [0, 0])
    }

    /// Builds a position from checked parts and computes its key.
    pub(crate) fn from_parts(
        occ: [Mask; 2],
        queen: [u8; 2],
        side: Player,
        ply: u16,
        ptrap: [u16; 2],
        qtrap: [u16; 2],
    ) -> Position {
        let mut p = Position {
            occ,
            queen,
            side: side as u8,
            ply,
            ptrap,
            qtrap,
            key: 0,
        };
        p.key = p.compute_key();
        p
    }

    fn compute_key(&self) -> u64 {
        let mut k = 0;
        for player in 0..2 {
            for c in cells(self.occ[player]) {
                k ^= z_piece(player, c == self.queen[player] as usize, c);
            }
        }
        if self.side as usize == WHITE {
            k ^= Z_WHITE_TO_MOVE;
        }
        k ^= z_counter(0, self.ply);
        for player in 0..2 {
            k ^= z_counter(1 + 2 * player as u64, self.ptrap[player]);
            k ^= z_counter(2 + 2 * player as u64, self.qtrap[player]);
        }
        k
    }

    /// Plies played so far (0..=300).
    pub fn ply(&self) -> u32 {
        self.ply as u32
    }

    /// Moves `player` still has before the move limit (150 minus the moves it has made).
    pub fn moves_left(&self, player: Player) -> u32 {
        let ply = self.ply();
        // Counted back from the side to move, the plies alternate: the side to move made
        // every second ply before this one, the other side the rest. (In a game from the
        // start that is Black on the even plies, White on the odd ones; a position whose
        // side to move does not match the parity of its ply count is counted the same way,
        // so neither side ever gets more than its 150 moves.)
        let made = if player == self.to_move() {
            ply / 2
        } else {
            ply.div_ceil(2)
        };
        MOVES_PER_SIDE.saturating_sub(made)
    }

    /// How often `player` has imprisoned an enemy soldier.
    pub fn ptrap(&self, player: Player) -> u32 {
        self.ptrap[player] as u32
    }

    /// How often `player` has imprisoned the enemy queen.
    pub fn qtrap(&self, player: Player) -> u32 {
        self.qtrap[player] as u32
    }

    /// The piece on `cell`, with its owner.
    pub fn piece_at(&self, cell: Cell) -> Option<(Player, Piece)> {
        let b = cell.bit();
        for player in 0..2 {
            if self.occ[player] & b != 0 {
                let kind = if self.queen[player] as usize == cell.index() {
                    Piece::Queen
                } else {
                    Piece::Soldier
                };
                return Some((player, kind));
            }
        }
        None
    }

    /// The cells of `player`'s pieces, queen included, as a bitboard: bit `i` is the cell
    /// of index `i` ([`Cell::index`], notation order).
    pub fn occupied(&self, player: Player) -> u128 {
        self.occ[player]
    }

    /// The cell of `player`'s queen.
    pub fn queen(&self, player: Player) -> Cell {
        Cell::from_index(self.queen[player] as usize).expect("valid queen cell")
    }

    /// The cells of `player`'s soldiers, in index order.
    pub fn soldiers(&self, player: Player) -> impl Iterator<Item = Cell> + '_ {
        cells(self.soldier_mask(player)).map(|c| Cell::from_index(c).expect("valid"))
    }

    pub(crate) fn soldier_mask(&self, player: Player) -> Mask {
        self.occ[player] & !(1u128 << self.queen[player])
    }

    pub(crate) fn empty(&self) -> Mask {
        ALL & !(self.occ[0] | self.occ[1])
    }

    /// `true` if the piece on `cell` (if any) stands imprisoned: along some axis both
    /// neighbouring cells hold pieces of its opponent.
    pub fn is_imprisoned(&self, cell: Cell) -> bool {
        match self.piece_at(cell) {
            Some((owner, _)) => sandwiched(cell.index(), self.occ[1 - owner]),
            None => false,
        }
    }

    pub(crate) fn prisoner_mask(&self, player: Player) -> Mask {
        let enemy = self.occ[1 - player];
        let mut out = 0;
        for c in cells(self.occ[player]) {
            if sandwiched(c, enemy) {
                out |= 1u128 << c;
            }
        }
        out
    }

    /// `player`'s prisoners: his pieces that stand imprisoned, in index order.
    pub fn prisoners(&self, player: Player) -> Vec<Cell> {
        cells(self.prisoner_mask(player))
            .map(|c| Cell::from_index(c).expect("valid"))
            .collect()
    }

    /// `true` if a piece of `player` moved to the empty `cell` would stand imprisoned there
    /// (a prison cell for `player`).
    pub fn is_prison_cell_for(&self, player: Player, cell: Cell) -> bool {
        sandwiched(cell.index(), self.occ[1 - player])
    }

    /// The contest score bp of `player`: 10 × grade for each soldier, 20 × the queen's grade,
    /// 5 × Ptrap and 10 × Qtrap.
    pub fn score(&self, player: Player) -> i32 {
        let mut s = 0i32;
        for c in cells(self.soldier_mask(player)) {
            s += 10 * grade(c);
        }
        s += 20 * grade(self.queen[player] as usize);
        s + 5 * self.ptrap[player] as i32 + 10 * self.qtrap[player] as i32
    }

    /// Generates the moves without looking at the end of the game.
    fn generate(&self, out: &mut MoveList<Move>) {
        let me = self.side as usize;
        let enemy = self.occ[1 - me];
        let empty = self.empty();
        let prisoners = self.prisoner_mask(me);
        let queen = self.queen[me] as usize;
        if prisoners != 0 {
            let before = out.len();
            if prisoners & (1u128 << queen) != 0 {
                // The queen first: to any empty cell but the throne.
                push_targets(out, queen, empty & !THRONE_BIT, enemy);
            } else {
                for p in cells(prisoners) {
                    push_targets(out, p, empty & RING5, enemy);
                }
            }
            if out.len() == before {
                out.push(Move::Pass);
            }
            return;
        }
        for c in cells(self.occ[me]) {
            let steps = if c == queen {
                QUEEN_STEPS[c]
            } else {
                SOLDIER_STEPS[c]
            };
            push_targets(out, c, steps & empty, enemy);
        }
        out.push(Move::Pass);
    }

    /// Plays `mv`, which must be legal (see [`Position::why_illegal`]).
    pub fn play(&mut self, mv: Move) {
        let me = self.side as usize;
        let opp = 1 - me;
        if let Move::Step { from, to } = mv {
            let (f, t) = (from.index(), to.index());
            let old_mine = self.occ[me];
            let is_queen = self.queen[me] as usize == f;
            debug_assert!(
                old_mine & from.bit() != 0,
                "no piece of the mover on {from}"
            );
            debug_assert!(self.empty() & to.bit() != 0, "{to} is not empty");
            self.occ[me] ^= from.bit() | to.bit();
            self.key ^= z_piece(me, is_queen, f) ^ z_piece(me, is_queen, t);
            if is_queen {
                self.queen[me] = t as u8;
            }
            // Only enemy pieces next to `to` can become imprisoned by this move; vacating
            // `from` can only free pieces.
            let mine = self.occ[me];
            let theirs = self.occ[opp];
            for d in 0..6 {
                let (Some(n), Some(x)) = (neighbour(t, d), far(t, d)) else {
                    continue;
                };
                if theirs & (1u128 << n) != 0
                    && mine & (1u128 << x) != 0
                    && !sandwiched(n, old_mine)
                {
                    if n == self.queen[opp] as usize {
                        self.set_qtrap(me, self.qtrap[me].saturating_add(1));
                    } else {
                        self.set_ptrap(me, self.ptrap[me].saturating_add(1));
                    }
                }
            }
        }
        self.side ^= 1;
        self.key ^= Z_WHITE_TO_MOVE;
        self.key ^= z_counter(0, self.ply) ^ z_counter(0, self.ply + 1);
        self.ply += 1;
    }

    fn set_ptrap(&mut self, player: Player, v: u16) {
        let field = 1 + 2 * player as u64;
        self.key ^= z_counter(field, self.ptrap[player]) ^ z_counter(field, v);
        self.ptrap[player] = v;
    }

    fn set_qtrap(&mut self, player: Player, v: u16) {
        let field = 2 + 2 * player as u64;
        self.key ^= z_counter(field, self.qtrap[player]) ^ z_counter(field, v);
        self.qtrap[player] = v;
    }

    /// How the game ended, or `None`. The throne rules are checked for the player who just
    /// moved (the one not to move), then the move limit: after 300 plies the higher
    /// [`score`](Position::score) wins and equal scores draw.
    pub fn outcome(&self) -> Option<Outcome> {
        let mover = 1 - self.side as usize;
        let soldiers = self.soldier_mask(mover);
        if soldiers & RING1 == RING1 {
            if self.queen[mover] as usize == THRONE_INDEX {
                return Some(Outcome::Win(mover));
            }
            if (self.occ[0] | self.occ[1]) & THRONE_BIT == 0 {
                return Some(Outcome::Win(1 - mover));
            }
        }
        if self.ply() >= MAX_PLIES {
            let (b, w) = (self.score(BLACK), self.score(WHITE));
            return Some(match b.cmp(&w) {
                std::cmp::Ordering::Greater => Outcome::Win(BLACK),
                std::cmp::Ordering::Less => Outcome::Win(WHITE),
                std::cmp::Ordering::Equal => Outcome::Draw(DrawKind::Score),
            });
        }
        None
    }

    /// The Zobrist key: every piece, the side to move, the ply count and all four counters.
    ///
    /// The full ply count is part of the key (not just "how far from the limit"), because the
    /// limit can change a value at any depth the search reaches near the end, and the counters
    /// decide the score there; transpositions that reach the same board in the same number of
    /// plies (the common kind) still share entries.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Why `mv` is not legal here, in words; `None` if it is.
    fn illegal_reason(&self, mv: Move) -> Option<String> {
        if self.outcome().is_some() {
            return Some("the game is over".to_string());
        }
        let me = self.side as usize;
        let enemy = self.occ[1 - me];
        let prisoners = self.prisoner_mask(me);
        let queen = self.queen[me] as usize;
        let queen_prisoner = prisoners & (1u128 << queen) != 0;
        let Move::Step { from, to } = mv else {
            if prisoners != 0 {
                let mut moves = MoveList::new();
                self.generate(&mut moves);
                if moves[0] != Move::Pass {
                    return Some(format!(
                        "you may not pass: you have prisoners to release ({})",
                        list(prisoners)
                    ));
                }
            }
            return None;
        };
        let (f, t) = (from.index(), to.index());
        if self.occ[me] & from.bit() == 0 {
            return Some(format!("cell {from} holds no piece of the side to move"));
        }
        if prisoners != 0 {
            if queen_prisoner && f != queen {
                return Some(format!(
                    "the queen on {} is imprisoned and must be released first",
                    Cell::from_index(queen).expect("valid")
                ));
            }
            if prisoners & from.bit() == 0 {
                return Some(format!(
                    "prisoners must be released first ({})",
                    list(prisoners)
                ));
            }
            if self.empty() & to.bit() == 0 {
                return Some(format!("cell {to} is not empty"));
            }
            if f == queen {
                if t == THRONE_INDEX {
                    return Some("a released queen may not go to the throne".to_string());
                }
            } else if to.radius() != 5 {
                return Some(format!(
                    "a released soldier must go to the outermost ring (radius 5), and {to} has radius {}",
                    to.radius()
                ));
            }
            if sandwiched(t, enemy) {
                return Some(format!("the piece would stand imprisoned on {to}"));
            }
            return None;
        }
        if self.empty() & to.bit() == 0 {
            return Some(format!("cell {to} is not empty"));
        }
        if !from.neighbours().any(|n| n == to) {
            return Some(format!("{to} is not adjacent to {from}"));
        }
        if to.radius() > from.radius() {
            return Some(format!(
                "pieces never step outward ({from} has radius {}, {to} radius {})",
                from.radius(),
                to.radius()
            ));
        }
        if t == THRONE_INDEX && f != queen {
            return Some("only a queen may enter the throne".to_string());
        }
        if sandwiched(t, enemy) {
            return Some(format!("the piece would stand imprisoned on {to}"));
        }
        None
    }

    /// The steps that imprison at least one enemy piece that was not imprisoned before
    /// (quiescence search's noisy moves); none while the side to move has prisoners.
    pub fn imprisoning_moves(&self, out: &mut MoveList<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let me = self.side as usize;
        if self.prisoner_mask(me) != 0 {
            return;
        }
        let mut all = MoveList::new();
        self.generate(&mut all);
        for mv in all {
            if let Move::Step { from, to } = mv {
                if self.imprisons(from.index(), to.index()) {
                    out.push(mv);
                }
            }
        }
    }

    /// `true` if moving my piece from `f` to `t` imprisons an enemy piece not imprisoned before.
    pub(crate) fn imprisons(&self, f: usize, t: usize) -> bool {
        let me = self.side as usize;
        let old_mine = self.occ[me];
        let mine = (old_mine & !(1u128 << f)) | (1u128 << t);
        let theirs = self.occ[1 - me];
        (0..6).any(|d| match (neighbour(t, d), far(t, d)) {
            (Some(n), Some(x)) => {
                theirs & (1u128 << n) != 0 && mine & (1u128 << x) != 0 && !sandwiched(n, old_mine)
            }
            _ => false,
        })
    }
}

fn grade(cell: usize) -> i32 {
    Cell::from_index(cell).expect("valid").grade() as i32
}

fn list(m: Mask) -> String {
    cells(m)
        .map(|c| Cell::from_index(c).expect("valid").to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[inline]
fn push_targets(out: &mut MoveList<Move>, from: usize, targets: Mask, enemy: Mask) {
    let from_cell = Cell::from_index(from).expect("valid");
    for t in cells(targets) {
        if !sandwiched(t, enemy) {
            out.push(Move::Step {
                from: from_cell,
                to: Cell::from_index(t).expect("valid"),
            });
        }
    }
}

impl Game for Position {
    type Move = Move;

    fn players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Player {
        self.side as Player
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        if self.outcome().is_none() {
            self.generate(out);
        }
    }

    fn play(&mut self, mv: Move) {
        Position::play(self, mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn recompute_key(&self) -> u64 {
        self.compute_key()
    }

    fn why_illegal(&self, mv: Move) -> Option<search::IllegalMove> {
        self.illegal_reason(mv).map(search::IllegalMove::new)
    }

    fn noisy_moves(&self, out: &mut MoveList<Move>) {
        self.imprisoning_moves(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pass fallback: a prisoner with no legal release must pass, and the obligation
    /// stays. With one queen and six soldiers a side this cannot happen (ring 5 has 30 cells;
    /// at most 14 are occupied and at most 7 empty ones lie between two enemy pieces on an
    /// edge, corners never), so the position is over-populated and built from parts (the
    /// parser rejects it).
    #[test]
    fn prisoner_without_release_must_pass() {
        let c = |q, r| Cell::new(q, r).unwrap();
        let black = RING5 | c(-1, 2).bit() | c(1, 2).bit() | c(-3, 1).bit();
        let white = c(0, 2).bit() | c(3, -2).bit();
        let p = Position::from_parts(
            [black, white],
            [c(-3, 1).raw(), c(3, -2).raw()],
            WHITE,
            40,
            [0, 0],
            [0, 0],
        );
        let text = p.to_string();
        assert_eq!(
            text,
            "bbbbbb/b.....b/b......b/b.....W.b/b........b/b.........b/b.B......b/b...bwb.b/b......b/b.....b/bbbbbb w 40 0 0 0 0"
        );
        assert!(matches!(
            text.parse::<Position>(),
            Err(crate::ParsePositionError::PieceCount { .. })
        ));
        assert_eq!(p.prisoners(WHITE), vec![c(0, 2)]);
        assert_eq!(p.moves().as_slice(), &[Move::Pass]);
        assert_eq!(p.why_illegal(Move::Pass), None);
        let why = p
            .why_illegal(Move::Step {
                from: c(3, -2),
                to: c(2, -1),
            })
            .unwrap();
        assert!(why.reason().contains("released first"), "{why}");
        let mut q = p.clone();
        q.play(Move::Pass);
        assert_eq!(q.to_string(), text.replace(" w 40", " b 41"));
        q.play(Move::Step {
            from: c(-3, 1),
            to: c(-2, 0),
        });
        // Still imprisoned, still no release: pass again.
        assert_eq!(q.prisoners(WHITE), vec![c(0, 2)]);
        assert_eq!(q.moves().as_slice(), &[Move::Pass]);
    }

    #[test]
    fn imprisoning_moves_are_the_steps_that_add_to_the_counters() {
        let p: Position =
            "..wwww/...W.../......../........./.....b..../......w..../....bw..../......b../......../...B.../bbb... b 10 0 0 0 0"
                .parse()
                .unwrap();
        let mut noisy = MoveList::new();
        p.imprisoning_moves(&mut noisy);
        for mv in p.moves() {
            let mut q = p.clone();
            q.play(mv);
            let gained = q.ptrap(BLACK) + q.qtrap(BLACK) > 0;
            assert_eq!(noisy.contains(&mv), gained, "{mv}");
        }
        assert_eq!(noisy.len(), 1);
    }
}
