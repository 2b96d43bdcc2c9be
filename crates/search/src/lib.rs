//! A generic game-tree search engine: alpha-beta with principal-variation search, iterative
//! deepening, aspiration windows, a lock-free transposition table, move ordering and Lazy SMP
//! on rayon; paranoid, best-reply and max^n search for three players and for non-zero-sum games.
//!
//! The engine knows nothing of any game: a game implements [`Game`], an evaluation implements
//! [`Evaluator`], and [`Record`] plays a game with its history rules (repetition).
//!
//! ```
//! use search::{Config, Evaluator, Game, Limits, MoveList, Outcome, Player, Scores, Search, MATE};
//!
//! /// Nim with one heap: take 1 to 3 stones; whoever takes the last stone wins.
//! #[derive(Clone, Debug)]
//! struct Nim { stones: u32, to_move: Player }
//!
//! impl Game for Nim {
//!     type Move = u32;
//!     fn players(&self) -> usize { 2 }
//!     fn to_move(&self) -> Player { self.to_move }
//!     fn legal_moves(&self, out: &mut MoveList<u32>) { out.extend(1..=self.stones.min(3)) }
//!     fn play(&mut self, take: u32) { self.stones -= take; self.to_move = 1 - self.to_move }
//!     fn outcome(&self) -> Option<Outcome> {
//!         // The player who took the last stone (not the one to move) has won.
//!         (self.stones == 0).then(|| Outcome::Win(1 - self.to_move))
//!     }
//!     fn key(&self) -> u64 { (self.stones as u64) << 1 | self.to_move as u64 }
//!     fn recompute_key(&self) -> u64 { self.key() }
//! }
//!
//! struct NoIdea;
//! impl Evaluator<Nim> for NoIdea {
//!     fn evaluate(&self, _: &Nim) -> Scores { [0, 0, 0] }
//! }
//!
//! let mut engine = Search::new(Config::default(), NoIdea);
//! let report = engine.run(&Nim { stones: 10, to_move: 0 }, &[], Limits::depth(12), |_| {});
//! // Taking 2 leaves a multiple of 4: a forced win, on the 5th ply (our 3rd take) at the latest.
//! assert_eq!(report.best, Some(2));
//! assert_eq!(report.score, MATE - 5);
//! ```
//!
//! # Searches
//! - [`Algorithm::AlphaBeta`] / [`Algorithm::Paranoid`]: negamax alpha-beta (PVS, iterative
//!   deepening, aspiration windows, quiescence over [`Game::noisy_moves`]); with three players
//!   the root player against the coalition of the others. A player who moves twice in a row
//!   keeps the window and the sign.
//! - [`Algorithm::BestReply`]: best-reply search; see [`reference::best_reply`] for its definition.
//! - [`Algorithm::MaxN`]: max^n, also for non-zero-sum two-player games; see the `maxn`
//!   documentation at [`MaxnBounds`].
//!
//! At a fixed depth every search returns exactly the value of its brute-force definition in
//! [`reference`](mod@reference), whatever the table, move ordering, aspiration and thread settings (the
//! crate's tests check this on thousands of [`synthetic`] trees).
//!
//! # Scores
//! Terminal positions score [`outcome_score`]: a win `n` plies from the root is
//! `MATE - n`, so faster wins and slower losses are preferred. A position that repeats one on
//! the search path or in the game's history scores the outcome of the game's repetition rule.
#![deny(missing_docs)]

mod engine;
mod game;
mod history;
mod maxn;
mod movepick;
mod record;
pub mod reference;
pub mod rng;
mod score;
mod search;
mod smp;
pub mod synthetic;
mod time;
mod tt;
mod types;

pub use engine::Search;
pub use game::{
    DrawKind, Evaluator, Game, MoveList, Outcome, Player, Scores, MAX_EVAL, MAX_HINT, MAX_PLAYERS,
};
pub use maxn::MaxnBounds;
pub use record::{PlayError, Record};
pub use score::{outcome_score, HALF_MATE, MAX_PLY, MAX_QUIESCENCE_PLY};
pub use types::{mate_distance, Algorithm, Clock, Config, Limits, Report, MATE, MATE_BOUND};
