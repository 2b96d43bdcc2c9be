//! The engine's reports: what a completed iteration found, with the counters.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use crate::game::{Evaluator, Game, Scores};
use crate::score::masked;
use crate::shared::{Iteration, Shared};
use crate::types::Report;

/// Builds the report of a completed iteration.
pub(crate) fn report<M: Clone, G: Game, E>(
    sh: &Shared<'_, G, E>,
    it: &Iteration<M>,
    depth: u32,
    extra_nodes: u64,
    players: usize,
) -> Report<M> {
    let elapsed = sh.time.elapsed();
    let nodes = sh.nodes.load(Relaxed) + extra_nodes;
    let probes = sh.probes.load(Relaxed);
    // `it.score` is from the root player's view; the hero's side shares its sign, the
    // others have the opposite (an offensive: the root is on the side against the hero).
    let root_side = sh.root_player == sh.hero;
    let mut scores = [0; 3];
    for (p, s) in scores.iter_mut().enumerate().take(players) {
        *s = if (p == sh.hero) == root_side {
            it.score
        } else {
            -it.score
        };
    }
    Report {
        best: it.pv.first().cloned(),
        score: it.score,
        scores,
        depth,
        nodes,
        nps: nps(nodes, elapsed),
        elapsed,
        pv: it.pv.clone(),
        tt_hit_rate: if probes == 0 {
            0.0
        } else {
            sh.hits.load(Relaxed) as f64 / probes as f64
        },
    }
}

/// The report of a move chosen without a completed search (a game's table move, or the
/// first move where a search stopped before its first iteration): `best` alone as the
/// principal variation, the static evaluation of `game` (entries past its players zero)
/// and depth 0.
pub(crate) fn unsearched<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    best: Option<G::Move>,
    nodes: u64,
    elapsed: Duration,
) -> Report<G::Move> {
    let scores = masked(eval.evaluate(game), game.players());
    Report {
        best,
        score: scores[game.to_move()],
        scores,
        depth: 0,
        nodes,
        nps: nps(nodes, elapsed),
        elapsed,
        pv: best.into_iter().collect(),
        tt_hit_rate: 0.0,
    }
}

/// Nodes per second.
pub(crate) fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 {
        (nodes as f64 / s) as u64
    } else {
        0
    }
}

/// The report of a completed max^n iteration: every player's score.
pub(crate) fn maxn_report<G: Game, E>(
    sh: &Shared<'_, G, E>,
    scores: Scores,
    pv: &[G::Move],
    depth: u32,
    players: usize,
) -> Report<G::Move> {
    let it = Iteration {
        score: scores[sh.root_player],
        pv: pv.to_vec(),
    };
    let mut r = report(sh, &it, depth, 0, players);
    r.scores = scores;
    r
}
