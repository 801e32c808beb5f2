//! The designer's safety net without cargo: `boardlab test` (scenarios against their stored
//! snapshots, and perft files), `boardlab new` (a variant that extends another), and
//! `boardlab diff` (where two rule sets give different moves or results).
//!
//! Snapshots are insta's `.snap` files, the same ones `cargo test` checks, so both paths agree.

use crate::perft;
use crate::scenario;
use crate::state::Position;
use crate::variant::Variant;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Why a workflow command could not do its work.
#[derive(Debug, thiserror::Error)]
pub enum WorkflowError {
    /// A name `new` cannot make a variant folder of.
    #[error("`{0}` is not a variant name: use 1 to 64 letters, digits, `-` and `_`, not starting with `-`")]
    BadName(String),
    #[error("`{0}` is not a variant folder here (boardlab test runs the scenarios of a variant folder on disk; see boardlab new)")]
    NotAFolder(String),
    #[error("no `variants/` folder here: name a variant folder")]
    NoVariantsFolder,
    #[error("{0} is shipped inside boardlab and cannot be changed: create your own with boardlab new NAME --from {0}")]
    ShippedTest(String),
    #[error("{0} is a shipped variant: create your own with boardlab new NAME --from {0} and record scenarios there")]
    ShippedRecord(String),
    #[error("{} already exists", .0.display())]
    Exists(PathBuf),
    #[error("a scenario name is letters, digits, _ and -")]
    ScenarioName,
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// A variant does not load (its diagnostic, rendered).
    #[error("{0}")]
    Load(String),
    /// A scenario, a perft file, a position or a script hook failed (the kernel's words).
    #[error("{0}")]
    Kernel(String),
}

impl From<crate::script::ScriptError> for WorkflowError {
    fn from(e: crate::script::ScriptError) -> WorkflowError {
        WorkflowError::Kernel(e.to_string())
    }
}

/// Maps an I/O error on `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> WorkflowError + '_ {
    move |source| WorkflowError::Io { path: path.to_path_buf(), source }
}

/// The contents of an insta snapshot file (what follows its header).
pub(crate) fn snapshot_contents(text: &str) -> String {
    let t = text.replace("\r\n", "\n");
    let body = match t.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")) {
        Some((_, body)) => body.to_string(),
        None => t,
    };
    body.trim_end().to_string()
}

/// An insta snapshot file for `contents`, as `cargo test` writes it.
pub(crate) fn snapshot_file(input: &Path, contents: &str) -> String {
    format!("---\nsource: tests/integration/scenarios.rs\ninput_file: {}\n---\n{}\n", input.display(), contents.trim_end())
}

/// The variant folders a `test` target names: a variant folder, a scenario file's variant, or
/// every folder under `variants/`.
fn targets(target: Option<&str>) -> Result<Vec<PathBuf>, WorkflowError> {
    match target {
        Some(t) => {
            let p = Path::new(t);
            if p.is_dir() && p.join("variant.toml").is_file() {
                return Ok(vec![p.to_path_buf()]);
            }
            // A name, found as every command finds it (a shipped one is tested by `test`).
            match crate::variant::read_merged(t) {
                Ok((_, crate::variant::Origin::Disk(dir), _)) => Ok(vec![dir]),
                _ => Err(WorkflowError::NotAFolder(t.to_string())),
            }
        }
        None => {
            let mut v: Vec<PathBuf> = std::fs::read_dir("variants")
                .map_err(|_| WorkflowError::NoVariantsFolder)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("variant.toml").is_file())
                .collect();
            v.sort();
            Ok(v)
        }
    }
}

/// A folder as a variant spec that is read as a path, never looked up as a name (`mine` →
/// `./mine`).
fn as_path_spec(dir: &Path) -> String {
    if dir.components().count() == 1 && dir.is_relative() { Path::new(".").join(dir) } else { dir.to_path_buf() }.display().to_string()
}

/// What `test` found.
#[derive(Debug, Default)]
pub struct TestReport {
    pub passed: usize,
    pub failed: usize,
    pub(crate) accepted: usize,
    pub text: String,
}

impl TestReport {
    /// Appends the closing line: `N passed, M failed[, K accepted]`.
    fn summarize(&mut self) {
        let accepted = if self.accepted > 0 { format!(", {} accepted", self.accepted) } else { String::new() };
        let _ = writeln!(self.text, "{} passed, {} failed{accepted}", self.passed, self.failed);
    }

