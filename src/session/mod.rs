//! An I/O-free game session: a variant, a position, the moves played and undone. The REPL
//! (`crate::repl`) is a thin shell over it; tests drive it directly.
//!
//! [`Session::execute`] runs one command line and returns a [`Reply`]: the text to print and
//! the [`Effect`]s the shell performs first, in order: files to write (`save`, `snapshot`, and
//! [`Session::autosave`] when the shell closes), a head line followed by the time the command
//! took (`ai`; the shell times the whole command), and leaving (`quit`). The session
//! never writes a file, prints, or reads the clock. It does read: `load FILE` reads the record
//! itself, and `variant`, `reload` and `snapshot` read variant files through the kernel's loader.
//! The commands themselves are the table in [`commands`].

pub(crate) mod commands;
mod lines;

pub(crate) use commands::Arg;
pub use commands::COMMANDS;

use crate::ai::{self, Engine, EngineError};
use crate::notation::Move;
use crate::piece::PieceCode;
use crate::record::{Machine, Record, RecordError};
use crate::render::{self, Style};
use crate::script::ScriptError;
use crate::selfplay::SelfplayError;
use crate::state::Position;
use crate::variant::Variant;
use crate::workflow::WorkflowError;
use std::path::PathBuf;
use std::sync::Arc;

/// What a command asks of the shell besides printing its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Write `contents` to `path`, creating its folder (the shell writes atomically).
    Write { path: PathBuf, contents: String },
    /// The same for binary contents (a PNG picture).
    WriteBytes { path: PathBuf, bytes: Vec<u8> },
    /// Print `head` and, in parentheses, how long the command took (`mcts:300 plays r1-s2 (0.83 s)`).
    Timed { head: String },
    /// Leave the shell (it autosaves first).
    Quit,
}

/// A command's result: effects for the shell to perform, then text to print.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub effects: Vec<Effect>,
}

impl Reply {
    /// A reply that only prints.
    pub(crate) fn text(text: String) -> Reply {
        Reply { text, effects: vec![] }
    }

    /// The reply with one more effect.
    pub(crate) fn with(mut self, e: Effect) -> Reply {
        self.effects.push(e);
        self
    }

    /// Whether the shell should leave.
    pub fn quits(&self) -> bool {
        self.effects.contains(&Effect::Quit)
    }

    /// What the shell prints: the timed head lines (with `elapsed`), then the text.
    pub fn output(&self, elapsed: std::time::Duration) -> String {
        let mut s = String::new();
        for e in &self.effects {
            if let Effect::Timed { head } = e {
                s.push_str(&format!("{head} ({:.2} s)\n", elapsed.as_secs_f64()));
            }
        }
        s.push_str(&self.text);
        s
    }
}

