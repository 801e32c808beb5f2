//! A game's identity: the digest of the positions it went through ([`Line`], written in a record
//! as sixteen hex digits), and the set of digests a study has seen ([`Digests`]), which counts
//! its distinct games.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One step of a game's line: the digest so far and the next position's hash.
pub(crate) fn line_step(line: u64, position: u64) -> u64 {
    super::game_seed(line, position)
}

/// A game's [`GameRecord::line`](super::GameRecord::line): its digest as the study computed it,
/// other text a file gave (a record written by hand), or nothing (files written before it was
/// kept). Kept as the number, so a study's tally reads it without parsing text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Line {
    #[default]
    None,
    Digest(u64),
    Text(String),
}

impl Line {
    pub(crate) fn is_none(&self) -> bool {
        *self == Line::None
    }

    /// The line as a record writes it (empty for none).
    pub(crate) fn text(&self) -> String {
        match self {
            Line::None => String::new(),
            Line::Digest(x) => {
                let mut s = String::with_capacity(16);
                hex16(*x, &mut s);
                s
            }
            Line::Text(s) => s.clone(),
        }
    }

    /// The line a record's text gives: sixteen lower-case hex digits are a digest (written back
    /// the same), anything else is kept as text.
    pub(crate) fn of_text(s: &str) -> Line {
        let hex = |b: u8| match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            _ => None,
        };
        if s.is_empty() {
            Line::None
        } else if s.len() == 16
            && let Some(x) = s.bytes().try_fold(0u64, |x, b| Some(x << 4 | u64::from(hex(b)?)))
        {
            Line::Digest(x)
        } else {
            Line::Text(s.to_string())
        }
    }
}

impl From<&str> for Line {
    fn from(s: &str) -> Line {
        Line::of_text(s)
    }
}

impl Serialize for Line {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

impl<'de> Deserialize<'de> for Line {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Line, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok(Line::of_text(&s))
    }
}

/// Writes `x` over `s` as sixteen lower-case hex digits (`format!("{x:016x}")` without the
/// formatting machinery).
pub(crate) fn hex16(x: u64, s: &mut String) {
    s.clear();
    s.extend((0..16).rev().map(|k| char::from(b"0123456789abcdef"[(x >> (4 * k)) as usize & 15])));
}

/// A set of 64-bit digests (already well mixed: a digest is its own hash), each kept in its
/// slot of one table probed in line, so that a digest not seen costs one cache miss (a general
/// hash set keeps its control bytes apart from its keys: two). A study of a small game inserts
/// a digest a game, most of them repeats, over a set of hundreds of thousands.
#[derive(Clone, Debug, Default)]
pub(crate) struct Digests {
    /// Slots (zero: empty); a power of two long, or empty before the first insert.
    slots: Vec<u64>,
    /// Digests in `slots`, and whether the digest zero (which cannot be a slot's) was seen.
    len: usize,
    zero: bool,
}

impl Digests {
    /// An empty set with room for `n` digests before it grows.
    pub(crate) fn with_room(n: usize) -> Digests {
        let mut d = Digests::default();
        if n > 0 {
            d.slots = vec![0; Self::slots_for(n)];
        }
        d
    }

    /// The slots `n` digests fill at most 3/4 of.
    fn slots_for(n: usize) -> usize {
        (n.saturating_mul(4) / 3 + 1).next_power_of_two().max(16)
    }

    /// Adds `x`; whether it was not there.
    #[inline]
    pub(crate) fn insert(&mut self, x: u64) -> bool {
        if x == 0 {
            return !std::mem::replace(&mut self.zero, true);
        }
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let fresh = Self::put(&mut self.slots, x);
        self.len += usize::from(fresh);
        fresh
    }

    /// Asks for `x`'s first slot to be brought into the cache, ahead of its insert: a study
    /// asks for a run of games' slots at once, so that their misses overlap.
    #[inline]
    pub(crate) fn expect(&self, x: u64) {
        if let Some(mask) = self.slots.len().checked_sub(1) {
            crate::cache::prefetch(&self.slots[Self::slot(x, mask)]);
        }
    }