    /// Runs the checks of a perft file against the variant `spec`.
    fn perft_file(&mut self, spec: &str, label: &str, text: &str) -> Result<(), WorkflowError> {
        for c in perft::parse_file(text).map_err(|e| WorkflowError::Kernel(format!("{label}: {e}")))? {
            match perft::run_check(spec, &c) {
                Ok(n) if n == c.count => self.passed += 1,
                Ok(n) => {
                    self.failed += 1;
                    let _ = writeln!(self.text, "FAIL {label}:{}: perft depth {} gives {n}, the file says {}", c.line, c.depth, c.count);
                }
                Err(e) => {
                    self.failed += 1;
                    let _ = writeln!(self.text, "FAIL {label}:{}: {e}", c.line);
                }
            }
        }
        Ok(())
    }
}

/// Runs every scenario (and perft file) of the target variants; with `accept`, writes the new
/// snapshots instead of failing.
///
/// # Errors
/// The target names no variant folder.
pub fn test(target: Option<&str>, accept: bool) -> Result<TestReport, WorkflowError> {
    if let Some(t) = target
        && t.ends_with(".toml")
        && Path::new(t).is_file()
        && Path::new(t).parent().and_then(Path::file_name).is_some_and(|n| n == "scenarios")
    {
        return test_files(&[PathBuf::from(t)], None, accept);
    }
    if let Some(t) = target
        && targets(Some(t)).is_err()
        && crate::variant::SHIPPED.get_file(format!("{t}/variant.toml")).is_some()
    {
        if accept {
            return Err(WorkflowError::ShippedTest(t.to_string()));
        }
        return test_shipped(t);
    }
    let mut all = TestReport::default();
    for dir in targets(target)? {
        // A variant that does not load fails every scenario the same way: say it once.
        if let Err(e) = Variant::load(&as_path_spec(&dir), &[]) {
            all.failed += 1;
            let _ = writeln!(
                all.text,
                "FAIL {}: the variant does not load, so no scenario or perft check ran:\n{}",
                dir.display(),
                e.render_plain()
            );
            continue;
        }
        let scen = dir.join("scenarios");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&scen)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect())
            .unwrap_or_default();
        files.sort();
        let r = test_files(&files, Some(&dir), accept)?;
        all.passed += r.passed;
        all.failed += r.failed;
        all.accepted += r.accepted;
        all.text.push_str(&r.text);
    }
    all.summarize();
    Ok(all)
}

/// Checks scenario files against their snapshots, and the perft file of `dir` if given.
fn test_files(files: &[PathBuf], dir: Option<&Path>, accept: bool) -> Result<TestReport, WorkflowError> {
    let mut r = TestReport::default();
    {
        for f in files {
            let f = f.as_path();
            let scen = f.parent().unwrap_or(Path::new("."));
            let snap = scen.join("snapshots").join(format!("{}.snap", f.file_stem().unwrap().to_string_lossy()));
            let new = match scenario::run_file(f) {
                Ok(s) => s,
                Err(e) => {
                    r.failed += 1;
                    let _ = writeln!(r.text, "FAIL {}: {e}", f.display());
                    continue;
                }
            };
            let old = crate::files::read_to_string_limited(&snap, scenario::MAX_TEXT_FILE_BYTES).ok().map(|t| snapshot_contents(&t));
            if old.as_deref() == Some(new.trim_end()) {
                r.passed += 1;
                continue;
            }
            if accept {
                let snap_dir = snap.parent().unwrap_or(Path::new("."));
                std::fs::create_dir_all(snap_dir).map_err(io(snap_dir))?;
                std::fs::write(&snap, snapshot_file(f, &new)).map_err(io(&snap))?;
                r.accepted += 1;
                let _ = writeln!(r.text, "accepted {}", snap.display());
                continue;
            }
            r.failed += 1;
            match old {
                None => {
                    let _ = writeln!(
                        r.text,
                        "FAIL {}: no snapshot yet ({}); run boardlab test --accept to record it",
                        f.display(),
                        snap.display()
                    );
                }
                Some(old) => {
                    let _ = writeln!(r.text, "FAIL {}: the snapshot changed", f.display());
                    let (old, new) = (format!("{}\n", old), format!("{}\n", new.trim_end()));
                    let diff = similar::TextDiff::from_lines(old.as_str(), new.as_str());
                    let _ = write!(r.text, "{}", diff.unified_diff().context_radius(2).header("stored snapshot", "now"));
                }
            }
        }
        if let Some(dir) = dir {
            let pf = dir.join("perft.txt");
            if pf.exists() {
                let text = crate::files::read_to_string_limited(&pf, scenario::MAX_TEXT_FILE_BYTES)
                    .map_err(|e| WorkflowError::Kernel(format!("{}: {e}", pf.display())))?;
                r.perft_file(&dir.display().to_string(), &pf.display().to_string(), &text)?;
            }
        }
    }
    if dir.is_none() {
        r.summarize();
    }
    Ok(r)
}

