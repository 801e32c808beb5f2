//! The interactive shell: rustyline over a [`Session`]. When standard input is not a terminal,
//! lines are read without a prompt and the first failing command exits with status 1.
//!
//! The shell does what needs a terminal, the disk or the clock: it performs the [`Effect`]s a
//! command returns (files are written atomically: a temporary file in the same folder, flushed,
//! synced and renamed over the target), times the commands that ask for it, offers tab
//! completion (derived from each command's [`Arg`] kind), keeps the line history in the data
//! directory, and writes the session's own autosave after every change and when it closes
//! (`boardlab play --resume` continues it).
//! When standard output closes (`boardlab play x | head -1`) it autosaves and stops quietly.
//!
//! Signals: Ctrl-C interrupts the running command ([`crate::interrupt`]); SIGTERM and SIGHUP
//! (a closed terminal) interrupt it too, and the shell leaves once the game is saved (status
//! 128 + the signal's number). Since the game is saved after every change, leaving at once
//! while waiting for input loses nothing.

use crate::record::{self, Record, RecordError};
use crate::render::Style;
use crate::session::{Arg, COMMANDS, CommandError, Effect, Reply, Session, commands};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{Context, Editor, Helper, Highlighter, Hinter, Validator};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// Whether a command is running (else the shell waits for input, and its game is saved).
static BUSY: AtomicBool = AtomicBool::new(false);
/// The termination signal received (SIGTERM, SIGHUP), or 0.
static LEAVING: AtomicI32 = AtomicI32::new(0);
/// Held while the autosave is written, so a termination never exits in the middle of it.
static SAVING: Mutex<()> = Mutex::new(());

/// Leaves on SIGTERM or SIGHUP: at once when the shell waits for input (the game was saved
/// after its last change); else the running command is interrupted and the shell leaves after
/// saving what it finished (waiting at most 3 s for it).
fn watch_termination() {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP]) else { return };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            LEAVING.store(sig, Ordering::SeqCst);
            crate::interrupt::request();
            let t = Instant::now();
            while BUSY.load(Ordering::SeqCst) && t.elapsed() < Duration::from_secs(3) {
                std::thread::sleep(Duration::from_millis(10));
            }
            let _saving = SAVING.lock();
            std::process::exit(128 + sig);
        }
    });
}

/// After a command: leaves if a termination signal came while it ran (its game is saved).
fn leave_if_asked() {
    let sig = LEAVING.load(Ordering::SeqCst);
    if sig != 0 {
        let _saving = SAVING.lock();
        std::process::exit(128 + sig);
    }
}

/// The progress line long commands report, on standard error when it is a terminal (at most
/// ten times a second); [`clear_progress`] removes it.
fn progress_line() -> Option<crate::session::Progress> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let mut last: Option<Instant> = None;
    Some(Box::new(move |msg: &str| {
        if last.is_none_or(|t| t.elapsed() >= Duration::from_millis(100)) {
            last = Some(Instant::now());
            let width = 100;
            let shown: String = msg.chars().take(width).collect();
            let _ = write!(std::io::stderr(), "\r\x1b[K{shown}");
        }
    }))
}

fn clear_progress() {
    if std::io::stderr().is_terminal() {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
}

/// Why the shell stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ReplError {
    /// The session could not open, or (inside [`ReplError::Line`]) a command failed.
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error("no data directory (set BOARDLAB_DATA_DIR)")]
    NoDataDir,
    #[error("nothing to resume: {0}")]
    Resume(RecordError),
    #[error("no autosaved game {0} (`boardlab play --resume list` lists them)")]
    NoAutosave(usize),
    /// A file a command asked for could not be written.
    #[error("{}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    /// A line of piped input failed.
    #[error("{line}: {source}")]
    Line { line: String, source: Box<ReplError> },
    /// A line of input is not UTF-8 text (it is skipped; the session goes on).
    #[error("line {0} of the input is not UTF-8 text; skipped")]
    NotUtf8(usize),
    /// Standard input or output failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Terminal(#[from] ReadlineError),
}

impl ReplError {
    /// Whether standard output was closed by its reader: not an error for the shell.
    fn is_broken_pipe(&self) -> bool {
        match self {
            ReplError::Io(e) => e.kind() == std::io::ErrorKind::BrokenPipe,
            ReplError::Line { source, .. } => source.is_broken_pipe(),
            _ => false,
        }
    }
}

