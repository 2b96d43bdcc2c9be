//! Matches for Chexers until `arena match` covers them: an engine against two reference
//! opponents, or three engine settings against each other, seats rotated.
//!
//! ```text
//! cargo run --release -p benches --example chexers_matches -- [OPTIONS]
//!   --games N            games (default 30)
//!   --movetime MS        engine time per move (default 100)
//!   --depth D            fixed depth instead of time
//!   --nodes N            fixed node budget per move instead of time
//!   --algo A             paranoid | brs | maxn | engine (default engine = engine_config())
//!   --vs greedy|random   the two opponents (default greedy)
//!   --tournament         paranoid vs brs vs maxn, all six seat orders in turn
//!   --algos A,B,C        the tournament's three seats' algorithms (repeats allowed)
//!   --seed S             seed of the opponents (default 1)
//!   --weights W          evaluation weights: step,missing,spare,threat,threat_next,mobility,against_best
//!   --random-plies N     random opening plies (default 3)
//!   --q | --noq          quiescence search on or off (default: engine_config())
//!   --quiet              only the summary
//! ```
//! In the one-engine mode the engine takes seat `game % 3` (Red, Green, Blue in turn) and the
//! two opponents the others, each with its own seed.

use plyforge::chexers;
use std::time::{Duration, Instant};

use chexers::players::{Agent, Greedy, Random};
use chexers::search::{Algorithm, Config, Game, Limits, Outcome, Record, Search};
use chexers::{engine_config, player_letter, DefaultEval, Move, Position, Weights};
use plyforge::search::rng::XorShift64Star;

#[derive(Clone, Copy)]
enum Opp {
    Greedy,
    Random,
}

struct Opts {
    games: usize,
    movetime: u64,
    depth: Option<u32>,
    nodes: Option<u64>,
    algo: Option<Algorithm>,
    vs: Opp,
    tournament: bool,
    algos: [Algorithm; 3],
    quiescence: bool,
    seed: u64,
    quiet: bool,
    random_plies: usize,
    eval: DefaultEval,
    trace: Option<u64>,
}

fn parse_algo(s: &str) -> Option<Algorithm> {
    match s {
        "paranoid" => Some(Algorithm::Paranoid),
        "brs" => Some(Algorithm::BestReply),
        "maxn" => Some(Algorithm::MaxN),
        "engine" => None,
        other => panic!("unknown algorithm {other}"),
    }
}

fn opts() -> Opts {
    let mut o = Opts {
        games: 30,
        movetime: 100,
        depth: None,
        nodes: None,
        algo: None,
        vs: Opp::Greedy,
        tournament: false,
        algos: [Algorithm::Paranoid, Algorithm::BestReply, Algorithm::MaxN],
        quiescence: engine_config().quiescence,
        seed: 1,
        quiet: false,
        random_plies: 3,
        eval: DefaultEval::default(),
        trace: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = || args.get(i + 1).cloned().expect("a value");
        match args[i].as_str() {
            "--games" => o.games = val().parse().unwrap(),
            "--movetime" => o.movetime = val().parse().unwrap(),
            "--depth" => o.depth = Some(val().parse().unwrap()),
            "--nodes" => o.nodes = Some(val().parse().unwrap()),
            "--algo" => o.algo = parse_algo(&val()),
            "--vs" => {
                o.vs = match val().as_str() {
                    "greedy" => Opp::Greedy,
                    "random" => Opp::Random,
                    other => panic!("unknown opponent {other}"),
                }
            }
            "--seed" => o.seed = val().parse().unwrap(),
            "--weights" => {
                let w: Vec<i32> = val().split(',').map(|x| x.parse().unwrap()).collect();
                o.eval = DefaultEval::with_weights(Weights {
                    step: w[0],
                    missing_steps: w[1],
                    spare: w[2],
                    threatened: w[3],
                    threatened_next: w[4],
                    mobility: w[5],
                    against_best: w[6] != 0,
                    ..Weights::default()
                });
            }
            "--algos" => {
                let v: Vec<Algorithm> = val()
                    .split(',')
                    .map(|a| parse_algo(a).expect("an algorithm"))
                    .collect();
                o.algos = [v[0], v[1], v[2]];
                o.tournament = true;
            }
            "--trace" => o.trace = Some(val().parse().unwrap()),
            "--random-plies" => o.random_plies = val().parse().unwrap(),
            "--tournament" => {
                o.tournament = true;
                i += 1;
                continue;
            }
            "--noq" | "--q" => {
                o.quiescence = args[i] == "--q";
                i += 1;
                continue;
            }
            "--quiet" => {
                o.quiet = true;
                i += 1;
                continue;
            }
            other => panic!("unknown option {other}"),
        }
        i += 2;
    }
    o
}

fn config(o: &Opts, algo: Option<Algorithm>) -> Config {
    let mut c = engine_config();
    c.quiescence = o.quiescence;
    if let Some(a) = algo {
        c.algorithm = a;
    }
    c
}

enum Seat {
    Engine(Box<Search<Position, DefaultEval>>),
    Other(Box<dyn Agent>),
}

fn limits(o: &Opts) -> Limits {
    match (o.depth, o.nodes) {
        (Some(d), _) => Limits::depth(d),
        (None, Some(n)) => Limits::nodes(n),
        _ => Limits::movetime(Duration::from_millis(o.movetime)),
    }
}

