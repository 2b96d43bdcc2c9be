//! Move-ordering memory of one thread: killer moves per ply and the history heuristic.
//!
//! Moves are generic, so history is indexed by a hash of the move (and the mover): two
//! moves sharing a slot only share an ordering hint, which never changes a search value.

use std::hash::{Hash, Hasher};

use crate::game::{Player, MAX_PLAYERS};
use crate::score::MAX_PLY;

const SLOTS: usize = 4096;
/// History values stay within ±`MAX_HISTORY` (the "gravity" update keeps them there).
pub(crate) const MAX_HISTORY: i32 = 1 << 20;

/// Killers and history of one search thread.
pub(crate) struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

#[inline]
fn slot<M: Hash>(player: Player, mv: &M) -> usize {
    let mut h = fxhash::FxHasher64::default();
    mv.hash(&mut h);
    let h = h.finish();
    (player % MAX_PLAYERS) * SLOTS + ((h ^ (h >> 29)) as usize & (SLOTS - 1))
}

impl<M: Copy + Eq + Hash> Heuristics<M> {
    pub fn new() -> Self {
        Heuristics {
            killers: vec![[None, None]; MAX_PLY + 2],
            history: vec![0; MAX_PLAYERS * SLOTS],
        }
    }

    /// Between two searches of one game: what the last search learnt carries over, fading.
    /// History values are halved (the next move's search keeps the order of the last one,
    /// and learns its own on top); killers are forgotten (they are by ply from the root, and
    /// the root moved).
    pub fn age(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    /// Forgets everything (a new game, or [`crate::Search::reset`]: one thread's runs from
    /// there are reproducible).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history.iter_mut().for_each(|h| *h = 0);
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
        self.history[slot(player, mv)]
    }

    fn nudge(&mut self, player: Player, mv: &M, bonus: i32) {
        let h = &mut self.history[slot(player, mv)];
        *h += bonus - (*h as i64 * bonus.abs() as i64 / MAX_HISTORY as i64) as i32;
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
        let mut h = Heuristics::<u32>::new();
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
        h.age();
        assert_eq!(h.killer_rank(3, &8), 0);
        assert_eq!(h.history(0, &7), kept / 2);
        h.clear();
        assert_eq!((h.killer_rank(3, &8), h.history(0, &7)), (0, 0));
    }
}
