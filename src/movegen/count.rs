//! Counting the legal moves without listing them (perft's last level, random play's pick, the
//! evaluation's mobility), and the move of a given index in the list's order.

use super::MoveList;
use super::chains::{Scratch, Tally, captures_into, count_chains_from, start_chain, tally_chains};
use super::drops::count_drops;
use super::finish::{PromotionSplit, expand_promotions};
use super::quiet::{THEN_SCRATCH, captures_from_forms, play_first_part, put_back, quiet_from, second_parts};
use crate::cellset::CellSet;
use crate::geometry::ZoneSet;
use crate::notation::Move;
use crate::piece::PieceCode;
use crate::piece::Player;
use crate::plan::Plan;
use crate::rules::movement::victim;
use crate::rules::setwise::{Sets, Setwise};
use crate::rules::{BoardView, Form, Identity, Ruleset, StepTargets, Then};
use crate::state::Position;

/// How many moves `quiet_first_parts` (tests only) would list, counted form by form without listing
/// them where a form allows (`scratch` is overwritten).
pub(crate) fn count_quiet_first_parts(rules: &Ruleset, pos: &Position, side: Player, scratch: &mut MoveList) -> usize {
    let (view, mut n) = (pos.view(), 0);
    for from in pos.cells_of(side) {
        n += first_parts_of(rules, pos, view, from, scratch);
    }
    n + count_drops(rules, pos, side, scratch) + sowings_of(rules, pos, side)
}

/// [`first_parts_of`] out of line: for the mobility's pieces the sets do not hold (the sets'
/// loop stays small where every piece is theirs).
#[inline(never)]
fn piece_first_parts(rules: &Ruleset, pos: &Position, from: u16, scratch: &mut MoveList) -> usize {
    first_parts_of(rules, pos, pos.view(), from, scratch)
}

/// The moves [`count_quiet_first_parts`] counts of the piece on `from`.
#[inline(always)]
fn first_parts_of(rules: &Ruleset, pos: &Position, view: BoardView<'_>, from: u16, scratch: &mut MoveList) -> usize {
    let code = pos.board()[from as usize];
    let pr = &rules.pieces[code.index()];
    if let Some(steps) = &pr.steps {
        return count_steps(steps, pos, from) as usize;
    }
    let own = pos.counts()[code.owner()];
    let avoid = pr.exit.as_ref().map_or(ZoneSet::EMPTY, |x| x.zone);
    let mut n = 0;
    for (form, &limit) in pr.quiet.iter().zip(&pr.limits) {
        if limit == u16::MAX || own as u64 <= limit as u64 {
            n += form.count(&rules.geometry, view, from, avoid, scratch);
        }
    }
    n
}

/// How many sowing moves `p` has (`[sowing]`; 0 without).
fn sowings_of(rules: &Ruleset, pos: &Position, p: Player) -> usize {
    let mut n = 0;
    if let Some(sw) = &rules.sowing {
        sw.moves(pos.seeds(), p, |_| n += 1);
    }
    n
}

/// The number of legal moves of the side to move, counted without listing them where the cell
/// sets can: every piece's forms are steps and short jumps (see [`crate::rules::setwise`]),
/// chains are told apart by their path, and no hook or other rule adds or removes moves (the
/// plan's [`Plan::counts_moves`]; `None` otherwise, and where the side has no move: then the
/// move list says). Chains are walked as
/// [`normal_moves`] walks them, but only counted.
pub(crate) fn count_moves(rules: &Ruleset, plan: &Plan, pos: &mut Position) -> Option<u64> {
    let (sw, sets) = counting_sets(rules, plan, pos)?;
    let side = pos.side();
    let stepped = sw.steps_or_jumpers(pos, &sets, side);
    let n = if let Some(Ok(steps)) = stepped {
        steps
    } else {
        // Some piece can jump, or some piece's forms are more than plain steps (slides, leaps,
        // steps that capture): chains are tallied and the other moves counted form by form,
        // where the policy keeps every move the forms make (a capture by landing counts as
        // any move unless captures are compulsory or maximal, which sort those out of a list).
        let pol = &rules.captures;
        if pol.identity == Identity::CapturedSet || (rules.landing_captures && (pol.compulsory || pol.maximum)) {
            return None;
        }
        let jumpers = match stepped {
            Some(Err(jumpers)) => Some(jumpers),
            _ => sw.jumpers(&sets, side),
        };
        let chains = match jumpers {
            Some(0) => 0,
            Some(jumpers) => tally_chains(rules, pos, side, jumpers, pol.maximum),
            None => {
                // A flying jump: every piece is tried, as the list does.
                let mut t = Tally { maximum: pol.maximum, best: 0, n: 0 };
                captures_into(rules, pos.board_scratch(), side, &mut t);
                t.n
            }
        };
        if pol.compulsory && chains > 0 {
            chains
        } else {
            let sets = sw.sets(pos)?;
            chains + count_quiet(rules, sw, pos, &sets, side)?
        }
    };
    (n > 0).then_some(n)
}

