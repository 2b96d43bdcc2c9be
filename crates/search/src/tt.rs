//! The shared, lock-free transposition table.
//!
//! Each entry is two `AtomicU64`: `check = key ^ data` and `data`. A reader loads both and
//! trusts the entry only if `check ^ data == key`; a torn entry (halves from two different
//! writes) or an entry of another position fails this test except with probability about
//! 2⁻⁶⁴, so no lock is needed and threads never see another key's entry.
//!
//! `data` packs: score (32 bits, node-relative, see `score::to_tt`), depth (8), move index
//! in the position's legal-move list (16, split in two bytes: bits 40–47 and 56–63;
//! `NO_MOVE` for none), bound (2, 0 = empty slot) and age (6). Entries live in 64-byte buckets of four; replacement keeps deep and current
//! entries and may hold several depths of one position (the search only cuts off on the
//! exact remaining depth, so both a shallow and a deep entry of one position are useful).

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// "No move" in a table entry.
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// What kind of value an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value is at most the score (failed low).
    Upper = 1,
    /// The value is at least the score (failed high).
    Lower = 2,
    /// The value is the score.
    Exact = 3,
}

/// One decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Data {
    pub score: i32,
    pub depth: u8,
    pub mv: u16,
    pub bound: Bound,
    pub age: u8,
}

impl Data {
    fn pack(self) -> u64 {
        (self.score as u32 as u64)
            | (self.depth as u64) << 32
            | (self.mv as u8 as u64) << 40
            | (self.bound as u64) << 48
            | ((self.age & 63) as u64) << 50
            | ((self.mv >> 8) as u64) << 56
    }

    fn unpack(d: u64) -> Option<Data> {
        let bound = match (d >> 48) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Data {
            score: d as u32 as i32,
            depth: (d >> 32) as u8,
            mv: (d >> 40) as u8 as u16 | ((d >> 56) as u16) << 8,
            bound,
            age: ((d >> 50) & 63) as u8,
        })
    }
}

/// One slot: see the module documentation.
#[derive(Default)]
pub(crate) struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// Number of entries per bucket.
pub(crate) const WAYS: usize = 4;

/// Four entries on one cache line.
#[derive(Default)]
#[repr(align(64))]
pub(crate) struct Bucket {
    entries: [Entry; WAYS],
}

/// Asks the processor to load the cache line holding `word` without waiting for it: a hint
/// with no effect on the program's behaviour. Unlike a load it does not hold up the
/// instructions after it until the memory answers, so the cache misses of many lines overlap
/// with the work between (table buckets: Jumpy3 depth 24 with a 64 MiB table, see the commit
/// that added it; the busy slots of the parallel search likewise).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline]
pub(crate) fn prefetch(word: &AtomicU64) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has, and never
    // dereferences its argument (a prefetch of any address cannot fault); the pointer comes
    // from a reference, so it is valid anyway.
    unsafe { _mm_prefetch::<_MM_HINT_T0>((word as *const AtomicU64).cast::<i8>()) }
}

/// Elsewhere: a plain load of the word, which brings its line into the cache.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(crate) fn prefetch(word: &AtomicU64) {
    std::hint::black_box(word.load(Relaxed));
}

