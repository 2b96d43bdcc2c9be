//! `arena serve` and `arena connect` over loopback: engines playing a full Throne game under a
//! short clock, the Python example client, refused moves with the clock running, stalls,
//! disconnects, bad lines, floods, slow readers, three seats, a round robin, Ctrl-C, and 50
//! games at once whose record file is replayed move by move through the game crates.
//!
//! Every server listens on 127.0.0.1 port 0 and prints the port it got on its first line.
//! Sockets have read timeouts and servers a deadline, so that a failure cannot hang the run.
//! Assertions on time are one-sided bounds that hold on any machine (a refused move leaves
//! the clock lower by at least the time the client waited before sending it).

use std::collections::BTreeMap;
use std::fmt::Display;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Barrier, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

mod common;

use plyforge::search::{DrawKind, Game, Outcome, Player, Record};
use plyforge::{chaosclock, chexers, jumpy3, throne};

/// Tests that think (engines) or load the machine run one at a time, so that a busy machine
/// does not eat the engines' clocks.
static HEAVY: Mutex<()> = Mutex::new(());

fn heavy() -> MutexGuard<'static, ()> {
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Longest a test client waits for a line.
const READ_TIMEOUT: Duration = Duration::from_secs(30);

fn temp_file(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!(
        "arena-server-test-{}-{tag}.txt",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&p);
    p
}

/// A running `arena serve`.
struct Server {
    child: Child,
    addr: String,
    lines: Receiver<String>,
    record: PathBuf,
}

fn serve(game: &str, args: &[&str], tag: &str) -> Server {
    let record = temp_file(tag);
    let s = common::listen_serve(game, &record, args);
    Server {
        child: s.child,
        addr: s.addr,
        lines: s.lines,
        record,
    }
}

impl Server {
    /// Waits for the server to exit by itself; returns its status and everything it printed.
    fn finish(mut self) -> (ExitStatus, Vec<String>, String) {
        let status = common::wait_exit(&mut self.child);
        let lines: Vec<String> = self.lines.iter().collect();
        let record = std::fs::read_to_string(&self.record).expect("the record file");
        let _ = std::fs::remove_file(&self.record);
        (status, lines, record)
    }

