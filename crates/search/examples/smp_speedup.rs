//! Measures Lazy-SMP time-to-depth on a synthetic game: 1 thread against N threads.
//!
//! `cargo run --release -p search --example smp_speedup -- [depth] [threads] [repeats]`
//! (defaults: depth 11, 2 threads, 3 repeats). Prints the time to complete the depth for each
//! thread count and the ratio.

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
    for rep in 0..repeats {
        let game = Synthetic::new(Spec {
            seed: 1000 + rep,
            min_branching: 4,
            max_branching: 8,
            width: 1 << 14,
            length: 200,
            terminal_per_mille: 10,
            ..Spec::default()
        });
        let mut line = format!("seed {}:", 1000 + rep);
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
            let r = engine.run(&game, &[], Limits::depth(depth), |_| {});
            let secs = start.elapsed().as_secs_f64();
            totals[k] += secs;
            scores.push(r.score);
            line += &format!(
                "  {t} thread(s) {secs:.3} s, {} nodes, {} knps, score {}",
                r.nodes,
                r.nps / 1000,
                r.score
            );
        }
        assert_eq!(scores[0], scores[1], "threads changed the value");
        println!("{line}  speedup {:.2}", line_speedup(&line));
    }
    println!(
        "total: 1 thread {:.3} s, {threads} threads {:.3} s, speedup {:.2}x",
        totals[0],
        totals[1],
        totals[0] / totals[1]
    );
}

fn line_speedup(line: &str) -> f64 {
    let secs: Vec<f64> = line
        .split(" s,")
        .filter_map(|p| p.rsplit(' ').next()?.parse().ok())
        .collect();
    secs[0] / secs[1]
}
