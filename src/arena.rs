//! The arena: how strong machine players are against one another. Every pair of the given
//! engines plays N games of one variant with the colours alternating, and a table gives for each
//! pair the wins, draws and losses, the score with its 95 % interval and the Elo difference it
//! implies, the games the move limit ended, and why the games ended; then each engine's score
//! over all its games and its seconds per move.
//!
//! Game `i` of the pair (A, B) is game `i` of the self-play study of those two engines, with A
//! playing first in the even games and B in the odd ones (so `selfplay --first A --second B` or
//! `--first B --second A` with the same seed replays it). Playing, threads, JSON lines, resuming
//! and Ctrl-C are self-play's ([`selfplay::run_batch`], one study per pair), so the table is the
//! same for any number of threads, all but the seconds per move.

use crate::ai::{Engine, EngineError};
use crate::selfplay::{self, CAPPED_WARNING, GameRecord, MOVE_LIMIT_REASON, SelfplayError, Sink, sig3};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The most engines one arena takes (66 pairs).
pub(crate) const MAX_ENGINES: usize = 12;

/// The most games one pair plays.
pub(crate) const MAX_GAMES: u64 = 100_000;

/// Why an arena could not be set up or played.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ArenaError {
    #[error("an arena needs at least two engines, got {0}")]
    TooFew(usize),
    #[error("an arena takes at most {MAX_ENGINES} engines, got {0}")]
    TooMany(usize),
    #[error("`{0}` and `{1}` are the same engine ({2}): give each engine once")]
    Duplicate(String, String, Engine),
    #[error("--games {0}: each pair plays 1 to {MAX_GAMES} games")]
    Games(u64),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Study(#[from] SelfplayError),
}

impl ArenaError {
    /// Whether what was asked is wrong (the engines, the count, a variant that does not load)
    /// rather than the playing.
    pub(crate) fn is_usage(&self) -> bool {
        !matches!(self, ArenaError::Study(e) if !matches!(e, SelfplayError::Load(_)))
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    /// At least two, each once, in the order given (a pair's first engine is the earlier one).
    pub(crate) engines: Vec<Engine>,
    /// Games per pair.
    pub(crate) games: u64,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
    /// Keep each game's move texts (for JSON lines).
    pub(crate) record_moves: bool,
    /// Random opening decisions, the same for both games of a pair of games with colours swapped
    /// (`--random-plies`; [`selfplay::Config::random_plies`]); `None`: for each pair of
    /// engines, [`selfplay::auto_random_plies`].
    pub(crate) random_plies: Option<u32>,
    /// Time each move (the records' `first_time` and `second_time`; off with `--no-times`).
    pub(crate) times: bool,
}

impl Config {
    /// An arena of the engines named `engines` (the grammar of [`Engine::parse`]).
    ///
    /// # Errors
    /// Fewer than two or more than [`MAX_ENGINES`] engines, an engine that does not parse or is
    /// given twice (`ab:d4` and `ab d4` are the same), or a count outside 1 to [`MAX_GAMES`].
    pub(crate) fn new(engines: &[String], games: u64, seed: u64, threads: usize, record_moves: bool) -> Result<Config, ArenaError> {
        if engines.len() < 2 {
            return Err(ArenaError::TooFew(engines.len()));
        }
        if engines.len() > MAX_ENGINES {
            return Err(ArenaError::TooMany(engines.len()));
        }
        if !(1..=MAX_GAMES).contains(&games) {
            return Err(ArenaError::Games(games));
        }
        let mut parsed: Vec<Engine> = Vec::new();
        for text in engines {
            let e = Engine::parse(text)?;
            if let Some(j) = parsed.iter().position(|x| *x == e) {
                return Err(ArenaError::Duplicate(engines[j].clone(), text.clone(), e));
            }
            parsed.push(e);
        }
        Ok(Config { engines: parsed, games, seed, threads, record_moves, random_plies: None, times: true })
    }

    /// Every pair of engines, each in the order given: (A, B).
    pub(crate) fn pairs(&self) -> Vec<(Engine, Engine)> {
        let e = &self.engines;
        (0..e.len()).flat_map(|i| (i + 1..e.len()).map(move |j| (e[i], e[j]))).collect()
    }

