//! The rules: positions, moves and the [`search::Game`] implementation (the notation is in
//! `notation.rs`).

use search::{Game, MoveList, Outcome, Player};

/// Player index of Odd (甲), owner of the odd pieces.
pub const ODD: Player = 0;
/// Player index of Even (乙), owner of the even pieces; Even moves first.
pub const EVEN: Player = 1;

/// Bit `n` (1..=12) set for every odd piece.
pub(crate) const ODD_PIECES: u16 = 0b0_1010_1010_1010;
/// Bit `n` (1..=12) set for every even piece.
pub(crate) const EVEN_PIECES: u16 = 0b1_0101_0101_0100;
/// Bit `n` set for every piece 1..=12.
pub(crate) const ALL_PIECES: u16 = ODD_PIECES | EVEN_PIECES;

/// The owner of piece `n` (1..=12): odd pieces are Odd's, even pieces Even's.
#[inline]
pub fn owner(piece: u8) -> Player {
    if piece % 2 == 1 {
        ODD
    } else {
        EVEN
    }
}

/// The pieces (as a bit set over 1..=12) that `player` owns.
#[inline]
pub(crate) fn pieces_of(player: Player) -> u16 {
    if player == ODD {
        ODD_PIECES
    } else {
        EVEN_PIECES
    }
}

/// Where piece `piece` standing on `square` lands when walked (both 1..=12).
/// Piece 12 lands on the square it left (it goes round the whole clock).
#[inline]
pub fn walk_target(square: u8, piece: u8) -> u8 {
    (square - 1 + piece) % 12 + 1
}

/// A move: walk a piece on the board, place a piece from the mover's hand, or pass.
///
/// Notation: `wN` walks piece N, `pN` places piece N (on square N), `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Walk piece N (either colour) N squares clockwise.
    Walk(u8),
    /// Place piece N from the mover's hand on its home square N.
    Place(u8),
    /// Give the turn to the opponent.
    Pass,
}

/// A Chaos Clock position: the board, the side to move, the last moved piece and whether the
/// previous move was a pass.
///
/// Notation: `b1,…,b12;P;L` (see the crate documentation). The pass flag is not part of the
/// notation: a parsed position never follows a pass. It is part of [`Game::key`] and
/// [`Game::repetition_key`], since a position after a pass (where a pass ends the game) and the
/// same board otherwise have different futures.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `board[i]`: the piece on square `i + 1`, 0 if empty.
    pub(crate) board: [u8; 12],
    /// `at[n]`: the square of piece `n`, 0 if in hand (`at[0]` unused).
    at: [u8; 13],
    /// The player to move.
    pub(crate) side: u8,
    /// The piece walked or placed on the previous move (0: none or a pass).
    pub(crate) last: u8,
    /// Passes in succession just made: 0, 1, or 2 (the game is over).
    passes: u8,
    /// Zobrist key, maintained incrementally.
    key: u64,
}

use search::rng::splitmix64 as splitmix;

/// Zobrist numbers: 12 squares × 13 contents, then side, 13 restrictions, 3 pass counts.
const fn zobrist_table() -> [u64; 12 * 13 + 1 + 13 + 3] {
    let mut t = [0u64; 12 * 13 + 1 + 13 + 3];
    let mut i = 0;
    while i < t.len() {
        t[i] = splitmix(0xC4A0_5C10_C000_0000 ^ (i as u64).wrapping_mul(0x1000_0001));
        i += 1;
    }
    t
}

const ZOBRIST: [u64; 12 * 13 + 1 + 13 + 3] = zobrist_table();

#[inline]
fn z_cell(square: u8, piece: u8) -> u64 {
    if piece == 0 {
        0
    } else {
        ZOBRIST[(square as usize - 1) * 13 + piece as usize]
    }
}
const Z_SIDE: usize = 12 * 13;
const Z_RESTRICT: usize = Z_SIDE + 1;
const Z_PASSES: usize = Z_RESTRICT + 13;

#[inline]
fn z_restrict(r: u8) -> u64 {
    if r == 0 {
        0
    } else {
        ZOBRIST[Z_RESTRICT + r as usize]
    }
}

