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
//! The search plays Chexers as a three-player game: [`search::Algorithm::Paranoid`],
//! [`search::Algorithm::BestReply`] (with [`Game::skip_turn`](search::Game::skip_turn)) and
//! [`search::Algorithm::MaxN`] all work; [`engine_config`] picks the one that won most in
//! matches.
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

/// The recommended engine settings for Chexers.
pub fn engine_config() -> search::Config {
    search::Config {
        algorithm: search::Algorithm::Paranoid,
        threads: 1,
        tt_mib: 32,
        // Quiescence over converting jumps lost games at equal node budgets, and without
        // pruning (max^n) its tree explodes; off.
        quiescence: false,
        ..search::Config::default()
    }
}
