//! Throne's 91 cells, shaded by ring grade, the throne in the middle.

use search::Player;
use throne::{Cell, Move, Piece as Kind, Position, BLACK, WHITE};

use super::Throne;
use crate::adapter::board::hex_centre;
use crate::adapter::picture::{Fact, Layout, Mark, Piece, Role, Shape, Spot, Symbol};
use crate::adapter::BoardView;

fn id(c: Cell) -> String {
    format!("{},{}", c.q(), c.r())
}

impl BoardView for Throne {
    fn layout() -> Layout {
        Layout::Hexagon {
            radius: throne::RADIUS as u8,
        }
    }
    fn spots() -> Vec<Spot> {
        Cell::all()
            .map(|c| {
                let (x, y) = hex_centre(c.q(), c.r());
                Spot {
                    id: id(c),
                    role: Role::Cell,
                    shape: Shape::Hex { x, y, r: 1.0 },
                    grade: c.grade(),
                    marks: if c == Cell::THRONE {
                        vec![Mark::Goal]
                    } else {
                        Vec::new()
                    },
                    caption: id(c),
                }
            })
            .collect()
    }
    fn colours() -> &'static [&'static str] {
        &["#24262b", "#f4f1e8"]
    }
    fn pieces(pos: &Position) -> Vec<Piece> {
        Cell::all()
            .filter_map(|c| {
                pos.piece_at(c).map(|(player, kind)| {
                    match kind {
                        Kind::Queen => Piece::new(id(c), player, "queen", Symbol::Crown),
                        Kind::Soldier => Piece::new(id(c), player, "soldier", Symbol::Ring),
                        _ => Piece::new(id(c), player, "piece", Symbol::Plain),
                    }
                    .captive(pos.is_imprisoned(c))
                })
            })
            .collect()
    }
    fn move_spots(_pos: &Position, mv: Move) -> (Option<String>, Option<String>) {
        match mv {
            Move::Step { from, to } => (Some(id(from)), Some(id(to))),
            Move::Pass => (None, None),
        }
    }
    fn facts(pos: &Position) -> Vec<Fact> {
        let side = |p: Player| {
            Fact::new(
                throne::player_name(p),
                format!(
                    "score {}, {} moves left, traps {} soldiers / {} queen, {} prisoners",
                    pos.score(p),
                    pos.moves_left(p),
                    pos.ptrap(p),
                    pos.qtrap(p),
                    pos.prisoners(p).len()
                ),
            )
        };
        vec![
            side(BLACK),
            side(WHITE),
            Fact::new("ply", format!("{} of {}", pos.ply(), throne::MAX_PLIES)),
        ]
    }
}
