//! The machine's move for `POST /api/games/ID/engine`: searched on a blocking thread with a
//! copy of the position and generator, held by a [`Search`] guard (so `POST /stop`, the last
//! event stream closing, or the request going away ends it), its thinking told to the game's
//! streams as it goes: each depth completed (`thinking`: depth, score, positions, line) and
//! the search's own progress line (`progress`, at most four times a second).

use super::app::{ApiError, App, MAX_SEARCHES, bad, no_game};
use super::games::{Games, Lost};
use super::hub::Teller;
use crate::ai::{self, Engine, SearchResult};
use crate::session::Session;
use crate::variant::Variant;
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How often the search's progress line is passed on.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The game's place in its history, to tell whether it changed while the machine thought.
pub(crate) type Mark = (String, usize, usize);

/// The game's place in its history.
pub(crate) fn mark(s: &Session) -> Mark {
    (s.pos.to_text(&s.variant.rules), s.played.len(), s.undone.len())
}

/// What the machine found: its move's text, what its search saw, its generator afterwards,
/// whether it was stopped early, and where the game was when it started.
pub(crate) struct Found {
    pub(crate) text: String,
    pub(crate) search: Option<Value>,
    pub(crate) rng: ai::Rng,
    pub(crate) stopped: bool,
    pub(crate) before: Mark,
}

/// A search's findings as the API shows them.
fn found_json(v: &Variant, r: &SearchResult) -> Value {
    let g = &v.rules.geometry;
    json!({
        "score": r.score.to_string(),
        "depth": r.depth,
        "nodes": r.nodes,
        "line": r.pv.iter().map(|m| m.text(g)).collect::<Vec<_>>(),
        "summary": ai::analysis::summary(r),
        "elapsed_ms": r.elapsed.as_millis() as u64,
    })
}

/// Searches game `id`'s position with `engine`, within the server's limit of searches at
/// once, stoppable through the game's [`super::hub::Hub`].
///
/// # Errors
/// No such game; too many searches; the search failed (a script hook); it was cancelled
/// (409: nothing is to be played).
pub(crate) async fn think(app: &App, id: u64, engine: Engine) -> Result<Found, ApiError> {
    let _permit = app.searches.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("{MAX_SEARCHES} machine searches are running: try again when one ends"))
    })?;
    let taken = app
        .games
        .call(move |g: &mut Games| {
            g.game(id).map(|game| {
                (game.session.variant.clone(), game.session.pos.clone(), game.session.rng.clone(), mark(&game.session), game.hub.clone())
            })
        })
        .await?;
    let (v, pos, mut rng, before, hub) = taken.ok_or_else(|| no_game(id))?;
    if pos.result().is_some() {
        return Err(ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "the game is over: the machine has no move to make"));
    }
    // Held by this request: if the client goes away mid-search, the guard drops and the
    // search stops (its thread has only the flag and a teller, never the guard).
    let search = hub.begin(&engine.to_string());
    let (stop, teller) = (search.stop_flag(), search.teller());
    let searched = tokio::task::spawn_blocking(move || search_with(&v, pos, engine, &mut rng, stop, &teller).map(|(t, s)| (t, s, rng)))
        .await
        .map_err(|_| ApiError::from(Lost))?;
    let (text, found, rng) = searched.map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    if search.cancelled() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the search was cancelled (its page closed, or stop with cancel): no move was played",
        ));
    }
    Ok(Found { text, search: found, rng, stopped: search.stopped(), before })
}

/// The search itself, on this thread: alpha-beta through [`ai::search::search_controlled`]
/// (stopped by `stop`, each depth told), MCTS through [`ai::mcts::mcts_stoppable`] (stopped
/// by `stop`), `random` through [`ai::think`]; the search's progress line is passed on too.
fn search_with(
    v: &Variant,
    mut pos: crate::state::Position,
    engine: Engine,
    rng: &mut ai::Rng,
    stop: Arc<AtomicBool>,
    teller: &Teller,
) -> Result<(String, Option<Value>), String> {
    let g = &v.rules.geometry;
    let mut last: Option<Instant> = None;
    let progress = teller.clone();
    let sink: crate::progress::Sink = Box::new(move |msg: &str| {
        if last.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY) {
            last = Some(Instant::now());
            // (The line is the terminal's: here the stop button stops, not Ctrl-C.)
            progress.tell("progress", json!({ "text": msg.trim_end_matches(" (Ctrl-C stops)") }));
        }
    });
    let _listening = crate::progress::install(Some(sink));
    let (best, found) = match engine {
        Engine::AlphaBeta(budget) => {
            let mut on_depth = |r: &SearchResult| teller.tell("thinking", found_json(v, r));
            let control = ai::search::Control { stop: Some(stop.clone()), on_iteration: Some(&mut on_depth), ..Default::default() };
            let r = ai::search::search_controlled(v, &mut pos, budget, rng, control).map_err(|e| e.to_string())?;
            (r.best, Some(found_json(v, &r)))
        }
        Engine::Mcts { iterations } => {
            let best =
                ai::mcts::mcts_stoppable(v, &mut pos, iterations, ai::mcts::PLAYOUT_CAP, rng, Some(&stop)).map_err(|e| e.to_string())?;
            (best, None)
        }
        Engine::Random | Engine::External(_) | Engine::Evaluated(_) => {
            let t = ai::think(v, &pos, engine, rng).map_err(|e| e.to_string())?;
            (t.best, t.search.as_ref().map(|r| found_json(v, r)))
        }
    };
    let best = best.ok_or_else(|| "the game is over: the machine has no move to make".to_string())?;
    Ok((best.text(g), found))
}

/// `POST /api/games/ID/engine {"engine"}`: the machine's move, played; the state with an
/// `"engine"` field: the engine, its move, whether it was stopped early, and where it
/// searched: score, depth, positions, the line it expects, and how long it took.
pub(crate) async fn engine(app: &App, id: u64, spec: Option<String>) -> Result<axum::Json<Value>, ApiError> {
    let spec = spec.unwrap_or_else(|| "ab".into());
    let engine = Engine::parse(&spec).map_err(|e| bad(e.to_string()))?;
    if let Engine::External(_) = engine {
        // A request names no program to run: the browser never reaches past the server.
        return Err(bad("the page does not start programs: `uci:`/`usi:` engines play in arena, selfplay and the REPL"));
    }
    let f = think(app, id, engine).await?;
    let (played, before, rng) = (f.text.clone(), f.before, f.rng);
    let mut answer = super::app::with_game(app, id, move |s| {
        if mark(s) != before {
            return Err(ApiError::new(StatusCode::CONFLICT, "the game changed while the machine was thinking: its move was not played"));
        }
        s.rng = rng;
        let m = s.resolve(&played).map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        // A machine move from an earlier ply keeps the old line, as a click does.
        super::panels::play_keeping_line(s, m)
    })
    .await?;
    answer.0["engine"] = json!({ "engine": engine.to_string(), "move": f.text, "stopped": f.stopped, "search": f.search });
    Ok(answer)
}
