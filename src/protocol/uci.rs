//! `boardlab uci`: the Universal Chess Interface, as Fairy-Stockfish speaks it, for every
//! variant the resolver finds (`UCI_Variant`); and the one loop both protocols share, with
//! USI's dialect (`boardlab usi`, [`super::usi`]: its words, coordinates and positions).
//!
//! Standard input is read by a thread of its own, one line at a time with a length limit
//! ([`MAX_LINE`]), so that `stop` and `quit` reach a running search: that thread sets the
//! search's stop flag (and, for `go perft`, the interrupt flag) the moment it reads them, and
//! hands every line on to the main thread, which answers in order. The search runs on the main
//! thread because a variant's script engine stays on the thread that loaded it. `isready` read
//! while a search runs is answered from the search itself (its [`search::Control::poll`], every
//! 1024 positions), so that only the main thread writes and `readyok` never waits for
//! `bestmove`.
//!
//! A line the loop cannot use gets an `info string` saying why; nothing the client sends ends
//! the loop but `quit` and the end of input. Moves are in the coordinate form of
//! [`super::coords`]. The commands and options are documented in `docs/protocols.md`.

use super::coords::{self, Dialect};
use super::usi;
use crate::ai::{self, Budget, Rng, search};
use crate::notation::MAX_MOVES_TEXT;
use crate::state::Position;
use crate::variant::{self, Variant};
use std::cell::RefCell;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest line read: a `position` with a long game's moves fits many times over.
pub(crate) const MAX_LINE: usize = MAX_MOVES_TEXT;

/// The variant played until `setoption name UCI_Variant` says otherwise.
pub(crate) const DEFAULT_VARIANT: &str = "chess";

/// The deepest `go perft` accepted (the count of a deeper tree would not finish anyway).
pub(crate) const MAX_PERFT: u32 = 12;

/// Moves a clock is shared out over when `movestogo` is not given.
const MOVES_TO_GO: u64 = 30;

/// The largest `Hash` accepted, in MiB (the search's table never grows past its own size).
pub(crate) const MAX_HASH_MIB: u64 = 4096;

/// `isready` while a search runs: the reader counts it (`pending`) rather than passing it on,
/// and the search answers it; both sides hold the lock for the check and the count, so none is
/// lost between a search's last answer and its end.
#[derive(Default)]
struct Ready {
    searching: bool,
    pending: u32,
}

type SharedReady = Arc<Mutex<Ready>>;

/// Writes `readyok` for each `isready` counted during the search (and stops counting when
/// `done`).
fn answer_ready(ready: &SharedReady, done: bool, out: &mut dyn Write) -> io::Result<()> {
    let n = {
        let mut r = ready.lock().unwrap_or_else(|e| e.into_inner());
        if done {
            r.searching = false;
        }
        std::mem::take(&mut r.pending)
    };
    for _ in 0..n {
        writeln!(out, "readyok")?;
    }
    if n > 0 {
        out.flush()?;
    }
    Ok(())
}

/// What the reader thread hands on: a line (with its own stop flag for a `go`), or why a line
/// could not be read.
enum Input {
    Line(String, Option<Arc<AtomicBool>>),
    Bad(String),
}

/// Runs the protocol until `quit` or the end of `input`, answering on `out`.
///
/// `owns_process`: the loop is the whole program, so `stop` and `quit` may also raise the
/// process's interrupt flag ([`crate::interrupt`]), which is what stops a `go perft` (tests
/// that run loops beside other work pass false: such a perft then runs to its end).
///
/// # Errors
/// Writing to `out` failed.
pub(crate) fn run(input: Box<dyn BufRead + Send>, out: &mut dyn Write, owns_process: bool) -> io::Result<()> {
    run_dialect(Dialect::Uci, input, out, owns_process)
}

