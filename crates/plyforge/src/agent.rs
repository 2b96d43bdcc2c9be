//! Engine specifications (`arena match --engine SPEC`, the web page's seats, Python's
//! `Engine(spec=...)`) and the players they make: the search engine under limits, a greedy
//! one-ply player and a random player.
//!
//! SPEC syntax: `KIND[,KEY=VALUE]...`
//! - KIND: `engine` (the game's recommended settings), `alphabeta` (`ab`), `paranoid`,
//!   `brs` (`bestreply`), `maxn`, `mcts` (Monte Carlo tree search): the search engine with
//!   that algorithm and the game's other recommended settings; `greedy`: the game crate's
//!   greedy player where it has one (Chexers, Throne), else (or with `eval=`) the move whose
//!   resulting position the evaluation likes best, ties broken at random; `random`: a
//!   uniformly random legal move.
//! - KEYs: `depth=N`, `time=DUR` (per move, e.g. `100ms`), `nodes=N`, `threads=N`,
//!   `eval=NAME` (one of the game's evaluations; Chexers' may be followed by weight settings,
//!   `eval=default:contempt=600:draw_standing=0`; or `eval=net:FILE`, a value network made by `arena train`, [`crate::learned`]), `tt=MIB` (`0`: no table), `ordering=on|off`,
//!   `aspiration=on|off`, `quiescence=on|off`, `repetition=off|maxn|brs|paranoid|alphabeta`
//!   (a second search with that model of the opponents before a move that repeats a position:
//!   [`Config::repetition_check`]), `offensive=N|off` (three players, paranoid search:
//!   search against a leader ahead by at least N evaluation points, [`Config::offensive`]),
//!   `apart=off|maxn|brs|paranoid|alphabeta` (the model of the opponents where the player
//!   to move is out of their reach, [`Config::apart`]), `tables=on|off` (play the game's
//!   own table move where it knows one, as Chexers' race leader does: [`Config::table_moves`]),
//!   `smp=split|lazy` (how the threads of the alpha-beta family share the search:
//!   [`Config::parallel`]),
//!   `mode=exact|selective` (the alpha-beta family's exact search, whose value at a fixed
//!   depth is minimax's, or its selective search: [`Config::selective`]), `seed=N` (random
//!   and greedy players, and the random choices of MCTS).
//! - Selective search keys ([`search::Selectivity`], with `mode=selective` or a game whose
//!   engine is selective): `lmr`, `null`, `futility`, `lmp`, `iir`, `ext` `=on|off` (late-move
//!   reductions, null-move pruning, (reverse) futility pruning, late-move pruning, internal
//!   iterative reductions, extensions), and its constants `lmr_base=N`, `lmr_divisor=N`
//!   (hundredths), `null_base=N` (plies), `rfp_margin=N` (percent), which `arena tune` tunes.
//! - The evaluation's parameters ([`GameAdapter::params`], [`crate::params`]): `NAME=NUMBER`
//!   for each the game declares (Chexers' `material=320`), checked against its range; they
//!   apply to the evaluation named by `eval=` (or the default).
//! - MCTS keys ([`search::MctsConfig`]): `iterations=N` (the same as `nodes=N`: MCTS counts
//!   iterations), `c=X` (`exploration`: the UCT constant), `bias=X` (progressive bias),
//!   `scale=X` (evaluation points per logistic unit), `playout=N` (plies of guided playout
//!   before the evaluation), `parallel=tree|root`, `reuse=on|off` (keep the tree between
//!   moves), `tree=MIB` (the tree's memory budget). A depth limit makes MCTS prove the root
//!   within that many plies (see [`search::Algorithm::Mcts`]).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use search::rng::XorShift64Star as Rng;
use search::{
    Algorithm, Config, Evaluator, Game, Limits, MctsParallel, Parallel, Player, Record, Report,
    Selectivity, MAX_EVAL,
};

use crate::adapter::{legal_moves, CratePlayer, GameAdapter};
use crate::duration::parse_duration;
use crate::learned::{self, Evaluation, LoadedNet, NetEval};
use crate::params::{SELECTIVE_NUMBERS, SELECTIVE_SWITCHES};
use crate::Error;

