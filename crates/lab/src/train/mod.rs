//! Training a value network for any game with an encoding (`arena train GAME`): positions
//! and results from self-play games (any engine specification, seeded openings and
//! exploration) and from recorded games, a network ([`plyforge::learn`]) trained to predict
//! each player's result, weights in a safetensors file that `eval=net:FILE` searches with.
//!
//! ```
//! use plyforge::games::Jumpy3;
//! use plyforge_lab::train::{TrainSettings, Training};
//! use plyforge_lab::Silent;
//!
//! let settings = TrainSettings {
//!     engine: Some("engine,depth=1".into()),
//!     games: 6,
//!     hidden: vec![8],
//!     epochs: 2,
//!     ..TrainSettings::default()
//! };
//! let report = Training::<Jumpy3>::new(&settings)?.run(&mut Silent)?;
//! assert_eq!(report.games, 6);
//! assert_eq!(report.losses.len(), 2);
//! assert_eq!(report.net.dense().unwrap().sizes(), [80, 8, 2]);
//! # Ok::<(), plyforge_lab::Error>(())
//! ```
//!
//! **Files** (with [`TrainSettings::out`] = `OUT`): `OUT` the network; `OUT.games.jsonl`
//! the self-play games ([`games`]), `OUT.state.safetensors` the trainer's state after each
//! epoch, `OUT.loss.svg` the loss curve. **A killed run resumes** (`resume`) from them:
//! the games played are kept and the rest played, training goes on from the last finished
//! epoch, and the weights are those of an unbroken run, bit for bit (a game is a function
//! of its index and the settings; an epoch's order of the seed and its number; a batch's
//! gradient is summed in a fixed order whatever the threads).
//!
//! **Workers** ([`TrainSettings::shard`] `K/N`, `arena train --shard K/N`) share the
//! self-play of one run, on one machine or on several with a shared folder: each plays the
//! games whose index is `K − 1` modulo `N` into its own `OUT.games.jsonl` (each its own
//! `OUT`, one folder for all), waits for the others' games in their files, and trains on all
//! of them, so that every worker writes the same network. A killed worker resumes as a run
//! does. A run's id names a network of its engine by the file's bytes, not its path, so the
//! workers of [`generations`] (each with its own copy) share each generation's run.

pub mod data;
pub mod games;
pub mod generations;
mod plot;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use std::sync::Arc;

use crate::book::Openings;
use plyforge::agent::{Kind, Spec};
use plyforge::learn::sparse::{SparseNet, SparseShape, SparseTrainer};
use plyforge::learn::{Net, TrainSettings as NetSettings, Trainer};
use plyforge::learned::{self, Inputs, Network, SparseEval};
use plyforge::GameAdapter;

use crate::error::Error;
use crate::jsonl::{fnv1a, Journal, Siblings};
use crate::observe::{waiting, Observer, Progress};
use crate::records::{read_file, without_result, RecordGame};
use crate::schedule::Shard;
pub use data::{fit_draw_values, DrawFit, Target};
use data::{samples, set_targets, split, Data, Reader, Source, Values};
use games::{Games, Header, SelfPlay, TrainGame};

/// The engine of the self-play games when the settings name none.
pub const DEFAULT_ENGINE: &str = "engine,depth=2";

/// The end of the name of a run's self-play games file (after `OUT`).
pub(crate) const GAMES_FILE: &str = ".games.jsonl";

/// The end of the name of a run's trainer's state file (after `OUT`).
const STATE_FILE: &str = ".state.safetensors";

/// Each epoch's mean loss on the training positions and, where positions were held out,
/// on the held-out ones.
pub type Losses = Vec<(f64, Option<f64>)>;

/// How often a worker of a shared run looks for the other workers' games.
pub(crate) const WAIT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// Table size (MiB) of a self-play engine whose spec sets none.
pub const SELF_PLAY_TT_MIB: usize = 16;

