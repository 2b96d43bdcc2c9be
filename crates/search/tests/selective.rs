//! The selective search (`Config::selective`): legal lines, one thread deterministic, each
//! technique wired (turning it off changes the search), forced results that are real; and
//! what the clock gets from an unfinished iteration.
//!
//! Its values are not minimax's at a fixed depth (that is the exact mode's guarantee, held
//! by `equality.rs`): its gain is measured in games at a clock (`arena match`, the bench
//! report's games against the peer), never here.

use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
use plyforge_search::{
    mate_distance, reference, Algorithm, Config, Game, Limits, Report, Search, Selectivity,
    SideToMove,
};

/// Trees deep and wide enough for every technique: 3 to 9 moves, passes where `skip`.
fn tree(seed: u64, players: u8, skip: bool) -> Synthetic {
    Synthetic::new(Spec {
        seed,
        players,
        min_branching: 3,
        max_branching: 9,
        width: 1 << 16,
        length: 120,
        terminal_per_mille: 20,
        skip,
        ..Spec::default()
    })
}

fn selective() -> Config {
    Config::default()
        .with_tt_mib(4)
        .with_selective(Some(Selectivity::default()))
}

fn run(config: &Config, game: &Synthetic, limits: Limits) -> Report<<Synthetic as Game>::Move> {
    Search::new(config.clone(), SyntheticEval).run(game, &[], limits, |_| {})
}

fn assert_legal_line(game: &Synthetic, line: &[<Synthetic as Game>::Move]) {
    let mut g = *game;
    for &m in line {
        assert!(g.moves().contains(&m), "{m:?} is not legal in {g:?}");
        g.play(m);
    }
}

#[test]
fn lines_are_legal_and_one_thread_is_deterministic() {
    for (seed, players, skip, algorithm) in [
        (1, 2, true, Algorithm::AlphaBeta),
        (2, 2, false, Algorithm::AlphaBeta),
        (3, 3, true, Algorithm::Paranoid),
        (4, 3, false, Algorithm::Paranoid),
    ] {
        let game = tree(seed, players, skip);
        let config = selective().with_algorithm(algorithm);
        for limits in [Limits::depth(9), Limits::nodes(60_000)] {
            let mut lines = [Vec::new(), Vec::new()];
            let mut reports = Vec::new();
            for line in &mut lines {
                let mut s = Search::new(config.clone(), SyntheticEval);
                reports.push(s.run(&game, &[], limits, |r| {
                    assert_legal_line(&game, &r.pv);
                    line.push((r.depth, r.score, r.nodes, r.pv.clone()));
                }));
            }
            assert_eq!(lines[0], lines[1], "seed {seed}");
            let (a, b) = (&reports[0], &reports[1]);
            assert_eq!(
                (a.best, a.score, a.nodes, &a.pv),
                (b.best, b.score, b.nodes, &b.pv)
            );
            assert_legal_line(&game, &a.pv);
            assert_eq!(a.pv.first(), a.best.as_ref());
        }
    }
}

/// Each technique changes what the search does (so each is wired), and all of them search
/// far fewer nodes than the exact search to the same depth.
#[test]
fn every_technique_takes_part() {
    let depth = Limits::depth(10);
    let nodes = |c: &Config| -> u64 {
        (1..=4)
            .map(|seed| run(c, &tree(seed, 2, true), depth).nodes)
            .sum()
    };
    let all = Selectivity::default();
    let with = |s: Selectivity| selective().with_selective(Some(s));
    let full = nodes(&with(all));
    let exact = nodes(&Config::default().with_tt_mib(4));
    assert!(
        full * 3 < exact,
        "selective {full} nodes against exact {exact}"
    );
    for (name, off) in [
        ("reductions", all.with_reductions(false)),
        ("null move", all.with_null_move(false)),
        ("futility", all.with_futility(false)),
        ("late-move pruning", all.with_late_move_pruning(false)),
        ("internal iterative reductions", all.with_iir(false)),
        ("extensions", all.with_extensions(false)),
    ] {
        assert_ne!(nodes(&with(off)), full, "{name} off changes nothing");
    }
}

/// A win or loss the selective search reports is real: brute force to that distance finds
/// a forced result for the same side. (Its pruning never drops a defence of a side that has
/// not found a move that holds, and a pass never scores a forced result.)
#[test]
fn forced_results_are_real() {
    let mut proven = 0;
    for seed in 0..60 {
        let game = Synthetic::new(Spec {
            seed,
            min_branching: 2,
            max_branching: 5,
            terminal_per_mille: 250,
            skip: seed % 2 == 0,
            ..Spec::default()
        });
        let r = run(&selective(), &game, Limits::depth(8));
        let Some(n) = mate_distance(r.score) else {
            continue;
        };
        proven += 1;
        let exact = reference::minimax(&game, &SyntheticEval, n.unsigned_abs(), &[], true);
        let confirmed = mate_distance(exact).is_some_and(|m| m.signum() == n.signum());
        assert!(
            confirmed,
            "seed {seed}: selective {} (in {n}), brute force {exact}",
            r.score
        );
    }
    assert!(proven >= 10, "only {proven} trees with a forced result");
}

