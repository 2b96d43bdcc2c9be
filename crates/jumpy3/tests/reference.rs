//! The reference figures of public course implementations: plain minimax with the sheet's estimate, its values and
//! leaf counts; and the engine's alpha-beta, which must find the same values.

use plyforge_jumpy3::eval::sheet_estimate;
use plyforge_jumpy3::search::{mate_distance, perft, reference, Game, Limits, MoveList, Search};
use plyforge_jumpy3::{Estimate, Position, WHITE};

/// Plain minimax as the course implementations do it: terminal positions and depth 0 are
/// leaves scored by the sheet's estimate (±100 for a win), White maximises. No repetition.
fn minimax(p: &Position, depth: u32, leaves: &mut u64) -> i32 {
    if depth == 0 || p.outcome().is_some() {
        *leaves += 1;
        return sheet_estimate(p);
    }
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    let values = moves
        .iter()
        .map(|&m| minimax(&p.after(m), depth - 1, leaves));
    if p.to_move() == WHITE {
        values.max().expect("a move")
    } else {
        values.min().expect("a move")
    }
}

/// The engine's fixed-depth value from White's view, with wins mapped to the sheet's ±100.
fn engine_value(p: &Position, depth: u32, threads: usize) -> i32 {
    let config = plyforge_jumpy3::engine_config().with_threads(threads);
    let mut s = Search::new(config, Estimate::Sheet);
    let r = s.run(p, &[], Limits::depth(depth), |_| {});
    assert_eq!(r.depth, depth);
    let v = match mate_distance(r.score) {
        Some(n) if n > 0 => 100,
        Some(_) => -100,
        None => r.score,
    };
    if p.to_move() == WHITE {
        v
    } else {
        -v
    }
}

#[test]
fn minimax_from_the_start_visits_4_to_the_d_leaves() {
    let expected = [4, 0, 1, 0, 1, 0, 1, 0, 2, 0];
    for (d, &value) in (1..=10).zip(&expected) {
        let mut leaves = 0;
        let v = minimax(&Position::start(), d, &mut leaves);
        assert_eq!(v, value, "depth {d}");
        assert_eq!(leaves, 4u64.pow(d), "depth {d}");
        // perft counts the same sequences: no game ends this early.
        assert_eq!(perft(&Position::start(), d), leaves);
    }
}

const TABLE: [(&str, u32, i32, u64); 5] = [
    ("WwwwxxxxxxxxbbbB", 2, 0, 16),
    ("xwwxxxwBxbxxbbWx", 5, 100, 919),
    ("xwwxxxWwBxxxbbbx", 9, 4, 261922),
    ("xxwxxxWwBxwxbbbx", 9, 5, 254650),
    ("xwwxxbxxwBxxWxbb", 11, 0, 3201293),
];

#[test]
fn minimax_reproduces_the_reference_table() {
    for (board, depth, value, leaf_count) in TABLE {
        let p: Position = format!("{board} w").parse().unwrap();
        let mut leaves = 0;
        assert_eq!(minimax(&p, depth, &mut leaves), value, "{board}");
        assert_eq!(leaves, leaf_count, "{board}");
    }
}

#[test]
fn the_engine_finds_the_reference_values() {
    for (board, depth, value, _) in TABLE {
        let p: Position = format!("{board} w").parse().unwrap();
        for threads in [1, 2] {
            assert_eq!(
                engine_value(&p, depth, threads),
                value,
                "{board} threads {threads}"
            );
        }
    }
    let expected = [4, 0, 1, 0, 1, 0, 1, 0, 2, 0];
    for (d, &value) in (1..=10).zip(&expected) {
        assert_eq!(engine_value(&Position::start(), d, 1), value, "depth {d}");
    }
}

#[test]
fn the_engine_matches_the_brute_force_reference_with_repetitions() {
    // search::reference scores repetitions on the path as the engine does; values must agree
    // exactly (here with the default evaluation, from mid-game positions).
    let positions = [
        "...bW.ww.w.b.bB. b",
        "..W..bwwb.Bwb... w",
        ".W..wbbwbw.B.... w",
        "w.WwbB..w...b..b w",
    ];
    for text in positions {
        let p: Position = text.parse().unwrap();
        for depth in 1..=6 {
            let want = reference::minimax(
                &p,
                &plyforge_jumpy3::DefaultEval::default(),
                depth,
                &[],
                false,
            );
            let mut s = Search::new(
                plyforge_jumpy3::engine_config(),
                plyforge_jumpy3::DefaultEval::default(),
            );
            let r = s.run(&p, &[], Limits::depth(depth), |_| {});
            assert_eq!(r.score, want, "{text} depth {depth}");
        }
    }
}
