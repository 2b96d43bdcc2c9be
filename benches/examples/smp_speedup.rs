//! Measures Lazy-SMP time-to-depth on a synthetic game: 1 thread against N threads.
//!
//! `cargo run --release -p benches --example smp_speedup -- [depth] [threads] [seeds] [runs]`
//! (defaults: depth 11, 2 threads, 3 seeds, 1 run). Each seed is a different synthetic game;
//! each is searched `runs` times with 1 and with N threads, alternately, and the median run
//! counts (a parallel search takes a different path each time, so one run says little).
//! Prints, per seed and in total, the time to complete the depth for each thread count and
//! the ratio, and the ratio of the main thread's node counts, which is the speedup when each
//! thread has a core to itself.

use plyforge::search;
use std::time::Instant;

use search::synthetic::{Spec, Synthetic, SyntheticEval};
use search::{Config, Limits, Search};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[(v.len() - 1) / 2]
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let depth = *args.first().unwrap_or(&11) as u32;
    let threads = *args.get(1).unwrap_or(&2) as usize;
    let seeds = *args.get(2).unwrap_or(&3);
    let runs = (*args.get(3).unwrap_or(&1)).max(1) as usize;
    let mut totals = [0.0f64; 2];
    let mut main_totals = [0.0f64; 2];
    for seed in 1001..1001 + seeds {
        let game = Synthetic::new(Spec::speedup_tree(seed));
        let mut engines: Vec<_> = [1, threads]
            .into_iter()
            .map(|t| {
                let config = Config::default().with_threads(t).with_tt_mib(64);
                let mut engine = Search::new(config, SyntheticEval);
                // Allocate the table (and the threads) outside the measurement.
                engine.run(&game, &[], Limits::depth(1), |_| {});
                engine
            })
            .collect();
        let mut secs = [vec![], vec![]];
        let mut nodes = [vec![], vec![]];
        let mut main_nodes = [vec![], vec![]];
        let mut scores = Vec::new();
        for _ in 0..runs {
            for (k, engine) in engines.iter_mut().enumerate() {
                engine.clear();
                let start = Instant::now();
                let r = engine.run(&game, &[], Limits::depth(depth), |_| {});
                secs[k].push(start.elapsed().as_secs_f64());
                nodes[k].push(r.nodes as f64);
                main_nodes[k].push(engine.thread_nodes()[0] as f64);
                scores.push(r.score);
            }
        }
        assert!(
            scores.iter().all(|&s| s == scores[0]),
            "threads changed the value: {scores:?}"
        );
        let mut line = format!("seed {seed}:");
        for (k, t) in [1, threads].into_iter().enumerate() {
            let s = median(&mut secs[k]);
            let m = median(&mut main_nodes[k]);
            totals[k] += s;
            main_totals[k] += m;
            line += &format!(
                "  {t} thread(s) {s:.3} s, {:.0} nodes (main {m:.0}),",
                median(&mut nodes[k])
            );
        }
        println!("{line} score {}", scores[0]);
    }
    println!(
        "total: 1 thread {:.3} s, {threads} threads {:.3} s, speedup {:.2}x",
        totals[0],
        totals[1],
        totals[0] / totals[1]
    );
    println!(
        "main-thread nodes to depth: 1 thread {:.0}, {threads} threads {:.0}, ratio {:.2} \
         (the speedup if every thread gets a core of its own)",
        main_totals[0],
        main_totals[1],
        main_totals[0] / main_totals[1]
    );
}
