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
//! An iteration is complete when any thread completes it (ABDADA's rule too): a helper that
//! completes the main thread's iteration first posts its score and principal variation, and
//! the main thread stops that iteration, reports the helper's result as its own and goes on
//! to the next; so time to depth is that of the faster thread. Because table values are only
//! used at their exact depth (or when proven), and deferring only reorders moves, every
//! thread's completed iteration has the single-threaded value (the principal variation may
//! differ where moves tie).
//!
//! The table of busy positions ([`Busy`]) keeps each slot on a cache line of its own, and a
//! node looks up only those children that announce themselves (deeper than the search's
//! `BUSY_DEPTH`): on the synthetic trees of `examples/smp_speedup.rs` the threads otherwise
//! lost time to lines moving between the cores.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::game::{Evaluator, Game};
use crate::search::{Iteration, Local, Shared, Worker};
use crate::tt::prefetch;

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

/// Slots of the table of positions being searched.
const BUSY_SLOTS: usize = 1 << 12;

/// One slot on a cache line of its own: a thread announcing a position then does not take
/// the line of another thread's unrelated position away from it (with eight slots a line,
/// the announcements of two Jumpy3 or synthetic threads kept pulling lines to and fro).
#[derive(Default)]
#[repr(align(64))]
struct Slot(AtomicU64);

/// The positions that some thread is searching right now, by key (ABDADA's "busy" flag):
/// a small direct-mapped table, where a collision only makes a move look busy (and so
/// searched later), never changes a value.
pub(crate) struct Busy {
    slots: Vec<Slot>,
}

impl Busy {
    /// A table for a parallel search, or an empty one (nothing is ever busy) for one thread.
    pub fn new(parallel: bool) -> Self {
        let n = if parallel { BUSY_SLOTS } else { 0 };
        Busy {
            slots: (0..n).map(|_| Slot::default()).collect(),
        }
    }

    /// Whether threads announce positions (more than one thread).
    #[inline]
    pub fn enabled(&self) -> bool {
        !self.slots.is_empty()
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (self.slots.len() - 1)].0
    }

    /// Starts loading the slot of `key` into the cache (see [`prefetch`]).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.slot(key));
    }

    /// Whether a thread announced `key` and has not withdrawn it.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    /// Announces that this thread is searching `key`.
    #[inline]
    pub fn announce(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Withdraws the announcement of `key` (unless another position took the slot since).
    #[inline]
    pub fn withdraw(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}
