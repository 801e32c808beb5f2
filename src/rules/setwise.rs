//! Moves by bit sets: where a piece's forms are fixed steps and short jumps (checkers' men and
//! kings, Breakthrough's pawns, ...), every piece of a kind moves by the same few cell offsets,
//! so "can any piece jump?" and "how many steps are there?" are a few shifts and masks of the
//! occupied-cell sets rather than a walk over the pieces.
//!
//! At load, each step or jump table (target cells per start cell) is split into groups of one
//! offset each: the start cells from which the form reaches `start + offset`. A start cell's
//! target is in the set `S` exactly when the start is in `S` shifted back by the offset. Any
//! geometry works (the offsets are of cell indices, not of files and ranks); a table with more
//! than [`MAX_GROUPS`] offsets, a board of more than 128 cells, or more than [`MAX_CODES`] piece
//! codes is left to the piece-by-piece generator.
//!
//! A step form with more offsets than that (a slide over any piece, compiled as a table of
//! landings: Bivouac's run) is kept as one target set per start cell instead: its moves from a
//! cell are that set's empty cells, one mask and one count a piece. A leap whose ends are
//! tabled (by start cell and distance: Lielow's level-long leaps, a knight's) is kept the same
//! way, one set per start cell and distance, with its moves off the board beside it.
//!
//! Slides that stop at the first piece (a rook's, a queen's, a pawn's double step) are counted
//! on the board's rays, a few masks a direction; a step that takes en passant (a pawn's
//! diagonal capture) is counted as a step, plus the pieces that reach the open en passant cell.
//! These count moves; they never list or make them.

use super::{BoardView, CodeSet, Distance, Form, Ruleset};
use crate::cellset::{CellSet, Word};
use crate::geometry::CellTable;
use crate::piece::{ByPlayer, PieceCode, Player};

/// What the sets read of a position (the position, `state::Position`, answers: the rules
/// read it through this, as generation reads a [`BoardView`], and do not depend on it).
pub(crate) trait Occupancy {
    /// The cells of each piece code, by [`PieceCode::index`] (empty where not kept).
    fn cells_by_code(&self) -> &[u128];
    /// Both players' occupied cells.
    fn occupied_cells(&self) -> u128;
    /// `p`'s occupied cells.
    fn occupied(&self, p: Player) -> u128;
    /// How many pieces each player has on the board.
    fn counts(&self) -> ByPlayer<u32>;
    /// A piece code per cell.
    fn board(&self) -> &[PieceCode];
    /// The board as generation reads it.
    fn view(&self) -> BoardView<'_>;
}

/// The most piece codes (kinds × players, plus the empty code) the sets are kept for.
pub(crate) const MAX_CODES: usize = 16;
/// The most offsets one piece code's steps (or jumps) may split into.
pub(crate) const MAX_GROUPS: usize = 24;

/// The start cells (`from`) from which a form reaches the cell `offset` further on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shift {
    pub(crate) offset: i16,
    pub(crate) from: u128,
}

/// A short jump's start cells, by the offsets of its jumped cell and its landing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JumpShift {
    pub(crate) over: i16,
    pub(crate) land: i16,
    pub(crate) from: u128,
    pub(crate) victims: CodeSet,
}

/// One piece code's forms as shifts (`None` where some form is not a fixed step or short jump).
#[derive(Clone, Debug, Default)]
pub(crate) struct CodeShifts {
    /// Its jumps (`None`: one of them flies, so its cells depend on the board).
    pub(crate) jumps: Option<Vec<JumpShift>>,
    /// Its steps (`None`: some quiet form is not a plain step).
    pub(crate) steps: Option<Steps>,
}

/// A piece code's plain steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct Steps {
    /// To empty cells, each with the form's piece-count limit (`u16::MAX`: none).
    pub(crate) quiet: Vec<(Shift, u16)>,
    /// Onto victims (capturing by landing).
    pub(crate) take: Vec<(Shift, CodeSet)>,
    /// The steps whose offsets are too many to shift by (a slide over any piece, compiled as
    /// a table of landings: Bivouac's run).
    pub(crate) masks: Vec<Mask>,
    /// Leaps whose ends are tabled (Lielow's level-long leaps).
    pub(crate) leaps: Vec<LeapSets>,
    /// Slides counted on the board's rays (a rook's, a queen's, a pawn's double step).
    pub(crate) rays: Vec<RaySlide>,
    /// Steps that also take en passant, by offset, with what they take: onto the open en
    /// passant cell, taking the piece that passed it (a pawn's diagonal capture).
    pub(crate) en_passant: Vec<(Shift, CodeSet)>,
}

impl Steps {
    /// Whether its moves are steps and leaps whose landings are fixed by the start cell alone
    /// (no slide, no en passant): what [`Setwise::movers`] and the plain-step count read (a
    /// piece with a slide or an en passant capture is never fixed).
    pub(crate) fn fixed(&self) -> bool {
        self.rays.is_empty() && self.en_passant.is_empty()
    }

