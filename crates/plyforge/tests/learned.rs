//! A value network as the evaluation of every search (`eval=net:FILE`), dense or sparse:
//! each search with a fixed network equals its brute-force definition with the same
//! network, at every depth, with and without the table, on one thread and several; a
//! sparse network's value is a function of its position alone (whatever its thread's
//! accumulators evaluated before); engine specifications read, check and refuse network
//! files of both kinds; `eval=zero` knows nothing.

use plyforge::agent::{Agent, Spec};
use plyforge::games::{ChaosClock, Chexers, Jumpy3, Throne};
use plyforge::learn::sparse::{SparseAccumulator, SparseNet, SparseShape};
use plyforge::learn::Net;
use plyforge::learned::{Evaluation, Inputs, NetEval, SparseEval, TERMS_NOTE};
use plyforge::search::{reference, Algorithm, Config, Evaluator, Game, Limits, Record, Search};
use plyforge::GameAdapter;

/// Positions of `A` after a few seeded pseudo-random moves (the start among them).
fn positions<A: GameAdapter>(count: usize, plies: usize) -> Vec<A::Pos> {
    let mut out = Vec::new();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for i in 0..count {
        let mut pos = A::start();
        for _ in 0..(i * plies / count.max(1)) {
            let moves = plyforge::legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            pos.play(moves[(state % moves.len() as u64) as usize]);
        }
        out.push(pos);
    }
    out
}

fn net_of<A: GameAdapter>(hidden: usize, seed: u64) -> Evaluation<A> {
    let inputs = A::encoding().expect("an encoding").shape.iter().product();
    let net = Net::new(A::NAME, &[inputs, hidden, A::PLAYERS], seed).expect("sizes");
    Evaluation::Net(NetEval::new(net).expect("the game's shape"))
}

/// A network that reads the evaluation's terms after the observation.
fn terms_net<A: GameAdapter>(hidden: usize, seed: u64) -> Net {
    let inputs = Inputs::<A>::new(true).expect("an encoding");
    let mut net = Net::new(A::NAME, &[inputs.size(), hidden, A::PLAYERS], seed).expect("sizes");
    inputs.annotate(&mut net);
    net
}

/// Both kinds of network: on the observation alone, and with the terms.
fn nets_of<A: GameAdapter>(hidden: usize, seed: u64) -> [Evaluation<A>; 2] {
    let with = NetEval::new(terms_net::<A>(hidden, seed)).expect("the game's inputs");
    assert!(with.inputs().terms() > 0);
    [net_of::<A>(hidden, seed), Evaluation::Net(with)]
}

/// An untrained sparse network of `A` with `perspectives` views, as an evaluation.
fn sparse_of<A: GameAdapter>(perspectives: usize, width: usize, seed: u64) -> SparseEval<A> {
    let shape = SparseShape {
        features: A::encoding().expect("an encoding").features,
        width,
        perspectives,
        l2: None,
        outputs: A::PLAYERS,
    };
    let net = SparseNet::new(A::NAME, shape, seed).expect("a shape");
    SparseEval::new(net).expect("the game's shape")
}

/// Sparse networks of both kinds of views, with and without a second hidden layer.
fn sparse_nets<A: GameAdapter>(seed: u64) -> Vec<Evaluation<A>> {
    let mut out = vec![
        Evaluation::Sparse(sparse_of::<A>(1, 32, seed)),
        Evaluation::Sparse(sparse_of::<A>(A::PLAYERS, 16, seed + 1)),
    ];
    let shape = SparseShape {
        l2: Some(8),
        ..sparse_of::<A>(1, 32, seed).net().shape()
    };
    let l2 = SparseNet::new(A::NAME, shape, seed + 2).expect("a shape");
    out.push(Evaluation::Sparse(
        SparseEval::new(l2).expect("the game's shape"),
    ));
    out
}

fn config(algorithm: Algorithm, tt: bool, threads: usize) -> Config {
    Config::default()
        .with_algorithm(algorithm)
        .with_threads(threads)
        .with_tt_mib(if tt { 4 } else { 0 })
        .with_quiescence(false)
}

