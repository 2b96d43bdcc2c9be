#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod eval;
mod memo;
mod notation;
mod position;
mod reach;
pub mod solve;

pub use search;

pub use eval::{Choice, DefaultEval, Engine, WeightedEval, Weights};
pub use notation::{Field, ParseMoveError, ParsePositionError};
pub use position::{owner, walk_target, Move, Position, EVEN, ODD};
pub use reach::may_complete;

/// The positions of the sample game of the game's original README, start first (each after the move
/// before it: w5, w3, w4, w7, p6, w11, w12).
pub const SAMPLE_GAME: [&str; 8] = [
    "8,6,1,11,9,10,12,7,4,2,3,5;1;0",
    "8,6,1,11,5,10,12,7,4,2,3,0;0;5",
    "8,3,1,11,5,10,12,7,4,2,0,0;1;3",
    "4,3,1,11,5,10,12,7,0,2,0,0;0;4",
    "4,3,7,11,5,10,12,0,0,2,0,0;1;7",
    "4,3,7,11,5,6,12,0,0,2,0,0;0;6",
    "4,3,11,0,5,6,12,0,0,2,0,0;1;11",
    "4,3,11,0,5,6,0,0,0,2,0,0;0;12",
];

/// The letter of a player in result lines: `odd` for Odd (0), `even` for Even (1).
pub fn player_letter(p: search::Player) -> &'static str {
    if p == ODD {
        "odd"
    } else {
        "even"
    }
}

/// The recommended engine settings: max^n (the game is not zero-sum) with its table of score
/// vectors, one thread (give it more with `with_threads`: max^n shares out its tree).
pub fn engine_config() -> search::Config {
    search::Config::default()
        .with_algorithm(search::Algorithm::MaxN)
        .with_threads(1)
        .with_tt_mib(64)
        .with_ordering(true)
        .with_aspiration(false)
        .with_quiescence(false)
}

/// The name of a player for people: `Odd` (0) or `Even` (1).
///
/// ```
/// assert_eq!(plyforge_chaosclock::player_name(plyforge_chaosclock::EVEN), "Even");
/// ```
pub fn player_name(p: search::Player) -> &'static str {
    if p == ODD {
        "Odd"
    } else {
        "Even"
    }
}

/// The fixed bench of Chaos Clock (`arena bench chaosclock`): `label: depth: position` lines, read with
/// [`search::bench::parse_list`] and searched with [`search::bench::run`] (with
/// [`engine_config`] and the default evaluation); its total node count at one thread is the
/// search's signature on this game.
pub const BENCH: &str = include_str!("../bench.txt");
