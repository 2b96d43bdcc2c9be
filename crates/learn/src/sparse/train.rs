//! Training a sparse network: samples of active features per perspective with targets,
//! mean squared error on the tanh outputs, Adam (the dense trainer's, [`crate::train`]),
//! weights kept where the integer network can hold them.
//!
//! **Reproducible** as the dense trainer is: an epoch's order is a function of the seed and
//! the epoch's number; a batch is cut into fixed chunks of samples, each chunk's gradient
//! summed in sample order, the chunks' sums added in chunk order (the feature
//! transformer's rows split among the threads by feature, each row still summed in chunk
//! order); so any number of threads gives the same weights bit for bit, and a trainer
//! saved ([`SparseTrainer::save_state`]) and resumed gives what an unbroken run gives.
//!
//! **Sparse first layer**: a sample's gradient touches only the rows of its active
//! features; a chunk hands over the rows it touched. Adam then updates every weight (as
//! PyTorch's Adam does): with a few hundred features, a batch of a thousand samples touches
//! nearly every row anyway, and the dense step measured about 3% of the time at a batch
//! of 1024 (F = 512, H = 128, perf), so a lazy one would save little and follow PyTorch
//! less closely.
//!
//! Measured (`benches/sparse.rs`, F = 512, H = 128, P = 2, 24 active features a view, on
//! a 2-core machine shared with other builds, load average 4–5): 228–348 K positions/s at
//! a batch of 1024 and 180–287 K at 16384 on one thread; two threads measured no faster
//! there (the other builds held the second core), though all but the Adam step and the
//! last summing of the chunks' dense layers runs on the threads.
//!
//! **Clipping**: after each step the feature transformer's weights and biases are clamped
//! to ± [`MAX_FT_WEIGHT`] and the dense layers' weights to ± [`MAX_DENSE_WEIGHT`], as
//! nnue-pytorch does, so that [`SparseNet::quantize`] clamps nothing.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use rayon::prelude::*;

use super::file as sparse_file;
use super::quant::{MAX_DENSE_WEIGHT, MAX_FT_WEIGHT};
use super::{check_features, SparseNet, SparseShape};
use crate::file::{self, linear_tensors, transpose, Parsed};
use crate::net::{axpy, dot, Layer};
use crate::train::{epoch_order, zeros, Adam, TrainSettings, CHUNK};

/// Samples of one gradient chunk of the sparse trainer (the dense trainer's are
/// [`CHUNK`]): a chunk of 32 samples of a few dozen features each touches most rows of a
/// few hundred features, so each chunk's rows were nearly a whole feature transformer to
/// hand over and add up (a third of the work, and 128 MiB a batch of 16384); 256 samples
/// share the rows eight times as much and still make 4 chunks of a batch of 1024.
const SPARSE_CHUNK: usize = 256;
use crate::Error;

/// The format of a sparse trainer's state file.
pub const SPARSE_STATE_FORMAT: &str = "plyforge-sparse-trainer-1";

/// A training target from a game's outcome and a search's score, both from the same
/// player's view: `λ · outcome + (1 − λ) · tanh(score / scale)`, clamped to −1 … 1.
/// `outcome` is that player's result in −1 … 1 (a win 1, a draw 0), `score` the search's
/// score in its own units, `scale` the score that counts as tanh(1) ≈ 0.76 of a win, and
/// `lambda` in 0 … 1 how much the outcome counts (1: the outcome alone).
///
/// ```
/// use plyforge_learn::sparse::blend_target;
/// assert_eq!(blend_target(1.0, 0.0, 400.0, 1.0), 1.0);
/// assert!((blend_target(1.0, 400.0, 400.0, 0.5) - (0.5 + 0.5 * 1f32.tanh())).abs() < 1e-6);
/// ```
pub fn blend_target(outcome: f32, score: f32, scale: f32, lambda: f32) -> f32 {
    (lambda * outcome + (1.0 - lambda) * (score / scale).tanh()).clamp(-1.0, 1.0)
}

