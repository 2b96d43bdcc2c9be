//! The evaluation knows what a win needs: exits count only while exits plus
//! pieces can still make four, a hopeless player is scored as such, no search exits its last
//! pieces into a position that cannot win, and draws are scored from each player's standing,
//! with the searches still equal to their brute-force definitions through repetitions.

use plyforge_chexers::search::{
    reference, Algorithm, DrawKind, Evaluator, Game, Limits, Record, Search,
};
use plyforge_chexers::{
    engine_config, race_actions, race_leader, race_move, race_to_win, remaining_work, DefaultEval,
    Hex, Move, Position, Terms, WeightError, Weights,
};

const ALGOS: [Algorithm; 3] = [Algorithm::Paranoid, Algorithm::BestReply, Algorithm::MaxN];

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn best(algo: Algorithm, weights: Weights, p: &Position, depth: u32) -> Option<Move> {
    let mut c = engine_config();
    c.algorithm = algo;
    Search::new(c, DefaultEval::with_weights(weights))
        .run(p, &[], Limits::depth(depth), |_| {})
        .best
}

/// Red: two exits and one piece, on its exit hex (3, -1); Green and Blue have pieces Red
/// could still convert. Exiting would leave Red three exits and nothing to make the fourth.
const LAST_PIECE: &str = "..../..g../.....r/...b.../....../..g../b... r 2,0,0 30";

#[test]
fn no_search_exits_the_last_piece_into_a_position_that_cannot_win() {
    let p = pos(LAST_PIECE);
    let exit = mv("EXIT 3 -1");
    assert_eq!(p.why_illegal(exit), None);
    let mut after = p.clone();
    after.play(exit);
    assert!(DefaultEval::can_win(&p, 0));
    assert!(!DefaultEval::can_win(&after, 0));
    for algo in ALGOS {
        for depth in 1..=3 {
            let got = best(algo, Weights::default(), &p, depth).expect("a move");
            assert_ne!(got, exit, "{algo:?} depth {depth}");
            assert_eq!(p.why_illegal(got), None);
        }
    }
    // The earlier evaluation counts the exit whatever is left: it takes it.
    assert_eq!(
        best(Algorithm::Paranoid, Weights::plain(), &p, 1),
        Some(exit)
    );
}

#[test]
fn nor_the_last_two_pieces_from_one_exit() {
    // The case: one exit, two pieces on exit hexes (3, -1) and (3, 0). Exiting both
    // cannot win; in two of Red's turns (depth 4) no search plans it, and the first exit (two
    // exits, one piece left) is scored below keeping both.
    let p = pos("..../..g../.....r/...b..r/....../..g../b... r 1,0,0 30");
    let eval = DefaultEval::default();
    let mut one = p.clone();
    one.play(mv("EXIT 3 -1"));
    assert!(DefaultEval::can_win(&one, 0));
    let both = pos("..../..g../....../...b.../....../..g../b... r 3,0,0 33");
    assert!(!DefaultEval::can_win(&both, 0));
    assert_eq!(eval.absolute(&both, 0), -Weights::default().hopeless);
    assert!(eval.absolute(&one, 0) > eval.absolute(&both, 0));
    for algo in ALGOS {
        let mut c = engine_config();
        c.algorithm = algo;
        let r = Search::new(c, DefaultEval::default()).run(&p, &[], Limits::depth(4), |_| {});
        let pv = r.pv;
        // Red's own moves in the principal variation: never two exits.
        let red_exits = pv
            .iter()
            .step_by(3)
            .filter(|m| matches!(m, Move::Exit(_)))
            .count();
        assert!(red_exits < 2, "{algo:?} plans {pv:?}");
    }
}