/// [`run`] in a dialect: UCI's, or USI's (`boardlab usi`; its own parts in [`super::usi`]).
///
/// # Errors
/// Writing to `out` failed.
pub(crate) fn run_dialect(dialect: Dialect, input: Box<dyn BufRead + Send>, out: &mut dyn Write, owns_process: bool) -> io::Result<()> {
    let ready = SharedReady::default();
    let lines = spawn_reader(input, owns_process, ready.clone());
    let first = if dialect == Dialect::Usi { usi::DEFAULT_VARIANT } else { DEFAULT_VARIANT };
    let mut engine = match Engine::new(first) {
        Ok(e) => Engine { owns_process, dialect, ready, ..e },
        Err(e) => {
            writeln!(out, "info string {e}")?;
            return out.flush();
        }
    };
    while let Ok(input) = lines.recv() {
        let (line, stop) = match input {
            Input::Line(l, stop) => (l, stop.unwrap_or_default()),
            Input::Bad(why) => {
                writeln!(out, "info string {why}")?;
                out.flush()?;
                continue;
            }
        };
        let go_on = engine.handle(&line, &stop, out)?;
        out.flush()?;
        if !go_on {
            break;
        }
    }
    Ok(())
}

/// Reads `input` on a thread of its own (see the module documentation); the end of input
/// reads as `quit` (one that lets a running command with a budget finish).
///
/// Each `go` gets a stop flag of its own, so a `stop` read before its `go` is handled is never
/// lost to a later `go`; `stop` and `quit` raise the flag of the latest `go` (and the interrupt
/// flag when that `go` is a perft of a loop that owns the process).
fn spawn_reader(mut input: Box<dyn BufRead + Send>, owns_process: bool, ready: SharedReady) -> Receiver<Input> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let (mut latest, mut perft, mut infinite) = (Arc::new(AtomicBool::new(false)), false, false);
        let stop = |latest: &AtomicBool, perft: bool| {
            latest.store(true, Ordering::SeqCst);
            if perft {
                crate::interrupt::request();
            }
        };
        loop {
            let sent = match crate::files::read_line_limited(&mut input, &mut buf, MAX_LINE) {
                Ok(0) | Err(_) if buf.is_empty() => {
                    // The end of input lets a running command finish (`echo "go perft 5" |
                    // boardlab uci` counts), except one that would never end.
                    if infinite {
                        stop(&latest, perft);
                    }
                    let _ = tx.send(Input::Line("quit".into(), None));
                    return;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    let mut go = None;
                    match line.split_whitespace().next().unwrap_or("") {
                        "go" => {
                            latest = Arc::new(AtomicBool::new(false));
                            perft = owns_process && line.split_whitespace().nth(1) == Some("perft");
                            infinite = line.split_whitespace().any(|w| w == "infinite");
                            go = Some(latest.clone());
                        }
                        "stop" | "quit" => stop(&latest, perft),
                        "isready" => {
                            let mut r = ready.lock().unwrap_or_else(|e| e.into_inner());
                            if r.searching {
                                r.pending += 1;
                                continue;
                            }
                        }
                        _ => {}
                    }
                    tx.send(Input::Line(line, go))
                }
                Err(e) => {
                    let sent = tx.send(Input::Bad(format!("line ignored: {e}")));
                    skip_rest_of_line(&mut input);
                    sent
                }
            };
            if sent.is_err() {
                return;
            }
        }
    });
    rx
}

/// Reads and drops what is left of an over-long line (it may never end: then to the end of
/// input).
fn skip_rest_of_line(input: &mut dyn BufRead) {
    loop {
        let (used, done) = match input.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(b) => match b.iter().position(|&c| c == b'\n') {
                Some(i) => (i + 1, true),
                None => (b.len(), false),
            },
        };
        input.consume(used);
        if done {
            return;
        }
    }
}

