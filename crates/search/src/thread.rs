//! A search thread's own state: its memory kept between searches ([`Local`]: killers and
//! history, principal variations, per-ply buffers, the path), and [`Worker`], one thread of
//! one search, with what every node does whatever the algorithm: counting nodes, looking at
//! the clock and the stop flags, the path and the repetition rule, terminal values.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use crate::game::{Evaluator, Game};
use crate::history::{Heuristics, History};
use crate::score::{end_score, MAX_PLY, SHUNNED};
use crate::shared::{Iteration, Shared};
use crate::trace::{ThreadTrace, Visit};

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
    /// The nodes this thread searched in the last run (with the `trace` feature).
    pub trace: ThreadTrace,
    /// How the next node was reached ([`crate::trace::kind`]; with the `trace` feature).
    #[cfg_attr(not(feature = "trace"), allow(dead_code))]
    pub trace_kind: u8,
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
    /// Nodes whose moves after the first were shared out among the threads
    /// ([`Parallel::Split`](crate::Parallel::Split)).
    pub splits: u64,
    /// Of those, the nodes a shared-out move refuted while others were being searched
    /// (whose searches were then abandoned).
    pub split_cuts: u64,
    /// Moves of those nodes searched by another thread than the node's own.
    pub moves_shared: u64,
    /// Searches of such moves stopped and started again because another move raised the
    /// node's bound past the one they were searched with.
    pub restarts: u64,
}

impl SmpStats {
    /// The sum of two threads' counts.
    pub fn add(&mut self, o: &SmpStats) {
        self.deferred += o.deferred;
        self.deferred_found += o.deferred_found;
        self.busy_full += o.busy_full;
        self.helper_iterations += o.helper_iterations;
        self.splits += o.splits;
        self.split_cuts += o.split_cuts;
        self.moves_shared += o.moves_shared;
        self.restarts += o.restarts;
    }
}

impl<G: Game> Local<G> {
    /// A thread's memory, with the engine's `history`.
    pub fn new(history: &Arc<History>) -> Self {
        Local {
            heur: Heuristics::new(history),
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
            trace: ThreadTrace::default(),
            trace_kind: 0,
        }
    }
}

/// What the searches below a split node ([`crate::split`]) watch of it.
pub(crate) struct Signal {
    /// Raised when a move refutes the node.
    pub cut: AtomicBool,
    /// The node's best score so far, or its alpha if higher.
    pub alpha: AtomicI32,
}

impl Signal {
    /// Whether a search of a move taken with bound `a` is no longer needed: the node is
    /// refuted, or its bound passed `a` (the move is then searched again at the new one).
    #[inline]
    pub fn stale(&self, a: i32) -> bool {
        self.cut.load(Relaxed) || self.alpha.load(Relaxed) > a
    }
}

/// What the threads searching the moves of split nodes ([`crate::split`]) share beside
/// [`Shared`]: spare thread memories (a task takes one and gives it back, so that they are
/// made once per engine), and what the tasks did.
pub(crate) struct Tasks<G: Game> {
    spare: Mutex<Vec<Local<G>>>,
    /// The engine's history, which spare memories share.
    history: Arc<History>,
    /// The tasks' parallel counters, summed.
    pub smp: Mutex<SmpStats>,
    /// The nodes the tasks searched (with the `trace` feature), by the pool's thread index.
    pub traces: Mutex<Vec<Vec<Visit>>>,
}

impl<G: Game> Tasks<G> {
    pub fn new(history: &Arc<History>) -> Self {
        Tasks {
            spare: Mutex::new(Vec::new()),
            history: Arc::clone(history),
            smp: Mutex::new(SmpStats::default()),
            traces: Mutex::new(Vec::new()),
        }
    }

    /// Forgets the last run's counters and records, for a run of `threads` threads.
    pub fn reset(&mut self, threads: usize) {
        *self.smp.get_mut().unwrap_or_else(|e| e.into_inner()) = SmpStats::default();
        let traces = self.traces.get_mut().unwrap_or_else(|e| e.into_inner());
        traces.clear();
        traces.resize(threads, Vec::new());
    }