/// Writes `contents` (text or bytes) to `path` atomically: a temporary file in the same folder
/// (created if missing), flushed and synced, then renamed over `path`. A crash leaves the old
/// file or the new one, never half of one.
///
/// # Errors
/// The folder cannot be created or the file cannot be written or renamed.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    // The temporary file is private (0600); the file it becomes keeps the permissions of the
    // file it replaces, or gets the usual 0644, so a picture can be served or shared.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o7777);
        tmp.as_file().set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    tmp.write_all(contents.as_ref())?;
    tmp.flush()?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Performs a reply's file writes (the other effects are the caller's: printing, leaving).
///
/// # Errors
/// A file cannot be written; the writes before it were made.
pub fn perform(reply: &Reply) -> Result<(), ReplError> {
    for e in &reply.effects {
        let (path, bytes) = match e {
            Effect::Write { path, contents } => (path, contents.as_bytes()),
            Effect::WriteBytes { path, bytes } => (path, bytes.as_slice()),
            Effect::Timed { .. } | Effect::Quit => continue,
        };
        write_atomic(path, bytes).map_err(|source| ReplError::Write { path: path.clone(), source })?;
    }
    Ok(())
}

/// Runs one line: the command, its effects, its output. Returns whether to leave.
fn respond(s: &mut Session, line: &str, out: &mut impl Write, save: &Option<PathBuf>) -> Result<bool, ReplError> {
    let t = Instant::now();
    let before = s.autosave_record();
    crate::interrupt::clear();
    BUSY.store(true, Ordering::SeqCst);
    let result = s.execute(line);
    crate::interrupt::clear();
    clear_progress();
    // Every change to the game is saved at once (atomically), so a killed process loses at most
    // the command it was running. (A command that failed changed nothing.)
    if s.autosave_record() != before {
        autosave(s, save);
    }
    BUSY.store(false, Ordering::SeqCst);
    leave_if_asked();
    let reply = result?;
    let elapsed = t.elapsed();
    perform(&reply)?;
    if reply.quits() {
        return Ok(true);
    }
    out.write_all(reply.output(elapsed).as_bytes())?;
    out.flush()?;
    Ok(false)
}

/// What completion offers, refreshed after every command.
#[derive(Default)]
struct Words {
    moves: Vec<String>,
    options: Vec<(String, Vec<String>)>,
    players: Vec<String>,
    variants: Vec<String>,
}

/// What a word of a command's arguments completes to: a list, or file names.
enum Offer {
    List(Vec<String>),
    Files,
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

impl Words {
    /// The candidates for argument word number `before.len()` of a command of kind `arg`.
    fn offer(&self, arg: Arg, before: &[&str]) -> Offer {
        let list = match (arg, before) {
            (Arg::File, _) => return Offer::Files,
            (Arg::Move, []) => self.moves.clone(),
            (Arg::Variant, []) => self.variants.clone(),
            (Arg::Option, []) => self.options.iter().map(|o| o.0.clone()).collect(),
            (Arg::Option, [name]) => self.options.iter().find(|o| o.0 == *name).map(|o| o.1.clone()).unwrap_or_default(),
            (Arg::OnOff, []) => strings(&["on", "off"]),
            (Arg::Player, []) => self.players.clone(),
            (Arg::MachineSide, []) => self.players.iter().cloned().chain(strings(&["none", "both"])).collect(),
            (Arg::MachineSide, [_]) | (Arg::Engine, _) => strings(&["random", "mcts", "ab"]),
            (Arg::CommandName, []) => COMMANDS.iter().map(|c| c.name.to_string()).collect(),
            _ => vec![],
        };
        Offer::List(list)
    }

    /// The first word: a command or a legal move.
    fn first(&self) -> Vec<String> {
        COMMANDS.iter().filter(|c| c.name != commands::MOVE).map(|c| c.name.to_string()).chain(self.moves.iter().cloned()).collect()
    }
}

#[derive(Helper, Hinter, Highlighter, Validator)]
struct Shell {
    words: Rc<RefCell<Words>>,
    files: FilenameCompleter,
}

impl Completer for Shell {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let head = &line[..pos];
        let start = head.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &head[start..];
        let before: Vec<&str> = head[..start].split_whitespace().collect();
        let w = self.words.borrow();
        let list = match before.split_first() {
            None => w.first(),
            Some((name, args)) => match commands::find(name).map(|c| w.offer(c.arg, args)) {
                Some(Offer::Files) => return self.files.complete(line, pos, ctx),
                Some(Offer::List(l)) => l,
                None => vec![],
            },
        };
        let mut out: Vec<Pair> =
            list.into_iter().filter(|c| c.starts_with(word)).map(|c| Pair { display: c.clone(), replacement: c }).collect();
        out.sort_by(|a, b| a.display.cmp(&b.display));
        out.dedup_by(|a, b| a.display == b.display);
        Ok((start, out))
    }
}

