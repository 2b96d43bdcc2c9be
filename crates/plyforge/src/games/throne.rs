//! Throne (`plyforge-throne`).

use search::{DrawKind, Outcome};
use throne::players::Greedy;
use throne::{DefaultEval, Move, Position, BLACK, WHITE};

use crate::adapter::{CratePlayer, GameAdapter};
use crate::draw::{hex_board, hex_cells, Paint};
use crate::encoding::Encoded;
use crate::view::Viewed;

/// Throne: queens and soldiers race to the throne on a hexagon of 91 cells.
#[derive(Clone, Copy, Debug, Default)]
pub struct Throne;

impl GameAdapter for Throne {
    type Pos = Position;
    type Move = Move;
    type Eval = DefaultEval;
    const NAME: &'static str = "throne";
    const TITLE: &'static str = "Throne";
    const ABOUT: &'static str = "queens and soldiers race to the throne on a hexagon of 91 cells";
    const BENCH: &'static str = throne::BENCH;
    const PLAYERS: usize = 2;

    crate_shape!(throne);
    fn default_eval() -> DefaultEval {
        DefaultEval
    }
    fn draw(pos: &Position, paint: &dyn Fn(&str, Paint) -> String) -> String {
        let text = pos.to_string();
        let fields: Vec<&str> = text.split(' ').collect();
        let cell = hex_cells(fields[0], 5);
        let board = hex_board(
            5,
            |q, r| {
                let c = cell(q, r);
                let p = match c {
                    'B' | 'b' => Paint::Cyan,
                    'W' | 'w' => Paint::Yellow,
                    _ => Paint::Dim,
                };
                match c {
                    '.' if (q, r) == (0, 0) => ('*', Paint::Bold),
                    '.' => ('·', p),
                    c => (c, p),
                }
            },
            paint,
        );
        let side = if fields.get(1) == Some(&"b") {
            "Black"
        } else {
            "White"
        };
        format!(
            "{board}  {side} to move, ply {} of 300; score Black {} White {}; traps (Ptrap/Qtrap) Black {}/{} White {}/{}\n  (* is the empty throne; moves are `q,r>q,r` or `pass`)\n",
            fields.get(2).copied().unwrap_or("?"),
            pos.score(BLACK),
            pos.score(WHITE),
            fields.get(3).copied().unwrap_or("?"),
            fields.get(4).copied().unwrap_or("?"),
            fields.get(5).copied().unwrap_or("?"),
            fields.get(6).copied().unwrap_or("?"),
        )
    }
    fn crate_greedy(seed: u64) -> Option<CratePlayer<Position, Move>> {
        let mut g = Greedy::new(seed);
        Some(Box::new(move |pos: &Position| g.choose(pos)))
    }
    fn default_match() -> [&'static str; 2] {
        ["engine", "greedy"]
    }
    fn default_opening_plies() -> usize {
        2
    }
    fn own_move_limit() -> Option<u32> {
        Some(throne::MOVES_PER_SIDE)
    }
    fn clock_limits(pos: &Position, remaining: std::time::Duration) -> search::Limits {
        throne::clock_limits(pos, remaining)
    }
    /// Throne's own end after 150 moves each, brought forward: the higher score wins.
    fn limit_outcome(pos: &Position) -> Outcome {
        let (b, w) = (pos.score(BLACK), pos.score(WHITE));
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => Outcome::Win(BLACK),
            std::cmp::Ordering::Less => Outcome::Win(WHITE),
            std::cmp::Ordering::Equal => Outcome::Draw(DrawKind::Score),
        }
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
    fn view() -> Option<Viewed<Self>> {
        Some(Viewed::new())
    }
}
