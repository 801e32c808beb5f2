//! Issue 50: constructs that compose. Each test shows one defect a designer met, on a small
//! variant in `tests/compose/` where no shipped game shows it, and fails without its fix.

use boardlab::Variant;

fn text_after(path: &str, moves: &[&str]) -> String {
    let v = Variant::load(path, &[]).unwrap();
    let mut pos = v.start();
    for m in moves {
        v.play(&mut pos, m).unwrap();
    }
    pos.to_text(&v.rules)
}

/// The built-in zone `board` holds every cell wherever a zone is reached: a promotion into it
/// promotes on any landing (it never did: the name meant "no zone" there), and an exit into it
/// takes the piece off wherever it lands.
#[test]
fn the_board_zone_is_reached_everywhere() {
    // c1-c2: the man lands on c2 and is crowned there.
    assert_eq!(text_after("tests/compose/board-zone", &["c1-c2"]), "m2/2K/3 black 1");
    // c1-c2: the man leaves the game from c2, counted; white has no man left and loses.
    assert_eq!(text_after("tests/compose/board-exit", &["c1-c2"]), "m2/3/3 black 1 counters=gone:1:0 result=\"black wins: all men gone\"");
}

/// A script that removes a rook takes its castling right with it: the king does not castle
/// alone (it used to jump to g1 with no rook appearing), and the position text drops the right.
#[test]
fn a_rook_a_script_removes_takes_its_castling_right() {
    let v = Variant::load("tests/compose/castle-no-rook", &[]).unwrap();
    let mut pos = boardlab::Position::from_text(&v.rules, "r3k2r/8/8/8/8/8/5N2/R3K2R w KQkq - 0 1").unwrap();
    // The knight lands on h3: the script removes the rook on h1.
    for m in ["f2-h3", "a8-a7"] {
        v.play(&mut pos, m).unwrap();
    }
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves).unwrap();
    let texts: Vec<String> = moves.iter().map(|m| m.text(&v.rules.geometry)).collect();
    assert!(!texts.iter().any(|t| t == "O-O"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "O-O-O"), "{texts:?}");
    // White keeps a1's right, black h8's (its a8 rook moved).
    assert_eq!(pos.to_text(&v.rules), "4k2r/r7/8/8/8/7N/8/R3K3 white 2 clock=2 castle=a1,h8");
}

fn why(path: &str, position: Option<&str>, mv: &str) -> String {
    let mut s = boardlab::Session::new(path, &[], boardlab::Style::PLAIN).unwrap();
    if let Some(p) = position {
        s.execute(&format!("setup {p}")).unwrap();
    }
    s.execute(&format!("why {mv}")).unwrap().output(std::time::Duration::ZERO)
}

fn moves_of(path: &str, position: Option<&str>) -> Vec<String> {
    let v = Variant::load(path, &[]).unwrap();
    let mut pos = match position {
        Some(p) => boardlab::Position::from_text(&v.rules, p).unwrap(),
        None => v.start(),
    };
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves).unwrap();
    moves.iter().map(|m| m.text(&v.rules.geometry)).collect()
}

/// `allow_move` is asked about castling as about any move: a script refusing every king's move
/// leaves no castling (O-O and O-O-O used to escape it), and `why` gives the script's reason.
#[test]
fn castling_passes_the_scripts_filter() {
    const OPEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let moves = moves_of("tests/compose/castle-refused", Some(OPEN));
    assert!(!moves.iter().any(|m| m.starts_with("O-O") || m.starts_with("e1")), "{moves:?}");
    assert_eq!(moves.len(), 19, "the rooks' 19 moves: {moves:?}");
    assert!(why("tests/compose/castle-refused", Some(OPEN), "O-O").contains("the king stays at home"));
    // In plain chess it is legal, and `why` writes it as the game does (not "o-o").
    assert_eq!(why("chess", Some(OPEN), "o-o"), "O-O is legal\n");
}

/// Castling's tests of attack are a royal king's: a king that is not royal, in a game with no
/// check rule, castles across the attacked f1; a royal one may not, and `why` says the cell is
/// attacked without speaking of check.
#[test]
fn only_a_royal_king_minds_attack_when_castling() {
    assert!(moves_of("tests/compose/castle-commoner", None).contains(&"O-O".to_string()));
    assert!(!moves_of("tests/compose/castle-royal", None).contains(&"O-O".to_string()));
    let w = why("tests/compose/castle-royal", None, "O-O");
    assert!(w.contains("the king would cross f1, attacked by the rook on f2"), "{w}");
    assert!(!w.contains("check"), "{w}");
}

