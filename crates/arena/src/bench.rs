//! `arena bench`: the chess engines' `bench` for every game that has one (its adapter's
//! [`GameAdapter::BENCH`]): fixed positions searched to fixed depths with the game's
//! recommended engine and default evaluation, each search from an empty table. The total
//! node count is the search's **signature**: with one thread the search is deterministic,
//! so the count changes only when the search's behaviour does (CI pins it). Nodes per second
//! tell the speed. With `--scaling`, how the threads share the search instead: the bench at
//! 1, 2, 4, 8 and 16 threads against one thread.

use plyforge::search::bench::{parse_list, run, scaling as measure_scaling, BenchPosition};
use plyforge::GameAdapter;

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

/// Game `A`'s bench (each depth `deeper` plies more) at 1, 2, 4, 8 and 16 threads: a line
/// per thread count with the node overhead, the time and speedup, nodes per second, the
/// largest share of the nodes one thread searched, the parallel search's counters and
/// whether the values equal one thread's; `false` for a game without a bench.
pub(crate) fn scaling<A: GameAdapter>(deeper: u32) -> Result<bool, Fail> {
    if A::BENCH.trim().is_empty() {
        return Ok(false);
    }
    let list: Vec<BenchPosition<A::Pos>> = parse_list::<A::Pos>(A::BENCH)
        .map_err(|e| Fail::runtime(format!("the bench list of {}: {e}", A::NAME)))?
        .into_iter()
        .map(|p| BenchPosition {
            depth: p.depth.saturating_add(deeper),
            ..p
        })
        .collect();
    let rows = measure_scaling(
        &list,
        &A::default_eval(),
        &A::engine_config(),
        &[2, 4, 8, 16],
    );
    for r in rows {
        outln!(
            "{:<12} threads {:>2}  nodes {:>11} ({:.2}x)  time {:>7.3} s ({:.2}x)  nodes/s {:.2}x  \
             largest share {:.3}  deferred {} found {} full {}  helper iterations {}  values {}",
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
            if r.same_values { "same" } else { "DIFFER" }
        );
    }
    Ok(true)
}
