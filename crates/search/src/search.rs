//! The alpha-beta family: negamax with principal-variation search, iterative deepening,
//! aspiration windows and quiescence, used for two-player zero-sum games, paranoid search
//! and best-reply search.
//!
//! Values inside the search are from the view of the *side* to move, where the root player
//! is one side and everybody else the other (for two players: plain negamax). A child whose
//! side is the parent's (the same player moves again, or in paranoid search one opponent
//! after another) is searched with the same window and no negation.
//!
//! Table cutoffs are exact: an entry's value is used only when its depth equals the
//! remaining depth, or when it is a forced win or loss within both depths (such a value is
//! the same at every depth that sees it), so a fixed-depth search returns exactly the
//! fixed-depth minimax value with or without the table, ordering and threads.
//!
//! Near the horizon the table is not used (depth 1; depth 2 only with more than four moves):
//! there a probe's cache miss costs more than the search it could save. A deeper node makes
//! all its children first and loads their table buckets together, so that the cache misses
//! overlap instead of coming one after another; then, at a non-PV node, it looks for a child
//! entry that already proves a cutoff (enhanced transposition cutoff, [`Worker::etc`]).
//! It also asks for the buckets of the children of the child it will search first, which
//! that child reads as soon as it starts: they arrive while this node waits for its own.
//! Nodes one ply above the horizon (without quiescence) take a short path that evaluates
//! the children in place ([`Worker::frontier`]).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

use fxhash::FxHashSet;
use smallvec::SmallVec;

use crate::game::{Evaluator, Game, MoveList, Outcome, Player};
use crate::game::{MAX_EVAL, MAX_HINT};
use crate::history::Heuristics;
use crate::movepick::{next, pick, HINT_UNIT, KILLER_KEY, TT_KEY};
use crate::reference::{forward, reply_chain};
use crate::score::{from_tt, outcome_score, to_tt, INF, MAX_PLY, MAX_QUIESCENCE_PLY};
use crate::smp::Busy;
use crate::time::TimeManager;
use crate::tt::{Bound, Data, Table, NO_MOVE};
use crate::types::{Config, Report, MATE, MATE_BOUND};

/// Nodes between two looks at the clock and the stop flags.
const POLL_INTERVAL: u64 = 1024;
/// Iterations from which aspiration windows are used.
const ASPIRATION_DEPTH: u32 = 4;
const FILTER_MASK: usize = 4095;
/// Nodes with less remaining depth neither probe nor store the table, and nodes with this
/// depth only if they have more than [`SMALL_BRANCHING`] moves: a probe of a large table costs
/// a cache miss, more than searching a small subtree again.
const TT_MIN_DEPTH: i32 = 2;
/// See [`TT_MIN_DEPTH`].
const SMALL_BRANCHING: usize = 4;
/// [`Shared::main_score`] before the main thread completed an iteration.
pub(crate) const NO_SCORE: i32 = i32::MIN;
/// Positions with at most this depth are not announced as busy.
const BUSY_DEPTH: i32 = 3;

/// What every thread of one search shares.
pub(crate) struct Shared<'a, G: Game, E> {
    pub config: &'a Config,
    pub eval: &'a E,
    pub table: Option<&'a Table>,
    pub age: u8,
    pub root_player: Player,
    pub rule: Option<Outcome>,
    pub history: FxHashSet<u64>,
    pub user_stop: &'a AtomicBool,
    /// Set by the main thread when the search must end (limits reached, or it finished).
    pub abort: AtomicBool,
    pub nodes: AtomicU64,
    pub probes: AtomicU64,
    pub hits: AtomicU64,
    pub node_limit: Option<u64>,
    pub time: TimeManager,
    /// The iteration the main thread is searching.
    pub main_depth: AtomicU32,
    /// The score of the main thread's last completed iteration ([`NO_SCORE`] before the first).
    pub main_score: AtomicI32,
    pub brs: bool,
    pub max_depth: u32,
    /// Positions some thread is searching (none with one thread).
    pub busy: Busy,
    /// The iterations helpers completed, as a bit per depth (depths below 64): the main thread
    /// stops searching an iteration a helper completed and takes the helper's result.
    pub helper_done: AtomicU64,
    /// The iterations helpers completed, with their depths (each depth once).
    pub helper_results: Mutex<Vec<(u32, Iteration<G::Move>)>>,
    pub _game: std::marker::PhantomData<fn(&G)>,
}

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
    /// A buffer per ply for the ordering keys of a node's moves, kept likewise.
    pub keys: Vec<Vec<i32>>,
    pub path: Vec<u64>,
    pub filter: Vec<u16>,
    /// Nodes this thread searched in the last run.
    pub nodes: u64,
}

