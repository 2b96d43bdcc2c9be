//! Othello on a 6×6 board, the second benchmark game a user would write: another
//! shape than Connect Four (more moves, passes, discs that flip, the end by counting), written
//! once for `plyforge-search`'s [`Game`] and searched by this engine, the `minimax` crate and
//! the plain alpha-beta of [`crate::plain`].
//!
//! Bit `row * 6 + column` (row 0 at the top, column 0 on the left). `x` (Black) moves first;
//! a player without a move passes ([`PASS`]); the game ends when neither can move, and the
//! one with more discs wins. Notation: the 36 cells row by row (`x`, `o`, `.`), a space, the
//! player to move.
//!
//! ```
//! use benches::othello::{Othello, OthelloEval};
//! use plyforge::search::{perft, Game, Limits, Search, Config, SideToMove};
//! let start = Othello::start();
//! assert_eq!(start.moves().len(), 4);
//! assert_eq!(perft(&start, 4), 244);
//! let r = Search::new(Config::default(), SideToMove(OthelloEval)).analyse(&start, Limits::depth(4));
//! assert_eq!(r.depth, 4);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::board36::{self, ParsePositionError};
use plyforge::search::rng::splitmix64;
use plyforge::search::{DrawKind, Game, MoveList, Outcome, Player, SideToMoveEval};

/// The cells of the board.
const BOARD: u64 = (1 << 36) - 1;
/// Column 0 and column 5.
const COL0: u64 = 0x041041041;
const COL5: u64 = COL0 << 5;

/// The pass: the move of a player who has no other.
pub const PASS: u8 = 36;

/// The eight directions, as shifts that keep a line on the board.
#[inline(always)]
fn shift(b: u64, dir: usize) -> u64 {
    match dir {
        0 => (b << 1) & !COL0 & BOARD,
        1 => (b >> 1) & !COL5,
        2 => (b << 6) & BOARD,
        3 => b >> 6,
        4 => (b << 7) & !COL0 & BOARD,
        5 => (b << 5) & !COL5 & BOARD,
        6 => (b >> 5) & !COL0,
        _ => (b >> 7) & !COL5,
    }
}

/// The cells where the player with discs `own` may play against `opp`.
#[inline]
fn mobility(own: u64, opp: u64) -> u64 {
    let empty = BOARD & !(own | opp);
    let mut moves = 0;
    for dir in 0..8 {
        let mut x = shift(own, dir) & opp;
        for _ in 0..3 {
            x |= shift(x, dir) & opp;
        }
        moves |= shift(x, dir) & empty;
    }
    moves
}

/// The discs a disc on `m` (a bit) flips.
#[inline]
fn flips(own: u64, opp: u64, m: u64) -> u64 {
    let mut all = 0;
    for dir in 0..8 {
        let mut line = 0;
        let mut t = shift(m, dir);
        while t & opp != 0 {
            line |= t;
            t = shift(t, dir);
        }
        if t & own != 0 {
            all |= line;
        }
    }
    all
}

const Z: [[u64; 36]; 2] = board36::zobrist(0x07E1_1000);
const Z_O_TO_MOVE: u64 = splitmix64(0x07E1_2000);

/// A position of 6×6 Othello.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    discs: [u64; 2],
    side: u8,
    /// Whether neither player can move.
    over: bool,
    key: u64,
}

impl Othello {
    /// The start: four discs in the centre, `x` to move.
    pub fn start() -> Othello {
        let (d1, d2) = ((1u64 << 14) | (1 << 21), (1u64 << 15) | (1 << 20));
        Othello::from_discs([d2, d1], 0)
    }

    fn from_discs(discs: [u64; 2], side: u8) -> Othello {
        let mut p = Othello {
            discs,
            side,
            over: false,
            key: 0,
        };
        let me = side as usize;
        p.over = mobility(discs[me], discs[1 - me]) == 0 && mobility(discs[1 - me], discs[me]) == 0;
        p.key = p.recompute_key();
        p
    }

    /// The discs of `player` (bit `row * 6 + column`).
    pub fn discs(&self, player: Player) -> u64 {
        self.discs[player & 1]
    }
}

impl Game for Othello {
    type Move = u8;

    fn players(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.side as Player
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList<u8>) {
        if self.over {
            return;
        }
        let me = self.side as usize;
        let mut m = mobility(self.discs[me], self.discs[1 - me]);
        if m == 0 {
            out.push(PASS);
        }
        while m != 0 {
            out.push(m.trailing_zeros() as u8);
            m &= m - 1;
        }
    }

