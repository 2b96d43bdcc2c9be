//! Simple reference opponents: a uniformly random player and a greedy "most progress toward
//! the exits" player. Both are seeded and deterministic for a given seed.

use search::rng::{XorShift64Star, GOLDEN_GAMMA};
use search::{Game, MoveList};

use crate::action::Move;
use crate::position::Position;

/// Something that picks an action in a position.
pub trait Agent {
    /// The chosen action, or `None` when the game is over.
    fn choose(&mut self, pos: &Position) -> Option<Move>;
}

/// The generator of a player with this seed: the engine's [`XorShift64Star`], the one
/// seeded generator of every crate's players.
fn rng(seed: u64) -> XorShift64Star {
    XorShift64Star::from_state(seed.wrapping_mul(GOLDEN_GAMMA) | 1)
}

/// Picks a legal action uniformly at random.
#[derive(Clone, Debug)]
pub struct Random {
    rng: XorShift64Star,
}

impl Random {
    /// A random player with this seed.
    pub fn new(seed: u64) -> Self {
        Random { rng: rng(seed) }
    }
}

impl Agent for Random {
    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        Some(moves[self.rng.below(moves.len())])
    }
}

/// Picks the action that makes the most progress toward the mover's exits, one ply deep:
/// an exit first, then the largest decrease of the moved piece's distance to the exit edge
/// (a jump can gain 2); among equal progress, a jump that converts an opponent's piece; the
/// remaining ties are broken at random (seeded).
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: XorShift64Star,
}

impl Greedy {
    /// A greedy player with this seed (for its tie-breaks).
    pub fn new(seed: u64) -> Self {
        Greedy { rng: rng(seed) }
    }

    /// The greedy value of an action: progress × 2, plus 1 for converting a piece.
    pub fn progress(pos: &Position, mv: Move) -> i32 {
        let me = pos.to_move();
        match mv {
            Move::Exit(_) => 100,
            Move::Pass => 0,
            Move::Move(a, b) => 2 * (a.distance_to_exit(me) as i32 - b.distance_to_exit(me) as i32),
            Move::Jump(a, b) => {
                let gain = 2 * (a.distance_to_exit(me) as i32 - b.distance_to_exit(me) as i32);
                let converts = a
                    .direction_to(b, 2)
                    .and_then(|d| a.neighbour(d))
                    .and_then(|mid| pos.piece_at(mid))
                    .is_some_and(|owner| owner != me);
                gain + converts as i32
            }
        }
    }
}

impl Agent for Greedy {
    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let best = moves.iter().map(|&m| Greedy::progress(pos, m)).max()?;
        let top: MoveList<Move> = moves
            .iter()
            .copied()
            .filter(|&m| Greedy::progress(pos, m) == best)
            .collect();
        Some(top[self.rng.below(top.len())])
    }
}
