//! The machine players on hand-made positions of every shipped variant: a win in one is taken,
//! a loss in one is avoided, the position is restored, and a seed and a node budget give the same
//! result every time. Each position's premise is checked too (some move does not win at once;
//! some move does lose at once), so a test cannot pass because its position is trivial.

use super::*;
use crate::outcome::Winner;
use crate::piece::Player;

fn load(name: &str) -> Variant {
    Variant::load(name, &[]).unwrap()
}

fn mtext(v: &Variant, m: &Move) -> String {
    m.text(&v.rules.geometry)
}

/// Whether `pos` is won by `p` (by a declared result, or because the other player has no move).
fn won_by(v: &Variant, pos: &mut Position, p: Player) -> bool {
    v.outcome(pos).unwrap().is_some_and(|r| r.winner == Winner::Player(p))
}

/// The legal moves of `pos`.
fn moves(v: &Variant, pos: &mut Position) -> Vec<Move> {
    let mut out = Vec::new();
    v.legal_moves(pos, &mut out).unwrap();
    out
}

/// Whether, after `mv`, the opponent of the player who made it can win with one move (or the
/// player lost by making it).
fn loses_at_once(v: &Variant, pos: &mut Position, mv: &Move) -> bool {
    let me = pos.side();
    v.make(pos, mv).unwrap();
    let lost = won_by(v, pos, me.other())
        || (pos.side() != me
            && moves(v, pos).iter().any(|r| {
                v.make(pos, r).unwrap();
                let won = won_by(v, pos, me.other());
                pos.undo();
                won
            }));
    pos.undo();
    lost
}

/// Searches `pos`, checking that the search leaves it as it was.
fn searched(v: &Variant, pos: &mut Position, budget: Budget) -> SearchResult {
    let before = pos.clone();
    let r = search::search(v, pos, budget, &mut rng(11)).unwrap();
    assert_eq!(*pos, before, "{}: the search restores the position", v.name());
    r
}

/// The search wins at once in `text` with `expected`, and not every move would.
fn wins_in_one(name: &str, text: &str, expected: &str) {
    let v = load(name);
    let mut pos = Position::from_text(&v.rules, text).unwrap();
    let me = pos.side();
    let all = moves(&v, &mut pos);
    let not_winning = all.iter().filter(|m| {
        v.make(&mut pos, m).unwrap();
        let won = won_by(&v, &mut pos, me);
        pos.undo();
        !won
    });
    assert!(not_winning.count() > 0, "{name}: every move wins in {text}");
    for budget in [Budget::Depth(1), Budget::Depth(4), Budget::Nodes(2000)] {
        let r = searched(&v, &mut pos, budget);
        let best = r.best.unwrap();
        assert_eq!(mtext(&v, &best), expected, "{name} {budget:?}");
        assert_eq!(r.score.win_in(), Some(1), "{name} {budget:?}");
        v.make(&mut pos, &best).unwrap();
        assert!(won_by(&v, &mut pos, me), "{name}: {expected} wins");
        pos.undo();
    }
}

/// Some move in `text` loses at once, and the search's choices (all of them while the same
/// player decides, through continuations) leave the opponent no winning reply.
fn avoids_loss_in_one(name: &str, text: &str) {
    let v = load(name);
    let mut pos = Position::from_text(&v.rules, text).unwrap();
    let me = pos.side();
    let all = moves(&v, &mut pos);
    let losing: Vec<String> = all.iter().filter(|m| loses_at_once(&v, &mut pos.clone(), m)).map(|m| mtext(&v, m)).collect();
    assert!(!losing.is_empty(), "{name}: no move loses at once in {text}");
    assert!(losing.len() < all.len(), "{name}: every move loses in {text}");
    for budget in [Budget::Depth(2), Budget::Depth(4), Budget::Nodes(3000)] {
        let mut p = pos.clone();
        let mut line = Vec::new();
        loop {
            let r = searched(&v, &mut p, budget);
            let best = r.best.unwrap();
            // (The position may be lost anyway, but not at once: the slowest loss is preferred.)
            assert!(r.score.loss_in().is_none_or(|n| n > 2), "{name} {budget:?}: {} after {line:?}", r.score);
            line.push(mtext(&v, &best));
            assert!(!loses_at_once(&v, &mut p.clone(), &best), "{name} {budget:?}: {line:?} loses at once");
            v.make(&mut p, &best).unwrap();
            if p.side() != me || p.result().is_some() || line.len() > 4 {
                break;
            }
        }
    }
}

