//! A soak of the match server: 200 games at once on loopback between random
//! clients, one in five of them misbehaving (garbage, half lines, disconnects mid-game,
//! stalls until the clock runs out, illegal moves, floods without reading), beside
//! connections that never say hello and agents that leave as soon as they have said it.
//!
//! Checked: the server's memory stays bounded (its peak resident size), every game ends with
//! a valid record (read back and replayed through the rules, move for move what its players
//! saw), no game counts for an agent that left before it began, and the standings add up
//! (the games counted, each agent's games and the points).
//!
//! Bounded in time: the stalling clients lose on a 10 s clock, so about 12 s on an idle
//! machine, a few tens on a loaded 2-core one. The figures are printed (`--nocapture` shows
//! them). `ARENA_SOAK_ROUNDS=N` makes each client play N games (the longer soak by hand:
//! N = 3 takes about 30 s, N = 5 about 50 s). CI runs one round.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use common::{check, counts, read_record, serve_on, standings, temp_file, Peer, Rng, Seen};

/// Games at once.
const GAMES: usize = 200;

/// The server's peak memory must stay below this (it is about 20 MiB).
const MEMORY_BOUND_KIB: u64 = 256 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Honest,
    /// Garbage lines (not UTF-8, too long, unknown) before hello and on every turn.
    Garbage,
    /// Every line in two writes with a pause between.
    HalfLines,
    /// Leaves mid-game, without a word, after a few moves of its own.
    Disconnects,
    /// An illegal move before every legal one.
    Illegal,
    /// Never moves: loses on time.
    Stalls,
    /// Floods requests and never reads: dropped.
    Floods,
}

fn kind(i: usize) -> Kind {
    match i % 20 {
        0 | 10 => Kind::Garbage,
        1 => Kind::HalfLines,
        2 | 12 => Kind::Disconnects,
        3 => Kind::Illegal,
        4 => Kind::Stalls,
        14 => Kind::Floods,
        _ => Kind::Honest,
    }
}

/// One client: plays `rounds` games as its kind, then quits; what it saw of each. Once
/// seated the first time it waits at `barrier` (all 400 are seated: 200 games at once).
fn client(addr: &str, i: usize, rounds: usize, barrier: &Barrier) -> Vec<Seen> {
    let k = kind(i);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1));
    let mut p = Peer::connect(addr);
    let hello = p.line();
    assert!(hello.starts_with("hello arena-server"), "{hello}");
    let mut errors = 0;
    if k == Kind::Garbage {
        p.raw(b"\x00\xff\xfe garbage\n");
        p.send(&"z".repeat(5000));
        p.send("launch missiles");
        for _ in 0..3 {
            assert!(p.line().starts_with("error "));
            errors += 1;
        }
    }
    p.send(&format!("hello 1 c{i}"));
    p.until("welcome ");
    let mut games = Vec::new();
    let mut seen = Seen::default();
    let mut my_moves = 0;
    let leave_after = 1 + rng.below(6);
    let mut first = true;
    // A `moves` request not answered yet.
    let mut asked = false;
    loop {
        let l = match p.read() {
            Ok(Some(l)) => l,
            // Dropped (a flooder) or closed: what we saw of the game so far.
            Ok(None) => {
                if seen.id != 0 {
                    games.push(seen);
                }
                return games;
            }
            // Several rounds: the last agents waiting may have nobody left to play.
            Err(e) if rounds > 1 && seen.id == 0 => {
                assert!(
                    matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ),
                    "{e}"
                );
                p.send("quit");
                return games;
            }
            Err(e) => panic!("c{i}: {e}"),
        };
        let w: Vec<&str> = l.split(' ').collect();
        match w[0] {
            "game" => {
                seen = Seen {
                    id: w[1].parse().expect("a game number"),
                    side: w[2].to_string(),
                    errors,
                    ..Seen::default()
                };
                my_moves = 0;
                asked = false;
                if std::mem::take(&mut first) {
                    barrier.wait();
                }
            }
            "moved" => seen.moves.push(w[2..].join(" ")),
            "turn" if w[1] == seen.side => {
                if k == Kind::Stalls {
                    continue;
                }
                // Misbehaving after a first move of its own: the game has begun.
                if k == Kind::Disconnects && my_moves >= leave_after {
                    games.push(seen);
                    return games;
                }
                if k == Kind::Floods && my_moves >= 1 {
                    // Requests without reading a line more: the answers pile up until
                    // the server drops us.
                    let burst = "moves\n".repeat(2000);
                    for _ in 0..50 {
                        if !p.raw(burst.as_bytes()) {
                            break;
                        }
                    }
                    games.push(seen);
                    return games;
                }
                if k == Kind::Garbage {
                    p.send("dance");
                }
                if k == Kind::Illegal {
                    p.send("move not-a-move");
                }
                // The answer comes as a `legal` line below; until then the game may end
                // (this side's clock, an opponent gone): `over` must still be seen.
                p.send("moves");
                asked = true;
            }
            "legal" if std::mem::take(&mut asked) => {
                let list = l.strip_prefix("legal ").unwrap_or_default();
                let moves: Vec<&str> = list.split(';').collect();
                let line = format!("move {}\n", moves[rng.below(moves.len())]);
                if k == Kind::HalfLines {
                    let (a, b) = line.split_at(line.len() / 2);
                    p.raw(a.as_bytes());
                    thread::sleep(Duration::from_millis(3));
                    p.raw(b.as_bytes());
                } else {
                    p.raw(line.as_bytes());
                }
                my_moves += 1;
            }
            "error" => seen.errors += 1,
            "over" => {
                asked = false;
                seen.over = Some(l.clone());
                let void = l.ends_with(" void");
                games.push(std::mem::take(&mut seen));
                if rounds > 1 {
                    // Waiting for the next game: not for ever (see above).
                    let _ =
                        p.r.get_ref()
                            .set_read_timeout(Some(Duration::from_secs(15)));
                }
                let played = games
                    .iter()
                    .filter(|g| g.over.as_deref().is_some_and(|o| !o.ends_with(" void")))
                    .count();
                if !void && played >= rounds {
                    p.send("quit");
                    p.rest();
                    return games;
                }
            }
            _ => {}
        }
    }
}