#[test]
fn alpha_beta_with_a_network_equals_minimax_with_it() {
    for eval in nets_of::<Jumpy3>(24, 11) {
        for pos in positions::<Jumpy3>(4, 12) {
            let want: Vec<i32> = (0..=4)
                .map(|d| reference::minimax(&pos, &eval, d, &[], false))
                .collect();
            for (tt, threads) in [(true, 1), (false, 1), (true, 2)] {
                let mut engine =
                    Search::new(config(Algorithm::AlphaBeta, tt, threads), eval.clone());
                engine.run(&pos, &[], Limits::depth(4), |r| {
                    assert_eq!(
                        r.score, want[r.depth as usize],
                        "{pos} depth {} tt {tt} threads {threads}",
                        r.depth
                    );
                });
            }
        }
    }
}

#[test]
fn alpha_beta_with_a_sparse_network_equals_minimax_with_it() {
    fn check<A: GameAdapter>(seed: u64, plies: usize) {
        for eval in sparse_nets::<A>(seed) {
            for pos in positions::<A>(4, plies) {
                let want: Vec<i32> = (0..=4)
                    .map(|d| reference::minimax(&pos, &eval, d, &[], false))
                    .collect();
                for (tt, threads) in [(true, 1), (false, 1), (true, 2)] {
                    let mut engine =
                        Search::new(config(Algorithm::AlphaBeta, tt, threads), eval.clone());
                    engine.run(&pos, &[], Limits::depth(4), |r| {
                        assert_eq!(
                            r.score,
                            want[r.depth as usize],
                            "{}: {pos} depth {} tt {tt} threads {threads}",
                            A::NAME,
                            r.depth
                        );
                    });
                }
            }
        }
    }
    // Jumpy3 says what changed between two positions; Chaos Clock gives lists alone.
    check::<Jumpy3>(3, 12);
    check::<ChaosClock>(4, 10);
}

#[test]
fn three_player_searches_with_a_sparse_network_equal_their_definitions() {
    for eval in sparse_nets::<Chexers>(8) {
        for pos in positions::<Chexers>(3, 30) {
            for (algorithm, depth) in [
                (Algorithm::Paranoid, 3),
                (Algorithm::BestReply, 3),
                (Algorithm::MaxN, 2),
            ] {
                for (tt, threads) in [(true, 1), (false, 1), (true, 2)] {
                    let mut engine = Search::new(config(algorithm, tt, threads), eval.clone());
                    engine.run(&pos, &[], Limits::depth(depth), |r| {
                        let d = r.depth;
                        match algorithm {
                            Algorithm::MaxN => assert_eq!(
                                r.scores,
                                reference::maxn(&pos, &eval, d, &[], false),
                                "{pos} maxn {d}"
                            ),
                            Algorithm::BestReply => assert_eq!(
                                r.score,
                                reference::best_reply(&pos, &eval, d, &[], false),
                                "{pos} brs {d}"
                            ),
                            _ => assert_eq!(
                                r.score,
                                reference::paranoid(&pos, &eval, d, &[], false),
                                "{pos} paranoid {d}"
                            ),
                        }
                    });
                }
            }
        }
    }
}

/// The values of `eval` for `pos` made afresh: a new accumulator, the lists of features.
fn fresh<A: GameAdapter>(eval: &SparseEval<A>, pos: &A::Pos) -> Vec<f32> {
    let mut views = vec![Vec::new(); eval.perspectives()];
    eval.write_views(pos, &mut views);
    let mut out = vec![0.0; A::PLAYERS];
    eval.quant()
        .evaluate(&views, &mut SparseAccumulator::new(), &mut out);
    let me = pos.to_move();
    (0..A::PLAYERS)
        .map(|p| out[(p + A::PLAYERS - me) % A::PLAYERS])
        .collect()
}

