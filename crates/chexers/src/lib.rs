#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub use search;

mod action;
pub mod board;
mod eval;
mod notation;
pub mod players;
mod position;
mod race;
mod rules;

pub use action::{Move, ParseMoveError};
pub use board::Hex;
pub use eval::{remaining_work, DefaultEval, Terms, WeightError, Weights};
pub use notation::{player_letter, player_name, ParsePositionError};
pub use position::{
    Position, CONTACT_DISTANCE, EXITS_TO_WIN, PLAYERS, REPETITION_LIMIT, TURN_KEY_WINDOW,
    TURN_LIMIT,
};
pub use race::{race_actions, race_leader, race_move, race_to_win, RACE_PIECES};

/// The recommended engine settings for Chexers: paranoid search, one thread, 32 MiB table,
/// no quiescence, max^n's second opinion before a move that repeats a position
/// ([`search::Config::repetition_check`]), and never the move that completes the fourth
/// occurrence of a position while another move does not lose by force
/// ([`search::Config::avoid_repetition_end`]: the course counts wins, and a repetition
/// draw is none). The race leader's race-table move
/// ([`race_move`]) is played without a search ([`search::Config::table_moves`], on as in
/// every configuration).
///
/// Why: paranoid search won the most against greedy players and head to head, best-reply
/// is close, max^n clearly weaker; quiescence over converting jumps lost at equal node
/// budgets; paranoid search assumes both opponents attack us, so in a standoff it repeats,
/// and the second opinion of max^n (the course's agents each play for themselves) turned
/// repetition draws into wins against the course's public agents. At the course's 60 s clock
/// these settings won 77% of 234 course-referee games against 12 pairs of public agents. The
/// matches behind each choice are in the repository's `docs/chexers-strength.md`
/// ("Engine settings").
pub fn engine_config() -> search::Config {
    search::Config::default()
        .with_algorithm(search::Algorithm::Paranoid)
        .with_threads(1)
        .with_tt_mib(32)
        .with_quiescence(false)
        .with_repetition_check(Some(search::Algorithm::MaxN))
        .with_avoid_repetition_end(true)
}

/// Moves of thinking time that [`clock_limits`] keeps in reserve: it plans as if this many
/// more moves were to come.
pub const CLOCK_RESERVE_MOVES: u32 = 8;

/// Time that [`clock_limits`] does not plan to use.
pub const CLOCK_FLOOR: std::time::Duration = std::time::Duration::from_millis(300);

/// Chexers' clock policy: [`CLOCK_RESERVE_MOVES`] and [`CLOCK_FLOOR`], for the engine's one
/// clock rule ([`search::ClockPolicy::limits`]).
pub const CLOCK: search::ClockPolicy = search::ClockPolicy {
    reserve_moves: CLOCK_RESERVE_MOVES,
    floor: CLOCK_FLOOR,
};

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
    CLOCK.limits(search::Limits::default(), remaining, Some(moves_to_go(pos)))
}

/// The actions the side to move in `pos` is expected to still make (the estimate of
/// [`clock_limits`]): `clamp(5/4 · w + 4, 8, turns left)` with `w` = [`remaining_work`].
pub fn moves_to_go(pos: &Position) -> u32 {
    use search::Game;
    let me = pos.to_move();
    let turns_left = (TURN_LIMIT - pos.turns()).div_ceil(3).max(1);
    let work = remaining_work(pos, me);
    (work * 5 / 4 + 4).clamp(8, 256).min(turns_left)
}

/// The fixed bench of Chexers (`arena bench chexers`): `label: depth: position` lines, read with
/// [`search::bench::parse_list`] and searched with [`search::bench::run`] (with
/// [`engine_config`] and the default evaluation); its total node count at one thread is the
/// search's signature on this game.
pub const BENCH: &str = include_str!("../bench.txt");
