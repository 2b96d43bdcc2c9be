//! The selective search of the alpha-beta family ([`Config::selective`](crate::Config::selective)):
//! what it decides by, computed once per search (the reduction table, the margins, the depths
//! of each technique). The two techniques that search on their own before a node's moves
//! (null-move pruning, the singular test) are [`crate::prune`]'s; the per-move decisions
//! (late-move reductions and pruning, futility pruning) are taken in the move loop of
//! [`crate::alphabeta`]; see [`Selectivity`] for what each technique does and what it
//! assumes of the game.
//!
//! A node's flags ([`FORCED`], [`NO_NULL`]) are set by its parent in the thread's
//! [`Local::flags`](crate::thread::Local) before the child is searched: they say how the node
//! was reached, which a node cannot see for itself.

use crate::score::MAX_PLY;
use crate::types::Selectivity;

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
pub(crate) const NULL_DEPTH: i32 = 3;
/// Null-move cutoffs from this depth on are verified where zugzwang is possible.
pub(crate) const VERIFY_DEPTH: i32 = 8;
/// Internal iterative reductions from this depth on.
pub(crate) const IIR_DEPTH: i32 = 4;
/// The singular test from this depth on.
pub(crate) const SINGULAR_DEPTH: i32 = 6;
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
