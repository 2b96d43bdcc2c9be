//! Max^n search (Luckhardt & Irani 1986) with immediate and shallow pruning (Korf 1991).
//!
//! Every position has one score per player; the player to move picks the child whose score
//! for itself is highest (on ties the first in legal-move order, so the value does not
//! depend on search order). Terminal positions score [`crate::outcome_score`] for every
//! player (a draw: the evaluation's [`Evaluator::draw_scores`]), so both players of a non-zero-sum game prefer "both win" to "both lose".
//!
//! **Pruning.** Immediate pruning (stop once the mover has the best score possible, a win on
//! the next ply) is always valid. Shallow pruning is valid only when every score vector the
//! search can meet (evaluations and terminal scores alike, over the first `players()`
//! entries) satisfies known bounds: a sum of at most [`MaxnBounds::max_sum`] and each entry at
//! least [`MaxnBounds::min_score`]. Give those bounds with
//! [`Search::set_maxn_bounds`](crate::Search::set_maxn_bounds) only if they hold; without them
//! no shallow pruning is done. (Deep pruning is never valid in max^n and is not done.)
//!
//! **Table.** With the table on ([`Config::use_tt`](crate::Config)), a node's exact vector is
//! stored at its depth and used by a search of that same depth that reaches the position
//! again (on another path, in the next iteration's shallower nodes, on another thread): a
//! node cut short by shallow pruning is not stored, so at a fixed depth the values are the
//! serial ones without the table. The key includes the root player, whose view the
//! evaluation may take ([`Evaluator::evaluate_for`]). Where the game has a repetition rule
//! a vector is stored only if no repetition was scored below it; one found on another path
//! may still miss a repetition this path would meet (graph-history interaction, which the
//! alpha-beta table accepts likewise).
//!
//! **Threads.** With several threads the tree is shared
//! out below the root as well as at it (Young Brothers Wait, Feldmann 1993, on rayon): at a
//! node of depth [`SPLIT_DEPTH`] or more the first child is searched alone, and then the
//! others at once, each a task that any thread may take (and split again further down),
//! with the first child's score as their shallow-pruning bound. The node's choice is made
//! afterwards in legal-move order by the serial rule (highest score for the mover, the first
//! on ties; immediate pruning at the first that reaches a win on the next ply). A weaker bound
//! only cuts off less, and what a cut-off child returns is never chosen; so the scores and
//! the move equal the serial ones at every depth. Without the table and without
//! shallow-pruning bounds the nodes searched are the serial ones but for the children
//! searched beside one that wins at once; with the table, which vectors are there when a
//! thread looks depends on the threads' timing, so the node counts vary (the values do not).
//! Work stealing spreads the work: no thread waits while a task is left.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

use crate::game::{Evaluator, Game, MoveList, Scores};
use crate::score::{end_scores, masked, MAX_PLY, MAX_QUIESCENCE_PLY, SHUNNED};
use crate::shared::{Padded, Shared};
use crate::time::Stability;
use crate::trace::Visit;
use crate::types::MATE;

/// Nodes of at least this depth search their children after the first in parallel.
pub(crate) const SPLIT_DEPTH: u32 = 4;

/// Nodes between two looks at the limits.
const POLL_INTERVAL: u64 = 1024;
/// Nodes of at least this depth probe and store the table.
const TABLE_DEPTH: u32 = 1;

/// Bounds on score vectors that make max^n shallow pruning valid (see the module
/// documentation of [`crate::Search::set_maxn_bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxnBounds {
    /// No score vector's entries (of the players in the game) sum to more than this.
    pub max_sum: i64,
    /// No entry of a score vector is below this.
    pub min_score: i32,
}

pub(crate) struct Maxn<'a, G: Game, E> {
    sh: &'a Shared<'a, G, E>,
    bounds: Option<MaxnBounds>,
    players: usize,
    pub nodes: u64,
    flushed: u64,
    poll_at: u64,
    pub stopped: bool,
    /// Repetitions scored so far: a node whose count changed below it is not stored.
    reps: u64,
    /// The table's key of a position is its key mixed with this (the root player's).
    salt: u64,
    pub probes: u64,
    pub hits: u64,
    path: Vec<u64>,
    pub pv: Vec<Vec<G::Move>>,
    /// The threads that share the tree, and each one's node count (by the pool's thread
    /// index); `None`: one thread.
    split: Option<Split<'a>>,
    /// The iteration being searched.
    iteration: u32,
    /// The nodes searched since the last flush (with the `trace` feature).
    pub visits: Vec<Visit>,
}

