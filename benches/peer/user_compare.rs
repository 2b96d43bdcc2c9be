//! The comparison on the benchmark games a user would write (Connect Four, 6×6 Othello, 6×6
//! Breakthrough): this engine at its defaults (`Config::default()`, the evaluation through
//! `SideToMove`; for a game with noisy moves, quiescence off, as the others have none), the
//! `minimax` crate at its defaults (`IterativeOptions::new()`), both with a
//! [`TABLE_MIB`] MiB table, and the plain hand-written alpha-beta of `benches::plain`, each to
//! a fixed depth on each position of the game's list. Part of
//! the report of `cargo xtask bench` (`#[path]`-included, as the peer modules are).

#![allow(dead_code)]

use std::fmt::Write as _;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use benches::measure::{fmt_duration, fmt_rate, measure};
use benches::plain::{same_value, Plain};
use example_games::breakthrough::{Breakthrough, BreakthroughEval};
use example_games::othello::{Othello, OthelloEval};
use minimax::{IterativeOptions, IterativeSearch, ParallelOptions, ParallelSearch, Strategy};
use plyforge::search::{Config, Limits, Search, SideToMove, SideToMoveEval};

use crate::user_peer::{applied, peer_to_engine, Eval, PeerGame};

/// Table size of every side, MiB.
pub const TABLE_MIB: usize = 64;

/// What to run.
#[derive(Clone, Debug, Default)]
pub struct Opts {
    /// Timed runs of each search (the fastest counts).
    pub runs: usize,
    /// Small depths (CI's smoke test).
    pub quick: bool,
    /// Only this game.
    pub game: Option<String>,
    /// Only this engine (no peer, no plain search): for trying settings.
    pub ours_only: bool,
    /// Changes to `Config::default()` (`key=value`: ordering, quiescence, aspiration,
    /// killers, tt).
    pub config: Vec<(String, String)>,
    /// Also the total nodes to the depth at 1, 2, 4, 8 and 16 threads.
    pub overhead: bool,
}

impl Opts {
    /// Parses `--runs N`, `--quick`, `--game NAME`, `--ours-only`, `--config K=V,...`,
    /// `--overhead`.
    pub fn parse(args: &[String]) -> Result<Opts, String> {
        let mut o = Opts {
            runs: 3,
            ..Opts::default()
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--runs" => {
                    let v = it.next().ok_or("--runs needs a count")?;
                    o.runs = v
                        .parse()
                        .map_err(|_| format!("--runs: {v:?} is not a count"))?;
                }
                "--quick" => o.quick = true,
                "--overhead" => o.overhead = true,
                "--ours-only" => o.ours_only = true,
                "--game" => o.game = Some(it.next().ok_or("--game needs a name")?.clone()),
                "--config" => {
                    for kv in it.next().ok_or("--config needs KEY=VALUE,...")?.split(',') {
                        let (k, v) = kv
                            .split_once('=')
                            .ok_or(format!("--config: {kv:?} is not KEY=VALUE"))?;
                        o.config.push((k.to_string(), v.to_string()));
                    }
                }
                "--bench" => {}
                other => return Err(format!("unknown option {other:?}")),
            }
        }
        Ok(o)
    }

    fn engine_config(&self, threads: usize, quiescence: bool) -> Config {
        let mut c = Config::default()
            .with_threads(threads)
            .with_tt_mib(TABLE_MIB)
            .with_quiescence(quiescence);
        for (k, v) in &self.config {
            let on = v == "true" || v == "on" || v == "1";
            c = match k.as_str() {
                "ordering" => c.with_ordering(on),
                "quiescence" => c.with_quiescence(on),
                "aspiration" => c.with_aspiration(on),
                "killers" => c.with_killers(on),
                "tt" => c.with_tt_mib(v.parse().unwrap_or(TABLE_MIB)),
                _ => c,
            };
        }
        c
    }
}

/// One position of one game at one depth, measured every way.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// The game.
    pub game: &'static str,
    /// The position's label.
    pub label: String,
    /// The depth.
    pub depth: u32,
    /// Nodes: ours (1 thread), the peer's `IterativeSearch` (moves applied), the plain search.
    pub nodes: [u64; 3],
    /// Fastest times: ours 1t, ours 2t, IterativeSearch, ParallelSearch 2t, plain.
    pub times: [Duration; 5],
    /// Root values, each from the side to move's view (engine scale; the peer's wins as ±MATE).
    pub values: Vec<(String, i32)>,
}

