//! The REPL: every command through the I/O-free session (error paths included), game records,
//! and the real binary with piped input (non-interactive mode, autosave and `--resume`).

use boardlab::Record;
use boardlab::Style;
use boardlab::{COMMANDS, Session};

fn session(v: &str) -> Session {
    Session::new(v, &[], Style::PLAIN).unwrap()
}

/// Runs a line as the shell does: the command, then its effects (files written), then its output.
fn ok(s: &mut Session, line: &str) -> String {
    let reply = s.execute(line).unwrap_or_else(|e| panic!("`{line}` failed: {e}"));
    boardlab::repl::perform(&reply).unwrap_or_else(|e| panic!("`{line}`: {e}"));
    reply.output(std::time::Duration::ZERO)
}

#[test]
fn browsing_the_history_keeps_it() {
    let mut s = session("basileus");
    for m in ["e2-e3", "e7-e6", "c2-d3", "c7-d6"] {
        ok(&mut s, m);
    }
    let h = ok(&mut s, "history");
    assert_eq!(h, "  1. e2-e3 e7-e6\n  2. c2-d3 c7-d6\n");
    ok(&mut s, "back 3");
    assert_eq!(s.pos.ply(), 1);
    assert!(ok(&mut s, "history").contains("(3 more plies ahead"));
    ok(&mut s, "forward");
    assert_eq!(s.pos.ply(), 2);
    ok(&mut s, "goto 4");
    assert_eq!(s.pos.ply(), 4);
    ok(&mut s, "goto 0");
    assert_eq!(s.pos, s.start);
    assert!(s.execute("goto 9").unwrap_err().to_string().contains("not in this game's history"));
    assert!(s.execute("goto x").is_err());
    ok(&mut s, "goto 2");
    // A new move from an earlier ply starts a new line and says so.
    let out = ok(&mut s, "a2-b3");
    assert!(out.contains("a new line from ply 2 (2 later plies dropped)"), "{out}");
    assert_eq!(s.played.len(), 3);
    assert!(s.undone.is_empty());
    assert!(s.execute("undo x").is_err());
}

#[test]
fn history_with_continuations_names_each_decider() {
    let mut s = session("pyramida");
    ok(&mut s, "d1-c2");
    ok(&mut s, "t1-u2");
    let h = ok(&mut s, "history");
    assert_eq!(h, "  1. white d1-c2\n  2. white t1-u2\n");
}

#[test]
fn editing_a_position_starts_a_new_line() {
    let mut s = session("pyramida");
    ok(&mut s, "t1-u2");
    ok(&mut s, "clear");
    assert!(s.pos.board().iter().all(|c| c.is_empty()));
    assert!(s.played.is_empty());
    ok(&mut s, "place e4 W");
    ok(&mut s, "place e6 black stone");
    ok(&mut s, "place j1 b");
    ok(&mut s, "turn white");
    assert_eq!(s.pos.to_text(&s.variant.rules), "1/2/3/4/5/6/7/8/1b7/10/2W8/10/11/4b5 white 1 counters=escaped:0:0");
    ok(&mut s, "remove j1");
    assert!(s.execute("remove j1").unwrap_err().to_string().contains("already empty"));
    assert!(s.execute("place b2 W").unwrap_err().to_string().contains("not on the board"));
    assert!(s.execute("place e4 Q").unwrap_err().to_string().contains("no piece has the symbol"));
    assert!(s.execute("place e4 white king").unwrap_err().to_string().contains("not a piece kind"));
    assert!(s.execute("turn green").is_err());
    // The edited position is the start of the new game: moves and undo work from it.
    ok(&mut s, "e4-f5");
    ok(&mut s, "undo");
    assert_eq!(s.pos, s.start);
}

