//! Young Brothers Wait (Feldmann 1993) for the alpha-beta family on rayon
//! ([`Parallel::Split`](crate::Parallel::Split)): a node below the root of at least
//! [`SPLIT_DEPTH`](crate::shared::SPLIT_DEPTH) searches its first move alone (with more
//! than two threads its first two outside the principal variation where it has eight
//! moves or more: the alpha-beta module's `brothers_first`); if that does not refute it,
//! the node's other moves are shared out. The node's own thread and up to
//! `threads − 1` tasks (which idle threads take from it, work stealing) take the moves one
//! after another in the node's order, each searched with a null window at the node's best
//! score so far (shared between them) and again with the full window where it beats it, as
//! principal-variation search does; a move that refutes the node (reaching beta) raises the
//! node's cut flag, and every search below it stops (the flags of the split nodes above a
//! search are in its worker's `cancel`). A task's thread memory (killers, history, buffers,
//! the path) is a spare one of the engine's ([`Tasks`]); its path is the node's, so
//! repetitions are seen as on one thread.
//!
//! **Values.** The node's result is made afterwards from the moves' results in the order
//! they were taken: a move searched with a bound `a` that fails low returns at most `a`, and
//! `a` is at most the best score of the moves taken before it, so it is never chosen over
//! those; a move that beats its bound is searched again within the window, so the best move's
//! score is exact. A node's value inside its window is therefore the one-thread value, and
//! a bound outside it a bound of the same side: at a fixed depth every thread count returns
//! the one-thread value (the move may differ where moves tie). Searches stopped by a cut
//! store nothing.
//!
//! **Not the root.** The root's moves are taken one after another by the main thread, as
//! one thread takes them (a stopped iteration's best so far is then one thread's too); the
//! threads share out the nodes below. Root moves searched side by side each lost the
//! table entries the one before would have left the next (transpositions between the
//! moves' trees): on the bench lists at 2 threads 1.07-1.25x one thread's nodes on Throne,
//! Chexers and Connect Four, against 1.00-1.07x now.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use crate::alphabeta::NodeCtx;
use crate::game::{Evaluator, Game};
use crate::thread::{Signal, Worker};
use crate::trace::kind;

/// One move of a split node searched, by whichever thread took it.
struct Done<M> {
    /// Its place in the order the moves were taken.
    k: usize,
    /// Its index in the node's moves.
    i: usize,
    /// Its value from the node's side (a bound where it failed low or high).
    score: i32,
    /// Whether it beat the bound it was searched with (its value exact, or at least beta),
    /// rather than failing low (at most its score).
    beat: bool,
    /// Its line, where it may be the node's principal variation.
    line: Vec<M>,
    /// Whether it is quiet (killers and history learn from quiet moves).
    quiet: bool,
    /// Whether another thread than the node's own searched it.
    shared: bool,
}

/// A node whose moves after the first are shared out: what its threads share.
struct SplitPoint<M> {
    /// The next move to take (a place in the order).
    next: AtomicUsize,
    /// Its cut flag and bound.
    signal: Arc<Signal>,
    /// Moves being searched with the full window (they may raise `alpha`).
    full: AtomicUsize,
    /// The moves searched.
    done: Mutex<Vec<Done<M>>>,
}

