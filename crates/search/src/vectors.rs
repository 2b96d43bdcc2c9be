//! Max^n's transposition table: a position's score vector (one score per player) at the
//! depth it was searched to, shared by the threads without a lock.
//!
//! It lives in the memory of a [`Table`] (the same allocation, huge pages and refusal of a
//! size the memory cannot hold), each 64-byte bucket laid out as two slots of three words:
//! `check = key ^ a ^ b`, `a` (the scores of players 0 and 1) and `b` (player 2's score,
//! the depth, the age, the move and a bit that marks the slot used). A reader trusts a slot
//! only if its three words agree with the key, so a torn slot (words of two writes) or
//! another position's slot is refused, as in [`Table`].
//!
//! Only exact vectors are stored (a node whose search shallow pruning cut short bounds its
//! vector, and is not stored), and an entry serves only a search of its own depth: at a
//! fixed depth the values are those without the table. Scores beyond the evaluation's
//! range (wins and losses) are stored relative to the node, like [`Table`]'s.

use std::collections::TryReserveError;
use std::sync::atomic::Ordering::Relaxed;

use crate::game::Scores;
use crate::score::{from_tt, to_tt};
use crate::tt::Table;

/// The bit of word `b` that marks a used slot.
const USED: u64 = 1 << 47;
/// Slots per bucket (three words each, of the bucket's eight).
const SLOTS: usize = 2;

/// One decoded slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    scores: Scores,
    depth: u8,
    age: u8,
    mv: u16,
}

impl Slot {
    fn pack(self) -> (u64, u64) {
        let a = self.scores[0] as u32 as u64 | (self.scores[1] as u32 as u64) << 32;
        let b = self.scores[2] as u32 as u64
            | (self.depth as u64) << 32
            | ((self.age & 63) as u64) << 40
            | USED
            | (self.mv as u64) << 48;
        (a, b)
    }

    fn unpack(a: u64, b: u64) -> Option<Slot> {
        (b & USED != 0).then_some(Slot {
            scores: [a as u32 as i32, (a >> 32) as u32 as i32, b as u32 as i32],
            depth: (b >> 32) as u8,
            age: ((b >> 40) & 63) as u8,
            mv: (b >> 48) as u16,
        })
    }
}

/// The table of score vectors.
pub(crate) struct VectorTable {
    table: Table,
}

impl VectorTable {
    /// A table of about `mib` MiB, or the allocator's error.
    pub fn try_new(mib: usize) -> Result<VectorTable, TryReserveError> {
        Ok(VectorTable {
            table: Table::try_new(mib)?,
        })
    }

    /// The size this table was made for.
    pub fn mib(&self) -> usize {
        self.table.mib()
    }

    /// Empties every slot.
    pub fn clear(&self) {
        self.table.clear();
    }

    /// The slots of `key`'s bucket: their words, read, with the slot if its words agree with
    /// `key` (`None` for an empty slot or another position's).
    #[inline]
    fn slots(&self, key: u64) -> [(usize, Option<Slot>, bool); SLOTS] {
        let w = self.table.words(key);
        std::array::from_fn(|i| {
            let at = 3 * i;
            let (a, b) = (w[at + 1].load(Relaxed), w[at + 2].load(Relaxed));
            let check = w[at].load(Relaxed);
            let slot = Slot::unpack(a, b);
            let mine = slot.is_some() && check ^ a ^ b == key;
            (at, slot, mine)
        })
    }

    /// The slot of `key` searched to exactly `depth`, if it is stored.
    #[inline]
    fn find(&self, key: u64, depth: u32) -> Option<Slot> {
        self.slots(key)
            .into_iter()
            .find_map(|(_, slot, mine)| slot.filter(|s| mine && s.depth as u32 == depth))
    }

    /// The vector of `key` searched to exactly `depth`, seen from `ply`, if it is stored.
    #[inline]
    pub fn probe(&self, key: u64, depth: u32, ply: usize) -> Option<Scores> {
        self.find(key, depth)
            .map(|s| s.scores.map(|v| from_tt(v, ply)))
    }

    /// The index of the best move (in legal-move order) of `key`'s vector of exactly `depth`,
    /// if it is stored.
    pub fn best_move(&self, key: u64, depth: u32) -> Option<u16> {
        self.find(key, depth)
            .map(|s| s.mv)
            .filter(|&mv| mv != u16::MAX)
    }

