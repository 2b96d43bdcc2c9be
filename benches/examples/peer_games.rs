//! Games at a clock on the benchmark games a user would write: this engine against the
//! `minimax` crate, or one mode of this engine against another, at equal time per move, one
//! thread each, seeded openings played twice with the colours swapped. Prints a line per game
//! pair and a table (W/D/L, score, Elo with its 95% interval, mean depths and times).
//!
//! ```text
//! cargo run --release -p benches --example peer_games -- [OPTIONS]
//!   --game NAME      breakthrough, othello, connect_four (repeat; default: all three)
//!   --first SPEC     the first player (default: selective)
//!   --second SPEC    its opponent (default: minimax:default)
//!   --games N        games per game, an even number (default 20)
//!   --movetime MS    time per move of both (default 100)
//!   --opening PLIES  random plies of each opening (default: 4, Othello 6)
//!   --seed S         seed of the openings (default 1)
//!   --concurrency N  game pairs played at once (default 1)
//!   --quiet          no line per pair
//! SPEC: `exact` or `selective` (this engine), then `,`-separated changes (`-lmr`, `-null`,
//! `-futility`, `-lmp`, `-iir`, `-ext` turn a technique off, `-qs` quiescence search;
//! `lmr_base=N`, `lmr_divisor=N`, `null_base=N`, `rfp_margin=N`), or `minimax:OPTIONS` (the peer's
//! `IterativeSearch`: `default`, or `+`-joined `q4`, `null2`, `se`, `cm`, `cmh`, `asp30`,
//! `mtdf`). `SPEC@MS` gives that player its own time per move.
//! ```
#[path = "../peer/user_duel.rs"]
mod user_duel;
#[path = "../peer/user_peer.rs"]
mod user_peer;

use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

use benches::breakthrough::{Breakthrough, BreakthroughEval};
use benches::othello::{Othello, OthelloEval};
use plyforge::search::SideToMoveEval;
use user_duel::{duel, openings, our_config, peer_options, Duel, Ours, Peer, Player};
use user_peer::PeerGame;

struct Opts {
    games: Vec<String>,
    first: String,
    second: String,
    count: usize,
    movetime: Duration,
    opening: Option<usize>,
    seed: u64,
    concurrency: usize,
    quiet: bool,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        games: Vec::new(),
        first: "selective".into(),
        second: "minimax:default".into(),
        count: 20,
        movetime: Duration::from_millis(100),
        opening: None,
        seed: 1,
        concurrency: 1,
        quiet: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        let number = |v: &String| {
            v.parse::<u64>()
                .map_err(|_| format!("{a}: {v:?} is not a number"))
        };
        match a.as_str() {
            "--game" => o.games.push(value()?.clone()),
            "--first" => o.first = value()?.clone(),
            "--second" => o.second = value()?.clone(),
            "--games" => o.count = number(value()?)? as usize,
            "--movetime" => o.movetime = Duration::from_millis(number(value()?)?),
            "--opening" => o.opening = Some(number(value()?)? as usize),
            "--seed" => o.seed = number(value()?)?,
            "--concurrency" => o.concurrency = (number(value()?)? as usize).max(1),
            "--quiet" => o.quiet = true,
            "--bench" => {}
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    if o.count % 2 != 0 || o.count == 0 {
        return Err(format!(
            "--games {}: an even number of games (pairs)",
            o.count
        ));
    }
    if o.games.is_empty() {
        o.games = vec![
            "breakthrough".into(),
            "othello".into(),
            "connect_four".into(),
        ];
    }
    Ok(o)
}

type Boxed<G> = Box<dyn Player<G> + Send>;

fn player<G: PeerGame + 'static, E: SideToMoveEval<G> + Copy + 'static>(
    spec: &str,
    eval: E,
    movetime: Duration,
) -> Result<Boxed<G>, String> {
    // `SPEC@MS`: this player's own time per move.
    let (spec, movetime) = match spec.rsplit_once('@') {
        Some((spec, ms)) => {
            let ms: u64 = ms
                .parse()
                .map_err(|_| format!("{spec}@{ms}: a time in ms"))?;
            (spec, Duration::from_millis(ms))
        }
        None => (spec, movetime),
    };
    Ok(match spec.strip_prefix("minimax:") {
        Some(options) => Box::new(Peer::<G>::new(peer_options(options)?, movetime)),
        None => Box::new(Ours::new(our_config(spec)?, eval, movetime)),
    })
}

fn run<G: PeerGame + PartialEq + 'static, E: SideToMoveEval<G> + Copy + 'static>(
    name: &str,
    start: G,
    eval: E,
    plies: usize,
    o: &Opts,
) -> Result<Duel, String> {
    let list = openings(&start, o.opening.unwrap_or(plies), o.count / 2, o.seed);
    // Both players are made once here so that a bad spec fails before any game.
    player::<G, E>(&o.first, eval, o.movetime)?;
    player::<G, E>(&o.second, eval, o.movetime)?;
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<(usize, Duel)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..o.concurrency {
            s.spawn(|| {
                let mut a = player::<G, E>(&o.first, eval, o.movetime).expect("checked");
                let mut b = player::<G, E>(&o.second, eval, o.movetime).expect("checked");
                loop {
                    let k = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some(opening) = list.get(k) else { break };
                    let d = duel(
                        &mut *a,
                        &mut *b,
                        std::slice::from_ref(opening),
                        |_, _, _| {},
                    );
                    if !o.quiet {
                        println!("{name} pair {k}: {}", d.pairs[0]);
                    }
                    results.lock().unwrap().push((k, d));
                }
            });
        }
    });
    let mut all = results.into_inner().unwrap();
    all.sort_by_key(|r| r.0);
    let mut total = Duel::default();
    for (_, d) in all {
        total.pairs.extend(d.pairs);
        for i in 0..3 {
            total.wdl[i] += d.wdl[i];
        }
        for (t, s) in [(&mut total.first, &d.first), (&mut total.second, &d.second)] {
            t.moves += s.moves;
            t.depth += s.depth;
            t.time += s.time;
        }
    }
    Ok(total)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let o = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("peer_games: {e}");
            return ExitCode::from(2);
        }
    };
    let mut rows = Vec::new();
    for game in &o.games {
        let result = match game.as_str() {
            "breakthrough" => run(game, Breakthrough::start(), BreakthroughEval, 4, &o),
            "othello" => run(game, Othello::start(), OthelloEval, 6, &o),
            "connect_four" => run(
                game,
                connect_four::Position::start(),
                connect_four::DefaultEval,
                4,
                &o,
            ),
            other => Err(format!("unknown game {other:?}")),
        };
        match result {
            Ok(d) => {
                println!("{game}: pentanomial {:?}", d.pentanomial());
                rows.push(user_duel::row(game, &o.first, &o.second, &d));
            }
            Err(e) => {
                eprintln!("peer_games: {e}");
                return ExitCode::from(2);
            }
        }
    }
    println!("{}", user_duel::HEADER);
    for r in rows {
        println!("{r}");
    }
    ExitCode::SUCCESS
}
