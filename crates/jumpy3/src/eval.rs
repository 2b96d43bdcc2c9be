//! Static evaluations: the sheet's estimate and the stronger default.

use search::{Evaluator, Game, Outcome, Scores};

use crate::position::{Position, BLACK, WHITE};

/// The sheet's static estimate from White's point of view: +100 if White has won, −100 if
/// Black has won, else `i + j − 15` where `i` and `j` are the 0-based squares of the two
/// kings.
///
/// ```
/// use jumpy3::{eval::sheet_estimate, Position};
/// assert_eq!(sheet_estimate(&Position::start()), 0);
/// let p: Position = "...W.....B...... b".parse().unwrap();
/// assert_eq!(sheet_estimate(&p), 3 + 9 - 15);
/// ```
pub fn sheet_estimate(p: &Position) -> i32 {
    match p.outcome() {
        Some(Outcome::Win(WHITE)) => 100,
        Some(_) => -100,
        None => {
            let i = p.king(WHITE).unwrap_or(0) as i32;
            let j = p.king(BLACK).unwrap_or(0) as i32;
            i + j - 15
        }
    }
}

/// The weights of [`DefaultEval`]; public so that matches can tune them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per move of the king race (moves each king needs to leave, alone): opponent's minus ours.
    pub race: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Bonus when our king can capture (send back) the opponent's piece in front of it...
    /// counted per capture available to the side (any piece capturing any piece).
    pub capture: i32,
    /// Extra bonus per capture available that sends the enemy king back.
    pub king_capture: i32,
    /// Per empty-square advance of the pawns (their race, weighted lightly).
    pub pawn_race: i32,
}

impl Weights {
    /// The tuned weights of [`DefaultEval`].
    pub const DEFAULT: Weights = Weights {
        race: 10,
        tempo: 5,
        capture: 2,
        king_capture: 12,
        pawn_race: 1,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// Moves a piece on 0-based square `sq` of `side` needs to leave the board if it moved alone:
/// every move lands on the next empty square ahead (or leaves), so it is the number of empty
/// squares ahead plus one.
#[inline]
fn moves_to_leave(occ: u16, side: usize, sq: u32) -> i32 {
    let empty = !occ;
    let ahead = if side == WHITE {
        // squares above sq
        empty & (0xFFFFu16 << sq << 1)
    } else {
        empty & ((1u16 << sq) - 1)
    };
    ahead.count_ones() as i32 + 1
}

/// The default evaluation: a king race counted in moves (empty squares ahead, since a jump
/// skips occupied squares for free), with tempo and the threats of sending pieces back.
///
/// Its weights were tuned by engine matches against [`Estimate::Sheet`] (see the crate's
/// `examples/eval_match.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultEval {
    /// The weights.
    pub weights: Weights,
}

impl DefaultEval {
    /// The default evaluation with other weights.
    pub fn with_weights(weights: Weights) -> DefaultEval {
        DefaultEval { weights }
    }

    /// The value from White's point of view (no terminal handling: both kings must be on).
    pub fn white_value(&self, p: &Position) -> i32 {
        let w = &self.weights;
        let occ = p.pieces(WHITE) | p.pieces(BLACK);
        let wk = p.king(WHITE).unwrap_or(16);
        let bk = p.king(BLACK).unwrap_or(16);
        let race_w = moves_to_leave(occ, WHITE, wk);
        let race_b = moves_to_leave(occ, BLACK, bk);
        let mut v = w.race * (race_b - race_w);
        if w.pawn_race != 0 {
            let mut pw = 0;
            let mut bits = p.pieces(WHITE) & !p.kings();
            while bits != 0 {
                pw += moves_to_leave(occ, WHITE, bits.trailing_zeros());
                bits &= bits - 1;
            }
            let mut pb = 0;
            let mut bits = p.pieces(BLACK) & !p.kings();
            while bits != 0 {
                pb += moves_to_leave(occ, BLACK, bits.trailing_zeros());
                bits &= bits - 1;
            }
            v += w.pawn_race * (pb - pw);
        }
        // Captures available: a piece at i with an enemy piece at i+1 (White) and i+2 empty.
        let empty = !occ;
        let white = p.pieces(WHITE);
        let black = p.pieces(BLACK);
        // White jumpers: white at i, black at i+1, empty at i+2.
        let wcap = white & (black >> 1) & (empty >> 2);
        // Black jumpers: black at i, white at i-1, empty at i-2.
        let bcap = black & (white << 1) & (empty << 2);
        let wcap_king = white & ((black & p.kings()) >> 1) & (empty >> 2);
        let bcap_king = black & ((white & p.kings()) << 1) & (empty << 2);
        v += w.capture * (wcap.count_ones() as i32 - bcap.count_ones() as i32);
        v += w.king_capture * (wcap_king.count_ones() as i32 - bcap_king.count_ones() as i32);
        if p.side() == WHITE {
            v += w.tempo;
        } else {
            v -= w.tempo;
        }
        v
    }
}

impl Evaluator<Position> for DefaultEval {
    #[inline]
    fn evaluate(&self, p: &Position) -> Scores {
        let v = match p.outcome() {
            Some(Outcome::Win(WHITE)) => search::MAX_EVAL,
            Some(_) => -search::MAX_EVAL,
            None => self.white_value(p),
        };
        [v, -v, 0]
    }
}

/// The evaluations of this crate, selectable by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Estimate {
    /// The sheet's estimate ([`sheet_estimate`]): course users compare against it.
    Sheet,
    /// [`DefaultEval`] with its tuned weights.
    #[default]
    Default,
}

impl Evaluator<Position> for Estimate {
    #[inline]
    fn evaluate(&self, p: &Position) -> Scores {
        match self {
            Estimate::Sheet => {
                let v = sheet_estimate(p);
                [v, -v, 0]
            }
            Estimate::Default => DefaultEval::default().evaluate(p),
        }
    }
}
