//! Pushing enemy pieces back (`push = { … }` on a piece kind): after a move of such a piece the
//! kernel sends enemy pieces back along the landing's file (a column attack) or from beside the
//! landing (a contact attack), and hands out the choices this creates as continuations.
//! Pyramida's attacks are one set of these settings.
//!
//! The order of an attack, after a move of a pushing piece that stays on the board (and, with
//! `forward_only`, goes forward):
//! 1. **Column** (`column`): the landing's file holds exactly one enemy piece and exactly one
//!    other piece of the mover's, behind the enemy one (from the enemy's point of view), and the
//!    mover came from another file: the enemy piece goes back to an empty cell of the file. If
//!    there is none the column attack *fails*.
//! 2. **Contact**, when no column attack was made: the enemy pieces on the `contact` neighbours
//!    of the landing are the victims, in byte order of their cells' names. Each may retreat one
//!    cell along a `retreat` direction to an empty cell (its owner's last piece up to
//!    `last_piece_retreat` cells, the cells passed empty); one with nowhere to go is *blocked*.
//!    One victim retreats (`victims = "one"`: one choice happens at once, several are a
//!    decision) or every victim that can, in turn (`all`).
//! 3. An attack that moved nothing, though it had a target (a failed column, or only blocked
//!    victims), earns the mover an extra move with `blocked = "extra_move"`.

use super::{Choices, Continuation, ContinuationKind, Position};
use crate::geometry::NONE;
use crate::notation::{Move, MoveKind};
use crate::piece::Player;
use crate::rules::{Chooser, ColumnRetreat, MoveEffects, Push, Ruleset};
use std::sync::Arc;

impl Push {
    /// The tag of a continuation of this kind (shared: handing one out allocates nothing).
    fn tag(&self, kind: ContinuationKind) -> Arc<str> {
        match kind {
            ContinuationKind::Extra => self.tags.0.clone(),
            ContinuationKind::RetreatFrom(c) => self.tags.2[c as usize].clone(),
            _ => self.tags.1.clone(),
        }
    }
}

/// The continuation before a move, as a push reads it: its kind, and whether the move was one of
/// its listed choices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prior {
    pub(crate) kind: ContinuationKind,
    pub(crate) listed: bool,
}

/// Victims, at most 8 (one per contact direction), and how many.
type Cells = ([u16; 8], usize);

/// The push after `mv`, whose kernel part is done (`fx`); `turn` is the player whose turn the
/// move belongs to, `prior` the continuation it was made in.
pub(crate) fn after_move(pos: &mut Position, rules: &Ruleset, mv: &Move, fx: &MoveEffects, prior: Option<Prior>, turn: Player) {
    if let Some(p) = prior {
        match (p.kind, p.listed) {
            // A retreat was chosen; with `victims = "all"` the next victims follow.
            (ContinuationKind::RetreatFrom(at), true) => return resume(pos, rules, mv, at, turn),
            (ContinuationKind::Retreat, true) => return,
            _ if mv.kind == MoveKind::Pass => return,
            _ => {}
        }
    }
    if fx.to == NONE || fx.new_code.is_empty() {
        return;
    }
    let Some(push) = &rules.pieces[fx.new_code.index()].push else { return };
    if prior.is_some() && !push.in_continuation {
        return;
    }
    if push.forward_only {
        let g = &rules.geometry;
        let rank = |c: u16| g.coords(crate::geometry::Cell(c)).1 as i32;
        if mv.from == NONE || (rank(fx.to) - rank(mv.from)) * push.forward as i32 <= 0 {
            return;
        }
    }
    attack(pos, rules, push, mv.from, fx.to, fx.new_code.owner(), turn);
}

#[derive(PartialEq)]
enum Column {
    None,
    Done,
    Failed,
}

fn attack(pos: &mut Position, rules: &Ruleset, push: &Push, from: u16, to: u16, me: Player, turn: Player) {
    let enemy = me.other();
    let column = column_attack(pos, rules, push, from, to, me);
    if column == Column::Done {
        return;
    }
    let mut choices = Choices::new();
    let mut blocked = 0;
    let (vs, n) = victims(pos, push, to, enemy);
    for &v in &vs[..n] {
        let rs = retreats(pos, push, v);
        if rs.is_empty() {
            blocked += 1;
        }
        choices.extend(rs.iter().map(|&r| Move::quiet(v, r)));
    }
    if choices.is_empty() {
        if (blocked > 0 || column == Column::Failed) && push.extra_move {
            extra_move(pos, rules, push, me, turn);
        }
        return;
    }
    if push.all_victims {
        return push_all(pos, rules, push, to, me, None, false, false, turn);
    }
    let z = &rules.zobrist;
    match push.chooser {
        // The victims' owner picks; the attacker gets no extra move.
        Chooser::Owner if choices.len() == 1 => pos.relocate(z, choices[0].from, choices[0].landings()[0]),
        Chooser::Owner => continuation(pos, rules, push, enemy, turn, ContinuationKind::Retreat, choices, false),
        Chooser::Attacker if choices.len() == 1 && blocked == 0 => pos.relocate(z, choices[0].from, choices[0].landings()[0]),
        // The retreats, and with a blocked victim every normal move (the extra move) too.
        Chooser::Attacker => {
            let normal = blocked > 0 && push.extra_move;
            continuation(pos, rules, push, me, turn, ContinuationKind::Retreat, choices, normal);
        }
    }
}

