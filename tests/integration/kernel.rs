//! The kernel's part of issue 46: a finished game read back from a FEN or a position text is
//! finished, `extends` does not shadow its base with the variant's own folder, loading errors
//! say what was expected, a continuation tag is checked, `test` prints a broken variant's
//! error once, and the texts a command reads are bounded.

use boardlab::{Position, Session, Style, Variant};

/// Four white discs on the a-file (white moves first): white has won, though a FEN cannot say
/// so. Written by hand: `@a1 @b1 @a2 @b2 @a3 @b3 @a4`.
const C4_FEN: &str = "7/7/D6/Dd5/Dd5/Dd5 b - - 0 4";

#[test]
fn a_finished_connect_four_fen_reads_back_finished() {
    let v = Variant::load("connect-four", &[]).unwrap();
    let describe = |p: &Position| p.result().map(|r| r.describe(&v.rules.player_names));
    let mut pos = Position::from_text(&v.rules, C4_FEN).unwrap();
    assert_eq!(describe(&pos).as_deref(), Some("white wins: four in a row"));
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves).unwrap();
    assert!(moves.is_empty(), "{moves:?}");
    // Three in a row is still a game.
    let pos = Position::from_text(&v.rules, "7/7/7/Dd5/Dd5/Dd5 w - - 0 4").unwrap();
    assert_eq!(describe(&pos), None);
    // The position text of the finished game carries the result, and reads back with it.
    let mut played = v.start();
    v.play_all(&mut played, &["@a1", "@b1", "@a2", "@b2", "@a3", "@b3", "@a4"].map(String::from)).unwrap();
    let text = played.to_text(&v.rules);
    assert_eq!(text, "7/7/D6/Dd5/Dd5/Dd5 black 7 result=\"white wins: four in a row\"");
    assert_eq!(describe(&Position::from_text(&v.rules, &text).unwrap()).as_deref(), Some("white wins: four in a row"));
    // On the command line: no moves listed, and `show` says who won and why.
    let data = crate::scratch("kernel-c4-fen");
    let o = crate::binary(&["moves", "connect-four", "--fen", C4_FEN], "", &data);
    assert!(o.status.success() && o.stdout.is_empty(), "{}", String::from_utf8_lossy(&o.stdout));
    let o = crate::binary(&["show", "connect-four", "--fen", C4_FEN], "", &data);
    assert!(String::from_utf8_lossy(&o.stdout).trim_end().ends_with("white wins: four in a row"), "{}", String::from_utf8_lossy(&o.stdout));
}

/// Dōbutsu FENs: a captured lion (gote has none left, checked by hand from `b2xb3 a4-a3 b3xb4`),
/// and a lion on the far rank that cannot be taken (the "try"), but not one that can.
#[test]
fn a_finished_dobutsu_position_reads_back_finished() {
    let v = Variant::load("dobutsu", &[]).unwrap();
    let result = |t: &str| Position::from_text(&v.rules, t).unwrap().result().map(|r| r.describe(&v.rules.player_names));
    assert_eq!(result("1+Ce/g2/3/ELG[C] b - - 0 2").as_deref(), Some("sente wins: lion captured"));
    assert_eq!(result("L1l/3/3/3 b 0 5").as_deref(), Some("sente wins: the lion reached the far rank"));
    // Gote's lion on b4 takes a lion on a4 at once: no try.
    assert_eq!(result("Ll1/3/3/3 b 0 5"), None);
    assert_eq!(result("gle/1c1/1C1/ELG w 0 1"), None);
}

/// A record replays its moves, so the result comes back with them.
#[test]
fn a_record_of_a_finished_game_restores_the_result() {
    let dir = crate::scratch("kernel-record-result");
    let file = dir.join("won.toml");
    std::fs::write(&file, "variant = \"connect-four\"\nmoves = [\"@a1\", \"@b1\", \"@a2\", \"@b2\", \"@a3\", \"@b3\", \"@a4\"]\n").unwrap();
    let mut s = Session::new("connect-four", &[], Style::PLAIN).unwrap();
    s.execute(&format!("load {}", file.display())).unwrap();
    assert_eq!(s.pos.result().map(|r| r.describe(&s.variant.rules.player_names)).as_deref(), Some("white wins: four in a row"));
}

