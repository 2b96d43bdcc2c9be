//! The NNUE shape for any game: a network whose input is a list of **active features**
//! (indices below `F`, each worth 1), a first layer (the *feature transformer*) shared by
//! every player's view, an optional second hidden layer, and one output per player; its
//! integer twin for a search ([`QuantNet`]), kept up to date incrementally by an
//! accumulator per search thread ([`SparseAccumulator`]); a trainer ([`SparseTrainer`]) and
//! files ([`file`](mod@file)).
//!
//! ```
//! use std::sync::Arc;
//! use plyforge_learn::sparse::{
//!     blend_target, Delta, SparseAccumulator, SparseDataset, SparseNet, SparseShape,
//!     SparseTrainer,
//! };
//! use plyforge_learn::TrainSettings;
//!
//! // 64 features (say a piece of one of 2 players on one of 32 cells), 32 hidden units,
//! // both players' views (the mover's first), no second hidden layer, 2 outputs.
//! let shape = SparseShape { features: 64, width: 32, perspectives: 2, l2: None, outputs: 2 };
//!
//! // Training: positions as active features per view, targets per player in −1 … 1.
//! let mut data = SparseDataset::new(shape);
//! for i in 0..64u32 {
//!     // The mover is better off the more of features 0..8 it has (a made-up rule).
//!     let mine: Vec<u32> = (0..8).filter(|f| i & (1 << (f % 6)) != 0).collect();
//!     let theirs: Vec<u32> = vec![32 + i % 32];
//!     let t = blend_target(if mine.len() > 3 { 1.0 } else { -1.0 }, 0.0, 400.0, 0.8);
//!     data.push(&[&mine[..], &theirs[..]], &[t, -t])?;
//! }
//! let settings = TrainSettings { batch: 16, learning_rate: 3e-3, ..TrainSettings::default() };
//! let mut trainer = SparseTrainer::new(SparseNet::new("toy", shape, 7)?, settings);
//! let all: Vec<usize> = (0..data.len()).collect();
//! let before = trainer.loss(&data, &all);
//! for epoch in 0..30 {
//!     trainer.epoch(&data, &all, epoch);
//! }
//! assert!(trainer.loss(&data, &all) < before);
//! let net = trainer.net().clone();
//! let net = SparseNet::from_bytes(&net.to_bytes())?; // a safetensors file, and back
//!
//! // The integer network a search uses, shared by its threads.
//! let (quant, report) = net.quantize();
//! assert_eq!(report.clamped, 0);
//! let quant = Arc::new(quant);
//!
//! // Per search thread: an accumulator, and buffers for the features (sorted, no
//! // repeats), filled anew at each leaf without allocating.
//! let mut acc = SparseAccumulator::new();
//! let mut views: Vec<Vec<u32>> = vec![Vec::with_capacity(32); 2];
//! let mut out = [0.0f32; 2];
//! for (view, list) in views.iter_mut().zip([[1, 5, 40], [3, 33, 41]]) {
//!     view.clear();
//!     view.extend_from_slice(&list);
//! }
//! quant.evaluate(&views, &mut acc, &mut out);
//! // The next leaf: one feature moved in each view; the accumulator finds what changed.
//! views[0][1] = 6;
//! views[1][1] = 34;
//! quant.evaluate(&views, &mut acc, &mut out);
//! // Or the game says what the move changed (cheaper: no lists to compare).
//! let moved = [Delta { added: &[7], removed: &[6] }, Delta { added: &[35], removed: &[34] }];
//! quant.evaluate_after(&moved, &mut acc, &mut out);
//! // The integer network is within its rounding of the float one.
//! let float = net.evaluate(&[[1, 7, 40], [3, 35, 41]])?;
//! assert!((out[0] - float[0]).abs() < 0.05 && (out[1] - float[1]).abs() < 0.05);
//! # Ok::<(), plyforge_learn::Error>(())
//! ```
//!
//! # In a search
//!
//! The evaluation (`plyforge`'s facade) holds the [`QuantNet`] in an `Arc` (it is
//! `Send + Sync`; its [`id`](QuantNet::id) tells an accumulator which network its sums
//! are of) and, per search thread, a [`SparseAccumulator`] and `P` feature buffers. At a
//! leaf it asks the game for each view's sorted active features into the buffers and
//! calls [`QuantNet::evaluate`]`(&buffers, &mut acc, &mut out)`: one `f32` per output,
//! −1 … 1, a function of the position alone (whatever the thread evaluated before). A
//! game that knows a move's changed features may call [`QuantNet::evaluate_after`] with
//! them instead, for the position that follows the accumulator's last one. Nothing calls
//! back into the search.
//!
//! Measured on the bench's walk (`benches/sparse.rs`: 512 features, 24 active a view, 2–4
//! of them changed a leaf, no second hidden layer, 2 outputs), instructions a leaf by
//! callgrind (AVX2 / portable) and the fastest of interleaved criterion runs on a shared
//! 2-core machine (AVX2):
//!
//! | leaf | width 64 | 128 | 256 |
//! | --- | --- | --- | --- |
//! | 1 view, explicit changes | 538 / 690 instr., 32–52 ns | 649 / 1039, 59 ns | 871 / 1737, 95 ns |
//! | 1 view, lists | 1013 / 1162, 55–81 ns | 1122 / 1494, 88 ns | 1338 / 2160, 116 ns |
//! | 2 views, explicit changes | 859 / 1163, 79 ns | 1081 / 1860, 99 ns | 1524 / 3254, 91–134 ns |
//! | 2 views, lists | 1802 / 2099, 132 ns | 2014 / 2749, 174 ns | 2439 / 4038, 135–197 ns |
//!
//! A second hidden layer of 16 (2 views of 128) costs 2450 instructions from explicit
//! changes and 3321 from lists.
//!
//! # The model
//!
//! For a position, each of the `P` perspectives (1: the player to move's view only; the
//! number of players: one view per player, the mover's first, then the others in turn
//! order) is a sorted list of active features, each below `F` (the game decides what a
//! feature is, usually a piece of a player, relative to the viewer, on a cell). Then:
//!
//! ```text
//! a_p = clamp(ft.bias + Σ_{f active in view p} ft.weight[:, f], 0, 1)   (H each, shared weights)
//! x   = [a_0, a_1, …, a_{P−1}]                                          (P·H)
//! x   = clamp(l1.weight · x + l1.bias, 0, 1)                            (L2, only with l2)
//! out = tanh(out.weight · x + out.bias)                                 (O)
//! ```
//!
//! The same module in PyTorch (its `state_dict()` saved with
//! `safetensors.torch.save_file(model.state_dict(), path, metadata={"kind": "sparse",
//! "game": NAME, "perspectives": str(P)})` loads with [`SparseNet::load`]; the inputs there are
//! multi-hot, `x[b, p, f] = 1` for an active feature):
//!
//! ```python
//! class Sparse(nn.Module):
//!     def __init__(self, F, H, P, L2, O):
//!         super().__init__()
//!         self.ft = nn.Linear(F, H)             # shared by the P perspectives
//!         self.l1 = nn.Linear(P * H, L2) if L2 else None
//!         self.out = nn.Linear(L2 or P * H, O)
//!     def forward(self, x):                     # x: [batch, P, F], 0/1
//!         x = torch.clamp(self.ft(x), 0, 1).flatten(1)
//!         if self.l1 is not None:
//!             x = torch.clamp(self.l1(x), 0, 1)
//!         return torch.tanh(self.out(x))
//! ```
//!
//! To train it as [`SparseTrainer`] does (so that nothing is lost to quantization), clamp
//! after each step `l1.weight` and `out.weight` to ±[`MAX_DENSE_WEIGHT`] and `ft.weight`,
//! `ft.bias` to ±[`MAX_FT_WEIGHT`] (see [`quant`] for why).
//!
//! The rooms: this module (the shape and the float network), [`quant`] (the integer
//! network and its scales), [`accumulator`] (the first layer kept up to date),
//! [`kernels`] (the loops, and the choice of SIMD at run time), [`train`] (data set and
//! trainer), [`file`](mod@file) (safetensors files).