    /// The steps of a piece `pr` whose moves leave no part to play (no exit zone, no second
    /// part), on a board of `cells` cells, where each of its forms is one the sets hold.
    fn of(rules: &Ruleset, pr: &super::PieceRules, cells: usize, codes_mask: CodeSet) -> Option<Steps> {
        let (mut quiet, mut take, mut masks, mut leaps) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut rays, mut en_passant) = (Vec::new(), Vec::new());
        for (form, &limit) in pr.quiet.iter().zip(&pr.limits) {
            if let Form::Leap { distance, capture, off_per_direction, cond, lame: false, rays: Some(r), .. } = form {
                let (max, cells) = r.landing_sets(&rules.geometry, cond, *off_per_direction)?;
                let quiet = !cond.capture_only;
                leaps.push(LeapSets { cells, max, distance: *distance, limit, quiet, take: *capture & codes_mask });
                continue;
            }
            if let Form::Slide { .. } = form {
                rays.push(RaySlide::of(&rules.geometry, form, limit, codes_mask)?);
                continue;
            }
            let Form::Step { targets, capture, quiet: q, en_passant: ep } = form else { return None };
            // (A step that lands on empty cells takes nothing there en passant.)
            let ep = *ep && !*q;
            let Some(groups) = shifts(targets, cells, |t| (t, t)) else {
                if ep {
                    return None;
                }
                let cells = (0..cells as u16).map(|c| targets.get(c).iter().fold(0u128, |s, &t| s | 1u128 << t)).collect();
                masks.push(Mask { cells, limit, quiet: *q, take: *capture & codes_mask });
                continue;
            };
            if *capture != 0 && limit != u16::MAX {
                return None; // (the shifts' captures are counted whatever the pieces' count)
            }
            for (offset, _, from) in groups {
                let s = Shift { offset, from };
                if *q {
                    quiet.push((s, limit));
                }
                if *capture != 0 {
                    take.push((s, *capture & codes_mask));
                }
                if ep {
                    en_passant.push((s, *capture & codes_mask));
                }
            }
        }
        Some(Steps { quiet, take, masks, leaps, rays, en_passant })
    }
}

/// A slide counted on the board's rays ([`crate::geometry::Geometry::ray`]): it stops at the
/// first piece, taking it if it may, and no zone restricts it but on its start.
#[derive(Clone, Debug)]
pub(crate) struct RaySlide {
    /// By `from × vectors + i`: the ray of its `i`-th vector from `from`, and whether it runs
    /// to higher cells.
    pub(crate) rays: Vec<(u128, bool)>,
    pub(crate) vectors: usize,
    /// The cells it may start from.
    pub(crate) starts: u128,
    /// The most cells it crosses.
    pub(crate) max: u8,
    /// Whether it lands on empty cells (not only captures).
    pub(crate) quiet: bool,
    /// What it captures by landing.
    pub(crate) take: CodeSet,
    /// The form's piece-count limit (`u16::MAX`: none).
    pub(crate) limit: u16,
}

impl RaySlide {
    /// The slide of `form` as rays, where it is one they count (see [`RaySlide`]).
    fn of(g: &crate::geometry::Geometry, form: &Form, limit: u16, codes_mask: CodeSet) -> Option<RaySlide> {
        let (vecs, max, capture, cond) = form.plain_slide()?;
        let cells = g.len() as u16;
        let mut rays = Vec::with_capacity(cells as usize * vecs.len());
        for from in 0..cells {
            for &v in vecs {
                rays.push(g.ray(v, from)?);
            }
        }
        let starts = (0..cells).filter(|&c| cond.start_ok(g, c)).fold(0u128, |s, c| s | 1u128 << c);
        Some(RaySlide { rays, vectors: vecs.len(), starts, max, quiet: !cond.capture_only, take: capture & codes_mask, limit })
    }

    /// The moves of its piece on `from` (`occupied`: every piece's cells): to empty cells, and
    /// onto `victims`, counted only with `captures` (else `None`); in words of `W` bits (the
    /// board's cells all fit: a board of at most 64 cells reads its rays in one word).
    #[inline(always)]
    fn count<W: Word>(&self, from: u16, occupied: W, victims: W, captures: bool) -> Option<u64> {
        let k = self.vectors;
        let (mut quiet, mut taking) = (0u64, 0u64);
        for &(ray, up) in &self.rays[from as usize * k..from as usize * k + k] {
            let (open, first) = super::movement::before_first(W::of(ray), up, occupied);
            let empty = open.count() as u64;
            if self.quiet {
                quiet += empty.min(self.max as u64);
            }
            if first != crate::geometry::NONE && empty < self.max as u64 && victims.has(first) {
                taking += 1;
            }
        }
        if taking > 0 && !captures {
            return None;
        }
        Some(quiet + taking)
    }
}

/// A leap's landings as cell sets, by start cell and distance (from its table of ends).
#[derive(Clone, Debug)]
pub(crate) struct LeapSets {
    /// By `from × max + d − 1`: the cells it lands on and how many moves leave the board.
    pub(crate) cells: Vec<(u128, u8)>,
    /// The longest distance held (a longer leap ends as it does).
    pub(crate) max: i32,
    pub(crate) distance: Distance,
    /// The form's piece-count limit (`u16::MAX`: none).
    pub(crate) limit: u16,
    /// Whether it lands on empty cells.
    pub(crate) quiet: bool,
    /// What it captures by landing.
    pub(crate) take: CodeSet,
}

