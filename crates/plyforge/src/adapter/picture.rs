//! The vocabulary of a board's picture: layouts, spots (cells and other places) with their
//! geometry, pieces, marks and facts, and the picture of a position ([`Board`]). Plain data,
//! no game: what [`BoardView`](super::BoardView) describes a game's board in.

use search::Player;

/// How the board as a whole is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Layout {
    /// A row of squares (Jumpy3).
    Row,
    /// A rectangular grid of this many columns and rows, drawn as an upright frame with a
    /// hole for each cell: the board of a game that drops its pieces (Connect Four). For a
    /// board of squares, see [`Layout::Squares`].
    Grid {
        /// Columns.
        columns: u8,
        /// Rows.
        rows: u8,
    },
    /// A chequered board of squares, `files.len()` columns by `ranks.len()` rows: the board
    /// of chess-like games (Breakthrough, checkers, Othello). The square of column `c` and
    /// row `r` (row 0 at the top) is a [`Spot::square`]: a unit [`Shape::Rect`] centred on
    /// (`c`, `r`). Squares are shaded light and dark by the parity of `c + r`, the
    /// bottom-left one dark as on a chess board; the coordinates are written outside the
    /// board, `files[c]` under column `c` and `ranks[r]` left of row `r`.
    ///
    /// ```
    /// use plyforge::view::{Layout, Role, Spot};
    /// // 6×6, files a–f from the left, ranks 6 (the top row) down to 1.
    /// let layout = Layout::Squares {
    ///     files: &["a", "b", "c", "d", "e", "f"],
    ///     ranks: &["6", "5", "4", "3", "2", "1"],
    /// };
    /// let a1 = Spot::square("a1", 0, 5);
    /// assert_eq!((a1.role, a1.shape.centre()), (Role::Cell, (0.0, 5.0)));
    /// # let _ = layout;
    /// ```
    Squares {
        /// The columns' names, from the left.
        files: &'static [&'static str],
        /// The rows' names, from the top.
        ranks: &'static [&'static str],
    },
    /// A hexagon of hexes of this radius (Chexers 3, Throne 5).
    Hexagon {
        /// Rings around the centre hex.
        radius: u8,
    },
    /// A clock face: positions 1 to 12 on a circle round the centre (0, 0) (Chaos Clock).
    Clock {
        /// Radius of the circle the positions' centres are on.
        radius: f64,
    },
}

/// What a spot of the picture is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// A cell of the board (a square, a hex, a clock position); its id is its coordinate in
    /// the game's notation.
    Cell,
    /// Where a player's pieces leave the board (Chexers' exit edges, Jumpy3's ends); the
    /// pieces that left are shown there.
    Off(Player),
    /// A player's hand: pieces off the board that may come back (Chaos Clock).
    Hand(Player),
}

/// The outline of a spot, in board units.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Shape {
    /// An axis-parallel rectangle centred on (x, y).
    Rect {
        /// Centre x.
        x: f64,
        /// Centre y.
        y: f64,
        /// Width.
        w: f64,
        /// Height.
        h: f64,
    },
    /// A regular hexagon with a vertex at the top ("pointy-top"), centred on (x, y).
    Hex {
        /// Centre x.
        x: f64,
        /// Centre y.
        y: f64,
        /// Circumradius.
        r: f64,
    },
    /// A circle.
    Circle {
        /// Centre x.
        x: f64,
        /// Centre y.
        y: f64,
        /// Radius.
        r: f64,
    },
    /// A thick segment from (x1, y1) to (x2, y2): an edge of the board, or a hand.
    Band {
        /// Start x.
        x1: f64,
        /// Start y.
        y1: f64,
        /// End x.
        x2: f64,
        /// End y.
        y2: f64,
    },
}

impl Shape {
    /// The centre.
    pub fn centre(&self) -> (f64, f64) {
        match *self {
            Shape::Rect { x, y, .. } | Shape::Hex { x, y, .. } | Shape::Circle { x, y, .. } => {
                (x, y)
            }
            Shape::Band { x1, y1, x2, y2 } => ((x1 + x2) / 2.0, (y1 + y2) / 2.0),
        }
    }
}

/// A mark on a cell that matters to the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mark {
    /// One of this player's exit cells (Chexers): drawn in its colour.
    ExitFor(Player),
    /// A goal of the game (Throne's throne): drawn gold, with a crown.
    Goal,
}

