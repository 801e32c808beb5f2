//! The walk on the cell sets of games where pieces are only placed ([`crate::plan::Plan::places`]):
//! every move drops a piece from an unlimited supply onto an empty cell of its zone (falling,
//! maybe, along a direction: Connect Four), nothing on the board ever moves, changes or leaves,
//! and a game ends by a line of the mover's pieces (`in_a_row`), by a full board, by the move
//! limit, or when a player has no move: tic-tac-toe and Connect Four (Gomoku's 225 cells do
//! not fit the sets).
//!
//! A node is each player's occupied cells, the side to move, the ply and the position's key
//! (the kernel's, kept as a drop changes it, so that a game played here is recorded as the
//! kernel would record it). Moves are listed in the kernel's order: each droppable code in turn,
//! its cells in board order, so that the `i`-th move here is the kernel's `i`-th. Perft and the
//! random players of self-play walk it; tests hold both equal to the kernel's (perft counts
//! from random positions, and whole random games move for move).

use crate::cellset::Word;
use crate::geometry::NONE;
use crate::notation::Move;
use crate::outcome::Winner;
use crate::piece::{ByPlayer, PieceCode, Player};
use crate::rules::ends::{EndKind, FullResult, Tally};
use crate::rules::setwise::DropSets;
use crate::rules::{EndChecks, Ruleset, Zobrist};
use crate::state::Position;
use std::sync::Arc;

/// A position as the walk sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    /// Per player, the cells holding one of its pieces.
    occ: [u128; 2],
    side: Player,
    ply: u32,
    /// The position's key, as [`Position::hash`] gives it.
    hash: u64,
}

impl Node {
    pub(crate) fn side(&self) -> Player {
        self.side
    }

    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }
}

/// A drop: which of the mover's droppable codes (by its place in the kernel's order), and the
/// cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlaceMove {
    drop: u8,
    cell: u16,
}

/// The most codes a player may drop that the walk holds.
const MAX_DROPS: usize = 4;

/// The moves of a node: per droppable code of the side to move (in the kernel's order), the
/// cells it may land on; `n` in all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Open {
    cells: [u128; MAX_DROPS],
    pub(crate) n: u32,
}

impl Open {
    /// The move at `index` (below `n`) in the kernel's order.
    #[inline]
    pub(crate) fn nth(&self, index: u32) -> PlaceMove {
        let mut i = index;
        for (k, &open) in self.cells.iter().enumerate() {
            let n = open.count_ones();
            if i < n {
                return PlaceMove { drop: k as u8, cell: nth_bit(open, i) };
            }
            i -= n;
        }
        unreachable!("index {index} below the count of moves")
    }
}

/// One droppable code of a player.
struct PlaceDrop {
    code: PieceCode,
    sets: DropSets,
    letter: u8,
    written: bool,
    /// The move's text on each cell, as the kernel's move writes it.
    texts: Vec<String>,
}

/// An end condition the walk judges after every drop, in the rules' order.
enum PlaceEnd {
    /// `in_a_row` over every kind: `length` (or exactly `length`) of the mover's pieces in a
    /// line through the cell it dropped on.
    Row { rule: usize, lines: Lines, win: bool },
    /// `board_full`: every cell of `cells` holds a piece.
    Full { rule: usize, cells: u128, result: FullResult },
}

/// The walk's tables, built once at load where the rules allow it.
pub(crate) struct PlaceWalk {
    drops: ByPlayer<Vec<PlaceDrop>>,
    ends: Vec<PlaceEnd>,
    cells: usize,
    move_limit: u32,
    zobrist: Zobrist,
    /// The reason of a game the move limit ended.
    limit: Arc<str>,
    /// Each cell's set, read from a table: the compiler, seeing a shifted one, would write only
    /// the changed part of a node's word, and the next read of the whole word would wait for
    /// that write to land.
    bits: Vec<u128>,
}

