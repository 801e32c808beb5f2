//! The solver's table: what each position searched is known to be worth to the prover, in a
//! fixed amount of memory. Buckets of four entries; a new position takes the bucket's empty
//! entry, or else the one whose search took the least work (positions visited), so the table
//! keeps what was expensive to learn.

/// A proof or disproof number standing for "infinite": the position is decided.
pub(super) const INF: u32 = 1 << 30;

/// A disproof's bound that holds however many plies are left (no horizon touched it).
pub(super) const SURE: u16 = u16::MAX;

/// The entries of one bucket.
const WAYS: usize = 4;

/// One entry's size in bytes (three words).
pub(super) const ENTRY_BYTES: usize = 24;

/// What the table knows of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    pub key: u64,
    /// The proof number: 0 proved, `INF` disproved.
    pub pn: u32,
    /// The disproof number: 0 disproved, `INF` proved.
    pub dn: u32,
    /// The positions visited under it (saturating): what the replacement keeps.
    pub work: u32,
    /// Proved: the proof's length in plies. Disproved: the most plies left with which the
    /// disproof holds (`SURE`: any). Otherwise unused.
    pub dist: u16,
    /// The best move's index in the legal list plus one (0: none).
    pub best: u16,
}

impl Entry {
    fn pack(self) -> [u64; 3] {
        [self.key, (self.pn as u64) << 32 | self.dn as u64, (self.work as u64) << 32 | (self.dist as u64) << 16 | self.best as u64]
    }

    fn unpack([key, numbers, rest]: [u64; 3]) -> Entry {
        Entry {
            key,
            pn: (numbers >> 32) as u32,
            dn: numbers as u32,
            work: (rest >> 32) as u32,
            dist: (rest >> 16) as u16,
            best: rest as u16,
        }
    }
}

/// An empty slot: no stored entry has both numbers 0.
fn empty(slot: &[u64; 3]) -> bool {
    slot[1] == 0
}

pub(super) struct Table {
    /// The entries packed ([`Entry::pack`]); zeroed memory is empty, so a large table costs
    /// only the pages it touches.
    slots: Vec<[u64; 3]>,
    pub used: usize,
    /// The most entries: the table starts small and doubles as it fills, up to this.
    max: usize,
}

impl Table {
    /// A table within `bytes` (at least 1,024 entries).
    pub fn new(bytes: usize) -> Table {
        let max = (bytes / ENTRY_BYTES).max(1024) / WAYS * WAYS;
        Table { slots: vec![[0u64; 3]; max.min(1 << 16)], used: 0, max }
    }

    /// The entries it has room for now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// The entries it may grow to.
    pub fn capacity(&self) -> usize {
        self.max
    }

    fn bucket(&self, key: u64) -> usize {
        // The high bits choose the bucket (the low ones are the key's too, but a multiply
        // spreads any of them).
        ((key as u128 * (self.slots.len() / WAYS) as u128) >> 64) as usize * WAYS
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + WAYS].iter().find(|s| s[0] == key && !empty(s)).map(|s| Entry::unpack(*s))
    }

    /// Keeps `e`: over its own older entry (adding that one's work), or in an empty slot, or
    /// over the bucket's entry of least work.
    pub fn put(&mut self, mut e: Entry) {
        let b = self.bucket(e.key);
        let own = self.slots[b..b + WAYS].iter().position(|s| s[0] == e.key && !empty(s));
        let free = self.slots[b..b + WAYS].iter().position(empty);
        let i = match (own, free) {
            (Some(i), _) => {
                e.work = e.work.saturating_add(Entry::unpack(self.slots[b + i]).work);
                i
            }
            (None, Some(_)) if (self.used + 1) * 4 > self.slots.len() * 3 && self.slots.len() < self.max => {
                self.grow();
                return self.put(e);
            }
            (None, Some(i)) => {
                self.used += 1;
                i
            }
            (None, None) => (0..WAYS).min_by_key(|&i| Entry::unpack(self.slots[b + i]).work).unwrap_or(0),
        };
        self.slots[b + i] = e.pack();
    }
}

impl Table {
    /// Doubles the table (up to its limit), every entry moved to its new bucket.
    fn grow(&mut self) {
        let n = (self.slots.len() * 2).min(self.max);
        let old = std::mem::replace(&mut self.slots, vec![[0u64; 3]; n]);
        self.used = 0;
        for s in old.iter().filter(|s| !empty(s)) {
            self.put(Entry::unpack(*s));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_pack_and_the_least_work_is_replaced() {
        let e = Entry { key: 7, pn: INF, dn: 0, work: 123, dist: SURE, best: 9 };
        assert_eq!(Entry::unpack(e.pack()), e);
        let mut t = Table::new(0);
        assert_eq!((t.len(), t.capacity()), (1024, 1024));
        // Five keys in one bucket: the fifth replaces the one of least work.
        let b = t.bucket(1);
        let keys: Vec<u64> = (1..u64::MAX).filter(|&k| t.bucket(k) == b).take(5).collect();
        for (i, &k) in keys.iter().enumerate() {
            t.put(Entry { key: k, pn: 1, dn: 1, work: [50, 10, 70, 30, 5][i], dist: 0, best: 0 });
        }
        assert_eq!(t.used, 4);
        assert!(t.get(keys[1]).is_none() && t.get(keys[4]).is_some() && t.get(keys[0]).is_some());
        // A position stored again keeps its place and adds its work.
        t.put(Entry { key: keys[0], pn: 0, dn: INF, work: 1, dist: 3, best: 1 });
        assert_eq!(t.get(keys[0]).map(|e| (e.pn, e.work)), Some((0, 51)));
    }

    #[test]
    fn the_table_doubles_as_it_fills_and_keeps_its_entries() {
        let mut t = Table::new(1 << 22);
        let (start, max) = (t.len(), t.capacity());
        assert!(start < max);
        for k in 1..=start as u64 {
            t.put(Entry { key: k.wrapping_mul(0x9E37_79B9_7F4A_7C15), pn: 1, dn: 2, work: 1, dist: 0, best: 0 });
        }
        assert!(t.len() > start && t.len() <= max);
        // A full bucket may have given one up before the table grew: nearly all are there.
        let kept = (1..=start as u64).filter(|k| t.get(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)).is_some()).count();
        assert!(kept * 100 >= start * 99, "{kept} of {start}");
    }
}
