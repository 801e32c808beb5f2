//! Games shared with the REPL's autosaves ([`crate::autosave`]), and game records to download
//! and to open.
//!
//! A game played in the page is autosaved as a REPL session's is: a file of its own in the
//! autosaves folder, written once the game has changed and after every change, its lock held
//! while the server holds the game (so `boardlab play --resume` does not take it over, and it
//! is released when the game is deleted or the server stops). The page lists the autosaves
//! (`GET /api/saved`) and resumes one (`POST /api/games {"resume": NAME}`), unless a running
//! session (a REPL, or this server) holds it. Files are written on a thread of their own, in
//! order, so a move's answer never waits for the disk.

use super::app::{ApiError, App, check_variant_name, no_game};
use super::games::{Games, Lost, MAX_GAMES, state_of};
use super::slots::Slot;
use crate::autosave::{self, Lock};
use crate::record::Record;
use crate::render::Style;
use crate::session::Session;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// The largest request body of `POST /api/games` (a game record to open).
pub(crate) const MAX_RECORD_BODY: usize = 1 << 20;

/// The most moves a record opened from the page may have (replaying holds the games' thread).
pub(crate) const MAX_RECORD_MOVES: usize = 20_000;

fn failed(status: StatusCode, msg: impl Into<String>) -> ApiError {
    ApiError::new(status, msg)
}

/// `GET /api/saved`: the autosaved games, newest first: `{"saved": [{"name", "variant",
/// "moves", "over", "saved", "live"}…]}` (`live`: a running session holds it).
pub(crate) async fn list(State(app): State<App>) -> Result<Json<Value>, ApiError> {
    let dir = app.games.call(|g: &mut Games| g.saves.as_ref().map(|s| s.dir.clone())).await?;
    let Some(dir) = dir else { return Ok(Json(json!({ "saved": [], "folder": null }))) };
    let folder = dir.display().to_string();
    let found = tokio::task::spawn_blocking(move || autosave::list_in(&dir)).await.map_err(|_| ApiError::from(Lost))?;
    let saved: Vec<Value> = found
        .iter()
        .map(|f| {
            let name = f.path.file_name().map(|n| n.to_string_lossy().to_string());
            let mut v = json!({ "name": name, "saved": f.saved, "live": f.live() });
            match &f.record {
                Ok(r) => {
                    v["variant"] = json!(r.variant);
                    v["moves"] = json!(r.moves.len());
                    v["over"] = json!(r.result.is_some());
                }
                Err(e) => v["error"] = json!(crate::files::quote(&e.to_string())),
            }
            v
        })
        .collect();
    Ok(Json(json!({ "saved": saved, "folder": folder })))
}

/// `POST /api/games {"resume": NAME}`: the autosaved game NAME (as `GET /api/saved` names
/// it) as a new game of the server, its autosave now held here; 409 when a running session
/// holds it.
pub(crate) async fn resume(app: &App, name: String) -> Result<Json<Value>, ApiError> {
    app.games
        .call(move |g: &mut Games| {
            let dir =
                g.saves.as_ref().map(|s| s.dir.clone()).ok_or_else(|| failed(StatusCode::CONFLICT, "this server keeps no autosaves"))?;
            // Only a file of the folder's listing: a name from the browser never becomes a path.
            let found = autosave::list_in(&dir)
                .into_iter()
                .find(|f| f.path.file_name().is_some_and(|n| n.to_string_lossy() == name))
                .ok_or_else(|| {
                    failed(StatusCode::NOT_FOUND, format!("no autosaved game `{}` (GET /api/saved lists them)", crate::files::quote(&name)))
                })?;
            let lock = Lock::take(&found.path).map_err(|e| failed(StatusCode::CONFLICT, e.to_string()))?;
            let rec = found.record.map_err(|e| failed(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
            let s = Session::from_record(&rec, Style::PLAIN).map_err(|e| failed(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
            let slot = Slot::resumed(found.path, lock, &s);
            add(g, s, slot)
        })
        .await?
}

/// Adds a game and answers with its state.
pub(crate) fn add(g: &mut Games, s: Session, slot: Slot) -> Result<Json<Value>, ApiError> {
    let id = g.add_saved(s, slot).ok_or_else(|| {
        failed(StatusCode::SERVICE_UNAVAILABLE, format!("{} games are open, the most at once: delete one first", MAX_GAMES))
    })?;
    let game = g.game(id).ok_or_else(|| no_game(id))?;
    state_of(id, game).map(Json).map_err(|e| failed(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

/// `POST /api/games {"record": TEXT}`: a game record (what `save` writes) opened as a new game.
/// Its variant must be a name the resolver finds (or the server's own variant); a folder it
/// names is ignored, as any path from the browser is.
pub(crate) async fn open_record(app: &App, text: String) -> Result<Json<Value>, ApiError> {
    let mut rec =
        Record::parse(&text).map_err(|e| failed(StatusCode::UNPROCESSABLE_ENTITY, crate::files::clip_long_words(&e.to_string())))?;
    check_variant_name(&rec.variant, &app.default)?;
    if rec.moves.len() > MAX_RECORD_MOVES {
        return Err(failed(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the record has {} moves; at most {MAX_RECORD_MOVES} open here", rec.moves.len()),
        ));
    }
    (rec.path, rec.saved) = (None, None);
    // Earlier game lines are an autosave's, each naming a variant of its own: not opened.
    rec.earlier.clear();
    app.games
        .call(move |g: &mut Games| {
            let s = Session::from_record(&rec, Style::PLAIN).map_err(|e| failed(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
            // Saved at once, as a REPL that loads a record saves it.
            let slot = Slot::opened();
            let answer = add(g, s, slot)?;
            let id = answer["id"].as_u64().unwrap_or_default();
            g.changed(id).map(Json).map_err(|e| failed(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
        })
        .await?
}

/// `GET /api/games/ID/record`: the game record, as the REPL's `save` writes it, to download.
pub(crate) async fn record(State(app): State<App>, Path(id): Path<u64>) -> Result<Response, ApiError> {
    let found = app.games.call(move |g: &mut Games| g.get(id).map(|s| (s.record().to_text(), s.variant.name().to_string()))).await?;
    let (text, variant) = found.ok_or_else(|| no_game(id))?;
    let stem: String = variant.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).take(40).collect();
    let disposition = format!("attachment; filename=\"{stem}-game.toml\"");
    Ok(([(header::CONTENT_TYPE, "application/toml; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)], text)
        .into_response())
}
