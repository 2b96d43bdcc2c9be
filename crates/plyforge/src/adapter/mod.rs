//! The typed layer: [`GameAdapter`], what every front end needs of a game (one
//! implementation per game in [`crate::games`]), its two optional parts (action numbers and
//! observations, [`Encoding`]; a picture, [`BoardView`]) and the code written once over it:
//! positions and moves from text and results in words ([`play`]), action numbers of a
//! record ([`actions`]), a record's picture ([`board`], in the vocabulary of [`picture`]).
//! Nothing here knows the dynamic layer (`GameKind`, `State`): that layer is built on this
//! one.

pub(crate) mod actions;
pub(crate) mod board;
pub(crate) mod picture;
mod play;

pub(crate) use actions::{
    action_of, decode, find_action, history_actions, legal_actions, observe, seen_features,
    seen_terms,
};
pub use board::board_of;
pub use play::{
    clock_limits, legal_moves, parse_player, play_list, play_random, play_text, player_letters,
    proof_search, read_position, read_start, result_text, result_words,
};

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use search::{ClockPolicy, Config, Evaluator, Game, MaxnBounds, Outcome, Player, Record};

use self::picture::{Fact, Layout, Piece, Spot};
use crate::draw::Paint;
use crate::error::Error;

/// An exact value from a game's solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExactValue {
    /// The side to move wins in this many plies with best play (Jumpy3).
    Win(u32),
    /// The side to move loses in this many plies with best play (Jumpy3).
    Loss(u32),
    /// A draw with best play (Jumpy3).
    Draw,
    /// A result code (Chaos Clock: 4 the side to move wins, 3 both win, 2 both lose, 1 it
    /// loses).
    Code(u8),
}

impl Display for ExactValue {
    /// `win N`, `loss N`, `draw`, or the code: what `arena solve` prints after `value: `.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExactValue::Win(n) => write!(f, "win {n}"),
            ExactValue::Loss(n) => write!(f, "loss {n}"),
            ExactValue::Draw => f.write_str("draw"),
            ExactValue::Code(c) => write!(f, "{c}"),
        }
    }
}

/// An exact result of a solver.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Solution<M> {
    /// The value for the side to move.
    pub value: ExactValue,
    /// Every best move, in legal-move order.
    pub best: Vec<M>,
    /// One perfect-play line from the position (may be empty, or cut short by a time limit).
    pub line: Vec<M>,
}

/// How a solver may solve.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct SolveSettings<'a> {
    /// A file that holds (or is to hold) a solved table, for solvers that have one.
    pub table: Option<&'a Path>,
    /// Give up after this long, for solvers that can.
    pub time: Option<Duration>,
}

impl<'a> SolveSettings<'a> {
    /// These settings with a table file.
    pub fn with_table(mut self, table: Option<&'a Path>) -> Self {
        self.table = table;
        self
    }
    /// These settings with a time limit.
    pub fn with_time(mut self, time: Option<Duration>) -> Self {
        self.time = time;
        self
    }
}

/// A move chooser of a game crate (its greedy player): `None` when the game is over.
pub type CratePlayer<P, M> = Box<dyn FnMut(&P) -> Option<M> + Send>;

/// Why an evaluation name cannot be used ([`GameAdapter::evaluator`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum EvalError {
    /// The game has no evaluation of this name.
    Unknown {
        /// The game's name for people.
        game: &'static str,
        /// The name given.
        name: String,
        /// The names it has.
        known: &'static [&'static str],
    },
    /// The name is known, but a setting after it is not (Chexers' `default:contempt=x`);
    /// the game's own error is the [`source`](std::error::Error::source).
    Setting {
        /// The text given.
        name: String,
        /// The game's error.
        source: crate::error::Source,
    },
}

impl EvalError {
    /// The error for a name that `A` does not have.
    pub fn unknown<A: GameAdapter>(name: &str) -> EvalError {
        EvalError::Unknown {
            game: A::TITLE,
            name: name.to_string(),
            known: A::evaluator_names(),
        }
    }
    /// The error for a parameter `param` that the evaluation `name` of `A` does not take
    /// ([`GameAdapter::evaluator_with`]).
    pub fn no_param<A: GameAdapter>(name: &str, param: &str) -> EvalError {
        EvalError::setting(
            name,
            crate::params::NoParam {
                game: A::TITLE,
                name: param.to_string(),
            },
        )
    }
    /// The error for a setting that the game refuses with its own error `e`.
    pub fn setting(name: &str, e: impl std::error::Error + Send + Sync + 'static) -> EvalError {
        EvalError::Setting {
            name: name.to_string(),
            source: crate::error::Source::new(e),
        }
    }
}

