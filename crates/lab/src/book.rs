//! Where each opening starts: an opening book, a fixed position, or the game's start (a
//! seeded random or fair start per opening for games that start at random), followed by
//! seeded random plies, drawn so that no two openings that share a start end alike
//! ([`Openings`]).
//!
//! A book file holds one position per line in the game's notation (or any start text:
//! `start`, `random:SEED`, and a solved `fair:SEED` where the game has fair starts); blank
//! lines and lines starting with `#` are skipped. With `--book-order sequential` opening `o` starts from position `o mod L` of the
//! `L` positions; with `random` from a seeded shuffle of the book, shuffled anew (with the
//! next seed) each time it is used up. Either way the position of an opening follows from
//! its index, the book and `--seed`, so shards agree on it.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Mutex;

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

    /// True when openings share their starts (a fixed position, a book's positions, the
    /// start of a game not dealt at random), so that random plies are all that tell them
    /// apart.
    pub fn is_shared(&self) -> bool {
        match self {
            Starts::Book { .. } | Starts::Fixed(_) => true,
            Starts::Random(_) | Starts::Fair(_) => false,
            Starts::Default(_) => !A::RANDOM_START,
        }
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

/// The openings of a match or a tuning run, built once each, in order, as games need them.
///
/// Opening `o` is its start ([`Starts::start`]) followed by seeded random plies. Where the
/// openings share their start (a fixed position, a book's position, the game's own start),
/// each differs from every earlier one: a draw that ends in a position an earlier opening
/// reached is drawn again (up to [`ATTEMPTS`] times), and when that finds nothing new the
/// openings from there on are a ply longer. Without this a short opening repeats: 6×6
/// Othello has 12 positions two plies from its start, Connect Four 49, and games from one
/// opening are not independent samples, so a match's error bars would be too narrow.
/// Every opening follows from its index, the start and the seed alone, so shards and
/// resumed runs agree on it. With no random plies, or starts that vary per opening
/// (`random`, `fair`, games dealt at random), the openings are built independently.
pub struct Openings<A: GameAdapter> {
    starts: Starts<A>,
    plies: usize,
    seed: u64,
    built: Mutex<Built<A>>,
}

/// The openings built so far (in order), the positions they reached, and the plies added
/// to the length asked for once every short opening had been used.
struct Built<A: GameAdapter> {
    records: Vec<Result<Record<A::Pos>, String>>,
    seen: HashSet<A::Pos>,
    extra: usize,
    repeats: u64,
}

/// Draws of an opening's random plies before the openings grow a ply.
pub const ATTEMPTS: u64 = 32;

/// The most plies the openings grow by before an opening may repeat an earlier one.
pub const MAX_EXTRA: usize = 16;

impl<A: GameAdapter> Openings<A> {
    /// The openings from `starts`, `plies` random plies each (at least), seeded by `seed`.
    pub fn new(starts: Starts<A>, plies: usize, seed: u64) -> Self {
        Openings {
            starts,
            plies,
            seed,
            built: Mutex::new(Built {
                records: Vec::new(),
                seen: HashSet::new(),
                extra: 0,
                repeats: 0,
            }),
        }
    }

    /// Where the openings start.
    pub fn starts(&self) -> &Starts<A> {
        &self.starts
    }

    /// The random plies asked for (an opening has more once the shorter ones are used up).
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// Whether the openings are drawn distinct (they share a start and have random plies).
    pub fn distinct(&self) -> bool {
        self.plies > 0 && self.starts.is_shared()
    }

    /// Opening `o`: its start and random plies (an error only where its start cannot be
    /// made: a fair start not found).
    pub fn get(&self, o: u64) -> Result<Record<A::Pos>, Error> {
        if !self.distinct() {
            let mut record = Record::<A::Pos>::new(self.starts.start(o)?);
            play_opening::<A>(&mut record, self.plies, &mut self.rng(o, 0));
            return Ok(record);
        }
        let mut b = self.built.lock().unwrap_or_else(|e| e.into_inner());
        while b.records.len() as u64 <= o {
            let next = b.records.len() as u64;
            let record = self.build(next, &mut b);
            b.records.push(record);
        }
        b.records[o as usize].clone().map_err(Error::Settings)
    }

    /// How many of the openings built so far repeat an earlier one (the game had no new
    /// position within [`MAX_EXTRA`] more plies).
    pub fn repeats(&self) -> u64 {
        self.built.lock().unwrap_or_else(|e| e.into_inner()).repeats
    }

    /// The random plies of opening `o`, draw `attempt`: the first draw is the one every
    /// opening had before openings were drawn distinct.
    fn rng(&self, o: u64, attempt: u64) -> Rng {
        let base = self.seed.wrapping_mul(1_000_003).wrapping_add(o);
        if attempt == 0 {
            Rng::seeded(base)
        } else {
            Rng::seeded(splitmix64(base ^ splitmix64(attempt)))
        }
    }

    /// Opening `o`, given the openings before it.
    fn build(&self, o: u64, b: &mut Built<A>) -> Result<Record<A::Pos>, String> {
        let start = self.starts.start(o).map_err(|e| e.to_string())?;
        let mut first: Option<Record<A::Pos>> = None;
        loop {
            for attempt in 0..ATTEMPTS {
                let mut record = Record::<A::Pos>::new(start.clone());
                play_opening::<A>(&mut record, self.plies + b.extra, &mut self.rng(o, attempt));
                if b.seen.insert(record.position().clone()) {
                    return Ok(record);
                }
                first.get_or_insert(record);
            }
            if b.extra >= MAX_EXTRA {
                b.repeats += 1;
                return Ok(first.expect("at least one attempt"));
            }
            b.extra += 1;
            first = None;
        }
    }
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
    use plyforge::games::{ChaosClock, Jumpy3};

    /// The openings `0..n`, each as its position and the plies that made it.
    fn first<A: GameAdapter>(o: &Openings<A>, n: u64) -> Vec<(A::Pos, usize)> {
        (0..n)
            .map(|i| {
                let r = o.get(i).unwrap();
                (r.position().clone(), r.moves().len())
            })
            .collect()
    }

    #[test]
    fn shared_starts_give_distinct_openings_that_grow_when_short_ones_run_out() {
        let o = Openings::<Jumpy3>::new(Starts::Default(7), 2, 7);
        assert!(o.distinct());
        let all = first(&o, 300);
        let distinct: HashSet<_> = all.iter().map(|(p, _)| *p).collect();
        assert_eq!(distinct.len(), 300, "no opening repeats an earlier one");
        assert_eq!(o.repeats(), 0);
        assert_eq!(all[0].1, 2, "the first openings have the plies asked for");
        let lengths: Vec<usize> = all.iter().map(|&(_, n)| n).collect();
        assert!(lengths.windows(2).all(|w| w[0] <= w[1]), "{lengths:?}");
        assert!(
            lengths[299] > 2,
            "Jumpy3 has fewer than 300 positions two plies in: {lengths:?}"
        );
        // The first draw is the one each opening had when openings were drawn independently.
        let mut old = Record::<<Jumpy3 as GameAdapter>::Pos>::new(Jumpy3::start());
        play_opening::<Jumpy3>(&mut old, 2, &mut Rng::seeded(7 * 1_000_003));
        assert_eq!(o.get(0).unwrap().moves(), old.moves());
    }

    #[test]
    fn an_opening_follows_from_its_index_and_seed_alone() {
        let a = Openings::<Jumpy3>::new(Starts::Default(3), 2, 3);
        let b = Openings::<Jumpy3>::new(Starts::Default(3), 2, 3);
        // A shard or a resumed run asks for a late opening first.
        let late = b.get(120).unwrap();
        assert_eq!(a.get(120).unwrap().moves(), late.moves());
        assert_eq!(first(&a, 121), first(&b, 121));
        let c = Openings::<Jumpy3>::new(Starts::Default(4), 2, 4);
        assert_ne!(first(&a, 10), first(&c, 10), "the seed matters");
    }

    #[test]
    fn starts_dealt_per_opening_or_no_plies_are_not_redrawn() {
        let dealt = Openings::<ChaosClock>::new(Starts::Default(5), 2, 5);
        assert!(!dealt.distinct());
        let fixed = Openings::<Jumpy3>::new(Starts::Fixed(Jumpy3::start()), 0, 5);
        assert!(!fixed.distinct());
        let all = first(&fixed, 3);
        assert!(all.iter().all(|(p, n)| *p == Jumpy3::start() && *n == 0));
    }

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
