//! The tree of Monte Carlo tree search: nodes with atomic statistics (so that threads can
//! grow one tree together without locks), edges with the evaluation's prior, values in
//! fixed point, the selection rule and the solver's proof rule.
//!
//! A node's children are made once (`OnceLock`), by the first thread that expands it; a
//! child node is made when its edge is first taken. Statistics are atomic counters: one word
//! for the visits and the virtual losses (a backup ends a visit in progress and counts it in
//! one atomic add), and one sum of values per player.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

use crate::game::{Player, Scores, MAX_EVAL};
use crate::types::MATE_BOUND;

/// A value of 1 in fixed point (values lie in `[0, 1]`).
pub(crate) const ONE: u64 = u16::MAX as u64;

/// A move from a node: the move, the prior (the evaluation of the position after it, as a
/// value per player in fixed point) and, once the move has been taken, the child node.
pub(crate) struct Edge<M> {
    pub mv: M,
    pub prior: [u16; 3],
    pub child: OnceLock<Box<Node<M>>>,
}

/// A position of the tree.
pub(crate) struct Node<M> {
    /// The player to move.
    pub mover: u8,
    /// Completed visits (the high 32 bits) and visits in progress, as virtual losses (the
    /// low 32 bits).
    counts: AtomicU64,
    /// Sum of the backed-up values, per player, in fixed point.
    pub sum: [AtomicU64; 3],
    /// The exact value once proven, relative to this node (a win here in `k` plies scores
    /// `MATE - k`, as [`crate::outcome_score`] at ply `k`).
    pub proven: OnceLock<Scores>,
    /// The moves, once expanded.
    pub edges: OnceLock<Box<[Edge<M>]>>,
}

impl<M> Node<M> {
    pub fn new(mover: usize) -> Self {
        Node {
            mover: mover as u8,
            counts: AtomicU64::new(0),
            sum: [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)],
            proven: OnceLock::new(),
            edges: OnceLock::new(),
        }
    }

    /// A node whose value is known from the start (an end of the game, or the depth cap).
    pub fn proven(mover: usize, scores: Scores) -> Self {
        let n = Node::new(mover);
        let _ = n.proven.set(scores);
        n
    }

    /// Completed visits.
    #[inline]
    pub fn visits(&self) -> u32 {
        (self.counts.load(Relaxed) >> 32) as u32
    }

    /// A visit in progress: `vl` virtual losses until its backup.
    #[inline]
    pub fn enter(&self, vl: u32) {
        self.counts.fetch_add(u64::from(vl), Relaxed);
    }

    /// The sum of the values backed up for `p`, the completed visits and the visits in
    /// progress, where the node keeps `kept` sums ([`Node::add`]).
    #[inline]
    pub fn stats(&self, p: Player, kept: usize) -> (u64, u32, u32) {
        let c = self.counts.load(Relaxed);
        let (visits, vloss) = ((c >> 32) as u32, c as u32);
        let sum = if p < kept {
            self.sum[p].load(Relaxed)
        } else {
            // The second player of a zero-sum game: the rest of 1 per visit (a visit being
            // backed up may have added its value and not yet its count).
            (u64::from(visits) * ONE).saturating_sub(self.sum[0].load(Relaxed))
        };
        (sum, visits, vloss)
    }

    /// Mean value for `p` and the visits (virtual losses count as visits worth 0), where the
    /// node keeps `kept` sums.
    #[inline]
    pub fn mean(&self, p: Player, kept: usize) -> (f64, u32) {
        let (sum, visits, vloss) = self.stats(p, kept);
        let all = visits + vloss;
        if all == 0 {
            return (0.5, 0);
        }
        (sum as f64 / ONE as f64 / all as f64, all)
    }

    /// Adds one visit's values, ending its `vl` virtual losses ([`Node::enter`]'s). The node
    /// keeps the sums of the first `kept` players: every player's, or only the first's in a
    /// two-player zero-sum game, whose values add up to 1 (one atomic add fewer a visit).
    #[inline]
    pub fn add(&self, value: &[u16; 3], kept: usize, vl: u32) {
        for (p, v) in value.iter().enumerate().take(kept) {
            self.sum[p].fetch_add(u64::from(*v), Relaxed);
        }
        // One visit more, `vl` fewer in progress: the low word holds at least `vl`, so the
        // sum's carry lands in the high word exactly once.
        self.counts
            .fetch_add((1u64 << 32).wrapping_sub(u64::from(vl)), Relaxed);
    }

    /// The proven value as seen from the parent (one ply further away), if proven.
    #[inline]
    pub fn proven_from_parent(&self) -> Option<Scores> {
        self.proven.get().map(|s| shift(*s))
    }

    /// The solver's rule, for a node with its edges: proven if some child is proven a win
    /// for the player to move (the value of the first such child), or every child is proven
    /// (the first with the highest value for the player to move, as max^n chooses). Returns
    /// whether the node is proven now.
    pub fn try_prove(&self) -> bool {
        if self.proven.get().is_some() {
            return true;
        }
        let Some(edges) = self.edges.get() else {
            return false;
        };
        let p = self.mover as usize;
        let mut best: Option<Scores> = None;
        let mut all = true;
        for e in edges.iter() {
            match e.child.get().and_then(|c| c.proven_from_parent()) {
                Some(v) => {
                    if v[p] > MATE_BOUND {
                        let _ = self.proven.set(v);
                        return true;
                    }
                    if best.map_or(true, |b| v[p] > b[p]) {
                        best = Some(v);
                    }
                }
                None => all = false,
            }
        }
        match best {
            Some(b) if all => {
                let _ = self.proven.set(b);
                true
            }
            _ => false,
        }
    }

    /// Bytes a node takes, with its box.
    pub const BYTES: usize = std::mem::size_of::<Node<M>>();
}

