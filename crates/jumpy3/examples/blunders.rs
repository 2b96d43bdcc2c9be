//! How often an engine with a given evaluation keeps a theoretical win, judged by the solved
//! table: `cargo run --release -p jumpy3 --example blunders -- TABLE_FILE DEPTH EVAL [POSITIONS]`
//! (EVAL: `sheet`, `default`, or comma-separated weights).

use jumpy3::eval::{DefaultEval, Estimate, Weights, FEATURES};
use jumpy3::search::{Config, Evaluator, Game, Limits, MoveList, Scores, Search};
use jumpy3::solve::{Table, Value};
use jumpy3::Position;

#[derive(Clone, Copy)]
enum Eval {
    Sheet,
    Tuned(DefaultEval),
}

impl Evaluator<Position> for Eval {
    fn evaluate(&self, p: &Position) -> Scores {
        match self {
            Eval::Sheet => Estimate::Sheet.evaluate(p),
            Eval::Tuned(e) => e.evaluate(p),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let table = Table::load(&args[0]).expect("a table");
    let depth: u32 = args[1].parse().expect("a depth");
    let eval = match args[2].as_str() {
        "sheet" => Eval::Sheet,
        "default" => Eval::Tuned(DefaultEval::default()),
        s => {
            let mut w = [0; FEATURES];
            for (k, x) in s.split(',').enumerate() {
                w[k] = x.parse().expect("a weight");
            }
            Eval::Tuned(DefaultEval::with_weights(Weights(w)))
        }
    };
    let count: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let config = Config {
        tt_mib: 4,
        ..jumpy3::engine_config()
    };
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let (mut won, mut kept) = (0, 0);
    while won < count {
        // A position from a random game.
        let mut p = Position::start();
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let plies = s % 60;
        for _ in 0..plies {
            if p.outcome().is_some() {
                break;
            }
            let mut m = MoveList::new();
            p.legal_moves(&mut m);
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            p.play(m[(s % m.len() as u64) as usize]);
        }
        if p.outcome().is_some() {
            continue;
        }
        let Value::Win(n) = table.value(&p) else {
            continue;
        };
        if n <= depth {
            continue; // the search proves these
        }
        won += 1;
        let mut engine = Search::new(config.clone(), eval);
        let r = engine.run(&p, &[], Limits::depth(depth), |_| {});
        if matches!(table.value(&p.after(r.best.unwrap())), Value::Loss(_)) {
            kept += 1;
        }
    }
    println!(
        "depth {depth} {}: kept the win in {kept}/{won} = {:.1}%",
        args[2],
        100.0 * kept as f64 / won as f64
    );
}