impl PlaceWalk {
    /// The tables for `rules`, where every piece is only dropped (no form moves one, no
    /// supply is counted, no drop converts or is restricted beyond its zone and its fall), no
    /// kind carries attributes, and every end condition judged after a move is a line of any
    /// kinds or a full board (the plan has already ruled out hooks and the rules that add,
    /// refuse or change moves).
    pub(crate) fn of(rules: &Ruleset) -> Option<PlaceWalk> {
        let cells = rules.geometry.len();
        if !crate::cellset::CellSet::fits(cells) || rules.end_checks != EndChecks::Every || rules.repetition || rules.score.is_some() {
            return None;
        }
        if rules.kinds.iter().any(|k| !k.attributes.is_empty()) {
            return None;
        }
        let still = |p: &crate::rules::PieceRules| {
            p.quiet.is_empty()
                && p.jumps.is_empty()
                && p.promote.is_none()
                && p.effects.is_empty()
                && p.exit.is_none()
                && p.convert.is_none()
                && p.push.is_none()
                && p.custodian.is_none()
                && p.liberties.is_none()
                && p.thens.iter().all(Option::is_none)
        };
        if !rules.pieces.iter().skip(1).all(still) {
            return None;
        }
        let mut drops = ByPlayer::new(Vec::new(), Vec::new());
        for p in Player::both() {
            for &code in &rules.drops[p] {
                let d = rules.pieces[code.index()].drop.as_ref()?;
                let plain = d.hand.is_none() && !d.must_convert && !d.gate && !d.no_mate && !d.mate_loses;
                if !plain || d.file_block.is_some() || !d.beside.is_empty() {
                    return None;
                }
                let texts = (0..cells as u16).map(|c| Move::drop(code, d.letter, d.written, c).text(&rules.geometry)).collect();
                drops[p].push(PlaceDrop { code, sets: d.sets.clone()?, letter: d.letter, written: d.written, texts });
            }
            if drops[p].len() > MAX_DROPS {
                return None;
            }
        }
        let every_kind = |k: crate::rules::KindSet| (0..rules.kinds.len()).all(|i| k.contains(crate::piece::KindId(i as u8)));
        let mut ends = Vec::new();
        for (rule, e) in rules.ends.iter().enumerate() {
            match &e.kind {
                EndKind::InARow { length, exactly, kinds, axes, win } if every_kind(*kinds) => {
                    ends.push(PlaceEnd::Row { rule, lines: Lines::of(axes, cells, *length, *exactly), win: *win });
                }
                EndKind::BoardFull { cells: whole, result } => {
                    let all =
                        whole.as_ref().map_or((0..cells as u16).collect(), |c| c.iter().copied().collect::<crate::cellset::CellSet>());
                    ends.push(PlaceEnd::Full { rule, cells: all.bits(), result: *result });
                }
                // Judged where a player has no move: the walk stops there (see `moves`).
                EndKind::NoMoves { if_attacked: None, result } if *result != crate::rules::NoMoves::Pass => {}
                _ => return None,
            }
        }
        let bits = (0..cells).map(|c| 1u128 << c).collect();
        Some(PlaceWalk {
            drops,
            ends,
            cells,
            move_limit: rules.move_limit,
            zobrist: rules.zobrist.clone(),
            limit: Arc::from(MOVE_LIMIT),
            bits,
        })
    }

    /// Whether the walk may start from `pos` (a game not over, no turn half played, read into
    /// the sets) and go `depth` plies without meeting the move limit before the last.
    pub(crate) fn applies(&self, pos: &Position, depth: u32) -> bool {
        pos.result().is_none()
            && pos.continuation().is_none()
            && pos.board().len() == self.cells
            && (self.move_limit == 0 || pos.ply() as u64 + depth as u64 <= self.move_limit as u64)
    }

    /// The walk's node for `pos` (where [`PlaceWalk::applies`]).
    pub(crate) fn node(&self, pos: &Position) -> Node {
        let p = Player::FIRST;
        Node { occ: [pos.occupied(p), pos.occupied(p.other())], side: pos.side(), ply: pos.ply(), hash: pos.hash() }
    }

    /// The cells drop `d` of the side to move may land on.
    #[inline(always)]
    fn open(&self, node: &Node, d: &PlaceDrop) -> u128 {
        // One word where the board fits 64 cells: half the work (and each word read as it was
        // written, so that the read need not wait for the writes to land).
        if self.cells <= 64 {
            u128::from(d.sets.open_in(node.occ[0] as u64 | node.occ[1] as u64))
        } else {
            d.sets.open(node.occ[0] | node.occ[1])
        }
    }

