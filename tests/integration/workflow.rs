//! The designer's workflow through the binary, on a temporary folder (no nested cargo):
//! `new`, `test` (a changed snapshot fails with a diff, `--accept` records it), `diff`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardlab")).args(args).current_dir(dir).env("NO_COLOR", "1").output().unwrap()
}

fn out(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn new_test_accept() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("workflow-new-test-accept");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let o = run(&dir, &["new", "mine", "--from", "basileus"]);
    assert!(o.status.success(), "{}", out(&o));
    let o = run(&dir, &["test", "mine"]);
    assert!(o.status.success(), "{}", out(&o));
    assert!(out(&o).contains(" passed, 0 failed"), "{}", out(&o));
    // Change a snapshot on purpose: the test fails and shows the difference.
    let snap = dir.join("mine/scenarios/snapshots/start.snap");
    let text = std::fs::read_to_string(&snap).unwrap().replace("legal moves (34)", "legal moves (35)");
    std::fs::write(&snap, text).unwrap();
    let o = run(&dir, &["test", "mine"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let report = out(&o);
    assert!(
        report.contains("FAIL ./mine/scenarios/start.toml: the snapshot changed")
            || report.contains("FAIL mine/scenarios/start.toml: the snapshot changed"),
        "{report}"
    );
    assert!(report.contains("-legal moves (35)") && report.contains("+legal moves (34)"), "{report}");
    let o = run(&dir, &["test", "mine", "--accept"]);
    assert!(o.status.success(), "{}", out(&o));
    let o = run(&dir, &["test", "mine"]);
    assert!(o.status.success(), "{}", out(&o));
    // Flip an option: the scenarios it touches now differ.
    let vt = dir.join("mine/variant.toml");
    let text = std::fs::read_to_string(&vt).unwrap() + "\n[options.king_adjacency]\ndefault = \"loss_after_any_move\"\n";
    std::fs::write(&vt, text).unwrap();
    let o = run(&dir, &["test", "mine"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("king_adjacency_step.toml: the snapshot changed"), "{}", out(&o));
}

#[test]
fn diff_finds_differences_and_none_against_itself() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for v in ["basileus", "checkers", "pyramida"] {
        let o = run(&dir, &["diff", v, v, "--games", "5", "--depth", "3", "--max-positions", "3000"]);
        assert!(o.status.success(), "{}", out(&o));
        assert!(out(&o).starts_with(&format!("{v} and {v}: no differences in ")), "{}", out(&o));
    }
    let o = run(&dir, &["diff", "lielow", "lielow-ludii", "--games", "3", "--max-positions", "2000"]);
    let report = out(&o);
    assert!(report.contains("positions differ"), "{report}");
    assert!(report.contains("only in A: a2-off, h2-off") && report.contains("a2-off:w"), "{report}");
    let o = run(&dir, &["diff", "basileus", "basileus", "--set-b", "king_adjacency=forbidden", "--games", "10", "--max-positions", "3000"]);
    let report = out(&o);
    assert!(report.starts_with("A = basileus, B = basileus (king_adjacency=forbidden)\n"), "{report}");
    assert!(report.contains("positions differ"), "{report}");
}

/// What a move does is compared, not only which moves are legal: Pyramida's extra move after
/// a stone lands next to its own (d1-c2 from the start) is gone in pyramida-calm.
#[test]
fn diff_plays_the_moves_under_both_rule_sets() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let o = run(&dir, &["diff", "pyramida", "pyramida-calm", "--games", "5", "--depth", "1", "--all"]);
    let report = out(&o);
    assert!(o.status.success(), "{report}");
    let first = report.split("\n\n").nth(1).unwrap_or("");
    assert!(
        first
            .starts_with("1. after a stone's move: A gives the mover another decision (`extra_move`), B passes the turn to the opponent\n"),
        "{report}"
    );
    assert!(first.contains("\n   at the start\n   the move: d1-c2\n   A: white decides (`extra_move`); B: black to move\n"), "{first}");
    // Without --all, the rest are counted, not dropped silently.
    let o = run(&dir, &["diff", "pyramida", "pyramida-calm", "--games", "5", "--depth", "1", "--limit", "1"]);
    assert!(out(&o).contains("more kind"), "{}", out(&o));
    // Bivouac's compulsory-maximal sibling refuses the moves a capture makes illegal.
    let o = run(&dir, &["diff", "bivouac", "hostile-bivouac", "--games", "20", "--depth", "2", "--max-positions", "4000"]);
    let report = out(&o);
    assert!(report.contains("a token's move: legal in A, not in B"), "{report}");
    assert!(report.contains("a token's capture: legal in A, not in B"), "{report}");
}

/// A hook that changes where a move leads (a man crowned on the far rank turned back into a
/// man) is a difference, though both rule sets allow exactly the same moves.
#[test]
fn diff_sees_what_a_hook_does_to_the_position() {
    let dir = crate::scratch("diff-hook");
    std::fs::write(dir.join("variant.toml"), "extends = \"checkers\"\nname = \"uncrowned\"\nscript = \"rules.rhai\"\n").unwrap();
    std::fs::write(
        dir.join("rules.rhai"),
        "fn after_move(m) {\n    if m.to != () && m.kind == \"man\" && kind(m.to) == \"king\" {\n        remove(m.to);\n        place(m.to, \"man\", m.player);\n    }\n}\n",
    )
    .unwrap();
    // Random games reach the far rank.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let o = run(&root, &["diff", "checkers", dir.to_str().unwrap(), "--games", "30", "--depth", "2"]);
    let report = out(&o);
    assert!(o.status.success(), "{report}");
    assert!(report.contains("after a man's move: on the landing cell A leaves the mover's king, B the mover's man"), "{report}");
}

/// One resolver: in an empty folder (as after `cargo install`), a variant made by `new` is found
/// by its plain name by every command, listed by `list`, and its game resumes from elsewhere.
#[test]
fn a_new_variant_is_found_by_name_everywhere() {
    let dir = crate::scratch("resolver");
    let (work, other, data) = (dir.join("work"), dir.join("elsewhere"), dir.join("data"));
    for d in [&work, &other] {
        std::fs::create_dir_all(d).unwrap();
    }
    let run_in = |at: &PathBuf, args: &[&str], input: &str| {
        let o = crate::binary_in(at, args, input, &data);
        assert!(o.status.success(), "{args:?}: {}", out(&o));
        out(&o)
    };
    run_in(&work, &["new", "mygame", "--from", "basileus"], "");
    assert!(run_in(&work, &["check", "mygame"], "").contains("ok"));
    assert!(run_in(&work, &["moves", "mygame"], "").contains("e2-e3"));
    assert!(run_in(&work, &["play", "mygame"], "e2-e3\nposition\n").contains(" black 1"));
    assert!(run_in(&work, &["selfplay", "mygame", "--games", "2"], "").contains("mygame: 2 games"));
    assert!(run_in(&work, &["test", "mygame"], "").contains("passed"));
    let list = run_in(&work, &["list"], "");
    assert!(list.lines().any(|l| l.starts_with("mygame ") && l.trim_end().ends_with(" .")), "{list}");
    assert!(list.lines().any(|l| l.starts_with("checkers ") && l.contains("shipped")), "{list}");
    // From another folder: the autosave names the variant's folder, so it resumes there too.
    let pos = run_in(&other, &["play", "--resume"], "position\nhistory\n");
    assert!(pos.contains(" black 1") && pos.contains("e2-e3"), "{pos}");
    // A typo names what exists.
    let o = Command::new(env!("CARGO_BIN_EXE_boardlab")).args(["check", "mygam"]).current_dir(&work).output().unwrap();
    assert!(!o.status.success());
    assert!(out(&o).contains("mygame"), "{}", out(&o));
    // $BOARDLAB_PATH finds it from anywhere by name.
    let o = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["moves", "mygame"])
        .current_dir(&other)
        .env("BOARDLAB_PATH", &work)
        .output()
        .unwrap();
    assert!(o.status.success() && out(&o).contains("e2-e3"), "{}", out(&o));
}

/// docs/scenarios.md shows what the binary prints for the designer's loop (it drifted once).
#[test]
fn the_designers_loop_in_the_docs_is_what_the_binary_prints() {
    let dir = crate::scratch("docs-loop");
    let docs = std::fs::read_to_string(crate::root().join("docs/scenarios.md")).unwrap();
    let created = out(&run(&dir, &["new", "mybasileus", "--from", "basileus"]));
    assert!(docs.contains(created.trim_end()), "docs/scenarios.md should show: {created}");
    let passed = out(&run(&dir, &["test", "mybasileus"]));
    assert!(docs.contains(&format!("$ boardlab test mybasileus\n{}", passed.trim_end())), "docs/scenarios.md should show: {passed}");
    let vt = dir.join("mybasileus/variant.toml");
    let text = std::fs::read_to_string(&vt).unwrap() + "\n[options.king_adjacency]\ndefault = \"forbidden\"\n";
    std::fs::write(&vt, text).unwrap();
    let o = run(&dir, &["test", "mybasileus"]);
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(docs.contains(stdout.trim_end()), "docs/scenarios.md should show:\n{stdout}");
}
