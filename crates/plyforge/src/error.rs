//! The one error type of the facade: each variant names what was wrong and where.

use std::fmt;

/// What went wrong, with the text that was given and the reason. Its `Display` is a message
/// for a person (the `arena` program prints it as it is).
///
/// ```
/// use plyforge::{Error, GameKind};
/// let e = "chess".parse::<GameKind>().unwrap_err();
/// assert!(matches!(e, Error::UnknownGame { .. }));
/// assert_eq!(e.to_string(), "unknown game \"chess\" (jumpy3, chexers, throne, chaosclock)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// No game has this name.
    UnknownGame {
        /// The name given.
        name: String,
    },
    /// A position that is not valid notation of the game, or not a legal position.
    Position {
        /// The text given.
        text: String,
        /// What is wrong with it (the game's parse error, naming the field).
        reason: String,
    },
    /// A move that is not notation of the game, or not legal where it was played.
    Move {
        /// The number of the move in the list it came in (1 for a single move).
        index: usize,
        /// The text given.
        text: String,
        /// Why it cannot be played.
        reason: String,
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
            Error::UnknownGame { name } => write!(
                f,
                "unknown game {name:?} ({})",
                crate::GameKind::ALL
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Error::Position { text, reason } => write!(f, "position {text:?}: {reason}"),
            Error::Move {
                index,
                text,
                reason,
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
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// The reason alone, without the text it is about (for a message that names the text
    /// itself, such as `Illegal move "x": REASON`).
    ///
    /// ```
    /// let e = plyforge::Error::Move { index: 1, text: "x".into(), reason: "not a move".into() };
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
