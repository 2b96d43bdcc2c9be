//! The shared random-play check: seeded random games (and greedy ones, which reach the exits)
//! played to the end through `search::Record`, checking at every step that the incremental key
//! equals a recomputed one, that the position and every legal action survive a
//! Display -> FromStr round trip, that there is a legal action until the end, and that the
//! game ends.

use chexers::players::{Agent, Greedy, Random};
use chexers::search::{DrawKind, Game, Outcome, Record};
use chexers::{Move, Position, TURN_LIMIT};

fn play_out(agent: &mut dyn Agent) -> (Outcome, usize) {
    let mut rec = Record::new(Position::start());
    loop {
        let pos = rec.position().clone();
        assert_eq!(pos.key(), pos.recompute_key(), "{pos}");
        let text = pos.to_string();
        assert_eq!(text.parse::<Position>().as_ref(), Ok(&pos));
        if let Some(result) = rec.result() {
            assert!(rec.legal_moves().is_empty());
            match result {
                Outcome::Win(p) => assert_eq!(pos.exits(p), 4),
                Outcome::Draw(DrawKind::Repetition) => assert_eq!(rec.occurrences(), 4),
                Outcome::Draw(DrawKind::TurnLimit) => assert_eq!(pos.turns(), TURN_LIMIT),
                other => panic!("Chexers cannot end in {other:?}"),
            }
            return (result, rec.moves().len());
        }
        let moves = rec.legal_moves();
        assert!(!moves.is_empty(), "no legal action before the end: {pos}");
        for &m in &moves {
            assert_eq!(m.to_string().parse::<Move>(), Ok(m));
            assert_eq!(pos.why_illegal(m), None);
        }
        let m = agent.choose(&pos).expect("an action");
        assert!(moves.contains(&m));
        rec.play(m).unwrap();
        assert!(rec.moves().len() <= TURN_LIMIT as usize);
    }
}

#[test]
fn random_games_end_with_consistent_keys_and_notation() {
    for seed in 0..12 {
        let (result, len) = play_out(&mut Random::new(seed));
        if let Outcome::Draw(DrawKind::TurnLimit) = result {
            assert_eq!(len, TURN_LIMIT as usize);
        }
    }
}

#[test]
fn greedy_games_reach_four_exits() {
    let mut wins = 0;
    for seed in 0..12 {
        let (result, _) = play_out(&mut Greedy::new(seed));
        if matches!(result, Outcome::Win(_)) {
            wins += 1;
        }
    }
    assert!(wins > 0, "greedy self-play should produce some wins");
}