/// The settings of a training run; each is `arena train`'s option of the same name.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// The engine of the self-play games (default [`DEFAULT_ENGINE`]).
    pub engine: Option<String>,
    /// A value network the self-play engine evaluates with, in place of the evaluation its
    /// specification names (the generations of a run play with the best network so far).
    pub net: Option<PathBuf>,
    /// Self-play games to play (0: learn from records alone).
    pub games: u64,
    /// Random plies at the start of each self-play game (default: the game's opening plies
    /// and two more; none for games that start at random).
    pub random_plies: Option<usize>,
    /// The chance that a self-play move after the opening is random.
    pub explore: f64,
    /// Whether each self-play game's opening is drawn on its own, so that openings (and,
    /// with an engine that plays the same move in the same position, whole games) may
    /// repeat, as every run did before openings were drawn distinct. By default (false) the
    /// openings of a game that starts from one position differ from one another, as a
    /// match's do ([`crate::book::Openings`]: once the short ones are used up, they grow a
    /// ply). Games that start at random (a dealt start) draw theirs on their own either way.
    pub independent_openings: bool,
    /// Plies after which a self-play game ends with the game's limit result (default
    /// 1000).
    pub max_plies: Option<usize>,
    /// Recorded games to learn from: match files, tune files, training games files, text
    /// records.
    pub records: Vec<PathBuf>,
    /// What the values are trained towards.
    pub target: Target,
    /// λ: of the TD targets (the weight of the later returns), and of the score target
    /// (the weight of the outcome, [`plyforge::learn::sparse::blend_target`]); none: the
    /// target's default ([`Target::default_lambda`]).
    pub lambda: Option<f64>,
    /// Evaluation points per unit of `tanh` for search scores as targets.
    pub score_scale: f64,
    /// What a drawn game is worth to every player as a target (−1 … 1; 0 a level result,
    /// below 0 a draw worse than it for all: where only wins count). Kept in the network's
    /// file, so that its searches score a draw the same ([`plyforge::learned`]).
    pub draw: f64,
    /// Only wins count (`arena train --draw-value wins`): a drawn game is trained as no win
    /// for anybody (as `draw` −1, which it must be), and the score the network's searches
    /// give a draw is learned from the run's positions after training
    /// ([`DrawFit`]: the value below which the positions' players never won), where
    /// `draw` alone would set it by hand.
    pub draw_fit: bool,
    /// The hidden layers' sizes.
    pub hidden: Vec<usize>,
    /// Whether the network reads the evaluation's terms after the observation
    /// ([`plyforge::encoding::Encoding::terms`]; the network's file says so, and its
    /// searches compute them at every evaluation).
    pub terms: bool,
    /// A sparse network (NNUE's shape, over the game's features) of this shape instead of
    /// the dense one of [`hidden`](TrainSettings::hidden).
    pub sparse: Option<SparseSettings>,
    /// Passes over the training positions.
    pub epochs: u64,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// Decoupled weight decay.
    pub weight_decay: f64,
    /// The share of games held out to measure the loss on.
    pub holdout: f64,
    /// The first plies of each game that are not trained on.
    pub skip: usize,
    /// The seed of the games, the first weights and the order of the positions.
    pub seed: u64,
    /// The network's file (and beside it the run's other files); none: nothing written.
    pub out: Option<PathBuf>,
    /// Go on with the run whose files are at `out`.
    pub resume: bool,
    /// Self-play games at once.
    pub concurrency: usize,
    /// This worker's slice of the self-play games, in a run shared by workers (`K/N`: the
    /// games whose index is `K − 1` modulo `N`). Each worker has its own `out` in one
    /// folder, plays its games into its games file, waits for the others' games in theirs
    /// (the same settings: the same run), and trains on all of them: every worker ends
    /// with the same network.
    pub shard: Option<Shard>,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            engine: None,
            net: None,
            games: 200,
            random_plies: None,
            explore: 0.05,
            independent_openings: false,
            max_plies: None,
            records: Vec::new(),
            target: Target::Outcome,
            lambda: None,
            score_scale: 400.0,
            draw: 0.0,
            draw_fit: false,
            hidden: vec![64],
            terms: false,
            sparse: None,
            epochs: 20,
            batch: 256,
            learning_rate: 1e-3,
            weight_decay: 0.0,
            holdout: 0.1,
            skip: 0,
            seed: 1,
            out: None,
            resume: false,
            concurrency: 1,
            shard: None,
        }
    }
}

