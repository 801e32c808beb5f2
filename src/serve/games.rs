//! The games the server holds, owned by one thread: a [`Session`] is not `Send` (its progress
//! sink), and one owner also means requests on a game never interleave. Handlers send that
//! thread a job and await its answer; a job that panics is answered with an error and the
//! thread goes on with the next. Between jobs, the thread looks at the files each game watches
//! ([`super::reload`]) and reloads the games whose files changed ([`poll`]).

use super::hub::Hub;
use super::reload::{POLL, Watch, load_error};
use super::slots::{Saves, Slot};
use crate::session::Session;
use crate::variant::Variant;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::Instant;

/// The most games held at once: a new game beyond it is refused until one is deleted (never
/// evicted: a game on the screen is the user's work).
pub(crate) const MAX_GAMES: usize = 64;

/// One game: its session, when it was last touched, its live events, the files it watches
/// and its autosave.
pub(crate) struct Game {
    pub(crate) session: Session,
    pub(crate) touched: Instant,
    pub(crate) hub: Arc<Hub>,
    pub(crate) watch: Watch,
    pub(crate) save: Slot,
}

impl Drop for Game {
    fn drop(&mut self) {
        // Its searches are cancelled and its streams end; its autosave lock goes with `save`.
        self.hub.close();
    }
}

/// Every game by its id, and where they are autosaved.
#[derive(Default)]
pub(crate) struct Games {
    pub(crate) map: BTreeMap<u64, Game>,
    next: u64,
    /// The autosaves' folder and writer (none: games are not autosaved).
    pub(crate) saves: Option<Saves>,
}

impl Games {
    /// Adds a game with its autosave (a resumed game's own file, locked).
    pub(crate) fn add_saved(&mut self, session: Session, save: Slot) -> Option<u64> {
        if self.map.len() >= MAX_GAMES {
            return None;
        }
        self.next += 1;
        let watch = Watch::of(&session.variant);
        self.map.insert(self.next, Game { session, touched: Instant::now(), hub: Hub::new(), watch, save });
        Some(self.next)
    }

    /// The game `id`, marked as touched.
    pub(crate) fn get(&mut self, id: u64) -> Option<&mut Session> {
        self.game(id).map(|g| &mut g.session)
    }

    /// The game `id` with its live parts, marked as touched.
    pub(crate) fn game(&mut self, id: u64) -> Option<&mut Game> {
        let g = self.map.get_mut(&id)?;
        g.touched = Instant::now();
        Some(g)
    }

    /// After a change to game `id`: autosaves it (when it differs from what was saved) and
    /// tells its streams its state. Returns that state.
    ///
    /// # Errors
    /// The state cannot be built (a script hook failed listing the moves).
    pub(crate) fn changed(&mut self, id: u64) -> Result<Value, StateError> {
        let saves = self.saves.as_ref();
        let game = self.map.get_mut(&id).ok_or(StateError::NoGame(id))?;
        if let Some(saves) = saves {
            game.save.save(saves, &game.session, &game.hub);
        }
        let st = state_of(id, game)?;
        game.hub.send("state", &st);
        Ok(st)
    }
}

/// A game's state as the API answers it ([`super::state::of`]), with its autosave's name and
/// the searches running.
///
/// # Errors
/// As [`super::state::of`].
pub(crate) fn state_of(id: u64, game: &mut Game) -> Result<Value, StateError> {
    let mut st = super::state::of(id, &mut game.session)?;
    st["autosave"] = game.save.name().map_or(Value::Null, Value::from);
    st["searching"] = Value::from(game.hub.running());
    Ok(st)
}

/// Why a game's state could not be given.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StateError {
    #[error("no game {0}")]
    NoGame(u64),
    /// A script hook failed listing the moves.
    #[error(transparent)]
    Script(#[from] crate::script::ScriptError),
}

type Job = Box<dyn FnOnce(&mut Games) + Send>;