/// The cell sets that count the legal moves of `pos` (see [`count_moves`]), where the plan
/// lets them and the game goes on with a turn of its own (not a continuation).
#[inline]
fn counting_sets<'r, 'p>(rules: &'r Ruleset, plan: &Plan, pos: &'p Position) -> Option<(&'r Setwise, Sets<'p>)> {
    let sw = rules.setwise.as_ref()?;
    if !plan.counts_moves || pos.result().is_some() || pos.continuation().is_some() {
        return None;
    }
    Some((sw, sw.sets(pos)?))
}

/// The number of legal moves of the side to move where every one is a step to an empty cell
/// (no piece can capture), counted on the cell sets as [`count_moves`] counts them first (0:
/// no move); `None` otherwise. What a quiescence search asks of a quiet position: the list
/// would only be counted.
#[inline]
pub(crate) fn count_quiet_steps(rules: &Ruleset, plan: &Plan, pos: &Position) -> Option<u64> {
    let (sw, sets) = counting_sets(rules, plan, pos)?;
    sw.steps_or_jumpers(pos, &sets, pos.side())?.ok()
}

/// A legal list known by its length, without the list: what [`count_to_pick`] fills and
/// [`nth_move`] reads. Reused from one position to the next.
#[derive(Clone, Debug, Default)]
pub(crate) struct Counted {
    /// The number of legal moves.
    pub(crate) n: u64,
    /// The pieces that can jump.
    jumpers: u128,
    /// Each piece with a move and how many it has, in the list's order.
    shares: Vec<(u16, u32)>,
    /// Each cell's count of other moves while they are counted on the sets (all zero between
    /// counts: a cell is cleared as it is read).
    by_cell: Vec<u32>,
    /// Whether the moves were counted form by form, promotion choices included (no piece jumps).
    by_forms: bool,
    /// Counted form by form: whether the list holds only captures (a capture is compulsory and
    /// there is one).
    captures_only: bool,
}

impl Counted {
    /// Whether some piece of the side to move can jump (the list holds its capture chains).
    pub(crate) fn chains(&self) -> bool {
        self.jumpers != 0
    }

    /// Whether the list holds only captures (chains, or counted form by form captures by
    /// landing): a capture is compulsory and there is one.
    pub(crate) fn only_captures(&self, rules: &Ruleset) -> bool {
        rules.captures.compulsory && (self.chains() || self.captures_only)
    }
}