fn play(seats: &mut [Seat; 3], o: &Opts, opening_seed: u64) -> (Outcome, usize) {
    let mut rec = Record::new(Position::start());
    let mut rng = XorShift64Star::seeded(opening_seed);
    while rec.result().is_none() {
        let pos = rec.position().clone();
        let mv: Move = if rec.moves().len() < o.random_plies {
            let moves = rec.legal_moves();
            moves[rng.below(moves.len())]
        } else {
            match &mut seats[pos.to_move()] {
                Seat::Engine(s) => s
                    .run(&pos, rec.history_keys(), limits(o), |_| {})
                    .best
                    .expect("a move"),
                Seat::Other(a) => a.choose(&pos).expect("a move"),
            }
        };
        if o.trace == Some(opening_seed) {
            println!("{pos}  ->  {mv}");
        }
        rec.play(mv).expect("legal");
    }
    (rec.result().unwrap(), rec.moves().len())
}

fn main() {
    let o = opts();
    let start = Instant::now();
    if o.tournament {
        tournament(&o);
    } else {
        versus(&o);
    }
    eprintln!("elapsed {:.1}s", start.elapsed().as_secs_f64());
}

fn versus(o: &Opts) {
    let (mut wins, mut losses, mut draws, mut turns) = (0, 0, 0, 0);
    let mut by_seat = [[0usize; 2]; 3];
    for g in 0..o.games {
        let seat = g % 3;
        let make = |k: u64| -> Seat {
            let seed = o.seed * 1_000_003 + g as u64 * 7 + k;
            Seat::Other(match o.vs {
                Opp::Greedy => Box::new(Greedy::new(seed)),
                Opp::Random => Box::new(Random::new(seed)),
            })
        };
        let mut seats = [make(0), make(1), make(2)];
        seats[seat] = Seat::Engine(Box::new(Search::new(config(o, o.algo), o.eval)));
        let (result, n) = play(&mut seats, o, o.seed * 31 + g as u64);
        turns += n;
        let text = match result {
            Outcome::Win(p) if p == seat => {
                wins += 1;
                by_seat[seat][0] += 1;
                "win"
            }
            Outcome::Win(_) => {
                losses += 1;
                "loss"
            }
            _ => {
                draws += 1;
                "draw"
            }
        };
        by_seat[seat][1] += 1;
        if !o.quiet {
            println!(
                "game {g:3}: engine {} {text} ({result:?}) in {n} turns",
                player_letter(seat)
            );
        }
    }
    println!(
        "engine {:?} {} vs 2 {}: {} games, {} wins ({:.1}%), {} losses, {} draws, mean {:.0} turns; wins by seat r {}/{} g {}/{} b {}/{}",
        config(o, o.algo).algorithm,
        budget(o),
        match o.vs {
            Opp::Greedy => "greedy",
            Opp::Random => "random",
        },
        o.games,
        wins,
        100.0 * wins as f64 / o.games as f64,
        losses,
        draws,
        turns as f64 / o.games as f64,
        by_seat[0][0],
        by_seat[0][1],
        by_seat[1][0],
        by_seat[1][1],
        by_seat[2][0],
        by_seat[2][1],
    );
}

fn budget(o: &Opts) -> String {
    match (o.depth, o.nodes) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(n)) => format!("{n} nodes/move"),
        _ => format!("{} ms/move", o.movetime),
    }
}

fn tournament(o: &Opts) {
    let algos = o.algos;
    let orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut wins = [0usize; 3];
    let mut seats = [0usize; 3];
    let mut played = std::collections::HashMap::new();
    let mut draws = 0;
    for g in 0..o.games {
        let order = orders[g % 6];
        for &a in &order {
            seats[a] += 1;
        }
        // The same opening for the six seatings of a cycle; seatings that put the same
        // algorithms in the same seats (repeated algorithms) replay identically, so reuse.
        let seating = order.map(|a| algos[a]);
        let (result, n) = match played.get(&(g / 6, seating)) {
            Some(&r) => r,
            None => {
                let mut engines = order.map(|a| {
                    Seat::Engine(Box::new(Search::new(config(o, Some(algos[a])), o.eval)))
                });
                let r = play(&mut engines, o, o.seed * 31 + (g / 6) as u64);
                played.insert((g / 6, seating), r);
                r
            }
        };
        let text = match result {
            Outcome::Win(p) => {
                wins[order[p]] += 1;
                format!("{:?} wins as {}", algos[order[p]], player_letter(p))
            }
            other => {
                draws += 1;
                format!("{other:?}")
            }
        };
        if !o.quiet {
            println!(
                "game {g:3}: r={:?} g={:?} b={:?}: {text} in {n} turns",
                algos[order[0]], algos[order[1]], algos[order[2]]
            );
        }
    }
    // Wins per algorithm (an algorithm given twice owns both entries' seats and wins).
    let mut names: Vec<(Algorithm, usize, usize)> = Vec::new();
    for i in 0..3 {
        match names.iter_mut().find(|e| e.0 == algos[i]) {
            Some(e) => {
                e.1 += wins[i];
                e.2 += seats[i];
            }
            None => names.push((algos[i], wins[i], seats[i])),
        }
    }
    let table: Vec<String> = names
        .iter()
        .map(|(a, w, s)| {
            format!(
                "{a:?} {w} wins in {s} seats ({:.1}% per seat)",
                100.0 * *w as f64 / *s as f64
            )
        })
        .collect();
    println!(
        "tournament {} games ({}): {}, {} draws",
        o.games,
        budget(o),
        table.join(", "),
        draws
    );
}