    /// Stores the exact vector `scores` of `key` searched to `depth` at `ply` (its best
    /// move's index `mv`): over the slot of the same position and depth, else an empty one,
    /// else one of an older search, else the shallower.
    #[inline]
    pub fn store(&self, key: u64, scores: Scores, depth: u32, ply: usize, mv: u16, age: u8) {
        let new = Slot {
            scores: scores.map(|v| to_tt(v, ply)),
            depth: depth.min(u8::MAX as u32) as u8,
            age: age & 63,
            mv,
        };
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (at, slot, mine) in self.slots(key) {
            let value = match slot {
                Some(s) if mine && s.depth == new.depth => -2000,
                None => -1000,
                Some(s) => s.depth as i32 + if s.age == new.age { 256 } else { 0 },
            };
            if value < worst {
                worst = value;
                victim = at;
            }
        }
        let (a, b) = new.pack();
        let w = self.table.words(key);
        w[victim + 1].store(a, Relaxed);
        w[victim + 2].store(b, Relaxed);
        w[victim].store(key ^ a ^ b, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::MATE;

    #[test]
    fn slots_pack_and_unpack() {
        for scores in [
            [0, 0, 0],
            [-5, 17, i32::MIN + 1],
            [MATE - 3, -(MATE - 3), 12],
        ] {
            for (depth, age, mv) in [(1, 0, 0), (255, 63, u16::MAX), (7, 9, 300)] {
                let s = Slot {
                    scores,
                    depth,
                    age,
                    mv,
                };
                let (a, b) = s.pack();
                assert_eq!(Slot::unpack(a, b), Some(s));
            }
        }
        assert_eq!(Slot::unpack(0, 0), None);
    }

    #[test]
    fn a_vector_serves_its_own_depth_and_its_own_position() {
        let t = VectorTable::try_new(1).expect("a small table");
        let key = 0x0123_4567_89AB_CDEF;
        assert_eq!(t.probe(key, 3, 2), None);
        t.store(key, [10, -20, 30], 3, 2, 4, 1);
        assert_eq!(t.probe(key, 3, 2), Some([10, -20, 30]));
        assert_eq!(t.best_move(key, 3), Some(4));
        // Another depth, another position (same bucket or not): nothing.
        assert_eq!(t.probe(key, 4, 2), None);
        assert_eq!(t.probe(key ^ 1 << 63, 3, 2), None);
        // A second depth of the position takes the other slot; a third replaces one of
        // them, and a newer vector of one depth replaces its own.
        t.store(key, [1, 2, 3], 5, 2, 0, 1);
        assert_eq!(t.probe(key, 3, 2), Some([10, -20, 30]));
        assert_eq!(t.probe(key, 5, 2), Some([1, 2, 3]));
        t.store(key, [4, 5, 6], 5, 2, 0, 1);
        assert_eq!(t.probe(key, 5, 2), Some([4, 5, 6]));
        t.clear();
        assert_eq!(t.probe(key, 5, 2), None);
    }

    #[test]
    fn wins_are_stored_relative_to_the_node() {
        let t = VectorTable::try_new(1).expect("a small table");
        // A win 9 plies from the root found at ply 5: a win in 4 from the node, which seen
        // from ply 2 is a win 6 plies from that root.
        t.store(7, [MATE - 9, -(MATE - 9), 0], 4, 5, 0, 0);
        assert_eq!(t.probe(7, 4, 5), Some([MATE - 9, -(MATE - 9), 0]));
        assert_eq!(t.probe(7, 4, 2), Some([MATE - 6, -(MATE - 6), 0]));
    }

    #[test]
    fn a_torn_slot_is_refused() {
        let t = VectorTable::try_new(1).expect("a small table");
        let key = 99;
        t.store(key, [1, 2, 3], 2, 0, 0, 0);
        // Another write's score word without its check: the words disagree with the key.
        let w = t.table.words(key);
        w[1].store(
            Slot::pack(Slot {
                scores: [7, 8, 9],
                depth: 2,
                age: 0,
                mv: 0,
            })
            .0,
            Relaxed,
        );
        assert_eq!(t.probe(key, 2, 0), None);
    }
}
