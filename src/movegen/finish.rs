//! Closing a move list: promotion choices, the capture policy (compulsory, maximum, the same
//! capture by two routes), and duplicates.

use super::MoveList;
use super::forms::MoveOut;
use crate::cellset::CellSet;
use crate::geometry::{Geometry, NONE};
use crate::notation::{Move, MoveKind};
use crate::piece::PieceCode;
use crate::rules::{Identity, Promotion, Ruleset};
use crate::state::Position;

/// Replaces each move of `out[start..]` that promotes a piece with a choice of kinds by one
/// move per choice (`e7-e8=Q`, `e7-e8=R`, …), in the order the variant lists them.
pub(crate) fn expand_promotions(rules: &Ruleset, pos: &Position, out: &mut MoveList, start: usize) {
    let mut i = start;
    while i < out.len() {
        // (The move is read in place: most do not promote.)
        let (kind, from) = (out[i].kind, out[i].from);
        let code = if (from as usize) < pos.board().len() { pos.piece(from) } else { PieceCode::EMPTY };
        let promo = (kind == MoveKind::Normal && !code.is_empty()).then(|| rules.pieces[code.index()].promote.as_ref()).flatten();
        let Some(p) = promo.filter(|p| !p.choices.is_empty()) else {
            i += 1;
            continue;
        };
        let m = out[i];
        if !m.reaches(&rules.geometry, p) {
            i += 1;
            continue;
        }
        // In place (no list of choices built): the move becomes its first choice, the others
        // follow it.
        let offered = p.offered(&rules.geometry, m.to(), |c| pos.count_code(c));
        if offered == 0 {
            // No kind to become, and it may not stay: the move is not made.
            out.remove(i);
            continue;
        }
        let mut k = 0;
        for (n, &(c, letter)) in p.choices.iter().enumerate() {
            if offered >> n & 1 == 0 {
                continue;
            }
            let chosen = if p.stay == Some(n as u8) { m.stay_as(c, letter) } else { m.promote_to(c, letter) };
            if k == 0 {
                out[i] = chosen;
            } else {
                out.insert(i + k, chosen);
            }
            k += 1;
        }
        i += k;
    }
}

/// A piece's moves counted apart as the legal list holds them, a move that promotes with a
/// choice of kinds once per choice ([`expand_promotions`]): those that capture and the others.
pub(super) struct PromotionSplit<'a> {
    pub(super) g: &'a Geometry,
    pub(super) pos: &'a Position,
    pub(super) promotion: &'a Promotion,
    pub(super) quiet: u64,
    pub(super) captures: u64,
}

impl MoveOut for PromotionSplit<'_> {
    #[inline]
    fn push(&mut self, m: Move) {
        let n = if m.reaches(self.g, self.promotion) {
            u64::from(self.promotion.offered(self.g, m.to(), |c| self.pos.count_code(c)).count_ones())
        } else {
            1
        };
        if m.is_capture() {
            self.captures += n;
        } else {
            self.quiet += n;
        }
    }
}

