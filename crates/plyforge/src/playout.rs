//! Random playouts of a game in progress, played on the typed record (no notation on the
//! way): what Monte Carlo code and speed comparisons call many times.

use search::rng::XorShift64Star;
use search::Record;

use crate::adapter::GameAdapter;
use crate::State;

/// Plays uniformly random legal moves (the seeded [`XorShift64Star`] picks among the legal
/// moves in their fixed order) until the game is over or `max_moves` have been played;
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

/// [`random_playout`] on the typed record.
pub(crate) fn play_random<A: GameAdapter>(
    record: &mut Record<A::Pos>,
    seed: u64,
    max_moves: Option<usize>,
) -> usize {
    if record.result().is_some() {
        return 0;
    }
    let mut rng = XorShift64Star::seeded(seed);
    let mut played = 0;
    while max_moves.map_or(true, |m| played < m) {
        let moves = record.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        if record.play(mv).is_err() {
            break;
        }
        played += 1;
    }
    played
}
