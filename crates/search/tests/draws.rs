//! Draw-aware scoring: where an evaluation scores draws ([`Evaluator::draw_scores`]), every
//! search scores turn-limit draws and repetition draws with it, exactly as the brute-force
//! definitions do.

use plyforge_search::synthetic::{Payoffs, Spec, Synthetic, SyntheticEval};
use plyforge_search::{
    reference, Algorithm, Config, DrawKind, Evaluator, Game, Limits, Outcome, Record, Scores,
    Search, MAX_EVAL,
};

/// The synthetic evaluation, with draws scored from each player's standing: a draw is worth
/// less the better a player stands (and a little less than a level game to everybody), as
/// Chexers scores them. Repetition draws and turn-limit draws are told apart.
struct DrawAware;

impl Evaluator<Synthetic> for DrawAware {
    fn evaluate(&self, game: &Synthetic) -> Scores {
        SyntheticEval.evaluate(game)
    }

    fn draw_scores(&self, game: &Synthetic, kind: DrawKind) -> Scores {
        let e = SyntheticEval.evaluate(game);
        let contempt = match kind {
            DrawKind::Repetition => 70,
            _ => 30,
        };
        let mut d = [0; 3];
        for p in 0..game.players() {
            d[p] = -e[p] / 2 - contempt;
        }
        // Beyond the evaluation's range: the engine clamps it.
        if e[0] > 900 {
            d[0] = 3 * MAX_EVAL;
        }
        d
    }
}

fn config(algorithm: Algorithm, tt: bool, threads: usize) -> Config {
    Config::default()
        .with_algorithm(algorithm)
        .with_threads(threads)
        .with_tt_mib(if tt { 1 } else { 0 })
        .with_quiescence(true)
}

/// Short games: many lines end in the turn-limit draw within the search's depth.
fn short_game(seed: u64, players: u8) -> Synthetic {
    Synthetic::new(Spec {
        seed,
        players,
        skip: true,
        width: 4 + seed % 9,
        length: 3 + (seed % 3) as u16,
        payoffs: if players == 3 && seed % 2 == 0 {
            Payoffs::GeneralSum
        } else {
            Payoffs::ZeroSum
        },
        ..Spec::default()
    })
}

/// The value every search should give `game` at `depth`: the reference of its algorithm.
fn want<E: Evaluator<Synthetic>>(
    algorithm: Algorithm,
    game: &Synthetic,
    eval: &E,
    depth: u32,
    history: &[u64],
) -> Scores {
    match algorithm {
        Algorithm::MaxN => reference::maxn(game, eval, depth, history, true),
        Algorithm::BestReply => [
            reference::best_reply(game, eval, depth, history, true),
            0,
            0,
        ],
        _ => [reference::paranoid(game, eval, depth, history, true), 0, 0],
    }
}

fn check(algorithm: Algorithm, game: &Synthetic, config: &Config, depth: u32, history: &[u64]) {
    let mut engine = Search::new(config.clone(), DrawAware);
    engine.run(game, history, Limits::depth(depth), |r| {
        let w = want(algorithm, game, &DrawAware, r.depth, history);
        if algorithm == Algorithm::MaxN {
            assert_eq!(
                r.scores,
                w,
                "{:?} depth {} {config:?}",
                game.spec(),
                r.depth
            );
        } else {
            assert_eq!(
                r.score,
                w[0],
                "{:?} depth {} {config:?}",
                game.spec(),
                r.depth
            );
        }
    });
}

const ALGORITHMS: [Algorithm; 4] = [
    Algorithm::AlphaBeta,
    Algorithm::Paranoid,
    Algorithm::BestReply,
    Algorithm::MaxN,
];

#[test]
fn turn_limit_draws_score_the_evaluations_draw_value_in_every_search() {
    let mut differ = 0;
    for seed in 0..16 {
        for players in [2, 3] {
            let game = short_game(seed, players);
            for algorithm in ALGORITHMS {
                if algorithm == Algorithm::AlphaBeta && players == 3 {
                    continue;
                }
                for (tt, threads) in [(true, 1), (false, 1), (true, 2)] {
                    check(algorithm, &game, &config(algorithm, tt, threads), 6, &[]);
                }
            }
            // The draw values matter: with draws worth 0 some value differs.
            if (1..=6).any(|d| {
                reference::maxn(&game, &DrawAware, d, &[], true)
                    != reference::maxn(&game, &SyntheticEval, d, &[], true)
            }) {
                differ += 1;
            }
        }
    }
    assert!(differ > 16, "draws too rare to test: {differ} of 32 games");
}

/// Games whose positions recur, with a drawing repetition rule, after a random walk.
fn cyclic(seed: u64, players: u8) -> (Synthetic, Vec<u64>) {
    let spec = Spec {
        seed,
        players,
        width: 3 + seed % 3,
        cyclic: true,
        skip: true,
        terminal_per_mille: 30,
        repetition: Some((3, Outcome::Draw(DrawKind::Repetition))),
        ..Spec::default()
    };
    let mut record = Record::new(Synthetic::new(spec));
    let mut rng = plyforge_search::rng::XorShift64Star::seeded(seed);
    for _ in 0..(seed % 7) {
        let moves = record.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        if record.play(m).expect("a legal move").is_some() {
            break;
        }
    }
    (*record.position(), record.history_keys().to_vec())
}

