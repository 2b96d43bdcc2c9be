//! Random playouts of a game in progress, played on the typed record (no notation on the
//! way): what Monte Carlo code and speed comparisons call many times.

use search::rng::XorShift64Star;
use search::Record;

use crate::adapter::GameAdapter;
use crate::{State, Visitor};

/// Plays uniformly random legal moves (the seeded [`XorShift64Star`] picks among the legal
/// moves in their fixed order) until the game is over or `max_moves` have been played;
/// returns the number of moves played. The same state and seed give the same game.
///
/// ```
/// use plyforge::{playout::random_playout, GameKind};
/// let mut a = GameKind::Chexers.new_game();
/// let mut b = a.clone();
/// let n = random_playout(&mut a, 7, None);
/// assert!(a.is_over() && a.moves().len() == n);
/// assert_eq!(random_playout(&mut b, 7, None), n);
/// assert_eq!(a.position(), b.position());
/// let mut c = GameKind::Throne.new_game();
/// assert_eq!(random_playout(&mut c, 1, Some(5)), 5);
/// ```
pub fn random_playout(state: &mut State, seed: u64, max_moves: Option<usize>) -> usize {
    struct Play<'a>(&'a State, u64, Option<usize>);
    impl Visitor for Play<'_> {
        type Output = Option<(State, usize)>;
        fn visit<A: GameAdapter>(self) -> Self::Output {
            let record = self.0.record::<A>()?;
            if record.result().is_some() || self.2 == Some(0) {
                return None;
            }
            let mut record: Record<A::Pos> = record.clone();
            let mut rng = XorShift64Star::seeded(self.1);
            let mut played = 0;
            while self.2.map_or(true, |m| played < m) {
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
            Some((State::of::<A>(record), played))
        }
    }
    match state.kind().visit(Play(state, seed, max_moves)) {
        Some((next, played)) => {
            *state = next;
            played
        }
        None => 0,
    }
}
