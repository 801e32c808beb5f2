//! What a machine player's evaluation measures in a variant, derived once at load from the
//! rules themselves (pieces, movement, end conditions) and adjusted by `[ai.eval]`. The result,
//! an [`EvalModel`], is a set of tables indexed by piece code and cell: evaluating a position
//! (in `ai::eval`) only adds table entries, with no names and no searching.
//!
//! The terms ([`Term`]), each a score per player (the evaluation is own minus opponent's):
//! - **material**: a value per piece on the board. By default a kind is worth 100 points scaled
//!   by the square root of its mobility on an empty board relative to the least mobile kind;
//!   a royal piece whose loss ends the game counts nothing (losing it is a result, not a score).
//!   Where a player with no pieces left *wins* (`pieces_at_most` with `result = "win"`, a race)
//!   the sign is reversed: every piece still on the board costs its value, so fewer is progress.
//! - **progress**: each piece's distance to its goals, as shortest paths over its own movement
//!   on an empty board (computed once here): the zone where it leaves the game (`exit`), the
//!   zone where it is promoted (worth the value it gains), a zone whose reaching wins
//!   (`zone_reached`; there only the first arrival counts, so a step is worth more the nearer
//!   it brings the piece: `s` steps on its way earn `s²/2` steps' points, and one far-advanced
//!   runner outweighs a front of half-advanced pieces), the zone its owner must fill
//!   (`zone_filled`; only the pieces nearest to it, as many as it has cells, count).
//! - **fill**: how many cells of its `zone_filled` zone a player holds, growing with the square.
//! - **mobility**: the number of moves each player has (the kernel's moves, hooks aside), where
//!   having no move loses, or passes in a game that ends when neither player can move; it counts
//!   nothing where having no move draws, or passes in a game that goes on (Pyramida).
//! - **exits**: counters that leaving the game raises, where pieces on the board are not already
//!   counted as progress by a race (each exit is worth the leaving kind's value).
//! - **tempo**: in a race, half a step for the player to decide (the move in hand).
//! - **territory**: in a blocking game (nothing is captured, pieces move, having no move
//!   loses: Amazons), the empty cells a player's pieces reach in fewer moves than the
//!   opponent's, by a breadth-first search over their own movement on the current board.
//! - **script**: what the script's `evaluate(player)` hook returns, if it defines one.
//! - **stores**: where the rules sow (`[sowing]`), the seeds in each player's store, each worth
//!   an ordinary piece, and a quarter of that for each seed in the player's pits (they are its
//!   own when the game ends, but may still be sown away or captured).
//! - **threats**: where pieces are dropped with gravity and `in_a_row` wins, the empty cells that
//!   would complete a player's line (every other cell of an open window is its), counted once a
//!   cell; a threat on a row of the player's parity counts three times (rows counted from where
//!   the fall ends: odd rows for the player who moves first, even ones for the other, the
//!   zugzwang rule of column games).
//! - **royal**: where a royal piece's capture ends the game (a royal kind, or a crown held by
//!   attribute) and pieces capture by landing (what the attack query answers), each of a
//!   player's royal pieces that the opponent attacks costs half a piece.
//! - **attributes**: where a piece moves exactly as far as one of its attributes says (`distance
//!   = "level"`), what it gains or loses as that attribute changes: derived as kinds' values
//!   are, 100 points times the square root of its reach on an empty board at that distance
//!   relative to its reach at the starting value, less 100 (a Lielow stack of level 7 reaches
//!   few cells of an 8 × 8 board, and is worth less than one of level 1).
//! - **routes**: where a royal piece wins by reaching a zone, on arrival (`zone_reached` without
//!   `safe`: the tafl king's corners), its ways there on the current board, its own pieces and
//!   the enemy's in the way: each cell of the zone it reaches in one move is worth six pieces,
//!   each move after which one more reaches the zone one and a half (a king with two ways out
//!   is a fork).
//!   The progress term measures the same goal on an empty board, where a rook-moving king is
//!   never more than two moves from a corner: it cannot tell a king shut in from one running.

use super::raw::RawEval;
use super::validate::context::{R, V};
use super::{EndKind, KindSet, NoMoves, Ruleset};
use crate::cellset::CellSet;
use crate::geometry::{Geometry, NONE, ZoneSet};
use crate::piece::{ByPlayer, KindId, PieceCode, Player};
use crate::rules::movement::{Distance, Form};
use crate::rules::names::Names;

/// Evaluation units per point: a TOML value of 100 (an ordinary piece) is 1000 units, so that
/// weights that are fractions still leave whole numbers.
pub(crate) const UNITS_PER_POINT: i32 = 10;

/// Points per step of progress towards a goal, before weights.
pub(crate) const STEP_POINTS: i32 = 10;

/// Points of holding k of a goal zone's n cells are `FILL_POINTS * k² / n`.
pub(crate) const FILL_POINTS: i32 = 50;

/// Points per legal move where having no move loses.
pub(crate) const MOBILITY_POINTS: i32 = 3;

/// Points per empty cell a player's pieces reach in fewer moves than the opponent's, in a
/// blocking game (no captures, and having no move loses: Amazons).
pub(crate) const TERRITORY_POINTS: i32 = 10;
/// Points per quarter of a seed (sowing): a seed in store is an ordinary piece (100).
pub(crate) const STORE_POINTS: i32 = 25;

/// Points for the player to decide, in a race: the move in hand is worth about half a step, so
/// that lines whose last decision falls to different players (extra moves, retreats chosen by
/// either side) compare fairly.
pub(crate) const TEMPO_POINTS: i32 = 5;

/// Points of an open line window (`in_a_row`) holding k of a player's pieces are
/// `LINE_POINTS * k²`.
pub(crate) const LINE_POINTS: i32 = 4;

/// Points per piece a player still needs to place to make a connection (`connected`).
pub(crate) const CONNECT_POINTS: i32 = 30;

/// Points of a threat (a cell that would complete a player's `in_a_row` window) in a game whose
/// pieces fall; one on a row of the player's parity counts [`GOOD_PARITY`] times.
pub(crate) const THREAT_POINTS: i32 = 15;
/// How many times a threat on a row of its player's parity counts.
pub(crate) const GOOD_PARITY: u8 = 3;

/// Points a royal piece under attack costs its owner.
pub(crate) const ROYAL_POINTS: i32 = 50;

/// Points of each cell of its winning zone a royal runner reaches in one move on the current
/// board ([`Term::Routes`]), and of each move after which one more move reaches it: a way out
/// in one move is worth six pieces (the opponent must close it, or lose), a way in two a piece
/// and a half. (Copenhagen Hnefatafl, `ab` against `mcts:1000`, 20 games: at a sixth of these,
/// the attackers won 3 of their 10 games, as without the term; at these, 9.)
pub(crate) const ESCAPE_POINTS: i32 = 600;
pub(crate) const ROUTE_POINTS: i32 = 150;
/// The most ways of each kind counted (past two ways out in one move, or four in two, a runner
/// is as free as it gets).
pub(crate) const MAX_ESCAPES: u32 = 2;
pub(crate) const MAX_ROUTES: u32 = 4;

