//! Learned evaluations: a value network from `plyforge-learn` as an evaluation that every
//! search of the engine uses: an engine specification's `eval=net:FILE` (alpha-beta,
//! paranoid, best-reply, max^n, MCTS's leaves, the greedy player), and the evaluation of no
//! knowledge, `eval=zero`, that a network learns from by generations.
//!
//! A network file is of one of two kinds ([`learn::file::kind_of`]), and [`load`] takes
//! both:
//! - **dense** ([`learn::Net`], [`NetEval`]): it reads the position as the player to move
//!   sees it, its observation tensor ([`crate::encoding`]) and after it the evaluation's
//!   terms if it was trained with them ([`Inputs`]), its first layer kept up to date from
//!   the inputs that changed since the thread's last evaluation ([`learn::fast`]);
//! - **sparse** ([`learn::sparse::SparseNet`], NNUE's shape, [`SparseEval`]): it reads the
//!   game's active features
//!   ([`Encoding::features`](crate::encoding::Encoding::features)), from the mover's view
//!   or one view per player, through the integer network
//!   ([`learn::sparse::QuantNet`]) with an accumulator per search thread: never a dense
//!   observation at a node, and where the game says what changed between two positions
//!   ([`Encoding::feature_changes`](crate::encoding::Encoding::feature_changes)), not even
//!   a list of features.
//!
//! Either gives one value in −1 … 1 per player, counted from the player to move in turn
//! order, a function of its position alone (whatever the thread evaluated before); they
//! become the search's scores at [`SCALE`] evaluation points per unit (two players: the
//! mover's `(v₀ − v₁) / 2`, so that the scores are zero-sum). Their move-ordering hints are
//! the game's default evaluation's ([`Evaluator::move_hint`]); a draw scores for everybody
//! what the network's training made a draw worth ([`DRAW_NOTE`]; 0 with two players).
//! `arena train GAME` makes both kinds (`--net sparse`); a network trained elsewhere
//! (PyTorch on the Python package's observations or features) loads the same way (see
//! [`learn::file`] and [`learn::sparse::file`] for the files' layouts).
//!
//! ```
//! use plyforge::games::Jumpy3;
//! use plyforge::learn::sparse::{SparseNet, SparseShape};
//! use plyforge::learned::{Evaluation, NetEval, SparseEval};
//! use plyforge::search::{Evaluator, Game};
//! use plyforge::GameAdapter;
//! // An untrained network of Jumpy3's shape: 80 inputs, 16 hidden, 2 outputs.
//! let net = plyforge::learn::Net::new("jumpy3", &[80, 16, 2], 1)?;
//! let eval: Evaluation<Jumpy3> = Evaluation::Net(NetEval::new(net)?);
//! let scores = eval.evaluate(&Jumpy3::start());
//! assert_eq!(scores[0], -scores[1]);
//! assert!(scores[0].abs() <= 1000);
//! // A sparse one: Jumpy3's 80 features, width 32, the mover's view, 2 outputs.
//! let shape = SparseShape { features: 80, width: 32, perspectives: 1, l2: None, outputs: 2 };
//! let sparse: Evaluation<Jumpy3> =
//!     Evaluation::Sparse(SparseEval::new(SparseNet::new("jumpy3", shape, 1)?)?);
//! assert_eq!(sparse.evaluate(&Jumpy3::start())[0], -sparse.evaluate(&Jumpy3::start())[1]);
//! // No knowledge at all: every position is level until the game ends.
//! assert_eq!(Evaluation::<Jumpy3>::Zero.evaluate(&Jumpy3::start())[..2], [0, 0]);
//! # Ok::<(), plyforge::learned::NetError>(())
//! ```
//!
//! The rooms: `base` (what both kinds share), `dense`, `sparse`, and here the files
//! ([`load`]) and the evaluation an engine holds ([`Evaluation`]).

mod base;
mod dense;
mod sparse;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use learn::file::NetKind;
use learn::sparse::{QuantNet, SparseNet};
use learn::Net;
use search::{DrawKind, Evaluator, Player, Scores, MAX_PLAYERS};

