//! The rules: the discs as two bitboards, the moves (a disc, or a pass for a player without
//! one), the flips, the game's end and the Zobrist keys.

use plyforge_search::rng::splitmix64;
use plyforge_search::{DrawKind, Game, IllegalMove, MoveList, Outcome, Player};

use crate::board36::{self, BOARD, FIRST_COLUMN, LAST_COLUMN};

/// `x` (Black), who moves first.
pub const X: Player = 0;
/// `o` (White).
pub const O: Player = 1;

const Z: [[u64; 36]; 2] = board36::zobrist(0x07E1_1000);
const Z_O_TO_MOVE: u64 = splitmix64(0x07E1_2000);

/// A move: a disc on a cell, or the pass of a player who has no other move. A cell is a
/// number `row * 6 + column` (0 for a1, top left, to 35 for f6, bottom right, as the bits
/// of [`Othello::discs`]). Notation: the cell's column `a`–`f` and row `1`–`6` (`c4`), or
/// `pass`.
///
/// ```
/// use example_games::othello::Move;
/// let m: Move = "c4".parse().unwrap();
/// assert_eq!(m.cell(), Some(20));
/// assert_eq!(Move::new(20), Some(m));
/// assert_eq!(Move::PASS.to_string(), "pass");
/// assert_eq!(Move::new(36), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The pass: the move of a player who has no other.
    pub const PASS: Move = Move(36);
    /// One more than the largest [`Move::index`].
    pub const INDICES: usize = 37;

    /// The move onto `cell` (0 to 35), or `None` for a number off the board.
    pub const fn new(cell: u8) -> Option<Move> {
        if cell < 36 {
            Some(Move(cell))
        } else {
            None
        }
    }

    /// The cell (`row * 6 + column`), or `None` for the pass.
    pub fn cell(self) -> Option<u8> {
        (self != Move::PASS).then_some(self.0)
    }

    /// A number for tables of moves, below [`Move::INDICES`]: the cell, 36 for the pass.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The eight directions, as shifts that keep a line on the board.
#[inline(always)]
fn shift(b: u64, dir: usize) -> u64 {
    match dir {
        0 => (b << 1) & !FIRST_COLUMN & BOARD,
        1 => (b >> 1) & !LAST_COLUMN,
        2 => (b << 6) & BOARD,
        3 => b >> 6,
        4 => (b << 7) & !FIRST_COLUMN & BOARD,
        5 => (b << 5) & !LAST_COLUMN & BOARD,
        6 => (b >> 5) & !FIRST_COLUMN,
        _ => (b >> 7) & !LAST_COLUMN,
    }
}

/// The cells where the player with discs `own` may play against `opp`.
#[inline]
pub(super) fn mobility(own: u64, opp: u64) -> u64 {
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

/// A position of 6×6 Othello: the discs of both players, the player to move, whether the
/// game is over, and the key.
///
/// ```
/// use example_games::othello::{Move, Othello};
/// use example_games::search::Game;
/// let start = Othello::start();
/// let moves: Vec<String> = start.moves().iter().map(Move::to_string).collect();
/// assert_eq!(moves, ["c2", "b3", "e4", "d5"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    discs: [u64; 2],
    side: u8,
    /// Whether neither player can move.
    over: bool,
    key: u64,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::start()
    }
}

impl Othello {
    /// The start: four discs in the centre (`x` on d3 and c4, `o` on c3 and d4), `x` to
    /// move.
    pub fn start() -> Othello {
        let (d1, d2) = ((1u64 << 14) | (1 << 21), (1u64 << 15) | (1 << 20));
        Othello::from_discs([d2, d1], X)
    }

    /// The position with the discs `discs` (`x`'s, then `o`'s) and `side` to move.
    pub(super) fn from_discs(discs: [u64; 2], side: Player) -> Othello {
        let mut p = Othello {
            discs,
            side: side as u8,
            over: false,
            key: 0,
        };
        let me = side;
        p.over = mobility(discs[me], discs[1 - me]) == 0 && mobility(discs[1 - me], discs[me]) == 0;
        p.key = p.recompute_key();
        p
    }

    /// The discs of `player`: bit `row * 6 + column` (a1, top left, is bit 0).
    pub fn discs(&self, player: Player) -> u64 {
        self.discs[player & 1]
    }

    /// The player with a disc on `cell` (`row * 6 + column`), if any.
    pub fn at(&self, cell: u8) -> Option<Player> {
        (0..2).find(|&p| self.discs[p] >> cell & 1 != 0)
    }

    /// Why the player to move cannot play `mv`, if it cannot (the game goes on).
    fn why_not(&self, mv: Move) -> Option<String> {
        let me = self.side as usize;
        let (own, opp) = (self.discs[me], self.discs[1 - me]);
        let mobile = mobility(own, opp) != 0;
        let letter = ['x', 'o'][me];
        let Some(cell) = mv.cell() else {
            return mobile
                .then(|| format!("{letter} has a move, and only a player without one passes"));
        };
        if self.at(cell).is_some() {
            Some(format!("{mv} is taken"))
        } else if flips(own, opp, 1 << cell) == 0 {
            Some(if mobile {
                format!("a disc on {mv} flips none of the other player's")
            } else {
                format!("{letter} has no move here and must pass")
            })
        } else {
            None
        }
    }
}

impl Game for Othello {
    type Move = Move;

    fn players(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.side as Player
    }

    /// The cells in order (a1, b1, …, f6), or the pass alone.
    #[inline]
    fn legal_moves(&self, out: &mut MoveList<Move>) {
        if self.over {
            return;
        }
        let me = self.side as usize;
        let mut m = mobility(self.discs[me], self.discs[1 - me]);
        if m == 0 {
            out.push(Move::PASS);
        }
        while m != 0 {
            out.push(Move(m.trailing_zeros() as u8));
            m &= m - 1;
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let me = self.side as usize;
        if let Some(cell) = mv.cell() {
            let bit = 1u64 << cell;
            let f = flips(self.discs[me], self.discs[1 - me], bit);
            self.discs[me] |= bit | f;
            self.discs[1 - me] &= !f;
            self.key ^= Z[me][cell as usize];
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

    /// When neither player can move: the one with more discs wins.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let (a, b) = (self.discs[0].count_ones(), self.discs[1].count_ones());
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(X),
            std::cmp::Ordering::Less => Outcome::Win(O),
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

    fn why_illegal(&self, mv: Move) -> Option<IllegalMove> {
        if self.over {
            let (x, o) = (self.discs[X].count_ones(), self.discs[O].count_ones());
            return Some(IllegalMove::new(format!(
                "the game is over: neither player can move (x {x} discs, o {o})"
            )));
        }
        self.why_not(mv).map(IllegalMove::new)
    }

    fn zero_sum(&self) -> bool {
        true
    }
}
