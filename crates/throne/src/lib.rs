//! Throne: a race to the throne on a hexagonal board of 91 cells, with prisoners taken by
//! sandwiching, after the rule sheet of an AI-agents contest (`shared/rules/throne.md` is the
//! rule; this crate follows it exactly).
//!
//! - [`Position`] holds the board, the side to move, the plies played and both sides'
//!   Ptrap/Qtrap counters; it implements [`search::Game`] (two players: 0 = Black `b`, who
//!   moves first, and 1 = White `w`).
//! - [`Move`] is a step or a release, `q,r>q,r`, or `pass`.
//! - [`DefaultEval`] evaluates for the engine; [`engine_config`] is the recommended setting;
//!   [`players::Greedy`] is a one-ply sparring partner.
//!
//! ```
//! use throne::search::{Game, Limits, Search};
//! use throne::{engine_config, DefaultEval, Move, Position};
//!
//! let start = Position::start();
//! assert_eq!(
//!     start.to_string(),
//!     "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 0 0 0 0 0"
//! );
//! let mv: Move = "0,5>1,4".parse().unwrap();
//! assert!(start.why_illegal(mv).is_none());
//! let mut p = start.clone();
//! p.play(mv);
//! assert_eq!(p.ply(), 1);
//! assert_eq!(p.to_move(), 1);
//! let round_trip: Position = p.to_string().parse().unwrap();
//! assert_eq!(round_trip, p);
//!
//! // Ask the engine for a move.
//! let mut search = Search::new(engine_config(), DefaultEval);
//! let report = search.run(&start, &[start.key()], Limits::depth(3), |_| {});
//! assert!(start.why_illegal(report.best.unwrap()).is_none());
//! ```
//!
//! # Rules in brief
//! Pieces step to an empty adjacent cell one ring further in or on the same ring; only a queen
//! enters the throne. A piece with enemy pieces on both sides along an axis stands imprisoned;
//! the move that completes such a sandwich adds to the mover's Ptrap (soldier) or Qtrap
//! (queen). A player with prisoners must release them, the queen first, one per turn: a
//! soldier to an empty cell of the outermost ring, the queen to any empty cell but the
//! throne, never into a prison cell; with no such release, the only move is `pass`. Without
//! prisoners, `pass` is always allowed. The player who just moved wins with his queen on the
//! throne and his six soldiers around it, and loses with his six soldiers around the empty
//! throne. After 300 plies the higher score bp wins ([`Position::score`]), equal scores draw.
//!
//! # The key and the move limit
//! [`Position::key`] covers the board, the side to move, the full ply count and all four
//! counters, so transposition-table values are exact near the move limit (a position at ply
//! 290 and the same board at ply 120 are different positions). The price: two lines that
//! reach the same board with a different number of plies (passes) do not share entries;
//! lines of equal length, the usual transpositions, still do. Only the difference of the
//! counters matters for the result, but [`DefaultEval`] and `Eq` see all four, so the key
//! does too.
//!
//! # Time control
//! The contest gives each side 2 minutes of thinking for the whole game and 150 moves.
//! [`clock_limits`] turns the time left into the engine's `Limits.clock` with the moves
//! left as `moves_to_go`, keeping a reserve for latency the engine cannot see; the
//! `versus_greedy` example plays whole games against a clock and checks the time used.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use search;

mod board;
mod eval;
mod notation;
pub mod players;
mod position;

pub use board::{Cell, CELLS, RADIUS};
pub use eval::{settled_score, DefaultEval, WeightedEval, Weights, UNITS_PER_POINT};
pub use notation::{MoveField, NumberField, ParseMoveError, ParsePositionError};
pub use position::{Move, Piece, Position, BLACK, MAX_PLIES, MOVES_PER_SIDE, SOLDIERS, WHITE};

/// The letter of a player in result lines and notation: 0 → `b` (Black), 1 → `w` (White).
pub fn player_letter(p: search::Player) -> &'static str {
    match p {
        BLACK => "b",
        _ => "w",
    }
}

/// The recommended engine settings for Throne: alpha-beta with the table, move ordering,
/// aspiration windows and quiescence over imprisoning moves, one thread.
pub fn engine_config() -> search::Config {
    search::Config {
        algorithm: search::Algorithm::AlphaBeta,
        threads: 1,
        tt_mib: 64,
        use_tt: true,
        ordering: true,
        aspiration: true,
        quiescence: true,
    }
}

/// Moves of thinking time that [`clock_limits`] keeps in reserve: the engine plans as if
/// `CLOCK_RESERVE_MOVES` more moves were to come.
pub const CLOCK_RESERVE_MOVES: u32 = 10;

/// Time that [`clock_limits`] does not plan to use: only what lies above it is shared out.
pub const CLOCK_FLOOR: std::time::Duration = std::time::Duration::from_millis(150);

/// The engine's limits for one move under the contest time control (a clock for the whole
/// game, no increment, 150 moves each): `Limits.clock` with the moves the side to move still
/// has to make as `moves_to_go` (`m` = [`Position::moves_left`]) and, as `remaining`, a
/// share of the time left `r`: `(r − F) × m / (m + R)` with `F` = [`CLOCK_FLOOR`] and `R` =
/// [`CLOCK_RESERVE_MOVES`], but never less than `r / (4 (m + R))`.
///
/// Why: the engine's time manager counts only its own search, and keeps a per-move margin
/// of at most 50 ms. What it does not see is the referee's latency on every move and, on a
/// loaded machine, the scheduler stalling a move. Planning with `m + R` moves leaves about
/// `R / (150 + R)` of the clock (7.5 s of 120 s) for the first, and the floor keeps the
/// last moves clear of the second: even a move that uses three times its target leaves
/// the clock above the floor.
pub fn clock_limits(pos: &Position, remaining: std::time::Duration) -> search::Limits {
    let moves = pos.moves_left(pos.side_to_move()).max(1);
    let planned = (moves + CLOCK_RESERVE_MOVES) as f64;
    let above_floor = remaining
        .saturating_sub(CLOCK_FLOOR)
        .mul_f64(moves as f64 / planned);
    let minimum = remaining.mul_f64(1.0 / (4.0 * planned));
    search::Limits {
        clock: Some(search::Clock {
            remaining: above_floor.max(minimum),
            increment: std::time::Duration::ZERO,
            moves_to_go: Some(moves),
        }),
        ..search::Limits::default()
    }
}
