//! Where the parallel search's extra nodes come from: every node a thread searched, kept
//! when the crate is built with the `trace` feature, and their comparison with one
//! thread's search of the same position ([`compare`]).
//!
//! Without the feature nothing is recorded (the calls compile to nothing) and
//! [`Search::take_trace`](crate::Search::take_trace) gives empty traces; with it each thread keeps a
//! [`Visit`] per node it counts (a position at a remaining depth, its ply, the iteration,
//! how its parent came to search it), which costs memory (16 bytes a node) and time, so
//! that only measurements build it (`cargo build --release -p plyforge-arena --features
//! trace`, then `arena bench GAME --scaling`).
//!
//! [`compare`] splits the nodes of a parallel search, depth by depth, into the positions
//! one thread also searched at that depth (`common`), those it did not (`new`: the tree
//! the threads' other windows, orders and iterations added), a thread's repeated visits of
//! a position it had already searched at that depth (`same`: re-searches), and visits of a
//! position another thread searched too (`cross`: the work done twice), with the kind of
//! the cross visits (a parent's first move, which ABDADA lets every thread search, or a
//! later one) and the nodes helpers searched in iterations they did not complete.

use fxhash::FxHashMap;

/// How a node's parent came to search it (bits of [`Visit::kind`]).
pub mod kind {
    /// Its parent's first move searched (every thread searches it).
    pub const FIRST: u8 = 1;
    /// Searched again after a null window failed high (principal-variation search), or
    /// after a reduced search beat alpha.
    pub const RESEARCH: u8 = 2;
    /// Taken up after being put off because another thread was searching it.
    pub const DEFERRED: u8 = 4;
    /// The root, or a leaf evaluated by its parent one ply above the horizon.
    pub const OTHER: u8 = 8;
}

/// One node a thread searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit {
    /// The position's key.
    pub key: u64,
    /// The remaining depth (0: a leaf; below 0: quiescence search).
    pub depth: i16,
    /// Its distance from the root (saturating at 255).
    pub ply: u8,
    /// The iteration the thread was searching.
    pub iteration: u8,
    /// How the parent came to search it ([`kind`]'s bits).
    pub kind: u8,
}

/// The nodes one thread searched in one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadTrace {
    /// Every node, in the order searched.
    pub visits: Vec<Visit>,
    /// The iterations this thread completed, a bit per depth (below 64).
    pub completed: u64,
}

/// One remaining depth of a [`compare`]: node counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepthRow {
    /// The remaining depth.
    pub depth: i16,
    /// Nodes of one thread's search.
    pub serial: u64,
    /// Nodes of the parallel search.
    pub parallel: u64,
    /// First visits of positions one thread searched at this depth too.
    pub common: u64,
    /// First visits of positions one thread did not search at this depth.
    pub new: u64,
    /// Visits of a position the same thread had searched at this depth before.
    pub same: u64,
    /// Visits of a position (at this depth) by a thread other than the first to search it
    /// (the main thread counts as the first when it searched it at all).
    pub cross: u64,
    /// Of `cross`, those reached as their parent's first move.
    pub cross_first: u64,
    /// Of `cross`, those taken up after a deferral.
    pub cross_deferred: u64,
}

impl DepthRow {
    fn add(&mut self, o: &DepthRow) {
        self.serial += o.serial;
        self.parallel += o.parallel;
        self.common += o.common;
        self.new += o.new;
        self.same += o.same;
        self.cross += o.cross;
        self.cross_first += o.cross_first;
        self.cross_deferred += o.cross_deferred;
    }
}

/// Where a parallel search's nodes went, against one thread's (see the module
/// documentation); summed over positions by [`Overhead::add`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overhead {
    /// A row per remaining depth, the deepest first.
    pub rows: Vec<DepthRow>,
    /// One thread's repeated visits (its own re-searches), all depths.
    pub serial_same: u64,
    /// Nodes each thread searched, the main thread first.
    pub by_thread: Vec<u64>,
    /// Of those, the `cross` visits each thread made.
    pub cross_by_thread: Vec<u64>,
    /// Nodes helpers searched in iterations they did not complete (abandoned when the main
    /// thread overtook them, or stopped at the end).
    pub abandoned: u64,
    /// Nodes each thread searched in each iteration (`[thread][iteration]`, iteration 0
    /// unused).
    pub by_iteration: Vec<Vec<u64>>,
}

impl Overhead {
    /// The totals over every depth.
    pub fn total(&self) -> DepthRow {
        let mut t = DepthRow::default();
        for r in &self.rows {
            t.add(r);
        }
        t
    }

