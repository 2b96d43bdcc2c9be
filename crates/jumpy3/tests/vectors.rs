//! Every vector of `tests/data/jumpy3-moves.jsonl` (a copy of the shared vectors): the legal
//! moves of each position and the result of each.

use plyforge_jumpy3::search::{Game, MoveList, Outcome};
use plyforge_jumpy3::{Move, Position, BLACK, WHITE};

const VECTORS: &str = include_str!("data/jumpy3-moves.jsonl");

#[test]
fn every_vector_matches() {
    let mut count = 0;
    for (n, line) in VECTORS.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let text = v["pos"].as_str().expect("pos");
        let p: Position = text
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {text}: {e}", n + 1));
        assert_eq!(p.to_string(), text, "line {}: round trip", n + 1);
        let expected = v["moves"].as_object().expect("moves");
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        let mut got: Vec<String> = moves.iter().map(Move::to_string).collect();
        let mut want: Vec<String> = expected.keys().cloned().collect();
        // Legal moves come in square order.
        let squares: Vec<u8> = moves.iter().map(|m| m.square()).collect();
        assert!(squares.windows(2).all(|w| w[0] < w[1]), "line {}", n + 1);
        got.sort();
        want.sort();
        assert_eq!(got, want, "line {}: {text}", n + 1);
        for (mv, result) in expected {
            let m: Move = mv.parse().expect("a move");
            assert_eq!(p.why_illegal(m), None);
            let child = p.after(m);
            assert_eq!(child.key(), child.recompute_key());
            match result.as_str().expect("a result") {
                "WIN:w" => assert_eq!(child.outcome(), Some(Outcome::Win(WHITE)), "{text} {mv}"),
                "WIN:b" => assert_eq!(child.outcome(), Some(Outcome::Win(BLACK)), "{text} {mv}"),
                r => {
                    assert_eq!(child.to_string(), r, "line {}: {text} move {mv}", n + 1);
                    assert_eq!(child.outcome(), None);
                }
            }
            count += 1;
        }
    }
    assert!(count > 1500, "only {count} moves checked");
}