#[test]
fn a_sparse_network_s_value_is_a_function_of_its_position_alone() {
    fn check<A: GameAdapter>(seed: u64) {
        for views in [1, A::PLAYERS] {
            let eval = sparse_of::<A>(views, 32, seed);
            let all = positions::<A>(40, 80);
            // In order, in reverse, and interleaved, on this thread and on another: the
            // values made afresh every time.
            let want: Vec<Vec<f32>> = all.iter().map(|p| fresh(&eval, p)).collect();
            let mut order: Vec<usize> = (0..all.len()).collect();
            order.extend((0..all.len()).rev());
            order.extend((0..all.len()).map(|i| (i * 7) % all.len()));
            let look = |i: usize| {
                let v = eval.values(&all[i]);
                assert_eq!(v[..A::PLAYERS], want[i][..], "{}: {}", A::NAME, all[i]);
            };
            for &i in &order {
                look(i);
            }
            std::thread::scope(|s| {
                s.spawn(|| order.iter().rev().for_each(|&i| look(i)));
            });
        }
    }
    check::<Jumpy3>(1);
    check::<Chexers>(2);
    check::<Throne>(3);
    check::<ChaosClock>(4);
}

#[test]
fn mcts_with_a_sparse_network_plays_the_same_whatever_its_thread_evaluated_before() {
    let eval = Evaluation::Sparse(sparse_of::<Chexers>(3, 32, 6));
    let mcts = Config::default()
        .with_algorithm(Algorithm::Mcts)
        .with_threads(1);
    let mut config = mcts;
    config.mcts.playout = 0;
    let pos = positions::<Chexers>(3, 30).pop().unwrap();
    let run = || {
        let mut engine = Search::new(config.clone(), eval.clone());
        let r = engine.run(&pos, &[], Limits::default().with_nodes(Some(3000)), |_| {});
        (r.best, r.scores, r.nodes)
    };
    let first = run();
    // Other positions through the same thread's accumulators, then again; and on a new
    // thread.
    for p in positions::<Chexers>(10, 90) {
        eval.evaluate(&p);
    }
    assert_eq!(run(), first);
    std::thread::scope(|s| {
        assert_eq!(s.spawn(run).join().unwrap(), first);
    });
}

#[test]
fn three_player_searches_with_a_network_equal_their_definitions() {
    for eval in nets_of::<Chexers>(16, 5) {
        for pos in positions::<Chexers>(3, 30) {
            for (algorithm, depth) in [
                (Algorithm::Paranoid, 3),
                (Algorithm::BestReply, 3),
                (Algorithm::MaxN, 2),
            ] {
                for (tt, threads) in [(true, 1), (false, 1), (true, 2)] {
                    let mut engine = Search::new(config(algorithm, tt, threads), eval.clone());
                    engine.run(&pos, &[], Limits::depth(depth), |r| {
                        let d = r.depth;
                        match algorithm {
                            Algorithm::MaxN => {
                                assert_eq!(
                                    r.scores,
                                    reference::maxn(&pos, &eval, d, &[], false),
                                    "{pos} maxn {d}"
                                )
                            }
                            Algorithm::BestReply => assert_eq!(
                                r.score,
                                reference::best_reply(&pos, &eval, d, &[], false),
                                "{pos} brs {d}"
                            ),
                            _ => assert_eq!(
                                r.score,
                                reference::paranoid(&pos, &eval, d, &[], false),
                                "{pos} paranoid {d}"
                            ),
                        }
                    });
                }
            }
        }
    }
}

