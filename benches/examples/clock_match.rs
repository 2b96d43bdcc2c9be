//! One engine specification against one or two opponents, seats rotated, openings varied,
//! per move or on a game clock: the strength figures of Chexers (issue 20) and Throne.
//!
//! ```text
//! cargo run --release -p benches --example clock_match -- [OPTIONS]
//!   --game G            chexers (default), throne, jumpy3, chaosclock
//!   --engine SPEC       the candidate (default: the game's engine)
//!   --vs SPEC           an opponent (repeat for a second one; Chexers default:
//!                       brs,depth=3,eval=greedy and maxn,depth=3,eval=greedy)
//!   --games N           games (default 60)
//!   --movetime MS       time per move of specs without a limit of their own (default 100)
//!   --clock SECS        the candidate thinks on a game clock of SECS instead (the game's
//!                       clock policy: GameAdapter::clock_limits)
//!   --clock-all         every spec without a limit of its own plays on that clock
//!   --opening N         random plies before each cycle of seatings (default: the game's)
//!   --seed S            seed of the openings and of the players (default 1)
//!   --shard K/N         play only the games g with g % N == K (run shards side by side)
//!   --record FILE       append each game's moves
//!   --weights K=V,...   Chexers: the candidate's evaluation weights changed from the default
//!                       (keys: the fields of `chexers::Weights`, e.g. contempt=0,hopeless=0)
//!   --quiet             only the summary
//! ```
//! Seatings: with two opponents A and B in a three-player game, each cycle of six games puts
//! the candidate in every seat with A and B in both orders; with one opponent, three games
//! (the candidate in each seat, the opponent in the other two); in a two-player game, two.
//! Every game of a cycle starts from the same opening. A player whose clock runs out loses
//! (counted as `timeout`).
//!
//! The summary line `RESULT` is for scripts: games, wins, draws (of them by repetition and
//! by the turn limit), losses, timeouts, the candidate's mean and largest thinking time per
//! game, and plies per game.

use std::fs::OpenOptions;
use std::io::Write;
use std::time::{Duration, Instant};

use plyforge::agent::{Agent, SearchEngine, Spec};
use plyforge::chexers::{DefaultEval, Weights};
use plyforge::games::{ChaosClock, Chexers, Jumpy3, Throne};
use plyforge::search::rng::XorShift64Star;
use plyforge::search::{DrawKind, Game, Limits, Outcome, Record};
use plyforge::{legal_moves, result_text, GameAdapter};

struct Opts {
    game: String,
    engine: String,
    vs: Vec<String>,
    games: usize,
    movetime: u64,
    clock: Option<f64>,
    clock_all: bool,
    opening: Option<usize>,
    seed: u64,
    shard: (usize, usize),
    record: Option<String>,
    weights: Option<String>,
    quiet: bool,
}

fn usage(msg: &str) -> ! {
    eprintln!("clock_match: {msg} (see the source's header for the options)");
    std::process::exit(2)
}

fn opts() -> Opts {
    let mut o = Opts {
        game: "chexers".into(),
        engine: "engine".into(),
        vs: Vec::new(),
        games: 60,
        movetime: 100,
        clock: None,
        clock_all: false,
        opening: None,
        seed: 1,
        shard: (0, 1),
        record: None,
        weights: None,
        quiet: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let mut val = || {
            i += 1;
            args.get(i)
                .cloned()
                .unwrap_or_else(|| usage(&format!("{flag} needs a value")))
        };
        fn num<T: std::str::FromStr>(flag: &str, v: String) -> T {
            v.parse()
                .unwrap_or_else(|_| usage(&format!("{flag} {v}: not a number")))
        }
        match flag {
            "--game" => o.game = val(),
            "--engine" => o.engine = val(),
            "--vs" => o.vs.push(val()),
            "--games" => o.games = num(flag, val()),
            "--movetime" => o.movetime = num(flag, val()),
            "--clock" => o.clock = Some(num(flag, val())),
            "--clock-all" => o.clock_all = true,
            "--opening" => o.opening = Some(num(flag, val())),
            "--seed" => o.seed = num(flag, val()),
            "--record" => o.record = Some(val()),
            "--weights" => o.weights = Some(val()),
            "--shard" => {
                let v = val();
                let (k, n) = v.split_once('/').unwrap_or_else(|| usage("--shard K/N"));
                o.shard = (num(flag, k.to_string()), num(flag, n.to_string()));
                if o.shard.1 == 0 || o.shard.0 >= o.shard.1 {
                    usage("--shard K/N with K < N");
                }
            }
            "--quiet" => o.quiet = true,
            other => usage(&format!("unknown option {other}")),
        }
        i += 1;
    }
    o
}

/// The Chexers weights `K=V,...` changed from the default.
fn parse_weights(text: &str) -> Weights {
    Weights::default()
        .with_settings(text, ',')
        .unwrap_or_else(|e| usage(&format!("--weights {text}: {e}")))
}