/// Samples of active features (one sorted list per perspective) and targets (one per
/// output), in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct SparseDataset {
    shape: SparseShape,
    /// Where each sample's perspective's list starts in `features` (`len · P + 1` entries).
    starts: Vec<usize>,
    features: Vec<u32>,
    targets: Vec<f32>,
}

impl SparseDataset {
    /// An empty set for networks of `shape` (its features, perspectives and outputs).
    pub fn new(shape: SparseShape) -> SparseDataset {
        SparseDataset {
            shape,
            starts: vec![0],
            features: Vec::new(),
            targets: Vec::new(),
        }
    }

    /// Adds a sample; an error when the lists are not one per perspective, sorted without
    /// repeats and below `F`, or the targets not one per output in −1 … 1.
    pub fn push<L: AsRef<[u32]>>(&mut self, features: &[L], target: &[f32]) -> Result<(), Error> {
        check_features(&self.shape, features)?;
        if target.len() != self.shape.outputs || target.iter().any(|t| !(-1.0..=1.0).contains(t)) {
            return Err(Error::shape(format!(
                "targets {target:?}: {} numbers, each in -1 … 1",
                self.shape.outputs
            )));
        }
        for view in features {
            self.features.extend_from_slice(view.as_ref());
            self.starts.push(self.features.len());
        }
        self.targets.extend_from_slice(target);
        Ok(())
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.targets.len() / self.shape.outputs.max(1)
    }

    /// True when there is no sample.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The shape it was made for.
    pub fn shape(&self) -> SparseShape {
        self.shape
    }

    /// Sample `i`'s active features of perspective `p`.
    pub fn features(&self, i: usize, p: usize) -> &[u32] {
        let k = i * self.shape.perspectives + p;
        &self.features[self.starts[k]..self.starts[k + 1]]
    }

    /// Sample `i`'s targets.
    pub fn target(&self, i: usize) -> &[f32] {
        let o = self.shape.outputs;
        &self.targets[i * o..(i + 1) * o]
    }

    /// Sets sample `i`'s targets (targets that change between epochs: TD(λ)), each
    /// clamped to −1 … 1, as [`Dataset::set_target`](crate::Dataset::set_target) does.
    ///
    /// # Panics
    /// When `i` is not a sample's index, or `target` not one value per output (a caller's
    /// bug).
    pub fn set_target(&mut self, i: usize, target: &[f32]) {
        let o = self.shape.outputs;
        assert_eq!(target.len(), o, "one target per output");
        for (dst, &v) in self.targets[i * o..(i + 1) * o].iter_mut().zip(target) {
            *dst = v.clamp(-1.0, 1.0);
        }
    }
}

/// A chunk's gradient: the feature transformer's touched rows (sorted by feature), the
/// other layers whole.
///
/// Kept by the trainer from batch to batch, so that its buffers are not allocated (and
/// their pages faulted in) again for every chunk: that was a sixth of a step (perf).
#[derive(Clone, Debug, Default)]
struct Grad {
    /// The touched features, in the order first touched.
    rows: Vec<u32>,
    /// Their gradient rows, in the same order.
    values: Vec<f32>,
    /// (feature, its row's index in `values`), sorted by feature.
    order: Vec<(u32, u32)>,
    /// The feature transformer's bias (in `bias`; no weights), then the second hidden
    /// layer and the output layer output-major ([`flip`]ped).
    layers: Vec<Layer>,
    loss: f64,
}

impl Grad {
    /// Zero, shaped for `net`.
    fn reset(&mut self, net: &SparseNet) {
        self.rows.clear();
        self.values.clear();
        self.order.clear();
        if self.layers.is_empty() {
            self.layers = grad_layers(net);
        }
        for l in &mut self.layers {
            l.weight.fill(0.0);
            l.bias.fill(0.0);
        }
        self.loss = 0.0;
    }
}

