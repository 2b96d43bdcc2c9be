//! The integer network a search evaluates with, NNUE's scheme:
//!
//! | layer | weights | biases | sums | activation |
//! | --- | --- | --- | --- | --- |
//! | feature transformer | `i16`, × [`FT_SCALE`] (127) | `i16`, × 127 | `i16` (wrapping) | clipped ReLU: `clamp(s, 0, 127)` (1.0 = 127) |
//! | second hidden layer | `i8`, × [`DENSE_SCALE`] (64) | `i32`, × 127 · 64 | `i32` | `clamp((s + 32) >> 6, 0, 127)` |
//! | output layer | `i8`, × 64 | `i32`, × 127 · 64 | `i32` | `tanh(s / 8128)` in `f32` |
//!
//! Each weight is rounded to the nearest step; one that does not fit its integer type is
//! clamped to the largest that does (± [`MAX_FT_WEIGHT`] ≈ 258 for the feature transformer,
//! ± [`MAX_DENSE_WEIGHT`] = 127/64 ≈ 1.98 for the others), and [`QuantReport`] counts them.
//! [`SparseTrainer`](super::SparseTrainer) keeps the weights in those ranges while it
//! trains (as nnue-pytorch does), so that nothing is clamped.
//!
//! **Every integer is an exact function of the active features**: the accumulator's `i16`
//! sums wrap (a view whose true sum passes ± 258 in float wraps around, the same way
//! whatever order the rows came in), so that incremental updates, refreshes and every
//! instruction set give the same bits. The float model and this one differ by the
//! rounding of the weights, mostly the dense layers' steps of 1/64 adding up over their
//! inputs: on random networks of widths 32 to 128, up to 0.09 in an output's −1 … 1 (a
//! test holds it under 0.15).

use std::sync::atomic::{AtomicU64, Ordering};

use super::kernels::Simd;
use super::{SparseNet, SparseShape};
use crate::net::Layer;

/// Integer steps per unit of a feature-transformer weight, bias and activation.
pub const FT_SCALE: i32 = 127;
/// Integer steps per unit of a weight of the layers after the feature transformer.
pub const DENSE_SCALE: i32 = 64;
/// The largest feature-transformer weight or bias that fits (`i16::MAX / 127`).
pub const MAX_FT_WEIGHT: f32 = i16::MAX as f32 / FT_SCALE as f32;
/// The largest weight of the layers after the feature transformer that fits
/// (`i8::MAX / 64`).
pub const MAX_DENSE_WEIGHT: f32 = i8::MAX as f32 / DENSE_SCALE as f32;
/// Integer steps per unit of a dense layer's sum (activation scale × weight scale).
const SUM_SCALE: i32 = FT_SCALE * DENSE_SCALE;

/// The largest dense bias in integer steps: with at most 2¹⁶ inputs of at most 127 · 127
/// each ([`SparseShape::check`]), a layer's sum stays within `i32`.
const MAX_BIAS: i32 = 1 << 30;

const FUSED: bool = true;

/// The next network's identity (0 is none).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// What quantizing a network cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuantReport {
    /// The weights and biases that did not fit their integer type and were clamped.
    pub clamped: usize,
    /// Those of each tensor, by name (`"ft.weight"`, …), only the tensors with some.
    pub by_tensor: Vec<(String, usize)>,
}

/// A dense layer in integers: output-major weights in `i8`'s range (held as `i16`, the
/// operand width of the multiply), `i32` biases.
#[derive(Clone, Debug)]
pub(crate) struct Dense {
    pub(crate) weights: Vec<i16>,
    pub(crate) bias: Vec<i32>,
}

/// The integer network (see [the module](self)); `Send + Sync`, meant to be shared by a
/// search's threads in an `Arc`, each thread with its own [`SparseAccumulator`](super::SparseAccumulator).
#[derive(Clone, Debug)]
pub struct QuantNet {
    /// A number no other network of the process has (its clones share it: the same
    /// weights), which an accumulator remembers.
    id: u64,
    shape: SparseShape,
    game: String,
    /// The feature transformer, feature-major: row `f` (`H` values) is what feature `f`
    /// adds.
    pub(crate) ft_weights: Vec<i16>,
    pub(crate) ft_bias: Vec<i16>,
    l1: Option<Dense>,
    pub(crate) out: Dense,
    simd: Simd,
    /// `tanh` of the output sums at every [`TANH_STEP`]-th sum (see [`QuantNet::output`]).
    tanh: Vec<f32>,
}

