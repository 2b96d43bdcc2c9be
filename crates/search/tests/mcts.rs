//! Monte Carlo tree search: deterministic with one thread, exact under a depth limit where
//! the brute force's value is not a forced result, proves the forced results the brute force
//! knows, reuses its tree, plays 2 and 3 players and non-zero-sum games, on either kind of
//! thread sharing.

use plyforge_search::synthetic::{Payoffs, Spec, Synthetic, SyntheticEval};
use plyforge_search::{
    mate_distance, reference, Algorithm, Config, Evaluator, Game, Limits, MateOnly, MctsConfig,
    MctsParallel, MoveList, Outcome, Player, Record, Scores, Search, MATE_BOUND,
};

fn mcts(threads: usize, parallel: MctsParallel) -> Config {
    Config::default()
        .with_algorithm(Algorithm::Mcts)
        .with_threads(threads)
        .with_mcts(MctsConfig::default().with_parallel(parallel).with_seed(5))
}

fn game(seed: u64, players: u8, terminal_per_mille: u16) -> Synthetic {
    Synthetic::new(Spec {
        seed,
        players,
        width: 8 + seed % 9,
        terminal_per_mille,
        ..Spec::default()
    })
}

/// A game of [`game`]'s kind from `seed` on where no move of the root ends the game (so
/// that the solver does not end the search after its first iteration).
fn open_game(seed: u64, players: u8, terminal_per_mille: u16) -> Synthetic {
    (seed..)
        .map(|s| game(s, players, terminal_per_mille))
        .find(|g| {
            g.moves().iter().all(|&m| {
                let mut c = *g;
                c.play(m);
                c.outcome().is_none()
            })
        })
        .expect("an open game")
}

#[test]
fn one_thread_with_a_seed_is_deterministic() {
    for seed in 0..6 {
        for players in [2, 3] {
            let g = open_game(seed, players, 60);
            for playout in [0, 3] {
                let config = mcts(1, MctsParallel::Tree)
                    .with_mcts(MctsConfig::default().with_seed(seed).with_playout(playout));
                let run = || {
                    let mut e = Search::new(config.clone(), SyntheticEval);
                    let mut reports = Vec::new();
                    let r = e.run(&g, &[], Limits::nodes(3000), |r| reports.push(r.clone()));
                    (
                        r.best,
                        r.scores,
                        r.pv.clone(),
                        r.nodes,
                        e.mcts_root(),
                        reports.len(),
                    )
                };
                let (a, b) = (run(), run());
                assert_eq!(a.0, b.0);
                assert_eq!(a.1, b.1);
                assert_eq!(a.2, b.2);
                assert_eq!(a.3, 3000);
                assert_eq!(a.4, b.4, "root visit counts and values");
                assert_eq!(a.5, b.5);
                let visits: u64 = a.4.iter().map(|m| m.1).sum();
                assert!(visits > 2000, "the root's moves hold the visits: {visits}");
            }
        }
    }
}

/// The synthetic game without its declaration of being zero-sum ([`Game::zero_sum`]), and
/// its evaluation.
#[derive(Clone, Copy)]
struct Undeclared(Synthetic);