/// One worker's buffers: the layers' values of a sample, and where each feature's row is
/// in the chunk's gradient (`u32::MAX` for none; reset between chunks).
struct Work {
    x: Vec<f32>,
    z: Vec<f32>,
    hidden: Vec<f32>,
    zh: Vec<f32>,
    out: Vec<f32>,
    d_out: Vec<f32>,
    d_hidden: Vec<f32>,
    d_x: Vec<f32>,
    slot: Vec<u32>,
}

impl Work {
    fn new(s: &SparseShape) -> Work {
        let l2 = s.l2.unwrap_or(0);
        Work {
            x: vec![0.0; s.concat()],
            z: vec![0.0; s.concat()],
            hidden: vec![0.0; l2],
            zh: vec![0.0; l2],
            out: vec![0.0; s.outputs],
            d_out: vec![0.0; s.outputs],
            d_hidden: vec![0.0; l2],
            d_x: vec![0.0; s.concat()],
            slot: vec![u32::MAX; s.features],
        }
    }
}

/// A dense layer turned output-major (row `o`: what every input gives output `o`), its
/// biases kept; flipped twice, the layer again. The trainer's loops run over the layers
/// after the feature transformer so: a dot product an output forward, a row an output
/// backward, each as long as the inputs (input-major, a layer of 2 outputs was loops of
/// 2 and a third of a step).
fn flip(l: &Layer) -> Layer {
    Layer {
        inputs: l.outputs,
        outputs: l.inputs,
        weight: transpose(&l.weight, l.inputs, l.outputs),
        bias: l.bias.clone(),
    }
}

/// The gradient's layers, zero: the transformer's bias (as a layer of no weights), then
/// the second hidden layer if any and the output layer, [`flip`]ped.
fn grad_layers(net: &SparseNet) -> Vec<Layer> {
    let mut layers = zeros(&[Layer {
        inputs: 0,
        outputs: net.shape().width,
        weight: Vec::new(),
        bias: net.ft.bias.clone(),
    }]);
    layers.extend(zeros(&net.layers().skip(1).map(flip).collect::<Vec<_>>()));
    layers
}

/// A gradient's layers as the network's are (the dense ones [`flip`]ped back).
fn input_major(layers: &[Layer]) -> Vec<Layer> {
    let mut out = vec![layers[0].clone()];
    out.extend(layers[1..].iter().map(flip));
    out
}

/// `out[o] = bias[o] + x · row o` of a [`flip`]ped layer.
#[inline]
fn apply_flipped(t: &Layer, x: &[f32], out: &mut [f32]) {
    for (o, z) in out.iter_mut().enumerate() {
        *z = t.bias[o] + dot(x, t.row(o));
    }
}

/// Sample `i`'s forward pass into `w`: `z` the transformer's sums, `x` clipped, `zh` and
/// `hidden` the second layer's, `out` the outputs; `dense` the layers after the
/// transformer, [`flip`]ped.
fn forward(net: &SparseNet, dense: &[Layer], data: &SparseDataset, i: usize, w: &mut Work) {
    let s = net.shape();
    for p in 0..s.perspectives {
        let z = &mut w.z[p * s.width..(p + 1) * s.width];
        z.copy_from_slice(&net.ft.bias);
        for &f in data.features(i, p) {
            add(z, net.ft.row(f as usize));
        }
    }
    for (x, &z) in w.x.iter_mut().zip(&w.z) {
        *x = z.clamp(0.0, 1.0);
    }
    let input: &[f32] = match dense {
        [l1, _] => {
            apply_flipped(l1, &w.x, &mut w.zh);
            for (h, &z) in w.hidden.iter_mut().zip(&w.zh) {
                *h = z.clamp(0.0, 1.0);
            }
            &w.hidden
        }
        _ => &w.x,
    };
    apply_flipped(&dense[dense.len() - 1], input, &mut w.out);
    for o in &mut w.out {
        *o = o.tanh();
    }
}

/// `acc += row` (an active feature's row: `axpy` by 1 without the product).
#[inline]
fn add(acc: &mut [f32], row: &[f32]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a += r;
    }
}

