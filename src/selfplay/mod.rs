//! Self-play: N machine games of a variant and a report of what they say about it (results with
//! confidence intervals, why games ended, lengths, branching, the game-quality metrics of
//! [`quality`], the opening table of [`openings`], speed); two rule sets compared on the same
//! seeds ([`compare`]); a one-page picture ([`svg`]); JSON lines per game so shards played
//! anywhere merge into one report.
//!
//! Game `i` uses a seed derived from the study's seed and `i` alone, so the report (all but the
//! speed line) is the same for any number of threads or shards.

mod batch;
mod compare;
mod finished;
mod game;
pub mod jsonl;
pub(crate) mod line;
pub(crate) mod openings;
mod placed;
pub(crate) mod quality;
pub(crate) mod study;
mod svg;
pub(crate) mod tally;

pub(crate) use batch::{Batch, Sink, run_batch, run_into, run_variant};
pub use batch::{run, run_games};
pub use compare::compare;
pub(crate) use compare::difference_interval;
pub(crate) use jsonl::GameFiles;
pub use jsonl::read_resumable;
pub(crate) use study::Study;
pub(crate) use svg::esc as svg_escape;
pub use svg::svg;

use crate::ai::{self, Engine, EngineError};
use crate::movegen::Counted;
use crate::movegen::MoveList;
use crate::notation::Move;
use crate::outcome::Outcome;
use crate::script::ScriptError;
use crate::state::Position;
use crate::variant::Variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Instant;

use finished::Finished;
pub(crate) use finished::Names;
use line::{Line, line_step};
use openings::openings;
use quality::Quality;
use tally::Tally;

/// Why a study could not be played or read.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    /// The REPL's arguments do not say what to play: the usage.
    #[error("usage: selfplay N [--first E] [--second E] [--white|--black|--player NAME=E] [--seed S]")]
    Usage,
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// An external engine failed where its failure could not be counted as a loss.
    #[error("{0}")]
    External(String),
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
    /// A record whose result is neither one of its players nor `draw`.
    #[error("{}:{line}: unknown result `{result}` (expected {}, {} or draw)", path.display(), players[0], players[1])]
    UnknownResult { path: std::path::PathBuf, line: usize, result: String, players: [String; 2] },
    /// A file or a line over its limit ([`jsonl::MAX_FILE_BYTES`], [`jsonl::MAX_LINE_BYTES`]).
    #[error("{}: {what}", path.display())]
    TooLarge { path: std::path::PathBuf, what: String },
    #[error("no games in these files")]
    NoGames,
    /// The games' sink (a JSON-lines file) could not be written.
    #[error("{0}")]
    Output(std::io::Error),
    /// `--resume-from` names games of another study, or `report` was given games of several.
    #[error("{0}")]
    OtherStudy(String),
    /// A player named by `--white`, `--black` or `--player` that the variant does not have, or a
    /// seat given two engines.
    #[error("{0}")]
    Seats(String),
}

