//! Sparse networks as safetensors files, the float weights in PyTorch's layout.
//!
//! **A sparse network file** holds the `state_dict()` of the PyTorch module of
//! [the model](super) (all `f32`):
//!
//! | tensor | shape |
//! | --- | --- |
//! | `ft.weight`, `ft.bias` | `[H, F]`, `[H]` |
//! | `l1.weight`, `l1.bias` (with a second hidden layer) | `[L2, P·H]`, `[L2]` |
//! | `out.weight`, `out.bias` | `[O, L2]` (or `[O, P·H]`), `[O]` |
//!
//! and in its header's metadata:
//!
//! | key | value |
//! | --- | --- |
//! | `kind` | `sparse` (required: what tells it from a dense [`Net`](crate::Net)'s file) |
//! | `game` | the game's name (required) |
//! | `perspectives` | `P` (required) |
//! | `features`, `width`, `l2`, `outputs` | `F`, `H`, `L2` (`0` for none), `O`: written; where present, checked against the tensors |
//! | `format` | `plyforge-sparse-1`, where present |
//! | `hidden`, `output` | `crelu` and `tanh`, where present |
//! | `note.KEY` | the network's [notes](super::SparseNet::notes) |
//!
//! A file that is not such a network is refused with [`Error::Field`] naming what is wrong
//! (`kind` for a dense network's file, a tensor's name for a missing, misshapen or
//! non-finite tensor, a key for a value that disagrees); a dense network's reader refuses
//! a sparse file as [`Error::Foreign`].

use std::collections::HashMap;
use std::path::Path;

use super::{SparseNet, SparseShape};
use crate::file::{self, linear_tensors, Parsed, Tensor, NET_FORMAT};
use crate::net::Layer;
use crate::Error;

/// The format of a sparse network file.
pub const SPARSE_FORMAT: &str = "plyforge-sparse-1";
/// The kind a sparse network file names (defined beside [`crate::file::kind_of`], which
/// reads it, so that the files of either kind are told apart below both).
pub use crate::file::SPARSE_KIND;

/// The tensors of `net`'s layers, each name with `prefix`.
pub(crate) fn tensors(net: &SparseNet, prefix: &str) -> Vec<Tensor> {
    let mut out = Vec::new();
    for (layer, name) in net.layers().zip(names(net.l1.is_some())) {
        out.extend(linear_tensors(layer, &format!("{prefix}{name}")));
    }
    out
}

/// The layers' names, in order.
pub(crate) fn names(l1: bool) -> impl Iterator<Item = &'static str> {
    ["ft", "l1", "out"]
        .into_iter()
        .filter(move |&n| l1 || n != "l1")
}

/// The header's metadata of `net`, with `format`.
pub(crate) fn meta(net: &SparseNet, format: &str) -> HashMap<String, String> {
    let s = net.shape();
    let mut meta = HashMap::new();
    for (k, v) in [
        ("format", format.to_string()),
        ("kind", SPARSE_KIND.to_string()),
        ("game", net.game().to_string()),
        ("features", s.features.to_string()),
        ("width", s.width.to_string()),
        ("perspectives", s.perspectives.to_string()),
        ("l2", s.l2.unwrap_or(0).to_string()),
        ("outputs", s.outputs.to_string()),
        ("hidden", "crelu".to_string()),
        ("output", "tanh".to_string()),
    ] {
        meta.insert(k.to_string(), v);
    }
    for (k, v) in net.notes() {
        meta.insert(format!("note.{k}"), v.clone());
    }
    meta
}

/// The `[rows, cols]` of tensor `name`, which must be there.
fn shape2(p: &Parsed<'_>, name: &str) -> Result<[usize; 2], Error> {
    match p.shape_of(name).as_deref() {
        Some(&[rows, cols]) => Ok([rows, cols]),
        Some(other) => Err(Error::field(
            name,
            format!("shape {other:?}, not [outputs, inputs]"),
        )),
        None => Err(Error::field(name, "missing")),
    }
}

