//! Static evaluation: the contest score with prisoners valued as what they will become,
//! progress toward the throne, mobility, and the move.

use search::{Evaluator, Scores, MAX_EVAL};

use crate::board::{cells, sandwiched, Cell, QUEEN_INWARD, RING1, SOLDIER_INWARD, THRONE_INDEX};
use crate::position::{Position, BLACK};
use search::Game as _;

/// Evaluation units per point of the contest score bp.
pub const UNITS_PER_POINT: i32 = 10;

/// The expected final score of `player` in bp points, counting each prisoner as what its
/// release makes of it: an imprisoned soldier goes back to the outermost ring (grade 1), an
/// imprisoned queen to the best free cell (grade 5 when a cell around the throne is free and
/// safe, else grade 4). One-ply [`players::Greedy`](crate::players::Greedy) maximises the
/// difference of this; the engine's [`DefaultEval`] builds on it.
pub fn settled_score(pos: &Position, player: usize) -> i32 {
    let enemy = pos.occ[1 - player];
    let mut s = 5 * pos.ptrap[player] as i32 + 10 * pos.qtrap[player] as i32;
    for c in cells(pos.soldier_mask(player)) {
        s += if sandwiched(c, enemy) {
            10
        } else {
            10 * grade(c)
        };
    }
    let q = pos.queen[player] as usize;
    s += if sandwiched(q, enemy) {
        let free = cells(RING1 & pos.empty()).any(|c| !sandwiched(c, enemy));
        if free {
            100
        } else {
            80
        }
    } else {
        20 * grade(q)
    };
    s
}

fn grade(c: usize) -> i32 {
    Cell::from_index(c).expect("valid").grade() as i32
}

/// The weights of [`WeightedEval`], in evaluation units ([`UNITS_PER_POINT`] per bp point).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// Per bp point of [`settled_score`].
    pub score: i32,
    /// Per prisoner: the move its release costs.
    pub prisoner_move: i32,
    /// Per empty cell one ring further in that some own piece could step to.
    pub mobility: i32,
    /// Times the square of the own soldiers around the throne while the own queen holds it.
    pub throne_guard: i32,
    /// For the side to move.
    pub tempo: i32,
}

impl Weights {
    /// The weights of [`DefaultEval`].
    pub const DEFAULT: Weights = Weights {
        score: UNITS_PER_POINT,
        prisoner_move: 8 * UNITS_PER_POINT,
        mobility: 2 * UNITS_PER_POINT,
        throne_guard: UNITS_PER_POINT / 2,
        tempo: 4 * UNITS_PER_POINT,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// The evaluation of [`DefaultEval`] with any [`Weights`] (for tuning experiments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WeightedEval(pub Weights);

/// The strongest evaluation of this crate, [`WeightedEval`] with [`Weights::DEFAULT`]. From
/// Black's point of view `v` (returned as `[v, -v, 0]`), the sum over both sides (White's
/// terms negated) of:
/// - the contest score bp, with prisoners valued as released ([`settled_score`]);
/// - each prisoner also costs its owner a move (the release);
/// - mobility: the empty cells one ring further in that the side's pieces could step to;
/// - progress toward the throne win: own soldiers around the throne count more while the own
///   queen holds it (six own soldiers around the empty throne, a loss, earn nothing extra);
/// - plus a small bonus for the side to move (a tempo).
///
/// ```
/// use plyforge_throne::search::Evaluator;
/// use plyforge_throne::{DefaultEval, Position};
/// let [black, white, _] = DefaultEval.evaluate(&Position::start());
/// assert_eq!(black, -white);
/// assert!(black > 0); // the same material, and Black has the move
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultEval;

/// Per-side part of the evaluation, in evaluation units.
fn side_value(pos: &Position, player: usize, w: &Weights) -> i32 {
    let enemy = pos.occ[1 - player];
    let mut v = settled_score(pos, player) * w.score;
    let prisoners = cells(pos.occ[player])
        .filter(|&c| sandwiched(c, enemy))
        .count() as i32;
    v -= prisoners * w.prisoner_move;
    let queen = pos.queen[player] as usize;
    let mut reach = QUEEN_INWARD[queen];
    for c in cells(pos.soldier_mask(player)) {
        reach |= SOLDIER_INWARD[c];
    }
    v += (reach & pos.empty()).count_ones() as i32 * w.mobility;
    if queen == THRONE_INDEX {
        let around = (pos.soldier_mask(player) & RING1).count_ones() as i32;
        v += around * around * w.throne_guard;
    }
    v
}

fn evaluate(pos: &Position, w: &Weights) -> Scores {
    let mut v = side_value(pos, BLACK, w) - side_value(pos, 1 - BLACK, w);
    v += if pos.to_move() == BLACK {
        w.tempo
    } else {
        -w.tempo
    };
    let v = v.clamp(-MAX_EVAL, MAX_EVAL);
    [v, -v, 0]
}

impl Evaluator<Position> for WeightedEval {
    fn evaluate(&self, pos: &Position) -> Scores {
        evaluate(pos, &self.0)
    }
}

impl Evaluator<Position> for DefaultEval {
    fn evaluate(&self, pos: &Position) -> Scores {
        evaluate(pos, &Weights::DEFAULT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settled_score_equals_score_without_prisoners() {
        let p = Position::start();
        assert_eq!(settled_score(&p, BLACK), p.score(BLACK));
        assert_eq!(settled_score(&p, 1), p.score(1));
        assert_eq!(p.score(BLACK), 6 * 10 + 20 * 2);
    }

    #[test]
    fn prisoners_are_valued_as_released() {
        // After Black's double imprisonment, White's soldiers on (0,1) and (1,0) (grade 5
        // each, 50 points) count as grade 1 (10 points) until released.
        let p: Position =
            "..wwww/...W.../......../........./.....b..../......w..../....bwb.../........./......../...B.../bbb... w 11 2 0 0 0"
                .parse()
                .unwrap();
        assert_eq!(p.score(1), 180);
        assert_eq!(settled_score(&p, 1), 180 - 2 * 40);
        assert_eq!(settled_score(&p, BLACK), p.score(BLACK));
        let [b, _, _] = DefaultEval.evaluate(&p);
        let [b0, _, _] = WeightedEval(Weights {
            prisoner_move: 0,
            ..Weights::DEFAULT
        })
        .evaluate(&p);
        assert_eq!(b - b0, 2 * Weights::DEFAULT.prisoner_move);
    }

    #[test]
    fn mobility_counts_free_inward_cells() {
        let w = Weights {
            score: 0,
            prisoner_move: 0,
            mobility: 1,
            throne_guard: 0,
            tempo: 0,
        };
        // Start: Black's soldiers on r = 5 reach (-4,4) (-3,4) (-1,4) (0,4) ((-2,4) holds
        // the queen); the queen on (-2,4) reaches (-2,3) and (-1,3). White mirrors it.
        let p = Position::start();
        let [v, _, _] = WeightedEval(w).evaluate(&p);
        assert_eq!(v, 0);
        assert_eq!(side_value(&p, BLACK, &w), 6);
    }
}
