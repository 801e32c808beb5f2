//! Game records: a small TOML file that replays a game (`save`, `load`, the REPL's autosave).
//! This module reads records; writing one is the shell's job ([`crate::files::write`]), and
//! where autosaves live is [`crate::autosave`]'s.
//!
//! ```toml
//! # boardlab game record
//! variant = "pyramida"
//! moves = ["d1-c2", "h1-g2", "t1-u2"]
//! start = "…"                             # only when not the variant's initial position
//! result = "white wins: …"                # only when the game is over (for a reader; replaying
//!                                         # the moves decides it)
//! saved = 1764300000000                   # autosaves only: when, in Unix milliseconds
//!
//! [options]                               # only options set away from their defaults
//! blocked_contact = "no_effect"
//!
//! [machine]                               # autosaves only: the machine players (`play`)
//! limit = 1000
//! seed = 0
//! [machine.plays]
//! black = "ab:d4"
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
    pub(crate) path: Option<String>,
    /// The start position text, when not the initial position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    /// How many of `moves` lead to the current position, when the game was stepped back (the
    /// rest are the plies ahead, for `forward`/`redo`); absent: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cursor: Option<usize>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
    /// In an earlier game line: the edit that replaced it (`put W on c3`, `a new game`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) edit: Option<String>,
    /// How the game ended (`white wins: …`), when it is over: for a reader and for pruning
    /// autosaves; reading a record replays its moves, which decide the result again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<String>,
    /// When an autosave was written, in milliseconds since the Unix epoch: `--resume` takes
    /// the latest by this, not by file name or date (a copied file keeps it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) saved: Option<u64>,
    /// The autosave's machine players, so a resumed game goes on against them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) machine: Option<Machine>,
    /// The autosave's earlier game lines, oldest first: what `undo` returns to past the start
    /// of this line. `save` writes none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) earlier: Vec<Record>,
}

/// The REPL's machine players, as an autosave keeps them.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct Machine {
    /// The engine of each side the machine plays, by the player's name (`black = "ab:d4"`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) plays: BTreeMap<String, String>,
    /// The most machine moves one command makes (`play SIDE ENGINE LIMIT`).
    pub(crate) limit: u32,
    /// The seed of the machine's generator (it restarts from the seed).
    pub(crate) seed: u64,
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
pub(crate) const MAX_RECORD_BYTES: u64 = 16 << 20;

impl Record {
    /// The record as TOML text (what `save` and the autosave write).
    pub(crate) fn to_text(&self) -> String {
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
        // Bounded while reading too: the file may grow between the look and the read.
        let text = crate::files::read_to_string_limited(path, MAX_RECORD_BYTES)
            .map_err(|source| RecordError::Read { path: path.to_path_buf(), source })?;
        Record::parse(&text).map_err(|e| RecordError::InFile { path: path.to_path_buf(), source: Box::new(e) })
    }
}

/// Where boardlab keeps the user's REPL history and autosave: `$BOARDLAB_DATA_DIR`, else
/// `$XDG_DATA_HOME/boardlab`, else `~/.local/share/boardlab`.
pub(crate) fn data_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("BOARDLAB_DATA_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_DATA_HOME") {
        return Some(PathBuf::from(d).join("boardlab"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/boardlab"))
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
            result: Some("white wins: no moves".into()),
            saved: Some(1_764_300_000_000),
            machine: Some(Machine { plays: [("black".to_string(), "ab:d4".to_string())].into_iter().collect(), limit: 7, seed: 3 }),
            earlier: vec![Record { variant: "lielow".into(), edit: Some("a new game".into()), ..Record::default() }],
        };
        assert_eq!(Record::parse(&r.to_text()).unwrap(), r);
        let plain = Record { variant: "lielow".into(), ..Record::default() };
        assert_eq!(Record::parse(&plain.to_text()).unwrap(), plain);
        assert!(Record::parse("variant = 3").unwrap_err().to_string().starts_with("not a game record"));
        assert!(Record::parse("varient = \"x\"").is_err());
    }
}
