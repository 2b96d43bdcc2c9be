//! A small seeded generator (xorshift64*), so that random players and openings repeat exactly.

use search::rng::XorShift64Star;

/// xorshift64* with a splitmix64-scrambled seed ([`XorShift64Star::seeded`]).
#[derive(Clone, Debug)]
pub(crate) struct Rng(XorShift64Star);

impl Rng {
    /// A generator for this seed (any value, 0 included).
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(XorShift64Star::seeded(seed))
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn repeats_and_spreads() {
        let a: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.0.next_u64()))
            .collect();
        let b: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.0.next_u64()))
            .collect();
        assert_eq!(a, b);
        let mut r = Rng::new(1);
        let mut seen = [0usize; 4];
        for _ in 0..4000 {
            seen[r.below(4)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }
}