pub use base::{NetError, DRAW_NOTE, SCALE, TERMS_NOTE};
pub use dense::{Inputs, NetEval};
pub use sparse::{check_sparse, SparseEval};

use crate::adapter::GameAdapter;

/// A network of either kind, shared.
#[derive(Clone)]
pub enum Network {
    /// A dense network over the observation (and the terms).
    Dense(Arc<Net>),
    /// A sparse network over the features, and its integer twin (made once, when the
    /// file is read).
    Sparse(Arc<SparseNet>, Arc<QuantNet>),
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({})", self.describe())
    }
}

impl Network {
    /// The network of a file's bytes, of the kind its metadata names
    /// ([`learn::file::kind_of`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, learn::Error> {
        Ok(match learn::file::kind_of(bytes)? {
            NetKind::Dense => Network::Dense(Arc::new(Net::from_bytes(bytes)?)),
            NetKind::Sparse => {
                let net = SparseNet::from_bytes(bytes)?;
                let quant = Arc::new(net.quantize().0);
                Network::Sparse(Arc::new(net), quant)
            }
        })
    }

    /// The dense network, if it is one.
    pub fn dense(&self) -> Option<&Net> {
        match self {
            Network::Dense(n) => Some(n),
            Network::Sparse(..) => None,
        }
    }

    /// The sparse network, if it is one.
    pub fn sparse(&self) -> Option<&SparseNet> {
        match self {
            Network::Sparse(n, _) => Some(n),
            Network::Dense(_) => None,
        }
    }

    /// Writes it to `path` (whole or not at all), as a file of its kind.
    pub fn save(&self, path: &Path) -> Result<(), learn::Error> {
        match self {
            Network::Dense(n) => n.save(path),
            Network::Sparse(n, _) => n.save(path),
        }
    }

    /// Its notes (what made it, what it reads).
    pub fn notes(&self) -> &std::collections::BTreeMap<String, String> {
        match self {
            Network::Dense(n) => n.notes(),
            Network::Sparse(n, _) => n.notes(),
        }
    }

    /// What it reads and its layers, in words: `dense [80, 64, 2]` or `sparse 72 features,
    /// width 64, 1 view, 2 outputs`.
    pub fn describe(&self) -> String {
        match self {
            Network::Dense(n) => format!("dense {:?}", n.sizes()),
            Network::Sparse(n, _) => {
                let s = n.shape();
                format!(
                    "sparse {} features, width {}, {} {}{}, {} outputs",
                    s.features,
                    s.width,
                    s.perspectives,
                    if s.perspectives == 1 { "view" } else { "views" },
                    s.l2.map_or(String::new(), |l2| format!(", second layer {l2}")),
                    s.outputs
                )
            }
        }
    }

    /// Checks that it is a network of game `A` (its name, what it reads, one output per
    /// player, its notes).
    pub fn check_for<A: GameAdapter>(&self) -> Result<(), NetError> {
        match self {
            Network::Dense(n) => Inputs::<A>::of_net(n).map(|_| ()),
            Network::Sparse(n, _) => check_sparse::<A>(n),
        }
    }

    /// Its evaluation of game `A` (checked as [`check_for`](Network::check_for)).
    pub fn evaluation<A: GameAdapter>(&self) -> Result<Evaluation<A>, NetError> {
        Ok(match self {
            Network::Dense(n) => Evaluation::Net(NetEval::shared(Arc::clone(n))?),
            Network::Sparse(n, q) => {
                Evaluation::Sparse(SparseEval::shared(Arc::clone(n), Arc::clone(q))?)
            }
        })
    }
}

/// A network read from a file, shared by every engine that names the file (kept by an
/// engine specification: its `Debug` shows the file, not the weights).
#[derive(Clone)]
pub struct LoadedNet {
    /// The file as given.
    pub path: String,
    /// The network.
    pub net: Network,
    /// The digest of the file's bytes as they were read ([`crate::digest::fnv1a`]): what
    /// names the network in the ids of runs, whatever its path (each worker of a sharded run
    /// has its own copy of the same network).
    pub digest: u64,
}