pub mod accumulator;
pub mod file;
pub mod kernels;
pub mod quant;
pub mod train;

use std::collections::BTreeMap;

use crate::net::{Layer, MAX_PARAMS};
use crate::rng::Rng;
use crate::Error;

pub use accumulator::{Delta, SparseAccumulator};
pub use quant::{QuantNet, QuantReport, MAX_DENSE_WEIGHT, MAX_FT_WEIGHT};
pub use train::{blend_target, SparseDataset, SparseTrainer};

/// The most perspectives a network may have (the most players a game of this workspace
/// has, with room to spare).
pub const MAX_PERSPECTIVES: usize = 8;

/// The shape of a sparse network, chosen by its user.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SparseShape {
    /// `F`: the number of features; an active feature is an index below it.
    pub features: usize,
    /// `H`: the feature transformer's width (per perspective). Multiples of 32 run fastest.
    pub width: usize,
    /// `P`: 1 (the mover's view alone) or the number of players (a view per player, the
    /// mover's first, then the others in turn order), at most [`MAX_PERSPECTIVES`].
    pub perspectives: usize,
    /// `L2`: the width of the second hidden layer, or `None` for none.
    pub l2: Option<usize>,
    /// `O`: the number of outputs (one value per player, −1 … 1).
    pub outputs: usize,
}

