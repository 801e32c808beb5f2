//! Self-play: N machine games of a variant and a report of what they say about it (results with
//! confidence intervals, why games ended, lengths, branching, the game-quality metrics of
//! [`quality`], the opening table of [`openings`], speed); two rule sets compared on the same
//! seeds ([`compare`]); a one-page picture ([`svg`]); JSON lines per game so shards played
//! anywhere merge into one report.
//!
//! Game `i` uses a seed derived from the study's seed and `i` alone, so the report (all but the
//! speed line) is the same for any number of threads or shards.

mod compare;
pub mod openings;
pub mod quality;
mod svg;

pub use compare::compare;
pub use svg::svg;

use crate::ai::{self, Engine, EngineError};
use crate::movegen::Counted;
use crate::outcome::Winner;
use crate::script::ScriptError;
use crate::variant::Variant;
use crate::{Move, MoveList, Position};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Instant;

use openings::openings;
use quality::Quality;

/// Why a study could not be played or read.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    /// The REPL's arguments do not say what to play: the usage.
    #[error("usage: selfplay N [--white random|mcts:ITER] [--black …] [--seed S]")]
    Usage,
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The variant does not load (the diagnostic, rendered).
    #[error("{0}")]
    Load(String),
    #[error(transparent)]
    Script(#[from] ScriptError),
    #[error(transparent)]
    Interrupted(#[from] crate::interrupt::Interrupted),
    #[error("a self-play thread panicked")]
    Panicked,
    #[error("{}: {source}", path.display())]
    Read { path: std::path::PathBuf, source: std::io::Error },
    #[error("{}:{line}: not a game record: {source}", path.display())]
    NotARecord { path: std::path::PathBuf, line: usize, source: serde_json::Error },
    #[error("no games in these files")]
    NoGames,
    /// The games' sink (a JSON-lines file) could not be written.
    #[error("{0}")]
    Output(std::io::Error),
    /// `--resume-from` names games of another study.
    #[error("{0}")]
    OtherStudy(String),
}

impl From<ai::SearchError> for SelfplayError {
    fn from(e: ai::SearchError) -> SelfplayError {
        match e {
            ai::SearchError::Script(e) => e.into(),
            ai::SearchError::Interrupted(i) => i.into(),
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct Config {
    pub games: u64,
    pub seed: u64,
    pub white: Engine,
    pub black: Engine,
    pub threads: usize,
    /// Play only the games whose index is `shard.0` mod `shard.1`.
    pub shard: Option<(u64, u64)>,
    /// Keep every move's text (for JSON lines; costs time). Without it a game keeps its first
    /// [`OPENING_PLIES`] moves, for the opening table.
    pub record_moves: bool,
    /// Odd games swap the players: `black` plays first in them (the arena, where each engine
    /// of a pair plays both sides equally often).
    pub alternate: bool,
    /// Time each player's moves ([`GameRecord::white_time`]; the arena's seconds per move).
    pub time_moves: bool,
    /// The first decisions of each game are uniformly random (the same ones in both games of a
    /// colour-swapped pair when `alternate`): varied openings for deterministic engines.
    pub random_plies: u32,
}

/// Mixed into the study's seed for the random openings' generator.
const OPENING_SALT: u64 = 0x6f70_656e_696e_6773;

impl Config {
    /// `N [--white E] [--black E] [--seed S]` as typed in the REPL.
    ///
    /// # Errors
    /// A missing count or a bad engine.
    pub fn from_repl_args(args: &[String], seed: u64) -> Result<Config, SelfplayError> {
        let usage = SelfplayError::Usage;
        let mut c = Config {
            games: 0,
            seed,
            white: Engine::Random,
            black: Engine::Random,
            threads: 1,
            shard: None,
            record_moves: false,
            alternate: false,
            time_moves: false,
            random_plies: 0,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--white" => c.white = Engine::parse(it.next().ok_or(SelfplayError::Usage)?)?,
                "--black" => c.black = Engine::parse(it.next().ok_or(SelfplayError::Usage)?)?,
                "--seed" => c.seed = it.next().and_then(|s| s.parse().ok()).ok_or(SelfplayError::Usage)?,
                n => c.games = n.parse().map_err(|_| SelfplayError::Usage)?,
            }
        }
        if c.games == 0 {
            return Err(usage);
        }
        Ok(c)
    }

    /// Whether a player searches (`ab`, `mcts`): then each position also gets a one-ply look at
    /// every legal move ([`GameRecord::near_forced`]), which costs little beside a search and
    /// several times a random game.
    pub fn looks(&self) -> bool {
        self.white != Engine::Random || self.black != Engine::Random
    }

    fn indices(&self) -> Vec<u64> {
        (0..self.games).filter(|i| self.shard.is_none_or(|(k, n)| i % n == k)).collect()
    }

    /// Who plays game `index`: (the first player, the second).
    pub fn players(&self, index: u64) -> (Engine, Engine) {
        if self.alternate && index % 2 == 1 { (self.black, self.white) } else { (self.white, self.black) }
    }
}

/// The seed of game `index` of a study seeded with `seed` (SplitMix64 of both).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0x6A09_E667_F3BC_C909);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One game, as written to a JSON-lines file.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    pub index: u64,
    pub seed: u64,
    pub variant: String,
    pub options: BTreeMap<String, String>,
    /// `white` (the first player won), `black` (the second) or `draw`.
    pub result: String,
    pub reason: String,
    pub plies: u32,
    pub moves: Vec<String>,
    /// The number of legal moves in each position where a decision was made.
    pub branching: Vec<u32>,
    /// The players (`random`, `mcts:1000`), so a resumed study is the same study (absent in
    /// files written before they were recorded).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub white: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub black: String,
    /// The time each player took to choose its moves, when the study timed them
    /// ([`Config::time_moves`]; absent otherwise and in files written before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_time: Option<MoveTimes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_time: Option<MoveTimes>,
    /// The variant's evaluation of each position where a decision was made (as `branching`), as
    /// white's score in units (1000 = an ordinary piece): what the quality metrics read (absent
    /// in files written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<Vec<i32>>,
    /// Turns: runs of decisions by one player (a continuation's extra decisions are the same
    /// turn); absent in files written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<u32>,
    /// The positions where one move stood out by a one-ply look ([`quality::near_forced`]),
    /// when a player searched ([`Config::looks`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near_forced: Option<u32>,
    /// How many opening decisions were random ([`Config::random_plies`]; 0 when absent).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub random_plies: u32,
}

/// The plies of each game kept for the opening table when the moves are not all recorded.
pub const OPENING_PLIES: usize = 3;

/// The wall time one player took to choose its moves in one game, in seconds: enough for a
/// report of many games, merged or resumed, to give each player's typical and worst move.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
pub struct MoveTimes {
    pub moves: u32,
    pub total: f64,
    pub median: f64,
    pub max: f64,
}

impl MoveTimes {
    /// The times of a player's moves (in any order).
    fn of(mut secs: Vec<f64>) -> MoveTimes {
        secs.sort_by(f64::total_cmp);
        MoveTimes { moves: secs.len() as u32, total: secs.iter().sum(), median: median(&secs), max: secs.last().copied().unwrap_or(0.0) }
    }
}

/// The median of sorted numbers (0 for none).
pub fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// What one thread of a study plays its games on, kept from game to game so that a game
/// allocates only what its record keeps: the variant, its start position, the position
/// played, the move list, the counts of a random pick, the evaluator's lists.
pub struct Desk<'a> {
    v: &'a Variant,
    start: Position,
    pos: Position,
    moves: MoveList,
    shares: Counted,
    evaluator: ai::Evaluator<'a>,
    /// The lists a game grows, kept from game to game: a record gets copies of its own length,
    /// so neither a game nor the study's memory pays for room a short game never used.
    branching: Vec<u32>,
    eval: Vec<i32>,
    /// The players' names as written in records (a study has one or two players).
    names: Vec<(Engine, String)>,
}

impl<'a> Desk<'a> {
    /// A desk for games of `v`.
    pub fn new(v: &'a Variant) -> Desk<'a> {
        let start = v.start();
        Desk {
            v,
            pos: start.clone(),
            start,
            moves: Vec::with_capacity(64),
            shares: Counted::default(),
            evaluator: ai::Evaluator::new(v),
            branching: Vec::new(),
            eval: Vec::new(),
            names: Vec::new(),
        }
    }

    /// `e`'s name as records write it.
    fn name(&mut self, e: Engine) -> String {
        if let Some((_, n)) = self.names.iter().find(|(x, _)| *x == e) {
            return n.clone();
        }
        let n = e.to_string();
        self.names.push((e, n.clone()));
        n
    }
}

/// Plays game `index` of a study on `desk`.
///
/// # Errors
/// A script hook failed.
pub fn play_game(cfg: &Config, index: u64, desk: &mut Desk<'_>) -> Result<GameRecord, SelfplayError> {
    let seed = game_seed(cfg.seed, index);
    let mut rng = ai::rng(seed);
    let (white, black) = cfg.players(index);
    let names = (desk.name(white), desk.name(black));
    let Desk { v, start, pos, moves, shares, evaluator, branching, eval, .. } = desk;
    let v: &Variant = v;
    pos.clone_from(start);
    let g = &v.rules.geometry;
    let mut texts = Vec::with_capacity(if cfg.record_moves { 0 } else { OPENING_PLIES });
    branching.clear();
    eval.clear();
    let mut plies = 0u32;
    // Seconds per decision, by player (first, second).
    let mut times: [Vec<f64>; 2] = [vec![], vec![]];
    let mut turns = 0u32;
    let mut last_side = None;
    let mut near_forced = cfg.looks().then_some(0u32);
    let pair = if cfg.alternate { index / 2 } else { index };
    let mut opening = ai::rng(game_seed(cfg.seed ^ OPENING_SALT, pair));
    loop {
        crate::interrupt::check()?;
        // Random players need the list's length and one move of it: where the cell sets can,
        // the moves are counted and only the one drawn is found (the same move, index for index).
        let counted = !cfg.looks() && v.count_to_pick(pos, shares);
        // Where the list is every move the mobility term counts, or was built from them, the
        // evaluation need not count them again.
        let (n, listed) = if counted {
            let n = shares.n as usize;
            (n, v.counts_every_kernel_move(shares).then_some(n))
        } else {
            let kernel = v.legal_moves_and_mobility(pos, moves)?;
            (moves.len(), kernel)
        };
        if n == 0 {
            break;
        }
        branching.push(n as u32);
        let side = pos.side();
        let first = side == crate::Player::FIRST;
        // The evaluation is from the point of view of the player to decide: white's is the
        // same number or its negation.
        let e = evaluator.score_counted(pos, listed)?;
        eval.push(if first { e } else { -e });
        if last_side != Some(side) {
            turns += 1;
            last_side = Some(side);
        }
        if let Some(n) = &mut near_forced {
            *n += u32::from(quality::near_forced(v, evaluator, pos, moves)?);
        }
        let t = cfg.time_moves.then(Instant::now);
        let m = match if first { white } else { black } {
            _ if plies < cfg.random_plies => {
                drawn(v, pos, counted.then_some(&*shares), rand::RngExt::random_range(&mut opening, 0..n), moves)
            }
            Engine::Random => drawn(v, pos, counted.then_some(&*shares), rand::RngExt::random_range(&mut rng, 0..n), moves),
            e => ai::choose(v, pos, e, &mut rng)?.expect("a move exists"),
        };
        if let Some(t) = t
            && plies >= cfg.random_plies
        {
            times[usize::from(!first)].push(t.elapsed().as_secs_f64());
        }
        if cfg.record_moves || texts.len() < OPENING_PLIES {
            texts.push(m.text(g));
        }
        plies += 1;
        v.make(pos, &m)?;
    }
    let out = v.outcome(pos)?.expect("a finished game has a result");
    let result = match out.winner {
        // The first player is "white" and the second "black" whatever the variant calls them, so
        // reports and merged files count results the same way for every variant.
        Winner::Player(p) if p == crate::Player::FIRST => "white".into(),
        Winner::Player(_) => "black".into(),
        Winner::Draw => "draw".into(),
    };
    Ok(GameRecord {
        index,
        seed,
        variant: v.name().to_string(),
        options: v.overrides.iter().cloned().collect(),
        result,
        reason: out.reason.to_string(),
        plies,
        moves: texts,
        branching: branching.clone(),
        white: names.0,
        black: names.1,
        white_time: cfg.time_moves.then(|| MoveTimes::of(std::mem::take(&mut times[0]))),
        black_time: cfg.time_moves.then(|| MoveTimes::of(std::mem::take(&mut times[1]))),
        eval: Some(eval.clone()),
        turns: Some(turns),
        near_forced,
        random_plies: cfg.random_plies.min(plies),
    })
}

/// The legal move at `index`: from `moves`, the legal list, or where the moves were only
/// counted (`counted`, [`Variant::count_to_pick`]), found without the list.
fn drawn(v: &Variant, pos: &mut Position, counted: Option<&Counted>, index: usize, moves: &mut MoveList) -> Move {
    match counted {
        Some(c) => v.nth_move(pos, c, index as u64, moves),
        None => moves[index],
    }
}

/// The options self-play sets unless given: `move_limit = 1000`.
pub fn with_move_limit(sets: &[(String, String)]) -> Vec<(String, String)> {
    let mut s = sets.to_vec();
    if !s.iter().any(|(k, _)| k == "move_limit") {
        s.push(("move_limit".into(), "1000".into()));
    }
    s
}

/// Where a study's games go as they finish: a JSON-lines file flushed game by game, so a run
/// killed after hours keeps every finished game (`--resume-from` continues it).
pub type Sink<'a> = &'a mut dyn FnMut(&GameRecord) -> std::io::Result<()>;

/// Plays a study on `threads` threads (all sharing one loaded variant), with a progress bar on
/// standard error when `progress`. Games already in `resumed` (from an earlier run of the same
/// study, see [`resumable`]) are not played again but count in the report. Each new game goes
/// to `sink` as it finishes. Ctrl-C stops the study: the report covers the finished games and
/// says it was interrupted.
///
/// # Errors
/// The variant does not load, a script hook failed, `sink` failed, or a resumed game belongs
/// to another study.
pub fn run_into(
    spec: &str,
    sets: &[(String, String)],
    cfg: &Config,
    progress: bool,
    resumed: &[GameRecord],
    sink: Sink,
) -> Result<Report, SelfplayError> {
    run_batch(spec, sets, std::slice::from_ref(cfg), cfg.threads, progress, resumed, sink).map(Played::report)
}

/// The games of several studies of one variant played together (see [`run_batch`]).
#[derive(Clone, Debug)]
pub struct Played {
    /// The rule set: the variant and the options given.
    pub title: String,
    /// Each study's games, in the order of its configuration, by index.
    pub games: Vec<Vec<GameRecord>>,
    /// Ctrl-C stopped the batch: `games` are those finished.
    pub interrupted: bool,
    /// Games read back from an earlier run rather than played here.
    pub resumed: u64,
    /// Seconds the games took, when all were played here.
    pub seconds: Option<f64>,
}

impl Played {
    /// The report of the first (for a batch of one, the only) study.
    fn report(self) -> Report {
        let mut report = Report::new(self.title, self.games.into_iter().next().unwrap_or_default(), self.seconds);
        report.interrupted = self.interrupted;
        report.resumed = self.resumed;
        report
    }
}

/// Several studies of one variant played as one (the arena's, one per pair of engines): one
/// pool of `threads` threads, one progress bar, one sink. Otherwise as [`run_into`]: `resumed`
/// games of these studies are not played again, Ctrl-C stops with the games finished.
///
/// # Errors
/// The variant does not load, a script hook failed, `sink` failed, or a resumed game belongs
/// to another study.
pub fn run_batch(
    spec: &str,
    sets: &[(String, String)],
    cfgs: &[Config],
    threads: usize,
    progress: bool,
    resumed: &[GameRecord],
    sink: Sink,
) -> Result<Played, SelfplayError> {
    let v = Variant::load(spec, &with_move_limit(sets)).map_err(|e| SelfplayError::Load(e.render(false)))?;
    let mine = resumable(&v, cfgs, resumed)?;
    let total: usize = cfgs.iter().map(|c| c.indices().len()).sum();
    let bar = progress.then(|| progress_bar(total as u64, v.name()));
    if let Some(b) = &bar {
        b.inc(mine.iter().map(Vec::len).sum::<usize>() as u64);
    }
    let tick = |_: &GameRecord| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let played = study(&v, cfgs, threads, mine, &mut |g| {
        tick(g);
        sink(g)
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    played
}

/// [`run_into`] with nothing resumed and the games kept in the report only.
///
/// # Errors
/// The variant does not load, or a script hook failed.
pub fn run(spec: &str, sets: &[(String, String)], cfg: &Config, progress: bool) -> Result<Report, SelfplayError> {
    run_into(spec, sets, cfg, progress, &[], &mut |_| Ok(()))
}

/// Plays a study on an already loaded variant, on this thread (the REPL's `selfplay`);
/// `each` hears of every finished game (for a progress line).
///
/// # Errors
/// A script hook failed.
pub fn run_variant(v: &Variant, cfg: &Config, each: &mut dyn FnMut(&GameRecord)) -> Result<Report, SelfplayError> {
    let v = v.with_options(&with_move_limit(&v.overrides)).map_err(|e| SelfplayError::Load(e.render(false)))?;
    let played = study(&v, std::slice::from_ref(cfg), 1, vec![vec![]], &mut |g| {
        each(g);
        Ok(())
    });
    played.map(Played::report)
}

/// The games of `resumed` that belong to these studies (same variant and options, same engines,
/// seeds derived from the same study seed): for each study, its games by index. A game goes to
/// the study whose two engines played it (with one study, to that study).
///
/// # Errors
/// A game of this rule set was played with another seed or other players: continuing would mix
/// two studies.
pub fn resumable(v: &Variant, cfgs: &[Config], resumed: &[GameRecord]) -> Result<Vec<Vec<GameRecord>>, SelfplayError> {
    let title = describe(v);
    let mut out: Vec<BTreeMap<u64, GameRecord>> = vec![BTreeMap::new(); cfgs.len()];
    let met = |c: &Config, g: &GameRecord| {
        let (w, b) = (c.white.to_string(), c.black.to_string());
        (g.white == w && g.black == b) || (g.white == b && g.black == w)
    };
    for g in resumed {
        let k = if cfgs.len() == 1 { Some(0) } else { cfgs.iter().position(|c| met(c, g)) };
        let Some((k, cfg)) = k.map(|k| (k, &cfgs[k])) else {
            if title_of(g) == title {
                return Err(SelfplayError::OtherStudy(format!(
                    "game {} of {title} was played by {} against {}, who do not meet in this study",
                    g.index, g.white, g.black
                )));
            }
            continue;
        };
        if title_of(g) != title || !cfg.indices().contains(&g.index) {
            continue;
        }
        let (w, b) = cfg.players(g.index);
        let players = (w.to_string(), b.to_string());
        if g.random_plies != cfg.random_plies {
            return Err(SelfplayError::OtherStudy(format!(
                "game {} of {title} opened with {} random decisions, not this study's {} (--random-plies)",
                g.index, g.random_plies, cfg.random_plies
            )));
        }
        if g.seed != game_seed(cfg.seed, g.index) || (!g.white.is_empty() && (g.white.clone(), g.black.clone()) != players) {
            return Err(SelfplayError::OtherStudy(format!(
                "game {} of {title} was played with seed {} by {} against {}, not this study's (--seed {}, {} against {})",
                g.index, g.seed, g.white, g.black, cfg.seed, players.0, players.1
            )));
        }
        out[k].insert(g.index, g.clone());
    }
    Ok(out.into_iter().map(|m| m.into_values().collect()).collect())
}

/// The games of the studies `cfgs` not in `done` (by study), played on `threads` threads; every
/// finished game goes to `sink` (on this thread, in the order they finish).
fn study(v: &Variant, cfgs: &[Config], threads: usize, done: Vec<Vec<GameRecord>>, sink: Sink) -> Result<Played, SelfplayError> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    // Each game to play: (its study, its index).
    let mut jobs: Vec<(usize, u64)> = Vec::new();
    for (k, cfg) in cfgs.iter().enumerate() {
        let skip: std::collections::BTreeSet<u64> = done.get(k).into_iter().flatten().map(|g| g.index).collect();
        jobs.extend(cfg.indices().into_iter().filter(|i| !skip.contains(i)).map(|i| (k, i)));
    }
    let resumed: usize = done.iter().map(Vec::len).sum();
    let mut games = done;
    games.resize(cfgs.len(), vec![]);
    // Room for every game to come, so that the records are never moved as the lists grow.
    for (k, list) in games.iter_mut().enumerate() {
        list.reserve(jobs.iter().filter(|j| j.0 == k).count());
    }
    let mut failure: Option<SelfplayError> = None;
    let mut interrupted = false;
    let t = Instant::now();
    // Takes one finished game of study `k` (or why it did not finish); false: stop the study.
    let mut take = |(k, r): (usize, Result<GameRecord, SelfplayError>)| -> bool {
        match r.and_then(|g| sink(&g).map(|()| g).map_err(SelfplayError::Output)) {
            Ok(g) => {
                games[k].push(g);
                true
            }
            Err(SelfplayError::Interrupted(_)) => {
                interrupted = true;
                false
            }
            Err(e) => {
                failure.get_or_insert(e);
                false
            }
        }
    };
    let play = |desk: &mut Desk, &(k, i): &(usize, u64)| (k, play_game(&cfgs[k], i, desk));
    let threads = threads.max(1).min(jobs.len().max(1));
    let mut panicked = false;
    if threads == 1 {
        let mut desk = Desk::new(v);
        for job in &jobs {
            if !take(play(&mut desk, job)) {
                break;
            }
        }
    } else {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            let (tx, rx) = std::sync::mpsc::channel();
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let tx = tx.clone();
                    let (next, stop, jobs, play) = (&next, &stop, &jobs, &play);
                    s.spawn(move || {
                        let mut desk = Desk::new(v);
                        while !stop.load(Ordering::Relaxed) {
                            let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                            let r = play(&mut desk, job);
                            let failed = r.1.is_err();
                            if tx.send(r).is_err() || failed {
                                break;
                            }
                        }
                    })
                })
                .collect();
            drop(tx);
            for r in &rx {
                if !take(r) {
                    break;
                }
            }
            stop.store(true, Ordering::Relaxed);
            drop(rx);
            panicked = handles.into_iter().any(|h| h.join().is_err());
        });
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if panicked {
        return Err(SelfplayError::Panicked);
    }
    for g in &mut games {
        g.sort_by_key(|g| g.index);
    }
    // The speed is for the games played here; resumed games were timed elsewhere.
    let seconds = (resumed == 0).then(|| t.elapsed().as_secs_f64());
    Ok(Played { title: describe(v), games, interrupted, resumed: resumed as u64, seconds })
}

