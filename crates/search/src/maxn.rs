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
//! **Threads.** Max^n uses no transposition table. With several threads each iteration's
//! root moves are shared out: every thread takes the next root move not yet taken and
//! searches it whole ([`parallel_iterate`]). The root's children are then searched without
//! the root's shallow-pruning bound, which only cuts off children that could not be chosen,
//! and the root's choice is made afterwards in legal-move order by the same rule as the
//! serial search (highest score for the mover, the first on ties); so the scores and the
//! move equal the serial ones at every depth.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

use crate::game::{Evaluator, Game, MoveList, Scores};
use crate::score::{end_scores, masked, MAX_PLY, MAX_QUIESCENCE_PLY};
use crate::shared::Shared;
use crate::thread::Local;
use crate::time::Stability;
use crate::types::MATE;

/// Bounds on score vectors that make max^n shallow pruning valid (see the module
/// documentation of [`crate::Search::set_maxn_bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxnBounds {
    /// No score vector's entries (of the players in the game) sum to more than this.
    pub max_sum: i64,
    /// No entry of a score vector is below this.
    pub min_score: i32,
}

pub(crate) struct Maxn<'a, 'b, G: Game, E> {
    sh: &'a Shared<'a, G, E>,
    bounds: Option<MaxnBounds>,
    players: usize,
    pub nodes: u64,
    flushed: u64,
    poll_at: u64,
    pub stopped: bool,
    path: Vec<u64>,
    pv: &'b mut Vec<Vec<G::Move>>,
}

impl<'a, 'b, G: Game, E: Evaluator<G>> Maxn<'a, 'b, G, E> {
    pub fn new(
        sh: &'a Shared<'a, G, E>,
        bounds: Option<MaxnBounds>,
        players: usize,
        pv: &'b mut Vec<Vec<G::Move>>,
    ) -> Self {
        Maxn {
            sh,
            bounds,
            players,
            nodes: 0,
            flushed: 0,
            poll_at: 1,
            stopped: false,
            path: Vec::with_capacity(MAX_PLY + 1),
            pv,
        }
    }

