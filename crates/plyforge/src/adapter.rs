//! [`GameAdapter`]: what every front end needs of a game, one implementation per game in
//! [`crate::games`], and the generic helpers written once on it (positions and moves from
//! text, results in words).

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use search::{Clock, Config, Evaluator, Game, Limits, MaxnBounds, Outcome, Player, Record};

use crate::draw::Paint;
use crate::{Error, GameKind};

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

/// A game as every front end sees it: the thin layer over one game crate. The generic
/// subcommands of `arena`, the benches, the dynamic [`crate::State`] and [`crate::Engine`]
/// are written against this trait only; each implementation in [`crate::games`] holds only
/// what differs between games.
pub trait GameAdapter: Send + Sync + 'static {
    /// The position type of the crate.
    type Pos: Game<Move = Self::Move>
        + Clone
        + Debug
        + Display
        + FromStr<Err: Display>
        + Eq
        + Hash
        + Send
        + Sync;
    /// The move type of the crate.
    type Move: Copy + Eq + Hash + Debug + Display + FromStr<Err: Display> + Send + Sync + 'static;
    /// The crate's default evaluation (static dispatch, for the benches and the engines).
    type Eval: Evaluator<Self::Pos> + Clone + Send + Sync + 'static;

    /// Which game this is.
    const KIND: GameKind;
    /// The name used on the command line and in [`GameKind::from_name`].
    const NAME: &'static str;
    /// The game's name for people.
    const TITLE: &'static str;
    /// Number of players.
    const PLAYERS: usize;
    /// True when [`solve`](GameAdapter::solve) has an exact solver (every two-player game
    /// has one: proof-number search, if not one of its own).
    const HAS_SOLVER: bool = Self::PLAYERS == 2;
    /// True when [`fair_start`](GameAdapter::fair_start) gives fair starts.
    const HAS_FAIR_START: bool = false;

    /// The rules' start position (Chaos Clock: the rules file's sample deal).
    fn start() -> Self::Pos;
    /// A seeded random start, for games whose rules start at random (Chaos Clock).
    fn random_start(_seed: u64) -> Option<Self::Pos> {
        None
    }
    /// A seeded start that favours neither side, for games whose rules start at random and
    /// can prove it (Chaos Clock: the first of a seeded sequence of random starts that the
    /// exact solver proves to be "both win"). `None` for games without one.
    fn fair_start(_seed: u64) -> Option<Self::Pos> {
        None
    }
    /// Parses a position in the game's notation; the error names the field.
    /// By default the crate's `FromStr`, its error's message as the reason.
    fn parse_position(text: &str) -> Result<Self::Pos, String> {
        text.parse()
            .map_err(|e: <Self::Pos as FromStr>::Err| e.to_string())
    }
    /// Parses a move in the game's notation (the position is there for games whose notation
    /// would need it, and for friendlier input such as lower case).
    /// By default the crate's `FromStr` of the trimmed text.
    fn parse_move(_pos: &Self::Pos, text: &str) -> Result<Self::Move, String> {
        text.trim()
            .parse()
            .map_err(|e: <Self::Move as FromStr>::Err| e.to_string())
    }
    /// The letter of a player, as in `result: winner X`.
    fn player_letter(p: Player) -> &'static str;
    /// The name of a player for people.
    fn player_name(p: Player) -> &'static str;
    /// The crate's recommended engine settings.
    fn engine_config() -> Config;
    /// The crate's default evaluation.
    fn default_eval() -> Self::Eval;
    /// Names of the evaluations the crate offers; the first is the default (the strongest).
    fn evaluator_names() -> &'static [&'static str];
    /// Every evaluation the crate offers by name, as one type, so that engines call it
    /// without a virtual call (the evaluation is called at every leaf).
    type NamedEval: Evaluator<Self::Pos> + Clone + Send + Sync + 'static;
    /// The evaluation of that name.
    fn evaluator(name: &str) -> Option<Self::NamedEval>;
    /// Why [`evaluator`](GameAdapter::evaluator) has no evaluation of this name, for an
    /// error message (`None` when it has one). The default lists the names.
    fn evaluator_problem(name: &str) -> Option<String> {
        match Self::evaluator(name) {
            Some(_) => None,
            None => Some(format!(
                "{} has the evaluations {}",
                Self::TITLE,
                Self::evaluator_names().join(", ")
            )),
        }
    }
    /// The board drawn for a terminal (several lines, each ending in a newline), every piece
    /// of text passed through `paint` with its role, so that a front end can colour it.
    fn draw(pos: &Self::Pos, paint: &dyn Fn(&str, Paint) -> String) -> String;
    /// Exact solution of a position with its history: the crate's own solver where it has
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
    /// Bounds on evaluation vectors that make max^n shallow pruning valid, if the crate
    /// declares them.
    fn maxn_bounds() -> Option<MaxnBounds> {
        None
    }
    /// The game crate's own greedy player with this seed, where it has one (`greedy` in a
    /// spec without `eval=` uses it; otherwise the one-ply player of [`crate::agent`]).
    fn crate_greedy(_seed: u64) -> Option<CratePlayer<Self::Pos, Self::Move>> {
        None
    }
    /// The two engine specifications `arena match GAME` uses when none are given.
    fn default_match() -> [&'static str; 2];
    /// Random plies played before each pair of match games, so that deterministic engines do
    /// not play the same game over and over (0 for games that start at random).
    fn default_opening_plies() -> usize;
    /// Moves per side that the game's own rules allow before they end the game, if they have
    /// such a limit (Throne 150 moves each, Chexers 256 turns each).
    fn own_move_limit() -> Option<u32> {
        None
    }
    /// The engine's limits for one move of the side to move in `pos` on a game clock with
    /// `remaining` thinking time left for the rest of the game (no increment): by default the
    /// clock alone (the engine's time manager then plans for 30 more moves); Chexers and
    /// Throne estimate the moves left and keep a reserve (their crates' `clock_limits`).
    fn clock_limits(_pos: &Self::Pos, remaining: Duration) -> Limits {
        Limits::clock(Clock::new(remaining))
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
}

/// The exact value of a two-player position with its history by proof-number search
/// ([`search::prove::Prover::solve`], moves ordered by the default evaluation's hints):
/// a win or a loss with its exact distance, or a draw when neither side can force a win;
/// every best move and a perfect line. `settings.time` limits it (else it runs until it
/// knows, or until its table of 8 million positions is full).
pub fn proof_search<A: GameAdapter>(
    record: &Record<A::Pos>,
    settings: &SolveSettings<'_>,
) -> Result<Solution<A::Move>, Error> {
    use search::prove::{Prover, Value};
    let eval = A::default_eval();
    let mut prover = Prover::with_hint(move |p: &A::Pos, m| eval.move_hint(p, m));
    let limits = search::Limits::default().with_movetime(settings.time);
    let history = record.history_keys();
    let solved = prover
        .solve(record.position(), history, None, limits)
        .ok_or_else(|| Error::Solve {
            reason: match settings.time {
                Some(t) => format!(
                    "no exact result within {}",
                    crate::duration::show_duration(t)
                ),
                None => "no exact result: the proof search's table is full".to_string(),
            },
        })?;
    let value = match solved.value {
        Value::Win(n) => ExactValue::Win(n),
        Value::Loss(n) => ExactValue::Loss(n),
        _ => ExactValue::Draw,
    };
    Ok(Solution {
        value,
        best: solved.best,
        line: solved.line,
    })
}

/// The player of a letter, a name or an index (`w`, `white`, `1`), case-insensitive.
pub fn parse_player<A: GameAdapter>(text: &str) -> Option<Player> {
    let t = text.trim().to_ascii_lowercase();
    (0..A::PLAYERS).find(|&p| {
        t == A::player_letter(p)
            || t == A::player_name(p).to_ascii_lowercase()
            || t == p.to_string()
    })
}

/// The player letters of the game, as `w, b`.
pub fn player_letters<A: GameAdapter>() -> String {
    (0..A::PLAYERS)
        .map(A::player_letter)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads a position: the notation, or the word `start` (and for games that start at random,
/// `random` or `random:SEED`, and where the game has them `fair` or `fair:SEED`, see
/// [`GameAdapter::fair_start`]).
pub fn read_position<A: GameAdapter>(text: &str) -> Result<A::Pos, Error> {
    let t = text.trim();
    let bad = |reason: String| Error::Position {
        text: t.to_string(),
        reason,
    };
    if t == "start" || t == "startpos" {
        return Ok(A::start());
    }
    if let Some(rest) = t.strip_prefix("random") {
        let seed = match rest.strip_prefix(':') {
            Some(s) => s
                .parse::<u64>()
                .map_err(|_| bad("the seed after `random:` must be a number".to_string()))?,
            None if rest.is_empty() => 1,
            None => return A::parse_position(t).map_err(bad),
        };
        return A::random_start(seed).ok_or_else(|| {
            bad(format!(
                "{} has no random start (give a position or `start`)",
                A::TITLE
            ))
        });
    }
    if let Some(seed) = fair_seed(t).map_err(bad)? {
        return A::fair_start(seed).ok_or_else(|| {
            bad(format!(
                "{} has no fair start (give a position or `start`)",
                A::TITLE
            ))
        });
    }
    A::parse_position(t).map_err(bad)
}

/// The seed of `fair` (1) or `fair:SEED`; `None` for other text.
fn fair_seed(t: &str) -> Result<Option<u64>, String> {
    match t.strip_prefix("fair") {
        Some("") => Ok(Some(1)),
        Some(rest) => match rest.strip_prefix(':') {
            Some(s) => s
                .parse::<u64>()
                .map(Some)
                .map_err(|_| "the seed after `fair:` must be a number".to_string()),
            None => Ok(None),
        },
        None => Ok(None),
    }
}

/// The text of a result in the result notation (`winner w`, `draw repetition`, ...).
pub fn result_text<A: GameAdapter>(o: Outcome) -> String {
    o.notation(A::player_letter)
}

/// A result in words for people.
pub fn result_words<A: GameAdapter>(o: Outcome) -> String {
    use search::DrawKind;
    match o {
        Outcome::Win(p) => format!("{} ({}) wins", A::player_name(p), A::player_letter(p)),
        Outcome::Draw(DrawKind::Repetition) => "draw by repetition".to_string(),
        Outcome::Draw(DrawKind::TurnLimit) => "draw by the turn limit".to_string(),
        Outcome::Draw(DrawKind::Score) => "draw on equal scores".to_string(),
        Outcome::BothWin => "both sides win".to_string(),
        Outcome::BothLose => "both sides lose".to_string(),
        other => format!("{other:?}"),
    }
}

/// Why `record` cannot take another move: its result, if over.
fn over<A: GameAdapter>(record: &Record<A::Pos>) -> Option<String> {
    record.result().map(result_text::<A>)
}

/// Plays one move given as text through the record: parses it in context, checks it, plays
/// it. The error names the move (as move 1) and the reason.
pub fn play_text<A: GameAdapter>(
    record: &mut Record<A::Pos>,
    text: &str,
) -> Result<A::Move, Error> {
    if let Some(result) = over::<A>(record) {
        return Err(Error::GameOver { result });
    }
    let bad = |reason: String| Error::Move {
        index: 1,
        text: text.trim().to_string(),
        reason,
    };
    let mv = A::parse_move(record.position(), text).map_err(bad)?;
    record.play(mv).map_err(|e| match e {
        search::PlayError::GameOver(o) => Error::GameOver {
            result: result_text::<A>(o),
        },
        other => bad(play_error_reason::<A>(other)),
    })?;
    Ok(mv)
}

fn play_error_reason<A: GameAdapter>(e: search::PlayError) -> String {
    match e {
        search::PlayError::GameOver(o) => {
            format!("the game is already over ({})", result_text::<A>(o))
        }
        search::PlayError::Illegal(why) => why.to_string(),
        other => other.to_string(),
    }
}

/// No move of any game here has more tokens than this.
const MAX_MOVE_TOKENS: usize = 8;

/// Splits a list of move texts into moves, joining whitespace-separated tokens greedily until
/// they parse as one move (Chexers moves contain spaces), and plays them in order.
///
/// `items` may be argv elements (each one move, or several tokens) or the tokens of a line.
/// Returns the number of moves played; the error names the move by its number and text.
pub fn play_list<A: GameAdapter>(
    record: &mut Record<A::Pos>,
    items: &[&str],
) -> Result<usize, Error> {
    // Tokens, each remembering the item it came from.
    let mut tokens: Vec<(&str, usize)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let before = tokens.len();
        tokens.extend(item.split_whitespace().map(|t| (t, i)));
        if tokens.len() == before {
            return Err(Error::Move {
                index: i + 1,
                text: item.to_string(),
                reason: "an empty move".to_string(),
            });
        }
    }
    // The text to name a move that starts at token `i` by: its whole item when the item
    // starts there, else the token.
    let name = |i: usize| -> String {
        let elem = items[tokens[i].1];
        if elem.split_whitespace().next() == Some(tokens[i].0) {
            elem.trim().to_string()
        } else {
            tokens[i].0.to_string()
        }
    };
    let mut played = 0;
    let mut i = 0;
    while i < tokens.len() {
        let index = played + 1;
        if let Some(result) = over::<A>(record) {
            return Err(Error::Move {
                index,
                text: name(i),
                reason: format!("the game is already over ({result})"),
            });
        }
        // The shortest run of tokens that parses as a move.
        let mut found = None;
        let mut text = String::new();
        for (j, (tok, _)) in tokens.iter().enumerate().skip(i).take(MAX_MOVE_TOKENS) {
            if j > i {
                text.push(' ');
            }
            text.push_str(tok);
            if let Ok(mv) = A::parse_move(record.position(), &text) {
                found = Some((mv, j + 1));
                break;
            }
        }
        let Some((mv, next)) = found else {
            let text = name(i);
            let reason = A::parse_move(record.position(), &text)
                .err()
                .unwrap_or_else(|| "not a move".to_string());
            return Err(Error::Move {
                index,
                text,
                reason,
            });
        };
        let text = tokens[i..next]
            .iter()
            .map(|t| t.0)
            .collect::<Vec<_>>()
            .join(" ");
        record.play(mv).map_err(|e| Error::Move {
            index,
            text,
            reason: play_error_reason::<A>(e),
        })?;
        played += 1;
        i = next;
    }
    Ok(played)
}

/// Every legal move of a position, in the game's order (none once it is over).
pub fn legal_moves<G: Game>(pos: &G) -> search::MoveList<G::Move> {
    let mut out = search::MoveList::new();
    if pos.outcome().is_none() {
        pos.legal_moves(&mut out);
    }
    out
}
