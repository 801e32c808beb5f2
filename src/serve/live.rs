//! Live updates from a game to its pages, over server-sent events (`GET /api/games/ID/events`),
//! and the searches that a page can stop.
//!
//! Each game has a [`Hub`]: a bounded broadcast of events (the game's state after a change,
//! the machine's thinking, reload notices), at most [`MAX_STREAMS`] streams listening, and the
//! game's running searches. Memory is bounded whatever the clients do: a stream that falls
//! more than [`BACKLOG`] events behind skips them and is told so (`lagged`), never queued.
//!
//! Stopping is structural: a search is held by a [`Search`] guard; `POST /stop` asks every
//! running search of the game to stop and play its best move so far; when the last stream of
//! a game closes (its tab closed) or the request that asked for a search goes away, the guard's
//! flags cancel it, and nothing is played.

use super::api::{ApiError, App};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// The most event streams one game serves at once (tabs on the same game).
pub const MAX_STREAMS: usize = 4;

/// The most events a stream may fall behind before it skips them (and is told to fetch the
/// state again).
pub const BACKLOG: usize = 64;

/// How long a game whose last stream closed is kept (a page reloading, a network blip: the
/// browser reconnects within seconds); then the server lets it go ([`Hub::abandoned`]).
pub const GRACE: Duration = Duration::from_secs(5);

/// How often an idle stream is sent a comment: a stream whose page has gone fails to write
/// within two of these, and its searches are cancelled.
pub const KEEP_ALIVE: Duration = Duration::from_secs(1);

/// One event: its name (`state`, `search`, `thinking`, `progress`, `reload`, `autosave`,
/// `closed`) and its JSON data.
#[derive(Clone, Debug)]
pub struct Event {
    pub kind: &'static str,
    pub data: Arc<str>,
}

/// A running search's flags: `stop` is the search's own ([`crate::ai::search::Control`]);
/// `cancelled` says its move must not be played.
struct Flags {
    id: u64,
    engine: String,
    stop: Arc<AtomicBool>,
    cancelled: AtomicBool,
}

/// A game's events, streams and running searches.
pub struct Hub {
    events: broadcast::Sender<Event>,
    streams: AtomicUsize,
    searches: Mutex<Vec<Arc<Flags>>>,
    next_search: AtomicU64,
    /// When its last stream closed (none: a stream listens, or none ever did).
    deserted: Mutex<Option<Instant>>,
}

impl Hub {
    pub fn new() -> Arc<Hub> {
        Arc::new(Hub {
            events: broadcast::channel(BACKLOG).0,
            streams: AtomicUsize::new(0),
            searches: Mutex::new(Vec::new()),
            next_search: AtomicU64::new(0),
            deserted: Mutex::new(None),
        })
    }

    /// Tells every stream listening (none listening: nothing happens).
    pub fn send(&self, kind: &'static str, data: &Value) {
        let _ = self.events.send(Event { kind, data: data.to_string().into() });
    }

    /// How many streams listen.
    pub fn streams(&self) -> usize {
        self.streams.load(Ordering::SeqCst)
    }