#[test]
fn machine_players() {
    let mut s = session("checkers");
    ok(&mut s, "seed 7");
    let out = ok(&mut s, "ai random");
    assert!(out.contains("random plays"), "{out}");
    let out = ok(&mut s, "ai mcts 50");
    assert!(out.contains("mcts:50 plays"), "{out}");
    assert_eq!(s.pos.ply(), 2);
    // The machine answers for black after each white move.
    ok(&mut s, "play black random");
    ok(&mut s, "board off");
    let before = s.pos.ply();
    let mut legal = Vec::new();
    s.variant.legal_moves(&mut s.pos, &mut legal).unwrap();
    let t = legal[0].text(&s.variant.rules.geometry);
    let out = ok(&mut s, &t);
    assert!(out.contains("black (random) plays"), "{out}");
    assert_eq!(s.pos.ply(), before + 2);
    ok(&mut s, "play none");
    let out = ok(&mut s, "auto 3 random");
    assert!(out.contains("3 moves played (random)"), "{out}");
    // Without an engine, `ai` and `auto` use the default alpha-beta player.
    let out = ok(&mut s, "ai");
    assert!(out.contains(&format!("{} plays", boardlab::Engine::DEFAULT)), "{out}");
    let out = ok(&mut s, "auto 1");
    assert!(out.contains("(ab) plays") && out.contains("40,000 positions"), "{out}");
    // Same seed, same game, with random and with node-budgeted players.
    for engine in ["random", "ab:300"] {
        let mut a = session("lielow");
        let mut b = session("lielow");
        for s in [&mut a, &mut b] {
            ok(s, "seed 11");
            ok(s, &format!("auto 12 {engine}"));
        }
        assert_eq!(a.played, b.played, "{engine}");
    }
    let mut a = session("lielow");
    assert!(a.execute("ai minimax").unwrap_err().to_string().contains("not a player"));
    assert!(a.execute("seed x").is_err());
    assert!(a.execute("play purple").is_err());
}

#[test]
fn save_and_load_round_trip() {
    let dir = crate::scratch("repl");
    let file = dir.join("game.toml");
    let mut s = session("pyramida");
    ok(&mut s, "set no_moves draw");
    ok(&mut s, "d1-c2");
    ok(&mut s, "h1-g2");
    ok(&mut s, &format!("save {}", file.display()));
    let rec = Record::load(&file).unwrap();
    assert_eq!(rec.variant, "pyramida");
    assert_eq!(rec.moves, vec!["d1-c2", "h1-g2"]);
    assert_eq!(rec.options.get("no_moves").map(String::as_str), Some("draw"));
    assert_eq!(rec.start, None);
    let mut t = session("basileus");
    ok(&mut t, &format!("load {}", file.display()));
    assert_eq!(t.pos, s.pos);
    assert_eq!(t.record(), rec);
    // From an edited position, the start is recorded too.
    ok(&mut s, "remove c2");
    ok(&mut s, &format!("save {}", file.display()));
    let mut u = session("checkers");
    ok(&mut u, &format!("load {}", file.display()));
    assert_eq!(u.pos, s.pos);
    // A malformed record, a missing file, a record with an illegal move: errors, game unchanged.
    let before = u.pos.clone();
    std::fs::write(&file, "variant = \"pyramida\"\nmoves = [\"d1-d2\"]\n").unwrap();
    assert!(u.execute(&format!("load {}", file.display())).unwrap_err().to_string().contains("move 1 (d1-d2)"));
    std::fs::write(&file, "this is not toml").unwrap();
    assert!(u.execute(&format!("load {}", file.display())).unwrap_err().to_string().contains("not a game record"));
    assert!(u.execute("load /nonexistent/boardlab.toml").is_err());
    assert_eq!(u.pos, before);
}

#[test]
fn reload_keeps_old_rules_when_the_file_breaks() {
    let dir = crate::scratch("reload");
    let file = dir.join("variant.toml");
    std::fs::write(&file, "extends = \"basileus\"\n").unwrap();
    let mut s = session(file.to_str().unwrap());
    ok(&mut s, "e2-e3");
    std::fs::write(&file, "extends = \"basileus\"\n[options.no_moves]\ndefault = \"draw\"\n").unwrap();
    let out = ok(&mut s, "reload");
    assert!(out.contains("replayed 1 moves"), "{out}");
    assert!(ok(&mut s, "options").contains("no_moves = draw"));
    std::fs::write(&file, "extends = \"basileus\"\n[pieces.pawn]\nsymbool = \"P\"\n").unwrap();
    let e = s.execute("reload").unwrap_err().to_string();
    assert!(e.contains("symbool") && e.contains("old rules stay"), "{e}");
    assert_eq!(s.pos.ply(), 1);
    assert!(ok(&mut s, "options").contains("no_moves = draw"));
}