#[test]
fn checkers_win_and_defence() {
    // c3xe5xg7 takes both black men (black then has no move); e3xc5 takes one.
    wins_in_one("checkers", "4/4/2m1/4/1m2/1MM1/4/4 white 0", "c3xe5xg7");
    // e3-f4 lets g5xe3 take white's last man; e3-d4 does not.
    avoids_loss_in_one("checkers", "4/4/4/3m/4/2M1/4/4 white 0");
}

#[test]
fn basileus_win_and_defence() {
    // e5xe7 jumps the black basileus on e6; a3xc5 only a pawn (captures are compulsory).
    wins_in_one("basileus", "9/9/4k4/4P4/1p7/F8/9/K8 white 0", "e5xe7");
    // The pawn on e6 jumps the white basileus on e5 unless it steps away, and not to d6 or f6.
    avoids_loss_in_one("basileus", "8k/4p4/4p4/4K4/9/9/9/P8 white 0");
}

#[test]
fn bivouac_win_and_defence() {
    for name in ["bivouac", "hostile-bivouac"] {
        // d7-d8 fills white's goal (c8, c9, d8, d9).
        wins_in_one(name, "6/6/2OO2/2O3/3O2/6/6/6/6/1xxxx1/6 white 0", "d7-d8");
        // White has four tokens, and three or fewer lose: c4xc2 threatens the one on c3, which
        // must step where the black tokens cannot jump it (not d3 or d4).
        avoids_loss_in_one(name, "O4O/1x2x1/6/6/6/6/2x3/2x3/2O3/6/5O white 0");
    }
}

#[test]
fn lielow_win_and_defence() {
    for name in ["lielow", "lielow-ludii"] {
        // h6xh8 captures the black king (level 2 leaps 2); nine other moves do not.
        wins_in_one(name, "7p[1,2]/8/7P[0,2]/8/8/8/P[1,3]7/8 white 4", "h6xh8");
        // The black king on d8 stands 3 from the level-3 stack on d5: it must move.
        avoids_loss_in_one(name, "3p[1,2]4/7p/8/3P[0,3]4/8/8/8/P[1,4]7 black 10");
    }
}

#[test]
fn pyramida_win_and_defence() {
    for name in ["pyramida", "pyramida-calm"] {
        // White's last stone escapes from j13.
        wins_in_one(name, "1/W1/3/4/5/6/7/8/9/10/11/10/11/b4b4 white 20 counters=escaped:4:0", "j13-k14");
        // Black's last stone on j13 escapes next unless a white stone lands beside it (k12 or
        // i12) and pushes it back, to a cell from which it cannot escape at once (from i12 a
        // last stone slides to k14: white must choose h11 or the far side).
        avoids_loss_in_one(name, "1/b1/3/1W2/5/6/7/8/9/10/11/10/11/W8W white 30 counters=escaped:0:4");
    }
}

#[test]
fn international_win_and_defence() {
    // a1-b2 leaves the black man on a3 no move (b2 is taken, and c1 behind it is occupied);
    // c1-b2 and c1-d2 do not.
    wins_in_one("international", "5/5/5/5/5/5/5/m4/5/MM3 white 0", "a1-b2");
    // White's last man: e3-f4 lets g5xe3 take it; e3-d4 does not.
    avoids_loss_in_one("international", "5/5/5/5/5/3m1/5/2M2/5/5 white 0");
}

