//! Each game's [`Hub`]: a bounded broadcast of its events (the game's state after a change,
//! the machine's thinking, reload notices), at most [`MAX_STREAMS`] streams listening, and the
//! game's running searches. Memory is bounded whatever the clients do: a stream that falls
//! more than [`BACKLOG`] events behind skips them and is told so (`lagged`), never queued.
//!
//! Stopping is structural: a search is held by a [`Search`] guard; `POST /stop` asks every
//! running search of the game to stop and play its best move so far; when the last stream of
//! a game closes (its tab closed) or the request that asked for a search goes away, the guard's
//! flags cancel it, and nothing is played. The routes that reach a hub are in [`super::live`].

use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// The most event streams one game serves at once (tabs on the same game).
pub(crate) const MAX_STREAMS: usize = 4;

/// The most events a stream may fall behind before it skips them (and is told to fetch the
/// state again).
pub(crate) const BACKLOG: usize = 64;

/// How long a game whose last stream closed is kept (a page reloading, a network blip: the
/// browser reconnects within seconds); then the server lets it go ([`Hub::abandoned`]).
pub(crate) const GRACE: Duration = Duration::from_secs(5);

/// How often an idle stream is sent a comment: a stream whose page has gone fails to write
/// within two of these, and its searches are cancelled.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(1);

/// One event: its name (`state`, `search`, `thinking`, `progress`, `reload`, `autosave`,
/// `closed`) and its JSON data.
#[derive(Clone, Debug)]
pub(crate) struct Event {
    pub(crate) kind: &'static str,
    pub(crate) data: Arc<str>,
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
pub(crate) struct Hub {
    events: broadcast::Sender<Event>,
    streams: AtomicUsize,
    searches: Mutex<Vec<Arc<Flags>>>,
    next_search: AtomicU64,
    /// When its last stream closed (none: a stream listens, or none ever did).
    deserted: Mutex<Option<Instant>>,
}

impl Hub {
    pub(crate) fn new() -> Arc<Hub> {
        Arc::new(Hub {
            events: broadcast::channel(BACKLOG).0,
            streams: AtomicUsize::new(0),
            searches: Mutex::new(Vec::new()),
            next_search: AtomicU64::new(0),
            deserted: Mutex::new(None),
        })
    }

    /// Tells every stream listening (none listening: nothing happens).
    pub(crate) fn send(&self, kind: &'static str, data: &Value) {
        let _ = self.events.send(Event { kind, data: data.to_string().into() });
    }

    /// How many streams listen.
    pub(crate) fn streams(&self) -> usize {
        self.streams.load(Ordering::SeqCst)
    }

    /// A new stream, or `None` when [`MAX_STREAMS`] listen already.
    pub(crate) fn listen(self: &Arc<Hub>) -> Option<Listener> {
        self.streams.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < MAX_STREAMS).then_some(n + 1)).ok()?;
        *self.deserted.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Some(Listener { rx: self.events.subscribe(), hub: self.clone(), ended: false })
    }

    fn searches(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Flags>>> {
        // A panic while holding it left a plain list behind: still usable.
        self.searches.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a search of `engine` and tells the streams it started.
    pub(crate) fn begin(self: &Arc<Hub>, engine: &str) -> Search {
        let id = self.next_search.fetch_add(1, Ordering::SeqCst) + 1;
        let flags = Arc::new(Flags { id, engine: engine.to_string(), stop: Arc::default(), cancelled: AtomicBool::new(false) });
        self.searches().push(flags.clone());
        self.send("search", &json!({ "search": id, "engine": engine, "running": true }));
        Search { hub: self.clone(), flags }
    }

    /// Asks every running search to stop: to play its best move so far, or (`cancel`) to play
    /// nothing. Returns how many were running.
    pub(crate) fn stop(&self, cancel: bool) -> usize {
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
    pub(crate) fn abandoned(&self) -> bool {
        let since = *self.deserted.lock().unwrap_or_else(|e| e.into_inner());
        self.streams() == 0 && since.is_some_and(|t| t.elapsed() >= GRACE)
    }

    /// The engines running, for the state (`"searching"`).
    pub(crate) fn running(&self) -> Vec<Value> {
        self.searches().iter().map(|f| json!({ "search": f.id, "engine": f.engine })).collect()
    }

    /// The game is gone: its searches are cancelled and its streams end.
    pub(crate) fn close(&self) {
        self.stop(true);
        self.send("closed", &json!({}));
    }
}

/// A running search: its flags live while it does. Dropped (the search ended, or the request
/// that asked for it went away), it stops the search if still running and tells the streams.
pub(crate) struct Search {
    hub: Arc<Hub>,
    flags: Arc<Flags>,
}

impl Search {
    /// The flag the search itself watches.
    pub(crate) fn stop_flag(&self) -> Arc<AtomicBool> {
        self.flags.stop.clone()
    }

    /// Whether it was asked to stop early (by `POST /stop` or a cancel).
    pub(crate) fn stopped(&self) -> bool {
        self.flags.stop.load(Ordering::SeqCst)
    }

    /// Whether its move must not be played (the page that could see it has gone).
    pub(crate) fn cancelled(&self) -> bool {
        self.flags.cancelled.load(Ordering::SeqCst)
    }

    /// What the search's thread tells the streams through (it never holds the guard, so the
    /// guard goes with the request that asked for the search).
    pub(crate) fn teller(&self) -> Teller {
        Teller { hub: self.hub.clone(), id: self.flags.id }
    }
}

/// Tells a game's streams what one search is doing.
#[derive(Clone)]
pub(crate) struct Teller {
    hub: Arc<Hub>,
    id: u64,
}

impl Teller {
    /// Sends `data` (an object) as a `kind` event (`thinking`, `progress`), tagged with the
    /// search's id.
    pub(crate) fn tell(&self, kind: &'static str, mut data: Value) {
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
pub(crate) struct Listener {
    rx: broadcast::Receiver<Event>,
    hub: Arc<Hub>,
    ended: bool,
}

impl Listener {
    /// The next event for this stream; `None` once the game is gone.
    pub(crate) async fn next(&mut self) -> Option<Event> {
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