impl From<ai::SearchError> for SelfplayError {
    fn from(e: ai::SearchError) -> SelfplayError {
        match e {
            ai::SearchError::Script(e) => e.into(),
            ai::SearchError::Interrupted(i) => i.into(),
            ai::SearchError::External(why) => SelfplayError::External(why),
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct Config {
    pub games: u64,
    pub seed: u64,
    /// The engine of the first seat (the player who moves first, whatever the variant calls it).
    pub first: Engine,
    /// The engine of the second seat.
    pub second: Engine,
    /// Engines given by the variant's name for a player (`--white`, `--player red=ab`) or by
    /// seat (`first`, `second`), put in their seats once the variant is loaded
    /// ([`Config::seated`]), which refuses a seat given twice.
    pub named: Vec<(String, Engine)>,
    pub threads: usize,
    /// Play only the games whose index is `shard.0` mod `shard.1`.
    pub shard: Option<(u64, u64)>,
    /// Keep every move's text (for JSON lines; costs time). Without it a game keeps its first
    /// [`OPENING_PLIES`] moves, for the opening table.
    pub record_moves: bool,
    /// Odd games swap the players: `second` plays first in them (the arena, where each engine
    /// of a pair plays both seats equally often).
    pub alternate: bool,
    /// Time each player's moves ([`GameRecord::first_time`]; the arena's seconds per move).
    pub time_moves: bool,
    /// The first decisions of each game are uniformly random (the same ones in both games of a
    /// colour-swapped pair when `alternate`): varied openings for deterministic engines.
    pub random_plies: u32,
    /// The plies the report's opening table looks at (1 to 3).
    pub opening_plies: usize,
    /// Evaluate every position where a decision is made even when no player searches, for the
    /// metrics that follow the evaluation (`--metrics full`); random games skip it otherwise
    /// (it costs more than the game).
    pub full_metrics: bool,
}

/// The random opening decisions of a study whose seats' engines are `named` (any seat not
/// named is random) when none are asked for: [`AUTO_RANDOM_PLIES`] where no seat varies its
/// games by itself ([`Engine::varies`]), else none.
pub fn auto_random_plies(named: &[(String, Engine)]) -> u32 {
    if named.len() >= 2 && named.iter().all(|(_, e)| !e.varies()) { AUTO_RANDOM_PLIES } else { 0 }
}

/// The random opening decisions a study of two deterministic engines makes by default: enough
/// that forty games of Connect Four between fixed-depth searches nearly all differ (7⁴ = 2401
/// openings), few enough that the players, not chance, decide the game.
pub const AUTO_RANDOM_PLIES: u32 = 4;

/// Mixed into the study's seed for the random openings' generator.
const OPENING_SALT: u64 = 0x6f70_656e_696e_6773;

impl Config {
    /// A study of `games` games between two random players, seeded with `seed`, on one thread.
    pub fn new(games: u64, seed: u64) -> Config {
        Config {
            games,
            seed,
            first: Engine::Random,
            second: Engine::Random,
            named: Vec::new(),
            threads: 1,
            shard: None,
            record_moves: false,
            alternate: false,
            time_moves: false,
            random_plies: 0,
            opening_plies: 1,
            full_metrics: false,
        }
    }

    /// `N [--first E] [--second E] [--white E] [--black E] [--player NAME=E] [--seed S]` as
    /// typed in the REPL (`--white`, `--black` and `--player` name the variant's players).
    ///
    /// # Errors
    /// A missing count or a bad engine.
    pub(crate) fn from_repl_args(args: &[String], seed: u64) -> Result<Config, SelfplayError> {
        let mut c = Config::new(0, seed);
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut engine = || Engine::parse(it.next().ok_or(SelfplayError::Usage)?).map_err(SelfplayError::from);
            match a.as_str() {
                "--first" | "--second" | "--white" | "--black" => c.named.push((a[2..].to_string(), engine()?)),
                "--player" => {
                    let t = it.next().ok_or(SelfplayError::Usage)?;
                    let (name, e) = t.split_once('=').ok_or(SelfplayError::Usage)?;
                    c.named.push((name.to_string(), Engine::parse(e)?));
                }
                "--seed" => c.seed = it.next().and_then(|s| s.parse().ok()).ok_or(SelfplayError::Usage)?,
                n => c.games = n.parse().map_err(|_| SelfplayError::Usage)?,
            }
        }
        if c.games == 0 {
            return Err(SelfplayError::Usage);
        }
        c.random_plies = auto_random_plies(&c.named);
        Ok(c)
    }

    /// This study with the engines given by player name put in their seats, for a variant
    /// whose rules are `rules` (a name as [`crate::rules::Ruleset::parse_player`] reads it, or
    /// `first` or `second` where no player is called so).
    ///
    /// # Errors
    /// A name that is not one of the variant's players, or one seat named twice.
    pub(crate) fn seated(&self, rules: &crate::rules::Ruleset) -> Result<Config, SelfplayError> {
        let mut c = self.clone();
        let mut given = [false; 2];
        for (name, e) in std::mem::take(&mut c.named) {
            let names = (rules.player_name(crate::piece::Player::FIRST), rules.player_name(crate::piece::Player::FIRST.other()));
            let seat_word = ["first", "second"]
                .iter()
                .position(|w| *w == name)
                .map(|k| [crate::piece::Player::FIRST, crate::piece::Player::FIRST.other()][k]);
            let p = rules.parse_player(&name).or(seat_word).ok_or_else(|| {
                SelfplayError::Seats(format!(
                    "`{}` is not a player of {}: its players are {} (first) and {} (second); --first and --second name the seats",
                    name.chars().take(40).collect::<String>(),
                    rules.name,
                    names.0,
                    names.1
                ))
            })?;
            let seat = usize::from(p != crate::piece::Player::FIRST);
            if std::mem::replace(&mut given[seat], true) {
                let which = ["first", "second"][seat];
                return Err(SelfplayError::Seats(format!("{} (the {which} seat) is given two engines", rules.player_name(p))));
            }
            *[&mut c.first, &mut c.second][seat] = e;
        }
        Ok(c)
    }

    /// Whether a player searches (`ab`, `mcts`): then each position also gets a one-ply look at
    /// every legal move ([`GameRecord::near_forced`]), which costs little beside a search and
    /// several times a random game.
    pub(crate) fn looks(&self) -> bool {
        !matches!(self.first, Engine::Random) || !matches!(self.second, Engine::Random)
    }

    /// Whether each position where a decision is made is evaluated (for the metrics that follow
    /// the evaluation): when a player searches or the full metrics are asked for.
    pub(crate) fn evaluates(&self) -> bool {
        self.looks() || self.full_metrics
    }

    /// The indices of the games this study (or shard) plays.
    fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.games).filter(|&i| self.plays(i))
    }

    /// Whether this study (or shard) plays game `index`.
    fn plays(&self, index: u64) -> bool {
        index < self.games && self.shard.is_none_or(|(k, n)| index % n == k)
    }

    /// Who plays game `index`: (the first seat's engine, the second's).
    pub(crate) fn players(&self, index: u64) -> (Engine, Engine) {
        if self.swapped(index) { (self.second, self.first) } else { (self.first, self.second) }
    }