/// A step form's targets as one cell set per start cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct Mask {
    pub(crate) cells: Vec<u128>,
    /// The form's piece-count limit (`u16::MAX`: none).
    pub(crate) limit: u16,
    /// Whether it lands on empty cells.
    pub(crate) quiet: bool,
    /// What it captures by landing.
    pub(crate) take: CodeSet,
}

/// The variant's pieces as shifts (see the module's text).
#[derive(Clone, Debug, Default)]
pub(crate) struct Setwise {
    /// By [`PieceCode::index`].
    pub(crate) codes: Vec<CodeShifts>,
    /// Whether every piece's non-chaining moves are plain steps (or it has none): then a
    /// piece's count is one set of targets.
    pub(crate) plain: bool,
    /// Whether no piece's jump flies: a chain's jumps are then all in the pieces' tables, and
    /// chains are counted without being built.
    pub(crate) short_jumps: bool,
    /// The board's cells.
    pub(crate) cells: u128,
    /// Whether no piece can be dropped.
    pub(crate) no_drops: bool,
    /// Whether they fit in 64 bits (then the sets are worked on as `u64`).
    pub(crate) narrow: bool,
    /// Every kind has a quiet form (no piece is placed to stay, as Othello's discs are): with
    /// few pieces on the board, the listing visits each rather than asking which can move.
    pub(crate) pieces_move: bool,
    /// Whether some code's steps hold slides or en passant steps (see [`Steps::fixed`]): the
    /// counting loops then read them (else they are compiled out).
    pub(crate) slides: bool,
}

/// The cells of each piece code, and the empty cells, of one position.
pub(crate) struct Sets<'a> {
    pub(crate) by_code: &'a [u128],
    pub(crate) empty: u128,
}

/// Splits a table of targets into one shift per offset (`None` past [`MAX_GROUPS`]).
fn shifts<T: Copy>(table: &CellTable<T>, cells: usize, target: impl Fn(T) -> (u16, u16)) -> Option<Vec<(i16, i16, u128)>> {
    let mut groups: Vec<(i16, i16, u128)> = Vec::new();
    for from in 0..cells as u16 {
        for &t in table.get(from) {
            let (a, b) = target(t);
            let (a, b) = (a as i16 - from as i16, b as i16 - from as i16);
            match groups.iter().position(|g| g.0 == a && g.1 == b) {
                Some(i) => groups[i].2 |= 1u128 << from,
                None if groups.len() < MAX_GROUPS => groups.push((a, b, 1u128 << from)),
                None => return None,
            }
        }
    }
    Some(groups)
}

