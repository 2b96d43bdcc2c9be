//! The feature transformer's sums, kept up to date from one evaluation to the next: one
//! [`SparseAccumulator`] per search thread.
//!
//! For each perspective it remembers the last position's `i16` sums and its sorted list of
//! active features (or several positions, in *slots*). An evaluation finds the change from
//! what it remembers:
//!
//! 1. **explicit changes** ([`QuantNet::evaluate_after`]): the caller says which features
//!    a move added and removed since the accumulator's last position; the sums move by
//!    those rows. Release builds keep no list along such changes (sorted inserts were a
//!    third of that path's cost), so the next evaluation from lists refreshes that view
//!    once; debug builds keep the list and check each change against it;
//! 2. **the difference of two sorted lists** ([`QuantNet::evaluate`]): the new list and the
//!    remembered one compared eight features at a time, one by one only where they
//!    differ (short lists: a few dozen features);
//! 3. **a refresh**: when the change would cost as many rows as the new list has features
//!    (or the accumulator was last used with another network), the sums are made afresh.
//!
//! With several slots ([`SparseAccumulator::with_slots`]) the remembered list nearest to
//! the new one (fewest changed features) is updated, and a refresh replaces the slot used
//! least recently. In a depth-first search's order the last leaf is the nearest anyway:
//! the bench of such an order (`sparse-slots`) updates the same 6.7 rows a view with 1, 2
//! or 4 slots and each extra slot's walk costs time, so one slot is the default.
//!
//! The search calls back on nothing: it hands over the position's features (or a
//! position's changes from the last one), and **the sums are the same bits whatever path
//! made them** (the `i16` sums wrap, so the order of rows does not matter), so an
//! evaluation is a function of its position alone.

use super::kernels::Fused;
use super::quant::{Forward, QuantNet};
use super::SparseShape;

/// The features one move added to and removed from a perspective's list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta<'a> {
    /// Features active now that were not.
    pub added: &'a [u32],
    /// Features active before that are not now.
    pub removed: &'a [u32],
}

/// How an accumulator's sums were kept, counted since it was made (to choose its slots).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccumulatorStats {
    /// Perspectives brought to a new position (one per perspective per evaluation).
    pub views: u64,
    /// Of those, the ones made afresh.
    pub refreshes: u64,
    /// Rows of the feature transformer added or subtracted, refreshes included.
    pub rows: u64,
}

/// One remembered position of one perspective: its sums and, when known, its sorted list
/// of active features.
#[derive(Clone, Debug, Default)]
struct Slot {
    active: Vec<u32>,
    /// False when explicit changes moved the sums on without the list (release builds
    /// keep no list along explicit changes: the next list evaluation refreshes this slot
    /// instead of walking a list it does not have).
    known: bool,
    sums: Vec<i16>,
    /// False until first filled.
    valid: bool,
    /// When it was last used (its view's clock).
    used: u64,
}

impl Slot {
    /// The slot's features become `new`.
    fn set(&mut self, new: &[u32]) {
        self.active.clear();
        self.active.extend_from_slice(new);
        self.known = true;
    }

    /// Debug builds check explicit changes against the list and keep it: false when a
    /// removed feature was not active or an added one was.
    fn change(&mut self, added: &[u32], removed: &[u32]) -> bool {
        for &f in removed {
            match self.active.binary_search(&f) {
                Ok(at) => {
                    self.active.remove(at);
                }
                Err(_) => return false,
            }
        }
        for &f in added {
            match self.active.binary_search(&f) {
                Ok(_) => return false,
                Err(at) => self.active.insert(at, f),
            }
        }
        true
    }
}

/// The slots of one perspective.
#[derive(Clone, Debug, Default)]
struct View {
    slots: Vec<Slot>,
    /// The slot of the last evaluation.
    last: usize,
    clock: u64,
}

