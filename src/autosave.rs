//! The REPL's autosaves: where they live, which is the latest, which are in use, and which
//! may go.
//!
//! Each session saves its game to a file of its own in `autosaves/` of the data directory
//! ([`crate::record::data_dir`]), named by time, process and variant, but only once the game
//! has changed: a session that made no move leaves nothing. A session holds an exclusive lock
//! on `NAME.lock` beside its file (the kernel releases it when the process ends, however it
//! ends), so its game is never pruned and never resumed twice at once.
//!
//! Autosaves are ordered by the time written inside the record (`saved`), older records
//! without one by the file's modification time, so a copied or oddly named file does not
//! become "the latest". When a session opens, pruning removes only finished or empty games
//! beyond the newest [`KEPT`], never a game in progress (it may be the only copy) nor a live
//! session's.

use crate::record::{Record, RecordError};
use std::fs::File;
use std::path::{Path, PathBuf};

/// How many autosaves pruning keeps whatever their state (the newest).
pub(crate) const KEPT: usize = 20;

/// The folder of the sessions' autosaves.
pub(crate) fn dir() -> Option<PathBuf> {
    crate::record::data_dir().map(|d| d.join("autosaves"))
}

/// The current time in milliseconds since the Unix epoch (what a record's `saved` holds).
pub(crate) fn now_millis() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A new session's own autosave file (not created yet), named by time, process and variant,
/// so two REPLs never write over each other's game.
pub(crate) fn new_path(variant: &str) -> Option<PathBuf> {
    dir().map(|d| d.join(file_name(variant)))
}

/// A new autosave's file name: the time, the process and the variant (`tag`, up to 40
/// characters of it).
pub(crate) fn file_name(tag: &str) -> String {
    let name: String = tag.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).take(40).collect();
    format!("{:015}-{}-{name}.toml", now_millis(), std::process::id())
}

/// An autosave file as found in the folder.
pub(crate) struct Found {
    pub(crate) path: PathBuf,
    /// Its record, or why it cannot be read.
    pub(crate) record: Result<Record, RecordError>,
    /// When it was saved (milliseconds since the epoch): the record's `saved`, else the file's
    /// modification time.
    pub(crate) saved: u64,
}

impl Found {
    fn read(path: PathBuf) -> Found {
        let record = Record::load(&path);
        let mtime = || {
            let m = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
            m.and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_millis() as u64)
        };
        let saved = record.as_ref().ok().and_then(|r| r.saved).unwrap_or_else(mtime);
        Found { path, record, saved }
    }

    /// Whether a running session holds this game.
    pub(crate) fn live(&self) -> bool {
        is_live(&self.path)
    }

    /// Whether the game is over, or has nothing to lose (no move, no earlier line): what
    /// pruning may remove. An unreadable file is kept (it may be a game someone cares for).
    fn expendable(&self) -> bool {
        self.record.as_ref().is_ok_and(|r| r.result.is_some() || (r.moves.is_empty() && r.earlier.is_empty()))
    }
}

/// The autosaved sessions, newest first (by the time inside the record; see the module).
pub(crate) fn list() -> Vec<Found> {
    dir().map_or_else(Vec::new, |d| list_in(&d))
}

/// The autosaves in `dir`, newest first (as [`list`]; `boardlab serve` is told its folder).
pub(crate) fn list_in(dir: &Path) -> Vec<Found> {
    let mut v: Vec<Found> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "toml")).map(Found::read).collect()
        })
        .unwrap_or_default();
    v.sort_by(|a, b| (b.saved, &b.path).cmp(&(a.saved, &a.path)));
    v
}

/// Removes the autosaves of finished or empty games beyond the newest [`KEPT`] (leaving room
/// for one more), never a game in progress nor one a running session holds. Returns how many
/// went.
pub(crate) fn prune() -> usize {
    let mut removed = 0;
    for f in list().into_iter().skip(KEPT.saturating_sub(1)) {
        if f.expendable() && !f.live() && std::fs::remove_file(&f.path).is_ok() {
            let _ = std::fs::remove_file(lock_path(&f.path));
            removed += 1;
        }
    }
    removed
}

/// The lock file beside an autosave.
fn lock_path(autosave: &Path) -> PathBuf {
    autosave.with_extension("lock")
}

/// Whether a running session holds the lock beside `autosave`.
fn is_live(autosave: &Path) -> bool {
    let Ok(f) = File::open(lock_path(autosave)) else { return false };
    // A shared lock is refused only while someone holds the exclusive one; it goes when `f` does.
    matches!(f.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock))
}

/// A session's hold on its autosave: an exclusive lock on the file beside it, released (and
/// the lock file removed) when dropped, or by the kernel when the process ends.
#[derive(Debug)]
pub(crate) struct Lock {
    file: File,
    path: PathBuf,
}

/// Why a session cannot hold an autosave.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another running session holds it.
    #[error("{}: this game is open in another boardlab session{}; leave that one first, or resume another (`--resume list`)", path.display(), pid.as_ref().map_or(String::new(), |p| format!(" (process {p})")))]
    Held { path: PathBuf, pid: Option<String> },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

impl Lock {
    /// Takes the lock of `autosave` (creating its folder and lock file if missing).
    ///
    /// # Errors
    /// Another session holds it, or the lock file cannot be made.
    pub(crate) fn take(autosave: &Path) -> Result<Lock, LockError> {
        let path = lock_path(autosave);
        let io = |source| LockError::Io { path: path.clone(), source };
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d).map_err(io)?;
        }
        // Retried when the file was removed (by the session leaving) between opening and
        // locking it: a lock on a removed file protects nothing.
        for _ in 0..10 {
            let mut file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let pid = std::fs::read_to_string(&path).ok().map(|p| p.trim().to_string()).filter(|p| !p.is_empty());
                    return Err(LockError::Held { path: autosave.to_path_buf(), pid });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
            if same_file(&file, &path) {
                use std::io::Write;
                file.set_len(0).map_err(io)?;
                write!(file, "{}", std::process::id()).map_err(io)?;
                return Ok(Lock { file, path });
            }
        }
        Err(io(std::io::Error::other("the lock file keeps changing")))
    }
}

#[cfg(unix)]
fn same_file(f: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (f.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held, so no other session can lock the file being removed.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_is_exclusive_and_goes_with_its_holder() {
        let d = tempfile::tempdir().unwrap();
        let save = d.path().join("autosaves/1-2-checkers.toml");
        let lock = Lock::take(&save).unwrap();
        assert!(is_live(&save));
        let e = Lock::take(&save).unwrap_err().to_string();
        assert!(e.contains("open in another boardlab session") && e.contains(&format!("process {}", std::process::id())), "{e}");
        drop(lock);
        assert!(!is_live(&save));
        assert!(!lock_path(&save).exists(), "the lock file goes with the lock");
        drop(Lock::take(&save).unwrap());
    }
}
