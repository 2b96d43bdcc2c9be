//! The network: fully connected layers, ReLU between them, tanh at the output; and its
//! inference.
//!
//! Each layer's weights are kept input-major (row `i` holds what input `i` adds to every
//! output), so that a layer is a sum of the rows of its non-zero inputs: an observation of
//! 0/1 planes, or the previous layer after its ReLU, costs in proportion to what is non-zero,
//! and the sum of a row is a loop the compiler vectorises. (The files hold PyTorch's
//! output-major layout: [`crate::file`] turns them.)

use std::collections::BTreeMap;

use crate::rng::Rng;
use crate::Error;

/// The most weights a network may have (about 256 MiB of `f32`): a guard against sizes
/// given by mistake, far above what a search can evaluate at speed.
pub const MAX_PARAMS: usize = 1 << 26;

/// One fully connected layer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Layer {
    pub(crate) inputs: usize,
    pub(crate) outputs: usize,
    /// `inputs × outputs`, input-major.
    pub(crate) weight: Vec<f32>,
    /// `outputs`.
    pub(crate) bias: Vec<f32>,
}

impl Layer {
    /// A layer of `inputs × outputs` weights uniform in ±`bound` (drawn in order from
    /// `rng`), biases 0.
    pub(crate) fn uniform(inputs: usize, outputs: usize, bound: f32, rng: &mut Rng) -> Layer {
        Layer {
            inputs,
            outputs,
            weight: (0..inputs * outputs)
                .map(|_| bound * rng.symmetric())
                .collect(),
            bias: vec![0.0; outputs],
        }
    }

    /// Row `i`: what input `i` adds to each output.
    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[f32] {
        &self.weight[i * self.outputs..(i + 1) * self.outputs]
    }

    /// `out = bias + Σ x[i] · row(i)`, skipping zero inputs.
    #[inline]
    pub(crate) fn apply(&self, x: &[f32], out: &mut [f32]) {
        out.copy_from_slice(&self.bias);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                axpy(out, xi, self.row(i));
            }
        }
    }
}

/// `acc += a · row`.
#[inline]
pub(crate) fn axpy(acc: &mut [f32], a: f32, row: &[f32]) {
    for (s, w) in acc.iter_mut().zip(row) {
        *s += a * w;
    }
}

/// `Σ a[i] · b[i]`, in eight lanes so that the compiler vectorises it.
#[inline]
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    let mut sum: f32 = lanes.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        sum += x * y;
    }
    sum
}

/// A value network: `sizes[0]` inputs, hidden layers of `sizes[1..n-1]` with ReLU, and
/// `sizes[n-1]` outputs through tanh; made for one game (by name), with notes (how it was
/// made) that travel in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    game: String,
    pub(crate) layers: Vec<Layer>,
    notes: BTreeMap<String, String>,
}

impl Net {
    /// A network of these sizes (inputs, each hidden layer, outputs) for the game `game`,
    /// its weights drawn from `seed` (He's uniform initialisation; biases 0).
    pub fn new(game: &str, sizes: &[usize], seed: u64) -> Result<Net, Error> {
        check_sizes(sizes)?;
        let mut rng = Rng::new(seed);
        let last = sizes.len() - 2;
        let layers = sizes
            .windows(2)
            .enumerate()
            .map(|(l, w)| {
                let (inputs, outputs) = (w[0], w[1]);
                // ReLU layers: He; the tanh output: Glorot.
                let bound = if l == last {
                    (6.0 / (inputs + outputs) as f32).sqrt()
                } else {
                    (6.0 / inputs as f32).sqrt()
                };
                Layer::uniform(inputs, outputs, bound, &mut rng)
            })
            .collect();
        Ok(Net {
            game: game.to_string(),
            layers,
            notes: BTreeMap::new(),
        })
    }

    /// A network from its layers (checked by the caller).
    pub(crate) fn from_layers(
        game: String,
        layers: Vec<Layer>,
        notes: BTreeMap<String, String>,
    ) -> Net {
        Net {
            game,
            layers,
            notes,
        }
    }

