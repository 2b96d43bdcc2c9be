//! The engine's public vocabulary: configuration, limits, reports and score conventions.

use std::time::Duration;

use crate::game::{Scores, MAX_EVAL};

/// Score of a win at the root (a win `n` plies away scores `MATE - n`).
pub const MATE: i32 = 1_000_000;

/// Scores with a magnitude above this are wins or losses found by the search.
pub const MATE_BOUND: i32 = MATE - 10_000;

/// Scores at least this large mean "proved", the rest are heuristic.
const _: () = assert!(MAX_EVAL < MATE_BOUND);

/// `Some(n)`: the score is a forced win (`n > 0`) or loss (`n < 0`) in `|n|` plies.
pub fn mate_distance(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some(MATE - score)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// Which search algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// Two-player zero-sum negamax alpha-beta (PVS). With three players: [`Algorithm::Paranoid`].
    #[default]
    AlphaBeta,
    /// Root player against a coalition of the others, through the alpha-beta search.
    Paranoid,
    /// Best-reply search (Schadd & Winands 2011): the opponents' single best reply, merged.
    BestReply,
    /// Max^n over per-player utilities with shallow pruning; also the right search for
    /// non-zero-sum two-player games.
    MaxN,
}

/// How the engine searches. `Default` is the strongest general setting; change it with the
/// `with_*` methods (or by assigning fields), so that a field added later breaks nobody:
///
/// ```
/// use plyforge_search::{Algorithm, Config};
/// let c = Config::default().with_algorithm(Algorithm::MaxN).with_threads(2).with_tt_mib(16);
/// assert_eq!((c.algorithm, c.threads, c.tt_mib), (Algorithm::MaxN, 2, 16));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Worker threads (1: fully deterministic).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub tt_mib: usize,
    /// Use the transposition table at all.
    pub use_tt: bool,
    /// Use move ordering (TT move, killers, history). Never changes a fixed-depth value.
    pub ordering: bool,
    /// Use aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Extend the horizon with the game's noisy moves (quiescence search).
    pub quiescence: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            algorithm: Algorithm::AlphaBeta,
            threads: 1,
            tt_mib: 64,
            use_tt: true,
            ordering: true,
            aspiration: true,
            quiescence: true,
        }
    }
}

impl Config {
    /// This configuration with another algorithm.
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = algorithm;
        self
    }
    /// This configuration with `threads` worker threads (1: fully deterministic).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }
    /// This configuration with a table of `mib` MiB (0: no table).
    pub fn with_tt_mib(mut self, mib: usize) -> Self {
        self.use_tt = mib > 0;
        if mib > 0 {
            self.tt_mib = mib;
        }
        self
    }
    /// This configuration with move ordering on or off.
    pub fn with_ordering(mut self, on: bool) -> Self {
        self.ordering = on;
        self
    }
    /// This configuration with aspiration windows on or off.
    pub fn with_aspiration(mut self, on: bool) -> Self {
        self.aspiration = on;
        self
    }
    /// This configuration with quiescence search on or off.
    pub fn with_quiescence(mut self, on: bool) -> Self {
        self.quiescence = on;
        self
    }
}

/// A game clock: time left for the rest of the game, increment, moves to the next control.
///
/// ```
/// use std::time::Duration;
/// use plyforge_search::{Clock, Limits};
/// let clock = Clock::new(Duration::from_secs(120)).with_moves_to_go(150);
/// let limits = Limits::default().with_clock(clock);
/// assert_eq!(limits.clock.unwrap().moves_to_go, Some(150));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Clock {
    /// Thinking time left for this side.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves this side still has to make in that time, when known (Throne: 150 minus moves made).
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// `remaining` for the rest of the game, no increment, the number of moves unknown.
    pub fn new(remaining: Duration) -> Self {
        Clock {
            remaining,
            increment: Duration::ZERO,
            moves_to_go: None,
        }
    }
    /// This clock with an increment after each move.
    pub fn with_increment(mut self, increment: Duration) -> Self {
        self.increment = increment;
        self
    }
    /// This clock with the number of moves still to make in its time.
    pub fn with_moves_to_go(mut self, moves: u32) -> Self {
        self.moves_to_go = Some(moves);
        self
    }
}

/// When to stop. Several limits may be set; the first reached stops the search. With none
/// set the search runs until its depth cap or until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest iteration to complete.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// A game clock; the time manager takes a slice of it and never oversteps it.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
    /// Search for a fixed time.
    pub fn movetime(time: Duration) -> Self {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }
    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
    /// Think on a game clock.
    pub fn clock(clock: Clock) -> Self {
        Limits {
            clock: Some(clock),
            ..Limits::default()
        }
    }
    /// These limits with a depth limit (`None`: none).
    pub fn with_depth(mut self, depth: impl Into<Option<u32>>) -> Self {
        self.depth = depth.into();
        self
    }
    /// These limits with a node budget (`None`: none).
    pub fn with_nodes(mut self, nodes: impl Into<Option<u64>>) -> Self {
        self.nodes = nodes.into();
        self
    }
    /// These limits with a time for this move (`None`: none).
    pub fn with_movetime(mut self, time: impl Into<Option<Duration>>) -> Self {
        self.movetime = time.into();
        self
    }
    /// These limits with a game clock (`None`: none).
    pub fn with_clock(mut self, clock: impl Into<Option<Clock>>) -> Self {
        self.clock = clock.into();
        self
    }
}

/// What the engine reports after each completed iteration, and at the end.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Report<M> {
    /// The best move found (None only when the root has no move: the game is over).
    pub best: Option<M>,
    /// The score from the root player's point of view (see [`MATE`]).
    pub score: i32,
    /// Per-player values (max^n; for the two-player searches `[score, -score, 0]`-like).
    pub scores: Scores,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// Fraction of table probes that found an entry for their key.
    pub tt_hit_rate: f64,
}
