//! The game with a board of squares that the page's browser tests draw (`cargo xtask web`,
//! `tests/browser/test_square_board.py`): the 6×6 Breakthrough of `examples/breakthrough`
//! (the example game `example_games::breakthrough`), registered through the public API. It
//! passes the checks every game passes, and its picture is the chequered board
//! `Layout::Squares` describes: square (column c, row r) a unit square centred on (c, r),
//! the files and ranks named as its cells are.

#[path = "../examples/breakthrough/game.rs"]
mod game;

use game::Breakthrough;
use plyforge::register;
use plyforge::view::{self, Layout, Role, Shape};

#[test]
fn it_passes_the_checks_every_game_passes() {
    let checks = register::<Breakthrough>()
        .expect("a name of its own")
        .checks();
    assert_eq!(checks.random_play(200, 5).games, 200);
    checks.features(20, 4);
    for seed in 0..50u64 {
        let choices: Vec<u16> = (0..40).map(|i| (seed * 31 + i * 7) as u16).collect();
        checks.properties(seed, &choices);
    }
    for input in [
        "start\nc2-c3",
        "start\nc2xd3",
        "start\na1-a2",
        "bb/ww w\n",
        "",
    ] {
        checks.notation(input.as_bytes());
    }
}

#[test]
fn its_picture_is_a_chequered_board_of_squares() {
    let kind = register::<Breakthrough>().expect("a name of its own");
    let mut game = kind.new_game();
    game.play("c2-c3").expect("a legal move");
    let board = view::board(&game).expect("a picture");
    let Layout::Squares { files, ranks } = board.layout else {
        panic!("a board of squares: {:?}", board.layout);
    };
    assert_eq!(files, ["a", "b", "c", "d", "e", "f"]);
    assert_eq!(ranks, ["6", "5", "4", "3", "2", "1"]);
    assert_eq!(board.spots.len(), 36);
    for s in &board.spots {
        assert_eq!(s.role, Role::Cell);
        let Shape::Rect { x, y, w, h } = s.shape else {
            panic!("{}: a square", s.id);
        };
        // The cell's name is its column's file and its row's rank.
        let name = format!("{}{}", files[x as usize], ranks[y as usize]);
        assert_eq!((s.id.as_str(), w, h), (name.as_str(), 1.0, 1.0));
    }
    assert_eq!(board.pieces.len(), 24);
    let last = board.last.expect("the last move");
    assert_eq!(
        (last.from.as_deref(), last.to.as_deref()),
        (Some("c2"), Some("c3"))
    );
    assert!(board
        .moves
        .iter()
        .all(|m| m.from.is_some() && m.to.is_some()));
}

#[test]
fn its_actions_name_each_move_once_and_its_observation_counts_the_pawns() {
    use plyforge::encoding::{KindEncoding, StateEncoding};
    use plyforge::search::rng::XorShift64Star;
    let kind = register::<Breakthrough>().expect("a name of its own");
    assert_eq!(kind.num_distinct_actions().unwrap(), 216);
    for seed in 1..=30 {
        let mut rng = XorShift64Star::seeded(seed);
        let mut state = kind.new_game();
        while !state.is_over() {
            let moves = state.legal_moves();
            let actions = state.legal_actions().unwrap();
            let mut seen = std::collections::HashSet::new();
            for (mv, &a) in moves.iter().zip(&actions) {
                assert!(seen.insert(a), "{state}: action {a} twice");
                assert_eq!(&kind.action_to_move(a).unwrap(), mv);
            }
            let pawns = |letter: char| {
                let board = state.position();
                let board = board.split(' ').next().unwrap().to_string();
                board.chars().filter(|&c| c == letter).count() as f32
            };
            for (player, (own, other)) in [('w', 'b'), ('b', 'w')].into_iter().enumerate() {
                let obs = state.observation(player).unwrap();
                let sum = |plane: usize| obs[plane * 36..(plane + 1) * 36].iter().sum::<f32>();
                assert_eq!((sum(0), sum(1)), (pawns(own), pawns(other)), "{state}");
                let to_move = state.position().ends_with(&format!(" {own}"));
                assert_eq!(sum(2), if to_move { 36.0 } else { 0.0 }, "{state}");
            }
            state.play_index(rng.below(moves.len())).unwrap();
        }
    }
}
