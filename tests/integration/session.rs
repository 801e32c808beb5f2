//! The REPL's session, driven without a terminal.

use boardlab::render::Style;
use boardlab::session::{Flow, Session};

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
    assert_eq!(s.pos.ply, 1);
    assert_eq!(s.execute("quit").unwrap().1, Flow::Quit);
}

#[test]
fn bad_input_leaves_the_game_unchanged() {
    let mut s = session("basileus");
    s.execute("e2-e3").unwrap();
    let before = s.pos.clone();
    assert!(s.execute("e3-e5").is_err());
    assert!(s.execute("frobnicate").unwrap_err().contains("unknown command"));
    assert!(s.execute("set capture_choice sometimes").is_err());
    assert_eq!(s.pos, before);
    let why = s.execute("why e7-e5").unwrap().0;
    assert!(why.contains("cannot play e7-e5"), "{why}");
}

#[test]
fn prefixes_and_ambiguity() {
    let mut s = Session::new("basileus", &[], Style::PLAIN).unwrap();
    s.execute("setup 9/4k4/9/4p4/4P4/9/4K4/9 white 0").unwrap();
    // Unique prefix of whole cells.
    s.execute("e4x").unwrap();
    assert!(s.pos.result.is_some());
    let mut s = session("basileus");
    let e = s.execute("e2").unwrap_err();
    assert!(e.contains("ambiguous") && e.contains("e2-d3"), "{e}");
}

#[test]
fn set_replays_the_game() {
    let mut s = session("basileus");
    s.execute("e2-e3").unwrap();
    let out = s.execute("set no_moves draw").unwrap().0;
    assert!(out.contains("replayed 1 moves"), "{out}");
    assert_eq!(s.pos.ply, 1);
    assert!(s.execute("options").unwrap().0.contains("no_moves = draw"));
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
