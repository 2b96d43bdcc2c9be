//! What the tests of long runs share (`matches.rs`, `tune.rs`): the `arena` binary run as a
//! user runs it, its exit code and messages checked, fresh directories, and a run killed
//! once its file holds enough lines.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `arena ARGS` (no colours).
pub fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the arena binary runs")
}

/// Stdout and stderr together.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Starts `arena ARGS` (no colours) with its output piped, for
/// [`Child::wait_with_output`]: a worker beside others.
pub fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("a worker starts")
}

/// Runs `arena ARGS`, expecting success; its stdout.
pub fn ok(args: &[&str]) -> String {
    let o = arena(args);
    assert!(o.status.success(), "arena {args:?} failed: {}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `arena ARGS`, expecting exit code 2 and every word of `want` in the message.
pub fn bad(args: &[&str], want: &[&str]) {
    let o = arena(args);
    assert_eq!(o.status.code(), Some(2), "arena {args:?}: {}", text(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    for w in want {
        assert!(e.contains(w), "arena {args:?}: {w:?} not in {e:?}");
    }
}

/// A fresh directory for one test (`tag` names the test file and the test).
pub fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as an argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Starts `arena ARGS` writing `file`, and kills it once the file holds `count` lines that
/// contain `needle`.
pub fn kill_after(args: &[&str], file: &Path, needle: &str, count: usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the arena binary starts");
    let started = Instant::now();
    loop {
        let n = std::fs::read_to_string(file)
            .map(|t| t.lines().filter(|l| l.contains(needle)).count())
            .unwrap_or(0);
        if n >= count {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("arena {args:?} ended ({status}) before it was killed");
        }
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "no {count} lines in ten minutes"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}
