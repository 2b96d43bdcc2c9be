//! Lazy SMP: helper threads search the same root on rayon, sharing the table.
//!
//! The main thread runs the normal iterative deepening; each helper runs its own loop at the
//! main thread's current iteration (even helpers one ply deeper, so that the next iteration
//! finds work done), abandoning an iteration the main thread has overtaken. Threads announce
//! the positions they are searching in a small shared table, and a thread puts off a move
//! (other than a position's first) whose position another thread is searching, taking it up
//! at the end when its value is likely in the table (the idea of ABDADA, Weill 1996): so the
//! threads spread over the tree instead of searching the same subtrees side by side.
//!
//! The main thread's completed iterations are the answer. Because table values are only used
//! at their exact depth (or when proven), and deferring only reorders moves, the value
//! equals the single-threaded one.

use std::sync::atomic::Ordering::Relaxed;

use crate::game::{Evaluator, Game};
use crate::search::{Iteration, Local, Shared, Worker};

/// Runs the main thread on the calling thread and `locals.len() - 1` helpers on `pool`.
pub(crate) fn lazy_smp<G: Game, E: Evaluator<G>>(
    pool: &rayon::ThreadPool,
    sh: &Shared<'_, G, E>,
    locals: &mut [Local<G>],
    game: &G,
    on_iteration: impl FnMut(&Iteration<G::Move>, u32),
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