impl Setwise {
    /// The shifts of `rules`' pieces, or `None` where the board or the codes are too many.
    pub(crate) fn of(rules: &Ruleset) -> Option<Setwise> {
        let cells = rules.geometry.len();
        let ncodes = PieceCode::count(rules.kinds.len());
        if !CellSet::fits(cells) || ncodes > MAX_CODES {
            return None;
        }
        // Victim sets may name codes past the variant's (every enemy code): only its own are kept.
        let codes_mask: CodeSet = (1 << ncodes) - 1;
        let codes: Vec<CodeShifts> = rules
            .pieces
            .iter()
            .map(|pr| {
                let jumps = pr
                    .jumps
                    .iter()
                    .map(|j| {
                        if j.flying.is_some() {
                            return None;
                        }
                        let g = shifts(&j.table, cells, |(o, l)| (o, l))?;
                        Some(
                            g.into_iter()
                                .map(|(over, land, from)| JumpShift { over, land, from, victims: j.victims & codes_mask })
                                .collect::<Vec<_>>(),
                        )
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.concat());
                let plain = pr.exit.is_none() && pr.thens.iter().all(Option::is_none);
                let steps = if plain { Steps::of(rules, pr, cells, codes_mask) } else { None };
                CodeShifts { jumps, steps }
            })
            .collect();
        let no_drops = rules.drops.by.0.iter().all(|d| d.is_empty()) && rules.pieces.iter().all(|p| p.drop.is_none());
        let slides = codes.iter().any(|c| c.steps.as_ref().is_some_and(|s| !s.fixed()));
        Some(Setwise {
            codes,
            plain: rules.pieces.iter().all(|p| p.steps.as_ref().is_some_and(|s| s.capture == 0) || p.quiet.is_empty()),
            short_jumps: rules.pieces.iter().all(|p| p.jumps.iter().all(|j| j.flying.is_none())),
            no_drops,
            cells: CellSet::board(cells).bits(),
            narrow: cells <= 64,
            pieces_move: rules.pieces.iter().skip(1).all(|p| !p.quiet.is_empty()),
            slides,
        })
    }

    /// The cells of each code and the empty cells of `pos` (`None` if `pos` does not keep
    /// them for these rules' codes: it was set up under other rules and not rehashed).
    #[inline(always)]
    pub(crate) fn sets<'a>(&self, pos: &'a impl Occupancy) -> Option<Sets<'a>> {
        let by_code = pos.cells_by_code();
        if by_code.len() != self.codes.len() {
            return None;
        }
        let all = pos.occupied_cells();
        Some(Sets { by_code, empty: self.cells & !all })
    }

    /// The cells of `side`'s pieces that can make a first jump (`None`: one of its pieces has
    /// a flying jump, which the sets cannot answer).
    #[inline]
    pub(crate) fn jumpers(&self, sets: &Sets<'_>, side: Player) -> Option<u128> {
        if self.narrow { self.jumpers_in::<u64>(sets, side).map(u128::from) } else { self.jumpers_in::<u128>(sets, side) }
    }

    /// The cells of `side`'s pieces that may have a non-chaining move: each piece with a step
    /// to an empty cell or onto a victim, and every piece of a code whose forms the shifts do
    /// not hold whole (never fewer than those with such a move; form limits are not read).
    #[inline]
    pub(crate) fn movers(&self, sets: &Sets<'_>, side: Player) -> u128 {
        if self.narrow { self.movers_in::<u64>(sets, side).wide() } else { self.movers_in::<u128>(sets, side) }
    }

    /// [`Setwise::movers`] in words of `W` bits. Its loop over the side's codes is written out
    /// as in `jumpers_in` and `quiet_in`: one iterator for the three cost checkers perft 4 %.
    #[inline(always)]
    fn movers_in<W: Word>(&self, sets: &Sets<'_>, side: Player) -> W {
        let mut out = W::ZERO;
        let empty = W::of(sets.empty);
        let mut victim_cells = VictimCells::<W>::new();
        let mut c = 1 + side.index();
        while c < self.codes.len() {
            let mine = W::of(sets.by_code[c]);
            if mine != W::ZERO {
                match self.codes[c].steps.as_ref() {
                    Some(s @ Steps { quiet, take, masks, leaps, .. }) if masks.is_empty() && leaps.is_empty() && s.fixed() => {
                        for (s, victims) in take {
                            out = out | (mine & W::of(s.from) & victim_cells.of(sets, *victims).back(s.offset));
                        }
                        for (s, _) in quiet {
                            out = out | (mine & W::of(s.from) & empty.back(s.offset));
                        }
                    }
                    _ => out = out | mine,
                }
            }
            c += 2;
        }
        out
    }

    /// `side`'s steps to empty cells, counted, where none of its pieces can jump (`Ok`), or
    /// else the cells of those that can (`Err`): what a move count asks first, in one pass
    /// (`None` as for [`Setwise::jumpers`] and [`Setwise::count_quiet`]).
    #[inline]
    pub(crate) fn steps_or_jumpers(&self, pos: &impl Occupancy, sets: &Sets<'_>, side: Player) -> Option<Result<u64, u128>> {
        if self.narrow { self.steps_or_jumpers_in::<u64>(pos, sets, side) } else { self.steps_or_jumpers_in::<u128>(pos, sets, side) }
    }

    #[inline(always)]
    fn steps_or_jumpers_in<W: Word + Into<u128>>(&self, pos: &impl Occupancy, sets: &Sets<'_>, side: Player) -> Option<Result<u64, u128>> {
        let j = self.jumpers_in::<W>(sets, side)?;
        if j != W::ZERO {
            return Some(Err(j.into()));
        }
        self.steps_in::<W>(pos, sets, side, false).map(Ok)
    }

    /// [`Setwise::jumpers`] in words of `W` bits.
    #[inline(always)]
    fn jumpers_in<W: Word>(&self, sets: &Sets<'_>, side: Player) -> Option<W> {
        let mut out = W::ZERO;
        let empty = W::of(sets.empty);
        let mut c = 1 + side.index();
        while c < self.codes.len() {
            let mine = W::of(sets.by_code[c]);
            if mine != W::ZERO {
                // The groups of a piece mostly share one set of victims: their cells are found once.
                let mut victim_cells = VictimCells::<W>::new();
                for j in self.codes[c].jumps.as_ref()? {
                    let cells = victim_cells.of(sets, j.victims);
                    // Most pieces have no victim beside them: the landing is looked at only
                    // where one has.
                    let next_to = mine & W::of(j.from) & cells.back(j.over);
                    if next_to != W::ZERO {
                        out = out | (next_to & empty.back(j.land));
                    }
                }
            }
            c += 2;
        }
        Some(out)
    }

    /// `p`'s steps counted in words of `W` bits; a step onto a victim is counted with
    /// `captures`, and otherwise makes the answer `None`.
    #[inline(always)]
    fn steps_in<W: Word>(&self, pos: &impl Occupancy, sets: &Sets<'_>, p: Player, captures: bool) -> Option<u64> {
        let mut t = Total(0);
        if self.slides {
            self.quiet_in::<W, Total, true>(pos, sets, p, captures, &mut t, |_, _| None)?;
        } else {
            self.quiet_in::<W, Total, false>(pos, sets, p, captures, &mut t, |_, _| None)?;
        }
        Some(t.0)
    }

    /// `p`'s non-chaining moves counted: set-wise for each piece code whose forms are plain
    /// steps (a step onto a victim counted), and by `others(code, from)` for each piece of
    /// every other code (`None` where `others` says so).
    #[inline]
    pub(crate) fn count_quiet(
        &self,
        pos: &impl Occupancy,
        sets: &Sets<'_>,
        p: Player,
        others: impl FnMut(usize, u16) -> Option<u64>,
    ) -> Option<u64> {
        let mut t = Total(0);
        self.quiet_into(pos, sets, p, &mut t, others)?;
        Some(t.0)
    }

    /// [`Setwise::count_quiet`] piece by piece: each piece's count added to `by_cell` at its
    /// cell (which the caller cleared, and sized to the board), the total returned.
    pub(crate) fn count_quiet_by_cell(
        &self,
        pos: &impl Occupancy,
        sets: &Sets<'_>,
        p: Player,
        by_cell: &mut [u32],
        others: impl FnMut(usize, u16) -> Option<u64>,
    ) -> Option<u64> {
        let mut t = ByCell { n: 0, by_cell };
        self.quiet_into(pos, sets, p, &mut t, others)?;
        Some(t.n)
    }

    /// `p`'s non-chaining moves counted into `sink`, in the board's word size.
    #[inline(always)]
    fn quiet_into<S: Sink>(
        &self,
        pos: &impl Occupancy,
        sets: &Sets<'_>,
        p: Player,
        sink: &mut S,
        others: impl FnMut(usize, u16) -> Option<u64>,
    ) -> Option<()> {
        match (self.narrow, self.slides) {
            (true, false) => self.quiet_in::<u64, S, false>(pos, sets, p, true, sink, others),
            (true, true) => self.quiet_in::<u64, S, true>(pos, sets, p, true, sink, others),
            (false, false) => self.quiet_in::<u128, S, false>(pos, sets, p, true, sink, others),
            (false, true) => self.quiet_in::<u128, S, true>(pos, sets, p, true, sink, others),
        }
    }

    /// [`Setwise::count_quiet`] in words of `W` bits, a step onto a victim counted only with
    /// `captures` (else the answer is `None`), into `sink`; the slides and en passant steps
    /// read only with `SLIDES` ([`Setwise::slides`]: without it there are none).
    #[inline(always)]
    fn quiet_in<W: Word, S: Sink, const SLIDES: bool>(
        &self,
        pos: &impl Occupancy,
        sets: &Sets<'_>,
        p: Player,
        captures: bool,
        sink: &mut S,
        mut others: impl FnMut(usize, u16) -> Option<u64>,
    ) -> Option<()> {
        let own = pos.counts()[p];
        let empty = W::of(sets.empty);
        let mut victim_cells = VictimCells::<W>::new();
        let mut c = 1 + p.index();
        while c < self.codes.len() {
            let mine = W::of(sets.by_code[c]);
            if mine != W::ZERO {
                let Some(Steps { quiet, take, masks, leaps, rays, en_passant, .. }) = self.codes[c].steps.as_ref() else {
                    for from in CellSet::from_bits(sets.by_code[c]) {
                        sink.at(from, others(c, from)?);
                    }
                    c += 2;
                    continue;
                };
                for (s, victims) in take {
                    let taking = mine & W::of(s.from) & victim_cells.of(sets, *victims).back(s.offset);
                    if taking != W::ZERO && !captures {
                        return None;
                    }
                    sink.set(taking);
                }
                for (s, limit) in quiet {
                    if *limit == u16::MAX || own as u64 <= *limit as u64 {
                        sink.set(mine & W::of(s.from) & empty.back(s.offset));
                    }
                }
                for m in masks.iter().filter(|m| m.limit == u16::MAX || own as u64 <= m.limit as u64) {
                    let victims = cells_of::<W>(sets, m.take);
                    for from in CellSet::from_bits(sets.by_code[c]) {
                        sink.at(from, landings(W::of(m.cells[from as usize]), empty, victims, m.quiet, captures)?);
                    }
                }
                for l in leaps.iter().filter(|l| l.limit == u16::MAX || own as u64 <= l.limit as u64) {
                    let victims = cells_of::<W>(sets, l.take);
                    for from in CellSet::from_bits(sets.by_code[c]) {
                        sink.at(from, leap_landings(l, pos, from as usize, empty, victims, captures)?);
                    }
                }
                if SLIDES {
                    for r in rays.iter().filter(|r| r.limit == u16::MAX || own as u64 <= r.limit as u64) {
                        let (occupied, victims) = (W::of(self.cells & !sets.empty), cells_of::<W>(sets, r.take));
                        for from in CellSet::from_bits(sets.by_code[c] & r.starts) {
                            sink.at(from, r.count::<W>(from, occupied, victims, captures)?);
                        }
                    }
                    if !en_passant.is_empty() {
                        sink.set(self.en_passant_takers::<W>(pos, mine, en_passant, captures)?);
                    }
                }
            }
            c += 2;
        }
        Some(())
    }
}

