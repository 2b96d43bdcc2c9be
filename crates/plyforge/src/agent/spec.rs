//! Engine specifications: their syntax, [`SPEC_KEYS`] (every key, written once: the
//! parser, the help and the errors read it), and what a specification sets.

use std::time::Duration;

use search::{Algorithm, Config, Limits, MctsParallel, Parallel, Selectivity};

use crate::adapter::GameAdapter;
use crate::duration::parse_duration;
use crate::error::Error;
use crate::learned::{self, Evaluation, LoadedNet};
use crate::params::{check_declared, Param, SELECTIVE_NUMBERS, SELECTIVE_SWITCHES};

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
/// // Chexers' engine never ends a game by repetition while it has a way out; `allow` lets it.
/// assert!(Spec::parse::<Chexers>("engine").unwrap().config::<Chexers>(None).avoid_repetition_end);
/// let allow = Spec::parse::<Chexers>("engine,repetition-end=allow").unwrap();
/// assert!(!allow.config::<Chexers>(None).avoid_repetition_end);
/// let bad = Spec::parse::<Chexers>("engine,repetition-end=never").unwrap_err();
/// assert!(bad.to_string().contains("repetition-end=never: avoid or allow"), "{bad}");
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
    /// The network of `eval=net:FILE`, or without `eval=` the game's shipped network
    /// ([`GameAdapter::network`], path [`learned::SHIPPED`]), read and checked when the spec
    /// was parsed.
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
    /// Whether the root player keeps out of ending the game by the repetition rule
    /// ([`Config::avoid_repetition_end`]).
    pub repetition_end: Option<bool>,
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
    /// The words as given: the kind, then each `KEY=VALUE` as a pair (what
    /// [`identity`](Spec::identity) and [`with_net`](Spec::with_net) are made of).
    given: Vec<(String, String)>,
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

/// The value of the word `v` among `words` (a key's choices, in the order its error names
/// them: `KEY=V: A or B`).
fn one_of<T: Copy>(key: &str, v: &str, words: &[(&str, T)]) -> Result<T, String> {
    match words.iter().find(|(w, _)| *w == v) {
        Some(&(_, value)) => Ok(value),
        None => {
            let names: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
            Err(format!("{key}={v}: {}", names.join(" or ")))
        }
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

/// Which part of the engine a key of a specification sets (the help and the errors group
/// the keys so).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyGroup {
    /// The search and the player: limits, table, evaluation, the alpha-beta family's switches.
    Search,
    /// The selective search's techniques and constants (with `mode=selective`).
    Selective,
    /// Monte Carlo tree search's settings (with `mcts`).
    Mcts,
}

/// One key of an engine specification: its names (the first is the one the help shows,
/// the others are accepted too), the value it takes, what it does, and what it sets.
pub struct SpecKey {
    /// The names, the first the one shown.
    pub names: &'static [&'static str],
    /// The value it takes, for the help (`N`, `on|off`, `DUR`, …).
    pub value: &'static str,
    /// What it does, in a few words (empty: its name says it).
    pub about: &'static str,
    /// The part of the engine it sets.
    pub group: KeyGroup,
    /// Sets it in a specification (the key as written, its value), or says why not.
    set: fn(&mut Spec, &str, &str) -> Result<(), String>,
}

impl std::fmt::Debug for SpecKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SpecKey({}={})", self.names[0], self.value)
    }
}

/// A key of the search group (`key`, its value, what it sets).
const fn search_key(
    names: &'static [&'static str],
    value: &'static str,
    about: &'static str,
    set: fn(&mut Spec, &str, &str) -> Result<(), String>,
) -> SpecKey {
    SpecKey {
        names,
        value,
        about,
        group: KeyGroup::Search,
        set,
    }
}

/// A switch of the selective search (`lmr=on|off`).
const fn switch(name: &'static [&'static str], about: &'static str) -> SpecKey {
    SpecKey {
        names: name,
        value: "on|off",
        about,
        group: KeyGroup::Selective,
        set: |s, k, v| {
            let on = on_off(k, v)?;
            s.set_selectivity(k, i32::from(on));
            Ok(())
        },
    }
}

