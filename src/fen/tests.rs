//! FEN reading and writing, checked against hand-written FENs.

use super::*;
use crate::variant::Variant;

#[test]
fn chess_fens_read_and_write_back() {
    let v = Variant::load("variants/chess", &[]).unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(write(&v.rules, &v.start()).unwrap(), start);
    assert_eq!(read(&v.rules, start).unwrap(), v.start());
    let mut pos = v.start();
    v.play_all(&mut pos, &["e2-e4".into(), "c7-c5".into(), "g1-f3".into()]).unwrap();
    assert_eq!(write(&v.rules, &pos).unwrap(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    let after_ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let p = read(&v.rules, after_ep).unwrap();
    assert_eq!(
        p.en_passant().map(|(a, b)| (v.rules.geometry.name(crate::geometry::Cell(a)), v.rules.geometry.name(crate::geometry::Cell(b)))),
        Some(("f6", "f5"))
    );
    assert_eq!(write(&v.rules, &p).unwrap(), after_ep);
    // Shredder-FEN: the rooks by file (Chess960), written back the same way when they are
    // the outermost (as letters K/Q).
    let c960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let p = read(&v.rules, c960).unwrap();
    assert_eq!(write(&v.rules, &p).unwrap(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    assert!(looks_like_fen(c960) && !looks_like_fen("8/8/8/8/8/8/8/8 white 3"));
    assert!(read(&v.rules, "8/8/8/8/8/8/8/8 x - - 0 1").unwrap_err().0.contains("w or b"));
    // An en passant cell whose pawn is not the opponent's, and a move number past the limit.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq";
    assert!(read(&v.rules, &format!("{start} e3 0 1")).unwrap_err().0.contains("not the one that just moved"));
    assert!(read(&v.rules, &format!("{start} - 0 4294967295")).unwrap_err().0.contains("past the limit"));
    // So is a position text's ply (a move from it would overflow the count).
    let far = Position::from_text(&v.rules, "4k3/8/8/8/8/8/8/4K3 white 4294967295").unwrap_err();
    assert!(far.0.contains("past the limit"), "{far}");
}

#[test]
fn shogi_fens_carry_hands_and_promoted_pieces() {
    let v = Variant::load("variants/minishogi", &[]).unwrap();
    // Fairy-Stockfish's start position, written without castling and en passant fields.
    let start = read(&v.rules, "rbsgk/4p/5/P4/KGSBR[-] w 0 1").unwrap();
    assert_eq!(start, v.start());
    assert_eq!(write(&v.rules, &start).unwrap(), "rbsgk/4p/5/P4/KGSBR[] w - - 0 1");
    // A tokin (+P) and a promoted silver (+S) on the board, a silver and a pawn in the first
    // player's hand, a pawn in the second's.
    let fen = "rb1gk/4+P/5/P4/KG+SBR[PSp] b - - 0 7";
    let p = read(&v.rules, fen).unwrap();
    let at = |c: &str| v.rules.kind(p.board()[v.rules.geometry.parse_cell(c).unwrap().0 as usize].kind()).name.clone();
    assert_eq!((at("e4"), at("c1")), ("tokin".to_string(), "promoted_silver".to_string()));
    let hand = |k: &str, pl: Player| p.counter(pl, v.rules.counter_slot(&format!("{k}_in_hand")).unwrap());
    assert_eq!((hand("silver", Player::FIRST), hand("pawn", Player::FIRST), hand("pawn", Player::SECOND)), (1, 1, 1));
    assert_eq!(write(&v.rules, &p).unwrap(), fen);
    assert!(looks_like_fen("rbsgk/4p/5/P4/KGSBR[-] w 0 1"));
    // A promoted kind that does not exist, a hand letter that is not dropped, a bad bracket.
    assert!(read(&v.rules, "rbsgk/4p/5/P4/KG+KBR[] w 0 1").unwrap_err().0.contains("+K"));
    assert!(read(&v.rules, "rbsgk/4p/5/P4/KGSBR[K] w 0 1").unwrap_err().0.contains("`K`"));
    assert!(read(&v.rules, "rbsgk/4p/5/P4/KGSBR[P w 0 1").unwrap_err().0.contains("brackets"));
    // The older form: the hand as one row more than the board (crazyhouse's `4K3/Qn`); not
    // where the variant has no hand.
    assert_eq!(read(&v.rules, "rb1gk/4+P/5/P4/KG+SBR/PSp b - - 0 7").unwrap(), p);
    assert!(read(&v.rules, "rbsgk/4p/5/P4/KGSBR/ w 0 1").unwrap() == v.start());
    // Chess has no hand, and its queen (a pawn's promotion among several) is no `+P`.
    let chess = Variant::load("variants/chess", &[]).unwrap();
    assert!(write(&chess.rules, &chess.start()).unwrap().starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"));
    assert!(read(&chess.rules, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Q w - - 0 1").unwrap_err().0.contains("ranks"));
}

/// Loads a variant written into a temporary folder (kept alive by the returned guard).
fn variant_from(toml: &str) -> (tempfile::TempDir, Variant) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("variant.toml"), toml).unwrap();
    let v = Variant::load(dir.path().to_str().unwrap(), &[]).unwrap();
    (dir, v)
}

/// A crazyhouse-like game on 4×4: a pawn promotes to a promoted queen or rook (`U`, `W`),
/// which moves as the queen or rook and goes to the captor's hand as a pawn.
const TILDE: &str = r#"
name = "tilde"
[board]
files = 4
ranks = 4
[players]
names = ["white", "black"]
[zones.far]
by_player = { white = { ranks = [4] }, black = { ranks = [1] } }
[captures]
to_hand = true
[pieces.king]
symbol = "K"
royal = true
moves = [{ step = "all", capture = true }]
[pieces.queen]
symbol = "Q"
moves = [{ slide = "all", capture = true }]
drop = { supply = "hand" }
[pieces.rook]
symbol = "R"
moves = [{ slide = "orthogonal", capture = true }]
drop = { supply = "hand" }
[pieces.pawn]
symbol = "P"
moves = [{ step = "forward", capture = true }]
promote = { to = ["promoted_queen", "promoted_rook"], zone = "far" }
drop = { supply = "hand" }
[pieces.promoted_queen]
symbol = "U"
moves = [{ slide = "all", capture = true }]
in_hand = "pawn"
[pieces.promoted_rook]
symbol = "W"
moves = [{ slide = "orthogonal", capture = true }]
in_hand = "pawn"
[setup]
rows = """
k3
p3
3P
3K
"""
"#;

#[test]
fn promoted_pieces_with_a_twin_are_written_with_a_tilde() {
    let (_dir, v) = variant_from(TILDE);
    let g = &v.rules.geometry;
    // A promoted queen on b4 (white's) and a promoted rook on d1 (black's), an unpromoted queen
    // on c4; a queen and a pawn in white's hand, a pawn in black's (kinds in their order:
    // pawn, queen, rook).
    let fen = "kQ~Q1/p3/3P/2Kr~[PQp] w - - 0 1";
    let p = read(&v.rules, fen).unwrap();
    let at = |c: &str| v.rules.kind(p.board()[g.parse_cell(c).unwrap().0 as usize].kind()).name.clone();
    assert_eq!([at("b4"), at("c4"), at("d1")], ["promoted_queen", "queen", "promoted_rook"]);
    assert!(p.board()[g.parse_cell("d1").unwrap().0 as usize].is_of(Player::SECOND));
    let hand = |k: &str, pl: Player| p.counter(pl, v.rules.counter_slot(&format!("{k}_in_hand")).unwrap());
    assert_eq!([hand("queen", Player::FIRST), hand("pawn", Player::FIRST), hand("pawn", Player::SECOND)], [1, 1, 1]);
    assert_eq!(write(&v.rules, &p).unwrap(), fen);
    // Captured, the promoted rook goes to the hand as a pawn (so it is no plain rook).
    let mut q = p.clone();
    v.play(&mut q, "c1xd1").unwrap();
    assert_eq!(write(&v.rules, &q).unwrap(), "kQ~Q1/p3/3P/3K[PPQp] b - - 0 1");
    // The promoted kinds' own letters read too (the position text's), and are written `~`.
    assert_eq!(write(&v.rules, &read(&v.rules, "kUQ1/p3/3P/2Kw[QPp] w - - 0 1").unwrap()).unwrap(), fen);
    // A king has no promoted twin; nor does a pawn.
    assert!(read(&v.rules, "kK~2/p3/3P/3K[] w - - 0 1").unwrap_err().0.contains("`K~`"));
    assert!(read(&v.rules, "k3/p~3/3P/3K[] w - - 0 1").unwrap_err().0.contains("`p~`"));
    // `+P` names no kind here: the promoted kinds have twins, so they are not written `+`.
    assert!(read(&v.rules, "k+P2/p3/3P/3K[] w - - 0 1").unwrap_err().0.contains("`+P`"));
}

#[test]
fn a_kind_promoted_without_a_choice_is_written_with_a_plus() {
    // The same game where a pawn promotes to the promoted queen alone: shogi's form, `+P`.
    let one = TILDE.replace(r#"to = ["promoted_queen", "promoted_rook"]"#, r#"to = "promoted_queen""#);
    let (_dir, v) = variant_from(&one);
    let p = read(&v.rules, "k+P2/p3/3P/3K[] w - - 0 1").unwrap();
    assert_eq!(v.rules.kind(p.board()[v.rules.geometry.parse_cell("b4").unwrap().0 as usize].kind()).name, "promoted_queen");
    assert_eq!(write(&v.rules, &p).unwrap(), "k+P2/p3/3P/3K[] w - - 0 1");
    assert!(read(&v.rules, "kQ~2/p3/3P/3K[] w - - 0 1").is_err());
}

/// Chess with a counter of the checks each player has still to give, written in the FEN's
/// check field as Fairy-Stockfish writes three-check's.
const CHECKS: &str = r#"
extends = "chess"
name = "checks"
[notation]
fen_checks = "checks_left"
[counters]
checks_left = 3
"#;

#[test]
fn a_check_counter_is_written_after_the_en_passant_field() {
    let (_dir, v) = variant_from(CHECKS);
    let slot = v.rules.counter_slot("checks_left").unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1";
    assert_eq!(write(&v.rules, &v.start()).unwrap(), start);
    assert_eq!(read(&v.rules, start).unwrap(), v.start());
    // Fairy-Stockfish's FEN after 1.e4 f6 2.Qh5+: white has two checks left to give.
    let fen = "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2";
    let p = read(&v.rules, fen).unwrap();
    assert_eq!((p.counter(Player::FIRST, slot), p.counter(Player::SECOND, slot)), (2, 3));
    assert_eq!(write(&v.rules, &p).unwrap(), fen);
    // Without the field the counter keeps its start value; a bad field is named.
    let p = read(&v.rules, "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2").unwrap();
    assert_eq!(p.counter(Player::FIRST, slot), 3);
    assert!(read(&v.rules, "4k3/8/8/8/8/8/8/4K3 w - - 3+x 0 1").unwrap_err().0.contains("check field"));
    // Lichess's form: the checks given after the move number, counted down from the start (3).
    let p = read(&v.rules, "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 +1+0").unwrap();
    assert_eq!((p.counter(Player::FIRST, slot), p.counter(Player::SECOND, slot)), (2, 3));
    assert!(read(&v.rules, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+y").unwrap_err().0.contains("+N+N"));
    // Chess counts no checks: its FEN has no such field.
    let chess = Variant::load("chess", &[]).unwrap();
    assert!(read(&chess.rules, "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1").unwrap_err().0.contains("counts no checks"));
    assert!(read(&chess.rules, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+0").unwrap_err().0.contains("`+1+0`"));
    // The counter must be one the variant declares.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("variant.toml"), CHECKS.replace("fen_checks = \"checks_left\"", "fen_checks = \"checks\"")).unwrap();
    let Err(e) = Variant::load(dir.path().to_str().unwrap(), &[]) else { panic!("an undeclared counter loaded") };
    let e = e.render(false);
    assert!(e.contains("unknown counter") || e.contains("counter `checks`"), "{e}");
}

#[test]
fn an_en_passant_field_may_list_several_cells() {
    // Fairy-Stockfish's pawnsideways after 1.b3 h5: `h5h6` (the landing cell too); boardlab
    // keeps the cell passed, h6, and writes it alone.
    let v = Variant::load("pawnsideways", &[]).unwrap();
    let p = read(&v.rules, "rnbqkbnr/ppppppp1/8/7p/8/1P6/P1PPPPPP/RNBQKBNR w KQkq h5h6 0 2").unwrap();
    let g = &v.rules.geometry;
    assert_eq!(p.en_passant().map(|(a, b)| (g.name(crate::geometry::Cell(a)), g.name(crate::geometry::Cell(b)))), Some(("h6", "h5")));
    assert_eq!(write(&v.rules, &p).unwrap(), "rnbqkbnr/ppppppp1/8/7p/8/1P6/P1PPPPPP/RNBQKBNR w KQkq h6 0 2");
    // No cell of the list fits; a character that names no cell (and is no ASCII).
    let e = read(&v.rules, "rnbqkbnr/ppppppp1/8/7p/8/1P6/P1PPPPPP/RNBQKBNR w KQkq g5g6 0 2").unwrap_err();
    assert!(e.0.contains("not the one that just moved"), "{e}");
    assert!(read(&v.rules, "rnbqkbnr/ppppppp1/8/7p/8/1P6/P1PPPPPP/RNBQKBNR w KQkq h6é 0 2").unwrap_err().0.contains("not a cell"));
}

/// Expected values from pyffish (`get_fen` after the moves): the gates in the castling field.
#[test]
fn gates_are_written_in_the_castling_field() {
    let v = Variant::load("seirawan", &[]).unwrap();
    let middle = "reb1k2r/ppppqppp/2nb1n2/4p3/4P3/N1P2N2/PB1PQPPP/RE2KBHR[h] b KQkqc - 3 7";
    let cases = [
        (None, "b1-c3 g8-f6 c3-b1", "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] b KQCDFGkqbcdf - 3 2"),
        (None, "b1-c3/H g8-f6/E g1-f3/E", "rnbqkber/pppppppp/5n2/8/8/2N2N2/PPPPPPPP/RHBQKBER[h] b KQkqbcdf - 3 2"),
        (Some(middle), "O-O", "reb2rk1/ppppqppp/2nb1n2/4p3/4P3/N1P2N2/PB1PQPPP/RE2KBHR[h] w KQac - 4 8"),
        (Some(middle), "O-O/H@e8", "reb1hrk1/ppppqppp/2nb1n2/4p3/4P3/N1P2N2/PB1PQPPP/RE2KBHR[] w KQ - 4 8"),
        (Some(middle), "O-O/H@h8", "reb2rkh/ppppqppp/2nb1n2/4p3/4P3/N1P2N2/PB1PQPPP/RE2KBHR[] w KQ - 4 8"),
        (Some(middle), "e8-f8", "reb2k1r/ppppqppp/2nb1n2/4p3/4P3/N1P2N2/PB1PQPPP/RE2KBHR[h] w KQach - 4 8"),
    ];
    for (start, moves, fen) in cases {
        let mut pos = start.map_or_else(|| v.start(), |f| read(&v.rules, f).unwrap());
        let moves: Vec<String> = moves.split(' ').map(String::from).collect();
        v.play_all(&mut pos, &moves).unwrap();
        assert_eq!(write(&v.rules, &pos).unwrap(), fen, "{moves:?}");
        // Read back, the same position: the same gates, the same hash.
        let back = read(&v.rules, fen).unwrap();
        assert_eq!((back.gates(), back.hash()), (pos.gates(), pos.hash()), "{fen}");
    }
    assert_eq!(write(&v.rules, &v.start()).unwrap(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 1");
}
