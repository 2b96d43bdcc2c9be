//! The dynamic layer: a game in progress that speaks notation ([`State`]) and an engine
//! made from a specification ([`Engine`]), for any registered game ([`GameKind`]).
//! Front ends that do not know the game at compile time (the Python package, the web page)
//! use these; everything here is written once over [`GameAdapter`].

use std::any::Any;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use search::{mate_distance, Game, Limits, Outcome, Player, Record, Report};

use crate::adapter::{
    play_list, play_text, result_text, result_words, ExactValue, GameAdapter, SolveSettings,
};
use crate::agent::{Agent, Kind, Spec};
use crate::draw::Paint;
use crate::view::Board;
use crate::{Error, GameKind};

/// An exact solution with its moves in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SolutionText {
    /// The value for the side to move.
    pub value: ExactValue,
    /// Every best move.
    pub best: Vec<String>,
    /// One perfect-play line (may be empty or cut short).
    pub line: Vec<String>,
}

/// What a search found, with its moves in notation.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchInfo {
    /// The move chosen (`None` only when the game is over).
    pub best: Option<String>,
    /// The score from the point of view of the player to move (see [`search::MATE`]); 0 for
    /// players that do not search.
    pub score: i32,
    /// One value per player (max^n; the two-player searches fill in the negation).
    pub scores: Vec<i32>,
    /// Depth of the last completed iteration (0 for players that do not search).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<String>,
    /// Fraction of table probes that found an entry.
    pub tt_hit_rate: f64,
}

impl SearchInfo {
    /// `Some(n)`: the score is a forced win (`n > 0`) or loss (`n < 0`) in `|n|` plies.
    pub fn mate(&self) -> Option<i32> {
        mate_distance(self.score)
    }

    fn from_report<M: fmt::Display>(r: &Report<M>, players: usize) -> SearchInfo {
        SearchInfo {
            best: r.best.as_ref().map(ToString::to_string),
            score: r.score,
            scores: r.scores[..players].to_vec(),
            depth: r.depth,
            nodes: r.nodes,
            nps: r.nps,
            elapsed: r.elapsed,
            pv: r.pv.iter().map(ToString::to_string).collect(),
            tt_hit_rate: r.tt_hit_rate,
        }
    }
}

