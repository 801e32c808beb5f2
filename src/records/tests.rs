//! Moves written in each style read back to the same move; SAN texts checked against
//! python-chess; records through PGN and PDN.

use super::MoveWriter;
use super::convert::{Format, Header, game_text, read};
use crate::notation::Move;
use crate::rules::MoveStyle;
use crate::state::Position;
use crate::variant::Variant;
use rand::RngExt;

/// Every legal move of every position of `games` seeded random games (at most `plies` each)
/// is written by `w` and read back through the variant's move input to the same move.
fn round_trip(v: &Variant, style: MoveStyle, games: u64, plies: usize) -> usize {
    let w = MoveWriter::with_style(v, style);
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = crate::ai::rng(seed);
        let mut pos = v.start();
        for _ in 0..plies {
            let mut legal = Vec::new();
            v.legal_moves(&mut pos, &mut legal).unwrap();
            if legal.is_empty() || pos.result().is_some() {
                break;
            }
            for m in &legal {
                let text = w.text(&pos, m);
                let back = v
                    .find_move(&mut pos.clone(), &text)
                    .unwrap_or_else(|e| panic!("{}: {text} ({}): {e}", v.name(), m.text(&v.rules.geometry)));
                assert_eq!(back, *m, "{}: {text} read back as {}", v.name(), back.text(&v.rules.geometry));
                checked += 1;
            }
            let m = legal[rng.random_range(0..legal.len())];
            v.make(&mut pos, &m).unwrap();
        }
    }
    checked
}

#[test]
fn san_reads_back_to_the_same_move() {
    for name in ["chess", "capablanca", "antichess", "shatranj"] {
        let v = Variant::load(name, &[]).unwrap();
        assert_eq!(v.rules.move_style, MoveStyle::San, "{name} shows SAN");
        assert!(round_trip(&v, MoveStyle::San, 12, 120) > 5000, "{name}");
    }
}

#[test]
fn numbered_squares_read_back_to_the_same_move() {
    for name in ["checkers", "international", "brazilian"] {
        let v = Variant::load(name, &[]).unwrap();
        assert!(matches!(v.rules.move_style, MoveStyle::Numbered { .. }), "{name} numbers its squares");
        assert!(round_trip(&v, v.rules.move_style, 8, 150) > 1000, "{name}");
    }
}

/// Expected texts from python-chess (`Board.san(Move.from_uci(…))`).
#[test]
fn san_as_python_chess_writes_it() {
    let v = Variant::load("chess", &[]).unwrap();
    let w = MoveWriter::new(&v);
    let cases: [(&str, &[(&str, &str)]); 8] = [
        (
            "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3",
            &[("b1d2", "Nbd2"), ("f3d2", "Nfd2"), ("c1g5", "Bg5"), ("e2e4", "e4")],
        ),
        (
            "4k3/3P4/8/R7/8/8/8/R3K3 w - - 0 1",
            &[("a1a3", "R1a3+"), ("a5a3", "R5a3+"), ("d7d8q", "d8=Q+"), ("d7d8n", "d8=N"), ("a5a8", "Ra8+")],
        ),
        (
            "k7/8/8/8/4Q2Q/8/8/K6Q w - - 0 1",
            &[("h4e1", "Qh4e1+"), ("e4e1", "Qee1+"), ("h1e1", "Q1e1+"), ("h4h2", "Q4h2+"), ("e4a8", "Qxa8")],
        ),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &[("e1g1", "O-O"), ("e1c1", "O-O-O"), ("a1a8", "Rxa8+"), ("h1h8", "Rxh8+")]),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", &[("e5d6", "exd6"), ("e5e6", "e6")]),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", &[("a1a8", "Ra8#")]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[("g1f3", "Nf3"), ("e2e4", "e4")]),
        ("1n2k3/2P5/8/8/8/8/8/4K3 w - - 0 1", &[("c7b8q", "cxb8=Q+"), ("c7c8r", "c8=R+")]),
    ];
    for (fen, moves) in cases {
        let pos = crate::fen::read(&v.rules, fen).unwrap();
        let mut legal = Vec::new();
        v.legal_moves(&mut pos.clone(), &mut legal).unwrap();
        for (uci, san) in moves {
            let m = legal.iter().find(|m| crate::protocol::coords::text(m, &v.rules.geometry) == *uci).unwrap_or_else(|| panic!("{uci}"));
            assert_eq!(w.text(&pos, m), *san, "{fen} {uci}");
        }
    }
    // A drop: the kind's letter, `@`, the cell (minishogi's pawn in hand).
    let s = Variant::load("minishogi", &[]).unwrap();
    let drop = Move::drop(crate::piece::PieceCode::EMPTY, b'P', true, s.rules.geometry.parse_cell("c3").unwrap().0);
    assert_eq!(crate::san::write(&drop, &s.rules, &s.start(), None, &[]).as_deref(), Some("P@c3"));
}

#[test]
fn the_repl_moves_of_a_chess_opening() {
    let v = Variant::load("chess", &[]).unwrap();
    let mut pos = v.start();
    let texts = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"];
    let mut moves = Vec::new();
    for t in texts {
        moves.push(v.play(&mut pos, t).unwrap());
    }
    assert_eq!(MoveWriter::new(&v).line(&v.start(), &moves), texts);
}

