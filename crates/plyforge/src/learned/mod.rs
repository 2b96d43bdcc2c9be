//! Learned evaluations: a value network ([`learn::Net`], from `plyforge-learn`) over a
//! game's observation tensor ([`crate::encoding`]), as an evaluation that every search of
//! the engine uses: an engine specification's `eval=net:FILE` (alpha-beta, paranoid,
//! best-reply, max^n, MCTS's leaves, the greedy player).
//!
//! The network reads the position as the player to move sees it (its observation tensor,
//! and after it the evaluation's terms if it was trained with them: [`Inputs`]) and gives one value in
//! −1 … 1 per player, counted from the player to move in turn order (its first layer kept up
//! to date from the inputs that changed since the thread's last evaluation, in exact fixed
//! point, [`learn::fast`]: an evaluation is a function of its position alone); [`NetEval`] turns them
//! into the search's scores, [`SCALE`] evaluation points per unit (two players: the mover's
//! `(v₀ − v₁) / 2`, so that the scores are zero-sum). Its move-ordering hints are the game's
//! default evaluation's ([`Evaluator::move_hint`]); a draw scores for everybody what the
//! network's training made a draw worth ([`DRAW_NOTE`]; 0 with two players). `arena
//! train GAME` makes such networks; a network trained elsewhere (PyTorch on the Python
//! package's observations) loads the same way (see [`learn::file`] for the file's layout).
//!
//! ```
//! use plyforge::games::Jumpy3;
//! use plyforge::learned::{Evaluation, NetEval};
//! use plyforge::search::{Evaluator, Game};
//! use plyforge::GameAdapter;
//! // An untrained network of Jumpy3's shape: 80 inputs, 16 hidden, 2 outputs.
//! let net = plyforge::learn::Net::new("jumpy3", &[80, 16, 2], 1)?;
//! let eval: Evaluation<Jumpy3> = Evaluation::Net(NetEval::new(net)?);
//! let scores = eval.evaluate(&Jumpy3::start());
//! assert_eq!(scores[0], -scores[1]);
//! assert!(scores[0].abs() <= 1000);
//! # Ok::<(), plyforge::learned::NetError>(())
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use learn::{Accumulator, FastNet, Net};
use search::{DrawKind, Evaluator, Game, Player, Scores, MAX_PLAYERS};

use crate::adapter::{Encoded, GameAdapter};

/// Evaluation points per unit of the network's value (a value of 1 scores 1000).
pub const SCALE: f32 = 1000.0;

/// The note of a network's file that gives what a draw is worth to every player (−1 … 1),
/// as its training valued draws (`arena train --draw-value`); 0 without it. Its searches
/// score a drawn position so (games of three or more players; with two a draw stays 0, as
/// the scores are zero-sum).
pub const DRAW_NOTE: &str = "draw";

/// The note of a network's file that gives how many of the evaluation's terms it reads
/// after the observation ([`Encoding::terms`](crate::encoding::Encoding::terms), `arena
/// train --terms`); without it, none.
pub const TERMS_NOTE: &str = "terms";

/// What a network of game `A` reads: the observation tensor of the player to move, then,
/// if the network was trained so, the evaluation's terms as that player sees them.
pub struct Inputs<A: GameAdapter> {
    encoded: Encoded<A>,
    /// The terms read: the encoding's count, or 0.
    terms: usize,
}

impl<A: GameAdapter> Clone for Inputs<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: GameAdapter> Copy for Inputs<A> {}

impl<A: GameAdapter> fmt::Debug for Inputs<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Inputs({}: {} observed, {} terms)",
            A::NAME,
            self.encoded.size(),
            self.terms
        )
    }
}

impl<A: GameAdapter> Inputs<A> {
    /// The observation, with the evaluation's terms after it when `terms`.
    pub fn new(terms: bool) -> Result<Self, NetError> {
        let encoded = encoding::<A>()?;
        Ok(Inputs {
            terms: if terms { encoded.terms } else { 0 },
            encoded,
        })
    }

