//! Playing a loaded variant: legal moves with hooks, make, end conditions, results, finding
//! the move a text names, and why a move is illegal.

use super::Variant;
use crate::attack::{self, Known};
use crate::cellset::CellSet;
use crate::explain::{IllegalReason, Lists, explain};
use crate::geometry::NONE;
use crate::movegen::{self, MoveList};
use crate::notation::{Move, MoveKind, MoveText, NotationError};
use crate::outcome::Outcome;
use crate::piece::{ByPlayer, PieceCode, Player};
use crate::rules::attacks::Among;
use crate::rules::{AfterMove, CodeSet, EndChecks, EndKind, EndRule, Hook, HookFilter, Identity, KindSet, MoveEffects, NoMoves, Phase};
use crate::script::ScriptError;
use crate::script::api::HookMove;
use crate::state::Position;

/// What [`Variant::royal_hint`] reads of the pieces before it asks the attack tables.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RoyalCells {
    /// The mover's one royal piece.
    king: u16,
    /// The cells of the mover's pieces that may leave the board.
    exits: u128,
    /// Whether the opponent has a piece the tables call complex, or indirect.
    complex: bool,
    indirect: bool,
    /// The cells of the opponent's sliders.
    sliders: u128,
}

/// What the check test of each move in a list can reuse: the mover's one royal piece's cell
/// before the move, and whether the opponent has pieces the reverse tables do not cover.
#[derive(Clone, Copy)]
struct RoyalHint {
    king: u16,
    complex: bool,
    /// The cells of the opponent's pieces and of its plain sliders (see
    /// [`crate::rules::attacks::Attacks::sliders`]); no move of the mover adds one.
    among: Among,
    /// Where nothing can put the royal piece in check but its own moves (it is not attacked
    /// now; no enemy piece escapes the reverse tables or captures over a hurdle or leg, see
    /// [`crate::rules::attacks::Attacks::indirect`]; no crown changes a kind): the cells of the
    /// mover's pieces whose plain moves certainly leave it safe, that is all but the royal
    /// piece, those that shield it from a slider ([`crate::rules::attacks::Attacks::pinned`])
    /// and those that may leave the board. Otherwise `None`: every move is tested. See
    /// [`Variant::safe_without_test`].
    free: Option<u128>,
}

/// What the rules' filters read of a position once for all its moves (the check test's
/// [`RoyalHint`], whether the player is in check), kept while moves of one position are judged
/// one at a time ([`Variant::legal_alone`]); empty until a filter asks.
#[derive(Default)]
pub(crate) struct Judged {
    hint: Option<Option<RoyalHint>>,
    in_check: Option<bool>,
}

