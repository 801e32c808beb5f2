//! Perft on the cell sets alone, where the rules allow it: every piece's moves are steps to
//! empty cells and capture chains of short jumps ([`crate::rules::setwise`] holds them all),
//! a move only lifts the piece, takes what it jumped and lands it (promoted, maybe: the plain
//! make, [`MakePath::Plain`]), no script hook runs, and no end condition but having no move can
//! stop a game (so no history, clock or hash is needed: English draughts). A node is then one
//! cell set per piece code and the side to move, copied to make a move; the last level's moves
//! are counted on the sets (steps) and by walking the chains with a set of taken cells.
//!
//! The counts are the general perft's ([`crate::perft`] falls back to it wherever this does not
//! apply; a test holds the two equal in every shipped variant this applies to, from random
//! positions); `perft --general` asks for the general kernel.

use crate::cellset::Word;
use crate::interrupt;
use crate::interrupt::Interrupted;
use crate::piece::{PieceCode, Player};
use crate::plan::WalkKind;
use crate::rules::setwise::{MAX_CODES, Setwise};
use crate::rules::{Chain, CodeSet, PromoteAt, Removal, Ruleset};
use crate::state::Position;

mod lean;
pub(crate) mod place;
pub(crate) use lean::LeanPerft;
pub(crate) use place::{PlaceMove, PlaceWalk};

/// Which walk on the cell sets a variant's perft takes: steps and short capture chains, or
/// leaps of pieces that carry attribute values ([`lean`]).
pub(crate) enum SetWalk {
    Steps(SetPerft),
    Lean(LeanPerft),
    Place(PlaceWalk),
}

impl SetWalk {
    /// The tables of the walk the plan chose ([`crate::plan::Plan::walk`]), where the pieces'
    /// forms fit them (built once, when the variant is loaded).
    pub(crate) fn of(rules: &Ruleset, walk: WalkKind) -> Option<SetWalk> {
        match walk {
            WalkKind::Steps => SetPerft::of(rules).map(SetWalk::Steps),
            WalkKind::Lean => LeanPerft::of(rules).map(SetWalk::Lean),
            WalkKind::Place => PlaceWalk::of(rules).map(SetWalk::Place),
        }
    }

    /// Whether perft from `pos` to `depth` may take this walk.
    pub(crate) fn applies(&self, pos: &Position, depth: u32) -> bool {
        match self {
            SetWalk::Steps(s) => s.applies(pos, depth),
            SetWalk::Lean(l) => l.applies(pos, depth),
            SetWalk::Place(p) => p.applies(pos, depth),
        }
    }

    /// The number of move sequences `depth` long from `pos`; with `made`, every last move is
    /// made too (on the sets).
    ///
    /// # Errors
    /// Ctrl-C was pressed.
    pub(crate) fn perft(&self, pos: &Position, depth: u32, made: bool) -> Result<u64, Interrupted> {
        match self {
            SetWalk::Steps(s) => s.perft(pos, depth, made),
            SetWalk::Lean(l) => l.perft(pos, depth, made),
            SetWalk::Place(p) => p.perft(pos, depth, made),
        }
    }
}

/// A position as perft on the sets sees it: each piece code's cells, and the side to move.
#[derive(Clone, Copy)]
struct Node<W, const N: usize> {
    sets: [W; N],
    side: Player,
}

/// A move on the sets: the piece's code before and after it, its start and landing, and the
/// cells it takes.
#[derive(Clone, Copy)]
struct SetMove<W> {
    code: u8,
    new_code: u8,
    from: u16,
    to: u16,
    taken: W,
}

/// What a piece code's moves read on the sets, by code.
#[derive(Clone, Default)]
struct CodeMoves {
    /// Its steps: offset, start cells, and the form's piece-count limit (`u16::MAX`: none).
    steps: Vec<(i16, u128, u16)>,
    /// Its short jumps as shifts: offsets of the jumped cell and the landing, and start cells
    /// (to find the pieces that can jump).
    jump_shifts: Vec<(i16, i16, u128)>,
    /// What its jumps take (one set for all of them).
    victims: CodeSet,
    /// Its jumps' (jumped cell, landing) pairs from each cell: `pairs[at[c]..at[c + 1]]`.
    at: Vec<u32>,
    pairs: Vec<(u16, u16)>,
    /// Where it ends the move promoted: the zone's cells, the code it becomes, when.
    promotes: Option<(u128, u8, PromoteAt)>,
    /// Where a landing in mid-chain promotes it: the zone's cells, whether that ends the
    /// chain, the code it goes on as.
    on_landing: Option<(u128, bool, u8)>,
}

