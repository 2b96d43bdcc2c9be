//! Loads a saved table and checks it position by position against the rules:
//! `cargo run --release -p benches --example jumpy3_verify FILE`.

use plyforge::jumpy3;
use std::time::Instant;

use jumpy3::solve::Table;

fn main() {
    let path = std::env::args().nth(1).expect("usage: verify FILE");
    let table = Table::load(&path).expect("cannot load the table");
    let t = Instant::now();
    match table.verify() {
        Ok(()) => println!("table consistent ({:.2?})", t.elapsed()),
        Err(e) => {
            println!("INCONSISTENT: {e}");
            std::process::exit(1);
        }
    }
}
