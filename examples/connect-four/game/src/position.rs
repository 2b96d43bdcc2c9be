//! The rules: the board as two bitboards, moves, the game's end, Zobrist keys, notation.

use std::fmt;
use std::str::FromStr;

use plyforge_search::rng::splitmix64;
use plyforge_search::{DrawKind, Game, IllegalMove, MoveList, Outcome, Player};

/// Columns of the board.
pub const COLUMNS: usize = 7;
/// Rows of the board.
pub const ROWS: usize = 6;
/// Bits per column: the rows and one empty bit on top, so that shifted lines never run from
/// one column into the next.
pub(crate) const STRIDE: usize = ROWS + 1;
/// The player who moves first, shown `x`.
pub const X: Player = 0;
/// The player who moves second, shown `o`.
pub const O: Player = 1;

/// Every cell of the board (bit `column * 7 + row`, row 0 at the bottom).
pub(crate) const BOARD: u64 = {
    let mut b = 0u64;
    let mut c = 0;
    while c < COLUMNS {
        b |= ((1u64 << ROWS) - 1) << (c * STRIDE);
        c += 1;
    }
    b
};

/// The order in which [`Position`] lists its moves: the centre first, then outwards
/// (columns 4, 3, 5, 2, 6, 1, 7): central moves take part in more lines.
pub const MOVE_ORDER: [u8; COLUMNS] = [3, 2, 4, 1, 5, 0, 6];

/// Zobrist numbers: one per player and cell, then the side to move.
const ZOBRIST: [[u64; COLUMNS * STRIDE]; 2] = {
    let mut z = [[0u64; COLUMNS * STRIDE]; 2];
    let mut p = 0;
    while p < 2 {
        let mut i = 0;
        while i < COLUMNS * STRIDE {
            z[p][i] = splitmix64(0xC0_4E_C7_F0_u64 ^ ((p * 64 + i) as u64) << 20);
            i += 1;
        }
        p += 1;
    }
    z
};
const O_TO_MOVE: u64 = splitmix64(0xC0_4E_C7_F0_u64 ^ 0xFFFF);

/// Whether the stones `b` hold four in a line.
#[inline]
pub(crate) fn has_four(b: u64) -> bool {
    // For each direction (up, right, the two diagonals): cells whose next is also set, then
    // those whose pair two steps on is also set.
    let mut four = false;
    for d in [1, STRIDE, STRIDE - 1, STRIDE + 1] {
        let m = b & (b >> d);
        four |= m & (m >> (2 * d)) != 0;
    }
    four
}

/// A column to drop a stone into: the move of Connect Four. Shown as the column's number,
/// 1 to 7 from the left.
///
/// ```
/// use connect_four::Move;
/// let m: Move = "4".parse().unwrap();
/// assert_eq!(m.column(), 4);
/// assert_eq!(m.to_string(), "4");
/// assert!("8".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move into column `column` (1 to 7), or `None` for another number.
    pub fn new(column: u8) -> Option<Move> {
        (1..=COLUMNS as u8)
            .contains(&column)
            .then(|| Move(column - 1))
    }

    /// The column, 1 to 7 from the left.
    pub fn column(self) -> u8 {
        self.0 + 1
    }

    /// The column, 0 to 6 (an index).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.column())
    }
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing was given.
    Empty,
    /// The text is not a whole number.
    NotANumber(String),
    /// The number is not a column (1 to 7).
    NoSuchColumn(u64),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "no move given (a column, 1 to 7)"),
            ParseMoveError::NotANumber(s) => {
                write!(f, "move {s:?} is not a column number (1 to 7)")
            }
            ParseMoveError::NoSuchColumn(n) => {
                write!(f, "there is no column {n} (the columns are 1 to 7)")
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
        let n: u64 = s
            .parse()
            .map_err(|_| ParseMoveError::NotANumber(s.to_string()))?;
        u8::try_from(n)
            .ok()
            .and_then(Move::new)
            .ok_or(ParseMoveError::NoSuchColumn(n))
    }
}

/// A Connect Four position: the stones of both players and the Zobrist key.
///
/// Notation: the six rows from the top, separated by `/`, each seven cells from the left
/// (`x`, `o` or `.` for empty), then a space and the player to move (`x` or `o`). `x`
/// moves first, so the player to move follows from the counts and must agree with them.
///
/// ```
/// use connect_four::Position;
/// let p = Position::start();
/// assert_eq!(p.to_string(), "......./......./......./......./......./....... x");
/// let q: Position = "......./......./......./......./......./...x... o".parse().unwrap();
/// assert_eq!(q.plies(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The stones of each player (bit `column * 7 + row`, row 0 at the bottom).
    stones: [u64; 2],
    /// Stones on the board.
    plies: u8,
    /// Zobrist key, kept up to date by [`Game::play`].
    key: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The empty board, `x` to move.
    pub fn start() -> Position {
        Position {
            stones: [0, 0],
            plies: 0,
            key: 0,
        }
    }

    /// The stones of `player` as a bitboard: bit `column * 7 + row`, column 0 on the left,
    /// row 0 at the bottom.
    pub fn stones(&self, player: Player) -> u64 {
        self.stones[player & 1]
    }

    /// Stones on the board (the plies played from the empty board).
    pub fn plies(&self) -> u32 {
        self.plies as u32
    }

    /// What is in `column` (0 to 6) at `row` (0 at the bottom to 5): a player or nobody.
    pub fn cell(&self, column: usize, row: usize) -> Option<Player> {
        let bit = 1u64 << (column * STRIDE + row);
        (0..2).find(|&p| self.stones[p] & bit != 0)
    }

    /// The stones in `column` (0 to 6).
    fn height(&self, column: usize) -> u32 {
        (((self.stones[0] | self.stones[1]) >> (column * STRIDE)) & ((1 << ROWS) - 1)).count_ones()
    }
}

