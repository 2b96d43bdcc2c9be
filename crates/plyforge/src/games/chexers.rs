//! Chexers (`plyforge-chexers`).

use chexers::players::{Agent as _, Greedy};
use chexers::{DefaultEval, Move, Position, Weights};
use search::Player;

use crate::adapter::{CratePlayer, EvalError, GameAdapter};
use crate::draw::{hex_board, hex_cells, Paint};
use crate::encoding::Encoded;
use crate::view::Viewed;

/// Chexers: three players on a hexagon of 37 hexes (COMP30024, 2019).
#[derive(Clone, Copy, Debug, Default)]
pub struct Chexers;

fn colour(c: char) -> Paint {
    match c {
        'r' => Paint::Red,
        'g' => Paint::Green,
        'b' => Paint::Blue,
        _ => Paint::Dim,
    }
}

impl GameAdapter for Chexers {
    type Pos = Position;
    type Move = Move;
    type Eval = DefaultEval;
    const NAME: &'static str = "chexers";
    const TITLE: &'static str = "Chexers";
    const ABOUT: &'static str = "three players on a hexagon of 37 hexes (COMP30024, 2019)";
    const BENCH: &'static str = chexers::BENCH;
    const PLAYERS: usize = 3;

    crate_shape!(chexers);
    fn parse_move(_pos: &Position, text: &str) -> Result<Move, chexers::ParseMoveError> {
        let t = text.trim();
        match t.parse::<Move>() {
            Ok(m) => Ok(m),
            // People may type `move -3 1 -2 0`: the notation is upper case.
            Err(e) => t.to_ascii_uppercase().parse::<Move>().map_err(|_| e),
        }
    }
    fn default_eval() -> DefaultEval {
        DefaultEval::default()
    }
    fn evaluator_names() -> &'static [&'static str] {
        // `best` and `mean`: the relative view against the leading opponent or against the
        // opponents' mean (the crate's default is one of them); `greedy`: exits and distances
        // only, against the leading opponent (a simple course agent's evaluation);
        // `selfish`: the same, each player for itself; `plain`: the
        // default without the rules for being short of pieces, hopeless positions and draws
        // (the evaluation before them, for comparison).
        &["default", "best", "mean", "greedy", "selfish", "plain"]
    }
    /// A name, optionally followed by weight settings `:NAME=NUMBER` (the fields of
    /// [`Weights`], e.g. `default:draw_standing=0:contempt=600`), for tuning by matches
    /// without a rebuild.
    fn evaluator(name: &str) -> Result<DefaultEval, EvalError> {
        named_weights(name).map(DefaultEval::with_weights)
    }
    fn draw(pos: &Position, paint: &dyn Fn(&str, Paint) -> String) -> String {
        let text = pos.to_string();
        let fields: Vec<&str> = text.split(' ').collect();
        let cell = hex_cells(fields[0], 3);
        let board = hex_board(
            3,
            |q, r| {
                let c = cell(q, r);
                (if c == '.' { '·' } else { c }, colour(c))
            },
            paint,
        );
        let exits: Vec<&str> = fields.get(2).map_or(vec![], |e| e.split(',').collect());
        let mut status = String::from("  exits:");
        for p in 0..3 {
            status.push_str(&format!(
                " {} {}",
                paint(
                    Self::player_name(p),
                    colour(chexers::player_letter(p).chars().next().unwrap_or('.'))
                ),
                exits.get(p).copied().unwrap_or("?")
            ));
        }
        let side = fields.get(1).copied().unwrap_or("?");
        let to_move = (0..3)
            .find(|&p| chexers::player_letter(p) == side)
            .map_or("?", Self::player_name);
        format!(
            "{board}{status}   turn {}   {} to move\n  exits: Red → right edge (q=3), Green → bottom (r=3), Blue → left (s=3)\n",
            fields.get(3).copied().unwrap_or("?"),
            to_move
        )
    }
    fn crate_greedy(seed: u64) -> Option<CratePlayer<Position, Move>> {
        let mut g = Greedy::new(seed);
        Some(Box::new(move |pos: &Position| g.choose(pos)))
    }
    fn default_match() -> [&'static str; 2] {
        ["paranoid", "brs"]
    }
    fn default_opening_plies() -> usize {
        3
    }
    fn own_move_limit() -> Option<u32> {
        Some(chexers::TURN_LIMIT / 3)
    }
    fn clock_limits(pos: &Position, remaining: std::time::Duration) -> search::Limits {
        chexers::clock_limits(pos, remaining)
    }
    fn progress(pos: &Position, player: Player) -> u32 {
        pos.exits(player)
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
    fn view() -> Option<Viewed<Self>> {
        Some(Viewed::new())
    }
}

/// The weights of a Chexers evaluation name with its optional `:NAME=NUMBER` settings, or
/// why there are none.
fn named_weights(name: &str) -> Result<Weights, EvalError> {
    let (base, settings) = name.split_once(':').unwrap_or((name, ""));
    let weights = match base {
        "default" => Weights::default(),
        "best" | "mean" => Weights {
            against_best: base == "best",
            ..Weights::default()
        },
        "greedy" => Weights::greedy(),
        "selfish" => Weights::greedy_absolute(),
        "plain" => Weights::plain(),
        _ => return Err(EvalError::unknown::<Chexers>(name)),
    };
    weights
        .with_settings(settings, ':')
        .map_err(|e| EvalError::setting(name, e))
}
