//! The engine protocol (`arena engine`) tried as a hostile user would: bytes that
//! are not UTF-8, `quit` during a search, `go infinite` on a finished game, `go` without a
//! position, `stop` without a search, huge times and table sizes. Each is an `info string
//! error` answer (and a `go` is always answered by one `bestmove`), never a crash or a hang.
//!
//! Sessions that depend on the order of events (a search running when a command arrives)
//! are driven line by line through live pipes; a generous deadline on every read turns a
//! hang into a failure instead of a stuck test.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Long enough for any answer on a loaded machine; only a hang reaches it.
const PATIENCE: Duration = Duration::from_secs(60);

fn with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena binary starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the arena binary ends");
    writer.join().expect("the writer ends");
    out
}

fn lines(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// An engine driven line by line.
struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Live {
    fn start(game: &str) -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["engine", game])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the arena binary starts");
        let stdin = child.stdin.take();
        let out = child.stdout.take().expect("a pipe");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Live {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads");
        stdin.flush().expect("the engine reads");
    }

    /// The next line; a failure after [`PATIENCE`] or at the end of output.
    fn next(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no answer in {PATIENCE:?}: a hang"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine ended its output"),
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l = self.next();
            let done = l.starts_with(prefix);
            seen.push(l);
            if done {
                return seen;
            }
        }
    }

    /// Everything left, after the engine has ended; its exit code.
    fn rest(mut self) -> (Vec<String>, Option<i32>) {
        drop(self.stdin.take());
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(l) => seen.push(l),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("the engine did not end: {seen:?}"),
            }
        }
        let status = self.child.wait().expect("the engine ends");
        (seen, status.code())
    }
}

#[test]
fn a_line_that_is_not_utf8_is_an_error_not_the_end() {
    let o = with_input(&["engine", "jumpy3"], b"\xff\xfe\nisready\n");
    assert!(o.status.success(), "{o:?}");
    assert_eq!(
        lines(&o),
        ["info string error: line is not UTF-8: ignored", "readyok"]
    );
    // Mid-search: the search goes on, and `stop` gets its bestmove.
    let o = with_input(
        &["engine", "jumpy3"],
        b"position startpos\ngo infinite\n\x80abc\xc3\nisready\nstop\n",
    );
    assert!(o.status.success(), "{o:?}");
    let out = lines(&o);
    assert!(out.contains(&"info string error: line is not UTF-8: ignored".to_string()));
    assert!(out.contains(&"readyok".to_string()), "{out:?}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove ")).count(), 1);
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}

#[test]
fn quit_during_a_search_prints_no_bestmove() {
    for go in ["go infinite", "go depth 60"] {
        let mut e = Live::start("jumpy3");
        e.send(format!("position startpos\n{go}\n").as_bytes());
        // The search is running: it has finished an iteration.
        e.until("info depth 2 ");
        e.send(b"quit\n");
        let (rest, code) = e.rest();
        assert_eq!(code, Some(0), "{go}");
        assert!(
            rest.iter().all(|l| !l.starts_with("bestmove")),
            "{go}: {rest:?}"
        );
    }
}

#[test]
fn go_infinite_on_a_finished_game_answers_only_after_stop() {
    let mut e = Live::start("jumpy3");
    // White's king steps off: the game is over.
    e.send(b"position fen B..............W w moves 16\ngo infinite\nisready\n");
    // `readyok` comes first: no bestmove before `stop`.
    assert_eq!(e.next(), "readyok");
    e.send(b"d\n");
    assert_eq!(e.next(), "info string position B............... b");
    assert_eq!(e.next(), "info string result: winner w");
    e.send(b"stop\n");
    assert_eq!(e.next(), "bestmove none");
    // A finite go on it answers at once.
    e.send(b"go depth 4\n");
    assert_eq!(e.next(), "bestmove none");
    // And quit before stop: nothing.
    e.send(b"go infinite\nquit\n");
    let (rest, code) = e.rest();
    assert_eq!((rest, code), (vec![], Some(0)));
}

