//! Throne (`plyforge-throne`).

mod encoding;
mod view;

use search::{DrawKind, Outcome};
use throne::players::Greedy;
use throne::{Move, Position, WeightedEval, Weights, BLACK, WHITE};

use crate::adapter::{CratePlayer, Encoded, EvalError, GameAdapter, Viewed};
use crate::draw::{hex_board, hex_cells, Paint};
use crate::params::Param;

/// Throne: queens and soldiers race to the throne on a hexagon of 91 cells.
#[derive(Clone, Copy, Debug, Default)]
pub struct Throne;

impl GameAdapter for Throne {
    type Pos = Position;
    type Move = Move;
    /// [`throne::DefaultEval`]'s evaluation, with its weights as values so that they can be
    /// set ([`GameAdapter::params`]).
    type Eval = WeightedEval;
    const NAME: &'static str = "throne";
    const TITLE: &'static str = "Throne";
    const ABOUT: &'static str = "queens and soldiers race to the throne on a hexagon of 91 cells";
    const BENCH: &'static str = throne::BENCH;
    const PLAYERS: usize = 2;

    crate_shape!(throne);
    fn default_eval() -> WeightedEval {
        WeightedEval(Weights::DEFAULT)
    }
    /// The fields of [`Weights`], in evaluation units (10 per point of the contest score),
    /// defaults as [`Weights::DEFAULT`] (the weights of [`throne::DefaultEval`]).
    fn params() -> Vec<Param> {
        let d = Weights::DEFAULT;
        let int = |name, default: i32, min, max, step, about| {
            Param::int(name, i64::from(default), min, max, step, about)
        };
        vec![
            int(
                "score",
                d.score,
                0,
                50,
                1,
                "per point of the contest score, prisoners valued as released",
            ),
            int(
                "prisoner_move",
                d.prisoner_move,
                0,
                400,
                10,
                "per prisoner: the move its release costs",
            ),
            int(
                "mobility",
                d.mobility,
                0,
                100,
                3,
                "per empty cell one ring further in that a piece could step to",
            ),
            int(
                "throne_guard",
                d.throne_guard,
                0,
                50,
                1,
                "times the square of the soldiers around the throne the own queen holds",
            ),
            int("tempo", d.tempo, 0, 200, 6, "for the side to move"),
        ]
    }
    fn evaluator_with(
        name: &str,
        values: &[(&'static str, f64)],
    ) -> Result<WeightedEval, EvalError> {
        let mut w = Self::evaluator(name)?.0;
        for &(key, value) in values {
            let v = value.round() as i32;
            match key {
                "score" => w.score = v,
                "prisoner_move" => w.prisoner_move = v,
                "mobility" => w.mobility = v,
                "throne_guard" => w.throne_guard = v,
                "tempo" => w.tempo = v,
                _ => return Err(EvalError::no_param::<Self>(name, key)),
            }
        }
        Ok(WeightedEval(w))
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
    const CLOCK: search::ClockPolicy = throne::CLOCK;
    fn moves_to_go(pos: &Position) -> Option<u32> {
        Some(pos.moves_left(search::Game::to_move(pos)))
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