/// The output sums between two entries of the `tanh` table.
const TANH_STEP: i32 = 128;
/// The largest output sum the table covers (beyond, `tanh` is 1 within 3·10⁻⁷).
const TANH_RANGE: i32 = 1 << 16;

/// Rounds `w · scale` into `lo ..= hi`, counting a clamp.
fn fit(w: f32, scale: i32, lo: i32, hi: i32, clamped: &mut usize) -> i32 {
    let v = (f64::from(w) * f64::from(scale)).round();
    if v < f64::from(lo) || v > f64::from(hi) {
        *clamped += 1;
    }
    v.clamp(f64::from(lo), f64::from(hi)) as i32
}

/// A dense layer quantized (weights turned output-major), counting clamps per tensor.
fn dense(layer: &Layer, name: &str, report: &mut QuantReport) -> Dense {
    let (mut cw, mut cb) = (0, 0);
    let (i8lo, i8hi) = (i32::from(i8::MIN), i32::from(i8::MAX));
    let mut weights = vec![0i16; layer.weight.len()];
    for i in 0..layer.inputs {
        for o in 0..layer.outputs {
            let w = layer.weight[i * layer.outputs + o];
            weights[o * layer.inputs + i] = fit(w, DENSE_SCALE, i8lo, i8hi, &mut cw) as i16;
        }
    }
    let bias = layer
        .bias
        .iter()
        .map(|&b| fit(b, SUM_SCALE, -MAX_BIAS, MAX_BIAS, &mut cb))
        .collect();
    report.add(&format!("{name}.weight"), cw);
    report.add(&format!("{name}.bias"), cb);
    Dense { weights, bias }
}

impl QuantReport {
    fn add(&mut self, tensor: &str, count: usize) {
        if count > 0 {
            self.clamped += count;
            self.by_tensor.push((tensor.to_string(), count));
        }
    }
}

impl SparseNet {
    /// The integer network (see [`quant`](self::super::quant)), with the count of weights
    /// that had to be clamped; its loops run with the best instruction set of this
    /// processor ([`Simd::detect`]).
    pub fn quantize(&self) -> (QuantNet, QuantReport) {
        let mut report = QuantReport::default();
        let mut ft = |values: &[f32], name: &str| -> Vec<i16> {
            let (lo, hi) = (i32::from(i16::MIN), i32::from(i16::MAX));
            let mut c = 0;
            let q = values
                .iter()
                .map(|&w| fit(w, FT_SCALE, lo, hi, &mut c) as i16)
                .collect();
            report.add(name, c);
            q
        };
        let ft_weights = ft(&self.ft.weight, "ft.weight");
        let ft_bias = ft(&self.ft.bias, "ft.bias");
        let l1 = self.l1.as_ref().map(|l| dense(l, "l1", &mut report));
        let out = dense(&self.out, "out", &mut report);
        let net = QuantNet {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            shape: self.shape(),
            game: self.game().to_string(),
            ft_weights,
            ft_bias,
            l1,
            out,
            simd: Simd::detect(),
            tanh: (0..=2 * TANH_RANGE / TANH_STEP)
                .map(|k| tanh((k * TANH_STEP - TANH_RANGE) as f32 / SUM_SCALE as f32))
                .collect(),
        };
        (net, report)
    }
}

impl QuantNet {
    /// Its identity: the same for its clones, another for any other network.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Its shape.
    pub fn shape(&self) -> SparseShape {
        self.shape
    }

    /// The game it was made for.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The instruction set its loops run with.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// Runs its loops with `simd` instead (to compare them; every instruction set gives the
    /// same results).
    pub fn set_simd(&mut self, simd: Simd) {
        self.simd = simd;
    }

    /// Without a second hidden layer: view `p`'s part of the output layer's weights (from
    /// its first input on) and the stride between two outputs' rows, which the accumulator
    /// adds up as it updates the view.
    #[inline]
    pub(crate) fn out_view(&self, p: usize) -> Option<(&[i16], usize)> {
        match self.l1 {
            Some(_) => None,
            None => Some((
                &self.out.weights[p * self.shape.width..],
                self.shape.concat(),
            )),
        }
    }

    /// Sets `sums` to the output layer's biases, where the accumulator adds the output
    /// layer up (no second hidden layer).
    #[inline]
    pub(crate) fn start_outputs(&self, sums: &mut [i32]) {
        if self.l1.is_none() && FUSED {
            // A loop, not `copy_from_slice`: two or three numbers, where a call to memcpy
            // cost more than the copy (callgrind).
            for (s, &b) in sums.iter_mut().zip(&self.out.bias) {
                *s = b;
            }
        }
    }

