//! The REPL's session, driven without a terminal.

use boardlab::Session;
use boardlab::Style;

fn session(v: &str) -> Session {
    Session::new(v, &[], Style::PLAIN).unwrap()
}

#[test]
fn play_undo_redo() {
    let mut s = session("basileus");
    assert_eq!(s.prompt(), "basileus 0 white> ");
    s.execute("e2-e3").unwrap();
    assert_eq!(s.prompt(), "basileus 1 black> ");
    s.execute("undo").unwrap();
    assert_eq!(s.pos, s.variant.start());
    s.execute("redo").unwrap();
    assert_eq!(s.pos.ply(), 1);
    assert!(s.execute("quit").unwrap().quits());
}

#[test]
fn bad_input_leaves_the_game_unchanged() {
    let mut s = session("basileus");
    s.execute("e2-e3").unwrap();
    let before = s.pos.clone();
    assert!(s.execute("e3-e5").is_err());
    assert!(s.execute("frobnicate").unwrap_err().to_string().contains("unknown command"));
    assert!(s.execute("set capture_choice sometimes").is_err());
    assert_eq!(s.pos, before);
    let why = s.execute("why e7-e5").unwrap().text;
    assert!(why.contains("cannot play e7-e5"), "{why}");
}

#[test]
fn prefixes_and_ambiguity() {
    let mut s = Session::new("basileus", &[], Style::PLAIN).unwrap();
    s.execute("setup 9/4k4/9/4p4/4P4/9/4K4/9 white 0").unwrap();
    // Unique prefix of whole cells.
    s.execute("e4x").unwrap();
    assert!(s.pos.result().is_some());
    let mut s = session("basileus");
    let e = s.execute("e2").unwrap_err().to_string();
    assert!(e.contains("ambiguous") && e.contains("e2-d3"), "{e}");
}

#[test]
fn set_replays_the_game() {
    let mut s = session("basileus");
    s.execute("e2-e3").unwrap();
    let out = s.execute("set no_moves draw").unwrap().text;
    assert!(out.contains("replayed 1 moves"), "{out}");
    assert_eq!(s.pos.ply(), 1);
    assert!(s.execute("options").unwrap().text.contains("no_moves = draw"));
}

#[test]
fn script_runtime_error_names_hook_and_move_and_keeps_the_game() {
    let v = boardlab::Variant::load("tests/scripted/runtime_error/variant.toml", &[]).unwrap();
    let mut pos = v.start();
    v.play(&mut pos, "a3-b4").unwrap();
    assert_eq!(v.take_output(), vec!["played a3-b4".to_string()]);
    v.play(&mut pos, "b6-a5").unwrap();
    let before = pos.clone();
    let e = v.play(&mut pos, "c3-d4").unwrap_err().to_string();
    assert!(e.contains("hook `after_move`"), "{e}");
    assert!(e.contains("rules.rhai:4:"), "{e}");
    assert!(e.contains("while playing c3-d4"), "{e}");
    assert!(e.contains("height"), "{e}");
    assert_eq!(pos, before, "a failing hook leaves the game as it was");
    v.play(&mut pos, "e3-f4").unwrap();
}

#[test]
fn runaway_script_is_stopped() {
    let v = boardlab::Variant::load("tests/scripted/runaway/variant.toml", &[]).unwrap();
    let mut pos = v.start();
    let before = pos.clone();
    let e = v.play(&mut pos, "a3-b4").unwrap_err().to_string();
    assert!(e.contains("hook `after_move`") && e.contains("operations"), "{e}");
    assert_eq!(pos, before);
}

#[test]
fn script_api_signatures() {
    let registered = boardlab::script::api::registered_signatures();
    // Every registered function is documented in SIGNATURES (and so in docs/scripting.md).
    for sig in &registered {
        let name = sig.split('(').next().unwrap();
        assert!(boardlab::script::api::SIGNATURES.iter().any(|d| d.starts_with(&format!("{name}("))), "{name} is not documented");
    }
    insta::assert_snapshot!(registered.join("\n"));
}

