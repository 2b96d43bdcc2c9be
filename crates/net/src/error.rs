//! [`Error`]: why the engine protocol, the server or the client stopped.

use std::fmt;

/// Why the engine protocol, the match server or the client could not go on. The message
/// names what is wrong (the option, the address, the file, what the peer said).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Settings out of range or that do not go together; named as `arena`'s options of
    /// the same name.
    Settings(String),
    /// The machine failed us: an address that cannot be listened on or connected to, a
    /// socket, stdin, the record file, the runtime.
    Io(String),
    /// The other side: a server that is not one, that refused us, said goodbye or broke
    /// its protocol.
    Peer(String),
    /// The engine testing library refused something (a start position for the games).
    Lab(lab::Error),
    /// The facade refused something (a position, an engine specification).
    Plyforge(plyforge::Error),
}

impl Error {
    /// True when the input was at fault (the settings, or input the facade or the lab
    /// refused), false when something failed while working. `arena` exits with 2 for the
    /// first and 1 for the second.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Error::Settings(_) => true,
            Error::Io(_) | Error::Peer(_) => false,
            Error::Lab(e) => e.is_bad_input(),
            Error::Plyforge(e) => !matches!(
                e,
                plyforge::Error::Solve { .. } | plyforge::Error::Resources { .. }
            ),
        }
    }

    pub(crate) fn settings(m: impl Into<String>) -> Error {
        Error::Settings(m.into())
    }

    pub(crate) fn io(m: impl Into<String>) -> Error {
        Error::Io(m.into())
    }

    pub(crate) fn peer(m: impl Into<String>) -> Error {
        Error::Peer(m.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Settings(m) | Error::Io(m) | Error::Peer(m) => f.write_str(m),
            Error::Lab(e) => write!(f, "{e}"),
            Error::Plyforge(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Lab(e) => Some(e),
            Error::Plyforge(e) => Some(e),
            _ => None,
        }
    }
}

impl From<lab::Error> for Error {
    fn from(e: lab::Error) -> Error {
        Error::Lab(e)
    }
}

impl From<plyforge::Error> for Error {
    fn from(e: plyforge::Error) -> Error {
        Error::Plyforge(e)
    }
}
