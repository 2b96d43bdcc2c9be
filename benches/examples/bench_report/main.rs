//! The benchmark report of `cargo xtask bench`: measures and writes `target/bench-report.md`
//! (and prints it).
//!
//! ```text
//! cargo run --release -p benches --example bench_report [-- --quick] [--out PATH] [--arena PATH]
//!     [--only SECTION,...]   (signature, games, engine, speedup, peer, peer-options,
//!                             user-games, overhead, user)
//! ```
//!
//! - the search signature: the fixed bench suite's total node count (`benches::signature`);
//! - per game: perft leaves per second, search nodes per second, time to a fixed depth with
//!   1 and 2 threads and the speedup, over the game's fixed position list;
//! - the engine on synthetic trees (the same figures);
//! - the parallel speedup at about a second a search on 1 thread (synthetic trees, medians);
//! - the peer table: Jumpy3 with the sheet's estimate, this engine against the `minimax`
//!   crate's `IterativeSearch` (1 thread) and `ParallelSearch` (2 threads) from the same
//!   positions at the same depths, every root value checked against plain alpha-beta
//!   (`benches::check`), with and without the repetition rule;
//! - the benchmark games a user would write (issues 29 and 34: Connect Four, Othello,
//!   Breakthrough): this engine, the `minimax` crate and a plain hand-written alpha-beta,
//!   nodes, times, nodes per second, ratios, values checked, 1 and 2 threads;
//! - the search overhead: every game's fixed bench at 1 to 16 threads, total nodes;
//! - issue 21's figures as a user meets them (`user.rs`): whole `arena` processes (`--arena
//!   PATH`) against the peer, the time to the proof of Jumpy3's start, `arena solve jumpy3`
//!   once its table is cached, 2-thread speedups in `arena analyse`, and the Chaos Clock
//!   exact solver;
//! - the issues' targets, met or missed, with the figures.
//!
//! Times are the fastest of repeated runs measured with `Instant` (load from other processes
//! only ever adds time); every engine is built (its
//! table allocated) before the clock starts. `--quick` is the CI smoke test: small depths,
//! one run each, no timing is asserted. The exit status is non-zero only when this engine
//! returns a wrong value (against the check, or 2 threads against 1).

use plyforge::{chaosclock, chexers, jumpy3, search, throne};
#[path = "../../peer/jumpy3_peer.rs"]
mod jumpy3_peer;
mod user;
#[path = "../../peer/user_compare.rs"]
mod user_compare;
#[path = "../../peer/user_peer.rs"]
mod user_peer;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use benches::cases::{engine_cases, EngineCase};
use benches::check::{alphabeta, engine_to_check, Repetition};
use benches::games::{engine, BenchGame};
use benches::measure::{fmt_duration, fmt_rate, measure, Timing};
use benches::peer::{ours, TABLE_MIB};
use benches::{perft, signature};
use jumpy3::{Estimate, Position};
use jumpy3_peer::{applied, from_position, peer_to_check, Board, CountingSheetEval, SheetEval};
use minimax::{
    IterativeOptions, IterativeSearch, ParallelOptions, ParallelSearch, Replacement, Strategy,
};
use search::synthetic::{Spec, Synthetic, SyntheticEval};
use search::{Config, Limits, Search};

/// The sections, by the names `--only` takes.
const SECTIONS: [&str; 9] = [
    "signature",
    "games",
    "engine",
    "speedup",
    "peer",
    "peer-options",
    "user-games",
    "overhead",
    "user",
];

struct Opts {
    quick: bool,
    out: PathBuf,
    /// The `arena` program for the figures of whole processes.
    arena: Option<PathBuf>,
    /// Only these sections (`--only`), or all.
    only: Option<Vec<String>>,
}

fn parse_args() -> Result<Opts, String> {
    let mut opts = Opts {
        quick: false,
        out: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("target")
            .join("bench-report.md"),
        arena: None,
        only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => opts.quick = true,
            "--out" => {
                opts.out = PathBuf::from(args.next().ok_or("--out needs a path")?);
            }
            "--arena" => {
                opts.arena = Some(PathBuf::from(args.next().ok_or("--arena needs a path")?));
            }
            "--only" => {
                let list = args.next().ok_or("--only needs section names")?;
                let names: Vec<String> = list.split(',').map(str::to_string).collect();
                for n in &names {
                    if !SECTIONS.contains(&n.as_str()) {
                        return Err(format!(
                            "--only {n:?}: sections are {}",
                            SECTIONS.join(", ")
                        ));
                    }
                }
                opts.only = Some(names);
            }
            "--bench" => {} // passed by `cargo bench`; harmless
            other => {
                return Err(format!(
                    "unknown option `{other}` (expected --quick, --out PATH, --arena PATH)"
                ))
            }
        }
    }
    Ok(opts)
}

/// Everything the report collects, and the problems found on the way.
struct Report {
    quick: bool,
    md: String,
    /// Remarks printed under the games table.
    notes: Vec<String>,
    /// Wrong values of this engine: the exit status is non-zero if any.
    errors: Vec<String>,
    /// Figures for the targets section.
    targets: Targets,
}

