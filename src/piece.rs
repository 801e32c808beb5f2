//! Players, piece kinds and the packed piece codes the board stores.
//!
//! A board cell holds a [`PieceCode`]: empty, or `1 + kind * 2 + player`. The codes let move
//! generation index per-piece tables directly, with no lookups.

use std::ops::{Index, IndexMut};

/// One of the two players; `Player(0)` moves first in every shipped game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(pub(crate) u8);

impl Player {
    pub const FIRST: Player = Player(0);
    pub const SECOND: Player = Player(1);

    /// The other player.
    #[inline]
    pub(crate) fn other(self) -> Player {
        Player(self.0 ^ 1)
    }

    /// Both players, first one first.
    pub(crate) fn both() -> [Player; 2] {
        [Player(0), Player(1)]
    }

    #[inline]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece kind, an index into the ruleset's kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct KindId(pub(crate) u8);

/// Per-player data, indexed by [`Player`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T>(pub(crate) [T; 2]);

impl<T> ByPlayer<T> {
    pub(crate) fn new(first: T, second: T) -> Self {
        ByPlayer([first, second])
    }
    pub(crate) fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> ByPlayer<U> {
        ByPlayer([f(&self.0[0]), f(&self.0[1])])
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, p: Player) -> &T {
        &self.0[p.index()]
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, p: Player) -> &mut T {
        &mut self.0[p.index()]
    }
}

/// What a board cell holds: empty, or a piece of one kind owned by one player, packed as
/// `1 + kind * 2 + player` so that per-piece tables are indexed by it directly.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct PieceCode(u8);

impl PieceCode {
    /// An empty cell.
    pub(crate) const EMPTY: PieceCode = PieceCode(0);

    /// The code of a piece of `kind` owned by `player`.
    #[inline(always)]
    pub(crate) const fn new(kind: KindId, player: Player) -> PieceCode {
        PieceCode(1 + kind.0 * 2 + player.0)
    }

    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The owner of a piece (not of an empty cell).
    #[inline(always)]
    pub(crate) fn owner(self) -> Player {
        debug_assert!(!self.is_empty());
        Player((self.0 - 1) & 1)
    }

    /// The kind of a piece (not of an empty cell).
    #[inline(always)]
    pub(crate) fn kind(self) -> KindId {
        debug_assert!(!self.is_empty());
        KindId((self.0 - 1) >> 1)
    }

    /// The index of per-code tables (0 = empty).
    #[inline(always)]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    /// The code whose [`index`](Self::index) is `i` (for walking per-code tables).
    #[inline]
    pub(crate) fn from_index(i: usize) -> PieceCode {
        PieceCode(i as u8)
    }

    /// Whether the cell holds a piece of `p`'s.
    #[inline(always)]
    pub(crate) fn is_of(self, p: Player) -> bool {
        !self.is_empty() && self.owner() == p
    }

    /// How many codes (the empty one included) `kinds` kinds have.
    pub(crate) fn count(kinds: usize) -> usize {
        1 + kinds * 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for k in 0..100u8 {
            for p in Player::both() {
                let c = PieceCode::new(KindId(k), p);
                assert!(!c.is_empty() && c.is_of(p) && !c.is_of(p.other()));
                assert_eq!(c.owner(), p);
                assert_eq!(c.kind(), KindId(k));
            }
        }
    }
}