/// The shape of a sparse network to train (`arena train --net sparse`): its features are
/// the game's ([`plyforge::encoding::Encoding::FEATURES`]), its outputs one per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SparseSettings {
    /// The feature transformer's width per view (`--width`).
    pub width: usize,
    /// 1 (the player to move's view) or the number of players (`--perspectives`).
    pub perspectives: usize,
    /// The second hidden layer's width, if any (`--l2`).
    pub l2: Option<usize>,
}

impl Default for SparseSettings {
    /// Width 64, the mover's view, no second hidden layer: the fastest shape that learns
    /// (see `docs/training.md`).
    fn default() -> Self {
        SparseSettings {
            width: 64,
            perspectives: 1,
            l2: None,
        }
    }
}

impl SparseSettings {
    /// The shape of game `A`'s network.
    pub fn shape<A: GameAdapter>(&self) -> Result<SparseShape, Error> {
        let features = A::encoding().map(|e| e.features).ok_or_else(|| {
            Error::settings(format!("{} has no encoding, so no features", A::TITLE))
        })?;
        if self.perspectives != 1 && self.perspectives != A::PLAYERS {
            return Err(Error::settings(format!(
                "--perspectives {}: 1 (the mover's view) or {} (one per player)",
                self.perspectives,
                A::PLAYERS
            )));
        }
        let shape = SparseShape {
            features,
            width: self.width,
            perspectives: self.perspectives,
            l2: self.l2,
            outputs: A::PLAYERS,
        };
        shape
            .check()
            .map_err(|e| Error::settings(format!("--net sparse: {e}")))?;
        Ok(shape)
    }
}

impl TrainSettings {
    /// λ as the run uses it: [`lambda`](TrainSettings::lambda) or the target's default.
    pub fn lambda(&self) -> f64 {
        self.lambda.unwrap_or(self.target.default_lambda())
    }

    /// The engine of the self-play games: [`engine`](TrainSettings::engine) or
    /// [`DEFAULT_ENGINE`].
    pub fn engine_text(&self) -> &str {
        self.engine.as_deref().unwrap_or(DEFAULT_ENGINE)
    }

    /// Whether [`out`](TrainSettings::out) holds an earlier run's files (its games or its
    /// trainer's state) for [`resume`](TrainSettings::resume) to go on from.
    pub fn has_earlier_run(&self) -> bool {
        self.out.as_ref().is_some_and(|out| {
            [GAMES_FILE, STATE_FILE]
                .iter()
                .any(|tail| beside(out, tail).exists())
        })
    }

    /// The network trainer's share of the settings.
    fn net_settings(&self) -> NetSettings {
        NetSettings {
            learning_rate: self.learning_rate as f32,
            batch: self.batch,
            weight_decay: self.weight_decay as f32,
            seed: self.seed,
        }
    }
}

/// What a training run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Self-play games.
    pub games: u64,
    /// Recorded games read.
    pub recorded: usize,
    /// Recorded games left out because they have no result (the course referee harness's
    /// games ended by a fault of nobody known).
    pub without_result: usize,
    /// Positions trained on and held out.
    pub positions: (usize, usize),
    /// Each epoch's mean loss on the training positions and on the held-out ones (`None`
    /// when no positions were held out).
    pub losses: Losses,
    /// The network (dense or sparse, as the settings asked).
    pub net: Network,
    /// Positions a second the trainer went through in the epochs this process ran (each
    /// epoch's training positions over its time, the held-out loss aside); none when no
    /// epoch ran here (a resumed run already done).
    pub throughput: Option<f64>,
    /// The files written: the network and the loss curve.
    pub files: Vec<PathBuf>,
    /// Seconds spent playing and training (this process).
    pub seconds: (f64, f64),
    /// The draw's score learned after training (`draw_fit`), else none.
    pub draw_fit: Option<DrawFit>,
}

/// A training run of game `A`, checked and ready.
pub struct Training<A: GameAdapter> {
    s: TrainSettings,
    play: SelfPlay,
    /// The self-play games' distinct openings (none: each game draws its own).
    openings: Option<Openings<A>>,
    reader: Reader<A>,
}

/// A trainer of either kind of network (the sparse one boxed: it is the larger).
enum Learner {
    Dense(Trainer),
    Sparse(Box<SparseTrainer>),
}

