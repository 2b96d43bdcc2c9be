//! Chaos Clock's face: positions 1 to 12 clockwise from the top, each player's hand beside
//! the clock.

use chaosclock::{Move, Position, EVEN, ODD};
use search::{Game, Player};

use super::ChaosClock;
use crate::adapter::picture::{Fact, Layout, Piece, Role, Shape, Spot, Symbol};
use crate::adapter::BoardView;

/// Radius of the circle of positions.
const RADIUS: f64 = 3.3;

fn hand(p: Player) -> String {
    format!("hand-{}", chaosclock::player_letter(p))
}

fn number(spot: String, piece: u8, home: bool) -> Piece {
    Piece::new(
        spot,
        chaosclock::owner(piece),
        "number",
        Symbol::Text(piece.to_string()),
    )
    .fixed(home)
}

impl BoardView for ChaosClock {
    fn layout() -> Layout {
        Layout::Clock { radius: RADIUS }
    }
    fn spots() -> Vec<Spot> {
        let mut out: Vec<Spot> = (1..=12u8)
            .map(|n| {
                let a = f64::from(n) * std::f64::consts::PI / 6.0;
                Spot {
                    id: n.to_string(),
                    role: Role::Cell,
                    shape: Shape::Circle {
                        x: RADIUS * a.sin(),
                        y: -RADIUS * a.cos(),
                        r: 0.72,
                    },
                    grade: 0,
                    marks: Vec::new(),
                    caption: n.to_string(),
                }
            })
            .collect();
        for (p, x) in [(ODD, -5.6), (EVEN, 5.6)] {
            out.push(Spot {
                id: hand(p),
                role: Role::Hand(p),
                shape: Shape::Band {
                    x1: x,
                    y1: -3.0,
                    x2: x,
                    y2: 3.0,
                },
                grade: 0,
                marks: Vec::new(),
                caption: format!("{}'s hand", chaosclock::player_name(p)),
            });
        }
        out
    }
    fn colours() -> &'static [&'static str] {
        &["#e0a526", "#1f9aa8"]
    }
    fn pieces(pos: &Position) -> Vec<Piece> {
        let mut out: Vec<Piece> = (1..=12u8)
            .filter_map(|sq| {
                let piece = pos.piece_at(sq)?;
                Some(number(sq.to_string(), piece, piece == sq))
            })
            .collect();
        for p in [ODD, EVEN] {
            for piece in pos.hand(p) {
                out.push(number(hand(p), piece, false));
            }
        }
        out
    }
    fn move_spots(pos: &Position, mv: Move) -> (Option<String>, Option<String>) {
        match mv {
            Move::Walk(n) => {
                let from = pos.square_of(n).unwrap_or(0);
                let to = if n == 12 {
                    hand(EVEN)
                } else {
                    chaosclock::walk_target(from, n).to_string()
                };
                (Some(from.to_string()), Some(to))
            }
            Move::Place(n) => (Some(hand(pos.to_move())), Some(n.to_string())),
            Move::Pass => (None, None),
        }
    }
    fn facts(pos: &Position) -> Vec<Fact> {
        let home = |p: Player| {
            (1..=12u8)
                .filter(|&n| chaosclock::owner(n) == p && pos.is_home(n))
                .count()
        };
        let mut out: Vec<Fact> = [ODD, EVEN]
            .iter()
            .map(|&p| Fact::new(chaosclock::player_name(p), format!("{} of 6 home", home(p))))
            .collect();
        if pos.restriction() != 0 {
            out.push(Fact::new(
                "restriction",
                format!(
                    "piece {} may not walk (the opponent just walked it)",
                    pos.restriction()
                ),
            ));
        }
        out
    }
}
