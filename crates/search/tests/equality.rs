//! The fast searches equal their brute-force definitions on many synthetic trees, at every
//! depth of iterative deepening, whatever the table, ordering, aspiration and thread settings.

use plyforge_search::synthetic::{Payoffs, Spec, Synthetic, SyntheticEval, SyntheticMove};
use plyforge_search::{
    reference, Algorithm, Config, Evaluator, Game, Limits, MaxnBounds, Parallel, Search,
};

fn config(algorithm: Algorithm, use_tt: bool, ordering: bool, threads: usize) -> Config {
    Config::default()
        .with_algorithm(algorithm)
        .with_threads(threads)
        .with_tt_mib(if use_tt { 1 } else { 0 })
        .with_ordering(ordering)
        .with_aspiration(true)
        .with_quiescence(true)
}

/// All table/ordering/thread combinations.
fn variants(algorithm: Algorithm) -> Vec<Config> {
    let mut v = Vec::new();
    for use_tt in [true, false] {
        for ordering in [true, false] {
            for threads in [1, 2, 3] {
                if threads > 1 && !use_tt {
                    continue;
                }
                let c = config(algorithm, use_tt, ordering, threads);
                // Killer moves and noisy moves first off as well as on (on is the default).
                if ordering {
                    v.push(c.clone().with_killers(false));
                    v.push(c.clone().with_noisy_first(false));
                }
                // Both ways of sharing the search among threads.
                if threads > 1 {
                    v.push(c.clone().with_parallel(Parallel::Lazy));
                }
                v.push(c);
            }
        }
    }
    v
}

/// Runs `config` to `depth` and checks every completed iteration against `want(depth)`.
fn check_iterations(
    game: &Synthetic,
    config: &Config,
    depth: u32,
    history: &[u64],
    want: &dyn Fn(u32) -> i32,
) {
    let mut engine = Search::new(config.clone(), SyntheticEval);
    for round in 0..2 {
        // The second round finds the first one's entries in the table.
        let mut seen = 0;
        let r = engine.run(game, history, Limits::depth(depth), |r| {
            seen += 1;
            assert_eq!(
                r.score,
                want(r.depth),
                "{:?} depth {} round {round} {config:?}",
                game.spec(),
                r.depth
            );
            assert_eq!(r.pv.first(), r.best.as_ref());
        });
        assert_eq!((seen, r.depth), (depth, depth));
    }
}

fn spec(seed: u64) -> Spec {
    Spec {
        seed,
        width: 4 + seed % 13,
        ..Spec::default()
    }
}

#[test]
fn alpha_beta_equals_minimax_at_every_depth() {
    let depth = 6;
    for seed in 0..12 {
        let game = Synthetic::new(spec(seed));
        let want: Vec<i32> = (0..=depth)
            .map(|d| reference::minimax(&game, &SyntheticEval, d, &[], true))
            .collect();
        for c in variants(Algorithm::AlphaBeta) {
            check_iterations(&game, &c, depth, &[], &|d| want[d as usize]);
        }
    }
}

#[test]
fn alpha_beta_without_quiescence_or_aspiration_equals_minimax() {
    let depth = 6;
    for seed in 100..110 {
        let game = Synthetic::new(spec(seed));
        let want: Vec<i32> = (0..=depth)
            .map(|d| reference::minimax(&game, &SyntheticEval, d, &[], false))
            .collect();
        for mut c in variants(Algorithm::AlphaBeta) {
            c.quiescence = false;
            c.aspiration = seed % 2 == 0;
            check_iterations(&game, &c, depth, &[], &|d| want[d as usize]);
        }
    }
}

/// The synthetic evaluation with the narrowest aspiration window: nearly every iteration
/// fails high or low and is searched again.
struct Narrow;

impl Evaluator<Synthetic> for Narrow {
    fn evaluate(&self, game: &Synthetic) -> plyforge_search::Scores {
        SyntheticEval.evaluate(game)
    }

    fn aspiration_window(&self) -> i32 {
        1
    }
}

#[test]
fn alpha_beta_with_the_narrowest_aspiration_window_equals_minimax() {
    let depth = 7;
    for seed in 150..158 {
        let game = Synthetic::new(spec(seed));
        let quiescence = seed % 2 == 0;
        let want: Vec<i32> = (0..=depth)
            .map(|d| reference::minimax(&game, &SyntheticEval, d, &[], quiescence))
            .collect();
        for mut c in variants(Algorithm::AlphaBeta) {
            c.quiescence = quiescence;
            let mut engine = Search::new(c.clone(), Narrow);
            for round in 0..2 {
                let r = engine.run(&game, &[], Limits::depth(depth), |r| {
                    assert_eq!(r.score, want[r.depth as usize], "round {round} {c:?}");
                });
                assert_eq!(r.depth, depth);
            }
        }
    }
}