impl Learner {
    fn epoch(&mut self, data: &Data, indices: &[usize], epoch: u64) -> f64 {
        match (self, data) {
            (Learner::Dense(t), Data::Dense(d)) => t.epoch(d, indices, epoch),
            (Learner::Sparse(t), Data::Sparse(d)) => t.epoch(d, indices, epoch),
            _ => unreachable!("the data is the network's kind"),
        }
    }

    fn loss(&self, data: &Data, indices: &[usize]) -> f64 {
        match (self, data) {
            (Learner::Dense(t), Data::Dense(d)) => t.loss(d, indices),
            (Learner::Sparse(t), Data::Sparse(d)) => t.loss(d, indices),
            _ => unreachable!("the data is the network's kind"),
        }
    }

    fn save_state(
        &self,
        path: &Path,
        extra: &BTreeMap<String, String>,
    ) -> Result<(), plyforge::learn::Error> {
        match self {
            Learner::Dense(t) => t.save_state(path, extra),
            Learner::Sparse(t) => t.save_state(path, extra),
        }
    }

    fn values(&self) -> Values<'_> {
        match self {
            Learner::Dense(t) => Values::Dense(t.net()),
            Learner::Sparse(t) => Values::Sparse(t.net()),
        }
    }

    /// The network, with `notes` set.
    fn network(&self, notes: &[(&str, String)]) -> Network {
        match self {
            Learner::Dense(t) => {
                let mut net = t.net().clone();
                for (k, v) in notes {
                    net.set_note(k, v.clone());
                }
                Network::Dense(Arc::new(net))
            }
            Learner::Sparse(t) => {
                let mut net = t.net().clone();
                for (k, v) in notes {
                    net.set_note(k, v.clone());
                }
                let quant = Arc::new(net.quantize().0);
                Network::Sparse(Arc::new(net), quant)
            }
        }
    }
}

/// `OUT` with `suffix` added to its name.
fn beside(out: &Path, suffix: &str) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// A number mixed with a seed (which games are held out).
fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 27)
}

impl<A: GameAdapter> Training<A> {
    /// Checks the settings against the game.
    pub fn new(s: &TrainSettings) -> Result<Self, Error> {
        let reader = match &s.sparse {
            None => Reader::Dense(
                Inputs::<A>::new(s.terms).map_err(|e| Error::settings(e.to_string()))?,
            ),
            Some(sparse) => {
                if s.terms {
                    return Err(Error::settings(
                        "--terms: a sparse network reads the game's features alone",
                    ));
                }
                let net = SparseNet::new(A::NAME, sparse.shape::<A>()?, s.seed)
                    .map_err(|e| Error::settings(format!("--net sparse: {e}")))?;
                Reader::Sparse(SparseEval::new(net).map_err(|e| Error::settings(e.to_string()))?)
            }
        };
        let text = s.engine_text();
        let mut spec = Spec::parse::<A>(text).map_err(Error::Plyforge)?;
        if let Some(path) = &s.net {
            let net = learned::load::<A>(&path.to_string_lossy())
                .map_err(|e| Error::settings(format!("{}: {e}", path.display())))?;
            spec = spec.with_net(net).map_err(Error::Plyforge)?;
        }
        // Every game makes its engines anew: a small table unless the spec sets one.
        spec.tt_mib.get_or_insert(SELF_PLAY_TT_MIB);
        if matches!(spec.kind, Kind::Search(_)) && !spec.has_limit() {
            return Err(Error::settings(format!(
                "--engine {text}: self-play needs a depth or node budget (depth=N, nodes=N)"
            )));
        }
        check_settings(s)?;
        let play = SelfPlay {
            spec,
            random_plies: s.random_plies.unwrap_or(if A::RANDOM_START {
                0
            } else {
                A::default_opening_plies() + 2
            }),
            explore: s.explore,
            max_plies: s.max_plies.unwrap_or(1000),
            seed: s.seed,
        };
        Ok(Training {
            s: s.clone(),
            openings: games::openings::<A>(&play, s.independent_openings),
            play,
            reader,
        })
    }

