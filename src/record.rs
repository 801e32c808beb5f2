//! Game records: a small TOML file that replays a game (`save`, `load`, the REPL's autosave).
//!
//! ```toml
//! # boardlab game record
//! variant = "pyramida"
//! moves = ["d1-c2", "h1-g2", "t1-u2"]
//! start = "…"                             # only when not the variant's initial position
//!
//! [options]                               # only options set away from their defaults
//! blocked_contact = "no_effect"
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The variant as it was named (a shipped name, a folder or a file).
    pub variant: String,
    /// The start position text, when not the initial position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

impl Record {
    /// The record as TOML text.
    pub fn to_text(&self) -> String {
        format!("# boardlab game record\n{}", toml::to_string(self).unwrap_or_default())
    }

    /// Reads a record.
    ///
    /// # Errors
    /// Text that is not a record, with the line and what is wrong.
    pub fn parse(text: &str) -> Result<Record, String> {
        toml::from_str(text).map_err(|e| format!("not a game record: {}", e.to_string().trim()))
    }

    /// Writes the record to a file.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(path, self.to_text()).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a record from a file.
    ///
    /// # Errors
    /// The file cannot be read or is not a record.
    pub fn load(path: &Path) -> Result<Record, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Record::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
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

/// The autosave file.
pub fn autosave_path() -> Option<PathBuf> {
    data_dir().map(|d| d.join("autosave.toml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let r = Record {
            variant: "pyramida".into(),
            start: Some("x white 3".into()),
            moves: vec!["d1-c2".into(), "pass".into()],
            options: [("no_moves".to_string(), "draw".to_string())].into_iter().collect(),
        };
        assert_eq!(Record::parse(&r.to_text()).unwrap(), r);
        let plain = Record { variant: "lielow".into(), ..Record::default() };
        assert_eq!(Record::parse(&plain.to_text()).unwrap(), plain);
        assert!(Record::parse("variant = 3").unwrap_err().starts_with("not a game record"));
        assert!(Record::parse("varient = \"x\"").is_err());
    }
}
