//! Self-play: deterministic for any thread count, shards merge into the single run's report,
//! a variant compared with itself shows no significant difference, and the docs show the
//! cluster recipes that ran.

use boardlab::Engine;
use boardlab::selfplay::{Config, GameRecord, Report, compare, run_games};

fn cfg(games: u64, threads: usize, shard: Option<(u64, u64)>) -> Config {
    Config { first: Engine::Random, second: Engine::Random, threads, shard, record_moves: true, ..Config::new(games, 42) }
}

/// Games as JSON lines.
fn jsonl(games: &[GameRecord]) -> String {
    games.iter().map(|g| serde_json::to_string(g).unwrap() + "\n").collect()
}

/// The report without its speed line (the one part that depends on the machine).
fn body(r: &Report) -> String {
    r.text().lines().filter(|l| !l.starts_with("speed:")).collect::<Vec<_>>().join("\n")
}

#[test]
fn deterministic_across_threads() {
    for name in ["checkers", "pyramida"] {
        let games = if name == "pyramida" { 40 } else { 300 };
        let (one, one_games) = run_games(name, &[], &cfg(games, 1, None), false).unwrap();
        let (two, two_games) = run_games(name, &[], &cfg(games, 2, None), false).unwrap();
        assert_eq!(one_games, two_games, "{name}");
        assert_eq!(body(&one), body(&two));
        assert_eq!(one.n, games);
    }
}

#[test]
fn shards_merge_into_the_single_run() {
    let dir = crate::scratch("shards");
    let (whole, whole_games) = run_games("lielow", &[], &cfg(200, 1, None), false).unwrap();
    let mut files = Vec::new();
    for k in 0..3 {
        let (_, part) = run_games("lielow", &[], &cfg(200, 1, Some((k, 3))), false).unwrap();
        assert!(part.iter().all(|g| g.index % 3 == k));
        let f = dir.join(format!("shard{k}.jsonl"));
        std::fs::write(&f, jsonl(&part)).unwrap();
        files.push(f);
    }
    let merged = boardlab::selfplay::jsonl::merge(&files, false, 1).unwrap();
    assert!(merged.warnings.is_empty(), "{:?}", merged.warnings);
    let merged = merged.reports;
    assert_eq!(merged.len(), 1);
    // The records say which shard they came from; all else is the single run's.
    let read: Vec<GameRecord> = files.iter().flat_map(|f| boardlab::selfplay::read_resumable(f).unwrap().0).collect();
    let mut unsharded: Vec<_> = read.iter().map(|g| g.untimed()).collect();
    unsharded.sort_by_key(|g| g.index);
    assert_eq!(unsharded, whole_games.iter().map(|g| g.untimed()).collect::<Vec<_>>());
    assert_eq!(body(&merged[0]), body(&whole));
    assert!(merged[0].speed_line().contains("not measured"));
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"index\": 1}\n").unwrap();
    assert!(boardlab::selfplay::jsonl::merge(&[bad], false, 1).unwrap_err().to_string().contains("bad.jsonl:1"));
}

#[test]
fn comparing_a_variant_with_itself_shows_no_difference() {
    // Same seeds: the same games, so every difference is exactly zero.
    let (a, a_games) = run_games("basileus", &[], &cfg(300, 2, None), false).unwrap();
    let (b, _) = run_games("basileus", &[], &cfg(300, 2, None), false).unwrap();
    let c = compare(&a, &b);
    assert!(!c.contains("significant"), "{c}");
    assert!(c.contains("white wins"));
    // Other seeds: other games of the same rules, whose differences stay inside their 95 %
    // intervals (seeds chosen once, not searched for).
    let mut other = cfg(300, 2, None);
    other.seed = 43;
    let (b, b_games) = run_games("basileus", &[], &other, false).unwrap();
    assert_ne!(a_games, b_games);
    let c = compare(&a, &b);
    assert!(!c.contains("significant"), "{c}");
    // A real tweak on the same seeds: pyramida-calm removes the opening's extra moves, which
    // changes how the games go (checked here only for being reported, not for its size).
    let (p, p_games) = run_games("pyramida", &[], &cfg(30, 2, None), false).unwrap();
    let (q, q_games) = run_games("pyramida-calm", &[], &cfg(30, 2, None), false).unwrap();
    assert_ne!(p_games.iter().map(|g| &g.moves).collect::<Vec<_>>(), q_games.iter().map(|g| &g.moves).collect::<Vec<_>>());
    let svg = boardlab::selfplay::svg(&[&p, &q]);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>") && svg.contains("pyramida-calm"));
}