/// Layer `name` (`"{prefix}ft"`, …) of `inputs` and `outputs`; errors name the tensor.
fn linear(p: &Parsed<'_>, name: &str, inputs: usize, outputs: usize) -> Result<Layer, Error> {
    let read = |t: String, shape: &[usize]| match p.shape_of(&t) {
        None => Err(Error::field(t, "missing")),
        Some(s) if s != shape => Err(Error::field(
            t,
            format!("shape {s:?}, the rest of the network needs {shape:?}"),
        )),
        Some(_) => p.tensor(&t, shape).map_err(|e| match e {
            Error::Corrupt { reason, .. } => Error::field(t, reason),
            other => other,
        }),
    };
    let weight = read(format!("{name}.weight"), &[outputs, inputs])?;
    let bias = read(format!("{name}.bias"), &[outputs])?;
    Ok(Layer {
        inputs,
        outputs,
        weight: file::transpose(&weight, outputs, inputs),
        bias,
    })
}

/// A metadata value read as a count.
fn count(p: &Parsed<'_>, key: &str) -> Result<Option<usize>, Error> {
    p.meta
        .get(key)
        .map(|v| {
            v.parse()
                .map_err(|_| Error::field(key, format!("{v:?} is not a count")))
        })
        .transpose()
}

/// The network of a parsed file, its tensors' names with `prefix`; `format` is the one
/// expected where the file names one.
pub(crate) fn read(p: &Parsed<'_>, prefix: &str, format: &str) -> Result<SparseNet, Error> {
    match (p.meta.get("kind").map(String::as_str), p.meta.get("format")) {
        (Some(SPARSE_KIND), _) => {}
        (_, Some(f)) if f == NET_FORMAT => {
            return Err(Error::field(
                "kind",
                "a dense network's file (format plyforge-value-1): read it as a `Net`",
            ))
        }
        (Some(k), _) => return Err(Error::field("kind", format!("{k:?}, not {SPARSE_KIND:?}"))),
        (None, _) => {
            return Err(Error::field(
                "kind",
                format!("missing: a sparse network's file says kind {SPARSE_KIND:?}"),
            ))
        }
    }
    if let Some(f) = p.meta.get("format").filter(|f| *f != format) {
        return Err(Error::field("format", format!("{f:?}, not {format:?}")));
    }
    for (key, want) in [("hidden", "crelu"), ("output", "tanh")] {
        if let Some(got) = p.meta.get(key).filter(|g| *g != want) {
            return Err(Error::field(
                key,
                format!("{got:?}: this model has {want:?}"),
            ));
        }
    }
    let game = p
        .meta
        .get("game")
        .ok_or_else(|| Error::field("game", "missing: which game is it for?"))?;
    let perspectives =
        count(p, "perspectives")?.ok_or_else(|| Error::field("perspectives", "missing"))?;
    let [width, features] = shape2(p, &format!("{prefix}ft.weight"))?;
    let l2 = match p.shape_of(&format!("{prefix}l1.weight")) {
        Some(_) => Some(shape2(p, &format!("{prefix}l1.weight"))?[0]),
        None => None,
    };
    let [outputs, out_inputs] = shape2(p, &format!("{prefix}out.weight"))?;
    let (first, first_inputs) = match l2 {
        Some(_) => ("l1.weight", shape2(p, &format!("{prefix}l1.weight"))?[1]),
        None => ("out.weight", out_inputs),
    };
    if perspectives.checked_mul(width) != Some(first_inputs) {
        return Err(Error::field(
            "perspectives",
            format!(
                "{perspectives} views of width {width}, but {first} takes {first_inputs} inputs"
            ),
        ));
    }
    let shape = SparseShape {
        features,
        width,
        perspectives,
        l2,
        outputs,
    };
    for (key, value) in [
        ("features", features),
        ("width", width),
        ("l2", l2.unwrap_or(0)),
        ("outputs", outputs),
    ] {
        if let Some(v) = count(p, key)?.filter(|&v| v != value) {
            return Err(Error::field(
                key,
                format!("{v}, but the tensors make it {value}"),
            ));
        }
    }
    shape
        .check()
        .map_err(|e| Error::field("perspectives", e.to_string()))?;
    let ft = linear(p, &format!("{prefix}ft"), features, width)?;
    let l1 = match l2 {
        Some(l2) => Some(linear(p, &format!("{prefix}l1"), shape.concat(), l2)?),
        None => None,
    };
    let out = linear(p, &format!("{prefix}out"), shape.out_inputs(), outputs)?;
    Ok(SparseNet::from_parts(
        game.clone(),
        shape,
        ft,
        l1,
        out,
        p.notes(),
    ))
}

