//! A record's picture through its game's [`BoardView`](super::BoardView), and the
//! geometry the pictures of hex boards share.

#[cfg(feature = "jumpy3")]
use search::Game;
use search::{Player, Record};

#[cfg(feature = "chexers")]
use super::picture::Shape;
use super::picture::{Board, MoveSpots, PlayerStyle};
use super::play::legal_moves;
use super::{GameAdapter, Viewed};

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
