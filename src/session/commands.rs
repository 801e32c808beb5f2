//! The REPL's commands: one [`Command`] value each in [`COMMANDS`] (name, aliases, usage, help,
//! argument kind, the function that runs it). `help`, the docs table check, "did you mean" and
//! the shell's tab completion are all derived from that table, so adding a command is one entry
//! here and its function.

use super::{CommandError, Effect, Reply, Session};
use crate::ai::{self, Engine};
use crate::perft;
use crate::record::Record;
use crate::records::convert::Format;
use crate::render;
use crate::state::Position;
use crate::variant::Variant;

/// What a command's arguments are, for completion (and for a reader of the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arg {
    /// No arguments.
    None,
    /// A number (`undo [N]`, `seed N`).
    Count,
    /// A ply of the history.
    Ply,
    /// A legal move.
    Move,
    /// A variant name.
    Variant,
    /// An option name, then one of its values.
    Option,
    /// A file name.
    File,
    /// `on` or `off`.
    OnOff,
    /// A player's name.
    Player,
    /// A player's name, `none` or `both`, then an engine.
    MachineSide,
    /// Engines (`random`, `mcts`), wherever they appear.
    Engine,
    /// A command's name.
    CommandName,
    /// A position text.
    Position,
    /// Anything else (no completion).
    Free,
}

/// Runs a command: the session, the command's table entry, the text after its name.
pub(crate) type Run = fn(&mut Session, &Command, &str) -> Result<Reply, CommandError>;

/// One REPL command.
pub struct Command {
    /// The name `help` shows (`MOVE` stands for a typed move: the line is not a command).
    pub name: &'static str,
    /// Other spellings accepted.
    pub aliases: &'static [&'static str],
    /// The arguments, as `help` shows them.
    pub usage: &'static str,
    pub help: &'static str,
    pub(crate) arg: Arg,
    pub(crate) run: Run,
}

impl Command {
    /// Whether `word` (as typed) names this command.
    pub(crate) fn is_named(&self, word: &str) -> bool {
        self.name != MOVE && (self.name == word || self.aliases.contains(&word))
    }

    /// `usage: NAME USAGE`, the error for arguments that do not fit.
    pub(crate) fn usage_error(&self) -> CommandError {
        CommandError::Usage(format!("usage: {} {}", self.name, self.usage))
    }

    /// The command's line in `help`.
    pub(crate) fn help_line(&self) -> String {
        format!("{:<22} {}\n", format!("{} {}", self.name, self.usage), self.help)
    }
}

/// The placeholder name of the entry for typed moves.
pub(crate) const MOVE: &str = "MOVE";

