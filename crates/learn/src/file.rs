//! Networks (and trainer states) as safetensors files.
//!
//! **A network file** holds, for layer `l` = 0, 1, … the tensors `"{2l}.weight"` (`f32`,
//! shape `[outputs, inputs]`) and `"{2l}.bias"` (`f32`, `[outputs]`): the names and layout
//! of the `state_dict()` of PyTorch's
//! `nn.Sequential(nn.Linear(i, h), nn.ReLU(), nn.Linear(h, o), nn.Tanh())`, so that a model
//! trained in PyTorch on the Python package's observations loads here as it is saved by
//! `safetensors.torch.save_file(model.state_dict(), path, metadata={"game": NAME})`. The
//! header's metadata must name the game (`"game"`); `"format"` is `plyforge-value-1` where
//! present, `"hidden"` `relu` and `"output"` `tanh` where present; `"note.KEY"` entries are
//! the network's [notes](crate::Net::notes).
//!
//! **A trainer state file** is a network file with the format `plyforge-trainer-1`, Adam's
//! moments beside each tensor (`"adam.m.0.weight"`, `"adam.v.0.weight"`, …), its step
//! count (`"step"`), and the caller's own entries (`"state.KEY"`).
//!
//! Files are written whole or not at all (to a temporary file beside, then renamed).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};

use crate::net::{check_sizes, Layer};
use crate::{Error, Net};

/// The format of a network file.
pub const NET_FORMAT: &str = "plyforge-value-1";
/// The format of a trainer state file.
pub const STATE_FORMAT: &str = "plyforge-trainer-1";

/// The `kind` in a sparse network file's metadata (a dense one's has none, or `dense`).
pub const SPARSE_KIND: &str = "sparse";

/// The two kinds of network file of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetKind {
    /// A dense [`Net`] (no `kind` in the metadata, or `dense`).
    Dense,
    /// A sparse network ([`crate::sparse::SparseNet`]: `kind` is `sparse`).
    Sparse,
}

/// Which kind of network the safetensors bytes hold, by their metadata's `kind`, without
/// reading the tensors: what a reader of either kind asks first. [`Error::Corrupt`] for
/// bytes that are not safetensors, [`Error::Field`] (`kind`) for a kind of another crate.
///
/// ```
/// use plyforge_learn::file::{kind_of, NetKind};
/// use plyforge_learn::sparse::{SparseNet, SparseShape};
/// use plyforge_learn::Net;
/// let dense = Net::new("g", &[4, 3, 2], 1)?;
/// assert_eq!(kind_of(&dense.to_bytes())?, NetKind::Dense);
/// let shape = SparseShape { features: 8, width: 4, perspectives: 1, l2: None, outputs: 2 };
/// assert_eq!(kind_of(&SparseNet::new("g", shape, 1)?.to_bytes())?, NetKind::Sparse);
/// assert!(kind_of(b"not a file").is_err());
/// # Ok::<(), plyforge_learn::Error>(())
/// ```
pub fn kind_of(bytes: &[u8]) -> Result<NetKind, Error> {
    let (_, header) = SafeTensors::read_metadata(bytes)
        .map_err(|e| Error::corrupt(format!("not a safetensors file ({e})")))?;
    let meta = header.metadata().clone().unwrap_or_default();
    match meta.get("kind").map(String::as_str) {
        None | Some("dense") => Ok(NetKind::Dense),
        Some(SPARSE_KIND) => Ok(NetKind::Sparse),
        Some(k) => Err(Error::field(
            "kind",
            format!("{k:?}: not a network of this crate (dense or sparse)"),
        )),
    }
}

/// One tensor to write: its name, shape and values (row-major).
pub(crate) struct Tensor {
    pub(crate) name: String,
    pub(crate) shape: Vec<usize>,
    pub(crate) values: Vec<f32>,
}

