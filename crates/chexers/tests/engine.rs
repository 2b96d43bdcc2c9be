//! Chexers as a three-player game of the search engine: paranoid, best-reply and max^n all
//! run on it, agree with their brute-force definitions at fixed depths, and find the moves
//! that win or save a game; the evaluation is symmetric under the board's rotation.

use plyforge_chexers::search::{
    reference, Algorithm, Evaluator, Game, Limits, MoveList, Record, Search, MAX_EVAL,
};
use plyforge_chexers::{engine_config, DefaultEval, Hex, Move, Position, Weights};

const ALGOS: [Algorithm; 3] = [Algorithm::Paranoid, Algorithm::BestReply, Algorithm::MaxN];

/// Middle-game positions from the recorded referee games (tests/data).
const POSITIONS: [&str; 5] = [
    "..../...g./g....g/g..rr.g/..bbb./..rr./.... b 0,0,0 20",
    "b.../.b.g./g....g/.....rr/g.b.r./....g/...g b 0,0,0 29",
    "..../...../g....g/..b..../g..g../..g.g/.... b 2,1,2 41",
    "..../.b.../g...g./...b.b./.b..b./..bb./b... r 0,2,0 300",
    "g.g./.g.../.grb../....rrb/....../r..b./r... b 0,0,0 14",
];

/// The evaluation with draws scored from each player's standing (`draw_standing` 50,
/// `contempt` 100: the default until draws were scored as no better than a loss).
fn standing_draws() -> DefaultEval {
    DefaultEval::with_weights(Weights {
        draw_standing: 50,
        contempt: 100,
        ..Weights::default()
    })
}

/// The game after the moves of `line` (in the referee's notation), none of which ends it.
fn replay(line: &[&str]) -> Record<Position> {
    let mut record = Record::new(Position::start());
    for text in line {
        let mv: Move = text.parse().unwrap();
        assert_eq!(record.play(mv).unwrap(), None, "{text}");
    }
    record
}

/// The move of a search of `pos` (after `history`) within `nodes`.
fn best_move(
    pos: &Position,
    history: &[u64],
    nodes: u64,
    config: plyforge_chexers::search::Config,
    eval: DefaultEval,
) -> Move {
    Search::new(config, eval)
        .run(pos, history, Limits::nodes(nodes), |_| {})
        .best
        .expect("a move")
}

fn engine(algo: Algorithm) -> Search<Position, DefaultEval> {
    let mut c = engine_config();
    c.algorithm = algo;
    Search::new(c, DefaultEval::default())
}

#[test]
fn fixed_depth_values_equal_the_brute_force_definitions() {
    let eval = DefaultEval::default();
    for text in POSITIONS {
        let pos: Position = text.parse().unwrap();
        for depth in 1..=3 {
            let want = reference::paranoid(&pos, &eval, depth, &[], false);
            let got = engine(Algorithm::Paranoid).run(&pos, &[], Limits::depth(depth), |_| {});
            assert_eq!(got.score, want, "paranoid depth {depth} {text}");
            let want = reference::best_reply(&pos, &eval, depth, &[], false);
            let got = engine(Algorithm::BestReply).run(&pos, &[], Limits::depth(depth), |_| {});
            assert_eq!(got.score, want, "brs depth {depth} {text}");
            let want = reference::maxn(&pos, &eval, depth, &[], false);
            let got = engine(Algorithm::MaxN).run(&pos, &[], Limits::depth(depth), |_| {});
            assert_eq!(got.scores, want, "maxn depth {depth} {text}");
        }
    }
}

