//! `arena web` over loopback: the pages, the JSON API of every game (new game, legal moves,
//! a move, an illegal move refused with the reason), the analysis stream over a WebSocket,
//! stop and a closed socket ending a search, exact solves, bad requests answered with
//! errors while the server keeps serving, and `--watch` following a real `arena serve`
//! game through its record file.
//!
//! What the server says about the rules is checked against `arena moves`, `arena apply` and
//! `arena solve` (the program's stable, scriptable interface), not against numbers written
//! here. Every server listens on 127.0.0.1 port 0 and prints its address first; sockets have
//! read timeouts so that a failure cannot hang the run.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::thread;
use std::time::{Duration, Instant};

mod common;

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

const GAMES: [&str; 4] = ["jumpy3", "chexers", "throne", "chaosclock"];

/// Longest a test waits for a line, an answer or a message.
const TIMEOUT: Duration = Duration::from_secs(60);

fn arena(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the arena binary runs")
}

fn stdout_lines(args: &[&str]) -> Vec<String> {
    let out = arena(args);
    assert!(
        out.status.success(),
        "arena {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// A running `arena web`, killed when dropped.
struct Web {
    child: Child,
    addr: String,
    _lines: Receiver<String>,
}

impl Web {
    fn start(args: &[&str]) -> Web {
        let mut all = vec!["web", "--addr", "127.0.0.1:0"];
        all.extend_from_slice(args);
        let all: Vec<&OsStr> = all.iter().map(OsStr::new).collect();
        let l = common::listen(&all);
        Web {
            child: l.child,
            addr: l.addr,
            _lines: l.lines,
        }
    }

    /// One HTTP/1.1 request; the status, the head and the body.
    fn request(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String, String) {
        self.request_with(method, path, body, "")
    }

    /// The same with more header lines (each ending in `\r\n`).
    fn request_with(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        headers: &str,
    ) -> (u16, String, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        let body = body.unwrap_or("");
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{headers}\r\n{body}",
            self.addr,
            body.len()
        );
        s.write_all(req.as_bytes()).unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("the answer");
        let text = String::from_utf8_lossy(&raw).to_string();
        let (head, rest) = text.split_once("\r\n\r\n").expect("headers end");
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("status line of {head:?}"));
        let chunked = head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked");
        let body = if chunked {
            dechunk(rest)
        } else {
            rest.to_string()
        };
        (status, head.to_string(), body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        let (s, _, b) = self.request("GET", path, None);
        (s, b)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_text(path, &body.to_string())
    }

    fn post_text(&self, path: &str, body: &str) -> (u16, Value) {
        let (s, _, b) = self.request("POST", path, Some(body));
        let v: Value =
            serde_json::from_str(&b).unwrap_or_else(|e| panic!("{path}: {e}: not JSON: {b:?}"));
        (s, v)
    }

    fn socket(&self, path: &str) -> WebSocket<MaybeTlsStream<TcpStream>> {
        let (ws, _) =
            tungstenite::connect(format!("ws://{}{path}", self.addr)).expect("a WebSocket");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(TIMEOUT)).unwrap();
        }
        ws
    }
}

impl Drop for Web {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

fn send(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>, v: Value) {
    ws.send(Message::Text(v.to_string().into())).expect("send");
}

/// The next JSON message. A read interrupted by a signal (`EINTR`, which the socket's read
/// passes on) is tried again; any other error (the timeout among them) fails the test.
fn next(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> Value {
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => return serde_json::from_str(t.as_str()).expect("JSON"),
            Ok(Message::Close(c)) => panic!("closed: {c:?}"),
            Ok(_) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => panic!("a message before the timeout: {e}"),
        }
    }
}

