//! The solver: what a position is worth with perfect play (a win or a loss for the player to
//! move, in how many plies, or a draw), proved.
//!
//! Two questions, each answered by depth-first proof-number search ([`dfpn`]): can the player
//! to move force a win, and can the opponent? A draw counts against whoever asks, so a draw is
//! the answer "no" to both. The questions take turns, with doubling budgets of positions, so a
//! game that is a win for either side is proved without first disproving the other's. A win
//! proved, its length is made the shortest: the same search with a horizon one ply shorter
//! than the proof found, until it cannot win within it. The line is walked down the proof.
//!
//! The same kernel as play and perft (`Variant::legal_moves`, `make`, `undo`); Ctrl-C and the
//! node limit stop it with what it proved so far. A repetition rule makes a position's value
//! depend on the line that reached it; the table keys count the repetitions (as the search's
//! do), and a line coming back to a position on the path is a draw that is never kept.

mod dfpn;
mod table;

use crate::notation::Move;
use crate::outcome::Winner;
use crate::piece::Player;
use crate::progress::thousands;
use crate::state::Position;
use crate::variant::Variant;
use dfpn::{Dfpn, Stop, Val};
use table::{ENTRY_BYTES, SURE, Table};

/// The longest line tried (plies); the search recurses once a ply.
pub const MAX_HORIZON: u32 = 2_000;

/// What the solver may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The table's size in bytes.
    pub memory: usize,
    /// Stop after visiting this many positions.
    pub nodes: u64,
    /// The longest line searched (plies): a line cut there counts as a draw.
    pub horizon: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { memory: 256 << 20, nodes: 1_000_000_000, horizon: 200 }
    }
}

/// A position's value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The player to move wins in this many plies (its own moves and the replies).
    Win(u32),
    /// The player to move loses in this many plies.
    Loss(u32),
    Draw,
}

/// What the solver found: the value (or `None`: not proved within the limits), the best first
/// move and line, and what it took.
#[derive(Clone, Debug)]
pub struct Solution {
    pub value: Option<Value>,
    /// Whether a win's or a loss's length is the shortest (otherwise the proof found's).
    pub exact: bool,
    pub best: Option<Move>,
    pub line: Vec<Move>,
    /// The horizon (plies).
    pub horizon: u32,
    pub nodes: u64,
    /// The table's entries in use, and its size.
    pub table: (usize, usize),
    /// Why it stopped before proving a value (or before a win's length was the shortest).
    pub stopped: Option<&'static str>,
    /// Unproved, each question's proof and disproof numbers at the root when it stopped (how
    /// far it got: a proof number of 1,000 means that many more positions at least).
    pub open: Vec<(Player, u32, u32)>,
}

/// The first budget of positions for each question; it doubles each round.
const FIRST_BUDGET: u64 = 1 << 16;

/// Solves `pos` within `limits`; `progress` hears what is being asked, from time to time.
///
/// # Errors
/// A script hook failed.
pub fn solve(v: &Variant, pos: &Position, limits: Limits, mut progress: impl FnMut(&str)) -> Result<Solution, crate::script::ScriptError> {
    let mut pos = pos.clone();
    let horizon = limits.horizon.clamp(1, MAX_HORIZON);
    let mut out = Solution {
        value: None,
        exact: true,
        best: None,
        line: Vec::new(),
        horizon,
        nodes: 0,
        table: (0, 0),
        stopped: None,
        open: Vec::new(),
    };
    if let Some(r) = pos.result() {
        out.value = Some(value_of(r.winner, pos.side(), 0));
        return Ok(out);
    }
    let rules = &v.rules;
    let mut report = |p: Player, n: u64, t: &Table| {
        progress(&format!(
            "solving: can {} win? {} positions, table {}% full",
            rules.player_name(p),
            thousands(n),
            t.used * 100 / t.capacity().max(1)
        ))
    };
    let mut s = Dfpn::new(v, limits.memory, &mut report);
    let r = settle(&mut s, &mut pos, limits.nodes, horizon, &mut out);
    out.nodes = s.nodes;
    out.table = (s.table.used, s.table.capacity());
    r?;
    Ok(out)
}

