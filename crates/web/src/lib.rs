//! The plyforge games in a browser, for any registered game (`arena web`): an HTTP server
//! (axum) with the page's files embedded in the binary, a JSON API over the facade
//! (`plyforge::State`, `plyforge::view`), engine searches streamed over WebSockets, and,
//! with [`WebSettings::watch`], the games of a match server's record file
//! ([`net::server`], the crate `plyforge-net`) followed live.
//!
//! ```
//! use plyforge::GameKind;
//! use plyforge_web::WebSettings;
//!
//! let games = vec![GameKind::from_name("jumpy3")?, GameKind::from_name("throne")?];
//! let settings = WebSettings {
//!     addr: "127.0.0.1:0".into(), // a free port
//!     ..WebSettings::new(games)
//! };
//! settings.check()?; // what `serve` checks first: the address, threads, the solve time
//! // plyforge_web::serve(&settings)?; would serve the page until Ctrl-C
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The server keeps no game: every request carries the game's record (start position and
//! moves), so a page can go back and forth, branch, reload from its URL and be shared
//! without any state here. It holds no rule of any game: what the page draws comes from
//! `plyforge::view`. The page and its API are described in the repository's `docs/web.md`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use tokio::sync::Semaphore;
use tower_http::set_header::SetResponseHeaderLayer;

pub use net::Error;

mod api;
mod json;
mod search;
mod watch;

/// What the web server serves, and how. Each field is `arena web`'s option of the same
/// name.
#[derive(Clone, Debug)]
pub struct WebSettings {
    /// Where to listen (IP:PORT; port 0 picks a free port).
    pub addr: String,
    /// Engine threads unless a spec says otherwise.
    pub threads: usize,
    /// Searches running at once (more wait their turn); `None`: the cores.
    pub max_searches: Option<usize>,
    /// Record files of the match server to follow.
    pub watch: Vec<PathBuf>,
    /// The solved table of a game whose solver keeps one (read, or built and saved).
    pub solve_table: Option<PathBuf>,
    /// Longest a solve may take.
    pub solve_time: Duration,
    /// The games the page serves.
    pub games: Vec<plyforge::GameKind>,
}

impl WebSettings {
    /// `arena web`'s defaults for these games: 127.0.0.1:8080, one thread per search, a
    /// search per core, solves of at most 30 s, no record followed.
    pub fn new(games: Vec<plyforge::GameKind>) -> WebSettings {
        WebSettings {
            addr: "127.0.0.1:8080".to_string(),
            threads: 1,
            max_searches: None,
            watch: Vec::new(),
            solve_table: None,
            solve_time: Duration::from_secs(30),
            games,
        }
    }

    /// Checks the settings: the address to listen on.
    pub fn check(&self) -> Result<SocketAddr, Error> {
        check(self).map(|(addr, _)| addr)
    }
}

/// What every request may use.
pub(crate) struct App {
    /// Engine threads unless a spec says otherwise.
    threads: usize,
    /// One permit per search (or solve) allowed to run at once.
    searches: Arc<Semaphore>,
    /// Searches and solves running now.
    running: AtomicUsize,
    /// The solved table file of a game whose solver keeps one.
    solve_table: Option<PathBuf>,
    /// Longest a solve may take.
    solve_time: Duration,
    /// The record files followed, if any.
    watch: Option<Arc<watch::Watcher>>,
    /// Engines kept between searches (their tables stay warm), by game, spec and threads.
    engines: Mutex<Vec<(String, plyforge::Engine)>>,
    /// The games served.
    games: Vec<plyforge::GameKind>,
}

/// An error answer: a status and a message naming what is wrong.
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
    /// For a record that cannot be replayed: the number (from 1) of the move that fails.
    index: Option<usize>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            index: None,
        }
    }
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl From<plyforge::Error> for ApiError {
    fn from(e: plyforge::Error) -> ApiError {
        let status = match e {
            plyforge::Error::UnknownGame { .. } => StatusCode::NOT_FOUND,
            plyforge::Error::Move { .. } | plyforge::Error::GameOver { .. } => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            plyforge::Error::Solve { .. } | plyforge::Error::Resources { .. } => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message, "move_index": self.index })),
        )
            .into_response()
    }
}

const INDEX_HTML: &str = include_str!("assets/index.html");
const GAME_HTML: &str = include_str!("assets/game.html");
const WATCH_HTML: &str = include_str!("assets/watch.html");
const APP_JS: &str = include_str!("assets/app.js");
const WATCH_JS: &str = include_str!("assets/watch.js");
const APP_CSS: &str = include_str!("assets/app.css");
const FAVICON: &str = include_str!("assets/favicon.svg");

