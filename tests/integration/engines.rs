//! External engines as players (`uci:COMMAND`, `usi:COMMAND`) and `boardlab usi`: boardlab's
//! own `uci` as the engine of an arena, a USI session in minishogi and dōbutsu, and small fake
//! engines (shell scripts) that crash, stay silent or play an illegal move, each of which must
//! lose with its reason rather than hang the arena.

use boardlab::Variant;
use boardlab::protocol::coords::{self, Dialect};

/// The binary as an engine command, with its protocol's argument.
fn own(protocol: &str) -> String {
    format!("{}:{} {protocol}", protocol, env!("CARGO_BIN_EXE_boardlab"))
}

/// Runs the binary; (success, stdout, stderr).
fn run(args: &[&str], data: &std::path::Path) -> (bool, String, String) {
    let o = crate::binary(args, "", data);
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn boardlab_plays_its_own_uci_in_an_arena() {
    let dir = crate::scratch("engines-own");
    let engine = format!("{}@depth=1", own("uci"));
    let jsonl = dir.join("games.jsonl");
    let (ok, out, err) =
        run(&["arena", "chess", "ab:d2", &engine, "--games", "2", "--seed", "1", "--jsonl", jsonl.to_str().unwrap()], &dir);
    assert!(ok, "{err}");
    assert!(out.contains("pair (A – B)") && out.contains(&format!("ab:d2 – {engine}")), "{out}");
    // Two games, each finished by the rules (the engine neither failed nor was refused).
    let games: Vec<serde_json::Value> =
        std::fs::read_to_string(&jsonl).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games.len(), 2);
    for g in &games {
        let reason = g["reason"].as_str().unwrap();
        assert!(!reason.contains("uci:"), "a rules' ending expected: {reason}");
        assert!(g["plies"].as_u64().unwrap() > 2, "{g}");
    }
}

/// A fake engine: a shell script that handshakes, then does `on_go` when asked to move.
fn fake(dir: &std::path::Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// Every failing engine loses each of its games (it plays first in one, second in the other)
/// with the reason, in the table and in the JSON lines.
#[test]
fn a_crashed_silent_or_illegal_engine_loses_with_the_reason() {
    let dir = crate::scratch("engines-fake");
    let cases = [
        (fake(&dir, "crash.sh", "exit 3"), "crashed (exit status: 3)"),
        // Silent: the move is never answered (a short timeout keeps the test fast).
        (format!("{}@timeout=300", fake(&dir, "silent.sh", ":")), "was silent for 0.3 s waiting for `bestmove`"),
        (fake(&dir, "illegal.sh", "echo 'bestmove e2e5'"), "played an illegal move: `e2e5` is not a legal move here"),
        (fake(&dir, "garbled.sh", "echo 'bestmove'"), "wrote `bestmove` with no move"),
    ];
    for (engine, why) in &cases {
        let jsonl = dir.join("games.jsonl");
        let _ = std::fs::remove_file(&jsonl);
        let spec = format!("uci:{engine}");
        let (ok, out, err) =
            run(&["arena", "chess", "random", &spec, "--games", "2", "--seed", "1", "--jsonl", jsonl.to_str().unwrap()], &dir);
        assert!(ok, "{spec}: {err}");
        assert!(out.contains(&format!("{spec} {why}")), "{spec}: {out}");
        let games: Vec<serde_json::Value> =
            std::fs::read_to_string(&jsonl).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(games.len(), 2, "{spec}");
        for g in &games {
            assert_eq!(g["reason"].as_str().unwrap(), format!("{spec} {why}"), "{g}");
            // The winner is the seat of `random`.
            let random_seat = if g["first"] == "random" { 0 } else { 1 };
            assert_eq!(g["result"], g["players"][random_seat], "{g}");
        }
    }
}

#[test]
fn an_engine_that_does_not_play_the_variant_or_does_not_start_loses() {
    let dir = crate::scratch("engines-variant");
    // The fake has no UCI_Variant option: it plays chess only.
    let engine = format!("uci:{}", fake(&dir, "chessonly.sh", "echo 'bestmove a1a1'"));
    let (ok, out, err) = run(&["arena", "xiangqi", "random", &engine, "--games", "1", "--seed", "1"], &dir);
    assert!(ok, "{err}");
    assert!(out.contains("does not play `xiangqi` (not a value of its UCI_Variant)"), "{out}");
    let missing = format!("uci:{}", dir.join("no-such-engine").display());
    let (ok, out, err) = run(&["arena", "chess", "random", &missing, "--games", "1", "--seed", "1"], &dir);
    assert!(ok, "{err}");
    assert!(out.contains("did not start"), "{out}");
}

/// The UCI form of `best` is legal in `variant` after `moves` (all in `dialect`).
fn legal(variant: &str, dialect: Dialect, moves: &[&str], best: &str) -> bool {
    let v = Variant::load(variant, &[]).unwrap();
    let mut pos = v.start();
    let mut list = Vec::new();
    for m in moves {
        v.legal_moves(&mut pos, &mut list).unwrap();
        let mv = coords::find_in(dialect, m, &list, &v.rules.geometry).unwrap();
        v.make(&mut pos, &mv).unwrap();
    }
    v.legal_moves(&mut pos, &mut list).unwrap();
    coords::find_in(dialect, best, &list, &v.rules.geometry).is_ok()
}

fn bestmove(out: &str) -> &str {
    out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("no bestmove: {out}"))
}