/// The column attack of `me`'s piece that moved from `from` to `to`.
fn column_attack(pos: &mut Position, rules: &Ruleset, push: &Push, from: u16, to: u16, me: Player) -> Column {
    let Some(how) = push.column else { return Column::None };
    let cells = push.file.get(to);
    let board = pos.board();
    // The one enemy piece and the one other piece of the mover's in the file, by index in it.
    let (mut theirs, mut mine) = (None, None);
    for (i, &c) in cells.iter().enumerate() {
        let code = board[c as usize];
        if code.is_empty() || c == to {
            continue;
        }
        let slot = if code.owner() == me { &mut mine } else { &mut theirs };
        if slot.is_some() {
            return Column::None;
        }
        *slot = Some(i);
    }
    // A piece moving within the file is not another piece entering it.
    if from != NONE && cells.contains(&from) {
        return Column::None;
    }
    let (Some(theirs), Some(mine)) = (theirs, mine) else { return Column::None };
    if mine > theirs {
        return Column::None;
    }
    let empty = |i: &usize| board[cells[*i] as usize].is_empty();
    let target = match how {
        ColumnRetreat::LowestEmptyBelow => (0..theirs).find(empty),
        ColumnRetreat::LowestOnly => Some(0).filter(empty),
        ColumnRetreat::LowestEmptyAny => (0..cells.len()).find(empty),
    };
    match target {
        Some(t) => {
            pos.relocate(&rules.zobrist, cells[theirs], cells[t]);
            Column::Done
        }
        None => Column::Failed,
    }
}

/// `enemy`'s pieces beside `at` that a contact attack reaches, in byte order of their names.
fn victims(pos: &Position, push: &Push, at: u16, enemy: Player) -> Cells {
    let (mut out, mut n) = ([NONE; 8], 0);
    let board = pos.board();
    for &c in push.contact.get(at) {
        let code = board[c as usize];
        if code.is_empty() || code.owner() != enemy || n == out.len() {
            continue;
        }
        if push.edge_immune && push.retreat.iter().all(|next| next[c as usize] == NONE) {
            continue;
        }
        out[n] = c;
        n += 1;
    }
    out[..n].sort_unstable_by_key(|&c| push.order[c as usize]);
    (out, n)
}

/// The empty cells the piece on `v` may retreat to (a last piece may have up to 8 directions
/// × 30 cells: inline up to 16, never cut short).
fn retreats(pos: &Position, push: &Push, v: u16) -> smallvec::SmallVec<[u16; 16]> {
    let mut out = smallvec::SmallVec::new();
    let board = pos.board();
    let last = pos.counts()[board[v as usize].owner()] == 1;
    let reach = if last { push.last_piece_retreat } else { 1 };
    for next in &push.retreat {
        let mut c = v;
        for _ in 0..reach {
            c = next[c as usize];
            if c == NONE || !board[c as usize].is_empty() {
                break;
            }
            out.push(c);
        }
    }
    out
}

/// `victims = "all"`: every victim beside `at` after `after` (in byte order) that can retreat
/// does; a victim with two or more cells is a decision (the attacker's, or with `chooser =
/// "owner"` the owner's), and the rest follow it; at the end a blocked victim earns the extra
/// move (unless the owner chose and some victim retreated).
#[allow(clippy::too_many_arguments)]
fn push_all(
    pos: &mut Position,
    rules: &Ruleset,
    push: &Push,
    at: u16,
    attacker: Player,
    after: Option<u16>,
    mut blocked: bool,
    mut retreated: bool,
    turn: Player,
) {
    let owner_picks = push.chooser == Chooser::Owner;
    let (vs, n) = victims(pos, push, at, attacker.other());
    for &v in &vs[..n] {
        if after.is_some_and(|a| push.order[v as usize] <= push.order[a as usize]) {
            continue;
        }
        let rs = retreats(pos, push, v);
        match rs.len() {
            0 => blocked = true,
            1 => {
                pos.relocate(&rules.zobrist, v, rs[0]);
                retreated = true;
            }
            _ => {
                let choices = rs.iter().map(|&r| Move::quiet(v, r)).collect();
                let chooser = if owner_picks { attacker.other() } else { attacker };
                return continuation(pos, rules, push, chooser, turn, ContinuationKind::RetreatFrom(at), choices, false);
            }
        }
    }
    if blocked && !(owner_picks && retreated) && push.extra_move {
        extra_move(pos, rules, push, attacker, turn);
    }
}

/// A retreat chosen in a `retreat_from` continuation: the victims after it follow.
fn resume(pos: &mut Position, rules: &Ruleset, mv: &Move, at: u16, turn: Player) {
    let Some(to) = mv.to() else { return };
    let (code, attacking) = (pos.board()[to as usize], pos.board()[at as usize]);
    if code.is_empty() || attacking.is_empty() {
        return;
    }
    let Some(push) = &rules.pieces[attacking.index()].push else { return };
    let attacker = code.owner().other();
    // A victim before the one just moved that could not retreat still earns the extra move.
    let (vs, n) = victims(pos, push, at, code.owner());
    let blocked = vs[..n].iter().any(|&v| push.order[v as usize] < push.order[mv.from as usize] && retreats(pos, push, v).is_empty());
    push_all(pos, rules, push, at, attacker, Some(mv.from), blocked, true, turn);
}

fn extra_move(pos: &mut Position, rules: &Ruleset, push: &Push, me: Player, turn: Player) {
    continuation(pos, rules, push, me, turn, ContinuationKind::Extra, Choices::new(), true);
}

/// Hands `player` a decision within `turn`'s turn.
#[allow(clippy::too_many_arguments)]
fn continuation(
    pos: &mut Position,
    rules: &Ruleset,
    push: &Push,
    player: Player,
    turn: Player,
    kind: ContinuationKind,
    moves: Choices,
    normal: bool,
) {
    let tag = push.tag(kind);
    let z = &rules.zobrist;
    pos.set_continuation(z, Some(Continuation { player, turn, tag, kind, moves, normal }));
    pos.set_side(z, player);
}