/// A constant of the selective search (`lmr_base=N`), in the range [`SELECTIVE_NUMBERS`]
/// gives it.
const fn constant(name: &'static [&'static str], about: &'static str) -> SpecKey {
    SpecKey {
        names: name,
        value: "N",
        about,
        group: KeyGroup::Selective,
        set: |s, k, v| {
            let (_, min, max) = SELECTIVE_NUMBERS
                .iter()
                .copied()
                .find(|(name, ..)| *name == k)
                .expect("every constant key has a range");
            let n: i32 = number(k, v)?;
            if !(min..=max).contains(&n) {
                return Err(format!("{k}={v}: between {min} and {max}"));
            }
            s.set_selectivity(k, n);
            Ok(())
        },
    }
}

/// A key of Monte Carlo tree search.
const fn mcts_key(
    names: &'static [&'static str],
    value: &'static str,
    about: &'static str,
    set: fn(&mut Spec, &str, &str) -> Result<(), String>,
) -> SpecKey {
    SpecKey {
        names,
        value,
        about,
        group: KeyGroup::Mcts,
        set,
    }
}

/// Every key of an engine specification, **the one list**: the parser looks keys up here,
/// the errors and `arena match --help` list them from here, and a game's evaluation
/// parameter may not take one of their names ([`check_params`]). Besides these, a
/// specification takes the game's evaluation parameters by name ([`GameAdapter::params`]).
pub const SPEC_KEYS: &[SpecKey] = &[
    search_key(&["depth", "d"], "N", "", |s, k, v| {
        s.depth = Some(number(k, v)?);
        Ok(())
    }),
    search_key(
        &["time", "t", "movetime"],
        "DUR",
        "per move, e.g. 100ms",
        |s, _, v| {
            s.time = Some(parse_duration(v).map_err(|e| e.to_string())?);
            Ok(())
        },
    ),
    search_key(
        &["nodes", "n", "iterations", "iters"],
        "N",
        "",
        |s, k, v| {
            s.nodes = Some(number(k, v)?);
            Ok(())
        },
    ),
    search_key(&["threads"], "N", "", |s, k, v| {
        let n: usize = number(k, v)?;
        if n == 0 || n > 256 {
            return Err(format!("threads={v}: between 1 and 256"));
        }
        s.threads = Some(n);
        Ok(())
    }),
    search_key(
        &["eval", "e"],
        "NAME",
        "one of the game's evaluations; zero, none (the game's ends alone); or net:FILE, a value \
         network of `arena train` (dense or sparse)",
        |s, _, v| {
            if v == "net" || v == "net:" {
                return Err(format!(
                    "eval={v}: a network is eval=net:FILE, the file `arena train` wrote \
                     (such as eval=net:c4.safetensors)"
                ));
            }
            s.eval = Some(v.to_string());
            Ok(())
        },
    ),
    search_key(
        &["tt"],
        "MIB",
        "the table's size; 0: no table",
        |s, k, v| {
            let mib: usize = number(k, v)?;
            crate::memory::check_table_mib(mib).map_err(|e| format!("tt={v}: {e}"))?;
            s.tt_mib = Some(mib);
            Ok(())
        },
    ),
    search_key(&["ordering"], "on|off", "", |s, k, v| {
        s.ordering = Some(on_off(k, v)?);
        Ok(())
    }),
    search_key(&["aspiration"], "on|off", "", |s, k, v| {
        s.aspiration = Some(on_off(k, v)?);
        Ok(())
    }),
    search_key(&["quiescence", "qs"], "on|off", "", |s, k, v| {
        s.quiescence = Some(on_off(k, v)?);
        Ok(())
    }),
    search_key(
        &["repetition"],
        "off|maxn|brs|paranoid|alphabeta",
        "before a move that repeats a position, a second search with that model of the \
         opponents; its move if it leaves the cycle",
        |s, k, v| {
            s.repetition = Some(model_named(k, v)?);
            Ok(())
        },
    ),
    search_key(
        &["repetition-end"],
        "avoid|allow",
        "avoid: never end the game by the repetition rule with a move of the player to move \
         while another move does not lose by force (a draw worth no more than a loss)",
        |s, k, v| {
            s.repetition_end = Some(one_of(k, v, &[("avoid", true), ("allow", false)])?);
            Ok(())
        },
    ),
    search_key(
        &["offensive"],
        "N|off",
        "three players, paranoid: when another player leads by N evaluation points or more, \
         search against it",
        |s, _, v| {
            s.offensive = Some(match v.to_ascii_lowercase().as_str() {
                "off" | "none" | "no" => None,
                _ => Some(v.parse().map_err(|_| {
                    format!("offensive={v}: off or a whole number (evaluation points)")
                })?),
            });
            Ok(())
        },
    ),
    search_key(
        &["apart"],
        "off|maxn|brs|paranoid|alphabeta",
        "the model of the opponents where the player to move is out of their reach",
        |s, k, v| {
            s.apart = Some(model_named(k, v)?);
            Ok(())
        },
    ),
    search_key(
        &["tables"],
        "on|off",
        "play the game's own exact move where it has one, such as a race table's (on by \
         default)",
        |s, k, v| {
            s.tables = Some(on_off(k, v)?);
            Ok(())
        },
    ),
    search_key(
        &["smp"],
        "split|lazy",
        "how several threads share an alpha-beta search: a node's moves after the first \
         shared out (the default), or Lazy SMP through the table",
        |s, k, v| {
            let modes = [("split", Parallel::Split), ("lazy", Parallel::Lazy)];
            s.smp = Some(one_of(k, v, &modes)?);
            Ok(())
        },
    ),
    search_key(
        &["mode"],
        "exact|selective",
        "the alpha-beta family: the exact search (minimax's value at a fixed depth) or the \
         selective one (reductions, pruning, extensions)",
        |s, k, v| {
            s.selective = Some(one_of(k, v, &[("exact", false), ("selective", true)])?);
            Ok(())
        },
    ),
    search_key(
        &["seed"],
        "N",
        "the random and greedy players', and MCTS's random choices",
        |s, k, v| {
            s.seed = Some(number(k, v)?);
            Ok(())
        },
    ),
    switch(&["lmr"], "late-move reductions"),
    switch(&["null"], "null-move pruning"),
    switch(&["futility"], "(reverse) futility pruning"),
    switch(&["lmp"], "late-move pruning"),
    switch(&["iir"], "internal iterative reductions"),
    switch(&["ext"], "extensions"),
    constant(
        &["lmr_base"],
        "late-move reductions' constant, hundredths of a ply",
    ),
    constant(
        &["lmr_divisor"],
        "late-move reductions' divisor, hundredths",
    ),
    constant(&["null_base"], "the null move's base reduction, plies"),
    constant(
        &["rfp_margin"],
        "reverse futility's margin per ply, percent",
    ),
    mcts_key(&["c", "exploration"], "X", "the UCT constant", |s, k, v| {
        s.exploration = Some(real(k, v)?);
        Ok(())
    }),
    mcts_key(&["bias"], "X", "progressive bias", |s, k, v| {
        s.bias = Some(real(k, v)?);
        Ok(())
    }),
    mcts_key(
        &["scale"],
        "X",
        "evaluation points per logistic unit",
        |s, k, v| {
            let x = real(k, v)?;
            if x < 1.0 {
                return Err(format!("scale={v}: at least 1 (evaluation points)"));
            }
            s.scale = Some(x);
            Ok(())
        },
    ),
    mcts_key(
        &["playout"],
        "N",
        "plies of guided playout before the evaluation",
        |s, k, v| {
            s.playout = Some(number(k, v)?);
            Ok(())
        },
    ),
    mcts_key(
        &["parallel"],
        "tree|root",
        "how threads share the work",
        |s, _, v| {
            s.parallel = Some(match v {
                "tree" => MctsParallel::Tree,
                "root" => MctsParallel::Root,
                _ => return Err(format!("parallel={v}: tree or root")),
            });
            Ok(())
        },
    ),
    mcts_key(
        &["reuse"],
        "on|off",
        "keep the tree between moves",
        |s, k, v| {
            s.reuse = Some(on_off(k, v)?);
            Ok(())
        },
    ),
    mcts_key(&["tree"], "MIB", "the tree's memory budget", |s, k, v| {
        let mib: usize = number(k, v)?;
        if mib == 0 {
            return Err(format!("tree={v}: at least 1 MiB"));
        }
        s.tree_mib = Some(mib);
        Ok(())
    }),
];

