//! How often an engine with a given evaluation keeps a theoretical win, judged by the solved
//! table: `cargo run --release -p benches --example jumpy3_blunders -- TABLE_FILE DEPTH EVAL [POSITIONS]`
//! (EVAL: `sheet`, `default`, or comma-separated weights).

use plyforge::jumpy3;
#[path = "jumpy3_common/mod.rs"]
mod common;

use common::{parse_eval, play_random, xorshift};

use jumpy3::search::{Game, Limits, Search};
use jumpy3::solve::{Table, Value};
use jumpy3::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let table = Table::load(&args[0]).expect("a table");
    let depth: u32 = args[1].parse().expect("a depth");
    let eval = parse_eval(&args[2]);
    let count: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let config = jumpy3::engine_config().with_tt_mib(4);
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let (mut won, mut kept) = (0, 0);
    while won < count {
        // A position from a random game.
        let mut p = Position::start();
        let plies = xorshift(&mut s) % 60;
        for _ in 0..plies {
            if p.outcome().is_some() {
                break;
            }
            play_random(&mut p, &mut s);
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
