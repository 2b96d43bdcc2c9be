//! Lazy SMP: helper threads search the same root on rayon, sharing the table.
//!
//! The main thread runs the normal iterative deepening; each helper runs its own loop at the
//! main thread's current iteration (even helpers one ply deeper, so that the next iteration
//! finds work done), with aspiration windows around its own last score, abandoning an
//! iteration the main thread has overtaken. Threads announce
//! the positions they are searching in a small shared table, and a thread puts off a move
//! (other than a position's first) whose position another thread is searching, taking it up
//! at the end when its value is likely in the table (the idea of ABDADA, Weill 1996): so the
//! threads spread over the tree instead of searching the same subtrees side by side.
//!
//! An iteration is complete when any thread completes it (ABDADA's rule too): a helper that
//! completes the main thread's iteration first posts its score and principal variation, and
//! the main thread stops that iteration, reports the helper's result as its own and goes on
//! to the next; so time to depth is that of the faster thread. Because table values are only
//! used at their exact depth (or when proven), and deferring only reorders moves, every
//! thread's completed iteration has the single-threaded value (the principal variation may
//! differ where moves tie).
//!
//! The positions being searched are in [`crate::busy::Busy`]; the hand-over of a helper's
//! completed iteration is [`Shared::publish`] and [`Shared::take_helper_result`].

use std::sync::atomic::Ordering::Relaxed;

use crate::game::{Evaluator, Game};
use crate::shared::{Iteration, Shared, NO_SCORE};
use crate::thread::{Local, Worker};

/// Runs the main thread on the calling thread and `locals.len() - 1` helpers on `pool`.
pub(crate) fn lazy_smp<G: Game, E: Evaluator<G>>(
    pool: &rayon::ThreadPool,
    sh: &Shared<'_, G, E>,
    locals: &mut [Local<G>],
    game: &G,
    on_iteration: impl FnMut(&Iteration<G::Move>, u32, bool),
) {
    let (main, helpers) = locals.split_first_mut().expect("one thread at least");
    pool.in_place_scope(|s| {
        for (i, local) in helpers.iter_mut().enumerate() {
            s.spawn(move |_| {
                let mut w = Worker::new(sh, local, i + 1);
                w.help(game);
            });
        }
        let mut w = Worker::new(sh, main, 0);
        w.iterate(game, on_iteration);
        sh.abort.store(true, Relaxed);
        w.flush();
    });
}

impl<G: Game, E: Evaluator<G>> Worker<'_, '_, G, E> {
    /// A helper thread's Lazy-SMP loop: iterative deepening at the main thread's iteration
    /// (even helpers one ply ahead) with its own windows, filling the shared table; a helper
    /// that falls behind the main thread abandons its iteration and joins the main thread's.
    pub fn help(&mut self, root: &G) {
        let mut done = 0;
        let mut own: Option<i32> = None;
        // Even helpers one iteration ahead of the main thread, odd ones beside it.
        let off = (self.id as u32 + 1) & 1;
        loop {
            let main = self.sh.main_depth.load(Relaxed);
            let depth = (done + 1).max(main + off);
            if depth > self.sh.max_depth || self.aborted() {
                break;
            }
            self.searching = depth;
            // Its own window: around its own last score, else the main thread's (measured
            // against the main thread's window for every helper, five runs of the benches a
            // ply deeper: the node overhead at 2 threads 1.09 against 1.32 on Chexers, 1.33
            // against 1.34 on Throne, 1.16 against 1.10 on Jumpy3; a full window cost up to
            // twice the nodes at 4 to 16 threads on Chexers).
            let main_score = Some(self.sh.main_score.load(Relaxed)).filter(|&s| s != NO_SCORE);
            let score = self.aspiration(root, depth, own.or(main_score));
            if self.stopped {
                if self.aborted() {
                    break;
                }
                // Overtaken by the main thread: go on from its iteration.
                self.stopped = false;
                continue;
            }
            let pv = &self.local.pv[0];
            self.sh.publish(depth, || Iteration {
                score,
                pv: pv.clone(),
            });
            self.trace_completed(depth);
            done = depth;
            own = Some(score);
        }
        self.flush();
    }
}