/// The seatings of one cycle: for each game, the player (0 the candidate, 1.. the opponents)
/// in each seat.
fn seatings(players: usize, opponents: usize) -> Vec<Vec<usize>> {
    match (players, opponents) {
        (2, 1) => vec![vec![0, 1], vec![1, 0]],
        (3, 1) => vec![vec![0, 1, 1], vec![1, 0, 1], vec![1, 1, 0]],
        (3, 2) => vec![
            vec![0, 1, 2],
            vec![0, 2, 1],
            vec![1, 0, 2],
            vec![2, 0, 1],
            vec![1, 2, 0],
            vec![2, 1, 0],
        ],
        _ => usage("two-player games take one --vs, three-player games one or two"),
    }
}

#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
    repetitions: u32,
    turn_limits: u32,
    losses: u32,
    timeouts: u32,
    both_win: u32,
    both_lose: u32,
    think: Duration,
    think_max: Duration,
    plies: usize,
}

/// Plays the match and prints its games and summary.
///
/// Long by design: a straight script (seatings, openings, the players of each game, the
/// game loop with its clocks, the tallies and the summary lines) over one set of counters.
fn run<A: GameAdapter>(o: &Opts) {
    let mut vs = o.vs.clone();
    if vs.is_empty() {
        vs = if A::PLAYERS == 3 {
            vec![
                "brs,depth=3,eval=greedy".into(),
                "maxn,depth=3,eval=greedy".into(),
            ]
        } else {
            vec!["engine".into()]
        };
    }
    let mut specs = vec![Spec::parse::<A>(&o.engine).unwrap_or_else(|e| usage(&e.to_string()))];
    for v in &vs {
        specs.push(Spec::parse::<A>(v).unwrap_or_else(|e| usage(&e.to_string())));
    }
    // The candidate's evaluation with other weights (Chexers' evaluation only).
    let candidate_eval = o.weights.as_deref().map(|text| {
        let mut eval = specs[0].evaluator::<A>();
        let any: &mut dyn std::any::Any = &mut eval;
        match any.downcast_mut::<DefaultEval>() {
            Some(d) => *d = DefaultEval::with_weights(parse_weights(text)),
            None => usage("--weights: the candidate's evaluation is not Chexers' DefaultEval"),
        }
        eval
    });
    let cycle = seatings(A::PLAYERS, vs.len());
    let opening = o.opening.unwrap_or_else(A::default_opening_plies);
    let movetime = Limits::movetime(Duration::from_millis(o.movetime.max(1)));
    let clock = o.clock.map(Duration::from_secs_f64);
    let mut record_file = o.record.as_ref().map(|p| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .unwrap_or_else(|e| usage(&format!("--record {p}: {e}")))
    });
    println!(
        "{} | candidate {}{} | vs {} | {} | opening {} plies | seed {} | shard {}/{}",
        A::TITLE,
        specs[0].text,
        match &o.weights {
            Some(w) => format!(" weights {w}"),
            None => String::new(),
        },
        vs.join(" + "),
        match clock {
            Some(c) if o.clock_all => format!("{:.0} s clock each", c.as_secs_f64()),
            Some(c) => format!("candidate on a {:.0} s clock", c.as_secs_f64()),
            None => format!("{} ms per move", o.movetime),
        },
        opening,
        o.seed,
        o.shard.0,
        o.shard.1
    );
    let mut t = Tally::default();
    let started = Instant::now();
    for g in (0..o.games).filter(|g| g % o.shard.1 == o.shard.0) {
        let round = g / cycle.len();
        let seating = &cycle[g % cycle.len()];
        let start = A::random_start(o.seed.wrapping_add(round as u64)).unwrap_or_else(A::start);
        let mut record = Record::<A::Pos>::new(start);
        let mut rng = XorShift64Star::seeded(o.seed.wrapping_mul(1_000_003) ^ round as u64);
        for _ in 0..opening {
            let moves: Vec<A::Move> = legal_moves(record.position())
                .into_iter()
                .filter(|&m| matches!(record.clone().play(m), Ok(None)))
                .collect();
            if moves.is_empty() {
                break;
            }
            record
                .play(moves[rng.below(moves.len())])
                .expect("a legal opening move");
        }
        let game_seed = o.seed.wrapping_mul(7919).wrapping_add(g as u64 * 3);
        let on_clock = |who: usize| clock.is_some() && (who == 0 || o.clock_all);
        let mut agents: Vec<Agent<A>> = seating
            .iter()
            .enumerate()
            .map(|(seat, &who)| {
                let fallback = if on_clock(who) {
                    Limits::default()
                } else {
                    movetime
                };
                let seed = game_seed + seat as u64;
                let mut agent = Agent::new(&specs[who], fallback, Some(1), seed);
                if let (0, Some(eval), Agent::Search { engine, .. }) =
                    (who, &candidate_eval, &mut agent)
                {
                    let mut config = specs[0].config::<A>(Some(1));
                    config.mcts.seed = specs[0].seed.unwrap_or(seed);
                    **engine = SearchEngine::new(config, eval.clone());
                }
                agent
            })
            .collect();
        let mut left = vec![clock.unwrap_or_default(); A::PLAYERS];
        let mut used = vec![Duration::ZERO; A::PLAYERS];
        let mut timeout: Option<usize> = None;
        while record.result().is_none() {
            let seat = record.position().to_move();
            let who = seating[seat];
            let t0 = Instant::now();
            let mv = if on_clock(who) && !specs[who].has_limit() {
                if left[seat].is_zero() {
                    timeout = Some(seat);
                    break;
                }
                let limits = A::clock_limits(record.position(), left[seat]);
                match &mut agents[seat] {
                    Agent::Search { engine, .. } => engine.think(&record, limits, |_| {}).best,
                    other => other.choose(&record, |_| {}).0,
                }
            } else {
                agents[seat].choose(&record, |_| {}).0
            };
            let spent = t0.elapsed();
            used[seat] += spent;
            if on_clock(who) {
                if spent >= left[seat] {
                    timeout = Some(seat);
                    break;
                }
                left[seat] -= spent;
            }
            let mv = mv
                .or_else(|| record.legal_moves().first().copied())
                .expect("a move while the game goes on");
            record.play(mv).expect("engines play legal moves");
        }
        // The candidate's seat(s).
        let mine: Vec<usize> = (0..A::PLAYERS).filter(|&s| seating[s] == 0).collect();
        let think: Duration = mine.iter().map(|&s| used[s]).sum();
        t.games += 1;
        t.plies += record.moves().len();
        t.think += think;
        t.think_max = t.think_max.max(think);
        let result = record.result();
        let text = match (timeout, result) {
            (Some(seat), _) => {
                if seating[seat] == 0 {
                    t.timeouts += 1;
                    t.losses += 1;
                } else {
                    t.wins += 1;
                }
                format!("timeout {}", A::player_letter(seat))
            }
            (None, Some(r)) => {
                match r {
                    Outcome::Win(p) if seating[p] == 0 => t.wins += 1,
                    Outcome::Win(_) => t.losses += 1,
                    Outcome::Draw(kind) => {
                        t.draws += 1;
                        match kind {
                            DrawKind::Repetition => t.repetitions += 1,
                            DrawKind::TurnLimit => t.turn_limits += 1,
                            _ => {}
                        }
                    }
                    Outcome::BothWin => t.both_win += 1,
                    Outcome::BothLose => t.both_lose += 1,
                    _ => t.draws += 1,
                }
                result_text::<A>(r)
            }
            (None, None) => unreachable!("the loop ends with a result or a timeout"),
        };
        let seats: String = seating
            .iter()
            .enumerate()
            .map(|(s, &w)| format!("{}={}", A::player_letter(s), w))
            .collect::<Vec<_>>()
            .join(" ");
        if !o.quiet {
            println!(
                "game {:>3} seats {seats}  {:<16} {:>4} plies  candidate {:>6.2} s",
                g + 1,
                text,
                record.moves().len(),
                think.as_secs_f64()
            );
        }
        if let Some(f) = record_file.as_mut() {
            let mut line = format!(
                "# game {} | seats {seats} | result: {text} | start: {}\n",
                g + 1,
                record.start()
            );
            for m in record.moves() {
                line.push_str(&format!("{m}\n"));
            }
            let _ = f.write_all(line.as_bytes());
        }
    }
    let n = t.games.max(1);
    println!(
        "RESULT games {} wins {} draws {} (repetition {} turns {}) losses {} timeouts {}{} | win rate {:.1}% | candidate think mean {:.2} s max {:.2} s per game | {:.0} plies per game | {:.0} s",
        t.games,
        t.wins,
        t.draws,
        t.repetitions,
        t.turn_limits,
        t.losses,
        t.timeouts,
        if t.both_win + t.both_lose > 0 {
            format!(" both-win {} both-lose {}", t.both_win, t.both_lose)
        } else {
            String::new()
        },
        100.0 * t.wins as f64 / n as f64,
        t.think.as_secs_f64() / n as f64,
        t.think_max.as_secs_f64(),
        t.plies as f64 / n as f64,
        started.elapsed().as_secs_f64()
    );
}

fn main() {
    let o = opts();
    match o.game.as_str() {
        "chexers" => run::<Chexers>(&o),
        "throne" => run::<Throne>(&o),
        "jumpy3" => run::<Jumpy3>(&o),
        "chaosclock" => run::<ChaosClock>(&o),
        other => usage(&format!("unknown game {other}")),
    }
}