/// The rules read once, at load, for perft on the sets (see the module's text).
pub(crate) struct SetPerft {
    ncodes: usize,
    cells: u128,
    codes: Vec<CodeMoves>,
    /// Whether some step has a piece-count limit (then the mover's pieces are counted).
    limits: bool,
    compulsory: bool,
    chain: Chain,
    /// Whether a taken piece stays until the chain ends (and may not be jumped twice).
    twice: bool,
    /// The rules' `move_limit` (0: none).
    move_limit: u32,
}

impl SetPerft {
    /// Perft on the sets for `rules`, whose constructs the plan found fit for it
    /// ([`WalkKind::Steps`]), where the pieces' forms fit the tables (`None`: the general perft must
    /// count). Read once, when the variant is loaded.
    pub(crate) fn of(rules: &Ruleset) -> Option<SetPerft> {
        let sw: &Setwise = rules.setwise.as_ref()?;
        let pol = &rules.captures;
        let pieces = sw.codes.iter().all(|c| {
            c.jumps.is_some()
                && c.steps.as_ref().is_some_and(|s| s.take.is_empty() && s.masks.is_empty() && s.leaps.is_empty() && s.fixed())
        });
        // Each piece's jumps take the same pieces (one victim set a piece).
        let victims = rules.pieces.iter().all(|p| p.jumps.windows(2).all(|w| w[0].victims == w[1].victims));
        if !(victims && pieces && sw.short_jumps && sw.codes.len() <= MAX_CODES) {
            return None;
        }
        let g = &rules.geometry;
        let zone_cells = |z| (0..g.len() as u16).filter(|&x| g.zones_of(x).meets(z)).fold(0u128, |s, x| s | 1 << x);
        let codes: Vec<CodeMoves> = (0..sw.codes.len())
            .map(|c| {
                let (code, shifts) = (PieceCode::from_index(c), &sw.codes[c]);
                let steps = shifts.steps.as_ref().map_or(vec![], |s| s.quiet.iter().map(|(s, limit)| (s.offset, s.from, *limit)).collect());
                let jump_shifts = shifts.jumps.as_ref().map_or(vec![], |j| j.iter().map(|j| (j.over, j.land, j.from)).collect());
                let jumps = &rules.pieces[c].jumps;
                let victims = jumps.first().map_or(0, |j| j.victims) & ((1 << sw.codes.len()) - 1) & !1;
                let mut at = Vec::with_capacity(g.len() + 1);
                at.push(0u32);
                let mut pairs = Vec::new();
                for cell in 0..g.len() as u16 {
                    pairs.extend(jumps.iter().flat_map(|j| j.table.get(cell).iter().copied()));
                    at.push(pairs.len() as u32);
                }
                let p = rules.pieces[c].promote.as_ref().filter(|p| c > 0 && p.choices.is_empty());
                let promotes = p.map(|p| (zone_cells(p.zone), PieceCode::new(p.to, code.owner()).index() as u8, p.at));
                let on_landing = p
                    .filter(|p| p.at == PromoteAt::AnyLanding && code.kind() != p.to)
                    .map(|p| (zone_cells(p.zone), p.ends_chain, PieceCode::new(p.to, code.owner()).index() as u8));
                CodeMoves { steps, jump_shifts, victims, at, pairs, promotes, on_landing }
            })
            .collect();
        let limits = codes.iter().any(|c| c.steps.iter().any(|s| s.2 != u16::MAX));
        Some(SetPerft {
            ncodes: sw.codes.len(),
            cells: sw.cells,
            codes,
            limits,
            compulsory: pol.compulsory,
            chain: pol.chain,
            twice: pol.removal == Removal::EndOfChain,
            move_limit: rules.move_limit,
        })
    }

    /// Whether perft from `pos` to `depth` may walk the sets: the game is not over, no turn is
    /// part-played, the position keeps its cell sets, and no move limit falls within the depth.
    pub(crate) fn applies(&self, pos: &Position, depth: u32) -> bool {
        pos.result().is_none()
            && pos.continuation().is_none()
            && pos.cells_by_code().len() == self.ncodes
            && (self.move_limit == 0 || pos.ply() as u64 + depth as u64 <= self.move_limit as u64)
    }