#[test]
fn reload_says_when_the_set_up_start_no_longer_fits() {
    let dir = crate::scratch("refit");
    let file = dir.join("variant.toml");
    let board = |n: u32| {
        format!(
            "[board]\nfiles = {n}\nranks = {n}\n[pieces.man]\nsymbol = \"M\"\nmoves = [{{ step = \"all\" }}]\n[setup.pieces.white]\nman = [\"a1\"]\n[setup.pieces.black]\nman = [\"b{n}\"]\n"
        )
    };
    std::fs::write(&file, board(3)).unwrap();
    let mut s = session(file.to_str().unwrap());
    // A set-up start (not the initial one) and a move.
    ok(&mut s, "setup m2/3/M2 white 0");
    ok(&mut s, "a1-a2");
    // A bigger board: the start no longer parses, so the game restarts from the new initial
    // position, says so, and replays a1-a2 by its text (cell numbers differ between boards).
    std::fs::write(&file, board(4)).unwrap();
    let out = ok(&mut s, "reload");
    assert!(out.contains("does not fit the new rules") && out.contains("starting from the initial position"), "{out}");
    assert!(out.contains("replayed 1 moves"), "{out}");
    assert_eq!(s.start, s.variant.start());
    assert_eq!(s.played[0].text(&s.variant.rules.geometry), "a1-a2");
}

#[test]
fn every_command_has_help_and_unknown_ones_are_errors() {
    let mut s = session("lielow");
    for c in COMMANDS {
        let h = ok(&mut s, &format!("help {}", c.name));
        assert!(h.starts_with(c.name), "{h}");
        for a in c.aliases {
            assert_eq!(ok(&mut s, &format!("help {a}")), h, "help for the alias {a}");
        }
    }
    let e = s.execute("hisotry").unwrap_err().to_string();
    assert!(e.contains("did you mean `history`"), "{e}");
    assert!(s.execute("trace sideways").is_err());
    let out = ok(&mut s, "trace on");
    assert_eq!(out, "trace on\n");
    let out = ok(&mut s, "a2-b3");
    assert!(out.contains("trace a2-b3: no hook ran") && out.contains("a2 P→., b3 .→P") && out.contains("b3 level 1→2"), "{out}");
    let why = ok(&mut s, "why a7-a5");
    assert!(!why.is_empty());
    let sp = ok(&mut s, "selfplay 5 --seed 3");
    assert!(sp.contains("5 games") && sp.contains("branching"), "{sp}");
    assert!(s.execute("selfplay").is_err());
}

#[test]
fn trace_shows_hooks_and_continuations() {
    // Pyramida's attacks are the kernel's (a push): no hook, but the extra move shows.
    let mut s = session("pyramida");
    ok(&mut s, "trace on");
    let out = ok(&mut s, "d1-c2");
    assert!(out.contains("no hook ran"), "{out}");
    assert!(out.contains("continuation `extra_move` for white"), "{out}");
    // A hook filtered to moves onto the far rank.
    let mut s = session("tests/scripted/hook_filters");
    ok(&mut s, "trace on");
    ok(&mut s, "clear");
    ok(&mut s, "place b6 M");
    ok(&mut s, "place h2 m");
    let out = ok(&mut s, "b6-a7");
    assert!(out.contains("no hook ran"), "{out}");
    ok(&mut s, "h2-g1");
    let out = ok(&mut s, "a7-b8");
    assert!(out.contains("after_move hook ran") && out.contains("crowned"), "{out}");
}

