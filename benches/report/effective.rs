//! The section `effective`: what a second thread buys at a clock, judged by games (the
//! effective speedup, as engine testers measure a chess engine's threads). For each game,
//! at one time per move `T`: two threads at `T` against one thread at `T`, and one thread at
//! `k·T` against one thread at `T` for a few factors `k`, every pairing from the same seeded
//! openings, each played twice with the colours swapped (`user_duel`); the effective
//! speedup is the `k` whose Elo equals the two threads' (`lab::speedup::effective`, with
//! the interval of both matches). The games: the three a user would write (Breakthrough,
//! Othello, Connect Four, with `Config::default()`), Throne and Chaos Clock (their engine
//! settings). Jumpy3's games are decided by the opening (the solved start) and Chexers has
//! three players, whose seats these pairings do not fill: `arena match` and `arena speedup`
//! measure them (the search README's recipe).
//!
//! The two threads take both cores of a 2-core machine: the games are played one at a
//! time, and other processes on the machine take from the threads first.

use std::fmt::Write as _;
use std::time::Duration;

use example_games::breakthrough::{Breakthrough, BreakthroughEval};
use example_games::othello::{Othello, OthelloEval};
use lab::elo::{elo, Elo};
use lab::speedup::{effective, TimeOdds};
use plyforge::games::{ChaosClock, Throne};
use plyforge::search::{Config, Evaluator, Game, SideToMove};
use plyforge::GameAdapter;

use crate::user_duel::{duel, openings, Duel, Ours};
use crate::{table, Report};

/// The factors of time against which the threads are read.
const FACTORS: [f64; 3] = [1.5, 2.0, 3.0];

/// Threads of the side whose speedup is measured.
const THREADS: usize = 2;

/// The games per pairing, the time per move and the factors of a run.
pub(crate) struct Run {
    /// Games per pairing (an even number: pairs).
    pub games: usize,
    /// Time per move of the side with one thread and the plain time.
    pub movetime: Duration,
    /// The factors of time measured.
    pub factors: Vec<f64>,
}

impl Run {
    /// The run of the report: 20 games a pairing at 100 ms and factors 1.5, 2 and 3 (quick:
    /// 2 games at 10 ms, the factor 2), unless `--effective-games N` says otherwise.
    pub fn new(quick: bool, games: Option<usize>) -> Self {
        Run {
            games: games.unwrap_or(if quick { 2 } else { 20 }),
            movetime: Duration::from_millis(if quick { 10 } else { 100 }),
            factors: if quick { vec![2.0] } else { FACTORS.to_vec() },
        }
    }
}

/// What one game's pairings gave: the threads' duel, each factor's, the speedup.
struct Measured {
    threads: Duel,
    odds: Vec<(f64, Duel)>,
}

/// The Elo of a duel's first player.
fn elo_of(d: &Duel) -> Option<Elo> {
    elo(d.wdl[0], d.wdl[1], d.wdl[2])
}

/// One game's pairings from `start` (openings of `plies` random plies), with `config` and
/// `eval`.
fn measure<G: Game + PartialEq, E: Evaluator<G> + Clone>(
    start: G,
    eval: E,
    config: &Config,
    plies: usize,
    run: &Run,
) -> Measured {
    let list = openings(&start, plies, run.games / 2, 1);
    let one =
        |time: Duration| Ours::with_config(config.clone().with_threads(1), eval.clone(), time);
    let mut threads = Ours::with_config(
        config.clone().with_threads(THREADS),
        eval.clone(),
        run.movetime,
    );
    let threads = duel(&mut threads, &mut one(run.movetime), &list, |_, _, _| {});
    let odds = run
        .factors
        .iter()
        .map(|&k| {
            let mut longer = one(run.movetime.mul_f64(k));
            (
                k,
                duel(&mut longer, &mut one(run.movetime), &list, |_, _, _| {}),
            )
        })
        .collect();
    Measured { threads, odds }
}

