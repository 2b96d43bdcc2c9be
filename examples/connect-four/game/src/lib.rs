#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod eval;
mod position;

pub use eval::{evaluate, DefaultEval, CENTRE_STONE, OPEN_THREE, OPEN_TWO};
/// The search engine this game is written for.
pub use plyforge_search as search;
pub use position::{
    letter, Move, ParseMoveError, ParsePositionError, Position, COLUMNS, MOVE_ORDER, O, ROWS, X,
};

/// The engine's settings for Connect Four: the defaults (Connect Four has no noisy moves, so
/// quiescence search costs nothing) with a 16 MiB table.
///
/// ```
/// assert_eq!(connect_four::engine_config().tt_mib, 16);
/// ```
pub fn engine_config() -> search::Config {
    search::Config::default().with_tt_mib(16)
}
