//! The solver: what a position is worth with perfect play (a win or a loss for the player to
//! move, in how many plies, or a draw), proved by searching every line to the game's end.
//!
//! Iterative deepening over a ply horizon: each pass is an alpha-beta search over the game's
//! own results (a win scores `WIN - ply`, so the quickest win and the slowest loss are
//! preferred; a draw 0), where a line cut at the horizon scores 0 too and marks the pass as
//! unsure. A win or a loss found is proved whatever the horizon cut (a cut line scores as a
//! draw, and so can only hide a result, never make one); a draw is proved by a pass in which
//! no line was cut. Positions are kept in a table of fixed size (`--memory`), each with its
//! bound and whether its subtree met the horizon, so a later pass reuses every exact result.
//!
//! The same kernel as play and perft (`Variant::legal_moves`, `make`, `undo`); Ctrl-C and the
//! node limit stop it with what it proved so far. A repetition rule makes a position's value
//! depend on the line that reached it; the table keys count the repetitions (as the search's
//! do), which keeps every result found on the line searched.

use crate::ai::search::{MATE as WIN, MATE_BOUND as WIN_BOUND, from_tt as from_table, history_index, table_key, to_tt as to_table};
use crate::interrupt;
use crate::notation::Move;
use crate::outcome::Winner;
use crate::piece::Player;
use crate::state::Position;
use crate::variant::Variant;

/// The deepest horizon tried (plies): a win in `n` plies scores `WIN - n` (the search's mate
/// scores, whose table keeps them relative to the node), which must stay above `WIN_BOUND`.
pub const MAX_HORIZON: u32 = 9_000;

/// What the solver may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The table's size in bytes.
    pub memory: usize,
    /// Stop after visiting this many positions.
    pub nodes: u64,
    /// The deepest horizon (plies).
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
    pub best: Option<Move>,
    pub line: Vec<Move>,
    /// The horizon of the last pass completed (plies).
    pub horizon: u32,
    pub nodes: u64,
    /// Why it stopped before proving a value.
    pub stopped: Option<&'static str>,
}

/// One position in the table (16 bytes).
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    value: i32,
    /// The horizon left when stored (plies), or `u16::MAX` for a result no horizon touched.
    depth: u16,
    /// The bound in the top two bits (0: empty, 1: exact, 2: lower, 3: upper), and the best
    /// move's index in the legal list plus 1 below them (0: none).
    info: u16,
}

impl Entry {
    fn pack(self) -> [u64; 2] {
        [self.key, (self.value as u32 as u64) << 32 | (self.depth as u64) << 16 | self.info as u64]
    }

    fn unpack([key, rest]: [u64; 2]) -> Entry {
        Entry { key, value: (rest >> 32) as u32 as i32, depth: (rest >> 16) as u16, info: rest as u16 }
    }

    fn bound(&self) -> u8 {
        (self.info >> 14) as u8
    }

    fn best(&self) -> Option<usize> {
        (self.info & 0x3FFF).checked_sub(1).map(usize::from)
    }
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const SURE: u16 = u16::MAX;

/// Why a pass stopped early.
enum Stop {
    Nodes,
    Interrupted,
    Failed(crate::script::ScriptError),
}

struct Solver<'a> {
    v: &'a Variant,
    /// The entries packed two words each ([`Entry::pack`]), in a table that doubles as it
    /// fills, up to `max` entries (so a small game takes little memory).
    table: Vec<u64>,
    used: usize,
    max: usize,
    nodes: u64,
    limit: u64,
    /// Whether the current subtree met the horizon (or a table entry that did).
    cut: bool,
    repetition: bool,
    /// How often each move (by its start and landing cells) cut a search off, weighted by the
    /// plies left: tried first where the table names no move.
    history: Vec<u32>,
    cells: usize,
}

/// Solves `pos` within `limits`; `progress` hears each pass (its horizon and the positions
/// visited so far).
///
/// # Errors
/// A script hook failed.
pub fn solve(
    v: &Variant,
    pos: &Position,
    limits: Limits,
    mut progress: impl FnMut(u32, u64),
) -> Result<Solution, crate::script::ScriptError> {
    let max = (limits.memory / 16).clamp(1024, 1 << 32);
    let cells = v.rules.geometry.len();
    let mut s = Solver {
        v,
        table: vec![0u64; 2 * max.min(1 << 16)],
        used: 0,
        max,
        nodes: 0,
        limit: limits.nodes,
        cut: false,
        repetition: v.rules.repetition,
        history: vec![0; (cells + 1) * (cells + 1)],
        cells,
    };
    let mut pos = pos.clone();
    let mut out = Solution { value: None, best: None, line: Vec::new(), horizon: 0, nodes: 0, stopped: None };
    if let Some(r) = pos.result() {
        out.value = Some(value_of(r.winner, pos.side(), 0));
        return Ok(out);
    }
    for horizon in 1..=limits.horizon.min(MAX_HORIZON) {
        s.cut = false;
        let r = s.node(&mut pos, horizon as i32, -WIN, WIN, 0);
        let score = match r {
            Ok(x) => x,
            Err(Stop::Failed(e)) => return Err(e),
            Err(Stop::Nodes) => {
                out.stopped = Some("the node limit");
                break;
            }
            Err(Stop::Interrupted) => {
                out.stopped = Some("Ctrl-C");
                break;
            }
        };
        out.horizon = horizon;
        out.nodes = s.nodes;
        out.line = s.line(&mut pos, horizon as usize);
        out.best = out.line.first().copied();
        progress(horizon, s.nodes);
        if score.abs() >= WIN_BOUND {
            let n = (WIN - score.abs()) as u32;
            out.value = Some(if score > 0 { Value::Win(n) } else { Value::Loss(n) });
            return Ok(out);
        }
        if !s.cut {
            out.value = Some(Value::Draw);
            return Ok(out);
        }
    }
    out.nodes = s.nodes;
    if out.stopped.is_none() {
        out.stopped = Some("the horizon limit");
    }
    Ok(out)
}

