//! The notation of Chaos Clock (the crate's README): a move is `wN` (walk piece N), `pN`
//! (place piece N) or `pass`; a position is `b1,…,b12;P;L` (the pieces on the twelve
//! squares, the side to move, the piece moved last). `Display` and `FromStr` for [`Move`]
//! and [`Position`], with [`ParseMoveError`] and [`ParsePositionError`] (naming the
//! [`Field`] at fault).

use std::fmt;
use std::str::FromStr;

use search::Player;

use crate::position::{Move, Position, EVEN, ODD};

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Walk(n) => write!(f, "w{n}"),
            Move::Place(n) => write!(f, "p{n}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move's notation could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The text was empty.
    Empty,
    /// The text starts with neither `w`, `p` nor is `pass`.
    UnknownKind(String),
    /// The piece number after `w`/`p` is not a number from 1 to 12.
    BadPiece(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => f.write_str("empty move"),
            ParseMoveError::UnknownKind(s) => {
                write!(f, "move {s:?}: expected wN (walk), pN (place) or pass")
            }
            ParseMoveError::BadPiece(s) => {
                write!(f, "move {s:?}: the piece must be a number from 1 to 12")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        if t == "pass" {
            return Ok(Move::Pass);
        }
        let (make, rest): (fn(u8) -> Move, &str) = if let Some(rest) = t.strip_prefix('w') {
            (Move::Walk, rest)
        } else if let Some(rest) = t.strip_prefix('p') {
            (Move::Place, rest)
        } else {
            return Err(ParseMoveError::UnknownKind(t.to_string()));
        };
        match rest.parse::<u8>() {
            Ok(n) if (1..=12).contains(&n) && !rest.starts_with('+') => Ok(make(n)),
            _ => Err(ParseMoveError::BadPiece(t.to_string())),
        }
    }
}

/// A field of the position notation `b1,…,b12;P;L`, as named in parse errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Field {
    /// The board list `b1,…,b12`.
    Board,
    /// The side to move `P`.
    Side,
    /// The last moved piece `L`.
    Last,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Board => "board (b1,…,b12)",
            Field::Side => "side to move (P)",
            Field::Last => "last moved piece (L)",
        })
    }
}