    /// The moves of the side to move: each of its drops' open cells, and how many in all.
    #[inline]
    pub(crate) fn open_moves(&self, node: &Node) -> Open {
        let mut o = Open { cells: [0; MAX_DROPS], n: 0 };
        for (k, d) in self.drops[node.side].iter().enumerate() {
            o.cells[k] = self.open(node, d);
            o.n += o.cells[k].count_ones();
        }
        o
    }

    /// The number of moves of the side to move.
    #[inline]
    pub(crate) fn count(&self, node: &Node) -> u32 {
        self.open_moves(node).n
    }

    /// The move at `index` (below [`PlaceWalk::count`]) in the kernel's order.
    #[cfg(test)]
    pub(crate) fn nth(&self, node: &Node, index: u32) -> PlaceMove {
        self.open_moves(node).nth(index)
    }

    /// The text of `m` (made by the side to move of `node`), as its kernel move writes it.
    pub(crate) fn text(&self, node: &Node, m: PlaceMove) -> &str {
        &self.drops[node.side][m.drop as usize].texts[m.cell as usize]
    }

    /// The kernel's move for `m` (made by the side to move of `node`).
    pub(crate) fn move_of(&self, node: &Node, m: PlaceMove) -> Move {
        let d = &self.drops[node.side][m.drop as usize];
        Move::drop(d.code, d.letter, d.written, m.cell)
    }

    /// Makes `m` on `node`; how the game ended, if it did (an end condition in the rules'
    /// order, then the move limit, as the kernel judges them).
    #[inline]
    pub(crate) fn play<'a>(&'a self, rules: &'a Ruleset, node: &mut Node, m: PlaceMove) -> Option<Ending<'a>> {
        let r = self.place(node, m)?;
        Some(match r {
            Ended::Rule(rule, winner) => Ending { winner: winner.map_or(Winner::Draw, Winner::Player), reason: &rules.ends[rule].reason },
            Ended::Limit => Ending { winner: Winner::Draw, reason: &self.limit },
        })
    }

    /// Makes `m` on `node`; how the game ended, if it did.
    #[inline]
    fn place(&self, node: &mut Node, m: PlaceMove) -> Option<Ended> {
        let me = node.side;
        let code = self.drops[me][m.drop as usize].code;
        let own = node.occ[me.index()] | self.bits[m.cell as usize];
        let theirs = node.occ[me.other().index()];
        node.occ[me.index()] = own;
        let z = &self.zobrist;
        node.hash ^= z.piece(m.cell, code) ^ z.side[me.index()] ^ z.side[me.other().index()];
        node.side = me.other();
        node.ply += 1;
        self.judge([own, theirs], me, m.cell).or_else(|| (self.move_limit > 0 && node.ply >= self.move_limit).then_some(Ended::Limit))
    }

    /// The first end condition `mover`'s drop on `to` met, `mover`'s cells and the other's
    /// after it.
    #[inline]
    fn judge(&self, [own, theirs]: [u128; 2], mover: Player, to: u16) -> Option<Ended> {
        for e in &self.ends {
            match e {
                PlaceEnd::Row { rule, lines, win } => {
                    if lines.through(own, to) {
                        return Some(Ended::Rule(*rule, Some(if *win { mover } else { mover.other() })));
                    }
                }
                PlaceEnd::Full { rule, cells, result } => {
                    if (own | theirs) & cells == *cells {
                        let (mine, other) = (own.count_ones(), theirs.count_ones());
                        let counts = if mover == Player::FIRST { ByPlayer::new(mine, other) } else { ByPlayer::new(other, mine) };
                        let winner = match result {
                            FullResult::Draw => None,
                            FullResult::Win => Some(mover),
                            FullResult::Loss => Some(mover.other()),
                            FullResult::MostPieces => Tally::MostPieces.winner(&counts),
                        };
                        return Some(Ended::Rule(*rule, winner));
                    }
                }
            }
        }
        None
    }