    /// The settings that decide the self-play games (their count aside: a resumed run may
    /// ask for more).
    fn games_settings(&self) -> String {
        format!(
            "game={} engine={} random_plies={}{} explore={} max_plies={} seed={}",
            A::NAME,
            self.play.spec.identity(),
            self.play.random_plies,
            // Runs before distinct openings said nothing here: their files still resume
            // with independent openings, and a distinct run refuses them.
            if self.openings.is_some() {
                " distinct"
            } else {
                ""
            },
            self.play.explore,
            self.play.max_plies,
            self.play.seed
        )
    }

    /// The settings that decide the training (the epochs aside: a resumed run may ask for
    /// more).
    fn train_settings(&self) -> String {
        let s = &self.s;
        let terms = match (&self.reader, &s.sparse) {
            (Reader::Dense(inputs), _) if s.terms => format!(" terms={}", inputs.terms()),
            (_, Some(sp)) => format!(
                " net=sparse width={} perspectives={} l2={}",
                sp.width,
                sp.perspectives,
                sp.l2.unwrap_or(0)
            ),
            _ => String::new(),
        };
        format!(
            "{} games={} records={:?} target={} lambda={} score_scale={} draw={}{} hidden={:?} batch={} lr={} wd={} holdout={} skip={}{}",
            self.games_settings(),
            s.games,
            s.records,
            s.target.name(),
            s.lambda(),
            s.score_scale,
            s.draw,
            if s.draw_fit { " draw_fit" } else { "" },
            s.hidden,
            s.batch,
            s.learning_rate,
            s.weight_decay,
            s.holdout,
            s.skip,
            terms
        )
    }

    /// Runs: plays the games (or the missing ones), reads the records, trains, writes.
    pub fn run(&self, observer: &mut dyn Observer) -> Result<TrainReport, Error> {
        let start = Instant::now();
        let played = self.self_play(observer)?;
        let playing = start.elapsed().as_secs_f64();
        let mut sources = Vec::new();
        for g in &played {
            sources.push(self.source(RecordGame::of_training(g), g.scores.clone(), sources.len()));
        }
        let mut recorded = Vec::new();
        for f in &self.s.records {
            read_file(f, A::NAME, &mut recorded)?;
        }
        let before = recorded.len();
        recorded.retain(|g| !without_result(&g.result));
        let without = before - recorded.len();
        let n_recorded = recorded.len();
        for g in recorded {
            let scores = g.scores.clone();
            sources.push(self.source(g, scores, sources.len()));
        }
        let mut samples = samples::<A>(&self.reader, &sources, self.s.score_scale, self.s.draw)?;
        let (train, held) = split(&samples, self.s.skip);
        if train.is_empty() {
            return Err(Error::settings(
                "no position to train on: play games (--games) or give records (--records)",
            ));
        }
        let begun = Instant::now();
        let (trainer, losses, throughput) = self.train(&mut samples, &train, &held, observer)?;
        let training = begun.elapsed().as_secs_f64();
        let draw_fit = self.s.draw_fit.then(|| {
            let all: Vec<usize> = train.iter().chain(&held).copied().collect();
            data::fit_draw(&samples, &all, trainer.values())
        });
        let draw = draw_fit
            .as_ref()
            .map_or(self.s.draw, |f| f64::from(f.score));
        let net = trainer.network(&self.notes(&losses, (train.len(), held.len()), draw, &draw_fit));
        let files = self.write(&net, &losses)?;
        Ok(TrainReport {
            games: played.len() as u64,
            recorded: n_recorded,
            without_result: without,
            positions: (train.len(), held.len()),
            losses,
            net,
            throughput,
            files,
            seconds: (playing, training),
            draw_fit,
        })
    }

    /// A game to learn from, held out or not by the seed.
    fn source(&self, game: RecordGame, scores: Vec<Option<i32>>, i: usize) -> Source {
        let held = (mix(self.s.seed, i as u64) % 10_000) as f64 / 10_000.0 < self.s.holdout;
        Source { game, scores, held }
    }

