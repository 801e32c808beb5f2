//! Studies that refuse to mix, bounded reads of their files, honest statistics, players by the
//! variant's names, and files that are the same whatever the threads (issue 46).

use boardlab::selfplay::{GameRecord, read_resumable};
use std::path::{Path, PathBuf};

fn run(args: &[&str], data: &Path) -> std::process::Output {
    crate::binary(args, "", data)
}

fn ok(args: &[&str], data: &Path) -> String {
    let o = run(args, data);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn err(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Plays `selfplay checkers` with `extra` into `data/name`.
fn checkers(data: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let f = data.join(name);
    let args = [
        &["selfplay", "checkers", "--games", "12", "--threads", "1", "--set", "move_limit=80"][..],
        extra,
        &["--jsonl", f.to_str().unwrap()],
    ];
    ok(&args.concat(), data);
    f
}

#[test]
fn report_refuses_two_studies_unless_mixed() {
    let data = crate::scratch("studies-mix");
    let a = checkers(&data, "seed1.jsonl", &["--seed", "1"]);
    let b = checkers(&data, "seed2.jsonl", &["--seed", "2"]);
    let o = run(&["report", a.to_str().unwrap(), b.to_str().unwrap()], &data);
    let e = err(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("seed1.jsonl:1 and ") && e.contains("seed2.jsonl:1 are games of different studies (seed 1 against 2"), "{e}");
    // Other players, too.
    let c = checkers(&data, "ab.jsonl", &["--seed", "1", "--first", "ab:d1"]);
    let e = err(&run(&["report", a.to_str().unwrap(), c.to_str().unwrap()], &data));
    assert!(e.contains("engines random random against ab:d1 random"), "{e}");
    // --mixed reports them anyway: one rule set, 24 games.
    let out = ok(&["report", "--mixed", a.to_str().unwrap(), b.to_str().unwrap()], &data);
    assert!(out.starts_with("checkers (move_limit=80): 24 games"), "{out}");
}

#[test]
fn report_names_missing_shards_and_duplicate_games() {
    let data = crate::scratch("studies-shards");
    let s0 = checkers(&data, "s0.jsonl", &["--shard", "0/3"]);
    let s2 = checkers(&data, "s2.jsonl", &["--shard", "2/3"]);
    let (s0t, s2t) = (s0.to_str().unwrap(), s2.to_str().unwrap());
    let o = run(&["report", s0t, s2t], &data);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out.contains("WARNING: shards missing from these files: 1/3 (the report covers 2 of 3 shards)"), "{out}");
    // 12 games in three shards of 4: 8 here.
    assert!(out.contains("WARNING: these files hold 8 of the study's 12 games"), "{out}");
    // The same shard twice: identical records, counted once, one warning.
    let o = run(&["report", s0t, s0t], &data);
    assert!(o.status.success(), "{}", err(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("checkers (move_limit=80): 4 games"));
    let warned: Vec<String> = err(&o).lines().map(String::from).collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].contains("4 games are in these files twice with the same record") && warned[0].contains("s0.jsonl:1 and "),
        "{warned:?}"
    );
    // A conflicting record of one game: refused, naming both places.
    let text = std::fs::read_to_string(&s0).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let g: GameRecord = serde_json::from_str(lines[1]).unwrap();
    let other = if g.result == "draw" { "white" } else { "draw" };
    let changed = lines[1].replace(&format!("\"result\":\"{}\"", g.result), &format!("\"result\":\"{other}\""));
    let conflict = data.join("conflict.jsonl");
    std::fs::write(&conflict, format!("{changed}\n")).unwrap();
    let o = run(&["report", s0t, conflict.to_str().unwrap()], &data);
    let e = err(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains(&format!("game {} of checkers (move_limit=80) has two different records", g.index)), "{e}");
    assert!(e.contains("s0.jsonl:2 and ") && e.contains("conflict.jsonl:1"), "{e}");
}

#[test]
fn report_refuses_unknown_results_and_bad_lines_but_not_one_cut_last_line() {
    let data = crate::scratch("studies-lines");
    let f = checkers(&data, "g.jsonl", &[]);
    let text = std::fs::read_to_string(&f).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let write = |name: &str, t: String| {
        let p = data.join(name);
        std::fs::write(&p, t).unwrap();
        p
    };
    let g: GameRecord = serde_json::from_str(lines[2]).unwrap();
    let martian = lines[2].replace(&format!("\"result\":\"{}\"", g.result), "\"result\":\"martian\"");
    let m = write("martian.jsonl", [&lines[..2], &[martian.as_str()], &lines[3..]].concat().join("\n") + "\n");
    let e = err(&run(&["report", m.to_str().unwrap()], &data));
    assert!(e.contains("martian.jsonl:3: unknown result `martian` (expected white, black or draw)"), "{e}");
    // A kill mid-write: the last line cut, left out with a warning naming it.
    let cut = write("cut.jsonl", format!("{}\n{}", lines[..11].join("\n"), &lines[11][..lines[11].len() / 2]));
    let o = run(&["report", cut.to_str().unwrap()], &data);
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("cut.jsonl:12: the last line is cut off"), "{}", err(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("checkers (move_limit=80): 11 games"));
    // The same cut line anywhere else is an error with its place.
    let inside = write("inside.jsonl", format!("{}\n{}\n{}\n", lines[..3].join("\n"), &lines[11][..lines[11].len() / 2], lines[4]));
    let o = run(&["report", inside.to_str().unwrap()], &data);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("inside.jsonl:4: not a game record"), "{}", err(&o));
}