/// Why a command failed; the game is unchanged. `Display` is the message for the user.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// The arguments do not fit: `usage: …`.
    #[error("{0}")]
    Usage(String),
    #[error("unknown command `{word}`; {hint}")]
    Unknown { word: String, hint: String },
    #[error("`{0}` needs arguments; see help {0}")]
    NeedsArguments(String),
    /// Refused by the rules or the game: an illegal move, a cell not on the board… (the
    /// kernel's words).
    #[error("{0}")]
    Rejected(String),
    /// A variant does not load (its diagnostic, rendered).
    #[error("{0}")]
    Load(String),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Selfplay(#[from] SelfplayError),
    #[error(transparent)]
    Workflow(#[from] WorkflowError),
    #[error(transparent)]
    Script(#[from] ScriptError),
    /// Ctrl-C: the command stopped; what it had not finished is undone.
    #[error("interrupted (Ctrl-C); the game is as it was before the command")]
    Interrupted(#[from] crate::interrupt::Interrupted),
    #[error(transparent)]
    Position(#[from] crate::state::PositionError),
    #[error(transparent)]
    Cell(#[from] crate::geometry::CellError),
    #[error(transparent)]
    Play(#[from] crate::variant::PlayError),
}

impl From<ai::SearchError> for CommandError {
    fn from(e: ai::SearchError) -> CommandError {
        match e {
            ai::SearchError::Script(e) => e.into(),
            ai::SearchError::Interrupted(i) => i.into(),
            // An external engine that failed: the game is as it was, the reason shown.
            ai::SearchError::External(why) => CommandError::Rejected(why),
        }
    }
}

/// Everything a command may change, kept before it runs (the variant is shared, not copied).
struct Saved {
    variant: Arc<Variant>,
    pos: Position,
    played: Vec<Move>,
    undone: Vec<Move>,
    start: Position,
    rng: ai::Rng,
    seed: u64,
    machine: [Option<Engine>; 2],
    flags: (bool, bool, u32),
    lines: (Vec<Line>, Vec<Line>),
}

impl Saved {
    fn of(s: &Session) -> Saved {
        Saved {
            variant: s.variant.clone(),
            pos: s.pos.clone(),
            played: s.played.clone(),
            undone: s.undone.clone(),
            start: s.start.clone(),
            rng: s.rng.clone(),
            seed: s.seed,
            machine: s.machine,
            flags: (s.show_board, s.trace, s.machine_limit),
            lines: (s.earlier.clone(), s.later.clone()),
        }
    }

    fn restore(self, s: &mut Session) {
        (s.variant, s.pos, s.played, s.undone, s.start) = (self.variant, self.pos, self.played, self.undone, self.start);
        (s.rng, s.seed, s.machine, (s.show_board, s.trace, s.machine_limit)) = (self.rng, self.seed, self.machine, self.flags);
        (s.earlier, s.later) = self.lines;
    }
}

/// A game line that an edit replaced (`place`, `clear`, `setup`, `new`, `variant`, `load`…),
/// kept so that `undo` at the start of the new line returns to it, and `redo` back again.
#[derive(Clone)]
pub struct Line {
    variant: Arc<Variant>,
    start: Position,
    pos: Position,
    played: Vec<Move>,
    undone: Vec<Move>,
    /// The edit between this line and the one next to it on the other stack (`put W on c3`).
    pub(crate) edit: String,
}

/// How many replaced game lines a session keeps for `undo` (the oldest go first).
pub(crate) const MAX_EARLIER_LINES: usize = 100;

/// A game being played or studied.
pub struct Session {
    /// Shared, so that a command's starting state can be kept cheaply (see [`Session::execute`]).
    pub variant: Arc<Variant>,
    pub pos: Position,
    /// The moves from the start position to `pos`.
    pub played: Vec<Move>,
    /// Moves undone (or stepped back over), most recent last, for `redo` and `forward`.
    pub undone: Vec<Move>,
    /// The position the game started from.
    pub start: Position,
    pub(crate) style: Style,
    pub show_board: bool,
    /// The machine players' generator and its seed.
    pub(crate) rng: ai::Rng,
    pub seed: u64,
    /// Which sides the machine plays, and how.
    pub machine: [Option<Engine>; 2],
    /// Whether each move's hooks and changes are printed.
    pub trace: bool,
    /// Game lines replaced by edits, oldest first: `undo` at the start of this line returns
    /// to the last one.
    pub earlier: Vec<Line>,
    /// Lines `undo` left, for `redo`, the next one last.
    pub later: Vec<Line>,
    /// The most machine moves one command makes (`play both` stops there and says so).
    pub machine_limit: u32,
    /// Where long commands report how far they are (the shell draws it as a status line).
    pub progress: Option<Progress>,
}

/// A progress line's sink: the shell draws what long commands report.
pub(crate) type Progress = Box<dyn FnMut(&str)>;

/// The default of [`Session::machine_limit`].
pub(crate) const MACHINE_LIMIT: u32 = 1000;

impl Session {
    /// Opens a session on a variant.
    ///
    /// # Errors
    /// The variant does not load (the diagnostic, rendered).
    pub fn new(spec: &str, sets: &[(String, String)], style: Style) -> Result<Session, CommandError> {
        let variant = Variant::load(spec, sets).map_err(|e| CommandError::Load(e.render(style.color)))?;
        Ok(Session::blank(Arc::new(variant), style))
    }

    /// Opens a session from a game record (see [`crate::record`]).
    ///
    /// # Errors
    /// The record's variant does not load, its start position or a move is not valid.
    pub fn from_record(rec: &Record, style: Style) -> Result<Session, CommandError> {
        let sets: Vec<(String, String)> = rec.options.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        // The folder the record names, when it is still there (the record may be read from
        // another folder than it was written in); else the name.
        let spec = match &rec.path {
            Some(p) if std::path::Path::new(p).join("variant.toml").is_file() => p.clone(),
            _ => rec.variant.clone(),
        };
        let mut s = Session::new(&spec, &sets, style)?;
        // Named as the record names it when that name still finds the same folder from here.
        if spec != rec.variant
            && let Ok((_, crate::variant::Origin::Disk(d), _)) = crate::variant::read_merged(&rec.variant)
            && d.canonicalize().ok().map(|p| p.display().to_string()) == rec.path
            && let Some(v) = Arc::get_mut(&mut s.variant)
        {
            v.spec = rec.variant.clone();
        }
        s.apply_record(rec)?;
        if let Some(m) = &rec.machine {
            s.restore_machine(m);
        }
        // The autosave's earlier lines, best effort: one that no longer replays (its variant
        // file changed or went) is left out rather than refusing the whole game.
        for r in &rec.earlier {
            let (Ok(mut old), Some(edit)) = (Session::from_record(&Record { earlier: vec![], ..r.clone() }, style), r.edit.clone()) else {
                continue;
            };
            s.earlier.push(old.take_line(edit));
        }
        Ok(s)
    }

    /// The current game line, to keep; `edit` is what replaces it.
    fn take_line(&mut self, edit: String) -> Line {
        Line {
            variant: self.variant.clone(),
            start: self.start.clone(),
            pos: self.pos.clone(),
            played: self.played.clone(),
            undone: self.undone.clone(),
            edit,
        }
    }

    /// Makes `line` the current game line.
    fn put_line(&mut self, line: Line) {
        (self.variant, self.start, self.pos, self.played, self.undone) = (line.variant, line.start, line.pos, line.played, line.undone);
    }

    /// Keeps the current game line before `edit` replaces it, so `undo` can return to it.
    /// Returns the note the edit prints.
    fn keep_line(&mut self, edit: &str) -> String {
        let line = self.take_line(edit.to_string());
        let moves = line.played.len() + line.undone.len();
        self.earlier.push(line);
        if self.earlier.len() > MAX_EARLIER_LINES {
            self.earlier.remove(0);
        }
        self.later.clear();
        let was = if moves == 0 { "the previous position".to_string() } else { format!("the previous game ({moves} plies)") };
        format!("{edit}: a new game line; undo returns to {was}\n")
    }

    /// Steps back over `n` plies, and past the start of this line into the line an edit
    /// replaced. Returns what was undone beyond moves.
    fn undo_plies(&mut self, n: u64) -> Result<String, CommandError> {
        let mut notes = String::new();
        let against_machine = self.machine.iter().filter(|m| m.is_some()).count() == 1;
        let mut took = Vec::new();
        for i in 0..n {
            if !self.played.is_empty() {
                // (Named on this line's board: an undone edit may have changed the variant.)
                took.extend(self.played.last().map(|m| m.text(&self.variant.rules.geometry)));
                self.step(-1)?;
                // Against the machine, undo goes back to your own last decision: the machine's
                // replies go with the move they answered.
                while against_machine && !self.played.is_empty() && self.machine[self.pos.side().index()].is_some() {
                    took.extend(self.played.last().map(|m| m.text(&self.variant.rules.geometry)));
                    self.step(-1)?;
                }
            } else if let Some(edit) = self.line_back() {
                notes.push_str(&format!("undid `{edit}`: back to the previous game line\n"));
            } else {
                notes.push_str(if i == 0 {
                    "nothing to undo: this is the start of the game\n"
                } else {
                    "(reached the start of the game)\n"
                });
                break;
            }
        }
        if !took.is_empty() {
            notes.insert_str(0, &format!("took back {}\n", took.join(", ")));
        }
        Ok(notes)
    }

    /// Replays `n` undone plies, and redoes edits that `undo` reverted.
    fn redo_plies(&mut self, n: u64) -> Result<String, CommandError> {
        let mut notes = String::new();
        for i in 0..n {
            if !self.undone.is_empty() {
                self.step(1)?;
            } else if let Some(edit) = self.line_forward() {
                notes.push_str(&format!("redid `{edit}`\n"));
            } else {
                notes.push_str(if i == 0 {
                    "nothing to redo: this is the end of the history\n"
                } else {
                    "(reached the end of the history)\n"
                });
                break;
            }
        }
        Ok(notes)
    }

    fn apply_record(&mut self, rec: &Record) -> Result<(), CommandError> {
        let start = match &rec.start {
            Some(t) => Position::from_text(&self.variant.rules, t)
                .map_err(|e| CommandError::Rejected(format!("the record's start position: {e}")))?,
            None => self.variant.start(),
        };
        self.restart(start);
        for (i, t) in rec.moves.iter().enumerate() {
            let m = self
                .variant
                .play(&mut self.pos, t)
                .map_err(|e| CommandError::Rejected(format!("the record's move {} ({t}): {e}", i + 1)))?;
            self.played.push(m);
        }
        if let Some(cursor) = rec.cursor {
            self.step(cursor as i64 - rec.moves.len() as i64)?;
        }
        Ok(())
    }

    /// The game as a record: variant, options changed from their defaults, start, moves.
    pub fn record(&self) -> Record {
        let g = &self.variant.rules.geometry;
        let initial = self.variant.start();
        let path = match &self.variant.origin {
            crate::variant::Origin::Disk(d) => d.canonicalize().ok().map(|p| p.display().to_string()),
            crate::variant::Origin::Shipped(_) => None,
        };
        Record {
            variant: self.variant.spec.clone(),
            path,
            options: self.variant.overrides.iter().cloned().collect(),
            start: (self.start != initial).then(|| self.start.to_text(&self.variant.rules)),
            // The plies ahead are kept too: `back N` then quit loses nothing.
            moves: self.played.iter().chain(self.undone.iter().rev()).map(|m| m.text(g)).collect(),
            cursor: (!self.undone.is_empty()).then_some(self.played.len()),
            edit: None,
            // (At the cursor: a game stepped back from its end counts as in progress, the safe side.)
            result: self.pos.result().map(|r| r.describe(&self.variant.rules.player_names)),
            saved: None,
            machine: None,
            earlier: vec![],
        }
    }

    /// The game as PGN or PDN text ([`crate::records::convert`]).
    ///
    /// # Errors
    /// A start position the format cannot write.
    pub(crate) fn export(&self, format: crate::records::convert::Format) -> Result<String, crate::records::convert::RecordError> {
        let mut line = self.played.clone();
        line.extend(self.undone.iter().rev());
        let options: Vec<(String, String)> = self.variant.overrides.to_vec();
        let header = crate::records::convert::Header::default();
        crate::records::convert::game_text(&self.variant, format, (&self.start, &line), &options, &header)
    }

    /// The machine players as an autosave keeps them; none when nothing is set away from the
    /// defaults.
    fn machine_record(&self) -> Option<Machine> {
        let r = &self.variant.rules;
        let plays: std::collections::BTreeMap<String, String> = crate::piece::Player::both()
            .into_iter()
            .filter_map(|p| self.machine[p.index()].map(|e| (r.player_name(p).to_string(), e.to_string())))
            .collect();
        let default = plays.is_empty() && self.machine_limit == MACHINE_LIMIT && self.seed == 0;
        (!default).then_some(Machine { plays, limit: self.machine_limit, seed: self.seed })
    }

    /// Puts back the machine players an autosave kept. An entry that no longer fits (a player
    /// renamed, an engine no longer known) is left out rather than refusing the game.
    fn restore_machine(&mut self, m: &Machine) {
        for (name, engine) in &m.plays {
            if let (Some(p), Ok(e)) = (self.variant.rules.parse_player(name), Engine::parse(engine)) {
                self.machine[p.index()] = Some(e);
            }
        }
        self.machine_limit = m.limit.max(1);
        self.seed = m.seed;
        self.rng = ai::rng(m.seed);
    }

    /// Which sides the machine plays, for a person (`the machine plays black (ab:d4)`), or
    /// nothing when it plays none.
    pub(crate) fn machine_note(&self) -> String {
        let r = &self.variant.rules;
        let sides: Vec<String> = crate::piece::Player::both()
            .into_iter()
            .filter_map(|p| self.machine[p.index()].map(|e| format!("{} ({e})", r.player_name(p))))
            .collect();
        if sides.is_empty() { String::new() } else { format!("the machine plays {}\n", sides.join(" and ")) }
    }

    /// What the autosave keeps: the game's record and the earlier game lines edits replaced
    /// (so `undo` still returns to them after `--resume`).
    pub fn autosave_record(&self) -> Record {
        let mut rec = self.record();
        rec.machine = self.machine_record();
        rec.earlier = self
            .earlier
            .iter()
            .map(|l| {
                let view = Session {
                    variant: l.variant.clone(),
                    pos: l.pos.clone(),
                    played: l.played.clone(),
                    undone: l.undone.clone(),
                    start: l.start.clone(),
                    ..Session::blank(self.variant.clone(), self.style)
                };
                Record { edit: Some(l.edit.clone()), ..view.record() }
            })
            .collect();
        rec
    }

    /// A session on `variant` with nothing played and default settings.
    fn blank(variant: Arc<Variant>, style: Style) -> Session {
        let pos = variant.start();
        Session {
            start: pos.clone(),
            pos,
            variant,
            played: vec![],
            undone: vec![],
            style,
            show_board: true,
            rng: ai::rng(0),
            seed: 0,
            machine: [None, None],
            trace: false,
            earlier: vec![],
            later: vec![],
            machine_limit: MACHINE_LIMIT,
            progress: None,
        }
    }

    /// Tells the shell how far a long command is (through [`crate::progress`], where the
    /// searches and perft below the command report too).
    fn report(&mut self, what: &str) {
        crate::progress::report(what);
    }

    /// The prompt: variant, ply and who decides (`basileus 12 white> `).
    pub fn prompt(&self) -> String {
        let r = &self.variant.rules;
        let who = if self.pos.result().is_some() { "over".to_string() } else { r.player_name(self.pos.side()).to_string() };
        format!("{} {} {}> ", r.name, self.pos.ply(), who)
    }

    fn legal(&mut self) -> Result<Vec<Move>, CommandError> {
        let mut v = Vec::new();
        self.variant.legal_moves(&mut self.pos, &mut v)?;
        Ok(v)
    }

    /// Starts a new game line from `start`.
    fn restart(&mut self, start: Position) {
        self.start = start.clone();
        self.pos = start;
        self.played.clear();
        self.undone.clear();
    }

    /// The board when it is shown after every move, else the status line.
    fn board_or_status(&self) -> String {
        if self.show_board { self.board() } else { format!("{}\n", render::status(&self.variant, &self.pos)) }
    }

    /// The board with the last move marked.
    pub(crate) fn board(&self) -> String {
        render::board(&self.variant, &self.pos, self.played.last(), self.style)
    }

    /// Resolves typed text to a legal move. A complete move text (a start and a landing) names
    /// exactly one move and is never lengthened into another: `b2xd4` is refused when the
    /// capture must go on to b4, with that reason. Only a partial text completes: a cell (`c3`)
    /// or a text ending in a separator (`c3x`, `c3-`), when exactly one legal move starts so.
    /// Then SAN (`Nf3`, `exd5`, and `e4` when no move starts on e4; see [`crate::san`]).
    ///
    /// # Errors
    /// Unknown, ambiguous or illegal text, with the reason.
    pub(crate) fn resolve(&mut self, text: &str) -> Result<Move, CommandError> {
        let legal = self.legal()?;
        let g = &self.variant.rules.geometry;
        let t = text.trim().to_ascii_lowercase();
        if let Some(m) = legal.iter().find(|m| m.text(g).eq_ignore_ascii_case(&t)) {
            return Ok(*m);
        }
        if t.contains('@') {
            // A drop names its cell (and maybe its kind's letter, in either case): no prefixes.
            return self.variant.find_move(&mut self.pos, &t).map_err(|e| CommandError::Rejected(e.to_string()));
        }
        let partial = t.ends_with(['-', 'x']) || g.parse_cell(&t).is_ok();
        let cands: Vec<&Move> = if partial {
            legal
                .iter()
                .filter(|m| {
                    let mt = m.text(g);
                    // Whole cells only: `c1` does not complete to `c10-…`.
                    mt.starts_with(&t) && mt[t.len()..].chars().next().is_none_or(|c| c == '-' || c == 'x' || t.ends_with(['-', 'x']))
                })
                .collect()
        } else {
            vec![]
        };
        if cands.is_empty() && crate::san::parse(text, g).is_some() {
            // SAN (`Nf3`, `exd5`, `e4` when no piece stands there), read in its own case.
            match self.variant.find_move(&mut self.pos, text.trim()) {
                Ok(m) => return Ok(m),
                Err(e) if !partial => return Err(CommandError::Rejected(e.to_string())),
                Err(_) => {}
            }
        }
        match cands.len() {
            1 => Ok(*cands[0]),
            0 if partial && g.parse_cell(&t).is_ok() => Err(CommandError::Rejected(self.cell_moves(&t)?)),
            // Another notation the variant reads (numbered squares, a column's letter), or why not.
            0 => self.variant.find_move(&mut self.pos, &t).map_err(|e| CommandError::Rejected(e.to_string())),
            _ => {
                let mut names: Vec<String> = cands.iter().map(|m| m.text(g)).collect();
                names.sort();
                Err(CommandError::Rejected(format!("`{}` is ambiguous: {}", crate::files::quote(&t), names.join(", "))))
            }
        }
    }

    /// A cell's legal moves, or why it has none (`why CELL`).
    ///
    /// # Errors
    /// A failing hook.
    pub(crate) fn cell_moves(&mut self, cell: &str) -> Result<String, CommandError> {
        let c = self.variant.rules.geometry.parse_cell(cell)?;
        let mut legal = Vec::new();
        self.variant.legal_moves(&mut self.pos, &mut legal)?;
        let g = &self.variant.rules.geometry;
        if let Some(m) = legal.iter().find(|m| m.from == c.0 && m.kind == crate::notation::MoveKind::Sow) {
            // A pit's one move: what it sows.
            return Ok(format!("{} is legal{}", m.text(g), self.variant.sow_note(&self.pos, m)));
        }
        let mut own: Vec<String> = legal.iter().filter(|m| m.from == c.0).map(|m| m.text(g)).collect();
        own.sort();
        if !own.is_empty() {
            return Ok(format!("{}: {}", g.name(c), own.join(", ")));
        }
        let name = g.name(c).to_string();
        Ok(match self.variant.explain_cell(&mut self.pos, c.0, &legal)? {
            // A pit's refusal names the pit itself (there is no piece on it).
            r if self.variant.rules.sowing.is_some() => r.to_string(),
            r @ (crate::explain::IllegalReason::OnlyCaptures(_)
            | crate::explain::IllegalReason::Refused(_)
            | crate::explain::IllegalReason::Filtered) => {
                format!("the piece on {name} has no legal move: {r}")
            }
            r => r.to_string(),
        })
    }

    /// Plays a legal move and records it; then lets the machine answer for the sides it plays.
    ///
    /// # Errors
    /// A failing script hook.
    pub(crate) fn play_move(&mut self, m: Move) -> Result<String, CommandError> {
        // The move that comes next in the history: step forward, keeping the plies after it.
        if self.undone.last() == Some(&m) {
            self.step(1)?;
            let mut out = format!(
                "{} is the next move of the history: stepped forward ({} more ahead)\n",
                m.text(&self.variant.rules.geometry),
                self.undone.len()
            );
            out.push_str(&self.machine_replies()?);
            out.push_str(&self.board_or_status());
            return Ok(out);
        }
        let mut out = self.new_line_note();
        out.push_str(&self.make_one(m)?);
        out.push_str(&self.machine_replies()?);
        out.push_str(&self.board_or_status());
        Ok(out)
    }

    /// What playing a move from an earlier ply of the history does to the plies after it.
    fn new_line_note(&self) -> String {
        if self.undone.is_empty() {
            String::new()
        } else {
            format!("a new line from ply {} ({} later plies dropped)\n", self.pos.ply(), self.undone.len())
        }
    }

    /// Makes one move with script output and, when tracing, what changed.
    fn make_one(&mut self, m: Move) -> Result<String, CommandError> {
        let before = self.trace.then(|| self.pos.clone());
        let hook = self.trace && self.variant.after_move_runs(&self.pos, &m);
        self.variant.make(&mut self.pos, &m)?;
        self.played.push(m);
        self.undone.clear();
        self.later.clear();
        let mut out = String::new();
        for l in self.variant.take_output() {
            out.push_str(&format!("script: {l}\n"));
        }
        if let Some(b) = before {
            out.push_str(&self.trace_text(&b, &m, hook));
        }
        Ok(out)
    }

    /// What one move did: the hooks that ran and every change to the position.
    fn trace_text(&self, before: &Position, m: &Move, hook: bool) -> String {
        let r = &self.variant.rules;
        let g = &r.geometry;
        let mut s = format!("trace {}: ", m.text(g));
        s.push_str(if hook { "after_move hook ran" } else { "no hook ran (kernel rules only)" });
        s.push('\n');
        let mark = |code: PieceCode| if code.is_empty() { '.' } else { r.symbol(code) };
        let mut changes = Vec::new();
        for c in g.cells() {
            let (a, b) = (before.board()[c.0 as usize], self.pos.board()[c.0 as usize]);
            if a != b {
                changes.push(format!("{} {}→{}", g.name(c), mark(a), mark(b)));
            }
        }
        s.push_str(&format!("  cells: {}\n", if changes.is_empty() { "none".into() } else { changes.join(", ") }));
        let mut attrs = Vec::new();
        for c in g.cells() {
            if self.pos.board()[c.0 as usize].is_empty() {
                continue;
            }
            for (slot, name) in r.attributes.iter().enumerate() {
                let now = self.pos.attr(c.0, slot as u8);
                // A piece that moved here is compared with where it came from.
                let was = if before.board()[c.0 as usize].is_empty() && m.to() == Some(c.0) && m.from != crate::geometry::NONE {
                    before.attr(m.from, slot as u8)
                } else {
                    before.attr(c.0, slot as u8)
                };
                if now != was {
                    attrs.push(format!("{} {name} {was}→{now}", g.name(c)));
                }
            }
        }
        if !attrs.is_empty() {
            s.push_str(&format!("  attributes: {}\n", attrs.join(", ")));
        }
        for (i, (name, _)) in r.counters.iter().enumerate() {
            for p in crate::piece::Player::both() {
                let (was, now) = (before.counter(p, i as u8), self.pos.counter(p, i as u8));
                if was != now {
                    s.push_str(&format!("  counter {name} of {}: {was} → {now}\n", r.player_name(p)));
                }
            }
        }
        if let Some(c) = self.pos.continuation() {
            s.push_str(&format!("  continuation `{}` for {}\n", c.tag, r.player_name(c.player)));
        }
        if let Some(res) = self.pos.result() {
            s.push_str(&format!("  result: {}\n", res.describe(&r.player_names)));
        }
        s
    }

    /// The machine's moves when it is its turn after `new` or `undo` and it plays one side only
    /// (with both sides it waits for `play both` again, or undo would be undone at once).
    fn machine_if_its_turn(&mut self) -> Result<String, CommandError> {
        if self.machine.iter().filter(|m| m.is_some()).count() == 1 && self.machine[self.pos.side().index()].is_some() {
            self.machine_replies()
        } else {
            Ok(String::new())
        }
    }

    /// Machine moves while the side to decide is one the machine plays, at most
    /// [`Session::machine_limit`] of them. Ctrl-C stops them, keeping the moves made, and the
    /// machine then plays no side until told again.
    fn machine_replies(&mut self) -> Result<String, CommandError> {
        let mut out = String::new();
        let mut made = 0u32;
        while self.pos.result().is_none() {
            let Some(engine) = self.machine[self.pos.side().index()] else { break };
            if made >= self.machine_limit {
                out.push_str(&format!(
                    "stopped after {made} machine moves, the limit for one command (`play SIDE ENGINE N` sets it; `play` again continues)\n"
                ));
                self.machine = [None, None];
                break;
            }
            let (m, found) = match ai::think(&self.variant, &self.pos, engine, &mut self.rng) {
                Ok(ai::Thought { best: Some(m), search }) => (m, search),
                Ok(_) => break,
                Err(ai::SearchError::Interrupted(_)) => {
                    out.push_str(&format!("interrupted after {made} machine moves (kept); the machine plays no side now\n"));
                    self.machine = [None, None];
                    break;
                }
                Err(e) => return Err(e.into()),
            };
            let who = self.variant.rules.player_name(self.pos.side()).to_string();
            let text = m.text(&self.variant.rules.geometry);
            let found = found.map(|r| format!(" ({})", ai::analysis::summary(&r))).unwrap_or_default();
            out.push_str(&format!("{who} ({engine}) plays {text}{found}\n"));
            out.push_str(&self.make_one(m)?);
            made += 1;
            self.report(&format!(
                "ply {}: {who} ({engine}) played {text}; {made} machine moves (Ctrl-C stops, keeping them)",
                self.pos.ply()
            ));
        }
        Ok(out)
    }

    /// Replays moves, given as text, from `start` under the current variant; stops at the first
    /// one that is no longer legal and says so.
    fn replay(&mut self, texts: Vec<String>) -> Result<String, CommandError> {
        self.pos = self.start.clone();
        self.played.clear();
        self.undone.clear();
        for (i, text) in texts.iter().enumerate() {
            match self.variant.play(&mut self.pos, text) {
                Ok(m) => self.played.push(m),
                // A script that fails is a bug to fix, not a change of what is legal: the
                // command fails and the game keeps its old rules.
                Err(crate::variant::PlayError::Script(e)) => {
                    let _ = self.variant.take_output();
                    return Err(CommandError::Rejected(format!(
                        "{e}\n(while replaying move {} ({text}) under the new rules; the old rules stay in force)",
                        i + 1
                    )));
                }
                Err(e) => {
                    let _ = self.variant.take_output();
                    return Ok(format!(
                        "replayed {i} moves; move {} ({text}) is no longer legal: {e}\n(the {} later plies are dropped from this line; undo at its start returns to the old one)\n",
                        i + 1,
                        texts.len() - i
                    ));
                }
            }
        }
        let _ = self.variant.take_output();
        Ok(format!("replayed {} moves\n", texts.len()))
    }

    /// Switches to new rules and replays the game under them, keeping the old line for `undo`.
    /// Moves are carried as text: cell numbers mean other cells on another board.
    fn replay_under(&mut self, v: Variant, what: &str) -> Result<String, CommandError> {
        let g = &self.variant.rules.geometry;
        let texts: Vec<String> = self.played.iter().chain(self.undone.iter().rev()).map(|m| m.text(g)).collect();
        let cursor = self.played.len();
        self.keep_line(what);
        let note = self.switch_rules(v);
        let replayed = self.replay(texts)?;
        // Back to where the game was looked at, the plies ahead kept.
        let back = self.played.len().saturating_sub(cursor);
        self.step(-(back as i64))?;
        Ok(format!("{note}{replayed}"))
    }

    /// Steps back (`n` < 0) or forward through the history.
    fn step(&mut self, n: i64) -> Result<(), CommandError> {
        for _ in 0..n.unsigned_abs() {
            if n < 0 {
                let Some(m) = self.played.pop() else { break };
                self.pos.undo();
                self.undone.push(m);
            } else {
                let Some(&m) = self.undone.last() else { break };
                // A failing hook leaves the position as it was; the move stays ahead.
                self.variant.make(&mut self.pos, &m)?;
                let _ = self.variant.take_output();
                self.undone.pop();
                self.played.push(m);
            }
        }
        Ok(())
    }

    /// Makes an edited position the start of a new game line; the old line is kept for `undo`.
    fn edit(&mut self, what: &str, f: impl FnOnce(&mut Position, &crate::rules::Ruleset)) -> Result<String, CommandError> {
        let r = self.variant.rules.clone();
        let mut p = self.pos.clone();
        p.set_continuation(&r.zobrist, None);
        p.set_result(None);
        f(&mut p, &r);
        p.drop_stale_rights(&r);
        // Through the text: a fresh position (no undo stack, an empty repetition history).
        let p = Position::from_text(&r, &p.to_text(&r))?;
        let note = self.keep_line(what);
        self.restart(p);
        Ok(format!("{note}{}", self.board()))
    }

    fn cell(&self, name: &str) -> Result<u16, CommandError> {
        Ok(self.variant.rules.geometry.parse_cell(name).map(|c| c.0)?)
    }

    /// A piece by its symbol (`W`, `b`) or as `PLAYER KIND`.
    fn piece_code(&self, text: &str) -> Result<PieceCode, CommandError> {
        let r = &self.variant.rules;
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [sym] if sym.chars().count() == 1 => Ok(r
                .code_of_symbol(sym.chars().next().unwrap_or(' '))
                .ok_or_else(|| CommandError::Rejected(format!("no piece has the symbol `{sym}`")))?),
            [player, kind] => {
                let p = r.parse_player(player).ok_or_else(|| CommandError::Rejected(format!("`{player}` is not a player")))?;
                let k = r.kinds.iter().position(|k| k.name == *kind).ok_or_else(|| {
                    let names: Vec<&str> = r.kinds.iter().map(|k| k.name.as_str()).collect();
                    CommandError::Rejected(format!("`{kind}` is not a piece kind ({})", names.join(", ")))
                })?;
                Ok(PieceCode::new(crate::piece::KindId(k as u8), p))
            }
            _ => Err(CommandError::Rejected("a piece is its symbol (e.g. W) or PLAYER KIND (e.g. white stone)".into())),
        }
    }

    /// The history, numbered: two moves per row when the players simply alternate.
    fn history_text(&self) -> String {
        let g = &self.variant.rules.geometry;
        let mut p = self.start.clone();
        let mut deciders = Vec::new();
        for m in &self.played {
            deciders.push(p.side());
            if self.variant.make(&mut p, m).is_err() {
                break;
            }
        }
        let _ = self.variant.take_output();
        if self.played.is_empty() {
            return "no moves yet\n".into();
        }
        let alternate = deciders.iter().enumerate().all(|(i, d)| *d == if i % 2 == 0 { deciders[0] } else { deciders[0].other() });
        let mut s = String::new();
        let first_ply = self.start.ply();
        // In the variant's notation ([notation] moves): SAN, numbered squares or boardlab's.
        let mut texts = crate::records::MoveWriter::new(&self.variant).line(&self.start, &self.played);
        texts.extend(self.played[texts.len()..].iter().map(|m| m.text(g)));
        if alternate && deciders[0] == crate::piece::Player::FIRST {
            for (i, pair) in texts.chunks(2).enumerate() {
                s.push_str(&format!("{:>3}. {}\n", i + 1, pair.join(" ")));
            }
        } else {
            for (i, t) in texts.iter().enumerate() {
                let who = self.variant.rules.player_name(deciders[i]);
                s.push_str(&format!("{:>3}. {who} {t}\n", first_ply + i as u32 + 1));
            }
        }
        if !self.undone.is_empty() {
            s.push_str(&format!("({} more plies ahead: forward or redo)\n", self.undone.len()));
        }
        s
    }

    /// Runs one command line: a command of [`COMMANDS`] or a move.
    ///
    /// # Errors
    /// The command failed: unknown command, illegal move, bad option…; the game is unchanged.
    pub fn execute(&mut self, line: &str) -> Result<Reply, CommandError> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(a, b)| (a, b.trim()));
        if word.is_empty() {
            return Ok(Reply::default());
        }
        // A failing command leaves the game exactly as it was: the state is kept before the
        // command runs and put back if it fails, whatever the command did before failing.
        let before = Saved::of(self);
        // The shell's progress line listens to everything the command runs, searches included.
        let lent = crate::progress::install(self.progress.take());
        let r = match commands::find(word) {
            Some(c) => (c.run)(self, c, rest),
            None => commands::typed(self, line),
        };
        self.progress = lent.give_back();
        if r.is_err() {
            before.restore(self);
        }
        r
    }

    /// The players' names as `white|black`.
    pub(crate) fn player_list(&self) -> String {
        let r = &self.variant.rules;
        format!("{}|{}", r.player_name(crate::piece::Player::FIRST), r.player_name(crate::piece::Player::FIRST.other()))
    }

    /// New rules for the same game: the start position is re-read under them. Returns a note
    /// when a set-up start position no longer fits the rules (the game then restarts from the
    /// variant's initial position, and says so).
    fn switch_rules(&mut self, v: Variant) -> String {
        let initial = self.start == self.variant.start();
        let text = self.start.to_text(&self.variant.rules);
        self.variant = Arc::new(v);
        if initial {
            self.start = self.variant.start();
            return String::new();
        }
        match Position::from_text(&self.variant.rules, &text) {
            Ok(p) => {
                self.start = p;
                String::new()
            }
            Err(e) => {
                self.start = self.variant.start();
                format!("the set-up start position does not fit the new rules ({e}); starting from the initial position\n")
            }
        }
    }
}
