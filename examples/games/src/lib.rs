#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod board36;
pub mod breakthrough;
pub mod othello;

/// The search engine these games are written for.
pub use plyforge_search as search;
