//! Legal moves: the compiled movement forms, capture chains and the capture policy; and, for a
//! move that is not legal, the reason why in terms of the rules.
//!
//! Generation reads only the [`Ruleset`]'s tables and the board: no strings, no allocation
//! beyond the caller's reusable move list (except a two-part turn's second part, which works on
//! a copy of the board).

mod castling;

use crate::cellset::CellSet;
use crate::geometry::{Geometry, NONE, ZoneSet};
use crate::notation::{Move, MoveKind};
use crate::piece::PieceCode;
use crate::piece::Player;
use crate::plan::Plan;
use crate::rules::movement::MoveOut;
use crate::rules::movement::victim;
use crate::rules::setwise::Sets;
use crate::rules::{
    BoardView, Chain, CodeSet, Flying, Form, Identity, PieceRules, PromoteAt, Promotion, Removal, Ruleset, StepTargets, Then,
};
use crate::state::Position;
#[cfg(test)]
pub(crate) use castling::CastleRefusal;
pub use castling::{castle_move, castlings};

/// A reusable list of moves.
pub type MoveList = Vec<Move>;

/// Appends the capture moves of `side` (whole chains, under the chain policy).
pub fn captures(rules: &Ruleset, board: &mut [PieceCode], side: Player, out: &mut MoveList) {
    captures_into(rules, board, side, out);
}

/// [`captures`] into any [`ChainEnds`]: a list, or a [`Tally`].
fn captures_into<S: ChainEnds>(rules: &Ruleset, board: &mut [PieceCode], side: Player, out: &mut S) {
    // Where no piece jumps (Lielow's stacks capture by landing), there is no board to scan.
    if rules.pieces.iter().all(|p| p.jumps.is_empty()) {
        return;
    }
    let mut s = Scratch::new();
    for from in 0..board.len() as u16 {
        let code = board[from as usize];
        if !code.is_empty() && code.owner() == side {
            captures_from(rules, board, side, from, code, &mut s, out);
        }
    }
}

/// The first capture of the pieces of `by` on `cells`, piece by piece (the kernel's forms and
/// chains, hooks aside; were `by` to move on `view`), that takes a piece on a cell for which
/// `hit` holds: the attack query's way for the pieces its tables do not hold
/// ([`crate::attack`]). Only forms that can capture are generated; `board` and `moves` are
/// scratch.
pub(crate) fn first_capture_among(
    rules: &Ruleset,
    view: BoardView,
    by: Player,
    board: &mut Vec<PieceCode>,
    moves: &mut MoveList,
    cells: impl Iterator<Item = u16>,
    hit: impl Fn(u16) -> bool,
) -> Option<Move> {
    // Jump chains need a board to empty cells on; copied only when a jumping piece comes up.
    board.clear();
    let mut s = Scratch::new();
    // How many pieces `by` has, for forms limited by that count: counted when one comes up.
    let mut own = None;
    for from in cells {
        let code = view.board[from as usize];
        moves.clear();
        let pr = &rules.pieces[code.index()];
        if !pr.jumps.is_empty() {
            if board.is_empty() {
                board.extend_from_slice(view.board);
            }
            captures_from(rules, board, by, from, code, &mut s, moves);
        }
        for (form, &limit) in pr.quiet.iter().zip(&pr.limits) {
            if form.captures()
                && (limit == u16::MAX || *own.get_or_insert_with(|| view.board.iter().filter(|c| c.is_of(by)).count()) <= limit as usize)
            {
                form.generate(&rules.geometry, view, from, ZoneSet::EMPTY, moves);
            }
        }
        if let Some(m) = moves.iter().find(|m| m.victims().any(&hit)) {
            return Some(*m);
        }
    }
    None
}

/// Appends the capture moves of `side` as they would be if every flying jump could land on
/// any empty cell beyond its piece (for explaining a landing that `land = "continuing"`
/// forbids). Empty when no flying jump has that rule. A cold path: it copies the rules.
pub fn captures_landing_anywhere(rules: &Ruleset, board: &mut [PieceCode], side: Player, out: &mut MoveList) {
    let continuing = |r: &Ruleset| r.pieces.iter().any(|p| p.jumps.iter().any(|j| j.flying.as_ref().is_some_and(|f| f.continuing)));
    if !continuing(rules) {
        return;
    }
    let mut relaxed = rules.clone();
    for j in relaxed.pieces.iter_mut().flat_map(|p| p.jumps.iter_mut()) {
        if let Some(f) = &mut j.flying {
            f.continuing = false;
        }
    }
    captures(&relaxed, board, side, out);
}

/// How many jumps a chain being built holds in arrays; a longer one keeps the rest in a list.
const INLINE_PATH: usize = 16;

/// A capture chain being built: its start, its length, the first [`INLINE_PATH`] jumps
/// (landing, jumped cell) in arrays, the rest in a list that only chains that long use.
struct Scratch {
    from: u16,
    len: u16,
    path: [u16; INLINE_PATH],
    victims: [u16; INLINE_PATH],
    deep: Vec<(u16, u16)>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch { from: 0, len: 0, path: [NONE; INLINE_PATH], victims: [NONE; INLINE_PATH], deep: Vec::new() }
    }
}

/// Where finished chains go: a move list, or a [`Tally`] that only counts them.
trait ChainEnds {
    /// The chain in `s` is a move.
    fn end(&mut self, s: &Scratch);
}

impl ChainEnds for MoveList {
    #[inline(always)]
    fn end(&mut self, s: &Scratch) {
        self.push(built(s));
    }
}

/// Counts chains instead of building them: all of them, or with `maximum` those taking the
/// most pieces (what [`finish`] keeps of a list of captures).
struct Tally {
    maximum: bool,
    best: u16,
    n: u64,
}

impl ChainEnds for Tally {
    #[inline(always)]
    fn end(&mut self, s: &Scratch) {
        let len = s.len;
        if self.maximum && len != self.best {
            if len < self.best {
                return;
            }
            (self.best, self.n) = (len, 0);
        }
        self.n += 1;
    }
}

/// Appends the capture chains of the piece `code` on `from`.
#[inline(always)]
fn captures_from<S: ChainEnds>(
    rules: &Ruleset,
    board: &mut [PieceCode],
    side: Player,
    from: u16,
    code: PieceCode,
    s: &mut Scratch,
    out: &mut S,
) {
    // Most pieces can jump nothing: look before setting up a chain.
    if can_jump(rules, board, code, from, s, 0) {
        start_chain(rules, board, side, from, code, s, out);
    }
}

fn start_chain<S: ChainEnds>(
    rules: &Ruleset,
    board: &mut [PieceCode],
    side: Player,
    from: u16,
    code: PieceCode,
    s: &mut Scratch,
    out: &mut S,
) {
    board[from as usize] = PieceCode::EMPTY; // the start cell counts as empty during a chain
    s.from = from;
    chain(rules, board, side, code, from, s, out);
    board[from as usize] = code;
}

/// Whether the piece `code` on `at` can jump now, after the chain's first `depth` jumps (which
/// it may not take again when jumped pieces stay until the chain ends).
#[inline(always)]
fn can_jump(rules: &Ruleset, board: &[PieceCode], code: PieceCode, at: u16, s: &Scratch, depth: usize) -> bool {
    let pr = &rules.pieces[code.index()];
    let twice = depth > 0 && rules.captures.removal == Removal::EndOfChain;
    let short = pr.any_jump.get(at).iter().any(|&(over, land, set)| {
        victim(board[over as usize], set) && board[land as usize].is_empty() && !(twice && jumped(s, depth, over))
    });
    short || (pr.flies && can_fly(rules, board, pr, at, s, depth))
}

/// Whether one of the piece's flying jumps from `at` has a landing.
#[cold]
fn can_fly(rules: &Ruleset, board: &[PieceCode], pr: &PieceRules, at: u16, s: &Scratch, depth: usize) -> bool {
    let g = &rules.geometry;
    pr.jumps.iter().any(|j| {
        j.flying.as_ref().is_some_and(|fl| {
            fl.cond.start_ok(g, at)
                && fl.vecs.iter().any(|&v| {
                    flying_victim(rules, board, j.victims, fl, at, v, s, depth)
                        .is_some_and(|over| landings(g, board, fl, at, v, over).next().is_some())
                })
        })
    })
}