/// One search thread's memory of the feature transformer's sums (see [the module](self)).
/// Used with another network than its last, it starts afresh.
#[derive(Clone, Debug)]
pub struct SparseAccumulator {
    /// The identity of the network whose sums these are (0: none).
    net: u64,
    slots: usize,
    views: Vec<View>,
    /// The changes of the best slot so far, and of the slot being tried.
    best: Changes,
    tried: Changes,
    /// The clipped feature transformer, view after view (`P · H`).
    act: Vec<i16>,
    /// The clipped second hidden layer (`L2`).
    hidden: Vec<i16>,
    /// A dense layer's integer sums.
    sums: Vec<i32>,
    stats: AccumulatorStats,
}

impl Default for SparseAccumulator {
    fn default() -> Self {
        SparseAccumulator::new()
    }
}

/// The changes between two lists.
#[derive(Clone, Debug, Default)]
struct Changes {
    added: Vec<u32>,
    removed: Vec<u32>,
}

impl Changes {
    fn added(&self) -> &[u32] {
        &self.added
    }

    fn removed(&self) -> &[u32] {
        &self.removed
    }

    fn count(&self) -> usize {
        self.added.len() + self.removed.len()
    }
}

/// Whether the first eight features of `a` and `b` are the same: the or of their xors,
/// which the compiler makes a few vector instructions.
#[inline(always)]
fn same8(a: &[u32], b: &[u32]) -> bool {
    let (a, b): (&[u32; 8], &[u32; 8]) = (
        a[..8].try_into().expect("8 features"),
        b[..8].try_into().expect("8 features"),
    );
    let mut x = 0;
    for k in 0..8 {
        x |= a[k] ^ b[k];
    }
    x == 0
}

/// The changes from `old` to `new` (both sorted) into `c`; true when there are fewer than
/// `limit` (the walk stops there). The two lists are compared eight features at a time,
/// aligned on what was found so far, then one by one up to the first difference, which
/// is a feature removed (the smaller is the old list's) or added. With a few changes
/// among a few dozen features, that skips most of the walk.
#[inline]
fn diff(old: &[u32], new: &[u32], c: &mut Changes, limit: usize) -> bool {
    c.added.clear();
    c.removed.clear();
    let (mut i, mut j) = (0, 0);
    let mut count = 0;
    loop {
        while i + 8 <= old.len() && j + 8 <= new.len() && same8(&old[i..], &new[j..]) {
            i += 8;
            j += 8;
        }
        while i < old.len() && j < new.len() && old[i] == new[j] {
            i += 1;
            j += 1;
        }
        if i == old.len() || j == new.len() {
            break;
        }
        count += 1;
        if count >= limit {
            return false;
        }
        let (a, b) = (old[i], new[j]);
        if a < b {
            c.removed.push(a);
            i += 1;
        } else {
            c.added.push(b);
            j += 1;
        }
    }
    if count + (old.len() - i) + (new.len() - j) >= limit {
        return false;
    }
    c.removed.extend_from_slice(&old[i..]);
    c.added.extend_from_slice(&new[j..]);
    true
}

/// Brings a view's sums by the changes (`sums += added rows − removed rows`) and, for a
/// network without a second hidden layer, adds the view's share of the outputs to `out`
/// in the same pass ([`QuantNet::out_view`]).
#[inline]
fn rows(
    net: &QuantNet,
    p: usize,
    sums: &mut [i16],
    added: &[u32],
    removed: &[u32],
    out: &mut [i32],
) {
    match net.out_view(p) {
        Some((weights, stride)) => {
            let o = net.shape().outputs;
            let view = Fused {
                weights: &net.ft_weights,
                added,
                removed,
                dense: weights,
                stride,
            };
            net.simd().update_dot(sums, view, &mut out[..o]);
        }
        None => {
            if !(added.is_empty() && removed.is_empty()) {
                net.simd().update(sums, &net.ft_weights, added, removed);
            }
        }
    }
}

impl SparseAccumulator {
    /// An accumulator remembering one position per perspective (what a search's leaves,
    /// evaluated one after another, need most).
    pub fn new() -> SparseAccumulator {
        SparseAccumulator::with_slots(1)
    }

