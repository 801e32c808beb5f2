//! What a position says to the evaluation, read once so that the evaluation under any
//! `[ai.eval]` numbers is a few table look-ups ([`Data::eval`]): each piece as an index into the
//! model's per-code, per-cell tables (material and progress: values, their signs, promotion
//! gains, races and cells that can be turned over are all in the tables), each counter (pieces in
//! hand, exits), and the counts the other terms multiply (moves, open-line squares, territory,
//! the script's points, goal cells held, threats, royal pieces attacked), and each piece whose
//! move distance is an attribute with that attribute's value.
//! Everything is from the point of view of the player to decide, as the evaluation is.
//!
//! The model for some numbers is built by the variant loader's own builder
//! ([`crate::rules::eval::build_model`]), so the tables are exactly those a variant file with
//! these numbers loads. Two parts are scaled rather than rebuilt per position: progress towards a
//! `zone_filled` goal (its best pieces are chosen the same way at any weight; each cell's points
//! are rounded apart) and the fill term's rounding (its integer division): both within a unit or
//! two of the evaluation a loaded file gives.

use crate::ai::eval::{EVAL_MAX, Evaluator};
use crate::piece::Player;
use crate::rules::{EvalModel, Term};
use crate::script::ScriptError;
use crate::state::Position;

/// The counts of the terms that multiply one number by a count, per position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Counts {
    /// Moves (the mobility term's count).
    pub(crate) moves: f32,
    /// 1 for the player to decide (the tempo term).
    pub(crate) tempo: f32,
    /// The sum over open windows of pieces² (the lines term).
    pub(crate) lines: f32,
    /// Empty cells reached first (the territory term).
    pub(crate) territory: f32,
    /// The script's points.
    pub(crate) script: f32,
    /// Quarter seeds (the stores term, sowing).
    pub(crate) stores: f32,
    /// Held goal cells², over the goal's size (the fill term).
    pub(crate) fill: f32,
    /// Progress towards `zone_filled` goals, in units at progress weight 1.
    pub(crate) goals: f32,
    /// Threats, each counted by its parity (the threats term).
    pub(crate) threats: f32,
    /// Royal pieces under attack (the royal term, a cost).
    pub(crate) royal: f32,
}

/// Positions read for tuning (see the module documentation), with their results.
#[derive(Clone, Debug, Default)]
pub(crate) struct Data {
    /// Per piece on the board: its table index (`code * cells + cell`) times 2, plus 1 when it is
    /// the opponent's.
    pieces: Vec<u32>,
    /// Per position, where its pieces start in `pieces` (one more entry than positions).
    starts: Vec<u32>,
    /// Per piece whose move distance is an attribute (the attributes term): its code, times
    /// 2^16, plus the attribute's value (at most the table's last), times 2, plus 1 when it is
    /// the opponent's.
    levels: Vec<u32>,
    /// Per position, where its pieces start in `levels` (one more entry than positions).
    level_starts: Vec<u32>,
    /// Per position, `slots` counter differences (own minus opponent's).
    counters: Vec<i32>,
    slots: usize,
    counts: Vec<Counts>,
    /// The game's result for the player to decide: 1, ½ or 0.
    pub(crate) results: Vec<f32>,
    /// Whether the position is held out of the fit (its game is).
    pub(crate) held_out: Vec<bool>,
}

/// Reads positions: the model with every weight 1 (the counts are its terms over their units).
pub(crate) struct Reader<'a> {
    ones: &'a EvalModel,
    evaluator: Evaluator<'a>,
}