/// The bytes of a safetensors file of these tensors and metadata.
pub(crate) fn to_bytes(tensors: &[Tensor], meta: HashMap<String, String>) -> Vec<u8> {
    let bytes: Vec<Vec<u8>> = tensors
        .iter()
        .map(|t| t.values.iter().flat_map(|v| v.to_le_bytes()).collect())
        .collect();
    let views: Vec<(String, TensorView<'_>)> = tensors
        .iter()
        .zip(&bytes)
        .map(|(t, b)| {
            let view = TensorView::new(Dtype::F32, t.shape.clone(), b)
                .expect("a shape that fits its values");
            (t.name.clone(), view)
        })
        .collect();
    let bytes = safetensors::serialize(views, Some(meta)).expect("tensors of this crate serialise");
    canonical(bytes)
}

/// The bytes with the header's keys in sorted order: `safetensors` writes the metadata in
/// a hash map's order, which differs from process to process, and the same network should
/// be the same file. The header keeps its length (the same JSON, reordered), so the data's
/// offsets hold.
fn canonical(mut bytes: Vec<u8>) -> Vec<u8> {
    let Some(n) = bytes
        .get(..8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
    else {
        return bytes;
    };
    let Some(header) = bytes.get(8..8 + n) else {
        return bytes;
    };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(header) else {
        return bytes;
    };
    // serde_json's maps are ordered by key.
    let text = value.to_string();
    if text.len() <= n {
        let mut sorted = text.into_bytes();
        sorted.resize(n, b' ');
        bytes[8..8 + n].copy_from_slice(&sorted);
    }
    bytes
}

/// Writes `bytes` to `path` whole: to a temporary file beside it, then renamed over it.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Reads a file's bytes.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The tensors of the network's layers, in PyTorch's layout, each name with `prefix`.
pub(crate) fn layer_tensors(layers: &[Layer], prefix: &str) -> Vec<Tensor> {
    layers
        .iter()
        .enumerate()
        .flat_map(|(l, layer)| linear_tensors(layer, &format!("{prefix}{}", 2 * l)))
        .collect()
}

/// The tensors of one layer as PyTorch's `nn.Linear` named `name` holds them:
/// `"{name}.weight"` (`[outputs, inputs]`) and `"{name}.bias"` (`[outputs]`).
pub(crate) fn linear_tensors(layer: &Layer, name: &str) -> [Tensor; 2] {
    [
        Tensor {
            name: format!("{name}.weight"),
            shape: vec![layer.outputs, layer.inputs],
            values: transpose(&layer.weight, layer.inputs, layer.outputs),
        },
        Tensor {
            name: format!("{name}.bias"),
            shape: vec![layer.outputs],
            values: layer.bias.clone(),
        },
    ]
}

/// A `rows × cols` row-major matrix transposed.
pub(crate) fn transpose(m: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0.0; m.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = m[r * cols + c];
        }
    }
    t
}

/// The header's metadata of a network: format, game, activations, notes.
pub(crate) fn net_meta(net: &Net, format: &str) -> HashMap<String, String> {
    let mut meta = HashMap::new();
    meta.insert("format".to_string(), format.to_string());
    meta.insert("game".to_string(), net.game().to_string());
    meta.insert("hidden".to_string(), "relu".to_string());
    meta.insert("output".to_string(), "tanh".to_string());
    for (k, v) in net.notes() {
        meta.insert(format!("note.{k}"), v.clone());
    }
    meta
}

/// A parsed file: its tensors and its metadata.
pub(crate) struct Parsed<'a> {
    pub(crate) tensors: SafeTensors<'a>,
    pub(crate) meta: HashMap<String, String>,
}