/// Reads the finished games of a JSON-lines file for `--resume-from`, and how many of its bytes
/// hold them: a last line cut off by a kill is not a game (appending starts where it began).
///
/// # Errors
/// The file cannot be read, or a line before the last is not a game record.
pub fn read_resumable(path: &std::path::Path) -> Result<(Vec<GameRecord>, u64), SelfplayError> {
    let text = std::fs::read_to_string(path).map_err(|source| SelfplayError::Read { path: path.to_path_buf(), source })?;
    let mut games = Vec::new();
    let mut good = 0u64;
    let mut at = 0usize;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        at += line.len();
        if line.trim().is_empty() {
            good = at as u64;
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(g) if line.ends_with('\n') => {
                games.push(g);
                good = at as u64;
            }
            // The last line, cut off mid-write.
            _ if at == text.len() => break,
            Ok(_) => unreachable!("only the last line can lack its newline"),
            Err(source) => return Err(SelfplayError::NotARecord { path: path.to_path_buf(), line: i + 1, source }),
        }
    }
    Ok((games, good))
}

fn describe(v: &Variant) -> String {
    title(v.name(), v.overrides.iter().map(|(k, x)| (k.as_str(), x.as_str())))
}

fn title_of(g: &GameRecord) -> String {
    title(&g.variant, g.options.iter().map(|(k, v)| (k.as_str(), v.as_str())))
}

