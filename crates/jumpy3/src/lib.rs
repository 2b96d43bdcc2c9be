//! The game jumpy3 (work in progress).
#![deny(missing_docs)]

pub use search;