/// Asks both questions in turn, then finds a win's length and line: fills `out`.
fn settle(s: &mut Dfpn, pos: &mut Position, nodes: u64, horizon: u32, out: &mut Solution) -> Result<(), crate::script::ScriptError> {
    let sides = [pos.side(), pos.side().other()];
    let mut answers: [Option<Val>; 2] = [None, None];
    let mut budget = FIRST_BUDGET;
    loop {
        for i in 0..2 {
            if answers[i].is_some() {
                continue;
            }
            s.ask(sides[i]);
            s.limit = nodes.min(s.nodes.saturating_add(budget));
            match s.run(pos, horizon) {
                Ok(a) if a.is_proved() => return shorten(s, pos, nodes, a, i == 0, out),
                Ok(a) => answers[i] = Some(a),
                Err(Stop::Nodes) if s.nodes < nodes => {}
                Err(e) => {
                    // How far each open question got.
                    for (j, p) in sides.iter().enumerate() {
                        if answers[j].is_none() {
                            s.ask(*p);
                            let a = s.look(pos, horizon);
                            out.open.push((*p, a.pn, a.dn));
                        }
                    }
                    return stopped(e, out);
                }
            }
        }
        if let [Some(a), Some(b)] = answers {
            if a.dist == SURE && b.dist == SURE {
                out.value = Some(Value::Draw);
                // The opponent's question, refuted at the root: by the move that holds the draw.
                out.best = b.best.and_then(|i| nth_move(s, pos, i));
            } else {
                out.stopped = Some("the horizon limit");
            }
            return Ok(());
        }
        budget = budget.saturating_mul(2);
    }
}

/// Records why a search stopped, or passes a script's error on.
fn stopped(e: Stop, out: &mut Solution) -> Result<(), crate::script::ScriptError> {
    out.stopped = Some(match e {
        Stop::Nodes => "the node limit",
        Stop::Interrupted => "Ctrl-C",
        Stop::Failed(e) => return Err(e),
    });
    Ok(())
}

/// The prover (`s`'s) wins, by `proof`: searches again within one ply less until it cannot
/// (then its length is the shortest), and walks the line.
fn shorten(
    s: &mut Dfpn,
    pos: &mut Position,
    nodes: u64,
    proof: Val,
    mover: bool,
    out: &mut Solution,
) -> Result<(), crate::script::ScriptError> {
    s.limit = nodes;
    let (mut len, mut first) = (proof.dist, proof.best);
    while len > 1 {
        match s.run(pos, u32::from(len) - 1) {
            Ok(a) if a.is_proved() => (len, first) = (a.dist, a.best),
            Ok(_) => break,
            Err(e) => {
                out.exact = false;
                stopped(e, out)?;
                break;
            }
        }
    }
    let n = u32::from(len);
    out.value = Some(if mover { Value::Win(n) } else { Value::Loss(n) });
    // The walk may re-prove positions the table lost: as many positions again at most.
    s.limit = s.nodes.saturating_add(nodes);
    out.line = line(s, pos, n)?;
    // Without a line (the walk ran out of positions), the first move of the shortest proof.
    out.best = out.line.first().copied().or_else(|| first.and_then(|i| nth_move(s, pos, i)));
    Ok(())
}

/// The `i`-th legal move of `pos`.
fn nth_move(s: &Dfpn, pos: &mut Position, i: usize) -> Option<Move> {
    let mut moves = Vec::new();
    s.variant().legal_moves(pos, &mut moves).ok()?;
    moves.get(i).copied()
}

/// The proof's line from `pos` (proved for `s`'s prover within `left` plies): the prover's
/// shortest proved move, the opponent's reply with the longest proof; as far as the limits let
/// it re-prove what the table lost.
fn line(s: &mut Dfpn, pos: &mut Position, mut left: u32) -> Result<Vec<Move>, crate::script::ScriptError> {
    let mut line = Vec::new();
    let mut err = None;
    while left > 0 && pos.result().is_none() {
        let mut moves = Vec::new();
        s.variant().legal_moves(pos, &mut moves)?;
        s.enter(pos);
        let next = match step(s, pos, &moves, left) {
            Ok(n) => n,
            Err(Stop::Failed(e)) => {
                err = Some(e);
                None
            }
            Err(_) => None,
        };
        let Some((i, dist)) = next else {
            s.leave();
            break;
        };
        s.variant().make(pos, &moves[i])?;
        line.push(moves[i]);
        left = u32::from(dist);
    }
    for _ in 0..line.len() {
        pos.undo();
        s.leave();
    }
    err.map_or(Ok(line), Err)
}

/// The line's next move from `pos` and its proof's length.
fn step(s: &mut Dfpn, pos: &mut Position, moves: &[Move], left: u32) -> Result<Option<(usize, u16)>, Stop> {
    let mut pick: Option<(usize, u16)> = None;
    if pos.side() == s.prover() {
        // A proved move the table still holds, the shortest; else the first one proved again.
        let kids = s.children(pos, moves, left)?;
        pick = kids.iter().enumerate().filter(|(_, k)| k.is_proved()).map(|(i, k)| (i, k.dist)).min_by_key(|x| x.1);
        for (i, m) in moves.iter().enumerate() {
            if pick.is_some() {
                break;
            }
            let a = probe(s, pos, m, left)?;
            pick = a.is_proved().then_some((i, a.dist));
        }
        return Ok(pick);
    }
    // Every reply is proved: the one with the longest proof.
    for (i, m) in moves.iter().enumerate() {
        let a = probe(s, pos, m, left)?;
        if !a.is_proved() {
            return Ok(None);
        }
        if pick.is_none_or(|(_, d)| a.dist > d) {
            pick = Some((i, a.dist));
        }
    }
    Ok(pick)
}

