#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub use search;

mod action;
pub mod board;
mod eval;
pub mod players;
mod position;
mod race;

pub use action::{Move, ParseMoveError};
pub use board::Hex;
pub use eval::{remaining_work, DefaultEval, Terms, WeightError, Weights};
pub use position::{
    player_letter, player_name, ParsePositionError, Position, CONTACT_DISTANCE, EXITS_TO_WIN,
    PLAYERS, REPETITION_LIMIT, TURN_KEY_WINDOW, TURN_LIMIT,
};
pub use race::{race_actions, race_to_win, RACE_PIECES};

/// The recommended engine settings for Chexers: paranoid search, one thread, 32 MiB table,
/// no quiescence, and max^n's second opinion before a move that repeats a position
/// ([`search::Config::repetition_check`]). The race leader's race-table move
/// ([`DefaultEval::race_move`]) is played without a search ([`search::Config::table_moves`],
/// on as in every configuration): in the screen of 54 course-referee games at 200,000 nodes
/// it changed our moves in 13 games and no result.
///
/// The repetition check: paranoid search assumes that both opponents attack us, so in a
/// standoff every way out looks worse than the repetition, and the games ended in the
/// referee's repetition draw; the course's agents each play for themselves, as max^n
/// models them. Screened in the course referee at 200,000 nodes an action (seed 33, six
/// games a pair, the same openings): against the five pairs with `flying_solo`, 20 wins, 5
/// repetition draws, 5 losses in 30 games, where without it 15, 12 and 3; against the four
/// other pairs with `max`, 20, 0 and 4 of 24 against 19, 1 and 4 (`docs/chexers-strength.md`
/// in the repository).
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
/// | course referee vs the pairs with `flying_solo`, 200,000 nodes, 30 games | **66.7%** | 63.3% | 48.3% |
///
/// Paranoid search with MP-Mix's directed offensive against a leader 600 points ahead
/// ([`search::Config::offensive`]) won 33.3% of that last match: it is off.
///
/// At the course's 60 s clock these settings (with [`Weights`]' defaults, before the race
/// table's moves) won 179 of 234
/// course-referee games against 12 pairs of public agents (77.2%; 116 of 148 played out
/// against the pairs with `flying_solo`, 78.4%), with 20 repetition draws (8.5%, none while
/// ahead in exits) and the worst pair at 50% (`max` + `H1`).
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
        .with_repetition_check(Some(search::Algorithm::MaxN))
}

/// Moves of thinking time that [`clock_limits`] keeps in reserve: it plans as if this many
/// more moves were to come.
pub const CLOCK_RESERVE_MOVES: u32 = 8;

/// Time that [`clock_limits`] does not plan to use.
pub const CLOCK_FLOOR: std::time::Duration = std::time::Duration::from_millis(300);

/// The engine's limits for one action of the side to move on a game clock (the course
/// referee's time budget per player and game, `-t`, 60 s in the course's tests) with
/// `remaining` thinking time left: a clock whose moves to go `m` estimate the player's
/// actions left, `m = clamp(5/4 · w + 4, 8, turns left)` with `w` = [`remaining_work`] (the
/// actions four exits need if nobody stood in the way; 28 at the start, so `m` = 39 there),
/// and whose time is a share of `remaining` above a floor `F` = [`CLOCK_FLOOR`]:
/// `(r − F) · m / (m + R)` with `R` = [`CLOCK_RESERVE_MOVES`], never less than
/// `r / (4 (m + R))` ([`search::Clock::reserved`]). The engine's time manager takes its
/// slice of that and never oversteps it, so the clock is never overstepped by the search;
/// the floor and the reserve are for what the time manager does not see (the caller's own
/// work, a loaded machine), and for games longer than estimated, where the shares shrink as
/// the clock does.
///
/// The estimate comes from 336 course-referee games of our Player against the public agents
/// (10,941 of its positions): with `w` actions of work left it had a median of `w` to
/// `w + 4` actions left to play, and from `w` = 14 up three positions in four had at most
/// `5/4 · w + 4` left (the earlier estimate, `3/2 · w + 10`, left half the clock unused);
/// late in long games (small `w`, pieces to win back first) the reserve takes up the rest.
///
/// ```
/// use std::time::Duration;
/// use plyforge_chexers::{clock_limits, Position};
/// let l = clock_limits(&Position::start(), Duration::from_secs(60));
/// let c = l.clock.unwrap();
/// assert_eq!(c.moves_to_go, Some(39));
/// assert!(c.remaining < Duration::from_secs(60));
/// ```
pub fn clock_limits(pos: &Position, remaining: std::time::Duration) -> search::Limits {
    use search::Game;
    let me = pos.to_move();
    let turns_left = (TURN_LIMIT - pos.turns()).div_ceil(3).max(1);
    let work = remaining_work(pos, me);
    let moves = (work * 5 / 4 + 4).clamp(8, 256).min(turns_left);
    search::Limits::clock(search::Clock::reserved(
        remaining,
        moves,
        CLOCK_RESERVE_MOVES,
        CLOCK_FLOOR,
    ))
}

/// The fixed bench of Chexers (`arena bench chexers`): `label: depth: position` lines, read with
/// [`search::bench::parse_list`] and searched with [`search::bench::run`] (with
/// [`engine_config`] and the default evaluation); its total node count at one thread is the
/// search's signature on this game.
pub const BENCH: &str = include_str!("../bench.txt");
