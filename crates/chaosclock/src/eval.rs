//! The evaluation, the recommended engine settings, and [`Engine`]: the exact solver when it
//! finishes in time, otherwise max^n search with [`DefaultEval`].

use std::time::{Duration, Instant};

use search::{Evaluator, Game, Limits, Player, Record, Report, Scores, Search};

use crate::position::{pieces_of, Move, Position, EVEN, ODD};
use crate::reach::may_complete;
use crate::solve::{self, Solution, SolveOptions};

/// The default evaluation.
///
/// For each side an estimate `p` of its chance to complete: 0 when [`may_complete`] proves
/// it never will, else growing as its pieces get home: `1 − (h·in hand + b·away) / 13`,
/// where a piece in hand is one placement from home and a piece on the board away from home
/// at least two moves, weighed by `h` and `b` ([`Weights::DEFAULT`]: tuned by games, a piece
/// on the board away from home counts twelve times one in hand). Each side then scores the expected utility
/// of the four outcomes — own win 2, both win 1, both lose −1, own loss −2 — with its own
/// completing first when it is to move breaking ties. Both sides prefer "both win" to "both
/// lose", as the rules say, so the scores are not zero-sum.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultEval;

/// Scale of [`DefaultEval`]'s scores (well inside `search::MAX_EVAL`).
const SCALE: f64 = 10_000.0;

/// The numbers of [`DefaultEval`], for tuning ([`WeightedEval`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Moves a piece in hand still needs (its placement).
    pub hand_moves: f64,
    /// Moves a piece on the board away from home still needs at least.
    pub board_moves: f64,
    /// The chance added for the side to move (a tempo), before the four outcomes are
    /// weighed.
    pub tempo: f64,
}

impl Weights {
    /// The weights of [`DefaultEval`], tuned by `arena tune chaosclock` (SPSA, 2,000
    /// iterations of two game pairs at depth 4, from 1, 2 and 0.04): against those, +160 ± 36
    /// Elo at depth 4 (SPRT [0, 10] nElo: H1 after 116 pairs), +266 at depth 6, +156 at 20 ms a
    /// move.
    pub const DEFAULT: Weights = Weights {
        hand_moves: 0.22,
        board_moves: 2.7,
        tempo: 0.018,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// [`DefaultEval`]'s evaluation with any [`Weights`].
///
/// ```
/// use plyforge_chaosclock::search::Evaluator;
/// use plyforge_chaosclock::{DefaultEval, Position, WeightedEval, Weights};
/// let p = Position::start();
/// assert_eq!(WeightedEval(Weights::DEFAULT).evaluate(&p), DefaultEval.evaluate(&p));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WeightedEval(pub Weights);

/// Chance-like progress of `player` towards completing (0 when proved impossible).
fn progress(pos: &Position, player: Player, can: bool, w: &Weights) -> f64 {
    if !can {
        return 0.0;
    }
    let own = pieces_of(player);
    let away_on_board = (own & pos.board_mask() & !pos.home_mask()).count_ones() as f64;
    let in_hand = pos.hand_mask(player).count_ones() as f64;
    // Moves still needed at least: one per piece in hand, two per piece away on the board.
    let needed = w.hand_moves * in_hand + w.board_moves * away_on_board;
    (1.0 - needed / 13.0).clamp(0.0, 1.0)
}

fn evaluate(pos: &Position, w: &Weights) -> Scores {
    let can = may_complete(pos);
    let mut p = [
        progress(pos, ODD, can[ODD], w),
        progress(pos, EVEN, can[EVEN], w),
    ];
    // The side to move is a tempo ahead.
    let mover = pos.to_move();
    if can[mover] {
        p[mover] = (p[mover] + w.tempo).clamp(0.0, 1.0);
    }
    let utility = |me: usize| -> f64 {
        let (a, b) = (p[me], p[1 - me]);
        2.0 * a * (1.0 - b) + a * b - (1.0 - a) * (1.0 - b) - 2.0 * (1.0 - a) * b
    };
    let mut s = [0; 3];
    s[ODD] = (utility(ODD) * SCALE) as i32;
    s[EVEN] = (utility(EVEN) * SCALE) as i32;
    s
}

impl Evaluator<Position> for DefaultEval {
    fn evaluate(&self, pos: &Position) -> Scores {
        evaluate(pos, &Weights::DEFAULT)
    }
}

impl Evaluator<Position> for WeightedEval {
    fn evaluate(&self, pos: &Position) -> Scores {
        evaluate(pos, &self.0)
    }
}

/// How [`Engine`] chose its move.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Choice {
    /// The solver finished: the move is one of its best moves.
    Solved(Solution),
    /// The solver did not finish in its share of the time: the move is max^n search's.
    Searched(Report<Move>),
}

/// An engine for play: the exact solver when it finishes within its share of the time
/// (`solver_share` of it), otherwise max^n search with [`DefaultEval`] for the rest.
pub struct Engine {
    search: Search<Position, DefaultEval>,
    /// Threads for the solver.
    pub threads: usize,
    /// The fraction of the time given to the solver first (0 to 1).
    pub solver_share: f64,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with the recommended settings.
    pub fn new() -> Self {
        Engine {
            search: Search::new(crate::engine_config(), DefaultEval),
            threads: SolveOptions::default().threads,
            solver_share: 0.5,
        }
    }