/// Everything measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One row per position.
    pub rows: Vec<Row>,
    /// The total nodes of ours to each game's depth at 1, 2, 4, 8, 16 threads.
    pub overhead: Vec<(&'static str, Vec<(usize, u64)>)>,
    /// Values that disagree.
    pub errors: Vec<String>,
    /// Whether the peer and the plain search ran.
    pub ours_only: bool,
}

/// A game of the comparison.
pub struct UserGame<G, E> {
    /// Its name.
    pub name: &'static str,
    /// Positions with their depths (full mode, quick mode).
    pub cases: Vec<(String, G, u32, u32)>,
    /// The evaluation.
    pub eval: E,
    /// Whether this engine searches quiescence here: off for a game with noisy moves, whose
    /// fixed-depth value with it is not the plain minimax value the others compute.
    pub quiescence: bool,
}

/// One timed search of this engine (its table allocated and touched before the clock
/// starts): the time, the root value and the nodes.
fn time_ours<G: PeerGame, E: SideToMoveEval<G> + Copy + 'static>(
    opts: &Opts,
    game: &UserGame<G, E>,
    pos: &G,
    depth: u32,
    threads: usize,
) -> (Duration, i32, u64) {
    let (t, r) = measure(
        1,
        || {
            let config = opts.engine_config(threads, game.quiescence);
            let mut s = Search::new(config, SideToMove(game.eval));
            s.analyse(pos, Limits::depth(1));
            s.clear();
            s
        },
        |s| s.analyse(pos, Limits::depth(depth)),
    );
    (t.min(), r[0].score, r[0].nodes)
}

/// Runs the peer's search, its value on the engine's scale (`None` if it panicked: its
/// `ParallelSearch` may, when the root's table entry is overwritten).
fn peer_value<S: Strategy<crate::user_peer::Rules<G, false>>, G: PeerGame>(
    s: &mut S,
    pos: &G,
    value: impl Fn(&S) -> minimax::Evaluation,
) -> Option<i32> {
    std::panic::catch_unwind(AssertUnwindSafe(|| {
        s.choose_move(pos);
        peer_to_engine(value(s))
    }))
    .ok()
}

/// The programs of a row, in the order of [`Row::times`].
const PROGRAMS: [&str; 5] = [
    "ours 1t",
    "ours 2t",
    "IterativeSearch",
    "ParallelSearch",
    "plain",
];

/// One timed search of program `k` of [`PROGRAMS`]: the time, the value (`None`: the peer
/// panicked) and the nodes where the program counts them.
fn time_one<G: PeerGame + 'static, E: SideToMoveEval<G> + Copy + 'static>(
    opts: &Opts,
    game: &UserGame<G, E>,
    pos: &G,
    depth: u32,
    k: usize,
) -> (Duration, Option<i32>, Option<u64>) {
    let options = || IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20);
    match k {
        0 | 1 => {
            let (t, v, n) = time_ours(opts, game, pos, depth, k + 1);
            (t, Some(v), Some(n))
        }
        2 => {
            let (t, v) = measure(
                1,
                || {
                    let mut s = IterativeSearch::new(Eval::<G, false>::default(), options());
                    s.set_max_depth(depth as u8);
                    s
                },
                |s| peer_value(s, pos, |s| s.root_value()),
            );
            (t.min(), v[0], None)
        }
        3 => {
            let (t, v) = measure(
                1,
                || {
                    let mut s = ParallelSearch::new(
                        Eval::<G, false>::default(),
                        options(),
                        ParallelOptions::new().with_num_threads(2),
                    );
                    s.set_max_depth(depth as u8);
                    s
                },
                |s| peer_value(s, pos, |s| s.root_value()),
            );
            (t.min(), v[0], None)
        }
        _ => {
            let eval = game.eval;
            let (t, r) = measure(
                1,
                || Plain::new(move |p: &G| eval.evaluate(p), 16),
                |s| {
                    let v = s.search(pos, depth).0;
                    (v, s.nodes)
                },
            );
            (t.min(), Some(r[0].0), Some(r[0].1))
        }
    }
}