/// The protocol's state: the variant, the position set by `position`, the search's generator.
struct Engine {
    /// See [`run`].
    owns_process: bool,
    dialect: Dialect,
    ready: SharedReady,
    /// The budget of a `go` with no limit (the option `Budget`).
    budget: Budget,
    /// The option `Hash` (`USI_Hash`), in MiB.
    hash_mib: Option<u64>,
    v: Variant,
    name: String,
    pos: Position,
    seed: u64,
    rng: Rng,
}

impl Engine {
    fn new(variant: &str) -> Result<Engine, String> {
        let v = Variant::load(variant, &[]).map_err(|e| format!("variant `{}`: {e}", crate::files::quote(variant)))?;
        let pos = v.start();
        Ok(Engine {
            owns_process: false,
            dialect: Dialect::Uci,
            ready: SharedReady::default(),
            budget: Budget::Default,
            hash_mib: None,
            v,
            name: variant.to_string(),
            pos,
            seed: 1,
            rng: ai::rng(1),
        })
    }

    /// Answers one line; `Ok(false)` after `quit`.
    fn handle(&mut self, line: &str, stop: &Arc<AtomicBool>, out: &mut dyn Write) -> io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else { return Ok(true) };
        let rest: Vec<&str> = words.collect();
        let answer = match command {
            "uci" | "usi" => identify(self.dialect, out).map(|()| Ok(())),
            "isready" => writeln!(out, "readyok").map(|()| Ok(())),
            "ucinewgame" | "usinewgame" => {
                self.pos = self.v.start();
                self.rng = ai::rng(self.seed);
                Ok(Ok(()))
            }
            "setoption" => Ok(self.set_option(&rest)),
            "position" => Ok(self.set_position(&rest)),
            "go" => self.go(&rest, stop, out),
            "quit" => return Ok(false),
            // A `stop` with no search running (or read after its search ended), and commands
            // that need no answer from an engine that does not ponder.
            "stop" | "ponderhit" | "debug" | "register" | "gameover" => Ok(Ok(())),
            _ => Ok(Err(format!("unknown command `{}`", crate::files::quote(command)))),
        }?;
        if let Err(why) = answer {
            // One line, whatever the error (a variant's load error spans several).
            writeln!(out, "info string {}", why.split_whitespace().collect::<Vec<_>>().join(" "))?;
        }
        Ok(true)
    }

    /// `setoption name NAME [value VALUE]`: `UCI_Variant` loads the variant named and starts
    /// its game; `Seed` seeds the search's generator. A failure keeps everything as it was.
    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let (name, value) = option_words(words)?;
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" | "usi_variant" => {
                if value != self.name {
                    let ready = self.ready.clone();
                    let kept = Engine {
                        owns_process: self.owns_process,
                        dialect: self.dialect,
                        budget: self.budget,
                        hash_mib: self.hash_mib,
                        seed: self.seed,
                        ready,
                        ..Engine::new(&value)?
                    };
                    *self = kept;
                    self.rng = ai::rng(self.seed);
                }
                Ok(())
            }
            "budget" => {
                let e = ai::Engine::parse(&if value.starts_with("ab") { value.clone() } else { format!("ab:{value}") })
                    .map_err(|e| format!("Budget: {e}"))?;
                let ai::Engine::AlphaBeta(b) = e else { return Err("Budget: an alpha-beta budget (d4, 20000, 500ms)".into()) };
                self.budget = b;
                Ok(())
            }
            "hash" | "usi_hash" => {
                let mib = value.parse::<u64>().ok().filter(|m| (1..=MAX_HASH_MIB).contains(m));
                self.hash_mib = Some(mib.ok_or_else(|| {
                    format!("Hash: a whole number of MiB from 1 to {MAX_HASH_MIB}, not `{}`", crate::files::quote(&value))
                })?);
                Ok(())
            }
            "seed" => {
                self.seed = value.parse().map_err(|_| format!("Seed: `{}` is not a whole number", crate::files::quote(&value)))?;
                self.rng = ai::rng(self.seed);
                Ok(())
            }
            // Options GUIs set whatever the engine offers: accepted, nothing to do.
            "ponder" | "usi_ponder" | "uci_analysemode" | "multipv" | "threads" | "clear hash" => Ok(()),
            _ => Err(format!(
                "no option `{}` (the options: {}_Variant, Budget, Hash, Seed)",
                crate::files::quote(&name),
                self.dialect_word()
            )),
        }
    }

    /// `position startpos|fen FEN|sfen SFEN [moves M…]`: the position is replaced only when
    /// every part of the line reads. Moves are in the dialect's coordinates.
    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
        let (setup, moves) = (&words[..moves_at], words.get(moves_at + 1..).unwrap_or(&[]));
        let mut pos = match setup {
            ["startpos"] => self.v.start(),
            ["fen", fen @ ..] if !fen.is_empty() => {
                crate::fen::read(&self.v.rules, &fen.join(" ")).map_err(|e| format!("position fen: {e}"))?
            }
            ["sfen", sfen @ ..] if !sfen.is_empty() => {
                let fen = super::sfen::to_fen(&sfen.join(" ")).map_err(|e| format!("position sfen: {e}"))?;
                crate::fen::read(&self.v.rules, &fen).map_err(|e| format!("position sfen: {e}"))?
            }
            _ => {
                return Err(format!(
                    "expected position startpos|{} [moves M…]",
                    if self.dialect == Dialect::Usi { "sfen SFEN" } else { "fen FEN" }
                ));
            }
        };
        let mut legal = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            self.v.legal_moves(&mut pos, &mut legal).map_err(|e| e.to_string())?;
            let mv = coords::find_at(self.dialect, m, &legal, &self.v.rules, &pos).map_err(|e| format!("position: move {}: {e}", i + 1))?;
            self.v.make(&mut pos, &mv).map_err(|e| e.to_string())?;
        }
        self.pos = pos;
        Ok(())
    }

    fn dialect_word(&self) -> &'static str {
        if self.dialect == Dialect::Usi { "USI" } else { "UCI" }
    }

    /// `go …`: a search within the budget asked for (or `go perft N`), answered with `info`
    /// lines and `bestmove`; `isready` read meanwhile is answered as the search goes.
    fn go(&mut self, words: &[&str], stop: &Arc<AtomicBool>, out: &mut dyn Write) -> io::Result<Result<(), String>> {
        let g = match Go::parse(words, self.pos.side().index(), self.dialect) {
            Ok(g) => g,
            Err(e) => return Ok(Err(e)),
        };
        if self.owns_process {
            // Cleared for this `go` (a perft stopped before leaves it raised), then raised
            // again if its `stop` was read already (the reader raises the flag, then the
            // interrupt: whichever order the two threads run in, the perft sees the stop).
            crate::interrupt::clear();
            if stop.load(Ordering::SeqCst) && g.perft.is_some() {
                crate::interrupt::request();
            }
        }
        if let Some(depth) = g.perft {
            return self.perft(depth, out);
        }
        let budget = if g.budget == Budget::Default { self.budget } else { g.budget };
        self.ready.lock().unwrap_or_else(|e| e.into_inner()).searching = true;
        let (result, out) = self.search(budget, stop, out);
        let answered = self.answer(result, g.infinite, stop, out);
        // `isready` counted until now is answered after `bestmove`.
        answer_ready(&self.ready, true, out)?;
        answered.map(Ok)
    }

    /// Writes a search's last `info` line and its `bestmove` (after `stop` for `go infinite`).
    fn answer(
        &self,
        result: Result<search::SearchResult, ai::SearchError>,
        infinite: bool,
        stop: &AtomicBool,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let r = match result {
            Ok(r) => r,
            Err(e) => {
                writeln!(out, "info string search failed: {e}")?;
                return writeln!(out, "bestmove {}", self.no_move());
            }
        };
        writeln!(out, "{}", info_line(&r, &self.v.rules.geometry, self.dialect))?;
        if infinite {
            // `go infinite` answers only when told to stop, even when the search is done.
            out.flush()?;
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(10));
                answer_ready(&self.ready, false, out)?;
            }
        }
        let best = r.best.map_or_else(|| self.no_move().to_string(), |m| coords::text_at(self.dialect, &m, &self.v.rules, &self.pos));
        writeln!(out, "bestmove {best}")
    }

    /// Runs the search, writing its `info` lines and answering `isready` on `out` (given
    /// back).
    fn search<'o>(
        &mut self,
        budget: Budget,
        stop: &Arc<AtomicBool>,
        out: &'o mut dyn Write,
    ) -> (Result<search::SearchResult, ai::SearchError>, &'o mut dyn Write) {
        let out = RefCell::new(out);
        let (geometry, dialect, ready) = (&self.v.rules.geometry, self.dialect, self.ready.clone());
        let mut report = |r: &search::SearchResult| {
            let mut o = out.borrow_mut();
            let _ = writeln!(o, "{}", info_line(r, geometry, dialect));
            let _ = o.flush();
        };
        let mut poll = || {
            let _ = answer_ready(&ready, false, *out.borrow_mut());
        };
        let control = search::Control {
            stop: Some(stop.clone()),
            on_iteration: Some(&mut report),
            poll: Some(&mut poll),
            table_bytes: self.hash_mib.map(|m| (m as usize).saturating_mul(1 << 20)),
        };
        let mut work = self.pos.clone();
        let result = search::search_controlled(&self.v, &mut work, budget, &mut self.rng, control);
        (result, out.into_inner())
    }

    /// `bestmove`'s word when there is no move: UCI's `(none)`; in USI `win` when the game is
    /// over and won by the player to move, `resign` otherwise.
    fn no_move(&self) -> &'static str {
        match self.dialect {
            Dialect::Uci => "(none)",
            Dialect::Usi => usi::no_move(&self.v, &self.pos),
        }
    }

    /// `go perft N`: each legal move's count (UCI form), then the total.
    fn perft(&mut self, depth: u32, out: &mut dyn Write) -> io::Result<Result<(), String>> {
        let mut pos = self.pos.clone();
        let mut legal = Vec::new();
        if let Err(e) = self.v.legal_moves(&mut pos, &mut legal) {
            return Ok(Err(e.to_string()));
        }
        let mut rows: Vec<(String, u64)> = Vec::new();
        for m in &legal {
            let counted = self.v.make(&mut pos, m).map_err(ai::SearchError::from).and_then(|()| {
                let n = if depth <= 1 { Ok(1) } else { crate::perft::perft(&self.v, &mut pos, depth - 1) };
                pos.undo();
                n
            });
            match counted {
                Ok(n) => rows.push((coords::text_in(self.dialect, m, &self.v.rules.geometry), n)),
                Err(e) => return Ok(Err(format!("perft stopped: {e}"))),
            }
        }
        rows.sort();
        for (m, n) in &rows {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out, "\nNodes searched: {}\n", rows.iter().map(|r| r.1).sum::<u64>()).map(Ok)
    }
}

