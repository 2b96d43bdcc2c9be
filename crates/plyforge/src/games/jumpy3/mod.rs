//! Jumpy3 (`plyforge-jumpy3`).

mod encoding;
mod view;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use jumpy3::solve::{Table, TableEval, Value};
use jumpy3::{Estimate, Move, Position, BLACK, WHITE};
use search::{Evaluator, Record, Scores};

use crate::adapter::{
    Encoded, EvalError, ExactValue, GameAdapter, Solution, SolveSettings, SolverTraits, Viewed,
};
use crate::draw::Paint;
use crate::error::Error;
use crate::params::Param;

/// Jumpy3: one row of 16 squares, two kings racing off the board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Jumpy3;

impl GameAdapter for Jumpy3 {
    type Pos = Position;
    type Move = Move;
    type Eval = Jumpy3Eval;
    const NAME: &'static str = "jumpy3";
    const TITLE: &'static str = "Jumpy3";
    const ABOUT: &'static str = "one row of 16 squares, two kings racing off the board";
    const SOLVER_NOTE: &'static str = "a solved table of all 28 million positions, built once (about 9 s of CPU time, 56 MB) into the cache directory ($PLYFORGE_CACHE_DIR, else ~/.cache/plyforge) or --table FILE, then read: `win N`, `loss N` or `draw`; positions with at most one pawn a side are solved at once without it";
    const BENCH: &'static str = jumpy3::BENCH;
    const PLAYERS: usize = 2;
    const HAS_SOLVER: bool = true;
    const SOLVER: SolverTraits = SolverTraits::TABLE;

    crate_shape!(jumpy3);
    /// The estimate (the solved table is `default` only where it is cached).
    fn default_eval() -> Jumpy3Eval {
        Jumpy3Eval::Estimate(Estimate::Default)
    }
    fn evaluator_names() -> &'static [&'static str] {
        // `default`: the solved table where it is cached (`plyforge::cache_dir()`, written
        // by the first `arena solve jumpy3` of a position with two pawns a side or more),
        // else the crate's estimate; `estimate`: the estimate always; `sheet`: the course
        // sheet's estimate; `table`: the solved table always (solved and cached first if
        // it is not cached, as `arena solve` does).
        &["default", "estimate", "sheet", "table"]
    }
    fn evaluator(name: &str) -> Result<Jumpy3Eval, EvalError> {
        match name {
            "default" => Ok(match cached_table() {
                Some(table) => Jumpy3Eval::Table(TableEval::new(table)),
                None => Jumpy3Eval::Estimate(Estimate::Default),
            }),
            "estimate" => Ok(Jumpy3Eval::Estimate(Estimate::Default)),
            "sheet" => Ok(Jumpy3Eval::Estimate(Estimate::Sheet)),
            "table" => Ok(Jumpy3Eval::Table(TableEval::new(solved_table()))),
            _ => Err(EvalError::unknown::<Self>(name)),
        }
    }
    /// The weights of the crate's estimate ([`jumpy3::eval::Weights`], one per feature of
    /// [`jumpy3::eval::features`]), defaults as its tuned weights.
    fn params() -> Vec<Param> {
        let d = jumpy3::eval::Weights::DEFAULT.0;
        let spec = [
            (
                "king_race",
                2,
                -50,
                100,
                "per move the kings' race is ahead",
            ),
            (
                "king_squares",
                3,
                -50,
                100,
                "the kings' squares (the sheet's i + j - 15)",
            ),
            ("captures", 2, -50, 100, "per capture available"),
            (
                "king_captures",
                6,
                -100,
                600,
                "per capture of a king available",
            ),
            ("pawn_race", 2, -50, 50, "per move the pawns' race is ahead"),
            ("pawns", 10, 0, 1000, "per pawn on the board"),
            ("tempo", 5, -100, 200, "for the side to move"),
            (
                "mover_captures",
                4,
                -100,
                200,
                "per capture available to the side to move",
            ),
            (
                "mover_king_captures",
                8,
                -100,
                300,
                "per king capture available to the side to move",
            ),
            (
                "race_winner",
                10,
                -100,
                400,
                "who wins a pure race of the kings with the move",
            ),
            (
                "distance_winner",
                5,
                -100,
                300,
                "who wins the kings' race by distance with the move",
            ),
        ];
        spec.iter()
            .zip(d)
            .map(|(&(name, step, min, max, about), default)| {
                Param::int(name, i64::from(default), min, max, step, about)
            })
            .collect()
    }
    /// The parameters apply to the estimate: `default` and `estimate` with parameters are
    /// the estimate with those weights (never the solved table).
    fn evaluator_with(name: &str, values: &[(&'static str, f64)]) -> Result<Jumpy3Eval, EvalError> {
        if values.is_empty() {
            return Self::evaluator(name);
        }
        if name != "default" && name != "estimate" {
            Self::evaluator(name)?;
            return Err(EvalError::no_param::<Self>(name, values[0].0));
        }
        let mut weights = jumpy3::eval::Weights::DEFAULT;
        let names = Self::params();
        for &(key, value) in values {
            let i = names
                .iter()
                .position(|p| p.name == key)
                .ok_or_else(|| EvalError::no_param::<Self>(name, key))?;
            weights.0[i] = value.round() as i32;
        }
        Ok(Jumpy3Eval::Weighted(
            jumpy3::eval::DefaultEval::with_weights(weights),
        ))
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
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
    fn view() -> Option<Viewed<Self>> {
        Some(Viewed::new())
    }
    /// A network learned from the solved table, for the machines that have not cached the
    /// table (where it is cached, `None`: the engines search with the table, which plays
    /// perfectly). 80 features (a piece of a player on a square, the mover's view), width
    /// 64, 22 KB, taught the table's exact values of the positions of 40000 games of a
    /// depth-4 search with the table (10% random moves). At 100 ms a move against the
    /// estimate: +55 Elo, SPRT accepted after 380 games; in one match of 100 opening pairs
    /// it won 16 pairs against the estimate where the table won 15, and it split every pair
    /// against the table. Made by `arena solve jumpy3 start` (which caches the table),
    /// then `arena train jumpy3 --out network.safetensors --net sparse --width 64
    /// --engine engine,depth=4,eval=table --games 40000 --explore 0.1 --target score
    /// --lambda 0 --epochs 20 --concurrency 2 --seed 1`.
    fn network() -> Option<&'static [u8]> {
        if cached_table().is_some() {
            return None;
        }
        Some(include_bytes!("network.safetensors"))
    }
}

/// Jumpy3's evaluations by name (the engine specs' `eval=`): an estimate, or the solved
/// table, with which a search of depth 1 plays perfectly.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Jumpy3Eval {
    /// An estimate of the crate ([`Estimate`]).
    Estimate(Estimate),
    /// The solved table ([`TableEval`]; positions it does not cover get the estimate).
    Table(TableEval),
    /// The crate's estimate with other weights (an engine spec's parameters).
    Weighted(jumpy3::eval::DefaultEval),
}

