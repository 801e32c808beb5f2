//! The reference mode: every legal move listed through the simplest code, with no shortcut of
//! the [`crate::plan::Plan`]: each piece's moves generated one by one (with the hooks, as when
//! a hook runs), the capture policy applied to the whole list, and each rule that refuses a
//! move (check, a drop that may not mate) asked by playing the move in full and listing the
//! opponent's captures. No count on the cell sets, no board-only check test, no walk of placements.
//!
//! Slow by design: tests hold every shortcut equal to it on random positions of every shipped
//! variant, and `perft --reference` ([`crate::perft::perft_reference`]) exposes it.

use super::Variant;
use crate::movegen::{self, MoveList};
use crate::notation::Move;
use crate::piece::Player;
use crate::rules::NoMoves;
use crate::script::ScriptError;
use crate::state::Position;

impl Variant {
    /// The legal moves of `pos` by the reference path: the same set as
    /// [`Variant::legal_moves`] (the order may differ).
    ///
    /// # Errors
    /// A script hook failed.
    pub(crate) fn reference_moves(&self, pos: &mut Position, out: &mut MoveList) -> Result<(), ScriptError> {
        self.reference_list(pos, out, true)
    }

    /// [`Variant::reference_moves`]; `drop_mates`: test the drops that may not mate (a nested
    /// list, made to see whether a drop mates, does not test its own, as the kernel's does not).
    fn reference_list(&self, pos: &mut Position, out: &mut MoveList, drop_mates: bool) -> Result<(), ScriptError> {
        out.clear();
        if pos.result().is_some() {
            return Ok(());
        }
        if let Some(c) = pos.continuation() {
            out.extend_from_slice(&c.moves);
            if !c.normal {
                return Ok(());
            }
        }
        let start = out.len();
        // Castling and the promotion choices included.
        self.filtered_moves(pos, out, &mut Vec::new())?;
        if self.rules.may_pass && pos.continuation().is_none() {
            out.push(Move::PASS);
        }
        // The pie rule's swap, on the second player's first move.
        if pos.swap_open(&self.rules) {
            out.push(Move::SWAP);
        }
        let me = pos.side();
        let mut kept = Vec::with_capacity(out.len());
        for &m in &out[start..] {
            if !self.reference_refuses(pos, &m, me, drop_mates)? {
                kept.push(m);
            }
        }
        out.truncate(start);
        out.extend(kept);
        self.reference_ko(pos, out, start);
        if self.rules.facing {
            self.reference_facing(pos, out, start)?;
        }
        if self.rules.calm_forms {
            self.remove_calm_in_check(pos, out, start, None, &mut super::play::Judged::default());
        }
        movegen::late_policy(&self.rules, out, start);
        if pos.continuation().is_some() && start > 0 {
            movegen::dedup(out);
        }
        if out.is_empty() && self.reference_passes(pos)? {
            out.push(Move::PASS);
        }
        Ok(())
    }

    /// An end `facing`, read plainly: while the royal pieces face each other, every move but a
    /// pass is played and kept only if it parts them; the pass is listed even in check.
    fn reference_facing(&self, pos: &mut Position, out: &mut MoveList, start: usize) -> Result<(), ScriptError> {
        if pos.continuation().is_some() || !self.royals_facing(pos) {
            return Ok(());
        }
        let mut kept = Vec::new();
        for &m in &out[start..] {
            if m == Move::PASS {
                continue;
            }
            self.make(pos, &m)?;
            let parted = !self.royals_facing(pos);
            pos.undo();
            if parted {
                kept.push(m);
            }
        }
        kept.push(Move::PASS);
        out.truncate(start);
        out.extend(kept);
        Ok(())
    }

    /// Whether a rule refuses `m`, played by `me`: it leaves one of `me`'s royal pieces open to
    /// capture (`check = "illegal"`; not when it wins outright, nor while `me` decides again),
    /// it leaves the opponent's open to capture (`give_check = false`), or it is a drop that
    /// may not mate and mates.
    fn reference_refuses(&self, pos: &mut Position, m: &Move, me: Player, drop_mates: bool) -> Result<bool, ScriptError> {
        let guarded = drop_mates && m.dropped().is_some_and(|c| self.rules.pieces[c.index()].drop.as_ref().is_some_and(|d| d.no_mate));
        if !self.rules.check_illegal && !self.rules.no_giving_check && !guarded {
            return Ok(false);
        }
        if self.rules.check_illegal && m.gated().is_some() {
            // A gated piece does not shield its own king: the move without it is judged.
            self.make(pos, &m.without_gate())?;
            let won = pos.result().is_some_and(|r| r.winner == crate::outcome::Winner::Player(me));
            let exposed = !won && pos.side() != me && self.reference_royal_attacked(pos, me);
            pos.undo();
            if exposed {
                return Ok(true);
            }
        }
        let royals = self.reference_royals(pos, me);
        self.make(pos, m)?;
        let won = pos.result().is_some_and(|r| r.winner == crate::outcome::Winner::Player(me));
        // Where captures explode, a move may take the mover's own royal piece: never legal.
        let blasted = self.rules.captures.explode.is_some() && self.reference_royals(pos, me) < royals;
        let mut refused = self.rules.check_illegal && (blasted || !won && pos.side() != me && self.reference_royal_attacked(pos, me));
        // No check may be given: the opponent's royal pieces open to capture after the move.
        refused |= self.rules.no_giving_check && pos.side() != me && self.reference_royal_attacked(pos, me.other());
        if !refused && guarded && self.reference_royal_attacked(pos, me.other()) {
            let mut replies = Vec::new();
            let r = self.reference_list(pos, &mut replies, false);
            refused = r.is_ok() && replies.is_empty();
            if let Err(e) = r {
                pos.undo();
                return Err(e);
            }
        }
        pos.undo();
        Ok(refused)
    }