/// A rule set's title: the variant and the options given (self-play's own `move_limit = 1000`
/// left out).
fn title<'a>(variant: &str, options: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let opts: Vec<String> = options.filter(|(k, v)| !(*k == "move_limit" && *v == "1000")).map(|(k, x)| format!("{k}={x}")).collect();
    if opts.is_empty() { variant.to_string() } else { format!("{variant} ({})", opts.join(", ")) }
}

fn progress_bar(n: u64, name: &str) -> indicatif::ProgressBar {
    let b = indicatif::ProgressBar::new(n);
    b.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} games, {elapsed} elapsed, eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    b.set_message(name.to_string());
    b
}

/// A proportion with its 95 % Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    pub count: u64,
    pub p: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Share {
    pub fn new(count: u64, n: u64) -> Share {
        if n == 0 {
            return Share { count, p: 0.0, lo: 0.0, hi: 0.0 };
        }
        let p = count as f64 / n as f64;
        let (lo, hi) = wilson(p, n as f64);
        Share { count, p, lo, hi }
    }
}

/// The numbers of a study.
#[derive(Clone, Debug)]
pub struct Report {
    pub title: String,
    pub games: Vec<GameRecord>,
    pub n: u64,
    pub white: Share,
    pub black: Share,
    pub draws: Share,
    /// White's score (wins + half the draws) over the games, with a 95 % interval (Wilson's,
    /// treating the score as a share: conservative, since a draw's half point varies less than a
    /// win or a loss, and always within [0, 1]).
    pub white_score: (f64, f64, f64),
    pub reasons: Vec<(String, u64)>,
    pub length: Lengths,
    /// Mean legal moves per position: overall, per third of the game, and the maximum.
    pub branching: Branching,
    /// Seconds the study took, when it was played here (not for merged files).
    pub seconds: Option<f64>,
    /// Ctrl-C stopped the study: the report covers the games finished.
    pub interrupted: bool,
    /// Games read back from an earlier run (`--resume-from`) rather than played here.
    pub resumed: u64,
    /// Games that ended at the move limit rather than by a rule of the game.
    pub capped: Share,
    /// Who played white and black (`random`, `mcts:1000`), when the games say and agree.
    pub players: Option<(String, String)>,
    /// Every game-quality metric over the games.
    pub quality: Quality,
    /// The plies the opening table looks at (1 by default; `--openings N`).
    pub opening_plies: usize,
}

