//! The notation: a square is its file `a`–`f` and rank `1`–`6` (`c2`); a move is its two
//! squares, `c2-c3` (`c2xd3` is read too); a position is the six ranks from rank 6 down,
//! separated by `/`, each six squares from file `a` (`w`, `b` or `.`), a space and the side
//! to move (`w` or `b`). `Display` and `FromStr` for [`Move`] and [`Breakthrough`], with
//! [`ParseMoveError`] and [`ParsePositionError`], which say what is wrong.

use std::fmt;
use std::str::FromStr;

use plyforge_search::Game;

use super::position::{Breakthrough, Move, BLACK, WHITE};

/// The name of square `square` (`rank * 6 + file`, 0 to 35): `a1` to `f6`.
///
/// ```
/// assert_eq!(example_games::breakthrough::square_name(8), "c2");
/// ```
pub fn square_name(square: u8) -> String {
    format!("{}{}", char::from(b'a' + square % 6), square / 6 + 1)
}

/// The square named `text` (`c2`), as `rank * 6 + file`.
fn parse_square(text: &str) -> Result<u8, ParseMoveError> {
    match text.as_bytes() {
        &[f @ b'a'..=b'f', r @ b'1'..=b'6'] => Ok((r - b'1') * 6 + (f - b'a')),
        _ => Err(ParseMoveError::Square(text.to_string())),
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", square_name(self.from()), square_name(self.to()))
    }
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing was given.
    Empty,
    /// The text is not two squares joined by `-` or `x`.
    Shape(String),
    /// A square is not a file `a`–`f` and a rank `1`–`6`.
    Square(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "no move given (two squares such as c2-c3)"),
            ParseMoveError::Shape(s) => {
                write!(
                    f,
                    "{s:?} is not a move (two squares such as c2-c3 or c2xd3)"
                )
            }
            ParseMoveError::Square(s) => {
                write!(f, "{s:?} is not a square (files a to f, ranks 1 to 6)")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let Some((from, to)) = s.split_once(['-', 'x']) else {
            return Err(ParseMoveError::Shape(s.to_string()));
        };
        Move::new(parse_square(from)?, parse_square(to)?)
            .ok_or_else(|| ParseMoveError::Shape(s.to_string()))
    }
}

impl fmt::Display for Breakthrough {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..6).rev() {
            for file in 0..6 {
                let c = match self.at(rank * 6 + file) {
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
        write!(f, " {}", ['w', 'b'][self.to_move()])
    }
}

/// Why a text is not a position, naming the field (ranks 1 at the bottom to 6 at the top,
/// files `a` to `f` from the left).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// Not two fields (the board, the side to move) separated by a space.
    Fields {
        /// The number of fields found.
        found: usize,
    },
    /// The board does not have six ranks separated by `/`.
    Ranks {
        /// The number of ranks found.
        found: usize,
    },
    /// A rank does not have six squares.
    RankLength {
        /// The rank (1 at the bottom).
        rank: usize,
        /// The squares found.
        found: usize,
    },
    /// A square is not `w`, `b` or `.`.
    Square {
        /// The square's name (`c2`).
        square: String,
        /// What was found.
        found: char,
    },
    /// The side to move is not `w` or `b`.
    Side {
        /// What was found.
        found: String,
    },
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePositionError::*;
        match self {
            Fields { found } => write!(
                f,
                "expected two fields, the six ranks and the side to move, separated by a \
                 space; found {found}"
            ),
            Ranks { found } => write!(f, "the board has {found} ranks separated by '/', not 6"),
            RankLength { rank, found } => write!(f, "rank {rank} has {found} squares, not 6"),
            Square { square, found } => {
                write!(f, "square {square}: {found:?} is not 'w', 'b' or '.'")
            }
            Side { found } => write!(f, "side to move {found:?} is not 'w' or 'b'"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Breakthrough {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Breakthrough, ParsePositionError> {
        use ParsePositionError::*;
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [board, side] = fields[..] else {
            return Err(Fields {
                found: fields.len(),
            });
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 6 {
            return Err(Ranks { found: ranks.len() });
        }
        let mut pawns = [0u64; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 5 - i;
            let squares: Vec<char> = text.chars().collect();
            if squares.len() != 6 {
                return Err(RankLength {
                    rank: rank + 1,
                    found: squares.len(),
                });
            }
            for (file, &c) in squares.iter().enumerate() {
                let square = rank * 6 + file;
                match c {
                    'w' => pawns[WHITE] |= 1 << square,
                    'b' => pawns[BLACK] |= 1 << square,
                    '.' => {}
                    found => {
                        return Err(Square {
                            square: square_name(square as u8),
                            found,
                        })
                    }
                }
            }
        }
        let side = match side {
            "w" => WHITE,
            "b" => BLACK,
            _ => {
                return Err(Side {
                    found: side.to_string(),
                })
            }
        };
        Ok(Breakthrough::from_pawns(pawns, side))
    }
}
