//! Which games a match plays, in which seats, from which opening, and which of them a shard
//! plays.
//!
//! A match is a sequence of *openings*; each is played once in every seat order of the
//! cycle ([`seatings`]): two games with the seats swapped in a two-player game (a *pair*),
//! six in Chexers. Game `g` is seat order `g % cycle` of opening `g / cycle`. A match of at
//! most `G` games has `ceil(G / cycle)` openings (the last one possibly cut short).
//!
//! `--shard K/N` plays the openings `o` with `o % N == K − 1`: every shard gets whole pairs
//! spread over the whole match, and `N` shards together play each game of the unsharded
//! match exactly once. Everything a game depends on (its opening, seats and the engines'
//! seeds) follows from its index and the match's settings, so a game is the same game in
//! whichever process plays it.

use std::fmt;
use std::str::FromStr;

/// The seatings of one cycle: for each game, the spec index in each seat.
pub fn seatings(players: usize, specs: usize) -> Vec<Vec<usize>> {
    match (players, specs) {
        (2, 2) => vec![vec![0, 1], vec![1, 0]],
        (3, 2) => vec![
            vec![0, 1, 1],
            vec![1, 0, 1],
            vec![1, 1, 0],
            vec![1, 0, 0],
            vec![0, 1, 0],
            vec![0, 0, 1],
        ],
        (3, 3) => vec![
            vec![0, 1, 2],
            vec![0, 2, 1],
            vec![1, 0, 2],
            vec![1, 2, 0],
            vec![2, 0, 1],
            vec![2, 1, 0],
        ],
        _ => Vec::new(),
    }
}

/// One slice of a match: shard `k` of `n` (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 1 ..= n.
    pub k: u64,
    /// The number of shards.
    pub n: u64,
}

impl Shard {
    /// True when opening `o` is this shard's.
    pub fn has(&self, opening: u64) -> bool {
        opening % self.n == self.k - 1
    }
}

impl FromStr for Shard {
    type Err = String;
    /// `K/N` with 1 ≤ K ≤ N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard {s:?}: expected K/N with 1 <= K <= N (such as 3/8)");
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// The games of a match.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The seat orders of one opening.
    pub cycle: Vec<Vec<usize>>,
    /// The most games.
    pub games: u64,
}

impl Schedule {
    /// Games per opening.
    pub fn per_opening(&self) -> u64 {
        self.cycle.len() as u64
    }

    /// The number of openings.
    pub fn openings(&self) -> u64 {
        self.games.div_ceil(self.per_opening())
    }

    /// The opening of game `g`.
    pub fn opening_of(&self, g: u64) -> u64 {
        g / self.per_opening()
    }

    /// The seats of game `g`: the engine index in each seat.
    pub fn seats_of(&self, g: u64) -> &[usize] {
        &self.cycle[(g % self.per_opening()) as usize]
    }

    /// The games of opening `o` (fewer for a last opening cut short by the maximum).
    pub fn games_of(&self, o: u64) -> std::ops::Range<u64> {
        let first = o * self.per_opening();
        first..(first + self.per_opening()).min(self.games)
    }

    /// Every game a shard plays (all of them without one), in order.
    pub fn games_for(&self, shard: Option<Shard>) -> Vec<u64> {
        (0..self.openings())
            .filter(|&o| shard.map_or(true, |s| s.has(o)))
            .flat_map(|o| self.games_of(o))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_sits_in_every_seat_equally() {
        for (players, specs) in [(2, 2), (3, 2), (3, 3)] {
            let cycle = seatings(players, specs);
            for seat in 0..players {
                let mut count = vec![0; specs];
                for s in &cycle {
                    count[s[seat]] += 1;
                }
                assert!(
                    count.iter().all(|&c| c == count[0]),
                    "{players} {specs}: {count:?}"
                );
            }
            // Every spec plays in every game.
            for s in &cycle {
                for spec in 0..specs {
                    assert!(s.contains(&spec));
                }
            }
        }
        assert!(seatings(2, 3).is_empty());
    }

    #[test]
    fn shards_split_the_games_exactly() {
        for (players, specs, games) in [(2, 2, 21), (3, 2, 40), (3, 3, 6), (2, 2, 1)] {
            let schedule = Schedule {
                cycle: seatings(players, specs),
                games,
            };
            let all = schedule.games_for(None);
            assert_eq!(all, (0..games).collect::<Vec<_>>());
            for n in 1..=7 {
                let mut union: Vec<u64> = (1..=n)
                    .flat_map(|k| schedule.games_for(Some(Shard { k, n })))
                    .collect();
                union.sort_unstable();
                assert_eq!(union, all, "{players} {specs} {games} over {n}");
            }
            // A shard plays whole openings.
            for g in schedule.games_for(Some(Shard { k: 2, n: 3 })) {
                assert_eq!(schedule.opening_of(g) % 3, 1);
            }
        }
    }

    #[test]
    fn shard_text() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { k: 3, n: 8 }));
        assert_eq!(Shard { k: 3, n: 8 }.to_string(), "3/8");
        for bad in ["0/4", "5/4", "x/4", "4", "1/0", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("K/N"), "{bad}: {e}");
        }
    }
}