/// The rows of the opening table a report shows (more when flagged).
pub const OPENING_ROWS: usize = 20;

/// The reason a game cut by the move limit gives.
pub const MOVE_LIMIT_REASON: &str = "move limit";

/// Above this share of games ended by the move limit, a report warns that it measures the limit
/// and marks nothing significant.
pub const CAPPED_WARNING: f64 = 0.25;

#[derive(Clone, Debug, PartialEq)]
pub struct Lengths {
    pub mean: f64,
    /// The standard deviation (for comparing means).
    pub sd: f64,
    pub median: f64,
    pub p10: u32,
    pub p90: u32,
    pub min: u32,
    pub max: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Branching {
    pub mean: f64,
    pub phases: [f64; 3],
    pub max: u32,
    pub positions: u64,
}

/// The first player's points for a result: 1 a win, 0.5 a draw, 0 a loss.
fn score_of(result: &str) -> f64 {
    match result {
        "white" => 1.0,
        "draw" => 0.5,
        _ => 0.0,
    }
}

/// Why games ended (`white wins: …`, `draw: …`), most frequent first.
fn reasons(games: &[GameRecord]) -> Vec<(String, u64)> {
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    for g in games {
        let key = if g.result == "draw" { format!("draw: {}", g.reason) } else { format!("{} wins: {}", g.result, g.reason) };
        *reasons.entry(key).or_default() += 1;
    }
    let mut reasons: Vec<(String, u64)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    reasons
}

impl Lengths {
    /// The length statistics of some games.
    fn of(games: &[GameRecord]) -> Lengths {
        let mut lens: Vec<u32> = games.iter().map(|g| g.plies).collect();
        lens.sort_unstable();
        let lf: Vec<f64> = lens.iter().map(|&x| x as f64).collect();
        let mean = if lf.is_empty() { 0.0 } else { lf.iter().sum::<f64>() / lf.len() as f64 };
        Lengths {
            mean,
            sd: sd(&lf),
            median: median(&lf),
            p10: quantile(&lens, 0.1),
            p90: quantile(&lens, 0.9),
            min: lens.first().copied().unwrap_or(0),
            max: lens.last().copied().unwrap_or(0),
        }
    }
}

impl Branching {
    /// The branching statistics of some games: overall, per third of each game, the maximum.
    fn of(games: &[GameRecord]) -> Branching {
        let mut sum = 0u64;
        let mut positions = 0u64;
        let mut phase_sum = [0u64; 3];
        let mut phase_n = [0u64; 3];
        let mut max = 0;
        for g in games {
            let len = g.branching.len();
            for (i, &b) in g.branching.iter().enumerate() {
                sum += b as u64;
                positions += 1;
                max = max.max(b);
                let ph = (i * 3 / len.max(1)).min(2);
                phase_sum[ph] += b as u64;
                phase_n[ph] += 1;
            }
        }
        let avg = |s: u64, n: u64| if n == 0 { 0.0 } else { s as f64 / n as f64 };
        Branching {
            mean: avg(sum, positions),
            phases: [avg(phase_sum[0], phase_n[0]), avg(phase_sum[1], phase_n[1]), avg(phase_sum[2], phase_n[2])],
            max,
            positions,
        }
    }
}

/// The value at quantile `q` of sorted data (nearest rank).
fn quantile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

impl Report {
    /// The numbers of a study's games (`seconds`: how long they took, when played here).
    pub fn new(title: String, games: Vec<GameRecord>, seconds: Option<f64>) -> Report {
        let n = games.len() as u64;
        let count = |r: &str| games.iter().filter(|g| g.result == r).count() as u64;
        let scores: Vec<f64> = games.iter().map(|g| score_of(&g.result)).collect();
        let capped = Share::new(games.iter().filter(|g| g.reason == MOVE_LIMIT_REASON).count() as u64, n);
        let players = games.first().filter(|g| !g.white.is_empty()).map(|g| (g.white.clone(), g.black.clone()));
        let players = players.filter(|p| games.iter().all(|g| (&g.white, &g.black) == (&p.0, &p.1)));
        Report {
            title,
            n,
            white: Share::new(count("white"), n),
            black: Share::new(count("black"), n),
            draws: Share::new(count("draw"), n),
            white_score: score_ci(&scores),
            reasons: reasons(&games),
            length: Lengths::of(&games),
            branching: Branching::of(&games),
            seconds,
            interrupted: false,
            resumed: 0,
            capped,
            players,
            quality: Quality::of(&games),
            opening_plies: 1,
            games,
        }
    }

