//! The benchmark report of `cargo xtask bench`: measures and writes `target/bench-report.md`
//! (and prints it). A program of its own (`cargo xtask bench` builds it optimised), one
//! module per kind of section: `perf` (the signature, the games, the engine, the speedup),
//! `scaling` (how the threads share the search), `learned` (the sparse network's speed
//! against the hand-made evaluations), `peer` (Jumpy3 against the `minimax`
//! crate), `peer_games` (games at a clock against it), `user_games` (the games a
//! user would write), `effective` (the threads' effective speedup by games), `user` (whole
//! `arena` processes), `targets`. A section is a function
//! of the [`Report`]; [`SECTIONS`] lists them in the order they run.
//!
//! ```text
//! cargo run --release -p benches --bin bench-report [-- --quick] [--out PATH] [--arena PATH]
//!     [--only SECTION,...]   (signature, games, engine, speedup, peer, peer-options,
//!                             user-games, overhead, learned, peer-games, effective, user)
//!     [--peer-games N]       (games per pairing of the games against the peer)
//!     [--effective-games N]  (games per pairing of the threads' effective speedup)
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
//! - the benchmark games a user would write (Connect Four, Othello,
//!   Breakthrough): this engine, the `minimax` crate and a plain hand-written alpha-beta,
//!   nodes, times, nodes per second, ratios, values checked, 1 and 2 threads;
//! - how the threads share the search: every game and benchmark game at 1 to 16 threads,
//!   node overhead, speedup, nodes per second, the largest thread's share, the parallel
//!   search's counters, values against one thread;
//! - the learned evaluation (`learned.rs`): per game (ours and the example games), a sparse
//!   network of the default shape against the hand-made evaluation, nanoseconds a leaf over
//!   the same leaves and nodes a second in searches;
//! - games at a clock against the peer (`peer_games`): the benchmark games a user would
//!   write, the selective search against the `minimax` crate's default and strongest
//!   options and against the exact search, W/D/L with Elo and the SPRT;
//! - what the threads buy at a clock (`effective`): two threads against one thread, and one
//!   thread at 1.5, 2 and 3 times the time against one thread, on Breakthrough, Othello,
//!   Connect Four, Throne and Chaos Clock: the effective speedup with its interval;
//! - the figures as a user meets them (`user.rs`): whole `arena` processes (`--arena
//!   PATH`) against the peer, the time to the proof of Jumpy3's start, `arena solve jumpy3`
//!   once its table is cached, 2-thread speedups in `arena analyse`, and the Chaos Clock
//!   exact solver;
//! - the targets, met or missed, with the figures.
//!
//! Times are the fastest of repeated runs measured with `Instant` (load from other processes
//! only ever adds time); every engine is built (its
//! table allocated) before the clock starts. `--quick` is the CI smoke test: small depths,
//! one run each, no timing is asserted. The exit status is non-zero only when this engine
//! returns a wrong value (against the check, or 2 threads against 1).

mod effective;
#[path = "../peer/jumpy3_peer.rs"]
mod jumpy3_peer;
mod learned;
mod peer;
mod peer_games;
mod perf;
mod scaling;
mod targets;
mod user;
#[path = "../peer/user_compare.rs"]
mod user_compare;
#[path = "../peer/user_duel.rs"]
mod user_duel;
mod user_games;
#[path = "../peer/user_peer.rs"]
mod user_peer;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use benches::measure::fmt_duration;

