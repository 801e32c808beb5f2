//! What every handler of the JSON API shares: the [`App`] (the games' owner, the search
//! permits, the default variant), the refusal every handler answers with ([`ApiError`]), and
//! running a job on a game.

use super::games::{Games, Lost, Owner};
use crate::session::Session;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;

/// How many machine searches run at once, over all games (the machine has few cores; a
/// further request is told to wait rather than queued unseen).
pub(crate) const MAX_SEARCHES: usize = 2;

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct App {
    pub(crate) games: Owner,
    pub(crate) searches: Arc<tokio::sync::Semaphore>,
    /// The variant the page opens with.
    pub(crate) default: String,
}

/// A refusal: its status and its reason, sent as `{"error": REASON}`.
#[derive(Debug)]
pub(crate) struct ApiError(pub(super) StatusCode, pub(super) String);

impl ApiError {
    pub(crate) fn new(status: StatusCode, reason: impl Into<String>) -> ApiError {
        ApiError(status, reason.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<Lost> for ApiError {
    fn from(_: Lost) -> ApiError {
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, "the request failed inside the server (a bug: please report it)".into())
    }
}

pub(super) type Answer = Result<Json<Value>, ApiError>;

pub(super) fn bad(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.into())
}

pub(super) fn no_game(id: u64) -> ApiError {
    ApiError(StatusCode::NOT_FOUND, format!("no game {id} (games end when the server stops)"))
}

/// Runs `f` on game `id` and answers with its state afterwards; a change is autosaved and
/// told to the game's streams ([`Games::changed`]).
pub(super) async fn with_game(app: &App, id: u64, f: impl FnOnce(&mut Session) -> Result<(), ApiError> + Send + 'static) -> Answer {
    app.games
        .call(move |g: &mut Games| {
            let s = g.get(id).ok_or_else(|| no_game(id))?;
            f(s)?;
            g.changed(id).map(Json).map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
        })
        .await?
}

/// Runs a session command (`undo`, `goto 3`): a failing one leaves the game as it was and
/// answers 422 with the session's reason.
pub(super) fn command(s: &mut Session, line: &str) -> Result<(), ApiError> {
    s.execute(line).map(|_| ()).map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))
}

/// The most characters of a variant name or an option override the API reads.
pub(super) const MAX_NAME: usize = 200;

/// Refuses a variant spec from the browser that is not a plain name (a path would reach the
/// file system), unless it is the variant the server was started with.
///
/// # Errors
/// 400 with the reason.
pub(super) fn check_variant_name(spec: &str, default: &str) -> Result<(), ApiError> {
    if spec != default && (spec.len() > MAX_NAME || spec.contains(['/', '\\']) || spec.starts_with('.') || spec.ends_with(".toml")) {
        return Err(bad(format!("`{}` is not a variant name (GET /api/variants lists them)", crate::files::quote(spec))));
    }
    Ok(())
}