/// The object-safe face of a [`Record`] of any game.
trait DynState: Send + Sync {
    fn kind(&self) -> GameKind;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn as_any(&self) -> &dyn Any;
    fn position(&self) -> String;
    fn start(&self) -> String;
    fn players(&self) -> usize;
    fn to_move(&self) -> Player;
    fn legal_moves(&self) -> Vec<String>;
    fn play(&mut self, text: &str) -> Result<String, Error>;
    fn play_index(&mut self, index: usize) -> Result<String, Error>;
    fn play_all(&mut self, items: &[&str]) -> Result<usize, Error>;
    fn undo(&mut self) -> Option<String>;
    fn moves(&self) -> Vec<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn result_text(&self, o: Outcome) -> String;
    fn result_words(&self, o: Outcome) -> String;
    fn draw(&self, paint: &dyn Fn(&str, Paint) -> String) -> String;
    fn perft(&self, depth: u32) -> u64;
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    fn solve(&self, settings: &SolveSettings<'_>) -> Result<SolutionText, Error>;
    fn key(&self) -> u64;
    fn clock_limits(&self, remaining: Duration) -> Limits;
    fn board(&self) -> Option<Board>;
    fn random_playout(&mut self, seed: u64, max_moves: Option<usize>) -> usize;
    fn encoding(&self) -> &dyn crate::encoding::DynEncoding;
}

struct StateOf<A: GameAdapter> {
    record: Record<A::Pos>,
    kind: GameKind,
}

fn texts<M: fmt::Display>(moves: &[M]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

impl<A: GameAdapter> DynState for StateOf<A> {
    fn kind(&self) -> GameKind {
        self.kind
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(StateOf::<A> {
            record: self.record.clone(),
            kind: self.kind,
        })
    }
    fn as_any(&self) -> &dyn Any {
        &self.record
    }
    fn position(&self) -> String {
        self.record.position().to_string()
    }
    fn start(&self) -> String {
        self.record.start().to_string()
    }
    fn players(&self) -> usize {
        A::PLAYERS
    }
    fn to_move(&self) -> Player {
        self.record.position().to_move()
    }
    fn legal_moves(&self) -> Vec<String> {
        texts(&self.record.legal_moves())
    }
    fn play(&mut self, text: &str) -> Result<String, Error> {
        play_text::<A>(&mut self.record, text).map(|m| m.to_string())
    }
    fn play_index(&mut self, index: usize) -> Result<String, Error> {
        if let Some(o) = self.record.result() {
            return Err(Error::GameOver {
                result: result_text::<A>(o),
            });
        }
        let moves = self.record.legal_moves();
        let mv = *moves.get(index).ok_or(Error::NoSuchMove {
            index,
            moves: moves.len(),
        })?;
        self.record
            .play(mv)
            .map_err(|e| Error::move_error(1, &mv.to_string(), e))?;
        Ok(mv.to_string())
    }
    fn play_all(&mut self, items: &[&str]) -> Result<usize, Error> {
        play_list::<A>(&mut self.record, items)
    }
    fn undo(&mut self) -> Option<String> {
        self.record.undo().map(|m| m.to_string())
    }
    fn moves(&self) -> Vec<String> {
        texts(self.record.moves())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.record.result()
    }
    fn result_text(&self, o: Outcome) -> String {
        result_text::<A>(o)
    }
    fn result_words(&self, o: Outcome) -> String {
        result_words::<A>(o)
    }
    fn draw(&self, paint: &dyn Fn(&str, Paint) -> String) -> String {
        A::draw(self.record.position(), paint)
    }
    fn perft(&self, depth: u32) -> u64 {
        search::perft(self.record.position(), depth)
    }
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        search::perft_divide(self.record.position(), depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect()
    }
    fn solve(&self, settings: &SolveSettings<'_>) -> Result<SolutionText, Error> {
        let s = A::solve(&self.record, settings).ok_or(Error::NoSolver { game: A::TITLE })??;
        Ok(SolutionText {
            value: s.value,
            best: texts(&s.best),
            line: texts(&s.line),
        })
    }
    fn key(&self) -> u64 {
        self.record.position().key()
    }
    fn clock_limits(&self, remaining: Duration) -> Limits {
        A::clock_limits(self.record.position(), remaining)
    }
    fn board(&self) -> Option<Board> {
        A::view().map(|v| crate::view::board_of::<A>(&v, &self.record))
    }
    fn random_playout(&mut self, seed: u64, max_moves: Option<usize>) -> usize {
        crate::playout::play_random::<A>(&mut self.record, seed, max_moves)
    }
    fn encoding(&self) -> &dyn crate::encoding::DynEncoding {
        self
    }
}

impl<A: GameAdapter> crate::encoding::DynEncoding for StateOf<A> {
    fn legal_actions(&self) -> Result<Vec<usize>, Error> {
        crate::encoding::legal_actions::<A>(&self.record)
    }
    fn action_of(&self, mv: &str) -> Result<usize, Error> {
        crate::encoding::action_of::<A>(&self.record, mv)
    }
    fn find_action(&self, action: usize) -> Result<usize, Error> {
        crate::encoding::find_action::<A>(&self.record, action)
    }
    fn history_actions(&self) -> Result<Vec<usize>, Error> {
        crate::encoding::history_actions::<A>(&self.record)
    }
    fn observe(&self, player: usize, out: &mut [f32]) -> Result<(), Error> {
        crate::encoding::observe::<A>(&self.record, player, out)
    }
    fn terms(&self, player: usize) -> Result<Vec<f32>, Error> {
        crate::encoding::terms::<A>(&self.record, player)
    }
}

/// A game in progress, of any game: a start position, the moves played, and the history
/// rules (repetition) applied as the game's [`Record`] applies them. Moves and positions are
/// notation strings.
///
/// ```
/// use plyforge::GameKind;
/// let mut game = GameKind::from_name("jumpy3").unwrap().new_game();
/// assert_eq!(game.legal_moves(), ["1", "2", "3", "4"]);
/// game.play("4").unwrap();
/// assert_eq!(game.position(), "Www.w.......bbbB b");
/// assert!(game.play("4").is_err()); // square 4 is empty now: an error naming the reason
/// assert_eq!(game.moves(), ["4"]);
/// game.undo();
/// assert_eq!(game.position(), "Wwww........bbbB w");
/// ```
pub struct State {
    inner: Box<dyn DynState>,
}

impl State {
    /// A state over a record of game `A`.
    pub fn of<A: GameAdapter>(record: Record<A::Pos>) -> State {
        State {
            inner: Box::new(StateOf::<A> {
                record,
                kind: GameKind::of::<A>(),
            }),
        }
    }

    /// The record underneath, when the game is `A`.
    pub fn record<A: GameAdapter>(&self) -> Option<&Record<A::Pos>> {
        self.inner.as_any().downcast_ref::<Record<A::Pos>>()
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        self.inner.kind()
    }
    /// The current position in notation.
    pub fn position(&self) -> String {
        self.inner.position()
    }
    /// The start position in notation.
    pub fn start(&self) -> String {
        self.inner.start()
    }
    /// The number of players.
    pub fn players(&self) -> usize {
        self.inner.players()
    }
    /// The player to move; `None` once the game is over.
    pub fn to_move(&self) -> Option<Player> {
        self.inner.outcome().is_none().then(|| self.inner.to_move())
    }
    /// Every legal move in notation, in the game's fixed order (none once it is over).
    pub fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }
    /// Plays a move given in notation; returns it as the game writes it.
    pub fn play(&mut self, mv: &str) -> Result<String, Error> {
        self.inner.play(mv)
    }
    /// Plays the legal move of this index in [`legal_moves`](State::legal_moves).
    pub fn play_index(&mut self, index: usize) -> Result<String, Error> {
        self.inner.play_index(index)
    }
    /// Plays moves in order (each item one move, or words that join into moves, as
    /// `arena apply` takes them); returns how many were played. Stops at the first bad move,
    /// with the moves before it played.
    pub fn play_all(&mut self, moves: &[&str]) -> Result<usize, Error> {
        self.inner.play_all(moves)
    }
    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<String> {
        self.inner.undo()
    }
    /// The moves played so far, in notation.
    pub fn moves(&self) -> Vec<String> {
        self.inner.moves()
    }
    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()
    }
    /// True once the game is over.
    pub fn is_over(&self) -> bool {
        self.inner.outcome().is_some()
    }
    /// The result in the result notation (what `arena apply` prints after `result: `), once
    /// the game is over.
    pub fn result(&self) -> Option<String> {
        self.inner.outcome().map(|o| self.inner.result_text(o))
    }
    /// The result in words for people, once the game is over.
    pub fn result_words(&self) -> Option<String> {
        self.inner.outcome().map(|o| self.inner.result_words(o))
    }
    /// Each player's utility ([`Outcome::utility`] halved: a win 1, both win 0.5, a draw 0,
    /// both lose −0.5, a loss −1); all 0 while the game goes on.
    pub fn returns(&self) -> Vec<f64> {
        let players = self.players();
        match self.inner.outcome() {
            Some(o) => (0..players)
                .map(|p| f64::from(o.utility(p)) / 2.0)
                .collect(),
            None => vec![0.0; players],
        }
    }
    /// The board as text, each piece of it passed through `paint` ([`crate::draw::plain`]
    /// leaves it as it is).
    pub fn draw(&self, paint: &dyn Fn(&str, Paint) -> String) -> String {
        self.inner.draw(paint)
    }
    /// Perft of the current position (see [`search::perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        self.inner.perft(depth)
    }
    /// Perft by first move (see [`search::perft_divide`]).
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.inner.perft_divide(depth)
    }
    /// The exact value and every best move of the current position, with the game's history
    /// ([`Error::NoSolver`] for games without a solver).
    pub fn solve(&self, settings: &SolveSettings<'_>) -> Result<SolutionText, Error> {
        self.inner.solve(settings)
    }
    /// The position's key (equal positions have equal keys).
    pub fn key(&self) -> u64 {
        self.inner.key()
    }
    /// The picture of the current position (cells, pieces, the legal moves' spots, the
    /// last move), for games that have one ([`GameAdapter::view`]; see [`crate::view`]).
    pub fn board(&self) -> Option<Board> {
        self.inner.board()
    }
    /// See [`crate::playout::random_playout`].
    pub(crate) fn random_playout(&mut self, seed: u64, max_moves: Option<usize>) -> usize {
        self.inner.random_playout(seed, max_moves)
    }
    /// The encodings of the game (answering [`Error::NoEncoding`] for a game without).
    pub(crate) fn dyn_encoding(&self) -> &dyn crate::encoding::DynEncoding {
        self.inner.encoding()
    }
    /// The engine's limits for the side to move's next move on a game clock with
    /// `remaining` thinking time left for the rest of the game (no increment), by the game's
    /// clock policy ([`GameAdapter::clock_limits`]: Chexers and Throne estimate the moves
    /// left and keep a reserve). The engine's time manager takes its share of that clock and
    /// never oversteps it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyforge::GameKind;
    /// let game = GameKind::from_name("chexers").unwrap().new_game();
    /// let clock = game.clock_limits(Duration::from_secs(60)).clock.unwrap();
    /// assert_eq!(clock.moves_to_go, Some(39));
    /// assert!(clock.remaining < Duration::from_secs(60));
    /// ```
    pub fn clock_limits(&self, remaining: Duration) -> Limits {
        self.inner.clock_limits(remaining)
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            inner: self.inner.clone_box(),
        }
    }
}

