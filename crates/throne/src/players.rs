//! Simple players without search, as sparring partners for the engine.

use search::rng::{XorShift64Star, GOLDEN_GAMMA};
use search::Game as _;
use search::{Outcome, Player};

use crate::eval::settled_score;
use crate::position::{Move, Position};

/// The generator of a player with this seed: the engine's [`XorShift64Star`], the one
/// seeded generator of every crate's players.
fn rng(seed: u64) -> XorShift64Star {
    XorShift64Star::from_state((seed ^ GOLDEN_GAMMA) | 1)
}

/// The greedy player: looks one ply ahead and picks the move that maximises
/// `settled_score(me) − settled_score(opponent)` (the contest score bp with prisoners valued
/// as released, see [`settled_score`]); a move that wins is taken at once, a move that loses
/// is avoided. Ties (for example several equally good inward steps) are broken at random
/// from its seed, so that different seeds play different games.
///
/// ```
/// use plyforge_throne::search::Game;
/// use plyforge_throne::{players::Greedy, Position};
/// let mut g = Greedy::new(1);
/// let p = Position::start();
/// let mv = g.choose(&p).unwrap();
/// assert!(p.why_illegal(mv).is_none());
/// ```
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: XorShift64Star,
}

impl Greedy {
    /// A greedy player whose tie-breaks follow `seed`.
    pub fn new(seed: u64) -> Greedy {
        Greedy { rng: rng(seed) }
    }

    /// The value of the position after a move, for the player `me` who made it.
    pub fn value_after(after: &Position, me: Player) -> i64 {
        match after.outcome() {
            Some(Outcome::Win(p)) if p == me => 1_000_000,
            Some(Outcome::Win(_)) => -1_000_000,
            Some(_) => 0,
            None => (settled_score(after, me) - settled_score(after, 1 - me)) as i64,
        }
    }

    /// The chosen move, or `None` when the game is over.
    pub fn choose(&mut self, pos: &Position) -> Option<Move> {
        let me = pos.to_move();
        let mut best: Vec<Move> = Vec::new();
        let mut best_value = i64::MIN;
        for mv in pos.moves() {
            let mut after = pos.clone();
            after.play(mv);
            let v = Self::value_after(&after, me);
            if v > best_value {
                best_value = v;
                best.clear();
            }
            if v == best_value {
                best.push(mv);
            }
        }
        if best.is_empty() {
            return None;
        }
        let i = self.rng.below(best.len());
        Some(best[i])
    }
}

/// A player that picks uniformly among the legal moves.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: XorShift64Star,
}

impl RandomPlayer {
    /// A random player from a seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: rng(seed) }
    }

    /// The chosen move, or `None` when the game is over.
    pub fn choose(&mut self, pos: &Position) -> Option<Move> {
        let moves = pos.moves();
        if moves.is_empty() {
            None
        } else {
            Some(moves[self.rng.below(moves.len())])
        }
    }
}
