//! Castling (`[castling]`): a king that has not moved goes two or more cells along its rank
//! towards a rook that has not moved either, and the rook lands on the king's other side.
//!
//! The right to castle belongs to a rook: the position keeps, per player and side, the cell of
//! the rook it may still castle with ([`CastleRights`]). The start position's rights are those
//! of the set-up board (the outermost rook on each side of the king, on the king's rank), so
//! the files may vary as in Chess960; any move from or onto that cell, and any move of the
//! king, ends the right.

use crate::geometry::{Geometry, NONE};
use crate::piece::{KindId, PieceCode, Player};
use crate::rules::KindSet;

/// The side with the rook on the king's higher files (`O-O`).
pub(crate) const EAST: usize = 0;
/// The side with the rook on the king's lower files (`O-O-O`).
pub(crate) const WEST: usize = 1;

/// `[castling]`, validated.
#[derive(Clone, Debug)]
pub(crate) struct Castling {
    pub(crate) king: KindId,
    pub(crate) rooks: KindSet,
    /// Per side ([`EAST`], [`WEST`]): the files the king and the rook land on, where that side
    /// castles.
    pub(crate) sides: [Option<(u8, u8)>; 2],
}

/// Per player and side, the cell of the rook that player may still castle with, or [`NONE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CastleRights(pub(crate) [u16; 4]);

impl Default for CastleRights {
    fn default() -> CastleRights {
        CastleRights::NONE
    }
}

impl CastleRights {
    pub(crate) const NONE: CastleRights = CastleRights([NONE; 4]);

    #[inline]
    fn slot(p: Player, side: usize) -> usize {
        p.index() * 2 + side
    }

    /// The rook `p` may castle with on `side`, or [`NONE`].
    #[inline]
    pub(crate) fn rook(&self, p: Player, side: usize) -> u16 {
        self.0[Self::slot(p, side)]
    }

    pub(crate) fn set(&mut self, p: Player, side: usize, rook: u16) {
        self.0[Self::slot(p, side)] = rook;
    }

    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.0 != [NONE; 4]
    }

    /// The rights that remain after a move of the piece `code` from `from` that captured on
    /// the cells for which `captured` holds: a king's move ends its owner's rights, a move from or onto a rook's cell
    /// ends that rook's.
    pub(crate) fn after_move(&self, c: &Castling, from: u16, code: PieceCode, captured: impl Fn(u16) -> bool) -> CastleRights {
        let mut r = *self;
        for p in Player::both() {
            for side in [EAST, WEST] {
                let rook = r.rook(p, side);
                if rook == NONE {
                    continue;
                }
                let king_moved = !code.is_empty() && code.owner() == p && code.kind() == c.king;
                if king_moved || rook == from || captured(rook) {
                    r.set(p, side, NONE);
                }
            }
        }
        r
    }

    /// Every (player, side, rook cell) right, for hashing and text.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Player, usize, u16)> + '_ {
        Player::both().into_iter().flat_map(move |p| [EAST, WEST].into_iter().map(move |s| (p, s, self.rook(p, s)))).filter(|t| t.2 != NONE)
    }
}

impl Castling {
    /// The cell of `p`'s castling king on the rank of `rook`, if there is one.
    pub(crate) fn king_on_rank(&self, g: &Geometry, board: &[PieceCode], p: Player, rook: u16) -> Option<u16> {
        let rank = g.coords(crate::geometry::Cell(rook)).1 as i32;
        (0..g.files as i32).filter_map(|f| g.at(f, rank)).map(|c| c.0).find(|&c| board[c as usize] == PieceCode::new(self.king, p))
    }

    /// The rook `p` would castle with on `side` in `board`: the outermost piece of a rook kind
    /// of `p`'s on that side of its king, on the king's rank (`file`: only that file's).
    pub(crate) fn outermost_rook(&self, g: &Geometry, board: &[PieceCode], p: Player, side: usize, file: Option<u8>) -> u16 {
        if self.sides[side].is_none() {
            return NONE;
        }
        let Some(king) = board.iter().position(|&x| x == PieceCode::new(self.king, p)) else { return NONE };
        let (kf, rank) = g.coords(crate::geometry::Cell(king as u16));
        let files: Vec<i32> = if side == EAST { ((kf as i32 + 1)..g.files as i32).rev().collect() } else { (0..kf as i32).collect() };
        files
            .into_iter()
            .filter(|&f| file.is_none_or(|x| x as i32 == f))
            .filter_map(|f| g.at(f, rank as i32))
            .map(|c| c.0)
            .find(|&c| {
                let x = board[c as usize];
                !x.is_empty() && x.owner() == p && self.rooks.contains(x.kind())
            })
            .unwrap_or(NONE)
    }

    /// The rights of a set-up board: every side of every player whose king and rook stand
    /// ready (the outermost rook).
    pub(crate) fn start_rights(&self, g: &Geometry, board: &[PieceCode]) -> CastleRights {
        let mut r = CastleRights::NONE;
        for p in Player::both() {
            for side in [EAST, WEST] {
                r.set(p, side, self.outermost_rook(g, board, p, side, None));
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_king_move_ends_both_rights_and_a_capture_on_the_rook_ends_one() {
        let c = Castling { king: KindId(0), rooks: KindSet::EMPTY.with(KindId(1)), sides: [Some((6, 5)), Some((2, 3))] };
        let mut r = CastleRights::NONE;
        r.set(Player::FIRST, EAST, 7);
        r.set(Player::FIRST, WEST, 0);
        r.set(Player::SECOND, EAST, 63);
        let king = PieceCode::new(KindId(0), Player::FIRST);
        let after = r.after_move(&c, 4, king, |_| false);
        assert_eq!(after.0, [NONE, NONE, 63, NONE]);
        let queen = PieceCode::new(KindId(2), Player::SECOND);
        let after = r.after_move(&c, 39, queen, |x| x == 7);
        assert_eq!(after.0, [NONE, 0, 63, NONE]);
        let rook = PieceCode::new(KindId(1), Player::SECOND);
        assert_eq!(r.after_move(&c, 63, rook, |_| false).0, [7, 0, NONE, NONE]);
    }
}