impl Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Unknown { game, known, .. } => {
                write!(f, "{game} has the evaluations {}", known.join(", "))
            }
            EvalError::Setting { source, .. } => write!(f, "{source}"),
        }
    }
}

impl std::error::Error for EvalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EvalError::Setting { source, .. } => Some(source.get()),
            _ => None,
        }
    }
}

impl PartialEq for EvalError {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

/// What a game's exact solver takes of [`SolveSettings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SolverTraits {
    /// It reads (and writes) a solved table from a file ([`SolveSettings::table`]).
    pub table_file: bool,
    /// It can give up after a time ([`SolveSettings::time`]).
    pub time_limit: bool,
}

impl SolverTraits {
    /// A solver that searches and can give up after a time (proof-number search, Chaos
    /// Clock's solver).
    pub const SEARCH: SolverTraits = SolverTraits {
        table_file: false,
        time_limit: true,
    };
    /// A solver that answers from a solved table kept in a file (Jumpy3's).
    pub const TABLE: SolverTraits = SolverTraits {
        table_file: true,
        time_limit: false,
    };
}

/// A game as every front end sees it: **the one trait a game implements to join the
/// registry** ([`crate::register`]) and so every front end (`arena` and its web page, the
/// Python package, the fuzz targets and checks). Our four games implement it in
/// [`crate::games`], each holding only what differs between games; a user's game implements
/// it the same way (`examples/connect-four` in the repository).
///
/// What is required: the rules (`Pos`, a [`search::Game`] with notation through `FromStr` and
/// `Display`), the names (`NAME`, `TITLE`, `PLAYERS`, each player's letter and name), the
/// start and an evaluation. Everything else has a default that fits a game without it: a
/// terminal board that is the notation, no solver beyond proof-number search for two
/// players, no encoding into action numbers ([`GameAdapter::encoding`]), no picture for the
/// web page ([`GameAdapter::view`]).
///
/// ```
/// use plyforge::games::Jumpy3;
/// use plyforge::{GameAdapter, GameKind};
/// let kind = GameKind::of::<Jumpy3>();
/// assert_eq!(kind.name(), Jumpy3::NAME);
/// assert_eq!(kind.players(), 2);
/// ```
pub trait GameAdapter: Send + Sync + 'static {
    /// The position type of the game.
    type Pos: Game<Move = Self::Move>
        + Clone
        + Debug
        + Display
        + FromStr<Err: std::error::Error + Send + Sync + 'static>
        + Eq
        + Hash
        + Send
        + Sync;
    /// The move type of the game.
    type Move: Copy
        + Eq
        + Hash
        + Debug
        + Display
        + FromStr<Err: std::error::Error + Send + Sync + 'static>
        + Send
        + Sync
        + 'static;
    /// Every evaluation the game offers by name, as one type, so that engines call it
    /// without a virtual call (the evaluation is called at every leaf).
    type Eval: Evaluator<Self::Pos> + Clone + Send + Sync + 'static;

    /// The name used on the command line, in the web page's address and in
    /// [`GameKind::from_name`](crate::GameKind::from_name): lower case letters, digits and `-` (`connect-four`).
    const NAME: &'static str;
    /// The game's name for people.
    const TITLE: &'static str;
    /// The game in a line for people, for lists of games (`arena --help`, the web page).
    const ABOUT: &'static str = "";
    /// Number of players (2 or 3).
    const PLAYERS: usize;
    /// True when [`solve`](GameAdapter::solve) has an exact solver (every two-player game
    /// has one: proof-number search, if not one of its own).
    const HAS_SOLVER: bool = Self::PLAYERS == 2;
    /// What the solver takes of [`SolveSettings`] (by default, proof-number search's: a time
    /// limit).
    const SOLVER: SolverTraits = SolverTraits::SEARCH;
    /// The solver in a line for people: what its value means, what it costs (`arena solve
    /// --help`). By default proof-number search's.
    const SOLVER_NOTE: &'static str =
        "proof-number search (df-pn): `win N`, `loss N` or `draw` (neither side can force a win)";
    /// True when the rules deal the start at random ([`random_start`](GameAdapter::random_start)
    /// gives one per seed, and matches start from a new random deal per opening).
    const RANDOM_START: bool = false;
    /// True when [`fair_start`](GameAdapter::fair_start) gives fair starts.
    const HAS_FAIR_START: bool = false;
    /// The fixed bench of `arena bench`: `label: depth: position` lines (the format of
    /// [`search::bench::parse_list`]), searched with the recommended engine and the default
    /// evaluation; its total node count at one thread is the search's signature on this
    /// game. Empty (the default): the game has no bench.
    const BENCH: &'static str = "";
    /// True when the notation says everything of a position, so that reading a position's
    /// text gives back that position (Chaos Clock's cannot say that the last move was a
    /// pass: false). The [`checks`](crate::checks) compare positions only where it is true.
    const NOTATION_IS_EXACT: bool = true;

    /// The rules' start position (Chaos Clock: the sample deal of the game's original README).
    fn start() -> Self::Pos;
    /// A seeded random start, for games whose rules start at random (Chaos Clock).
    fn random_start(_seed: u64) -> Option<Self::Pos> {
        None
    }
    /// A seeded start that favours neither side, for games whose rules start at random and
    /// can prove it (Chaos Clock: the first of a seeded sequence of random starts that the
    /// exact solver proves to be "both win"). The work is bounded: `None` for games without
    /// fair starts, and for a seed without one within the game's bound.
    fn fair_start(_seed: u64) -> Option<Self::Pos> {
        None
    }
    /// Parses a position in the game's notation; the game's error names the field.
    /// By default the game's `FromStr`.
    fn parse_position(text: &str) -> Result<Self::Pos, <Self::Pos as FromStr>::Err> {
        text.parse()
    }
    /// Parses a move in the game's notation (the position is there for games whose notation
    /// would need it, and for friendlier input such as lower case).
    /// By default the game's `FromStr` of the trimmed text.
    fn parse_move(
        _pos: &Self::Pos,
        text: &str,
    ) -> Result<Self::Move, <Self::Move as FromStr>::Err> {
        text.trim().parse()
    }
    /// The letter of a player, as in `result: winner X`.
    fn player_letter(p: Player) -> &'static str;
    /// The name of a player for people.
    fn player_name(p: Player) -> &'static str;
    /// The game's recommended engine settings (by default the engine's defaults).
    fn engine_config() -> Config {
        Config::default()
    }
    /// The game's default evaluation, the first of
    /// [`evaluator_names`](GameAdapter::evaluator_names) (for the benches and proof search's
    /// move ordering: one that needs no files).
    fn default_eval() -> Self::Eval;
    /// Names of the evaluations the game offers; the first is the default (the strongest).
    /// By default one, `default`.
    fn evaluator_names() -> &'static [&'static str] {
        &["default"]
    }
    /// The value network the game ships (the bytes of a file `arena train` wrote, usually
    /// `include_bytes!`), or `None` (the default). When a game ships one, it is the
    /// evaluation of the alpha-beta family's engines (`engine`, `alphabeta`, `paranoid`,
    /// `brs`, `maxn`) whose specification names none (no `eval=`, no evaluation
    /// parameters); `eval=default` (or another of
    /// [`evaluator_names`](GameAdapter::evaluator_names)) keeps the hand-made one, and
    /// [`default_eval`](GameAdapter::default_eval) stays the hand-made one for the benches
    /// and proof search. The bytes are checked against the game when a specification is
    /// parsed (a file of another game is refused with the reason, see
    /// [`crate::learned::shipped`]).
    fn network() -> Option<&'static [u8]> {
        None
    }
    /// The evaluation of that name (an engine spec's `eval=NAME`), or why there is none.
    /// By default [`default_eval`](GameAdapter::default_eval) for `default`.
    fn evaluator(name: &str) -> Result<Self::Eval, EvalError>
    where
        Self: Sized,
    {
        if name == "default" {
            Ok(Self::default_eval())
        } else {
            Err(EvalError::unknown::<Self>(name))
        }
    }
    /// The evaluation's tunable parameters ([`crate::params`]): each with its default, range
    /// and step, so that engine specifications take them as keys (`engine,material=320`),
    /// `arena tune` tunes them and `--help` lists them. None by default.
    ///
    /// Names are lower case letters, digits and `_`, and none is an engine specification's
    /// own key ([`crate::agent::SPEC_KEYS`]); the registry refuses a game whose list breaks
    /// that ([`crate::agent::check_params`]).
    fn params() -> Vec<crate::params::Param> {
        Vec::new()
    }
    /// The evaluation `name` with the parameters `values` set (each one of
    /// [`params`](GameAdapter::params), its value checked against the declared range by the
    /// caller; whole-number parameters come rounded), or why there is none. An empty list
    /// is [`evaluator`](GameAdapter::evaluator). By default a game has no parameters, so any
    /// value is refused.
    fn evaluator_with(name: &str, values: &[(&'static str, f64)]) -> Result<Self::Eval, EvalError>
    where
        Self: Sized,
    {
        match values.first() {
            None => Self::evaluator(name),
            Some((param, _)) => Err(EvalError::no_param::<Self>(name, param)),
        }
    }
    /// The board drawn for a terminal (several lines, each ending in a newline), every piece
    /// of text passed through `paint` with its role, so that a front end can colour it.
    /// By default the position's notation.
    fn draw(pos: &Self::Pos, paint: &dyn Fn(&str, Paint) -> String) -> String {
        format!("  {}\n", paint(&pos.to_string(), Paint::Bold))
    }
    /// Exact solution of a position with its history: the game's own solver where it has
    /// one, else for a two-player game [`proof_search`] (proof-number search), else `None`.
    fn solve(
        record: &Record<Self::Pos>,
        settings: &SolveSettings<'_>,
    ) -> Option<Result<Solution<Self::Move>, Error>>
    where
        Self: Sized,
    {
        (Self::PLAYERS == 2).then(|| proof_search::<Self>(record, settings))
    }
    /// Bounds on evaluation vectors that make max^n shallow pruning valid, if the game
    /// declares them.
    fn maxn_bounds() -> Option<MaxnBounds> {
        None
    }
    /// The game's own greedy player with this seed, where it has one (`greedy` in a
    /// spec without `eval=` uses it; otherwise the one-ply player of [`crate::agent`]).
    fn crate_greedy(_seed: u64) -> Option<CratePlayer<Self::Pos, Self::Move>> {
        None
    }
    /// The two engine specifications `arena match GAME` uses when none are given (by
    /// default the engine against the one-ply greedy player).
    fn default_match() -> [&'static str; 2] {
        ["engine", "greedy"]
    }
    /// Random plies played before each pair of match games, so that deterministic engines do
    /// not play the same game over and over (0 for games that start at random). Default 2.
    fn default_opening_plies() -> usize {
        if Self::RANDOM_START {
            0
        } else {
            2
        }
    }
    /// Moves per side that the game's own rules allow before they end the game, if they have
    /// such a limit (Throne 150 moves each, Chexers 256 turns each).
    fn own_move_limit() -> Option<u32> {
        None
    }
    /// The game's rule for its clock: the reserve and the floor of the one clock rule
    /// ([`ClockPolicy::limits`], applied by [`clock_limits`](crate::clock_limits)); by
    /// default [`ClockPolicy::DEFAULT`]. Chexers and Throne keep their crates' `CLOCK`.
    const CLOCK: ClockPolicy = ClockPolicy::DEFAULT;
    /// The moves the side to move in `pos` is expected to still make, for planning its
    /// clock; `None` (the default): unknown, and the engine's time manager plans for 30 more
    /// moves. Chexers estimates its actions left from the work to its exits, Throne counts
    /// its moves left of 150.
    fn moves_to_go(_pos: &Self::Pos) -> Option<u32> {
        None
    }
    /// How far a player got towards winning, to place the players a finished game did not
    /// tell apart (Chexers: its exits, so that of two losers the one with more exits places
    /// second). By default 0: players with the same result share their place.
    fn progress(_pos: &Self::Pos, _player: Player) -> u32 {
        0
    }
    /// The result when a match server's move limit ends a game that the rules have not
    /// ended: by default a draw by the turn limit.
    fn limit_outcome(_pos: &Self::Pos) -> Outcome {
        Outcome::Draw(search::DrawKind::TurnLimit)
    }
    /// Action numbers and observation tensors for learning code ([`crate::encoding`]):
    /// `Some(Encoded::new())` for a game that implements
    /// [`Encoding`](crate::encoding::Encoding) (as in [`view`](GameAdapter::view)'s
    /// example); `None` (the default) for a game without them.
    fn encoding() -> Option<Encoded<Self>>
    where
        Self: Sized,
    {
        None
    }
    /// The picture of the board for graphical front ends (the web page, [`crate::view`]):
    /// `Some(Viewed::new())` for a game that implements
    /// [`BoardView`](crate::view::BoardView); `None` (the default) for a game without one
    /// (front ends then show its notation).
    ///
    /// A game with both a picture and action numbers hands them over like this (here the
    /// rules, names and picture are Jumpy3's again, under a name of its own):
    ///
    /// ```
    /// use plyforge::encoding::{Encoded, Encoding, KindEncoding};
    /// use plyforge::view::{self, BoardView, Viewed};
    /// use plyforge::{register, GameAdapter};
    /// # use plyforge::games::Jumpy3;
    /// # use plyforge::search::Player;
    /// # use plyforge::view::{FromTo, Layout, Piece, Spot};
    /// # type Pos = <Jumpy3 as GameAdapter>::Pos;
    /// # type Move = <Jumpy3 as GameAdapter>::Move;
    ///
    /// struct MyGame;
    ///
    /// impl GameAdapter for MyGame {
    ///     // The rules, the names, the start and an evaluation, then:
    /// #   type Pos = Pos;
    /// #   type Move = Move;
    /// #   type Eval = <Jumpy3 as GameAdapter>::Eval;
    /// #   const NAME: &'static str = "my-game";
    /// #   const TITLE: &'static str = "My game";
    /// #   const PLAYERS: usize = 2;
    /// #   fn start() -> Pos { Jumpy3::start() }
    /// #   fn player_letter(p: Player) -> &'static str { Jumpy3::player_letter(p) }
    /// #   fn player_name(p: Player) -> &'static str { Jumpy3::player_name(p) }
    /// #   fn default_eval() -> Self::Eval { Jumpy3::default_eval() }
    ///     fn encoding() -> Option<Encoded<Self>> {
    ///         Some(Encoded::new())
    ///     }
    ///     fn view() -> Option<Viewed<Self>> {
    ///         Some(Viewed::new())
    ///     }
    /// }
    /// impl Encoding for MyGame {
    ///     // The action numbers and the observation.
    /// #   const ACTIONS: usize = Jumpy3::ACTIONS;
    /// #   const SHAPE: &'static [usize] = Jumpy3::SHAPE;
    /// #   fn action(mv: Move) -> Option<usize> { Jumpy3::action(mv) }
    /// #   fn decode(action: usize) -> Option<Move> { Jumpy3::decode(action) }
    /// #   fn observe(pos: &Pos, player: Player, out: &mut [f32]) { Jumpy3::observe(pos, player, out) }
    /// }
    /// impl BoardView for MyGame {
    ///     // The layout, the spots, the pieces and where each move goes.
    /// #   fn layout() -> Layout { Jumpy3::layout() }
    /// #   fn spots() -> Vec<Spot> { Jumpy3::spots() }
    /// #   fn colours() -> &'static [&'static str] { Jumpy3::colours() }
    /// #   fn pieces(pos: &Pos) -> Vec<Piece> { Jumpy3::pieces(pos) }
    /// #   fn move_spots(pos: &Pos, mv: Move) -> FromTo { Jumpy3::move_spots(pos, mv) }
    /// }
    ///
    /// let kind = register::<MyGame>()?;
    /// assert_eq!(kind.num_distinct_actions()?, 16);
    /// let board = view::board(&kind.new_game()).expect("a picture");
    /// assert_eq!(board.moves.len(), 4);
    /// # Ok::<(), plyforge::Error>(())
    /// ```
    fn view() -> Option<Viewed<Self>>
    where
        Self: Sized,
    {
        None
    }
}

// The two optional parts of a game, which `GameAdapter` hands over as handles: action numbers
// and observations (re-exported from `crate::encoding`), and a board's picture (re-exported
// from `crate::view`). They live here, beside the trait that names them (the trait and the
// handles name each other).

/// The action numbers and the observation tensor of a game. A game that implements it
/// returns `Some(Encoded::new())` from [`GameAdapter::encoding`].
pub trait Encoding: GameAdapter {
    /// The number of distinct actions: every action number is below it.
    const ACTIONS: usize;
    /// The shape of an observation tensor (row-major, the last index fastest).
    const SHAPE: &'static [usize];

    /// The action number of a move, in `0..ACTIONS`; `None` for a value of the move type that
    /// is no move of the game anywhere (a Chexers `MOVE` between hexes that are not
    /// neighbours). Every legal move has a number.
    fn action(mv: Self::Move) -> Option<usize>;

    /// The move of an action number, if the number names one (the move need not be legal
    /// anywhere; numbers that name no move of the game give `None`).
    fn decode(action: usize) -> Option<Self::Move>;

    /// Writes `pos` as seen by `player` into `out` (of the size of [`Encoding::SHAPE`],
    /// zeroed by the caller). `player` is below [`GameAdapter::PLAYERS`].
    fn observe(pos: &Self::Pos, player: Player, out: &mut [f32]);

    /// The number of entries of an observation tensor.
    fn observation_size() -> usize {
        Self::SHAPE.iter().product()
    }

    /// The number of the evaluation's terms ([`Encoding::terms`]) that a network may read
    /// after the observation (`arena train --terms`). By default one per player.
    const TERMS: usize = Self::PLAYERS;

    /// Writes the evaluation's terms of `pos` as `player` sees them into `out` (of
    /// [`Encoding::TERMS`] entries, zeroed by the caller), each about −1 … 1: what the
    /// game's hand-made evaluation measures, for a network to read beside the board.
    ///
    /// By default the scores of the game's default evaluation
    /// ([`GameAdapter::default_eval`]), the observer's first, then the other players' in
    /// turn order, each as `tanh(score / (25 · aspiration window))` (the window is the
    /// evaluation's small swing, so that 25 of them is a large lead). A game overrides it
    /// with the evaluation's parts (Chexers: each player's work to the exits, pieces,
    /// threatened pieces, mobility, …).
    fn terms(pos: &Self::Pos, player: Player, out: &mut [f32])
    where
        Self: Sized,
    {
        default_terms::<Self>(pos, player, out);
    }

    /// The number of sparse features ([`Encoding::features`]): every active feature is
    /// below it. By default one per entry of the observation tensor.
    const FEATURES: usize = shape_size(Self::SHAPE);

    /// Whether the sparse features are the observation's entries equal to 1 (true, the
    /// default: feature `i` is active where entry `i` of [`Encoding::observe`]'s tensor is
    /// 1, for observations of 0s and 1s), or the game's own (false: any features below
    /// [`Encoding::FEATURES`]). [`crate::checks::features`] checks the first against the
    /// observation, so that a game may write fast features of its own that are exactly the
    /// observation's.
    const OBSERVED_FEATURES: bool = true;

    /// Appends the sparse features of `pos` as `player` sees it to `out` (cleared by the
    /// caller): the indices, sorted and without repeats, each below
    /// [`Encoding::FEATURES`], of the features that are active (worth 1; every other is
    /// 0). What a sparse network reads (`plyforge_learn::sparse`, NNUE's shape): usually a
    /// piece of a player on a cell, both counted from `player`'s side, so that one network
    /// serves every seat.
    ///
    /// By default the observation's entries equal to 1 (see
    /// [`Encoding::OBSERVED_FEATURES`]), made through a tensor: correct for every game
    /// whose observation is 0s and 1s, but slow for a search; a game overrides it with
    /// features read from its position directly.
    fn features(pos: &Self::Pos, player: Player, out: &mut Vec<u32>)
    where
        Self: Sized,
    {
        observed_features::<Self>(pos, player, out);
    }

    /// The features that differ between `before` and `after` as `player` sees them: adds to
    /// `changes` ([`FeatureChanges::add`], [`FeatureChanges::remove`], or a bitboard's
    /// [`FeatureChanges::bits`]) those active in `after` only and those active in `before`
    /// only (in any order, without repeats), and returns true; or returns false (the
    /// default) when the game cannot say cheaply, and `changes` is then not read.
    ///
    /// A search evaluates leaves a few moves apart, one after another; a game whose
    /// position holds its pieces as bitboards finds what changed between two of them in a
    /// few instructions (the xor of the boards), which saves building and comparing the
    /// two lists of [`Encoding::features`]. The positions are any two of the game (often
    /// one move apart: then the features a move adds and removes); the answer must be
    /// exactly the difference of their lists ([`crate::checks::features`] checks it).
    fn feature_changes(
        before: &Self::Pos,
        after: &Self::Pos,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool
    where
        Self: Sized,
    {
        let _ = (before, after, player, changes);
        false
    }
}

/// The most features [`FeatureChanges`] holds of each kind (added, removed): more changes
/// than that make a network read the lists of features instead.
pub const MOST_CHANGES: usize = 32;

/// The features that changed between two positions ([`Encoding::feature_changes`]): those
/// added and those removed, at most [`MOST_CHANGES`] of each (beyond, it says it
/// [`overflowed`](FeatureChanges::overflowed), and its lists are not to be read). Kept in
/// place, so that a search's leaves cost no allocation and no indirection.
///
/// ```
/// use plyforge::encoding::FeatureChanges;
/// let mut c = FeatureChanges::new();
/// c.add(7);
/// c.bits(0b0110, 0b0011, 100); // bit 0 came, bit 2 went: features 100 and 102
/// assert_eq!((c.added(), c.removed()), (&[7, 100][..], &[102][..]));
/// c.clear();
/// assert!(c.added().is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct FeatureChanges {
    added: [u32; MOST_CHANGES],
    removed: [u32; MOST_CHANGES],
    n_added: usize,
    n_removed: usize,
    overflowed: bool,
}

impl Default for FeatureChanges {
    fn default() -> Self {
        FeatureChanges::new()
    }
}

impl FeatureChanges {
    /// No changes.
    pub const fn new() -> FeatureChanges {
        FeatureChanges {
            added: [0; MOST_CHANGES],
            removed: [0; MOST_CHANGES],
            n_added: 0,
            n_removed: 0,
            overflowed: false,
        }
    }

    /// Forgets every change.
    #[inline]
    pub fn clear(&mut self) {
        self.n_added = 0;
        self.n_removed = 0;
        self.overflowed = false;
    }

    /// Feature `f` became active.
    #[inline]
    pub fn add(&mut self, f: u32) {
        match self.added.get_mut(self.n_added) {
            Some(slot) => {
                *slot = f;
                self.n_added += 1;
            }
            None => self.overflowed = true,
        }
    }

    /// Feature `f` stopped being active.
    #[inline]
    pub fn remove(&mut self, f: u32) {
        match self.removed.get_mut(self.n_removed) {
            Some(slot) => {
                *slot = f;
                self.n_removed += 1;
            }
            None => self.overflowed = true,
        }
    }

    /// A plane of features held as a bitboard (bit `i` is feature `base + i`) went from
    /// `before` to `after`: the bits set in `after` only are added, those set in `before`
    /// only removed.
    #[inline]
    pub fn bits(&mut self, before: u128, after: u128, base: u32) {
        let mut b = after & !before;
        while b != 0 {
            self.add(base + b.trailing_zeros());
            b &= b - 1;
        }
        let mut b = before & !after;
        while b != 0 {
            self.remove(base + b.trailing_zeros());
            b &= b - 1;
        }
    }

    /// The features added.
    #[inline]
    pub fn added(&self) -> &[u32] {
        &self.added[..self.n_added]
    }

    /// The features removed.
    #[inline]
    pub fn removed(&self) -> &[u32] {
        &self.removed[..self.n_removed]
    }

    /// How many changes it holds, added and removed.
    #[inline]
    pub fn len(&self) -> usize {
        self.n_added + self.n_removed
    }

    /// True when it holds no change.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when more than [`MOST_CHANGES`] of a kind were given: the lists are incomplete.
    #[inline]
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }
}

/// The number of entries of a tensor of this shape (the product of its sizes).
pub const fn shape_size(shape: &[usize]) -> usize {
    let mut n = 1;
    let mut i = 0;
    while i < shape.len() {
        n *= shape[i];
        i += 1;
    }
    n
}

thread_local! {
    /// The tensor of [`observed_features`], grown once per thread.
    static OBSERVED: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`Encoding::features`]' default: the indices of the entries of `player`'s observation
/// tensor of `pos` that are 1, appended to `out` in order.
pub fn observed_features<E: Encoding>(pos: &E::Pos, player: Player, out: &mut Vec<u32>) {
    OBSERVED.with(|cell| {
        let mut x = cell.borrow_mut();
        x.clear();
        x.resize(E::observation_size(), 0.0);
        E::observe(pos, player, &mut x);
        out.extend(
            x.iter()
                .enumerate()
                .filter(|(_, &v)| v == 1.0)
                .map(|(i, _)| i as u32),
        );
    });
}

/// Appends to `out` the set bits of `bits`, each as `base` plus its index, in order: a
/// plane of features from a bitboard ([`Encoding::features`]).
#[inline]
pub fn push_bits(out: &mut Vec<u32>, bits: u128, base: u32) {
    let mut b = bits;
    while b != 0 {
        out.push(base + b.trailing_zeros());
        b &= b - 1;
    }
}

/// Appends to `added` and `removed` the difference of two sorted lists of features (in
/// `new` only, in `old` only): what [`Encoding::feature_changes`] answers, from the lists
/// (for tests and tools).
pub fn list_changes(old: &[u32], new: &[u32], added: &mut Vec<u32>, removed: &mut Vec<u32>) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                removed.push(old[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                added.push(new[j]);
                j += 1;
            }
        }
    }
    removed.extend_from_slice(&old[i..]);
    added.extend_from_slice(&new[j..]);
}

