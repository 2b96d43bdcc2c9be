//! The notation: a cell is its column `a`–`f` and row `1`–`6`, row 1 at the top (`c4`); a
//! move is its cell or `pass`; a position is the six rows from row 1 down, separated by
//! `/`, each six cells from column `a` (`x`, `o` or `.`), a space and the player to move
//! (`x` or `o`). `Display` and `FromStr` for [`Move`] and [`Othello`], with
//! [`ParseMoveError`] and [`ParsePositionError`], which say what is wrong.

use std::fmt;
use std::str::FromStr;

use plyforge_search::Game;

use super::position::{Move, Othello, O, X};

/// The name of cell `cell` (`row * 6 + column`, 0 to 35): `a1` to `f6`.
fn cell_name(cell: u8) -> String {
    format!("{}{}", char::from(b'a' + cell % 6), cell / 6 + 1)
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cell() {
            Some(cell) => f.write_str(&cell_name(cell)),
            None => f.write_str("pass"),
        }
    }
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing was given.
    Empty,
    /// The text is neither a cell (a column `a`–`f` and a row `1`–`6`) nor `pass`.
    NotAMove(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "no move given (a cell such as c4, or pass)"),
            ParseMoveError::NotAMove(s) => write!(
                f,
                "{s:?} is not a move (a cell, columns a to f and rows 1 to 6, or pass)"
            ),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let s = s.trim();
        match s.as_bytes() {
            [] => Err(ParseMoveError::Empty),
            b"pass" => Ok(Move::PASS),
            &[c @ b'a'..=b'f', r @ b'1'..=b'6'] => Move::new((r - b'1') * 6 + (c - b'a'))
                .ok_or_else(|| ParseMoveError::NotAMove(s.to_string())),
            _ => Err(ParseMoveError::NotAMove(s.to_string())),
        }
    }
}

impl fmt::Display for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..6 {
            if row > 0 {
                f.write_str("/")?;
            }
            for column in 0..6 {
                let c = match self.at(row * 6 + column) {
                    Some(X) => 'x',
                    Some(_) => 'o',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
        }
        write!(f, " {}", ['x', 'o'][self.to_move()])
    }
}

/// Why a text is not a position, naming the field (rows 1 at the top to 6 at the bottom,
/// columns `a` to `f` from the left).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// Not two fields (the board, the player to move) separated by a space.
    Fields {
        /// The number of fields found.
        found: usize,
    },
    /// The board does not have six rows separated by `/`.
    Rows {
        /// The number of rows found.
        found: usize,
    },
    /// A row does not have six cells.
    RowLength {
        /// The row (1 at the top).
        row: usize,
        /// The cells found.
        found: usize,
    },
    /// A cell is not `x`, `o` or `.`.
    Cell {
        /// The cell's name (`c4`).
        cell: String,
        /// What was found.
        found: char,
    },
    /// The player to move is not `x` or `o`.
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
                "expected two fields, the six rows and the player to move, separated by a \
                 space; found {found}"
            ),
            Rows { found } => write!(f, "the board has {found} rows separated by '/', not 6"),
            RowLength { row, found } => write!(f, "row {row} has {found} cells, not 6"),
            Cell { cell, found } => write!(f, "cell {cell}: {found:?} is not 'x', 'o' or '.'"),
            Side { found } => write!(f, "player to move {found:?} is not 'x' or 'o'"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Othello {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Othello, ParsePositionError> {
        use ParsePositionError::*;
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [board, side] = fields[..] else {
            return Err(Fields {
                found: fields.len(),
            });
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 6 {
            return Err(Rows { found: rows.len() });
        }
        let mut discs = [0u64; 2];
        for (row, text) in rows.iter().enumerate() {
            let cells: Vec<char> = text.chars().collect();
            if cells.len() != 6 {
                return Err(RowLength {
                    row: row + 1,
                    found: cells.len(),
                });
            }
            for (column, &c) in cells.iter().enumerate() {
                let cell = row * 6 + column;
                match c {
                    'x' => discs[X] |= 1 << cell,
                    'o' => discs[O] |= 1 << cell,
                    '.' => {}
                    found => {
                        return Err(Cell {
                            cell: cell_name(cell as u8),
                            found,
                        })
                    }
                }
            }
        }
        let side = match side {
            "x" => X,
            "o" => O,
            _ => {
                return Err(Side {
                    found: side.to_string(),
                })
            }
        };
        Ok(Othello::from_discs(discs, side))
    }
}