    #[inline]
    fn play(&mut self, mv: u8) {
        let me = self.side as usize;
        if mv != PASS {
            let bit = 1u64 << mv;
            let f = flips(self.discs[me], self.discs[1 - me], bit);
            self.discs[me] |= bit | f;
            self.discs[1 - me] &= !f;
            self.key ^= Z[me][mv as usize];
            let mut b = f;
            while b != 0 {
                let sq = b.trailing_zeros() as usize;
                self.key ^= Z[me][sq] ^ Z[1 - me][sq];
                b &= b - 1;
            }
        }
        self.side ^= 1;
        self.key ^= Z_O_TO_MOVE;
        let next = self.side as usize;
        self.over = mobility(self.discs[next], self.discs[1 - next]) == 0
            && mobility(self.discs[1 - next], self.discs[next]) == 0;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let (a, b) = (self.discs[0].count_ones(), self.discs[1].count_ones());
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw(DrawKind::Score),
        })
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn recompute_key(&self) -> u64 {
        let second = if self.side == 1 { Z_O_TO_MOVE } else { 0 };
        board36::key(&Z, self.discs, second)
    }

    fn zero_sum(&self) -> bool {
        true
    }
}

/// Corners.
const CORNERS: u64 = 1 | (1 << 5) | (1 << 30) | (1 << 35);
/// The cells next to a corner (a disc there gives the corner away).
const NEXT_TO_CORNERS: u64 = (1 << 1)
    | (1 << 6)
    | (1 << 7)
    | (1 << 4)
    | (1 << 10)
    | (1 << 11)
    | (1 << 24)
    | (1 << 25)
    | (1 << 31)
    | (1 << 28)
    | (1 << 29)
    | (1 << 34);
/// The other edge cells.
const EDGES: u64 = (COL0 | COL5 | 0x3f | (0x3f << 30)) & !CORNERS & !NEXT_TO_CORNERS;

/// A simple evaluation from the side to move's view: corners 20, edges 3, cells next to a
/// corner -6, every other disc 1, and 4 for each move more than the other player has.
#[derive(Clone, Copy, Debug, Default)]
pub struct OthelloEval;

/// [`OthelloEval`]'s value of `p` for the player to move.
pub fn evaluate(p: &Othello) -> i32 {
    let me = p.side as usize;
    let (own, opp) = (p.discs[me], p.discs[1 - me]);
    let score = |d: u64| {
        20 * (d & CORNERS).count_ones() as i32 + 3 * (d & EDGES).count_ones() as i32
            - 6 * (d & NEXT_TO_CORNERS).count_ones() as i32
            + (d & !(CORNERS | EDGES | NEXT_TO_CORNERS)).count_ones() as i32
    };
    let mob = mobility(own, opp).count_ones() as i32 - mobility(opp, own).count_ones() as i32;
    score(own) - score(opp) + 4 * mob
}

impl SideToMoveEval<Othello> for OthelloEval {
    #[inline]
    fn evaluate(&self, p: &Othello) -> i32 {
        evaluate(p)
    }

    fn aspiration_window(&self) -> i32 {
        12
    }
}

impl fmt::Display for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for sq in 0..36 {
            let c = if self.discs[0] >> sq & 1 != 0 {
                'x'
            } else if self.discs[1] >> sq & 1 != 0 {
                'o'
            } else {
                '.'
            };
            write!(f, "{c}")?;
        }
        write!(f, " {}", ['x', 'o'][self.side as usize])
    }
}

impl FromStr for Othello {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Othello, ParsePositionError> {
        let err = |m: String| Err(ParsePositionError(m));
        let Some((cells, side)) = s.trim().split_once(' ') else {
            return err("expected the 36 cells, a space and the player to move".into());
        };
        let cells: Vec<char> = cells.chars().collect();
        if cells.len() != 36 {
            return err(format!("{} cells, not 36", cells.len()));
        }
        let mut discs = [0u64; 2];
        for (i, c) in cells.iter().enumerate() {
            match c {
                'x' => discs[0] |= 1 << i,
                'o' => discs[1] |= 1 << i,
                '.' => {}
                _ => return err(format!("cell {}: {c:?} is not 'x', 'o' or '.'", i + 1)),
            }
        }
        let side = match side.trim() {
            "x" => 0,
            "o" => 1,
            other => return err(format!("player to move {other:?} is not 'x' or 'o'")),
        };
        Ok(Othello::from_discs(discs, side))
    }
}