#[test]
fn piped_session_autosave_and_resume() {
    let data = crate::scratch("data");
    let o = crate::binary(&["play", "pyramida"], "board off\nd1-c2\nwhy d1-d2\nh1-g2\nposition\n", &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("white to decide: extra move"), "{out}");
    assert!(!out.contains("pyramida 0 white>"), "no prompt when not a terminal: {out}");
    // The game was autosaved at the end of input (as on Ctrl-D): --resume continues it.
    let o = crate::binary(&["play", "--resume"], "position\nhistory\n", &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("white d1-c2") && out.contains("white h1-g2"), "{out}");
    // The first failing command stops the run with status 1 and its error on stderr; the game
    // so far is still autosaved.
    let o = crate::binary(&["play", "basileus"], "e2-e3\ne3-e5\nshow\n", &data);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("e3-e5"));
    let rec = Record::load(&crate::latest_autosave(&data)).unwrap();
    assert_eq!(rec.moves, vec!["e2-e3"]);
    let o = crate::binary(&["play", "basileus"], "frobnicate\n", &data);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn docs_list_every_command() {
    let doc = std::fs::read_to_string(crate::root().join("docs/repl.md")).unwrap();
    for c in COMMANDS {
        let (name, args) = (c.name, c.usage);
        let row =
            format!("| `{name}{}{}` | {} |", if args.is_empty() { "" } else { " " }, args.replace('|', "\\|"), c.help.replace('|', "\\|"));
        assert!(doc.contains(&row), "docs/repl.md does not list `{name} {args}` as in the table:\n{row}");
    }
}

#[test]
fn the_remaining_commands() {
    let mut s = session("checkers");
    assert!(ok(&mut s, "moves").contains("c3: 11-16 11-15")); // c3-b4 c3-d4, numbered
    // Perft 2 from the start is 49 (Bik, "Perft for Checkers").
    assert_eq!(ok(&mut s, "perft 2"), "49\n");
    assert!(ok(&mut s, "board off").contains("off"));
    assert_eq!(ok(&mut s, "c3-d4"), "black to move\n");
    assert!(ok(&mut s, "show").contains("black to move"));
    // Black's seven replies: b6, d6, f6 two each, h6 one.
    assert!(ok(&mut s, "perft 1 --divide").ends_with("h6-g5: 1\n7\n"));
    assert!(s.execute("perft").is_err());
    ok(&mut s, "new");
    assert_eq!(s.pos.ply(), 0);
    assert!(s.played.is_empty());
    assert!(ok(&mut s, "rules").contains("# checkers resolved"));
    let e = s.execute("variant basilues").unwrap_err().to_string();
    assert!(e.contains("basileus"), "{e}");
    assert!(s.execute("variant").unwrap_err().to_string().contains("found: "));
    ok(&mut s, "variant pyramida");
    assert_eq!(s.prompt(), "pyramida 0 white> ");
    assert!(s.execute("setup nonsense").is_err());
    assert!(s.execute("save").is_err() && s.execute("load").is_err());
}

#[test]
fn a_closed_stdout_ends_the_repl_quietly_after_the_autosave() {
    let data = crate::scratch("pipe");
    let mut input = b"c3-d4\n".to_vec();
    for _ in 0..500 {
        input.extend_from_slice(b"help\n");
    }
    for read_first in [false, true] {
        let _ = std::fs::remove_dir_all(data.join("autosaves"));
        let (code, _, err) = crate::cli::with_closed_stdout(&["play", "checkers"], &input, &data, read_first);
        assert_eq!((code, err.as_str()), (Some(0), ""), "read_first {read_first}");
        let rec = Record::load(&crate::latest_autosave(&data)).unwrap();
        assert_eq!(rec.moves, vec!["c3-d4"]);
    }
}

#[test]
fn snapshot_returns_the_files_for_the_shell_to_write() {
    use boardlab::Effect;
    let scratch = crate::scratch("snapshot");
    let dir = scratch.join("mine");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("variant.toml"), "extends = \"checkers\"\n").unwrap();
    let mut s = session(dir.to_str().unwrap());
    ok(&mut s, "c3-d4");
    let reply = s.execute("snapshot opening").unwrap();
    let written: Vec<_> =
        reply.effects.iter().filter_map(|e| if let Effect::Write { path, .. } = e { Some(path.clone()) } else { None }).collect();
    assert_eq!(written, vec![dir.join("scenarios/opening.toml"), dir.join("scenarios/snapshots/opening.snap")]);
    assert!(!written[0].exists(), "the session writes nothing itself");
    boardlab::repl::perform(&reply).unwrap();
    assert!(reply.text.starts_with("wrote ") && reply.text.contains("opening.snap"), "{}", reply.text);
    // What was written is a scenario whose snapshot passes `boardlab test`.
    let r = boardlab::workflow::test(Some(dir.to_str().unwrap()), false).unwrap();
    assert_eq!((r.passed, r.failed), (1, 0), "{}", r.text);
    assert!(s.execute("snapshot opening").unwrap_err().to_string().contains("already exists"));
    assert!(s.execute("snapshot no/way").is_err());
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

