//! `boardlab uci`: scripted sessions piped into the binary, answers checked against the rules
//! (every `bestmove` legal in the position, perft against the published count).

use boardlab::Variant;
use boardlab::protocol::coords;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Runs `boardlab uci` with `script` on standard input; its standard output.
fn session(script: &str) -> String {
    let o = crate::binary(&["uci"], script, &crate::scratch("uci"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The moves of every `bestmove` line.
fn bestmoves(out: &str) -> Vec<&str> {
    out.lines().filter_map(|l| l.strip_prefix("bestmove ")).map(|l| l.split_whitespace().next().unwrap()).collect()
}

/// The UCI forms of the legal moves of `variant` after `moves` (UCI forms).
fn legal_after(variant: &str, fen: Option<&str>, moves: &[&str]) -> Vec<String> {
    let v = Variant::load(variant, &[]).unwrap();
    let mut pos = match fen {
        Some(f) => boardlab::fen::read(&v.rules, f).unwrap(),
        None => v.start(),
    };
    let mut legal = Vec::new();
    for m in moves {
        v.legal_moves(&mut pos, &mut legal).unwrap();
        let mv = coords::find(m, &legal, &v.rules.geometry).unwrap();
        v.make(&mut pos, &mv).unwrap();
    }
    v.legal_moves(&mut pos, &mut legal).unwrap();
    legal.iter().map(|m| coords::text(m, &v.rules.geometry)).collect()
}

#[test]
fn a_scripted_session_answers_every_command() {
    let out = session(
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 3\n\
         setoption name UCI_Variant value xiangqi\nisready\nposition startpos moves h3e3\ngo nodes 3000\nquit\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id name boardlab"), "{out}");
    let variants = lines.iter().find(|l| l.starts_with("option name UCI_Variant type combo default chess")).expect("the variant option");
    for v in ["chess", "xiangqi", "capablanca", "checkers", "minishogi"] {
        assert!(variants.contains(&format!(" var {v}")), "{variants}");
    }
    let uciok = lines.iter().position(|l| *l == "uciok").unwrap();
    assert_eq!(lines[uciok + 1], "readyok", "{out}");
    assert!(out.contains("info depth 3 score cp "), "{out}");
    let best = bestmoves(&out);
    assert_eq!(best.len(), 2, "{out}");
    assert!(legal_after("chess", None, &["e2e4", "e7e5", "g1f3"]).contains(&best[0].to_string()), "{out}");
    // Xiangqi's ranks run to 10 (h10g8 is a knight's move of black's).
    assert!(legal_after("xiangqi", None, &["h3e3"]).contains(&best[1].to_string()), "{out}");
    assert!(!out.contains("info string"), "{out}");
}

#[test]
fn perft_three_is_the_published_count() {
    let out = session("position startpos\ngo perft 3\n");
    // 8902: the published perft(3) of chess; 600 of them after 1. e4, 20 moves in all.
    assert!(out.contains("Nodes searched: 8902"), "{out}");
    assert!(out.lines().any(|l| l == "e2e4: 600"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).count(), 20, "{out}");
}

#[test]
fn a_mate_is_found_and_scored_as_mate() {
    // Back-rank mate: Ra8#.
    let out = session("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3\n");
    assert_eq!(bestmoves(&out), ["a1a8"], "{out}");
    assert!(out.contains("score mate 1 "), "{out}");
}

#[test]
fn bad_lines_are_answered_never_fatal() {
    let out = session(
        "position startpos moves e2e5\nsetoption name UCI_Variant value no-such-game\nsetoption name Colour value red\n\
         go depth x\ngo perft 99\nposition fen\nwhatever\nposition startpos moves e2e4\ngo perft 1\n",
    );
    let strings = out.lines().filter(|l| l.starts_with("info string ")).count();
    assert_eq!(strings, 7, "{out}");
    // The variant and position are what the last good lines made them: chess after 1. e4.
    assert!(out.contains("Nodes searched: 20") && out.contains("e7e5: 1"), "{out}");
}

#[test]
fn finished_games_answer_bestmove_none() {
    // Fool's mate: white is mated.
    let out = session("position startpos moves f2f3 e7e5 g2g4 d8h4\ngo depth 2\n");
    assert_eq!(bestmoves(&out), ["(none)"], "{out}");
}

/// A child engine that a failing assertion must not leave searching forever.
struct KilledOnDrop(std::process::Child);

impl Drop for KilledOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `boardlab uci` started with its input piped and its output lines sent to a channel (so a
/// test waits for a line with a timeout rather than blocking); killed when the guard drops.
fn listening_engine() -> (KilledOnDrop, std::process::ChildStdin, std::sync::mpsc::Receiver<String>) {
    let mut guard = KilledOnDrop(
        Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .arg("uci")
            .current_dir(crate::root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let stdin = guard.0.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = guard.0.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            if tx.send(l.unwrap()).is_err() {
                return;
            }
        }
    });
    (guard, stdin, rx)
}

/// How long a test waits for a line from the engine before it fails.
const WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// [`listening_engine`] running `go infinite` from chess's start, its first `info` line read.
fn searching_engine() -> (KilledOnDrop, std::process::ChildStdin, std::sync::mpsc::Receiver<String>) {
    let (guard, mut stdin, rx) = listening_engine();
    writeln!(stdin, "position startpos\ngo infinite").unwrap();
    let first = rx.recv_timeout(WAIT).expect("an info line while searching");
    assert!(first.starts_with("info depth"), "{first}");
    (guard, stdin, rx)
}

/// `stop` reaches a running `go infinite`: the engine answers `bestmove` while its input stays
/// open (a hang fails after a minute rather than blocking the suite).
#[test]
fn stop_ends_an_infinite_search() {
    let (mut guard, mut stdin, rx) = searching_engine();
    let child = &mut guard.0;

    writeln!(stdin, "stop").unwrap();
    let best = loop {
        let l = rx.recv_timeout(WAIT).expect("bestmove after stop");
        if let Some(b) = l.strip_prefix("bestmove ") {
            break b.to_string();
        }
    };
    assert!(legal_after("chess", None, &[]).contains(&best), "{best}");
    writeln!(stdin, "isready").unwrap();
    assert_eq!(rx.recv_timeout(WAIT).unwrap(), "readyok");
    // A `stop` read while the engine has not yet started its `go` still stops that search,
    // whatever `go` comes after it.
    // `isready` is answered at once even while `go depth 1` runs (UCI), so `readyok` may come
    // before or after the second `bestmove`; both searches must answer either way.
    writeln!(stdin, "go infinite\nstop\ngo depth 1\nisready").unwrap();
    let (mut answers, mut ready) = (0, false);
    while answers < 2 || !ready {
        let l = rx.recv_timeout(WAIT).expect("both searches answer, and isready");
        answers += usize::from(l.starts_with("bestmove "));
        ready |= l == "readyok";
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

/// `isready` during a search is answered while it runs (UCI: "immediately, without stopping
/// the search"): `readyok` comes before `stop` is sent, and the search then answers `stop`.
#[test]
fn isready_is_answered_during_a_search() {
    let (mut guard, mut stdin, rx) = searching_engine();
    let child = &mut guard.0;

    writeln!(stdin, "isready").unwrap();
    loop {
        let l = rx.recv_timeout(WAIT).expect("readyok while searching");
        assert!(!l.starts_with("bestmove"), "bestmove before readyok");
        if l == "readyok" {
            break;
        }
    }
    writeln!(stdin, "stop").unwrap();
    while !rx.recv_timeout(WAIT).expect("bestmove after stop").starts_with("bestmove ") {}
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

/// `stop` ends a `go perft` too (chess perft 7: billions of leaves), and the next search still
/// answers.
#[test]
fn stop_ends_a_perft_and_searching_goes_on() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .arg("uci")
        .current_dir(crate::root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "go perft 7").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    writeln!(stdin, "stop\ngo depth 1\nquit").unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.contains("info string perft stopped: interrupted"), "{out}");
    assert_eq!(bestmoves(&out).len(), 1, "{out}");
}