/// The keys of a group, by their first names, as `a, b, c`.
fn names_of(group: KeyGroup) -> String {
    SPEC_KEYS
        .iter()
        .filter(|k| k.group == group)
        .map(|k| k.names[0])
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every key, as the error of an unknown key lists them.
fn key_list() -> String {
    format!(
        "{}; for mode=selective also {}; for mcts also {}",
        names_of(KeyGroup::Search),
        names_of(KeyGroup::Selective),
        names_of(KeyGroup::Mcts)
    )
}

/// Why a game's list of evaluation parameters is not usable: [`check_declared`]'s reasons
/// (names, duplicates, ranges, steps), or a name that is one of [`SPEC_KEYS`]'.
pub fn check_params(params: &[Param]) -> Result<(), String> {
    check_declared(params)?;
    if let Some(p) = params
        .iter()
        .find(|p| SPEC_KEYS.iter().any(|k| k.names.contains(&p.name)))
    {
        return Err(format!(
            "parameter {:?}: an engine specification's own key",
            p.name
        ));
    }
    Ok(())
}

impl Spec {
    /// The game's recommended engine as `engine` is parsed for game `A`: no limits of its
    /// own, and the game's shipped network ([`GameAdapter::network`]) where it ships one.
    /// What a front end plays with when nobody names an engine. An error only when the
    /// game's shipped network is not a network of the game.
    ///
    /// ```
    /// use plyforge::agent::Spec;
    /// use plyforge::games::Jumpy3;
    /// let spec = Spec::recommended::<Jumpy3>().unwrap();
    /// assert_eq!(spec.identity(), "engine");
    /// ```
    pub fn recommended<A: GameAdapter>() -> Result<Spec, Error> {
        Spec::parse::<A>("engine")
    }

    /// The game's recommended engine with no limits of its own, whatever the game: its
    /// hand-made evaluation even where the game ships a network (see
    /// [`recommended`](Spec::recommended)).
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
            repetition_end: None,
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
            given: vec![(String::new(), "engine".to_string())],
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
        let kind = parts.next().unwrap_or("");
        spec.kind = kind_named(kind)?;
        spec.given = vec![(String::new(), kind.to_string())];
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{part:?}: expected KEY=VALUE"))?;
            let (key, value) = (key.trim(), value.trim());
            spec.given.push((key.to_string(), value.to_string()));
            match SPEC_KEYS.iter().find(|k| k.names.contains(&key)) {
                Some(k) => (k.set)(&mut spec, key, value)?,
                None => spec.set_param::<A>(key, value)?,
            }
        }
        spec.read_eval::<A>()?;
        spec.check::<A>(text)?;
        Ok(spec)
    }

    /// The search algorithm of a search spec (the game's recommended one for `engine`);
    /// `None` for the players that do not search.
    fn algorithm<A: GameAdapter>(&self) -> Option<Algorithm> {
        match self.kind {
            Kind::Search(Some(a)) => Some(a),
            Kind::Search(None) => Some(A::engine_config().algorithm),
            Kind::Greedy | Kind::Random => None,
        }
    }

    /// Reads `eval=`: a network's file (`net:FILE`), or one of the game's evaluations;
    /// without it, the network the game ships ([`GameAdapter::network`]) for the
    /// alpha-beta family when no evaluation parameter is set.
    fn read_eval<A: GameAdapter>(&mut self) -> Result<(), String> {
        self.net = None;
        let Some(value) = self.eval.clone() else {
            let alpha_beta = self.algorithm::<A>().is_some_and(|a| a != Algorithm::Mcts);
            if alpha_beta && self.params.is_empty() {
                if let Some(shipped) = learned::shipped::<A>() {
                    let net = shipped.map_err(|e| format!("the game's shipped network: {e}"))?;
                    self.net = Some(net);
                }
            }
            return Ok(());
        };
        if let Some(path) = value.strip_prefix("net:") {
            let net = learned::load::<A>(path).map_err(|e| format!("eval={value}: {e}"))?;
            self.net = Some(net);
        } else if value == learned::ZERO {
            // Every game's: no knowledge.
        } else if let Err(problem) = A::evaluator(&value) {
            return Err(format!(
                "eval={value}: {problem}; or {}, no knowledge; or net:FILE, a value network that \
                 `arena train` wrote",
                learned::ZERO
            ));
        }
        Ok(())
    }

    /// Sets one of the game's evaluation parameters; any other key is refused, naming the
    /// keys there are.
    fn set_param<A: GameAdapter>(&mut self, key: &str, value: &str) -> Result<(), String> {
        let params = A::params();
        let Some(p) = params.iter().find(|p| p.name == key) else {
            let names: Vec<&str> = params.iter().map(|p| p.name).collect();
            return Err(format!(
                "unknown key {key:?} ({}; {})",
                key_list(),
                if names.is_empty() {
                    format!("{} has no evaluation parameters", A::TITLE)
                } else {
                    format!("the evaluation's parameters: {}", names.join(", "))
                }
            ));
        };
        let v = p.parse(value)?;
        self.params.retain(|(name, _)| *name != p.name);
        self.params.push((p.name, v));
        Ok(())
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
        if let (Some(learned::ZERO), Some((param, _))) = (self.eval.as_deref(), self.params.first())
        {
            return Err(format!(
                "{param}: a parameter of the game's own evaluation; eval={} has none",
                learned::ZERO
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
        let algorithm = self.algorithm::<A>();
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
            let names = names_of(KeyGroup::Mcts);
            let names = match names.rsplit_once(", ") {
                Some((rest, last)) => format!("{rest} and {last}"),
                None => names,
            };
            return Err(format!("{text:?}: {names} apply to mcts only"));
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

    /// The specification as the id of a run sees it: its text, but with a network
    /// (`eval=net:FILE`) named by the digest of its file ([`LoadedNet::digest`]) instead of
    /// its path. Workers whose networks are the same bytes at different paths (every worker
    /// of `arena train --generations --shard` trains each generation's network) share one
    /// run, and a network changed under a resumed file is noticed.
    ///
    /// ```
    /// use plyforge::agent::Spec;
    /// use plyforge::games::Jumpy3;
    /// let spec = Spec::parse::<Jumpy3>("engine,depth=3").unwrap();
    /// assert_eq!(spec.identity(), "engine,depth=3");
    /// ```
    pub fn identity(&self) -> String {
        let Some(net) = &self.net else {
            return self.text.clone();
        };
        let mut words: Vec<String> = self
            .given
            .iter()
            .map(|(k, v)| match k.as_str() {
                "" => v.clone(),
                "eval" | "e" => format!("{k}=net#{:016x}", net.digest),
                _ => format!("{k}={v}"),
            })
            .collect();
        if !self.given.iter().any(|(k, _)| k == "eval" || k == "e") {
            // The game's shipped network, named by its bytes too.
            words.push(format!("eval=net#{:016x}", net.digest));
        }
        words.join(",")
    }

    /// This specification with the network `net` as its evaluation (in place of the one it
    /// names, if any); its text says so (`…,eval=net:FILE`). An error when the spec sets
    /// parameters of the game's own evaluation, which a network does not take, or is the
    /// random player's.
    pub fn with_net(mut self, net: LoadedNet) -> Result<Spec, Error> {
        if let Some((param, _)) = self.params.first() {
            return Err(Error::Spec {
                text: self.text.clone(),
                reason: format!(
                    "{param}: a parameter of the game's own evaluation, not a network's"
                ),
            });
        }
        if self.kind == Kind::Random {
            return Err(Error::Spec {
                text: self.text.clone(),
                reason: "the random player uses no evaluation".to_string(),
            });
        }
        self.given.retain(|(k, _)| k != "eval" && k != "e");
        self.given
            .push(("eval".to_string(), format!("net:{}", net.path)));
        self.text = self
            .given
            .iter()
            .map(|(k, v)| {
                if k.is_empty() {
                    v.clone()
                } else {
                    format!("{k}={v}")
                }
            })
            .collect::<Vec<_>>()
            .join(",");
        self.eval = Some(format!("net:{}", net.path));
        self.net = Some(net);
        Ok(self)
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
        if let Some(v) = self.repetition_end {
            c.avoid_repetition_end = v;
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
            return loaded
                .net
                .evaluation::<A>()
                .expect("a network is checked against its game when the spec is parsed");
        }
        if self.eval.as_deref() == Some(learned::ZERO) {
            return Evaluation::Zero;
        }
        Evaluation::Own(self.own_evaluator::<A>())
    }

    /// The game's own evaluation this spec names (or the game's default), ignoring a
    /// network (and `eval=zero`: then the default).
    pub fn own_evaluator<A: GameAdapter>(&self) -> A::Eval {
        let name = self
            .eval
            .as_deref()
            .filter(|&e| e != learned::ZERO)
            .unwrap_or_else(|| A::evaluator_names()[0]);
        A::evaluator_with(name, &self.params).unwrap_or_else(|e| {
            panic!("evaluations and their parameters are checked when parsed: {e}")
        })
    }
}
