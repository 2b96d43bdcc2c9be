//! The engine's own figures: the search signature, perft and search speed per game, the
//! engine on synthetic trees, the parallel speedup and the search overhead by threads.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use benches::cases::{engine_cases, EngineCase};
use benches::games::{engine, BenchGame};
use benches::measure::{fmt_duration, fmt_rate, measure, Timing};
use benches::peer::TABLE_MIB;
use benches::{perft, signature};
use plyforge::search::synthetic::{Spec, Synthetic, SyntheticEval};
use plyforge::search::{Config, Limits, Search};
use plyforge::{chaosclock, chexers, jumpy3, throne};

use crate::{ratio, runs, table, Report};

pub(crate) fn signature_section(rep: &mut Report) {
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

pub(crate) fn games_section(rep: &mut Report) {
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

pub(crate) fn engine_section(rep: &mut Report) {
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
/// `Spec::speedup_tree`, 1 and 2 threads in turn,
/// the median of the runs (a parallel search takes a different path each run, so its
/// fastest run would flatter it).
pub(crate) fn speedup_section(rep: &mut Report) {
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
         in `bench-report --only speedup`), the engine's default \
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
