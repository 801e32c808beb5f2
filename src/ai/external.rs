//! Another program as a machine player (`uci:COMMAND`, `usi:COMMAND`; the grammar is
//! [`super::engine::ExternalSpec`]'s): boardlab starts it, handshakes (`uci`/`uciok` or
//! `usi`/`usiok`, then `isready`/`readyok`), names the variant (`UCI_Variant` / `USI_Variant`:
//! the variant's `[notation] fairy_stockfish` name, else its own), and for each move sends the
//! game as `position startpos moves …` (or the position's FEN or SFEN when the game did not
//! start from the variant's start) and `go` with the spec's limit, then reads `bestmove` and
//! finds the move among the legal ones.
//!
//! Whatever the engine does, boardlab goes on: a crash, a silence longer than the timeout, a
//! move that is not legal or not readable, a resignation, a variant it does not play, all
//! become [`SearchError::External`] with the reason, which self-play and the arena count as a
//! loss of that engine's side. The timeout ([`silence`]) is the spec's `timeout`, else
//! [`FLOOR`] or three times a `movetime`, whichever is longer: each line the engine writes
//! starts it again, and an answer never takes more than [`MAX_SILENCES`] timeouts in all.
//!
//! An engine keeps running between moves and games (a game is told by its moves: a position
//! that does not continue the last one starts a new game, `ucinewgame`): each thread keeps its
//! own engines, killed when the thread ends or the engine fails, and when the
//! [`Player`] is dropped.