    /// Whether game `index` seats the second engine first.
    pub(crate) fn swapped(&self, index: u64) -> bool {
        self.alternate && index % 2 == 1
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
    /// The options given (self-play's `move_limit` among them).
    pub(crate) options: BTreeMap<String, String>,
    /// The study the game belongs to ([`Study`]; absent in files written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) study: Option<Study>,
    /// The variant's players by their names, the first seat's first (`["black", "white"]` in
    /// Othello). Absent in files written before: their results say `white` for the first seat
    /// and `black` for the second ([`GameRecord::names`]).
    #[serde(default, skip_serializing_if = "no_players")]
    pub players: [String; 2],
    /// The winner's name (one of [`GameRecord::names`]) or `draw`.
    pub result: String,
    pub(crate) reason: String,
    /// Where a count decided the game (`result = "points"`): the winner's margin in half
    /// points (Go's `white wins by 3.5` is 7; absent otherwise, and in files written before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) margin: Option<u32>,
    pub plies: u32,
    pub moves: Vec<String>,
    /// The number of legal moves in each position where a decision was made.
    pub branching: Vec<u32>,
    /// A digest of the positions the game went through ([`line_step`]; 16 hex digits): games
    /// with the same digest are the same game ([`Report::distinct`]). Absent in files written
    /// before: then the moves' texts tell games apart where they are all kept.
    #[serde(default, skip_serializing_if = "Line::is_none")]
    pub(crate) line: Line,
    /// The seats' engines (`random`, `mcts:1000`), so a resumed study is the same study (absent
    /// in files written before they were recorded; older files call them `white` and `black`).
    #[serde(default, alias = "white", skip_serializing_if = "String::is_empty")]
    pub first: String,
    #[serde(default, alias = "black", skip_serializing_if = "String::is_empty")]
    pub second: String,
    /// The time each seat took to choose its moves, when the study timed them
    /// ([`Config::time_moves`]; absent otherwise, with `--no-times`, and in files written before).
    #[serde(default, alias = "white_time", skip_serializing_if = "Option::is_none")]
    pub first_time: Option<MoveTimes>,
    #[serde(default, alias = "black_time", skip_serializing_if = "Option::is_none")]
    pub second_time: Option<MoveTimes>,
    /// The variant's evaluation of each position where a decision was made (as `branching`), as
    /// the first player's score in units (1000 = an ordinary piece): what the quality metrics
    /// read (absent in files written before it was recorded).
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

fn no_players(p: &[String; 2]) -> bool {
    p[0].is_empty()
}

/// What the results of records written before they named players call the seats.
const SEAT_NAMES: [&str; 2] = ["white", "black"];

impl GameRecord {
    /// The players' names, the first seat's first.
    pub(crate) fn names(&self) -> [&str; 2] {
        if no_players(&self.players) { SEAT_NAMES } else { [&self.players[0], &self.players[1]] }
    }

    /// The seat that won (0 the first, 1 the second), `None` for a draw or an unknown result.
    pub(crate) fn winner(&self) -> Option<usize> {
        self.names().iter().position(|n| same(n, &self.result))
    }

    /// Whether the result is one of the players or a draw.
    pub(crate) fn result_known(&self) -> bool {
        same(&self.result, "draw") || self.winner().is_some()
    }

    /// The record without what differs between two runs of one game: its times and its shard
    /// (a shard's game is the whole study's game of that index).
    pub fn untimed(&self) -> GameRecord {
        let mut g = GameRecord { first_time: None, second_time: None, ..self.clone() };
        if let Some(s) = &mut g.study {
            s.shard = None;
        }
        g
    }

    /// What tells this game apart from others: its [`GameRecord::line`], else its moves when
    /// all are kept, else its index (taken as distinct).
    pub(crate) fn identity(&self) -> String {
        if !self.line.is_none() {
            self.line.text()
        } else if self.moves.len() == self.plies as usize {
            format!("moves {}", self.moves.join(" "))
        } else {
            format!("index {}", self.index)
        }
    }
}

/// The plies of each game kept for the opening table when the moves are not all recorded.
pub(crate) const OPENING_PLIES: usize = 3;

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
pub(crate) fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// What one thread of a study plays its games on, kept from game to game so that a game
/// allocates only what its record keeps: the variant, its start position, the position
/// played, the move list, the counts of a random pick, the evaluator's lists.
pub(crate) struct Desk<'a> {
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
    /// The moves of a game on the placement walk ([`placed`]).
    placed: Vec<crate::placewalk::PlaceMove>,
}

impl<'a> Desk<'a> {
    /// A desk for games of `v`.
    pub(crate) fn new(v: &'a Variant) -> Desk<'a> {
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
            placed: Vec::new(),
        }
    }

    /// Game `index`'s seed, its generators (the game's, and the opening's, shared by the two
    /// games of a pair when the seats alternate) and its engines by seat.
    fn seeds(&self, cfg: &Config, index: u64) -> Seeds {
        let seed = game_seed(cfg.seed, index);
        let pair = if cfg.alternate { index / 2 } else { index };
        Seeds {
            seed,
            rng: ai::rng(seed),
            // (Seeded only where it draws: a study without random plies never asks it.)
            opening: if cfg.random_plies > 0 { ai::rng(game_seed(cfg.seed ^ OPENING_SALT, pair)) } else { ai::Rng::new(1) },
            engines: cfg.players(index),
        }
    }
}

/// How a game ended: the winner, the reason, the margin where a count decided it.
type Ended<'a> = (crate::outcome::Winner, &'a std::sync::Arc<str>, Option<u32>);

/// What a game starts from ([`Desk::seeds`]).
struct Seeds {
    seed: u64,
    rng: ai::Rng,
    opening: ai::Rng,
    engines: (Engine, Engine),
}

/// What a game gathers as it is played, for its record.
struct GameSoFar {
    index: u64,
    seed: u64,
    /// Whether the study's second engine took the first seat.
    swapped: bool,
    plies: u32,
    /// The moves as text: every move, or the opening's with `record_moves` off; the first
    /// `written` are this game's (the rest are the last game's strings, kept for their room).
    texts: Vec<String>,
    written: usize,
    /// Seconds per decision, by player (first, second).
    times: [Vec<f64>; 2],
    turns: u32,
    last_side: Option<crate::piece::Player>,
    near_forced: Option<u32>,
    line: u64,
}

