//! Every input has a limit and a clear error, never a crash or a hang: perft depths, variant and
//! script files that are not regular files, a script that prints without end.

use boardlab::{Session, Style, Variant};
use std::process::Command;
use std::time::{Duration, Instant};

/// A variant folder extending checkers with the given extra TOML lines and script.
fn variant(name: &str, toml: &str, script: Option<&str>) -> crate::Scratch {
    let dir = crate::scratch(&format!("limits-{name}"));
    std::fs::write(dir.join("variant.toml"), format!("name = \"{name}\"\nextends = \"checkers\"\n{toml}")).unwrap();
    if let Some(s) = script {
        std::fs::write(dir.join("rules.rhai"), s).unwrap();
    }
    dir
}

#[test]
fn perft_depth_is_bounded() {
    let t = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_boardlab")).args(["perft", "checkers", "100000"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("100000") && err.contains("0..=64"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(2));
    let mut s = Session::new("checkers", &[], Style::PLAIN).unwrap();
    let e = s.execute("perft 70000").unwrap_err().to_string();
    assert_eq!(e, "perft depth 70000 is too deep; the limit is 64");
}

#[test]
fn a_script_that_is_not_a_regular_file_is_refused() {
    let dir = variant("devzero", "script = \"/dev/zero\"\n", None);
    let t = Instant::now();
    let e = Variant::load(dir.to_str().unwrap(), &[]).err().expect("refused").render_plain();
    assert!(e.contains("cannot read the script `/dev/zero`: not a regular file"), "{e}");
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn script_output_is_capped() {
    let script = "fn after_move(m) { for i in 0..100000 { print(i); } }";
    let dir = variant("chatty", "script = \"rules.rhai\"\n", Some(script));
    let v = Variant::load(dir.to_str().unwrap(), &[]).unwrap();
    let mut pos = v.start();
    v.play(&mut pos, "c3-d4").unwrap();
    let out = v.take_output();
    assert_eq!(out.len(), 1001);
    assert_eq!(out[999], "999");
    assert_eq!(out[1000], "… 99000 more lines cut (a script prints at most 1000 lines at a time)");
    assert!(v.take_output().is_empty(), "taking the output empties it");
}

#[test]
fn a_filter_hook_cannot_change_the_game() {
    let script = "fn allow_move(m) { remove(m.from); true }";
    let dir = variant("writer", "script = \"rules.rhai\"\n", Some(script));
    let v = Variant::load(dir.to_str().unwrap(), &[]).unwrap();
    let mut pos = v.start();
    let before = pos.clone();
    let e = v.legal_moves(&mut pos, &mut Vec::new()).unwrap_err().to_string();
    assert!(e.contains("hook `allow_move`") && e.contains("may only read it"), "{e}");
    assert_eq!(pos, before, "what the hook wrote is undone");
}

#[test]
fn save_does_not_overwrite_what_is_not_a_record() {
    let dir = variant("savetarget", "", None);
    let target = dir.join("variant.toml");
    let before = std::fs::read_to_string(&target).unwrap();
    let mut s = Session::new("checkers", &[], Style::PLAIN).unwrap();
    s.execute("c3-d4").unwrap();
    let e = s.execute(&format!("save {}", target.display())).unwrap_err().to_string();
    assert!(e.contains("is not a boardlab game record") && e.contains("--force"), "{e}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), before);
    // A record may be overwritten, and --force overwrites anything.
    let reply = s.execute(&format!("save {} --force", target.display())).unwrap();
    boardlab::repl::perform(&reply).unwrap();
    assert!(std::fs::read_to_string(&target).unwrap().starts_with("# boardlab game record"));
    let reply = s.execute(&format!("save {}", target.display())).unwrap();
    boardlab::repl::perform(&reply).unwrap();
    // Records are regular files of bounded size.
    let e = s.execute("load /dev/zero").unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn new_refuses_names_that_are_not_plain_folder_names() {
    for bad in ["", "../escape", "a/b", "-x", "with space", "x\"y"] {
        let e = boardlab::workflow::new_variant(bad, "checkers").unwrap_err().to_string();
        assert!(e.contains("is not a variant name"), "{bad:?}: {e}");
    }
}

#[test]
fn every_change_is_saved_before_the_next_command() {
    use std::io::Write;
    let data = crate::scratch("limits-killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["play", "checkers"])
        .env("BOARDLAB_DATA_DIR", &*data)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "a3-b4\nh6-g5\nback 1").unwrap();
    input.flush().unwrap();
    // The game is on disk while the process still waits for input; then it is killed (-9).
    let t = Instant::now();
    let saved = loop {
        let autosave = std::fs::read_dir(data.join("autosaves"))
            .ok()
            .and_then(|mut d| d.find_map(|e| Some(e.ok()?.path()).filter(|p| p.extension().is_some_and(|x| x == "toml"))));
        let text = autosave.map(|p| std::fs::read_to_string(p).unwrap_or_default()).unwrap_or_default();
        if text.contains("cursor = 1") || t.elapsed() > Duration::from_secs(10) {
            break text;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    drop(input);
    assert!(saved.contains("moves = [\"a3-b4\", \"h6-g5\"]") && saved.contains("cursor = 1"), "{saved}");
    // Resuming gives the game at its cursor, with the ply ahead still there.
    let rec = boardlab::Record::parse(&saved).unwrap();
    let mut s = Session::from_record(&rec, Style::PLAIN).unwrap();
    assert_eq!((s.played.len(), s.undone.len()), (1, 1));
    s.execute("forward").unwrap();
    assert_eq!(s.pos.ply(), 2);
}

#[test]
fn two_sessions_keep_two_games() {
    let data = crate::scratch("limits-two");
    let play = |args: &[&str], input: &str| {
        let o = crate::binary(args, input, &data);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    play(&["play", "checkers"], "c3-d4\n");
    play(&["play", "basileus"], "e2-e3\n");
    let list = play(&["play", "--resume", "list"], "");
    assert!(list.contains("  1. ") && list.contains("basileus, 1 moves"), "{list}");
    assert!(list.contains("  2. ") && list.contains("checkers, 1 moves"), "{list}");
    assert!(play(&["play", "--resume"], "position\n").contains("black 1"));
    let older = play(&["play", "--resume", "2"], "history\n");
    assert!(older.contains("11-15"), "{older}"); // c3-d4, numbered
}

/// The 20-jump snake of `tests/limits/long_chain`, as the one legal move.
const SNAKE: &str = "a1xc1xe1xg1xi1xk1xk3xi3xg3xe3xc3xa3xa5xc5xe5xg5xi5xk5xk7xi7xg7";

#[test]
fn a_capture_chain_of_20_jumps_is_one_whole_move() {
    let t = Instant::now();
    for removal in ["end_of_chain", "immediate"] {
        let v = Variant::load("tests/limits/long_chain", &[("removal".into(), removal.into())]).unwrap();
        let mut pos = v.start();
        let mut moves = Vec::new();
        v.legal_moves(&mut pos, &mut moves).unwrap();
        let texts: Vec<String> = moves.iter().map(|m| m.text(&v.rules.geometry)).collect();
        assert_eq!(texts, vec![SNAKE.to_string()], "{removal}");
        assert_eq!(moves[0].captures(), 20);
        // Played, it takes all 20 men; undone, they are all back.
        let before = pos.clone();
        let m = v.play(&mut pos, SNAKE).unwrap();
        assert_eq!(m, moves[0]);
        assert_eq!(pos.counts()[boardlab::Player::SECOND], 0);
        assert_eq!(pos.to_text(&v.rules).split(' ').next().unwrap(), "11/11/11/11/6M4/11/11/11/11/11/11");
        pos.undo();
        assert_eq!(pos, before);
        // Stopping short is refused with the rule's reason.
        let e = v.play(&mut pos, &SNAKE[..SNAKE.len() - 3]).unwrap_err().to_string();
        assert!(e.contains("must go on") && e.contains(SNAKE), "{e}");
    }
    // With may_stop every prefix is a move of its own: 20 moves, 4 of them longer than 16.
    let v = Variant::load("tests/limits/long_chain", &[("chain".into(), "may_stop".into())]).unwrap();
    let mut moves = Vec::new();
    v.legal_moves(&mut v.start(), &mut moves).unwrap();
    let mut lens: Vec<usize> = moves.iter().map(|m| m.landings().len()).collect();
    lens.sort();
    assert_eq!(lens, (1..=20).collect::<Vec<_>>());
    assert!(moves.iter().all(|m| SNAKE.starts_with(&m.text(&v.rules.geometry))));
    // The command line prints it whole.
    let o = Command::new(env!("CARGO_BIN_EXE_boardlab")).args(["moves", "tests/limits/long_chain"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{SNAKE}\n"));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn three_hundred_direction_vectors_each_keep_their_own_target() {
    // Steps along 300 distinct vectors from m13 on a 26×26 board: every vector its own landing
    // (vectors are numbered with 16 bits; 8 bits wrapped the 257th round onto the first).
    let vectors: Vec<(i32, i32)> = (-15..15).flat_map(|dx| (1..=10).map(move |dy| (dx, dy))).collect();
    assert_eq!(vectors.len(), 300);
    let list: Vec<String> = vectors.iter().map(|(dx, dy)| format!("[{dx}, {dy}]")).collect();
    let toml = format!(
        "name = \"many-vectors\"\n[board]\nfiles = 26\nranks = 26\n[pieces.rider]\nsymbol = \"R\"\nmoves = [{{ step = [{}] }}]\n\
         [setup.pieces.white]\nrider = [\"m13\"]\n[setup.pieces.black]\nrider = [\"a1\"]\n",
        list.join(", ")
    );
    let dir = crate::scratch("limits-vectors");
    std::fs::write(dir.join("variant.toml"), toml).unwrap();
    let t = Instant::now();
    let v = Variant::load(dir.to_str().unwrap(), &[]).unwrap();
    let mut moves = Vec::new();
    v.legal_moves(&mut v.start(), &mut moves).unwrap();
    let mut got: Vec<String> = moves.iter().map(|m| m.text(&v.rules.geometry)).collect();
    got.sort();
    let mut want: Vec<String> = vectors
        .iter()
        .filter(|(dx, _)| (0..26).contains(&(12 + dx)))
        .map(|(dx, dy)| format!("m13-{}{}", (b'a' + (12 + dx) as u8) as char, 13 + dy))
        .collect();
    want.sort();
    assert_eq!(got.len(), 260);
    assert_eq!(got, want);
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn integers_a_script_hands_over_are_range_checked() {
    let toml = "script = \"rules.rhai\"\n[counters]\ntaken = 0\n[pieces.man]\nsymbol = \"M\"\nattributes = { level = 1 }\n\
                moves = [{ step = \"forward_diagonal\" }, { jump = \"forward_diagonal\" }]\n\
                promote = { to = \"king\", zone = \"far_rank\", ends_chain = true }\n\
                effects = [{ attribute = \"level\", add = 2147483647 }]\n";
    let script = "fn after_move(m) {\n\
                  \x20   if m.to == \"d4\" { set_attr(m.to, \"level\", 1099511627776); }\n\
                  \x20   if m.to == \"b4\" { set_counter(m.player, \"taken\", -1099511627776); }\n\
                  \x20   if cell(1099511627777, 1) != () || cell(-9223372036854775808, 1) != () { throw \"a far point is a cell\"; }\n\
                  }\n";
    let dir = variant("bigints", toml, Some(script));
    let v = Variant::load(dir.to_str().unwrap(), &[]).unwrap();
    let mut pos = v.start();
    let before = pos.clone();
    let t = Instant::now();
    let e = v.play(&mut pos, "c3-d4").unwrap_err().to_string();
    assert!(e.contains("hook `after_move`") && e.contains("rules.rhai:2:") && e.contains("while playing c3-d4"), "{e}");
    assert!(e.contains("set_attr: 1099511627776 is out of range; values are integers from -2147483648 to 2147483647"), "{e}");
    assert_eq!(pos, before, "the game is as it was");
    let e = v.play(&mut pos, "a3-b4").unwrap_err().to_string();
    assert!(
        e.contains("hook `after_move`") && e.contains("rules.rhai:3:") && e.contains("set_counter: -1099511627776 is out of range"),
        "{e}"
    );
    assert_eq!(pos, before);
    // Far points are no cells (not cut back onto the board); an effect stops at the 32-bit limit.
    v.play(&mut pos, "e3-f4").unwrap();
    let level = v.rules.attribute_slot("level").unwrap();
    assert_eq!(pos.attr(v.rules.geometry.parse_cell("f4").unwrap().0, level), i32::MAX);
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn moves_a_script_adds_are_checked() {
    let cases = [
        ("a1-a5", ""),
        ("b4-c5", "b4 is empty: a move starts on a piece of white, the side to move"),
        ("b6-a5", "b6 holds black's man: a move starts on a piece of white, the side to move"),
        ("c3-d2", "d2 holds white's man: a landing written with `-` is an empty cell (`x` captures)"),
        ("c3-c3", "c3 is where the move starts: a move leaves its cell"),
        ("c3xd4", "d4 is empty: each landing written with `x` takes the enemy piece standing there"),
        ("c3xd2", "d2 holds white's man, not an enemy piece: a capture takes the opponent's pieces"),
        ("c3xb6xb6", "b6 is taken twice"),
        ("c3-c9", "c9 is not on the board"),
    ];
    let values: Vec<String> = (0..cases.len()).map(|i| format!("\"m{i}\"")).collect();
    let arms: Vec<String> = cases.iter().enumerate().map(|(i, (t, _))| format!("        \"m{i}\" => [\"{t}\", \"c3-d4\"],")).collect();
    let toml = format!("script = \"rules.rhai\"\n[options.bad]\nvalues = [{}]\n", values.join(", "));
    let script = format!(
        "// one move the rules cannot play per option value\n\nfn generate_moves() {{\n    switch option(\"bad\") {{\n{}\n    }}\n}}\n",
        arms.join("\n")
    );
    let dir = variant("generated", &toml, Some(&script));
    let path = dir.to_str().unwrap();
    let t = Instant::now();
    for (i, (text, why)) in cases.iter().enumerate() {
        let v = Variant::load(path, &[("bad".into(), format!("m{i}"))]).unwrap();
        let mut pos = v.start();
        let before = pos.clone();
        let mut moves = Vec::new();
        let r = v.legal_moves(&mut pos, &mut moves);
        assert_eq!(pos, before, "{text}: the position is as it was");
        if why.is_empty() {
            // A good move is added; c3-d4, which the rules list already, is not added twice.
            r.unwrap();
            assert_eq!(moves.len(), 8);
            assert_eq!(moves.iter().filter(|m| m.text(&v.rules.geometry) == "c3-d4").count(), 1);
            v.play(&mut pos, text).unwrap();
            continue;
        }
        let e = r.unwrap_err().to_string();
        let want = format!("rules.rhai:3:1) while listing moves: returned `{text}`: {why}");
        assert!(e.starts_with("hook `generate_moves` (") && e.contains(&want), "{e}\nwanted {want}");
        // In the REPL, a move fails with that error and the game stays as it was.
        let mut s = Session::new(path, &[("bad".into(), format!("m{i}"))], Style::PLAIN).unwrap();
        let e = s.execute("c3-d4").unwrap_err().to_string();
        assert!(e.contains(&want), "{e}");
        assert_eq!((s.pos.ply(), s.played.len()), (0, 0));
    }
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}
