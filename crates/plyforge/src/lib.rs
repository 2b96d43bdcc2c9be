#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub use learn;
pub use search;
pub use search::{Limits, Outcome, Player};

#[cfg(feature = "chaosclock")]
pub use chaosclock;
#[cfg(feature = "chexers")]
pub use chexers;
#[cfg(feature = "jumpy3")]
pub use jumpy3;
#[cfg(feature = "throne")]
pub use throne;

mod adapter;
pub mod agent;
mod cache;
pub mod checks;
pub mod draw;
pub mod duration;
mod dynamic;
pub mod encoding;
mod error;
pub mod games;
pub mod learned;
pub mod memory;
pub mod params;
pub mod playout;
mod registry;
pub mod view;

pub use adapter::{
    legal_moves, parse_player, play_list, play_text, player_letters, proof_search, read_position,
    read_start, result_text, result_words, CratePlayer, EvalError, ExactValue, GameAdapter,
    Solution, SolveSettings, SolverTraits,
};
pub use cache::cache_dir;
pub use dynamic::{Engine, SearchInfo, SolutionText, State};
pub use error::{Error, Source};
pub use games::{visit_default_games, GameVisitor};
pub use registry::{register, GameInfo, GameKind};
