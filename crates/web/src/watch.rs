//! `arena web --watch FILE`: follows the record files of `arena serve` (the format of
//! `docs/server-protocol.md`, "Record file"), which the server appends to line by line, and
//! shows each game live. The server is not touched: the file is the interface.
//!
//! A thread reads what was appended to each file four times a second; the page gets the
//! list of games and one game's record over WebSockets (`/api/watch/socket`,
//! `/api/watch/KEY/socket`), a message at every change.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State as AxState};
use axum::response::Response;
use axum::Json;
use net::server::reader::{self, End, Event};
use plyforge::{GameKind, State};
use serde_json::{json, Value};

use super::{ApiError, App};

/// How often the files are read.
const POLL: Duration = Duration::from_millis(250);

/// One game of a record file.
struct Watched {
    /// `FILE-SESSION-ID`: unique over the files and the server runs in them.
    key: String,
    id: u64,
    kind: GameKind,
    names: Vec<String>,
    /// Each side's clock at the start, ms.
    time_ms: u64,
    /// Moves per side.
    moves_limit: u32,
    start: Option<String>,
    moves: Vec<String>,
    /// Each side's clock now (as of the last line), ms.
    clocks: Vec<i64>,
    /// The last refused attempt: side, text.
    illegal: Option<(String, String)>,
    /// `(reason, result)` once over.
    over: Option<(String, String)>,
    /// The game as replayed through the rules.
    state: Option<State>,
    /// A line of this game that could not be followed.
    error: Option<String>,
    /// When its last line was read.
    updated: Instant,
}

#[derive(Default)]
struct FileState {
    offset: u64,
    partial: String,
    /// Lines read.
    lines: usize,
    session: u32,
    kind: Option<GameKind>,
    /// The file cannot be read now.
    error: Option<String>,
    /// The first line that could not be followed.
    bad: Option<String>,
}

#[derive(Default)]
struct Inner {
    files: Vec<FileState>,
    games: Vec<Watched>,
}

/// The followed files and their games.
pub(crate) struct Watcher {
    paths: Vec<PathBuf>,
    inner: Mutex<Inner>,
    version: tokio::sync::watch::Sender<u64>,
}

impl Watcher {
    pub(crate) fn new(paths: Vec<PathBuf>) -> Watcher {
        let inner = Inner {
            files: paths.iter().map(|_| FileState::default()).collect(),
            games: Vec::new(),
        };
        Watcher {
            paths,
            inner: Mutex::new(inner),
            version: tokio::sync::watch::channel(0).0,
        }
    }

    pub(crate) fn files_text(&self) -> String {
        self.paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads what was appended to every file; true if anything changed.
    fn poll(&self) -> bool {
        let mut changed = false;
        for (i, path) in self.paths.iter().enumerate() {
            let read = read_new(path, &mut self.lock().files[i]);
            let mut inner = self.lock();
            match read {
                Ok(Reset::Truncated(lines)) => {
                    // A new file in its place (read_new has started it afresh).
                    let prefix = format!("{i}-");
                    inner.games.retain(|g| !g.key.starts_with(&prefix));
                    changed = true;
                    for l in lines {
                        inner.line(i, &l);
                    }
                }
                Ok(Reset::Appended(lines)) => {
                    if inner.files[i].error.take().is_some() {
                        changed = true;
                    }
                    for l in &lines {
                        inner.line(i, l);
                    }
                    changed |= !lines.is_empty();
                }
                Err(e) => {
                    let e = Some(format!("{}: {e}", path.display()));
                    if inner.files[i].error != e {
                        inner.files[i].error = e;
                        changed = true;
                    }
                }
            }
        }
        changed
    }
}

enum Reset {
    Appended(Vec<String>),
    /// The file is shorter than what was read: it was replaced; these are its lines.
    Truncated(Vec<String>),
}

/// The whole lines appended since the last read.
fn read_new(path: &std::path::Path, f: &mut FileState) -> std::io::Result<Reset> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let truncated = len < f.offset;
    let from = if truncated { 0 } else { f.offset };
    if len == from {
        return Ok(Reset::Appended(Vec::new()));
    }
    // At most 4 MiB a poll: a large file is taken in over several.
    let want = (len - from).min(4 << 20);
    file.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::with_capacity(want as usize);
    file.take(want).read_to_end(&mut buf)?;
    let mut text = if truncated {
        String::new()
    } else {
        std::mem::take(&mut f.partial)
    };
    text.push_str(&String::from_utf8_lossy(&buf));
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let partial = lines.pop().unwrap_or_default();
    if truncated {
        *f = FileState::default();
    }
    f.partial = partial;
    f.offset = from + buf.len() as u64;
    let lines = lines
        .into_iter()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect();
    Ok(if truncated {
        Reset::Truncated(lines)
    } else {
        Reset::Appended(lines)
    })
}