impl<G: Game> Local<G> {
    pub fn new() -> Self {
        Local {
            heur: Heuristics::new(),
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY + 1))
                .collect(),
            children: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            keys: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            path: Vec::with_capacity(MAX_PLY + 2),
            filter: vec![0; FILTER_MASK + 1],
            nodes: 0,
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
    probes: u64,
    hits: u64,
    pub stopped: bool,
    /// The iteration this thread is searching.
    searching: u32,
}

/// The outcome of one completed iteration of the main thread.
pub(crate) struct Iteration<M> {
    pub score: i32,
    pub pv: Vec<M>,
}

impl<'a, 'b, G: Game, E: Evaluator<G>> Worker<'a, 'b, G, E> {
    pub fn new(sh: &'a Shared<'a, G, E>, local: &'b mut Local<G>, id: usize) -> Self {
        local.heur.clear();
        local.path.clear();
        local.nodes = 0;
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
    fn count_node(&mut self) {
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
            } else if self.sh.helper_done.load(Relaxed) & depth_bit(self.searching) != 0 {
                // A helper completed this iteration first: its result stands for it.
                self.stopped = true;
            }
        }
    }

    /// Whether the search as a whole must end (the user's stop or the main thread's abort).
    #[inline]
    fn aborted(&self) -> bool {
        self.sh.user_stop.load(Relaxed) || self.sh.abort.load(Relaxed)
    }

    fn stop_all(&mut self) {
        self.sh.abort.store(true, Relaxed);
        self.stopped = true;
    }

    /// The evaluation from the root player's view.
    #[inline]
    fn eval(&self, pos: &G) -> i32 {
        self.sh.eval.evaluate(pos)[self.sh.root_player]
    }

    /// The repetition outcome if `key` (a repetition key) occurred before.
    #[inline(always)]
    fn repeated(&self, key: u64) -> bool {
        self.local.filter[key as usize & FILTER_MASK] != 0 && self.on_path_or_history(key)
    }

    /// The exact test behind [`Worker::repeated`]'s filter (out of line: rarely reached).
    #[inline(never)]
    fn on_path_or_history(&self, key: u64) -> bool {
        self.local.path.contains(&key) || self.sh.history.contains(&key)
    }

    #[inline]
    fn push_path(&mut self, key: u64) {
        self.local.path.push(key);
        self.local.filter[key as usize & FILTER_MASK] += 1;
    }

    #[inline]
    fn pop_path(&mut self) {
        if let Some(key) = self.local.path.pop() {
            self.local.filter[key as usize & FILTER_MASK] -= 1;
        }
    }

    /// Terminal value of `pos` from its side's view (repetition before the position's rules),
    /// and its repetition key when the game has a repetition rule.
    #[inline]
    fn terminal(&self, pos: &G, ply: usize, sign: i32) -> (Option<i32>, u64) {
        let mut rep_key = 0;
        if let Some(rule) = self.sh.rule {
            rep_key = pos.repetition_key();
            if ply > 0 && self.repeated(rep_key) {
                let s = outcome_score(rule, self.sh.root_player, ply as u32);
                return (Some(sign * s), rep_key);
            }
        }
        let v = pos
            .outcome()
            .map(|o| sign * outcome_score(o, self.sh.root_player, ply as u32));
        (v, rep_key)
    }

    /// Probes the table: the value if an entry allows a cutoff; sets the move to try first.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn probe(
        &mut self,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        tt_move: &mut u8,
    ) -> Option<i32> {
        let table = self.sh.table?;
        self.probes += 1;
        let mut hit = false;
        // The move of the entry of this depth, else of the deepest entry.
        let mut move_depth = -1;
        for e in table.entries(key) {
            if !hit {
                hit = true;
                self.hits += 1;
            }
            if e.mv != NO_MOVE
                && move_depth != depth
                && (e.depth as i32 == depth || e.depth as i32 > move_depth)
            {
                *tt_move = e.mv;
                move_depth = e.depth as i32;
            }
            if ply > 0 && !pv_node && usable(&e, depth) {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return Some(s);
                }
            }
        }
        None
    }

    /// A node one ply above the horizon (no quiescence, not best-reply search): the same
    /// value as the general case, whose children would each be evaluated at once, without
    /// its machinery. The killers of this ply go first, then the moves in the game's order,
    /// and a cutoff updates the killers and history as the general case does.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn frontier(
        &mut self,
        pos: &G,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        side: bool,
        pv_node: bool,
        rep_key: u64,
    ) -> i32 {
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        // A plain slice from here on: each access to a `SmallVec` asks where its items are.
        let moves = moves.as_mut_slice();
        let n = moves.len();
        debug_assert!(n > 0, "a position that goes on has a move");
        let ordering = self.sh.config.ordering;
        if ordering && n > 1 {
            // Killers to the front, in their order; the rest keep theirs.
            let mut front = 0;
            for killer in self.local.heur.killers(ply).into_iter().flatten() {
                if let Some(j) = moves[front..].iter().position(|&m| m == killer) {
                    moves[front..=front + j].rotate_right(1);
                    front += 1;
                }
            }
        }
        if self.sh.rule.is_some() {
            self.push_path(rep_key);
        }
        let sign = if side { 1 } else { -1 };
        let mut best = -INF;
        let mut child = pos.clone();
        for &mv in moves.iter() {
            child.play_from(pos, mv);
            self.count_node();
            if self.stopped {
                break;
            }
            // The value of the leaf from this node's side (a child of the other side would
            // negate its own value, which is the same thing).
            let score = match self.terminal(&child, ply + 1, sign).0 {
                Some(v) => v,
                None => sign * self.eval(&child),
            };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let line = &mut self.local.pv[ply];
                        line.clear();
                        line.push(mv);
                    }
                    if score >= beta {
                        if ordering {
                            self.local.heur.cutoff(ply, 1, pos.to_move(), mv, &[]);
                        }
                        break;
                    }
                }
            }
        }
        if self.sh.rule.is_some() {
            self.pop_path();
        }
        if self.stopped {
            return 0;
        }
        best
    }

    /// Enhanced transposition cutoff: the first child (in move order) whose table entry
    /// proves the parent's value at least `beta`, with that value from the parent's side.
    ///
    /// Only entries the child's own probe would use count (of exactly `depth`, or a proven
    /// result within it), and a child that would end the game or repeat a position is left
    /// to the search, which scores it by the rules first; so a cutoff found here is one the
    /// child's search would have returned, and values at a fixed depth do not change.
    #[inline(never)]
    fn etc(
        &mut self,
        table: &Table,
        children: &[G],
        depth: i32,
        ply: usize,
        beta: i32,
        side: bool,
    ) -> Option<(usize, i32)> {
        for (i, child) in children.iter().enumerate() {
            let child_side = child.to_move() == self.sh.root_player;
            if child.outcome().is_some()
                || (self.sh.rule.is_some() && self.repeated(child.repetition_key()))
            {
                continue;
            }
            for e in table.entries(child.key()) {
                if !usable(&e, depth) {
                    continue;
                }
                let s = from_tt(e.score, ply);
                // A bound on the parent's value from below, if the entry gives one.
                let low = if child_side == side {
                    matches!(e.bound, Bound::Exact | Bound::Lower).then_some(s)
                } else {
                    matches!(e.bound, Bound::Exact | Bound::Upper).then_some(-s)
                };
                if let Some(v) = low.filter(|&v| v >= beta) {
                    return Some((i, v));
                }
            }
        }
        None
    }

    /// Stores a node's result: `score` from its side's view, `best` the index of its best
    /// move (none if out of the table's range).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(
        &self,
        table: &Table,
        key: u64,
        score: i32,
        depth: i32,
        ply: usize,
        best: usize,
        bound: Bound,
    ) {
        let data = Data {
            score: to_tt(score, ply),
            depth: depth as u8,
            mv: if best < NO_MOVE as usize {
                best as u8
            } else {
                NO_MOVE
            },
            bound,
            age: self.sh.age,
        };
        table.store(key, data);
    }

    /// Searches the root to `depth` inside the window; the value is from the root player's view.
    pub fn root_search(&mut self, root: &G, depth: u32, alpha: i32, beta: i32) -> i32 {
        if self.sh.brs {
            self.negamax::<true>(root, depth as i32, 0, alpha, beta, true)
        } else {
            self.negamax::<false>(root, depth as i32, 0, alpha, beta, true)
        }
    }

    /// Value of `child` from the view of the parent's side.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_value<const BRS: bool>(
        &mut self,
        child: &G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        side: bool,
        child_side: bool,
    ) -> i32 {
        if child_side == side {
            self.negamax::<BRS>(child, depth, ply, alpha, beta, child_side)
        } else {
            -self.negamax::<BRS>(child, depth, ply, -beta, -alpha, child_side)
        }
    }

    /// Fail-soft negamax alpha-beta with PVS. `side`: whether the root player is to move.
    fn negamax<const BRS: bool>(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        side: bool,
    ) -> i32 {
        self.local.pv[ply].clear();
        self.count_node();
        if self.stopped {
            return 0;
        }
        let sign = if side { 1 } else { -1 };
        let (end, rep_key) = self.terminal(pos, ply, sign);
        if let Some(v) = end {
            return v;
        }
        if ply >= MAX_PLY {
            return sign * self.eval(pos);
        }
        if depth <= 0 {
            return if self.sh.config.quiescence {
                self.quiesce(pos, ply, 0, alpha, beta, side, rep_key)
            } else {
                sign * self.eval(pos)
            };
        }
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            // Mate-distance pruning: nothing here beats a win on the next ply.
            let best_possible = MATE - ply as i32 - 1;
            alpha = alpha.max(-best_possible);
            beta = beta.min(best_possible);
            if alpha >= beta {
                return alpha;
            }
        }

        // The last ply before the horizon, without quiescence: every child is a leaf.
        if depth == 1 && !BRS && !self.sh.config.quiescence {
            return self.frontier(pos, ply, alpha, beta, side, pv_node, rep_key);
        }

        // Transposition table, probed before move generation where the subtree is large
        // (see `TT_MIN_DEPTH`).
        let key = pos.key();
        let mut tt_move = NO_MOVE;
        let mut use_table = self.sh.table.is_some() && depth > TT_MIN_DEPTH;
        if use_table {
            if let Some(s) = self.probe(key, depth, ply, alpha, beta, pv_node, &mut tt_move) {
                return s;
            }
        }

        // Moves: the player's own, or in best-reply search at an opponent layer every
        // opponent's, from the positions reached by skipping turns.
        let opponents_layer = BRS && !side;
        let mut chain: SmallVec<[G; 3]> = SmallVec::new();
        let mut from: SmallVec<[u8; 128]> = SmallVec::new();
        let mut moves: MoveList<G::Move> = MoveList::new();
        if opponents_layer {
            chain = reply_chain(pos, self.sh.root_player);
            for (k, p) in chain.iter().enumerate() {
                p.legal_moves(&mut moves);
                from.resize(moves.len(), k as u8);
            }
        } else {
            pos.legal_moves(&mut moves);
        }
        // A plain slice from here on: each access to a `SmallVec` asks where its items are.
        let moves = moves.as_slice();
        let n = moves.len();
        debug_assert!(n > 0, "a position that goes on has a move");
        if self.sh.table.is_some() && depth == TT_MIN_DEPTH && n > SMALL_BRANCHING {
            use_table = true;
            if let Some(s) = self.probe(key, depth, ply, alpha, beta, pv_node, &mut tt_move) {
                return s;
            }
        }
        // The position where move `i` is played, and who plays it.
        let at = |i: usize| {
            if opponents_layer {
                &chain[from[i] as usize]
            } else {
                pos
            }
        };
        let mover = |i: usize| at(i).to_move();

        if self.sh.rule.is_some() {
            self.push_path(rep_key);
        }
        // Deeper nodes make their children up front: their table buckets are fetched
        // together, so that the cache misses overlap instead of coming one after another,
        // and then looked at for a cutoff (enhanced transposition cutoff).
        let root_player = self.sh.root_player;
        // A child is played where it is kept: copied as a whole right after `play` wrote its
        // fields one by one, it would wait for those writes to complete (a store-to-load
        // forwarding failure: 7% of this function's samples at Jumpy3 depth 24).
        let parent = |i: usize| {
            if opponents_layer {
                &chain[from[i] as usize]
            } else {
                pos
            }
        };
        let play_child = |i: usize, child: &mut G| {
            child.play_from(parent(i), moves[i]);
            if opponents_layer {
                forward(child, root_player);
            }
        };
        // Parallel search: a child another thread is searching right now is put off to the
        // end (ABDADA's idea), by when its value is likely in the table. Of the children put
        // off, those no longer being searched are taken up first.
        let share = self.sh.busy.enabled() && depth > BUSY_DEPTH;
        // Children are looked up only where they announce themselves.
        let defer = share && depth - 1 > BUSY_DEPTH;
        let mut children = std::mem::take(&mut self.local.children[ply]);
        children.clear();
        let up_front = self.sh.table.filter(|_| depth - 1 > TT_MIN_DEPTH);
        if let Some(table) = up_front {
            children.reserve(n);
            for i in 0..n {
                children.push(pos.clone());
                let child = &mut children[i];
                play_child(i, child);
                let child_key = child.key();
                table.touch(child_key);
                if defer {
                    // The slot this node reads before searching the child, and the child
                    // writes: another thread may hold its line.
                    self.sh.busy.prefetch(child_key);
                }
            }
        }
        // The ordering keys are computed between the prefetches above and the cutoff test
        // below, which reads the buckets: the work hides part of the wait for them (the
        // test's first read was 78% of its time in a profile).
        let mut keys = std::mem::take(&mut self.local.keys[ply]);
        keys.clear();
        let ordering = self.sh.config.ordering;
        if ordering {
            let heur = &self.local.heur;
            // Every part is computed and the key picked by selects: which move is the table's
            // or a killer changes from node to node, and branches on it would be mispredicted.
            for (i, mv) in moves.iter().enumerate() {
                let hint = self.sh.eval.move_hint(at(i), *mv);
                let quiet =
                    heur.history(mover(i), mv) + hint.clamp(-MAX_HINT, MAX_HINT) * HINT_UNIT;
                let rank = heur.killer_rank(ply, mv);
                let k = if rank == 0 {
                    quiet
                } else {
                    KILLER_KEY - 2 + rank as i32
                };
                keys.push(if i == tt_move as usize { TT_KEY } else { k });
            }
        }
        if let Some(table) = up_front {
            if !opponents_layer && depth - 2 > TT_MIN_DEPTH {
                // The child searched first will make its own children and read their
                // buckets at once: ask for them now, so that they arrive while this node
                // waits for its own.
                let first = if ordering {
                    next(&keys).unwrap_or(0)
                } else {
                    0
                };
                let c = &children[first];
                if c.outcome().is_none() {
                    let mut grand: MoveList<G::Move> = MoveList::new();
                    c.legal_moves(&mut grand);
                    let mut g = c.clone();
                    for &m in grand.iter() {
                        g.play_from(c, m);
                        table.touch(g.key());
                    }
                }
            }
            if !pv_node {
                if let Some((i, s)) = self.etc(table, &children, depth - 1, ply + 1, beta, side) {
                    if self.sh.rule.is_some() {
                        self.pop_path();
                    }
                    self.local.children[ply] = children;
                    self.local.keys[ply] = keys;
                    self.store(table, key, s, depth, ply, i, Bound::Lower);
                    return s;
                }
            }
        }
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_i = usize::MAX;
        let mut tried: SmallVec<[(Player, G::Move); 32]> = SmallVec::new();
        let mut deferred: SmallVec<[(usize, u64); 16]> = SmallVec::new();
        if share {
            self.sh.busy.announce(key);
        }
        let mut searched = 0;
        let mut picked = 0;
        loop {
            let (i, may_defer) = if picked < n {
                picked += 1;
                let i = if ordering {
                    pick(&mut keys).expect("a move is left")
                } else {
                    picked - 1
                };
                (i, defer && searched > 0)
            } else if !deferred.is_empty() {
                let free = deferred
                    .iter()
                    .position(|&(_, k)| !self.sh.busy.is_busy(k))
                    .unwrap_or(0);
                (deferred.remove(free).0, false)
            } else {
                break;
            };
            let mv = moves[i];
            let mut made;
            let child = match children.get(i) {
                Some(c) => c,
                None => {
                    made = pos.clone();
                    play_child(i, &mut made);
                    &made
                }
            };
            if may_defer {
                let k = child.key();
                if self.sh.busy.is_busy(k) {
                    deferred.push((i, k));
                    continue;
                }
            }
            let child_side = child.to_move() == self.sh.root_player;
            let d = depth - 1;
            let score = if searched == 0 {
                self.child_value::<BRS>(child, d, ply + 1, alpha, beta, side, child_side)
            } else {
                let s =
                    self.child_value::<BRS>(child, d, ply + 1, alpha, alpha + 1, side, child_side);
                if s > alpha && s < beta && !self.stopped {
                    self.child_value::<BRS>(child, d, ply + 1, alpha, beta, side, child_side)
                } else {
                    s
                }
            };
            searched += 1;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_i = i;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.local.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        line.extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if ordering {
                            self.local.heur.cutoff(ply, depth, mover(i), mv, &tried);
                        }
                        break;
                    }
                }
            }
            if ordering && tried.len() < tried.inline_size() {
                tried.push((mover(i), mv));
            }
        }
        self.local.children[ply] = children;
        self.local.keys[ply] = keys;
        if share {
            self.sh.busy.withdraw(key);
        }
        if self.sh.rule.is_some() {
            self.pop_path();
        }
        if self.stopped {
            return 0;
        }
        if let Some(table) = self.sh.table.filter(|_| use_table) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(table, key, best, depth, ply, best_i, bound);
        }
        best
    }

    /// Quiescence search: stand pat or play a noisy move.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        pos: &G,
        ply: usize,
        q: usize,
        mut alpha: i32,
        beta: i32,
        side: bool,
        rep_key: u64,
    ) -> i32 {
        let sign = if side { 1 } else { -1 };
        let stand = sign * self.eval(pos);
        if stand >= beta || ply >= MAX_PLY || q >= MAX_QUIESCENCE_PLY {
            return stand;
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.noisy_moves(&mut moves);
        if moves.is_empty() {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        if self.sh.rule.is_some() {
            self.push_path(rep_key);
        }
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let child_side = child.to_move() == self.sh.root_player;
            let score = if child_side == side {
                self.quiesce_node(&child, ply + 1, q + 1, alpha, beta, child_side)
            } else {
                -self.quiesce_node(&child, ply + 1, q + 1, -beta, -alpha, child_side)
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.sh.rule.is_some() {
            self.pop_path();
        }
        best
    }

    /// A node of the quiescence search: counted, checked for the end of the game.
    fn quiesce_node(
        &mut self,
        pos: &G,
        ply: usize,
        q: usize,
        alpha: i32,
        beta: i32,
        side: bool,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let sign = if side { 1 } else { -1 };
        let (end, rep_key) = self.terminal(pos, ply, sign);
        match end {
            Some(v) => v,
            None => self.quiesce(pos, ply, q, alpha, beta, side, rep_key),
        }
    }

    /// Iterative deepening of the main thread; returns the completed iterations' reports.
    pub fn iterate(
        &mut self,
        root: &G,
        mut on_iteration: impl FnMut(&Iteration<G::Move>, u32),
    ) -> Option<Iteration<G::Move>> {
        let mut last: Option<Iteration<G::Move>> = None;
        let (mut t_last, mut t_before) = (Duration::ZERO, Duration::ZERO);
        for depth in 1..=self.sh.max_depth {
            if depth > 1 && !self.sh.time.may_start(t_last, t_before) {
                break;
            }
            let started = self.sh.time.elapsed();
            self.searching = depth;
            self.sh.main_depth.store(depth, Relaxed);
            let it = match self.helper_result(depth) {
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
                        match self.helper_result(depth) {
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

    /// Takes a helper's result of the iteration at `depth`, if a helper completed it.
    fn helper_result(&self, depth: u32) -> Option<Iteration<G::Move>> {
        if self.sh.helper_done.load(Relaxed) & depth_bit(depth) == 0 {
            return None;
        }
        let mut results = self.sh.helper_results.lock().ok()?;
        let i = results.iter().position(|(d, _)| *d == depth)?;
        Some(results.swap_remove(i).1)
    }

    /// A helper's completed iteration, for the main thread to take if it is still on it.
    fn publish(&self, depth: u32, score: i32) {
        let bit = depth_bit(depth);
        if bit == 0 || depth < self.sh.main_depth.load(Relaxed) {
            return;
        }
        let Ok(mut results) = self.sh.helper_results.lock() else {
            return;
        };
        if self.sh.helper_done.load(Relaxed) & bit == 0 {
            results.push((
                depth,
                Iteration {
                    score,
                    pv: self.local.pv[0].clone(),
                },
            ));
            self.sh.helper_done.fetch_or(bit, Relaxed);
        }
    }

    fn aspiration(&mut self, root: &G, depth: u32, prev: Option<i32>) -> i32 {
        let prev = match prev {
            Some(p)
                if self.sh.config.aspiration
                    && depth >= ASPIRATION_DEPTH
                    && p.abs() <= MAX_EVAL =>
            {
                p
            }
            _ => return self.root_search(root, depth, -INF, INF),
        };
        let mut delta = self.sh.eval.aspiration_window().clamp(1, MAX_EVAL);
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        loop {
            let s = self.root_search(root, depth, alpha, beta);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                alpha = if s < -MAX_EVAL {
                    -INF
                } else {
                    (s - delta).max(-INF)
                };
            } else if s >= beta {
                beta = if s > MAX_EVAL {
                    INF
                } else {
                    (s + delta).min(INF)
                };
            } else {
                return s;
            }
            delta = delta.saturating_mul(2);
            if delta > 4 * MAX_EVAL {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// A helper thread's Lazy-SMP loop: iterative deepening at the main thread's iteration
    /// (even helpers one ply ahead), filling the shared table; a helper that falls behind
    /// the main thread abandons its iteration and joins the main thread's.
    pub fn help(&mut self, root: &G) {
        let mut done = 0;
        // Even helpers one iteration ahead of the main thread, odd ones beside it.
        let off = (self.id as u32 + 1) & 1;
        loop {
            let main = self.sh.main_depth.load(Relaxed);
            let depth = (done + 1).max(main + off);
            if depth > self.sh.max_depth || self.aborted() {
                break;
            }
            self.searching = depth;
            // The main thread's window (around its last score), so that the bounds this
            // thread stores are the ones the main thread's probes can use.
            let prev = Some(self.sh.main_score.load(Relaxed)).filter(|&s| s != NO_SCORE);
            let score = self.aspiration(root, depth, prev);
            if self.stopped {
                if self.aborted() {
                    break;
                }
                // Overtaken by the main thread: go on from its iteration.
                self.stopped = false;
                continue;
            }
            self.publish(depth, score);
            done = depth;
        }
        self.flush();
    }
}

/// The bit of `depth` in [`Shared::helper_done`] (none for depths from 64).
#[inline]
fn depth_bit(depth: u32) -> u64 {
    1u64.checked_shl(depth).unwrap_or(0)
}

/// Whether a table entry of this position may stand in for a search to `depth`.
///
/// Beside entries of exactly this depth: an entry whose score is a win or loss in `k` plies
/// with `k` at most both depths. Say the entry, of depth `d`, bounds the value by a win in
/// `k` (the loss case is symmetric). A forced win in `j` plies ends every line by a terminal
/// position within `j` plies, so it is seen by every search of depth at least `j`, whatever
/// lies beyond. If `v_d ≥ win in k`, a win in `j ≤ k ≤ depth` is forced, so `v_depth` is at
/// least that too. If `v_d ≤ win in k`, a faster forced win (`j < k ≤ d`) would have shown at
/// depth `d`; so `v_depth ≤ win in k` as well. Exact values are both bounds.
#[inline]
fn usable(e: &Data, depth: i32) -> bool {
    let d = e.depth as i32;
    if d == depth {
        return true;
    }
    let k = if e.score > MATE_BOUND {
        MATE - e.score
    } else if e.score < -MATE_BOUND {
        MATE + e.score
    } else {
        return false;
    };
    k <= depth.min(d)
}

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
    let mut scores = [0; 3];
    for (p, s) in scores.iter_mut().enumerate().take(players) {
        *s = if p == sh.root_player {
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
