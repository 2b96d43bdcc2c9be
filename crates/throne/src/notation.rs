//! Text notation of positions and moves, with parse errors that name the bad field.

use std::fmt;
use std::str::FromStr;

use crate::board::{Cell, CELLS, RADIUS, THRONE_INDEX};
use crate::position::{Move, Position, BLACK, MAX_PLIES, SOLDIERS, WHITE};
use search::Game as _;

/// A numeric field of the position notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NumberField {
    /// The number of plies played.
    Ply,
    /// Black's Ptrap.
    BlackPtrap,
    /// Black's Qtrap.
    BlackQtrap,
    /// White's Ptrap.
    WhitePtrap,
    /// White's Qtrap.
    WhiteQtrap,
}

impl fmt::Display for NumberField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberField::Ply => "ply count (field 3)",
            NumberField::BlackPtrap => "Black's Ptrap (field 4)",
            NumberField::BlackQtrap => "Black's Qtrap (field 5)",
            NumberField::WhitePtrap => "White's Ptrap (field 6)",
            NumberField::WhiteQtrap => "White's Qtrap (field 7)",
        })
    }
}

/// Why a position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// Not the seven space-separated fields (board, side, ply, four counters).
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// The board field does not have 11 rows separated by `/`.
    RowCount {
        /// Rows found.
        found: usize,
    },
    /// A board row has the wrong number of cells.
    RowLength {
        /// The row's r coordinate.
        r: i32,
        /// Cells the row has on the board.
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// A board character is not one of `B b W w .`.
    BadCell {
        /// Axial q of the cell.
        q: i32,
        /// Axial r of the cell.
        r: i32,
        /// The character found.
        found: char,
    },
    /// A side does not have exactly one queen and six soldiers.
    PieceCount {
        /// `"black queen"`, `"black soldier"`, `"white queen"` or `"white soldier"`.
        piece: &'static str,
        /// How many the side must have.
        expected: usize,
        /// How many the board shows.
        found: usize,
    },
    /// A soldier stands on the throne, where only a queen may go.
    SoldierOnThrone,
    /// The side-to-move field is not `b` or `w`.
    SideToMove {
        /// The text found.
        found: String,
    },
    /// A numeric field is not a non-negative integer in range.
    Number {
        /// Which field.
        field: NumberField,
        /// The text found.
        found: String,
    },
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::FieldCount { found } => write!(
                f,
                "expected 7 space-separated fields (board, side, ply, 4 counters), found {found}"
            ),
            ParsePositionError::RowCount { found } => {
                write!(f, "board: expected 11 rows separated by '/', found {found}")
            }
            ParsePositionError::RowLength { r, expected, found } => write!(
                f,
                "board: row r={r} (row {} of 11) must have {expected} cells, found {found}",
                r + 6
            ),
            ParsePositionError::BadCell { q, r, found } => write!(
                f,
                "board: cell {q},{r} holds {found:?}, expected one of B b W w ."
            ),
            ParsePositionError::PieceCount {
                piece,
                expected,
                found,
            } => write!(f, "board: expected {expected} {piece}(s), found {found}"),
            ParsePositionError::SoldierOnThrone => {
                write!(f, "board: a soldier stands on the throne (0,0)")
            }
            ParsePositionError::SideToMove { found } => {
                write!(
                    f,
                    "side to move (field 2): expected b or w, found {found:?}"
                )
            }
            ParsePositionError::Number { field, found } => {
                let range = if *field == NumberField::Ply {
                    format!("an integer 0..={MAX_PLIES}")
                } else {
                    format!("an integer 0..={}", u16::MAX)
                };
                write!(f, "{field}: expected {range}, found {found:?}")
            }
        }
    }
}

impl std::error::Error for ParsePositionError {}

/// Which end of a move is meant in a [`ParseMoveError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveField {
    /// The cell before `>`.
    From,
    /// The cell after `>`.
    To,
}

impl fmt::Display for MoveField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveField::From => "from-cell",
            MoveField::To => "to-cell",
        })
    }
}