#[test]
fn russian_win_and_defence() {
    // The king's flying capture a1xd4xf6 takes both black men (c3, then e5 on the same
    // diagonal; g7 stops it on f6); the man's d6xf4 takes only e5.
    wins_in_one("russian", "4/3M/1M2/2m1/4/1m2/4/K3 white 0", "a1xd4xf6");
    // White's last man: e3-f4 lets g5xe3 take it; e3-d4 does not.
    avoids_loss_in_one("russian", "4/4/4/3m/4/2M1/4/4 white 0");
}

#[test]
fn brazilian_win_and_defence() {
    // a1-b2 leaves the black man on a3 no move (b2 is taken, and c1 behind it is occupied);
    // c1-b2 and c1-d2 do not.
    wins_in_one("brazilian", "4/4/4/4/4/m3/4/MM2 white 0", "a1-b2");
    // White's last man: e3-f4 lets g5xe3 take it; e3-d4 does not.
    avoids_loss_in_one("brazilian", "4/4/4/3m/4/2M1/4/4 white 0");
}

#[test]
fn tic_tac_toe_win_and_defence() {
    // X holds a3 and b3: c3 completes the row; O's a2 and b2 cannot be completed by X.
    wins_in_one("tic-tac-toe", "XX1/OO1/3 white", "@c3");
    // O holds a3 and b3 and X has no line to finish: every move but c3 lets O complete it.
    avoids_loss_in_one("tic-tac-toe", "OO1/X2/2X white");
}

#[test]
fn connect_four_win_and_defence() {
    // White's a1, b1, c1: d1 makes four (black's a2–c2 would need d2 next).
    wins_in_one("connect-four", "7/7/7/7/ddd4/DDD4 white", "@d1");
    // Black's a1, b1, c1: every drop but d1 lets black make four there.
    avoids_loss_in_one("connect-four", "7/7/7/7/DD5/ddd3D white");
}

#[test]
fn amazons_win_in_one() {
    // Black's amazon on j10 has one free neighbour, i9. White's amazon on a1 can only go up the
    // a-file (b1 and b2 hold arrows), and only from a9 does an arrow reach i9 (along rank 9).
    wins_in_one("amazons", "8xq/9x/10/10/10/10/10/10/1X8/QX8 white", "a1-a9/i9");
}

#[test]
fn othello_win_and_defence() {
    // d4 turns b2 and c3 along the diagonal from a1: white has no disc left. b3 turns only b2.
    wins_in_one("othello", "8/8/8/8/8/2O5/1O6/XX6 black 0", "@d4");
    // a2 (turning a3) lets white's c5 turn c4 and leave black no way to catch up before
    // neither can move; c2 does not. (Found by a small independent Python program, and
    // checked here by the premise test.)
    avoids_loss_in_one("othello", "8/8/8/8/X1X5/O1O5/8/1O6 black 0");
}

#[test]
fn breakthrough_win_and_defence() {
    // a7xb8 reaches the far rank (a7-a8 is blocked); g2's steps do not win.
    wins_in_one("breakthrough", "pp6/P7/8/8/8/8/6P1/8 white", "a7xb8");
    // Black's b2 reaches the first rank next unless taken: only a1xb2 and c1xb2 stop it.
    avoids_loss_in_one("breakthrough", "7p/8/8/8/8/8/1p6/P1P5 white");
}

#[test]
fn tafl_win_and_defence() {
    // Custodian capture is found by make, not listed in the move: b5-d5 closes the fourth side
    // of the king on the throne, and only it does.
    wins_in_one("brandubh", "7/4A2/1A5/2AKA2/3A3/7/6D black", "b5-d5");
    // The king on c7 reaches a7 next (e7 blocks g7): only b2-b7 stops him.
    avoids_loss_in_one("brandubh", "2K1A2/7/7/7/7/1A3A1/3A3 black");
    // Copenhagen: the king takes the corner a11 from a8 (a4 blocks a1).
    wins_in_one("hnefatafl", "11/11/11/K10/11/11/11/A10/11/5A5/5A5 white", "a8-a11");
}