/// `boardlab new lielow --from lielow` outside a project makes `./lielow/`, which extends the
/// shipped `lielow` (the search skips the folder itself) instead of going round in a circle.
#[test]
fn a_folder_named_like_its_base_extends_the_next_one() {
    let dir = crate::scratch("kernel-new-same-name");
    let data = dir.join("data");
    let o = crate::binary_in(&dir, &["new", "lielow", "--from", "lielow"], "", &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The folder's own change is seen: it is the folder that loads, on top of the shipped one.
    let toml = std::fs::read_to_string(dir.join("lielow/variant.toml")).unwrap();
    std::fs::write(dir.join("lielow/variant.toml"), toml.replace("name = \"lielow\"", "name = \"lielow\"\ntitle = \"My Lielow\"")).unwrap();
    let o = crate::binary_in(&dir, &["check", "lielow", "--resolved"], "", &data);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("My Lielow"), "{out}");
    let o = crate::binary_in(&dir, &["moves", "lielow"], "", &data);
    assert!(o.status.success() && !o.stdout.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = crate::binary_in(&dir, &["test", "lielow"], "", &data);
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
}

/// A continuation tag that is not one word is a script error naming the hook and the script.
#[test]
fn a_continuation_tag_that_is_not_a_word_is_a_script_error() {
    let v = Variant::load("tests/scripted/bad_tag/variant.toml", &[]).unwrap();
    let mut pos = v.start();
    let before = pos.clone();
    let e = v.play(&mut pos, "c3-d4").unwrap_err().to_string();
    assert!(e.contains("hook `after_move`") && e.contains("rules.rhai:3:"), "{e}");
    assert!(e.contains("the tag `move again: now` is not one word"), "{e}");
    assert_eq!(pos, before);
}

/// Perft plays the last ply where the script has an `after_move` hook, so a hook that fails
/// fails the count rather than leaving a plausible number (every mode but the reference's,
/// which plays every leaf anyway).
#[test]
fn perft_runs_the_hooks_of_its_last_ply() {
    let v = Variant::load("tests/scripted/bad_tag/variant.toml", &[]).unwrap();
    let mut pos = v.start();
    assert_eq!(boardlab::perft::perft(&v, &mut pos, 0).unwrap(), 1);
    for general in [false, true] {
        let e = if general { boardlab::perft::perft_general(&v, &mut pos, 1, false) } else { boardlab::perft::perft(&v, &mut pos, 1) };
        let e = e.unwrap_err().to_string();
        assert!(e.contains("hook `after_move`") && e.contains("the tag `move again: now` is not one word"), "{e}");
        assert_eq!(pos, v.start());
    }
}

/// `test` on a variant that does not load says so once, not once per scenario.
#[test]
fn test_prints_a_broken_variants_error_once() {
    let dir = crate::scratch("kernel-test-broken");
    let data = dir.join("data");
    let o = crate::binary_in(&dir, &["new", "mine", "--from", "checkers"], "", &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let toml = std::fs::read_to_string(dir.join("mine/variant.toml")).unwrap();
    std::fs::write(dir.join("mine/variant.toml"), format!("{toml}\n[boardd]\nfiles = 8\n")).unwrap();
    let o = crate::binary_in(&dir, &["test", "mine"], "", &data);
    let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(out.matches("unknown field `boardd`").count(), 1, "{out}");
    assert_eq!(out.matches("does not load").count(), 1, "{out}");
}

/// A long `--moves`, `--position` or `--fen` text: refused past its limit (named), and an
/// error quotes at most about 80 characters of it, never the whole text.
#[test]
fn long_texts_are_bounded_and_quoted_short() {
    let data = crate::scratch("kernel-long-texts");
    let long = "z".repeat(100_000);
    let run = |args: &[&str]| {
        let o = crate::binary(args, "", &data);
        (o.status.code(), String::from_utf8_lossy(&o.stderr).to_string())
    };
    // One 100 kB move: its start and its length, not the move.
    let (code, err) = run(&["moves", "chess", "--moves", &long]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.len() < 400 && err.contains("(100000 characters)"), "{} bytes: {}", err.len(), &err[..err.len().min(300)]);
    // Past the position text's limit: refused with the limit, before it is read.
    let (code, err) = run(&["moves", "chess", "--position", &long]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.len() < 400 && err.contains("the limit is 65536 bytes"), "{}", &err[..err.len().min(300)]);
    // Within the limit, a wrong field is quoted short.
    let field = "q".repeat(60_000);
    let (code, err) = run(&["moves", "chess", "--position", &format!("8/8/8/8/8/8/8/8 white 0 {field}")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.len() < 400 && err.contains("(60000 characters)` is not a key=value field"), "{}", &err[..err.len().min(300)]);
    let (code, err) = run(&["moves", "chess", "--fen", &format!("8/8/8/8/8/8/8/8 {field} - - 0 1")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.len() < 400 && err.contains("(60000 characters)`"), "{}", &err[..err.len().min(300)]);
}

/// A scenario file that never ends (`/dev/zero`) stops at the limit and fails with it.
#[cfg(unix)]
#[test]
fn an_endless_scenario_file_stops_at_the_limit() {
    let dir = crate::scratch("kernel-endless-scenario");
    let data = dir.join("data");
    let o = crate::binary_in(&dir, &["new", "mine", "--from", "tic-tac-toe"], "", &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::os::unix::fs::symlink("/dev/zero", dir.join("mine/scenarios/zero.toml")).unwrap();
    let o = crate::binary_in(&dir, &["test", "mine"], "", &data);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("zero.toml: larger than 1 MiB, the most boardlab reads here"), "{out}");
}