/// What kind of player a specification makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// The search engine; `None`: the game's recommended algorithm.
    Search(Option<Algorithm>),
    /// One ply, the evaluation's favourite.
    Greedy,
    /// A random legal move.
    Random,
}

/// A parsed engine specification.
///
/// ```
/// use plyforge::agent::{Kind, Spec};
/// use plyforge::games::Chexers;
/// let spec = Spec::parse::<Chexers>("brs,depth=3,tt=8").unwrap();
/// assert_eq!(spec.depth, Some(3));
/// assert_eq!(spec.config::<Chexers>(None).tt_mib, 8);
/// assert!(Spec::parse::<Chexers>("brs,depth=x").is_err());
/// // A second opinion from max^n before repeating a position, or none.
/// let checked = Spec::parse::<Chexers>("engine,repetition=maxn").unwrap();
/// let config = checked.config::<Chexers>(None);
/// assert_eq!(config.repetition_check, Some(plyforge::search::Algorithm::MaxN));
/// let off = Spec::parse::<Chexers>("engine,repetition=off").unwrap();
/// assert_eq!(off.config::<Chexers>(None).repetition_check, None);
/// let bad = Spec::parse::<Chexers>("engine,repetition=often").unwrap_err();
/// assert!(bad.to_string().contains("repetition=often: off, maxn"), "{bad}");
/// // MCTS is an engine kind, not a second opinion.
/// assert!(Spec::parse::<Chexers>("engine,repetition=mcts").is_err());
/// // The directed offensive against a leader ahead by 600 points, or none.
/// let attack = Spec::parse::<Chexers>("engine,offensive=600").unwrap();
/// assert_eq!(attack.config::<Chexers>(None).offensive, Some(600));
/// let off = Spec::parse::<Chexers>("engine,offensive=off").unwrap();
/// assert_eq!(off.config::<Chexers>(None).offensive, None);
/// assert!(Spec::parse::<Chexers>("engine,offensive=lots").is_err());
/// // max^n where the pieces cannot meet, the recommended search elsewhere.
/// let apart = Spec::parse::<Chexers>("engine,apart=maxn").unwrap();
/// assert_eq!(apart.config::<Chexers>(None).apart, Some(plyforge::search::Algorithm::MaxN));
/// let bad = Spec::parse::<Chexers>("engine,apart=far").unwrap_err();
/// assert!(bad.to_string().contains("apart=far: off, maxn"), "{bad}");
/// // The game's table moves (on by default) searched instead.
/// let searched = Spec::parse::<Chexers>("engine,tables=off").unwrap();
/// assert!(!searched.config::<Chexers>(None).table_moves);
/// assert!(Spec::parse::<Chexers>("engine").unwrap().config::<Chexers>(None).table_moves);
/// // The selective search, with a technique off and a constant changed.
/// let sel = Spec::parse::<Chexers>("paranoid,mode=selective,null=off,lmr_base=90").unwrap();
/// let s = sel.config::<Chexers>(None).selective.unwrap();
/// assert!(!s.null_move && s.reductions && s.lmr_base == 90);
/// assert!(Spec::parse::<Chexers>("paranoid,mode=exact").unwrap().config::<Chexers>(None).selective.is_none());
/// let bad = Spec::parse::<Chexers>("paranoid,mode=exact,lmr=off").unwrap_err();
/// assert!(bad.to_string().contains("selective search only"), "{bad}");
/// assert!(Spec::parse::<Chexers>("engine,mode=fast").is_err());
/// assert!(Spec::parse::<Chexers>("engine,mode=selective,null_base=0").is_err());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Spec {
    /// The text as given (the name in tables).
    pub text: String,
    /// The player kind.
    pub kind: Kind,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Time per move.
    pub time: Option<Duration>,
    /// Node budget per move.
    pub nodes: Option<u64>,
    /// Worker threads.
    pub threads: Option<usize>,
    /// Evaluation name (`net:FILE` for a value network).
    pub eval: Option<String>,
    /// The network of `eval=net:FILE`, read and checked when the spec was parsed.
    pub net: Option<LoadedNet>,
    /// Table size in MiB (0: none).
    pub tt_mib: Option<usize>,
    /// Move ordering.
    pub ordering: Option<bool>,
    /// Aspiration windows.
    pub aspiration: Option<bool>,
    /// Quiescence search.
    pub quiescence: Option<bool>,
    /// The second opinion before repeating a position ([`Config::repetition_check`]):
    /// `Some(None)` turns it off.
    pub repetition: Option<Option<Algorithm>>,
    /// The directed offensive's margin ([`Config::offensive`]): `Some(None)` turns it off.
    pub offensive: Option<Option<i32>>,
    /// The model of the opponents out of reach ([`Config::apart`]): `Some(None)` turns it
    /// off.
    pub apart: Option<Option<Algorithm>>,
    /// Whether the game's table moves are played ([`Config::table_moves`]).
    pub tables: Option<bool>,
    /// How the threads of the alpha-beta family share the search ([`Config::parallel`]).
    pub smp: Option<Parallel>,
    /// The selective search on or off ([`Config::selective`]).
    pub selective: Option<bool>,
    /// Changes to the selective search's settings ([`search::Selectivity`]), by key
    /// (`lmr=off` as `("lmr", 0)`, `lmr_base=90` as `("lmr_base", 90)`), in the order given.
    pub selectivity: Vec<(&'static str, i32)>,
    /// Seed of the random and greedy players, and of MCTS's random choices.
    pub seed: Option<u64>,
    /// MCTS: the UCT exploration constant.
    pub exploration: Option<f64>,
    /// MCTS: the progressive-bias weight.
    pub bias: Option<f64>,
    /// MCTS: evaluation points per logistic unit.
    pub scale: Option<f64>,
    /// MCTS: plies of guided playout before the evaluation.
    pub playout: Option<u32>,
    /// MCTS: how threads share the work.
    pub parallel: Option<MctsParallel>,
    /// MCTS: keep the tree between moves.
    pub reuse: Option<bool>,
    /// MCTS: the tree's memory budget in MiB.
    pub tree_mib: Option<usize>,
    /// Values of the evaluation's parameters ([`GameAdapter::params`]), in the order given
    /// (a name given twice keeps its last value).
    pub params: Vec<(&'static str, f64)>,
}

/// Sets the setting of `s` that the spec key `key` names to `v` (a switch: 0 or 1).
fn apply_selectivity(s: &mut Selectivity, key: &str, v: i32) {
    let on = v != 0;
    match key {
        "lmr" => s.reductions = on,
        "null" => s.null_move = on,
        "futility" => s.futility = on,
        "lmp" => s.late_move_pruning = on,
        "iir" => s.iir = on,
        "ext" => s.extensions = on,
        "lmr_base" => s.lmr_base = v,
        "lmr_divisor" => s.lmr_divisor = v,
        "null_base" => s.null_base = v,
        "rfp_margin" => s.rfp_margin = v,
        _ => unreachable!("spec keys are checked when parsed"),
    }
}

/// The search algorithm a word names (lower case), as engine kinds and `repetition=` spell
/// them.
fn algorithm_named(word: &str) -> Option<Algorithm> {
    Some(match word {
        "alphabeta" | "ab" | "negamax" => Algorithm::AlphaBeta,
        "paranoid" => Algorithm::Paranoid,
        "brs" | "bestreply" | "best-reply" => Algorithm::BestReply,
        "maxn" | "max^n" => Algorithm::MaxN,
        "mcts" | "uct" => Algorithm::Mcts,
        _ => return None,
    })
}

/// A model of the opponents (`repetition=`, `apart=`): an alpha-beta algorithm, or off.
fn model_named(key: &str, value: &str) -> Result<Option<Algorithm>, String> {
    match value.to_ascii_lowercase().as_str() {
        "off" | "none" | "no" => Ok(None),
        word => algorithm_named(word)
            .filter(|&a| a != Algorithm::Mcts)
            .map(Some)
            .ok_or_else(|| format!("{key}={value}: off, maxn, brs, paranoid or alphabeta")),
    }
}

/// The kind of player a specification's first word names.
fn kind_named(word: &str) -> Result<Kind, String> {
    Ok(match word.to_ascii_lowercase().as_str() {
        "engine" | "default" | "search" => Kind::Search(None),
        "greedy" => Kind::Greedy,
        "random" => Kind::Random,
        "" => return Err("an empty engine specification".to_string()),
        other => match algorithm_named(other) {
            Some(a) => Kind::Search(Some(a)),
            None => {
                return Err(format!(
                    "unknown engine kind {other:?} (engine, alphabeta, paranoid, brs, maxn, mcts, greedy, random)"
                ))
            }
        },
    })
}

fn on_off(key: &str, v: &str) -> Result<bool, String> {
    match v {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(format!("{key}={v}: the value must be on or off")),
    }
}

fn number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{key}={v}: the value must be a whole number"))
}