fn compare<G: PeerGame + 'static, E: SideToMoveEval<G> + Copy + 'static>(
    opts: &Opts,
    game: &UserGame<G, E>,
    rep: &mut Report,
) {
    let options = || IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20);
    let programs = if opts.ours_only { 2 } else { PROGRAMS.len() };
    for (label, pos, full, quick) in &game.cases {
        let depth = if opts.quick { *quick } else { *full };
        let mut row = Row {
            game: game.name,
            label: label.clone(),
            depth,
            ..Row::default()
        };
        // The programs in turn, round after round, so that load from other processes
        // falls on all of them alike; the fastest run of each counts.
        let mut times = [Duration::MAX; 5];
        let mut values: Vec<Vec<Option<i32>>> = vec![Vec::new(); PROGRAMS.len()];
        for _ in 0..opts.runs.max(1) {
            for k in 0..programs {
                let (t, v, n) = time_one(opts, game, pos, depth, k);
                times[k] = times[k].min(t);
                values[k].push(v);
                match (k, n) {
                    (0, Some(n)) => row.nodes[0] = n,
                    (4, Some(n)) => row.nodes[2] = n,
                    _ => {}
                }
            }
        }
        row.times = times.map(|t| {
            if t == Duration::MAX {
                Duration::ZERO
            } else {
                t
            }
        });
        let want = values[0][0].expect("this engine's value");
        let mut agree = true;
        for (k, vals) in values.iter().enumerate() {
            for v in vals {
                match v {
                    Some(v) => agree &= same_value(*v, want),
                    None => rep.errors.push(format!(
                        "{} {label}: the peer's {} panicked",
                        game.name, PROGRAMS[k]
                    )),
                }
            }
            if let Some(Some(v)) = vals.first() {
                row.values.push((PROGRAMS[k].into(), *v));
            }
        }
        if !opts.ours_only {
            // The peer's nodes: one more run, untimed, counting the moves applied.
            row.nodes[1] = {
                let mut s = IterativeSearch::new(Eval::<G, true>::default(), options());
                s.set_max_depth(depth as u8);
                applied();
                s.choose_move(pos);
                applied()
            };
        }
        if !agree {
            rep.errors.push(format!(
                "{} {label} depth {depth}: the values differ: {:?}",
                game.name, row.values
            ));
        }
        rep.rows.push(row);
    }
    if opts.overhead {
        let mut totals = Vec::new();
        for threads in [1, 2, 4, 8, 16] {
            let mut total = 0;
            for (_, pos, full, quick) in &game.cases {
                let depth = if opts.quick { *quick } else { *full };
                let config = opts.engine_config(threads, game.quiescence);
                let mut s = Search::new(config, SideToMove(game.eval));
                total += s.analyse(pos, Limits::depth(depth)).nodes;
            }
            totals.push((threads, total));
        }
        rep.overhead.push((game.name, totals));
    }
}

/// The Connect Four cases: `benches/data/connect_four.txt` with their depths.
pub fn connect_four() -> UserGame<connect_four::Position, connect_four::DefaultEval> {
    let depths = |label: &str| match label {
        "start" => (14, 10),
        "opening" => (16, 10),
        _ => (18, 10),
    };
    UserGame {
        name: "connect_four",
        cases: benches::data::connect_four()
            .into_iter()
            .map(|e| {
                let (d, q) = depths(&e.label);
                (e.label, e.position, d, q)
            })
            .collect(),
        eval: connect_four::DefaultEval,
        quiescence: true,
    }
}

/// A game's cases from its list, every position at the depths `full` and `quick`.
fn listed<G, E>(
    name: &'static str,
    list: Vec<benches::data::Entry<G>>,
    (full, quick): (u32, u32),
    eval: E,
    quiescence: bool,
) -> UserGame<G, E> {
    UserGame {
        name,
        cases: list
            .into_iter()
            .map(|e| (e.label, e.position, full, quick))
            .collect(),
        eval,
        quiescence,
    }
}

/// The 6×6 Othello cases: `benches/data/othello.txt` with their depths.
pub fn othello() -> UserGame<Othello, OthelloEval> {
    let list = benches::data::othello();
    listed("othello", list, (13, 6), OthelloEval, true)
}

/// The 6×6 Breakthrough cases: `benches/data/breakthrough.txt` with their depths; this
/// engine without quiescence (the game's captures are its noisy moves).
pub fn breakthrough() -> UserGame<Breakthrough, BreakthroughEval> {
    let list = benches::data::breakthrough();
    listed("breakthrough", list, (10, 5), BreakthroughEval, false)
}

