//! The rules: positions, moves, move generation, Zobrist keys and perft (the notation is in
//! `notation.rs`).

use search::{DrawKind, Game, MoveList, Outcome, Player};

/// White, player index 0, moves rightward (towards square 16) and moves first (in every
/// plyforge game the player indices follow the turn order, player 0 moving first).
pub const WHITE: Player = 0;
/// Black, player index 1, moves leftward (towards square 1).
pub const BLACK: Player = 1;

/// Number of squares on the board.
pub const SQUARES: usize = 16;

/// Deterministic Zobrist numbers: splitmix64 from a fixed seed, computed at compile time.
const fn zobrist_table() -> [u64; 65] {
    let mut out = [0u64; 65];
    let mut state: u64 = 0x4A75_6D70_7933_2021; // "Jumpy3 2021"
    let mut n = 0;
    while n < 65 {
        out[n] = search::rng::splitmix64(state);
        state = state.wrapping_add(search::rng::GOLDEN_GAMMA);
        n += 1;
    }
    out
}

/// `ZOBRIST[(colour * 2 + is_king) * 16 + square]`; entry 64 is "Black to move".
const ZOBRIST: [u64; 65] = zobrist_table();

#[inline(always)]
fn zobrist(colour: usize, king: bool, square: u32) -> u64 {
    ZOBRIST[(colour * 2 + king as usize) * 16 + square as usize]
}

/// Zobrist number of the side to move (XORed in when Black is to move).
const ZOBRIST_BLACK_TO_MOVE: u64 = ZOBRIST[64];

/// The name of a side for people (in messages).
pub(crate) fn side_name(side: Player) -> &'static str {
    if side == WHITE {
        "White"
    } else {
        "Black"
    }
}

/// A move: the square (1..=16) of the piece that moves. Which way it goes follows from
/// the side to move.
///
/// ```
/// use plyforge_jumpy3::Move;
/// let m: Move = "4".parse().unwrap();
/// assert_eq!(m.square(), 4);
/// assert_eq!(m.to_string(), "4");
/// assert!("17".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub(crate) u8);

impl Move {
    /// The move of the piece on `square` (1..=16); `None` for any other number.
    pub fn new(square: u8) -> Option<Move> {
        (1..=16).contains(&square).then(|| Move(square - 1))
    }

    /// The square in notation, 1..=16.
    pub fn square(self) -> u8 {
        self.0 + 1
    }

    /// The 0-based index of the square, 0..=15.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub(crate) fn from_index(index: u32) -> Move {
        Move(index as u8)
    }
}

/// A Jumpy3 position: the 16 squares and the side to move, with its Zobrist key.
///
/// Bit `i` of each bit set is the 0-based square `i` (square `i + 1` in notation).
///
/// ```
/// use plyforge_jumpy3::{search::Game, Move, Position};
/// let mut p = Position::start();
/// assert_eq!(p.to_string(), "Wwww........bbbB w");
/// p.play(Move::new(4).unwrap());
/// assert_eq!(p.to_string(), "Www.w.......bbbB b");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Occupancy of each colour.
    pieces: [u16; 2],
    /// Squares holding a king (of either colour).
    kings: u16,
    /// The side to move.
    pub(crate) side: u8,
    /// Zobrist key, maintained incrementally.
    key: u64,
}

impl Position {
    /// The start position `Wwww........bbbB w`.
    pub fn start() -> Position {
        Position::from_parts(0x000F, 0xF000, 0x8001, WHITE)
    }

    /// A position from bit sets: White's pieces, Black's pieces, the kings (a subset of the
    /// pieces, at most one per colour), and the side to move. `None` if the sets are not a
    /// position (overlap, more than one king or three pawns for a side, kings not on pieces,
    /// no king at all, no king of the side to move, or a side other than 0 and 1).
    pub fn from_bits(white: u16, black: u16, kings: u16, side: Player) -> Option<Position> {
        let ok = white & black == 0
            && kings & !(white | black) == 0
            && (kings & white).count_ones() <= 1
            && (kings & black).count_ones() <= 1
            && kings != 0
            && (white & !kings).count_ones() <= 3
            && (black & !kings).count_ones() <= 3
            && side <= 1
            && kings & [white, black][side.min(1)] != 0;
        ok.then(|| Position::from_parts(white, black, kings, side))
    }

    pub(crate) fn from_parts(white: u16, black: u16, kings: u16, side: Player) -> Position {
        let mut p = Position {
            pieces: [white, black],
            kings,
            side: side as u8,
            key: 0,
        };
        p.key = p.compute_key();
        p
    }

    /// The squares (bits) of `side`'s pieces, king included.
    pub fn pieces(&self, side: Player) -> u16 {
        self.pieces[side]
    }