/// The piece a flying jump along `v` from `at` would take: the first piece on the line, when
/// it is a victim not yet taken by this chain and its cell meets the jump's `over` zone.
#[allow(clippy::too_many_arguments)]
#[inline]
fn flying_victim(
    rules: &Ruleset,
    board: &[PieceCode],
    victims: CodeSet,
    fl: &Flying,
    at: u16,
    v: u16,
    s: &Scratch,
    depth: usize,
) -> Option<u16> {
    let g = &rules.geometry;
    let mut over = g.step(v, at);
    while over != NONE && board[over as usize].is_empty() {
        over = g.step(v, over);
    }
    let ok = over != NONE
        && victim(board[over as usize], victims)
        && !(depth > 0 && rules.captures.removal == Removal::EndOfChain && jumped(s, depth, over))
        && (fl.cond.over.is_empty() || g.zones_of(over).meets(fl.cond.over));
    ok.then_some(over)
}

/// The landings of a flying jump along `v` from `at` over `over`: the empty cells beyond it up
/// to the next piece or the edge, under the jump's landing conditions.
#[inline]
fn landings<'a>(g: &'a Geometry, board: &'a [PieceCode], fl: &'a Flying, at: u16, v: u16, over: u16) -> impl Iterator<Item = u16> + 'a {
    std::iter::successors(Some(g.step(v, over)), move |&l| (l != NONE).then(|| g.step(v, l)))
        .take_while(move |&l| l != NONE && board[l as usize].is_empty())
        .filter(move |&l| fl.cond.land_ok(g, at, l) && fl.cond.same_zone_ok(g, over, l))
}

/// Whether the chain's first `depth` jumps took `over`.
#[inline(always)]
fn jumped(s: &Scratch, depth: usize, over: u16) -> bool {
    if depth <= INLINE_PATH {
        s.victims[..depth].contains(&over)
    } else {
        s.victims.contains(&over) || s.deep[..depth - INLINE_PATH].iter().any(|&(_, o)| o == over)
    }
}

/// The chain so far as a move.
#[inline(always)]
fn built(s: &Scratch) -> Move {
    let n = s.len as usize;
    if n <= INLINE_PATH { Move::along(s.from, &s.path[..n], &s.victims[..n]) } else { long_chain(s) }
}

#[cold]
fn long_chain(s: &Scratch) -> Move {
    let rest = &s.deep[..s.len as usize - INLINE_PATH];
    let landings: Vec<u16> = s.path.iter().copied().chain(rest.iter().map(|&(l, _)| l)).collect();
    let victims: Vec<u16> = s.victims.iter().copied().chain(rest.iter().map(|&(_, v)| v)).collect();
    Move::along(s.from, &landings, &victims)
}

/// Extends the chain in `s` from `at` by every jump the piece can make; a chain's length is
/// bounded only by the pieces it can take (each at most once). Returns whether any jump was
/// possible.
fn chain<S: ChainEnds>(
    rules: &Ruleset,
    board: &mut [PieceCode],
    side: Player,
    code: PieceCode,
    at: u16,
    s: &mut Scratch,
    out: &mut S,
) -> bool {
    let pr = &rules.pieces[code.index()];
    let depth = s.len as usize;
    let twice = rules.captures.removal == Removal::EndOfChain;
    let mut found = false;
    for j in &pr.jumps {
        if let Some(fl) = &j.flying {
            found |= fly(rules, board, side, code, at, (j.victims, fl), s, out);
            continue;
        }
        for &(over, land) in j.table.get(at) {
            if !victim(board[over as usize], j.victims) || !board[land as usize].is_empty() || (twice && jumped(s, depth, over)) {
                continue;
            }
            found = true;
            link(rules, board, side, code, over, land, s, out);
        }
    }
    found
}

/// The flying jumps of the piece from `at`, each landing a link of the chain. With
/// `continuing`, where some landing beyond a piece lets the chain go on, only those are used.
#[allow(clippy::too_many_arguments)]
fn fly<S: ChainEnds>(
    rules: &Ruleset,
    board: &mut [PieceCode],
    side: Player,
    code: PieceCode,
    at: u16,
    (victims, fl): (CodeSet, &Flying),
    s: &mut Scratch,
    out: &mut S,
) -> bool {
    let g = &rules.geometry;
    if !fl.cond.start_ok(g, at) {
        return false;
    }
    let depth = s.len as usize;
    let mut found = false;
    for &v in &fl.vecs {
        let Some(over) = flying_victim(rules, board, victims, fl, at, v, s, depth) else { continue };
        let mut only_continuing = false;
        if fl.continuing {
            // A line holds fewer than 128 cells (a board has at most 99 ranks): no allocation.
            let mut lands = [NONE; 128];
            let mut n = 0;
            for l in landings(g, board, fl, at, v, over).take(lands.len()) {
                lands[n] = l;
                n += 1;
            }
            only_continuing = n > 1 && lands[..n].iter().any(|&l| continues(rules, board, side, code, over, l, s));
        }
        let mut next = g.step(v, over);
        while next != NONE && board[next as usize].is_empty() {
            let land = next;
            next = g.step(v, land);
            if !(fl.cond.land_ok(g, at, land) && fl.cond.same_zone_ok(g, over, land)) {
                continue;
            }
            if only_continuing && !continues(rules, board, side, code, over, land, s) {
                continue;
            }
            found = true;
            link(rules, board, side, code, over, land, s, out);
        }
    }
    found
}

/// Writes the chain's next jump (over `over`, landing on `land`) at its end.
#[inline(always)]
fn record(s: &mut Scratch, land: u16, over: u16) {
    let depth = s.len as usize;
    if depth < INLINE_PATH {
        s.path[depth] = land;
        s.victims[depth] = over;
    } else {
        s.deep.truncate(depth - INLINE_PATH);
        s.deep.push((land, over));
    }
    s.len = depth as u16 + 1;
}

/// Takes the chain's last jump back off (deeper jumps only wrote past it).
#[inline(always)]
fn unrecord(s: &mut Scratch, depth: usize) {
    s.len = depth as u16;
    if depth < INLINE_PATH {
        s.victims[depth] = NONE;
    }
}

/// Whether the chain stops on `land` after taking the piece `vc`, and the code the piece goes
/// on as (promoted there, when promotion happens on any landing and does not end the chain).
#[inline(always)]
fn after_landing(rules: &Ruleset, code: PieceCode, side: Player, vc: PieceCode, land: u16) -> (bool, PieceCode) {
    let pr = &rules.pieces[code.index()];
    let royal_end = rules.royal_ends_game && rules.kinds[vc.kind().0 as usize].royal;
    let mut stop = royal_end || rules.captures.chain == Chain::Single;
    let mut next_code = code;
    if let Some(p) = &pr.promote
        && p.at == PromoteAt::AnyLanding
        && rules.geometry.zones_of(land).meets(p.zone)
        && code.kind() != p.to
    {
        if p.ends_chain {
            stop = true;
        } else {
            next_code = PieceCode::new(p.to, side);
        }
    }
    (stop, next_code)
}

/// Whether the chain could go on after jumping `over` and landing on `land`.
#[allow(clippy::too_many_arguments)]
fn continues(rules: &Ruleset, board: &mut [PieceCode], side: Player, code: PieceCode, over: u16, land: u16, s: &mut Scratch) -> bool {
    let depth = s.len as usize;
    let (stop, next_code) = after_landing(rules, code, side, board[over as usize], land);
    if stop {
        return false;
    }
    record(s, land, over);
    let saved = board[over as usize];
    if rules.captures.removal == Removal::Immediate {
        board[over as usize] = PieceCode::EMPTY;
    }
    let more = can_jump(rules, board, next_code, land, s, depth + 1);
    board[over as usize] = saved;
    unrecord(s, depth);
    more
}

/// One link of a chain: the jump over `over` to `land`, then the chain's continuations (or its
/// end, under the chain policy).
#[allow(clippy::too_many_arguments)]
fn link<S: ChainEnds>(
    rules: &Ruleset,
    board: &mut [PieceCode],
    side: Player,
    code: PieceCode,
    over: u16,
    land: u16,
    s: &mut Scratch,
    out: &mut S,
) {
    let pol = &rules.captures;
    let depth = s.len as usize;
    record(s, land, over);
    let (stop, next_code) = after_landing(rules, code, side, board[over as usize], land);
    if stop {
        out.end(s);
    } else {
        if pol.chain == Chain::MayStop {
            out.end(s);
        }
        let saved = board[over as usize];
        if pol.removal == Removal::Immediate {
            board[over as usize] = PieceCode::EMPTY;
        }
        let more = chain(rules, board, side, next_code, land, s, out);
        board[over as usize] = saved;
        if !more && pol.chain == Chain::MustContinue {
            // Deeper jumps only wrote past this one: the chain up to here is intact.
            s.len = depth as u16 + 1;
            out.end(s);
        }
    }
    unrecord(s, depth);
}

