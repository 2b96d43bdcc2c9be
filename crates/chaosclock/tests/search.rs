//! The recommended engine (max^n with its table of score vectors) gives the values of max^n
//! without a table, at every depth, on one thread and on several, from positions along random
//! games (with the game's history, so that repetitions count).

use plyforge_chaosclock::search::{Limits, Record, Scores, Search};
use plyforge_chaosclock::{engine_config, DefaultEval, Position};

/// Every iteration's score vector of a search of `record`'s position to `depth`.
fn vectors(threads: usize, tt: bool, record: &Record<Position>, depth: u32) -> Vec<Scores> {
    let config = engine_config()
        .with_threads(threads)
        .with_tt_mib(if tt { 4 } else { 0 });
    let mut engine = Search::new(config, DefaultEval);
    let mut out = Vec::new();
    // Twice: the second run finds the first one's vectors in the table.
    for _ in 0..2 {
        out.clear();
        engine.run(
            record.position(),
            record.history_keys(),
            Limits::depth(depth),
            |r| out.push(r.scores),
        );
    }
    out
}

#[test]
fn the_table_and_the_threads_keep_max_n_values() {
    let mut rng = plyforge_chaosclock::search::rng::XorShift64Star::seeded(11);
    let mut compared = 0;
    for game in 0..8 {
        let mut record = Record::new(Position::start());
        for ply in 0..40 {
            if record.result().is_some() {
                break;
            }
            if ply % 3 == game % 3 {
                let want = vectors(1, false, &record, 5);
                assert_eq!(want.len(), 5);
                for (threads, tt) in [(1, true), (2, true), (3, true)] {
                    assert_eq!(
                        vectors(threads, tt, &record, 5),
                        want,
                        "game {game} ply {ply} threads {threads} table {tt}: {}",
                        record.position()
                    );
                }
                compared += 1;
            }
            let moves = record.legal_moves();
            let mv = moves[rng.below(moves.len())];
            record.play(mv).expect("a legal move");
        }
    }
    assert!(compared >= 20, "{compared}");
}