#[test]
fn usi_variants_answer_bestmove() {
    let dir = crate::scratch("engines-usi");
    let o = crate::binary(
        &["usi"],
        "usi\nsetoption name USI_Variant value minishogi\nisready\nusinewgame\nposition startpos moves 1e1d\ngo byoyomi 200\n",
        &dir,
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("usiok") && out.contains("readyok"), "{out}");
    assert!(legal("minishogi", Dialect::Usi, &["1e1d"], bestmove(&out)), "{out}");
    assert!(!out.contains("info string"), "{out}");
    let o = crate::binary(&["usi"], "setoption name USI_Variant value dobutsu\nposition startpos\ngo depth 2\n", &dir);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(legal("dobutsu", Dialect::Usi, &[], bestmove(&out)), "{out}");
}

#[test]
fn uci_variant_xiangqi_answers_bestmove() {
    let dir = crate::scratch("engines-xiangqi");
    let o = crate::binary(&["uci"], "setoption name UCI_Variant value xiangqi\nposition startpos\ngo movetime 200\n", &dir);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(legal("xiangqi", Dialect::Uci, &[], bestmove(&out)), "{out}");
}

/// boardlab's `usi` as a `usi:` player in minishogi: USI coordinates, drops and promotions both
/// ways through a whole game.
#[test]
fn boardlab_plays_its_own_usi_in_minishogi() {
    let dir = crate::scratch("engines-own-usi");
    let engine = format!("{}@depth=1", own("usi"));
    let (ok, out, err) = run(&["selfplay", "minishogi", "--games", "2", "--first", "random", "--second", &engine, "--seed", "3"], &dir);
    assert!(ok, "{err}");
    // Both games end by the rules (an engine's failure would be a reason naming it).
    let why = out.split("why games ended").nth(1).expect("the reasons");
    let reasons: Vec<&str> = why.lines().skip(1).take_while(|l| l.starts_with("  ")).collect();
    assert!(!reasons.is_empty() && reasons.iter().all(|l| !l.contains("usi:")), "{out}");
}

/// The REPL's `ai` and `play` take an external engine, whose command may have arguments.
#[test]
fn the_repl_plays_an_external_engine() {
    let dir = crate::scratch("engines-repl");
    let engine = format!("{}@depth=1", own("uci"));
    let o = crate::binary(&["play", "chess"], &format!("ai {engine}\nplay black {engine}\ne2-e4\n"), &dir);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("{engine} plays")), "{out}");
    assert!(out.contains(&format!("the machine plays black ({engine})")), "{out}");
}