    /// An accumulator remembering up to `slots` positions per perspective (at least 1):
    /// each evaluation updates the nearest.
    pub fn with_slots(slots: usize) -> SparseAccumulator {
        SparseAccumulator {
            net: 0,
            slots: slots.max(1),
            views: Vec::new(),
            best: Changes::default(),
            tried: Changes::default(),
            act: Vec::new(),
            hidden: Vec::new(),
            sums: Vec::new(),
            stats: AccumulatorStats::default(),
        }
    }

    /// How its sums were kept so far.
    pub fn stats(&self) -> AccumulatorStats {
        self.stats
    }

    /// Forgets every position (the next evaluation refreshes).
    pub fn clear(&mut self) {
        self.net = 0;
    }

    /// Made ready for `net`: empty slots of its width unless it was `net`'s already.
    fn bind(&mut self, net: &QuantNet) {
        if self.net == net.id() {
            return;
        }
        let s: SparseShape = net.shape();
        let slot = Slot {
            sums: vec![0; s.width],
            ..Slot::default()
        };
        let view = View {
            slots: vec![slot; self.slots],
            last: 0,
            clock: 0,
        };
        self.views = vec![view; s.perspectives];
        self.act = vec![0; s.concat()];
        self.hidden = vec![0; s.l2.unwrap_or(0)];
        self.sums = vec![0; s.l2.unwrap_or(0).max(s.outputs)];
        self.net = net.id();
    }

    /// Brings every perspective's sums to `features` (one sorted list a perspective).
    pub(crate) fn update<L: AsRef<[u32]>>(&mut self, net: &QuantNet, features: &[L]) {
        self.bind(net);
        net.start_outputs(&mut self.sums);
        for (p, new) in features.iter().enumerate() {
            self.update_view(net, p, new.as_ref());
        }
    }

    /// Brings perspective `p` to `new`: the nearest slot updated, or the least recently
    /// used refreshed.
    #[inline]
    fn update_view(&mut self, net: &QuantNet, p: usize, new: &[u32]) {
        debug_assert!(
            new.windows(2).all(|w| w[0] < w[1]),
            "perspective {p}: features {new:?} not sorted without repeats"
        );
        debug_assert!(
            new.iter().all(|&f| (f as usize) < net.shape().features),
            "perspective {p}: a feature beyond the network's {}",
            net.shape().features
        );
        let view = &mut self.views[p];
        view.clock += 1;
        self.stats.views += 1;
        // The nearest slot: fewest changes, if fewer than a refresh's rows.
        let mut limit = new.len();
        let mut best = None;
        for (i, slot) in view.slots.iter_mut().enumerate() {
            if !(slot.valid && slot.known) {
                continue;
            }
            if diff(&slot.active, new, &mut self.tried, limit) {
                std::mem::swap(&mut self.best, &mut self.tried);
                limit = self.best.count();
                best = Some(i);
                if limit == 0 {
                    break;
                }
            }
        }
        let out = &mut self.sums[..];
        let i = match best {
            Some(i) => {
                let slot = &mut view.slots[i];
                let (added, removed) = (self.best.added(), self.best.removed());
                rows(net, p, &mut slot.sums, added, removed, out);
                if limit > 0 {
                    slot.set(new);
                }
                self.stats.rows += limit as u64;
                i
            }
            None => {
                let i = (0..view.slots.len())
                    .min_by_key(|&i| (view.slots[i].valid, view.slots[i].used))
                    .expect("at least one slot");
                let slot = &mut view.slots[i];
                net.simd()
                    .refresh(&mut slot.sums, &net.ft_bias, &net.ft_weights, new);
                rows(net, p, &mut slot.sums, &[], &[], out);
                slot.set(new);
                slot.valid = true;
                self.stats.refreshes += 1;
                self.stats.rows += new.len() as u64;
                i
            }
        };
        view.slots[i].used = view.clock;
        view.last = i;
    }