impl<'a> Reader<'a> {
    /// A reader of `v`'s positions; `ones` is `v`'s model with every weight 1.
    pub(crate) fn new(v: &'a crate::variant::Variant, ones: &'a EvalModel) -> Reader<'a> {
        Reader { ones, evaluator: Evaluator::with_model(v, ones) }
    }

    /// Adds `pos` to `data`, with `result` for the player to decide.
    ///
    /// # Errors
    /// The script's `evaluate` hook failed.
    pub(crate) fn read(&mut self, pos: &mut Position, result: f32, held_out: bool, data: &mut Data) -> Result<(), ScriptError> {
        let m = self.ones;
        let side = pos.side();
        let e = self.evaluator.breakdown(pos)?;
        let diff = |t: Term| e.terms.iter().find(|(x, _)| *x == t).map_or(0.0, |(_, v)| (v[side] - v[side.other()]) as f64);
        let per = |total: f64, units: i32| if units == 0 { 0.0 } else { total / units as f64 };
        let mut board_progress = 0i64;
        if data.starts.is_empty() {
            data.starts.push(0);
            data.level_starts.push(0);
        }
        for p in Player::both() {
            for cell in pos.cells_of(p) {
                let code = pos.board()[cell as usize].index();
                let i = code * m.cells + cell as usize;
                let theirs = p != side;
                data.pieces.push((i as u32) << 1 | u32::from(theirs));
                board_progress += if theirs { -m.progress[i] } else { m.progress[i] } as i64;
                if let Some((slot, table)) = &m.levels[code] {
                    let at = (pos.attr(cell, *slot).max(0) as usize).min(table.len() - 1);
                    data.levels.push((code as u32) << 16 | (at as u32) << 1 | u32::from(theirs));
                }
            }
        }
        data.level_starts.push(data.levels.len() as u32);
        data.starts.push(data.pieces.len() as u32);
        data.slots = pos.counters().len();
        data.counters.extend(pos.counters().iter().map(|c| c[side] - c[side.other()]));
        let lines_units = m.lines.first().map_or(0, |l| l.units);
        data.counts.push(Counts {
            moves: per(diff(Term::Mobility), m.mobility) as f32,
            tempo: f32::from(m.tempo != 0),
            lines: per(diff(Term::Lines), lines_units) as f32,
            territory: per(diff(Term::Territory), m.territory) as f32,
            script: per(diff(Term::Script), m.script) as f32,
            stores: per(diff(Term::Stores), m.stores) as f32,
            fill: per(diff(Term::Fill), m.fill) as f32,
            goals: (diff(Term::Progress) - board_progress as f64) as f32,
            threats: per(diff(Term::Threats), m.threats) as f32,
            royal: per(diff(Term::Royal), m.royal) as f32,
        });
        data.results.push(result);
        data.held_out.push(held_out);
        Ok(())
    }
}

impl Data {
    /// How many positions.
    pub(crate) fn len(&self) -> usize {
        self.results.len()
    }

    /// Appends another set of positions (a game's, in the order games are numbered).
    pub(crate) fn append(&mut self, other: &Data) {
        if other.len() == 0 {
            return;
        }
        if self.starts.is_empty() {
            self.starts.push(0);
            self.level_starts.push(0);
        }
        let base = self.pieces.len() as u32;
        self.pieces.extend_from_slice(&other.pieces);
        self.starts.extend(other.starts[1..].iter().map(|s| s + base));
        let base = self.levels.len() as u32;
        self.levels.extend_from_slice(&other.levels);
        self.level_starts.extend(other.level_starts[1..].iter().map(|s| s + base));
        self.slots = other.slots;
        self.counters.extend_from_slice(&other.counters);
        self.counts.extend_from_slice(&other.counts);
        self.results.extend_from_slice(&other.results);
        self.held_out.extend_from_slice(&other.held_out);
    }

    /// Keeps the first `n` positions.
    pub(crate) fn truncate(&mut self, n: usize) {
        if n >= self.len() {
            return;
        }
        self.pieces.truncate(self.starts[n] as usize);
        self.starts.truncate(n + 1);
        self.levels.truncate(self.level_starts[n] as usize);
        self.level_starts.truncate(n + 1);
        self.counters.truncate(n * self.slots);
        self.counts.truncate(n);
        self.results.truncate(n);
        self.held_out.truncate(n);
    }

    /// The evaluation of position `i` under model `m` (units, from the point of view of the
    /// player to decide, clamped as the search's is).
    pub(crate) fn eval(&self, m: &EvalModel, i: usize) -> f64 {
        let mut e = 0i64;
        for &p in &self.pieces[self.starts[i] as usize..self.starts[i + 1] as usize] {
            let t = (p >> 1) as usize;
            let u = (m.material[t] + m.progress[t]) as i64;
            e += if p & 1 == 0 { u } else { -u };
        }
        if m.level_units != 0 {
            for &p in &self.levels[self.level_starts[i] as usize..self.level_starts[i + 1] as usize] {
                let points = m.levels[(p >> 16) as usize].as_ref().map_or(0, |(_, table)| table[((p & 0xffff) >> 1) as usize]);
                let u = i64::from(m.level_units) * i64::from(points);
                e += if p & 1 == 0 { u } else { -u };
            }
        }
        let counters = &self.counters[i * self.slots..(i + 1) * self.slots];
        for &(slot, u) in m.hands.iter().chain(&m.exits) {
            e += u as i64 * counters[slot as usize] as i64;
        }
        let c = &self.counts[i];
        let lines_units = m.lines.first().map_or(0, |l| l.units);
        let scaled = m.mobility as f64 * c.moves as f64
            + m.tempo as f64 * c.tempo as f64
            + lines_units as f64 * c.lines as f64
            + m.territory as f64 * c.territory as f64
            + m.script as f64 * c.script as f64
            + m.stores as f64 * c.stores as f64
            + m.fill as f64 * c.fill as f64
            + m.threats as f64 * c.threats as f64
            + m.royal as f64 * c.royal as f64
            + m.weights[Term::Progress.index()] * c.goals as f64;
        (e as f64 + scaled).clamp(-(EVAL_MAX as f64), EVAL_MAX as f64)
    }
}