/// What ends a node early, for the threads that share out its children: its mover's
/// win on the next ply (immediate pruning) or a shallow cut below its parent.
#[derive(Clone, Copy)]
struct Ending {
    mover: usize,
    best_possible: i32,
    parent: Option<(usize, i32)>,
}

/// What the threads that share out a node's children share: the next child to take,
/// whether a child ended the node, and the children searched (their place in the moves,
/// scores, lines and the repetitions scored below them).
struct Sharing<M> {
    next: AtomicUsize,
    ended: AtomicBool,
    done: Mutex<Vec<Searched<M>>>,
}

/// A child searched by one of the threads sharing out a node's children: its place in
/// the moves, its scores, its line, and the repetitions scored below it.
type Searched<M> = (usize, Scores, Vec<M>, u64);

/// The pool of a parallel max^n search and its per-thread node counts.
#[derive(Clone, Copy)]
pub(crate) struct Split<'a> {
    pub pool: &'a rayon::ThreadPool,
    pub per_thread: &'a [Padded<AtomicU64>],
    /// Each thread's nodes (with the `trace` feature).
    pub traces: &'a [Mutex<Vec<Visit>>],
}

impl<'a, G: Game, E: Evaluator<G>> Maxn<'a, G, E> {
    pub fn new(
        sh: &'a Shared<'a, G, E>,
        bounds: Option<MaxnBounds>,
        players: usize,
        split: Option<Split<'a>>,
    ) -> Self {
        Maxn {
            sh,
            bounds,
            players,
            nodes: 0,
            flushed: 0,
            poll_at: 1,
            stopped: false,
            reps: 0,
            salt: (sh.root_player as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            probes: 0,
            hits: 0,
            path: Vec::new(),
            pv: vec![Vec::new(), Vec::new()],
            split,
            iteration: 0,
            visits: Vec::new(),
        }
    }

    pub fn flush(&mut self) {
        let delta = self.nodes - self.flushed;
        self.sh.nodes.fetch_add(delta, Relaxed);
        if let Some(split) = self.split {
            // The thread that searched them (the pool has one per thread of the search; the
            // caller, outside it, counts as the first).
            let i = rayon::current_thread_index().unwrap_or(0);
            if let Some(c) = split.per_thread.get(i) {
                c.fetch_add(delta, Relaxed);
            }
            if let Some(Ok(mut t)) = split.traces.get(i).map(Mutex::lock) {
                t.append(&mut self.visits);
            }
        }
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
            self.flush();
            self.poll_at = self.nodes + POLL_INTERVAL;
            let total = self.sh.nodes.load(Relaxed);
            if let Some(limit) = self.sh.node_limit {
                self.poll_at = self.poll_at.min(self.nodes + limit.saturating_sub(total));
            }
            if self.sh.user_stop.load(Relaxed)
                || self.sh.abort.load(Relaxed)
                || self.sh.node_limit.is_some_and(|l| total >= l)
                || self.sh.time.out_of_time()
            {
                self.stopped = true;
                self.sh.abort.store(true, Relaxed);
            }
        }
    }

    /// Records a node (with the `trace` feature; nothing without).
    #[inline(always)]
    fn trace_visit(&mut self, _pos: &G, _depth: i32, _ply: usize) {
        #[cfg(feature = "trace")]
        self.visits.push(Visit {
            key: _pos.key(),
            depth: _depth as i16,
            ply: _ply.min(255) as u8,
            iteration: self.iteration.min(255) as u8,
            kind: 0,
        });
    }

