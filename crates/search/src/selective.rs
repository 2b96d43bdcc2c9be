//! The selective search of the alpha-beta family ([`Config::selective`](crate::Config::selective)):
//! the reduction table, the margins, and the two techniques that search on their own before a
//! node's moves (null-move pruning, the singular test). The per-move decisions (late-move
//! reductions and pruning, futility pruning) are taken in the move loop of
//! [`crate::alphabeta`] with the helpers here; see [`Selectivity`] for what each technique
//! does and what it assumes of the game.
//!
//! A node's flags ([`FORCED`], [`NO_NULL`]) are set by its parent in the thread's
//! [`Local::flags`](crate::thread::Local) before the child is searched: they say how the node
//! was reached, which a node cannot see for itself.

use crate::brs::NodeMoves;
use crate::game::{Evaluator, Game};
use crate::score::MAX_PLY;
use crate::thread::Worker;
use crate::types::{Selectivity, MATE_BOUND};

/// The node was reached by a forcing move ([`Game::is_forcing`]): nothing is pruned there.
pub(crate) const FORCED: u8 = 1;
/// No null move at this node: it was reached by one, or it verifies one.
pub(crate) const NO_NULL: u8 = 2;

/// Reverse futility pruning up to this depth.
pub(crate) const RFP_DEPTH: i32 = 6;
/// Futility and late-move pruning up to this depth.
pub(crate) const PRUNE_DEPTH: i32 = 3;
/// Late-move reductions from this depth on.
pub(crate) const LMR_DEPTH: i32 = 3;
/// Null-move pruning from this depth on.
const NULL_DEPTH: i32 = 3;
/// Null-move cutoffs from this depth on are verified where zugzwang is possible.
const VERIFY_DEPTH: i32 = 8;
/// Internal iterative reductions from this depth on.
pub(crate) const IIR_DEPTH: i32 = 4;
/// The singular test from this depth on.
const SINGULAR_DEPTH: i32 = 6;
/// Size of each side of the reduction table (depths and move numbers beyond use its edge).
const TABLE: usize = 64;

/// What a selective search needs, computed once per search from [`Selectivity`] and the
/// evaluation.
pub(crate) struct Selective {
    /// The settings.
    pub on: Selectivity,
    /// The evaluation's [`Evaluator::margin`] (at least 1).
    pub margin: i32,
    /// Late-move reductions by depth and move number, in plies.
    reductions: Box<[[u8; TABLE]; TABLE]>,
}

impl Selective {
    /// The tables for `on` with an evaluation of margin `margin`.
    pub fn new(on: Selectivity, margin: i32) -> Self {
        let mut reductions = Box::new([[0u8; TABLE]; TABLE]);
        let base = on.lmr_base as f64 / 100.0;
        let divisor = (on.lmr_divisor as f64 / 100.0).max(0.01);
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = base + (d as f64).ln() * (m as f64).ln() / divisor;
                *r = v.clamp(0.0, MAX_PLY as f64) as u8;
            }
        }
        Selective {
            on,
            margin: margin.max(1),
            reductions,
        }
    }

    /// The reduction of the `count`-th move (from 1) at `depth`, in plies.
    #[inline]
    pub fn reduction(&self, depth: i32, count: usize) -> i32 {
        let d = (depth.max(0) as usize).min(TABLE - 1);
        self.reductions[d][count.min(TABLE - 1)] as i32
    }

    /// Reverse futility's margin at `depth`.
    #[inline]
    pub fn rfp_margin(&self, depth: i32) -> i32 {
        self.margin.saturating_mul(self.on.rfp_margin) / 100 * depth
    }

    /// Futility pruning's margin at `depth`: what the static evaluation must fall short of
    /// alpha by for quiet moves to be skipped.
    #[inline]
    pub fn futility_margin(&self, depth: i32) -> i32 {
        self.margin + self.margin * depth / 2
    }

    /// Late-move pruning: quiet moves after this many are skipped at `depth`.
    #[inline]
    pub fn late_move_limit(depth: i32) -> usize {
        (3 + depth * depth) as usize
    }
}

/// The entry of the table that gave a node its move, for the singular test.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableHint {
    /// Its score, from the node's side, as at this ply.
    pub score: i32,
    /// Its depth.
    pub depth: i32,
    /// Whether it bounds the value from below (a lower bound or exact).
    pub lower: bool,
}

