//! The benchmark games a user would write: the plain hand-written alpha-beta
//! (`benches::plain`) equals brute-force minimax, and this engine, the plain search and the
//! `minimax` crate agree on every bench position of Connect Four, Othello and Breakthrough
//! at small depths, with 1 and 2 threads.

#[path = "../peer/user_peer.rs"]
mod user_peer;

use benches::plain::{same_value, Plain};
use example_games::breakthrough::BreakthroughEval;
use example_games::othello::OthelloEval;
use minimax::{IterativeOptions, IterativeSearch, Strategy};
use plyforge::search::{reference, Config, Limits, Search, SideToMove, SideToMoveEval};
use user_peer::{peer_to_engine, Eval};

#[test]
fn the_plain_search_equals_minimax() {
    let eval = SideToMove(connect_four::DefaultEval);
    for e in benches::data::connect_four() {
        let mut plain = Plain::new(|p: &connect_four::Position| connect_four::evaluate(p), 1);
        for depth in 1..=6 {
            plain.clear();
            let (v, best) = plain.search(&e.position, depth);
            assert_eq!(
                v,
                reference::minimax(&e.position, &eval, depth, &[], false),
                "{} depth {depth}",
                e.label
            );
            assert!(best.is_some());
        }
    }
}

/// This engine (1 and 2 threads; quiescence off where the game has noisy moves), the plain
/// search and the `minimax` crate give the same value on every position of a game's list.
fn three_searches_agree<G, E>(list: Vec<benches::data::Entry<G>>, eval: E, depth: u32, q: bool)
where
    G: user_peer::PeerGame,
    E: SideToMoveEval<G> + Copy + 'static,
{
    for e in list {
        let mut plain = Plain::new(|p: &G| eval.evaluate(p), 4);
        let (want, _) = plain.search(&e.position, depth);
        for threads in [1, 2] {
            let config = Config::default()
                .with_threads(threads)
                .with_tt_mib(8)
                .with_quiescence(q);
            let mut ours = Search::new(config, SideToMove(eval));
            let r = ours.analyse(&e.position, Limits::depth(depth));
            assert_eq!(r.score, want, "{} threads {threads}", e.label);
        }
        let mut peer = IterativeSearch::new(Eval::<G, false>::default(), IterativeOptions::new());
        peer.set_max_depth(depth as u8);
        assert!(peer.choose_move(&e.position).is_some());
        let v = peer_to_engine(peer.root_value());
        assert!(
            same_value(v, want),
            "{}: minimax {v}, plain {want}",
            e.label
        );
    }
}

#[test]
fn the_three_searches_agree_on_connect_four() {
    three_searches_agree(
        benches::data::connect_four(),
        connect_four::DefaultEval,
        9,
        true,
    );
}

#[test]
fn the_three_searches_agree_on_othello() {
    three_searches_agree(benches::data::othello(), OthelloEval, 6, true);
}

#[test]
fn the_three_searches_agree_on_breakthrough() {
    three_searches_agree(benches::data::breakthrough(), BreakthroughEval, 7, false);
}
