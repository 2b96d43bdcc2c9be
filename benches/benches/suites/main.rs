//! The criterion suites, in one binary (one optimised link instead of one per game):
//! - `engine/<case>/<threads>t`: the search on the synthetic game of `search`;
//! - `<game>/movegen`, `<game>/perft`, `<game>/eval`, `<game>/search-<threads>t/<position>`:
//!   each game's move generation, perft, evaluation and fixed-depth search over its fixed
//!   position list (`benches/data/<game>.txt`);
//! - `peer/...`: Jumpy3 from the start with the sheet's estimate, searched by this engine and
//!   by the `minimax` crate's `IterativeSearch` (1 thread) and `ParallelSearch` (2 threads).
//!
//! `cargo bench -p benches` runs them all, `cargo bench -p benches -- jumpy3/` one suite, and
//! `cargo bench -p benches -- --test` (or `cargo test -p benches --benches`) runs each once.
//! The comparison table and the other figures are the report's: `cargo xtask bench`.

use std::time::Duration;

use criterion::Criterion;

#[path = "../../peer/jumpy3_peer.rs"]
mod jumpy3_peer;

mod engine;
mod games;
mod peer;

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

fn main() {
    let mut c = config().configure_from_args();
    engine::benches(&mut c);
    games::jumpy3(&mut c);
    games::chexers(&mut c);
    games::throne(&mut c);
    games::chaosclock(&mut c);
    peer::benches(&mut c);
    c.final_summary();
}
