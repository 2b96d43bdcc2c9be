//! Chexers, the three-player hexagonal race game of the University of Melbourne's COMP30024
//! (2019): rules exactly as the course referee applies them, the referee's action notation,
//! a position notation, an evaluation for three players, simple reference opponents, and the
//! search engine through the [`search`] re-export.
//!
//! ```
//! use chexers::search::{Game, MoveList, Record, Outcome};
//! use chexers::{Move, Position};
//!
//! let start = Position::start();
//! assert_eq!(start.to_string(), "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 0");
//!
//! // Red has 8 opening moves, all steps.
//! let mut moves = MoveList::new();
//! start.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 8);
//!
//! // A game with its history: Record applies the repetition and turn-limit draws.
//! let mut game = Record::new(start);
//! let mv: Move = "MOVE -3 1 -2 0".parse().unwrap();
//! assert_eq!(game.play(mv), Ok(None));
//! assert_eq!(
//!     game.position().to_string(),
//!     "gggg/...../....../rr....b/.....b/r...b/r..b g 0,0,0 1"
//! );
//!
//! // Bad input is an error naming the field.
//! let err = "gggg/...../....../r.....b/r....b/r...b/r..b x 0,0,0 0"
//!     .parse::<Position>()
//!     .unwrap_err();
//! assert_eq!(err.to_string(), "player to move: expected r, g or b, found \"x\"");
//! # let _ = Outcome::Win(0);
//! ```
//!
//! Players: 0 = Red (`r`), 1 = Green (`g`), 2 = Blue (`b`); Red moves first.
//!
//! # Rules as the course referee applies them
//! - Actions are generated exactly as the referee's list of available actions: per piece, an
//!   `EXIT` from its own exit hexes, and per direction a `MOVE` to an empty neighbour or else a
//!   `JUMP` over an occupied neighbour (any colour; another colour converts) to an empty hex
//!   beyond; `PASS` only when there is nothing else. All 3,628 turns of the 20 recorded referee
//!   games are checked action set by action set (`tests/vectors.rs`).
//! - The end, with [`search::Record`]: after each action the 4th occurrence of a position (the
//!   board with pieces of a colour interchangeable, plus the player to move; the start counts
//!   once; exit counts and the turn count are not part of it) draws; otherwise the 768th turn
//!   draws ([`Position`]'s `outcome` checks it before the exits, as the referee reports a draw
//!   found on the same action as a 4th exit); otherwise a player with 4 exits wins.
//!
//! # Rulings where the rules are silent
//! - The position notation must be consistent: the player to move is `turns % 3`, at most 4
//!   exits each and at most one player with 4, at most 12 pieces on the board and exited
//!   together, at most 768 turns. Anything else is a [`ParsePositionError`] naming the field.
//! - [`Game::skip_turn`](search::Game::skip_turn) (used by best-reply search) passes the turn
//!   and counts it as a turn, like a `PASS`, so the player to move stays `turns % 3`.
//! - [`Game::key`](search::Game::key) includes the exact turn count only within
//!   [`TURN_KEY_WINDOW`] turns of the limit (see [`Position`]).
//! - [`Game::noisy_moves`](search::Game::noisy_moves) are the converting jumps; the default
//!   configuration does not use them (see [`engine_config`]).
//!
//! The search plays Chexers as a three-player game: [`search::Algorithm::Paranoid`],
//! [`search::Algorithm::BestReply`] (with [`Game::skip_turn`](search::Game::skip_turn)) and
//! [`search::Algorithm::MaxN`] all work; [`engine_config`] picks the one that won most in
//! matches (figures there). `examples/matches.rs` plays such matches.
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
/// Match figures behind it (`examples/matches.rs`, one thread, on 2 shared and busy cores,
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
    search::Config {
        algorithm: search::Algorithm::Paranoid,
        threads: 1,
        tt_mib: 32,
        quiescence: false,
        ..search::Config::default()
    }
}