/// How many legal moves the side to move has, counted into `c` where [`nth_move`] can then
/// find any of them without the list. `false` where the list must be built instead: where
/// [`count_moves`] cannot count, where the most pieces must be taken, captured-set identity
/// merges chains or a jump flies (then the list depends on every piece's chains), and where
/// there is no move.
///
/// Each piece's share is kept, in the list's order. Where every piece's other moves are plain
/// steps, they are counted piece by piece on its table (a load and a count a piece: less than
/// the sets' shifts on a board past 64 cells); otherwise on the sets first, each piece's share
/// kept at its cell.
pub(crate) fn count_to_pick(rules: &Ruleset, plan: &Plan, pos: &mut Position, c: &mut Counted) -> bool {
    let Some(sw) = rules.setwise.as_ref() else { return false };
    let pol = &rules.captures;
    if pol.maximum || pol.identity == Identity::CapturedSet || pos.result().is_some() || pos.continuation().is_some() {
        return false;
    }
    if !plan.counts_moves || (rules.landing_captures && pol.compulsory) {
        return plan.counts_forms && count_by_forms(rules, pos, c);
    }
    (c.by_forms, c.captures_only) = (false, false);
    let side = pos.side();
    let Some(sets) = sw.sets(pos) else { return false };
    let Some(jumpers) = sw.jumpers(&sets, side) else { return false };
    c.jumpers = jumpers;
    c.shares.clear();
    c.n = 0;
    // (Counted on the sets, a list of only captures is one of only chains.)
    let only_chains = c.only_captures(rules);
    let plain = sw.plain;
    if !plain && !only_chains {
        c.by_cell.resize(CellSet::CAPACITY, 0); // one count per cell a set holds
        let count = |code, from| count_forms(rules, pos, PieceCode::from_index(code), from);
        if sw.count_quiet_by_cell(pos, &sets, side, &mut c.by_cell, count).is_none() {
            c.by_cell.fill(0);
            return false;
        }
    }
    let cells = if only_chains { jumpers } else { pos.occupied(side) };
    let mut s = Scratch::new();
    for from in CellSet::from_bits(cells) {
        let quiet = match (only_chains, plain) {
            (true, _) => 0,
            (false, true) => {
                let Some(k) = count_piece(rules, pos, pos.board()[from as usize], from) else { return false };
                k
            }
            (false, false) => std::mem::take(&mut c.by_cell[from as usize]) as u64,
        };
        let n = piece_chains(rules, pos, c, from, &mut s) + quiet;
        if n > 0 {
            c.shares.push((from, n as u32));
            c.n += n;
        }
    }
    c.n > 0
}

/// [`count_to_pick`] where no piece jumps or has a two-part turn: each piece's moves counted
/// form by form, those that capture apart, a move that promotes with a choice of kinds once
/// per choice; from the first piece with a capture on, only captures where they are
/// compulsory (as [`normal_moves`] and [`finish`] keep them). `false` where a form needs its
/// list (a walk) or there is no move.
pub(super) fn count_by_forms(rules: &Ruleset, pos: &Position, c: &mut Counted) -> bool {
    (c.jumpers, c.n, c.by_forms, c.captures_only) = (0, 0, true, false);
    c.shares.clear();
    let compulsory = rules.captures.compulsory;
    let board = pos.board();
    for from in CellSet::from_bits(pos.occupied(pos.side())) {
        let Some((quiet, captures)) = split_piece(rules, pos, board[from as usize], from) else { return false };
        if compulsory && captures > 0 && !c.captures_only {
            // The first capture: the list holds only captures, this piece's and the later ones'.
            c.captures_only = true;
            c.shares.clear();
            c.n = 0;
        }
        let n = if c.captures_only { captures } else { quiet + captures };
        if n > 0 {
            c.shares.push((from, n as u32));
            c.n += n;
        }
    }
    c.n > 0
}

/// The moves of the piece `code` on `from` (none of whose forms has a second part) as the
/// legal list holds them, counted apart: (those that do not capture, those that do), a move
/// that promotes with a choice of kinds once per choice (`None`: a form needs its list).
#[inline]
pub(super) fn split_piece(rules: &Ruleset, pos: &Position, code: PieceCode, from: u16) -> Option<(u64, u64)> {
    let pr = &rules.pieces[code.index()];
    let promotion = pr.promote.as_ref().filter(|p| !p.choices.is_empty());
    if promotion.is_none()
        && let Some(steps) = &pr.steps
    {
        return Some(split_steps(steps, pos, from));
    }
    let (g, view, own) = (&rules.geometry, pos.view(), pos.counts()[code.owner()]);
    let (mut quiet, mut captures) = (0, 0);
    for (form, &limit) in pr.quiet.iter().zip(&pr.limits) {
        if limit != u16::MAX && own as u64 > limit as u64 {
            continue;
        }
        match promotion {
            None => {
                let (q, c) = form.count_split(g, view, from)?;
                (quiet, captures) = (quiet + q as u64, captures + c as u64);
            }
            Some(promotion) => {
                let mut out = PromotionSplit { g, pos, promotion, quiet, captures };
                if !form.generate_out(g, view, from, &mut out) {
                    return None;
                }
                (quiet, captures) = (out.quiet, out.captures);
            }
        }
    }
    Some((quiet, captures))
}