    /// True when the accumulator adds up the output layer as it updates (no second hidden
    /// layer): [`forward`](QuantNet::forward) then reads [`Forward::Fused`].
    pub(crate) fn fused(&self) -> bool {
        self.l1.is_none() && FUSED
    }

    /// The layers after the feature transformer, from what the accumulator holds of the
    /// current position.
    pub(crate) fn forward(&self, from: Forward<'_>, out: &mut [f32]) {
        assert_eq!(out.len(), self.shape.outputs, "one value an output");
        let (act, hidden, sums) = match from {
            Forward::Fused(output_sums) => {
                for (o, &s) in out.iter_mut().zip(output_sums) {
                    *o = self.output(s);
                }
                return;
            }
            Forward::Layers { act, hidden, sums } => (act, hidden, sums),
        };
        let simd = self.simd;
        let mut x: &[i16] = act;
        if let Some(l1) = &self.l1 {
            simd.dense(x, &l1.weights, &l1.bias, sums);
            for (h, &s) in hidden.iter_mut().zip(sums.iter()) {
                *h = ((s + DENSE_SCALE / 2) >> 6).clamp(0, 127) as i16;
            }
            x = hidden;
        }
        let sums = &mut sums[..self.shape.outputs];
        simd.dense(x, &self.out.weights, &self.out.bias, sums);
        for (o, &s) in out.iter_mut().zip(sums.iter()) {
            *o = self.output(s);
        }
    }

    /// An output from its integer sum: `tanh(s / 8128)`, from a table of 1025 values
    /// with linear interpolation between them (within 2.5·10⁻⁵ of `tanh`). The
    /// polynomial's chain of dependent multiplications and its division took a quarter
    /// of an evaluation at width 64 (perf); a table lookup is a few cycles.
    #[inline]
    pub(crate) fn output(&self, s: i32) -> f32 {
        let s = s.clamp(-TANH_RANGE, TANH_RANGE - 1) + TANH_RANGE;
        let k = (s / TANH_STEP) as usize;
        let frac = (s % TANH_STEP) as f32 * (1.0 / TANH_STEP as f32);
        let (a, b) = (self.tanh[k], self.tanh[k + 1]);
        a + frac * (b - a)
    }

    /// `H`.
    pub(crate) fn width(&self) -> usize {
        self.shape.width
    }
}

/// What the accumulator hands [`QuantNet::forward`] of the current position.
pub(crate) enum Forward<'a> {
    /// The output layer's sums, added up as the accumulator updated (no second hidden
    /// layer).
    Fused(&'a [i32]),
    /// The clipped feature transformer (view after view), and the work buffers of the
    /// dense layers: the second hidden layer's activations and the integer sums.
    Layers {
        /// The clipped feature transformer.
        act: &'a [i16],
        /// The second hidden layer's activations.
        hidden: &'a mut [i16],
        /// The integer sums.
        sums: &'a mut [i32],
    },
}

/// `tanh(x)` within a few units in the last place of `f32`, as a rational function (the
/// one of Eigen's `ptanh_float`), the same bits on every machine (the C library's `tanhf`
/// need not be): the values of [`QuantNet`]'s output table.
#[inline]
pub(crate) fn tanh(x: f32) -> f32 {
    const CLAMP: f32 = 7.905_311;
    const A: [f32; 7] = [
        4.893_524_6e-3,
        6.372_619e-4,
        1.485_722_4e-5,
        5.122_297e-8,
        -8.604_672e-11,
        2.000_188e-13,
        -2.760_768_5e-16,
    ];
    const B: [f32; 4] = [4.893_525e-3, 2.268_434_6e-3, 1.185_347_1e-4, 1.198_258_4e-6];
    let x = x.clamp(-CLAMP, CLAMP);
    let x2 = x * x;
    let mut p = A[6];
    for &a in A[..6].iter().rev() {
        p = p * x2 + a;
    }
    let q = ((B[3] * x2 + B[2]) * x2 + B[1]) * x2 + B[0];
    x * p / q
}

