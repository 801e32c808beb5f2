//! A study's numbers gathered game by game ([`Tally`]): what a report needs of each game is
//! added as the game ends and the game is dropped, so a study's memory does not grow with its
//! games (beyond one digest per game, to count the distinct ones).
//!
//! Every sum is kept exactly (integers; a metric's numbers in fixed point), so the report is
//! the same whatever order the games arrive in: any number of threads, shards merged from
//! files, a study resumed.

#[cfg(test)]
use super::GameRecord;
use super::game::Game;
use super::line::Digests;
use super::openings::Counts;
use super::quality::{METRICS, Samples};
use super::{MOVE_LIMIT_REASON, SEAT_NAMES};
use std::collections::BTreeMap;

/// The typical game's candidates at one length: how many distinct games carry an evaluation,
/// and the lowest-index one's curve.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Typical {
    pub(crate) index: u64,
    pub(crate) plies: u32,
    pub(crate) eval: Vec<i32>,
    pub(crate) names: [String; 2],
    pub(crate) result: String,
}

/// Who played, as the games say.
#[derive(Clone, Debug, Default, PartialEq)]
enum Seats {
    #[default]
    None,
    Same(String, String),
    Mixed,
}

/// Every number a report gives, gathered game by game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tally {
    /// Games added (repeats among them).
    pub(crate) n: u64,
    /// The distinct games ([`super::GameRecord::identity`]); every statistic below counts each once.
    pub(crate) distinct: u64,
    seen: Digests,
    /// The lowest-index game's player names, and its index (the same whatever order games come in).
    names: Option<(u64, [String; 2])>,
    seats: Seats,
    /// Distinct games won by the first seat, the second, drawn.
    pub(crate) wins: [u64; 3],
    /// The first seat's points, in halves.
    pub(crate) halves: u64,
    /// Distinct games by how they ended: the winning seat (`None`: a draw), the result's
    /// text, the reason, how many; in that order. A handful, compared in line
    /// ([`Tally::reasons`] gives them as the report's lines).
    ends: Vec<(Option<usize>, String, String, u64)>,
    /// Distinct games a count decided (a margin), and the first seat's margins summed, in half
    /// points (its losses negative).
    pub(crate) margins: (u64, i64),
    /// Distinct games by length, and those the move limit did not cut.
    pub(crate) lengths: BTreeMap<u32, u64>,
    pub(crate) uncapped: BTreeMap<u32, u64>,
    pub(crate) capped: u64,
    /// The most plies of a game the move limit cut.
    pub(crate) capped_at: u32,
    /// Legal moves summed: over all positions, by third of each game, the greatest.
    pub(crate) moves: u64,
    pub(crate) positions: u64,
    pub(crate) phase_moves: [u64; 3],
    pub(crate) phase_positions: [u64; 3],
    pub(crate) most_moves: u32,
    pub(crate) metrics: Vec<Samples>,
    /// The opening table's counts.
    pub(crate) openings: Counts,
    /// The most random opening decisions a game made ([`super::GameRecord::random_plies`]).
    pub(crate) random_plies: u32,
    /// Distinct games carrying an evaluation by length, with the lowest-index one of each.
    typical: BTreeMap<u32, (u64, Typical)>,
}

impl Tally {
    /// Nothing yet; the opening table will look at `opening_plies` plies (1 to 3).
    pub(crate) fn new(opening_plies: usize) -> Tally {
        Tally {
            n: 0,
            distinct: 0,
            seen: Digests::default(),
            names: None,
            seats: Seats::None,
            wins: [0; 3],
            halves: 0,
            ends: Vec::new(),
            margins: (0, 0),
            lengths: BTreeMap::new(),
            uncapped: BTreeMap::new(),
            capped: 0,
            capped_at: 0,
            moves: 0,
            positions: 0,
            phase_moves: [0; 3],
            phase_positions: [0; 3],
            most_moves: 0,
            metrics: vec![Samples::default(); METRICS.len()],
            openings: Counts::new(opening_plies),
            random_plies: 0,
            typical: BTreeMap::new(),
        }
    }

