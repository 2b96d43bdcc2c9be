//! What the suites and the report need of each game, behind one trait, so that every
//! measurement is written once, generically.

use std::fmt::Display;
use std::str::FromStr;

use search::{Config, Evaluator, Game, Search};

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

/// A game as the benches see it: its positions, its default evaluation and engine settings,
/// and its depths.
pub trait BenchGame: Game + FromStr + Display {
    /// The evaluation the engine uses by default.
    type Eval: Evaluator<Self> + Clone + 'static;
    /// The crate's name, used in benchmark ids and tables.
    const NAME: &'static str;
    /// The depths.
    const DEPTHS: Depths;
    /// The fixed position list (`benches/data/<NAME>.txt`).
    fn positions() -> Vec<Entry<Self>>;
    /// The crate's default evaluation.
    fn eval() -> Self::Eval;
    /// The crate's recommended engine settings ([`Config::threads`] is set by the caller).
    fn config() -> Config;
}

/// A fresh engine for game `G` with its recommended settings and `threads` threads.
pub fn engine<G: BenchGame>(threads: usize) -> Search<G, G::Eval> {
    Search::new(
        Config {
            threads,
            ..G::config()
        },
        G::eval(),
    )
}

impl BenchGame for jumpy3::Position {
    type Eval = jumpy3::DefaultEval;
    const NAME: &'static str = "jumpy3";
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
    fn eval() -> Self::Eval {
        jumpy3::DefaultEval::default()
    }
    fn config() -> Config {
        jumpy3::engine_config()
    }
}

impl BenchGame for chexers::Position {
    type Eval = chexers::DefaultEval;
    const NAME: &'static str = "chexers";
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
    fn eval() -> Self::Eval {
        chexers::DefaultEval::default()
    }
    fn config() -> Config {
        chexers::engine_config()
    }
}

impl BenchGame for throne::Position {
    type Eval = throne::DefaultEval;
    const NAME: &'static str = "throne";
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
    fn eval() -> Self::Eval {
        throne::DefaultEval
    }
    fn config() -> Config {
        throne::engine_config()
    }
}

impl BenchGame for chaosclock::Position {
    type Eval = chaosclock::DefaultEval;
    const NAME: &'static str = "chaosclock";
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
    fn eval() -> Self::Eval {
        chaosclock::DefaultEval
    }
    fn config() -> Config {
        chaosclock::engine_config()
    }
}
