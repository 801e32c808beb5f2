//! The JSON API behind the page (docs/web.md): every handler is a client of the same
//! [`Session`] the REPL drives, run on the games' thread ([`super::games`]); a machine move
//! searches on a blocking thread with a copy of the position and is played only if the game
//! did not change meanwhile.

use super::app::{Answer, ApiError, App, MAX_NAME, bad, check_variant_name, command, no_game, with_game};
use super::games::Games;
use super::slots::Slot;
use super::state;
use crate::render::Style;
use crate::session::Session;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

/// `GET /api/variants`: the names the resolver finds, and the one the page opens with.
pub(crate) async fn variants(State(app): State<App>) -> Json<Value> {
    // A name found in two places resolves to the first: listed once.
    let names: std::collections::BTreeSet<String> = crate::variant::all_variants().into_iter().map(|(n, _, _)| n).collect();
    Json(json!({ "variants": names, "default": app.default }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewGame {
    variant: Option<String>,
    #[serde(default)]
    set: serde_json::Map<String, Value>,
    /// Moves played from the start, in order: the game begins after them, its history
    /// holding them (a position to study, a link to share, a test's set-up).
    #[serde(default)]
    moves: Vec<String>,
    /// An autosaved game to resume (its name in `GET /api/saved`).
    resume: Option<String>,
    /// A game record's text to open.
    record: Option<String>,
}

/// `POST /api/games {"variant", "set"}`: a new game, its state (with its `id`); or
/// `{"resume": NAME}` an autosaved game, or `{"record": TEXT}` a game record
/// ([`super::saved`]).
pub(crate) async fn new_game(State(app): State<App>, Json(req): Json<NewGame>) -> Answer {
    let given = [req.variant.is_some() || !req.set.is_empty() || !req.moves.is_empty(), req.resume.is_some(), req.record.is_some()];
    if given.iter().filter(|g| **g).count() > 1 {
        return Err(bad("give one of `variant` (with `set` and `moves`), `resume` or `record`"));
    }
    if let Some(name) = req.resume {
        return super::saved::resume(&app, name).await;
    }
    if let Some(text) = req.record {
        return super::saved::open_record(&app, text).await;
    }
    let spec = req.variant.unwrap_or_else(|| app.default.clone());
    check_variant_name(&spec, &app.default)?;
    let mut sets = Vec::new();
    for (k, v) in req.set {
        let v = match v {
            Value::String(s) => s,
            other => other.to_string(),
        };
        if k.len() + v.len() > MAX_NAME {
            return Err(bad("an option override is too long"));
        }
        sets.push((k, v));
    }
    app.games
        .call(move |g: &mut Games| {
            let mut s = Session::new(&spec, &sets, Style::PLAIN).map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
            play_all(&mut s, &req.moves)?;
            let slot = Slot::new(&s);
            super::saved::add(g, s, slot)
        })
        .await?
}

/// Plays `moves` in order, as `POST /move` would; the first that fails is named with its
/// number and reason (the game is only added once every move was played). Their count is
/// bounded by the body's size ([`super::MAX_BODY`]).
fn play_all(s: &mut Session, moves: &[String]) -> Result<(), ApiError> {
    for (i, text) in moves.iter().enumerate() {
        let failed = |e: crate::session::CommandError| {
            ApiError(StatusCode::UNPROCESSABLE_ENTITY, format!("move {} `{}`: {e}", i + 1, crate::files::quote(text)))
        };
        let m = s.resolve(text).map_err(failed)?;
        let canonical = m.text(&s.variant.rules.geometry);
        s.execute(&canonical).map_err(failed)?;
    }
    Ok(())
}

/// `GET /api/games/ID`.
pub(crate) async fn get_game(State(app): State<App>, Path(id): Path<u64>) -> Answer {
    app.games
        .call(move |g: &mut Games| {
            let game = g.game(id).ok_or_else(|| no_game(id))?;
            super::games::state_of(id, game).map(Json).map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
        })
        .await?
}

/// `DELETE /api/games/ID`.
pub(crate) async fn delete_game(State(app): State<App>, Path(id): Path<u64>) -> Result<StatusCode, ApiError> {
    let gone = app.games.call(move |g: &mut Games| g.map.remove(&id).is_some()).await?;
    if gone { Ok(StatusCode::NO_CONTENT) } else { Err(no_game(id)) }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveReq {
    #[serde(rename = "move")]
    text: String,
}

/// `POST /api/games/ID/move {"move"}`: the new state, or 422 with the `why` reason.
pub(crate) async fn play(State(app): State<App>, Path(id): Path<u64>, Json(req): Json<MoveReq>) -> Answer {
    with_game(&app, id, move |s| {
        let m = s.resolve(&req.text).map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        // Played through the session's command, whose guard keeps the game as it was if a hook
        // fails; a move from an earlier ply keeps the old line (GET .../lines).
        super::panels::play_keeping_line(s, m)
    })
    .await
}

/// `POST /api/games/ID/undo`.
pub(crate) async fn undo(State(app): State<App>, Path(id): Path<u64>) -> Answer {
    with_game(&app, id, |s| command(s, "undo")).await
}

/// `POST /api/games/ID/redo`.
pub(crate) async fn redo(State(app): State<App>, Path(id): Path<u64>) -> Answer {
    with_game(&app, id, |s| command(s, "redo")).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GotoReq {
    ply: u32,
}

/// `POST /api/games/ID/goto {"ply"}`: to a ply of the history (the start's ply is `start_ply`).
pub(crate) async fn goto(State(app): State<App>, Path(id): Path<u64>, Json(req): Json<GotoReq>) -> Answer {
    with_game(&app, id, move |s| command(s, &format!("goto {}", req.ply))).await
}

#[derive(Deserialize)]
pub(crate) struct BoardQuery {
    #[serde(default)]
    flip: bool,
}

/// `GET /api/games/ID/svg[?flip=true]`: the picture `show --svg` draws.
pub(crate) async fn svg(State(app): State<App>, Path(id): Path<u64>, Query(q): Query<BoardQuery>) -> Result<Response, ApiError> {
    let v = app.games.call(move |g: &mut Games| g.get(id).map(|s| state::board(s, q.flip))).await?.ok_or_else(|| no_game(id))?;
    let svg = v["svg"].as_str().unwrap_or_default().to_string();
    Ok(([(axum::http::header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

/// `GET /api/games/ID/board[?flip=true]`: the picture and its cells' centres, for the page.
pub(crate) async fn board(State(app): State<App>, Path(id): Path<u64>, Query(q): Query<BoardQuery>) -> Answer {
    app.games.call(move |g: &mut Games| g.get(id).map(|s| Json(state::board(s, q.flip)))).await?.ok_or_else(|| no_game(id))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EngineReq {
    engine: Option<String>,
}

/// `POST /api/games/ID/engine {"engine"}`: the machine's move, played ([`super::think`]).
pub(crate) async fn engine(State(app): State<App>, Path(id): Path<u64>, Json(req): Json<EngineReq>) -> Answer {
    super::think::engine(&app, id, req.engine).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::app::MAX_SEARCHES;
    use crate::serve::games::Owner;
    use std::sync::Arc;

    /// `POST /api/games` with `body`, on a fresh set of games: the state, or the refusal; and
    /// how many games are held afterwards.
    fn new_game_with(body: Value) -> (Result<Value, (StatusCode, String)>, usize) {
        let app = App { games: Owner::start(), searches: Arc::new(tokio::sync::Semaphore::new(MAX_SEARCHES)), default: "checkers".into() };
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let req: NewGame = serde_json::from_value(body).unwrap();
        let answer = rt.block_on(new_game(State(app.clone()), Json(req))).map(|j| j.0).map_err(|e| (e.0, e.1));
        let held = rt.block_on(app.games.call(|g: &mut Games| g.map.len())).unwrap();
        (answer, held)
    }

    #[test]
    fn a_new_game_plays_its_moves() {
        // White's man c3 to d4, black's f6 to e5, and d4 jumps e5 to f6: black to move.
        let (s, held) = new_game_with(json!({"variant": "checkers", "moves": ["c3-d4", "f6-e5", "d4xf6"]}));
        let s = s.unwrap();
        assert_eq!(s["history"], json!(["c3-d4", "f6-e5", "d4xf6"]));
        assert_eq!(s["side"], "black");
        assert_eq!(s["last"]["captured"], json!(["e5"]));
        assert_eq!(held, 1);
    }

    #[test]
    fn a_new_game_names_the_move_it_cannot_play_and_is_not_kept() {
        // The second c3-d4 is black's turn, and c3 is white's (now empty) square.
        let (s, held) = new_game_with(json!({"variant": "checkers", "moves": ["c3-d4", "c3-d4"]}));
        let (status, why) = s.unwrap_err();
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(why.starts_with("move 2 `c3-d4`: "), "{why}");
        assert_eq!(held, 0);
        let (s, _) = new_game_with(json!({"variant": "checkers", "moves": ["undo"]}));
        assert!(s.unwrap_err().1.starts_with("move 1 `undo`: "));
    }
}