/// Runs a shipped variant's scenarios and perft file from the copies inside the binary.
fn test_shipped(name: &str) -> Result<TestReport, WorkflowError> {
    let mut r = TestReport::default();
    let dir = crate::variant::SHIPPED.get_dir(format!("{name}/scenarios"));
    let mut files: Vec<&include_dir::File> =
        dir.map(|d| d.files().filter(|f| f.path().extension().is_some_and(|x| x == "toml")).collect()).unwrap_or_default();
    files.sort_by_key(|f| f.path());
    for f in files {
        let label = format!("(shipped) variants/{}", f.path().display());
        let sc: scenario::Scenario =
            toml::from_str(f.contents_utf8().unwrap_or_default()).map_err(|e| WorkflowError::Kernel(format!("{label}: {e}")))?;
        let spec = sc.variant.clone().unwrap_or_else(|| name.to_string());
        let new = scenario::run(&sc, &spec);
        let snap_path = format!("{name}/scenarios/snapshots/{}.snap", f.path().file_stem().unwrap().to_string_lossy());
        let old = crate::variant::SHIPPED.get_file(&snap_path).and_then(|s| s.contents_utf8()).map(snapshot_contents);
        match (new, old) {
            (Ok(n), Some(o)) if n.trim_end() == o => r.passed += 1,
            (Ok(n), Some(o)) => {
                r.failed += 1;
                let (o, n) = (format!("{o}\n"), format!("{}\n", n.trim_end()));
                let _ = writeln!(r.text, "FAIL {label}: the snapshot changed");
                let _ = write!(
                    r.text,
                    "{}",
                    similar::TextDiff::from_lines(o.as_str(), n.as_str()).unified_diff().context_radius(2).header("stored snapshot", "now")
                );
            }
            (Ok(_), None) => {
                r.failed += 1;
                let _ = writeln!(r.text, "FAIL {label}: no snapshot");
            }
            (Err(e), _) => {
                r.failed += 1;
                let _ = writeln!(r.text, "FAIL {label}: {e}");
            }
        }
    }
    if let Some(pf) = crate::variant::SHIPPED.get_file(format!("{name}/perft.txt")).and_then(|f| f.contents_utf8()) {
        r.perft_file(name, &format!("{name}/perft.txt"), pf)?;
    }
    r.summarize();
    Ok(r)
}

