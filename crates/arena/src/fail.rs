//! Errors that end the program, with their exit codes, and output that survives a closed pipe.

use std::fmt;
use std::io::Write;

/// Why the program stops early.
#[derive(Debug)]
pub enum Fail {
    /// Bad usage or bad input (exit code 2).
    Usage(String),
    /// Something went wrong while working, such as a file that cannot be written (exit code 1).
    Runtime(String),
}

impl Fail {
    /// A bad-input failure.
    pub fn usage(msg: impl Into<String>) -> Fail {
        Fail::Usage(msg.into())
    }
    /// A runtime failure.
    pub fn runtime(msg: impl Into<String>) -> Fail {
        Fail::Runtime(msg.into())
    }
    /// The exit code.
    pub fn code(&self) -> i32 {
        match self {
            Fail::Usage(_) => 2,
            Fail::Runtime(_) => 1,
        }
    }
}

impl From<plyforge::Error> for Fail {
    /// Bad input is a usage failure (exit code 2); a solver that could not answer, or memory
    /// that could not be had, a runtime failure (exit code 1).
    fn from(e: plyforge::Error) -> Fail {
        match e {
            plyforge::Error::Solve { .. } | plyforge::Error::Resources { .. } => {
                Fail::Runtime(e.to_string())
            }
            _ => Fail::Usage(e.to_string()),
        }
    }
}

impl From<lab::Error> for Fail {
    /// Bad input (settings, files read) is a usage failure (exit code 2); anything else a
    /// runtime failure (exit code 1).
    fn from(e: lab::Error) -> Fail {
        if e.is_bad_input() {
            Fail::Usage(e.to_string())
        } else {
            Fail::Runtime(e.to_string())
        }
    }
}

impl From<net::Error> for Fail {
    /// Bad input (settings, refused positions or specifications) is a usage failure (exit
    /// code 2); anything else a runtime failure (exit code 1).
    fn from(e: net::Error) -> Fail {
        if e.is_bad_input() {
            Fail::Usage(e.to_string())
        } else {
            Fail::Runtime(e.to_string())
        }
    }
}

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fail::Usage(m) | Fail::Runtime(m) => f.write_str(m),
        }
    }
}

/// Writes to stdout and flushes; a closed pipe (`arena moves … | head -1`) ends the program
/// quietly instead of panicking as `println!` would.
pub fn emit(args: fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if out.write_fmt(args).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// The program's name as its user called it (`connect-four-arena` for a user's own program
/// with its game in it, as the usage lines show it): what its messages on stderr start with.
pub fn program() -> &'static str {
    PROGRAM.get().map_or("arena", String::as_str)
}

static PROGRAM: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Takes the program's name from the first argument of the command line (its file name
/// without a folder or an extension); the first call wins.
pub(crate) fn set_program(arg0: Option<&std::ffi::OsStr>) {
    let name = arg0
        .map(std::path::Path::new)
        .and_then(std::path::Path::file_stem)
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("arena");
    let _ = PROGRAM.set(name.to_string());
}

/// `eprintln!` with the program's name in front: `connect-four-arena: …`.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => { eprintln!("{}: {}", $crate::fail::program(), format_args!($($arg)*)) };
}

/// `println!` that survives a closed pipe.
#[macro_export]
macro_rules! outln {
    () => { $crate::fail::emit(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::fail::emit(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` that survives a closed pipe (and flushes, for prompts).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::fail::emit(format_args!($($arg)*)) };
}

pub use crate::{errln, out, outln};