/// A code's attributes-term table: the slot of the attribute that sets its move distance and
/// the points at each of its values (`None`: it moves by no attribute's distance).
pub(crate) type LevelTable = Option<(u8, Vec<i32>)>;

/// A term of the evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Term {
    Material,
    Progress,
    Fill,
    Mobility,
    Exits,
    Tempo,
    Lines,
    Territory,
    Script,
    Connection,
    // ---- Sowing (mancala) ----
    Stores,
    Threats,
    Royal,
    Attributes,
    Routes,
}

impl Term {
    /// How many terms there are.
    pub(crate) const COUNT: usize = 15;
    pub(crate) const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Progress,
        Term::Fill,
        Term::Mobility,
        Term::Exits,
        Term::Tempo,
        Term::Lines,
        Term::Territory,
        Term::Script,
        Term::Connection,
        Term::Stores,
        Term::Threats,
        Term::Royal,
        Term::Attributes,
        Term::Routes,
    ];

    /// The term's name, as `[ai.eval] weights` and the evaluation breakdown write it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Progress => "progress",
            Term::Fill => "fill",
            Term::Mobility => "mobility",
            Term::Exits => "exits",
            Term::Tempo => "tempo",
            Term::Lines => "lines",
            Term::Territory => "territory",
            Term::Script => "script",
            Term::Connection => "connection",
            Term::Stores => "stores",
            Term::Threats => "threats",
            Term::Royal => "royal",
            Term::Attributes => "attributes",
            Term::Routes => "routes",
        }
    }

    /// What the term measures, in words.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Term::Material => "piece values (reversed where having fewer pieces is progress)",
            Term::Progress => "steps to the zones where pieces leave, are promoted, win, or must stand",
            Term::Fill => "cells of the goal zone held",
            Term::Mobility => "moves available",
            Term::Exits => "pieces that left the game through an exit",
            Term::Tempo => "the move in hand, in a race (half a step for the player to decide)",
            Term::Lines => "open lines towards n in a row, the fuller the more",
            Term::Territory => {
                "empty cells the player's pieces reach in fewer moves than the opponent's (where the count scores regions: those only its pieces border, and cells next to its pieces alone)"
            }
            Term::Script => "the script's evaluate hook",
            Term::Connection => "pieces still to place for a chain to join the zones of `connected` (fewer is better)",
            Term::Stores => "seeds in the player's store (a piece each), and a quarter for each seed on its side (sowing)",
            Term::Threats => {
                "empty cells that would complete the player's line where pieces fall (three times on rows of its parity: odd ones for the first player)"
            }
            Term::Royal => "royal pieces the opponent attacks (a cost)",
            Term::Attributes => "what pieces gain or lose as the attribute that sets how far they move changes (from their reach)",
            Term::Routes => {
                "a royal piece's ways to the zone whose reaching wins, on the current board: six pieces for each cell of it one move reaches, one and a half for each move after which one more does"
            }
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A `zone_filled` goal: the cells each player must fill and, per piece code and cell, what
/// standing there is worth on the way (only the best `need` pieces of a player count).
#[derive(Clone, Debug, Default)]
pub(crate) struct Goal {
    pub(crate) cells: ByPlayer<Vec<u16>>,
    /// `code * cells + cell`: progress units.
    pub(crate) progress: Vec<i32>,
    /// How many pieces of a player count (the zone's size).
    pub(crate) need: ByPlayer<usize>,
}

/// An `in_a_row` goal: every window of `length` cells along one of its lines, and which kinds
/// count. A window no enemy piece (nor a piece of another kind) stands in is open for a player.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lines {
    /// The windows' cells, `length` after `length`.
    pub(crate) windows: Vec<u16>,
    pub(crate) length: usize,
    pub(crate) kinds: KindSet,
    /// Units of an open window holding k pieces: `units * k²`.
    pub(crate) units: i32,
    /// Each window as a cell set (empty where the board has more than 128 cells): a window's
    /// pieces are then counted with one mask a player.
    pub(crate) masks: Vec<u128>,
    /// Whether `kinds` holds every kind of the variant (then a player's counted pieces are its
    /// occupied cells).
    pub(crate) every_kind: bool,
    /// The variant's number of piece codes (a position's per-code sets are read only when it
    /// keeps that many).
    pub(crate) codes: usize,
}

/// A `zone_reached` win on arrival for royal kinds (the routes term): the kinds, and each
/// player's cells of the zone (boards of at most 128 cells).
#[derive(Clone, Debug, Default)]
pub(crate) struct Runner {
    pub(crate) kinds: KindSet,
    pub(crate) zone: ByPlayer<u128>,
}

/// The node budget of a bare `ab` unless the variant's `[ai] nodes` says otherwise: one move
/// takes about a second or less on the project's 2-core machine in every shipped game
/// (measured on the release build; see `docs/ai.md`).
pub(crate) const DEFAULT_NODES: u64 = 40_000;
/// The range `[ai] nodes` accepts.
pub(crate) const NODES_RANGE: std::ops::RangeInclusive<i64> = 1_000..=100_000_000;
/// The points `[ai.eval] attributes` accepts for each value of an attribute (what `tune` fits
/// stays in it too).
pub(crate) const POINTS_RANGE: std::ops::RangeInclusive<i64> = -100_000..=100_000;

