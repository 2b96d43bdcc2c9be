//! The one trait that adapts a game crate to the program, and the generic helpers every
//! subcommand shares: reading positions and moves, playing moves through [`search::Record`],
//! naming results.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use search::{Config, DrawKind, Evaluator, Game, Outcome, Player, Record};

use crate::fail::Fail;

/// An exact result of a solver, as `arena solve` prints it.
pub(crate) struct Solution<M> {
    /// The value line's text after `value: ` (Jumpy3 `win 5` / `loss 4` / `draw`, Chaos Clock
    /// the result code).
    pub value: String,
    /// Every best move.
    pub best: Vec<M>,
    /// One perfect-play line from the position (may be empty).
    pub line: Vec<M>,
}

/// How `arena solve` may solve.
pub(crate) struct SolveSettings<'a> {
    /// A file that holds (or is to hold) a solved table, for solvers that have one.
    pub table: Option<&'a std::path::Path>,
    /// Give up after this long, for solvers that can.
    pub time: Option<std::time::Duration>,
}

/// A move chooser of a game crate (its greedy player): `None` when the game is over.
pub(crate) type CratePlayer<P, M> = Box<dyn FnMut(&P) -> Option<M> + Send>;

/// A game crate as the program sees it. Every function is a thin call into the crate; the
/// generic subcommands are written against this trait only.
pub(crate) trait GameAdapter: 'static {
    /// The position type of the crate.
    type Pos: Game<Move = Self::Move> + Clone + Debug + Display + Eq + Hash + Send + Sync;
    /// The move type of the crate.
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;

    /// The name used on the command line.
    const NAME: &'static str;
    /// The game's name for people.
    const TITLE: &'static str;
    /// Number of players.
    const PLAYERS: usize;

    /// The rules' start position (Chaos Clock: a fixed derangement, see the crate).
    fn start() -> Self::Pos;
    /// A seeded random start, for games whose rules start at random (Chaos Clock).
    fn random_start(_seed: u64) -> Option<Self::Pos> {
        None
    }
    /// Parses a position in the game's notation.
    fn parse_position(text: &str) -> Result<Self::Pos, String>;
    /// Parses a move in the game's notation (the position is there for games whose notation
    /// would need it, and for friendlier input such as lower case).
    fn parse_move(pos: &Self::Pos, text: &str) -> Result<Self::Move, String>;
    /// The letter of a player, as in `result: winner X`.
    fn player_letter(p: Player) -> &'static str;
    /// The name of a player for people.
    fn player_name(p: Player) -> &'static str;
    /// The crate's recommended engine settings.
    fn engine_config() -> Config;
    /// Names of the evaluations the crate offers; the first is the default (the strongest).
    fn evaluator_names() -> &'static [&'static str];
    /// The evaluation of that name.
    fn evaluator(name: &str) -> Option<Box<dyn Evaluator<Self::Pos>>>;
    /// The board drawn for a terminal (several lines, ending in a newline).
    fn draw(pos: &Self::Pos) -> String;
    /// Exact solution of a position with its history, where the crate has a solver.
    fn solve(
        _record: &Record<Self::Pos>,
        _settings: &SolveSettings<'_>,
    ) -> Option<Result<Solution<Self::Move>, Fail>> {
        None
    }
    /// Bounds on evaluation vectors that make max^n shallow pruning valid, if the crate
    /// declares them.
    fn maxn_bounds() -> Option<search::MaxnBounds> {
        None
    }
    /// The game crate's own greedy player with this seed, where it has one (`greedy` in a
    /// spec without `eval=` uses it; otherwise the program's one-ply player).
    fn crate_greedy(_seed: u64) -> Option<CratePlayer<Self::Pos, Self::Move>> {
        None
    }
    /// The two engine specifications `arena match GAME` uses when none are given.
    fn default_match() -> [&'static str; 2];
    /// Random plies played before each pair of match games, so that deterministic engines do
    /// not play the same game over and over (0 for games that start at random).
    fn default_opening_plies() -> usize;
}

/// The player of a letter, a name or an index (`w`, `white`, `1`), case-insensitive.
pub(crate) fn parse_player<A: GameAdapter>(text: &str) -> Option<Player> {
    let t = text.trim().to_ascii_lowercase();
    (0..A::PLAYERS).find(|&p| {
        t == A::player_letter(p)
            || t == A::player_name(p).to_ascii_lowercase()
            || t == p.to_string()
    })
}

