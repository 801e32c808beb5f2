//! The ring end condition (`ring`, issue 51 part 3: Havannah's ring): a player wins when the
//! chain of its pieces through the piece just moved or dropped encloses a cell, that is, some
//! cell outside the chain can no longer reach the board's border (a cell with a direction
//! leading off the board or onto a grid point the mask leaves out) through cells outside the
//! chain, by the same adjacency (`directions`). The enclosed cells may be empty or hold pieces
//! of either player.
//!
//! Judged where a new ring must be: it passes through the new piece, and what it newly encloses
//! lies beside it. So the check first asks whether the piece's own neighbours fall into two
//! groups or more (not adjacent to one another: on a hex board, two runs around the cell);
//! with one group the piece only thickens a chain and encloses nothing new. Then it floods the
//! chain, and from each neighbour outside it the region of cells outside the chain, stopping
//! as soon as one reaches the border. On a hex board with its six directions this finds every
//! ring the move makes (the edge of a hex region is one chain); with other adjacencies it
//! finds every region enclosed beside the new piece. A position read from text is judged for
//! every chain of the player who moved last ([`Ring::any`]).

use super::KindSet;
use super::connect::CellBits;
use crate::geometry::CellTable;
use crate::piece::{PieceCode, Player};

/// The most directions a ring's adjacency may have (the neighbour groups are bit masks).
pub(crate) const MAX_DIRECTIONS: usize = 16;

/// A declared ring condition.
#[derive(Clone, Debug)]
pub(crate) struct Ring {
    /// The kinds whose pieces make chains (default: every kind).
    pub(crate) kinds: KindSet,
    /// Per cell, its neighbours on the board.
    pub(crate) neighbours: CellTable<u16>,
    /// Per cell, per neighbour (in the order of `neighbours`): which of the cell's other
    /// neighbours are that neighbour's neighbours too, a bit per place in the list.
    pub(crate) beside: CellTable<u16>,
    /// Per cell: whether one of its directions leads off the board (the border).
    pub(crate) border: Vec<bool>,
    /// `true`: a ring wins; `false`: it loses.
    pub(crate) win: bool,
}

impl Ring {
    /// The table of a board: `dirs` its directions, `at(cell, dir)` the neighbour or `NONE`.
    pub(crate) fn new(cells: usize, dirs: &[(i8, i8)], at: impl Fn(u16, (i8, i8)) -> u16, kinds: KindSet, win: bool) -> Ring {
        let none = crate::geometry::NONE;
        let neighbours = CellTable::build(cells, |c, out| out.extend(dirs.iter().map(|&d| at(c, d)).filter(|&n| n != none)));
        let beside = CellTable::build(cells, |c, out| {
            let near = neighbours.get(c);
            for &a in near {
                let of_a = neighbours.get(a);
                out.push(near.iter().enumerate().filter(|(_, b)| of_a.contains(b)).fold(0u16, |m, (j, _)| m | 1 << j));
            }
        });
        let border = (0..cells as u16).map(|c| dirs.iter().any(|&d| at(c, d) == none)).collect();
        Ring { kinds, neighbours, beside, border, win }
    }

    /// Whether `code` is a piece of `p` that counts in a chain.
    #[inline]
    fn links(&self, code: PieceCode, p: Player) -> bool {
        code.is_of(p) && self.kinds.contains(code.kind())
    }

    /// The owner of the piece on `to`, if its chain now encloses a cell beside it.
    pub(crate) fn closed_at(&self, board: &[PieceCode], to: u16) -> Option<Player> {
        let code = *board.get(to as usize)?;
        if code.is_empty() || !self.kinds.contains(code.kind()) {
            return None;
        }
        let p = code.owner();
        let (near, beside) = (self.neighbours.get(to), self.beside.get(to));
        let own = near.iter().enumerate().filter(|(_, n)| self.links(board[**n as usize], p)).fold(0u16, |m, (i, _)| m | 1 << i);
        // The first group of own neighbours, grown through the neighbours beside one another.
        let mut group = own & own.wrapping_neg();
        loop {
            let grown = (0..near.len()).filter(|i| group & (1 << i) != 0).fold(group, |g, i| g | (beside[i] & own));
            if grown == group {
                break;
            }
            group = grown;
        }
        if group == own {
            return None; // one group (or none): nothing new is enclosed
        }
        self.encloses_beside(board, to, p).then_some(p)
    }

