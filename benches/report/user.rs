//! The figures as a user meets them: whole `arena` processes (start-up, table
//! allocation and all) for the peer ratio, the time to the proof of Jumpy3's start, the
//! solve of a Jumpy3 position once its table is cached, and the 2-thread speedup in
//! `arena analyse`; and the Chaos Clock exact solver on the sample game and 20 random starts.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use benches::measure::fmt_duration;
use plyforge::chaosclock::solve::{solve_with, SolveOptions};
use plyforge::chaosclock::{Position, SAMPLE_GAME};

use crate::{ratio, table, Report};

/// What one process did: its wall time from spawn to exit (or to the line waited for),
/// and its peak resident memory where the system tells it.
struct Run {
    time: Duration,
    peak_kib: Option<u64>,
}

/// The median of some durations (the lower middle one of an even count).
fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get((v.len().max(1) - 1) / 2).copied().unwrap_or_default()
}

/// Runs `arena ARGS` to its end, with `env`; watches its peak memory (`VmHWM` of
/// `/proc/PID/status`, every few milliseconds). `None` if it cannot start or fails.
fn run(arena: &Path, args: &[&str], env: &[(&str, &Path)]) -> Option<Run> {
    let started = Instant::now();
    let mut child = Command::new(arena)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v.as_os_str())))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let peak = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (peak, done) = (Arc::clone(&peak), Arc::clone(&done));
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                let kib = std::fs::read_to_string(&status_file).ok().and_then(|s| {
                    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
                    line.split_whitespace().nth(1)?.parse::<u64>().ok()
                });
                if let Some(k) = kib {
                    peak.fetch_max(k, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(3));
            }
        })
    };
    let status = child.wait().ok()?;
    let time = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    let kib = peak.load(Ordering::Relaxed);
    status.success().then_some(Run {
        time,
        peak_kib: (kib > 0).then_some(kib),
    })
}

