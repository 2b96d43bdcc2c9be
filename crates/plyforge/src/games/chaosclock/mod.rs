//! Chaos Clock (`plyforge-chaosclock`).

mod encoding;
mod view;

use std::time::{Duration, Instant};

use chaosclock::solve::{solve_with, SolveOptions};
use chaosclock::{Move, Position, WeightedEval, Weights, EVEN, ODD};
use search::{Game, Player, Record};

use crate::adapter::{
    Encoded, EvalError, ExactValue, GameAdapter, Solution, SolveSettings, Viewed,
};
use crate::draw::Paint;
use crate::duration::show_duration;
use crate::error::Error;
use crate::params::Param;

/// Chaos Clock: twelve pieces on a clock face; both can win, both can lose.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChaosClock;

/// Time for the perfect-play line after the exact value (each further position is solved
/// again with the line's history); a line cut short by it is given as far as it got.
const LINE_BUDGET: Duration = Duration::from_secs(2);

fn piece_paint(piece: u8) -> Paint {
    if piece == 0 {
        Paint::Dim
    } else if piece % 2 == 1 {
        Paint::Yellow
    } else {
        Paint::Cyan
    }
}

impl GameAdapter for ChaosClock {
    type Pos = Position;
    type Move = Move;
    /// [`chaosclock::DefaultEval`]'s evaluation, with its numbers as values so that they can
    /// be set ([`GameAdapter::params`]).
    type Eval = WeightedEval;
    const NAME: &'static str = "chaosclock";
    const TITLE: &'static str = "Chaos Clock";
    const ABOUT: &'static str = "twelve pieces on a clock face; both can win, both can lose";
    const SOLVER_NOTE: &'static str = "exact search under the game's preferences: the result code 4 = the side to move wins, 3 = both win, 2 = both lose, 1 = it loses; positions with most pieces on the board can take long";
    const BENCH: &'static str = chaosclock::BENCH;
    const PLAYERS: usize = 2;
    const HAS_SOLVER: bool = true;
    const RANDOM_START: bool = true;
    const HAS_FAIR_START: bool = true;
    const NOTATION_IS_EXACT: bool = false;

