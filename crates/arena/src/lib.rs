//! The `arena` program as a library: [`Arena`] runs every subcommand of the `arena` binary
//! (`play`, `analyse`, `match`, `merge`, `tune`, `train`, `solve`, `perft`, `moves`,
//! `apply`, `bench`, `engine`, `serve`, `connect`, `web`) for the games it is given, ours and a
//! user's own, each of which implements [`plyforge::GameAdapter`]:
//!
//! ```
//! use std::process::ExitCode;
//! let arena = plyforge_arena::Arena::with_default_games();
//! // `arena moves jumpy3 start`: every legal move of the start, one a line.
//! assert_eq!(arena.run_with(["arena", "moves", "jumpy3", "start"]), ExitCode::SUCCESS);
//! ```
//!
//! A user's program with its own game beside ours is one line:
//!
//! ```no_run
//! # use plyforge::games::Jumpy3 as ConnectFour;
//! fn main() -> std::process::ExitCode {
//!     plyforge_arena::Arena::with_default_games()
//!         .game::<ConnectFour>()
//!         .run()
//! }
//! ```
//!
//! The program is the command line over libraries that Rust programs use directly:
//! `plyforge-lab` (`match`, `merge`, `tune`, `train`), `plyforge-net` (`engine`, `serve`, `connect`)
//! and `plyforge-web` (`web`). Programs that drive `arena` itself use its command line,
//! its engine protocol (`docs/protocol.md`) or its match server protocol
//! (`docs/server-protocol.md`).
#![deny(missing_docs)]

mod analyse;
mod arena;
mod bars;
mod bench;
mod cli;
mod commands;
mod draw;
mod help;
mod matchup;
mod play;
mod rules_cmd;
mod solve;
mod train;
mod tune;

pub mod fail;

pub use arena::Arena;
pub use fail::Fail;