/// The answer to `uci` (`usi`): names, options (every variant found), `uciok` (`usiok`).
fn identify(dialect: Dialect, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "id name boardlab {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "id author the boardlab authors")?;
    let mut names: Vec<String> =
        variant::all_variants().into_iter().map(|(n, ..)| n).filter(|n| !n.contains(char::is_whitespace)).collect();
    names.sort();
    names.dedup();
    let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
    let (prefix, default) = if dialect == Dialect::Usi { ("USI", usi::DEFAULT_VARIANT) } else { ("UCI", DEFAULT_VARIANT) };
    writeln!(out, "option name {prefix}_Variant type combo default {default}{vars}")?;
    writeln!(out, "option name Budget type string default ab")?;
    let hash = if dialect == Dialect::Usi { "USI_Hash" } else { "Hash" };
    writeln!(out, "option name {hash} type spin default {} min 1 max {MAX_HASH_MIB}", search::TABLE_MIB)?;
    writeln!(out, "option name Seed type spin default 1 min 0 max 2147483647")?;
    writeln!(out, "{}ok", prefix.to_ascii_lowercase())
}

/// `name NAME… [value VALUE…]` of `setoption` (names and values may hold spaces).
fn option_words(words: &[&str]) -> Result<(String, String), String> {
    let usage = || "expected setoption name NAME [value VALUE]".to_string();
    if words.first() != Some(&"name") {
        return Err(usage());
    }
    let value_at = words.iter().position(|w| *w == "value").unwrap_or(words.len());
    let name = words[1..value_at].join(" ");
    if name.is_empty() {
        return Err(usage());
    }
    Ok((name, words.get(value_at + 1..).unwrap_or(&[]).join(" ")))
}

