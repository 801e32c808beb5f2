//! An I/O-free game session: a variant, a position, the moves played and undone. The REPL is a
//! thin shell over it; tests drive it directly.

use crate::ai::{self, Engine};
use crate::notation::Move;
use crate::perft;
use crate::record::Record;
use crate::render::{self, Style};
use crate::state::Position;
use crate::variant::Variant;

/// One definition per command: name, arguments, help. `help` is generated from this table.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("help", "[CMD]", "list the commands, or explain one"),
    ("moves", "", "list the legal moves, grouped by piece"),
    ("MOVE", "", "play a move in canonical notation (a unique prefix of whole cells is enough; `pass` where the rules allow it)"),
    ("why", "MOVE", "explain why a move is illegal (or say it is legal)"),
    ("undo", "[N]", "take back N plies (default 1); redo brings them back"),
    ("redo", "[N]", "replay N undone plies"),
    ("back", "[N]", "step back N plies through the history without losing it"),
    ("forward", "[N]", "step forward N plies through the history"),
    ("goto", "PLY", "go to a ply of the history (0 = the start)"),
    ("history", "", "the moves played, numbered"),
    ("new", "", "start again from the initial position"),
    ("show", "", "draw the board"),
    ("board", "on|off", "draw the board after every move, or not"),
    ("position", "", "print the position as one line of text"),
    ("setup", "TEXT", "start a new game line from a position text"),
    ("place", "CELL PIECE", "put a piece (its symbol, e.g. W or b, or PLAYER KIND) on a cell; starts a new game line"),
    ("remove", "CELL", "empty a cell; starts a new game line"),
    ("clear", "", "empty the board; starts a new game line"),
    ("turn", "PLAYER", "set who moves; starts a new game line"),
    ("options", "", "the options, their values, allowed values and defaults"),
    ("set", "NAME VALUE", "change an option and replay the game"),
    ("variant", "NAME", "switch to another variant"),
    ("reload", "", "re-read the variant's files from disk and replay the game (a broken file keeps the old rules)"),
    ("rules", "", "the resolved variant (what was inherited)"),
    ("save", "FILE", "write the game record (variant, options, start, moves) to FILE"),
    ("load", "FILE", "read a game record and replay it"),
    ("ai", "[random|mcts ITER]", "let the machine make a move for the side to move (default mcts 1000)"),
    ("play", "white|black|none [ENGINE]", "the machine answers for that side automatically (ENGINE: random or mcts:ITER)"),
    ("auto", "[N] [ENGINE]", "play N machine moves (default 1, random; a side set with `play` keeps its engine)"),
    ("seed", "N", "seed the machine players' random generator"),
    ("selfplay", "N [--white E] [--black E] [--seed S]", "play N machine games from the start and report results, lengths and branching"),
    ("perft", "N [--divide]", "count the move tree from here"),
    ("trace", "on|off", "after each move, say which hooks ran and what changed"),
    ("snapshot", "NAME", "record the game as scenario NAME of this variant's folder, with its snapshot"),
    ("quit", "", "leave (also Ctrl-D); the game is autosaved"),
];

/// A game being played or studied.
pub struct Session {
    pub variant: Variant,
    pub pos: Position,
    /// The moves from the start position to `pos`.
    pub played: Vec<Move>,
    /// Moves undone (or stepped back over), most recent last, for `redo` and `forward`.
    pub undone: Vec<Move>,
    /// The position the game started from.
    pub start: Position,
    pub style: Style,
    pub show_board: bool,
    /// The machine players' generator and its seed.
    pub rng: ai::Rng,
    pub seed: u64,
    /// Which sides the machine plays, and how.
    pub machine: [Option<Engine>; 2],
    /// Whether each move's hooks and changes are printed.
    pub trace: bool,
}

/// What a command asks of the shell besides its output.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