#[test]
fn selfplay_cli_and_report() {
    let dir = crate::scratch("spcli");
    let bin = env!("CARGO_BIN_EXE_boardlab");
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).current_dir(crate::root()).output().unwrap();
    let j0 = dir.join("a.jsonl");
    let j1 = dir.join("b.jsonl");
    let o = run(&["selfplay", "checkers", "--games", "60", "--seed", "3", "--shard", "0/2", "--jsonl", j0.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["selfplay", "checkers", "--games", "60", "--seed", "3", "--shard", "1/2", "--jsonl", j1.to_str().unwrap()]);
    assert!(o.status.success());
    let full = run(&["selfplay", "checkers", "--games", "60", "--seed", "3", "--threads", "2"]);
    let svg = dir.join("r.svg");
    let merged = run(&["report", j0.to_str().unwrap(), j1.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
    let strip = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout).lines().filter(|l| !l.starts_with("speed:")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(strip(&full), strip(&merged));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let o = run(&["selfplay", "checkers", "--games", "10", "--shard", "2/2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["selfplay", "checkers", "--games", "10", "--white", "alphazero"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["selfplay", "lielow", "--games", "20", "--compare", "lielow-ludii", "--svg", svg.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("difference (B − A)") && out.contains("lielow-ludii"), "{out}");
}

/// Every interval a report prints, as (low, high) in percent or plies.
fn intervals(text: &str) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for part in text.split('[').skip(1) {
        let Some(inside) = part.split(']').next() else { continue };
        let nums: Vec<f64> = inside.split([',', '–']).filter_map(|x| x.trim().trim_end_matches('%').parse().ok()).collect();
        if let [lo, hi] = nums[..] {
            out.push((lo, hi));
        }
    }
    out
}

#[test]
fn a_tiny_study_prints_honest_intervals() {
    let bin = env!("CARGO_BIN_EXE_boardlab");
    let o = std::process::Command::new(bin)
        .args(["selfplay", "lielow", "--games", "2", "--compare", "lielow-ludii"])
        .current_dir(crate::root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("players: white random (first), black random (second)"), "{out}");
    let (shares, diffs): (Vec<&str>, Vec<&str>) = out.lines().partition(|l| l.contains(" – "));
    for (lo, hi) in intervals(&shares.join("\n")) {
        assert!((0.0..=100.0).contains(&lo) && (0.0..=100.0).contains(&hi) && lo <= hi, "a share's interval [{lo}, {hi}] in\n{out}");
    }
    for l in diffs.iter().filter(|l| l.contains('%') || l.contains("wins") || l.contains("draws") || l.contains("limit")) {
        for (lo, hi) in intervals(l) {
            assert!((-100.0..=100.0).contains(&lo) && (-100.0..=100.0).contains(&hi) && lo <= hi, "{l}");
        }
    }
    assert!(!out.contains("significant)") || out.contains("(not significant)"), "{out}");
    assert!(!out.contains("  significant"), "{out}");
    // Random Pyramida games mostly end at the move limit: the report says what that means.
    let o = std::process::Command::new(bin).args(["selfplay", "pyramida", "--games", "20"]).current_dir(crate::root()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("ended at the move limit, not by a rule of the game: these results measure the limit"), "{out}");
    assert!(out.contains("(not judged: the move limit decided too many games)"), "{out}");
    assert!(out.lines().any(|l| l.trim_start().starts_with("move limit ")), "{out}");
}

#[test]
fn the_recorded_evaluation_is_whites_view_of_each_decision() {
    // Replaying a game and evaluating each position where a decision was made, from the point
    // of view of the player to decide, gives the record's numbers, negated where black decides.
    let full = Config { full_metrics: true, ..cfg(3, 1, None) };
    let (_, games) = run_games("lielow", &[], &full, false).unwrap();
    let v = boardlab::Variant::load("lielow", &[("move_limit".into(), "1000".into())]).unwrap();
    for g in &games {
        let eval = g.eval.as_ref().expect("self-play records the evaluation with full metrics");
        assert_eq!(eval.len(), g.branching.len());
        assert_eq!(g.turns, Some(g.plies), "Lielow has no continuations: a turn is a ply");
        assert_eq!(g.near_forced, None, "random players: no one-ply look");
        let mut pos = v.start();
        let mut ev = boardlab::ai::Evaluator::new(&v);
        for (m, &e) in g.moves.iter().zip(eval) {
            let own = ev.score(&mut pos).unwrap();
            let white = if pos.side() == boardlab::Player::FIRST { own } else { -own };
            assert_eq!(white, e, "game {} before {m}", g.index);
            v.play(&mut pos, m).unwrap();
        }
    }
}

#[test]
fn searching_players_shards_run_apart_merge_into_the_single_run() {
    // Shards played by separate processes with a searching player (so the one-ply look runs)
    // merge into the single run's report, quality section and openings included.
    let dir = crate::scratch("spab");
    let bin = env!("CARGO_BIN_EXE_boardlab");
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).current_dir(crate::root()).output().unwrap();
    let common = ["selfplay", "lielow", "--games", "12", "--seed", "5", "--white", "ab:d1", "--openings", "2"];
    let mut files = Vec::new();
    for k in 0..3 {
        let f = dir.join(format!("s{k}.jsonl"));
        let shard = format!("{k}/3");
        let o = run(&[&common[..], &["--threads", "1", "--shard", &shard, "--jsonl", f.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        files.push(f.to_str().unwrap().to_string());
    }
    let whole = run(&[&common[..], &["--threads", "2"]].concat());
    let merged = run(&[&["report", "--openings", "2"][..], &files.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    let strip = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout).lines().filter(|l| !l.starts_with("speed:")).collect::<Vec<_>>().join("\n")
    };
    let text = strip(&whole);
    assert_eq!(text, strip(&merged));
    assert!(text.contains("quality (95% intervals") && text.contains("by first 2 plies"), "{text}");
    let sensible = text.lines().find(|l| l.contains("single sensible move")).unwrap();
    assert!(!sensible.contains("unavailable"), "{sensible}");
    // A record from before the evaluation was kept still reads: those metrics are unavailable.
    let old = dir.join("old.jsonl");
    std::fs::write(&old, "{\"index\":0,\"seed\":1,\"variant\":\"lielow\",\"options\":{},\"result\":\"white\",\"reason\":\"king captured\",\"plies\":2,\"moves\":[\"a2-a3\",\"b7-b6\"],\"branching\":[40,40]}\n").unwrap();
    let o = run(&["report", old.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("lead changes") && out.contains("unavailable: the games carry no evaluation"), "{out}");
    assert!(out.contains("duration (plies)") && out.contains("a2-a3"), "{out}");
}

/// docs/selfplay.md shows the cluster recipes that scripts/slurm-run.sh ran and
/// scripts/k8s-validate.sh validated, each as a whole fenced block, byte for byte: a recipe
/// edited in one place only would be a recipe nobody ran.
#[test]
fn the_cluster_recipes_in_the_docs_are_the_files_that_ran() {
    let docs = std::fs::read_to_string(crate::root().join("docs/selfplay.md")).unwrap();
    for (file, fence) in [("scripts/slurm/selfplay.sbatch", "bash"), ("scripts/k8s/selfplay-job.yaml", "yaml")] {
        let text = std::fs::read_to_string(crate::root().join(file)).unwrap();
        let block = format!("\n```{fence}\n{text}```\n");
        assert!(docs.contains(&block), "docs/selfplay.md should show {file} verbatim in a ```{fence} block:\n{text}");
    }
}