#[test]
fn a_hopeless_player_scores_the_same_whatever_its_exits() {
    let eval = DefaultEval::default();
    let hopeless = -Weights::default().hopeless;
    // No piece and fewer than four exits.
    for text in [
        "..../..g../....../...b.../....../..g../b... r 0,0,0 30",
        "..../..g../....../...b.../....../..g../b... r 3,0,0 30",
    ] {
        let p = pos(text);
        assert!(!DefaultEval::can_win(&p, 0), "{text}");
        assert_eq!(eval.absolute(&p, 0), hopeless, "{text}");
    }
    // One exit, one piece and one other piece on the board: three at most.
    let p = pos("..../...../....../...r.../....../...../b... r 1,0,0 30");
    assert!(!DefaultEval::can_win(&p, 0));
    assert_eq!(eval.absolute(&p, 0), hopeless);
    // Blue, the same position: one piece, the red one to convert, no exit: two at most.
    assert!(!DefaultEval::can_win(&p, 2));
    // The same with two opponents' pieces: four can still be made (by converting both).
    let p = pos("..../...../....../...r.../....../..g../b... r 1,0,0 30");
    assert!(DefaultEval::can_win(&p, 0));
    assert!(eval.absolute(&p, 0) > hopeless);
    // Hopeless is below every reachable value of a player that can win, and the
    // relative scores of the others rise when one becomes hopeless.
    let live = pos("..../..g../.....r/...b.../....../..g../b... r 2,0,0 30");
    let mut dead = live.clone();
    dead.play(mv("EXIT 3 -1"));
    let (a, b) = (eval.evaluate(&live), eval.evaluate(&dead));
    assert!(b[0] < a[0], "{a:?} {b:?}");
    // The rule can be turned off: then the exits count.
    let plain = DefaultEval::with_weights(Weights::plain());
    assert!(plain.absolute(&dead, 0) > plain.absolute(&live, 0));
}

#[test]
fn short_of_pieces_each_piece_is_worth_more() {
    // Red needs two exits and owns one piece: short, two pieces fewer than three.
    let eval = DefaultEval::default();
    let w = Weights::default();
    let short = pos("..../...../....../...r.../....g./..g../b... r 2,0,0 30");
    let plain = DefaultEval::with_weights(Weights {
        short_piece: 0,
        short_threat: 0,
        ..w
    });
    let d = eval.absolute(&short, 0) - plain.absolute(&short, 0);
    assert_eq!(d, -2 * w.short_piece, "one piece on the board while short");
    // Not short (two exits needed, two pieces): no difference.
    let enough = pos("..../...../....../...r.../..r.g./..g../b... r 2,0,0 30");
    assert_eq!(eval.absolute(&enough, 0), plain.absolute(&enough, 0));
    // Exiting while short costs: one exit and two pieces on exit hexes; after an exit, two
    // exits and one piece, whose value falls by the piece's cost, less the exit's step.
    let before = pos("..../..g../.....r/...b..r/....../..g../b... r 1,0,0 30");
    let mut after = before.clone();
    after.play(mv("EXIT 3 -1"));
    let gain = |e: &DefaultEval| e.absolute(&after, 0) - e.absolute(&before, 0);
    assert!(
        gain(&plain) > 0 && gain(&eval) < 0,
        "{} {}",
        gain(&plain),
        gain(&eval)
    );
}

#[test]
fn losing_a_piece_never_scores_better() {
    // Red's four pieces at the start, and the same with one of them converted by Green:
    // three pieces for four exits is short, and must score below four (a bonus for being
    // short would make the engine walk into conversions).
    let four = pos("gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 3");
    let three = pos("gggg/...../....../g.....b/r....b/r...b/r..b r 0,0,0 3");
    let two = pos("gggg/...../....../g.....b/g....b/r...b/r..b r 0,0,0 3");
    for weights in [Weights::default(), Weights::plain()] {
        let e = DefaultEval::with_weights(weights);
        let (a, b, c) = (
            e.absolute(&four, 0),
            e.absolute(&three, 0),
            e.absolute(&two, 0),
        );
        assert!(a > b && b > c, "{weights:?}: {a} {b} {c}");
    }
}

