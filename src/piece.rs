//! Players, piece kinds and the packed piece codes the board stores.
//!
//! A board cell holds a `u8` code: 0 is empty, otherwise `1 + kind * 2 + player`. The codes
//! let move generation index per-piece tables directly, with no lookups.

use std::ops::{Index, IndexMut};

/// One of the two players; `Player(0)` moves first in every shipped game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(pub u8);

impl Player {
    pub const FIRST: Player = Player(0);
    pub const SECOND: Player = Player(1);

    /// The other player.
    #[inline]
    pub fn other(self) -> Player {
        Player(self.0 ^ 1)
    }

    /// Both players, first one first.
    pub fn both() -> [Player; 2] {
        [Player(0), Player(1)]
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece kind, an index into the ruleset's kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KindId(pub u8);

/// Per-player data, indexed by [`Player`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T>(pub [T; 2]);

impl<T> ByPlayer<T> {
    pub fn new(first: T, second: T) -> Self {
        ByPlayer([first, second])
    }
    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> ByPlayer<U> {
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

/// The board code of a piece of `kind` owned by `player`.
#[inline]
pub fn code(kind: KindId, player: Player) -> u8 {
    1 + kind.0 * 2 + player.0
}

/// The owner of a non-empty code.
#[inline]
pub fn owner(code: u8) -> Player {
    Player((code - 1) & 1)
}

/// The kind of a non-empty code.
#[inline]
pub fn kind(code: u8) -> KindId {
    KindId((code - 1) >> 1)
}

/// The number of distinct codes (including 0 = empty) for `kinds` kinds.
pub fn code_count(kinds: usize) -> usize {
    1 + kinds * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for k in 0..100u8 {
            for p in Player::both() {
                let c = code(KindId(k), p);
                assert_ne!(c, 0);
                assert_eq!(owner(c), p);
                assert_eq!(kind(c), KindId(k));
            }
        }
    }
}