/// `info depth … score … nodes … nps … time … pv …` for a search result.
fn info_line(r: &search::SearchResult, g: &crate::geometry::Geometry, dialect: Dialect) -> String {
    let score = match (r.score.win_in(), r.score.loss_in(), dialect) {
        // Decisions to the end → moves of the side to move (UCI's `mate`); USI counts plies.
        (Some(n), _, Dialect::Uci) => format!("mate {}", n.div_ceil(2)),
        (_, Some(n), Dialect::Uci) => format!("mate -{}", n.div_ceil(2)),
        (Some(n), _, Dialect::Usi) => format!("mate {n}"),
        (_, Some(n), Dialect::Usi) => format!("mate -{n}"),
        _ => format!("cp {}", r.score.0 / crate::rules::eval::UNITS_PER_POINT),
    };
    let ms = r.elapsed.as_millis() as u64;
    let nps = r.nodes.saturating_mul(1000) / ms.max(1);
    let pv: Vec<String> = r.pv.iter().map(|m| coords::text_in(dialect, m, g)).collect();
    format!("info depth {} score {score} nodes {} nps {nps} time {ms} pv {}", r.depth.max(1), r.nodes, pv.join(" ")).trim_end().to_string()
}

/// What `go` asks for.
#[derive(Debug, PartialEq)]
struct Go {
    budget: Budget,
    infinite: bool,
    perft: Option<u32>,
}

