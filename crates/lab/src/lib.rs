//! Engine testing for the plyforge games, as a library: matches between engine
//! specifications from openings and books with the seats rotated, several games at once;
//! match files that a killed match resumes from and that the shards of a match (on one
//! machine or a cluster) merge from; the pentanomial SPRT and Elo; SPSA tuning of a game's
//! declared parameters by game pairs, verified by an SPRT match and drawn; Texel's method
//! on recorded games; value networks trained from self-play and recorded games
//! ([`train`]). Every game registered with [`plyforge`] takes part, ours and a user's own.
//! The `arena` program's `match`, `merge`, `tune` and `train` are this crate behind a
//! command line.
//!
//! A match and a short tuning run from Rust:
//!
//! ```
//! use plyforge::games::Jumpy3;
//! use plyforge_lab::summary::plain;
//! use plyforge_lab::tune::{TuneSettings, Tuning};
//! use plyforge_lab::{Match, MatchSettings, Silent};
//!
//! // Two engines, four games (two openings, each with the seats swapped).
//! let settings = MatchSettings {
//!     engines: vec!["engine,depth=2".into(), "greedy".into()],
//!     games: Some(4),
//!     ..MatchSettings::default()
//! };
//! let report = Match::<Jumpy3>::new(&settings)?.run(&mut Silent)?;
//! assert_eq!(report.figures().games, 4);
//! print!("{}", report.table(&plain));
//!
//! // Two iterations of SPSA over one parameter of the evaluation.
//! let settings = TuneSettings {
//!     engine: Some("engine,depth=1".into()),
//!     params: vec!["tempo".into()],
//!     iterations: 2,
//!     ..TuneSettings::default()
//! };
//! let outcome = Tuning::<Jumpy3>::new(&settings)?.run(&mut Silent)?;
//! assert_eq!(outcome.spsa.done, 2);
//! println!("tuned: {}", outcome.tuned_spec());
//! # Ok::<(), plyforge_lab::Error>(())
//! ```
//!
//! Progress goes to an [`Observer`] (a closure of [`Progress`] will do); the lab itself
//! prints nothing. Errors are [`Error`]s that say whether the input was at fault.
//!
//! The rooms: [`matches`](mod@matches) (a match: plan, files, games at once, report), [`schedule`]
//! (which games, which seats, which shard), [`book`] (where openings start), [`game`] (one
//! game and its adjudication), [`jsonl`] (the resumable JSON-lines file of matches and
//! tuning runs), [`matchfile`], [`merge`], [`sprt`], [`elo`], [`speedup`] (the threads'
//! effective speedup by games), [`summary`] (figures and table), [`tune`] (SPSA, the tune
//! file, verification, the picture, Texel's method),
//! [`train`] (self-play, the training set, the network's training, generations),
//! [`trainfile`] (a training run's games file, which the records reader reads too),
//! [`observe`], [`error`].
//!
//! **A match game is a function of its index and the match's settings** (opening, seats,
//! seeds), so concurrency and shards change where it is played, never what is played; the
//! match id (a hash of those settings) is in every line of a match file, and resuming and
//! merging refuse other matches'. **A tuning run's state is a function of its settings and
//! its games' results**, so a resumed run and every worker of a sharded run compute the
//! same values as one process.

pub mod book;
pub mod elo;
pub mod error;
pub mod game;
pub mod jsonl;
pub mod matches;
pub mod matchfile;
pub mod merge;
pub mod observe;
mod records;
mod runner;
pub mod schedule;
pub mod speedup;
pub mod sprt;
pub mod summary;
mod svg;
pub mod train;
pub mod trainfile;
pub mod tune;

pub use error::Error;
pub use matches::{Match, MatchPlan, MatchReport, MatchSettings};
pub use observe::{Observer, Progress, Silent};
