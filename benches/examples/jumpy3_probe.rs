//! Prints the table's value of a position and of its children:
//! `cargo run --release -p benches --example jumpy3_probe FILE POSITION`.

use jumpy3::search::{Game, MoveList};
use jumpy3::solve::Table;
use jumpy3::Position;
use plyforge::jumpy3;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let table = Table::load(&args[0]).expect("cannot load the table");
    let p: Position = args[1].parse().expect("bad position");
    println!("{p}: {}", table.value(&p));
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    for m in moves {
        let c = p.after(m);
        println!("  {m} -> {c}: {}", table.value(&c));
    }
}
