//! The table of positions some thread is searching right now (ABDADA's "busy" flag, Weill
//! 1996), which the parallel search uses to spread its threads over the tree.
//!
//! An entry is a position *at a depth* (a position searched one ply deeper by another
//! thread is not the search this thread would wait for: its table entry could not serve) with
//! the number of threads searching it, so that the first thread to finish does not clear
//! a mark that others still hold. Buckets of eight ways on a cache line of their own hold
//! the entries; a thread that finds its bucket full does not announce (a position then only
//! looks free), and no announcement overwrites a live one. The table has a few dozen
//! buckets per thread: at any moment each thread holds one entry per ply of its path above
//! [`crate::alphabeta`]'s busy depth.
//!
//! The search looks up only those children that announce themselves: on the synthetic trees
//! of the parallel-speedup measurements the threads otherwise lost time to lines moving
//! between the cores.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::tt::prefetch;

/// Entries per bucket (one cache line).
const WAYS: usize = 8;
/// Buckets per search thread.
const BUCKETS_PER_THREAD: usize = 32;
/// The low bits of an entry: the number of threads searching it.
const COUNT: u64 = 0xFFFF;

/// Eight entries on a cache line of their own: a thread announcing a position then does not
/// take the line of another thread's unrelated position away from it.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([AtomicU64; WAYS]);

/// The positions that some thread is searching right now, by key and depth: entries
/// `tag | count` where the tag is the key's high bits mixed with the depth. A collision of
/// tags only makes a move look busy (and so searched later), never changes a value.
pub(crate) struct Busy {
    buckets: Vec<Bucket>,
}

/// The tag of `key` at `depth` (the high 48 bits of both, mixed).
#[inline]
fn tag(key: u64, depth: i32) -> u64 {
    (key ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) & !COUNT
}

impl Busy {
    /// A table for a search of `threads` threads, or an empty one (nothing is ever busy) for
    /// one thread.
    pub fn new(threads: usize) -> Self {
        let n = if threads > 1 {
            (threads * BUCKETS_PER_THREAD).next_power_of_two()
        } else {
            0
        };
        Busy {
            buckets: (0..n).map(|_| Bucket::default()).collect(),
        }
    }

    /// Whether threads announce positions (more than one thread).
    #[inline]
    pub fn enabled(&self) -> bool {
        !self.buckets.is_empty()
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // The low bits: the tag holds the high ones.
        &self.buckets[key as usize & (self.buckets.len() - 1)]
    }

    /// Starts loading the bucket of `key` into the cache (see [`prefetch`]).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.bucket(key).0[0]);
    }

    /// Whether a thread is searching `key` at `depth`.
    #[inline]
    pub fn is_busy(&self, key: u64, depth: i32) -> bool {
        let t = tag(key, depth);
        self.bucket(key).0.iter().any(|w| {
            let v = w.load(Relaxed);
            v & !COUNT == t && v & COUNT != 0
        })
    }

    /// Announces that this thread is searching `key` at `depth`: one more searcher of its
    /// entry, or a free way taken. `false` when the bucket is full (nothing announced: the
    /// caller must not withdraw).
    #[inline]
    pub fn announce(&self, key: u64, depth: i32) -> bool {
        let t = tag(key, depth);
        let ways = &self.bucket(key).0;
        // Joining an entry another thread holds, else taking a free way; a way that changes
        // under the compare-and-swap is read again.
        for _ in 0..4 {
            let mut free = None;
            for (i, w) in ways.iter().enumerate() {
                let v = w.load(Relaxed);
                if v & COUNT == 0 {
                    free = free.or(Some((i, v)));
                } else if v & !COUNT == t && v & COUNT < COUNT {
                    if w.compare_exchange(v, v + 1, Relaxed, Relaxed).is_ok() {
                        return true;
                    }
                    free = None;
                    break;
                }
            }
            match free {
                Some((i, v)) if ways[i].compare_exchange(v, t | 1, Relaxed, Relaxed).is_ok() => {
                    return true
                }
                Some(_) => {}
                None if ways.iter().all(|w| w.load(Relaxed) & COUNT != 0) => return false,
                None => {}
            }
        }
        false
    }

    /// Withdraws this thread's announcement of `key` at `depth` (one searcher fewer; the way
    /// is free when none is left).
    #[inline]
    pub fn withdraw(&self, key: u64, depth: i32) {
        let t = tag(key, depth);
        for w in &self.bucket(key).0 {
            let mut v = w.load(Relaxed);
            while v & !COUNT == t && v & COUNT != 0 {
                match w.compare_exchange(v, v - 1, Relaxed, Relaxed) {
                    Ok(_) => return,
                    Err(now) => v = now,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_count_their_searchers_by_depth() {
        let b = Busy::new(2);
        let key = 0xDEAD_BEEF_1234_5678;
        assert!(!b.is_busy(key, 5));
        assert!(b.announce(key, 5));
        assert!(b.is_busy(key, 5));
        // The same position one ply deeper is another search.
        assert!(!b.is_busy(key, 6));
        // Two threads on it: the first to finish leaves it busy.
        assert!(b.announce(key, 5));
        b.withdraw(key, 5);
        assert!(b.is_busy(key, 5));
        b.withdraw(key, 5);
        assert!(!b.is_busy(key, 5));
        // Withdrawing what is not there changes nothing.
        b.withdraw(key, 5);
        assert!(!b.is_busy(key, 5));
    }

    #[test]
    fn a_full_bucket_keeps_its_live_entries() {
        let b = Busy::new(2);
        let n = b.buckets.len() as u64;
        // Keys of one bucket (equal low bits), all announced.
        let keys: Vec<u64> = (1..=WAYS as u64 + 1).map(|i| i << 40 | n).collect();
        for &k in &keys[..WAYS] {
            assert!(b.announce(k, 4));
        }
        // The ninth finds no free way: not announced, and nobody else evicted.
        assert!(!b.announce(keys[WAYS], 4));
        assert!(!b.is_busy(keys[WAYS], 4));
        assert!(keys[..WAYS].iter().all(|&k| b.is_busy(k, 4)));
        // A way freed is taken again.
        b.withdraw(keys[0], 4);
        assert!(b.announce(keys[WAYS], 4));
        assert!(b.is_busy(keys[WAYS], 4));
    }

    #[test]
    fn one_thread_announces_nothing() {
        let b = Busy::new(1);
        assert!(!b.enabled());
        assert_eq!(Busy::new(16).buckets.len(), 512);
    }
}
