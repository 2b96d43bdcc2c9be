//! Fixtures shared by the criterion benches in `benches/benches/` and by `cargo xtask bench`.
#![deny(missing_docs)]
