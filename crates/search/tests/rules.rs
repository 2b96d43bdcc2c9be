//! Game-rule handling: repetition along the path and in the history, extra moves, mate scores.

use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
use plyforge_search::{
    reference, Algorithm, Config, DrawKind, Evaluator, Game, Limits, MoveList, Outcome, Player,
    Record, Scores, Search, MATE,
};

fn engine(algorithm: Algorithm, use_tt: bool) -> Search<Synthetic, SyntheticEval> {
    Search::new(
        Config::default()
            .with_algorithm(algorithm)
            .with_tt_mib(if use_tt { 1 } else { 0 }),
        SyntheticEval,
    )
}

/// Games whose positions recur; the history is a random walk from the root.
fn cyclic(seed: u64, players: u8, outcome: Outcome) -> (Synthetic, Vec<u64>) {
    let spec = Spec {
        seed,
        players,
        width: 3 + seed % 3,
        cyclic: true,
        skip: true,
        terminal_per_mille: 30,
        repetition: Some((3, outcome)),
        ..Spec::default()
    };
    let mut record = Record::new(Synthetic::new(spec));
    let mut rng = seed;
    for _ in 0..(seed % 7) {
        let moves = record.legal_moves();
        if moves.is_empty() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(rng >> 33) as usize % moves.len()];
        if record.play(m).unwrap().is_some() {
            break;
        }
    }
    (*record.position(), record.history_keys().to_vec())
}

#[test]
fn repetition_on_the_path_and_in_the_history_scores_the_rule() {
    let mut repeated = 0;
    for seed in 0..24 {
        for outcome in [Outcome::Draw(DrawKind::Repetition), Outcome::Win(1)] {
            let (game, history) = cyclic(seed, 2, outcome);
            if game.outcome().is_some() {
                continue;
            }
            // The history with and without the current position's key last.
            let without_current = &history[..history.len() - 1];
            for hist in [&history[..], without_current] {
                let mut e = engine(Algorithm::AlphaBeta, false);
                e.run(&game, hist, Limits::depth(6), |r| {
                    let want = reference::minimax(&game, &SyntheticEval, r.depth, hist, true);
                    assert_eq!(r.score, want, "seed {seed} depth {}", r.depth);
                });
            }
            // The rule matters here: without it the values differ somewhere.
            let no_rule = Synthetic::new(Spec {
                repetition: None,
                ..*game.spec()
            });
            let plain = Synthetic::at(*no_rule.spec(), game.id(), game.level(), game.to_move());
            if (1..=6).any(|d| {
                reference::minimax(&plain, &SyntheticEval, d, &history, false)
                    != reference::minimax(&game, &SyntheticEval, d, &history, false)
            }) {
                repeated += 1;
            }
        }
    }
    assert!(repeated > 10, "repetitions too rare to test: {repeated}");
}

#[test]
fn repetition_in_three_player_searches() {
    for seed in 0..12 {
        let (game, history) = cyclic(seed, 3, Outcome::Draw(DrawKind::Repetition));
        if game.outcome().is_some() {
            continue;
        }
        for algorithm in [Algorithm::Paranoid, Algorithm::BestReply, Algorithm::MaxN] {
            let mut e = engine(algorithm, false);
            e.run(&game, &history, Limits::depth(5), |r| {
                let d = r.depth;
                match algorithm {
                    Algorithm::Paranoid => assert_eq!(
                        r.score,
                        reference::paranoid(&game, &SyntheticEval, d, &history, true)
                    ),
                    Algorithm::BestReply => assert_eq!(
                        r.score,
                        reference::best_reply(&game, &SyntheticEval, d, &history, true)
                    ),
                    _ => assert_eq!(
                        r.scores,
                        reference::maxn(&game, &SyntheticEval, d, &history, true)
                    ),
                }
            });
        }
    }
}

/// Extra moves everywhere: the same player often moves again (no negation, same window).
#[test]
fn extra_moves_are_searched_without_negation() {
    for seed in 0..10 {
        let game = Synthetic::new(Spec {
            seed,
            width: 8,
            extra_move_per_mille: 600,
            ..Spec::default()
        });
        let mut e = engine(Algorithm::AlphaBeta, true);
        e.run(&game, &[], Limits::depth(6), |r| {
            assert_eq!(
                r.score,
                reference::minimax(&game, &SyntheticEval, r.depth, &[], true)
            );
        });
    }
}

