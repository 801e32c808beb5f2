//! Autosaves that keep games, on the real binary: one-line sessions leave nothing, pruning
//! spares games in progress and live sessions, `--resume` takes the latest by the time inside
//! the record and brings back the machine players; a full disk at `quit` fails loudly; piped
//! input is saved once per batch, quoted short in errors, and a byte-order mark is dropped.

use crate::crash::{repl, scripted_game};
use boardlab::Record;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// Runs `boardlab ARGS` with `input`; panics with its standard error when it fails.
fn run(args: &[&str], input: &str, data: &Path) -> String {
    let o = crate::binary(args, input, data);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// The autosave files (`.toml`) in a data folder.
fn autosaves(data: &Path) -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir(data.join("autosaves")) else { return vec![] };
    dir.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect()
}

/// A session that wins a game of tic-tac-toe: finished, so pruning may remove it.
const FINISHED: &str = "@a1\n@b1\n@a2\n@b2\n@a3\n";

#[test]
fn twenty_five_one_line_sessions_keep_an_earlier_game() {
    let data = crate::scratch("autosaves-25");
    run(&["play", "checkers"], "c3-d4\nf6-e5\n", &data);
    for _ in 0..25 {
        run(&["play", "lielow"], "moves\n", &data);
    }
    assert_eq!(autosaves(&data).len(), 1, "a session that made no move leaves no autosave");
    let out = run(&["play", "--resume"], "history\n", &data);
    assert!(out.contains("  1. 11-15 22-18"), "{out}"); // c3-d4 f6-e5, numbered
    // 25 finished games: the oldest beyond the newest 20 go (and say so); the game in progress
    // stays, though it is older than all of them.
    let mut said = String::new();
    for _ in 0..25 {
        let o = crate::binary(&["play", "tic-tac-toe"], FINISHED, &data);
        assert!(o.status.success());
        said.push_str(&String::from_utf8_lossy(&o.stderr));
    }
    assert!(said.contains("removed 1 old autosave of finished or empty games"), "{said}");
    assert_eq!(said.lines().count(), 5, "one line for each session that pruned: {said}");
    assert_eq!(autosaves(&data).len(), 21);
    let list = run(&["play", "--resume", "list"], "", &data);
    let line = list.lines().find(|l| l.contains("checkers, 2 moves")).unwrap_or_else(|| panic!("{list}"));
    let n = line.trim_start().split('.').next().unwrap();
    assert_eq!(n, "21", "the oldest: {list}");
    let out = run(&["play", "--resume", n], "history\n", &data);
    assert!(out.contains("  1. 11-15 22-18"), "{out}"); // c3-d4 f6-e5, numbered
}

/// Reads the REPL's output until a line containing `what`.
fn wait_for(out: &mut impl BufRead, what: &str) {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the REPL stopped before `{what}`");
        if line.contains(what) {
            return;
        }
    }
}

#[test]
fn a_live_sessions_autosave_is_not_pruned() {
    let data = crate::scratch("autosaves-live");
    // A live session with a finished game (which pruning could otherwise remove).
    let mut live = repl(&["play", "tic-tac-toe"], &data);
    let mut input = live.stdin.take().unwrap();
    let mut output = BufReader::new(live.stdout.take().unwrap());
    write!(input, "{FINISHED}").unwrap();
    input.flush().unwrap();
    wait_for(&mut output, "three in a row");
    let mine = autosaves(&data);
    assert_eq!(mine.len(), 1);
    for _ in 0..25 {
        run(&["play", "tic-tac-toe"], FINISHED, &data);
    }
    assert!(mine[0].exists(), "the live session's autosave is kept");
    assert_eq!(autosaves(&data).len(), 21);
    assert!(run(&["play", "--resume", "list"], "", &data).contains("open in a running session"));
    // Nor can another session resume it while it runs.
    let n = autosaves(&data).len().to_string();
    let o = crate::binary(&["play", "--resume", &n], "", &data);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("open in another boardlab session"), "{}", String::from_utf8_lossy(&o.stderr));
    // Once it has left, it is a finished game like the others, and goes.
    writeln!(input, "quit").unwrap();
    assert!(live.wait().unwrap().success());
    run(&["play", "tic-tac-toe"], FINISHED, &data);
    assert!(!mine[0].exists());
}

#[test]
fn resume_takes_the_latest_by_the_time_inside_the_record() {
    let data = crate::scratch("autosaves-order");
    run(&["play", "checkers"], "c3-d4\n", &data);
    let older = autosaves(&data).pop().unwrap();
    run(&["play", "checkers"], "a3-b4\n", &data);
    // A copy of the older game under a name that sorts last, written last.
    std::fs::copy(&older, data.join("autosaves/zzz.toml")).unwrap();
    let out = run(&["play", "--resume"], "history\n", &data);
    assert!(out.contains("1. 12-16"), "{out}"); // a3-b4, numbered
    let list = run(&["play", "--resume", "list"], "", &data);
    assert!(list.lines().next().is_some_and(|l| !l.contains("zzz")), "{list}");
}

