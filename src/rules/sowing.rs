//! Sowing (mancala): cells that hold a count of seeds (pits and stores), a move that lifts a
//! pit's seeds and sows them one by one along a track, what the last seed captures, the extra
//! move, the feeding rule and the game's end (`[sowing]`, read by `validate::sowing`).
//!
//! Everything here is a pure function of the typed rules and a slice of counts (one per cell):
//! move generation asks [`Sowing::moves`], make ([`crate::state`]) plays [`Sowing::sow`] on a
//! copy and writes the cells that changed through the position's setter, so the hash and undo
//! follow. No game is named: Kalah and Oware are two settings of these keys.

use crate::geometry::NONE;
use crate::piece::{ByPlayer, Player};

/// The most seeds a variant may hold in all (counts are `u16`; sums stay far below `u32`).
pub(crate) const MAX_SEEDS: u32 = 10_000;

/// What the last seed sown captures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SowCapture {
    /// Nothing.
    None,
    /// Landing in an own pit that was empty: that seed and the opposite pit's seeds go to the
    /// mover's store (`empty_opposite`: even when the opposite pit is empty).
    OwnEmpty { empty_opposite: bool },
    /// Landing in an opponent's pit and making one of `counts` (a bit per count): its seeds,
    /// and those of the unbroken run of opponent's pits before it (in sowing order) that hold
    /// one of `counts`, go to the mover's store.
    Counts { counts: u64, grand_slam: GrandSlam },
}

/// A capture that would take every seed on the opponent's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GrandSlam {
    /// The move is played, nothing is captured (Abapa).
    NoCapture,
    /// The move captures them all.
    Capture,
    /// The move is not legal.
    Illegal,
}

/// When the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SowEnd {
    /// After a move that leaves either player's pits empty.
    SideEmpty,
    /// When the player to move has no legal move.
    NoMove,
}

/// The typed `[sowing]` section.
#[derive(Clone, Debug)]
pub(crate) struct Sowing {
    /// The cells that hold seeds, in the order the position text writes their counts: the
    /// track as declared, then the stores not on it (south's, then north's).
    pub(crate) listed: Vec<u16>,
    /// Per player, the track it sows along (the declared circuit less the cells it skips
    /// always), as cells.
    pub(crate) track: ByPlayer<Vec<u16>>,
    /// Per player, per cell: its place on that player's track (`u16::MAX`: not on it).
    pub(crate) place: ByPlayer<Vec<u16>>,
    /// Per player, its pits in sowing order.
    pub(crate) pits: ByPlayer<Vec<u16>>,
    /// Per player, its store.
    pub(crate) store: ByPlayer<u16>,
    /// Per cell: the player whose pit or store it is (`None`: neither).
    pub(crate) owner: Vec<Option<Player>>,
    /// Per cell: the pit facing it (pit `i` of one player faces pit `n − 1 − i` of the other,
    /// both listed in sowing order), or `NONE`.
    pub(crate) opposite: Vec<u16>,
    /// The pit sown from is passed over when a lap comes back to it.
    pub(crate) skip_origin: bool,
    /// The last seed in the mover's store earns another move.
    pub(crate) extra_move: bool,
    pub(crate) capture: SowCapture,
    /// A player whose opponent's pits are empty must sow into them.
    pub(crate) feed: bool,
    pub(crate) end: SowEnd,
    /// A store with more than half of all seeds ends the game.
    pub(crate) majority: bool,
    /// Seeds in each cell at the start.
    pub(crate) start: Vec<u16>,
    /// The extra move's continuation tag (`extra_move`), made once.
    pub(crate) tag: std::sync::Arc<str>,
}

/// What one sowing did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sown {
    /// The cell of the last seed.
    pub(crate) last: u16,
    /// Seeds captured into the mover's store.
    pub(crate) captured: u32,
    /// The last seed fell in the mover's store and the rules give another move.
    pub(crate) extra: bool,
}

