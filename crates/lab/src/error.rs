//! [`Error`]: why a match, a merge, a tuning run or a fit could not be done.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why engine testing stopped. Each variant says what kind of thing went wrong; the message
/// names what is wrong (the setting, the file and line, the engine).
///
/// Settings are named as `arena`'s options of the same name (`--games`, `--book`, …), which
/// are the fields of [`MatchSettings`](crate::MatchSettings) and
/// [`TuneSettings`](crate::tune::TuneSettings) spelled with dashes.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Settings that are out of range or that do not go together.
    Settings(String),
    /// A file that was read is not what it should be: unreadable, a malformed line, or the
    /// file of another match or run.
    Input {
        /// The file, as named in the settings (with the setting that named it, if any).
        file: String,
        /// The line (from 1), if the fault is in one line.
        line: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// A file could not be written.
    Output {
        /// The setting that named it (`--out`, `--record`, …).
        setting: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A game could not go on: an engine found no move, or chose an illegal one.
    Game(String),
    /// A tuning run cannot go on: an iteration's games are missing, or were played with
    /// other values than the run computes.
    Run(String),
    /// The facade refused something (a position, a game's name, an evaluation).
    Plyforge(plyforge::Error),
}

impl Error {
    /// True when the input was at fault (settings, files read, the facade refusing input),
    /// false when something failed while working (a file that cannot be written, an engine,
    /// a run that cannot go on, a solver without an answer). `arena` exits with 2 for the
    /// first and 1 for the second.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Error::Settings(_) | Error::Input { .. } => true,
            Error::Output { .. } | Error::Game(_) | Error::Run(_) => false,
            Error::Plyforge(e) => !matches!(
                e,
                plyforge::Error::Solve { .. } | plyforge::Error::Resources { .. }
            ),
        }
    }

    /// A settings error.
    pub(crate) fn settings(reason: impl Into<String>) -> Error {
        Error::Settings(reason.into())
    }

    /// A fault in file `file` (at line `line`, if given).
    pub(crate) fn input(
        file: impl Into<String>,
        line: Option<usize>,
        reason: impl fmt::Display,
    ) -> Error {
        Error::Input {
            file: file.into(),
            line,
            reason: reason.to_string(),
        }
    }

    /// A file named by `setting` that could not be written.
    pub(crate) fn output(setting: &'static str, path: &Path, source: std::io::Error) -> Error {
        Error::Output {
            setting,
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Settings(m) | Error::Game(m) | Error::Run(m) => f.write_str(m),
            Error::Input {
                file,
                line: Some(n),
                reason,
            } => write!(f, "{file} line {n}: {reason}"),
            Error::Input {
                file,
                line: None,
                reason,
            } => write!(f, "{file}: {reason}"),
            Error::Output {
                setting,
                path,
                source,
            } => write!(f, "{setting} {}: {source}", path.display()),
            Error::Plyforge(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Output { source, .. } => Some(source),
            Error::Plyforge(e) => Some(e),
            _ => None,
        }
    }
}

impl From<plyforge::Error> for Error {
    fn from(e: plyforge::Error) -> Error {
        Error::Plyforge(e)
    }
}