#[test]
fn repetition_draws_score_the_repeated_positions_draw_value() {
    let mut differ = 0;
    for seed in 0..16 {
        for players in [2, 3] {
            let (game, history) = cyclic(seed, players);
            if game.outcome().is_some() {
                continue;
            }
            for algorithm in ALGORITHMS {
                if algorithm == Algorithm::AlphaBeta && players == 3 {
                    continue;
                }
                check(algorithm, &game, &config(algorithm, false, 1), 5, &history);
            }
            if (1..=5).any(|d| {
                reference::maxn(&game, &DrawAware, d, &history, true)
                    != reference::maxn(&game, &SyntheticEval, d, &history, true)
            }) {
                differ += 1;
            }
        }
    }
    assert!(differ > 12, "repetitions too rare to test: {differ}");
}

/// A search from a drawn position reports the draw's value, clamped to the evaluation's range.
#[test]
fn a_drawn_root_reports_the_draw_value() {
    let mut seen = 0;
    for seed in 0..200 {
        let game = short_game(seed, 3);
        let mut record = Record::new(game);
        while record.result().is_none() {
            let m = record.legal_moves()[0];
            record.play(m).expect("a legal move");
        }
        let end = *record.position();
        if !matches!(end.outcome(), Some(Outcome::Draw(_))) {
            continue;
        }
        seen += 1;
        let mut engine = Search::new(config(Algorithm::MaxN, false, 1), DrawAware);
        let r = engine.run(&end, &[], Limits::depth(3), |_| {});
        let d = DrawAware.draw_scores(&end, DrawKind::TurnLimit);
        for (got, want) in r.scores.iter().zip(d) {
            assert_eq!(*got, want.clamp(-MAX_EVAL, MAX_EVAL));
        }
        assert!(r.best.is_none());
    }
    assert!(seen > 10);
}

/// [`Config::repetition_check`]: where the search's move repeats a position of the game's
/// history, the move is the other model's when that one leaves the cycle, and the search's
/// own otherwise; elsewhere the check changes nothing.
#[test]
fn the_repetition_check_plays_the_other_models_way_out() {
    let (mut repeating, mut changed) = (0, 0);
    for seed in 0..300 {
        let (game, history) = cyclic(seed, 3);
        if game.outcome().is_some() {
            continue;
        }
        let best = |config: Config| {
            Search::new(config.with_tt_mib(0), DrawAware)
                .run(&game, &history, Limits::depth(4), |_| {})
                .best
                .expect("a move")
        };
        let repeats = |mv| {
            let mut child = game;
            child.play(mv);
            history.contains(&child.repetition_key())
        };
        let paranoid = best(Config::default().with_algorithm(Algorithm::Paranoid));
        let maxn = best(Config::default().with_algorithm(Algorithm::MaxN));
        let checked = best(
            Config::default()
                .with_algorithm(Algorithm::Paranoid)
                .with_repetition_check(Some(Algorithm::MaxN)),
        );
        let want = if repeats(paranoid) && !repeats(maxn) {
            maxn
        } else {
            paranoid
        };
        assert_eq!(checked, want, "{:?} history {history:?}", game.spec());
        repeating += usize::from(repeats(paranoid));
        changed += usize::from(checked != paranoid);
    }
    assert!(
        repeating >= 40 && changed >= 10,
        "too few repeating moves to test: {repeating} repeating, {changed} changed"
    );
}

/// [`Config::avoid_repetition_end`]: the root player never plays the move whose position
/// ends the game by the repetition rule (it occurred as often as the rule allows less one)
/// while another move does not lose by force: such a move scores just below every
/// evaluation. Where no move ends the game the search is the same as without it.
#[test]
fn the_root_player_keeps_out_of_the_repetition_rules_end() {
    let (mut ending, mut avoided) = (0, 0);
    for seed in 0..300 {
        for players in [2, 3] {
            let (game, history) = cyclic(seed, players);
            if game.outcome().is_some() {
                continue;
            }
            let (limit, _) = game.repetition_rule().expect("a repetition rule");
            let ends = |mv| {
                let mut child = game;
                child.play(mv);
                let k = child.repetition_key();
                history.iter().filter(|&&h| h == k).count() as u32 + 1 >= limit
            };
            let moves = {
                let mut m = plyforge_search::MoveList::new();
                game.legal_moves(&mut m);
                m
            };
            let any_end = moves.iter().any(|&m| ends(m));
            for algorithm in ALGORITHMS {
                if algorithm == Algorithm::AlphaBeta && players == 3 {
                    continue;
                }
                for threads in [1, 2] {
                    let run = |avoid: bool| {
                        let c = config(algorithm, true, threads).with_avoid_repetition_end(avoid);
                        Search::new(c, DrawAware).run(&game, &history, Limits::depth(4), |_| {})
                    };
                    let (on, off) = (run(true), run(false));
                    let best = on.best.expect("a move");
                    let own = if algorithm == Algorithm::MaxN {
                        on.scores[game.to_move()]
                    } else {
                        on.score
                    };
                    if !any_end {
                        if threads == 1 {
                            assert_eq!(
                                (on.best, on.score, on.scores),
                                (off.best, off.score, off.scores)
                            );
                        }
                        continue;
                    }
                    if ends(best) {
                        // Only when every other move loses by force.
                        assert_eq!(own, -(MAX_EVAL + 1), "{:?} {algorithm:?}", game.spec());
                    } else {
                        assert!(own > -(MAX_EVAL + 1), "{:?} {algorithm:?}", game.spec());
                    }
                    if threads == 1 && off.best.is_some_and(ends) {
                        ending += 1;
                        avoided += usize::from(!ends(best));
                    }
                }
            }
        }
    }
    assert!(
        ending >= 20 && avoided >= 20,
        "too few ending moves to test: {ending} chosen without the rule, {avoided} avoided"
    );
}