#[test]
fn a_network_with_terms_reads_the_observation_then_the_terms() {
    let net = terms_net::<Chexers>(12, 9);
    let eval = NetEval::<Chexers>::new(net.clone()).unwrap();
    let e = Chexers::encoding().unwrap();
    assert_eq!(eval.inputs().size(), e.size() + e.terms);
    assert_eq!(e.terms, 36);
    let mut work = vec![0.0; net.work_len()];
    for pos in positions::<Chexers>(6, 60) {
        let me = pos.to_move();
        let mut x = vec![0.0; e.size()];
        let mut t = vec![0.0; e.terms];
        e.write_observation(&pos, me, &mut x);
        e.write_terms(&pos, me, &mut t);
        assert!(
            t.iter().all(|v| v.is_finite() && v.abs() <= 3.0),
            "{pos}: {t:?}"
        );
        x.extend(&t);
        let mut out = [0.0; 3];
        net.forward(&x, &mut work, &mut out);
        let v = eval.values(&pos);
        for k in 0..3 {
            assert!(
                (v[(me + k) % 3] - out[k]).abs() < 1e-4,
                "{pos}: {v:?} vs {out:?}"
            );
        }
    }
    // A network of the observation alone reads no terms; one whose note names another
    // count of terms, or whose inputs are not observation and terms, is refused.
    let Evaluation::Net(plain) = net_of::<Chexers>(8, 1) else {
        unreachable!()
    };
    assert_eq!(plain.inputs().terms(), 0);
    let mut wrong = net.clone();
    wrong.set_note(TERMS_NOTE, "5");
    let err = NetEval::<Chexers>::new(wrong).err().unwrap().to_string();
    assert!(
        err.contains("\"terms\" is \"5\"") && err.contains("gives 36"),
        "{err}"
    );
    let mut short = Net::new("chexers", &[e.size(), 8, 3], 1).unwrap();
    short.set_note(TERMS_NOTE, "36");
    let err = NetEval::<Chexers>::new(short).err().unwrap().to_string();
    assert!(err.contains(&(e.size() + 36).to_string()), "{err}");
}

#[test]
fn terms_are_each_player_s_counted_from_the_observer() {
    let e = Chexers::encoding().unwrap();
    let j = Jumpy3::encoding().unwrap();
    assert_eq!(j.terms, 2);
    for pos in positions::<Chexers>(8, 80) {
        let seen: Vec<Vec<f32>> = (0..3)
            .map(|p| {
                let mut t = vec![0.0; e.terms];
                e.write_terms(&pos, p, &mut t);
                t
            })
            .collect();
        for p in 0..3 {
            for k in 0..3 {
                let q = (p + k) % 3;
                assert_eq!(seen[p][k * 11..(k + 1) * 11], seen[q][..11], "{pos}");
                assert_eq!(seen[p][33 + k], seen[q][33], "{pos}");
            }
            // The last three: the default evaluation's scores as the default terms give them.
            let mut scores = [0.0; 3];
            plyforge::encoding::default_terms::<Chexers>(&pos, p, &mut scores);
            assert_eq!(seen[p][33..], scores, "{pos}");
        }
    }
    for pos in positions::<Jumpy3>(8, 30) {
        let (mut a, mut b) = ([0.0; 2], [0.0; 2]);
        j.write_terms(&pos, 0, &mut a);
        j.write_terms(&pos, 1, &mut b);
        assert_eq!((a[0], a[1]), (b[1], b[0]), "{pos}");
        // Two players' default terms: the default evaluation's zero-sum scores.
        let s = Jumpy3::default_eval().evaluate(&pos);
        assert_eq!(a[0] > 0.0, s[0] > 0);
    }
}

#[test]
fn a_network_scores_two_players_zero_sum_and_three_from_each_seat() {
    let two = net_of::<Jumpy3>(8, 1);
    for pos in positions::<Jumpy3>(5, 20) {
        let s = two.evaluate(&pos);
        assert_eq!(s[0], -s[1]);
        assert!(s[0].abs() <= 1000);
    }
    let Evaluation::Net(three) = net_of::<Chexers>(8, 1) else {
        unreachable!()
    };
    let pos = Chexers::start();
    let v = three.values(&pos);
    let s = three.evaluate(&pos);
    for p in 0..3 {
        assert!((-1.0..=1.0).contains(&v[p]));
        assert_eq!(s[p], (v[p] * 1000.0).round() as i32);
    }
}