    /// Each pair's self-play study: A plays first in the even games, B in the odd ones.
    fn studies(&self) -> Vec<selfplay::Config> {
        self.pairs()
            .into_iter()
            .map(|(a, b)| selfplay::Config {
                first: a,
                second: b,
                threads: self.threads,
                record_moves: self.record_moves,
                alternate: true,
                time_moves: self.times,
                random_plies: self
                    .random_plies
                    .unwrap_or_else(|| selfplay::auto_random_plies(&[("first".into(), a), ("second".into(), b)])),
                ..selfplay::Config::new(self.games, self.seed)
            })
            .collect()
    }
}

/// Plays an arena (with a progress bar on standard error when `progress`): the games of
/// `resumed` that belong to it are not played again, each new game goes to `sink` as it
/// finishes, and Ctrl-C stops it with a table of the games finished.
///
/// # Errors
/// The variant does not load, a script hook failed, `sink` failed, or a resumed game belongs to
/// another study.
pub(crate) fn run(
    spec: &str,
    sets: &[(String, String)],
    cfg: &Config,
    progress: bool,
    resumed: &[GameRecord],
    sink: Option<Sink>,
) -> Result<Table, ArenaError> {
    let studies = cfg.studies();
    let batch = selfplay::Batch { cfgs: &studies, arena: Some(&cfg.engines), threads: cfg.threads, progress, keep: true };
    let played = selfplay::run_batch(spec, sets, &batch, resumed, sink)?;
    let pairs = cfg.pairs().into_iter().zip(played.games).map(|((a, b), games)| Pair::new(a, b, games)).collect();
    Ok(Table {
        title: played.title,
        engines: cfg.engines.clone(),
        games: cfg.games,
        seed: cfg.seed,
        random_plies: studies.iter().map(|s| s.random_plies).collect(),
        pairs,
        interrupted: played.interrupted,
        resumed: played.resumed,
    })
}

/// The Elo difference a score `s` (a share of the points, 0 to 1) implies:
/// 400·log10(s / (1 − s)); −∞ at 0 and +∞ at 1.
pub(crate) fn elo(s: f64) -> f64 {
    400.0 * (s / (1.0 - s)).log10()
}

/// An Elo difference as text: `+338`, `-74`, `+inf`, `-inf`.
pub(crate) fn elo_text(x: f64) -> String {
    match x {
        x if x == f64::INFINITY => "+inf".into(),
        x if x == f64::NEG_INFINITY => "-inf".into(),
        x => format!("{x:+.0}"),
    }
}

/// A score (a share of the points) with its 95 % interval: Wilson's, taking the score as a share
/// as self-play does (conservative, since a draw's half point varies less than a win or a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Score {
    pub(crate) p: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

impl Score {
    /// `points` of `games`.
    pub(crate) fn new(points: f64, games: u64) -> Score {
        if games == 0 {
            return Score { p: 0.0, lo: 0.0, hi: 0.0 };
        }
        let p = points / games as f64;
        let (lo, hi) = selfplay::wilson(p, games as f64);
        Score { p, lo, hi }
    }

    /// The Elo difference and its interval (from the score interval's ends).
    pub(crate) fn elo(&self) -> (f64, f64, f64) {
        (elo(self.p), elo(self.lo), elo(self.hi))
    }
}

/// One engine's results in some games: wins, draws and losses by a rule of the game, and the
/// games the move limit ended (counted apart; each scores as its result, a draw).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Tally {
    pub(crate) wins: u64,
    pub(crate) draws: u64,
    pub(crate) losses: u64,
    pub(crate) limit: u64,
    /// Points in half points (a win 2, a draw 1).
    pub(crate) halves: u64,
}

impl Tally {
    /// Counts a game for the engine `me` (its canonical name), who played it.
    fn add(&mut self, g: &GameRecord, me: &str) {
        let mine = usize::from(g.first != me);
        let halves = match g.winner() {
            None => 1,
            Some(seat) if seat == mine => 2,
            Some(_) => 0,
        };
        self.halves += halves;
        if g.reason == MOVE_LIMIT_REASON {
            self.limit += 1;
        } else {
            *[&mut self.losses, &mut self.draws, &mut self.wins][halves as usize] += 1;
        }
    }

    pub(crate) fn games(&self) -> u64 {
        self.wins + self.draws + self.losses + self.limit
    }

    pub(crate) fn score(&self) -> Score {
        Score::new(self.halves as f64 / 2.0, self.games())
    }
}

/// The games of one pair, and A's results against B.
#[derive(Clone, Debug)]
pub(crate) struct Pair {
    pub(crate) a: Engine,
    pub(crate) b: Engine,
    pub(crate) games: Vec<GameRecord>,
    /// The games that differ ([`GameRecord::identity`]): the tally counts each once.
    pub(crate) distinct: u64,
    pub(crate) tally: Tally,
    /// Why the games ended (the reason alone, whoever won), most frequent first.
    pub(crate) reasons: Vec<(String, u64)>,
}