#[cfg(test)]
impl Dense {
    /// The weights and biases (for tests elsewhere in the crate).
    pub(crate) fn as_ref_parts(&self) -> (&[i16], &[i32]) {
        (&self.weights, &self.bias)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::sparse::tests::random_list;
    use crate::sparse::SparseAccumulator;

    /// A random network with larger weights than a fresh one's (as trained ones have).
    pub(crate) fn random_net(shape: SparseShape, seed: u64) -> SparseNet {
        let mut net = SparseNet::new("g", shape, seed).unwrap();
        let mut rng = Rng::new(seed ^ 77);
        for l in net.layers_mut() {
            for b in &mut l.bias {
                *b = 0.3 * rng.symmetric();
            }
        }
        for w in &mut net.ft.weight {
            *w = 0.5 * rng.symmetric();
        }
        net
    }

    #[test]
    fn the_integer_network_is_near_the_float_one() {
        let mut rng = Rng::new(11);
        let mut worst = 0.0f32;
        for (width, p, l2) in [
            (64, 1, None),
            (128, 2, None),
            (32, 2, Some(16)),
            (48, 3, Some(8)),
        ] {
            let shape = SparseShape {
                features: 300,
                width,
                perspectives: p,
                l2,
                outputs: p.max(2),
            };
            for seed in 0..4 {
                let net = random_net(shape, seed);
                let (quant, report) = net.quantize();
                assert_eq!(report.clamped, 0);
                let mut acc = SparseAccumulator::new();
                let mut out = vec![0.0; shape.outputs];
                for _ in 0..50 {
                    let f: Vec<Vec<u32>> = (0..p).map(|_| random_list(&mut rng, 300, 20)).collect();
                    quant.evaluate(&f, &mut acc, &mut out);
                    let want = net.evaluate(&f).unwrap();
                    for (a, b) in out.iter().zip(&want) {
                        worst = worst.max((a - b).abs());
                    }
                }
            }
        }
        // Measured: 0.093 at worst over these networks (0.059 for the single view of 64,
        // the i8 weights' steps of 1/64 adding up over a layer's inputs).
        assert!(worst < 0.15, "{worst}");
    }

    #[test]
    fn the_rational_tanh_is_tanh() {
        let mut worst = 0.0f32;
        for i in -12_000..=12_000 {
            let x = i as f32 / 1000.0;
            worst = worst.max((tanh(x) - x.tanh()).abs());
        }
        assert!(worst < 1e-6, "{worst}");
        assert_eq!(tanh(100.0), tanh(8.0));
        assert!(tanh(f32::INFINITY) <= 1.0 && tanh(-1e30) >= -1.0);
    }

    #[test]
    fn the_output_table_is_tanh() {
        let shape = SparseShape {
            features: 4,
            width: 4,
            perspectives: 1,
            l2: None,
            outputs: 1,
        };
        let (quant, _) = SparseNet::new("g", shape, 1).unwrap().quantize();
        let mut worst = 0.0f32;
        for s in (-70_000..70_000).step_by(7) {
            let want = (s as f32 / SUM_SCALE as f32).tanh();
            worst = worst.max((quant.output(s) - want).abs());
        }
        assert!(worst < 2.5e-5, "{worst}");
        assert_eq!(quant.output(i32::MAX), quant.output(TANH_RANGE));
    }

    #[test]
    fn weights_that_do_not_fit_are_clamped_and_counted() {
        let shape = SparseShape {
            features: 10,
            width: 4,
            perspectives: 1,
            l2: Some(3),
            outputs: 1,
        };
        let mut net = SparseNet::new("g", shape, 1).unwrap();
        net.ft.weight[0] = 300.0;
        net.l1.as_mut().unwrap().weight[1] = -2.5;
        net.out.weight[0] = 2.0;
        let (quant, report) = net.quantize();
        assert_eq!(report.clamped, 3);
        assert_eq!(
            report.by_tensor,
            [
                ("ft.weight".to_string(), 1),
                ("l1.weight".to_string(), 1),
                ("out.weight".to_string(), 1)
            ]
        );
        assert_eq!(quant.ft_weights[0], i16::MAX);
        // Input 0's weight to output 1, output-major.
        assert_eq!(quant.l1.as_ref().unwrap().weights[4], i16::from(i8::MIN));
        // The largest that fit are not clamped.
        net.ft.weight[0] = MAX_FT_WEIGHT;
        net.l1.as_mut().unwrap().weight[1] = -MAX_DENSE_WEIGHT;
        net.out.weight[0] = MAX_DENSE_WEIGHT;
        assert_eq!(net.quantize().1.clamped, 0);
    }
}
