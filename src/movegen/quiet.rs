//! The moves that capture nothing by jumping: each piece's movement forms (captures by landing
//! among them), two-part turns, and whether any move exists at all.

use super::MoveList;
use super::drops::drops;
use crate::cellset::CellSet;
use crate::geometry::ZoneSet;
use crate::notation::Move;
use crate::piece::PieceCode;
use crate::piece::Player;
use crate::rules::movement::victim;
use crate::rules::{BoardView, Ruleset, Then};
use crate::state::Position;

/// Appends the non-chaining moves (steps, slides, leaps, replacement captures, leaving the
/// board, drops) of `side`.
pub(crate) fn quiet_moves(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList) {
    quiet_moves_of(rules, pos, side, out, true);
}

/// [`quiet_moves`], with each two-part turn's first part once, however many second parts it
/// has (what the evaluation's mobility counts: Amazons' queen moves, not the ~2000 turns). The
/// evaluation counts them with [`count_quiet_first_parts`]; tests compare the two.
#[cfg(test)]
pub(crate) fn quiet_first_parts(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList) {
    quiet_moves_of(rules, pos, side, out, false);
}

pub(super) fn quiet_moves_of(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList, whole: bool) {
    for from in pos.cells_of(side) {
        quiet_from(rules, pos, from, pos.board()[from as usize], out, whole);
    }
    drops(rules, pos, side, out);
    sowings(rules, pos, side, out);
}

/// Appends `side`'s sowing moves (`[sowing]`), in the order of its pits.
#[inline]
pub(crate) fn sowings(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList) {
    if let Some(sw) = &rules.sowing {
        sw.moves(pos.seeds(), side, |c| out.push(Move::sow(c)));
    }
}

/// Appends the non-chaining moves of the piece `code` on `from`: each of its forms that
/// applies at the owner's piece count (two-part turns whole, or only their first parts).
#[inline]
pub(super) fn quiet_from(rules: &Ruleset, pos: &Position, from: u16, code: PieceCode, out: &mut MoveList, whole: bool) {
    let pr = &rules.pieces[code.index()];
    if let Some(steps) = &pr.steps {
        let board = pos.board();
        for &to in steps.targets.get(from) {
            let there = board[to as usize];
            if there.is_empty() {
                out.push(Move::quiet(from, to));
            } else if victim(there, steps.capture) {
                out.push(Move::replace(from, to));
            }
        }
        return;
    }
    let own = pos.counts()[code.owner()];
    // A walk does not pass through a cell where its piece leaves the game.
    let avoid = pr.exit.as_ref().map_or(ZoneSet::EMPTY, |x| x.zone);
    let board = pos.view();
    if pr.unconditional {
        for form in &pr.quiet {
            form.generate(&rules.geometry, board, from, avoid, out);
        }
        return;
    }
    for (i, (form, &limit)) in pr.quiet.iter().zip(&pr.limits).enumerate() {
        if limit == u16::MAX || own as u64 <= limit as u64 {
            match &pr.thens[i] {
                Some(then) if whole => {
                    let start = out.len();
                    form.generate(&rules.geometry, board, from, avoid, out);
                    second_parts(rules, pos, code, then, start, out);
                }
                _ => form.generate(&rules.geometry, board, from, avoid, out),
            }
        }
    }
}

/// The captures by landing among the moves [`quiet_from`] lists for the piece `code` on
/// `from` (no form of which has a second part), in the same order.
pub(super) fn captures_from_forms(rules: &Ruleset, pos: &Position, from: u16, code: PieceCode, out: &mut MoveList) {
    let pr = &rules.pieces[code.index()];
    if let Some(steps) = &pr.steps {
        let board = pos.board();
        let takes = |&&to: &&u16| !board[to as usize].is_empty() && victim(board[to as usize], steps.capture);
        out.extend(steps.targets.get(from).iter().filter(takes).map(|&to| Move::replace(from, to)));
        return;
    }
    let (own, view) = (pos.counts()[code.owner()], pos.view());
    for (form, &limit) in pr.quiet.iter().zip(&pr.limits) {
        if limit == u16::MAX || own as u64 <= limit as u64 {
            form.generate_captures(&rules.geometry, view, from, out);
        }
    }
}

