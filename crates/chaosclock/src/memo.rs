//! The solver's table of proved facts: a lock-free open-addressing hash table from a state's
//! [`code`](crate::Position::code) to a few bits of facts, shared by the solver's threads.
//!
//! Lookups are plain atomic loads, so that a search can look up all successors of a state
//! in a tight loop and their cache misses overlap. The table does not grow while searches run: when
//! it is [`full`](Memo::full) the solver stops its searches, [`grows`](Memo::grown) it and
//! starts them again (every fact found so far is kept, so little work is repeated).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

const OCCUPIED: u64 = 1 << 63;
/// Bits of facts per state.
const BITS: u32 = 6;
const FACTS: u64 = (1 << BITS) - 1;

#[inline]
fn mix(code: u64) -> u64 {
    // The finaliser of MurmurHash3: every bit of the code reaches every bit of the hash.
    let mut h = code ^ (code >> 33);
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// Proved facts by state code: 6 bits per state (codes must be below 2^56), in words
/// `OCCUPIED | code << 6 | facts`.
pub(crate) struct Memo {
    slots: Box<[AtomicU64]>,
    len: AtomicUsize,
    full: AtomicBool,
}

impl Memo {
    /// A table of `1 << log2` slots.
    pub(crate) fn new(log2: u32) -> Self {
        Memo {
            slots: (0..1usize << log2).map(|_| AtomicU64::new(0)).collect(),
            len: AtomicUsize::new(0),
            full: AtomicBool::new(false),
        }
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The facts stored for `code` (0: none).
    #[inline]
    pub(crate) fn get(&self, code: u64) -> u8 {
        let mut i = mix(code) as usize & self.mask();
        loop {
            let s = self.slots[i].load(Ordering::Relaxed);
            if s == 0 {
                return 0;
            }
            if (s & !OCCUPIED) >> BITS == code {
                return (s & FACTS) as u8;
            }
            i = (i + 1) & self.mask();
        }
    }

    /// The word in the first slot where `code` would be: a load with no branch, so that
    /// a loop of them keeps many cache misses in flight. [`get_from`](Self::get_from) then
    /// finishes the lookup.
    #[inline]
    pub(crate) fn first_word(&self, code: u64) -> u64 {
        self.slots[mix(code) as usize & self.mask()].load(Ordering::Relaxed)
    }

    /// [`get`](Self::get), given the [`first_word`](Self::first_word) of `code`.
    #[inline]
    pub(crate) fn get_from(&self, code: u64, first: u64) -> u8 {
        if first == 0 {
            0
        } else if (first & !OCCUPIED) >> BITS == code {
            (first & FACTS) as u8
        } else {
            self.get(code)
        }
    }

    /// Adds `facts` to those of `code`. Facts are exact, so they never contradict.
    #[inline]
    pub(crate) fn add(&self, code: u64, facts: u8) {
        debug_assert!(code < 1 << (63 - BITS) && (facts as u64) <= FACTS);
        let word = OCCUPIED | code << BITS | facts as u64;
        let mut i = mix(code) as usize & self.mask();
        loop {
            let mut s = self.slots[i].load(Ordering::Relaxed);
            if s == 0 {
                match self.slots[i].compare_exchange(0, word, Ordering::Relaxed, Ordering::Relaxed)
                {
                    Ok(_) => {
                        let len = self.len.fetch_add(1, Ordering::Relaxed) + 1;
                        if len * 10 > self.slots.len() * 7 {
                            self.full.store(true, Ordering::Relaxed);
                        }
                        return;
                    }
                    Err(now) => s = now,
                }
            }
            if (s & !OCCUPIED) >> BITS == code {
                self.slots[i].fetch_or(facts as u64, Ordering::Relaxed);
                return;
            }
            i = (i + 1) & self.mask();
        }
    }

    /// Whether the table is 70% full: searches should stop so that it can grow.
    #[inline]
    pub(crate) fn full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// A table twice as big with the same facts.
    pub(crate) fn grown(&self) -> Memo {
        let log2 = self.slots.len().trailing_zeros() + 1;
        let bigger = Memo::new(log2);
        for s in self.slots.iter() {
            let s = s.load(Ordering::Relaxed);
            if s != 0 {
                bigger.add((s & !OCCUPIED) >> BITS, (s & FACTS) as u8);
            }
        }
        bigger
    }

    /// Number of states with stored facts.
    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// Bytes held by the table.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * 8
    }
}
