//! Crash safety of the match server: the server killed with SIGKILL in the middle
//! of several games, then restarted on the same record file. Every finished game must be in
//! the record, whole (every move the players saw, its end as they saw it) and readable
//! (replayed through the rules); every unfinished one must be marked as such, not lost
//! silently; a line cut short by a crash of the machine is removed. And `arena connect`, when
//! its server dies, is a failure (exit code 1, a message), not a quiet `0 games`.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use common::{check, read_record, serve_on, temp_file, Peer, Rng, Seen};

/// Plays random legal moves (asked of the server), sleeping `delay` before each; returns
/// what it saw of its one game. Once seated, it waits at `barrier` for the others.
fn player(addr: String, name: String, seed: u64, delay: Duration, barrier: &Barrier) -> Seen {
    let (mut p, _) = Peer::join(&addr, &name);
    let mut rng = Rng(seed | 1);
    let mut seen = Seen::default();
    loop {
        let Some(l) = p.try_line() else {
            return seen;
        };
        let w: Vec<&str> = l.split(' ').collect();
        match w[0] {
            "game" => {
                seen.id = w[1].parse().expect("a game number");
                seen.side = w[2].to_string();
                barrier.wait();
            }
            "moved" => seen.moves.push(w[2..].join(" ")),
            "turn" if w[1] == seen.side => {
                thread::sleep(delay);
                if !p.send("moves") {
                    return seen;
                }
                let Some(legal) = (loop {
                    match p.try_line() {
                        Some(l) if l.starts_with("legal ") => break Some(l),
                        Some(l) if l.starts_with("moved ") => seen
                            .moves
                            .push(l.splitn(3, ' ').nth(2).unwrap_or("").into()),
                        Some(_) => {}
                        None => break None,
                    }
                }) else {
                    return seen;
                };
                let moves: Vec<&str> = legal["legal ".len()..].split(';').collect();
                if !p.send(&format!("move {}", moves[rng.below(moves.len())])) {
                    return seen;
                }
            }
            "over" => {
                seen.over = Some(l.clone());
                p.send("quit");
                return seen;
            }
            "error" => seen.errors += 1,
            _ => {}
        }
    }
}

