//! Time to depth from a position: `cargo run --release -p benches --example jumpy3_depth [DEPTH] [THREADS] [POSITION] [sheet|default|WEIGHTS] [TT_MIB]`.

use plyforge::jumpy3;
#[path = "jumpy3_common/mod.rs"]
mod common;

use common::parse_weights;

use jumpy3::search::{Evaluator, Limits, Search};
use jumpy3::{DefaultEval, Estimate, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(24);
    let threads: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let p: Position = args
        .get(2)
        .map(|s| s.parse().expect("a position"))
        .unwrap_or_else(Position::start);
    let eval: Box<dyn Evaluator<Position>> = match args.get(3).map(String::as_str) {
        Some("sheet") => Box::new(Estimate::Sheet),
        None | Some("default") => Box::new(Estimate::Default),
        Some(weights) => Box::new(DefaultEval::with_weights(parse_weights(weights))),
    };
    let mut config = jumpy3::engine_config().with_threads(threads);
    if let Some(mib) = args.get(4).and_then(|s| s.parse().ok()) {
        config.tt_mib = mib;
    }
    let mut s = Search::new(config, eval);
    let r = s.run(&p, &[], Limits::depth(depth), |r| {
        let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {:2} score {:8} nodes {:11} time {:8.3}s pv {}",
            r.depth,
            r.score,
            r.nodes,
            r.elapsed.as_secs_f64(),
            pv.join(" ")
        );
    });
    println!(
        "final: depth {} score {} nodes {} nps {} time {:.3}s tt hits {:.2}",
        r.depth,
        r.score,
        r.nodes,
        r.nps,
        r.elapsed.as_secs_f64(),
        r.tt_hit_rate
    );
}
