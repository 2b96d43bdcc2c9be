//! The open registry of games: every game a program knows by name, ours and its own.
//!
//! A game joins with [`register`] (or [`GameKind::of`]) once it implements [`GameAdapter`];
//! from then on every front end that takes a game by name — `arena`, its web page, the
//! Python package, the fuzz targets — takes it, with no code of its own for that game. The
//! games compiled into this crate (one cargo feature each) are registered the first time
//! the registry is used, through the same [`register`] a user's game goes through
//! ([`crate::games::visit_default_games`] lists them).
//!
//! ```
//! use plyforge::games::Jumpy3;
//! use plyforge::{register, GameKind};
//! // Registering is idempotent: the same game, the same handle.
//! let kind = register::<Jumpy3>()?;
//! assert_eq!(kind, GameKind::from_name("jumpy3")?);
//! assert_eq!(kind, GameKind::of::<Jumpy3>());
//! assert!(GameKind::all().contains(&kind));
//! # Ok::<(), plyforge::Error>(())
//! ```

use std::any::TypeId;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::{OnceLock, RwLock};

use search::{Algorithm, Player};

use super::erased::{DynGame, Ops};
use crate::adapter::{GameAdapter, SolverTraits};
use crate::agent::check_params;
use crate::agent::Spec;
use crate::checks::Checks;
use crate::error::Error;
use crate::games::{visit_default_games, GameVisitor};
use crate::params::Param;

/// What a front end can know of a registered game without knowing its types: names,
/// players, what it offers. Read it through [`GameKind::info`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GameInfo {
    /// The name used on the command line ([`GameAdapter::NAME`]).
    pub name: &'static str,
    /// The name for people ([`GameAdapter::TITLE`]).
    pub title: &'static str,
    /// The game in a line ([`GameAdapter::ABOUT`]).
    pub about: &'static str,
    /// The number of players.
    pub players: usize,
    /// Each player's letter, in turn order.
    pub letters: Vec<&'static str>,
    /// Each player's name for people.
    pub player_names: Vec<&'static str>,
    /// The evaluations by name, the default first.
    pub evaluators: &'static [&'static str],
    /// What its exact solver takes, if it has one.
    pub solver: Option<SolverTraits>,
    /// Its solver in a line ([`GameAdapter::SOLVER_NOTE`]).
    pub solver_note: &'static str,
    /// Its rules deal the start at random.
    pub random_start: bool,
    /// It has fair starts (`fair:SEED`).
    pub fair_start: bool,
    /// The moves per side its own rules allow, if limited.
    pub own_move_limit: Option<u32>,
    /// The algorithm of its recommended engine.
    pub algorithm: Algorithm,
    /// The two engine specifications of a default match.
    pub default_match: [&'static str; 2],
    /// The number of distinct action numbers, if it has an encoding.
    pub actions: Option<usize>,
    /// The shape of its observation tensors (empty without an encoding).
    pub observation_shape: &'static [usize],
    /// The number of its sparse features (0 without an encoding).
    pub features: usize,
    /// It has a picture for graphical front ends ([`GameAdapter::view`]).
    pub has_view: bool,
    /// The bench list of `arena bench` ([`GameAdapter::BENCH`]; empty: none).
    pub bench: &'static str,
    /// The evaluation's tunable parameters ([`GameAdapter::params`]).
    pub params: Vec<Param>,
}

impl GameInfo {
    fn of<A: GameAdapter>() -> GameInfo {
        let encoding = A::encoding();
        GameInfo {
            name: A::NAME,
            title: A::TITLE,
            about: A::ABOUT,
            players: A::PLAYERS,
            letters: (0..A::PLAYERS).map(A::player_letter).collect(),
            player_names: (0..A::PLAYERS).map(A::player_name).collect(),
            evaluators: A::evaluator_names(),
            solver: A::HAS_SOLVER.then_some(A::SOLVER),
            solver_note: A::SOLVER_NOTE,
            random_start: A::RANDOM_START,
            fair_start: A::HAS_FAIR_START,
            own_move_limit: A::own_move_limit(),
            algorithm: A::engine_config().algorithm,
            default_match: A::default_match(),
            actions: encoding.as_ref().map(|e| e.actions),
            observation_shape: encoding.as_ref().map_or(&[], |e| e.shape),
            features: encoding.as_ref().map_or(0, |e| e.features),
            has_view: A::view().is_some(),
            bench: A::BENCH,
            params: A::params(),
        }
    }
}