impl Jumpy3Eval {
    /// True when it reads the solved table.
    pub fn is_table(&self) -> bool {
        matches!(self, Jumpy3Eval::Table(_))
    }
}

impl Evaluator<Position> for Jumpy3Eval {
    fn evaluate(&self, p: &Position) -> Scores {
        match self {
            Jumpy3Eval::Estimate(e) => e.evaluate(p),
            Jumpy3Eval::Table(t) => t.evaluate(p),
            Jumpy3Eval::Weighted(w) => w.evaluate(p),
        }
    }
    fn aspiration_window(&self) -> i32 {
        match self {
            Jumpy3Eval::Estimate(e) => e.aspiration_window(),
            Jumpy3Eval::Table(t) => t.aspiration_window(),
            Jumpy3Eval::Weighted(w) => w.aspiration_window(),
        }
    }
    fn move_hint(&self, p: &Position, mv: Move) -> i32 {
        // The estimate's move ordering (kings first) either way.
        match self {
            Jumpy3Eval::Estimate(e) => e.move_hint(p, mv),
            Jumpy3Eval::Table(_) | Jumpy3Eval::Weighted(_) => Estimate::Default.move_hint(p, mv),
        }
    }
}

impl Jumpy3 {
    /// The name of the cached table file in [`crate::cache_dir`] (its format version is in
    /// its header).
    pub const TABLE_FILE: &'static str = TABLE_FILE;