impl GameSoFar {
    /// A game about to start from the position keyed `start`, writing its moves' texts into
    /// `texts` (an earlier game's, reused).
    fn new(cfg: &Config, index: u64, seed: u64, start: u64, texts: Vec<String>) -> GameSoFar {
        GameSoFar {
            index,
            seed,
            swapped: cfg.swapped(index),
            plies: 0,
            texts,
            written: 0,
            times: [vec![], vec![]],
            turns: 0,
            last_side: None,
            near_forced: cfg.looks().then_some(0u32),
            line: line_step(0, start),
        }
    }

    /// Counts a turn where the player to decide changes.
    fn decides(&mut self, side: crate::piece::Player) {
        if self.last_side != Some(side) {
            self.turns += 1;
            self.last_side = Some(side);
        }
    }

    /// Notes move `m`, chosen by the first player or not, in `secs` (`None`: not timed), before
    /// it is made.
    fn chose(&mut self, cfg: &Config, m: &Move, g: &crate::geometry::Geometry, first: bool, secs: Option<f64>) {
        self.chose_writing(cfg, |t| m.write_text(g, t), first, secs);
    }

    /// [`GameSoFar::chose`] for a move whose text `write` writes (onto an empty string) only
    /// where it is kept.
    #[inline]
    fn chose_writing(&mut self, cfg: &Config, write: impl FnOnce(&mut String), first: bool, secs: Option<f64>) {
        if let Some(s) = secs
            && self.plies >= cfg.random_plies
        {
            self.times[usize::from(!first)].push(s);
        }
        if cfg.record_moves || self.written < OPENING_PLIES {
            match self.texts.get_mut(self.written) {
                Some(t) => {
                    t.clear();
                    write(t);
                }
                None => {
                    let mut t = String::new();
                    write(&mut t);
                    self.texts.push(t);
                }
            }
            self.written += 1;
        }
        self.plies += 1;
    }

    /// The game ended (its winner, the reason, the margin where a count decided it), written
    /// over `f` (an earlier game's, whose lists keep their room: a study of many short games
    /// allocates nothing per game). The game's `branching` list goes to `f`, whose old list
    /// comes back in its place.
    fn finish(self, cfg: &Config, out: Ended, branching: &mut Vec<u32>, eval: &[i32], f: &mut Finished) {
        let [first_time, second_time] = self.times;
        // Every field named: a new one does not compile until it is written here.
        let Finished {
            index,
            seed,
            swapped,
            winner: _,
            reason: _,
            margin: _,
            plies,
            moves,
            written,
            branching: f_branching,
            line,
            times,
            eval: f_eval,
            turns,
            near_forced,
            random_plies,
        } = f;
        *index = self.index;
        *seed = self.seed;
        *swapped = self.swapped;
        *plies = self.plies;
        *moves = self.texts;
        *written = self.written;
        // (Handed over, not copied: the desk's list is cleared when its next game starts.)
        std::mem::swap(f_branching, branching);
        *line = self.line;
        *times = if cfg.time_moves { [Some(MoveTimes::of(first_time)), Some(MoveTimes::of(second_time))] } else { [None, None] };
        match f_eval {
            Some(e) if cfg.evaluates() => {
                e.clear();
                e.extend_from_slice(eval);
            }
            e => *e = cfg.evaluates().then(|| eval.to_vec()),
        }
        *turns = self.turns;
        *near_forced = self.near_forced;
        *random_plies = cfg.random_plies.min(self.plies);
        f.ended(out);
    }
}

/// Whether two short strings are equal, compared in line (`==` calls the C library's memcmp,
/// which costs more than the names, results and reasons a study compares per game).
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// Plays game `index` of a study on `desk`.
///
/// # Errors
/// A script hook failed.
pub(crate) fn play_game(cfg: &Config, index: u64, desk: &mut Desk<'_>, f: &mut Finished) -> Result<(), SelfplayError> {
    // Random players of a game where pieces are only placed, unevaluated: on the cell sets.
    let v = desk.v;
    if !cfg.evaluates()
        && v.rules.go.random == crate::rules::groups::RandomPolicy::default()
        && let Some(walk) = v.place_walk().filter(|w| w.applies(&desk.start, 0))
    {
        return placed::play_placed(cfg, index, desk, walk, f);
    }
    play_on_kernel(cfg, index, desk, f)
}