    /// The length histogram: up to `bins` rows on a logarithmic scale of plies (short and long
    /// games both readable), then the games cut by the move limit as a row of their own
    /// (`capped` true). Rows: (from, to, count, capped).
    pub fn histogram(&self, bins: usize) -> Vec<(u32, u32, u64, bool)> {
        let lengths: Vec<u32> = self.games.iter().filter(|g| g.reason != MOVE_LIMIT_REASON).map(|g| g.plies).collect();
        let mut rows: Vec<(u32, u32, u64, bool)> = Vec::new();
        if let (Some(&lo), Some(&hi)) = (lengths.iter().min(), lengths.iter().max()) {
            // Edges lo·(hi/lo)^(i/bins), as whole plies, without repeats.
            let (l, h) = ((lo.max(1)) as f64, (hi.max(1)) as f64);
            let mut edges: Vec<u32> = (0..=bins).map(|i| (l * (h / l).powf(i as f64 / bins as f64)).round() as u32).collect();
            edges[0] = lo;
            edges.dedup();
            if edges.len() == 1 {
                rows.push((lo, hi, 0, false));
            }
            for w in edges.windows(2) {
                let last = w[1] == *edges.last().unwrap_or(&hi);
                rows.push((w[0], if last { w[1] } else { w[1] - 1 }, 0, false));
            }
            for &x in &lengths {
                let i = rows.iter().position(|r| x <= r.1).unwrap_or(rows.len() - 1);
                rows[i].2 += 1;
            }
        }
        if self.capped.count > 0 {
            let at = self.games.iter().filter(|g| g.reason == MOVE_LIMIT_REASON).map(|g| g.plies).max().unwrap_or(0);
            rows.push((at, at, self.capped.count, true));
        }
        rows
    }

