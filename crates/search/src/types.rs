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

/// How the engine searches. `Default` is the strongest general setting.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// A game clock: time left for the rest of the game, increment, moves to the next control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Thinking time left for this side.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves this side still has to make in that time, when known (Throne: 150 minus moves made).
    pub moves_to_go: Option<u32>,
}

/// When to stop. Several limits may be set; the first reached stops the search. With none
/// set the search runs until its depth cap or until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
}

/// What the engine reports after each completed iteration, and at the end.
#[derive(Clone, Debug, PartialEq)]
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
