//! `GET /api/game/GAME/search`: a WebSocket on which the page asks for searches (an engine
//! seat's move, or analysis) and gets every completed iteration as it comes.
//!
//! The page sends `{"start": …, "moves": […], "spec": "engine", "time_ms": 1000}` (or with
//! `"clock": {"remaining_ms": …, "moves_to_go": …}`, or `"depth"`, or `"analyse": true`);
//! the server answers `{"type": "queued"}` when every search slot is busy, `{"type":
//! "started"}`, one `{"type": "info", …}` per completed iteration and `{"type": "done",
//! "best": …, …}`, or `{"type": "error", "error": …}`. `{"type": "stop"}` stops the search
//! (its `done` follows); a socket closed mid-search stops it too, and its slot is free again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State as AxState};
use axum::response::{IntoResponse, Response};
use plyforge::{Engine, GameKind, Limits, SearchInfo, State};
use serde::Deserialize;
use serde_json::{json, Value};

use super::api::{replay, RecordRequest};
use super::{json as js, ApiError, App};

/// Longest search the page may ask for.
const MAX_TIME_MS: u64 = 10 * 60 * 1000;
/// Deepest.
const MAX_DEPTH: u32 = 200;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    /// Time left on the mover's clock.
    remaining_ms: u64,
    /// Moves the mover still has to make, if there is a limit.
    #[serde(default)]
    moves_to_go: Option<u32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    /// `search` (the default) or `stop`.
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// The engine specification (as `arena match --engine`); default `engine`.
    #[serde(default)]
    spec: Option<String>,
    /// Time for this move (used when the spec has no limit of its own, or for analysis).
    #[serde(default)]
    time_ms: Option<u64>,
    /// A fixed depth.
    #[serde(default)]
    depth: Option<u32>,
    /// The mover's clock, when the game has a time control.
    #[serde(default)]
    clock: Option<ClockRequest>,
    /// Analysis: the given time or depth, whatever the spec's own limit.
    #[serde(default)]
    analyse: bool,
}

/// The upgrade, once the game is known.
pub(crate) async fn socket(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    Path(game): Path<String>,
    AxState(app): AxState<Arc<App>>,
    headers: axum::http::HeaderMap,
) -> Response {
    if let Err(e) = super::check_origin(&headers) {
        return e.into_response();
    }
    let kind = match app.game(&game) {
        Ok(k) => k,
        Err(e) => return e.into_response(),
    };
    match ws {
        Ok(ws) => ws.on_upgrade(move |s| serve(s, kind, app)),
        Err(e) => ApiError::new(
            e.status(),
            format!("a WebSocket is needed here: {}", e.body_text()),
        )
        .into_response(),
    }
}

async fn send(socket: &mut WebSocket, v: Value) -> bool {
    socket
        .send(Message::Text(v.to_string().into()))
        .await
        .is_ok()
}

async fn send_error(socket: &mut WebSocket, message: impl Into<String>) -> bool {
    send(socket, json!({ "type": "error", "error": message.into() })).await
}

/// One socket: requests one after the other until it closes.
async fn serve(mut socket: WebSocket, kind: GameKind, app: Arc<App>) {
    while let Some(msg) = socket.recv().await {
        let text = match msg {
            Ok(Message::Text(t)) => t.to_string(),
            Ok(Message::Binary(_)) => {
                if !send_error(&mut socket, "send JSON text, not binary").await {
                    return;
                }
                continue;
            }
            Ok(Message::Close(_)) | Err(_) => return,
            Ok(_) => continue,
        };
        let req: SearchRequest = match serde_json::from_str(&text) {
            Ok(r) => r,
            Err(e) => {
                if !send_error(&mut socket, format!("bad request: {e}")).await {
                    return;
                }
                continue;
            }
        };
        match req.kind.as_deref() {
            None | Some("search") => {}
            Some("stop") => {
                // Nothing runs: nothing to stop.
                if !send(&mut socket, json!({ "type": "idle" })).await {
                    return;
                }
                continue;
            }
            Some(other) => {
                if !send_error(
                    &mut socket,
                    format!("unknown request type {other:?} (search or stop)"),
                )
                .await
                {
                    return;
                }
                continue;
            }
        }
        let prepared = match prepare(kind, &app, req) {
            Ok(p) => p,
            Err(e) => {
                if !send_error(&mut socket, e.message).await {
                    return;
                }
                continue;
            }
        };
        if !run(&mut socket, &app, prepared).await {
            return;
        }
    }
}

struct Prepared {
    state: State,
    engine: Engine,
    limits: Option<Limits>,
}