/// A finite number of at least 0.
fn real(key: &str, v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!(
            "{key}={v}: the value must be a number of at least 0"
        )),
    }
}

impl Spec {
    /// The game's recommended engine with no limits of its own.
    pub fn default_engine() -> Spec {
        Spec {
            text: "engine".to_string(),
            kind: Kind::Search(None),
            depth: None,
            time: None,
            nodes: None,
            threads: None,
            eval: None,
            net: None,
            tt_mib: None,
            ordering: None,
            aspiration: None,
            quiescence: None,
            repetition: None,
            offensive: None,
            apart: None,
            tables: None,
            smp: None,
            selective: None,
            selectivity: Vec::new(),
            seed: None,
            exploration: None,
            bias: None,
            scale: None,
            playout: None,
            parallel: None,
            reuse: None,
            tree_mib: None,
            params: Vec::new(),
        }
    }

    /// Parses a specification, checking evaluation names against the game.
    pub fn parse<A: GameAdapter>(text: &str) -> Result<Spec, Error> {
        Self::parse_reason::<A>(text).map_err(|reason| Error::Spec {
            text: text.trim().to_string(),
            reason,
        })
    }

    fn parse_reason<A: GameAdapter>(text: &str) -> Result<Spec, String> {
        let text = text.trim();
        let mut parts = text.split(',').map(str::trim);
        let mut spec = Spec::default_engine();
        spec.text = text.to_string();
        spec.kind = kind_named(parts.next().unwrap_or(""))?;
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{part:?}: expected KEY=VALUE"))?;
            let (key, value) = (key.trim(), value.trim());
            if !spec.set_search(key, value)?
                && !spec.set_selective(key, value)?
                && !spec.set_mcts(key, value)?
            {
                spec.set_other::<A>(key, value)?;
            }
        }
        spec.check::<A>(text)?;
        Ok(spec)
    }

    /// Sets a key of the search (`depth`, `eval`, `tt`, …); false for another key.
    fn set_search(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "depth" | "d" => self.depth = Some(number(key, value)?),
            "time" | "t" | "movetime" => {
                self.time = Some(parse_duration(value).map_err(|e| e.to_string())?)
            }
            "nodes" | "n" | "iterations" | "iters" => self.nodes = Some(number(key, value)?),
            "threads" => {
                let n: usize = number(key, value)?;
                if n == 0 || n > 256 {
                    return Err(format!("threads={value}: between 1 and 256"));
                }
                self.threads = Some(n)
            }
            "tt" => {
                let mib: usize = number(key, value)?;
                crate::memory::check_table_mib(mib).map_err(|e| format!("tt={value}: {e}"))?;
                self.tt_mib = Some(mib)
            }
            "ordering" => self.ordering = Some(on_off(key, value)?),
            "aspiration" => self.aspiration = Some(on_off(key, value)?),
            "quiescence" | "qs" => self.quiescence = Some(on_off(key, value)?),
            "repetition" => self.repetition = Some(model_named(key, value)?),
            "apart" => self.apart = Some(model_named(key, value)?),
            "tables" => self.tables = Some(on_off(key, value)?),
            "smp" => {
                self.smp = Some(match value {
                    "split" => Parallel::Split,
                    "lazy" => Parallel::Lazy,
                    _ => return Err(format!("smp={value}: split or lazy")),
                })
            }
            "offensive" => {
                self.offensive = Some(match value.to_ascii_lowercase().as_str() {
                    "off" | "none" | "no" => None,
                    _ => Some(value.parse().map_err(|_| {
                        format!("offensive={value}: off or a whole number (evaluation points)")
                    })?),
                })
            }
            "seed" => self.seed = Some(number(key, value)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Sets a key of the selective search (`mode`, the technique switches, the constants);
    /// false for another key.
    fn set_selective(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "mode" => {
                self.selective = Some(match value {
                    "exact" => false,
                    "selective" => true,
                    _ => return Err(format!("mode={value}: exact or selective")),
                })
            }
            k if SELECTIVE_SWITCHES.contains(&k) => {
                let on = on_off(key, value)?;
                self.set_selectivity(k, i32::from(on));
            }
            k => {
                let Some((name, min, max)) = SELECTIVE_NUMBERS
                    .iter()
                    .copied()
                    .find(|(name, ..)| *name == k)
                else {
                    return Ok(false);
                };
                let v: i32 = number(key, value)?;
                if !(min..=max).contains(&v) {
                    return Err(format!("{key}={value}: between {min} and {max}"));
                }
                self.set_selectivity(name, v);
            }
        }
        Ok(true)
    }

    /// Sets a key of Monte Carlo tree search (`c`, `bias`, …); false for another key.
    fn set_mcts(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "c" | "exploration" => self.exploration = Some(real(key, value)?),
            "bias" => self.bias = Some(real(key, value)?),
            "scale" => {
                let x = real(key, value)?;
                if x < 1.0 {
                    return Err(format!("scale={value}: at least 1 (evaluation points)"));
                }
                self.scale = Some(x)
            }
            "playout" => self.playout = Some(number(key, value)?),
            "parallel" => {
                self.parallel = Some(match value {
                    "tree" => MctsParallel::Tree,
                    "root" => MctsParallel::Root,
                    _ => return Err(format!("parallel={value}: tree or root")),
                })
            }
            "reuse" => self.reuse = Some(on_off(key, value)?),
            "tree" => {
                let mib: usize = number(key, value)?;
                if mib == 0 {
                    return Err(format!("tree={value}: at least 1 MiB"));
                }
                self.tree_mib = Some(mib)
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Sets `eval` or one of the game's evaluation parameters; any other key is refused,
    /// naming the keys there are.
    fn set_other<A: GameAdapter>(&mut self, key: &str, value: &str) -> Result<(), String> {
        if matches!(key, "eval" | "e") {
            if let Some(path) = value.strip_prefix("net:") {
                let net = learned::load::<A>(path).map_err(|e| format!("eval={value}: {e}"))?;
                self.eval = Some(value.to_string());
                self.net = Some(net);
                return Ok(());
            }
            self.net = None;
            if let Err(problem) = A::evaluator(value) {
                return Err(format!("eval={value}: {problem}"));
            }
            self.eval = Some(value.to_string());
            return Ok(());
        }
        match A::params().into_iter().find(|p| p.name == key) {
            Some(p) => {
                let v = p.parse(value)?;
                self.params.retain(|(name, _)| *name != p.name);
                self.params.push((p.name, v));
                Ok(())
            }
            None => {
                let params: Vec<&str> = A::params().iter().map(|p| p.name).collect();
                Err(format!(
                    "unknown key {key:?} (depth, time, nodes, iterations, threads, eval, tt, ordering, aspiration, quiescence, repetition, offensive, apart, tables, smp, mode, seed; for mode=selective also lmr, null, futility, lmp, iir, ext, lmr_base, lmr_divisor, null_base, rfp_margin; for mcts also c, bias, scale, playout, parallel, reuse, tree; {})",
                    if params.is_empty() {
                        format!("{} has no evaluation parameters", A::TITLE)
                    } else {
                        format!("the evaluation's parameters: {}", params.join(", "))
                    }
                ))
            }
        }
    }

    /// The keys together: the parameters make an evaluation, MCTS's keys go with MCTS, the
    /// players that do not search take no limit (and the random player no evaluation).
    fn check<A: GameAdapter>(&self, text: &str) -> Result<(), String> {
        if let (Some(net), Some((param, _))) = (&self.net, self.params.first()) {
            return Err(format!(
                "{param}: a parameter of the game's own evaluation; eval=net:{} is a network",
                net.path
            ));
        }
        if !self.params.is_empty() {
            let name = self
                .eval
                .as_deref()
                .unwrap_or_else(|| A::evaluator_names()[0]);
            if let Err(problem) = A::evaluator_with(name, &self.params) {
                return Err(format!("eval={name}: {problem}"));
            }
        }
        let mcts_keys = self.exploration.is_some()
            || self.bias.is_some()
            || self.scale.is_some()
            || self.playout.is_some()
            || self.parallel.is_some()
            || self.reuse.is_some()
            || self.tree_mib.is_some();
        let algorithm = match self.kind {
            Kind::Search(Some(a)) => Some(a),
            Kind::Search(None) => Some(A::engine_config().algorithm),
            _ => None,
        };
        let selective = self
            .selective
            .unwrap_or(A::engine_config().selective.is_some());
        if !self.selectivity.is_empty() && !selective {
            let keys: Vec<&str> = self.selectivity.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "{text:?}: {} apply to the selective search only (add mode=selective)",
                keys.join(", ")
            ));
        }
        if mcts_keys && algorithm != Some(Algorithm::Mcts) {
            return Err(format!(
                "{text:?}: c, bias, scale, playout, parallel, reuse and tree apply to mcts only"
            ));
        }
        if matches!(self.kind, Kind::Greedy | Kind::Random)
            && (self.depth.is_some() || self.time.is_some() || self.nodes.is_some())
        {
            return Err(format!(
                "{text:?}: depth, time and nodes apply to the search engine only"
            ));
        }
        if self.kind == Kind::Random && self.eval.is_some() {
            return Err(format!("{text:?}: the random player uses no evaluation"));
        }
        Ok(())
    }

    /// Records a change to the selective search's settings (the last of a key stands).
    fn set_selectivity(&mut self, key: &str, value: i32) {
        let name = SELECTIVE_SWITCHES
            .iter()
            .chain(SELECTIVE_NUMBERS.iter().map(|(name, ..)| name))
            .copied()
            .find(|&n| n == key)
            .expect("a selective search key");
        self.selectivity.retain(|(k, _)| *k != name);
        self.selectivity.push((name, value));
    }

    /// True when the spec sets a limit of its own.
    pub fn has_limit(&self) -> bool {
        self.depth.is_some() || self.time.is_some() || self.nodes.is_some()
    }

    /// The engine configuration: the game's recommendation with this spec's changes.
    pub fn config<A: GameAdapter>(&self, threads: Option<usize>) -> Config {
        let mut c = A::engine_config();
        if let Kind::Search(Some(alg)) = self.kind {
            c.algorithm = alg;
        }
        if let Some(t) = self.threads.or(threads) {
            c.threads = t;
        }
        if let Some(mib) = self.tt_mib {
            if mib == 0 {
                c.use_tt = false;
            } else {
                c.use_tt = true;
                c.tt_mib = mib;
            }
        }
        if let Some(v) = self.ordering {
            c.ordering = v;
        }
        if let Some(v) = self.aspiration {
            c.aspiration = v;
        }
        if let Some(v) = self.quiescence {
            c.quiescence = v;
        }
        if let Some(v) = self.repetition {
            c.repetition_check = v;
        }
        if let Some(v) = self.offensive {
            c.offensive = v;
        }
        if let Some(v) = self.apart {
            c.apart = v;
        }
        if let Some(v) = self.tables {
            c.table_moves = v;
        }
        if let Some(v) = self.smp {
            c.parallel = v;
        }
        match self.selective {
            Some(true) => c.selective = c.selective.or(Some(Selectivity::default())),
            Some(false) => c.selective = None,
            None => {}
        }
        if let Some(s) = c.selective.as_mut() {
            for &(key, v) in &self.selectivity {
                apply_selectivity(s, key, v);
            }
        }
        if let Some(x) = self.exploration {
            c.mcts.exploration = x;
        }
        if let Some(x) = self.bias {
            c.mcts.bias = x;
        }
        if let Some(x) = self.scale {
            c.mcts.scale = x;
        }
        if let Some(x) = self.playout {
            c.mcts.playout = x;
        }
        if let Some(x) = self.parallel {
            c.mcts.parallel = x;
        }
        if let Some(x) = self.reuse {
            c.mcts.reuse = x;
        }
        if let Some(x) = self.tree_mib {
            c.mcts.tree_mib = x;
        }
        if let Some(x) = self.seed {
            c.mcts.seed = x;
        }
        c
    }

    /// The search limits: the spec's own, else `fallback`.
    pub fn limits(&self, fallback: Limits) -> Limits {
        if self.has_limit() {
            Limits::default()
                .with_depth(self.depth)
                .with_nodes(self.nodes)
                .with_movetime(self.time)
        } else {
            fallback
        }
    }

    /// The evaluation this spec names (or the game's default): the game's own, or the
    /// network of `eval=net:FILE`.
    pub fn evaluator<A: GameAdapter>(&self) -> Evaluation<A> {
        if let Some(loaded) = &self.net {
            let eval = NetEval::shared(Arc::clone(&loaded.net))
                .expect("a network is checked against its game when the spec is parsed");
            return Evaluation::Net(eval);
        }
        Evaluation::Own(self.own_evaluator::<A>())
    }

    /// The game's own evaluation this spec names (or the game's default), ignoring a
    /// network.
    pub fn own_evaluator<A: GameAdapter>(&self) -> A::Eval {
        let name = self
            .eval
            .as_deref()
            .unwrap_or_else(|| A::evaluator_names()[0]);
        A::evaluator_with(name, &self.params).unwrap_or_else(|e| {
            panic!("evaluations and their parameters are checked when parsed: {e}")
        })
    }
}