#[inline]
fn z_passes(p: u8) -> u64 {
    if p == 0 {
        0
    } else {
        ZOBRIST[Z_PASSES + p as usize]
    }
}

/// A small deterministic generator (xorshift64*), so that seeds give the same starts everywhere.
#[derive(Clone, Debug)]
pub(crate) struct Rng(search::rng::XorShift64Star);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(search::rng::XorShift64Star::from_state(splitmix(seed) | 1))
    }
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (n small; the modulo bias is negligible).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        (self.next_u64() >> 11) % n
    }
}

impl Position {
    /// The sample start of the game's original README, `8,6,1,11,9,10,12,7,4,2,3,5;1;0` (Even to move).
    pub fn start() -> Position {
        Position::assemble([8, 6, 1, 11, 9, 10, 12, 7, 4, 2, 3, 5], EVEN, 0)
    }

    /// A random start from `seed`: the twelve pieces on the twelve squares with none home
    /// (a derangement), Even to move. The same seed gives the same start on every platform.
    pub fn random(seed: u64) -> Position {
        let mut rng = Rng::new(seed);
        loop {
            let mut board: [u8; 12] = std::array::from_fn(|i| i as u8 + 1);
            for i in (1..12).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                board.swap(i, j);
            }
            if board.iter().enumerate().all(|(i, &p)| p != i as u8 + 1) {
                return Position::assemble(board, EVEN, 0);
            }
        }
    }

    /// The position of a board that holds each piece at most once, with the side to move
    /// and the piece moved last (checked by the caller: [`Position::from_parts`] in the
    /// notation, or a board made valid).
    pub(crate) fn assemble(board: [u8; 12], side: Player, last: u8) -> Position {
        let mut at = [0u8; 13];
        for (i, &p) in board.iter().enumerate() {
            if p != 0 {
                at[p as usize] = i as u8 + 1;
            }
        }
        let mut pos = Position {
            board,
            at,
            side: side as u8,
            last,
            passes: 0,
            key: 0,
        };
        pos.key = pos.recompute_key();
        pos
    }

    /// The piece on `square` (1..=12), if any.
    pub fn piece_at(&self, square: u8) -> Option<u8> {
        Some(self.board[square as usize - 1]).filter(|&p| p != 0)
    }

    /// The square (1..=12) of `piece`, or `None` if it is in its owner's hand.
    pub fn square_of(&self, piece: u8) -> Option<u8> {
        match self.at[piece as usize] {
            0 => None,
            s => Some(s),
        }
    }

    /// The board: entry `i` is the piece on square `i + 1` (0: empty).
    pub fn board(&self) -> [u8; 12] {
        self.board
    }

    /// The piece moved (walked or placed) on the previous move; 0 for none or a pass.
    pub fn last_moved(&self) -> u8 {
        self.last
    }

    /// Whether the previous move was a pass (then a pass ends the game, both losing).
    /// Not part of the notation: a parsed position has `false`.
    pub fn after_pass(&self) -> bool {
        self.passes > 0
    }

    /// Whether piece `piece` is home (stands on its own square).
    #[inline]
    pub fn is_home(&self, piece: u8) -> bool {
        self.at[piece as usize] == piece
    }

    /// The home pieces as a bit set (bit `n` for piece `n`).
    #[inline]
    pub(crate) fn home_mask(&self) -> u16 {
        let mut m = 0u16;
        for (i, &p) in self.board.iter().enumerate() {
            if p == i as u8 + 1 {
                m |= 1 << p;
            }
        }
        m
    }

    /// The pieces on the board as a bit set.
    #[inline]
    pub(crate) fn board_mask(&self) -> u16 {
        let mut m = 0u16;
        for &p in &self.board {
            m |= 1 << p;
        }
        m & ALL_PIECES
    }

    /// The pieces in `player`'s hand, as a bit set.
    #[inline]
    pub(crate) fn hand_mask(&self, player: Player) -> u16 {
        pieces_of(player) & !self.board_mask()
    }

    /// The pieces in `player`'s hand, ascending.
    pub fn hand(&self, player: Player) -> Vec<u8> {
        let m = self.hand_mask(player);
        (1..=12).filter(|n| m & (1 << n) != 0).collect()
    }

    /// Whether all six of `player`'s pieces are home.
    #[inline]
    pub fn complete(&self, player: Player) -> bool {
        let own = pieces_of(player);
        self.home_mask() & own == own
    }

    /// Why walking `piece` is illegal ignoring the turn restriction and game end, or `None`.
    fn why_walk_blocked(&self, piece: u8) -> Option<String> {
        let sq = self.at[piece as usize];
        if sq == 0 {
            return Some(format!("piece {piece} is not on the board"));
        }
        if sq == piece {
            return Some(format!("piece {piece} is home and cannot move"));
        }
        if self.lands_on_home(piece, sq) {
            let t = walk_target(sq, piece);
            return Some(format!(
                "piece {piece} would land on square {t}, which holds its home piece {t}"
            ));
        }
        None
    }

    /// Whether walking `piece`, standing on `sq` (not its home), would land on a home piece,
    /// which makes the walk illegal. (Piece 12 lands on its own square: never.)
    #[inline]
    fn lands_on_home(&self, piece: u8, sq: u8) -> bool {
        let t = walk_target(sq, piece);
        self.board[t as usize - 1] == t
    }

    /// The piece that may not be walked now, if that restriction removes a move: the piece the
    /// opponent walked on the previous move when walking it would otherwise be legal; else 0.
    /// This (not the notation's `L`) is the "last walked piece" of the repetition rule.
    #[inline]
    pub fn restriction(&self) -> u8 {
        let l = self.last;
        if l == 0 {
            return 0;
        }
        let sq = self.at[l as usize];
        if sq == 0 || sq == l || self.lands_on_home(l, sq) {
            return 0;
        }
        l
    }

    /// The exact state as one number: board, side to move, [`restriction`](Self::restriction)
    /// and the pass flag (bits 0..48: 4 bits per square; 48: side; 49..53: restriction; 53:
    /// after a pass; 54: the game ended by two passes). Two positions with the same code have
    /// the same future; this identity is what the repetition rule compares.
    #[inline]
    pub fn code(&self) -> u64 {
        let mut c = 0u64;
        for (i, &p) in self.board.iter().enumerate() {
            c |= (p as u64) << (4 * i);
        }
        c | (self.side as u64) << 48
            | (self.restriction() as u64) << 49
            | (self.passes.min(2) as u64) << 53
    }

    /// The position after `mv` (which must be legal).
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let mut p = self.clone();
        p.play(mv);
        p
    }

    /// Whether `mv` captures a piece.
    pub fn is_capture(&self, mv: Move) -> bool {
        match mv {
            Move::Walk(n) => {
                let sq = self.at[n as usize];
                sq != 0 && n != 12 && self.board[walk_target(sq, n) as usize - 1] != 0
            }
            Move::Place(n) => self.board[n as usize - 1] != 0,
            Move::Pass => false,
        }
    }

    /// Appends the legal walks and placements (not the pass) in the fixed order: walks by
    /// square 1..=12, then placements by piece.
    #[inline]
    pub(crate) fn walks_and_places(&self, out: &mut MoveList<Move>) {
        let restricted = self.last;
        for (i, &p) in self.board.iter().enumerate() {
            let sq = i as u8 + 1;
            if p != 0 && p != sq && p != restricted && !self.lands_on_home(p, sq) {
                out.push(Move::Walk(p));
            }
        }
        let mut hand = self.hand_mask(self.side as Player);
        while hand != 0 {
            let n = hand.trailing_zeros() as u8;
            hand &= hand - 1;
            out.push(Move::Place(n));
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
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
        if self.outcome().is_some() {
            return;
        }
        self.walks_and_places(out);
        out.push(Move::Pass);
    }

    fn play(&mut self, mv: Move) {
        let old_restriction = self.restriction();
        let mut key = self.key ^ z_restrict(old_restriction) ^ z_passes(self.passes);
        let mover = self.side as Player;
        let mut keep_turn = false;
        match mv {
            Move::Walk(n) => {
                let sq = self.at[n as usize];
                debug_assert!(sq != 0, "walk of a piece not on the board");
                key ^= z_cell(sq, n);
                self.board[sq as usize - 1] = 0;
                if n == 12 {
                    self.at[12] = 0;
                } else {
                    let t = walk_target(sq, n);
                    let captured = self.board[t as usize - 1];
                    if captured != 0 {
                        key ^= z_cell(t, captured);
                        self.at[captured as usize] = 0;
                    }
                    self.board[t as usize - 1] = n;
                    self.at[n as usize] = t;
                    key ^= z_cell(t, n);
                }
                self.passes = 0;
                self.last = n;
            }
            Move::Place(n) => {
                let captured = self.board[n as usize - 1];
                if captured != 0 {
                    key ^= z_cell(n, captured);
                    self.at[captured as usize] = 0;
                    keep_turn = owner(captured) != mover;
                }
                self.board[n as usize - 1] = n;
                self.at[n as usize] = n;
                key ^= z_cell(n, n);
                self.passes = 0;
                self.last = n;
            }
            Move::Pass => {
                self.passes = (self.passes + 1).min(2);
                self.last = 0;
            }
        }
        if !keep_turn {
            self.side ^= 1;
            key ^= ZOBRIST[Z_SIDE];
        }
        self.key = key ^ z_restrict(self.restriction()) ^ z_passes(self.passes);
    }

    fn outcome(&self) -> Option<Outcome> {
        let home = self.home_mask();
        let odd = home & ODD_PIECES == ODD_PIECES;
        let even = home & EVEN_PIECES == EVEN_PIECES;
        match (odd, even) {
            (true, true) => Some(Outcome::BothWin),
            (true, false) if self.side as Player == ODD => Some(Outcome::Win(ODD)),
            (false, true) if self.side as Player == EVEN => Some(Outcome::Win(EVEN)),
            _ if self.passes >= 2 => Some(Outcome::BothLose),
            _ => None,
        }
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn recompute_key(&self) -> u64 {
        let mut k = 0;
        for (i, &p) in self.board.iter().enumerate() {
            k ^= z_cell(i as u8 + 1, p);
        }
        if self.side == 1 {
            k ^= ZOBRIST[Z_SIDE];
        }
        k ^ z_restrict(self.restriction()) ^ z_passes(self.passes)
    }

    /// The repetition key covers the board, the side to move, the restricted piece and the
    /// pass flag: exactly what decides the rest of the game (see the crate's rulings).
    fn repetition_key_decides_future(&self) -> bool {
        true
    }

    fn repetition_rule(&self) -> Option<(u32, Outcome)> {
        Some((2, Outcome::BothLose))
    }

    fn why_illegal(&self, mv: Move) -> Option<search::IllegalMove> {
        self.illegal_reason(mv).map(search::IllegalMove::new)
    }

    fn noisy_moves(&self, out: &mut MoveList<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let mut all = MoveList::new();
        self.walks_and_places(&mut all);
        out.extend(all.into_iter().filter(|&m| self.is_capture(m)));
    }
}

impl Position {
    /// Why `mv` is not legal here, in words; `None` if it is.
    fn illegal_reason(&self, mv: Move) -> Option<String> {
        if let Some(o) = self.outcome() {
            return Some(format!("the game is over ({o:?})"));
        }
        let side = self.side as Player;
        let name = crate::player_name(side);
        match mv {
            Move::Pass => None,
            Move::Walk(n) if !(1..=12).contains(&n) => Some(format!("there is no piece {n}")),
            Move::Place(n) if !(1..=12).contains(&n) => Some(format!("there is no piece {n}")),
            Move::Walk(n) => {
                if let Some(why) = self.why_walk_blocked(n) {
                    Some(why)
                } else if n == self.last {
                    Some(format!(
                        "piece {n} was walked on the previous move and may not be walked again now"
                    ))
                } else {
                    None
                }
            }
            Move::Place(n) => {
                if owner(n) != side {
                    Some(format!("piece {n} is not {name}'s piece"))
                } else if self.at[n as usize] != 0 {
                    Some(format!(
                        "piece {n} is on the board (square {}), not in {name}'s hand",
                        self.at[n as usize]
                    ))
                } else {
                    None
                }
            }
        }
    }
}
