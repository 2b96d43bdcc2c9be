//! The 20 complete games recorded from the COMP30024 2019 course referee: at every turn the
//! legal action set equals the referee's exactly, the position after the action equals the
//! recorded one, and each game ends with the recorded result on the recorded turn.

use plyforge_chexers::search::{DrawKind, Game, MoveList, Outcome, Record};
use plyforge_chexers::{player_letter, Move, Position};
use serde_json::Value;

const GAMES: &str = include_str!("data/chexers-referee-games.jsonl");

fn result_text(o: Outcome) -> String {
    match o {
        Outcome::Win(p) => format!("winner: {}", player_letter(p)),
        Outcome::Draw(DrawKind::TurnLimit) => "draw: turns".to_string(),
        Outcome::Draw(DrawKind::Repetition) => "draw: repetition".to_string(),
        other => format!("{other:?}"),
    }
}

#[test]
fn every_turn_of_every_referee_game() {
    let mut games = 0;
    let mut turns = 0;
    let mut results = std::collections::BTreeMap::new();
    for (g, line) in GAMES.lines().enumerate() {
        let game: Value = serde_json::from_str(line).unwrap();
        let moves = game["moves"].as_array().unwrap();
        let plies = game["plies"].as_array().unwrap();
        assert_eq!(moves.len(), plies.len());
        let first: Position = plies[0]["pos"].as_str().unwrap().parse().unwrap();
        assert_eq!(first, Position::start(), "game {g} starts elsewhere");
        let mut record = Record::new(first);
        for (t, (mv, ply)) in moves.iter().zip(plies).enumerate() {
            let here = record.position();
            assert_eq!(record.result(), None, "game {g} ended early at turn {t}");
            assert_eq!(
                here.to_string(),
                ply["pos"].as_str().unwrap(),
                "game {g} turn {t}"
            );
            // The legal set, compared as the referee's sorted text list.
            let mut ours: Vec<String> = record.legal_moves().iter().map(Move::to_string).collect();
            ours.sort();
            let theirs: Vec<String> = ply["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            assert_eq!(
                ours, theirs,
                "legal actions differ in game {g} turn {t}: {here}"
            );
            let mv: Move = mv.as_str().unwrap().parse().unwrap();
            assert_eq!(here.why_illegal(mv), None);
            record.play(mv).unwrap();
            let now = record.position();
            assert_eq!(
                now.to_string(),
                ply["next"].as_str().unwrap(),
                "game {g} turn {t}"
            );
            assert_eq!(now.key(), now.recompute_key());
            turns += 1;
        }
        let result = record.result().expect("the game should be over");
        assert_eq!(
            result_text(result),
            game["result"].as_str().unwrap(),
            "game {g}"
        );
        *results.entry(result_text(result)).or_insert(0) += 1;
        games += 1;
    }
    assert_eq!(games, 20);
    assert_eq!(turns, 3628); // the sum of the games' lengths in the file
                             // The vectors hold one turn-limit draw and no repetition draw.
    assert_eq!(results.get("draw: turns"), Some(&1));
}

#[test]
fn legal_lists_match_through_the_game_trait_too() {
    // The same comparison straight on Position (not through Record) for the first game.
    let game: Value = serde_json::from_str(GAMES.lines().next().unwrap()).unwrap();
    for ply in game["plies"].as_array().unwrap() {
        let pos: Position = ply["pos"].as_str().unwrap().parse().unwrap();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        assert_eq!(moves.len(), ply["legal"].as_array().unwrap().len());
    }
}