use super::SearchError;
use super::engine::{External, Limit, Protocol};
use crate::notation::Move;
use crate::protocol::coords::{self, Dialect};
use crate::state::Position;
use crate::variant::Variant;
use std::cell::RefCell;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The shortest timeout boardlab derives (a program's start, a loaded machine).
pub(crate) const FLOOR: Duration = Duration::from_secs(10);

/// An answer may take at most this many timeouts in all, however many lines come.
pub(crate) const MAX_SILENCES: u32 = 20;

/// The longest line read from an engine.
const MAX_LINE: usize = 1 << 16;

thread_local! {
    /// The engines this thread has started, kept for the next move.
    static PLAYERS: RefCell<Vec<Player>> = const { RefCell::new(Vec::new()) };
}

/// The move `e` chooses in `pos` (`None` when the game is over), from this thread's running
/// engine for `e` or one started now. An engine that fails is stopped and forgotten (the next
/// call starts it again).
///
/// # Errors
/// [`SearchError::External`]: the engine failed (the reason says how); a script hook failed
/// while the moves were listed.
pub(crate) fn choose(v: &Variant, pos: &Position, e: External) -> Result<Option<Move>, SearchError> {
    let mut work = pos.clone();
    let mut legal = Vec::new();
    v.legal_moves(&mut work, &mut legal)?;
    if legal.is_empty() {
        return Ok(None);
    }
    let mut player = match PLAYERS.with(|p| {
        let mut p = p.borrow_mut();
        p.iter().position(|x| x.spec == e).map(|i| p.swap_remove(i))
    }) {
        Some(p) => p,
        None => Player::start(e).map_err(|why| fail(e, &why))?,
    };
    let m = player.play(v, pos, &legal).map_err(|why| fail(e, &why))?;
    PLAYERS.with(|p| p.borrow_mut().push(player));
    Ok(Some(m))
}

fn fail(e: External, why: &EngineFailure) -> SearchError {
    SearchError::External(format!("{} {why}", e.spec()))
}

/// How long `e` may stay silent (see the module documentation).
pub(crate) fn silence(e: External) -> Duration {
    e.spec().timeout.unwrap_or(match e.limit() {
        Limit::Movetime(ms) => FLOOR.max(Duration::from_millis(ms.saturating_mul(3))),
        Limit::Depth(_) | Limit::Nodes(_) => FLOOR,
    })
}

/// A running engine and what it was last told.
pub(crate) struct Player {
    spec: External,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    dialect: Dialect,
    /// The variant named to the engine (by boardlab's name), if any yet.
    variant: Option<String>,
    /// The engine's values for the variant option (None: it has no such option).
    variants: Option<Vec<String>>,
    /// The game last sent.
    game: Option<Game>,
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Why an external engine loses the game, in words (after its name: "… did not start").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct EngineFailure(String);

impl Player {
    /// Starts the engine and handshakes.
    ///
    /// # Errors
    /// The program did not start, or did not answer as the protocol says.
    pub(crate) fn start(spec: External) -> Result<Player, EngineFailure> {
        let s = spec.spec();
        let mut child = Command::new(&s.command[0])
            .args(&s.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineFailure(format!("did not start: {e}")))?;
        let (stdin, stdout) = (child.stdin.take().expect("piped"), child.stdout.take().expect("piped"));
        let (tx, lines) = channel();
        // The reader ends when the engine's output closes (it exits or is killed).
        std::thread::spawn(move || {
            let (mut r, mut buf) = (BufReader::new(stdout), Vec::new());
            while let Ok(n) = crate::files::read_line_limited(&mut r, &mut buf, MAX_LINE) {
                if n == 0 || tx.send(String::from_utf8_lossy(&buf).trim().to_string()).is_err() {
                    return;
                }
            }
        });
        let dialect = if s.protocol == Protocol::Usi { Dialect::Usi } else { Dialect::Uci };
        let mut p = Player { spec, child, stdin, lines, dialect, variant: None, variants: None, game: None };
        let hello = if dialect == Dialect::Usi { "usi" } else { "uci" };
        p.send(hello)?;
        let option = format!("option name {}_Variant ", hello.to_ascii_uppercase());
        let mut variants = None;
        p.wait_for(&format!("{hello}ok"), |line| {
            if let Some(rest) = line.strip_prefix(&option) {
                variants = Some(rest.split_whitespace().skip_while(|w| *w != "var").filter(|w| *w != "var").map(String::from).collect());
            }
        })?;
        p.variants = variants;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()).map_err(|_| self.crashed())
    }

    /// Why the engine stopped answering: its exit, if it has exited.
    fn crashed(&mut self) -> EngineFailure {
        // Its output closed: give it a moment to be reaped.
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return EngineFailure(format!("crashed ({status})"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        EngineFailure("closed its output".into())
    }

    /// Reads lines until one that starts with `word` (returned), passing the others to `seen`.
    fn wait_for(&mut self, word: &str, mut seen: impl FnMut(&str)) -> Result<String, EngineFailure> {
        let t = silence(self.spec);
        let end = Instant::now() + t * MAX_SILENCES;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(t.min(left)) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(line),
                Ok(line) => seen(&line),
                Err(RecvTimeoutError::Timeout) if left <= t => {
                    return Err(EngineFailure(format!("gave no `{word}` in {} s", (t * MAX_SILENCES).as_secs_f32())));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineFailure(format!("was silent for {} s waiting for `{word}`", t.as_secs_f32())));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }

    /// Names the variant when it is not the one named last (then a new game begins).
    fn set_variant(&mut self, v: &Variant) -> Result<(), EngineFailure> {
        if self.variant.as_deref() == Some(v.name()) {
            return Ok(());
        }
        let name = v.rules.fairy_stockfish.clone().unwrap_or_else(|| v.name().to_string());
        let (option, default) = if self.dialect == Dialect::Usi { ("USI_Variant", "shogi") } else { ("UCI_Variant", "chess") };
        match &self.variants {
            Some(known) if known.contains(&name) => self.send(&format!("setoption name {option} value {name}"))?,
            None if name == default => {}
            _ => return Err(EngineFailure(format!("does not play `{}` (not a value of its {option})", crate::files::quote(&name)))),
        }
        self.variant = Some(v.name().to_string());
        self.game = None;
        Ok(())
    }

    /// Sends the game, asks for a move and reads it.
    ///
    /// # Errors
    /// The reason the engine loses.
    pub(crate) fn play(&mut self, v: &Variant, pos: &Position, legal: &[Move]) -> Result<Move, EngineFailure> {
        self.set_variant(v)?;
        let position = self.position(v, pos)?;
        self.send(&position)?;
        let go = match (self.spec.limit(), self.dialect) {
            (Limit::Depth(d), _) => format!("go depth {d}"),
            (Limit::Nodes(n), _) => format!("go nodes {n}"),
            (Limit::Movetime(ms), Dialect::Uci) => format!("go movetime {ms}"),
            (Limit::Movetime(ms), Dialect::Usi) => format!("go btime 0 wtime 0 byoyomi {ms}"),
        };
        self.send(&go)?;
        let line = self.wait_for("bestmove", |_| {})?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        match text {
            "" => Err(EngineFailure("wrote `bestmove` with no move".into())),
            "resign" => Err(EngineFailure("resigned".into())),
            "win" => Err(EngineFailure("claimed a win boardlab does not see (`bestmove win`)".into())),
            "(none)" => Err(EngineFailure("found no move where boardlab has legal ones".into())),
            t => coords::find_at(self.dialect, t, legal, &v.rules, pos).map_err(|e| EngineFailure(format!("played an illegal move: {e}"))),
        }
    }

    /// The `position` line for `pos`: the moves from the game's first position, which is
    /// `startpos` when it is the variant's start and its FEN (SFEN for USI) otherwise. A
    /// position that does not continue the last one sent begins a new game (`ucinewgame`);
    /// one whose moves boardlab cannot find (no move leads to the next position of its
    /// history) is sent alone.
    fn position(&mut self, v: &Variant, pos: &Position) -> Result<String, EngineFailure> {
        let history = pos.history();
        let continues = self.game.as_ref().is_some_and(|g| history.starts_with(&g.history));
        if !continues {
            let new_game = if self.dialect == Dialect::Usi { "usinewgame" } else { "ucinewgame" };
            self.send(new_game)?;
            self.send("isready")?;
            self.wait_for("readyok", |_| {})?;
            let start = v.start();
            self.game = Some(if history.first() == Some(&start.hash()) {
                Game::at(None, start)
            } else {
                Game::at(Some(self.fen(v, pos)?), pos.clone())
            });
        }
        if !self.game.as_mut().expect("set above").extend(v, history) {
            self.game = Some(Game::at(Some(self.fen(v, pos)?), pos.clone()));
        }
        let game = self.game.as_ref().expect("set above");
        let moves: Vec<String> = game
            .moves
            .iter()
            .map(|&(m, royal, plus)| match royal {
                // A pass as Fairy-Stockfish writes one (it reads no `0000` as a pass): the
                // mover's royal piece's cell twice (janggi's `e2e2`).
                Some(c) if m == Move::PASS => format!("{0}{0}", self.dialect.cell(c, &v.rules.geometry)),
                // A promotion with no choice of kind, which USI writes with `+` too.
                _ if plus && self.dialect == Dialect::Usi => format!("{}+", coords::text_in(self.dialect, &m, &v.rules.geometry)),
                _ => coords::text_in(self.dialect, &m, &v.rules.geometry),
            })
            .collect();
        let root = match (&game.root, self.dialect) {
            (None, _) => "startpos".to_string(),
            (Some(fen), Dialect::Uci) => format!("fen {fen}"),
            (Some(sfen), Dialect::Usi) => format!("sfen {sfen}"),
        };
        Ok(format!("position {root}{}{}", if moves.is_empty() { "" } else { " moves " }, moves.join(" ")))
    }

    /// `pos` as a FEN, or an SFEN for USI.
    fn fen(&self, v: &Variant, pos: &Position) -> Result<String, EngineFailure> {
        let fen = crate::fen::write(&v.rules, pos).map_err(|e| EngineFailure(format!("cannot be sent this position: {e}")))?;
        match self.dialect {
            Dialect::Uci => Ok(fen),
            Dialect::Usi => crate::protocol::sfen::from_fen(&fen).map_err(|e| EngineFailure(e.to_string())),
        }
    }
}

/// A game as sent to the engine: its first position (None: the variant's start; else the
/// FEN or SFEN sent), the moves since, the repetition history and the position they reach.
struct Game {
    root: Option<String>,
    /// Each move, for a pass the cell of the mover's one royal piece (if it has one), and
    /// whether it promotes its piece with no choice of kind ([`coords::promotes_alone`]).
    moves: Vec<(Move, Option<u16>, bool)>,
    history: Vec<u64>,
    at: Position,
}

impl Game {
    fn at(root: Option<String>, at: Position) -> Game {
        Game { root, moves: Vec::new(), history: at.history().to_vec(), at }
    }

    /// Plays on to the position whose repetition history is `to` (which starts with this
    /// game's), finding each move by the hash it leads to; false when a step is not found.
    fn extend(&mut self, v: &Variant, to: &[u64]) -> bool {
        let mut legal = Vec::new();
        for &want in &to[self.history.len()..] {
            if v.legal_moves(&mut self.at, &mut legal).is_err() {
                return false;
            }
            let at = &mut self.at;
            let found = legal.iter().copied().find(|m| {
                if v.make(at, m).is_err() {
                    return false;
                }
                let reached = at.hash() == want;
                at.undo();
                reached
            });
            let Some(m) = found else { return false };
            let royal = match &v.royal_cells(&self.at, self.at.side()).collect::<Vec<_>>()[..] {
                [c] if m == Move::PASS => Some(*c),
                _ => None,
            };
            let plus = coords::promotes_alone(&v.rules, &self.at, &m);
            if v.make(&mut self.at, &m).is_err() {
                return false;
            }
            self.moves.push((m, royal, plus));
            self.history.push(want);
        }
        true
    }
}
