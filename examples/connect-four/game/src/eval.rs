//! The evaluation: open twos and threes, and stones in the centre column.

use plyforge_search::{Game, SideToMoveEval};

use crate::position::{Position, BOARD, ROWS, STRIDE};

/// The centre column.
const CENTRE: u64 = ((1u64 << ROWS) - 1) << (3 * STRIDE);

/// Points for a line of four cells holding two of a player's stones and nothing of the other.
pub const OPEN_TWO: i32 = 2;
/// Points for a line of four cells holding three of a player's stones and nothing of the other.
pub const OPEN_THREE: i32 = 5;
/// Points for each stone in the centre column.
pub const CENTRE_STONE: i32 = 3;

/// The points of each feature: what [`DefaultEval`] counts, as numbers that can be tuned
/// ([`WeightedEval`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per line of four cells holding two of a player's stones and nothing of the other.
    pub open_two: i32,
    /// Per line of four cells holding three of a player's stones and nothing of the other.
    pub open_three: i32,
    /// Per stone in the centre column.
    pub centre_stone: i32,
}

impl Weights {
    /// The weights of [`DefaultEval`].
    pub const DEFAULT: Weights = Weights {
        open_two: OPEN_TWO,
        open_three: OPEN_THREE,
        centre_stone: CENTRE_STONE,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// The points of the player with stones `own` against stones `other`.
#[inline]
fn points(own: u64, other: u64, w: &Weights) -> i32 {
    let free = BOARD & !other;
    let (mut twos, mut threes) = (0, 0);
    for d in [1, STRIDE, STRIDE - 1, STRIDE + 1] {
        // Lines of four (by their first cell) with none of the other player's stones.
        let w = free & (free >> d) & (free >> (2 * d)) & (free >> (3 * d));
        let (a, b, c, e) = (
            own & w,
            (own >> d) & w,
            (own >> (2 * d)) & w,
            (own >> (3 * d)) & w,
        );
        // The count of own stones in each line, bit by bit: (high, mid, low).
        let (x1, y1, x2, y2) = (a ^ b, a & b, c ^ e, c & e);
        let low = x1 ^ x2;
        let carry = x1 & x2;
        let mid = y1 ^ y2 ^ carry;
        let high = (y1 & y2) | (carry & (y1 ^ y2));
        twos += (mid & !low & !high).count_ones() as i32;
        threes += (mid & low & !high).count_ones() as i32;
    }
    w.open_two * twos + w.open_three * threes + w.centre_stone * (own & CENTRE).count_ones() as i32
}

/// The evaluation from the view of the player to move: its points less the other player's,
/// where a player scores [`OPEN_TWO`] for each line of four cells holding two of its stones
/// and none of the other's, [`OPEN_THREE`] for each such line holding three, and
/// [`CENTRE_STONE`] for each of its stones in the centre column.
///
/// ```
/// use connect_four::{evaluate, Position};
/// assert_eq!(evaluate(&Position::start()), 0);
/// // x in the centre: 3 points for x; o, to move, is 3 behind.
/// let p: Position = "......./......./......./......./......./...x... o".parse().unwrap();
/// assert_eq!(evaluate(&p), -3);
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::DEFAULT)
}

/// [`evaluate`] with other weights.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let me = pos.to_move();
    points(pos.stones(me), pos.stones(1 - me), w) - points(pos.stones(1 - me), pos.stones(me), w)
}

/// [`evaluate`] as the engine's evaluation: one number from the side to move's view, searched
/// through [`plyforge_search::SideToMove`]. The moves keep the game's own order (the centre
/// first): no move hint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultEval;

impl SideToMoveEval<Position> for DefaultEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        evaluate(pos)
    }

    /// A move changes the points by a few units.
    fn aspiration_window(&self) -> i32 {
        8
    }
}

/// [`DefaultEval`] with any [`Weights`] (for tuning them: `arena tune connect-four`).
///
/// ```
/// use connect_four::{DefaultEval, Position, WeightedEval, Weights};
/// use connect_four::search::SideToMoveEval;
/// let p: Position = "......./......./......./......./......./...x... o".parse().unwrap();
/// assert_eq!(WeightedEval(Weights::DEFAULT).evaluate(&p), DefaultEval.evaluate(&p));
/// let centre = Weights { centre_stone: 10, ..Weights::DEFAULT };
/// assert_eq!(WeightedEval(centre).evaluate(&p), -10);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WeightedEval(pub Weights);

impl SideToMoveEval<Position> for WeightedEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        evaluate_with(pos, &self.0)
    }

    /// As [`DefaultEval`]'s.
    fn aspiration_window(&self) -> i32 {
        DefaultEval.aspiration_window()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::COLUMNS;

    /// The points counted line by line, as the definition says.
    fn slow_points(pos: &Position, me: usize) -> i32 {
        let mut total = 0;
        let dirs: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        for c in 0..COLUMNS as isize {
            for r in 0..ROWS as isize {
                for (dc, dr) in dirs {
                    let cells: Vec<(isize, isize)> =
                        (0..4).map(|k| (c + k * dc, r + k * dr)).collect();
                    if cells.iter().any(|&(c, r)| {
                        c < 0 || r < 0 || c >= COLUMNS as isize || r >= ROWS as isize
                    }) {
                        continue;
                    }
                    let who: Vec<Option<usize>> = cells
                        .iter()
                        .map(|&(c, r)| pos.cell(c as usize, r as usize))
                        .collect();
                    if who.contains(&Some(1 - me)) {
                        continue;
                    }
                    match who.iter().filter(|w| **w == Some(me)).count() {
                        2 => total += OPEN_TWO,
                        3 => total += OPEN_THREE,
                        _ => {}
                    }
                }
            }
            if c == 3 {
                total +=
                    CENTRE_STONE * (0..ROWS).filter(|&r| pos.cell(3, r) == Some(me)).count() as i32;
            }
        }
        total
    }

    #[test]
    fn the_bit_count_equals_the_definition() {
        let mut rng = plyforge_search::rng::XorShift64Star::seeded(5);
        let mut checked = 0;
        for _ in 0..300 {
            let mut p = Position::start();
            while p.outcome().is_none() {
                let me = p.to_move();
                let want = slow_points(&p, me) - slow_points(&p, 1 - me);
                assert_eq!(evaluate(&p), want, "{p}");
                checked += 1;
                let moves = p.moves();
                p.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 3000);
    }
}
