//! The arena: colours alternate within each pair, the table is the same for any thread count and
//! after a resumed run, its score and Elo match a hand count, Ctrl-C ends with a table, and bad
//! input is refused. Budgets are tiny (checkers, 4 games a pair, a 60-ply limit).

use boardlab::selfplay::{GameRecord, game_seed, read_resumable};
use std::time::{Duration, Instant};

const ARENA: [&str; 11] = ["arena", "checkers", "random", "ab:d1", "mcts:20", "--games", "4", "--seed", "7", "--set", "move_limit=60"];

fn arena(extra: &[&str], data: &std::path::Path) -> String {
    let o = crate::binary(&[&ARENA[..], extra].concat(), "", data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The table without the times (the one part that depends on the machine) and without the
/// line that says how many games were read back.
fn body(t: &str) -> String {
    t.lines().take_while(|l| !l.starts_with("time per move")).filter(|l| !l.contains("read back")).collect::<Vec<_>>().join("\n")
}

#[test]
fn colours_alternate_and_threads_do_not_matter() {
    let data = crate::scratch("arena-threads");
    let file = data.join("games.jsonl");
    let one = arena(&["--threads", "1", "--jsonl", file.to_str().unwrap()], &data);
    let two = arena(&["--threads", "2"], &data);
    assert_eq!(body(&one), body(&two));
    assert!(one.contains("checkers (move_limit=60): 3 engines, 3 pairs, 4 games a pair"), "{one}");
    assert!(one.contains("time per move") && one.contains("why games ended"), "{one}");
    let (games, _) = read_resumable(&file).unwrap();
    assert_eq!(games.len(), 12);
    for (a, b) in [("random", "ab:d1"), ("random", "mcts:20"), ("ab:d1", "mcts:20")] {
        let mut pair: Vec<&GameRecord> =
            games.iter().filter(|g| (g.first == a && g.second == b) || (g.first == b && g.second == a)).collect();
        pair.sort_by_key(|g| g.index);
        assert_eq!(pair.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1, 2, 3], "{a} – {b}");
        for g in pair {
            // Game i: the pair's first engine plays first when i is even; the self-play seed.
            let first = if g.index % 2 == 0 { a } else { b };
            assert_eq!(g.first, first, "{a} – {b} game {}", g.index);
            assert_eq!(g.seed, game_seed(7, g.index));
            let (w, k) = (g.first_time.as_ref().unwrap(), g.second_time.as_ref().unwrap());
            assert_eq!(w.moves + k.moves, g.plies);
            assert!(w.max >= w.median && w.total >= w.max && !g.moves.is_empty());
        }
    }
}

#[test]
fn a_cut_file_resumes_to_the_same_table() {
    let data = crate::scratch("arena-resume");
    let file = data.join("games.jsonl");
    let whole = arena(&["--threads", "2", "--jsonl", file.to_str().unwrap()], &data);
    // Keep five whole games and half of the sixth, as a kill mid-write would.
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&file, format!("{}\n{}", lines[..5].join("\n"), &lines[5][..lines[5].len() / 2])).unwrap();
    let resumed = arena(&["--resume-from", file.to_str().unwrap()], &data);
    assert!(resumed.contains("5 of the 12 games read back from the earlier run (--resume-from)"), "{resumed}");
    assert_eq!(body(&resumed), body(&whole));
    let (games, _) = read_resumable(&file).unwrap();
    assert_eq!(games.len(), 12, "every game once");
    // Another seed's file is refused, as self-play refuses it.
    let other = ["arena", "checkers", "random", "ab:d1", "--games", "4", "--seed", "8", "--set", "move_limit=60", "--resume-from"];
    let o = crate::binary(&[&other[..], &[file.to_str().unwrap()]].concat(), "", &data);
    assert!(!o.status.success());
    // (The records carry their study since the study was recorded: the message says what differs.)
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("games.jsonl: game 0 (checkers (move_limit=60)) is not of this study") && err.contains("seed 8 against 7"),
        "{err}"
    );
}

