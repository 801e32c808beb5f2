//! Scenarios: recorded situations of a variant whose boards and legal moves are snapshot-tested.
//!
//! A scenario is a TOML file in `variants/NAME/scenarios/` (format in `docs/scenarios.md`):
//!
//! ```toml
//! description = "a pawn must capture"
//! set = { capture_choice = "maximum" }     # option overrides (optional)
//! position = "9/4k4/9/4p4/4P4/9/4K4/9 white 0"   # start position (optional)
//! moves = ["e4xe6xe8"]                     # moves to play (each must be legal)
//! why = ["e4-d5"]                          # moves whose illegality to explain (optional)
//! trace = true                             # record the status after every move (optional)
//! ```
//!
//! Its snapshot records the options, the moves, the board, the status, the position text, the
//! legal moves and the explanations.

use crate::render::{self, Style};
use crate::script::ScriptError;
use crate::state::{Position, PositionError};
use crate::variant::{MoveListError, Variant};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub(crate) description: String,
    #[serde(default)]
    pub(crate) variant: Option<String>,
    #[serde(default)]
    pub(crate) set: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub(crate) position: Option<String>,
    #[serde(default)]
    pub(crate) moves: Vec<String>,
    #[serde(default)]
    pub(crate) why: Vec<String>,
    #[serde(default)]
    pub(crate) trace: bool,
}

fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The variant a scenario file belongs to: its `variant` key (looked up beside the folder
/// holding the scenario's variant first), or the variant folder that holds `scenarios/`.
fn variant_spec(path: &Path, sc: &Scenario) -> String {
    let home = path.parent().and_then(Path::parent);
    match &sc.variant {
        Some(name) => {
            if let Some(sib) = home.and_then(Path::parent).map(|d| Path::new(".").join(d).join(name))
                && sib.join("variant.toml").is_file()
            {
                return sib.display().to_string();
            }
            name.clone()
        }
        // A path with a separator, so it is read as a folder and not as a shipped name.
        None => home
            .map(|h| if h.is_absolute() { h.display().to_string() } else { Path::new(".").join(h).display().to_string() })
            .unwrap_or_else(|| ".".into()),
    }
}

/// Why a scenario could not be run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// The file cannot be read or is not a scenario.
    #[error("{0}: {1}")]
    File(String, String),
    /// The variant does not load (its diagnostic, rendered).
    #[error("{0}")]
    Load(String),
    #[error("position: {0}")]
    Position(#[from] PositionError),
    /// A move of `moves` cannot be played.
    #[error(transparent)]
    Move(#[from] MoveListError),
    #[error(transparent)]
    Script(#[from] ScriptError),
}

/// The largest scenario, snapshot or perft file boardlab reads (1 MiB, as a variant's files).
pub(crate) const MAX_TEXT_FILE_BYTES: u64 = 1 << 20;

/// Runs a scenario file and returns its snapshot text.
///
/// # Errors
/// The file does not parse, the variant does not load, or a move in `moves` is not legal.
pub fn run_file(path: &Path) -> Result<String, ScenarioError> {
    let file = || path.display().to_string();
    let text = crate::files::read_to_string_limited(path, MAX_TEXT_FILE_BYTES).map_err(|e| ScenarioError::File(file(), e.to_string()))?;
    let sc: Scenario = toml::from_str(&text).map_err(|e| ScenarioError::File(file(), e.to_string()))?;
    let spec = variant_spec(path, &sc);
    run(&sc, &spec)
}

/// Runs a parsed scenario against a variant (name or path).
///
/// # Errors
/// See [`run_file`].
pub fn run(sc: &Scenario, spec: &str) -> Result<String, ScenarioError> {
    let sets: Vec<(String, String)> = sc.set.iter().map(|(k, v)| (k.clone(), value_text(v))).collect();
    let v = Variant::load(spec, &sets).map_err(|e| ScenarioError::Load(e.render_plain()))?;
    let mut pos = match &sc.position {
        Some(t) => Position::from_text(&v.rules, t)?,
        None => v.start(),
    };
    let mut s = String::new();
    let _ = writeln!(s, "scenario: {}", sc.description);
    let opts: Vec<String> = sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(s, "variant: {}{}", v.name(), if opts.is_empty() { String::new() } else { format!(" ({})", opts.join(", ")) });
    if let Some(p) = &sc.position {
        let _ = writeln!(s, "start: {p}");
    }
    let _ = writeln!(s, "moves: {}", if sc.moves.is_empty() { "(none)".to_string() } else { sc.moves.join(" ") });
    let mut last = None;
    for (i, m) in sc.moves.iter().enumerate() {
        let mv = v.play(&mut pos, m).map_err(|error| MoveListError { number: i + 1, text: m.clone(), error })?;
        last = Some(mv);
        for line in v.take_output() {
            let _ = writeln!(s, "  script: {line}");
        }
        if sc.trace {
            let _ = writeln!(s, "  {}. {m} -> {}", i + 1, render::status(&v, &pos));
        }
    }
    s.push('\n');
    s.push_str(&render::board(&v, &pos, last.as_ref(), Style::PLAIN));
    let _ = writeln!(s, "position: {}", pos.to_text(&v.rules));
    let mut legal = Vec::new();
    v.legal_moves(&mut pos, &mut legal)?;
    let mut texts: Vec<String> = legal.iter().map(|m| m.text(&v.rules.geometry)).collect();
    texts.sort();
    let _ = writeln!(s, "{}", format!("legal moves ({}): {}", texts.len(), texts.join(" ")).trim_end());
    for w in &sc.why {
        let r = match v.find_move(&mut pos, w) {
            Ok(m) => format!("{} is legal{}{}", m.text(&v.rules.geometry), v.enclosed_note(&pos, &m), v.sow_note(&pos, &m)),
            Err(e) => e.to_string(),
        };
        let _ = writeln!(s, "why {w}: {r}");
    }
    Ok(s)
}