/// The synthetic evaluation with an arbitrary move hint: a hash of the position and the
/// move, reaching beyond the range the engine clamps hints to.
struct Hinted;

impl Evaluator<Synthetic> for Hinted {
    fn evaluate(&self, game: &Synthetic) -> plyforge_search::Scores {
        SyntheticEval.evaluate(game)
    }

    fn move_hint(&self, game: &Synthetic, mv: SyntheticMove) -> i32 {
        let m = match mv {
            SyntheticMove::Child(i) => i as u64 + 1,
            SyntheticMove::Pass => 0,
        };
        (plyforge_search::rng::splitmix64(game.key() ^ m) % 19) as i32 - 9
    }
}

#[test]
fn move_hints_change_no_value() {
    let depth = 6;
    for seed in 500..512 {
        let (algorithm, players) = match seed % 3 {
            0 => (Algorithm::AlphaBeta, 2),
            1 => (Algorithm::Paranoid, 3),
            _ => (Algorithm::BestReply, 3),
        };
        let game = Synthetic::new(Spec {
            players,
            skip: true,
            ..spec(seed)
        });
        let want: Vec<i32> = (0..=depth)
            .map(|d| match algorithm {
                Algorithm::BestReply => reference::best_reply(&game, &SyntheticEval, d, &[], true),
                _ if players == 3 => reference::paranoid(&game, &SyntheticEval, d, &[], true),
                _ => reference::minimax(&game, &SyntheticEval, d, &[], true),
            })
            .collect();
        for c in variants(algorithm) {
            let mut engine = Search::new(c.clone(), Hinted);
            for round in 0..2 {
                let r = engine.run(&game, &[], Limits::depth(depth), |r| {
                    assert_eq!(r.score, want[r.depth as usize], "round {round} {c:?}");
                });
                assert_eq!(r.depth, depth);
            }
        }
    }
}

/// Many terminal positions: forced wins and losses of every length, where the table's
/// depth-independent use of proven values is exercised.
#[test]
fn alpha_beta_with_many_terminals_equals_minimax() {
    let depth = 7;
    for seed in 200..212 {
        let game = Synthetic::new(Spec {
            terminal_per_mille: 250,
            width: 5 + seed % 7,
            ..spec(seed)
        });
        let want: Vec<i32> = (0..=depth)
            .map(|d| reference::minimax(&game, &SyntheticEval, d, &[], true))
            .collect();
        for c in variants(Algorithm::AlphaBeta) {
            check_iterations(&game, &c, depth, &[], &|d| want[d as usize]);
        }
    }
}

#[test]
fn paranoid_equals_its_definition_with_three_players() {
    let depth = 5;
    for seed in 300..310 {
        let game = Synthetic::new(Spec {
            players: 3,
            ..spec(seed)
        });
        let want: Vec<i32> = (0..=depth)
            .map(|d| reference::paranoid(&game, &SyntheticEval, d, &[], true))
            .collect();
        for algorithm in [Algorithm::Paranoid, Algorithm::AlphaBeta] {
            for c in variants(algorithm) {
                check_iterations(&game, &c, depth, &[], &|d| want[d as usize]);
            }
        }
    }
}

#[test]
fn best_reply_equals_its_definition() {
    let depth = 5;
    for seed in 400..412 {
        let skip = seed % 3 != 0;
        let players = if seed % 4 == 0 { 2 } else { 3 };
        let game = Synthetic::new(Spec {
            players,
            skip,
            ..spec(seed)
        });
        let want: Vec<i32> = (0..=depth)
            .map(|d| reference::best_reply(&game, &SyntheticEval, d, &[], true))
            .collect();
        for c in variants(Algorithm::BestReply) {
            check_iterations(&game, &c, depth, &[], &|d| want[d as usize]);
        }
        // Without skipping, best-reply search is paranoid search.
        if !skip {
            for d in 1..=depth {
                assert_eq!(
                    want[d as usize],
                    reference::paranoid(&game, &SyntheticEval, d, &[], true)
                );
            }
        }
    }
}