    /// The number of move sequences `depth` long from `pos` (where [`PlaceWalk::applies`]);
    /// with `made`, every last move is made too.
    ///
    /// # Errors
    /// Ctrl-C was pressed.
    pub(crate) fn perft(&self, pos: &Position, depth: u32, made: bool) -> Result<u64, crate::interrupt::Interrupted> {
        let mut lists: Vec<Vec<PlaceMove>> = (0..=depth).map(|_| Vec::with_capacity(64)).collect();
        self.perft_from(&self.node(pos), depth, made, &mut lists)
    }

    /// [`PlaceWalk::perft`] from `node` (`lists`: one a level).
    fn perft_from(&self, node: &Node, depth: u32, made: bool, lists: &mut [Vec<PlaceMove>]) -> Result<u64, crate::interrupt::Interrupted> {
        if depth == 0 {
            return Ok(1);
        }
        if depth >= 2 {
            crate::interrupt::check()?;
        }
        if depth == 1 && !made {
            return Ok(u64::from(self.count(node)));
        }
        let (list, rest) = lists.split_first_mut().expect("one list per level");
        list.clear();
        for (k, d) in self.drops[node.side].iter().enumerate() {
            list.extend(crate::cellset::CellSet::from_bits(self.open(node, d)).into_iter().map(|cell| PlaceMove { drop: k as u8, cell }));
        }
        if depth == 1 {
            // Each move made, and the position after it counted as one.
            for &m in list.iter() {
                let mut next = *node;
                std::hint::black_box(self.place(&mut next, m));
                std::hint::black_box(&next);
            }
            return Ok(list.len() as u64);
        }
        let mut n = 0;
        for &m in list.iter() {
            let mut next = *node;
            // A finished game has no moves.
            if self.place(&mut next, m).is_none() {
                n += self.perft_from(&next, depth - 1, made, rest)?;
            }
        }
        Ok(n)
    }
}

/// The reason of a game drawn by the move limit, as the kernel gives it.
const MOVE_LIMIT: &str = "move limit";

/// How a game on the walk ended: the winner, and the reason shared with the rules (a game
/// that ends costs no count of the reason's owners where its [`Outcome`](crate::outcome::Outcome) is not kept).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ending<'a> {
    pub(crate) winner: Winner,
    pub(crate) reason: &'a Arc<str>,
}

impl Ending<'_> {
    /// The game's result.
    #[cfg(test)]
    pub(crate) fn outcome(&self) -> crate::outcome::Outcome {
        crate::outcome::Outcome { winner: self.winner, reason: self.reason.clone(), margin: None }
    }
}

/// How a drop ended the game: by the end rule of that index (with its winner, `None` for a
/// draw), or by the move limit.
enum Ended {
    Rule(usize, Option<Player>),
    Limit,
}

/// The lines of an `in_a_row` as cell sets: per cell, every window of `length` cells along an
/// axis that holds it, with the cells just beyond its two ends (only where the line must be
/// exactly that long: a longer line fills one of them); grouped by axis, with each group's
/// cells, so that an axis where the mover has fewer than `length` pieces is passed over with one
/// count.
struct Lines {
    sets: LineSets,
    /// Each cell's groups, padded with empty ones to the most any cell has (so that the
    /// loop over them runs the same length whatever the cell: its end is never guessed wrong):
    /// cell `c`'s at `c * per_cell..(c + 1) * per_cell`.
    per_cell: usize,
    length: u32,
}

/// The sets in one word where the board fits 64 cells (half the work of two), else in two.
enum LineSets {
    Narrow(Sets<u64>),
    Wide(Sets<u128>),
}

/// Per cell and axis, a group: (the cells of its windows, its windows' range in `windows`).
struct Sets<W> {
    groups: Vec<(W, u32, u32)>,
    windows: Vec<(W, W)>,
}

impl<W: Word> Sets<W> {
    fn of(groups: &[(u128, u32, u32)], windows: &[(u128, u128)]) -> Sets<W> {
        Sets {
            groups: groups.iter().map(|&(near, a, b)| (W::of(near), a, b)).collect(),
            windows: windows.iter().map(|&(w, b)| (W::of(w), W::of(b))).collect(),
        }
    }

    #[inline]
    fn through(&self, own: W, groups: std::ops::Range<usize>, length: u32) -> bool {
        self.groups[groups].iter().any(|&(near, a, b)| {
            (own & near).count() >= length
                && self.windows[a as usize..b as usize].iter().any(|&(line, beyond)| own & line == line && own & beyond == W::ZERO)
        })
    }
}

