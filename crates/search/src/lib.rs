#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod conformance;
mod engine;
mod game;
mod history;
mod maxn;
mod movepick;
mod perft;
mod record;
pub mod reference;
pub mod rng;
mod score;
mod search;
mod smp;
pub mod synthetic;
mod time;
mod tt;
mod types;

pub use engine::Search;
pub use game::{
    DrawKind, Evaluator, Game, IllegalMove, MoveList, Outcome, Player, Scores, MAX_EVAL, MAX_HINT,
    MAX_PLAYERS,
};
pub use maxn::MaxnBounds;
pub use perft::{perft, perft_divide};
pub use record::{PlayError, Record};
pub use score::{outcome_score, HALF_MATE, MAX_PLY, MAX_QUIESCENCE_PLY};
pub use types::{mate_distance, Algorithm, Clock, Config, Limits, Report, MATE, MATE_BOUND};