impl fmt::Display for State {
    /// The current position in notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position())
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("game", &self.kind().name())
            .field("start", &self.start())
            .field("moves", &self.moves())
            .finish()
    }
}

/// The object-safe face of an [`Agent`] of any game.
trait DynEngine: Send {
    fn kind(&self) -> GameKind;
    fn search(
        &mut self,
        state: &State,
        limits: Option<Limits>,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchInfo, Error>;
    fn stop_handle(&self) -> Option<Arc<AtomicBool>>;
}

struct EngineOf<A: GameAdapter> {
    agent: Agent<A>,
}

impl<A: GameAdapter> DynEngine for EngineOf<A> {
    fn kind(&self) -> GameKind {
        GameKind::of::<A>()
    }
    fn search(
        &mut self,
        state: &State,
        limits: Option<Limits>,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchInfo, Error> {
        let record = state.record::<A>().ok_or_else(|| Error::Spec {
            text: A::NAME.to_string(),
            reason: format!(
                "this engine plays {}, not {}",
                A::TITLE,
                state.kind().title()
            ),
        })?;
        if let Some(o) = record.result() {
            return Err(Error::GameOver {
                result: result_text::<A>(o),
            });
        }
        // Other limits for this search only.
        let mut saved = None;
        if let (Some(l), Agent::Search { limits: own, .. }) = (limits, &mut self.agent) {
            saved = Some(std::mem::replace(own, l));
        }
        let (best, report) = self
            .agent
            .choose(record, |r| info(&SearchInfo::from_report(r, A::PLAYERS)));
        if let (Some(l), Agent::Search { limits: own, .. }) = (saved, &mut self.agent) {
            *own = l;
        }
        Ok(match report {
            Some(r) => SearchInfo {
                best: best.map(|m| m.to_string()),
                ..SearchInfo::from_report(&r, A::PLAYERS)
            },
            None => SearchInfo {
                best: best.map(|m| m.to_string()),
                score: 0,
                scores: vec![0; A::PLAYERS],
                depth: 0,
                nodes: 0,
                nps: 0,
                elapsed: Duration::ZERO,
                pv: best.iter().map(ToString::to_string).collect(),
                tt_hit_rate: 0.0,
            },
        })
    }
    fn stop_handle(&self) -> Option<Arc<AtomicBool>> {
        match &self.agent {
            Agent::Search { engine, .. } => Some(engine.stop_handle()),
            _ => None,
        }
    }
}

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
    inner: Box<dyn DynEngine>,
    spec: Spec,
}

impl Engine {
    /// An engine for `kind` from a specification; `threads` unless the spec says otherwise.
    /// A search spec without its own limit searches 1 s per move.
    pub fn new(kind: GameKind, spec: &str, threads: Option<usize>) -> Result<Engine, Error> {
        kind.engine(spec, threads)
    }

    /// An engine of game `A` from a player made of `spec`.
    pub(crate) fn of<A: GameAdapter>(agent: Agent<A>, spec: Spec) -> Engine {
        Engine {
            inner: Box::new(EngineOf::<A> { agent }),
            spec,
        }
    }

    /// Which game it plays.
    pub fn kind(&self) -> GameKind {
        self.inner.kind()
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
        self.inner.search(state, limits, on_iteration)
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