impl Lines {
    /// The windows of `cells` cells along `axes` (per axis, per cell: the next cell each way,
    /// or [`NONE`]).
    fn of(axes: &[Vec<(u16, u16)>], cells: usize, length: u32, exactly: bool) -> Lines {
        let (mut windows, mut by_cell) = (Vec::new(), Vec::new());
        for c in 0..cells as u16 {
            let mut groups = Vec::new();
            for axis in axes {
                let first = windows.len() as u32;
                // Each start at most `length − 1` cells back from `c` whose window fits.
                let mut start = c;
                for _ in 0..length {
                    if start == NONE {
                        break;
                    }
                    let (mut line, mut last) = (0u128, start);
                    for k in 0..length {
                        if k > 0 {
                            last = if last == NONE { NONE } else { axis[last as usize].0 };
                        }
                        if last == NONE {
                            break;
                        }
                        line |= 1u128 << last;
                    }
                    if line.count_ones() == length {
                        let beyond = [axis[start as usize].1, axis[last as usize].0]
                            .into_iter()
                            .filter(|&b| exactly && b != NONE)
                            .fold(0u128, |m, b| m | 1u128 << b);
                        windows.push((line, beyond));
                    }
                    start = axis[start as usize].1;
                }
                let last = windows.len() as u32;
                if last > first {
                    let near = windows[first as usize..].iter().fold(0u128, |m, &(w, _)| m | w);
                    groups.push((near, first, last));
                }
            }
            by_cell.push(groups);
        }
        let per_cell = by_cell.iter().map(Vec::len).max().unwrap_or(0);
        let groups: Vec<(u128, u32, u32)> =
            by_cell.into_iter().flat_map(|g| g.into_iter().chain(std::iter::repeat((0, 0, 0))).take(per_cell)).collect();
        let sets = if cells <= 64 { LineSets::Narrow(Sets::of(&groups, &windows)) } else { LineSets::Wide(Sets::of(&groups, &windows)) };
        Lines { sets, per_cell, length }
    }

    /// The windows through cell `c` (as two-word sets).
    #[cfg(test)]
    fn of_cell(&self, c: u16) -> Vec<(u128, u128)> {
        fn all<W: Word>(s: &Sets<W>, r: std::ops::Range<usize>) -> Vec<(u128, u128)> {
            s.groups[r].iter().flat_map(|&(_, a, b)| s.windows[a as usize..b as usize].iter().map(|&(w, e)| (w.wide(), e.wide()))).collect()
        }
        let r = c as usize * self.per_cell..(c as usize + 1) * self.per_cell;
        match &self.sets {
            LineSets::Narrow(s) => all(s, r),
            LineSets::Wide(s) => all(s, r),
        }
    }

    /// Whether `own` holds one of the lines through `to`.
    #[inline]
    fn through(&self, own: u128, to: u16) -> bool {
        let r = to as usize * self.per_cell..(to as usize + 1) * self.per_cell;
        match &self.sets {
            LineSets::Narrow(s) => s.through(own as u64, r, self.length),
            LineSets::Wide(s) => s.through(own, r, self.length),
        }
    }
}

/// The index of the `k`-th set bit of `x` (counting from 0, from the lowest; below its count).
#[inline]
fn nth_bit(x: u128, k: u32) -> u16 {
    let low = x as u64;
    let n = low.count_ones();
    if k < n { select(low, k) as u16 } else { 64 + select((x >> 64) as u64, k - n) as u16 }
}

