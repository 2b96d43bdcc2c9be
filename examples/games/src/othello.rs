//! Othello on a 6×6 board: discs that flip, passes, and the end by counting.
//!
//! Four discs start in the centre; `x` (Black) moves first. A disc is placed on an empty
//! cell so that it closes one or more lines of the other player's discs (in any of the
//! eight directions) with a disc of one's own, and those discs flip. A player who cannot
//! place a disc passes; the game ends when neither can, and the one with more discs wins.
//!
//! Notation (`Display` and `FromStr` of [`Move`] and [`Othello`]): a cell is its column
//! `a`–`f` and row `1`–`6`, row 1 at the top (`c4`); a move is its cell or `pass`; a
//! position is the six rows from row 1 down, separated by `/`, each six cells from column
//! `a` (`x`, `o` or `.`), a space and the player to move (`x` or `o`).
//!
//! ```
//! use example_games::othello::{Move, Othello, OthelloEval};
//! use example_games::search::{perft, Config, Game, Limits, Search, SideToMove};
//!
//! let mut p = Othello::start();
//! assert_eq!(p.to_string(), "....../....../..ox../..xo../....../...... x");
//! assert_eq!(perft(&p, 4), 244);
//! p.play("c2".parse::<Move>().unwrap());
//! assert_eq!(p.to_string(), "....../..x.../..xx../..xo../....../...... o");
//! assert!(p.why_illegal(Move::PASS).is_some()); // o has a move
//!
//! let r = Search::new(Config::default(), SideToMove(OthelloEval)).analyse(&p, Limits::depth(4));
//! assert!(p.moves().contains(&r.best.unwrap()));
//! ```

mod eval;
mod notation;
mod position;

pub use eval::{evaluate, OthelloEval};
pub use notation::{ParseMoveError, ParsePositionError};
pub use position::{Move, Othello, O, X};
