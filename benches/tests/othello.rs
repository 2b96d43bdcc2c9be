//! 6×6 Othello (`example_games::othello`): perft against a plain grid implementation, values
//! against brute force on the bench positions. (The notation, passes, the end of the game
//! and the conformance checks are the game crate's tests.)

use example_games::othello::{Othello, OthelloEval};
use plyforge::search::{perft, reference, Config, Game, Limits, Search, SideToMove};

/// Othello written plainly on a grid (`g[row][column]`: 0 empty, 1 `x`, 2 `o`), for perft.
fn plain_perft(g: [[u8; 6]; 6], me: u8, depth: u32, passed: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let flips = |g: &[[u8; 6]; 6], r: i32, c: i32| -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if g[r as usize][c as usize] != 0 {
            return all;
        }
        for (dr, dc) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let (mut rr, mut cc, mut line) = (r + dr, c + dc, Vec::new());
            while (0..6).contains(&rr)
                && (0..6).contains(&cc)
                && g[rr as usize][cc as usize] == 3 - me
            {
                line.push((rr as usize, cc as usize));
                rr += dr;
                cc += dc;
            }
            if !line.is_empty()
                && (0..6).contains(&rr)
                && (0..6).contains(&cc)
                && g[rr as usize][cc as usize] == me
            {
                all.extend(line);
            }
        }
        all
    };
    let mut total = 0;
    let mut any = false;
    for r in 0..6 {
        for c in 0..6 {
            let f = flips(&g, r, c);
            if f.is_empty() {
                continue;
            }
            any = true;
            let mut next = g;
            next[r as usize][c as usize] = me;
            for (rr, cc) in f {
                next[rr][cc] = me;
            }
            total += plain_perft(next, 3 - me, depth - 1, false);
        }
    }
    if !any {
        if passed {
            return 0; // neither can move: the game ended
        }
        // A pass is a move, unless the other player cannot move either.
        return plain_perft(g, 3 - me, depth - 1, true);
    }
    total
}

#[test]
fn perft_agrees_with_a_plain_implementation() {
    let mut g = [[0u8; 6]; 6];
    g[2][3] = 1;
    g[3][2] = 1;
    g[2][2] = 2;
    g[3][3] = 2;
    for d in 0..=7 {
        assert_eq!(
            perft(&Othello::start(), d),
            plain_perft(g, 1, d, false),
            "depth {d}"
        );
    }
}

#[test]
fn values_equal_minimax() {
    let eval = SideToMove(OthelloEval);
    for e in benches::data::othello() {
        let want: Vec<i32> = (0..=5)
            .map(|d| reference::minimax(&e.position, &eval, d, &[], true))
            .collect();
        for threads in [1, 2] {
            let mut s = Search::new(Config::default().with_threads(threads).with_tt_mib(4), eval);
            s.run(&e.position, &[], Limits::depth(5), |r| {
                assert_eq!(
                    r.score, want[r.depth as usize],
                    "{} threads {threads}",
                    e.label
                );
            });
        }
        assert!(e.position.outcome().is_none());
    }
}
