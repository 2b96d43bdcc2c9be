//! The game throne (work in progress).
#![deny(missing_docs)]

pub use search;
