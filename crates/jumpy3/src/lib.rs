//! The game Jumpy3: rules, notation, evaluation, an exact solver, and the search engine
//! through a re-export.
//!
//! One row of 16 squares; White (`W` king, `w` pawns) moves right, Black (`B`, `b`) moves
//! left; a side wins the moment its king leaves the board. The rules and the notation are
//! those of the project's rules file (`shared/rules/jumpy3.md`).
//!
//! ```
//! use jumpy3::search::{Game, MoveList, Outcome, Record};
//! use jumpy3::{Move, Position};
//!
//! let start = Position::start();
//! assert_eq!(start.to_string(), "Wwww........bbbB w");
//! let mut moves = MoveList::new();
//! start.legal_moves(&mut moves);
//! let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
//! assert_eq!(names, ["1", "2", "3", "4"]);
//!
//! // A game with its history: the third occurrence of a position draws.
//! let mut game = Record::new(start);
//! game.play("4".parse::<Move>().unwrap()).unwrap();
//! assert_eq!(game.position().to_string(), "Www.w.......bbbB b");
//!
//! // The king on square 16 leaves: White wins.
//! let p: Position = "..w.b...b..b.B.W w".parse().unwrap();
//! assert_eq!(p.after("16".parse().unwrap()).outcome(), Some(Outcome::Win(jumpy3::WHITE)));
//! ```
//!
//! # Contents
//! - [`Position`] and [`Move`]: the rules on bit sets, the notation ([`std::str::FromStr`] and
//!   [`std::fmt::Display`], with parse errors naming the field), [`search::Game`] (moves in
//!   square order, Zobrist keys with the side to move, the repetition rule: the third
//!   occurrence draws, applied by [`search::Record`] and the search), [`Position::perft`].
//! - [`eval`]: the sheet's estimate ([`Estimate::Sheet`]) and the stronger [`DefaultEval`],
//!   tuned by matches (61–65% against the sheet's estimate).
//! - [`solve`]: the exact solution of every position by retrograde analysis (the start
//!   position is a White win in 25 plies), and [`solve::TableEval`] for perfect play.
#![deny(missing_docs)]

pub use search;

pub mod eval;
mod position;
pub mod solve;

pub use eval::{DefaultEval, Estimate};
pub use position::{Move, ParseMoveError, ParsePositionError, Position, BLACK, SQUARES, WHITE};

/// The letter of a player in result lines and notation: `w` for White (0), `b` for Black (1).
///
/// ```
/// assert_eq!(jumpy3::player_letter(jumpy3::WHITE), "w");
/// assert_eq!(jumpy3::player_letter(jumpy3::BLACK), "b");
/// ```
pub fn player_letter(p: search::Player) -> &'static str {
    if p == WHITE {
        "w"
    } else {
        "b"
    }
}

/// The recommended engine settings for Jumpy3: the default alpha-beta with a 16 MiB table
/// (the whole tree of a few seconds fits; larger tables cost more in cache misses than they
/// save in nodes) and no quiescence search (a quiescence over captures and king exits,
/// [`search::Game::noisy_moves`], scored 50% against none at equal nodes).
pub fn engine_config() -> search::Config {
    search::Config {
        tt_mib: 16,
        quiescence: false,
        ..search::Config::default()
    }
}
