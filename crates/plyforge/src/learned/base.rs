//! What both kinds of network share: the scale of their scores, the notes of their files,
//! the error, and the scores of a network's values.

use std::fmt;

use search::{Scores, MAX_PLAYERS};

use crate::adapter::{Encoded, GameAdapter};

/// Evaluation points per unit of the network's value (a value of 1 scores 1000).
pub const SCALE: f32 = 1000.0;

/// A network's aspiration window, in search points: a 25th of [`SCALE`].
pub(crate) const ASPIRATION_WINDOW: i32 = (SCALE / 25.0) as i32;

/// A network's futility margin, in search points: a tenth of [`SCALE`].
pub(crate) const MARGIN: i32 = (SCALE / 10.0) as i32;

/// A network's scores of a draw: `draw` (see [`draw_score`]) for every player of the game.
pub(crate) fn draw_scores_of<A: GameAdapter>(draw: i32) -> Scores {
    let mut scores = [0; MAX_PLAYERS];
    scores[..A::PLAYERS].fill(draw);
    scores
}

/// The note of a network's file that gives what a draw is worth to every player (−1 … 1),
/// as its training valued draws (`arena train --draw-value`); 0 without it. Its searches
/// score a drawn position so (games of three or more players; with two a draw stays 0, as
/// the scores are zero-sum).
pub const DRAW_NOTE: &str = "draw";

/// The note of a network's file that gives how many of the evaluation's terms it reads
/// after the observation ([`Encoding::terms`](crate::encoding::Encoding::terms), `arena
/// train --terms`); without it, none.
pub const TERMS_NOTE: &str = "terms";

/// Why a network cannot evaluate a game.
#[derive(Debug)]
#[non_exhaustive]
pub enum NetError {
    /// The game has no observation tensor ([`GameAdapter::encoding`] is `None`).
    NoEncoding {
        /// The game's name for people.
        game: &'static str,
    },
    /// The file cannot be read, is not a whole network, or is another game's or shape's.
    File(learn::Error),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NoEncoding { game } => write!(
                f,
                "{game} has no observation tensor (its adapter gives no encoding), so no network can read it"
            ),
            NetError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetError::File(e) => Some(e),
            NetError::NoEncoding { .. } => None,
        }
    }
}

impl From<learn::Error> for NetError {
    fn from(e: learn::Error) -> Self {
        NetError::File(e)
    }
}

/// The encoding of `A`, or the error that it has none.
pub(crate) fn encoding<A: GameAdapter>() -> Result<Encoded<A>, NetError> {
    A::encoding().ok_or(NetError::NoEncoding { game: A::TITLE })
}

/// A file's note that is not what it should be, as the error that says so.
pub(crate) fn bad_note(reason: String) -> NetError {
    NetError::File(learn::Error::Foreign { path: None, reason })
}

/// What a draw scores for every player of `A` by a network's [`DRAW_NOTE`] (0 with two
/// players, whose scores are zero-sum).
pub(crate) fn draw_score<A: GameAdapter>(
    notes: &std::collections::BTreeMap<String, String>,
) -> Result<i32, NetError> {
    let draw = match notes.get(DRAW_NOTE) {
        Some(text) => match text.parse::<f32>() {
            Ok(v) if (-1.0..=1.0).contains(&v) => v,
            _ => {
                return Err(bad_note(format!(
                    "note {DRAW_NOTE:?} is {text:?}, not a value from -1 to 1"
                )))
            }
        },
        None => 0.0,
    };
    Ok(if A::PLAYERS > 2 {
        (draw * SCALE).round() as i32
    } else {
        0
    })
}

/// The outputs of a network of `A` (counted from `mover` in turn order) as values in the
/// players' own order (entries past the game's players are 0).
#[inline]
pub(crate) fn in_player_order<A: GameAdapter>(out: &[f32], mover: usize) -> [f32; MAX_PLAYERS] {
    let mut values = [0.0; MAX_PLAYERS];
    for (k, v) in out.iter().enumerate().take(A::PLAYERS) {
        values[(mover + k) % A::PLAYERS] = *v;
    }
    values
}

/// The search's scores of a network's values (in the players' order): [`SCALE`] points a
/// unit; two players the mover's `(v₀ − v₁) / 2` and its negation, so that they are
/// zero-sum.
#[inline]
pub(crate) fn scores_of<A: GameAdapter>(v: [f32; MAX_PLAYERS]) -> Scores {
    let mut scores = [0; MAX_PLAYERS];
    if A::PLAYERS == 2 {
        let s = round((v[0] - v[1]) / 2.0 * SCALE);
        scores[0] = s;
        scores[1] = -s;
    } else {
        for (s, x) in scores.iter_mut().zip(v).take(A::PLAYERS) {
            *s = round(x * SCALE);
        }
    }
    scores
}

/// `x` rounded half away from zero, as [`f32::round`], for `|x|` up to [`SCALE`] (where
/// adding a half is exact): a truncating conversion, where `f32::round` is a call into the
/// C library on the baseline x86-64 (a few per cent of a sparse network's search, perf).
#[inline]
pub(crate) fn round(x: f32) -> i32 {
    (x + 0.5f32.copysign(x)) as i32
}