/// Plays game `index` of a study on `desk` with the kernel's moves and make (every game and
/// player; [`play_game`] takes the cell sets where they hold).
///
/// # Errors
/// A script hook failed.
fn play_on_kernel(cfg: &Config, index: u64, desk: &mut Desk<'_>, f: &mut Finished) -> Result<(), SelfplayError> {
    let Seeds { seed, mut rng, mut opening, engines } = desk.seeds(cfg, index);
    let (first_engine, second_engine) = engines;
    let Desk { v, start, pos, moves, shares, evaluator, branching, eval, .. } = desk;
    let v: &Variant = v;
    pos.clone_from(start);
    let g = &v.rules.geometry;
    branching.clear();
    eval.clear();
    let mut game = GameSoFar::new(cfg, index, seed, pos.hash(), std::mem::take(&mut f.moves));
    let (looks, evaluates) = (cfg.looks(), cfg.evaluates());
    // An external engine that failed loses the game, with its reason.
    let mut forfeit = None;
    loop {
        crate::interrupt::check()?;
        // Random players need the list's length and one move of it: where the cell sets can,
        // the moves are counted and only the one drawn is found (the same move, index for index).
        let counted = !looks && v.rules.go.random == crate::rules::groups::RandomPolicy::default() && v.count_to_pick(pos, shares);
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
        let first = side == crate::piece::Player::FIRST;
        // The evaluation is from the point of view of the player to decide: the first
        // player's is the same number or its negation.
        if evaluates {
            let e = evaluator.score_counted(pos, listed)?;
            eval.push(if first { e } else { -e });
        }
        game.decides(side);
        if let Some(n) = &mut game.near_forced {
            *n += u32::from(quality::near_forced(v, evaluator, pos, moves)?);
        }
        let t = cfg.time_moves.then(Instant::now);
        let m = match if first { first_engine } else { second_engine } {
            _ if game.plies < cfg.random_plies => {
                drawn(v, pos, counted.then_some(&*shares), rand::RngExt::random_range(&mut opening, 0..n), moves)
            }
            Engine::Random if !counted => moves[ai::random_index(v, pos, moves, &mut rng)],
            Engine::Random => drawn(v, pos, counted.then_some(&*shares), rand::RngExt::random_range(&mut rng, 0..n), moves),
            e => match ai::choose(v, pos, e, &mut rng) {
                Err(ai::SearchError::External(why)) => {
                    forfeit = Some(Outcome::win(side.other(), why));
                    break;
                }
                m => m?.expect("a move exists"),
            },
        };
        game.chose(cfg, &m, g, first, t.map(|t| t.elapsed().as_secs_f64()));
        v.make(pos, &m)?;
        game.line = line_step(game.line, pos.hash());
    }
    let out = match forfeit {
        Some(o) => o,
        None => v.outcome(pos)?.expect("a finished game has a result"),
    };
    game.finish(cfg, (out.winner, &out.reason, out.margin), branching, eval, f);
    Ok(())
}

/// The legal move at `index`: from `moves`, the legal list, or where the moves were only
/// counted (`counted`, [`Variant::count_to_pick`]), found without the list.
fn drawn(v: &Variant, pos: &mut Position, counted: Option<&Counted>, index: usize, moves: &mut MoveList) -> Move {
    match counted {
        Some(c) => v.nth_move(pos, c, index as u64, moves),
        None => moves[index],
    }
}

/// Why a report's numbers may not be judged ([`Report::judged`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Unjudged {
    #[error("fewer than {MIN_JUDGED} distinct games")]
    FewGames,
    #[error("only {distinct} of the {n} games differ")]
    Repeats { distinct: u64, n: u64 },
    #[error("the move limit decided too many games")]
    MoveLimit,
}

/// The options self-play sets unless given: `move_limit = 1000`.
pub(crate) fn with_move_limit(sets: &[(String, String)]) -> Vec<(String, String)> {
    let mut s = sets.to_vec();
    if !s.iter().any(|(k, _)| k == "move_limit") {
        s.push(("move_limit".into(), "1000".into()));
    }
    s
}

pub(crate) fn describe(v: &Variant) -> String {
    title(v.name(), v.overrides.iter().map(|(k, x)| (k.as_str(), x.as_str())))
}

pub(crate) fn title_of(g: &GameRecord) -> String {
    title(&g.variant, g.options.iter().map(|(k, v)| (k.as_str(), v.as_str())))
}

/// A rule set's title: the variant and the options given (self-play's own `move_limit = 1000`
/// left out).
pub(crate) fn title<'a>(variant: &str, options: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let opts: Vec<String> = options.filter(|(k, v)| !(*k == "move_limit" && *v == "1000")).map(|(k, x)| format!("{k}={x}")).collect();
    if opts.is_empty() { variant.to_string() } else { format!("{variant} ({})", opts.join(", ")) }
}

/// A proportion with its 95 % Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Share {
    pub(crate) count: u64,
    pub(crate) p: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

