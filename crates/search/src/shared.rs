//! What every thread of one search shares: the configuration, the table, the counters, the
//! limits, the table of busy positions, and the protocol by which a helper that completes an
//! iteration first hands its result to the main thread.

use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed,
};
use std::sync::Mutex;

use fxhash::FxHashSet;

use crate::busy::Busy;
use crate::game::{Game, Outcome, Player};
use crate::selective::Selective;
use crate::time::TimeManager;
use crate::tt::Table;
use crate::types::Config;
use crate::vectors::VectorTable;

/// Nodes of the alpha-beta family below the root with at least this remaining depth share
/// out their moves after the first ([`crate::split`]); here, below both the node's search
/// and the split.
pub(crate) const SPLIT_DEPTH: i32 = 4;

/// [`Shared::main_score`] before the main thread completed an iteration.
pub(crate) const NO_SCORE: i32 = i32::MIN;

/// A value on cache lines of its own (two lines: the unit the prefetcher pulls).
///
/// The counters that threads write as they search (nodes every few thousand nodes, the
/// main thread's depth and score, the stop flag) are kept off the lines of the fields every
/// node reads (the configuration, the evaluator, the table, the history): with them on one
/// line, each thread's write of its node count made every other thread miss the cache on its
/// next node, a cost that grows with the number of threads.
#[derive(Default)]
#[repr(align(128))]
pub(crate) struct Padded<T>(pub T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        &self.0
    }
}

/// What every thread of one search shares.
pub(crate) struct Shared<'a, G: Game, E> {
    pub config: &'a Config,
    pub eval: &'a E,
    pub table: Option<&'a Table>,
    /// Max^n's table of score vectors (`None`: no table, or not max^n).
    pub vectors: Option<&'a VectorTable>,
    pub age: u8,
    /// The player to move at the root.
    pub root_player: Player,
    /// The player whose score the alpha-beta search maximises (everyone else minimises it):
    /// the root player, or the leader under attack ([`Config::offensive`]).
    pub hero: Player,
    pub rule: Option<Outcome>,
    pub history: FxHashSet<u64>,
    /// Keys of [`Shared::history`] whose next occurrence ends the game by the repetition
    /// rule, when the root player avoids that ([`Config::avoid_repetition_end`]; else empty).
    pub ends: FxHashSet<u64>,
    pub user_stop: &'a AtomicBool,
    /// Set by the main thread when the search must end (limits reached, or it finished).
    pub abort: Padded<AtomicBool>,
    pub nodes: Padded<AtomicU64>,
    pub probes: Padded<AtomicU64>,
    pub hits: Padded<AtomicU64>,
    pub node_limit: Option<u64>,
    pub time: TimeManager,
    /// The iteration the main thread is searching.
    pub main_depth: Padded<AtomicU32>,
    /// The score of the main thread's last completed iteration ([`NO_SCORE`] before the first).
    pub main_score: Padded<AtomicI32>,
    pub brs: bool,
    /// The selective search's settings and tables (`None`: the exact search).
    pub selective: Option<Selective>,
    /// Whether table entries deeper than the remaining depth cut off (the selective search,
    /// or [`Config::deeper_entries`]).
    pub deeper: bool,
    pub max_depth: u32,
    /// Positions some thread is searching (none with one thread, or where the threads split).
    pub busy: Busy,
    /// Whether the threads share out the moves of split nodes ([`crate::split`]).
    pub split: bool,
    /// Nodes each thread searched, by the pool's thread index (where the threads split).
    pub per_thread: Vec<Padded<AtomicU64>>,
    /// The threads searching right now, where they share out split nodes (alpha-beta's
    /// [`crate::split`], max^n): a node shares out its moves only while a thread is idle.
    pub working: Padded<AtomicUsize>,
    /// The threads of the search.
    pub threads: usize,
    /// The iterations helpers completed, as a bit per depth (depths below 64): the main thread
    /// stops searching an iteration a helper completed and takes the helper's result.
    pub helper_done: Padded<AtomicU64>,
    /// The iterations helpers completed, with their depths (each depth once).
    pub helper_results: Mutex<Vec<(u32, Iteration<G::Move>)>>,
    pub _game: std::marker::PhantomData<fn(&G)>,
}

/// The outcome of one completed iteration of the main thread.
#[derive(Clone)]
pub(crate) struct Iteration<M> {
    pub score: i32,
    pub pv: Vec<M>,
}

impl<G: Game, E> Shared<'_, G, E> {
    /// Takes a helper's result of the iteration at `depth`, if a helper completed it.
    pub fn take_helper_result(&self, depth: u32) -> Option<Iteration<G::Move>> {
        if self.helper_done.load(Relaxed) & depth_bit(depth) == 0 {
            return None;
        }
        let mut results = self.helper_results.lock().ok()?;
        let i = results.iter().position(|(d, _)| *d == depth)?;
        Some(results.swap_remove(i).1)
    }

    /// Posts a helper's completed iteration, for the main thread to take if it is still on
    /// it (the first result for a depth stands).
    pub fn publish(&self, depth: u32, it: impl FnOnce() -> Iteration<G::Move>) {
        let bit = depth_bit(depth);
        if bit == 0 || depth < self.main_depth.load(Relaxed) {
            return;
        }
        let Ok(mut results) = self.helper_results.lock() else {
            return;
        };
        if self.helper_done.load(Relaxed) & bit == 0 {
            results.push((depth, it()));
            self.helper_done.fetch_or(bit, Relaxed);
        }
    }

    /// How many threads are idle where the threads share out split nodes (0 when all are
    /// searching).
    #[inline]
    pub fn idle(&self) -> usize {
        self.threads.saturating_sub(self.working.load(Relaxed))
    }

    /// Counts `helpers` more threads as searching: the tasks about to be handed out for
    /// idle threads ([`Shared::working`]); each task calls [`Shared::done`] when it ends.
    #[inline]
    pub fn hand_out(&self, helpers: usize) {
        self.working.fetch_add(helpers, Relaxed);
    }

    /// A task handed out by [`Shared::hand_out`] ended.
    #[inline]
    pub fn done(&self) {
        self.working.fetch_sub(1, Relaxed);
    }

    /// Whether a helper completed the iteration at `depth`.
    #[inline]
    pub fn helper_completed(&self, depth: u32) -> bool {
        self.helper_done.load(Relaxed) & depth_bit(depth) != 0
    }
}

/// The bit of `depth` in [`Shared::helper_done`] (none for depths from 64).
#[inline]
fn depth_bit(depth: u32) -> u64 {
    1u64.checked_shl(depth).unwrap_or(0)
}
