//! The interactive shell: rustyline over a [`Session`]. When standard input is not a terminal,
//! lines are read without a prompt and the first failing command exits with status 1.

use crate::render::Style;
use crate::session::{Flow, Session};
use rustyline::error::ReadlineError;
use std::io::IsTerminal;

/// Runs the REPL on a variant.
///
/// # Errors
/// The variant does not load, or a command failed in non-interactive use.
pub fn run(variant: &str, sets: &[(String, String)]) -> Result<(), String> {
    let interactive = std::io::stdin().is_terminal();
    let color = interactive && std::env::var_os("NO_COLOR").is_none();
    let mut s = Session::new(variant, sets, Style { color })?;
    if !interactive {
        let stdin = std::io::stdin();
        let mut line = String::new();
        loop {
            line.clear();
            if std::io::BufRead::read_line(&mut stdin.lock(), &mut line).map_err(|e| e.to_string())? == 0 {
                return Ok(());
            }
            match s.execute(&line) {
                Ok((out, Flow::Continue)) => print!("{out}"),
                Ok((out, Flow::Quit)) => {
                    print!("{out}");
                    return Ok(());
                }
                Err(e) => return Err(format!("{}: {e}", line.trim())),
            }
        }
    }
    println!("boardlab — {} ({}). Type help for the commands, a move to play it.", s.variant.rules.title, s.variant.name());
    print!("{}", s.board());
    let mut rl = rustyline::DefaultEditor::new().map_err(|e| e.to_string())?;
    loop {
        match rl.readline(&s.prompt()) {
            Ok(line) => {
                let _ = rl.add_history_entry(line.as_str());
                match s.execute(&line) {
                    Ok((out, Flow::Continue)) => print!("{out}"),
                    Ok((_, Flow::Quit)) => return Ok(()),
                    Err(e) => eprintln!("{e}"),
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => return Ok(()),
            Err(e) => return Err(e.to_string()),
        }
    }
}