    /// Applies each perspective's `deltas` to its last position.
    pub(crate) fn apply(&mut self, net: &QuantNet, deltas: &[Delta<'_>]) {
        assert!(
            self.net == net.id() && self.views.iter().all(|v| v.slots[v.last].valid),
            "changes need a last position: evaluate one first, with this network"
        );
        net.start_outputs(&mut self.sums);
        for (p, delta) in deltas.iter().enumerate() {
            let view = &mut self.views[p];
            view.clock += 1;
            let slot = &mut view.slots[view.last];
            slot.used = view.clock;
            // A feature at F or beyond is refused by the kernels (they check every row
            // they read), so release builds do not look again here.
            debug_assert!(
                delta
                    .added
                    .iter()
                    .all(|&f| (f as usize) < net.shape().features),
                "perspective {p}: an added feature beyond the network's {}",
                net.shape().features
            );
            if cfg!(debug_assertions) && slot.known {
                assert!(
                    slot.change(delta.added, delta.removed),
                    "perspective {p}: changes {delta:?}: a removed feature was not active or an added one was"
                );
            } else {
                slot.known = false;
            }
            let out = &mut self.sums[..];
            self.stats.views += 1;
            self::rows(net, p, &mut slot.sums, delta.added, delta.removed, out);
            self.stats.rows += (delta.added.len() + delta.removed.len()) as u64;
        }
    }

    /// The current position's sums of perspective `p` (for tests).
    #[cfg(test)]
    pub(crate) fn sums(&self, p: usize) -> &[i16] {
        let v = &self.views[p];
        &v.slots[v.last].sums
    }

    /// The output layer's sums added up by the last update (no second hidden layer).
    fn output_sums(&self) -> &[i32] {
        &self.sums
    }

    /// What [`QuantNet::forward`] reads of the current position.
    fn forward_parts(&mut self, net: &QuantNet) -> Forward<'_> {
        if net.fused() {
            Forward::Fused(self.output_sums())
        } else {
            let (act, hidden, sums) = self.clipped(net);
            Forward::Layers { act, hidden, sums }
        }
    }

    /// The clipped feature transformer of the current position (view after view), and the
    /// work buffers of the dense layers: the second hidden layer's activations and the
    /// integer sums.
    fn clipped(&mut self, net: &QuantNet) -> (&[i16], &mut [i16], &mut [i32]) {
        let simd = net.simd();
        let width = net.width();
        for (v, act) in self.views.iter().zip(self.act.chunks_exact_mut(width)) {
            simd.crelu(&v.slots[v.last].sums, act);
        }
        (&self.act, &mut self.hidden, &mut self.sums)
    }
}

impl QuantNet {
    /// The network's outputs for the active features of each perspective (sorted, without
    /// repeats, each below `F`; one list per perspective, the mover's first) into `out`
    /// (one `f32` a output, −1 … 1), the feature transformer's sums kept in `acc` and
    /// updated from the features that changed since `acc`'s last evaluation (see
    /// [`SparseAccumulator`]). Allocates nothing once `acc` has grown to the network.
    ///
    /// The result is a function of `features` alone, whatever `acc` evaluated before.
    ///
    /// # Panics
    /// When `features` is not one list per perspective, or `out` not one value per output
    /// (a caller's bug). Features out of order, repeated or `F` or above are a caller's bug
    /// too: caught by debug assertions, and otherwise give a wrong value or a panic.
    pub fn evaluate<L: AsRef<[u32]>>(
        &self,
        features: &[L],
        acc: &mut SparseAccumulator,
        out: &mut [f32],
    ) {
        assert_eq!(
            features.len(),
            self.shape().perspectives,
            "one list a perspective"
        );
        acc.update(self, features);
        self.forward(acc.forward_parts(self), out);
    }

