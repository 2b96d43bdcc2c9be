//! Static evaluations: the sheet's estimate and the stronger default.

use search::{Evaluator, Game, Outcome, Scores};

use crate::position::{Move, Position, BLACK, WHITE};

/// The sheet's static estimate from White's point of view: +100 if White has won, −100 if
/// Black has won, else `i + j − 15` where `i` and `j` are the 0-based squares of the two
/// kings.
///
/// ```
/// use plyforge_jumpy3::{eval::sheet_estimate, Position};
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

/// The ordering hint of both evaluations ([`search::Evaluator::move_hint`]): the king's
/// move first (1, every other move 0). The race of the kings decides the game, and both
/// evaluations value the kings' squares, so the king's move is the likeliest to refute.
/// Measured from the start on one thread: depth 24 with the sheet's estimate searched
/// 13,996,911 nodes instead of 15,335,852; depth 22 with [`DefaultEval`] 8,054,685
/// instead of 8,813,184.
///
/// ```
/// use plyforge_jumpy3::{eval::king_first, Move, Position};
/// let p = Position::start(); // Wwww........bbbB w: White's king on square 1
/// assert_eq!(king_first(&p, Move::new(1).unwrap()), 1);
/// assert_eq!(king_first(&p, Move::new(4).unwrap()), 0);
/// ```
#[inline]
pub fn king_first(p: &Position, mv: Move) -> i32 {
    (p.kings() >> mv.index() & 1) as i32
}

/// Number of [`features`].
pub const FEATURES: usize = 11;

/// Names of the [`features`], in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "king race (moves to leave)",
    "king squares (the sheet's i + j - 15)",
    "captures available",
    "king captures available",
    "pawn race (moves to leave)",
    "pawns on the board",
    "tempo (side to move)",
    "captures available to the side to move",
    "king captures available to the side to move",
    "king race winner with the move (+1 / -1)",
    "king distance race winner with the move (+1 / -1)",
];

/// The weights of [`DefaultEval`], one per [`features`] entry; public so that matches can
/// tune them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURES]);

impl Weights {
    /// The tuned weights of [`DefaultEval`].
    pub const DEFAULT: Weights = Weights([4, 14, 4, 42, -2, 98, 33, 19, 61, 95, 33]);
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
        empty & (0xFFFFu16 << sq << 1)
    } else {
        empty & ((1u16 << sq) - 1)
    };
    ahead.count_ones() as i32 + 1
}

/// Sum of [`moves_to_leave`] over a set of pieces.
#[inline]
fn race_of(occ: u16, side: usize, mut bits: u16) -> i32 {
    let mut total = 0;
    while bits != 0 {
        total += moves_to_leave(occ, side, bits.trailing_zeros());
        bits &= bits - 1;
    }
    total
}

/// The evaluation features of a position in play, each White's minus Black's (from White's
/// point of view); see [`FEATURE_NAMES`]. Both kings must be on the board.
///
/// ```
/// use plyforge_jumpy3::{eval::features, Position};
/// let f = features(&Position::start());
/// assert_eq!(f[0], 0); // the kings' races are equal
/// assert_eq!(f[6], 1); // White to move
/// ```
pub fn features(p: &Position) -> [i32; FEATURES] {
    let white = p.pieces(WHITE);
    let black = p.pieces(BLACK);
    let kings = p.kings();
    let occ = white | black;
    let empty = !occ;
    let wk = p.king(WHITE).unwrap_or(15);
    let bk = p.king(BLACK).unwrap_or(0);
    let race = moves_to_leave(occ, BLACK, bk) - moves_to_leave(occ, WHITE, wk);
    let pawn_race = race_of(occ, BLACK, black & !kings) - race_of(occ, WHITE, white & !kings);
    // Captures: a White piece on i, a Black one on i + 1, i + 2 empty; mirrored for Black.
    let wcap = white & (black >> 1) & (empty >> 2);
    let bcap = black & (white << 1) & (empty << 2);
    let wcap_king = white & ((black & kings) >> 1) & (empty >> 2);
    let bcap_king = black & ((white & kings) << 1) & (empty << 2);
    let (wc, bc) = (wcap.count_ones() as i32, bcap.count_ones() as i32);
    let (wck, bck) = (wcap_king.count_ones() as i32, bcap_king.count_ones() as i32);
    let white_to_move = p.to_move() == WHITE;
    let sign = if white_to_move { 1 } else { -1 };
    let (stm_cap, stm_king_cap) = if white_to_move {
        (wc, wck)
    } else {
        (-bc, -bck)
    };
    // Who wins a pure race of the kings: White if it needs fewer moves, or as many and moves.
    let race_winner = if race > 0 || (race == 0 && white_to_move) {
        1
    } else {
        -1
    };
    let distance = (bk as i32 + 1) - (16 - wk as i32);
    let distance_winner = if distance > 0 || (distance == 0 && white_to_move) {
        1
    } else {
        -1
    };
    [
        race,
        wk as i32 + bk as i32 - 15,
        wc - bc,
        wck - bck,
        pawn_race,
        p.pawns(WHITE) as i32 - p.pawns(BLACK) as i32,
        sign,
        stm_cap,
        stm_king_cap,
        race_winner,
        distance_winner,
    ]
}

/// The default evaluation: a weighted sum of [`features`]: the pawns each side still has
/// (spare moves and stepping stones), who wins a pure race of the kings with the move (a
/// king's race counted in moves: the empty squares ahead, since a jump skips occupied squares
/// for free), the kings' squares, and the threats of sending pieces, above all kings, back.
///
/// The weights started from a logistic regression of the features against the solved table
/// (positions of random games: 85% of outcomes predicted by its sign; the sheet's estimate
/// 67%, the tuned weights 82.5%) and were
/// then tuned by engine matches against [`Estimate::Sheet`] (coordinate ascent, a change
/// kept only if it gained a point in 800–1200 games at depths 2, 4, 6 and 8; `arena tune
/// jumpy3` now tunes them by SPSA). On openings not used in tuning it scores 61.3% against the sheet's
/// estimate at those depths (1,600 games, no draws) and 64.5% at depths 10 and 12 (200 games).
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
    #[inline]
    pub fn white_value(&self, p: &Position) -> i32 {
        let f = features(p);
        self.weights.0.iter().zip(&f).map(|(w, x)| w * x).sum()
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

    /// [`king_first`].
    #[inline]
    fn move_hint(&self, p: &Position, mv: Move) -> i32 {
        king_first(p, mv)
    }
}

/// The evaluations of this crate, selectable by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
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

    /// The sheet's estimate moves in steps of one between depths (a king one square
    /// further): a window of 2 (depth 24 from the start: 7% fewer nodes than with 40).
    fn aspiration_window(&self) -> i32 {
        match self {
            Estimate::Sheet => 2,
            Estimate::Default => DefaultEval::default().aspiration_window(),
        }
    }

    /// [`king_first`], for both.
    #[inline]
    fn move_hint(&self, p: &Position, mv: Move) -> i32 {
        king_first(p, mv)
    }
}