/// The gradient of a [`flip`]ped dense layer `t`: `g` (flipped too) += the outer product
/// of `delta` and `input`; the input's delta (before its activation) into `d_input` when
/// asked.
fn dense_backward(
    t: &Layer,
    g: &mut Layer,
    input: &[f32],
    delta: &[f32],
    d_input: Option<&mut [f32]>,
) {
    let n = input.len();
    for (o, &d) in delta.iter().enumerate() {
        axpy(&mut g.weight[o * n..(o + 1) * n], d, input);
    }
    add(&mut g.bias, delta);
    if let Some(di) = d_input {
        di.fill(0.0);
        for (o, &d) in delta.iter().enumerate() {
            axpy(di, d, t.row(o));
        }
    }
}

/// Adds sample `i`'s gradient to `g` (the dense layers) and `w.ft` (the transformer's
/// rows); returns its loss (the mean of the squared errors).
fn backprop(
    net: &SparseNet,
    dense: &[Layer],
    data: &SparseDataset,
    i: usize,
    grad: &mut Grad,
    w: &mut Work,
) -> f64 {
    let g = &mut grad.layers[..];
    forward(net, dense, data, i, w);
    let s = net.shape();
    let k = s.outputs as f32;
    let mut loss = 0.0f64;
    for ((d, &o), &t) in w.d_out.iter_mut().zip(&w.out).zip(data.target(i)) {
        let e = o - t;
        loss += f64::from(e * e);
        *d = 2.0 * e / k * (1.0 - o * o);
    }
    // The clipped ReLU passes a gradient only where it did not clip.
    let pass = |d: &mut [f32], z: &[f32]| {
        for (d, &z) in d.iter_mut().zip(z) {
            *d = if z > 0.0 && z < 1.0 { *d } else { 0.0 };
        }
    };
    let last = g.len() - 1;
    match dense {
        [l1, out] => {
            dense_backward(
                out,
                &mut g[last],
                &w.hidden,
                &w.d_out,
                Some(&mut w.d_hidden),
            );
            pass(&mut w.d_hidden, &w.zh);
            dense_backward(l1, &mut g[1], &w.x, &w.d_hidden, Some(&mut w.d_x));
        }
        _ => dense_backward(&dense[0], &mut g[last], &w.x, &w.d_out, Some(&mut w.d_x)),
    }
    pass(&mut w.d_x, &w.z);
    let h = s.width;
    for p in 0..s.perspectives {
        let d = &w.d_x[p * h..(p + 1) * h];
        add(&mut g[0].bias, d);
        for &f in data.features(i, p) {
            let mut at = w.slot[f as usize] as usize;
            if at == u32::MAX as usize {
                at = grad.rows.len();
                w.slot[f as usize] = at as u32;
                grad.rows.push(f);
                grad.values.resize(grad.values.len() + h, 0.0);
            }
            add(&mut grad.values[at * h..(at + 1) * h], d);
        }
    }
    loss / f64::from(k)
}

/// A network being trained, with Adam's moments (see [the module](self)).
#[derive(Clone, Debug)]
pub struct SparseTrainer {
    net: SparseNet,
    settings: TrainSettings,
    /// Adam's moments, shaped as the network's layers (in [`SparseNet::layers`]' order).
    m: Vec<Layer>,
    v: Vec<Layer>,
    step: u64,
    /// The chunks' gradients of the last batch (buffers kept for the next).
    parts: Vec<Grad>,
}

impl SparseTrainer {
    /// A trainer of `net` (Adam's moments at 0).
    pub fn new(net: SparseNet, settings: TrainSettings) -> SparseTrainer {
        let layers: Vec<Layer> = net.layers().cloned().collect();
        SparseTrainer {
            m: zeros(&layers),
            v: zeros(&layers),
            net,
            settings,
            step: 0,
            parts: Vec::new(),
        }
    }

    /// The network as trained so far.
    pub fn net(&self) -> &SparseNet {
        &self.net
    }

