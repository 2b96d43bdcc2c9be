//! The `arena` program as a library: [`Arena`] runs every subcommand of the `arena` binary
//! (`play`, `analyse`, `match`, `merge`, `solve`, `perft`, `moves`, `apply`, `engine`,
//! `serve`, `connect`, `web`, `bench`) for the games it is given, ours and a user's own, each of
//! which implements [`plyforge::GameAdapter`]:
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
//! The modules marked hidden are the program's inside, public only for its fuzz targets
//! and tests (the engine protocol, the match server and its record file, the match file and
//! its test): **not a stable interface**. Programs that want the games and the engine use
//! the `plyforge` crate; programs that drive `arena` use its command line, its engine
//! protocol (`docs/protocol.md`) or its match server protocol (`docs/server-protocol.md`).
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
mod tune;
mod web;

pub mod fail;
#[doc(hidden)]
pub mod protocol;
#[doc(hidden)]
pub mod server;

pub use arena::Arena;
pub use fail::Fail;

#[cfg(test)]
use plyforge::games;
