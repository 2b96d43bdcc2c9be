//! Chexers (`plyforge-chexers`).

mod encoding;
mod view;

use chexers::players::{Agent as _, Greedy};
use chexers::{DefaultEval, Move, Position, Weights};
use search::Player;

use crate::adapter::{CratePlayer, Encoded, EvalError, GameAdapter, Viewed};
use crate::draw::{hex_board, hex_cells, Paint};
use crate::params::Param;

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
        // (the evaluation before them, for comparison); `modelled`: the default with the
        // opponents modelled in max^n searches by the weights fitted to the public course
        // agents' moves (`Weights::pool_model`).
        &[
            "default", "best", "mean", "greedy", "selfish", "plain", "modelled",
        ]
    }
    /// A name, optionally followed by weight settings `:NAME=NUMBER` (the fields of
    /// [`Weights`], e.g. `default:draw_standing=0:contempt=600`), for tuning by matches
    /// without a rebuild.
    fn evaluator(name: &str) -> Result<DefaultEval, EvalError> {
        named_eval(name)
    }
    /// The numeric fields of [`Weights`] (the switches `against_best`, `relative` and
    /// `race` are left to `eval=NAME:KEY=0|1`), defaults as [`Weights::default`].
    fn params() -> Vec<Param> {
        let d = Weights::default();
        // name, default, min, max, step, what it weighs (a table: one parameter a line)
        #[rustfmt::skip]
        let table: [(&'static str, i32, i64, i64, i64, &'static str); 16] = [
            ("step", d.step, 20, 400, 10, "per action of work left to the exits"),
            ("missing_steps", d.missing_steps, 0, 40, 2, "steps charged per piece needed but not owned"),
            ("spare", d.spare, 0, 400, 15, "per piece owned beyond the exits needed"),
            ("short_piece", d.short_piece, 0, 1000, 30, "while short of pieces: per piece fewer than three"),
            ("hopeless", d.hopeless, 0, 10_000, 300, "the value of a player that can no longer make four exits"),
            ("threatened", d.threatened, 0, 400, 15, "per own piece an opponent can jump now"),
            ("threatened_next", d.threatened_next, 0, 400, 15, "extra when that opponent moves next"),
            ("short_threat", d.short_threat, 0, 500, 20, "extra per threatened piece while short"),
            ("mobility", d.mobility, 0, 30, 1, "per legal action"),
            ("draw_standing", d.draw_standing, 0, 100, 8, "a draw's value, in percent of the standing, negated"),
            ("contempt", d.contempt, -1000, 10_000, 100, "subtracted from every player's value of a draw"),
            ("material", d.material, 0, 1500, 40, "per piece of force above the opponents' mean"),
            ("material_best", d.material_best, 0, 1000, 40, "per piece of force above the strongest opponent's"),
            ("cohesion", d.cohesion, 0, 200, 8, "per pair of own pieces side by side"),
            ("near", d.near, 0, 300, 15, "per action of work below near_work, on top of step"),
            ("near_work", d.near_work, 0, 40, 2, "the work below which near counts"),
        ];
        table
            .into_iter()
            .map(|(name, default, min, max, step, about)| {
                Param::int(name, i64::from(default), min, max, step, about)
            })
            .collect()
    }
    fn evaluator_with(
        name: &str,
        values: &[(&'static str, f64)],
    ) -> Result<DefaultEval, EvalError> {
        let mut eval = named_eval(name)?;
        for &(key, value) in values {
            eval.weights
                .set(key, &format!("{}", value.round() as i64))
                .map_err(|e| EvalError::setting(name, e))?;
        }
        Ok(eval)
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
    const CLOCK: search::ClockPolicy = chexers::CLOCK;
    fn moves_to_go(pos: &Position) -> Option<u32> {
        Some(chexers::moves_to_go(pos))
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
fn named_eval(name: &str) -> Result<DefaultEval, EvalError> {
    let (base, settings) = name.split_once(':').unwrap_or((name, ""));
    let model = (base == "modelled").then(Weights::pool_model);
    let weights = match base {
        "default" | "modelled" => Weights::default(),
        "best" | "mean" => Weights {
            against_best: base == "best",
            ..Weights::default()
        },
        "greedy" => Weights::greedy(),
        "selfish" => Weights::greedy_absolute(),
        "plain" => Weights::plain(),
        _ => return Err(EvalError::unknown::<Chexers>(name)),
    };
    let weights = weights
        .with_settings(settings, ':')
        .map_err(|e| EvalError::setting(name, e))?;
    Ok(DefaultEval { weights, model })
}
