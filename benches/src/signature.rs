//! The fixed bench suite: every position of every list searched to a fixed depth with one
//! thread, and the engine's synthetic cases two plies below their report depth. Its total
//! node count is the search signature: one thread is deterministic, so the count changes
//! only when search behaviour changes (the engine, a game's rules, evaluation or
//! recommended settings, or this suite).

use plyforge::{chaosclock, chexers, jumpy3, search, throne};
use search::Limits;

use crate::cases::engine_cases;
use crate::games::{engine, BenchGame};

/// One search of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// `engine` or the game's name.
    pub suite: &'static str,
    /// The position's label or the case's name.
    pub label: String,
    /// The depth searched.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The root score.
    pub score: i32,
    /// The best move, in `Debug` form.
    pub best: String,
}

/// The searches of game `G`: its positions at its signature depth, one engine cleared
/// between positions.
pub fn game_lines<G: BenchGame>() -> Vec<Line> {
    let depth = G::DEPTHS.signature;
    let mut s = engine::<G>(1);
    G::positions()
        .into_iter()
        .map(|e| {
            s.clear();
            let r = s.run(&e.position, &[], Limits::depth(depth), |_| {});
            Line {
                suite: G::NAME,
                label: e.label,
                depth,
                nodes: r.nodes,
                score: r.score,
                best: format!("{:?}", r.best),
            }
        })
        .collect()
}

/// The searches of the synthetic cases, two plies below their report depth.
pub fn engine_lines() -> Vec<Line> {
    engine_cases()
        .into_iter()
        .map(|c| {
            let depth = c.depth.saturating_sub(2).max(1);
            let r = c
                .engine(1)
                .run(&c.root(), &[], Limits::depth(depth), |_| {});
            Line {
                suite: "engine",
                label: c.name.to_string(),
                depth,
                nodes: r.nodes,
                score: r.score,
                best: format!("{:?}", r.best),
            }
        })
        .collect()
}

/// The whole suite, in a fixed order.
pub fn run() -> Vec<Line> {
    let mut v = engine_lines();
    v.extend(game_lines::<jumpy3::Position>());
    v.extend(game_lines::<chexers::Position>());
    v.extend(game_lines::<throne::Position>());
    v.extend(game_lines::<chaosclock::Position>());
    v
}

/// The signature: the total node count of `lines`.
pub fn total(lines: &[Line]) -> u64 {
    lines.iter().map(|l| l.nodes).sum()
}
