//! Boards for pictures: what a graphical front end (the web page of `arena web`) needs of a
//! game that the notation alone does not say — the board's cells with their coordinates in
//! notation and their geometry, the pieces on them, and for each legal move the cell it
//! leaves and the cell it reaches (click-to-move, the last-move highlight, best-move arrows).
//!
//! A game describes its picture by implementing [`BoardView`] and returning
//! `Some(Viewed::new())` from [`GameAdapter::view`](crate::GameAdapter::view) (ours do in
//! their folders of `games/`); a front end that holds a [`State`] of any game calls
//! [`board`] and draws what it gets, with no rule of any game of its own. The vocabulary is generic: cells of any shape
//! at any place (a row, a frame of holes, a chequered board of squares, a hex grid, a ring),
//! pieces with a symbol or a text in their player's colour, marks such as a player's exits
//! or a goal cell.
//!
//! Geometry is in abstract units (a Jumpy3 square, a hex's circumradius and a clock
//! position are about one unit); `y` grows downwards, as on a screen.
//!
//! ```
//! use plyforge::{view, GameKind};
//! let mut game = GameKind::from_name("jumpy3").unwrap().new_game();
//! game.play("4").unwrap();
//! let board = view::board(&game).unwrap();
//! assert_eq!(board.spots.iter().filter(|s| s.role == view::Role::Cell).count(), 16);
//! // The last move left square 4 for square 5.
//! let last = board.last.unwrap();
//! assert_eq!((last.from.as_deref(), last.to.as_deref()), (Some("4"), Some("5")));
//! // Black's first legal move moves the piece on square 13 to square 12.
//! assert_eq!(board.moves[0].text, "13");
//! assert_eq!(board.moves[0].to.as_deref(), Some("12"));
//! ```

pub use crate::adapter::picture::*;
pub use crate::adapter::{board_of, BoardView, FromTo, Viewed};
use crate::dynamic::State;

/// The board of a game in progress, of any game that has a picture ([`crate::GameAdapter::view`]).
pub fn board(state: &State) -> Option<Board> {
    state.board()
}