    /// The self-play games: those of the games file when resuming, the rest played now
    /// (`concurrency` at once) and appended in order.
    fn self_play(&self, observer: &mut dyn Observer) -> Result<Vec<TrainGame>, Error> {
        if self.s.games == 0 {
            return Ok(Vec::new());
        }
        let settings = self.games_settings();
        let id = format!("{:016x}", fnv1a(settings.as_bytes()));
        let mut journal = match &self.s.out {
            Some(out) => {
                let header = Header {
                    id: id.clone(),
                    game: A::NAME.to_string(),
                    settings,
                    shard: self.s.shard,
                };
                let path = beside(out, GAMES_FILE);
                Some(Journal::<Games>::open(&path, &header, self.s.resume)?)
            }
            None => None,
        };
        let mut done: BTreeMap<u64, TrainGame> = BTreeMap::new();
        if let Some((_, entries, _)) = &journal {
            for (_, g) in entries {
                if g.index < self.s.games {
                    done.insert(g.index, g.clone());
                }
            }
        }
        observer.progress(Progress::Begin {
            total: self.s.games,
            unit: "games",
        });
        observer.progress(Progress::Played {
            done: done.len() as u64,
        });
        let shard = self.s.shard;
        let missing: Vec<u64> = (0..self.s.games)
            .filter(|i| !done.contains_key(i) && shard.map_or(true, |s| s.has(*i)))
            .collect();
        let mut append = |g: TrainGame| -> Result<(), Error> {
            if let Some((j, _, _)) = journal.as_mut() {
                j.append(&g)?;
            }
            done.insert(g.index, g);
            observer.progress(Progress::Played {
                done: done.len() as u64,
            });
            Ok(())
        };
        self.play_missing(&missing, &id, &mut append)?;
        if let (Some(shard), Some((j, _, _))) = (shard, &journal) {
            self.wait_for_siblings(shard, j.path(), &id, &mut done, observer);
        }
        observer.progress(Progress::End);
        Ok(done.into_values().collect())
    }

    /// A worker's wait for the other workers' games (read from the other files of its
    /// folder), until the run has all of them.
    fn wait_for_siblings(
        &self,
        shard: Shard,
        own: &Path,
        id: &str,
        done: &mut BTreeMap<u64, TrainGame>,
        observer: &mut dyn Observer,
    ) {
        let mut siblings = Siblings::<Games>::new(own, WAIT_EVERY);
        let since = Instant::now();
        loop {
            let mut found = BTreeMap::new();
            siblings.poll(id, &mut found);
            for (i, g) in found {
                if i < self.s.games {
                    done.entry(i).or_insert(g);
                }
            }
            observer.progress(Progress::Played {
                done: done.len() as u64,
            });
            let missing: Vec<u64> = (0..self.s.games)
                .filter(|i| !done.contains_key(i))
                .collect();
            if missing.is_empty() {
                return;
            }
            let workers = missing.iter().map(|i| i % shard.n + 1);
            waiting(
                observer,
                workers,
                shard.n,
                "self-play games",
                since.elapsed(),
            );
            std::thread::sleep(WAIT_EVERY);
        }
    }