struct Entry {
    type_id: TypeId,
    info: GameInfo,
    ops: Box<dyn DynGame>,
    checks: Checks,
}

/// Every registered game, in the order of registration (the default games first).
struct Registry {
    entries: RwLock<Vec<&'static Entry>>,
}

/// The registry, with the default games in it.
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    static DEFAULTS: std::sync::Once = std::sync::Once::new();
    let r = REGISTRY.get_or_init(|| Registry {
        entries: RwLock::new(Vec::new()),
    });
    DEFAULTS.call_once(|| {
        struct Defaults(&'static Registry);
        impl GameVisitor for Defaults {
            fn visit<A: GameAdapter>(&mut self) {
                self.0
                    .insert::<A>()
                    .expect("the default games have distinct, valid names");
            }
        }
        visit_default_games(&mut Defaults(r));
    });
    r
}

fn entry_of<A: GameAdapter>() -> &'static Entry {
    Box::leak(Box::new(Entry {
        type_id: TypeId::of::<A>(),
        info: GameInfo::of::<A>(),
        ops: Box::new(Ops::<A>(std::marker::PhantomData)),
        checks: Checks::of::<A>(),
    }))
}

impl Registry {
    fn entries(&self) -> std::sync::RwLockReadGuard<'_, Vec<&'static Entry>> {
        self.entries.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds `A` (once).
    fn insert<A: GameAdapter>(&self) -> Result<GameKind, Error> {
        let id = TypeId::of::<A>();
        if let Some(e) = self.entries().iter().find(|e| e.type_id == id) {
            return Ok(GameKind(e));
        }
        if let Some(reason) = name_problem(A::NAME) {
            return Err(Error::Registry {
                name: A::NAME.to_string(),
                reason: reason.to_string(),
            });
        }
        if let Err(reason) = check_params(&A::params()) {
            return Err(Error::Registry {
                name: A::NAME.to_string(),
                reason,
            });
        }
        let mut entries = self.entries.write().unwrap_or_else(|p| p.into_inner());
        // Again under the write lock: another thread may have registered it meanwhile.
        if let Some(e) = entries.iter().find(|e| e.type_id == id) {
            return Ok(GameKind(e));
        }
        if entries.iter().any(|e| e.info.name == A::NAME) {
            return Err(Error::Registry {
                name: A::NAME.to_string(),
                reason: "another game has this name".to_string(),
            });
        }
        let entry = entry_of::<A>();
        entries.push(entry);
        Ok(GameKind(entry))
    }
}

/// Why a name cannot be a game's name: empty, or other characters than lower-case ASCII
/// letters, digits and inner `-`.
fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("a game's name must not be empty");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Some("a game's name has lower-case letters, digits and `-` only");
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some("a game's name does not start or end with `-`");
    }
    None
}

/// Adds game `A` to the registry (once: registering it again returns the same handle), so
/// that every front end takes it by name. Errors: a name that is not lower-case letters,
/// digits and `-`, or a name that another game has.
pub fn register<A: GameAdapter>() -> Result<GameKind, Error> {
    registry().insert::<A>()
}