impl Pair {
    fn new(a: Engine, b: Engine, games: Vec<GameRecord>) -> Pair {
        let mut tally = Tally::default();
        let mut reasons: BTreeMap<&str, u64> = BTreeMap::new();
        let me = a.to_string();
        let counted = selfplay::distinct_games(&games);
        for g in &counted {
            tally.add(g, &me);
            *reasons.entry(&g.reason).or_default() += 1;
        }
        let mut reasons: Vec<(String, u64)> = reasons.into_iter().map(|(r, n)| (r.to_string(), n)).collect();
        reasons.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        Pair { a, b, distinct: counted.len() as u64, games, tally, reasons }
    }

    /// `A – B`.
    pub(crate) fn name(&self) -> String {
        format!("{} – {}", self.a, self.b)
    }
}

/// One engine's seconds per move over the games that timed it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Speed {
    pub(crate) moves: u64,
    /// The median of each game's median move: the median over all moves would need every
    /// move's time, which the game records do not keep (they keep each game's moves, total,
    /// median and slowest move, so that merged and resumed files can be reported).
    pub(crate) median: f64,
    /// The slowest move.
    pub(crate) worst: f64,
}

/// An arena's results.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub(crate) title: String,
    pub(crate) engines: Vec<Engine>,
    /// Games asked for per pair.
    pub(crate) games: u64,
    pub(crate) seed: u64,
    /// Random opening decisions per game, by pair (`--random-plies`, or each pair's default).
    pub(crate) random_plies: Vec<u32>,
    pub(crate) pairs: Vec<Pair>,
    /// Ctrl-C stopped the arena: the table covers the games finished.
    pub(crate) interrupted: bool,
    /// Games read back from an earlier run rather than played here.
    pub(crate) resumed: u64,
}

impl Table {
    /// Each engine's results over all its games.
    pub(crate) fn tally(&self, e: Engine) -> Tally {
        let me = e.to_string();
        let mut t = Tally::default();
        for p in self.pairs.iter().filter(|p| p.a == e || p.b == e) {
            for g in &selfplay::distinct_games(&p.games) {
                t.add(g, &me);
            }
        }
        t
    }

    /// Each engine's seconds per move (None when no game timed it: files written without times).
    pub(crate) fn speed(&self, e: Engine) -> Option<Speed> {
        let me = e.to_string();
        let mut medians = Vec::new();
        let mut s = Speed::default();
        for g in self.pairs.iter().flat_map(|p| &p.games) {
            let times = [(&g.first, &g.first_time), (&g.second, &g.second_time)];
            for t in times.into_iter().filter(|(who, _)| **who == me).filter_map(|(_, t)| t.as_ref()).filter(|t| t.moves > 0) {
                s.moves += t.moves as u64;
                s.worst = s.worst.max(t.max);
                medians.push(t.median);
            }
        }
        medians.sort_by(f64::total_cmp);
        s.median = selfplay::median(&medians);
        (s.moves > 0).then_some(s)
    }

    /// The table as text.
    pub(crate) fn text(&self) -> String {
        let mut s = String::new();
        self.preamble(&mut s);
        let names: Vec<String> = self.pairs.iter().map(Pair::name).collect();
        let w = names.iter().map(String::as_str).chain([PAIRS_HEAD, ENGINES_HEAD]).map(|n| n.chars().count()).max().unwrap_or(0);
        self.pair_rows(&mut s, &names, w);
        self.warnings(&mut s, &names);
        let _ = writeln!(s, "why games ended");
        for (p, name) in self.pairs.iter().zip(&names) {
            let reasons: Vec<String> = p.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
            let _ = writeln!(s, "  {name:<w$}  {}", reasons.join(", "));
        }
        self.engine_rows(&mut s, w);
        s
    }

    /// The title line, and what changes how the table reads: random openings, an interrupted
    /// or resumed run.
    fn preamble(&self, s: &mut String) {
        let played: usize = self.pairs.iter().map(|p| p.games.len()).sum();
        let _ = writeln!(
            s,
            "{}: {} engines, {} {}, {} {} a pair (colours alternating), seed {}",
            self.title,
            self.engines.len(),
            self.pairs.len(),
            if self.pairs.len() == 1 { "pair" } else { "pairs" },
            self.games,
            if self.games == 1 { "game" } else { "games" },
            self.seed
        );
        let most = self.random_plies.iter().copied().max().unwrap_or(0);
        if most > 0 && self.random_plies.iter().all(|&n| n == most) {
            let _ = writeln!(s, "each game opens with {most} random decisions, the same in both games of a colour-swapped pair");
        } else if most > 0 {
            let _ = writeln!(
                s,
                "games between two engines that do not vary their games by themselves open with {most} random decisions (the same in both games of a colour-swapped pair); the others with none"
            );
        }
        if self.interrupted {
            let _ = writeln!(s, "interrupted (Ctrl-C): the table covers the {played} games finished");
        }
        if self.resumed > 0 {
            let _ = writeln!(s, "{} of the {played} games read back from the earlier run (--resume-from)", self.resumed);
        }
    }