    /// The solved table cached on disk ([`crate::cache_dir`]), loaded once per process and
    /// per cache folder; `None` while it is not there (or cannot be read: such a file is
    /// read again only once it changes, as when a solve replaces it). The default
    /// engine's evaluation reads it when it is there.
    pub fn cached_table() -> Option<Arc<Table>> {
        cached_table()
    }
}

/// What was found in the cache directory: a table read from (or written to) its file, or a
/// file that could not be read (by its size and time of change, so that a damaged 56 MB file
/// is not read again at every engine made, and a file written since is read).
enum Cached {
    Table(PathBuf, Arc<Table>),
    Unreadable(PathBuf, Option<(u64, std::time::SystemTime)>),
}

static LOADED: Mutex<Option<Cached>> = Mutex::new(None);

/// A file's size and time of change, where it can say.
fn stamp(path: &std::path::Path) -> Option<(u64, std::time::SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

fn cached_table() -> Option<Arc<Table>> {
    let path = crate::cache::cache_dir()?.join(TABLE_FILE);
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    match loaded.as_ref() {
        Some(Cached::Table(p, t)) if *p == path => return Some(t.clone()),
        Some(Cached::Unreadable(p, seen))
            if *p == path && seen.is_some() && *seen == stamp(&path) =>
        {
            return None
        }
        _ => {}
    }
    let seen = stamp(&path);
    match Table::load(&path) {
        Ok(table) => {
            let table = Arc::new(table);
            *loaded = Some(Cached::Table(path, table.clone()));
            Some(table)
        }
        Err(_) => {
            *loaded = Some(Cached::Unreadable(path, seen));
            None
        }
    }
}

/// The solved table for `eval=table`: the cached one, else solved (about 9 s of CPU time)
/// and written to the cache directory for the next time (kept in memory only if it cannot
/// be written there, once per process).
fn solved_table() -> Arc<Table> {
    if let Some(table) = cached_table() {
        return table;
    }
    static SOLVED: Mutex<Option<Arc<Table>>> = Mutex::new(None);
    let mut solved = SOLVED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(table) = solved.as_ref() {
        return table.clone();
    }
    let path = crate::cache::cache_dir().map(|d| d.join(TABLE_FILE));
    let (table, written) = match &path {
        Some(path) => {
            let (table, saved) = Table::build_and_save(path, 3);
            (table, saved.is_ok())
        }
        None => (Table::build(), false),
    };
    let table = Arc::new(table);
    match path.filter(|_| written) {
        // Where `default` will look for it: one copy for both.
        Some(path) => {
            *LOADED.lock().unwrap_or_else(|p| p.into_inner()) =
                Some(Cached::Table(path, table.clone()))
        }
        None => *solved = Some(table.clone()),
    }
    table
}

/// The table a solve uses: the one in `--table FILE` (solved and written there the first
/// time), else the one in the cache directory if it is there ([`cached_table`]: read once per
/// process); else, for a position with at
/// most one pawn a side, the small table of those positions (solved at once, in memory);
/// else the full table ([`solved_table`]: solved, about 9 s of CPU time, and written to the
/// cache directory for the next time; kept in memory only if it cannot be written there).
fn table_for(pos: &Position, settings: &SolveSettings<'_>) -> Result<Arc<Table>, Error> {
    let file_error = |e: std::io::Error, path: &std::path::Path| Error::Solve {
        reason: format!("table {}: {e}", path.display()),
    };
    if let Some(path) = settings.table {
        return Table::load_or_build(path)
            .map(|(t, _)| Arc::new(t))
            .map_err(|e| file_error(e, path));
    }
    if let Some(t) = cached_table() {
        return Ok(t);
    }
    let pawns = pos.pawns(WHITE).max(pos.pawns(BLACK)) as usize;
    if pawns <= 1 {
        return Ok(Arc::new(Table::build_up_to(pawns)));
    }
    Ok(solved_table())
}

/// The name of the cached table file (its format version is in its header).
const TABLE_FILE: &str = "jumpy3.table";

fn solve(record: &Record<Position>, settings: &SolveSettings<'_>) -> Result<Solution<Move>, Error> {
    let pos = *record.position();
    let table = table_for(&pos, settings)?;
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
        other => {
            return Err(Error::Solve {
                reason: format!(
                    "a value the table gives that this facade does not know: {other:?}"
                ),
            })
        }
    };
    Ok(Solution {
        value,
        best: table.best_moves(&pos),
        line: table.line(&pos),
    })
}