    pub fn flush(&mut self) {
        self.sh.nodes.fetch_add(self.nodes - self.flushed, Relaxed);
        self.flushed = self.nodes;
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

    fn terminal(&self, pos: &G, ply: usize) -> Option<Scores> {
        if let Some(rule) = self.sh.rule {
            let k = pos.repetition_key();
            if ply > 0 && (self.path.contains(&k) || self.sh.history.contains(&k)) {
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
    pub fn iterate(
        &mut self,
        root: &G,
        mut on_iteration: impl FnMut(Scores, &[G::Move], u32, &mut Self),
    ) {
        let (mut t_last, mut t_before) = (Duration::ZERO, Duration::ZERO);
        let mut stability = Stability::new(self.sh.eval.aspiration_window());
        for depth in 1..=self.sh.max_depth {
            if depth > 1 && !self.sh.time.may_start(t_last, t_before, stability.scale()) {
                break;
            }
            let started = self.sh.time.elapsed();
            let v = self.node(root, depth, 0, None);
            if self.stopped {
                break;
            }
            self.flush();
            let pv = std::mem::take(&mut self.pv[0]);
            stability.update(pv.first().copied(), v[root.to_move()]);
            on_iteration(v, &pv, depth, self);
            self.pv[0] = pv;
            t_before = t_last;
            t_last = self.sh.time.elapsed() - started;
        }
        self.flush();
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
        let p = pos.to_move();
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        let best_possible = MATE - ply as i32 - 1;
        let mut best: Option<Scores> = None;
        self.push(pos);
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let v = self.node(&child, depth - 1, ply + 1, best.map(|b| (p, b[p])));
            if self.stopped {
                break;
            }
            if best.map_or(true, |b| v[p] > b[p]) {
                best = Some(v);
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
                        break;
                    }
                }
            }
        }
        self.pop();
        best.unwrap_or([0; 3])
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

/// One root move's result in [`parallel_iterate`]: its index, scores, line and the nodes
/// its search took.
type RootResult<M> = (usize, Scores, Vec<M>, u64);

/// Max^n iterative deepening on the calling thread and the helpers of `pool`, the root's
/// moves shared out among them (see the module documentation). Calls back with the scores
/// and PV of each completed iteration; returns how many nodes each thread searched.
#[allow(clippy::too_many_arguments)]
pub(crate) fn parallel_iterate<G: Game, E: Evaluator<G>>(
    pool: &rayon::ThreadPool,
    sh: &Shared<'_, G, E>,
    bounds: Option<MaxnBounds>,
    players: usize,
    locals: &mut [Local<G>],
    root: &G,
    mut on_iteration: impl FnMut(Scores, &[G::Move], u32),
) {
    let mut moves: MoveList<G::Move> = MoveList::new();
    root.legal_moves(&mut moves);
    let p = root.to_move();
    let best_possible = MATE - 1;
    locals.iter_mut().for_each(|l| l.nodes = 0);
    // The order in which root moves are handed out: the largest subtrees of the previous
    // iteration first, so that no thread is left alone with a big one at the end (the
    // order does not change the result, which is put together in move order).
    let mut order: Vec<usize> = (0..moves.len()).collect();
    let (mut t_last, mut t_before) = (Duration::ZERO, Duration::ZERO);
    let mut stability = Stability::new(sh.eval.aspiration_window());
    for depth in 1..=sh.max_depth {
        if depth > 1 && !sh.time.may_start(t_last, t_before, stability.scale()) {
            break;
        }
        let started = sh.time.elapsed();
        // The root itself, as the serial search counts it.
        sh.nodes.fetch_add(1, Relaxed);
        let next = AtomicUsize::new(0);
        let stopped = AtomicBool::new(false);
        let results: Mutex<Vec<RootResult<G::Move>>> = Mutex::new(Vec::with_capacity(moves.len()));
        let work = |local: &mut Local<G>| {
            let mut m = Maxn::new(sh, bounds, players, &mut local.pv);
            m.push(root);
            let mut mine = Vec::new();
            while !stopped.load(Relaxed) {
                let Some(&i) = order.get(next.fetch_add(1, Relaxed)) else {
                    break;
                };
                let mut child = root.clone();
                child.play(moves[i]);
                let before = m.nodes;
                let v = m.node(&child, depth - 1, 1, None);
                if m.stopped {
                    stopped.store(true, Relaxed);
                    break;
                }
                mine.push((i, v, m.pv[1].clone(), m.nodes - before));
            }
            m.flush();
            local.nodes += m.nodes;
            results
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(mine);
        };
        let (main, helpers) = locals.split_first_mut().expect("one thread at least");
        pool.in_place_scope(|s| {
            for local in helpers.iter_mut() {
                s.spawn(|_| work(local));
            }
            work(main);
        });
        if stopped.load(Relaxed) || sh.user_stop.load(Relaxed) {
            break;
        }
        let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        results.sort_unstable_by_key(|r| r.0);
        order.sort_by_key(|&i| std::cmp::Reverse(results.get(i).map_or(0, |r| r.3)));
        // The serial rule: the first move with the highest score for the mover (the serial
        // search stops at a win on the next ply, which nothing later can beat).
        let mut best: Option<&RootResult<G::Move>> = None;
        for r in &results {
            if best.map_or(true, |b| r.1[p] > b.1[p]) {
                best = Some(r);
                if r.1[p] >= best_possible {
                    break;
                }
            }
        }
        let Some((i, scores, line, _)) = best else {
            break;
        };
        let mut pv = Vec::with_capacity(line.len() + 1);
        pv.push(moves[*i]);
        pv.extend_from_slice(line);
        stability.update(Some(moves[*i]), scores[p]);
        on_iteration(*scores, &pv, depth);
        t_before = t_last;
        t_last = sh.time.elapsed() - started;
    }
}
