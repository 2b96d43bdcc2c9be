#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub use search;

pub mod eval;
mod notation;
mod position;
pub mod solve;

pub use eval::{DefaultEval, Estimate};
pub use notation::{ParseMoveError, ParsePositionError};
pub use position::{Move, Position, BLACK, SQUARES, WHITE};

/// The letter of a player in result lines and notation: `w` for White (0), `b` for Black (1).
///
/// ```
/// assert_eq!(plyforge_jumpy3::player_letter(plyforge_jumpy3::WHITE), "w");
/// assert_eq!(plyforge_jumpy3::player_letter(plyforge_jumpy3::BLACK), "b");
/// ```
pub fn player_letter(p: search::Player) -> &'static str {
    if p == WHITE {
        "w"
    } else {
        "b"
    }
}

/// The name of a player for people: `White` (0) or `Black` (1).
///
/// ```
/// assert_eq!(plyforge_jumpy3::player_name(plyforge_jumpy3::BLACK), "Black");
/// ```
pub fn player_name(p: search::Player) -> &'static str {
    if p == WHITE {
        "White"
    } else {
        "Black"
    }
}

/// The recommended engine settings for Jumpy3: the default alpha-beta with a 16 MiB table
/// (the whole tree of a few seconds fits; larger tables cost more in cache misses than they
/// save in nodes) and no quiescence search (a quiescence over captures and king exits,
/// [`search::Game::noisy_moves`], scored 50% against none at equal nodes). The noisy moves
/// are not ordered first ([`search::Config::noisy_first`] off): the evaluations' move hint,
/// the king first, orders better, and generating the noisy moves at every node cost 12% a
/// node (measured from the start at depth 24 with the sheet's estimate: 6% slower with
/// them first; the bench as fast).
pub fn engine_config() -> search::Config {
    search::Config::default()
        .with_tt_mib(16)
        .with_noisy_first(false)
        .with_quiescence(false)
}

/// The fixed bench of Jumpy3 (`arena bench jumpy3`): `label: depth: position` lines, read with
/// [`search::bench::parse_list`] and searched with [`search::bench::run`] (with
/// [`engine_config`] and the default evaluation); its total node count at one thread is the
/// search's signature on this game.
pub const BENCH: &str = include_str!("../bench.txt");
