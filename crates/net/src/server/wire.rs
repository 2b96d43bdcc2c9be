//! The words of the line protocol (`docs/server-protocol.md`): reading lines with a length
//! cap, parsing what agents send, and the lines the server sends.

use std::io;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

/// The protocol version this program speaks.
pub const VERSION: u32 = 1;

/// The longest line accepted, without its line end, in bytes.
pub const MAX_LINE: usize = 4096;

/// The longest agent name.
pub const MAX_NAME: usize = 32;

/// One read from a peer.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// A complete line without its line end (`\n` or `\r\n`).
    Line(String),
    /// A line longer than [`MAX_LINE`]: it is skipped up to its end.
    TooLong,
    /// A line that is not UTF-8.
    NotUtf8,
    /// The peer closed its side (a last line without a line end is dropped).
    Eof,
}

/// Reads lines of at most [`MAX_LINE`] bytes from a stream. Cancel-safe: a `next` dropped
/// before it finishes (in a `select!`) loses no input.
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Skipping the rest of an over-long line.
    skipping: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> Self {
        LineReader {
            inner,
            buf: Vec::new(),
            skipping: false,
        }
    }

    /// The stream read from.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The next line (or why there is none).
    pub async fn next(&mut self) -> io::Result<Input> {
        loop {
            if let Some(nl) = self.buf.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=nl).collect();
                line.pop();
                if std::mem::take(&mut self.skipping) {
                    continue;
                }
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > MAX_LINE {
                    return Ok(Input::TooLong);
                }
                return Ok(match String::from_utf8(line) {
                    Ok(s) => Input::Line(s),
                    Err(_) => Input::NotUtf8,
                });
            }
            if self.buf.len() > MAX_LINE + 1 {
                self.buf.clear();
                if !self.skipping {
                    self.skipping = true;
                    return Ok(Input::TooLong);
                }
            }
            let mut chunk = [0u8; 2048];
            let n = self.inner.read(&mut chunk).await?;
            if n == 0 {
                return Ok(Input::Eof);
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }
}

/// What an agent may send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `hello VERSION NAME`.
    Hello {
        /// The protocol version the agent speaks.
        version: u32,
        /// Its name.
        name: String,
    },
    /// `move MOVE`: the move in the game's notation (the rest of the line).
    Move(String),
    /// `moves`: the legal moves, please.
    Moves,
    /// `position`: the current position, please.
    Position,
    /// `ping`.
    Ping,
    /// `quit`: leave (a game in progress is lost).
    Quit,
    /// An empty line: ignored.
    Empty,
}

/// A line the server does not accept: `error KIND MESSAGE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// `syntax`, `unknown`, `version`, ...
    pub kind: &'static str,
    /// Why, for a person.
    pub message: String,
}

impl Refusal {
    /// A refusal of this kind, for this reason.
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Refusal {
            kind,
            message: message.into(),
        }
    }

    /// The `error` line.
    pub fn line(&self) -> String {
        error_line(self.kind, &self.message)
    }
}

/// Whether `name` is usable: 1 to [`MAX_NAME`] letters, digits, `_`, `-`, `.`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Parses one line from an agent.
pub fn parse_request(line: &str) -> Result<Request, Refusal> {
    let t = line.trim();
    let (word, rest) = match t.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (t, ""),
    };
    let no_args = |req: Request| {
        if rest.is_empty() {
            Ok(req)
        } else {
            Err(Refusal::new(
                "syntax",
                format!("`{word}` takes no arguments"),
            ))
        }
    };
    match word {
        "" => Ok(Request::Empty),
        "hello" => {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let [version, name] = words[..] else {
                return Err(Refusal::new("syntax", "expected `hello VERSION NAME`"));
            };
            let version: u32 = version.parse().map_err(|_| {
                Refusal::new(
                    "syntax",
                    format!("hello: version {version:?} is not a number"),
                )
            })?;
            if !valid_name(name) {
                return Err(Refusal::new(
                    "syntax",
                    format!("hello: a name is 1 to {MAX_NAME} letters, digits, `_`, `-` or `.`"),
                ));
            }
            Ok(Request::Hello {
                version,
                name: name.to_string(),
            })
        }
        "move" => {
            if rest.is_empty() {
                Err(Refusal::new("syntax", "expected `move MOVE`"))
            } else {
                Ok(Request::Move(rest.to_string()))
            }
        }
        "moves" => no_args(Request::Moves),
        "position" => no_args(Request::Position),
        "ping" => no_args(Request::Ping),
        "quit" => no_args(Request::Quit),
        other => Err(Refusal::new(
            "unknown",
            format!("unknown command {}", shown(other, 40)),
        )),
    }
}

