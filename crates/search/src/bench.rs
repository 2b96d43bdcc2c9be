//! The chess engines' `bench` (Stockfish's, OpenBench's) for any game: fixed positions
//! searched to fixed depths, the total node count as a **signature** (with one thread the
//! search is deterministic, so the count changes only when the search's behaviour changes:
//! the engine, the game's rules or evaluation, or the settings) and nodes per second.
//!
//! A bench list is text, one position a line: `label: depth: position`, the position in the
//! game's own notation (everything after the second `": "`); blank lines and lines starting
//! with `#` are ignored. [`parse_list`] reads one, [`run`] searches it.
//!
//! ```
//! use plyforge_search::bench::{run, BenchPosition};
//! use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
//! use plyforge_search::Config;
//!
//! let list: Vec<BenchPosition<Synthetic>> = (1..4)
//!     .map(|seed| BenchPosition {
//!         label: format!("tree-{seed}"),
//!         position: Synthetic::new(Spec { seed, ..Spec::default() }),
//!         depth: 6,
//!     })
//!     .collect();
//! let a = run(&list, &SyntheticEval, &Config::default());
//! let b = run(&list, &SyntheticEval, &Config::default());
//! assert_eq!(a.nodes, b.nodes); // the signature: one thread is deterministic
//! assert_eq!(a.lines.len(), 3);
//! assert_eq!(a.nodes, a.lines.iter().map(|l| l.nodes).sum::<u64>());
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::engine::Search;
use crate::game::{Evaluator, Game};
use crate::report::nps;
use crate::thread::SmpStats;
use crate::trace::{compare, Overhead, ThreadTrace};
use crate::types::{Config, Limits};

/// One position of a bench list, with the depth it is searched to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition<G> {
    /// A short name (no spaces).
    pub label: String,
    /// The position.
    pub position: G,
    /// The depth of the search.
    pub depth: u32,
}

/// What one search of a bench did.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct BenchLine<M> {
    /// The position's label.
    pub label: String,
    /// The depth searched.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The root score (the player to move's view).
    pub score: i32,
    /// The best move.
    pub best: Option<M>,
    /// Time taken.
    pub elapsed: Duration,
}

/// A whole bench: the lines, the signature and the speed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct BenchReport<M> {
    /// One line per position, in the list's order.
    pub lines: Vec<BenchLine<M>>,
    /// The total node count: the signature (deterministic with one thread).
    pub nodes: u64,
    /// The total time of the searches.
    pub elapsed: Duration,
    /// Nodes per second over the whole bench.
    pub nps: u64,
    /// The threads searched with.
    pub threads: usize,
}

/// Searches every position of `list` to its depth with one engine of configuration `config`
/// and evaluation `eval`, its table cleared before each position (so that each search is a
/// function of its position alone). The table is allocated before the clock starts.
pub fn run<G: Game, E: Evaluator<G>>(
    list: &[BenchPosition<G>],
    eval: E,
    config: &Config,
) -> BenchReport<G::Move> {
    let mut engine = Search::new(config.clone(), eval);
    if let Some(first) = list.first() {
        // Allocate the table and the threads outside the measurement.
        engine.analyse(&first.position, Limits::depth(1));
    }
    let mut lines = Vec::with_capacity(list.len());
    for p in list {
        engine.reset();
        let started = Instant::now();
        let r = engine.analyse(&p.position, Limits::depth(p.depth));
        lines.push(BenchLine {
            label: p.label.clone(),
            depth: p.depth,
            nodes: r.nodes,
            score: r.score,
            best: r.best,
            elapsed: started.elapsed(),
        });
    }
    let nodes = lines.iter().map(|l| l.nodes).sum();
    let elapsed = lines.iter().map(|l| l.elapsed).sum();
    BenchReport {
        lines,
        nodes,
        elapsed,
        nps: nps(nodes, elapsed),
        threads: config.threads.max(1),
    }
}

/// One thread count of a [`scaling`] measurement: a bench list searched with that many
/// threads, against one thread.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ScalingRow {
    /// The threads.
    pub threads: usize,
    /// Nodes of the whole list.
    pub nodes: u64,
    /// Time of the whole list.
    pub elapsed: Duration,
    /// The node overhead: these nodes over one thread's.
    pub overhead: f64,
    /// One thread's time over this time: the speedup to the depths (on a machine with fewer
    /// cores than threads the threads take turns, and only the overhead and balance say how
    /// they would do on their own cores).
    pub speedup: f64,
    /// Nodes per second over one thread's.
    pub nps_ratio: f64,
    /// The largest share of the nodes that one thread searched (1/threads is perfect balance).
    pub largest_share: f64,
    /// Whether every position's score equals one thread's.
    pub same_values: bool,
    /// What the threads did to share the work (the alpha-beta family).
    pub smp: SmpStats,
    /// Where the nodes went against one thread's, position by position (with the search
    /// crate's `trace` feature; `None` without, and for one thread).
    pub trace: Option<Overhead>,
}