/// The report's options.
struct Opts {
    quick: bool,
    out: PathBuf,
    /// The `arena` program for the figures of whole processes.
    arena: Option<PathBuf>,
    /// Only these sections (`--only`), or all.
    only: Option<Vec<String>>,
    /// Games per pairing of the games against the peer (`--peer-games N`).
    peer_games: Option<usize>,
    /// Games per pairing of the threads' effective speedup (`--effective-games N`).
    effective_games: Option<usize>,
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
        peer_games: None,
        effective_games: None,
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
                    if !SECTIONS.iter().any(|(s, _)| s == n) {
                        return Err(format!(
                            "--only {n:?}: sections are {}",
                            SECTIONS.map(|(s, _)| s).join(", ")
                        ));
                    }
                }
                opts.only = Some(names);
            }
            "--peer-games" | "--effective-games" => {
                let n = args
                    .next()
                    .ok_or_else(|| format!("{a} needs a number of games"))?;
                let n = match n.parse::<usize>() {
                    Ok(n) if n > 0 && n % 2 == 0 => n,
                    _ => return Err(format!("{a} {n:?}: an even number of games (pairs)")),
                };
                if a == "--peer-games" {
                    opts.peer_games = Some(n);
                } else {
                    opts.effective_games = Some(n);
                }
            }
            "--bench" => {} // passed by `cargo bench`; harmless
            other => {
                return Err(format!(
                    "unknown option `{other}` (expected --quick, --out PATH, --arena PATH, \
                     --only SECTION,..., --peer-games N, --effective-games N)"
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
    /// The figures as a user meets them (whole processes): what, the figure, the target,
    /// met.
    user: Vec<(String, String, &'static str, bool)>,
    /// The games a user would write and the search overhead: likewise.
    user_games: Vec<(String, String, &'static str, bool)>,
    /// Every position of the games a user would write: likewise.
    positions: Vec<(String, String, &'static str, bool)>,
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

/// The peer's (hidden but public) `root_value`, behind one name for both of its searches.
trait RootValue {
    fn root_value(&self) -> minimax::Evaluation;
}

/// One part of the report.
type Section = fn(&mut Report, &Opts);

/// The sections, in the order they run, by the names `--only` takes. A new section is a
/// function of the report in a module of its own and one line here.
const SECTIONS: [(&str, Section); 12] = [
    ("signature", |rep, _| perf::signature_section(rep)),
    ("games", |rep, _| perf::games_section(rep)),
    ("engine", |rep, _| perf::engine_section(rep)),
    ("speedup", |rep, _| perf::speedup_section(rep)),
    ("peer", |rep, _| peer::peer_section(rep)),
    ("peer-options", |rep, _| peer::peer_options_section(rep)),
    ("user-games", |rep, _| user_games::user_games_section(rep)),
    ("overhead", |rep, _| scaling::overhead_section(rep)),
    ("learned", |rep, _| learned::section(rep)),
    ("peer-games", |rep, opts| {
        peer_games::peer_games_section(rep, opts.peer_games)
    }),
    ("effective", |rep, opts| {
        effective::effective_section(rep, opts.effective_games)
    }),
    ("user", |rep, opts| {
        user::section(rep, opts.arena.as_deref())
    }),
];

/// The report's head: the mode, the build, the machine and its load, the time it took, and
/// this engine's wrong values, if any.
fn head(opts: &Opts, rep: &Report, started: Instant, load_start: &str) -> String {
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
    head
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bench-report: {e}");
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
    let wanted = |name: &str| {
        opts.only
            .as_ref()
            .map_or(true, |o| o.iter().any(|n| n == name))
    };
    for (name, f) in SECTIONS {
        if !wanted(name) {
            continue;
        }
        let t = Instant::now();
        eprintln!("bench-report: {name}...");
        f(&mut rep, &opts);
        eprintln!("bench-report: {name} done in {}", fmt_duration(t.elapsed()));
    }
    targets::targets_section(&mut rep);
    let text = head(&opts, &rep, started, &load_start) + &rep.md;
    print!("{text}");
    if let Some(dir) = opts.out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = std::fs::write(&opts.out, &text) {
        eprintln!("bench-report: cannot write {}: {e}", opts.out.display());
        return ExitCode::FAILURE;
    }
    eprintln!("bench-report: wrote {}", opts.out.display());
    if rep.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("bench-report: this engine returned wrong values (see the report)");
        ExitCode::FAILURE
    }
}