#[test]
fn draws_are_scored_from_each_players_standing() {
    // The default (half the standing) and a flat draw value, six steps below level (the
    // variant tried in the matches of the crate's README).
    let flat = Weights {
        draw_standing: 0,
        contempt: 600,
        ..Weights::default()
    };
    for w in [Weights::default(), flat] {
        let eval = DefaultEval::with_weights(w);
        // Level: a draw is worth the contempt less than the (level) evaluation to everybody.
        let start = Position::start();
        for kind in [DrawKind::Repetition, DrawKind::TurnLimit] {
            assert_eq!(eval.draw_scores(&start, kind), [-w.contempt; 3]);
        }
        // Red leads (three exits and a piece next to the exits), Blue is far behind.
        let p = pos("..../...../.....r/..g..../....../..b../g... r 3,1,0 201");
        let e = eval.evaluate(&p);
        let d = eval.draw_scores(&p, DrawKind::Repetition);
        assert!(e[0] > 0 && e[2] < e[1], "{e:?}");
        for i in 0..3 {
            assert_eq!(
                d[i],
                -e[i] * w.draw_standing / 100 - w.contempt,
                "player {i}"
            );
        }
        // A draw is bad for the leader, good for the one far behind.
        assert!(d[0] < e[0], "{w:?}");
        assert!(d[2] > e[2], "{w:?}: {d:?} {e:?}");
    }
    let p = pos("..../...../.....r/..g..../....../..b../g... r 3,1,0 201");
    // The earlier evaluation scores every draw 0.
    let plain = DefaultEval::with_weights(Weights::plain());
    assert_eq!(plain.draw_scores(&p, DrawKind::Repetition), [0; 3]);
    // The standing is relative even where the evaluation is not.
    let selfish = DefaultEval::with_weights(Weights {
        draw_standing: 50,
        ..Weights::greedy_absolute()
    });
    let s = selfish.draw_scores(&p, DrawKind::TurnLimit);
    assert!(s[0] < 0 && s[2] > 0, "{s:?}");
}

/// Red (two exits), Green and Blue (one each) step back and forth: after `cycles` cycles the start has occurred
/// `cycles + 1` times.
fn shuffled(cycles: usize) -> Record<Position> {
    let start = pos("..../..g../....../...r.../....../...../b... r 2,1,1 30");
    let mut rec = Record::new(start);
    let there = ["MOVE 0 0 1 0", "MOVE 1 -2 2 -2", "MOVE -3 3 -2 3"];
    let back = ["MOVE 1 0 0 0", "MOVE 2 -2 1 -2", "MOVE -2 3 -3 3"];
    for _ in 0..cycles {
        for m in there.iter().chain(back.iter()) {
            assert_eq!(rec.play(mv(m)).unwrap(), None, "{m}");
        }
    }
    rec
}

#[test]
fn repetition_draws_scored_by_standing_keep_the_searches_equal_to_the_brute_force() {
    // Two cycles played: the start has occurred three times; a search from it meets the
    // fourth occurrence (a draw) at depth 6, and every position of the cycle at depth 5.
    let rec = shuffled(2);
    assert_eq!(rec.occurrences(), 3);
    let p = rec.position().clone();
    let history = rec.history_keys().to_vec();
    // Red (two exits) leads: the draws the history makes near cost it value.
    let eval = DefaultEval::default();
    let fresh = &history[history.len() - 1..];
    for depth in [5, 6] {
        let with = reference::maxn(&p, &eval, depth, &history, false);
        let without = reference::maxn(&p, &eval, depth, fresh, false);
        assert!(with[0] < without[0], "depth {depth}: {with:?} {without:?}");
    }
    for weights in [Weights::default(), Weights::plain()] {
        let eval = DefaultEval::with_weights(weights);
        for depth in [3, 6] {
            let engine = |algo| {
                let mut c = engine_config();
                c.algorithm = algo;
                Search::new(c, eval).run(&p, &history, Limits::depth(depth), |_| {})
            };
            let want = reference::paranoid(&p, &eval, depth, &history, false);
            assert_eq!(engine(Algorithm::Paranoid).score, want, "paranoid {depth}");
            let want = reference::best_reply(&p, &eval, depth, &history, false);
            assert_eq!(engine(Algorithm::BestReply).score, want, "brs {depth}");
            let want = reference::maxn(&p, &eval, depth, &history, false);
            assert_eq!(engine(Algorithm::MaxN).scores, want, "maxn {depth}");
        }
    }
}

