//! What the suites and the report need of each game beyond the facade's [`GameAdapter`]
//! (which gives the name, the default evaluation and the engine settings): the depths each
//! game is measured at and its fixed position list.

use std::fmt::Display;
use std::str::FromStr;

use plyforge::games::{ChaosClock, Chexers, Jumpy3, Throne};
use plyforge::search::{Config, Game, Search};
use plyforge::{chaosclock, chexers, jumpy3, throne, GameAdapter};

use crate::data::{self, Entry};

/// The depths one game is measured at (plies; perft counts leaves at that depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Depths {
    /// Perft depth of the report's full mode and of the criterion suite.
    pub perft: u32,
    /// Perft depth of the quick mode.
    pub perft_quick: u32,
    /// Search depth of the report's full mode (time to depth, 1 and 2 threads).
    pub search: u32,
    /// Search depth of the quick mode.
    pub search_quick: u32,
    /// Search depth of the criterion suite.
    pub bench: u32,
    /// Search depth of the fixed bench suite (the search signature). Changing it changes
    /// the signature.
    pub signature: u32,
}

/// A game as the benches see it: the facade's adapter, its position list and its depths.
pub trait BenchGame: Game + FromStr + Display {
    /// The facade's adapter of the game.
    type Adapter: GameAdapter<Pos = Self>;
    /// The crate's name, used in benchmark ids and tables.
    const NAME: &'static str = <Self::Adapter as GameAdapter>::NAME;
    /// The depths.
    const DEPTHS: Depths;
    /// The fixed position list (`benches/data/<NAME>.txt`).
    fn positions() -> Vec<Entry<Self>>;
    /// The crate's default evaluation.
    fn eval() -> EvalOf<Self> {
        Self::Adapter::default_eval()
    }
    /// The crate's recommended engine settings ([`Config::threads`] is set by the caller).
    fn config() -> Config {
        Self::Adapter::engine_config()
    }
}

/// The default evaluation of game `G`.
pub type EvalOf<G> = <<G as BenchGame>::Adapter as GameAdapter>::Eval;

/// A fresh engine for game `G` with its recommended settings and `threads` threads.
pub fn engine<G: BenchGame>(threads: usize) -> Search<G, EvalOf<G>> {
    Search::new(G::config().with_threads(threads), G::eval())
}

impl BenchGame for jumpy3::Position {
    type Adapter = Jumpy3;
    const DEPTHS: Depths = Depths {
        perft: 12,
        perft_quick: 8,
        search: 20,
        search_quick: 12,
        bench: 14,
        signature: 14,
    };
    fn positions() -> Vec<Entry<Self>> {
        data::jumpy3()
    }
}

impl BenchGame for chexers::Position {
    type Adapter = Chexers;
    const DEPTHS: Depths = Depths {
        perft: 4,
        perft_quick: 3,
        search: 7,
        search_quick: 3,
        bench: 4,
        signature: 4,
    };
    fn positions() -> Vec<Entry<Self>> {
        data::chexers()
    }
}

impl BenchGame for throne::Position {
    type Adapter = Throne;
    const DEPTHS: Depths = Depths {
        perft: 3,
        perft_quick: 2,
        search: 9,
        search_quick: 3,
        bench: 4,
        signature: 4,
    };
    fn positions() -> Vec<Entry<Self>> {
        data::throne()
    }
}

impl BenchGame for chaosclock::Position {
    type Adapter = ChaosClock;
    const DEPTHS: Depths = Depths {
        perft: 5,
        perft_quick: 4,
        search: 6,
        search_quick: 3,
        bench: 4,
        signature: 4,
    };
    fn positions() -> Vec<Entry<Self>> {
        data::chaosclock()
    }
}
