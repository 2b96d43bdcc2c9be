//! Score conventions shared by the searches and the reference implementations.

use crate::game::{Evaluator, Game, Outcome, Player, Scores, MAX_EVAL};
use crate::types::{MATE, MATE_BOUND};

/// Larger than any score: the initial window bound.
pub(crate) const INF: i32 = MATE + 1;

/// Base of the scores for "every player won" (+) and "every player lost" (−) outcomes, which
/// lie between heuristic values (|v| ≤ [`MAX_EVAL`]) and forced wins (|v| > [`MATE_BOUND`]).
pub const HALF_MATE: i32 = MATE / 2;

const _: () = assert!(HALF_MATE - 10_000 > MAX_EVAL && HALF_MATE < MATE_BOUND);

/// The root player's score of its own move that ends the game by the repetition rule, with
/// [`crate::Config::avoid_repetition_end`]: below every evaluation, above a forced loss.
pub(crate) const SHUNNED: i32 = -(MAX_EVAL + 1);

/// Repetition keys whose next occurrence ends the game by its repetition rule, given the
/// game's `history` (its positions' keys, each as often as it occurred); empty unless `on`
/// and the game has such a rule ([`crate::Config::avoid_repetition_end`]).
pub(crate) fn repetition_ends<G: Game>(
    game: &G,
    history: &[u64],
    on: bool,
) -> fxhash::FxHashSet<u64> {
    let mut ends = fxhash::FxHashSet::default();
    let Some((limit, _)) = game.repetition_rule().filter(|_| on) else {
        return ends;
    };
    let mut counts: fxhash::FxHashMap<u64, u32> = fxhash::FxHashMap::default();
    for &k in history {
        *counts.entry(k).or_insert(0) += 1;
    }
    ends.extend(
        counts
            .into_iter()
            .filter(|&(_, c)| c + 1 >= limit)
            .map(|(k, _)| k),
    );
    ends
}

/// Score, for `player`, of a game that ended with `outcome` `ply` plies from the root.
///
/// | utility ([`Outcome::utility`]) | score |
/// |---|---|
/// | own win (2) | `MATE - ply` (faster wins score higher) |
/// | both win (1) | `HALF_MATE - ply` |
/// | draw (0) | `0` |
/// | both lose (−1) | `-(HALF_MATE - ply)` (later is better) |
/// | own loss (−2) | `-(MATE - ply)` (slower losses score higher) |
///
/// Every search of this crate and every function of [`crate::reference`] scores terminal
/// positions (and repetitions, with the repetition rule's outcome) this way.
pub fn outcome_score(outcome: Outcome, player: Player, ply: u32) -> i32 {
    let ply = ply as i32;
    match outcome.utility(player) {
        u if u >= 2 => MATE - ply,
        1 => HALF_MATE - ply,
        0 => 0,
        -1 => -(HALF_MATE - ply),
        _ => -(MATE - ply),
    }
}

/// Scores of every player for a finished game (zero beyond `players`).
pub(crate) fn outcome_scores(o: Outcome, players: usize, ply: usize) -> Scores {
    let mut s = [0; 3];
    for (p, v) in s.iter_mut().enumerate().take(players) {
        *v = outcome_score(o, p, ply as u32);
    }
    s
}

/// Score, for `player`, of the game ended at `game` with `outcome`, `ply` plies from the
/// root: [`outcome_score`], except that a draw scores the evaluation's
/// [`Evaluator::draw_scores`] (clamped to ±[`MAX_EVAL`]). Every search and every reference
/// definition scores ends this way.
#[inline]
pub(crate) fn end_score<G: Game, E: Evaluator<G>>(
    eval: &E,
    game: &G,
    outcome: Outcome,
    player: Player,
    ply: u32,
) -> i32 {
    match outcome {
        Outcome::Draw(kind) => eval.draw_scores(game, kind)[player].clamp(-MAX_EVAL, MAX_EVAL),
        _ => outcome_score(outcome, player, ply),
    }
}

/// [`end_score`] of every player (zero beyond `players`).
pub(crate) fn end_scores<G: Game, E: Evaluator<G>>(
    eval: &E,
    game: &G,
    outcome: Outcome,
    players: usize,
    ply: usize,
) -> Scores {
    match outcome {
        Outcome::Draw(kind) => {
            let d = eval.draw_scores(game, kind);
            let mut s = [0; 3];
            for (p, v) in s.iter_mut().enumerate().take(players) {
                *v = d[p].clamp(-MAX_EVAL, MAX_EVAL);
            }
            s
        }
        _ => outcome_scores(outcome, players, ply),
    }
}

/// An evaluation with the entries past `players` zeroed.
pub(crate) fn masked(mut s: Scores, players: usize) -> Scores {
    for v in s.iter_mut().skip(players) {
        *v = 0;
    }
    s
}

/// Scores beyond the evaluator's range depend on the ply they were found at.
#[inline]
fn ply_dependent(score: i32) -> bool {
    !(-MAX_EVAL..=MAX_EVAL).contains(&score)
}

/// Converts a root-relative score found at `ply` into a node-relative one for the table.
#[inline]
pub(crate) fn to_tt(score: i32, ply: usize) -> i32 {
    if !ply_dependent(score) {
        score
    } else if score > 0 {
        score + ply as i32
    } else {
        score - ply as i32
    }
}

/// Converts a node-relative table score back to a root-relative one at `ply`.
#[inline]
pub(crate) fn from_tt(score: i32, ply: usize) -> i32 {
    if !ply_dependent(score) {
        score
    } else if score > 0 {
        score - ply as i32
    } else {
        score + ply as i32
    }
}

/// Deepest ply the searches look at: nodes this far from the root are evaluated statically.
pub const MAX_PLY: usize = 128;

/// Most plies of quiescence search below the horizon.
pub const MAX_QUIESCENCE_PLY: usize = 32;

/// Largest depth an iteration may have.
pub(crate) const MAX_DEPTH: u32 = 100;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DrawKind;

    #[test]
    fn outcome_scores_order_as_players_prefer() {
        let w = outcome_score(Outcome::Win(0), 0, 5);
        let bw = outcome_score(Outcome::BothWin, 0, 5);
        let d = outcome_score(Outcome::Draw(DrawKind::Score), 0, 5);
        let bl = outcome_score(Outcome::BothLose, 0, 5);
        let l = outcome_score(Outcome::Win(1), 0, 5);
        assert!(w > bw && bw > MAX_EVAL && d == 0 && bl < -MAX_EVAL && l < bl);
        assert_eq!(crate::mate_distance(w), Some(5));
        assert_eq!(crate::mate_distance(l), Some(-5));
        assert_eq!(crate::mate_distance(bw), None);
        // Faster wins and slower losses are preferred.
        assert!(outcome_score(Outcome::Win(0), 0, 3) > w);
        assert!(outcome_score(Outcome::Win(1), 0, 7) > l);
        assert!(outcome_score(Outcome::BothLose, 0, 7) > bl);
    }

    #[test]
    fn table_scores_round_trip() {
        for s in [
            0,
            17,
            -MAX_EVAL,
            MATE - 9,
            -(MATE - 9),
            HALF_MATE - 4,
            -(HALF_MATE - 4),
        ] {
            for ply in [0, 1, 5] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // A win 9 plies from the root found at ply 5 is a win in 4 from that node.
        assert_eq!(to_tt(MATE - 9, 5), MATE - 4);
    }
}
