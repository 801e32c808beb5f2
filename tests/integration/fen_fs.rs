//! FEN as Fairy-Stockfish writes it (docs/protocols.md, "FEN"): a finished game's FEN reads
//! back finished on every path (`--fen`, the REPL's `setup`, scenarios, `uci`, `serve`'s
//! state), Fairy-Stockfish's FENs (taken from pyffish 0.0.90 by hand) read and are written back,
//! and `boardlab fen` replays moves in UCI form. The random round trips against pyffish itself
//! are `scripts/fen_oracle_test.py` (run by `scripts/real-clients.sh`).

use boardlab::Variant;
use std::io::{Read, Write};

fn run(args: &[&str], input: &str) -> (bool, String, String) {
    let o = crate::binary(args, input, &crate::scratch("fen-fs"));
    (o.status.success(), String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
}

/// Finished positions: (variant, FEN, the result in words, moves from the start that reach it).
const FINISHED: &[(&str, &str, &str, &str)] = &[
    // Fool's mate.
    ("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "black wins: checkmate", "f2f3 e7e5 g2g4 d8h4"),
    // Stalemate: black's king on a8, white's queen on b6 and king on c6: a7, b7 and b8 are
    // attacked, a8 is not.
    ("chess", "k7/8/1QK5/8/8/8/8/8 b - - 0 1", "draw: stalemate", ""),
    // Four white discs on the first row.
    ("connect-four", "7/7/7/7/ddd4/DDDD3 b - - 0 4", "white wins: four in a row", "@a1 @a2 @b1 @b2 @c1 @c2 @d1"),
    // A white pawn on the far rank.
    ("breakthrough", "P7/1ppppppp/8/8/8/8/1PPPPPPP/PPPPPPPP b - - 0 1", "white wins: reached the far rank", ""),
];

#[test]
fn a_finished_games_fen_reads_back_finished_on_every_path() {
    for &(variant, fen, result, moves) in FINISHED {
        // `boardlab fen`: no moves, and the result.
        let (ok, out, err) = run(&["fen", variant, "--fen", fen], "");
        assert!(ok, "{err}");
        assert_eq!(out, format!("{fen}\n\nresult: {result}\n"), "{variant}");
        // The FEN boardlab writes at the end of the game is that FEN.
        if !moves.is_empty() {
            let (_, out, err) = run(&["fen", variant, "--moves", moves], "");
            assert_eq!(out.lines().next(), Some(fen), "{variant}: {err}");
            assert!(out.ends_with(&format!("result: {result}\n")), "{out}");
        }
        // `show --fen`.
        let (_, out, _) = run(&["show", variant, "--fen", fen], "");
        assert_eq!(out.lines().last(), Some(result), "{variant}: {out}");
        // The REPL's `setup`, then the machine asked for a move.
        let (_, out, err) = run(&["play", variant], &format!("setup {fen}\nai\n"));
        assert!(out.contains(result), "{variant}: {out}");
        assert!(err.contains("ai: no move to make") || err.contains("ai: the game is over"), "{variant}: {err}");
        // A scenario whose position is the FEN.
        let sc: boardlab::scenario::Scenario = toml::from_str(&format!("description = \"finished\"\nposition = \"{fen}\"\n")).unwrap();
        let snap = boardlab::scenario::run(&sc, variant).unwrap();
        assert!(snap.contains(result), "{variant}: {snap}");
        // UCI: no move to give.
        let (_, out, _) =
            run(&["uci"], &format!("uci\nsetoption name UCI_Variant value {variant}\nposition fen {fen}\ngo depth 2\nquit\n"));
        assert!(out.contains("bestmove (none)"), "{variant}: {out}");
    }
}

/// One HTTP request to a `serve` started in this process; the body of the answer.
fn http(addr: std::net::SocketAddr, path: &str, body: &str) -> String {
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    c.write_all(req.as_bytes()).unwrap();
    let mut s = String::new();
    c.read_to_string(&mut s).unwrap();
    s.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default()
}

#[test]
fn serves_fen_of_a_finished_game_reads_back_finished() {
    let s = boardlab::serve::Server::start("127.0.0.1".parse().unwrap(), 0, "chess").unwrap();
    let st: serde_json::Value = serde_json::from_str(&http(s.addr, "/api/games", r#"{"variant": "chess"}"#)).unwrap();
    let id = st["id"].as_u64().unwrap();
    let mut last = serde_json::Value::Null;
    for m in ["f2-f3", "e7-e5", "g2-g4", "d8-h4"] {
        let body = http(s.addr, &format!("/api/games/{id}/move"), &format!("{{\"move\": \"{m}\"}}"));
        last = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    }
    let fen = last["fen"].as_str().unwrap_or_else(|| panic!("no fen in {last}"));
    assert_eq!(fen, FINISHED[0].1);
    let v = Variant::load("chess", &[]).unwrap();
    let mut pos = boardlab::fen::read(&v.rules, fen).unwrap();
    assert_eq!(v.outcome(&mut pos).unwrap().map(|o| o.describe(&v.rules.player_names)).as_deref(), Some(FINISHED[0].2));
}

/// Fairy-Stockfish's FENs (pyffish's `get_fen`, `start_fen`) and what boardlab writes back:
/// the same, but for the documented differences (a variant without a clock rule writes 0;
/// the start positions' short form is written in full).
const FAIRY: &[(&str, &str, &str)] = &[
    ("chess", "rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "="),
    ("minishogi", "rbsgk/4p/5/P4/KGSBR[-] w 0 1", "rbsgk/4p/5/P4/KGSBR[] w - - 0 1"),
    ("dobutsu", "gle/1C1/3/ELG[C] b - - 0 1", "="),
    ("dobutsu", "g1e/1l1/3/ELG[Cc] w - - 0 2", "="),
    ("breakthrough", "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1", "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1"),
    (
        "xiangqi",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1",
    ),
    (
        "pawnsideways",
        "rnbqkbnr/ppppppp1/8/7p/8/1P6/P1PPPPPP/RNBQKBNR w KQkq h5h6 0 2",
        "rnbqkbnr/ppppppp1/8/7p/8/1P6/P1PPPPPP/RNBQKBNR w KQkq h6 0 2",
    ),
    ("capablanca", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1", "="),
];

#[test]
fn fairy_stockfish_fens_read_and_are_written_back() {
    for &(variant, fs, ours) in FAIRY {
        let (ok, out, err) = run(&["fen", variant, "--fen", fs], "");
        assert!(ok, "{variant} {fs}: {err}");
        assert_eq!(out.lines().next(), Some(if ours == "=" { fs } else { ours }), "{variant}");
    }
    // A minishogi position with a tokin (`+P`) and hands, both ways.
    let fen = "rb1gk/4+P/5/P4/KG+SBR[PSp] b - - 0 7";
    assert_eq!(run(&["fen", "minishogi", "--fen", fen], "").1.lines().next(), Some(fen));
}

#[test]
fn boardlab_fen_replays_uci_moves() {
    // Fairy-Stockfish's amazons after d1a1,a1b1: the arrow is boardlab's `X` where it writes `*`.
    let (ok, out, err) = run(&["fen", "amazons", "--moves", "d1a1,a1b1"], "");
    assert!(ok, "{err}");
    assert_eq!(out.lines().next(), Some("3q2q3/10/10/q8q/10/10/Q8Q/10/10/QX4Q3 b - - 0 1"));
    // Minishogi: a pawn in hand dropped (`P@b3`, the same in UCI and boardlab's notation).
    let (ok, out, err) = run(&["fen", "minishogi", "--fen", "rbsgk/4p/5/P4/KGSBR[P] w - - 0 1", "--moves", "P@b3"], "");
    assert!(ok, "{err}");
    assert!(out.starts_with("rbsgk/4p/1P3/P4/KGSBR[] b - - 0 1\n"), "{out}");
    // boardlab's own notation and SAN are read too; an illegal move is refused with its number.
    let (_, out, _) = run(&["fen", "chess", "--moves", "e2e4 e7-e5 Nf3"], "");
    assert!(out.starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n"), "{out}");
    let (ok, _, err) = run(&["fen", "chess", "--moves", "e2e4 e2e4"], "");
    assert!(!ok && err.contains("move 2 `e2e4`"), "{err}");
    // A variant whose pieces carry attributes has no FEN.
    let (ok, _, err) = run(&["fen", "lielow"], "");
    assert!(!ok && err.contains("attributes"), "{err}");
}
