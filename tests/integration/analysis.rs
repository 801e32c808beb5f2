//! What the machine thinks, asked twice or in more lines, says the same: `analyse` names the
//! move `hint` and `ai` choose whatever the number of lines, two runs print the same text, and
//! two hints in a row agree. Progress lines stay off when standard error is not a terminal.

use boardlab::ai::{self, Budget, Engine, analysis};
use boardlab::{Position, Session, Style, Variant};
use rand::RngExt;
use std::process::Output;

/// The binary with `input` piped in (the suite's one runner) and a data folder of its own.
fn boardlab(args: &[&str], input: Option<&str>) -> Output {
    crate::binary(args, input.unwrap_or(""), &crate::scratch("analysis-data"))
}

/// A position `plies` random decisions from the start (fewer if the game ends first).
fn random_position(v: &Variant, plies: usize, seed: u64) -> Position {
    let mut rng = ai::rng(seed);
    let mut pos = v.start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        v.legal_moves(&mut pos, &mut moves).unwrap();
        if moves.is_empty() || pos.result().is_some() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        v.make(&mut pos, &m).unwrap();
    }
    pos
}

/// The best move of an analysis of `lines` lines, as text.
fn best_of(v: &Variant, pos: &Position, budget: Budget, lines: usize, seed: u64) -> Option<String> {
    let a = analysis::analyse(v, pos, budget, lines, &mut ai::rng(seed)).unwrap();
    a.lines.first().and_then(|l| l.best).map(|m| m.text(&v.rules.geometry))
}

#[test]
fn the_best_move_is_the_same_whatever_the_lines() {
    // 20 seeded positions of five games, a small node budget so that searches stop inside an
    // iteration (where the later lines, searched on fewer moves, used to get deeper and be
    // sorted above the first). Each analysis's first line is also the move `ai` chooses.
    let budget = Budget::Nodes(2500);
    let mut compared = 0;
    for game in ["checkers", "chess", "lielow", "connect-four", "othello"] {
        let v = Variant::load(game, &[]).unwrap();
        for i in 0..4u64 {
            let pos = random_position(&v, 2 + 3 * i as usize, 100 + i);
            if pos.result().is_some() {
                continue;
            }
            let one = best_of(&v, &pos, budget, 1, i);
            let three = best_of(&v, &pos, budget, 3, i);
            let text = pos.to_text(&v.rules);
            // The later lines go no deeper than the first, so their scores compare with it.
            let a = analysis::analyse(&v, &pos, budget, 3, &mut ai::rng(i)).unwrap();
            assert!(a.lines.iter().all(|l| l.depth <= a.lines[0].depth), "{game} at {text}: {}", a.text(&v, &pos));
            assert_eq!(one, three, "{game} at {text}: --lines 1 and --lines 3 disagree");
            let chosen = ai::think(&v, &pos, Engine::AlphaBeta(budget), &mut ai::rng(i)).unwrap().best;
            assert_eq!(one, chosen.map(|m| m.text(&v.rules.geometry)), "{game} at {text}: analyse and ai disagree");
            compared += 1;
        }
    }
    assert_eq!(compared, 20, "every position was still in play");
}

#[test]
fn analyse_prints_the_same_text_twice_and_its_first_line_alone() {
    // The reported case: checkers' start with the default budget (`--lines 1` named a3-b4,
    // `--lines 3` put c3-b4 first). Two runs print the same bytes (no time in the text).
    let three = ["analyse", "checkers", "--lines", "3"];
    let a = boardlab(&three, None);
    let b = boardlab(&three, None);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "two runs, the same output");
    let one = boardlab(&["analyse", "checkers", "--lines", "1"], None);
    let (three, one) = (String::from_utf8_lossy(&a.stdout), String::from_utf8_lossy(&one.stdout));
    let first_move = |t: &str| t.lines().nth(1).and_then(|l| l.split_whitespace().nth(1)).map(str::to_string);
    assert_eq!(first_move(&three), first_move(&one), "--lines 3:\n{three}--lines 1:\n{one}");
    // The first line of three is the whole of one (the same search, the same line).
    assert_eq!(three.lines().nth(1), one.lines().nth(1));
    // Not a terminal: no progress line on standard error.
    assert!(a.stderr.is_empty(), "{}", String::from_utf8_lossy(&a.stderr));
}