    crate_shape!(chaosclock);
    fn random_start(seed: u64) -> Option<Position> {
        Some(Position::random(seed))
    }
    fn fair_start(seed: u64) -> Option<Position> {
        fair_start(seed)
    }
    fn parse_move(_pos: &Position, text: &str) -> Result<Move, chaosclock::ParseMoveError> {
        let t = text.trim();
        t.parse::<Move>()
            .or_else(|e| t.to_ascii_lowercase().parse::<Move>().map_err(|_| e))
    }
    fn default_eval() -> WeightedEval {
        WeightedEval(Weights::DEFAULT)
    }
    /// The fields of [`Weights`], defaults as [`Weights::DEFAULT`].
    fn params() -> Vec<Param> {
        let d = Weights::DEFAULT;
        vec![
            Param::real(
                "hand_moves",
                d.hand_moves,
                0.0,
                4.0,
                0.2,
                "moves a piece in hand still needs",
            ),
            Param::real(
                "board_moves",
                d.board_moves,
                0.0,
                6.0,
                0.3,
                "moves a piece away from home on the board still needs",
            ),
            Param::real(
                "tempo",
                d.tempo,
                0.0,
                0.5,
                0.02,
                "the chance added for the side to move",
            ),
        ]
    }
    fn evaluator_with(
        name: &str,
        values: &[(&'static str, f64)],
    ) -> Result<WeightedEval, EvalError> {
        let mut w = Self::evaluator(name)?.0;
        for &(key, value) in values {
            match key {
                "hand_moves" => w.hand_moves = value,
                "board_moves" => w.board_moves = value,
                "tempo" => w.tempo = value,
                _ => return Err(EvalError::no_param::<Self>(name, key)),
            }
        }
        Ok(WeightedEval(w))
    }
    fn draw(pos: &Position, paint: &dyn Fn(&str, Paint) -> String) -> String {
        // The clock face: square 12 on top, 3 on the right, 6 below, 9 on the left.
        // (square, column) per row; each cell is `SQ:PIECE`, five columns wide.
        const ROWS: [&[(u8, usize)]; 7] = [
            &[(12, 18)],
            &[(11, 9), (1, 27)],
            &[(10, 3), (2, 33)],
            &[(9, 1), (3, 35)],
            &[(8, 3), (4, 33)],
            &[(7, 9), (5, 27)],
            &[(6, 18)],
        ];
        let mut out = String::new();
        for row in ROWS {
            let mut col = 0;
            out.push_str("  ");
            for &(sq, at) in row {
                out.push_str(&" ".repeat(at.saturating_sub(col)));
                let piece = pos.piece_at(sq).unwrap_or(0);
                let text = if piece == 0 {
                    "·".to_string()
                } else {
                    piece.to_string()
                };
                let home = piece != 0 && piece == sq;
                let shown = if home {
                    paint(&format!("{text}*"), Paint::Bold)
                } else {
                    paint(&text, piece_paint(piece))
                };
                out.push_str(&paint(&format!("{sq:>2}:"), Paint::Dim));
                out.push_str(&shown);
                let width = 3 + text.chars().count() + usize::from(home);
                col = at + width;
            }
            out.push('\n');
        }
        let hand = |p: Player| {
            let h = pos.hand(p);
            if h.is_empty() {
                "-".to_string()
            } else {
                h.iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        let restriction = match pos.restriction() {
            0 => String::new(),
            n => format!("; piece {n} may not walk (the opponent just walked it)"),
        };
        out.push_str(&format!(
            "  SQUARE:PIECE, * = home.  Odd's hand: {}   Even's hand: {}\n  {} to move{}\n",
            hand(ODD),
            hand(EVEN),
            Self::player_name(pos.to_move()),
            restriction
        ));
        out
    }
    fn solve(
        record: &Record<Position>,
        settings: &SolveSettings<'_>,
    ) -> Option<Result<Solution<Move>, Error>> {
        Some(solve(record, settings))
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
    fn view() -> Option<Viewed<Self>> {
        Some(Viewed::new())
    }
    /// The network the engines evaluate with (`eval=default`: the hand-made [`Weights`]):
    /// accepted over the hand-made evaluation by an SPRT at 100 ms a move (+109 Elo,
    /// `docs/training.md`, "Shipped networks"). Made by `arena train chaosclock --out
    /// network.safetensors --net sparse --width 64 --engine engine,depth=6,eval=default
    /// --games 5000 --explore 0.05 --target score --lambda 0.5 --score-scale 10000 --epochs 20
    /// --concurrency 2 --seed 1`.
    fn network() -> Option<&'static [u8]> {
        Some(include_bytes!("network.safetensors"))
    }
}

/// The most random starts a fair start looks at.
const FAIR_TRIES: usize = 64;

/// The fair start of `seed`: the rules' author suggests starting from random deals proven to
/// be "both win" (result code 3), so that neither side is favoured. The candidates are the
/// random starts [`Position::random`] of the seeds that [`search::rng::XorShift64Star`] seeded
/// with `seed` draws, one after another; the first that the exact solver values "both win"
/// is the fair start; none among the first [`FAIR_TRIES`] candidates: no fair start (each
/// candidate is an exact solve, so the work is bounded).
fn fair_start(seed: u64) -> Option<Position> {
    let mut seeds = search::rng::XorShift64Star::seeded(seed);
    (0..FAIR_TRIES)
        .map(|_| Position::random(seeds.next_u64()))
        .find(|c| chaosclock::solve::solve(c).value == chaosclock::solve::Value::BothWin)
}

fn solve(record: &Record<Position>, settings: &SolveSettings<'_>) -> Result<Solution<Move>, Error> {
    // The earlier positions of the record (for a bare position: none).
    let mut history: Vec<Position> = Vec::new();
    let mut p = record.start().clone();
    for &mv in record.moves() {
        history.push(p.clone());
        p.play(mv);
    }
    let opts = SolveOptions {
        history: history.clone(),
        time: settings.time,
        ..SolveOptions::default()
    };
    let solution = solve_with(record.position(), &opts).ok_or_else(|| Error::Solve {
        reason: format!(
            "no exact result within {}",
            settings
                .time
                .map_or("the limits".to_string(), show_duration)
        ),
    })?;
    // One perfect-play line: the first best move each time, solving again with the line's
    // history so that the repetition rule is respected.
    let started = Instant::now();
    let mut line = Vec::new();
    let mut game = record.clone();
    let mut best = solution.best.first().copied();
    while let Some(mv) = best {
        history.push(game.position().clone());
        if game.play(mv).is_err() {
            break;
        }
        line.push(mv);
        let left = LINE_BUDGET.saturating_sub(started.elapsed());
        if game.result().is_some() || left.is_zero() {
            break;
        }
        let opts = SolveOptions {
            history: history.clone(),
            time: Some(left),
            ..SolveOptions::default()
        };
        best = solve_with(game.position(), &opts).and_then(|s| s.best.first().copied());
    }
    Ok(Solution {
        value: ExactValue::Code(solution.value.code()),
        best: solution.best,
        line,
    })
}