#[test]
fn every_weight_can_be_set_by_name() {
    for key in Weights::KEYS {
        let mut w = Weights::default();
        // A value no default has, and for the switches the opposite of the default.
        w.set(key, "12345").unwrap();
        let mut flipped = Weights::default();
        flipped.set(key, "0").unwrap();
        assert!(
            w != Weights::default() || flipped != Weights::default(),
            "{key} changed nothing"
        );
    }
    let mut w = Weights::default();
    assert_eq!(
        w.set("nerve", "1"),
        Err(WeightError::UnknownKey("nerve".to_string()))
    );
    assert!(matches!(
        w.set("spare", "1.5"),
        Err(WeightError::NotANumber { .. })
    ));
    assert_eq!(w, Weights::default(), "a refused setting changes nothing");
    let w = Weights::default()
        .with_settings("spare=1,contempt=2,,", ',')
        .unwrap();
    assert_eq!((w.spare, w.contempt), (1, 2));
    assert_eq!(
        Weights::default().with_settings("spare", ','),
        Err(WeightError::NoValue("spare".to_string()))
    );
}

/// Positions along seeded random games (every player's pieces, exits and contact vary).
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = plyforge_chexers::search::rng::XorShift64Star::seeded(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::start();
        for _ in 0..plies {
            if p.outcome().is_some() {
                break;
            }
            out.push(p.clone());
            let moves = p.moves();
            p.play(moves[rng.below(moves.len())]);
        }
    }
    out
}

#[test]
fn the_race_weight_counts_the_work_by_the_race_table() {
    // Steps only: a player's value is minus its work, by the distances without `race`, by
    // the race table with it (plus an exit and `missing_steps` per piece it lacks).
    let by_distance = DefaultEval::with_weights(Weights {
        step: 1,
        ..Weights::greedy_absolute()
    });
    let by_race = DefaultEval::with_weights(Weights {
        step: 1,
        race: 1,
        missing_steps: 9,
        ..Weights::greedy_absolute()
    });
    let mut leapfrogs = 0;
    for p in random_positions(28, 20, 150) {
        for player in 0..3 {
            if p.exits(player) == 4 {
                continue;
            }
            let need = 4 - p.exits(player);
            let own = p.pieces(player).count_ones();
            assert_eq!(
                -by_distance.absolute(&p, player),
                remaining_work_without_missing(&p, player) as i32,
                "{p}"
            );
            let race = race_actions(player, p.pieces(player), need.min(own)).unwrap();
            let missing = need.saturating_sub(own);
            assert_eq!(
                -by_race.absolute(&p, player),
                (race + missing * 10) as i32,
                "{p} player {player}"
            );
            if own >= need {
                assert_eq!(Some(race), race_to_win(&p, player));
                // Leapfrogs never make the race longer than single steps.
                assert!(race <= remaining_work(&p, player), "{p}");
                leapfrogs += (race < remaining_work(&p, player)) as u32;
            }
        }
    }
    assert!(
        leapfrogs > 100,
        "only {leapfrogs} positions where leapfrogs help"
    );
}

