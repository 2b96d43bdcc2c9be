//! Two evaluations against each other through the engine, seats alternated, each opening
//! (a few random plies) played twice with the seats swapped. For tuning [`throne::Weights`].
//!
//! ```text
//! cargo run --release -p benches --example throne_eval_duel -- [--games N] [--depth D | --movetime-ms MS]
//!     [--opening-plies K] [--b-weight NAME=VALUE ...]
//! ```
//! Side A is [`throne::DefaultEval`]'s weights; side B starts from them and applies each
//! `--b-weight` (names: score, prisoner_move, mobility, throne_guard, tempo).

use plyforge::throne;
use std::time::Duration;

use plyforge::search::rng::XorShift64Star as Rng;
use throne::search::{Game, Limits, Outcome, Record, Search};
use throne::{engine_config, Position, WeightedEval, Weights};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut games = 40u32;
    let mut limits = Limits::depth(4);
    let mut opening = 4usize;
    let mut b = Weights::DEFAULT;
    let mut i = 0;
    while i + 1 < args.len() {
        let v = &args[i + 1];
        match args[i].as_str() {
            "--games" => games = v.parse().expect("--games N"),
            "--depth" => limits = Limits::depth(v.parse().expect("--depth D")),
            "--movetime-ms" => {
                limits = Limits::movetime(Duration::from_millis(v.parse().expect("ms")))
            }
            "--opening-plies" => opening = v.parse().expect("--opening-plies K"),
            "--b-weight" => {
                let (name, value) = v.split_once('=').expect("NAME=VALUE");
                let value: i32 = value.parse().expect("integer weight");
                match name {
                    "score" => b.score = value,
                    "prisoner_move" => b.prisoner_move = value,
                    "mobility" => b.mobility = value,
                    "throne_guard" => b.throne_guard = value,
                    "tempo" => b.tempo = value,
                    other => panic!("unknown weight {other}"),
                }
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    println!(
        "A = {:?}\nB = {b:?}\n{games} games, {limits:?}",
        Weights::DEFAULT
    );
    let mut engines = [
        Search::new(engine_config(), WeightedEval(Weights::DEFAULT)),
        Search::new(engine_config(), WeightedEval(b)),
    ];
    let (mut a_wins, mut draws, mut b_wins) = (0, 0, 0);
    let mut rng = Rng::seeded(12345);
    let mut start = Position::start();
    for g in 0..games {
        if g % 2 == 0 {
            // A new opening: random plies from the start.
            start = Position::start();
            for _ in 0..opening {
                let moves = start.moves();
                start.play(moves[rng.below(moves.len())]);
            }
        }
        let a_seat = (g % 2) as usize; // which player A is
        for e in engines.iter_mut() {
            e.clear();
        }
        let mut record = Record::new(start.clone());
        while record.result().is_none() {
            let pos = record.position().clone();
            let who = if pos.to_move() == a_seat { 0 } else { 1 };
            let report = engines[who].run(&pos, record.history_keys(), limits, |_| {});
            record.play(report.best.expect("a move")).expect("legal");
        }
        match record.result().expect("over") {
            Outcome::Win(p) if p == a_seat => a_wins += 1,
            Outcome::Win(_) => b_wins += 1,
            _ => draws += 1,
        }
        let last = record.position();
        println!(
            "game {:3}: A plays {} -> {:?} at ply {} (bp b {} w {})",
            g + 1,
            throne::player_letter(a_seat),
            record.result().expect("over"),
            last.ply(),
            last.score(0),
            last.score(1)
        );
    }
    println!("A {a_wins} wins, {draws} draws, B {b_wins} wins");
}
