//! Throne's encodings.

use search::{Game, Player};
use throne::{Cell, Move, Piece, Position, BLACK, CELLS, MAX_PLIES};

use super::Throne;
use crate::adapter::actions::fill_plane;
use crate::adapter::Encoding;

/// Side of the square grid that holds the hexagon.
const SIDE: usize = 11;
const PASS: usize = CELLS * CELLS;

/// Throne's encodings.
///
/// Cells are numbered 0 to 90 in notation order (rows r = −5 … 5, each from its smallest q
/// upward: cell 0 is (0, −5), the throne (0, 0) is cell 45, cell 90 is (0, 5)).
///
/// **Actions (8282):** a step or a release from cell `f` to cell `t` is `91 f + t` (0 to
/// 8280; the numbers with `f = t` name no move); `pass` is 8281.
///
/// **Observation `[11, 11, 11]`,** from the observer's point of view: the hexagon in an
/// 11 × 11 grid, entry `[r' + 5][q' + 5]` for the cell (q', r'), where Black sees the board as
/// it is, (q', r') = (q, r), and White sees it turned half round, (q', r') = (−q, −r), so
/// that the observer always starts on the r' = 5 edge. The 30 grid entries that are no cell
/// are 0 in planes 0 to 4. Planes:
/// 0. the observer's queen (1.0);
/// 1. the observer's soldiers (1.0);
/// 2. the opponent's queen (1.0);
/// 3. the opponent's soldiers (1.0);
/// 4. the cells of the board (1.0);
/// 5. every entry: 1.0 when the observer is the side to move;
/// 6. every entry: the plies played / 300 (the move limit);
/// 7. to 10. every entry: the counters as they are (not scaled): the observer's Ptrap and
///    Qtrap, the opponent's Ptrap and Qtrap (how often each imprisoned enemy soldiers and
///    the enemy queen).
impl Encoding for Throne {
    const ACTIONS: usize = PASS + 1;
    const SHAPE: &'static [usize] = &[11, SIDE, SIDE];

    fn action(mv: Move) -> Option<usize> {
        match mv {
            Move::Step { from, to } if from != to => Some(from.index() * CELLS + to.index()),
            Move::Step { .. } => None,
            Move::Pass => Some(PASS),
        }
    }

    fn decode(action: usize) -> Option<Move> {
        if action == PASS {
            return Some(Move::Pass);
        }
        let from = Cell::from_index(action / CELLS)?;
        let to = Cell::from_index(action % CELLS)?;
        (from != to && action < PASS).then_some(Move::Step { from, to })
    }

    fn observe(pos: &Position, player: Player, out: &mut [f32]) {
        const PLANE: usize = SIDE * SIDE;
        let sign = if player == BLACK { 1 } else { -1 };
        for cell in Cell::all() {
            let (q, r) = (sign * cell.q(), sign * cell.r());
            let at = (r + 5) as usize * SIDE + (q + 5) as usize;
            out[4 * PLANE + at] = 1.0;
            if let Some((owner, piece)) = pos.piece_at(cell) {
                let plane =
                    if owner == player { 0 } else { 2 } + usize::from(piece == Piece::Soldier);
                out[plane * PLANE + at] = 1.0;
            }
        }
        if pos.to_move() == player {
            fill_plane(out, 5, PLANE, 1.0);
        }
        fill_plane(out, 6, PLANE, pos.ply() as f32 / MAX_PLIES as f32);
        let other = 1 - player;
        fill_plane(out, 7, PLANE, pos.ptrap(player) as f32);
        fill_plane(out, 8, PLANE, pos.qtrap(player) as f32);
        fill_plane(out, 9, PLANE, pos.ptrap(other) as f32);
        fill_plane(out, 10, PLANE, pos.qtrap(other) as f32);
    }
}