impl SparseShape {
    /// The width of the concatenated views, `P · H`.
    pub fn concat(&self) -> usize {
        self.perspectives * self.width
    }

    /// The inputs of the output layer: `L2`, or `P · H` without a second hidden layer.
    pub fn out_inputs(&self) -> usize {
        self.l2.unwrap_or(self.concat())
    }

    /// The number of weights and biases (`None` when it overflows).
    pub fn params(&self) -> Option<usize> {
        let ft = self
            .features
            .checked_mul(self.width)?
            .checked_add(self.width)?;
        let l1 = match self.l2 {
            Some(l2) => self.concat().checked_mul(l2)?.checked_add(l2)?,
            None => 0,
        };
        let out = self
            .out_inputs()
            .checked_mul(self.outputs)?
            .checked_add(self.outputs)?;
        ft.checked_add(l1)?.checked_add(out)
    }

    /// Checks the shape: no size 0, `P` in 1 ..= [`MAX_PERSPECTIVES`], `P · H` and `L2` at
    /// most 65536 (so that the integer sums fit an `i32`), features that fit a `u32`, at
    /// most [`MAX_PARAMS`] weights.
    pub fn check(&self) -> Result<(), Error> {
        let sizes = [
            ("features", self.features),
            ("width", self.width),
            ("perspectives", self.perspectives),
            ("l2", self.l2.unwrap_or(1)),
            ("outputs", self.outputs),
        ];
        if let Some((name, _)) = sizes.iter().find(|(_, s)| *s == 0) {
            return Err(Error::shape(format!("sparse shape {self:?}: {name} is 0")));
        }
        if self.perspectives > MAX_PERSPECTIVES {
            return Err(Error::shape(format!(
                "sparse shape {self:?}: at most {MAX_PERSPECTIVES} perspectives"
            )));
        }
        if self.concat() > 1 << 16 || self.l2.is_some_and(|l2| l2 > 1 << 16) {
            return Err(Error::shape(format!(
                "sparse shape {self:?}: a layer of more than 65536 inputs"
            )));
        }
        if u32::try_from(self.features).is_err() {
            return Err(Error::shape(format!(
                "sparse shape {self:?}: features must fit a u32"
            )));
        }
        match self.params() {
            Some(p) if p <= MAX_PARAMS => Ok(()),
            _ => Err(Error::shape(format!(
                "sparse shape {self:?}: more than {MAX_PARAMS} weights"
            ))),
        }
    }
}

/// The float network (for training, files, and as the definition the integer network
/// follows): see [the module](self) for the model.
#[derive(Clone, Debug, PartialEq)]
pub struct SparseNet {
    game: String,
    shape: SparseShape,
    /// The feature transformer: `F` inputs, `H` outputs, feature-major (row `f` is what
    /// feature `f` adds).
    pub(crate) ft: Layer,
    /// The second hidden layer: `P · H` inputs, `L2` outputs, input-major.
    pub(crate) l1: Option<Layer>,
    /// The output layer, input-major.
    pub(crate) out: Layer,
    notes: BTreeMap<String, String>,
}