/// Runs `arena ARGS` until it prints a line starting with `prefix`: the time from spawn to
/// that line, and the line; the process is stopped then. `None` if the line never comes.
fn run_to_line(
    arena: &Path,
    args: &[&str],
    env: &[(&str, &Path)],
    prefix: &str,
) -> Option<(Duration, String)> {
    let started = Instant::now();
    let mut child = Command::new(arena)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v.as_os_str())))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let out = BufReader::new(child.stdout.take()?);
    let mut found = None;
    for line in out.lines() {
        let Ok(line) = line else { break };
        if line.starts_with(prefix) {
            found = Some((started.elapsed(), line));
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    found
}

/// The section; skipped (with the reason) without an `arena` program.
pub fn section(rep: &mut Report, arena: Option<&Path>) {
    let _ = writeln!(rep.md, "## As a user meets it\n");
    let Some(arena) = arena.filter(|a| a.exists()) else {
        let _ = writeln!(
            rep.md,
            "Skipped: no `arena` program was given (`cargo xtask bench` passes the one it \
             builds with `--arena PATH`).\n"
        );
        chaos_clock(rep);
        return;
    };
    let scratch = std::env::temp_dir().join(format!("plyforge-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch);
    peer_processes(rep, arena);
    proof(rep, arena, &scratch);
    solve(rep, arena, &scratch);
    speedups(rep, arena);
    chaos_clock(rep);
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Runs of each measurement.
fn runs(rep: &Report) -> usize {
    if rep.quick {
        1
    } else {
        3
    }
}

/// Jumpy3 from the start with the sheet's estimate: whole `arena analyse` processes against
/// the peer's searches measured above (in-process, the fastest of its runs: the ratio is
/// the peer's most favourable).
fn peer_processes(rep: &mut Report, arena: &Path) {
    let Some((_, it, _, par)) = rep.targets.peer else {
        return;
    };
    let depth = rep.targets.peer_depth.to_string();
    let mut rows = Vec::new();
    for (threads, peer, name) in [("1", it, "IterativeSearch"), ("2", par, "ParallelSearch")] {
        let args = [
            "analyse",
            "jumpy3",
            "start",
            "--depth",
            &depth,
            "--engine",
            "engine,eval=sheet",
            "--threads",
            threads,
        ];
        let times: Vec<Duration> = (0..runs(rep))
            .filter_map(|_| run(arena, &args, &[]).map(|r| r.time))
            .collect();
        if times.is_empty() {
            rep.errors.push(format!("arena {} failed", args.join(" ")));
            continue;
        }
        let ours = median(times);
        let r = ratio(peer, ours);
        rep.targets.user.push((
            format!(
                "Jumpy3 depth {depth}, {threads} thread(s), whole arena processes: {name} / ours"
            ),
            format!("{r:.2}×"),
            "≥ 5×",
            r >= 5.0,
        ));
        rows.push(vec![
            threads.to_string(),
            fmt_duration(ours),
            format!("{name} {}", fmt_duration(peer)),
            format!("{r:.2}"),
        ]);
    }
    let _ = writeln!(
        rep.md,
        "Jumpy3 from the start, depth {depth}, the sheet's estimate: `arena analyse jumpy3 \
         start --depth {depth} --engine engine,eval=sheet --threads T`, whole processes \
         (median of {}), against the peer's search above (in-process, its fastest run).\n",
        runs(rep)
    );
    table(
        &mut rep.md,
        &["threads", "arena (whole process)", "peer", "peer / ours"],
        &rows,
    );
}

/// The time from process start to the line of `arena analyse jumpy3 start` that proves the
/// win in 25, with no solved table on disk.
fn proof(rep: &mut Report, arena: &Path, scratch: &Path) {
    let empty = scratch.join("no-table");
    let _ = std::fs::create_dir_all(&empty);
    let env = [("PLYFORGE_CACHE_DIR", empty.as_path())];
    let mut times = Vec::new();
    let mut last = String::new();
    for _ in 0..runs(rep) {
        match run_to_line(
            arena,
            &["analyse", "jumpy3", "start"],
            &env,
            "proof win in 25",
        ) {
            Some((t, line)) => {
                times.push(t);
                last = line;
            }
            None => {
                let _ = writeln!(
                    rep.md,
                    "- `arena analyse jumpy3 start` printed no line proving the win in 25.\n"
                );
                rep.targets
                    .user
                    .push(("Time to proof".into(), "none".into(), "< 1 s", false));
                return;
            }
        }
    }
    let t = median(times);
    let _ = writeln!(
        rep.md,
        "Time to proof: `arena analyse jumpy3 start` (no solved table on disk), from process \
         start to its line `{}`: **{}** (median of {}).\n",
        last.split("  pv").next().unwrap_or(&last),
        fmt_duration(t),
        runs(rep)
    );
    rep.targets.user.push((
        "Time to proof of Jumpy3's start (win in 25), from process start".into(),
        fmt_duration(t),
        "< 1 s",
        t < Duration::from_secs(1),
    ));
}

/// `arena solve jumpy3 POSITION`: the first call solves and caches the table; later calls
/// read it.
fn solve(rep: &mut Report, arena: &Path, scratch: &Path) {
    if rep.quick {
        let _ = writeln!(
            rep.md,
            "`arena solve jumpy3`: not measured in quick mode (the first call solves the \
             whole table).\n"
        );
        return;
    }
    let cache = scratch.join("cache");
    let env = [("PLYFORGE_CACHE_DIR", cache.as_path())];
    let Some(first) = run(arena, &["solve", "jumpy3", "start"], &env) else {
        rep.errors.push("arena solve jumpy3 start failed".into());
        return;
    };
    let positions = [
        "Www.w.......bbbB b",
        "W.ww.w....b.bbB. w",
        "...bW.ww.w.b.bB. b",
        ".W.wb...b..b.B.. b",
        "wwwW....Bbbb.... w",
    ];
    let calls: Vec<Duration> = positions
        .iter()
        .filter_map(|p| run(arena, &["solve", "jumpy3", p], &env).map(|r| r.time))
        .collect();
    let worst = calls.iter().max().copied().unwrap_or_default();
    let per_call = median(calls);
    let peak = first
        .peak_kib
        .map_or("n/a".into(), |k| format!("{} MiB", k / 1024));
    let _ = writeln!(
        rep.md,
        "`arena solve jumpy3`: the first call solved and cached the table in {} (peak memory \
         {peak}); then {} calls on other positions: median {}, slowest {}.\n",
        fmt_duration(first.time),
        positions.len(),
        fmt_duration(per_call),
        fmt_duration(worst)
    );
    rep.targets.user.push((
        "arena solve jumpy3 once the table is cached, per call (median)".into(),
        fmt_duration(per_call),
        "< 0.3 s",
        per_call < Duration::from_millis(300),
    ));
    let under_512 = first.peak_kib.is_some_and(|k| k < 512 * 1024);
    rep.targets.user.push((
        "The table solved and cached once: time, peak memory".into(),
        format!("{}, {peak}", fmt_duration(first.time)),
        "< 10 s, < 512 MiB",
        first.time < Duration::from_secs(10) && under_512,
    ));
}

/// Two threads against one: time to depth of whole `arena analyse` processes, the runs of
/// 1 and 2 threads alternating, medians.
fn speedups(rep: &mut Report, arena: &Path) {
    let cases: [(&str, &str, u32, u32); 3] = [
        ("jumpy3", "start", 24, 16),
        ("throne", "start", 13, 6),
        ("chaosclock", "4,3,11,0,5,6,0,0,0,2,0,0;0;12", 11, 7),
    ];
    let mut rows = Vec::new();
    for (game, pos, full, quick) in cases {
        let depth = if rep.quick { quick } else { full }.to_string();
        let mut times = [Vec::new(), Vec::new()];
        for _ in 0..runs(rep) {
            for (k, threads) in ["1", "2"].into_iter().enumerate() {
                let args = [
                    "analyse",
                    game,
                    pos,
                    "--depth",
                    &depth,
                    "--threads",
                    threads,
                ];
                match run(arena, &args, &[]) {
                    Some(r) => times[k].push(r.time),
                    None => rep.errors.push(format!("arena {} failed", args.join(" "))),
                }
            }
        }
        let [one, two] = times;
        if one.is_empty() || two.is_empty() {
            continue;
        }
        let (one, two) = (median(one), median(two));
        let s = ratio(one, two);
        rep.targets.user.push((
            format!("{game}: 2-thread speedup, time to depth {depth} in arena analyse"),
            format!("{s:.2}×"),
            "≥ 1.8×",
            s >= 1.8,
        ));
        rows.push(vec![
            game.to_string(),
            format!("`{pos}`"),
            depth,
            fmt_duration(one),
            fmt_duration(two),
            format!("{s:.2}"),
        ]);
    }
    let _ = writeln!(
        rep.md,
        "Two threads against one, `arena analyse GAME POSITION --depth D --threads T`, whole \
         processes, runs alternating, medians of {}:\n",
        runs(rep)
    );
    table(
        &mut rep.md,
        &[
            "game",
            "position",
            "depth",
            "1 thread",
            "2 threads",
            "speedup",
        ],
        &rows,
    );
}

/// The Chaos Clock exact solver on the sample game's positions and the random starts 1 to
/// 20, with 1 and 2 threads.
fn chaos_clock(rep: &mut Report) {
    let mut positions: Vec<Position> = SAMPLE_GAME
        .iter()
        .map(|p| p.parse().expect("the sample game parses"))
        .collect();
    if rep.quick {
        positions.drain(..positions.len() - 3);
    } else {
        positions.extend((1..=20).map(Position::random));
    }
    let mut times = [Vec::new(), Vec::new()];
    for p in &positions {
        for (k, threads) in [1, 2].into_iter().enumerate() {
            let opts = SolveOptions {
                threads,
                ..SolveOptions::default()
            };
            let started = Instant::now();
            let solved = solve_with(p, &opts);
            times[k].push(started.elapsed());
            if solved.is_none() {
                rep.errors.push(format!(
                    "the Chaos Clock solver gave up on {p} without a limit"
                ));
            }
        }
    }
    let [one, two] = times;
    let worst = |v: &[Duration]| v.iter().max().copied().unwrap_or_default();
    let (w1, w2) = (worst(&one), worst(&two));
    let total = |v: &[Duration]| v.iter().sum::<Duration>();
    let faster = ratio(total(&one), total(&two));
    let (m1, m2) = (median(one), median(two));
    let _ = writeln!(
        rep.md,
        "Chaos Clock exact solves, {} positions (the sample game{}): 1 thread median {}, \
         slowest {}; 2 threads median {}, slowest {}; all solves 1 thread / 2 threads \
         {faster:.2}×.\n",
        positions.len(),
        if rep.quick {
            "'s last three"
        } else {
            " and Position::random(1..=20)"
        },
        fmt_duration(m1),
        fmt_duration(w1),
        fmt_duration(m2),
        fmt_duration(w2),
    );
    let best_median = m1.min(m2);
    let best_worst = w1.min(w2);
    rep.targets.user.push((
        "Chaos Clock exact: median, slowest (the better thread count)".into(),
        format!(
            "{}, {}",
            fmt_duration(best_median),
            fmt_duration(best_worst)
        ),
        "< 0.5 s, < 5 s",
        best_median < Duration::from_millis(500) && best_worst < Duration::from_secs(5),
    ));
    rep.targets.user.push((
        "Chaos Clock exact: 2 threads against 1 (all solves)".into(),
        format!("{faster:.2}×"),
        "> 1×",
        faster > 1.0,
    ));
}
