//! The shared vectors (copied into tests/data): legal move sets, positions after each move,
//! results, and whole games.

use std::collections::{BTreeMap, BTreeSet};

use plyforge_throne::{player_letter, Move, Position};
use search::{Game, Outcome, Record};
use serde_json::Value;

const MOVES: &str = include_str!("data/throne-moves.jsonl");
const GAMES: &str = include_str!("data/throne-games.jsonl");

fn result_line(o: Outcome) -> String {
    o.notation(player_letter)
}

#[test]
fn move_vectors() {
    let mut lines = 0;
    let mut moves_checked = 0;
    let mut results_checked = 0;
    for (n, line) in MOVES.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).expect("json");
        let text = v["pos"].as_str().expect("pos");
        let pos: Position = text
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        assert_eq!(pos.to_string(), text, "line {}: round trip", n + 1);
        assert_eq!(pos.key(), pos.recompute_key());
        let prisoners = v["prisoners"].as_u64().expect("prisoners") as usize;
        assert_eq!(
            pos.prisoners(pos.to_move()).len(),
            prisoners,
            "line {}: prisoners of the side to move",
            n + 1
        );
        let expected: BTreeMap<String, String> = v["moves"]
            .as_object()
            .expect("moves")
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().expect("string").to_string()))
            .collect();
        let legal: BTreeSet<String> = pos.moves().iter().map(|m| m.to_string()).collect();
        let want: BTreeSet<String> = expected.keys().cloned().collect();
        assert_eq!(legal, want, "line {}: legal moves of {text}", n + 1);
        for (mv_text, after) in &expected {
            let mv: Move = mv_text.parse().expect("move parses");
            assert_eq!(&mv.to_string(), mv_text);
            assert!(pos.why_illegal(mv).is_none());
            let mut p = pos.clone();
            p.play(mv);
            assert_eq!(p.key(), p.recompute_key(), "line {}: {mv_text}", n + 1);
            let (result, after_pos) = match after.strip_prefix("RESULT:") {
                Some(rest) => {
                    let (r, a) = rest.split_once('|').expect("RESULT:<result>|<pos>");
                    (Some(r.to_string()), a)
                }
                None => (None, after.as_str()),
            };
            assert_eq!(
                p.to_string(),
                after_pos,
                "line {}: {text} after {mv_text}",
                n + 1
            );
            assert_eq!(
                p.outcome().map(result_line),
                result,
                "line {}: result after {mv_text}",
                n + 1
            );
            if result.is_some() {
                results_checked += 1;
            }
            moves_checked += 1;
        }
        lines += 1;
    }
    assert_eq!(lines, 200);
    assert!(moves_checked > 1000, "{moves_checked}");
    assert!(results_checked > 0);
    eprintln!("{lines} positions, {moves_checked} moves, {results_checked} results");
}

#[test]
fn game_vectors() {
    let mut games = 0;
    for (n, line) in GAMES.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).expect("json");
        let moves: Vec<&str> = v["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("move"))
            .collect();
        let mut record = Record::new(Position::start());
        for (i, m) in moves.iter().enumerate() {
            assert!(
                record.result().is_none(),
                "game {}: over before move {i}",
                n + 1
            );
            let mv: Move = m.parse().expect("move parses");
            let legal = record.legal_moves();
            assert!(
                legal.contains(&mv),
                "game {}: move {i} {m} illegal in {}",
                n + 1,
                record.position()
            );
            record.play(mv).expect("legal");
            assert_eq!(record.position().key(), record.position().recompute_key());
        }
        assert_eq!(
            record.position().to_string(),
            v["final"].as_str().expect("final"),
            "game {}",
            n + 1
        );
        assert_eq!(
            record.result().map(result_line).as_deref(),
            Some(v["result"].as_str().expect("result")),
            "game {}",
            n + 1
        );
        games += 1;
    }
    assert_eq!(games, 10);
}