/// Searches `list` with each thread count of `threads` (one thread first, the reference),
/// each position from a fresh table: the node overhead, speedup, balance and parallel
/// counters of each against one thread, and whether the values agree (they must, at fixed
/// depths, for every search but a selective one).
///
/// ```
/// use plyforge_search::bench::{scaling, BenchPosition};
/// use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
/// use plyforge_search::{Algorithm, Config};
/// let list = vec![BenchPosition {
///     label: "tree".to_string(),
///     position: Synthetic::new(Spec { seed: 3, ..Spec::default() }),
///     depth: 6,
/// }];
/// for algorithm in [Algorithm::AlphaBeta, Algorithm::MaxN] {
///     let config = Config::default().with_algorithm(algorithm).with_tt_mib(4);
///     let rows = scaling(&list, &SyntheticEval, &config, &[2, 4]);
///     assert_eq!(rows.iter().map(|r| r.threads).collect::<Vec<_>>(), [1, 2, 4]);
///     assert!(rows.iter().all(|r| r.same_values && r.largest_share <= 1.0));
/// }
/// ```
pub fn scaling<G: Game, E: Evaluator<G>>(
    list: &[BenchPosition<G>],
    eval: &E,
    config: &Config,
    threads: &[usize],
) -> Vec<ScalingRow> {
    let mut rows: Vec<ScalingRow> = Vec::new();
    let mut want: Vec<i32> = Vec::new();
    // One thread's nodes of each position (with the `trace` feature).
    let mut serial: Vec<Vec<ThreadTrace>> = Vec::new();
    let counts = std::iter::once(1).chain(threads.iter().copied().filter(|&t| t > 1));
    for t in counts {
        let mut engine = Search::new(config.clone().with_threads(t), eval);
        if let Some(first) = list.first() {
            engine.analyse(&first.position, Limits::depth(1));
        }
        let (mut nodes, mut elapsed) = (0, Duration::ZERO);
        let mut per_thread = vec![0u64; t];
        let mut smp = SmpStats::default();
        let mut scores = Vec::with_capacity(list.len());
        let mut trace: Option<Overhead> = None;
        for (i, p) in list.iter().enumerate() {
            engine.reset();
            let started = Instant::now();
            let r = engine.analyse(&p.position, Limits::depth(p.depth));
            elapsed += started.elapsed();
            nodes += r.nodes;
            scores.push(r.score);
            for (sum, n) in per_thread.iter_mut().zip(engine.thread_nodes()) {
                *sum += n;
            }
            smp.add(&engine.smp_stats());
            if cfg!(feature = "trace") {
                let nodes = engine.take_trace();
                if t == 1 {
                    serial.push(nodes);
                } else if let Some(one) = serial.get(i) {
                    trace
                        .get_or_insert_with(Overhead::default)
                        .add(&compare(one, &nodes));
                }
            }
        }
        if t == 1 {
            want.clone_from(&scores);
        }
        let (base_nodes, base_time) = rows
            .first()
            .map_or((nodes, elapsed), |r| (r.nodes, r.elapsed));
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        let largest = per_thread.iter().copied().max().unwrap_or(0);
        rows.push(ScalingRow {
            threads: t,
            nodes,
            elapsed,
            overhead: ratio(nodes as f64, base_nodes as f64),
            speedup: ratio(base_time.as_secs_f64(), elapsed.as_secs_f64()),
            nps_ratio: ratio(
                nps(nodes, elapsed) as f64,
                nps(base_nodes, base_time) as f64,
            ),
            largest_share: ratio(largest as f64, per_thread.iter().sum::<u64>() as f64),
            same_values: scores == want,
            smp,
            trace,
        });
    }
    rows
}

/// What is wrong with a bench list, and on which line (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BenchListError {
    /// The line is not `label: depth: position`.
    Shape {
        /// The line number.
        line: usize,
    },
    /// The label is empty or has white space.
    Label {
        /// The line number.
        line: usize,
    },
    /// The depth is not a number from 1 to 64.
    Depth {
        /// The line number.
        line: usize,
        /// The text given.
        found: String,
    },
    /// The position does not parse.
    Position {
        /// The line number.
        line: usize,
        /// The game's parse error, in words.
        reason: String,
    },
    /// No position at all.
    Empty,
}

impl fmt::Display for BenchListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchListError::Shape { line } => {
                write!(f, "line {line}: expected `label: depth: position`")
            }
            BenchListError::Label { line } => {
                write!(f, "line {line}: the label must be non-empty without spaces")
            }
            BenchListError::Depth { line, found } => {
                write!(
                    f,
                    "line {line}: depth {found:?} is not a number from 1 to 64"
                )
            }
            BenchListError::Position { line, reason } => {
                write!(f, "line {line}: bad position: {reason}")
            }
            BenchListError::Empty => write!(f, "the bench list has no position"),
        }
    }
}

impl std::error::Error for BenchListError {}

/// Reads a bench list (see the module documentation) of a game whose positions parse with
/// `FromStr`.
///
/// ```
/// use plyforge_search::bench::{parse_list, BenchListError};
/// let list = parse_list::<u32>("# heaps\nsmall: 4: 10\n\nbig: 9: 200\n").unwrap();
/// assert_eq!((list[1].label.as_str(), list[1].depth, list[1].position), ("big", 9, 200));
/// assert_eq!(
///     parse_list::<u32>("x: 0: 1"),
///     Err(BenchListError::Depth { line: 1, found: "0".into() })
/// );
/// ```
pub fn parse_list<G>(text: &str) -> Result<Vec<BenchPosition<G>>, BenchListError>
where
    G: FromStr,
    G::Err: fmt::Display,
{
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut parts = t.splitn(3, ": ");
        let (Some(label), Some(depth), Some(position)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(BenchListError::Shape { line });
        };
        let label = label.trim();
        if label.is_empty() || label.contains(char::is_whitespace) {
            return Err(BenchListError::Label { line });
        }
        let depth = depth
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=64).contains(d))
            .ok_or_else(|| BenchListError::Depth {
                line,
                found: depth.trim().to_string(),
            })?;
        let position = position
            .trim()
            .parse::<G>()
            .map_err(|e| BenchListError::Position {
                line,
                reason: e.to_string(),
            })?;
        out.push(BenchPosition {
            label: label.to_string(),
            position,
            depth,
        });
    }
    if out.is_empty() {
        return Err(BenchListError::Empty);
    }
    Ok(out)
}
