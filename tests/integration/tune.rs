//! `boardlab tune` from the command line: the report is the same for any number of threads, the
//! numbers go into a copy of a variant with its comments kept (and the copy then loads and plays
//! in the arena against the defaults, `ENGINE@eval=FILE`), and bad input is refused: a variant
//! built in, an unknown name to keep, bad counts, an evaluation file of another game.

const TUNE: [&str; 10] = ["tune", "breakthrough", "--games", "20", "--engine", "ab:d1", "--random-plies", "2", "--set", "move_limit=200"];

fn run(args: &[&str], data: &std::path::Path) -> std::process::Output {
    crate::binary(args, "", data)
}

/// The report without its one line that depends on the machine (the seconds taken).
fn without_time(t: &str) -> String {
    t.lines().map(|l| l.rsplit_once(", ").filter(|(_, s)| s.ends_with(" s")).map_or(l, |(head, _)| head)).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_report_is_the_same_for_any_number_of_threads() {
    let data = crate::scratch("tune-threads");
    let one = run(&[&TUNE[..], &["--threads", "1"]].concat(), &data);
    let two = run(&[&TUNE[..], &["--threads", "2"]].concat(), &data);
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    let (one, two) = (String::from_utf8(one.stdout).unwrap(), String::from_utf8(two.stdout).unwrap());
    assert_eq!(without_time(&one), without_time(&two));
    for part in
        ["tuned on 20 games of ab:d1 against itself", "unit: pawn = 100", "weight mobility", "held-out positions", "[ai.eval]", "--write"]
    {
        assert!(one.contains(part), "{part}: {one}");
    }
}

#[test]
fn write_keeps_the_file_and_the_copy_plays_against_the_defaults() {
    let data = crate::scratch("tune-write");
    let dir = data.join("bt");
    std::fs::create_dir_all(&dir).unwrap();
    let old = std::fs::read_to_string(crate::root().join("variants/breakthrough/variant.toml")).unwrap();
    let old = format!("# My notes.\n{}", old.replacen("files = 8", "files = 8 # wide enough", 1));
    std::fs::write(dir.join("variant.toml"), &old).unwrap();
    let spec = dir.to_str().unwrap();
    let mut args = TUNE.to_vec();
    args[1] = spec;
    let o = run(&[&args[..], &["--write"]].concat(), &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("(written into "), "{}", String::from_utf8_lossy(&o.stdout));
    let new = std::fs::read_to_string(dir.join("variant.toml")).unwrap();
    assert!(new.starts_with(&old) && new[old.len()..].starts_with("\n[ai.eval]\nweights = { progress = "), "{new}");
    assert!(run(&["check", spec], &data).status.success());
    // The tuned copy against the defaults: an engine with the copy's evaluation.
    let eval = format!("ab:d1@eval={spec}");
    let a = run(&["arena", "breakthrough", &eval, "ab:d1", "--games", "2", "--seed", "1", "--random-plies", "2"], &data);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(String::from_utf8_lossy(&a.stdout).contains(&format!("{eval} – ab:d1")), "{}", String::from_utf8_lossy(&a.stdout));
    // Another game's file is refused before any game.
    let a = run(&["arena", "breakthrough", "ab:d1@eval=checkers", "ab:d1", "--games", "2", "--seed", "1"], &data);
    assert_eq!(a.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&a.stderr).contains("its rules are not the game's"), "{}", String::from_utf8_lossy(&a.stderr));
}

#[test]
fn bad_input_is_refused() {
    let data = crate::scratch("tune-bad");
    let fails = |args: &[&str], code: i32, says: &str| {
        let o = crate::binary_in(&data, args, "", &data);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    };
    // From a folder with no variants/ in it, `breakthrough` is the one built in.
    fails(&[&TUNE[..], &["--write"]].concat(), 1, "built into boardlab and cannot be written");
    fails(&[&TUNE[..], &["--keep", "bishop"]].concat(), 2, "--keep bishop: not a piece kind nor an evaluation term");
    fails(&["tune", "breakthrough", "--games", "0"], 2, "--games");
    fails(&["tune", "breakthrough", "--engine", "minimax"], 2, "--engine");
    fails(&["tune", "breakthrough", "--write", "--dry-run"], 2, "cannot be used with");
    fails(&["tune", "no-such-game"], 2, "unknown variant");
}

#[test]
fn ctrl_c_fits_on_the_games_finished_and_writes_nothing() {
    use std::time::Duration;
    let data = crate::scratch("tune-interrupt");
    let dir = data.join("bt");
    std::fs::create_dir_all(&dir).unwrap();
    let old = std::fs::read_to_string(crate::root().join("variants/breakthrough/variant.toml")).unwrap();
    std::fs::write(dir.join("variant.toml"), &old).unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["tune", dir.to_str().unwrap(), "--games", "100000", "--random-plies", "2", "--threads", "2", "--write"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // The games stop at once and the fit is quick; a run that did not stop is ended.
    let o = crate::interrupt(child, Duration::from_secs(60));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("(interrupted: the games finished before Ctrl-C only)") && out.contains("(not written: interrupted)"), "{out}");
    assert!(out.contains("weight mobility"), "{out}");
    assert_eq!(std::fs::read_to_string(dir.join("variant.toml")).unwrap(), old);
}
