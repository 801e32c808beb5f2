//! The interactive shell: rustyline over a [`Session`]. When standard input is not a terminal,
//! lines are read without a prompt and the first failing command exits with status 1.
//!
//! The shell does what needs a terminal, the disk or the clock: it performs the [`Effect`]s a
//! command returns (files are written with [`crate::files::write`]: atomically, or through a
//! device, FIFO or link), times the commands that ask for it, offers tab completion (derived
//! from each command's [`Arg`] kind), keeps the line history in the data directory, and keeps
//! the session's own autosave ([`crate::autosave`]; `boardlab play --resume` continues it).
//!
//! The autosave is written once the game has changed (a session that changes nothing leaves
//! none), and every change is on disk before its answer is shown: on a terminal after every
//! command; with piped input after the last of the lines already waiting (a replayed game is
//! saved once, not once a move), holding the answers back until then. When the session closes
//! and its game cannot be saved, the exit status says so. When standard output closes
//! (`boardlab play x | head -1`) it autosaves and stops quietly.
//!
//! Signals: Ctrl-C interrupts the running command ([`crate::interrupt`]); SIGTERM and SIGHUP
//! (a closed terminal) interrupt it too, and the shell leaves once the game is saved (status
//! 128 + the signal's number). While it waits for input everything is saved, so it then
//! leaves at once.

use crate::autosave;
use crate::files;
use crate::record::{self, Record, RecordError};
use crate::render::Style;
use crate::session::{Arg, COMMANDS, CommandError, Effect, Reply, Session, commands};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{Context, Editor, Helper, Highlighter, Hinter, Validator};
use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// Whether a command is running or the game has changes not yet saved (else the shell waits
/// for input, and its game is saved).
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

