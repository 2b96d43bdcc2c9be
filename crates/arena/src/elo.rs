//! Elo difference with a 95% interval from match scores.
//!
//! With `n` games scoring `x_i` in {0, ½, 1} for one side, the mean score `s` maps to an Elo
//! difference `-400 log10(1/s - 1)`; the interval maps `s ± 1.96 σ/√n` the same way, where `σ`
//! is the standard deviation of the per-game scores (the usual method of engine testers).

/// Elo difference and its 95% interval (`None` ends are infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Elo {
    /// Point estimate; infinite for a score of 0% or 100%.
    pub diff: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// Elo difference for a mean score in [0, 1].
pub(crate) fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The Elo estimate of a side with `wins`, `draws`, `losses`; `None` for no games.
pub(crate) fn elo(wins: u32, draws: u32, losses: u32) -> Option<Elo> {
    let n = f64::from(wins + draws + losses);
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (
        f64::from(wins) / n,
        f64::from(draws) / n,
        f64::from(losses) / n,
    );
    let s = w + d / 2.0;
    let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
    let margin = 1.96 * (var / n).sqrt();
    Some(Elo {
        diff: elo_of_score(s),
        low: elo_of_score(s - margin),
        high: elo_of_score(s + margin),
    })
}

/// A signed Elo figure: `+35`, `-120`, `+inf`.
pub(crate) fn show(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if e.round() == 0.0 {
        "0".to_string()
    } else {
        format!("{:+.0}", e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // 75% is +190.8 Elo, 50% is 0, 100% is infinite.
        let e = elo(3, 0, 1).unwrap();
        assert!((e.diff - 190.85).abs() < 0.1, "{e:?}");
        assert!(e.low < e.diff && e.diff < e.high);
        assert_eq!(elo(2, 2, 2).unwrap().diff, 0.0);
        assert_eq!(elo(5, 0, 0).unwrap().diff, f64::INFINITY);
        // No spread at all (every game drawn): the interval collapses.
        let d = elo(0, 4, 0).unwrap();
        assert_eq!((d.low, d.high), (0.0, 0.0));
        assert!(elo(0, 0, 0).is_none());
        assert_eq!(show(f64::NEG_INFINITY), "-inf");
        assert_eq!(show(12.4), "+12");
        assert_eq!(show(-0.0), "0");
        assert_eq!(show(-7.0), "-7");
    }

    #[test]
    fn interval_by_hand() {
        // 10 games, 6 wins 4 losses: s = .6, var = .24, se = .1549, margin = .3036.
        let e = elo(6, 0, 4).unwrap();
        assert!((e.low - elo_of_score(0.6 - 0.30364)).abs() < 0.5);
        assert!((e.high - elo_of_score(0.6 + 0.30364)).abs() < 0.5);
    }
}
