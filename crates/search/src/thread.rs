//! A search thread's own state: its memory kept between searches ([`Local`]: killers and
//! history, principal variations, per-ply buffers, the path), and [`Worker`], one thread of
//! one search, with what every node does whatever the algorithm: counting nodes, looking at
//! the clock and the stop flags, the path and the repetition rule, terminal values.

use std::sync::atomic::Ordering::Relaxed;

use crate::game::{Evaluator, Game};
use crate::history::Heuristics;
use crate::score::{end_score, MAX_PLY};
use crate::shared::{Iteration, Shared};

/// Nodes between two looks at the clock and the stop flags.
const POLL_INTERVAL: u64 = 1024;
/// The repetition filter's size less one: a counter per key's low bits, so that a key not
/// on the path or in the history is ruled out without a search.
const FILTER_MASK: usize = 4095;

/// Per-thread memory kept between searches (allocated once).
///
/// The threads' `Local`s sit side by side in one `Vec`, and fields such as `path` change at
/// every node: aligned to 128 bytes (two cache lines, the unit the prefetcher pulls) no
/// two threads write the same line. Without it, two Jumpy3 threads at depth 20 ran no faster
/// than one, each at half speed.
#[repr(align(128))]
pub(crate) struct Local<G: Game> {
    pub heur: Heuristics<G::Move>,
    pub pv: Vec<Vec<G::Move>>,
    /// A buffer per ply for the children a node makes up front, kept from node to node
    /// (an allocation per node cost 2% of the instructions at Jumpy3 depth 20).
    pub children: Vec<Vec<G>>,
    /// The key of the position whose children each ply's `children` buffer holds (0: none):
    /// a node reuses them rather than making them again (its parent made them ahead, to ask
    /// for their table buckets early).
    pub made_for: Vec<u64>,
    /// A buffer per ply for the ordering keys of a node's moves, kept likewise.
    pub keys: Vec<Vec<i32>>,
    pub path: Vec<u64>,
    pub filter: Vec<u16>,
    /// How each ply's node was reached, for the selective search (`selective::FORCED`,
    /// `selective::NO_NULL`): set by the parent before it searches the child.
    pub flags: Vec<u8>,
    /// Nodes this thread searched in the last run.
    pub nodes: u64,
    /// What the parallel search did in this thread in the last run.
    pub smp: SmpStats,
}

/// What the threads of a parallel alpha-beta search did to share the work (summed over the
/// threads of the last run: [`Search::smp_stats`](crate::Search::smp_stats)), the counts that
/// tell where its node overhead comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SmpStats {
    /// Children put off because another thread was searching them (at their depth).
    pub deferred: u64,
    /// Of those, the ones whose table entry of that depth was there when taken up: the wait
    /// saved their search.
    pub deferred_found: u64,
    /// Positions not announced as busy because their bucket of the busy table was full.
    pub busy_full: u64,
    /// Iterations a helper completed first, whose result the main thread took.
    pub helper_iterations: u64,
}

impl SmpStats {
    /// The sum of two threads' counts.
    pub fn add(&mut self, o: &SmpStats) {
        self.deferred += o.deferred;
        self.deferred_found += o.deferred_found;
        self.busy_full += o.busy_full;
        self.helper_iterations += o.helper_iterations;
    }
}

impl<G: Game> Local<G> {
    pub fn new() -> Self {
        Local {
            heur: Heuristics::new(),
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY + 1))
                .collect(),
            children: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            made_for: vec![0; MAX_PLY + 2],
            keys: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            path: Vec::with_capacity(MAX_PLY + 2),
            filter: vec![0; FILTER_MASK + 1],
            flags: vec![0; MAX_PLY + 2],
            nodes: 0,
            smp: SmpStats::default(),
        }
    }
}

/// One search thread.
pub(crate) struct Worker<'a, 'b, G: Game, E> {
    pub sh: &'a Shared<'a, G, E>,
    pub local: &'b mut Local<G>,
    pub id: usize,
    pub nodes: u64,
    flushed: u64,
    poll_at: u64,
    pub probes: u64,
    pub hits: u64,
    pub stopped: bool,
    /// The iteration this thread is searching.
    pub searching: u32,
    /// The best root move of the iteration being searched so far (its score a lower bound of
    /// its value, or exact), from the moves whose search completed: what an iteration
    /// stopped by the clock still contributes.
    pub root_best: Option<Iteration<G::Move>>,
}