    /// A spare thread memory (a new one if none is left).
    pub fn take(&self) -> Local<G> {
        let spare = self.spare.lock().ok().and_then(|mut s| s.pop());
        spare.unwrap_or_else(|| Local::new(&self.history))
    }

    /// Gives a thread memory back, with what its task did.
    pub fn give(&self, mut local: Local<G>) {
        if let Ok(mut smp) = self.smp.lock() {
            smp.add(&local.smp);
        }
        if cfg!(feature = "trace") {
            let i = rayon::current_thread_index().unwrap_or(0);
            if let Ok(mut traces) = self.traces.lock() {
                if let Some(t) = traces.get_mut(i) {
                    t.append(&mut local.trace.visits);
                }
            }
        }
        if let Ok(mut spare) = self.spare.lock() {
            spare.push(local);
        }
    }
}

/// What a [`Worker`] is to its search.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// The main thread: its iterations are the search's; it watches the limits.
    Main,
    /// A Lazy SMP helper ([`crate::smp`]).
    Helper,
    /// A thread searching moves of a split node ([`crate::split`]): it watches the limits
    /// too, and the cuts of the split nodes above it.
    Task,
}

/// One search thread.
pub(crate) struct Worker<'a, 'b, G: Game, E> {
    pub sh: &'a Shared<'a, G, E>,
    pub local: &'b mut Local<G>,
    pub id: usize,
    pub role: Role,
    /// The split nodes this thread searches below (the innermost last), each with the bound
    /// its move here was taken with: when a move of such a node refuted it, or raised its
    /// bound above that one, this search is no longer needed.
    pub cancel: Vec<(Arc<Signal>, i32)>,
    /// Where the threads share out split nodes' moves: what their tasks share.
    pub tasks: Option<&'a Tasks<G>>,
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
        // The last search's history carries over (the engine halves it), its killers do not.
        local.heur.forget_killers();
        local.path.clear();
        local.flags.iter_mut().for_each(|f| *f = 0);
        local.nodes = 0;
        local.smp = SmpStats::default();
        local.trace.visits.clear();
        local.trace.completed = 0;
        fill_filter(sh, local, &[]);
        let role = if id == 0 { Role::Main } else { Role::Helper };
        Worker::with(sh, local, id, role, Vec::new(), None, 0)
    }

    /// A thread searching moves of a split node ([`crate::split`]) at iteration
    /// `searching`, below the node whose path (repetition keys, the node's own last) is
    /// `path` and under the split nodes whose cut flags are `cancel`. Its memory's killers
    /// and history are kept (they only order moves).
    pub fn task(
        sh: &'a Shared<'a, G, E>,
        tasks: &'a Tasks<G>,
        local: &'b mut Local<G>,
        path: &[u64],
        cancel: &[(Arc<Signal>, i32)],
        searching: u32,
    ) -> Self {
        local.path.clear();
        fill_filter(sh, local, path);
        if sh.rule.is_some() {
            local.path.extend_from_slice(path);
        }
        local.made_for.iter_mut().for_each(|m| *m = 0);
        local.smp = SmpStats::default();
        local.trace.visits.clear();
        let id = rayon::current_thread_index().unwrap_or(0);
        let cancel = cancel.to_vec();
        Worker::with(sh, local, id, Role::Task, cancel, Some(tasks), searching)
    }

    /// A worker with nothing searched yet, its memory prepared by [`Worker::new`] or
    /// [`Worker::task`].
    fn with(
        sh: &'a Shared<'a, G, E>,
        local: &'b mut Local<G>,
        id: usize,
        role: Role,
        cancel: Vec<(Arc<Signal>, i32)>,
        tasks: Option<&'a Tasks<G>>,
        searching: u32,
    ) -> Self {
        Worker {
            sh,
            local,
            id,
            role,
            cancel,
            tasks,
            nodes: 0,
            flushed: 0,
            poll_at: 1,
            probes: 0,
            hits: 0,
            stopped: false,
            searching,
            root_best: None,
        }
    }

    /// Adds nodes counted since the last time to the totals, and to the thread's own
    /// count where the threads share out the tree (by the pool's thread index).
    #[inline]
    fn add_nodes(&mut self) -> u64 {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        if self.sh.split {
            let i = rayon::current_thread_index().unwrap_or(0);
            if let Some(c) = self.sh.per_thread.get(i) {
                c.fetch_add(delta, Relaxed);
            }
        }
        self.sh.nodes.fetch_add(delta, Relaxed) + delta
    }

    /// Whether a split node above this thread's search was refuted or passed the bound its
    /// move was taken with (then `stopped`).
    #[inline]
    pub(crate) fn cancelled(&mut self) -> bool {
        if self.cancel.iter().any(|(s, a)| s.stale(*a)) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Adds this thread's counts to the shared totals.
    pub fn flush(&mut self) {
        self.local.nodes = self.nodes;
        self.add_nodes();
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
        let total = self.add_nodes();
        self.poll_at = self.nodes + POLL_INTERVAL;
        if self.aborted() {
            self.stopped = true;
            return;
        }
        if self.role == Role::Helper {
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
            } else if self.role == Role::Main && self.sh.helper_completed(self.searching) {
                // A helper completed this iteration first: its result stands for it.
                self.stopped = true;
            }
        }
    }

    /// Records a node this thread searches (with the `trace` feature; nothing without):
    /// its key (computed only then), remaining depth and ply, with the kind its parent set.
    #[cfg(feature = "trace")]
    #[inline(always)]
    pub(crate) fn trace_visit(&mut self, key: impl FnOnce() -> u64, depth: i32, ply: usize) {
        let kind = std::mem::take(&mut self.local.trace_kind);
        self.local.trace.visits.push(crate::trace::Visit {
            key: key(),
            depth: depth.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            ply: ply.min(255) as u8,
            iteration: self.searching.min(255) as u8,
            kind,
        });
    }

    /// See the `trace` feature's version.
    #[cfg(not(feature = "trace"))]
    #[inline(always)]
    pub(crate) fn trace_visit(&mut self, _: impl FnOnce() -> u64, _: i32, _: usize) {}

    /// Sets how the next node this thread searches is reached (with the `trace` feature).
    #[inline(always)]
    pub(crate) fn trace_kind(&mut self, _kind: u8) {
        #[cfg(feature = "trace")]
        {
            self.local.trace_kind = _kind;
        }
    }

    /// Marks the iteration at `depth` as completed by this thread (with the `trace`
    /// feature).
    #[inline]
    pub(crate) fn trace_completed(&mut self, _depth: u32) {
        #[cfg(feature = "trace")]
        {
            self.local.trace.completed |= 1u64.checked_shl(_depth).unwrap_or(0);
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
                if ply == 1 && self.sh.ends.contains(&rep_key) {
                    // The root player's move ends the game by the rule, which it avoids
                    // (`Config::avoid_repetition_end`): bad for the root player, from the
                    // hero's view.
                    let s = if self.sh.hero == self.sh.root_player {
                        SHUNNED
                    } else {
                        -SHUNNED
                    };
                    return (Some(sign * s), rep_key);
                }
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

/// Sets `local`'s repetition filter to the game's history and `path` (the repetition keys
/// above a split node), where the game has a repetition rule; clears it otherwise.
fn fill_filter<G: Game, E>(sh: &Shared<'_, G, E>, local: &mut Local<G>, path: &[u64]) {
    local.filter.iter_mut().for_each(|f| *f = 0);
    if sh.rule.is_some() {
        for &k in sh.history.iter().chain(path) {
            local.filter[k as usize & FILTER_MASK] += 1;
        }
    }
}