/// After a command: leaves if a termination signal came while it ran, once its game is saved.
fn leave_if_asked(s: &Session, save: &mut Autosave) {
    let sig = LEAVING.load(Ordering::SeqCst);
    if sig != 0 {
        let saved = save.save(s);
        let _saving = SAVING.lock();
        if let Err(e) = saved {
            let _ = writeln!(std::io::stderr(), "{e}");
        }
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
    /// The autosave to resume is held by a running session.
    #[error(transparent)]
    Locked(#[from] autosave::LockError),
    /// The game could not be saved when the session closed: the changes since the last save
    /// are lost.
    #[error("could not autosave the game to {}: {source}; the changes since the last save are not on disk", path.display())]
    Autosave { path: PathBuf, source: std::io::Error },
    /// A file a command asked for could not be written.
    #[error("{}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    /// A line of piped input failed (whatever echoed the line, it is quoted short).
    #[error("{line}: {}", files::clip_long_words(&source.to_string()))]
    Line { line: String, source: Box<ReplError> },
    /// A line of input is not UTF-8 text (it is skipped; the session goes on).
    #[error("line {0} of the input is not UTF-8 text; skipped")]
    NotUtf8(usize),
    /// A line of piped input is longer than [`MAX_LINE`] (the run stops there).
    #[error("line {0} of the input: {1}")]
    TooLong(usize, std::io::Error),
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

/// The longest line of piped input the shell reads (a move, a command, a position text).
pub(crate) const MAX_LINE: usize = 64 << 10;

/// The most answers (in bytes) held back while piped lines wait: past it, the game is saved
/// and they are shown.
const MAX_HELD: usize = 1 << 20;

/// Performs a reply's file writes (the other effects are the caller's: printing, leaving); a
/// file named `-` is standard output.
///
/// # Errors
/// A file cannot be written; the writes before it were made.
pub fn perform(reply: &Reply) -> Result<(), ReplError> {
    perform_to(reply, &mut std::io::stdout())
}

/// [`perform`], with `out` as standard output (so that a picture written to `-` comes in order
/// with the answers the shell holds back).
fn perform_to(reply: &Reply, out: &mut impl Write) -> Result<(), ReplError> {
    for e in &reply.effects {
        let (path, bytes) = match e {
            Effect::Write { path, contents } => (path, contents.as_bytes()),
            Effect::WriteBytes { path, bytes } => (path, bytes.as_slice()),
            Effect::Timed { .. } | Effect::Quit => continue,
        };
        if files::is_stdout(path) {
            out.write_all(bytes)?;
            continue;
        }
        files::write(path, bytes).map_err(|source| ReplError::Write { path: path.clone(), source })?;
    }
    Ok(())
}

/// Runs one line: the command, its effects, its output. Returns whether to leave. The game is
/// saved before the answer is written, unless `more` lines are already waiting (piped input:
/// the caller then holds the answers back, and saves and shows them after the last of them,
/// or after a failing or quitting line).
fn respond(s: &mut Session, line: &str, out: &mut impl Write, save: &mut Autosave, more: bool) -> Result<bool, ReplError> {
    let t = Instant::now();
    crate::interrupt::clear();
    BUSY.store(true, Ordering::SeqCst);
    let result = s.execute(line);
    crate::interrupt::clear();
    clear_progress();
    save.note(s);
    if !more && let Err(e) = save.save(s) {
        let _ = writeln!(std::io::stderr(), "{e}");
    }
    BUSY.store(save.dirty, Ordering::SeqCst);
    leave_if_asked(s, save);
    let reply = result?;
    let elapsed = t.elapsed();
    perform_to(&reply, out)?;
    if reply.quits() {
        return Ok(true);
    }
    out.write_all(reply.output(elapsed).as_bytes())?;
    out.flush()?;
    Ok(false)
}

/// The session's autosave: where it goes, the lock that keeps it ours, and whether the file
/// holds the game as it is.
struct Autosave {
    /// None without a data directory: nothing is saved.
    path: Option<PathBuf>,
    /// Taken when a resumed game opens, or when a new game is first saved.
    lock: Option<autosave::Lock>,
    /// The game as last saved (or as it opened), without its time.
    written: Record,
    /// The game has changed since.
    dirty: bool,
}

impl Autosave {
    fn new(path: Option<PathBuf>, lock: Option<autosave::Lock>, s: &Session) -> Autosave {
        Autosave { path, lock, written: s.autosave_record(), dirty: false }
    }

    /// Notes whether the last command changed the game (a command that failed changed nothing).
    fn note(&mut self, s: &Session) {
        if !self.dirty && s.autosave_record() != self.written {
            self.dirty = true;
        }
    }

    /// Writes the game if it changed since the last save, with the time inside.
    fn save(&mut self, s: &Session) -> Result<(), ReplError> {
        let rec = s.autosave_record();
        let Some(path) = self.path.clone().filter(|_| rec != self.written) else {
            self.dirty = false;
            return Ok(());
        };
        let _saving = SAVING.lock();
        if self.lock.is_none() {
            // A new session's own file: nobody else names it, so the lock cannot be held; a
            // failure to make it is a failure to save.
            self.lock = Some(
                autosave::Lock::take(&path)
                    .map_err(|e| ReplError::Autosave { path: path.clone(), source: std::io::Error::other(e.to_string()) })?,
            );
        }
        let text = Record { saved: Some(autosave::now_millis()), ..rec.clone() }.to_text();
        files::write(&path, text).map_err(|source| ReplError::Autosave { path, source })?;
        (self.written, self.dirty) = (rec, false);
        Ok(())
    }
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

/// Which game the REPL opens: a new one, or an autosaved session's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    No,
    /// The N-th most recent autosave (1 = the latest).
    Nth(usize),
    /// List the autosaves and stop.
    List,
}

impl Resume {
    /// `--resume` (the latest), `--resume N` or `--resume list`.
    pub(crate) fn parse(arg: Option<&str>) -> Option<Resume> {
        match arg {
            None => Some(Resume::No),
            Some("" | "latest") => Some(Resume::Nth(1)),
            Some("list") => Some(Resume::List),
            Some(n) => n.parse().ok().filter(|&n| n > 0).map(Resume::Nth),
        }
    }
}

/// The autosaved sessions, newest first, numbered for `--resume N`.
pub(crate) fn list_autosaves() -> String {
    let mut s = String::new();
    for (i, f) in autosave::list().iter().enumerate() {
        let mut what = match &f.record {
            Ok(r) => format!("{}, {} moves{}", r.variant, r.moves.len(), if r.result.is_some() { ", over" } else { "" }),
            Err(e) => format!("unreadable: {}", files::quote(&e.to_string())),
        };
        if f.live() {
            what.push_str("; open in a running session");
        }
        s.push_str(&format!("{:>3}. {} ({what})\n", i + 1, f.path.file_name().map_or(String::new(), |n| n.to_string_lossy().to_string())));
    }
    if s.is_empty() { "no autosaved games\n".into() } else { s }
}

/// Opens the session (on a variant, or on an autosaved game) and its autosave: a new file per
/// session (after pruning old ones, which it reports), or the resumed game's own, locked.
fn open(variant: &str, sets: &[(String, String)], resume: Resume, style: Style) -> Result<(Session, Autosave), ReplError> {
    let Resume::Nth(n) = resume else {
        let s = Session::new(variant, sets, style)?;
        let removed = autosave::prune();
        if removed > 0 {
            let _ = writeln!(
                std::io::stderr(),
                "removed {removed} old autosave{} of finished or empty games (kept: the newest {}, and every game in progress)",
                if removed == 1 { "" } else { "s" },
                autosave::KEPT
            );
        }
        let save = Autosave::new(autosave::new_path(s.variant.name()), None, &s);
        return Ok((s, save));
    };
    record::data_dir().ok_or(ReplError::NoDataDir)?;
    let found = autosave::list().into_iter().nth(n - 1).ok_or(ReplError::NoAutosave(n))?;
    let lock = autosave::Lock::take(&found.path)?;
    let rec = found.record.map_err(ReplError::Resume)?;
    let s = Session::from_record(&rec, style)?;
    let save = Autosave::new(Some(found.path), Some(lock), &s);
    Ok((s, save))
}

/// Runs the REPL on a variant (or, with `resume`, on the autosaved game), autosaving when it
/// closes. A closed standard output ends it quietly.
///
/// # Errors
/// The variant does not load, a command failed in non-interactive use, or the terminal failed.
pub(crate) fn run(variant: &str, sets: &[(String, String)], resume: Resume) -> Result<(), ReplError> {
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
    let (mut s, mut save) = open(variant, sets, resume, Style { color })?;
    crate::interrupt::install()?;
    watch_termination();
    s.progress = progress_line();
    let resumed = resume != Resume::No;
    let result =
        if interactive { run_interactive(&mut s, resumed, color, &mut out, &mut save) } else { run_piped(&mut s, &mut out, &mut save) };
    // Saved last, whatever happened: a game that cannot be saved makes the exit status fail.
    let saved = save.save(&s);
    match result {
        Err(e) if !e.is_broken_pipe() => {
            if let Err(not_saved) = saved {
                let _ = writeln!(std::io::stderr(), "{not_saved}");
            }
            Err(e)
        }
        _ => saved,
    }
}

/// Piped input: no prompt; the first failing line stops the run (an interrupted command and a
/// line that is not UTF-8 are reported, and the run goes on). Lines are at most [`MAX_LINE`]
/// long; a byte-order mark before the first is dropped. While more lines are already waiting
/// the answers are held back, and shown once the game is saved after the last of them.
fn run_piped(s: &mut Session, out: &mut impl Write, save: &mut Autosave) -> Result<(), ReplError> {
    // A buffer of our own, to see whether another whole line is already waiting.
    let mut input = std::io::BufReader::with_capacity(MAX_LINE, std::io::stdin().lock());
    let mut held: Vec<u8> = Vec::new();
    let mut bytes = Vec::new();
    let mut number = 0;
    let result = loop {
        match files::read_line_limited(&mut input, &mut bytes, MAX_LINE) {
            Ok(0) => break Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => break Err(ReplError::TooLong(number + 1, e)),
            Err(e) => break Err(e.into()),
        }
        number += 1;
        let text = if number == 1 { bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes) } else { &bytes };
        let more = input.buffer().contains(&b'\n') && held.len() < MAX_HELD;
        let Ok(line) = std::str::from_utf8(text) else {
            let _ = writeln!(std::io::stderr(), "{}", ReplError::NotUtf8(number));
            if !more {
                save_and_show(s, save, &mut held, out)?;
            }
            continue;
        };
        let r = respond(s, line, &mut held, save, more);
        if !more || !matches!(r, Ok(false)) {
            save_and_show(s, save, &mut held, out)?;
        }
        match r {
            Ok(false) => {}
            Ok(true) => break Ok(()),
            Err(ReplError::Command(e @ CommandError::Interrupted(_))) => {
                let _ = writeln!(std::io::stderr(), "{}: {e}", files::quote(line.trim()));
            }
            Err(e) => break Err(ReplError::Line { line: files::quote(line.trim()), source: Box::new(e) }),
        }
    };
    save_and_show(s, save, &mut held, out)?;
    result
}

/// Saves the game (when it changed; a failure is reported, and the session goes on), then
/// shows the answers held back.
fn save_and_show(s: &Session, save: &mut Autosave, held: &mut Vec<u8>, out: &mut impl Write) -> Result<(), ReplError> {
    if let Err(e) = save.save(s) {
        let _ = writeln!(std::io::stderr(), "{e}");
    }
    BUSY.store(save.dirty, Ordering::SeqCst);
    out.write_all(held)?;
    out.flush()?;
    held.clear();
    Ok(())
}

/// The terminal: prompt, completion, line history; errors are shown and the session goes on.
fn run_interactive(s: &mut Session, resume: bool, color: bool, out: &mut impl Write, save: &mut Autosave) -> Result<(), ReplError> {
    let r = &s.variant.rules;
    writeln!(out, "boardlab — {} ({}). Type help for the commands, a move to play it, Tab to complete.", r.title, s.variant.name())?;
    if resume {
        writeln!(out, "resumed the autosaved game ({} moves)", s.played.len())?;
        write!(out, "{}", s.machine_note())?;
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
                match respond(s, &line, out, save, false) {
                    Ok(true) => break Ok(()),
                    Ok(false) => {}
                    Err(e) if e.is_broken_pipe() => break Err(e),
                    Err(e) => {
                        let e = files::clip_long_words(&e.to_string());
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