    /// The squares (bits) holding a king.
    pub fn kings(&self) -> u16 {
        self.kings
    }

    /// The 0-based square of `side`'s king, `None` once it has left the board.
    pub fn king(&self, side: Player) -> Option<u32> {
        let k = self.kings & self.pieces[side];
        (k != 0).then(|| k.trailing_zeros())
    }

    /// The number of `side`'s pawns on the board.
    pub fn pawns(&self, side: Player) -> u32 {
        (self.pieces[side] & !self.kings).count_ones()
    }

    /// The mirror image: the row reversed and the colours swapped (side to move too).
    /// The game is symmetric under it.
    pub fn mirror(&self) -> Position {
        Position::from_parts(
            self.pieces[BLACK].reverse_bits(),
            self.pieces[WHITE].reverse_bits(),
            self.kings.reverse_bits(),
            1 - self.to_move(),
        )
    }

    fn compute_key(&self) -> u64 {
        let mut key = if self.side as Player == BLACK {
            ZOBRIST_BLACK_TO_MOVE
        } else {
            0
        };
        for colour in 0..2 {
            let mut bits = self.pieces[colour];
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                key ^= zobrist(colour, self.kings & (1 << sq) != 0, sq);
            }
        }
        key
    }

    /// The character of 0-based square `i` in notation.
    pub(crate) fn square_char(&self, i: u32) -> char {
        let bit = 1u16 << i;
        let king = self.kings & bit != 0;
        match (
            self.pieces[WHITE] & bit != 0,
            self.pieces[BLACK] & bit != 0,
            king,
        ) {
            (true, _, true) => 'W',
            (true, _, false) => 'w',
            (_, true, true) => 'B',
            (_, true, false) => 'b',
            _ => '.',
        }
    }

    /// Plays the move of the piece on 0-based square `from` for the side to move, which must
    /// own a piece there.
    #[inline(always)]
    fn apply(&mut self, from: u32) {
        *self = self.moved_from(from);
    }

    /// The position after the move of the piece on 0-based square `from` (see
    /// [`Position::apply`]), built from `self`.
    #[inline(always)]
    fn moved_from(&self, from: u32) -> Position {
        let us = self.side as usize;
        let them = us ^ 1;
        let occ = self.pieces[0] | self.pieces[1];
        let from_bit = 1u16 << from;
        let is_king = self.kings & from_bit != 0;
        let mut key = self.key ^ ZOBRIST_BLACK_TO_MOVE ^ zobrist(us, is_king, from);
        // The piece lands on the first empty square ahead (a step if the next square is
        // empty, else a jump), or leaves the board if there is none. It captures when it
        // jumped over exactly one square holding an enemy piece. The direction is chosen by
        // selects, not branches: the side changes from ply to ply and would be mispredicted.
        let white = us == WHITE;
        let ahead_squares = if white {
            0xFFFEu16 << from
        } else {
            from_bit - 1
        };
        let ahead = !occ & ahead_squares;
        let j = if white {
            ahead.trailing_zeros()
        } else {
            15u32.wrapping_sub(ahead.leading_zeros())
        };
        let over = if white {
            from + 1
        } else {
            from.wrapping_sub(1)
        };
        let two_ahead = if white {
            from + 2
        } else {
            from.wrapping_sub(2)
        };
        let jumped_one = j == two_ahead;
        let to = (ahead != 0).then_some(j);
        let captured = ((ahead != 0) & jumped_one & (self.pieces[them] >> (over & 15) & 1 != 0))
            .then_some(over);
        // Move the jumper.
        let mut mine = self.pieces[us] & !from_bit;
        let mut kings = self.kings & !from_bit;
        if let Some(j) = to {
            mine |= 1 << j;
            if is_king {
                kings |= 1 << j;
            }
            key ^= zobrist(us, is_king, j);
        }
        let mut theirs = self.pieces[them];
        // Send the jumped piece to the far empty square, computed after the jumper moved
        // (the jumped piece still on its square).
        if let Some(c) = captured {
            let c_bit = 1u16 << c;
            let empty = !(mine | theirs);
            let k = if us == WHITE {
                15 - empty.leading_zeros()
            } else {
                empty.trailing_zeros()
            };
            let c_king = kings & c_bit != 0;
            theirs = (theirs & !c_bit) | (1 << k);
            if c_king {
                kings = (kings & !c_bit) | (1 << k);
            }
            key ^= zobrist(them, c_king, c) ^ zobrist(them, c_king, k);
        }
        // Both colours by a select: written by index and read back whole, they would wait
        // for the writes (a failed store-to-load forwarding).
        let pieces = if white {
            [mine, theirs]
        } else {
            [theirs, mine]
        };
        Position {
            pieces,
            kings,
            side: them as u8,
            key,
        }
    }

    /// The position after `mv` (a copy; `self` is unchanged). The move must be legal.
    pub fn after(&self, mv: Move) -> Position {
        let mut p = *self;
        p.play(mv);
        p
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

    #[inline]
    fn to_move(&self) -> Player {
        self.side as Player
    }

    /// The moves in square order (square 1 first).
    #[inline]
    fn legal_moves(&self, out: &mut MoveList<Move>) {
        // Both kings on the board: the game goes on.
        if (self.kings & self.pieces[0]) == 0 || (self.kings & self.pieces[1]) == 0 {
            return;
        }
        // Into an empty list (the search's case): four slots filled without a loop on the
        // position (a side has at most four pieces), and the list's length set to the number
        // of pieces. That number changes from node to node, and a loop that ends after it
        // would be mispredicted.
        let mut bits = self.pieces[self.side as usize];
        let n = bits.count_ones() as usize;
        if out.is_empty() {
            let mut slots = [Move(0); 128];
            for slot in &mut slots[..4] {
                *slot = Move::from_index(bits.trailing_zeros() & 15);
                bits &= bits.wrapping_sub(1);
            }
            *out = MoveList::from_buf_and_len(slots, n);
        } else {
            while bits != 0 {
                out.push(Move::from_index(bits.trailing_zeros()));
                bits &= bits - 1;
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        debug_assert!(self.pieces[self.side as usize] & (1 << mv.0) != 0);
        self.apply(mv.0 as u32);
    }

    /// The child built from `parent` and written once (see [`Game::play_from`]).
    #[inline]
    fn play_from(&mut self, parent: &Position, mv: Move) {
        debug_assert!(parent.pieces[parent.side as usize] & (1 << mv.0) != 0);
        *self = parent.moved_from(mv.0 as u32);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.kings & self.pieces[WHITE] == 0 {
            Some(Outcome::Win(WHITE))
        } else if self.kings & self.pieces[BLACK] == 0 {
            Some(Outcome::Win(BLACK))
        } else {
            None
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn recompute_key(&self) -> u64 {
        self.compute_key()
    }

    /// The repetition key is the key (the squares and the side to move): all there is.
    fn repetition_key_decides_future(&self) -> bool {
        true
    }

    fn repetition_rule(&self) -> Option<(u32, Outcome)> {
        Some((3, Outcome::Draw(DrawKind::Repetition)))
    }

    /// Captures (a jump over exactly one enemy piece, which is sent back) and the king's
    /// move when it leaves the board (a win), in square order.
    fn noisy_moves(&self, out: &mut MoveList<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let white = self.pieces[WHITE];
        let black = self.pieces[BLACK];
        let occ = white | black;
        let empty = !occ;
        let (mut noisy, king) = if self.side as Player == WHITE {
            let captures = white & (black >> 1) & (empty >> 2);
            let k = (self.kings & white).trailing_zeros();
            // The king leaves from square 16, or when every square beyond its blocker is full.
            let leaves = k == 15 || (occ & (2 << k) != 0 && empty & (0xFFFFu16 << k << 2) == 0);
            (captures, if leaves { 1u16 << k } else { 0 })
        } else {
            let captures = black & (white << 1) & (empty << 2);
            let k = (self.kings & black).trailing_zeros();
            let leaves = k == 0
                || (occ & (1 << (k - 1)) != 0 && empty & ((1u16 << k) >> 1).wrapping_sub(1) == 0);
            (captures, if leaves { 1u16 << k } else { 0 })
        };
        noisy |= king;
        while noisy != 0 {
            out.push(Move::from_index(noisy.trailing_zeros()));
            noisy &= noisy - 1;
        }
    }

    fn why_illegal(&self, mv: Move) -> Option<search::IllegalMove> {
        self.illegal_reason(mv).map(search::IllegalMove::new)
    }
}

impl Position {
    /// Why `mv` is not legal here, in words; `None` if it is.
    fn illegal_reason(&self, mv: Move) -> Option<String> {
        if let Some(Outcome::Win(w)) = self.outcome() {
            return Some(format!(
                "the game is over: {} has won (its king has left the board)",
                side_name(w)
            ));
        }
        let bit = 1u16 << mv.0;
        let us = self.side as Player;
        if self.pieces[us] & bit != 0 {
            None
        } else if self.pieces[us ^ 1] & bit != 0 {
            Some(format!(
                "square {} holds a {} piece, but {} is to move",
                mv.square(),
                side_name(us ^ 1),
                side_name(us)
            ))
        } else {
            Some(format!(
                "square {} is empty: it holds no piece of the side to move ({})",
                mv.square(),
                side_name(us)
            ))
        }
    }
}