/// The search engine of one game, with its evaluation, kept between moves (its table too).
pub struct SearchEngine<A: GameAdapter> {
    search: search::Search<A::Pos, Evaluation<A>>,
}

impl<A: GameAdapter> SearchEngine<A> {
    /// An engine with this configuration and evaluation.
    pub fn new(config: Config, eval: Evaluation<A>) -> Self {
        let mut search = search::Search::new(config, eval);
        search.set_maxn_bounds(A::maxn_bounds());
        SearchEngine { search }
    }

    /// Forgets what earlier searches left behind (the table's entries, the move-ordering
    /// tables), so that the next search is exactly a new engine's, without allocating the
    /// table again (a match reuses its engines from game to game this way).
    pub fn reset(&mut self) {
        self.search.reset();
    }

    /// An engine whose table is allocated now: an [`Error::Resources`] when the table is
    /// more than the memory available, or cannot be allocated, instead of an abort (or the
    /// kernel's out-of-memory killer) later. [`SearchEngine::new`] allocates on the first search
    /// and searches without a table if the memory is not there.
    ///
    /// ```
    /// use plyforge::agent::SearchEngine;
    /// use plyforge::games::Jumpy3;
    /// use plyforge::GameAdapter;
    /// let huge = Jumpy3::engine_config().with_tt_mib(1 << 40);
    /// let own = plyforge::learned::Evaluation::Own(Jumpy3::default_eval());
    /// let err = SearchEngine::<Jumpy3>::try_new(huge, own).err().unwrap();
    /// assert!(matches!(err, plyforge::Error::Resources { .. }), "{err}");
    /// ```
    pub fn try_new(config: Config, eval: Evaluation<A>) -> Result<Self, Error> {
        let mib = config.tt_mib;
        if config.use_tt && config.algorithm != Algorithm::MaxN {
            crate::memory::check_available_mib(mib).map_err(|reason| Error::Resources {
                reason: format!("transposition table: {reason}"),
            })?;
        }
        let mut search = search::Search::try_new(config, eval).map_err(|e| Error::Resources {
            reason: format!("transposition table: {mib} MiB cannot be allocated ({e})"),
        })?;
        search.set_maxn_bounds(A::maxn_bounds());
        Ok(SearchEngine { search })
    }

