//! Boards for pictures: what a graphical front end (the web page of `arena web`) needs of a
//! game that the notation alone does not say — the board's cells with their coordinates in
//! notation and their geometry, the pieces on them, and for each legal move the cell it
//! leaves and the cell it reaches (click-to-move, the last-move highlight, best-move arrows).
//!
//! A game describes its picture by implementing [`BoardView`] and returning
//! `Some(Viewed::new())` from [`GameAdapter::view`] (ours do in this module's per-game
//! files); a front end that holds a [`State`] of any game calls [`board`] and draws what it
//! gets, with no rule of any game of its own. The vocabulary is generic: cells of any shape
//! at any place (a row, a frame of holes, a chequered board of squares, a hex grid, a ring),
//! pieces with a symbol or a text in their player's colour, marks such as a player's exits
//! or a goal cell.
//!
//! Geometry is in abstract units (a Jumpy3 square, a hex's circumradius and a clock
//! position are about one unit); `y` grows downwards, as on a screen.
//!
//! ```
//! use plyforge::{view, GameKind};
//! let mut game = GameKind::from_name("jumpy3").unwrap().new_game();
//! game.play("4").unwrap();
//! let board = view::board(&game).unwrap();
//! assert_eq!(board.spots.iter().filter(|s| s.role == view::Role::Cell).count(), 16);
//! // The last move left square 4 for square 5.
//! let last = board.last.unwrap();
//! assert_eq!((last.from.as_deref(), last.to.as_deref()), (Some("4"), Some("5")));
//! // Black's first legal move moves the piece on square 13 to square 12.
//! assert_eq!(board.moves[0].text, "13");
//! assert_eq!(board.moves[0].to.as_deref(), Some("12"));
//! ```

#[cfg(feature = "jumpy3")]
use search::Game;
use search::{Player, Record};

use crate::adapter::{legal_moves, GameAdapter};
pub use crate::adapter::{BoardView, FromTo, Viewed};
use crate::State;

#[cfg(feature = "chaosclock")]
mod chaosclock;
#[cfg(feature = "chexers")]
mod chexers;
#[cfg(feature = "jumpy3")]
mod jumpy3;
pub(crate) mod picture;
#[cfg(feature = "throne")]
mod throne;

pub use picture::*;

fn spots_of<A: GameAdapter>(v: &Viewed<A>, pos: &A::Pos, mv: A::Move) -> MoveSpots {
    let (from, to) = (v.move_spots)(pos, mv);
    MoveSpots {
        text: mv.to_string(),
        from,
        to,
    }
}

/// The board of a record of game `A` through its view.
pub fn board_of<A: GameAdapter>(v: &Viewed<A>, record: &Record<A::Pos>) -> Board {
    let pos = record.position();
    let last = record.moves().last().map(|&mv| {
        let mut before = record.clone();
        before.undo();
        spots_of::<A>(v, before.position(), mv)
    });
    let moves = if record.result().is_some() {
        Vec::new()
    } else {
        legal_moves(pos)
            .iter()
            .map(|&mv| spots_of::<A>(v, pos, mv))
            .collect()
    };
    let colours = (v.colours)();
    Board {
        layout: (v.layout)(),
        spots: (v.spots)(),
        players: (0..A::PLAYERS)
            .map(|p: Player| PlayerStyle {
                letter: A::player_letter(p),
                name: A::player_name(p),
                colour: colours.get(p).copied().unwrap_or("gray"),
            })
            .collect(),
        pieces: (v.pieces)(pos),
        moves,
        last,
        facts: (v.facts)(pos),
    }
}

/// The board of a game in progress, of any game that has a picture ([`GameAdapter::view`]).
pub fn board(state: &State) -> Option<Board> {
    state.board()
}

/// The centre of the hex at axial (q, r), pointy-top, circumradius 1: rows of equal r are
/// horizontal, as the notation lists them.
#[cfg(any(feature = "chexers", feature = "throne"))]
pub(crate) fn hex_centre(q: i32, r: i32) -> (f64, f64) {
    let (q, r) = (f64::from(q), f64::from(r));
    (3f64.sqrt() * (q + r / 2.0), 1.5 * r)
}

/// A band along the board's edge through the centres `a` and `b`, pushed `out` units away
/// from the board's centre (0, 0).
#[cfg(feature = "chexers")]
pub(crate) fn edge_band(a: (f64, f64), b: (f64, f64), out: f64) -> Shape {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (mut nx, mut ny) = (-dy / len, dx / len);
    let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    if nx * mx + ny * my < 0.0 {
        nx = -nx;
        ny = -ny;
    }
    Shape::Band {
        x1: a.0 + nx * out,
        y1: a.1 + ny * out,
        x2: b.0 + nx * out,
        y2: b.1 + ny * out,
    }
}

/// The position after a move (for the views that read a move's target off the result).
#[cfg(feature = "jumpy3")]
pub(crate) fn after<G: Game>(pos: &G, mv: G::Move) -> G {
    let mut next = pos.clone();
    next.play(mv);
    next
}
