//! The native module `plyforge._plyforge` of the Python package `plyforge`: every registered
//! game (`games()`) and the engine through the `plyforge` facade ([`plyforge::GameKind`], [`plyforge::State`],
//! [`plyforge::Engine`], [`plyforge::encoding`]). Nothing here knows any one game.
//!
//! Errors of the facade (bad notation, illegal moves, a finished game, an unknown game, a
//! player the game does not have) become `ValueError` with the facade's message.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArrayDyn};
use plyforge::encoding::{KindEncoding, StateEncoding};
use plyforge::{ExactValue, GameKind, Limits, SearchInfo, SolveSettings};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// How often a waiting search looks for Ctrl-C (and other signals).
const SIGNAL_POLL: Duration = Duration::from_millis(20);

fn value_error(e: plyforge::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A player index from Python: below the number of players, else a `ValueError`.
fn player_index(player: i64, players: usize) -> PyResult<usize> {
    usize::try_from(player)
        .ok()
        .filter(|&p| p < players)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "player {player} does not exist: the game has players 0 to {}",
                players - 1
            ))
        })
}

/// An action number from Python (negative numbers are out of range too).
fn action_number(action: i64, kind: GameKind) -> PyResult<usize> {
    let actions = kind.num_distinct_actions().map_err(value_error)?;
    usize::try_from(action).map_err(|_| {
        PyValueError::new_err(format!(
            "action {action}: out of range: {} has actions 0 to {}",
            kind.title(),
            actions - 1
        ))
    })
}

/// One of the games: its facts, its start, positions from notation.
#[pyclass(module = "plyforge._plyforge", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Game {
    kind: GameKind,
}

#[pymethods]
impl Game {
    /// The name (`jumpy3`, `chexers`, `throne`, `chaosclock`).
    #[getter]
    fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The name for people (`Jumpy3`, `Chexers`, `Throne`, `Chaos Clock`).
    #[getter]
    fn title(&self) -> &'static str {
        self.kind.title()
    }

    /// The number of players (2, or 3 for Chexers).
    fn num_players(&self) -> usize {
        self.kind.players()
    }

    /// The number of distinct action numbers (a `ValueError` for a game without them).
    fn num_distinct_actions(&self) -> PyResult<usize> {
        self.kind.num_distinct_actions().map_err(value_error)
    }

    /// The shape of `State.observation_tensor`.
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.kind.observation_shape().map_err(value_error)?)
    }

    /// The number of sparse features: every index of `State.features` is below it, and
    /// `State.features_tensor` has this many entries.
    fn num_features(&self) -> PyResult<usize> {
        self.kind.num_features().map_err(value_error)
    }

    /// The letter of a player as results write it (`w`, `b`, `r`, `g`, `odd`, ...).
    fn player_letter(&self, player: i64) -> PyResult<&'static str> {
        Ok(self
            .kind
            .player_letter(player_index(player, self.kind.players())?))
    }

    /// The name of a player for people (`White`, `Red`, `Odd`, ...).
    fn player_name(&self, player: i64) -> PyResult<&'static str> {
        Ok(self
            .kind
            .player_name(player_index(player, self.kind.players())?))
    }

    /// True for the games with an exact solver (Jumpy3, Chaos Clock, Throne).
    fn has_solver(&self) -> bool {
        self.kind.has_solver()
    }

    /// True when the rules deal the start at random (`random_state(seed)` gives a deal).
    #[getter]
    fn starts_at_random(&self) -> bool {
        self.kind.info().random_start
    }

    /// The move of an action number, in notation.
    fn action_to_move(&self, action: i64) -> PyResult<String> {
        self.kind
            .action_to_move(action_number(action, self.kind)?)
            .map_err(value_error)
    }

    /// A new game from the rules' start (Chaos Clock: the sample deal of the game's original README).
    fn new_initial_state(&self) -> State {
        State {
            inner: self.kind.new_game(),
        }
    }

    /// A new game from a position in notation (or `start`).
    fn state(&self, notation: &str) -> PyResult<State> {
        self.kind
            .game_from(notation)
            .map(|inner| State { inner })
            .map_err(value_error)
    }

    /// A new game from a seeded random start, for games that start at random (Chaos Clock).
    fn random_state(&self, seed: u64) -> PyResult<State> {
        self.state(&format!("random:{seed}"))
    }

    fn __repr__(&self) -> String {
        format!("plyforge.load_game({})", py_repr(self.kind.name()))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str,))> {
        let load = py.import("plyforge._plyforge")?.getattr("load_game")?;
        Ok((load, (self.kind.name(),)))
    }
}