impl Sowing {
    /// The seeds in `p`'s pits.
    pub(crate) fn side_seeds(&self, seeds: &[u16], p: Player) -> u32 {
        self.pits[p].iter().map(|&c| u32::from(seeds[c as usize])).sum()
    }

    /// Sows `p`'s pit `from` on `seeds`: lifts its seeds, drops one in each following cell of
    /// `p`'s track (the pit itself passed over on later laps where the rules say), then takes
    /// what the last seed captures. `from` holds seeds and is one of `p`'s pits.
    pub(crate) fn sow(&self, seeds: &mut [u16], p: Player, from: u16) -> Sown {
        let track = &self.track[p];
        let mut n = seeds[from as usize];
        seeds[from as usize] = 0;
        let mut i = self.place[p][from as usize] as usize;
        let mut last = from;
        while n > 0 {
            i = (i + 1) % track.len();
            let c = track[i];
            if c == from && self.skip_origin {
                continue;
            }
            seeds[c as usize] += 1;
            last = c;
            n -= 1;
        }
        let store = self.store[p];
        let mut sown = Sown { last, captured: 0, extra: false };
        if last == store {
            sown.extra = self.extra_move;
            return sown;
        }
        let taken = self.captures(seeds, p, last);
        if taken > 0 {
            seeds[store as usize] += taken as u16;
            sown.captured = taken;
        }
        sown
    }

    /// Takes what the last seed, in `last`, captures for `p` off `seeds`: how many.
    fn captures(&self, seeds: &mut [u16], p: Player, last: u16) -> u32 {
        let l = last as usize;
        match &self.capture {
            SowCapture::None => 0,
            SowCapture::OwnEmpty { empty_opposite } => {
                let opp = self.opposite[l];
                if self.owner[l] != Some(p) || seeds[l] != 1 || opp == NONE || (seeds[opp as usize] == 0 && !empty_opposite) {
                    return 0;
                }
                let taken = 1 + u32::from(seeds[opp as usize]);
                seeds[l] = 0;
                seeds[opp as usize] = 0;
                taken
            }
            SowCapture::Counts { counts, grand_slam } => {
                let run = self.run(seeds, p, last, *counts);
                if run.is_empty() {
                    return 0;
                }
                let taken: u32 = run.iter().map(|&c| u32::from(seeds[c as usize])).sum();
                if taken == self.side_seeds(seeds, p.other()) && *grand_slam != GrandSlam::Capture {
                    return 0;
                }
                for c in run {
                    seeds[c as usize] = 0;
                }
                taken
            }
        }
    }

    /// The opponent's pits a count capture landing on `last` takes: `last` and the unbroken
    /// run before it on `p`'s track (opponent's pits holding one of `counts`).
    fn run(&self, seeds: &[u16], p: Player, last: u16, counts: u64) -> Vec<u16> {
        let track = &self.track[p];
        let holds = |c: u16| {
            self.owner[c as usize] == Some(p.other()) && self.is_pit(c) && {
                let n = seeds[c as usize];
                n < 64 && counts >> n & 1 != 0
            }
        };
        let mut run = Vec::new();
        let mut i = self.place[p][last as usize] as usize;
        let mut c = last;
        while holds(c) && !run.contains(&c) {
            run.push(c);
            i = (i + track.len() - 1) % track.len();
            c = track[i];
        }
        run
    }

    /// Whether `c` is a pit (not a store).
    pub(crate) fn is_pit(&self, c: u16) -> bool {
        self.owner[c as usize].is_some_and(|p| self.store[p] != c)
    }