/// Creates a variant folder `name` that extends `from`, with a README stub and `from`'s
/// scenarios (their snapshots recorded for the new variant, so a rule change shows as a diff).
///
/// # Errors
/// The folder exists, or `from` does not load.
pub fn new_variant(name: &str, from: &str) -> Result<String, WorkflowError> {
    // A name becomes a folder (and a TOML string): one plain path component, nothing else.
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if name.is_empty() || name.len() > 64 || !name.chars().all(plain) || name.starts_with('-') {
        return Err(WorkflowError::BadName(name.to_string()));
    }
    let base = Variant::load(from, &[]).map_err(|e| WorkflowError::Load(e.render_plain()))?;
    let dir = if Path::new("variants").is_dir() { Path::new("variants").join(name) } else { PathBuf::from(name) };
    if dir.exists() {
        return Err(WorkflowError::Exists(dir));
    }
    let scen = dir.join("scenarios");
    std::fs::create_dir_all(&scen).map_err(io(&scen))?;
    let mut toml = format!(
        "# {name}: a variant of {from}. Change an option's default or override a section below;\n# `boardlab check {} --resolved` shows everything it inherits.\nname = \"{name}\"\nextends = \"{}\"\n",
        dir.display(),
        base.rules.name
    );
    for d in &base.rules.options.decls {
        if d.name == "move_limit" {
            continue;
        }
        let _ =
            write!(toml, "\n# {} ({})\n# [options.{}]\n# default = {}\n", d.description, d.ty.describe(), d.name, toml_value(&d.default));
    }
    write(&dir.join("variant.toml"), &toml)?;
    write(
        &dir.join("README.md"),
        &format!(
            "# {name}\n\nA variant of {from}. What changes, and why:\n\n- …\n\nRun `boardlab test {}` after each change to see which scenarios behave differently.\n",
            dir.display()
        ),
    )?;
    // The base's scenarios, now about this variant.
    let mut copied = 0;
    if let crate::variant::Origin::Disk(bdir) = &base.origin {
        if let Ok(rd) = std::fs::read_dir(bdir.join("scenarios")) {
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "toml") {
                    let text = crate::files::read_to_string_limited(&p, scenario::MAX_TEXT_FILE_BYTES)
                        .map_err(|e| WorkflowError::Kernel(format!("{}: {e}", p.display())))?;
                    write(&scen.join(e.file_name()), &without_variant_key(&text))?;
                    copied += 1;
                }
            }
        }
    } else if let Some(d) = crate::variant::SHIPPED.get_dir(format!("{}/scenarios", base.rules.name)) {
        for f in d.files().filter(|f| f.path().extension().is_some_and(|x| x == "toml")) {
            let file = scen.join(f.path().file_name().unwrap_or_default());
            write(&file, &without_variant_key(f.contents_utf8().unwrap_or_default()))?;
            copied += 1;
        }
    }
    if copied == 0 {
        write(&scen.join("start.toml"), "description = \"the start position\"\n")?;
    }
    let r = test(Some(&dir.display().to_string()), true)?;
    Ok(format!(
        "created {} (extends {}), with {} scenarios and their snapshots ({} recorded)\n",
        dir.display(),
        base.rules.name,
        copied.max(1),
        r.accepted
    ))
}

/// A scenario's text without its `variant =` line (the copy belongs to the new variant).
fn without_variant_key(text: &str) -> String {
    text.lines().filter(|l| !l.trim_start().starts_with("variant =")).map(|l| format!("{l}\n")).collect()
}

fn write(path: &Path, text: &str) -> Result<(), WorkflowError> {
    std::fs::write(path, text).map_err(io(path))
}

fn toml_value(v: &crate::rules::OptionValue) -> String {
    match v {
        crate::rules::OptionValue::Text(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

/// The files that record the game of a session as a scenario `name` of its variant's folder:
/// the scenario and its snapshot, as (path, contents), for the caller to write (the REPL's
/// `snapshot`). Nothing is written here.
///
/// # Errors
/// The variant is not a folder on disk, the name is not a plain word, the scenario exists, or
/// the game cannot be replayed.
pub(crate) fn record_scenario(
    v: &Variant,
    start: &Position,
    moves: &[crate::notation::Move],
    name: &str,
) -> Result<Vec<(PathBuf, String)>, WorkflowError> {
    let crate::variant::Origin::Disk(dir) = &v.origin else {
        return Err(WorkflowError::ShippedRecord(v.name().to_string()));
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(WorkflowError::ScenarioName);
    }
    let file = dir.join("scenarios").join(format!("{name}.toml"));
    if file.exists() {
        return Err(WorkflowError::Exists(file));
    }
    let mut text = format!("description = \"{name} (recorded in the REPL)\"\n");
    if !v.overrides.is_empty() {
        let items: Vec<String> = v.overrides.iter().map(|(k, x)| format!("{k} = \"{x}\"")).collect();
        let _ = writeln!(text, "set = {{ {} }}", items.join(", "));
    }
    if start != &v.start() {
        let _ = writeln!(text, "position = \"{}\"", start.to_text(&v.rules));
    }
    let ms: Vec<String> = moves.iter().map(|m| format!("\"{}\"", m.text(&v.rules.geometry))).collect();
    let _ = writeln!(text, "moves = [{}]", ms.join(", "));
    let sc: scenario::Scenario = toml::from_str(&text).map_err(|e| WorkflowError::Kernel(format!("{}: {e}", file.display())))?;
    // The variant as `scenario::run_file` would find it from the file: its folder, as a path.
    let spec = if dir.is_absolute() { dir.display().to_string() } else { Path::new(".").join(dir).display().to_string() };
    let snap = scenario::run(&sc, &spec).map_err(|e| WorkflowError::Kernel(e.to_string()))?;
    let snap_path = dir.join("scenarios").join("snapshots").join(format!("{name}.snap"));
    let snap_text = snapshot_file(&file, &snap);
    Ok(vec![(file, text), (snap_path, snap_text)])
}
