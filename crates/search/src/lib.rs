#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

// The engine's rooms, each of one technique (`ARCHITECTURE.md` has the map): no module
// imports one that imports it back, and `reference` is for tests and users only.
mod alphabeta;
pub mod bench;
mod brs;
mod busy;
pub mod conformance;
mod engine;
mod game;
mod history;
mod iterate;
mod maxn;
mod mcts;
mod movepick;
mod perft;
pub mod prove;
mod prune;
mod record;
pub mod reference;
mod report;
pub mod rng;
mod score;
mod selective;
mod shared;
mod smp;
mod split;
pub mod synthetic;
mod thread;
mod time;
pub mod trace;
mod tt;
mod types;
mod vectors;

pub use engine::{analyse, best_move, Search};
pub use game::{
    DrawKind, Evaluator, Game, IllegalMove, MateOnly, MoveList, Outcome, Player, Scores,
    SideToMove, SideToMoveEval, MAX_EVAL, MAX_HINT, MAX_PLAYERS,
};
pub use maxn::MaxnBounds;
pub use mcts::MctsStats;
pub use perft::{perft, perft_divide};
pub use record::{PlayError, Record};
pub use score::{outcome_score, HALF_MATE, MAX_PLY, MAX_QUIESCENCE_PLY};
pub use thread::SmpStats;
pub use types::{
    mate_distance, Algorithm, Clock, ClockPolicy, Config, Limits, MctsConfig, MctsParallel,
    Parallel, Report, Selectivity, MATE, MATE_BOUND,
};
