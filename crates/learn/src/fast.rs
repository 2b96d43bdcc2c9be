//! Inference for a search: the first layer kept up to date from the inputs that changed
//! since the last evaluation (NNUE's accumulator, without any knowledge of the game).
//!
//! A search evaluates positions one after another that differ in a few inputs (siblings, a
//! move and its reply), while a dense first layer costs a row of weights per non-zero input.
//! [`FastNet`] keeps, per [`Accumulator`], the last input and the first layer's sums, and
//! adds the rows of the inputs that changed, times their change.
//!
//! The sums are **exact integers**: each input's share is `w · 2²⁰` rounded per hidden unit
//! (times `x` rounded to 2⁻¹⁶ steps, for an input other than 0 and 1), so the sums after any
//! sequence of updates equal the sums computed afresh, and an evaluation is a function of its
//! input alone (whatever was evaluated before, on whatever thread), which a search's tests of
//! equality need. The result differs from [`Net::forward`]'s float sums by at most about
//! 10⁻⁶ per input of the first layer (and the weight times 10⁻⁵ for an input other than 0
//! and 1).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::net::Net;

/// Fixed-point units per unit of a first-layer weight.
const SCALE: f64 = (1u64 << 20) as f64;

/// Fixed-point bits of an input other than 0 and 1.
const X_BITS: u32 = 16;
/// Fixed-point units per unit of such an input.
const X_SCALE: f64 = (1u64 << X_BITS) as f64;

/// A network prepared for incremental evaluation.
#[derive(Clone, Debug)]
pub struct FastNet {
    net: Arc<Net>,
    /// The first layer's weights in fixed point, input-major.
    q: Vec<i32>,
    /// Its biases in fixed point.
    bias: Vec<i64>,
    /// A number no other `FastNet` of the process has (an address could be reused).
    id: u64,
}

/// The next [`FastNet`]'s number (0 is no network).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One evaluator's memory of its last input and the first layer's sums for it.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    /// Which network the sums are of (its number), 0 for none.
    net: u64,
    input: Vec<f32>,
    sums: Vec<i64>,
    /// The inputs found changed by the last update (a buffer kept between updates).
    changed: Vec<u32>,
}

impl FastNet {
    /// The network prepared; `None` when a first-layer weight is too large for the fixed
    /// point (beyond ±2047), where [`Net::forward`] serves instead.
    pub fn new(net: Arc<Net>) -> Option<FastNet> {
        let first = &net.layers[0];
        let fixed = |w: f32| {
            let v = (f64::from(w) * SCALE).round();
            (v.abs() < f64::from(i32::MAX)).then_some(v)
        };
        let q = first
            .weight
            .iter()
            .map(|&w| fixed(w).map(|v| v as i32))
            .collect::<Option<Vec<i32>>>()?;
        let bias = first
            .bias
            .iter()
            .map(|&b| fixed(b).map(|v| v as i64))
            .collect::<Option<Vec<i64>>>()?;
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Some(FastNet { net, q, bias, id })
    }

    /// The network.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The length of the work buffer [`forward`](FastNet::forward) needs.
    pub fn work_len(&self) -> usize {
        self.net.work_len()
    }

    /// Input `i`'s share `x · row(i)` in fixed point, added (`sign` 1) or taken away (−1).
    #[inline]
    fn add_share(&self, sums: &mut [i64], i: usize, x: f32, sign: i64) {
        let h = sums.len();
        let row = &self.q[i * h..(i + 1) * h];
        if x == 1.0 {
            for (s, &w) in sums.iter_mut().zip(row) {
                *s += sign * i64::from(w);
            }
        } else {
            // The input in fixed point too (2⁻¹⁶ steps), then an integer product: the same
            // share for the same input, and a loop the compiler vectorises (dense inputs,
            // such as an evaluation's terms, change at every evaluation).
            let xq = (f64::from(x) * X_SCALE).round();
            if xq.abs() < f64::from(i32::MAX) {
                let xq = xq as i64;
                for (s, &w) in sums.iter_mut().zip(row) {
                    *s += sign * ((xq * i64::from(w)) >> X_BITS);
                }
            } else {
                let x = f64::from(x);
                for (s, &w) in sums.iter_mut().zip(row) {
                    *s += sign * (x * f64::from(w)).round() as i64;
                }
            }
        }
    }

