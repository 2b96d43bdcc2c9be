//! The seeded generator of the initial weights and of each epoch's order (SplitMix64: small,
//! and the same numbers on every machine).

/// SplitMix64.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5EED_1EA4_0000_0000)
    }

    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in −1 … 1.
    pub(crate) fn symmetric(&mut self) -> f32 {
        // 24 bits: every value exact in f32.
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        2.0 * u - 1.0
    }

    /// A number in 0 … n − 1 (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// `items` in a seeded random order (Fisher–Yates).
pub(crate) fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}