/// A game in progress: a start, the moves played, the history rules applied.
#[pyclass(module = "plyforge._plyforge")]
#[derive(Clone)]
struct State {
    inner: plyforge::State,
}

#[pymethods]
impl State {
    /// The game being played.
    #[getter]
    fn game(&self) -> Game {
        Game {
            kind: self.inner.kind(),
        }
    }

    /// The player to move (0-based), or -1 once the game is over.
    fn current_player(&self) -> i64 {
        self.inner.to_move().map_or(-1, |p| p as i64)
    }

    /// Every legal move in notation, in the game's fixed order (empty once over).
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    /// The action numbers of the legal moves, in the order of `legal_moves()`.
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        self.inner.legal_actions().map_err(value_error)
    }

    /// One flag per action number (numpy bool array of `num_distinct_actions()`).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        Ok(self
            .inner
            .legal_actions_mask()
            .map_err(value_error)?
            .into_pyarray(py))
    }

    /// Plays a move given in notation.
    fn apply_move(&mut self, mv: &str) -> PyResult<()> {
        self.inner.play(mv).map(drop).map_err(value_error)
    }

    /// Plays a list of moves in order (as `arena apply` takes them); stops at the first bad
    /// one with a `ValueError`, the moves before it played.
    fn apply_moves(&mut self, moves: Vec<String>) -> PyResult<()> {
        let items: Vec<&str> = moves.iter().map(String::as_str).collect();
        self.inner.play_all(&items).map(drop).map_err(value_error)
    }

    /// Plays the move of an action number.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let a = action_number(action, self.inner.kind())?;
        self.inner.play_action(a).map(drop).map_err(value_error)
    }

    /// Takes back the last move; returns it, or None at the start.
    fn undo(&mut self) -> Option<String> {
        self.inner.undo()
    }

    /// True once the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_over()
    }

    /// One utility per player: win 1, both win 0.5, draw 0, both lose -0.5, loss -1; all 0
    /// while the game goes on.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// The result as `arena apply` prints it after `result: `, or None while the game goes on.
    fn result(&self) -> Option<String> {
        self.inner.result()
    }

    /// The result in words for people, or None while the game goes on.
    fn result_words(&self) -> Option<String> {
        self.inner.result_words()
    }

    /// The moves played so far, in notation.
    fn history(&self) -> Vec<String> {
        self.inner.moves()
    }

    /// The action numbers of the moves played so far.
    fn history_actions(&self) -> PyResult<Vec<usize>> {
        self.inner.history_actions().map_err(value_error)
    }

    /// The start position, in notation.
    fn start(&self) -> String {
        self.inner.start()
    }

    /// A copy that goes its own way.
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    fn __copy__(&self) -> State {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        Clone::clone(self)
    }

    /// The action number of a move in notation.
    fn move_to_action(&self, mv: &str) -> PyResult<usize> {
        self.inner.action_of(mv).map_err(value_error)
    }

    /// The move of an action number, in notation.
    fn action_to_move(&self, action: i64) -> PyResult<String> {
        let kind = self.inner.kind();
        kind.action_to_move(action_number(action, kind)?)
            .map_err(value_error)
    }

    /// The position as `player` sees it: a numpy float32 array of `observation_shape()`.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: i64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let p = player_index(player, self.inner.players())?;
        let data = self.inner.observation(p).map_err(value_error)?;
        let shape = self.inner.kind().observation_shape().map_err(value_error)?;
        let array = ArrayD::from_shape_vec(IxDyn(shape), data)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// The evaluation's terms as `player` sees them (a numpy float32 vector): what a
    /// network trained with `arena train --terms` reads after the observation.
    fn evaluation_terms<'py>(
        &self,
        py: Python<'py>,
        player: i64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let p = player_index(player, self.inner.players())?;
        let data = self.inner.evaluation_terms(p).map_err(value_error)?;
        let array = ArrayD::from_shape_vec(IxDyn(&[data.len()]), data)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// The sparse features of the position as `player` sees it (a numpy uint32 vector of
    /// the active features' indices, sorted): what a sparse network (`arena train --net
    /// sparse`) reads, one view per list, the player to move's first.
    fn features<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyArrayDyn<u32>>> {
        let p = player_index(player, self.inner.players())?;
        let data = self.inner.features(p).map_err(value_error)?;
        let array = ArrayD::from_shape_vec(IxDyn(&[data.len()]), data)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// The sparse features as a multi-hot numpy float32 vector of `num_features()` entries
    /// (1.0 at each active feature): a sparse network's input for PyTorch's module.
    fn features_tensor<'py>(
        &self,
        py: Python<'py>,
        player: i64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let p = player_index(player, self.inner.players())?;
        let active = self.inner.features(p).map_err(value_error)?;
        let mut data = vec![0.0f32; self.inner.kind().num_features().map_err(value_error)?];
        for f in active {
            data[f as usize] = 1.0;
        }
        let array = ArrayD::from_shape_vec(IxDyn(&[data.len()]), data)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// The board drawn as text.
    fn draw(&self) -> String {
        self.inner.draw(&plyforge::draw::plain)
    }

    /// Counts the leaf positions `depth` moves ahead (perft; the GIL is released).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let state = &self.inner;
        py.detach(|| state.perft(depth))
    }

    /// Plays uniformly random legal moves until the game is over (or `max_moves` have been
    /// played); returns the number of moves played. The seed makes it repeatable.
    #[pyo3(signature = (seed, max_moves=None))]
    fn random_playout(&mut self, py: Python<'_>, seed: u64, max_moves: Option<usize>) -> usize {
        let state = &mut self.inner;
        py.detach(|| plyforge::playout::random_playout(state, seed, max_moves))
    }

    fn __str__(&self) -> String {
        self.inner.position()
    }

    fn __repr__(&self) -> String {
        format!(
            "<plyforge.State {} {}, {} moves played>",
            self.inner.kind().name(),
            py_repr(&self.inner.position()),
            self.inner.moves().len()
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let restore = py.import("plyforge._plyforge")?.getattr("_restore")?;
        Ok((
            restore,
            (
                self.inner.kind().name(),
                self.inner.start(),
                self.inner.moves(),
            ),
        ))
    }
}

