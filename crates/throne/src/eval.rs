//! Static evaluation: the contest score with prisoners valued as what they will become,
//! progress toward the throne, and the move.

use search::{Evaluator, Scores, MAX_EVAL};

use crate::board::{cells, sandwiched, Cell, RING1, THRONE_INDEX};
use crate::position::{Position, BLACK, WHITE};

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

/// The strongest evaluation of this crate, from Black's point of view `v` (returned as
/// `[v, -v, 0]`):
/// - the difference of [`settled_score`] (the contest score with prisoners valued as
///   released), in units of [`UNITS_PER_POINT`];
/// - each prisoner also costs its owner a move (the release), about one inward step;
/// - a queen on or next to the throne, with own soldiers around it, earns a small bonus
///   toward the throne win; six own soldiers around the empty throne (a loss once the
///   owner moves) is never rewarded;
/// - the side to move gets a small bonus (a tempo: one inward step is worth 10 points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultEval;

/// Per-side part of [`DefaultEval`], in evaluation units.
fn side_value(pos: &Position, player: usize) -> i32 {
    let enemy = pos.occ[1 - player];
    let mut v = settled_score(pos, player) * UNITS_PER_POINT;
    // Prisoners cost a move each.
    let prisoners = cells(pos.occ[player])
        .filter(|&c| sandwiched(c, enemy))
        .count() as i32;
    v -= prisoners * 8 * UNITS_PER_POINT;
    // Toward the throne win: own soldiers around the throne matter more when the own queen
    // holds it (a win needs all six); none of this when the soldiers would only surround an
    // empty throne.
    if pos.queen[player] as usize == THRONE_INDEX {
        let around = (pos.soldier_mask(player) & RING1).count_ones() as i32;
        v += around * around * UNITS_PER_POINT / 2;
    }
    v
}

impl Evaluator<Position> for DefaultEval {
    fn evaluate(&self, pos: &Position) -> Scores {
        let mut v = side_value(pos, BLACK) - side_value(pos, WHITE);
        let tempo = 4 * UNITS_PER_POINT;
        v += if pos.side_to_move() == BLACK {
            tempo
        } else {
            -tempo
        };
        let v = v.clamp(-MAX_EVAL, MAX_EVAL);
        [v, -v, 0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settled_score_equals_score_without_prisoners() {
        let p = Position::start();
        assert_eq!(settled_score(&p, BLACK), p.score(BLACK));
        assert_eq!(settled_score(&p, WHITE), p.score(WHITE));
        assert_eq!(p.score(BLACK), 6 * 10 + 20 * 2);
        let [b, w, _] = DefaultEval.evaluate(&p);
        assert_eq!(b, -w);
        assert!(b > 0, "the side to move has the tempo");
    }
}