    /// The number of move sequences `depth` long from `pos`; with `made`, every last move is
    /// made too (on the sets).
    ///
    /// # Errors
    /// Ctrl-C was pressed.
    pub(crate) fn perft(&self, pos: &Position, depth: u32, made: bool) -> Result<u64, Interrupted> {
        // One word a set where the board fits, and no more sets than the codes need (a node
        // is copied at every move).
        match (self.cells >> 64 == 0, self.ncodes <= 8) {
            (true, true) => self.run::<u64, 8>(pos, depth, made),
            (true, false) => self.run::<u64, MAX_CODES>(pos, depth, made),
            (false, true) => self.run::<u128, 8>(pos, depth, made),
            (false, false) => self.run::<u128, MAX_CODES>(pos, depth, made),
        }
    }

    fn run<W: Word, const N: usize>(&self, pos: &Position, depth: u32, made: bool) -> Result<u64, Interrupted> {
        let mut node = Node { sets: [W::ZERO; N], side: pos.side() };
        for (s, &c) in node.sets.iter_mut().zip(pos.cells_by_code()) {
            *s = W::of(c);
        }
        let mut lists: Vec<Vec<SetMove<W>>> = (0..=depth).map(|_| Vec::with_capacity(64)).collect();
        perft_tree(&Words::<W, N>(self, std::marker::PhantomData), &node, depth, made, &mut lists)
    }

    /// Makes `m` on `node`.
    #[inline]
    fn make<W: Word, const N: usize>(&self, node: &mut Node<W, N>, m: &SetMove<W>) {
        let them = node.side.other();
        if m.taken != W::ZERO {
            let mut c = 1 + them.index();
            while c < self.ncodes {
                node.sets[c] = node.sets[c] & !m.taken;
                c += 2;
            }
        }
        node.sets[m.code as usize] = node.sets[m.code as usize] & !W::bit(m.from);
        node.sets[m.new_code as usize] = node.sets[m.new_code as usize] | W::bit(m.to);
        node.side = them;
    }

    /// The empty cells of `node`.
    #[inline]
    fn empty<W: Word, const N: usize>(&self, node: &Node<W, N>) -> W {
        let mut all = W::ZERO;
        for &s in &node.sets[1..self.ncodes] {
            all = all | s;
        }
        W::of(self.cells) & !all
    }