/// A string as Python's `repr` writes it (for the plain strings of notation).
fn py_repr(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// A list of strings as Python's `repr` writes it.
fn py_list(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| py_repr(s)).collect();
    format!("[{}]", inner.join(", "))
}

/// What `State.__reduce__` gives pickle: `_restore` and its arguments (game, start, moves).
type Reduced<'py> = (Bound<'py, PyAny>, (&'static str, String, Vec<String>));

/// What a search found.
#[pyclass(module = "plyforge._plyforge", frozen, get_all)]
#[derive(Clone)]
struct SearchResult {
    /// The move chosen, in notation.
    #[pyo3(name = "move")]
    best: Option<String>,
    /// The score for the player to move (mate scores are near +-1_000_000).
    score: i32,
    /// One score per player.
    scores: Vec<i32>,
    /// Depth of the last completed iteration.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// Seconds spent.
    time: f64,
    /// The principal variation, in notation, starting with `move`.
    pv: Vec<String>,
    /// Fraction of table probes that found an entry.
    tt_hit_rate: f64,
    /// Plies to a forced end: > 0 a win, < 0 a loss for the player to move; None otherwise.
    mate: Option<i32>,
}

impl From<&SearchInfo> for SearchResult {
    fn from(i: &SearchInfo) -> SearchResult {
        SearchResult {
            best: i.best.clone(),
            score: i.score,
            scores: i.scores.clone(),
            depth: i.depth,
            nodes: i.nodes,
            nps: i.nps,
            time: i.elapsed.as_secs_f64(),
            pv: i.pv.clone(),
            tt_hit_rate: i.tt_hit_rate,
            mate: i.mate(),
        }
    }
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={}, score={}, depth={}, nodes={}, pv={})",
            self.best.as_deref().map_or("None".to_string(), py_repr),
            self.score,
            self.depth,
            self.nodes,
            py_list(&self.pv)
        )
    }
}