impl fmt::Debug for LoadedNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LoadedNet({:?}, {})", self.path, self.net.describe())
    }
}

/// Files read so far, by path, with the time and length they had: a file read again for
/// every engine of a match costs nothing, and a file rewritten (a new generation of
/// training) is read anew.
type Cache = HashMap<PathBuf, (Option<SystemTime>, u64, Network, u64)>;

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The network of `path` for game `A`, of either kind: checked to be `A`'s, reading what
/// `A` gives (a dense one: its observation's size, and the evaluation's terms if its file
/// says so, [`Inputs::of_net`]; a sparse one: its features, one view or one per player,
/// [`check_sparse`]), with one output per player. Errors name the file and the reason.
pub fn load<A: GameAdapter>(path: &str) -> Result<LoadedNet, NetError> {
    base::encoding::<A>()?;
    let file = Path::new(path);
    let stamp = std::fs::metadata(file).map_err(|source| learn::Error::Io {
        path: file.to_path_buf(),
        source,
    })?;
    let key = file.to_path_buf();
    let (modified, len) = (stamp.modified().ok(), stamp.len());
    let cached = {
        let map = cache().lock().unwrap_or_else(|p| p.into_inner());
        map.get(&key)
            .filter(|(m, l, ..)| *m == modified && *l == len)
            .map(|(_, _, net, digest)| (net.clone(), *digest))
    };
    let (net, digest) = match cached {
        Some(found) => found,
        None => {
            let bytes = std::fs::read(file).map_err(|source| learn::Error::Io {
                path: file.to_path_buf(),
                source,
            })?;
            let (net, digest) = read_net(&bytes, file)?;
            let mut map = cache().lock().unwrap_or_else(|p| p.into_inner());
            map.insert(key, (modified, len, net.clone(), digest));
            (net, digest)
        }
    };
    checked::<A>(net, digest, path)
}

/// The network in `bytes` (a file's, named `file` in errors) and the digest of the bytes
/// ([`LoadedNet::digest`]).
fn read_net(bytes: &[u8], file: &Path) -> Result<(Network, u64), learn::Error> {
    let net = Network::from_bytes(bytes).map_err(|e| e.in_file(file))?;
    Ok((net, crate::digest::fnv1a(bytes)))
}

/// `net`, read from `path`, checked to be a network of game `A` (errors name `path`).
fn checked<A: GameAdapter>(net: Network, digest: u64, path: &str) -> Result<LoadedNet, NetError> {
    net.check_for::<A>().map_err(|err| match err {
        NetError::File(e) => NetError::File(e.in_file(path)),
        other => other,
    })?;
    Ok(LoadedNet {
        path: path.to_string(),
        net,
        digest,
    })
}

/// What a specification shows as the path of a game's shipped network
/// ([`GameAdapter::network`]).
pub const SHIPPED: &str = "shipped";

/// The network game `A` ships ([`GameAdapter::network`]), read once and checked against
/// the game, or `None` when it ships none. An error names the shipped network and the
/// reason (a game's bug: the bytes are not a network of the game).
///
/// ```
/// use plyforge::games::Throne;
/// // Throne ships no network: its engines evaluate with the hand-made evaluation.
/// assert!(plyforge::learned::shipped::<Throne>().is_none());
/// ```
pub fn shipped<A: GameAdapter>() -> Option<Result<LoadedNet, NetError>> {
    A::network().map(read_shipped::<A>)
}

/// [`shipped`]'s network of `bytes`: parsed once (kept by the bytes' address and
/// length), checked against `A` each time.
fn read_shipped<A: GameAdapter>(bytes: &'static [u8]) -> Result<LoadedNet, NetError> {
    type Shipped = HashMap<(usize, usize), (Network, u64)>;
    static READ: OnceLock<Mutex<Shipped>> = OnceLock::new();
    let key = (bytes.as_ptr() as usize, bytes.len());
    let read = READ.get_or_init(|| Mutex::new(HashMap::new()));
    let found = read
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&key)
        .cloned();
    let (net, digest) = match found {
        Some(known) => known,
        None => {
            base::encoding::<A>()?;
            let known = read_net(bytes, Path::new(SHIPPED))?;
            let mut map = read.lock().unwrap_or_else(|p| p.into_inner());
            map.insert(key, known.clone());
            known
        }
    };
    checked::<A>(net, digest, SHIPPED)
}

