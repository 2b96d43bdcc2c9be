//! Training: a data set of (input, target) pairs, mean squared error on the tanh outputs,
//! Adam, minibatches in a seeded order.
//!
//! **Reproducible**: an epoch's order is a function of the seed and the epoch's number, and
//! a batch's gradient is summed from fixed chunks of samples in a fixed order, whatever the
//! number of threads; so the same data, settings and seed give the same weights bit for bit,
//! and a trainer saved after epoch `k` ([`Trainer::save_state`]) and resumed gives what an
//! unbroken run gives.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use rayon::prelude::*;

use crate::file::{self, Parsed, STATE_FORMAT};
use crate::net::{axpy, dot, Layer};
use crate::rng::{shuffle, Rng};
use crate::{Error, Net};

/// Samples of one gradient chunk: the unit of work side by side, and of the fixed summing
/// order.
pub(crate) const CHUNK: usize = 32;

/// Inputs and targets, each sample a row of fixed length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    inputs: usize,
    outputs: usize,
    x: Vec<f32>,
    y: Vec<f32>,
}

impl Dataset {
    /// An empty set of samples of `inputs` inputs and `outputs` targets.
    pub fn new(inputs: usize, outputs: usize) -> Dataset {
        Dataset {
            inputs,
            outputs,
            x: Vec::new(),
            y: Vec::new(),
        }
    }

    /// Adds a sample; an error when a length is not the set's or a number is not finite
    /// (targets must be in −1 … 1, the network's range).
    pub fn push(&mut self, input: &[f32], target: &[f32]) -> Result<(), Error> {
        if input.len() != self.inputs || target.len() != self.outputs {
            return Err(Error::shape(format!(
                "a sample of {} inputs and {} targets for a set of {} and {}",
                input.len(),
                target.len(),
                self.inputs,
                self.outputs
            )));
        }
        if input.iter().any(|v| !v.is_finite()) {
            return Err(Error::shape("an input that is not a finite number"));
        }
        if target.iter().any(|v| !(-1.0..=1.0).contains(v)) {
            return Err(Error::shape(format!(
                "targets {target:?}: each must be in -1 … 1"
            )));
        }
        self.x.extend_from_slice(input);
        self.y.extend_from_slice(target);
        Ok(())
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.x.len().checked_div(self.inputs).unwrap_or(0)
    }

    /// True when there is no sample.
    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    /// The number of inputs of a sample.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The number of targets of a sample.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// Sample `i`'s input.
    pub fn input(&self, i: usize) -> &[f32] {
        &self.x[i * self.inputs..(i + 1) * self.inputs]
    }

    /// Sample `i`'s target.
    pub fn target(&self, i: usize) -> &[f32] {
        &self.y[i * self.outputs..(i + 1) * self.outputs]
    }

    /// Replaces sample `i`'s target (TD targets change as the network learns); the values
    /// are clamped to −1 … 1.
    pub fn set_target(&mut self, i: usize, target: &[f32]) {
        let t = &mut self.y[i * self.outputs..(i + 1) * self.outputs];
        for (dst, &v) in t.iter_mut().zip(target) {
            *dst = v.clamp(-1.0, 1.0);
        }
    }
}

/// How the trainer learns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainSettings {
    /// Adam's step size. Default 0.001.
    pub learning_rate: f32,
    /// Samples per step. Default 256.
    pub batch: usize,
    /// Decoupled weight decay per step, relative to the learning rate (AdamW). Default 0.
    pub weight_decay: f32,
    /// The seed of every epoch's order. Default 1.
    pub seed: u64,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            learning_rate: 1e-3,
            batch: 256,
            weight_decay: 0.0,
            seed: 1,
        }
    }
}

