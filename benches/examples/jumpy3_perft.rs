//! Perft counts: `cargo run --release -p benches --example jumpy3_perft [POSITION] DEPTH` prints
//! `position;depth;count` lines for depths 1..=DEPTH (the format of `tests/data/perft.txt`).

use plyforge::jumpy3;
use std::time::Instant;

use jumpy3::search::perft;
use jumpy3::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (p, depth) = match args.as_slice() {
        [d] => (Position::start(), d.parse().expect("a depth")),
        [p, d] => (p.parse().expect("a position"), d.parse().expect("a depth")),
        _ => panic!("usage: perft [POSITION] DEPTH"),
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft(&p, d);
        let s = t.elapsed().as_secs_f64();
        println!("{p};{d};{n}");
        eprintln!("  {:.3}s, {:.1} M leaves/s", s, n as f64 / s / 1e6);
    }
}