    fn terminal(&mut self, pos: &G, ply: usize) -> Option<Scores> {
        if let Some(rule) = self.sh.rule {
            let k = pos.repetition_key();
            if ply > 0 && (self.path.contains(&k) || self.sh.history.contains(&k)) {
                self.reps += 1;
                let mut s = end_scores(self.sh.eval, pos, rule, self.players, ply);
                if ply == 1 && self.sh.ends.contains(&k) {
                    // The root player's move ends the game by the rule, which it avoids.
                    s[self.sh.root_player] = SHUNNED;
                }
                return Some(s);
            }
        }
        pos.outcome()
            .map(|o| end_scores(self.sh.eval, pos, o, self.players, ply))
    }

    fn push(&mut self, pos: &G) {
        if self.sh.rule.is_some() {
            self.path.push(pos.repetition_key());
        }
    }

    fn pop(&mut self) {
        if self.sh.rule.is_some() {
            self.path.pop();
        }
    }

    /// Iterative deepening; calls back with the scores and PV of each completed iteration.
    pub fn iterate(&mut self, root: &G, mut on_iteration: impl FnMut(Scores, &[G::Move], u32)) {
        let (mut t_last, mut t_before) = (Duration::ZERO, Duration::ZERO);
        let mut stability = Stability::new(self.sh.eval.aspiration_window());
        for depth in 1..=self.sh.max_depth {
            if depth > 1 && !self.sh.time.may_start(t_last, t_before, stability.scale()) {
                break;
            }
            let started = self.sh.time.elapsed();
            self.iteration = depth;
            let v = match self.split {
                // The whole iteration in the pool, whose threads all take part.
                Some(split) => {
                    let (v, line) = split.pool.install(|| {
                        let mut m = self.task();
                        let v = m.node(root, depth, 0, None);
                        m.flush();
                        ((!m.stopped).then_some(v), std::mem::take(&mut m.pv[0]))
                    });
                    self.pv[0] = line;
                    self.stopped = v.is_none();
                    v.unwrap_or([0; 3])
                }
                None => self.node(root, depth, 0, None),
            };
            if self.stopped {
                break;
            }
            self.flush();
            let mut pv = std::mem::take(&mut self.pv[0]);
            self.complete_line(root, depth, &mut pv);
            stability.update(pv.first().copied(), v[root.to_move()]);
            on_iteration(v, &pv, depth);
            self.pv[0] = pv;
            t_before = t_last;
            t_last = self.sh.time.elapsed() - started;
        }
        self.flush();
    }