/// Appends the non-chaining moves (steps, slides, leaps, replacement captures, leaving the
/// board, drops) of `side`.
pub fn quiet_moves(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList) {
    quiet_moves_of(rules, pos, side, out, true);
}

/// [`quiet_moves`], with each two-part turn's first part once, however many second parts it
/// has (what the evaluation's mobility counts: Amazons' queen moves, not the ~2000 turns). The
/// evaluation counts them with [`count_quiet_first_parts`]; tests compare the two.
#[cfg(test)]
pub fn quiet_first_parts(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList) {
    quiet_moves_of(rules, pos, side, out, false);
}

/// How many moves `quiet_first_parts` (tests only) would list, counted form by form without listing
/// them where a form allows (`scratch` is overwritten).
pub fn count_quiet_first_parts(rules: &Ruleset, pos: &Position, side: Player, scratch: &mut MoveList) -> usize {
    let own = pos.counts()[side];
    let board = pos.view();
    let mut n = 0;
    for from in pos.cells_of(side) {
        let pr = &rules.pieces[pos.board()[from as usize].index()];
        if let Some(steps) = &pr.steps {
            n += count_steps(steps, pos, from) as usize;
            continue;
        }
        let avoid = pr.exit.as_ref().map_or(ZoneSet::EMPTY, |x| x.zone);
        for (form, &limit) in pr.quiet.iter().zip(&pr.limits) {
            if limit == u16::MAX || own as u64 <= limit as u64 {
                n += form.count(&rules.geometry, board, from, avoid, scratch);
            }
        }
    }
    n + count_drops(rules, pos, side, scratch)
}

/// The number of `side`'s drops ([`drops`]): on the cell sets where each droppable kind's
/// are kept, else listed into `scratch`.
fn count_drops(rules: &Ruleset, pos: &Position, side: Player, scratch: &mut MoveList) -> usize {
    let mut n = 0;
    for &code in &rules.drops[side] {
        let pr = &rules.pieces[code.index()];
        let Some(d) = &pr.drop else { continue };
        let Some(cells) = d.sets.as_ref().and_then(|s| s.targets(pos, side, pr.convert.as_ref())) else {
            scratch.clear();
            drops(rules, pos, side, scratch);
            return scratch.len();
        };
        if d.hand.is_none_or(|slot| pos.counter(side, slot) > 0) {
            n += cells.count_ones() as usize;
        }
    }
    n
}

fn quiet_moves_of(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList, whole: bool) {
    for from in pos.cells_of(side) {
        quiet_from(rules, pos, from, pos.board()[from as usize], out, whole);
    }
    drops(rules, pos, side, out);
}