/// Why a position's notation could not be read. Each variant names the bad field.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// The text was empty.
    Empty,
    /// More than three `;`-separated fields (`b1,…,b12;P;L`).
    TooManyFields(usize),
    /// The board field does not list exactly 12 squares.
    BoardCount(usize),
    /// A field (or a square of the board) is not a number.
    NotANumber {
        /// The field.
        field: Field,
        /// The square (1..=12) for the board field, else 0.
        square: u8,
        /// The text found.
        text: String,
    },
    /// A square holds a number outside 0..=12.
    PieceOutOfRange {
        /// The square (1..=12).
        square: u8,
        /// The number found.
        value: u32,
    },
    /// A piece stands on two squares.
    PieceTwice {
        /// The piece.
        piece: u8,
        /// The first square holding it.
        first: u8,
        /// The second square holding it.
        second: u8,
    },
    /// The side to move is not `0` (Odd) or `1` (Even).
    BadSide(String),
    /// The last moved piece is not a number from 0 to 12.
    LastOutOfRange(u32),
    /// The last moved piece is not on the board. A walked piece lands on the board and a
    /// placed one stands home, so only piece 12 (which walks off the board) can have moved
    /// last and be in a hand.
    LastNotOnBoard(u8),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::Empty => f.write_str("empty position"),
            ParsePositionError::TooManyFields(n) => write!(
                f,
                "{n} fields separated by ';': expected at most 3 (b1,…,b12;P;L)"
            ),
            ParsePositionError::BoardCount(n) => {
                write!(f, "{}: {n} squares listed, expected 12", Field::Board)
            }
            ParsePositionError::NotANumber {
                field,
                square,
                text,
            } => {
                if *square > 0 {
                    write!(f, "{field}: square {square} holds {text:?}, not a number")
                } else {
                    write!(f, "{field}: {text:?} is not a number")
                }
            }
            ParsePositionError::PieceOutOfRange { square, value } => write!(
                f,
                "{}: square {square} holds {value}, expected 0 (empty) to 12",
                Field::Board
            ),
            ParsePositionError::PieceTwice {
                piece,
                first,
                second,
            } => write!(
                f,
                "{}: piece {piece} stands on squares {first} and {second}",
                Field::Board
            ),
            ParsePositionError::BadSide(s) => {
                write!(f, "{}: {s:?}, expected 0 (Odd) or 1 (Even)", Field::Side)
            }
            ParsePositionError::LastOutOfRange(n) => {
                write!(f, "{}: {n}, expected 0 to 12", Field::Last)
            }
            ParsePositionError::LastNotOnBoard(n) => write!(
                f,
                "{}: piece {n} is not on the board, but the piece moved last always is \
                 (only piece 12 walks off it)",
                Field::Last
            ),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.board.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, ";{};{}", self.side, self.last)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Reads `b1,…,b12;P;L`; `;L` may be left out (L = 0), or `;P;L` (P = 1, L = 0).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParsePositionError::Empty);
        }
        let fields: Vec<&str> = s.split(';').map(str::trim).collect();
        if fields.len() > 3 {
            return Err(ParsePositionError::TooManyFields(fields.len()));
        }
        let squares: Vec<&str> = fields[0].split(',').map(str::trim).collect();
        if squares.len() != 12 {
            return Err(ParsePositionError::BoardCount(squares.len()));
        }
        let mut board = [0u8; 12];
        for (i, text) in squares.iter().enumerate() {
            let square = i as u8 + 1;
            let value: u32 = parse_number(text).ok_or_else(|| ParsePositionError::NotANumber {
                field: Field::Board,
                square,
                text: text.to_string(),
            })?;
            if value > 12 {
                return Err(ParsePositionError::PieceOutOfRange { square, value });
            }
            board[i] = value as u8;
        }
        let side = match fields.get(1) {
            None => EVEN,
            Some(&"0") => ODD,
            Some(&"1") => EVEN,
            Some(t) => return Err(ParsePositionError::BadSide(t.to_string())),
        };
        let last = match fields.get(2) {
            None => 0,
            Some(t) => {
                let v = parse_number(t).ok_or_else(|| ParsePositionError::NotANumber {
                    field: Field::Last,
                    square: 0,
                    text: t.to_string(),
                })?;
                if v > 12 {
                    return Err(ParsePositionError::LastOutOfRange(v));
                }
                let v = v as u8;
                if v != 0 && v != 12 && !board.contains(&v) {
                    return Err(ParsePositionError::LastNotOnBoard(v));
                }
                v
            }
        };
        Position::from_parts(board, side, last)
    }
}

impl Position {
    /// A position from its parts: `board[i]` is the piece on square `i + 1` (0: empty),
    /// `side` the player to move ([`ODD`] or [`EVEN`]), `last` the piece moved on the
    /// previous move (0: none). Errors name the bad part as parsing does.
    pub fn from_parts(
        board: [u8; 12],
        side: Player,
        last: u8,
    ) -> Result<Position, ParsePositionError> {
        let mut at = [0u8; 13];
        for (i, &p) in board.iter().enumerate() {
            let square = i as u8 + 1;
            if p > 12 {
                return Err(ParsePositionError::PieceOutOfRange {
                    square,
                    value: p as u32,
                });
            }
            if p != 0 {
                if at[p as usize] != 0 {
                    return Err(ParsePositionError::PieceTwice {
                        piece: p,
                        first: at[p as usize],
                        second: square,
                    });
                }
                at[p as usize] = square;
            }
        }
        if side > 1 {
            return Err(ParsePositionError::BadSide(side.to_string()));
        }
        if last > 12 {
            return Err(ParsePositionError::LastOutOfRange(last as u32));
        }
        Ok(Position::assemble(board, side, last))
    }
}

/// A decimal number of at most 9 digits (no sign), else `None`.
fn parse_number(t: &str) -> Option<u32> {
    if t.is_empty() || t.len() > 9 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}