/// Messages until one of type `kind`; all of them.
fn until(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>, kind: &str) -> Vec<Value> {
    let mut out = Vec::new();
    loop {
        let m = next(ws);
        let done = m["type"] == kind;
        assert!(m["type"] != "error" || kind == "error", "error: {m}");
        out.push(m);
        if done {
            return out;
        }
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

#[test]
fn every_page_is_served_with_the_contract_elements() {
    let web = Web::start(&[]);
    let (s, index) = web.get("/");
    assert_eq!(s, 200);
    for g in GAMES {
        let (s, page) = web.get(&format!("/{g}"));
        assert_eq!(s, 200, "/{g}");
        for id in [
            "id=\"position\"",
            "id=\"move-input\"",
            "id=\"moves\"",
            "id=\"result\"",
            "id=\"board\"",
        ] {
            assert!(page.contains(id), "/{g} lacks {id}");
        }
        assert!(page.contains("/assets/app.js"));
    }
    assert!(index.contains("/api/games"));
    let (s, head, js) = web.request("GET", "/assets/app.js", None);
    assert_eq!(s, 200);
    assert!(head.to_ascii_lowercase().contains("text/javascript"));
    assert!(js.contains("data-cell"));
    let (s, _, css) = web.request("GET", "/assets/app.css", None);
    assert_eq!(s, 200);
    assert!(css.contains("svg .cell"));
    let (s, page) = web.get("/chess");
    assert_eq!(s, 404);
    assert!(page.contains("No game is called"), "{page}");
    let (s, body) = web.get("/api/no/such/thing");
    assert_eq!(s, 404, "{body}");
}

#[test]
fn every_game_new_game_legal_moves_a_move_and_an_illegal_move() {
    let web = Web::start(&[]);
    let (s, _) = web.get("/api/games");
    assert_eq!(s, 200);
    // A well-formed move that is not legal at the start, per game.
    let illegal = [
        ("jumpy3", "16"),
        ("chexers", "MOVE 0 0 1 0"),
        ("throne", "0,0>1,0"),
        ("chaosclock", "p2"),
    ];
    for (g, bad) in illegal {
        let (s, state) = web.post(&format!("/api/game/{g}/state"), &json!({}));
        assert_eq!(s, 200, "{g}: {state}");
        let start = stdout_lines(&["apply", g, "start"]);
        assert_eq!(state["position"], start[0].as_str(), "{g}");
        assert_eq!(state["start"], start[0].as_str(), "{g}");
        assert_eq!(state["moves"], json!([]));
        assert_eq!(state["result"], Value::Null);
        // The legal moves are `arena moves`, each with its from and to spots on the board.
        let legal = stdout_lines(&["moves", g, "start"]);
        let board = &state["board"];
        let moves: Vec<String> = board["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(moves, legal, "{g}");
        let spots: Vec<&str> = board["spots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        for m in board["moves"].as_array().unwrap() {
            for end in ["from", "to"] {
                if let Some(id) = m[end].as_str() {
                    assert!(spots.contains(&id), "{g}: {m}");
                }
            }
        }
        // A move: the position `arena apply` reaches, and the last move's spots.
        let first = &board["moves"][0];
        let mv = first["text"].as_str().unwrap();
        let (s, after) = web.post(
            &format!("/api/game/{g}/play"),
            &json!({ "start": "start", "moves": [], "move": mv }),
        );
        assert_eq!(s, 200, "{g}: {after}");
        let want = stdout_lines(&["apply", g, "start", mv]);
        assert_eq!(after["position"], want[0].as_str(), "{g}");
        assert_eq!(after["played"], mv);
        assert_eq!(after["moves"], json!([mv]));
        assert_eq!(after["board"]["last"], *first, "{g}");
        // The same through the record.
        let (s, again) = web.post(&format!("/api/game/{g}/state"), &json!({ "moves": [mv] }));
        assert_eq!(s, 200);
        assert_eq!(again["position"], after["position"]);
        // An illegal move is refused with the reason `arena apply` gives.
        let (s, err) = web.post(
            &format!("/api/game/{g}/play"),
            &json!({ "moves": [], "move": bad }),
        );
        assert_eq!(s, 422, "{g}: {err}");
        let out = arena(&["apply", g, "start", bad]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let reason = stderr
            .trim()
            .rsplit_once("): ")
            .map(|(_, r)| r)
            .unwrap_or_else(|| panic!("{stderr}"));
        let e = err["error"].as_str().unwrap();
        assert!(e.contains(bad), "{g}: {e}");
        assert!(e.ends_with(reason), "{g}: {e:?} should end with {reason:?}");
    }
}

#[test]
fn a_finished_game_has_its_result_as_arena_apply_writes_it() {
    let web = Web::start(&[]);
    // One move from the end in each game (positions written from the rules' notation).
    let ends = [
        ("jumpy3", "B..............W w", "16"),
        ("chexers", "...r/...../....../......./....../...../g..b r 3,0,0 9", "EXIT 3 -3"),
        (
            "throne",
            "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 299 0 0 0 0",
            "pass",
        ),
        ("chaosclock", "1,4,3,6,5,8,7,10,9,12,2,0;0;0", "p11"),
    ];
    for (g, start, mv) in ends {
        let (s, st) = web.post(
            &format!("/api/game/{g}/play"),
            &json!({ "start": start, "move": mv }),
        );
        assert_eq!(s, 200, "{g}: {st}");
        let want = stdout_lines(&["apply", g, start, mv]);
        assert_eq!(st["position"], want[0].as_str(), "{g}");
        let result = want
            .get(1)
            .and_then(|l| l.strip_prefix("result: "))
            .unwrap_or_else(|| panic!("{g}: {want:?} is not over"));
        assert_eq!(st["result"], result, "{g}");
        assert!(st["result_words"].as_str().is_some_and(|w| !w.is_empty()));
        assert_eq!(
            st["board"]["moves"],
            json!([]),
            "{g}: no moves after the end"
        );
        assert_eq!(st["to_move"], Value::Null);
        // A move after the end is refused.
        let (s, err) = web.post(
            &format!("/api/game/{g}/play"),
            &json!({ "start": start, "moves": [mv], "move": mv }),
        );
        assert_eq!(s, 422, "{g}");
        assert!(err["error"].as_str().unwrap().contains("over"), "{err}");
    }
}

#[test]
fn bad_requests_get_errors_and_the_server_keeps_serving() {
    let web = Web::start(&[]);
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("/api/game/chess/state", "{}".into(), 404, "unknown game"),
        (
            "/api/game/jumpy3/state",
            "{not json".into(),
            400,
            "bad request body",
        ),
        (
            "/api/game/jumpy3/state",
            r#"{"moves": 4}"#.into(),
            400,
            "bad request body",
        ),
        (
            "/api/game/jumpy3/state",
            r#"{"colour": "w"}"#.into(),
            400,
            "unknown field",
        ),
        (
            "/api/game/jumpy3/state",
            r#"{"start": "Wwww"}"#.into(),
            400,
            "Wwww",
        ),
        (
            "/api/game/chexers/state",
            r#"{"start": "gggg/.. r 0,0,0 0"}"#.into(),
            400,
            "position",
        ),
        (
            "/api/game/jumpy3/play",
            r#"{"moves": []}"#.into(),
            400,
            "move",
        ),
        (
            "/api/game/jumpy3/play",
            r#"{"move": "seventeen"}"#.into(),
            422,
            "seventeen",
        ),
        (
            "/api/game/throne/play",
            r#"{"move": "9,9>0,0"}"#.into(),
            422,
            "9,9>0,0",
        ),
        (
            "/api/game/chexers/solve",
            "{}".into(),
            400,
            "no exact solver",
        ),
        (
            "/api/game/jumpy3/state",
            json!({ "moves": vec!["1"; 6000] }).to_string(),
            400,
            "at most",
        ),
    ];
    for (path, body, status, says) in &cases {
        let (s, v) = web.post_text(path, body);
        assert_eq!(s, *status, "{path} {body}: {v}");
        let e = v["error"].as_str().unwrap_or_else(|| panic!("{v}"));
        assert!(e.contains(says), "{path} {body}: {e:?} should say {says:?}");
    }
    // A record with a bad third move names it.
    let (s, v) = web.post(
        "/api/game/jumpy3/state",
        &json!({ "moves": ["4", "13", "13"] }),
    );
    assert_eq!(s, 422);
    assert_eq!(v["move_index"], 3);
    assert!(
        v["error"].as_str().unwrap().starts_with("move 3 (\"13\")"),
        "{v}"
    );
    // The search socket: not a WebSocket request; an unknown game.
    let (s, _) = web.get("/api/game/jumpy3/search");
    assert!((400..500).contains(&s), "{s}");
    let (s, _) = web.get("/api/game/chess/search");
    assert_eq!(s, 404);
    // On the socket: bad JSON, an unknown request, an illegal record, a bad spec, a game
    // over: each an error message, and the socket goes on serving.
    let mut ws = web.socket("/api/game/jumpy3/search");
    for (req, says) in [
        ("{oops".to_string(), "bad request"),
        (
            json!({ "type": "dance" }).to_string(),
            "unknown request type",
        ),
        (json!({ "moves": ["4", "4"] }).to_string(), "move 2"),
        (json!({ "spec": "engine,depth=x" }).to_string(), "depth=x"),
        (
            json!({ "spec": "engine", "time_ms": 0 }).to_string(),
            "time_ms",
        ),
        (
            json!({ "start": "B..............W w", "moves": ["16"] }).to_string(),
            "over",
        ),
    ] {
        ws.send(Message::Text(req.clone().into())).unwrap();
        let m = next(&mut ws);
        assert_eq!(m["type"], "error", "{req}: {m}");
        assert!(m["error"].as_str().unwrap().contains(says), "{req}: {m}");
    }
    send(&mut ws, json!({ "spec": "engine", "depth": 2 }));
    let msgs = until(&mut ws, "done");
    assert_eq!(msgs.last().unwrap()["depth"], 2);
    // A WebSocket that another site's page opens is refused; the page's own is let in.
    let upgrade = "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let (s, _, body) = web.request_with(
        "GET",
        "/api/game/jumpy3/search",
        None,
        &format!("{upgrade}Origin: http://elsewhere.example\r\n"),
    );
    assert_eq!(s, 403, "{body}");
    assert!(body.contains("elsewhere.example"), "{body}");
    {
        use tungstenite::client::IntoClientRequest;
        let mut req = format!("ws://{}/api/game/jumpy3/search", web.addr)
            .into_client_request()
            .unwrap();
        req.headers_mut()
            .insert("Origin", format!("http://{}", web.addr).parse().unwrap());
        let (mut own, _) = tungstenite::connect(req).expect("the page's own origin is let in");
        send(&mut own, json!({ "depth": 1 }));
        until(&mut own, "done");
    }
    // Still serving.
    let (s, _) = web.get("/api/games");
    assert_eq!(s, 200);
}

#[test]
fn analysis_streams_every_iteration_for_every_game() {
    let web = Web::start(&[]);
    for g in GAMES {
        let legal = stdout_lines(&["moves", g, "start"]);
        let mut ws = web.socket(&format!("/api/game/{g}/search"));
        send(
            &mut ws,
            json!({ "spec": "engine", "depth": 3, "analyse": true }),
        );
        let msgs = until(&mut ws, "done");
        assert_eq!(msgs[0]["type"], "started", "{g}");
        let start = stdout_lines(&["apply", g, "start"]);
        assert_eq!(msgs[0]["position"], start[0].as_str());
        let depths: Vec<u64> = msgs
            .iter()
            .filter(|m| m["type"] == "info")
            .map(|m| m["depth"].as_u64().unwrap())
            .collect();
        assert_eq!(depths, [1, 2, 3], "{g}: one info line per iteration");
        for m in msgs.iter().filter(|m| m["type"] != "started") {
            let best = m["best"].as_str().expect("a best move");
            assert!(legal.iter().any(|l| l == best), "{g}: {best}");
            let pv = strings(&m["pv"]);
            assert_eq!(pv.first().map(String::as_str), Some(best), "{g}: {m}");
            // The principal variation is playable.
            let mut args = vec!["apply", g, "start"];
            args.extend(pv.iter().map(String::as_str));
            assert!(arena(&args).status.success(), "{g}: {pv:?}");
            assert!(m["nodes"].as_u64().unwrap() > 0);
        }
        let done = msgs.last().unwrap();
        assert_eq!(done["depth"], 3);
        assert_eq!(done["stopped"], false);
    }
}

#[test]
fn engine_seats_move_within_a_time_a_clock_or_their_own_limit() {
    let web = Web::start(&["--threads", "1"]);
    let mut ws = web.socket("/api/game/throne/search");
    let legal = stdout_lines(&["moves", "throne", "start"]);
    for req in [
        json!({ "spec": "engine", "time_ms": 100 }),
        json!({ "spec": "engine", "clock": { "remaining_ms": 3000, "moves_to_go": 150 } }),
        json!({ "spec": "engine,depth=2", "time_ms": 60000 }),
        json!({ "spec": "greedy" }),
        json!({ "spec": "random,seed=3" }),
    ] {
        send(&mut ws, req.clone());
        let msgs = until(&mut ws, "done");
        let done = msgs.last().unwrap();
        let best = done["best"]
            .as_str()
            .unwrap_or_else(|| panic!("{req}: {done}"));
        assert!(legal.iter().any(|l| l == best), "{req}: {best}");
        if req["spec"] == "engine,depth=2" {
            // The spec's own limit wins over the seat's time.
            assert_eq!(done["depth"], 2, "{done}");
        }
    }
}

#[test]
fn stop_and_a_closed_socket_end_a_search_and_free_its_slot() {
    // One search at a time: a search that did not stop would keep every later one waiting.
    let web = Web::start(&["--max-searches", "1"]);
    let long = json!({ "spec": "engine", "analyse": true, "time_ms": 600000 });
    // Stop.
    let mut a = web.socket("/api/game/chexers/search");
    send(&mut a, long.clone());
    let first = until(&mut a, "info");
    assert_eq!(first[0]["type"], "started");
    send(&mut a, json!({ "type": "stop" }));
    let done = until(&mut a, "done");
    assert_eq!(done.last().unwrap()["stopped"], true);
    // A closed socket.
    let mut b = web.socket("/api/game/throne/search");
    send(&mut b, long.clone());
    until(&mut b, "info");
    let (_, status) = web.get("/api/status");
    let status: Value = serde_json::from_str(&status).unwrap();
    assert_eq!(status["running"], 1, "{status}");
    b.close(None).unwrap();
    drop(b);
    // The next search gets the one slot: the closed socket's search has stopped.
    let mut c = web.socket("/api/game/jumpy3/search");
    send(&mut c, json!({ "spec": "engine", "depth": 4 }));
    let msgs = until(&mut c, "done");
    assert_eq!(msgs.last().unwrap()["depth"], 4);
    assert!(
        !msgs.iter().any(|m| m["type"] == "queued") || msgs.iter().any(|m| m["type"] == "started"),
        "{msgs:?}"
    );
    // A connection dropped without a close frame, while its search waits in the queue and
    // then while it runs: the server goes on.
    let mut d = web.socket("/api/game/chexers/search");
    send(&mut d, long.clone());
    until(&mut d, "info");
    let mut e = web.socket("/api/game/chexers/search");
    send(&mut e, long);
    assert_eq!(next(&mut e)["type"], "queued");
    drop(e);
    drop(d);
    let mut f = web.socket("/api/game/chaosclock/search");
    send(&mut f, json!({ "spec": "engine", "depth": 2 }));
    until(&mut f, "done");
    // Nothing runs once every socket is done.
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let (_, status) = web.get("/api/status");
        let status: Value = serde_json::from_str(&status).unwrap();
        if status["running"] == 0 {
            assert_eq!(status["free"], 1);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "searches still running: {status}"
        );
        thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn solve_gives_the_exact_value_and_every_best_move() {
    let web = Web::start(&[]);
    let data = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/solve-chaosclock.tsv"),
    )
    .unwrap();
    let mut cases: Vec<(&str, String)> = vec![
        ("jumpy3", "W..w.......b...B w".to_string()),
        ("jumpy3", ".W.b.....w...B.. b".to_string()),
    ];
    cases.extend(
        data.lines()
            .filter(|l| !l.starts_with('#'))
            .take(3)
            .map(|l| ("chaosclock", l.split('\t').next().unwrap().to_string())),
    );
    for (g, pos) in cases {
        let (s, v) = web.post(&format!("/api/game/{g}/solve"), &json!({ "start": pos }));
        assert_eq!(s, 200, "{g} {pos}: {v}");
        let out = stdout_lines(&["solve", g, &pos]);
        let field = |name: &str| {
            out.iter()
                .find_map(|l| l.strip_prefix(name))
                .unwrap_or_else(|| panic!("{out:?}"))
                .trim()
                .to_string()
        };
        assert_eq!(v["value"], field("value:"), "{g} {pos}");
        assert_eq!(strings(&v["best"]).join(" "), field("best:"), "{g} {pos}");
        assert!(!v["words"].as_str().unwrap().is_empty());
    }
    // A finished game has nothing to solve.
    let (s, v) = web.post(
        "/api/game/jumpy3/solve",
        &json!({ "start": "B..............W w", "moves": ["16"] }),
    );
    assert_eq!(s, 422, "{v}");
}

fn temp_file(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("arena-web-test-{}-{tag}.txt", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn watch_follows_a_match_server_game_through_its_record_file() {
    let record = temp_file("watch");
    // The record file does not exist yet: the watcher waits for it.
    let web = Web::start(&["--watch", record.to_str().unwrap()]);
    let (s, list) = web.get("/api/watch");
    assert_eq!(s, 200, "{list}");
    let mut serve = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "serve",
            "jumpy3",
            "--addr",
            "127.0.0.1:0",
            "--games",
            "1",
            "--time",
            "20s",
            "--record",
        ])
        .arg(&record)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("arena serve starts");
    let mut out = BufReader::new(serve.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first.trim().strip_prefix("listening ").unwrap().to_string();
    thread::spawn(move || for _ in out.lines() {});
    let mut list_ws = web.socket("/api/watch/socket");
    let players: Vec<Child> = ["ann", "bob"]
        .iter()
        .map(|name| {
            Command::new(env!("CARGO_BIN_EXE_arena"))
                .args([
                    "connect",
                    "jumpy3",
                    &addr,
                    "--name",
                    name,
                    "--engine",
                    "engine,depth=3",
                    "--games",
                    "1",
                    "--quiet",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("arena connect starts")
        })
        .collect();
    // The list shows the game; its socket follows it to the end.
    let key = loop {
        let m = next(&mut list_ws);
        assert_eq!(m["type"], "games");
        if let Some(g) = m["games"].as_array().and_then(|g| g.first()) {
            assert_eq!(g["game"], "jumpy3");
            break g["key"].as_str().unwrap().to_string();
        }
    };
    let mut game_ws = web.socket(&format!("/api/watch/{key}/socket"));
    let mut seen_moves = Vec::new();
    let last = loop {
        let m = next(&mut game_ws);
        assert_eq!(m["type"], "game", "{m}");
        let moves = strings(&m["moves"]);
        assert!(moves.len() >= seen_moves.len(), "moves only grow");
        seen_moves = moves;
        if m["over"] == true {
            break m;
        }
    };
    for mut p in players {
        let _ = p.wait();
    }
    let _ = serve.wait();
    let names = strings(&last["names"]);
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(sorted, ["ann", "bob"]);
    // The game as the record file has it, replayed by `arena apply`.
    let text = std::fs::read_to_string(&record).unwrap();
    let moves: Vec<String> = text
        .lines()
        .filter_map(|l| {
            l.split_once(" move ")
                .map(|(_, rest)| rest.splitn(3, ' ').nth(2).unwrap().to_string())
        })
        .collect();
    assert_eq!(strings(&last["moves"]), moves);
    let start = last["start"].as_str().unwrap();
    let mut args = vec!["apply", "jumpy3", start];
    args.extend(moves.iter().map(String::as_str));
    let applied = stdout_lines(&args);
    assert_eq!(last["position"], applied[0].as_str());
    let end = text.lines().find(|l| l.contains(" end ")).unwrap();
    assert!(
        end.contains(last["result"].as_str().unwrap()),
        "{end} {last}"
    );
    if last["reason"] == "rules" {
        assert_eq!(
            applied.get(1).map(String::as_str),
            Some(format!("result: {}", last["result"].as_str().unwrap()).as_str())
        );
    }
    // Clocks went down from 20 s and never below zero.
    for c in last["clocks"].as_array().unwrap() {
        let c = c.as_i64().unwrap();
        assert!((0..=20_000).contains(&c), "{last}");
    }
    // The page of a watched game; an unknown key.
    let (s, _) = web.get(&format!("/jumpy3?watch={key}"));
    assert_eq!(s, 200);
    let (s, _) = web.get("/api/watch/9-9-9/socket");
    assert_eq!(s, 404);
    let _ = std::fs::remove_file(&record);
}

#[test]
fn without_watch_the_watch_api_says_how_to_start_it() {
    let web = Web::start(&[]);
    let (s, body) = web.get("/api/watch");
    assert_eq!(s, 404);
    assert!(body.contains("--watch"), "{body}");
}

#[test]
fn bad_options_are_refused_with_the_reason() {
    for (args, says) in [
        (vec!["--addr", "localhost"], "--addr"),
        (vec!["--threads", "0"], "--threads"),
        (vec!["--max-searches", "0"], "--max-searches"),
        (vec!["--solve-time", "soon"], "--solve-time"),
    ] {
        let mut all = vec!["web"];
        all.extend(&args);
        let out = arena(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // An address in use: a failure while working (exit code 1), naming the address.
    let web = Web::start(&[]);
    let out = arena(&["web", "--addr", &web.addr]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&web.addr));
    let help = stdout_lines(&["web", "--help"]);
    assert!(help.iter().any(|l| l.starts_with("Example")), "{help:?}");
}

#[test]
fn watch_reads_the_record_format_and_a_replaced_file() {
    let record = temp_file("replaced");
    let start = "Wwww........bbbB w";
    std::fs::write(
        &record,
        format!(
            "server 1 jumpy3 1700000000 time=5000 moves=150\n\
             1 game jumpy3 5000 150 ann bob\n\
             1 start {start}\n\
             1 move w 1200 4\n\
             1 illegal b 300 17\n\
             1 move b 800 13\n"
        ),
    )
    .unwrap();
    let web = Web::start(&["--watch", record.to_str().unwrap()]);
    let mut list = web.socket("/api/watch/socket");
    let key = loop {
        let m = next(&mut list);
        if let Some(g) = m["games"].as_array().and_then(|g| g.first()) {
            break g["key"].as_str().unwrap().to_string();
        }
    };
    let mut game = web.socket(&format!("/api/watch/{key}/socket"));
    let m = next(&mut game);
    assert_eq!(strings(&m["moves"]), ["4", "13"]);
    assert_eq!(m["clocks"], json!([3800, 4200]));
    assert_eq!(m["names"], json!(["ann", "bob"]));
    assert_eq!(
        m["illegal"],
        Value::Null,
        "a move after the refusal clears it"
    );
    assert_eq!(m["over"], false);
    assert_eq!(m["to_move"], 0);
    assert_eq!(
        m["position"],
        stdout_lines(&["apply", "jumpy3", start, "4", "13"])[0].as_str()
    );
    // Lines appended: a refusal, then the end.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&record)
        .unwrap();
    writeln!(f, "1 illegal w 100 99").unwrap();
    let m = next(&mut game);
    assert_eq!(m["illegal"], json!({ "side": "w", "text": "99" }));
    writeln!(f, "1 end time winner b plies=2 w=0 b=4200").unwrap();
    drop(f);
    let m = next(&mut game);
    assert_eq!(
        (m["over"].clone(), m["reason"].clone(), m["result"].clone()),
        (json!(true), json!("time"), json!("winner b"))
    );
    assert_eq!(m["clocks"], json!([0, 4200]));
    // The file replaced by a shorter one: its old games go, the new one comes.
    std::fs::write(
        &record,
        "server 1 throne 1700000001 time=120000 moves=150\n7 game throne 120000 150 cy dee\n",
    )
    .unwrap();
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let m = next(&mut list);
        let games = m["games"].as_array().unwrap();
        if games.len() == 1 && games[0]["game"] == "throne" {
            assert_eq!(games[0]["id"], 7);
            break;
        }
        assert!(Instant::now() < deadline, "{m}");
    }
    // Read on from where the new file ended: each game once.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&record)
        .unwrap();
    writeln!(f, "8 game throne 120000 150 ed fay").unwrap();
    drop(f);
    loop {
        let m = next(&mut list);
        let ids: Vec<u64> = m["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_u64().unwrap())
            .collect();
        if ids.contains(&8) {
            assert_eq!(ids, [8, 7], "{m}");
            break;
        }
        assert!(ids == [7], "{m}");
    }
    let m = next(&mut game);
    assert_eq!(m["type"], "gone");
    let _ = std::fs::remove_file(&record);
}

#[test]
fn watch_reports_a_record_line_it_cannot_follow() {
    let record = temp_file("unknown-event");
    std::fs::write(
        &record,
        "server 1 jumpy3 1700000000 time=5000 moves=150\n\
         1 game jumpy3 5000 150 ann bob\n\
         1 start Wwww........bbbB w\n\
         1 teleport w 100 4\n\
         2 move w 100 4\n",
    )
    .unwrap();
    let web = Web::start(&["--watch", record.to_str().unwrap()]);
    let mut list = web.socket("/api/watch/socket");
    let deadline = Instant::now() + TIMEOUT;
    let error = loop {
        let m = next(&mut list);
        if let Some(e) = m["files"][0]["error"].as_str() {
            break e.to_string();
        }
        assert!(Instant::now() < deadline, "{m}");
    };
    // The first line the server's reader refuses, with its number; the game goes on.
    assert!(
        error.contains("line 4") && error.contains("teleport"),
        "{error}"
    );
    let (_, body) = web.get("/api/watch");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["games"][0]["id"], 1, "{v}");
    let _ = std::fs::remove_file(&record);
}