/// The position of the `k`-th set bit of `x` (below its count), without a loop: a random
/// game's draw makes the loop's length random, and the branch that ends it a guess missed
/// (Vigna's broadword select: each byte's count, their running sums by one multiply, the byte
/// found by comparing every sum with `k` at once, the bit in it from a table).
#[inline]
fn select(x: u64, k: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut c = x - ((x >> 1) & 0x5555_5555_5555_5555);
    c = (c & 0x3333_3333_3333_3333) + ((c >> 2) & 0x3333_3333_3333_3333);
    c = (c + (c >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i: the bits set in bytes 0 to i (at most 64: no byte overflows).
    let sums = c.wrapping_mul(ONES);
    // A high bit for each byte whose running sum is at most k: the bytes wholly before.
    let before = ((u64::from(k).wrapping_mul(ONES) | HIGHS) - sums) & HIGHS;
    let at = before.count_ones() * 8;
    let skipped = ((sums << 8) >> at) & 0xff;
    let rank = k - skipped as u32;
    at + u32::from(IN_BYTE[(rank as usize) << 8 | ((x >> at) & 0xff) as usize])
}

/// `IN_BYTE[k << 8 | b]`: the position of the `k`-th set bit of byte `b` (8 where it has fewer).
static IN_BYTE: [u8; 2048] = {
    let mut t = [8u8; 2048];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut k) = (0, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                t[k << 8 | b] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn nth_bit_counts_across_both_words() {
        let x: u128 = 0b1011 | 1 << 64 | 1 << 100;
        let found: Vec<u16> = (0..x.count_ones()).map(|k| nth_bit(x, k)).collect();
        assert_eq!(found, vec![0, 1, 3, 64, 100]);
        // Against taking the lowest bit out k times, on sets of fixed-seed random words (dense,
        // sparse, a byte's worth, the top bit, all ones).
        use rand::{RngExt, SeedableRng};
        let mut r = rand_pcg::Pcg64Mcg::seed_from_u64(9);
        let mut words: Vec<u128> = vec![1, 1 << 127, u128::MAX, 0xff << 56, u128::from(u64::MAX)];
        for _ in 0..2000 {
            let (a, b): (u128, u128) = (r.random(), r.random());
            words.extend([a, a & b, a & b & r.random::<u128>() & r.random::<u128>()]);
        }
        for x in words {
            let mut w = x;
            for k in 0..x.count_ones() {
                assert_eq!(nth_bit(x, k), w.trailing_zeros() as u16, "{x:#x} {k}");
                w &= w - 1;
            }
        }
    }

    /// The windows by hand: tic-tac-toe's corner is on 3 lines, an edge on 2, the centre on 4;
    /// Connect Four's d1 on 4 across, 1 up and 1 each diagonal; with `exactly`, a window's
    /// cells beyond its ends.
    #[test]
    fn lines_through_a_cell() {
        let windows = |name: &str, cell: &str| {
            let v = Variant::load(name, &[]).unwrap();
            let EndKind::InARow { length, axes, .. } = &v.rules.ends[0].kind else { panic!("{name}: a line first") };
            let c = v.rules.geometry.parse_cell(cell).unwrap().0;
            let lines = Lines::of(axes, v.rules.geometry.len(), *length, true);
            lines.of_cell(c)
        };
        let count = |name: &str, cell: &str| windows(name, cell).len();
        assert_eq!([count("tic-tac-toe", "a1"), count("tic-tac-toe", "b1"), count("tic-tac-toe", "b2")], [3, 2, 4]);
        assert_eq!(count("connect-four", "d1"), 7);
        // Connect Four's a1 to d1 has e1 beyond it (a1 is at the edge); b1 to e1 has a1 and f1.
        let w = windows("connect-four", "a1");
        let bit = |c: u16| 1u128 << c;
        assert!(w.contains(&(bit(0) | bit(1) | bit(2) | bit(3), bit(4))), "{w:?}");
        let w = windows("connect-four", "b1");
        assert!(w.contains(&(bit(1) | bit(2) | bit(3) | bit(4), bit(0) | bit(5))), "{w:?}");
    }

    /// Variants made for the test: a line of exactly three loses and a full board is never
    /// declared (so games end with no move, which the kernel judges); discs fall sideways,
    /// dropped only on a zone, and a full zone is won by the most pieces.
    pub(crate) fn made_variants(dir: &std::path::Path) -> Vec<String> {
        let cases = [
            (
                "misere",
                "files = 4\nranks = 4",
                "drop = { supply = \"unlimited\" }",
                "[[end]]\ncondition = \"in_a_row\"\nlength = 3\nexactly = true\nresult = \"loss\"\ndirections = \"orthogonal\"\nreason = \"three\"\n",
                "4\n4\n4\n4",
            ),
            (
                "sideways",
                "files = 5\nranks = 4",
                "drop = { supply = \"unlimited\", gravity = \"w\", zone = \"low\" }",
                "[zones.low]\nranks = [1, 2, 3]\n[[end]]\ncondition = \"in_a_row\"\nlength = 4\nreason = \"four\"\n[[end]]\ncondition = \"board_full\"\nzone = \"low\"\nresult = \"most_pieces\"\nreason = \"full\"\n",
                "5\n5\n5\n5",
            ),
        ];
        cases
            .iter()
            .map(|(name, board, drop, rest, rows)| {
                let d = dir.join(name);
                std::fs::create_dir_all(&d).unwrap();
                let toml = format!(
                    "name = \"{name}\"\n[board]\n{board}\n[players]\nnames = [\"white\", \"black\"]\n[pieces.mark]\nsymbol = {{ white = \"X\", black = \"O\" }}\n{drop}\n{rest}[setup]\nrows = \"\"\"\n{rows}\n\"\"\"\n"
                );
                std::fs::write(d.join("variant.toml"), toml).unwrap();
                d.to_str().unwrap().to_string()
            })
            .collect()
    }

    /// Whole random games on the walk and on the kernel, side by side: the same moves listed
    /// in the same order at every ply, the same key after every move, the same result.
    #[test]
    fn random_games_are_the_kernels() {
        use rand::RngExt;
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let mut names: Vec<String> = vec!["tic-tac-toe".into(), "connect-four".into()];
        names.extend(made_variants(&dir));
        let mut results = std::collections::BTreeSet::new();
        for name in &names {
            let v = Variant::load(name, &[]).unwrap();
            let walk = v.place_walk().unwrap_or_else(|| panic!("{name} walks the placements"));
            let mut rng = crate::ai::rng(7);
            for _ in 0..300 {
                let mut pos = v.start();
                let mut node = walk.node(&pos);
                let mut moves = Vec::new();
                loop {
                    v.legal_moves(&mut pos, &mut moves).unwrap();
                    assert_eq!(walk.count(&node) as usize, moves.len(), "{name}: the count at {}", pos.to_text(&v.rules));
                    if moves.is_empty() {
                        results.insert(format!("{name}: no move, {}", v.outcome(&mut pos).unwrap().unwrap().reason));
                        break;
                    }
                    for (i, m) in moves.iter().enumerate() {
                        assert_eq!(walk.move_of(&node, walk.nth(&node, i as u32)), *m, "{name}: move {i}");
                    }
                    let i = rng.random_range(0..moves.len());
                    let m = walk.nth(&node, i as u32);
                    let out = walk.play(&v.rules, &mut node, m);
                    v.make(&mut pos, &moves[i]).unwrap();
                    assert_eq!(node.hash(), pos.hash(), "{name}: the key");
                    assert_eq!(node, walk.node(&pos), "{name}: the node");
                    let out = out.map(|e| e.outcome());
                    assert_eq!(out.as_ref(), pos.result(), "{name}: the result");
                    if let Some(o) = out {
                        results.insert(format!("{name}: {:?} {}", o.winner, o.reason));
                        break;
                    }
                }
            }
        }
        // Every way the games can end was met: both lines and the full board in tic-tac-toe, a
        // line that loses, no move, a full zone won by the most pieces.
        let text = format!("{results:?}");
        let wins = ["tic-tac-toe: Player(Player(0)) three", "misere: Player(Player(1)) three", "sideways: Player(Player(0)) full"];
        for want in ["tic-tac-toe: Draw board full", "misere: no move", "connect-four: Player(Player(1)) four"].into_iter().chain(wins) {
            assert!(text.contains(want), "{want} in {text}");
        }
    }

    /// The walk is where the plan says: placement games, and nothing that moves, converts,
    /// counts a hand or judges another end.
    #[test]
    fn the_walk_is_taken_where_it_applies() {
        for name in ["tic-tac-toe", "connect-four"] {
            assert!(Variant::load(name, &[]).unwrap().place_walk().is_some(), "{name}");
        }
        // (Gomoku's 225 cells do not fit the sets.)
        for name in ["gomoku", "othello", "ataxx", "go", "hex", "havannah", "chess", "shogi", "checkers", "kalah"] {
            assert!(Variant::load(name, &[]).unwrap().place_walk().is_none(), "{name}");
        }
    }
}
