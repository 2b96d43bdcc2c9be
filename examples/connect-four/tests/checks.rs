//! Connect Four passes the checks every plyforge game passes (`plyforge::checks`): the
//! random-play conformance run, notation round trips, `play_from`, repetition counts, the
//! fuzz targets' properties on sample inputs, the encodings and the picture; and the
//! registry takes it beside the default games.

use connect_four_arena::{cell_name, ConnectFour};
use plyforge::encoding::{KindEncoding, StateEncoding};
use plyforge::search::rng::XorShift64Star;
use plyforge::{checks, register, view, GameAdapter, GameKind};

#[test]
fn it_joins_the_registry_beside_the_default_games() {
    let kind = register::<ConnectFour>().expect("a valid name of its own");
    assert_eq!(GameKind::from_name("connect-four").unwrap(), kind);
    assert!(GameKind::from_name("jumpy3").is_ok());
    assert_eq!(kind.players(), 2);
    assert!(
        kind.has_solver(),
        "proof-number search for every two-player game"
    );
    // Registering again gives the same handle.
    assert_eq!(register::<ConnectFour>().unwrap(), kind);
}

#[test]
fn its_evaluation_parameters_work() {
    checks::params::<ConnectFour>(30, 3);
    let names: Vec<&str> = ConnectFour::params().iter().map(|p| p.name).collect();
    assert_eq!(names, ["open_two", "open_three", "centre_stone"]);
}

#[test]
fn its_sparse_features_are_the_stones_seen_by_each_player() {
    checks::features::<ConnectFour>(30, 5);
    let kind = register::<ConnectFour>().expect("a valid name of its own");
    assert_eq!(kind.num_features().unwrap(), 98);
    let mut game = kind.new_game();
    game.play("4").unwrap();
    game.play("4").unwrap();
    // x on d1 (column 3, row 0: bit 21), o on d2 (bit 22).
    assert_eq!(game.features(0).unwrap(), [21, 49 + 22]);
    assert_eq!(game.features(1).unwrap(), [22, 49 + 21]);
}

#[test]
fn random_play_to_the_end() {
    let stats = checks::random_play::<ConnectFour>(300, 7);
    assert_eq!(stats.games, 300);
}

#[test]
fn properties_over_random_games() {
    let mut rng = XorShift64Star::seeded(11);
    for seed in 0..200u64 {
        let choices: Vec<u16> = (0..50).map(|_| rng.below(1000) as u16).collect();
        checks::notation_round_trips::<ConnectFour>(seed, &choices);
        checks::play_from_is_clone_and_play::<ConnectFour>(seed, &choices);
        checks::repetition_counts::<ConnectFour>(seed, &choices);
    }
}

#[test]
fn the_fuzz_properties_on_sample_inputs() {
    for input in [
        &b"start\n4"[..],
        b"......./......./......./......./......./...x... o\n4",
        b"......./......./......./......./......./...x... x\n4",
        b"garbage\n99",
        b"",
    ] {
        checks::notation::<ConnectFour>(input);
    }
    let mut rng = XorShift64Star::seeded(3);
    for _ in 0..200 {
        let bytes: Vec<u8> = (0..60).map(|_| rng.below(256) as u8).collect();
        checks::play::<ConnectFour>(&bytes);
    }
}

#[test]
fn action_numbers_are_the_columns() {
    let kind = GameKind::of::<ConnectFour>();
    assert_eq!(kind.num_distinct_actions().unwrap(), 7);
    let mut game = kind.new_game();
    assert_eq!(game.legal_actions().unwrap(), [3, 2, 4, 1, 5, 0, 6]);
    assert_eq!(game.play_action(3).unwrap(), "4");
    let obs = game.observation(0).unwrap();
    assert_eq!(obs.len(), 3 * 6 * 7);
    // x's stone on d1 (plane 0 for x); o to move (plane 2 empty for x).
    assert_eq!(obs[3], 1.0);
    assert_eq!(obs[2 * 42..].iter().sum::<f32>(), 0.0);
    assert!(game.play_action(7).is_err());
}

#[test]
fn the_picture_has_every_cell_and_each_move_lands_where_its_stone_falls() {
    let mut game = GameKind::of::<ConnectFour>().new_game();
    for mv in ["4", "4", "4"] {
        game.play(mv).unwrap();
    }
    let board = view::board(&game).expect("a picture");
    assert_eq!(board.spots.len(), 42);
    assert_eq!(board.pieces.len(), 3);
    let four = board.moves.iter().find(|m| m.text == "4").unwrap();
    assert_eq!(
        (four.from.as_deref(), four.to.as_deref()),
        (None, Some("d4"))
    );
    let last = board.last.unwrap();
    assert_eq!(last.to.as_deref(), Some("d3"));
    assert_eq!(cell_name(6, 5), "g6");
}

#[test]
fn bad_input_is_named() {
    let kind = GameKind::of::<ConnectFour>();
    let e = kind.game_from("......./x...... o").unwrap_err();
    assert!(e.to_string().starts_with("position"), "{e}");
    assert!(
        std::error::Error::source(&e).is_some(),
        "the game's own error"
    );
    let mut game = kind.new_game();
    let e = game.play("8").unwrap_err();
    assert!(e.to_string().contains("no column 8"), "{e}");
}
