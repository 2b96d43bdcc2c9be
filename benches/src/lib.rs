//! Fixtures shared by the criterion suites (`benches/benches/suites/`), the report program
//! (`examples/bench_report.rs`, run by `cargo xtask bench`) and the tests of this package:
//! the fixed position lists of every game ([`data`]), a generic perft, wall-clock measurement
//! ([`measure`]), an independent alpha-beta to check root values ([`check`]) and the fixed
//! bench suite whose total node count is the search signature ([`signature`]).
//!
//! ```
//! use search::Game;
//!
//! let start = &benches::data::chexers()[0];
//! assert_eq!(start.label, "start");
//! // Red has 8 opening moves, each answered by 8 of Green's.
//! assert_eq!(benches::perft(&start.position, 2), 64);
//! assert_eq!(start.position.players(), 3);
//! ```
#![deny(missing_docs)]

use search::{Game, MoveList};

pub mod cases;
pub mod check;
pub mod data;
pub mod games;
pub mod measure;
pub mod peer;
pub mod signature;

/// Leaf count of the move tree of `game` to `depth` plies (moves of finished games are not
/// followed: a game that ends before `depth` contributes nothing, one that ends exactly at
/// `depth` one leaf). The last ply is counted from the move list without playing the moves.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = game.clone();
            child.play(m);
            perft(&child, depth - 1)
        })
        .sum()
}