/// [`Encoding::terms`]' default: the default evaluation's scores, from `player` round.
pub fn default_terms<A: GameAdapter>(pos: &A::Pos, player: Player, out: &mut [f32]) {
    let eval = A::default_eval();
    score_terms::<A>(&eval.evaluate(pos), eval.aspiration_window(), player, out);
}

/// The default terms from scores already computed: `tanh(score / (25 · window))` for each
/// player from `player` round.
pub fn score_terms<A: GameAdapter>(
    scores: &search::Scores,
    window: i32,
    player: Player,
    out: &mut [f32],
) {
    let unit = 25.0 * window.max(1) as f32;
    for (k, o) in out.iter_mut().enumerate().take(A::PLAYERS) {
        *o = (scores[(player + k) % A::PLAYERS] as f32 / unit).tanh();
    }
}

/// A game's [`Encoding`] as [`GameAdapter::encoding`] hands it to the registry.
pub struct Encoded<A: GameAdapter> {
    /// [`Encoding::ACTIONS`].
    pub actions: usize,
    /// [`Encoding::SHAPE`].
    pub shape: &'static [usize],
    pub(crate) action: fn(A::Move) -> Option<usize>,
    pub(crate) decode: fn(usize) -> Option<A::Move>,
    pub(crate) observe: fn(&A::Pos, Player, &mut [f32]),
    /// [`Encoding::TERMS`].
    pub terms: usize,
    pub(crate) write_terms: fn(&A::Pos, Player, &mut [f32]),
    /// [`Encoding::FEATURES`].
    pub features: usize,
    /// [`Encoding::OBSERVED_FEATURES`].
    pub observed_features: bool,
    pub(crate) write_features: fn(&A::Pos, Player, &mut Vec<u32>),
    pub(crate) changes: Changes<A::Pos>,
}