/// Under `check = "illegal"`, the capture policy applies to the legal moves: the knight on b2
/// is pinned by the bishop on h8, so its capture of d3 is not legal and does not make the
/// king's moves illegal (the list used to be empty and the game "won" for want of moves). Where
/// a legal capture exists it is still compulsory.
#[test]
fn a_capture_that_is_not_legal_is_not_compulsory() {
    let path = "tests/compose/compulsory-check";
    let mut moves = moves_of(path, Some("7b/8/8/8/8/3p4/1N6/K6k w - - 0 1"));
    moves.sort();
    assert_eq!(moves, ["a1-a2", "a1-b1"]);
    // Unpinned (the bishop gone), the knight must take.
    assert_eq!(moves_of(path, Some("8/8/8/8/8/3p4/1N6/K6k w - - 0 1")), ["b2xd3"]);
    let w = why(path, Some("8/8/8/8/8/3p4/1N6/K6k w - - 0 1"), "a1-a2");
    assert!(w.contains("b2xd3"), "{w}");
}

/// `allow_move` sees each promotion choice as a move of its own: a script refusing promotion
/// to a knight leaves the other three, and `why` gives its reason for the knight.
#[test]
fn a_script_may_refuse_one_promotion_choice() {
    let (path, at) = ("tests/compose/promotion-refused", "8/P7/8/8/8/8/8/K6k w - - 0 1");
    let moves = moves_of(path, Some(at));
    let promotions: Vec<&String> = moves.iter().filter(|m| m.starts_with("a7")).collect();
    assert_eq!(promotions, ["a7-a8=Q", "a7-a8=R", "a7-a8=B"]);
    let w = why(path, Some(at), "a7-a8=N");
    assert!(w.contains("no promotion to a knight here"), "{w}");
}

/// A capture the script refuses gives no check: with knights that never capture, the knight on
/// d3 does not check the king on e1 (the pawn may move, the king may step to f2 beside it);
/// chess, with no script, is in check there.
#[test]
fn a_capture_the_script_refuses_gives_no_check() {
    const AT: &str = "4k3/p7/8/8/8/3n4/P7/4K3 w - - 0 1";
    let mut moves = moves_of("tests/compose/refused-capture-no-check", Some(AT));
    moves.sort();
    assert_eq!(moves, ["a2-a3", "a2-a4", "e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2"]);
    let mut chess = moves_of("chess", Some(AT));
    chess.sort();
    assert_eq!(chess, ["e1-d1", "e1-d2", "e1-e2", "e1-f1"]);
}

/// A two-part turn's placed piece comes from the mover's hand where its kind is dropped from
/// one: with one wall in hand, the walker's turns (a step or a capture, then a wall beside the
/// landing) are listed; once the wall is placed, none are, and the position text shows the hand
/// emptied. The capture has its second part too, read after the capture.
#[test]
fn a_placed_piece_comes_from_the_hand() {
    let path = "tests/compose/then-from-hand";
    assert_eq!(moves_of(path, None), ["a1-a2/a1", "a1-a2/a3", "a1-a2/b2", "a1-b1/a1", "a1-b1/b2", "a1-b1/c1"]);
    let v = Variant::load(path, &[]).unwrap();
    let mut pos = v.start();
    for text in ["a1-a2/a3", "d4-d3/d4"] {
        let m = v.find_move(&mut pos, text).unwrap();
        v.make(&mut pos, &m).unwrap();
    }
    let text = pos.to_text(&v.rules);
    assert!(text.contains("wall_in_hand:0:0"), "{text}");
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves).unwrap();
    assert!(moves.is_empty(), "no wall left to place: {moves:?}");
    // A capture with its second part: black's walker takes on c1, then walls b1 (white's hand
    // is empty, black's has one).
    let at = "4/4/4/1Ww1 black 0 counters=wall_in_hand:0:1";
    let mut black = moves_of(path, Some(at));
    black.sort();
    assert!(black.contains(&"c1xb1/c1".to_string()) && black.contains(&"c1xb1/a1".to_string()), "{black:?}");
}

/// A per-file limit on drops: with `file_limit = 2`, a swallow may be dropped on file b (one of
/// white's there) but not on file a (two), and `why` names the two; with the limit at its
/// default, 1, file b would be refused too.
#[test]
fn a_file_holds_at_most_its_limit() {
    let path = "tests/compose/file-limit";
    let drops: Vec<String> = moves_of(path, None).into_iter().filter(|m| m.starts_with('@')).collect();
    assert_eq!(drops, ["@b1", "@c1", "@c2", "@b3", "@c3", "@b4"]);
    let w = why(path, None, "@a4");
    assert!(w.contains("may not be dropped on file a, which holds 2 of your swallows already (a2, a3)"), "{w}");
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(format!("{path}/variant.toml")).unwrap().replace(", file_limit = 2", "");
    std::fs::write(dir.path().join("variant.toml"), text).unwrap();
    let drops: Vec<String> = moves_of(dir.path().to_str().unwrap(), None).into_iter().filter(|m| m.starts_with('@')).collect();
    assert_eq!(drops, ["@c1", "@c2", "@c3"]);
}