/// The name of the evaluation of no knowledge in a specification (`eval=zero`).
pub const ZERO: &str = "zero";

/// The evaluation of an engine: the game's own (by name, with its parameters), a
/// network's, or none at all. Every search of the facade evaluates through it; the game's
/// own is called without a virtual call.
pub enum Evaluation<A: GameAdapter> {
    /// One of the game's evaluations ([`GameAdapter::evaluator`]).
    Own(A::Eval),
    /// A dense value network.
    Net(NetEval<A>),
    /// A sparse value network.
    Sparse(SparseEval<A>),
    /// No knowledge (`eval=zero`, every game has it): every position scores 0 for every
    /// player, so that the search plays by the game's ends alone (its terminal values), and
    /// moves are tried in the game's own order (no hints). What a network learns from when
    /// the game has no evaluation worth the name (`arena train --generations`).
    Zero,
}

impl<A: GameAdapter> Clone for Evaluation<A> {
    fn clone(&self) -> Self {
        match self {
            Evaluation::Own(e) => Evaluation::Own(e.clone()),
            Evaluation::Net(n) => Evaluation::Net(n.clone()),
            Evaluation::Sparse(n) => Evaluation::Sparse(n.clone()),
            Evaluation::Zero => Evaluation::Zero,
        }
    }
}

impl<A: GameAdapter> Evaluator<A::Pos> for Evaluation<A> {
    #[inline]
    fn evaluate(&self, pos: &A::Pos) -> Scores {
        match self {
            Evaluation::Own(e) => e.evaluate(pos),
            Evaluation::Net(n) => n.evaluate(pos),
            Evaluation::Sparse(n) => n.evaluate(pos),
            Evaluation::Zero => [0; MAX_PLAYERS],
        }
    }

    #[inline]
    fn evaluate_for(&self, pos: &A::Pos, root: Player) -> Scores {
        match self {
            Evaluation::Own(e) => e.evaluate_for(pos, root),
            Evaluation::Net(n) => n.evaluate_for(pos, root),
            Evaluation::Sparse(n) => n.evaluate_for(pos, root),
            Evaluation::Zero => [0; MAX_PLAYERS],
        }
    }

    fn aspiration_window(&self) -> i32 {
        match self {
            Evaluation::Own(e) => e.aspiration_window(),
            Evaluation::Net(n) => n.aspiration_window(),
            Evaluation::Sparse(n) => n.aspiration_window(),
            // Values move only between 0 and the game's ends.
            Evaluation::Zero => 1,
        }
    }

    fn margin(&self) -> i32 {
        match self {
            Evaluation::Own(e) => e.margin(),
            Evaluation::Net(n) => n.margin(),
            Evaluation::Sparse(n) => n.margin(),
            Evaluation::Zero => 1,
        }
    }

    #[inline]
    fn move_hint(&self, pos: &A::Pos, mv: A::Move) -> i32 {
        match self {
            Evaluation::Own(e) => e.move_hint(pos, mv),
            Evaluation::Net(n) => n.move_hint(pos, mv),
            Evaluation::Sparse(n) => n.move_hint(pos, mv),
            Evaluation::Zero => 0,
        }
    }

    fn draw_scores(&self, pos: &A::Pos, kind: DrawKind) -> Scores {
        match self {
            Evaluation::Own(e) => e.draw_scores(pos, kind),
            Evaluation::Net(n) => n.draw_scores(pos, kind),
            Evaluation::Sparse(n) => n.draw_scores(pos, kind),
            Evaluation::Zero => [0; MAX_PLAYERS],
        }
    }
}