fn refresh(words: &RefCell<Words>, s: &mut Session) {
    let mut w = words.borrow_mut();
    let mut legal = Vec::new();
    if s.variant.legal_moves(&mut s.pos, &mut legal).is_ok() {
        w.moves = legal.iter().map(|m| m.text(&s.variant.rules.geometry)).collect();
    }
    w.options = s
        .variant
        .rules
        .options
        .decls
        .iter()
        .map(|d| {
            let vals = match &d.ty {
                crate::rules::OptionType::Choice(c) => c.clone(),
                crate::rules::OptionType::Bool => strings(&["true", "false"]),
                crate::rules::OptionType::Int { .. } => vec![d.default.to_string()],
            };
            (d.name.clone(), vals)
        })
        .collect();
    w.players = s.player_list().split('|').map(String::from).collect();
}

/// Writes the session's autosave; problems are reported, never fatal.
fn autosave(s: &Session, save: &Option<PathBuf>) {
    let _saving = SAVING.lock();
    if let Some(p) = save
        && let Err(e) = perform(&Reply::default().with(s.autosave(p.clone())))
    {
        let _ = writeln!(std::io::stderr(), "could not autosave: {e}");
    }
}

/// Which game the REPL opens: a new one, or an autosaved session's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    No,
    /// The N-th most recent autosave (1 = the latest).
    Nth(usize),
    /// List the autosaves and stop.
    List,
}

impl Resume {
    /// `--resume` (the latest), `--resume N` or `--resume list`.
    pub fn parse(arg: Option<&str>) -> Option<Resume> {
        match arg {
            None => Some(Resume::No),
            Some("" | "latest") => Some(Resume::Nth(1)),
            Some("list") => Some(Resume::List),
            Some(n) => n.parse().ok().filter(|&n| n > 0).map(Resume::Nth),
        }
    }
}

/// The autosaved sessions, newest first, numbered for `--resume N`.
pub fn list_autosaves() -> String {
    let mut s = String::new();
    for (i, p) in record::autosaves().iter().enumerate() {
        let what = match Record::load(p) {
            Ok(r) => format!("{}, {} moves", r.variant, r.moves.len()),
            Err(e) => format!("unreadable: {e}"),
        };
        s.push_str(&format!("{:>3}. {} ({what})\n", i + 1, p.file_name().map_or(String::new(), |n| n.to_string_lossy().to_string())));
    }
    if s.is_empty() { "no autosaved games\n".into() } else { s }
}

/// Opens the session (on a variant, or on an autosaved game) and the file its autosave goes to:
/// a new one per session, or the resumed game's own.
fn open(variant: &str, sets: &[(String, String)], resume: Resume, style: Style) -> Result<(Session, Option<PathBuf>), ReplError> {
    let Resume::Nth(n) = resume else {
        let s = Session::new(variant, sets, style)?;
        let save = record::new_autosave_path(s.variant.name());
        return Ok((s, save));
    };
    record::data_dir().ok_or(ReplError::NoDataDir)?;
    let p = record::autosaves().into_iter().nth(n - 1).ok_or(ReplError::NoAutosave(n))?;
    let rec = Record::load(&p).map_err(ReplError::Resume)?;
    Ok((Session::from_record(&rec, style)?, Some(p)))
}

/// Runs the REPL on a variant (or, with `resume`, on the autosaved game), autosaving when it
/// closes. A closed standard output ends it quietly.
///
/// # Errors
/// The variant does not load, a command failed in non-interactive use, or the terminal failed.
pub fn run(variant: &str, sets: &[(String, String)], resume: Resume) -> Result<(), ReplError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if resume == Resume::List {
        return match out.write_all(list_autosaves().as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => Ok(r?),
        };
    }
    let interactive = std::io::stdin().is_terminal();
    let color = interactive && std::env::var_os("NO_COLOR").is_none();
    let (mut s, save) = open(variant, sets, resume, Style { color })?;
    crate::interrupt::install()?;
    watch_termination();
    s.progress = progress_line();
    let resumed = resume != Resume::No;
    let result = if interactive { run_interactive(&mut s, resumed, color, &mut out, &save) } else { run_piped(&mut s, &mut out, &save) };
    autosave(&s, &save);
    match result {
        Err(e) if e.is_broken_pipe() => Ok(()),
        r => r,
    }
}