    /// What `net` reads, by its [`TERMS_NOTE`] (which must be the game's count of terms),
    /// checked against the network: `A`'s name, these inputs, one output per player.
    pub fn of_net(net: &Net) -> Result<Self, NetError> {
        let e = encoding::<A>()?;
        let terms = match net.notes().get(TERMS_NOTE) {
            None => false,
            Some(text) if text.parse::<usize>().ok() == Some(e.terms) => true,
            Some(text) => {
                return Err(NetError::File(learn::Error::Foreign {
                    path: None,
                    reason: format!(
                        "note {TERMS_NOTE:?} is {text:?}: the network reads that many evaluation terms, {} gives {}",
                        A::TITLE,
                        e.terms
                    ),
                }))
            }
        };
        let inputs = Inputs::new(terms)?;
        net.check_for(A::NAME, inputs.size(), A::PLAYERS)?;
        Ok(inputs)
    }

    /// The number of inputs.
    pub fn size(&self) -> usize {
        self.encoded.size() + self.terms
    }

    /// The number of the evaluation's terms among them (0: the observation alone).
    pub fn terms(&self) -> usize {
        self.terms
    }

    /// Writes the inputs of `pos` as `player` sees it into `out` (of
    /// [`size`](Inputs::size) entries, zeroed here first).
    pub fn write(&self, pos: &A::Pos, player: Player, out: &mut [f32]) {
        let (x, t) = out.split_at_mut(self.encoded.size());
        self.encoded.write_observation(pos, player, x);
        if self.terms > 0 {
            self.encoded.write_terms(pos, player, t);
        }
    }

    /// Marks `net` as reading these inputs ([`TERMS_NOTE`]).
    pub fn annotate(&self, net: &mut Net) {
        if self.terms > 0 {
            net.set_note(TERMS_NOTE, self.terms.to_string());
        }
    }
}

/// Why a network cannot evaluate a game.
#[derive(Debug)]
#[non_exhaustive]
pub enum NetError {
    /// The game has no observation tensor ([`GameAdapter::encoding`] is `None`).
    NoEncoding {
        /// The game's name for people.
        game: &'static str,
    },
    /// The file cannot be read, is not a whole network, or is another game's or shape's.
    File(learn::Error),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NoEncoding { game } => write!(
                f,
                "{game} has no observation tensor (its adapter gives no encoding), so no network can read it"
            ),
            NetError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetError::File(e) => Some(e),
            NetError::NoEncoding { .. } => None,
        }
    }
}

impl From<learn::Error> for NetError {
    fn from(e: learn::Error) -> Self {
        NetError::File(e)
    }
}

/// The encoding of `A`, or the error that it has none.
fn encoding<A: GameAdapter>() -> Result<Encoded<A>, NetError> {
    A::encoding().ok_or(NetError::NoEncoding { game: A::TITLE })
}

/// A network read from a file, shared by every engine that names the file (kept by an
/// engine specification: its `Debug` shows the file, not the weights).
#[derive(Clone)]
pub struct LoadedNet {
    /// The file as given.
    pub path: String,
    /// The network.
    pub net: Arc<Net>,
    /// The digest of the file's bytes as they were read ([`crate::digest::fnv1a`]): what
    /// names the network in the ids of runs, whatever its path (each worker of a sharded run
    /// has its own copy of the same network).
    pub digest: u64,
}

impl fmt::Debug for LoadedNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LoadedNet({:?}, sizes {:?})",
            self.path,
            self.net.sizes()
        )
    }
}