#[test]
fn material_and_cohesion_add_their_terms() {
    let base = Weights::greedy();
    let plain = DefaultEval::with_weights(base);
    let material = DefaultEval::with_weights(Weights {
        material: 30,
        ..base
    });
    let best = DefaultEval::with_weights(Weights {
        material_best: 40,
        ..base
    });
    let cohesion = DefaultEval::with_weights(Weights {
        cohesion: 7,
        ..base
    });
    let mut unequal = 0;
    for p in random_positions(29, 10, 120) {
        let force: Vec<i32> = (0..3)
            .map(|q| (p.pieces(q).count_ones() + p.exits(q)) as i32)
            .collect();
        let (a, b) = (plain.evaluate(&p), material.evaluate(&p));
        let c = best.evaluate(&p);
        for q in 0..3 {
            let more = 2 * force[q] - force[(q + 1) % 3] - force[(q + 2) % 3];
            // Material is relative: each player's force against the opponents' mean.
            assert_eq!(b[q] - a[q], 30 * more / 2, "{p} player {q}");
            // ... or against the strongest opponent's.
            let strongest = force[(q + 1) % 3].max(force[(q + 2) % 3]);
            assert_eq!(c[q] - a[q], 40 * (force[q] - strongest), "{p} player {q}");
            unequal += (more != 0) as u32;
            // Cohesion: pairs of the player's own pieces side by side.
            let own = p.pieces(q);
            let pairs = (0..37)
                .filter_map(Hex::from_index)
                .filter(|h| own & h.bit() != 0)
                .map(|h| {
                    (0..6)
                        .filter_map(|d| h.neighbour(d))
                        .filter(|n| own & n.bit() != 0)
                        .count() as i32
                })
                .sum::<i32>()
                / 2;
            assert_eq!(
                cohesion.absolute(&p, q) - plain.absolute(&p, q),
                7 * pairs,
                "{p} player {q}"
            );
        }
    }
    assert!(unequal > 100, "only {unequal} positions with unequal force");
}

#[test]
fn the_absolute_value_is_the_weights_of_the_terms() {
    // Every weight distinct, cohesion on (so that the pairs are measured).
    let w = Weights {
        step: 97,
        missing_steps: 7,
        spare: 53,
        short_piece: 211,
        hopeless: 3999,
        threatened: 61,
        threatened_next: 83,
        short_threat: 127,
        mobility: 5,
        cohesion: 11,
        near: 13,
        near_work: 9,
        ..Weights::default()
    };
    let eval = DefaultEval::with_weights(w);
    let (mut hopeless, mut short, mut threatened) = (0, 0, 0);
    for p in random_positions(31, 12, 160) {
        for q in 0..3 {
            let t = Terms::of(&p, q);
            assert_eq!(w.value(&t), eval.absolute(&p, q), "{p} player {q}");
            let (own, exits) = (p.pieces(q).count_ones() as i32, p.exits(q) as i32);
            assert_eq!(t.force, own + exits, "{p} player {q}");
            if t.hopeless {
                hopeless += 1;
                assert!(!DefaultEval::can_win(&p, q), "{p} player {q}");
                assert_eq!(w.value(&t), -3999);
                continue;
            }
            let need = 4 - exits;
            assert_eq!(t.missing, (need - own).max(0), "{p} player {q}");
            assert_eq!(t.spare, (own - need).max(0), "{p} player {q}");
            assert_eq!(t.mobility, p.mobility(q) as i32, "{p} player {q}");
            assert!(t.threatened_next <= t.threatened && t.threatened <= own);
            if t.missing > 0 {
                short += 1;
                assert_eq!(t.short_below_three, (3 - own).max(0));
                assert_eq!(t.short_threatened, t.threatened);
            } else {
                assert_eq!((t.short_below_three, t.short_threatened), (0, 0));
            }
            threatened += (t.threatened > 0) as u32;
            // The last actions of the race count `near` more each.
            let no_near = Weights { near: 0, ..w };
            assert_eq!(
                w.value(&t) - no_near.value(&t),
                13 * (9 - t.work).max(0),
                "{p} player {q}"
            );
        }
    }
    assert!(
        hopeless > 10 && short > 50 && threatened > 100,
        "{hopeless} {short} {threatened}"
    );
}

/// [`remaining_work`] where the player owns the pieces it needs (`missing_steps` is 0 in
/// the greedy weights, and a missing piece counts an exit only).
fn remaining_work_without_missing(p: &Position, player: usize) -> u32 {
    let need = 4 - p.exits(player);
    let own = p.pieces(player).count_ones();
    let missing = need.saturating_sub(own);
    remaining_work(p, player) - missing * 6
}