    /// Whether the grand slam rule makes `p` sowing `from` illegal on `seeds`.
    fn refused(&self, seeds: &[u16], p: Player, from: u16) -> bool {
        let grand_illegal = matches!(self.capture, SowCapture::Counts { grand_slam: GrandSlam::Illegal, .. });
        if !self.feed && !grand_illegal {
            return false;
        }
        let starved = self.feed && self.side_seeds(seeds, p.other()) == 0;
        if !starved && !grand_illegal {
            return false;
        }
        let mut after: smallvec::SmallVec<[u16; 64]> = seeds.into();
        if let SowCapture::Counts { counts, grand_slam: GrandSlam::Illegal } = self.capture {
            // Sown without capturing, to see what the capture would take.
            let sown = Sowing { capture: SowCapture::None, ..self.clone() }.sow(&mut after, p, from);
            let run = self.run(&after, p, sown.last, counts);
            let taken: u32 = run.iter().map(|&c| u32::from(after[c as usize])).sum();
            if !run.is_empty() && taken == self.side_seeds(&after, p.other()) {
                return true;
            }
        } else {
            self.sow(&mut after, p, from);
        }
        starved && self.side_seeds(&after, p.other()) == 0
    }

    /// `p`'s legal sowings on `seeds`: the pits holding seeds, in sowing order, less those the
    /// feeding and grand slam rules refuse.
    pub(crate) fn moves(&self, seeds: &[u16], p: Player, mut out: impl FnMut(u16)) {
        for &c in &self.pits[p] {
            if seeds[c as usize] > 0 && !self.refused(seeds, p, c) {
                out(c);
            }
        }
    }

    /// Whether `p` has a legal sowing on `seeds`.
    pub(crate) fn can_move(&self, seeds: &[u16], p: Player) -> bool {
        let mut any = false;
        self.moves(seeds, p, |_| any = true);
        any
    }

    /// After `mover`'s sowing, with `next` to move: whether the game is over by these rules.
    pub(crate) fn over(&self, seeds: &[u16], mover: Player, next: Player) -> bool {
        let total: u32 = seeds.iter().map(|&n| u32::from(n)).sum();
        if self.majority && u32::from(seeds[self.store[mover] as usize]) * 2 > total {
            return true;
        }
        match self.end {
            SowEnd::SideEmpty => Player::both().iter().any(|&q| self.side_seeds(seeds, q) == 0),
            SowEnd::NoMove => !self.can_move(seeds, next),
        }
    }

    /// The seeds left in the pits, moved to their owner's store (the game is over).
    pub(crate) fn sweep(&self, seeds: &mut [u16]) {
        for p in Player::both() {
            let left = self.side_seeds(seeds, p);
            for &c in &self.pits[p] {
                seeds[c as usize] = 0;
            }
            seeds[self.store[p] as usize] += left as u16;
        }
    }

    /// The winner by the stores' counts (`None`: equal).
    pub(crate) fn leader(&self, seeds: &[u16]) -> Option<Player> {
        let [a, b] = Player::both().map(|p| seeds[self.store[p] as usize]);
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Player::FIRST),
            std::cmp::Ordering::Less => Some(Player::FIRST.other()),
            std::cmp::Ordering::Equal => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Kalah-like board of 2 pits a side: cells 0,1 (first's pits), 2 (first's store),
    /// 3,4 (second's pits), 5 (second's store), sown 0,1,2,3,4,5.
    fn small(capture: SowCapture, skip_origin: bool) -> Sowing {
        let circuit = [0u16, 1, 2, 3, 4, 5];
        let track = |skip: u16| circuit.iter().copied().filter(|&c| c != skip).collect::<Vec<u16>>();
        let place = |t: &Vec<u16>| {
            let mut v = vec![u16::MAX; 6];
            for (i, &c) in t.iter().enumerate() {
                v[c as usize] = i as u16;
            }
            v
        };
        let (t0, t1) = (track(5), track(2));
        let f = Player::FIRST;
        Sowing {
            listed: circuit.to_vec(),
            place: ByPlayer::new(place(&t0), place(&t1)),
            track: ByPlayer::new(t0, t1),
            pits: ByPlayer::new(vec![0, 1], vec![3, 4]),
            store: ByPlayer::new(2, 5),
            owner: vec![Some(f), Some(f), Some(f), Some(f.other()), Some(f.other()), Some(f.other())],
            opposite: vec![4, 3, NONE, 1, 0, NONE],
            skip_origin,
            extra_move: true,
            capture,
            feed: false,
            end: SowEnd::SideEmpty,
            majority: false,
            start: vec![2, 2, 0, 2, 2, 0],
            tag: "extra_move".into(),
        }
    }

