//! Move-ordering memory: killer moves per ply (one thread's) and the history heuristic
//! (one table that every thread of an engine reads and writes).
//!
//! Moves are generic, so history is indexed by a hash of the move (and the mover): two
//! moves sharing a slot only share an ordering hint, which never changes a search value.
//!
//! The threads share the history table: what one thread learns orders the others' moves
//! too (with a table per thread, a thread searching part of the tree ordered its moves by
//! what it alone had seen, and the main thread forgot what the others learnt). Its entries
//! are read and written with relaxed atomic loads and stores, plain moves on the
//! processor: two threads nudging one entry at once may lose one nudge, which only changes
//! an ordering hint. One thread updates it exactly as a table of its own.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::sync::Arc;

use crate::game::{Player, MAX_PLAYERS};
use crate::score::MAX_PLY;

const SLOTS: usize = 4096;
/// History values stay within ±`MAX_HISTORY` (the "gravity" update keeps them there).
pub(crate) const MAX_HISTORY: i32 = 1 << 20;

/// The history table of an engine, shared by its threads.
pub(crate) struct History(Box<[AtomicI32]>);

impl History {
    pub fn new() -> Arc<Self> {
        Arc::new(History(
            (0..MAX_PLAYERS * SLOTS)
                .map(|_| AtomicI32::new(0))
                .collect(),
        ))
    }

    /// Between two searches of one game: what the last search learnt carries over, fading
    /// (the values are halved: the next move's search keeps the order of the last one, and
    /// learns its own on top).
    pub fn age(&self) {
        for h in self.0.iter() {
            h.store(h.load(Relaxed) / 2, Relaxed);
        }
    }

    /// Forgets everything (a new game, or [`crate::Search::reset`]).
    pub fn clear(&self) {
        for h in self.0.iter() {
            h.store(0, Relaxed);
        }
    }
}

/// Killers of one search thread, and the engine's history.
#[derive(Clone)]
pub(crate) struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Arc<History>,
}

#[inline]
fn slot<M: Hash>(player: Player, mv: &M) -> usize {
    let mut h = fxhash::FxHasher64::default();
    mv.hash(&mut h);
    let h = h.finish();
    (player % MAX_PLAYERS) * SLOTS + ((h ^ (h >> 29)) as usize & (SLOTS - 1))
}

impl<M: Copy + Eq + Hash> Heuristics<M> {
    /// Killers of a new thread, with the engine's `history`.
    pub fn new(history: &Arc<History>) -> Self {
        Heuristics {
            killers: vec![[None, None]; MAX_PLY + 2],
            history: Arc::clone(history),
        }
    }

    /// Forgets the killers (at each search: they are by ply from the root, and the root
    /// moved; a new game or [`crate::Search::reset`] clears the history too, through
    /// [`History::clear`]).
    pub fn forget_killers(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }

    /// Takes the killers of `other` (a task of a split node starts with its node's).
    pub fn copy_killers(&mut self, other: &Self) {
        self.killers.clone_from(&other.killers);
    }

    /// 1 or 2 if `mv` is the first or second killer of `ply`, else 0.
    #[inline]
    pub fn killer_rank(&self, ply: usize, mv: &M) -> u8 {
        let k = &self.killers[ply];
        // Without branches (see the move keys in the search): the two killers are
        // different moves, so at most one test holds.
        2 * (k[0].as_ref() == Some(mv)) as u8 + (k[1].as_ref() == Some(mv)) as u8
    }

    /// The killers of `ply`, first then second.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers[ply]
    }

    #[inline]
    pub fn history(&self, player: Player, mv: &M) -> i32 {
        self.history.0[slot(player, mv)].load(Relaxed)
    }

    fn nudge(&self, player: Player, mv: &M, bonus: i32) {
        let h = &self.history.0[slot(player, mv)];
        let v = h.load(Relaxed);
        h.store(
            v + bonus - (v as i64 * bonus.abs() as i64 / MAX_HISTORY as i64) as i32,
            Relaxed,
        );
    }

    /// `good` caused a cutoff at `ply` after `bad` failed to.
    pub fn cutoff(&mut self, ply: usize, depth: i32, player: Player, good: M, bad: &[(Player, M)]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(good) {
            k[1] = k[0];
            k[0] = Some(good);
        }
        let bonus = (depth * depth).min(MAX_HISTORY / 4);
        self.nudge(player, &good, bonus);
        for (p, m) in bad {
            self.nudge(*p, m, -bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_and_history_follow_cutoffs() {
        let table = History::new();
        let mut h = Heuristics::<u32>::new(&table);
        h.cutoff(3, 4, 0, 7, &[(0, 9)]);
        assert_eq!(h.killer_rank(3, &7), 2);
        h.cutoff(3, 4, 0, 8, &[]);
        assert_eq!((h.killer_rank(3, &8), h.killer_rank(3, &7)), (2, 1));
        assert!(h.history(0, &7) > 0 && h.history(0, &9) < 0);
        for _ in 0..10_000 {
            h.cutoff(1, 100, 1, 5, &[]);
        }
        assert!(h.history(1, &5) <= MAX_HISTORY);
        let kept = h.history(0, &7);
        h.forget_killers();
        table.age();
        assert_eq!(h.killer_rank(3, &8), 0);
        assert_eq!(h.history(0, &7), kept / 2);
        // Another thread's heuristics share the history, not the killers.
        let mut other = Heuristics::<u32>::new(&table);
        assert_eq!(other.history(0, &7), kept / 2);
        other.cutoff(3, 4, 0, 9, &[]);
        assert_eq!(
            (
                h.killer_rank(3, &9),
                h.history(0, &9),
                other.killer_rank(3, &9)
            ),
            (0, other.history(0, &9), 2)
        );
        table.clear();
        assert_eq!(h.history(0, &7), 0);
    }
}