    /// A new stream, or `None` when [`MAX_STREAMS`] listen already.
    pub fn listen(self: &Arc<Hub>) -> Option<Listener> {
        self.streams.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < MAX_STREAMS).then_some(n + 1)).ok()?;
        *self.deserted.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Some(Listener { rx: self.events.subscribe(), hub: self.clone(), ended: false })
    }

    fn searches(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Flags>>> {
        // A panic while holding it left a plain list behind: still usable.
        self.searches.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a search of `engine` and tells the streams it started.
    pub fn begin(self: &Arc<Hub>, engine: &str) -> Search {
        let id = self.next_search.fetch_add(1, Ordering::SeqCst) + 1;
        let flags = Arc::new(Flags { id, engine: engine.to_string(), stop: Arc::default(), cancelled: AtomicBool::new(false) });
        self.searches().push(flags.clone());
        self.send("search", &json!({ "search": id, "engine": engine, "running": true }));
        Search { hub: self.clone(), flags }
    }

    /// Asks every running search to stop: to play its best move so far, or (`cancel`) to play
    /// nothing. Returns how many were running.
    pub fn stop(&self, cancel: bool) -> usize {
        let running = self.searches();
        for f in running.iter() {
            if cancel {
                f.cancelled.store(true, Ordering::SeqCst);
            }
            f.stop.store(true, Ordering::SeqCst);
        }
        running.len()
    }

    /// Whether the game had pages listening and the last of them closed more than [`GRACE`]
    /// ago: its tab was closed without a word (the browser killed). The server then lets the
    /// game go (it is autosaved), releasing its autosave for the REPL. A game no page ever
    /// listened to (a client of the API) is never let go this way.
    pub fn abandoned(&self) -> bool {
        let since = *self.deserted.lock().unwrap_or_else(|e| e.into_inner());
        self.streams() == 0 && since.is_some_and(|t| t.elapsed() >= GRACE)
    }

    /// The engines running, for the state (`"searching"`).
    pub fn running(&self) -> Vec<Value> {
        self.searches().iter().map(|f| json!({ "search": f.id, "engine": f.engine })).collect()
    }

    /// The game is gone: its searches are cancelled and its streams end.
    pub fn close(&self) {
        self.stop(true);
        self.send("closed", &json!({}));
    }
}

/// A running search: its flags live while it does. Dropped (the search ended, or the request
/// that asked for it went away), it stops the search if still running and tells the streams.
pub struct Search {
    hub: Arc<Hub>,
    flags: Arc<Flags>,
}

impl Search {
    pub fn id(&self) -> u64 {
        self.flags.id
    }

    /// The flag the search itself watches.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.flags.stop.clone()
    }

    /// Whether it was asked to stop early (by `POST /stop` or a cancel).
    pub fn stopped(&self) -> bool {
        self.flags.stop.load(Ordering::SeqCst)
    }

    /// Whether its move must not be played (the page that could see it has gone).
    pub fn cancelled(&self) -> bool {
        self.flags.cancelled.load(Ordering::SeqCst)
    }

    /// What the search's thread tells the streams through (it never holds the guard, so the
    /// guard goes with the request that asked for the search).
    pub fn teller(&self) -> Teller {
        Teller { hub: self.hub.clone(), id: self.flags.id }
    }
}

/// Tells a game's streams what one search is doing.
#[derive(Clone)]
pub struct Teller {
    hub: Arc<Hub>,
    id: u64,
}

impl Teller {
    /// Sends `data` (an object) as a `kind` event (`thinking`, `progress`), tagged with the
    /// search's id.
    pub fn tell(&self, kind: &'static str, mut data: Value) {
        data["search"] = json!(self.id);
        self.hub.send(kind, &data);
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        // A search abandoned mid-way (its request dropped) stops here; its answer has no one
        // to go to, so nothing is played.
        self.flags.stop.store(true, Ordering::SeqCst);
        self.hub.searches().retain(|f| !Arc::ptr_eq(f, &self.flags));
        let f = &self.flags;
        let ended = json!({
            "search": f.id, "engine": f.engine, "running": false,
            "cancelled": f.cancelled.load(Ordering::SeqCst),
        });
        self.hub.send("search", &ended);
    }
}

/// One stream's hold on its game's events; when the last stream of a game goes (its page
/// closed), the game's searches are cancelled.
pub struct Listener {
    rx: broadcast::Receiver<Event>,
    hub: Arc<Hub>,
    ended: bool,
}

impl Listener {
    /// The next event for this stream; `None` once the game is gone.
    pub async fn next(&mut self) -> Option<Event> {
        if self.ended {
            return None;
        }
        let e = match self.rx.recv().await {
            Ok(e) => e,
            Err(broadcast::error::RecvError::Lagged(n)) => Event { kind: "lagged", data: json!({ "missed": n }).to_string().into() },
            Err(broadcast::error::RecvError::Closed) => return None,
        };
        self.ended = e.kind == "closed";
        Some(e)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if self.hub.streams.fetch_sub(1, Ordering::SeqCst) == 1 {
            *self.hub.deserted.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            self.hub.stop(true);
        }
    }
}

/// `GET /api/games/ID/events`: the game's events as server-sent events, starting with its
/// state (`state`); 429 when [`MAX_STREAMS`] streams listen already.
pub async fn events(State(app): State<App>, Path(id): Path<u64>) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    let (hub, first) = app
        .games
        .call(move |g| {
            let game = g.game(id).ok_or_else(|| super::api::no_game(id))?;
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
pub struct StopReq {
    #[serde(default)]
    cancel: bool,
}

/// `POST /api/games/ID/stop [{"cancel": true}]`: the game's running searches stop; each
/// plays the best move found so far (its `engine` request answers with it), or with `cancel`
/// plays nothing (its request answers 409). `{"stopped": N}`: how many were running.
pub async fn stop(State(app): State<App>, Path(id): Path<u64>, req: Option<axum::Json<StopReq>>) -> Result<axum::Json<Value>, ApiError> {
    let cancel = req.is_some_and(|r| r.cancel);
    let hub = app.games.call(move |g| g.game(id).map(|game| game.hub.clone())).await?.ok_or_else(|| super::api::no_game(id))?;
    Ok(axum::Json(json!({ "stopped": hub.stop(cancel) })))
}