/// With a model of the opponents, max^n equals its definition (each opponent maximising
/// the model's entry, the root player its own), and differs from max^n without the model;
/// paranoid and best-reply search, which read the root player's entry only, do not change.
#[test]
fn a_model_of_the_opponents_changes_max_n_only() {
    let plain = DefaultEval::default();
    let modelled = plain.with_model(Weights::pool_model());
    let run = |algo, eval, pos: &Position, depth| {
        let mut c = engine_config();
        c.algorithm = algo;
        Search::new(c, eval).run(pos, &[], Limits::depth(depth), |_| {})
    };
    let mut differ = 0;
    for text in POSITIONS {
        let pos: Position = text.parse().unwrap();
        for depth in 1..=3 {
            let want = reference::maxn(&pos, &modelled, depth, &[], false);
            let got = run(Algorithm::MaxN, modelled, &pos, depth);
            assert_eq!(got.scores, want, "maxn depth {depth} {text}");
            differ += usize::from(want != reference::maxn(&pos, &plain, depth, &[], false));
            for algo in [Algorithm::Paranoid, Algorithm::BestReply] {
                let (a, b) = (
                    run(algo, plain, &pos, depth),
                    run(algo, modelled, &pos, depth),
                );
                assert_eq!((a.best, a.score), (b.best, b.score), "{algo:?} {text}");
            }
        }
    }
    assert!(
        differ >= 10,
        "the model must change max^n's values: {differ} of 15"
    );
}

#[test]
fn every_algorithm_takes_the_fourth_exit() {
    // Red has 3 exits and a piece on its exit hex (3, -1), plus other moves.
    let pos: Position = "..../..g../.....r/r...b../....../...../.... r 3,0,0 30"
        .parse()
        .unwrap();
    for algo in ALGOS {
        let r = engine(algo).run(&pos, &[], Limits::depth(3), |_| {});
        assert_eq!(
            r.best,
            Some("EXIT 3 -1".parse::<Move>().unwrap()),
            "{algo:?}"
        );
    }
}

#[test]
fn every_algorithm_converts_the_piece_about_to_win() {
    // Green has 3 exits and a piece on its exit hex (-1, 3); Red's only rescue is to jump it
    // from (0, 3) to (-2, 3), converting it.
    let pos: Position = "..../...../r...../......./....../..b../..gr r 0,3,0 30"
        .parse()
        .unwrap();
    assert_eq!(pos.piece_at(Hex::new(-1, 3).unwrap()), Some(1));
    assert_eq!(pos.piece_at(Hex::new(0, 3).unwrap()), Some(0));
    for algo in ALGOS {
        let r = engine(algo).run(&pos, &[], Limits::depth(3), |_| {});
        assert_eq!(
            r.best,
            Some("JUMP 0 3 -2 3".parse::<Move>().unwrap()),
            "{algo:?}"
        );
    }
}

#[test]
fn the_engine_plays_a_legal_move_within_a_node_budget() {
    for text in POSITIONS {
        let pos: Position = text.parse().unwrap();
        let r = Search::new(engine_config(), DefaultEval::default()).run(
            &pos,
            &[],
            Limits::nodes(5_000),
            |_| {},
        );
        let best = r.best.expect("a move");
        assert_eq!(pos.why_illegal(best), None);
    }
}

/// The board turned by 120 degrees: (q, r) -> (-q - r, q) maps Red's start, exits and turn to
/// Green's, Green's to Blue's and Blue's to Red's.
fn rotate(pos: &Position) -> Position {
    let mut cells = ['.'; 37];
    for i in 0..37 {
        let h = Hex::from_index(i).unwrap();
        if let Some(p) = pos.piece_at(h) {
            let to = Hex::new(h.s(), h.q()).unwrap();
            cells[to.index()] = ['r', 'g', 'b'][(p + 1) % 3];
        }
    }
    let mut rows = Vec::new();
    let mut i = 0;
    for len in [4, 5, 6, 7, 6, 5, 4] {
        rows.push(cells[i..i + len].iter().collect::<String>());
        i += len;
    }
    let e = |p: usize| pos.exits(p);
    let turns = pos.turns() + 1;
    let text = format!(
        "{} {} {},{},{} {}",
        rows.join("/"),
        ['r', 'g', 'b'][turns as usize % 3],
        e(2),
        e(0),
        e(1),
        turns
    );
    text.parse().unwrap()
}