impl Go {
    /// Reads `go`'s words. The budget is the first of: `infinite`, `depth`, `nodes`,
    /// `movetime`, the clock of the side to move (`side`: 0 for the first player, whose clock
    /// is `wtime`/`winc` in UCI and `btime`/`binc` in USI), the variant's own; `mate N`
    /// searches to depth 2N−1 (N plies in USI). USI's `byoyomi` is added to a clock's share
    /// (alone, it is the time for the move).
    fn parse(words: &[&str], side: usize, dialect: Dialect) -> Result<Go, String> {
        let mut n: std::collections::HashMap<&str, u64> = Default::default();
        let (mut infinite, mut i) = (false, 0);
        while i < words.len() {
            match words[i] {
                "infinite" => infinite = true,
                "ponder" => {}
                // The moves to search among: not supported, skipped.
                "searchmoves" => break,
                k @ ("depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo" | "mate" | "perft" | "byoyomi") => {
                    let v = words.get(i + 1).ok_or_else(|| format!("go {k}: a number must follow"))?;
                    // Clocks may run below zero in some GUIs: read as none left.
                    let v = if v.starts_with('-') { Some(0) } else { v.parse::<u64>().ok() };
                    n.insert(k, v.ok_or_else(|| format!("go {k}: expected a whole number"))?);
                    i += 1;
                }
                w => return Err(format!("go: unknown word `{}`", crate::files::quote(w))),
            }
            i += 1;
        }
        if let Some(&d) = n.get("perft") {
            let d =
                u32::try_from(d).ok().filter(|d| (1..=MAX_PERFT).contains(d)).ok_or(format!("go perft: a depth from 1 to {MAX_PERFT}"))?;
            return Ok(Go { budget: Budget::Default, infinite: false, perft: Some(d) });
        }
        let depth = |d: u64| Budget::Depth(d.clamp(1, ai::engine::MAX_DEPTH as u64) as u32);
        let usi = dialect == Dialect::Usi;
        let (time, inc) = if (side == 0) != usi { ("wtime", "winc") } else { ("btime", "binc") };
        let byoyomi = n.get("byoyomi").copied().unwrap_or(0);
        let budget = if infinite {
            Budget::Depth(ai::engine::MAX_DEPTH)
        } else if let Some(&d) = n.get("depth") {
            depth(d)
        } else if let Some(&m) = n.get("mate") {
            depth(if usi { m } else { (2 * m.min(32)).saturating_sub(1) })
        } else if let Some(&k) = n.get("nodes") {
            Budget::Nodes(k.max(1))
        } else if let Some(&ms) = n.get("movetime") {
            Budget::Time(Duration::from_millis(ms.max(1)))
        } else if n.contains_key(time) || byoyomi > 0 {
            let left = n.get(time).copied().unwrap_or(0);
            let clock =
                if left > 0 { clock_share(left, n.get(inc).copied().unwrap_or(0), n.get("movestogo").copied()) } else { Duration::ZERO };
            // The byoyomi is the move's own once the clock's share is spent, less a margin.
            let byoyomi = Duration::from_millis(byoyomi.saturating_sub(50.min(byoyomi / 2)));
            Budget::Time((clock + byoyomi).max(Duration::from_millis(1)))
        } else {
            Budget::Default
        };
        Ok(Go { budget, infinite, perft: None })
    }
}