fn asset(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// `/GAME`: the page of a game (one page for all, it asks the API which game it is).
async fn game_page(
    axum::extract::Path(game): axum::extract::Path<String>,
    axum::extract::State(app): axum::extract::State<Arc<App>>,
) -> Response {
    match app.game(&game) {
        // The path must be the game's own name (`/jumpy3`, not `/Jumpy3 `).
        Ok(kind) if kind.name() == game => Html(GAME_HTML).into_response(),
        _ => (
            StatusCode::NOT_FOUND,
            Html(format!(
                "<!doctype html><meta charset=utf-8><title>Not found</title>\
                 <p>No game is called {:?}. The games: {}.</p>",
                html_escape(&game),
                app.games
                    .iter()
                    .map(|k| format!("<a href=\"/{0}\">{0}</a>", k.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        )
            .into_response(),
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Refuses a WebSocket opened by a page of another site (a browser sends its `Origin`):
/// the engine on this machine is for this server's own pages. Clients that are not
/// browsers send no `Origin` and are let in.
pub(crate) fn check_origin(headers: &axum::http::HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    if !host.is_empty() && origin_host == host {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("a page from {origin} may not use this server's engine"),
        ))
    }
}

/// A line on stdout, flushed; a closed stdout does not stop the server.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// The routes.
pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX_HTML) }))
        .route("/watch", get(|| async { Html(WATCH_HTML) }))
        .route(
            "/assets/app.js",
            get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/assets/watch.js",
            get(|| async { asset(WATCH_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/assets/app.css",
            get(|| async { asset(APP_CSS, "text/css; charset=utf-8") }),
        )
        .route(
            "/favicon.svg",
            get(|| async { asset(FAVICON, "image/svg+xml") }),
        )
        .route("/api/games", get(api::games))
        .route("/api/status", get(api::status))
        .route("/api/game/{game}/state", post(api::state))
        .route("/api/game/{game}/play", post(api::play))
        .route("/api/game/{game}/solve", post(api::solve))
        .route("/api/game/{game}/search", get(search::socket))
        .route("/api/watch", get(watch::list))
        .route("/api/watch/socket", get(watch::list_socket))
        .route("/api/watch/{key}/socket", get(watch::game_socket))
        .route("/{game}", get(game_page))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page") })
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        ))
        .with_state(app)
}

fn check(o: &WebSettings) -> Result<(SocketAddr, App), Error> {
    let addr: SocketAddr = o.addr.parse().map_err(|_| {
        Error::Settings(format!(
            "--addr {}: give IP:PORT, such as 127.0.0.1:8080",
            o.addr
        ))
    })?;
    if o.threads == 0 || o.threads > 256 {
        return Err(Error::Settings(format!(
            "--threads {}: between 1 and 256",
            o.threads
        )));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max_searches = o.max_searches.unwrap_or(cores.max(1));
    if max_searches == 0 || max_searches > 64 {
        return Err(Error::Settings(format!(
            "--max-searches {max_searches}: between 1 and 64"
        )));
    }
    let solve_time = o.solve_time;
    let watch = if o.watch.is_empty() {
        None
    } else {
        Some(Arc::new(watch::Watcher::new(o.watch.clone())))
    };
    Ok((
        addr,
        App {
            threads: o.threads,
            searches: Arc::new(Semaphore::new(max_searches)),
            running: AtomicUsize::new(0),
            solve_table: o.solve_table.clone(),
            solve_time,
            watch,
            engines: Mutex::new(Vec::new()),
            games: o.games.clone(),
        },
    ))
}

/// Serves the page until Ctrl-C, after a line `listening IP:PORT` and the pages' addresses
/// on stdout.
pub fn serve(o: &WebSettings) -> Result<(), Error> {
    let (addr, app) = check(o)?;
    let app = Arc::new(app);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Io(format!("cannot start the web server's runtime: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Error::Io(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| Error::Io(format!("cannot listen on {addr}: {e}")))?;
        say(&format!("listening {local}"));
        if !local.ip().is_loopback() {
            eprintln!(
                "arena web: listening on {local}, not on loopback: anyone who can reach it can \
                 use this machine's engine (the page has no login)"
            );
        }
        let games = app
            .games
            .iter()
            .map(|k| format!("http://{local}/{}", k.name()))
            .collect::<Vec<_>>()
            .join("  ");
        say(&format!("open http://{local}/ (or {games})"));
        if let Some(w) = &app.watch {
            say(&format!(
                "watching {} at http://{local}/watch",
                w.files_text()
            ));
            tokio::spawn(watch::follow(Arc::clone(w)));
        }
        axum::serve(listener, router(Arc::clone(&app)))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| Error::Io(format!("the web server stopped: {e}")))
    })?;
    runtime.shutdown_timeout(Duration::from_millis(500));
    Ok(())
}

impl App {
    /// The served game of this name (its exact name, as in a page's address), or
    /// [`plyforge::Error::UnknownGame`] naming the served games.
    pub(crate) fn game(&self, name: &str) -> Result<plyforge::GameKind, ApiError> {
        self.games
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::NOT_FOUND,
                    format!(
                        "unknown game {name:?} ({})",
                        self.games
                            .iter()
                            .map(|k| k.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
    }

    /// An engine for this game and spec: one kept from an earlier search, or a new one.
    fn engine(&self, kind: plyforge::GameKind, spec: &str) -> Result<plyforge::Engine, ApiError> {
        let key = format!("{}/{}/{}", kind.name(), spec.trim(), self.threads);
        let mut pool = self.engines.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = pool.iter().position(|(k, _)| *k == key) {
            return Ok(pool.swap_remove(i).1);
        }
        drop(pool);
        Ok(plyforge::Engine::new(kind, spec, Some(self.threads))?)
    }

    /// Gives an engine back for the next search (a few are kept).
    fn keep_engine(&self, engine: plyforge::Engine) {
        const KEPT: usize = 4;
        let key = format!(
            "{}/{}/{}",
            engine.kind().name(),
            engine.spec().trim(),
            self.threads
        );
        let mut pool = self.engines.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() >= KEPT {
            pool.remove(0);
        }
        pool.push((key, engine));
    }

    /// Counts a running search or solve while the guard lives.
    fn running(self: &Arc<Self>) -> RunningGuard {
        self.running.fetch_add(1, Ordering::SeqCst);
        RunningGuard(Arc::clone(self))
    }
}

/// A running search or solve (counted in `/api/status`).
struct RunningGuard(Arc<App>);

impl Drop for RunningGuard {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}
