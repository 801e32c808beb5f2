//! The command line, run as a user runs it: the contract of `docs/cli.md`.

use std::process::{Command, Output};

fn boardlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardlab")).args(args).current_dir(crate::root()).env("NO_COLOR", "1").output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn moves_of_basileus_start() {
    let o = boardlab(&["moves", "basileus"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 34);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "moves are sorted by byte order");
    assert!(lines.contains(&"e2-e3") && lines.contains(&"a2-b3") && !lines.contains(&"a2-a3"));
}

#[test]
fn moves_sorted_by_bytes() {
    // On a board with ranks 10 and above, `a10-…` sorts before `a2-…`.
    let o = boardlab(&["moves", "checkers", "--position", "4/4/4/4/4/4/4/M3 white 0"]);
    assert_eq!(stdout(&o), "a1-b2\n");
}

#[test]
fn solve_proves_small_connect_four_a_draw() {
    // John Tromp's table of solved board sizes: 4 columns of 4 is a draw.
    let o = boardlab(&["solve", "./tests/solve/connect-four-4x4"]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("a draw with perfect play (neither side can force a win)\nbest move: "), "{}", stdout(&o));
    // A mate in one, and a limit that stops it unproved.
    let o = boardlab(&["solve", "chess", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"]);
    assert!(stdout(&o).starts_with("white (to move) wins in 1 plies\nbest move: a1-a8\n"), "{}", stdout(&o));
    let o = boardlab(&["solve", "tic-tac-toe", "--nodes", "10"]);
    assert!(o.status.success() && stdout(&o).starts_with("not proved: stopped by the node limit"), "{}", stdout(&o));
    assert!(stdout(&o).contains("\ncan white win? proof number "), "{}", stdout(&o));
}

#[test]
fn perft_checkers_nine() {
    let o = boardlab(&["perft", "checkers", "9"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("3963680"));
}

#[test]
fn perft_reference_counts_the_known_trees() {
    // Independently known counts: chess perft 3 from the start is 8,902 and English draughts
    // perft 6 is 36,768, through the reference mode (no shortcut, every leaf made) as through
    // the general kernel (its last level the length of each list).
    for (game, depth, count) in [("chess", "3", "8902"), ("checkers", "6", "36768")] {
        for mode in ["--reference", "--general"] {
            let o = boardlab(&["perft", game, depth, mode]);
            assert!(o.status.success(), "{game} {mode}");
            assert_eq!(stdout(&o).lines().last(), Some(count), "{game} {mode}");
        }
    }
    // The reference makes every leaf already, and is not the general kernel's count.
    for other in ["--made", "--general"] {
        assert!(!boardlab(&["perft", "chess", "2", "--reference", other]).status.success(), "{other}");
    }
}

#[test]
fn perft_divide() {
    let o = boardlab(&["perft", "checkers", "2", "--divide"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[7], "49");
    assert!(lines[..7].iter().all(|l| l.ends_with(": 7")), "{out}");
}

#[test]
fn finished_game_perft() {
    let pos = ["--position", "9/4k4/9/4p4/4P4/9/4K4/9 white 0", "--moves", "e4xe6xe8"];
    let mut a = vec!["perft", "basileus", "0"];
    a.extend(pos);
    assert_eq!(stdout(&boardlab(&a)).trim(), "1");
    let mut a = vec!["perft", "basileus", "2"];
    a.extend(pos);
    assert_eq!(stdout(&boardlab(&a)).trim(), "0");
    let mut a = vec!["moves", "basileus"];
    a.extend(pos);
    assert_eq!(stdout(&boardlab(&a)), "");
}

#[test]
fn illegal_move_names_index_and_reason() {
    let o = boardlab(&["moves", "basileus", "--position", "9/4k4/9/4p4/4P4/9/4K4/9 white 0", "--moves", "e4xe6xe8 e7-e6"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    let e = stderr(&o);
    assert!(e.contains("move 2 (e7-e6): the game is over (white wins: basileus captured)"), "{e}");
    let o = boardlab(&["moves", "basileus", "--position", "9/4k4/9/4p4/4P4/9/4K4/9 white 0", "--moves", "e2-d3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("move 1 (e2-d3): capture is compulsory (e4xe6xe8 is available)"), "{}", stderr(&o));
    let o = boardlab(&["moves", "basileus", "--moves", "e2-e3 zz9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("move 2 (zz9)"), "{}", stderr(&o));
    let o = boardlab(&["moves", "basileus", "--moves", "e2-e4"]);
    assert!(stderr(&o).contains("move 1 (e2-e4): the basileus on e2 cannot play e2-e4"), "{}", stderr(&o));
    let o = boardlab(&["moves", "basileus", "--moves", "e7-e6"]);
    assert!(stderr(&o).contains("e7 holds a black basileus; white is to move"), "{}", stderr(&o));
}

#[test]
fn position_round_trips_through_the_cli() {
    let p = stdout(&boardlab(&["position", "basileus", "--moves", "e2-e3 e7-e6 d2-c3"]));
    assert_eq!(p.trim(), "9/pfpf1fpfp/4k4/9/9/2F1K4/PFP2FPFP/9 black 3");
    let again = stdout(&boardlab(&["position", "basileus", "--position", p.trim()]));
    assert_eq!(again, p);
    let m1 = stdout(&boardlab(&["moves", "basileus", "--moves", "e2-e3 e7-e6 d2-c3"]));
    let m2 = stdout(&boardlab(&["moves", "basileus", "--position", p.trim()]));
    assert_eq!(m1, m2);
}

#[test]
fn show_draws_board_and_status() {
    let o = stdout(&boardlab(&["show", "basileus"]));
    assert!(o.contains("  7  p  f  p  f  k  f  p  f  p"), "{o}");
    assert!(o.contains("white to move"));
    let o = stdout(&boardlab(&["show", "basileus", "--position", "9/4k4/9/4p4/4P4/9/4K4/9 white 0", "--moves", "e4xe6xe8"]));
    assert!(o.contains("white wins: basileus captured"), "{o}");
}

#[test]
fn list_and_check() {
    let o = stdout(&boardlab(&["list"]));
    assert!(o.contains("basileus") && o.contains("checkers") && o.contains("tic-tac-toe") && o.contains("connect-four"), "{o}");
    assert!(
        o.contains("international")
            && o.contains("russian")
            && o.contains("brazilian")
            && o.contains("othello")
            && o.contains("breakthrough")
            && o.contains("dobutsu"),
        "{o}"
    );
    let o = boardlab(&["check", "basileus"]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("basileus: ok"), "{}", stdout(&o));
    let o = boardlab(&["check", "./tests/broken/unknown_victim"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("variant.toml:7:45") && e.contains("did you mean `figure`?"), "{e}");
}

#[test]
fn check_resolved_shows_inheritance() {
    let o = stdout(&boardlab(&["check", "./tests/broken/../../variants/basileus", "--resolved"]));
    assert!(o.contains("[pieces.basileus]"), "{o}");
    let o = boardlab(&["check", "tests/extends/variant.toml", "--resolved"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("extends basileus"), "{out}");
    assert!(out.contains("# from basileus"), "{out}");
    assert!(out.contains("# capture_choice = maximum  (default maximum"), "{out}");
    // Every section is shown, [castling] too, headed by the file that wrote it.
    let out = stdout(&boardlab(&["check", "capablanca", "--resolved"]));
    assert!(out.contains("# from capablanca (variants/capablanca/variant.toml)\n[castling]"), "{out}");
}

#[test]
fn set_options_on_the_command_line() {
    let pos = "9/9/9/1p7/p4k3/P3F4/9/8K white 0";
    assert_eq!(stdout(&boardlab(&["moves", "basileus", "--position", pos])), "a3xa5xc5\ne3xg5\n");
    assert_eq!(stdout(&boardlab(&["moves", "basileus", "--position", pos, "--set", "capture_choice=maximum"])), "a3xa5xc5\n");
    let o = boardlab(&["moves", "basileus", "--set", "capture_choice"]);
    assert_eq!(o.status.code(), Some(2));
    let o = boardlab(&["moves", "basileus", "--set", "nope=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown option `nope`"));
}

#[test]
fn move_limit_draws() {
    let o = stdout(&boardlab(&["show", "checkers", "--set", "move_limit=2", "--moves", "c3-d4 f6-e5"]));
    assert!(o.contains("draw: move limit"), "{o}");
}

#[test]
fn play_reads_commands_from_a_pipe() {
    use std::io::Write;
    // The autosave goes to a scratch folder, never the user's data directory.
    let data = crate::scratch("cli-play");
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["play", "basileus"])
        .current_dir(crate::root())
        .env("BOARDLAB_DATA_DIR", &*data)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"e2-e3\nmoves\nundo\nposition\nquit\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("black to move"), "{out}");
    assert!(out.contains("9/pfpfkfpfp/9/9/9/9/PFPFKFPFP/9 white 0"), "{out}");
}

/// Runs the binary with its standard output closed by the reader: before anything is read
/// (`read_first` false: every write fails) or after the first line. Returns the exit status,
/// the first line read, and standard error.
pub fn with_closed_stdout(args: &[&str], input: &[u8], data: &std::path::Path, read_first: bool) -> (Option<i32>, String, String) {
    use std::io::{BufRead, Read, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .current_dir(crate::root())
        .env("NO_COLOR", "1")
        .env("BOARDLAB_DATA_DIR", data)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // The program may stop reading early: a failed write here is expected.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = child.stdout.take().unwrap();
    let mut first = String::new();
    if read_first {
        let _ = std::io::BufReader::new(stdout).read_line(&mut first);
    } else {
        drop(stdout);
    }
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    (status.code(), first, err)
}

#[test]
fn a_closed_stdout_is_not_an_error() {
    let data = crate::scratch("cli-pipe");
    let (code, _, err) = with_closed_stdout(&["moves", "basileus"], b"", &data, false);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let (code, first, err) = with_closed_stdout(&["moves", "basileus"], b"", &data, true);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert_eq!(first, "a2-b1\n");
    let (code, first, err) = with_closed_stdout(&["perft", "checkers", "9", "--divide"], b"", &data, true);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(first.starts_with("a3-b4: "), "{first}");
    let (code, _, err) = with_closed_stdout(&["perft", "checkers", "2", "--divide"], b"", &data, false);
    assert_eq!((code, err.as_str()), (Some(0), ""));
}

/// Every argument and option of every command says what it is in `--help`.
#[test]
fn every_help_entry_has_words() {
    let bin = env!("CARGO_BIN_EXE_boardlab");
    let commands =
        ["", "list", "moves", "perft", "show", "position", "check", "play", "selfplay", "report", "new", "test", "diff", "serve"];
    for c in commands {
        let o = std::process::Command::new(bin).args([c, "--help"].iter().filter(|a| !a.is_empty())).output().unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        for line in text.lines() {
            let t = line.trim();
            let entry =
                t.starts_with('-') || (t.starts_with('<') && t.ends_with('>')) || (line.starts_with("  ") && !line.starts_with("   "));
            let bare = !t.contains("  ") && !t.is_empty();
            assert!(!(entry && bare && t.split_whitespace().count() <= 3), "`boardlab {c} --help`: `{t}` has no description");
        }
    }
}

/// The examples of docs/ai.md are what the binary prints (the analysis's time aside).
#[test]
fn eval_and_analyse_print_what_the_docs_show() {
    let docs = std::fs::read_to_string(crate::root().join("docs/ai.md")).unwrap();
    let block = |cmd: &str| -> String {
        let at = docs.find(&format!("$ boardlab {cmd}\n")).unwrap_or_else(|| panic!("docs/ai.md shows `{cmd}`"));
        let rest = &docs[at..];
        let body = &rest[rest.find('\n').unwrap() + 1..];
        body[..body.find("```").unwrap()].to_string()
    };
    let o = boardlab(&["eval", "checkers"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), block("eval checkers"));
    let args = ["analyse", "checkers", "--engine", "ab:d6", "--lines", "4"];
    let o = boardlab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), block(&args.join(" ")));
}

#[test]
fn analyse_proves_a_win_and_refuses_engines_that_do_not_score() {
    // White to move: c3xe5xg7 takes both black men (black then has no move).
    let pos = ["--position", "4/4/2m1/4/1m2/1MM1/4/4 white 0"];
    let o = boardlab(&[&["analyse", "checkers", "--engine", "ab:d3", "--lines", "1"][..], &pos].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().nth(1).is_some_and(|l| l.contains("win in 1")), "{out}");
    let o = boardlab(&["analyse", "checkers", "--engine", "mcts:100"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("only alpha-beta scores moves"), "{}", stderr(&o));
    let o = boardlab(&["analyse", "checkers", "--lines", "21"]);
    assert_eq!(o.status.code(), Some(2));
    // A finished game has nothing to analyse, and its evaluation says so.
    let over = ["--position", "4/4/2m1/4/1m2/1MM1/4/4 white 0", "--moves", "c3xe5xg7"];
    let o = boardlab(&[&["analyse", "checkers"][..], &over].concat());
    assert!(o.status.success() && stdout(&o).starts_with("no move to analyse"), "{}", stdout(&o));
    let o = boardlab(&[&["eval", "checkers"][..], &over].concat());
    assert!(stdout(&o).starts_with("the game is over"), "{}", stdout(&o));
}