    /// Waits for a stdout line that starts with `prefix`.
    fn wait_for(&self, prefix: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(READ_TIMEOUT)
                .unwrap_or_else(|_| panic!("no server line starting {prefix:?}"));
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw protocol client.
struct Peer {
    r: BufReader<TcpStream>,
    w: TcpStream,
}

impl Peer {
    fn connect(addr: &str) -> Peer {
        let s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(READ_TIMEOUT)).expect("timeout");
        let w = s.try_clone().expect("clone");
        Peer {
            r: BufReader::new(s),
            w,
        }
    }

    /// Connects and says hello.
    fn join(addr: &str, name: &str) -> Peer {
        let mut p = Peer::connect(addr);
        let hello = p.line();
        assert!(hello.starts_with("hello arena-server 1 "), "{hello}");
        p.send(&format!("hello 1 {name}"));
        let welcome = p.until("welcome ");
        assert_eq!(welcome, format!("welcome {name}"));
        p
    }

    fn send(&mut self, line: &str) {
        self.w
            .write_all(format!("{line}\n").as_bytes())
            .expect("send");
    }

    /// The next line, `None` when the server closed the connection.
    fn try_line(&mut self) -> Option<String> {
        let mut s = String::new();
        match self.r.read_line(&mut s) {
            Ok(0) => None,
            Ok(_) => Some(s.trim_end_matches(['\n', '\r']).to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => None,
            Err(e) => panic!("reading: {e}"),
        }
    }

    fn line(&mut self) -> String {
        self.try_line().expect("a line, not the end")
    }

    /// Reads up to the first line that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> String {
        for _ in 0..10_000_000 {
            let l = self.line();
            if l.starts_with(prefix) {
                return l;
            }
        }
        panic!("no line starting {prefix:?}");
    }

    /// Reads until the server closes; returns the lines.
    fn rest(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(l) = self.try_line() {
            out.push(l);
        }
        out
    }
}

/// xorshift64*, for random choices that repeat.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Plays one game with random legal moves (asked of the server); returns (our side, the
/// `over` line). `barrier`: wait there once seated, before moving.
fn play_random(p: &mut Peer, seed: u64, barrier: Option<&Barrier>) -> (String, String) {
    let mut rng = Rng(seed | 1);
    let game = p.until("game ");
    let side = game.split(' ').nth(2).expect("a side").to_string();
    if let Some(b) = barrier {
        b.wait();
    }
    loop {
        let l = p.line();
        let w: Vec<&str> = l.split(' ').collect();
        match w[0] {
            "turn" if w[1] == side => {
                p.send("moves");
                let legal = p.until("legal ");
                let moves: Vec<&str> = legal["legal ".len()..].split(';').collect();
                let mv = moves[rng.below(moves.len())].to_string();
                p.send(&format!("move {mv}"));
            }
            "over" => return (side, l),
            "error" => panic!("server said {l}"),
            _ => {}
        }
    }
}

/// One game of a record file.
#[derive(Debug, Default)]
struct RecGame {
    game: String,
    moves_per_side: usize,
    names: Vec<String>,
    start: String,
    /// (side, ms, move)
    moves: Vec<(String, u64, String)>,
    illegal: Vec<String>,
    reason: String,
    result: String,
    plies: usize,
    clocks: Vec<(String, u64)>,
}

fn parse_record(text: &str) -> BTreeMap<u64, RecGame> {
    let mut games: BTreeMap<u64, RecGame> = BTreeMap::new();
    let mut servers = 0;
    for line in text.lines() {
        if line.starts_with("server ") {
            servers += 1;
            continue;
        }
        let (id, rest) = line.split_once(' ').expect("ID KIND ...");
        let id: u64 = id
            .parse()
            .unwrap_or_else(|_| panic!("game number in {line:?}"));
        let (kind, rest) = rest.split_once(' ').expect("KIND ...");
        let g = games.entry(id).or_default();
        match kind {
            "game" => {
                let w: Vec<&str> = rest.split(' ').collect();
                g.game = w[0].to_string();
                g.moves_per_side = w[2].parse().expect("moves");
                g.names = w[3..].iter().map(|s| s.to_string()).collect();
            }
            "start" => g.start = rest.to_string(),
            "move" => {
                let w: Vec<&str> = rest.splitn(3, ' ').collect();
                let ms: u64 = w[1].parse().expect("ms");
                g.moves.push((w[0].to_string(), ms, w[2].to_string()));
            }
            "illegal" => g.illegal.push(rest.to_string()),
            "end" => {
                let (reason, rest) = rest.split_once(' ').expect("end REASON ...");
                let (result, rest) = rest.split_once(" plies=").expect("plies=");
                let mut w = rest.split(' ');
                g.reason = reason.to_string();
                g.result = result.to_string();
                g.plies = w.next().expect("N").parse().expect("plies");
                g.clocks = w
                    .map(|kv| {
                        let (k, v) = kv.split_once('=').expect("L=MS");
                        (k.to_string(), v.parse().expect("ms"))
                    })
                    .collect();
            }
            other => panic!("unknown record line kind {other:?} in {line:?}"),
        }
    }
    assert_eq!(servers, 1, "one server run per record file");
    games
}

fn result_of(o: Outcome, letter: fn(Player) -> &'static str) -> String {
    o.notation(letter)
}

/// Replays a recorded game through the game crate and checks the recorded result: every move
/// legal and made by the side the position says is to move, the end as the reason says.
/// `at_limit`: the result the server gives when its move limit ends the game.
fn replay<G>(
    g: &RecGame,
    letter: fn(Player) -> &'static str,
    at_limit: impl Fn(&G) -> Outcome,
) -> Record<G>
where
    G: Game + FromStr + Display,
    <G as FromStr>::Err: std::fmt::Debug,
    G::Move: FromStr + Display,
    <G::Move as FromStr>::Err: std::fmt::Debug,
{
    let start: G = g.start.parse().expect("the recorded start parses");
    let mut rec = Record::new(start);
    for (i, (side, _, text)) in g.moves.iter().enumerate() {
        assert_eq!(
            side,
            letter(rec.position().to_move()),
            "move {i} side in {g:?}"
        );
        let mv: G::Move = text.parse().expect("a recorded move parses");
        assert_eq!(mv.to_string(), *text, "moves are recorded in notation");
        rec.play(mv)
            .unwrap_or_else(|e| panic!("recorded move {i} {text}: {e}"));
    }
    assert_eq!(g.plies, g.moves.len());
    let players = rec.position().players();
    match g.reason.as_str() {
        "rules" => {
            let o = rec.result().expect("the rules ended the game");
            assert_eq!(g.result, result_of(o, letter));
        }
        "limit" => {
            assert!(rec.result().is_none(), "the rules had not ended it");
            assert_eq!(g.moves.len(), g.moves_per_side * players);
            assert_eq!(g.result, result_of(at_limit(rec.position()), letter));
        }
        "time" | "disconnect" | "quit" => {
            assert!(rec.result().is_none(), "a forfeit in a game still going on");
        }
        other => panic!("unexpected end {other}"),
    }
    rec
}

fn throne_limit(p: &throne::Position) -> Outcome {
    match p.score(throne::BLACK).cmp(&p.score(throne::WHITE)) {
        std::cmp::Ordering::Greater => Outcome::Win(throne::BLACK),
        std::cmp::Ordering::Less => Outcome::Win(throne::WHITE),
        std::cmp::Ordering::Equal => Outcome::Draw(DrawKind::Score),
    }
}

fn draw_turns<G>(_: &G) -> Outcome {
    Outcome::Draw(DrawKind::TurnLimit)
}

/// `arena connect` as a child process.
fn connect(game: &str, addr: &str, name: &str, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["connect", game, addr, "--name", name])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena connect starts")
}