    /// The cells of the codes in `set`.
    #[inline]
    fn cells_of<W: Word, const N: usize>(&self, node: &Node<W, N>, set: CodeSet) -> W {
        let mut out = W::ZERO;
        let mut rest = set;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out = out | node.sets[c];
        }
        out
    }

    /// The cells of the side to move's pieces of code `c` that can make a first jump.
    #[inline]
    fn jumpers<W: Word, const N: usize>(&self, node: &Node<W, N>, c: usize, empty: W) -> W {
        let mine = node.sets[c];
        let mut out = W::ZERO;
        if mine == W::ZERO {
            return out;
        }
        let victims = self.cells_of(node, self.codes[c].victims);
        for &(over, land, from) in &self.codes[c].jump_shifts {
            out = out | (mine & W::of(from) & victims.back(over) & empty.back(land));
        }
        out
    }

    /// The mover's piece count where a step's limit needs it.
    #[inline]
    fn own<W: Word, const N: usize>(&self, node: &Node<W, N>) -> u32 {
        if !self.limits {
            return 0;
        }
        (1 + node.side.index()..self.ncodes).step_by(2).map(|c| node.sets[c].count()).sum()
    }

    /// The legal moves of `node` counted, and listed into `out` where it is given: each
    /// piece's chains walked, then (unless a capture is compulsory and there is one) the steps,
    /// counted a group at a time on the sets or listed cell by cell.
    #[inline(always)]
    fn walk<W: Word, const N: usize>(&self, node: &Node<W, N>, mut out: Option<&mut Vec<SetMove<W>>>) -> u64 {
        let empty = self.empty(node);
        let mut n = 0;
        let mut c = 1 + node.side.index();
        while c < self.ncodes {
            let mut jumpers = self.jumpers(node, c, empty);
            while jumpers != W::ZERO {
                let from = jumpers.pop();
                let mut walk = Walk { node, empty: empty | W::bit(from), from, code: c, out: out.as_deref_mut(), n: 0 };
                self.chain(&mut walk, c, from, self.cells_of(node, self.codes[c].victims), (W::ZERO, W::ZERO));
                n += walk.n;
            }
            c += 2;
        }
        if self.compulsory && n > 0 {
            return n;
        }
        let own = self.own(node);
        let mut c = 1 + node.side.index();
        while c < self.ncodes {
            let mine = node.sets[c];
            if mine != W::ZERO {
                for &(offset, from, limit) in &self.codes[c].steps {
                    if limit != u16::MAX && own > limit as u32 {
                        continue;
                    }
                    let mut starts = mine & W::of(from) & empty.back(offset);
                    n += starts.count() as u64;
                    let Some(out) = out.as_deref_mut() else { continue };
                    while starts != W::ZERO {
                        let from = starts.pop();
                        let to = (from as i16 + offset) as u16;
                        let new_code = self.promoted(c, from, to, W::bit(to));
                        out.push(SetMove { code: c as u8, new_code, from, to, taken: W::ZERO });
                    }
                }
            }
            c += 2;
        }
        n
    }

    /// The code a piece of code `c` from `from` ends the move as, landing on `to` after
    /// landing on `landings` (the plain make's promotion).
    #[inline]
    fn promoted<W: Word>(&self, c: usize, from: u16, to: u16, landings: W) -> u8 {
        match self.codes[c].promotes {
            Some((zone, code, at))
                if match at {
                    PromoteAt::AnyLanding => landings & W::of(zone) != W::ZERO,
                    PromoteAt::EndOfMove => zone >> to & 1 != 0,
                    PromoteAt::FromOrTo => zone >> to & 1 != 0 || zone >> from & 1 != 0,
                } =>
            {
                code
            }
            _ => c as u8,
        }
    }

    /// The chain of the piece now of code `code` on `at`, `victims` its victims' cells, having
    /// taken `taken` and landed on `landings`: each way it may end is a move (the kernel's chain
    /// walk, on the sets). Whether it can jump on.
    fn chain<W: Word, const N: usize>(
        &self,
        w: &mut Walk<'_, '_, W, N>,
        code: usize,
        at: u16,
        victims: W,
        (taken, landings): (W, W),
    ) -> bool {
        let cm = &self.codes[code];
        // A piece is taken once; with immediate removal its cell is empty at once.
        let left = victims & !taken;
        let empty = if self.twice { w.empty } else { w.empty | taken };
        let mut found = false;
        for &(over, land) in &cm.pairs[cm.at[at as usize] as usize..cm.at[at as usize + 1] as usize] {
            if !left.has(over) || !empty.has(land) {
                continue;
            }
            found = true;
            let (taken, landings) = (taken | W::bit(over), landings | W::bit(land));
            // A landing in the zone promotes in mid-chain: it ends the chain, or the piece
            // jumps on as what it became.
            let (stop, next) = match cm.on_landing {
                Some((zone, ends, to)) if zone >> land & 1 != 0 => (ends, to as usize),
                _ => (false, code),
            };
            if stop || self.chain == Chain::Single {
                w.end(self, land, taken, landings);
                continue;
            }
            if self.chain == Chain::MayStop {
                w.end(self, land, taken, landings);
            }
            // A piece promoted in mid-chain takes what its new kind takes.
            let victims = if next == code { victims } else { self.cells_of(w.node, self.codes[next].victims) };
            let more = self.chain(w, next, land, victims, (taken, landings));
            if !more && self.chain == Chain::MustContinue {
                w.end(self, land, taken, landings);
            }
        }
        found
    }
}

/// A game tree the walks on the sets share: how a node's moves are counted or listed, and
/// how one is made.
trait Tree {
    type Node: Copy;
    type Move: Copy;
    /// The node's legal moves counted, and listed into `out` where it is given.
    fn walk(&self, node: &Self::Node, out: Option<&mut Vec<Self::Move>>) -> u64;
    /// Makes `m` on `node` (a copy of its parent); whether the game goes on.
    fn make(&self, node: &mut Self::Node, m: Self::Move) -> bool;
}