    /// Adds another comparison's counts (another position of a bench).
    pub fn add(&mut self, o: &Overhead) {
        for r in &o.rows {
            match self.rows.iter_mut().find(|m| m.depth == r.depth) {
                Some(m) => m.add(r),
                None => self.rows.push(*r),
            }
        }
        self.rows.sort_by_key(|r| std::cmp::Reverse(r.depth));
        self.serial_same += o.serial_same;
        for (mine, theirs) in [
            (&mut self.by_thread, &o.by_thread),
            (&mut self.cross_by_thread, &o.cross_by_thread),
        ] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
        self.abandoned += o.abandoned;
        if self.by_iteration.len() < o.by_iteration.len() {
            self.by_iteration.resize(o.by_iteration.len(), Vec::new());
        }
        for (mine, theirs) in self.by_iteration.iter_mut().zip(&o.by_iteration) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
    }
}

/// Compares a parallel search's nodes (`parallel`, a trace per thread, the main thread
/// first) with one thread's search of the same position to the same depth (`serial`).
pub fn compare(serial: &[ThreadTrace], parallel: &[ThreadTrace]) -> Overhead {
    let mut rows: FxHashMap<i16, DepthRow> = FxHashMap::default();
    // One thread's positions by depth, and its repeats.
    let mut seen: FxHashMap<(u64, i16), u32> = FxHashMap::default();
    for t in serial {
        for v in &t.visits {
            *seen.entry((v.key, v.depth)).or_default() += 1;
            rows.entry(v.depth).or_default().serial += 1;
        }
    }
    let serial_same = seen.values().map(|&c| u64::from(c - 1)).sum();
    // Which threads searched each position at each depth: the first of them (the main
    // thread if it did), and whether each thread has visited it yet.
    let mut owner: FxHashMap<(u64, i16), usize> = FxHashMap::default();
    for (i, t) in parallel.iter().enumerate() {
        for v in &t.visits {
            owner.entry((v.key, v.depth)).or_insert(i);
        }
    }
    let mut by_thread = vec![0; parallel.len()];
    let mut cross_by_thread = vec![0; parallel.len()];
    let mut abandoned = 0;
    let mut by_iteration = vec![Vec::new(); parallel.len()];
    let mut visited: fxhash::FxHashSet<(u64, i16)> = Default::default();
    for (i, t) in parallel.iter().enumerate() {
        visited.clear();
        for v in &t.visits {
            let k = (v.key, v.depth);
            let row = rows.entry(v.depth).or_default();
            row.parallel += 1;
            by_thread[i] += 1;
            let it: &mut Vec<u64> = &mut by_iteration[i];
            let n = usize::from(v.iteration);
            if it.len() <= n {
                it.resize(n + 1, 0);
            }
            it[n] += 1;
            if i > 0 && t.completed & 1u64.checked_shl(v.iteration.into()).unwrap_or(0) == 0 {
                abandoned += 1;
            }
            if !visited.insert(k) {
                row.same += 1;
            } else if owner[&k] != i {
                row.cross += 1;
                cross_by_thread[i] += 1;
                if v.kind & kind::FIRST != 0 {
                    row.cross_first += 1;
                }
                if v.kind & kind::DEFERRED != 0 {
                    row.cross_deferred += 1;
                }
            } else if seen.contains_key(&k) {
                row.common += 1;
            } else {
                row.new += 1;
            }
        }
    }
    let mut rows: Vec<DepthRow> = rows
        .into_iter()
        .map(|(depth, r)| DepthRow { depth, ..r })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.depth));
    Overhead {
        rows,
        serial_same,
        by_thread,
        cross_by_thread,
        abandoned,
        by_iteration,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(key: u64, depth: i16, kind: u8) -> Visit {
        Visit {
            key,
            depth,
            ply: 0,
            iteration: 1,
            kind,
        }
    }

    #[test]
    fn visits_split_into_common_new_same_and_cross() {
        let serial = [ThreadTrace {
            visits: vec![v(1, 2, 0), v(2, 1, 0), v(2, 1, 0), v(3, 1, 0)],
            completed: 2,
        }];
        let parallel = [
            ThreadTrace {
                visits: vec![v(1, 2, 0), v(2, 1, 0), v(9, 1, 0)],
                completed: 2,
            },
            ThreadTrace {
                visits: vec![v(1, 2, kind::FIRST), v(3, 1, 0), v(3, 1, 0), v(2, 1, 0)],
                completed: 0,
            },
        ];
        let o = compare(&serial, &parallel);
        assert_eq!(o.serial_same, 1);
        assert_eq!(o.by_thread, [3, 4]);
        assert_eq!(o.cross_by_thread, [0, 2]);
        assert_eq!(o.abandoned, 4);
        let d2 = o.rows[0];
        assert_eq!((d2.depth, d2.serial, d2.parallel), (2, 1, 2));
        assert_eq!((d2.common, d2.cross, d2.cross_first), (1, 1, 1));
        let d1 = o.rows[1];
        assert_eq!((d1.depth, d1.serial, d1.parallel), (1, 3, 5));
        assert_eq!((d1.common, d1.new, d1.same, d1.cross), (2, 1, 1, 1));
        let mut sum = o.clone();
        sum.add(&o);
        assert_eq!(sum.total().parallel, 14);
        assert_eq!(sum.by_thread, [6, 8]);
    }
}