    /// Whether `x` is there.
    fn contains(&self, x: u64) -> bool {
        if x == 0 {
            return self.zero;
        }
        let Some(mask) = self.slots.len().checked_sub(1) else { return false };
        let mut i = Self::slot(x, mask);
        loop {
            match self.slots[i] {
                0 => return false,
                y if y == x => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The first slot `x` may take: a multiply's high bits (a digest read from a hand-written
    /// record may be a small number).
    #[inline]
    fn slot(x: u64, mask: usize) -> usize {
        (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
    }

    /// Puts `x` (not zero) in its slot of `slots`; whether it was not there.
    #[inline]
    fn put(slots: &mut [u64], x: u64) -> bool {
        let mask = slots.len() - 1;
        let mut i = Self::slot(x, mask);
        loop {
            match slots[i] {
                0 => {
                    slots[i] = x;
                    return true;
                }
                y if y == x => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let mut slots = vec![0; Self::slots_for(self.len * 2 + 1)];
        for &x in self.slots.iter().filter(|&&x| x != 0) {
            Self::put(&mut slots, x);
        }
        self.slots = slots;
    }

    /// The digests kept.
    pub(crate) fn len(&self) -> usize {
        self.len + usize::from(self.zero)
    }
}

/// The same digests, whatever order they came in (which places them in the slots).
impl PartialEq for Digests {
    fn eq(&self, other: &Digests) -> bool {
        self.len() == other.len() && self.zero == other.zero && self.slots.iter().all(|&x| x == 0 || other.contains(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_the_librarys() {
        let mut s = String::from("left over");
        for x in [0, 1, 0xabc, u64::MAX, 0x0123_4567_89ab_cdef, super::super::game_seed(5, 9)] {
            hex16(x, &mut s);
            assert_eq!(s, format!("{x:016x}"));
            assert_eq!(Line::of_text(&s), Line::Digest(x));
            assert_eq!(Line::Digest(x).text(), s);
        }
        // Not sixteen lower-case hex digits: kept as written.
        for t in ["a", "0123456789ABCDEF", "0123456789abcdef0", "moves e4"] {
            assert_eq!(Line::of_text(t), Line::Text(t.into()));
            assert_eq!(Line::of_text(t).text(), t);
        }
        assert_eq!(Line::of_text(""), Line::None);
        let json = serde_json::to_string(&Line::Digest(0xabc)).unwrap();
        assert_eq!(json, "\"0000000000000abc\"");
        assert_eq!(serde_json::from_str::<Line>(&json).unwrap(), Line::Digest(0xabc));
    }

    /// The set against the library's on a fixed-seed stream with many repeats, zero among
    /// them, digests that share their slot bits, and growth from empty and from a given room.
    #[test]
    fn digests_are_a_set() {
        use rand::{RngExt, SeedableRng};
        let mut r = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        for room in [0, 5, 1000] {
            let (mut mine, mut theirs) = (Digests::with_room(room), std::collections::HashSet::new());
            for _ in 0..20_000 {
                let x = match r.random_range(0..4) {
                    0 => 0,
                    1 => r.random_range(0..50u64) << 32,
                    2 => r.random_range(0..3000u64),
                    _ => r.random::<u64>(),
                };
                assert_eq!(mine.insert(x), theirs.insert(x), "{x:x}");
                assert_eq!(mine.len(), theirs.len());
            }
            // Equal as sets, whatever the order (and so the slots).
            let mut back = Digests::default();
            let mut all: Vec<u64> = theirs.iter().copied().collect();
            all.sort_unstable();
            all.iter().rev().for_each(|&x| _ = back.insert(x));
            assert_eq!(back, mine);
            back.insert(12345678);
            assert_ne!(back, mine);
        }
    }
}
