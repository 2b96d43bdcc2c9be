//! Internal to the `arena` program: the parts of it that its fuzz targets (`fuzz/`) and its
//! integration tests reach directly — the engine protocol ([`protocol`]), the match server
//! and its record file ([`server`]) and the program's failures ([`fail`]).
//!
//! **Not a library for users**: nothing here is a stable interface, and it may change in any
//! release. Programs that want the games and the engine use the `plyforge` crate; programs
//! that want to drive `arena` use its command line, its engine protocol
//! (`docs/protocol.md`) or its match server protocol (`docs/server-protocol.md`).
#![deny(missing_docs)]

pub mod book;
pub mod fail;
pub mod protocol;
pub mod server;

#[cfg(test)]
use plyforge::games;
