//! The peer's Jumpy3 (written for the `minimax` crate) plays the same game as the `jumpy3`
//! crate with the same evaluation, and the independent alpha-beta of `benches::check`
//! reproduces the course implementations' reference figures (`crates/jumpy3/tests/reference.rs`).

use plyforge::{jumpy3, search};
#[path = "../peer/jumpy3_peer.rs"]
mod jumpy3_peer;

use benches::check::{alphabeta, engine_to_check, Repetition, WIN};
use jumpy3::eval::sheet_estimate;
use jumpy3::{Estimate, Position};
use jumpy3_peer::{from_position, peer_to_check, Board, Jumpy3, SheetEval};
use minimax::{Evaluator as _, Game as _, Strategy as _, Winner};
use search::rng::XorShift64Star;
use search::{reference, Config, Game, Limits, MoveList, Search};

fn same(peer: &Board, ours: &Position) {
    assert_eq!(peer.to_string(), ours.to_string());
    assert_eq!(*peer, from_position(ours));
    assert_eq!(peer.hash(), peer.full_hash(), "{peer}");
}

#[test]
fn random_games_are_the_same_game() {
    let mut rng = XorShift64Star::from_state(0x1234_5678_9abc_def1);
    let starts: Vec<Position> = benches::data::jumpy3()
        .into_iter()
        .map(|e| e.position)
        .collect();
    let mut plies = 0;
    for game in 0..300 {
        let mut ours = starts[game % starts.len()];
        let mut peer = from_position(&ours);
        for _ in 0..400 {
            same(&peer, &ours);
            let mut want = MoveList::new();
            ours.legal_moves(&mut want);
            let mut got = Vec::new();
            let winner = Jumpy3::generate_moves(&peer, &mut got);
            match ours.outcome() {
                Some(search::Outcome::Win(w)) => {
                    // The side that just moved has won.
                    assert_eq!(w, 1 - ours.to_move());
                    assert_eq!(winner, Some(Winner::PlayerJustMoved));
                    break;
                }
                Some(o) => panic!("unexpected outcome {o:?}"),
                None => assert_eq!(winner, None),
            }
            let want: Vec<u8> = want.iter().map(|m| m.index() as u8).collect();
            assert_eq!(got, want, "{ours}");
            // Sheet estimate: the peer's is from the side to move's view.
            let v = SheetEval::default().evaluate(&peer) as i32;
            let white = if ours.to_move() == jumpy3::WHITE {
                v
            } else {
                -v
            };
            assert_eq!(white, sheet_estimate(&ours), "{ours}");
            let i = (rng.next_u64() % want.len() as u64) as usize;
            ours.play(jumpy3::Move::new(want[i] + 1).expect("a square"));
            peer = Jumpy3::apply(&mut peer, want[i]).expect("copy-make");
            plies += 1;
        }
    }
    assert!(plies > 10_000);
}

#[test]
fn perft_agrees() {
    fn peer_perft(b: &Board, depth: u32) -> u64 {
        let mut moves = Vec::new();
        if depth == 0 {
            return 1;
        }
        if Jumpy3::generate_moves(b, &mut moves).is_some() {
            return 0;
        }
        moves
            .iter()
            .map(|&m| peer_perft(&b.after(m), depth - 1))
            .sum()
    }
    for e in benches::data::jumpy3() {
        for depth in [1, 4, 7] {
            assert_eq!(
                peer_perft(&from_position(&e.position), depth),
                benches::perft(&e.position, depth),
                "{} depth {depth}",
                e.label
            );
        }
    }
}

#[test]
fn the_check_reproduces_the_rules_file_figures() {
    // The course implementations' figures: plain minimax from the start, values by depth 1..10.
    let start = Position::start();
    for (d, want) in [4, 0, 1, 0, 1, 0, 1, 0, 2, 0].into_iter().enumerate() {
        let (v, _) = alphabeta(&start, &Estimate::Sheet, d as u32 + 1, Repetition::Ignore);
        assert_eq!(v, want, "depth {}", d + 1);
    }
    for (label, depth, want) in [
        ("sheet-d5", 5, WIN),
        ("sheet-d9a", 9, 4),
        ("sheet-d9b", 9, 5),
        ("sheet-d11", 11, 0),
    ] {
        let e = benches::data::jumpy3()
            .into_iter()
            .find(|e| e.label == label)
            .expect("in the list");
        let (v, _) = alphabeta(&e.position, &Estimate::Sheet, depth, Repetition::Ignore);
        assert_eq!(v, want, "{label}");
    }
}

#[test]
fn the_check_equals_plain_minimax_with_repetition() {
    for e in benches::data::jumpy3() {
        for depth in 1..=7 {
            let want = reference::minimax(&e.position, &Estimate::Sheet, depth, &[], false);
            let (got, _) = alphabeta(
                &e.position,
                &Estimate::Sheet,
                depth,
                Repetition::FirstRecurrence,
            );
            assert_eq!(got, engine_to_check(want), "{} depth {depth}", e.label);
        }
    }
}

#[test]
fn both_searches_run_on_the_peer_game() {
    // Not a check of either engine's correctness (the report does that at every measured
    // depth): the comparison's plumbing works, and at a small depth both agree with the check.
    let start = Position::start();
    let (want, _) = alphabeta(&start, &Estimate::Sheet, 6, Repetition::Ignore);
    let mut ours = Search::new(Config::default().with_quiescence(false), Estimate::Sheet);
    let r = ours.run(&start, &[], Limits::depth(6), |_| {});
    assert_eq!(engine_to_check(r.score), want);
    let mut it =
        minimax::IterativeSearch::new(SheetEval::default(), minimax::IterativeOptions::new());
    it.set_max_depth(6);
    assert!(it.choose_move(&from_position(&start)).is_some());
    assert_eq!(peer_to_check(it.root_value()), want);
}