/// The head line of a reply (`hint` and `analyse` put it in a timed effect).
fn head(s: &mut Session, line: &str) -> String {
    let r = s.execute(line).unwrap();
    r.effects
        .iter()
        .find_map(|e| match e {
            boardlab::Effect::Timed { head } => Some(head.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{line}: no head line in {r:?}"))
}

#[test]
fn hints_in_a_row_agree_and_ai_plays_the_hint() {
    // Several positions, since equal moves only differ by the generator's shuffle where a
    // budget stops the search inside an iteration.
    for moves in ["", "c3-d4 f6-e5", "a3-b4 f6-g5 g3-h4"] {
        let mut s = Session::new("checkers", &[], Style::PLAIN).unwrap();
        s.execute("seed 7").unwrap();
        for m in moves.split_whitespace() {
            s.execute(m).unwrap();
        }
        let first = head(&mut s, "hint ab:1500");
        let second = head(&mut s, "hint ab:1500");
        assert_eq!(first, second, "after {moves:?}");
        let a1 = s.execute("analyse 1500 3").unwrap().text;
        let a2 = s.execute("analyse 1500 3").unwrap().text;
        assert_eq!(a1, a2, "after {moves:?}");
        // "ab:1500 suggests c3-d4 (…)": the hinted move is analyse's first line and ai's move.
        let hinted = first.split_whitespace().nth(2).unwrap().to_string();
        assert_eq!(a1.split_whitespace().nth(1), Some(hinted.as_str()), "after {moves:?}: {a1}");
        let played = head(&mut s, "ai ab:1500");
        assert!(played.starts_with(&format!("ab:1500 plays {hinted}:")), "after {moves:?}: hint {first}, then {played}");
    }
}

#[test]
fn long_commands_draw_nothing_when_standard_error_is_not_a_terminal() {
    // perft on the command line and in the REPL, a machine move and a self-play study: the
    // same standard output as ever, and nothing on standard error.
    let o = boardlab(&["perft", "checkers", "6"], None);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "36768\n");
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = boardlab(&["play", "checkers"], Some("perft 5\nai ab:d4\nselfplay 2 --white random --black random\n"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("7361\nab:d4 plays "), "{out}");
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn the_repl_reports_how_far_long_commands_are() {
    // The shell's progress sink hears perft per root move, a search per depth, and self-play
    // per game (what it draws on a terminal; here, collected).
    use std::{cell::RefCell, rc::Rc};
    let heard = Rc::new(RefCell::new(Vec::<String>::new()));
    let mut s = Session::new("checkers", &[], Style::PLAIN).unwrap();
    let h = heard.clone();
    s.progress = Some(Box::new(move |m: &str| h.borrow_mut().push(m.to_string())));
    let mut take = |line: &str| {
        s.execute(line).unwrap();
        std::mem::take(&mut *heard.borrow_mut())
    };
    let perft = take("perft 4");
    // Checkers' start has 7 moves: the last report counts them all, and the 1469 leaves.
    assert!(perft.iter().any(|m| m.starts_with("perft 4: ") && m.contains("of 7 root moves")), "{perft:?}");
    let ai = take("hint ab:d3");
    for d in 1..=3 {
        assert!(ai.iter().any(|m| m.starts_with(&format!("ab:d3: depth {d}, move 1 of 7"))), "{ai:?}");
    }
    assert!(ai.iter().all(|m| m.contains("positions") || m.contains("thinking")), "{ai:?}");
    let mcts = take("hint mcts:300");
    assert!(mcts.iter().any(|m| m.starts_with("mcts:300: 256 iterations, ")), "{mcts:?}");
    let games = take("selfplay 2 --white ab:d1 --black random");
    assert!(games.iter().any(|m| m.starts_with("selfplay: 2 of 2 games")), "{games:?}");
    // The searches of the games stay quiet under the count.
    assert!(games.iter().all(|m| m.starts_with("selfplay: ")), "{games:?}");
    // The sink is the shell's again after each command.
    assert!(s.progress.is_some());
}