impl<'a, 'b, G: Game, E: Evaluator<G>> Worker<'a, 'b, G, E> {
    pub fn new(sh: &'a Shared<'a, G, E>, local: &'b mut Local<G>, id: usize) -> Self {
        // The last search's ordering carries over, fading (`Search::reset` forgets it).
        local.heur.age();
        local.path.clear();
        local.flags.iter_mut().for_each(|f| *f = 0);
        local.nodes = 0;
        local.smp = SmpStats::default();
        local.filter.iter_mut().for_each(|f| *f = 0);
        if sh.rule.is_some() {
            for &k in &sh.history {
                local.filter[k as usize & FILTER_MASK] += 1;
            }
        }
        Worker {
            sh,
            local,
            id,
            nodes: 0,
            flushed: 0,
            poll_at: 1,
            probes: 0,
            hits: 0,
            stopped: false,
            searching: 0,
            root_best: None,
        }
    }

    /// Adds this thread's counts to the shared totals.
    pub fn flush(&mut self) {
        self.local.nodes = self.nodes;
        self.sh.nodes.fetch_add(self.nodes - self.flushed, Relaxed);
        self.flushed = self.nodes;
        self.sh.probes.fetch_add(self.probes, Relaxed);
        self.sh.hits.fetch_add(self.hits, Relaxed);
        self.probes = 0;
        self.hits = 0;
    }

    #[inline]
    pub(crate) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.poll_at {
            self.poll();
        }
    }

    #[cold]
    fn poll(&mut self) {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        let total = self.sh.nodes.fetch_add(delta, Relaxed) + delta;
        self.poll_at = self.nodes + POLL_INTERVAL;
        if self.aborted() {
            self.stopped = true;
            return;
        }
        if self.id > 0 {
            // A helper behind the main thread abandons its iteration.
            if self.searching < self.sh.main_depth.load(Relaxed) {
                self.stopped = true;
            }
        } else {
            if let Some(limit) = self.sh.node_limit {
                if total >= limit {
                    self.stop_all();
                    return;
                }
                self.poll_at = self.poll_at.min(self.nodes + (limit - total));
            }
            if self.sh.time.out_of_time() {
                self.stop_all();
            } else if self.sh.helper_completed(self.searching) {
                // A helper completed this iteration first: its result stands for it.
                self.stopped = true;
            }
        }
    }

    /// Whether the search as a whole must end (the user's stop or the main thread's abort).
    #[inline]
    pub(crate) fn aborted(&self) -> bool {
        self.sh.user_stop.load(Relaxed) || self.sh.abort.load(Relaxed)
    }

    pub(crate) fn stop_all(&mut self) {
        self.sh.abort.store(true, Relaxed);
        self.stopped = true;
    }

    /// The evaluation from the hero's view (the root player's, but for an offensive).
    #[inline]
    pub(crate) fn eval(&self, pos: &G) -> i32 {
        self.sh.eval.evaluate(pos)[self.sh.hero]
    }

    /// The repetition outcome if `key` (a repetition key) occurred before.
    #[inline(always)]
    pub(crate) fn repeated(&self, key: u64) -> bool {
        self.local.filter[key as usize & FILTER_MASK] != 0 && self.on_path_or_history(key)
    }

    /// The exact test behind [`Worker::repeated`]'s filter (out of line: rarely reached).
    #[inline(never)]
    fn on_path_or_history(&self, key: u64) -> bool {
        self.local.path.contains(&key) || self.sh.history.contains(&key)
    }

    #[inline]
    pub(crate) fn push_path(&mut self, key: u64) {
        self.local.path.push(key);
        self.local.filter[key as usize & FILTER_MASK] += 1;
    }

    #[inline]
    pub(crate) fn pop_path(&mut self) {
        if let Some(key) = self.local.path.pop() {
            self.local.filter[key as usize & FILTER_MASK] -= 1;
        }
    }

    /// Terminal value of `pos` from its side's view (repetition before the position's rules),
    /// and its repetition key when the game has a repetition rule.
    #[inline]
    pub(crate) fn terminal(&self, pos: &G, ply: usize, sign: i32) -> (Option<i32>, u64) {
        let mut rep_key = 0;
        if let Some(rule) = self.sh.rule {
            rep_key = pos.repetition_key();
            if ply > 0 && self.repeated(rep_key) {
                let s = end_score(self.sh.eval, pos, rule, self.sh.hero, ply as u32);
                return (Some(sign * s), rep_key);
            }
        }
        let v = pos
            .outcome()
            .map(|o| sign * end_score(self.sh.eval, pos, o, self.sh.hero, ply as u32));
        (v, rep_key)
    }
}