#[test]
fn dobutsu_win_and_defence() {
    // Sente's giraffe on a3 takes gote's lion on a4; no other move wins.
    wins_in_one("dobutsu", "l2/G2/3/1L1 sente 0", "a3xa4");
    // Gote's giraffe on a2 attacks sente's lion on a1 (and b2): b1 or a1xa2 save it, b2 loses.
    avoids_loss_in_one("dobutsu", "2l/3/g2/L2 sente 0");
}

/// Go: the count at two passes is seen by the evaluation's territory term and the material of
/// a capture. White's two stones c1-d1 have one liberty left (e1): black takes them (@e1), or
/// plays @e2, after which white's @e1 leaves them one liberty (f1) and black takes three (the
/// quiescence search plays the taking stones out, so both win the group); not elsewhere. The
/// search sees the count: black's evaluation is ahead after the capture.
#[test]
fn go_takes_a_group_in_atari() {
    let v = load("go");
    let mut pos = Position::from_text(&v.rules, "9/9/9/9/9/9/9/2XX5/1XOO5 black").unwrap();
    let r = searched(&v, &mut pos, Budget::Depth(2));
    let best = r.best.map(|m| mtext(&v, &m)).unwrap_or_default();
    assert!(["@e1", "@e2"].contains(&best.as_str()), "{best}");
    assert!(r.score.0 > 0, "{}", r.score);
    v.play(&mut pos, "@e1").unwrap();
    let mut e = Evaluator::new(&v);
    assert!(e.score(&mut pos).unwrap() < 0, "white to move, behind: {}", e.score(&mut pos).unwrap());
}

#[test]
fn same_seed_and_nodes_give_the_same_search() {
    for name in ["bivouac", "pyramida", "lielow"] {
        let v = load(name);
        let mut pos = v.start();
        let a = search::search(&v, &mut pos, Budget::Nodes(3000), &mut rng(5)).unwrap();
        let b = search::search(&v, &mut pos, Budget::Nodes(3000), &mut rng(5)).unwrap();
        assert_eq!((a.best, a.score, a.depth, a.nodes, &a.pv), (b.best, b.score, b.depth, b.nodes, &b.pv), "{name}");
        assert_eq!(a.nodes, 3000, "{name}: the budget is spent exactly");
        // A whole game of choices is the same game.
        let game = |seed: u64| {
            let mut pos = v.start();
            let mut r = rng(seed);
            let mut out = Vec::new();
            for _ in 0..12 {
                match choose(&v, &pos, Engine::AlphaBeta(Budget::Nodes(500)), &mut r).unwrap() {
                    Some(m) => {
                        out.push(mtext(&v, &m));
                        v.make(&mut pos, &m).unwrap();
                    }
                    None => break,
                }
            }
            out
        };
        assert_eq!(game(9), game(9), "{name}");
    }
}

#[test]
fn every_engine_plays_a_legal_move() {
    let v = load("basileus");
    let pos = v.start();
    for e in ["random", "mcts:30", "ab:d2", "ab:300", "ab:20ms"] {
        let m = choose(&v, &pos, Engine::parse(e).unwrap(), &mut rng(1)).unwrap().unwrap();
        assert!(moves(&v, &mut pos.clone()).contains(&m), "{e}");
    }
    // A finished game has no move to choose.
    let over = Position::from_text(&v.rules, "9/9/9/9/9/9/9/4K4 black 0").unwrap();
    let t = think(&v, &over, Engine::DEFAULT, &mut rng(1)).unwrap();
    assert_eq!(t.best, None);
    assert_eq!(t.search.unwrap().score.loss_in(), Some(0));
}