/// Why a move could not be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlayError {
    /// The text is not a move of this board.
    #[error(transparent)]
    Unreadable(#[from] NotationError),
    /// The move is not legal here, and why.
    #[error(transparent)]
    Illegal(#[from] IllegalReason),
    #[error(transparent)]
    Script(#[from] ScriptError),
}

/// A move of a list that could not be played: its number from 1, its text, and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("move {number} ({}): {error}", crate::files::quote(.text))]
pub struct MoveListError {
    pub(crate) number: usize,
    pub(crate) text: String,
    pub(crate) error: PlayError,
}

impl Variant {
    fn hook_applies(&self, f: &HookFilter, pos: &Position, mv: &Move) -> bool {
        // A drop is filtered by the kind it places; it moves no piece forward.
        let code = match mv.dropped() {
            Some(c) => c,
            None if mv.kind == MoveKind::Pass || mv.from == NONE => return f.is_always(),
            None => pos.board()[mv.from as usize],
        };
        if code.is_empty() {
            return false;
        }
        f.kinds.contains(code.kind())
            && (!f.captures_only || mv.is_capture())
            && (!f.forward_only
                || mv.from != NONE && {
                    let g = &self.rules.geometry;
                    mv.to().is_some_and(|t| {
                        let r0 = g.coords(crate::geometry::Cell(mv.from)).1 as i32;
                        let r1 = g.coords(crate::geometry::Cell(t)).1 as i32;
                        (r1 - r0) * self.rules.forward[code.owner()] as i32 > 0
                    })
                })
            && f.near.as_ref().is_none_or(|n| {
                let Some(to) = mv.to() else { return false };
                let enemy = code.owner().other();
                let is_enemy = |c: &u16| {
                    let x = pos.board()[*c as usize];
                    !x.is_empty() && x.owner() == enemy
                };
                n.adjacent.get(to).iter().any(is_enemy) || n.file.as_ref().is_some_and(|t| t.get(to).iter().any(is_enemy))
            })
            && f.to.as_ref().is_none_or(|z| mv.to().is_some_and(|t| self.rules.geometry.zones_of(t).meets(z[code.owner()])))
            && f.counter.is_none_or(|(slot, min, max)| (min..=max).contains(&pos.counter(code.owner(), slot)))
    }

    /// Whether playing `mv` in `pos` calls the `after_move` hook (for `trace`).
    pub(crate) fn after_move_runs(&self, pos: &Position, mv: &Move) -> bool {
        let listed = pos.continuation().is_some_and(|c| c.moves.contains(mv));
        self.hook(Hook::AfterMove).is_some_and(|f| listed || self.hook_applies(f, pos, mv))
    }

    /// The legal moves of `pos` (empty when the game is over).
    ///
    /// # Errors
    /// A script hook failed.
    pub fn legal_moves(&self, pos: &mut Position, out: &mut MoveList) -> Result<(), ScriptError> {
        self.legal_moves_and_mobility(pos, out).map(drop)
    }

    /// [`Variant::legal_moves`], and where the list was built from every move the kernel's
    /// forms make for the player to move, how many those were: what the evaluation's mobility
    /// counts for that player ([`movegen::mobility`]), known before castling, promotion
    /// choices and the check and drop-mate tests changed the list. `None` where a hook, a
    /// duplicate form, a second part or merged chains shape the moves, where the turn continues
    /// a capture, or where the capture policy removed some (a list with a capture under a
    /// compulsory policy, any capture under a maximal one).
    pub(crate) fn legal_moves_and_mobility(&self, pos: &mut Position, out: &mut MoveList) -> Result<Option<usize>, ScriptError> {
        out.clear();
        if pos.result().is_some() {
            return Ok(None);
        }
        if let Some(c) = pos.continuation() {
            out.extend_from_slice(&c.moves);
            if !c.normal {
                return Ok(None);
            }
        }
        let start = out.len();
        let mobility = self.unfiltered(pos, out, start)?;
        self.apply_filters(pos, out, start, None)?;
        movegen::late_policy(&self.rules, out, start);
        if pos.continuation().is_some() && start > 0 {
            movegen::dedup(out);
        }
        if out.is_empty()
            && let Some((_, NoMoves::Pass)) = self.no_moves_rule_at(pos)
            && (self.rules.both_pass_rule().is_none()
                || pos.continuation().is_some()
                || self.rules.passes_played()
                || self.other_can_move(pos)?)
        {
            out.push(Move::PASS);
        }
        Ok(mobility)
    }

    /// The moves of the side to move before the rules' filters, appended to `out` from
    /// `start` (after a continuation's): the kernel's (or the hooks') moves, castling, the
    /// promotion choices, gatings, a pass the rules allow at any turn and the pie rule's swap;
    /// and the mobility [`Variant::legal_moves_and_mobility`] returns.
    fn unfiltered(&self, pos: &mut Position, out: &mut MoveList, start: usize) -> Result<Option<usize>, ScriptError> {
        let mobility = if self.plan.kernel_lists {
            movegen::normal_moves(&self.rules, pos, out);
            let pol = &self.rules.captures;
            let kernel = &out[start..];
            (self.plan.kernel_moves_listed
                && pos.continuation().is_none()
                && match (pol.compulsory, pol.maximum) {
                    (false, false) => true,
                    // Under a compulsory policy a list with a capture holds only captures.
                    (true, _) => kernel.first().is_none_or(|m| !m.is_capture()),
                    (false, true) => !kernel.iter().any(Move::is_capture),
                })
            .then_some(kernel.len())
        } else {
            // Castling included: `allow_move` is asked about it as about any move.
            self.filtered_moves(pos, out, &mut Vec::new())?;
            None
        };
        // (The hooks' list has castling and the promotion choices already.)
        if self.plan.kernel_lists {
            movegen::castlings(&self.rules, pos, out);
            // (The plan's gate: where every piece that promotes so stands out of a move's reach
            // of its zone, no move is read; the reference mode reads them all.)
            if self.rules.promotion_choices && self.plan.may_promote(pos.cells_by_code()) {
                movegen::expand_promotions(&self.rules, pos, out, start);
            }
            movegen::gatings(&self.rules, pos, out, start);
        }
        // A pass at any turn, tested by the check rule like any move.
        if self.rules.may_pass && pos.continuation().is_none() {
            out.push(Move::PASS);
        }
        // The pie rule's swap, on the second player's first move.
        if pos.swap_open(&self.rules) {
            out.push(Move::SWAP);
        }
        Ok(mobility)
    }

    /// The legal moves that `keep` keeps, in [`Variant::legal_moves`]' order, with `keep`
    /// asked before the rules' filters (which judge each move alone), so that a move it drops
    /// is never tested: a quiescence search's captures in Go without the superko test of every
    /// placement. Only where the plan says a move always exists
    /// ([`crate::plan::Plan::always_moves`]: then no rule reads the whole list) and the
    /// position has no continuation; elsewhere `keep` is asked of the legal list.
    pub(crate) fn legal_moves_kept(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        keep: &mut dyn FnMut(&mut Position, &Move) -> bool,
    ) -> Result<(), ScriptError> {
        let early = self.plan.always_moves && pos.continuation().is_none() && pos.result().is_none();
        if early {
            out.clear();
            self.unfiltered(pos, out, 0)?;
        } else {
            self.legal_moves(pos, out)?;
        }
        keep_moves(pos, out, keep, None);
        if early {
            self.apply_filters(pos, out, 0, None)?;
        }
        Ok(())
    }

    /// Where the plan says every rule judges a move alone ([`crate::plan::Plan::judged_alone`])
    /// and the position has no continuation or result: the legal moves `keep` keeps, in
    /// [`Variant::legal_moves`]' order, each tested by the rules' filters only if kept, and
    /// whether the player has a legal move at all (the moves dropped are tested a few at a
    /// time until one passes); with the mobility [`Variant::legal_moves_and_mobility`] would
    /// return. `None` elsewhere, and where no move is legal (then the caller lists them: the
    /// rule for a player without moves reads the empty list). What a quiescence search asks
    /// where a player may have no move: the captures, and whether it is mated or stalemated.
    /// `rest` is overwritten.
    pub(crate) fn legal_kept_and_any(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        rest: &mut MoveList,
        keep: &mut dyn FnMut(&mut Position, &Move) -> bool,
    ) -> Result<Option<Option<usize>>, ScriptError> {
        if !self.plan.judged_alone || pos.continuation().is_some() || pos.result().is_some() {
            return Ok(None);
        }
        out.clear();
        rest.clear();
        let mobility = self.unfiltered(pos, out, 0)?;
        keep_moves(pos, out, keep, Some(rest));
        let mut judged = Judged::default();
        self.apply_filters_judged(pos, out, 0, None, &mut judged)?;
        if !out.is_empty() {
            return Ok(Some(mobility));
        }
        // A few at a time: the first is legal in most positions.
        let mut from = 0;
        while from < rest.len() {
            let to = (from + 4).min(rest.len());
            let start = out.len();
            out.extend_from_slice(&rest[from..to]);
            self.apply_filters_judged(pos, out, start, None, &mut judged)?;
            if !out.is_empty() {
                out.clear();
                return Ok(Some(mobility));
            }
            from = to;
        }
        Ok(None)
    }

    /// The moves of `pos` before the rules' filters, in the legal list's order, where the plan
    /// says each is judged alone ([`crate::plan::Plan::judged_alone`]) and the position has no
    /// continuation or result: the legal list is then the moves of this one that
    /// [`Variant::legal_alone`] keeps, unless it keeps none (a rule may give a player without a
    /// move a pass). `false` elsewhere (`out` untouched).
    pub(crate) fn unfiltered_moves(&self, pos: &mut Position, out: &mut MoveList) -> Result<bool, ScriptError> {
        if !self.plan.judged_alone || pos.continuation().is_some() || pos.result().is_some() {
            return Ok(false);
        }
        out.clear();
        self.unfiltered(pos, out, 0)?;
        Ok(true)
    }

    /// Whether the rules' filters keep `m`, a move of [`Variant::unfiltered_moves`]' list of
    /// `pos`: whether it is legal. `judged` keeps what the filters read of `pos` for its next
    /// moves (one per position); `scratch` is overwritten.
    pub(crate) fn legal_alone(
        &self,
        pos: &mut Position,
        m: &Move,
        judged: &mut Judged,
        scratch: &mut MoveList,
    ) -> Result<bool, ScriptError> {
        scratch.clear();
        scratch.push(*m);
        self.apply_filters_judged(pos, scratch, 0, None, judged)?;
        Ok(!scratch.is_empty())
    }

    /// The number of legal moves here, where the cell sets can count them without a list
    /// (`None`: [`Variant::legal_moves`] must list them; see [`crate::rules::setwise`]). What
    /// perft's last level asks.
    #[inline]
    pub(crate) fn count_moves(&self, pos: &mut Position) -> Option<u64> {
        movegen::count_moves(&self.rules, &self.plan, pos)
    }

    /// Counts the legal moves into `c` where [`Variant::nth_move`] can then find any of them
    /// without the list (`false`: list them; see [`movegen::count_to_pick`]), where the plan
    /// allows ([`crate::plan::Plan::counts_moves`]: no hook or rule adds or refuses moves).
    #[inline]
    pub(crate) fn count_to_pick(&self, pos: &mut Position, c: &mut movegen::Counted) -> bool {
        movegen::count_to_pick(&self.rules, &self.plan, pos, c)
    }

    /// The move at `index` (below `c.n`) of [`Variant::legal_moves`]' list, as
    /// [`Variant::count_to_pick`] counted it: the same move the list holds there. `scratch` is
    /// overwritten.
    #[inline]
    pub(crate) fn nth_move(&self, pos: &mut Position, c: &movegen::Counted, index: u64, scratch: &mut MoveList) -> Move {
        movegen::nth_move(&self.rules, pos, c, index, scratch)
    }

    /// [`Variant::lists_every_kernel_move`] for a list known by its count
    /// ([`Variant::count_to_pick`]).
    pub(crate) fn counts_every_kernel_move(&self, c: &movegen::Counted) -> bool {
        self.plan.lists_kernel_moves && !c.only_captures(&self.rules)
    }

    /// Whether `moves`, the legal moves of `pos` as [`Variant::legal_moves`] lists them, are
    /// every move the kernel's forms make for the player to move, whatever the capture policy:
    /// what the evaluation's mobility counts for that player ([`movegen::mobility`]), so that a
    /// caller holding the list need not count them again. No hook, duplicate form, check or
    /// drop-mate rule, castling, promotion choice, second part or merged chain changes the
    /// list, and either the policy keeps every move or the list has no capture (then the
    /// policy removed nothing).
    #[cfg(test)]
    pub(crate) fn lists_every_kernel_move(&self, pos: &Position, moves: &[Move]) -> bool {
        let pol = &self.rules.captures;
        self.plan.lists_kernel_moves
            && pos.continuation().is_none()
            && pos.result().is_none()
            && moves.first().is_some_and(|m| *m != Move::PASS)
            // Under a compulsory policy a list with a capture holds only captures.
            && match (pol.compulsory, pol.maximum) {
                (false, false) => true,
                (true, _) => !moves[0].is_capture(),
                (false, true) => !moves.iter().any(Move::is_capture),
            }
    }

    /// The rules' filters on `out[start..]`, in the legal list's order (the one place that
    /// order is written; `why` runs them on the moves a text names, with `refused` hearing
    /// each refusal): the check test, no check given, no mating drop, the facing royals, the
    /// forms barred in check.
    fn apply_filters(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        start: usize,
        refused: Option<&mut Vec<(Move, String)>>,
    ) -> Result<(), ScriptError> {
        self.apply_filters_judged(pos, out, start, refused, &mut Judged::default())
    }

    /// [`Variant::apply_filters`], with what they read of `pos` kept in `judged` (for the
    /// next moves of the same position).
    fn apply_filters_judged(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        start: usize,
        mut refused: Option<&mut Vec<(Move, String)>>,
        judged: &mut Judged,
    ) -> Result<(), ScriptError> {
        let r = &self.rules;
        if r.check_illegal {
            self.remove_checks(pos, out, start, refused.as_deref_mut(), judged)?;
        }
        if r.no_giving_check {
            self.remove_giving_checks(pos, out, start, refused.as_deref_mut())?;
        }
        if r.drop_no_mate {
            self.remove_drop_mates(pos, out, start, refused.as_deref_mut())?;
        }
        if r.facing {
            self.remove_unbroken_facing(pos, out, start, refused.as_deref_mut())?;
        }
        if r.go.ko != crate::rules::groups::Ko::None {
            self.remove_ko(pos, out, start, refused.as_deref_mut())?;
        }
        if r.calm_forms {
            self.remove_calm_in_check(pos, out, start, refused, judged);
        }
        Ok(())
    }

    /// `[rules] check = "illegal"`: removes from `out[start..]` each move after which the
    /// opponent, deciding next, could capture one of the mover's royal pieces; `refused` hears
    /// why (the attacker, for `why`). A move that wins the game outright stays; so does one
    /// after which the mover decides again (the test waits for the end of the turn).
    fn remove_checks(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        start: usize,
        refused: Option<&mut Vec<(Move, String)>>,
        judged: &mut Judged,
    ) -> Result<(), ScriptError> {
        let me = pos.side();
        let hint = *judged.hint.get_or_insert_with(|| self.royal_hint(pos, me));
        let free = hint.and_then(|h| h.free);
        // The moves safe on sight are kept without a test.
        keep_unrefused(out, start, refused, |m, words| {
            if free.is_some_and(|f| Self::safe_among(m, f)) {
                return Ok(None);
            }
            // A gated piece does not shield its own king: the move is judged without it.
            let attack = self.check_after_with(pos, &m.without_gate(), me, hint)?;
            Ok(attack.map(|a| if words { self.gated_check_words(pos, m, a) } else { String::new() }))
        })
    }

    /// Why a move leaves the mover in check (`a`: the royal cell hit and the attacker's), and
    /// where it gates a piece, that the piece does not shield the king.
    fn gated_check_words(&self, pos: &mut Position, m: &Move, a: (u16, u16)) -> String {
        let mut words = self.check_words(pos, m.without_gate(), a);
        if let Some((code, at, _)) = m.gated() {
            let g = &self.rules.geometry;
            let kind = &self.rules.kind(code.kind()).name;
            words.push_str(&format!(" (a {kind} gated on {} does not shield it)", g.name(crate::geometry::Cell(at))));
        }
        words
    }

    /// `[rules] give_check = false`: removes from `out[start..]` each move after which the
    /// opponent, deciding next, is in check; `refused` hears why. (While the mover decides
    /// again, the test waits for the end of the turn.)
    fn remove_giving_checks(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        start: usize,
        refused: Option<&mut Vec<(Move, String)>>,
    ) -> Result<(), ScriptError> {
        let me = pos.side();
        keep_unrefused(out, start, refused, |m, _| {
            self.make(pos, m)?;
            let gives = pos.side() != me && self.in_check(pos);
            pos.undo();
            Ok(gives.then(|| "it gives check, and these rules forbid giving check".to_string()))
        })
    }

    /// An end `facing`: while the royal pieces face each other, removes from `out[start..]`
    /// each move but a pass after which they still do (`refused` hears why), and lists the pass
    /// even in check (the check rule refused it).
    pub(super) fn remove_unbroken_facing(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        start: usize,
        refused: Option<&mut Vec<(Move, String)>>,
    ) -> Result<(), ScriptError> {
        if pos.continuation().is_some() || !self.royals_facing(pos) {
            return Ok(());
        }
        keep_unrefused(out, start, refused, |m, _| {
            if *m == Move::PASS {
                return Ok(None);
            }
            self.make(pos, m)?;
            let still = self.royals_facing(pos);
            pos.undo();
            Ok(still.then(|| {
                let royal = self.rules.kinds.iter().find(|k| k.royal).map_or("royal piece", |k| k.name.as_str());
                format!("the {royal}s still face each other after it, with nothing between: while they do, a move must part them, or the player passes")
            }))
        })?;
        if !out[start..].contains(&Move::PASS) {
            out.push(Move::PASS);
        }
        Ok(())
    }

    /// `not_in_check` forms: while the player to move is in check, removes from `out[start..]`
    /// each move that only such a form of its piece makes (`refused` hears why).
    pub(super) fn remove_calm_in_check(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        start: usize,
        refused: Option<&mut Vec<(Move, String)>>,
        judged: &mut Judged,
    ) {
        if pos.continuation().is_some() || !*judged.in_check.get_or_insert_with(|| self.in_check(pos)) {
            return;
        }
        let rules = &*self.rules;
        let counts = pos.counts();
        let mut made = Vec::new();
        let kept = keep_unrefused(out, start, refused, |m, _| {
            let (code, to) = (pos.board()[m.from as usize], m.to());
            if m.dropped().is_some() || *m == Move::PASS || code.is_empty() || !rules.pieces[code.index()].calm.contains(&true) {
                return Ok(None);
            }
            let pr = &rules.pieces[code.index()];
            made.clear();
            for ((form, &limit), &calm) in pr.quiet.iter().zip(&pr.limits).zip(&pr.calm) {
                if !calm && counts[code.owner()] <= limit as u32 {
                    form.generate(&rules.geometry, pos.view(), m.from, crate::geometry::ZoneSet::EMPTY, &mut made);
                }
            }
            if made.iter().any(|x| x.to() == to) || (m.is_capture() && !pr.jumps.is_empty()) {
                return Ok(None);
            }
            Ok(Some(format!("a {} may not move so while in check", rules.kind(code.kind()).name)))
        });
        debug_assert!(kept.is_ok(), "the test runs no script");
    }

    /// Whether a royal piece of each player stands on one file or rank with nothing between
    /// them (an end `facing`).
    pub(crate) fn royals_facing(&self, pos: &Position) -> bool {
        let (g, board) = (&self.rules.geometry, pos.board());
        let theirs: Vec<u16> = self.royal_cells(pos, Player::SECOND).collect();
        self.royal_cells(pos, Player::FIRST).any(|a| {
            let (fa, ra) = g.coords(crate::geometry::Cell(a));
            theirs.iter().any(|&b| {
                let (fb, rb) = g.coords(crate::geometry::Cell(b));
                if fa != fb && ra != rb {
                    return false;
                }
                let (df, dr) = ((fb as i32 - fa as i32).signum(), (rb as i32 - ra as i32).signum());
                let (mut f, mut r) = (fa as i32 + df, ra as i32 + dr);
                while (f, r) != (fb as i32, rb as i32) {
                    if g.at(f, r).is_none_or(|c| !board[c.0 as usize].is_empty()) {
                        return false;
                    }
                    (f, r) = (f + df, r + dr);
                }
                true
            })
        })
    }

    /// `no_mate` drops: removes from `out[start..]` each drop of such a kind after which the
    /// opponent is checkmated (in check with no legal move); `refused` hears why.
    fn remove_drop_mates(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        start: usize,
        refused: Option<&mut Vec<(Move, String)>>,
    ) -> Result<(), ScriptError> {
        keep_unrefused(out, start, refused, |m, _| {
            let guarded = m.dropped().is_some_and(|c| self.rules.pieces[c.index()].drop.as_ref().is_some_and(|d| d.no_mate));
            if !guarded || self.drop_gives_no_check(pos, m) {
                return Ok(None);
            }
            self.make(pos, m)?;
            let mates = self.checkmated(pos);
            pos.undo();
            let kind = &self.rules.kind(m.dropped().map_or(crate::piece::KindId(0), |c| c.kind())).name;
            Ok(mates?.then(|| format!("a {kind} may not be dropped to give checkmate")))
        })
    }

    /// Whether the drop `m` certainly does not check the opponent (so cannot mate), told on the
    /// board alone: the piece changes no other cell ([`crate::plan::Plan::board_only`]), the opponent has
    /// one royal piece, every piece of the mover is one the attack tables hold, and with the
    /// piece put down none attacks the royal piece. A drop only fills a cell, so it opens no
    /// line; it may close one, or be a hurdle, which the query sees. `false`: play it to know.
    fn drop_gives_no_check(&self, pos: &mut Position, m: &Move) -> bool {
        let rules = &*self.rules;
        let (MoveKind::Drop { code, .. }, Some(to)) = (m.kind, m.to()) else { return false };
        if rules.attack_reach.is_empty() || self.plan.board_only >> code.index() & 1 == 0 || rules.attacks.complex >> code.index() & 1 != 0
        {
            return false;
        }
        let (me, board) = (pos.side(), pos.board());
        for c in CellSet::from_bits(pos.occupied(me)) {
            if rules.attacks.complex >> board[c as usize].index() & 1 != 0 {
                return false;
            }
        }
        let royal = rules.royal_codes[me.other()];
        let mut king = None;
        for c in CellSet::from_bits(pos.occupied(me.other())) {
            if royal >> board[c as usize].index() & 1 != 0 {
                if king.is_some() {
                    return false;
                }
                king = Some(c);
            }
        }
        let Some(king) = king else { return false };
        let board = pos.board_scratch();
        let there = board[to as usize];
        board[to as usize] = code;
        // (The attack query's table half is its whole answer: the mover has no complex piece.)
        let attacked = rules.attacks.attacker_among(&rules.geometry, board, king, board[king as usize], Among::ANY).is_some();
        board[to as usize] = there;
        !attacked
    }

    /// Whether `m` by `me` leaves a royal piece of `me` attacked: the royal piece's cell and its
    /// attacker's, after the move.
    fn check_after(&self, pos: &mut Position, m: &Move, me: Player) -> Result<Option<(u16, u16)>, ScriptError> {
        self.check_after_with(pos, m, me, None)
    }

    /// Where `me`'s one royal piece stands, and whether the opponent has pieces the reverse
    /// attack tables do not cover (`None`: not one royal piece, or no tables): what the check
    /// test of each move in a list can reuse.
    fn royal_hint(&self, pos: &Position, me: Player) -> Option<RoyalHint> {
        let rules = &*self.rules;
        if rules.attack_reach.is_empty() {
            return None;
        }
        // The tables are kept for boards of at most 128 cells, whose pieces the occupied sets hold.
        let RoyalCells { king, exits, complex, indirect, sliders } =
            if pos.cells_by_code().is_empty() { self.royal_cells_by_scan(pos, me)? } else { self.royal_cells_by_sets(pos, me)? };
        let among = Among { pieces: pos.occupied(me.other()), sliders };
        // (Where the opponent has a complex piece, the king counts as attacked: no move is safe on sight.)
        let in_check = complex || attack::attacker_known(rules, pos.view(), me.other(), king, Known { among, complex }).is_some();
        let (g, board, victim) = (&rules.geometry, pos.board(), pos.board()[king as usize]);
        let pinned = if in_check { 0 } else { rules.attacks.pinned(g, board, king, victim, sliders) };
        // (An explosion empties cells around a capture's landing: no move is safe on sight.)
        let quiet = !(in_check || complex || indirect || rules.crown.is_some() || rules.captures.explode.is_some());
        let free = quiet.then(|| pos.occupied(me) & !(1 << king) & !pinned & !exits);
        Some(RoyalHint { king, complex, among, free })
    }

    /// [`Variant::royal_cells_by_scan`], where the position keeps the cells of each code: the
    /// sets of the codes asked about are joined.
    fn royal_cells_by_sets(&self, pos: &Position, me: Player) -> Option<RoyalCells> {
        let (rules, by_code) = (&*self.rules, pos.cells_by_code());
        let cells = |codes: CodeSet| crate::rules::codes_in(codes).fold(0u128, |cells, c| cells | by_code[c]);
        let royal = CellSet::from_bits(cells(rules.royal_codes[me]));
        if royal.count() != 1 {
            return None;
        }
        let theirs = self.plan.codes_of[me.other()];
        let (complex, indirect) = (cells(rules.attacks.complex & theirs) != 0, cells(rules.attacks.indirect & theirs) != 0);
        Some(RoyalCells {
            king: royal.first()?,
            exits: cells(self.plan.exit_codes & self.plan.codes_of[me]),
            complex,
            indirect,
            sliders: cells(rules.attacks.sliders & theirs),
        })
    }

    /// The [`RoyalCells`] of `me` read on the board, where the position keeps no cell set per
    /// code (`None` unless `me` has exactly one royal piece).
    fn royal_cells_by_scan(&self, pos: &Position, me: Player) -> Option<RoyalCells> {
        let rules = &*self.rules;
        let (mut king, mut n, mut complex, mut indirect) = (NONE, 0, false, false);
        let board = pos.board();
        let mut exits = 0u128;
        for c in CellSet::from_bits(pos.occupied(me)) {
            let code = board[c as usize];
            if rules.royal_codes[me] & (1u128 << code.index()) != 0 {
                (king, n) = (c, n + 1);
            }
            if self.plan.exit_codes >> code.index() & 1 != 0 {
                exits |= 1 << c;
            }
        }
        if n != 1 {
            return None;
        }
        let mut sliders = 0u128;
        for c in CellSet::from_bits(pos.occupied(me.other())) {
            let code = 1u128 << board[c as usize].index();
            complex |= rules.attacks.complex & code != 0;
            indirect |= rules.attacks.indirect & code != 0;
            if rules.attacks.sliders & code != 0 {
                sliders |= 1 << c;
            }
        }
        Some(RoyalCells { king, exits, complex, indirect, sliders })
    }

    /// Whether `m` certainly leaves `me`'s royal piece safe without playing it: the piece is not
    /// attacked now, no enemy piece escapes the reverse tables, and the move is a drop, or is
    /// not the royal piece's own, empties no cell but its start (what it captures stands on its
    /// landing, and it stays there), and starts on no pinned piece and on none that may leave
    /// the board: then no line to the royal piece opens (`h.free`).
    #[inline]
    fn safe_without_test(m: &Move, h: &RoyalHint) -> bool {
        h.free.is_some_and(|free| Self::safe_among(m, free))
    }

    /// [`Variant::safe_without_test`] with the hint's `free` cells.
    #[inline(always)]
    fn safe_among(m: &Move, free: u128) -> bool {
        match m.kind {
            MoveKind::Drop { .. } => true,
            MoveKind::Normal | MoveKind::Promote { .. } | MoveKind::Then { .. } => {
                CellSet::from_bits(free).contains(m.from)
                    && match m.single() {
                        Some((to, v)) => v == NONE || v == to,
                        // A chain: its landings are in the table.
                        None => m.to().is_some_and(|to| m.victim_slots().iter().all(|&v| v == NONE || v == to)),
                    }
            }
            _ => false,
        }
    }

    /// The check test of a plain move played on the board alone (`None` where the move is not
    /// one): a one-landing move or drop of a [`crate::plan::Plan::board_only`] code that takes nothing or
    /// only what stands on its landing changes no other cell, and the attack tables read
    /// nothing but the board, so the piece is lifted (unless dropped) and put down (as what it
    /// is promoted to, unless that is royal), the royal piece's cell looked at, and both cells
    /// put back, without the make's hash, log and counters.
    #[inline]
    fn check_on_board(&self, pos: &mut Position, m: &Move, h: &RoyalHint) -> Option<Option<(u16, u16)>> {
        // One landing, held in the move itself.
        let (to, victim) = m.single()?;
        let landed = match m.kind {
            MoveKind::Normal => None,
            MoveKind::Promote { code, .. } if self.rules.royal_codes.0.iter().all(|r| r >> code.index() & 1 == 0) => Some(code),
            MoveKind::Drop { code, .. } => return self.drop_on_board(pos, to, code, h),
            _ => return None,
        };
        if m.from as usize >= pos.board().len() || (victim != NONE && victim != to) {
            return None;
        }
        let rules = &*self.rules;
        let board = pos.board_scratch();
        let (piece, there) = (board[m.from as usize], board[to as usize]);
        let landed = landed.unwrap_or(piece);
        if (self.plan.board_only >> piece.index()) & (self.plan.board_only >> landed.index()) & 1 == 0 {
            return None;
        }
        board[to as usize] = landed;
        board[m.from as usize] = PieceCode::EMPTY;
        let king = if m.from == h.king { to } else { h.king };
        // (The attack query's table half is its whole answer: the opponent has no complex piece.)
        let attack = rules.attacks.attacker_among(&rules.geometry, board, king, board[king as usize], h.among).map(|src| (king, src));
        board[m.from as usize] = piece;
        board[to as usize] = there;
        Some(attack)
    }

    /// [`Variant::check_on_board`] for a drop of `code` on `to`.
    fn drop_on_board(&self, pos: &mut Position, to: u16, code: PieceCode, h: &RoyalHint) -> Option<Option<(u16, u16)>> {
        let rules = &*self.rules;
        let board = pos.board_scratch();
        if self.plan.board_only >> code.index() & 1 == 0 || !board[to as usize].is_empty() {
            return None;
        }
        board[to as usize] = code;
        // (As in `check_on_board`, the table half is the whole answer.)
        let attack = rules.attacks.attacker_among(&rules.geometry, board, h.king, board[h.king as usize], h.among).map(|src| (h.king, src));
        board[to as usize] = PieceCode::EMPTY;
        Some(attack)
    }

    /// [`check_after`](Self::check_after), with the royal piece's cell known before the move.
    fn check_after_with(
        &self,
        pos: &mut Position,
        m: &Move,
        me: Player,
        hint: Option<RoyalHint>,
    ) -> Result<Option<(u16, u16)>, ScriptError> {
        if self.rules.captures.explode.is_some() {
            return self.check_after_blast(pos, m, me);
        }
        if self.hook(Hook::AllowMove).is_some() {
            return self.check_after_scripted(pos, m, me);
        }
        if self.plan.kernel_check {
            // Nothing but the kernel moves pieces, and no rule can end the game on this move
            // with a winner: the kernel's part of the move is all the test needs, and often not
            // even that.
            if hint.is_some_and(|h| Self::safe_without_test(m, &h)) {
                return Ok(None);
            }
            if let Some(h) = hint
                && !h.complex
                && let Some(attack) = self.check_on_board(pos, m, &h)
            {
                return Ok(attack);
            }
            pos.make_kernel(&self.rules, m);
            let attack = if pos.side() == me {
                None
            } else if let Some(h) = hint {
                // The royal piece is where it was, or where the move took it.
                let king = if m.from == h.king { m.to().unwrap_or(NONE) } else { h.king };
                if self.royal_on(pos, me, king) { self.attacked_royal(pos, me, king, h.complex) } else { self.royal_attacker(pos, me) }
            } else {
                self.royal_attacker(pos, me)
            };
            pos.undo();
            return Ok(attack);
        }
        // A move that wins is tested too: the check rule holds for every move, so a king may
        // not step into check to bare the enemy king, reach a goal or take a last piece.
        self.make(pos, m)?;
        let attack = if pos.side() == me { None } else { self.royal_attacker(pos, me) };
        pos.undo();
        Ok(attack)
    }

    /// The check test where every capture explodes (`[captures] explode`), the move played in
    /// full: a move whose blast takes a royal piece of `me` is refused (that piece's cell is
    /// given as both the royal piece's and the attacker's: [`Variant::check_words`] reads it as
    /// the blast); one that takes the opponent's last royal piece wins whatever it leaves; any
    /// other leaves `me`'s royal pieces safe, as under every check rule.
    fn check_after_blast(&self, pos: &mut Position, m: &Move, me: Player) -> Result<Option<(u16, u16)>, ScriptError> {
        let (mine, theirs) = (self.royal_cells(pos, me).count(), self.royal_cells(pos, me.other()).next().is_some());
        self.make(pos, m)?;
        let now = self.royal_cells(pos, me).count();
        let attack = if now < mine {
            // (Rare: the cells before the move are read again for it, not kept for every move.)
            pos.undo();
            let before: Vec<u16> = self.royal_cells(pos, me).collect();
            self.make(pos, m)?;
            let gone = |c: u16| !self.royal_on(pos, me, c);
            let lost = before.into_iter().find(|&c| gone(c) && (c != m.from || m.to().is_none_or(gone)));
            lost.map(|c| (c, c))
        } else if theirs && self.royal_cells(pos, me.other()).next().is_none() || pos.side() == me {
            None
        } else {
            self.royal_attacker(pos, me)
        };
        pos.undo();
        Ok(attack)
    }

    /// The check test where an `allow_move` hook runs: the move played in full, then an attack
    /// on a royal piece of `me` counts only where the hook allows the capture.
    fn check_after_scripted(&self, pos: &mut Position, m: &Move, me: Player) -> Result<Option<(u16, u16)>, ScriptError> {
        self.make(pos, m)?;
        let attack = if pos.side() == me { Ok(None) } else { self.allowed_royal_attacker(pos, me) };
        pos.undo();
        attack
    }

    /// [`Variant::royal_attacker`] where an `allow_move` hook runs: an attack counts only if the
    /// hook allows the capture (asked only where the attack query finds one).
    fn allowed_royal_attacker(&self, pos: &mut Position, me: Player) -> Result<Option<(u16, u16)>, ScriptError> {
        if self.royal_attacker(pos, me).is_none() {
            return Ok(None);
        }
        let cells: Vec<u16> = self.royal_cells(pos, me).collect();
        self.allowed_capture(pos, me.other(), |c| cells.contains(&c))
    }

    /// The cells of `p`'s royal pieces, in cell order.
    pub(crate) fn royal_cells<'a>(&'a self, pos: &'a Position, p: Player) -> impl Iterator<Item = u16> + 'a {
        pos.cells_of(p).filter(move |&c| self.royal_on(pos, p, c))
    }

    /// Whether a royal piece of `p` stands on `c` (never on [`NONE`]).
    fn royal_on(&self, pos: &Position, p: Player, c: u16) -> bool {
        c != NONE && self.rules.royal_codes[p] >> pos.board()[c as usize].index() & 1 != 0
    }

    /// The first of `by`'s kernel moves (each promotion choice a move of its own) that takes a
    /// piece on a cell `hit` accepts and that the `allow_move` hook allows, asked with `by` to
    /// move: (that cell, the captor's). With no such hook, the first that takes one. The
    /// position is left as it was.
    pub(super) fn allowed_capture(
        &self,
        pos: &mut Position,
        by: Player,
        hit: impl Fn(u16) -> bool,
    ) -> Result<Option<(u16, u16)>, ScriptError> {
        let (side, z) = (pos.side(), &self.rules.zobrist);
        pos.set_side(z, by);
        let mut moves = Vec::new();
        movegen::captures(&self.rules, pos.board_scratch(), by, &mut moves);
        movegen::quiet_moves(&self.rules, pos, by, &mut moves);
        if self.rules.promotion_choices {
            movegen::expand_promotions(&self.rules, pos, &mut moves, 0);
        }
        let mut found = Ok(None);
        for m in &moves {
            let Some(victim) = m.victims().find(|&c| hit(c)) else { continue };
            let allowed = match (self.hook(Hook::AllowMove), &self.script) {
                (Some(f), Some(s)) if self.hook_applies(f, pos, m) => s.allow_move(pos, HookMove::new(pos, m), "").map(|r| r.is_none()),
                _ => Ok(true),
            };
            match allowed {
                Ok(false) => continue,
                Ok(true) => found = Ok(Some((victim, m.from))),
                Err(e) => found = Err(e),
            }
            break;
        }
        pos.set_side(z, side);
        found
    }

    /// The words for a check that `m` would leave: `it leaves your king on e1 in check by the
    /// bishop on b4` (read on the board after the move); for a royal piece its own move's blast
    /// would take (the same cell twice), `its explosion takes your king on e1`.
    fn check_words(&self, pos: &mut Position, m: Move, (hit, by): (u16, u16)) -> String {
        let g = &self.rules.geometry;
        if hit == by {
            let name = &self.rules.kind(pos.board()[hit as usize].kind()).name;
            return format!("its explosion takes your {name} on {}", g.name(crate::geometry::Cell(hit)));
        }
        let after = self.make(pos, &m).is_ok();
        let name = |c: u16| self.rules.kind(pos.board()[c as usize].kind()).name.clone();
        let words = format!(
            "it leaves your {} on {} in check by the {} on {}",
            name(hit),
            g.name(crate::geometry::Cell(hit)),
            name(by),
            g.name(crate::geometry::Cell(by))
        );
        if after {
            pos.undo();
        }
        words
    }

    /// Whether the opponent of the player to decide could capture one of that player's royal
    /// pieces now (check).
    pub(crate) fn in_check(&self, pos: &Position) -> bool {
        let attacked = self.royal_attacker(pos, pos.side()).is_some();
        if !attacked || self.hook(Hook::AllowMove).is_none() {
            return attacked;
        }
        // The script may refuse every capture of the king: asked on a copy. (A failing hook
        // leaves the attack standing; listing the moves meets the same failure and reports it.)
        let mut copy = pos.clone();
        self.allowed_royal_attacker(&mut copy, pos.side()).map_or(true, |a| a.is_some())
    }

    /// The royal piece of `me` on `king` (its only one), and its attacker, if the opponent could
    /// capture it; `complex`: whether the opponent may have a piece the reverse tables do not hold.
    fn attacked_royal(&self, pos: &Position, me: Player, king: u16, complex: bool) -> Option<(u16, u16)> {
        let known = Known { among: Among::ANY, complex };
        attack::attacker_known(&self.rules, pos.view(), me.other(), king, known).map(|src| (king, src))
    }

    /// Whether the opponent of `me`, moving now in `pos`, could capture a royal piece of `me`:
    /// that piece's cell and its attacker's (the first royal piece attacked, in cell order).
    fn royal_attacker(&self, pos: &Position, me: Player) -> Option<(u16, u16)> {
        if let Some(h) = self.royal_hint(pos, me) {
            return self.attacked_royal(pos, me, h.king, h.complex);
        }
        // No royal piece, several, or a board too big for the tables: each royal piece is asked about.
        let royal_codes = self.rules.royal_codes[me];
        let view = pos.view();
        (0..pos.board().len() as u16)
            .filter(|&c| royal_codes >> pos.board()[c as usize].index() & 1 != 0)
            .find_map(|c| attack::attacker(&self.rules, view, me.other(), c).map(|src| (c, src)))
    }

    /// Whether the player not to decide would have a move here (the `passes` rule: when neither
    /// has one, the game is over instead of passing).
    fn other_can_move(&self, pos: &mut Position) -> Result<bool, ScriptError> {
        let z = &self.rules.zobrist;
        let side = pos.side();
        pos.set_side(z, side.other());
        let mut moves = Vec::new();
        let r = if self.plan.kernel_lists {
            movegen::normal_moves(&self.rules, pos, &mut moves);
            Ok(())
        } else {
            self.filtered_moves(pos, &mut moves, &mut Vec::new())
        };
        pos.set_side(z, side);
        r.map(|()| !moves.is_empty())
    }

    /// Normal moves with hooks: all pseudo-legal moves, script additions, castling, each
    /// promotion choice, the `allow_move` filter, then the capture policy. Refused moves and their reasons go to `refused`.
    pub(super) fn filtered_moves(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        refused: &mut Vec<(Move, String)>,
    ) -> Result<(), ScriptError> {
        let start = out.len();
        let side = pos.side();
        movegen::captures(&self.rules, pos.board_scratch(), side, out);
        movegen::quiet_moves(&self.rules, pos, side, out);
        if self.hook(Hook::GenerateMoves).is_some()
            && let Some(s) = &self.script
        {
            let extra = s.generate_moves(pos, &self.rules, &out[start..])?;
            out.extend(extra);
        }
        movegen::castlings(&self.rules, pos, out);
        // Each promotion choice is a move of its own to the script (`m.text` ends `=Q`).
        if self.rules.promotion_choices {
            movegen::expand_promotions(&self.rules, pos, out, start);
        }
        movegen::gatings(&self.rules, pos, out, start);
        if let (Some(f), Some(s)) = (self.hook(Hook::AllowMove), &self.script) {
            let mut i = start;
            while i < out.len() {
                let m = out[i];
                if self.hook_applies(f, pos, &m) {
                    // What the kernel was doing is put into words only for an error.
                    let allowed = s.allow_move(pos, HookMove::new(pos, &m), "").map_err(|mut e| {
                        e.doing = format!("while checking {}", m.text(&self.rules.geometry));
                        e
                    })?;
                    if let Some(reason) = allowed {
                        refused.push((m, reason));
                        out.remove(i);
                        continue;
                    }
                }
                i += 1;
            }
        }
        movegen::finish(&self.rules, out, start);
        Ok(())
    }

    /// Where the rules capture by enclosing (`custodian`), the pieces the legal move `m` takes
    /// that its text does not name, as words to follow "is legal": `; it takes c3 (enclosed)`
    /// (empty otherwise).
    pub(crate) fn enclosed_note(&self, pos: &Position, m: &Move) -> String {
        let g = &self.rules.geometry;
        if m.kind == MoveKind::Swap {
            let first = self.rules.player_name(pos.side().other());
            let mirror = self.rules.pie.as_ref().is_some_and(|p| p.mirror.is_some());
            let whither = if mirror { ", each mirrored across the a1 diagonal (file and rank exchanged)" } else { "" };
            return format!("; the pie rule: it takes over {first}'s opening: every piece changes owner{whither}, and {first} moves next");
        }
        let mut after = pos.clone();
        if !self.rules.pieces.iter().any(|p| p.custodian.is_some()) || self.make(&mut after, m).is_err() {
            return String::new();
        }
        let named: Vec<u16> = m.victims().collect();
        let foe = pos.side().other();
        let taken: Vec<&str> = (0..g.len() as u16)
            .filter(|&c| pos.board()[c as usize].is_of(foe) && after.board()[c as usize].is_empty() && !named.contains(&c))
            .map(|c| g.name(crate::geometry::Cell(c)))
            .collect();
        if taken.is_empty() { String::new() } else { format!("; it takes {} (enclosed)", taken.join(", ")) }
    }

    /// Plays a move known to be legal: the kernel's part, hooks, then end conditions.
    ///
    /// # Errors
    /// A script hook failed; the position is then as it was before the move.
    pub fn make(&self, pos: &mut Position, mv: &Move) -> Result<(), ScriptError> {
        let rules = &*self.rules;
        let decider = pos.side();
        // Territory scoring's prisoners: the opponent's pieces this move (hooks included) took.
        let prisoners = rules.score.as_ref().is_some_and(crate::rules::Score::keeps_prisoners);
        let before = prisoners.then(|| (pos.continuation().map_or(decider, |c| c.turn), pos.counts()));
        // Where the plan makes it plain, no hook runs ([`crate::plan::Plan::plain_make`]).
        if self.plan.plain_make && pos.plain_ready(mv) {
            debug_assert!(self.hook(Hook::AfterMove).is_none() && self.hook(Hook::Outcome).is_none(), "a plain make with a hook");
            let fx = pos.make_plain(rules, mv);
            return self.judge_made(pos, mv, &fx, decider, before);
        }
        // A move a continuation lists always calls the hook; a normal move follows the filter.
        let listed = pos.continuation().is_some_and(|c| c.moves.contains(mv));
        let hook = self.hook(Hook::AfterMove).filter(|f| listed || self.hook_applies(f, pos, mv)).is_some();
        let hooked = match (hook, &self.script) {
            (true, Some(s)) => Some((s, HookMove::new(pos, mv))),
            _ => None,
        };
        let fx = pos.make_kernel(rules, mv);
        if let Some((s, m)) = hooked {
            if let Err(mut e) = s.after_move(pos, m, "") {
                pos.undo();
                e.doing = format!("while playing {}", mv.text(&rules.geometry));
                return Err(e);
            }
            // The script may have taken a castling rook or king.
            if pos.castle_rights().any() {
                pos.drop_missing_castlers(rules);
            }
        }
        if self.hook(Hook::Outcome).is_some()
            && pos.result().is_none()
            && let Some(s) = &self.script
            && let Err(e) = s.outcome(pos)
        {
            pos.undo();
            return Err(e);
        }
        self.judge_made(pos, mv, &fx, decider, before)
    }

    /// What follows `decider`'s move `mv` once made (hooks included; `fx`: what the kernel's
    /// part did; `before`: the taker and the counts before it, where prisoners are kept): the
    /// prisoners, a check counted, the end conditions judged, the position recorded.
    #[inline(always)]
    fn judge_made(
        &self,
        pos: &mut Position,
        mv: &Move,
        fx: &MoveEffects,
        decider: Player,
        before: Option<(Player, ByPlayer<u32>)>,
    ) -> Result<(), ScriptError> {
        let rules = &*self.rules;
        if let Some((taker, theirs)) = before {
            let taken = theirs[taker.other()].saturating_sub(pos.counts()[taker.other()]);
            pos.add_prisoners(taker, taken);
        }
        if let Some(slot) = rules.check_counter {
            self.count_check(pos, slot, decider);
        }
        let check = match rules.end_checks {
            EndChecks::Never => false,
            EndChecks::RoyalMoves => fx.royal_victim.is_some() || fx.royal_left.is_some(),
            EndChecks::Every => true,
        };
        if check && pos.result().is_none() {
            self.judge_after_move(pos, fx, decider)?;
        }
        if rules.drop_mate_loses && pos.result().is_none() {
            self.judge_drop_mate(pos, mv)?;
        }
        if matches!(mv.kind, MoveKind::Pass) && pos.result().is_none() && rules.facing && self.royals_facing(pos) {
            self.judge_facing_pass(pos);
        }
        if matches!(mv.kind, MoveKind::Pass) && pos.result().is_none() && rules.passes_played() {
            self.judge_double_pass(pos);
        }
        self.record(pos, decider);
        Ok(())
    }

    /// A null move, for the search's null-move pruning: the turn passes with nothing moved (the
    /// kernel's pass: the en passant cell closes, the clock runs), no hook runs and no end is
    /// judged; [`Position::undo`] takes it back. Callers make one only where the rules allow
    /// the search to assume a pass is never better than a move.
    pub(crate) fn make_null(&self, pos: &mut Position) {
        pos.make_kernel(&self.rules, &Move::PASS);
        pos.record();
    }

    /// The end conditions checked after a move (of phase [`Phase::AfterMove`]), the first met
    /// written as the result: `fx` is what the kernel's part of `decider`'s move did.
    fn judge_after_move(&self, pos: &mut Position, fx: &MoveEffects, decider: Player) -> Result<(), ScriptError> {
        let rules = &*self.rules;
        let counts = pos.counts();
        let m = AfterMove {
            board: pos.board(),
            counts: &counts,
            effects: fx,
            mover: decider,
            clock: pos.clock(),
            counters: pos.counters(),
            score: rules.score.as_ref(),
            prisoners: pos.prisoners(),
        };
        let r = rules.ends.iter().filter(|e| e.kind.phase() == Phase::AfterMove).find_map(|e| {
            if let EndKind::ZoneReached { cells, kinds, win, standing: true, .. } = &e.kind {
                let safe = |c: u16| attack::attacker(rules, pos.view(), pos.board()[c as usize].owner().other(), c).is_none();
                let winner = crate::rules::ends::standing_in_zone(pos.board(), cells, *kinds, decider, safe)?;
                return Some((e, e.outcome(winner.map(|p| if *win { p } else { p.other() }))));
            }
            let winner = e.kind.after_move(&m)?;
            // `safe`: a piece that reached its zone wins only if it cannot be taken at once.
            if e.kind.needs_safety() && fx.to != NONE && attack::attacker(rules, pos.view(), decider.other(), fx.to).is_some() {
                return None;
            }
            Some((e, e.outcome(winner)))
        });
        // A move that checkmates is not drawn by the quiet-moves rule.
        let r = match r {
            Some((e, _)) if e.kind.clock_kinds().is_some() && self.checkmated(pos)? => None,
            r => r.map(|(_, o)| o),
        };
        // Only a found result is written: the result is empty here, and writing `None` over
        // it costs a drop check on every move.
        if r.is_some() {
            pos.set_result(r);
        }
        Ok(())
    }

    /// The position `decider`'s move made, recorded in the repetition history (in every game,
    /// not only under a repetition rule: the search reads it to tell a shuffle back to an
    /// earlier position from progress), then judged by repetition and the move limit.
    #[inline(always)]
    fn record(&self, pos: &mut Position, decider: crate::piece::Player) {
        let rules = &*self.rules;
        pos.record();
        if rules.repetition && pos.result().is_none() {
            let n = pos.repetitions();
            let points = || rules.score.as_ref().and_then(|s| s.winner(pos.board(), pos.prisoners()));
            if let Some(r) = rules.ends.iter().find_map(|e| Some(e.outcome(e.kind.after_record(n, decider, points)?))) {
                pos.set_result(Some(r));
            }
        }
        if pos.result().is_none() && rules.move_limit > 0 && pos.ply() >= rules.move_limit {
            pos.set_result(Some(Outcome::draw("move limit")));
        }
    }

    /// Check counting (an end `checks`): a move that leaves the opponent in check takes one
    /// from the mover's counter `slot`.
    fn count_check(&self, pos: &mut Position, slot: u8, mover: crate::piece::Player) {
        if self.in_check(pos) {
            pos.set_counter(mover, slot, pos.counter(mover, slot).saturating_sub(1));
        }
    }

    /// Under the `passes` rule with `played`: a pass that follows a pass ends the game, scored
    /// by the rule's tally. The previous move was a pass where this one brings back the position
    /// before it (a pass changes nothing but the player to move), read in the history, which
    /// does not hold this position yet.
    fn judge_double_pass(&self, pos: &mut Position) {
        let h = pos.history();
        if h.len() >= 2 && h[h.len() - 2] == pos.hash() {
            let r = self.tally_outcome(pos);
            pos.set_result(r);
        }
    }

    /// An end `facing`: a pass made while the royal pieces face each other ends the game, a
    /// draw or scored by `[rules] points`.
    fn judge_facing_pass(&self, pos: &mut Position) {
        let rules = &*self.rules;
        if let Some((e, points)) = rules.ends.iter().find_map(|e| match e.kind {
            EndKind::Facing { points } => Some((e, points)),
            _ => None,
        }) {
            let winner = if points { rules.score.as_ref().and_then(|s| s.winner(pos.board(), pos.prisoners())) } else { None };
            pos.set_result(Some(e.outcome(winner)));
        }
    }

    /// Under `no_mate = "loses"`: after `mv`, a drop of such a kind that checkmates the player
    /// now to move, that player wins (the drop was a losing move, not an illegal one).
    fn judge_drop_mate(&self, pos: &mut Position, mv: &Move) -> Result<(), ScriptError> {
        let Some(code) = mv.dropped().filter(|c| self.rules.pieces[c.index()].drop.as_ref().is_some_and(|d| d.mate_loses)) else {
            return Ok(());
        };
        if self.checkmated(pos)? {
            let reason = format!("checkmate by a {} drop", self.rules.kind(code.kind()).name);
            pos.set_result(Some(Outcome::win(pos.side(), reason)));
        }
        Ok(())
    }

    /// Whether the player to decide is in check with no legal move (asked only when the
    /// quiet-moves rule would draw; a probe inside a probe says no, so it cannot recurse).
    fn checkmated(&self, pos: &mut Position) -> Result<bool, ScriptError> {
        thread_local! { static PROBING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) }; }
        if PROBING.get() || !self.in_check(pos) {
            return Ok(false);
        }
        thread_local! { static MOVES: std::cell::Cell<MoveList> = const { std::cell::Cell::new(Vec::new()) }; }
        PROBING.set(true);
        let mut moves = MOVES.take();
        moves.clear();
        let r = self.legal_moves(pos, &mut moves).map(|()| moves.is_empty());
        MOVES.set(moves);
        PROBING.set(false);
        r
    }

    /// The result of `pos`: a declared result, or what having no legal move means.
    ///
    /// # Errors
    /// A script hook failed while listing moves.
    pub fn outcome(&self, pos: &mut Position) -> Result<Option<Outcome>, ScriptError> {
        if let Some(r) = pos.result() {
            return Ok(Some(r.clone()));
        }
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves)?;
        if !moves.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.no_moves_outcome(pos)))
    }

    /// The result when the player to decide has no legal move: what the `no_moves` rule says
    /// (a loss without one), or, where it passes and the `passes` rule ends the game because
    /// neither player can move, that rule's tally.
    pub(crate) fn no_moves_outcome(&self, pos: &Position) -> Outcome {
        let (reason, rule) = match (self.no_moves_rule_at(pos), &self.rules.sowing) {
            (Some((e, n)), _) => (e.reason.clone(), n),
            // A sowing game's end (a side empty, or no move) is judged after each sowing; a
            // position set up with no move ends as that judgement would: the pits swept to
            // their owners, more seeds in store winning.
            (None, Some(sw)) => return crate::state::final_count(sw, pos.seeds()),
            (None, None) => ("no moves".into(), NoMoves::Loss),
        };
        match (rule, self.rules.both_pass_rule()) {
            (NoMoves::Loss, _) => Outcome::win(pos.side().other(), reason),
            (NoMoves::Win, _) => Outcome::win(pos.side(), reason),
            (NoMoves::Pass, Some(_)) => self.tally_outcome(pos).unwrap_or_else(|| Outcome::draw(reason)),
            (NoMoves::Draw | NoMoves::Pass, _) => Outcome::draw(reason),
        }
    }

    /// The `passes` rule's result on this board (its tally of the pieces of its kinds), if the
    /// rules have that rule.
    fn tally_outcome(&self, pos: &Position) -> Option<Outcome> {
        let (e, t, kinds) = self.rules.both_pass_rule()?;
        if t == crate::rules::ends::Tally::Points {
            let (winner, margin) = self.rules.score.as_ref().map_or((None, 0), |s| s.winner_by(pos.board(), pos.prisoners()));
            return Some(e.outcome(winner).by(winner.map(|_| margin)));
        }
        let mut counts = crate::piece::ByPlayer::new(0u32, 0u32);
        for &code in pos.board().iter().filter(|c| !c.is_empty() && kinds.contains(c.kind())) {
            counts[code.owner()] += 1;
        }
        Some(e.outcome(t.winner(&counts)))
    }

    /// The `no_moves` rule that applies when the player to decide in `pos` has no move: the first
    /// whose condition holds (`if_attacked`: the opponent, moving now, could capture one of the
    /// player's pieces of those kinds). `None`: no rule applies (having no move loses).
    pub(crate) fn no_moves_rule_at(&self, pos: &Position) -> Option<(&EndRule, NoMoves)> {
        self.rules.no_moves_rules().find(|&(_, _, kinds)| kinds.is_none_or(|k| self.attacked(pos, k))).map(|(e, n, _)| (e, n))
    }

    /// Whether the opponent of the player to decide, were it to move now, has a move that
    /// captures one of that player's pieces of `kinds` (the kernel's moves, that an
    /// `allow_move` hook allows).
    pub(crate) fn attacked(&self, pos: &Position, kinds: KindSet) -> bool {
        let (me, view) = (pos.side(), pos.view());
        let mine = |c: u16| pos.board()[c as usize].is_of(me) && kinds.contains(pos.board()[c as usize].kind());
        let attacked = (0..pos.board().len() as u16).any(|c| mine(c) && attack::attacker(&self.rules, view, me.other(), c).is_some());
        if !attacked || self.hook(Hook::AllowMove).is_none() {
            return attacked;
        }
        // As in `in_check`: only a capture the script allows, asked on a copy.
        let cells: Vec<u16> = (0..pos.board().len() as u16).filter(|&c| mine(c)).collect();
        let mut copy = pos.clone();
        self.allowed_capture(&mut copy, me.other(), |c| cells.contains(&c)).map_or(true, |a| a.is_some())
    }

    /// Finds the legal move a text names, or says why there is none.
    ///
    /// # Errors
    /// Unparsable text or an illegal move, with the reason; a failing hook.
    pub fn find_move(&self, pos: &mut Position, text: &str) -> Result<Move, PlayError> {
        if let Some(r) = self.find_sow(pos, text) {
            return r;
        }
        let mv = match MoveText::parse(text, &self.rules.geometry) {
            // A cell alone names no move here (it is a pit only where the rules sow): SAN's `e4`.
            Ok(MoveText::Path { landings, .. }) if landings.is_empty() => {
                let e = NotationError::Unreadable(text.trim().to_ascii_lowercase(), "expected from-to, fromxto(xto…), from-off or pass");
                let other = self.find_san(pos, text).or_else(|| self.find_numbered(pos, text)).or_else(|| self.find_column(pos, text));
                return other.unwrap_or(Err(e.into()));
            }
            Ok(mv) => mv,
            // SAN's closing marks on boardlab's notation (`O-O+`, `e7-e8=Q#`).
            Err(_) if crate::san::strip_marks(text) != text.trim() && !crate::san::strip_marks(text).is_empty() => {
                return self.find_move(pos, crate::san::strip_marks(text));
            }
            // Not boardlab's notation: perhaps SAN (`Nc3`, `exd5`, `e8=Q`).
            // Or numbered squares (`11-15`), or a column's letter for its one drop (`d`).
            Err(e) => {
                let other = self.find_san(pos, text).or_else(|| self.find_numbered(pos, text)).or_else(|| self.find_column(pos, text));
                return other.unwrap_or(Err(e.into()));
            }
        };
        let mut legal = Vec::new();
        self.legal_moves(pos, &mut legal)?;
        let named: Vec<&Move> = legal.iter().filter(|m| mv.names(m)).collect();
        if let [m, more @ ..] = &named[..] {
            // `O-O/H` gates on the king's cell or on the rook's: the text must say which.
            if !more.is_empty() && named.iter().all(|m| m.gated().is_some()) {
                let all = named.iter().map(|m| m.text(&self.rules.geometry)).collect();
                return Err(NotationError::WhichGate(text.trim().to_string(), all).into());
            }
            return Ok(**m);
        }
        if self.rules.captures.identity == Identity::CapturedSet && mv.is_capture() {
            // The path of a capture merged into its twin (same start, end and pieces taken)
            // names the move the list keeps.
            let mut pseudo = Vec::new();
            let side = pos.side();
            movegen::captures(&self.rules, pos.board_scratch(), side, &mut pseudo);
            if let Some(p) = pseudo.iter().find(|m| mv.names(m))
                && let Some(m) = legal.iter().find(|m| movegen::same_capture(m, p))
            {
                return Ok(*m);
            }
        }
        Err(PlayError::Illegal(self.explain_move(pos, &mv, &legal)?))
    }

    /// The legal move a SAN text names ([`crate::san`]); `None` when the text is not SAN here,
    /// or names no legal move without a piece's letter (the caller's own error then says more).
    fn find_san(&self, pos: &mut Position, text: &str) -> Option<Result<Move, PlayError>> {
        let san = crate::san::parse(text, &self.rules.geometry)?;
        let mut legal = Vec::new();
        if let Err(e) = self.legal_moves(pos, &mut legal) {
            return Some(Err(e.into()));
        }
        let pawn = crate::san::pawn_kind(&self.rules, &self.start());
        let quoted = || text.trim().to_string();
        match crate::san::resolve(&san, &self.rules, pos, pawn, &legal) {
            Ok(m) => Some(Ok(m)),
            Err(crate::san::Unresolved::Ambiguous(all)) => Some(Err(NotationError::Ambiguous(quoted(), all).into())),
            Err(crate::san::Unresolved::None) => match self.san_among_pseudo(pos, &san, pawn) {
                // A move the pieces make but the rules refuse: why, in the rules' words.
                Some(m) => Some(self.find_move(pos, &m.text(&self.rules.geometry))),
                None if san.piece.is_some() => Some(Err(NotationError::NoSanMove(quoted()).into())),
                None => None,
            },
        }
    }

    /// The one move of the side to move's pieces (before the rules' filters: check, the
    /// capture policy, scripts) that a SAN text names, if exactly one.
    fn san_among_pseudo(&self, pos: &mut Position, san: &crate::san::San, pawn: Option<crate::piece::KindId>) -> Option<Move> {
        let (side, mut pseudo) = (pos.side(), Vec::new());
        movegen::captures(&self.rules, pos.board_scratch(), side, &mut pseudo);
        movegen::quiet_moves(&self.rules, pos, side, &mut pseudo);
        movegen::castlings(&self.rules, pos, &mut pseudo);
        if self.rules.promotion_choices {
            movegen::expand_promotions(&self.rules, pos, &mut pseudo, 0);
        }
        crate::san::resolve(san, &self.rules, pos, pawn, &pseudo).ok()
    }

    /// The legal move a numbered text names ([`crate::numbered`]), in a variant that numbers
    /// its squares; `None` when the text is not numbers of this board.
    fn find_numbered(&self, pos: &mut Position, text: &str) -> Option<Result<Move, PlayError>> {
        let t = crate::numbered::Numbering::of(&self.rules)?.parse(text)?;
        let mut legal = Vec::new();
        if let Err(e) = self.legal_moves(pos, &mut legal) {
            return Some(Err(e.into()));
        }
        let g = &self.rules.geometry;
        let found: Vec<&Move> = legal.iter().filter(|m| t.names(m)).collect();
        Some(match found[..] {
            [m] => Ok(*m),
            [] => {
                // Why the same move in boardlab's notation is not legal.
                let mv =
                    MoveText::Path { from: t.cells[0], landings: t.cells[1..].to_vec(), capture: t.capture, then: None, promote: None };
                match self.explain_move(pos, &mv, &legal) {
                    Ok(why) => Err(PlayError::Illegal(why)),
                    Err(e) => Err(e.into()),
                }
            }
            _ => {
                let all = found.iter().map(|m| m.text(g)).collect();
                Err(NotationError::Ambiguous(format!("{} ({})", text.trim(), crate::numbered::describe(&t, g)), all).into())
            }
        })
    }

    /// A column's letter as the one drop into that column, where every legal move is a drop
    /// and no column has two (Connect Four): `None` when that is not so or the text is not a
    /// file of the board.
    fn find_column(&self, pos: &mut Position, text: &str) -> Option<Result<Move, PlayError>> {
        let t = text.trim().to_ascii_lowercase();
        let g = &self.rules.geometry;
        let file_of = |c: u16| g.name(crate::geometry::Cell(c)).trim_end_matches(|ch: char| ch.is_ascii_digit()).to_string();
        if t.is_empty() || t.len() > 3 || !t.bytes().all(|b| b.is_ascii_lowercase()) || !g.cells().any(|c| file_of(c.0) == t) {
            return None;
        }
        let mut legal = Vec::new();
        if let Err(e) = self.legal_moves(pos, &mut legal) {
            return Some(Err(e.into()));
        }
        let mut files: Vec<String> = Vec::with_capacity(legal.len());
        for m in &legal {
            let (MoveKind::Drop { .. }, Some(to)) = (m.kind, m.to()) else { return None };
            files.push(file_of(to));
        }
        let mut sorted = files.clone();
        sorted.sort();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        Some(match files.iter().position(|f| *f == t) {
            Some(i) => Ok(legal[i]),
            None => Err(PlayError::Illegal(IllegalReason::Refused(format!("column {t} takes no piece now")))),
        })
    }

    /// Parses and plays a move, or says why it is not legal (the position is then unchanged).
    ///
    /// # Errors
    /// See [`find_move`](Self::find_move) and [`make`](Self::make).
    pub fn play(&self, pos: &mut Position, text: &str) -> Result<Move, PlayError> {
        let m = self.find_move(pos, text)?;
        self.make(pos, &m)?;
        Ok(m)
    }

    /// Why `mv` is not legal in `pos`.
    ///
    /// # Errors
    /// A failing hook.
    pub(crate) fn explain_move(&self, pos: &mut Position, mv: &MoveText, legal: &[Move]) -> Result<IllegalReason, ScriptError> {
        if let Some(r) = pos.result() {
            return Ok(IllegalReason::GameOver(r.describe(&self.rules.player_names)));
        }
        if let Some(why) = self.stale_en_passant(pos, mv) {
            return Ok(IllegalReason::Refused(why));
        }
        if let Some(why) = crate::explain::by_gate(&self.rules, pos, mv, legal) {
            return Ok(IllegalReason::Refused(why));
        }
        if let Some(why) = self.castle_refusal(pos, mv)? {
            return Ok(IllegalReason::Refused(why));
        }
        if let MoveText::Path { from, landings, capture, then: None, promote: None } = mv {
            // The move promotes with a choice: it is written with the kind chosen.
            let g = &self.rules.geometry;
            let choices: Vec<String> = legal
                .iter()
                .filter(|m| m.promoted().is_some() && m.from == *from && m.landings() == &landings[..] && m.is_capture() == *capture)
                .map(|m| m.text(g))
                .collect();
            if !choices.is_empty() {
                return Ok(IllegalReason::Refused(format!("{} promotes: write the kind chosen, {}", mv.text(g), choices.join(", "))));
            }
        }
        let mut pseudo = Vec::new();
        let mut refused = Vec::new();
        let mut relaxed = Vec::new();
        if pos.continuation().is_none_or(|c| c.normal) {
            let side = pos.side();
            if mv.is_capture() {
                movegen::captures_landing_anywhere(&self.rules, pos.board_scratch(), side, &mut relaxed);
            }
            movegen::captures(&self.rules, pos.board_scratch(), side, &mut pseudo);
            movegen::quiet_moves(&self.rules, pos, side, &mut pseudo);
            if self.rules.promotion_choices {
                movegen::expand_promotions(&self.rules, pos, &mut pseudo, 0);
            }
            movegen::gatings(&self.rules, pos, &mut pseudo, 0);
            if !self.plan.kernel_lists {
                let mut tmp = Vec::new();
                self.filtered_moves(pos, &mut tmp, &mut refused)?;
            }
            if self.rules.drop_no_mate {
                movegen::drops(&self.rules, pos, side, &mut pseudo);
            }
            // The moves the text names, through the same filters as the legal list.
            let mut named: MoveList = pseudo.iter().filter(|m| mv.names(m)).copied().collect();
            named.dedup();
            self.apply_filters(pos, &mut named, 0, Some(&mut refused))?;
        }
        Ok(explain(&self.rules, pos, mv, &Lists { legal, pseudo: &pseudo, refused: &refused, relaxed: &relaxed }))
    }

    /// Why a castling (written `O-O`, `O-O-O`, or as the king's move two or more files along
    /// its rank onto a castling landing) is not legal: the right, a cell in the way, an attack
    /// on the king's path, or the check it would land in.
    fn castle_refusal(&self, pos: &mut Position, mv: &MoveText) -> Result<Option<String>, ScriptError> {
        use crate::rules::castling::{EAST, WEST};
        let g = &self.rules.geometry;
        let side = match (mv, &self.rules.castling) {
            (MoveText::Castle { .. }, None) => return Ok(Some("this game has no castling".into())),
            (MoveText::Castle { east, .. }, Some(_)) => Some(if *east { EAST } else { WEST }),
            (MoveText::Path { from, landings, capture: false, then: None, promote: None }, Some(c)) if landings.len() == 1 => {
                let code = pos.board().get(*from as usize).copied().unwrap_or_default();
                let (f0, r0) = g.coords(crate::geometry::Cell(*from));
                let (f1, r1) = g.coords(crate::geometry::Cell(landings[0]));
                let king = code == crate::piece::PieceCode::new(c.king, pos.side());
                let at = |s: usize| c.sides[s].is_some_and(|(kf, _)| kf == f1);
                [EAST, WEST].into_iter().find(|&s| king && r0 == r1 && f0.abs_diff(f1) >= 2 && at(s) && (f1 > f0) == (s == EAST))
            }
            _ => None,
        };
        let Some(side) = side else { return Ok(None) };
        match movegen::castle_move(&self.rules, pos, side) {
            Err(why) => Ok(Some(why.words(&self.rules, pos, side))),
            Ok(m) => {
                let me = pos.side();
                let attack = self.check_after(pos, &m, me)?;
                Ok(attack.map(|a| self.check_words(pos, m, a)))
            }
        }
    }

    /// A capture written onto an empty cell that the piece's en passant step reaches, when no
    /// en passant capture is open there: why it is not one now.
    fn stale_en_passant(&self, pos: &Position, mv: &MoveText) -> Option<String> {
        let MoveText::Path { from, landings, capture: true, .. } = mv else { return None };
        let (&[to], true) = (landings.as_slice(), (*from as usize) < pos.board().len()) else { return None };
        let code = pos.piece(*from);
        if code.is_empty() || code.owner() != pos.side() || !pos.piece(to).is_empty() || pos.en_passant().is_some_and(|(at, _)| at == to) {
            return None;
        }
        let pr = &self.rules.pieces[code.index()];
        let reaches = pr
            .quiet
            .iter()
            .any(|f| matches!(f, crate::rules::Form::Step { en_passant: true, targets, .. } if targets.get(*from).contains(&to)));
        let g = &self.rules.geometry;
        reaches.then(|| {
            format!(
                "{} is empty: the {} captures there en passant only on the move right after an enemy piece passed it ({})",
                g.name(crate::geometry::Cell(to)),
                self.rules.kind(code.kind()).name,
                match pos.en_passant() {
                    Some((at, _)) => format!("the cell open now is {}", g.name(crate::geometry::Cell(at))),
                    None => "no cell is open now".into(),
                }
            )
        })
    }

    /// Why the piece on `cell` (or the cell) has no legal move in `pos`.
    ///
    /// # Errors
    /// A failing hook.
    pub(crate) fn explain_cell(&self, pos: &mut Position, cell: u16, legal: &[Move]) -> Result<IllegalReason, ScriptError> {
        if let Some(r) = self.explain_sow(pos, cell) {
            return Ok(r);
        }
        // The explanation of a move from this cell that no piece can make (onto itself).
        let mv = MoveText::Path { from: cell, landings: vec![], capture: false, then: None, promote: None };
        self.explain_move(pos, &mv, legal)
    }

    /// Plays a list of moves from `pos`; on the first bad one says `move N (text): reason`.
    ///
    /// # Errors
    /// The first move that cannot be played, with its index from 1; the position is left after
    /// the moves before it.
    pub fn play_all(&self, pos: &mut Position, moves: &[String]) -> Result<(), MoveListError> {
        for (i, t) in moves.iter().enumerate() {
            self.play(pos, t).map_err(|error| MoveListError { number: i + 1, text: t.clone(), error })?;
        }
        Ok(())
    }

    /// Takes what scripts printed since the last call.
    pub fn take_output(&self) -> Vec<String> {
        self.script.as_ref().map(|s| s.take_output()).unwrap_or_default()
    }
}

