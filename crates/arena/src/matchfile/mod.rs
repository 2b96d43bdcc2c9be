//! What `arena match` writes and reads back: the match file ([`record`]: its header and
//! game lines, written and parsed; what `--resume` and `arena merge` read), the schedule of
//! a match ([`schedule`]: seat orders, openings, shards) and the sequential test
//! ([`sprt`]: the pentanomial SPRT and normalised Elo as fishtest computes them).

pub mod record;
pub mod schedule;
pub mod sprt;
