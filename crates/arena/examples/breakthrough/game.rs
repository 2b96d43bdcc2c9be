//! Breakthrough on a 6×6 board, a board of squares for the page's chequered look
//! ([`Layout::Squares`]), registered through the public API as a user's game is: the rules
//! on [`plyforge::search::Game`], the registration ([`GameAdapter`]) and the picture
//! ([`BoardView`]).
//!
//! White's pawns start on ranks 1 and 2, Black's on ranks 5 and 6; White moves first. A pawn
//! steps one square forward (up for White, down for Black) to an empty square, or diagonally
//! forward to a square that holds no pawn of its own, taking the enemy pawn there. A side
//! wins when a pawn of its reaches the far rank, or when the other side has no pawn left.
//!
//! Notation: a square is its file `a`–`f` and rank `1`–`6` (`c2`); a move is its two
//! squares, `c2-c3` (`c2xd3` is read too); a position is the six ranks from rank 6 down,
//! separated by `/`, each six squares from file `a` (`w`, `b` or `.`), a space and the side
//! to move (`w` or `b`).

use std::fmt;
use std::str::FromStr;

use plyforge::search::rng::splitmix64;
use plyforge::search::{Game, MoveList, Outcome, Player, SideToMove, SideToMoveEval};
use plyforge::view::{BoardView, Fact, FromTo, Layout, Piece, Spot, Symbol, Viewed};
use plyforge::GameAdapter;

/// Files and ranks.
const SIZE: u8 = 6;
const WHITE: Player = 0;
const BLACK: Player = 1;

/// The Zobrist keys: a pawn of each side on each square, then Black to move.
const fn zobrist() -> [u64; 73] {
    let mut z = [0u64; 73];
    let mut i = 0;
    while i < 73 {
        z[i] = splitmix64(0xB7EA_0000 + i as u64);
        i += 1;
    }
    z
}
const Z: [u64; 73] = zobrist();

/// The square's bit: `(rank - 1) * 6 + file`, both counted from 0.
fn bit(file: u8, rank: u8) -> u64 {
    1 << (rank * SIZE + file)
}

/// A square in notation (`a1`).
fn square_name(sq: u8) -> String {
    format!("{}{}", char::from(b'a' + sq % SIZE), sq / SIZE + 1)
}

/// Why a text is not a position or a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

fn parse_square(text: &str) -> Result<u8, ParseError> {
    match text.as_bytes() {
        &[f @ b'a'..=b'f', r @ b'1'..=b'6'] => Ok((r - b'1') * SIZE + (f - b'a')),
        _ => Err(ParseError(format!(
            "{text:?} is not a square (files a to f, ranks 1 to 6)"
        ))),
    }
}

/// A move: the square a pawn leaves and the square it reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", square_name(self.from), square_name(self.to))
    }
}

impl FromStr for Move {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Move, ParseError> {
        let s = s.trim();
        match (s.get(..2), s.get(2..3), s.get(3..)) {
            (Some(from), Some("-" | "x"), Some(to)) => Ok(Move {
                from: parse_square(from)?,
                to: parse_square(to)?,
            }),
            _ => Err(ParseError(format!(
                "{s:?} is not a move (two squares such as c2-c3)"
            ))),
        }
    }
}

/// A position: each side's pawns and the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pawns: [u64; 2],
    side: Player,
    key: u64,
}

impl Position {
    /// The start: White on ranks 1 and 2, Black on ranks 5 and 6, White to move.
    pub fn start() -> Position {
        Position::new([0xFFF, 0xFFF << 24], WHITE)
    }

    fn new(pawns: [u64; 2], side: Player) -> Position {
        let mut p = Position {
            pawns,
            side,
            key: 0,
        };
        p.key = p.recompute_key();
        p
    }

    /// The side with a pawn on `sq`, if any.
    fn at(&self, sq: u8) -> Option<Player> {
        (0..2).find(|&p| self.pawns[p] >> sq & 1 != 0)
    }
}

impl Game for Position {
    type Move = Move;