impl Session {
    /// Opens a session on a variant.
    ///
    /// # Errors
    /// The variant does not load (the diagnostic, rendered).
    pub fn new(spec: &str, sets: &[(String, String)], style: Style) -> Result<Session, String> {
        let variant = Variant::load(spec, sets).map_err(|e| e.render(style.color))?;
        let pos = variant.start();
        Ok(Session {
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
        })
    }

    /// Opens a session from a game record (see [`crate::record`]).
    ///
    /// # Errors
    /// The record's variant does not load, its start position or a move is not valid.
    pub fn from_record(rec: &Record, style: Style) -> Result<Session, String> {
        let sets: Vec<(String, String)> = rec.options.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let mut s = Session::new(&rec.variant, &sets, style)?;
        s.apply_record(rec)?;
        Ok(s)
    }

    fn apply_record(&mut self, rec: &Record) -> Result<(), String> {
        self.start = match &rec.start {
            Some(t) => Position::from_text(&self.variant.rules, t).map_err(|e| format!("the record's start position: {e}"))?,
            None => self.variant.start(),
        };
        self.pos = self.start.clone();
        self.played.clear();
        self.undone.clear();
        for (i, t) in rec.moves.iter().enumerate() {
            let m = self.variant.play(&mut self.pos, t).map_err(|e| format!("the record's move {} ({t}): {e}", i + 1))?;
            self.played.push(m);
        }
        Ok(())
    }

    /// The game as a record: variant, options changed from their defaults, start, moves.
    pub fn record(&self) -> Record {
        let g = &self.variant.rules.geometry;
        let initial = self.variant.start();
        Record {
            variant: self.variant.spec.clone(),
            options: self.variant.overrides.iter().cloned().collect(),
            start: (self.start != initial).then(|| self.start.to_text(&self.variant.rules)),
            moves: self.played.iter().map(|m| m.text(g)).collect(),
        }
    }

    /// The prompt: variant, ply and who decides (`basileus 12 white> `).
    pub fn prompt(&self) -> String {
        let r = &self.variant.rules;
        let who = if self.pos.result().is_some() { "over".to_string() } else { r.player_name(self.pos.side()).to_string() };
        format!("{} {} {}> ", r.name, self.pos.ply(), who)
    }

    fn legal(&mut self) -> Result<Vec<Move>, String> {
        let mut v = Vec::new();
        self.variant.legal_moves(&mut self.pos, &mut v).map_err(|e| e.to_string())?;
        Ok(v)
    }

    /// The board with the last move marked.
    pub fn board(&self) -> String {
        render::board(&self.variant, &self.pos, self.played.last(), self.style)
    }

    /// Resolves typed text to a legal move: exact text first, then a unique prefix of whole
    /// cells (`c3x` or `c3`).
    ///
    /// # Errors
    /// Unknown, ambiguous or illegal text, with the reason.
    pub fn resolve(&mut self, text: &str) -> Result<Move, String> {
        let legal = self.legal()?;
        let g = &self.variant.rules.geometry;
        let t = text.trim().to_ascii_lowercase();
        if let Some(m) = legal.iter().find(|m| m.text(g) == t) {
            return Ok(*m);
        }
        let cands: Vec<&Move> = legal
            .iter()
            .filter(|m| {
                let mt = m.text(g);
                mt.starts_with(&t)
                    && mt[t.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| c == '-' || c == 'x' || (t.ends_with(['-', 'x']) && c.is_ascii_alphabetic()))
            })
            .collect();
        match cands.len() {
            1 => Ok(*cands[0]),
            0 => Err(self
                .variant
                .find_move(&mut self.pos, &t)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_else(|| format!("`{t}` is not a legal move"))),
            _ => {
                let mut names: Vec<String> = cands.iter().map(|m| m.text(g)).collect();
                names.sort();
                Err(format!("`{t}` is ambiguous: {}", names.join(", ")))
            }
        }
    }