#[test]
fn a_column_letter_drops_in_that_column() {
    let v = Variant::load("connect-four", &[]).unwrap();
    let mut pos = v.start();
    for _ in 0..6 {
        let m = v.play(&mut pos, "d").unwrap();
        assert_eq!(m.text(&v.rules.geometry).chars().nth(1), Some('d'));
    }
    let before = pos.clone();
    assert!(v.play(&mut pos, "d").unwrap_err().to_string().contains("column d takes no piece"));
    assert!(pos == before);
    assert!(v.play(&mut pos, "z").is_err());
    // Not in a game whose moves are not all drops.
    let c = Variant::load("chess", &[]).unwrap();
    assert!(c.play(&mut c.start(), "e").is_err());
}

/// A chess game through PGN and back: its tags, and the same moves and result.
#[test]
fn pgn_and_pdn_round_trips() {
    for (name, format, moves) in [
        ("chess", Format::Pgn, &["f3", "e5", "g4", "Qh4#"][..]),
        ("antichess", Format::Pgn, &["e3", "b5", "Bxb5"][..]),
        ("checkers", Format::Pdn, &["11-15", "22-18", "15x22", "25x18"][..]),
        ("international", Format::Pdn, &["32-28", "19-23", "28x19"][..]),
    ] {
        let v = Variant::load(name, &[]).unwrap();
        let mut pos = v.start();
        let played: Vec<Move> = moves.iter().map(|t| v.play(&mut pos, t).unwrap()).collect();
        let header = Header { players: ["a".into(), "b".into()], ..Header::default() };
        let text = game_text(&v, format, (&v.start(), &played), &[], &header).unwrap();
        let back = read(&text, format).unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(back.len(), 1);
        let own: Vec<String> = played.iter().map(|m| m.text(&v.rules.geometry)).collect();
        assert_eq!((back[0].variant.as_str(), &back[0].moves), (name, &own), "{text}");
        assert_eq!(back[0].result, v.outcome(&mut pos).unwrap().map(|r| r.describe(&v.rules.player_names)));
        let written: Vec<&str> =
            text.split_whitespace().filter(|w| !w.ends_with('.') && !w.starts_with('[') && !w.ends_with("\"]")).collect();
        assert!(moves.iter().all(|m| written.contains(m)), "{text}");
    }
}

#[test]
fn pgn_tags() {
    let v = Variant::load("chess", &[]).unwrap();
    let mut pos = v.start();
    let played = vec![
        v.play(&mut pos, "f3").unwrap(),
        v.play(&mut pos, "e5").unwrap(),
        v.play(&mut pos, "g4").unwrap(),
        v.play(&mut pos, "Qh4#").unwrap(),
    ];
    let text = game_text(&v, Format::Pgn, (&v.start(), &played), &[], &Header::default()).unwrap();
    assert!(text.starts_with("[Event \"boardlab game\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# {"), "{text}");
    assert!(!text.contains("Variant") && !text.contains("FEN"));
    // From a set position, after the first player's move: SetUp, FEN and `1...`.
    let start = crate::fen::read(&v.rules, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
    let mut p = start.clone();
    let m = v.play(&mut p, "Kd7").unwrap();
    let text = game_text(&v, Format::Pgn, (&start, &[m]), &[("move_limit".into(), "100".into())], &Header::default()).unwrap();
    assert!(text.contains("[Variant \"chess\"]\n[BoardlabOptions \"move_limit=100\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 *"), "{text}");
    let back = read(&text, Format::Pgn).unwrap();
    assert_eq!(back[0].start, Some(start.to_text(&v.rules)));
    assert_eq!(back[0].options.get("move_limit").map(String::as_str), Some("100"));
    // A move that is not legal says where it stands.
    let e = read("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n", Format::Pgn).unwrap_err().to_string();
    assert!(e.starts_with("line 3, column 13: move 3 (`Ke3`): "), "{e}");
}

#[test]
fn pdn_fen_and_game_type() {
    let v = Variant::load("checkers", &[]).unwrap();
    let start = v.start();
    // English draughts: PDN's Black (the first player here) holds 1-12 and moves first.
    let fen = super::convert::pdn_fen(&v, &start).unwrap();
    assert_eq!(fen, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    assert!(super::convert::read_pdn_fen(&v, &fen).unwrap() == start);
    let p: Position = super::convert::read_pdn_fen(&v, "W:WK3:B30").unwrap();
    assert_eq!(p.to_text(&v.rules).split(' ').next(), Some("2M1/4/4/4/4/4/4/1k2"));
    let text = game_text(&v, Format::Pdn, (&start, &[]), &[], &Header::default()).unwrap();
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    let i = Variant::load("international", &[]).unwrap();
    let text = game_text(&i, Format::Pdn, (&i.start(), &[]), &[], &Header::default()).unwrap();
    assert!(text.contains("[GameType \"20\"]"), "{text}");
    // Read by its GameType alone.
    let r = read("[GameType \"21\"]\n1. 11-15 *\n", Format::Pdn).unwrap();
    assert_eq!((r[0].variant.as_str(), r[0].moves[0].as_str()), ("checkers", "c3-d4"));
}
