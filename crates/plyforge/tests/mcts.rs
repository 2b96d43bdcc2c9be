//! Monte Carlo tree search through the facade: `mcts` specs with their keys, legal moves in
//! all four games, bad keys refused with the reason.

use plyforge::agent::{Kind, Spec};
use plyforge::games::{ChaosClock, Chexers, Throne};
use plyforge::search::{Algorithm, Limits, MctsParallel};
use plyforge::{Engine, GameAdapter, GameKind};

#[test]
fn mcts_specs_set_the_search_settings() {
    let spec = Spec::parse::<Chexers>(
        "mcts,iterations=500,c=0.3,bias=1.5,scale=250,playout=2,parallel=root,reuse=off,tree=64,seed=9",
    )
    .expect("a valid spec");
    assert_eq!(spec.kind, Kind::Search(Some(Algorithm::Mcts)));
    assert_eq!(spec.nodes, Some(500));
    let c = spec.config::<Chexers>(Some(2));
    assert_eq!(c.algorithm, Algorithm::Mcts);
    assert_eq!(c.threads, 2);
    let m = c.mcts;
    assert_eq!(
        (m.exploration, m.bias, m.scale, m.playout),
        (0.3, 1.5, 250.0, 2)
    );
    assert_eq!(m.parallel, MctsParallel::Root);
    assert!(!m.reuse);
    assert_eq!((m.tree_mib, m.seed), (64, 9));
    assert_eq!(spec.limits(Limits::depth(3)).nodes, Some(500));
}

#[test]
fn bad_mcts_keys_say_what_is_wrong() {
    for (text, reason) in [
        ("mcts,c=-1", "c=-1: the value must be a number of at least 0"),
        ("mcts,c=abc", "c=abc: the value must be a number of at least 0"),
        ("mcts,parallel=both", "parallel=both: tree or root"),
        ("mcts,tree=0", "tree=0: at least 1 MiB"),
        ("mcts,scale=0.5", "scale=0.5: at least 1 (evaluation points)"),
        (
            "paranoid,c=0.5",
            "\"paranoid,c=0.5\": c, bias, scale, playout, parallel, reuse and tree apply to mcts only",
        ),
        ("mcts,reuse=maybe", "reuse=maybe: the value must be on or off"),
    ] {
        let e = Spec::parse::<Chexers>(text).expect_err(text);
        assert_eq!(e.reason(), reason, "{text}");
    }
    let e = Spec::parse::<Throne>("montecarlo").expect_err("unknown kind");
    assert!(e.reason().contains("mcts"), "{}", e.reason());
}

/// Plays `plies` moves of a game with MCTS in every seat, each checked against the legal moves.
fn play(kind: GameKind, spec: &str, plies: usize) -> usize {
    let mut state = kind.new_game();
    let mut engine = Engine::new(kind, spec, Some(1)).expect("a valid spec");
    let mut played = 0;
    while !state.is_over() && played < plies {
        let info = engine.search(&state, None, &mut |_| {}).expect("a search");
        let mv = info.best.expect("a move while the game goes on");
        assert!(
            state.legal_moves().contains(&mv),
            "{kind}: {mv} is not legal in {}",
            state.position()
        );
        state.play(&mv).expect("a legal move");
        played += 1;
    }
    played
}

#[test]
fn mcts_plays_legal_moves_in_every_game() {
    for kind in [
        GameKind::from_name("jumpy3").unwrap(),
        GameKind::from_name("chexers").unwrap(),
        GameKind::from_name("throne").unwrap(),
        GameKind::from_name("chaosclock").unwrap(),
    ] {
        for spec in [
            "mcts,iterations=200",
            "mcts,iterations=100,playout=2,reuse=off",
        ] {
            let n = play(kind, spec, 24);
            assert!(n > 0, "{kind}");
        }
    }
}

#[test]
fn mcts_solves_small_endings() {
    // Chaos Clock's non-zero-sum results: a search under a depth limit proves its value as
    // max^n does.
    let pos = ChaosClock::start();
    let mut mcts = plyforge::agent::SearchEngine::<ChaosClock>::new(
        Spec::parse::<ChaosClock>("mcts")
            .expect("a spec")
            .config::<ChaosClock>(Some(1)),
        plyforge::learned::Evaluation::Own(
            ChaosClock::evaluator("default").expect("the default evaluation"),
        ),
    );
    let mut maxn = plyforge::agent::SearchEngine::<ChaosClock>::new(
        Spec::parse::<ChaosClock>("maxn")
            .expect("a spec")
            .config::<ChaosClock>(Some(1)),
        plyforge::learned::Evaluation::Own(
            ChaosClock::evaluator("default").expect("the default evaluation"),
        ),
    );
    let record = plyforge::search::Record::new(pos);
    let a = mcts.think(&record, Limits::depth(3), |_| {});
    let b = maxn.think(&record, Limits::depth(3), |_| {});
    assert_eq!(a.scores, b.scores);
}
