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

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use rayon::prelude::*;

use crate::game::{Evaluator, Game, MoveList, Scores};
use crate::score::{end_scores, masked, MAX_PLY, MAX_QUIESCENCE_PLY};
use crate::shared::{Padded, Shared};
use crate::time::Stability;
use crate::types::MATE;

/// Nodes of at least this depth search their children after the first in parallel.
pub(crate) const SPLIT_DEPTH: u32 = 4;
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
}

/// What a task of the parallel search returns: the child's scores, its line and the
/// repetitions scored below it.
type TaskResult<M> = (Scores, Vec<M>, u64);

/// The pool of a parallel max^n search and its per-thread node counts.
#[derive(Clone, Copy)]
pub(crate) struct Split<'a> {
    pub pool: &'a rayon::ThreadPool,
    pub per_thread: &'a [Padded<AtomicU64>],
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
            path: Vec::with_capacity(MAX_PLY + 1),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            split,
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
            self.poll_at = self.nodes + 1024;
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

    fn terminal(&mut self, pos: &G, ply: usize) -> Option<Scores> {
        if let Some(rule) = self.sh.rule {
            let k = pos.repetition_key();
            if ply > 0 && (self.path.contains(&k) || self.sh.history.contains(&k)) {
                self.reps += 1;
                return Some(end_scores(self.sh.eval, pos, rule, self.players, ply));
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
        m
    }

    /// `parent`: the parent's mover and its best score so far (for shallow pruning).
    fn node(&mut self, pos: &G, depth: u32, ply: usize, parent: Option<(usize, i32)>) -> Scores {
        self.pv[ply].clear();
        self.count_node();
        if self.stopped {
            return [0; 3];
        }
        if let Some(v) = self.terminal(pos, ply) {
            return v;
        }
        if ply >= MAX_PLY || (depth == 0 && !self.sh.config.quiescence) {
            return masked(
                self.sh.eval.evaluate_for(pos, self.sh.root_player),
                self.players,
            );
        }
        if depth == 0 {
            return self.quiesce(pos, ply, 0);
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
        let mut best: Option<Scores> = None;
        let (mut best_index, mut cut) = (0, false);
        // The children after the first, where they were searched in parallel: their scores
        // and lines, in move order.
        let mut rest: Vec<(Scores, Vec<G::Move>)> = Vec::new();
        self.push(pos);
        for (i, &mv) in moves.iter().enumerate() {
            let v = match split.filter(|_| i > 0) {
                Some(split) => {
                    if i == 1 {
                        let bound = best.map(|b| (p, b[p]));
                        rest = self.search_rest(split, pos, &moves[1..], depth - 1, ply + 1, bound);
                        if self.stopped {
                            break;
                        }
                    }
                    let (v, line) = std::mem::take(&mut rest[i - 1]);
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
                if let (Some(b), Some((q, have))) = (self.bounds, parent) {
                    let others = (self.players as i64 - 2) * b.min_score as i64;
                    if q != p && b.max_sum - v[p] as i64 - others < have as i64 {
                        cut = true;
                        break;
                    }
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

    /// The children of `pos` after `moves` searched at once, each a task of the pool (with
    /// the first child's bound `bound`): their scores and lines in move order. Sets `stopped`
    /// if any task was stopped.
    fn search_rest(
        &mut self,
        split: Split<'a>,
        pos: &G,
        moves: &[G::Move],
        depth: u32,
        ply: usize,
        bound: Option<(usize, i32)>,
    ) -> Vec<(Scores, Vec<G::Move>)> {
        self.flush();
        let this = &*self;
        let results: Vec<Option<TaskResult<G::Move>>> = split.pool.install(|| {
            moves
                .par_iter()
                .map(|&mv| {
                    let mut m = this.task();
                    let mut child = pos.clone();
                    child.play(mv);
                    let v = m.node(&child, depth, ply, bound);
                    m.flush();
                    (!m.stopped).then(|| (v, std::mem::take(&mut m.pv[ply]), m.reps))
                })
                .collect()
        });
        let out: Option<Vec<_>> = results
            .into_iter()
            .map(|r| {
                r.map(|(v, line, reps)| {
                    self.reps += reps;
                    (v, line)
                })
            })
            .collect();
        self.stopped |= out.is_none();
        out.unwrap_or_default()
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