    /// A move for the game `record` within `time`, with how it was found; `None` when the
    /// game is over. The solver is told the game's history, so its answer is exact for this
    /// game (a return to an earlier position ends the game).
    pub fn choose(&mut self, record: &Record<Position>, time: Duration) -> Option<(Move, Choice)> {
        let started = Instant::now();
        let pos = record.position();
        if record.result().is_some() || pos.outcome().is_some() {
            return None;
        }
        let opts = SolveOptions {
            threads: self.threads,
            time: Some(time.mul_f64(self.solver_share.clamp(0.0, 1.0))),
            ..SolveOptions::for_record(record)
        };
        if let Some(s) = solve::solve_with(pos, &opts) {
            let best = *s.best.first().expect("a game not over has a best move");
            return Some((best, Choice::Solved(s)));
        }
        let left = time.saturating_sub(started.elapsed());
        let report = self
            .search
            .run(pos, record.history_keys(), Limits::movetime(left), |_| {});
        let best = report.best.unwrap_or(Move::Pass);
        Some((best, Choice::Searched(report)))
    }

    /// The max^n search engine used when the solver does not finish.
    pub fn search(&mut self) -> &mut Search<Position, DefaultEval> {
        &mut self.search
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_prefers_progress_and_stays_in_range() {
        let start = Position::start();
        let s = DefaultEval.evaluate(&start);
        assert!(s[0].abs() <= search::MAX_EVAL && s[1].abs() <= search::MAX_EVAL);
        // Odd one placement from completing, Even with its six pieces in hand: Odd is well
        // ahead (the tuned weights count a piece in hand as 0.22 of a move, so Even's six
        // are 1.3 moves: 4,000 points behind, where the untuned weights said 5,000 or more).
        let p: Position = "1,0,3,0,5,0,7,0,9,0,0,0;0;0".parse().unwrap();
        let s = DefaultEval.evaluate(&p);
        assert!(s[ODD] > 10_000 && s[ODD] > s[EVEN] + 4_000, "{s:?}");
        // A piece away on the board costs more than one in hand (Odd's 11 placed on Even's
        // home square instead of held).
        let away: Position = "1,0,3,0,5,0,7,0,9,0,0,11;0;0".parse().unwrap();
        assert!(
            DefaultEval.evaluate(&away)[ODD] < s[ODD],
            "{:?}",
            DefaultEval.evaluate(&away)
        );
        // A side proved stuck scores at the bottom.
        let stuck: Position = "1,4,3,2,5,6,7,8,9,10,0,12;0;0".parse().unwrap();
        let s = DefaultEval.evaluate(&stuck);
        assert!(s[EVEN] <= -15_000 && s[ODD] > 0, "{s:?}");
    }

    #[test]
    fn the_engine_plays_the_solvers_move_when_it_can() {
        let pos: Position = "4,3,11,0,5,6,0,0,0,2,0,0;0;12".parse().unwrap();
        let rec = Record::new(pos);
        let mut e = Engine::new();
        let (mv, how) = e.choose(&rec, Duration::from_secs(20)).unwrap();
        match how {
            Choice::Solved(s) => {
                assert_eq!(s.value.code(), 3);
                assert!(s.best.contains(&mv));
            }
            Choice::Searched(_) => panic!("a small position is solved"),
        }
    }

    #[test]
    fn the_engine_falls_back_to_search() {
        let rec = Record::new(Position::random(11));
        let mut e = Engine::new();
        e.solver_share = 0.0;
        let (mv, how) = e.choose(&rec, Duration::from_millis(200)).unwrap();
        assert!(matches!(how, Choice::Searched(_)));
        assert_eq!(rec.position().why_illegal(mv), None);
    }
}