/// Keeps in `out` the moves `keep` keeps, in their order; the others go to `dropped` where
/// one is given.
fn keep_moves(
    pos: &mut Position,
    out: &mut MoveList,
    keep: &mut dyn FnMut(&mut Position, &Move) -> bool,
    mut dropped: Option<&mut MoveList>,
) {
    let mut kept = 0;
    for i in 0..out.len() {
        let m = out[i];
        if keep(pos, &m) {
            out[kept] = m;
            kept += 1;
        } else if let Some(d) = dropped.as_deref_mut() {
            d.push(m);
        }
    }
    out.truncate(kept);
}

/// Keeps the moves of `out[start..]` that `refuse` lets through, in order (kept moves slide down
/// over refused ones: one pass, no shifting per removal). `refuse` says why a move is refused;
/// its second argument says whether the words are wanted (`refused` hears each refused move
/// and its words, when given).
pub(super) fn keep_unrefused(
    out: &mut MoveList,
    start: usize,
    mut refused: Option<&mut Vec<(Move, String)>>,
    mut refuse: impl FnMut(&Move, bool) -> Result<Option<String>, ScriptError>,
) -> Result<(), ScriptError> {
    let mut kept = start;
    for i in start..out.len() {
        match refuse(&out[i], refused.is_some())? {
            Some(words) => {
                if let Some(r) = refused.as_deref_mut() {
                    r.push((out[i], words));
                }
            }
            None => {
                // (Moves are copied only once one before them has gone.)
                if kept != i {
                    out[kept] = out[i];
                }
                kept += 1;
            }
        }
    }
    out.truncate(kept);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves [`Variant::legal_moves_kept`] keeps are the legal list filtered afterwards,
    /// in its order: in Go (the filters asked after `keep`: superko, suicide) and where the
    /// plan does not allow it (chess, draughts: the legal list filtered), from random games.
    #[test]
    fn kept_moves_are_the_legal_list_filtered() {
        use rand::RngExt;
        for name in ["go", "go-japanese", "chess", "checkers", "havannah"] {
            let v = Variant::load(name, &[]).unwrap();
            let (mut r, mut pos) = (crate::ai::rng(3), v.start());
            let (mut all, mut kept) = (Vec::new(), Vec::new());
            for ply in 0..120u32 {
                v.legal_moves(&mut pos, &mut all).unwrap();
                for k in 0..3u16 {
                    // Captures and every seventh cell; every third cell; nothing but passes.
                    let keep = |m: &Move| match k {
                        0 => m.is_capture() || m.to().is_some_and(|c| c % 7 == 0),
                        1 => m.to().is_some_and(|c| c % 3 == 0),
                        _ => *m == Move::PASS,
                    };
                    let want: Vec<Move> = all.iter().copied().filter(|m| keep(m)).collect();
                    v.legal_moves_kept(&mut pos, &mut kept, &mut |_, m| keep(m)).unwrap();
                    assert_eq!(kept, want, "{name}, ply {ply}, keep {k}");
                }
                all.retain(|m| *m != Move::PASS);
                if all.is_empty() {
                    break;
                }
                let m = all[r.random_range(0..all.len())];
                v.make(&mut pos, &m).unwrap();
            }
        }
    }

    /// Where the moves before the filters are listed ([`Variant::unfiltered_moves`]), those
    /// [`Variant::legal_alone`] keeps one at a time (a move made and taken back between two
    /// questions, as in the search) are the legal list. Where [`Variant::legal_kept_and_any`]
    /// answers, its moves are the legal list filtered
    /// afterwards, in its order, the player has a legal move, and the mobility is the one the
    /// whole list gives; where it does not, the plan does not allow it, the turn continues, or
    /// no move is legal (but the pass a rule gives a player without one). From random games of every shipped variant, for two ways to keep
    /// moves (captures; every third cell), with positions where nothing kept is legal but
    /// some other move is (its moves tested a few at a time).
    #[test]
    fn kept_and_any_are_the_legal_list_filtered() {
        let (mut answered, mut only_rest, mut judged, mut alone) = (0, 0, 0, 0);
        for name in crate::variant::shipped_names() {
            let v = Variant::load(&name, &[]).unwrap();
            judged += v.plan.judged_alone as u32;
            let (mut all, mut kept, mut rest) = (Vec::new(), Vec::new(), Vec::new());
            v.random_positions(5, 4, 60, |pos, _| {
                let mobility = v.legal_moves_and_mobility(pos, &mut all).unwrap();
                // One move at a time, as the search asks, each tried and taken back between.
                // (Not where the list is a pass given to a player without moves.)
                if v.unfiltered_moves(pos, &mut kept).unwrap() && all.as_slice() != [Move::PASS] {
                    let mut judged = Judged::default();
                    let mut one_by_one = Vec::new();
                    for m in kept.clone() {
                        if v.legal_alone(pos, &m, &mut judged, &mut rest).unwrap() {
                            one_by_one.push(m);
                            v.make(pos, &m).unwrap();
                            pos.undo();
                        }
                    }
                    assert_eq!(one_by_one, all, "{name}, one by one, in {}", pos.to_text(&v.rules));
                    alone += 1;
                }
                for k in 0..2u16 {
                    let keep = |m: &Move| if k == 0 { m.is_capture() } else { m.to().is_some_and(|c| c % 3 == 0) };
                    let got = v.legal_kept_and_any(pos, &mut kept, &mut rest, &mut |_, m| keep(m)).unwrap();
                    let Some(mob) = got else {
                        let mid_turn = pos.continuation().is_some() || pos.result().is_some();
                        // (A player without a move may be given a pass: the rule reads the empty list.)
                        let none = all.iter().all(|m| *m == Move::PASS);
                        assert!(!v.plan.judged_alone || mid_turn || none, "{name}: no answer with legal moves");
                        continue;
                    };
                    let want: Vec<Move> = all.iter().copied().filter(|m| keep(m)).collect();
                    assert_eq!(kept, want, "{name}, keep {k}, in {}", pos.to_text(&v.rules));
                    assert!(!all.is_empty(), "{name}: a legal move was said to exist");
                    assert_eq!(mob, mobility, "{name}: the mobility");
                    answered += 1;
                    only_rest += kept.is_empty() as u32;
                }
            });
        }
        assert!(
            judged > 15 && answered > 5000 && only_rest > 1000 && alone > 2000,
            "{judged} variants, {answered} answers, {only_rest} from the rest, {alone} lists one by one"
        );
        // Checkmate (a capture kept but refused, the other moves too) and stalemate (no
        // capture, every other move refused): no answer; a legal capture, or only a king's
        // step out of check: an answer.
        let v = Variant::load("chess", &[]).unwrap();
        let (mut kept, mut rest) = (Vec::new(), Vec::new());
        for (fen, answers) in [
            ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", false),
            ("k7/8/1QK5/8/8/8/8/8 b - - 0 1", false),
            ("k7/1Q6/8/8/8/8/8/7K b - - 0 1", true),
            ("kr6/pp6/8/8/8/8/8/K1r5 w - - 0 1", true),
        ] {
            let mut pos = crate::fen::read(&v.rules, fen).unwrap();
            let got = v.legal_kept_and_any(&mut pos, &mut kept, &mut rest, &mut |_, m| m.is_capture()).unwrap();
            assert_eq!(got.is_some(), answers, "{fen}");
        }
    }

    /// Wherever a drop is said to give no check on the board alone, the board is put back and
    /// playing the drop leaves the opponent out of check; and most drops are told so, while
    /// some checking drops are not (minishogi, whose pawn may not be dropped to mate).
    #[test]
    fn a_drop_told_to_check_nothing_checks_nothing_when_played() {
        let v = Variant::load("minishogi", &[]).unwrap();
        let (mut told, mut checks, mut drops) = (0, 0, 0);
        v.random_positions(17, 12, 150, |pos, moves| {
            for m in moves.iter().filter(|m| m.dropped().is_some()) {
                drops += 1;
                let before = pos.clone();
                let quiet = v.drop_gives_no_check(pos, m);
                assert_eq!(*pos, before, "the board is put back");
                v.make(pos, m).unwrap();
                let check = v.in_check(pos);
                pos.undo();
                assert!(!(quiet && check), "{} at {}", m.text(&v.rules.geometry), pos.to_text(&v.rules));
                told += usize::from(quiet);
                checks += usize::from(check);
            }
        });
        assert!(told * 2 > drops && checks > 10 && told + checks == drops, "{told} told, {checks} checks of {drops} drops");
    }

    /// The royal piece, the exit cells, the complex and indirect flags and the sliders read on
    /// the sets of each code are those a scan of the board finds.
    #[test]
    fn the_royal_hint_on_the_sets_is_the_hint_on_the_board() {
        for name in ["chess", "capablanca", "xiangqi", "minishogi", "dobutsu", "grasshopper", "shatranj", "pawnsideways", "nightrider"] {
            let v = Variant::load(name, &[]).unwrap();
            let mut seen = 0;
            v.random_positions(29, 8, 100, |pos, _| {
                // (Every board of at most 128 cells keeps them, whatever its number of codes.)
                assert!(!pos.cells_by_code().is_empty(), "{name}: no sets kept");
                for me in Player::both() {
                    let sets = v.royal_cells_by_sets(pos, me);
                    assert_eq!(sets, v.royal_cells_by_scan(pos, me), "{name} at {}", pos.to_text(&v.rules));
                    seen += sets.is_some_and(|s| s.sliders != 0) as u32;
                }
            });
            // (Dōbutsu has no slider.)
            assert!(seen > 1000 || name == "dobutsu", "{name}: {seen} hints with sliders");
        }
    }

    #[test]
    fn the_check_on_the_board_is_the_check_after_the_make() {
        for name in ["chess", "capablanca", "xiangqi", "minishogi", "grasshopper", "nightrider", "pawnsideways"] {
            let v = Variant::load(name, &[]).unwrap();
            assert!(v.plan.board_only != 0, "{name}");
            let (mut probed, mut checks, mut pseudo) = (0, 0, Vec::new());
            let (mut drops, mut promotions) = (0, 0);
            v.random_positions(13, 8, 120, |pos, _| {
                let me = pos.side();
                let Some(h) = v.royal_hint(pos, me).filter(|h| !h.complex) else { return };
                pseudo.clear();
                movegen::normal_moves(&v.rules, pos, &mut pseudo);
                if v.rules.promotion_choices {
                    movegen::expand_promotions(&v.rules, pos, &mut pseudo, 0);
                }
                for m in &pseudo {
                    let before = pos.clone();
                    let Some(on_board) = v.check_on_board(pos, m, &h) else { continue };
                    assert_eq!(*pos, before, "{name}: the board is put back");
                    let made = v.check_after_with(pos, m, me, None).unwrap();
                    assert_eq!(on_board, made, "{name}: {} in {}", m.text(&v.rules.geometry), pos.to_text(&v.rules));
                    probed += 1;
                    checks += on_board.is_some() as u32;
                    drops += m.dropped().is_some() as u32;
                    promotions += matches!(m.kind, MoveKind::Promote { .. }) as u32;
                }
            });
            assert!(probed > 1000 && checks > 20, "{name}: {probed} moves tested on the board, {checks} left a check");
            // Drops (Minishogi) and promotions by choice (the chess family) are tested too.
            assert!(drops + promotions > 20 || !matches!(name, "chess" | "minishogi"), "{name}: {drops} drops, {promotions} promotions");
        }
    }
}