/// A player made from an engine specification; it keeps its table between searches.
#[pyclass(module = "plyforge._plyforge", frozen)]
struct Engine {
    game: GameKind,
    spec: String,
    inner: Mutex<plyforge::Engine>,
    stop: Option<Arc<AtomicBool>>,
}

/// Whether a specification sets a key of its own (`tt=`, `threads=`).
fn spec_sets(spec: &str, keys: &[&str]) -> bool {
    spec.split(',').skip(1).any(|part| {
        part.split_once('=')
            .is_some_and(|(k, _)| keys.contains(&k.trim()))
    })
}

/// The limits of one search from `search`'s arguments (`None` without any: the spec's own
/// limits, else 1 s); `time` and `clock` in seconds.
fn limits_of(
    state: &State,
    depth: Option<u32>,
    time: Option<f64>,
    nodes: Option<u64>,
    clock: Option<f64>,
) -> PyResult<Option<plyforge::Limits>> {
    let seconds = |name: &str, v: Option<f64>| match v {
        Some(t) if !(t.is_finite() && t > 0.0) => Err(PyValueError::new_err(format!(
            "{name}={t}: a number of seconds above 0"
        ))),
        Some(t) => Ok(Some(Duration::from_secs_f64(t))),
        None => Ok(None),
    };
    let movetime = seconds("time", time)?;
    let clock = seconds("clock", clock)?;
    if movetime.is_some() && clock.is_some() {
        return Err(PyValueError::new_err(
            "time= and clock= together: give the time per move or the game clock, not both",
        ));
    }
    if depth == Some(0) {
        return Err(PyValueError::new_err("depth must be at least 1"));
    }
    Ok(
        (depth.is_some() || movetime.is_some() || nodes.is_some() || clock.is_some()).then(|| {
            let own = Limits::default()
                .with_depth(depth)
                .with_nodes(nodes)
                .with_movetime(movetime);
            match clock {
                Some(c) => state.inner.clock_limits(own, c, None),
                None => own,
            }
        }),
    )
}

#[pymethods]
impl Engine {
    /// An engine for `game` from a specification (`engine`, `alphabeta`, `paranoid`, `brs`,
    /// `maxn`, `mcts`, `greedy`, `random`, with `depth=`, `time=`, `tt=`, `eval=`, ...: the specs of
    /// `arena match`). `threads` and `tt_mib` apply unless the spec sets them itself; None
    /// keeps the game's recommendation.
    #[new]
    #[pyo3(signature = (game, threads=None, tt_mib=None, spec="engine"))]
    fn new(
        game: &Game,
        threads: Option<usize>,
        tt_mib: Option<usize>,
        spec: &str,
    ) -> PyResult<Self> {
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let mut text = spec.trim().to_string();
        if let Some(mib) = tt_mib {
            if !spec_sets(&text, &["tt"])
                && !text.starts_with("random")
                && !text.starts_with("greedy")
            {
                text.push_str(&format!(",tt={mib}"));
            }
        }
        let engine = plyforge::Engine::new(game.kind, &text, threads).map_err(value_error)?;
        let stop = engine.stop_handle();
        Ok(Engine {
            game: game.kind,
            spec: engine.spec().to_string(),
            inner: Mutex::new(engine),
            stop,
        })
    }