/// Runs the comparison.
pub fn run(opts: &Opts) -> Report {
    let mut rep = Report {
        ours_only: opts.ours_only,
        ..Report::default()
    };
    let wanted = |name: &str| opts.game.as_deref().map_or(true, |g| g == name);
    if wanted("connect_four") {
        compare(opts, &connect_four(), &mut rep);
    }
    if wanted("othello") {
        compare(opts, &othello(), &mut rep);
    }
    if wanted("breakthrough") {
        compare(opts, &breakthrough(), &mut rep);
    }
    rep
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

impl Report {
    /// Per game: the summed fastest times (ours 1t, ours 2t, minimax 1t, minimax 2t, plain)
    /// and the summed nodes (ours, minimax, plain).
    pub fn totals(&self) -> Vec<(&'static str, [Duration; 5], [u64; 3])> {
        let mut games: Vec<&'static str> = self.rows.iter().map(|r| r.game).collect();
        games.dedup();
        games
            .into_iter()
            .map(|g| {
                let rows: Vec<&Row> = self.rows.iter().filter(|r| r.game == g).collect();
                let t = |k: usize| rows.iter().map(|r| r.times[k]).sum::<Duration>();
                let n = |k: usize| rows.iter().map(|r| r.nodes[k]).sum::<u64>();
                (g, [t(0), t(1), t(2), t(3), t(4)], [n(0), n(1), n(2)])
            })
            .collect()
    }

    /// The tables.
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(
            md,
            "| game | position | depth | nodes ours | nodes minimax | nodes plain | ours 1t | \
             minimax 1t | plain 1t | minimax/ours | plain/ours | nodes/s ours | nodes/s plain | \
             ours 2t | minimax 2t | ours 1t/2t | minimax 2t/ours 2t | values |"
        );
        let _ = writeln!(md, "|{}", "---|".repeat(18));
        for r in &self.rows {
            let t = &r.times;
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {} | {} | {} | {:.2} | {:.2} | {} |",
                r.game,
                r.label,
                r.depth,
                r.nodes[0],
                r.nodes[1],
                r.nodes[2],
                fmt_duration(t[0]),
                fmt_duration(t[2]),
                fmt_duration(t[4]),
                ratio(t[2], t[0]),
                ratio(t[4], t[0]),
                fmt_rate(r.nodes[0] as f64 / t[0].as_secs_f64().max(1e-9)),
                fmt_rate(r.nodes[2] as f64 / t[4].as_secs_f64().max(1e-9)),
                fmt_duration(t[1]),
                fmt_duration(t[3]),
                ratio(t[0], t[1]),
                ratio(t[3], t[1]),
                r.values
                    .iter()
                    .map(|(w, v)| format!("{w} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        md.push('\n');
        let mut games: Vec<&str> = self.rows.iter().map(|r| r.game).collect();
        games.dedup();
        for g in games {
            let rows: Vec<&Row> = self.rows.iter().filter(|r| r.game == g).collect();
            let sum = |k: usize| rows.iter().map(|r| r.times[k]).sum::<Duration>();
            let nodes = |k: usize| rows.iter().map(|r| r.nodes[k]).sum::<u64>();
            let _ = writeln!(
                md,
                "- {g}, all positions: ours 1t {}, minimax 1t {} ({:.2}×), plain {} ({:.2}×); \
                 ours 2t {} (speedup {:.2}×), minimax 2t {} ({:.2}×); nodes ours {} / minimax {} / \
                 plain {}",
                fmt_duration(sum(0)),
                fmt_duration(sum(2)),
                ratio(sum(2), sum(0)),
                fmt_duration(sum(4)),
                ratio(sum(4), sum(0)),
                fmt_duration(sum(1)),
                ratio(sum(0), sum(1)),
                fmt_duration(sum(3)),
                ratio(sum(3), sum(1)),
                nodes(0),
                nodes(1),
                nodes(2)
            );
        }
        for (g, totals) in &self.overhead {
            let one = totals[0].1.max(1) as f64;
            let _ = writeln!(
                md,
                "- {g}, total nodes by threads: {}",
                totals
                    .iter()
                    .map(|(t, n)| format!("{t}: {n} ({:.2}×)", *n as f64 / one))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        md
    }
}
