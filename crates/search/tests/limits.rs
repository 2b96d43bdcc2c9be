//! Limits and control: time, clock, nodes, the stop flag, determinism, reports.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
use plyforge_search::{Algorithm, Clock, Config, Game, Limits, MoveList, Parallel, Record, Search};

/// A tree far too big to finish: 4 to 8 moves, barely any transpositions, 200 levels.
fn big() -> Synthetic {
    Synthetic::new(Spec {
        seed: 99,
        min_branching: 4,
        max_branching: 8,
        width: 1 << 40,
        length: 200,
        terminal_per_mille: 5,
        ..Spec::default()
    })
}

fn engine(threads: usize, algorithm: Algorithm) -> Search<Synthetic, SyntheticEval> {
    Search::new(
        Config::default()
            .with_threads(threads)
            .with_tt_mib(4)
            .with_algorithm(algorithm),
        SyntheticEval,
    )
}

fn legal(g: &Synthetic, m: <Synthetic as Game>::Move) -> bool {
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    moves.contains(&m)
}

#[test]
fn movetime_is_respected() {
    for (threads, algorithm) in [
        (1, Algorithm::AlphaBeta),
        (2, Algorithm::AlphaBeta),
        (1, Algorithm::MaxN),
        (2, Algorithm::MaxN),
        (2, Algorithm::BestReply),
    ] {
        let start = Instant::now();
        let r = engine(threads, algorithm).run(
            &big(),
            &[],
            Limits::movetime(Duration::from_millis(50)),
            |_| {},
        );
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        // On a busy machine even the first iteration may not finish in time; the answer is
        // then the first legal move (depth 0).
        assert!(legal(&big(), r.best.unwrap()));
        assert_eq!(r.pv.first(), r.best.as_ref());
    }
}

#[test]
fn clock_is_never_overstepped() {
    for moves_to_go in [None, Some(1), Some(5)] {
        let mut clock =
            Clock::new(Duration::from_millis(2000)).with_increment(Duration::from_millis(10));
        clock.moves_to_go = moves_to_go;
        let limits = Limits::clock(clock);
        for mut e in [
            engine(1, Algorithm::AlphaBeta),
            engine(3, Algorithm::AlphaBeta),
        ] {
            let start = Instant::now();
            let r = e.run(&big(), &[], limits, |_| {});
            assert!(start.elapsed() < clock.remaining, "{:?}", start.elapsed());
            assert!(r.best.is_some());
        }
    }
}

#[test]
fn node_limit_is_respected() {
    for limit in [1, 100, 5000, 50_000] {
        let r = engine(1, Algorithm::AlphaBeta).run(&big(), &[], Limits::nodes(limit), |_| {});
        assert!(r.nodes <= limit, "{} > {limit}", r.nodes);
        assert!(legal(&big(), r.best.unwrap()));
        let r = engine(1, Algorithm::MaxN).run(&big(), &[], Limits::nodes(limit), |_| {});
        assert!(r.nodes <= limit, "{} > {limit}", r.nodes);
    }
}

#[test]
fn stop_flag_stops_promptly() {
    for threads in [1, 3] {
        let mut e = engine(threads, Algorithm::AlphaBeta);
        let stop = e.stop_handle();
        stop.store(true, Ordering::Relaxed); // cleared when the run starts
        let start = Instant::now();
        let r = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
            });
            e.run(&big(), &[], Limits::default(), |_| {})
        });
        assert!(start.elapsed() < Duration::from_secs(2));
        assert!(r.best.is_some());
    }
}

#[test]
fn one_thread_is_deterministic() {
    for limits in [Limits::depth(7), Limits::nodes(30_000)] {
        let mut a = engine(1, Algorithm::AlphaBeta);
        let mut b = engine(1, Algorithm::AlphaBeta);
        let mut lines_a = Vec::new();
        let ra = a.run(&big(), &[], limits, |r| {
            lines_a.push((r.depth, r.score, r.nodes, r.pv.clone()))
        });
        let mut lines_b = Vec::new();
        let rb = b.run(&big(), &[], limits, |r| {
            lines_b.push((r.depth, r.score, r.nodes, r.pv.clone()))
        });
        assert_eq!(lines_a, lines_b);
        assert_eq!(
            (ra.best, ra.score, ra.nodes, ra.pv),
            (rb.best, rb.score, rb.nodes, rb.pv)
        );
    }
}