    /// The flag that stops a running search.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.search.stop_handle()
    }

    /// Searches the record's current position under `limits`, calling `info` after each
    /// completed iteration.
    pub fn think(
        &mut self,
        record: &Record<A::Pos>,
        limits: Limits,
        info: impl FnMut(&Report<A::Move>),
    ) -> Report<A::Move> {
        self.search
            .run(record.position(), record.history_keys(), limits, info)
    }
}

/// A player of a match or of `arena play`.
#[non_exhaustive]
pub enum Agent<A: GameAdapter> {
    /// The search engine under limits.
    Search {
        /// The engine.
        engine: Box<SearchEngine<A>>,
        /// Limits per move.
        limits: Limits,
    },
    /// The greedy one-ply player.
    Greedy {
        /// Its evaluation.
        eval: Evaluation<A>,
        /// Tie-breaks.
        rng: Rng,
    },
    /// The game crate's own greedy player.
    CrateGreedy(CratePlayer<A::Pos, A::Move>),
    /// The random player.
    Random(Rng),
}

impl<A: GameAdapter> Agent<A> {
    /// The player a spec describes; `fallback` are the limits for a search spec without its
    /// own, `threads` the thread count unless the spec says otherwise, `seed` the seed unless
    /// the spec says otherwise.
    pub fn new(spec: &Spec, fallback: Limits, threads: Option<usize>, seed: u64) -> Self {
        let seed = spec.seed.unwrap_or(seed);
        match spec.kind {
            Kind::Search(_) => {
                // MCTS's random choices follow the seed given here unless the spec sets one.
                let mut config = spec.config::<A>(threads);
                config.mcts.seed = seed;
                Agent::Search {
                    engine: Box::new(SearchEngine::new(config, spec.evaluator::<A>())),
                    limits: spec.limits(fallback),
                }
            }
            Kind::Greedy => match (spec.eval.is_none(), A::crate_greedy(seed)) {
                (true, Some(player)) => Agent::CrateGreedy(player),
                _ => Agent::Greedy {
                    eval: spec.evaluator::<A>(),
                    rng: Rng::seeded(seed),
                },
            },
            Kind::Random => Agent::Random(Rng::seeded(seed)),
        }
    }