impl SparseNet {
    /// A network of this shape for the game `game`, its weights drawn from `seed`: the
    /// feature transformer's uniform in ±0.2 whatever `F` (a view sums a few dozen rows),
    /// the second hidden layer's by He's bound, the output's by Glorot's; biases 0.
    pub fn new(game: &str, shape: SparseShape, seed: u64) -> Result<SparseNet, Error> {
        shape.check()?;
        let mut rng = Rng::new(seed);
        let ft = Layer::uniform(shape.features, shape.width, 0.2, &mut rng);
        let l1 = shape.l2.map(|l2| {
            let bound = (6.0 / shape.concat() as f32).sqrt();
            Layer::uniform(shape.concat(), l2, bound, &mut rng)
        });
        let n = shape.out_inputs();
        let bound = (6.0 / (n + shape.outputs) as f32).sqrt();
        let out = Layer::uniform(n, shape.outputs, bound, &mut rng);
        Ok(SparseNet {
            game: game.to_string(),
            shape,
            ft,
            l1,
            out,
            notes: BTreeMap::new(),
        })
    }

    /// A network from its layers (checked by the caller to chain as `shape` says).
    pub(crate) fn from_parts(
        game: String,
        shape: SparseShape,
        ft: Layer,
        l1: Option<Layer>,
        out: Layer,
        notes: BTreeMap<String, String>,
    ) -> SparseNet {
        SparseNet {
            game,
            shape,
            ft,
            l1,
            out,
            notes,
        }
    }

    /// The game it was made for.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Its shape.
    pub fn shape(&self) -> SparseShape {
        self.shape
    }

    /// Notes on how it was made, kept in its file.
    pub fn notes(&self) -> &BTreeMap<String, String> {
        &self.notes
    }

    /// Sets a note.
    pub fn set_note(&mut self, key: &str, value: impl Into<String>) {
        self.notes.insert(key.to_string(), value.into());
    }

    /// The layers in order: the feature transformer, the second hidden layer if any, the
    /// output layer.
    pub(crate) fn layers(&self) -> impl Iterator<Item = &Layer> {
        std::iter::once(&self.ft)
            .chain(self.l1.as_ref())
            .chain(std::iter::once(&self.out))
    }

    /// The layers, mutably, in the same order.
    pub(crate) fn layers_mut(&mut self) -> impl Iterator<Item = &mut Layer> {
        std::iter::once(&mut self.ft)
            .chain(self.l1.as_mut())
            .chain(std::iter::once(&mut self.out))
    }

    /// Checks that `features` is one list per perspective, each sorted without repeats and
    /// below `F`.
    pub fn check_features<L: AsRef<[u32]>>(&self, features: &[L]) -> Result<(), Error> {
        check_features(&self.shape, features)
    }

    /// The outputs for the active features of each perspective (the float model,
    /// allocating: for tools, tests and as the definition; a search uses [`QuantNet`]).
    pub fn evaluate<L: AsRef<[u32]>>(&self, features: &[L]) -> Result<Vec<f32>, Error> {
        self.check_features(features)?;
        let mut x = vec![0.0; self.shape.concat()];
        self.transform(features, &mut x);
        let mut out = vec![0.0; self.shape.outputs];
        let mut hidden = vec![0.0; self.shape.l2.unwrap_or(0)];
        self.dense(&x, &mut hidden, &mut out);
        Ok(out)
    }

    /// The feature transformer's clipped outputs, view after view, into `x` (`P · H`).
    pub(crate) fn transform<L: AsRef<[u32]>>(&self, features: &[L], x: &mut [f32]) {
        for (view, a) in features.iter().zip(x.chunks_exact_mut(self.shape.width)) {
            a.copy_from_slice(&self.ft.bias);
            for &f in view.as_ref() {
                crate::net::axpy(a, 1.0, self.ft.row(f as usize));
            }
            for v in a {
                *v = v.clamp(0.0, 1.0);
            }
        }
    }

    /// The layers after the feature transformer, from its clipped outputs `x`: the second
    /// hidden layer's clipped values into `hidden` (empty without one), the outputs
    /// (after tanh) into `out`.
    pub(crate) fn dense(&self, x: &[f32], hidden: &mut [f32], out: &mut [f32]) {
        let x = match &self.l1 {
            Some(l1) => {
                l1.apply(x, hidden);
                for v in hidden.iter_mut() {
                    *v = v.clamp(0.0, 1.0);
                }
                &*hidden
            }
            None => x,
        };
        self.out.apply(x, out);
        for v in out {
            *v = v.tanh();
        }
    }
}