/// Removes moves with the same text, keeping the first.
pub(crate) fn dedup(moves: &mut MoveList) {
    let mut i = 0;
    while i < moves.len() {
        if moves[..i].contains(&moves[i]) {
            moves.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Keeps the moves of `out[start..]` for which `keep` holds, in order.
pub(super) fn retain_from(out: &mut MoveList, start: usize, keep: impl Fn(&Move) -> bool) {
    let mut w = start;
    for r in start..out.len() {
        if keep(&out[r]) {
            out[w] = out[r];
            w += 1;
        }
    }
    out.truncate(w);
}

/// Applies the capture policy (compulsory, maximum) and deduplication to `out[start..]`.
pub(crate) fn finish(rules: &Ruleset, out: &mut MoveList, start: usize) {
    apply_policy(rules.captures.compulsory, rules.captures.maximum, out, start);
    if rules.dedup {
        dedup_from(out, start);
    }
    if rules.captures.identity == Identity::CapturedSet {
        merge_same_captures(out, start);
    }
}

/// Keeps of `out[start..]` what a capture policy allows: only captures where one is
/// `compulsory` and there is a capture; only the captures that take the most under `maximum`
/// (with the moves that capture nothing too, unless compulsory).
pub(crate) fn apply_policy(compulsory: bool, maximum: bool, out: &mut MoveList, start: usize) {
    // (Without `maximum`, only whether there is a capture matters.)
    let best = match (compulsory, maximum) {
        (_, true) => out[start..].iter().map(Move::captures).max().unwrap_or(0),
        (true, false) => usize::from(out[start..].iter().any(Move::is_capture)),
        (false, false) => 0,
    };
    if best > 0 {
        if maximum {
            retain_from(out, start, |m| if compulsory { m.captures() == best } else { !m.is_capture() || m.captures() == best });
        } else {
            retain_from(out, start, Move::is_capture);
        }
    }
}

/// The policy [`crate::rules::Ruleset::late_policy`] keeps for the legal moves, applied to
/// `out[start..]` after the check test (nothing where the rules have none).
pub(crate) fn late_policy(rules: &Ruleset, out: &mut MoveList, start: usize) {
    if let Some(p) = rules.late_policy {
        apply_policy(p.compulsory, p.maximum, out, start);
    }
}

/// Whether two moves are the same capture under `identity = "captured_set"`: the same start,
/// the same end and the same set of captured pieces (in any order, along any path).
pub(crate) fn same_capture(a: &Move, b: &Move) -> bool {
    if a.from != b.from || a.to() != b.to() || a.kind != b.kind || a.captures() != b.captures() {
        return false;
    }
    let mut va: Vec<u16> = a.victims().collect();
    let mut vb: Vec<u16> = b.victims().collect();
    va.sort_unstable();
    vb.sort_unstable();
    va == vb
}

/// Merges the captures of `out[start..]` that are one move under `identity = "captured_set"`
/// (see [`same_capture`]), keeping of each group the one whose landings come first in cell
/// order (compared landing by landing; cells are numbered by rank from the first, then by
/// file), in the place of the group's first.
///
/// Only chains of two captures or more can have a twin, and such lists are short: a pairwise
/// comparison costs nothing next to building the chains.
pub(crate) fn merge_same_captures(out: &mut MoveList, start: usize) {
    let mut w = start;
    for r in start..out.len() {
        let m = out[r];
        if m.captures() >= 2
            && let Some(k) = (start..w).find(|&k| same_capture(&out[k], &m))
        {
            if m.landings() < out[k].landings() {
                out[k] = m;
            }
            continue;
        }
        out[w] = m;
        w += 1;
    }
    out.truncate(w);
}

/// Removes moves of `out[start..]` whose text an earlier one there has.
///
/// Simple moves (one landing, on a board of at most 128 cells, capturing nothing or what stands
/// there) are told apart by their start and landing alone. A piece's moves come together, so
/// while the simple moves keep one start cell that no earlier run of them had, two bit sets of
/// landings find their twins at once; everything else is compared with the moves kept. A piece
/// with many overlapping slides (Bivouac's runs) costs a pass, not a square.
pub(super) fn dedup_from(out: &mut MoveList, start: usize) {
    let (mut run, mut fresh) = (NONE, false);
    let (mut quiet, mut replace, mut runs) = (CellSet::EMPTY, CellSet::EMPTY, CellSet::EMPTY);
    let mut w = start;
    for r in start..out.len() {
        let m = out[r];
        let (to, v) = m.single().unwrap_or((NONE, NONE));
        let simple =
            m.kind == MoveKind::Normal && m.len == 1 && CellSet::can_hold(to) && CellSet::can_hold(m.from) && (v == NONE || v == to);
        if simple && m.from != run {
            (run, quiet, replace) = (m.from, CellSet::EMPTY, CellSet::EMPTY);
            fresh = !runs.contains(m.from);
            runs.insert(m.from);
        }
        let twin = if simple && fresh {
            let set = if v == NONE { &mut quiet } else { &mut replace };
            let had = set.contains(to);
            set.insert(to);
            had
        } else {
            out[start..w].contains(&m)
        };
        if !twin {
            out[w] = m;
            w += 1;
        }
    }
    out.truncate(w);
}