#[test]
fn the_shell_times_the_ai_and_leaves_on_quit() {
    use boardlab::Effect;
    let mut s = session("checkers");
    let reply = s.execute("ai random").unwrap();
    assert!(matches!(reply.effects.as_slice(), [Effect::Timed { head }] if head.starts_with("random plays ")), "{reply:?}");
    let out = reply.output(std::time::Duration::from_millis(1500));
    assert!(out.lines().next().unwrap().ends_with(" (1.50 s)"), "{out}");
    for q in ["quit", "exit", "q"] {
        assert!(s.execute(q).unwrap().quits());
    }
    assert!(!s.execute("help").unwrap().quits());
}

#[test]
fn every_edit_is_undone_by_undo_and_redone_by_redo() {
    let mut s = session("pyramida");
    let text = |s: &Session| s.pos.to_text(&s.variant.rules);
    ok(&mut s, "t1-u2");
    let mut seen = vec![(text(&s), s.variant.name().to_string(), s.played.len())];
    for (edit, says) in [
        ("clear", "emptied the board: a new game line; undo returns to the previous game (1 plies)"),
        ("place e4 W", "put W on e4: a new game line; undo returns to the previous position"),
        ("turn white", "white to move: a new game line"),
        ("remove e4", "emptied e4: a new game line"),
        ("setup 1/2/3/4/5/6/7/8/1b7/10/2W8/10/11/4b5 white 1", "set up a position: a new game line"),
        ("new", "a new game: a new game line"),
        ("variant checkers", "switched to checkers: a new game line"),
    ] {
        let out = ok(&mut s, edit);
        assert!(out.starts_with(says), "`{edit}` says: {out}");
        seen.push((text(&s), s.variant.name().to_string(), s.played.len()));
    }
    ok(&mut s, "c3-d4");
    // Undo takes back the move, then each edit in turn, back to the first game with its move.
    ok(&mut s, "undo");
    for i in (0..seen.len() - 1).rev() {
        let out = ok(&mut s, "undo");
        assert!(out.starts_with("undid `"), "{out}");
        assert_eq!((text(&s), s.variant.name().to_string(), s.played.len()), seen[i], "undo back to step {i}");
    }
    assert_eq!(s.played.len(), 1);
    ok(&mut s, "undo");
    assert_eq!(s.pos, s.start);
    assert!(ok(&mut s, "undo 5").starts_with("nothing to undo: this is the start of the game\n"));
    // Redo replays the move and the edits, in order.
    ok(&mut s, "redo");
    for (i, want) in seen.iter().enumerate().skip(1) {
        let out = ok(&mut s, "redo");
        assert!(out.starts_with("redid `"), "{out}");
        assert_eq!(&(text(&s), s.variant.name().to_string(), s.played.len()), want, "redo to step {i}");
    }
    ok(&mut s, "redo");
    assert_eq!(s.played.len(), 1, "the last line's move is redone too");
    // The earlier lines survive the autosave: resumed, undo still returns to them.
    let mut back = Session::from_record(&s.autosave_record(), Style::PLAIN).unwrap();
    assert_eq!(back.earlier.len(), seen.len() - 1);
    ok(&mut back, "undo 2");
    assert_eq!((text(&back), back.variant.name().to_string()), (seen[6].0.clone(), seen[6].1.clone()));
    // A move played after undoing an edit drops the redo of it.
    assert_eq!(back.later.len(), 1);
    ok(&mut back, "t1-u2");
    assert!(back.later.is_empty());
}

#[test]
fn load_is_undone_too() {
    let dir = crate::scratch("repl-load-undo");
    let file = dir.join("g.toml");
    let mut a = session("checkers");
    ok(&mut a, "c3-d4");
    ok(&mut a, &format!("save {}", file.display()));
    let mut s = session("basileus");
    ok(&mut s, "e2-e3");
    let out = ok(&mut s, &format!("load {}", file.display()));
    assert!(out.contains(": a new game line; undo returns to the previous game (1 plies)"), "{out}");
    assert_eq!(s.variant.name(), "checkers");
    ok(&mut s, "undo 2");
    assert_eq!((s.variant.name(), s.played.len()), ("basileus", 1));
}