/// The capture chains of the side to move's piece on `from`, counted (none unless it can jump).
#[inline(always)]
pub(super) fn piece_chains(rules: &Ruleset, pos: &mut Position, c: &Counted, from: u16, s: &mut Scratch) -> u64 {
    if c.jumpers >> from & 1 == 0 {
        return 0;
    }
    if rules.setwise.as_ref().is_some_and(|sw| sw.short_jumps) {
        let side = pos.side();
        return count_chains_from(rules, pos.board_scratch(), side, from);
    }
    let mut t = Tally { maximum: false, best: 0, n: 0 };
    let (code, side) = (pos.board()[from as usize], pos.side());
    start_chain(rules, pos.board_scratch(), side, from, code, s, &mut t);
    t.n
}

/// The move at `index` (below `c.n`) in the legal list of `pos`, as [`count_to_pick`] counted
/// it into `c`: the piece holding it is found from each piece's count in the order
/// [`normal_moves`] lists them (pieces by cell; a piece's capture chains, then its other
/// moves; only chains where a capture is compulsory and there is one), and only its moves are
/// listed, into `scratch`. What a random player asks: one move out of a list it never needs
/// whole.
///
/// # Panics
/// `index` is not below `c.n`, or `c` was counted for another position (callers draw the
/// index from `0..c.n` for the position they counted).
pub(crate) fn nth_move(rules: &Ruleset, pos: &mut Position, c: &Counted, index: u64, scratch: &mut MoveList) -> Move {
    let mut left = index;
    let mut at = None;
    for &(from, n) in &c.shares {
        if left < n as u64 {
            at = Some((from, n));
            break;
        }
        left -= n as u64;
    }
    let (from, n) = at.expect("an index below the count");
    scratch.clear();
    let (code, side) = (pos.board()[from as usize], pos.side());
    if c.by_forms {
        if c.captures_only {
            captures_from_forms(rules, pos, from, code, scratch);
        } else {
            quiet_from(rules, pos, from, code, scratch, true);
        }
        if rules.promotion_choices {
            expand_promotions(rules, pos, scratch, 0);
        }
        debug_assert_eq!(scratch.len(), n as usize, "a piece's count is the length of its list");
        return scratch[left as usize];
    }
    if c.jumpers >> from & 1 != 0 {
        start_chain(rules, pos.board_scratch(), side, from, code, &mut Scratch::new(), scratch);
    }
    if !c.only_captures(rules) {
        if (left as usize) >= scratch.len() && rules.pieces[code.index()].thens.iter().any(Option::is_some) {
            // A two-part turn's moves are many: the one wanted is found by counts.
            return nth_quiet(rules, pos, from, code, left - scratch.len() as u64, scratch);
        }
        quiet_from(rules, pos, from, code, scratch, true);
    }
    debug_assert_eq!(scratch.len(), n as usize, "a piece's count is the length of its list");
    scratch[left as usize]
}

