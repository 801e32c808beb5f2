//! The connection end condition (`connected`, issue 51 part 3): a player wins when one chain of
//! its pieces (cells joined by the board's adjacency, `directions`) touches its part of every
//! goal the condition names (Hex's two sides, Y's three), or of `at_least` of them (Havannah's
//! fork: three of six edges; its bridge: two of six corners, each cell of one zone a goal with
//! `each_cell`). Read once into [`Connection`] (a bit per goal per cell, per player, and the
//! neighbour table); judged after a move from the cell where the move's piece stands, since
//! any new chain of the mover's runs through it; and measured for the machine player as the
//! pieces a player still needs to place to connect ([`Connection::needed`]).

use super::KindSet;
use crate::geometry::CellTable;
use crate::piece::{ByPlayer, PieceCode, Player};
use std::collections::VecDeque;

/// The most goals one connection may join (zones, or with `each_cell` their cells).
pub(crate) const MAX_GOALS: usize = 16;

/// A declared connection: whose chain joins what.
#[derive(Clone, Debug)]
pub(crate) struct Connection {
    /// Per player, per cell: a bit per goal (a zone of the list, or with `each_cell` one of its
    /// cells) whose player's part holds the cell.
    pub(crate) marks: ByPlayer<Vec<u16>>,
    /// Per player, how many goals it has (its goals are the bits below that).
    pub(crate) goals: ByPlayer<u32>,
    /// Per player, how many of its goals one chain must touch (`at_least`; default: all).
    pub(crate) at_least: ByPlayer<u32>,
    /// Whether each cell of a listed zone is a goal of its own (`each_cell`).
    pub(crate) each_cell: bool,
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

    /// The owner of the piece on `to`, if that piece's chain touches enough of its owner's
    /// goals. On a board of at most 128 cells the chain is a cell set and a stack on the call
    /// stack; a larger board floods [`CellBits`] (no allocation per move either way).
    pub(crate) fn joined_at(&self, board: &[PieceCode], to: u16) -> Option<Player> {
        let code = *board.get(to as usize)?;
        if code.is_empty() || !self.kinds.contains(code.kind()) {
            return None;
        }
        let p = code.owner();
        let (marks, need) = (&self.marks[p], self.at_least[p]);
        let mut got = 0u16;
        if !crate::cellset::CellSet::fits(board.len()) {
            let mut seen = CellBits::new();
            let joined = seen.flood(to, &self.neighbours, |c| self.links(board[c as usize], p), |c| {
                got |= marks[c as usize];
                got.count_ones() >= need
            });
            return joined.then_some(p);
        }
        let (mut seen, mut stack, mut top) = (1u128 << to, [0u16; 128], 1);
        stack[0] = to;
        while top > 0 {
            top -= 1;
            let c = stack[top];
            got |= marks[c as usize];
            if got.count_ones() >= need {
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

    /// How many more pieces `p` must place, at the least, for one chain to touch enough of its
    /// goals: a path through `p`'s pieces (free) and empty cells (one each), never through
    /// the other player's pieces; for three goals or more, the cheapest cell to meet at,
    /// summing the paths from the `at_least` nearest goals to it. `None`: no chain can join
    /// them any more. `s` is scratch (kept by the caller, so that an evaluation allocates
    /// nothing once it has grown).
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
        let (goals, k) = (self.goals[p] as usize, self.at_least[p] as usize);
        s.dist.clear();
        s.dist.resize(goals * n, u32::MAX);
        for z in 0..goals {
            let (dist, queue) = (&mut s.dist[z * n..(z + 1) * n], &mut s.queue);
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
        }
        let mut best = None;
        let mut near = [u32::MAX; MAX_GOALS];
        for c in 0..n {
            let Some(own) = cost(c) else { continue };
            for (z, d) in near.iter_mut().enumerate().take(goals) {
                *d = s.dist[z * n + c];
            }
            near[..goals].sort_unstable();
            if near[k - 1] == u32::MAX {
                continue;
            }
            // The meeting cell is counted in each of the k paths: once is enough.
            let sum = near[..k].iter().sum::<u32>() - (k as u32 - 1) * own;
            best = Some(best.map_or(sum, |b: u32| b.min(sum)));
        }
        best
    }
}

/// What [`Connection::needed`] works in: each goal's distances to every cell, the queue.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    dist: Vec<u32>,
    queue: VecDeque<u16>,
}

/// The most cells a board has (26 files × 99 ranks, `validate/board.rs`).
const MAX_CELLS: usize = 26 * 99;

/// A set of cells of any board, on the call stack: what a flood fill on a board too large for
/// a [`crate::cellset::CellSet`] marks, without allocating.
pub(crate) struct CellBits([u64; MAX_CELLS.div_ceil(64)]);

impl CellBits {
    pub(crate) fn new() -> CellBits {
        CellBits([0; MAX_CELLS.div_ceil(64)])
    }

    #[inline]
    pub(crate) fn has(&self, c: u16) -> bool {
        self.0[c as usize / 64] & (1 << (c % 64)) != 0
    }

    #[inline]
    pub(crate) fn add(&mut self, c: u16) {
        self.0[c as usize / 64] |= 1 << (c % 64);
    }

    /// Floods from `seed` (added to the set) through the cells not yet in the set for which
    /// `through` holds, adding each; `visit` sees every cell reached (the seed first) and stops
    /// the fill by returning `true`, which is then returned. The cells still to visit are a
    /// second set, taken lowest first: no stack, so no allocation on any board.
    pub(crate) fn flood(
        &mut self,
        seed: u16,
        neighbours: &CellTable<u16>,
        through: impl Fn(u16) -> bool,
        mut visit: impl FnMut(u16) -> bool,
    ) -> bool {
        let mut todo = CellBits::new();
        let mut low = seed as usize / 64;
        self.add(seed);
        todo.add(seed);
        while let Some(w) = (low..todo.0.len()).find(|&w| todo.0[w] != 0) {
            low = w;
            let c = (w * 64 + todo.0[w].trailing_zeros() as usize) as u16;
            todo.0[w] &= todo.0[w] - 1;
            if visit(c) {
                return true;
            }
            for &x in neighbours.get(c) {
                if !self.has(x) && through(x) {
                    self.add(x);
                    todo.add(x);
                    low = low.min(x as usize / 64);
                }
            }
        }
        false
    }
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
        let mark = |f: &dyn Fn(u8, u8) -> u16| g.cells().map(|c| f(g.coords(c).0, g.coords(c).1)).collect::<Vec<u16>>();
        let white = mark(&|f, _| (f == 0) as u16 | ((f == 2) as u16) << 1);
        let black = mark(&|_, r| (r == 0) as u16 | ((r == 2) as u16) << 1);
        let two = ByPlayer::new(2, 2);
        (Connection { marks: ByPlayer::new(white, black), goals: two, at_least: two, each_cell: false, kinds: KindSet::ALL, neighbours, win: true }, g)
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