    /// Nothing yet, with room for the distinct games of a study of `games` games up to 65,536
    /// (past that the set of digests grows as distinct games come: a small game's million
    /// games repeat, and a set sized for all of them would spread its few digests over tens of
    /// megabytes, a cache miss each).
    pub(crate) fn with_room(opening_plies: usize, games: usize) -> Tally {
        Tally { seen: Digests::with_room(games.min(1 << 16)), ..Tally::new(opening_plies) }
    }

    /// The tally of `games`.
    #[cfg(test)]
    pub(crate) fn of<'a>(games: impl IntoIterator<Item = &'a GameRecord>, opening_plies: usize) -> Tally {
        let mut t = Tally::new(opening_plies);
        for g in games {
            t.add(&g.view());
        }
        t
    }

    /// Asks for what adding `g` will read first to be brought into the cache (its digest's
    /// place in the set of distinct games).
    pub(crate) fn expect(&self, digest: u64) {
        self.seen.expect(digest);
    }

    /// Adds one game.
    pub(crate) fn add(&mut self, g: &Game) {
        self.n += 1;
        self.random_plies = self.random_plies.max(g.random_plies);
        if self.names.as_ref().is_none_or(|(i, _)| g.index < *i) {
            self.names = Some((g.index, g.names.map(String::from)));
        }
        match &self.seats {
            _ if self.n == 1 => self.seats = Seats::Same(g.first.to_string(), g.second.to_string()),
            Seats::Same(a, b) if super::same(a, g.first) && super::same(b, g.second) => {}
            _ => self.seats = Seats::Mixed,
        }
        let fresh = self.seen.insert(g.digest);
        self.typical_candidate(g, fresh);
        if !fresh {
            return;
        }
        self.distinct += 1;
        self.wins[g.winner.map_or(2, |s| s.min(1))] += 1;
        self.halves += (2.0 * g.first_points()) as u64;
        if let Some(m) = g.margin {
            let signed = if g.winner == Some(0) { i64::from(m) } else { -i64::from(m) };
            self.margins = (self.margins.0 + 1, self.margins.1 + signed);
        }
        // (A draw's result is `draw` whatever the record said: its line does not name it.)
        let result = if g.winner.is_some() { g.result } else { "draw" };
        let same = |(w, r, reason, _): &&mut (Option<usize>, String, String, u64)| {
            *w == g.winner && super::same(reason, g.reason) && super::same(r, result)
        };
        match self.ends.iter_mut().find(same) {
            Some(e) => e.3 += 1,
            // (Kept in order, so that two tallies of the same games are equal whatever order
            // the games came in.)
            None => {
                let key = (g.winner, result, g.reason);
                let at = self.ends.partition_point(|(w, r, reason, _)| (*w, r.as_str(), reason.as_str()) < key);
                self.ends.insert(at, (g.winner, result.to_string(), g.reason.to_string(), 1));
            }
        }
        *self.lengths.entry(g.plies).or_default() += 1;
        if super::same(g.reason, MOVE_LIMIT_REASON) {
            self.capped += 1;
            self.capped_at = self.capped_at.max(g.plies);
        } else {
            *self.uncapped.entry(g.plies).or_default() += 1;
        }
        self.branching(g.branching);
        for (m, s) in METRICS.iter().zip(&mut self.metrics) {
            s.add((m.sample)(g));
        }
        self.openings.add(g);
    }

    /// Counts a game's branching: in all, and by thirds of the game (the position at `i` of
    /// `n` is in third `3i / n`: the thirds start at ⌈n/3⌉ and ⌈2n/3⌉).
    fn branching(&mut self, b: &[u32]) {
        let n = b.len();
        let (one, two) = (n.div_ceil(3), (2 * n).div_ceil(3));
        for (ph, part) in [&b[..one], &b[one..two], &b[two..]].into_iter().enumerate() {
            let moves: u64 = part.iter().map(|&x| u64::from(x)).sum();
            self.phase_moves[ph] += moves;
            self.phase_positions[ph] += part.len() as u64;
            self.moves += moves;
        }
        self.positions += n as u64;
        self.most_moves = self.most_moves.max(b.iter().copied().max().unwrap_or(0));
    }

    /// Counts a distinct game carrying an evaluation at its length, and keeps the curve of the
    /// lowest-index game of each length (a repeat may have the lower index).
    fn typical_candidate(&mut self, g: &Game, fresh: bool) {
        let Some(eval) = g.eval.filter(|e| !e.is_empty()) else { return };
        let lowest = |i: u64| Typical {
            index: i,
            plies: g.plies,
            eval: eval.to_vec(),
            names: g.names.map(String::from),
            result: g.result.to_string(),
        };
        let e = self.typical.entry(g.plies).or_insert_with(|| (0, lowest(g.index)));
        e.0 += u64::from(fresh);
        if g.index < e.1.index {
            e.1 = lowest(g.index);
        }
    }

    /// The game a report draws as typical: of the distinct games carrying the evaluation, the
    /// lowest-index one of the median length (the shorter middle one for an even count).
    pub(crate) fn typical(&self) -> Option<&Typical> {
        let total: u64 = self.typical.values().map(|x| x.0).sum();
        let mut rank = total.checked_sub(1)? / 2;
        for (count, t) in self.typical.values() {
            if rank < *count {
                return Some(t);
            }
            rank -= count;
        }
        None
    }

    /// Distinct games by how they ended, as the report's lines say it (`white wins: king
    /// captured`, `draw: board full`).
    pub(crate) fn reasons(&self) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for (winner, result, reason, n) in &self.ends {
            let key = if winner.is_some() { format!("{result} wins: {reason}") } else { format!("draw: {reason}") };
            *out.entry(key).or_default() += n;
        }
        out
    }

    /// The players' names, the first seat's first (the old records' seat names without games).
    pub(crate) fn names(&self) -> [String; 2] {
        self.names.as_ref().map_or(SEAT_NAMES.map(String::from), |(_, n)| n.clone())
    }

    /// The seats' engines, when every game names them and they agree.
    pub(crate) fn players(&self) -> Option<(String, String)> {
        match &self.seats {
            Seats::Same(a, b) if !a.is_empty() => Some((a.clone(), b.clone())),
            _ => None,
        }
    }

    /// The `k`-th shortest distinct game's length (0-based; 0 without games), from `lengths`.
    pub(crate) fn nth_length(&self, k: u64) -> u32 {
        let mut k = k;
        for (&len, &count) in &self.lengths {
            if k < count {
                return len;
            }
            k -= count;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How games ended, counted by hand: each distinct game once under its line (`white wins:
    /// …`, `draw: …`), a result that names no player counted as a draw, and the same tally
    /// whatever order the games came in.
    #[test]
    fn endings_by_hand_in_any_order() {
        let game = |i: u64, result: &str, reason: &str| GameRecord {
            index: i,
            players: ["white".into(), "black".into()],
            result: result.into(),
            reason: reason.into(),
            line: format!("{:x}", i + 1).as_str().into(),
            ..GameRecord::default()
        };
        let mut games = vec![
            game(0, "white", "mate"),
            game(1, "black", "mate"),
            game(2, "white", "mate"),
            game(3, "draw", "stalemate"),
            game(4, "white", "time"),
            game(5, "nobody", "stalemate"),
            game(0, "white", "mate"),
        ];
        let forward = Tally::of(&games, 1);
        games.reverse();
        let backward = Tally::of(&games, 1);
        assert_eq!(forward, backward);
        let want: BTreeMap<String, u64> =
            [("white wins: mate", 2), ("black wins: mate", 1), ("draw: stalemate", 2), ("white wins: time", 1)]
                .into_iter()
                .map(|(k, n)| (k.to_string(), n))
                .collect();
        assert_eq!(forward.reasons(), want);
        assert_eq!((forward.n, forward.distinct), (7, 6));
    }

    /// The thirds by hand: position `i` of `n` in third `3i / n`, as the division says.
    #[test]
    fn branching_by_thirds() {
        for n in 0..40usize {
            let b: Vec<u32> = (0..n as u32).map(|i| i + 1).collect();
            let mut t = Tally::new(1);
            t.branching(&b);
            let mut want = ([0u64; 3], [0u64; 3]);
            for (i, &x) in b.iter().enumerate() {
                want.0[i * 3 / n] += u64::from(x);
                want.1[i * 3 / n] += 1;
            }
            assert_eq!((t.phase_moves, t.phase_positions), want, "{n}");
            assert_eq!((t.moves, t.positions, t.most_moves), (want.0.iter().sum(), n as u64, n as u32));
        }
    }
}