/// The non-chaining move at `index` of the piece `code` on `from`, as [`quiet_from`] lists
/// them: forms and a two-part turn's first parts are passed over by their counts, and only the
/// second parts of the first part that holds the move are listed. `scratch` is overwritten.
pub(super) fn nth_quiet(rules: &Ruleset, pos: &Position, from: u16, code: PieceCode, index: u64, scratch: &mut MoveList) -> Move {
    let pr = &rules.pieces[code.index()];
    let own = pos.counts()[code.owner()];
    let avoid = pr.exit.as_ref().map_or(ZoneSet::EMPTY, |x| x.zone);
    let (g, view) = (&rules.geometry, pos.view());
    let (firsts, mut board, mut reach) = THEN_SCRATCH.take();
    board.clear();
    board.extend_from_slice(pos.board());
    let mut left = index;
    let mut found = None;
    'forms: for (form, (&limit, then)) in pr.quiet.iter().zip(pr.limits.iter().zip(&pr.thens)) {
        if limit != u16::MAX && own as u64 > limit as u64 {
            continue;
        }
        scratch.clear();
        form.generate(g, view, from, avoid, scratch);
        let Some(then) = then else {
            if left < scratch.len() as u64 {
                found = Some((scratch[left as usize], None));
                break;
            }
            left -= scratch.len() as u64;
            continue;
        };
        for &m in scratch.iter() {
            let n = count_second_parts_of(rules, pos, code, then, m, &mut board, &mut reach);
            if left < n {
                found = Some((m, Some(then)));
                break 'forms;
            }
            left -= n;
        }
    }
    THEN_SCRATCH.set((firsts, board, reach));
    match found.expect("an index below the piece's count") {
        (m, None) => m,
        (first, Some(then)) => {
            scratch.clear();
            scratch.push(first);
            second_parts(rules, pos, code, then, 0, scratch);
            scratch[left as usize]
        }
    }
}

/// The non-chaining moves of the piece `code` on `from`, as [`quiet_from`] would list them,
/// counted (`None` where a form needs its list: a walk).
#[inline(always)]
pub(super) fn count_piece(rules: &Ruleset, pos: &Position, code: PieceCode, from: u16) -> Option<u64> {
    match &rules.pieces[code.index()].steps {
        Some(steps) => Some(count_steps(steps, pos, from)),
        None => count_forms(rules, pos, code, from),
    }
}

/// The moves of a piece on `from` whose quiet forms are all steps ([`PieceRules::steps`]),
/// counted: on its cell set where it has one (the empty cells, and the occupied ones holding
/// a piece it captures), else target by target.
#[inline(always)]
pub(super) fn count_steps(steps: &StepTargets, pos: &Position, from: u16) -> u64 {
    let (quiet, captures) = split_steps(steps, pos, from);
    quiet + captures
}

/// [`count_steps`] counted apart: (the steps to empty cells, the captures).
#[inline(always)]
pub(super) fn split_steps(steps: &StepTargets, pos: &Position, from: u16) -> (u64, u64) {
    let board = pos.board();
    let Some(sets) = &steps.sets else {
        let (mut quiet, mut captures) = (0, 0);
        for &to in steps.targets.get(from) {
            let there = board[to as usize];
            quiet += there.is_empty() as u64;
            captures += (!there.is_empty() && victim(there, steps.capture)) as u64;
        }
        return (quiet, captures);
    };
    let (set, occupied) = (sets[from as usize], pos.occupied_cells());
    let mut captures = 0;
    if steps.capture != 0 {
        for c in CellSet::from_bits(set & occupied) {
            captures += victim(board[c as usize], steps.capture) as u64;
        }
    }
    ((set & !occupied).count_ones() as u64, captures)
}

/// The non-chaining moves of the piece `code` on `from`, counted form by form through each
/// form's own generator, a two-part turn first part by first part (`None` where a form needs
/// its list: a walk).
#[inline]
pub(super) fn count_forms(rules: &Ruleset, pos: &Position, code: PieceCode, from: u16) -> Option<u64> {
    let pr = &rules.pieces[code.index()];
    let own = pos.counts()[code.owner()];
    let view = pos.view();
    let mut n = 0;
    for (form, (&limit, then)) in pr.quiet.iter().zip(pr.limits.iter().zip(&pr.thens)) {
        if limit == u16::MAX || own as u64 <= limit as u64 {
            n += match then {
                Some(then) => count_second_parts(rules, pos, code, from, form, then),
                None => form.count_listless(&rules.geometry, view, from)? as u64,
            };
        }
    }
    Some(n)
}