fn check_maxn(game: &Synthetic, depth: u32, bounds: Option<MaxnBounds>) -> u64 {
    let want: Vec<_> = (0..=depth)
        .map(|d| reference::maxn(game, &SyntheticEval, d, &[], true))
        .collect();
    let mut nodes = 0;
    for ordering in [true, false] {
        // One thread without and with the table of score vectors, then three sharing out
        // the tree: the same scores and the same principal variation at every depth.
        let mut lines = Vec::new();
        for (threads, tt) in [(1, false), (1, true), (3, true)] {
            let mut engine = Search::new(
                config(Algorithm::MaxN, tt, ordering, threads),
                SyntheticEval,
            );
            engine.set_maxn_bounds(bounds);
            let mut pvs = Vec::new();
            let r = engine.run(game, &[], Limits::depth(depth), |r| {
                let w = want[r.depth as usize];
                assert_eq!(
                    r.scores,
                    w,
                    "{:?} depth {} threads {threads}",
                    game.spec(),
                    r.depth
                );
                assert_eq!(r.score, w[game.to_move()]);
                pvs.push(r.pv.clone());
            });
            assert_eq!(r.depth, depth);
            // The table serves (these trees have transpositions).
            assert_eq!(r.tt_hit_rate > 0.0, tt, "{:?}", game.spec());
            if !tt {
                nodes = r.nodes;
            }
            lines.push(pvs);
        }
        assert_eq!(lines[0], lines[1], "{:?}: the table", game.spec());
        assert_eq!(lines[0], lines[2], "{:?}: 1 vs 3 threads", game.spec());
    }
    nodes
}

#[test]
fn maxn_equals_its_definition() {
    for seed in 500..512 {
        for players in [2, 3] {
            let game = Synthetic::new(Spec {
                players,
                payoffs: Payoffs::GeneralSum,
                terminal_per_mille: 120,
                ..spec(seed)
            });
            check_maxn(&game, 5, None);
        }
    }
}

#[test]
fn maxn_shallow_pruning_keeps_the_value_and_prunes() {
    let (mut plain, mut pruned) = (0, 0);
    for seed in 600..612 {
        for players in [2, 3] {
            let game = Synthetic::new(Spec {
                players,
                payoffs: Payoffs::ConstantSum,
                terminal_per_mille: 0,
                ..spec(seed)
            });
            let bounds = MaxnBounds {
                max_sum: 1000,
                min_score: 0,
            };
            plain += check_maxn(&game, 5, None);
            pruned += check_maxn(&game, 5, Some(bounds));
        }
    }
    assert!(
        pruned < plain,
        "shallow pruning saved nothing: {pruned} vs {plain}"
    );
}

/// In a two-player zero-sum game max^n and alpha-beta agree.
#[test]
fn maxn_equals_alpha_beta_in_zero_sum_games() {
    for seed in 700..708 {
        let game = Synthetic::new(spec(seed));
        for d in 1..=5 {
            let v = reference::maxn(&game, &SyntheticEval, d, &[], true);
            let m = reference::minimax(&game, &SyntheticEval, d, &[], true);
            assert_eq!((v[0], v[1]), (m, -m));
        }
        let mut engine = Search::new(config(Algorithm::MaxN, true, true, 1), SyntheticEval);
        let r = engine.run(&game, &[], Limits::depth(5), |_| {});
        assert_eq!(
            r.score,
            reference::minimax(&game, &SyntheticEval, 5, &[], true)
        );
    }
}

/// The table filled by a deep search, then searches of every smaller depth from the root and
/// from the positions after one and two moves: entries of other depths (proven wins and
/// losses) must not change a value.
#[test]
fn table_entries_of_other_depths_keep_values_exact() {
    for seed in 800..860 {
        let quiescence = seed % 2 == 0;
        let game = Synthetic::new(Spec {
            terminal_per_mille: 100 + (seed % 4) as u16 * 100,
            width: 5 + seed % 7,
            ..spec(seed)
        });
        let mut engine = Search::new(
            config(Algorithm::AlphaBeta, true, true, 1).with_quiescence(quiescence),
            SyntheticEval,
        );
        engine.run(&game, &[], Limits::depth(8), |_| {});
        let mut positions = vec![game];
        for p in [game] {
            let mut moves = plyforge_search::MoveList::new();
            p.legal_moves(&mut moves);
            for m in moves {
                let mut c = p;
                c.play(m);
                positions.push(c);
                let mut more = plyforge_search::MoveList::new();
                c.legal_moves(&mut more);
                positions.extend(more.iter().map(|&m| {
                    let mut g = c;
                    g.play(m);
                    g
                }));
            }
        }
        for p in positions.iter().filter(|p| p.outcome().is_none()) {
            for d in (1..=6).rev() {
                let r = engine.run(p, &[], Limits::depth(d), |_| {});
                let want = reference::minimax(p, &SyntheticEval, d, &[], quiescence);
                assert_eq!(r.score, want, "seed {seed} depth {d} {p:?}");
            }
        }
    }
}