#[test]
fn go_without_position_and_stop_without_search_are_errors() {
    let o = with_input(
        &["engine", "throne"],
        b"go depth 2\nstop\nposition startpos\nnewgame\ngo\nposition startpos\ngo depth 1\n",
    );
    assert!(o.status.success(), "{o:?}");
    let out = lines(&o);
    assert!(
        out[0].starts_with("info string error: go: no position yet"),
        "{out:?}"
    );
    assert_eq!(out[1], "bestmove none");
    assert_eq!(out[2], "info string error: stop: no search is running");
    // `newgame` forgets the position too.
    assert!(out[3].starts_with("info string error: go: no position yet"));
    assert_eq!(out[4], "bestmove none");
    assert!(out[5].starts_with("info depth 1 "), "{out:?}");
    assert!(out[6].starts_with("bestmove ") && out[6] != "bestmove none");
    assert_eq!(out.len(), 7, "{out:?}");
}

#[test]
fn huge_times_are_refused_and_answered() {
    let o = with_input(
        &["engine", "jumpy3"],
        b"position startpos\ngo movetime 99999999999999999999999\ngo movetime 18446744073709551615\ngo wtime 9999999999999 btime 1\ngo depth 2\n",
    );
    assert!(o.status.success(), "{o:?}");
    let out = lines(&o);
    assert!(out[0].contains("not a number"), "{out:?}");
    assert_eq!(out[1], "bestmove none");
    assert!(out[2].contains("at most 2147483647 ms"), "{out:?}");
    assert_eq!(out[3], "bestmove none");
    assert!(out[4].contains("wtime 9999999999999"), "{out:?}");
    assert_eq!(out[5], "bestmove none");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 4);
}

/// The `max` of the `Hash` option, as `uci` advertises it.
fn advertised_max_hash() -> u64 {
    let o = with_input(&["engine", "jumpy3"], b"uci\n");
    let out = lines(&o);
    let line = out
        .iter()
        .find(|l| l.starts_with("option name Hash "))
        .expect("a Hash option");
    line.rsplit(' ').next().unwrap().parse().expect("a number")
}

#[test]
fn hash_sizes_beyond_memory_are_refused_and_the_engine_goes_on() {
    let max = advertised_max_hash();
    // The machine's memory in MiB: more than a few MiB, less than an exbibyte.
    assert!((64..1 << 40).contains(&max), "{max}");
    let input = format!(
        "setoption name Hash value {}\nsetoption name Hash value 1000000000000\nsetoption name Hash value lots\nsetoption name Hash value 1\nposition startpos\ngo depth 3\n",
        max + 1
    );
    let o = with_input(&["engine", "jumpy3"], input.as_bytes());
    assert!(o.status.success(), "{o:?}");
    let out = lines(&o);
    assert_eq!(
        out[0],
        format!(
            "info string error: Hash {}: at most {max} MiB (this machine's memory)",
            max + 1
        )
    );
    assert!(
        out[1].starts_with("info string error: Hash 1000000000000: at most"),
        "{out:?}"
    );
    assert_eq!(out[2], "info string error: Hash lots: a number of MiB");
    assert!(out[3].starts_with("info depth 1 "), "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}

#[test]
fn table_sizes_beyond_memory_in_a_spec_are_refused_at_once() {
    // 1000000 MiB (about 1 TiB) is more than any machine this runs on.
    for args in [
        &[
            "analyse",
            "jumpy3",
            "start",
            "--depth",
            "3",
            "--engine",
            "engine,tt=1000000",
        ][..],
        &["engine", "jumpy3", "--engine", "engine,tt=1000000"][..],
        &[
            "analyse",
            "jumpy3",
            "start",
            "--depth",
            "3",
            "--engine",
            "engine,tt=99999999999999999999",
        ][..],
    ] {
        let o = with_input(args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("tt="), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
