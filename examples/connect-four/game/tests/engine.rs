//! The engine's values equal brute-force minimax at every depth, with 1 and 2 threads, with
//! and without the table, and through the one-call search.

use connect_four::search::{analyse, reference, Config, Game, Limits, Search, SideToMove};
use connect_four::{engine_config, DefaultEval, Position};

fn positions() -> Vec<Position> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().parse().unwrap())
        .fold(Vec::new(), |mut v: Vec<Position>, p| {
            if !v.contains(&p) {
                v.push(p);
            }
            v
        })
}

#[test]
fn values_equal_minimax_at_every_depth() {
    let eval = SideToMove(DefaultEval);
    let depth = 6;
    for p in positions() {
        let want: Vec<i32> = (0..=depth)
            .map(|d| reference::minimax(&p, &eval, d, &[], true))
            .collect();
        for config in [
            engine_config(),
            engine_config().with_threads(2),
            Config::default().with_tt_mib(0),
            Config::default()
                .with_quiescence(false)
                .with_aspiration(false),
        ] {
            let mut engine = Search::new(config.clone(), eval);
            for round in 0..2 {
                let r = engine.run(&p, &[], Limits::depth(depth), |r| {
                    assert_eq!(
                        r.score, want[r.depth as usize],
                        "{p} {config:?} round {round}"
                    );
                });
                assert_eq!(r.depth, depth);
                assert!(p.moves().contains(&r.best.unwrap()));
            }
        }
        assert_eq!(analyse(&p, eval, Limits::depth(4)).score, want[4]);
    }
}