/// Appends `side`'s drops: each droppable kind on each empty cell of its zone (with gravity,
/// only where the next cell along the fall is not an empty cell).
#[inline]
pub fn drops(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList) {
    let board = pos.board();
    for &code in &rules.drops[side] {
        let pr = &rules.pieces[code.index()];
        let Some(d) = &pr.drop else { continue };
        if d.hand.is_some_and(|slot| pos.counter(side, slot) <= 0) {
            continue; // none of the kind in hand
        }
        if let Some(cells) = d.sets.as_ref().and_then(|s| s.targets(pos, side, pr.convert.as_ref())) {
            // In board order, as the cell by cell tests below.
            for c in CellSet::from_bits(cells) {
                out.push(Move::drop(code, d.letter, d.written, c));
            }
            continue;
        }
        if d.must_convert {
            // Othello: a drop must convert; only cells that do (gravity applies first).
            let Some(cv) = &pr.convert else { continue };
            for &c in &d.cells {
                let below = d.fall.get(c as usize).copied().unwrap_or(NONE);
                if board[c as usize].is_empty() && (below == NONE || !board[below as usize].is_empty()) && cv.converts_any(board, c, side) {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        } else if let Some(block) = d.file_block {
            // Not onto a file where one of the player's pieces of that kind stands.
            let g = &rules.geometry;
            let taken = |c: u16| {
                let file = g.coords(crate::geometry::Cell(c)).0 as i32;
                (0..g.ranks as i32).filter_map(|r| g.at(file, r)).any(|x| board[x.0 as usize] == block)
            };
            for &c in &d.cells {
                if board[c as usize].is_empty() && !taken(c) {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        } else if d.fall.is_empty() {
            for &c in &d.cells {
                if board[c as usize].is_empty() {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        } else {
            for &c in &d.cells {
                let below = d.fall[c as usize];
                if board[c as usize].is_empty() && (below == NONE || !board[below as usize].is_empty()) {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        }
    }
}

/// Appends the non-chaining moves of the piece `code` on `from`: each of its forms that
/// applies at the owner's piece count (two-part turns whole, or only their first parts).
#[inline]
fn quiet_from(rules: &Ruleset, pos: &Position, from: u16, code: PieceCode, out: &mut MoveList, whole: bool) {
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
fn captures_from_forms(rules: &Ruleset, pos: &Position, from: u16, code: PieceCode, out: &mut MoveList) {
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
pub fn has_quiet_move(rules: &Ruleset, pos: &Position, side: Player, scratch: &mut MoveList) -> bool {
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

/// Replaces each move of `out[start..]` by the two-part turns it begins: the move, then a
/// piece of `then.code` placed on each cell `then.form` reaches from the landing, on the board
/// as the move leaves it (its start empty, the piece on its landing, its victims gone).
/// The buffers of [`second_parts`] (and of their counts): the first parts, a board, the second
/// parts' reach.
type ThenScratch = (Vec<Move>, Vec<PieceCode>, MoveList);

thread_local! {
    /// Kept between calls so that two-part turns allocate nothing once the buffers have grown.
    static THEN_SCRATCH: std::cell::Cell<ThenScratch> = const { std::cell::Cell::new((Vec::new(), Vec::new(), Vec::new())) };
}

#[cold]
fn second_parts(rules: &Ruleset, pos: &Position, code: PieceCode, then: &Then, start: usize, out: &mut MoveList) {
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

/// Plays the first part `m` of a two-part turn by the piece `code` on `board`, a copy of
/// `pos`'s: its victims and its start emptied, the piece on its landing. The landing and the
/// occupied cells after it (`None`: the move has no landing); [`put_back`] undoes it.
#[inline]
fn play_first_part(pos: &Position, code: PieceCode, m: Move, board: &mut [PieceCode]) -> Option<(u16, u128)> {
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
fn put_back(pos: &Position, m: Move, to: u16, board: &mut [PieceCode]) {
    for c in m.victims().chain([m.from, to]) {
        board[c as usize] = pos.board()[c as usize];
    }
}

/// Replaces each move of `out[start..]` that promotes a piece with a choice of kinds by one
/// move per choice (`e7-e8=Q`, `e7-e8=R`, …), in the order the variant lists them.
pub fn expand_promotions(rules: &Ruleset, pos: &Position, out: &mut MoveList, start: usize) {
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
        for (k, &(c, letter)) in p.choices.iter().enumerate() {
            if k == 0 {
                out[i] = m.promote_to(c, letter);
            } else {
                out.insert(i + k, m.promote_to(c, letter));
            }
        }
        i += p.choices.len();
    }
}

/// A piece's moves counted apart as the legal list holds them, a move that promotes with a
/// choice of kinds once per choice ([`expand_promotions`]): those that capture and the others.
struct PromotionSplit<'a> {
    g: &'a Geometry,
    promotion: &'a Promotion,
    quiet: u64,
    captures: u64,
}

impl MoveOut for PromotionSplit<'_> {
    #[inline]
    fn push(&mut self, m: Move) {
        let n = if m.reaches(self.g, self.promotion) { self.promotion.choices.len() as u64 } else { 1 };
        if m.is_capture() {
            self.captures += n;
        } else {
            self.quiet += n;
        }
    }
}

/// Removes moves with the same text, keeping the first.
pub fn dedup(moves: &mut MoveList) {
    let mut i = 0;
    while i < moves.len() {
        if moves[..i].contains(&moves[i]) {
            moves.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Up to this many pieces, the listing visits every piece of the side rather than first
/// finding on the sets which of them can move.
const FEW_PIECES: u32 = 8;

/// The normal moves of the side to move under the capture policy, with no hooks: the fast path.
pub fn normal_moves(rules: &Ruleset, pos: &mut Position, out: &mut MoveList) {
    let side = pos.side();
    let start = out.len();
    let compulsory = rules.captures.compulsory;
    let mut s = Scratch::new();
    // One pass over the board: each piece's captures, then (unless a capture is already known
    // to be compulsory) its other moves. Where some form captures by landing (chess pieces),
    // those moves are listed with the quiet ones, so every piece's are listed and the policy
    // sorts them out at the end.
    let mut first_capture = usize::MAX;
    let mut landing_capture = false;
    let skip_quiet = |first: usize| compulsory && first != usize::MAX && !rules.landing_captures;
    let (jumpers, mut visit) = pieces_to_visit(rules, pos, side);
    if let Some(j) = jumpers
        && j != 0
        && compulsory
        && !rules.landing_captures
    {
        capture_chains(rules, pos, side, j, &mut s, out);
        if rules.captures.maximum || rules.dedup {
            finish(rules, out, start);
        } else if rules.captures.identity == Identity::CapturedSet {
            merge_same_captures(out, start);
        }
        return;
    }
    let mut next = 0;
    loop {
        let from = match &mut visit {
            Some(bits) => match bits.pop_first() {
                Some(from) => from,
                None => break,
            },
            None => match pos.next_cell_of(side, next) {
                Some(from) => from,
                None => break,
            },
        };
        next = from as usize + 1;
        let code = pos.board()[from as usize];
        let before = out.len();
        match jumpers {
            None => captures_from(rules, pos.board_scratch(), side, from, code, &mut s, out),
            Some(j) if j >> from & 1 != 0 => start_chain(rules, pos.board_scratch(), side, from, code, &mut s, out),
            Some(_) => {}
        }
        if out.len() > before && first_capture == usize::MAX {
            first_capture = before;
        }
        match () {
            // Once a capture by landing is known to be compulsory, the later pieces' other
            // moves are not listed (the policy would drop them).
            _ if landing_capture && !rules.pieces[code.index()].thens.iter().any(Option::is_some) => {
                captures_from_forms(rules, pos, from, code, out);
            }
            _ if !skip_quiet(first_capture) => {
                let q = out.len();
                quiet_from(rules, pos, from, code, out, true);
                landing_capture |= compulsory && rules.landing_captures && out[q..].iter().any(Move::is_capture);
            }
            _ => {}
        }
        if rules.dedup {
            // Duplicates can only come from one piece's forms: dedup this piece's moves.
            dedup_from(out, before);
        }
    }
    close_list(rules, pos, out, start, first_capture, landing_capture);
}

/// Which pieces of `side` [`normal_moves`] looks at, where the cell sets say: those that can
/// jump (only their chains are looked for; when a capture is compulsory, the other moves are
/// not listed at all), and the cells to visit, those that can move at all. `(None, None)`:
/// every piece, each tried for chains.
#[inline(always)]
fn pieces_to_visit(rules: &Ruleset, pos: &Position, side: Player) -> (Option<u128>, Option<CellSet>) {
    match rules.setwise.as_ref().and_then(|sw| Some((sw, sw.sets(pos)?))) {
        Some((sw, sets)) => {
            let j = sw.jumpers(&sets, side);
            // (With a handful of pieces, visiting each costs less than finding which can move.)
            let few = sw.pieces_move && pos.counts()[side] <= FEW_PIECES;
            (j, j.map(|j| CellSet::from_bits(j | if few { pos.occupied(side) } else { sw.movers(&sets, side) })))
        }
        None => (None, None),
    }
}

/// The end of [`normal_moves`]: the drops (unless a capture is compulsory and there is one),
/// then the capture policy on `out[start..]` (`first_capture`: where the first capture was
/// listed, `usize::MAX` if none; `landing_capture`: a capture by landing is compulsory).
#[inline(always)]
fn close_list(rules: &Ruleset, pos: &Position, out: &mut MoveList, start: usize, first_capture: usize, landing_capture: bool) {
    let compulsory = rules.captures.compulsory;
    if !(compulsory && (first_capture != usize::MAX || landing_capture)) {
        drops(rules, pos, pos.side(), out);
    }
    if first_capture == usize::MAX && !landing_capture {
        return; // no capture: no policy to apply
    }
    if first_capture == start && compulsory && !rules.captures.maximum && !rules.landing_captures {
        // Captures were found before any other move: the list holds only captures.
        let mut w = start;
        for r in start..out.len() {
            if out[r].is_capture() {
                out[w] = out[r];
                w += 1;
            }
        }
        out.truncate(w);
        if rules.captures.identity == Identity::CapturedSet {
            merge_same_captures(out, start);
        }
        return;
    }
    finish(rules, out, start);
}

/// The number of legal moves of the side to move, counted without listing them where the cell
/// sets can: every piece's forms are steps and short jumps (see [`crate::rules::setwise`]),
/// chains are told apart by their path, and no hook or other rule adds or removes moves (the
/// plan's [`Plan::counts_moves`]; `None` otherwise, and where the side has no move: then the
/// move list says). Chains are walked as
/// [`normal_moves`] walks them, but only counted.
pub fn count_moves(rules: &Ruleset, plan: &Plan, pos: &mut Position) -> Option<u64> {
    let sw = rules.setwise.as_ref()?;
    if !plan.counts_moves || pos.result().is_some() || pos.continuation().is_some() {
        return None;
    }
    let sets = sw.sets(pos)?;
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

/// A legal list known by its length, without the list: what [`count_to_pick`] fills and
/// [`nth_move`] reads. Reused from one position to the next.
#[derive(Clone, Debug, Default)]
pub struct Counted {
    /// The number of legal moves.
    pub n: u64,
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
    pub fn chains(&self) -> bool {
        self.jumpers != 0
    }

    /// Whether the list holds only captures (chains, or counted form by form captures by
    /// landing): a capture is compulsory and there is one.
    pub fn only_captures(&self, rules: &Ruleset) -> bool {
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
pub fn count_to_pick(rules: &Ruleset, plan: &Plan, pos: &mut Position, c: &mut Counted) -> bool {
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
fn count_by_forms(rules: &Ruleset, pos: &Position, c: &mut Counted) -> bool {
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
fn split_piece(rules: &Ruleset, pos: &Position, code: PieceCode, from: u16) -> Option<(u64, u64)> {
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
                let mut out = PromotionSplit { g, promotion, quiet, captures };
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
fn piece_chains(rules: &Ruleset, pos: &mut Position, c: &Counted, from: u16, s: &mut Scratch) -> u64 {
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
pub fn nth_move(rules: &Ruleset, pos: &mut Position, c: &Counted, index: u64, scratch: &mut MoveList) -> Move {
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
fn nth_quiet(rules: &Ruleset, pos: &Position, from: u16, code: PieceCode, index: u64, scratch: &mut MoveList) -> Move {
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
fn count_piece(rules: &Ruleset, pos: &Position, code: PieceCode, from: u16) -> Option<u64> {
    match &rules.pieces[code.index()].steps {
        Some(steps) => Some(count_steps(steps, pos, from)),
        None => count_forms(rules, pos, code, from),
    }
}

/// The moves of a piece on `from` whose quiet forms are all steps ([`PieceRules::steps`]),
/// counted: on its cell set where it has one (the empty cells, and the occupied ones holding
/// a piece it captures), else target by target.
#[inline(always)]
fn count_steps(steps: &StepTargets, pos: &Position, from: u16) -> u64 {
    let (quiet, captures) = split_steps(steps, pos, from);
    quiet + captures
}

/// [`count_steps`] counted apart: (the steps to empty cells, the captures).
#[inline(always)]
fn split_steps(steps: &StepTargets, pos: &Position, from: u16) -> (u64, u64) {
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
fn count_forms(rules: &Ruleset, pos: &Position, code: PieceCode, from: u16) -> Option<u64> {
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
fn count_second_parts(rules: &Ruleset, pos: &Position, code: PieceCode, from: u16, form: &Form, then: &Then) -> u64 {
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
fn count_second_parts_of(
    rules: &Ruleset,
    pos: &Position,
    code: PieceCode,
    then: &Then,
    m: Move,
    board: &mut [PieceCode],
    reach: &mut MoveList,
) -> u64 {
    let Some((to, occupied)) = play_first_part(pos, code, m, board) else { return 0 };
    let n = then.form.count(&rules.geometry, BoardView { board, occupied, ..pos.view() }, to, ZoneSet::EMPTY, reach) as u64;
    put_back(pos, m, to, board);
    n
}

/// `side`'s non-chaining moves, counted: on the cell sets for the piece codes whose forms are
/// plain steps, form by form for the others (`None` where a form needs its list built: a walk).
fn count_quiet(rules: &Ruleset, sw: &crate::rules::setwise::Setwise, pos: &Position, sets: &Sets<'_>, side: Player) -> Option<u64> {
    sw.count_quiet(pos, sets, side, |code, from| count_forms(rules, pos, PieceCode::from_index(code), from))
}

/// How many moves `p` would have here counting every step, capture chain and drop whatever the
/// capture policy (the kernel's moves, hooks aside: what the evaluation's mobility counts, the
/// moves [`captures`] and [`count_quiet_first_parts`] find). Counted on the cell sets where
/// they allow, else chains are walked without being built; `scratch` is overwritten.
pub fn mobility(rules: &Ruleset, pos: &mut Position, p: Player, scratch: &mut MoveList) -> usize {
    if let Some(sw) = rules.setwise.as_ref().filter(|sw| sw.no_drops)
        && let Some(sets) = sw.sets(pos)
        && let Some(steps) = sw.count_steps(pos, &sets, p, true)
        && let Some(jumpers) = sw.jumpers(&sets, p)
    {
        return (steps + tally_chains(rules, pos, p, jumpers, false)) as usize;
    }
    let mut t = Tally { maximum: false, best: 0, n: 0 };
    captures_into(rules, pos.board_scratch(), p, &mut t);
    t.n as usize + count_quiet_first_parts(rules, pos, p, scratch)
}

/// The number of capture chains of `side`'s pieces on `jumpers` (each can make a first jump):
/// all of them, or with `maximum` those taking the most pieces.
#[inline]
fn tally_chains(rules: &Ruleset, pos: &mut Position, side: Player, jumpers: u128, maximum: bool) -> u64 {
    if jumpers == 0 {
        return 0; // mostly: no chain to set up for
    }
    if !maximum && rules.setwise.as_ref().is_some_and(|sw| sw.short_jumps) {
        let mut n = 0;
        for from in CellSet::from_bits(jumpers) {
            n += count_chains_from(rules, pos.board_scratch(), side, from);
        }
        return n;
    }
    let mut t = Tally { maximum, best: 0, n: 0 };
    let mut s = Scratch::new();
    for from in CellSet::from_bits(jumpers) {
        let code = pos.board()[from as usize];
        start_chain(rules, pos.board_scratch(), side, from, code, &mut s, &mut t);
    }
    t.n
}

/// The capture chains of the piece on `from`, counted as [`start_chain`] into a [`Tally`]
/// without `maximum` would count them, where no piece's jump flies: the same walk, the jumped
/// cells kept as a set rather than the path as a move (no chain is built, so none is
/// recorded).
fn count_chains_from(rules: &Ruleset, board: &mut [PieceCode], side: Player, from: u16) -> u64 {
    let code = board[from as usize];
    board[from as usize] = PieceCode::EMPTY; // the start cell counts as empty during a chain
    let mut n = 0;
    count_chain(rules, board, side, code, from, 0, &mut n);
    board[from as usize] = code;
    n
}

/// [`chain`] counting into `n`, the cells jumped so far in `taken`.
fn count_chain(rules: &Ruleset, board: &mut [PieceCode], side: Player, code: PieceCode, at: u16, taken: u128, n: &mut u64) -> bool {
    let pr = &rules.pieces[code.index()];
    let pol = &rules.captures;
    let twice = pol.removal == Removal::EndOfChain;
    let mut found = false;
    for j in &pr.jumps {
        for &(over, land) in j.table.get(at) {
            let vc = board[over as usize];
            if !victim(vc, j.victims) || !board[land as usize].is_empty() || (twice && taken >> over & 1 != 0) {
                continue;
            }
            found = true;
            // [`link`], counting.
            let (stop, next_code) = after_landing(rules, code, side, vc, land);
            if stop {
                *n += 1;
                continue;
            }
            if pol.chain == Chain::MayStop {
                *n += 1;
            }
            if pol.removal == Removal::Immediate {
                board[over as usize] = PieceCode::EMPTY;
            }
            let more = count_chain(rules, board, side, next_code, land, taken | 1u128 << over, n);
            board[over as usize] = vc;
            if !more && pol.chain == Chain::MustContinue {
                *n += 1;
            }
        }
    }
    found
}

/// The capture chains of the pieces on `jumpers` (each can make a first jump), in cell order.
fn capture_chains(rules: &Ruleset, pos: &mut Position, side: Player, jumpers: u128, s: &mut Scratch, out: &mut MoveList) {
    for from in CellSet::from_bits(jumpers) {
        let before = out.len();
        let code = pos.board()[from as usize];
        start_chain(rules, pos.board_scratch(), side, from, code, s, out);
        if rules.dedup {
            dedup_from(out, before);
        }
    }
}

/// Keeps the moves of `out[start..]` for which `keep` holds, in order.
fn retain_from(out: &mut MoveList, start: usize, keep: impl Fn(&Move) -> bool) {
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
pub fn finish(rules: &Ruleset, out: &mut MoveList, start: usize) {
    let pol = &rules.captures;
    // (Without `maximum`, only whether there is a capture matters.)
    let best = match (pol.compulsory, pol.maximum) {
        (_, true) => out[start..].iter().map(Move::captures).max().unwrap_or(0),
        (true, false) => usize::from(out[start..].iter().any(Move::is_capture)),
        (false, false) => 0,
    };
    if best > 0 {
        if pol.maximum {
            retain_from(out, start, |m| if pol.compulsory { m.captures() == best } else { !m.is_capture() || m.captures() == best });
        } else {
            retain_from(out, start, Move::is_capture);
        }
    }
    if rules.dedup {
        dedup_from(out, start);
    }
    if pol.identity == Identity::CapturedSet {
        merge_same_captures(out, start);
    }
}

/// Whether two moves are the same capture under `identity = "captured_set"`: the same start,
/// the same end and the same set of captured pieces (in any order, along any path).
pub fn same_capture(a: &Move, b: &Move) -> bool {
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
pub fn merge_same_captures(out: &mut MoveList, start: usize) {
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
fn dedup_from(out: &mut MoveList, start: usize) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn texts(v: &Variant, pos: &mut Position) -> Vec<String> {
        let mut out = Vec::new();
        v.legal_moves(pos, &mut out).unwrap();
        let mut t: Vec<String> = out.iter().map(|m| m.text(&v.rules.geometry)).collect();
        t.sort();
        t
    }

    /// The mobility count, form by form, is the length of the list it stands for, over random
    /// games of every kind of form (steps, slides, hops, leaps by level, walks, two-part turns,
    /// drops, leaving the board).
    /// A piece whose quiet forms are all steps (plain, or capturing by landing) lists its moves
    /// from one table: the same moves in the same order as its forms generate them one by one.
    #[test]
    fn steps_list_what_the_forms_generate() {
        use rand::RngExt;
        let (mut plain, mut landing) = (0, 0);
        for name in ["checkers", "international", "basileus", "breakthrough", "dobutsu", "chess", "minishogi"] {
            let v = Variant::load(name, &[]).unwrap();
            let mut rng = crate::ai::rng(6);
            let mut pos = v.start();
            let (mut moves, mut fast, mut slow) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..80 {
                for from in 0..pos.board().len() as u16 {
                    let code = pos.board()[from as usize];
                    if code.is_empty() || v.rules.pieces[code.index()].steps.is_none() {
                        continue;
                    }
                    plain += 1;
                    fast.clear();
                    slow.clear();
                    quiet_from(&v.rules, &pos, from, code, &mut fast, true);
                    for f in &v.rules.pieces[code.index()].quiet {
                        f.generate(&v.rules.geometry, pos.view(), from, ZoneSet::EMPTY, &mut slow);
                    }
                    assert_eq!(fast, slow, "{name}: {from} at {}", pos.to_text(&v.rules));
                    landing += fast.iter().filter(|m| m.is_capture()).count();
                }
                v.legal_moves(&mut pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                v.make(&mut pos, &moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
        assert!(plain > 1000, "only {plain} pieces with steps");
        assert!(landing > 100, "only {landing} captures by landing listed from the tables");
    }

    #[test]
    fn counted_quiet_moves_are_the_listed_ones() {
        use rand::RngExt;
        for name in [
            "lielow",
            "lielow-ludii",
            "bivouac",
            "pyramida",
            "basileus",
            "amazons",
            "grasshopper",
            "xiangqi",
            "minishogi",
            "othello",
            "chess",
        ] {
            let v = Variant::load(name, &[]).unwrap();
            let mut rng = crate::ai::rng(5);
            let mut pos = v.start();
            let (mut moves, mut list, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..80 {
                for p in [Player::FIRST, Player::SECOND] {
                    list.clear();
                    quiet_first_parts(&v.rules, &pos, p, &mut list);
                    assert_eq!(count_quiet_first_parts(&v.rules, &pos, p, &mut scratch), list.len(), "{name} at {}", pos.to_text(&v.rules));
                }
                v.legal_moves(&mut pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                v.make(&mut pos, &moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
    }

    /// Over random games in every shipped variant (and the options that change how pieces
    /// move or capture), a move count, where there is one, is the length of the legal move
    /// list; and the games whose forms are more than plain steps are counted, not listed.
    #[test]
    fn a_count_is_the_length_of_the_legal_list_and_a_pick_its_move() {
        let set = |pairs: &[(&str, &str)]| pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let mut cases: Vec<(String, Vec<(String, String)>)> = crate::variant::shipped_names().into_iter().map(|n| (n, vec![])).collect();
        for (name, options) in [
            ("bivouac", set(&[("slide", "one_hop")])),
            ("bivouac", set(&[("capture_from_run", "true"), ("captures", "compulsory_maximal")])),
            ("lielow", set(&[("off_board", "one_beyond"), ("off_board_moves", "per_direction")])),
            ("basileus", set(&[("capture_choice", "maximum")])),
        ] {
            cases.push((name.to_string(), options));
        }
        for (name, options) in &cases {
            let v = Variant::load(name, options).unwrap();
            let (mut counted, mut captures, mut picked) = (0, 0, 0);
            let (mut shares, mut scratch) = (Counted::default(), Vec::new());
            v.random_positions(17, 8, 150, |pos, moves| {
                let at = pos.to_text(&v.rules);
                if let Some(n) = v.count_moves(pos) {
                    assert_eq!(n, moves.len() as u64, "{name} {options:?} at {at}");
                    counted += 1;
                    captures += moves.iter().any(Move::is_capture) as u32;
                }
                // A pick by index from the pieces' counts is the list's move at that index.
                if v.count_to_pick(pos, &mut shares) {
                    assert_eq!(shares.n, moves.len() as u64, "{name} {options:?} at {at}");
                    assert_eq!(v.counts_every_kernel_move(&shares), v.lists_every_kernel_move(pos, moves), "{name} at {at}");
                    // Every move of a short list; of a long one (Amazons' hundreds), about a
                    // hundred spread over it, and the last.
                    let step = moves.len().div_ceil(100);
                    for i in (0..moves.len()).step_by(step).chain([moves.len() - 1]) {
                        assert_eq!(v.nth_move(pos, &shares, i as u64, &mut scratch), moves[i], "{name} {options:?} move {i} at {at}");
                    }
                    assert_eq!(pos.to_text(&v.rules), at, "a pick leaves the position as it was");
                    picked += 1;
                }
            });
            // Picks are made where no hook lists moves, the most pieces need not be taken, no
            // chains merge and no jump flies: in these games' default rules among others (in
            // antichess form by form, with its promotion choices and compulsory captures).
            if options.is_empty()
                && matches!(
                    name.as_str(),
                    "checkers" | "bivouac" | "lielow" | "lielow-ludii" | "breakthrough" | "basileus" | "amazons" | "antichess"
                )
            {
                assert!(picked > 100, "{name} {options:?}: only {picked} positions picked from");
            }
            // Two-part turns (Amazons' move and arrow) are counted: each first part played, its
            // second parts counted from its landing.
            if name == "amazons" {
                assert!(counted > 100, "{name}: only {counted} positions counted");
            }
            // Slides (Bivouac's runs), leaps (Lielow's), captures by landing (Lielow) and by
            // jumping (Bivouac) are counted in these games.
            if matches!(name.as_str(), "bivouac" | "hostile-bivouac" | "lielow" | "lielow-ludii") {
                assert!(counted > 100, "{name} {options:?}: only {counted} positions counted");
                assert!(captures > 20, "{name} {options:?}: only {captures} positions with captures counted");
            }
        }
    }

    /// The counting walk (`count_chains_from`) counts what the general walker tallies, under
    /// every chain and removal policy (the shipped games use only some of the six), over random
    /// games of three games with short jumps.
    #[test]
    fn counted_chains_are_the_tallied_ones_under_every_policy() {
        use crate::rules::{Chain, Removal};
        use rand::RngExt;
        let games: Vec<Variant> = ["checkers", "basileus", "bivouac"].iter().map(|n| Variant::load(n, &[]).unwrap()).collect();
        for chain in [Chain::MustContinue, Chain::MayStop, Chain::Single] {
            for removal in [Removal::EndOfChain, Removal::Immediate] {
                let (mut pieces, mut several) = (0, 0);
                for v in &games {
                    let name = v.name();
                    assert!(v.rules.setwise.as_ref().is_some_and(|sw| sw.short_jumps), "{name}");
                    let mut rules = (*v.rules).clone();
                    (rules.captures.chain, rules.captures.removal) = (chain, removal);
                    let mut rng = crate::ai::rng(21);
                    for _ in 0..6 {
                        let mut pos = v.start();
                        let mut moves = Vec::new();
                        for _ in 0..150 {
                            let side = pos.side();
                            for from in pos.cells_of(side).collect::<Vec<_>>() {
                                let code = pos.board()[from as usize];
                                let mut t = Tally { maximum: false, best: 0, n: 0 };
                                start_chain(&rules, pos.board_scratch(), side, from, code, &mut Scratch::new(), &mut t);
                                let n = count_chains_from(&rules, pos.board_scratch(), side, from);
                                let at = v.rules.geometry.name(crate::geometry::Cell(from));
                                assert_eq!(n, t.n, "{name} {chain:?} {removal:?}: {at} in {}", pos.to_text(&v.rules));
                                pieces += (n > 0) as u32;
                                several += (n > 1) as u32;
                            }
                            v.legal_moves(&mut pos, &mut moves).unwrap();
                            if moves.is_empty() {
                                break;
                            }
                            v.make(&mut pos, &moves[rng.random_range(0..moves.len())]).unwrap();
                        }
                    }
                }
                assert!(pieces > 100 && several > 5, "{chain:?} {removal:?}: {pieces} pieces with chains, {several} with several");
            }
        }
    }

    #[test]
    fn drops_on_the_sets_are_the_cells_tested_one_by_one() {
        use crate::rules::setwise::DropSets;
        // (variant, how its rules are varied: 0 as shipped, 1 conversion of neighbours instead of
        // lines, 2 the convertible pieces read from the per-code sets)
        for (name, vary) in [("othello", 0), ("othello", 1), ("othello", 2), ("connect-four", 0), ("tic-tac-toe", 0), ("dobutsu", 0)] {
            let v = Variant::load(name, &[]).unwrap();
            let (cells, kinds) = (v.rules.geometry.len(), v.rules.kinds.len());
            let mut sets = (*v.rules).clone();
            for pr in &mut sets.pieces {
                if let Some(cv) = &mut pr.convert
                    && vary == 1
                {
                    cv.adjacent = std::mem::take(&mut cv.bracket);
                }
                if let Some(d) = &mut pr.drop {
                    d.sets = DropSets::of(d, pr.convert.as_ref(), cells, kinds);
                    if let Some(s) = &mut d.sets
                        && vary == 2
                    {
                        s.every_kind = false;
                    }
                }
            }
            assert!(sets.pieces.iter().any(|p| p.drop.as_ref().is_some_and(|d| d.sets.is_some())), "{name}");
            let mut by_cell = sets.clone();
            for pr in &mut by_cell.pieces {
                if let Some(d) = &mut pr.drop {
                    d.sets = None;
                }
            }
            let (mut found, mut scratch) = (0, Vec::new());
            v.random_positions(5, 20, 80, |pos, _| {
                for side in Player::both() {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    drops(&sets, pos, side, &mut a);
                    drops(&by_cell, pos, side, &mut b);
                    assert_eq!(a, b, "{name} ({vary}) {side:?} in {}", pos.to_text(&v.rules));
                    assert_eq!(count_drops(&sets, pos, side, &mut scratch), a.len(), "{name}");
                    found += a.len();
                }
            });
            assert!(found > 200, "{name} ({vary}): {found} drops");
        }
    }

    #[test]
    fn slides_counted_on_the_rays_are_the_slides_walked() {
        for name in ["chess", "capablanca", "amazons", "xiangqi", "grasshopper"] {
            let v = Variant::load(name, &[]).unwrap();
            let g = &v.rules.geometry;
            let (mut scratch, mut slid) = (Vec::new(), 0);
            v.random_positions(3, 6, 80, |pos, _| {
                for from in (0..pos.board().len() as u16).filter(|&c| !pos.board()[c as usize].is_empty()) {
                    for form in &v.rules.pieces[pos.board()[from as usize].index()].quiet {
                        scratch.clear();
                        form.generate(g, pos.view(), from, ZoneSet::EMPTY, &mut scratch);
                        assert_eq!(
                            form.count_listless(g, pos.view(), from),
                            Some(scratch.len()),
                            "{name} {from} in {}",
                            pos.to_text(&v.rules)
                        );
                        slid += matches!(form, crate::rules::Form::Slide { .. }) as u32 * scratch.len() as u32;
                    }
                }
            });
            assert!(slid > 1000, "{name}: {slid} slides");
        }
    }

    #[test]
    fn end_of_chain_removal_forbids_jumping_twice() {
        let v = Variant::load("checkers", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "4/4/4/4/1mm1/4/mmm1/K3 white 0").unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["a1xc3xe1xg3xe5xc3", "a1xc3xe5xg3xe1xc3"]);
        let why = v.find_move(&mut pos, "a1xc3xe1xg3xe5xc3xa1").unwrap_err().to_string();
        assert!(why.starts_with("b2 was taken earlier in this capture"), "{why}");
    }

    #[test]
    fn may_stop_lists_every_prefix() {
        let v = Variant::load("bivouac", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "5O/1xxx2/6/6/6/6/4x1/2x1O1/2x3/1O4/O4x white 0").unwrap();
        let t = texts(&v, &mut pos);
        assert!(t.contains(&"b2xd4".to_string()) && t.contains(&"b2xd4xb4".to_string()));
    }

    #[test]
    fn compulsory_maximal_keeps_only_the_longest() {
        let v = Variant::load("bivouac", &[("captures".into(), "compulsory_maximal".into())]).unwrap();
        let mut pos = Position::from_text(&v.rules, "5O/1xxx2/6/6/6/6/4x1/2x1O1/2x3/1O4/O4x white 0").unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["b2xd4xb4"]);
    }

    #[test]
    fn flying_jumps_pass_empty_cells_and_land_anywhere_beyond() {
        let v = Variant::load("international", &[]).unwrap();
        // The king on a1 flies over b2 and c3 to take d4, landing on e5 or f6 (g7 holds a man),
        // and from either takes g7 on the same diagonal, landing on h8, i9 or j10: six paths,
        // three moves (e5 and f6 take the same two men to the same end; e5 comes first).
        let text = "5/5/5/3m1/5/5/1m3/5/5/K4 white 0";
        let mut pos = Position::from_text(&v.rules, text).unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["a1xe5xh8", "a1xe5xi9", "a1xe5xj10"]);
        let p = Variant::load("international", &[("capture_identity".into(), "path".into())]).unwrap();
        let mut pos = Position::from_text(&p.rules, text).unwrap();
        assert_eq!(texts(&p, &mut pos), vec!["a1xe5xh8", "a1xe5xi9", "a1xe5xj10", "a1xf6xh8", "a1xf6xi9", "a1xf6xj10"]);
        // Russian: the man crowned on d8 takes f6 as a flying king; the same man in
        // international draughts may not (it is crowned only where its move ends) and stops.
        let r = Variant::load("russian", &[]).unwrap();
        let mut pos = Position::from_text(&r.rules, "4/1m2/M1m1/4/4/4/3m/4 white 0").unwrap();
        assert_eq!(texts(&r, &mut pos), vec!["b6xd8xg5", "b6xd8xh4"]);
        let b = Variant::load("brazilian", &[]).unwrap();
        let mut pos = Position::from_text(&b.rules, "4/1m2/M1m1/4/4/4/3m/4 white 0").unwrap();
        assert_eq!(texts(&b, &mut pos), vec!["b6xd8"]);
    }

    #[test]
    fn captured_set_identity_merges_and_accepts_either_path() {
        let v = Variant::load("international", &[]).unwrap();
        let text = "4m/5/5/5/5/5/1mm2/1M3/1mm2/5 white 0";
        let mut pos = Position::from_text(&v.rules, text).unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["c3xe1xg3xe5xc3"]);
        let kept = v.find_move(&mut pos, "c3xe1xg3xe5xc3").unwrap();
        assert_eq!(v.find_move(&mut pos, "c3xe5xg3xe1xc3").unwrap(), kept);
        let p = Variant::load("international", &[("capture_identity".into(), "path".into())]).unwrap();
        let mut pos = Position::from_text(&p.rules, text).unwrap();
        assert_eq!(texts(&p, &mut pos), vec!["c3xe1xg3xe5xc3", "c3xe5xg3xe1xc3"]);
        // The kept path is the one whose landings come first in cell order, whatever the order
        // the chains were found in.
        let (a, b) = (Move::along(0, &[5, 9, 0], &[2, 7, 3]), Move::along(0, &[4, 9, 0], &[3, 7, 2]));
        let mut list = vec![a, b];
        merge_same_captures(&mut list, 0);
        assert_eq!(list, vec![b]);
        let mut list = vec![b, a];
        merge_same_captures(&mut list, 0);
        assert_eq!(list, vec![b]);
        assert!(!same_capture(&a, &Move::along(0, &[5, 9, 1], &[2, 7, 3])));
    }

    #[test]
    fn dedup_keeps_the_first_of_each_move() {
        let a = Move::quiet(0, 1);
        let b = Move::quiet(0, 2);
        let c = Move::replace(0, 3);
        let mut list = vec![a, b, a, c, b];
        dedup_from(&mut list, 1);
        assert_eq!(list, vec![a, b, a, c]);
        // A quiet move and a capture onto one cell differ; so do moves from two cells onto one,
        // and a chain from the same cell; their twins go.
        let (d, e) = (Move::quiet(5, 1), Move::capture_at(0, 1, 9));
        let mut list = vec![a, Move::replace(0, 1), d, e, d, e, Move::replace(0, 1), a];
        dedup_from(&mut list, 0);
        assert_eq!(list, vec![a, Move::replace(0, 1), d, e]);
        // Two pieces' runs, and a run of a start cell seen before (compared one by one).
        let mut list = vec![a, b, d, a, Move::quiet(5, 2), d, b, Move::quiet(0, 4)];
        dedup_from(&mut list, 0);
        assert_eq!(list, vec![a, b, d, Move::quiet(5, 2), Move::quiet(0, 4)]);
    }

    #[test]
    fn drops_fill_empty_cells_and_fall() {
        let v = Variant::load("tic-tac-toe", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "3/1X1/O2 white 2").unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["@a2", "@a3", "@b1", "@b3", "@c1", "@c2", "@c3"]);
        let v = Variant::load("connect-four", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "7/7/7/7/2d4/2D4 white 2").unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["@a1", "@b1", "@c3", "@d1", "@e1", "@f1", "@g1"]);
        let why = |pos: &mut Position, t: &str| v.find_move(pos, t).unwrap_err().to_string();
        assert_eq!(why(&mut pos, "@c5"), "drops fall: a disc dropped in column c lands on c3");
        assert_eq!(why(&mut pos, "@c2"), "c2 is occupied");
        assert_eq!(why(&mut pos, "Q@a1"), "white has no piece written Q to drop (its drops: D@)");
        assert_eq!(v.find_move(&mut pos, "d@C3").unwrap().text(&v.rules.geometry), "@c3");
    }

    #[test]
    fn lines_win_and_a_full_board_draws() {
        let v = Variant::load("connect-four", &[]).unwrap();
        // Three white discs on the rising diagonal a1–c3, d4 open above d1–d3.
        let mut pos = Position::from_text(&v.rules, "7/7/7/2Dd3/1Ddd3/DddD3 white 8").unwrap();
        v.play(&mut pos, "@d4").unwrap();
        assert_eq!(pos.result().unwrap().describe(&v.rules.player_names), "white wins: four in a row");
        // A line of the opponent's through the landing does not count for the mover; only the
        // mover's own discs make its line.
        let mut pos = Position::from_text(&v.rules, "7/7/7/7/7/ddd4 white 3").unwrap();
        v.play(&mut pos, "@d1").unwrap();
        assert!(pos.result().is_none());
    }

    /// How the game stands in the position `text`: its result in words, or `None` while it goes on.
    fn ended(v: &Variant, text: &str) -> Option<String> {
        let mut pos = Position::from_text(&v.rules, text).unwrap();
        v.outcome(&mut pos).unwrap().map(|o| o.describe(&v.rules.player_names))
    }

    #[test]
    fn a_tally_counts_the_kinds_it_names() {
        // tests/tally: nothing moves; stones count and walls do not.
        let v = Variant::load("tests/tally/variant.toml", &[]).unwrap();
        let over = |text: &str| ended(&v, text);
        // Two white stones against one black stone and a wall: white has more stones.
        assert_eq!(over("SSsw white 0").as_deref(), Some("white wins: neither player can move"));
        assert_eq!(over("Sssw black 0").as_deref(), Some("black wins: neither player can move"));
        // Walls do not count: one stone against none wins even against more pieces (two walls),
        // and one stone each draws whoever has a wall.
        assert_eq!(over("Sww1 white 0").as_deref(), Some("white wins: neither player can move"));
        assert_eq!(over("Wsw1 white 0").as_deref(), Some("black wins: neither player can move"));
        assert_eq!(over("SWsw white 0").as_deref(), Some("draw: neither player can move"));
    }

    /// `beside` (Basileus's two basileis): a capture that ends next to the enemy basileus loses;
    /// a quiet move there loses only under `loss_after_any_move`; a capture that ends away from
    /// it does not.
    #[test]
    fn beside_ends_the_game_next_to_the_named_kinds() {
        let result = |opts: &[(&str, &str)], text: &str, mv: &str| {
            let opts: Vec<(String, String)> = opts.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
            let v = Variant::load("basileus", &opts).unwrap();
            let mut pos = Position::from_text(&v.rules, text).unwrap();
            v.play(&mut pos, mv).unwrap();
            pos.result().map(|r| r.describe(&v.rules.player_names))
        };
        // White's basileus jumps e3 and lands on e4, beside black's on e5.
        let capture = "9/9/p8/4k4/9/4p4/4K4/P8 white";
        assert_eq!(result(&[], capture, "e2xe4").as_deref(), Some("black wins: basileus stopped beside the enemy basileus"));
        // The same capture with black's basileus on g5, two files away: the game goes on.
        assert_eq!(result(&[], "9/9/p8/6k2/9/4p4/4K4/P8 white", "e2xe4"), None);
        // A quiet step to e3, beside black's basileus on e4: only loss_after_any_move ends it.
        let quiet = "9/9/p8/9/4k4/9/4K4/P8 white";
        assert_eq!(result(&[], quiet, "e2-e3"), None);
        let any = [("king_adjacency", "loss_after_any_move")];
        assert_eq!(result(&any, quiet, "e2-e3").as_deref(), Some("black wins: basileus stopped beside the enemy basileus"));
        // Beside an enemy pawn (f5) only: not one of `of`.
        assert_eq!(result(&[], "k8/9/6p2/5p3/9/4p4/4K4/P8 white", "e2xe4"), None);
        // A pawn beside the enemy basileus is not a basileus (`kinds`).
        assert_eq!(result(&any, "9/9/p8/9/4k4/9/3P5/P7K white", "d2-e3"), None);
    }

    #[test]
    fn royal_capture_can_wait_for_the_last_royal_piece() {
        // tests/extinction: `last = true`; black has kings on b4 and a1, then only on b4.
        let v = Variant::load("tests/extinction/variant.toml", &[]).unwrap();
        let mut pos = crate::state::Position::from_text(&v.rules, "1k2/K3/4/k2K white").unwrap();
        v.play(&mut pos, "a3xb4").unwrap();
        assert_eq!(pos.result(), None, "a king is left on a1");
        let mut pos = crate::state::Position::from_text(&v.rules, "1k2/K3/4/3K white").unwrap();
        v.play(&mut pos, "a3xb4").unwrap();
        assert_eq!(pos.result().map(|r| r.describe(&v.rules.player_names)), Some("white wins: last king captured".into()));
    }

    #[test]
    fn no_moves_results_can_depend_on_an_attack() {
        // tests/checkmate: black's king on a4 is walled in by its own walls, which never move.
        let v = Variant::load("tests/checkmate/variant.toml", &[]).unwrap();
        let over = |text: &str| ended(&v, text);
        // White's knight on b2 attacks a4 (one file left, two ranks up): checkmate, a loss.
        assert_eq!(over("kw2/ww2/1N2/3K black 0").as_deref(), Some("white wins: checkmate"));
        // On c1 it attacks nothing of black's king: stalemate, the second rule, a draw.
        assert_eq!(over("kw2/ww2/4/2NK black 0").as_deref(), Some("draw: stalemate"));
        // A capture of a wall is no attack on the king: still stalemate (d2 leaps to b3).
        assert_eq!(over("kw2/ww2/3N/3K black 0").as_deref(), Some("draw: stalemate"));
        // White, with moves, is not over.
        assert_eq!(over("kw2/ww2/1N2/3K white 0"), None);
    }

    #[test]
    fn adjacent_conversion_turns_every_neighbour() {
        // tests/infection: white drops on b2 beside black stones on a1, b3, c3 (diagonal), c2
        // and a white one on c1; d4 is black but not adjacent. All four black neighbours turn.
        let v = Variant::load("tests/infection/variant.toml", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "3s/1ss1/2s1/s1S1 white 0").unwrap();
        let before = pos.clone();
        v.play(&mut pos, "@b2").unwrap();
        assert_eq!(pos.to_text(&v.rules), "3s/1SS1/1SS1/S1S1 black 1");
        pos.undo();
        assert_eq!(pos, before, "undo restores the stones' owners");
    }

    #[test]
    fn hook_filters_by_landing_zone_and_counter() {
        // tests/scripted/hook_filters: after_move runs for moves onto the far rank while the
        // mover's `crowned` counter is 0, and raises it. White men on a7 and b2, black on g3.
        let v = Variant::load("tests/scripted/hook_filters/variant.toml", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "4/M3/4/4/4/3m/M3/4 white 0").unwrap();
        let runs = |pos: &mut Position, t: &str| {
            let m = v.find_move(pos, t).unwrap();
            v.after_move_runs(pos, &m)
        };
        assert!(runs(&mut pos, "a7-b8"));
        assert!(!runs(&mut pos, "b2-a3") && !runs(&mut pos, "b2-c3"));
        v.play(&mut pos, "a7-b8").unwrap();
        assert_eq!(pos.counter(crate::piece::Player::FIRST, 0), 1, "the hook ran once");
        // With the counter at 1, a move onto the far rank no longer calls it.
        let mut pos = Position::from_text(&v.rules, "4/M3/4/4/4/3m/M3/4 white 0 counters=crowned:1:0").unwrap();
        assert!(!runs(&mut pos, "a7-b8"));
    }

    #[test]
    fn explanations_name_the_rule() {
        let v = Variant::load("basileus", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "9/4k4/9/4p4/4P4/9/4K4/9 white 0").unwrap();
        let why = |pos: &mut Position, t: &str| v.find_move(pos, t).unwrap_err().to_string();
        assert_eq!(why(&mut pos, "e2-d3"), "capture is compulsory (e4xe6xe8 is available)");
        assert_eq!(why(&mut pos, "e4xe6"), "the capture must go on while it can (e4xe6xe8)");
        assert_eq!(why(&mut pos, "d4-d5"), "there is no piece on d4");
        assert!(why(&mut pos, "e7-e6").starts_with("e7 holds a black basileus"));
    }
}