/// A folder for this test's files.
fn folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("plyforge-learned-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn specs_read_check_and_refuse_network_files() {
    let dir = folder("specs");
    let jumpy = dir.join("jumpy3.safetensors");
    let Evaluation::Net(e) = net_of::<Jumpy3>(8, 3) else {
        unreachable!()
    };
    e.net().save(&jumpy).unwrap();
    let text = format!("engine,depth=2,eval=net:{}", jumpy.display());
    let spec = Spec::parse::<Jumpy3>(&text).unwrap();
    assert!(matches!(spec.evaluator::<Jumpy3>(), Evaluation::Net(_)));
    // It plays.
    let mut agent = Agent::<Jumpy3>::new(&spec, Limits::depth(2), Some(1), 1);
    let record = Record::new(Jumpy3::start());
    let (mv, report) = agent.choose(&record, |_| {});
    assert!(record.legal_moves().contains(&mv.unwrap()));
    assert_eq!(report.unwrap().depth, 2);
    // Greedy and MCTS take it too.
    for kind in ["greedy", "mcts,iterations=200,playout=0"] {
        let spec = Spec::parse::<Jumpy3>(&format!("{kind},eval=net:{}", jumpy.display())).unwrap();
        let mut a = Agent::<Jumpy3>::new(&spec, Limits::depth(2), Some(1), 1);
        let mut b = Agent::<Jumpy3>::new(&spec, Limits::depth(2), Some(1), 1);
        let (x, y) = (a.choose(&record, |_| {}).0, b.choose(&record, |_| {}).0);
        assert!(record.legal_moves().contains(&x.unwrap()), "{kind}");
        assert_eq!(x, y, "{kind}: one thread, the same seed, the same move");
    }
    // Another game's network, a missing file, a broken one, parameters with a network.
    let err = Spec::parse::<Chexers>(&format!("paranoid,eval=net:{}", jumpy.display()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("a network for \"jumpy3\", not \"chexers\""),
        "{err}"
    );
    let missing = dir.join("none.safetensors");
    let err = Spec::parse::<Jumpy3>(&format!("engine,eval=net:{}", missing.display()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("none.safetensors"), "{err}");
    let broken = dir.join("broken.safetensors");
    std::fs::write(&broken, b"\x08\0\0\0\0\0\0\0{}garbage").unwrap();
    let err = Spec::parse::<Jumpy3>(&format!("engine,eval=net:{}", broken.display()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("broken.safetensors") && err.contains("not a whole"),
        "{err}"
    );
    let err = Spec::parse::<Jumpy3>(&format!("engine,eval=net:{},tempo=3", jumpy.display()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("is a network"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn specs_read_check_and_refuse_sparse_network_files() {
    let dir = folder("sparse-specs");
    let file = dir.join("j.safetensors");
    sparse_of::<Jumpy3>(1, 32, 3).net().save(&file).unwrap();
    for kind in [
        "engine,depth=2",
        "alphabeta,depth=2",
        "greedy",
        "mcts,iterations=200,playout=0",
    ] {
        let spec = Spec::parse::<Jumpy3>(&format!("{kind},eval=net:{}", file.display())).unwrap();
        assert!(
            matches!(spec.evaluator::<Jumpy3>(), Evaluation::Sparse(_)),
            "{kind}"
        );
        let mut agent = Agent::<Jumpy3>::new(&spec, Limits::depth(2), Some(1), 1);
        let record = Record::new(Jumpy3::start());
        let (mv, _) = agent.choose(&record, |_| {});
        assert!(record.legal_moves().contains(&mv.unwrap()), "{kind}");
        // Named by its bytes in the ids of runs.
        assert!(spec.identity().contains("eval=net#"), "{}", spec.identity());
    }
    // Another game's, another shape's, a kind this crate does not know, a broken file.
    let err = |text: String| Spec::parse::<Chexers>(&text).unwrap_err().to_string();
    let e = err(format!("paranoid,eval=net:{}", file.display()));
    assert!(
        e.contains("a network for \"jumpy3\", not \"chexers\""),
        "{e}"
    );
    let wrong = dir.join("wrong.safetensors");
    let shape = SparseShape {
        features: 50,
        ..sparse_of::<Chexers>(1, 8, 1).net().shape()
    };
    SparseNet::new("chexers", shape, 1)
        .unwrap()
        .save(&wrong)
        .unwrap();
    let e = err(format!("paranoid,eval=net:{}", wrong.display()));
    assert!(
        e.contains("wrong.safetensors") && e.contains("50 features"),
        "{e}"
    );
    let views = dir.join("views.safetensors");
    let shape = SparseShape {
        perspectives: 2,
        ..sparse_of::<Chexers>(1, 8, 1).net().shape()
    };
    SparseNet::new("chexers", shape, 1)
        .unwrap()
        .save(&views)
        .unwrap();
    let e = err(format!("paranoid,eval=net:{}", views.display()));
    assert!(
        e.contains("2 perspectives") && e.contains("needs 133, 3"),
        "{e}"
    );
    let mut bytes = std::fs::read(&file).unwrap();
    let kind = b"\"kind\":\"sparse\"";
    let at = bytes.windows(kind.len()).position(|w| w == kind).unwrap();
    bytes[at + 8..at + 14].copy_from_slice(b"sporse");
    let odd = dir.join("odd.safetensors");
    std::fs::write(&odd, &bytes).unwrap();
    let e = Spec::parse::<Jumpy3>(&format!("engine,eval=net:{}", odd.display()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("odd.safetensors") && e.contains("sporse"), "{e}");
    let mut cut = std::fs::read(&file).unwrap();
    cut.truncate(cut.len() - 100);
    let broken = dir.join("broken.safetensors");
    std::fs::write(&broken, &cut).unwrap();
    let e = Spec::parse::<Jumpy3>(&format!("engine,eval=net:{}", broken.display()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("broken.safetensors"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_zero_knows_nothing_but_the_game_s_ends() {
    let spec = Spec::parse::<Jumpy3>("engine,depth=3,eval=zero").unwrap();
    assert!(matches!(spec.evaluator::<Jumpy3>(), Evaluation::Zero));
    for pos in positions::<Jumpy3>(6, 20) {
        assert_eq!(Evaluation::<Jumpy3>::Zero.evaluate(&pos), [0; 3]);
    }
    // Every game takes it; parameters of the game's own evaluation do not go with it.
    for text in [
        "paranoid,depth=2,eval=zero",
        "maxn,depth=2,eval=zero",
        "greedy,eval=zero",
    ] {
        assert!(Spec::parse::<Chexers>(text).is_ok(), "{text}");
    }
    let e = Spec::parse::<Jumpy3>("engine,eval=zero,tempo=3")
        .unwrap_err()
        .to_string();
    assert!(e.contains("eval=zero has none"), "{e}");
    // A search with it finds what the game's ends decide: Jumpy3's start searched to 3
    // plies sees no end, so it scores 0.
    let mut agent = Agent::<Jumpy3>::new(&spec, Limits::depth(3), Some(1), 1);
    let (_, report) = agent.choose(&Record::new(Jumpy3::start()), |_| {});
    assert_eq!(report.unwrap().score, 0);
}

#[test]
fn a_network_s_draw_value_scores_draws_for_three_players() {
    use plyforge::search::DrawKind;
    let inputs = Chexers::encoding().unwrap().shape.iter().product();
    let mut net = Net::new("chexers", &[inputs, 8, 3], 2).unwrap();
    net.set_note(plyforge::learned::DRAW_NOTE, "-0.5");
    let eval = NetEval::<Chexers>::new(net.clone()).unwrap();
    let pos = Chexers::start();
    assert_eq!(
        eval.draw_scores(&pos, DrawKind::Repetition)[..3],
        [-500, -500, -500]
    );
    // Two players: a draw stays level (the scores are zero-sum).
    let inputs2 = Jumpy3::encoding().unwrap().shape.iter().product();
    let mut two = Net::new("jumpy3", &[inputs2, 8, 2], 2).unwrap();
    two.set_note(plyforge::learned::DRAW_NOTE, "-0.5");
    let two = NetEval::<Jumpy3>::new(two).unwrap();
    assert_eq!(
        two.draw_scores(&Jumpy3::start(), DrawKind::Repetition)[..2],
        [0, 0]
    );
    // A note that is no value is refused.
    net.set_note(plyforge::learned::DRAW_NOTE, "lots");
    let err = NetEval::<Chexers>::new(net).err().unwrap().to_string();
    assert!(err.contains("not a value from -1 to 1"), "{err}");
}
