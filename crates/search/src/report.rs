//! The engine's reports: what a completed iteration found, with the counters.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use crate::game::{Game, Scores};
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
