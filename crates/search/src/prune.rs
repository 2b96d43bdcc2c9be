//! The two techniques of the selective search ([`crate::selective`]) that search on their
//! own before a node's moves: null-move pruning, and the singular test of the table's move.

use crate::brs::NodeMoves;
use crate::game::{Evaluator, Game};
use crate::score::MAX_PLY;
use crate::selective::{TableHint, NO_NULL, NULL_DEPTH, SINGULAR_DEPTH, VERIFY_DEPTH};
use crate::thread::Worker;
use crate::types::MATE_BOUND;

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