/// The player letters of the game, as `w, b`.
pub(crate) fn player_letters<A: GameAdapter>() -> String {
    (0..A::PLAYERS)
        .map(A::player_letter)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads a POSITION argument: the notation, or the word `start` (and for games that start at
/// random, `random` or `random:SEED`).
pub(crate) fn read_position<A: GameAdapter>(text: &str) -> Result<A::Pos, Fail> {
    let t = text.trim();
    if t == "start" || t == "startpos" {
        return Ok(A::start());
    }
    if let Some(rest) = t.strip_prefix("random") {
        let seed = match rest.strip_prefix(':') {
            Some(s) => s.parse::<u64>().map_err(|_| {
                Fail::usage(format!(
                    "position {t:?}: the seed after `random:` must be a number"
                ))
            })?,
            None if rest.is_empty() => 1,
            None => return Err(position_error::<A>(t)),
        };
        return A::random_start(seed).ok_or_else(|| {
            Fail::usage(format!(
                "position {t:?}: {} has no random start (give a position or `start`)",
                A::TITLE
            ))
        });
    }
    A::parse_position(t).map_err(|e| Fail::usage(format!("position {t:?}: {e}")))
}

fn position_error<A: GameAdapter>(t: &str) -> Fail {
    match A::parse_position(t) {
        Err(e) => Fail::usage(format!("position {t:?}: {e}")),
        Ok(_) => Fail::usage(format!("position {t:?}: not understood")),
    }
}

/// The text of a result line after `result: `.
pub(crate) fn result_text<A: GameAdapter>(o: Outcome) -> String {
    match o {
        Outcome::Win(p) => format!("winner {}", A::player_letter(p)),
        Outcome::Draw(DrawKind::Repetition) => "draw repetition".to_string(),
        Outcome::Draw(DrawKind::TurnLimit) => "draw turns".to_string(),
        Outcome::Draw(DrawKind::Score) => "draw score".to_string(),
        Outcome::BothWin => "both win".to_string(),
        Outcome::BothLose => "both lose".to_string(),
    }
}

/// A result in words for people.
pub(crate) fn result_words<A: GameAdapter>(o: Outcome) -> String {
    match o {
        Outcome::Win(p) => format!("{} ({}) wins", A::player_name(p), A::player_letter(p)),
        Outcome::Draw(DrawKind::Repetition) => "draw by repetition".to_string(),
        Outcome::Draw(DrawKind::TurnLimit) => "draw by the turn limit".to_string(),
        Outcome::Draw(DrawKind::Score) => "draw on equal scores".to_string(),
        Outcome::BothWin => "both sides win".to_string(),
        Outcome::BothLose => "both sides lose".to_string(),
    }
}

/// Why a move from outside could not be played.
#[derive(Debug)]
pub(crate) struct MoveError {
    /// 1-based number of the move in the list.
    pub index: usize,
    /// The text of the move as given.
    pub text: String,
    /// The reason.
    pub reason: String,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "move {} ({:?}): {}", self.index, self.text, self.reason)
    }
}

/// Plays one move given as text through the record: parses it in context, checks it, plays it.
pub(crate) fn play_text<A: GameAdapter>(
    record: &mut Record<A::Pos>,
    text: &str,
) -> Result<A::Move, String> {
    if let Some(o) = record.result() {
        return Err(format!(
            "the game is already over ({})",
            result_text::<A>(o)
        ));
    }
    let mv = A::parse_move(record.position(), text)?;
    record.play(mv).map_err(|e| match e {
        search::PlayError::GameOver(o) => {
            format!("the game is already over ({})", result_text::<A>(o))
        }
        search::PlayError::Illegal(why) => why,
    })?;
    Ok(mv)
}

/// Splits a list of move texts into moves, joining whitespace-separated tokens greedily until
/// they parse as one move (Chexers moves contain spaces), and plays them in order.
///
/// `items` may be argv elements (each one move, or several tokens) or the tokens of a line.
/// Returns the number of moves played; the error names the move by its number and text.
pub(crate) fn play_list<A: GameAdapter>(
    record: &mut Record<A::Pos>,
    items: &[&str],
) -> Result<usize, MoveError> {
    // Tokens, each remembering the argv element it came from.
    let mut tokens: Vec<(&str, usize)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let before = tokens.len();
        tokens.extend(item.split_whitespace().map(|t| (t, i)));
        if tokens.len() == before {
            return Err(MoveError {
                index: i + 1,
                text: item.to_string(),
                reason: "an empty move".to_string(),
            });
        }
    }
    // The text to name a move that starts at token `i` by: its whole argv element when the
    // element starts there, else the token.
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
        if let Some(o) = record.result() {
            return Err(MoveError {
                index,
                text: name(i),
                reason: format!("the game is already over ({})", result_text::<A>(o)),
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
            return Err(MoveError {
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
        record.play(mv).map_err(|e| MoveError {
            index,
            text,
            reason: match e {
                search::PlayError::GameOver(o) => {
                    format!("the game is already over ({})", result_text::<A>(o))
                }
                search::PlayError::Illegal(why) => why,
            },
        })?;
        played += 1;
        i = next;
    }
    Ok(played)
}

/// No move of any game here has more tokens than this.
const MAX_MOVE_TOKENS: usize = 8;

/// A record that starts at `pos`.
pub(crate) fn record_from<A: GameAdapter>(pos: A::Pos) -> Record<A::Pos> {
    Record::new(pos)
}

/// Every legal move of a position, in the game's order.
pub(crate) fn legal_moves<G: Game>(pos: &G) -> search::MoveList<G::Move> {
    let mut out = search::MoveList::new();
    if pos.outcome().is_none() {
        pos.legal_moves(&mut out);
    }
    out
}