impl<M> Edge<M> {
    /// Bytes an edge takes.
    pub const BYTES: usize = std::mem::size_of::<Edge<M>>();
}

/// An exact score one ply further from where it was found: a forced result one ply later
/// (scores beyond the evaluation's range depend on the distance), a heuristic one unchanged.
#[inline]
pub(crate) fn shift(mut s: Scores) -> Scores {
    for v in &mut s {
        if *v > MAX_EVAL {
            *v -= 1;
        } else if *v < -MAX_EVAL {
            *v += 1;
        }
    }
    s
}

/// The values of "both win" and "both lose" lie this far from 1 and 0, and heuristic
/// values this far again inside them: the order of the engine's scores (a win, both win,
/// any evaluation, both lose, a loss) is kept.
const MARGIN: f64 = 0.025;

/// An evaluation (or a draw's value) as a value: the logistic of `e / scale`, squeezed into
/// `[2·MARGIN, 1 − 2·MARGIN]`.
#[inline]
pub(crate) fn logistic(e: i32, scale: f64) -> f64 {
    let l = 1.0 / (1.0 + (-(e as f64) / scale).exp());
    2.0 * MARGIN + (1.0 - 4.0 * MARGIN) * l
}

/// The inverse of [`logistic`], clamped to the evaluation's range.
#[inline]
pub(crate) fn logit(v: f64, scale: f64) -> i32 {
    let l = ((v - 2.0 * MARGIN) / (1.0 - 4.0 * MARGIN)).clamp(1e-9, 1.0 - 1e-9);
    let e = scale * (l / (1.0 - l)).ln();
    e.round().clamp(-(MAX_EVAL as f64), MAX_EVAL as f64) as i32
}

/// An exact score (an end of the game, a draw's value, or an evaluation) as a value in
/// `[0, 1]`: a win 1, a loss 0, both win `1 − MARGIN`, both lose `MARGIN`, otherwise
/// [`logistic`].
#[inline]
pub(crate) fn exact_value(s: i32, scale: f64) -> f64 {
    if s > MATE_BOUND {
        1.0
    } else if s < -MATE_BOUND {
        0.0
    } else if s > MAX_EVAL {
        1.0 - MARGIN
    } else if s < -MAX_EVAL {
        MARGIN
    } else {
        logistic(s, scale)
    }
}

/// A value in `[0, 1]` in fixed point.
#[inline]
pub(crate) fn fixed(v: f64) -> u16 {
    (v.clamp(0.0, 1.0) * ONE as f64).round() as u16
}