    /// Plays a legal move and records it; then lets the machine answer for the sides it plays.
    ///
    /// # Errors
    /// A failing script hook.
    pub fn play_move(&mut self, m: Move) -> Result<String, String> {
        let mut out = self.new_line_note();
        out.push_str(&self.make_one(m)?);
        out.push_str(&self.machine_replies()?);
        if self.show_board {
            out.push_str(&self.board());
        } else {
            out.push_str(&render::status(&self.variant, &self.pos));
            out.push('\n');
        }
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
    fn make_one(&mut self, m: Move) -> Result<String, String> {
        let before = self.trace.then(|| self.pos.clone());
        let hook = self.trace && self.variant.after_move_runs(&self.pos, &m);
        self.variant.make(&mut self.pos, &m).map_err(|e| e.to_string())?;
        self.played.push(m);
        self.undone.clear();
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
        let mark = |code: u8| if code == 0 { '.' } else { r.symbol(code) };
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
            if self.pos.board()[c.0 as usize] == 0 {
                continue;
            }
            for (slot, name) in r.attributes.iter().enumerate() {
                let now = self.pos.attr(c.0, slot as u8);
                // A piece that moved here is compared with where it came from.
                let was = if before.board()[c.0 as usize] == 0 && m.to() == Some(c.0) && m.from != crate::geometry::NONE {
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
            for p in crate::Player::both() {
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

    /// Machine moves while the side to decide is one the machine plays.
    fn machine_replies(&mut self) -> Result<String, String> {
        let mut out = String::new();
        let mut guard = 0;
        while self.pos.result().is_none() {
            let Some(engine) = self.machine[self.pos.side().index()] else { break };
            guard += 1;
            if guard > 10_000 {
                break;
            }
            match ai::choose(&self.variant, &mut self.pos, engine, &mut self.rng).map_err(|e| e.to_string())? {
                Some(m) => {
                    let who = self.variant.rules.player_name(self.pos.side()).to_string();
                    out.push_str(&format!("{who} ({engine}) plays {}\n", m.text(&self.variant.rules.geometry)));
                    out.push_str(&self.make_one(m)?);
                }
                None => break,
            }
        }
        Ok(out)
    }

    /// Replays moves, given as text, from `start` under the current variant; stops at the first
    /// one that is no longer legal and says so.
    fn replay(&mut self, texts: Vec<String>) -> String {
        self.pos = self.start.clone();
        self.played.clear();
        self.undone.clear();
        for (i, text) in texts.iter().enumerate() {
            match self.variant.play(&mut self.pos, text) {
                Ok(m) => self.played.push(m),
                Err(e) => {
                    let _ = self.variant.take_output();
                    return format!("replayed {i} moves; move {} ({text}) is no longer legal: {e}\n", i + 1);
                }
            }
        }
        let _ = self.variant.take_output();
        format!("replayed {} moves\n", texts.len())
    }

    /// Switches to new rules and replays the game under them. Moves are carried as text: cell
    /// numbers mean other cells on another board.
    fn replay_under(&mut self, v: Variant) -> String {
        let g = &self.variant.rules.geometry;
        let texts: Vec<String> = self.played.iter().map(|m| m.text(g)).collect();
        let note = self.switch_rules(v);
        format!("{note}{}", self.replay(texts))
    }

    /// Steps back (`n` < 0) or forward through the history.
    fn step(&mut self, n: i64) -> Result<(), String> {
        for _ in 0..n.unsigned_abs() {
            if n < 0 {
                let Some(m) = self.played.pop() else { break };
                self.pos.undo();
                self.undone.push(m);
            } else {
                let Some(&m) = self.undone.last() else { break };
                // A failing hook leaves the position as it was; the move stays ahead.
                self.variant.make(&mut self.pos, &m).map_err(|e| e.to_string())?;
                let _ = self.variant.take_output();
                self.undone.pop();
                self.played.push(m);
            }
        }
        Ok(())
    }

    /// Makes an edited position the start of a new game line.
    fn edit(&mut self, f: impl FnOnce(&mut Position, &crate::rules::Ruleset) -> Result<(), String>) -> Result<String, String> {
        let r = self.variant.rules.clone();
        let mut p = self.pos.clone();
        p.set_continuation(&r.zobrist, None);
        p.set_result(None);
        f(&mut p, &r)?;
        p.rehash(&r);
        // Through the text: a fresh position (no undo stack, an empty repetition history).
        let p = Position::from_text(&r, &p.to_text(&r))?;
        self.start = p.clone();
        self.pos = p;
        self.played.clear();
        self.undone.clear();
        Ok(self.board())
    }

    fn cell(&self, name: &str) -> Result<u16, String> {
        self.variant.rules.geometry.parse_cell(name).map(|c| c.0).map_err(|e| e.to_string())
    }

    /// A piece by its symbol (`W`, `b`) or as `PLAYER KIND`.
    fn piece_code(&self, text: &str) -> Result<u8, String> {
        let r = &self.variant.rules;
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [sym] if sym.chars().count() == 1 => {
                r.code_of_symbol(sym.chars().next().unwrap_or(' ')).ok_or_else(|| format!("no piece has the symbol `{sym}`"))
            }
            [player, kind] => {
                let p = r.parse_player(player).ok_or_else(|| format!("`{player}` is not a player"))?;
                let k = r.kinds.iter().position(|k| k.name == *kind).ok_or_else(|| {
                    let names: Vec<&str> = r.kinds.iter().map(|k| k.name.as_str()).collect();
                    format!("`{kind}` is not a piece kind ({})", names.join(", "))
                })?;
                Ok(crate::piece::code(crate::piece::KindId(k as u8), p))
            }
            _ => Err("a piece is its symbol (e.g. W) or PLAYER KIND (e.g. white stone)".into()),
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
        if alternate && deciders[0] == crate::Player::FIRST {
            for (i, pair) in self.played.chunks(2).enumerate() {
                let texts: Vec<String> = pair.iter().map(|m| m.text(g)).collect();
                s.push_str(&format!("{:>3}. {}\n", i + 1, texts.join(" ")));
            }
        } else {
            for (i, m) in self.played.iter().enumerate() {
                let who = self.variant.rules.player_name(deciders[i]);
                s.push_str(&format!("{:>3}. {who} {}\n", first_ply + i as u32 + 1, m.text(g)));
            }
        }
        if !self.undone.is_empty() {
            s.push_str(&format!("({} more plies ahead: forward or redo)\n", self.undone.len()));
        }
        s
    }

    /// Runs one command line.
    ///
    /// # Errors
    /// The command failed: unknown command, illegal move, bad option…; the game is unchanged.
    pub fn execute(&mut self, line: &str) -> Result<(String, Flow), String> {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(a, b)| (a, b.trim()));
        let ok = |s: String| Ok((s, Flow::Continue));
        let count = |rest: &str, cmd: &str| -> Result<i64, String> {
            if rest.is_empty() { Ok(1) } else { rest.parse::<i64>().ok().filter(|n| *n >= 0).ok_or(format!("usage: {cmd} [N]")) }
        };
        match cmd {
            "" => ok(String::new()),
            "quit" | "exit" | "q" => Ok((String::new(), Flow::Quit)),
            "help" | "?" => ok(help(rest)),
            "moves" => {
                let legal = self.legal()?;
                let g = &self.variant.rules.geometry;
                let mut texts: Vec<String> = legal.iter().map(|m| m.text(g)).collect();
                texts.sort();
                if texts.is_empty() {
                    return ok(format!("no moves ({})\n", render::status(&self.variant, &self.pos)));
                }
                let mut groups: Vec<(String, Vec<String>)> = Vec::new();
                for t in texts {
                    let key = t.split(['-', 'x']).next().unwrap_or("").to_string();
                    match groups.last_mut() {
                        Some((k, v)) if *k == key => v.push(t),
                        _ => groups.push((key, vec![t])),
                    }
                }
                let mut s = String::new();
                for (k, v) in groups {
                    s.push_str(&format!("{k:>4}: {}\n", v.join(" ")));
                }
                ok(s)
            }
            "why" => {
                if rest.is_empty() {
                    return Err("usage: why MOVE".into());
                }
                let r = match self.resolve(rest) {
                    Ok(m) => format!("{} is legal\n", m.text(&self.variant.rules.geometry)),
                    Err(e) => format!("{e}\n"),
                };
                ok(r)
            }
            "undo" | "back" => {
                let n = count(rest, cmd)?;
                self.step(-n)?;
                ok(self.board())
            }
            "redo" | "forward" => {
                let n = count(rest, cmd)?;
                self.step(n)?;
                ok(self.board())
            }
            "goto" => {
                let target: i64 = rest.parse().map_err(|_| "usage: goto PLY".to_string())?;
                let first = self.start.ply() as i64;
                let last = first + (self.played.len() + self.undone.len()) as i64;
                if target < first || target > last {
                    return Err(format!("ply {target} is not in this game's history ({first} to {last})"));
                }
                self.step(target - self.pos.ply() as i64)?;
                ok(self.board())
            }
            "show" => ok(self.board()),
            "board" => {
                self.show_board = rest != "off";
                ok(format!("board display {}\n", if self.show_board { "on" } else { "off" }))
            }
            "trace" => {
                self.trace = match rest {
                    "on" | "" => true,
                    "off" => false,
                    _ => return Err("usage: trace on|off".into()),
                };
                ok(format!("trace {}\n", if self.trace { "on" } else { "off" }))
            }
            "position" => ok(format!("{}\n", self.pos.to_text(&self.variant.rules))),
            "setup" => {
                let p = Position::from_text(&self.variant.rules, rest)?;
                self.start = p.clone();
                self.pos = p;
                self.played.clear();
                self.undone.clear();
                ok(self.board())
            }
            "place" => {
                let (c, piece) = rest.split_once(char::is_whitespace).ok_or("usage: place CELL PIECE")?;
                let cell = self.cell(c)?;
                let code = self.piece_code(piece)?;
                let out = self.edit(|p, r| {
                    let mut vals = vec![0i32; r.nattr()];
                    for &(slot, v) in &r.kind(crate::piece::kind(code)).attributes {
                        vals[slot as usize] = v;
                    }
                    p.put(&r.zobrist, cell, code, &vals);
                    Ok(())
                })?;
                ok(out)
            }
            "remove" => {
                let cell = self.cell(rest)?;
                if self.pos.board()[cell as usize] == 0 {
                    return Err(format!("{rest} is already empty"));
                }
                let out = self.edit(|p, r| {
                    p.clear_cell(&r.zobrist, cell);
                    Ok(())
                })?;
                ok(out)
            }
            "clear" => {
                let out = self.edit(|p, r| {
                    for c in 0..p.board().len() as u16 {
                        p.clear_cell(&r.zobrist, c);
                    }
                    Ok(())
                })?;
                ok(out)
            }
            "turn" => {
                let player = self.variant.rules.parse_player(rest).ok_or_else(|| format!("usage: turn {}", self.player_list()))?;
                let out = self.edit(|p, r| {
                    p.set_side(&r.zobrist, player);
                    Ok(())
                })?;
                ok(out)
            }
            "history" => ok(self.history_text()),
            "new" => {
                self.start = self.variant.start();
                self.pos = self.start.clone();
                self.played.clear();
                self.undone.clear();
                ok(self.board())
            }
            "options" => {
                let o = &self.variant.rules.options;
                let mut s = String::new();
                for d in &o.decls {
                    let cur = o.get(&d.name).map(|v| v.to_string()).unwrap_or_default();
                    s.push_str(&format!("{} = {cur}   (allowed: {}; default {})\n", d.name, d.ty.describe(), d.default));
                }
                ok(s)
            }
            "set" => {
                let (name, value) = rest.split_once(char::is_whitespace).or_else(|| rest.split_once('=')).ok_or("usage: set NAME VALUE")?;
                let mut sets: Vec<(String, String)> = self.variant.overrides.iter().filter(|(n, _)| n != name.trim()).cloned().collect();
                sets.push((name.trim().to_string(), value.trim().to_string()));
                let v = self.variant.with_options(&sets).map_err(|e| e.render(self.style.color))?;
                let msg = self.replay_under(v);
                ok(format!("{name} = {}\n{msg}", value.trim()))
            }
            "reload" => {
                let v = Variant::load(&self.variant.spec, &self.variant.overrides)
                    .map_err(|e| format!("{}\nthe old rules stay in force", e.render(self.style.color)))?;
                let msg = self.replay_under(v);
                ok(format!("reloaded {}\n{msg}", self.variant.spec))
            }
            "variant" => {
                if rest.is_empty() {
                    return Err(format!("usage: variant NAME (shipped: {})", crate::variant::shipped_names().join(", ")));
                }
                let v = Variant::load(rest, &[]).map_err(|e| e.render(self.style.color))?;
                self.variant = v;
                self.start = self.variant.start();
                self.pos = self.start.clone();
                self.played.clear();
                self.undone.clear();
                ok(self.board())
            }
            "rules" => ok(render::resolved(&self.variant)),
            "save" => {
                if rest.is_empty() {
                    return Err("usage: save FILE".into());
                }
                self.record().save(std::path::Path::new(rest))?;
                ok(format!("saved {} moves to {rest}\n", self.played.len()))
            }
            "load" => {
                if rest.is_empty() {
                    return Err("usage: load FILE".into());
                }
                let rec = Record::load(std::path::Path::new(rest))?;
                let s = Session::from_record(&rec, self.style)?;
                let keep = (self.rng.clone(), self.seed, self.machine, self.trace, self.show_board);
                *self = s;
                (self.rng, self.seed, self.machine, self.trace, self.show_board) = keep;
                ok(format!("loaded {rest}: {} moves of {}\n{}", self.played.len(), self.variant.name(), self.board()))
            }
            "seed" => {
                let n: u64 = rest.parse().map_err(|_| "usage: seed N".to_string())?;
                self.seed = n;
                self.rng = ai::rng(n);
                ok(format!("seed {n}\n"))
            }
            "ai" => {
                let engine = if rest.is_empty() { Engine::Mcts { iterations: 1000 } } else { Engine::parse(rest)? };
                if self.pos.result().is_some() {
                    return Err(format!("the game is over ({})", render::status(&self.variant, &self.pos)));
                }
                let t = std::time::Instant::now();
                let m = ai::choose(&self.variant, &mut self.pos, engine, &mut self.rng).map_err(|e| e.to_string())?;
                let Some(m) = m else { return Err("no move to make".into()) };
                let head = format!("{engine} plays {} ({:.2} s)\n", m.text(&self.variant.rules.geometry), t.elapsed().as_secs_f64());
                let out = self.play_move(m)?;
                ok(format!("{head}{out}"))
            }
            "play" => {
                let mut words = rest.split_whitespace();
                let side = words.next().unwrap_or("");
                let engine = match words.next() {
                    Some(e) => Engine::parse(e)?,
                    None => Engine::Mcts { iterations: 1000 },
                };
                let names = self.player_list();
                let msg = match side {
                    "none" => {
                        self.machine = [None, None];
                        "the machine plays no side\n".to_string()
                    }
                    "both" => {
                        self.machine = [Some(engine), Some(engine)];
                        format!("the machine plays both sides ({engine})\n")
                    }
                    _ => {
                        let p = self.variant.rules.parse_player(side).ok_or_else(|| format!("usage: play {names}|none|both [ENGINE]"))?;
                        self.machine[p.index()] = Some(engine);
                        format!("the machine plays {side} ({engine})\n")
                    }
                };
                let replies = self.machine_replies()?;
                ok(if replies.is_empty() { msg } else { format!("{msg}{replies}{}", self.board()) })
            }
            "auto" => {
                let mut n = 1u64;
                let mut engine = Engine::Random;
                for w in rest.split_whitespace() {
                    match w.parse::<u64>() {
                        Ok(k) => n = k,
                        Err(_) => engine = Engine::parse(w)?,
                    }
                }
                let mut out = String::new();
                let mut made = 0;
                for _ in 0..n {
                    if self.pos.result().is_some() {
                        break;
                    }
                    // A side the machine plays keeps its own engine.
                    let e = self.machine[self.pos.side().index()].unwrap_or(engine);
                    let Some(m) = ai::choose(&self.variant, &mut self.pos, e, &mut self.rng).map_err(|e| e.to_string())? else {
                        break;
                    };
                    out.push_str(&self.new_line_note());
                    out.push_str(&self.make_one(m)?);
                    made += 1;
                }
                out.push_str(&format!("{made} moves played ({engine})\n"));
                out.push_str(&if self.show_board { self.board() } else { format!("{}\n", render::status(&self.variant, &self.pos)) });
                ok(out)
            }
            "selfplay" => {
                let args: Vec<String> = rest.split_whitespace().map(String::from).collect();
                let cfg = crate::selfplay::Config::from_repl_args(&args, self.seed)?;
                let report = crate::selfplay::run_variant(&self.variant, &cfg)?;
                ok(report.text())
            }
            "snapshot" => {
                let msg = crate::workflow::record_scenario(&self.variant, &self.start, &self.played, rest)?;
                ok(msg)
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let n: u32 = it.next().and_then(|x| x.parse().ok()).ok_or("usage: perft N [--divide]")?;
                let divide = it.next() == Some("--divide");
                let mut p = self.pos.clone();
                if divide {
                    let rows = perft::divide(&self.variant, &mut p, n).map_err(|e| e.to_string())?;
                    let total: u64 = rows.iter().map(|r| r.1).sum();
                    let mut s: String = rows.iter().map(|(m, c)| format!("{m}: {c}\n")).collect();
                    s.push_str(&format!("{total}\n"));
                    ok(s)
                } else {
                    ok(format!("{}\n", perft::perft(&self.variant, &mut p, n).map_err(|e| e.to_string())?))
                }
            }
            _ => {
                if COMMANDS.iter().any(|(c, _, _)| *c == cmd) {
                    return Err(format!("`{cmd}` needs arguments; see help {cmd}"));
                }
                let looks_like_move = line.contains(['-', 'x']) || line == "pass" || self.variant.rules.geometry.parse_cell(line).is_ok();
                if !looks_like_move {
                    let mut msg = format!("unknown command `{cmd}`; type help for the list");
                    if let Some(h) = crate::rules::error::did_you_mean(cmd, COMMANDS.iter().map(|c| c.0)) {
                        msg = format!("unknown command `{cmd}`; {h}");
                    }
                    return Err(msg);
                }
                let m = self.resolve(line)?;
                let out = self.play_move(m)?;
                ok(out)
            }
        }
    }

    /// The players' names as `white|black`.
    pub fn player_list(&self) -> String {
        let r = &self.variant.rules;
        format!("{}|{}", r.player_name(crate::Player::FIRST), r.player_name(crate::Player::FIRST.other()))
    }

    /// New rules for the same game: the start position is re-read under them. Returns a note
    /// when a set-up start position no longer fits the rules (the game then restarts from the
    /// variant's initial position, and says so).
    fn switch_rules(&mut self, v: Variant) -> String {
        let initial = self.start == self.variant.start();
        let text = self.start.to_text(&self.variant.rules);
        self.variant = v;
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

/// The generated help text.
pub fn help(cmd: &str) -> String {
    let mut s = String::new();
    for (name, args, text) in COMMANDS {
        if cmd.is_empty() || *name == cmd {
            s.push_str(&format!("{:<22} {text}\n", format!("{name} {args}")));
        }
    }
    if s.is_empty() {
        s = format!("no command `{cmd}`\n");
    }
    s
}