/// [`Encoding::feature_changes`]' signature.
pub(crate) type Changes<P> = fn(&P, &P, Player, &mut FeatureChanges) -> bool;

impl<A: GameAdapter> Clone for Encoded<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: GameAdapter> Copy for Encoded<A> {}

impl<E: Encoding> Encoded<E> {
    /// The encoding of `E`.
    pub fn new() -> Encoded<E> {
        Encoded {
            actions: E::ACTIONS,
            shape: E::SHAPE,
            action: E::action,
            decode: E::decode,
            observe: E::observe,
            terms: E::TERMS,
            write_terms: E::terms,
            features: E::FEATURES,
            observed_features: E::OBSERVED_FEATURES,
            write_features: E::features,
            changes: E::feature_changes,
        }
    }
}

impl<A: GameAdapter> Encoded<A> {
    /// The number of entries of an observation tensor.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// Writes `pos` as `player` sees it into `out` (of [`size`](Encoded::size) entries,
    /// zeroed here first): [`Encoding::observe`].
    pub fn write_observation(&self, pos: &A::Pos, player: Player, out: &mut [f32]) {
        out.fill(0.0);
        (self.observe)(pos, player, out);
    }

    /// Writes the evaluation's terms of `pos` as `player` sees them into `out` (of
    /// [`terms`](Encoded::terms) entries, zeroed here first): [`Encoding::terms`].
    pub fn write_terms(&self, pos: &A::Pos, player: Player, out: &mut [f32]) {
        out.fill(0.0);
        (self.write_terms)(pos, player, out);
    }

