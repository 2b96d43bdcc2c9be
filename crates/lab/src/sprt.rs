//! The sequential probability ratio test on game pairs, as fishtest computes it: the
//! pentanomial model and normalised Elo.
//!
//! # Pairs and the pentanomial
//!
//! A two-player match is played in pairs: two games from one opening with the seats swapped.
//! Engine 1 (the candidate) scores 0, ½ or 1 in each game, so 0, ½, 1, 3/2 or 2 in a pair;
//! the five counts `n_0 … n_4` of pairs with those scores (LL, LD, DD or WL, WD, WW) are the
//! *pentanomial*. Pairs, not games, are the independent samples: the two games of a pair
//! share an opening and their results are correlated, which the trinomial model (games as
//! independent wins, draws and losses) ignores, overstating the variance.
//!
//! Each outcome `i` of a pair is given its per-game score `a_i = i/4` (the mean of the
//! pair's two games). With `N` pairs and the empirical distribution `p̂_i = n_i / N`:
//!
//! - mean score per game `μ = Σ p̂_i a_i`, variance of a pair's mean `v = Σ p̂_i (a_i − μ)²`,
//!   standard deviation per game `σ_pg = √(2v)` (a pair is two games);
//! - logistic Elo `E = −400 log10(1/μ − 1)`, with the 95% interval mapping `μ ± 1.96 √(v/N)`
//!   the same way;
//! - normalised Elo `nElo = (μ − ½) / σ_pg · 800 / ln 10`, with the 95% interval
//!   `± 1.96 · (800 / ln 10) / √(2N)`. Normalised Elo measures a difference in units of the
//!   match's own noise: the number of games a test needs to detect it depends on it alone,
//!   whatever the draw rate (fishtest's and fastchess's definition);
//! - the likelihood of superiority `LOS = Φ((μ − ½) / √(v/N))`.
//!
//! # The test
//!
//! The hypotheses H0: `nElo = ELO0` and H1: `nElo = ELO1` are statements about the t-value
//! of a pair's mean score, `t = (μ − ½) / √v = √2 · nElo · ln 10 / 800`. The generalised
//! log-likelihood ratio is
//!
//! ```text
//! LLR = N · Σ_i p̂_i · ln(p1_i / p0_i)
//! ```
//!
//! where `p0` (`p1`) is the distribution on the five outcomes of largest likelihood for the
//! observed counts among those whose t-value is `t0` (`t1`). That maximum is found as in
//! fishtest (`LLRcalc.MLE_t_value`, after H. G. van den Bergh, *Normalized Elo: practical
//! considerations*, §4.1): start from the uniform distribution `p`; with its mean `μ_p` and
//! deviation `σ_p` set
//!
//! ```text
//! b_i = a_i − ½ − t σ_p (1 + ((μ_p − a_i) / σ_p)²) / 2,
//! ```
//!
//! solve `Σ p̂_i b_i / (1 + x b_i) = 0` for `x` in `(−1 / max b, −1 / min b)` (the left side
//! falls monotonically there, so bisection finds the root), set `p_i = p̂_i / (1 + x b_i)`,
//! and repeat until `p` moves by less than 1e-9 (at most ten times).
//!
//! Counts of zero are replaced by 0.001 before the test (fishtest's regularisation): the
//! maximum-likelihood step needs every outcome possible. The estimates of the table (Elo,
//! nElo, LOS) use the counts as they are, as fastchess prints them.
//!
//! The test stops when `LLR ≥ ln((1 − β) / α)` (H1 accepted: the candidate is at least
//! `ELO1` better) or `LLR ≤ ln(β / (1 − α))` (H0 accepted), where `α` is the chance of
//! accepting H1 when H0 holds and `β` of accepting H0 when H1 holds. Before its first pair
//! the LLR is 0.
//!
//! # Three players
//!
//! Chexers has no SPRT: a game of three has no pairs with swapped colours (an opening's six
//! seat orders are one sample of three correlated results, and with two specifications one
//! of them sits in two seats), there is no single Elo difference whose sign decides "better"
//! when three players share a result, and the pentanomial model and its normalised Elo are
//! defined for a two-sided score only. Three-player matches report wins, draws, places and
//! a ranking instead.