/// The handle requests use to reach the games' thread (cheap to clone).
#[derive(Clone)]
pub(crate) struct Owner {
    jobs: mpsc::Sender<Job>,
}

/// Why a job got no answer.
#[derive(Debug)]
pub(crate) struct Lost;

impl Owner {
    /// Starts the thread that owns the games (not autosaved).
    #[cfg(test)]
    pub(crate) fn start() -> Owner {
        Owner::start_with(None)
    }

    /// Starts the thread that owns the games, autosaving them with `saves`.
    pub(crate) fn start_with(saves: Option<Saves>) -> Owner {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("boardlab-games".into())
            .spawn(move || {
                let mut games = Games { saves, ..Games::default() };
                let mut polled = Instant::now();
                loop {
                    match rx.recv_timeout(POLL) {
                        // A panicking job drops its answer channel (the request gets a 500);
                        // the games stay: the session's own guard keeps a failing command's game.
                        Ok(job) => {
                            let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut games)));
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    }
                    if polled.elapsed() >= POLL {
                        let _ = std::panic::catch_unwind(AssertUnwindSafe(|| poll(&mut games)));
                        games.map.retain(|_, g| !g.hub.abandoned());
                        polled = Instant::now();
                    }
                }
            })
            .expect("spawning the games' thread");
        Owner { jobs: tx }
    }

    /// Runs `f` on the games' thread and returns its answer.
    ///
    /// # Errors
    /// The job panicked or the thread is gone.
    pub(crate) async fn call<R: Send + 'static>(&self, f: impl FnOnce(&mut Games) -> R + Send + 'static) -> Result<R, Lost> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move |g| {
                let _ = tx.send(f(g));
            }))
            .map_err(|_| Lost)?;
        rx.await.map_err(|_| Lost)
    }
}

/// Looks at every game's files and reloads the games whose files changed.
pub(crate) fn poll(games: &mut Games) {
    let due: Vec<(u64, Vec<PathBuf>)> = games.map.iter_mut().filter_map(|(id, g)| g.watch.settled().map(|f| (*id, f))).collect();
    for (id, files) in due {
        let Some(game) = games.map.get_mut(&id) else { continue };
        let notice = reload(game, &files);
        let ok = notice["ok"] == json!(true);
        if let Some(game) = games.map.get_mut(&id) {
            game.hub.send("reload", &notice);
        }
        if ok {
            // Saved and shown as any change is.
            let _ = games.changed(id);
        }
    }
}

/// Reloads `game`'s rules after `files` changed; the notice for its streams (`"ok"`).
fn reload(game: &mut Game, files: &[PathBuf]) -> Value {
    let s = &mut game.session;
    let changed: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    // Read first for the error's place: the session's `reload` renders it as text only.
    if let Err(e) = Variant::load(&s.variant.spec, &s.variant.overrides) {
        return json!({ "ok": false, "files": changed, "error": load_error(&e) });
    }
    let g = &s.variant.rules.geometry;
    let line: Vec<String> = s.played.iter().chain(s.undone.iter().rev()).map(|m| m.text(g)).collect();
    let start_ply = s.start.ply();
    match s.execute("reload") {
        Ok(reply) => {
            game.watch.follow(&s.variant);
            let kept = s.played.len() + s.undone.len();
            let dropped = line.get(kept..).unwrap_or_default();
            json!({
                "ok": true,
                "files": changed,
                "note": reply.text,
                "replayed": kept,
                "parted_at_ply": (!dropped.is_empty()).then_some(start_ply as usize + kept),
                "illegal": dropped.first(),
                "dropped": dropped,
            })
        }
        // The files changed again between the two reads, or a hook failed replaying: the game
        // is as it was (the session's guard).
        Err(e) => json!({ "ok": false, "files": changed, "error": { "message": e.to_string(), "rendered": e.to_string() } }),
    }
}