const fn cmd(name: &'static str, aliases: &'static [&'static str], usage: &'static str, help: &'static str, arg: Arg, run: Run) -> Command {
    Command { name, aliases, usage, help, arg, run }
}

/// Every command, in the order `help` lists them.
#[rustfmt::skip]
pub static COMMANDS: &[Command] = &[
    cmd("help", &["?"], "[CMD]", "list the commands, or explain one", Arg::CommandName, help),
    cmd("moves", &[], "[CELL]", "list the legal moves, grouped by piece (or one cell's, or why it has none)", Arg::Move, moves),
    cmd(MOVE, &[], "", "play a move in canonical notation (a unique prefix of whole cells is enough; `pass` where the rules allow it)", Arg::Move, play_move),
    cmd("why", &[], "MOVE", "explain why a move is illegal (or say it is legal)", Arg::Move, why),
    cmd("undo", &[], "[N]", "take back N plies (default 1), and past the start of an edited game line, the edit (place, clear, setup, new, variant, load…); redo brings them back", Arg::Count, undo),
    cmd("redo", &[], "[N]", "replay N undone plies or edits", Arg::Count, redo),
    cmd("back", &[], "[N]", "step back N plies through the history without losing it", Arg::Count, back),
    cmd("forward", &[], "[N]", "step forward N plies through the history", Arg::Count, forward),
    cmd("goto", &[], "PLY", "go to a ply of the history (0 = the start)", Arg::Ply, goto),
    cmd("history", &[], "", "the moves played, numbered", Arg::None, history),
    cmd("new", &[], "", "start again from the initial position (undo returns to the game)", Arg::None, new_game),
    cmd("show", &[], "[--svg FILE] [--png FILE] [--flip] [--no-caption]", "draw the board, or write it as an SVG or PNG picture (the last move marked; --flip: from the second player's side; --no-caption: the board alone)", Arg::File, show),
    cmd("board", &[], "on|off", "draw the board after every move, or not", Arg::OnOff, board),
    cmd("position", &[], "[fen]", "print the position as one line of text (or as a FEN)", Arg::None, position),
    cmd("setup", &[], "TEXT", "start a new game line from a position text or a FEN", Arg::Position, setup),
    cmd("place", &[], "CELL PIECE", "put a piece (its symbol, e.g. W or b, or PLAYER KIND; attribute values in brackets, e.g. P[3]) on a cell; starts a new game line", Arg::Free, place),
    cmd("remove", &[], "CELL", "empty a cell; starts a new game line", Arg::Free, remove),
    cmd("clear", &[], "", "empty the board; starts a new game line", Arg::None, clear),
    cmd("turn", &[], "PLAYER", "set who moves; starts a new game line", Arg::Player, turn),
    cmd("options", &[], "", "the options, their values, allowed values and defaults", Arg::None, options),
    cmd("set", &[], "NAME VALUE", "change an option and replay the game", Arg::Option, set),
    cmd("variant", &[], "NAME", "switch to another variant", Arg::Variant, variant),
    cmd("reload", &[], "", "re-read the variant's files from disk and replay the game (a broken file keeps the old rules)", Arg::None, reload),
    cmd("rules", &[], "", "the resolved variant (what was inherited)", Arg::None, rules),
    cmd("save", &[], "FILE [--force]", "write the game record (variant, options, start, moves) to FILE: boardlab's record, or PGN for FILE.pgn and PDN for FILE.pdn; a file that is not a game record is overwritten only with --force", Arg::File, save),
    cmd("load", &[], "FILE", "read a game record (boardlab's, or the first game of a .pgn or .pdn file) and replay it", Arg::File, load),
    cmd("ai", &[], "[ENGINE]", "let the machine make a move for the side to move (ENGINE: random, mcts:N, ab, ab:dN, ab:N, ab:Nms, or another program: uci:COMMAND[@depth=N|@movetime=MS|@nodes=N], usi:COMMAND…; default ab)", Arg::Engine, ai),
    cmd("eval", &[], "", "the machine's evaluation of the position, term by term for each player", Arg::None, eval),
    cmd("hint", &[], "[ENGINE]", "the move `ai` would make here, with its score and expected line (not played; default ab; the same when asked again)", Arg::Engine, hint),
    cmd("analyse", &["analyze"], "[BUDGET] [LINES]", "the best LINES moves (default 3) with scores (win in N / loss in N when proven) and expected lines, the first the move `hint` names; BUDGET as for ab: ab:d6, ab:200000, ab:2s (default ab)", Arg::Engine, analyse),
    cmd("solve", &[], "[--memory MIB] [--nodes N] [--horizon PLIES]", "prove the position's value with perfect play: a win or a loss for the side to move in N plies, or a draw, with the best line (Ctrl-C stops it with what it proved)", Arg::Free, solve),
    cmd("play", &[], "white|black|none|both [ENGINE] [LIMIT]", "the machine answers for that side automatically (ENGINE as for `ai`, default ab; at most LIMIT machine moves per command, default 1000; Ctrl-C stops it, keeping its moves); an external engine uci:COMMAND goes last", Arg::MachineSide, machine_side),
    cmd("auto", &[], "[N] [ENGINE]", "play N machine moves (default 1, ab; a side set with `play` keeps its engine)", Arg::Engine, auto),
    cmd("seed", &[], "N", "seed the machine players' random generator", Arg::Count, seed),
    cmd("selfplay", &[], "N [--first E] [--second E] [--player NAME=E] [--seed S]", "play N machine games from the start and report results, lengths and branching (seats by order or by the variant's player names)", Arg::Free, selfplay),
    cmd("perft", &[], "N [--divide]", "count the move tree from here", Arg::Free, perft),
    cmd("trace", &[], "on|off", "after each move, say which hooks ran and what changed", Arg::OnOff, trace),
    cmd("snapshot", &[], "NAME", "record the game as scenario NAME of this variant's folder, with its snapshot", Arg::Free, snapshot),
    cmd("quit", &["exit", "q"], "", "leave (also Ctrl-D); the game is autosaved", Arg::None, quit),
];

/// The command a typed word names (a name or an alias; never the `MOVE` placeholder).
pub(crate) fn find(word: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.is_named(word))
}

/// The generated help text: every command, or the one `name` names.
pub(crate) fn help_text(name: &str) -> String {
    let s: String = COMMANDS.iter().filter(|c| name.is_empty() || c.name == name || c.is_named(name)).map(Command::help_line).collect();
    if s.is_empty() { format!("no command `{name}`\n") } else { s }
}

fn text(s: String) -> Result<Reply, CommandError> {
    Ok(Reply::text(s))
}

fn help(_: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    text(help_text(rest))
}

