//! SPSA (simultaneous perturbation stochastic approximation) as fishtest and OpenBench tune
//! chess engines: each iteration moves every parameter at once by ±c_k (a random sign per
//! parameter), plays the two points θ + c_kΔ and θ − c_kΔ against each other (or each
//! against a fixed opponent) from the same openings with the seats swapped, and steps θ
//! along Δ by the result.
//!
//! The schedule is OpenBench's: for a run of `N` iterations, each parameter has its
//! perturbation at the end `c_end` (its declared step) and its learning rate at the end
//! `r_end`, from which
//! - `c = c_end · N^γ`, `c_k = c / (k + 1)^γ`;
//! - `A = A_ratio · N`, `a = r_end · c_end² · (A + N)^α`, `a_k = a / (A + k + 1)^α`;
//! - after iteration `k` with result `r` (θ+'s score less θ−'s, per game pair: between −2
//!   and 2), `θ_i += a_k / c_k · r · Δ_i`, kept in the parameter's range.
//!
//! So at the end a win more per pair moves a parameter by `r_end · c_end`, and early steps
//! are larger (α = 0.602, γ = 0.101, A_ratio = 0.1 as Spall recommends).
//!
//! Everything here is a pure function of the plan, the seed and the results: one run,
//! a resumed run and the workers of a cluster compute the same θ from the same results.

use plyforge::search::rng::XorShift64Star as Rng;

/// Spall's α: how fast the learning rate falls.
pub const ALPHA: f64 = 0.602;
/// Spall's γ: how fast the perturbation falls.
pub const GAMMA: f64 = 0.101;
/// A as a fraction of the iterations (the learning rate's delay).
pub const A_RATIO: f64 = 0.1;
/// The learning rate at the end, per parameter unless given: a win more per pair then moves
/// a parameter by this fraction of its step. Larger than fishtest's 0.002, which is made for
/// runs of tens of thousands of pairs; runs here are hundreds to thousands.
pub const R_END: f64 = 0.02;

/// One parameter's part of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamPlan {
    /// The parameter's name.
    pub name: String,
    /// The value at the start.
    pub start: f64,
    /// The smallest value allowed.
    pub min: f64,
    /// The largest value allowed.
    pub max: f64,
    /// The perturbation at the end.
    pub c_end: f64,
    /// The learning rate at the end.
    pub r_end: f64,
    /// Whole numbers only (values are rounded where they are played).
    pub integer: bool,
}

/// The schedule's constants of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Iterations in the run (N).
    pub iterations: u64,
    /// α.
    pub alpha: f64,
    /// γ.
    pub gamma: f64,
    /// A as a fraction of N.
    pub a_ratio: f64,
}

impl Schedule {
    /// N iterations with Spall's constants.
    pub fn new(iterations: u64) -> Schedule {
        Schedule {
            iterations,
            alpha: ALPHA,
            gamma: GAMMA,
            a_ratio: A_RATIO,
        }
    }

    /// A (the delay of the learning rate).
    pub fn big_a(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }

    /// The constant `c` of a parameter.
    pub fn c(&self, p: &ParamPlan) -> f64 {
        p.c_end * (self.iterations as f64).powf(self.gamma)
    }

    /// The constant `a` of a parameter.
    pub fn a(&self, p: &ParamPlan) -> f64 {
        p.r_end * p.c_end * p.c_end * (self.big_a() + self.iterations as f64).powf(self.alpha)
    }

    /// The perturbation of a parameter at iteration `k` (from 0).
    pub fn c_k(&self, p: &ParamPlan, k: u64) -> f64 {
        self.c(p) / ((k + 1) as f64).powf(self.gamma)
    }

    /// The learning rate `a_k` of a parameter at iteration `k` (from 0).
    pub fn a_k(&self, p: &ParamPlan, k: u64) -> f64 {
        self.a(p) / (self.big_a() + (k + 1) as f64).powf(self.alpha)
    }
}

/// The two points one iteration plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Points {
    /// The signs (+1 or −1), one per parameter.
    pub delta: Vec<f64>,
    /// θ + c_kΔ, in range (not rounded).
    pub plus: Vec<f64>,
    /// θ − c_kΔ, in range (not rounded).
    pub minus: Vec<f64>,
}

/// A run's state: θ after the iterations done so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters.
    pub params: Vec<ParamPlan>,
    /// The schedule.
    pub schedule: Schedule,
    /// The seed of the signs.
    pub seed: u64,
    /// θ now.
    pub theta: Vec<f64>,
    /// Iterations done.
    pub done: u64,
    /// θ after each iteration (the first entry is the start).
    pub path: Vec<Vec<f64>>,
}

impl Spsa {
    /// A run at its start.
    pub fn new(params: Vec<ParamPlan>, schedule: Schedule, seed: u64) -> Spsa {
        let theta: Vec<f64> = params.iter().map(|p| p.start).collect();
        Spsa {
            params,
            schedule,
            seed,
            path: vec![theta.clone()],
            theta,
            done: 0,
        }
    }

    /// True when every iteration is done.
    pub fn finished(&self) -> bool {
        self.done >= self.schedule.iterations
    }

    /// The signs of iteration `k`: a function of the seed and `k` alone.
    fn delta(&self, k: u64) -> Vec<f64> {
        let mut rng = Rng::seeded(
            self.seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(k.wrapping_mul(0xD1B5_4A32_D192_ED03))
                ^ 0x5EED,
        );
        self.params
            .iter()
            .map(|_| if rng.below(2) == 0 { 1.0 } else { -1.0 })
            .collect()
    }

