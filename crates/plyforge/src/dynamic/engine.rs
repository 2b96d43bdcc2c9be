//! [`Engine`]: a player of any registered game, made from an engine specification.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use search::Limits;

use super::erased::{DynEngine, SearchInfo};
use super::registry::GameKind;
use super::state::State;
use crate::agent::{Kind, Spec};
use crate::error::Error;

/// A player of any game made from an engine specification (the specs of `arena match`:
/// `engine`, `alphabeta`, `paranoid`, `brs`, `maxn`, `mcts`, `greedy`, `random`, with
/// `depth=`, `time=`, `nodes=`, `threads=`, `eval=`, `tt=`, ... — see [`crate::agent`]).
/// It keeps its table between searches.
///
/// ```
/// use plyforge::{Engine, GameKind, Limits};
/// let game = GameKind::from_name("jumpy3").unwrap().new_game();
/// let mut engine = Engine::new(GameKind::from_name("jumpy3").unwrap(), "engine,depth=8", None).unwrap();
/// let info = engine.search(&game, None, &mut |_| {}).unwrap();
/// assert_eq!(info.depth, 8);
/// assert!(game.legal_moves().contains(info.best.as_ref().unwrap()));
/// // Other limits for one search:
/// let quick = engine.search(&game, Some(Limits::depth(2)), &mut |_| {}).unwrap();
/// assert_eq!(quick.depth, 2);
/// ```
pub struct Engine {
    kind: GameKind,
    inner: Box<dyn DynEngine>,
    spec: Spec,
}

impl Engine {
    /// An engine for `kind` from a specification; `threads` unless the spec says otherwise.
    /// A search spec without its own limit searches 1 s per move.
    pub fn new(kind: GameKind, spec: &str, threads: Option<usize>) -> Result<Engine, Error> {
        let (inner, spec) = kind.ops().engine(spec, threads)?;
        Ok(Engine { kind, inner, spec })
    }

    /// Which game it plays.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The specification's text.
    pub fn spec(&self) -> &str {
        &self.spec.text
    }

    /// True for a search engine (greedy and random players do not search).
    pub fn searches(&self) -> bool {
        matches!(self.spec.kind, Kind::Search(_))
    }

    /// Chooses a move for the state's player to move, under `limits` (or the spec's own
    /// limits when `None`), calling `on_iteration` after each completed iteration of a
    /// search. Errors: the game is over, or the state is of another game.
    pub fn search(
        &mut self,
        state: &State,
        limits: Option<Limits>,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchInfo, Error> {
        self.inner
            .search(&*state.inner, state.kind().title(), limits, on_iteration)
    }

    /// The flag that stops a running search from another thread (search engines only).
    pub fn stop_handle(&self) -> Option<Arc<AtomicBool>> {
        self.inner.stop_handle()
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("game", &self.kind().name())
            .field("spec", &self.spec.text)
            .finish()
    }
}
