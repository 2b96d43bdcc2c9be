//! A simple evaluation: where the discs are, and mobility.

use plyforge_search::{Game, SideToMoveEval};

use crate::board36::{FIRST_COLUMN, FIRST_ROW, LAST_COLUMN, LAST_ROW};

use super::position::{mobility, Othello};

/// Corners.
const CORNERS: u64 = 1 | (1 << 5) | (1 << 30) | (1 << 35);
/// The cells next to a corner (a disc there gives the corner away).
const NEXT_TO_CORNERS: u64 = (1 << 1)
    | (1 << 6)
    | (1 << 7)
    | (1 << 4)
    | (1 << 10)
    | (1 << 11)
    | (1 << 24)
    | (1 << 25)
    | (1 << 31)
    | (1 << 28)
    | (1 << 29)
    | (1 << 34);
/// The other edge cells.
const EDGES: u64 =
    (FIRST_COLUMN | LAST_COLUMN | FIRST_ROW | LAST_ROW) & !CORNERS & !NEXT_TO_CORNERS;

/// A simple evaluation from the side to move's view: corners 20, edges 3, cells next to a
/// corner -6, every other disc 1, and 4 for each move more than the other player has.
///
/// ```
/// use example_games::othello::{evaluate, Othello};
/// assert_eq!(evaluate(&Othello::start()), 0);
/// // After x's c2: o has one disc to x's four, none on an edge, and three moves as x has.
/// let p: Othello = "....../..x.../..xx../..xo../....../...... o".parse().unwrap();
/// assert_eq!(evaluate(&p), 1 - 4);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct OthelloEval;

/// [`OthelloEval`]'s value of `p` for the player to move.
#[inline]
pub fn evaluate(p: &Othello) -> i32 {
    let me = p.to_move();
    let (own, opp) = (p.discs(me), p.discs(1 - me));
    let score = |d: u64| {
        20 * (d & CORNERS).count_ones() as i32 + 3 * (d & EDGES).count_ones() as i32
            - 6 * (d & NEXT_TO_CORNERS).count_ones() as i32
            + (d & !(CORNERS | EDGES | NEXT_TO_CORNERS)).count_ones() as i32
    };
    let mob = mobility(own, opp).count_ones() as i32 - mobility(opp, own).count_ones() as i32;
    score(own) - score(opp) + 4 * mob
}

impl SideToMoveEval<Othello> for OthelloEval {
    #[inline]
    fn evaluate(&self, p: &Othello) -> i32 {
        evaluate(p)
    }

    fn aspiration_window(&self) -> i32 {
        12
    }
}