    /// The points of the next iteration.
    pub fn points(&self) -> Points {
        let k = self.done;
        let delta = self.delta(k);
        let mut plus = Vec::new();
        let mut minus = Vec::new();
        for (i, p) in self.params.iter().enumerate() {
            let step = self.schedule.c_k(p, k) * delta[i];
            plus.push((self.theta[i] + step).clamp(p.min, p.max));
            minus.push((self.theta[i] - step).clamp(p.min, p.max));
        }
        Points { delta, plus, minus }
    }

    /// Ends the next iteration with its result: θ+'s score less θ−'s per game pair (from −2
    /// to 2).
    pub fn update(&mut self, result: f64) {
        let k = self.done;
        let delta = self.delta(k);
        for (i, p) in self.params.iter().enumerate() {
            let gain = self.schedule.a_k(p, k) / self.schedule.c_k(p, k);
            self.theta[i] = (self.theta[i] + gain * result * delta[i]).clamp(p.min, p.max);
        }
        self.done += 1;
        self.path.push(self.theta.clone());
    }

    /// θ as played: whole-number parameters rounded.
    pub fn rounded(values: &[f64], params: &[ParamPlan]) -> Vec<f64> {
        values
            .iter()
            .zip(params)
            .map(|(&v, p)| if p.integer { v.round() } else { v })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(name: &str, start: f64, c_end: f64) -> ParamPlan {
        ParamPlan {
            name: name.to_string(),
            start,
            min: -1000.0,
            max: 1000.0,
            c_end,
            r_end: R_END,
            integer: false,
        }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let s = Schedule::new(1000);
        let p = plan("x", 0.0, 10.0);
        let last = s.iterations - 1;
        assert!((s.c_k(&p, last) - 10.0).abs() < 0.01, "{}", s.c_k(&p, last));
        let r = s.a_k(&p, last) / s.c_k(&p, last).powi(2);
        assert!((r - R_END).abs() < R_END * 0.01, "{r}");
        // Early steps are larger.
        assert!(s.c_k(&p, 0) > 1.9 * s.c_k(&p, last));
        assert!(s.a_k(&p, 0) > 4.0 * s.a_k(&p, last));
    }

    #[test]
    fn signs_are_a_function_of_seed_and_iteration() {
        let params = vec![
            plan("a", 0.0, 1.0),
            plan("b", 0.0, 1.0),
            plan("c", 0.0, 1.0),
        ];
        let s = Spsa::new(params.clone(), Schedule::new(100), 7);
        let t = Spsa::new(params, Schedule::new(100), 7);
        for k in 0..50 {
            assert_eq!(s.delta(k), t.delta(k));
            assert!(s.delta(k).iter().all(|&d| d == 1.0 || d == -1.0));
        }
        // Both signs occur for each parameter.
        for i in 0..3 {
            let plus = (0..50).filter(|&k| s.delta(k)[i] > 0.0).count();
            assert!((10..40).contains(&plus), "{i}: {plus}");
        }
    }

    /// A noisy match between two points: the Elo of a point is `−5 · Σ ((θ − opt) / c)²`
    /// (5 Elo lost for one step off the optimum, 80 for four), each game won, lost or drawn
    /// at random by the logistic of the difference.
    fn play_pair(rng: &mut Rng, plus: &[f64], minus: &[f64], opt: &[f64], c: &[f64]) -> f64 {
        let elo = |x: &[f64]| -> f64 {
            -5.0 * x
                .iter()
                .zip(opt)
                .zip(c)
                .map(|((x, o), c)| ((x - o) / c).powi(2))
                .sum::<f64>()
        };
        let d = elo(plus) - elo(minus);
        let expected = 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let draw = 0.3;
        let mut result = 0.0;
        for _ in 0..2 {
            let u = rng.below(1_000_000) as f64 / 1e6;
            let win = expected * (1.0 - draw);
            let loss = (1.0 - expected) * (1.0 - draw);
            if u < win {
                result += 1.0;
            } else if u < win + loss {
                result -= 1.0;
            }
        }
        result
    }

    #[test]
    fn spsa_finds_the_optimum_of_a_noisy_objective() {
        // Three parameters of different scales, each starting four steps off its optimum.
        let c = [10.0, 1.0, 0.05];
        let opt = [120.0, -3.0, 0.4];
        let start = [80.0, 1.0, 0.2];
        let mut worst: f64 = 0.0;
        for seed in 1..=4u64 {
            let params: Vec<ParamPlan> = (0..3)
                .map(|i| plan(&format!("p{i}"), start[i], c[i]))
                .collect();
            let mut s = Spsa::new(params, Schedule::new(1500), seed);
            let mut rng = Rng::seeded(seed * 31 + 1);
            while !s.finished() {
                let pts = s.points();
                let r = play_pair(&mut rng, &pts.plus, &pts.minus, &opt, &c);
                s.update(r);
            }
            for i in 0..3 {
                let off = (s.theta[i] - opt[i]).abs() / c[i];
                worst = worst.max(off);
                let was = (start[i] - opt[i]).abs() / c[i];
                assert!(
                    off < 1.5,
                    "seed {seed}: p{i} ended at {} ({off:.2} steps from {}, started {was} off)",
                    s.theta[i],
                    opt[i]
                );
            }
            assert_eq!(s.path.len(), 1501);
        }
        assert!(worst > 0.0);
    }

    #[test]
    fn values_stay_in_range() {
        let mut p = plan("x", 0.0, 5.0);
        p.min = 0.0;
        p.max = 3.0;
        let mut s = Spsa::new(vec![p], Schedule::new(10), 1);
        for _ in 0..10 {
            let pts = s.points();
            assert!((0.0..=3.0).contains(&pts.plus[0]) && (0.0..=3.0).contains(&pts.minus[0]));
            s.update(2.0);
            assert!((0.0..=3.0).contains(&s.theta[0]));
        }
    }
}
