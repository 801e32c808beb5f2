//! Sets of cells: the kernel's one vocabulary for "which cells", as the bits of one `u128`.
//!
//! A [`CellSet`] holds cell indices below [`CellSet::CAPACITY`]; it iterates in ascending order
//! and has the set operations (`|` union, `&` intersection, `-` difference, and the complement
//! within a board, [`CellSet::complement_in`]). It is a `Copy` newtype over the word, every
//! method `#[inline]`, so it costs what the hand-written bit loops it replaces cost.
//!
//! # Which boards fit
//! [`CellSet::fits`] is the one place that says whether a board's cells fit in a set (at most
//! 128 cells). Every set shortcut of the kernel (the occupied sets, rays, step and reach sets,
//! set-wise generation and counting, the evaluation's fills and windows) asks it once, when its
//! tables are built at load or when a position is read, and is simply absent on a larger board;
//! such a board takes the general path (cell-by-cell scans of the board and of the movement
//! tables, as the reference mode does), through the same callers. So a board of more than 128
//! cells (19×19 Go, issue 51) is correct with nothing but that check; making it fast means a
//! wider set behind the same vocabulary, not a second kernel.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Sub, SubAssign};

/// A set of cells of a board of at most [`CellSet::CAPACITY`] cells.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub(crate) struct CellSet(u128);

impl CellSet {
    /// The most cells a set holds: a board of more cells has no sets ([`CellSet::fits`]).
    pub(crate) const CAPACITY: usize = 128;
    /// No cell.
    pub(crate) const EMPTY: CellSet = CellSet(0);
    /// Every cell a set can hold (the board and past it: intersect before iterating).
    pub(crate) const ALL: CellSet = CellSet(u128::MAX);

    /// Whether a board of `cells` cells fits in a set: the one test that turns every set
    /// shortcut on or off (see the module's documentation).
    #[inline(always)]
    pub(crate) const fn fits(cells: usize) -> bool {
        cells <= Self::CAPACITY
    }

    /// Whether a set can hold `cell` (its index is below [`CellSet::CAPACITY`]).
    #[inline(always)]
    pub(crate) const fn can_hold(cell: u16) -> bool {
        (cell as usize) < Self::CAPACITY
    }

    /// The set whose bit `c` says whether cell `c` is in it.
    #[inline(always)]
    pub(crate) const fn from_bits(bits: u128) -> CellSet {
        CellSet(bits)
    }

    /// The set as bits (bit `c` for cell `c`).
    #[inline(always)]
    pub(crate) const fn bits(self) -> u128 {
        self.0
    }

    /// The set of one cell; empty for a cell past [`CellSet::CAPACITY`] (which no set holds,
    /// so [`CellSet::contains`] stays false for it).
    #[inline(always)]
    pub(crate) const fn one(cell: u16) -> CellSet {
        CellSet(match 1u128.checked_shl(cell as u32) {
            Some(b) => b,
            None => 0,
        })
    }

    /// Every cell of a board of `cells` cells (all a set holds, [`CellSet::ALL`], past that).
    #[inline(always)]
    pub(crate) const fn board(cells: usize) -> CellSet {
        if cells >= Self::CAPACITY { Self::ALL } else { CellSet((1u128 << cells) - 1) }
    }

    /// How many cells the set holds.
    #[inline(always)]
    pub(crate) const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest cell, if any.
    #[inline(always)]
    pub(crate) const fn first(self) -> Option<u16> {
        if self.0 == 0 { None } else { Some(self.0.trailing_zeros() as u16) }
    }

    /// Takes the lowest cell out of the set and returns it, if any.
    #[inline(always)]
    pub(crate) fn pop_first(&mut self) -> Option<u16> {
        let c = self.first()?;
        self.0 &= self.0 - 1;
        Some(c)
    }

    /// Whether `cell` is in the set (never for a cell past [`CellSet::CAPACITY`]).
    #[inline(always)]
    pub(crate) const fn contains(self, cell: u16) -> bool {
        // The half is picked first: a shift of the whole 128-bit word costs more.
        let half = if cell < 64 { self.0 as u64 } else { (self.0 >> 64) as u64 };
        Self::can_hold(cell) && half >> (cell & 63) & 1 != 0
    }

    /// Adds `cell` (a cell past [`CellSet::CAPACITY`] is not held, as [`CellSet::one`]).
    #[inline(always)]
    pub(crate) fn insert(&mut self, cell: u16) {
        *self |= CellSet::one(cell);
    }

    /// Takes `cell` out, if it is in the set.
    #[cfg(test)]
    #[inline(always)]
    pub(crate) fn remove(&mut self, cell: u16) {
        *self -= CellSet::one(cell);
    }

    /// The set with `cell` added.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn with(self, cell: u16) -> CellSet {
        CellSet(self.0 | CellSet::one(cell).0)
    }

    /// The cells of `board` (a board's [`CellSet::board`], or any set) not in this one.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn complement_in(self, board: CellSet) -> CellSet {
        CellSet(board.0 & !self.0)
    }

    /// Whether the sets share a cell.
    #[inline(always)]
    pub(crate) const fn meets(self, other: CellSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The cells in ascending order.
    #[inline(always)]
    pub(crate) const fn iter(self) -> Cells {
        Cells(self.0)
    }
}