impl Share {
    pub(crate) fn new(count: u64, n: u64) -> Share {
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
    pub(crate) title: String,
    /// The games' numbers, gathered as they ended (what the histogram, the opening table and
    /// the typical game are drawn from).
    pub(crate) tally: Tally,
    pub n: u64,
    /// The games that differ ([`GameRecord::identity`]): every statistic below counts each
    /// once, the lowest index of a repeated game standing for it (a repeat tells nothing new).
    pub(crate) distinct: u64,
    /// The players by the variant's names, the first seat's first.
    pub(crate) names: [String; 2],
    /// The first seat's wins, the second's, and the draws (over the distinct games).
    pub(crate) first: Share,
    pub(crate) second: Share,
    pub(crate) draws: Share,
    /// The first seat's score (wins + half the draws) over the distinct games, with a 95 %
    /// interval (Wilson's, treating the score as a share: conservative, since a draw's half
    /// point varies less than a win or a loss, and always within [0, 1]).
    pub(crate) first_score: (f64, f64, f64),
    pub(crate) reasons: Vec<(String, u64)>,
    pub(crate) length: Lengths,
    /// Mean legal moves per position: overall, per third of the game, and the maximum.
    pub(crate) branching: Branching,
    /// Seconds the study took, when it was played here (not for merged files).
    pub(crate) seconds: Option<f64>,
    /// Ctrl-C stopped the study: the report covers the games finished.
    pub(crate) interrupted: bool,
    /// Games read back from an earlier run (`--resume-from`) rather than played here.
    pub(crate) resumed: u64,
    /// Games that ended at the move limit rather than by a rule of the game.
    pub(crate) capped: Share,
    /// The seats' engines (`random`, `mcts:1000`), when the games say and agree.
    pub(crate) players: Option<(String, String)>,
    /// What the report must say before its numbers (missing shards or games, from `report`).
    pub(crate) warnings: Vec<String>,
    /// Every game-quality metric over the games.
    pub(crate) quality: Quality,
}

/// The rows of the opening table a report shows (more when flagged).
pub(crate) const OPENING_ROWS: usize = 20;

/// The reason a game cut by the move limit gives.
pub(crate) const MOVE_LIMIT_REASON: &str = "move limit";

/// The fewest distinct games a side of a comparison needs before anything is marked
/// significant: with fewer, an interval says nothing (and no games gave "−50 points").
pub(crate) const MIN_JUDGED: u64 = 2;

/// Below this share of distinct games, a report warns that its players repeat themselves.
pub(crate) const DISTINCT_WARNING: f64 = 0.9;

/// The games that differ by [`GameRecord::identity`], in the order given (the first of each).
pub(crate) fn distinct_games(games: &[GameRecord]) -> Vec<GameRecord> {
    let mut seen = std::collections::HashSet::new();
    games.iter().filter(|g| seen.insert(g.identity())).cloned().collect()
}

/// Above this share of games ended by the move limit, a report warns that it measures the limit
/// and marks nothing significant.
pub(crate) const CAPPED_WARNING: f64 = 0.25;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Lengths {
    pub(crate) mean: f64,
    /// The standard deviation (for comparing means).
    pub(crate) sd: f64,
    pub(crate) median: f64,
    pub(crate) p10: u32,
    pub(crate) p90: u32,
    pub(crate) min: u32,
    pub(crate) max: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Branching {
    pub(crate) mean: f64,
    pub(crate) phases: [f64; 3],
    pub(crate) max: u32,
    pub(crate) positions: u64,
}

impl Lengths {
    /// The length statistics of a tally's distinct games (nearest-rank percentiles).
    fn of(t: &Tally) -> Lengths {
        let n = t.distinct;
        if n == 0 {
            return Lengths { mean: 0.0, sd: 0.0, median: 0.0, p10: 0, p90: 0, min: 0, max: 0 };
        }
        let (sum, squares) = t.lengths.iter().fold((0u128, 0u128), |(s, q), (&len, &c)| {
            (s + u128::from(len) * u128::from(c), q + u128::from(len) * u128::from(len) * u128::from(c))
        });
        let mean = sum as f64 / n as f64;
        let sd = if n < 2 { 0.0 } else { ((squares as f64 - sum as f64 * sum as f64 / n as f64) / (n - 1) as f64).max(0.0).sqrt() };
        let rank = |q: f64| t.nth_length(((q * n as f64).ceil().max(1.0) as u64).min(n) - 1);
        let median = (f64::from(t.nth_length((n - 1) / 2)) + f64::from(t.nth_length(n / 2))) / 2.0;
        Lengths { mean, sd, median, p10: rank(0.1), p90: rank(0.9), min: t.nth_length(0), max: t.nth_length(n - 1) }
    }
}

impl Branching {
    /// The branching statistics of a tally: overall, per third of each game, the maximum.
    fn of(t: &Tally) -> Branching {
        let avg = |s: u64, n: u64| if n == 0 { 0.0 } else { s as f64 / n as f64 };
        let phase = |k: usize| avg(t.phase_moves[k], t.phase_positions[k]);
        Branching { mean: avg(t.moves, t.positions), phases: [phase(0), phase(1), phase(2)], max: t.most_moves, positions: t.positions }
    }
}

impl Report {
    /// The numbers of a study's games (`seconds`: how long they took, when played here), the
    /// opening table by first move.
    #[cfg(test)]
    pub(crate) fn new(title: String, games: &[GameRecord], seconds: Option<f64>) -> Report {
        Report::of(title, Tally::of(games, 1), seconds)
    }

    /// The numbers of a tally of a study's games.
    pub(crate) fn of(title: String, tally: Tally, seconds: Option<f64>) -> Report {
        let d = tally.distinct;
        let mut reasons: Vec<(String, u64)> = tally.reasons().into_iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let first_score = if d == 0 {
            (0.0, 0.0, 0.0)
        } else {
            let m = tally.halves as f64 / 2.0 / d as f64;
            let (lo, hi) = wilson(m, d as f64);
            (m, lo, hi)
        };
        Report {
            title,
            n: tally.n,
            distinct: d,
            names: tally.names(),
            first: Share::new(tally.wins[0], d),
            second: Share::new(tally.wins[1], d),
            draws: Share::new(tally.wins[2], d),
            first_score,
            reasons,
            length: Lengths::of(&tally),
            branching: Branching::of(&tally),
            seconds,
            interrupted: false,
            resumed: 0,
            capped: Share::new(tally.capped, d),
            players: tally.players(),
            warnings: Vec::new(),
            quality: Quality::of(&tally.metrics),
            tally,
        }
    }

    /// Whether fewer than [`DISTINCT_WARNING`] of the games differ: the players repeat
    /// themselves (deterministic engines), so even the distinct games are no random sample.
    pub(crate) fn repeats(&self) -> bool {
        (self.distinct as f64) < DISTINCT_WARNING * self.n as f64
    }

    /// Whether the report's numbers may be judged (marked significant or not), or why not: at
    /// least [`MIN_JUDGED`] distinct games, most games distinct, and the move limit did not
    /// decide them.
    pub(crate) fn judged(&self) -> Result<(), Unjudged> {
        if self.distinct < MIN_JUDGED {
            return Err(Unjudged::FewGames);
        }
        if self.repeats() {
            return Err(Unjudged::Repeats { distinct: self.distinct, n: self.n });
        }
        if self.dominated_by_limit() {
            return Err(Unjudged::MoveLimit);
        }
        Ok(())
    }

    /// The length histogram: up to `bins` rows on a logarithmic scale of plies (short and long
    /// games both readable), then the games cut by the move limit as a row of their own
    /// (`capped` true). Rows: (from, to, count, capped).
    pub(crate) fn histogram(&self, bins: usize) -> Vec<(u32, u32, u64, bool)> {
        let lengths = &self.tally.uncapped;
        let mut rows: Vec<(u32, u32, u64, bool)> = Vec::new();
        if let (Some((&lo, _)), Some((&hi, _))) = (lengths.first_key_value(), lengths.last_key_value()) {
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
            for (&x, &c) in lengths {
                let i = rows.iter().position(|r| x <= r.1).unwrap_or(rows.len() - 1);
                rows[i].2 += c;
            }
        }
        if self.capped.count > 0 {
            rows.push((self.tally.capped_at, self.tally.capped_at, self.capped.count, true));
        }
        rows
    }

    /// Whether the move limit decided so many games that the results measure it.
    pub(crate) fn dominated_by_limit(&self) -> bool {
        self.capped.p > CAPPED_WARNING
    }

    /// Where counts decided games (Go's `black wins by 1.5`): how many, and the first seat's
    /// mean margin over them (its losses negative), in points.
    fn margin_text(&self) -> Option<String> {
        let (n, halves) = self.tally.margins;
        (n > 0).then(|| {
            let mean = halves as f64 / 2.0 / n as f64;
            format!("counted results: {n} games, {}'s mean margin {mean:+.1} points", self.names[0])
        })
    }

    /// The report as text.
    pub fn text(&self) -> String {
        let mut s = self.head_text();
        s.push_str(&self.results_text());
        let _ = writeln!(s, "why games ended");
        for (r, c) in &self.reasons {
            let _ = writeln!(s, "  {c:>6}  {r}");
        }
        if let Some(line) = self.margin_text() {
            let _ = writeln!(s, "{line}");
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
        s.push_str(&openings(&self.tally.openings).text(OPENING_ROWS));
        s.push_str(&self.speed_line());
        s
    }

    /// The report's head: the study, its players, its warnings, how it was played.
    fn head_text(&self) -> String {
        let mut s = String::new();
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let _ = writeln!(s, "{}: {} games, {} distinct", self.title, self.n, self.distinct);
        let [a, b] = &self.names;
        match &self.players {
            Some((w, k)) => {
                let _ = writeln!(s, "players: {a} {w} (first), {b} {k} (second)");
            }
            None => {
                let _ = writeln!(s, "players: {a} moves first, {b} second");
            }
        }
        if self.tally.random_plies > 0 {
            let _ = writeln!(s, "openings: each game opens with {} random decisions (--random-plies)", self.tally.random_plies);
        }
        for w in &self.warnings {
            let _ = writeln!(s, "WARNING: {w}");
        }
        if self.repeats() {
            let _ = writeln!(
                s,
                "WARNING: only {} of the {} games differ ({}): the players repeat themselves; each distinct game counts once below and nothing is judged (--random-plies varies the openings)",
                self.distinct,
                self.n,
                pct(self.distinct as f64 / self.n as f64)
            );
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
        s
    }

    /// Who won, with intervals, and the first player's score, judged where it can be.
    fn results_text(&self) -> String {
        let mut s = String::new();
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let share = |sh: &Share| format!("{:>6} {:>6}  [{} – {}]", sh.count, pct(sh.p), pct(sh.lo), pct(sh.hi));
        let [a, b] = &self.names;
        let _ = writeln!(s, "results (count, share, 95% interval)");
        let w = self.names.iter().map(|n| n.chars().count() + 5).max().unwrap_or(0).max(10);
        let _ = writeln!(s, "  {:<w$} {}", format!("{a} wins"), share(&self.first));
        let _ = writeln!(s, "  {:<w$} {}", format!("{b} wins"), share(&self.second));
        let _ = writeln!(s, "  {:<w$} {}", "draws", share(&self.draws));
        let (m, lo, hi) = self.first_score;
        let judged = match self.judged() {
            Err(why) => format!(" (not judged: {why})"),
            Ok(()) if lo > 0.5 || hi < 0.5 => " (significant)".into(),
            Ok(()) => " (not significant)".into(),
        };
        if self.distinct == 0 {
            let _ = writeln!(s, "  first player's score: no game finished, nothing to judge");
        } else {
            let _ = writeln!(
                s,
                "  first player's ({a}) score {} [{} – {}]: advantage {:+.1} points{judged}",
                pct(m),
                pct(lo),
                pct(hi),
                (m - 0.5) * 100.0
            );
        }
        s
    }

    /// The quality section: every metric with its 95 % interval (definitions: docs/selfplay.md).
    pub(crate) fn quality_text(&self) -> String {
        let mut s = String::from("quality (95% intervals; definitions in docs/selfplay.md)\n");
        let w = self.quality.measures.iter().map(|m| m.name.chars().count()).max().unwrap_or(0);
        for m in &self.quality.measures {
            let line = format!("  {:<w$}  {} {}", m.name, m.text(), m.scope());
            let _ = writeln!(s, "{}", line.trim_end());
        }
        if let Some(g) = self.tally.typical() {
            let e = &g.eval;
            let marks: Vec<String> = (0..5).map(|k| crate::ai::eval::pieces(e[(e.len() - 1) * k / 4])).collect();
            let _ = writeln!(
                s,
                "  typical game (#{}, the median length, {} plies): {}'s evaluation at its start, quarters and last decision {}",
                g.index,
                g.plies,
                self.names[0],
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
}

/// Wilson's 95 % score interval for a share `p` of `n`: always within [0, 1].
pub(crate) fn wilson(p: f64, n: f64) -> (f64, f64) {
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
pub(crate) fn sig3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = x.abs().log10().floor() as i32;
    let decimals = (2 - digits).max(0) as usize;
    let scale = 10f64.powi(digits - 2);
    let rounded = if digits > 2 { (x / scale).round() * scale } else { x };
    format!("{rounded:.decimals$}")
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
        let r = Report::new("x".into(), &games, None);
        assert_eq!((r.first.count, r.second.count, r.draws.count), (2, 1, 1));
        assert!((r.first.p - 0.5).abs() < 1e-12);
        // White's score: (1 + 0 + 1 + 0.5) / 4.
        assert!((r.first_score.0 - 0.625).abs() < 1e-12);
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
    fn same_is_the_librarys() {
        for (a, b) in [("white", "white"), ("white", "black"), ("", ""), ("draw", "drawn"), ("é", "e")] {
            assert_eq!(same(a, b), a == b, "{a} {b}");
        }
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
        let r = Report::new("x".into(), &games, None);
        let rows = r.histogram(4);
        assert_eq!(rows.last(), Some(&(1000, 1000, 3, true)));
        // Log bins from 2 to 100: edges 2, 5, 14, 38, 100.
        assert_eq!(rows[..rows.len() - 1], [(2, 4, 2, false), (5, 13, 1, false), (14, 37, 1, false), (38, 100, 2, false)]);
        assert!(r.dominated_by_limit());
        assert!(r.text().contains("WARNING: 33.3% of the games ended at the move limit"), "{}", r.text());
        assert!(!r.text().contains("(significant)"));
    }

    #[test]
    fn engines_take_their_seats_by_the_variants_names() {
        let args = |a: &str| a.split_whitespace().map(String::from).collect::<Vec<_>>();
        let othello = Variant::load("othello", &[]).unwrap();
        let seated = |a: &str, v: &Variant| Config::from_repl_args(&args(a), 1).and_then(|c| c.seated(&v.rules));
        // Othello: black moves first, so --white is the second seat.
        let c = seated("4 --white ab:d1", &othello).unwrap();
        assert_eq!((c.first, c.second), (Engine::Random, Engine::parse("ab:d1").unwrap()));
        let c = seated("4 --first mcts:5 --player white=ab:d2", &othello).unwrap();
        assert_eq!((c.first, c.second), (Engine::parse("mcts:5").unwrap(), Engine::parse("ab:d2").unwrap()));
        assert!(
            seated("4 --first ab:d1 --black ab:d2", &othello)
                .unwrap_err()
                .to_string()
                .contains("black (the first seat) is given two engines")
        );
        let xiangqi = Variant::load("xiangqi", &[]).unwrap();
        let c = seated("4 --player red=ab:d1 --black ab:d2", &xiangqi).unwrap();
        assert_eq!((c.first, c.second), (Engine::parse("ab:d1").unwrap(), Engine::parse("ab:d2").unwrap()));
        assert!(matches!(seated("4 --white ab:d1", &xiangqi), Err(SelfplayError::Seats(_))));
    }

    #[test]
    fn no_games_and_one_game_are_not_judged() {
        let r = Report::new("x".into(), &[], None);
        assert_eq!(r.judged().unwrap_err().to_string(), "fewer than 2 distinct games");
        assert!(!r.text().contains("significant") && !r.text().contains("-50.0"), "{}", r.text());
        let r = Report::new("x".into(), &[game(0, "white", 2, vec![1, 1])], None);
        assert!(r.text().contains("(not judged: fewer than 2 distinct games)"), "{}", r.text());
        // The same game three times and another: 2 of 4 distinct, each counted once.
        let mut g = game(0, "white", 2, vec![1, 1]);
        g.line = "a".into();
        let mut h = game(3, "black", 2, vec![1, 1]);
        h.line = "b".into();
        let games = vec![g.clone(), GameRecord { index: 1, ..g.clone() }, GameRecord { index: 2, ..g }, h];
        let r = Report::new("x".into(), &games, None);
        assert_eq!((r.n, r.distinct, r.first.count, r.second.count), (4, 2, 1, 1));
        assert!(r.text().contains("WARNING: only 2 of the 4 games differ (50.0%)"), "{}", r.text());
    }

    #[test]
    fn game_seeds_differ() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(5, 7), game_seed(5, 7));
    }
}
