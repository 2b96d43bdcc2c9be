//! Move ordering: the table's move first, then killer moves, then by the evaluator's hint
//! ([`Evaluator::move_hint`](crate::Evaluator::move_hint)) and the history heuristic.
//!
//! Ordering only decides the order in which the moves of a position are searched; values at
//! a fixed depth do not depend on it (ties go to the lowest index, deterministically).

use crate::brs::NodeMoves;
use crate::game::{Evaluator, Game, MAX_HINT};
use crate::history::Heuristics;

/// Marks a move that was already picked.
const DONE: i32 = i32::MIN;
/// Ordering key of the table's move.
const TT_KEY: i32 = i32::MAX;
/// Ordering key of the first killer; the second scores one less.
const KILLER_KEY: i32 = 1 << 29;
/// The key of one step of [`Evaluator::move_hint`](crate::Evaluator::move_hint): more than
/// any history value spans, so that the hint decides first; `MAX_HINT` steps stay below
/// [`KILLER_KEY`].
const HINT_UNIT: i32 = 4 * crate::history::MAX_HISTORY;

/// The not yet searched move with the highest key (the lowest index on ties): the one
/// [`pick`] takes next.
#[inline]
pub(crate) fn next(keys: &[i32]) -> Option<usize> {
    let mut best = None;
    let mut best_key = DONE;
    for (i, &k) in keys.iter().enumerate() {
        if k > best_key {
            best_key = k;
            best = Some(i);
        }
    }
    best
}

/// Picks the not yet searched move with the highest key (the lowest index on ties) and
/// marks it searched.
#[inline]
pub(crate) fn pick(keys: &mut [i32]) -> Option<usize> {
    let best = next(keys);
    if let Some(i) = best {
        keys[i] = DONE;
    }
    best
}

/// Appends the ordering key of each move of a node to `keys`: the table's move
/// (`tt_move`, an index) first, then (with `killers`) the killers of this ply, then by the
/// evaluator's hint and the history heuristic; moves of equal keys keep the game's order. Every part is computed and the key picked by selects: which
/// move is the table's or a killer changes from node to node, and branches on it would be
/// mispredicted.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn order_keys<G: Game, E: Evaluator<G>>(
    keys: &mut Vec<i32>,
    pos: &G,
    node: &NodeMoves<'_, G>,
    moves: &[G::Move],
    eval: &E,
    heur: &Heuristics<G::Move>,
    ply: usize,
    tt_move: u8,
    killers: bool,
) {
    for (i, mv) in moves.iter().enumerate() {
        let at = node.at(pos, i);
        let hint = eval.move_hint(at, *mv);
        let quiet = heur.history(at.to_move(), mv) + hint.clamp(-MAX_HINT, MAX_HINT) * HINT_UNIT;
        let rank = if killers {
            heur.killer_rank(ply, mv)
        } else {
            0
        };
        let k = if rank == 0 {
            quiet
        } else {
            KILLER_KEY - 2 + rank as i32
        };
        keys.push(if i == tt_move as usize { TT_KEY } else { k });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_in_key_order_with_index_ties() {
        let mut keys = [5, TT_KEY, 5, KILLER_KEY, -7, DONE + 1];
        let order: Vec<usize> = std::iter::from_fn(|| pick(&mut keys)).collect();
        assert_eq!(order, vec![1, 3, 0, 2, 4, 5]);
    }
}
