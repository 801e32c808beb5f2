//! Depth-first proof-number search (df-pn, Nagai 2002) for one question: can the prover force a
//! win from here within so many plies? A position where the prover moves is an OR node (proved
//! when one move is), any other an AND node (proved when every move is); a draw, an unfinished
//! line at the horizon and a line that comes back to a position on the path count against the
//! prover. Thresholds on the proof and disproof numbers bring the search back up the tree
//! when a sibling looks cheaper; the second-best child's number is raised by a quarter before
//! it becomes the threshold (the 1+ε trick of Pawlewicz and Lew), so the search does not
//! thrash between two siblings. A position met for the first time starts from its number of
//! moves (df-pn+'s initial numbers) rather than from 1 and 1.
//!
//! Every result is kept in the [`Table`]: a proof with its length (valid wherever that many
//! plies are left), a disproof with the most plies left for which it holds (`SURE` when no
//! horizon touched it). A disproof that rests on a line coming back to the path depends on the
//! path, and is not kept (the graph-history interaction): so a proof or a disproof read from
//! the table never depends on how the position was reached, beyond the repetition count the
//! key holds (as the alpha-beta search's does).

use super::table::{Entry, INF, SURE, Table};
use crate::ai::search::table_key;
use crate::interrupt;
use crate::notation::Move;
use crate::outcome::Winner;
use crate::piece::Player;
use crate::state::Position;
use crate::variant::Variant;

/// Why a search stopped early.
pub(super) enum Stop {
    Nodes,
    Interrupted,
    Failed(crate::script::ScriptError),
}

impl From<crate::script::ScriptError> for Stop {
    fn from(e: crate::script::ScriptError) -> Stop {
        Stop::Failed(e)
    }
}

/// A position's numbers for the prover, with what a decided one rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Val {
    pub pn: u32,
    pub dn: u32,
    /// Proved: the proof's length; disproved: the most plies left for which it holds.
    pub dist: u16,
    /// A disproof that rests on a line returning to the path.
    pub cycle: bool,
    /// The best move's index (a proof's move, a refutation), if decided.
    pub best: Option<usize>,
}

impl Val {
    const UNKNOWN: Val = Val { pn: 1, dn: 1, dist: 0, cycle: false, best: None };

    fn proved(dist: u16) -> Val {
        Val { pn: 0, dn: INF, dist, cycle: false, best: None }
    }

    fn disproved(dist: u16) -> Val {
        Val { pn: INF, dn: 0, dist, cycle: false, best: None }
    }

    pub fn is_proved(&self) -> bool {
        self.pn == 0
    }

    pub fn is_disproved(&self) -> bool {
        self.dn == 0
    }
}

/// The search's state: the table, the question, the counters.
pub(super) struct Dfpn<'a> {
    v: &'a Variant,
    pub table: Table,
    prover: Player,
    /// Mixed into the keys: each prover's results are another question's.
    salt: u64,
    repetition: bool,
    pub nodes: u64,
    /// Stop with `Stop::Nodes` at this count.
    pub limit: u64,
    /// The keys of the positions on the path from the root.
    path: Vec<u64>,
    next_report: u64,
    progress: &'a mut dyn FnMut(Player, u64, &Table),
    /// The path's length where the current `run` started: its root's depth.
    base: usize,
    /// A move list to count a leaf's moves in, kept to spare the allocations.
    scratch: Vec<Move>,
}

/// How often progress is reported (positions).
const REPORT_EVERY: u64 = 1 << 20;

/// `x` raised by a quarter (at least 1), the threshold a second-best sibling sets.
fn widened(x: u32) -> u32 {
    x.saturating_add((x / 4).max(1)).min(INF - 1)
}

