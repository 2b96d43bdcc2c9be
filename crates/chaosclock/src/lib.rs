//! Chaos Clock (混乱时钟): rules, notation, an exact solver, an evaluation, and the search
//! engine through a re-export.
//!
//! ```
//! use chaosclock::{solve, Move, Position};
//! use chaosclock::search::{Game, Outcome};
//!
//! // A position in the notation b1,…,b12;P;L (P: 0 = Odd, 1 = Even to move; L: last moved piece).
//! let pos: Position = "1,2,3,4,5,6,7,8,9,10,12,11;1;0".parse().unwrap();
//! assert_eq!(pos.to_string(), "1,2,3,4,5,6,7,8,9,10,12,11;1;0");
//! // Walking 11 (from square 12, eleven squares on: square 11) captures 12 and completes Odd,
//! // who is then to move: Odd wins.
//! let after = pos.after("w11".parse::<Move>().unwrap());
//! assert_eq!(after.outcome(), Some(Outcome::Win(chaosclock::ODD)));
//! // Exactly: both win (code 3), by walking 12 off the board or by passing.
//! let s = solve::solve(&pos);
//! assert_eq!(s.code, 3);
//! assert_eq!(s.best, vec![Move::Walk(12), Move::Pass]);
//! ```
//!
//! # The rules
//!
//! The rules are those of `rules/chaosclock.md` (the project's rule file): a clock of squares
//! 1…12, pieces 1…12, Odd owns the odd pieces and Even the even ones, Even moves first. A turn
//! walks any non-home piece of either colour (piece `n` goes `n` squares clockwise, capturing
//! what stands there into its owner's hand; a walk onto a home piece is illegal; piece 12 goes
//! off the board into Even's hand; the piece the opponent walked on the previous move may not
//! be walked), places a piece from the mover's hand on its own square (capturing what stands
//! there; capturing an opponent's piece gives the mover another move at once), or passes.
//! A side with all six pieces home wins if it is to move; otherwise its opponent makes one last
//! move and both win if that completes the opponent too. Two passes in succession, or a
//! position occurring for the second time, end the game with both losing.
//!
//! # Rulings where the rules are silent
//!
//! - **The end rules as a property of the position.** A side whose six pieces are home and who
//!   is to move has won ([`Game::outcome`](search::Game::outcome) says so); the opponent of
//!   a complete side, when to move, is making its one last move. That last move can never capture a piece of the
//!   complete side (all of them are home), so it never earns an extra move, and after it the
//!   position says "both win" (both complete) or "the complete side wins" (it is to move). A
//!   single move completing both sides gives "both win".
//! - **The pass flag.** The notation cannot say that the previous move was a pass, which the
//!   two-passes rule needs. [`Position`] keeps that flag ([`Position::after_pass`]); it is part
//!   of [`Game::key`](search::Game::key), [`Game::repetition_key`](search::Game::repetition_key)
//!   and [`Position::code`] but not of the notation, so a parsed position never follows a pass
//!   and `Display` of a position after a pass prints `L = 0` without the flag (so
//!   Display→FromStr gives the same position except for that flag). (The test vectors agree: from `…;1;0` a pass is not the second
//!   pass.) A position after two passes is over (both lose).
//! - **What "the same position" is for the repetition rule**: the board, the side to move, the
//!   piece that may not be walked now ([`Position::restriction`]: the piece the opponent walked
//!   on the previous move, when walking it would otherwise be legal; none after a pass, a
//!   placement, or when that piece is home, off the board, or blocked), and the pass flag.
//!   These are exactly the things that decide the rest of the game, so two positions equal in
//!   them have the same legal moves and the same future. The notation's `L` also records a
//!   placed piece (as the public analyser does); since a placed piece is home, it restricts
//!   nothing.
//! - **Positions from which neither side can complete** are not declared over by the rules
//!   ([`Game::outcome`](search::Game::outcome)); the game goes on until two passes or a
//!   repetition end it. The solver scores them "both lose" at once when [`may_complete`]
//!   proves it.
//! - **The solver's history**: [`solve::solve`] solves a position as the start of a game (only
//!   the position itself has occurred), as the test vectors do; [`solve::SolveOptions::history`]
//!   adds earlier positions of the game (then a return to one of them ends the game).
//! - **Two passes and the last move**: a pass as the complete side's opponent's last move
//!   simply ends the game (the complete side is then to move and wins); it cannot be the second
//!   of two passes, since the move before it completed a side.
//! - `L` is accepted as any number 0…12 (a position typed by hand may name a piece that could
//!   not have moved last); it restricts only a piece that could otherwise walk.
//!
//! # What the crate offers
//!
//! - [`Position`] (implements [`search::Game`]): [`Position::start`] (the rules file's sample
//!   start), [`Position::random`] (a seeded derangement), notation through `FromStr` /
//!   `Display` with [`ParsePositionError`] naming the bad field, `why_illegal` (of
//!   [`search::Game`]) with a specific reason; [`Move`] (`wN`, `pN`, `pass`) with
//!   [`ParseMoveError`].
//! - [`solve::solve`]: the exact result code (4 the side to move wins, 3 both win, 2 both lose,
//!   1 it loses) and every best move; [`solve::solve_with`] with a node or time budget, a stop
//!   flag, threads and the game's history, `None` when cut short. The module documentation
//!   explains why its memoisation is exact despite the repetition rule.
//! - [`may_complete`]: proofs that a side can never complete.
//! - [`DefaultEval`] and [`engine_config`] (max^n) for [`search::Search`]; [`Engine`] plays the
//!   solver's move when it finishes in its share of the time, else the search's.
//! - [`SAMPLE_GAME`]: the sample game's positions (benchmarks use them and
//!   `Position::random(1..=20)`; `examples/solve_bench.rs` measures the solver on them).
//!
//! # Players
//!
//! Player 0 is Odd ([`ODD`], letter `odd`), player 1 is Even ([`EVEN`], letter `even`).
#![deny(missing_docs)]

mod eval;
mod memo;
mod position;
mod reach;
pub mod solve;

pub use search;

pub use eval::{engine_config, Choice, DefaultEval, Engine};
pub use position::{
    owner, walk_target, Field, Move, ParseMoveError, ParsePositionError, Position, EVEN, ODD,
};
pub use reach::may_complete;

/// The positions of the sample game of the rules file, start first (each after the move
/// before it: w5, w3, w4, w7, p6, w11, w12).
pub const SAMPLE_GAME: [&str; 8] = [
    "8,6,1,11,9,10,12,7,4,2,3,5;1;0",
    "8,6,1,11,5,10,12,7,4,2,3,0;0;5",
    "8,3,1,11,5,10,12,7,4,2,0,0;1;3",
    "4,3,1,11,5,10,12,7,0,2,0,0;0;4",
    "4,3,7,11,5,10,12,0,0,2,0,0;1;7",
    "4,3,7,11,5,6,12,0,0,2,0,0;0;6",
    "4,3,11,0,5,6,12,0,0,2,0,0;1;11",
    "4,3,11,0,5,6,0,0,0,2,0,0;0;12",
];

/// The letter of a player in result lines: `odd` for Odd (0), `even` for Even (1).
pub fn player_letter(p: search::Player) -> &'static str {
    if p == ODD {
        "odd"
    } else {
        "even"
    }
}

/// The player's name in messages: `Odd` or `Even`.
pub(crate) fn player_name(p: search::Player) -> &'static str {
    if p == ODD {
        "Odd"
    } else {
        "Even"
    }
}
