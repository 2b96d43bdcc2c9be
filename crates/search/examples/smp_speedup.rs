//! Measures Lazy-SMP time-to-depth on a synthetic game: 1 thread against N threads.
//!
//! `cargo run --release -p search --example smp_speedup -- [depth] [threads] [repeats]`
//! (defaults: depth 11, 2 threads, 3 repeats). Prints the time to complete the depth for each
//! thread count and the ratio, and the ratio of the main thread's node counts, which is the
//! speedup when each thread has a core to itself, and of the main thread's CPU time (fairer
//! figures on a shared machine, where wall-clock time depends on the other processes).

use std::time::Instant;

use search::synthetic::{Spec, Synthetic, SyntheticEval};
use search::{Config, Limits, Search};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let depth = *args.first().unwrap_or(&11) as u32;
    let threads = *args.get(1).unwrap_or(&2) as usize;
    let repeats = *args.get(2).unwrap_or(&3);
    let mut totals = [0.0f64; 2];
    let mut main_totals = [0.0f64; 2];
    let mut cpu_totals = [0.0f64; 2];
    for rep in 0..repeats {
        let game = Synthetic::new(Spec {
            seed: 1001 + rep,
            min_branching: 4,
            max_branching: 8,
            width: 1 << 14,
            length: 200,
            terminal_per_mille: 10,
            ..Spec::default()
        });
        let mut line = format!("seed {}:", 1001 + rep);
        let mut scores = Vec::new();
        for (k, t) in [1, threads].into_iter().enumerate() {
            let config = Config {
                threads: t,
                tt_mib: 64,
                ..Config::default()
            };
            let mut engine = Search::new(config, SyntheticEval);
            // Allocate the table outside the measurement.
            engine.run(&game, &[], Limits::depth(1), |_| {});
            engine.clear();
            let start = Instant::now();
            let cpu = thread_cpu();
            let r = engine.run(&game, &[], Limits::depth(depth), |_| {});
            let secs = start.elapsed().as_secs_f64();
            let cpu = thread_cpu() - cpu;
            cpu_totals[k] += cpu;
            totals[k] += secs;
            scores.push(r.score);
            let main_nodes = engine.thread_nodes()[0];
            main_totals[k] += main_nodes as f64;
            line += &format!(
                "  {t} thread(s) {secs:.3} s (main thread cpu {cpu:.3} s), {} nodes (main {main_nodes}), {} knps, score {}",
                r.nodes,
                r.nps / 1000,
                r.score
            );
        }
        assert_eq!(scores[0], scores[1], "threads changed the value");
        println!("{line}");
    }
    println!(
        "total: 1 thread {:.3} s, {threads} threads {:.3} s, speedup {:.2}x",
        totals[0],
        totals[1],
        totals[0] / totals[1]
    );
    println!(
        "main-thread cpu time to depth: 1 thread {:.3} s, {threads} threads {:.3} s, ratio {:.2}",
        cpu_totals[0],
        cpu_totals[1],
        cpu_totals[0] / cpu_totals[1]
    );
    println!(
        "main-thread nodes to depth: 1 thread {:.0}, {threads} threads {:.0}, ratio {:.2} \
         (the speedup if every thread gets a core of its own)",
        main_totals[0],
        main_totals[1],
        main_totals[0] / main_totals[1]
    );
}

/// CPU time of the calling thread (the search's main thread), from Linux's schedstat; 0
/// elsewhere.
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}
