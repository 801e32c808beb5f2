//! Alpha-beta search: negamax with iterative deepening, principal variation search, a
//! transposition table on the position's Zobrist hash, move ordering (the table's move,
//! captures by value, killer moves, history), and a quiescence search over captures in games
//! that have them.
//!
//! Every score is from the point of view of the player who decides in the position searched,
//! which is [`Position::side`], not the parity of the depth: after a move that hands the same
//! player another decision (a continuation, an extra move) the child's score is taken as it is,
//! and only a change of decider negates it. The variant's own rules end the search: a result
//! declared by [`Variant::make`] (end conditions, repetition, move limit) or having no legal move
//! (what the `no_moves` rule says). A proven result is [`MATE`] minus the number of decisions
//! to reach it, so the fastest win and the slowest loss are preferred, and it always outranks
//! the evaluation (clamped to [`EVAL_MAX`]).
//!
//! Depth and node budgets are reproducible: the search is deterministic given the position and
//! the generator (which only shuffles the root moves, so that equal moves vary from game to
//! game). The search makes and undoes moves on the position it is given and leaves it as it was
//! when it returns normally; a failing script hook can leave it mid-line, so callers search a
//! copy (as [`crate::ai::choose`] does).
//!
//! When a progress line listens on this thread ([`crate::progress`]), the search reports each
//! depth as it starts, and the root move searched and the positions per second at most ten
//! times a second; otherwise it reports nothing and builds no message.

use super::eval::{EVAL_MAX, Evaluator, pieces};
use super::prune::{self, Pruning};
use super::{Budget, Rng, SearchError, engine::MAX_DEPTH};
use crate::geometry::NONE;
use crate::interrupt::{self, Interrupted};
use crate::movegen::{self, MoveList};
use crate::notation::{Move, MoveKind};
use crate::outcome::{Outcome, Winner};
use crate::piece::Player;
use crate::rules::eval::ImplicitTakes;
use crate::rules::{Form, Hook, mix};
use crate::script::ScriptError;
use crate::state::Position;
use crate::variant::Judged;
use crate::variant::Variant;
use rand::RngExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The score of a win now; a win in n decisions scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this (either sign) are proven results.
pub(crate) const MATE_BOUND: i32 = MATE - 10_000;
const INF: i32 = MATE + 1;
/// The deepest line, in decisions, including the quiescence search.
const MAX_PLY: usize = 128;

/// The most entries the transposition table has (a search's budget may give it fewer).
const TABLE_ENTRIES: usize = 1 << 20;

/// The largest table's size in MiB (UCI's default `Hash`).
pub(crate) const TABLE_MIB: usize = (TABLE_ENTRIES * std::mem::size_of::<Slot>()) >> 20;
/// How many decisions the quiescence search may add.
const QMAX: usize = 12;
/// The ordering value of a royal piece whose capture ends the game (above every other piece's).
const ROYAL_VALUE: i32 = 10_000;
/// Delta pruning: the quiescence search skips a capture that cannot bring the score within
/// this many units of alpha even counting its victims' whole value (2 pieces of value 100).
const DELTA: i32 = 2000;
/// From this many quiescence decisions on, only captures on the cell the last move landed on
/// (recaptures) are searched: in a game where most pieces can capture at once (grasshopper
/// chess), every capture sequence would otherwise be tried in every order.
/// (6: in chess, shatranj, Capablanca and xiangqi middlegames this changes depth-4 searches
/// by under 2% of their nodes; in grasshopper chess it cuts them 30-fold.)
const QRECAPTURE: usize = 6;
/// What a return to a position that already occurred scores for the player deciding at the
/// root, in a game with no repetition rule: a little less than a draw, so a player who is ahead
/// (or level) looks for progress instead of shuffling, and one who is behind by more still
/// takes the shuffle.
const CONTEMPT: i32 = 100;
/// Reverse futility: a node within 3 decisions of the frontier whose evaluation exceeds beta by
/// this much per decision of depth left is cut (0.9 of a piece a decision).
const RFP_MARGIN: i32 = 900;
/// Futility: within 2 decisions of the frontier, a quiet move is skipped where the evaluation
/// plus this much per decision of depth cannot reach alpha.
const FUTILITY_MARGIN: i32 = 1200;
/// Razoring: within 2 decisions of the frontier, a node whose evaluation plus this much per
/// decision is below alpha is asked of the quiescence search alone.
const RAZOR_MARGIN: i32 = 2500;
/// A null move that fails high at this depth or more is verified by a search without null
/// moves in its first plies (a zugzwang shows as a fail low).
const VERIFY_DEPTH: i32 = 8;
/// The aspiration window's half-width around the last iteration's score (a quarter of a
/// piece), from depth 4 on; quadrupled at each failure.
const ASPIRATION: i32 = 250;
/// Move ordering: the table's move, good captures, the two killers, the counter move, losing
/// captures (by the static exchange), then quiet moves by history (capped below them).
const TT_RANK: i32 = 1 << 30;
const CAPTURE_RANK: i32 = 1 << 26;
const KILLER_RANK: i32 = 1 << 25;
const COUNTER_RANK: i32 = KILLER_RANK - 2;
const BAD_CAPTURE_RANK: i32 = (1 << 24) + 1;
const HISTORY_MAX: u32 = 1 << 24;
/// A move that takes what it does not list ranks among the captures by how many pieces (or
/// seeds) it takes, this much each (an ordinary piece's value, as [`Searcher::capture_rank`]
/// counts it), up to [`UNLISTED_MAX`] of them.
const UNLISTED_RANK: i32 = 100 * 64;
const UNLISTED_MAX: u32 = 1000;

const _: () = assert!(EVAL_MAX < MATE_BOUND && (MAX_DEPTH as usize) + QMAX + 2 < MAX_PLY);

/// A search score from the point of view of the player who decides at the root: units of the
/// evaluation (1000 = a piece of value 100), or a proven result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub(crate) i32);

impl Score {
    /// The number of decisions (by either player) to a proven win.
    pub(crate) fn win_in(self) -> Option<u32> {
        (self.0 >= MATE_BOUND).then(|| (MATE - self.0) as u32)
    }

    /// The number of decisions (by either player) to a proven loss.
    pub(crate) fn loss_in(self) -> Option<u32> {
        (self.0 <= -MATE_BOUND).then(|| (MATE + self.0) as u32)
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.win_in(), self.loss_in()) {
            (Some(n), _) => write!(f, "win in {n}"),
            (_, Some(n)) => write!(f, "loss in {n}"),
            _ => f.write_str(&pieces(self.0)),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move chosen (`None` when the game is over).
    pub best: Option<Move>,
    /// Its score for the player to decide.
    pub score: Score,
    /// The depth of the iteration that gave the score: the deepest completed, or the
    /// unfinished one after it when a move searched there set the score (0 when none did).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// The principal variation: the best line found, starting with `best`.
    pub(crate) pv: Vec<Move>,
    pub(crate) elapsed: Duration,
}

/// Searches `pos` within `budget` and returns the best move found with its score and line.
///
/// # Errors
/// A script hook failed (the position may then be left mid-line), or Ctrl-C was pressed.
pub fn search(v: &Variant, pos: &mut Position, budget: Budget, rng: &mut Rng) -> Result<SearchResult, SearchError> {
    search_except(v, pos, budget, rng, &[])
}

/// [`search`] among the legal moves other than `except` (the second, third… best moves of an
/// analysis); when every legal move is excepted, `best` is `None` and the score is 0.
///
/// # Errors
/// As [`search`].
pub(crate) fn search_except(
    v: &Variant,
    pos: &mut Position,
    budget: Budget,
    rng: &mut Rng,
    except: &[Move],
) -> Result<SearchResult, SearchError> {
    search_limited(v, pos, budget, MAX_DEPTH, rng, except)
}

/// [`search_except`] that also stops after the iteration of depth `depth_cap`, whatever the
/// budget: an analysis searches its later lines no deeper than its best move's, so that their
/// scores compare with the best one's.
///
/// # Errors
/// As [`search`].
pub(crate) fn search_limited(
    v: &Variant,
    pos: &mut Position,
    budget: Budget,
    depth_cap: u32,
    rng: &mut Rng,
    except: &[Move],
) -> Result<SearchResult, SearchError> {
    run(v, pos, (budget, depth_cap), rng, except, Control::default())
}

/// How a caller follows a search and stops it (an engine protocol): `stop`, once set, ends the
/// search as its budget running out would (the best move found so far is kept, the search
/// returns normally); `on_iteration` hears of each completed depth; `poll` is called every
/// 1024 positions (a protocol answers `isready` from it while the search runs); `table_bytes`
/// caps the transposition table's size (UCI's `Hash`).
#[derive(Default)]
pub(crate) struct Control<'c> {
    pub(crate) stop: Option<Arc<AtomicBool>>,
    pub(crate) on_iteration: Option<&'c mut dyn FnMut(&SearchResult)>,
    pub(crate) poll: Option<&'c mut dyn FnMut()>,
    pub(crate) table_bytes: Option<usize>,
}

