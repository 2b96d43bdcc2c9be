//! The main thread's iterative deepening: one iteration after another within the limits,
//! each searched with aspiration windows around the last one's score, and taken from a
//! helper thread when a helper completed it first.

use std::time::Duration;

use std::sync::atomic::Ordering::Relaxed;

use crate::game::{Evaluator, Game};
use crate::shared::{Iteration, Shared};
use crate::thread::{Local, Tasks, Worker};
use crate::time::Stability;

impl<G: Game, E: Evaluator<G>> Worker<'_, '_, G, E> {
    /// Iterative deepening of the main thread. `on_iteration` is called with each completed
    /// iteration (`true`), and, when the limits stop an iteration after some of its root
    /// moves completed, with what they established (`false`: the best of them, whose score
    /// is at least that of the last iteration's move at this depth), which then stands for
    /// the move played.
    pub fn iterate(
        &mut self,
        root: &G,
        mut on_iteration: impl FnMut(&Iteration<G::Move>, u32, bool),
    ) {
        let (mut t_last, mut t_before) = (Duration::ZERO, Duration::ZERO);
        let mut stability = Stability::new(self.sh.eval.aspiration_window());
        let mut prev: Option<i32> = None;
        // On a game clock, a root with one move is answered at once (a movetime is spent,
        // and an analysis wants the depth).
        let forced = self.sh.time.on_clock() && root.moves().len() == 1;
        for depth in 1..=self.sh.max_depth {
            if depth > 1 && !self.sh.time.may_start(t_last, t_before, stability.scale()) {
                break;
            }
            let started = self.sh.time.elapsed();
            self.searching = depth;
            self.root_best = None;
            self.sh.main_depth.store(depth, Relaxed);
            let it = match self.sh.take_helper_result(depth) {
                Some(it) => {
                    self.local.smp.helper_iterations += 1;
                    it
                }
                None => {
                    let score = self.aspiration(root, depth, prev);
                    if !self.stopped {
                        self.trace_completed(depth);
                        Iteration {
                            score,
                            pv: self.local.pv[0].clone(),
                        }
                    } else if self.aborted() {
                        if let Some(partial) = self.root_best.take() {
                            on_iteration(&partial, depth, false);
                        }
                        break;
                    } else {
                        // A helper completed the iteration first.
                        self.stopped = false;
                        match self.sh.take_helper_result(depth) {
                            Some(it) => {
                                self.local.smp.helper_iterations += 1;
                                it
                            }
                            None => break,
                        }
                    }
                }
            };
            let score = it.score;
            self.flush();
            self.sh.main_score.store(score, Relaxed);
            on_iteration(&it, depth, true);
            stability.update(it.pv.first().copied(), score);
            prev = Some(score);
            t_before = t_last;
            t_last = self.sh.time.elapsed() - started;
            if forced {
                break;
            }
            if self.sh.time.limited() || self.sh.node_limit.is_some() {
                // A proven result does not change with depth.
                if crate::types::mate_distance(score).is_some_and(|d| d.unsigned_abs() <= depth) {
                    break;
                }
            }
        }
    }
}

/// The main thread's iterative deepening: alone, or with `tasks` where the threads share
/// out split nodes ([`crate::split`]).
pub(crate) fn single<'a, G: Game, E: Evaluator<G>>(
    sh: &'a Shared<'a, G, E>,
    tasks: Option<&'a Tasks<G>>,
    local: &mut Local<G>,
    game: &G,
    on_iteration: impl FnMut(&Iteration<G::Move>, u32, bool),
) {
    let mut w = Worker::new(sh, local, 0);
    w.tasks = tasks;
    w.iterate(game, on_iteration);
    w.flush();
}
