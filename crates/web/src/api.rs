//! The JSON API: the games, a game's state from its record, a move, an exact solve.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State as AxState};
use axum::Json;
use plyforge::{GameKind, SolveSettings, State};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{json as js, ApiError, App};

/// Most moves a record sent to the server may have.
pub(crate) const MAX_MOVES: usize = 5000;

/// A game's record as the page sends it: a start position (notation, `start`) and the moves
/// played from it, in notation.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordRequest {
    /// The start: notation, or `start` (the default).
    #[serde(default)]
    pub(crate) start: Option<String>,
    /// The moves from the start.
    #[serde(default)]
    pub(crate) moves: Vec<String>,
}

/// A move to play after a record.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayRequest {
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// The move, in notation.
    #[serde(rename = "move")]
    mv: String,
}

/// A JSON body, or an error that says what is wrong with it.
fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(t)| t)
        .map_err(|e| ApiError::bad(format!("bad request body: {}", e.body_text())))
}

/// The state reached by playing a record's moves from its start; the error names the move
/// that cannot be played by its number in the list.
pub(crate) fn replay(kind: GameKind, r: &RecordRequest) -> Result<State, ApiError> {
    if r.moves.len() > MAX_MOVES {
        return Err(ApiError::bad(format!(
            "{} moves: a record may have at most {MAX_MOVES}",
            r.moves.len()
        )));
    }
    let start = r.start.as_deref().unwrap_or("start");
    let mut state = kind.game_from(start)?;
    for (i, m) in r.moves.iter().enumerate() {
        state.play(m).map_err(|e| {
            let mut err = ApiError::from(e.clone());
            err.message = format!("move {} ({m:?}): {}", i + 1, e.reason());
            err.index = Some(i + 1);
            err
        })?;
    }
    Ok(state)
}

/// `GET /api/games`: every game, and whether record files are being watched.
pub(crate) async fn games(AxState(app): AxState<Arc<App>>) -> Json<Value> {
    Json(json!({
        "games": app.games.iter().map(|&k| js::game(k)).collect::<Vec<_>>(),
        "watching": app.watch.is_some(),
        "threads": app.threads,
    }))
}

/// `GET /api/status`: searches and solves running now.
pub(crate) async fn status(AxState(app): AxState<Arc<App>>) -> Json<Value> {
    Json(json!({
        "running": app.running.load(Ordering::SeqCst),
        "free": app.searches.available_permits(),
    }))
}

/// `POST /api/game/GAME/state` with a record: the state it reaches.
pub(crate) async fn state(
    Path(game): Path<String>,
    AxState(app): AxState<Arc<App>>,
    b: Result<Json<RecordRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let kind = app.game(&game)?;
    let r = body(b)?;
    Ok(Json(js::state(&replay(kind, &r)?)))
}

/// `POST /api/game/GAME/play` with a record and a move: the state after the move, or why
/// it cannot be played.
pub(crate) async fn play(
    Path(game): Path<String>,
    AxState(app): AxState<Arc<App>>,
    b: Result<Json<PlayRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let kind = app.game(&game)?;
    let p = body(b)?;
    let mut state = replay(
        kind,
        &RecordRequest {
            start: p.start,
            moves: p.moves,
        },
    )?;
    let played = state.play(&p.mv).map_err(|e| {
        let reason = e.reason();
        let mut err = ApiError::from(e.clone());
        if matches!(e, plyforge::Error::Move { .. }) {
            let quoted = format!("{:?}", p.mv.trim());
            // Some games' reasons name the move already.
            err.message = if reason.contains(&quoted) {
                format!("illegal move: {reason}")
            } else {
                format!("illegal move {quoted}: {reason}")
            };
        }
        err
    })?;
    let mut out = js::state(&state);
    out["played"] = json!(played);
    Ok(Json(out))
}

/// `POST /api/game/GAME/solve` with a record: the exact value and every best move (Jumpy3,
/// Chaos Clock).
pub(crate) async fn solve(
    AxState(app): AxState<Arc<App>>,
    Path(game): Path<String>,
    b: Result<Json<RecordRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let kind = app.game(&game)?;
    let r = body(b)?;
    let state = replay(kind, &r)?;
    if !kind.has_solver() {
        return Err(ApiError::bad(format!(
            "{} has no exact solver",
            kind.title()
        )));
    }
    if let Some(result) = state.result() {
        return Err(ApiError::new(
            axum::http::StatusCode::UNPROCESSABLE_ENTITY,
            format!("the game is already over ({result})"),
        ));
    }
    let permit = Arc::clone(&app.searches)
        .acquire_owned()
        .await
        .map_err(|_| ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, "stopping"))?;
    let running = app.running();
    let table = app.solve_table.clone();
    let time = app.solve_time;
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let _running = running;
        let settings = SolveSettings::default()
            .with_table(table.as_deref())
            .with_time(Some(time));
        state.solve(&settings).map(|s| js::solution(&s, &state))
    })
    .await
    .map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("the solver failed: {e}"),
        )
    })??;
    Ok(Json(out))
}
