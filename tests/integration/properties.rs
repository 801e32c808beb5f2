//! Properties over seeded random playouts of every shipped variant: make/undo restores the exact
//! state and hash, the incremental hash equals a fresh one, every listed move's text parses back
//! to the same move, no listed move is refused when played by its text, move lists never hold
//! the same text twice, and the position text round-trips.

use boardlab::{Position, Variant};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn check_variant(name: &str, sets: &[(&str, &str)], games: u64, max_plies: u32) {
    let sets: Vec<(String, String)> = sets.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    let v = Variant::load(name, &sets).unwrap();
    let g = &v.rules.geometry;
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut pos = v.start();
        for _ in 0..max_plies {
            let mut moves = Vec::new();
            v.legal_moves(&mut pos, &mut moves).unwrap();
            if moves.is_empty() {
                break;
            }
            let texts: Vec<String> = moves.iter().map(|m| m.text(g)).collect();
            let mut uniq = texts.clone();
            uniq.sort();
            uniq.dedup();
            assert_eq!(uniq.len(), texts.len(), "{name} seed {seed}: duplicate move texts in {texts:?}");
            for m in &moves {
                let parsed = boardlab::notation::MoveText::parse(&m.text(g), g).unwrap();
                assert!(parsed.names(m), "{name}: {} does not parse back", m.text(g));
                assert_eq!(moves.iter().filter(|x| parsed.names(x)).count(), 1, "{name}: {} names two moves", m.text(g));
                let before = pos.clone();
                v.make(&mut pos, m).unwrap();
                let mut fresh = pos.clone();
                fresh.rehash(&v.rules);
                assert_eq!(fresh.hash(), pos.hash(), "{name} seed {seed}: incremental hash after {}", m.text(g));
                pos.undo();
                assert_eq!(pos, before, "{name} seed {seed}: undo of {} did not restore the position", m.text(g));
            }
            // The position text holds everything needed to go on.
            let text = pos.to_text(&v.rules);
            let back = Position::from_text(&v.rules, &text).unwrap();
            assert_eq!(back.to_text(&v.rules), text);
            assert_eq!(
                (back.board(), back.view().attrs, back.side(), back.ply(), back.hash()),
                (pos.board(), pos.view().attrs, pos.side(), pos.ply(), pos.hash())
            );
            let pick = rng.random_range(0..moves.len());
            let played =
                v.play(&mut pos, &texts[pick]).unwrap_or_else(|e| panic!("{name} seed {seed}: listed move {} refused: {e}", texts[pick]));
            assert_eq!(played, moves[pick]);
        }
    }
}

#[test]
fn basileus_playouts() {
    check_variant("basileus", &[], 60, 200);
}

#[test]
fn basileus_option_playouts() {
    for (k, v) in [
        ("capture_choice", "maximum"),
        ("king_adjacency", "replacement_move"),
        ("king_adjacency", "loss_after_any_move"),
        ("king_adjacency", "forbidden"),
        ("no_moves", "draw"),
    ] {
        check_variant("basileus", &[(k, v)], 15, 200);
    }
}

#[test]
fn checkers_playouts() {
    check_variant("checkers", &[], 60, 300);
}

#[test]
fn every_shipped_variant_plays() {
    for name in boardlab::shipped_names() {
        check_variant(&name, &[], 5, 150);
    }
}

/// The chess fixture's en passant, promotion choices and check rule keep every property:
/// random games reach promotions, en passant captures and mates.
#[test]
fn chess_core_plays() {
    check_variant("variants/chess", &[], 12, 300);
    // No fifty-move rule yet: bare kings would wander for ever, so a move limit ends them.
    let results = random_games("variants/chess", &[("move_limit", "400")], 40);
    let mates = results.iter().filter(|r| &*r.reason == "checkmate").count();
    assert!(mates > 0, "no random game ended in checkmate: {results:?}");
}

/// Plays `games` seeded random games to the end; after every move the incremental hash and
/// piece counts equal fresh ones, and undoing the whole game returns to the start. Returns the
/// results.
fn random_games(name: &str, sets: &[(&str, &str)], games: u64) -> Vec<boardlab::Outcome> {
    let sets: Vec<(String, String)> = sets.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    let v = Variant::load(name, &sets).unwrap();
    let start = v.start();
    let mut moves = Vec::new();
    let mut results = Vec::new();
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut pos = start.clone();
        let mut plies = 0;
        loop {
            v.legal_moves(&mut pos, &mut moves).unwrap();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            v.make(&mut pos, &m).unwrap();
            plies += 1;
            assert!(plies < 100_000, "{name} seed {seed}: no end in sight");
            let mut fresh = pos.clone();
            fresh.rehash(&v.rules);
            assert_eq!((fresh.hash(), fresh.counts()), (pos.hash(), pos.counts()), "{name} seed {seed}");
        }
        results.push(v.outcome(&mut pos).unwrap().unwrap_or_else(|| panic!("{name} seed {seed}: a finished game has a result")));
        for _ in 0..plies {
            pos.undo();
        }
        assert_eq!(pos, start, "{name} seed {seed}: undoing the game does not return to the start");
    }
    results
}

/// 1000 seeded random playouts of Bivouac and Hostile Bivouac (cut by `move_limit`) end with a
/// result and stay consistent.
#[test]
fn bivouac_thousand_playouts() {
    for name in ["bivouac", "hostile-bivouac"] {
        assert_eq!(random_games(name, &[("move_limit", "400")], 1000).len(), 1000);
    }
}

/// 1000 seeded random playouts of Lielow and its Ludii variant always end with a winner (Lielow
/// has no draws) and stay consistent.
#[test]
fn lielow_thousand_playouts() {
    for name in ["lielow", "lielow-ludii"] {
        for r in random_games(name, &[], 1000) {
            assert!(matches!(r.winner, boardlab::Winner::Player(_)), "{name}: {r:?}");
        }
    }
}

/// Every Pyramida option value keeps the playout properties.
#[test]
fn pyramida_option_playouts() {
    check_variant("pyramida", &[], 20, 300);
    for (k, v) in [
        ("blocked_contact", "no_effect"),
        ("extra_move_attacks", "false"),
        ("column_retreat", "lowest_only"),
        ("column_retreat", "lowest_empty_any"),
        ("contact_victims", "all"),
        ("retreat_chooser", "owner"),
        ("last_stone_move", "two_steps"),
        ("repetition_loss", "2"),
        ("no_moves", "loss"),
    ] {
        check_variant("pyramida", &[(k, v)], 8, 300);
    }
}

/// 1000 seeded random playouts of Pyramida and Pyramida (calm start), cut at 1000 plies, end
/// with a win, a repetition loss or a move-limit draw, and stay consistent.
#[test]
fn pyramida_thousand_playouts() {
    for name in ["pyramida", "pyramida-calm"] {
        for r in random_games(name, &[("move_limit", "1000")], 1000) {
            assert!(["all stones escaped", "third repetition", "move limit"].contains(&&*r.reason), "{name}: unexpected end {r:?}");
        }
    }
}