/// Exact scores of every player as fixed-point values.
#[inline]
pub(crate) fn exact_values(s: &Scores, players: usize, scale: f64) -> [u16; 3] {
    let mut out = [0; 3];
    for p in 0..players {
        out[p] = fixed(exact_value(s[p], scale));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::MATE;

    #[test]
    fn values_order_as_scores() {
        let scale = 400.0;
        let order = [
            -MATE + 3,
            -(crate::HALF_MATE - 2),
            -MAX_EVAL,
            -50,
            0,
            50,
            MAX_EVAL,
            crate::HALF_MATE - 2,
            MATE - 3,
        ];
        for w in order.windows(2) {
            assert!(
                exact_value(w[0], scale) <= exact_value(w[1], scale),
                "{w:?}"
            );
        }
        assert_eq!(exact_value(0, scale), 0.5);
        assert_eq!(logit(logistic(321, scale), scale), 321);
        assert_eq!(fixed(1.0) as u64, ONE);
    }

    #[test]
    fn visits_in_progress_count_as_losses_until_their_backup() {
        let node: Node<u8> = Node::new(0);
        assert_eq!(node.mean(0, 2), (0.5, 0));
        node.enter(3);
        node.enter(3);
        assert_eq!(node.visits(), 0);
        assert_eq!(node.mean(0, 2), (0.0, 6));
        node.add(&[ONE as u16, 0, 0], 2, 3);
        assert_eq!(node.visits(), 1);
        // One visit worth 1 and three virtual losses worth 0.
        assert_eq!(node.mean(0, 2), (0.25, 4));
        assert_eq!(node.mean(1, 2), (0.0, 4));
        node.add(&[0, ONE as u16, 0], 2, 3);
        node.add(&[ONE as u16, 0, 0], 2, 0);
        assert_eq!(node.visits(), 3);
        assert_eq!(node.mean(0, 2).1, 3);
        assert!((node.mean(0, 2).0 - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_zero_sum_node_keeps_one_sum_and_gives_both_means() {
        let (two, one): (Node<u8>, Node<u8>) = (Node::new(0), Node::new(0));
        for v in [fixed(0.8), fixed(0.3), fixed(0.55)] {
            two.enter(1);
            one.enter(1);
            assert_eq!(two.mean(1, 2), one.mean(1, 1));
            two.add(&[v, ONE as u16 - v, 0], 2, 1);
            one.add(&[v, ONE as u16 - v, 0], 1, 1);
            for p in 0..2 {
                assert_eq!(two.stats(p, 2), one.stats(p, 1));
            }
        }
        assert_eq!(one.sum[1].load(Relaxed), 0);
        let (m0, n) = one.mean(0, 1);
        assert_eq!(n, 3);
        assert!((m0 + one.mean(1, 1).0 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn shift_moves_forced_results_one_ply_away() {
        assert_eq!(shift([MATE, -MATE, 17]), [MATE - 1, -MATE + 1, 17]);
    }

    #[test]
    fn proof_rule() {
        let node: Node<u8> = Node::new(0);
        let edges: Vec<Edge<u8>> = (0..3)
            .map(|i| Edge {
                mv: i,
                prior: [0; 3],
                child: OnceLock::new(),
            })
            .collect();
        let _ = node.edges.set(edges.into_boxed_slice());
        let edges = node.edges.get().unwrap();
        let _ = edges[0].child.set(Box::new(Node::proven(1, [-40, 40, 0])));
        assert!(!node.try_prove());
        let _ = edges[2].child.set(Box::new(Node::proven(1, [10, -10, 0])));
        assert!(!node.try_prove());
        let _ = edges[1].child.set(Box::new(Node::proven(1, [10, -10, 0])));
        assert!(node.try_prove());
        // Every child proven: the first of the best.
        assert_eq!(node.proven.get(), Some(&[10, -10, 0]));
        // A win for the mover proves the node at once.
        let won: Node<u8> = Node::new(1);
        let _ = won.edges.set(
            vec![
                Edge {
                    mv: 0,
                    prior: [0; 3],
                    child: OnceLock::new(),
                },
                Edge {
                    mv: 1,
                    prior: [0; 3],
                    child: OnceLock::from(Box::new(Node::proven(0, [-MATE, MATE, 0]))),
                },
            ]
            .into_boxed_slice(),
        );
        assert!(won.try_prove());
        assert_eq!(won.proven.get(), Some(&[-MATE + 1, MATE - 1, 0]));
    }
}