    /// Writes the sparse features of `pos` as `player` sees them into `out` (cleared here
    /// first): [`Encoding::features`].
    #[inline]
    pub fn write_features(&self, pos: &A::Pos, player: Player, out: &mut Vec<u32>) {
        out.clear();
        (self.write_features)(pos, player, out);
    }

    /// The features that differ between `before` and `after` as `player` sees them, into
    /// `changes` (cleared here first), if the game says ([`Encoding::feature_changes`]) and
    /// they fit; false when it does not, or they overflowed.
    #[inline]
    pub fn feature_changes(
        &self,
        before: &A::Pos,
        after: &A::Pos,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool {
        changes.clear();
        (self.changes)(before, after, player, changes) && !changes.overflowed()
    }
}

impl<E: Encoding> Default for Encoded<E> {
    fn default() -> Self {
        Encoded::new()
    }
}

/// What a picture needs of a game, beyond its [`GameAdapter`]. A game that implements it
/// returns `Some(Viewed::new())` from [`GameAdapter::view`].
pub trait BoardView: GameAdapter {
    /// How the board is drawn.
    fn layout() -> Layout;
    /// Every spot (the same for every position).
    fn spots() -> Vec<Spot>;
    /// The CSS colour of each player's pieces, in turn order.
    fn colours() -> &'static [&'static str];
    /// Every piece of the position, on the board and off it.
    fn pieces(pos: &Self::Pos) -> Vec<Piece>;
    /// The spots a move leaves and reaches, in the position before it (`(None, None)` for a
    /// pass).
    fn move_spots(pos: &Self::Pos, mv: Self::Move) -> (Option<String>, Option<String>);
    /// Status lines for people.
    fn facts(_pos: &Self::Pos) -> Vec<Fact> {
        Vec::new()
    }
}

/// The spots a move leaves and reaches ([`BoardView::move_spots`]).
pub type FromTo = (Option<String>, Option<String>);

/// A game's [`BoardView`] as [`GameAdapter::view`] hands it to the front ends.
pub struct Viewed<A: GameAdapter> {
    pub(crate) layout: fn() -> Layout,
    pub(crate) spots: fn() -> Vec<Spot>,
    pub(crate) colours: fn() -> &'static [&'static str],
    pub(crate) pieces: fn(&A::Pos) -> Vec<Piece>,
    pub(crate) move_spots: fn(&A::Pos, A::Move) -> FromTo,
    pub(crate) facts: fn(&A::Pos) -> Vec<Fact>,
}

impl<V: BoardView> Viewed<V> {
    /// The view of `V`.
    pub fn new() -> Viewed<V> {
        Viewed {
            layout: V::layout,
            spots: V::spots,
            colours: V::colours,
            pieces: V::pieces,
            move_spots: V::move_spots,
            facts: V::facts,
        }
    }
}

impl<V: BoardView> Default for Viewed<V> {
    fn default() -> Self {
        Viewed::new()
    }
}