/// The time for one move from a clock: the time left shared over the moves to go (or
/// [`MOVES_TO_GO`]) plus most of the increment, never more than the time left less a margin
/// for answering.
fn clock_share(left_ms: u64, inc_ms: u64, moves_to_go: Option<u64>) -> Duration {
    let share = left_ms / moves_to_go.unwrap_or(MOVES_TO_GO).max(1) + inc_ms * 3 / 4;
    let margin = 50.min(left_ms / 2);
    Duration::from_millis(share.min(left_ms.saturating_sub(margin)).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str, side: usize) -> Result<Go, String> {
        Go::parse(&line.split_whitespace().collect::<Vec<_>>(), side, Dialect::Uci)
    }

    #[test]
    fn go_budgets() {
        let b = |line: &str, side| go(line, side).unwrap().budget;
        assert_eq!(b("depth 5", 0), Budget::Depth(5));
        assert_eq!(b("nodes 20000", 0), Budget::Nodes(20000));
        assert_eq!(b("movetime 250", 0), Budget::Time(Duration::from_millis(250)));
        // 60 s left, 30 moves to go by default, 3/4 of a 1 s increment: 2000 + 750 ms.
        assert_eq!(b("wtime 60000 btime 1000 winc 1000 binc 0", 0), Budget::Time(Duration::from_millis(2750)));
        // Black's clock for the second player: 1000/10 = 100 ms.
        assert_eq!(b("wtime 60000 btime 1000 movestogo 10", 1), Budget::Time(Duration::from_millis(100)));
        // Never more than the time left less a margin (a 100 ms increment, 80 ms left).
        assert_eq!(b("wtime 80 winc 100", 0), Budget::Time(Duration::from_millis(40)));
        assert_eq!(b("wtime -20", 0), Budget::Time(Duration::from_millis(1)));
        assert_eq!(b("mate 2", 0), Budget::Depth(3));
        assert_eq!(b("", 0), Budget::Default);
        assert_eq!(b("depth 999", 0), Budget::Depth(64));
        let inf = go("infinite", 0).unwrap();
        assert!(inf.infinite);
        assert_eq!(go("perft 3", 0).unwrap().perft, Some(3));
        for bad in ["depth", "depth x", "perft 0", "perft 13", "fast", "nodes 1.5"] {
            assert!(go(bad, 0).is_err(), "{bad}");
        }
    }

    #[test]
    fn usi_clocks_are_the_first_players_b_and_byoyomi_adds() {
        let b = |line: &str, side| Go::parse(&line.split_whitespace().collect::<Vec<_>>(), side, Dialect::Usi).unwrap().budget;
        // USI's `btime` is the first player's (sente): 60000 / 30 moves = 2000 ms.
        assert_eq!(b("btime 60000 wtime 3000", 0), Budget::Time(Duration::from_millis(2000)));
        assert_eq!(b("btime 60000 wtime 3000", 1), Budget::Time(Duration::from_millis(100)));
        // The clock spent: the byoyomi less 50 ms for answering.
        assert_eq!(b("btime 0 wtime 0 byoyomi 1000", 0), Budget::Time(Duration::from_millis(950)));
        // 30000 / 30 = 1000 ms from the clock, plus 500 − 50 of byoyomi.
        assert_eq!(b("btime 30000 wtime 0 byoyomi 500", 0), Budget::Time(Duration::from_millis(1450)));
        // USI's mate counts plies.
        assert_eq!(b("mate 3", 0), Budget::Depth(3));
    }

    #[test]
    fn budget_and_hash_options() {
        // A bare `go` searches to the Budget's depth: its last info line says depth 2.
        let out = session("setoption name Budget value d2\nsetoption name Hash value 1\nposition startpos\ngo\n");
        let info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
        assert!(info.starts_with("info depth 2 "), "{out}");
        assert!(!out.contains("info string"), "{out}");
        for bad in ["name Budget value fast", "name Hash value 0", "name Hash value 5000", "name Hash value x"] {
            let out = session(&format!("setoption {bad}\n"));
            assert!(out.starts_with("info string "), "{bad}: {out}");
        }
        assert!(session("uci\n").contains(&format!("option name Hash type spin default {} min 1 max 4096", search::TABLE_MIB)));
    }

    #[test]
    fn option_lines() {
        let w = |l: &str| option_words(&l.split_whitespace().collect::<Vec<_>>());
        assert_eq!(w("name UCI_Variant value xiangqi"), Ok(("UCI_Variant".into(), "xiangqi".into())));
        assert_eq!(w("name Clear Hash"), Ok(("Clear Hash".into(), String::new())));
        assert!(w("value 3").is_err());
        assert!(w("name value 3").is_err());
    }

    /// Runs a session: the lines in, what came out.
    fn session(script: &str) -> String {
        let mut out = Vec::new();
        run(Box::new(io::Cursor::new(script.to_string().into_bytes())), &mut out, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_bad_line_is_answered_and_the_position_kept() {
        let out = session("position startpos moves e2e4\nposition startpos moves e2e5\nposition fen nonsense\nfly\ngo perft 1\nquit\n");
        assert!(out.contains("info string position: move 1: `e2e5` is not a legal move here"), "{out}");
        assert!(out.contains("info string position fen"), "{out}");
        assert!(out.contains("info string unknown command `fly`"), "{out}");
        // Still after 1. e4: black's 20 moves.
        assert!(out.contains("Nodes searched: 20") && out.contains("e7e5: 1"), "{out}");
    }

    #[test]
    fn an_overlong_line_is_skipped() {
        let long = format!("position startpos moves {}", "e2e4 ".repeat(MAX_LINE / 5 + 10));
        let out = session(&format!("{long}\nisready\n"));
        assert!(out.contains("info string line ignored") && out.ends_with("readyok\n"), "{out}");
    }
}