    /// The game it plays.
    #[getter]
    fn game(&self) -> Game {
        Game { kind: self.game }
    }

    /// The specification, as used.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// Chooses a move for the player to move in `state`. `depth`, `time` (seconds) and
    /// `nodes` limit this search (None for all: the spec's own limits, else 1 s). `clock`
    /// (seconds) is the time the player to move has left on a game clock for the rest of the
    /// game: the engine takes this move's share of it by the game's clock policy and its time
    /// manager, never overstepping it (not with `time`).
    /// `on_iteration(result)` is called after each completed iteration. The GIL is released
    /// while the engine thinks; Ctrl-C (KeyboardInterrupt) stops it promptly, and so does
    /// `stop()` from another thread.
    #[pyo3(signature = (state, depth=None, time=None, nodes=None, on_iteration=None, clock=None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        state: &State,
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
        on_iteration: Option<Py<PyAny>>,
        clock: Option<f64>,
    ) -> PyResult<SearchResult> {
        let limits = limits_of(state, depth, time, nodes, clock)?;
        let snapshot = state.inner.clone();
        let mut engine = self
            .inner
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this engine is already searching"))?;
        let engine: &mut plyforge::Engine = &mut engine;
        let stop = self.stop.clone();
        let raise_stop = || {
            if let Some(s) = &stop {
                s.store(true, Ordering::Relaxed);
            }
        };
        let callback_error: Mutex<Option<PyErr>> = Mutex::new(None);
        let mut interrupted: Option<PyErr> = None;
        let outcome = std::thread::scope(|scope| {
            let (done_tx, done_rx) = mpsc::channel::<()>();
            // Behind a lock only so that the waiting closure may be sent to `detach`.
            let done_rx = Mutex::new(done_rx);
            let worker = scope.spawn(|| {
                // Owned here, so that the channel closes even if the search panics.
                let done_tx = done_tx;
                let mut report = |info: &SearchInfo| {
                    let Some(f) = &on_iteration else { return };
                    Python::attach(|py| {
                        if let Err(e) = f.call1(py, (SearchResult::from(info),)) {
                            let mut slot = callback_error.lock().unwrap_or_else(|p| p.into_inner());
                            if slot.is_none() {
                                *slot = Some(e);
                            }
                            raise_stop();
                        }
                    });
                };
                let result = engine.search(&snapshot, limits, &mut report);
                let _ = done_tx.send(());
                result
            });
            loop {
                let wait = || {
                    let rx = done_rx.lock().unwrap_or_else(|p| p.into_inner());
                    rx.recv_timeout(SIGNAL_POLL)
                };
                match py.detach(wait) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => {
                        if interrupted.is_some() {
                            // The search resets its flag as it starts: keep it raised.
                            raise_stop();
                        } else if let Err(e) = py.check_signals() {
                            interrupted = Some(e);
                            raise_stop();
                        }
                    }
                }
            }
            worker.join()
        });
        if let Some(e) = interrupted {
            return Err(e);
        }
        if let Some(e) = callback_error
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
        {
            return Err(e);
        }
        match outcome {
            Ok(result) => result
                .map(|info| SearchResult::from(&info))
                .map_err(value_error),
            Err(_) => Err(PyRuntimeError::new_err("the search thread panicked")),
        }
    }

    /// Stops a running search (from another thread) as soon as it can.
    fn stop(&self) {
        if let Some(s) = &self.stop {
            s.store(true, Ordering::Relaxed);
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "plyforge.Engine(plyforge.load_game({}), spec={})",
            py_repr(self.game.name()),
            py_repr(&self.spec)
        )
    }
}