/// Whether `side` has a non-capturing move (a two-part turn only where it has a second part),
/// stopping at the first: how a search of a game without captures tells a finished position
/// from one to evaluate without listing every move. `scratch` is overwritten.
pub(crate) fn has_quiet_move(rules: &Ruleset, pos: &Position, side: Player, scratch: &mut MoveList) -> bool {
    if rules.sowing.as_ref().is_some_and(|sw| sw.can_move(pos.seeds(), side)) {
        return true;
    }
    let own = pos.counts()[side];
    let board = pos.view();
    for from in pos.cells_of(side) {
        let code = pos.board()[from as usize];
        let pr = &rules.pieces[code.index()];
        let avoid = pr.exit.as_ref().map_or(ZoneSet::EMPTY, |x| x.zone);
        for (i, (form, &limit)) in pr.quiet.iter().zip(&pr.limits).enumerate() {
            if limit != u16::MAX && own as u64 > limit as u64 {
                continue;
            }
            scratch.clear();
            form.generate(&rules.geometry, board, from, avoid, scratch);
            match &pr.thens[i] {
                None if !scratch.is_empty() => return true,
                None => {}
                Some(then) => {
                    for m in std::mem::take(scratch) {
                        scratch.clear();
                        scratch.push(m);
                        second_parts(rules, pos, code, then, 0, scratch);
                        if !scratch.is_empty() {
                            return true;
                        }
                    }
                }
            }
        }
    }
    scratch.clear();
    drops(rules, pos, side, scratch);
    !scratch.is_empty()
}

/// The buffers of [`second_parts`] (and of their counts): the first parts, a board, the second
/// parts' reach.
pub(super) type ThenScratch = (Vec<Move>, Vec<PieceCode>, MoveList);

thread_local! {
    /// Kept between calls so that two-part turns allocate nothing once the buffers have grown.
    pub(super) static THEN_SCRATCH: std::cell::Cell<ThenScratch> = const { std::cell::Cell::new((Vec::new(), Vec::new(), Vec::new())) };
}

/// Replaces each move of `out[start..]` by the two-part turns it begins: the move, then a
/// piece of `then.code` placed on each cell `then.form` reaches from the landing, on the board
/// as the move leaves it (its start empty, the piece on its landing, its victims gone).
#[cold]
pub(super) fn second_parts(rules: &Ruleset, pos: &Position, code: PieceCode, then: &Then, start: usize, out: &mut MoveList) {
    if !in_hand(pos, then, code.owner()) {
        out.truncate(start);
        return;
    }
    let (mut firsts, mut board, mut reach) = THEN_SCRATCH.take();
    firsts.clear();
    firsts.extend(out.drain(start..));
    board.clear();
    board.extend_from_slice(pos.board());
    let view = pos.view();
    for &m in &firsts {
        let Some((to, occupied)) = play_first_part(pos, code, m, &mut board) else { continue };
        reach.clear();
        then.form.generate(&rules.geometry, BoardView { board: &board, occupied, ..view }, to, ZoneSet::EMPTY, &mut reach);
        out.extend(reach.iter().filter_map(|r| r.to()).map(|at| m.then_place(then.code, at)));
        put_back(pos, m, to, &mut board);
    }
    THEN_SCRATCH.set((firsts, board, reach));
}

/// Whether `owner` has the piece a second part places: always, unless it comes from a hand
/// that holds none.
#[inline]
pub(super) fn in_hand(pos: &Position, then: &Then, owner: crate::piece::Player) -> bool {
    then.hand.is_none_or(|slot| pos.counter(owner, slot) > 0)
}

/// Plays the first part `m` of a two-part turn by the piece `code` on `board`, a copy of
/// `pos`'s: its victims and its start emptied, the piece on its landing. The landing and the
/// occupied cells after it (`None`: the move has no landing); [`put_back`] undoes it.
#[inline]
pub(super) fn play_first_part(pos: &Position, code: PieceCode, m: Move, board: &mut [PieceCode]) -> Option<(u16, u128)> {
    let to = m.to()?;
    for c in m.victims() {
        board[c as usize] = PieceCode::EMPTY;
    }
    board[m.from as usize] = PieceCode::EMPTY;
    board[to as usize] = code;
    let lifted: CellSet = m.victims().chain([m.from]).collect();
    Some((to, (CellSet::from_bits(pos.view().occupied) - lifted).with(to).bits()))
}

/// Puts back on `board` the cells [`play_first_part`] changed for `m` (landing `to`).
#[inline]
pub(super) fn put_back(pos: &Position, m: Move, to: u16, board: &mut [PieceCode]) {
    for c in m.victims().chain([m.from, to]) {
        board[c as usize] = pos.board()[c as usize];
    }
}
