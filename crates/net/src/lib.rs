//! The plyforge games over a wire, for any registered game: the engine protocol on
//! stdin/stdout ([`protocol`], a UCI-shaped text protocol that referees and other programs
//! drive), and the match server with contest clocks, its record file and a client that
//! plays on it ([`server`]). `arena engine`, `arena serve` and `arena connect` are this
//! crate behind a command line.
//!
//! A session of the engine protocol, driven from a string:
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use plyforge::games::Jumpy3;
//! use plyforge_net::protocol::{self, Output, Session};
//!
//! let out: Output = Arc::new(Mutex::new(Box::new(std::io::stdout())));
//! let session = Session::<Jumpy3>::new(1, Some("engine,depth=3"), out)?;
//! let mut input = "position startpos moves 4\ngo\nquit\n".as_bytes();
//! protocol::run(session, &mut input)?; // prints `info …` lines and `bestmove …`
//! # Ok::<(), plyforge_net::Error>(())
//! ```
//!
//! The protocols are documented in the repository's `docs/protocol.md` (the engine's) and
//! `docs/server-protocol.md` (the server's). The server runs on a tokio runtime of its own;
//! it writes its `listening` line and a line per game on stdout, as `arena serve` shows them.
//!
//! **Every `go` of the engine protocol gets exactly one `bestmove`** (`bestmove none` after
//! an `info string error` when refused), except after `quit`. **The server's record loses
//! nothing**: one write per line, `fsync` at each game's end before its `over`; a restart
//! cuts a torn last line and ends every game a crash cut off (`end crashed aborted`). **A
//! game that never started is not a result** (a seat that leaves before its first move
//! voids it, in arrival-order seating).

pub mod error;
pub mod protocol;
pub mod server;

pub use error::Error;