/// [`search`] followed and stoppable through `control`.
///
/// # Errors
/// As [`search`].
pub(crate) fn search_controlled<'a>(
    v: &'a Variant,
    pos: &mut Position,
    budget: Budget,
    rng: &mut Rng,
    control: Control<'a>,
) -> Result<SearchResult, SearchError> {
    run(v, pos, (budget, MAX_DEPTH), rng, &[], control)
}

/// The search itself: [`search_limited`] with a [`Control`].
fn run<'a>(
    v: &'a Variant,
    pos: &mut Position,
    (budget, depth_cap): (Budget, u32),
    rng: &mut Rng,
    except: &[Move],
    mut control: Control<'a>,
) -> Result<SearchResult, SearchError> {
    let start = Instant::now();
    let mut s = searcher(v, pos, budget, start, except, &mut control);
    let mut root: MoveList = Vec::new();
    v.legal_moves(pos, &mut root)?;
    let all = root.len();
    root.retain(|m| !except.contains(m));
    if all > 0 && root.is_empty() {
        return Ok(SearchResult { best: None, score: Score(0), depth: 0, nodes: 0, pv: vec![], elapsed: start.elapsed() });
    }
    let done = |score: i32, best: Option<Move>, depth: u32, nodes: u64, pv: Vec<Move>| SearchResult {
        best,
        score: Score(score),
        depth,
        nodes,
        pv,
        elapsed: start.elapsed(),
    };
    if root.is_empty() {
        let score = match pos.result() {
            Some(r) => outcome_score(r, pos.side(), 0),
            None => s.no_moves_score(pos, 0),
        };
        return Ok(done(score, None, 0, 0, vec![]));
    }
    // Shuffle, so that moves the search cannot tell apart vary with the seed.
    for i in (1..root.len()).rev() {
        root.swap(i, rng.random_range(0..=i));
    }
    s.order(pos, &mut root, 0, 0);
    let max_depth = match budget.resolve(v) {
        Budget::Depth(d) => d.min(MAX_DEPTH),
        _ => MAX_DEPTH,
    }
    .min(depth_cap.max(1));
    let (mut best, mut score, mut completed, mut pv) = (root[0], 0, 0, vec![root[0]]);
    for depth in 1..=max_depth {
        if let Some(w) = &mut s.watch {
            // Each new depth is drawn (the sink keeps its own pace).
            (w.depth, w.of, w.at, w.mv) = (depth, root.len(), 0, None);
            s.show_progress(true);
        }
        match s.aspire(pos, &root, depth as i32, score) {
            Ok((sc, i)) => {
                (best, score, completed) = (root[i], sc, depth);
                pv = s.pv[0].clone();
                // The best move is searched first next time; the others keep their order.
                root[..=i].rotate_right(1);
                if let Some(f) = control.on_iteration.as_mut() {
                    f(&done(score, Some(best), completed, s.nodes, pv.clone()));
                }
            }
            Err(Stop::Budget) => {
                // A move of the unfinished iteration that beat the previous best (searched
                // first) is better than it.
                if let Some((sc, i)) = s.partial {
                    (best, score, completed) = (root[i], sc, depth);
                    pv = s.partial_pv.clone();
                }
                break;
            }
            Err(Stop::Failed(e)) => return Err(e),
        }
        if score.abs() >= MATE_BOUND || (root.len() == 1 && except.is_empty()) {
            break; // proven, or nothing to choose
        }
    }
    Ok(done(score, Some(best), completed, s.nodes, pv))
}

/// The searcher for `pos` within `asked` (resolved for `v`), taking `control`'s stop flag,
/// poll and table size; with a progress line when someone listens (naming the analysis line
/// past the moves in `except`).
fn searcher<'a>(v: &'a Variant, pos: &Position, asked: Budget, start: Instant, except: &[Move], control: &mut Control<'a>) -> Searcher<'a> {
    let table_cap = control.table_bytes.map_or(usize::MAX, |b| b / std::mem::size_of::<Slot>());
    let mut s = Searcher::new(v, pos, asked.resolve(v), start, table_cap);
    s.stop = control.stop.take();
    s.poll = control.poll.take();
    if crate::progress::active() {
        let line = if except.is_empty() { String::new() } else { format!(", line {}", except.len() + 1) };
        s.watch =
            Some(Watch { label: format!("{}{line}", super::Engine::AlphaBeta(asked)), last: start, depth: 0, at: 0, of: 0, mv: None });
    }
    s
}

/// Why the search stopped early.
enum Stop {
    /// The budget ran out.
    Budget,
    Failed(SearchError),
}

impl From<ScriptError> for Stop {
    fn from(e: ScriptError) -> Stop {
        Stop::Failed(e.into())
    }
}

impl From<Interrupted> for Stop {
    fn from(e: Interrupted) -> Stop {
        Stop::Failed(e.into())
    }
}

/// The score of a finished game for `side`, `ply` decisions from the root.
fn outcome_score(r: &Outcome, side: Player, ply: usize) -> i32 {
    match r.winner {
        Winner::Player(w) if w == side => MATE - ply as i32,
        Winner::Player(_) => -(MATE - ply as i32),
        Winner::Draw => 0,
    }
}

/// A position's key in a search table: the position's hash, with what it leaves out that can
/// change the game from here: a continuation's choices, and how often the position occurred
/// (where a repetition rule counts it).
pub(crate) fn table_key(pos: &Position, repetition: bool) -> u64 {
    let mut k = pos.hash();
    if let Some(c) = pos.continuation() {
        let mut h = mix(0xC0 ^ (c.player.0 as u64) << 8 ^ (c.turn.0 as u64) << 16 ^ (c.normal as u64) << 24);
        for b in c.tag.bytes() {
            h = mix(h ^ b as u64);
        }
        for m in &c.moves {
            h = mix(h ^ move_key(m) as u64);
        }
        k ^= h;
    }
    if repetition {
        k ^= mix(0x5E9E_7000 + pos.repetitions() as u64);
    }
    k
}

/// A move's place in a history table of `(cells + 1)²` counts: its start and landing cells
/// (`cells` for none).
pub(crate) fn history_index(m: &Move, cells: usize) -> usize {
    let from = if m.from as usize >= cells { cells } else { m.from as usize };
    let to = m.to().map_or(cells, |t| t as usize);
    from * (cells + 1) + to
}

/// A mate score as stored in the table: relative to the node, not the root.
pub(crate) fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

pub(crate) fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Per piece code: its value for ordering captures and for the static exchange: its kind's
/// value in the evaluation, or [`ROYAL_VALUE`] for a royal piece whose capture ends the game.
pub(super) fn ordering_values(v: &Variant) -> Vec<i32> {
    let r = &*v.rules;
    (0..r.pieces.len())
        .map(|c| {
            if c == 0 {
                return 0;
            }
            let k = crate::piece::PieceCode::from_index(c).kind();
            if r.kind(k).royal && r.royal_ends_game { ROYAL_VALUE } else { r.eval.value(k) }
        })
        .collect()
}

/// Whether the search tells moves that take what they do not list, and whether conversions
/// count: from the rules' constructs (the plan) and `[ai] implicit_takes`.
fn implicit_takes(v: &Variant) -> (bool, bool) {
    match v.rules.eval.implicit_takes {
        ImplicitTakes::Captures => (v.plan.takes_unlisted, false),
        ImplicitTakes::All => (v.plan.takes_unlisted || v.plan.converts, true),
        ImplicitTakes::None => (false, false),
    }
}

/// A move's fingerprint (never 0, which means "no move").
fn move_key(m: &Move) -> u32 {
    let kind = match m.kind {
        MoveKind::Normal => 1u64,
        MoveKind::Off { dir } => 2 + dir as u64,
        MoveKind::Pass => 300,
        MoveKind::Swap => 301,
        MoveKind::Sow => 350,
        MoveKind::Drop { code, .. } => 400 + code.index() as u64,
        MoveKind::Then { code, at, .. } => 1000 + ((code.index() as u64) << 16 | at as u64),
        MoveKind::Promote { code, .. } => 2000 + code.index() as u64,
        MoveKind::Castle { rook_from, .. } => {
            3000 + rook_from as u64 + m.gated().map_or(0, |(code, at, _)| (code.index() as u64 + 1) << 16 | (at as u64) << 24)
        }
    };
    let mut h = mix(kind << 32 ^ m.from as u64 ^ (m.len() as u64) << 16);
    if let Some((to, v)) = m.single() {
        // (Most moves: read from the move alone.)
        return (mix(h ^ (to as u64) << 20 ^ v as u64) as u32) | 1;
    }
    for (&l, &v) in m.landings().iter().zip(m.victim_slots()) {
        h = mix(h ^ (l as u64) << 20 ^ v as u64);
    }
    (h as u32) | 1
}

/// A move's place in the search order: its rank (the negated ordering score, then its index
/// in the list: distinct, so ties go to the earlier move) and its fingerprint ([`move_key`]).
#[derive(Clone, Copy)]
struct Ranked {
    rank: (i32, u32),
    key: u32,
    /// Whether the move takes something ([`Searcher::takes`]).
    takes: bool,
}

