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

// The ground: what both layers use.
mod cache;
pub mod digest;
pub mod draw;
pub mod duration;
mod error;
pub mod memory;
pub mod params;

// The typed layer: a game's adapter and the code written once over it (never naming
// `GameKind` or `State`).
mod adapter;
pub mod agent;
pub mod checks;
pub mod games;
pub mod learned;

// The dynamic layer: the registry, `State` and `Engine`, and the modules that hand out what
// the typed layer gives through them.
mod dynamic;
pub mod encoding;
pub mod playout;
pub mod view;

pub use adapter::{
    clock_limits, legal_moves, parse_player, play_list, play_text, player_letters, proof_search,
    read_position, read_start, result_text, result_words, CratePlayer, EvalError, ExactValue,
    GameAdapter, Solution, SolveSettings, SolverTraits,
};
pub use cache::cache_dir;
pub use dynamic::{register, Engine, GameInfo, GameKind, SearchInfo, SolutionText, State};
pub use error::{Error, Source};
pub use games::{visit_default_games, GameVisitor};