impl Setwise {
    /// The pieces of `mine` whose steps `groups` take en passant here (`None` where one does
    /// and `captures` is off).
    #[inline(never)]
    fn en_passant_takers<W: Word>(&self, pos: &impl Occupancy, mine: W, groups: &[(Shift, CodeSet)], captures: bool) -> Option<W> {
        let [at, piece] = pos.view().en_passant;
        if at == crate::geometry::NONE || pos.board()[at as usize] != PieceCode::EMPTY {
            return Some(W::ZERO);
        }
        let code = pos.board()[piece as usize];
        let mut out = W::ZERO;
        for (s, victims) in groups {
            if super::movement::victim(code, *victims) {
                out = out | (mine & W::of(s.from) & W::bit(at).back(s.offset));
            }
        }
        if out != W::ZERO && !captures {
            return None;
        }
        Some(out)
    }
}

/// Where a drop may land, as cell sets (a board of at most 128 cells): the zone's empty
/// cells, with gravity those whose next cell along the fall is taken (or off the board), and
/// with `must_convert` those from which a line of convertible enemy pieces runs to one of the
/// mover's (or, for `adjacent` conversion, next to a convertible enemy piece). Each direction
/// is kept as groups of one offset each (see the module's text), so a line is followed for
/// every cell at once: the enemy pieces followed by one of the mover's, then those followed
/// by one of these, to a fixed point.
#[derive(Clone, Debug, Default)]
pub(crate) struct DropSets {
    /// The zone's cells.
    pub(crate) cells: u128,
    /// The cells a drop may land on whenever they are empty (no gravity, or nothing further
    /// along the fall).
    pub(crate) floor: u128,
    /// The other cells, by the offset of their next cell along the fall.
    pub(crate) fall: Vec<Shift>,
    /// With `must_convert`: per `bracket` direction, and per `adjacent` direction, the cells by
    /// the offset of their next cell that way.
    pub(crate) bracket: Vec<Vec<Shift>>,
    pub(crate) adjacent: Vec<Vec<Shift>>,
    /// Whether every kind converts (the enemy's pieces that convert are then its occupied
    /// cells; else they are read from a position's per-code sets, of `codes` codes).
    pub(crate) every_kind: bool,
    pub(crate) codes: usize,
    pub(crate) must_convert: bool,
}