impl Game for Undeclared {
    type Move = <Synthetic as Game>::Move;
    fn players(&self) -> usize {
        self.0.players()
    }
    fn to_move(&self) -> Player {
        self.0.to_move()
    }
    fn legal_moves(&self, out: &mut MoveList<Self::Move>) {
        self.0.legal_moves(out)
    }
    fn play(&mut self, mv: Self::Move) {
        self.0.play(mv)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn key(&self) -> u64 {
        self.0.key()
    }
    fn recompute_key(&self) -> u64 {
        self.0.recompute_key()
    }
    fn repetition_key(&self) -> u64 {
        self.0.repetition_key()
    }
    fn repetition_rule(&self) -> Option<(u32, Outcome)> {
        self.0.repetition_rule()
    }
}

struct UndeclaredEval;

impl Evaluator<Undeclared> for UndeclaredEval {
    fn evaluate(&self, g: &Undeclared) -> Scores {
        SyntheticEval.evaluate(&g.0)
    }
}

/// A two-player zero-sum game's nodes keep one sum of values (the second player's values
/// are the rest of 1): the same search as with a sum per player, at 1 and 2 threads.
#[test]
fn a_declared_zero_sum_game_searches_as_with_a_sum_per_player() {
    for seed in 0..6 {
        let g = open_game(seed, 2, 60);
        assert!(g.zero_sum() && !Undeclared(g).zero_sum());
        let config = mcts(1, MctsParallel::Tree).with_mcts(
            MctsConfig::default()
                .with_seed(seed)
                .with_playout(seed as u32 % 3),
        );
        let mut one = Search::new(config.clone(), SyntheticEval);
        let mut two = Search::new(config.clone(), UndeclaredEval);
        let a = one.run(&g, &[], Limits::nodes(3000), |_| {});
        let b = two.run(&Undeclared(g), &[], Limits::nodes(3000), |_| {});
        assert_eq!(
            (a.best, &a.pv, a.nodes),
            (b.best, &b.pv, b.nodes),
            "seed {seed}"
        );
        // Within a rounding of the fixed point: 1 − fixed(x) and fixed(1 − x) may differ
        // by one unit.
        assert!(
            (a.scores[0] - b.scores[0]).abs() <= 1,
            "{:?} {:?}",
            a.scores,
            b.scores
        );
        let (ra, rb) = (one.mcts_root(), two.mcts_root());
        assert_eq!(ra.len(), rb.len());
        for (x, y) in ra.iter().zip(&rb) {
            assert_eq!((x.0, x.1), (y.0, y.1), "seed {seed}: visits");
            for p in 0..2 {
                assert!((x.2[p] - y.2[p]).abs() < 1e-4, "seed {seed}: {x:?} {y:?}");
            }
            if x.1 > 0 {
                assert!((x.2[0] + x.2[1] - 1.0).abs() < 1e-4, "{x:?}");
            }
        }
        // Two threads: the values of each player still add up to 1 at the root.
        let mut par = Search::new(config.with_threads(2), SyntheticEval);
        let r = par.run(&g, &[], Limits::nodes(5000), |_| {});
        assert!(g.moves().contains(&r.best.unwrap()));
        for (_, visits, mean) in par.mcts_root() {
            if visits > 0 {
                assert!((mean[0] + mean[1] - 1.0).abs() < 1e-4, "{mean:?}");
            }
        }
    }
}

/// Under a depth limit the search ends when the root is proven within it, and its value is
/// then the minimax value (two players), except that a forced result may come at another
/// distance (the solver takes the first win it proves): the same kind of result.
#[test]
fn under_a_depth_limit_the_value_is_the_minimax_value() {
    let mut forced = 0;
    for seed in 0..40 {
        let g = game(seed, 2, 150);
        for depth in [2, 4, 5] {
            let want = reference::minimax(&g, &SyntheticEval, depth, &[], false);
            for (threads, parallel) in [
                (1, MctsParallel::Tree),
                (2, MctsParallel::Tree),
                (2, MctsParallel::Root),
            ] {
                let mut e = Search::new(mcts(threads, parallel), SyntheticEval);
                let r = e.run(&g, &[], Limits::depth(depth), |_| {});
                assert!(e.mcts_stats().unwrap().proven, "seed {seed} depth {depth}");
                match mate_distance(want) {
                    None => assert_eq!(r.score, want, "seed {seed} depth {depth}"),
                    Some(n) => {
                        forced += 1;
                        let got = mate_distance(r.score);
                        assert!(
                            got.is_some_and(|m| m.signum() == n.signum()),
                            "seed {seed} depth {depth}: {got:?} vs {n}"
                        );
                    }
                }
            }
        }
    }
    assert!(forced > 10, "forced results too rare: {forced}");
}

/// The solver proves the forced wins and losses that a brute-force mate search finds, and
/// the move it plays keeps the win.
#[test]
fn the_solver_proves_what_the_brute_force_knows() {
    let mut wins = 0;
    let mut losses = 0;
    for seed in 0..80 {
        for players in [2, 3] {
            let g = open_game(seed * 7, players, 250);
            let depth = 5;
            let root = g.to_move();
            let want = if players == 2 {
                reference::minimax(&g, &MateOnly(SyntheticEval), depth, &[], false)
            } else {
                reference::maxn(&g, &MateOnly(SyntheticEval), depth, &[], false)[root]
            };
            if want.abs() <= MATE_BOUND {
                continue;
            }
            let mut e = Search::new(mcts(1, MctsParallel::Tree), SyntheticEval);
            let r = e.run(&g, &[], Limits::nodes(200_000), |_| {});
            if want > MATE_BOUND {
                wins += 1;
                assert!(
                    r.score > MATE_BOUND,
                    "seed {seed} players {players}: {}",
                    r.score
                );
                // The win is real: after the move, the brute force sees it within the
                // distance the solver proved (two players; with three, which of two losses
                // an opponent prefers depends on their exact distances, which the solver
                // does not keep).
                let n = mate_distance(r.score).expect("a win") as u32;
                let mut child = g;
                child.play(r.best.unwrap());
                if players == 2 && child.outcome().is_none() && n <= 9 {
                    let v = reference::minimax(&child, &MateOnly(SyntheticEval), n - 1, &[], false);
                    // The same player may move again (no negation then).
                    let after = if child.to_move() == root { v } else { -v };
                    assert!(
                        after > MATE_BOUND,
                        "seed {seed}: the move gave the win away"
                    );
                }
            } else {
                losses += 1;
                // A forced loss within the horizon: nothing better exists, and the solver
                // proves it.
                assert!(
                    r.score < -MATE_BOUND,
                    "seed {seed} players {players}: {}",
                    r.score
                );
            }
        }
    }
    assert!(
        wins > 10 && losses > 3,
        "too few forced results: {wins} wins, {losses} losses"
    );
}

/// Three players: under a depth limit, where no player can force a result anywhere near,
/// the value is the max^n value.
#[test]
fn three_players_under_a_depth_limit_give_the_maxn_value() {
    let mut checked = 0;
    for seed in 0..30 {
        let g = Synthetic::new(Spec {
            players: 3,
            payoffs: Payoffs::GeneralSum,
            terminal_per_mille: 0,
            width: 6 + seed % 5,
            seed,
            ..Spec::default()
        });
        let want = reference::maxn(&g, &SyntheticEval, 4, &[], false);
        let mut e = Search::new(mcts(1, MctsParallel::Tree), SyntheticEval);
        let r = e.run(&g, &[], Limits::depth(4), |_| {});
        assert_eq!(r.scores, want, "seed {seed}");
        checked += 1;
    }
    assert_eq!(checked, 30);
}

#[test]
fn the_tree_is_reused_after_the_moves_it_holds() {
    for players in [2u8, 3] {
        let mut record = Record::new(open_game(3, players, 20));
        let mut e = Search::new(mcts(1, MctsParallel::Tree), SyntheticEval);
        let r = e.run(
            record.position(),
            record.history_keys(),
            Limits::nodes(20_000),
            |_| {},
        );
        assert_eq!(e.mcts_stats().unwrap().reused_visits, 0);
        // One move of each player along the principal variation.
        for &m in r.pv.iter().take(players as usize) {
            record.play(m).unwrap();
        }
        e.run(
            record.position(),
            record.history_keys(),
            Limits::nodes(1000),
            |_| {},
        );
        let reused = e.mcts_stats().unwrap().reused_visits;
        assert!(reused > 100, "{players} players: reused {reused}");
        // A position the tree does not hold: a new tree.
        let other = game(4, players, 20);
        e.run(&other, &[], Limits::nodes(1000), |_| {});
        assert_eq!(e.mcts_stats().unwrap().reused_visits, 0);
        // Reuse off: a new tree every time.
        let mut off = Search::new(
            mcts(1, MctsParallel::Tree).with_mcts(MctsConfig::default().with_reuse(false)),
            SyntheticEval,
        );
        off.run(&other, &[], Limits::nodes(1000), |_| {});
        off.run(&other, &[], Limits::nodes(1000), |_| {});
        assert_eq!(off.mcts_stats().unwrap().reused_visits, 0);
    }
}

/// A two-player game where both win if both cooperate, both lose if both defect, and the
/// cooperator loses alone to a defector: the non-zero-sum values lead to cooperation.
#[derive(Clone, Debug)]
struct Pact {
    moves: Vec<bool>,
}

impl Game for Pact {
    type Move = bool;
    fn players(&self) -> usize {
        2
    }
    fn to_move(&self) -> Player {
        self.moves.len() % 2
    }
    fn legal_moves(&self, out: &mut MoveList<bool>) {
        if self.outcome().is_none() {
            out.extend([false, true]);
        }
    }
    fn play(&mut self, cooperate: bool) {
        self.moves.push(cooperate);
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.moves.len() < 2 {
            return None;
        }
        Some(match (self.moves[0], self.moves[1]) {
            (true, true) => Outcome::BothWin,
            (false, false) => Outcome::BothLose,
            (true, false) => Outcome::Win(1),
            (false, true) => Outcome::Win(0),
        })
    }
    fn key(&self) -> u64 {
        self.moves
            .iter()
            .fold(self.moves.len() as u64, |k, &m| k * 3 + m as u64)
    }
    fn recompute_key(&self) -> u64 {
        self.key()
    }
}

struct Blind;

impl Evaluator<Pact> for Blind {
    fn evaluate(&self, _: &Pact) -> Scores {
        [0; 3]
    }
}

#[test]
fn non_zero_sum_values_are_backed_up_per_player() {
    // By max^n the second player defects whatever the first did (a win alone after a
    // cooperation; "both lose" rather than losing alone after a defection), so the first
    // defects too ("both lose" rather than losing alone). MCTS proves the same.
    let g = Pact { moves: Vec::new() };
    let want = reference::maxn(&g, &Blind, 2, &[], false);
    let mut e = Search::new(mcts(1, MctsParallel::Tree), Blind);
    let r = e.run(&g, &[], Limits::nodes(10_000), |_| {});
    assert!(e.mcts_stats().unwrap().proven);
    assert_eq!(r.scores, want);
    let mut maxn = Search::new(Config::default().with_algorithm(Algorithm::MaxN), Blind);
    assert_eq!(r.best, maxn.run(&g, &[], Limits::depth(2), |_| {}).best);
}

#[test]
fn threads_search_together_within_the_limits() {
    for parallel in [MctsParallel::Tree, MctsParallel::Root] {
        for players in [2, 3] {
            let g = open_game(11, players, 40);
            let mut e = Search::new(mcts(2, parallel), SyntheticEval);
            let r = e.run(&g, &[], Limits::nodes(20_000), |_| {});
            let moves = g.moves();
            assert!(moves.contains(&r.best.unwrap()));
            // The threads claim the limit's iterations in batches: all of them are made,
            // no more.
            assert_eq!(r.nodes, 20_000, "{parallel:?}, {players} players");
            let visits: u64 = e.mcts_root().iter().map(|m| m.1).sum();
            assert!(visits > 15_000, "{parallel:?}: {visits}");
        }
    }
}

#[test]
fn a_stop_or_a_time_limit_ends_the_search() {
    let g = game(12, 3, 40);
    let mut e = Search::new(mcts(1, MctsParallel::Tree), SyntheticEval);
    let r = e.run(
        &g,
        &[],
        Limits::movetime(std::time::Duration::from_millis(30)),
        |_| {},
    );
    assert!(r.best.is_some() && r.nodes > 0);
    let stop = e.stop_handle();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    // A run clears the flag when it starts: this one runs to its limit.
    let r = e.run(&g, &[], Limits::nodes(500), |_| {});
    assert_eq!(r.nodes, 500);
}