    /// Plays the games `missing` on `concurrency` workers (each keeping its engines), handing
    /// each finished game to `append` in the order of `missing`; the first error stops the
    /// workers and is returned.
    fn play_missing(
        &self,
        missing: &[u64],
        id: &str,
        append: &mut dyn FnMut(TrainGame) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(usize, Result<TrainGame, Error>)>();
        std::thread::scope(|scope| {
            for _ in 0..self.s.concurrency.max(1) {
                let (tx, next, stop) = (tx.clone(), &next, &stop);
                scope.spawn(move || {
                    let mut players = games::Players::<A>::default();
                    while !stop.load(Ordering::Relaxed) {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&index) = missing.get(k) else { break };
                        let r = games::play::<A>(
                            &self.play,
                            self.openings.as_ref(),
                            id,
                            index,
                            &mut players,
                        );
                        if tx.send((k, r)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut pending = BTreeMap::new();
            let mut want = 0;
            for (k, r) in rx {
                pending.insert(k, r);
                while let Some(r) = pending.remove(&want) {
                    want += 1;
                    if let Err(e) = r.and_then(&mut *append) {
                        stop.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                }
            }
            Ok(())
        })
    }

    /// Trains, from the saved state when resuming; saves the state after each epoch.
    /// Returns the trainer, every epoch's losses and the positions a second of the epochs
    /// run here.
    fn train(
        &self,
        samples: &mut data::Samples,
        train: &[usize],
        held: &[usize],
        observer: &mut dyn Observer,
    ) -> Result<(Learner, Losses, Option<f64>), Error> {
        let s = &self.s;
        let net_settings = s.net_settings();
        let id = format!("{:016x}", fnv1a(self.train_settings().as_bytes()));
        let state = s.out.as_ref().map(|o| beside(o, STATE_FILE));
        let (mut trainer, mut losses) = match state.as_ref().filter(|p| s.resume && p.exists()) {
            Some(path) => resume_state(path, net_settings, &id, s.sparse.is_some())?,
            None => (self.new_learner(net_settings)?, Vec::new()),
        };
        observer.progress(Progress::Begin {
            total: s.epochs,
            unit: "epochs",
        });
        let lambda = s.lambda() as f32;
        if s.target != Target::Td {
            set_targets(samples, s.target, lambda, None);
        }
        let (mut trained, mut seconds) = (0usize, 0.0f64);
        for epoch in losses.len() as u64..s.epochs {
            if s.target == Target::Td {
                set_targets(samples, s.target, lambda, Some(trainer.values()));
            }
            let began = Instant::now();
            let t = trainer.epoch(&samples.data, train, epoch);
            seconds += began.elapsed().as_secs_f64();
            trained += train.len();
            let h = (!held.is_empty()).then(|| trainer.loss(&samples.data, held));
            losses.push((t, h));
            if let Some(path) = &state {
                let extra = BTreeMap::from([
                    ("id".to_string(), id.clone()),
                    (
                        "losses".to_string(),
                        serde_json::to_string(&losses).expect("numbers"),
                    ),
                ]);
                trainer
                    .save_state(path, &extra)
                    .map_err(|e| Error::Run(format!("the trainer's state: {e}")))?;
            }
            observer.progress(Progress::Epoch {
                done: epoch + 1,
                train: t,
                held: h,
            });
        }
        observer.progress(Progress::End);
        let throughput = (trained > 0).then(|| trained as f64 / seconds.max(1e-9));
        Ok((trainer, losses, throughput))
    }

    /// A new network's trainer, its first weights from the seed.
    fn new_learner(&self, settings: NetSettings) -> Result<Learner, Error> {
        let s = &self.s;
        Ok(match &self.reader {
            Reader::Dense(inputs) => {
                let mut sizes = vec![inputs.size()];
                sizes.extend(&s.hidden);
                sizes.push(A::PLAYERS);
                let net = Net::new(A::NAME, &sizes, s.seed)
                    .map_err(|e| Error::settings(format!("--hidden: {e}")))?;
                Learner::Dense(Trainer::new(net, settings))
            }
            Reader::Sparse(eval) => {
                Learner::Sparse(Box::new(SparseTrainer::new(eval.net().clone(), settings)))
            }
        })
    }

    /// The notes the network's file keeps: how it was made, what it reads and what it
    /// reached.
    fn notes(
        &self,
        losses: &[(f64, Option<f64>)],
        positions: (usize, usize),
        draw: f64,
        draw_fit: &Option<DrawFit>,
    ) -> Vec<(&str, String)> {
        let mut notes = vec![("made-by", "arena train".to_string())];
        if let Reader::Dense(inputs) = &self.reader {
            if inputs.terms() > 0 {
                notes.push((plyforge::learned::TERMS_NOTE, inputs.terms().to_string()));
            }
        }
        notes.push((plyforge::learned::DRAW_NOTE, draw.to_string()));
        if let Some(fit) = draw_fit {
            notes.push(("draw-fit", fit.to_string()));
        }
        notes.push(("settings", self.train_settings()));
        notes.push(("epochs", losses.len().to_string()));
        notes.push((
            "positions",
            format!("{} trained, {} held out", positions.0, positions.1),
        ));
        match losses.last() {
            Some((t, Some(h))) => notes.push(("loss", format!("{t:.5} trained, {h:.5} held out"))),
            Some((t, None)) => notes.push(("loss", format!("{t:.5} trained, none held out"))),
            None => {}
        }
        notes
    }

    /// Writes the network and the loss curve.
    fn write(&self, net: &Network, losses: &[(f64, Option<f64>)]) -> Result<Vec<PathBuf>, Error> {
        let Some(out) = &self.s.out else {
            return Ok(Vec::new());
        };
        let fail = |e: plyforge::learn::Error| match e {
            plyforge::learn::Error::Io { path, source } => Error::output("--out", &path, source),
            other => Error::Run(other.to_string()),
        };
        net.save(out).map_err(fail)?;
        let svg = beside(out, ".loss.svg");
        let title = format!("{}: {} ({})", A::TITLE, out.display(), self.s.target.name());
        std::fs::write(&svg, plot::loss_curve(&title, losses))
            .map_err(|e| Error::output("--out", &svg, e))?;
        Ok(vec![out.clone(), svg])
    }
}

/// A trainer from its state file, which must be this run's (of a sparse network when
/// `sparse`).
fn resume_state(
    path: &Path,
    settings: NetSettings,
    id: &str,
    sparse: bool,
) -> Result<(Learner, Losses), Error> {
    let file = format!("--resume: {}", path.display());
    let (trainer, extra) = if sparse {
        let (t, extra) =
            SparseTrainer::load_state(path, settings).map_err(|e| Error::input(&file, None, e))?;
        (Learner::Sparse(Box::new(t)), extra)
    } else {
        let (t, extra) =
            Trainer::load_state(path, settings).map_err(|e| Error::input(&file, None, e))?;
        (Learner::Dense(t), extra)
    };
    if extra.get("id").map(String::as_str) != Some(id) {
        return Err(Error::input(
            &file,
            None,
            "the state of another training run (other games, records or training settings)",
        ));
    }
    let losses: Losses = extra
        .get("losses")
        .and_then(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| Error::input(&file, None, "no losses in the state"))?;
    Ok((trainer, losses))
}

/// Refuses settings out of range.
fn check_settings(s: &TrainSettings) -> Result<(), Error> {
    let bad = |what: &str| Err(Error::settings(what.to_string()));
    if s.games == 0 && s.records.is_empty() {
        return bad("nothing to learn from: --games 0 and no --records");
    }
    if !(0.0..=1.0).contains(&s.explore) {
        return bad(&format!("--explore {}: a chance, 0 to 1", s.explore));
    }
    if !(0.0..1.0).contains(&s.holdout) {
        return bad(&format!("--holdout {}: a share, 0 to below 1", s.holdout));
    }
    if !(-1.0..=1.0).contains(&s.draw) {
        return bad(&format!("--draw-value {}: -1 to 1", s.draw));
    }
    if s.draw_fit && s.draw != -1.0 {
        return bad(&format!(
            "draw_fit with a draw of {}: where only wins count a drawn game is trained as no win (-1)",
            s.draw
        ));
    }
    if !(0.0..=1.0).contains(&s.lambda()) {
        return bad(&format!("--lambda {}: 0 to 1", s.lambda()));
    }
    if !(s.score_scale.is_finite() && s.score_scale > 0.0) {
        return bad(&format!(
            "--score-scale {}: a positive number",
            s.score_scale
        ));
    }
    if s.hidden.is_empty() || s.hidden.len() > 2 || s.hidden.contains(&0) {
        return bad(&format!(
            "--hidden {:?}: one or two hidden layers, each of at least 1",
            s.hidden
        ));
    }
    if s.epochs == 0 {
        return bad("--epochs 0: at least 1");
    }
    if s.resume && s.out.is_none() {
        return bad("--resume needs --out (the run's files)");
    }
    if s.shard.is_some() && (s.out.is_none() || s.games == 0) {
        return bad("--shard: the workers share self-play games through their files: give --games N and --out DIR/FILE (each worker its own file, one folder for all)");
    }
    s.net_settings()
        .check()
        .map_err(|e| Error::settings(e.to_string()))?;
    if let Some(out) = &s.out {
        let parent = out.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(dir) = parent.filter(|d| !d.exists()) {
            return bad(&format!(
                "--out {}: the folder {} does not exist",
                out.display(),
                dir.display()
            ));
        }
        if !s.resume && out.exists() {
            return bad(&format!(
                "--out {}: the file exists (--resume continues its run; or remove it)",
                out.display()
            ));
        }
    }
    Ok(())
}
