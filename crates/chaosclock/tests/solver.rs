//! The solver's public API: budgets, threads, history, finished games, proofs.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use plyforge_chaosclock::search::{Game, Outcome, Record};
use plyforge_chaosclock::solve::{self, SolveOptions};
use plyforge_chaosclock::{may_complete, Move, Position, EVEN, ODD};

fn pos(s: &str) -> Position {
    s.parse().unwrap()
}

#[test]
fn a_finished_game_has_its_result_and_no_moves() {
    // Odd complete and to move.
    let p = pos("1,2,3,4,5,6,7,8,9,10,11,0;0;0");
    assert_eq!(p.outcome(), Some(Outcome::Win(ODD)));
    let s = solve::solve(&p);
    assert_eq!(
        (s.value.code(), s.outcome, s.best),
        (4, Outcome::Win(ODD), vec![])
    );
    // The same board with Even to move is Even's last move: placing 12 makes both win.
    let s = solve::solve(&pos("1,2,3,4,5,6,7,8,9,10,11,0;1;0"));
    assert_eq!((s.value.code(), s.best), (3, vec![Move::Place(12)]));
    let s = solve::solve(&pos("1,2,3,4,5,6,7,8,9,10,11,12;1;0"));
    assert_eq!((s.value.code(), s.outcome), (3, Outcome::BothWin));
}

#[test]
fn a_budget_cuts_the_solve_short() {
    let p = Position::random(3);
    let tight = SolveOptions {
        max_nodes: Some(2_000),
        threads: 1,
        ..SolveOptions::default()
    };
    assert_eq!(solve::solve_with(&p, &tight), None);
    let no_time = SolveOptions {
        time: Some(std::time::Duration::ZERO),
        ..SolveOptions::default()
    };
    assert_eq!(solve::solve_with(&p, &no_time), None);
    let stop = Arc::new(AtomicBool::new(true));
    let stopped = SolveOptions {
        stop: Some(stop),
        ..SolveOptions::default()
    };
    assert_eq!(solve::solve_with(&p, &stopped), None);
    let small = pos("4,3,11,0,5,6,0,0,0,2,0,0;0;12");
    let roomy = SolveOptions {
        max_nodes: Some(10_000_000),
        ..SolveOptions::default()
    };
    assert_eq!(
        solve::solve_with(&small, &roomy).map(|s| s.value.code()),
        Some(3)
    );
}

#[test]
fn threads_do_not_change_the_solution() {
    for text in [
        "8,3,1,11,5,10,12,7,4,2,0,0;1;3",
        "4,3,7,11,5,10,12,0,0,2,0,0;0;7",
        "1,2,6,4,5,0,7,8,0,10,11,12;1;0",
        "12,10,6,4,0,1,7,8,9,3,11,0;0;0",
    ] {
        let p = pos(text);
        let solutions: Vec<(u8, Vec<Move>)> = [1, 2, 3]
            .iter()
            .map(|&threads| {
                let opts = SolveOptions {
                    threads,
                    ..SolveOptions::default()
                };
                let s = solve::solve_with(&p, &opts).expect("no limit");
                (s.value.code(), s.best)
            })
            .collect();
        assert_eq!(solutions[0], solutions[1], "{text}");
        assert_eq!(solutions[0], solutions[2], "{text}");
    }
}

#[test]
fn history_makes_a_return_both_lose() {
    // Even's 6 stands on square 3; Odd holds 3 and 9. Whatever Even does, Odd places 3 or 9
    // capturing the 6 (a second move), then the other: Odd wins.
    let start = pos("1,2,6,4,5,0,7,8,0,10,11,12;1;0");
    let s = solve::solve(&start);
    assert_eq!((s.value.code(), s.outcome), (1, Outcome::Win(ODD)));
    // Suppose Odd passed twice instead: w6 pass w6 pass. Even, after a pass, can now end the
    // game both losing by passing too. Walking 6 again loses - unless the game's history is
    // known: then it repeats the position after the first w6, which ends the game both losing.
    let mut rec = Record::new(start.clone());
    for m in ["w6", "pass", "w6", "pass"] {
        rec.play(m.parse().unwrap()).unwrap();
    }
    let now = rec.position().clone();
    let without = solve::solve(&now);
    assert_eq!((without.value.code(), without.best), (2, vec![Move::Pass]));
    let opts = SolveOptions::for_record(&rec);
    assert_eq!(opts.history.len(), 4);
    assert_eq!(opts.history[0], start);
    let with = solve::solve_with(&now, &opts).unwrap();
    assert_eq!(
        (with.value.code(), with.best),
        (2, vec![Move::Walk(6), Move::Pass])
    );
    assert_eq!(rec.play(Move::Walk(6)), Ok(Some(Outcome::BothLose)));
}

#[test]
fn proofs_that_a_side_can_never_complete() {
    // 3, 4 and 9 lock each other: each walk lands on a home piece, and each could only be
    // captured by placing another of them.
    let locked = pos("1,2,4,9,5,6,7,8,3,10,11,12;1;9");
    assert_eq!(may_complete(&locked), [false, false]);
    assert_eq!(solve::solve(&locked).value.code(), 2);
    // Odd's 9 on square 6 is blocked (6 + 9 = 15 = square 3, home), but Even can place 6.
    let free = pos("0,0,3,4,5,9,7,1,8,0,11,12;0;1");
    assert_eq!(may_complete(&free), [true, true]);
    assert_eq!(may_complete(&Position::start()), [true, true]);
    // Only Even is stuck: its 2 and 4 stand on each other's squares, each walk lands on the
    // home 6, and each could only be captured by placing the other.
    let even_stuck = pos("1,4,3,2,5,6,7,8,9,10,0,12;0;0");
    assert_eq!(may_complete(&even_stuck), [true, false]);
    let s = solve::solve(&even_stuck);
    assert_eq!((s.value.code(), s.outcome), (4, Outcome::Win(ODD)));
    assert_eq!(s.best, vec![Move::Place(11)]);
    let _ = EVEN;
}