/// At most `max` characters of an agent's text, control characters replaced by `?`, for
/// echoing it in an error line or the record.
pub fn shown(text: &str, max: usize) -> String {
    text.chars()
        .take(max)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// `hello arena-server VERSION GAME`: the server's first line.
pub fn hello_line(game: &str) -> String {
    format!("hello arena-server {VERSION} {game}")
}

/// `error KIND MESSAGE`.
pub fn error_line(kind: &str, message: &str) -> String {
    // A message never spans lines.
    let message = message.replace(['\n', '\r'], " ");
    format!("error {kind} {message}")
}

/// Milliseconds, rounded down, as the protocol writes times.
pub fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// `turn SIDE L1=MS L2=MS [L3=MS] left=N`.
pub fn turn_line(side: &str, clocks: &[(&str, Duration)], left: u32) -> String {
    let mut line = format!("turn {side}");
    for (letter, t) in clocks {
        line.push_str(&format!(" {letter}={}", ms(*t)));
    }
    line.push_str(&format!(" left={left}"));
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse() {
        assert_eq!(
            parse_request("hello 1 bot-7"),
            Ok(Request::Hello {
                version: 1,
                name: "bot-7".to_string()
            })
        );
        assert_eq!(
            parse_request("  move MOVE -3 1 -2 0 \r"),
            Ok(Request::Move("MOVE -3 1 -2 0".to_string()))
        );
        assert_eq!(parse_request(""), Ok(Request::Empty));
        assert_eq!(parse_request("moves"), Ok(Request::Moves));
        assert_eq!(parse_request("quit"), Ok(Request::Quit));
        assert_eq!(parse_request("frob x").unwrap_err().kind, "unknown");
        assert_eq!(parse_request("move").unwrap_err().kind, "syntax");
        assert_eq!(parse_request("ping now").unwrap_err().kind, "syntax");
        assert_eq!(parse_request("hello one x").unwrap_err().kind, "syntax");
        assert_eq!(parse_request("hello 1").unwrap_err().kind, "syntax");
        assert_eq!(parse_request("hello 1 a b").unwrap_err().kind, "syntax");
        assert_eq!(parse_request("hello 1 a=b").unwrap_err().kind, "syntax");
        assert!(!valid_name(&"x".repeat(MAX_NAME + 1)));
    }

    #[test]
    fn lines_are_written_as_documented() {
        let clocks = [
            ("b", Duration::from_millis(1500)),
            ("w", Duration::from_secs(2)),
        ];
        assert_eq!(
            turn_line("w", &clocks, 149),
            "turn w b=1500 w=2000 left=149"
        );
        assert_eq!(error_line("illegal", "a\nb"), "error illegal a b");
        assert_eq!(hello_line("throne"), "hello arena-server 1 throne");
        assert_eq!(shown("a\rb\tc", 80), "a?b?c");
        assert_eq!(shown("abcdef", 3), "abc");
    }

    fn read_all(bytes: &[u8]) -> Vec<Input> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        rt.block_on(async {
            let mut r = LineReader::new(bytes);
            let mut out = Vec::new();
            loop {
                let i = r.next().await.expect("reading a slice cannot fail");
                let end = i == Input::Eof;
                out.push(i);
                if end {
                    return out;
                }
            }
        })
    }

    #[test]
    fn line_reader_caps_lines() {
        let mut input = b"ping\r\nmoves\n".to_vec();
        input.extend(std::iter::repeat(b'x').take(3 * MAX_LINE));
        input.extend_from_slice(b"\n");
        input.extend(std::iter::repeat(b'y').take(MAX_LINE + 1));
        input.extend_from_slice(b"\n");
        input.extend(std::iter::repeat(b'z').take(MAX_LINE));
        input.extend_from_slice(b"\n\xff\xfe\nquit\nunfinished");
        let got = read_all(&input);
        assert_eq!(
            got,
            vec![
                Input::Line("ping".into()),
                Input::Line("moves".into()),
                Input::TooLong,
                Input::TooLong,
                Input::Line("z".repeat(MAX_LINE)),
                Input::NotUtf8,
                Input::Line("quit".into()),
                Input::Eof,
            ]
        );
    }
}
