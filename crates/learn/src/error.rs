//! The crate's error: a file that cannot be read or written, a file that is not a network
//! of this crate (or not whole), a network or data of the wrong shape.

use std::fmt;
use std::path::PathBuf;

/// What went wrong, naming the file where there is one.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The bytes are not a whole network (or trainer state) of this crate: not safetensors,
    /// a tensor missing, of another type or shape, a value that is not finite.
    Corrupt {
        /// The file, when the bytes came from one.
        path: Option<PathBuf>,
        /// What is wrong.
        reason: String,
    },
    /// A whole network, but not for this use: another game's, another format's, or another
    /// shape than the one asked for.
    Foreign {
        /// The file, when the bytes came from one.
        path: Option<PathBuf>,
        /// What it is, and what was wanted.
        reason: String,
    },
    /// One field of a file (a tensor or a metadata key) that is missing, of another kind,
    /// shaped against the rest, or holding a value that is not finite: the sparse
    /// network's files ([`crate::sparse`]) name what is wrong so.
    Field {
        /// The file, when the bytes came from one.
        path: Option<PathBuf>,
        /// The tensor's name (`"ft.weight"`) or the metadata key (`"kind"`).
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Layer sizes, data or settings that cannot be used (a layer of size 0, a sample of
    /// the wrong length, a learning rate that is not positive).
    Shape {
        /// What is wrong.
        reason: String,
    },
}

impl Error {
    /// This error, naming `path` as the file it came from (where it names none yet).
    pub fn in_file(self, path: impl Into<PathBuf>) -> Error {
        match self {
            Error::Corrupt { path: None, reason } => Error::Corrupt {
                path: Some(path.into()),
                reason,
            },
            Error::Foreign { path: None, reason } => Error::Foreign {
                path: Some(path.into()),
                reason,
            },
            Error::Field {
                path: None,
                field,
                reason,
            } => Error::Field {
                path: Some(path.into()),
                field,
                reason,
            },
            other => other,
        }
    }

    pub(crate) fn field(field: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::Field {
            path: None,
            field: field.into(),
            reason: reason.into(),
        }
    }

    pub(crate) fn corrupt(reason: impl Into<String>) -> Error {
        Error::Corrupt {
            path: None,
            reason: reason.into(),
        }
    }

    pub(crate) fn foreign(reason: impl Into<String>) -> Error {
        Error::Foreign {
            path: None,
            reason: reason.into(),
        }
    }

    pub(crate) fn shape(reason: impl Into<String>) -> Error {
        Error::Shape {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = |p: &Option<PathBuf>| match p {
            Some(p) => format!("{}: ", p.display()),
            None => String::new(),
        };
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Corrupt { path, reason } => {
                write!(f, "{}not a whole plyforge network: {reason}", file(path))
            }
            Error::Foreign { path, reason } => write!(f, "{}{reason}", file(path)),
            Error::Field {
                path,
                field,
                reason,
            } => write!(f, "{}{field:?}: {reason}", file(path)),
            Error::Shape { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