impl TrainSettings {
    /// Checks the settings: a positive, finite learning rate; a batch of at least 1; a
    /// weight decay of at least 0.
    pub fn check(&self) -> Result<(), Error> {
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return Err(Error::shape(format!(
                "learning rate {}: a positive number",
                self.learning_rate
            )));
        }
        if self.batch == 0 {
            return Err(Error::shape("batch 0: at least 1 sample a step"));
        }
        if !(self.weight_decay.is_finite() && self.weight_decay >= 0.0) {
            return Err(Error::shape(format!(
                "weight decay {}: 0 or more",
                self.weight_decay
            )));
        }
        Ok(())
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// A network being trained, with Adam's moments.
#[derive(Clone, Debug)]
pub struct Trainer {
    net: Net,
    settings: TrainSettings,
    /// Adam's first and second moments, shaped as the layers.
    m: Vec<Layer>,
    v: Vec<Layer>,
    step: u64,
}

/// Zeros shaped as `layers`.
pub(crate) fn zeros(layers: &[Layer]) -> Vec<Layer> {
    layers
        .iter()
        .map(|l| Layer {
            inputs: l.inputs,
            outputs: l.outputs,
            weight: vec![0.0; l.weight.len()],
            bias: vec![0.0; l.bias.len()],
        })
        .collect()
}

/// The gradient of a chunk (and its loss).
struct Grad {
    layers: Vec<Layer>,
    loss: f64,
}

impl Grad {
    fn add(&mut self, other: &Grad) {
        for (a, b) in self.layers.iter_mut().zip(&other.layers) {
            axpy(&mut a.weight, 1.0, &b.weight);
            axpy(&mut a.bias, 1.0, &b.bias);
        }
        self.loss += other.loss;
    }
}

/// Adds to `g` the gradient of one sample's loss (the mean of the squared errors of the
/// outputs); returns the loss. `acts` and `deltas` are work buffers shaped as the layers'
/// outputs.
fn backprop(
    net: &Net,
    x: &[f32],
    y: &[f32],
    g: &mut [Layer],
    acts: &mut [Vec<f32>],
    deltas: &mut [Vec<f32>],
) -> f64 {
    let n = net.layers.len();
    for l in 0..n {
        let (before, rest) = acts.split_at_mut(l);
        let input: &[f32] = if l == 0 { x } else { &before[l - 1] };
        net.layers[l].apply(input, &mut rest[0]);
        let last = l + 1 == n;
        for v in rest[0].iter_mut() {
            *v = if last { v.tanh() } else { v.max(0.0) };
        }
    }
    let out = &acts[n - 1];
    let k = out.len() as f32;
    let mut loss = 0.0f64;
    for ((d, &o), &t) in deltas[n - 1].iter_mut().zip(out).zip(y) {
        let e = o - t;
        loss += f64::from(e * e);
        *d = 2.0 * e / k * (1.0 - o * o);
    }
    for l in (0..n).rev() {
        let input: &[f32] = if l == 0 { x } else { &acts[l - 1] };
        let layer = &net.layers[l];
        let (lower, upper) = deltas.split_at_mut(l);
        let delta = &upper[0];
        let gl = &mut g[l];
        for (i, &a) in input.iter().enumerate() {
            if a != 0.0 {
                axpy(
                    &mut gl.weight[i * layer.outputs..(i + 1) * layer.outputs],
                    a,
                    delta,
                );
            }
        }
        axpy(&mut gl.bias, 1.0, delta);
        if l > 0 {
            for (i, d) in lower[l - 1].iter_mut().enumerate() {
                *d = if input[i] > 0.0 {
                    dot(layer.row(i), delta)
                } else {
                    0.0
                };
            }
        }
    }
    loss / f64::from(k)
}

/// `indices` in the seeded order of epoch `epoch`.
pub(crate) fn epoch_order(indices: &[usize], seed: u64, epoch: u64) -> Vec<usize> {
    let mut order = indices.to_vec();
    let mut rng = Rng::new(seed ^ epoch.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    shuffle(&mut order, &mut rng);
    order
}

/// One Adam step's constants (AdamW's decoupled decay), for a gradient summed over a
/// batch.
pub(crate) struct Adam {
    lr: f32,
    decay: f32,
    c1: f32,
    c2: f32,
    scale: f32,
}

impl Adam {
    /// Step number `step` (from 1) on a gradient summed over `count` samples.
    pub(crate) fn new(settings: &TrainSettings, step: u64, count: usize) -> Adam {
        let t = step as i32;
        Adam {
            lr: settings.learning_rate,
            decay: settings.weight_decay,
            c1: 1.0 - BETA1.powi(t),
            c2: 1.0 - BETA2.powi(t),
            scale: 1.0 / count as f32,
        }
    }

    /// Updates the parameters `p` and their moments `m`, `v` by the summed gradient `g`.
    pub(crate) fn update(&self, p: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32]) {
        for (((p, m), v), &g) in p.iter_mut().zip(m).zip(v).zip(g) {
            let g = g * self.scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let step = (*m / self.c1) / ((*v / self.c2).sqrt() + EPSILON);
            *p -= self.lr * (step + self.decay * *p);
        }
    }

    /// Updates a layer's weights and biases.
    pub(crate) fn layer(&self, layer: &mut Layer, m: &mut Layer, v: &mut Layer, g: &Layer) {
        self.update(&mut layer.weight, &mut m.weight, &mut v.weight, &g.weight);
        self.update(&mut layer.bias, &mut m.bias, &mut v.bias, &g.bias);
    }
}

impl Trainer {
    /// A trainer of `net` (Adam's moments at 0).
    pub fn new(net: Net, settings: TrainSettings) -> Trainer {
        let m = zeros(&net.layers);
        let v = zeros(&net.layers);
        Trainer {
            net,
            settings,
            m,
            v,
            step: 0,
        }
    }