/// A table of next cells (or [`crate::geometry::NONE`]) split into one group per offset.
fn next_groups(next: &[u16]) -> Option<Vec<Shift>> {
    let mut groups: Vec<Shift> = Vec::new();
    for (from, &to) in next.iter().enumerate().filter(|(_, t)| **t != crate::geometry::NONE) {
        let offset = to as i16 - from as i16;
        match groups.iter().position(|g| g.offset == offset) {
            Some(i) => groups[i].from |= 1u128 << from,
            None if groups.len() < MAX_GROUPS => groups.push(Shift { offset, from: 1u128 << from }),
            None => return None,
        }
    }
    Some(groups)
}

/// The cells whose next cell (by `groups`) is in `set`.
#[inline(always)]
fn before<W: Word>(groups: &[Shift], set: W) -> W {
    groups.iter().fold(W::ZERO, |out, g| out | (W::of(g.from) & set.back(g.offset)))
}

impl DropSets {
    /// The sets of a drop of a variant with `kinds` kinds on `cells` cells (`None` past 128
    /// cells, past [`MAX_GROUPS`] offsets a direction, or with a file restriction, which the
    /// sets do not hold).
    pub(crate) fn of(d: &super::DropRule, convert: Option<&super::Convert>, cells: usize, kinds: usize) -> Option<DropSets> {
        if !CellSet::fits(cells) || d.file_block.is_some() || !d.beside.is_empty() {
            return None;
        }
        let mask = d.cells.iter().copied().collect::<CellSet>().bits();
        let fall = next_groups(&d.fall)?;
        let floor = if d.fall.is_empty() { mask } else { mask & !fall.iter().fold(0, |m, g| m | g.from) };
        let (mut bracket, mut adjacent, mut every_kind) = (Vec::new(), Vec::new(), true);
        if d.must_convert {
            let cv = convert?;
            bracket = cv.bracket.iter().map(|t| next_groups(t)).collect::<Option<_>>()?;
            adjacent = cv.adjacent.iter().map(|t| next_groups(t)).collect::<Option<_>>()?;
            every_kind = (0..kinds).all(|k| cv.kinds.contains(crate::piece::KindId(k as u8)));
        }
        Some(DropSets {
            cells: mask,
            floor,
            fall,
            bracket,
            adjacent,
            every_kind,
            codes: PieceCode::count(kinds),
            must_convert: d.must_convert,
        })
    }

    /// The cells a drop that need not convert may land on, the cells in `taken` holding a
    /// piece: its zone's empty cells with nothing empty next along the fall.
    #[inline(always)]
    pub(crate) fn open(&self, taken: u128) -> u128 {
        self.open_in(taken)
    }

    /// [`DropSets::open`] in words of `W` (where the board's cells fit).
    #[inline(always)]
    pub(crate) fn open_in<W: Word>(&self, taken: W) -> W {
        W::of(self.cells) & !taken & (W::of(self.floor) | before(&self.fall, taken))
    }

    /// The cells `side` may drop on in `pos` (`None` where the convertible pieces are not all
    /// of a kind and `pos` keeps no per-code sets).
    #[inline]
    pub(crate) fn targets(&self, pos: &impl Occupancy, side: Player, convert: Option<&super::Convert>) -> Option<u128> {
        if pos.board().len() <= 64 { self.targets_in::<u64>(pos, side, convert) } else { self.targets_in::<u128>(pos, side, convert) }
    }