#[test]
fn a_resumed_game_keeps_the_machine_players() {
    let data = crate::scratch("autosaves-machine");
    let out = run(&["play", "checkers"], "board off\nseed 5\nplay black ab:d2 7\nc3-d4\n", &data);
    assert!(out.contains("black (ab:d2) plays"), "{out}");
    let text = std::fs::read_to_string(autosaves(&data).pop().unwrap()).unwrap();
    assert!(text.contains("[machine]\nlimit = 7\nseed = 5\n\n[machine.plays]\nblack = \"ab:d2\""), "{text}");
    // Resumed: the machine still answers black's moves.
    let legal = run(&["moves", "checkers", "--moves", &Record::parse(&text).unwrap().moves.join(" ")], "", &data);
    let next = legal.lines().next().unwrap();
    let out = run(&["play", "--resume"], &format!("board off\n{next}\nhistory\n"), &data);
    assert!(out.contains("black (ab:d2) plays"), "{out}");
    assert!(out.contains("  2. "), "four plies: {out}");
}

#[test]
fn quit_when_the_game_cannot_be_saved_fails_naming_the_file() {
    let data = crate::scratch("autosaves-full");
    let game = scripted_game(3);
    run(&["play", "checkers"], &format!("{}\n", game[0]), &data);
    let file = autosaves(&data).pop().unwrap();
    let mut child = repl(&["play", "--resume"], &data);
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    writeln!(input, "board off\n{}", game[1]).unwrap();
    input.flush().unwrap();
    wait_for(&mut output, "to move");
    // The disk fills up: the autosave now leads to /dev/full (every write: ENOSPC).
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink("/dev/full", &file).unwrap();
    writeln!(input, "{}\nquit", game[2]).unwrap();
    drop(input);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("could not autosave the game to {}", file.display())) && err.contains("No space left on device"),
        "{err}"
    );
    assert!(std::fs::symlink_metadata(&file).unwrap().file_type().is_symlink(), "/dev/full is left alone");
}

#[test]
fn a_byte_order_mark_before_the_first_line_is_dropped() {
    let data = crate::scratch("autosaves-bom");
    let out = run(&["play", "checkers"], "\u{feff}c3-d4\nhistory\n", &data);
    assert!(out.contains("  1. 11-15"), "{out}"); // c3-d4, numbered
    // Elsewhere it is an error that shows it, not an invisible character.
    let o = crate::binary(&["play", "checkers"], "c3-d4\n\u{feff}history\n", &data);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("unknown command `\\u{feff}history`") && !err.contains('\u{feff}'), "{err}");
}

#[test]
fn long_input_is_refused_and_quoted_short() {
    let data = crate::scratch("autosaves-long");
    // (Long, but under the line limit of 64 KiB.)
    let long_move = format!("c3-{}", "d4".repeat(20_000));
    let long_word = "x".repeat(40_000);
    for line in
        [long_move.clone(), format!("setup {long_word}"), format!("{long_word}x"), format!("ai {long_word}"), format!("save {long_word}/f")]
    {
        let o = crate::binary(&["play", "checkers"], &format!("{line}\n"), &data);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.len() < 400, "{} bytes of error for {} bytes of input: {}", err.len(), line.len(), &err[..err.len().min(400)]);
        assert!(err.contains("… (40"), "the length is given: {err}");
    }
    // A line past the limit is refused whole, the limit in the message (and the rest of the
    // input is left unread: the writer's broken pipe is expected).
    let mut child = repl(&["play", "checkers"], &data);
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(format!("c3-d4\nsetup {}\n", "x".repeat(1 << 20)).as_bytes());
    });
    let o = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("line 2 of the input: a line longer than 64 KiB"), "{err}");
    assert!(err.len() < 200, "{err}");
}

#[test]
fn a_piped_replay_saves_once_not_once_a_move() {
    let data = crate::scratch("autosaves-batch");
    let game = scripted_game(60);
    run(&["play", "checkers"], &format!("{}\n", game[0]), &data);
    let file = autosaves(&data).pop().unwrap();
    let mut child = repl(&["play", "--resume"], &data);
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    writeln!(input, "board off").unwrap();
    input.flush().unwrap();
    wait_for(&mut output, "board display off");
    // Each save now goes through a FIFO; a reader counts them (one open and close each).
    let fifo = data.join("saves.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&fifo, &file).unwrap();
    let counter = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut saves = vec![];
            loop {
                let text = std::fs::read_to_string(&fifo).unwrap();
                // The test's "end" may open the FIFO before this read has seen the last
                // save's end of file: then both arrive as one text (a save ends with a newline).
                if let Some(save) = text.strip_suffix("end") {
                    if !save.is_empty() {
                        saves.push(save.to_string());
                    }
                    return saves;
                }
                saves.push(text);
            }
        })
    };
    // 59 moves arrive at once (one write, well under a pipe's buffer).
    input.write_all(game[1..].iter().map(|m| format!("{m}\n")).collect::<String>().as_bytes()).unwrap();
    drop(input);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut output, &mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(rest.lines().count(), 59, "every move answered: {rest}");
    std::fs::write(&fifo, "end").unwrap();
    let saves = counter.join().unwrap();
    assert_eq!(saves.len(), 1, "{} saves", saves.len());
    assert_eq!(Record::parse(&saves[0]).unwrap().moves, game, "the one save holds every move");
}
