//! The search signature is deterministic: the fixed bench suite gives the same nodes, scores
//! and moves when run again (one thread), so its total changes only with search behaviour.

use benches::signature::{engine_lines, game_lines, total};
use plyforge::{chexers, throne};

#[test]
fn the_engine_cases_repeat_exactly() {
    let a = engine_lines();
    assert_eq!(a, engine_lines());
    assert!(a.iter().all(|l| l.nodes > 0 && l.best != "None"));
}

#[test]
fn the_game_searches_repeat_exactly() {
    let a = game_lines::<chexers::Position>();
    let b = game_lines::<chexers::Position>();
    assert_eq!(a, b);
    assert_eq!(a.len(), benches::data::chexers().len());
    let t = game_lines::<throne::Position>();
    assert_eq!(t, game_lines::<throne::Position>());
    assert!(total(&t) > 0);
}