    /// Whether `me`'s opponent, were it to move now, has a move (the kernel's, hooks aside)
    /// that captures one of `me`'s royal pieces: every capture listed, none counted on sets.
    pub(crate) fn reference_royal_attacked(&self, pos: &mut Position, me: Player) -> bool {
        let royal = self.rules.royal_codes[me];
        if self.rules.captures.explode.is_some() {
            return self.reference_blast_attacked(pos, me);
        }
        if self.hook(crate::rules::Hook::AllowMove).is_some() {
            // Every capture of a royal piece listed, each asked of the script.
            let cells: Vec<u16> = self.royal_cells(pos, me).collect();
            return self.allowed_capture(pos, me.other(), |c| cells.contains(&c)).map_or(true, |a| a.is_some());
        }
        self.reference_captures_any(pos, me.other(), |code| royal >> code.index() & 1 != 0)
    }

    /// How many royal pieces `p` has on the board.
    fn reference_royals(&self, pos: &Position, p: Player) -> usize {
        self.royal_cells(pos, p).count()
    }

    /// [`Variant::reference_royal_attacked`] where captures explode: whether the opponent has
    /// a capture of one of `me`'s royal pieces after which (played by the kernel) it keeps all
    /// of its own royal pieces: a capture whose blast takes its own is none it may make.
    fn reference_blast_attacked(&self, pos: &mut Position, me: Player) -> bool {
        let (by, royal) = (me.other(), self.rules.royal_codes[me]);
        let mut moves = Vec::new();
        movegen::captures(&self.rules, pos.board_scratch(), by, &mut moves);
        movegen::quiet_moves(&self.rules, pos, by, &mut moves);
        let board = pos.board().to_vec();
        moves.retain(|m| m.victims().any(|c| royal >> board[c as usize].index() & 1 != 0));
        let (side, z) = (pos.side(), &self.rules.zobrist);
        pos.set_side(z, by);
        let before = self.reference_royals(pos, by);
        let found = moves.iter().any(|m| {
            pos.make_kernel(&self.rules, m);
            let kept = self.reference_royals(pos, by) == before;
            pos.undo();
            kept
        });
        pos.set_side(z, side);
        found
    }

    /// Whether `by`, were it to move now, has a move (hooks aside) that captures a piece for
    /// whose code `hit` holds.
    fn reference_captures_any(&self, pos: &mut Position, by: Player, hit: impl Fn(crate::piece::PieceCode) -> bool) -> bool {
        let mut moves = Vec::new();
        movegen::captures(&self.rules, pos.board_scratch(), by, &mut moves);
        movegen::quiet_moves(&self.rules, pos, by, &mut moves);
        let board = pos.board();
        moves.iter().any(|m| m.victims().any(|c| hit(board[c as usize])))
    }

    /// Whether the player to decide, having no move, passes: the first `no_moves` rule whose
    /// condition holds says pass, and (under the `passes` rule, unless its passes are played)
    /// the other player has a move.
    fn reference_passes(&self, pos: &mut Position) -> Result<bool, ScriptError> {
        let me = pos.side();
        let rule = self.rules.no_moves_rules().find(|&(_, _, kinds)| {
            kinds.is_none_or(|k| self.reference_captures_any(pos, me.other(), |code| code.is_of(me) && k.contains(code.kind())))
        });
        if !matches!(rule, Some((_, NoMoves::Pass, _))) {
            return Ok(false);
        }
        if self.rules.both_pass_rule().is_none() || pos.continuation().is_some() || self.rules.passes_played() {
            return Ok(true);
        }
        let z = &self.rules.zobrist;
        pos.set_side(z, me.other());
        let mut moves = Vec::new();
        let r = self.filtered_moves(pos, &mut moves, &mut Vec::new());
        pos.set_side(z, me);
        r.map(|()| !moves.is_empty())
    }
}