fn finished(child: Child, who: &str) -> String {
    let out = child.wait_with_output().expect("the client ends");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{who} failed: {err}");
    err
}

#[test]
fn engines_play_a_full_throne_game_on_a_short_clock() {
    let _g = heavy();
    let server = serve("throne", &["--time", "4s", "--games", "1"], "full");
    let a = connect("throne", &server.addr, "alpha", &[]);
    let b = connect("throne", &server.addr, "beta", &[]);
    let a_err = finished(a, "alpha");
    let b_err = finished(b, "beta");
    let (status, out, record) = server.finish();
    assert!(status.success());
    let games = parse_record(&record);
    assert_eq!(games.len(), 1);
    let g = &games[&1];
    let mut names = g.names.clone();
    names.sort();
    assert_eq!(names, ["alpha", "beta"]);
    // Neither engine lost on time: the game ended by Throne's rules (a win at the throne,
    // or the score after 150 moves each), with time left on both clocks.
    assert_eq!(g.reason, "rules", "{out:?}\n{a_err}\n{b_err}");
    assert!(g.illegal.is_empty());
    assert!(g.clocks.iter().all(|(_, ms)| *ms > 0), "{:?}", g.clocks);
    let used_b: u64 = g.moves.iter().filter(|m| m.0 == "b").map(|m| m.1).sum();
    assert!(used_b <= 4000);
    replay::<throne::Position>(g, throne::player_letter, throne_limit);
    assert!(
        out.iter().any(|l| l.starts_with("standings at the end")),
        "{out:?}"
    );
    assert!(a_err.contains("game 1 over"), "{a_err}");
}