    /// Whether some region of cells outside the chain of `p` through `at`, beside `at`, cannot
    /// reach the border.
    fn encloses_beside(&self, board: &[PieceCode], at: u16, p: Player) -> bool {
        let mut chain = CellBits::new();
        chain.flood(at, &self.neighbours, |c| self.links(board[c as usize], p), |_| false);
        // Regions found open are kept: a neighbour in one is not flooded again.
        let mut open = CellBits::new();
        for &n in self.neighbours.get(at) {
            if chain.has(n) || open.has(n) {
                continue;
            }
            let mut region = CellBits::new();
            let reaches = region.flood(n, &self.neighbours, |c| !chain.has(c), |c| self.border[c as usize]);
            if !reaches {
                return true;
            }
            open.flood(n, &self.neighbours, |c| !chain.has(c), |_| false);
        }
        false
    }

    /// Whether a chain of `p` encloses a cell anywhere on `board`: every chain is tried,
    /// without the one-group shortcut (a position read from text may hold a ring no single move
    /// made).
    pub(crate) fn any(&self, board: &[PieceCode], p: Player) -> bool {
        let mut done = CellBits::new();
        (0..board.len() as u16).any(|c| {
            if done.has(c) || !self.links(board[c as usize], p) {
                return false;
            }
            done.flood(c, &self.neighbours, |x| self.links(board[x as usize], p), |_| false);
            self.encloses_inside(board, c, p)
        })
    }

    /// Whether the chain of `p` through `at` leaves a cell outside it that cannot reach the
    /// border: a flood from every border cell outside the chain, then a look for a cell it
    /// missed.
    fn encloses_inside(&self, board: &[PieceCode], at: u16, p: Player) -> bool {
        let mut chain = CellBits::new();
        chain.flood(at, &self.neighbours, |c| self.links(board[c as usize], p), |_| false);
        let mut outside = CellBits::new();
        for c in 0..board.len() as u16 {
            if self.border[c as usize] && !chain.has(c) && !outside.has(c) {
                outside.flood(c, &self.neighbours, |x| !chain.has(x), |_| false);
            }
        }
        (0..board.len() as u16).any(|c| !chain.has(c) && !outside.has(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Cell, Geometry, HEX_COMPASS};
    use crate::rules::connect::tests::board;

    /// A hex board of `n` × `n` and its ring table (six directions, every kind).
    fn hex(n: u8) -> (Ring, Geometry) {
        let mut g = Geometry::new(n, n, |_, _| true);
        g.hex = true;
        let dirs: Vec<(i8, i8)> = HEX_COMPASS.iter().map(|(_, d)| *d).collect();
        (Ring::new(g.len(), &dirs, |c, d| g.offset(Cell(c), d), KindSet::ALL, true), g)
    }

    /// The six cells around c3 (d3 e, c4 ne, b4 nw, b3 w, c2 sw, d2 se) make a ring whichever
    /// is placed last, with c3 empty or holding a piece of either player; five of them do not.
    #[test]
    fn six_around_a_cell_make_a_ring() {
        let (r, g) = hex(5);
        let ring = ["d3", "c4", "b4", "b3", "c2", "d2"];
        for last in ring {
            for inside in [&[][..], &["c3"][..]] {
                let b = board(&g, &ring, inside);
                assert_eq!(r.closed_at(&b, g.parse_cell(last).unwrap().0), Some(Player::FIRST), "{last}");
            }
            let five: Vec<&str> = ring.iter().copied().filter(|c| *c != last).collect();
            let b = board(&g, &five, &[]);
            assert_eq!(r.closed_at(&b, g.parse_cell(five[0]).unwrap().0), None);
            assert!(!r.any(&b, Player::FIRST));
        }
        let b = board(&g, &["c3"], &ring);
        assert!(r.any(&b, Player::SECOND));
    }

    /// A loop open to the border encloses nothing: a1's corner region (a1, b1, a2) closed by b2
    /// and the board's edge is not a ring, though the stones touch two sides around it.
    #[test]
    fn the_border_is_outside() {
        let (r, g) = hex(5);
        let b = board(&g, &["c1", "b2", "a3"], &[]);
        assert_eq!(r.closed_at(&b, g.parse_cell("b2").unwrap().0), None);
        assert!(!r.any(&b, Player::FIRST));
    }

    /// A board of more than 128 cells (13 × 13): a ring of six in the middle is found, and the
    /// same ring with one stone of the other player is not.
    #[test]
    fn large_boards_use_the_same_walk() {
        let (r, g) = hex(13);
        let ring = ["h7", "g8", "f8", "f7", "g6", "h6"];
        let b = board(&g, &ring, &[]);
        assert_eq!(r.closed_at(&b, g.parse_cell("h6").unwrap().0), Some(Player::FIRST));
        let b = board(&g, &ring[..5], &["h6"]);
        assert_eq!(r.closed_at(&b, g.parse_cell("g6").unwrap().0), None);
    }
}
