//! Every vector of `tests/data/chaosclock-small.jsonl` (from an independent implementation):
//! the legal walks and placements, the position or result after each, the exact result code
//! and the set of best moves.

use std::collections::BTreeSet;

use plyforge_chaosclock::search::{Game, MoveList, Outcome};
use plyforge_chaosclock::{solve, Move, Position, EVEN, ODD};

const DATA: &str = include_str!("data/chaosclock-small.jsonl");

fn vectors() -> Vec<serde_json::Value> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid JSON"))
        .collect()
}

fn result_word(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(p) if p == ODD => "O",
        Outcome::Win(p) if p == EVEN => "E",
        Outcome::BothWin => "BW",
        Outcome::BothLose => "BL",
        _ => "?",
    }
}

#[test]
fn there_are_one_hundred_vectors() {
    assert_eq!(vectors().len(), 100);
}

#[test]
fn legal_moves_and_their_results() {
    for v in vectors() {
        let text = v["pos"].as_str().unwrap();
        let pos: Position = text.parse().unwrap();
        assert_eq!(pos.to_string(), text, "round trip");
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        assert_eq!(
            moves.last(),
            Some(&Move::Pass),
            "{text}: pass is always legal"
        );
        let got: BTreeSet<String> = moves
            .iter()
            .filter(|&&m| m != Move::Pass)
            .map(|m| m.to_string())
            .collect();
        let map = v["moves"].as_object().unwrap();
        let want: BTreeSet<String> = map.keys().cloned().collect();
        assert_eq!(got, want, "{text}: legal moves");
        for (mv, res) in map {
            let m: Move = mv.parse().unwrap();
            assert_eq!(pos.why_illegal(m), None, "{text} {mv}");
            let after = pos.after(m);
            let res = res.as_str().unwrap();
            match res.strip_prefix("RESULT:") {
                Some(r) => {
                    let o = after
                        .outcome()
                        .unwrap_or_else(|| panic!("{text} {mv}: not over"));
                    assert_eq!(result_word(o), r, "{text} {mv}");
                }
                None => {
                    assert_eq!(after.outcome(), None, "{text} {mv}");
                    assert_eq!(after.to_string(), res, "{text} {mv}");
                }
            }
        }
    }
}

#[test]
fn result_codes_and_best_moves() {
    for v in vectors() {
        let text = v["pos"].as_str().unwrap();
        let pos: Position = text.parse().unwrap();
        let s = solve::solve(&pos);
        let best: BTreeSet<String> = s.best.iter().map(|m| m.to_string()).collect();
        let want: BTreeSet<String> = v["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            (s.value.code() as u64, result_word(s.outcome), &best),
            (
                v["code"].as_u64().unwrap(),
                v["outcome"].as_str().unwrap(),
                &want
            ),
            "{text}"
        );
    }
}