/// Checks a sample's features against a shape (see [`SparseNet::check_features`]).
pub(crate) fn check_features<L: AsRef<[u32]>>(
    shape: &SparseShape,
    features: &[L],
) -> Result<(), Error> {
    if features.len() != shape.perspectives {
        return Err(Error::shape(format!(
            "{} feature lists for a network of {} perspectives",
            features.len(),
            shape.perspectives
        )));
    }
    for (p, view) in features.iter().enumerate() {
        let view = view.as_ref();
        if let Some(&f) = view.iter().find(|&&f| f as usize >= shape.features) {
            return Err(Error::shape(format!(
                "perspective {p}: feature {f} of a network of {} features",
                shape.features
            )));
        }
        if view.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Error::shape(format!(
                "perspective {p}: features {view:?} are not sorted without repeats"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A random sorted list of about `n` features below `f`.
    pub(crate) fn random_list(rng: &mut Rng, f: usize, n: usize) -> Vec<u32> {
        let mut v: Vec<u32> = (0..n).map(|_| rng.below(f) as u32).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The definition, straight from the module's formulas (PyTorch's layout).
    fn reference(net: &SparseNet, features: &[Vec<u32>]) -> Vec<f32> {
        let s = net.shape();
        let mut x = Vec::new();
        for view in features {
            for h in 0..s.width {
                let mut z = net.ft.bias[h];
                for &f in view {
                    z += net.ft.weight[f as usize * s.width + h];
                }
                x.push(z.clamp(0.0, 1.0));
            }
        }
        let linear = |l: &Layer, x: &[f32]| -> Vec<f32> {
            (0..l.outputs)
                .map(|o| {
                    l.bias[o]
                        + (0..l.inputs)
                            .map(|i| x[i] * l.weight[i * l.outputs + o])
                            .sum::<f32>()
                })
                .collect()
        };
        if let Some(l1) = &net.l1 {
            x = linear(l1, &x)
                .into_iter()
                .map(|v| v.clamp(0.0, 1.0))
                .collect();
        }
        linear(&net.out, &x).into_iter().map(f32::tanh).collect()
    }

    #[test]
    fn evaluate_is_the_definition() {
        let mut rng = Rng::new(5);
        for (p, l2) in [(1, None), (2, Some(8)), (3, None)] {
            let shape = SparseShape {
                features: 50,
                width: 24,
                perspectives: p,
                l2,
                outputs: p.max(2),
            };
            let net = SparseNet::new("g", shape, 3).unwrap();
            for _ in 0..20 {
                let f: Vec<Vec<u32>> = (0..p).map(|_| random_list(&mut rng, 50, 12)).collect();
                let got = net.evaluate(&f).unwrap();
                let want = reference(&net, &f);
                for (g, w) in got.iter().zip(&want) {
                    assert!((g - w).abs() < 1e-5, "{got:?} vs {want:?}");
                }
            }
        }
    }

    #[test]
    fn bad_shapes_and_features_are_refused() {
        let shape = SparseShape {
            features: 10,
            width: 8,
            perspectives: 2,
            l2: None,
            outputs: 2,
        };
        for bad in [
            SparseShape { width: 0, ..shape },
            SparseShape {
                l2: Some(0),
                ..shape
            },
            SparseShape {
                perspectives: 9,
                ..shape
            },
            SparseShape {
                features: 1 << 40,
                ..shape
            },
        ] {
            assert!(SparseNet::new("g", bad, 1).is_err(), "{bad:?}");
        }
        let net = SparseNet::new("g", shape, 1).unwrap();
        assert!(net.evaluate(&[vec![1u32]]).is_err());
        assert!(net.evaluate(&[vec![1u32], vec![10]]).is_err());
        assert!(net.evaluate(&[vec![2u32, 1], vec![]]).is_err());
        assert!(net.evaluate(&[vec![1u32, 1], vec![]]).is_err());
        assert!(net.evaluate(&[vec![1u32, 2], vec![]]).is_ok());
    }
}