    /// Whether the move limit decided so many games that the results measure it.
    pub fn dominated_by_limit(&self) -> bool {
        self.capped.p > CAPPED_WARNING
    }

    /// The report as text.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let share = |sh: &Share| format!("{:>6} {:>6}  [{} – {}]", sh.count, pct(sh.p), pct(sh.lo), pct(sh.hi));
        let _ = writeln!(s, "{}: {} games", self.title, self.n);
        if let Some((w, b)) = &self.players {
            let _ = writeln!(s, "players: white {w}, black {b}");
        }
        if self.dominated_by_limit() {
            let _ = writeln!(
                s,
                "WARNING: {} of the games ended at the move limit, not by a rule of the game: these results measure the limit, not the game (nothing is marked significant)",
                pct(self.capped.p)
            );
        }
        if self.interrupted {
            let _ = writeln!(s, "interrupted (Ctrl-C): the report covers the {} games finished", self.n);
        }
        if self.resumed > 0 {
            let _ = writeln!(s, "{} of them read back from the earlier run (--resume-from)", self.resumed);
        }
        let _ = writeln!(s, "results (count, share, 95% interval)");
        let _ = writeln!(s, "  white wins {}", share(&self.white));
        let _ = writeln!(s, "  black wins {}", share(&self.black));
        let _ = writeln!(s, "  draws      {}", share(&self.draws));
        let (m, lo, hi) = self.white_score;
        let judged = if self.dominated_by_limit() {
            " (not judged: the move limit decided too many games)"
        } else if lo > 0.5 || hi < 0.5 {
            " (significant)"
        } else {
            " (not significant)"
        };
        let _ = writeln!(
            s,
            "  first player's score {} [{} – {}]: advantage {:+.1} points{judged}",
            pct(m),
            pct(lo),
            pct(hi),
            (m - 0.5) * 100.0
        );
        let _ = writeln!(s, "why games ended");
        for (r, c) in &self.reasons {
            let _ = writeln!(s, "  {c:>6}  {r}");
        }
        let l = &self.length;
        let _ = writeln!(
            s,
            "length in plies: mean {:.1}, median {:.1}, 10th {} / 90th {} percentile, min {}, max {}",
            l.mean, l.median, l.p10, l.p90, l.min, l.max
        );
        let rows = self.histogram(10);
        let top = rows.iter().map(|r| r.2).max().unwrap_or(1).max(1);
        for (a, b, c, capped) in rows {
            let bar = "#".repeat(((c as f64 / top as f64) * 40.0).round() as usize);
            let span = if capped { format!("{:>13}", "move limit") } else { format!("{a:>6}–{b:<6}") };
            let _ = writeln!(s, "  {span} {c:>6} {bar}");
        }
        let br = &self.branching;
        let _ = writeln!(
            s,
            "branching (legal moves per position): mean {:.2}; by third of the game {:.2} / {:.2} / {:.2}; max {}",
            br.mean, br.phases[0], br.phases[1], br.phases[2], br.max
        );
        s.push_str(&self.quality_text());
        s.push_str(&openings(&self.games, self.opening_plies).text(OPENING_ROWS));
        s.push_str(&self.speed_line());
        s
    }