/// A finished game's value for `side`, `ply` plies from the root.
fn value_of(w: Winner, side: Player, ply: u32) -> Value {
    match w {
        Winner::Player(p) if p == side => Value::Win(ply),
        Winner::Player(_) => Value::Loss(ply),
        Winner::Draw => Value::Draw,
    }
}

/// The score of a finished game for `side`, `ply` plies from the root.
fn score_of(w: Winner, side: Player, ply: usize) -> i32 {
    match w {
        Winner::Player(p) if p == side => WIN - ply as i32,
        Winner::Player(_) => -(WIN - ply as i32),
        Winner::Draw => 0,
    }
}

impl Solver<'_> {
    fn slot(&self, key: u64) -> usize {
        (key % (self.table.len() / 2) as u64) as usize
    }

    fn entry(&self, slot: usize) -> Entry {
        Entry::unpack([self.table[2 * slot], self.table[2 * slot + 1]])
    }

    /// The value of `pos` for the player to move, within (`alpha`, `beta`), with `depth`
    /// plies left before the horizon.
    fn node(&mut self, pos: &mut Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> Result<i32, Stop> {
        self.nodes += 1;
        if self.nodes >= self.limit {
            return Err(Stop::Nodes);
        }
        if self.nodes.is_multiple_of(4096) && interrupt::requested() {
            return Err(Stop::Interrupted);
        }
        if let Some(r) = pos.result() {
            return Ok(score_of(r.winner, pos.side(), ply));
        }
        let key = table_key(pos, self.repetition);
        let (known, first) = self.probe(key, depth, (alpha, beta), ply);
        if let Some(s) = known {
            return Ok(s);
        }
        let mut moves = Vec::new();
        self.v.legal_moves(pos, &mut moves).map_err(Stop::Failed)?;
        if moves.is_empty() {
            return Ok(score_of(self.v.no_moves_outcome(pos).winner, pos.side(), ply));
        }
        if depth <= 0 {
            self.cut = true;
            return Ok(0);
        }
        let outer = std::mem::take(&mut self.cut);
        let (alpha0, me) = (alpha, pos.side());
        let (mut best_score, mut best_i) = (-WIN, 0usize);
        let first = first.filter(|&i| i < moves.len());
        let mut order: Vec<usize> = (0..moves.len()).filter(|&i| Some(i) != first).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.history[history_index(&moves[i], self.cells)]));
        order.splice(0..0, first);
        for i in order {
            let m = moves[i];
            self.v.make(pos, &m).map_err(Stop::Failed)?;
            // A turn that goes on (a capture chain) is the same player's: no sign change.
            let r = if pos.side() == me {
                self.node(pos, depth - 1, alpha, beta, ply + 1)
            } else {
                self.node(pos, depth - 1, -beta, -alpha, ply + 1).map(|x| -x)
            };
            pos.undo();
            let score = r?;
            if score > best_score {
                (best_score, best_i) = (score, i);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                let h = history_index(&m, self.cells);
                self.history[h] = self.history[h].saturating_add((depth * depth) as u32);
                break;
            }
        }
        let bound = if best_score <= alpha0 {
            UPPER
        } else if best_score >= beta {
            LOWER
        } else {
            EXACT
        };
        self.store(key, to_table(best_score, ply), depth, bound, best_i);
        self.cut |= outer;
        Ok(best_score)
    }

    /// What the table knows of the position `key` with `depth` plies left: its score where that
    /// settles the window (marking the search unsure where the entry met a horizon), and the
    /// best move's index.
    fn probe(&mut self, key: u64, depth: i32, (alpha, beta): (i32, i32), ply: usize) -> (Option<i32>, Option<usize>) {
        let e = self.entry(self.slot(key));
        if e.bound() == 0 || e.key != key {
            return (None, None);
        }
        if e.depth == SURE || e.depth as i32 >= depth {
            let s = from_table(e.value, ply);
            let usable = match e.bound() {
                EXACT => true,
                LOWER => s >= beta,
                _ => s <= alpha,
            };
            if usable {
                self.cut |= e.depth != SURE;
                return (Some(s), e.best());
            }
        }
        (None, e.best())
    }

    /// Keeps a result (`value` as the table holds it) unless the slot holds deeper knowledge of
    /// another position: a sure result, or one with a longer horizon.
    fn store(&mut self, key: u64, value: i32, depth: i32, bound: u8, best: usize) {
        let kept = if self.cut { depth.clamp(0, SURE as i32 - 1) as u16 } else { SURE };
        let slot = self.slot(key);
        let old = self.entry(slot);
        if old.key == key || old.bound() == 0 || kept >= old.depth {
            self.used += usize::from(old.bound() == 0);
            let best = if best < 0x3FFE { best as u16 + 1 } else { 0 };
            let [a, b] = Entry { key, value, depth: kept, info: (bound as u16) << 14 | best }.pack();
            (self.table[2 * slot], self.table[2 * slot + 1]) = (a, b);
            if self.used * 4 > self.table.len() / 2 * 3 && self.table.len() / 2 < self.max {
                self.grow();
            }
        }
    }

    /// Doubles the table (up to its limit), every entry moved to its new slot.
    fn grow(&mut self) {
        let n = (self.table.len() / 2 * 2).min(self.max);
        let old = std::mem::replace(&mut self.table, vec![0u64; 2 * n]);
        self.used = 0;
        for pair in old.chunks_exact(2) {
            let e = Entry::unpack([pair[0], pair[1]]);
            if e.bound() != 0 {
                let slot = self.slot(e.key);
                self.used += usize::from(self.entry(slot).bound() == 0);
                (self.table[2 * slot], self.table[2 * slot + 1]) = (pair[0], pair[1]);
            }
        }
    }

    /// The line the table holds from `pos`: each position's best move, while it is stored
    /// (at most `max` moves, and no position twice).
    fn line(&mut self, pos: &mut Position, max: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut seen = Vec::new();
        while line.len() < max && pos.result().is_none() {
            let key = table_key(pos, self.repetition);
            let e = self.entry(self.slot(key));
            let Some(best) = e.best().filter(|_| e.key == key && !seen.contains(&key)) else { break };
            seen.push(key);
            let mut moves = Vec::new();
            if self.v.legal_moves(pos, &mut moves).is_err() {
                break;
            }
            let Some(&m) = moves.get(best) else { break };
            if self.v.make(pos, &m).is_err() {
                break;
            }
            line.push(m);
        }
        for _ in 0..line.len() {
            pos.undo();
        }
        line
    }
}

