//! The main thread's iterative deepening: one iteration after another within the limits,
//! each searched with aspiration windows around the last one's score, and taken from a
//! helper thread when a helper completed it first.

use std::time::Duration;

use std::sync::atomic::Ordering::Relaxed;

use crate::game::{Evaluator, Game};
use crate::shared::{Iteration, Shared};
use crate::thread::{Local, Worker};
use crate::time::Stability;

impl<G: Game, E: Evaluator<G>> Worker<'_, '_, G, E> {
    /// Iterative deepening of the main thread; returns the completed iterations' reports.
    pub fn iterate(
        &mut self,
        root: &G,
        mut on_iteration: impl FnMut(&Iteration<G::Move>, u32),
    ) -> Option<Iteration<G::Move>> {
        let mut last: Option<Iteration<G::Move>> = None;
        let (mut t_last, mut t_before) = (Duration::ZERO, Duration::ZERO);
        let mut stability = Stability::new();
        for depth in 1..=self.sh.max_depth {
            if depth > 1 && !self.sh.time.may_start(t_last, t_before, stability.scale()) {
                break;
            }
            let started = self.sh.time.elapsed();
            self.searching = depth;
            self.sh.main_depth.store(depth, Relaxed);
            let it = match self.sh.take_helper_result(depth) {
                Some(it) => it,
                None => {
                    let prev = last.as_ref().map(|l| l.score);
                    let score = self.aspiration(root, depth, prev);
                    if !self.stopped {
                        Iteration {
                            score,
                            pv: self.local.pv[0].clone(),
                        }
                    } else if self.aborted() {
                        break;
                    } else {
                        // A helper completed the iteration first.
                        self.stopped = false;
                        match self.sh.take_helper_result(depth) {
                            Some(it) => it,
                            None => break,
                        }
                    }
                }
            };
            let score = it.score;
            self.flush();
            self.sh.main_score.store(score, Relaxed);
            on_iteration(&it, depth);
            stability.update(it.pv.first().copied());
            last = Some(it);
            t_before = t_last;
            t_last = self.sh.time.elapsed() - started;
            if self.sh.time.limited() || self.sh.node_limit.is_some() {
                // A proven result does not change with depth.
                if crate::types::mate_distance(score).is_some_and(|d| d.unsigned_abs() <= depth) {
                    break;
                }
            }
        }
        last
    }
}

/// One thread: the main thread's iterative deepening.
pub(crate) fn single<G: Game, E: Evaluator<G>>(
    sh: &Shared<'_, G, E>,
    local: &mut Local<G>,
    game: &G,
    on_iteration: impl FnMut(&Iteration<G::Move>, u32),
) {
    let mut w = Worker::new(sh, local, 0);
    w.iterate(game, on_iteration);
    w.flush();
}