#[test]
fn evaluation_is_symmetric_under_rotation() {
    let eval = DefaultEval::default();
    assert_eq!(eval.evaluate(&Position::start()), [0, 0, 0]);
    assert_eq!(
        rotate(&Position::start()).to_string().split(' ').next(),
        Some("gggg/...../....../r.....b/r....b/r...b/r..b")
    );
    for text in POSITIONS {
        let pos: Position = text.parse().unwrap();
        let rot = rotate(&pos);
        let a = eval.evaluate(&pos);
        let b = eval.evaluate(&rot);
        assert_eq!([b[1], b[2], b[0]], a, "{text} rotated {rot}");
        // Legal moves map one to one.
        let (mut m1, mut m2) = (MoveList::new(), MoveList::new());
        pos.legal_moves(&mut m1);
        rot.legal_moves(&mut m2);
        assert_eq!(m1.len(), m2.len());
    }
}

#[test]
fn evaluation_stays_within_bounds_and_prefers_progress() {
    let eval = DefaultEval::default();
    for text in POSITIONS {
        let pos: Position = text.parse().unwrap();
        for s in eval.evaluate(&pos) {
            assert!(s.abs() <= MAX_EVAL);
        }
    }
    // A player with all twelve pieces and nobody else on the board: the extremes.
    let pos: Position = "rrrr/rrrrr/rrr.../......./....../...../.... r 0,0,0 0"
        .parse()
        .unwrap();
    let s = eval.evaluate(&pos);
    assert!(s[0] > 0 && s[1] < 0 && s[2] < 0 && s.iter().all(|v| v.abs() <= MAX_EVAL));
    // One step closer to the exits is better for the mover, other things equal (with an exit
    // each: with none, one piece each could not make four and all three are hopeless).
    let near: Position = "..../...../....../...r.../....../...g./b... g 1,1,1 7"
        .parse()
        .unwrap();
    let far: Position = "..../...../....../..r..../....../...g./b... g 1,1,1 7"
        .parse()
        .unwrap();
    assert!(eval.evaluate(&near)[0] > eval.evaluate(&far)[0]);
}

/// A standoff from a course-referee game (our Player as Blue against `flying_solo` and
/// `SquareBox`, seed 33): at the 24th action Blue jumps a piece back to where it stood, the
/// cycle the three players then repeat until the referee's fourth occurrence draws. Paranoid
/// search with draws scored by standing repeats (both opponents would convert Blue's pieces
/// if it left); with the default settings' second opinion (max^n: each opponent plays for
/// itself) Blue leaves the cycle, and so it does with the default draw scores.
#[test]
fn the_default_engine_leaves_a_standoff_that_paranoid_search_repeats() {
    const LINE: [&str; 23] = [
        "MOVE -3 1 -2 1",
        "MOVE 3 -3 3 -2",
        "MOVE 2 1 2 0",
        "JUMP -3 3 -3 1",
        "MOVE 3 -2 2 -1",
        "JUMP 2 0 2 -2",
        "JUMP -3 2 -1 0",
        "JUMP 1 -3 3 -3",
        "MOVE 2 -2 1 -1",
        "JUMP -3 1 -1 1",
        "MOVE 2 -3 1 -2",
        "JUMP 1 -1 1 -3",
        "MOVE -3 0 -2 0",
        "JUMP 0 -3 2 -3",
        "MOVE 1 -2 1 -1",
        "JUMP -2 0 0 0",
        "JUMP 2 -3 0 -3",
        "MOVE 3 0 2 0",
        "JUMP 0 0 2 -2",
        "JUMP 0 -3 2 -3",
        "JUMP 2 -1 0 -1",
        "JUMP 2 -2 0 0",
        "JUMP 2 -3 0 -3",
    ];
    let record = replay(&LINE);
    let history = record.history_keys().to_vec();
    let pos = record.position().clone();
    let repeats = |mv: Move| {
        let mut child = pos.clone();
        child.play(mv);
        history.contains(&child.repetition_key())
    };
    let best = |config, eval| best_move(&pos, &history, 200_000, config, eval);
    let paranoid = best(
        engine_config().with_repetition_check(None),
        standing_draws(),
    );
    assert!(repeats(paranoid), "{paranoid}");
    let checked = best(engine_config(), standing_draws());
    assert!(!repeats(checked), "{checked}");
    let default = best(engine_config(), DefaultEval::default());
    assert!(!repeats(default), "{default}");
    assert_eq!(pos.why_illegal(default), None);
}

