//! Never losing work, tested on the real binary: kill -9 at many points of a game, SIGTERM and
//! SIGHUP, Ctrl-C during long commands, closed pipes, self-play killed and resumed.

use boardlab::{Record, Session, Style, Variant};
use rand::{RngExt, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A legal game of `n` plies of checkers (random moves, seed fixed), as move texts.
pub fn scripted_game(n: usize) -> Vec<String> {
    let v = Variant::load("checkers", &[]).unwrap();
    let mut pos = v.start();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        v.legal_moves(&mut pos, &mut moves).unwrap();
        assert!(!moves.is_empty(), "the scripted game ended early; pick another seed");
        let m = moves[rng.random_range(0..moves.len())];
        out.push(m.text(&v.rules.geometry));
        v.make(&mut pos, &m).unwrap();
    }
    out
}

/// The REPL on piped input and output, in its own data folder.
pub fn repl(args: &[&str], data: &std::path::Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .env("BOARDLAB_DATA_DIR", data)
        .env("NO_COLOR", "1")
        .current_dir(crate::root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill").args([&format!("-{name}"), &child.id().to_string()]).status().unwrap();
    assert!(ok.success());
}

/// The moves of the latest autosave, resumed through the binary (`--resume`, then `history`).
fn resumed_moves(data: &std::path::Path) -> Vec<String> {
    let rec = Record::load(&crate::latest_autosave(data)).unwrap();
    // And the binary resumes it: the same game, move for move.
    let o = crate::binary(&["play", "--resume"], "position\n", data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut s = Session::from_record(&rec, Style::PLAIN).unwrap();
    let pos = s.execute("position").unwrap().text;
    assert_eq!(String::from_utf8_lossy(&o.stdout), pos, "the binary resumes the saved position");
    rec.moves
}

#[test]
fn kill_9_at_any_point_keeps_every_acknowledged_move() {
    let game = scripted_game(24);
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(2026);
    for point in 0..20 {
        let data = crate::scratch(&format!("crash-kill-{point}"));
        let mut child = repl(&["play", "checkers"], &data);
        let mut input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        // One line of output per command: `board display off`, then a status line per move.
        writeln!(input, "board off").unwrap();
        output.read_line(&mut line).unwrap();
        let acked = rng.random_range(0..game.len());
        for m in &game[..acked] {
            writeln!(input, "{m}").unwrap();
            line.clear();
            output.read_line(&mut line).unwrap();
            assert!(!line.is_empty(), "the REPL stopped early");
        }
        // Half the time one more move is on its way when the kill comes.
        let in_flight = rng.random_bool(0.5);
        if in_flight {
            writeln!(input, "{}", game[acked]).unwrap();
            input.flush().unwrap();
            std::thread::sleep(Duration::from_micros(rng.random_range(0..3000)));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        if acked == 0 && !data.join("autosaves").exists() {
            continue; // nothing acknowledged, nothing saved: nothing lost
        }
        let moves = resumed_moves(&data);
        let ok = moves == game[..acked] || (in_flight && moves == game[..acked + 1]);
        assert!(ok, "kill point {point}: {acked} moves acknowledged (one more in flight: {in_flight}), resumed {moves:?}");
    }
}

/// Plays `moves` through a piped REPL, waiting for each to be acknowledged; returns the child.
fn play_acknowledged(
    variant: &str,
    moves: &[String],
    data: &std::path::Path,
) -> (Child, std::process::ChildStdin, BufReader<std::process::ChildStdout>) {
    let mut child = repl(&["play", variant], data);
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    writeln!(input, "board off").unwrap();
    output.read_line(&mut line).unwrap();
    for m in moves {
        writeln!(input, "{m}").unwrap();
        line.clear();
        output.read_line(&mut line).unwrap();
    }
    (child, input, output)
}

#[test]
fn sigterm_and_sighup_save_and_leave() {
    let game = scripted_game(6);
    for (sig, code) in [("TERM", 143), ("HUP", 129)] {
        let data = crate::scratch(&format!("crash-{sig}"));
        let (mut child, input, _out) = play_acknowledged("checkers", &game, &data);
        signal(&child, sig);
        let status = child.wait().unwrap();
        drop(input);
        assert_eq!(status.code(), Some(code), "SIG{sig}");
        assert_eq!(resumed_moves(&data), game, "SIG{sig}");
    }
}

#[test]
fn sigterm_during_a_machine_game_keeps_the_moves_it_made() {
    let data = crate::scratch("crash-term-busy");
    let (mut child, mut input, mut output) = play_acknowledged("checkers", &scripted_game(2), &data);
    writeln!(input, "play both mcts:2000 100000").unwrap();
    input.flush().unwrap();
    // Wait until the machine has made a few moves (the progress is not printed on a pipe, so
    // read the autosave written when the command ends... which it does not before the signal):
    // give it time, then terminate.
    std::thread::sleep(Duration::from_millis(1500));
    let t = Instant::now();
    signal(&child, "TERM");
    let status = child.wait().unwrap();
    assert!(t.elapsed() < Duration::from_secs(4), "left within the 3 s it waits for the command");
    assert_eq!(status.code(), Some(143));
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut output, &mut rest);
    let moves = resumed_moves(&data);
    assert!(moves.len() > 2, "the machine's finished moves are saved: {moves:?}");
    assert_eq!(moves[..2], scripted_game(2)[..]);
}

#[test]
fn ctrl_c_interrupts_the_command_not_the_session() {
    let data = crate::scratch("crash-int");
    let mut child = repl(&["play", "checkers"], &data);
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "c3-d4\nposition\nperft 20\n").unwrap();
    input.flush().unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let t = Instant::now();
    signal(&child, "INT");
    writeln!(input, "position\nai mcts:100000000").unwrap();
    input.flush().unwrap();
    std::thread::sleep(Duration::from_millis(800));
    signal(&child, "INT");
    writeln!(input, "f6-e5\nhistory\nquit").unwrap();
    drop(input);
    let o = child.wait_with_output().unwrap();
    assert!(t.elapsed() < Duration::from_secs(10));
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(err.contains("perft 20: interrupted (Ctrl-C); the game is as it was before the command"), "{err}");
    assert!(err.contains("ai mcts:100000000: interrupted"), "{err}");
    // The position before and after the interrupted perft is the same; the session went on.
    let positions: Vec<&str> = out.lines().filter(|l| l.ends_with(" black 1") || l.contains(" black 1 ")).collect();
    assert_eq!(positions.len(), 2, "{out}");
    assert_eq!(positions[0], positions[1]);
    assert!(out.contains("  1. 11-15 22-18"), "{out}"); // c3-d4 f6-e5, numbered
}

#[test]
fn ctrl_c_stops_a_machine_game_keeping_its_moves() {
    let data = crate::scratch("crash-int-both");
    let mut child = repl(&["play", "pyramida"], &data);
    let mut input = child.stdin.take().unwrap();
    // A time budget, so that the game is still going when Ctrl-C comes however fast the machine
    // (mcts:100 could finish a whole Pyramida game in the 1.5 s on an idle machine).
    writeln!(input, "board off\nplay both ab:200ms 100000").unwrap();
    input.flush().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    signal(&child, "INT");
    writeln!(input, "history\nquit").unwrap();
    drop(input);
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let kept = out.lines().find(|l| l.starts_with("interrupted after ")).unwrap_or_else(|| panic!("{out}"));
    let n: usize = kept["interrupted after ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(n > 0, "{out}");
    // The history lists the moves the machine made.
    assert_eq!(out.lines().filter(|l| l.contains(") plays ")).count(), n, "{out}");
    assert_eq!(resumed_moves(&data).len(), n);
}

#[test]
fn play_both_stops_at_its_move_limit() {
    let data = crate::scratch("crash-limit");
    let o = crate::binary(&["play", "bivouac"], "board off\nplay both random 7\nhistory\n", &data);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(out.contains("stopped after 7 machine moves, the limit for one command"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains(") plays ")).count(), 7, "{out}");
}

#[test]
fn a_line_that_is_not_utf8_is_skipped() {
    let data = crate::scratch("crash-utf8");
    let mut child = repl(&["play", "checkers"], &data);
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"c3-d4\n\xff\xfe-d4\nf6-e5\nhistory\n").unwrap();
    drop(input);
    let o = child.wait_with_output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(err.contains("line 2 of the input is not UTF-8 text; skipped"), "{err}");
    assert!(out.contains("  1. 11-15 22-18"), "{out}"); // c3-d4 f6-e5, numbered
}

/// Runs a bash pipeline; its status is that of the pipeline's element `which` (boardlab).
fn shell(script: &str, which: usize, data: &std::path::Path) -> std::process::Output {
    Command::new("bash")
        .args(["-c", &format!("{script}; exit ${{PIPESTATUS[{which}]}}")])
        .env("BOARDLAB_DATA_DIR", data)
        .env("BL", env!("CARGO_BIN_EXE_boardlab"))
        .current_dir(crate::root())
        .output()
        .unwrap()
}

#[test]
fn a_closed_pipe_ends_quietly_and_keeps_the_game() {
    let data = crate::scratch("crash-pipe");
    let o = shell("(printf 'c3-d4\\n'; yes help | head -500) | \"$BL\" play checkers | head -1", 1, &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    assert_eq!(resumed_moves(&data), ["c3-d4"]);
    let o = shell("\"$BL\" selfplay checkers --games 3000 --threads 2 --jsonl /dev/stdout | head -1", 0, &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    let first: boardlab::selfplay::GameRecord = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(first.variant, "checkers");
}

#[test]
fn selfplay_streams_games_and_resumes_a_killed_run() {
    let data = crate::scratch("crash-selfplay");
    let file = data.join("games.jsonl");
    let file_s = file.to_str().unwrap();
    let args = ["selfplay", "bivouac", "--games", "400", "--seed", "5", "--threads", "2"];
    // The whole study, uninterrupted, for comparison.
    let whole = crate::binary(&args, "", &data);
    assert!(whole.status.success());
    // The same study killed part-way: the finished games are on disk, one whole line each.
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .args(["--jsonl", file_s])
        .current_dir(crate::root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while std::fs::metadata(&file).map_or(0, |m| m.len()) < 20_000 && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (kept, _) = boardlab::selfplay::read_resumable(&file).unwrap();
    assert!(!kept.is_empty() && kept.len() < 400, "{} games kept", kept.len());
    // Resumed: only the missing games are played, and the report is the uninterrupted one.
    let resumed = crate::binary(&[&args[..], &["--resume-from", file_s]].concat(), "", &data);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let text = String::from_utf8_lossy(&resumed.stdout);
    assert!(text.contains(&format!("{} of them read back from the earlier run", kept.len())), "{text}");
    let body = |t: &str| t.lines().filter(|l| !l.starts_with("speed:") && !l.contains("read back")).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&text), body(&String::from_utf8_lossy(&whole.stdout)));
    let (all, _) = boardlab::selfplay::read_resumable(&file).unwrap();
    let mut indices: Vec<u64> = all.iter().map(|g| g.index).collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..400).collect::<Vec<u64>>(), "every game once");
    // Another study's file is refused.
    let other = crate::binary(&["selfplay", "bivouac", "--games", "400", "--seed", "6", "--resume-from", file_s], "", &data);
    assert!(!other.status.success());
    // (Records carry their study: the message names the file and what differs.)
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(err.contains("games.jsonl: game 0 (bivouac) is not of this study") && err.contains("seed 6 against 5"), "{err}");
}
