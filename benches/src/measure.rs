//! Wall-clock measurement for the report: repeated runs, median and spread.
//!
//! Criterion does the statistics for the benches; the report needs a few figures fast and
//! in one process (time to depth of whole searches, which run for seconds), so it times
//! repeated runs with [`Instant`] and takes the fastest (on a shared machine, load from
//! other processes only ever adds time).

use std::time::{Duration, Instant};

/// Times of repeated runs of one measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// Every run's time, in run order.
    pub runs: Vec<Duration>,
}

impl Timing {
    /// The median run (the lower middle one for an even count).
    ///
    /// ```
    /// use std::time::Duration;
    /// let t = benches::measure::Timing { runs: [3, 1, 2].map(Duration::from_millis).to_vec() };
    /// assert_eq!(t.median(), Duration::from_millis(2));
    /// ```
    pub fn median(&self) -> Duration {
        let mut v = self.runs.clone();
        v.sort();
        v.get((v.len().max(1) - 1) / 2).copied().unwrap_or_default()
    }

    /// The fastest run.
    pub fn min(&self) -> Duration {
        self.runs.iter().copied().min().unwrap_or_default()
    }

    /// The slowest run.
    pub fn max(&self) -> Duration {
        self.runs.iter().copied().max().unwrap_or_default()
    }

    /// The median in seconds.
    pub fn secs(&self) -> f64 {
        self.median().as_secs_f64()
    }
}

/// Runs `run` `runs` times (at least once), each on a fresh value from `setup`, timing only
/// `run`; returns the timings and every run's result.
pub fn measure<S, R>(
    runs: usize,
    mut setup: impl FnMut() -> S,
    mut run: impl FnMut(&mut S) -> R,
) -> (Timing, Vec<R>) {
    let mut times = Vec::new();
    let mut results = Vec::new();
    for _ in 0..runs.max(1) {
        let mut s = setup();
        let t = Instant::now();
        let r = run(&mut s);
        times.push(t.elapsed());
        results.push(r);
    }
    (Timing { runs: times }, results)
}

/// Like [`measure`], but stops early once `budget` of measured time is spent (after at
/// least `min_runs` runs), for measurements whose length is not known in advance.
pub fn measure_within<S, R>(
    min_runs: usize,
    max_runs: usize,
    budget: Duration,
    mut setup: impl FnMut() -> S,
    mut run: impl FnMut(&mut S) -> R,
) -> (Timing, Vec<R>) {
    let mut times = Vec::new();
    let mut results = Vec::new();
    let mut spent = Duration::ZERO;
    while times.len() < max_runs.max(1) && (times.len() < min_runs.max(1) || spent < budget) {
        let mut s = setup();
        let t = Instant::now();
        let r = run(&mut s);
        let e = t.elapsed();
        spent += e;
        times.push(e);
        results.push(r);
    }
    (Timing { runs: times }, results)
}

/// A duration for a table: `412 µs`, `37.2 ms`, `4.21 s`.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(benches::measure::fmt_duration(Duration::from_micros(37_240)), "37.2 ms");
/// ```
pub fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

/// A rate for a table with a metric prefix: `1.23 M/s`.
///
/// ```
/// assert_eq!(benches::measure::fmt_rate(1_234_567.0), "1.23 M/s");
/// ```
pub fn fmt_rate(per_sec: f64) -> String {
    if per_sec >= 1e9 {
        format!("{:.2} G/s", per_sec / 1e9)
    } else if per_sec >= 1e6 {
        format!("{:.2} M/s", per_sec / 1e6)
    } else if per_sec >= 1e3 {
        format!("{:.1} k/s", per_sec / 1e3)
    } else {
        format!("{per_sec:.0} /s")
    }
}
