//! The benchmark games a user would write: the plain hand-written alpha-beta
//! (`benches::plain`) equals brute-force minimax, and this engine, the plain search and the
//! `minimax` crate agree on every bench position at small depths, with 1 and 2 threads.

#[path = "../peer/user_peer.rs"]
mod user_peer;

use benches::plain::{same_value, Plain};
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

#[test]
fn the_three_searches_agree_on_connect_four() {
    for e in benches::data::connect_four() {
        let depth = 9;
        let mut plain = Plain::new(
            |p: &connect_four::Position| connect_four::DefaultEval.evaluate(p),
            4,
        );
        let (want, _) = plain.search(&e.position, depth);
        for threads in [1, 2] {
            let mut ours = Search::new(
                Config::default().with_threads(threads).with_tt_mib(8),
                SideToMove(connect_four::DefaultEval),
            );
            let r = ours.analyse(&e.position, Limits::depth(depth));
            assert_eq!(r.score, want, "{} threads {threads}", e.label);
        }
        let mut peer = IterativeSearch::new(
            Eval::<connect_four::Position, false>::default(),
            IterativeOptions::new(),
        );
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