/// Best-reply search and max^n stay exact whatever `selective` says.
#[test]
fn best_reply_and_max_n_stay_exact() {
    let game = tree(7, 3, true);
    for algorithm in [Algorithm::BestReply, Algorithm::MaxN] {
        let exact = run(
            &Config::default().with_tt_mib(4).with_algorithm(algorithm),
            &game,
            Limits::depth(5),
        );
        let sel = run(
            &selective().with_algorithm(algorithm),
            &game,
            Limits::depth(5),
        );
        assert_eq!(
            (exact.score, exact.nodes),
            (sel.score, sel.nodes),
            "{algorithm:?}"
        );
    }
}

/// An iteration that the limits stop still gives its completed root moves: the move played
/// is the best of them where one beat the window, its score a bound on that move's value
/// one ply deeper than the last completed iteration (which the report's depth stays).
#[test]
fn a_stopped_iteration_gives_its_completed_root_moves() {
    for threads in [1, 2] {
        // With two threads the root's moves are shared out: the completed ones count.
        let from_partial = stopped_iterations(threads);
        assert!(
            from_partial >= 3,
            "{threads} threads: only {from_partial} searches took a partial iteration"
        );
    }
}

/// How many of twelve searches, stopped two thirds into their seventh iteration, played a
/// move or score of that iteration (each checked against its brute-force value).
fn stopped_iterations(threads: usize) -> usize {
    let mut from_partial = 0;
    for seed in 0..12 {
        let game = tree(100 + seed, 2, false);
        let config = Config::default().with_tt_mib(4).with_quiescence(false);
        let mut completed = Vec::new();
        let full =
            Search::new(config.clone(), SyntheticEval).run(&game, &[], Limits::depth(7), |r| {
                completed.push((r.depth, r.nodes, r.best))
            });
        assert_eq!(full.depth, 7);
        if mate_distance(full.score).is_some() {
            // A limited search stops at a proven result.
            continue;
        }
        // Stopped two thirds into iteration 7: its first root moves are done.
        let (d6, n6, best6) = completed[5];
        let limit = n6 + (full.nodes - n6) * 2 / 3;
        let threaded = config.clone().with_threads(threads);
        let r = run(&threaded, &game, Limits::nodes(limit));
        if threads > 1 && r.depth > d6 {
            // Several threads may finish the iteration within the nodes.
            continue;
        }
        assert_eq!(r.depth, d6, "seed {seed}");
        assert_legal_line(&game, &r.pv);
        if r.best == best6 && r.score == completed_score(&config, &game, 6) {
            continue;
        }
        from_partial += 1;
        // The move's value at depth 7 (brute force from its position) bounds the score.
        let mv = r.best.expect("a move");
        let mut child = game;
        child.play(mv);
        let value = reference::minimax(&child, &SyntheticEval, 6, &[], false);
        let value = if child.to_move() == game.to_move() {
            value
        } else {
            -value
        };
        assert!(
            value >= r.score,
            "seed {seed}, {threads} threads: {mv:?} is worth {value}, reported {}",
            r.score
        );
    }
    from_partial
}

fn completed_score(config: &Config, game: &Synthetic, depth: u32) -> i32 {
    run(config, game, Limits::depth(depth)).score
}

/// The hooks of a two-player evaluation reach the selective search through `SideToMove`.
#[test]
fn side_to_move_evaluations_carry_their_margin() {
    use plyforge_search::{Evaluator, SideToMoveEval};
    struct Coarse;
    impl SideToMoveEval<Synthetic> for Coarse {
        fn evaluate(&self, _: &Synthetic) -> i32 {
            0
        }
        fn margin(&self) -> i32 {
            250
        }
    }
    struct Plain;
    impl SideToMoveEval<Synthetic> for Plain {
        fn evaluate(&self, _: &Synthetic) -> i32 {
            0
        }
        fn aspiration_window(&self) -> i32 {
            25
        }
    }
    assert_eq!(SideToMove(Coarse).margin(), 250);
    assert_eq!(
        SideToMove(Plain).margin(),
        75,
        "three aspiration windows by default"
    );
}

/// Deeper table entries in the exact search (`Config::deeper_entries`): one thread stays
/// deterministic and its lines legal, and the entries are used (the search differs from
/// the exact one's).
#[test]
fn deeper_entries_are_a_deterministic_setting() {
    // Narrow levels and moves of two plies: positions recur at other depths.
    let game = Synthetic::new(Spec {
        seed: 11,
        ..Spec::default()
    });
    let exact = Config::default().with_tt_mib(4);
    let deeper = exact.clone().with_deeper_entries(true);
    let a = run(&deeper, &game, Limits::depth(9));
    let b = run(&deeper, &game, Limits::depth(9));
    assert_eq!(
        (a.best, a.score, a.nodes, &a.pv),
        (b.best, b.score, b.nodes, &b.pv)
    );
    assert_legal_line(&game, &a.pv);
    assert_ne!(a.nodes, run(&exact, &game, Limits::depth(9)).nodes);
}