fn quit(_: &mut Session, _: &Command, _: &str) -> Result<Reply, CommandError> {
    Ok(Reply::default().with(Effect::Quit))
}

/// A typed move (the line is not a command), or an unknown command.
pub(super) fn typed(s: &mut Session, line: &str) -> Result<Reply, CommandError> {
    let word = line.split_whitespace().next().unwrap_or("");
    if word == MOVE {
        return Err(CommandError::NeedsArguments(word.to_string()));
    }
    let g = &s.variant.rules.geometry;
    // (A file's letters may name a column's drop, where pieces are dropped: Connect Four's `d`.)
    let drops = [crate::piece::Player::FIRST, crate::piece::Player::SECOND].iter().any(|&p| !s.variant.rules.drops[p].is_empty());
    let column = drops && line.bytes().all(|b| b.is_ascii_lowercase()) && g.parse_cell(&format!("{line}1")).is_ok();
    let looks_like_move =
        line.contains(['-', 'x', '@']) || line == "pass" || column || g.parse_cell(line).is_ok() || crate::san::parse(line, g).is_some();
    if !looks_like_move {
        let names = COMMANDS.iter().filter(|c| c.name != MOVE).map(|c| c.name);
        let hint = crate::rules::error::did_you_mean(word, names).unwrap_or_else(|| "type help for the list".to_string());
        return Err(CommandError::Unknown { word: crate::files::quote(word), hint });
    }
    play(s, line)
}

/// Plays a typed move (the `MOVE` entry; never reached by a name: see [`typed`]).
fn play_move(s: &mut Session, _: &Command, line: &str) -> Result<Reply, CommandError> {
    play(s, line)
}

fn play(s: &mut Session, line: &str) -> Result<Reply, CommandError> {
    let m = s.resolve(line)?;
    let played = crate::records::MoveWriter::new(&s.variant).text(&s.pos, &m);
    // A completed prefix (`c3`, `c3x`) says which move it became, in the variant's notation.
    let typed = line.trim();
    let as_typed = played.eq_ignore_ascii_case(typed) || m.text(&s.variant.rules.geometry).eq_ignore_ascii_case(typed);
    let echo = if as_typed { String::new() } else { format!("played {played}\n") };
    text(format!("{echo}{}", s.play_move(m)?))
}

fn moves(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let legal = s.legal()?;
    // `moves CELL`: that cell's moves, or why it has none.
    if !rest.is_empty() {
        return text(format!("{}\n", s.cell_moves(rest.trim())?));
    }
    let g = &s.variant.rules.geometry;
    if legal.is_empty() {
        return text(format!("no moves ({})\n", render::status(&s.variant, &s.pos)));
    }
    // Grouped by boardlab's text, shown in the variant's notation ([notation] moves).
    let writer = crate::records::MoveWriter::new(&s.variant);
    let mut texts: Vec<(String, String)> = legal.iter().map(|m| (m.text(g), writer.text(&s.pos, m))).collect();
    texts.sort();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (own, t) in texts {
        // Drops group by what is dropped (`@`, or `K@` per kind), the others by start cell.
        let key = match own.split_once('@') {
            Some((k, _)) => format!("{k}@"),
            None => own.split(['-', 'x']).next().unwrap_or("").to_string(),
        };
        match groups.last_mut() {
            Some((k, v)) if *k == key => v.push(t),
            _ => groups.push((key, vec![t])),
        }
    }
    text(groups.into_iter().map(|(k, v)| format!("{k:>4}: {}\n", v.join(" "))).collect())
}

fn why(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    if rest.is_empty() {
        return Err(c.usage_error());
    }
    let t = rest.trim().to_ascii_lowercase();
    // `why CELL`: the cell's moves, or why it has none.
    if s.variant.rules.geometry.parse_cell(&t).is_ok() {
        return text(format!("{}\n", s.cell_moves(&t)?));
    }
    // (SAN is read in its own case: `Kf1` is a king's move, `kf1` nothing.)
    text(match s.resolve(rest.trim()) {
        Ok(m) => {
            let note = s.variant.enclosed_note(&s.pos, &m) + s.variant.sow_note(&s.pos, &m).as_str();
            let text = m.text(&s.variant.rules.geometry);
            if text.eq_ignore_ascii_case(&t) {
                format!("{text} is legal{note}\n")
            } else {
                format!("{} is legal as {text}{note}\n", rest.trim())
            }
        }
        Err(e) => format!("{}\n", crate::files::clip_long_words(&e.to_string())),
    })
}

/// `[N]`: a count of plies, 1 when absent.
fn count(c: &Command, rest: &str) -> Result<i64, CommandError> {
    if rest.is_empty() { Ok(1) } else { rest.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| c.usage_error()) }
}