/// `attacked(cell, player)`: whether `player` could capture the piece on the cell now (never
/// an empty cell or the player's own piece). The script returns a bit per attacked cell.
#[test]
fn scripts_ask_which_pieces_are_attacked() {
    let v = boardlab::Variant::load("tests/scripted/attacked/variant.toml", &[]).unwrap();
    let script = v.script.as_ref().unwrap();
    // White: rook d2, knight c3, king e1; black: queen d5, pawn e4, king e8. The knight takes
    // the queen or the pawn, the rook the queen (up the d-file); of White's pieces only the rook
    // can be taken (by the queen, down the file): c3 and e1 are off the queen's lines, and the
    // pawn takes only towards d3 and f3, which are empty.
    let mut pos = boardlab::Position::from_text(&v.rules, "4k3/8/8/3q4/4p3/2N5/3R4/4K3 white 0").unwrap();
    let cell = |file: u32, rank: u32| 1i64 << (rank * 8 + file);
    let white = script.evaluate(&mut pos, boardlab::Player::FIRST).unwrap();
    assert_eq!(white, cell(3, 4) | cell(4, 3), "d5 and e4");
    let black = script.evaluate(&mut pos, boardlab::Player::SECOND).unwrap();
    assert_eq!(black, cell(3, 1), "d2");
}

/// `in_check(player)`: whether one of the player's royal pieces is attacked. The black queen on
/// h1 checks the white king along the first rank; the white rook on a1 does not reach e8.
#[test]
fn scripts_ask_whether_a_king_is_in_check() {
    let v = boardlab::Variant::load("tests/scripted/in_check/variant.toml", &[]).unwrap();
    let script = v.script.as_ref().unwrap();
    let mut pos = boardlab::Position::from_text(&v.rules, "4k3/8/8/8/8/8/8/R3K2q white 0").unwrap();
    assert_eq!(script.evaluate(&mut pos, boardlab::Player::FIRST).unwrap(), 1, "white is in check");
    assert_eq!(script.evaluate(&mut pos, boardlab::Player::SECOND).unwrap(), 0, "black is not");
    // A knight between: f1 blocks the queen.
    let mut pos = boardlab::Position::from_text(&v.rules, "4k3/8/8/8/8/8/8/R3KN1q white 0").unwrap();
    assert_eq!(script.evaluate(&mut pos, boardlab::Player::FIRST).unwrap(), 0, "the knight blocks");
}

#[test]
fn repetition_and_pass_rules() {
    let v = boardlab::Variant::load("tests/extends/repetition/variant.toml", &[]).unwrap();
    // Two kings walk back and forth: the start counts once, so the third occurrence comes
    // after eight plies, and that move draws.
    let mut pos = boardlab::Position::from_text(&v.rules, "3k/4/4/4/4/4/4/K3 white 0").unwrap();
    let shuffle = ["a1-b2", "h8-g7", "b2-a1", "g7-h8"];
    for (i, m) in shuffle.iter().chain(shuffle.iter()).enumerate() {
        assert!(pos.result().is_none(), "ended early at ply {i}");
        v.play(&mut pos, m).unwrap();
    }
    let r = pos.result().cloned().expect("the third repetition ends the game");
    assert_eq!(r.describe(&v.rules.player_names), "draw: third repetition");
    pos.undo();
    assert!(pos.result().is_none(), "undo takes the result back");
    // A blocked man: the only move is `pass`, and it hands the turn over.
    let mut pos = boardlab::Position::from_text(&v.rules, "4/4/4/4/1m2/mm2/M3/4 white 0").unwrap();
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves).unwrap();
    assert_eq!(moves, vec![boardlab::Move::PASS]);
    v.play(&mut pos, "pass").unwrap();
    assert_eq!(pos.side(), boardlab::Player::SECOND);
    assert!(v.find_move(&mut pos, "pass").unwrap_err().to_string().contains("passing is allowed only"));
}

#[test]
fn extends_cycle_is_an_error() {
    let e = boardlab::Variant::load("tests/extends/cycle_a/variant.toml", &[]).err().expect("a cycle does not load");
    assert!(e.message.contains("goes round in a circle"), "{}", e.message);
}

