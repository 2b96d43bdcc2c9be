//! Progress: what a match, a tuning run or a training run tells its [`Observer`] while it works. The lab
//! draws nothing and prints nothing; `arena` draws its progress bars from these events.

use std::time::Duration;

use crate::matchfile::GameLine;

/// One thing a run reports while it works, always on the thread that called `run`.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// The games begin: `total` units of work, counted in `unit` (`"games"` for a match,
    /// `"iterations"` for a tuning run).
    Begin {
        /// Units to do.
        total: u64,
        /// Their name.
        unit: &'static str,
    },
    /// A game finished (a match's, or one of a tuning iteration's).
    Game {
        /// The game, as the match file keeps it.
        line: &'a GameLine,
        /// The most games of the match.
        of: u64,
    },
    /// The test is decided after `pairs` game pairs: the games under way finish, and no
    /// new one starts.
    Decided {
        /// The pairs the verdict counts.
        pairs: u64,
    },
    /// A tuning iteration is done (`done` of them; 0 at the start), and these are the
    /// values after it.
    Iteration {
        /// Iterations done.
        done: u64,
        /// The parameters' values (θ), unrounded.
        values: &'a [f64],
    },
    /// A worker of a sharded run waits for games that other workers play (of a tuning
    /// iteration, a training run's self-play, a judging match).
    Waiting {
        /// The workers waited for (from 1).
        workers: &'a [u64],
        /// The number of workers.
        of: u64,
        /// Which games (`games of iteration 3`, `self-play games`, `games of the match`).
        what: &'a str,
        /// How long it has waited.
        since: Duration,
    },
    /// A training run's self-play game finished: `done` of them so far (resumed ones
    /// counted).
    Played {
        /// Games played so far.
        done: u64,
    },
    /// A training run's epoch is done: `done` epochs so far, with the mean loss on the
    /// training positions and on the held-out ones.
    Epoch {
        /// Epochs done.
        done: u64,
        /// The mean loss met on the training positions in the epoch.
        train: f64,
        /// The mean loss on the held-out positions after it (`None`: none were held out).
        held: Option<f64>,
    },
    /// The games are over (finished, stopped by the test, or cut short by an error).
    End,
}

/// Receives a run's [`Progress`]. Every method has a default that ignores it.
pub trait Observer {
    /// Something happened.
    fn progress(&mut self, event: Progress<'_>) {
        let _ = event;
    }
}

/// Tells `observer` that this worker of `of` waits for `what` from `workers` (numbered from 1,
/// in any order and repeated: the worker of each missing game), `since` it began.
pub(crate) fn waiting(
    observer: &mut dyn Observer,
    workers: impl IntoIterator<Item = u64>,
    of: u64,
    what: &str,
    since: Duration,
) {
    let mut workers: Vec<u64> = workers.into_iter().collect();
    workers.sort_unstable();
    workers.dedup();
    observer.progress(Progress::Waiting {
        workers: &workers,
        of,
        what,
        since,
    });
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {}

impl<F: FnMut(Progress<'_>)> Observer for F {
    fn progress(&mut self, event: Progress<'_>) {
        self(event)
    }
}
