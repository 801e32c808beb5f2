//! Records in other programs' formats (docs/protocols.md): `selfplay --pgn/--pdn`, `convert`,
//! the REPL's `save`/`load` of .pgn and .pdn files, and moves shown in the variant's notation.
//! (scripts/records_test.py has python-chess and pydraughts read the same files.)

use boardlab::{Session, Style};

fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn selfplay_writes_every_game_as_pgn_and_pdn() {
    let dir = crate::scratch("records-selfplay");
    for (variant, ext, tag) in [("chess", "pgn", "[Result \""), ("checkers", "pdn", "[GameType \"21\"]")] {
        let file = dir.join(format!("games.{ext}"));
        let f = file.to_str().unwrap();
        let flag = format!("--{ext}");
        ok(&crate::binary(&["selfplay", variant, "--games", "3", "--threads", "1", "--set", "move_limit=60", &flag, f], "", &dir));
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(text.matches(tag).count(), 3, "{text}");
        assert_eq!(text.matches("[Round \"").count(), 3);
        // Every game reads back: convert to PGN/PDN again gives the same text.
        let again = dir.join(format!("again.{ext}"));
        ok(&crate::binary(&["convert", f, again.to_str().unwrap()], "", &dir));
        let back = std::fs::read_to_string(&again).unwrap();
        assert_eq!(back.matches(tag).count(), 3);
        let moves = |t: &str| t.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join("\n");
        assert_eq!(moves(&back), moves(&text));
    }
}

#[test]
fn convert_between_records() {
    let dir = crate::scratch("records-convert");
    let rec = dir.join("game.toml");
    std::fs::write(&rec, "variant = \"chess\"\nmoves = [\"e2-e4\", \"e7-e5\", \"g1-f3\", \"b8-c6\", \"f1-b5\", \"a7-a6\", \"O-O\"]\n")
        .unwrap();
    let pgn = dir.join("game.pgn");
    ok(&crate::binary(&["convert", rec.to_str().unwrap(), pgn.to_str().unwrap()], "", &dir));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O *\n"), "{text}");
    let back = dir.join("back.toml");
    ok(&crate::binary(&["convert", pgn.to_str().unwrap(), back.to_str().unwrap()], "", &dir));
    let back = std::fs::read_to_string(&back).unwrap();
    assert!(back.contains("moves = [\"e2-e4\", \"e7-e5\", \"g1-f3\", \"b8-c6\", \"f1-b5\", \"a7-a6\", \"O-O\"]"), "{back}");
    // A file of two games does not fit one record; a bad move says where it is.
    let out = dir.join("out.toml");
    let out = out.to_str().unwrap();
    std::fs::write(&pgn, "1. e4 *\n\n1. d4 *\n").unwrap();
    let o = crate::binary(&["convert", pgn.to_str().unwrap(), out], "", &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds 2 games"));
    std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 e5\n2. Qh5 Ke6 *\n").unwrap();
    let o = crate::binary(&["convert", pgn.to_str().unwrap(), out], "", &dir);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(err.contains("line 4, column 8: move 4 (`Ke6`)"), "{err}");
    std::fs::write(&pgn, "1. e4 {open\n").unwrap();
    let err = String::from_utf8_lossy(&crate::binary(&["convert", pgn.to_str().unwrap(), out], "", &dir).stderr).to_string();
    assert!(err.contains("line 1, column 7: a comment `{` that is never closed"), "{err}");
}

#[test]
fn the_repl_saves_and_loads_pgn_and_pdn() {
    let dir = crate::scratch("records-repl");
    let mut s = Session::new("checkers", &[], Style::PLAIN).unwrap();
    for m in ["11-15", "22-18", "15x22"] {
        s.execute(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // A cell completed to its one move says which, numbered.
    let mut d = Session::new("checkers", &[], Style::PLAIN).unwrap();
    assert!(d.execute("a3").unwrap().text.starts_with("played 12-16\n"));
    // Shown numbered: the history, and the forced recapture among the moves.
    assert_eq!(s.execute("history").unwrap().text, "  1. 11-15 22-18\n  2. 15x22\n");
    assert!(s.execute("moves").unwrap().text.contains("25x18"));
    let file = dir.join("g.pdn");
    let reply = s.execute(&format!("save {}", file.display())).unwrap();
    let boardlab::Effect::Write { contents, .. } = &reply.effects[0] else { panic!("{:?}", reply.effects) };
    assert!(contents.contains("[GameType \"21\"]") && contents.contains("1. 11-15 22-18 2. 15x22 *"), "{contents}");
    std::fs::write(&file, contents).unwrap();
    let mut t = Session::new("chess", &[], Style::PLAIN).unwrap();
    t.execute(&format!("load {}", file.display())).unwrap();
    assert_eq!((t.variant.name(), t.played.len()), ("checkers", 3));
    assert_eq!(t.pos, s.pos);
    // A chess game by SAN; the REPL answers a typed move in SAN, and `load` of a bad file
    // leaves the game as it was.
    let mut c = Session::new("chess", &[], Style::PLAIN).unwrap();
    assert!(!c.execute("e2-e4").unwrap().text.contains("played"));
    assert!(!c.execute("e5").unwrap().text.contains("played"));
    assert_eq!(c.execute("history").unwrap().text, "  1. e4 e5\n");
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "1. e4 e5 2. Ke3 *\n").unwrap();
    let before = c.pos.clone();
    let e = c.execute(&format!("load {}", bad.display())).unwrap_err().to_string();
    assert!(e.contains("line 1, column 13: move 3 (`Ke3`)"), "{e}");
    assert_eq!(c.pos, before);
}

#[test]
fn connect_four_takes_a_column_letter() {
    let mut s = Session::new("connect-four", &[], Style::PLAIN).unwrap();
    for _ in 0..6 {
        s.execute("d").unwrap();
    }
    assert!(s.execute("d").unwrap_err().to_string().contains("column d takes no piece now"));
    assert_eq!(s.played.len(), 6);
    let o = crate::binary(&["position", "connect-four", "--moves", "a b c"], "", &crate::scratch("records-c4"));
    assert!(ok(&o).starts_with("7/7/7/7/7/DdD4 "), "{}", String::from_utf8_lossy(&o.stdout));
}