/// A registered game: a small handle, chosen at run time by name ([`GameKind::from_name`])
/// or from its adapter type ([`GameKind::of`]).
///
/// ```
/// use plyforge::GameKind;
/// let kind: GameKind = "chexers".parse().unwrap();
/// assert_eq!(kind.players(), 3);
/// assert_eq!(kind.title(), "Chexers");
/// assert_eq!(kind.to_string(), "chexers");
/// assert!(GameKind::all().len() >= 4);
/// ```
#[derive(Clone, Copy)]
pub struct GameKind(&'static Entry);

impl GameKind {
    /// The game of adapter `A`, registering it if it is not yet (see [`register`]). A game
    /// whose name another game already has is still given a handle, but cannot be found by
    /// name; [`register`] says so.
    pub fn of<A: GameAdapter>() -> GameKind {
        if let Ok(kind) = register::<A>() {
            return kind;
        }
        // Games that could not take their name, each once.
        static UNNAMED: RwLock<Vec<&'static Entry>> = RwLock::new(Vec::new());
        let mut unnamed = UNNAMED.write().unwrap_or_else(|p| p.into_inner());
        let id = TypeId::of::<A>();
        if let Some(e) = unnamed.iter().find(|e| e.type_id == id) {
            return GameKind(e);
        }
        let entry = entry_of::<A>();
        unnamed.push(entry);
        GameKind(entry)
    }

    /// Every registered game, in the order of registration (the default games first).
    pub fn all() -> Vec<GameKind> {
        registry().entries().iter().map(|e| GameKind(e)).collect()
    }

    /// The game of this name (case-insensitive); [`Error::UnknownGame`] names the games.
    pub fn from_name(name: &str) -> Result<GameKind, Error> {
        let n = name.trim().to_ascii_lowercase();
        registry()
            .entries()
            .iter()
            .find(|e| e.info.name == n)
            .map(|e| GameKind(e))
            .ok_or_else(|| Error::UnknownGame {
                name: name.to_string(),
                known: GameKind::all().iter().map(|k| k.name()).collect(),
            })
    }

    /// True when this is the game of adapter `A`.
    pub fn is<A: GameAdapter>(self) -> bool {
        self.0.type_id == TypeId::of::<A>()
    }

    /// Everything known of the game without its types.
    pub fn info(self) -> &'static GameInfo {
        &self.0.info
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        self.0.info.name
    }

    /// The game's name for people.
    pub fn title(self) -> &'static str {
        self.0.info.title
    }

    /// The number of players.
    pub fn players(self) -> usize {
        self.0.info.players
    }

    /// The letter of a player, as in `result: winner X` (`?` for a player the game does not
    /// have).
    pub fn player_letter(self, p: Player) -> &'static str {
        self.0.info.letters.get(p).copied().unwrap_or("?")
    }

    /// The name of a player for people (`?` for a player the game does not have).
    pub fn player_name(self, p: Player) -> &'static str {
        self.0.info.player_names.get(p).copied().unwrap_or("?")
    }

    /// The names of the evaluations the game offers, the default first.
    pub fn evaluator_names(self) -> &'static [&'static str] {
        self.0.info.evaluators
    }

    /// True when the game has an exact solver ([`State::solve`](crate::State::solve)).
    pub fn has_solver(self) -> bool {
        self.0.info.solver.is_some()
    }

    /// A specification parsed for this game (evaluation names checked against it).
    pub fn parse_spec(self, spec: &str) -> Result<Spec, Error> {
        self.0.ops.spec(spec)
    }

    /// The checks every game passes ([`crate::checks`]), for this game.
    pub fn checks(self) -> Checks {
        self.0.checks
    }

    /// The move of an action number, in notation ([`crate::encoding`]).
    pub(crate) fn action_to_move(self, action: usize) -> Result<String, Error> {
        self.0.ops.action_to_move(action)
    }

    /// The game's typed operations (for the dynamic layer's `State` and `Engine`).
    pub(crate) fn ops(self) -> &'static dyn DynGame {
        &*self.0.ops
    }
}

impl PartialEq for GameKind {
    fn eq(&self, other: &GameKind) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for GameKind {}

impl Hash for GameKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.type_id.hash(state)
    }
}

impl fmt::Debug for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("GameKind").field(&self.name()).finish()
    }
}

impl FromStr for GameKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<GameKind, Error> {
        GameKind::from_name(s)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert!(name_problem("connect-four").is_none());
        assert!(name_problem("go9").is_none());
        for bad in ["", "Chess", "a b", "-x", "x-", "ünï", "a/b"] {
            assert!(name_problem(bad).is_some(), "{bad:?}");
        }
    }
}
