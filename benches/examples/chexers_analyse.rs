//! Prints the engine's iterations on a position: `cargo run --release -p benches --example
//! chexers_analyse -- [POSITION] [--ms N] [--algo paranoid|brs|maxn] [--noq]`.

use plyforge::chexers;
use std::time::Duration;

use chexers::search::{Algorithm, Limits, Search};
use chexers::{engine_config, DefaultEval, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut pos = Position::start();
    let mut ms = 1000;
    let mut config = engine_config();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--noq" => config.quiescence = false,
            "--ms" => {
                ms = args[i + 1].parse().expect("milliseconds");
                i += 1;
            }
            "--algo" => {
                config.algorithm = match args[i + 1].as_str() {
                    "paranoid" => Algorithm::Paranoid,
                    "brs" => Algorithm::BestReply,
                    "maxn" => Algorithm::MaxN,
                    other => panic!("unknown algorithm {other}"),
                };
                i += 1;
            }
            text => pos = text.parse().unwrap_or_else(|e| panic!("{e}")),
        }
        i += 1;
    }
    let mut engine = Search::new(config, DefaultEval::default());
    let limits = Limits::movetime(Duration::from_millis(ms));
    let report = engine.run(&pos, &[], limits, |r| {
        let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {:2} score {:6} nodes {:9} nps {:8} pv {}",
            r.depth,
            r.score,
            r.nodes,
            r.nps,
            pv.join(", ")
        );
    });
    println!("best {:?}", report.best.map(|m| m.to_string()));
}