/// Everything a failed command must leave as it was: position, history, and what lies ahead.
fn game_state(s: &mut Session) -> (String, String, usize, usize) {
    let history = s.execute("history").unwrap().text;
    (s.pos.to_text(&s.variant.rules), history, s.played.len(), s.undone.len())
}

#[test]
fn a_command_that_fails_changes_nothing() {
    let mut s = Session::new("tests/scripted/throws_deep/variant.toml", &[], Style::PLAIN).unwrap();
    for m in ["a3-b4", "h6-g5", "b2-a3"] {
        s.execute(m).unwrap();
    }
    s.execute("undo").unwrap();
    let before = game_state(&mut s);
    // The search reaches ply 6, where the hook throws: the game is as it was.
    let e = s.execute("ai mcts 200").unwrap_err().to_string();
    assert!(e.contains("boom"), "{e}");
    assert_eq!(game_state(&mut s), before);
    // Random machine moves fail when the game itself reaches ply 6, after three good ones.
    let e = s.execute("auto 10").unwrap_err().to_string();
    assert!(e.contains("boom"), "{e}");
    assert_eq!(game_state(&mut s), before);
    assert_eq!(s.pos.ply(), 2);
    // The game goes on from there.
    s.execute("redo").unwrap();
    assert_eq!(s.pos.ply(), 3);
}

#[test]
fn a_script_error_in_a_helper_points_at_the_failing_line() {
    let v = boardlab::Variant::load("tests/scripted/error_in_helper/variant.toml", &[]).unwrap();
    let mut pos = v.start();
    let e = v.play(&mut pos, "c3-d4").unwrap_err().to_string();
    assert!(e.contains("rules.rhai:4:"), "the failing line, not the call site: {e}");
    assert!(e.contains("in `grow`, called at line 13") && e.contains("in `height_of`, called at line 8"), "{e}");
}

#[test]
fn editing_the_board_drops_the_rights_it_ends() {
    // Emptying a chess board ends every castling right (there were errors before: the rights
    // named rooks that had gone); taking a rook away ends its right only.
    let mut s = session("chess");
    s.execute("remove h1").unwrap();
    assert!(s.execute("position").unwrap().text.contains("castle=a1,h8,a8"));
    s.execute("clear").unwrap();
    assert!(s.pos.board().iter().all(|c| c.is_empty()));
    assert!(!s.execute("position").unwrap().text.contains("castle="));
}

/// The move a hook receives answers every documented property (read through the typed move
/// object, each made only when read); the values below were checked by hand on the board.
#[test]
fn hook_move_properties() {
    let v = boardlab::Variant::load("tests/scripted/move_properties/variant.toml", &[]).unwrap();
    let mut pos = v.start();
    for m in ["c3-d4", "f6-e5", "d4xf6"] {
        v.play(&mut pos, m).unwrap();
    }
    let out = v.take_output();
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(
        out[0],
        "text=c3-d4 from=c3 to=d4 path=[\"d4\"] captured=[] captured_kinds=[] capture=false off=false pass=false drop=false placed= kind=man owner=white player=white continuation="
    );
    assert_eq!(
        out[2],
        "text=d4xf6 from=d4 to=f6 path=[\"f6\"] captured=[\"e5\"] captured_kinds=[\"man\"] capture=true off=false pass=false drop=false placed= kind=man owner=white player=white continuation="
    );
}

/// A piece that leaves the board keeps its attributes for `after_move` (`m.attr`), though its
/// cell is empty by then; and `generate_moves` may return "pass", listed and played as a pass.
#[test]
fn a_leaving_piece_keeps_its_attributes_for_after_move_and_a_script_may_pass() {
    let v = boardlab::Variant::load("tests/scripted/leaving_piece/variant.toml", &[]).unwrap();
    let mut pos = v.start();
    // a2-a3 raises the piece to level 7 (the hook); black passes (the script's move).
    v.play(&mut pos, "a2-a3").unwrap();
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves).unwrap();
    assert!(moves.contains(&boardlab::Move::PASS));
    v.play(&mut pos, "pass").unwrap();
    v.play(&mut pos, "a3-off").unwrap();
    assert_eq!(v.take_output(), vec!["a3-off: level before 7, cell now ".to_string()]);
}
