//! The game chaosclock (work in progress).
#![deny(missing_docs)]

pub use search;
