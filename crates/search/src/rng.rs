//! Small seeded generators with no dependencies, shared by the games and the arena so that
//! Zobrist keys, random players and openings repeat exactly on every platform.
//!
//! - [`splitmix64`]: the SplitMix64 output function, a `const fn` for building Zobrist tables
//!   at compile time and for scrambling seeds.
//! - [`XorShift64Star`]: the xorshift64* generator, for seeded random choices.
//!
//! ```
//! use plyforge_search::rng::{splitmix64, XorShift64Star};
//!
//! const KEYS: [u64; 2] = [splitmix64(1), splitmix64(2)];
//! assert_ne!(KEYS[0], KEYS[1]);
//!
//! let mut a = XorShift64Star::seeded(42);
//! let mut b = XorShift64Star::seeded(42);
//! assert_eq!(a.next_u64(), b.next_u64());
//! let die = a.below(6);
//! assert!(die < 6);
//! ```

/// The SplitMix64 increment (the golden ratio in 64-bit fixed point): consecutive SplitMix64
/// states differ by it.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The xorshift64* output multiplier; also the state used instead of a zero state.
const XORSHIFT_STAR_MUL: u64 = 0x2545_F491_4F6C_DD1D;

/// The SplitMix64 output for `state`: `state + GOLDEN_GAMMA`, mixed by two
/// multiply-xorshift rounds. A SplitMix64 sequence is `splitmix64(s)`,
/// `splitmix64(s + GOLDEN_GAMMA)`, `splitmix64(s + 2 * GOLDEN_GAMMA)`, … (wrapping).
///
/// ```
/// use plyforge_search::rng::splitmix64;
/// const FIRST: u64 = splitmix64(0);
/// assert_eq!(FIRST, 0xE220_A839_7B1D_CDAF);
/// ```
#[inline]
pub const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The xorshift64* generator: a 64-bit xorshift state, each output multiplied by
/// `0x2545_F491_4F6C_DD1D`. Fast and good enough for random players and openings; not for
/// cryptography.
///
/// ```
/// use plyforge_search::rng::XorShift64Star;
/// let mut rng = XorShift64Star::from_state(1);
/// let pick = rng.below(3);
/// assert!(pick < 3);
/// ```
#[derive(Clone, Debug)]
pub struct XorShift64Star(u64);

impl XorShift64Star {
    /// A generator starting from exactly this state (0, which xorshift cannot leave, is
    /// replaced by `0x2545_F491_4F6C_DD1D`).
    #[inline]
    pub const fn from_state(state: u64) -> Self {
        XorShift64Star(if state == 0 { XORSHIFT_STAR_MUL } else { state })
    }

    /// A generator for any seed (0 included): the state is [`splitmix64`]`(seed)`, so that
    /// close seeds give unrelated sequences.
    #[inline]
    pub fn seeded(seed: u64) -> Self {
        Self::from_state(splitmix64(seed))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(XORSHIFT_STAR_MUL)
    }

    /// A number in `0..n` (`n > 0`, at most `u32::MAX`), from the high 32 bits of the next
    /// output (multiply-shift, no division).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::{splitmix64, XorShift64Star, GOLDEN_GAMMA};

    fn first(rng: XorShift64Star, n: usize) -> Vec<u64> {
        (0..n).scan(rng, |r, _| Some(r.next_u64())).collect()
    }

    #[test]
    fn splitmix64_reference_values() {
        // The first outputs of the reference SplitMix64 seeded with 0.
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(GOLDEN_GAMMA), 0x6E78_9E6A_A1B9_65F4);
        const IN_CONST: u64 = splitmix64(0);
        assert_eq!(IN_CONST, 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn repeats_for_a_seed_and_differs_between_seeds() {
        assert_eq!(
            first(XorShift64Star::seeded(7), 20),
            first(XorShift64Star::seeded(7), 20)
        );
        assert_ne!(
            first(XorShift64Star::seeded(7), 20),
            first(XorShift64Star::seeded(8), 20)
        );
        assert_eq!(
            first(XorShift64Star::seeded(7), 5),
            first(XorShift64Star::from_state(splitmix64(7)), 5)
        );
    }

    #[test]
    fn zero_state_is_remapped() {
        assert_eq!(
            first(XorShift64Star::from_state(0), 5),
            first(XorShift64Star::from_state(0x2545_F491_4F6C_DD1D), 5)
        );
        assert!(first(XorShift64Star::from_state(0), 5)
            .iter()
            .all(|&x| x != 0));
    }

    #[test]
    fn below_stays_in_range_and_spreads() {
        let mut r = XorShift64Star::seeded(1);
        let mut seen = [0usize; 6];
        for _ in 0..6000 {
            seen[r.below(6)] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert!((0..100).all(|_| r.below(1) == 0));
    }
}