/// How many moves [`pick`] selects one by one before it sorts the rest.
const SELECTED: usize = 3;

/// The best ranked move of `ranked[at..]`, moved to `at`: the moves come out in the order a
/// sort of the whole list would give, but most nodes cut off after one or two moves, so the
/// first few are selected one at a time and the rest are sorted only when reached.
#[inline]
fn pick(ranked: &mut [Ranked], at: usize) -> Ranked {
    if at < SELECTED {
        let mut best = at;
        for j in at + 1..ranked.len() {
            if ranked[j].rank < ranked[best].rank {
                best = j;
            }
        }
        ranked.swap(at, best);
    } else if at == SELECTED {
        ranked[at..].sort_unstable_by_key(|r| r.rank);
    }
    ranked[at]
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// `keys` sorted, once each.
fn sorted(keys: &[u64]) -> Vec<u64> {
    let mut v = keys.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// What a search's best score says of the position's value, given the window it searched.
fn bound(best: i32, alpha0: i32, beta: i32) -> u8 {
    if best >= beta {
        LOWER
    } else if best > alpha0 {
        EXACT
    } else {
        UPPER
    }
}

/// What a quiescence node knows once its moves are listed ([`Searcher::quiesce_list`]): the
/// mobility the list gives, and the stand-pat score where it came first.
type Listed = (Option<usize>, Option<i32>);

/// A stored result, unpacked.
#[derive(Clone, Copy)]
struct Entry {
    mv: u32,
    score: i32,
    depth: i32,
    bound: u8,
}

/// A table slot: the key, then the entry packed in a word (so a slot is 16 bytes, four to a
/// cache line, and a probe reads one line): the move's fingerprint in bits 0-31, the score in
/// 32-53 (22 bits, two's complement: scores are within ±[`MATE`]), the depth in 54-61 (0 to
/// [`MAX_DEPTH`]) and the bound in 62-63. A slot whose move is 0 is empty. (An array of
/// words, so that a new table is allocated zeroed rather than written.)
type Slot = [u64; 2];

const SCORE_BITS: u32 = 22;
const _: () = assert!(INF < 1 << (SCORE_BITS - 1) && MAX_DEPTH < 256);

fn pack(e: Entry) -> u64 {
    debug_assert!(e.score.abs() <= INF && (0..256).contains(&e.depth) && e.bound < 4);
    let score = (e.score as u32 as u64) & ((1 << SCORE_BITS) - 1);
    e.mv as u64 | score << 32 | (e.depth as u64) << 54 | (e.bound as u64) << 62
}

fn packed_depth(data: u64) -> i32 {
    (data >> 54) as i32 & 0xFF
}

fn unpack(data: u64) -> Entry {
    // (The score's sign bit shifted to the top of an i64, then back down.)
    let score = ((data << (32 - SCORE_BITS)) as i64 >> (64 - SCORE_BITS)) as i32;
    Entry { mv: data as u32, score, depth: packed_depth(data), bound: (data >> 62) as u8 }
}

/// The transposition table: one entry per slot, replaced unless it holds a deeper result for
/// another position.
struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

impl Table {
    fn new(size: usize) -> Table {
        let size = size.next_power_of_two();
        Table { slots: vec![[0; 2]; size], mask: size - 1 }
    }

    /// Asks for `key`'s slot to be brought into the cache: called as soon as a child position's
    /// key is known, so that the slot is on its way while the child's first steps run. A
    /// prefetch, not a read: a read that misses the cache held the search up until it arrived
    /// (28 % of a checkers search's time).
    #[inline(always)]
    fn touch(&self, key: u64) {
        crate::cache::prefetch(&self.slots[key as usize & self.mask]);
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let [k, data] = self.slots[key as usize & self.mask];
        (k == key && data as u32 != 0).then(|| unpack(data))
    }

    fn store(&mut self, key: u64, mv: u32, score: i32, depth: i32, bound: u8) {
        let [k, data] = &mut self.slots[key as usize & self.mask];
        if *k != key && *data as u32 != 0 && packed_depth(*data) > depth {
            return;
        }
        (*k, *data) = (key, pack(Entry { mv: mv.max(1), score, depth, bound }));
    }
}

struct Searcher<'a> {
    v: &'a Variant,
    eval: Evaluator<'a>,
    tt: Table,
    killers: Vec<[u32; 2]>,
    /// Cutoffs by (from, to), for ordering quiet moves.
    history: Vec<u32>,
    /// By the (from, to) of a move: the quiet move that last refuted it.
    counter: Vec<u32>,
    /// The shortcuts the rules allow ([`Pruning`]).
    pruning: Pruning,
    /// Per ply, set by the move above it: whether the player to decide there is in check,
    /// whether that move was a null move, and its history index (`usize::MAX`: none).
    checked: Vec<bool>,
    nulled: Vec<bool>,
    prev: Vec<usize>,
    /// No null move is tried above this ply (a verification search's own first plies).
    null_from: usize,
    /// The depth of the iteration under way (check extensions stay within twice it).
    root_depth: i32,
    cells: usize,
    /// Per ply: the move list, its moves ranked for the search order, the principal variation
    /// from there.
    lists: Vec<MoveList>,
    keys: Vec<Vec<Ranked>>,
    pv: Vec<Vec<Move>>,
    sorted: MoveList,
    /// The moves a quiescence node's list leaves out ([`Variant::legal_kept_and_any`]).
    rest: MoveList,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    /// Per piece code: its value for ordering captures (royal pieces whose capture ends the
    /// game first).
    values: Vec<i32>,
    /// Per piece code: the most capturing it can change the evaluation (units), for delta
    /// pruning; `None` where the quiescence search must never skip capturing it (a royal piece
    /// whose capture ends the game).
    gains: Vec<Option<i32>>,
    /// Per piece code: whether it may promote (the quiescence search never skips its captures).
    promotes: Vec<bool>,
    /// Whether some move may take something (a listed capture, or one of the rules' implicit
    /// takes where `implicit`): otherwise the quiescence search only evaluates.
    captures: bool,
    /// The rules take what a move does not list (`Plan::takes_unlisted`), or convert pieces
    /// where `[ai] implicit_takes = "all"` counts conversions, and the variant does not say
    /// `"none"`: a move takes something when it lists a victim or when its effects take (or
    /// convert) something ([`Searcher::unlisted_takes`]).
    implicit: bool,
    /// Conversions count as takes (`[ai] implicit_takes = "all"`).
    conversions: bool,
    /// No piece can capture and no hook adds or refuses moves: a quiescence leaf needs only to
    /// know that some move exists, not the whole list (Amazons: ~2000 turns).
    quiet_game: bool,
    /// A position always has a move ([`crate::plan::Plan::always_moves`]): a quiescence node
    /// stands pat before its moves are listed (the evaluation then counts the moves its
    /// mobility term reads itself: the same number the list would give).
    stand_first: bool,
    compulsory: bool,
    repetition: bool,
    /// Without a repetition rule: the positions of the game before the root (the root included)
    /// (sorted: a binary search costs less than hashing the key) and where the search's own
    /// line starts in the position's history.
    seen: Vec<u64>,
    root_len: usize,
    root_side: Player,
    /// The best root move of an unfinished iteration (score, index), and its line.
    partial: Option<(i32, usize)>,
    partial_pv: Vec<Move>,
    start: Instant,
    /// Where the search is, for the progress line (`None` when nobody listens).
    watch: Option<Watch>,
    /// Set by the caller to stop as the budget would ([`Control`]).
    stop: Option<Arc<AtomicBool>>,
    /// Called every 1024 positions ([`Control`]).
    poll: Option<&'a mut dyn FnMut()>,
}

/// Where a search is, for the progress line ([`crate::progress`]).
struct Watch {
    /// The engine as the user asked for it, and which line of an analysis.
    label: String,
    /// When the line was last drawn.
    last: Instant,
    depth: u32,
    /// The root move being searched (from 0) of how many, and which.
    at: usize,
    of: usize,
    mv: Option<Move>,
}

/// How often the progress line is redrawn at most.
const REDRAW: Duration = Duration::from_millis(100);

impl<'a> Searcher<'a> {
    /// A searcher whose table holds at most `table_cap` entries (rounded down to a power of
    /// two, at least 1024).
    fn new(v: &'a Variant, pos: &Position, budget: Budget, start: Instant, table_cap: usize) -> Searcher<'a> {
        let r = &*v.rules;
        // The table's size follows the budget: clearing a large table costs milliseconds, more
        // than a shallow search itself.
        let size = match budget {
            Budget::Nodes(n) => (n as usize).clamp(1 << 12, TABLE_ENTRIES),
            Budget::Depth(d) => 1 << (10 + 2 * d).min(20),
            Budget::Time(_) | Budget::Default => TABLE_ENTRIES,
        }
        .min(1 << table_cap.max(1 << 10).ilog2());
        let listed =
            v.hook(Hook::GenerateMoves).is_some() || r.pieces.iter().any(|p| !p.jumps.is_empty() || p.quiet.iter().any(Form::captures));
        let (implicit, conversions) = implicit_takes(v);
        let captures = listed || implicit;
        let values = ordering_values(v);
        let cells = r.geometry.len();
        let m = &r.eval;
        let gains = (0..r.pieces.len())
            .map(|c| {
                if values[c] >= ROYAL_VALUE {
                    return None;
                }
                // Twice the largest material (a capture that fills the capturer's hand gains
                // the piece too).
                let most = m.material[c * m.cells..(c + 1) * m.cells].iter().map(|u| u.abs()).max().unwrap_or(0);
                Some(2 * most)
            })
            .collect();
        let eval = Evaluator::new(v);
        Searcher {
            v,
            stand_first: v.plan.always_moves,
            eval,
            tt: Table::new(size),
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; (cells + 1) * (cells + 1)],
            counter: vec![0; (cells + 1) * (cells + 1)],
            // (The shortcuts are decided on the listed captures: implicit takes change what the
            // search plays out, not what it may skip.)
            pruning: Pruning::of(v, listed, &values),
            checked: vec![false; MAX_PLY + 2],
            nulled: vec![false; MAX_PLY + 2],
            prev: vec![usize::MAX; MAX_PLY + 2],
            null_from: 0,
            root_depth: 1,
            cells,
            lists: vec![Vec::new(); MAX_PLY + 1],
            keys: vec![Vec::new(); MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 2],
            sorted: Vec::new(),
            rest: Vec::new(),
            nodes: 0,
            max_nodes: match budget {
                Budget::Nodes(n) => n,
                _ => u64::MAX,
            },
            deadline: match budget {
                Budget::Time(t) => Some(start + t),
                _ => None,
            },
            values,
            gains,
            promotes: r.pieces.iter().map(|p| p.promote.is_some()).collect(),
            captures,
            implicit,
            conversions,
            quiet_game: !captures && v.hook(Hook::AllowMove).is_none(),
            compulsory: r.compulsory(),
            repetition: r.repetition,
            seen: if r.repetition { Vec::new() } else { sorted(pos.history()) },
            root_len: pos.history().len(),
            root_side: pos.side(),
            partial: None,
            partial_pv: Vec::new(),
            start,
            watch: None,
            stop: None,
            poll: None,
        }
    }

    /// Redraws the progress line when someone listens and it was drawn over [`REDRAW`] ago
    /// (or at once when `now`): the depth, the root move and the positions searched with their
    /// rate.
    fn show_progress(&mut self, now: bool) {
        let Some(w) = &mut self.watch else { return };
        let now = if now || w.last.elapsed() >= REDRAW { Instant::now() } else { return };
        w.last = now;
        let mv = w.mv.map(|m| format!(" ({})", m.text(&self.v.rules.geometry))).unwrap_or_default();
        let rate = crate::progress::rate(self.nodes, "positions", self.start);
        crate::progress::report(&format!("{}: depth {}, move {} of {}{mv}, {rate} (Ctrl-C stops)", w.label, w.depth, w.at + 1, w.of));
    }

    /// Counts a node; stops on the budget, Ctrl-C (checked every 1024 nodes) or the clock.
    #[inline]
    fn tick(&mut self) -> Result<(), Stop> {
        if self.nodes >= self.max_nodes {
            return Err(Stop::Budget);
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            interrupt::check()?;
            if self.nodes & 0x3FFF == 0 {
                self.show_progress(false);
            }
            if let Some(poll) = self.poll.as_mut() {
                poll();
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                return Err(Stop::Budget);
            }
        }
        Ok(())
    }

    /// What having no legal move scores for the player to decide.
    fn no_moves_score(&self, pos: &Position, ply: usize) -> i32 {
        outcome_score(&self.v.no_moves_outcome(pos), pos.side(), ply)
    }

    /// The table key: the position's hash, with what it leaves out that can change the game
    /// from here: a continuation's choices, and how often the position occurred (where a
    /// repetition rule counts it).
    fn key(&self, pos: &Position) -> u64 {
        table_key(pos, self.repetition)
    }

    /// In a game with no repetition rule, whether the line searched returned to a position
    /// that occurred before (in the game or earlier on the line): such a shuffle makes no
    /// progress, and scores as a draw with [`CONTEMPT`] rather than by the evaluation.
    fn shuffled_back(&self, pos: &Position) -> bool {
        if self.repetition || pos.continuation().is_some() {
            return false;
        }
        let (h, line) = (pos.hash(), pos.history());
        // The position itself is the last entry; the root (not a return) is in `seen`.
        line.len() > self.root_len && (self.seen.binary_search(&h).is_ok() || line[self.root_len..line.len() - 1].contains(&h))
    }

    fn history_index(&self, m: &Move) -> usize {
        history_index(m, self.cells)
    }

    /// Ranks `moves` for [`pick`]: the table's move, captures by the value taken (cheaper
    /// capturers first), killer moves, the counter move, captures that lose material in the
    /// exchange that follows ([`prune::see`]), then quiet moves by history; ties in list
    /// order. With `captures_only`, only the captures are ranked (a quiescence search that
    /// stands pat searches no other move), in the same order among themselves.
    fn rank(&self, pos: &mut Position, moves: &[Move], tt_mv: u32, ply: usize, captures_only: bool, ranked: &mut Vec<Ranked>) {
        ranked.clear();
        let counter = self.counter.get(self.prev[ply]).copied().unwrap_or(0);
        for (i, m) in moves.iter().enumerate() {
            let listed = m.is_capture();
            let unlisted = if listed || !self.implicit { 0 } else { self.unlisted_takes(pos, m) };
            let capture = listed || unlisted > 0;
            if captures_only && !capture {
                continue;
            }
            let k = move_key(m);
            let s = if k == tt_mv {
                TT_RANK
            } else if unlisted > 0 {
                // (What it takes is not listed: ranked by how many, each as an ordinary piece.)
                CAPTURE_RANK + unlisted.min(UNLISTED_MAX) as i32 * UNLISTED_RANK
            } else if capture {
                self.capture_rank(pos, m)
            } else if self.killers[ply][0] == k {
                KILLER_RANK
            } else if self.killers[ply][1] == k {
                KILLER_RANK - 1
            } else if counter == k {
                COUNTER_RANK
            } else {
                self.history[self.history_index(m)].min(HISTORY_MAX) as i32
            };
            ranked.push(Ranked { rank: (-s, i as u32), key: k, takes: capture });
        }
    }

    /// Whether `m` takes something: a victim it lists, or (where the rules take what a move
    /// does not list) one it takes unlisted. What a quiescence search standing pat keeps.
    fn takes(&self, pos: &mut Position, m: &Move) -> bool {
        m.is_capture() || (self.implicit && self.unlisted_takes(pos, m) > 0)
    }

    /// How much `m`, which lists no victim, takes or converts where the rules take what a move
    /// does not list: 0 where the board before it shows it cannot
    /// ([`Position::may_take_unlisted`]), else played by the kernel and taken back
    /// ([`Position::unlisted_takes`]).
    #[inline]
    fn unlisted_takes(&self, pos: &mut Position, m: &Move) -> u32 {
        let r = &*self.v.rules;
        if pos.may_take_unlisted(r, m, self.conversions) { pos.unlisted_takes(r, m, self.conversions) } else { 0 }
    }

    /// A capture's rank: by the value taken, cheaper capturers first; below the killers where
    /// the exchange it starts loses material.
    fn capture_rank(&self, pos: &Position, m: &Move) -> i32 {
        let taken: i32 = m.victims().map(|c| self.values[pos.piece(c).index()]).sum();
        let by = if (m.from as usize) < self.cells { self.values[pos.piece(m.from).index()] } else { 0 };
        if self.pruning.see && by > taken && prune::see(self.v, pos, m, &self.values).is_some_and(|g| g < 0) {
            return BAD_CAPTURE_RANK;
        }
        CAPTURE_RANK + taken * 64 - by.min(ROYAL_VALUE)
    }

    /// Sorts `moves` best first, in the order [`pick`] gives them.
    fn order(&mut self, pos: &mut Position, moves: &mut MoveList, tt_mv: u32, ply: usize) {
        let mut ranked = std::mem::take(&mut self.keys[ply]);
        self.rank(pos, moves, tt_mv, ply, false, &mut ranked);
        // (The ranks are distinct: an unstable sort gives the stable order.)
        ranked.sort_unstable_by_key(|r| r.rank);
        self.sorted.clear();
        self.sorted.extend(ranked.iter().map(|r| moves[r.rank.1 as usize]));
        std::mem::swap(moves, &mut self.sorted);
        self.keys[ply] = ranked;
    }

    /// Keeps `m` followed by the line below it as the line from `ply`.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// One iteration at the root within an aspiration window around `last` (the previous
    /// iteration's score), widened and searched again while the score falls outside it: the
    /// score and index of the best move.
    fn aspire(&mut self, pos: &mut Position, root: &[Move], depth: i32, last: i32) -> Result<(i32, usize), Stop> {
        self.root_depth = depth;
        let mut delta = ASPIRATION;
        let (mut lo, mut hi) = if depth >= 4 && last.abs() < EVAL_MAX { (last - delta, last + delta) } else { (-INF, INF) };
        loop {
            let (s, i) = self.root(pos, root, depth, (lo, hi))?;
            delta = delta.saturating_mul(4);
            if s <= lo && lo > -INF {
                lo = if s - delta < -EVAL_MAX { -INF } else { s - delta };
            } else if s >= hi && hi < INF {
                hi = if s + delta > EVAL_MAX { INF } else { s + delta };
            } else {
                return Ok((s, i));
            }
        }
    }

    /// One pass over the root moves within the window `(lo, hi)`: the best score and its move's
    /// index (a score at most `lo` or at least `hi` is a bound, not the value).
    fn root(&mut self, pos: &mut Position, root: &[Move], depth: i32, (lo, hi): (i32, i32)) -> Result<(i32, usize), Stop> {
        self.partial = None;
        self.pv[0].clear();
        let side = pos.side();
        let mut alpha = lo;
        let mut best = (-INF, 0);
        for (i, &m) in root.iter().enumerate() {
            if let Some(w) = &mut self.watch {
                (w.at, w.mv) = (i, Some(m));
                self.show_progress(false);
            }
            self.v.make(pos, &m)?;
            self.enter(pos, 1, &m);
            let same = pos.side() == side;
            let r = self.pvs(pos, depth - 1, alpha, hi, 1, same, i == 0);
            pos.undo();
            let s = r?;
            if s > best.0 {
                best = (s, i);
            }
            if s > alpha {
                alpha = s;
                self.update_pv(0, m);
                self.partial = Some((s, i));
                self.partial_pv = self.pv[0].clone();
                if s >= hi {
                    break;
                }
            }
        }
        Ok(best)
    }

    /// Whether the player to decide wins with its next move by a royal runner reaching its
    /// zone ([`Pruning::escapes`]): then no move need be searched. (Without it, a runner's
    /// threat met as a check searched every reply a decision deeper, most of them losing to
    /// that move, which the search found only after the others: 1.56 million positions for a
    /// depth-3 search of one Hnefatafl position.)
    fn escapes(&mut self, pos: &Position) -> bool {
        self.pruning.escapes && pos.continuation().is_none() && self.eval.runner_escapes(pos, pos.side())
    }

    /// Notes, for the node at `ply` that `m` just led to, whether its player is in check (or
    /// faces a royal runner one move from its winning zone), that
    /// `m` was a real move, and `m`'s history index.
    fn enter(&mut self, pos: &Position, ply: usize, m: &Move) {
        self.checked[ply] =
            (self.pruning.checks && self.v.in_check(pos)) || (self.pruning.threats && self.eval.runner_escapes(pos, pos.side().other()));
        self.nulled[ply] = false;
        self.prev[ply] = self.history_index(m);
    }

    /// A child searched with a null window first (unless it is the first), then with the full
    /// window if it might be better.
    #[allow(clippy::too_many_arguments)]
    fn pvs(&mut self, pos: &mut Position, depth: i32, alpha: i32, beta: i32, ply: usize, same: bool, first: bool) -> Result<i32, Stop> {
        if first || alpha == -INF {
            return self.child(pos, depth, alpha, beta, ply, same);
        }
        let s = self.child(pos, depth, alpha, alpha + 1, ply, same)?;
        if s > alpha && s < beta { self.child(pos, depth, alpha, beta, ply, same) } else { Ok(s) }
    }

    /// A child's score for the player deciding above it: as it is when that player decides
    /// again, negated when the other player does.
    fn child(&mut self, pos: &mut Position, depth: i32, alpha: i32, beta: i32, ply: usize, same: bool) -> Result<i32, Stop> {
        if same { self.node(pos, depth, alpha, beta, ply) } else { Ok(-self.node(pos, depth, -beta, -alpha, ply)?) }
    }

    fn node(&mut self, pos: &mut Position, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> Result<i32, Stop> {
        self.pv[ply].clear();
        if let Some(r) = pos.result() {
            return Ok(outcome_score(r, pos.side(), ply));
        }
        if self.escapes(pos) {
            return Ok(MATE - ply as i32 - 1);
        }
        if self.shuffled_back(pos) {
            return Ok(if pos.side() == self.root_side { -CONTEMPT } else { CONTEMPT });
        }
        // Check extension: a player in check is searched a decision deeper (while the line is
        // within twice the iteration's depth, so that checks cannot extend it without end).
        let check = self.checked[ply];
        let depth = if check && (ply as i32) < 2 * self.root_depth { depth + 1 } else { depth };
        if depth <= 0 || ply + QMAX + 2 >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, 0, NONE);
        }
        self.tick()?;
        // No line from here wins sooner than the next decision or loses sooner than now.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Ok(alpha);
        }
        let key = self.key(pos);
        let mut tt_mv = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_mv = e.mv;
            let s = from_tt(e.score, ply);
            if e.depth >= depth && (e.bound == EXACT || (e.bound == LOWER && s >= beta) || (e.bound == UPPER && s <= alpha)) {
                return Ok(s);
            }
        }
        let (cut, stat) = self.cut_early(pos, depth, (alpha, beta), ply, check)?;
        if let Some(s) = cut {
            return Ok(s);
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let r = self.node_moves(pos, &mut moves, (depth, alpha, beta, ply), (key, tt_mv), (check, stat));
        self.lists[ply] = moves;
        r
    }

    /// The cuts a node may take before its moves are listed (none in check, at a node of the
    /// principal variation, mid-turn, or near a proven result), where [`Pruning`] allows them:
    /// reverse futility, razoring, the null move. Returns the node's score if one applies, and
    /// the evaluation where it was computed (for futility among the moves).
    fn cut_early(
        &mut self,
        pos: &mut Position,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        check: bool,
    ) -> Result<(Option<i32>, Option<i32>), Stop> {
        let p = &self.pruning;
        if check
            || beta - alpha > 1
            || pos.continuation().is_some()
            || alpha.abs() >= EVAL_MAX
            || beta.abs() >= EVAL_MAX
            || !(p.futility || p.null)
        {
            return Ok((None, None));
        }
        let e = self.eval.score(pos)?;
        if self.pruning.futility {
            if depth <= 3 && e - RFP_MARGIN * depth >= beta {
                return Ok((Some(e), Some(e)));
            }
            if depth <= 2 && e + RAZOR_MARGIN * depth < alpha {
                let q = self.quiesce(pos, alpha, alpha + 1, ply, 0, NONE)?;
                if q <= alpha {
                    return Ok((Some(q), Some(e)));
                }
            }
        }
        if self.pruning.null && depth >= 2 && e >= beta && ply >= self.null_from && !self.nulled[ply] && self.pruning.has_major(pos) {
            return Ok((self.null_move(pos, depth, beta, ply, e)?, Some(e)));
        }
        Ok((None, Some(e)))
    }

    /// Null-move pruning: the player to decide passes, and the opponent is searched shallower
    /// with a window at beta; if even then the player stays at beta or above, the node's
    /// score (verified from [`VERIFY_DEPTH`] on by a search of the node without null moves).
    fn null_move(&mut self, pos: &mut Position, depth: i32, beta: i32, ply: usize, e: i32) -> Result<Option<i32>, Stop> {
        let r = 2 + depth / 4 + ((e - beta) / 2000).min(2);
        self.v.make_null(pos);
        (self.checked[ply + 1], self.nulled[ply + 1], self.prev[ply + 1]) = (false, true, usize::MAX);
        let s = self.node(pos, depth - 1 - r, -beta, -beta + 1, ply + 1);
        pos.undo();
        let s = -s?;
        if s < beta {
            return Ok(None);
        }
        let s = s.min(EVAL_MAX);
        if depth < VERIFY_DEPTH {
            return Ok(Some(s));
        }
        let saved = self.null_from;
        self.null_from = ply + (3 * (depth - r) / 4) as usize;
        let verified = self.node(pos, depth - r, beta - 1, beta, ply);
        self.null_from = saved;
        Ok((verified? >= beta).then_some(s))
    }

    /// A node's moves listed, ranked and searched; the result stored in the table.
    fn node_moves(
        &mut self,
        pos: &mut Position,
        moves: &mut MoveList,
        (depth, alpha, beta, ply): (i32, i32, i32, usize),
        (key, tt_mv): (u64, u32),
        (check, stat): (bool, Option<i32>),
    ) -> Result<i32, Stop> {
        // Where each move is judged alone, the moves are tested as they come up in the search
        // order (most nodes are cut after one or two): the legal ones, in the same order.
        let mut judged = self.v.unfiltered_moves(pos, moves)?.then(Judged::default);
        let (best, best_key) = loop {
            if judged.is_none() {
                self.v.legal_moves(pos, moves)?;
            }
            if moves.is_empty() {
                if judged.take().is_some() {
                    continue;
                }
                return Ok(self.no_moves_score(pos, ply));
            }
            let mut ranked = std::mem::take(&mut self.keys[ply]);
            self.rank(pos, moves, tt_mv, ply, false, &mut ranked);
            let r = self.search_moves(pos, moves, &mut ranked, (depth, alpha, beta, ply), (check, stat), judged.as_mut());
            self.keys[ply] = ranked;
            let found = r?;
            // None was legal: the legal list says what the player does (no move, or a pass).
            if found.0 == -INF && judged.take().is_some() {
                continue;
            }
            break found;
        };
        self.tt.store(key, best_key, to_tt(best, ply), depth, bound(best, alpha, beta));
        Ok(best)
    }

    /// [`Searcher::node_moves`]' loop over `moves` in the order `ranked` gives: the best score
    /// and its move's fingerprint. Quiet moves late in the order are searched shallower first
    /// (late-move reductions) and, within 2 decisions of the frontier where the evaluation
    /// `stat` is far below alpha, skipped (futility); neither for a move that gives check.
    fn search_moves(
        &mut self,
        pos: &mut Position,
        moves: &[Move],
        ranked: &mut [Ranked],
        (depth, mut alpha, beta, ply): (i32, i32, i32, usize),
        (check, stat): (bool, Option<i32>),
        mut judged: Option<&mut Judged>,
    ) -> Result<(i32, u32), Stop> {
        let side = pos.side();
        let pv_node = beta - alpha > 1;
        let futile = stat.filter(|_| depth <= 2 && self.pruning.futility && !check).map(|e| e + FUTILITY_MARGIN * depth);
        let (mut best, mut best_key) = (-INF, 0);
        // `i` counts the legal moves reached (where the moves are judged one at a time, some
        // picked are not legal).
        let mut legal = 0;
        for at_rank in 0..ranked.len() {
            let Ranked { rank: (rank, at), key, takes } = pick(ranked, at_rank);
            let m = moves[at as usize];
            if let Some(jd) = judged.as_deref_mut()
                && !self.v.legal_alone(pos, &m, jd, &mut self.rest)?
            {
                continue;
            }
            let i = legal;
            legal += 1;
            let quiet = -rank < COUNTER_RANK && !takes && m.promoted().is_none();
            self.v.make(pos, &m)?;
            self.tt.touch(self.key(pos));
            self.enter(pos, ply + 1, &m);
            let gives = self.checked[ply + 1];
            if let Some(f) = futile
                && quiet
                && !gives
                && i > 0
                && f <= alpha
                && pos.result().is_none()
            {
                pos.undo();
                best = best.max(f);
                continue;
            }
            let same = pos.side() == side;
            let reduce = if quiet && !gives && !check { (prune::reduction(depth, i) - pv_node as i32).max(0) } else { 0 };
            let r = self.late(pos, (depth, reduce), (alpha, beta), ply, same, i == 0);
            pos.undo();
            let s = r?;
            if s > best {
                best = s;
                best_key = key;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        if !takes {
                            self.refuted_by(&m, key, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        Ok((best, best_key))
    }

    /// A child searched `reduce` decisions shallower with a null window first, where `reduce`
    /// is not 0, then as [`Searcher::pvs`] does if it might raise alpha.
    fn late(
        &mut self,
        pos: &mut Position,
        (depth, reduce): (i32, i32),
        (alpha, beta): (i32, i32),
        ply: usize,
        same: bool,
        first: bool,
    ) -> Result<i32, Stop> {
        if reduce > 0 {
            let s = self.child(pos, depth - 1 - reduce, alpha, alpha + 1, ply + 1, same)?;
            if s <= alpha {
                return Ok(s);
            }
        }
        self.pvs(pos, depth - 1, alpha, beta, ply + 1, same, first)
    }

    /// A quiet move `m` (fingerprint `key`) caused a cutoff at `ply`: it becomes a killer there,
    /// the counter move to the move above, and gains history.
    fn refuted_by(&mut self, m: &Move, key: u32, depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != key {
            k[1] = k[0];
            k[0] = key;
        }
        if let Some(c) = self.counter.get_mut(self.prev[ply]) {
            *c = key;
        }
        let h = self.history_index(m);
        self.history[h] = self.history[h].saturating_add((depth * depth) as u32);
    }

    /// The quiescence search: the evaluation, unless a capture (or a decision the player cannot
    /// decline: a continuation's listed choices, a compulsory capture) changes it.
    fn quiesce(&mut self, pos: &mut Position, alpha: i32, beta: i32, ply: usize, q: usize, last: u16) -> Result<i32, Stop> {
        self.pv[ply].clear();
        if let Some(r) = pos.result() {
            return Ok(outcome_score(r, pos.side(), ply));
        }
        if self.escapes(pos) {
            return Ok(MATE - ply as i32 - 1);
        }
        self.tick()?;
        let mut moves = std::mem::take(&mut self.lists[ply]);
        if self.quiet_game && pos.continuation().is_none() && movegen::has_quiet_move(&self.v.rules, pos, pos.side(), &mut moves) {
            self.lists[ply] = moves;
            return Ok(self.eval.score(pos)?);
        }
        let r = self.quiesce_moves(pos, &mut moves, alpha, beta, ply, q, last);
        self.lists[ply] = moves;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn quiesce_moves(
        &mut self,
        pos: &mut Position,
        moves: &mut MoveList,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        q: usize,
        last: u16,
    ) -> Result<i32, Stop> {
        // The table holds quiescence results as depth 0, and answers from any depth. It is read
        // after the moves are listed (which reads nothing the table holds, and writes nothing
        // to it: the same answers in the same tree): the slot the parent asked for
        // ([`Table::touch`]) has then arrived, where reading it first waited for it (half of
        // this function's time in checkers and Lielow).
        let listed = self.quiesce_list(pos, moves, beta, ply, q)?;
        let key = self.key(pos);
        let mut tt_mv = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_mv = e.mv;
            let s = from_tt(e.score, ply);
            if e.bound == EXACT || (e.bound == LOWER && s >= beta) || (e.bound == UPPER && s <= alpha) {
                return Ok(s);
            }
        }
        let (own, known) = match listed {
            Ok(listed) => listed,
            Err(score) => return Ok(score),
        };
        let forced = pos.continuation().is_some_and(|c| !c.normal) || (self.compulsory && moves.iter().all(Move::is_capture));
        if q >= QMAX || ply + 2 >= MAX_PLY || (!forced && !self.captures) {
            return Ok(self.eval.score_counted(pos, own)?);
        }
        let alpha0 = alpha;
        let mut stand = None;
        if !forced {
            let s = match known {
                Some(s) => s,
                None => self.eval.score_counted(pos, own)?,
            };
            if s >= beta {
                return Ok(s);
            }
            alpha = alpha.max(s);
            stand = Some(s);
            if !self.implicit && !moves.iter().any(Move::is_capture) {
                return Ok(s);
            }
        }
        let mut ranked = std::mem::take(&mut self.keys[ply]);
        // (Standing pat, only captures are searched: where none takes anything, the stand.)
        self.rank(pos, moves, tt_mv, ply, !forced, &mut ranked);

        if let Some(s) = stand
            && ranked.is_empty()
        {
            self.keys[ply] = ranked;
            return Ok(s);
        }
        let only = if q >= QRECAPTURE && !forced { last } else { NONE };
        let r = self.quiesce_loop(pos, moves, &mut ranked, (alpha, beta), (ply, q), (stand, only));
        self.keys[ply] = ranked;
        let (best, best_key) = r?;
        // Only a result some move gave is stored (a stand-pat keeps no move to try first).
        if best_key != 0 {
            self.tt.store(key, best_key, to_tt(best, ply), 0, bound(best, alpha0, beta));
        }
        Ok(best)
    }

    /// A quiescence node's moves listed into `moves`, with what the evaluation may take of it
    /// ([`Listed`]; where the stand came first, only the captures are listed); or (`Err`) the
    /// node's score where no more is needed.
    fn quiesce_list(
        &mut self,
        pos: &mut Position,
        moves: &mut MoveList,
        beta: i32,
        ply: usize,
        q: usize,
    ) -> Result<Result<Listed, i32>, Stop> {
        // A position whose moves are all steps to empty cells (no capture) is evaluated as the
        // list would lead to, from the moves' count (the mobility term's own count where the
        // list is every kernel move). (Not where a step may take what it does not list.)
        if !self.implicit
            && let Some(n) = movegen::count_quiet_steps(&self.v.rules, &self.v.plan, pos)
        {
            return Ok(Err(match n {
                0 => self.no_moves_score(pos, ply),
                n => self.eval.score_counted(pos, self.v.plan.kernel_moves_listed.then_some(n as usize))?,
            }));
        }
        // Where a move always exists, the stand-pat score and the cuts that need no list come
        // first: the same score the listing below would give.
        let mut known = None;
        if self.stand_first && pos.continuation().is_none() {
            let s = self.eval.score(pos)?;
            if s >= beta || q >= QMAX || ply + 2 >= MAX_PLY || !self.captures {
                return Ok(Err(s));
            }
            known = Some(s);
        }
        // (The evaluation's mobility term takes the count of the list where it is one.) Standing
        // pat, only captures are searched: where the stand came first, only they are listed.
        let own = match known {
            Some(_) => {
                self.v.legal_moves_kept(pos, moves, &mut |p, m| self.takes(p, m))?;
                None
            }
            None => {
                // Where the filters judge each move alone, the moves the stand-pat search would
                // skip are tested only until one is legal (a player with a legal move is
                // neither mated nor stalemated): the same score, without testing them all.
                let mut rest = std::mem::take(&mut self.rest);
                let kept = self.v.legal_kept_and_any(pos, moves, &mut rest, &mut |p, m| self.takes(p, m));
                self.rest = rest;
                match kept? {
                    Some(own) => return Ok(Ok((own, None))),
                    None => self.v.legal_moves_and_mobility(pos, moves)?,
                }
            }
        };
        if let Some(s) = known
            && moves.is_empty()
        {
            return Ok(Err(s));
        }
        if moves.is_empty() {
            return Ok(Err(self.no_moves_score(pos, ply)));
        }
        Ok(Ok((own, known)))
    }

    /// [`Searcher::quiesce_moves`]' loop over `moves` in the order `ranked` gives, from the
    /// stand-pat score `stand` (`None` where the move is forced), only captures on `only` where
    /// that is a cell: the best score and its move's fingerprint (0 when no move beat `stand`).
    fn quiesce_loop(
        &mut self,
        pos: &mut Position,
        moves: &[Move],
        ranked: &mut [Ranked],
        (mut alpha, beta): (i32, i32),
        (ply, q): (usize, usize),
        (stand, only): (Option<i32>, u16),
    ) -> Result<(i32, u32), Stop> {
        let side = pos.side();
        let (mut best, mut best_key) = (stand.unwrap_or(-INF), 0);
        for i in 0..ranked.len() {
            let Ranked { rank: (rank, at), key, .. } = pick(ranked, i);
            let m = moves[at as usize];
            // Standing pat, a capture that loses material in the exchange it starts is not tried.
            // (A take the move does not list is never skipped so: what it takes is not known.)
            if stand.is_some_and(|stand| -rank == BAD_CAPTURE_RANK || (m.is_capture() && self.futile(pos, &m, stand, alpha))) {
                continue;
            }
            if only != NONE && !m.victims().any(|c| c == only) {
                continue;
            }
            self.v.make(pos, &m)?;
            self.tt.touch(self.key(pos));
            let to = m.to().unwrap_or(NONE);
            let r = if pos.side() == side {
                self.quiesce(pos, alpha, beta, ply + 1, q + 1, to)
            } else {
                self.quiesce(pos, -beta, -alpha, ply + 1, q + 1, to).map(|s| -s)
            };
            pos.undo();
            let s = r?;
            if s > best {
                best = s;
                best_key = key;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        Ok((best, best_key))
    }

    /// Delta pruning: whether the capture `m` cannot lift the stand-pat score `stand` to
    /// `alpha` even if it gains its victims' whole value and [`DELTA`] more. Never for a
    /// capture of a royal piece whose loss ends the game, nor by a piece that may promote.
    fn futile(&self, pos: &Position, m: &Move, stand: i32, alpha: i32) -> bool {
        if (m.from as usize) >= self.cells || self.promotes[pos.piece(m.from).index()] || m.promoted().is_some() {
            return false;
        }
        let mut gain = DELTA;
        for c in m.victims() {
            match self.gains[pos.piece(c).index()] {
                Some(g) => gain += g,
                None => return false,
            }
        }
        stand.saturating_add(gain) <= alpha
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::rng;

    fn best(v: &Variant, text: &str, budget: Budget, seed: u64) -> (String, SearchResult) {
        let mut pos = Position::from_text(&v.rules, text).unwrap();
        let before = pos.clone();
        let r = search(v, &mut pos, budget, &mut rng(seed)).unwrap();
        assert_eq!(pos, before, "the search restores the position");
        (r.best.map(|m| m.text(&v.rules.geometry)).unwrap_or_default(), r)
    }

    #[test]
    fn scores_read_as_results() {
        assert_eq!(Score(MATE - 3).to_string(), "win in 3");
        assert_eq!(Score(-(MATE - 2)).to_string(), "loss in 2");
        assert_eq!(Score(1250).to_string(), "+1.25");
        assert_eq!(Score(-500).to_string(), "-0.50");
        assert_eq!(Score(0).win_in(), None);
    }

    #[test]
    fn a_packed_entry_reads_back() {
        for score in [0, 1, -1, 999, -1000, EVAL_MAX, -EVAL_MAX, MATE_BOUND, -MATE_BOUND, MATE, -MATE, INF, -INF] {
            for (mv, depth, bound) in [(1, 0, EXACT), (u32::MAX, MAX_DEPTH as i32, LOWER), (0x8000_0001, 7, UPPER)] {
                let e = unpack(pack(Entry { mv, score, depth, bound }));
                assert_eq!((e.mv, e.score, e.depth, e.bound), (mv, score, depth, bound));
            }
        }
        // A slot keeps the deeper result of another position, and takes any result of its own.
        let mut t = Table::new(4);
        t.store(1, 7, -5, 3, LOWER);
        t.store(5, 9, 8, 2, EXACT);
        assert!(t.probe(5).is_none());
        let e = t.probe(1).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (7, -5, 3, LOWER));
        t.store(1, 0, 4, 1, UPPER);
        let e = t.probe(1).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (1, 4, 1, UPPER));
    }

    #[test]
    fn moves_are_picked_in_the_sorted_order() {
        // Scores with many ties (ties go to the earlier move), in lists of every length around
        // the point where picking turns to sorting.
        let mut r = rng(7);
        for n in 0..12 {
            let mut ranked: Vec<Ranked> =
                (0..n).map(|i| Ranked { rank: (-r.random_range(0..4), i as u32), key: 100 + i as u32, takes: false }).collect();
            let mut sorted = ranked.clone();
            sorted.sort_by_key(|x| x.rank);
            let picked: Vec<(i32, u32, u32)> = (0..n).map(|i| pick(&mut ranked, i)).map(|x| (x.rank.0, x.rank.1, x.key)).collect();
            assert_eq!(picked, sorted.iter().map(|x| (x.rank.0, x.rank.1, x.key)).collect::<Vec<_>>(), "{n} moves");
        }
    }

    #[test]
    fn capture_storms_stay_small() {
        // Grasshopper chess after a3-a4 h6-h5 h3-h4 e6-e5 b3-b4 a6-a5: nearly every grasshopper
        // can hop onto a piece. Without the quiescence search's table, delta pruning and
        // recaptures-only limit, depth 2 searched 786,350 positions; with them 11,456.
        let v = Variant::load("grasshopper", &[]).unwrap();
        let mut pos = v.start();
        for t in ["a3-a4", "h6-h5", "h3-h4", "e6-e5", "b3-b4", "a6-a5"] {
            v.play(&mut pos, t).unwrap();
        }
        let before = pos.clone();
        let r = search(&v, &mut pos, Budget::Depth(2), &mut rng(1)).unwrap();
        assert_eq!(pos, before, "the search restores the position");
        assert!(r.nodes < 30_000, "{} positions", r.nodes);
        assert_eq!(r.depth, 2);
    }

    #[test]
    fn the_quiescence_search_sees_a_custodian_capture() {
        // White's f3-f5 takes the attacker on e5 (against the defender on d5), but opens row 3:
        // a3-f3 then takes the king between f3 and f1. A custodian capture lists no victim:
        // counting only listed victims, a depth-1 search sees the attacker won and stops
        // there; counting what moves take, its quiescence search plays a3-f3. (Without the
        // king's routes, which would weigh his ways to the corners in the same search.)
        let (mut on, mut off) = (Variant::load("brandubh", &[]).unwrap(), Variant::load("brandubh", &[]).unwrap());
        Arc::make_mut(&mut on.rules).eval.runners.clear();
        let eval = &mut Arc::make_mut(&mut off.rules).eval;
        (eval.implicit_takes, eval.runners) = (ImplicitTakes::None, Vec::new());
        let at = "7/7/3DA2/7/A4D1/5K1/5A1 white";
        for seed in 1..4 {
            assert_eq!(best(&off, at, Budget::Depth(1), seed).0, "f3-f5");
            let (m, r) = best(&on, at, Budget::Depth(1), seed);
            assert_ne!(m, "f3-f5", "seed {seed}");
            assert!(r.score.0 > -MATE_BOUND);
            // At depth 2 both see it.
            assert_ne!(best(&off, at, Budget::Depth(2), seed).0, "f3-f5");
        }
    }

    #[test]
    fn a_king_one_move_from_a_corner_is_searched_as_a_check() {
        // Brandubh, the king alone on d4 against one attacker on b2: d4-d7 threatens both a7
        // and g7, and one attacker closes at most one (b2-b7, say), so the king escapes on the
        // third ply. At depth 2 the search sees that only because the reply to a threat is
        // searched a decision deeper (the third ply then reaches the corner); without the
        // runners it sees the threat only as the evaluation's points.
        let at = "7/7/7/3K3/7/1A5/7 white";
        let v = Variant::load("brandubh", &[]).unwrap();
        let (m, r) = best(&v, at, Budget::Depth(2), 1);
        assert_eq!(r.score.win_in(), Some(3), "{m}");
        let mut off = Variant::load("brandubh", &[]).unwrap();
        Arc::make_mut(&mut off.rules).eval.runners.clear();
        assert_eq!(best(&off, at, Budget::Depth(2), 1).1.score.win_in(), None);
    }

    #[test]
    fn a_runner_that_escapes_in_one_is_scored_without_a_search() {
        // Brandubh, the king alone on d7 between the corners a7 and g7, the one attacker (b2)
        // to move: whatever it plays, one side stays open and the king escapes on the next ply.
        // Each reply's position is scored as won in one as it is entered, before it counts as
        // a position searched, so a depth-3 search counts at most one per reply (13 replies);
        // searching the king's moves under each reply instead (the escape among them) counted
        // 66.
        let v = Variant::load("brandubh", &[]).unwrap();
        let (_, r) = best(&v, "3K3/7/7/7/7/1A5/7 black", Budget::Depth(3), 1);
        assert_eq!(r.score.to_string(), "loss in 2");
        assert!(r.nodes <= 13, "{} positions", r.nodes);
    }

    /// (game, depth, positions) of [`games_without_implicit_takes_search_as_before`].
    const BEFORE: &[(&str, u32, u64)] = &[
        ("chess", 5, 5_033),
        ("checkers", 8, 7_578),
        // (1,323 before the null move ran in shogi, whose 28 piece codes had kept no cell
        // sets: the same line and score, 499 positions.)
        ("shogi", 3, 499),
        ("amazons", 2, 12_493),
        ("lielow", 5, 22_453),
        ("connect-four", 8, 23_197),
        ("xiangqi", 4, 7_128),
        // (Conversions are not counted unless the variant says so.)
        ("othello", 5, 380),
        ("ataxx", 3, 586),
    ];
    const BEFORE_OFF: &[(&str, u32, u64)] =
        &[("brandubh", 4, 16_252), ("hnefatafl", 3, 17_661), ("go", 3, 7_233), ("kalah", 6, 994), ("oware", 6, 1_954)];

    #[test]
    fn games_without_implicit_takes_search_as_before() {
        // Positions searched to fixed depths from the start, as the search counted them before
        // moves that take what they do not list were told apart (commit 41956ae, `boardlab
        // analyse NAME --engine ab:dN --lines 1`): where no construct takes what a move does
        // not list, a move takes exactly when it lists a victim, and the search is unchanged.
        for (name, depth, nodes) in BEFORE {
            let mut v = Variant::load(name, &[]).unwrap();
            assert!(!v.plan.takes_unlisted, "{name}");
            // The evaluation as it was then: the terms added since (Lielow's royal and
            // attributes, Connect Four's threats) left out.
            let eval = &mut Arc::make_mut(&mut v.rules).eval;
            (eval.threats, eval.royal, eval.level_units) = (0, 0, 0);
            let r = search(&v, &mut v.start(), Budget::Depth(*depth), &mut rng(1)).unwrap();
            assert_eq!(r.nodes, *nodes, "{name} to depth {depth}");
        }
        // With `[ai] implicit_takes = "none"`, a game that has such constructs searches as before
        // (without the tafl king's routes, added since, and the search's view of them).
        for (name, depth, nodes) in BEFORE_OFF {
            let mut v = Variant::load(name, &[]).unwrap();
            assert!(v.plan.takes_unlisted, "{name}");
            let eval = &mut Arc::make_mut(&mut v.rules).eval;
            (eval.implicit_takes, eval.runners) = (ImplicitTakes::None, Vec::new());
            let r = search(&v, &mut v.start(), Budget::Depth(*depth), &mut rng(1)).unwrap();
            assert_eq!(r.nodes, *nodes, "{name} to depth {depth}, implicit takes off");
        }
    }

    #[test]
    fn lielow_takes_the_king() {
        // h6xh8 captures the black king; nine other moves do not.
        let v = Variant::load("lielow", &[]).unwrap();
        let (m, r) = best(&v, "7p[1,2]/8/7P[0,2]/8/8/8/P[1,3]7/8 white 4", Budget::Depth(3), 1);
        assert_eq!(m, "h6xh8");
        assert_eq!(r.score.win_in(), Some(1));
    }

    #[test]
    fn the_depth_reported_is_the_one_the_score_comes_from() {
        // Checkers' start within node budgets that run out in mid-iteration: the score is that
        // of the depth reported (the unfinished iteration's where a move searched there set
        // it), so the best move searched alone to that depth scores the same.
        let v = Variant::load("checkers", &[]).unwrap();
        let mut pos = v.start();
        let mut others = Vec::new();
        for nodes in [10_000, 25_000, 40_000] {
            let r = search(&v, &mut pos, Budget::Nodes(nodes), &mut rng(1)).unwrap();
            let best = r.best.unwrap();
            v.legal_moves(&mut pos, &mut others).unwrap();
            others.retain(|m| *m != best);
            let alone = search_except(&v, &mut pos, Budget::Depth(r.depth), &mut rng(1), &others).unwrap();
            assert_eq!((alone.best, alone.score, alone.depth), (Some(best), r.score, r.depth), "{nodes} positions");
        }
    }

    #[test]
    fn the_pruned_search_finds_the_shortest_mates() {
        // Mates in 2 and 3 (Fairy-Stockfish's search agrees): null moves, reductions and
        // futility must not hide them or lengthen them.
        let v = Variant::load("chess", &[]).unwrap();
        for (fen, plies) in [
            ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 3),
            ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 5),
            ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 5),
        ] {
            let mut pos = crate::fen::read(&v.rules, fen).unwrap();
            let r = search(&v, &mut pos, Budget::Nodes(200_000), &mut rng(1)).unwrap();
            assert_eq!(r.score.win_in(), Some(plies), "{fen}");
        }
    }

    /// Where a move always exists (Go's pass), a quiescence node stands pat before its moves
    /// are listed and lists only the captures ([`Variant::legal_moves_kept`]): the searches are
    /// the plain ones (the plan's shortcut off), move, score, line and positions visited, from
    /// positions of random games (captures and superko among them).
    #[test]
    fn standing_pat_before_the_list_searches_as_the_list() {
        for name in ["go", "go-japanese"] {
            let v = Variant::load(name, &[]).unwrap();
            assert!(v.plan.always_moves, "{name}: a pass at any turn");
            let mut plain = Variant::load(name, &[]).unwrap();
            plain.plan.always_moves = false;
            let (mut r, mut pos, mut moves) = (rng(7), v.start(), Vec::new());
            let mut compared = 0;
            for ply in 0..100u64 {
                if ply % 25 == 20 {
                    let a = search(&v, &mut pos.clone(), Budget::Depth(2), &mut rng(ply)).unwrap();
                    let b = search(&plain, &mut pos.clone(), Budget::Depth(2), &mut rng(ply)).unwrap();
                    assert_eq!((a.best, a.score, a.nodes, a.pv), (b.best, b.score, b.nodes, b.pv), "{name} after {ply} plies");
                    compared += 1;
                }
                v.legal_moves(&mut pos, &mut moves).unwrap();
                // (Random play without passes, so that the game goes on and stones are taken.)
                moves.retain(|m| *m != Move::PASS);
                if moves.is_empty() {
                    break;
                }
                let m = moves[r.random_range(0..moves.len())];
                v.make(&mut pos, &m).unwrap();
            }
            assert_eq!(compared, 4, "{name}");
        }
    }

    #[test]
    fn a_shuffle_back_scores_as_a_draw_with_contempt() {
        // Bivouac has no repetition rule. After c5-c6 d7-d6 c6-c5, black's d6-d7 returns to the
        // start position: scored -CONTEMPT for black (a draw, slightly disliked), not by the
        // evaluation, which would call it level (the start is symmetric).
        let v = Variant::load("bivouac", &[]).unwrap();
        let mut pos = v.start();
        for t in ["c5-c6", "d7-d6", "c6-c5"] {
            v.play(&mut pos, t).unwrap();
        }
        let mut moves = Vec::new();
        v.legal_moves(&mut pos, &mut moves).unwrap();
        let back = v.find_move(&mut pos, "d6-d7").unwrap();
        let others: Vec<Move> = moves.iter().copied().filter(|m| *m != back).collect();
        let before = pos.clone();
        let r = search_except(&v, &mut pos, Budget::Depth(3), &mut rng(1), &others).unwrap();
        assert_eq!(pos, before);
        assert_eq!(r.best, Some(back));
        assert_eq!(r.score, Score(-CONTEMPT));
        // Where the variant has a repetition rule, the rule decides instead (Pyramida: a third
        // repetition loses), and a first return is searched as any position.
        assert!(Variant::load("pyramida", &[]).unwrap().rules.repetition);
    }
}