/// The moves of a two-part turn by the piece `code` on `from` whose first part is `form`, as
/// [`second_parts`] would list them, counted: each first part's second parts counted from its
/// landing ([`count_second_parts_of`]).
pub(super) fn count_second_parts(rules: &Ruleset, pos: &Position, code: PieceCode, from: u16, form: &Form, then: &Then) -> u64 {
    let (mut firsts, mut board, mut reach) = THEN_SCRATCH.take();
    let pr = &rules.pieces[code.index()];
    let avoid = pr.exit.as_ref().map_or(ZoneSet::EMPTY, |x| x.zone);
    firsts.clear();
    form.generate(&rules.geometry, pos.view(), from, avoid, &mut firsts);
    board.clear();
    board.extend_from_slice(pos.board());
    let n = firsts.iter().map(|&m| count_second_parts_of(rules, pos, code, then, m, &mut board, &mut reach)).sum();
    THEN_SCRATCH.set((firsts, board, reach));
    n
}

/// How many second parts [`second_parts`] would list after the first part `m` of the piece
/// `code`: `m` played on `board` (a copy of the position's, put back after), and the second
/// part's moves counted from its landing. `reach` is overwritten.
pub(super) fn count_second_parts_of(
    rules: &Ruleset,
    pos: &Position,
    code: PieceCode,
    then: &Then,
    m: Move,
    board: &mut [PieceCode],
    reach: &mut MoveList,
) -> u64 {
    if !super::quiet::in_hand(pos, then, code.owner()) {
        return 0;
    }
    let Some((to, occupied)) = play_first_part(pos, code, m, board) else { return 0 };
    let n = then.form.count(&rules.geometry, BoardView { board, occupied, ..pos.view() }, to, ZoneSet::EMPTY, reach) as u64;
    put_back(pos, m, to, board);
    n
}

/// `side`'s non-chaining moves, counted: on the cell sets for the piece codes whose forms are
/// plain steps, form by form for the others (`None` where a form needs its list built: a walk).
pub(super) fn count_quiet(
    rules: &Ruleset,
    sw: &crate::rules::setwise::Setwise,
    pos: &Position,
    sets: &Sets<'_>,
    side: Player,
) -> Option<u64> {
    sw.count_quiet(pos, sets, side, |code, from| count_forms(rules, pos, PieceCode::from_index(code), from))
}