#[test]
fn the_race_leader_is_first_to_its_fourth_exit_and_out_of_everyone_s_reach() {
    // Red to move: three exits, its last piece on its exit hex (3, -1): it exits now,
    // whoever stands beside it.
    let red_first = pos("..../...../....gr/b....../....../...../g... r 3,0,0 30");
    assert_eq!(race_to_win(&red_first, 0), Some(1));
    assert_eq!(race_leader(&red_first), Some(0));
    // Two exits to make from (3, -1) and (3, 0): Red's last exit is three plies away, so
    // Green and Blue act once each before it. A Green piece two steps away cannot stand
    // beside a Red piece and jump it in one action ...
    let two = pos("..../...../...g.r/b.....r/....../...../.... r 2,0,0 30");
    assert_eq!(race_to_win(&two, 0), Some(2));
    assert_eq!(race_leader(&two), Some(0));
    // ... one beside it can.
    let beside = pos("..../...../....gr/b.....r/....../...../.... r 2,0,0 30");
    assert_eq!(race_leader(&beside), None);
    // Green one action from its fourth exit, Red two: Green's exit comes on the next ply,
    // Red's three plies from now; Red, to move, is six steps from Green's piece.
    let green = pos("..../...../.....r/b.....r/....../...../g... r 2,3,0 30");
    assert_eq!(race_to_win(&green, 1), Some(1));
    assert_eq!(race_leader(&green), Some(1));
    // The same with Blue to move first and one action from its fourth exit: Blue leads.
    let blue = pos("..../...../.....r/b.....r/....../...../g... b 2,3,3 32");
    assert_eq!(race_leader(&blue), Some(2));
    // A player without the pieces its exits need has no race.
    let short = pos("..../...../.....r/......./....../...../g... g 0,3,0 31");
    assert_eq!(race_to_win(&short, 0), None);
    assert_eq!(race_leader(&short), Some(1));
    // Long races leave time to meet: at the start nobody leads.
    let start = Position::start();
    assert_eq!(race_leader(&start), None);

    // `race_lead` adds to the leader's relative score and never to the others'.
    assert_eq!(Weights::default().race_lead, 400);
    let none = Weights::default()
        .with_settings("race_lead=0", ':')
        .unwrap();
    let plain = DefaultEval::with_weights(none).evaluate(&green);
    let w = Weights::default()
        .with_settings("race_lead=500", ':')
        .unwrap();
    let led = DefaultEval::with_weights(w).evaluate(&green);
    assert_eq!(led[1], plain[1] + 500);
    assert!(led[0] <= plain[0] && led[2] <= plain[2]);
    assert!(led[0] + led[2] < plain[0] + plain[2]);
    // Where nobody leads it changes nothing.
    assert_eq!(
        DefaultEval::with_weights(w).evaluate(&start),
        DefaultEval::with_weights(none).evaluate(&start)
    );
}

#[test]
fn pieces_are_in_contact_within_three_steps_of_an_opponent_s() {
    use plyforge_chexers::CONTACT_DISTANCE;
    assert_eq!(CONTACT_DISTANCE, 3);
    // Along the middle row: three steps apart, one action brings either beside the other.
    let three = pos("..../...../....../r..g.../....../...../.... r 0,0,0 0");
    assert!(three.in_contact(0) && three.in_contact(1));
    let four = pos("..../...../....../r...g../....../...../.... r 0,0,0 0");
    assert!(!four.in_contact(0) && !four.in_contact(1));
    // A player without pieces touches nobody; Blue, far away, is out of reach.
    assert!(!four.in_contact(2));
    // Two corners of the board side by side are three steps apart; Blue, in a corner
    // further on, six from both.
    let blue = pos("r..g/...../....../......./....../...../...b r 0,0,0 0");
    assert!(!blue.in_contact(2) && blue.in_contact(0) && blue.in_contact(1));
    // At the start each player's piece at an end of its edge is three steps from its
    // neighbour's, around the empty corner between them.
    let start = Position::start();
    assert!((0..3).all(|p| start.in_contact(p)));
}