    /// As [`evaluate`](QuantNet::evaluate), for the position that `deltas` (one per
    /// perspective) make of `acc`'s last one: what a caller that knows a move's changes
    /// saves of the merge walk. `acc` then remembers the new position (the next call may
    /// be either).
    ///
    /// # Panics
    /// When `acc` has no last position of this network, when a removed feature was not
    /// active or an added one was (or is `F` or above), or when `deltas` or `out` has the
    /// wrong length: each a caller's bug.
    pub fn evaluate_after(
        &self,
        deltas: &[Delta<'_>],
        acc: &mut SparseAccumulator,
        out: &mut [f32],
    ) {
        assert_eq!(
            deltas.len(),
            self.shape().perspectives,
            "one change a perspective"
        );
        acc.apply(self, deltas);
        self.forward(acc.forward_parts(self), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::sparse::kernels::Simd;
    use crate::sparse::tests::random_list;
    use crate::sparse::{SparseNet, SparseShape};

    fn net(p: usize, l2: Option<usize>) -> QuantNet {
        let shape = SparseShape {
            features: 120,
            width: 80,
            perspectives: p,
            l2,
            outputs: 2,
        };
        SparseNet::new("g", shape, 9).unwrap().quantize().0
    }

    /// A position after a few random changes: features in and out.
    fn step(rng: &mut Rng, list: &mut Vec<u32>, changes: usize) {
        for _ in 0..changes {
            let f = rng.below(120) as u32;
            match list.binary_search(&f) {
                Ok(i) => {
                    list.remove(i);
                }
                Err(i) => list.insert(i, f),
            }
        }
    }

    #[test]
    fn updated_sums_equal_fresh_ones_bit_for_bit() {
        for (p, l2, slots) in [(1, None, 1), (2, Some(8), 1), (2, None, 4), (3, None, 3)] {
            let net = net(p, l2);
            let mut rng = Rng::new(p as u64);
            let mut acc = SparseAccumulator::with_slots(slots);
            let mut lists: Vec<Vec<u32>> = (0..p).map(|_| random_list(&mut rng, 120, 25)).collect();
            let (mut a, mut b) = ([0.0; 2], [0.0; 2]);
            for i in 0..400 {
                // Mostly a few changes, now and then many, now and then a jump back.
                let changes = match i % 37 {
                    0 => 60,
                    _ => rng.below(5),
                };
                for l in lists.iter_mut() {
                    step(&mut rng, l, changes);
                }
                net.evaluate(&lists, &mut acc, &mut a);
                let mut fresh = SparseAccumulator::new();
                net.evaluate(&lists, &mut fresh, &mut b);
                for v in 0..p {
                    assert_eq!(acc.sums(v), fresh.sums(v), "step {i} view {v}");
                }
                assert_eq!(a, b);
            }
            let s = acc.stats();
            assert_eq!(s.views, 400 * p as u64);
            assert!(s.refreshes < s.views / 4, "{s:?}");
        }
    }

    #[test]
    fn explicit_changes_give_the_same_sums() {
        let net = net(2, Some(16));
        let mut rng = Rng::new(3);
        let mut acc = SparseAccumulator::new();
        let mut lists: Vec<Vec<u32>> = (0..2).map(|_| random_list(&mut rng, 120, 30)).collect();
        let (mut a, mut b) = ([0.0; 2], [0.0; 2]);
        net.evaluate(&lists, &mut acc, &mut a);
        for i in 0..300 {
            let old = lists.clone();
            for l in lists.iter_mut() {
                let changes = if i % 50 == 0 { 40 } else { rng.below(4) };
                step(&mut rng, l, changes);
            }
            let mut changes = Vec::new();
            for (o, n) in old.iter().zip(&lists) {
                let mut c = Changes::default();
                assert!(diff(o, n, &mut c, usize::MAX));
                changes.push((c.added().to_vec(), c.removed().to_vec()));
            }
            let deltas: Vec<Delta<'_>> = changes
                .iter()
                .map(|(a, r)| Delta {
                    added: a,
                    removed: r,
                })
                .collect();
            // Now and then by the list, to mix the paths.
            if i % 7 == 3 {
                net.evaluate(&lists, &mut acc, &mut a);
            } else {
                net.evaluate_after(&deltas, &mut acc, &mut a);
            }
            net.evaluate(&lists, &mut SparseAccumulator::new(), &mut b);
            assert_eq!(a, b, "step {i}");
            // Debug builds (the tests') keep the list along explicit changes.
            for (view, list) in acc.views.iter().zip(&lists) {
                assert_eq!(&view.slots[0].active, list);
            }
        }
    }

    /// The integer network's output sums straight from its definition (no second hidden
    /// layer): every view summed afresh, clipped, multiplied.
    fn reference(net: &QuantNet, lists: &[Vec<u32>]) -> Vec<f32> {
        let s = net.shape();
        let (h, out) = (s.width, net.out.as_ref_parts());
        (0..s.outputs)
            .map(|j| {
                let mut total = out.1[j];
                for (p, list) in lists.iter().enumerate() {
                    for u in 0..h {
                        let mut z = net.ft_bias[u];
                        for &f in list {
                            z = z.wrapping_add(net.ft_weights[f as usize * h + u]);
                        }
                        total += i32::from(z.clamp(0, 127))
                            * i32::from(out.0[j * s.concat() + p * h + u]);
                    }
                }
                net.output(total)
            })
            .collect()
    }

    #[test]
    fn every_instruction_set_gives_the_definition_s_bits() {
        let mut rng = Rng::new(8);
        // Widths of whole chunks of 64 lanes, of 16, and of neither (the portable loop).
        for (width, l2) in [
            (128, None),
            (80, None),
            (40, None),
            (100, Some(8)),
            (64, Some(16)),
        ] {
            let shape = SparseShape {
                features: 120,
                width,
                perspectives: 2,
                l2,
                outputs: 3,
            };
            let mut portable = crate::sparse::quant::tests::random_net(shape, 5)
                .quantize()
                .0;
            let fast = portable.clone();
            portable.set_simd(Simd::Portable);
            let (mut x, mut y) = (SparseAccumulator::new(), SparseAccumulator::new());
            let (mut a, mut b) = ([0.0; 3], [0.0; 3]);
            for _ in 0..60 {
                let lists: Vec<Vec<u32>> = (0..2).map(|_| random_list(&mut rng, 120, 30)).collect();
                portable.evaluate(&lists, &mut x, &mut a);
                fast.evaluate(&lists, &mut y, &mut b);
                assert_eq!(a, b, "width {width}");
                if l2.is_none() {
                    assert_eq!(a.to_vec(), reference(&portable, &lists), "width {width}");
                }
            }
        }
    }

    #[test]
    fn another_network_starts_afresh() {
        let (one, two) = (net(1, None), net(1, Some(4)));
        assert_ne!(one.id(), two.id());
        assert_eq!(one.id(), one.clone().id());
        let lists = [vec![1u32, 5, 9]];
        let mut acc = SparseAccumulator::new();
        let (mut a, mut b) = ([0.0; 2], [0.0; 2]);
        one.evaluate(&lists, &mut acc, &mut a);
        two.evaluate(&lists, &mut acc, &mut a);
        two.evaluate(&lists, &mut SparseAccumulator::new(), &mut b);
        assert_eq!(a, b);
        assert_eq!(acc.stats().refreshes, 2);
    }

    #[test]
    fn the_walk_finds_the_changes_and_stops_at_its_limit() {
        let mut c = Changes::default();
        assert!(diff(&[1, 3, 5, 9], &[2, 3, 9, 11], &mut c, 10));
        assert_eq!((c.added(), c.removed()), (&[2, 11][..], &[1, 5][..]));
        assert!(!diff(&[1, 3, 5, 9], &[2, 3, 9, 11], &mut c, 4));
        assert!(diff(&[], &[], &mut c, 1));
        assert!(!diff(&[], &[], &mut c, 0));
        // Long common starts and ends, and lists of different lengths.
        let old: Vec<u32> = (0..40).map(|i| 2 * i).collect();
        let mut new = old.clone();
        new.remove(20);
        new.insert(30, 61);
        new.push(1000);
        assert!(diff(&old, &new, &mut c, 10));
        assert_eq!((c.added(), c.removed()), (&[61, 1000][..], &[40][..]));
        assert!(diff(&new, &old, &mut c, 10));
        assert_eq!((c.added(), c.removed()), (&[40][..], &[61, 1000][..]));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "a removed feature was not active")]
    fn removing_a_feature_that_is_not_there_is_a_caller_s_bug() {
        let net = net(1, None);
        let mut acc = SparseAccumulator::new();
        let mut out = [0.0; 2];
        net.evaluate(&[vec![1u32, 2]], &mut acc, &mut out);
        let delta = Delta {
            added: &[],
            removed: &[3],
        };
        net.evaluate_after(&[delta], &mut acc, &mut out);
    }
}