    /// The first layer's sums for `input`, from `acc`'s last ones where few inputs changed
    /// (one pass over the input finds them; past a third of the inputs, the sums are made
    /// afresh).
    fn update(&self, input: &[f32], acc: &mut Accumulator) {
        let id = self.id;
        let limit = input.len() / 3;
        let mut fresh = acc.net != id || acc.input.len() != input.len();
        if !fresh {
            acc.changed.clear();
            for (i, (new, old)) in input.iter().zip(&acc.input).enumerate() {
                if new.to_bits() != old.to_bits() {
                    if acc.changed.len() == limit {
                        fresh = true;
                        break;
                    }
                    acc.changed.push(i as u32);
                }
            }
        }
        let mut sums = std::mem::take(&mut acc.sums);
        if fresh {
            acc.net = id;
            sums.clear();
            sums.extend_from_slice(&self.bias);
            for (i, &x) in input.iter().enumerate() {
                if x != 0.0 {
                    self.add_share(&mut sums, i, x, 1);
                }
            }
            acc.input.clear();
            acc.input.extend_from_slice(input);
        } else {
            for &i in &acc.changed {
                let i = i as usize;
                let (new, old) = (input[i], acc.input[i]);
                if old != 0.0 {
                    self.add_share(&mut sums, i, old, -1);
                }
                if new != 0.0 {
                    self.add_share(&mut sums, i, new, 1);
                }
                acc.input[i] = new;
            }
        }
        acc.sums = sums;
    }

    /// The network's outputs for `input` into `out` (as [`Net::forward`], within its
    /// rounding), the first layer from `acc`; allocates nothing once `acc` has grown.
    ///
    /// # Panics
    /// When a slice's length is not the network's (a caller's bug).
    pub fn forward(&self, input: &[f32], acc: &mut Accumulator, work: &mut [f32], out: &mut [f32]) {
        let net = &*self.net;
        assert_eq!(input.len(), net.inputs(), "the input's length");
        assert_eq!(work.len(), net.work_len(), "the work buffer's length");
        assert_eq!(out.len(), net.outputs(), "the output's length");
        self.update(input, acc);
        let first = net.layers[0].outputs;
        let n = net.layers.len();
        if n == 1 {
            for (o, &s) in out.iter_mut().zip(&acc.sums) {
                *o = ((s as f64 / SCALE) as f32).tanh();
            }
            return;
        }
        let (h, rest) = work.split_at_mut(first);
        for (v, &s) in h.iter_mut().zip(&acc.sums) {
            *v = ((s as f64 / SCALE) as f32).max(0.0);
        }
        net.forward_from(1, h, rest, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn updates_equal_a_fresh_sum_and_the_float_network() {
        for sizes in [vec![40, 16, 3], vec![40, 8, 6, 2], vec![40, 2]] {
            let net = Arc::new(Net::new("g", &sizes, 7).unwrap());
            let fast = FastNet::new(Arc::clone(&net)).unwrap();
            let mut rng = Rng::new(3);
            let mut x = vec![0.0f32; 40];
            let mut acc = Accumulator::default();
            let mut work = vec![0.0; fast.work_len()];
            let (mut a, mut b, mut c) = (
                vec![0.0; net.outputs()],
                vec![0.0; net.outputs()],
                vec![0.0; net.outputs()],
            );
            for step in 0..500 {
                // A few inputs change at a time, now and then many.
                let changes = if step % 50 == 0 { 30 } else { 1 + rng.below(3) };
                for _ in 0..changes {
                    let i = rng.below(40);
                    x[i] = match rng.below(3) {
                        0 => 0.0,
                        1 => 1.0,
                        _ => rng.symmetric(),
                    };
                }
                fast.forward(&x, &mut acc, &mut work, &mut a);
                fast.forward(&x, &mut Accumulator::default(), &mut work, &mut b);
                assert_eq!(a, b, "{sizes:?} step {step}: updated and fresh sums differ");
                net.forward(&x, &mut work, &mut c);
                for (p, q) in a.iter().zip(&c) {
                    assert!(
                        (p - q).abs() < 1e-4,
                        "{sizes:?} step {step}: {a:?} vs {c:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn another_network_starts_afresh() {
        let one = FastNet::new(Arc::new(Net::new("g", &[6, 4, 1], 1).unwrap())).unwrap();
        let two = FastNet::new(Arc::new(Net::new("g", &[6, 4, 1], 2).unwrap())).unwrap();
        let x = [1.0, 0.0, 0.5, 0.0, 1.0, 0.0];
        let mut acc = Accumulator::default();
        let mut work = vec![0.0; 4];
        let (mut a, mut b) = ([0.0], [0.0]);
        one.forward(&x, &mut acc, &mut work, &mut a);
        two.forward(&x, &mut acc, &mut work, &mut b);
        let mut fresh = [0.0];
        two.forward(&x, &mut Accumulator::default(), &mut work, &mut fresh);
        assert_eq!(b, fresh);
        assert_ne!(a, b);
    }

    #[test]
    fn weights_beyond_the_fixed_point_are_refused() {
        let mut net = Net::new("g", &[3, 2], 1).unwrap();
        net.layers[0].weight[0] = 5000.0;
        assert!(FastNet::new(Arc::new(net)).is_none());
    }
}
