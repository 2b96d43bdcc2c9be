//! Jumpy3's row of 16 squares, with an off-board place at each end: White leaves on the
//! right, Black on the left.

use jumpy3::{Move, Position, BLACK, SQUARES, WHITE};
use search::Player;

use super::Jumpy3;
use crate::adapter::board::after;
use crate::adapter::picture::{Fact, Layout, Piece, Role, Shape, Spot, Symbol};
use crate::adapter::BoardView;

/// The spot a side's pieces leave the board to.
fn off(side: Player) -> String {
    format!("off-{}", jumpy3::player_letter(side))
}

impl BoardView for Jumpy3 {
    fn layout() -> Layout {
        Layout::Row
    }
    fn spots() -> Vec<Spot> {
        let mut out: Vec<Spot> = (0..SQUARES)
            .map(|i| Spot {
                id: (i + 1).to_string(),
                role: Role::Cell,
                shape: Shape::Rect {
                    x: i as f64,
                    y: 0.0,
                    w: 1.0,
                    h: 1.0,
                },
                grade: 0,
                marks: Vec::new(),
                caption: (i + 1).to_string(),
            })
            .collect();
        for (side, x) in [(WHITE, SQUARES as f64 + 0.95), (BLACK, -1.95)] {
            out.push(Spot {
                id: off(side),
                role: Role::Off(side),
                shape: Shape::Rect {
                    x,
                    y: 0.0,
                    w: 2.4,
                    h: 1.0,
                },
                grade: 0,
                marks: Vec::new(),
                caption: format!("{} off", jumpy3::player_name(side)),
            });
        }
        out
    }
    fn colours() -> &'static [&'static str] {
        &["#f4f1e8", "#24262b"]
    }
    fn pieces(pos: &Position) -> Vec<Piece> {
        let mut out = Vec::new();
        for side in [WHITE, BLACK] {
            let mine = pos.pieces(side);
            for i in 0..SQUARES {
                if mine & (1 << i) != 0 {
                    let king = pos.kings() & (1 << i) != 0;
                    out.push(piece((i + 1).to_string(), side, king));
                }
            }
            // Pieces that have left: a king once it has, and the pawns missing of three.
            if pos.king(side).is_none() {
                out.push(piece(off(side), side, true));
            }
            for _ in pos.pawns(side)..3 {
                out.push(piece(off(side), side, false));
            }
        }
        out
    }
    fn move_spots(pos: &Position, mv: Move) -> (Option<String>, Option<String>) {
        let side = search::Game::to_move(pos);
        let next = after(pos, mv);
        // The mover's pieces never move but the one that moves: the new bit is its target.
        let new = next.pieces(side) & !pos.pieces(side);
        let to = if new == 0 {
            off(side)
        } else {
            (new.trailing_zeros() + 1).to_string()
        };
        (Some(mv.square().to_string()), Some(to))
    }
    fn facts(pos: &Position) -> Vec<Fact> {
        [WHITE, BLACK]
            .iter()
            .map(|&side| {
                Fact::new(
                    jumpy3::player_name(side),
                    format!(
                        "{} pawn{} on the board, king {}",
                        pos.pawns(side),
                        if pos.pawns(side) == 1 { "" } else { "s" },
                        match pos.king(side) {
                            Some(i) => format!("on {}", i + 1),
                            None => "off".to_string(),
                        }
                    ),
                )
            })
            .collect()
    }
}

fn piece(spot: String, player: Player, king: bool) -> Piece {
    if king {
        Piece::new(spot, player, "king", Symbol::Crown)
    } else {
        Piece::new(spot, player, "pawn", Symbol::Plain)
    }
}
