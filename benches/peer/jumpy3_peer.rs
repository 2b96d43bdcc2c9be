//! Jumpy3 written a second time, against the `minimax` crate's `Game` trait, for the peer
//! comparison (`cargo xtask bench`). It follows the rules of `crates/jumpy3/README.md` and the `jumpy3`
//! crate's ruling where the sheet is silent (a jumped piece is sent to the far empty square
//! counted with the jumped piece still on its square); `tests/peer.rs` checks that both
//! implementations play the same game and that the evaluation is the same.
//!
//! No repetition rule: the `minimax` crate's `Game` sees positions only.
//!
//! Included with `#[path]` by the benches, the report and the tests (it is no part of the
//! library: `benches`' own code does not name the peer).

#![allow(dead_code)]

use std::cell::Cell;

use minimax::{Evaluation, Evaluator, Game, Winner};
use plyforge::jumpy3;

/// A position: bit `i` is 0-based square `i` (square 1 is bit 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// White's pieces.
    pub white: u16,
    /// Black's pieces.
    pub black: u16,
    /// The squares holding a king.
    pub kings: u16,
    /// Black is to move.
    pub black_to_move: bool,
    hash: u64,
}

use plyforge::search::rng::splitmix64 as splitmix;

/// Zobrist keys: `[black][king][square]`, then the side to move.
const KEYS: [[[u64; 16]; 2]; 2] = {
    let mut k = [[[0u64; 16]; 2]; 2];
    let mut n = 0;
    while n < 64 {
        k[n / 32][(n / 16) % 2][n % 16] = splitmix(0x5eed_0000 + n as u64);
        n += 1;
    }
    k
};
const BLACK_TO_MOVE_KEY: u64 = splitmix(0x5eed_1000);

impl Board {
    /// A board from bit sets (a king on a square of `white` is White's king).
    pub fn new(white: u16, black: u16, kings: u16, black_to_move: bool) -> Board {
        let mut b = Board {
            white,
            black,
            kings,
            black_to_move,
            hash: 0,
        };
        b.hash = b.full_hash();
        b
    }

    /// The start position.
    pub fn start() -> Board {
        Board::new(0x000F, 0xF000, 0x8001, false)
    }

    /// The hash computed from scratch.
    pub fn full_hash(&self) -> u64 {
        let mut h = if self.black_to_move {
            BLACK_TO_MOVE_KEY
        } else {
            0
        };
        for (colour, pieces) in [self.white, self.black].into_iter().enumerate() {
            let mut bits = pieces;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let king = (self.kings >> sq) as usize & 1;
                h ^= KEYS[colour][king][sq];
            }
        }
        h
    }

    /// The incrementally kept hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The colour (false White, true Black) whose king has left the board, if any.
    pub fn winner_is_black(&self) -> Option<bool> {
        if self.kings & self.white == 0 {
            Some(false)
        } else if self.kings & self.black == 0 {
            Some(true)
        } else {
            None
        }
    }

    /// The board after the piece on 0-based square `from` of the side to move has moved.
    pub fn after(&self, from: u8) -> Board {
        // Work from White's side: Black's moves are White's on the reversed row.
        let flip = self.black_to_move;
        let orient = |x: u16| if flip { x.reverse_bits() } else { x };
        let real = |sq: u32| if flip { 15 - sq } else { sq } as usize;
        let (me, op) = (flip as usize, !flip as usize);
        let mut us = orient(if flip { self.black } else { self.white }) as u32;
        let mut them = orient(if flip { self.white } else { self.black }) as u32;
        let mut kings = orient(self.kings) as u32;
        let i = if flip { 15 - from as u32 } else { from as u32 };
        let mut hash = self.hash ^ BLACK_TO_MOVE_KEY;

        let occ = us | them;
        let king = (kings >> i) & 1;
        let dest = if i == 15 {
            None
        } else if occ & (1 << (i + 1)) == 0 {
            Some(i + 1)
        } else {
            let free = !occ & 0xFFFF & (0xFFFF_u32 << (i + 2));
            (free != 0).then(|| free.trailing_zeros())
        };
        us &= !(1 << i);
        kings &= !(1 << i);
        hash ^= KEYS[me][king as usize][real(i)];
        if let Some(j) = dest {
            us |= 1 << j;
            kings |= king << j;
            hash ^= KEYS[me][king as usize][real(j)];
            if j == i + 2 && them & (1 << (i + 1)) != 0 {
                // Send the jumped piece to the rightmost empty square.
                let c = i + 1;
                let empty = !(us | them) & 0xFFFF;
                let k = 31 - empty.leading_zeros();
                let ck = (kings >> c) & 1;
                them = (them & !(1 << c)) | (1 << k);
                kings = (kings & !(1 << c)) | (ck << k);
                hash ^= KEYS[op][ck as usize][real(c)] ^ KEYS[op][ck as usize][real(k)];
            }
        }
        let back = |x: u32| orient(x as u16);
        let (us, them, kings) = (back(us), back(them), back(kings));
        Board {
            white: if flip { them } else { us },
            black: if flip { us } else { them },
            kings,
            black_to_move: !flip,
            hash,
        }
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for sq in 0..16 {
            let bit = 1u16 << sq;
            let king = self.kings & bit != 0;
            let c = match (self.white & bit != 0, self.black & bit != 0, king) {
                (true, _, true) => 'W',
                (true, _, false) => 'w',
                (_, true, true) => 'B',
                (_, true, false) => 'b',
                _ => '.',
            };
            write!(f, "{c}")?;
        }
        write!(f, " {}", if self.black_to_move { 'b' } else { 'w' })
    }
}

