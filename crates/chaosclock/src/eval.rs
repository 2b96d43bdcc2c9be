//! The evaluation for the engine and the recommended engine settings.

use search::{Algorithm, Config, Evaluator, Game, Scores};

use crate::position::{pieces_of, Position, EVEN, ODD};
use crate::reach::may_complete;

/// The default evaluation: each side's progress (pieces home count most, pieces in hand a
/// little less since a placement brings them home), a side proved unable to complete loses
/// its progress, and each side values its own progress above holding the opponent back
/// (both prefer "both win" to "both lose").
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultEval;

impl Evaluator<Position> for DefaultEval {
    fn evaluate(&self, pos: &Position) -> Scores {
        let can = may_complete(pos);
        let home = pos.home_mask();
        let progress = |p: usize| -> i32 {
            if !can[p] {
                return -600;
            }
            let own = pieces_of(p);
            let h = (home & own).count_ones() as i32;
            let hand = pos.hand_mask(p).count_ones() as i32;
            100 * h + 60 * hand
        };
        let (o, e) = (progress(ODD), progress(EVEN));
        let mut s = [0; 3];
        s[ODD] = o - e / 2;
        s[EVEN] = e - o / 2;
        if pos.to_move() == ODD {
            s[ODD] += 20;
        } else {
            s[EVEN] += 20;
        }
        s
    }
}

/// The recommended engine settings: max^n search (the game is not zero-sum).
pub fn engine_config() -> Config {
    Config {
        algorithm: Algorithm::MaxN,
        quiescence: false,
        aspiration: false,
        ..Config::default()
    }
}