    /// The quality section: every metric with its 95 % interval (definitions: docs/selfplay.md).
    pub fn quality_text(&self) -> String {
        let mut s = String::from("quality (95% intervals; definitions in docs/selfplay.md)\n");
        let w = self.quality.measures.iter().map(|m| m.name.chars().count()).max().unwrap_or(0);
        for m in &self.quality.measures {
            let line = format!("  {:<w$}  {} {}", m.name, m.text(), m.scope());
            let _ = writeln!(s, "{}", line.trim_end());
        }
        if let Some(g) = quality::typical_game(&self.games) {
            let e = g.eval.as_deref().unwrap_or_default();
            let marks: Vec<String> = (0..5).map(|k| crate::ai::eval::pieces(e[(e.len() - 1) * k / 4])).collect();
            let _ = writeln!(
                s,
                "  typical game (#{}, the median length, {} plies): white's evaluation at its start, quarters and last decision {}",
                g.index,
                g.plies,
                marks.join(" ")
            );
        }
        s
    }

    /// The speed line (the one line that depends on the machine and the thread count).
    pub fn speed_line(&self) -> String {
        match self.seconds {
            Some(t) if t > 0.0 => {
                let n = (self.n - self.resumed) as f64;
                format!("speed: {} games/s, {} positions/s ({} s)\n", sig3(n / t), sig3(self.branching.positions as f64 / t), sig3(t))
            }
            _ if self.resumed > 0 => format!("speed: (not measured: {} games were read back from an earlier run)\n", self.resumed),
            _ => "speed: (not measured: merged from files)\n".into(),
        }
    }

    /// The games as JSON lines.
    pub fn jsonl(&self) -> String {
        self.games.iter().map(|g| serde_json::to_string(g).unwrap_or_default() + "\n").collect()
    }

    /// Reads JSON-lines files (shards) into reports, one per rule set (variant and options)
    /// in the order first seen; a game index seen twice for one rule set counts once.
    ///
    /// # Errors
    /// A file cannot be read or a line is not a game record.
    pub fn merge(files: &[std::path::PathBuf]) -> Result<Vec<Report>, SelfplayError> {
        let mut groups: Vec<(String, Vec<GameRecord>)> = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(f).map_err(|source| SelfplayError::Read { path: f.clone(), source })?;
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let g: GameRecord =
                    serde_json::from_str(line).map_err(|source| SelfplayError::NotARecord { path: f.clone(), line: i + 1, source })?;
                let title = title(&g.variant, g.options.iter().map(|(k, v)| (k.as_str(), v.as_str())));
                match groups.iter_mut().find(|x| x.0 == title) {
                    Some(x) => x.1.push(g),
                    None => groups.push((title, vec![g])),
                }
            }
        }
        if groups.is_empty() {
            return Err(SelfplayError::NoGames);
        }
        Ok(groups
            .into_iter()
            .map(|(title, mut games)| {
                games.sort_by_key(|g| g.index);
                games.dedup_by_key(|g| g.index);
                Report::new(title, games, None)
            })
            .collect())
    }
}

/// A mean score in [0, 1] with Wilson's 95 % interval (the score taken as a share of points).
fn score_ci(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let m = xs.iter().sum::<f64>() / n;
    let (lo, hi) = wilson(m, n);
    (m, lo, hi)
}