impl Solution {
    /// The solution in words for `pos`'s variant (`v`): the value, the best move and line.
    pub fn text(&self, v: &Variant, pos: &Position) -> String {
        let g = &v.rules.geometry;
        let me = v.rules.player_name(pos.side());
        let them = v.rules.player_name(pos.side().other());
        let mut s = match self.value {
            Some(Value::Win(n)) => format!("{me} (to move) wins in {n} plies"),
            Some(Value::Loss(n)) => format!("{them} wins in {n} plies ({me} to move loses)"),
            Some(Value::Draw) => format!("a draw with perfect play (every line played to its end, {} plies at most)", self.horizon),
            None => format!(
                "not proved: stopped by {} after {} positions; no win or loss within {} plies",
                self.stopped.unwrap_or("a limit"),
                self.nodes,
                self.horizon
            ),
        };
        s.push('\n');
        if let Some(b) = self.best {
            s.push_str(&format!("best move: {}\n", b.text(g)));
        }
        if !self.line.is_empty() {
            let line: Vec<String> = self.line.iter().map(|m| m.text(g)).collect();
            s.push_str(&format!("line: {}\n", line.join(" ")));
        }
        s.push_str(&format!("positions visited: {}\n", self.nodes));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved(variant: &str, fen: Option<&str>, limits: Limits) -> (Solution, Variant, Position) {
        let v = Variant::load(variant, &[]).unwrap();
        let pos = fen.map_or_else(|| v.start(), |f| crate::fen::read(&v.rules, f).unwrap());
        (solve(&v, &pos, limits, |_, _| {}).unwrap(), v, pos)
    }

    #[test]
    fn tic_tac_toe_is_a_draw_even_with_a_small_table() {
        // The published result; the smallest table (1,024 positions) keeps replacing entries.
        for memory in [1 << 20, 0] {
            let (s, _, _) = solved("tic-tac-toe", None, Limits { memory, ..Limits::default() });
            assert_eq!(s.value, Some(Value::Draw), "memory {memory}");
            assert_eq!(s.horizon, 9);
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
    fn a_limit_stops_it_unproved() {
        let (s, v, pos) = solved("tic-tac-toe", None, Limits { nodes: 50, ..Limits::default() });
        assert_eq!((s.value, s.stopped), (None, Some("the node limit")));
        assert!(s.text(&v, &pos).starts_with("not proved: stopped by the node limit"), "{}", s.text(&v, &pos));
        let (s, _, _) = solved("tic-tac-toe", None, Limits { horizon: 4, ..Limits::default() });
        assert_eq!((s.value, s.stopped, s.horizon), (None, Some("the horizon limit"), 4));
    }
}
