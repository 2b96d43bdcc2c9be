//! The peer comparison's headline case alone: Jumpy3 from the start at one depth (default
//! 24), this engine against the `minimax` crate's `IterativeSearch` (1 thread) and
//! `ParallelSearch` (2 threads), the four searches interleaved round by round so that load
//! from other processes falls on all of them alike. Prints every round and the fastest
//! times with the ratios; `cargo xtask bench` reports the same case among the others.
//!
//! ```text
//! cargo run --release -p benches --example peer_target [-- --depth D] [--rounds N] [--only ours|ours1]
//! ```
//!
//! `--only ours` times this engine alone (1 and 2 threads), `--only ours1` with 1 thread
//! only: for profiling it.

use plyforge::{jumpy3, search};
#[path = "../peer/jumpy3_peer.rs"]
mod jumpy3_peer;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use benches::peer::{ours, TABLE_MIB};
use jumpy3::Position;
use jumpy3_peer::{from_position, peer_to_check, Board, SheetEval};
use minimax::{IterativeOptions, IterativeSearch, ParallelOptions, ParallelSearch, Strategy};
use search::Limits;

struct Opts {
    depth: u32,
    rounds: usize,
    ours_only: bool,
    one_thread: bool,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        depth: 24,
        rounds: 3,
        ours_only: false,
        one_thread: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> Result<u64, String> {
            let v = args.next().ok_or(format!("{name} needs a value"))?;
            v.parse::<u64>()
                .map_err(|e| format!("{name}: `{v}` is not a count ({e})"))
        };
        match a.as_str() {
            "--depth" => o.depth = num("--depth")?.clamp(1, 64) as u32,
            "--rounds" => o.rounds = num("--rounds")?.max(1) as usize,
            "--only" => match args.next().as_deref() {
                Some("ours") => o.ours_only = true,
                Some("ours1") => {
                    o.ours_only = true;
                    o.one_thread = true;
                }
                other => return Err(format!("--only takes `ours` or `ours1`, not {other:?}")),
            },
            other => {
                return Err(format!(
                    "unknown option `{other}` (expected --depth D, --rounds N, --only ours|ours1)"
                ))
            }
        }
    }
    Ok(o)
}

fn time<R>(f: impl FnOnce() -> R) -> (Duration, R) {
    let t = Instant::now();
    let r = f();
    (t.elapsed(), r)
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("peer_target: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Position::start();
    let board: Board = from_position(&start);
    let options = || IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20);
    let names = ["ours 1t", "iterative", "ours 2t", "parallel"];
    let mut best = [Duration::MAX; 4];
    for round in 1..=o.rounds {
        let mut line = format!("round {round}:");
        for (k, name) in names.iter().enumerate() {
            if (o.ours_only && k % 2 == 1) || (o.one_thread && k > 0) {
                continue;
            }
            let (t, value) = match k {
                0 | 2 => {
                    let mut s = ours(if k == 0 { 1 } else { 2 });
                    let (t, r) = time(|| s.run(&start, &[], Limits::depth(o.depth), |_| {}));
                    let per_thread = s.thread_nodes();
                    let nodes = if per_thread.len() > 1 {
                        format!("{} nodes, by thread {per_thread:?}", r.nodes)
                    } else {
                        format!("{} nodes", r.nodes)
                    };
                    (t, format!("{} ({nodes})", r.score))
                }
                1 => {
                    let mut s = IterativeSearch::new(SheetEval::default(), options());
                    s.set_max_depth(o.depth as u8);
                    let (t, _) = time(|| s.choose_move(&board));
                    (t, peer_to_check(s.root_value()).to_string())
                }
                _ => {
                    let mut s = ParallelSearch::new(
                        SheetEval::default(),
                        options(),
                        ParallelOptions::new().with_num_threads(2),
                    );
                    s.set_max_depth(o.depth as u8);
                    let (t, _) = time(|| s.choose_move(&board));
                    (t, peer_to_check(s.root_value()).to_string())
                }
            };
            best[k] = best[k].min(t);
            line += &format!(" {name} {:.3} s [{value}];", t.as_secs_f64());
        }
        println!("{line}");
    }
    let s = |d: Duration| d.as_secs_f64();
    if o.one_thread {
        println!("fastest: ours 1t {:.3} s", s(best[0]));
    } else {
        println!(
            "fastest: ours 1t {:.3} s, ours 2t {:.3} s (2-thread speedup {:.2}x)",
            s(best[0]),
            s(best[2]),
            s(best[0]) / s(best[2])
        );
    }
    if !o.ours_only {
        println!(
            "peer: iterative {:.3} s -> ours {:.2}x faster; parallel {:.3} s -> ours 2t {:.2}x faster",
            s(best[1]),
            s(best[1]) / s(best[0]),
            s(best[3]),
            s(best[3]) / s(best[2])
        );
    }
    ExitCode::SUCCESS
}
