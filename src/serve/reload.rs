//! Live reload: the server watches each game's variant files (every file of its `extends`
//! chain that lives on disk, and its script) by polling their modification times and sizes
//! every [`POLL`]; a change seen twice alike (the editor finished writing) reloads the rules
//! through the session's `reload`, which replays the game and keeps its legal prefix. The
//! game's streams are told (`reload`): which files changed, from which ply the game parted
//! and which moves were dropped, or the load error with its file, line and column (the game
//! then stays exactly as it was). The games' thread looks between jobs
//! ([`super::games::Owner`]).

use crate::rules::LoadError;
use crate::variant::{Origin, Variant};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// How often the files are looked at.
pub(crate) const POLL: Duration = Duration::from_millis(300);

/// What a file looked like: its modification time and size (none: missing or unreadable).
type Stamp = Option<(SystemTime, u64)>;

fn stamp(p: &std::path::Path) -> Stamp {
    let m = std::fs::metadata(p).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// The files a game watches and how they looked when its rules were last read.
#[derive(Default)]
pub(crate) struct Watch {
    files: Vec<(PathBuf, Stamp)>,
    /// A change seen at the last look, reloaded when the next look sees the same.
    pending: Option<Vec<Stamp>>,
}

/// A variant's files on disk: each file of its `extends` chain and its script (shipped files
/// cannot change).
pub(crate) fn files_of(v: &Variant) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (i, f) in v.merged.files.iter().enumerate() {
        if let Some(Origin::Disk(_)) = v.file_origins.get(i) {
            // A file on disk is shown by its path.
            out.push(PathBuf::from(&f.name));
        }
    }
    if let Some(s) = &v.merged.script
        && let Some(Origin::Disk(dir)) = v.file_origins.get(s.file).or(Some(&v.origin))
    {
        out.push(dir.join(s.val.get_ref()));
    }
    out.dedup();
    out
}

impl Watch {
    /// Watches `v`'s files as they are now.
    pub(crate) fn of(v: &Variant) -> Watch {
        Watch { files: files_of(v).into_iter().map(|p| (p.clone(), stamp(&p))).collect(), pending: None }
    }

    /// Looks at the files: the ones changed once a change has settled (seen alike twice).
    pub(super) fn settled(&mut self) -> Option<Vec<PathBuf>> {
        if self.files.is_empty() {
            return None;
        }
        let now: Vec<Stamp> = self.files.iter().map(|(p, _)| stamp(p)).collect();
        if now.iter().zip(&self.files).all(|(n, (_, s))| n == s) {
            self.pending = None;
            return None;
        }
        if self.pending.as_ref() != Some(&now) {
            self.pending = Some(now);
            return None;
        }
        self.pending = None;
        let changed = self.files.iter().zip(&now).filter(|((_, s), n)| s != *n).map(|((p, _), _)| p.clone()).collect();
        for ((_, s), n) in self.files.iter_mut().zip(now) {
            *s = n;
        }
        Some(changed)
    }

    /// Watches the files of new rules, keeping what was seen of the files watched already (so
    /// a change made while they loaded is still seen).
    pub(super) fn follow(&mut self, v: &Variant) {
        let old = std::mem::take(&mut self.files);
        self.files = files_of(v)
            .into_iter()
            .map(|p| {
                let s = old.iter().find(|(q, _)| *q == p).map_or_else(|| stamp(&p), |(_, s)| *s);
                (p, s)
            })
            .collect();
    }
}

/// A load error as the page shows it: the rendered diagnostic (file, line, caret) and where
/// it points, as fields.
pub(crate) fn load_error(e: &LoadError) -> Value {
    let (file, line, column) = match (&e.src, e.span) {
        (Some(src), Some(span)) => {
            let text = src.inner();
            let mut at = span.offset().min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let before = &text[..at];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            (Value::from(src.name()), Value::from(line), Value::from(column))
        }
        _ => (Value::Null, Value::Null, Value::Null),
    };
    json!({ "message": e.message, "rendered": e.render_plain(), "file": file, "line": line, "column": column })
}
