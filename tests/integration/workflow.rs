//! The designer's workflow through the binary, on a temporary folder (no nested cargo):
//! `new`, `test` (a changed snapshot fails with a diff, `--accept` records it), `diff`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(dir: &PathBuf, args: &[&str]) -> Output {
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
    let o = run(&dir, &["diff", "basileus", "basileus", "--games", "5"]);
    assert!(o.status.success(), "{}", out(&o));
    assert!(out(&o).starts_with("no differences in "), "{}", out(&o));
    let o = run(&dir, &["diff", "lielow", "lielow-ludii", "--games", "3"]);
    let report = out(&o);
    assert!(report.contains("positions differ"), "{report}");
    assert!(report.contains("only in lielow: a2-off") && report.contains("a2-off:w"), "{report}");
    let o = run(&dir, &["diff", "basileus", "basileus", "--set-b", "king_adjacency=forbidden", "--games", "10"]);
    assert!(out(&o).contains("positions differ"), "{}", out(&o));
}