/// The number of move sequences `depth` long from `node` (`lists`: one a level); with `made`,
/// every last move is made too.
fn perft_tree<T: Tree>(t: &T, node: &T::Node, depth: u32, made: bool, lists: &mut [Vec<T::Move>]) -> Result<u64, Interrupted> {
    if depth == 0 {
        return Ok(1);
    }
    if depth >= 2 {
        interrupt::check()?;
    }
    if depth == 1 && !made {
        return Ok(t.walk(node, None));
    }
    let (list, rest) = lists.split_first_mut().expect("one list per level");
    list.clear();
    t.walk(node, Some(list));
    if depth == 1 {
        // Each move made, and the position after it counted as one.
        for &m in list.iter() {
            let mut next = *node;
            std::hint::black_box(t.make(&mut next, m));
            std::hint::black_box(&next);
        }
        return Ok(list.len() as u64);
    }
    let mut n = 0;
    for &m in list.iter() {
        let mut next = *node;
        // A finished game has no moves.
        if t.make(&mut next, m) {
            n += perft_tree(t, &next, depth - 1, made, rest)?;
        }
    }
    Ok(n)
}

/// [`SetPerft`] on sets of `W` words, `N` codes a node.
struct Words<'a, W, const N: usize>(&'a SetPerft, std::marker::PhantomData<W>);

impl<W: Word, const N: usize> Tree for Words<'_, W, N> {
    type Node = Node<W, N>;
    type Move = SetMove<W>;

    #[inline(always)]
    fn walk(&self, node: &Node<W, N>, out: Option<&mut Vec<SetMove<W>>>) -> u64 {
        self.0.walk(node, out)
    }

    #[inline]
    fn make(&self, node: &mut Node<W, N>, m: SetMove<W>) -> bool {
        self.0.make(node, &m);
        true
    }
}

/// One piece's capture chains being walked: the node, its empty cells (the start among them),
/// the start and the piece's code, and where each chain goes (a list, or a count).
struct Walk<'n, 'o, W, const N: usize> {
    node: &'n Node<W, N>,
    empty: W,
    from: u16,
    code: usize,
    out: Option<&'o mut Vec<SetMove<W>>>,
    n: u64,
}

