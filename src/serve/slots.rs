//! Where each game of the server is autosaved ([`Slot`]) and the thread that writes the files
//! ([`Saves`]), as a REPL session's autosaves are ([`crate::autosave`]): a file of its own in
//! the autosaves folder, written once the game has changed and after every change, its lock
//! held while the server holds the game. Files are written in order on a thread of their own,
//! so a move's answer never waits for the disk.

use super::hub::Hub;
use crate::autosave::{self, Lock};
use crate::record::Record;
use crate::session::Session;
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};

/// A file to write, with the lock that keeps it ours until it is written.
struct Job {
    path: PathBuf,
    text: String,
    _lock: Arc<Lock>,
    hub: Arc<Hub>,
}

/// Where the server's games are autosaved, and the thread that writes them.
pub(crate) struct Saves {
    pub(crate) dir: PathBuf,
    writer: mpsc::Sender<Job>,
}

impl Saves {
    /// Autosaves into `dir` (created when the first game is saved).
    pub(crate) fn start(dir: PathBuf) -> Saves {
        let (writer, jobs) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("boardlab-autosave".into())
            .spawn(move || {
                for job in jobs {
                    if let Err(e) = crate::files::write(&job.path, &job.text) {
                        let why = format!("could not autosave the game to {}: {e}", job.path.display());
                        job.hub.send("autosave", &json!({ "error": why }));
                    }
                }
            })
            .expect("spawning the autosave thread");
        Saves { dir, writer }
    }
}

/// One game's autosave: its file (chosen when first saved, or the resumed one), its lock, and
/// the game as last saved.
pub(crate) struct Slot {
    path: Option<PathBuf>,
    lock: Option<Arc<Lock>>,
    written: Record,
}

/// Numbers the server's autosave files, so two games saved in the same millisecond differ.
static SAVED: AtomicU64 = AtomicU64::new(0);

impl Slot {
    /// A new game's: nothing saved until it changes.
    pub(crate) fn new(s: &Session) -> Slot {
        Slot { path: None, lock: None, written: s.autosave_record() }
    }

    /// An opened record's: saved at once, as a game that changed.
    pub(crate) fn opened() -> Slot {
        Slot { path: None, lock: None, written: Record::default() }
    }

    /// A resumed game's: its own file, locked.
    pub(crate) fn resumed(path: PathBuf, lock: Lock, s: &Session) -> Slot {
        Slot { path: Some(path), lock: Some(Arc::new(lock)), written: s.autosave_record() }
    }

    /// The autosave's file name, once there is one.
    pub(crate) fn name(&self) -> Option<String> {
        Some(self.path.as_ref()?.file_name()?.to_string_lossy().to_string())
    }

    /// Saves the game if it changed since it was last saved; a failure is told to the streams.
    pub(crate) fn save(&mut self, saves: &Saves, s: &Session, hub: &Arc<Hub>) {
        let rec = s.autosave_record();
        if rec == self.written {
            return;
        }
        let path = self.path.clone().unwrap_or_else(|| {
            let n = SAVED.fetch_add(1, Ordering::SeqCst);
            saves.dir.join(autosave::file_name(&format!("web{n}-{}", s.variant.name())))
        });
        let lock = match &self.lock {
            Some(l) => l.clone(),
            None => match Lock::take(&path) {
                Ok(l) => Arc::new(l),
                Err(e) => return hub.send("autosave", &json!({ "error": format!("could not autosave the game: {e}") })),
            },
        };
        let text = Record { saved: Some(autosave::now_millis()), ..rec.clone() }.to_text();
        let _ = saves.writer.send(Job { path: path.clone(), text, _lock: lock.clone(), hub: hub.clone() });
        (self.path, self.lock, self.written) = (Some(path), Some(lock), rec);
    }
}
