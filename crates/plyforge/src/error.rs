//! The one error type of the facade: each variant names what was wrong and where.

use std::fmt;
use std::sync::Arc;

/// A game's own error (a parse error naming the field, a refused weight setting), kept as
/// the [`source`](std::error::Error::source) of a facade error so that code can reach the
/// typed error: `e.source()?.downcast_ref::<plyforge::jumpy3::ParsePositionError>()`.
/// Equal when their messages are.
#[derive(Clone)]
pub struct Source(Arc<dyn std::error::Error + Send + Sync>);

impl Source {
    /// Keeps an error.
    pub fn new(e: impl std::error::Error + Send + Sync + 'static) -> Source {
        Source(Arc::new(e))
    }
    /// The error.
    pub fn get(&self) -> &(dyn std::error::Error + 'static) {
        &*self.0
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl PartialEq for Source {
    fn eq(&self, other: &Source) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl Eq for Source {}

/// What went wrong, with the text that was given and the reason. Its `Display` is a message
/// for a person (the `arena` program prints it as it is).
///
/// A game's own error stays reachable as the [`source`](std::error::Error::source):
///
/// ```
/// use std::error::Error as _;
/// use plyforge::{Error, GameKind};
/// let e = "chess".parse::<GameKind>().unwrap_err();
/// assert!(matches!(e, Error::UnknownGame { .. }));
/// assert_eq!(e.to_string(), "unknown game \"chess\" (jumpy3, chexers, throne, chaosclock)");
/// let e = GameKind::from_name("jumpy3")?.game_from("Wwww w").unwrap_err();
/// let parse = e.source().unwrap().downcast_ref::<plyforge::jumpy3::ParsePositionError>();
/// assert!(parse.is_some(), "{e}");
/// # Ok::<(), plyforge::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// No game has this name.
    UnknownGame {
        /// The name given.
        name: String,
        /// The names of the games there are.
        known: Vec<&'static str>,
    },
    /// A position that is not valid notation of the game, or not a legal position.
    Position {
        /// The text given.
        text: String,
        /// What is wrong with it (the game's parse error, naming the field).
        reason: String,
        /// The game's own error, where there is one.
        source: Option<Source>,
    },
    /// A move that is not notation of the game, or not legal where it was played.
    Move {
        /// The number of the move in the list it came in (1 for a single move).
        index: usize,
        /// The text given.
        text: String,
        /// Why it cannot be played.
        reason: String,
        /// The game's own error (its parse error, or the illegal move's reason), where
        /// there is one.
        source: Option<Source>,
    },
    /// A move or a search asked of a game that is over.
    GameOver {
        /// The result, in the result notation (`winner w`, `draw repetition`, ...).
        result: String,
    },
    /// A move index outside the list of legal moves.
    NoSuchMove {
        /// The index given.
        index: usize,
        /// How many legal moves there are.
        moves: usize,
    },
    /// An engine specification that cannot be used.
    Spec {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A player index outside the game's players.
    NoSuchPlayer {
        /// The index given.
        player: usize,
        /// How many players the game has.
        players: usize,
    },
    /// The game has no exact solver.
    NoSolver {
        /// The game's name.
        game: &'static str,
    },
    /// The solver could not answer (its table does not cover the position, a time limit was
    /// reached, a table file could not be read or written).
    Solve {
        /// Why.
        reason: String,
    },
    /// An engine's table (or other memory) could not be had.
    Resources {
        /// What was asked for and why it could not be had.
        reason: String,
    },
    /// A game without action numbers was asked for them ([`crate::encoding`]).
    NoEncoding {
        /// The game's name.
        game: &'static str,
    },
    /// A game that cannot join the registry ([`crate::register`]): its name is not a
    /// usable one, or another game has it.
    Registry {
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
    /// An action number (see [`crate::encoding`]) that names no move, or no legal one.
    Action {
        /// The number given.
        action: usize,
        /// Why it cannot be played.
        reason: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownGame { name, known } => {
                write!(f, "unknown game {name:?} ({})", known.join(", "))
            }
            Error::Position { text, reason, .. } => write!(f, "position {text:?}: {reason}"),
            Error::Move {
                index,
                text,
                reason,
                ..
            } => write!(f, "move {index} ({text:?}): {reason}"),
            Error::GameOver { result } => write!(f, "the game is already over ({result})"),
            Error::NoSuchMove { index, moves } => write!(
                f,
                "move index {index} is out of range: there are {moves} legal moves"
            ),
            Error::Spec { text, reason } => write!(f, "engine {text:?}: {reason}"),
            Error::NoSuchPlayer { player, players } => write!(
                f,
                "player {player} does not exist: the game has players 0 to {}",
                players - 1
            ),
            Error::NoSolver { game } => write!(f, "{game} has no exact solver"),
            Error::Solve { reason } => f.write_str(reason),
            Error::Resources { reason } => f.write_str(reason),
            Error::Action { action, reason } => write!(f, "action {action}: {reason}"),
            Error::NoEncoding { game } => write!(f, "{game} has no action numbers"),
            Error::Registry { name, reason } => write!(f, "game {name:?}: {reason}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Position {
                source: Some(s), ..
            }
            | Error::Move {
                source: Some(s), ..
            } => Some(s.get()),
            _ => None,
        }
    }
}

impl Error {
    /// A position that cannot be read, for a reason of the facade's.
    pub fn position(text: &str, reason: impl Into<String>) -> Error {
        Error::Position {
            text: text.to_string(),
            reason: reason.into(),
            source: None,
        }
    }

    /// A position that the game's parser refused with `e` (kept as the source).
    pub fn position_parse(text: &str, e: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error::Position {
            text: text.to_string(),
            reason: e.to_string(),
            source: Some(Source::new(e)),
        }
    }

    /// Move `index` of a list (1 for a single move) cannot be played, for a reason of the
    /// facade's.
    pub fn bad_move(index: usize, text: &str, reason: impl Into<String>) -> Error {
        Error::Move {
            index,
            text: text.to_string(),
            reason: reason.into(),
            source: None,
        }
    }

    /// Move `index` of a list cannot be played: the game's error `e` (kept as the source)
    /// says why.
    pub fn move_error(
        index: usize,
        text: &str,
        e: impl std::error::Error + Send + Sync + 'static,
    ) -> Error {
        Error::Move {
            index,
            text: text.to_string(),
            reason: e.to_string(),
            source: Some(Source::new(e)),
        }
    }

    /// The reason alone, without the text it is about (for a message that names the text
    /// itself, such as `Illegal move "x": REASON`).
    ///
    /// ```
    /// let e = plyforge::Error::bad_move(1, "x", "not a move");
    /// assert_eq!(e.reason(), "not a move");
    /// ```
    pub fn reason(&self) -> String {
        match self {
            Error::Position { reason, .. }
            | Error::Move { reason, .. }
            | Error::Spec { reason, .. }
            | Error::Solve { reason }
            | Error::Resources { reason }
            | Error::Action { reason, .. } => reason.clone(),
            other => other.to_string(),
        }
    }
}
