//! Move ordering: the table's move first, then by the evaluator's hint
//! ([`Evaluator::move_hint`](crate::Evaluator::move_hint): the game's own knowledge), and
//! among moves of equal hint the game's noisy moves (captures and the like,
//! [`Game::noisy_moves`](crate::Game::noisy_moves), with [`Config::noisy_first`]), then
//! killer moves, then by the history heuristic.
//!
//! Ordering only decides the order in which the moves of a position are searched; values at
//! a fixed depth do not depend on it (ties go to the lowest index, deterministically).
//!
//! [`Config::noisy_first`]: crate::Config::noisy_first

use crate::brs::NodeMoves;
use crate::game::{Evaluator, Game, MoveList, MAX_HINT};
use crate::history::{Heuristics, MAX_HISTORY};

/// Marks a move that was already picked.
const DONE: i32 = i32::MIN;
/// Ordering key of the table's move.
const TT_KEY: i32 = i32::MAX;
/// Ordering key of the table's move when it is noisy.
const NOISY_TT_KEY: i32 = i32::MAX - 1;
/// The keys of one step of [`Evaluator::move_hint`](crate::Evaluator::move_hint): each
/// hint has a band of its own, wider than what orders the moves inside it (history values
/// within ±[`MAX_HISTORY`], the killers and the noisy moves just above), so that the hint
/// decides first; `MAX_HINT` bands fit in an `i32`.
const HINT_UNIT: i32 = 4 * MAX_HISTORY;
/// Within a hint's band: the first killer's key (the second scores one less)...
const KILLER_OFFSET: i32 = MAX_HISTORY + 2;
/// ... and every noisy move's (ties keep the game's order): above the killers.
const NOISY_OFFSET: i32 = MAX_HISTORY + 8;
const _: () = assert!((MAX_HINT + 1) as i64 * HINT_UNIT as i64 <= i32::MAX as i64 - 2);

/// Whether a move's ordering key (before it was picked) marks it noisy: killers and
/// history learn from the other moves only.
#[inline]
pub(crate) fn is_noisy_key(key: i32) -> bool {
    key == NOISY_TT_KEY || (key != TT_KEY && key.rem_euclid(HINT_UNIT) == NOISY_OFFSET)
}

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
/// marks it searched; returns its index and the key it had.
#[inline]
pub(crate) fn pick(keys: &mut [i32]) -> Option<(usize, i32)> {
    let best = next(keys)?;
    let key = keys[best];
    keys[best] = DONE;
    Some((best, key))
}

/// Appends the ordering key of each move of a node to `keys`: the table's move
/// (`tt_move`, an index) first, then by the evaluator's hint, and among moves of equal hint
/// (with `noisy_first`, not at best-reply search's opponents' layer) the node's noisy
/// moves, then (with `killers`) the killers of this ply, then by the history heuristic;
/// moves of equal keys keep the game's order. Every part is computed and the key picked by
/// selects: which move is the table's or a killer changes from node to node, and branches
/// on it would be mispredicted.
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
    tt_move: u16,
    killers: bool,
    noisy_first: bool,
) {
    let mut noisy: MoveList<G::Move> = MoveList::new();
    if noisy_first && !node.opponents_layer() {
        pos.noisy_moves(&mut noisy);
    }
    // Games that list their noisy moves first (in the same order) need no search for them.
    let prefix = moves.starts_with(&noisy);
    for (i, mv) in moves.iter().enumerate() {
        let at = node.at(pos, i);
        let band = eval.move_hint(at, *mv).clamp(-MAX_HINT, MAX_HINT) * HINT_UNIT;
        let rank = if killers {
            heur.killer_rank(ply, mv)
        } else {
            0
        };
        let is_noisy = if prefix {
            i < noisy.len()
        } else {
            noisy.contains(mv)
        };
        let within = if is_noisy {
            NOISY_OFFSET
        } else if rank > 0 {
            KILLER_OFFSET - 2 + rank as i32
        } else {
            heur.history(at.to_move(), mv)
        };
        let tt = if is_noisy { NOISY_TT_KEY } else { TT_KEY };
        keys.push(if i == tt_move as usize {
            tt
        } else {
            band + within
        });
    }
}

/// Puts the moves of `moves` that are in `noisy` (a node's [`Game::noisy_moves`]) first,
/// each part in the game's order; returns how many there are.
pub(crate) fn noisy_to_front<M: Copy + PartialEq>(moves: &mut [M], noisy: &[M]) -> usize {
    if moves.starts_with(noisy) {
        // Already first (games often list them so).
        return noisy.len();
    }
    let mut front = 0;
    for j in 0..moves.len() {
        if noisy.contains(&moves[j]) {
            moves[front..=j].rotate_right(1);
            front += 1;
        }
    }
    front
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_in_key_order_with_index_ties() {
        let mut keys = [
            5,
            TT_KEY,
            5,
            KILLER_OFFSET,
            NOISY_OFFSET,
            -7,
            NOISY_OFFSET,
            DONE + 1,
        ];
        let order: Vec<usize> = std::iter::from_fn(|| pick(&mut keys).map(|p| p.0)).collect();
        assert_eq!(order, vec![1, 4, 6, 3, 0, 2, 5, 7]);
    }

    #[test]
    fn hints_decide_first_then_noisy_moves_then_killers_then_history() {
        let band = |hint: i32| hint * HINT_UNIT;
        // A quiet move of hint 1 with the worst history beats a noisy move of hint 0.
        assert!(band(1) - MAX_HISTORY > band(0) + NOISY_OFFSET);
        assert!(
            band(-MAX_HINT) - MAX_HISTORY > DONE && band(MAX_HINT) + NOISY_OFFSET < NOISY_TT_KEY
        );
        for hint in [-MAX_HINT, -1, 0, 3, MAX_HINT] {
            let b = band(hint);
            assert!(
                b + NOISY_OFFSET > b + KILLER_OFFSET && b + KILLER_OFFSET - 1 > b + MAX_HISTORY
            );
            assert!(is_noisy_key(b + NOISY_OFFSET));
            for other in [
                MAX_HISTORY,
                -MAX_HISTORY,
                0,
                KILLER_OFFSET,
                KILLER_OFFSET - 1,
            ] {
                assert!(!is_noisy_key(b + other), "{hint} {other}");
            }
        }
        assert!(is_noisy_key(NOISY_TT_KEY) && !is_noisy_key(TT_KEY));
    }

    #[test]
    fn noisy_moves_go_to_the_front_in_the_games_order() {
        let mut moves = [10, 11, 12, 13, 14];
        assert_eq!(noisy_to_front(&mut moves, &[13, 11]), 2);
        assert_eq!(moves, [11, 13, 10, 12, 14]);
        assert_eq!(noisy_to_front(&mut moves, &[11, 13]), 2);
        assert_eq!(moves, [11, 13, 10, 12, 14]);
    }
}
