//! Learned evaluations for the plyforge games: a small fully connected value network, its
//! weights in [safetensors](https://huggingface.co/docs/safetensors) files laid out as
//! PyTorch lays out an `nn.Sequential` of `nn.Linear` layers, inference written for a search
//! (no allocation per call, inputs that are zero cost nothing in the first layer), and a
//! seeded trainer on the CPU whose state a killed run resumes from; and the NNUE shape
//! ([`sparse`]): active features in, a feature transformer shared by the players' views,
//! integer inference kept up to date incrementally per search thread, SIMD chosen at run
//! time, its own trainer and files.
//!
//! The network reads a game's observation tensor (`plyforge::encoding`) from the point of
//! view of the player to move and gives one value in −1 … 1 per player, counted from that
//! player in turn order (the player to move first). `plyforge`'s `eval=net:FILE` searches
//! with it; `arena train` makes it. This crate knows no game: it learns any function from
//! vectors to vectors.
//!
//! ```
//! use plyforge_learn::{Dataset, Net, Trainer, TrainSettings};
//!
//! // A network reading 4 numbers, one hidden layer of 16, 1 output, for a "game" named xor.
//! let net = Net::new("xor", &[4, 16, 1], 7)?;
//! // Learn the sign of x0 · x1 (the rest is noise it must ignore).
//! let mut data = Dataset::new(4, 1);
//! for i in 0..256 {
//!     let (a, b) = (if i & 1 == 0 { 1.0 } else { -1.0 }, if i & 2 == 0 { 1.0 } else { -1.0 });
//!     data.push(&[a, b, (i % 7) as f32 / 7.0, 0.0], &[a * b])?;
//! }
//! let mut trainer = Trainer::new(net, TrainSettings { learning_rate: 0.01, ..TrainSettings::default() });
//! let all: Vec<usize> = (0..data.len()).collect();
//! for epoch in 0..60 {
//!     trainer.epoch(&data, &all, epoch);
//! }
//! assert!(trainer.loss(&data, &all) < 0.05);
//!
//! // Inference: a work buffer made once, then no allocation per call.
//! let net = trainer.net();
//! let mut work = vec![0.0; net.work_len()];
//! let mut out = [0.0];
//! net.forward(&[1.0, -1.0, 0.5, 0.0], &mut work, &mut out);
//! assert!(out[0] < -0.5);
//!
//! // Weights to bytes (a safetensors file) and back.
//! let bytes = net.to_bytes();
//! assert_eq!(Net::from_bytes(&bytes)?, *net);
//! # Ok::<(), plyforge_learn::Error>(())
//! ```
//!
//! The sparse network (NNUE's shape) in a few lines; [`sparse`] has the whole story (the
//! model and its PyTorch twin, the integer scheme, the accumulator, training, files):
//!
//! ```
//! use plyforge_learn::sparse::{SparseAccumulator, SparseNet, SparseShape};
//!
//! // 128 features, width 64, one view per player (2), 2 outputs.
//! let shape = SparseShape { features: 128, width: 64, perspectives: 2, l2: None, outputs: 2 };
//! let (quant, _) = SparseNet::new("game", shape, 1)?.quantize();
//! let mut acc = SparseAccumulator::new(); // one per search thread
//! let mut out = [0.0f32; 2];
//! quant.evaluate(&[vec![3u32, 17, 90], vec![4, 60]], &mut acc, &mut out);
//! assert!(out.iter().all(|v| (-1.0..=1.0).contains(v)));
//! # Ok::<(), plyforge_learn::Error>(())
//! ```
//!
//! The rooms: [`net`] (the network and its inference), [`fast`] (inference for a search:
//! the first layer updated from the inputs that changed), [`file`](mod@file) (safetensors reading and
//! writing, what a file must hold), [`train`] (the data set, Adam, the trainer's state),
//! [`sparse`] (the NNUE shape: model, integer network, accumulator, SIMD, trainer, files),
//! [`error`].

pub mod error;
pub mod fast;
pub mod file;
pub mod net;
mod rng;
pub mod sparse;
pub mod train;

pub use error::Error;
pub use fast::{Accumulator, FastNet};
pub use net::Net;
pub use train::{Dataset, TrainSettings, Trainer};
