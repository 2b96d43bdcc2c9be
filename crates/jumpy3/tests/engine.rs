//! The game plugged into the engine: perfect play through the table evaluator, and whole
//! games through `Record`.

use std::sync::Arc;

use plyforge_jumpy3::search::{Game, Limits, Outcome, Record, Search};
use plyforge_jumpy3::solve::{perfect_move, Table, TableEval, Value};
use plyforge_jumpy3::{DefaultEval, Position, BLACK, WHITE};

#[test]
fn with_the_table_a_depth_one_search_plays_perfectly() {
    let table = Arc::new(Table::build_up_to(1));
    let config = plyforge_jumpy3::engine_config().with_tt_mib(1);
    let mut search = Search::new(config, TableEval::new(table.clone()));
    let mut checked = 0;
    // Every position with the kings on squares 3..14 and one pawn each on fixed squares.
    for wk in 2..14u16 {
        for bk in 2..14u16 {
            let (wp, bp) = (1u16 << 0, 1u16 << 15);
            if wk == bk {
                continue;
            }
            for side in [WHITE, BLACK] {
                let p = Position::from_bits(wp | 1 << wk, bp | 1 << bk, 1 << wk | 1 << bk, side)
                    .unwrap();
                let r = search.run(&p, &[], Limits::depth(1), |_| {});
                let best = table.best_moves(&p);
                let mv = r.best.unwrap();
                // Any best move: same value as the table's first choice.
                assert_eq!(
                    table.value(&p.after(mv)),
                    table.value(&p.after(perfect_move(&table, &p).unwrap())),
                    "{p}: engine {mv}, table {best:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200);
}

#[test]
fn the_table_evaluator_falls_back_outside_its_table() {
    let table = Arc::new(Table::build_up_to(0));
    let eval = TableEval::new(table);
    use plyforge_jumpy3::search::Evaluator;
    let p = Position::start();
    assert_eq!(eval.evaluate(&p), DefaultEval::default().evaluate(&p));
    let kings: Position = "...W......B..... w".parse().unwrap();
    let v = eval.evaluate(&kings);
    assert_eq!(v[0], -v[1]);
}

#[test]
fn engine_games_end_and_a_winning_side_wins() {
    // From a position the one-pawn table calls a loss for White (to move) in 24, Black's
    // perfect play beats the engine's best defence, in at most 24 plies.
    let table = Table::build_up_to(1);
    let p: Position = "......W..B....b. w".parse().unwrap();
    assert_eq!(table.value(&p), Value::Loss(24));
    let mut record = Record::new(p);
    let mut engine = Search::new(plyforge_jumpy3::engine_config(), DefaultEval::default());
    while record.result().is_none() {
        let q = *record.position();
        let m = if q.to_move() == BLACK {
            perfect_move(&table, &q).unwrap()
        } else {
            let r = engine.run(&q, record.history_keys(), Limits::depth(8), |_| {});
            r.best.unwrap()
        };
        record.play(m).unwrap();
    }
    assert_eq!(record.result(), Some(Outcome::Win(BLACK)));
    assert!(record.moves().len() <= 24);
}

#[test]
fn the_engine_returns_a_legal_move_from_the_start() {
    for threads in [1, 2] {
        let config = plyforge_jumpy3::engine_config().with_threads(threads);
        let mut engine = Search::new(config, DefaultEval::default());
        let p = Position::start();
        let r = engine.run(&p, &[], Limits::depth(10), |_| {});
        assert_eq!(p.why_illegal(r.best.unwrap()), None);
        assert_eq!(r.depth, 10);
        assert_eq!(r.pv.first(), r.best.as_ref());
    }
}
