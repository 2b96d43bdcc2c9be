//! Softmax (multinomial logistic) regression for fitting the evaluation of a three-player
//! game to who won: each sample holds the features of every player and the winner; the model
//! gives each player the logit `w · x` and the winner the probability `softmax` of them.
//! Fitted by Adam on the mean log loss (`examples/chexers_fit.rs` uses it).
//!
//! ```
//! use benches::softmax::{fit, log_loss, Sample};
//! // One feature: exits made. The player with more exits wins more often.
//! let data: Vec<Sample<1>> = (0..300)
//!     .map(|i| Sample { x: [[(i % 3) as f64], [1.0], [0.0]], winner: if i % 3 == 2 { 0 } else { 1 } })
//!     .collect();
//! let w = fit(&data, 500);
//! assert!(w[0] > 0.0);
//! assert!(log_loss(&data, &w) < (3.0f64).ln());
//! ```

/// One labelled position: the features of each of the three players and the winner's index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample<const F: usize> {
    /// Each player's features.
    pub x: [[f64; F]; 3],
    /// The index of the player who won.
    pub winner: usize,
}

/// The probabilities of three logits.
pub fn softmax(z: [f64; 3]) -> [f64; 3] {
    let m = z[0].max(z[1]).max(z[2]);
    let e = z.map(|v| (v - m).exp());
    let s = e[0] + e[1] + e[2];
    e.map(|v| v / s)
}

fn dot<const F: usize>(w: &[f64; F], x: &[f64; F]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// The logits of a sample under the weights `w`.
pub fn logits<const F: usize>(s: &Sample<F>, w: &[f64; F]) -> [f64; 3] {
    [0, 1, 2].map(|q| dot(w, &s.x[q]))
}

/// The mean log loss (natural logarithm) over `data` of a model that `predict`s each item's
/// three logits and names its winner: `ln 3` for a model that knows nothing, 0 for no data.
pub fn mean_log_loss<T>(data: &[T], predict: impl Fn(&T) -> ([f64; 3], usize)) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let total: f64 = data
        .iter()
        .map(|item| {
            let (logits, winner) = predict(item);
            -softmax(logits)[winner].max(1e-12).ln()
        })
        .sum();
    total / data.len() as f64
}

/// The mean log loss of the weights `w` over `data`.
pub fn log_loss<const F: usize>(data: &[Sample<F>], w: &[f64; F]) -> f64 {
    mean_log_loss(data, |s| (logits(s, w), s.winner))
}

/// Weights (per unit of each feature) that minimise the mean log loss over `data`, with a
/// little L2 regularisation, after `steps` steps of Adam on features scaled to unit
/// variance. Deterministic.
pub fn fit<const F: usize>(data: &[Sample<F>], steps: u32) -> [f64; F] {
    let n = (data.len() * 3).max(1) as f64;
    let mut sd = [1.0f64; F];
    for (k, sd) in sd.iter_mut().enumerate() {
        let mean: f64 = data
            .iter()
            .flat_map(|s| s.x.iter())
            .map(|x| x[k])
            .sum::<f64>()
            / n;
        let var: f64 = data
            .iter()
            .flat_map(|s| s.x.iter())
            .map(|x| (x[k] - mean).powi(2))
            .sum::<f64>()
            / n;
        *sd = var.sqrt().max(1e-9);
    }
    let xs: Vec<[[f64; F]; 3]> = data
        .iter()
        .map(|s| s.x.map(|x| std::array::from_fn(|k| x[k] / sd[k])))
        .collect();
    let mut w = [0.0f64; F];
    let (mut m1, mut m2) = ([0.0f64; F], [0.0f64; F]);
    let (b1, b2, lr, l2): (f64, f64, f64, f64) = (0.9, 0.999, 0.02, 1e-4);
    for step in 1..=steps as i32 {
        let mut g = [0.0f64; F];
        for (s, x) in data.iter().zip(&xs) {
            let p = softmax([dot(&w, &x[0]), dot(&w, &x[1]), dot(&w, &x[2])]);
            for (q, xq) in x.iter().enumerate() {
                let e = p[q] - (q == s.winner) as i32 as f64;
                for k in 0..F {
                    g[k] += e * xq[k];
                }
            }
        }
        for k in 0..F {
            let gk = g[k] / data.len().max(1) as f64 + l2 * w[k];
            m1[k] = b1 * m1[k] + (1.0 - b1) * gk;
            m2[k] = b2 * m2[k] + (1.0 - b2) * gk * gk;
            let mh = m1[k] / (1.0 - b1.powi(step));
            let vh = m2[k] / (1.0 - b2.powi(step));
            w[k] -= lr * mh / (vh.sqrt() + 1e-8);
        }
    }
    std::array::from_fn(|k| w[k] / sd[k])
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyforge::search::rng::XorShift64Star;

    /// Samples drawn from a known model: the fit finds its weights again.
    #[test]
    fn the_fit_recovers_the_weights_of_the_model_that_drew_the_winners() {
        let truth = [-0.4, 1.5, 0.0];
        let mut rng = XorShift64Star::seeded(7);
        let mut uniform = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let data: Vec<Sample<3>> = (0..20_000)
            .map(|_| {
                let x: [[f64; 3]; 3] =
                    std::array::from_fn(|_| [uniform() * 10.0, uniform() * 3.0, uniform()]);
                let p = softmax([0, 1, 2].map(|q| dot(&truth, &x[q])));
                let u = uniform();
                let winner = if u < p[0] {
                    0
                } else if u < p[0] + p[1] {
                    1
                } else {
                    2
                };
                Sample { x, winner }
            })
            .collect();
        let w = fit(&data, 1500);
        for k in 0..3 {
            assert!((w[k] - truth[k]).abs() < 0.1, "{w:?} against {truth:?}");
        }
        // The truth's loss is the best there is; the fit comes within a hair of it and
        // well below knowing nothing.
        let best = log_loss(&data, &truth);
        assert!(log_loss(&data, &w) < best + 0.002, "{w:?}");
        assert!(best < (3.0f64).ln() - 0.2);
    }

    #[test]
    fn probabilities_sum_to_one_and_follow_the_logits() {
        let p = softmax([1000.0, 0.0, -1000.0]);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(p[0] > 0.999);
        let q = softmax([0.5, 0.5, 0.5]);
        assert!(q.iter().all(|v| (v - 1.0 / 3.0).abs() < 1e-12));
    }
}