    /// The network as trained so far.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The network, for its notes.
    pub fn net_mut(&mut self) -> &mut Net {
        &mut self.net
    }

    /// The steps taken so far.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// The gradient (summed) and loss (summed) of the samples `batch` of `data`, in fixed
    /// chunks summed in order.
    fn gradient(&self, data: &Dataset, batch: &[usize]) -> Grad {
        let sizes: Vec<usize> = self.net.layers.iter().map(|l| l.outputs).collect();
        let parts: Vec<Grad> = batch
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut g = Grad {
                    layers: zeros(&self.net.layers),
                    loss: 0.0,
                };
                let mut acts: Vec<Vec<f32>> = sizes.iter().map(|&s| vec![0.0; s]).collect();
                let mut deltas = acts.clone();
                for &i in chunk {
                    g.loss += backprop(
                        &self.net,
                        data.input(i),
                        data.target(i),
                        &mut g.layers,
                        &mut acts,
                        &mut deltas,
                    );
                }
                g
            })
            .collect();
        let mut parts = parts.into_iter();
        let mut total = parts.next().expect("a batch of at least one sample");
        for p in parts {
            total.add(&p);
        }
        total
    }

    /// One Adam step on a gradient summed over `count` samples.
    fn adam(&mut self, g: &Grad, count: usize) {
        self.step += 1;
        let adam = Adam::new(&self.settings, self.step, count);
        for (l, layer) in self.net.layers.iter_mut().enumerate() {
            adam.layer(layer, &mut self.m[l], &mut self.v[l], &g.layers[l]);
        }
    }

    /// One pass over the samples `indices` of `data` in the order of `epoch` (seeded), a step
    /// a batch; returns the mean loss met on the way (each sample's loss before its step).
    ///
    /// # Panics
    /// When `data`'s shape is not the network's (a caller's bug).
    pub fn epoch(&mut self, data: &Dataset, indices: &[usize], epoch: u64) -> f64 {
        assert_eq!(
            (data.inputs(), data.outputs()),
            (self.net.inputs(), self.net.outputs()),
            "the data's shape is the network's"
        );
        if indices.is_empty() {
            return 0.0;
        }
        let order = epoch_order(indices, self.settings.seed, epoch);
        let mut loss = 0.0;
        for batch in order.chunks(self.settings.batch.max(1)) {
            let g = self.gradient(data, batch);
            loss += g.loss;
            self.adam(&g, batch.len());
        }
        loss / indices.len() as f64
    }

    /// The mean loss of the network on the samples `indices` of `data` (0 for none).
    pub fn loss(&self, data: &Dataset, indices: &[usize]) -> f64 {
        loss(&self.net, data, indices)
    }

    /// Writes the trainer's state (the network, Adam's moments and step, and the caller's
    /// `extra` entries) to `path`, whole or not at all.
    pub fn save_state(&self, path: &Path, extra: &BTreeMap<String, String>) -> Result<(), Error> {
        let mut tensors = file::layer_tensors(&self.net.layers, "");
        tensors.extend(file::layer_tensors(&self.m, "adam.m."));
        tensors.extend(file::layer_tensors(&self.v, "adam.v."));
        let mut meta: HashMap<String, String> = file::net_meta(&self.net, STATE_FORMAT);
        meta.insert("step".to_string(), self.step.to_string());
        for (k, v) in extra {
            meta.insert(format!("state.{k}"), v.clone());
        }
        file::write_whole(path, &file::to_bytes(&tensors, meta))
    }

    /// A trainer from a state file written by [`save_state`](Trainer::save_state), with
    /// these settings, and the caller's entries; errors name the file.
    pub fn load_state(
        path: &Path,
        settings: TrainSettings,
    ) -> Result<(Trainer, BTreeMap<String, String>), Error> {
        let bytes = file::read(path)?;
        Trainer::state_from_bytes(&bytes, settings).map_err(|e| e.in_file(path))
    }

    fn state_from_bytes(
        bytes: &[u8],
        settings: TrainSettings,
    ) -> Result<(Trainer, BTreeMap<String, String>), Error> {
        let parsed = Parsed::new(bytes, STATE_FORMAT, false)?;
        let net = parsed.net()?;
        let (m, v) = (parsed.layers("adam.m.")?, parsed.layers("adam.v.")?);
        let shapes = |ls: &[Layer]| ls.iter().map(|l| (l.inputs, l.outputs)).collect::<Vec<_>>();
        if shapes(&m) != shapes(&net.layers) || shapes(&v) != shapes(&net.layers) {
            return Err(Error::corrupt(
                "Adam's moments are not shaped as the network",
            ));
        }
        let step = parsed
            .meta
            .get("step")
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| Error::corrupt("no step count"))?;
        let extra = parsed
            .meta
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("state.")?.to_string(), v.clone())))
            .collect();
        Ok((
            Trainer {
                net,
                settings,
                m,
                v,
                step,
            },
            extra,
        ))
    }
}

