//! Tunes the weights of `jumpy3::DefaultEval` by matches against the sheet's estimate:
//! coordinate ascent, one weight at a time, keeping a change only if the match score over
//! several depths improves. Then a validation match on fresh openings.
//!
//! `cargo run --release -p benches --example jumpy3_tune_eval -- [ROUNDS] [OPENINGS] [W1,W2,...] [DEPTHS]`
//!
//! Each opening (4 to 15 seeded random plies from the start) is played at each depth of
//! `DEPTHS` (default 2,4,6,8), the tuned evaluation taking White and then Black; a game reaching 400 plies is a
//! draw. With `ROUNDS` 0 it is a plain match of the given weights against the sheet.

use plyforge::jumpy3;
#[path = "jumpy3_common/mod.rs"]
mod common;

use common::{opening, parse_weights, Eval};

use rayon::prelude::*;

use jumpy3::eval::{DefaultEval, Weights, FEATURE_NAMES};
use jumpy3::search::{Game, Limits, Outcome, Record, Search};
use jumpy3::Position;

fn game(start: Position, a: Eval, b: Eval, a_side: usize, depth: u32) -> f64 {
    let config = jumpy3::engine_config().with_tt_mib(4);
    let mut engines = [Search::new(config.clone(), a), Search::new(config, b)];
    let mut record = Record::new(start);
    while record.result().is_none() && record.moves().len() < 400 {
        let p = *record.position();
        let who = usize::from(p.to_move() != a_side);
        let r = engines[who].run(&p, record.history_keys(), Limits::depth(depth), |_| {});
        record.play(r.best.expect("a move")).expect("a legal move");
    }
    match record.result() {
        Some(Outcome::Win(w)) if w == a_side => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        _ => 0.5,
    }
}

/// Score of `w` against the sheet: openings `first..first + n`, both colours, every depth.
fn score(w: Weights, first: u64, n: u64, depths: &[u32]) -> f64 {
    let a = Eval::Tuned(DefaultEval::with_weights(w));
    let jobs: Vec<(u64, usize, u32)> = (first..first + n)
        .flat_map(|o| depths.iter().flat_map(move |&d| [(o, 0, d), (o, 1, d)]))
        .collect();
    let total: f64 = jobs
        .par_iter()
        .map(|&(o, side, d)| game(opening(o), a, Eval::Sheet, side, d))
        .sum();
    total / jobs.len() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(2);
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let mut w = match args.get(2) {
        Some(s) => parse_weights(s),
        None => Weights::DEFAULT,
    };
    let depths: Vec<u32> = args
        .get(3)
        .map(|s| s.split(',').map(|d| d.parse().expect("a depth")).collect())
        .unwrap_or_else(|| vec![2, 4, 6, 8]);
    let mut best = score(w, 1, n, &depths);
    println!("start {:?}: {:.3}", w.0, best);
    for round in 0..rounds {
        for (k, name) in FEATURE_NAMES.iter().enumerate() {
            let step = (w.0[k].abs() / 2).max(4);
            for delta in [step, -step] {
                let mut t = w;
                t.0[k] += delta;
                let s = score(t, 1, n, &depths);
                if s > best + 0.01 {
                    best = s;
                    w = t;
                    println!("round {round}: {name} {delta:+} -> {:?}: {best:.3}", w.0);
                    break;
                }
            }
        }
    }
    let fresh = score(w, 100_000, n, &depths);
    let old = score(Weights::DEFAULT, 100_000, n, &depths);
    println!(
        "final {:?}: training {:.3}, fresh openings {:.3} (current default {:.3})",
        w.0, best, fresh, old
    );
}
