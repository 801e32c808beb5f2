//! The opening table: the first player's score after each first move (or each sequence of the
//! first plies), with Wilson's 95 % interval, and the openings that win or lose far more than
//! the rest flagged: those whose interval and the overall score's interval do not overlap
//! (stricter than one interval excluding the other's centre, which with forty moves would flag
//! two by chance alone).

use super::wilson;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The most plies an opening table looks at.
pub(crate) const MAX_PLIES: usize = super::OPENING_PLIES;

/// How an opening's score stands against the overall score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flag {
    /// Its interval lies wholly above the overall score's interval.
    WinsMore,
    /// Wholly below.
    LosesMore,
}

/// One opening: its first moves and the first player's score after them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Opening {
    /// The moves, space-separated.
    pub(crate) moves: String,
    pub(crate) games: u64,
    pub(crate) score: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) flag: Option<Flag>,
}

/// The first player's score by opening.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Openings {
    pub(crate) plies: usize,
    /// The score over the games in the table, with its interval.
    pub(crate) overall: (f64, f64, f64),
    /// Most played first (then by the moves' text).
    pub(crate) rows: Vec<Opening>,
    /// Games that ended before `plies` decisions.
    pub(crate) shorter: u64,
    /// Games whose moves were not recorded.
    pub(crate) unrecorded: u64,
}

/// What the opening table counts, game by game: games and the first seat's points (in
/// halves) by their first plies; the games shorter; the games whose moves were not kept.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Counts {
    plies: usize,
    by: BTreeMap<String, (u64, u64)>,
    shorter: u64,
    unrecorded: u64,
    key: Scratch,
}

impl Counts {
    /// Nothing yet, by the first `plies` plies (1 to [`MAX_PLIES`]).
    pub(crate) fn new(plies: usize) -> Counts {
        Counts { plies: plies.clamp(1, MAX_PLIES), by: BTreeMap::new(), shorter: 0, unrecorded: 0, key: Default::default() }
    }

    pub(crate) fn add(&mut self, g: &super::game::Game) {
        let plies = self.plies;
        if (g.plies as usize) < plies {
            self.shorter += 1;
        } else if g.moves.len() < plies {
            self.unrecorded += 1;
        } else {
            // The moves joined in a buffer kept from game to game: a key is copied only when new.
            let key = self.key.cleared();
            for (i, m) in g.moves[..plies].iter().enumerate() {
                if i > 0 {
                    key.push(' ');
                }
                key.push_str(m);
            }
            let halves = (2.0 * g.first_points()) as u64;
            match self.by.get_mut(key.as_str()) {
                Some(e) => *e = (e.0 + 1, e.1 + halves),
                None => {
                    self.by.insert(key.clone(), (1, halves));
                }
            }
        }
    }
}

/// A buffer for map keys built game by game, kept so that a key is allocated only when it is
/// new. Not part of what a tally counts: any two are equal.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch(String);

impl Scratch {
    /// The buffer, emptied.
    pub(crate) fn cleared(&mut self) -> &mut String {
        self.0.clear();
        &mut self.0
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Scratch) -> bool {
        true
    }
}

/// The opening table of some games' counts.
pub(crate) fn openings(c: &Counts) -> Openings {
    let n: u64 = c.by.values().map(|x| x.0).sum();
    let total: u64 = c.by.values().map(|x| x.1).sum();
    let overall = if n == 0 { (0.0, 0.0, 0.0) } else { with_interval(total as f64 / 2.0 / n as f64, n) };
    let mut rows: Vec<Opening> =
        c.by.iter()
            .map(|(moves, &(games, halves))| {
                let (score, lo, hi) = with_interval(halves as f64 / 2.0 / games as f64, games);
                let flag = if lo > overall.2 {
                    Some(Flag::WinsMore)
                } else if hi < overall.1 {
                    Some(Flag::LosesMore)
                } else {
                    None
                };
                Opening { moves: moves.clone(), games, score, lo, hi, flag }
            })
            .collect();
    rows.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.moves.cmp(&b.moves)));
    Openings { plies: c.plies, overall, rows, shorter: c.shorter, unrecorded: c.unrecorded }
}

fn with_interval(p: f64, n: u64) -> (f64, f64, f64) {
    let (lo, hi) = wilson(p, n as f64);
    (p, lo, hi)
}