    #[inline(always)]
    fn targets_in<W: Word>(&self, pos: &impl Occupancy, side: Player, convert: Option<&super::Convert>) -> Option<u128> {
        let own = W::of(pos.occupied(side));
        let theirs = W::of(pos.occupied(side.other()));
        let taken = own | theirs;
        let mut out = W::of(self.cells) & !taken & (W::of(self.floor) | before(&self.fall, taken));
        if self.must_convert {
            let enemy = if self.every_kind {
                theirs
            } else {
                let kinds = convert?.kinds;
                let by_code = pos.cells_by_code();
                if by_code.len() != self.codes {
                    return None;
                }
                let mut e = W::ZERO;
                for (c, &cells) in by_code.iter().enumerate().skip(1) {
                    let code = PieceCode::from_index(c);
                    if code.owner() != side && kinds.contains(code.kind()) {
                        e = e | W::of(cells);
                    }
                }
                e
            };
            let mut converts = W::ZERO;
            for dir in &self.bracket {
                // The enemy pieces from which the line runs over enemy pieces to one of ours.
                let mut closed = before(dir, own) & enemy;
                loop {
                    let more = closed | (before(dir, closed) & enemy);
                    if more == closed {
                        break;
                    }
                    closed = more;
                }
                converts = converts | before(dir, closed);
            }
            for dir in &self.adjacent {
                converts = converts | before(dir, enemy);
            }
            out = out & converts;
        }
        Some(out.wide())
    }
}

/// Where [`Setwise::quiet_in`] puts what it counts: a total, or each piece's count at its cell.
trait Sink {
    /// One move from each cell of `from`.
    fn set<W: Word>(&mut self, from: W);
    /// `n` moves from the cell `from`.
    fn at(&mut self, from: u16, n: u64);
}

/// A total only.
struct Total(u64);

impl Sink for Total {
    #[inline(always)]
    fn set<W: Word>(&mut self, from: W) {
        self.0 += from.count() as u64;
    }
    #[inline(always)]
    fn at(&mut self, _: u16, n: u64) {
        self.0 += n;
    }
}

/// A total and each cell's share.
struct ByCell<'a> {
    n: u64,
    by_cell: &'a mut [u32],
}

impl Sink for ByCell<'_> {
    #[inline(always)]
    fn set<W: Word>(&mut self, from: W) {
        let cells = CellSet::from_bits(from.wide());
        self.n += cells.count() as u64;
        for c in cells {
            self.by_cell[c as usize] += 1;
        }
    }
    #[inline(always)]
    fn at(&mut self, from: u16, n: u64) {
        self.n += n;
        self.by_cell[from as usize] += n as u32;
    }
}

/// The moves of the leap `l` from `from` at the distance the piece there leaps: its landings
/// (as [`landings`]) and its moves off the board (`None` where a capture is not to be
/// counted).
#[inline(always)]
fn leap_landings<W: Word>(l: &LeapSets, pos: &impl Occupancy, from: usize, empty: W, victims: W, captures: bool) -> Option<u64> {
    let d = match l.distance {
        Distance::Fixed(d) => d as i32,
        Distance::Attribute(s) => {
            let view = pos.view();
            view.attrs[from * view.nattr + s as usize]
        }
    };
    if d <= 0 {
        return Some(0);
    }
    let (cells, off) = l.cells[from * l.max as usize + d.min(l.max) as usize - 1];
    Some(landings(W::of(cells), empty, victims, l.quiet, captures)? + off as u64)
}

/// The moves of one piece to the cells `to`: those empty (where it `quiet`ly lands) and those
/// of `victims`, counted only with `captures` (else `None`).
#[inline(always)]
fn landings<W: Word>(to: W, empty: W, victims: W, quiet: bool, captures: bool) -> Option<u64> {
    let taking = (to & victims).count();
    if taking > 0 && !captures {
        return None;
    }
    Some(taking as u64 + if quiet { (to & empty).count() as u64 } else { 0 })
}

/// [`cells_of`] with its last answer kept: a side's step tables mostly name one set of
/// victims, whose cells are then found once.
struct VictimCells<W> {
    set: CodeSet,
    cells: W,
}

impl<W: Word> VictimCells<W> {
    #[inline(always)]
    fn new() -> Self {
        VictimCells { set: 0, cells: W::ZERO }
    }

    #[inline(always)]
    fn of(&mut self, sets: &Sets<'_>, set: CodeSet) -> W {
        if set != self.set {
            (self.set, self.cells) = (set, cells_of(sets, set));
        }
        self.cells
    }
}

/// The cells of the pieces in `set`.
#[inline(always)]
fn cells_of<W: Word>(sets: &Sets<'_>, set: CodeSet) -> W {
    super::codes_in(set).fold(W::ZERO, |out, c| out | W::of(sets.by_code[c]))
}

#[cfg(test)]
mod tests {
    use crate::movegen;
    use crate::state::Position;
    use crate::variant::Variant;

