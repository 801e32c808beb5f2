//! The interactive shell: rustyline over a [`Session`]. When standard input is not a terminal,
//! lines are read without a prompt and the first failing command exits with status 1.
//!
//! The shell adds only what needs a terminal or the disk: tab completion (commands, legal moves,
//! variant and option names and values, file names), line history kept in the data directory,
//! and the autosave written when the shell closes (`boardlab play --resume` continues it).

use crate::record::{self, Record};
use crate::render::Style;
use crate::session::{COMMANDS, Flow, Session};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{Context, Editor, Helper, Highlighter, Hinter, Validator};
use std::cell::RefCell;
use std::io::IsTerminal;
use std::rc::Rc;

/// What completion offers, refreshed after every command.
#[derive(Default)]
struct Words {
    moves: Vec<String>,
    options: Vec<(String, Vec<String>)>,
    players: Vec<String>,
    variants: Vec<String>,
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
        let list: Vec<String> = match before.as_slice() {
            [] => COMMANDS.iter().filter(|c| c.0 != "MOVE").map(|c| c.0.to_string()).chain(w.moves.iter().cloned()).collect(),
            ["save" | "load", ..] => return self.files.complete(line, pos, ctx),
            ["variant"] => w.variants.clone(),
            ["set"] => w.options.iter().map(|o| o.0.clone()).collect(),
            ["set", name] => w.options.iter().find(|o| o.0 == *name).map(|o| o.1.clone()).unwrap_or_default(),
            ["why"] => w.moves.clone(),
            ["help"] => COMMANDS.iter().map(|c| c.0.to_string()).collect(),
            ["board" | "trace"] => vec!["on".into(), "off".into()],
            ["turn"] => w.players.clone(),
            ["play"] => w.players.iter().cloned().chain(["none".to_string(), "both".to_string()]).collect(),
            ["ai"] => vec!["random".into(), "mcts".into()],
            _ => vec![],
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
                crate::rules::OptionType::Bool => vec!["true".into(), "false".into()],
                crate::rules::OptionType::Int { .. } => vec![d.default.to_string()],
            };
            (d.name.clone(), vals)
        })
        .collect();
    w.players = s.player_list().split('|').map(String::from).collect();
}

/// Writes the autosave; problems are reported, never fatal.
fn autosave(s: &Session) {
    if let Some(p) = record::autosave_path()
        && let Err(e) = s.record().save(&p)
    {
        eprintln!("could not autosave: {e}");
    }
}

/// Runs the REPL on a variant (or, with `resume`, on the autosaved game).
///
/// # Errors
/// The variant does not load, or a command failed in non-interactive use.
pub fn run(variant: &str, sets: &[(String, String)], resume: bool) -> Result<(), String> {
    let interactive = std::io::stdin().is_terminal();
    let color = interactive && std::env::var_os("NO_COLOR").is_none();
    let style = Style { color };
    let mut s = if resume {
        let p = record::autosave_path().ok_or("no data directory (set BOARDLAB_DATA_DIR)")?;
        let rec = Record::load(&p).map_err(|e| format!("nothing to resume: {e}"))?;
        Session::from_record(&rec, style)?
    } else {
        Session::new(variant, sets, style)?
    };
    if !interactive {
        let stdin = std::io::stdin();
        let mut line = String::new();
        loop {
            line.clear();
            if std::io::BufRead::read_line(&mut stdin.lock(), &mut line).map_err(|e| e.to_string())? == 0 {
                autosave(&s);
                return Ok(());
            }
            match s.execute(&line) {
                Ok((out, Flow::Continue)) => print!("{out}"),
                Ok((out, Flow::Quit)) => {
                    print!("{out}");
                    autosave(&s);
                    return Ok(());
                }
                Err(e) => {
                    autosave(&s);
                    return Err(format!("{}: {e}", line.trim()));
                }
            }
        }
    }
    println!(
        "boardlab — {} ({}). Type help for the commands, a move to play it, Tab to complete.",
        s.variant.rules.title,
        s.variant.name()
    );
    if resume {
        println!("resumed the autosaved game ({} moves)", s.played.len());
    }
    print!("{}", s.board());
    let words = Rc::new(RefCell::new(Words { variants: crate::variant::shipped_names(), ..Words::default() }));
    refresh(&words, &mut s);
    let config = rustyline::Config::builder().completion_type(rustyline::CompletionType::List).auto_add_history(false).build();
    let mut rl: Editor<Shell, DefaultHistory> = Editor::with_config(config).map_err(|e| e.to_string())?;
    rl.set_helper(Some(Shell { words: words.clone(), files: FilenameCompleter::new() }));
    let history = record::data_dir().map(|d| d.join("history.txt"));
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    let result = loop {
        let prompt = s.prompt();
        let shown = if color { (prompt.clone(), format!("\x1b[1;36m{}\x1b[0m", prompt)) } else { (prompt.clone(), prompt.clone()) };
        match rl.readline(&(shown.0.as_str(), shown.1.as_str())) {
            Ok(line) => {
                let _ = rl.add_history_entry(line.as_str());
                match s.execute(&line) {
                    Ok((out, Flow::Continue)) => print!("{out}"),
                    Ok((_, Flow::Quit)) => break Ok(()),
                    Err(e) => eprintln!("{}", if color { format!("\x1b[31m{e}\x1b[0m") } else { e }),
                }
                refresh(&words, &mut s);
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break Ok(()),
            Err(e) => break Err(e.to_string()),
        }
    };
    autosave(&s);
    if let Some(h) = &history {
        if let Some(d) = h.parent() {
            let _ = std::fs::create_dir_all(d);
        }
        let _ = rl.save_history(h);
    }
    result
}