#[test]
fn resume_from_refuses_another_shards_file() {
    let data = crate::scratch("studies-resume");
    let s0 = checkers(&data, "s0.jsonl", &["--shard", "0/2"]);
    let before = std::fs::read(&s0).unwrap();
    let o = run(
        &["selfplay", "checkers", "--games", "12", "--set", "move_limit=80", "--shard", "1/2", "--resume-from", s0.to_str().unwrap()],
        &data,
    );
    let e = err(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("s0.jsonl: game 0 (checkers (move_limit=80)) is not of this study") && e.contains("shard 1/2 against 0/2"), "{e}");
    assert_eq!(std::fs::read(&s0).unwrap(), before, "the file is left as it was");
    // Its own shard resumes (nothing left to play).
    let out = ok(
        &["selfplay", "checkers", "--games", "12", "--set", "move_limit=80", "--shard", "0/2", "--resume-from", s0.to_str().unwrap()],
        &data,
    );
    assert!(out.contains("6 of them read back"), "{out}");
}

#[test]
fn endless_inputs_stop_at_a_limit() {
    let data = crate::scratch("studies-zero");
    for args in [
        &["report", "/dev/zero"][..],
        &["selfplay", "checkers", "--games", "2", "--resume-from", "/dev/zero"][..],
        &["arena", "checkers", "random", "ab:d1", "--games", "2", "--seed", "1", "--resume-from", "/dev/zero"][..],
    ] {
        let o = run(args, &data);
        let e = err(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        assert!(e.contains("/dev/zero: line 1: a line longer than 16 MiB"), "{args:?}: {e}");
    }
}

#[test]
fn a_write_error_names_the_file() {
    let data = crate::scratch("studies-full");
    if !Path::new("/dev/full").exists() {
        return;
    }
    let o = run(&["selfplay", "checkers", "--games", "2", "--jsonl", "/dev/full"], &data);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("/dev/full: No space left on device"), "{}", err(&o));
}

#[test]
fn no_games_and_repeated_games_judge_nothing() {
    let data = crate::scratch("studies-honest");
    let out = ok(&["selfplay", "tic-tac-toe", "--games", "0"], &data);
    assert!(!out.contains("significant") && !out.contains("-50.0"), "{out}");
    assert!(out.contains("no game finished, nothing to judge"), "{out}");
    // One game: a share of one says nothing either.
    let out = ok(&["selfplay", "tic-tac-toe", "--games", "1"], &data);
    assert!(out.contains("(not judged: fewer than 2 distinct games)"), "{out}");
    // A deterministic player against itself without random openings replays a few games:
    // counted by hand from the file.
    let f = data.join("c4.jsonl");
    let seats = ["selfplay", "connect-four", "--first", "ab:d2", "--second", "ab:d2"];
    let args = [&seats[..], &["--games", "50", "--random-plies", "0"]].concat();
    let out = ok(&[&args[..], &["--jsonl", f.to_str().unwrap()]].concat(), &data);
    let (games, _) = read_resumable(&f).unwrap();
    let distinct: std::collections::BTreeSet<&Vec<String>> = games.iter().map(|g| &g.moves).collect();
    assert!(distinct.len() < 45, "the player repeats itself: {}", distinct.len());
    let d = distinct.len();
    assert!(out.starts_with(&format!("connect-four: 50 games, {d} distinct\n")), "{out}");
    assert!(out.contains(&format!("WARNING: only {d} of the 50 games differ")), "{out}");
    // The results count each distinct game once.
    let count = |label: &str| -> u64 {
        let row = out.lines().find_map(|l| l.trim_start().strip_prefix(label)).unwrap_or_else(|| panic!("{label}: {out}"));
        row.split_whitespace().next().unwrap().parse().unwrap()
    };
    let counted = count("white wins ") + count("black wins ") + count("draws ");
    assert_eq!(counted, d as u64, "{out}");
    assert!(!out.contains("(significant)"), "{out}");
    // The remedy the warning names, and the default for two deterministic players: random
    // opening decisions vary the games (issue's bar: at least 30 of 40 distinct).
    for extra in [&["--random-plies", "4"][..], &[]] {
        let out = ok(&[&seats[..], &["--games", "40"], extra].concat(), &data);
        let varied: usize = out.split_whitespace().nth(3).unwrap().parse().unwrap();
        assert!(varied >= 30 && !out.contains("WARNING: only"), "{out}");
        assert!(out.contains("openings: each game opens with 4 random decisions"), "{out}");
    }
}

