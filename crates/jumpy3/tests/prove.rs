//! Proof-number search (`search::prove`) against the retrograde table: on random positions
//! with up to one pawn a side, `Prover::solve` gives the table's value (win or loss with
//! its distance, or draw) and the table's best moves. (Proving a draw means disproving
//! both sides' wins through cycles, which df-pn may not finish within its budget: such
//! positions may go unsolved, but only draws, and most positions are solved.)

use plyforge_jumpy3::search::prove::{Prover, Value};
use plyforge_jumpy3::search::rng::XorShift64Star;
use plyforge_jumpy3::search::{Evaluator, Game, Limits};
use plyforge_jumpy3::solve::{self, Table};
use plyforge_jumpy3::{DefaultEval, Position};

/// A random position with both kings and at most one pawn a side, not over.
fn random_position(rng: &mut XorShift64Star) -> Position {
    loop {
        let square = |rng: &mut XorShift64Star| 1u16 << rng.below(16);
        let (wk, bk) = (square(rng), square(rng));
        let wp = if rng.below(2) == 0 { 0 } else { square(rng) };
        let bp = if rng.below(2) == 0 { 0 } else { square(rng) };
        let (white, black) = (wk | wp, bk | bp);
        if wk == bk || white & black != 0 || wp & wk != 0 || bp & bk != 0 {
            continue;
        }
        if let Some(p) = Position::from_bits(white, black, wk | bk, rng.below(2)) {
            if p.outcome().is_none() {
                return p;
            }
        }
    }
}

#[test]
fn proof_search_agrees_with_the_table() {
    let table = Table::build_up_to(1);
    let mut rng = XorShift64Star::seeded(2024);
    let mut seen = [0usize; 4];
    for _ in 0..120 {
        let p = random_position(&mut rng);
        let mut prover =
            Prover::with_hint(|p: &Position, m| DefaultEval::default().move_hint(p, m));
        let want = match table.value(&p) {
            solve::Value::Win(n) => Value::Win(n),
            solve::Value::Loss(n) => Value::Loss(n),
            solve::Value::Draw => Value::Draw,
            other => panic!("{p}: a value this test does not know: {other:?}"),
        };
        let Some(s) = prover.solve(&p, &[p.repetition_key()], None, Limits::nodes(2_000_000))
        else {
            assert_eq!(want, Value::Draw, "{p}: not solved within the budget");
            seen[3] += 1;
            continue;
        };
        assert_eq!(s.value, want, "{p}");
        assert_eq!(s.best, table.best_moves(&p), "{p}: best moves");
        seen[match want {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            _ => 2,
        }] += 1;
    }
    assert!(seen[0] > 10 && seen[1] > 10 && seen[3] < 12, "{seen:?}");
}