fn back(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let note = if s.played.is_empty() { "nothing to step back over: this is the start of the game\n" } else { "" };
    s.step(-count(c, rest)?)?;
    text(format!("{note}{}", s.board()))
}

fn undo(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let notes = s.undo_plies(count(c, rest)?.unsigned_abs())?;
    let replies = s.machine_if_its_turn()?;
    text(format!("{notes}{replies}{}", s.board()))
}

fn redo(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let notes = s.redo_plies(count(c, rest)?.unsigned_abs())?;
    text(format!("{notes}{}", s.board()))
}

fn forward(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let note = if s.undone.is_empty() { "nothing ahead: this is the end of the history\n" } else { "" };
    s.step(count(c, rest)?)?;
    text(format!("{note}{}", s.board()))
}

fn goto(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let target: i64 = rest.parse().map_err(|_| c.usage_error())?;
    let first = s.start.ply() as i64;
    let last = first + (s.played.len() + s.undone.len()) as i64;
    if target < first || target > last {
        return Err(CommandError::Rejected(format!("ply {target} is not in this game's history ({first} to {last})")));
    }
    s.step(target - s.pos.ply() as i64)?;
    text(s.board())
}

fn history(s: &mut Session, _: &Command, _: &str) -> Result<Reply, CommandError> {
    text(s.history_text())
}

fn new_game(s: &mut Session, _: &Command, _: &str) -> Result<Reply, CommandError> {
    let note = s.keep_line("a new game");
    s.restart(s.variant.start());
    let replies = s.machine_if_its_turn()?;
    text(format!("{note}{replies}{}", s.board()))
}

fn show(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    if rest.is_empty() {
        return text(s.board());
    }
    let (mut svg, mut png, mut opts) = (None, None, crate::diagram::Options::default());
    let mut words = rest.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "--svg" => svg = Some(words.next().ok_or_else(|| c.usage_error())?),
            "--png" => png = Some(words.next().ok_or_else(|| c.usage_error())?),
            "--flip" => opts.flip = true,
            "--no-caption" => opts.caption = false,
            _ => return Err(c.usage_error()),
        }
    }
    if svg.is_none() && png.is_none() {
        return Err(c.usage_error());
    }
    let picture = crate::diagram::svg(&s.variant, &s.pos, s.played.last(), opts);
    let mut reply = Reply::default();
    let mut wrote = Vec::new();
    if let Some(f) = svg {
        wrote.push(f);
        reply = reply.with(Effect::Write { path: f.into(), contents: picture.clone() });
    }
    if let Some(f) = png {
        let bytes = crate::diagram::png(&picture, crate::diagram::PNG_SCALE).map_err(|e| CommandError::Rejected(e.to_string()))?;
        wrote.push(f);
        reply = reply.with(Effect::WriteBytes { path: f.into(), bytes });
    }
    reply.text = format!("wrote {}\n", wrote.join(" and "));
    Ok(reply)
}

fn board(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    s.show_board = rest != "off";
    text(format!("board display {}\n", if s.show_board { "on" } else { "off" }))
}

fn trace(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    s.trace = match rest {
        "on" | "" => true,
        "off" => false,
        _ => return Err(c.usage_error()),
    };
    text(format!("trace {}\n", if s.trace { "on" } else { "off" }))
}

fn position(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    match rest.trim() {
        "" => text(format!("{}\n", s.pos.to_text(&s.variant.rules))),
        "fen" => text(format!("{}\n", crate::fen::write(&s.variant.rules, &s.pos)?)),
        _ => Err(c.usage_error()),
    }
}

fn setup(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let p = Position::from_text(&s.variant.rules, rest)?;
    let note = s.keep_line("set up a position");
    s.restart(p);
    text(format!("{note}{}", s.board()))
}