    #[test]
    fn sowing_skips_the_opponents_store_and_earns_an_extra_move() {
        let s = small(SowCapture::None, false);
        let mut seeds = [0u16, 5, 0, 0, 0, 0];
        let sown = s.sow(&mut seeds, Player::FIRST, 1);
        // 1 → 2 (store), 3, 4, (5 skipped) 0, 1.
        assert_eq!(seeds, [1, 1, 1, 1, 1, 0]);
        assert_eq!(sown.last, 1);
        let mut seeds = [0u16, 1, 0, 0, 0, 0];
        assert!(s.sow(&mut seeds, Player::FIRST, 1).extra);
    }

    #[test]
    fn own_empty_capture_takes_the_opposite_pit() {
        let s = small(SowCapture::OwnEmpty { empty_opposite: false }, false);
        let mut seeds = [1u16, 0, 0, 3, 2, 0];
        let sown = s.sow(&mut seeds, Player::FIRST, 0);
        assert_eq!((sown.captured, seeds), (4, [0, 0, 4, 0, 2, 0]));
        // Opposite empty: nothing, unless the rule says so.
        let mut seeds = [1u16, 0, 0, 0, 2, 0];
        assert_eq!(s.sow(&mut seeds, Player::FIRST, 0).captured, 0);
        let s = small(SowCapture::OwnEmpty { empty_opposite: true }, false);
        let mut seeds = [1u16, 0, 0, 0, 2, 0];
        assert_eq!(s.sow(&mut seeds, Player::FIRST, 0).captured, 1);
    }

    #[test]
    fn count_capture_takes_the_run_and_refuses_a_grand_slam() {
        let counts = 1 << 2 | 1 << 3;
        let s = small(SowCapture::Counts { counts, grand_slam: GrandSlam::NoCapture }, true);
        // 1 → 2, 3 (1 → 2), 4 (2 → 3): run 4, 3 takes 5, leaving the opponent 0: a grand slam.
        let mut seeds = [0u16, 3, 0, 1, 2, 0];
        assert_eq!(s.sow(&mut seeds, Player::FIRST, 1).captured, 0);
        let s = small(SowCapture::Counts { counts, grand_slam: GrandSlam::Capture }, true);
        let mut seeds = [0u16, 3, 0, 1, 2, 0];
        assert_eq!(s.sow(&mut seeds, Player::FIRST, 1).captured, 5);
        let s = small(SowCapture::Counts { counts, grand_slam: GrandSlam::Illegal }, true);
        let mut n = 0;
        s.moves(&[0, 3, 0, 1, 2, 0], Player::FIRST, |_| n += 1);
        assert_eq!(n, 0);
    }

    #[test]
    fn a_lap_passes_over_the_origin() {
        let s = small(SowCapture::None, true);
        let mut seeds = [6u16, 0, 0, 0, 0, 0];
        s.sow(&mut seeds, Player::FIRST, 0);
        // 1, 2, 3, 4, (0 skipped) 1, 2.
        assert_eq!(seeds, [0, 2, 2, 1, 1, 0]);
    }

    #[test]
    fn feeding_keeps_only_moves_that_reach_the_opponent() {
        let mut s = small(SowCapture::None, false);
        s.feed = true;
        let mut found = Vec::new();
        s.moves(&[1, 2, 0, 0, 0, 0], Player::FIRST, |c| found.push(c));
        assert_eq!(found, vec![1]);
    }
}