/// A reset engine searches as a new one does, whatever it searched before.
#[test]
fn a_reset_engine_searches_as_a_new_one() {
    let other = Synthetic::new(Spec {
        seed: 7,
        min_branching: 3,
        max_branching: 6,
        width: 1 << 30,
        length: 100,
        ..Spec::default()
    });
    for algorithm in [Algorithm::AlphaBeta, Algorithm::MaxN] {
        let report = |r: plyforge_search::Report<_>| (r.best, r.score, r.nodes, r.pv);
        let fresh = report(engine(1, algorithm).run(&big(), &[], Limits::depth(4), |_| {}));
        let mut used = engine(1, algorithm);
        used.run(&other, &[], Limits::depth(5), |_| {});
        used.run(&big(), &[], Limits::depth(3), |_| {});
        let again = report(used.run(&big(), &[], Limits::depth(4), |_| {}));
        used.reset();
        let reset = report(used.run(&big(), &[], Limits::depth(4), |_| {}));
        assert_eq!(fresh, reset, "{algorithm:?}");
        // Without the reset the engine remembers (else this test would prove nothing).
        if algorithm == Algorithm::AlphaBeta {
            assert_ne!(
                fresh.2, again.2,
                "the table and ordering change the node count"
            );
        }
    }
}

/// Beyond what brute force can check: helper threads do not change the value.
#[test]
fn threads_do_not_change_the_value() {
    let game = Synthetic::new(Spec {
        seed: 5,
        min_branching: 3,
        max_branching: 7,
        width: 300,
        length: 60,
        ..Spec::default()
    });
    let mut want = Vec::new();
    engine(1, Algorithm::AlphaBeta).run(&game, &[], Limits::depth(9), |r| want.push(r.score));
    for (threads, parallel) in [
        (2, Parallel::Split),
        (4, Parallel::Split),
        (2, Parallel::Lazy),
        (4, Parallel::Lazy),
    ] {
        let mut e = engine(threads, Algorithm::AlphaBeta);
        e.set_config(e.config().clone().with_parallel(parallel));
        // Every iteration, whichever thread completed it first: the value, and a legal line.
        let mut got = Vec::new();
        let r = e.run(&game, &[], Limits::depth(9), |r| {
            got.push(r.score);
            assert_eq!(r.pv.first(), r.best.as_ref());
            let mut g = game;
            for &m in &r.pv {
                assert!(legal(&g, m), "{threads} threads, depth {}", r.depth);
                g.play(m);
            }
        });
        assert_eq!(got, want, "{threads} threads");
        assert_eq!(r.depth, 9);
        let per_thread = e.thread_nodes();
        assert_eq!(per_thread.len(), threads);
        assert_eq!(per_thread.iter().sum::<u64>(), r.nodes);
        // Young brothers wait: nodes shared out their moves (the main thread alone is
        // busy at the start, so the first nodes that may split do).
        if parallel == Parallel::Split {
            assert!(e.smp_stats().splits > 0, "{threads} threads");
        }
    }
}

#[test]
fn report_is_consistent() {
    let game = Synthetic::new(Spec {
        seed: 8,
        width: 20,
        ..Spec::default()
    });
    let mut e = engine(1, Algorithm::AlphaBeta);
    let mut depths = Vec::new();
    let r = e.run(&game, &[], Limits::depth(8), |r| depths.push(r.depth));
    assert_eq!(depths, (1..=8).collect::<Vec<_>>());
    assert_eq!(r.pv.first(), r.best.as_ref());
    assert_eq!(r.scores[0], r.score);
    assert_eq!(r.scores[1], -r.score);
    assert!(r.tt_hit_rate > 0.0 && r.tt_hit_rate <= 1.0);
    assert!(r.nodes > 0);
    // The principal variation is a legal line.
    let mut g = game;
    for &m in &r.pv {
        assert!(legal(&g, m));
        g.play(m);
    }
}

#[test]
fn finished_games_and_depth_zero() {
    // Find a terminal position by walking.
    let mut g = Synthetic::new(Spec {
        seed: 3,
        terminal_per_mille: 400,
        ..Spec::default()
    });
    let mut record = Record::new(g);
    while record.result().is_none() {
        let m = record.legal_moves()[0];
        record.play(m).unwrap();
    }
    g = *record.position();
    let r =
        engine(1, Algorithm::AlphaBeta).run(&g, record.history_keys(), Limits::depth(3), |_| {});
    assert_eq!((r.best, r.depth), (None, 0));
    let r = engine(1, Algorithm::AlphaBeta).run(&big(), &[], Limits::depth(0), |_| {});
    assert_eq!(r.depth, 1);
}

/// The engine can be moved to and shared with other threads (arena runs engines on threads).
#[test]
fn engine_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Search<Synthetic, SyntheticEval>>();
    check::<plyforge_search::Report<<Synthetic as Game>::Move>>();
}
