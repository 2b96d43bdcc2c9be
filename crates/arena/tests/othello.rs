//! The 6×6 Othello of `examples/othello` (the example game `example_games::othello`),
//! registered through the public API: it passes the checks every game passes (its sparse
//! features and their changes too), its action numbers name its moves, and its picture is
//! a board of squares with row 1 at the top.

#[path = "../examples/othello/game.rs"]
mod game;

use game::Othello;
use plyforge::encoding::{KindEncoding, StateEncoding};
use plyforge::{checks, register, view};

#[test]
fn it_passes_the_checks_every_game_passes() {
    let checks = register::<Othello>().expect("a name of its own").checks();
    assert_eq!(checks.random_play(200, 5).games, 200);
    for seed in 0..50u64 {
        let choices: Vec<u16> = (0..40).map(|i| (seed * 31 + i * 7) as u16).collect();
        checks.properties(seed, &choices);
    }
    for input in ["start\nc2", "start\npass", "start\nz9", "x/o x\n", ""] {
        checks.notation(input.as_bytes());
    }
    checks.features(20, 3);
    checks::features::<Othello>(5, 9);
}

#[test]
fn its_actions_observation_and_features_are_the_discs_seen_by_each_player() {
    let kind = register::<Othello>().expect("a name of its own");
    assert_eq!(kind.num_distinct_actions().unwrap(), 37);
    let mut game = kind.new_game();
    assert_eq!(game.legal_actions().unwrap(), [8, 13, 22, 27]);
    assert_eq!(game.play_action(8).unwrap(), "c2");
    // x (Black) has c2, c3, d3, c4; o (White) d4.
    let x = game.observation(0).unwrap();
    assert_eq!(x[..36].iter().sum::<f32>(), 4.0);
    assert_eq!(x[36..72].iter().sum::<f32>(), 1.0);
    assert_eq!(x[72..].iter().sum::<f32>(), 0.0, "o is to move");
    let o = game.observation(1).unwrap();
    assert_eq!(o[..72], [&x[36..72], &x[..36]].concat()[..]);
    assert_eq!(o[72..].iter().sum::<f32>(), 36.0);
    assert_eq!(game.features(0).unwrap(), [8, 14, 15, 20, 36 + 21]);
    assert_eq!(
        game.features(1).unwrap(),
        [21, 36 + 8, 36 + 14, 36 + 15, 36 + 20]
    );
}

#[test]
fn its_picture_is_a_board_of_squares_row_1_at_the_top() {
    let kind = register::<Othello>().expect("a name of its own");
    let board = view::board(&kind.new_game()).expect("a picture");
    assert_eq!(board.moves.len(), 4);
    let c2 = board
        .moves
        .iter()
        .find(|m| m.text == "c2")
        .expect("c2 is legal");
    assert_eq!((c2.from.as_deref(), c2.to.as_deref()), (None, Some("c2")));
}
