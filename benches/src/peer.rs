//! This engine's side of the peer comparison (`cargo xtask bench`, the `peer` criterion
//! suite): Jumpy3 with the sheet's estimate, as the `minimax`
//! crate's side searches it.

use jumpy3::{Estimate, Position};
use plyforge::{jumpy3, search};
use search::{Limits, Search};

/// Table size on both sides of the comparison, in MiB.
pub const TABLE_MIB: usize = 64;

/// The engine as compared: `jumpy3::engine_config()` with `threads` threads, a
/// [`TABLE_MIB`] table, plain fixed-depth search (no quiescence: the peer has none) and the
/// sheet's estimate; the table is allocated and empty, so that a timed run does not pay
/// for the allocation.
///
/// ```
/// let mut s = benches::peer::ours(1);
/// use plyforge::{jumpy3, search};
/// let r = s.run(&jumpy3::Position::start(), &[], search::Limits::depth(8), |_| {});
/// assert_eq!(r.depth, 8);
/// ```
pub fn ours(threads: usize) -> Search<Position, Estimate> {
    let mut s = Search::new(
        jumpy3::engine_config()
            .with_threads(threads)
            .with_tt_mib(TABLE_MIB)
            .with_quiescence(false),
        Estimate::Sheet,
    );
    s.run(&Position::start(), &[], Limits::depth(1), |_| {});
    s.clear();
    s
}
