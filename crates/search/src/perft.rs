//! Perft: the number of leaves of the move tree, the standard check of a move generator.

use crate::game::{Game, MoveList};

/// Leaf count of the move tree of `game` to `depth` plies.
///
/// The position's own rules only: history rules (repetition, applied by [`crate::Record`])
/// are not, and a finished position has no moves, so a line that ends before `depth`
/// contributes nothing and one that ends exactly at `depth` one leaf. The last ply is
/// counted from the move list without playing the moves.
///
/// ```
/// use plyforge_search::{perft, Game};
/// use plyforge_search::synthetic::{Spec, Synthetic};
///
/// let g = Synthetic::new(Spec { seed: 7, ..Spec::default() });
/// assert_eq!(perft(&g, 0), 1);
/// assert_eq!(perft(&g, 1), g.moves().len() as u64);
/// ```
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut child = game.clone();
    moves
        .iter()
        .map(|&m| {
            child.play_from(game, m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by the first move: each legal move with the leaf count below it, in the
/// order of [`Game::legal_moves`] (their sum is `perft(game, depth)` for `depth >= 1`).
///
/// ```
/// use plyforge_search::{perft, perft_divide};
/// use plyforge_search::synthetic::{Spec, Synthetic};
///
/// let g = Synthetic::new(Spec { seed: 3, ..Spec::default() });
/// let split = perft_divide(&g, 3);
/// assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), perft(&g, 3));
/// ```
pub fn perft_divide<G: Game>(game: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut child = game.clone();
    moves
        .iter()
        .map(|&m| {
            child.play_from(game, m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