    /// The pieces from which the piece-by-piece generator finds a capture chain.
    fn jumpers_by_list(v: &Variant, pos: &mut Position) -> u128 {
        let side = pos.side();
        let mut out = Vec::new();
        movegen::captures(&v.rules, pos.board_scratch(), side, &mut out);
        out.iter().filter(|m| m.captures() > 0).fold(0, |s, m| s | 1u128 << m.from)
    }

    /// Against the move lists, over random games: the jumpers are the pieces that have a chain,
    /// and a count, where the sets give one, is the length of the legal move list.
    #[test]
    fn sets_agree_with_the_move_lists() {
        use rand::RngExt;
        let maximum = [("capture_choice".to_string(), "maximum".to_string())];
        for (name, set) in [
            ("checkers", &[][..]),
            ("international", &[]),
            ("russian", &[]),
            ("brazilian", &[]),
            ("breakthrough", &[]),
            ("tic-tac-toe", &[]),
            ("hostile-bivouac", &[]),
            ("basileus", &[]),
            ("basileus", &maximum),
        ] {
            let v = Variant::load(name, set).unwrap();
            let sw = v.rules.setwise.as_ref().expect("a board of at most 128 cells");
            let mut rng = crate::ai::rng(11);
            let (mut counted, mut jumped, mut mobile, mut chains) = (0, 0, 0, 0);
            for _ in 0..20 {
                let mut pos = v.start();
                let mut moves = Vec::new();
                for _ in 0..150 {
                    v.legal_moves(&mut pos, &mut moves).unwrap();
                    if let Some(j) = sw.jumpers(&sw.sets(&pos).unwrap(), pos.side()) {
                        assert_eq!(j, jumpers_by_list(&v, &mut pos), "{name}: jumpers at {}", pos.to_text(&v.rules));
                        jumped += (j != 0) as u32;
                    }
                    for p in [crate::piece::Player::FIRST, crate::piece::Player::SECOND] {
                        // Every piece with a non-chaining move is a mover; in games whose codes
                        // the shifts hold whole, only those are.
                        let mut quiet = Vec::new();
                        movegen::quiet_first_parts(&v.rules, &pos, p, &mut quiet);
                        let pieces = quiet.iter().filter(|m| !matches!(m.kind, crate::notation::MoveKind::Drop { .. }));
                        let by_list = pieces.fold(0u128, |s, m| s | 1u128 << m.from);
                        let movers = sw.movers(&sw.sets(&pos).unwrap(), p);
                        assert_eq!(by_list & !movers, 0, "{name}: movers of {p:?} at {}", pos.to_text(&v.rules));
                        if matches!(name, "checkers" | "breakthrough") {
                            assert_eq!(movers, by_list, "{name}: movers of {p:?} at {}", pos.to_text(&v.rules));
                        }
                        if sw.sets(&pos).and_then(|sets| sw.jumpers(&sets, p)).is_some() {
                            let n = movegen::mobility(&v.rules, &mut pos, p, &mut Vec::new()) as u64;
                            let mut list = Vec::new();
                            movegen::captures(&v.rules, pos.board_scratch(), p, &mut list);
                            movegen::quiet_first_parts(&v.rules, &pos, p, &mut list);
                            assert_eq!(n, list.len() as u64, "{name}: mobility at {}", pos.to_text(&v.rules));
                            mobile += 1;
                        }
                    }
                    if let Some(n) = v.count_moves(&mut pos) {
                        assert_eq!(n, moves.len() as u64, "{name}: count at {}", pos.to_text(&v.rules));
                        counted += 1;
                        chains += moves.iter().any(|m| m.captures() > 0) as u32;
                    }
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    v.make(&mut pos, &m).unwrap();
                }
            }
            // Each game exercises what it can: checkers both, Breakthrough counts only (its
            // captures are steps, not jumps), tic-tac-toe neither (its moves are drops).
            match name {
                "checkers" | "russian" | "brazilian" | "international" => assert!(jumped > 0, "{name}: no position with a jump"),
                _ => {}
            }
            if matches!(name, "checkers" | "breakthrough") {
                assert!(counted > 100, "{name}: only {counted} positions counted");
                assert!(name != "checkers" || chains > 50, "{name}: only {chains} positions with captures counted");
            }
            if name == "basileus" {
                // Its chains (the longest only, with `capture_choice = "maximum"`) are counted too.
                assert!(chains > 50, "basileus {set:?}: only {chains} positions with captures counted");
                assert!(mobile > 200, "{name}: only {mobile} mobilities counted");
            }
        }
    }

    /// English draughts from the start: seven moves (Bik's count), no jumper.
    #[test]
    fn checkers_start() {
        let v = Variant::load("checkers", &[]).unwrap();
        let pos = v.start();
        let sw = v.rules.setwise.as_ref().unwrap();
        assert_eq!(sw.jumpers(&sw.sets(&pos).unwrap(), pos.side()), Some(0));
        assert_eq!(v.count_moves(&mut pos.clone()), Some(7));
        // Only the front row's four men can step.
        let g = &v.rules.geometry;
        let front = ["a3", "c3", "e3", "g3"].iter().fold(0u128, |s, c| s | 1u128 << g.parse_cell(c).unwrap().0);
        assert_eq!(sw.movers(&sw.sets(&pos).unwrap(), pos.side()), front);
    }
}