impl<G: Game, E: Evaluator<G>> Worker<'_, '_, G, E> {
    /// The moves `order` of a split node (its index and whether it is quiet, in the node's
    /// order: those after the `taken` moves searched so far, whose best was `best` and which
    /// raised the node's alpha to `alpha`) shared out among the threads; returns the node's
    /// best value and the index of its move, as the one-thread loop would.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn split_rest<const BRS: bool>(
        &mut self,
        cx: &NodeCtx<'_, G>,
        children: &[G],
        order: &[(usize, bool)],
        taken: usize,
        alpha: i32,
        beta: i32,
        best: (i32, usize),
    ) -> (i32, usize) {
        let Some(tasks) = self.tasks else {
            return best;
        };
        let sp = SplitPoint {
            next: AtomicUsize::new(0),
            signal: Arc::new(Signal {
                cut: AtomicBool::new(false),
                alpha: AtomicI32::new(alpha),
            }),
            full: AtomicUsize::new(0),
            done: Mutex::new(Vec::with_capacity(order.len())),
        };
        self.local.smp.splits += 1;
        let sh = self.sh;
        let helpers = sh.idle().min(order.len() - 1);
        self.cancel.push((Arc::clone(&sp.signal), alpha));
        let cancel = self.cancel.clone();
        let path = self.local.path.clone();
        let searching = self.searching;
        let first = best.0;
        // The node's killers for the tasks (the history is the engine's, shared).
        let heur = self.local.heur.clone();
        sh.hand_out(helpers);
        rayon::scope(|s| {
            for _ in 0..helpers {
                let (sp, cancel, path, heur) = (&sp, &cancel, &path, &heur);
                s.spawn(move |_| {
                    if !sp.signal.cut.load(Relaxed) && sp.next.load(Relaxed) < order.len() {
                        let mut local = tasks.take();
                        local.heur.copy_killers(heur);
                        let mut w = Worker::task(sh, tasks, &mut local, path, cancel, searching);
                        w.take_moves::<BRS>(cx, children, order, taken, sp, beta, first, true);
                        w.flush();
                        drop(w);
                        tasks.give(local);
                    }
                    sh.done();
                });
            }
            self.take_moves::<BRS>(cx, children, order, taken, &sp, beta, first, false);
            // Idle until the others are done (rayon lends this thread to other work).
            sh.working.fetch_sub(1, Relaxed);
        });
        sh.working.fetch_add(1, Relaxed);
        self.cancel.pop();
        let cut = sp.signal.cut.load(Relaxed);
        if self.stopped {
            // Stopped by this node's own cut, the search goes on; by the end of the
            // search or a split node above, the node's result is not wanted.
            if self.aborted() || !cut || self.cancel.iter().any(|(s, a)| s.stale(*a)) {
                return best;
            }
            self.stopped = false;
        }
        if cut && !self.stopped {
            self.local.smp.split_cuts += 1;
        }
        let done = sp.done.into_inner().unwrap_or_else(|e| e.into_inner());
        self.gather(cx, done, alpha, beta, best)
    }

    /// The node's result from its shared moves' results `done` (`alpha`, `best`: the node's
    /// before they were shared out), as the one-thread loop would have made it.
    fn gather(
        &mut self,
        cx: &NodeCtx<'_, G>,
        mut done: Vec<Done<G::Move>>,
        mut alpha: i32,
        beta: i32,
        mut best: (i32, usize),
    ) -> (i32, usize) {
        done.sort_unstable_by_key(|d| d.k);
        self.local.smp.moves_shared += done.iter().filter(|d| d.shared).count() as u64;
        // The moves that beat their bounds first, in the order taken; a move that failed
        // low was searched with a bound some move of those (or the node's alpha) reached,
        // and so is chosen only where the node fails low as a whole (as one thread would).
        done.sort_by_key(|d| !d.beat);
        for d in done {
            if d.score <= best.0 {
                continue;
            }
            if !d.beat {
                best = (d.score, d.i);
                continue;
            }
            best = (d.score, d.i);
            if d.score > alpha {
                alpha = d.score;
                if cx.pv_node {
                    self.local.pv[cx.ply + 1] = d.line;
                }
                self.record_line(cx, d.i, d.score);
                if d.score >= beta {
                    if cx.ordering && d.quiet {
                        let mover = cx.node.at(cx.pos, d.i).to_move();
                        let mv = cx.moves[d.i];
                        self.local.heur.cutoff(cx.ply, cx.depth, mover, mv, &[]);
                    }
                    break;
                }
            }
        }
        best
    }

    /// One move of a split node searched as principal-variation search searches a move
    /// after the first: with a null window at `a` (at `d − r`, and again at `d` where a
    /// reduced search beats it), and with the full window where it beats `a`. Before the
    /// full window the node's best so far is looked at again: where another thread raised
    /// it meanwhile, the null window is tried again at the new bound (a move that beats a
    /// bound the node has already passed would otherwise be searched in full for nothing,
    /// which one thread, taking the moves one after another, never does). The value from
    /// the node's side and the bound it was searched with.
    #[allow(clippy::too_many_arguments)]
    fn shared_child<const BRS: bool>(
        &mut self,
        cx: &NodeCtx<'_, G>,
        child: &G,
        d: i32,
        r: i32,
        sp: &SplitPoint<G::Move>,
        mut a: i32,
        beta: i32,
    ) -> (i32, i32) {
        let (ply, side) = (cx.ply + 1, cx.side);
        let child_side = child.to_move() == self.sh.hero;
        loop {
            self.retake(a);
            self.trace_kind(0);
            let mut s = self.child_value::<BRS>(child, d - r, ply, a, a + 1, side, child_side);
            if s > a && r > 0 && !self.stopped {
                self.trace_kind(kind::RESEARCH);
                s = self.child_value::<BRS>(child, d, ply, a, a + 1, side, child_side);
            }
            if self.stopped {
                match self.restart(sp, a, beta) {
                    Some(now) => {
                        a = now;
                        continue;
                    }
                    None => return (s, a),
                }
            }
            if s <= a || s >= beta {
                return (s, a);
            }
            // The node is worth at least `s` now: moves searched below it elsewhere are
            // searched again at it (this one is stale only if another passes it).
            sp.signal.alpha.fetch_max(s, Relaxed);
            self.retake(s);
            // Another move's full search may raise the bound further: wait for it (lending
            // this thread to the pool's other work meanwhile).
            let now = self.wait_for_full(sp);
            if self.stopped || now >= beta {
                return (s, a);
            }
            if now > s {
                a = now;
                continue;
            }
            // Searched again with the full window above what it is known to reach.
            a = s - 1;
            self.trace_kind(kind::RESEARCH);
            sp.full.fetch_add(1, Relaxed);
            let s = self.child_value::<BRS>(child, d, ply, a, beta, side, child_side);
            sp.full.fetch_sub(1, Relaxed);
            if self.stopped {
                match self.restart(sp, a + 1, beta) {
                    Some(now) => {
                        a = now;
                        continue;
                    }
                    None => return (s, a),
                }
            }
            if s > a {
                sp.signal.alpha.fetch_max(s, Relaxed);
            }
            return (s, a);
        }
    }

    /// Sets the bound this thread's move of the innermost split node is searched with.
    #[inline]
    fn retake(&mut self, a: i32) {
        if let Some(last) = self.cancel.last_mut() {
            last.1 = a;
        }
    }

    /// After a search of a move of split node `sp` taken with bound `a` stopped: the
    /// node's new bound, if only that bound passing `a` stopped it (the move is then
    /// searched again at the new bound, below beta); else `None` (refuted, stopped above,
    /// or the end of the search).
    fn restart(&mut self, sp: &SplitPoint<G::Move>, a: i32, beta: i32) -> Option<i32> {
        let n = self.cancel.len();
        let above = self.cancel[..n.saturating_sub(1)]
            .iter()
            .any(|(s, b)| s.stale(*b));
        let now = sp.signal.alpha.load(Relaxed);
        if self.aborted() || above || sp.signal.cut.load(Relaxed) || now <= a || now >= beta {
            return None;
        }
        self.stopped = false;
        self.local.smp.restarts += 1;
        Some(now)
    }

    /// Waits until no move of the split node is being searched with the full window (or
    /// the node is refuted, or the search stopped), running other tasks of the pool
    /// meanwhile; returns the node's bound then.
    fn wait_for_full(&mut self, sp: &SplitPoint<G::Move>) -> i32 {
        if sp.full.load(Relaxed) > 0 {
            // Idle while it waits: a split node below may hand this thread work.
            self.sh.done();
            while sp.full.load(Relaxed) > 0 && !self.cancelled() {
                if self.aborted() {
                    self.stopped = true;
                    break;
                }
                if rayon::yield_now() != Some(rayon::Yield::Executed) {
                    std::hint::spin_loop();
                }
            }
            self.sh.hand_out(1);
        }
        let now = sp.signal.alpha.load(Relaxed);
        if self.stopped {
            // Waiting, the node's bound rose: no longer stopped (`restart` looks again).
            if let Some(now) = self.restart(sp, now - 1, i32::MAX) {
                return now;
            }
        }
        now
    }

    /// Takes moves of a split node one after another until none is left or one refutes
    /// the node; each searched as principal-variation search searches a move after the
    /// first, with the node's best so far as its bound. `first`: the value of the node's
    /// first move (the selective search's pruning looks at it); `shared`: whether this
    /// thread is not the node's own.
    #[allow(clippy::too_many_arguments)]
    fn take_moves<const BRS: bool>(
        &mut self,
        cx: &NodeCtx<'_, G>,
        children: &[G],
        order: &[(usize, bool)],
        taken: usize,
        sp: &SplitPoint<G::Move>,
        beta: i32,
        first: i32,
        shared: bool,
    ) {
        while !self.stopped && !sp.signal.cut.load(Relaxed) {
            let k = sp.next.fetch_add(1, Relaxed);
            let Some(&(i, quiet)) = order.get(k) else {
                break;
            };
            let a = sp.signal.alpha.load(Relaxed);
            if a >= beta {
                break;
            }
            let Some((d, r)) = self.depth_of_move(cx, i, quiet, false, taken + k + 1, a, first)
            else {
                continue;
            };
            let (s, a) = self.shared_child::<BRS>(cx, &children[i], d, r, sp, a, beta);
            if self.stopped {
                break;
            }
            let line = if cx.pv_node && s > a && s < beta {
                self.local.pv[cx.ply + 1].clone()
            } else {
                Vec::new()
            };
            if let Ok(mut done) = sp.done.lock() {
                done.push(Done {
                    k,
                    i,
                    score: s,
                    beat: s > a,
                    line,
                    quiet,
                    shared,
                });
            }
            if s > a {
                sp.signal.alpha.fetch_max(s, Relaxed);
                if s >= beta {
                    sp.signal.cut.store(true, Relaxed);
                }
            }
        }
    }
}