#[test]
fn a_complete_move_is_never_lengthened_into_another() {
    let mut s = session("bivouac");
    ok(&mut s, "setup 6/1xxxx1/6/6/6/6/6/2x1O1/2x1O1/1O2O1/6 white 0");
    ok(&mut s, "set captures compulsory_maximal");
    // b2xd4 stops after one jump where the capture must go on to b4: refused, and why says so.
    let e = s.execute("b2xd4").unwrap_err().to_string();
    assert_eq!(e, "only the captures that take the most pieces (2) are legal: b2xd4xb4");
    assert!(s.played.is_empty());
    assert_eq!(ok(&mut s, "why b2xd4"), "only the captures that take the most pieces (2) are legal: b2xd4xb4\n");
    assert_eq!(ok(&mut s, "why b2xd4xb4"), "b2xd4xb4 is legal\n");
    // A partial text still completes, and says what it became.
    let out = ok(&mut s, "b2x");
    assert!(out.starts_with("played b2xd4xb4\n"), "{out}");
    ok(&mut s, "undo");
    assert!(!ok(&mut s, "b2xd4xb4").starts_with("played"), "the exact text is not echoed");
}

#[test]
fn why_a_cell_lists_its_moves_or_says_why_it_has_none() {
    let mut s = session("checkers");
    assert_eq!(ok(&mut s, "why c3"), "c3: c3-b4, c3-d4\n");
    assert_eq!(ok(&mut s, "why d4"), "there is no piece on d4\n");
    assert_eq!(ok(&mut s, "why b6"), "b6 holds a black man; white is to move\n");
    assert!(ok(&mut s, "why b2").starts_with("the man on b2 has no legal move here"), "{}", ok(&mut s, "why b2"));
    // With a capture available, another piece's moves are not legal, and why says so.
    for m in ["c3-d4", "f6-e5"] {
        ok(&mut s, m);
    }
    assert_eq!(ok(&mut s, "why d4"), "d4: d4xf6\n");
    let out = ok(&mut s, "why a3");
    assert!(out.starts_with("the piece on a3 has no legal move: capture is compulsory"), "{out}");
}

#[test]
fn playing_the_machine_undo_new_and_the_history() {
    let mut s = session("checkers");
    ok(&mut s, "seed 3");
    ok(&mut s, "play black random");
    ok(&mut s, "c3-d4");
    assert_eq!(s.played.len(), 2, "the machine answered");
    // Undo takes back the machine's reply and your move: your decision again.
    ok(&mut s, "undo");
    assert_eq!(s.played.len(), 0);
    assert!(ok(&mut s, "undo").starts_with("nothing to undo: this is the start of the game"));
    // Playing the move that is next in the history steps forward instead of a new line.
    let out = ok(&mut s, "c3-d4");
    assert!(out.starts_with("c3-d4 is the next move of the history: stepped forward"), "{out}");
    assert_eq!(s.played.len(), 2, "and the machine's reply came forward too (it was next as well)");
    assert!(ok(&mut s, "redo").starts_with("nothing to redo: this is the end of the history"));
    assert!(ok(&mut s, "forward").starts_with("nothing ahead"));
    // With the machine on white, `new` starts it at once.
    ok(&mut s, "play none");
    ok(&mut s, "play white random");
    assert_eq!(s.played.len(), 3, "white's machine answered at once");
    ok(&mut s, "new");
    assert_eq!(s.played.len(), 1, "the machine made white's first move of the new game");
    ok(&mut s, "play none");
    assert!(ok(&mut s, "help play").contains("white|black|none|both"), "help names play both");
    // auto lists its moves.
    let out = ok(&mut s, "auto 3 random");
    assert_eq!(out.lines().filter(|l| l.contains(" (random) plays ")).count(), 3, "{out}");
}