/// The mean loss of `net` on the samples `indices` of `data` (0 for none), summed in fixed
/// chunks in order.
pub fn loss(net: &Net, data: &Dataset, indices: &[usize]) -> f64 {
    if indices.is_empty() {
        return 0.0;
    }
    let parts: Vec<f64> = indices
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut work = vec![0.0; net.work_len()];
            let mut out = vec![0.0; net.outputs()];
            let mut sum = 0.0f64;
            for &i in chunk {
                net.forward(data.input(i), &mut work, &mut out);
                let e: f32 = out
                    .iter()
                    .zip(data.target(i))
                    .map(|(o, t)| (o - t) * (o - t))
                    .sum();
                sum += f64::from(e / out.len() as f32);
            }
            sum
        })
        .collect();
    parts.iter().sum::<f64>() / indices.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples of y = tanh(x0 − x1) with two noise inputs.
    fn data(n: usize) -> Dataset {
        let mut d = Dataset::new(4, 1);
        let mut rng = Rng::new(9);
        for _ in 0..n {
            let x = [rng.symmetric(), rng.symmetric(), rng.symmetric(), 0.0];
            d.push(&x, &[(x[0] - x[1]).tanh()]).unwrap();
        }
        d
    }

    #[test]
    fn the_gradient_is_the_loss_s_slope() {
        let net = Net::new("g", &[4, 5, 3, 2], 4).unwrap();
        let mut d = Dataset::new(4, 2);
        d.push(&[0.5, -1.0, 0.0, 2.0], &[0.3, -0.7]).unwrap();
        let trainer = Trainer::new(net.clone(), TrainSettings::default());
        let g = trainer.gradient(&d, &[0]);
        let h = 1e-3;
        for l in 0..net.layers.len() {
            for w in 0..net.layers[l].weight.len() {
                let mut up = net.clone();
                up.layers[l].weight[w] += h;
                let mut down = net.clone();
                down.layers[l].weight[w] -= h;
                let slope = (loss(&up, &d, &[0]) - loss(&down, &d, &[0])) / (2.0 * f64::from(h));
                let got = f64::from(g.layers[l].weight[w]);
                assert!(
                    (slope - got).abs() < 2e-3,
                    "layer {l} weight {w}: {got} vs {slope}"
                );
            }
        }
    }

    #[test]
    fn it_learns_a_known_function() {
        let d = data(2000);
        let train: Vec<usize> = (0..1600).collect();
        let held: Vec<usize> = (1600..2000).collect();
        let net = Net::new("g", &[4, 16, 1], 2).unwrap();
        let settings = TrainSettings {
            batch: 32,
            ..TrainSettings::default()
        };
        let mut t = Trainer::new(net, settings);
        let before = t.loss(&d, &held);
        for e in 0..40 {
            t.epoch(&d, &train, e);
        }
        let after = t.loss(&d, &held);
        assert!(after < 0.01 && after < before / 10.0, "{before} -> {after}");
    }

    #[test]
    fn a_resumed_trainer_ends_where_an_unbroken_one_does() {
        let d = data(300);
        let all: Vec<usize> = (0..300).collect();
        let settings = TrainSettings {
            batch: 40,
            ..TrainSettings::default()
        };
        let mut whole = Trainer::new(Net::new("g", &[4, 8, 1], 3).unwrap(), settings);
        for e in 0..6 {
            whole.epoch(&d, &all, e);
        }
        let mut first = Trainer::new(Net::new("g", &[4, 8, 1], 3).unwrap(), settings);
        for e in 0..3 {
            first.epoch(&d, &all, e);
        }
        let bytes = {
            let dir = std::env::temp_dir().join(format!("learn-state-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("state.safetensors");
            let extra = BTreeMap::from([("epoch".to_string(), "3".to_string())]);
            first.save_state(&path, &extra).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            std::fs::remove_dir_all(&dir).unwrap();
            bytes
        };
        let (mut resumed, extra) = Trainer::state_from_bytes(&bytes, settings).unwrap();
        assert_eq!(extra["epoch"], "3");
        for e in 3..6 {
            resumed.epoch(&d, &all, e);
        }
        assert_eq!(resumed.net(), whole.net());
        assert_eq!(resumed.steps(), whole.steps());
        // A network file is not a state file.
        let e = Trainer::state_from_bytes(&whole.net().to_bytes(), settings).unwrap_err();
        assert!(matches!(e, Error::Foreign { .. }), "{e}");
    }

    #[test]
    fn threads_do_not_change_the_weights() {
        let d = data(500);
        let all: Vec<usize> = (0..500).collect();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut t = Trainer::new(
                    Net::new("g", &[4, 8, 1], 3).unwrap(),
                    TrainSettings::default(),
                );
                for e in 0..3 {
                    t.epoch(&d, &all, e);
                }
                t.net().clone()
            })
        };
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn bad_samples_and_settings_are_refused() {
        let mut d = Dataset::new(2, 1);
        assert!(d.push(&[1.0], &[0.0]).is_err());
        assert!(d.push(&[1.0, f32::NAN], &[0.0]).is_err());
        assert!(d.push(&[1.0, 0.0], &[2.0]).is_err());
        assert!(d.is_empty());
        let bad = TrainSettings {
            learning_rate: 0.0,
            ..TrainSettings::default()
        };
        assert!(bad.check().is_err());
        assert!(TrainSettings::default().check().is_ok());
    }
}