    /// Extends `line`, the principal variation of an iteration to `depth` from `root`, where a
    /// table hit cut it short: from the position at its end, the moves of the table's vectors
    /// of the depth left, as long as there are some. A line that ends at the end of the
    /// game, a repetition or the horizon has no such vector (those are not stored), so only
    /// a line cut by a hit grows, with the moves its search chose (the same rule picks them).
    fn complete_line(&self, root: &G, depth: u32, line: &mut Vec<G::Move>) {
        let Some(t) = self.sh.vectors else {
            return;
        };
        let mut pos = root.clone();
        for &mv in line.iter() {
            pos.play(mv);
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        while (line.len() as u32) < depth && line.len() + 1 < MAX_PLY {
            let left = depth - line.len() as u32;
            let Some(i) = t.best_move(self.table_key(&pos), left) else {
                break;
            };
            moves.clear();
            pos.legal_moves(&mut moves);
            let Some(&mv) = moves.get(i as usize) else {
                break;
            };
            line.push(mv);
            pos.play(mv);
        }
    }

    /// The table's key of `pos`: its key mixed with the root player's salt.
    #[inline]
    fn table_key(&self, pos: &G) -> u64 {
        pos.key() ^ self.salt
    }

    /// A searcher for a task of the parallel search: this one's settings and path, its own
    /// counters and lines.
    fn task(&self) -> Self {
        let mut m = Maxn::new(self.sh, self.bounds, self.players, self.split);
        m.path.clone_from(&self.path);
        m.iteration = self.iteration;
        // The limits are looked at every few thousand nodes, not at a task's first.
        m.poll_at = POLL_INTERVAL;
        m
    }

    /// A node's first steps: its line cleared, counted; its value where it needs no
    /// children (stopped, the end of the game, the horizon: the evaluation or quiescence).
    fn enter(&mut self, pos: &G, depth: u32, ply: usize) -> Option<Scores> {
        if self.pv.len() < ply + 2 {
            // A line per ply to the horizon (a task's lines start at its ply).
            self.pv.resize_with(ply + depth as usize + 2, Vec::new);
        }
        self.pv[ply].clear();
        self.count_node();
        self.trace_visit(pos, depth as i32, ply);
        if self.stopped {
            return Some([0; 3]);
        }
        if let Some(v) = self.terminal(pos, ply) {
            return Some(v);
        }
        if ply >= MAX_PLY || (depth == 0 && !self.sh.config.quiescence) {
            return Some(masked(
                self.sh.eval.evaluate_for(pos, self.sh.root_player),
                self.players,
            ));
        }
        if depth == 0 {
            return Some(self.quiesce(pos, ply, 0));
        }
        None
    }

    /// `parent`: the parent's mover and its best score so far (for shallow pruning).
    fn node(&mut self, pos: &G, depth: u32, ply: usize, parent: Option<(usize, i32)>) -> Scores {
        if let Some(v) = self.enter(pos, depth, ply) {
            return v;
        }
        let table = self.sh.vectors.filter(|_| depth >= TABLE_DEPTH);
        let key = self.table_key(pos);
        if let Some(t) = table.filter(|_| ply > 0) {
            self.probes += 1;
            if let Some(v) = t.probe(key, depth, ply) {
                self.hits += 1;
                return v;
            }
        }
        let reps = self.reps;
        let p = pos.to_move();
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        let best_possible = MATE - ply as i32 - 1;
        let split = self
            .split
            .filter(|_| depth >= SPLIT_DEPTH && moves.len() > 1 && ply + 1 < MAX_PLY);
        let mut idle = 0;
        let mut best: Option<Scores> = None;
        let (mut best_index, mut cut) = (0, false);
        // The children after the first, where they were searched in parallel: their scores
        // and lines, in move order (up to the one that ends the node, at least).
        let mut rest: Vec<Option<(Scores, Vec<G::Move>)>> = Vec::new();
        self.push(pos);
        for (i, &mv) in moves.iter().enumerate() {
            if i == 1 {
                // The others are shared out only while a thread is idle.
                idle = self.sh.idle();
            }
            let v = match split.filter(|_| i > 0 && idle > 0) {
                Some(_) => {
                    if i == 1 {
                        let bound = best.map(|b| (p, b[p]));
                        let end = Ending {
                            mover: p,
                            best_possible,
                            parent,
                        };
                        let rest_moves = &moves[1..];
                        rest = self.search_rest(
                            rest_moves,
                            (pos, depth - 1, ply + 1),
                            bound,
                            end,
                            idle,
                        );
                        if self.stopped {
                            break;
                        }
                    }
                    let Some((v, line)) = rest[i - 1].take() else {
                        break;
                    };
                    self.pv[ply + 1] = line;
                    v
                }
                None => {
                    let mut child = pos.clone();
                    child.play(mv);
                    self.node(&child, depth - 1, ply + 1, best.map(|b| (p, b[p])))
                }
            };
            if self.stopped {
                break;
            }
            if best.map_or(true, |b| v[p] > b[p]) {
                best = Some(v);
                best_index = i;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
                // Immediate pruning: later moves can at best tie, and ties go to the first.
                if v[p] >= best_possible {
                    break;
                }
                // Shallow pruning: the parent's mover gets at most this from here, and it
                // already has better.
                if self.shallow_cut(p, v, parent) {
                    cut = true;
                    break;
                }
            }
        }
        self.pop();
        let best = best.unwrap_or([0; 3]);
        if let Some(t) = table.filter(|_| !self.stopped && !cut && self.reps == reps) {
            let mv = u16::try_from(best_index).unwrap_or(u16::MAX);
            t.store(key, best, depth, ply, mv, self.sh.age);
        }
        best
    }

    /// Whether shallow pruning cuts a node of `mover` whose best so far is `v`, below a
    /// parent whose mover has `have` (`parent`): the parent's mover gets at most the rest
    /// of the bounded sum from here, and it already has better.
    #[inline]
    fn shallow_cut(&self, mover: usize, v: Scores, parent: Option<(usize, i32)>) -> bool {
        let (Some(b), Some((q, have))) = (self.bounds, parent) else {
            return false;
        };
        let others = (self.players as i64 - 2) * b.min_score as i64;
        q != mover && b.max_sum - v[mover] as i64 - others < have as i64
    }

    /// The children of `pos` after `moves` shared out among the pool's threads (with the
    /// first child's bound `bound`): the node's own thread and up to `threads − 1` tasks take
    /// them one after another in move order, each task with one searcher of its own for all
    /// the children it takes; a child that ends the node (`end`: a win on the next ply, or a
    /// shallow cut) stops the taking. Their scores and lines in move order (`None` for
    /// those not taken: only after one that ends the node). Sets `stopped` if the search
    /// was stopped.
    #[allow(clippy::too_many_arguments)]
    fn search_rest(
        &mut self,
        moves: &[G::Move],
        (pos, depth, ply): (&G, u32, usize),
        bound: Option<(usize, i32)>,
        end: Ending,
        idle: usize,
    ) -> Vec<Option<(Scores, Vec<G::Move>)>> {
        let shared = Sharing {
            next: AtomicUsize::new(0),
            ended: AtomicBool::new(false),
            done: Mutex::new(Vec::with_capacity(moves.len())),
        };
        let helpers = idle.min(moves.len() - 1);
        let seed = self.task();
        let take = |m: &mut Self| {
            while !m.stopped && !shared.ended.load(Relaxed) {
                let k = shared.next.fetch_add(1, Relaxed);
                let Some(&mv) = moves.get(k) else {
                    break;
                };
                let mut child = pos.clone();
                child.play(mv);
                let reps = m.reps;
                let v = m.node(&child, depth, ply, bound);
                if m.stopped {
                    break;
                }
                if v[end.mover] >= end.best_possible || m.shallow_cut(end.mover, v, end.parent) {
                    shared.ended.store(true, Relaxed);
                }
                let line = std::mem::take(&mut m.pv[ply]);
                if let Ok(mut done) = shared.done.lock() {
                    done.push((k, v, line, m.reps - reps));
                }
            }
        };
        self.sh.hand_out(helpers);
        rayon::scope(|s| {
            for _ in 0..helpers {
                let (seed, take, shared) = (&seed, &take, &shared);
                s.spawn(move |_| {
                    if !shared.ended.load(Relaxed) && shared.next.load(Relaxed) < moves.len() {
                        let mut m = seed.task();
                        take(&mut m);
                        m.flush();
                    }
                    seed.sh.done();
                });
            }
            take(self);
            // Idle until the others are done (rayon lends this thread to other work).
            self.sh.working.fetch_sub(1, Relaxed);
        });
        self.sh.working.fetch_add(1, Relaxed);
        let mut out: Vec<Option<(Scores, Vec<G::Move>)>> = Vec::new();
        out.resize_with(moves.len(), || None);
        for (k, v, line, reps) in shared.done.into_inner().unwrap_or_default() {
            self.reps += reps;
            out[k] = Some((v, line));
        }
        if self.sh.abort.load(Relaxed) {
            self.stopped = true;
        }
        out
    }

    fn quiesce(&mut self, pos: &G, ply: usize, q: usize) -> Scores {
        let mut best = masked(
            self.sh.eval.evaluate_for(pos, self.sh.root_player),
            self.players,
        );
        if ply >= MAX_PLY || q >= MAX_QUIESCENCE_PLY {
            return best;
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.noisy_moves(&mut moves);
        let p = pos.to_move();
        self.push(pos);
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            self.count_node();
            self.trace_visit(&child, -(q as i32) - 1, ply + 1);
            if self.stopped {
                break;
            }
            let v = match self.terminal(&child, ply + 1) {
                Some(v) => v,
                None => self.quiesce(&child, ply + 1, q + 1),
            };
            if self.stopped {
                break;
            }
            if v[p] > best[p] {
                best = v;
            }
        }
        self.pop();
        best
    }
}
