//! Capture chains: a piece jumping (or flying) over victims, landing after landing, and their
//! counts without building moves.

use super::MoveList;
use super::finish::dedup_from;
use crate::cellset::CellSet;
use crate::geometry::{Geometry, NONE, ZoneSet};
use crate::notation::Move;
use crate::piece::PieceCode;
use crate::piece::Player;
use crate::rules::movement::victim;
use crate::rules::{BoardView, Chain, CodeSet, Flying, PieceRules, PromoteAt, Removal, Ruleset};
use crate::state::Position;

/// Appends the capture moves of `side` (whole chains, under the chain policy).
pub(crate) fn captures(rules: &Ruleset, board: &mut [PieceCode], side: Player, out: &mut MoveList) {
    captures_into(rules, board, side, out);
}

/// [`captures`] into any [`ChainEnds`]: a list, or a [`Tally`].
pub(super) fn captures_into<S: ChainEnds>(rules: &Ruleset, board: &mut [PieceCode], side: Player, out: &mut S) {
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
pub(crate) fn captures_landing_anywhere(rules: &Ruleset, board: &mut [PieceCode], side: Player, out: &mut MoveList) {
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
pub(super) const INLINE_PATH: usize = 16;

/// A capture chain being built: its start, its length, the first [`INLINE_PATH`] jumps
/// (landing, jumped cell) in arrays, the rest in a list that only chains that long use.
pub(super) struct Scratch {
    from: u16,
    len: u16,
    path: [u16; INLINE_PATH],
    victims: [u16; INLINE_PATH],
    deep: Vec<(u16, u16)>,
}

impl Scratch {
    pub(super) fn new() -> Scratch {
        Scratch { from: 0, len: 0, path: [NONE; INLINE_PATH], victims: [NONE; INLINE_PATH], deep: Vec::new() }
    }
}

/// Where finished chains go: a move list, or a [`Tally`] that only counts them.
pub(super) trait ChainEnds {
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
pub(super) struct Tally {
    pub(super) maximum: bool,
    pub(super) best: u16,
    pub(super) n: u64,
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
pub(super) fn captures_from<S: ChainEnds>(
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

pub(super) fn start_chain<S: ChainEnds>(
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
pub(super) fn can_jump(rules: &Ruleset, board: &[PieceCode], code: PieceCode, at: u16, s: &Scratch, depth: usize) -> bool {
    let pr = &rules.pieces[code.index()];
    let twice = depth > 0 && rules.captures.removal == Removal::EndOfChain;
    let short = pr.any_jump.get(at).iter().any(|&(over, land, set)| {
        victim(board[over as usize], set) && board[land as usize].is_empty() && !(twice && jumped(s, depth, over))
    });
    short || (pr.flies && can_fly(rules, board, pr, at, s, depth))
}

/// Whether one of the piece's flying jumps from `at` has a landing.
#[cold]
pub(super) fn can_fly(rules: &Ruleset, board: &[PieceCode], pr: &PieceRules, at: u16, s: &Scratch, depth: usize) -> bool {
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
pub(super) fn flying_victim(
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
pub(super) fn landings<'a>(
    g: &'a Geometry,
    board: &'a [PieceCode],
    fl: &'a Flying,
    at: u16,
    v: u16,
    over: u16,
) -> impl Iterator<Item = u16> + 'a {
    std::iter::successors(Some(g.step(v, over)), move |&l| (l != NONE).then(|| g.step(v, l)))
        .take_while(move |&l| l != NONE && board[l as usize].is_empty())
        .filter(move |&l| fl.cond.land_ok(g, at, l) && fl.cond.same_zone_ok(g, over, l))
}

/// Whether the chain's first `depth` jumps took `over`.
#[inline(always)]
pub(super) fn jumped(s: &Scratch, depth: usize, over: u16) -> bool {
    if depth <= INLINE_PATH {
        s.victims[..depth].contains(&over)
    } else {
        s.victims.contains(&over) || s.deep[..depth - INLINE_PATH].iter().any(|&(_, o)| o == over)
    }
}

/// The chain so far as a move.
#[inline(always)]
pub(super) fn built(s: &Scratch) -> Move {
    let n = s.len as usize;
    if n <= INLINE_PATH { Move::along(s.from, &s.path[..n], &s.victims[..n]) } else { long_chain(s) }
}

#[cold]
pub(super) fn long_chain(s: &Scratch) -> Move {
    let rest = &s.deep[..s.len as usize - INLINE_PATH];
    let landings: Vec<u16> = s.path.iter().copied().chain(rest.iter().map(|&(l, _)| l)).collect();
    let victims: Vec<u16> = s.victims.iter().copied().chain(rest.iter().map(|&(_, v)| v)).collect();
    Move::along(s.from, &landings, &victims)
}

/// Extends the chain in `s` from `at` by every jump the piece can make; a chain's length is
/// bounded only by the pieces it can take (each at most once). Returns whether any jump was
/// possible.
pub(super) fn chain<S: ChainEnds>(
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
pub(super) fn fly<S: ChainEnds>(
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
pub(super) fn record(s: &mut Scratch, land: u16, over: u16) {
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
pub(super) fn unrecord(s: &mut Scratch, depth: usize) {
    s.len = depth as u16;
    if depth < INLINE_PATH {
        s.victims[depth] = NONE;
    }
}

/// Whether the chain stops on `land` after taking the piece `vc`, and the code the piece goes
/// on as (promoted there, when promotion happens on any landing and does not end the chain).
#[inline(always)]
pub(super) fn after_landing(rules: &Ruleset, code: PieceCode, side: Player, vc: PieceCode, land: u16) -> (bool, PieceCode) {
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
pub(super) fn continues(
    rules: &Ruleset,
    board: &mut [PieceCode],
    side: Player,
    code: PieceCode,
    over: u16,
    land: u16,
    s: &mut Scratch,
) -> bool {
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
pub(super) fn link<S: ChainEnds>(
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

/// The number of capture chains of `side`'s pieces on `jumpers` (each can make a first jump):
/// all of them, or with `maximum` those taking the most pieces.
#[inline]
pub(super) fn tally_chains(rules: &Ruleset, pos: &mut Position, side: Player, jumpers: u128, maximum: bool) -> u64 {
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
pub(super) fn count_chains_from(rules: &Ruleset, board: &mut [PieceCode], side: Player, from: u16) -> u64 {
    let code = board[from as usize];
    board[from as usize] = PieceCode::EMPTY; // the start cell counts as empty during a chain
    let mut n = 0;
    count_chain(rules, board, side, code, from, 0, &mut n);
    board[from as usize] = code;
    n
}

/// [`chain`] counting into `n`, the cells jumped so far in `taken`.
pub(super) fn count_chain(
    rules: &Ruleset,
    board: &mut [PieceCode],
    side: Player,
    code: PieceCode,
    at: u16,
    taken: u128,
    n: &mut u64,
) -> bool {
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
pub(super) fn capture_chains(rules: &Ruleset, pos: &mut Position, side: Player, jumpers: u128, s: &mut Scratch, out: &mut MoveList) {
    for from in CellSet::from_bits(jumpers) {
        let before = out.len();
        let code = pos.board()[from as usize];
        start_chain(rules, pos.board_scratch(), side, from, code, s, out);
        if rules.dedup {
            dedup_from(out, before);
        }
    }
}