/// How many moves `p` would have here counting every step, capture chain and drop whatever the
/// capture policy (the kernel's moves, hooks aside: what the evaluation's mobility counts, the
/// moves [`captures`] and [`count_quiet_first_parts`] find). Counted on the cell sets where
/// they allow, else chains are walked without being built; `scratch` is overwritten.
pub(crate) fn mobility(rules: &Ruleset, pos: &mut Position, p: Player, scratch: &mut MoveList) -> usize {
    // The pieces of codes the sets hold whole are counted on them, the others form by form.
    if let Some(sw) = rules.setwise.as_ref()
        && let Some(sets) = sw.sets(pos)
        && let Some(jumpers) = sw.jumpers(&sets, p)
        && let Some(quiet) = sw.count_quiet(pos, &sets, p, |_, from| Some(piece_first_parts(rules, pos, from, scratch) as u64))
    {
        let quiet = quiet as usize;
        let drops = if sw.no_drops { 0 } else { count_drops(rules, pos, p, scratch) };
        return quiet + tally_chains(rules, pos, p, jumpers, false) as usize + drops + sowings_of(rules, pos, p);
    }
    let mut t = Tally { maximum: false, best: 0, n: 0 };
    captures_into(rules, pos.board_scratch(), p, &mut t);
    t.n as usize + count_quiet_first_parts(rules, pos, p, scratch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// What the evaluation's mobility counted before the cell sets held slides and en passant:
    /// every chain walked, every piece's forms counted one by one.
    fn mobility_by_forms(rules: &Ruleset, pos: &mut Position, p: Player) -> usize {
        let mut t = Tally { maximum: false, best: 0, n: 0 };
        captures_into(rules, pos.board_scratch(), p, &mut t);
        t.n as usize + count_quiet_first_parts(rules, pos, p, &mut Vec::new())
    }

    /// The mobility on the cell sets is the count form by form, for both players, over random
    /// positions of every shipped variant and positions set up with an en passant capture open
    /// (taken by one pawn, by two, or by none: the piece that passed is not a victim); it fails
    /// when a slide's capture, a pawn's double step or an en passant capture is not counted.
    #[test]
    fn mobility_on_the_sets_is_the_count_form_by_form() {
        let mut on_sets = 0;
        for name in crate::variant::shipped_names() {
            let v = Variant::load(&name, &[]).unwrap();
            let mut positions = 0;
            v.random_positions(5, 8, 80, |pos, _| {
                for p in Player::both() {
                    let by_forms = mobility_by_forms(&v.rules, pos, p);
                    assert_eq!(mobility(&v.rules, pos, p, &mut Vec::new()), by_forms, "{name}: {p:?} at {}", pos.to_text(&v.rules));
                }
                positions += 1;
            });
            assert!(positions > 20, "{name}: only {positions} positions");
            on_sets +=
                v.rules.setwise.as_ref().is_some_and(|sw| sw.codes.iter().any(|c| c.steps.as_ref().is_some_and(|s| !s.rays.is_empty())))
                    as u32;
        }
        assert!(on_sets >= 5, "slides are counted on the sets in only {on_sets} variants");
        let chess = Variant::load("chess", &[]).unwrap();
        // After e2-e4 (d5 and f5 black pawns may take e3), after d2-d4 with nothing beside it,
        // and a rook on d3 (a capture on its ray, and a blocked pawn).
        for (fen, ep) in [
            ("rnbqkbnr/pppp1p1p/8/8/3pPp2/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", 2),
            ("rnbqkbnr/ppp1pppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1", 0),
            ("4k3/8/8/8/3pP3/3R4/8/4K3 b - e3 0 1", 1),
        ] {
            let mut pos = crate::fen::read(&chess.rules, fen).unwrap();
            let p = pos.side();
            let mut list = Vec::new();
            crate::movegen::captures(&chess.rules, pos.board_scratch(), p, &mut list);
            crate::movegen::quiet_first_parts(&chess.rules, &pos, p, &mut list);
            assert_eq!(list.iter().filter(|m| m.victims().any(|c| Some(c) != m.to())).count(), ep, "{fen}");
            assert_eq!(mobility(&chess.rules, &mut pos, p, &mut Vec::new()), list.len(), "{fen}");
            assert_eq!(mobility_by_forms(&chess.rules, &mut pos, p), list.len(), "{fen}");
        }
    }

    /// A capturing step with a piece-count limit (`own_pieces_at_most`) is counted only while
    /// the limit holds, on the sets as form by form: a king that steps only while its side has
    /// at most three pieces, beside an enemy pawn, with two, three and four pieces.
    #[test]
    fn a_limited_capturing_step_counts_only_under_its_limit() {
        let text = include_str!("../../variants/chess/variant.toml");
        let step = "moves = [{ step = \"all\", capture = true }]";
        assert!(text.contains(step));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("variant.toml"),
            text.replacen(step, "moves = [{ step = \"all\", capture = true, own_pieces_at_most = 3 }]", 1),
        )
        .unwrap();
        let v = Variant::load(dir.path().to_str().unwrap(), &[]).unwrap();
        for (fen, king) in
            [("4k3/8/8/8/8/8/P2p4/4K3 w - - 0 1", 5), ("4k3/8/8/8/8/8/PP1p4/4K3 w - - 0 1", 5), ("4k3/8/8/8/8/8/PPPp4/4K3 w - - 0 1", 0)]
        {
            let mut pos = crate::fen::read(&v.rules, fen).unwrap();
            // The pawns' moves on their start rank: one or two steps each.
            let pawns = 2 * (pos.counts()[Player::FIRST] as usize - 1);
            assert_eq!(mobility_by_forms(&v.rules, &mut pos, Player::FIRST), pawns + king, "{fen}");
            assert_eq!(mobility(&v.rules, &mut pos, Player::FIRST, &mut Vec::new()), pawns + king, "{fen}");
        }
        v.random_positions(2, 6, 80, |pos, _| {
            for p in Player::both() {
                assert_eq!(
                    mobility(&v.rules, pos, p, &mut Vec::new()),
                    mobility_by_forms(&v.rules, pos, p),
                    "at {}",
                    pos.to_text(&v.rules)
                );
            }
        });
    }
}
