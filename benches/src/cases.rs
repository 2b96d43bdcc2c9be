//! The engine's bench cases on the synthetic game of `search` (no game rules involved: these
//! measure the search itself), shared by the criterion suite and the report.

use plyforge::search;
use search::synthetic::{Payoffs, Spec, Synthetic, SyntheticEval};
use search::{Algorithm, Config, MaxnBounds, Search};

/// One synthetic tree searched one way to a fixed depth.
#[derive(Clone, Debug)]
pub struct EngineCase {
    /// Name for tables and benchmark ids.
    pub name: &'static str,
    /// The tree.
    pub spec: Spec,
    /// The search (one thread; the report and the benches set the thread count).
    pub config: Config,
    /// Bounds for max^n shallow pruning, if any.
    pub maxn_bounds: Option<MaxnBounds>,
    /// The depth of the full mode.
    pub depth: u32,
}

impl EngineCase {
    /// The root position.
    pub fn root(&self) -> Synthetic {
        Synthetic::new(self.spec)
    }

    /// A fresh engine for this case with `threads` threads.
    pub fn engine(&self, threads: usize) -> Search<Synthetic, SyntheticEval> {
        let mut s = Search::new(self.config.clone().with_threads(threads), SyntheticEval);
        s.set_maxn_bounds(self.maxn_bounds);
        s
    }
}

fn config(algorithm: Algorithm) -> Config {
    Config::default().with_algorithm(algorithm).with_tt_mib(16)
}

/// Long games (no draw by length within any bench depth), few terminal positions.
fn base(seed: u64) -> Spec {
    Spec {
        seed,
        width: 1 << 16,
        length: 1000,
        terminal_per_mille: 20,
        ..Spec::default()
    }
}

/// The cases: two-player alpha-beta, three-player paranoid, best-reply and max^n, and
/// general-sum two-player max^n (the shape of Chaos Clock).
pub fn engine_cases() -> Vec<EngineCase> {
    vec![
        EngineCase {
            name: "2p-alphabeta",
            spec: Spec {
                max_branching: 8,
                ..base(11)
            },
            config: config(Algorithm::AlphaBeta),
            maxn_bounds: None,
            depth: 13,
        },
        EngineCase {
            name: "2p-alphabeta-transpositions",
            spec: Spec {
                max_branching: 8,
                width: 256,
                ..base(12)
            },
            config: config(Algorithm::AlphaBeta),
            maxn_bounds: None,
            depth: 14,
        },
        EngineCase {
            name: "3p-paranoid",
            spec: Spec {
                players: 3,
                ..base(13)
            },
            config: config(Algorithm::Paranoid),
            maxn_bounds: None,
            depth: 12,
        },
        EngineCase {
            name: "3p-best-reply",
            spec: Spec {
                players: 3,
                skip: true,
                ..base(14)
            },
            config: config(Algorithm::BestReply),
            maxn_bounds: None,
            depth: 11,
        },
        EngineCase {
            name: "3p-maxn",
            spec: Spec {
                players: 3,
                payoffs: Payoffs::ConstantSum,
                terminal_per_mille: 0,
                ..base(15)
            },
            config: config(Algorithm::MaxN),
            maxn_bounds: Some(MaxnBounds {
                max_sum: 1000,
                min_score: 0,
            }),
            depth: 9,
        },
        EngineCase {
            name: "2p-general-sum-maxn",
            spec: Spec {
                payoffs: Payoffs::GeneralSum,
                ..base(16)
            },
            config: config(Algorithm::MaxN),
            maxn_bounds: None,
            depth: 8,
        },
    ]
}