/// Files read so far, by path, with the time and length they had: a file read again for
/// every engine of a match costs nothing, and a file rewritten (a new generation of
/// training) is read anew.
type Cache = HashMap<PathBuf, (Option<SystemTime>, u64, Arc<Net>, u64)>;

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The network of `path` for game `A`: checked to be `A`'s, with its observation's size
/// (and the evaluation's terms, if its file says so: [`Inputs::of_net`]) as inputs and one
/// output per player.
pub fn load<A: GameAdapter>(path: &str) -> Result<LoadedNet, NetError> {
    encoding::<A>()?;
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
            .map(|(_, _, net, digest)| (Arc::clone(net), *digest))
    };
    let (net, digest) = match cached {
        Some(found) => found,
        None => {
            let bytes = std::fs::read(file).map_err(|source| learn::Error::Io {
                path: file.to_path_buf(),
                source,
            })?;
            let net = Arc::new(Net::from_bytes(&bytes).map_err(|e| e.in_file(file))?);
            let digest = crate::digest::fnv1a(&bytes);
            let mut map = cache().lock().unwrap_or_else(|p| p.into_inner());
            map.insert(key, (modified, len, Arc::clone(&net), digest));
            (net, digest)
        }
    };
    Inputs::<A>::of_net(&net).map_err(|err| match err {
        NetError::File(e) => NetError::File(e.in_file(file)),
        other => other,
    })?;
    Ok(LoadedNet {
        path: path.to_string(),
        net,
        digest,
    })
}

thread_local! {
    /// Each thread's buffer for the observation, the hidden layers and the outputs: grown
    /// once, then no allocation per evaluation.
    static WORK: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    /// Each thread's last observation and first-layer sums ([`learn::fast`]): the next
    /// evaluation adds only the rows of the inputs that changed.
    static ACC: RefCell<Accumulator> = RefCell::new(Accumulator::default());
}

/// A value network as an evaluation of game `A` (see [the module](self)).
pub struct NetEval<A: GameAdapter> {
    net: Arc<Net>,
    /// The network prepared for incremental evaluation, unless its weights are too large.
    fast: Option<Arc<FastNet>>,
    inputs: Inputs<A>,
    /// The game's default evaluation, for move-ordering hints.
    hints: A::Eval,
    /// What a draw scores for every player (three or more players).
    draw: i32,
}

impl<A: GameAdapter> Clone for NetEval<A> {
    fn clone(&self) -> Self {
        NetEval {
            net: Arc::clone(&self.net),
            fast: self.fast.clone(),
            inputs: self.inputs,
            hints: self.hints.clone(),
            draw: self.draw,
        }
    }
}

impl<A: GameAdapter> NetEval<A> {
    /// The evaluation of `net`, which must be `A`'s (its name, its [`Inputs`], one output
    /// per player).
    pub fn new(net: Net) -> Result<Self, NetError> {
        NetEval::shared(Arc::new(net))
    }

    /// The evaluation of a shared network, checked as [`NetEval::new`] checks.
    pub fn shared(net: Arc<Net>) -> Result<Self, NetError> {
        let inputs = Inputs::of_net(&net)?;
        let draw = match net.notes().get(DRAW_NOTE) {
            Some(text) => match text.parse::<f32>() {
                Ok(v) if (-1.0..=1.0).contains(&v) => v,
                _ => {
                    return Err(NetError::File(learn::Error::Foreign {
                        path: None,
                        reason: format!("note {DRAW_NOTE:?} is {text:?}, not a value from -1 to 1"),
                    }))
                }
            },
            None => 0.0,
        };
        Ok(NetEval {
            draw: if A::PLAYERS > 2 {
                (draw * SCALE).round() as i32
            } else {
                0
            },
            fast: FastNet::new(Arc::clone(&net)).map(Arc::new),
            net,
            inputs,
            hints: A::default_eval(),
        })
    }

    /// The network.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// What the network reads.
    pub fn inputs(&self) -> Inputs<A> {
        self.inputs
    }

