//! The fixed position lists of `benches/data/<game>.txt`.
//!
//! A list is plain text: blank lines and lines starting with `#` are ignored, every other
//! line is `label: position`, the position in the game's own notation (the text after the
//! first `": "`). The lists are compiled in, so the benches and the report need no files at
//! run time; `tests/data.rs` checks that every entry parses.

use plyforge::{chaosclock, chexers, jumpy3, throne};
use std::fmt;
use std::str::FromStr;

/// The Jumpy3 list.
pub const JUMPY3: &str = include_str!("../data/jumpy3.txt");
/// The Chexers list.
pub const CHEXERS: &str = include_str!("../data/chexers.txt");
/// The Chaos Clock list.
pub const CHAOSCLOCK: &str = include_str!("../data/chaosclock.txt");
/// The Connect Four list (the benchmark game a user would write).
pub const CONNECT_FOUR: &str = include_str!("../data/connect_four.txt");
/// The 6×6 Othello list (the second benchmark game a user would write).
pub const OTHELLO: &str = include_str!("../data/othello.txt");
/// The 6×6 Breakthrough list (the capture game a user would write).
pub const BREAKTHROUGH: &str = include_str!("../data/breakthrough.txt");
/// The Throne list.
pub const THRONE: &str = include_str!("../data/throne.txt");

/// One bench position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<P> {
    /// A short name for tables and benchmark ids (no spaces).
    pub label: String,
    /// The position.
    pub position: P,
}

/// What is wrong with a position list, and where (1-based line numbers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataError {
    /// The line has no `label: ` prefix.
    MissingLabel {
        /// The line number.
        line: usize,
    },
    /// The label is empty or contains white space.
    BadLabel {
        /// The line number.
        line: usize,
        /// The label as written.
        label: String,
    },
    /// Two entries share a label.
    DuplicateLabel {
        /// The line number of the second one.
        line: usize,
        /// The label.
        label: String,
    },
    /// The position does not parse in the game's notation.
    BadPosition {
        /// The line number.
        line: usize,
        /// The entry's label.
        label: String,
        /// The game's parse error.
        message: String,
    },
    /// The list has no entry at all.
    Empty,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::MissingLabel { line } => {
                write!(f, "line {line}: expected `label: position`")
            }
            DataError::BadLabel { line, label } => {
                write!(
                    f,
                    "line {line}: label {label:?} must be non-empty without spaces"
                )
            }
            DataError::DuplicateLabel { line, label } => {
                write!(f, "line {line}: label {label:?} is used twice")
            }
            DataError::BadPosition {
                line,
                label,
                message,
            } => write!(f, "line {line} ({label}): bad position: {message}"),
            DataError::Empty => write!(f, "the list has no position"),
        }
    }
}

impl std::error::Error for DataError {}

/// Parses a position list for the game whose position type is `P`.
///
/// ```
/// use benches::data::{parse_list, DataError};
///
/// let list = parse_list::<u32>("# numbers\none: 1\n\ntwo: 2\n").unwrap();
/// assert_eq!(list[1].label, "two");
/// assert_eq!(list[1].position, 2);
/// assert!(matches!(
///     parse_list::<u32>("one: x"),
///     Err(DataError::BadPosition { line: 1, .. })
/// ));
/// ```
pub fn parse_list<P>(text: &str) -> Result<Vec<Entry<P>>, DataError>
where
    P: FromStr,
    P::Err: fmt::Display,
{
    let mut out: Vec<Entry<P>> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (label, pos) = trimmed
            .split_once(": ")
            .ok_or(DataError::MissingLabel { line })?;
        let label = label.trim();
        if label.is_empty() || label.contains(char::is_whitespace) {
            return Err(DataError::BadLabel {
                line,
                label: label.to_string(),
            });
        }
        if out.iter().any(|e| e.label == label) {
            return Err(DataError::DuplicateLabel {
                line,
                label: label.to_string(),
            });
        }
        let position = pos
            .trim()
            .parse::<P>()
            .map_err(|e| DataError::BadPosition {
                line,
                label: label.to_string(),
                message: e.to_string(),
            })?;
        out.push(Entry {
            label: label.to_string(),
            position,
        });
    }
    if out.is_empty() {
        return Err(DataError::Empty);
    }
    Ok(out)
}

/// The list `text`, which must parse (the crate's tests check the compiled-in lists).
///
/// # Panics
/// If the list does not parse, naming the line.
pub fn load<P>(name: &str, text: &str) -> Vec<Entry<P>>
where
    P: FromStr,
    P::Err: fmt::Display,
{
    parse_list(text).unwrap_or_else(|e| panic!("benches/data/{name}.txt: {e}"))
}

/// The Jumpy3 positions.
pub fn jumpy3() -> Vec<Entry<jumpy3::Position>> {
    load("jumpy3", JUMPY3)
}

/// The Chexers positions.
pub fn chexers() -> Vec<Entry<chexers::Position>> {
    load("chexers", CHEXERS)
}

/// The Throne positions.
pub fn throne() -> Vec<Entry<throne::Position>> {
    load("throne", THRONE)
}

/// The Chaos Clock positions.
pub fn chaosclock() -> Vec<Entry<chaosclock::Position>> {
    load("chaosclock", CHAOSCLOCK)
}

/// The Connect Four positions.
pub fn connect_four() -> Vec<Entry<connect_four::Position>> {
    load("connect_four", CONNECT_FOUR)
}

/// The 6×6 Othello positions.
pub fn othello() -> Vec<Entry<example_games::othello::Othello>> {
    load("othello", OTHELLO)
}

/// The 6×6 Breakthrough positions.
pub fn breakthrough() -> Vec<Entry<example_games::breakthrough::Breakthrough>> {
    load("breakthrough", BREAKTHROUGH)
}
