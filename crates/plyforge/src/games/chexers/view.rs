//! Chexers' 37 hexes, with each player's exit edge as a band outside the board where the
//! pieces that exited are shown.

use chexers::board::CELLS;
use chexers::{Hex, Move, Position, PLAYERS};
use search::Player;

use super::Chexers;
use crate::adapter::board::{edge_band, hex_centre};
use crate::adapter::picture::{Fact, Layout, Mark, Piece, Role, Shape, Spot, Symbol};
use crate::adapter::BoardView;

fn hexes() -> impl Iterator<Item = Hex> {
    (0..CELLS).filter_map(Hex::from_index)
}

fn id(h: Hex) -> String {
    format!("{},{}", h.q(), h.r())
}

fn exit_spot(p: Player) -> String {
    format!("exit-{}", chexers::player_letter(p))
}

fn centre(h: Hex) -> (f64, f64) {
    hex_centre(i32::from(h.q()), i32::from(h.r()))
}

impl BoardView for Chexers {
    fn layout() -> Layout {
        Layout::Hexagon { radius: 3 }
    }
    fn spots() -> Vec<Spot> {
        let mut out: Vec<Spot> = hexes()
            .map(|h| {
                let (x, y) = centre(h);
                Spot {
                    id: id(h),
                    role: Role::Cell,
                    shape: Shape::Hex { x, y, r: 1.0 },
                    grade: 0,
                    marks: (0..PLAYERS)
                        .filter(|&p| h.is_exit_for(p))
                        .map(Mark::ExitFor)
                        .collect(),
                    caption: id(h),
                }
            })
            .collect();
        for p in 0..PLAYERS {
            let exits: Vec<Hex> = hexes().filter(|h| h.is_exit_for(p)).collect();
            let (first, last) = (exits[0], exits[exits.len() - 1]);
            out.push(Spot {
                id: exit_spot(p),
                role: Role::Off(p),
                shape: edge_band(centre(first), centre(last), 1.55),
                grade: 0,
                marks: Vec::new(),
                caption: format!("{}'s exits", chexers::player_name(p)),
            });
        }
        out
    }
    fn colours() -> &'static [&'static str] {
        &["#d63b3b", "#2f9e44", "#2f6fdb"]
    }
    fn pieces(pos: &Position) -> Vec<Piece> {
        let mut out: Vec<Piece> = hexes()
            .filter_map(|h| pos.piece_at(h).map(|p| disc(id(h), p)))
            .collect();
        for p in 0..PLAYERS {
            for _ in 0..pos.exits(p) {
                out.push(disc(exit_spot(p), p));
            }
        }
        out
    }
    fn move_spots(pos: &Position, mv: Move) -> (Option<String>, Option<String>) {
        match mv {
            Move::Move(a, b) | Move::Jump(a, b) => (Some(id(a)), Some(id(b))),
            Move::Exit(a) => (Some(id(a)), Some(exit_spot(search::Game::to_move(pos)))),
            Move::Pass => (None, None),
        }
    }
    fn facts(pos: &Position) -> Vec<Fact> {
        let mut out: Vec<Fact> = (0..PLAYERS)
            .map(|p| {
                Fact::new(
                    chexers::player_name(p),
                    format!(
                        "{} exited of {}, {} on the board",
                        pos.exits(p),
                        chexers::EXITS_TO_WIN,
                        pos.pieces(p).count_ones()
                    ),
                )
            })
            .collect();
        out.push(Fact::new(
            "turns",
            format!("{} of {}", pos.turns(), chexers::TURN_LIMIT),
        ));
        out
    }
}

fn disc(spot: String, player: Player) -> Piece {
    Piece::new(spot, player, "disc", Symbol::Plain)
}
