//! Random playouts of a game in progress, played on the typed record (no notation on the
//! way): what Monte Carlo code and speed comparisons call many times.

use crate::dynamic::State;

/// Plays uniformly random legal moves (the seeded [`search::rng::XorShift64Star`] picks
/// among the legal moves in their fixed order) until the game is over or `max_moves` have been played;
/// returns the number of moves played. The same state and seed give the same game.
///
/// ```
/// use plyforge::{playout::random_playout, GameKind};
/// let mut a = GameKind::from_name("chexers").unwrap().new_game();
/// let mut b = a.clone();
/// let n = random_playout(&mut a, 7, None);
/// assert!(a.is_over() && a.moves().len() == n);
/// assert_eq!(random_playout(&mut b, 7, None), n);
/// assert_eq!(a.position(), b.position());
/// let mut c = GameKind::from_name("throne").unwrap().new_game();
/// assert_eq!(random_playout(&mut c, 1, Some(5)), 5);
/// ```
pub fn random_playout(state: &mut State, seed: u64, max_moves: Option<usize>) -> usize {
    state.random_playout(seed, max_moves)
}
