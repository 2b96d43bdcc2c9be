//! Solves Jumpy3 and prints the figures: `cargo run --release -p benches --example jumpy3_solve [PAWNS] [FILE]`.
//!
//! `PAWNS` (0..=3, default 3) limits the pawns per side; `FILE` saves the table there.

use plyforge::jumpy3;
use std::time::Instant;

use jumpy3::solve::Table;
use jumpy3::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pawns: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(3);
    let t = Instant::now();
    let table = Table::build_up_to(pawns);
    let elapsed = t.elapsed();
    let stats = table.stats();
    println!(
        "solved {} positions in {:.2?} on {} threads: {} wins, {} losses, {} draws, longest {} plies",
        stats.positions,
        elapsed,
        rayon::current_num_threads(),
        stats.wins,
        stats.losses,
        stats.draws,
        stats.longest
    );
    if pawns >= 3 {
        let start = Position::start();
        let line: Vec<String> = table.line(&start).iter().map(|m| m.to_string()).collect();
        println!("start {start}: {}", table.value(&start));
        println!("line: {}", line.join(" "));
    }
    if let Some(path) = args.get(1) {
        table.save(path).expect("cannot save the table");
        println!("saved to {path}");
    }
}