/// The rules, for the `minimax` crate. A move is the 0-based square of the piece to move.
/// With `COUNT`, every move applied is counted on the calling thread ([`applied`]): the
/// peer's node count, for an untimed run (the crate does not report it).
pub struct Rules<const COUNT: bool>;

/// The rules as timed.
pub type Jumpy3 = Rules<false>;
/// The rules counting the moves applied.
pub type CountingJumpy3 = Rules<true>;

thread_local! {
    static APPLIED: Cell<u64> = const { Cell::new(0) };
}

/// Moves applied on this thread by [`CountingJumpy3`] since the last call (which resets it).
pub fn applied() -> u64 {
    APPLIED.with(|c| c.replace(0))
}

impl<const COUNT: bool> Game for Rules<COUNT> {
    type S = Board;
    type M = u8;

    fn generate_moves(s: &Board, moves: &mut Vec<u8>) -> Option<Winner> {
        if let Some(w) = Self::get_winner(s) {
            return Some(w);
        }
        let mut bits = if s.black_to_move { s.black } else { s.white };
        while bits != 0 {
            moves.push(bits.trailing_zeros() as u8);
            bits &= bits - 1;
        }
        None
    }

    fn apply(s: &mut Board, m: u8) -> Option<Board> {
        if COUNT {
            APPLIED.with(|c| c.set(c.get() + 1));
        }
        Some(s.after(m))
    }

    fn get_winner(s: &Board) -> Option<Winner> {
        s.winner_is_black().map(|black_won| {
            if black_won == s.black_to_move {
                Winner::PlayerToMove
            } else {
                Winner::PlayerJustMoved
            }
        })
    }

    fn zobrist_hash(s: &Board) -> u64 {
        s.hash
    }

    fn notation(_: &Board, m: u8) -> Option<String> {
        Some((m + 1).to_string())
    }

    fn table_index(m: u8) -> u16 {
        m as u16
    }

    fn max_table_index() -> u16 {
        15
    }
}

/// The sheet's estimate (`i + j - 15`, the kings' 0-based squares, from White's view),
/// from the view of the side to move as the `minimax` crate wants it. Terminal positions
/// are scored by the crate itself (a win is `BEST_EVAL` less the plies to it).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sheet<const COUNT: bool>;

/// The evaluation as timed.
pub type SheetEval = Sheet<false>;
/// The evaluation of [`CountingJumpy3`].
pub type CountingSheetEval = Sheet<true>;

impl<const COUNT: bool> Evaluator for Sheet<COUNT> {
    type G = Rules<COUNT>;

    fn evaluate(&self, s: &Board) -> Evaluation {
        let i = (s.kings & s.white).trailing_zeros() as Evaluation;
        let j = (s.kings & s.black).trailing_zeros() as Evaluation;
        let white_view = i + j - 15;
        if s.black_to_move {
            -white_view
        } else {
            white_view
        }
    }
}

/// A `minimax` crate value on the check's scale (`benches::check`): wins ±100.
pub fn peer_to_check(v: Evaluation) -> i32 {
    if v > minimax::BEST_EVAL - 1000 {
        benches::check::WIN
    } else if v < minimax::WORST_EVAL + 1000 {
        -benches::check::WIN
    } else {
        v as i32
    }
}

/// The peer's board for a position of the `jumpy3` crate.
pub fn from_position(p: &jumpy3::Position) -> Board {
    Board::new(
        p.pieces(jumpy3::WHITE),
        p.pieces(jumpy3::BLACK),
        p.kings(),
        plyforge::search::Game::to_move(p) == jumpy3::BLACK,
    )
}
