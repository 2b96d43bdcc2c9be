//! Where each opening starts: an opening book, a fixed position, or the game's start (a
//! seeded random or fair start per opening for games that start at random), followed by
//! seeded random plies.
//!
//! A book file holds one position per line in the game's notation (or any start text:
//! `start`, `random:SEED`, and a solved `fair:SEED` where the game has fair starts); blank
//! lines and lines starting with `#` are skipped. With `--book-order sequential` opening `o` starts from position `o mod L` of the
//! `L` positions; with `random` from a seeded shuffle of the book, shuffled anew (with the
//! next seed) each time it is used up. Either way the position of an opening follows from
//! its index, the book and `--seed`, so shards agree on it.

use std::path::Path;

use plyforge::search::rng::{splitmix64, XorShift64Star as Rng};
use plyforge::search::Record;
use plyforge::{legal_moves, read_start, GameAdapter};

use crate::error::Error;

/// How a book is walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// In file order, from the top again when used up.
    Sequential,
    /// A seeded shuffle, reshuffled when used up.
    Random,
}

/// The source of each opening's start.
pub enum Starts<A: GameAdapter> {
    /// A book: its positions (with their line numbers) and the order of use.
    Book {
        /// The positions.
        positions: Vec<A::Pos>,
        /// Position index of each opening (long enough for every opening of the match).
        order: Vec<u32>,
    },
    /// One position for every opening.
    Fixed(A::Pos),
    /// `random`: the seeded random start of seed + opening.
    Random(u64),
    /// `fair`: the fair start of seed + opening.
    Fair(u64),
    /// The game's own start (for games that start at random, the random start of seed +
    /// opening, as `arena match` always did).
    Default(u64),
}

/// A fixed seed of the book shuffles, so that a book's order does not depend on the same
/// numbers as the openings' random plies.
const SHUFFLE_SALT: u64 = 0xB00C_5EED_0F0D_D5E5;

impl<A: GameAdapter> Clone for Starts<A> {
    fn clone(&self) -> Self {
        match self {
            Starts::Book { positions, order } => Starts::Book {
                positions: positions.clone(),
                order: order.clone(),
            },
            Starts::Fixed(p) => Starts::Fixed(p.clone()),
            Starts::Random(s) => Starts::Random(*s),
            Starts::Fair(s) => Starts::Fair(*s),
            Starts::Default(s) => Starts::Default(*s),
        }
    }
}

impl<A: GameAdapter> Starts<A> {
    /// Reads a book: every line must be a position; the error names the file and line.
    pub fn book(path: &Path, order: Order, seed: u64, openings: u64) -> Result<Self, Error> {
        let file = format!("--book {}", path.display());
        let text = std::fs::read_to_string(path).map_err(|e| Error::input(&file, None, e))?;
        let mut positions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let p = read_start::<A>(t).map_err(|e| Error::input(&file, Some(i + 1), e))?;
            positions.push(p);
        }
        if positions.is_empty() {
            return Err(Error::input(file, None, "no positions in it"));
        }
        let order = book_order(positions.len(), order, seed, openings);
        Ok(Starts::Book { positions, order })
    }

    /// From `--position` (or none) and `--seed`.
    pub fn from_position(position: Option<&str>, seed: u64) -> Result<Self, Error> {
        match position.map(str::trim) {
            None => Ok(Starts::Default(seed)),
            Some("random") => {
                if A::random_start(seed).is_none() {
                    return Err(Error::settings(format!(
                        "--position random: {} has no random start",
                        A::TITLE
                    )));
                }
                Ok(Starts::Random(seed))
            }
            Some("fair") => {
                if !A::HAS_FAIR_START {
                    return Err(Error::settings(format!(
                        "--position fair: {} has no fair start",
                        A::TITLE
                    )));
                }
                Ok(Starts::Fair(seed))
            }
            Some(text) => Ok(Starts::Fixed(read_start::<A>(text)?)),
        }
    }

    /// True when each opening starts from the same position (so random plies are needed
    /// to vary the games).
    pub fn is_fixed(&self) -> bool {
        matches!(self, Starts::Fixed(_))
    }

    /// True for a book.
    pub fn is_book(&self) -> bool {
        matches!(self, Starts::Book { .. })
    }

    /// The start of opening `o`: an error only for a fair start that the game does not find
    /// within its bound.
    pub fn start(&self, o: u64) -> Result<A::Pos, Error> {
        Ok(match self {
            Starts::Book { positions, order } => {
                positions[order[(o % order.len() as u64) as usize] as usize].clone()
            }
            Starts::Fixed(p) => p.clone(),
            Starts::Random(seed) => A::random_start(seed.wrapping_add(o)).unwrap_or_else(A::start),
            Starts::Fair(seed) => {
                let seed = seed.wrapping_add(o);
                A::fair_start(seed).ok_or_else(|| {
                    Error::settings(format!(
                        "--position fair: no fair start of {} found from seed {seed} (opening {}) within the game's bound (try another --seed)",
                        A::TITLE,
                        o + 1
                    ))
                })?
            }
            Starts::Default(seed) => A::random_start(seed.wrapping_add(o)).unwrap_or_else(A::start),
        })
    }
}

/// The position index of each opening: `openings` entries (at least one pass over the book).
fn book_order(len: usize, order: Order, seed: u64, openings: u64) -> Vec<u32> {
    let total = (openings as usize).max(len).div_ceil(len) * len;
    let mut out = Vec::with_capacity(total);
    let mut pass = 0u64;
    while out.len() < total {
        let mut idx: Vec<u32> = (0..len as u32).collect();
        if order == Order::Random {
            let mut rng = Rng::seeded(splitmix64(seed ^ SHUFFLE_SALT).wrapping_add(pass));
            for i in (1..len).rev() {
                idx.swap(i, rng.below(i + 1));
            }
        }
        out.extend(idx);
        pass += 1;
    }
    out
}

/// The opening: `plies` seeded random moves from `start` that do not end the game.
pub fn play_opening<A: GameAdapter>(record: &mut Record<A::Pos>, plies: usize, rng: &mut Rng) {
    for _ in 0..plies {
        let moves: Vec<A::Move> = legal_moves(record.position())
            .into_iter()
            .filter(|&mv| {
                let mut r = record.clone();
                matches!(r.play(mv), Ok(None))
            })
            .collect();
        if moves.is_empty() || record.result().is_some() {
            return;
        }
        let mv = moves[rng.below(moves.len())];
        if record.play(mv).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_cover_the_book_each_pass() {
        for order in [Order::Sequential, Order::Random] {
            let o = book_order(7, order, 3, 20);
            assert_eq!(o.len(), 21);
            for pass in o.chunks(7) {
                let mut p = pass.to_vec();
                p.sort_unstable();
                assert_eq!(p, (0..7).collect::<Vec<_>>());
            }
            assert_eq!(o, book_order(7, order, 3, 20), "deterministic");
        }
        assert_eq!(book_order(3, Order::Sequential, 9, 2), vec![0, 1, 2]);
        let a = book_order(50, Order::Random, 1, 50);
        assert_ne!(a, book_order(50, Order::Random, 2, 50), "the seed matters");
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        let two = book_order(50, Order::Random, 1, 100);
        assert_ne!(two[..50], two[50..], "each pass is shuffled anew");
    }
}
