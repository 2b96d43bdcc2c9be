//! [`State`]: a game in progress of any registered game, in notation; and the methods of
//! [`GameKind`] that start one.

use std::fmt;
use std::time::Duration;

use search::{Limits, Outcome, Player, Record};

use super::erased::{state_of, DynEncoding, DynState, SolutionText};
use super::registry::GameKind;
use crate::adapter::picture::Board;
use crate::adapter::{GameAdapter, SolveSettings};
use crate::draw::Paint;
use crate::error::Error;

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
    kind: GameKind,
    pub(crate) inner: Box<dyn DynState>,
}

impl State {
    /// A state over a record of game `A`.
    pub fn of<A: GameAdapter>(record: Record<A::Pos>) -> State {
        State {
            kind: GameKind::of::<A>(),
            inner: state_of::<A>(record),
        }
    }

    /// The record underneath, when the game is `A`.
    pub fn record<A: GameAdapter>(&self) -> Option<&Record<A::Pos>> {
        self.inner.as_any().downcast_ref::<Record<A::Pos>>()
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        self.kind
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
    pub(crate) fn dyn_encoding(&self) -> &dyn DynEncoding {
        self.inner.encoding()
    }
    /// The engine's limits for the side to move's next move on a game clock with
    /// `remaining` thinking time left for the rest of the game (no increment), with `own`
    /// the player's own limits applying too, and `cap` a hard count of the moves left when
    /// the caller knows one: the one clock rule with the game's policy and estimate of its
    /// moves to go ([`crate::clock_limits`]; Chexers and Throne estimate the moves left and
    /// keep a reserve). The engine's time manager takes its share of that clock and never
    /// oversteps it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyforge::{GameKind, Limits};
    /// let game = GameKind::from_name("chexers").unwrap().new_game();
    /// let l = game.clock_limits(Limits::default(), Duration::from_secs(60), None);
    /// let clock = l.clock.unwrap();
    /// assert_eq!(clock.moves_to_go, Some(39));
    /// assert!(clock.remaining < Duration::from_secs(60));
    /// ```
    pub fn clock_limits(&self, own: Limits, remaining: Duration, cap: Option<u32>) -> Limits {
        self.inner.clock_limits(own, remaining, cap)
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            kind: self.kind,
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

impl GameKind {
    /// A new game from the rules' start.
    pub fn new_game(self) -> State {
        State {
            kind: self,
            inner: self.ops().start(),
        }
    }

    /// A new game from a position: its notation, `start`, or (for games that start at
    /// random) `random:SEED`.
    pub fn game_from(self, position: &str) -> Result<State, Error> {
        Ok(State {
            kind: self,
            inner: self.ops().read(position)?,
        })
    }
}