impl<'a> Dfpn<'a> {
    pub fn new(v: &'a Variant, memory: usize, progress: &'a mut dyn FnMut(Player, u64, &Table)) -> Dfpn<'a> {
        Dfpn {
            v,
            table: Table::new(memory),
            prover: Player(0),
            salt: 0,
            repetition: v.rules.repetition,
            nodes: 0,
            limit: u64::MAX,
            path: Vec::new(),
            next_report: REPORT_EVERY,
            progress,
            base: 0,
            scratch: Vec::new(),
        }
    }

    /// Sets who tries to win.
    pub fn ask(&mut self, prover: Player) {
        self.prover = prover;
        self.salt = crate::rules::mix(0xD0F0_0000 + prover.0 as u64);
    }

    pub fn variant(&self) -> &'a Variant {
        self.v
    }

    pub fn prover(&self) -> Player {
        self.prover
    }

    fn key(&self, pos: &Position) -> u64 {
        table_key(pos, self.repetition) ^ self.salt
    }

    /// Searches `pos` (not finished) until it is decided for the prover within `left` plies,
    /// or a limit stops it. The path above `pos` is `self.path`'s.
    pub fn run(&mut self, pos: &mut Position, left: u32) -> Result<Val, Stop> {
        self.base = self.path.len();
        let v = self.leaf(pos, left)?;
        if v.is_proved() || v.is_disproved() {
            return Ok(v);
        }
        self.mid(pos, (INF, INF), left)
    }

    /// What is known of `pos` with `left` plies left, without searching it: its result if the
    /// game is over, a cut at the horizon or on the path, the table's entry, else unknown.
    pub fn look(&self, pos: &Position, left: u32) -> Val {
        if let Some(r) = pos.result() {
            return self.over(r.winner);
        }
        if left == 0 {
            return Val::disproved(0);
        }
        let key = self.key(pos);
        if self.path.contains(&key) {
            return Val { cycle: true, ..Val::disproved(SURE) };
        }
        let Some(e) = self.table.get(key) else { return Val::UNKNOWN };
        let best = e.best.checked_sub(1).map(usize::from);
        match (e.pn, e.dn) {
            (0, _) if u32::from(e.dist) <= left => Val { best, ..Val::proved(e.dist) },
            (_, 0) if e.dist == SURE || u32::from(e.dist) >= left => Val { best, ..Val::disproved(e.dist) },
            (0, _) | (_, 0) => Val::UNKNOWN,
            (pn, dn) => Val { pn, dn, ..Val::UNKNOWN },
        }
    }

    /// [`look`](Self::look), and for a position it does not settle, its moves: none is a
    /// game over (not a line cut at the horizon); else a position not searched yet starts
    /// from its number of moves (df-pn+'s initial numbers, Nagai 2002; Kishimoto et al.
    /// 2012): a disproof at the prover's turn, and a proof at the opponent's, needs every move
    /// answered, so the more moves, the more work it looks.
    fn leaf(&mut self, pos: &mut Position, left: u32) -> Result<Val, Stop> {
        let v = self.look(pos, left);
        let fresh = left > 0 && v == Val::UNKNOWN;
        if pos.result().is_some() || v.cycle || (left > 0 && !fresh) {
            return Ok(v);
        }
        let mut moves = std::mem::take(&mut self.scratch);
        moves.clear();
        let listed = self.v.legal_moves(pos, &mut moves);
        let n = moves.len();
        self.scratch = moves;
        listed?;
        if n == 0 {
            return Ok(self.over(self.v.no_moves_outcome(pos).winner));
        }
        if !fresh {
            return Ok(v);
        }
        let n = (n as u32).min(INF - 1);
        Ok(if pos.side() == self.prover { Val { dn: n, ..v } } else { Val { pn: n, ..v } })
    }

    /// A finished game for the prover.
    fn over(&self, w: Winner) -> Val {
        if w == Winner::Player(self.prover) { Val::proved(0) } else { Val::disproved(SURE) }
    }

    fn count(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes >= self.limit {
            return Err(Stop::Nodes);
        }
        if self.nodes >= self.next_report {
            self.next_report += REPORT_EVERY;
            (self.progress)(self.prover, self.nodes, &self.table);
        }
        if self.nodes.is_multiple_of(4096) && interrupt::requested() {
            return Err(Stop::Interrupted);
        }
        Ok(())
    }

    /// The numbers of each move's position (one ply down).
    pub fn children(&mut self, pos: &mut Position, moves: &[Move], left: u32) -> Result<Vec<Val>, Stop> {
        let mut kids = Vec::with_capacity(moves.len());
        for m in moves {
            self.v.make(pos, m)?;
            let counted = self.count();
            let kid = if counted.is_ok() { self.leaf(pos, left - 1) } else { Ok(Val::UNKNOWN) };
            pos.undo();
            kids.push(kid?);
            counted?;
        }
        Ok(kids)
    }

    /// The multiple-iterative-deepening step: searches `pos` until its proof number reaches
    /// `th.0` or its disproof number `th.1` (or it is decided), then keeps and returns them.
    fn mid(&mut self, pos: &mut Position, th: (u32, u32), left: u32) -> Result<Val, Stop> {
        let start = self.nodes;
        let key = self.key(pos);
        let mut moves = Vec::new();
        self.v.legal_moves(pos, &mut moves)?;
        if moves.is_empty() {
            let v = self.over(self.v.no_moves_outcome(pos).winner);
            self.keep(key, v, start);
            return Ok(v);
        }
        let or = pos.side() == self.prover;
        let mut kids = self.children(pos, &moves, left)?;
        self.path.push(key);
        let r = self.deepen(pos, &moves, &mut kids, th, left, or);
        self.path.pop();
        // Stopped by a limit, the root keeps the numbers it reached: the next round goes on
        // from them. A position below keeps what it had: its numbers now are an unfinished
        // search's (its children not looked at yet count as unknown, the child searched when
        // the limit came as before it), and kept they misled the rounds after it (a Dōbutsu
        // win 20 plies from a game's end: shortened to 20 plies within 3 × 10⁷ positions, to
        // 22 with them kept).
        let (v, stop) = match r {
            Ok(v) => (v, None),
            Err(e @ (Stop::Nodes | Stop::Interrupted)) => (combine(&kids, or), Some(e)),
            Err(e) => return Err(e),
        };
        if !v.cycle && (stop.is_none() || self.path.len() == self.base) {
            self.keep(key, v, start);
        }
        stop.map_or(Ok(v), Err)
    }

    /// `mid`'s loop over the children.
    fn deepen(&mut self, pos: &mut Position, moves: &[Move], kids: &mut [Val], th: (u32, u32), left: u32, or: bool) -> Result<Val, Stop> {
        loop {
            let me = combine(kids, or);
            if me.pn >= th.0 || me.dn >= th.1 {
                return Ok(me);
            }
            let (i, second) = select(kids, or);
            let child = if or {
                (th.0.min(widened(second)), relax(th.1, me.dn, kids[i].dn))
            } else {
                (relax(th.0, me.pn, kids[i].pn), th.1.min(widened(second)))
            };
            self.v.make(pos, &moves[i])?;
            let r = self.mid(pos, child, left - 1);
            pos.undo();
            kids[i] = r?;
        }
    }

    fn keep(&mut self, key: u64, v: Val, start: u64) {
        let work = (self.nodes - start).min(u32::MAX as u64) as u32;
        let best = v.best.map_or(0, |i| if i < u16::MAX as usize - 1 { i as u16 + 1 } else { 0 });
        self.table.put(Entry { key, pn: v.pn, dn: v.dn, work, dist: v.dist, best });
    }

    /// Pushes a position onto the path (for a walk down a line) or pops it.
    pub fn enter(&mut self, pos: &Position) {
        let k = self.key(pos);
        self.path.push(k);
    }

    pub fn leave(&mut self) {
        self.path.pop();
    }
}

