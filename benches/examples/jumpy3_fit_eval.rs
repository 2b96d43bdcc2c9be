//! Measures evaluations against the solved table and fits the weights of
//! `jumpy3::eval::features` by logistic regression (the starting point that matches then
//! confirm): `cargo run --release -p benches --example jumpy3_fit_eval -- TABLE_FILE [GAMES]`.
//!
//! Positions come from seeded random games; the label is whether White wins with perfect
//! play (draws are left out).

use plyforge::jumpy3;
#[path = "jumpy3_common/mod.rs"]
mod common;

use common::play_random;

use jumpy3::eval::{features, sheet_estimate, DefaultEval, FEATURES, FEATURE_NAMES};
use jumpy3::search::Game;
use jumpy3::solve::{Table, Value};
use jumpy3::{Position, WHITE};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let table = Table::load(&args[0]).expect("a table file");
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3000);
    let mut data: Vec<([f64; FEATURES], f64, Position)> = Vec::new();
    let mut s = 0x1234_5678_9abc_def1u64;
    for _ in 0..games {
        let mut p = Position::start();
        for _ in 0..300 {
            if p.outcome().is_some() {
                break;
            }
            let white_wins = match table.value(&p) {
                Value::Win(_) => Some(p.to_move() == WHITE),
                Value::Loss(_) => Some(p.to_move() != WHITE),
                _ => None,
            };
            if let Some(w) = white_wins {
                let f = features(&p).map(f64::from);
                data.push((f, if w { 1.0 } else { 0.0 }, p));
            }
            play_random(&mut p, &mut s);
        }
    }
    let n = data.len();
    let (train, test) = data.split_at(n * 4 / 5);
    let accuracy = |f: &dyn Fn(&Position) -> f64| {
        test.iter()
            .filter(|(_, y, p)| {
                let v = f(p);
                (v > 0.0 && *y == 1.0) || (v < 0.0 && *y == 0.0)
            })
            .count() as f64
            / test.len() as f64
    };
    println!("{n} positions");
    println!(
        "sign accuracy: sheet {:.3}, default {:.3}",
        accuracy(&|p| sheet_estimate(p) as f64),
        accuracy(&|p| DefaultEval::default().white_value(p) as f64)
    );
    // Logistic regression by batch gradient descent.
    let mut w = [0.0f64; FEATURES];
    let lr = 0.05;
    for _ in 0..600 {
        let mut g = [0.0f64; FEATURES];
        for (x, y, _) in train {
            let z: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
            let e = 1.0 / (1.0 + (-z).exp()) - y;
            for k in 0..FEATURES {
                g[k] += e * x[k];
            }
        }
        for k in 0..FEATURES {
            w[k] -= lr * g[k] / train.len() as f64;
        }
    }
    let fitted = |p: &Position| -> f64 {
        let x = features(p);
        w.iter().zip(x).map(|(a, b)| a * b as f64).sum()
    };
    println!("fitted accuracy {:.3}", accuracy(&fitted));
    let scale = 10.0 / w[0].abs().max(1e-9);
    for k in 0..FEATURES {
        println!(
            "{:45} {:8.4}  (x{scale:.1}: {:.0})",
            FEATURE_NAMES[k],
            w[k],
            w[k] * scale
        );
    }
}
