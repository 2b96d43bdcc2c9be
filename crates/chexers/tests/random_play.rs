//! The shared random-play check (`search::conformance`): seeded random games, and greedy
//! ones (which reach the exits), played to the end with Chexers' own end checks.

use plyforge_chexers::players::{Agent, Greedy};
use plyforge_chexers::search::conformance::{play_checked, random_play, RandomPlay};
use plyforge_chexers::search::{DrawKind, Outcome, Record};
use plyforge_chexers::{Position, TURN_LIMIT};

/// How each game ended must agree with the position and the record.
fn check_end(rec: &Record<Position>, _: &[plyforge_chexers::Move]) {
    let pos = rec.position();
    match rec.result() {
        None => {}
        Some(Outcome::Win(p)) => assert_eq!(pos.exits(p), 4),
        Some(Outcome::Draw(DrawKind::Repetition)) => assert_eq!(rec.occurrences(), 4),
        Some(Outcome::Draw(DrawKind::TurnLimit)) => assert_eq!(pos.turns(), TURN_LIMIT),
        Some(other) => panic!("Chexers cannot end in {other:?}"),
    }
    assert!(rec.len() <= TURN_LIMIT as usize);
}

#[test]
fn random_games_end_with_consistent_keys_and_notation() {
    let stats = random_play(|_| Position::start(), &RandomPlay::new(12, 7), check_end);
    assert_eq!(stats.games, 12);
}

#[test]
fn greedy_games_reach_four_exits() {
    let mut players: Vec<Greedy> = (0..12).map(Greedy::new).collect();
    let game = std::cell::Cell::new(0);
    let stats = play_checked(
        |i| {
            game.set(i);
            Position::start()
        },
        &RandomPlay::new(12, 11),
        |rec, _, _| {
            players[game.get()]
                .choose(rec.position())
                .expect("an action")
        },
        check_end,
    );
    let wins: usize = (0..3).map(|p| stats.count(Outcome::Win(p))).sum();
    assert!(wins > 0, "greedy self-play should produce some wins");
}