/// `give_check = false` (racing kings' rule): of chess's 22 moves here the queen's four that
/// would check the king on e8 (a4 and e5 along a diagonal and a file, a8 and h8 along the
/// eighth rank) are not legal, and `why` says so.
#[test]
fn no_check_may_be_given() {
    const AT: &str = "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1";
    let path = "tests/compose/no-giving-check";
    let (mut ours, mut chess) = (moves_of(path, Some(AT)), moves_of("chess", Some(AT)));
    ours.sort();
    chess.sort();
    assert_eq!(chess.len(), 22);
    let gone: Vec<&String> = chess.iter().filter(|m| !ours.contains(m)).collect();
    assert_eq!(gone, ["a1-a4", "a1-a8", "a1-e5", "a1-h8"]);
    let w = why(path, Some(AT), "a1-a8");
    assert!(w.contains("it gives check, and these rules forbid giving check"), "{w}");
}

/// `[rules] pass = true` (janggi's voluntary pass): chess's 20 opening moves and a pass; 441
/// at depth 2 by hand (no check is possible in two plies, so every position has its 20 moves
/// and a pass: 21 x 21); in check the pass is refused like any move that leaves the king
/// attacked.
#[test]
fn a_player_may_pass_but_not_in_check() {
    let path = "tests/compose/may-pass";
    let start = moves_of(path, None);
    assert_eq!((start.len(), start.last().map(String::as_str)), (21, Some("pass")));
    let v = Variant::load(path, &[]).unwrap();
    assert_eq!(boardlab::perft::perft(&v, &mut v.start(), 2).unwrap(), 441);
    let mut checked = moves_of(path, Some("4k3/8/8/8/8/8/8/4K2r w - - 0 1"));
    checked.sort();
    assert_eq!(checked, ["e1-d2", "e1-e2", "e1-f2"]);
}

/// `why` reads SAN in its own case and explains a move the pieces make but the rules refuse:
/// in atomic, `Kxd2` (a king's capture blows it up) and `Qxd2` (beside its own king); in
/// chess, a pinned knight's `Nc3`. Both used to answer that the text names no legal move (and
/// the REPL's `why` lowercased `Kf1` into nothing).
#[test]
fn why_explains_an_illegal_san_move() {
    let at = "4k3/q7/7Q/8/8/8/3nn3/R3K3 w - - 0 1";
    for mv in ["Kxd2", "Qxd2"] {
        let w = why("atomic", Some(at), mv);
        assert!(w.contains("its explosion takes your king on e1"), "{mv}: {w}");
    }
    let w = why("chess", Some("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"), "Nc3");
    assert!(w.contains("it leaves your king on e1 in check by the rook on e7"), "{w}");
    let w = why("atomic", Some(at), "Rxa7");
    assert!(w.contains("Rxa7 is legal as a1xa7"), "{w}");
}

/// The check rule holds for a move that wins too: in shatranj the white king may not take the
/// defended ferz on c3 although the capture bares the black king (it is defended by the king on
/// c4, so the white king would stand in check). Fairy-Stockfish agrees: `a1-b2 c2-b1 c2-c1
/// c2-d1 h1-g2`.
#[test]
fn a_winning_move_obeys_the_check_rule() {
    let mut moves = moves_of("shatranj", Some("8/8/8/8/2k5/2q5/2K5/Q6Q w - - 0 1"));
    moves.sort();
    assert_eq!(moves, ["a1-b2", "c2-b1", "c2-c1", "c2-d1", "h1-g2"]);
}