/// One place of the picture: a cell, an exit edge or a hand.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Spot {
    /// The id: for a cell its coordinate in notation (`7`, `-3,1`, `12`); otherwise a name
    /// such as `off-w`, `exit-r` or `hand-odd`.
    pub id: String,
    /// What it is.
    pub role: Role,
    /// Where it is.
    pub shape: Shape,
    /// A shade for drawing: Throne's ring grade (1 outermost … 6 the throne), else 0.
    pub grade: u8,
    /// Marks that matter to the rules.
    pub marks: Vec<Mark>,
    /// A caption for people (the coordinate for cells, "Red's exits" for an edge).
    pub caption: String,
}

impl Spot {
    /// A spot with this id, role and outline; its caption is its id, with no marks and no
    /// shade.
    pub fn new(id: impl Into<String>, role: Role, shape: Shape) -> Spot {
        let id = id.into();
        Spot {
            caption: id.clone(),
            id,
            role,
            shape,
            grade: 0,
            marks: Vec::new(),
        }
    }
    /// A square cell of a [`Layout::Squares`] board: `id` (its coordinate in notation) at
    /// column `column` and row `row` (row 0 at the top), a unit square centred on
    /// (`column`, `row`).
    pub fn square(id: impl Into<String>, column: u8, row: u8) -> Spot {
        let shape = Shape::Rect {
            x: f64::from(column),
            y: f64::from(row),
            w: 1.0,
            h: 1.0,
        };
        Spot::new(id, Role::Cell, shape)
    }
    /// This spot with another caption.
    pub fn with_caption(mut self, caption: impl Into<String>) -> Spot {
        self.caption = caption.into();
        self
    }
    /// This spot with these marks.
    pub fn with_marks(mut self, marks: Vec<Mark>) -> Spot {
        self.marks = marks;
        self
    }
    /// This spot with a shade (a ring's grade).
    pub fn with_grade(mut self, grade: u8) -> Spot {
        self.grade = grade;
        self
    }
}

/// What is drawn on a piece, in its player's colour.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Symbol {
    /// A plain disc.
    Plain,
    /// A crown (a king, a queen).
    Crown,
    /// A ring inside the disc (a soldier).
    Ring,
    /// A short text: a number, a letter.
    Text(String),
}

/// A piece where it stands (or lies, in a hand or off the board).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Piece {
    /// The id of its spot.
    pub spot: String,
    /// Its owner.
    pub player: Player,
    /// What it is, in a word (`king`, `pawn`, `disc`): for people and scripts.
    pub name: &'static str,
    /// What is drawn on it.
    pub symbol: Symbol,
    /// It can never move again (Chaos Clock's pieces home): drawn with a gold ring.
    pub fixed: bool,
    /// It is held captive (Throne's prisoners): drawn with a red dashed ring.
    pub captive: bool,
}

impl Piece {
    /// A piece on `spot` of `player`, named `name`, drawn with `symbol`.
    pub fn new(
        spot: impl Into<String>,
        player: Player,
        name: &'static str,
        symbol: Symbol,
    ) -> Piece {
        Piece {
            spot: spot.into(),
            player,
            name,
            symbol,
            fixed: false,
            captive: false,
        }
    }
    /// This piece, fixed or not.
    pub fn fixed(mut self, fixed: bool) -> Piece {
        self.fixed = fixed;
        self
    }
    /// This piece, captive or not.
    pub fn captive(mut self, captive: bool) -> Piece {
        self.captive = captive;
        self
    }
}

/// A move with the spots it leaves and reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MoveSpots {
    /// The move in notation.
    pub text: String,
    /// The spot of the piece that moves (a cell, or a hand); `None` for a pass.
    pub from: Option<String>,
    /// Where it goes (a cell, an exit edge, a hand); `None` for a pass.
    pub to: Option<String>,
}

/// A player's name, letter and colour for the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlayerStyle {
    /// The letter (as in `result: winner X`).
    pub letter: &'static str,
    /// The name for people.
    pub name: &'static str,
    /// A CSS colour for its pieces.
    pub colour: &'static str,
}

/// A line of status for people (`exits`, `score`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fact {
    /// What it is.
    pub label: String,
    /// Its value.
    pub value: String,
}

impl Fact {
    /// A fact.
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Fact {
        Fact {
            label: label.into(),
            value: value.into(),
        }
    }
}

/// Everything needed to draw a game's position and to click moves on it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Board {
    /// How the board as a whole is drawn.
    pub layout: Layout,
    /// Every spot: the cells, then the exit edges, off-board places and hands.
    pub spots: Vec<Spot>,
    /// The players, in turn order.
    pub players: Vec<PlayerStyle>,
    /// Every piece, on the board and off it.
    pub pieces: Vec<Piece>,
    /// Every legal move, in the game's order (none once the game is over).
    pub moves: Vec<MoveSpots>,
    /// The move that led here, if any.
    pub last: Option<MoveSpots>,
    /// Status for people.
    pub facts: Vec<Fact>,
}
