#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub use search;

mod action;
pub mod board;
mod eval;
pub mod players;
mod position;

pub use action::{Move, ParseMoveError};
pub use board::Hex;
pub use eval::{DefaultEval, Weights};
pub use position::{
    player_letter, player_name, ParsePositionError, Position, EXITS_TO_WIN, PLAYERS,
    REPETITION_LIMIT, TURN_KEY_WINDOW, TURN_LIMIT,
};

/// The recommended engine settings for Chexers: paranoid search, one thread, 32 MiB table,
/// no quiescence.
///
/// Match figures behind it (the project's Chexers match program, one thread, on 2 shared and busy cores,
/// 3 random opening plies; "per seat" = wins / games played):
///
/// | match | paranoid | best-reply | max^n |
/// |---|---|---|---|
/// | vs two greedy players, 100 ms/move, 100 games | **97%** | 96% | 93% |
/// | vs two greedy players, 30,000 nodes/move, 150 games | **98.7%** | 98.0% | 88.0% |
/// | vs two random players, 100 ms/move, 100 games | 100% | | |
/// | three-way, all seat orders, 660 games at 100 ms or 30k nodes | 213 wins | **224 wins** | 102 wins |
/// | head to head (1 v 2 and 2 v 1 seats), 480 games (240 distinct), per seat | **27.8%** | 21.4% | |
///
/// Paranoid and best-reply are close; paranoid wins the head-to-head games and against the
/// greedy players, best-reply edges the three-way games within noise; max^n (no table, no
/// pruning) is clearly weaker. Quiescence over converting jumps lost at equal node budgets
/// (92.7% against 98.7% against greedy players, 150 games at 30,000 nodes) and its tree
/// explodes without pruning under max^n, so it is off.
pub fn engine_config() -> search::Config {
    search::Config::default()
        .with_algorithm(search::Algorithm::Paranoid)
        .with_threads(1)
        .with_tt_mib(32)
        .with_quiescence(false)
}
