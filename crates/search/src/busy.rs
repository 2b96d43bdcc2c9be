//! The table of positions some thread is searching right now (ABDADA's "busy" flag, Weill
//! 1996), which the parallel search uses to spread its threads over the tree.
//!
//! It keeps each slot on a cache line of its own, and the search looks up only those
//! children that announce themselves: on the synthetic trees of the parallel-speedup
//! measurements the threads otherwise lost time to lines moving between the cores.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::tt::prefetch;

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