/// Wilson's 95 % score interval for a share `p` of `n`: always within [0, 1].
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let den = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Newcombe's hybrid score interval (his method 10) for the difference `p2 − p1` of two shares
/// with Wilson intervals `w1`, `w2`: always within [−1, 1].
pub(crate) fn newcombe(p1: f64, w1: (f64, f64), p2: f64, w2: (f64, f64)) -> (f64, f64) {
    let d = p2 - p1;
    let lo = d - ((p2 - w2.0).powi(2) + (w1.1 - p1).powi(2)).sqrt();
    let hi = d + ((w2.1 - p2).powi(2) + (p1 - w1.0).powi(2)).sqrt();
    (lo.max(-1.0), hi.min(1.0))
}

/// A number to three significant figures, without an exponent (`0.0213`, `1.25`, `23400`).
pub fn sig3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = x.abs().log10().floor() as i32;
    let decimals = (2 - digits).max(0) as usize;
    let scale = 10f64.powi(digits - 2);
    let rounded = if digits > 2 { (x / scale).round() * scale } else { x };
    format!("{rounded:.decimals$}")
}

/// The sample standard deviation (0 for fewer than two).
pub(crate) fn sd(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64, result: &str, plies: u32, branching: Vec<u32>) -> GameRecord {
        GameRecord { index, variant: "x".into(), result: result.into(), reason: "r".into(), plies, branching, ..GameRecord::default() }
    }

    #[test]
    fn numbers_match_a_hand_count() {
        // Four games: white wins twice, black once, one draw; lengths 2, 4, 6, 10.
        let games = vec![
            game(0, "white", 2, vec![3, 5]),
            game(1, "black", 4, vec![2, 2, 2, 2]),
            game(2, "white", 6, vec![1, 1, 1, 1, 1, 7]),
            game(3, "draw", 10, vec![4; 10]),
        ];
        let r = Report::new("x".into(), games, None);
        assert_eq!((r.white.count, r.black.count, r.draws.count), (2, 1, 1));
        assert!((r.white.p - 0.5).abs() < 1e-12);
        // White's score: (1 + 0 + 1 + 0.5) / 4.
        assert!((r.white_score.0 - 0.625).abs() < 1e-12);
        assert!((r.length.mean - 5.5).abs() < 1e-12);
        assert!((r.length.median - 5.0).abs() < 1e-12);
        assert_eq!((r.length.min, r.length.max, r.length.p10, r.length.p90), (2, 10, 2, 10));
        // 22 positions with 3+5+8+12+40 = 68 moves.
        assert_eq!(r.branching.positions, 22);
        assert!((r.branching.mean - 68.0 / 22.0).abs() < 1e-12);
        assert_eq!(r.branching.max, 7);
        // First thirds: game 0 → [3] (i*3/2: 0,1), game 1 → [2,2] (0,0,1,2), game 2 → [1,1],
        // game 3 → 4 positions (i*3/10 = 0 for i < 4): 3 + 4 + 2 + 16 = 25 over 9.
        assert!((r.branching.phases[0] - 25.0 / 9.0).abs() < 1e-12, "{:?}", r.branching.phases);
        assert_eq!(r.reasons.len(), 3);
    }

    #[test]
    fn wilson_interval() {
        // 50 of 100: 40.4 % to 59.6 % (the textbook value).
        let s = Share::new(50, 100);
        assert!((s.lo - 0.4038).abs() < 1e-3 && (s.hi - 0.5962).abs() < 1e-3, "{s:?}");
    }

    #[test]
    fn newcombe_interval() {
        // Newcombe (1998), table II, example (a): 56/70 against 48/80 gives a difference of
        // 0.2000 with the hybrid score interval 0.0524 to 0.3339.
        let (p1, p2) = (48.0 / 80.0, 56.0 / 70.0);
        let (lo, hi) = newcombe(p1, wilson(p1, 80.0), p2, wilson(p2, 70.0));
        assert!((lo - 0.0524).abs() < 1e-3 && (hi - 0.3339).abs() < 1e-3, "{lo} {hi}");
        // Two games each: wide, but never outside [-1, 1].
        let (lo, hi) = newcombe(0.0, wilson(0.0, 2.0), 1.0, wilson(1.0, 2.0));
        assert!((-1.0..=1.0).contains(&lo) && (-1.0..=1.0).contains(&hi) && lo > 0.0, "{lo} {hi}");
    }

    #[test]
    fn three_significant_figures() {
        assert_eq!(sig3(0.021349), "0.0213");
        assert_eq!(sig3(1.2549), "1.25");
        assert_eq!(sig3(125.4606), "125");
        assert_eq!(sig3(23456.0), "23500");
        assert_eq!(sig3(0.4), "0.400");
    }

    #[test]
    fn the_histogram_keeps_the_move_limit_apart() {
        let mut games: Vec<GameRecord> =
            [2u32, 3, 10, 30, 100, 100].iter().enumerate().map(|(i, &p)| game(i as u64, "white", p, vec![])).collect();
        for i in 6..9 {
            let mut g = game(i, "draw", 1000, vec![]);
            g.reason = MOVE_LIMIT_REASON.into();
            games.push(g);
        }
        let r = Report::new("x".into(), games, None);
        let rows = r.histogram(4);
        assert_eq!(rows.last(), Some(&(1000, 1000, 3, true)));
        // Log bins from 2 to 100: edges 2, 5, 14, 38, 100.
        assert_eq!(rows[..rows.len() - 1], [(2, 4, 2, false), (5, 13, 1, false), (14, 37, 1, false), (38, 100, 2, false)]);
        assert!(r.dominated_by_limit());
        assert!(r.text().contains("WARNING: 33.3% of the games ended at the move limit"), "{}", r.text());
        assert!(!r.text().contains("(significant)"));
    }

    #[test]
    fn game_seeds_differ() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(5, 7), game_seed(5, 7));
    }
}
