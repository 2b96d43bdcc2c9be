//! Jumpy3's encodings.

use jumpy3::{Move, Position, SQUARES, WHITE};
use search::{Game, Player};

use super::Jumpy3;
use crate::adapter::actions::fill_plane;
use crate::adapter::{push_bits, Encoding, FeatureChanges};

/// The planes of `player`'s observation of `pos` that hold pieces (own king, own pawns, the
/// opponent's king, its pawns), as bitboards of columns, and whether `player` is to move.
fn planes(pos: &Position, player: Player) -> ([u16; 4], bool) {
    let seen = |b: u16| if player == WHITE { b } else { b.reverse_bits() };
    let kings = pos.kings();
    let (own, other) = (pos.pieces(player), pos.pieces(1 - player));
    (
        [
            seen(own & kings),
            seen(own & !kings),
            seen(other & kings),
            seen(other & !kings),
        ],
        pos.to_move() == player,
    )
}

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
///
/// **Features (80):** the observation's entries that are 1 (plane `k`, column `c` is
/// feature `16 k + c`), read from the bitboards; a move's changes from their xor.
impl Encoding for Jumpy3 {
    const ACTIONS: usize = SQUARES;
    const SHAPE: &'static [usize] = &[5, SQUARES];

    fn action(mv: Move) -> Option<usize> {
        Some(mv.index())
    }

    fn decode(action: usize) -> Option<Move> {
        u8::try_from(action + 1).ok().and_then(Move::new)
    }

    fn features(pos: &Position, player: Player, out: &mut Vec<u32>) {
        let (boards, to_move) = planes(pos, player);
        for (k, b) in boards.into_iter().enumerate() {
            push_bits(out, b.into(), 16 * k as u32);
        }
        if to_move {
            out.extend(64..80);
        }
    }

    fn feature_changes(
        before: &Position,
        after: &Position,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool {
        let ((a, ma), (b, mb)) = (planes(before, player), planes(after, player));
        for k in 0..4 {
            changes.bits(a[k].into(), b[k].into(), 16 * k as u32);
        }
        // The plane of the side to move: features 64 to 79, all or none.
        let to_move = |m: bool| if m { 0xFFFF_u128 << 64 } else { 0 };
        changes.bits(to_move(ma), to_move(mb), 0);
        true
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