/// Why a move string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing was given.
    Empty,
    /// Neither `pass` nor of the form `q,r>q,r`.
    MissingArrow {
        /// The text found.
        found: String,
    },
    /// A cell is not two integers separated by a comma.
    BadCell {
        /// Which cell.
        field: MoveField,
        /// The text found.
        found: String,
    },
    /// A cell lies outside the board (max(|q|, |r|, |q + r|) must be at most 5).
    OffBoard {
        /// Which cell.
        field: MoveField,
        /// Its q.
        q: i32,
        /// Its r.
        r: i32,
    },
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "empty move: expected q,r>q,r or pass"),
            ParseMoveError::MissingArrow { found } => {
                write!(f, "move {found:?}: expected q,r>q,r or pass")
            }
            ParseMoveError::BadCell { field, found } => {
                write!(f, "{field} {found:?}: expected two integers q,r")
            }
            ParseMoveError::OffBoard { field, q, r } => {
                write!(f, "{field} {q},{r} is off the board (radius 5)")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Step { from, to } => write!(f, "{from}>{to}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

fn parse_cell(text: &str, field: MoveField) -> Result<Cell, ParseMoveError> {
    let bad = || ParseMoveError::BadCell {
        field,
        found: text.to_string(),
    };
    let (q, r) = text.split_once(',').ok_or_else(bad)?;
    let q: i32 = q.parse().map_err(|_| bad())?;
    let r: i32 = r.parse().map_err(|_| bad())?;
    Cell::new(q, r).ok_or(ParseMoveError::OffBoard { field, q, r })
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses `q,r>q,r` or `pass` (surrounding whitespace ignored).
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        if s == "pass" {
            return Ok(Move::Pass);
        }
        let (from, to) = s.split_once('>').ok_or(ParseMoveError::MissingArrow {
            found: s.to_string(),
        })?;
        Ok(Move::Step {
            from: parse_cell(from, MoveField::From)?,
            to: parse_cell(to, MoveField::To)?,
        })
    }
}

fn row_range(r: i32) -> (i32, i32) {
    let lim = RADIUS as i32;
    ((-lim).max(-lim - r), lim.min(lim - r))
}

impl fmt::Display for Position {
    /// The rules' notation: 11 rows r = −5 … 5 separated by `/`, then side, plies and the
    /// four counters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lim = RADIUS as i32;
        for r in -lim..=lim {
            if r > -lim {
                f.write_str("/")?;
            }
            let (lo, hi) = row_range(r);
            for q in lo..=hi {
                let cell = Cell::new(q, r).expect("on board");
                let ch = match self.piece_at(cell) {
                    None => '.',
                    Some((BLACK, crate::Piece::Queen)) => 'B',
                    Some((BLACK, crate::Piece::Soldier)) => 'b',
                    Some((_, crate::Piece::Queen)) => 'W',
                    Some((_, crate::Piece::Soldier)) => 'w',
                };
                write!(f, "{ch}")?;
            }
        }
        write!(
            f,
            " {} {} {} {} {} {}",
            if self.to_move() == BLACK { 'b' } else { 'w' },
            self.ply,
            self.ptrap[BLACK],
            self.qtrap[BLACK],
            self.ptrap[WHITE],
            self.qtrap[WHITE]
        )
    }
}

fn parse_number(text: &str, field: NumberField, max: u32) -> Result<u16, ParsePositionError> {
    let err = || ParsePositionError::Number {
        field,
        found: text.to_string(),
    };
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    let v: u32 = text.parse().map_err(|_| err())?;
    if v > max {
        return Err(err());
    }
    Ok(v as u16)
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Parses the rules' notation, e.g. the start position
    /// `wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 0 0 0 0 0`.
    ///
    /// Each side must have one queen and six soldiers, no soldier may stand on the throne,
    /// the ply count is at most 300. The side to move is taken as written, even where it
    /// does not match the parity of the ply count (the independent implementations' test
    /// vectors have such positions); see [`Position::moves_left`] for how the moves each
    /// side has made are counted then.
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() != 7 {
            return Err(ParsePositionError::FieldCount {
                found: fields.len(),
            });
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 11 {
            return Err(ParsePositionError::RowCount { found: rows.len() });
        }
        let mut occ = [0u128; 2];
        let mut queens: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let lim = RADIUS as i32;
        for (i, row) in rows.iter().enumerate() {
            let r = i as i32 - lim;
            let (lo, hi) = row_range(r);
            let expected = (hi - lo + 1) as usize;
            let found = row.chars().count();
            if found != expected {
                return Err(ParsePositionError::RowLength { r, expected, found });
            }
            for (q, ch) in (lo..=hi).zip(row.chars()) {
                let cell = Cell::new(q, r).expect("on board");
                let (player, queen) = match ch {
                    '.' => continue,
                    'B' => (BLACK, true),
                    'b' => (BLACK, false),
                    'W' => (WHITE, true),
                    'w' => (WHITE, false),
                    _ => return Err(ParsePositionError::BadCell { q, r, found: ch }),
                };
                if !queen && cell.index() == THRONE_INDEX {
                    return Err(ParsePositionError::SoldierOnThrone);
                }
                occ[player] |= cell.bit();
                if queen {
                    queens[player].push(cell.index() as u8);
                }
            }
        }
        for (player, queen_name, soldier_name) in [
            (BLACK, "black queen", "black soldier"),
            (WHITE, "white queen", "white soldier"),
        ] {
            let nq = queens[player].len();
            if nq != 1 {
                return Err(ParsePositionError::PieceCount {
                    piece: queen_name,
                    expected: 1,
                    found: nq,
                });
            }
            let ns = occ[player].count_ones() as usize - nq;
            if ns != SOLDIERS {
                return Err(ParsePositionError::PieceCount {
                    piece: soldier_name,
                    expected: SOLDIERS,
                    found: ns,
                });
            }
        }
        let side = match fields[1] {
            "b" => BLACK,
            "w" => WHITE,
            other => {
                return Err(ParsePositionError::SideToMove {
                    found: other.to_string(),
                })
            }
        };
        let ply = parse_number(fields[2], NumberField::Ply, MAX_PLIES)?;
        let max = u16::MAX as u32;
        let bp = parse_number(fields[3], NumberField::BlackPtrap, max)?;
        let bq = parse_number(fields[4], NumberField::BlackQtrap, max)?;
        let wp = parse_number(fields[5], NumberField::WhitePtrap, max)?;
        let wq = parse_number(fields[6], NumberField::WhiteQtrap, max)?;
        debug_assert!(occ[0] >> CELLS == 0 && occ[1] >> CELLS == 0);
        Ok(Position::from_parts(
            occ,
            [queens[BLACK][0], queens[WHITE][0]],
            side,
            ply,
            [bp, wp],
            [bq, wq],
        ))
    }
}
