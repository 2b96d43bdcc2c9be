//! The effective speedup of threads, judged by games: the factor of thinking time that one
//! thread needs to score as well against one thread at the clock as `N` threads do.
//!
//! Two kinds of matches at one clock `T` give it (as engine testers measure the threads of a
//! chess engine): `N` threads at `T` against one thread at `T` (the threads' Elo), and one
//! thread at `k·T` against one thread at `T` for a few factors `k` (the time odds' Elo, which
//! grows with `log k`). The effective speedup is the `k` at which the time odds' Elo, a
//! line between the measured factors in `log k` (through 0 Elo at `k = 1`), equals the
//! threads' Elo. Its interval maps the threads' 95% interval through the time odds' lines
//! at their own interval ends, the lower end through the upper line and the upper end
//! through the lower line: both matches' uncertainty is in it. Beyond the largest factor
//! measured the last line is extended, and the result says so.
//!
//! ```
//! use plyforge_lab::elo::elo;
//! use plyforge_lab::speedup::{effective, TimeOdds};
//! // 2 threads scored as 1 thread at 1.9 times the time would, about.
//! let threads = elo(60, 80, 40).unwrap();
//! let odds = [
//!     TimeOdds { factor: 1.5, elo: elo(50, 90, 40).unwrap() },
//!     TimeOdds { factor: 2.0, elo: elo(62, 80, 38).unwrap() },
//! ];
//! let e = effective(&threads, &odds).unwrap();
//! assert!(e.factor > 1.5 && e.factor < 2.5 && !e.beyond);
//! assert!(e.low < e.factor && e.factor < e.high);
//! ```

use crate::elo::Elo;

/// One thread at `factor` times the clock against one thread at the clock: its Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeOdds {
    /// The factor of thinking time (above 1).
    pub factor: f64,
    /// The Elo of the longer thinking side, with its interval.
    pub elo: Elo,
}

/// The effective speedup and its 95% interval (factors of thinking time; the ends may be
/// 1, below which nothing is measured, or infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Effective {
    /// The factor whose time odds score as the threads do.
    pub factor: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
    /// Whether the factor lies beyond the largest factor measured (the last line extended).
    pub beyond: bool,
}

/// The effective speedup of threads whose Elo against one thread is `threads`, from the
/// time odds `odds` (any order; factors above 1); `None` without odds, or where the time
/// odds gained nothing (no line to read a factor from).
pub fn effective(threads: &Elo, odds: &[TimeOdds]) -> Option<Effective> {
    let mut odds: Vec<TimeOdds> = odds
        .iter()
        .copied()
        .filter(|o| o.factor > 1.0 && o.elo.diff.is_finite())
        .collect();
    if odds.is_empty() {
        return None;
    }
    odds.sort_by(|a, b| a.factor.total_cmp(&b.factor));
    let line = |pick: fn(&Elo) -> f64| -> Vec<(f64, f64)> {
        std::iter::once((0.0, 0.0))
            .chain(odds.iter().map(|o| (o.factor.ln(), pick(&o.elo))))
            .collect()
    };
    let (mid, low_line, high_line) = (line(|e| e.diff), line(|e| e.low), line(|e| e.high));
    let (factor, beyond) = solve(&mid, threads.diff)?;
    // The lower end: the threads' lower Elo reached soonest, on the upper line; the upper
    // end likewise.
    let low = solve(&high_line, threads.low).map_or(1.0, |(f, _)| f);
    let high = solve(&low_line, threads.high).map_or(f64::INFINITY, |(f, _)| f);
    Some(Effective {
        factor,
        low: low.min(factor),
        high: high.max(factor),
        beyond,
    })
}

/// The factor `e^x` at which the piecewise-linear `points` (`(ln k, Elo)`, from `(0, 0)`,
/// increasing `x`) first reach `elo`, and whether that is beyond the last point; 1 for an
/// Elo at most 0 there, `None` where the line never reaches it (a flat or falling end).
fn solve(points: &[(f64, f64)], elo: f64) -> Option<(f64, bool)> {
    if elo.is_nan() {
        return None;
    }
    if elo == f64::INFINITY {
        return None;
    }
    if elo <= 0.0 {
        return Some((1.0, false));
    }
    for w in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if y1 >= elo && y1 > y0 && y0 < elo {
            let x = x0 + (elo - y0) / (y1 - y0) * (x1 - x0);
            return Some((x.exp(), false));
        }
    }
    // Beyond the last point: the last segment that rises, extended.
    let rising = points.windows(2).rev().find(|w| w[1].1 > w[0].1)?;
    let ((x0, y0), (x1, y1)) = (rising[0], rising[1]);
    let (xl, yl) = *points.last()?;
    if yl >= elo {
        return None;
    }
    let slope = (y1 - y0) / (x1 - x0);
    Some(((xl + (elo - yl) / slope).exp(), true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(diff: f64, half: f64) -> Elo {
        Elo {
            diff,
            low: diff - half,
            high: diff + half,
        }
    }

    #[test]
    fn a_factor_between_the_odds_measured() {
        let odds = [
            TimeOdds {
                factor: 2.0,
                elo: e(100.0, 20.0),
            },
            TimeOdds {
                factor: 4.0,
                elo: e(180.0, 20.0),
            },
        ];
        // Halfway from 0 to 100 Elo in log k: the square root of 2.
        let r = effective(&e(50.0, 10.0), &odds).unwrap();
        assert!((r.factor - 2f64.sqrt()).abs() < 1e-9 && !r.beyond);
        // 40 Elo on the line through (ln 2, 120), 60 on the one through (ln 2, 80).
        assert!((r.low - 2f64.powf(40.0 / 120.0)).abs() < 1e-9);
        assert!((r.high - 2f64.powf(60.0 / 80.0)).abs() < 1e-9);
        // Between 2 and 4: 140 Elo is halfway, 2 × √2.
        let r = effective(&e(140.0, 0.0), &odds).unwrap();
        assert!((r.factor - 2.0 * 2f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn beyond_below_and_nothing_to_read() {
        let odds = [TimeOdds {
            factor: 2.0,
            elo: e(100.0, 30.0),
        }];
        // 200 Elo: the line doubled in log k, 4.
        let r = effective(&e(200.0, 10.0), &odds).unwrap();
        assert!((r.factor - 4.0).abs() < 1e-9 && r.beyond);
        // Threads no better than one thread: 1, however wide the interval.
        let r = effective(&e(-20.0, 30.0), &odds).unwrap();
        assert_eq!((r.factor, r.low), (1.0, 1.0));
        assert!(r.high > 1.0);
        // Time odds that gained nothing say nothing.
        let flat = [TimeOdds {
            factor: 2.0,
            elo: e(-5.0, 30.0),
        }];
        assert_eq!(effective(&e(50.0, 10.0), &flat), None);
        assert_eq!(effective(&e(50.0, 10.0), &[]), None);
        // An infinite upper end of the threads' interval: no upper end.
        let r = effective(
            &Elo {
                diff: 50.0,
                low: 20.0,
                high: f64::INFINITY,
            },
            &odds,
        )
        .unwrap();
        assert_eq!(r.high, f64::INFINITY);
    }
}
