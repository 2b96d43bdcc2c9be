//! The notation of Jumpy3 (the crate's README): a move is the square of the piece that
//! moves (`4`); a position is the sixteen squares and the side to move
//! (`Wwww........bbbB w`). `Display` and `FromStr` for [`Move`] and [`Position`], with
//! [`ParseMoveError`] and [`ParsePositionError`], which say what is wrong.

use std::fmt;
use std::str::FromStr;

use search::Player;

use crate::position::{side_name, Move, Position, BLACK, SQUARES, WHITE};

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.square())
    }
}

/// Why a move's text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The text is empty.
    Empty,
    /// The text is not a decimal number.
    NotANumber(String),
    /// The number is not a square 1..=16 (the digits as typed).
    OutOfRange(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "empty move: expected a square number 1..16"),
            ParseMoveError::NotANumber(s) => {
                write!(f, "move {s:?} is not a square number 1..16")
            }
            ParseMoveError::OutOfRange(n) => {
                write!(f, "square {n} is off the board (1..16)")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t = s.trim();
        if t.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        if !t.bytes().all(|c| c.is_ascii_digit()) {
            return Err(ParseMoveError::NotANumber(t.to_string()));
        }
        // Digits only: a number however long, quoted as typed when it is not a square.
        match t.parse::<u8>().ok().and_then(Move::new) {
            Some(m) => Ok(m),
            None => Err(ParseMoveError::OutOfRange(t.to_string())),
        }
    }
}

/// Why a position's text is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// The board part does not have 16 squares (`found` characters instead).
    WrongLength {
        /// How many characters the board part has.
        found: usize,
    },
    /// The board is not followed by a space and the side to move.
    MissingSide,
    /// A square holds a character other than `W w B b . x`.
    BadCharacter {
        /// The square, 1..=16.
        square: usize,
        /// The character found there.
        found: char,
    },
    /// A side has more than one king.
    TooManyKings {
        /// The side (`WHITE` or `BLACK`).
        side: Player,
        /// How many kings it has.
        count: u32,
    },
    /// A side has more than three pawns.
    TooManyPawns {
        /// The side (`WHITE` or `BLACK`).
        side: Player,
        /// How many pawns it has.
        count: u32,
    },
    /// Neither king is on the board (only one side can have left: the game ends then).
    NoKings,
    /// The side to move has no king: a king leaves on its own side's move, which ends the
    /// game with the other side to move, so this position cannot arise.
    KingGoneOfSideToMove {
        /// The side to move, whose king is gone.
        side: Player,
    },
    /// The side to move is not `w` or `b`.
    BadSide(String),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::WrongLength { found } => {
                write!(f, "board: expected 16 squares, found {found} characters")
            }
            ParsePositionError::MissingSide => write!(
                f,
                "side to move: missing (expected the board, a space, then `w` or `b`)"
            ),
            ParsePositionError::BadCharacter { square, found } => write!(
                f,
                "board: square {square} holds {found:?}, expected one of W w B b . x"
            ),
            ParsePositionError::TooManyKings { side, count } => write!(
                f,
                "board: {} has {count} kings, at most one allowed",
                side_name(*side)
            ),
            ParsePositionError::TooManyPawns { side, count } => write!(
                f,
                "board: {} has {count} pawns, at most three allowed",
                side_name(*side)
            ),
            ParsePositionError::NoKings => write!(
                f,
                "board: neither king is on the board (the game ends when the first one leaves)"
            ),
            ParsePositionError::KingGoneOfSideToMove { side } => write!(
                f,
                "side to move: {} is to move but its king has left the board; a king leaves \
                 on its own side's move, so {} would be to move",
                side_name(*side),
                side_name(1 - *side)
            ),
            ParsePositionError::BadSide(s) => {
                write!(f, "side to move: {s:?}, expected `w` or `b`")
            }
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(18);
        for i in 0..16 {
            s.push(self.square_char(i));
        }
        s.push(' ');
        s.push(if self.side as Player == WHITE {
            'w'
        } else {
            'b'
        });
        f.write_str(&s)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let s = s.trim();
        let (board, side) = match s.split_once(' ') {
            Some((b, rest)) => (b, Some(rest.trim())),
            None => (s, None),
        };
        let len = board.chars().count();
        if len != SQUARES {
            return Err(ParsePositionError::WrongLength { found: len });
        }
        let mut pieces = [0u16; 2];
        let mut kings = 0u16;
        for (i, c) in board.chars().enumerate() {
            let bit = 1u16 << i;
            match c {
                'W' => {
                    pieces[WHITE] |= bit;
                    kings |= bit;
                }
                'w' => pieces[WHITE] |= bit,
                'B' => {
                    pieces[BLACK] |= bit;
                    kings |= bit;
                }
                'b' => pieces[BLACK] |= bit,
                '.' | 'x' => {}
                other => {
                    return Err(ParsePositionError::BadCharacter {
                        square: i + 1,
                        found: other,
                    })
                }
            }
        }
        for side in [WHITE, BLACK] {
            let k = (kings & pieces[side]).count_ones();
            if k > 1 {
                return Err(ParsePositionError::TooManyKings { side, count: k });
            }
            let p = (pieces[side] & !kings).count_ones();
            if p > 3 {
                return Err(ParsePositionError::TooManyPawns { side, count: p });
            }
        }
        if kings == 0 {
            return Err(ParsePositionError::NoKings);
        }
        let side = match side {
            None => return Err(ParsePositionError::MissingSide),
            Some("w") => WHITE,
            Some("b") => BLACK,
            Some(other) => return Err(ParsePositionError::BadSide(other.to_string())),
        };
        if kings & pieces[side] == 0 {
            return Err(ParsePositionError::KingGoneOfSideToMove { side });
        }
        Ok(Position::from_parts(
            pieces[WHITE],
            pieces[BLACK],
            kings,
            side,
        ))
    }
}
