//! The evaluation: how far each player is from four exits, pieces owned, threats of
//! conversion and mobility, turned into one relative score per player.

use search::{Evaluator, Game, Scores, MAX_EVAL};

use crate::board::{Bits, CELLS, DISTANCE, NEIGHBOUR, NONE};
use crate::position::{Position, EXITS_TO_WIN, PLAYERS};

/// Weights of the evaluation's terms, in evaluation points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per step of remaining work: the distances of the pieces closest to the exits (as many
    /// as the player still needs) plus one exit action per exit still needed.
    pub step: i32,
    /// Steps charged per piece the player still needs but does not own (it must be won by
    /// conversion first).
    pub missing_steps: i32,
    /// Per piece owned beyond those needed (material to convert with and to block with).
    pub spare: i32,
    /// Per own piece that an opponent can convert with one jump right now.
    pub threatened: i32,
    /// Extra for a threatened piece when the threatening opponent is the next to move.
    pub threatened_next: i32,
    /// Per legal action (mobility).
    pub mobility: i32,
    /// Relative view: 0 subtracts the mean of the opponents' values, 1 the best opponent's.
    pub against_best: bool,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            step: 100,
            missing_steps: 9,
            spare: 60,
            threatened: 60,
            threatened_next: 90,
            mobility: 3,
            against_best: true,
        }
    }
}

/// The default evaluation of this crate. Each player's score is its own value minus the
/// opponents' (their mean, or the best of them with [`Weights::against_best`]), so each entry is
/// that player's relative view and the entries sum to about zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultEval {
    /// The weights.
    pub weights: Weights,
}

impl DefaultEval {
    /// An evaluation with the given weights.
    pub fn with_weights(weights: Weights) -> Self {
        DefaultEval { weights }
    }

    /// The absolute value of `player`'s prospects (higher is better), before the relative view.
    pub fn absolute(&self, pos: &Position, player: usize) -> i32 {
        let w = &self.weights;
        let me = player;
        let own = pos.pieces(me);
        let need = EXITS_TO_WIN.saturating_sub(pos.exits(me) as u8) as usize;
        // The `need` smallest distances: counting sort over 0..=6.
        let mut hist = [0u32; 7];
        for c in Bits(own) {
            hist[DISTANCE[me][c] as usize] += 1;
        }
        let count = own.count_ones() as usize;
        let mut left = need.min(count);
        let mut work = need as i32; // one exit action per exit still needed
        for (d, &n) in hist.iter().enumerate() {
            if left == 0 {
                break;
            }
            let take = (n as usize).min(left);
            work += (take * d) as i32;
            left -= take;
        }
        let missing = need.saturating_sub(count) as i32;
        work += missing * w.missing_steps;
        let spare = count.saturating_sub(need) as i32;

        // Threats of conversion against my pieces.
        let occ = pos.occupied();
        // The opponent who moves soonest: the side to move, or the next one if that is me.
        let first = if pos.to_move() == me {
            Position::next_player(me)
        } else {
            pos.to_move()
        };
        let first_bits = pos.pieces(first);
        let mut threatened = 0;
        let mut threatened_next = 0;
        for c in Bits(own) {
            let mut by_any = false;
            let mut by_next = false;
            for d in 0..6 {
                let a = NEIGHBOUR[c][d];
                let l = NEIGHBOUR[c][(d + 3) % 6];
                if a == NONE || l == NONE || occ & (1u64 << l) != 0 || own & (1u64 << a) != 0 {
                    continue;
                }
                if occ & (1u64 << a) != 0 {
                    by_any = true;
                    by_next |= first_bits & (1u64 << a) != 0;
                }
            }
            threatened += by_any as i32;
            threatened_next += by_next as i32;
        }
        let mobility = pos.mobility(me) as i32;
        -w.step * work + w.spare * spare
            - w.threatened * threatened
            - w.threatened_next * threatened_next
            + w.mobility * mobility
    }
}

impl Evaluator<Position> for DefaultEval {
    fn evaluate(&self, pos: &Position) -> Scores {
        let raw = [
            self.absolute(pos, 0),
            self.absolute(pos, 1),
            self.absolute(pos, 2),
        ];
        let mut out = [0; 3];
        for p in 0..PLAYERS {
            let (a, b) = (raw[(p + 1) % 3], raw[(p + 2) % 3]);
            let others = if self.weights.against_best {
                a.max(b)
            } else {
                (a + b) / 2
            };
            out[p] = (raw[p] - others).clamp(-MAX_EVAL, MAX_EVAL);
        }
        out
    }
}

const _: () = assert!(CELLS == 37);