fn place(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let (cell, piece) = rest.split_once(char::is_whitespace).ok_or_else(|| c.usage_error())?;
    let cell = s.cell(cell)?;
    // Attribute values in brackets, as in a position text: `P[3]`, `white stack[2,1]`.
    let piece = piece.trim();
    let (piece, values) = match piece.split_once('[') {
        Some((p, v)) => {
            let v = v.strip_suffix(']').ok_or_else(|| CommandError::Rejected(format!("`[{v}` has no closing `]`")))?;
            (p.trim(), Some(v))
        }
        None => (piece, None),
    };
    let code = s.piece_code(piece)?;
    let r = s.variant.rules.clone();
    let slots = &r.kind(code.kind()).attributes;
    let mut vals = vec![0i32; r.nattr()];
    for &(slot, v) in slots {
        vals[slot as usize] = v;
    }
    if let Some(text) = values {
        let given: Vec<&str> = text.split(',').map(str::trim).filter(|x| !x.is_empty()).collect();
        if given.len() != slots.len() {
            let names: Vec<&str> = slots.iter().map(|&(slot, _)| r.attributes[slot as usize].as_str()).collect();
            return Err(CommandError::Rejected(format!(
                "a {} has {} attribute{} ({}); {} given",
                r.kind(code.kind()).name,
                slots.len(),
                if slots.len() == 1 { "" } else { "s" },
                names.join(", "),
                given.len()
            )));
        }
        for (&(slot, _), v) in slots.iter().zip(given) {
            vals[slot as usize] = v.parse::<i32>().map_err(|_| CommandError::Rejected(format!("`{v}` is not an integer")))?;
        }
    }
    let shown: Vec<String> = slots.iter().map(|&(slot, _)| format!("{} {}", r.attributes[slot as usize], vals[slot as usize])).collect();
    let with = if shown.is_empty() { String::new() } else { format!(" ({})", shown.join(", ")) };
    let what = format!("put {}{with} on {}", r.symbol(code), r.geometry.name(crate::geometry::Cell(cell)));
    text(s.edit(&what, |p, r| p.put(&r.zobrist, cell, code, &vals))?)
}

fn remove(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let cell = s.cell(rest)?;
    if s.pos.board()[cell as usize].is_empty() {
        return Err(CommandError::Rejected(format!("{rest} is already empty")));
    }
    let what = format!("emptied {}", s.variant.rules.geometry.name(crate::geometry::Cell(cell)));
    text(s.edit(&what, |p, r| p.clear_cell(&r.zobrist, cell))?)
}

fn clear(s: &mut Session, _: &Command, _: &str) -> Result<Reply, CommandError> {
    text(s.edit("emptied the board", |p, r| {
        for c in 0..p.board().len() as u16 {
            p.clear_cell(&r.zobrist, c);
        }
    })?)
}

fn turn(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let player = s.variant.rules.parse_player(rest).ok_or_else(|| CommandError::Usage(format!("usage: turn {}", s.player_list())))?;
    let what = format!("{} to move", s.variant.rules.player_name(player));
    text(s.edit(&what, |p, r| p.set_side(&r.zobrist, player))?)
}

fn options(s: &mut Session, _: &Command, _: &str) -> Result<Reply, CommandError> {
    let o = &s.variant.rules.options;
    let mut out = String::new();
    for d in &o.decls {
        let cur = o.get(&d.name).map(|v| v.to_string()).unwrap_or_default();
        out.push_str(&format!("{} = {cur}   (allowed: {}; default {})\n", d.name, d.ty.describe(), d.default));
        if !d.description.is_empty() {
            out.push_str(&format!("    {}\n", d.description));
        }
    }
    text(out)
}

fn set(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let (name, value) = rest.split_once(char::is_whitespace).or_else(|| rest.split_once('=')).ok_or_else(|| c.usage_error())?;
    // (The load's diagnostic would quote a long unknown name whole, wrapped over many lines.)
    if name.trim().chars().nth(crate::files::QUOTED_CHARS).is_some() && s.variant.rules.options.decls.iter().all(|d| d.name != name.trim())
    {
        return Err(CommandError::Rejected(format!("`{}` is not an option (`options` lists them)", crate::files::quote(name.trim()))));
    }
    let mut sets: Vec<(String, String)> = s.variant.overrides.iter().filter(|(n, _)| n != name.trim()).cloned().collect();
    sets.push((name.trim().to_string(), value.trim().to_string()));
    let v = s.variant.with_options(&sets).map_err(|e| CommandError::Load(e.render(s.style.color)))?;
    let msg = s.replay_under(v, &format!("set {} {}", name.trim(), value.trim()))?;
    text(format!("{name} = {}\n{msg}", value.trim()))
}

fn reload(s: &mut Session, _: &Command, _: &str) -> Result<Reply, CommandError> {
    let v = Variant::load(&s.variant.spec, &s.variant.overrides)
        .map_err(|e| CommandError::Load(format!("{}\nthe old rules stay in force", e.render(s.style.color))))?;
    let msg = s.replay_under(v, "reload")?;
    text(format!("reloaded {}\n{msg}", s.variant.spec))
}