/// A child's threshold on the number its parent sums: the parent's threshold less what the
/// other children already sum.
fn relax(th: u32, sum: u32, own: u32) -> u32 {
    if th >= INF { INF } else { (th as u64 - sum as u64 + own as u64).min(INF as u64 - 1) as u32 }
}

/// The child to search (least proof number at an OR node, least disproof number at an AND
/// node) and the second least.
fn select(kids: &[Val], or: bool) -> (usize, u32) {
    let n = |k: &Val| if or { k.pn } else { k.dn };
    let (mut best, mut first, mut second) = (0, INF, INF);
    for (i, k) in kids.iter().enumerate() {
        let x = n(k);
        if x < first {
            (best, second, first) = (i, first, x);
        } else if x < second {
            second = x;
        }
    }
    (best, second)
}

/// A node's numbers from its children's: at an OR node the least proof number and the sum of
/// disproof numbers, at an AND node the other way round.
fn combine(kids: &[Val], or: bool) -> Val {
    if or { combine_or(kids) } else { combine_and(kids) }
}

/// A disproof's bound one ply up.
fn up(bound: u16) -> u16 {
    if bound == SURE { SURE } else { bound + 1 }
}

/// An OR node: proved by its shortest proved move; disproved when every move is (holding as
/// far as the least-holding one, resting on the path if any does).
fn combine_or(kids: &[Val]) -> Val {
    let proof = kids.iter().enumerate().filter(|(_, k)| k.pn == 0).min_by_key(|(_, k)| k.dist);
    if let Some((i, k)) = proof {
        return Val { best: Some(i), ..Val::proved(k.dist.saturating_add(1)) };
    }
    let (pn, best) = kids.iter().enumerate().map(|(i, k)| (k.pn, i)).min().unwrap_or((INF, 0));
    let dn: u64 = kids.iter().map(|k| k.dn as u64).sum();
    if dn == 0 {
        let bound = kids.iter().map(|k| k.dist).min().unwrap_or(SURE);
        return Val { cycle: kids.iter().any(|k| k.cycle), ..Val::disproved(up(bound)) };
    }
    Val { pn, dn: dn.min(INF as u64 - 1) as u32, best: Some(best), ..Val::UNKNOWN }
}

/// An AND node: disproved by one disproved reply (one that holds without the path, and as
/// far as possible, if any); proved when every reply is (its length the longest one's).
fn combine_and(kids: &[Val]) -> Val {
    let refutation = kids.iter().enumerate().filter(|(_, k)| k.dn == 0).max_by_key(|(_, k)| (!k.cycle, k.dist));
    if let Some((i, k)) = refutation {
        return Val { cycle: k.cycle, best: Some(i), ..Val::disproved(up(k.dist)) };
    }
    let (dn, best) = kids.iter().enumerate().map(|(i, k)| (k.dn, i)).min().unwrap_or((INF, 0));
    let pn: u64 = kids.iter().map(|k| k.pn as u64).sum();
    if pn == 0 {
        let (i, k) = kids.iter().enumerate().max_by_key(|(_, k)| k.dist).unwrap_or((0, &Val::UNKNOWN));
        return Val { best: Some(i), ..Val::proved(k.dist.saturating_add(1)) };
    }
    Val { pn: pn.min(INF as u64 - 1) as u32, dn, best: Some(best), ..Val::UNKNOWN }
}
