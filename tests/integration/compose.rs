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