    /// The game it was made for (its name on the command line).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The sizes: inputs, each hidden layer, outputs.
    pub fn sizes(&self) -> Vec<usize> {
        let mut s = vec![self.inputs()];
        s.extend(self.layers.iter().map(|l| l.outputs));
        s
    }

    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        self.layers[0].inputs
    }

    /// The number of outputs.
    pub fn outputs(&self) -> usize {
        self.layers[self.layers.len() - 1].outputs
    }

    /// The number of weights and biases.
    pub fn params(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.weight.len() + l.bias.len())
            .sum()
    }

    /// Notes on how it was made (the command, the data, the loss), kept in its file.
    pub fn notes(&self) -> &BTreeMap<String, String> {
        &self.notes
    }

    /// Sets a note.
    pub fn set_note(&mut self, key: &str, value: impl Into<String>) {
        self.notes.insert(key.to_string(), value.into());
    }

    /// The length of the work buffer [`forward`](Net::forward) needs (the hidden layers'
    /// values).
    pub fn work_len(&self) -> usize {
        self.layers[..self.layers.len() - 1]
            .iter()
            .map(|l| l.outputs)
            .sum()
    }

    /// The network's outputs for `input` into `out`, using `work` for the hidden layers;
    /// allocates nothing.
    ///
    /// # Panics
    /// When a slice's length is not [`inputs`](Net::inputs), [`work_len`](Net::work_len)
    /// or [`outputs`](Net::outputs) (a caller's bug, not bad data).
    pub fn forward(&self, input: &[f32], work: &mut [f32], out: &mut [f32]) {
        assert_eq!(input.len(), self.inputs(), "the input's length");
        assert_eq!(work.len(), self.work_len(), "the work buffer's length");
        assert_eq!(out.len(), self.outputs(), "the output's length");
        self.forward_from(0, input, work, out);
    }

    /// Layers `start..` on `x` (the input of layer `start`): the hidden values of layers
    /// `start..n-1` into `work` (its front), the outputs into `out`.
    pub(crate) fn forward_from(&self, start: usize, x: &[f32], work: &mut [f32], out: &mut [f32]) {
        let (hidden, last) = self.layers.split_at(self.layers.len() - 1);
        let mut x: &[f32] = x;
        let mut rest = work;
        for layer in &hidden[start..] {
            let (h, tail) = rest.split_at_mut(layer.outputs);
            layer.apply(x, h);
            for v in h.iter_mut() {
                *v = v.max(0.0);
            }
            x = h;
            rest = tail;
        }
        last[0].apply(x, out);
        for v in out.iter_mut() {
            *v = v.tanh();
        }
    }

    /// The outputs for `input`, allocating (for tools and tests; a search uses
    /// [`forward`](Net::forward)). An error when the input's length is not the network's.
    pub fn evaluate(&self, input: &[f32]) -> Result<Vec<f32>, Error> {
        if input.len() != self.inputs() {
            return Err(Error::shape(format!(
                "an input of {} numbers for a network of {} inputs",
                input.len(),
                self.inputs()
            )));
        }
        let mut work = vec![0.0; self.work_len()];
        let mut out = vec![0.0; self.outputs()];
        self.forward(input, &mut work, &mut out);
        Ok(out)
    }
}

/// Checks layer sizes: at least inputs and outputs, none 0, not too many weights.
pub(crate) fn check_sizes(sizes: &[usize]) -> Result<(), Error> {
    if sizes.len() < 2 {
        return Err(Error::shape(format!(
            "layer sizes {sizes:?}: at least the inputs and the outputs"
        )));
    }
    if let Some(i) = sizes.iter().position(|&s| s == 0) {
        return Err(Error::shape(format!(
            "layer sizes {sizes:?}: layer {i} has size 0"
        )));
    }
    let params = sizes.windows(2).try_fold(0usize, |acc, w| {
        acc.checked_add(w[0].checked_mul(w[1])? + w[1])
    });
    match params {
        Some(p) if p <= MAX_PARAMS => Ok(()),
        _ => Err(Error::shape(format!(
            "layer sizes {sizes:?}: more than {MAX_PARAMS} weights"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: every layer output-major, computed straight.
    fn reference(net: &Net, x: &[f32]) -> Vec<f32> {
        let mut a = x.to_vec();
        for (l, layer) in net.layers.iter().enumerate() {
            let mut z: Vec<f32> = (0..layer.outputs)
                .map(|o| {
                    layer.bias[o]
                        + (0..layer.inputs)
                            .map(|i| a[i] * layer.weight[i * layer.outputs + o])
                            .sum::<f32>()
                })
                .collect();
            let last = l + 1 == net.layers.len();
            for v in &mut z {
                *v = if last { v.tanh() } else { v.max(0.0) };
            }
            a = z;
        }
        a
    }

    #[test]
    fn forward_is_the_definition() {
        for sizes in [vec![5, 3], vec![37, 16, 3], vec![20, 11, 9, 2]] {
            let net = Net::new("g", &sizes, 3).unwrap();
            let x: Vec<f32> = (0..sizes[0])
                .map(|i| {
                    if i % 3 == 0 {
                        0.0
                    } else {
                        (i as f32 * 0.37).sin()
                    }
                })
                .collect();
            let got = net.evaluate(&x).unwrap();
            let want = reference(&net, &x);
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() < 1e-5, "{sizes:?}: {got:?} vs {want:?}");
            }
            assert_eq!(net.sizes(), sizes);
        }
    }

    #[test]
    fn dot_sums_every_lane_and_the_rest() {
        let a: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let b = vec![1.0; 19];
        assert_eq!(dot(&a, &b), (0..19).sum::<i32>() as f32);
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Net::new("g", &[4], 1).is_err());
        assert!(Net::new("g", &[4, 0, 1], 1).is_err());
        assert!(Net::new("g", &[1 << 20, 1 << 20, 1], 1).is_err());
        let net = Net::new("g", &[4, 2], 1).unwrap();
        assert!(net.evaluate(&[1.0]).is_err());
    }

    #[test]
    fn the_seed_decides_the_weights() {
        let a = Net::new("g", &[6, 4, 2], 1).unwrap();
        assert_eq!(a, Net::new("g", &[6, 4, 2], 1).unwrap());
        assert_ne!(a, Net::new("g", &[6, 4, 2], 2).unwrap());
    }
}