    /// A row per pair (`names`, in a column `w` wide), with the Elo difference it implies.
    fn pair_rows(&self, s: &mut String, names: &[String], w: usize) {
        let _ = writeln!(s, "{}  Elo A − B [95%]", head(PAIRS_HEAD, "A's score [95%]", w));
        let mut infinite = false;
        for (p, name) in self.pairs.iter().zip(names) {
            let (e, lo, hi) = p.tally.score().elo();
            infinite |= [e, lo, hi].iter().any(|x| x.is_infinite());
            let _ = writeln!(s, "{}  {:>5} [{}, {}]", row(name, &p.tally, w), elo_text(e), elo_text(lo), elo_text(hi));
        }
        if infinite {
            let _ = writeln!(s, "(±inf: a score, or an end of its interval, of 0% or 100% implies no finite Elo difference)");
        }
    }

    /// What makes a pair's score say less than it seems: repeated games, games ended by the
    /// move limit.
    fn warnings(&self, s: &mut String, names: &[String]) {
        for (p, name) in self.pairs.iter().zip(names) {
            let n = p.games.len() as u64;
            if (p.distinct as f64) < selfplay::DISTINCT_WARNING * n as f64 {
                let _ = writeln!(
                    s,
                    "WARNING: only {} of the {n} games of {name} differ: the engines repeat themselves; each distinct game counts once (--random-plies varies the openings)",
                    p.distinct
                );
            }
            let t = &p.tally;
            if t.games() > 0 && t.limit as f64 / t.games() as f64 > CAPPED_WARNING {
                let _ = writeln!(
                    s,
                    "WARNING: {} of the games of {name} ended at the move limit, not by a rule of the game: their score measures the limit as much as the engines",
                    pct(t.limit as f64 / t.games() as f64)
                );
            }
        }
    }

    /// A row per engine over all its games, then each engine's time per move.
    fn engine_rows(&self, s: &mut String, w: usize) {
        let _ = writeln!(s, "{}", head(ENGINES_HEAD, "score [95%]", w).trim_end());
        for &e in &self.engines {
            let _ = writeln!(s, "{}", row(&e.to_string(), &self.tally(e), w).trim_end());
        }
        let _ = writeln!(s, "time per move (wall time; median: the median of each game's median move)");
        let _ = writeln!(s, "{:<w$} {:>8} {:>10} {:>10}", "engine", "moves", "median", "worst");
        for &e in &self.engines {
            match self.speed(e) {
                Some(t) => {
                    let _ = writeln!(s, "{:<w$} {:>8} {:>10} {:>10}", e.to_string(), t.moves, duration(t.median), duration(t.worst));
                }
                None => {
                    let _ = writeln!(s, "{:<w$} (not timed)", e.to_string());
                }
            }
        }
    }
}

/// The first column's heads of the pairs' table and of the engines'.
const PAIRS_HEAD: &str = "pair (A – B)";
const ENGINES_HEAD: &str = "engine (all its games)";

/// A share as a percentage with one decimal.
fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A table's head, its first column `w` wide.
fn head(first: &str, score: &str, w: usize) -> String {
    format!("{first:<w$} {:>6} {:>5} {:>5} {:>5} {:>5} {score:<25}", "games", "win", "draw", "loss", "limit")
}

/// A table's row: games, wins, draws, losses, games ended by the limit, the score and its
/// interval, the name's column `w` wide.
fn row(name: &str, t: &Tally, w: usize) -> String {
    let sc = t.score();
    let interval = format!("[{} – {}]", pct(sc.lo), pct(sc.hi));
    format!("{name:<w$} {:>6} {:>5} {:>5} {:>5} {:>5} {:>7} {interval:<17}", t.games(), t.wins, t.draws, t.losses, t.limit, pct(sc.p))
}

