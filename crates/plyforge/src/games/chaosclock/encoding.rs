//! Chaos Clock's encodings.

use chaosclock::{owner, Move, Position};
use search::{Game, Player};

use super::ChaosClock;
use crate::adapter::actions::fill_plane;
use crate::adapter::Encoding;

/// Chaos Clock's encodings.
///
/// **Actions (25):** `wN` (walk piece N) is N − 1 (0 to 11), `pN` (place piece N) is 11 + N
/// (12 to 23), `pass` is 24.
///
/// **Observation `[17, 12]`:** column `c` is square `c + 1` in planes 0 to 11 and piece
/// `c + 1` in planes 12 to 14. There is no geometric symmetry between the sides (the pieces
/// are odd or even), so the board is not turned; plane 13 says which pieces are the
/// observer's. 1.0 where true:
/// - planes 0 to 11: plane `n − 1` marks the square where piece `n` stands (all 0 while it
///   is in a hand);
/// - plane 12: the pieces in a hand (either hand);
/// - plane 13: the observer's pieces (Odd: 1, 3, …, 11; Even: 2, 4, …, 12);
/// - plane 14: the piece that may not be walked now (the one the opponent has just walked,
///   when walking it would otherwise be legal);
/// - plane 15, every entry: the observer is the side to move;
/// - plane 16, every entry: the previous move was a pass (another pass ends the game, both
///   losing).
///
/// The history (a repeated position ends the game) is not part of the tensor.
///
/// **Features (204):** the observation's entries that are 1 (plane `k`, column `c` is
/// feature `12 k + c`), read from the position directly.
impl Encoding for ChaosClock {
    const ACTIONS: usize = 25;
    const SHAPE: &'static [usize] = &[17, 12];

    fn action(mv: Move) -> Option<usize> {
        match mv {
            Move::Walk(n @ 1..=12) => Some(usize::from(n) - 1),
            Move::Place(n @ 1..=12) => Some(11 + usize::from(n)),
            Move::Pass => Some(24),
            _ => None,
        }
    }

    fn decode(action: usize) -> Option<Move> {
        match action {
            0..=11 => Some(Move::Walk(action as u8 + 1)),
            12..=23 => Some(Move::Place(action as u8 - 11)),
            24 => Some(Move::Pass),
            _ => None,
        }
    }

    fn features(pos: &Position, player: Player, out: &mut Vec<u32>) {
        const W: u32 = 12;
        for piece in 1..=12u8 {
            if let Some(sq) = pos.square_of(piece) {
                out.push((u32::from(piece) - 1) * W + u32::from(sq) - 1);
            }
        }
        let pieces = || (1..=12u8).map(|p| (p, u32::from(p) - 1));
        out.extend(
            pieces()
                .filter(|&(p, _)| pos.square_of(p).is_none())
                .map(|(_, c)| 12 * W + c),
        );
        out.extend(
            pieces()
                .filter(|&(p, _)| owner(p) == player)
                .map(|(_, c)| 13 * W + c),
        );
        let restricted = pos.restriction();
        out.extend(
            pieces()
                .filter(|&(p, _)| p == restricted)
                .map(|(_, c)| 14 * W + c),
        );
        if pos.to_move() == player {
            out.extend(15 * W..16 * W);
        }
        if pos.after_pass() {
            out.extend(16 * W..17 * W);
        }
    }

    fn observe(pos: &Position, player: Player, out: &mut [f32]) {
        const W: usize = 12;
        let restricted = pos.restriction();
        for piece in 1..=12u8 {
            let p = usize::from(piece);
            match pos.square_of(piece) {
                Some(sq) => out[(p - 1) * W + usize::from(sq) - 1] = 1.0,
                None => out[12 * W + p - 1] = 1.0,
            }
            if owner(piece) == player {
                out[13 * W + p - 1] = 1.0;
            }
            if piece == restricted {
                out[14 * W + p - 1] = 1.0;
            }
        }
        if pos.to_move() == player {
            fill_plane(out, 15, W, 1.0);
        }
        if pos.after_pass() {
            fill_plane(out, 16, W, 1.0);
        }
    }
}
