//! Playing a game of any adapter from text: positions (`start`, random and fair starts)
//! and moves read with the reasons they are wrong, results in the result notation and in
//! words, random playouts, and the exact value by proof-number search.

use search::rng::XorShift64Star;
use std::time::Duration;

use search::{Evaluator, Game, Limits, Outcome, Player, Record};

use super::{ExactValue, GameAdapter, Solution, SolveSettings};
use crate::error::Error;

/// The exact value of a two-player position with its history by proof-number search
/// ([`search::prove::Prover::solve`], moves ordered by the default evaluation's hints):
/// a win or a loss with its exact distance, or a draw when neither side can force a win;
/// every best move and a perfect line; a finished game, its result at distance 0 with no
/// move. `settings.time` limits it (else it runs until it knows, or until its table of 8
/// million positions is full).
pub fn proof_search<A: GameAdapter>(
    record: &Record<A::Pos>,
    settings: &SolveSettings<'_>,
) -> Result<Solution<A::Move>, Error> {
    use search::prove::{Prover, Value};
    let exact = |v: Value| match v {
        Value::Win(n) => ExactValue::Win(n),
        Value::Loss(n) => ExactValue::Loss(n),
        _ => ExactValue::Draw,
    };
    // A finished game (by its rules or its history's) is its result, with no move to make.
    if let Some(o) = record.result() {
        return Ok(Solution {
            value: exact(Value::of_outcome(o, record.position().to_move())),
            best: Vec::new(),
            line: Vec::new(),
        });
    }
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
    Ok(Solution {
        value: exact(solved.value),
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
/// `random` or `random:SEED`). Cheap, whatever the text: a fair start (`fair`, `fair:SEED`)
/// is solved, not read, and only [`read_start`] takes it.
pub fn read_position<A: GameAdapter>(text: &str) -> Result<A::Pos, Error> {
    let t = text.trim();
    let bad = |reason: String| Error::position(t, reason);
    let parsed = |t: &str| A::parse_position(t).map_err(|e| Error::position_parse(t, e));
    if t == "start" || t == "startpos" {
        return Ok(A::start());
    }
    if let Some(rest) = t.strip_prefix("random") {
        let seed = match rest.strip_prefix(':') {
            Some(s) => s
                .parse::<u64>()
                .map_err(|_| bad("the seed after `random:` must be a number".to_string()))?,
            None if rest.is_empty() => 1,
            None => return parsed(t),
        };
        return A::random_start(seed).ok_or_else(|| {
            bad(format!(
                "{} has no random start (give a position or `start`)",
                A::TITLE
            ))
        });
    }
    if fair_seed(t).map_err(|e| bad(e.to_string()))?.is_some() {
        return Err(bad(
            "a fair start is solved, not read: the commands that take starts take it \
             (`arena match --position fair`, a book's `fair:SEED` line, `arena apply`)"
                .to_string(),
        ));
    }
    parsed(t)
}

/// Reads a start: a position as [`read_position`] reads it, or where the game has them a
/// fair start, `fair` or `fair:SEED` ([`GameAdapter::fair_start`]). A fair start is solved,
/// so reading one is not cheap; the game bounds the work, and a seed without a fair start
/// within the bound is an error.
pub fn read_start<A: GameAdapter>(text: &str) -> Result<A::Pos, Error> {
    let t = text.trim();
    let bad = |reason: String| Error::position(t, reason);
    let Some(seed) = fair_seed(t).map_err(|e| bad(e.to_string()))? else {
        return read_position::<A>(t);
    };
    if !A::HAS_FAIR_START {
        return Err(bad(format!(
            "{} has no fair start (give a position or `start`)",
            A::TITLE
        )));
    }
    A::fair_start(seed).ok_or_else(|| {
        bad(format!(
            "no fair start of {} found from seed {seed} within the game's bound (try another seed)",
            A::TITLE
        ))
    })
}

/// The seed of `fair` (1) or `fair:SEED`; `None` for other text.
fn fair_seed(t: &str) -> Result<Option<u64>, &'static str> {
    match t.strip_prefix("fair") {
        Some("") => Ok(Some(1)),
        Some(rest) => match rest.strip_prefix(':') {
            Some(s) => s
                .parse::<u64>()
                .map(Some)
                .map_err(|_| "the seed after `fair:` must be a number"),
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
    let t = text.trim();
    let mv = A::parse_move(record.position(), text).map_err(|e| Error::move_error(1, t, e))?;
    record.play(mv).map_err(|e| match e {
        search::PlayError::GameOver(o) => Error::GameOver {
            result: result_text::<A>(o),
        },
        other => play_error::<A>(1, t, other),
    })?;
    Ok(mv)
}

/// Move `index` (`text`) could not be played: the record's reason (an illegal move's
/// [`search::IllegalMove`] is kept as the source).
fn play_error<A: GameAdapter>(index: usize, text: &str, e: search::PlayError) -> Error {
    match e {
        search::PlayError::GameOver(o) => Error::bad_move(
            index,
            text,
            format!("the game is already over ({})", result_text::<A>(o)),
        ),
        search::PlayError::Illegal(why) => Error::move_error(index, text, why),
        other => Error::bad_move(index, text, other.to_string()),
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
            return Err(Error::bad_move(i + 1, item, "an empty move"));
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
            return Err(Error::bad_move(
                index,
                &name(i),
                format!("the game is already over ({result})"),
            ));
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
            return Err(match A::parse_move(record.position(), &text) {
                Err(e) => Error::move_error(index, &text, e),
                Ok(_) => Error::bad_move(index, &text, "not a move"),
            });
        };
        let text = tokens[i..next]
            .iter()
            .map(|t| t.0)
            .collect::<Vec<_>>()
            .join(" ");
        record
            .play(mv)
            .map_err(|e| play_error::<A>(index, &text, e))?;
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

/// The limits of one move of the side to move in `pos` on a game clock with `remaining`
/// thinking time left for the rest of the game (no increment), with `own` the player's own
/// limits (depth, nodes, a time per move) applying too: the engine's one clock rule
/// ([`search::ClockPolicy::limits`]) with the game's policy ([`GameAdapter::CLOCK`]) and its
/// estimate of the moves to go ([`GameAdapter::moves_to_go`]), capped by `cap` when the
/// caller knows a hard count (a match server's moves left). Every front end that plays on a
/// clock calls this.
///
/// ```
/// use std::time::Duration;
/// use plyforge::games::Chexers;
/// use plyforge::{clock_limits, GameAdapter, Limits};
/// let l = clock_limits::<Chexers>(&Chexers::start(), Limits::default(), Duration::from_secs(60), None);
/// assert_eq!(l.clock.unwrap().moves_to_go, Some(39));
/// let capped = clock_limits::<Chexers>(&Chexers::start(), Limits::depth(6), Duration::from_secs(60), Some(20));
/// assert_eq!(capped.clock.unwrap().moves_to_go, Some(20));
/// assert_eq!(capped.depth, Some(6));
/// ```
pub fn clock_limits<A: GameAdapter>(
    pos: &A::Pos,
    own: Limits,
    remaining: Duration,
    cap: Option<u32>,
) -> Limits {
    let moves = match (A::moves_to_go(pos), cap) {
        (Some(m), Some(c)) => Some(m.min(c)),
        (m, c) => m.or(c),
    };
    A::CLOCK.limits(own, remaining, moves)
}

/// Plays uniformly random legal moves (the seeded [`XorShift64Star`] picks among the legal
/// moves in their fixed order) until the game is over or `max_moves` have been played;
/// returns the number of moves played. The same record and seed give the same game.
pub fn play_random<A: GameAdapter>(
    record: &mut Record<A::Pos>,
    seed: u64,
    max_moves: Option<usize>,
) -> usize {
    if record.result().is_some() {
        return 0;
    }
    let mut rng = XorShift64Star::seeded(seed);
    let mut played = 0;
    while max_moves.map_or(true, |m| played < m) {
        let moves = record.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        if record.play(mv).is_err() {
            break;
        }
        played += 1;
    }
    played
}