impl<W: Word, const N: usize> Walk<'_, '_, W, N> {
    /// A chain ends on `to`, having taken `taken` and landed on `landings`.
    #[inline]
    fn end(&mut self, sp: &SetPerft, to: u16, taken: W, landings: W) {
        self.n += 1;
        if let Some(out) = &mut self.out {
            let new_code = sp.promoted(self.code, self.from, to, landings);
            out.push(SetMove { code: self.code as u8, new_code, from: self.from, to, taken });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::perft::perft_general;
    use crate::state::Position;
    use crate::variant::Variant;

    /// English draughts' file with `edits` (text replaced) applied, loaded from a folder of its
    /// own.
    fn checkers_with(edits: &[(&str, &str)]) -> (tempfile::TempDir, Variant) {
        let mut text = include_str!("../variants/checkers/variant.toml").to_string();
        for (from, to) in edits {
            assert!(text.contains(from), "{from} is in checkers' file");
            text = text.replacen(from, to, 1);
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("variant.toml"), text).unwrap();
        let v = Variant::load(dir.path().to_str().unwrap(), &[]).unwrap();
        (dir, v)
    }

    /// From random positions, perft on the sets (counted, and every leaf made) to depth 3 is
    /// the general kernel's count: in every shipped variant it applies to (English draughts
    /// among them), and in draughts with the capture policies and the promotion it reads
    /// otherwise (optional captures, chains that may stop or take one piece, pieces taken at
    /// once, a man crowned in mid-chain jumping on as a king), on the 64-cell board and on a
    /// 10×10 one (two-word sets), with up to eight piece codes and with nine (two more kinds,
    /// never set up: the wider node).
    #[test]
    fn the_sets_count_what_the_general_kernel_counts() {
        let mut cases: Vec<(String, Option<tempfile::TempDir>, Variant)> =
            crate::variant::shipped_names().into_iter().map(|n| (n.clone(), None, Variant::load(&n, &[]).unwrap())).collect();
        let policy = "compulsory = true\nchain = \"must_continue\"\nremoval = \"end_of_chain\"";
        for (label, edits) in [
            ("optional, may stop, at once", vec![(policy, "compulsory = false\nchain = \"may_stop\"\nremoval = \"immediate\"")]),
            ("single jumps", vec![(policy, "compulsory = true\nchain = \"single\"")]),
            ("crowned in mid-chain", vec![("ends_chain = true", "ends_chain = false")]),
            (
                "nine codes",
                vec![(
                    "[captures]",
                    "[pieces.scout]\nsymbol = \"S\"\nmoves = [{ step = \"diagonal\" }]\n\n\
                     [pieces.guard]\nsymbol = \"G\"\nmoves = [{ step = \"diagonal\" }]\n\n[captures]",
                )],
            ),
            (
                "10x10",
                vec![
                    ("files = 8\nranks = 8", "files = 10\nranks = 10"),
                    ("mmmm\nmmmm\nmmmm\n4\n4\nMMMM\nMMMM\nMMMM", "mmmmm\nmmmmm\nmmmmm\n5\n5\n5\n5\nMMMMM\nMMMMM\nMMMMM"),
                    ("ranks = [8]", "ranks = [10]"),
                ],
            ),
        ] {
            let (dir, v) = checkers_with(&edits);
            cases.push((label.to_string(), Some(dir), v));
        }
        let mut applied = Vec::new();
        for (name, _dir, v) in &cases {
            let mut positions = 0;
            v.random_positions(3, 6, 120, |pos, _| {
                let Some(sets) = v.set_perft(pos, 3) else { return };
                let at = pos.to_text(&v.rules);
                for depth in 1..=3 {
                    let general = perft_general(v, &mut pos.clone(), depth, false).unwrap();
                    assert_eq!(sets.perft(pos, depth, false).unwrap(), general, "{name} perft {depth} at {at}");
                    assert_eq!(sets.perft(pos, depth, true).unwrap(), general, "{name} perft {depth} made at {at}");
                }
                positions += 1;
            });
            if positions > 0 {
                // (Random games of a placement game are short: tic-tac-toe's last 9 plies.)
                let least = if v.place_walk().is_some() { 40 } else { 100 };
                assert!(positions > least, "{name}: only {positions} positions");
                applied.push(name.as_str());
            }
        }
        for name in ["checkers", "optional, may stop, at once", "single jumps", "crowned in mid-chain", "nine codes", "10x10"] {
            assert!(applied.contains(&name), "perft on the sets applies to {name} (it applied to {applied:?})");
        }
    }

    /// Kings scattered among enemy pieces (positions play seldom reaches: long chains that
    /// loop back over their own path): perft 1 and 2 on the sets are the general kernel's, in
    /// English draughts and with immediate removal. (A short jump over the next cell never
    /// lands where a chain took a piece, whatever the removal: landings and jumped cells lie
    /// on different parities of both coordinates.)
    #[test]
    fn scattered_kings_count_the_same_on_the_sets() {
        use rand::RngExt;
        let policy = "compulsory = true\nchain = \"must_continue\"\nremoval = \"end_of_chain\"";
        let (_dir, at_once) = checkers_with(&[(policy, "compulsory = true\nchain = \"must_continue\"\nremoval = \"immediate\"")]);
        let checkers = Variant::load("checkers", &[]).unwrap();
        let mut rng = crate::ai::rng(7);
        for v in [&checkers, &at_once] {
            let mut n = 0;
            for _ in 0..400 {
                // Eight rows of four dark cells, the top row first: white kings, black men
                // and kings, men off the crowning rows.
                let rows: Vec<String> = (0..8)
                    .map(|r| {
                        let (mut row, mut gap) = (String::new(), 0);
                        for _ in 0..4 {
                            let c = match rng.random_range(0..10) {
                                0 => Some('K'),
                                1 | 2 if r > 0 && r < 7 => Some('m'),
                                3 => Some('k'),
                                _ => None,
                            };
                            match c {
                                Some(c) => {
                                    if gap > 0 {
                                        row.push_str(&gap.to_string());
                                    }
                                    row.push(c);
                                    gap = 0;
                                }
                                None => gap += 1,
                            }
                        }
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                        }
                        row
                    })
                    .collect();
                let text = format!("{} white 0", rows.join("/"));
                let Ok(pos) = Position::from_text(&v.rules, &text) else { continue };
                let Some(sets) = v.set_perft(&pos, 2) else { continue };
                for depth in 1..=2 {
                    let general = perft_general(v, &mut pos.clone(), depth, false).unwrap();
                    assert_eq!(sets.perft(&pos, depth, false).unwrap(), general, "{} perft {depth} at {text}", v.name());
                }
                n += 1;
            }
            assert!(n > 300, "only {n} scattered positions");
        }
    }
}
