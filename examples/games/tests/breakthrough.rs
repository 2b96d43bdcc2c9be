//! 6×6 Breakthrough: the notation and its errors, the end of the game, the reasons for
//! illegal moves, the hooks of the selective search, the conformance checks.

use example_games::breakthrough::{
    Breakthrough, BreakthroughEval, Move, ParseMoveError, ParsePositionError, BLACK, WHITE,
};
use example_games::search::conformance::{check_evaluator, random_play_rules, RandomPlay, Shape};
use example_games::search::{Game, MoveList, Outcome, SideToMove};

fn pos(text: &str) -> Breakthrough {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is a position: {e}"))
}

fn mv(text: &str) -> Move {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is a move: {e}"))
}

#[test]
fn positions_round_trip_and_bad_text_is_named() {
    let start = Breakthrough::start();
    assert_eq!(
        start.to_string(),
        "bbbbbb/bbbbbb/....../....../wwwwww/wwwwww w"
    );
    assert_eq!(pos(&start.to_string()), start);
    let p = pos("bb.bb./bbb.b./b.b.bb/www.w./www.w./ww..ww w");
    assert_eq!(p.to_string(), "bb.bb./bbb.b./b.b.bb/www.w./www.w./ww..ww w");
    assert_eq!(p.at(0), Some(WHITE));
    assert_eq!(p.at(35), None);
    assert_eq!(p.at(30), Some(BLACK));
    use ParsePositionError::*;
    for (bad, want) in [
        (
            "bbbbbb/bbbbbb/....../....../wwwwww/wwwwww",
            Fields { found: 1 },
        ),
        ("bbbbbb/bbbbbb/....../wwwwww/wwwwww w", Ranks { found: 5 }),
        (
            "bbbbbb/bbbbbb/...../....../wwwwww/wwwwww w",
            RankLength { rank: 4, found: 5 },
        ),
        (
            "bbbbbb/bbbbbb/..x.../....../wwwwww/wwwwww w",
            Square {
                square: "c4".into(),
                found: 'x',
            },
        ),
        (
            "bbbbbb/bbbbbb/....../....../wwwwww/wwwwww x",
            Side { found: "x".into() },
        ),
    ] {
        assert_eq!(bad.parse::<Breakthrough>(), Err(want), "{bad}");
    }
    let e = "bbbbbb/bbbbbb/..x.../....../wwwwww/wwwwww w"
        .parse::<Breakthrough>()
        .unwrap_err();
    assert_eq!(e.to_string(), "square c4: 'x' is not 'w', 'b' or '.'");
}

#[test]
fn moves_are_two_squares() {
    let m = mv("c2-d3");
    assert_eq!((m.from(), m.to()), (8, 15));
    assert_eq!(m.to_string(), "c2-d3");
    assert_eq!(mv(" c2xd3 "), m);
    assert_eq!(Move::new(8, 15), Some(m));
    for (bad, want) in [
        ("", ParseMoveError::Empty),
        ("c2", ParseMoveError::Shape("c2".into())),
        ("c2-g3", ParseMoveError::Square("g3".into())),
        ("c0xc1", ParseMoveError::Square("c0".into())),
    ] {
        assert_eq!(bad.parse::<Move>(), Err(want), "{bad:?}");
    }
    // Every legal move's text reads back as the move.
    let start = Breakthrough::start();
    for m in start.moves() {
        assert_eq!(mv(&m.to_string()), m);
    }
}

#[test]
fn captures_are_the_noisy_moves_and_come_first() {
    let p = pos("bb.bb./bbb.b./b.b.bb/www.w./www.w./ww..ww w");
    let mut noisy = MoveList::new();
    p.noisy_moves(&mut noisy);
    let texts: Vec<String> = noisy.iter().map(Move::to_string).collect();
    // Towards file a, then towards f, each by target square.
    assert_eq!(texts, ["b3-a4", "b3-c4", "e3-f4"]);
    assert!(noisy.iter().all(|&m| p.is_capture(m)));
    assert_eq!(&p.moves()[..3], &noisy[..]);
    assert!(!p.is_capture(mv("b3-b4")));
}

#[test]
fn the_game_ends_as_the_rules_say() {
    // A White pawn on the far rank has won.
    let p = pos("..w.../....../....../....../....../b..... b");
    assert_eq!(p.outcome(), Some(Outcome::Win(WHITE)));
    assert!(p.moves().is_empty());
    // Black has no pawn left.
    let p = pos("....../....../....../..w.../....../...... b");
    assert_eq!(p.outcome(), Some(Outcome::Win(WHITE)));
    // White's pawn is blocked straight ahead: it steps or captures diagonally.
    let p = pos("b...../....../....../b...../w...../...... w");
    let moves: Vec<String> = p.moves().iter().map(Move::to_string).collect();
    assert_eq!(moves, ["a2-b3"]);
    assert_eq!(p.outcome(), None);
}

