//! `arena bench`: the chess engines' `bench` for every game that has one (its adapter's
//! [`GameAdapter::BENCH`]): fixed positions searched to fixed depths with the game's
//! recommended engine and default evaluation, each search from an empty table. The total
//! node count is the search's **signature**: with one thread the search is deterministic,
//! so the count changes only when the search's behaviour does (CI pins it). Nodes per second
//! tell the speed. With `--scaling`, how the threads share the search instead: the bench at
//! 1, 2, 4, 8 and 16 threads against one thread.

use plyforge::agent::{Kind, Spec};
use plyforge::search::bench::{parse_list, run, scaling as measure_scaling, BenchPosition};
use plyforge::search::trace::Overhead;
use plyforge::{read_start, GameAdapter};

use crate::analyse::show_score;
use crate::fail::{outln, Fail};

/// One game's bench: its node count and its time in seconds.
pub(crate) struct Totals {
    pub(crate) positions: usize,
    pub(crate) nodes: u64,
    pub(crate) seconds: f64,
}

/// Runs game `A`'s bench with `threads` threads, printing a line per position and one for
/// the game; `None` for a game without a bench.
pub(crate) fn bench<A: GameAdapter>(threads: usize) -> Result<Option<Totals>, Fail> {
    if A::BENCH.trim().is_empty() {
        return Ok(None);
    }
    let list = parse_list::<A::Pos>(A::BENCH)
        .map_err(|e| Fail::runtime(format!("the bench list of {}: {e}", A::NAME)))?;
    let config = A::engine_config().with_threads(threads);
    let report = run(&list, A::default_eval(), &config);
    for l in &report.lines {
        outln!(
            "{:<12} {:<12} depth {:>2}  nodes {:>11}  time {:>7.3} s  score {:>6}  best {}",
            A::NAME,
            l.label,
            l.depth,
            l.nodes,
            l.elapsed.as_secs_f64(),
            show_score(l.score),
            l.best.map_or("-".to_string(), |m| m.to_string())
        );
    }
    let seconds = report.elapsed.as_secs_f64();
    outln!(
        "{:<12} {} positions  nodes {}  time {:.3} s  nodes/s {}",
        A::NAME,
        list.len(),
        report.nodes,
        seconds,
        report.nps
    );
    Ok(Some(Totals {
        positions: list.len(),
        nodes: report.nodes,
        seconds,
    }))
}

/// What `arena bench --scaling` measures.
pub(crate) struct ScalingOptions {
    /// Plies added to every depth.
    pub(crate) deeper: u32,
    /// The thread counts beside one.
    pub(crate) counts: Vec<usize>,
    /// An engine specification instead of the game's recommended engine.
    pub(crate) engine: Option<String>,
    /// One position and its depth instead of the bench list.
    pub(crate) position: Option<(String, u32)>,
}

/// Game `A`'s bench (or one position; each depth `deeper` plies more) at one thread and
/// at each of the thread counts: a line per thread count with the node overhead, the time
/// and speedup, nodes per second, the largest share of the nodes one thread searched, the
/// parallel search's counters and whether the values equal one thread's; `false` for a
/// game without a bench.
pub(crate) fn scaling<A: GameAdapter>(o: &ScalingOptions) -> Result<bool, Fail> {
    let list = match &o.position {
        Some((text, depth)) => vec![BenchPosition {
            label: "position".to_string(),
            position: read_start::<A>(text)?,
            depth: *depth,
        }],
        None if A::BENCH.trim().is_empty() => return Ok(false),
        None => parse_list::<A::Pos>(A::BENCH)
            .map_err(|e| Fail::runtime(format!("the bench list of {}: {e}", A::NAME)))?,
    };
    let list: Vec<BenchPosition<A::Pos>> = list
        .into_iter()
        .map(|p| BenchPosition {
            depth: p.depth.saturating_add(o.deeper),
            ..p
        })
        .collect();
    let rows = match &o.engine {
        Some(text) => {
            let spec = Spec::parse::<A>(text)
                .map_err(|e| Fail::usage(format!("--engine: {}", e.reason())))?;
            if !matches!(spec.kind, Kind::Search(_)) {
                return Err(Fail::usage(
                    "--engine: a search engine, not greedy or random",
                ));
            }
            let config = spec.config::<A>(None);
            measure_scaling(&list, &spec.evaluator::<A>(), &config, &o.counts)
        }
        None => measure_scaling(&list, &A::default_eval(), &A::engine_config(), &o.counts),
    };
    for r in rows {
        outln!(
            "{:<12} threads {:>2}  nodes {:>11} ({:.2}x)  time {:>7.3} s ({:.2}x)  nodes/s {:.2}x  \
             largest share {:.3}  deferred {} found {} full {}  helper iterations {}  \
             splits {} cut {} shared moves {}  values {}",
            A::NAME,
            r.threads,
            r.nodes,
            r.overhead,
            r.elapsed.as_secs_f64(),
            r.speedup,
            r.nps_ratio,
            r.largest_share,
            r.smp.deferred,
            r.smp.deferred_found,
            r.smp.busy_full,
            r.smp.helper_iterations,
            r.smp.splits,
            r.smp.split_cuts,
            r.smp.moves_shared,
            if r.same_values { "same" } else { "DIFFER" }
        );
        if let Some(t) = &r.trace {
            show_trace(A::NAME, r.threads, t);
        }
    }
    Ok(true)
}

/// Where the nodes of `threads` threads went against one thread's (the search's `trace`
/// feature): the totals, the threads' shares, then a line per remaining depth.
fn show_trace(game: &str, threads: usize, t: &Overhead) {
    let all = t.total();
    outln!(
        "{game:<12} threads {threads:>2}  against 1 thread: {} nodes ({} re-searched by it); \
         here {}: common {} new {} same {} cross {} (as first move {}, deferred {}); \
         helpers in iterations they did not complete {}",
        all.serial,
        t.serial_same,
        all.parallel,
        all.common,
        all.new,
        all.same,
        all.cross,
        all.cross_first,
        all.cross_deferred,
        t.abandoned
    );
    outln!(
        "{game:<12} threads {threads:>2}  by thread: {}",
        t.by_thread
            .iter()
            .zip(&t.cross_by_thread)
            .map(|(n, c)| format!("{n} (cross {c})"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (i, its) in t.by_iteration.iter().enumerate() {
        outln!(
            "{game:<12} threads {threads:>2}  thread {i:>2} by iteration: {}",
            its.iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(d, n)| format!("{d}:{n}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    for r in &t.rows {
        outln!(
            "{game:<12} threads {threads:>2}  depth {:>3}  1t {:>10}  {threads}t {:>10}  common {:>10}  \
             new {:>9}  same {:>9}  cross {:>9} (first {:>9}, deferred {:>7})",
            r.depth,
            r.serial,
            r.parallel,
            r.common,
            r.new,
            r.same,
            r.cross,
            r.cross_first,
            r.cross_deferred
        );
    }
}