/// The evaluation of a variant, as tables (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct EvalModel {
    /// Per kind: its value in points (as derived or overridden; always ≥ 0).
    pub(crate) values: Vec<i32>,
    /// Per term ([`Term::index`]): the weight it was built with (`[ai.eval] weights`, else 1).
    pub(crate) weights: [f64; Term::COUNT],
    /// `code * cells + cell`: material units (signed, weighted; 0 for the empty code). The same
    /// on every cell, except for kinds that can be converted (below).
    pub(crate) material: Vec<i32>,
    /// `code * cells + cell`: progress units towards exits and promotions.
    pub(crate) progress: Vec<i32>,
    /// The `zone_filled` goals.
    pub(crate) goals: Vec<Goal>,
    /// Units of holding k of n goal cells: `fill * k² / n`.
    pub(crate) fill: i32,
    /// Units per move (0: mobility is not measured).
    pub(crate) mobility: i32,
    /// Units per empty cell reached first (0: territory is not measured).
    pub(crate) territory: i32,
    /// (counter slot, units per unit of the counter).
    pub(crate) exits: Vec<(u8, i32)>,
    /// Units for the player to decide (0: tempo is not measured).
    pub(crate) tempo: i32,
    /// The `in_a_row` goals.
    pub(crate) lines: Vec<Lines>,
    /// (hand counter slot, material units per piece in hand): a piece in hand counts as one on
    /// the board.
    pub(crate) hands: Vec<(u8, i32)>,
    /// Units per point the script's `evaluate` returns.
    pub(crate) script: i32,
    /// Units per piece still needed to connect (`connected`; 0: not measured).
    pub(crate) connection: i32,
    /// Units per quarter seed: a seed in store counts four, a seed in a pit one (0: the rules
    /// do not sow).
    pub(crate) stores: i32,
    /// The number of cells (the stride of the per-cell tables).
    pub(crate) cells: usize,
    /// Per code, its cells grouped by the same (material, progress) units: `(material,
    /// progress, cells)`, cells adding nothing left out, so that a position's cell sets sum the
    /// two terms with one count per group. Empty where the board has more than 128 cells or
    /// some code has more than [`MAX_CLASSES`] groups (pieces are then summed one by one).
    pub(crate) classes: Vec<Vec<(i32, i32, u128)>>,
    /// The node budget of a bare `ab` (`[ai] nodes`, or [`DEFAULT_NODES`]).
    pub(crate) nodes: u64,
    /// Units per threat (0: not measured: no gravity drop, or no `in_a_row` win).
    pub(crate) threats: i32,
    /// Where threats are measured: their parity and the columns they are read along.
    pub(crate) threat_shape: ThreatShape,
    /// Units a royal piece under attack costs (0: no royal piece whose capture ends the game).
    pub(crate) royal: i32,
    /// The routes term: the royal runners' goals, and the units of a way out in one move and in
    /// two (0 without runners).
    pub(crate) runners: Vec<Runner>,
    pub(crate) escape: i32,
    pub(crate) route: i32,
    /// Per code: the attribute slot that sets its move distance, and per value of it the points
    /// its value gains (or loses) against the value it starts with (`None`: no such attribute).
    pub(crate) levels: Vec<LevelTable>,
    /// Units per point of `levels` (0: not measured).
    pub(crate) level_units: i32,
    /// Per kind, the points of `levels` before the sign of a race: the numbers `[ai.eval]
    /// attributes` holds (`None`: the kind moves by no attribute's distance).
    pub(crate) attribute_points: Vec<Option<Vec<i32>>>,

    /// `[ai] implicit_takes`: which moves that take or convert what they do not list the search
    /// counts as captures.
    pub(crate) implicit_takes: ImplicitTakes,
}

/// `[ai] implicit_takes`: which moves that take or convert pieces they do not list the search
/// counts as captures (its quiescence and move ordering; see docs/ai.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum ImplicitTakes {
    /// Custodian captures, groups without a liberty, a sowing's captured seeds (the default).
    #[default]
    Captures,
    /// Those and conversions.
    All,
    /// Only the victims a move lists.
    None,
}