/// A standoff from a course-referee game (our Player as Blue against `max` and `flying_solo`,
/// seed 33, 400,000 nodes an action): at the 51st action Blue, down to 3 pieces against 5
/// and 4 at no exits, could complete the position's fourth occurrence. Without
/// [`Config::avoid_repetition_end`](plyforge_chexers::search::Config::avoid_repetition_end)
/// and with draws scored by standing (the default evaluation's until then) the search plays
/// it: the draw is worth +341 to a player that far behind, and paranoid search sees every
/// way out at about −1,400 (both opponents converting Blue's pieces). The course counts
/// wins, so the default engine plays on: the rule alone keeps it out, and so do the default
/// draw scores (−3000).
#[test]
fn the_default_engine_never_completes_the_fourth_occurrence() {
    const LINE: [&str; 50] = [
        "MOVE -3 1 -2 1",
        "MOVE 3 -3 3 -2",
        "MOVE 2 1 2 0",
        "JUMP -3 2 -1 0",
        "MOVE 3 -2 2 -2",
        "JUMP 3 0 1 0",
        "JUMP -2 1 0 -1",
        "MOVE 1 -3 1 -2",
        "MOVE 0 3 0 2",
        "MOVE -3 0 -2 0",
        "MOVE 0 -3 1 -3",
        "MOVE 2 0 1 1",
        "JUMP -2 0 0 0",
        "JUMP 1 -3 3 -3",
        "MOVE 1 0 0 1",
        "MOVE -3 3 -2 3",
        "JUMP 1 -2 3 -2",
        "MOVE 1 2 0 3",
        "MOVE -1 0 -1 -1",
        "JUMP 3 -3 3 -1",
        "JUMP 1 1 -1 1",
        "JUMP 0 0 -2 2",
        "JUMP 2 -3 2 -1",
        "JUMP 0 1 -2 1",
        "JUMP -2 2 0 0",
        "JUMP 2 -2 2 0",
        "MOVE 0 2 -1 3",
        "MOVE -2 3 -1 2",
        "JUMP 3 -2 3 0",
        "MOVE -2 1 -3 1",
        "JUMP -1 -1 1 -1",
        "JUMP 3 0 1 0",
        "JUMP 0 3 -2 3",
        "JUMP 1 -1 1 1",
        "JUMP 2 -1 0 1",
        "MOVE -3 1 -3 0",
        "JUMP 1 1 1 -1",
        "JUMP 0 1 2 -1",
        "MOVE -3 0 -3 1",
        "JUMP 1 -1 1 1",
        "JUMP 2 -1 0 1",
        "MOVE -3 1 -3 0",
        "JUMP 1 1 1 -1",
        "JUMP 0 1 2 -1",
        "MOVE -3 0 -3 1",
        "JUMP 1 -1 1 1",
        "JUMP 2 -1 0 1",
        "MOVE -3 1 -3 0",
        "JUMP 1 1 1 -1",
        "JUMP 0 1 2 -1",
    ];
    let record = replay(&LINE);
    let history = record.history_keys().to_vec();
    let pos = record.position().clone();
    let ends = |mv: Move| {
        let mut r = record.clone();
        r.play(mv).unwrap().is_some()
    };
    let best = |config, eval| best_move(&pos, &history, 50_000, config, eval);
    let allowed = best(
        engine_config().with_avoid_repetition_end(false),
        standing_draws(),
    );
    assert!(ends(allowed), "{allowed}");
    let avoided = best(engine_config(), standing_draws());
    assert!(!ends(avoided), "{avoided}");
    let default = best(engine_config(), DefaultEval::default());
    assert!(!ends(default), "{default}");
    assert_eq!(pos.why_illegal(default), None);
}
