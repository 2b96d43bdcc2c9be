//! The action numbers and observations of a game's record, written once over
//! [`GameAdapter`] and its [`Encoding`](super::Encoding): what the dynamic layer's
//! `StateEncoding` hands out for every game.

use search::{Game, Record};

use super::play::result_text;
use super::{Encoded, GameAdapter};
use crate::error::Error;

/// The encoding of `A`, or the error that it has none.
pub(crate) fn encoding<A: GameAdapter>() -> Result<Encoded<A>, Error> {
    A::encoding().ok_or(Error::NoEncoding { game: A::TITLE })
}

/// The move of `action`, or the error that says why there is none.
pub(crate) fn decode<A: GameAdapter>(action: usize) -> Result<A::Move, Error> {
    let e = encoding::<A>()?;
    if action >= e.actions {
        return Err(Error::Action {
            action,
            reason: format!(
                "out of range: {} has actions 0 to {}",
                A::TITLE,
                e.actions - 1
            ),
        });
    }
    (e.decode)(action).ok_or_else(|| Error::Action {
        action,
        reason: format!("names no move of {} (it would leave the board)", A::TITLE),
    })
}

/// The number of a move that was legal (played or generated): every such move has one.
fn number<A: GameAdapter>(e: &Encoded<A>, mv: A::Move) -> usize {
    (e.action)(mv).expect("every legal move has an action number (tested for every game)")
}

pub(crate) fn legal_actions<A: GameAdapter>(record: &Record<A::Pos>) -> Result<Vec<usize>, Error> {
    let e = encoding::<A>()?;
    Ok(record
        .legal_moves()
        .iter()
        .map(|&m| number(&e, m))
        .collect())
}

pub(crate) fn action_of<A: GameAdapter>(record: &Record<A::Pos>, mv: &str) -> Result<usize, Error> {
    let e = encoding::<A>()?;
    let text = mv.trim();
    let parsed =
        A::parse_move(record.position(), mv).map_err(|err| Error::move_error(1, text, err))?;
    (e.action)(parsed)
        .ok_or_else(|| Error::bad_move(1, text, format!("no move of {} has this shape", A::TITLE)))
}

pub(crate) fn find_action<A: GameAdapter>(
    record: &Record<A::Pos>,
    action: usize,
) -> Result<usize, Error> {
    let mv = decode::<A>(action)?;
    if let Some(o) = record.result() {
        return Err(Error::GameOver {
            result: result_text::<A>(o),
        });
    }
    if let Some(i) = record.legal_moves().iter().position(|&m| m == mv) {
        return Ok(i);
    }
    let reason = record
        .position()
        .why_illegal(mv)
        .map_or_else(|| "not a legal move here".to_string(), |w| w.to_string());
    Err(Error::Action {
        action,
        reason: format!("{mv}: {reason}"),
    })
}

pub(crate) fn history_actions<A: GameAdapter>(
    record: &Record<A::Pos>,
) -> Result<Vec<usize>, Error> {
    let e = encoding::<A>()?;
    Ok(record.moves().iter().map(|&m| number(&e, m)).collect())
}

/// The encoding of `A`, for `player`'s view: an error when the game has none or no such
/// player.
fn seen_by<A: GameAdapter>(player: usize) -> Result<Encoded<A>, Error> {
    let e = encoding::<A>()?;
    if player >= A::PLAYERS {
        return Err(Error::NoSuchPlayer {
            player,
            players: A::PLAYERS,
        });
    }
    Ok(e)
}

pub(crate) fn observe<A: GameAdapter>(
    record: &Record<A::Pos>,
    player: usize,
    out: &mut [f32],
) -> Result<(), Error> {
    let e = seen_by::<A>(player)?;
    let size: usize = e.shape.iter().product();
    if out.len() != size {
        return Err(Error::Resources {
            reason: format!(
                "an observation buffer of {} entries for a tensor of {size}",
                out.len()
            ),
        });
    }
    out.fill(0.0);
    (e.observe)(record.position(), player, out);
    Ok(())
}

pub(crate) fn seen_terms<A: GameAdapter>(
    record: &Record<A::Pos>,
    player: usize,
) -> Result<Vec<f32>, Error> {
    let e = seen_by::<A>(player)?;
    let mut out = vec![0.0; e.terms];
    e.write_terms(record.position(), player, &mut out);
    Ok(out)
}

pub(crate) fn seen_features<A: GameAdapter>(
    record: &Record<A::Pos>,
    player: usize,
) -> Result<Vec<u32>, Error> {
    let e = seen_by::<A>(player)?;
    let mut out = Vec::new();
    e.write_features(record.position(), player, &mut out);
    Ok(out)
}

/// Fills plane `plane` of a `[planes, n]` tensor (n = `plane_len`) with `value`.
#[cfg(any(
    feature = "jumpy3",
    feature = "chexers",
    feature = "throne",
    feature = "chaosclock"
))]
pub(crate) fn fill_plane(out: &mut [f32], plane: usize, plane_len: usize, value: f32) {
    out[plane * plane_len..(plane + 1) * plane_len].fill(value);
}
