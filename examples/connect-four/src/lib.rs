//! Connect Four joins the plyforge toolbox: the registration of the game of the
//! `connect-four` crate (`game/`, its rules, notation and evaluation, written against
//! `plyforge-search` alone) with the facade, so that every front end takes it by name —
//! `arena`'s subcommands, its web page at `/connect-four`, match files, the Python package
//! where it is compiled in, the fuzz targets and checks.
//!
//! One trait, [`GameAdapter`]: the types, the names, the start and the evaluation are what
//! it needs; here also a terminal board, action numbers ([`Encoding`]) and a picture for the
//! web page ([`BoardView`]). Everything else (a solver: proof-number search for every
//! two-player game; clocks; matches) comes with the defaults.
//!
//! ```
//! use connect_four_arena::ConnectFour;
//! use plyforge::{GameKind, Engine};
//! let kind = GameKind::of::<ConnectFour>();
//! let mut game = kind.game_from("start")?;
//! assert_eq!(game.legal_moves(), ["4", "3", "5", "2", "6", "1", "7"]);
//! game.play("4")?;
//! let mut engine = Engine::new(kind, "engine,depth=6", None)?;
//! let info = engine.search(&game, None, &mut |_| {})?;
//! assert!(game.legal_moves().contains(info.best.as_ref().unwrap()));
//! # Ok::<(), plyforge::Error>(())
//! ```
#![deny(missing_docs)]

use connect_four::search::{Config, Game, Player, SideToMove};
use connect_four::{Move, Position, WeightedEval, Weights, COLUMNS, O, ROWS, X};
use plyforge::draw::Paint;
use plyforge::encoding::{push_bits, Encoded, Encoding, FeatureChanges};
use plyforge::params::Param;
use plyforge::view::{BoardView, Fact, FromTo, Layout, Piece, Role, Shape, Spot, Symbol, Viewed};
use plyforge::{EvalError, GameAdapter};

/// Connect Four, as the facade sees it.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectFour;

/// The name of a cell in the pictures: its column's letter (`a` to `g` from the left) and
/// its row (1 at the bottom to 6), as `d1`.
pub fn cell_name(column: usize, row: usize) -> String {
    format!("{}{}", (b'a' + column as u8) as char, row + 1)
}

/// The row a stone dropped into `column` lands on, if the column is not full.
fn landing_row(pos: &Position, column: usize) -> Option<usize> {
    (0..ROWS).find(|&r| pos.cell(column, r).is_none())
}

impl GameAdapter for ConnectFour {
    type Pos = Position;
    type Move = Move;
    type Eval = SideToMove<WeightedEval>;

    const NAME: &'static str = "connect-four";
    const TITLE: &'static str = "Connect Four";
    const ABOUT: &'static str = "four in a row on a 7×6 board, stones dropped into columns";
    const PLAYERS: usize = 2;
    const BENCH: &'static str = connect_four::BENCH;