fn variant(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    if rest.is_empty() {
        let mut names: Vec<String> = crate::variant::all_variants().into_iter().map(|(n, _, _)| n).collect();
        names.dedup();
        return Err(CommandError::Usage(format!("usage: variant NAME (found: {})", names.join(", "))));
    }
    let v = Variant::load(rest, &[]).map_err(|e| match rest.chars().nth(crate::files::QUOTED_CHARS) {
        // (The diagnostic would quote a long name that finds nothing whole, over many lines.)
        Some(_) if !std::path::Path::new(rest).exists() => {
            CommandError::Rejected(format!("no variant is named `{}` (`boardlab list` lists them)", crate::files::quote(rest)))
        }
        _ => CommandError::Load(e.render(s.style.color)),
    })?;
    let note = s.keep_line(&format!("switched to {}", v.name()));
    s.variant = std::sync::Arc::new(v);
    s.restart(s.variant.start());
    text(format!("{note}{}", s.board()))
}

fn rules(s: &mut Session, _: &Command, _: &str) -> Result<Reply, CommandError> {
    text(render::resolved(&s.variant))
}

fn save(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let (file, force) = match rest.strip_suffix("--force") {
        Some(f) => (f.trim(), true),
        None => (rest, false),
    };
    if file.is_empty() {
        return Err(c.usage_error());
    }
    // Never overwrite what is not a game record (a variant file, say) unless told to.
    let path = std::path::Path::new(file);
    let format = Format::of(path);
    let is_record = |p: &std::path::Path| match format {
        Format::Record => Record::load(p).is_ok(),
        // A PGN or PDN file is replaced whole: one that holds games is a record too.
        _ => crate::files::read_to_string_limited(p, crate::record::MAX_RECORD_BYTES)
            .is_ok_and(|t| crate::records::pgn::parse(&t).is_ok_and(|g| !g.is_empty())),
    };
    if !force && path.exists() && !is_record(path) {
        let msg = format!("{file} exists and is not a boardlab game record; `save {file} --force` overwrites it");
        return Err(CommandError::Rejected(msg));
    }
    let contents = match format {
        Format::Record => s.record().to_text(),
        _ => s.export(format).map_err(|e| CommandError::Rejected(e.to_string()))?,
    };
    let write = Effect::Write { path: file.into(), contents };
    Ok(Reply::text(format!("saved {} moves to {file}\n", s.played.len())).with(write))
}

fn load(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    if rest.is_empty() {
        return Err(c.usage_error());
    }
    let rec = match Format::of(std::path::Path::new(rest)) {
        Format::Record => Record::load(std::path::Path::new(rest))?,
        f => crate::records::convert::load_first(std::path::Path::new(rest), f).map_err(|e| CommandError::Rejected(e.to_string()))?,
    };
    let mut loaded = Session::from_record(&rec, s.style)?;
    let note = s.keep_line(&format!("loaded {rest}"));
    s.put_line(loaded.take_line(String::new()));
    text(format!("{note}loaded {rest}: {} moves of {}\n{}", s.played.len(), s.variant.name(), s.board()))
}

fn seed(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let n: u64 = rest.parse().map_err(|_| c.usage_error())?;
    s.seed = n;
    s.rng = ai::rng(n);
    text(format!("seed {n}\n"))
}

/// `ai`: the shell reports how long the command took after the head line ([`Effect::Timed`]).
fn ai(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let engine = if rest.is_empty() { Engine::DEFAULT } else { Engine::parse(rest)? };
    if s.pos.result().is_some() {
        return Err(CommandError::Rejected(format!("the game is over ({})", render::status(&s.variant, &s.pos))));
    }
    s.report(&format!("{engine} is thinking (Ctrl-C stops)"));
    let thought = ai::think(&s.variant, &s.pos, engine, &mut s.rng)?;
    let Some(m) = thought.best else { return Err(CommandError::Rejected("no move to make".into())) };
    let head = format!("{engine} plays {}", m.text(&s.variant.rules.geometry));
    let head = match &thought.search {
        Some(r) => format!("{head}: {}", ai::analysis::summary(r)),
        None => head,
    };
    Ok(Reply::text(s.play_move(m)?).with(Effect::Timed { head }))
}

fn eval(s: &mut Session, _: &Command, _: &str) -> Result<Reply, CommandError> {
    text(ai::analysis::eval_text(&s.variant, &s.pos)?)
}

/// `hint`: what `ai` would play, without playing it.
fn hint(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let engine = if rest.is_empty() { Engine::DEFAULT } else { engine_or_budget(rest)? };
    if s.pos.result().is_some() {
        return Err(CommandError::Rejected(format!("the game is over ({})", render::status(&s.variant, &s.pos))));
    }
    s.report(&format!("{engine} is thinking (Ctrl-C stops)"));
    // A copy of the generator: a hint does not draw from it, so hints in a row agree and
    // `ai` then plays the move hinted.
    let t = ai::think(&s.variant, &s.pos, engine, &mut s.rng.clone())?;
    let Some(m) = t.best else { return Err(CommandError::Rejected("no move to make".into())) };
    let g = &s.variant.rules.geometry;
    let head = match &t.search {
        Some(r) => {
            let line: Vec<String> = r.pv.iter().take(10).map(|m| m.text(g)).collect();
            format!("{engine} suggests {} ({}); expected line: {}", m.text(g), ai::analysis::summary(r), line.join(" "))
        }
        None => format!("{engine} suggests {}", m.text(g)),
    };
    Ok(Reply::default().with(Effect::Timed { head }))
}