/// A race: each player moves a counter toward 0; a move of 2 steps ends the own turn, a
/// move of 1 step gives another move. Reaching 0 first wins.
#[derive(Clone, Debug)]
struct Race {
    left: [u8; 2],
    to_move: Player,
}

impl Game for Race {
    type Move = u8;
    fn players(&self) -> usize {
        2
    }
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn legal_moves(&self, out: &mut MoveList<u8>) {
        if self.outcome().is_none() {
            out.push(1);
            if self.left[self.to_move] >= 2 {
                out.push(2);
            }
        }
    }
    fn play(&mut self, step: u8) {
        self.left[self.to_move] -= step;
        if step == 2 {
            self.to_move = 1 - self.to_move;
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        (0..2).find(|&p| self.left[p] == 0).map(Outcome::Win)
    }
    fn key(&self) -> u64 {
        (self.left[0] as u64) << 16 | (self.left[1] as u64) << 8 | self.to_move as u64
    }
    fn recompute_key(&self) -> u64 {
        self.key()
    }
}

struct Zero;
impl Evaluator<Race> for Zero {
    fn evaluate(&self, _: &Race) -> Scores {
        [0; 3]
    }
}

#[test]
fn extra_move_game_prefers_the_fastest_win() {
    let mut e = Search::new(Config::default(), Zero);
    let mut race = |left: [u8; 2], to_move: Player| {
        let r = e.run(&Race { left, to_move }, &[], Limits::depth(8), |_| {});
        (r.score, r.pv)
    };
    // Player 0 with 5 steps left: 1, 1, 1, then 2 wins on the 4th ply (a 2 earlier would
    // hand the turn over, and five 1s take a ply longer).
    assert_eq!(race([5, 9], 0), (MATE - 4, vec![1, 1, 1, 2]));
    // Player 1 with 1 step left wins on the first ply.
    assert_eq!(race([2, 1], 1), (MATE - 1, vec![1]));
    // Player 1 with 3 left: 1 then 2.
    assert_eq!(race([1, 3], 1), (MATE - 2, vec![1, 2]));
    // Player 0 with 4 left, the opponent 1 step away: 1, 1, 2 wins on the 3rd ply, while a
    // 2 any earlier hands over the turn and loses on the next ply.
    assert_eq!(race([4, 1], 0), (MATE - 3, vec![1, 1, 2]));
    // Player 0 with 3 left, the opponent 2 away: 1 then 2 wins; a 2 first would lose.
    assert_eq!(race([3, 2], 0), (MATE - 2, vec![1, 2]));
}

/// Non-zero-sum: max^n lets both players prefer "both win" to "both lose".
#[test]
fn maxn_prefers_both_win_to_both_lose() {
    #[derive(Clone, Debug)]
    struct Pact {
        moves: u8,
        choice: Option<bool>,
    }
    impl Game for Pact {
        type Move = bool;
        fn players(&self) -> usize {
            2
        }
        fn to_move(&self) -> Player {
            self.moves as usize % 2
        }
        fn legal_moves(&self, out: &mut MoveList<bool>) {
            if self.outcome().is_none() {
                out.extend([false, true]);
            }
        }
        fn play(&mut self, cooperate: bool) {
            self.moves += 1;
            self.choice = Some(cooperate);
        }
        fn outcome(&self) -> Option<Outcome> {
            // Player 0 chooses once: cooperation makes both win, else both lose.
            self.choice.map(|c| {
                if c {
                    Outcome::BothWin
                } else {
                    Outcome::BothLose
                }
            })
        }
        fn key(&self) -> u64 {
            self.moves as u64 * 3 + self.choice.map_or(0, |c| 1 + c as u64)
        }
        fn recompute_key(&self) -> u64 {
            self.key()
        }
    }
    struct Flat;
    impl Evaluator<Pact> for Flat {
        fn evaluate(&self, _: &Pact) -> Scores {
            [0; 3]
        }
    }
    let mut e = Search::new(Config::default().with_algorithm(Algorithm::MaxN), Flat);
    let r = e.run(
        &Pact {
            moves: 0,
            choice: None,
        },
        &[],
        Limits::depth(3),
        |_| {},
    );
    assert_eq!(r.best, Some(true));
    assert_eq!(r.scores[0], r.scores[1]);
    assert!(r.score > plyforge_search::MAX_EVAL && r.score < plyforge_search::MATE_BOUND);
}