#[test]
fn a_script_error_while_reload_replays_fails_the_reload() {
    let dir = crate::scratch("reload-script");
    let file = dir.join("variant.toml");
    std::fs::write(&file, "extends = \"checkers\"\nscript = \"rules.rhai\"\n").unwrap();
    std::fs::write(dir.join("rules.rhai"), "fn after_move(m) { }\n").unwrap();
    let mut s = session(file.to_str().unwrap());
    for m in ["c3-d4", "f6-g5", "b2-c3"] {
        ok(&mut s, m);
    }
    // The edited script fails at the third move: a bug in the script, not a rule that makes
    // the move illegal. The reload fails, naming the hook and the move; nothing is dropped.
    std::fs::write(dir.join("rules.rhai"), "fn after_move(m) {\n    if ply() >= 3 { throw \"boom\"; }\n}\n").unwrap();
    let e = s.execute("reload").unwrap_err().to_string();
    assert!(e.contains("after_move") && e.contains("boom"), "{e}");
    assert!(e.contains("while replaying move 3 (b2-c3) under the new rules; the old rules stay in force"), "{e}");
    assert_eq!(s.played.len(), 3);
    // An option that makes a move illegal drops the plies after it, and undo brings them back.
    let mut t = session("basileus");
    ok(&mut t, "e2-e3");
    ok(&mut t, "back");
    let out = ok(&mut t, "set king_adjacency forbidden");
    assert!(out.contains("replayed 1 moves"), "{out}");
    assert_eq!((t.played.len(), t.undone.len()), (0, 1), "the cursor and the ply ahead are kept");
    assert!(ok(&mut t, "undo").starts_with("undid `set king_adjacency forbidden`"));
    assert!(t.variant.overrides.is_empty(), "the old rules are back");
    assert_eq!((t.played.len(), t.undone.len()), (0, 1));
}

#[test]
fn authoring_helpers_moves_of_a_cell_place_with_attributes_options_and_rules_in_words() {
    let mut s = session("checkers");
    assert_eq!(ok(&mut s, "moves c3"), "c3: c3-b4, c3-d4\n");
    assert_eq!(ok(&mut s, "moves d4"), "there is no piece on d4\n");
    let o = ok(&mut s, "options");
    assert!(
        o.contains("move_limit = 0") && o.contains("\n    the position after this many plies is a draw (0 = off)\n"),
        "descriptions: {o}"
    );
    let r = ok(&mut s, "rules");
    assert!(r.starts_with("# English draughts: how the pieces move\n"), "{r}");
    assert!(r.contains("#   man (M/m): steps and jumps diagonally forward"), "{r}");
    let mut l = session("lielow");
    ok(&mut l, "clear");
    let out = ok(&mut l, "place e5 P[0,3]");
    assert!(out.starts_with("put P (crown 0, level 3) on e5"), "{out}");
    assert!(l.pos.to_text(&l.variant.rules).contains("P[0,3]"), "{}", l.pos.to_text(&l.variant.rules));
    let e = l.execute("place d4 p[2]").unwrap_err().to_string();
    assert_eq!(e, "a stack has 2 attributes (crown, level); 1 given");
    assert!(l.execute("place d4 p[x,1]").unwrap_err().to_string().contains("`x` is not an integer"));
}

#[test]
fn eval_hint_and_analyse_say_what_the_machine_thinks_and_change_nothing() {
    use boardlab::Effect;
    let mut s = session("checkers");
    let before = s.pos.to_text(&s.variant.rules);
    let e = s.execute("eval").unwrap().text;
    assert!(e.contains("material") && e.contains("about even"), "{e}");
    let reply = s.execute("hint ab:d3").unwrap();
    assert!(
        matches!(reply.effects.as_slice(), [Effect::Timed { head }] if head.starts_with("ab:d3 suggests ") && head.contains("depth 3") && head.contains("expected line: ")),
        "{reply:?}"
    );
    let a = s.execute("analyse d2 2").unwrap().output(std::time::Duration::from_millis(10));
    assert!(a.starts_with("ab:d2 for white: ") && a.lines().count() == 3, "{a}");
    assert!(a.lines().next().unwrap().ends_with("(0.01 s)"), "the shell times the head line: {a}");
    assert!(s.execute("analyse random").is_err(), "random scores nothing");
    assert_eq!(s.pos.to_text(&s.variant.rules), before, "thinking plays nothing");
    assert!(s.played.is_empty());
    // `ai` says what its search found.
    let reply = s.execute("ai ab:d2").unwrap();
    assert!(matches!(reply.effects.as_slice(), [Effect::Timed { head }] if head.contains(", depth 2, ")), "{reply:?}");
}