/// `leader_race`: the race leader's work is the race table's count, the others' unchanged.
#[test]
fn leader_race_counts_the_leader_s_work_by_the_race_table() {
    use plyforge_chexers::search::rng::XorShift64Star as Rng;
    use plyforge_chexers::search::MAX_EVAL;
    let off = DefaultEval::default();
    let on = DefaultEval::with_weights(Weights {
        leader_race: 1,
        ..Weights::default()
    });
    let (mut led, mut shorter) = (0, 0);
    for seed in 1..400u64 {
        let mut rng = Rng::seeded(seed);
        let mut p = Position::start();
        while p.outcome().is_none() && p.turns() < 300 {
            let moves = p.moves();
            p.play(moves[rng.below(moves.len())]);
            let (a, b) = (off.evaluate(&p), on.evaluate(&p));
            match race_leader(&p) {
                None => assert_eq!(a, b, "{p}: no leader, no change"),
                Some(l) => {
                    let t = Terms::of(&p, l);
                    if t.hopeless
                        || t.missing > 0
                        || a[l].abs() == MAX_EVAL
                        || b[l].abs() == MAX_EVAL
                    {
                        continue;
                    }
                    let race = race_to_win(&p, l).expect("a leader has its race") as i32;
                    let step = Weights::default().step;
                    assert_eq!(b[l] - a[l], step * (t.work - race), "{p}");
                    led += 1;
                    shorter += usize::from(race < t.work);
                }
            }
        }
    }
    assert!(
        led > 50 && shorter > 10,
        "{led} positions with a leader, {shorter} shorter"
    );
}

/// The race move: wherever the player to move leads the race, its table move is legal and
/// either wins at once or keeps it the leader with a race as short as any other move that
/// keeps the lead leaves (at least one action shorter); nowhere else is there one. The engine plays it without a search (`tables=on`, the
/// default) and searches when told not to use it.
#[test]
fn the_race_leader_plays_the_race_table_s_move() {
    use plyforge_chexers::search::rng::XorShift64Star as Rng;
    let (mut led, mut blocked, mut shorter) = (0, 0, 0);
    let mut engine = Search::new(engine_config(), DefaultEval::default());
    for seed in 1..400u64 {
        let mut rng = Rng::seeded(seed);
        let mut p = Position::start();
        while p.outcome().is_none() && p.turns() < 300 {
            let me = p.to_move();
            let leads = race_leader(&p) == Some(me);
            match race_move(&p) {
                None => blocked += usize::from(leads),
                Some(m) => {
                    assert!(leads, "{p}: a race move without the lead");
                    assert_eq!(p.why_illegal(m), None, "{p}: {m}");
                    let mut child = p.clone();
                    child.play(m);
                    if child.outcome().is_none() {
                        let now = race_to_win(&p, me).unwrap();
                        let after = race_to_win(&child, me).unwrap();
                        assert!(after < now, "{p}: {m}");
                        assert_eq!(race_leader(&child), Some(me), "{p}: {m}");
                        for other in p.moves() {
                            let mut c = p.clone();
                            c.play(other);
                            assert!(c.outcome().is_none(), "{p}: {other} wins at once");
                            if race_leader(&c) == Some(me) {
                                assert!(race_to_win(&c, me).unwrap() >= after, "{p}: {other}");
                            }
                        }
                        shorter += usize::from(after + 1 < now);
                    }
                    if led % 8 == 0 {
                        let r = engine.run(&p, &[], Limits::depth(3), |_| {});
                        assert_eq!((r.best, r.depth, r.nodes), (Some(m), 0, 0), "{p}");
                        let mut searcher = Search::new(
                            engine_config().with_table_moves(false),
                            DefaultEval::default(),
                        );
                        let s = searcher.run(&p, &[], Limits::depth(3), |_| {});
                        assert_eq!(s.depth, 3, "{p}");
                    }
                    led += 1;
                }
            }
            let moves = p.moves();
            p.play(moves[rng.below(moves.len())]);
        }
    }
    // Conversions on the way can shorten a race by more than one action.
    assert!(
        led > 100 && shorter > 0,
        "{led} positions where the mover leads ({blocked} blocked, {shorter} shortened by more than one action)"
    );
}
