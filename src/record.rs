//! Game records: a small TOML file that replays a game (`save`, `load`, the REPL's autosave).
//! This module reads records; writing one is the shell's job ([`crate::repl::write_atomic`]).
//!
//! ```toml
//! # boardlab game record
//! variant = "pyramida"
//! moves = ["d1-c2", "h1-g2", "t1-u2"]
//! start = "…"                             # only when not the variant's initial position
//!
//! [options]                               # only options set away from their defaults
//! blocked_contact = "no_effect"
//!
//! [[earlier]]                             # autosaves only: the game lines edits replaced
//! variant = "pyramida"
//! moves = ["d1-c2"]
//! edit = "a new game"
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The variant as it was named (a shipped name, a folder or a file).
    pub variant: String,
    /// The variant's folder, absolute, when it lives on disk: a record is found again from any
    /// folder (`--resume` elsewhere), the name being the fallback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The start position text, when not the initial position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    /// How many of `moves` lead to the current position, when the game was stepped back (the
    /// rest are the plies ahead, for `forward`/`redo`); absent: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<usize>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
    /// In an earlier game line: the edit that replaced it (`put W on c3`, `a new game`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit: Option<String>,
    /// The autosave's earlier game lines, oldest first: what `undo` returns to past the start
    /// of this line. `save` writes none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<Record>,
}

/// Why a game record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The text is not a record: the line and what is wrong.
    #[error("not a game record: {0}")]
    Parse(String),
    /// The file cannot be read.
    #[error("{}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    /// The file is not a record.
    #[error("{}: {source}", path.display())]
    InFile { path: PathBuf, source: Box<RecordError> },
    /// Not a regular file, or larger than any record.
    #[error("{}: {}", path.display(), if *regular { format!("{bytes} bytes; a game record is at most {MAX_RECORD_BYTES}") } else { "not a regular file".to_string() })]
    NotARecordFile { path: PathBuf, bytes: u64, regular: bool },
}

/// The largest game record boardlab reads (16 MiB: millions of moves).
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

impl Record {
    /// The record as TOML text (what `save` and the autosave write).
    pub fn to_text(&self) -> String {
        format!("# boardlab game record\n{}", toml::to_string(self).unwrap_or_default())
    }

    /// Reads a record.
    ///
    /// # Errors
    /// Text that is not a record, with the line and what is wrong.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        toml::from_str(text).map_err(|e| RecordError::Parse(e.to_string().trim().to_string()))
    }

    /// Reads a record from a file.
    ///
    /// # Errors
    /// The file cannot be read or is not a record.
    pub fn load(path: &Path) -> Result<Record, RecordError> {
        let meta = std::fs::metadata(path).map_err(|source| RecordError::Read { path: path.to_path_buf(), source })?;
        if !meta.is_file() || meta.len() > MAX_RECORD_BYTES {
            return Err(RecordError::NotARecordFile { path: path.to_path_buf(), bytes: meta.len(), regular: meta.is_file() });
        }
        let text = std::fs::read_to_string(path).map_err(|source| RecordError::Read { path: path.to_path_buf(), source })?;
        Record::parse(&text).map_err(|e| RecordError::InFile { path: path.to_path_buf(), source: Box::new(e) })
    }
}

/// Where boardlab keeps the user's REPL history and autosave: `$BOARDLAB_DATA_DIR`, else
/// `$XDG_DATA_HOME/boardlab`, else `~/.local/share/boardlab`.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("BOARDLAB_DATA_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_DATA_HOME") {
        return Some(PathBuf::from(d).join("boardlab"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/boardlab"))
}

/// How many sessions' autosaves are kept (the newest).
pub const KEPT_AUTOSAVES: usize = 20;

/// The folder of the sessions' autosaves.
pub fn autosave_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("autosaves"))
}

/// A new session's own autosave file, named by time, process and variant, so two REPLs never
/// write over each other's game; the oldest beyond [`KEPT_AUTOSAVES`] are removed.
pub fn new_autosave_path(variant: &str) -> Option<PathBuf> {
    let millis = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let name: String = variant.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).take(40).collect();
    for old in autosaves().into_iter().skip(KEPT_AUTOSAVES.saturating_sub(1)) {
        let _ = std::fs::remove_file(old);
    }
    autosave_dir().map(|d| d.join(format!("{millis:015}-{}-{name}.toml", std::process::id())))
}

/// The autosaved sessions, newest first.
pub fn autosaves() -> Vec<PathBuf> {
    let Some(dir) = autosave_dir() else { return Vec::new() };
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect())
        .unwrap_or_default();
    v.sort();
    v.reverse();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let r = Record {
            variant: "pyramida".into(),
            path: Some("/home/me/games/pyramida".into()),
            start: Some("x white 3".into()),
            moves: vec!["d1-c2".into(), "pass".into()],
            cursor: Some(1),
            options: [("no_moves".to_string(), "draw".to_string())].into_iter().collect(),
            edit: None,
            earlier: vec![Record { variant: "lielow".into(), edit: Some("a new game".into()), ..Record::default() }],
        };
        assert_eq!(Record::parse(&r.to_text()).unwrap(), r);
        let plain = Record { variant: "lielow".into(), ..Record::default() };
        assert_eq!(Record::parse(&plain.to_text()).unwrap(), plain);
        assert!(Record::parse("variant = 3").unwrap_err().to_string().starts_with("not a game record"));
        assert!(Record::parse("varient = \"x\"").is_err());
    }
}