/// Seconds as text to three significant figures, in the unit that suits them: `1.25 s`,
/// `12.5 ms`, `641 µs`, `0.64 µs` (a random player's pick).
pub(crate) fn duration(secs: f64) -> String {
    match secs {
        s if s >= 1.0 => format!("{} s", sig3(s)),
        s if s >= 1e-3 => format!("{} ms", sig3(s * 1e3)),
        s => format!("{} µs", sig3(s * 1e6)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(engines: &[&str], games: u64) -> Result<Config, ArenaError> {
        Config::new(&engines.iter().map(|e| e.to_string()).collect::<Vec<_>>(), games, 1, 1, false)
    }

    #[test]
    fn elo_of_scores() {
        assert_eq!(elo(0.5), 0.0);
        // 3 wins in 4 points: 400·log10(3) = 190.85; 7 in 8: 400·log10(7) = 338.04.
        assert!((elo(0.75) - 190.85).abs() < 0.01);
        assert!((elo(0.875) - 338.04).abs() < 0.01);
        assert!((elo(0.25) + 190.85).abs() < 0.01);
        assert_eq!((duration(2.5), duration(0.0125), duration(0.000000641)), ("2.50 s".into(), "12.5 ms".into(), "0.641 µs".into()));
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
        assert_eq!(
            (elo_text(elo(1.0)), elo_text(elo(0.0)), elo_text(338.04), elo_text(-73.6)),
            ("+inf".into(), "-inf".into(), "+338".into(), "-74".into())
        );
    }

    #[test]
    fn a_score_and_its_interval() {
        // 3 wins, 1 draw, 0 losses: 3.5 of 4 points, 87.5 %. Wilson (z = 1.96, n = 4):
        // centre (0.875 + 3.8416/8) / (1 + 3.8416/4) = 1.35520 / 1.96040 = 0.691288;
        // half 1.96·√(0.875·0.125/4 + 3.8416/64) / 1.96040 = 1.96·√0.0873688 / 1.96040 = 0.295522;
        // so [39.58 %, 98.68 %], Elo +338 [-74, +750].
        let s = Score::new(3.5, 4);
        assert!((s.p - 0.875).abs() < 1e-12);
        assert!((s.lo - 0.395766).abs() < 1e-5 && (s.hi - 0.986810).abs() < 1e-5, "{s:?}");
        let (e, lo, hi) = s.elo();
        assert_eq!((elo_text(e), elo_text(lo), elo_text(hi)), ("+338".into(), "-74".into(), "+750".into()));
        // No games: nothing to say, and no panic.
        assert_eq!(Score::new(0.0, 0), Score { p: 0.0, lo: 0.0, hi: 0.0 });
    }

    #[test]
    fn a_tally_counts_the_move_limit_apart() {
        let game = |white: &str, result: &str, reason: &str| GameRecord {
            variant: "x".into(),
            result: result.into(),
            reason: reason.into(),
            plies: 1,
            first: white.into(),
            second: if white == "a" { "b".into() } else { "a".into() },
            ..GameRecord::default()
        };
        let mut t = Tally::default();
        for g in [
            game("a", "white", "r"),
            game("b", "black", "r"),
            game("b", "white", "r"),
            game("a", "draw", "r"),
            game("b", "draw", MOVE_LIMIT_REASON),
        ] {
            t.add(&g, "a");
        }
        assert_eq!(t, Tally { wins: 2, draws: 1, losses: 1, limit: 1, halves: 6 });
        assert_eq!(t.games(), 5);
        assert!((t.score().p - 0.6).abs() < 1e-12);
    }

    #[test]
    fn engines_are_checked() {
        assert!(matches!(config(&["random"], 4), Err(ArenaError::TooFew(1))));
        assert!(matches!(config(&["random", "ab:d4", "ab d4"], 4), Err(ArenaError::Duplicate(..))));
        assert!(matches!(config(&["random", "alphazero"], 4), Err(ArenaError::Engine(_))));
        assert!(matches!(config(&["random", "ab"], 0), Err(ArenaError::Games(0))));
        assert!(matches!(config(&["random", "ab"], MAX_GAMES + 1), Err(ArenaError::Games(_))));
        let many: Vec<String> = (1..=MAX_ENGINES as u32 + 1).map(|d| format!("mcts:{d}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(matches!(config(&many, 4), Err(ArenaError::TooMany(13))));
        assert!(config(&many[..MAX_ENGINES], 4).is_ok());
        let c = config(&["random", "ab:d1", "mcts:20"], 4).unwrap();
        let names: Vec<String> = c.pairs().iter().map(|(a, b)| format!("{a}-{b}")).collect();
        assert_eq!(names, ["random-ab:d1", "random-mcts:20", "ab:d1-mcts:20"]);
        assert!(c.studies().iter().all(|s| s.alternate && s.time_moves));
        assert!(config(&["random"], 4).unwrap_err().is_usage());
        assert!(!ArenaError::Study(SelfplayError::Panicked).is_usage());
    }
}
