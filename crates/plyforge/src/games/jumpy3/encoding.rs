//! Jumpy3's encodings.

use jumpy3::{Move, Position, SQUARES, WHITE};
use search::{Game, Player};

use super::Jumpy3;
use crate::adapter::actions::fill_plane;
use crate::adapter::Encoding;

/// Jumpy3's encodings.
///
/// **Actions (16):** the square of the piece that moves, minus 1: action `i` is the move
/// `i + 1` (0 to 15), for either side.
///
/// **Observation `[5, 16]`,** from the observer's point of view: column `c` is the square the
/// observer counts as its `c + 1`-th, so that the observer always moves towards higher
/// columns (White: column `i` is square `i + 1`; Black: column `i` is square `16 − i`, the
/// row mirrored). Planes, 1.0 where true:
/// 0. the observer's king;
/// 1. the observer's pawns;
/// 2. the opponent's king;
/// 3. the opponent's pawns;
/// 4. every entry: the observer is the side to move.
///
/// The repetition count (the third occurrence draws) is not part of the tensor.
impl Encoding for Jumpy3 {
    const ACTIONS: usize = SQUARES;
    const SHAPE: &'static [usize] = &[5, SQUARES];

    fn action(mv: Move) -> Option<usize> {
        Some(mv.index())
    }

    fn decode(action: usize) -> Option<Move> {
        u8::try_from(action + 1).ok().and_then(Move::new)
    }

    fn observe(pos: &Position, player: Player, out: &mut [f32]) {
        let column = |sq: usize| {
            if player == WHITE {
                sq
            } else {
                SQUARES - 1 - sq
            }
        };
        let kings = pos.kings();
        for (side, first_plane) in [(player, 0), (1 - player, 2)] {
            let pieces = pos.pieces(side);
            for sq in 0..SQUARES {
                if pieces & (1 << sq) != 0 {
                    let plane = first_plane + usize::from(kings & (1 << sq) == 0);
                    out[plane * SQUARES + column(sq)] = 1.0;
                }
            }
        }
        if pos.to_move() == player {
            fill_plane(out, 4, SQUARES, 1.0);
        }
    }
}