/// Many moves a node (11 to 14): killer moves take part in the ordering there (they are
/// used only at nodes with twelve moves or more), after the noisy moves (which the
/// killers do not learn from), and the values must not change.
#[test]
fn alpha_beta_with_many_moves_equals_minimax() {
    let depth = 4;
    for seed in 900..906 {
        let game = Synthetic::new(Spec {
            min_branching: 11,
            max_branching: 14,
            terminal_per_mille: 60,
            noisy_per_mille: if seed % 2 == 0 { 0 } else { 200 },
            ..spec(seed)
        });
        let quiescence = false;
        let want: Vec<i32> = (0..=depth)
            .map(|d| reference::minimax(&game, &SyntheticEval, d, &[], quiescence))
            .collect();
        for c in variants(Algorithm::AlphaBeta) {
            let c = c.with_quiescence(quiescence);
            check_iterations(&game, &c, depth, &[], &|d| want[d as usize]);
        }
    }
}

/// The player [`Config::offensive`] with `margin` turns against in `game`: the highest score
/// of the root's evaluation (the player to move on a tie, then the lowest number), if it is
/// not the player to move and leads the next by `margin`; else the player to move.
fn offensive_target(game: &Synthetic, margin: i32) -> usize {
    let s = SyntheticEval.evaluate(game);
    let root = game.to_move();
    let mut leader = root;
    for p in 0..3 {
        if s[p] > s[leader] {
            leader = p;
        }
    }
    let second = (0..3).filter(|&p| p != leader).map(|p| s[p]).max().unwrap();
    if leader != root && s[leader] - second >= margin {
        leader
    } else {
        root
    }
}

#[test]
fn the_offensive_equals_its_definition_against_the_leader() {
    let depth = 5;
    let mut attacked = 0;
    for seed in 310..322 {
        let game = Synthetic::new(Spec {
            players: 3,
            ..spec(seed)
        });
        for margin in [0, 40] {
            let target = offensive_target(&game, margin);
            attacked += usize::from(target != game.to_move());
            let want: Vec<i32> = (0..=depth)
                .map(|d| reference::offensive(&game, &SyntheticEval, d, &[], true, target))
                .collect();
            for c in variants(Algorithm::Paranoid) {
                check_iterations(&game, &c.with_offensive(Some(margin)), depth, &[], &|d| {
                    want[d as usize]
                });
            }
            // The report's scores: the target's is the root's negated.
            let r = Search::new(
                config(Algorithm::Paranoid, true, true, 1).with_offensive(Some(margin)),
                SyntheticEval,
            )
            .run(&game, &[], Limits::depth(3), |_| {});
            assert_eq!(r.scores[game.to_move()], r.score);
            if target != game.to_move() {
                assert_eq!(r.scores[target], -r.score);
            }
        }
    }
    assert!(
        attacked >= 4,
        "only {attacked} searches turned against a leader"
    );
}

#[test]
fn one_engine_keeps_exact_values_as_the_player_it_maximises_changes() {
    // One engine, one table, over a root and its descendants: the player maximised changes
    // with the player to move and with the leader, and the table must not mix their values.
    let depth = 4;
    for seed in 330..336 {
        let game = Synthetic::new(Spec {
            players: 3,
            ..spec(seed)
        });
        let mut positions = vec![game];
        for m in game.moves() {
            let mut c = game;
            c.play(m);
            if c.outcome().is_none() {
                positions.push(c);
                for m2 in c.moves().into_iter().take(3) {
                    let mut g = c;
                    g.play(m2);
                    if g.outcome().is_none() {
                        positions.push(g);
                    }
                }
            }
        }
        // Without the offensive the player maximised is the player to move.
        for margin in [None, Some(0)] {
            let c = config(Algorithm::Paranoid, true, true, 1).with_offensive(margin);
            let mut engine = Search::new(c, SyntheticEval);
            for p in positions.iter().chain(positions.iter().rev()) {
                let target = margin.map_or(p.to_move(), |m| offensive_target(p, m));
                let want = reference::offensive(p, &SyntheticEval, depth, &[], true, target);
                let r = engine.run(p, &[], Limits::depth(depth), |_| {});
                assert_eq!(
                    r.score, want,
                    "seed {seed} {margin:?}: {p:?}, target {target}"
                );
            }
        }
    }
}
