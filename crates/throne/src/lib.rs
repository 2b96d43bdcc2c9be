#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use search;

mod board;
mod eval;
mod notation;
pub mod players;
mod position;

pub use board::{Cell, CELLS, RADIUS};
pub use eval::{settled_score, DefaultEval, WeightedEval, Weights, UNITS_PER_POINT};
pub use notation::{MoveField, NumberField, ParseMoveError, ParsePositionError};
pub use position::{Move, Piece, Position, BLACK, MAX_PLIES, MOVES_PER_SIDE, SOLDIERS, WHITE};

/// The letter of a player in result lines and notation: 0 → `b` (Black), 1 → `w` (White).
pub fn player_letter(p: search::Player) -> &'static str {
    match p {
        BLACK => "b",
        _ => "w",
    }
}

/// The name of a player for people: `Black` (0) or `White` (1).
///
/// ```
/// assert_eq!(plyforge_throne::player_name(plyforge_throne::BLACK), "Black");
/// ```
pub fn player_name(p: search::Player) -> &'static str {
    match p {
        BLACK => "Black",
        _ => "White",
    }
}

/// The recommended engine settings for Throne: alpha-beta with the table, move ordering,
/// aspiration windows and quiescence over imprisoning moves, one thread. Imprisoning moves
/// are not ordered first ([`search::Config::noisy_first`] off): many of them are poor, and
/// ahead of the killers they cost the bench 6% more nodes and a third more time.
pub fn engine_config() -> search::Config {
    search::Config::default()
        .with_algorithm(search::Algorithm::AlphaBeta)
        .with_threads(1)
        .with_tt_mib(64)
        .with_ordering(true)
        .with_noisy_first(false)
        .with_aspiration(true)
        .with_quiescence(true)
}

/// Moves of thinking time that [`clock_limits`] keeps in reserve: the engine plans as if
/// `CLOCK_RESERVE_MOVES` more moves were to come.
pub const CLOCK_RESERVE_MOVES: u32 = 10;

/// Time that [`clock_limits`] does not plan to use: only what lies above it is shared out.
pub const CLOCK_FLOOR: std::time::Duration = std::time::Duration::from_millis(150);

/// Throne's clock policy: [`CLOCK_RESERVE_MOVES`] and [`CLOCK_FLOOR`], for the engine's one
/// clock rule ([`search::ClockPolicy::limits`]).
pub const CLOCK: search::ClockPolicy = search::ClockPolicy {
    reserve_moves: CLOCK_RESERVE_MOVES,
    floor: CLOCK_FLOOR,
};

/// The engine's limits for one move under the contest time control (a clock for the whole
/// game, no increment, 150 moves each): `Limits.clock` with the moves the side to move still
/// has to make as `moves_to_go` (`m` = [`Position::moves_left`]) and, as `remaining`, a
/// share of the time left `r`: `(r − F) × m / (m + R)` with `F` = [`CLOCK_FLOOR`] and `R` =
/// [`CLOCK_RESERVE_MOVES`], but never less than `r / (4 (m + R))`
/// ([`search::Clock::reserved`]).
///
/// Why: the engine's time manager counts only its own search, and keeps a per-move margin
/// of at most 50 ms. What it does not see is the referee's latency on every move and, on a
/// loaded machine, the scheduler stalling a move. Planning with `m + R` moves leaves about
/// `R / (150 + R)` of the clock (7.5 s of 120 s) for the first, and the floor keeps the
/// last moves clear of the second: even a move that uses three times its target leaves
/// the clock above the floor.
pub fn clock_limits(pos: &Position, remaining: std::time::Duration) -> search::Limits {
    CLOCK.limits(
        search::Limits::default(),
        remaining,
        Some(pos.moves_left(search::Game::to_move(pos))),
    )
}

/// The fixed bench of Throne (`arena bench throne`): `label: depth: position` lines, read with
/// [`search::bench::parse_list`] and searched with [`search::bench::run`] (with
/// [`engine_config`] and the default evaluation); its total node count at one thread is the
/// search's signature on this game.
pub const BENCH: &str = include_str!("../bench.txt");