impl<'a> Parsed<'a> {
    /// Parses safetensors bytes, whatever their format.
    pub(crate) fn open(bytes: &'a [u8]) -> Result<Self, Error> {
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| Error::corrupt(format!("not a safetensors file ({e})")))?;
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| Error::corrupt(format!("not a safetensors file ({e})")))?;
        let meta = header.metadata().clone().unwrap_or_default();
        Ok(Parsed { tensors, meta })
    }

    /// Parses safetensors bytes; the format must be `format` (or absent, where `optional`).
    pub(crate) fn new(bytes: &'a [u8], format: &str, optional: bool) -> Result<Self, Error> {
        let Parsed { tensors, meta } = Parsed::open(bytes)?;
        match meta.get("format") {
            Some(f) if f == format => {}
            None if optional => {}
            Some(f) => {
                return Err(Error::foreign(format!(
                    "a file of format {f:?}, not {format:?}"
                )))
            }
            None => {
                return Err(Error::foreign(format!(
                    "no \"format\" in its metadata (a {format} file has one)"
                )))
            }
        }
        if let Some(kind) = meta.get("kind").filter(|k| *k != "dense") {
            return Err(Error::foreign(format!(
                "a network of kind {kind:?}, not a dense one (read it as its kind: `SparseNet`)"
            )));
        }
        for (key, want) in [("hidden", "relu"), ("output", "tanh")] {
            if let Some(got) = meta.get(key) {
                if got != want {
                    return Err(Error::foreign(format!(
                        "{key} activation {got:?}: this crate's networks have {want:?}"
                    )));
                }
            }
        }
        Ok(Parsed { tensors, meta })
    }

    /// The values of tensor `name`, which must be `f32` of shape `shape`, every value
    /// finite.
    pub(crate) fn tensor(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, Error> {
        let view = self
            .tensors
            .tensor(name)
            .map_err(|_| Error::corrupt(format!("no tensor {name:?}")))?;
        if view.dtype() != Dtype::F32 {
            return Err(Error::corrupt(format!(
                "tensor {name:?} is {:?}, not F32",
                view.dtype()
            )));
        }
        if view.shape() != shape {
            return Err(Error::corrupt(format!(
                "tensor {name:?} has shape {:?}, not {shape:?}",
                view.shape()
            )));
        }
        let values: Vec<f32> = view
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(Error::corrupt(format!(
                "tensor {name:?} holds {} at {i}",
                values[i]
            )));
        }
        Ok(values)
    }

    /// The shape of tensor `name`, if there is one.
    pub(crate) fn shape_of(&self, name: &str) -> Option<Vec<usize>> {
        self.tensors.tensor(name).ok().map(|v| v.shape().to_vec())
    }

    /// The network's layers (tensors `"{prefix}{2l}.weight"` and `.bias`), checked to chain.
    pub(crate) fn layers(&self, prefix: &str) -> Result<Vec<Layer>, Error> {
        let mut layers: Vec<Layer> = Vec::new();
        let mut sizes = Vec::new();
        for l in 0.. {
            let name = format!("{prefix}{}.weight", 2 * l);
            let Some(shape) = self.shape_of(&name) else {
                break;
            };
            let [outputs, inputs] = shape[..] else {
                return Err(Error::corrupt(format!(
                    "tensor {name:?} has shape {shape:?}, not [outputs, inputs]"
                )));
            };
            if let Some(prev) = layers.last() {
                if prev.outputs != inputs {
                    return Err(Error::corrupt(format!(
                        "tensor {name:?} takes {inputs} inputs, the layer before gives {}",
                        prev.outputs
                    )));
                }
            } else {
                sizes.push(inputs);
            }
            sizes.push(outputs);
            layers.push(self.linear(&format!("{prefix}{}", 2 * l), inputs, outputs)?);
        }
        if layers.is_empty() {
            return Err(Error::corrupt(format!("no tensor \"{prefix}0.weight\"")));
        }
        check_sizes(&sizes).map_err(|e| Error::corrupt(e.to_string()))?;
        Ok(layers)
    }

    /// The layer of PyTorch's `nn.Linear` named `name` (see [`linear_tensors`]), which must
    /// take `inputs` and give `outputs`.
    pub(crate) fn linear(&self, name: &str, inputs: usize, outputs: usize) -> Result<Layer, Error> {
        let weight = self.tensor(&format!("{name}.weight"), &[outputs, inputs])?;
        let bias = self.tensor(&format!("{name}.bias"), &[outputs])?;
        Ok(Layer {
            inputs,
            outputs,
            weight: transpose(&weight, outputs, inputs),
            bias,
        })
    }

    /// The caller's notes (`"note.KEY"` entries of the metadata).
    pub(crate) fn notes(&self) -> BTreeMap<String, String> {
        self.meta
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("note.")?.to_string(), v.clone())))
            .collect()
    }

    /// The network of this file: its layers, the game of its metadata, its notes.
    pub(crate) fn net(&self) -> Result<Net, Error> {
        let game = self
            .meta
            .get("game")
            .ok_or_else(|| Error::foreign("no \"game\" in its metadata: which game is it for?"))?;
        Ok(Net::from_layers(
            game.clone(),
            self.layers("")?,
            self.notes(),
        ))
    }
}

impl Net {
    /// The network as the bytes of a safetensors file (see [the module](self)).
    pub fn to_bytes(&self) -> Vec<u8> {
        to_bytes(&layer_tensors(&self.layers, ""), net_meta(self, NET_FORMAT))
    }