impl BitOr for CellSet {
    type Output = CellSet;
    #[inline(always)]
    fn bitor(self, o: CellSet) -> CellSet {
        CellSet(self.0 | o.0)
    }
}

impl BitAnd for CellSet {
    type Output = CellSet;
    #[inline(always)]
    fn bitand(self, o: CellSet) -> CellSet {
        CellSet(self.0 & o.0)
    }
}

/// The difference: the cells of `self` not in `o`.
impl Sub for CellSet {
    type Output = CellSet;
    #[inline(always)]
    fn sub(self, o: CellSet) -> CellSet {
        CellSet(self.0 & !o.0)
    }
}

impl BitOrAssign for CellSet {
    #[inline(always)]
    fn bitor_assign(&mut self, o: CellSet) {
        self.0 |= o.0;
    }
}

impl BitAndAssign for CellSet {
    #[inline(always)]
    fn bitand_assign(&mut self, o: CellSet) {
        self.0 &= o.0;
    }
}

impl SubAssign for CellSet {
    #[inline(always)]
    fn sub_assign(&mut self, o: CellSet) {
        self.0 &= !o.0;
    }
}

impl IntoIterator for CellSet {
    type Item = u16;
    type IntoIter = Cells;
    #[inline(always)]
    fn into_iter(self) -> Cells {
        Cells(self.0)
    }
}