impl ImplicitTakes {
    /// The words the key takes, with their values.
    const WORDS: [(&'static str, ImplicitTakes); 3] =
        [("captures", ImplicitTakes::Captures), ("all", ImplicitTakes::All), ("none", ImplicitTakes::None)];
}

/// The most (material, progress) groups of one code summed on the cell sets: past it, one
/// count per group costs more than a look per piece.
pub(crate) const MAX_CLASSES: usize = 12;

/// [`EvalModel::classes`] of the tables (`cells` per code).
fn classes_of(material: &[i32], progress: &[i32], cells: usize) -> Vec<Vec<(i32, i32, u128)>> {
    if cells == 0 || !CellSet::fits(cells) {
        return Vec::new();
    }
    let per_code = material.chunks(cells).zip(progress.chunks(cells)).map(|(mat, prog)| {
        let mut groups: Vec<(i32, i32, u128)> = Vec::new();
        for (cell, (&m, &p)) in mat.iter().zip(prog).enumerate() {
            if m == 0 && p == 0 {
                continue; // adds nothing
            }
            match groups.iter_mut().find(|g| g.0 == m && g.1 == p) {
                Some(g) => g.2 |= 1u128 << cell,
                None => groups.push((m, p, 1u128 << cell)),
            }
        }
        groups
    });
    let classes: Vec<_> = per_code.collect();
    if classes.iter().any(|g| g.len() > MAX_CLASSES) { Vec::new() } else { classes }
}

impl EvalModel {
    /// Progress units of `code` standing on `cell` (exits and promotions).
    #[cfg(test)]
    #[inline(always)]
    pub(crate) fn progress(&self, code: PieceCode, cell: usize) -> i32 {
        self.progress[code.index() * self.cells + cell]
    }

    /// The value in points of a kind, for ordering captures (always ≥ 0).
    #[inline]
    pub(crate) fn value(&self, k: KindId) -> i32 {
        self.values[k.0 as usize]
    }
}

fn units(points: f64, weight: f64) -> i32 {
    (points * weight * UNITS_PER_POINT as f64).round().clamp(-1e8, 1e8) as i32
}

/// Builds the evaluation of a validated ruleset, with `[ai.eval]` applied.
pub(super) fn stage_eval(v: &V, r: &Ruleset) -> R<EvalModel> {
    let o = read_overrides(v, r)?;
    Ok(EvalModel { implicit_takes: read_implicit_takes(v)?, ..build_model(r, &o.values, &o.points, &o.weights, read_nodes(v)?) })
}

/// `[ai] implicit_takes`, checked.
fn read_implicit_takes(v: &V) -> R<ImplicitTakes> {
    let Some((f, t)) = v.m.ai.as_ref().and_then(|ai| ai.val.implicit_takes.as_ref().map(|t| (ai.file, t))) else {
        return Ok(ImplicitTakes::default());
    };
    match ImplicitTakes::WORDS.iter().find(|(w, _)| *w == t.get_ref().as_str()) {
        Some((_, x)) => Ok(*x),
        None => {
            let e = v.err(f, t.span(), format!("`implicit_takes` is \"captures\", \"all\" or \"none\", not {:?}", t.get_ref()), "here");
            Err(e.with_help("which moves that take or convert pieces they do not list the search plays out as captures (docs/ai.md)"))
        }
    }
}

/// The evaluation of `r` with these per-kind values (`None`: derived from the rules) and
/// per-term weights: what `[ai.eval]` says, already checked. `tune` builds models for other
/// numbers with it, so a model it fits is the one the variant file then loads.
pub(crate) fn build_model(
    r: &Ruleset,
    overrides: &[Option<i32>],
    points: &[Option<Vec<i32>>],
    weights: &[f64; Term::COUNT],
    nodes: u64,
) -> EvalModel {
    let n = r.geometry.len();
    let race = r.ends.iter().any(|e| matches!(e.kind, EndKind::PiecesAtMost { win: true, .. }));
    let exit_dist = exit_distances(r);
    let values = piece_values(r, overrides, race, &exit_dist);
    let sign = if race { -1.0 } else { 1.0 };
    let material = material_table(r, &values, sign, weights[Term::Material.index()]);
    let wp = weights[Term::Progress.index()];
    let progress = progress_table(r, &values, &exit_dist, wp);
    let exits = if race { Vec::new() } else { exit_counters(r, &values, weights[Term::Exits.index()]) };
    let hands = r
        .hand_kinds()
        .into_iter()
        .map(|(k, slot)| (slot, units(sign * values[k.0 as usize] as f64, weights[Term::Material.index()])))
        .collect();
    let classes = classes_of(&material, &progress, n);
    let threat_shape = threat_shape(r);
    let (levels, attribute_points) = level_points(r, sign, points);
    EvalModel {
        values,
        weights: *weights,
        material,
        progress,
        goals: fill_goals(r, wp),
        fill: units(FILL_POINTS as f64, weights[Term::Fill.index()]),
        mobility: mobility_units(r, weights),
        territory: territory_units(r, weights),
        exits,
        tempo: if race { units(TEMPO_POINTS as f64, weights[Term::Tempo.index()]) } else { 0 },
        lines: line_windows(r, units(LINE_POINTS as f64, weights[Term::Lines.index()])),
        hands,
        script: units(1.0, weights[Term::Script.index()]),
        connection: if r.ends.iter().any(|e| matches!(e.kind, EndKind::Connected(_))) {
            units(CONNECT_POINTS as f64, weights[Term::Connection.index()])
        } else {
            0
        },
        stores: if r.sowing.is_some() { units(STORE_POINTS as f64, weights[Term::Stores.index()]) } else { 0 },
        cells: n,
        classes,
        nodes,
        implicit_takes: ImplicitTakes::default(),
        threats: if threat_shape.columns.is_empty() { 0 } else { units(THREAT_POINTS as f64, weights[Term::Threats.index()]) },
        threat_shape,
        level_units: if levels.iter().any(Option::is_some) { units(1.0, weights[Term::Attributes.index()]) } else { 0 },
        levels,
        attribute_points,
        royal: if royal_is_result(r) && royal_pieces(r) && r.landing_captures {
            units(ROYAL_POINTS as f64, weights[Term::Royal.index()])
        } else {
            0
        },
        runners: runners(r),
        escape: units(ESCAPE_POINTS as f64, weights[Term::Routes.index()]),
        route: units(ROUTE_POINTS as f64, weights[Term::Routes.index()]),
    }
}

/// The royal runners of the routes term: each `zone_reached` that a royal kind (one without
/// attribute values) wins on arrival (not `safe`: there the arrival wins only where the
/// opponent cannot take the piece, which ways on the board do not tell), on a board of at most
/// 128 cells.
fn runners(r: &Ruleset) -> Vec<Runner> {
    if r.geometry.len() > 128 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for e in &r.ends {
        let EndKind::ZoneReached { cells, kinds, win: true, safe: false, .. } = &e.kind else { continue };
        // (Kinds without attribute values: the term moves a runner on a copy of the board alone.)
        let royal = (0..r.kinds.len()).filter(|&k| r.kinds[k].royal && r.kinds[k].attributes.is_empty() && kinds.contains(KindId(k as u8)));
        let kinds = royal.fold(KindSet::EMPTY, |s, k| s.with(KindId(k as u8)));
        if kinds == KindSet::EMPTY {
            continue;
        }
        let zone = cells.map(|c| c.iter().enumerate().filter(|(_, in_zone)| **in_zone).fold(0u128, |z, (i, _)| z | 1 << i));
        out.push(Runner { kinds, zone });
    }
    out
}

/// Whether capturing (or driving off) a royal piece ends the game.
fn royal_is_result(r: &Ruleset) -> bool {
    r.royal_ends_game || r.ends.iter().any(|e| matches!(e.kind, EndKind::RoyalLeftBoard))
}

/// Whether a royal piece can stand on the board: a royal kind, or a crown.
fn royal_pieces(r: &Ruleset) -> bool {
    r.crown.is_some() || r.kinds.iter().any(|k| k.royal)
}

/// Per code whose move distance is one of its attributes: that slot, and per value of it (0 up
/// to the board's longer side) the points a piece gains against its starting value; and the
/// same points per kind, before `sign`, as `[ai.eval] attributes` writes them. A kind's points
/// are `given` where they are (a shorter list repeats its last entry); else an ordinary piece's
/// 100 points times the square root of its reach on an empty board at that distance over its
/// reach at the start, less 100 (as kinds' values are derived from reach; not the kind's own
/// value, so that the term stays a table times counts for `tune`).
fn level_points(r: &Ruleset, sign: f64, given: &[Option<Vec<i32>>]) -> (Vec<LevelTable>, Vec<Option<Vec<i32>>>) {
    let g = &r.geometry;
    let longest = i32::from(g.files.max(g.ranks));
    let reach = |vecs: &[(i8, i8)], d: i32| -> f64 {
        let cells = g.cells().count().max(1);
        let landings: usize = g
            .cells()
            .map(|c| {
                let (x, y) = g.coords(c);
                vecs.iter().filter(|&&(dx, dy)| g.at(i32::from(x) + d * i32::from(dx), i32::from(y) + d * i32::from(dy)).is_some()).count()
            })
            .sum();
        landings as f64 / cells as f64
    };
    let mut per_kind: Vec<Option<Vec<i32>>> = vec![None; r.kinds.len()];
    let per_code = (0..PieceCode::count(r.kinds.len()))
        .map(|c| {
            let leap = r.pieces[c].quiet.iter().find_map(|f| match f {
                Form::Leap { vecs, distance: Distance::Attribute(s), .. } if c > 0 => Some((*s, vecs)),
                _ => None,
            });
            let (slot, vecs) = leap?;
            let k = PieceCode::from_index(c).kind();
            let points: Vec<i32> = match given.get(k.0 as usize).and_then(Option::as_ref) {
                Some(list) => (0..=longest as usize).map(|d| list[d.min(list.len() - 1)]).collect(),
                None => {
                    let start = r.kinds[k.0 as usize].attributes.iter().find(|(s, _)| *s == slot).map_or(1, |&(_, v)| v);
                    let base = reach(vecs, start);
                    if base <= 0.0 {
                        return None;
                    }
                    (0..=longest).map(|d| (100.0 * ((reach(vecs, d) / base).sqrt() - 1.0)).round() as i32).collect()
                }
            };
            per_kind[k.0 as usize].get_or_insert_with(|| points.clone());
            Some((slot, points.iter().map(|&x| (sign * f64::from(x)) as i32).collect()))
        })
        .collect();
    (per_code, per_kind)
}

/// Where threats are measured (a game whose pieces fall, won by `in_a_row`; empty otherwise).
#[derive(Clone, Debug, Default)]
pub(crate) struct ThreatShape {
    /// Per player, per cell: how many times a threat there counts (1, or [`GOOD_PARITY`]).
    pub(crate) parity: ByPlayer<Vec<u8>>,
    /// Each column's cells from where the fall ends upwards (a threat above the opponent's in
    /// its column is worth nothing: the lower one decides the column first).
    pub(crate) columns: Vec<Vec<u16>>,
}

/// The threats' shape, in a game whose pieces fall and an `in_a_row` wins. Rows are counted
/// along the fall from where it ends (1 there): a threat on an odd row counts [`GOOD_PARITY`]
/// times for the player who moves first, on an even row for the other (Allis's zugzwang rule
/// of Connect Four: with columns of even height filled in turn, the first player gets the odd
/// cells).
fn threat_shape(r: &Ruleset) -> ThreatShape {
    let lines = r.ends.iter().any(|e| matches!(e.kind, EndKind::InARow { win: true, .. }));
    let Some(fall) = r.pieces.iter().filter_map(|p| p.drop.as_ref()).find(|d| d.gravity.is_some()).map(|d| &d.fall) else {
        return ThreatShape::default();
    };
    if !lines || fall.len() != r.geometry.len() || !CellSet::fits(fall.len()) {
        return ThreatShape::default();
    }
    let parity = parity_of(fall, r.first);
    // Each column from its bottom (where the fall ends) up, along the fall backwards.
    let mut up = vec![NONE; fall.len()];
    for (c, &below) in fall.iter().enumerate().filter(|(_, b)| **b != NONE) {
        up[below as usize] = c as u16;
    }
    let mut columns = Vec::new();
    for bottom in (0..fall.len() as u16).filter(|&c| fall[c as usize] == NONE) {
        let mut col = vec![bottom];
        while let Some(&top) = col.last()
            && up[top as usize] != NONE
            && col.len() <= fall.len()
        {
            col.push(up[top as usize]);
        }
        columns.push(col);
    }
    ThreatShape { parity, columns }
}

/// [`ThreatShape::parity`] of a fall (`first`: who moves first).
fn parity_of(fall: &[u16], first: Player) -> ByPlayer<Vec<u8>> {
    let depth = |mut c: u16| {
        let mut d = 0usize;
        while fall[c as usize] != NONE && d <= fall.len() {
            c = fall[c as usize];
            d += 1;
        }
        d
    };
    let mut out = ByPlayer::new(Vec::new(), Vec::new());
    for cell in 0..fall.len() as u16 {
        let odd_row = depth(cell) % 2 == 0;
        for p in Player::both() {
            let good = odd_row == (p == first);
            out[p].push(if good { GOOD_PARITY } else { 1 });
        }
    }
    out
}

/// The codes of kind `k` for each player.
fn codes_of(k: usize) -> [PieceCode; 2] {
    Player::both().map(|p| PieceCode::new(KindId(k as u8), p))
}

/// Exits: the distance of each code to the cells where it leaves the game (none for code 0).
fn exit_distances(r: &Ruleset) -> Vec<Option<Vec<u16>>> {
    let g = &r.geometry;
    (0..PieceCode::count(r.kinds.len()))
        .map(|c| r.pieces[c].exit.as_ref().filter(|_| c > 0).map(|x| distances(r, c, zone_cells(g, x.zone))))
        .collect()
}

/// Each kind's value in points: overridden, or derived from mobility (a race's pieces are worth
/// their way out; a royal piece whose loss ends the game nothing).
fn piece_values(r: &Ruleset, overrides: &[Option<i32>], race: bool, exit_dist: &[Option<Vec<u16>>]) -> Vec<i32> {
    let royal_is_result = royal_is_result(r);
    let max_exit = |k: usize| codes_of(k).iter().filter_map(|c| exit_dist[c.index()].as_ref().map(|d| max_finite(d))).max();
    let mobility: Vec<f64> = (0..r.kinds.len()).map(|k| empty_board_mobility(r, codes_of(k)[0].index())).collect();
    let reference = mobility
        .iter()
        .enumerate()
        .filter(|&(k, &m)| m > 0.0 && !(r.kinds[k].royal && royal_is_result))
        .map(|(_, &m)| m)
        .fold(f64::INFINITY, f64::min);
    (0..r.kinds.len())
        .map(|k| {
            if let Some(v) = overrides[k] {
                return v;
            }
            if race && let Some(d) = max_exit(k) {
                return STEP_POINTS * d as i32;
            }
            if r.kinds[k].royal && royal_is_result {
                return 0;
            }
            if mobility[k] <= 0.0 || !reference.is_finite() {
                return 100;
            }
            ((100.0 * (mobility[k] / reference).sqrt() / 5.0).round() * 5.0) as i32
        })
        .collect()
}

/// Material in units per code and cell, `sign` reversing it in a race.
fn material_table(r: &Ruleset, values: &[i32], sign: f64, weight: f64) -> Vec<i32> {
    let n = r.geometry.len();
    // A piece that can be turned over (`convert`) is only as much its owner's as its cell is
    // safe: on a cell no line can bracket (a corner) it is there for good and counts whole; the
    // more lines through its cell, the less (Othello: a corner 1, an edge 7/9, inside 1/9).
    let exposure = conversion_exposure(r);
    let top = exposure.iter().copied().max().unwrap_or(0) as f64;
    let convertible = r.pieces.iter().filter_map(|p| p.convert.as_ref()).fold(KindSet::EMPTY, |a, c| a.union(c.kinds));
    let mut material = vec![0; PieceCode::count(r.kinds.len()) * n];
    for (k, &value) in values.iter().enumerate() {
        for c in codes_of(k) {
            for cell in 0..n {
                let share = if convertible.contains(KindId(k as u8)) && top > 0.0 {
                    (1.0 + 2.0 * (top - exposure[cell] as f64)) / (1.0 + 2.0 * top)
                } else {
                    1.0
                };
                material[c.index() * n + cell] = units(sign * value as f64 * share, weight);
            }
        }
    }
    material
}

/// Progress towards exits, winning zones and promotions, in units per code and cell.
fn progress_table(r: &Ruleset, values: &[i32], exit_dist: &[Option<Vec<u16>>], wp: f64) -> Vec<i32> {
    let g = &r.geometry;
    let n = g.len();
    let ncodes = PieceCode::count(r.kinds.len());
    let mut progress = vec![0; ncodes * n];
    for c in 1..ncodes {
        let row = &mut progress[c * n..(c + 1) * n];
        if let Some(d) = &exit_dist[c] {
            let top = max_finite(d) as f64;
            for (cell, &dc) in d.iter().enumerate().filter(|(_, dc)| **dc != NONE) {
                row[cell] += units(STEP_POINTS as f64 * (top - dc as f64), wp);
            }
        }
        // A zone whose reaching wins: only the first arrival matters, so progress grows with the
        // square of the steps made (Breakthrough's ab:d4 against ab:d2, 50 games: 50 % with
        // linear progress, the same two games; 80 % with the square).
        let code = PieceCode::from_index(c);
        for e in &r.ends {
            if let EndKind::ZoneReached { cells, kinds, win: true, .. } = &e.kind
                && kinds.contains(code.kind())
            {
                let targets = (0..n as u16).filter(|&x| cells[code.owner()][x as usize]).collect();
                let d = distances(r, c, targets);
                let top = max_finite(&d) as f64;
                for (cell, &dc) in d.iter().enumerate().filter(|(_, dc)| **dc != NONE) {
                    let s = top - dc as f64;
                    row[cell] += units(STEP_POINTS as f64 * s * s / 2.0, wp);
                }
            }
        }
        if let Some(p) = &r.pieces[c].promote {
            let gain = (values[p.to.0 as usize] - values[code.kind().0 as usize]) as f64;
            if gain > 0.0 {
                let d = distances(r, c, zone_cells(g, p.zone));
                let top = max_finite(&d) as f64;
                for (cell, &dc) in d.iter().enumerate().filter(|(_, dc)| **dc != NONE && **dc > 0) {
                    row[cell] += units(gain * (top - dc as f64 + 1.0) / (top + 1.0), wp);
                }
            }
        }
    }
    progress
}

/// The zones each player must fill (`zone_filled`), with each code's progress towards them.
fn fill_goals(r: &Ruleset, wp: f64) -> Vec<Goal> {
    let n = r.geometry.len();
    let ncodes = PieceCode::count(r.kinds.len());
    let mut goals = Vec::new();
    for e in &r.ends {
        let EndKind::ZoneFilled(cells) = &e.kind else { continue };
        let mut goal = Goal { cells: cells.clone(), progress: vec![0; ncodes * n], need: cells.map(|c| c.len()) };
        for c in 1..ncodes {
            let owner = PieceCode::from_index(c).owner();
            let d = distances(r, c, cells[owner].clone());
            let top = max_finite(&d) as f64;
            for (cell, &dc) in d.iter().enumerate().filter(|(_, dc)| **dc != NONE) {
                goal.progress[c * n + cell] = units(STEP_POINTS as f64 * (top - dc as f64), wp);
            }
        }
        goals.push(goal);
    }
    goals
}

/// Units per legal move: where having no move loses; or passes in a game that ends when neither
/// player can move (Othello), where running short of moves is the way to lose turns and the game.
fn mobility_units(r: &Ruleset, weights: &[f64; Term::COUNT]) -> i32 {
    let no_moves_loses = match r.no_moves_rule().map(|(_, n)| n) {
        None | Some(NoMoves::Loss) => true,
        Some(NoMoves::Pass) => r.both_pass_rule().is_some(),
        Some(NoMoves::Draw | NoMoves::Win) => false,
    };
    if no_moves_loses { units(MOBILITY_POINTS as f64, weights[Term::Mobility.index()]) } else { 0 }
}

/// Units per cell of territory in a blocking game: nothing is ever captured, pieces move, and
/// having no move loses. What decides it is room: the cells each side would get to first
/// (Amazons' territory).
fn territory_units(r: &Ruleset, weights: &[f64; Term::COUNT]) -> i32 {
    let blocking = matches!(r.no_moves_rule().map(|(_, n)| n), None | Some(NoMoves::Loss))
        && r.pieces.iter().all(|p| p.jumps.is_empty() && p.quiet.iter().all(|f| !f.captures()))
        && r.pieces.iter().any(|p| !p.quiet.is_empty());
    // Where the count at the end scores regions (`points_territory`), the same term counts them.
    let counted = r.score.as_ref().is_some_and(|s| s.territory.is_some());
    if blocking || counted { units(TERRITORY_POINTS as f64, weights[Term::Territory.index()]) } else { 0 }
}

/// Exit counters (slot, units per exit): each exit is worth the most valuable kind leaving by it.
fn exit_counters(r: &Ruleset, values: &[i32], weight: f64) -> Vec<(u8, i32)> {
    let mut exits: Vec<(u8, i32)> = Vec::new();
    for c in 1..PieceCode::count(r.kinds.len()) {
        if let Some(x) = &r.pieces[c].exit
            && let Some(slot) = x.counter
        {
            let u = units(values[PieceCode::from_index(c).kind().0 as usize] as f64, weight);
            match exits.iter_mut().find(|(s, _)| *s == slot) {
                Some(e) => e.1 = e.1.max(u),
                None => exits.push((slot, u)),
            }
        }
    }
    exits
}

/// `[ai] nodes`, checked.
fn read_nodes(v: &V) -> R<u64> {
    let Some(n) = v.m.ai.as_ref().and_then(|ai| ai.val.nodes.as_ref().map(|n| (ai.file, n))) else { return Ok(DEFAULT_NODES) };
    let (f, n) = n;
    let x = *n.get_ref();
    if !NODES_RANGE.contains(&x) {
        let e = v.err(f, n.span(), format!("a node budget is from {} to {}", NODES_RANGE.start(), NODES_RANGE.end()), "here");
        return Err(e.with_help(format!("a bare `ab` searches {DEFAULT_NODES} positions unless the variant says otherwise")));
    }
    Ok(x as u64)
}

/// Per cell: through how many lines a conversion could reach a piece there (a `bracket` axis
/// with a cell on both sides, an `adjacent` direction with a neighbour), over every kind's
/// `convert`; all 0 in a game without conversion.
fn conversion_exposure(r: &Ruleset) -> Vec<u32> {
    let n = r.geometry.len();
    let mut out = vec![0; n];
    for conv in r.pieces.iter().filter_map(|p| p.convert.as_ref()) {
        for cell in 0..n {
            // A direction with a cell ahead whose reverse (the direction leading back from that
            // cell) is listed and has a cell behind: the axis is counted from both its ends.
            let ends = conv
                .bracket
                .iter()
                .filter(|d| {
                    let ahead = d[cell];
                    ahead != NONE && conv.bracket.iter().any(|o| o[ahead as usize] == cell as u16 && o[cell] != NONE)
                })
                .count() as u32;
            let e = ends / 2 + conv.adjacent.iter().filter(|d| d[cell] != NONE).count() as u32;
            out[cell] = out[cell].max(e);
        }
    }
    out
}

/// Every window of an `in_a_row` win: `length` cells in a line along one of its axes.
fn line_windows(r: &Ruleset, units: i32) -> Vec<Lines> {
    // Built at any weight: the threats term reads the same windows.
    let mut out = Vec::new();
    for e in &r.ends {
        let EndKind::InARow { length, kinds, axes, win: true, .. } = &e.kind else { continue };
        let length = *length as usize;
        let mut windows = Vec::new();
        for axis in axes {
            for start in r.geometry.cells().map(|c| c.0) {
                // Every run of `length` cells forwards from `start` is one window.
                let mut cells = vec![start];
                while cells.len() < length {
                    let next = axis[*cells.last().unwrap() as usize].0;
                    if next == NONE {
                        break;
                    }
                    cells.push(next);
                }
                if cells.len() == length {
                    windows.extend(cells);
                }
            }
        }
        let masks = if CellSet::fits(r.geometry.len()) {
            windows.chunks_exact(length).map(|w| w.iter().copied().collect::<CellSet>().bits()).collect()
        } else {
            Vec::new()
        };
        let every_kind = (0..r.kinds.len()).all(|k| kinds.contains(crate::piece::KindId(k as u8)));
        out.push(Lines { windows, length, kinds: *kinds, units, masks, every_kind, codes: crate::piece::PieceCode::count(r.kinds.len()) });
    }
    out
}

/// `[ai.eval]` as read: per kind a value and the attributes term's points, per term a weight.
struct Overrides {
    values: Vec<Option<i32>>,
    points: Vec<Option<Vec<i32>>>,
    weights: [f64; Term::COUNT],
}

/// `[ai.eval]`: per-kind values and points, per-term weights, checked.
fn read_overrides(v: &V, r: &Ruleset) -> R<Overrides> {
    let mut o = Overrides { values: vec![None; r.kinds.len()], points: vec![None; r.kinds.len()], weights: [1.0; Term::COUNT] };
    let Some(ai) = &v.m.ai else { return Ok(o) };
    let f = ai.file;
    let Some(RawEval { values: raw_values, weights: raw_weights, attributes: raw_points }) = &ai.val.eval else { return Ok(o) };
    let kinds = Names::new("piece kind", r.kinds.iter().map(|k| k.name.as_str()));
    for (name, value) in raw_values {
        let k = v.lookup(f, name.span(), &kinds, name.get_ref(), " in [ai.eval] values", "not a kind of this variant")?;
        let x = *value.get_ref();
        if !(0..=100_000).contains(&x) {
            let e = v.err(f, value.span(), "a piece value is from 0 to 100000", "here");
            return Err(e.with_help(
                "100 is an ordinary piece; the sign follows the rules (where fewer pieces is progress, each counts against its owner)",
            ));
        }
        o.values[k] = Some(x as i32);
    }
    let terms = Names::new("evaluation term", Term::ALL.iter().map(|t| t.name()));
    for (name, w) in raw_weights {
        let t = v.lookup(f, name.span(), &terms, name.get_ref(), " in [ai.eval] weights", "not a term")?;
        let x = *w.get_ref();
        if !(0.0..=100.0).contains(&x) {
            let e = v.err(f, w.span(), "a weight is a number from 0 to 100", "here");
            return Err(e.with_help(format!("1 keeps the derived weight, 0 turns the term off; the terms are {}", terms.list())));
        }
        o.weights[t] = x;
    }
    let (_, derived) = level_points(r, 1.0, &[]);
    for (name, list) in raw_points {
        let k = v.lookup(f, name.span(), &kinds, name.get_ref(), " in [ai.eval] attributes", "not a kind of this variant")?;
        let Some(table) = &derived[k] else {
            let e = v.err(f, name.span(), format!("`{}` moves by no attribute's distance", name.get_ref()), "here");
            return Err(e.with_help(
                "[ai.eval] attributes sets the points of a kind whose leap is as long as one of its attributes (`distance = \"level\"`)",
            ));
        };
        let xs = list.get_ref();
        if xs.is_empty() || xs.len() > table.len() || xs.iter().any(|x| !POINTS_RANGE.contains(x)) {
            let e = v.err(f, list.span(), format!("a list of 1 to {} points, each from -100000 to 100000", table.len()), "here");
            return Err(e.with_help(format!(
                "one entry per value of the attribute, from 0 up to {} (the board's longer side); a shorter list repeats its last entry; derived: {table:?}",
                table.len() - 1
            )));
        }
        o.points[k] = Some(xs.iter().map(|&x| x as i32).collect());
    }
    Ok(o)
}

/// The cells of a zone set.
fn zone_cells(g: &Geometry, z: ZoneSet) -> Vec<u16> {
    g.cells().filter(|c| g.zones_of(c.0).meets(z)).map(|c| c.0).collect()
}

/// The largest finite distance (0 when there is none).
fn max_finite(d: &[u16]) -> u16 {
    d.iter().copied().filter(|&x| x != NONE).max().unwrap_or(0)
}

/// The forms that move a piece of `code` when it has its usual company: forms limited to a few
/// pieces (Pyramida's last stone) count only when the piece has no other.
fn usual_forms(r: &Ruleset, code: usize) -> Vec<&Form> {
    let pr = &r.pieces[code];
    let free: Vec<&Form> = pr.quiet.iter().zip(&pr.limits).filter(|(_, l)| **l == u16::MAX).map(|(f, _)| f).collect();
    if free.is_empty() { pr.quiet.iter().collect() } else { free }
}

/// Where a piece of `code` on `from` can go in one move on an empty board, zone conditions
/// applied (leaving the board is not a cell).
fn one_move(r: &Ruleset, forms: &[&Form], from: u16) -> Vec<u16> {
    let g = &r.geometry;
    let mut out = Vec::new();
    for f in forms {
        out.extend(f.reach(g, from));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The number of moves a piece of `code` needs from each cell to reach one of `targets` on an
/// empty board ([`NONE`] where it cannot): a breadth-first search backwards from the targets.
fn distances(r: &Ruleset, code: usize, targets: Vec<u16>) -> Vec<u16> {
    let n = r.geometry.len();
    let forms = usual_forms(r, code);
    let mut back: Vec<Vec<u16>> = vec![Vec::new(); n];
    for from in 0..n as u16 {
        for to in one_move(r, &forms, from) {
            back[to as usize].push(from);
        }
    }
    let mut dist = vec![NONE; n];
    let mut queue = std::collections::VecDeque::new();
    for t in targets {
        if dist[t as usize] == NONE {
            dist[t as usize] = 0;
            queue.push_back(t);
        }
    }
    while let Some(c) = queue.pop_front() {
        for &p in &back[c as usize] {
            if dist[p as usize] == NONE {
                dist[p as usize] = dist[c as usize] + 1;
                queue.push_back(p);
            }
        }
    }
    dist
}

/// The average number of cells a piece of `code` reaches in one move on an empty board, its
/// capture jumps' landings included (what it could attack).
fn empty_board_mobility(r: &Ruleset, code: usize) -> f64 {
    let n = r.geometry.len();
    if n == 0 {
        return 0.0;
    }
    let forms: Vec<&Form> = usual_forms(r, code);
    let total: usize = (0..n as u16)
        .map(|from| {
            let mut cells = one_move(r, &forms, from);
            for j in &r.pieces[code].jumps {
                cells.extend(j.table.get(from).iter().map(|&(_, land)| land));
            }
            cells.sort_unstable();
            cells.dedup();
            cells.len()
        })
        .sum();
    total as f64 / n as f64
}

#[cfg(test)]
mod tests {
    use crate::piece::{KindId, PieceCode, Player};
    use crate::variant::Variant;

    fn cell(v: &Variant, name: &str) -> usize {
        v.rules.geometry.parse_cell(name).unwrap().0 as usize
    }

    #[test]
    fn checkers_values_and_promotion() {
        let v = Variant::load("checkers", &[]).unwrap();
        let m = &v.rules.eval;
        // On the 32 dark squares a white man has 49 forward steps (7 ranks of 4 squares, one
        // on the edge with one step) and 36 forward jump landings (6 ranks × 6); a king has
        // both in every direction, twice as many: sqrt(2) × 100 ≈ 141, rounded to 5 points.
        let (man, king) = (v.rules.kind_by_name("man").unwrap(), v.rules.kind_by_name("king").unwrap());
        assert_eq!((m.value(man), m.value(king)), (100, 140));
        // Not a race: no tempo.
        assert!(m.tempo == 0 && m.mobility > 0);
        // A white man on rank 7 is one step from promotion, on rank 1 seven steps: the king's
        // 40 more points × (7 - d + 1) / 8, so 35 and 5 points.
        let wm = PieceCode::new(man, Player::FIRST);
        assert_eq!(m.progress(wm, cell(&v, "a7")), 350);
        assert_eq!(m.progress(wm, cell(&v, "c1")), 50);
        assert_eq!(m.progress(PieceCode::new(king, Player::FIRST), cell(&v, "c1")), 0);
    }

    #[test]
    fn pyramida_is_a_race() {
        let v = Variant::load("pyramida", &[]).unwrap();
        let m = &v.rules.eval;
        // A race: the move in hand counts.
        assert!(m.tempo > 0 && m.mobility == 0);
        let w = PieceCode::new(KindId(0), Player::FIRST);
        // k14 is the exit: from j13 one step, from k12 two; from d1 (file 4, rank 1) thirteen.
        let step = 100;
        let top = m.values[0] * 10 / step; // the longest way out, in steps
        assert_eq!(m.progress(w, cell(&v, "j13")), (top - 1) * step);
        assert_eq!(m.progress(w, cell(&v, "k12")), (top - 2) * step);
        assert_eq!(m.progress(w, cell(&v, "d1")), (top - 13) * step);
        // On the board, a stone costs its whole way out: -material + progress = -distance.
        assert_eq!(m.material[w.index() * m.cells] + m.progress(w, cell(&v, "j13")), -step);
    }

    #[test]
    fn bivouac_goal_distances() {
        let v = Variant::load("bivouac", &[]).unwrap();
        let m = &v.rules.eval;
        assert_eq!(m.goals.len(), 1);
        let g = &m.goals[0];
        let w = PieceCode::new(KindId(0), Player::FIRST).index();
        let at = |c: &str| g.progress[w * m.cells + cell(&v, c)];
        // White's goal is c8, c9, d8, d9: c8 itself is the best; c7 one step away; c5 three
        // (c5-c6 onto the run, c6-c7, c7-c8).
        assert!(at("c8") > at("c7") && at("c7") > at("c5"));
        assert_eq!(at("c8") - at("c7"), 100);
        assert_eq!(at("c8") - at("c5"), 300);
        assert_eq!(g.need.0, [4, 4]);
        // No move is a draw in Bivouac: mobility does not count.
        assert_eq!(m.mobility, 0);
    }

    #[test]
    fn a_stack_is_worth_its_reach_at_its_level() {
        // Lielow: a stack moves exactly its level in 8 directions. On the empty 8 × 8 board a
        // level-1 stack reaches 420 / 64 cells on average (a king's moves), a level-2 one
        // 336 / 64 (48 landings along each file or rank direction, 36 along each diagonal),
        // a level-8 one none. Worth 100 points times sqrt(reach / reach at level 1), less 100.
        let v = Variant::load("lielow", &[]).unwrap();
        let m = &v.rules.eval;
        let (slot, tab) = m.levels[PieceCode::new(KindId(0), Player::FIRST).index()].clone().unwrap();
        assert_eq!(slot, v.rules.attributes.iter().position(|a| a == "level").unwrap() as u8);
        assert_eq!(tab.len(), 9);
        assert_eq!((tab[1], tab[2], tab[8]), (0, (100.0 * ((336.0f64 / 420.0).sqrt() - 1.0)).round() as i32, -100));
        assert!(tab[1..].windows(2).all(|w| w[0] >= w[1]), "{tab:?}");
        assert!(m.level_units > 0);
        // Checkers has no attribute: nothing measured.
        let v = Variant::load("checkers", &[]).unwrap();
        assert!(v.rules.eval.levels.iter().all(Option::is_none) && v.rules.eval.level_units == 0);
    }

    #[test]
    fn a_stack_is_worth_the_points_the_file_gives() {
        // `[ai.eval] attributes`: a kind's points per level replace the derived ones, a short
        // list repeating its last entry; what cannot be a table is refused at its key or list.
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::read_to_string("variants/lielow/variant.toml").unwrap();
        let load = |eval: &str| {
            std::fs::write(dir.path().join("variant.toml"), format!("{base}\n[ai.eval]\n{eval}\n")).unwrap();
            Variant::load(&dir.path().display().to_string(), &[])
        };
        let v = load("attributes = { stack = [0, 0, -5, -30] }").unwrap();
        let m = &v.rules.eval;
        let (_, tab) = m.levels[PieceCode::new(KindId(0), Player::SECOND).index()].clone().unwrap();
        assert_eq!(tab, [0, 0, -5, -30, -30, -30, -30, -30, -30]);
        assert_eq!(m.attribute_points, [Some(tab)]);
        for (eval, says) in [
            ("attributes = { pawn = [1] }", "not a kind of this variant"),
            ("attributes = { stack = [] }", "a list of 1 to 9 points"),
            ("attributes = { stack = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] }", "a list of 1 to 9 points"),
            ("attributes = { stack = [0, 200000] }", "each from -100000 to 100000"),
        ] {
            let err = format!("{:?}", load(eval).err().unwrap());
            assert!(err.contains(says), "{eval}: {err}");
        }
        // Checkers' men move by no attribute.
        let text = std::fs::read_to_string("variants/checkers/variant.toml").unwrap();
        std::fs::write(dir.path().join("variant.toml"), format!("{text}\n[ai.eval]\nattributes = {{ man = [0] }}\n")).unwrap();
        let err = format!("{:?}", Variant::load(&dir.path().display().to_string(), &[]).err().unwrap());
        assert!(err.contains("`man` moves by no attribute's distance"), "{err}");
    }

    #[test]
    fn convertible_pieces_count_by_how_safe_their_cell_is() {
        // Othello: a corner lies on no line with cells on both sides (safe for good), an edge
        // cell on one (along the edge), an inner cell on four. Shares 9/9, 7/9 and 1/9 of 100
        // points, in units of a tenth of a point.
        let v = Variant::load("othello", &[]).unwrap();
        let m = &v.rules.eval;
        let disc = PieceCode::new(KindId(0), Player::FIRST).index() * m.cells;
        assert_eq!(m.material[disc + cell(&v, "a1")], 1000);
        assert_eq!(m.material[disc + cell(&v, "a4")], 778);
        assert_eq!(m.material[disc + cell(&v, "b2")], 111);
        assert_eq!(m.material[disc + cell(&v, "d5")], 111);
        // Nothing converts in checkers: a man is worth 100 points on every cell.
        let v = Variant::load("checkers", &[]).unwrap();
        let m = &v.rules.eval;
        let man = PieceCode::new(v.rules.kind_by_name("man").unwrap(), Player::FIRST).index() * m.cells;
        assert!((0..m.cells).all(|c| m.material[man + c] == 1000));
    }
}