/// Piped input: no prompt; the first failing line stops the run (an interrupted command and a
/// line that is not UTF-8 are reported, and the run goes on).
fn run_piped(s: &mut Session, out: &mut impl Write, save: &Option<PathBuf>) -> Result<(), ReplError> {
    let stdin = std::io::stdin();
    let mut bytes = Vec::new();
    let mut number = 0;
    loop {
        bytes.clear();
        if stdin.lock().read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        number += 1;
        let Ok(line) = std::str::from_utf8(&bytes) else {
            let _ = writeln!(std::io::stderr(), "{}", ReplError::NotUtf8(number));
            continue;
        };
        match respond(s, line, out, save) {
            Ok(false) => {}
            Ok(true) => return Ok(()),
            Err(ReplError::Command(e @ CommandError::Interrupted(_))) => {
                let _ = writeln!(std::io::stderr(), "{}: {e}", line.trim());
            }
            Err(e) => return Err(ReplError::Line { line: line.trim().to_string(), source: Box::new(e) }),
        }
    }
}

/// The terminal: prompt, completion, line history; errors are shown and the session goes on.
fn run_interactive(s: &mut Session, resume: bool, color: bool, out: &mut impl Write, save: &Option<PathBuf>) -> Result<(), ReplError> {
    let r = &s.variant.rules;
    writeln!(out, "boardlab — {} ({}). Type help for the commands, a move to play it, Tab to complete.", r.title, s.variant.name())?;
    if resume {
        writeln!(out, "resumed the autosaved game ({} moves)", s.played.len())?;
    }
    write!(out, "{}", s.board())?;
    out.flush()?;
    let mut variants: Vec<String> = crate::variant::all_variants().into_iter().map(|(n, _, _)| n).collect();
    variants.sort();
    variants.dedup();
    let words = Rc::new(RefCell::new(Words { variants, ..Words::default() }));
    refresh(&words, s);
    let config = rustyline::Config::builder().completion_type(rustyline::CompletionType::List).auto_add_history(false).build();
    let mut rl: Editor<Shell, DefaultHistory> = Editor::with_config(config)?;
    rl.set_helper(Some(Shell { words: words.clone(), files: FilenameCompleter::new() }));
    let history = record::data_dir().map(|d| d.join("history.txt"));
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    let result = loop {
        let prompt = s.prompt();
        let shown = if color { format!("\x1b[1;36m{prompt}\x1b[0m") } else { prompt.clone() };
        match rl.readline(&(prompt.as_str(), shown.as_str())) {
            Ok(line) => {
                let _ = rl.add_history_entry(line.as_str());
                match respond(s, &line, out, save) {
                    Ok(true) => break Ok(()),
                    Ok(false) => {}
                    Err(e) if e.is_broken_pipe() => break Err(e),
                    Err(e) => {
                        let e = e.to_string();
                        let _ = writeln!(std::io::stderr(), "{}", if color { format!("\x1b[31m{e}\x1b[0m") } else { e });
                    }
                }
                refresh(&words, s);
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break Ok(()),
            Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                let _ = writeln!(std::io::stderr(), "that line is not UTF-8 text; skipped");
            }
            Err(e) => break Err(e.into()),
        }
    };
    if let Some(h) = &history {
        if let Some(d) = h.parent() {
            let _ = std::fs::create_dir_all(d);
        }
        let _ = rl.save_history(h);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered(w: &Words, line: &[&str]) -> Option<Vec<String>> {
        let (name, args) = line.split_first()?;
        match w.offer(commands::find(name)?.arg, args) {
            Offer::List(l) => Some(l),
            Offer::Files => None,
        }
    }

    #[test]
    fn completion_follows_the_argument_kinds() {
        let w = Words {
            moves: strings(&["c3-d4"]),
            options: vec![("no_moves".into(), strings(&["loss", "draw"]))],
            players: strings(&["white", "black"]),
            variants: strings(&["checkers"]),
        };
        assert!(w.first().contains(&"history".to_string()) && w.first().contains(&"c3-d4".to_string()));
        assert!(!w.first().contains(&commands::MOVE.to_string()));
        assert_eq!(offered(&w, &["why"]), Some(strings(&["c3-d4"])));
        assert_eq!(offered(&w, &["set"]), Some(strings(&["no_moves"])));
        assert_eq!(offered(&w, &["set", "no_moves"]), Some(strings(&["loss", "draw"])));
        assert_eq!(offered(&w, &["variant"]), Some(strings(&["checkers"])));
        assert_eq!(offered(&w, &["trace"]), Some(strings(&["on", "off"])));
        assert_eq!(offered(&w, &["play"]), Some(strings(&["white", "black", "none", "both"])));
        assert_eq!(offered(&w, &["play", "black"]), Some(strings(&["random", "mcts", "ab"])));
        assert_eq!(offered(&w, &["?"]).map(|l| l.len()), Some(COMMANDS.len()));
        assert_eq!(offered(&w, &["save"]), None, "file names");
        assert_eq!(offered(&w, &["undo"]), Some(vec![]));
    }
}
