//! The connection end condition (`connected`, issue 51 part 3): a player wins when one chain of
//! its pieces (cells joined by the board's adjacency, `directions`) touches its part of every
//! zone the condition names: Hex's two sides, Y's three. Read once into [`Connection`] (a bit
//! per zone per cell, per player, and the neighbour table); judged after a move from the cell
//! where the move's piece stands, since any new chain of the mover's runs through it; and
//! measured for the machine player as the pieces a player still needs to place to connect
//! ([`Connection::needed`]).

use super::KindSet;
use crate::geometry::CellTable;
use crate::piece::{ByPlayer, PieceCode, Player};
use std::collections::VecDeque;

/// The most zones one connection may join.
pub(crate) const MAX_ZONES: usize = 8;

/// A declared connection: whose chain joins what.
#[derive(Clone, Debug)]
pub(crate) struct Connection {
    /// Per player, per cell: a bit per zone of the list whose player's part holds the cell.
    pub(crate) marks: ByPlayer<Vec<u8>>,
    /// Every zone's bit: a chain whose cells' marks OR to this joins them all.
    pub(crate) all: u8,
    /// The kinds whose pieces make chains (default: every kind).
    pub(crate) kinds: KindSet,
    /// Per cell, its neighbours (the chain's adjacency).
    pub(crate) neighbours: CellTable<u16>,
    /// `true`: joining wins; `false`: it loses (a misère connection).
    pub(crate) win: bool,
}

impl Connection {
    /// Whether `code` is a piece of `p` that counts in a chain.
    #[inline]
    fn links(&self, code: PieceCode, p: Player) -> bool {
        code.is_of(p) && self.kinds.contains(code.kind())
    }

    /// The owner of the piece on `to`, if that piece's chain joins every zone of its owner. On
    /// a board of at most 128 cells the chain is a cell set and a stack on the call stack (no
    /// allocation per move); a larger board floods a flag per cell.
    pub(crate) fn joined_at(&self, board: &[PieceCode], to: u16) -> Option<Player> {
        let code = *board.get(to as usize)?;
        if code.is_empty() || !self.kinds.contains(code.kind()) {
            return None;
        }
        let p = code.owner();
        let marks = &self.marks[p];
        if !crate::cellset::CellSet::fits(board.len()) {
            let mut seen = vec![false; board.len()];
            crate::geometry::flood(&[to], |c| self.links(board[c as usize], p), &self.neighbours, &mut seen);
            let got = seen.iter().zip(marks).filter(|(s, _)| **s).fold(0u8, |got, (_, &m)| got | m);
            return (got == self.all).then_some(p);
        }
        let (mut seen, mut stack, mut top) = (1u128 << to, [0u16; 128], 1);
        stack[0] = to;
        let mut got = 0u8;
        while top > 0 {
            top -= 1;
            let c = stack[top];
            got |= marks[c as usize];
            if got == self.all {
                return Some(p);
            }
            for &n in self.neighbours.get(c) {
                if seen & (1u128 << n) == 0 && self.links(board[n as usize], p) {
                    seen |= 1u128 << n;
                    stack[top] = n;
                    top += 1;
                }
            }
        }
        None
    }

    /// How many more pieces `p` must place, at the least, for one chain to join all its zones:
    /// a path through `p`'s pieces (free) and empty cells (one each), never through the other
    /// player's pieces; for three zones or more, the cheapest cell to meet at, summing the
    /// paths from each zone to it. `None`: no chain can join them any more. `s` is scratch
    /// (kept by the caller, so that an evaluation allocates nothing once it has grown).
    pub(crate) fn needed(&self, board: &[PieceCode], p: Player, s: &mut Scratch) -> Option<u32> {
        let n = board.len();
        let cost = |c: usize| -> Option<u32> {
            let code = board[c];
            if self.links(code, p) {
                Some(0)
            } else if code.is_empty() {
                Some(1)
            } else {
                None
            }
        };
        let zones = self.all.count_ones() as usize;
        s.sum.clear();
        s.sum.resize(n, 0);
        for z in 0..zones {
            s.dist.clear();
            s.dist.resize(n, u32::MAX);
            let (dist, queue) = (&mut s.dist, &mut s.queue);
            for (c, d) in dist.iter_mut().enumerate() {
                if self.marks[p][c] & (1 << z) != 0
                    && let Some(k) = cost(c)
                {
                    *d = k;
                    if k == 0 { queue.push_front(c as u16) } else { queue.push_back(c as u16) }
                }
            }
            // 0-1 breadth-first: a cell's distance counts its own cost.
            while let Some(c) = queue.pop_front() {
                let d = dist[c as usize];
                for &x in self.neighbours.get(c) {
                    let Some(k) = cost(x as usize) else { continue };
                    if d + k < dist[x as usize] {
                        dist[x as usize] = d + k;
                        if k == 0 { queue.push_front(x) } else { queue.push_back(x) }
                    }
                }
            }
            for (sum, &d) in s.sum.iter_mut().zip(dist.iter()) {
                *sum = if d == u32::MAX || *sum == u32::MAX { u32::MAX } else { *sum + d };
            }
        }
        (0..n).filter(|&c| s.sum[c] != u32::MAX).map(|c| s.sum[c] - (zones as u32 - 1) * cost(c).unwrap_or(0)).min()
    }
}