    /// The player a spec describes, as [`Agent::new`], with the search engine's table
    /// allocated now ([`SearchEngine::try_new`]): an error instead of an abort when the memory is
    /// not there.
    pub fn try_new(
        spec: &Spec,
        fallback: Limits,
        threads: Option<usize>,
        seed: u64,
    ) -> Result<Self, Error> {
        match spec.kind {
            Kind::Search(_) => Ok(Agent::Search {
                engine: Box::new(SearchEngine::try_new(
                    spec.config::<A>(threads),
                    spec.evaluator::<A>(),
                )?),
                limits: spec.limits(fallback),
            }),
            _ => Ok(Agent::new(spec, fallback, threads, seed)),
        }
    }

    /// Chooses a move in a position that is not over; the report is there for the search.
    pub fn choose(
        &mut self,
        record: &Record<A::Pos>,
        info: impl FnMut(&Report<A::Move>),
    ) -> (Option<A::Move>, Option<Report<A::Move>>) {
        match self {
            Agent::Search { engine, limits } => {
                let report = engine.think(record, *limits, info);
                let best = report
                    .best
                    .or_else(|| record.legal_moves().first().copied());
                (best, Some(report))
            }
            Agent::Greedy { eval, rng } => (greedy::<A::Pos>(record, &*eval, rng), None),
            Agent::CrateGreedy(player) => (player(record.position()), None),
            Agent::Random(rng) => {
                let moves = record.legal_moves();
                if moves.is_empty() {
                    (None, None)
                } else {
                    (Some(moves[rng.below(moves.len())]), None)
                }
            }
        }
    }
}

/// The move after which the evaluation (or the game's end) is best for the mover; ties at
/// random.
fn greedy<G: Game>(record: &Record<G>, eval: &dyn Evaluator<G>, rng: &mut Rng) -> Option<G::Move> {
    let pos = record.position();
    let me: Player = pos.to_move();
    let mut best: Vec<G::Move> = Vec::new();
    let mut best_score = i64::MIN;
    for mv in legal_moves(pos) {
        let mut child = pos.clone();
        child.play(mv);
        let score = match child.outcome() {
            Some(o) => i64::from(o.utility(me)) * 10 * i64::from(MAX_EVAL),
            None => i64::from(eval.evaluate(&child)[me]),
        };
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(mv);
        }
    }
    if best.is_empty() {
        None
    } else {
        Some(best[rng.below(best.len())])
    }
}