#[derive(Default)]
struct Targets {
    /// Jumpy3 start at the target depth: (ours 1t, iterative, ours 2t, parallel) times.
    peer: Option<(Duration, Duration, Duration, Duration)>,
    peer_values: Option<String>,
    peer_depth: u32,
    /// The fastest of the peer's option sets at the target depth, and its time.
    peer_best: Option<(String, Duration)>,
    /// 2-thread speedups of the two-player games.
    speedups: Vec<(&'static str, f64)>,
    /// The speedup section: depth, mean 1-thread time a search, 2-thread speedup.
    synthetic: Option<(u32, Duration, f64)>,
    /// Issue 21's figures as a user meets them: what, the figure, the target, met.
    user: Vec<(String, String, &'static str, bool)>,
    /// Issue 29's figures (games a user would write, overhead): likewise.
    issue29: Vec<(String, String, &'static str, bool)>,
    /// Issue 34's figures (every position of the games a user would write): likewise.
    issue34: Vec<(String, String, &'static str, bool)>,
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "n/a".to_string())
}

fn table(md: &mut String, header: &[&str], rows: &[Vec<String>]) {
    let _ = writeln!(md, "| {} |", header.join(" | "));
    let _ = writeln!(
        md,
        "|{}|",
        header.iter().map(|_| "---").collect::<Vec<_>>().join("|")
    );
    for r in rows {
        let _ = writeln!(md, "| {} |", r.join(" | "));
    }
    md.push('\n');
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

/// Runs per time measurement.
fn runs(quick: bool) -> usize {
    if quick {
        1
    } else {
        3
    }
}

fn signature_section(rep: &mut Report) {
    let t = Instant::now();
    let lines = signature::run();
    let total = signature::total(&lines);
    let mut rows = Vec::new();
    let mut suites: Vec<&str> = lines.iter().map(|l| l.suite).collect();
    suites.dedup();
    for s in suites {
        let of: Vec<_> = lines.iter().filter(|l| l.suite == s).collect();
        let depths: BTreeSet<u32> = of.iter().map(|l| l.depth).collect();
        rows.push(vec![
            s.to_string(),
            of.len().to_string(),
            depths
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            of.iter().map(|l| l.nodes).sum::<u64>().to_string(),
        ]);
    }
    let md = &mut rep.md;
    let _ = writeln!(md, "## Search signature\n");
    let _ = writeln!(
        md,
        "The fixed bench suite (`benches/src/signature.rs`: every position of `benches/data/*.txt` \
         and the synthetic cases, fixed depths, 1 thread) ran {} searches in {}. \
         It is the same in both modes and changes only when search behaviour changes.\n",
        lines.len(),
        fmt_duration(t.elapsed())
    );
    let _ = writeln!(md, "**Signature: {total} nodes**\n");
    table(md, &["suite", "searches", "depth", "nodes"], &rows);
}

/// Time to `depth` of `position` with `threads` threads: timing, nodes and every run's score.
fn time_search<G: BenchGame>(
    position: &G,
    depth: u32,
    threads: usize,
    runs: usize,
) -> (Timing, u64, Vec<i32>) {
    let (t, results) = measure(
        runs,
        || {
            let mut s = engine::<G>(threads);
            s.run(position, &[], Limits::depth(1), |_| {});
            s.clear();
            s
        },
        |s| s.run(position, &[], Limits::depth(depth), |_| {}),
    );
    let nodes = results.first().map_or(0, |r| r.nodes);
    (t, nodes, results.iter().map(|r| r.score).collect())
}

fn game_row<G: BenchGame>(rep: &mut Report) -> Vec<String> {
    let positions = G::positions();
    let d = G::DEPTHS;
    let (perft_depth, depth) = if rep.quick {
        (d.perft_quick, d.search_quick)
    } else {
        (d.perft, d.search)
    };
    let (pt, leaves) = measure(
        runs(rep.quick),
        || (),
        |_| {
            positions
                .iter()
                .map(|e| perft(&e.position, perft_depth))
                .sum::<u64>()
        },
    );
    let leaves = leaves[0];
    let (mut t1, mut t2, mut nodes1) = (Duration::ZERO, Duration::ZERO, 0u64);
    let mut equal = true;
    for e in &positions {
        let (a, n, v1) = time_search(&e.position, depth, 1, runs(rep.quick));
        let (b, _, v2) = time_search(&e.position, depth, 2, runs(rep.quick));
        t1 += a.min();
        t2 += b.min();
        nodes1 += n;
        let want = v1[0];
        if v1.iter().chain(&v2).any(|&v| v != want) {
            equal = false;
            rep.errors.push(format!(
                "{} {} depth {depth}: 1-thread values {v1:?}, 2-thread values {v2:?}",
                G::NAME,
                e.label
            ));
        }
    }
    let speedup = ratio(t1, t2);
    if positions[0].position.players() == 2 {
        rep.targets.speedups.push((G::NAME, speedup));
    }
    vec![
        G::NAME.to_string(),
        positions.len().to_string(),
        perft_depth.to_string(),
        leaves.to_string(),
        fmt_rate(leaves as f64 / pt.min().as_secs_f64()),
        depth.to_string(),
        nodes1.to_string(),
        fmt_rate(nodes1 as f64 / t1.as_secs_f64()),
        fmt_duration(t1),
        fmt_duration(t2),
        format!("{speedup:.2}×"),
        if equal { "equal" } else { "DIFFER" }.to_string(),
    ]
}

fn games_section(rep: &mut Report) {
    let rows = vec![
        game_row::<jumpy3::Position>(rep),
        game_row::<chexers::Position>(rep),
        game_row::<throne::Position>(rep),
        game_row::<chaosclock::Position>(rep),
    ];
    let md = &mut rep.md;
    let _ = writeln!(md, "## Games\n");
    let _ = writeln!(
        md,
        "Over each game's position list (`benches/data/<game>.txt`), with the game's default \
         evaluation and `engine_config()`. Perft: leaves counted to the depth (the last ply \
         from the move list). Time to depth: the sum over the positions of the fastest run; \
         nodes/s from the 1-thread runs. Values: the root scores of every run, 1 and 2 threads.\n"
    );
    table(
        md,
        &[
            "game",
            "positions",
            "perft depth",
            "leaves",
            "perft leaves/s",
            "search depth",
            "nodes (1 thread)",
            "nodes/s (1 thread)",
            "time, 1 thread",
            "time, 2 threads",
            "speedup",
            "values 1 vs 2 threads",
        ],
        &rows,
    );
    for n in &rep.notes {
        let _ = writeln!(md, "- {n}");
    }
    if !rep.notes.is_empty() {
        md.push('\n');
    }
}

fn engine_row(rep: &mut Report, c: &EngineCase) -> Vec<String> {
    let depth = if rep.quick {
        c.depth.saturating_sub(3).max(1)
    } else {
        c.depth
    };
    let root = c.root();
    let time = |threads: usize| {
        measure(
            runs(rep.quick),
            || {
                let mut s = c.engine(threads);
                s.run(&root, &[], Limits::depth(1), |_| {});
                s.clear();
                s
            },
            |s| s.run(&root, &[], Limits::depth(depth), |_| {}),
        )
    };
    let (t1, r1) = time(1);
    let (t2, r2) = time(2);
    let want = r1[0].score;
    let equal = r1.iter().chain(&r2).all(|r| r.score == want);
    if !equal {
        rep.errors.push(format!(
            "engine {} depth {depth}: scores differ between runs or thread counts",
            c.name
        ));
    }
    let nodes = r1[0].nodes;
    vec![
        c.name.to_string(),
        depth.to_string(),
        nodes.to_string(),
        fmt_rate(nodes as f64 / t1.min().as_secs_f64()),
        fmt_duration(t1.min()),
        fmt_duration(t2.min()),
        format!("{:.2}×", ratio(t1.min(), t2.min())),
        if equal { "equal" } else { "DIFFER" }.to_string(),
    ]
}

fn engine_section(rep: &mut Report) {
    let rows: Vec<_> = engine_cases().iter().map(|c| engine_row(rep, c)).collect();
    let md = &mut rep.md;
    let _ = writeln!(md, "## Engine on synthetic trees\n");
    let _ = writeln!(
        md,
        "The seeded random trees of `search::synthetic` (`benches/src/cases.rs`): the search \
         alone, without game rules. Fastest of the runs.\n"
    );
    table(
        md,
        &[
            "case",
            "depth",
            "nodes (1 thread)",
            "nodes/s",
            "time, 1 thread",
            "time, 2 threads",
            "speedup",
            "values 1 vs 2 threads",
        ],
        &rows,
    );
}

/// The seeds of the synthetic trees of the speedup section.
const SPEEDUP_SEEDS: std::ops::Range<u64> = 1001..1004;

/// The parallel speedup at about a second a search: the synthetic trees of
/// `Spec::speedup_tree` (those of `search`'s example `smp_speedup`), 1 and 2 threads in turn,
/// the median of the runs (a parallel search takes a different path each run, so its
/// fastest run would flatter it).
fn speedup_section(rep: &mut Report) {
    let (depth, runs) = if rep.quick { (11, 1) } else { (17, 3) };
    let mut rows = Vec::new();
    let mut sums = [Duration::ZERO; 2];
    for seed in SPEEDUP_SEEDS {
        let root = Synthetic::new(Spec::speedup_tree(seed));
        let mut engines = [1, 2].map(|threads| {
            let mut s = Search::new(
                Config::default()
                    .with_threads(threads)
                    .with_tt_mib(TABLE_MIB),
                SyntheticEval,
            );
            s.run(&root, &[], Limits::depth(1), |_| {});
            s
        });
        let mut times = [Vec::new(), Vec::new()];
        let mut nodes = 0;
        let mut scores = BTreeSet::new();
        for _ in 0..runs {
            for (k, s) in engines.iter_mut().enumerate() {
                s.clear();
                let t = Instant::now();
                let r = s.run(&root, &[], Limits::depth(depth), |_| {});
                times[k].push(t.elapsed());
                scores.insert(r.score);
                if k == 0 {
                    nodes = r.nodes;
                }
            }
        }
        if scores.len() > 1 {
            rep.errors.push(format!(
                "speedup tree {seed} depth {depth}: scores differ between runs or thread \
                 counts: {scores:?}"
            ));
        }
        let [t1, t2] = times.map(|runs| Timing { runs });
        sums[0] += t1.median();
        sums[1] += t2.median();
        rows.push(vec![
            seed.to_string(),
            depth.to_string(),
            nodes.to_string(),
            fmt_duration(t1.median()),
            fmt_duration(t2.median()),
            format!("{:.2}×", ratio(t1.median(), t2.median())),
            format!("{} / {}", fmt_duration(t1.min()), fmt_duration(t2.min())),
            if scores.len() == 1 { "equal" } else { "DIFFER" }.to_string(),
        ]);
    }
    let speedup = ratio(sums[0], sums[1]);
    let per_search = sums[0] / SPEEDUP_SEEDS.count() as u32;
    rows.push(vec![
        "all".to_string(),
        depth.to_string(),
        String::new(),
        fmt_duration(sums[0]),
        fmt_duration(sums[1]),
        format!("{speedup:.2}×"),
        String::new(),
        String::new(),
    ]);
    rep.targets.synthetic = Some((depth, per_search, speedup));
    let md = &mut rep.md;
    let _ = writeln!(
        md,
        "## Parallel speedup at about a second a search
"
    );
    let _ = writeln!(
        md,
        "Synthetic two-player trees (`search::synthetic::Spec::speedup_tree`, seeds {}–{}, as \
         in `cargo run --release -p benches --example smp_speedup`), the engine's default \
         settings with a {TABLE_MIB} MiB table, 1 and 2 threads searched in turn, {runs} run(s) \
         each. Times are medians: a parallel search takes a different path on each run. The \
         speedup of the last row is the ratio of the sums.\n",
        SPEEDUP_SEEDS.start,
        SPEEDUP_SEEDS.end - 1
    );
    table(
        md,
        &[
            "seed",
            "depth",
            "nodes (1 thread)",
            "time, 1 thread",
            "time, 2 threads",
            "speedup",
            "fastest 1 / 2 threads",
            "values 1 vs 2 threads",
        ],
        &rows,
    );
}

fn peer_options() -> IterativeOptions {
    IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20)
}

/// A peer value that stands for "the search panicked".
const PANICKED: i32 = i32::MIN;

/// Runs a peer search and returns its root value on the check's scale, or [`PANICKED`]: its
/// `ParallelSearch` may panic ("Probably some race condition ate the best entry") when the
/// root's table entry is overwritten, which must not end the report.
fn peer_value<S: Strategy<jumpy3_peer::Jumpy3> + RootValue>(s: &mut S, board: &Board) -> i32 {
    std::panic::catch_unwind(AssertUnwindSafe(|| {
        s.choose_move(board);
        peer_to_check(s.root_value())
    }))
    .unwrap_or(PANICKED)
}

/// The peer's (hidden but public) `root_value`, behind one name for both of its searches.
trait RootValue {
    fn root_value(&self) -> minimax::Evaluation;
}

impl RootValue for IterativeSearch<SheetEval> {
    fn root_value(&self) -> minimax::Evaluation {
        IterativeSearch::root_value(self)
    }
}

impl RootValue for ParallelSearch<SheetEval> {
    fn root_value(&self) -> minimax::Evaluation {
        ParallelSearch::root_value(self)
    }
}

fn values(v: &[i32]) -> String {
    let set: BTreeSet<i32> = v.iter().copied().collect();
    set.iter()
        .map(|&v| {
            if v == PANICKED {
                "panicked".to_string()
            } else {
                v.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

struct PeerCase {
    label: String,
    position: Position,
    depth: u32,
}

fn peer_cases(quick: bool) -> Vec<PeerCase> {
    let list = benches::data::jumpy3();
    let mut v = Vec::new();
    let start = list[0].position;
    let depths: &[u32] = if quick {
        &[8, 12]
    } else {
        &[8, 12, 16, 20, 24]
    };
    for &d in depths {
        v.push(PeerCase {
            label: "start".into(),
            position: start,
            depth: d,
        });
    }
    let mid_depth = if quick { 10 } else { 18 };
    for e in list.iter().skip(1) {
        if quick && e.label != "sheet-d9a" {
            continue;
        }
        v.push(PeerCase {
            label: e.label.clone(),
            position: e.position,
            depth: mid_depth,
        });
    }
    v
}

/// The comparison with the peer engine (minimax-rs) in one process: for each position, our
/// engine and the peer's iterative and parallel searches, the values checked equal, the
/// table and the ratios.
///
/// Long by design: a report section is a straight sequence of measurements and the lines
/// that print them.
fn peer_section(rep: &mut Report) {
    let target_depth = if rep.quick { 12 } else { 24 };
    rep.targets.peer_depth = target_depth;
    let mut rows = Vec::new();
    let mut differences = Vec::new();
    for case in peer_cases(rep.quick) {
        let (p, depth) = (case.position, case.depth);
        let board = from_position(&p);
        let n = runs(rep.quick);
        let ours_time = |threads: usize| {
            let (t, r) = measure(
                n,
                || ours(threads),
                |s| s.run(&p, &[], Limits::depth(depth), |_| {}),
            );
            let v: Vec<i32> = r.iter().map(|r| engine_to_check(r.score)).collect();
            (t, v, r[0].nodes)
        };
        let (o1, o1v, ours_nodes) = ours_time(1);
        let (o2, o2v, _) = ours_time(2);
        let (it, itv) = measure(
            n,
            || {
                let mut s = IterativeSearch::new(SheetEval::default(), peer_options());
                s.set_max_depth(depth as u8);
                s
            },
            |s| peer_value(s, &board),
        );
        let (par, parv) = measure(
            n,
            || {
                let mut s = ParallelSearch::new(
                    SheetEval::default(),
                    peer_options(),
                    ParallelOptions::new().with_num_threads(2),
                );
                s.set_max_depth(depth as u8);
                s
            },
            |s| peer_value(s, &board),
        );
        // Their node count: one more IterativeSearch, untimed, counting the moves applied.
        let their_nodes = {
            let mut s = IterativeSearch::new(CountingSheetEval::default(), peer_options());
            s.set_max_depth(depth as u8);
            applied();
            s.choose_move(&board);
            applied()
        };
        // The checks, both at once (nothing is being timed now).
        let (plain, with_rep) = std::thread::scope(|sc| {
            let a = sc.spawn(|| alphabeta(&p, &Estimate::Sheet, depth, Repetition::Ignore).0);
            let b = alphabeta(&p, &Estimate::Sheet, depth, Repetition::FirstRecurrence).0;
            (a.join().expect("check thread"), b)
        });
        let mut notes = Vec::new();
        for (who, vals, want, which) in [
            ("ours 1t", &o1v, with_rep, "with repetition"),
            ("ours 2t", &o2v, with_rep, "with repetition"),
            ("IterativeSearch", &itv, plain, "without repetition"),
            ("ParallelSearch", &parv, plain, "without repetition"),
        ] {
            if vals.iter().any(|&v| v != want) {
                let msg = format!(
                    "{} depth {depth}: {who} value {} ≠ check {which} {want}",
                    case.label,
                    values(vals)
                );
                notes.push(format!("{who} ≠ check"));
                if who.starts_with("ours") {
                    rep.errors.push(msg.clone());
                }
                differences.push(msg);
            }
        }
        if case.label == "start" && depth == target_depth {
            rep.targets.peer = Some((o1.min(), it.min(), o2.min(), par.min()));
            rep.targets.peer_values = Some(format!(
                "ours {} (1t) / {} (2t), IterativeSearch {}, ParallelSearch {}; check: {with_rep} with \
                 the repetition rule, {plain} without",
                values(&o1v),
                values(&o2v),
                values(&itv),
                values(&parv)
            ));
        }
        rows.push(vec![
            case.label.clone(),
            depth.to_string(),
            ours_nodes.to_string(),
            their_nodes.to_string(),
            fmt_duration(o1.min()),
            fmt_duration(it.min()),
            format!("{:.2}", ratio(o1.min(), it.min())),
            fmt_duration(o2.min()),
            fmt_duration(par.min()),
            format!("{:.2}", ratio(o2.min(), par.min())),
            format!("{} / {}", values(&o1v), values(&o2v)),
            format!("{} / {}", values(&itv), values(&parv)),
            format!("{with_rep} / {plain}"),
            if notes.is_empty() {
                "ok".to_string()
            } else {
                notes.join("; ")
            },
        ]);
    }
    let md = &mut rep.md;
    let _ = writeln!(md, "## Peer: Jumpy3 against the `minimax` crate\n");
    let _ = writeln!(
        md,
        "Both sides search the same positions to the same depth with the same evaluation, the \
         sheet's estimate (`i + j − 15` from White's view, a win ±100), and a {TABLE_MIB} MiB \
         table. Ours: `jumpy3::engine_config()` with `Estimate::Sheet`, on `jumpy3::Position`. \
         Theirs (minimax 0.6.0): the rules written again for its `Game` trait \
         (`benches/peer/jumpy3_peer.rs`, checked move for move against `jumpy3` by \
         `tests/peer.rs`), `IterativeOptions::new()` (its defaults: principal-variation \
         search, two-tier table) with 1 thread, and `ParallelSearch` (Young Brothers Wait) with \
         `ParallelOptions::new().with_num_threads(2)`. Times are the fastest of {} run(s) (background load only ever adds time), each \
         engine built (table allocated) before the clock starts. The ratio is ours/theirs \
         (below 1: ours is faster).\n\n\
         Values are on the sheet's scale (wins ±100). The check is plain alpha-beta \
         (`benches/src/check.rs`: no table, full window, equal to minimax; it reproduces the \
         course implementations' reference figures), once with the repetition rule as the engine applies \
         it (a position repeating one on the path is a draw) and once without, as the \
         `minimax` crate sees the game (its `Game` trait has no history). Ours is checked \
         against the first, theirs against the second.\n",
        runs(rep.quick)
    );
    table(
        md,
        &[
            "position",
            "depth",
            "our nodes (1t)",
            "their nodes (Iterative)",
            "ours 1t",
            "IterativeSearch 1t",
            "ours/theirs",
            "ours 2t",
            "ParallelSearch 2t",
            "ours/theirs",
            "values ours 1t / 2t",
            "values Iterative / Parallel",
            "check with / without repetition",
            "notes",
        ],
        &rows,
    );
    if differences.is_empty() {
        let _ = writeln!(md, "Every value equals its check.\n");
    } else {
        let _ = writeln!(md, "Values that differ from their check:\n");
        for d in &differences {
            let _ = writeln!(md, "- {d}");
        }
        md.push('\n');
    }
}

/// The peer's other `IterativeOptions` at the target depth from the start, so that the
/// targets also compare against its fastest setting.
fn peer_options_section(rep: &mut Report) {
    let depth = rep.targets.peer_depth;
    let board = from_position(&Position::start());
    let base = peer_options;
    let variants: [(&str, IterativeOptions); 6] = [
        ("defaults (the table above)", base()),
        ("with_countermoves()", base().with_countermoves()),
        (
            "with_countermove_history()",
            base().with_countermove_history(),
        ),
        (
            "with_aspiration_window(4)",
            base().with_aspiration_window(4),
        ),
        ("with_mtdf()", base().with_mtdf()),
        (
            "with_replacement_strategy(DepthPreferred)",
            base().with_replacement_strategy(Replacement::DepthPreferred),
        ),
    ];
    let mut rows = Vec::new();
    let mut best: Option<(&str, Duration)> = None;
    for (name, o) in variants {
        let (t, v) = measure(
            1,
            || {
                let mut s = IterativeSearch::new(SheetEval::default(), o);
                s.set_max_depth(depth as u8);
                s
            },
            |s| peer_value(s, &board),
        );
        if best.map_or(true, |(_, b)| t.min() < b) {
            best = Some((name, t.min()));
        }
        rows.push(vec![format!("`{name}`"), fmt_duration(t.min()), values(&v)]);
    }
    rep.targets.peer_best = best.map(|(n, t)| (n.to_string(), t));
    let md = &mut rep.md;
    let _ = writeln!(
        md,
        "The peer's other options, `IterativeSearch` from the start at depth {depth}, one run \
         each (null-move pruning and quiescence are left out: they change the value):\n"
    );
    table(md, &["IterativeOptions", "time", "value"], &rows);
}

fn targets_section(rep: &mut Report) {
    let quick = rep.quick;
    let t = &rep.targets;
    let md = &mut rep.md;
    let _ = writeln!(md, "## Targets\n");
    if quick {
        let _ = writeln!(
            md,
            "Quick mode: the figures below are at depth {} and not an assessment (run \
             `cargo xtask bench` for the full report).\n",
            t.peer_depth
        );
    }
    let verdict = |ok: bool| match (quick, ok) {
        (true, _) => "not assessed in quick mode",
        (false, true) => "met",
        (false, false) => "MISSED",
    };
    if let Some((o1, it, o2, par)) = t.peer {
        let r1 = ratio(it, o1);
        let r2 = ratio(par, o2);
        let _ = writeln!(
            md,
            "- Jumpy3 from the start, depth {}, 1 thread: ours {} vs IterativeSearch {}: \
             theirs/ours {r1:.2} (target ≥ 3): **{}**",
            t.peer_depth,
            fmt_duration(o1),
            fmt_duration(it),
            verdict(r1 >= 3.0)
        );
        if let Some((name, best)) = &t.peer_best {
            let r = ratio(*best, o1);
            let _ = writeln!(
                md,
                "- The same against the peer's fastest option set measured (`{name}`, {}, one \
                 run): theirs/ours {r:.2}: **{}**",
                fmt_duration(*best),
                verdict(r >= 3.0)
            );
        }
        let _ = writeln!(
            md,
            "- Jumpy3 from the start, depth {}, 2 threads: ours {} vs ParallelSearch {}: \
             theirs/ours {r2:.2} (target ≥ 3): **{}**",
            t.peer_depth,
            fmt_duration(o2),
            fmt_duration(par),
            verdict(r2 >= 3.0)
        );
    }
    if let Some(v) = &t.peer_values {
        let _ = writeln!(md, "- Values at that depth: {v}.");
    }
    if let Some((depth, per_search, s)) = t.synthetic {
        let _ = writeln!(
            md,
            "- Synthetic two-player trees, depth {depth} ({} a search on 1 thread): 2-thread \
             speedup in time to depth (medians) {s:.2}× (target ≥ 1.7× at about 1 s): **{}**",
            fmt_duration(per_search),
            verdict(s >= 1.7)
        );
    }
    for (g, s) in &t.speedups {
        let _ = writeln!(
            md,
            "- {g}: 2-thread speedup in time to depth {s:.2}× (target ≥ 1.7×): **{}**",
            verdict(*s >= 1.7)
        );
    }
    md.push('\n');
    for (title, list) in [
        (
            "Issue 29 (games a user would write, search overhead)",
            &t.issue29,
        ),
        (
            "Issue 34 (every position of the games a user would write)",
            &t.issue34,
        ),
        ("Issue 21, as a user meets it (see that section)", &t.user),
    ] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(md, "{title}:\n");
        for (what, figure, target, met) in list {
            let _ = writeln!(
                md,
                "- {what}: {figure} (target {target}): **{}**",
                verdict(*met)
            );
        }
        md.push('\n');
    }
}

/// The benchmark games a user would write (issues 29 and 34): this engine, the `minimax`
/// crate and a plain hand-written alpha-beta on each position of each game's list; every
/// value checked; issue 34's targets per position.
fn user_games_section(rep: &mut Report) {
    let opts = user_compare::Opts {
        runs: runs(rep.quick),
        quick: rep.quick,
        overhead: true,
        ..user_compare::Opts::default()
    };
    let r = user_compare::run(&opts);
    rep.errors.extend(r.errors.iter().cloned());
    for (game, [ours1, ours2, peer1, peer2, plain], [n_ours, n_peer, _]) in r.totals() {
        let t = &mut rep.targets.issue29;
        let peer = ratio(peer1, ours1);
        t.push((
            format!(
                "{game}: minimax 1t / ours 1t (time), nodes ours / minimax {n_ours} / {n_peer}"
            ),
            format!("{peer:.2}×"),
            "≥ 2× with no more nodes",
            peer >= 2.0 && n_ours <= n_peer,
        ));
        let p = ratio(plain, ours1);
        t.push((
            format!("{game}: plain alpha-beta / ours (time)"),
            format!("{p:.2}×"),
            "≥ 1×",
            p >= 1.0,
        ));
        let s2 = ratio(ours1, ours2);
        t.push((
            format!("{game}: 2-thread speedup"),
            format!("{s2:.2}×"),
            "≥ 1.8×",
            s2 >= 1.8,
        ));
        let p2 = ratio(peer2, ours2);
        t.push((
            format!("{game}: minimax ParallelSearch 2t / ours 2t"),
            format!("{p2:.2}×"),
            "(figure)",
            true,
        ));
    }
    for row in &r.rows {
        let (t, n) = (&row.times, &row.nodes);
        let (peer, plain) = (ratio(t[2], t[0]), ratio(t[4], t[0]));
        rep.targets.issue34.push((
            format!(
                "{} {} depth {}, 1 thread: minimax / ours, plain / ours (time); nodes ours / \
                 plain {} / {}",
                row.game, row.label, row.depth, n[0], n[2]
            ),
            format!("{peer:.2}×, {plain:.2}×"),
            "≥ 2×, ≥ 1× with no more nodes",
            peer >= 2.0 && plain >= 1.0 && n[0] <= n[2],
        ));
        let two = ratio(t[0], t[1]);
        rep.targets.issue34.push((
            format!(
                "{} {} depth {}: ours 1 thread / 2 threads (time)",
                row.game, row.label, row.depth
            ),
            format!("{two:.2}×"),
            "≥ 1×",
            two >= 1.0,
        ));
    }
    for (game, totals) in &r.overhead {
        let one = totals[0].1.max(1) as f64;
        let at16 = totals.last().map_or(0, |t| t.1) as f64 / one;
        rep.targets.issue34.push((
            format!("{game}: search overhead over its positions, nodes at 16 threads / 1 thread"),
            format!("{at16:.2}×"),
            "≤ 1.5×",
            at16 <= 1.5,
        ));
    }
    let md = &mut rep.md;
    let _ = writeln!(md, "## Games a user would write (issues 29 and 34)\n");
    let _ = writeln!(
        md,
        "Connect Four (`examples/connect-four/game`), 6×6 Othello (`benches/src/othello.rs`) \
         and 6×6 Breakthrough (`benches/src/breakthrough.rs`, captures as noisy moves) from \
         the positions of `benches/data/connect_four.txt`, `othello.txt` and \
         `breakthrough.txt`: this engine at its defaults (`Config::default()`, the evaluation \
         through `SideToMove`; quiescence off for Breakthrough, as the others search none), \
         the `minimax` crate at its defaults (`IterativeOptions::new()`; `ParallelSearch` with \
         2 threads), both with a {} MiB table, and the plain hand-written alpha-beta of \
         `benches/src/plain.rs` (PVS, iterative deepening, two-slot table, table move then the \
         game's order). The programs run in turn, {} round(s); times are each program's \
         fastest; ratios above 1 mean ours is faster; nodes per second side by side (ours and \
         plain). The values (side to move's view; the peer's wins as ±MATE) must all agree, \
         or the report fails. Last lines: this engine's total nodes to the same depths at 1 \
         to 16 threads (the parallel search's overhead).\n",
        user_compare::TABLE_MIB,
        runs(rep.quick)
    );
    md.push_str(&r.markdown());
    md.push('\n');
}

/// Total nodes of each game's fixed bench (each game crate's `BENCH`, `connect_four::BENCH`;
/// quick mode: four plies less) at 1, 2, 4, 8 and 16 threads: the parallel search's overhead
/// (threads beyond the cores are fine for a node count).
fn overhead_section(rep: &mut Report) {
    use search::bench::{parse_list, run, BenchPosition};
    fn totals<G: search::Game, E: search::Evaluator<G> + Clone>(
        list: &[BenchPosition<G>],
        eval: E,
        config: &Config,
        quick: bool,
    ) -> Vec<u64> {
        let list: Vec<BenchPosition<G>> = list
            .iter()
            .map(|p| BenchPosition {
                depth: if quick {
                    p.depth.saturating_sub(4).max(1)
                } else {
                    p.depth
                },
                ..p.clone()
            })
            .collect();
        [1, 2, 4, 8, 16]
            .iter()
            .map(|&t| run(&list, eval.clone(), &config.clone().with_threads(t)).nodes)
            .collect()
    }
    fn ours<G: BenchGame>(text: &str, quick: bool) -> Vec<u64>
    where
        <G as std::str::FromStr>::Err: std::fmt::Display,
        benches::games::EvalOf<G>: Clone,
    {
        let list = parse_list::<G>(text).expect("the bench list parses");
        totals(&list, G::eval(), &G::config(), quick)
    }
    let q = rep.quick;
    let c4 = parse_list::<connect_four::Position>(connect_four::BENCH).expect("parses");
    let rows: Vec<(&str, Vec<u64>)> = vec![
        ("jumpy3", ours::<jumpy3::Position>(jumpy3::BENCH, q)),
        ("chexers", ours::<chexers::Position>(chexers::BENCH, q)),
        ("throne", ours::<throne::Position>(throne::BENCH, q)),
        (
            "chaosclock",
            ours::<chaosclock::Position>(chaosclock::BENCH, q),
        ),
        (
            "connect_four",
            totals(
                &c4,
                search::SideToMove(connect_four::DefaultEval),
                &connect_four::engine_config(),
                q,
            ),
        ),
    ];
    let md = &mut rep.md;
    let _ = writeln!(md, "## Search overhead by threads (issue 29)\n");
    let _ = writeln!(
        md,
        "Each game's fixed bench (the positions and depths of `arena bench`: \
         each game crate's `BENCH`, `connect_four::BENCH`{}), total nodes with the \
         game's engine settings at 1 to 16 threads, and the ratio to 1 thread (target at 16 \
         threads: ≤ 1.5×).\n",
        if q {
            "; quick mode: four plies less"
        } else {
            ""
        }
    );
    let table_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|(g, n)| {
            let mut r = vec![g.to_string()];
            r.extend(
                n.iter()
                    .map(|&x| format!("{x} ({:.2}×)", x as f64 / n[0].max(1) as f64)),
            );
            r
        })
        .collect();
    table(md, &["game", "1 thread", "2", "4", "8", "16"], &table_rows);
    for (g, n) in &rows {
        let r = n[4] as f64 / n[0].max(1) as f64;
        rep.targets.issue29.push((
            format!("{g}: search overhead, nodes at 16 threads / 1 thread"),
            format!("{r:.2}×"),
            "≤ 1.5×",
            r <= 1.5,
        ));
    }
}

/// One part of the report.
type Section = fn(&mut Report);

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bench_report: {e}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let load_start = load_average();
    let mut rep = Report {
        quick: opts.quick,
        md: String::new(),
        errors: Vec::new(),
        notes: Vec::new(),
        targets: Targets::default(),
    };
    let sections: [(&str, Section); 8] = [
        ("signature", signature_section),
        ("games", games_section),
        ("engine", engine_section),
        ("speedup", speedup_section),
        ("peer", peer_section),
        ("peer-options", peer_options_section),
        ("user-games", user_games_section),
        ("overhead", overhead_section),
    ];
    let wanted = |name: &str| {
        opts.only
            .as_ref()
            .map_or(true, |o| o.iter().any(|n| n == name))
    };
    for (name, f) in sections {
        if !wanted(name) {
            continue;
        }
        let t = Instant::now();
        eprintln!("bench_report: {name}...");
        f(&mut rep);
        eprintln!("bench_report: {name} done in {}", fmt_duration(t.elapsed()));
    }
    if wanted("user") {
        let t = Instant::now();
        eprintln!("bench_report: as a user meets it...");
        user::section(&mut rep, opts.arena.as_deref());
        eprintln!(
            "bench_report: as a user meets it done in {}",
            fmt_duration(t.elapsed())
        );
    }
    targets_section(&mut rep);

    let mut head = String::new();
    let _ = writeln!(head, "# Benchmark report\n");
    if let Some(only) = &opts.only {
        let _ = writeln!(head, "- sections: only {} (`--only`)", only.join(", "));
    }
    let _ = writeln!(
        head,
        "- mode: {}\n- build: {}\n- machine: {} logical CPUs; 1-minute load average {} at the \
         start, {} at the end (other processes share the cores: figures measured under load \
         are slower and thread speedups smaller)\n- took {}\n",
        if opts.quick {
            "quick (CI smoke test: small depths, one run each; not for comparison)"
        } else {
            "full"
        },
        if cfg!(debug_assertions) {
            "with debug assertions (not an optimised release build: not for comparison)"
        } else {
            "optimised, without debug assertions"
        },
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_start,
        load_average(),
        fmt_duration(started.elapsed())
    );
    if !rep.errors.is_empty() {
        let _ = writeln!(head, "**Wrong values of this engine:**\n");
        for e in &rep.errors {
            let _ = writeln!(head, "- {e}");
        }
        head.push('\n');
    }
    let text = head + &rep.md;
    print!("{text}");
    if let Some(dir) = opts.out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = std::fs::write(&opts.out, &text) {
        eprintln!("bench_report: cannot write {}: {e}", opts.out.display());
        return ExitCode::FAILURE;
    }
    eprintln!("bench_report: wrote {}", opts.out.display());
    if rep.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("bench_report: this engine returned wrong values (see the report)");
        ExitCode::FAILURE
    }
}