    /// The network's values of `pos` (−1 … 1), one per player in the players' own order
    /// (entries past the game's players are 0).
    pub fn values(&self, pos: &A::Pos) -> [f32; MAX_PLAYERS] {
        let me = pos.to_move();
        let (inputs, hidden, outputs) = (self.inputs.size(), self.net.work_len(), A::PLAYERS);
        WORK.with(|cell| {
            let mut buf = cell.borrow_mut();
            if buf.len() < inputs + hidden + outputs {
                buf.resize(inputs + hidden + outputs, 0.0);
            }
            let (x, rest) = buf.split_at_mut(inputs);
            let (work, rest) = rest.split_at_mut(hidden);
            let out = &mut rest[..outputs];
            self.inputs.write(pos, me, x);
            match &self.fast {
                Some(fast) => ACC.with(|acc| fast.forward(x, &mut acc.borrow_mut(), work, out)),
                None => self.net.forward(x, work, out),
            }
            let mut values = [0.0; MAX_PLAYERS];
            for (k, v) in out.iter().enumerate() {
                values[(me + k) % outputs] = *v;
            }
            values
        })
    }
}

impl<A: GameAdapter> Evaluator<A::Pos> for NetEval<A> {
    fn evaluate(&self, pos: &A::Pos) -> Scores {
        let v = self.values(pos);
        let mut scores = [0; MAX_PLAYERS];
        if A::PLAYERS == 2 {
            let s = ((v[0] - v[1]) / 2.0 * SCALE).round() as i32;
            scores[0] = s;
            scores[1] = -s;
        } else {
            for (s, x) in scores.iter_mut().zip(v).take(A::PLAYERS) {
                *s = (x * SCALE).round() as i32;
            }
        }
        scores
    }

    fn aspiration_window(&self) -> i32 {
        (SCALE / 25.0) as i32
    }

    fn margin(&self) -> i32 {
        (SCALE / 10.0) as i32
    }

    fn move_hint(&self, pos: &A::Pos, mv: A::Move) -> i32 {
        self.hints.move_hint(pos, mv)
    }

    fn draw_scores(&self, _pos: &A::Pos, _kind: DrawKind) -> Scores {
        let mut scores = [0; MAX_PLAYERS];
        scores[..A::PLAYERS].fill(self.draw);
        scores
    }
}

/// The evaluation of an engine: the game's own (by name, with its parameters) or a
/// network's. Every search of the facade evaluates through it; the game's own is called
/// without a virtual call.
pub enum Evaluation<A: GameAdapter> {
    /// One of the game's evaluations ([`GameAdapter::evaluator`]).
    Own(A::Eval),
    /// A value network.
    Net(NetEval<A>),
}

impl<A: GameAdapter> Clone for Evaluation<A> {
    fn clone(&self) -> Self {
        match self {
            Evaluation::Own(e) => Evaluation::Own(e.clone()),
            Evaluation::Net(n) => Evaluation::Net(n.clone()),
        }
    }
}

impl<A: GameAdapter> Evaluator<A::Pos> for Evaluation<A> {
    #[inline]
    fn evaluate(&self, pos: &A::Pos) -> Scores {
        match self {
            Evaluation::Own(e) => e.evaluate(pos),
            Evaluation::Net(n) => n.evaluate(pos),
        }
    }

    #[inline]
    fn evaluate_for(&self, pos: &A::Pos, root: Player) -> Scores {
        match self {
            Evaluation::Own(e) => e.evaluate_for(pos, root),
            Evaluation::Net(n) => n.evaluate_for(pos, root),
        }
    }

    fn aspiration_window(&self) -> i32 {
        match self {
            Evaluation::Own(e) => e.aspiration_window(),
            Evaluation::Net(n) => n.aspiration_window(),
        }
    }

    fn margin(&self) -> i32 {
        match self {
            Evaluation::Own(e) => e.margin(),
            Evaluation::Net(n) => n.margin(),
        }
    }

    #[inline]
    fn move_hint(&self, pos: &A::Pos, mv: A::Move) -> i32 {
        match self {
            Evaluation::Own(e) => e.move_hint(pos, mv),
            Evaluation::Net(n) => n.move_hint(pos, mv),
        }
    }

    fn draw_scores(&self, pos: &A::Pos, kind: DrawKind) -> Scores {
        match self {
            Evaluation::Own(e) => e.draw_scores(pos, kind),
            Evaluation::Net(n) => n.draw_scores(pos, kind),
        }
    }
}