#[test]
fn python_example_client_plays_arena_connect() {
    let _g = heavy();
    let server = serve(
        "throne",
        &["--time", "3s", "--moves", "30", "--games", "1"],
        "python",
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/example_client.py");
    let py = Command::new("python3")
        .arg(&script)
        .arg(&server.addr)
        .args(["--name", "randy", "--games", "1", "--seed", "7"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (the example client needs it)");
    // Let the Python client be seated first: it plays Black.
    server.wait_for("arena serve throne");
    thread::sleep(Duration::from_millis(300));
    let eng = connect("throne", &server.addr, "ours", &[]);
    let py_err = finished(py, "example_client.py");
    finished(eng, "arena connect");
    let (status, _, record) = server.finish();
    assert!(status.success());
    let games = parse_record(&record);
    let g = &games[&1];
    let mut names = g.names.clone();
    names.sort();
    assert_eq!(names, ["ours", "randy"]);
    assert!(
        matches!(g.reason.as_str(), "rules" | "limit"),
        "{g:?} {py_err}"
    );
    assert!(
        g.illegal.is_empty(),
        "random legal moves only: {:?}",
        g.illegal
    );
    replay::<throne::Position>(g, throne::player_letter, throne_limit);
    assert!(py_err.contains("game over"), "{py_err}");
}

#[test]
fn an_illegal_move_is_refused_and_the_clock_keeps_running() {
    let server = serve("throne", &["--time", "5s", "--games", "1"], "illegal");
    let mut black = Peer::join(&server.addr, "black");
    let mut white = Peer::join(&server.addr, "white");
    assert_eq!(black.until("game "), "game 1 b 5000 150 black white");
    assert_eq!(white.until("game "), "game 1 w 5000 150 black white");
    assert!(white.until("start ").starts_with("start wwwwww/"));
    assert_eq!(black.until("turn "), "turn b b=5000 w=5000 left=150");
    // Out of turn.
    white.send("move 0,-5>0,-4");
    assert!(white.until("error ").starts_with("error turn "));
    thread::sleep(Duration::from_millis(300));
    // The throne is empty: no piece to move there. Refused, and Black is still to move.
    black.send("move 0,0>1,0");
    let err = black.line();
    assert!(err.starts_with("error illegal 0,0>1,0: "), "{err}");
    let turn = black.line();
    let w: Vec<&str> = turn.split(' ').collect();
    assert_eq!((w[0], w[1]), ("turn", "b"), "{turn}");
    let b_ms: u64 = w[2].strip_prefix("b=").expect("b=").parse().expect("ms");
    assert!(b_ms <= 4700, "the clock ran while Black waited: {turn}");
    assert_eq!(w[3], "w=5000");
    // Not a move at all.
    black.send("move hello");
    assert!(black.line().starts_with("error illegal hello: "));
    black.until("turn b ");
    // A legal move is played and announced to both.
    black.send("moves");
    let legal = black.until("legal ");
    let first = legal["legal ".len()..].split(';').next().expect("a move");
    black.send(&format!("move {first}"));
    assert_eq!(black.until("moved "), format!("moved b {first}"));
    assert_eq!(white.until("moved "), format!("moved b {first}"));
    let turn = white.until("turn ");
    assert!(turn.starts_with("turn w b="), "{turn}");
    assert!(turn.ends_with(" w=5000 left=150"), "{turn}");
    // White plays a move, then resigns by quitting (before a move of its own, quitting
    // would void the game instead: see `limits.rs`).
    white.send("moves");
    let legal = white.until("legal ");
    let first_w = legal["legal ".len()..].split(';').next().expect("a move");
    white.send(&format!("move {first_w}"));
    assert_eq!(white.until("moved "), format!("moved w {first_w}"));
    white.send("quit");
    assert_eq!(white.until("bye "), "bye quit");
    assert_eq!(black.until("over "), "over quit winner b");
    let (status, _, record) = server.finish();
    assert!(status.success());
    let g = &parse_record(&record)[&1];
    assert_eq!(g.illegal.len(), 2, "{:?}", g.illegal);
    assert!(g.illegal[0].starts_with("b "));
    assert_eq!(g.moves.len(), 2);
    assert!(
        g.moves[0].1 >= 300,
        "the move's time counts the refused attempts"
    );
    assert_eq!((g.reason.as_str(), g.result.as_str()), ("quit", "winner b"));
    replay::<throne::Position>(g, throne::player_letter, throne_limit);
}

#[test]
fn a_stalled_agent_loses_on_time_while_other_games_go_on() {
    let server = serve(
        "jumpy3",
        &["--time", "1500ms", "--games", "2", "--moves", "20"],
        "stall",
    );
    let mut staller = Peer::join(&server.addr, "staller");
    let mut patient = Peer::join(&server.addr, "patient");
    assert!(staller.until("game ").starts_with("game 1 w "));
    let done = Arc::new(AtomicBool::new(false));
    let mut w = patient.w.try_clone().expect("clone");
    let stop = done.clone();
    let busy = thread::spawn(move || {
        let batch = "position\n".repeat(50);
        while !stop.load(Ordering::SeqCst) {
            if w.write_all(batch.as_bytes()).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(1));
        }
    });
    // A second pair plays a whole game meanwhile.
    let addr = server.addr.clone();
    let others: Vec<_> = (0..2)
        .map(|i| {
            let addr = addr.clone();
            thread::spawn(move || {
                let mut p = Peer::join(&addr, &format!("quick{i}"));
                let r = play_random(&mut p, 11 + i, None);
                p.send("quit");
                r
            })
        })
        .collect();
    for t in others {
        let (_, over) = t.join().expect("a quick player");
        assert!(
            over.starts_with("over rules ") || over.starts_with("over limit "),
            "{over}"
        );
    }
    // White never moves: it loses on time, Black wins, even though Black keeps its game busy
    // with requests all along.
    assert_eq!(patient.until("over "), "over time winner b");
    done.store(true, Ordering::SeqCst);
    busy.join().expect("the busy requester");
    assert_eq!(staller.until("over "), "over time winner b");
    let (status, out, record) = server.finish();
    assert!(status.success());
    let games = parse_record(&record);
    let g = &games[&1];
    assert_eq!((g.reason.as_str(), g.result.as_str()), ("time", "winner b"));
    assert!(g.moves.is_empty());
    assert_eq!(g.clocks, [("w".to_string(), 0), ("b".to_string(), 1500)]);
    let other = &games[&2];
    replay::<jumpy3::Position>(other, jumpy3::player_letter, draw_turns);
    let table = out.join("\n");
    assert!(
        table.contains("standings at the end: 2 games counted"),
        "{table}"
    );
}

#[test]
fn a_disconnected_agent_loses() {
    let server = serve("throne", &["--time", "5s", "--games", "1"], "gone");
    let mut black = Peer::join(&server.addr, "leaver");
    let mut white = Peer::join(&server.addr, "stayer");
    black.until("turn b ");
    black.send("move -2,4>-2,3");
    black.until("turn w ");
    white.until("turn w ");
    white.send("move 0,-5>0,-4");
    black.until("turn b ");
    drop(black);
    assert_eq!(white.until("over "), "over disconnect winner w");
    let (status, out, record) = server.finish();
    assert!(status.success());
    let g = &parse_record(&record)[&1];
    assert_eq!(
        (g.reason.as_str(), g.result.as_str()),
        ("disconnect", "winner w")
    );
    let table = out.join("\n");
    assert!(table.contains("leaver"), "{table}");
}

#[test]
fn bad_lines_get_error_lines_and_the_connection_goes_on() {
    let server = serve("jumpy3", &["--games", "1"], "badlines");
    let mut p = Peer::connect(&server.addr);
    assert_eq!(p.line(), "hello arena-server 1 jumpy3");
    p.send("move 4");
    assert_eq!(p.line(), "error state say hello first");
    p.send("hello 1 bad!name");
    assert!(p.line().starts_with("error syntax hello: "));
    p.send("hello");
    assert!(p.line().starts_with("error syntax "));
    p.send("frobnicate now");
    assert_eq!(p.line(), "error unknown unknown command frobnicate");
    p.send(&"x".repeat(10_000));
    assert_eq!(p.line(), "error long line longer than 4096 bytes ignored");
    p.w.write_all(b"\xff\xfe ping\n").expect("send");
    assert_eq!(p.line(), "error syntax line is not UTF-8");
    p.send("ping extra");
    assert!(p.line().starts_with("error syntax "));
    p.send("");
    p.send("ping");
    assert_eq!(p.line(), "pong");
    p.send("hello 1 fine");
    assert_eq!(p.line(), "welcome fine");
    p.send("hello 1 again");
    assert_eq!(p.line(), "error state hello was already said");
    p.send("moves");
    assert_eq!(p.line(), "error state no game in progress");
    // The name is taken: the second agent gets another.
    let mut q = Peer::connect(&server.addr);
    q.line();
    q.send("hello 1 fine");
    assert_eq!(q.until("welcome "), "welcome fine-2");
    // The wrong protocol version: told, then closed.
    let mut v = Peer::connect(&server.addr);
    v.line();
    v.send("hello 2 future");
    assert_eq!(v.line(), "error version this server speaks version 1");
    assert_eq!(v.rest(), ["bye version"]);
    // The two named agents play; both still work after all that.
    let t = thread::spawn(move || play_random(&mut q, 5, None));
    let (_, over) = play_random(&mut p, 3, None);
    let (_, over_q) = t.join().expect("q plays");
    assert_eq!(over, over_q);
    assert_eq!(p.rest(), ["bye done"]);
    let (status, _, record) = server.finish();
    assert!(status.success());
    let g = &parse_record(&record)[&1];
    replay::<jumpy3::Position>(g, jumpy3::player_letter, draw_turns);
}

#[test]
fn floods_and_slow_readers_do_not_stop_the_server() {
    let _g = heavy();
    let server = serve(
        "jumpy3",
        &["--games", "1", "--max-clients", "40", "--moves", "30"],
        "flood",
    );
    // A reader that never reads, flooding the server with requests: its answers pile up, it
    // is dropped, and nobody else waits for it.
    let mut slow = Peer::join(&server.addr, "slow");
    let flood = thread::spawn(move || {
        // Each request gets a 32-byte answer (`error state no game in progress`): far more
        // than the socket buffers hold.
        let line = "moves\n".repeat(1000);
        for _ in 0..2000 {
            if slow.w.write_all(line.as_bytes()).is_err() {
                return true;
            }
        }
        // Written all: the server must have closed on us, which reading shows.
        let mut buf = [0u8; 65536];
        loop {
            match slow.r.get_mut().read(&mut buf) {
                Ok(0) => return true,
                Ok(_) => {}
                Err(e) => return e.kind() == std::io::ErrorKind::ConnectionReset,
            }
        }
    });
    // Fill the server up to its limit with silent connections.
    let mut idle = Vec::new();
    let mut refused = 0;
    for _ in 0..60 {
        let mut p = Peer::connect(&server.addr);
        match p.line().as_str() {
            l if l.starts_with("error limit ") => {
                assert!(l.contains("40 connections"), "{l}");
                assert_eq!(p.line(), "bye full");
                refused += 1
            }
            l => {
                assert!(l.starts_with("hello arena-server"), "{l}");
                idle.push(p)
            }
        }
    }
    assert!(refused >= 20, "{refused} turned away");
    assert!(
        flood.join().expect("the flooder"),
        "the slow reader was dropped"
    );
    // Room again once the idle ones go.
    drop(idle);
    let addr = server.addr.clone();
    let players: Vec<_> = (0..2)
        .map(|i| {
            let addr = addr.clone();
            thread::spawn(move || {
                // Sessions of the closed connections end asynchronously: retry a little.
                for _ in 0..100 {
                    let mut p = Peer::connect(&addr);
                    if p.line().starts_with("error limit ") {
                        thread::sleep(Duration::from_millis(50));
                        continue;
                    }
                    p.send(&format!("hello 1 player{i}"));
                    p.until("welcome ");
                    return play_random(&mut p, 21 + i, None);
                }
                panic!("never let in");
            })
        })
        .collect();
    for t in players {
        let (_, over) = t.join().expect("a player");
        assert!(over.starts_with("over "), "{over}");
    }
    let (status, _, record) = server.finish();
    assert!(status.success());
    let g = &parse_record(&record)[&1];
    assert!(matches!(g.reason.as_str(), "rules" | "limit"), "{g:?}");
    replay::<jumpy3::Position>(g, jumpy3::player_letter, draw_turns);
}

#[test]
fn chexers_seats_three_and_a_round_robin_ends_with_standings() {
    // Three seats: every player moves when the `turn` line names it.
    let server = serve(
        "chexers",
        &["--time", "10s", "--games", "1", "--moves", "12"],
        "chexers",
    );
    let addr = server.addr.clone();
    let seats: Vec<_> = (0..3)
        .map(|i| {
            let addr = addr.clone();
            thread::spawn(move || {
                let mut p = Peer::join(&addr, &format!("c{i}"));
                play_random(&mut p, 100 + i, None)
            })
        })
        .collect();
    let mut sides: Vec<String> = seats
        .into_iter()
        .map(|t| t.join().expect("a seat").0)
        .collect();
    sides.sort();
    assert_eq!(sides, ["b", "g", "r"]);
    let (status, _, record) = server.finish();
    assert!(status.success());
    let g = &parse_record(&record)[&1];
    assert_eq!(g.names.len(), 3);
    replay::<chexers::Position>(g, chexers::player_letter, draw_turns);

    // A round robin of three in Jumpy3: each pair twice, seats swapped.
    let server = serve(
        "jumpy3",
        &["--time", "10s", "--round-robin", "3", "--moves", "10"],
        "robin",
    );
    let addr = server.addr.clone();
    let agents: Vec<_> = (0..3)
        .map(|i| {
            let addr = addr.clone();
            thread::spawn(move || {
                let mut p = Peer::join(&addr, &format!("r{i}"));
                let mut games = 0;
                // Play until the server says goodbye.
                let mut rng = Rng(40 + i);
                let mut side = String::new();
                while let Some(l) = p.try_line() {
                    let w: Vec<&str> = l.split(' ').collect();
                    match w[0] {
                        "game" => side = w[2].to_string(),
                        "turn" if w[1] == side => {
                            p.send("moves");
                            let legal = p.until("legal ");
                            let moves: Vec<&str> = legal[6..].split(';').collect();
                            p.send(&format!("move {}", moves[rng.below(moves.len())]));
                        }
                        "over" => games += 1,
                        "bye" => assert_eq!(l, "bye done"),
                        "error" => panic!("{l}"),
                        _ => {}
                    }
                }
                games
            })
        })
        .collect();
    for t in agents {
        assert_eq!(t.join().expect("an agent"), 4);
    }
    let (status, out, record) = server.finish();
    assert!(status.success());
    let games = parse_record(&record);
    assert_eq!(games.len(), 6);
    let mut seatings: Vec<Vec<String>> = games.values().map(|g| g.names.clone()).collect();
    seatings.sort();
    seatings.dedup();
    assert_eq!(seatings.len(), 6, "every ordered pair once");
    for g in games.values() {
        replay::<jumpy3::Position>(g, jumpy3::player_letter, draw_turns);
    }
    let table = out.join("\n");
    assert!(
        table.contains("standings at the end: 6 games counted"),
        "{table}"
    );
    for name in ["r0", "r1", "r2"] {
        let row = out
            .iter()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("{name} in {table}"));
        assert_eq!(row.split_whitespace().nth(2), Some("4"), "{row}");
    }
}

#[test]
fn ctrl_c_stops_the_games_and_prints_the_standings() {
    let server = serve("throne", &["--time", "60s"], "sigint");
    let mut a = Peer::join(&server.addr, "a");
    let mut b = Peer::join(&server.addr, "b");
    a.until("turn b ");
    b.until("turn b ");
    server.wait_for("game 1 begins");
    let status = Command::new("kill")
        .args(["-INT", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    assert_eq!(a.until("over "), "over stopped aborted");
    assert_eq!(a.until("bye "), "bye shutdown");
    assert_eq!(b.until("over "), "over stopped aborted");
    let (status, out, record) = server.finish();
    assert!(status.success());
    let table = out.join("\n");
    assert!(table.contains("interrupted"), "{table}");
    assert!(
        table.contains("standings when stopped: 0 games counted, 1 not counted"),
        "{table}"
    );
    let g = &parse_record(&record)[&1];
    assert_eq!(
        (g.reason.as_str(), g.result.as_str()),
        ("stopped", "aborted")
    );
}

#[test]
fn fifty_games_at_once_all_recorded_and_replayed() {
    let _g = heavy();
    const GAMES: usize = 50;
    let server = serve(
        "jumpy3",
        &["--time", "30s", "--moves", "20", "--games", "50"],
        "load",
    );
    // Every client waits, once seated, until all 100 are seated: 50 games run at once.
    let barrier = Arc::new(Barrier::new(2 * GAMES));
    let clients: Vec<_> = (0..2 * GAMES)
        .map(|i| {
            let addr = server.addr.clone();
            let barrier = barrier.clone();
            thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || {
                    let mut p = Peer::join(&addr, &format!("load{i}"));
                    let r = play_random(&mut p, 1000 + i as u64, Some(&barrier));
                    p.send("quit");
                    r
                })
                .expect("a thread")
        })
        .collect();
    for t in clients {
        let (_, over) = t.join().expect("a client");
        assert!(
            over.starts_with("over rules ") || over.starts_with("over limit "),
            "{over}"
        );
    }
    let (status, out, record) = server.finish();
    assert!(status.success());
    let games = parse_record(&record);
    assert_eq!(games.len(), GAMES);
    let mut names = Vec::new();
    for g in games.values() {
        assert_eq!(g.game, "jumpy3");
        assert!(g.illegal.is_empty());
        replay::<jumpy3::Position>(g, jumpy3::player_letter, draw_turns);
        names.extend(g.names.iter().cloned());
    }
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 2 * GAMES, "everyone played once");
    let table = out.join("\n");
    assert!(
        table.contains("standings at the end: 50 games counted"),
        "{table}"
    );
}

#[test]
fn chaos_clock_games_are_played_recorded_and_replayed() {
    let _g = heavy();
    const GAMES: usize = 6;
    let server = serve("chaosclock", &["--time", "30s", "--games", "6"], "chaos");
    let clients: Vec<_> = (0..2 * GAMES)
        .map(|i| {
            let addr = server.addr.clone();
            thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || {
                    let mut p = Peer::join(&addr, &format!("chaos{i}"));
                    let (_, over) = play_random(&mut p, 77 + i as u64, None);
                    p.send("quit");
                    (format!("chaos{i}"), over)
                })
                .expect("a thread")
        })
        .collect();
    let mut overs = BTreeMap::new();
    for t in clients {
        let (name, over) = t.join().expect("a client");
        assert!(
            over.starts_with("over rules ") || over.starts_with("over limit "),
            "{over}"
        );
        overs.insert(name, over);
    }
    let (status, out, record) = server.finish();
    assert!(status.success(), "{out:?}");
    let games = parse_record(&record);
    assert_eq!(games.len(), GAMES);
    for g in games.values() {
        assert_eq!(g.game, "chaosclock");
        assert!(g.illegal.is_empty());
        // Every recorded result (a winner, both win, both lose, a draw) is the one the
        // rules give after the recorded moves, and both players were told it.
        replay::<chaosclock::Position>(g, chaosclock::player_letter, draw_turns);
        assert_eq!(g.names.len(), 2);
        for name in &g.names {
            assert!(
                overs[name].ends_with(&g.result),
                "{name} was told {:?}, the record says {:?}",
                overs[name],
                g.result
            );
        }
    }
}
