//! Fixtures shared by the criterion suites (`benches/benches/suites/`), the report program
//! (`report/`, run by `cargo xtask bench`) and the tests of this package:
//! the fixed position lists of every game ([`data`]), the engine's generic perft, wall-clock measurement
//! ([`measure`]), an independent alpha-beta to check root values ([`check`]) and the fixed
//! bench suite whose total node count is the search signature ([`signature`]).
//!
//! ```
//! use plyforge::search::Game;
//!
//! let start = &benches::data::chexers()[0];
//! assert_eq!(start.label, "start");
//! // Red has 8 opening moves, each answered by 8 of Green's.
//! assert_eq!(benches::perft(&start.position, 2), 64);
//! assert_eq!(start.position.players(), 3);
//! ```
#![deny(missing_docs)]

pub mod cases;
pub mod check;
pub mod data;
pub mod games;
pub mod measure;
pub mod peer;
pub mod plain;
pub mod signature;

pub use plyforge::search::perft;
