//! The game chexers (work in progress).
#![deny(missing_docs)]

pub use search;