/// An exact solution.
#[pyclass(module = "plyforge._plyforge", frozen, get_all)]
#[derive(Clone)]
struct Solution {
    /// The value as `arena solve` prints it after `value: ` (`win 25`, `loss 4`, `draw`, or a
    /// Chaos Clock result code).
    value: String,
    /// Chaos Clock's result code for the player to move (4 wins, 3 both win, 2 both lose,
    /// 1 loses); None for other games.
    code: Option<u8>,
    /// Plies to the end with best play (Jumpy3 wins and losses); None otherwise.
    distance: Option<u32>,
    /// Every best move, in legal-move order.
    best: Vec<String>,
    /// One perfect-play line (may be empty or cut short).
    line: Vec<String>,
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(value={}, best={}, line={})",
            py_repr(&self.value),
            py_list(&self.best),
            py_list(&self.line)
        )
    }
}

/// The exact value and every best move of the state's position, with its history (Jumpy3,
/// Chaos Clock, Throne by proof-number search, which may give up; `ValueError` for
/// Chexers). `time` (seconds) bounds solvers that can give
/// up. `table` is a file for solvers with a table (Jumpy3): read if it exists, else built and
/// written there, so that later calls need not build it again. The GIL is released while it
/// works.
#[pyfunction]
#[pyo3(signature = (state, time=None, table=None))]
fn solve(
    py: Python<'_>,
    state: &State,
    time: Option<f64>,
    table: Option<std::path::PathBuf>,
) -> PyResult<Solution> {
    let time = match time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(PyValueError::new_err(format!(
                "time={t}: a number of seconds above 0"
            )))
        }
        t => t.map(Duration::from_secs_f64),
    };
    let snapshot = state.inner.clone();
    if snapshot.is_over() {
        return Err(value_error(plyforge::Error::GameOver {
            result: snapshot.result().unwrap_or_default(),
        }));
    }
    let s = py
        .detach(|| {
            let settings = SolveSettings::default()
                .with_time(time)
                .with_table(table.as_deref());
            snapshot.solve(&settings)
        })
        .map_err(value_error)?;
    let (code, distance) = match s.value {
        ExactValue::Code(c) => (Some(c), None),
        ExactValue::Win(n) | ExactValue::Loss(n) => (None, Some(n)),
        _ => (None, None),
    };
    Ok(Solution {
        value: s.value.to_string(),
        code,
        distance,
        best: s.best,
        line: s.line,
    })
}

/// The game of this name (`jumpy3`, `chexers`, `throne`, `chaosclock`; case-insensitive).
#[pyfunction]
fn load_game(name: &str) -> PyResult<Game> {
    GameKind::from_name(name)
        .map(|kind| Game { kind })
        .map_err(value_error)
}

/// The kind of the network file at `path`, `"dense"` (it reads the observation tensor,
/// `State.observation_tensor`) or `"sparse"` (it reads the sparse features, `State.features`),
/// from its header alone: which input a network was trained on. A file that cannot be read
/// or is no network of plyforge raises `ValueError` naming it.
#[pyfunction]
fn network_kind(path: &str) -> PyResult<&'static str> {
    use plyforge::learn::file::{kind_of, NetKind};
    let bytes = std::fs::read(path).map_err(|e| PyValueError::new_err(format!("{path}: {e}")))?;
    match kind_of(&bytes) {
        Ok(NetKind::Dense) => Ok("dense"),
        Ok(NetKind::Sparse) => Ok("sparse"),
        Err(e) => Err(PyValueError::new_err(format!("{path}: {e}"))),
    }
}

/// The names of the games.
#[pyfunction]
fn games() -> Vec<&'static str> {
    GameKind::all().iter().map(|k| k.name()).collect()
}

/// A state rebuilt from its game, start and moves (for pickle).
#[pyfunction]
fn _restore(name: &str, start: &str, moves: Vec<String>) -> PyResult<State> {
    let mut state = load_game(name)?.state(start)?;
    for m in &moves {
        state.apply_move(m)?;
    }
    Ok(state)
}

/// The native module.
#[pymodule]
fn _plyforge(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Engine>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<Solution>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(network_kind, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
