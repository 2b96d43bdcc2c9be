//! Jumpy3 (`plyforge-jumpy3`).

use jumpy3::solve::{Table, Value};
use jumpy3::{DefaultEval, Estimate, Move, Position, BLACK, WHITE};
use search::{Config, Evaluator, Player, Record};

use crate::adapter::{ExactValue, GameAdapter, Solution, SolveSettings};
use crate::draw::Paint;
use crate::{Error, GameKind};

/// Jumpy3: one row of 16 squares, two kings racing off the board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Jumpy3;

impl GameAdapter for Jumpy3 {
    type Pos = Position;
    type Move = Move;
    type Eval = DefaultEval;
    const KIND: GameKind = GameKind::Jumpy3;
    const NAME: &'static str = "jumpy3";
    const TITLE: &'static str = "Jumpy3";
    const PLAYERS: usize = 2;
    const HAS_SOLVER: bool = true;

    fn start() -> Position {
        Position::start()
    }
    fn parse_position(text: &str) -> Result<Position, String> {
        text.parse()
            .map_err(|e: jumpy3::ParsePositionError| e.to_string())
    }
    fn parse_move(_pos: &Position, text: &str) -> Result<Move, String> {
        text.trim()
            .parse()
            .map_err(|e: jumpy3::ParseMoveError| e.to_string())
    }
    fn player_letter(p: Player) -> &'static str {
        jumpy3::player_letter(p)
    }
    fn player_name(p: Player) -> &'static str {
        jumpy3::player_name(p)
    }
    fn engine_config() -> Config {
        jumpy3::engine_config()
    }
    fn default_eval() -> DefaultEval {
        DefaultEval::default()
    }
    fn evaluator_names() -> &'static [&'static str] {
        &["default", "sheet"]
    }
    fn evaluator(name: &str) -> Option<Box<dyn Evaluator<Position>>> {
        match name {
            "default" => Some(Box::new(Estimate::Default)),
            "sheet" => Some(Box::new(Estimate::Sheet)),
            _ => None,
        }
    }
    fn draw(pos: &Position, paint: &dyn Fn(&str, Paint) -> String) -> String {
        let text = pos.to_string();
        let (squares, side) = text.split_once(' ').unwrap_or((&text, "w"));
        let mut cells = String::from(" ");
        let mut numbers = String::from(" ");
        for (i, c) in squares.chars().enumerate() {
            let p = match c {
                'W' | 'w' => Paint::Yellow,
                'B' | 'b' => Paint::Cyan,
                _ => Paint::Dim,
            };
            let shown = if c == '.' { '·' } else { c };
            cells.push_str(&format!(" {} ", paint(&shown.to_string(), p)));
            numbers.push_str(&format!("{:>2} ", i + 1));
        }
        let to_move = if side == "w" { WHITE } else { BLACK };
        format!(
            "{cells}\n{}\n  {} to move (White moves right, Black left)\n",
            paint(&numbers, Paint::Dim),
            Self::player_name(to_move)
        )
    }
    fn solve(
        record: &Record<Position>,
        settings: &SolveSettings<'_>,
    ) -> Option<Result<Solution<Move>, Error>> {
        Some(solve(record, settings))
    }
    fn default_match() -> [&'static str; 2] {
        ["engine", "engine,eval=sheet"]
    }
    fn default_opening_plies() -> usize {
        2
    }
}

fn solve(record: &Record<Position>, settings: &SolveSettings<'_>) -> Result<Solution<Move>, Error> {
    let pos = *record.position();
    let file = |e: std::io::Error, path: &std::path::Path| Error::Solve {
        reason: format!("--table {}: {e}", path.display()),
    };
    let table = match settings.table {
        Some(path) if path.exists() => Table::load(path).map_err(|e| file(e, path))?,
        Some(path) => {
            let t = Table::build();
            t.save(path).map_err(|e| file(e, path))?;
            t
        }
        None => Table::build_up_to(pos.pawns(WHITE).max(pos.pawns(BLACK)) as usize),
    };
    if !table.covers(&pos) {
        return Err(Error::Solve {
            reason: format!(
                "the table covers positions with up to {} pawns a side only",
                table.max_pawns()
            ),
        });
    }
    let value = match table.value(&pos) {
        Value::Win(n) => ExactValue::Win(n),
        Value::Loss(n) => ExactValue::Loss(n),
        Value::Draw => ExactValue::Draw,
    };
    Ok(Solution {
        value,
        best: table.best_moves(&pos),
        line: table.line(&pos),
    })
}