impl<G: Game, E: Evaluator<G>> Worker<'_, '_, G, E> {
    /// Null-move pruning at a non-PV node of `depth` whose static evaluation `eval` (from its
    /// side) is at least `beta`: the value to return if passing still fails high.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn null_move(
        &mut self,
        pos: &G,
        rep_key: u64,
        depth: i32,
        ply: usize,
        beta: i32,
        side: bool,
        eval: i32,
    ) -> Option<i32> {
        let sel = self.sh.selective.as_ref()?;
        if !sel.on.null_move
            || depth < NULL_DEPTH
            || eval < beta
            || beta.abs() >= MATE_BOUND
            || self.local.flags[ply] & NO_NULL != 0
            || ply + 1 >= MAX_PLY
        {
            return None;
        }
        let mut child = pos.clone();
        if !child.skip_turn() || child.outcome().is_some() {
            return None;
        }
        let child_side = child.to_move() == self.sh.hero;
        if child_side == side {
            // The turn would pass to a partner: no test of the other side's threats.
            return None;
        }
        let r = sel.on.null_base.max(1) + depth / 4;
        let d = (depth - 1 - r).max(0);
        if self.sh.rule.is_some() {
            self.push_path(rep_key);
        }
        self.local.flags[ply + 1] = NO_NULL;
        let v = -self.negamax::<false>(&child, d, ply + 1, -beta, 1 - beta, child_side);
        if self.sh.rule.is_some() {
            self.pop_path();
        }
        if self.stopped || v < beta {
            return None;
        }
        // Never a proven result from a pass.
        let v = if v >= MATE_BOUND { beta } else { v };
        if depth < VERIFY_DEPTH || !pos.zugzwang() {
            return Some(v);
        }
        // Zugzwang is possible: the node itself, as shallow, without null move.
        let flags = self.local.flags[ply];
        self.local.flags[ply] = flags | NO_NULL;
        let w = self.negamax::<false>(pos, d, ply, beta - 1, beta, side);
        self.local.flags[ply] = flags;
        (!self.stopped && w >= beta).then_some(v)
    }

    /// The singular test of the table's move `tt` (an index into `moves`) at a non-root node
    /// of `depth`: every other move searched at half the depth with a null window below the
    /// table's value less a margin. `Ok(true)`: they all fail low, so the table's move is
    /// singular (extend it); `Ok(false)`: another move reaches the margin; `Err(v)`: one
    /// reaches it and so does the table's move beyond `beta` (a multi-cut: the node's value).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn singular(
        &mut self,
        pos: &G,
        node: &NodeMoves<'_, G>,
        moves: &[G::Move],
        tt: usize,
        hint: TableHint,
        depth: i32,
        ply: usize,
        beta: i32,
        side: bool,
    ) -> Result<bool, i32> {
        let Some(sel) = self.sh.selective.as_ref() else {
            return Ok(false);
        };
        if !sel.on.extensions
            || ply == 0
            || moves.len() < 2
            || ply >= 2 * self.searching as usize
            || depth < SINGULAR_DEPTH
            || !hint.lower
            || hint.depth < depth - 3
            || hint.score.abs() >= MATE_BOUND
            || self.local.flags[ply] & NO_NULL != 0
        {
            return Ok(false);
        }
        let s_beta = hint.score - (sel.margin * depth / 64).max(1);
        // The node searched to half its depth without the table's move: its children one
        // ply less.
        let d = ((depth - 1) / 2 - 1).max(0);
        let mut child = pos.clone();
        for i in (0..moves.len()).filter(|&i| i != tt) {
            node.play_child(pos, moves, i, &mut child);
            let child_side = child.to_move() == self.sh.hero;
            self.local.flags[ply + 1] = 0;
            let v = if child_side == side {
                self.negamax::<false>(&child, d, ply + 1, s_beta - 1, s_beta, child_side)
            } else {
                -self.negamax::<false>(&child, d, ply + 1, -s_beta, 1 - s_beta, child_side)
            };
            if self.stopped {
                return Ok(false);
            }
            if v >= s_beta {
                return if s_beta >= beta {
                    Err(s_beta)
                } else {
                    Ok(false)
                };
            }
        }
        Ok(true)
    }
}