    fn start() -> Position {
        Position::start()
    }
    fn player_letter(p: Player) -> &'static str {
        ["x", "o"][p & 1]
    }
    fn player_name(p: Player) -> &'static str {
        ["Red", "Yellow"][p & 1]
    }
    fn engine_config() -> Config {
        connect_four::engine_config()
    }
    fn default_eval() -> SideToMove<WeightedEval> {
        SideToMove(WeightedEval(Weights::DEFAULT))
    }
    /// The evaluation's [`Weights`], for engine specifications (`engine,open_three=6`) and
    /// `arena tune connect-four`.
    fn params() -> Vec<Param> {
        let d = Weights::DEFAULT;
        vec![
            Param::int(
                "open_two",
                d.open_two.into(),
                0,
                40,
                1,
                "per line of four with two own stones and none of the other's",
            ),
            Param::int(
                "open_three",
                d.open_three.into(),
                0,
                80,
                2,
                "per line of four with three own stones and none of the other's",
            ),
            Param::int(
                "centre_stone",
                d.centre_stone.into(),
                0,
                40,
                1,
                "per stone in the centre column",
            ),
        ]
    }
    fn evaluator_with(
        name: &str,
        values: &[(&'static str, f64)],
    ) -> Result<SideToMove<WeightedEval>, EvalError> {
        let mut w = Self::evaluator(name)?.0 .0;
        for &(key, value) in values {
            let v = value.round() as i32;
            match key {
                "open_two" => w.open_two = v,
                "open_three" => w.open_three = v,
                "centre_stone" => w.centre_stone = v,
                _ => return Err(EvalError::no_param::<Self>(name, key)),
            }
        }
        Ok(SideToMove(WeightedEval(w)))
    }
    fn draw(pos: &Position, paint: &dyn Fn(&str, Paint) -> String) -> String {
        let mut out = String::new();
        for row in (0..ROWS).rev() {
            out.push_str("  ");
            for column in 0..COLUMNS {
                out.push_str(&match pos.cell(column, row) {
                    Some(X) => paint("x", Paint::Red),
                    Some(_) => paint("o", Paint::Yellow),
                    None => paint("·", Paint::Dim),
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out.push_str(&paint("  1 2 3 4 5 6 7\n", Paint::Dim));
        out.push_str(&format!(
            "  {} ({}) to move: type a column\n",
            Self::player_name(pos.to_move()),
            Self::player_letter(pos.to_move())
        ));
        out
    }
    fn default_match() -> [&'static str; 2] {
        ["engine", "engine,depth=4"]
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
    /// The network its engines evaluate with (`eval=default`: the hand-made evaluation).
    /// Made by `train connect-four --out network.safetensors --net sparse --width 64
    /// --engine engine,depth=9,eval=default --games 40000 --explore 0.1 --target score
    /// --lambda 0.5 --score-scale 50 --epochs 20 --concurrency 2 --seed 1` (the
    /// repository's `docs/training.md`, "Shipped networks").
    fn network() -> Option<&'static [u8]> {
        Some(include_bytes!("network.safetensors"))
    }
    fn view() -> Option<Viewed<Self>> {
        Some(Viewed::new())
    }
}

/// The bits of a column of [`Position::stones`] (six rows and a spare bit).
const STRIDE: u32 = 7;

/// **Actions (7):** the column minus 1. **Observation `[3, 6, 7]`** (planes, rows from the
/// bottom, columns from the left): the observer's stones, the other player's, and a plane
/// of ones when the observer is to move. **Features (98),** the game's own, read from the
/// stones' bitboards as they are (bit `column * 7 + row`, row 0 at the bottom; the seventh
/// bit of each column is never set): the observer's stone is feature `column * 7 + row`,
/// the other player's `49 + column * 7 + row`; a move's change is the stone it adds.
impl Encoding for ConnectFour {
    const ACTIONS: usize = COLUMNS;
    const SHAPE: &'static [usize] = &[3, ROWS, COLUMNS];
    const FEATURES: usize = 2 * (COLUMNS * STRIDE as usize);
    const OBSERVED_FEATURES: bool = false;

    fn features(pos: &Position, player: Player, out: &mut Vec<u32>) {
        push_bits(out, pos.stones(player).into(), 0);
        push_bits(out, pos.stones(1 - player).into(), COLUMNS as u32 * STRIDE);
    }
    fn feature_changes(
        before: &Position,
        after: &Position,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool {
        for (side, base) in [(player, 0), (1 - player, COLUMNS as u32 * STRIDE)] {
            let (a, b) = (before.stones(side), after.stones(side));
            changes.bits(a.into(), b.into(), base);
        }
        true
    }

    fn action(mv: Move) -> Option<usize> {
        Some(mv.index())
    }
    fn decode(action: usize) -> Option<Move> {
        u8::try_from(action + 1).ok().and_then(Move::new)
    }
    fn observe(pos: &Position, player: Player, out: &mut [f32]) {
        let plane = ROWS * COLUMNS;
        for row in 0..ROWS {
            for column in 0..COLUMNS {
                if let Some(p) = pos.cell(column, row) {
                    let k = usize::from(p != player);
                    out[k * plane + row * COLUMNS + column] = 1.0;
                }
            }
        }
        if pos.to_move() == player {
            out[2 * plane..3 * plane].fill(1.0);
        }
    }
}

/// The board upright, row 1 at the bottom; a move is the cell its stone lands on.
impl BoardView for ConnectFour {
    fn layout() -> Layout {
        Layout::Grid {
            columns: COLUMNS as u8,
            rows: ROWS as u8,
        }
    }
    fn spots() -> Vec<Spot> {
        let mut out = Vec::new();
        for row in (0..ROWS).rev() {
            for column in 0..COLUMNS {
                out.push(Spot::new(
                    cell_name(column, row),
                    Role::Cell,
                    Shape::Circle {
                        x: column as f64,
                        y: (ROWS - 1 - row) as f64,
                        r: 0.45,
                    },
                ));
            }
        }
        out
    }
    fn colours() -> &'static [&'static str] {
        &["#d63b2f", "#f2c230"]
    }
    fn pieces(pos: &Position) -> Vec<Piece> {
        let mut out = Vec::new();
        for row in 0..ROWS {
            for column in 0..COLUMNS {
                if let Some(p) = pos.cell(column, row) {
                    out.push(Piece::new(
                        cell_name(column, row),
                        p,
                        "stone",
                        Symbol::Plain,
                    ));
                }
            }
        }
        out
    }
    fn move_spots(pos: &Position, mv: Move) -> FromTo {
        let to = landing_row(pos, mv.index()).map(|row| cell_name(mv.index(), row));
        (None, to)
    }
    fn facts(pos: &Position) -> Vec<Fact> {
        vec![
            Fact::new("stones", format!("{} of {}", pos.plies(), ROWS * COLUMNS)),
            Fact::new(
                "to move",
                ConnectFour::player_name(if pos.to_move() == O { O } else { X }),
            ),
        ]
    }
}