/// `solve [--memory MIB] [--nodes N] [--horizon PLIES]`.
fn solve(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let mut limits = crate::solve::Limits::default();
    let words: Vec<&str> = rest.split_whitespace().collect();
    for pair in words.chunks(2) {
        let n =
            |max: u64| pair.get(1).and_then(|x| x.parse::<u64>().ok()).filter(|&n| (1..=max).contains(&n)).ok_or_else(|| c.usage_error());
        match pair[0] {
            "--memory" => limits.memory = (n(65_536)? as usize) << 20,
            "--nodes" => limits.nodes = n(1_000_000_000_000)?,
            "--horizon" => limits.horizon = n(crate::solve::MAX_HORIZON as u64)? as u32,
            _ => return Err(c.usage_error()),
        }
    }
    s.report("solving (Ctrl-C stops)");
    let solution = crate::solve::solve(&s.variant, &s.pos, limits, crate::progress::report)?;
    text(solution.text(&s.variant, &s.pos))
}

/// `analyse [BUDGET] [LINES]`.
fn analyse(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let mut budget = ai::DEFAULT_BUDGET;
    let mut lines = 3;
    let words: Vec<&str> = rest.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        match w.parse::<usize>() {
            // A bare number after a budget, or a small one alone, is a count of lines.
            Ok(n) if i > 0 || n <= ai::analysis::MAX_LINES => lines = n.clamp(1, ai::analysis::MAX_LINES),
            _ => match engine_or_budget(w)? {
                Engine::AlphaBeta(b) => budget = b,
                e => {
                    return Err(CommandError::Usage(format!(
                        "`{e}` does not score moves; analyse needs alpha-beta: ab, ab:d6, ab:200000, ab:2s ({})",
                        c.usage
                    )));
                }
            },
        }
    }
    if s.pos.result().is_some() {
        return Err(CommandError::Rejected(format!("the game is over ({})", render::status(&s.variant, &s.pos))));
    }
    s.report(&format!("analysing {lines} lines with {} (Ctrl-C stops)", Engine::AlphaBeta(budget)));
    // As `hint`: a copy of the generator, so the first line is the move `ai` would play.
    let a = ai::analysis::analyse(&s.variant, &s.pos, budget, lines, &mut s.rng.clone())?;
    // The shell adds the time after the head line (the text itself is reproducible).
    Ok(Reply::text(a.body(&s.variant)).with(Effect::Timed { head: a.head(&s.variant, &s.pos) }))
}

/// An engine, or an alpha-beta budget alone (`d6`, `20000`, `2s` mean `ab:d6`…).
fn engine_or_budget(w: &str) -> Result<Engine, CommandError> {
    Engine::parse(w).or_else(|e| Engine::parse(&format!("ab:{w}")).map_err(|_| e)).map_err(Into::into)
}

fn machine_side(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let side = words.first().copied().unwrap_or("");
    let mut engine = Engine::DEFAULT;
    for (i, w) in words.iter().enumerate().skip(1) {
        if w.starts_with("uci:") || w.starts_with("usi:") {
            // An external engine's command runs to the end of the line (it may have arguments).
            engine = Engine::parse(&words[i..].join(" "))?;
            break;
        }
        match w.parse::<u32>() {
            Ok(n) if n > 0 => s.machine_limit = n,
            Ok(_) => return Err(CommandError::Usage("the move limit is a positive number".into())),
            Err(_) => engine = Engine::parse(w)?,
        }
    }
    let msg = match side {
        "none" => {
            s.machine = [None, None];
            "the machine plays no side\n".to_string()
        }
        "both" => {
            s.machine = [Some(engine), Some(engine)];
            format!("the machine plays both sides ({engine}; at most {} moves per command, Ctrl-C stops)\n", s.machine_limit)
        }
        _ => {
            let usage = || CommandError::Usage(format!("usage: play {}|none|both [ENGINE] [LIMIT]", s.player_list()));
            let p = s.variant.rules.parse_player(side).ok_or_else(usage)?;
            s.machine[p.index()] = Some(engine);
            format!("the machine plays {side} ({engine})\n")
        }
    };
    let replies = s.machine_replies()?;
    text(if replies.is_empty() { msg } else { format!("{msg}{replies}{}", s.board_or_status()) })
}