    /// The network, for its notes.
    pub fn net_mut(&mut self) -> &mut SparseNet {
        &mut self.net
    }

    /// The steps taken so far.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// The gradient of the samples `batch`: each chunk's (into `parts`, one a chunk), then
    /// summed in chunk order, the transformer's rows into `ft` (zero on entry, `F × H`),
    /// the rest into `parts[0]`; returns the loss.
    fn gradient(
        net: &SparseNet,
        data: &SparseDataset,
        batch: &[usize],
        ft: &mut [f32],
        parts: &mut Vec<Grad>,
    ) -> f64 {
        let s = net.shape();
        let dense: Vec<Layer> = net.layers().skip(1).map(flip).collect();
        parts.resize_with(batch.len().div_ceil(SPARSE_CHUNK), Grad::default);
        parts
            .par_iter_mut()
            .zip(batch.par_chunks(SPARSE_CHUNK))
            .for_each_init(
                || Work::new(&s),
                |w, (g, chunk)| {
                    g.reset(net);
                    for &i in chunk {
                        g.loss += backprop(net, &dense, data, i, g, w);
                    }
                    // The touched rows in feature order.
                    g.order
                        .extend(g.rows.iter().enumerate().map(|(k, &f)| (f, k as u32)));
                    g.order.sort_unstable();
                    for &f in &g.rows {
                        w.slot[f as usize] = u32::MAX;
                    }
                },
            );
        // The transformer's rows: blocks of features side by side, each row summed over
        // the chunks in order.
        let h = s.width;
        let block = 16;
        let parts_ = &parts[..];
        ft.par_chunks_mut(block * h)
            .enumerate()
            .for_each(|(b, rows)| {
                let (lo, hi) = ((b * block) as u32, ((b + 1) * block) as u32);
                for part in parts_ {
                    let start = part.order.partition_point(|&(f, _)| f < lo);
                    for &(f, k) in part.order[start..].iter().take_while(|&&(f, _)| f < hi) {
                        let (at, from) = ((f - lo) as usize * h, k as usize * h);
                        add(&mut rows[at..at + h], &part.values[from..from + h]);
                    }
                }
            });
        let (first, rest) = parts
            .split_first_mut()
            .expect("a batch of at least one sample");
        for p in rest.iter() {
            for (a, b) in first.layers.iter_mut().zip(&p.layers) {
                add(&mut a.weight, &b.weight);
                add(&mut a.bias, &b.bias);
            }
            first.loss += p.loss;
        }
        first.loss
    }

    /// One Adam step on the gradient of `count` samples, then the clipping.
    fn adam(&mut self, ft: &[f32], g: &[Layer], count: usize) {
        self.step += 1;
        let adam = Adam::new(&self.settings, self.step, count);
        let (m, v) = (&mut self.m, &mut self.v);
        adam.update(
            &mut self.net.ft.weight,
            &mut m[0].weight,
            &mut v[0].weight,
            ft,
        );
        adam.update(
            &mut self.net.ft.bias,
            &mut m[0].bias,
            &mut v[0].bias,
            &g[0].bias,
        );
        for (l, layer) in self.net.layers_mut().enumerate().skip(1) {
            adam.layer(layer, &mut m[l], &mut v[l], &g[l]);
        }
        let clip = |values: &mut [f32], bound: f32| {
            for w in values {
                *w = w.clamp(-bound, bound);
            }
        };
        clip(&mut self.net.ft.weight, MAX_FT_WEIGHT);
        clip(&mut self.net.ft.bias, MAX_FT_WEIGHT);
        for layer in self.net.layers_mut().skip(1) {
            clip(&mut layer.weight, MAX_DENSE_WEIGHT);
        }
    }