    fn players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let (own, step) = (
            self.pawns[self.side],
            if self.side == WHITE { 1 } else { -1 },
        );
        for sq in 0..SIZE * SIZE {
            if own >> sq & 1 == 0 {
                continue;
            }
            let (file, rank) = ((sq % SIZE) as i8, (sq / SIZE) as i8 + step);
            for df in [0, -1, 1] {
                let f = file + df;
                if !(0..SIZE as i8).contains(&f) {
                    continue;
                }
                let to = bit(f as u8, rank as u8);
                let free = if df == 0 {
                    (self.pawns[0] | self.pawns[1]) & to == 0
                } else {
                    own & to == 0
                };
                if free {
                    out.push(Move {
                        from: sq,
                        to: to.trailing_zeros() as u8,
                    });
                }
            }
        }
    }

    fn play(&mut self, mv: Move) {
        let (me, them) = (self.side, 1 - self.side);
        self.pawns[me] ^= 1u64 << mv.from | 1u64 << mv.to;
        self.key ^= Z[me * 36 + mv.from as usize] ^ Z[me * 36 + mv.to as usize];
        if self.pawns[them] >> mv.to & 1 != 0 {
            self.pawns[them] ^= 1u64 << mv.to;
            self.key ^= Z[them * 36 + mv.to as usize];
        }
        self.side = them;
        self.key ^= Z[72];
    }

    fn outcome(&self) -> Option<Outcome> {
        let (first, last) = (0x3F, 0x3F << 30);
        if self.pawns[WHITE] & last != 0 || self.pawns[BLACK] == 0 {
            Some(Outcome::Win(WHITE))
        } else if self.pawns[BLACK] & first != 0 || self.pawns[WHITE] == 0 {
            Some(Outcome::Win(BLACK))
        } else {
            None
        }
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn recompute_key(&self) -> u64 {
        let mut key = if self.side == BLACK { Z[72] } else { 0 };
        for sq in 0..SIZE * SIZE {
            if let Some(p) = self.at(sq) {
                key ^= Z[p * 36 + sq as usize];
            }
        }
        key
    }

    fn zero_sum(&self) -> bool {
        true
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE).rev() {
            for file in 0..SIZE {
                let c = match self.at(rank * SIZE + file) {
                    Some(WHITE) => 'w',
                    Some(_) => 'b',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", ["w", "b"][self.side])
    }
}

impl FromStr for Position {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Position, ParseError> {
        let err = |m: String| Err(ParseError(m));
        let Some((board, side)) = s.trim().split_once(' ') else {
            return err("expected the six ranks, a space and the side to move".into());
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != SIZE as usize {
            return err(format!("{} ranks, not 6", ranks.len()));
        }
        let mut pawns = [0u64; 2];
        for (i, row) in ranks.iter().enumerate() {
            let rank = SIZE - 1 - i as u8;
            if row.chars().count() != SIZE as usize {
                return err(format!("rank {}: {row:?} is not six squares", rank + 1));
            }
            for (file, c) in row.chars().enumerate() {
                match c {
                    'w' => pawns[WHITE] |= bit(file as u8, rank),
                    'b' => pawns[BLACK] |= bit(file as u8, rank),
                    '.' => {}
                    _ => return err(format!("rank {}: {c:?} is not w, b or .", rank + 1)),
                }
            }
        }
        let side = match side.trim() {
            "w" => WHITE,
            "b" => BLACK,
            other => return err(format!("side to move {other:?} is not w or b")),
        };
        Ok(Position::new(pawns, side))
    }
}

/// Pawns and how far they got, from the side to move's view.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl SideToMoveEval<Position> for Eval {
    fn evaluate(&self, p: &Position) -> i32 {
        let score = |side: Player| {
            (0..SIZE * SIZE)
                .filter(|&sq| p.pawns[side] >> sq & 1 != 0)
                .map(|sq| {
                    let rank = i32::from(sq / SIZE);
                    100 + 8 * if side == WHITE { rank } else { 5 - rank }
                })
                .sum::<i32>()
        };
        score(p.side) - score(1 - p.side)
    }
}

/// The game as the registry and every front end see it.
pub struct Breakthrough;

impl GameAdapter for Breakthrough {
    type Pos = Position;
    type Move = Move;
    type Eval = SideToMove<Eval>;
    const NAME: &'static str = "breakthrough";
    const TITLE: &'static str = "Breakthrough";
    const ABOUT: &'static str = "6×6 Breakthrough: pawns race to the far rank";
    const PLAYERS: usize = 2;
    fn start() -> Position {
        Position::start()
    }
    fn player_letter(p: Player) -> &'static str {
        ["w", "b"][p]
    }
    fn player_name(p: Player) -> &'static str {
        ["White", "Black"][p]
    }
    fn default_eval() -> Self::Eval {
        SideToMove(Eval)
    }
    fn view() -> Option<Viewed<Self>> {
        Some(Viewed::new())
    }
}

impl BoardView for Breakthrough {
    fn layout() -> Layout {
        Layout::Squares {
            files: &["a", "b", "c", "d", "e", "f"],
            ranks: &["6", "5", "4", "3", "2", "1"],
        }
    }
    fn spots() -> Vec<Spot> {
        let mut out = Vec::new();
        for row in 0..SIZE {
            for column in 0..SIZE {
                let sq = (SIZE - 1 - row) * SIZE + column;
                out.push(Spot::square(square_name(sq), column, row));
            }
        }
        out
    }
    fn colours() -> &'static [&'static str] {
        &["#f4f1e8", "#24262b"]
    }
    fn pieces(pos: &Position) -> Vec<Piece> {
        (0..SIZE * SIZE)
            .filter_map(|sq| {
                let p = pos.at(sq)?;
                Some(Piece::new(square_name(sq), p, "pawn", Symbol::Plain))
            })
            .collect()
    }
    fn move_spots(_pos: &Position, mv: Move) -> FromTo {
        (Some(square_name(mv.from)), Some(square_name(mv.to)))
    }
    fn facts(pos: &Position) -> Vec<Fact> {
        (0..2)
            .map(|p| {
                let n = pos.pawns[p].count_ones();
                Fact::new(Breakthrough::player_name(p), format!("{n} pawns"))
            })
            .collect()
    }
}