/// The set of the cells given (those past [`CellSet::CAPACITY`] are not held).
impl FromIterator<u16> for CellSet {
    #[inline]
    fn from_iter<I: IntoIterator<Item = u16>>(cells: I) -> CellSet {
        cells.into_iter().fold(CellSet::EMPTY, CellSet::with)
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The cells of a [`CellSet`], lowest first.
#[derive(Clone, Debug)]
pub(crate) struct Cells(u128);

impl Iterator for Cells {
    type Item = u16;

    #[inline(always)]
    fn next(&mut self) -> Option<u16> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as u16;
        self.0 &= self.0 - 1;
        Some(c)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}
impl FusedIterator for Cells {}

/// A cell set of one machine word (boards of at most 64 cells) or two: the same code, with
/// half the work where the board allows.
pub(crate) trait Word:
    Copy + Eq + std::ops::BitAnd<Output = Self> + std::ops::BitOr<Output = Self> + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    /// The low bits of a set (the board's cells all fit).
    fn of(set: u128) -> Self;
    /// The set moved back by `offset`: the cells whose cell `offset` further on is in it. A
    /// rotation (no branch on the sign): the bits that wrap around fall on start cells whose
    /// target is off the board, which no group's `from` holds.
    fn back(self, offset: i16) -> Self;
    fn count(self) -> u32;
    /// The set as two words.
    fn wide(self) -> u128;
    /// The set of one cell.
    fn bit(cell: u16) -> Self;
    /// Whether `cell` is in the set.
    fn has(self, cell: u16) -> bool;
    /// The lowest cell of the set (which is not empty).
    fn lowest(self) -> u16;
    /// The highest cell of the set (which is not empty).
    fn highest(self) -> u16;
    /// The cells below `cell`.
    fn below(cell: u16) -> Self;
    /// The cells above `cell`.
    fn above(cell: u16) -> Self;
}

/// [`Word`] for an unsigned integer of `$bits` bits.
macro_rules! word {
    ($t:ty, $bits:expr) => {
        impl Word for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn of(set: u128) -> $t {
                set as $t
            }
            #[inline(always)]
            fn back(self, offset: i16) -> $t {
                self.rotate_right(offset as i32 as u32 & ($bits - 1))
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn bit(cell: u16) -> $t {
                1 << cell
            }
            #[inline(always)]
            fn has(self, cell: u16) -> bool {
                self >> cell & 1 != 0
            }
            #[inline(always)]
            fn lowest(self) -> u16 {
                self.trailing_zeros() as u16
            }
            #[inline(always)]
            fn highest(self) -> u16 {
                ($bits - 1 - self.leading_zeros()) as u16
            }
            #[inline(always)]
            fn below(cell: u16) -> $t {
                (1 << cell) - 1
            }
            #[inline(always)]
            fn above(cell: u16) -> $t {
                // (Past the top cell, `2 << cell` shifts its bit out: nothing is above it.)
                !((2 as $t).wrapping_shl(cell as u32).wrapping_sub(1))
            }
        }
    };
}

word!(u64, 64);
word!(u128, 128);

#[cfg(test)]
mod tests {
    use super::{CellSet, Word};
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// A model of a set: its cells sorted, each once.
    fn model(cells: &[u16]) -> Vec<u16> {
        let mut v: Vec<u16> = cells.iter().copied().filter(|&c| (c as usize) < CellSet::CAPACITY).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// A few cells drawn from `0..range` (some past the capacity when `range` is above 128).
    fn draw(rng: &mut Pcg64Mcg, range: u16) -> Vec<u16> {
        let n = rng.random_range(0..12);
        (0..n).map(|_| rng.random_range(0..range)).collect()
    }

    /// A word split at a cell: the cells below it, the cell, the cells above it, in both word
    /// sizes, at the edges (the top cell has nothing above it).
    #[test]
    fn words_split_at_a_cell() {
        for c in [0u16, 1, 31, 62, 63] {
            let (below, above) = (<u64 as Word>::below(c), <u64 as Word>::above(c));
            assert_eq!((below.count_ones(), above.count_ones()), (c as u32, 63 - c as u32), "u64, cell {c}");
            assert_eq!(below | above | 1 << c, u64::MAX, "u64, cell {c}");
        }
        for c in [0u16, 1, 63, 64, 126, 127] {
            let (below, above) = (<u128 as Word>::below(c), <u128 as Word>::above(c));
            assert_eq!((below.count_ones(), above.count_ones()), (c as u32, 127 - c as u32), "u128, cell {c}");
            assert_eq!(below | above | 1 << c, u128::MAX, "u128, cell {c}");
        }
    }

    #[test]
    fn operations_agree_with_a_sorted_list_model() {
        for seed in [1u64, 2, 3, 49] {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            for _ in 0..500 {
                let (a, b) = (draw(&mut rng, 140), draw(&mut rng, 140));
                let (sa, sb) = (a.iter().copied().collect::<CellSet>(), b.iter().copied().collect::<CellSet>());
                let (ma, mb) = (model(&a), model(&b));
                assert_eq!(sa.iter().collect::<Vec<_>>(), ma, "ascending, each once, none past 128: {a:?}");
                assert_eq!(sa.count() as usize, ma.len());
                assert_eq!(sa.iter().len(), ma.len());
                assert_eq!(sa.first(), ma.first().copied());
                assert_eq!((sa.bits() != 0).then(|| sa.bits().lowest()), ma.first().copied());
                assert_eq!((sa.bits() != 0).then(|| sa.bits().highest()), ma.last().copied());
                assert_eq!(sa.count() == 0, ma.is_empty());
                let union = model(&[a.clone(), b.clone()].concat());
                assert_eq!((sa | sb).iter().collect::<Vec<_>>(), union);
                let inter: Vec<u16> = ma.iter().copied().filter(|c| mb.contains(c)).collect();
                assert_eq!((sa & sb).iter().collect::<Vec<_>>(), inter);
                assert_eq!(sa.meets(sb), !inter.is_empty());
                let diff: Vec<u16> = ma.iter().copied().filter(|c| !mb.contains(c)).collect();
                assert_eq!((sa - sb).iter().collect::<Vec<_>>(), diff);
                let n = rng.random_range(0..=130usize);
                let outside: Vec<u16> = (0..n.min(128) as u16).filter(|c| !ma.contains(c)).collect();
                assert_eq!(sa.complement_in(CellSet::board(n)).iter().collect::<Vec<_>>(), outside, "board of {n}");
                for c in 0..140u16 {
                    assert_eq!(sa.contains(c), ma.contains(&c), "cell {c} of {a:?}");
                }
            }
        }
    }

    #[test]
    fn insert_remove_and_pop_agree_with_the_model() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let (mut set, mut list) = (CellSet::EMPTY, Vec::<u16>::new());
        for _ in 0..5000 {
            let c = rng.random_range(0..135u16);
            match rng.random_range(0..3) {
                0 => {
                    set.insert(c);
                    list.push(c);
                }
                1 => {
                    set.remove(c);
                    list.retain(|&x| x != c);
                }
                _ => {
                    let m = model(&list);
                    assert_eq!(set.pop_first(), m.first().copied());
                    if let Some(&low) = m.first() {
                        list.retain(|&x| x != low);
                    }
                }
            }
            assert_eq!(set.iter().collect::<Vec<_>>(), model(&list));
        }
    }

    #[test]
    fn boards_fit_up_to_128_cells() {
        assert!(CellSet::fits(0) && CellSet::fits(64) && CellSet::fits(128));
        assert!(!CellSet::fits(129) && !CellSet::fits(361));
        assert!(CellSet::can_hold(0) && CellSet::can_hold(127) && !CellSet::can_hold(128) && !CellSet::can_hold(u16::MAX));
        assert_eq!(CellSet::board(0), CellSet::EMPTY);
        assert_eq!(CellSet::board(3).iter().collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(CellSet::board(128), CellSet::ALL);
        assert_eq!(CellSet::board(361), CellSet::ALL);
        assert_eq!(CellSet::ALL.count(), 128);
        assert_eq!(CellSet::one(127).iter().collect::<Vec<_>>(), [127]);
        assert!(CellSet::one(128).count() == 0 && CellSet::one(u16::MAX).count() == 0);
        assert_eq!(format!("{:?}", CellSet::one(5).with(70)), "{5, 70}");
    }
}