impl Game for Position {
    type Move = Move;

    fn players(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> Player {
        (self.plies & 1) as Player
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let all = self.stones[0] | self.stones[1];
        for c in MOVE_ORDER {
            let top = 1u64 << (c as usize * STRIDE + ROWS - 1);
            if all & top == 0 {
                out.push(Move(c));
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let c = mv.index();
        let cell = c * STRIDE + self.height(c) as usize;
        let p = self.to_move();
        self.stones[p] |= 1 << cell;
        self.key ^= ZOBRIST[p][cell] ^ O_TO_MOVE;
        self.plies += 1;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        let last = 1 - self.to_move();
        if has_four(self.stones[last]) {
            Some(Outcome::Win(last))
        } else if self.plies as usize == COLUMNS * ROWS {
            Some(Outcome::Draw(DrawKind::TurnLimit))
        } else {
            None
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn recompute_key(&self) -> u64 {
        let mut key = if self.to_move() == O { O_TO_MOVE } else { 0 };
        for (p, z) in ZOBRIST.iter().enumerate() {
            let mut bits = self.stones[p];
            while bits != 0 {
                key ^= z[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        key
    }

    fn why_illegal(&self, mv: Move) -> Option<IllegalMove> {
        if let Some(o) = self.outcome() {
            return Some(IllegalMove::new(match o {
                Outcome::Win(p) => format!("the game is over: {} has won", letter(p)),
                _ => "the game is over: the board is full".to_string(),
            }));
        }
        (self.height(mv.index()) as usize == ROWS)
            .then(|| IllegalMove::new(format!("column {mv} is full")))
    }

    fn zero_sum(&self) -> bool {
        true
    }

    /// A move after which its player threatens to win on its next move (a column where one
    /// more stone makes four): the other player has to answer it, so the selective search
    /// never reduces such a move and prunes nothing in the position it leads to.
    fn is_forcing(&self, mv: Move) -> bool {
        let mut next = *self;
        next.play(mv);
        if next.outcome().is_some() {
            return false;
        }
        let own = next.stones[self.to_move()];
        (0..COLUMNS).any(|c| {
            let h = next.height(c) as usize;
            h < ROWS && has_four(own | 1 << (c * STRIDE + h))
        })
    }
}

/// The letter of a player in the notation: `x` (0, first) or `o` (1).
///
/// ```
/// assert_eq!(connect_four::letter(connect_four::O), 'o');
/// ```
pub fn letter(p: Player) -> char {
    if p == X {
        'x'
    } else {
        'o'
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..ROWS).rev() {
            for c in 0..COLUMNS {
                let ch = self.cell(c, row).map_or('.', letter);
                write!(f, "{ch}")?;
            }
            if row > 0 {
                write!(f, "/")?;
            }
        }
        write!(f, " {}", letter(self.to_move()))
    }
}

/// Why a text is not a position, naming the field (rows are numbered 1 at the bottom to 6
/// at the top, columns 1 to 7 from the left, as people count them).
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
    /// A row does not have seven cells.
    RowLength {
        /// The row (1 at the bottom).
        row: usize,
        /// The cells found.
        found: usize,
    },
    /// A cell is not `x`, `o` or `.`.
    Cell {
        /// The row (1 at the bottom).
        row: usize,
        /// The column (1 on the left).
        column: usize,
        /// What was found.
        found: char,
    },
    /// A stone floats above an empty cell.
    Floating {
        /// The row (1 at the bottom).
        row: usize,
        /// The column (1 on the left).
        column: usize,
    },
    /// The player to move is not `x` or `o`.
    Side {
        /// What was found.
        found: String,
    },
    /// The counts of stones cannot arise: `x` moves first, so it has as many stones as
    /// `o` or one more.
    Counts {
        /// `x`'s stones.
        x: u32,
        /// `o`'s stones.
        o: u32,
    },
    /// The player to move is not the one the counts of stones say.
    SideToMove {
        /// The player the counts say.
        expected: char,
        /// The player given.
        found: char,
    },
    /// Both players have four in a line, or the player to move has (the game would have
    /// ended when that line was made, with the other player to move).
    Won {
        /// The player whose line cannot be there.
        player: char,
    },
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePositionError::*;
        match self {
            Fields { found } => write!(
                f,
                "expected two fields, the board and the player to move, separated by a \
                 space; found {found}"
            ),
            Rows { found } => write!(f, "the board has {found} rows separated by '/', not 6"),
            RowLength { row, found } => write!(f, "row {row} has {found} cells, not 7"),
            Cell { row, column, found } => write!(
                f,
                "row {row}, column {column}: {found:?} is not a cell ('x', 'o' or '.')"
            ),
            Floating { row, column } => {
                write!(f, "row {row}, column {column}: a stone above an empty cell")
            }
            Side { found } => write!(f, "player to move {found:?} is not 'x' or 'o'"),
            Counts { x, o } => write!(
                f,
                "x has {x} stones and o {o}: x moves first, so it has as many as o or one more"
            ),
            SideToMove { expected, found } => write!(
                f,
                "player to move is {found:?}, but the counts of stones say {expected:?}"
            ),
            Won { player } => write!(
                f,
                "{player} has four in a line, which the game cannot reach with this player \
                 to move"
            ),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        use ParsePositionError::*;
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [board, side] = fields[..] else {
            return Err(Fields {
                found: fields.len(),
            });
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != ROWS {
            return Err(Rows { found: rows.len() });
        }
        let mut stones = [0u64; 2];
        for (i, text) in rows.iter().enumerate() {
            let row = ROWS - 1 - i;
            let cells: Vec<char> = text.chars().collect();
            if cells.len() != COLUMNS {
                return Err(RowLength {
                    row: row + 1,
                    found: cells.len(),
                });
            }
            for (c, &ch) in cells.iter().enumerate() {
                let bit = 1u64 << (c * STRIDE + row);
                match ch {
                    'x' => stones[X] |= bit,
                    'o' => stones[O] |= bit,
                    '.' => {}
                    found => {
                        return Err(Cell {
                            row: row + 1,
                            column: c + 1,
                            found,
                        })
                    }
                }
            }
        }
        let all = stones[0] | stones[1];
        // A stone whose cell below is empty (row 0 has the floor below it).
        let floating = all & !((all << 1) | BOARD_FLOOR);
        if floating != 0 {
            let bit = floating.trailing_zeros() as usize;
            return Err(Floating {
                row: bit % STRIDE + 1,
                column: bit / STRIDE + 1,
            });
        }
        let found = match side {
            "x" => X,
            "o" => O,
            _ => {
                return Err(Side {
                    found: side.to_string(),
                })
            }
        };
        let (x, o) = (stones[X].count_ones(), stones[O].count_ones());
        if x != o && x != o + 1 {
            return Err(Counts { x, o });
        }
        let expected = if x == o { X } else { O };
        if found != expected {
            return Err(SideToMove {
                expected: letter(expected),
                found: letter(found),
            });
        }
        // Only the player who just moved may have a line.
        if has_four(stones[expected]) {
            return Err(Won {
                player: letter(expected),
            });
        }
        let mut p = Position {
            stones,
            plies: (x + o) as u8,
            key: 0,
        };
        p.key = p.recompute_key();
        Ok(p)
    }
}

/// The bottom cell of every column.
const BOARD_FLOOR: u64 = {
    let mut b = 0u64;
    let mut c = 0;
    while c < COLUMNS {
        b |= 1 << (c * STRIDE);
        c += 1;
    }
    b
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_masks() {
        assert_eq!(BOARD.count_ones(), 42);
        assert_eq!(BOARD_FLOOR.count_ones(), 7);
        assert_eq!(BOARD_FLOOR & BOARD, BOARD_FLOOR);
    }

    #[test]
    fn lines_of_four_in_every_direction() {
        let cell = |c: usize, r: usize| 1u64 << (c * STRIDE + r);
        let line = |c: usize, r: usize, dc: isize, dr: isize| -> u64 {
            (0..4)
                .map(|k| {
                    cell(
                        (c as isize + k * dc) as usize,
                        (r as isize + k * dr) as usize,
                    )
                })
                .fold(0, |a, b| a | b)
        };
        assert!(has_four(line(0, 0, 0, 1)));
        assert!(has_four(line(3, 2, 0, 1)));
        assert!(has_four(line(0, 0, 1, 0)));
        assert!(has_four(line(3, 5, 1, 0)));
        assert!(has_four(line(0, 0, 1, 1)));
        assert!(has_four(line(0, 3, 1, -1)));
        assert!(has_four(line(3, 5, 1, -1)));
        // Three in a column and one at the bottom of the next: no line across the columns.
        assert!(!has_four(cell(0, 3) | cell(0, 4) | cell(0, 5) | cell(1, 0)));
        assert!(!has_four(line(0, 0, 1, 0) & !cell(1, 0)));
    }
}