#[test]
fn illegal_moves_say_why() {
    let start = Breakthrough::start();
    let why = |p: &Breakthrough, m: &str| p.why_illegal(mv(m)).map(|e| e.to_string());
    assert_eq!(why(&start, "c2-c3"), None);
    assert_eq!(why(&start, "c2-b3"), None);
    for (m, want) in [
        ("c3-c4", "there is no White pawn on c3"),
        ("c5-c4", "there is no White pawn on c5"),
        ("c2-c4", "c2-c4 is not a step"),
        ("c1-c2", "c2 holds a White pawn"),
    ] {
        let got = why(&start, m).expect("illegal");
        assert!(got.contains(want), "{m}: {got}");
    }
    let p = pos("bbbbbb/bbbbbb/....../..b.../..w.../...... w");
    assert!(why(&p, "c2-c3").unwrap().contains("takes only diagonally"));
    let over = pos("..w.../....../....../....../....../b..... b");
    assert!(why(&over, "a1-a2").unwrap().contains("White has won"));
}

#[test]
fn the_selective_search_hooks() {
    let start = Breakthrough::start();
    assert!(start.zero_sum());
    assert!(!start.zugzwang());
    // A pass: the other side to move, the key as a recomputation gives it.
    let mut passed = start;
    assert!(passed.skip_turn());
    assert_eq!(passed.to_move(), BLACK);
    assert_ne!(passed.key(), start.key());
    assert_eq!(passed.key(), passed.recompute_key());
    // Forcing: a step onto either of the two rows before the goal, and onto the goal
    // (White: ranks 4, 5 and 6; Black: ranks 3, 2 and 1).
    let white = pos("....../....w./...w../..w.../.w..../...... w");
    for (m, forcing) in [
        ("b2-b3", false),
        ("c3-d4", true),
        ("d4-d5", true),
        ("e5-e6", true),
    ] {
        assert_eq!(white.is_forcing(mv(m)), forcing, "{m}");
    }
    let black = pos("....../.b..../..b.../...b../....b./...... b");
    for (m, forcing) in [
        ("b5-b4", false),
        ("c4-b3", true),
        ("d3-d2", true),
        ("e2-e1", true),
    ] {
        assert_eq!(black.is_forcing(mv(m)), forcing, "{m}");
    }
}

/// Every pair of squares a rank apart and at most a file apart, either way.
fn nearby_moves() -> Vec<Move> {
    let mut out = Vec::new();
    for from in 0..36u8 {
        for to in 0..36u8 {
            let near = (to / 6).abs_diff(from / 6) == 1 && (to % 6).abs_diff(from % 6) <= 1;
            if near {
                out.extend(Move::new(from, to));
            }
        }
    }
    out
}

#[test]
fn conformance_and_evaluation() {
    let stats = random_play_rules(
        |_| Breakthrough::start(),
        &RandomPlay::new(300, 5),
        |r, _| {
            let p = r.position();
            // The noisy moves are the legal moves that capture, in the game's order.
            let mut noisy = MoveList::new();
            p.noisy_moves(&mut noisy);
            let moves = p.moves();
            let captures: Vec<Move> = moves.iter().copied().filter(|&m| p.is_capture(m)).collect();
            assert_eq!(noisy.to_vec(), captures, "{p}");
            // The text reads back, and the legal moves are the ones without a reason.
            assert_eq!(pos(&p.to_string()), *p);
            for m in nearby_moves() {
                let legal = p.outcome().is_none() && moves.contains(&m);
                assert_eq!(p.why_illegal(m).is_none(), legal, "{p} {m}");
            }
        },
    );
    assert!(stats.count(Outcome::Win(WHITE)) > 0 && stats.count(Outcome::Win(BLACK)) > 0);
    let (shape, _) = check_evaluator(
        |_| Breakthrough::start(),
        &SideToMove(BreakthroughEval),
        &RandomPlay::new(100, 6),
    );
    assert_eq!(shape, Shape::ZeroSum);
}

#[test]
fn every_step_has_its_own_index() {
    let mut seen = [[false; Move::INDICES]; 2];
    for side in [WHITE, BLACK] {
        for from in 0..36u8 {
            for to in 0..36u8 {
                let m = Move::new(from, to).unwrap();
                let (rank_step, file_step) = (
                    i32::from(to / 6) - i32::from(from / 6),
                    i32::from(to % 6) - i32::from(from % 6),
                );
                let forward = if side == WHITE { 1 } else { -1 };
                assert!(m.index() < Move::INDICES);
                if rank_step == forward && file_step.abs() <= 1 {
                    assert!(!seen[side][m.index()], "{m}");
                    seen[side][m.index()] = true;
                }
            }
        }
    }
}
