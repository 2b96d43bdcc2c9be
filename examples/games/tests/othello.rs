//! 6×6 Othello: the notation and its errors, passes and the end of the game, the reasons
//! for illegal moves, the conformance checks.

use example_games::othello::{
    Move, Othello, OthelloEval, ParseMoveError, ParsePositionError, O, X,
};
use example_games::search::conformance::{check_evaluator, random_play, RandomPlay, Shape};
use example_games::search::{DrawKind, Game, Outcome, SideToMove};

fn pos(text: &str) -> Othello {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is a position: {e}"))
}

#[test]
fn positions_round_trip_and_bad_text_is_named() {
    let start = Othello::start();
    assert_eq!(
        start.to_string(),
        "....../....../..ox../..xo../....../...... x"
    );
    assert_eq!(pos(&start.to_string()), start);
    assert_eq!(
        (start.at(14), start.at(15), start.at(0)),
        (Some(O), Some(X), None)
    );
    use ParsePositionError::*;
    for (bad, want) in [
        (
            "....../....../..ox../..xo../....../......",
            Fields { found: 1 },
        ),
        ("....../..ox../..xo../....../...... x", Rows { found: 5 }),
        (
            "....../....../..ox../..xo.../....../...... x",
            RowLength { row: 4, found: 7 },
        ),
        (
            "....../....../..ox../..xo../....w./...... x",
            Cell {
                cell: "e5".into(),
                found: 'w',
            },
        ),
        (
            "....../....../..ox../..xo../....../...... b",
            Side { found: "b".into() },
        ),
    ] {
        assert_eq!(bad.parse::<Othello>(), Err(want), "{bad}");
    }
    let e = "....../..ox../..xo../....../...... x"
        .parse::<Othello>()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the board has 5 rows separated by '/', not 6"
    );
}

#[test]
fn moves_are_cells_or_pass() {
    let m: Move = "c4".parse().unwrap();
    assert_eq!(m.cell(), Some(20));
    assert_eq!(m.index(), 20);
    assert_eq!(Move::PASS.index(), 36);
    assert_eq!(Move::INDICES, 37);
    assert_eq!(" pass ".parse::<Move>(), Ok(Move::PASS));
    assert_eq!(Move::PASS.cell(), None);
    for (bad, want) in [
        ("", ParseMoveError::Empty),
        ("g1", ParseMoveError::NotAMove("g1".into())),
        ("c7", ParseMoveError::NotAMove("c7".into())),
        ("Pass", ParseMoveError::NotAMove("Pass".into())),
    ] {
        assert_eq!(bad.parse::<Move>(), Err(want), "{bad:?}");
    }
    for cell in 0..36 {
        let m = Move::new(cell).unwrap();
        assert_eq!(m.to_string().parse::<Move>(), Ok(m));
    }
}

#[test]
fn a_player_without_a_move_passes_and_the_game_ends_by_counting() {
    // o has no move (no line of x's discs ends on its disc), x has one (e6 flips d6).
    let p = pos("xxxxxx/xxxxxx/xxxxxx/xxxxxx/xxxxxx/xxxo.. o");
    assert_eq!(p.moves().to_vec(), [Move::PASS]);
    assert_eq!(p.why_illegal(Move::PASS), None);
    let why = p.why_illegal("e6".parse().unwrap()).unwrap().to_string();
    assert!(why.contains("must pass"), "{why}");
    let mut q = p;
    q.play(Move::PASS);
    assert_eq!(q.to_move(), X);
    assert_eq!(q.key(), q.recompute_key());
    assert_eq!(q.moves().to_vec(), ["e6".parse().unwrap()]);
    // Neither can move: the one with more discs wins.
    let full = pos("xxxxxx/xxxxxx/xxxxxx/oooooo/oooooo/oooooo x");
    assert_eq!(full.outcome(), Some(Outcome::Draw(DrawKind::Score)));
    assert!(full.moves().is_empty());
    let won = pos("xxxxxx/xxxxxx/xxxxxx/xxxxxx/oooooo/oooooo o");
    assert_eq!(won.outcome(), Some(Outcome::Win(X)));
    let why = won.why_illegal(Move::PASS).unwrap().to_string();
    assert!(why.contains("the game is over"), "{why}");
}

#[test]
fn illegal_moves_say_why() {
    let start = Othello::start();
    let why = |m: &str| start.why_illegal(m.parse().unwrap()).map(|e| e.to_string());
    assert_eq!(why("c2"), None);
    assert_eq!(why("c3").as_deref(), Some("c3 is taken"));
    assert_eq!(
        why("a1").as_deref(),
        Some("a disc on a1 flips none of the other player's")
    );
    assert_eq!(
        why("pass").as_deref(),
        Some("x has a move, and only a player without one passes")
    );
}

#[test]
fn conformance_and_evaluation() {
    let stats = random_play(
        |_| Othello::start(),
        &RandomPlay::new(300, 5),
        |r, _| {
            let p = r.position();
            assert_eq!(pos(&p.to_string()), *p);
            let moves = p.moves();
            let all = (0..36).filter_map(Move::new).chain([Move::PASS]);
            for m in all {
                let legal = p.outcome().is_none() && moves.contains(&m);
                assert_eq!(p.why_illegal(m).is_none(), legal, "{p} {m}");
            }
        },
    );
    assert!(stats.count(Outcome::Win(X)) > 0 && stats.count(Outcome::Win(O)) > 0);
    let (shape, _) = check_evaluator(
        |_| Othello::start(),
        &SideToMove(OthelloEval),
        &RandomPlay::new(100, 6),
    );
    assert_eq!(shape, Shape::ZeroSum);
}