#[test]
fn two_hundred_games_at_once_with_misbehaving_clients() {
    let rounds: usize = std::env::var("ARENA_SOAK_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let began = Instant::now();
    let record = temp_file("soak");
    let server = serve_on(
        "jumpy3",
        &record,
        &[
            "--time",
            "10s",
            "--moves",
            "40",
            "--max-per-address",
            "600",
            "--max-clients",
            "600",
        ],
    );
    // Agents that leave as soon as they have said hello.
    let leavers: Vec<_> = (0..40)
        .map(|i| {
            let addr = server.addr.clone();
            thread::spawn(move || {
                let (p, _) = Peer::join(&addr, &format!("gone{i}"));
                drop(p);
            })
        })
        .collect();
    for t in leavers {
        t.join().expect("a leaver");
    }
    // Their ends of input reach the server before anybody else arrives.
    thread::sleep(Duration::from_millis(200));
    // Connections that never say hello: garbage until the server closes them.
    let ghosts: Vec<_> = (0..20)
        .map(|_| {
            let addr = server.addr.clone();
            thread::spawn(move || {
                let mut p = Peer::connect(&addr);
                p.line();
                let mut answered = 0;
                for _ in 0..100 {
                    if !p.send("hello x") {
                        break;
                    }
                }
                while let Some(l) = p.try_line() {
                    if l.starts_with("error ") {
                        answered += 1;
                    }
                }
                answered
            })
        })
        .collect();
    let barrier = Arc::new(Barrier::new(2 * GAMES));
    let clients: Vec<_> = (0..2 * GAMES)
        .map(|i| {
            let addr = server.addr.clone();
            let barrier = barrier.clone();
            thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || client(&addr, i, rounds, &barrier))
                .expect("a thread")
        })
        .collect();
    let ghost_errors: usize = ghosts.into_iter().map(|t| t.join().expect("a ghost")).sum();
    let seen: Vec<Vec<Seen>> = clients
        .into_iter()
        .map(|t| t.join().expect("a client"))
        .collect();
    let peak_kib = server.peak_memory_kib();
    server.interrupt();
    let (status, out) = server.finish();
    assert!(status.success());
    let elapsed = began.elapsed();

    let failed: Vec<&String> = out.iter().filter(|l| l.contains("failed")).collect();
    assert!(failed.is_empty(), "{failed:?}");
    // Every game of the record reads, replays and ends.
    let (text, file) = read_record(&record);
    assert!(!file.torn);
    assert_eq!(file.runs.len(), 1);
    let games = &file.runs[0].games;
    let mut by_reason: BTreeMap<String, usize> = BTreeMap::new();
    for g in games {
        check(g).unwrap_or_else(|e| panic!("{e}"));
        let end = g.end.as_ref().expect("every game ended");
        *by_reason
            .entry(format!(
                "{} {}",
                end.reason,
                end.result.split(' ').next().unwrap_or("")
            ))
            .or_default() += 1;
        // An agent that left at once never has a result.
        if g.names.iter().any(|n| n.starts_with("gone")) {
            assert_eq!(
                (end.result.as_str(), end.plies),
                ("void", 0),
                "game {}",
                g.id
            );
        }
        assert_ne!(
            end.reason, "stopped",
            "every game ended before the interrupt"
        );
        // Seating in arrival order never seats an agent that has left (no `absent`).
        assert_ne!(end.reason, "absent", "game {}", g.id);
    }
    // What each client saw is what the record holds.
    let index: HashMap<u64, usize> = games.iter().enumerate().map(|(i, g)| (g.id, i)).collect();
    let mut errors_answered = 0;
    let mut seen_games = 0;
    for s in seen.iter().flatten() {
        errors_answered += s.errors;
        let g = &games[*index
            .get(&s.id)
            .unwrap_or_else(|| panic!("game {} recorded", s.id))];
        let recorded: Vec<&str> = g.moves.iter().map(|m| m.2.as_str()).collect();
        if let Some(over) = &s.over {
            seen_games += 1;
            assert_eq!(s.moves, recorded, "game {}", g.id);
            let end = g.end.as_ref().expect("an end");
            assert_eq!(over, &format!("over {} {}", end.reason, end.result));
        } else {
            assert!(recorded.starts_with(&s.moves.iter().map(String::as_str).collect::<Vec<_>>()));
        }
    }
    // The standings add up: the games counted, each agent's games, the points.
    let (counted, uncounted, rows) = standings(&out);
    let counted_in_record = games
        .iter()
        .filter(|g| counts(&g.end.as_ref().expect("an end").result))
        .count() as u64;
    assert_eq!(counted, counted_in_record, "{out:?}");
    assert_eq!(uncounted, games.len() as u64 - counted_in_record);
    let seats: u64 = rows.iter().map(|r| r.1).sum();
    assert_eq!(seats, 2 * counted, "every counted game has two seats");
    let half_points: u64 = rows.iter().map(|r| r.2).sum();
    assert_eq!(half_points, 2 * counted, "each game gives one point");
    assert!(rows.iter().all(|r| !r.0.starts_with("gone")), "{rows:?}");
    let mut per_agent: HashMap<&str, u64> = HashMap::new();
    for g in games
        .iter()
        .filter(|g| counts(&g.end.as_ref().unwrap().result))
    {
        for n in &g.names {
            *per_agent.entry(n).or_default() += 1;
        }
    }
    for (name, games, _) in &rows {
        assert_eq!(per_agent.get(name.as_str()), Some(games), "{name}");
    }
    assert!(
        counted >= GAMES as u64 * rounds as u64 * 8 / 10,
        "{counted} games counted"
    );

    let peak = peak_kib.expect("/proc/PID/status");
    eprintln!(
        "soak: {} games recorded ({counted} counted, {uncounted} not), {seen_games} seen to their end by clients; ends {by_reason:?}; server peak memory {:.1} MiB; {} error lines answered to misbehaving clients, {ghost_errors} to connections without hello; {:.1} s",
        games.len(),
        peak as f64 / 1024.0,
        errors_answered,
        elapsed.as_secs_f64()
    );
    assert!(peak < MEMORY_BOUND_KIB, "peak memory {peak} KiB");
    assert!(ghost_errors >= 20, "the ghosts were answered");
    let _ = text;
    let _ = std::fs::remove_file(&record);
}
