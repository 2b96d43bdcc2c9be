//! The match server's limits on what a client controls, and its seating of agents that have
//! left: each refusal is a clear `error` line (docs/server-protocol.md, "Limits"),
//! a dead connection is not seated, and a game that never started is not a result.

mod common;

use std::thread;
use std::time::Duration;

use common::{check, counts, read_record, serve_on, standings, temp_file, Peer, Rng};

/// Plays random legal moves until the game is over; returns the `over` line (`None` if the
/// connection closed first).
fn play_random(p: &mut Peer, seed: u64) -> Option<String> {
    let mut rng = Rng(seed | 1);
    let mut side = String::new();
    loop {
        let l = p.try_line()?;
        let w: Vec<&str> = l.split(' ').collect();
        match w[0] {
            "game" => side = w[2].to_string(),
            "turn" if w[1] == side => {
                p.send("moves");
                let legal = p.until("legal ");
                let moves: Vec<&str> = legal["legal ".len()..].split(';').collect();
                p.send(&format!("move {}", moves[rng.below(moves.len())]));
            }
            "over" => return Some(l),
            _ => {}
        }
    }
}

#[test]
fn connections_per_address_are_limited() {
    let record = temp_file("per-address");
    let server = serve_on("jumpy3", &record, &["--max-per-address", "3"]);
    let mut kept = Vec::new();
    for _ in 0..3 {
        let mut p = Peer::connect(&server.addr);
        assert!(p.line().starts_with("hello arena-server"));
        kept.push(p);
    }
    let mut fourth = Peer::connect(&server.addr);
    assert_eq!(
        fourth.rest(),
        [
            "error limit 3 connections from 127.0.0.1 already (at most 3)",
            "bye full"
        ]
    );
    // Another address is not held back by this one's connections.
    let other = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(async {
            let s = tokio::net::TcpSocket::new_v4().expect("a socket");
            s.bind("127.0.0.2:0".parse().unwrap())
                .expect("bind 127.0.0.2");
            let s = s
                .connect(server.addr.parse().unwrap())
                .await
                .expect("connect from 127.0.0.2");
            s.into_std().expect("a std socket")
        });
    other.set_nonblocking(false).expect("blocking");
    let mut other = Peer::over(other);
    assert!(other.line().starts_with("hello arena-server"));
    // One of the first three leaves: room again.
    drop(kept.pop());
    let mut again = None;
    for _ in 0..100 {
        let mut p = Peer::connect(&server.addr);
        if p.line().starts_with("hello arena-server") {
            again = Some(p);
            break;
        }
        // The closed session ends asynchronously.
        thread::sleep(Duration::from_millis(20));
    }
    assert!(again.is_some(), "a connection let in once another left");
    let _ = std::fs::remove_file(&record);
}

#[test]
fn idle_agents_outside_a_game_are_closed_unless_they_ping() {
    // Chexers needs three: these two wait outside a game.
    let record = temp_file("idle");
    let server = serve_on("chexers", &record, &["--idle", "1s"]);
    let (mut quiet, _) = Peer::join(&server.addr, "quiet");
    let (mut pinger, _) = Peer::join(&server.addr, "pinger");
    let keep = thread::spawn(move || {
        for _ in 0..8 {
            thread::sleep(Duration::from_millis(300));
            assert!(pinger.send("ping"));
            assert_eq!(pinger.until("pong"), "pong");
        }
        pinger
    });
    assert_eq!(
        quiet.rest(),
        ["error limit idle for 1 s outside a game", "bye idle"]
    );
    let mut pinger = keep.join().expect("the pinger stays");
    assert!(pinger.send("ping"));
    assert_eq!(pinger.line(), "pong");
    let _ = std::fs::remove_file(&record);
}

#[test]
fn a_seated_agent_may_wait_silently_for_its_turn() {
    let record = temp_file("idle-in-game");
    let server = serve_on("jumpy3", &record, &["--idle", "1s", "--time", "30s"]);
    let (mut white, _) = Peer::join(&server.addr, "thinker");
    let (mut black, _) = Peer::join(&server.addr, "waiter");
    white.until("turn w ");
    black.until("turn w ");
    // White thinks longer than --idle; Black says nothing meanwhile: neither is idle.
    thread::sleep(Duration::from_millis(1600));
    white.send("move 4");
    assert_eq!(black.line(), "moved w 4");
    assert!(black.line().starts_with("turn b "));
    black.send("move 13");
    assert_eq!(white.until("moved "), "moved w 4");
    assert_eq!(white.until("moved "), "moved b 13");
    let _ = std::fs::remove_file(&record);
}

#[test]
fn refused_lines_in_a_row_end_the_connection() {
    let record = temp_file("refused");
    let server = serve_on("jumpy3", &record, &[]);
    let mut p = Peer::connect(&server.addr);
    p.line();
    // An accepted line (ping) resets the count.
    for _ in 0..50 {
        p.send("frobnicate");
    }
    p.send("ping");
    for _ in 0..63 {
        p.raw(b"\xff\n");
    }
    for _ in 0..50 {
        assert_eq!(p.line(), "error unknown unknown command frobnicate");
    }
    assert_eq!(p.line(), "pong");
    for _ in 0..63 {
        assert_eq!(p.line(), "error syntax line is not UTF-8");
    }
    // The 64th refused line in a row.
    p.send("nonsense");
    assert_eq!(
        p.rest(),
        [
            "error unknown unknown command nonsense",
            "error limit 64 refused lines in a row",
            "bye errors"
        ]
    );
    let _ = std::fs::remove_file(&record);
}

