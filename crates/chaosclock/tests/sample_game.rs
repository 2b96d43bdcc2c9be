//! The sample game of the game's original README, replayed move by move, and its positions' exact results.
//!
//! The result codes and best-move sets below were first found by a plain max^n solver with
//! only the own-win cutoff (an earlier version of this crate's solver, no questions, no
//! shared pruning) and agree with the current solver; every move the sample game played is
//! among the best moves.

use plyforge_chaosclock::search::{Outcome, Record};
use plyforge_chaosclock::{solve, Move, Position};

const GAME: [(&str, &str); 7] = [
    ("w5", "8,6,1,11,5,10,12,7,4,2,3,0;0;5"),
    ("w3", "8,3,1,11,5,10,12,7,4,2,0,0;1;3"),
    ("w4", "4,3,1,11,5,10,12,7,0,2,0,0;0;4"),
    ("w7", "4,3,7,11,5,10,12,0,0,2,0,0;1;7"),
    ("p6", "4,3,7,11,5,6,12,0,0,2,0,0;0;6"),
    ("w11", "4,3,11,0,5,6,12,0,0,2,0,0;1;11"),
    ("w12", "4,3,11,0,5,6,0,0,0,2,0,0;0;12"),
];

#[test]
fn the_sample_game_replays() {
    let mut rec = Record::new(Position::start());
    assert_eq!(rec.position().to_string(), "8,6,1,11,9,10,12,7,4,2,3,5;1;0");
    for (mv, want) in GAME {
        let m: Move = mv.parse().unwrap();
        assert_eq!(rec.play(m), Ok(None), "{mv}");
        assert_eq!(rec.position().to_string(), want, "after {mv}");
        let reparsed: Position = want.parse().unwrap();
        assert_eq!(&reparsed, rec.position());
    }
}

/// The eight positions of the sample game with their best moves (all are "both win",
/// code 3 for the side to move).
const SOLVED: [(&str, &[&str]); 8] = [
    ("8,6,1,11,9,10,12,7,4,2,3,5;1;0", &["w5"]),
    (
        "8,6,1,11,5,10,12,7,4,2,3,0;0;5",
        &[
            "w8", "w6", "w1", "w11", "w10", "w12", "w7", "w4", "w2", "w3", "p9", "pass",
        ],
    ),
    (
        "8,3,1,11,5,10,12,7,4,2,0,0;1;3",
        &["w8", "w10", "w12", "w4", "p6"],
    ),
    (
        "4,3,1,11,5,10,12,7,0,2,0,0;0;4",
        &["w1", "w11", "w10", "w12", "w7", "w2", "p9", "pass"],
    ),
    ("4,3,7,11,5,10,12,0,0,2,0,0;1;7", &["w10", "w12", "p6"]),
    ("4,3,7,11,5,6,12,0,0,2,0,0;0;6", &["w11", "w2"]),
    ("4,3,11,0,5,6,12,0,0,2,0,0;1;11", &["w12", "p10"]),
    (
        "4,3,11,0,5,6,0,0,0,2,0,0;0;12",
        &["w11", "w2", "p7", "p9", "pass"],
    ),
];

#[test]
fn the_sample_positions_are_both_win_with_these_best_moves() {
    for (i, (pos, best)) in SOLVED.iter().enumerate() {
        let p: Position = pos.parse().unwrap();
        let s = solve::solve(&p);
        let got: Vec<String> = s.best.iter().map(|m| m.to_string()).collect();
        assert_eq!(s.value.code(), 3, "{pos}");
        assert_eq!(s.outcome, Outcome::BothWin, "{pos}");
        assert_eq!(got, best.to_vec(), "{pos}");
        // The move the sample game played next is a best move.
        if let Some((played, _)) = GAME.get(i) {
            assert!(best.contains(played), "{pos}: {played}");
        }
    }
}
