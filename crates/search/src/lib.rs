//! A generic game-tree search engine: alpha-beta with principal-variation search, iterative
//! deepening, aspiration windows, a lock-free transposition table, move ordering and Lazy SMP
//! on rayon; paranoid, best-reply and max^n search for three players and for non-zero-sum games.
//!
//! The engine knows nothing of any game: a game implements [`Game`], an evaluation implements
//! [`Evaluator`], and [`Record`] plays a game with its history rules (repetition).
#![deny(missing_docs)]

mod game;
mod record;
mod types;

pub use game::{
    DrawKind, Evaluator, Game, MoveList, Outcome, Player, Scores, MAX_EVAL, MAX_PLAYERS,
};
pub use record::{PlayError, Record};
pub use types::{mate_distance, Algorithm, Clock, Config, Limits, Report, MATE, MATE_BOUND};