    /// The network of a safetensors file's bytes; [`Error::Corrupt`] for bytes that are
    /// not a whole network, [`Error::Foreign`] for one that names no game or another format.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, Error> {
        Parsed::new(bytes, NET_FORMAT, true)?.net()
    }

    /// Writes the network to `path` (whole or not at all).
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        write_whole(path, &self.to_bytes())
    }

    /// Reads a network file; errors name the file.
    pub fn load(path: &Path) -> Result<Net, Error> {
        Net::from_bytes(&read(path)?).map_err(|e| e.in_file(path))
    }

    /// Reads a network file made for `game` with `inputs` inputs and `outputs` outputs;
    /// [`Error::Foreign`] for another game's or another shape's.
    pub fn load_for(path: &Path, game: &str, inputs: usize, outputs: usize) -> Result<Net, Error> {
        let net = Net::load(path)?;
        net.check_for(game, inputs, outputs)
            .map_err(|e| e.in_file(path))?;
        Ok(net)
    }

    /// Checks that the network is for `game` with `inputs` inputs and `outputs` outputs.
    pub fn check_for(&self, game: &str, inputs: usize, outputs: usize) -> Result<(), Error> {
        if self.game() != game {
            return Err(Error::foreign(format!(
                "a network for {:?}, not {game:?}",
                self.game()
            )));
        }
        if self.inputs() != inputs || self.outputs() != outputs {
            return Err(Error::foreign(format!(
                "a network of {} inputs and {} outputs; {game} needs {inputs} and {outputs}",
                self.inputs(),
                self.outputs()
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_reads_back_as_written() {
        let mut net = Net::new("jumpy3", &[80, 16, 8, 2], 5).unwrap();
        net.set_note("made-by", "a test");
        let back = Net::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.notes()["made-by"], "a test");
    }

    #[test]
    fn the_same_network_is_the_same_bytes() {
        let mut net = Net::new("g", &[7, 5, 2], 9).unwrap();
        for k in ["b", "a", "c", "zz", "m"] {
            net.set_note(k, k.repeat(3));
        }
        let bytes = net.to_bytes();
        let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
        let header = std::str::from_utf8(&bytes[8..8 + n]).unwrap();
        let keys: Vec<usize> = ["\"format\"", "\"game\"", "\"note.a\"", "\"note.b\""]
            .iter()
            .map(|k| header.find(k).unwrap())
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{header}");
        assert_eq!(Net::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn the_file_holds_pytorch_s_layout() {
        let net = Net::new("g", &[3, 2], 1).unwrap();
        let bytes = net.to_bytes();
        let st = SafeTensors::deserialize(&bytes).unwrap();
        let w = st.tensor("0.weight").unwrap();
        assert_eq!(w.shape(), [2, 3]);
        let first = f32::from_le_bytes(w.data()[4..8].try_into().unwrap());
        // Output 0's weight of input 1 is, input-major, entry 1 · 2 + 0.
        assert_eq!(first, net.layers[0].weight[2]);
    }

    #[test]
    fn broken_and_foreign_files_are_refused() {
        let net = Net::new("g", &[3, 4, 2], 1).unwrap();
        let bytes = net.to_bytes();
        let cut = Net::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
        assert!(matches!(cut, Error::Corrupt { .. }), "{cut}");
        let noise = Net::from_bytes(b"not a network at all").unwrap_err();
        assert!(matches!(noise, Error::Corrupt { .. }), "{noise}");
        let other = net.check_for("h", 3, 2).unwrap_err();
        assert!(other.to_string().contains("not \"h\""), "{other}");
        let shape = net.check_for("g", 4, 2).unwrap_err();
        assert!(shape.to_string().contains("needs 4 and 2"), "{shape}");
        // A trainer state is not a network file.
        let mut meta = net_meta(&net, STATE_FORMAT);
        meta.remove("note.x");
        let state = to_bytes(&layer_tensors(&net.layers, ""), meta);
        let e = Net::from_bytes(&state).unwrap_err();
        assert!(matches!(e, Error::Foreign { .. }), "{e}");
        // Layers that do not chain.
        let mut layers = layer_tensors(&net.layers, "");
        layers[2].shape = vec![2, 2];
        layers[2].values.truncate(4);
        let e = Net::from_bytes(&to_bytes(&layers, net_meta(&net, NET_FORMAT))).unwrap_err();
        assert!(e.to_string().contains("the layer before gives 4"), "{e}");
    }
}
