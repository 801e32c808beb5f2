//! An I/O-free game session: a variant, a position, the moves played and undone. The REPL is a
//! thin shell over it; tests drive it directly.

use crate::notation::Move;
use crate::perft;
use crate::render::{self, Style};
use crate::state::Position;
use crate::variant::Variant;

/// One definition per command: name, arguments, help. `help` is generated from this table.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("help", "[CMD]", "list the commands, or explain one"),
    ("moves", "", "list the legal moves, grouped by piece"),
    ("MOVE", "", "play a move in canonical notation (a unique prefix of whole cells is enough)"),
    ("why", "MOVE", "explain why a move is illegal"),
    ("undo", "[N]", "take back N plies (default 1)"),
    ("redo", "[N]", "replay N undone plies"),
    ("show", "", "draw the board"),
    ("board", "on|off", "draw the board after every move, or not"),
    ("position", "", "print the position as one line of text"),
    ("setup", "TEXT", "start a new game line from a position text"),
    ("history", "", "the moves played"),
    ("new", "", "start again from the initial position"),
    ("options", "", "the options, their values, allowed values and defaults"),
    ("set", "NAME VALUE", "change an option and replay the game"),
    ("variant", "NAME", "switch to another variant"),
    ("rules", "", "the resolved variant (what was inherited)"),
    ("perft", "N [--divide]", "count the move tree from here"),
    ("snapshot", "NAME", "record the game as scenario NAME of this variant's folder, with its snapshot"),
    ("quit", "", "leave (also Ctrl-D)"),
];

/// A game being played or studied.
pub struct Session {
    pub variant: Variant,
    pub pos: Position,
    /// The moves from the start position to `pos`.
    pub played: Vec<Move>,
    /// Moves undone, most recent last, for `redo`.
    pub undone: Vec<Move>,
    /// The position the game started from.
    pub start: Position,
    pub style: Style,
    pub show_board: bool,
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
        Ok(Session { start: pos.clone(), pos, variant, played: vec![], undone: vec![], style, show_board: true })
    }

    /// The prompt: variant, ply and who decides (`basileus 12 white> `).
    pub fn prompt(&self) -> String {
        let r = &self.variant.rules;
        let who = if self.pos.result.is_some() { "over".to_string() } else { r.player_name(self.pos.side).to_string() };
        format!("{} {} {}> ", r.name, self.pos.ply, who)
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

    /// Plays a legal move and records it.
    ///
    /// # Errors
    /// A failing script hook.
    pub fn play_move(&mut self, m: Move) -> Result<String, String> {
        self.variant.make(&mut self.pos, &m).map_err(|e| e.to_string())?;
        self.played.push(m);
        self.undone.clear();
        let mut out = String::new();
        for l in self.variant.take_output() {
            out.push_str(&format!("script: {l}\n"));
        }
        if self.show_board {
            out.push_str(&self.board());
        } else {
            out.push_str(&render::status(&self.variant, &self.pos));
            out.push('\n');
        }
        Ok(out)
    }

    /// Replays `moves` from `start` under the current variant; stops at the first one that is
    /// no longer legal and says so.
    fn replay(&mut self, moves: Vec<Move>) -> String {
        self.pos = self.start.clone();
        self.played.clear();
        self.undone.clear();
        let g = self.variant.rules.geometry.clone();
        for (i, m) in moves.iter().enumerate() {
            let text = m.text(&g);
            match self.variant.play(&mut self.pos, &text) {
                Ok(m2) => self.played.push(m2),
                Err(e) => {
                    return format!("replayed {i} moves; move {} ({text}) is no longer legal: {e}\n", i + 1);
                }
            }
        }
        format!("replayed {} moves\n", moves.len())
    }

    /// Runs one command line.
    ///
    /// # Errors
    /// The command failed: unknown command, illegal move, bad option…; the game is unchanged.
    pub fn execute(&mut self, line: &str) -> Result<(String, Flow), String> {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(a, b)| (a, b.trim()));
        let ok = |s: String| Ok((s, Flow::Continue));
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
            "undo" | "redo" => {
                let n: usize = if rest.is_empty() { 1 } else { rest.parse().map_err(|_| format!("usage: {cmd} [N]"))? };
                for _ in 0..n {
                    if cmd == "undo" {
                        let Some(m) = self.played.pop() else { break };
                        self.pos.undo();
                        self.undone.push(m);
                    } else {
                        let Some(m) = self.undone.pop() else { break };
                        self.variant.make(&mut self.pos, &m).map_err(|e| e.to_string())?;
                        self.played.push(m);
                    }
                }
                ok(self.board())
            }
            "show" => ok(self.board()),
            "board" => {
                self.show_board = rest != "off";
                ok(format!("board display {}\n", if self.show_board { "on" } else { "off" }))
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
            "history" => {
                let g = &self.variant.rules.geometry;
                let s: Vec<String> = self.played.iter().enumerate().map(|(i, m)| format!("{}. {}", i + 1, m.text(g))).collect();
                ok(format!("{}\n", s.join("\n")))
            }
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
                self.variant = v;
                if self.played.is_empty() && self.start.ply == 0 {
                    self.start = self.variant.start();
                }
                let moves = std::mem::take(&mut self.played);
                let msg = self.replay(moves);
                ok(format!("{name} = {}\n{msg}", value.trim()))
            }
            "variant" => {
                let v = Variant::load(rest, &[]).map_err(|e| e.render(self.style.color))?;
                self.variant = v;
                self.start = self.variant.start();
                self.pos = self.start.clone();
                self.played.clear();
                self.undone.clear();
                ok(self.board())
            }
            "rules" => ok(self.variant.resolved_text()),
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
                    return Err(format!("unknown command `{cmd}`; type help for the list"));
                }
                let m = self.resolve(line)?;
                let out = self.play_move(m)?;
                ok(out)
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