fn prepare(kind: GameKind, app: &App, r: SearchRequest) -> Result<Prepared, ApiError> {
    let state = replay(
        kind,
        &RecordRequest {
            start: r.start,
            moves: r.moves,
        },
    )?;
    if let Some(result) = state.result() {
        return Err(ApiError::bad(format!(
            "the game is already over ({result}): nothing to search"
        )));
    }
    let spec = r.spec.as_deref().unwrap_or("engine");
    let own = kind.parse_spec(spec)?;
    let (own_depth, own_nodes, own_time) = (own.depth, own.nodes, own.time);
    let own_limit = own_depth.is_some() || own_nodes.is_some() || own_time.is_some();
    if let Some(t) = r.time_ms {
        if t == 0 || t > MAX_TIME_MS {
            return Err(ApiError::bad(format!(
                "time_ms {t}: between 1 and {MAX_TIME_MS}"
            )));
        }
    }
    if let Some(d) = r.depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(ApiError::bad(format!(
                "depth {d}: between 1 and {MAX_DEPTH}"
            )));
        }
    }
    let limits = if let Some(c) = &r.clock {
        if c.remaining_ms == 0 {
            return Err(ApiError::bad("clock: no time left"));
        }
        // The one clock rule, with the spec's own limits within it; the page's moves to go
        // (a contest's count) cap the game's own estimate.
        let own = own.limits(Limits::default());
        Some(state.clock_limits(
            own,
            Duration::from_millis(c.remaining_ms),
            c.moves_to_go.filter(|&n| n > 0),
        ))
    } else if r.analyse || !own_limit {
        match (r.time_ms, r.depth) {
            (Some(t), d) => Some(Limits::movetime(Duration::from_millis(t)).with_depth(d)),
            (None, Some(d)) => Some(Limits::depth(d)),
            (None, None) if r.analyse => Some(Limits::movetime(Duration::from_millis(MAX_TIME_MS))),
            (None, None) => None,
        }
    } else {
        None
    };
    let engine = app.engine(kind, spec)?;
    Ok(Prepared {
        state,
        engine,
        limits,
    })
}

/// Raises a stop flag (again: a search resets its flag when it starts, so the flag is
/// raised until the search has ended).
fn raise(stop: &Option<Arc<AtomicBool>>) {
    if let Some(s) = stop {
        s.store(true, Ordering::SeqCst);
    }
}

/// A search's permit: at once, or after a `queued` message when one is free. `Err` when
/// the search is not to run: stopped while queued (`done` sent; `true` while the socket is
/// open) or the socket closed (`false`); the engine is kept for the next search.
async fn permit(
    socket: &mut WebSocket,
    app: &Arc<App>,
    engine: Engine,
    state: &State,
) -> Result<(tokio::sync::OwnedSemaphorePermit, Engine), bool> {
    if let Ok(permit) = Arc::clone(&app.searches).try_acquire_owned() {
        return Ok((permit, engine));
    }
    if !send(socket, json!({ "type": "queued" })).await {
        return Err(false);
    }
    loop {
        tokio::select! {
            permit = Arc::clone(&app.searches).acquire_owned() => match permit {
                Ok(permit) => return Ok((permit, engine)),
                Err(_) => return Err(false),
            },
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(t))) if is_stop(&t) => {
                    app.keep_engine(engine);
                    return Err(send(socket, json!({
                        "type": "done", "stopped": true, "best": null,
                        "position": state.position(),
                    })).await);
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                    app.keep_engine(engine);
                    return Err(false);
                }
                _ => {}
            },
        }
    }
}

/// Runs one search, streaming its iterations; false once the socket is closed.
async fn run(socket: &mut WebSocket, app: &Arc<App>, p: Prepared) -> bool {
    let Prepared {
        state,
        engine,
        limits,
    } = p;
    let (permit, engine) = match permit(socket, app, engine, &state).await {
        Ok(p) => p,
        Err(open) => return open,
    };
    let running = app.running();
    let stop = engine.stop_handle();
    let position = state.position();
    if !send(
        socket,
        json!({ "type": "started", "position": position, "spec": engine.spec() }),
    )
    .await
    {
        return false;
    }
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<SearchInfo>();
    let mut task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let _running = running;
        let mut engine = engine;
        let result = engine.search(&state, limits, &mut |i| {
            let _ = tx.send(i.clone());
        });
        (engine, result)
    });
    let mut open = true;
    let mut stopping = false;
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    loop {
        tokio::select! {
            res = &mut task => {
                while let Ok(i) = rx.try_recv() {
                    if open {
                        open = send(socket, js::info(&i, "info")).await;
                    }
                }
                let msg = match res {
                    Ok((engine, Ok(info))) => {
                        app.keep_engine(engine);
                        let mut v = js::info(&info, "done");
                        v["stopped"] = json!(stopping);
                        v["position"] = json!(position);
                        v
                    }
                    Ok((_, Err(e))) => json!({ "type": "error", "error": e.to_string() }),
                    Err(e) => json!({ "type": "error", "error": format!("the search failed: {e}") }),
                };
                return open && send(socket, msg).await;
            }
            Some(i) = rx.recv() => {
                if open && !send(socket, js::info(&i, "info")).await {
                    open = false;
                    stopping = true;
                    raise(&stop);
                }
            }
            msg = socket.recv(), if open => match msg {
                Some(Ok(Message::Text(t))) => {
                    if is_stop(&t) {
                        stopping = true;
                        raise(&stop);
                    } else if !send_error(socket, "a search is running: send {\"type\": \"stop\"} first").await {
                        open = false;
                        stopping = true;
                        raise(&stop);
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                    open = false;
                    stopping = true;
                    raise(&stop);
                }
                Some(Ok(_)) => {}
            },
            _ = tick.tick(), if stopping => raise(&stop),
        }
    }
}

fn is_stop(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("type").and_then(Value::as_str).map(|t| t == "stop"))
        .unwrap_or(false)
}