impl Inner {
    fn game(&mut self, file: usize, id: u64) -> Option<&mut Watched> {
        let key = format!("{file}-{}-{id}", self.files[file].session);
        self.games.iter_mut().find(|g| g.key == key)
    }

    /// Takes in one line of file `file`, read by the match server's own reader
    /// ([`reader::parse_line`]): a line it refuses, or an event that does not fit (a game
    /// before any `server` line, an event of a game never begun), is the file's error.
    fn line(&mut self, file: usize, line: &str) {
        self.files[file].lines += 1;
        let n = self.files[file].lines;
        let event = match reader::parse_line(line) {
            Ok(e) => e,
            Err(e) => return self.bad(file, format!("line {n}: {e}")),
        };
        match event {
            Event::Server { game, .. } => {
                let f = &mut self.files[file];
                f.session += 1;
                match GameKind::from_name(&game) {
                    Ok(k) => f.kind = Some(k),
                    Err(e) => {
                        f.kind = None;
                        self.bad(file, format!("line {n}: {e}"));
                    }
                }
            }
            Event::Game {
                id,
                time_ms,
                moves,
                names,
                ..
            } => self.begin(file, n, id, time_ms, moves, names),
            Event::Start { id, position } => self.with_game(file, n, id, |g| {
                match g.kind.game_from(&position) {
                    Ok(s) => g.state = Some(s),
                    Err(e) => g.error = Some(e.to_string()),
                }
                g.start = Some(position);
            }),
            Event::Move { id, side, ms, text } => {
                self.with_game(file, n, id, |g| g.moved(&side, ms, text))
            }
            Event::Illegal { id, side, text, .. } => {
                self.with_game(file, n, id, |g| g.illegal = Some((side, text)))
            }
            Event::End(id, end) => self.with_game(file, n, id, |g| g.ended(end)),
        }
    }

    /// A line of file `file` that cannot be followed: kept as the file's error until the
    /// file is replaced.
    fn bad(&mut self, file: usize, reason: String) {
        self.files[file].bad.get_or_insert(reason);
    }

    /// `ID game GAME TIME MOVES NAME…`: a game begins (at line `n`).
    fn begin(
        &mut self,
        file: usize,
        n: usize,
        id: u64,
        time_ms: u64,
        moves: u32,
        names: Vec<String>,
    ) {
        let Some(kind) = self.files[file].kind else {
            return self.bad(
                file,
                format!("line {n}: game {id} before a `server` line of a known game"),
            );
        };
        let key = format!("{file}-{}-{id}", self.files[file].session);
        self.games.retain(|g| g.key != key);
        self.games.push(Watched {
            key,
            id,
            kind,
            names,
            time_ms,
            moves_limit: moves,
            start: None,
            moves: Vec::new(),
            clocks: vec![time_ms as i64; kind.players()],
            illegal: None,
            over: None,
            state: None,
            error: None,
            updated: Instant::now(),
        });
    }

    /// Applies an event to game `id` of file `file` (an error if it never began).
    fn with_game(&mut self, file: usize, n: usize, id: u64, f: impl FnOnce(&mut Watched)) {
        match self.game(file, id) {
            Some(g) => {
                g.updated = Instant::now();
                f(g);
            }
            None => self.bad(
                file,
                format!("line {n}: game {id} has no `game` line before this"),
            ),
        }
    }
}

impl Watched {
    /// The index of the side of this letter.
    fn side(&self, letter: &str) -> Option<usize> {
        (0..self.kind.players()).find(|&p| self.kind.player_letter(p) == letter)
    }

    /// `ID move SIDE MS MOVE`: the move played, the clock run down.
    fn moved(&mut self, side: &str, ms: u64, mv: String) {
        if let Some(p) = self.side(side) {
            self.clocks[p] -= ms as i64;
        }
        if let Some(s) = &mut self.state {
            if let Err(e) = s.play(&mv) {
                self.error = Some(format!(
                    "move {} ({mv:?}): {}",
                    self.moves.len() + 1,
                    e.reason()
                ));
                self.state = None;
            }
        }
        self.moves.push(mv);
        self.illegal = None;
    }

    /// `ID end REASON RESULT plies=N L=MS…`: over, with the clocks left.
    fn ended(&mut self, end: End) {
        for (letter, ms) in &end.clocks {
            if let Some(p) = self.side(letter) {
                self.clocks[p] = *ms as i64;
            }
        }
        self.over = Some((end.reason, end.result));
    }
}

impl Watched {
    /// The seat whose clock runs now, if the game goes on.
    fn running(&self) -> Option<usize> {
        if self.over.is_some() {
            return None;
        }
        self.state.as_ref().and_then(State::to_move)
    }