/// A duel's cells: W / D / L, score, Elo with its interval, depth of each side.
fn duel_cells(d: &Duel) -> Vec<String> {
    let e = elo_of(d);
    vec![
        format!("{} / {} / {}", d.wdl[0], d.wdl[1], d.wdl[2]),
        format!("{:.1}%", 100.0 * d.score()),
        e.map_or("-".to_string(), |e| {
            format!(
                "{} ({} to {})",
                lab::elo::show(e.diff),
                lab::elo::show(e.low),
                lab::elo::show(e.high)
            )
        }),
        format!("{:.1} / {:.1}", d.first.mean_depth(), d.second.mean_depth()),
    ]
}

/// The rows of one game, and its effective speedup into the targets.
fn rows(rep: &mut Report, name: &str, m: &Measured, target: Option<f64>) -> Vec<Vec<String>> {
    let odds: Vec<TimeOdds> = m
        .odds
        .iter()
        .filter_map(|(k, d)| elo_of(d).map(|elo| TimeOdds { factor: *k, elo }))
        .collect();
    let speedup = elo_of(&m.threads).and_then(|t| effective(&t, &odds));
    let shown = speedup.map_or("-".to_string(), |e| {
        format!(
            "{:.2}× ({:.2}× to {}){}",
            e.factor,
            e.low,
            if e.high.is_finite() {
                format!("{:.2}×", e.high)
            } else {
                "∞".to_string()
            },
            if e.beyond { ", extended" } else { "" }
        )
    });
    let mut out = Vec::new();
    let mut first = vec![name.to_string(), format!("{THREADS} threads")];
    first.extend(duel_cells(&m.threads));
    first.push(shown.clone());
    out.push(first);
    for (k, d) in &m.odds {
        let mut row = vec![name.to_string(), format!("1 thread, {k}× the time")];
        row.extend(duel_cells(d));
        row.push(String::new());
        out.push(row);
    }
    if let Some(target) = target {
        rep.targets.user_games.push((
            format!(
                "{name}: effective speedup by games of {THREADS} threads, {} games a pairing",
                m.threads.games()
            ),
            shown,
            "≥ 1.8×",
            speedup.is_some_and(|e| e.factor >= target),
        ));
    }
    out
}

/// The section.
pub(crate) fn effective_section(rep: &mut Report, games: Option<usize>) {
    let run = Run::new(rep.quick, games);
    let user = Config::default();
    let mut all = Vec::new();
    let m = measure(
        Breakthrough::start(),
        SideToMove(BreakthroughEval),
        &user,
        4,
        &run,
    );
    all.extend(rows(rep, "breakthrough", &m, Some(1.8)));
    let m = measure(Othello::start(), SideToMove(OthelloEval), &user, 6, &run);
    all.extend(rows(rep, "othello", &m, Some(1.8)));
    let m = measure(
        connect_four::Position::start(),
        SideToMove(connect_four::DefaultEval),
        &user,
        4,
        &run,
    );
    all.extend(rows(rep, "connect_four", &m, Some(1.8)));
    let m = measure(
        Throne::start(),
        Throne::default_eval(),
        &Throne::engine_config(),
        4,
        &run,
    );
    all.extend(rows(rep, "throne", &m, Some(1.8)));
    let m = measure(
        ChaosClock::start(),
        ChaosClock::default_eval(),
        &ChaosClock::engine_config(),
        4,
        &run,
    );
    all.extend(rows(rep, "chaosclock", &m, None));
    let md = &mut rep.md;
    let _ = writeln!(md, "## What the threads buy at a clock\n");
    let _ = writeln!(
        md,
        "The effective speedup by games: {THREADS} threads against one thread at {} ms a \
         move, and one thread at {} times that against one thread, {} games a pairing \
         (`--effective-games N`) from the same openings of random plies (4; Othello 6) from \
         seed 1, each played twice with the colours swapped; the speedup is the factor of \
         time whose Elo equals the threads' (a line in log factor between the factors \
         measured, through 0 Elo at 1; the interval maps the threads' 95% interval through \
         the time odds' own). The threads take the machine's cores: other processes on it \
         take from them first. Jumpy3 (decided by its opening) and Chexers (three seats) \
         are measured by `arena match` and `arena speedup` (the search README's recipe).\n",
        run.movetime.as_millis(),
        run.factors
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        run.games
    );
    table(
        md,
        &[
            "game",
            "side",
            "W / D / L",
            "score",
            "Elo (95%)",
            "depth (side / 1 thread)",
            "effective speedup (95%)",
        ],
        &all,
    );
}