impl Openings {
    /// The table as text: at most `limit` rows, the flagged ones always.
    pub(crate) fn text(&self, limit: usize) -> String {
        let mut s = String::new();
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let what = if self.plies == 1 { "first move".to_string() } else { format!("first {} plies", self.plies) };
        let _ = writeln!(s, "openings: first player's score by {what} (+ / −: its 95% interval lies above / below the overall score's)");
        if self.rows.is_empty() {
            let _ = writeln!(s, "  (no game recorded its first {} moves)", self.plies);
            return s;
        }
        let (m, lo, hi) = self.overall;
        let w = self.rows.iter().map(|r| r.moves.chars().count()).max().unwrap_or(0).max(8);
        let _ = writeln!(s, "  {:<w$} {:>6} {:>7}  [95%]", "", "games", "score");
        let _ = writeln!(
            s,
            "  {:<w$} {:>6} {:>7}  [{} – {}]",
            "overall",
            self.rows.iter().map(|r| r.games).sum::<u64>(),
            pct(m),
            pct(lo),
            pct(hi)
        );
        let mut hidden = 0;
        for (i, r) in self.rows.iter().enumerate() {
            if i >= limit && r.flag.is_none() {
                hidden += 1;
                continue;
            }
            let mark = match r.flag {
                Some(Flag::WinsMore) => " +",
                Some(Flag::LosesMore) => " −",
                None => "",
            };
            let _ = writeln!(s, "  {:<w$} {:>6} {:>7}  [{} – {}]{mark}", r.moves, r.games, pct(r.score), pct(r.lo), pct(r.hi));
        }
        if hidden > 0 {
            let _ = writeln!(s, "  ({hidden} less played openings not shown, none flagged)");
        }
        if self.shorter > 0 {
            let _ = writeln!(s, "  ({} games ended before ply {})", self.shorter, self.plies);
        }
        if self.unrecorded > 0 {
            let _ = writeln!(s, "  ({} games did not record their moves)", self.unrecorded);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::GameRecord;
    use super::*;

    /// The opening table of `games` by their first `plies` moves.
    fn openings(games: &[GameRecord], plies: usize) -> Openings {
        let mut c = Counts::new(plies);
        games.iter().for_each(|g| c.add(&g.view()));
        super::openings(&c)
    }

    fn game(moves: &[&str], result: &str) -> GameRecord {
        GameRecord {
            variant: "x".into(),
            result: result.into(),
            reason: "r".into(),
            plies: moves.len() as u32,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            ..GameRecord::default()
        }
    }

    #[test]
    fn scores_by_first_move_by_hand() {
        // a1 is played 40 times and always wins; b1 40 times and wins 10 (and 2 draws, 11
        // points); c1 twice, one draw.
        let mut games = vec![];
        games.extend((0..40).map(|_| game(&["a1", "x"], "white")));
        games.extend((0..28).map(|_| game(&["b1", "y"], "black")));
        games.extend((0..10).map(|_| game(&["b1", "y"], "white")));
        games.extend((0..2).map(|_| game(&["b1", "z"], "draw")));
        games.push(game(&["c1", "x"], "draw"));
        games.push(game(&["c1", "x"], "black"));
        games.push(game(&[], "draw"));
        let t = openings(&games, 1);
        assert_eq!(t.shorter, 1);
        // 40 + 11 + 0.5 = 51.5 points of 82 games.
        assert!((t.overall.0 - 51.5 / 82.0).abs() < 1e-12);
        let names: Vec<&str> = t.rows.iter().map(|r| r.moves.as_str()).collect();
        assert_eq!(names, ["a1", "b1", "c1"]);
        assert_eq!((t.rows[0].games, t.rows[0].score), (40, 1.0));
        assert!((t.rows[1].score - 11.0 / 40.0).abs() < 1e-12);
        // a1: 40 of 40, Wilson [91.2 %, 100 %], wholly above the overall [52.0 %, 72.5 %];
        // b1: 27.5 % [16.1 %, 42.8 %] wholly below; c1 (two games) overlaps it.
        assert_eq!(t.rows.iter().map(|r| r.flag).collect::<Vec<_>>(), [Some(Flag::WinsMore), Some(Flag::LosesMore), None]);
        let text = t.text(1);
        assert!(text.contains("a1") && text.contains("b1") && !text.contains("c1"), "{text}");
        assert!(text.contains("(1 less played openings not shown"), "{text}");
        // Two plies: b1 y and b1 z are apart.
        let t2 = openings(&games, 2);
        assert_eq!(t2.rows.iter().map(|r| r.moves.as_str()).collect::<Vec<_>>(), ["a1 x", "b1 y", "b1 z", "c1 x"]);
    }
}