#[test]
fn results_and_seats_speak_the_variants_players() {
    let data = crate::scratch("studies-names");
    let f = data.join("othello.jsonl");
    let out = ok(&["selfplay", "othello", "--games", "20", "--seed", "1", "--jsonl", f.to_str().unwrap()], &data);
    let (games, _) = read_resumable(&f).unwrap();
    // Replayed, each game ends as its record says, by the variant's name for the winner.
    let v = boardlab::Variant::load("othello", &[("move_limit".into(), "1000".into())]).unwrap();
    assert_eq!(v.rules.player_name(v.start().side()), "black", "black moves first in Othello");
    let mut wins = std::collections::BTreeMap::new();
    for g in &games {
        let mut pos = v.start();
        for m in &g.moves {
            v.play(&mut pos, m).unwrap();
        }
        let winner = match v.outcome(&mut pos).unwrap().unwrap().winner {
            boardlab::Winner::Player(p) => v.rules.player_name(p).to_string(),
            boardlab::Winner::Draw => "draw".into(),
        };
        assert_eq!(g.result, winner, "game {}", g.index);
        assert_eq!(g.players, ["black".to_string(), "white".to_string()]);
        *wins.entry(winner).or_insert(0u64) += 1;
    }
    let line = |name: &str| format!("  {name} wins {:>6}", wins.get(name).copied().unwrap_or(0));
    assert!(out.contains(&line("black")) && out.contains(&line("white")), "{out}\n{wins:?}");
    assert!(out.contains("players: black random (first), white random (second)"), "{out}");
    // --white names Othello's white: the second seat. --first names the seat.
    let g = data.join("seats.jsonl");
    ok(&["selfplay", "othello", "--games", "2", "--white", "ab:d1", "--jsonl", g.to_str().unwrap()], &data);
    let (games, _) = read_resumable(&g).unwrap();
    assert!(games.iter().all(|g| g.first == "random" && g.second == "ab:d1"), "{games:?}");
    ok(&["selfplay", "othello", "--games", "2", "--first", "ab:d1", "--player", "white=mcts:5", "--jsonl", g.to_str().unwrap()], &data);
    let (games, _) = read_resumable(&g).unwrap();
    assert!(games.iter().all(|g| g.first == "ab:d1" && g.second == "mcts:5"), "{games:?}");
    let o = run(&["selfplay", "xiangqi", "--games", "2", "--white", "ab:d1"], &data);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("`white` is not a player of xiangqi: its players are red (first) and black (second)"), "{}", err(&o));
    let o = run(&["selfplay", "othello", "--games", "2", "--first", "ab:d1", "--black", "ab:d2"], &data);
    assert!(err(&o).contains("black (the first seat) is given two engines"), "{}", err(&o));
}

#[test]
fn files_are_the_same_whatever_the_threads_and_without_times() {
    let data = crate::scratch("studies-bytes");
    let file = |n: &str| data.join(n).to_str().unwrap().to_string();
    // A searching player makes games take unequal times, so two threads finish them out of order.
    let sp = ["selfplay", "checkers", "--games", "40", "--seed", "9", "--first", "mcts:20", "--jsonl"];
    ok(&[&sp[..], &[&file("t1.jsonl"), "--threads", "1"]].concat(), &data);
    ok(&[&sp[..], &[&file("t2.jsonl"), "--threads", "2"]].concat(), &data);
    let one = std::fs::read_to_string(file("t1.jsonl")).unwrap();
    assert_eq!(one, std::fs::read_to_string(file("t2.jsonl")).unwrap());
    let indices: Vec<u64> = one.lines().map(|l| serde_json::from_str::<GameRecord>(l).unwrap().index).collect();
    assert_eq!(indices, (0..40).collect::<Vec<_>>());
    let ar = [
        "arena",
        "checkers",
        "random",
        "ab:d1",
        "mcts:10",
        "--games",
        "4",
        "--seed",
        "7",
        "--set",
        "move_limit=60",
        "--no-times",
        "--jsonl",
    ];
    let table = ok(&[&ar[..], &[&file("a1.jsonl"), "--threads", "2"]].concat(), &data);
    ok(&[&ar[..], &[&file("a2.jsonl"), "--threads", "1"]].concat(), &data);
    let a1 = std::fs::read_to_string(file("a1.jsonl")).unwrap();
    assert_eq!(a1, std::fs::read_to_string(file("a2.jsonl")).unwrap());
    assert!(!a1.contains("_time") && a1.lines().count() == 12, "{a1}");
    assert!(table.contains("(not timed)"), "{table}");
}
