//! `arena analyse`: iterative deepening with a line per completed depth.

use std::time::Duration;

use plyforge::search::{
    mate_distance, Algorithm, Config, Limits, MateOnly, Record, Report, Search,
};

use crate::fail::{outln, Fail};
use plyforge::agent::{Kind, SearchEngine, Spec};
use plyforge::duration::{parse_duration, show_duration};
use plyforge::{read_start, result_text, GameAdapter};

/// The options of `arena analyse`.
pub(crate) struct AnalyseOptions {
    /// The position text.
    pub position: String,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Time.
    pub time: Option<String>,
    /// Threads.
    pub threads: usize,
    /// Engine spec.
    pub engine: Option<String>,
}

/// A score for people: `+12`, `-3`, `win in 5`, `loss in 4`.
pub(crate) fn show_score(score: i32) -> String {
    match mate_distance(score) {
        Some(n) if n > 0 => format!("win in {n}"),
        Some(n) => format!("loss in {}", -n),
        None => format!("{score:+}"),
    }
}

/// Nodes per second for people: `850`, `12.3k`, `1.45M`.
pub(crate) fn show_count(n: u64) -> String {
    if n < 10_000 {
        n.to_string()
    } else if n < 10_000_000 {
        format!("{:.1}k", n as f64 / 1e3)
    } else {
        format!("{:.2}M", n as f64 / 1e6)
    }
}

/// Moves for people: separated by spaces, or by `, ` when a move itself contains spaces.
pub(crate) fn join_moves<M: std::fmt::Display>(moves: &[M]) -> String {
    let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    if texts.iter().any(|t| t.contains(' ')) {
        texts.join(", ")
    } else {
        texts.join(" ")
    }
}

/// One line of analysis.
pub(crate) fn info_line<M: std::fmt::Display>(r: &Report<M>) -> String {
    format!(
        "depth {:>2}  score {:>9}  nodes {:>9}  nps {:>7}  time {:>7}  pv {}",
        r.depth,
        show_score(r.score),
        r.nodes,
        show_count(r.nps),
        show_duration(r.elapsed),
        join_moves(&r.pv)
    )
}

/// A mate search before the analysis ([`MateOnly`]: the same search with every position
/// worth 0, so that only forced results count), within a third of the time (and of the
/// nodes, and to the depth, if those are limited too): it proves a forced result far
/// sooner than the full search (Jumpy3's start, a win in 25: 5.6 million nodes against 39.5
/// million). Only where the analysis has a time. Prints `proof …` with the result, or that
/// none was found.
fn mate_search<A: GameAdapter>(
    record: &Record<A::Pos>,
    config: &Config,
    eval: plyforge::learned::Evaluation<A>,
    limits: Limits,
) {
    // Only where the analysis has a time: a fixed-depth analysis is a measurement of the
    // search to that depth, and gets exactly that.
    let Some(time) = limits.movetime else {
        return;
    };
    let budget = Limits::default()
        .with_depth(limits.depth)
        .with_movetime(time / 3)
        .with_nodes(limits.nodes.map(|n| n / 3));
    let mut search = Search::new(config.clone(), MateOnly(eval));
    let stop = search.stop_handle();
    let mut proven = false;
    let r = search.run(record.position(), record.history_keys(), budget, |r| {
        if !proven && mate_distance(r.score).is_some() {
            proven = true;
            outln!(
                "proof {}  (mate search: depth {}  nodes {}  time {})  pv {}",
                show_score(r.score),
                r.depth,
                r.nodes,
                show_duration(r.elapsed),
                join_moves(&r.pv)
            );
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    if !proven {
        outln!(
            "proof none within depth {}  (mate search: nodes {}  time {})",
            r.depth,
            r.nodes,
            show_duration(r.elapsed)
        );
    }
}

/// Runs `arena analyse`.
pub(crate) fn analyse<A: GameAdapter>(o: &AnalyseOptions) -> Result<(), Fail> {
    let pos = read_start::<A>(&o.position)?;
    let record = plyforge::search::Record::<A::Pos>::new(pos);
    if let Some(r) = record.result() {
        outln!("the game is over: result: {}", result_text::<A>(r));
        return Ok(());
    }
    let spec = match &o.engine {
        Some(text) => {
            Spec::parse::<A>(text).map_err(|e| Fail::usage(format!("--engine: {}", e.reason())))?
        }
        None => Spec::recommended::<A>()
            .map_err(|e| Fail::usage(format!("the game's engine: {}", e.reason())))?,
    };
    if !matches!(spec.kind, Kind::Search(_)) {
        return Err(Fail::usage(
            "--engine: analyse needs a search engine, not greedy or random",
        ));
    }
    let time = match &o.time {
        Some(t) => Some(parse_duration(t).map_err(|e| Fail::usage(format!("--time: {e}")))?),
        None => None,
    };
    let limits = if o.depth.is_some() || time.is_some() {
        Limits::default().with_depth(o.depth).with_movetime(time)
    } else {
        spec.limits(Limits::movetime(Duration::from_secs(5)))
    };
    let config = spec.config::<A>(Some(o.threads));
    outln!("{}", record.position());
    if matches!(config.algorithm, Algorithm::AlphaBeta | Algorithm::Paranoid) {
        mate_search::<A>(&record, &config, spec.evaluator::<A>(), limits);
    }
    let mut engine = SearchEngine::<A>::try_new(config, spec.evaluator::<A>())?;
    let report = engine.think(&record, limits, |r| outln!("{}", info_line(r)));
    match report.best {
        Some(best) => outln!(
            "best {best}  score {}  depth {}  nodes {}  time {}",
            show_score(report.score),
            report.depth,
            report.nodes,
            show_duration(report.elapsed)
        ),
        None => outln!("no move"),
    }
    Ok(())
}