    fn summary(&self) -> Value {
        json!({
            "key": self.key,
            "id": self.id,
            "game": self.kind.name(),
            "title": self.kind.title(),
            "names": self.names,
            "letters": (0..self.kind.players()).map(|p| self.kind.player_letter(p)).collect::<Vec<_>>(),
            "plies": self.moves.len(),
            "over": self.over.is_some(),
            "reason": self.over.as_ref().map(|o| o.0.clone()),
            "result": self.over.as_ref().map(|o| o.1.clone()),
            "to_move": self.running(),
            "since_ms": self.updated.elapsed().as_millis() as u64,
        })
    }

    fn detail(&self) -> Value {
        let mut v = self.summary();
        v["start"] = json!(self.start);
        v["moves"] = json!(self.moves);
        v["clocks"] = json!(self.clocks);
        v["time_ms"] = json!(self.time_ms);
        v["moves_limit"] = json!(self.moves_limit);
        v["illegal"] = json!(self
            .illegal
            .as_ref()
            .map(|(s, t)| json!({ "side": s, "text": t })));
        v["error"] = json!(self.error);
        v["position"] = json!(self.state.as_ref().map(State::position));
        v
    }
}

impl Inner {
    fn list(&self, paths: &[PathBuf]) -> Value {
        json!({
            "type": "games",
            "files": paths.iter().zip(&self.files).map(|(p, f)| json!({
                "path": p.display().to_string(),
                "game": f.kind.map(GameKind::name),
                "error": f.error.as_ref().or(f.bad.as_ref()),
            })).collect::<Vec<_>>(),
            // The newest first.
            "games": self.games.iter().rev().map(Watched::summary).collect::<Vec<_>>(),
        })
    }
}

/// Follows the files until the program ends.
pub(crate) async fn follow(w: Arc<Watcher>) {
    let _ = tokio::task::spawn_blocking(move || loop {
        if w.poll() {
            w.version.send_modify(|v| *v += 1);
        }
        std::thread::sleep(POLL);
    })
    .await;
}

fn watcher(app: &App) -> Result<Arc<Watcher>, ApiError> {
    app.watch.clone().ok_or_else(|| {
        ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            "no record file is watched: start `arena web --watch FILE`",
        )
    })
}

/// `GET /api/watch`: the games of the watched files.
pub(crate) async fn list(AxState(app): AxState<Arc<App>>) -> Result<Json<Value>, ApiError> {
    let w = watcher(&app)?;
    let v = w.lock().list(&w.paths);
    Ok(Json(v))
}

/// `GET /api/watch/socket`: the list of games, again at every change.
pub(crate) async fn list_socket(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    AxState(app): AxState<Arc<App>>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    super::check_origin(&headers)?;
    let w = watcher(&app)?;
    Ok(upgrade(ws)?.on_upgrade(move |s| push(s, w, None)))
}

fn upgrade(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<WebSocketUpgrade, ApiError> {
    ws.map_err(|e| {
        ApiError::new(
            e.status(),
            format!("a WebSocket is needed here: {}", e.body_text()),
        )
    })
}

/// `GET /api/watch/KEY/socket`: one game's record, again at every change.
pub(crate) async fn game_socket(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    Path(key): Path<String>,
    AxState(app): AxState<Arc<App>>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    super::check_origin(&headers)?;
    let w = watcher(&app)?;
    if !w.lock().games.iter().any(|g| g.key == key) {
        return Err(ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            format!("no watched game {key:?}"),
        ));
    }
    Ok(upgrade(ws)?.on_upgrade(move |s| push(s, w, Some(key))))
}

/// Sends the list (or one game) now and after every change, until the socket closes.
async fn push(mut socket: WebSocket, w: Arc<Watcher>, key: Option<String>) {
    let mut rx = w.version.subscribe();
    let mut last = String::new();
    loop {
        let v = {
            let inner = w.lock();
            match &key {
                None => inner.list(&w.paths),
                Some(k) => match inner.games.iter().find(|g| &g.key == k) {
                    Some(g) => {
                        let mut d = g.detail();
                        d["type"] = json!("game");
                        d
                    }
                    None => json!({ "type": "gone", "key": k }),
                },
            }
        };
        let mut text = v.to_string();
        // `since_ms` changes every time: compare without it.
        let same = {
            let mut a = v.clone();
            strip_since(&mut a);
            let t = a.to_string();
            let same = t == last;
            last = t;
            same
        };
        if !same
            && socket
                .send(Message::Text(std::mem::take(&mut text).into()))
                .await
                .is_err()
        {
            return;
        }
        tokio::select! {
            changed = rx.changed() => if changed.is_err() { return },
            msg = socket.recv() => match msg {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                _ => {}
            },
        }
    }
}

fn strip_since(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("since_ms");
            m.values_mut().for_each(strip_since);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_since),
        _ => {}
    }
}