fn auto(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let mut n = 1u64;
    let mut engine = Engine::DEFAULT;
    for w in rest.split_whitespace() {
        match w.parse::<u64>() {
            Ok(k) => n = k,
            Err(_) => engine = Engine::parse(w)?,
        }
    }
    let mut out = String::new();
    let mut made = 0;
    for _ in 0..n {
        if s.pos.result().is_some() {
            break;
        }
        // A side the machine plays keeps its own engine.
        let e = s.machine[s.pos.side().index()].unwrap_or(engine);
        let (m, found) = match ai::think(&s.variant, &s.pos, e, &mut s.rng) {
            Ok(ai::Thought { best: Some(m), search }) => (m, search),
            Ok(_) => break,
            // Ctrl-C keeps the moves made; the one being searched is not made.
            Err(ai::SearchError::Interrupted(_)) if made > 0 => {
                out.push_str("interrupted (Ctrl-C); the moves made are kept\n");
                break;
            }
            Err(e) => return Err(e.into()),
        };
        out.push_str(&s.new_line_note());
        let who = s.variant.rules.player_name(s.pos.side()).to_string();
        let found = found.map(|r| format!(" ({})", ai::analysis::summary(&r))).unwrap_or_default();
        out.push_str(&format!("{who} ({e}) plays {}{found}\n", m.text(&s.variant.rules.geometry)));
        out.push_str(&s.make_one(m)?);
        made += 1;
        s.report(&format!("ply {}: {made} of {n} moves (Ctrl-C stops, keeping them)", s.pos.ply()));
    }
    out.push_str(&format!("{made} moves played ({engine})\n"));
    out.push_str(&s.board_or_status());
    text(out)
}

fn selfplay(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let args: Vec<String> = rest.split_whitespace().map(String::from).collect();
    let cfg = crate::selfplay::Config::from_repl_args(&args, s.seed)?;
    let (mut done, start) = (0, std::time::Instant::now());
    s.report(&format!("selfplay: 0 of {} games (Ctrl-C stops; the report covers the games finished)", cfg.games));
    // The count of games alone: the searches of each game stay quiet.
    let mut line = crate::progress::detach();
    let report = crate::selfplay::run_variant(&s.variant, &cfg, &mut || {
        done += 1;
        if line.active() {
            let rate = done as f64 / start.elapsed().as_secs_f64().max(0.001);
            line.report(&format!(
                "selfplay: {done} of {} games, {rate:.1} games/s (Ctrl-C stops; the report covers the games finished)",
                cfg.games
            ));
        }
    });
    drop(line);
    text(report?.text())
}

fn snapshot(s: &mut Session, _: &Command, rest: &str) -> Result<Reply, CommandError> {
    let files = crate::workflow::record_scenario(&s.variant, &s.start, &s.played, rest)?;
    let names: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
    let mut reply = Reply::text(format!("wrote {}\n", names.join(" and ")));
    for (path, contents) in files {
        reply = reply.with(Effect::Write { path, contents });
    }
    Ok(reply)
}

fn perft(s: &mut Session, c: &Command, rest: &str) -> Result<Reply, CommandError> {
    let mut it = rest.split_whitespace();
    let n: u32 = it.next().and_then(|x| x.parse().ok()).ok_or_else(|| c.usage_error())?;
    let n = perft::check_depth(n).map_err(|e| CommandError::Rejected(e.to_string()))?;
    let divide = it.next() == Some("--divide");
    let mut p = s.pos.clone();
    if !divide {
        // (One thread: the root moves are shared out only so the progress line can count them.)
        return text(format!("{}\n", perft::perft_threads(&s.variant, &p, n, perft::Mode::default(), 1)?));
    }
    let rows = perft::divide(&s.variant, &mut p, n)?;
    let total: u64 = rows.iter().map(|r| r.1).sum();
    let mut out: String = rows.iter().map(|(m, c)| format!("{m}: {c}\n")).collect();
    out.push_str(&format!("{total}\n"));
    text(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique_and_found() {
        let mut all: Vec<&str> = COMMANDS.iter().flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied())).collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a name or alias is used twice");
        for c in COMMANDS.iter().filter(|c| c.name != MOVE) {
            assert!(std::ptr::eq(find(c.name).unwrap(), c));
            for a in c.aliases {
                assert!(std::ptr::eq(find(a).unwrap(), c), "{a}");
            }
        }
        assert!(find(MOVE).is_none(), "the placeholder is not a command");
        assert_eq!(find("undo").unwrap().usage_error().to_string(), "usage: undo [N]");
    }
}