/// Normalised Elo per unit of normalised t-value: `800 / ln 10` (fishtest's
/// `nelo_divided_by_nt`).
pub const NELO_PER_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// What a zero count becomes in the test (fishtest's regularisation).
const ZERO_COUNT: f64 = 1e-3;

/// The quantile of the normal law for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Counts of game pairs by the candidate's score in the pair: 0, ½, 1, 3/2, 2.
pub type Pentanomial = [u64; 5];

/// The settings of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0, in normalised Elo.
    pub elo0: f64,
    /// H1, in normalised Elo.
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H0 accepted: the candidate is not `ELO1` better.
    H0,
    /// H1 accepted: the candidate is better by `ELO1` or more.
    H1,
    /// Neither bound crossed.
    Continue,
}

impl Sprt {
    /// Checks the settings; the error names the bad one.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !elo0.is_finite() || !elo1.is_finite() {
            return Err("--sprt: ELO0 and ELO1 must be numbers".to_string());
        }
        if elo0 >= elo1 {
            return Err(format!("--sprt {elo0} {elo1}: ELO0 must be below ELO1"));
        }
        for (name, v) in [("--alpha", alpha), ("--beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("{name} {v}: between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower bound `ln(β / (1 − α))`.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound `ln((1 − β) / α)`.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of these counts (0 before the first pair).
    pub fn llr(&self, counts: &Pentanomial) -> f64 {
        llr_normalized(self.elo0, self.elo1, counts)
    }

    /// The verdict for a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper() {
            Verdict::H1
        } else if llr <= self.lower() {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The pair outcomes' per-game scores `a_i = i/4`.
const A: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Mean and variance of a distribution over the five outcomes.
fn moments(p: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = p.iter().zip(A).map(|(p, a)| p * a).sum();
    let var: f64 = p.iter().zip(A).map(|(p, a)| p * (a - mean).powi(2)).sum();
    (mean, var)
}

/// The regularised empirical distribution and its number of pairs.
fn regularised(counts: &Pentanomial) -> (f64, [f64; 5]) {
    let c = counts.map(|n| if n == 0 { ZERO_COUNT } else { n as f64 });
    let n: f64 = c.iter().sum();
    (n, c.map(|x| x / n))
}

/// The root of `Σ p̂_i b_i / (1 + x b_i) = 0` in `(−1 / max b, −1 / min b)`, or `None` when
/// the `b_i` do not have both signs (no distribution meets the constraint).
fn secular(phat: &[f64; 5], b: &[f64; 5]) -> Option<f64> {
    let lo_b = b.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi_b = b.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_b < 0.0 && hi_b > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 { phat.iter().zip(b).map(|(p, b)| p * b / (1.0 + x * b)).sum() };
    // f falls from +inf at -1/hi_b to -inf at -1/lo_b.
    let eps = 1e-12;
    let (mut lo, mut hi) = (-1.0 / hi_b + eps, -1.0 / lo_b - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-15 * mid.abs().max(1.0) {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The distribution of largest likelihood for the empirical `phat` among those whose
/// t-value `(μ − ½) / σ` is `t` (see the module docs).
fn mle_t_value(phat: &[f64; 5], t: f64) -> Option<[f64; 5]> {
    let mut p = [0.2; 5];
    for _ in 0..10 {
        let before = p;
        let (mu, var) = moments(&p);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let b: [f64; 5] = std::array::from_fn(|i| {
            A[i] - 0.5 - t * sigma * (1.0 + ((mu - A[i]) / sigma).powi(2)) / 2.0
        });
        let x = secular(phat, &b)?;
        p = std::array::from_fn(|i| phat[i] / (1.0 + x * b[i]));
        if p.iter().zip(before).all(|(a, b)| (a - b).abs() < 1e-9) {
            break;
        }
    }
    Some(p)
}

/// The per-outcome jumps `ln(p1_i / p0_i)` of the test of `nelo0` against `nelo1`: what the
/// LLR gains per pair with outcome `i`. `None` when a constrained maximum does not exist.
pub fn llr_jumps(nelo0: f64, nelo1: f64, counts: &Pentanomial) -> Option<[f64; 5]> {
    let (_, phat) = regularised(counts);
    let t0 = nelo0 / NELO_PER_NT * std::f64::consts::SQRT_2;
    let t1 = nelo1 / NELO_PER_NT * std::f64::consts::SQRT_2;
    let p0 = mle_t_value(&phat, t0)?;
    let p1 = mle_t_value(&phat, t1)?;
    Some(std::array::from_fn(|i| p1[i].ln() - p0[i].ln()))
}

/// The generalised log-likelihood ratio of H1 `nElo = nelo1` against H0 `nElo = nelo0` for
/// these pair counts (fishtest's `LLR_normalized` on a pentanomial); 0 with no pairs.
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &Pentanomial) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let (n, phat) = regularised(counts);
    match llr_jumps(nelo0, nelo1, counts) {
        Some(j) => n * phat.iter().zip(j).map(|(p, j)| p * j).sum::<f64>(),
        None => 0.0,
    }
}

/// Estimates from pair counts (unregularised): see the module docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Pairs.
    pub pairs: u64,
    /// Mean score per game of the candidate.
    pub score: f64,
    /// Logistic Elo (infinite for a score of 0 or 1).
    pub elo: f64,
    /// Half the width of its 95% interval (`None` when the pairs do not vary).
    pub elo95: Option<f64>,
    /// Normalised Elo (`None` when the pairs do not vary).
    pub nelo: Option<f64>,
    /// Half the width of its 95% interval.
    pub nelo95: f64,
    /// Likelihood of superiority (`None` when the pairs do not vary).
    pub los: Option<f64>,
}

/// Logistic Elo of a mean score, the score kept within [0.001, 0.999] (as fishtest does).
pub fn logistic_elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The estimates of these counts; `None` with no pairs.
pub fn estimate(counts: &Pentanomial) -> Option<Estimate> {
    let pairs: u64 = counts.iter().sum();
    if pairs == 0 {
        return None;
    }
    let n = pairs as f64;
    let p = counts.map(|c| c as f64 / n);
    let (mu, var) = moments(&p);
    let varies = var > 1e-15;
    let se = (var / n).sqrt();
    Some(Estimate {
        pairs,
        score: mu,
        elo: crate::elo::elo_of_score(mu),
        elo95: varies.then(|| (logistic_elo(mu + Z95 * se) - logistic_elo(mu - Z95 * se)) / 2.0),
        nelo: varies.then(|| (mu - 0.5) / (2.0 * var).sqrt() * NELO_PER_NT),
        nelo95: Z95 * NELO_PER_NT / (2.0 * n).sqrt(),
        los: varies.then(|| normal_cdf((mu - 0.5) / se)),
    })
}

/// The standard normal distribution function, from the complementary error function of
/// W. J. Cody's rational approximation as given by Numerical Recipes (`erfcc`, relative
/// error below 1.2e-7).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// A fishtest statistics page (the "Raw Statistics" of a test on a fishtest server,
    /// computed by fishtest's `LLRcalc`): pentanomial [13, 37, 50, 25, 3], SPRT bounds 0 and 4
    /// normalised Elo. The page shows: expected value 0.43750, variance 0.05762,
    /// stdev/game 0.33946, normalised Elo −63.97, Elo −43.6578, and LLR (normalised, exact)
    /// −0.54912 within [−2.9444, 2.9444]. (Its "LLR jumps" are those of the logistic model,
    /// whose LLR it gives as −0.53772: not the model used here.)
    #[test]
    fn a_fishtest_statistics_page() {
        let counts = [13, 37, 50, 25, 3];
        let s = Sprt::new(0.0, 4.0, 0.05, 0.05).unwrap();
        let llr = s.llr(&counts);
        assert!(close(llr, -0.54912, 5e-6), "{llr}");
        assert!(close(s.lower(), -2.9444, 5e-5) && close(s.upper(), 2.9444, 5e-5));
        assert_eq!(s.verdict(llr), Verdict::Continue);
        // The LLR is N times the mean jump.
        let jumps = llr_jumps(0.0, 4.0, &counts).unwrap();
        let mean: f64 = counts.iter().zip(jumps).map(|(&n, j)| n as f64 * j).sum();
        assert!(close(mean, llr, 1e-9), "{jumps:?}");
        let e = estimate(&counts).unwrap();
        assert_eq!(e.pairs, 128);
        assert!(close(e.score, 0.4375, 1e-12));
        assert!(close(e.elo, -43.6578, 5e-5), "{e:?}");
        assert!(close(e.nelo.unwrap(), -63.97, 5e-3), "{e:?}");
        let (_, var) = moments(&counts.map(|c| c as f64 / 128.0));
        assert!(close(var, 0.05762, 5e-6) && close((2.0 * var).sqrt(), 0.33946, 5e-6));
    }

    /// The samples of fishtest's `stat_util` self-test, with the values its
    /// `LLRcalc.LLR_normalized` gives them (as reproduced, to 1e-12, by independent ports).
    #[test]
    fn fishtest_self_test_samples() {
        let big = [39, 2226, 31451, 2412, 40];
        assert!(close(
            llr_normalized(0.764, 3.439, &big),
            2.162_940_869_584,
            1e-8
        ));
        let long = [10789, 19328, 33806, 19402, 10543];
        assert!(close(
            llr_normalized(-3.0, 1.0, &long),
            0.300_869_785_5,
            1e-8
        ));
    }

    /// fastchess prints, for the pentanomial [0, 0, 2, 0, 37] (78 games, 76 won, 2 lost):
    /// `Elo: 631.91 +/- nan, nElo: 1056.68 +/- 77.10`.
    #[test]
    fn a_fastchess_report() {
        let e = estimate(&[0, 0, 2, 0, 37]).unwrap();
        assert!(close(e.elo, 631.91, 5e-3), "{e:?}");
        assert!(close(e.nelo.unwrap(), 1056.68, 5e-3), "{e:?}");
        assert!(close(e.nelo95, 77.10, 5e-3), "{e:?}");
    }

    #[test]
    fn the_llr_has_the_sign_of_the_evidence_and_crosses_its_bounds() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert_eq!(s.llr(&[0; 5]), 0.0);
        // Equal results favour H0, a clear edge H1; more of the same moves further.
        let even = [100, 400, 1000, 400, 100];
        let good = [60, 350, 1000, 450, 140];
        assert!(s.llr(&even) < 0.0);
        assert!(s.llr(&good) > 0.0);
        let twice = good.map(|c| c * 2);
        assert!(close(s.llr(&twice), 2.0 * s.llr(&good), 1e-9));
        assert_eq!(s.verdict(s.llr(&twice.map(|c| c * 10))), Verdict::H1);
        assert_eq!(s.verdict(s.llr(&even.map(|c| c * 10))), Verdict::H0);
        // Symmetry: mirrored counts and mirrored hypotheses give the same LLR.
        let mirrored = [good[4], good[3], good[2], good[1], good[0]];
        assert!(close(
            llr_normalized(0.0, -5.0, &mirrored),
            llr_normalized(0.0, 5.0, &good),
            1e-9
        ));
    }

    #[test]
    fn bad_settings_are_refused() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7).is_err());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
    }

    #[test]
    fn normal_cdf_values() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(1.959_964), 0.975, 1e-6));
        assert!(close(normal_cdf(-1.0), 0.158_655_25, 1e-6));
    }
}
