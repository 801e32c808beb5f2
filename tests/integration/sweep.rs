//! `sweep`: each setting's row is that setting's own study, a sweep stopped by Ctrl-C resumes
//! to the same table, and shards merge into it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn boardlab(args: &[&str], dir: &std::path::Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_boardlab")).args(args).current_dir(dir).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

const SWEEP: [&str; 6] = ["sweep", "lielow", "--set", "off_board=any_distance,one_beyond", "--games", "200"];

#[test]
fn each_row_is_its_settings_own_study() {
    let root = crate::root();
    let out = boardlab(&SWEEP, &root);
    assert!(out.starts_with("sweep of lielow: 2 settings, 200 games each; ranked by balance (higher is better)\n"), "{out}");
    assert!(out.contains("best by balance: "), "{out}");
    for value in ["any_distance", "one_beyond"] {
        let set = format!("off_board={value}");
        let study = boardlab(&["selfplay", "lielow", "--set", &set, "--games", "200"], &root);
        let balance = study.lines().find_map(|l| l.trim_start().strip_prefix("balance")).unwrap().trim().to_string();
        let row = out.lines().find(|l| l.contains(&set)).unwrap_or_else(|| panic!("{out}"));
        assert!(row.contains(&balance), "the sweep's row of {set} is not its study's balance {balance}:\n{out}");
    }
    // The first setting is the baseline; the other's difference has an interval.
    assert!(out.contains("(the first setting)") && out.lines().filter(|l| l.contains("[-") || l.contains("[+")).count() >= 1, "{out}");
    let folder = crate::scratch("sweep-svg");
    let svg = folder.join("s.svg");
    boardlab(&[&SWEEP[..], &["--by", "length", "--svg", svg.to_str().unwrap()]].concat(), &root);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("off_board=one_beyond") && svg.matches("<circle").count() == 2);
}

#[test]
fn a_sweep_stopped_by_ctrl_c_resumes_to_the_same_table_and_shards_merge_into_it() {
    let data = crate::scratch("sweep-resume");
    let players = ["--first", "ab:d1", "--second", "ab:d1", "--games", "60", "--threads", "2"];
    let args = [&SWEEP[..4], &players[..]].concat();
    let whole = boardlab(&args, &data);
    assert!(whole.contains("players: ab:d1 (first) against ab:d1 (second)"), "{whole}");
    let file = data.join("sweep.jsonl");
    let child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([&args[..], &["--jsonl", file.to_str().unwrap()]].concat())
        .current_dir(&data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while std::fs::read_to_string(&file).map_or(0, |s| s.lines().count()) < 20 && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = crate::interrupt(child, Duration::from_secs(60));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cut = String::from_utf8_lossy(&o.stdout).to_string();
    let lines = std::fs::read_to_string(&file).unwrap().lines().count();
    assert!(lines < 120, "the sweep was not interrupted ({lines} games):\n{cut}");
    assert!(cut.contains("interrupted (Ctrl-C)"), "{cut}");
    let resumed = boardlab(&[&args[..], &["--resume-from", file.to_str().unwrap()]].concat(), &data);
    assert_eq!(resumed, whole);
    // Two shards played apart, merged by --from: the same table.
    let mut shards = Vec::new();
    for k in 0..2 {
        let f = data.join(format!("shard{k}.jsonl"));
        boardlab(&[&args[..], &["--shard", &format!("{k}/2"), "--jsonl", f.to_str().unwrap()]].concat(), &data);
        shards.push(f.to_str().unwrap().to_string());
    }
    let from: Vec<&str> = shards.iter().map(String::as_str).collect();
    let merged = boardlab(&[&args[..], &["--from"], &from[..]].concat(), &data);
    assert_eq!(merged, whole);
}
