//! Proof-number search against the brute-force definition: on thousands of synthetic trees
//! (two and three players, extra moves, passes, transpositions, cycles with a repetition
//! rule), "the player to move forces a win within `d` plies" is proven exactly when plain
//! minimax at depth `d` finds a forced win, the shortest win is minimax's mate distance,
//! and `solve` agrees with minimax to the end of the game.

use plyforge_search::prove::{Proof, Prover, Value, UNBOUNDED};
use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
use plyforge_search::{
    mate_distance, reference, DrawKind, Game, Limits, MoveList, Outcome, MATE_BOUND,
};

fn spec(seed: u64, players: u8, cyclic: bool) -> Spec {
    Spec {
        seed,
        players,
        min_branching: 1,
        max_branching: 4,
        width: 8 + seed % 24,
        terminal_per_mille: 120,
        cyclic,
        repetition: cyclic.then_some((2, Outcome::Draw(DrawKind::Repetition))),
        ..Spec::default()
    }
}

/// Minimax's verdict at `depth`: the mate distance of a forced win of the player to move.
fn forced_win(game: &Synthetic, depth: u32, history: &[u64]) -> Option<i32> {
    let v = reference::minimax(game, &SyntheticEval, depth, history, false);
    mate_distance(v).filter(|&d| d > 0)
}

#[test]
fn bounded_proofs_agree_with_minimax() {
    let (mut wins, mut no_wins) = (0, 0);
    for seed in 0..400 {
        let players = if seed % 4 == 3 { 3 } else { 2 };
        let game = Synthetic::new(spec(seed, players, seed % 3 == 0));
        let me = game.to_move();
        let mut prover = Prover::new();
        // Deeper bounds first, then shallower ones, so that the table's entries of one
        // bound meet searches of another.
        for depth in [7, 3, 6, 1, 5, 2, 4] {
            let r = prover.prove_within(&game, me, &[], depth, None, Limits::default());
            let expected = forced_win(&game, depth, &[]);
            match (r.proof, expected) {
                (Proof::Win { plies }, Some(d)) => {
                    assert!(
                        plies as i32 >= d && plies <= depth,
                        "seed {seed} depth {depth}"
                    );
                    let best = r.best.expect("a winning move");
                    if players == 3 {
                        // Minimax from the child is another player's paranoid view.
                        wins += 1;
                        continue;
                    }
                    let mut child = game;
                    child.play(best);
                    let v = -reference::minimax(&child, &SyntheticEval, depth - 1, &[], false);
                    let v = if child.to_move() == me { -v } else { v };
                    assert!(
                        v > MATE_BOUND,
                        "seed {seed} depth {depth}: {best:?} does not win"
                    );
                    wins += 1;
                }
                (Proof::NoWin, None) => no_wins += 1,
                (got, want) => panic!("seed {seed} depth {depth}: {got:?}, minimax {want:?}"),
            }
        }
    }
    assert!(
        wins > 300 && no_wins > 300,
        "{wins} wins, {no_wins} no wins"
    );
}

#[test]
fn the_shortest_win_is_the_mate_distance() {
    let mut found = 0;
    for seed in 1000..1300 {
        let game = Synthetic::new(Spec {
            length: 12,
            ..spec(seed, 2, seed % 2 == 0)
        });
        let mut prover = Prover::new();
        let r = prover.shortest_win(&game, game.to_move(), &[], None, Limits::default());
        // The game ends by its turn limit within 12 plies, so depth 12 is the whole game.
        match (r.proof, forced_win(&game, 12, &[])) {
            (Proof::Win { plies }, Some(d)) => {
                assert_eq!(plies as i32, d, "seed {seed}");
                assert_eq!(
                    r.pv.len(),
                    d as usize,
                    "seed {seed}: the line has the distance"
                );
                let mut p = game;
                for &m in &r.pv {
                    assert!(p.outcome().is_none());
                    p.play(m);
                }
                assert_eq!(
                    p.outcome(),
                    Some(Outcome::Win(game.to_move())),
                    "seed {seed}"
                );
                found += 1;
            }
            (Proof::NoWin, None) => {}
            (got, want) => panic!("seed {seed}: {got:?}, minimax {want:?}"),
        }
    }
    assert!(found > 50, "{found} wins");
}

#[test]
fn solve_agrees_with_minimax_to_the_end() {
    let mut seen = [0; 3];
    for seed in 2000..2300 {
        let game = Synthetic::new(Spec {
            length: 10,
            ..spec(seed, 2, seed % 2 == 1)
        });
        let mut prover = Prover::new();
        let s = prover
            .solve(&game, &[], None, Limits::default())
            .expect("no limits");
        let v = reference::minimax(&game, &SyntheticEval, 10, &[], false);
        let expected = match mate_distance(v) {
            Some(d) if d > 0 => Value::Win(d as u32),
            Some(d) => Value::Loss((-d) as u32),
            None => Value::Draw,
        };
        assert_eq!(s.value, expected, "seed {seed}");
        // Best moves: exactly those whose minimax value is the root's.
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let me = game.to_move();
        let best: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut c = game;
                c.play(m);
                let cv = reference::minimax(&c, &SyntheticEval, 9, &[game.repetition_key()], false);
                let cv = if c.to_move() == me { cv } else { -cv };
                // The child's value one ply further from the root.
                let after = match mate_distance(cv) {
                    Some(d) if cv > 0 => Value::Win(d.unsigned_abs() + 1),
                    Some(d) => Value::Loss(d.unsigned_abs() + 1),
                    None => Value::Draw,
                };
                after == expected
            })
            .collect();
        assert_eq!(s.best, best, "seed {seed}: {expected:?}");
        seen[match s.value {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            _ => 2,
        }] += 1;
    }
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

#[test]
fn limits_stop_the_search_with_an_unknown_result() {
    let game = Synthetic::new(Spec {
        width: 1 << 20,
        length: 200,
        terminal_per_mille: 5,
        min_branching: 3,
        max_branching: 6,
        ..Spec::default()
    });
    let mut prover = Prover::new();
    let r = prover.prove_within(
        &game,
        game.to_move(),
        &[],
        UNBOUNDED,
        None,
        Limits::nodes(20_000),
    );
    assert_eq!(r.proof, Proof::Unknown);
    assert!(r.nodes < 30_000, "{} nodes", r.nodes);
    let stop = std::sync::atomic::AtomicBool::new(true);
    let r = prover.prove(&game, &[], Some(&stop), Limits::default());
    assert_eq!(r.proof, Proof::Unknown);
}

#[test]
fn solve_gives_a_finished_game_its_result() {
    let mut seen = 0;
    for seed in 0..50 {
        let mut game = Synthetic::new(spec(seed, 2, false));
        let mut moves = MoveList::new();
        while game.outcome().is_none() {
            moves.clear();
            game.legal_moves(&mut moves);
            game.play(moves[seed as usize % moves.len()]);
        }
        let s = Prover::new()
            .solve(&game, &[], None, Limits::nodes(1))
            .expect("no search needed");
        let want = match game.outcome() {
            Some(Outcome::Win(w)) if w == game.to_move() => Value::Win(0),
            Some(Outcome::Win(_)) => Value::Loss(0),
            _ => Value::Draw,
        };
        assert_eq!(s.value, want, "seed {seed}");
        assert!(s.best.is_empty() && s.line.is_empty() && s.nodes == 0);
        seen += 1;
    }
    assert_eq!(seen, 50);
}
