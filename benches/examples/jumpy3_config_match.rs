//! Engine settings against each other with the default evaluation:
//! `cargo run --release -p benches --example jumpy3_config_match -- OPENINGS LIMIT A B`
//!
//! `LIMIT`: `dN` (depth N), `nN` (N nodes) or `tN` (N ms per move). `A`, `B`: `q` (quiescence
//! over captures and king exits) or `noq`, optionally with `,ttN` (table MiB).
//! Openings as in `tune_eval`; each is played with A as White and as Black.

use plyforge::jumpy3;
#[path = "jumpy3_common/mod.rs"]
mod common;

use common::opening;

use std::time::Duration;

use rayon::prelude::*;

use jumpy3::search::{Config, Game, Limits, Outcome, Record, Search};
use jumpy3::DefaultEval;

fn config(s: &str) -> Config {
    let mut c = jumpy3::engine_config().with_tt_mib(16);
    for part in s.split(',') {
        match part {
            "q" => c.quiescence = true,
            "noq" => c.quiescence = false,
            t if t.starts_with("tt") => c.tt_mib = t[2..].parse().expect("MiB"),
            other => panic!("unknown setting {other}"),
        }
    }
    c
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args[0].parse().expect("openings");
    let limit = &args[1];
    let limits = match limit.split_at(1) {
        ("d", d) => Limits::depth(d.parse().expect("depth")),
        ("n", n) => Limits::nodes(n.parse().expect("nodes")),
        ("t", t) => Limits::movetime(Duration::from_millis(t.parse().expect("ms"))),
        _ => panic!("bad limit {limit}"),
    };
    let (a, b) = (config(&args[2]), config(&args[3]));
    let jobs: Vec<(u64, usize)> = (1..=n).flat_map(|o| [(o, 0), (o, 1)]).collect();
    let results: Vec<f64> = jobs
        .par_iter()
        .map(|&(o, a_side)| {
            let mut engines = [
                Search::new(a.clone(), DefaultEval::default()),
                Search::new(b.clone(), DefaultEval::default()),
            ];
            let mut record = Record::new(opening(o));
            while record.result().is_none() && record.moves().len() < 400 {
                let p = *record.position();
                let who = usize::from(p.to_move() != a_side);
                let r = engines[who].run(&p, record.history_keys(), limits, |_| {});
                record.play(r.best.expect("a move")).expect("legal");
            }
            match record.result() {
                Some(Outcome::Win(w)) if w == a_side => 1.0,
                Some(Outcome::Win(_)) => 0.0,
                _ => 0.5,
            }
        })
        .collect();
    let wins = results.iter().filter(|&&x| x == 1.0).count();
    let losses = results.iter().filter(|&&x| x == 0.0).count();
    let draws = results.len() - wins - losses;
    let score: f64 = results.iter().sum::<f64>() / results.len() as f64;
    println!(
        "{} vs {} at {limit}: +{wins} ={draws} -{losses}, score {:.1}%",
        args[2],
        args[3],
        100.0 * score
    );
}
