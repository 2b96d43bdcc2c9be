//! Elo difference with a 95% interval from match scores.
//!
//! With `n` games scoring `x_i` in {0, ½, 1} for one side, the mean score `s` maps to an Elo
//! difference `-400 log10(1/s - 1)`; the interval maps `s ± 1.96 σ/√n` the same way, where `σ`
//! is the standard deviation of the per-game scores (the usual method of engine testers).
//! When every game ended alike (all won, all lost or all drawn) that deviation is 0 and says
//! nothing; the interval is then the Wilson score interval of the binomial proportion `s`,
//! which stays honest for 0% and 100% (for example 2 wins in 2 games: -113 .. +inf).

/// Elo difference and its 95% interval (`None` ends are infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// Point estimate; infinite for a score of 0% or 100%.
    pub diff: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// Elo difference for a mean score in [0, 1].
pub fn elo_of_score(s: f64) -> f64 {
    // Rounding leaves the ends of an interval a hair inside [0, 1].
    if s <= 1e-9 {
        f64::NEG_INFINITY
    } else if s >= 1.0 - 1e-9 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The Elo estimate of a side with `wins`, `draws`, `losses`; `None` for no games.
pub fn elo(wins: u32, draws: u32, losses: u32) -> Option<Elo> {
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
    let z = 1.96;
    let (low, high) = if var > 1e-12 {
        let margin = z * (var / n).sqrt();
        (s - margin, s + margin)
    } else {
        let z2n = z * z / n;
        let centre = (s + z2n / 2.0) / (1.0 + z2n);
        let half = z / (1.0 + z2n) * (s * (1.0 - s) / n + z2n / (4.0 * n)).sqrt();
        (centre - half, centre + half)
    };
    Some(Elo {
        diff: elo_of_score(s),
        low: elo_of_score(low),
        high: elo_of_score(high),
    })
}

/// A signed Elo figure: `+35`, `-120`, `+inf`.
pub fn show(e: f64) -> String {
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
        // No spread at all: the Wilson interval. 2 of 2 won: z²/n = 1.9208, centre
        // (1 + 0.9604) / 2.9208 = 0.6712, half width 1.96 / 2.9208 * sqrt(1.9208 / 8) = 0.3288:
        // [0.3424, 1.0], so the upper end is infinite and the lower end is elo(0.3424) = -113.
        let w = elo(2, 0, 0).unwrap();
        assert_eq!(w.high, f64::INFINITY);
        let w6 = elo(6, 0, 0).unwrap();
        assert_eq!(w6.high, f64::INFINITY);
        assert_eq!(elo(0, 0, 6).unwrap().low, f64::NEG_INFINITY);
        assert!((w.low - elo_of_score(0.3424)).abs() < 1.0, "{w:?}");
        assert!(w.low > -115.0 && w.low < -112.0, "{w:?}");
        let d = elo(0, 4, 0).unwrap();
        assert_eq!(d.diff, 0.0);
        assert!(
            d.low < -100.0 && d.high > 100.0 && (d.low + d.high).abs() < 1e-6,
            "{d:?}"
        );
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
