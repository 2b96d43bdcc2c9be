//! Solver benchmark: the sample game's eight positions and random starts (seeds 1 to 20),
//! each solved exactly in a fresh process so that its peak memory can be measured.
//!
//! ```text
//! cargo run --release -p benches --example chaosclock_solve_bench [-- --threads 2 --seeds 20]
//! ```
//!
//! Prints one line per position (result code, best moves, wall time, CPU time, states, table
//! size, peak resident memory of the process) and the median and worst time and memory. The
//! CPU time (user + system of the whole solving process, all its threads, to 10 ms) is the
//! figure to compare on a loaded machine, where the wall time mostly measures the others.

use plyforge::chaosclock;
use std::process::Command;
use std::time::Instant;

use chaosclock::solve::{self, SolveOptions};
use chaosclock::{Position, SAMPLE_GAME};

/// Peak resident memory of this process in KiB (Linux), if known.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// CPU time of this process so far (user + system, all threads) in ms, if known (Linux:
/// `/proc/self/stat`, in clock ticks of 1/100 s).
fn cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 * 10.0)
}

/// Child mode: solve one position and print
/// `code|best|ms|nodes|stored|table_bytes|peak_kib|cpu_ms`.
fn solve_one(text: &str, threads: usize) {
    let pos: Position = text.parse().expect("a valid position");
    let cpu_before = cpu_ms().unwrap_or(0.0);
    let started = Instant::now();
    let opts = SolveOptions {
        threads,
        ..SolveOptions::default()
    };
    let s = solve::solve_with(&pos, &opts).expect("no limit");
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let best: Vec<String> = s.best.iter().map(|m| m.to_string()).collect();
    let cpu = cpu_ms().map_or(f64::NAN, |c| c - cpu_before);
    println!(
        "{}|{}|{:.1}|{}|{}|{}|{}|{cpu:.0}",
        s.value.code(),
        best.join(" "),
        ms,
        s.stats.nodes,
        s.stats.stored,
        s.stats.table_bytes,
        peak_rss_kib().unwrap_or(0)
    );
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let threads: usize = arg(&args, "--threads")
        .and_then(|t| t.parse().ok())
        .unwrap_or(2);
    if let Some(pos) = arg(&args, "--one") {
        solve_one(&pos, threads);
        return;
    }
    let seeds: u64 = arg(&args, "--seeds")
        .and_then(|t| t.parse().ok())
        .unwrap_or(20);
    let mut positions: Vec<(String, String)> = SAMPLE_GAME
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("sample {i}"), p.to_string()))
        .collect();
    for seed in 1..=seeds {
        positions.push((format!("random {seed}"), Position::random(seed).to_string()));
    }
    let exe = std::env::current_exe().expect("own path");
    println!("threads: {threads}");
    println!(
        "{:<10} {:<32} {:>4} {:>10} {:>8} {:>10} {:>10} {:>9}  best",
        "name", "position", "code", "time ms", "cpu ms", "states", "table MiB", "peak MiB"
    );
    let (mut times, mut cpus, mut mems) = (Vec::new(), Vec::new(), Vec::new());
    let mut codes = [0usize; 5];
    for (name, pos) in &positions {
        let out = Command::new(&exe)
            .args(["--one", pos, "--threads", &threads.to_string()])
            .output()
            .expect("run the solver");
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let f: Vec<&str> = line.split('|').collect();
        if f.len() != 8 {
            println!(
                "{name:<10} {pos:<32} failed: {line} {}",
                String::from_utf8_lossy(&out.stderr)
            );
            continue;
        }
        let ms: f64 = f[2].parse().unwrap_or(f64::NAN);
        let cpu: f64 = f[7].parse().unwrap_or(f64::NAN);
        let peak_mib = f[6].parse::<f64>().unwrap_or(0.0) / 1024.0;
        let table_mib = f[5].parse::<f64>().unwrap_or(0.0) / (1024.0 * 1024.0);
        println!(
            "{name:<10} {pos:<32} {:>4} {ms:>10.1} {cpu:>8.0} {:>10} {table_mib:>10.1} {peak_mib:>9.1}  {}",
            f[0], f[3], f[1]
        );
        times.push(ms);
        cpus.push(cpu);
        mems.push(peak_mib);
        if let Ok(c) = f[0].parse::<usize>() {
            codes[c.min(4)] += 1;
        }
    }
    let worst_t = times.iter().cloned().fold(0.0, f64::max);
    let worst_m = mems.iter().cloned().fold(0.0, f64::max);
    let worst_c = cpus.iter().cloned().fold(0.0, f64::max);
    let total_c: f64 = cpus.iter().sum();
    println!(
        "CPU time median {:.0} ms, worst {worst_c:.0} ms, all {total_c:.0} ms",
        median(&mut cpus)
    );
    println!(
        "solved {} of {}: time median {:.1} ms, worst {:.1} ms; peak memory median {:.1} MiB, worst {:.1} MiB",
        times.len(),
        positions.len(),
        median(&mut times),
        worst_t,
        median(&mut mems),
        worst_m
    );
    println!(
        "result codes: 4 (mover wins) {}, 3 (both win) {}, 2 (both lose) {}, 1 (mover loses) {}",
        codes[4], codes[3], codes[2], codes[1]
    );
}
