//! The comparison on the benchmark games a user would write (Connect Four, 6×6 Othello): this
//! engine at its defaults (`Config::default()`, the evaluation through `SideToMove`), the
//! `minimax` crate at its defaults (`IterativeOptions::new()`), both with a
//! [`TABLE_MIB`] MiB table, and the plain hand-written alpha-beta of `benches::plain`, each to
//! a fixed depth on each position of the game's list. Shared by the example `user_games` and
//! the report of `cargo xtask bench` (`#[path]`-included: `minimax` is a dev-dependency).

#![allow(dead_code)]

use std::fmt::Write as _;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use benches::measure::{fmt_duration, measure};
use benches::plain::{same_value, Plain};
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
    /// Changes to `Config::default()` (`key=value`: ordering, quiescence, aspiration, tt).
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

    fn engine_config(&self, threads: usize) -> Config {
        let mut c = Config::default()
            .with_threads(threads)
            .with_tt_mib(TABLE_MIB);
        for (k, v) in &self.config {
            let on = v == "true" || v == "on" || v == "1";
            c = match k.as_str() {
                "ordering" => c.with_ordering(on),
                "quiescence" => c.with_quiescence(on),
                "aspiration" => c.with_aspiration(on),
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
}

fn time_ours<G: PeerGame, E: SideToMoveEval<G> + Copy + 'static>(
    opts: &Opts,
    pos: &G,
    eval: E,
    depth: u32,
    threads: usize,
) -> (Duration, Vec<i32>, u64) {
    let (t, r) = measure(
        opts.runs,
        || {
            let mut s = Search::new(opts.engine_config(threads), SideToMove(eval));
            s.analyse(pos, Limits::depth(1));
            s.clear();
            s
        },
        |s| s.analyse(pos, Limits::depth(depth)),
    );
    (
        t.min(),
        r.iter().map(|r| r.score).collect(),
        r.first().map_or(0, |r| r.nodes),
    )
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

fn compare<G: PeerGame + 'static, E: SideToMoveEval<G> + Copy + 'static>(
    opts: &Opts,
    game: &UserGame<G, E>,
    rep: &mut Report,
) {
    let options = || IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20);
    for (label, pos, full, quick) in &game.cases {
        let depth = if opts.quick { *quick } else { *full };
        let mut row = Row {
            game: game.name,
            label: label.clone(),
            depth,
            ..Row::default()
        };
        let (t1, v1, n1) = time_ours(opts, pos, game.eval, depth, 1);
        let (t2, v2, _) = time_ours(opts, pos, game.eval, depth, 2);
        row.times[0] = t1;
        row.times[1] = t2;
        row.nodes[0] = n1;
        row.values.push(("ours 1t".into(), v1[0]));
        let mut agree = v1.iter().chain(&v2).all(|&v| v == v1[0]);
        if !v2.is_empty() {
            row.values.push(("ours 2t".into(), v2[0]));
        }
        if !opts.ours_only {
            let (tp, rp) = measure(
                opts.runs,
                || Plain::new(|p: &G| game.eval.evaluate(p), 16),
                |s| {
                    let v = s.search(pos, depth).0;
                    (v, s.nodes)
                },
            );
            row.times[4] = tp.min();
            row.nodes[2] = rp[0].1;
            row.values.push(("plain".into(), rp[0].0));
            agree &= rp.iter().all(|r| r.0 == v1[0]);
            let (ti, vi) = measure(
                opts.runs,
                || {
                    let mut s = IterativeSearch::new(Eval::<G, false>::default(), options());
                    s.set_max_depth(depth as u8);
                    s
                },
                |s| peer_value(s, pos, |s| s.root_value()),
            );
            let (tpar, vpar) = measure(
                opts.runs,
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
            row.times[2] = ti.min();
            row.times[3] = tpar.min();
            for (who, vals) in [("IterativeSearch", &vi), ("ParallelSearch", &vpar)] {
                for v in vals.iter() {
                    match v {
                        Some(v) => agree &= same_value(*v, v1[0]),
                        None => rep
                            .errors
                            .push(format!("{} {label}: the peer's {who} panicked", game.name)),
                    }
                }
                if let Some(Some(v)) = vals.first() {
                    row.values.push((who.into(), *v));
                }
            }
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
                let mut s = Search::new(opts.engine_config(threads), SideToMove(game.eval));
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
    }
}

/// The 6×6 Othello cases: `benches/data/othello.txt` with their depths.
pub fn othello() -> UserGame<benches::othello::Othello, benches::othello::OthelloEval> {
    UserGame {
        name: "othello",
        cases: benches::data::othello()
            .into_iter()
            .map(|e| (e.label, e.position, 13, 6))
            .collect(),
        eval: benches::othello::OthelloEval,
    }
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
             minimax 1t | plain 1t | minimax/ours | plain/ours | ours 2t | minimax 2t | \
             ours 1t/2t | minimax 2t/ours 2t | values |"
        );
        let _ = writeln!(md, "|{}", "---|".repeat(16));
        for r in &self.rows {
            let t = &r.times;
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {} | {:.2} | {:.2} | {} |",
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
