//! Custodian capture (`custodian = { … }` and `surround = { … }` on a kind): an enemy piece
//! enclosed between the piece that moved and an anvil (one of the mover's pieces, or a cell
//! hostile to the victim's owner), a piece that is taken only when closed in on every side,
//! and the row form along the board's edge (the shieldwall). Compiled at load by
//! `rules::validate::custodian`; [`Custodian::victims`] finds a move's victims on a board, and
//! make (`state`) takes them, so perft, search, self-play and the REPL all see the same capture.
//!
//! Only the moved piece captures (an active capture): a piece that moves in between two enemy
//! pieces is not taken, since nothing is asked about it.
//!
//! ```text
//!   . x .          x = enemy, O = own piece (an anvil), M = the piece that moved
//!   M x O   ->     the x between M and O is taken; the one above M is not (nothing beyond it)
//! ```

use super::{CodeSet, PieceRules};
use crate::geometry::{Geometry, NONE, ZoneSet};
use crate::piece::PieceCode;

/// When a hostile zone's cells close a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HostileWhen {
    /// Always (`if = "any"`, the default).
    Always,
    /// Only while the cell is empty (Copenhagen's throne, for the defenders).
    Empty,
    /// Only while a piece stands on it.
    Occupied,
}

/// Cells hostile to the victims' owner: they close a capture as an own piece would.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hostile {
    /// The zone, resolved for the victims' owner.
    pub(crate) zone: ZoneSet,
    pub(crate) when: HostileWhen,
}

/// How one piece code captures by enclosing, after it lands.
#[derive(Clone, Debug)]
pub(crate) struct Custodian {
    /// Per direction, per cell: the neighbour that way (or [`NONE`]).
    pub(crate) next: Vec<Vec<u16>>,
    /// The enemy codes it may capture.
    pub(crate) victims: CodeSet,
    /// The mover's own codes that close a capture (and close a side of a surrounded piece).
    pub(crate) anvils: CodeSet,
    pub(crate) hostile: Vec<Hostile>,
    pub(crate) shieldwall: Option<Shieldwall>,
}

/// The row capture along the edge: a row of enemy pieces on edge cells, each fronted on its
/// inner side by one of the mover's anvils, bracketed by the moved piece at one end and an anvil
/// (piece or hostile cell) at the other.
#[derive(Clone, Debug)]
pub(crate) struct Shieldwall {
    /// The fewest pieces in the row (spared ones included).
    pub(crate) min: u16,
    /// The codes that may stand in the row but are not taken by it.
    pub(crate) spare: CodeSet,
    /// Per direction of [`Custodian::next`]: its two perpendiculars' neighbour tables (either may
    /// be the row's outer side, the edge).
    pub(crate) sides: Vec<[Vec<u16>; 2]>,
}

/// A piece that is taken only when closed in on every side (`surround` on the victim's kind).
#[derive(Clone, Debug)]
pub(crate) struct Surround {
    /// Per side, per cell: the neighbour that way (or [`NONE`]).
    pub(crate) sides: Vec<Vec<u16>>,
    /// Only while the piece stands in this zone; elsewhere it is taken as other pieces are.
    pub(crate) zone: Option<ZoneSet>,
    /// A side off the board is closed (`edge = "closed"`); otherwise the piece is immune there.
    pub(crate) edge_closed: bool,
}

#[inline(always)]
fn holds(set: CodeSet, code: PieceCode) -> bool {
    set >> code.index() & 1 != 0
}

impl Custodian {
    /// The cells whose pieces the piece that landed on `at` captures, pushed onto `out` (a cell
    /// may appear twice, from a line and from a row).
    pub(crate) fn victims(&self, g: &Geometry, pieces: &[PieceRules], board: &[PieceCode], at: u16, out: &mut Vec<u16>) {
        for next in &self.next {
            let n = next[at as usize];
            if n == NONE || !holds(self.victims, board[n as usize]) {
                continue;
            }
            let taken = match &pieces[board[n as usize].index()].surround {
                Some(s) if s.zone.is_none_or(|z| g.zones_of(n).meets(z)) => self.surrounded(g, s, board, n, at),
                _ => {
                    let beyond = next[n as usize];
                    beyond != NONE && self.closes(g, board, beyond, at)
                }
            };
            if taken {
                out.push(n);
            }
        }
        if let Some(w) = &self.shieldwall {
            self.rows(g, w, board, at, out);
        }
    }

    /// Whether `c` closes a capture for the mover standing on `at`: the mover itself, one of its
    /// anvils, or a hostile cell.
    #[inline]
    fn closes(&self, g: &Geometry, board: &[PieceCode], c: u16, at: u16) -> bool {
        c == at || holds(self.anvils, board[c as usize]) || self.hostile_cell(g, board, c)
    }

    /// Whether `c` is hostile to the victims' owner now.
    fn hostile_cell(&self, g: &Geometry, board: &[PieceCode], c: u16) -> bool {
        if self.hostile.is_empty() {
            return false;
        }
        let zones = g.zones_of(c);
        let empty = board[c as usize].is_empty();
        self.hostile.iter().any(|h| {
            zones.meets(h.zone)
                && match h.when {
                    HostileWhen::Always => true,
                    HostileWhen::Empty => empty,
                    HostileWhen::Occupied => !empty,
                }
        })
    }

    /// Whether the piece on `n` is closed in on every side of `s`.
    fn surrounded(&self, g: &Geometry, s: &Surround, board: &[PieceCode], n: u16, at: u16) -> bool {
        s.sides.iter().all(|side| {
            let c = side[n as usize];
            if c == NONE { s.edge_closed } else { self.closes(g, board, c, at) }
        })
    }

    /// The shieldwall rows the move to `at` brackets: along each direction, for each of its
    /// perpendiculars that is off the board at `at` (the edge the row stands on).
    fn rows(&self, g: &Geometry, w: &Shieldwall, board: &[PieceCode], at: u16, out: &mut Vec<u16>) {
        let foe = board[at as usize].owner().other();
        for (d, next) in self.next.iter().enumerate() {
            for side in 0..2 {
                let (outer, inner) = (&w.sides[d][side], &w.sides[d][1 - side]);
                if outer[at as usize] != NONE {
                    continue;
                }
                let start = out.len();
                let mut len = 0u16;
                let mut c = next[at as usize];
                while c != NONE && board[c as usize].is_of(foe) && outer[c as usize] == NONE {
                    let front = inner[c as usize];
                    if front == NONE || !holds(self.anvils, board[front as usize]) {
                        break;
                    }
                    let code = board[c as usize];
                    if holds(self.victims, code) && !holds(w.spare, code) {
                        out.push(c);
                    }
                    len += 1;
                    c = next[c as usize];
                }
                let closed = c != NONE && !board[c as usize].is_of(foe) && self.closes(g, board, c, at);
                if len < w.min || !closed {
                    out.truncate(start);
                }
            }
        }
    }
}
