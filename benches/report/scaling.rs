//! The section `overhead`: how the threads share the search, every game and every benchmark
//! game, each game's fixed positions searched to fixed depths at 1, 2, 4, 8 and 16 threads
//! (`search::bench::scaling`): the node overhead against one thread, the time to the depths
//! and the speedup, nodes per second, the largest share of the nodes one thread searched,
//! the parallel search's counters (children deferred, deferred children whose entry was
//! there when taken up, announcements a full bucket refused, helper iterations taken), and
//! whether every value equals one thread's.
//!
//! On a machine with fewer cores than threads the threads take turns: the overhead and the
//! balance still say how much the threads duplicate and how evenly they share, the speedup
//! only how the cores were used.

use std::fmt::Write as _;

use benches::games::BenchGame;
use plyforge::search::bench::{parse_list, scaling, BenchPosition, ScalingRow};
use plyforge::search::{Config, Evaluator, Game, SideToMove, SideToMoveEval};
use plyforge::{chaosclock, chexers, jumpy3, throne};

use crate::{table, user_compare, Report};

/// The thread counts beside one.
const THREADS: [usize; 4] = [2, 4, 8, 16];

/// Quick mode searches this many plies less (at least 1).
const QUICK_LESS: u32 = 4;

/// `list` at its depths, or `QUICK_LESS` plies less in quick mode.
fn depths<G: Clone>(list: &[BenchPosition<G>], quick: bool) -> Vec<BenchPosition<G>> {
    list.iter()
        .map(|p| BenchPosition {
            depth: if quick {
                p.depth.saturating_sub(QUICK_LESS).max(1)
            } else {
                p.depth
            },
            ..p.clone()
        })
        .collect()
}

/// One of our games: its bench list with its engine settings.
fn ours<G: BenchGame>(text: &str, quick: bool) -> Vec<ScalingRow>
where
    <G as std::str::FromStr>::Err: std::fmt::Display,
{
    let list = parse_list::<G>(text).expect("the bench list parses");
    scaling(&depths(&list, quick), &G::eval(), &G::config(), &THREADS)
}

/// A benchmark game a user would write: its first three report positions, the default
/// settings.
fn user<G: Game, E: SideToMoveEval<G> + Copy>(
    game: user_compare::UserGame<G, E>,
    quick: bool,
) -> Vec<ScalingRow>
where
    SideToMove<E>: Evaluator<G>,
{
    let list: Vec<BenchPosition<G>> = game
        .cases
        .into_iter()
        .take(3)
        .map(|(label, position, full, _)| BenchPosition {
            label,
            position,
            depth: full.saturating_sub(2),
        })
        .collect();
    let config = Config::default().with_quiescence(game.quiescence);
    scaling(
        &depths(&list, quick),
        &SideToMove(game.eval),
        &config,
        &THREADS,
    )
}

/// The section.
pub(crate) fn overhead_section(rep: &mut Report) {
    let q = rep.quick;
    let games: Vec<(&str, Vec<ScalingRow>)> = vec![
        ("jumpy3", ours::<jumpy3::Position>(jumpy3::BENCH, q)),
        ("chexers", ours::<chexers::Position>(chexers::BENCH, q)),
        ("throne", ours::<throne::Position>(throne::BENCH, q)),
        (
            "chaosclock",
            ours::<chaosclock::Position>(chaosclock::BENCH, q),
        ),
        ("connect_four", user(user_compare::connect_four(), q)),
        ("othello", user(user_compare::othello(), q)),
        ("breakthrough", user(user_compare::breakthrough(), q)),
    ];
    let mut rows = Vec::new();
    for (game, scaled) in &games {
        for r in scaled {
            rows.push(vec![
                game.to_string(),
                r.threads.to_string(),
                format!("{} ({:.2}×)", r.nodes, r.overhead),
                format!("{:.3} s ({:.2}×)", r.elapsed.as_secs_f64(), r.speedup),
                format!("{:.2}×", r.nps_ratio),
                format!("{:.3}", r.largest_share),
                format!(
                    "{} / {} / {}",
                    r.smp.deferred, r.smp.deferred_found, r.smp.busy_full
                ),
                r.smp.helper_iterations.to_string(),
                if r.same_values { "same" } else { "**differ**" }.to_string(),
            ]);
        }
        targets(rep, game, scaled);
    }
    let md = &mut rep.md;
    let _ = writeln!(md, "## How the threads share the search\n");
    let _ = writeln!(
        md,
        "Each game's fixed positions at fixed depths (our games: their `BENCH`, the \
         positions of `arena bench`; the games a user would write: their first three report \
         positions, two plies less than their timed depth{}), with the game's engine \
         settings, at 1 to 16 threads on this machine ({} cores: beyond them the threads take \
         turns, and only the node overhead and the balance tell how they would do on cores \
         of their own). `arena bench GAME --scaling` prints this for any registered game.\n",
        if q {
            "; quick mode: four plies less"
        } else {
            ""
        },
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    table(
        md,
        &[
            "game",
            "threads",
            "nodes (×1t)",
            "time (speedup)",
            "nodes/s (×1t)",
            "largest thread's share",
            "deferred / found / full",
            "helper iterations",
            "values",
        ],
        &rows,
    );
}

/// The targets of one game: 2 threads at least 1.8 times as fast as one, the node overhead
/// at 16 threads at most 1.15, the same values at every thread count, and for max^n no
/// thread with more than a twelfth of the work at 16 threads.
fn targets(rep: &mut Report, game: &str, scaled: &[ScalingRow]) {
    let t = &mut rep.targets.user_games;
    let at = |n: usize| scaled.iter().find(|r| r.threads == n);
    if let Some(r) = at(2) {
        t.push((
            format!("{game}: time to depth, 2 threads against 1"),
            format!("{:.2}×", r.speedup),
            "≥ 1.8×",
            r.speedup >= 1.8,
        ));
    }
    if let Some(r) = at(16) {
        t.push((
            format!("{game}: node overhead at 16 threads"),
            format!("{:.2}×", r.overhead),
            "≤ 1.15×",
            r.overhead <= 1.15,
        ));
        if game == "chaosclock" {
            t.push((
                format!("{game}: the largest thread's share of the nodes at 16 threads"),
                format!("{:.3}", r.largest_share),
                "≤ 1/12 (0.083)",
                r.largest_share <= 1.0 / 12.0,
            ));
        }
    }
    let same = scaled.iter().all(|r| r.same_values);
    t.push((
        format!("{game}: the same values at every thread count"),
        if same { "same" } else { "differ" }.to_string(),
        "same",
        same,
    ));
}