/// A variant that extends a castling game takes castling away with `castling = false` or a
/// `[castling]` section with no side (which used to fail with "missing field `king`", or
/// "castling needs a side"); `castling = true` is an error at its key.
#[test]
fn extends_takes_castling_away() {
    const AT: &str = "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1";
    for path in ["tests/compose/no-castling", "tests/compose/no-castling-side"] {
        let moves = moves_of(path, Some(AT));
        assert!(!moves.iter().any(|m| m.starts_with("O-O")), "{path}: {moves:?}");
        assert_eq!(moves.len(), 26 - 2, "{path}: chess's 26 moves but the two castlings");
    }
    assert_eq!(moves_of("chess", Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")).len(), 26);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("variant.toml"), "name = \"x\"\nextends = \"chess\"\ncastling = true\n").unwrap();
    let e = Variant::load(dir.path().to_str().unwrap(), &[]).err().expect("castling = true is refused").to_string();
    assert!(e.contains("castling = true"), "{e}");
}

/// `[[end]]` by name under `extends`: a named end replaces the inherited end it names (here
/// chess's stalemate, named by its reason since chess has two `no_moves` ends) or, with
/// `remove = true`, takes it away (chess's one `material` end, named by its condition); the
/// other inherited ends stay without being restated. A `remove` that names nothing is an error
/// at its key.
#[test]
fn ends_merge_by_name() {
    let v = Variant::load("tests/compose/ends-by-name", &[]).unwrap();
    let outcome = |text: &str| {
        let mut pos = boardlab::Position::from_text(&v.rules, text).unwrap();
        v.outcome(&mut pos).unwrap().map(|o| o.describe(&v.rules.player_names))
    };
    assert_eq!(outcome("k7/8/1Q6/8/8/8/8/7K b - - 0 1").as_deref(), Some("white wins: stalemated"));
    // Kings alone: chess calls it a draw; here the game goes on.
    assert_eq!(outcome("k7/8/8/8/8/8/8/7K w - - 0 1"), None);
    // Checkmate is still chess's.
    assert_eq!(outcome("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1").as_deref(), Some("white wins: checkmate"));
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"x\"\nextends = \"chess\"\n\n[[end]]\nname = \"castled\"\nremove = true\ncondition = \"no_moves\"\n";
    std::fs::write(dir.path().join("variant.toml"), text).unwrap();
    let e = Variant::load(dir.path().to_str().unwrap(), &[]).err().expect("a remove naming nothing is refused").to_string();
    assert!(e.contains("`remove` names no inherited end condition: `castled`"), "{e}");
}

/// A piece dropped promoted side up (`from_hand_of`): the lance white captures is one piece in
/// hand, shown and written once (`L`, not both faces' letters, `LT`), which it may drop as a
/// lance or as a tokin on each of the six empty cells (counted by hand); either drop empties
/// the hand.
#[test]
fn a_piece_in_hand_drops_either_face_up() {
    let path = "tests/compose/drop-face-up";
    let v = Variant::load(path, &[]).unwrap();
    let mut pos = v.start();
    for text in ["c1xc3", "a3-a2"] {
        let m = v.find_move(&mut pos, text).unwrap();
        v.make(&mut pos, &m).unwrap();
    }
    assert_eq!(boardlab::fen::write(&v.rules, &pos).unwrap(), "2L/k2/K2[L] w - - 0 2");
    let mut s = boardlab::Session::new(path, &[], boardlab::Style::PLAIN).unwrap();
    for text in ["c1xc3", "a3-a2"] {
        s.execute(text).unwrap();
    }
    let shown = s.execute("show").unwrap().output(std::time::Duration::ZERO);
    assert!(shown.contains("in hand: white L, black none"), "{shown}");
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves).unwrap();
    let mut drops: Vec<String> = moves.iter().map(|m| m.text(&v.rules.geometry)).filter(|t| t.contains('@')).collect();
    drops.sort();
    let cells = ["a3", "b1", "b2", "b3", "c1", "c2"];
    let expected: Vec<String> = ["L", "T"].iter().flat_map(|k| cells.iter().map(move |c| format!("{k}@{c}"))).collect();
    assert_eq!(drops, expected);
    let m = v.find_move(&mut pos, "T@b2").unwrap();
    v.make(&mut pos, &m).unwrap();
    assert!(pos.to_text(&v.rules).contains("lance_in_hand:0:0"), "{}", pos.to_text(&v.rules));
}

/// A form barred in check (`not_in_check`): from its start cell the king also leaps as a
/// knight, to a2, b3 and d3 (e2 is the rook's), 8 moves with its five steps; checked along the
/// c-file it has only its four safe steps, no leap, and `why` says so (counted by hand).
#[test]
fn a_king_may_not_leap_while_in_check() {
    let path = "tests/compose/no-leap-in-check";
    let mut free = moves_of(path, None);
    free.sort();
    assert_eq!(free, ["c1-a2", "c1-b1", "c1-b2", "c1-b3", "c1-c2", "c1-d1", "c1-d2", "c1-d3"]);
    let checked = "k1r2/5/5/5/2K2 white 0";
    let mut moves = moves_of(path, Some(checked));
    moves.sort();
    assert_eq!(moves, ["c1-b1", "c1-b2", "c1-d1", "c1-d2"]);
    assert_eq!(why(path, Some(checked), "c1-d3"), "a king may not move so while in check\n");
}