#[test]
fn sigkill_mid_games_then_restart_loses_nothing() {
    let record = temp_file("sigkill");
    let server = serve_on("jumpy3", &record, &["--time", "120s", "--moves", "40"]);
    // Three fast games (no delay) and three slow ones (a move every 40 ms), all at once
    // (nobody moves before all six have begun): when the slow ones have played a few moves,
    // the fast ones are over.
    let barrier = Arc::new(Barrier::new(12));
    let mut players = Vec::new();
    for pair in 0..6u64 {
        let delay = if pair < 3 {
            Duration::ZERO
        } else {
            Duration::from_millis(40)
        };
        for seat in 0..2 {
            let (addr, name) = (server.addr.clone(), format!("p{pair}s{seat}"));
            let barrier = barrier.clone();
            players.push(thread::spawn(move || {
                player(addr, name, 100 * pair + seat, delay, &barrier)
            }));
        }
        // The two of a pair are the only ones waiting: they play each other.
        server.wait_for(&format!("game {} begins", pair + 1));
    }
    // Wait until three games are over and every game has begun.
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(&record).unwrap_or_default();
        let ends = text.lines().filter(|l| l.contains(" end ")).count();
        let moving = (1..=6).all(|id| {
            text.lines()
                .filter(|l| l.starts_with(&format!("{id} move ")))
                .count()
                >= 4
        });
        if ends >= 3 && moving {
            break;
        }
        assert!(
            Instant::now() < until,
            "the games did not get going: {text}"
        );
        thread::sleep(Duration::from_millis(10));
    }
    // SIGKILL: no chance to write anything more.
    let mut server = server;
    server.child.kill().expect("SIGKILL");
    server.child.wait().expect("the server ends");
    let seen: Vec<Seen> = players
        .into_iter()
        .map(|t| t.join().expect("a player"))
        .collect();

    // The record as the crash left it: whole lines only, and readable.
    let (text, file) = read_record(&record);
    assert!(text.ends_with('\n'), "only whole lines");
    assert!(!file.torn);
    assert_eq!(file.runs.len(), 1);
    // Games 1 to 6; players of a finished game are seated again before their `quit`
    // arrives, which makes a void game or two more (a quit before the first move).
    let (before, rematches): (Vec<_>, Vec<_>) =
        file.runs[0].games.iter().cloned().partition(|g| g.id <= 6);
    assert_eq!(before.len(), 6, "{text}");
    for g in &rematches {
        let end = g.end.as_ref().map(|e| (e.result.as_str(), e.plies));
        assert!(matches!(end, None | Some(("void", 0))), "{text}");
    }
    let open_rematches = rematches.iter().filter(|g| g.end.is_none()).count();
    let finished: Vec<u64> = before
        .iter()
        .filter(|g| g.end.is_some())
        .map(|g| g.id)
        .collect();
    let unfinished: Vec<u64> = before
        .iter()
        .filter(|g| g.end.is_none())
        .map(|g| g.id)
        .collect();
    assert!(finished.len() >= 3, "{finished:?}");
    assert!(!unfinished.is_empty(), "some games were cut off: {text}");

    // A crash of the machine could leave half a line: add one, as if.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&record)
        .expect("the record")
        .write_all(b"6 move w 12 1")
        .expect("a torn line");

    // Restart on the same file: it marks what the crash cut off, then serves again.
    let server = serve_on("jumpy3", &record, &["--time", "120s"]);
    let lines = server.wait_for("arena serve jumpy3");
    let note = lines
        .iter()
        .find(|l| l.contains("stopped without ending"))
        .unwrap_or_else(|| panic!("the server says what it repaired: {lines:?}"));
    assert!(
        note.contains(&format!("{} game(s)", unfinished.len() + open_rematches)),
        "{note}"
    );
    assert!(
        note.contains("a last line cut short (13 bytes) was removed"),
        "{note}"
    );
    let mut server = server;
    server.child.kill().expect("SIGKILL");
    server.child.wait().expect("the server ends");

    let (text, file) = read_record(&record);
    assert!(!file.torn, "the torn line is gone");
    assert_eq!(file.runs.len(), 2, "a second run after the first");
    let after = &file.runs[0].games;
    assert_eq!(after.len(), 6 + rematches.len());
    for g in after {
        // Every game whole and readable: replayed through the rules, its end consistent.
        check(g).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let end = g.end.as_ref().expect("every game has an end now");
        let cut_off =
            unfinished.contains(&g.id) || rematches.iter().any(|r| r.id == g.id && r.end.is_none());
        if cut_off {
            assert_eq!(
                (end.reason.as_str(), end.result.as_str()),
                ("crashed", "aborted")
            );
        } else {
            assert_ne!(end.reason, "crashed");
        }
        // What the players saw is what the record holds, move for move.
        for s in seen.iter().filter(|s| s.id == g.id) {
            let recorded: Vec<&str> = g.moves.iter().map(|m| m.2.as_str()).collect();
            if let Some(over) = &s.over {
                assert_eq!(s.moves, recorded, "game {}", g.id);
                assert_eq!(over, &format!("over {} {}", end.reason, end.result));
            } else {
                // Cut off: the record has every move the player saw (and perhaps one more
                // that the server recorded before telling it).
                assert!(recorded.len() >= s.moves.len() && recorded.len() <= s.moves.len() + 1);
                assert_eq!(recorded[..s.moves.len()], s.moves[..], "game {}", g.id);
            }
        }
    }
    // The marks go before the new run, and are whole lines of the format.
    let second_run = text
        .lines()
        .position(|l| l.starts_with("server ") && l.contains("time=120000 moves=150"));
    let marks: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(" end crashed aborted "))
        .collect();
    assert_eq!(marks.len(), unfinished.len() + open_rematches);
    let all: Vec<&str> = text.lines().collect();
    let last_mark = all
        .iter()
        .rposition(|l| l.contains(" end crashed aborted "))
        .expect("marks");
    assert!(second_run.is_some_and(|s| s > last_mark), "{text}");
    let _ = std::fs::remove_file(&record);
}

#[test]
fn a_record_of_something_else_is_refused() {
    let other = temp_file("not-a-record");
    std::fs::write(&other, "my notes\n").expect("a file");
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["serve", "jumpy3", "--addr", "127.0.0.1:0", "--record"])
        .arg(&other)
        .stdout(Stdio::null())
        .output()
        .expect("arena serve runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a record of `arena serve`"), "{err}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "my notes\n");
    std::fs::write(&other, "server 1 throne 0 time=1 moves=1\n").expect("a file");
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["serve", "jumpy3", "--addr", "127.0.0.1:0", "--record"])
        .arg(&other)
        .stdout(Stdio::null())
        .output()
        .expect("arena serve runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("it records throne"));
    let _ = std::fs::remove_file(&other);
}

#[test]
fn arena_connect_fails_when_its_server_dies() {
    let record = temp_file("connect-dies");
    let mut server = serve_on("jumpy3", &record, &["--time", "120s", "--moves", "150"]);
    let connect = |name: &str| {
        Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["connect", "jumpy3", &server.addr, "--name", name])
            .args(["--engine", "engine,time=30ms"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arena connect starts")
    };
    let a = connect("a");
    let b = connect("b");
    // Mid-game: game 1 has moves and no end.
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(&record).unwrap_or_default();
        if text.lines().filter(|l| l.starts_with("1 move ")).count() >= 2 {
            break;
        }
        assert!(Instant::now() < until, "no moves: {text}");
        thread::sleep(Duration::from_millis(5));
    }
    server.child.kill().expect("SIGKILL");
    server.child.wait().expect("the server ends");
    let text = std::fs::read_to_string(&record).expect("the record");
    let mid_game = !text.lines().any(|l| l.starts_with("1 end "));
    for (who, child) in [("a", a), ("b", b)] {
        let out = child.wait_with_output().expect("connect ends");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{who}: {err}");
        assert!(err.contains("lost the connection to"), "{who}: {err}");
        if mid_game {
            assert!(err.contains("during game 1 (after "), "{who}: {err}");
        }
    }
    let _ = std::fs::remove_file(&record);
}