#[test]
fn at_most_max_games_at_once() {
    let record = temp_file("max-games");
    let server = serve_on(
        "jumpy3",
        &record,
        &["--max-games", "1", "--games", "2", "--moves", "20"],
    );
    let players: Vec<_> = (0..4)
        .map(|i| {
            let addr = server.addr.clone();
            thread::spawn(move || {
                let (mut p, _) = Peer::join(&addr, &format!("m{i}"));
                let over = play_random(&mut p, 30 + i);
                p.send("quit");
                over
            })
        })
        .collect();
    for t in players {
        assert!(t.join().expect("a player").is_some());
    }
    let (status, out) = server.finish();
    assert!(status.success());
    let one_over = out
        .iter()
        .position(|l| l.starts_with("game 1 over"))
        .expect("game 1 over");
    let two_begins = out
        .iter()
        .position(|l| l.starts_with("game 2 begins"))
        .expect("game 2 begins");
    assert!(one_over < two_begins, "one game at a time: {out:?}");
    let _ = std::fs::remove_file(&record);
}

#[test]
fn leaving_before_the_first_move_voids_the_game_and_the_other_plays_on() {
    let record = temp_file("void");
    let server = serve_on("jumpy3", &record, &["--games", "1", "--moves", "20"]);
    let (mut first, _) = Peer::join(&server.addr, "leaver");
    let (mut second, _) = Peer::join(&server.addr, "stayer");
    // The leaver sits first (White, to move) and leaves before moving.
    first.until("turn w ");
    drop(first);
    assert_eq!(second.until("over "), "over disconnect void");
    // Not a result, and not one of the --games 1: the stayer is seated again.
    let (mut third, _) = Peer::join(&server.addr, "newcomer");
    let t = thread::spawn(move || play_random(&mut third, 5));
    let over = play_random(&mut second, 6).expect("a game");
    assert!(!over.contains("void"), "{over}");
    assert_eq!(t.join().expect("the newcomer"), Some(over));
    let (status, out) = server.finish();
    assert!(status.success());
    let (counted, uncounted, rows) = standings(&out);
    assert_eq!((counted, uncounted), (1, 1), "{out:?}");
    assert!(
        rows.iter().all(|r| r.0 != "leaver"),
        "the leaver has no result: {rows:?}"
    );
    let (text, file) = read_record(&record);
    let games = &file.runs[0].games;
    assert_eq!(games.len(), 2, "{text}");
    let end = games[0].end.as_ref().expect("an end");
    assert_eq!(
        (end.reason.as_str(), end.result.as_str(), end.plies),
        ("disconnect", "void", 0)
    );
    for g in games {
        check(g).unwrap_or_else(|e| panic!("{e}"));
    }
    let _ = std::fs::remove_file(&record);
}

#[test]
fn agents_that_left_are_not_seated_and_never_score() {
    // The storm: agents that say hello and reset at once, among two that play.
    let record = temp_file("storm");
    let server = serve_on("jumpy3", &record, &["--games", "1", "--moves", "20"]);
    let storm: Vec<_> = (0..4)
        .map(|k| {
            let addr = server.addr.clone();
            thread::spawn(move || {
                for i in 0..50 {
                    let (p, _) = Peer::join(&addr, &format!("ghost{k}x{i}"));
                    drop(p);
                }
            })
        })
        .collect();
    for t in storm {
        t.join().expect("the storm");
    }
    let players: Vec<_> = (0..2)
        .map(|i| {
            let addr = server.addr.clone();
            thread::spawn(move || {
                let (mut p, _) = Peer::join(&addr, &format!("real{i}"));
                loop {
                    let over = play_random(&mut p, 40 + i).expect("a game, not a closed door");
                    if !over.ends_with(" void") {
                        return over;
                    }
                }
            })
        })
        .collect();
    let overs: Vec<String> = players
        .into_iter()
        .map(|t| t.join().expect("a player"))
        .collect();
    assert_eq!(overs[0], overs[1], "the two real agents played each other");
    let (status, out) = server.finish();
    assert!(status.success());
    let (counted, _, rows) = standings(&out);
    assert_eq!(counted, 1, "{out:?}");
    assert!(rows.iter().all(|r| !r.0.starts_with("ghost")), "{rows:?}");
    let (text, file) = read_record(&record);
    for g in &file.runs[0].games {
        check(g).unwrap_or_else(|e| panic!("{e}"));
        let end = g.end.as_ref().expect("an end");
        if g.names.iter().any(|n| n.starts_with("ghost")) {
            // A ghost that got seated before its end of input arrived: a game that never
            // started, not a result.
            assert_eq!((end.result.as_str(), end.plies), ("void", 0), "{text}");
        } else {
            assert!(counts(&end.result), "{text}");
        }
    }
    let _ = std::fs::remove_file(&record);
}