#[test]
fn a_hand_counted_table() {
    // Four games of random against ab:d2, written as an earlier run would have, so that nothing
    // is played: random wins games 0, 1 and 3 (as the first player in 0 and the second in 1
    // and 3) and game 2 is a draw. Random's score: 3.5 of 4 points, 87.5 %.
    //
    // Wilson's interval, z = 1.96, p = 0.875, n = 4:
    //   centre = (p + z²/2n) / (1 + z²/n) = (0.875 + 0.4802) / 1.9604 = 0.691288
    //   half   = z·√(p(1−p)/n + z²/4n²) / (1 + z²/n) = 1.96·√(0.0273438 + 0.0600250) / 1.9604 = 0.295522
    //   so [39.58 %, 98.68 %], printed [39.6% – 98.7%].
    // Elo: 400·log10(0.875/0.125) = +338; the ends: 400·log10(0.395766/0.604234) = −73.5 → −74
    // and 400·log10(0.986809/0.013191) = +749.6 → +750.
    let data = crate::scratch("arena-hand");
    let file = data.join("games.jsonl");
    let mut lines = String::new();
    for (i, result) in [(0u64, "white"), (1, "black"), (2, "draw"), (3, "black")] {
        let (white, black) = if i % 2 == 0 { ("random", "ab:d2") } else { ("ab:d2", "random") };
        let reason = if result == "draw" { "move limit" } else { "no moves" };
        lines.push_str(&format!(
            "{{\"index\":{i},\"seed\":{},\"variant\":\"checkers\",\"options\":{{}},\"result\":\"{result}\",\"reason\":\"{reason}\",\"plies\":9,\"moves\":[],\"branching\":[],\"white\":\"{white}\",\"black\":\"{black}\"}}\n",
            game_seed(3, i)
        ));
    }
    std::fs::write(&file, lines).unwrap();
    let o = crate::binary(
        &["arena", "checkers", "random", "ab:d2", "--games", "4", "--seed", "3", "--resume-from", file.to_str().unwrap()],
        "",
        &data,
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let row = out.lines().find(|l| l.starts_with("random – ab:d2")).unwrap_or_else(|| panic!("{out}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    // games, win, draw, loss, limit: the draw came from the move limit.
    assert_eq!(cells[3..8], ["4", "3", "0", "0", "1"], "{row}");
    assert!(row.contains("87.5% [39.6% – 98.7%]") && row.contains("+338 [-74, +750]"), "{row}");
    assert!(out.lines().any(|l| l.starts_with("  random – ab:d2 ") && l.ends_with(" no moves 3, move limit 1")), "{out}");
    // Games from files that kept no times say so rather than showing zeros.
    assert!(out.lines().any(|l| l.starts_with("ab:d2") && l.ends_with("(not timed)")), "{out}");
}

#[test]
fn ctrl_c_ends_with_a_table_of_the_finished_games() {
    let data = crate::scratch("arena-interrupt");
    let file = data.join("games.jsonl");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["arena", "checkers", "random", "ab:d2", "--games", "100000", "--seed", "1", "--threads", "2", "--jsonl"])
        .arg(&file)
        .current_dir(crate::root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while std::fs::read_to_string(&file).map_or(0, |s| s.lines().count()) < 2 && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(10));
    }
    // It stops within a few moves; a run that did not stop is ended so the test cannot hang.
    let o = crate::interrupt(child, Duration::from_secs(20));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (games, _) = read_resumable(&file).unwrap();
    assert!(out.contains(&format!("interrupted (Ctrl-C): the table covers the {} games finished", games.len())), "{out}");
}

#[test]
fn bad_input_is_refused() {
    let data = crate::scratch("arena-errors");
    for (args, says) in [
        (&["arena", "checkers", "random", "--games", "4", "--seed", "1"][..], "at least two engines"),
        (&["arena", "checkers", "random", "alphazero", "--games", "4", "--seed", "1"][..], "`alphazero` is not a player"),
        (&["arena", "checkers", "random", "ab:d4", "ab d4", "--games", "4", "--seed", "1"][..], "are the same engine"),
        (&["arena", "checkers", "random", "ab", "--games", "0", "--seed", "1"][..], "--games 0: each pair plays 1 to 100000 games"),
        (&["arena", "nosuchgame", "random", "ab", "--games", "2", "--seed", "1"][..], "nosuchgame"),
    ] {
        let o = crate::binary(args, "", &data);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn random_openings_are_shared_by_each_colour_swapped_pair() {
    // Two fixed-depth engines are deterministic: without --random-plies every game of a colour
    // is the same game. With 3 random decisions, games 2k and 2k+1 open alike and the openings
    // of different k differ.
    let data = crate::scratch("arena-openings");
    let file = data.join("games.jsonl");
    let args = ["arena", "connect-four", "ab:d2", "ab:d1", "--games", "8", "--seed", "3", "--random-plies", "3", "--jsonl"];
    let o = crate::binary(&[&args[..], &[file.to_str().unwrap()]].concat(), "", &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("each game opens with 3 random decisions"), "{out}");
    let (mut games, _) = read_resumable(&file).unwrap();
    games.sort_by_key(|g| g.index);
    let opening = |g: &GameRecord| g.moves[..3].to_vec();
    for k in 0..4 {
        assert_eq!(opening(&games[2 * k]), opening(&games[2 * k + 1]), "pair {k}");
        assert_eq!(games[2 * k].random_plies, 3);
    }
    let distinct: std::collections::BTreeSet<Vec<String>> = games.iter().map(opening).collect();
    assert!(distinct.len() >= 3, "{distinct:?}");
    // A resumed run must ask for the same openings.
    let resume = [&args[..8], &["--random-plies", "2", "--resume-from", file.to_str().unwrap()]].concat();
    let o = crate::binary(&resume, "", &data);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("random plies 2 against 3"), "{err}");
}