/// Asks Linux to back the `bytes` bytes at `ptr` (an allocation not yet written) with
/// transparent huge pages where it can: probes of a table of many MiB land on random pages,
/// and with 4 KiB pages nearly every probe also misses the TLB (Jumpy3 depth 24 with a
/// 64 MiB table: see the commit that added this). Only a hint: where huge pages are off or
/// unavailable nothing changes.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(ptr: *const Bucket, bytes: usize) {
    const HUGE: usize = 2 << 20;
    let start = (ptr as usize).next_multiple_of(HUGE);
    let end = (ptr as usize).saturating_add(bytes) / HUGE * HUGE;
    if end > start {
        // SAFETY: `madvise` reads no memory and changes neither the contents nor the validity
        // of any: MADV_HUGEPAGE only tells the kernel how to back the range with pages. The
        // range [start, end) is page-aligned (2 MiB-aligned) and lies inside the allocation
        // `ptr` points to, which this process owns. Its result (an error if the kernel has
        // no transparent huge pages) is deliberately ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// Elsewhere: nothing to ask.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *const Bucket, _: usize) {}

/// `n` empty buckets in memory that the allocator hands out already zeroed.
///
/// A large zeroed allocation is fresh pages from the system, which the kernel zeroes when
/// each is first touched: the table costs nothing until the search writes to it. Written
/// bucket by bucket instead, a 64 MiB table took 116 ms on the first search of a new engine
/// (the page faults of the whole table at once), which a move time of 50 ms then spent
/// entirely on the allocation, searching nothing (see the commit that added this).
#[allow(unsafe_code)]
fn zeroed_buckets(n: usize) -> Result<Vec<Bucket>, TryReserveError> {
    let Ok(layout) = std::alloc::Layout::array::<Bucket>(n) else {
        // Beyond the address space: the error a reservation gives.
        return Vec::<Bucket>::new()
            .try_reserve_exact(n)
            .map(|()| Vec::new());
    };
    // SAFETY: the layout's size is at least one bucket (`n ≥ 1`), as `alloc_zeroed` needs.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
    if ptr.is_null() {
        // The memory is not there: the reservation's error (or, should it succeed after
        // all, the table built bucket by bucket).
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n)?;
        buckets.resize_with(n, Bucket::default);
        return Ok(buckets);
    }
    // Before the first write, so that the kernel backs the table with huge pages.
    advise_huge_pages(ptr, layout.size());
    // SAFETY: `ptr` comes from the global allocator with the layout of `n` buckets, which
    // is the layout of a `Vec<Bucket>` of capacity `n`; all its bytes are zero, and zero
    // bytes are a valid `Bucket` (atomic integers have the representation of integers; a
    // zero entry is an empty slot, as `Bucket::default()` makes it); its `n` items are
    // therefore initialised, and the `Vec` owns the allocation from here on.
    Ok(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// The table.
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    mib: usize,
}

impl Table {
    /// A table of about `mib` MiB (at least one bucket), or the allocator's error when the
    /// memory cannot be had (a size beyond the address space, or more than the system will
    /// give): an error to report, where an infallible allocation would abort the process.
    pub fn try_new(mib: usize) -> Result<Table, TryReserveError> {
        let n = (mib.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = zeroed_buckets(n)?;
        Ok(Table { buckets, mib })
    }

    /// A table of about `mib` MiB, for tests of small tables.
    #[cfg(test)]
    pub fn new(mib: usize) -> Table {
        Self::try_new(mib).expect("a small table")
    }

    /// The size this table was made for.
    pub fn mib(&self) -> usize {
        self.mib
    }

    /// Number of entries.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.entries {
                e.data.store(0, Relaxed);
                e.check.store(0, Relaxed);
            }
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    #[inline]
    fn read(e: &Entry) -> (u64, u64) {
        let data = e.data.load(Relaxed);
        let check = e.check.load(Relaxed);
        (check, data)
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe soon after finds it
    /// there.
    #[inline]
    pub fn touch(&self, key: u64) {
        prefetch(&self.bucket(key).entries[0].check);
    }

    /// The eight words of `key`'s bucket, for a table that lays its entries out its own way
    /// in the same memory ([`crate::vectors`]: max^n's score vectors).
    #[inline]
    pub fn words(&self, key: u64) -> [&AtomicU64; 2 * WAYS] {
        let e = &self.bucket(key).entries;
        [
            &e[0].check,
            &e[0].data,
            &e[1].check,
            &e[1].data,
            &e[2].check,
            &e[2].data,
            &e[3].check,
            &e[3].data,
        ]
    }

    /// The entries stored for `key` (verified by the key check), read one by one: the
    /// search's loops stop at the first entry they can use.
    #[inline]
    pub fn entries(&self, key: u64) -> impl Iterator<Item = Data> + '_ {
        self.bucket(key).entries.iter().filter_map(move |e| {
            let (check, data) = Self::read(e);
            if check ^ data == key {
                Data::unpack(data)
            } else {
                None
            }
        })
    }

    /// Stores `new` for `key`: over an entry of the same key and depth, else the least
    /// valuable slot (empty, then a shallower entry of the same key, then old-age, then
    /// shallow entries). A new entry without a move keeps the move of the one it replaces.
    #[inline]
    pub fn store(&self, key: u64, mut new: Data) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        let mut victim_data = None;
        for (i, e) in bucket.entries.iter().enumerate() {
            let (check, data) = Self::read(e);
            let decoded = Data::unpack(data);
            let value = match decoded {
                None => -2000,
                Some(d) if check ^ data == key => {
                    if d.depth == new.depth {
                        victim = i;
                        victim_data = decoded;
                        break;
                    } else if d.depth < new.depth {
                        -1000 + d.depth as i32
                    } else {
                        d.depth as i32 + 512
                    }
                }
                Some(d) => d.depth as i32 + if d.age == new.age & 63 { 256 } else { 0 },
            };
            if value < victim_value {
                victim_value = value;
                victim = i;
                victim_data = decoded.filter(|_| check ^ data == key);
            }
        }
        if new.mv == NO_MOVE {
            if let Some(old) = victim_data {
                new.mv = old.mv;
            }
        }
        let data = new.pack();
        let e = &bucket.entries[victim];
        e.data.store(data, Relaxed);
        e.check.store(key ^ data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Table {
        /// Every entry stored for `key`, collected.
        fn probe(&self, key: u64) -> Vec<Data> {
            self.entries(key).collect()
        }
    }
    use std::sync::atomic::AtomicBool;

    #[test]
    fn entry_is_16_bytes_and_a_bucket_one_cache_line() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        let t = Table::new(1);
        assert_eq!(t.capacity(), (1 << 20) / 16);
    }

    #[test]
    fn a_table_beyond_memory_is_an_error_not_an_abort() {
        // More than any address space: the allocator refuses before touching memory.
        assert!(Table::try_new(usize::MAX).is_err());
        assert!(Table::try_new(usize::MAX >> 20).is_err());
        assert_eq!(Table::try_new(1).map(|t| t.mib()), Ok(1));
    }

    #[test]
    fn data_packs_and_unpacks() {
        for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
            // Moves past 255 keep their index (a position may have hundreds of moves).
            for mv in [0, 17, 255, 256, 300, 65_000, NO_MOVE] {
                let d = Data {
                    score: -987_654,
                    depth: 200,
                    mv,
                    bound,
                    age: 63,
                };
                assert_eq!(Data::unpack(d.pack()), Some(d));
            }
        }
        assert_eq!(Data::unpack(0), None);
    }

    #[test]
    fn store_probe_and_replacement() {
        let t = Table::new(0); // one bucket: everything collides
        let d = |depth: u8, mv: u16| Data {
            score: depth as i32 * 10,
            depth,
            mv,
            bound: Bound::Exact,
            age: 1,
        };
        assert!(t.probe(42).is_empty());
        t.store(42, d(3, 1));
        assert_eq!(t.probe(42).as_slice(), &[d(3, 1)]);
        // A key of zero does not match an empty slot.
        assert!(t.probe(0).is_empty());
        // Another depth of the same key is kept beside the first.
        t.store(42, d(5, 2));
        assert_eq!(t.probe(42).len(), 2);
        // Same key and depth overwrites; no move keeps the old move.
        t.store(42, d(5, NO_MOVE));
        let p = t.probe(42);
        assert_eq!(p.len(), 2);
        assert!(p.contains(&d(5, 2)));
        // Filling the bucket with other keys evicts the shallowest entries first.
        for k in 100..110u64 {
            t.store(k, d(1, 0));
        }
        assert!(t.probe(42).contains(&d(5, 2)));
        t.clear();
        assert!(t.probe(42).is_empty());
    }

    /// Writers store entries whose data is a function of the key; readers check that every
    /// entry they are given belongs to the key they asked for.
    #[test]
    fn concurrent_writers_and_readers_never_see_a_foreign_entry() {
        fn data_for(key: u64, round: u64) -> Data {
            let h = crate::synthetic::mix(key);
            Data {
                score: (h as i32) >> 8,
                depth: (round % 100) as u8,
                mv: (h >> 40) as u16 % 2000,
                bound: Bound::Exact,
                age: (h >> 50) as u8 & 63,
            }
        }
        fn valid(key: u64, d: &Data) -> bool {
            let want = data_for(key, d.depth as u64);
            d.score == want.score && d.mv == want.mv && d.age == want.age
        }
        let t = Table::new(0); // 1 bucket, 4 slots: maximal contention
        let done = AtomicBool::new(false);
        let bad = AtomicU64::new(0);
        let seen = AtomicU64::new(0);
        std::thread::scope(|s| {
            for w in 0..2u64 {
                let t = &t;
                let done = &done;
                s.spawn(move || {
                    let mut round = 0;
                    while !done.load(Relaxed) {
                        for k in 0..16u64 {
                            let key = crate::synthetic::mix(k * 2 + w);
                            t.store(key, data_for(key, round));
                        }
                        round += 1;
                    }
                });
            }
            let readers: Vec<_> = (0..2)
                .map(|_| {
                    let (t, bad, seen) = (&t, &bad, &seen);
                    s.spawn(move || {
                        for _ in 0..200_000 {
                            for k in 0..32u64 {
                                let key = crate::synthetic::mix(k);
                                for d in t.probe(key) {
                                    seen.fetch_add(1, Relaxed);
                                    if !valid(key, &d) {
                                        bad.fetch_add(1, Relaxed);
                                    }
                                }
                            }
                        }
                    })
                })
                .collect();
            // Readers finish on their own; then stop the writers.
            for r in readers {
                r.join().unwrap();
            }
            done.store(true, Relaxed);
        });
        assert_eq!(bad.load(Relaxed), 0);
        assert!(seen.load(Relaxed) >= 1000);
    }
}