    /// One pass over the samples `indices` of `data` in the order of `epoch` (seeded), a step
    /// a batch; returns the mean loss met on the way.
    ///
    /// # Panics
    /// When `data` was made for another shape (a caller's bug).
    pub fn epoch(&mut self, data: &SparseDataset, indices: &[usize], epoch: u64) -> f64 {
        let (s, d) = (self.net.shape(), data.shape());
        assert_eq!(
            (d.features, d.perspectives, d.outputs),
            (s.features, s.perspectives, s.outputs),
            "the data's shape is the network's"
        );
        if indices.is_empty() {
            return 0.0;
        }
        let order = epoch_order(indices, self.settings.seed, epoch);
        let mut ft = vec![0.0; s.features * s.width];
        let mut parts = std::mem::take(&mut self.parts);
        let mut loss = 0.0;
        for batch in order.chunks(self.settings.batch.max(1)) {
            ft.fill(0.0);
            loss += SparseTrainer::gradient(&self.net, data, batch, &mut ft, &mut parts);
            let g = input_major(&parts[0].layers);
            self.adam(&ft, &g, batch.len());
        }
        self.parts = parts;
        loss / indices.len() as f64
    }

    /// The mean loss of the network on the samples `indices` of `data` (0 for none).
    pub fn loss(&self, data: &SparseDataset, indices: &[usize]) -> f64 {
        if indices.is_empty() {
            return 0.0;
        }
        let s = self.net.shape();
        let parts: Vec<f64> = indices
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut x = vec![0.0; s.concat()];
                let mut hidden = vec![0.0; s.l2.unwrap_or(0)];
                let mut out = vec![0.0; s.outputs];
                let mut views: Vec<&[u32]> = Vec::with_capacity(s.perspectives);
                let mut sum = 0.0f64;
                for &i in chunk {
                    views.clear();
                    views.extend((0..s.perspectives).map(|p| data.features(i, p)));
                    self.net.transform(&views, &mut x);
                    self.net.dense(&x, &mut hidden, &mut out);
                    let e: f32 = out
                        .iter()
                        .zip(data.target(i))
                        .map(|(o, t)| (o - t) * (o - t))
                        .sum();
                    sum += f64::from(e / s.outputs as f32);
                }
                sum
            })
            .collect();
        parts.iter().sum::<f64>() / indices.len() as f64
    }

    /// The trainer's state (network, Adam's moments and step, the caller's `extra`
    /// entries) as the bytes of a safetensors file.
    pub fn state_bytes(&self, extra: &BTreeMap<String, String>) -> Vec<u8> {
        let mut tensors = sparse_file::tensors(&self.net, "");
        let names = sparse_file::names(self.net.l1.is_some());
        for ((m, v), name) in self.m.iter().zip(&self.v).zip(names) {
            tensors.extend(linear_tensors(m, &format!("adam.m.{name}")));
            tensors.extend(linear_tensors(v, &format!("adam.v.{name}")));
        }
        let mut meta: HashMap<String, String> = sparse_file::meta(&self.net, SPARSE_STATE_FORMAT);
        meta.insert("step".to_string(), self.step.to_string());
        for (k, v) in extra {
            meta.insert(format!("state.{k}"), v.clone());
        }
        file::to_bytes(&tensors, meta)
    }

    /// Writes the trainer's state to `path`, whole or not at all.
    pub fn save_state(&self, path: &Path, extra: &BTreeMap<String, String>) -> Result<(), Error> {
        file::write_whole(path, &self.state_bytes(extra))
    }

    /// A trainer from a state's bytes (see [`state_bytes`](SparseTrainer::state_bytes)),
    /// with these settings, and the caller's entries.
    pub fn from_state_bytes(
        bytes: &[u8],
        settings: TrainSettings,
    ) -> Result<(SparseTrainer, BTreeMap<String, String>), Error> {
        let parsed = Parsed::open(bytes)?;
        let net = sparse_file::read(&parsed, "", SPARSE_STATE_FORMAT)?;
        if parsed.meta.get("format").map(String::as_str) != Some(SPARSE_STATE_FORMAT) {
            return Err(Error::field(
                "format",
                format!("not a trainer's state (format {SPARSE_STATE_FORMAT:?})"),
            ));
        }
        let m = sparse_file::read(&parsed, "adam.m.", SPARSE_STATE_FORMAT)?;
        let v = sparse_file::read(&parsed, "adam.v.", SPARSE_STATE_FORMAT)?;
        let step = parsed
            .meta
            .get("step")
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| Error::field("step", "missing or not a count"))?;
        let extra = parsed
            .meta
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("state.")?.to_string(), v.clone())))
            .collect();
        let trainer = SparseTrainer {
            m: m.layers().cloned().collect(),
            v: v.layers().cloned().collect(),
            net,
            settings,
            step,
            parts: Vec::new(),
        };
        Ok((trainer, extra))
    }

    /// A trainer from a state file written by [`save_state`](SparseTrainer::save_state);
    /// errors name the file.
    pub fn load_state(
        path: &Path,
        settings: TrainSettings,
    ) -> Result<(SparseTrainer, BTreeMap<String, String>), Error> {
        SparseTrainer::from_state_bytes(&file::read(path)?, settings).map_err(|e| e.in_file(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::sparse::tests::random_list;

    fn shape(l2: Option<usize>) -> SparseShape {
        SparseShape {
            features: 40,
            width: 16,
            perspectives: 2,
            l2,
            outputs: 2,
        }
    }

    /// Samples whose targets are a fixed function of the features: the first view's count
    /// of even features against the second's.
    fn data(n: usize, shape: SparseShape) -> SparseDataset {
        let mut d = SparseDataset::new(shape);
        let mut rng = Rng::new(6);
        for _ in 0..n {
            let f: Vec<Vec<u32>> = (0..2).map(|_| random_list(&mut rng, 40, 8)).collect();
            let even = |l: &[u32]| l.iter().filter(|&&x| x % 2 == 0).count() as f32;
            let t = ((even(&f[0]) - even(&f[1])) / 3.0).tanh();
            d.push(&f, &[t, -t]).unwrap();
        }
        d
    }

    #[test]
    fn the_gradient_is_the_loss_s_slope() {
        for l2 in [None, Some(6)] {
            let mut net = SparseNet::new("g", shape(l2), 2).unwrap();
            // Biases that keep most units inside the clipped ReLU's slope.
            for b in &mut net.ft.bias {
                *b = 0.4;
            }
            let d = data(1, shape(l2));
            let mut ft = vec![0.0; 40 * 16];
            let mut parts = Vec::new();
            SparseTrainer::gradient(&net, &d, &[0], &mut ft, &mut parts);
            let g = input_major(&parts[0].layers);
            let loss = |n: &SparseNet| {
                SparseTrainer::new(n.clone(), TrainSettings::default()).loss(&d, &[0])
            };
            let h = 1e-3;
            let check = |get: &dyn Fn(&mut SparseNet) -> &mut f32, got: f32| {
                let (mut up, mut down) = (net.clone(), net.clone());
                *get(&mut up) += h;
                *get(&mut down) -= h;
                let slope = (loss(&up) - loss(&down)) / (2.0 * f64::from(h));
                assert!((slope - f64::from(got)).abs() < 2e-3, "{got} vs {slope}");
            };
            let f = d.features(0, 1)[0] as usize;
            for u in 0..16 {
                check(&|n| &mut n.ft.weight[f * 16 + u], ft[f * 16 + u]);
                check(&|n| &mut n.ft.bias[u], g[0].bias[u]);
            }
            let last = g.len() - 1;
            for w in 0..net.out.weight.len() {
                check(&|n| &mut n.out.weight[w], g[last].weight[w]);
            }
            if l2.is_some() {
                for w in (0..net.l1.as_ref().unwrap().weight.len()).step_by(7) {
                    check(&|n| &mut n.l1.as_mut().unwrap().weight[w], g[1].weight[w]);
                }
            }
        }
    }

    #[test]
    fn it_learns_a_known_function_and_quantizes_without_clamps() {
        let s = shape(Some(8));
        let d = data(1200, s);
        let train: Vec<usize> = (0..1000).collect();
        let held: Vec<usize> = (1000..1200).collect();
        let settings = TrainSettings {
            batch: 32,
            learning_rate: 3e-3,
            ..TrainSettings::default()
        };
        let mut t = SparseTrainer::new(SparseNet::new("g", s, 1).unwrap(), settings);
        let before = t.loss(&d, &held);
        for e in 0..30 {
            t.epoch(&d, &train, e);
        }
        let after = t.loss(&d, &held);
        assert!(after < before / 4.0, "{before} -> {after}");
        let (_, report) = t.net().quantize();
        assert_eq!(report.clamped, 0);
    }

    #[test]
    fn clipping_keeps_weights_quantizable() {
        let s = shape(None);
        let d = data(200, s);
        let all: Vec<usize> = (0..200).collect();
        let settings = TrainSettings {
            learning_rate: 0.5,
            batch: 16,
            ..TrainSettings::default()
        };
        let mut t = SparseTrainer::new(SparseNet::new("g", s, 1).unwrap(), settings);
        for e in 0..5 {
            t.epoch(&d, &all, e);
        }
        assert!(t
            .net()
            .out
            .weight
            .iter()
            .any(|w| w.abs() == MAX_DENSE_WEIGHT));
        assert_eq!(t.net().quantize().1.clamped, 0);
    }

    fn run(
        threads: usize,
        epochs: std::ops::Range<u64>,
        from: Option<SparseTrainer>,
    ) -> SparseTrainer {
        let s = shape(Some(4));
        let d = data(300, s);
        let all: Vec<usize> = (0..300).collect();
        let settings = TrainSettings {
            batch: 70,
            ..TrainSettings::default()
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut t = from.unwrap_or_else(|| {
                SparseTrainer::new(SparseNet::new("g", s, 3).unwrap(), settings)
            });
            for e in epochs {
                t.epoch(&d, &all, e);
            }
            t
        })
    }

    #[test]
    fn threads_do_not_change_the_weights() {
        let one = run(1, 0..3, None).net().to_bytes();
        assert_eq!(one, run(3, 0..3, None).net().to_bytes());
    }

    #[test]
    fn a_resumed_trainer_ends_where_an_unbroken_one_does() {
        let whole = run(2, 0..4, None);
        let first = run(2, 0..2, None);
        let dir = std::env::temp_dir().join(format!("learn-sparse-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.safetensors");
        let extra = BTreeMap::from([("epoch".to_string(), "2".to_string())]);
        first.save_state(&path, &extra).unwrap();
        let (resumed, back) = SparseTrainer::load_state(&path, first.settings).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back["epoch"], "2");
        let resumed = run(1, 2..4, Some(resumed));
        assert_eq!(resumed.net().to_bytes(), whole.net().to_bytes());
        assert_eq!(resumed.state_bytes(&extra), whole.state_bytes(&extra));
        // A network file is not a state file, nor the reverse.
        let e =
            SparseTrainer::from_state_bytes(&whole.net().to_bytes(), whole.settings).unwrap_err();
        assert!(matches!(e, Error::Field { .. }), "{e}");
        let e = SparseNet::from_bytes(&whole.state_bytes(&extra)).unwrap_err();
        assert!(matches!(e, Error::Field { .. }), "{e}");
    }

    #[test]
    fn bad_samples_are_refused() {
        let mut d = SparseDataset::new(shape(None));
        assert!(d.push(&[vec![1u32]], &[0.0, 0.0]).is_err());
        assert!(d.push(&[vec![1u32], vec![40]], &[0.0, 0.0]).is_err());
        assert!(d.push(&[vec![1u32], vec![2]], &[0.0, 2.0]).is_err());
        assert!(d.push(&[vec![1u32], vec![2]], &[0.0]).is_err());
        assert!(d.is_empty());
        d.push(&[vec![1u32, 3], vec![]], &[0.5, -0.5]).unwrap();
        assert_eq!(
            (d.len(), d.features(0, 0), d.features(0, 1)),
            (1, &[1u32, 3][..], &[][..])
        );
    }
}
