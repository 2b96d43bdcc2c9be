//! 6×6 Breakthrough (`example_games::breakthrough`) on the bench positions: perft against a
//! plain grid implementation, values against brute force with quiescence on and off. (The
//! notation, the end of the game and the conformance checks are the game crate's tests.)

use example_games::breakthrough::{Breakthrough, BreakthroughEval};
use plyforge::search::{perft, reference, Config, Game, Limits, Search, SideToMove};

/// Breakthrough written plainly on a grid (`g[row][column]`: 0 empty, 1 White, 2 Black;
/// row 0 White's first row), for perft: the moves of `me`, the game over when a pawn is on
/// the far row or the side to move has no pawn.
fn plain_perft(g: [[u8; 6]; 6], me: u8, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let far = |p: u8| if p == 1 { 5 } else { 0 };
    if (1..=2).any(|p| g[far(p)].contains(&p)) || !g.iter().flatten().any(|&c| c == me) {
        return 0;
    }
    let forward: i32 = if me == 1 { 1 } else { -1 };
    let mut total = 0;
    for r in 0..6i32 {
        for c in 0..6i32 {
            if g[r as usize][c as usize] != me {
                continue;
            }
            let rr = r + forward;
            if !(0..6).contains(&rr) {
                continue;
            }
            for dc in [-1, 0, 1] {
                let cc = c + dc;
                if !(0..6).contains(&cc) {
                    continue;
                }
                let there = g[rr as usize][cc as usize];
                let legal = if dc == 0 { there == 0 } else { there != me };
                if legal {
                    let mut next = g;
                    next[r as usize][c as usize] = 0;
                    next[rr as usize][cc as usize] = me;
                    total += plain_perft(next, 3 - me, depth - 1);
                }
            }
        }
    }
    total
}

fn grid(p: &Breakthrough) -> [[u8; 6]; 6] {
    let mut g = [[0u8; 6]; 6];
    for (i, row) in g.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            let bit = 1u64 << (i * 6 + j);
            *cell = if p.pawns(0) & bit != 0 {
                1
            } else if p.pawns(1) & bit != 0 {
                2
            } else {
                0
            };
        }
    }
    g
}

#[test]
fn perft_agrees_with_a_plain_implementation() {
    for e in benches::data::breakthrough() {
        let me = 1 + e.position.to_move() as u8;
        for d in 0..=4 {
            assert_eq!(
                perft(&e.position, d),
                plain_perft(grid(&e.position), me, d),
                "{} depth {d}",
                e.label
            );
        }
    }
    let start = Breakthrough::start();
    assert_eq!(perft(&start, 5), 1_248_290);
    assert_eq!(plain_perft(grid(&start), 1, 5), 1_248_290);
}

#[test]
fn values_equal_minimax_with_and_without_quiescence() {
    let eval = SideToMove(BreakthroughEval);
    for e in benches::data::breakthrough() {
        // Brute-force quiescence follows every capture sequence: one ply of it is enough.
        for (quiescence, depth) in [(false, 4), (true, 1)] {
            let want: Vec<i32> = (0..=depth)
                .map(|d| reference::minimax(&e.position, &eval, d, &[], quiescence))
                .collect();
            for threads in [1, 2] {
                let config = Config::default()
                    .with_threads(threads)
                    .with_tt_mib(4)
                    .with_quiescence(quiescence);
                let mut s = Search::new(config, eval);
                s.run(&e.position, &[], Limits::depth(depth), |r| {
                    assert_eq!(
                        r.score, want[r.depth as usize],
                        "{} threads {threads} quiescence {quiescence}",
                        e.label
                    );
                });
            }
        }
        assert!(e.position.outcome().is_none());
    }
}
