//! Live updates from a game to its pages, over server-sent events (`GET /api/games/ID/events`),
//! and the searches that a page can stop (`POST /api/games/ID/stop`): the routes over each
//! game's [`Hub`].

use super::app::{ApiError, App, no_game};
use super::hub::{Event, KEEP_ALIVE, MAX_STREAMS};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use serde_json::{Value, json};

/// `GET /api/games/ID/events`: the game's events as server-sent events, starting with its
/// state (`state`); 429 when [`MAX_STREAMS`] streams listen already.
pub(crate) async fn events(State(app): State<App>, Path(id): Path<u64>) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    let (hub, first) = app
        .games
        .call(move |g| {
            let game = g.game(id).ok_or_else(|| no_game(id))?;
            let hub = game.hub.clone();
            // Subscribed before the state is read, on the games' thread: no change falls between.
            let listener = hub.listen();
            let st = super::games::state_of(id, game).map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
            Ok::<_, ApiError>((listener, st))
        })
        .await??;
    let listener = hub.ok_or_else(|| {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, format!("{MAX_STREAMS} event streams listen to this game already: close a tab"))
    })?;
    let first = Some(Event { kind: "state", data: first.to_string().into() });
    let stream = futures_util::stream::unfold((listener, first), |(mut l, first)| async move {
        let e = match first {
            Some(e) => e,
            None => l.next().await?,
        };
        let sse = SseEvent::default().event(e.kind).data(&*e.data);
        Some((Ok::<_, std::convert::Infallible>(sse), (l, None)))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)).into_response())
}

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct StopReq {
    #[serde(default)]
    cancel: bool,
}

/// `POST /api/games/ID/stop [{"cancel": true}]`: the game's running searches stop; each
/// plays the best move found so far (its `engine` request answers with it), or with `cancel`
/// plays nothing (its request answers 409). `{"stopped": N}`: how many were running.
pub(crate) async fn stop(
    State(app): State<App>,
    Path(id): Path<u64>,
    req: Option<axum::Json<StopReq>>,
) -> Result<axum::Json<Value>, ApiError> {
    let cancel = req.is_some_and(|r| r.cancel);
    let hub = app.games.call(move |g| g.game(id).map(|game| game.hub.clone())).await?.ok_or_else(|| no_game(id))?;
    Ok(axum::Json(json!({ "stopped": hub.stop(cancel) })))
}