/// What [`Connection::needed`] works in: each cell's summed and current distance, the queue.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    sum: Vec<u32>,
    dist: Vec<u32>,
    queue: VecDeque<u16>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::piece::KindId;

    /// A 3 × 3 hex board: white joins files a and c, black ranks 1 and 3.
    fn hex3() -> (Connection, Geometry) {
        let mut g = Geometry::new(3, 3, |_, _| true);
        g.hex = true;
        let dirs: Vec<(i8, i8)> = crate::geometry::HEX_COMPASS.iter().map(|(_, d)| *d).collect();
        let neighbours = g.neighbour_table(&dirs);
        let mark = |f: &dyn Fn(u8, u8) -> u8| g.cells().map(|c| f(g.coords(c).0, g.coords(c).1)).collect::<Vec<u8>>();
        let white = mark(&|f, _| (f == 0) as u8 | ((f == 2) as u8) << 1);
        let black = mark(&|_, r| (r == 0) as u8 | ((r == 2) as u8) << 1);
        (Connection { marks: ByPlayer::new(white, black), all: 3, kinds: KindSet::ALL, neighbours, win: true }, g)
    }

    fn board(g: &Geometry, white: &[&str], black: &[&str]) -> Vec<PieceCode> {
        let mut b = vec![PieceCode::EMPTY; g.len()];
        for (cells, p) in [(white, Player::FIRST), (black, Player::SECOND)] {
            for c in cells {
                b[g.parse_cell(c).unwrap().0 as usize] = PieceCode::new(KindId(0), p);
            }
        }
        b
    }

    /// a1-b1-c1 joins files a and c; a2 then b1 (a hex neighbour: b1 is a2's `se`) too; a1 and
    /// c1 alone do not; and nothing is joined through the other player's piece.
    #[test]
    fn chains_join_zones_by_hex_adjacency() {
        let (c, g) = hex3();
        let at = |b: &[PieceCode], x: &str| c.joined_at(b, g.parse_cell(x).unwrap().0);
        assert_eq!(at(&board(&g, &["a1", "b1", "c1"], &[]), "b1"), Some(Player::FIRST));
        assert_eq!(at(&board(&g, &["a2", "b1", "c1"], &[]), "c1"), Some(Player::FIRST));
        assert_eq!(at(&board(&g, &["a1", "c1"], &[]), "c1"), None);
        // a1 and b2 are not neighbours on a hex board (b2 is a1's diagonal).
        assert_eq!(at(&board(&g, &["a1", "b2", "c2"], &[]), "b2"), None);
        assert_eq!(at(&board(&g, &[], &["b1", "b2", "a3"]), "b2"), Some(Player::SECOND));
    }

    /// The pieces still needed: 3 on the empty board, 1 with a1 and c1 placed, 0 once joined,
    /// none possible when the other player holds a whole line across.
    #[test]
    fn needed_counts_the_empty_cells_of_the_shortest_chain() {
        let (c, g) = hex3();
        assert_eq!(c.needed(&board(&g, &[], &[]), Player::FIRST, &mut Scratch::default()), Some(3));
        assert_eq!(c.needed(&board(&g, &["a1", "c1"], &[]), Player::FIRST, &mut Scratch::default()), Some(1));
        assert_eq!(c.needed(&board(&g, &["a1", "b1", "c1"], &[]), Player::FIRST, &mut Scratch::default()), Some(0));
        assert_eq!(c.needed(&board(&g, &[], &["a1", "a2", "a3"]), Player::FIRST, &mut Scratch::default()), None);
        // Black's a1-a2-a3 joins ranks 1 and 3.
        assert_eq!(c.needed(&board(&g, &[], &["a1", "a2", "a3"]), Player::SECOND, &mut Scratch::default()), Some(0));
    }
}