/// Searches the position after `m` within `left - 1` plies.
fn probe(s: &mut Dfpn, pos: &mut Position, m: &Move, left: u32) -> Result<Val, Stop> {
    s.variant().make(pos, m)?;
    let r = s.run(pos, left - 1);
    pos.undo();
    r
}

/// A finished game's value for `side`, `ply` plies from the root.
fn value_of(w: Winner, side: Player, ply: u32) -> Value {
    match w {
        Winner::Player(p) if p == side => Value::Win(ply),
        Winner::Player(_) => Value::Loss(ply),
        Winner::Draw => Value::Draw,
    }
}

impl Solution {
    /// The solution in words for `pos`'s variant (`v`): the value, the best move and line, and
    /// what it took.
    pub fn text(&self, v: &Variant, pos: &Position) -> String {
        let g = &v.rules.geometry;
        let me = v.rules.player_name(pos.side());
        let them = v.rules.player_name(pos.side().other());
        let within = if self.exact {
            String::new()
        } else {
            format!(" at most (the shortest not proved: stopped by {})", self.stopped.unwrap_or("a limit"))
        };
        let mut s = match self.value {
            Some(Value::Win(n)) => format!("{me} (to move) wins in {n} plies{within}"),
            Some(Value::Loss(n)) => format!("{them} wins in {n} plies{within} ({me} to move loses)"),
            Some(Value::Draw) => "a draw with perfect play (neither side can force a win)".to_string(),
            None if self.stopped == Some("the horizon limit") => {
                format!("not proved: stopped by the horizon limit; no win for either side within {} plies", self.horizon)
            }
            None => format!("not proved: stopped by {} after {} positions", self.stopped.unwrap_or("a limit"), thousands(self.nodes)),
        };
        s.push('\n');
        if let Some(b) = self.best {
            s.push_str(&format!("best move: {}\n", b.text(g)));
        }
        if !self.line.is_empty() {
            let line: Vec<String> = self.line.iter().map(|m| m.text(g)).collect();
            s.push_str(&format!("line: {}\n", line.join(" ")));
        }
        for &(p, pn, dn) in &self.open {
            s.push_str(&format!("can {} win? proof number {pn}, disproof number {dn}\n", v.rules.player_name(p)));
        }
        s.push_str(&format!("positions visited: {}\n", thousands(self.nodes)));
        let (used, size) = self.table;
        s.push_str(&format!(
            "table: {} positions kept, room for {} ({} MiB)\n",
            thousands(used as u64),
            thousands(size as u64),
            (size * ENTRY_BYTES) >> 20
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved(variant: &str, fen: Option<&str>, limits: Limits) -> (Solution, Variant, Position) {
        let v = Variant::load(variant, &[]).unwrap();
        let pos = fen.map_or_else(|| v.start(), |f| crate::fen::read(&v.rules, f).unwrap());
        (solve(&v, &pos, limits, |_| {}).unwrap(), v, pos)
    }

    #[test]
    fn tic_tac_toe_is_a_draw_even_with_a_small_table() {
        // The published result; the smallest table (1,024 positions) keeps replacing entries.
        for memory in [1 << 20, 0] {
            let (s, _, _) = solved("tic-tac-toe", None, Limits { memory, ..Limits::default() });
            assert_eq!(s.value, Some(Value::Draw), "memory {memory}");
        }
    }

    #[test]
    fn a_mate_in_two_and_the_loss_it_leaves() {
        // Fairy-Stockfish's search says mate in 2 (3 plies): 1.Ra6 bxa6 2.b7#.
        let (s, v, _) = solved("chess", Some("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"), Limits::default());
        assert_eq!(s.value, Some(Value::Win(3)));
        assert_eq!(s.best.map(|m| m.text(&v.rules.geometry)).as_deref(), Some("a1-a6"));
        // After 1.Ra6 black loses in 2 plies whatever it plays.
        let (s, _, _) = solved("chess", Some("kbK5/pp6/RP6/8/8/8/8/8 b - - 1 1"), Limits::default());
        assert_eq!(s.value, Some(Value::Loss(2)));
        // A finished game is its own value.
        let (s, _, _) = solved("chess", Some("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), Limits::default());
        assert_eq!(s.value, Some(Value::Loss(0)));
    }

    #[test]
    fn three_chess_mates_with_their_length_in_any_table() {
        // Fairy-Stockfish: mate in 2, in 3 and in 3 (3, 5 and 5 plies); the smallest table
        // (1,024 positions) forgets and proves again, and must find the same lengths.
        for (fen, plies) in [
            ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 3),
            ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 5),
            ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 5),
        ] {
            for memory in [1 << 20, 0] {
                let (s, v, mut pos) = solved("chess", Some(fen), Limits { memory, ..Limits::default() });
                assert_eq!((s.value, s.exact), (Some(Value::Win(plies)), true), "{fen} {memory}");
                // The line is the proof's: it ends in the mate (the loser's replies are the
                // longest the table's proofs know, so it may be shorter).
                assert!(s.line.len() <= plies as usize && s.line.len() % 2 == 1, "{fen} {memory}");
                for m in &s.line {
                    v.make(&mut pos, m).unwrap();
                }
                let mut moves = Vec::new();
                v.legal_moves(&mut pos, &mut moves).unwrap();
                assert!(moves.is_empty(), "{fen} {memory}");
            }
        }
    }

    #[test]
    fn a_dobutsu_win_near_a_games_end_in_any_table() {
        // Game 2 of tests/solve/dobutsu-games.txt, 12 plies before its end (gote won): the
        // same value in a large table and in the smallest one, the shortest proved, and the
        // line a win for gote that lasts no longer than that.
        let games = std::fs::read_to_string("tests/solve/dobutsu-games.txt").unwrap();
        let game: Vec<&str> = games.lines().find_map(|l| l.strip_prefix("2 ")).unwrap().split(' ').collect();
        let v = Variant::load("dobutsu", &[]).unwrap();
        let mut pos = v.start();
        for m in &game[..game.len() - 12] {
            v.play(&mut pos, m).unwrap();
        }
        let mut values = Vec::new();
        for memory in [1 << 24, 0] {
            let s = solve(&v, &pos, Limits { memory, ..Limits::default() }, |_| {}).unwrap();
            let Some(Value::Loss(n)) = s.value else { panic!("{:?}", s.value) };
            assert!(s.exact && s.line.len() <= n as usize, "{memory} {n} {}", s.line.len());
            let mut end = pos.clone();
            for m in &s.line {
                v.make(&mut end, m).unwrap();
            }
            assert_eq!(end.result().map(|r| r.winner), Some(Winner::Player(pos.side().other())), "{memory}");
            values.push(n);
        }
        assert_eq!(values[0], values[1]);
    }

    #[test]
    fn a_limit_stops_it_unproved() {
        let (s, v, pos) = solved("tic-tac-toe", None, Limits { nodes: 50, ..Limits::default() });
        assert_eq!((s.value, s.stopped), (None, Some("the node limit")));
        assert!(s.text(&v, &pos).starts_with("not proved: stopped by the node limit"), "{}", s.text(&v, &pos));
        let (s, v, pos) = solved("tic-tac-toe", None, Limits { horizon: 4, ..Limits::default() });
        assert_eq!((s.value, s.stopped, s.horizon), (None, Some("the horizon limit"), 4));
        assert!(s.text(&v, &pos).starts_with("not proved: stopped by the horizon limit; no win for either side within 4 plies"));
    }

    #[test]
    fn a_win_worked_out_by_hand_and_its_line() {
        // `K2k` on one rank: b1, c1 (forced), b1xc1.
        let (s, v, _) = solved("./tests/solve/kings-line", None, Limits::default());
        assert_eq!((s.value, s.exact), (Some(Value::Win(3)), true));
        let line: Vec<String> = s.line.iter().map(|m| m.text(&v.rules.geometry)).collect();
        assert_eq!(line, ["a1-b1", "d1-c1", "b1xc1"]);
        // Black to move there loses in 2 plies.
        let pos = Position::from_text(&v.rules, "1K1k black 0").unwrap();
        let s = solve(&v, &pos, Limits::default(), |_| {}).unwrap();
        assert_eq!(s.value, Some(Value::Loss(2)));
    }

    #[test]
    fn a_game_that_can_go_on_for_ever_is_a_draw() {
        // Without a repetition rule every line that does not lose comes back to a position on
        // its path; with one, the third repetition ends it as a draw. Either way a draw, with a
        // table of any size.
        for (repetition, memory) in [("none", 1 << 20), ("none", 0), ("draw", 1 << 20), ("draw", 0)] {
            let v = Variant::load("./tests/solve/kings", &[("repetition".into(), repetition.into())]).unwrap();
            let s = solve(&v, &v.start(), Limits { memory, ..Limits::default() }, |_| {}).unwrap();
            assert_eq!(s.value, Some(Value::Draw), "{repetition} {memory}");
            // The drawing move keeps away from the other king.
            let best = s.best.map(|m| m.text(&v.rules.geometry));
            assert!(matches!(best.as_deref(), Some("c1-b1" | "c1-c2")), "{best:?}");
        }
    }
}
