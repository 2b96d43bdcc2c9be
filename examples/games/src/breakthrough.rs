//! Breakthrough on a 6×6 board: a capture game, where tactics (captures, a pawn about to
//! break through) are on the board from the first ply.
//!
//! White's pawns start on ranks 1 and 2, Black's on ranks 5 and 6; White moves first. A
//! pawn steps one rank forward (up for White, down for Black), straight onto an empty
//! square or diagonally onto a square without a pawn of its own, taking the enemy pawn
//! there; it never takes straight ahead. A side wins when a pawn of its reaches the far
//! rank, or when the other side has no pawn left (a side with a pawn always has a move).
//!
//! Notation (`Display` and `FromStr` of [`Move`] and [`Breakthrough`]): a square is its
//! file `a`–`f` and rank `1`–`6` (`c2`); a move is its two squares, `c2-c3` (`c2xd3` is
//! read too); a position is the six ranks from rank 6 down, separated by `/`, each six
//! squares from file `a` (`w`, `b` or `.`), a space and the side to move (`w` or `b`).
//!
//! For the search: the captures are the noisy moves ([`Game::noisy_moves`], for quiescence
//! search and to order them first); the selective search may pass ([`Game::skip_turn`]),
//! never finds zugzwang ([`Game::zugzwang`]), and treats a step onto either of the two
//! rows before the goal as forcing ([`Game::is_forcing`]).
//!
//! ```
//! use example_games::breakthrough::{Breakthrough, BreakthroughEval, Move};
//! use example_games::search::{perft, Config, Game, Limits, Search, SideToMove};
//!
//! let start = Breakthrough::start();
//! assert_eq!(start.to_string(), "bbbbbb/bbbbbb/....../....../wwwwww/wwwwww w");
//! assert_eq!(perft(&start, 2), 256);
//! let mv: Move = "c2-d3".parse().unwrap();
//! assert!(start.why_illegal(mv).is_none());
//! assert!(start.why_illegal("c2-c4".parse().unwrap()).is_some());
//!
//! let r = Search::new(Config::default(), SideToMove(BreakthroughEval))
//!     .analyse(&start, Limits::depth(4));
//! assert!(start.moves().contains(&r.best.unwrap()));
//! ```
//!
//! [`Game::noisy_moves`]: plyforge_search::Game::noisy_moves
//! [`Game::skip_turn`]: plyforge_search::Game::skip_turn
//! [`Game::zugzwang`]: plyforge_search::Game::zugzwang
//! [`Game::is_forcing`]: plyforge_search::Game::is_forcing

mod eval;
mod notation;
mod position;

pub use eval::{evaluate, BreakthroughEval};
pub use notation::{square_name, ParseMoveError, ParsePositionError};
pub use position::{Breakthrough, Move, BLACK, WHITE};