impl SparseNet {
    /// The network as the bytes of a safetensors file (see [the module](self)).
    pub fn to_bytes(&self) -> Vec<u8> {
        file::to_bytes(&tensors(self, ""), meta(self, SPARSE_FORMAT))
    }

    /// The network of a safetensors file's bytes; [`Error::Corrupt`] for bytes that are
    /// not safetensors, [`Error::Field`] for a file that is not a whole sparse network.
    pub fn from_bytes(bytes: &[u8]) -> Result<SparseNet, Error> {
        read(&Parsed::open(bytes)?, "", SPARSE_FORMAT)
    }

    /// Writes the network to `path` (whole or not at all).
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        file::write_whole(path, &self.to_bytes())
    }

    /// Reads a sparse network file; errors name the file.
    pub fn load(path: &Path) -> Result<SparseNet, Error> {
        SparseNet::from_bytes(&file::read(path)?).map_err(|e| e.in_file(path))
    }

    /// Checks that the network is for `game`, with `features` features, `perspectives`
    /// views and `outputs` outputs (what a game's features give); [`Error::Foreign`]
    /// otherwise.
    pub fn check_for(
        &self,
        game: &str,
        features: usize,
        perspectives: usize,
        outputs: usize,
    ) -> Result<(), Error> {
        if self.game() != game {
            return Err(Error::foreign(format!(
                "a network for {:?}, not {game:?}",
                self.game()
            )));
        }
        let s = self.shape();
        if (s.features, s.perspectives, s.outputs) != (features, perspectives, outputs) {
            return Err(Error::foreign(format!(
                "a network of {} features, {} perspectives and {} outputs; {game} needs {features}, {perspectives} and {outputs}",
                s.features, s.perspectives, s.outputs
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Net;

    fn net(l2: Option<usize>) -> SparseNet {
        let shape = SparseShape {
            features: 30,
            width: 8,
            perspectives: 2,
            l2,
            outputs: 2,
        };
        let mut net = SparseNet::new("g", shape, 4).unwrap();
        net.set_note("made-by", "a test");
        net
    }

    /// The bytes with tensors and metadata changed by `edit`.
    fn edited(
        net: &SparseNet,
        edit: impl FnOnce(&mut Vec<Tensor>, &mut HashMap<String, String>),
    ) -> Vec<u8> {
        let mut t = tensors(net, "");
        let mut m = meta(net, SPARSE_FORMAT);
        edit(&mut t, &mut m);
        file::to_bytes(&t, m)
    }

    /// The field an error names.
    fn field(e: Error) -> String {
        match e {
            Error::Field { field, .. } => field,
            other => panic!("not a field's error: {other}"),
        }
    }

    #[test]
    fn a_network_reads_back_as_written() {
        for l2 in [None, Some(4)] {
            let net = net(l2);
            let bytes = net.to_bytes();
            assert_eq!(SparseNet::from_bytes(&bytes).unwrap(), net);
            assert_eq!(bytes, SparseNet::from_bytes(&bytes).unwrap().to_bytes());
        }
    }

    #[test]
    fn the_file_holds_pytorch_s_layout() {
        let net = net(Some(4));
        let bytes = net.to_bytes();
        let st = safetensors::SafeTensors::deserialize(&bytes).unwrap();
        for (name, shape) in [
            ("ft.weight", [8, 30]),
            ("l1.weight", [4, 16]),
            ("out.weight", [2, 4]),
        ] {
            assert_eq!(st.tensor(name).unwrap().shape(), shape, "{name}");
        }
        // Hidden unit 0's weight of feature 1: feature-major entry 1 · 8 + 0.
        let w = st.tensor("ft.weight").unwrap();
        let v = f32::from_le_bytes(w.data()[4..8].try_into().unwrap());
        assert_eq!(v, net.ft.weight[8]);
    }

    #[test]
    fn a_pytorch_file_with_the_least_metadata_loads() {
        let net = net(None);
        let bytes = edited(&net, |_, m| {
            m.retain(|k, _| ["kind", "game", "perspectives"].contains(&k.as_str()));
        });
        let back = SparseNet::from_bytes(&bytes).unwrap();
        assert_eq!(back.shape(), net.shape());
        assert_eq!(back.ft, net.ft);
    }

    #[test]
    fn bad_files_are_refused_naming_the_field() {
        let net = net(Some(4));
        let cases: Vec<(&str, Vec<u8>)> = vec![
            (
                "kind",
                edited(&net, |_, m| {
                    m.remove("kind");
                }),
            ),
            (
                "kind",
                edited(&net, |_, m| {
                    m.insert("kind".into(), "dense".into());
                }),
            ),
            (
                "game",
                edited(&net, |_, m| {
                    m.remove("game");
                }),
            ),
            (
                "perspectives",
                edited(&net, |_, m| {
                    m.remove("perspectives");
                }),
            ),
            (
                "perspectives",
                edited(&net, |_, m| {
                    m.insert("perspectives".into(), "3".into());
                }),
            ),
            (
                "width",
                edited(&net, |_, m| {
                    m.insert("width".into(), "9".into());
                }),
            ),
            (
                "out.bias",
                edited(&net, |t, _| t.retain(|t| t.name != "out.bias")),
            ),
            (
                "ft.weight",
                edited(&net, |t, _| t.retain(|t| t.name != "ft.weight")),
            ),
            (
                "out.weight",
                edited(&net, |t, _| {
                    let o = t.iter_mut().find(|t| t.name == "out.weight").unwrap();
                    o.shape = vec![2, 2];
                    o.values.truncate(4);
                }),
            ),
            (
                "l1.weight",
                edited(&net, |t, _| {
                    t.iter_mut().find(|t| t.name == "l1.weight").unwrap().values[3] = f32::NAN;
                }),
            ),
        ];
        for (want, bytes) in cases {
            let e = SparseNet::from_bytes(&bytes).unwrap_err();
            let text = e.to_string();
            assert_eq!(field(e), want, "{text}");
        }
    }

    #[test]
    fn dense_and_sparse_files_are_not_each_other() {
        let dense = Net::new("g", &[30, 8, 2], 1).unwrap();
        let e = SparseNet::from_bytes(&dense.to_bytes()).unwrap_err();
        assert!(e.to_string().contains("dense network"), "{e}");
        assert_eq!(field(e), "kind");
        let e = Net::from_bytes(&net(None).to_bytes()).unwrap_err();
        assert!(matches!(e, Error::Foreign { .. }), "{e}");
        // Without a format either (as PyTorch writes it), the kind tells.
        let bytes = edited(&net(None), |_, m| {
            m.remove("format");
        });
        let e = Net::from_bytes(&bytes).unwrap_err();
        assert!(e.to_string().contains("kind \"sparse\""), "{e}");
    }

    #[test]
    fn a_file_names_its_path_and_checks_the_game() {
        let dir = std::env::temp_dir().join(format!("learn-sparse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.safetensors");
        let net = net(None);
        net.save(&path).unwrap();
        assert_eq!(SparseNet::load(&path).unwrap(), net);
        std::fs::write(&path, b"nonsense").unwrap();
        let e = SparseNet::load(&path).unwrap_err();
        assert!(e.to_string().contains("net.safetensors"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(net.check_for("g", 30, 2, 2).is_ok());
        assert!(net.check_for("h", 30, 2, 2).is_err());
        assert!(net.check_for("g", 31, 2, 2).is_err());
    }
}
