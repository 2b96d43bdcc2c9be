#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod eval;
mod position;

pub use eval::{
    evaluate, evaluate_with, DefaultEval, WeightedEval, Weights, CENTRE_STONE, OPEN_THREE, OPEN_TWO,
};
/// The fixed bench of Connect Four (`arena bench`): `label: depth: position` lines, read with
/// [`plyforge_search::bench::parse_list`] and searched with [`plyforge_search::bench::run`]
/// (with [`engine_config`] and `SideToMove(DefaultEval)`); its total node count at one thread
/// is the search's signature on this game.
///
/// ```
/// use connect_four::search::bench::parse_list;
/// let list = parse_list::<connect_four::Position>(connect_four::BENCH).unwrap();
/// assert_eq!(list[0].label, "start");
/// ```
pub const BENCH: &str = include_str!("../bench.txt");
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
