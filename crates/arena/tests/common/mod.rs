//! What the robustness tests of the match server share (`crash.rs`, `limits.rs`,
//! `soak.rs`): a server process on a free loopback port, a raw protocol client with read
//! timeouts, a random player, and the record file read back through the server's own reader
//! (`net::server::reader`) and replayed through the rules.
//!
//! Deadlines on every read and on every server turn a hang into a failure.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use net::server::reader::{self, RecordFile, RecordedGame};
use plyforge::games::{ChaosClock, Chexers, Jumpy3, Throne};
use plyforge::GameAdapter;

/// Longest a client waits for a line.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// Longest a server may take to end once asked.
pub const SERVER_DEADLINE: Duration = Duration::from_secs(60);

/// A fresh temporary file name.
pub fn temp_file(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!(
        "arena-robust-test-{}-{tag}.txt",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&p);
    p
}

/// A running `arena serve`.
pub struct Server {
    pub child: Child,
    pub addr: String,
    pub lines: Receiver<String>,
    pub record: PathBuf,
    /// Lines printed before `listening` (none expected) and the `listening` line itself.
    pub first: Vec<String>,
}

/// Waits for `child` to exit by itself within [`SERVER_DEADLINE`] (killed and the test failed
/// otherwise); its status.
pub fn wait_exit(child: &mut Child) -> ExitStatus {
    let until = Instant::now() + SERVER_DEADLINE;
    loop {
        if let Some(s) = child.try_wait().expect("try_wait") {
            return s;
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("the server did not finish in time");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// A program that prints `listening ADDR` as its first line (`arena serve`, `arena web`),
/// started: the process, its address, that first line and its later stdout lines as they
/// come (read on a thread of their own, so that the program never blocks on a full pipe).
pub struct Listening {
    pub child: Child,
    pub addr: String,
    pub first: String,
    pub lines: Receiver<String>,
}

/// Starts `arena ARGS…` (stdin closed, stderr discarded) and waits for its address.
pub fn listen(args: &[&OsStr]) -> Listening {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("arena {args:?} starts: {e}"));
    let mut out = BufReader::new(child.stdout.take().expect("a pipe"));
    let mut first = String::new();
    out.read_line(&mut first).expect("the first line");
    let first = first.trim().to_string();
    let addr = first
        .strip_prefix("listening ")
        .unwrap_or_else(|| panic!("first line {first:?}"))
        .to_string();
    let (tx, lines) = channel();
    thread::spawn(move || {
        for line in out.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    Listening {
        child,
        addr,
        first,
        lines,
    }
}

/// Starts `arena serve GAME --addr 127.0.0.1:0 --record RECORD ARGS…`, as [`listen`].
pub fn listen_serve(game: &str, record: &Path, args: &[&str]) -> Listening {
    let head = ["serve", game, "--addr", "127.0.0.1:0", "--record"];
    let mut all: Vec<&OsStr> = head.iter().map(OsStr::new).collect();
    all.push(record.as_os_str());
    all.extend(args.iter().map(OsStr::new));
    listen(&all)
}

/// Starts `arena serve GAME --addr 127.0.0.1:0 --record RECORD ARGS…`.
pub fn serve_on(game: &str, record: &Path, args: &[&str]) -> Server {
    let l = listen_serve(game, record, args);
    Server {
        child: l.child,
        addr: l.addr,
        lines: l.lines,
        record: record.to_path_buf(),
        first: vec![l.first],
    }
}

impl Server {
    /// Waits for a stdout line that starts with `prefix`; the lines before it are returned
    /// too (last the one found).
    pub fn wait_for(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(READ_TIMEOUT)
                .unwrap_or_else(|_| panic!("no server line starting {prefix:?} after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Ctrl-C (SIGINT): the server stops its games and prints its standings.
    pub fn interrupt(&self) {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }

    /// Waits for the server to exit; its status and everything it printed (after what
    /// `wait_for` took).
    pub fn finish(mut self) -> (ExitStatus, Vec<String>) {
        let status = wait_exit(&mut self.child);
        let lines: Vec<String> = self.lines.iter().collect();
        (status, lines)
    }

    /// The server's peak resident memory so far, in KiB (Linux: `VmHWM`).
    pub fn peak_memory_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|n| n.parse().ok())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw protocol client.
pub struct Peer {
    pub r: BufReader<TcpStream>,
    pub w: TcpStream,
}

impl Peer {
    pub fn connect(addr: &str) -> Peer {
        let s = TcpStream::connect(addr).expect("connect");
        Peer::over(s)
    }

    pub fn over(s: TcpStream) -> Peer {
        s.set_read_timeout(Some(READ_TIMEOUT)).expect("timeout");
        let _ = s.set_nodelay(true);
        let w = s.try_clone().expect("clone");
        Peer {
            r: BufReader::new(s),
            w,
        }
    }

    /// Connects and says hello; the name the server gave.
    pub fn join(addr: &str, name: &str) -> (Peer, String) {
        let mut p = Peer::connect(addr);
        let hello = p.line();
        assert!(hello.starts_with("hello arena-server 1 "), "{hello}");
        p.send(&format!("hello 1 {name}"));
        let welcome = p.until("welcome ");
        let given = welcome["welcome ".len()..].to_string();
        (p, given)
    }

    /// Sends a line; false if the connection is gone.
    pub fn send(&mut self, line: &str) -> bool {
        self.w.write_all(format!("{line}\n").as_bytes()).is_ok()
    }

    /// Sends raw bytes; false if the connection is gone.
    pub fn raw(&mut self, bytes: &[u8]) -> bool {
        self.w.write_all(bytes).is_ok()
    }

    /// The next line, `None` when the server closed the connection.
    pub fn try_line(&mut self) -> Option<String> {
        let mut s = String::new();
        match self.r.read_line(&mut s) {
            Ok(0) => None,
            Ok(_) => Some(s.trim_end_matches(['\n', '\r']).to_string()),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
                ) =>
            {
                None
            }
            Err(e) => panic!("reading: {e}"),
        }
    }

    /// The next line, `Ok(None)` when the server closed the connection, or the read's
    /// error (a timeout among them).
    pub fn read(&mut self) -> std::io::Result<Option<String>> {
        let mut s = String::new();
        match self.r.read_line(&mut s) {
            Ok(0) => Ok(None),
            Ok(_) => Ok(Some(s.trim_end_matches(['\n', '\r']).to_string())),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    pub fn line(&mut self) -> String {
        self.try_line().expect("a line, not the end")
    }

    /// Reads up to the first line that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> String {
        loop {
            let l = self.line();
            if l.starts_with(prefix) {
                return l;
            }
        }
    }

    /// Reads until the server closes; returns the lines.
    pub fn rest(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(l) = self.try_line() {
            out.push(l);
        }
        out
    }
}

/// xorshift64*, for random choices that repeat.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// What a client saw of one game.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// The game number.
    pub id: u64,
    /// Our side's letter.
    pub side: String,
    /// Every `moved` line's move, in order.
    pub moves: Vec<String>,
    /// The `over` line, if the game ended while we were there.
    pub over: Option<String>,
    /// `error` lines the server sent us.
    pub errors: usize,
}

/// Reads the record file through the server's reader (panicking with the reason).
pub fn read_record(path: &Path) -> (String, RecordFile) {
    let text = std::fs::read_to_string(path).expect("the record file");
    let file = reader::read(&text).unwrap_or_else(|e| panic!("record {}: {e}", path.display()));
    (text, file)
}

/// Checks a recorded game through its game's rules (by the game's name).
pub fn check(g: &RecordedGame) -> Result<(), String> {
    match g.game.as_str() {
        "jumpy3" => reader::check_game::<Jumpy3>(g),
        "chexers" => reader::check_game::<Chexers>(g),
        "throne" => reader::check_game::<Throne>(g),
        "chaosclock" => reader::check_game::<ChaosClock>(g),
        other => Err(format!("unknown game {other}")),
    }
}

/// The letter of a side, for messages.
pub fn letters<A: GameAdapter>() -> Vec<&'static str> {
    (0..A::PLAYERS).map(A::player_letter).collect()
}

/// Whether a recorded result counts in the standings.
pub fn counts(result: &str) -> bool {
    !matches!(result, "void" | "aborted")
}

/// The standings table printed by the server: (games counted, not counted, rows of
/// (name, games, half points)).
pub fn standings(out: &[String]) -> (u64, u64, Vec<(String, u64, u64)>) {
    let head = out
        .iter()
        .position(|l| l.starts_with("standings "))
        .unwrap_or_else(|| panic!("no standings in {out:?}"));
    let h = &out[head];
    let counted: u64 = h
        .split(": ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{h}"));
    let uncounted: u64 = h
        .split(", ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let mut rows = Vec::new();
    for l in &out[head + 2..] {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() < 4 || w[0].parse::<u64>().is_err() {
            break;
        }
        let games: u64 = w[2].parse().expect("games");
        let points = w[3];
        let half = match points.split_once('.') {
            Some((whole, "5")) => whole.parse::<u64>().expect("points") * 2 + 1,
            _ => points.parse::<u64>().expect("points") * 2,
        };
        rows.push((w[1].to_string(), games, half));
    }
    (counted, uncounted, rows)
}
