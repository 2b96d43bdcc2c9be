//! `search::bench` on each game's fixed bench (the positions and depths of `arena bench`):
//! the signature (total nodes, 1 thread), time and nodes per second, per position; with
//! `--overhead`, the total nodes at 1, 2, 4, 8 and 16 threads (the parallel search's
//! overhead; threads beyond the cores are fine for a node count).
//!
//! ```text
//! cargo run --release -p benches --example game_bench [-- --threads N] [--overhead] [GAME...]
//! ```
//!
//! The lists: each game crate's `BENCH` for our four games, `connect_four::BENCH`.

use benches::games::BenchGame;
use plyforge::search::bench::{parse_list, run, BenchPosition};
use plyforge::search::{Config, Evaluator, Game, SideToMove};
use plyforge::{chaosclock, chexers, jumpy3, throne};

fn show<G: Game, E: Evaluator<G> + Clone>(
    name: &str,
    list: &[BenchPosition<G>],
    eval: E,
    config: Config,
    threads: usize,
    overhead: bool,
) {
    let config = if std::env::var_os("NO_KILLERS").is_some() {
        config.with_killers(false)
    } else {
        config
    };
    let r = run(list, eval.clone(), &config.clone().with_threads(threads));
    for l in &r.lines {
        println!(
            "{name:<13} {:<10} depth {:>2}: {:>10} nodes {:>8.3} s score {}",
            l.label,
            l.depth,
            l.nodes,
            l.elapsed.as_secs_f64(),
            l.score
        );
    }
    println!(
        "{name:<13} signature {} nodes, {:.3} s, {:.2} M nodes/s, {threads} thread(s)",
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.nps as f64 / 1e6
    );
    if overhead {
        let base = run(list, eval.clone(), &config.clone().with_threads(1)).nodes as f64;
        let mut line = format!("{name:<13} total nodes by threads:");
        for t in [1, 2, 4, 8, 16] {
            let n = run(list, eval.clone(), &config.clone().with_threads(t)).nodes;
            line += &format!(" {t}: {n} ({:.2}x)", n as f64 / base);
        }
        println!("{line}");
    }
}

fn ours<G: BenchGame>(text: &str, threads: usize, overhead: bool)
where
    <G as std::str::FromStr>::Err: std::fmt::Display,
    benches::games::EvalOf<G>: Clone,
{
    let list = parse_list::<G>(text).expect("the bench list parses");
    show(G::NAME, &list, G::eval(), G::config(), threads, overhead);
}

fn main() {
    let mut threads = 1;
    let mut overhead = false;
    let mut games = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => threads = args.next().and_then(|t| t.parse().ok()).unwrap_or(1),
            "--overhead" => overhead = true,
            "--bench" => {}
            g => games.push(g.to_string()),
        }
    }
    let want = |g: &str| games.is_empty() || games.iter().any(|x| x == g);
    if want("jumpy3") {
        ours::<jumpy3::Position>(jumpy3::BENCH, threads, overhead);
    }
    if want("chexers") {
        ours::<chexers::Position>(chexers::BENCH, threads, overhead);
    }
    if want("throne") {
        ours::<throne::Position>(throne::BENCH, threads, overhead);
    }
    if want("chaosclock") {
        ours::<chaosclock::Position>(chaosclock::BENCH, threads, overhead);
    }
    if want("connect_four") {
        let list = parse_list::<connect_four::Position>(connect_four::BENCH).expect("parses");
        let eval = SideToMove(connect_four::DefaultEval);
        show(
            "connect_four",
            &list,
            eval,
            connect_four::engine_config(),
            threads,
            overhead,
        );
    }
}
