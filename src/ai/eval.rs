//! Evaluating a position with the variant's [`EvalModel`] (derived at load from its rules and
//! `[ai.eval]`; see `rules::eval` and `docs/ai.md`): each term is a score per player, and the
//! evaluation is the sum over terms of own minus opponent's, from the point of view of the
//! player to decide, clamped to ±[`EVAL_MAX`] so that a proven result always outranks it.

use crate::cellset::CellSet;
use crate::cellset::Word;
use crate::movegen::{self, MoveList};
use crate::piece::{ByPlayer, PieceCode, Player};
use crate::rules::eval::{Lines, MAX_ESCAPES, MAX_ROUTES, UNITS_PER_POINT};
use crate::rules::{EvalModel, Hook, Term};
use crate::script::ScriptError;
use crate::state::Position;
use crate::variant::Variant;

impl Evaluator<'_> {
    /// Fills `self.dist[p]`: for each cell, the fewest moves in which one of `p`'s pieces gets
    /// there over the board as it stands (a breadth-first search over the pieces' own movement;
    /// 255 where none can).
    fn distances(&mut self, pos: &Position, p: Player) {
        let r = &self.v.rules;
        let n = pos.board().len();
        let dist = &mut self.dist[p.index()];
        dist.clear();
        dist.resize(n, u8::MAX);
        self.frontier.clear();
        // The codes of `p`'s pieces that move (each expands the search with its own forms).
        self.movers.clear();
        for (cell, &code) in pos.board().iter().enumerate() {
            if code.is_of(p) && !r.pieces[code.index()].quiet.is_empty() {
                dist[cell] = 0;
                self.frontier.push(cell as u16);
                if !self.movers.contains(&code) {
                    self.movers.push(code);
                }
            }
        }
        if !(CellSet::fits(n) && (self.distances_by_fills(pos, p) || self.distances_on_sets(pos, p))) {
            self.distances_by_lists(pos, p);
        }
    }

    /// [`Evaluator::distances`] a layer at a time, each layer found from the whole last one
    /// by shifts of its cell set, direction by direction (see [`crate::rules::Form::fills`]),
    /// where every moving code's forms have fills (`false`, `dist` as the caller left it,
    /// otherwise).
    fn distances_by_fills(&mut self, pos: &Position, p: Player) -> bool {
        let fills = &self.fills;
        if fills.is_empty() || self.movers.iter().any(|c| fills[c.index()].is_none()) {
            return false;
        }
        let n = pos.board().len();
        let empty = CellSet::from_bits(pos.occupied_cells()).complement_in(CellSet::board(n)).bits();
        let mut reached = self.frontier.iter().copied().collect::<CellSet>().bits();
        let mut frontier = reached;
        let dist = &mut self.dist[p.index()];
        let mut d = 0u8;
        while frontier != 0 && d < u8::MAX - 1 {
            d += 1;
            let mut next = 0u128;
            for code in &self.movers {
                for f in fills[code.index()].iter().flatten() {
                    next |= f.reach(frontier, empty);
                }
            }
            frontier = settle(next, &mut reached, dist, d);
        }
        true
    }

    /// The rest of [`Evaluator::distances`] (from its start pieces), a cell at a time.
    fn distances_by_lists(&mut self, pos: &Position, p: Player) {
        let (r, view) = (&self.v.rules, pos.view());
        let dist = &mut self.dist[p.index()];
        let mut start = 0;
        let mut d = 0u8;
        while start < self.frontier.len() && d < u8::MAX - 1 {
            let end = self.frontier.len();
            d += 1;
            for i in start..end {
                let from = self.frontier[i];
                for &code in &self.movers {
                    for form in &r.pieces[code.index()].quiet {
                        self.cells.clear();
                        form.reach_on(&r.geometry, view, from, &mut self.scratch, &mut self.cells);
                        for &to in &self.cells {
                            if dist[to as usize] == u8::MAX {
                                dist[to as usize] = d;
                                self.frontier.push(to);
                            }
                        }
                    }
                }
            }
            start = end;
        }
    }

    /// [`Evaluator::distances`] a layer at a time on cell sets, where every form of the moving
    /// codes has a [`Form::reach_set`](crate::rules::Form::reach_set) (`false`, `dist` as the
    /// caller left it, where one has none): each layer is the cells reached from the last
    /// that no earlier layer holds.
    fn distances_on_sets(&mut self, pos: &Position, p: Player) -> bool {
        let r = &self.v.rules;
        let (g, view) = (&r.geometry, pos.view());
        let forms = || self.movers.iter().flat_map(|&code| &r.pieces[code.index()].quiet);
        let mut reached = self.frontier.iter().copied().collect::<CellSet>().bits();
        let mut frontier = reached;
        // Each cell of the frontier reaches by every mover's forms (as the list search does).
        let reach = |from: u16| forms().try_fold(0u128, |s, f| Some(s | f.reach_set(g, view, from)?));
        if self.frontier.first().is_some_and(|&c| reach(c).is_none()) {
            return false;
        }
        let dist = &mut self.dist[p.index()];
        let mut d = 0u8;
        while frontier != 0 && d < u8::MAX - 1 {
            d += 1;
            let mut next = 0u128;
            for from in CellSet::from_bits(frontier) {
                let Some(cells) = reach(from) else {
                    // (Not reached: a form has sets for every cell or for none.) As the caller left it.
                    dist.fill(u8::MAX);
                    self.frontier.iter().for_each(|&c| dist[c as usize] = 0);
                    return false;
                };
                next |= cells;
            }
            frontier = settle(next, &mut reached, dist, d);
        }
        true
    }
}

/// Ends a layer of a search on the cell sets: the cells of `next` not `reached` before are
/// reached now, at distance `d`, and are the next layer's frontier.
#[inline(always)]
fn settle(next: u128, reached: &mut u128, dist: &mut [u8], d: u8) -> u128 {
    let frontier = next & !*reached;
    *reached |= frontier;
    for c in CellSet::from_bits(frontier) {
        dist[c as usize] = d;
    }
    frontier
}

/// The most pieces a goal counts that are kept in a small array rather than selected from a list.
const TOP: usize = 16;

/// The sum of the `need` largest of `values` (all of them if fewer): up to [`TOP`] kept in a
/// small array in descending order, more selected in `scratch`.
fn sum_of_largest(values: impl Iterator<Item = i32>, need: usize, scratch: &mut Vec<i32>) -> i32 {
    if need == 0 {
        return 0;
    }
    if need > TOP {
        scratch.clear();
        scratch.extend(values);
        if scratch.len() > need {
            scratch.select_nth_unstable_by(need, |a, b| b.cmp(a));
            scratch.truncate(need);
        }
        return scratch.iter().sum();
    }
    let mut top = [i32::MIN; TOP];
    let mut k = 0;
    for v in values {
        if k < need {
            k += 1;
        } else if v <= top[need - 1] {
            continue;
        }
        let mut i = k - 1;
        while i > 0 && top[i - 1] < v {
            top[i] = top[i - 1];
            i -= 1;
        }
        top[i] = v;
    }
    top[..k].iter().sum()
}

/// The largest evaluation (in units, 1000 per ordinary piece); proven results score beyond it.
pub(crate) const EVAL_MAX: i32 = 500_000;

/// The evaluation of a position, term by term, for each player (units; 1000 = a piece of
/// value 100).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Eval {
    /// Each term with its score for each player (terms a variant does not measure are absent).
    pub(crate) terms: Vec<(Term, ByPlayer<i32>)>,
    /// Who decides in the position evaluated.
    pub(crate) side: Player,
}

impl Eval {
    /// The evaluation for `p`: the sum of its terms minus the opponent's, clamped.
    pub(crate) fn total(&self, p: Player) -> i32 {
        let s: i64 = self.terms.iter().map(|(_, v)| v[p] as i64 - v[p.other()] as i64).sum();
        s.clamp(-(EVAL_MAX as i64), EVAL_MAX as i64) as i32
    }
}

/// Scores positions with one variant's model; keeps scratch space between calls.
pub struct Evaluator<'a> {
    v: &'a Variant,
    m: &'a EvalModel,
    scratch: MoveList,
    best: Vec<i32>,
    script: bool,
    /// Territory: per player, each cell's distance in moves (255: not reached), and a frontier.
    dist: [Vec<u8>; 2],
    frontier: Vec<u16>,
    cells: Vec<u16>,
    movers: Vec<crate::piece::PieceCode>,
    /// Territory: by code, its forms' quiet moves as shifts of cell sets, where they all have
    /// them (see [`crate::rules::Form::fills`]); empty without the territory term.
    fills: Vec<Option<Vec<crate::rules::movement::Fill>>>,
    /// For one [`Evaluator::score_counted`] call, the mobility of the player to decide.
    own_moves: Option<usize>,
    /// The connection term's distances.
    conn: crate::rules::connect::Scratch,
    /// The routes term's board with the runner moved.
    board: Vec<PieceCode>,
}

/// The material and progress terms of `pos`, summed on the cell sets where the model groups
/// each code's cells by value ([`EvalModel::classes`]), else piece by piece.
#[inline]
fn material_and_progress(m: &EvalModel, pos: &Position) -> (ByPlayer<i32>, ByPlayer<i32>) {
    let by_code = pos.cells_by_code();
    if m.classes.is_empty() || by_code.len() != m.classes.len() {
        return material_and_progress_by_piece(m, pos);
    }
    let (mut material, mut progress) = (ByPlayer::new(0, 0), ByPlayer::new(0, 0));
    let narrow = m.cells <= 64; // one machine word's count
    // One count per code and group of cells worth the same.
    for (c, (&cells, groups)) in by_code.iter().zip(&m.classes).enumerate().skip(1) {
        if cells == 0 {
            continue;
        }
        let p = PieceCode::from_index(c).owner();
        for &(units, ahead, group) in groups {
            let k = if narrow { (cells as u64 & group as u64).count_ones() } else { (cells & group).count_ones() } as i32;
            material[p] += units * k;
            progress[p] += ahead * k;
        }
    }
    (material, progress)
}

/// [`material_and_progress`], piece by piece.
fn material_and_progress_by_piece(m: &EvalModel, pos: &Position) -> (ByPlayer<i32>, ByPlayer<i32>) {
    let (mut material, mut progress) = (ByPlayer::new(0, 0), ByPlayer::new(0, 0));
    for p in Player::both() {
        for cell in pos.cells_of(p) {
            let i = pos.board()[cell as usize].index() * m.cells + cell as usize;
            material[p] += m.material[i];
            progress[p] += m.progress[i];
        }
    }
    (material, progress)
}

/// Each player's pieces that count in `lines`' windows, as cell sets (`None` where the sets
/// are not kept: a board past 128 cells, or some kind that does not count and no per-code sets).
#[inline]
fn counted_cells(lines: &Lines, pos: &Position) -> Option<ByPlayer<u128>> {
    if lines.masks.is_empty() {
        return None;
    }
    let occupied = ByPlayer::new(pos.occupied(Player::FIRST), pos.occupied(Player::SECOND));
    if lines.every_kind {
        return Some(occupied);
    }
    let by_code = pos.cells_by_code();
    if by_code.len() != lines.codes {
        return None;
    }
    let mut counted = ByPlayer::new(0, 0);
    for (c, &cells) in by_code.iter().enumerate().skip(1) {
        let code = PieceCode::from_index(c);
        if lines.kinds.contains(code.kind()) {
            counted[code.owner()] |= cells;
        }
    }
    Some(counted)
}

/// The lines term on the cell sets: a window is open for a player when it holds none of the
/// opponent's pieces nor any of the player's own that do not count; it scores `units * k²`
/// for the `k` counted pieces in it.
fn lines_by_sets(lines: &Lines, pos: &Position, counted: ByPlayer<u128>, t: &mut ByPlayer<i32>) {
    // One machine word's masks and counts where the board fits in it.
    if pos.board().len() <= 64 { lines_in::<u64>(lines, pos, counted, t) } else { lines_in::<u128>(lines, pos, counted, t) }
}

/// [`lines_by_sets`] in words of `W` bits.
#[inline(always)]
fn lines_in<W: Word>(lines: &Lines, pos: &Position, counted: ByPlayer<u128>, t: &mut ByPlayer<i32>) {
    for p in Player::both() {
        let blockers = W::of(pos.occupied(p.other()) | (pos.occupied(p) & !counted[p]));
        let mine = W::of(counted[p]);
        for &w in &lines.masks {
            let w = W::of(w);
            let k = (w & mine).count() as i32;
            if k > 0 && w & blockers == W::ZERO {
                t[p] += lines.units * k * k;
            }
        }
    }
}

/// [`lines_by_sets`], window by window and cell by cell.
fn lines_by_cells(lines: &Lines, pos: &Position, t: &mut ByPlayer<i32>) {
    let board = pos.board();
    for w in lines.windows.chunks_exact(lines.length) {
        // (pieces of each player that count, whether anything else blocks the window)
        let mut held = [0i32; 2];
        let mut blocked = [false; 2];
        for &c in w {
            let code = board[c as usize];
            if code.is_empty() {
                continue;
            }
            let p = code.owner();
            if lines.kinds.contains(code.kind()) {
                held[p.index()] += 1;
            } else {
                blocked[p.index()] = true;
            }
            blocked[p.other().index()] = true;
        }
        for p in Player::both() {
            let k = held[p.index()];
            if k > 0 && !blocked[p.index()] {
                t[p] += lines.units * k * k;
            }
        }
    }
}

impl<'a> Evaluator<'a> {
    pub fn new(v: &'a Variant) -> Evaluator<'a> {
        Evaluator::with_model(v, &v.rules.eval)
    }

    /// An evaluator of `v`'s positions with another model of the same rules (`tune` scores
    /// positions with models built for other `[ai.eval]` numbers).
    pub(crate) fn with_model(v: &'a Variant, m: &'a EvalModel) -> Evaluator<'a> {
        let script = v.hook(Hook::Evaluate).is_some() && v.script.is_some() && m.script != 0;
        Evaluator {
            v,
            m,
            scratch: Vec::new(),
            best: Vec::new(),
            script,
            dist: [Vec::new(), Vec::new()],
            frontier: Vec::new(),
            cells: Vec::new(),
            movers: Vec::new(),
            fills: if m.territory == 0 {
                Vec::new()
            } else {
                let g = &v.rules.geometry;
                let by_code = |p: &crate::rules::PieceRules| p.quiet.iter().map(|f| f.fills(g)).collect::<Option<Vec<_>>>();
                v.rules.pieces.iter().map(|p| by_code(p).map(|fs| fs.into_iter().flatten().collect())).collect()
            },
            own_moves: None,
            conn: crate::rules::connect::Scratch::default(),
            board: Vec::new(),
        }
    }

    /// The evaluation for the player to decide in `pos`, in units.
    ///
    /// # Errors
    /// The script's `evaluate` hook failed.
    pub fn score(&mut self, pos: &mut Position) -> Result<i32, ScriptError> {
        self.score_counted(pos, None)
    }

    /// [`Evaluator::score`] given, where the caller knows it, the number of moves the player
    /// to decide has as the mobility term counts them (see
    /// [`Variant::lists_every_kernel_move`]): that player's moves are then not counted again.
    ///
    /// # Errors
    /// The script's `evaluate` hook failed.
    pub(crate) fn score_counted(&mut self, pos: &mut Position, own_moves: Option<usize>) -> Result<i32, ScriptError> {
        self.own_moves = own_moves;
        let mut t = [ByPlayer::new(0, 0); Term::COUNT];
        let r = self.terms(pos, &mut t);
        self.own_moves = None;
        r?;
        let p = pos.side();
        let s: i64 = t.iter().map(|v| v[p] as i64 - v[p.other()] as i64).sum();
        Ok(s.clamp(-(EVAL_MAX as i64), EVAL_MAX as i64) as i32)
    }

    /// The evaluation term by term (the terms the variant measures).
    ///
    /// # Errors
    /// The script's `evaluate` hook failed.
    pub(crate) fn breakdown(&mut self, pos: &mut Position) -> Result<Eval, ScriptError> {
        let mut t = [ByPlayer::new(0, 0); Term::COUNT];
        self.terms(pos, &mut t)?;
        let m = self.m;
        let measured = |term: Term| match term {
            Term::Material => m.material.iter().any(|&x| x != 0) || m.hands.iter().any(|&(_, u)| u != 0),
            Term::Progress => m.progress.iter().any(|&x| x != 0) || !m.goals.is_empty(),
            Term::Fill => !m.goals.is_empty() && m.fill != 0,
            Term::Mobility => m.mobility != 0,
            Term::Exits => !m.exits.is_empty(),
            Term::Tempo => m.tempo != 0,
            Term::Lines => m.lines.iter().any(|l| l.units != 0),
            Term::Territory => m.territory != 0,
            Term::Script => self.script,
            Term::Connection => m.connection != 0,
            Term::Stores => m.stores != 0,
            Term::Threats => m.threats != 0,
            Term::Royal => m.royal != 0,
            Term::Attributes => m.level_units != 0,
            Term::Routes => !m.runners.is_empty(),
        };
        let terms = Term::ALL.into_iter().filter(|&x| measured(x)).map(|x| (x, t[x.index()])).collect();
        Ok(Eval { terms, side: pos.side() })
    }

    /// Every term for both players.
    fn terms(&mut self, pos: &mut Position, t: &mut [ByPlayer<i32>; Term::COUNT]) -> Result<(), ScriptError> {
        let m = self.m;
        let (mat, prog) = (Term::Material.index(), Term::Progress.index());
        // The first terms written: `t` comes in zeroed.
        (t[mat], t[prog]) = material_and_progress(m, pos);
        for &(slot, units) in &m.hands {
            for p in Player::both() {
                t[mat][p] += units * pos.counter(p, slot);
            }
        }
        self.goal_terms(pos, t);
        if m.mobility != 0 {
            for p in Player::both() {
                let n = match self.own_moves {
                    Some(n) if p == pos.side() => n,
                    _ => movegen::mobility(&self.v.rules, pos, p, &mut self.scratch),
                };
                t[Term::Mobility.index()][p] = m.mobility * n as i32;
            }
        }
        if m.territory != 0 {
            self.territory_term(pos, &mut t[Term::Territory.index()]);
        }
        for &(slot, units) in &m.exits {
            for p in Player::both() {
                t[Term::Exits.index()][p] += units * pos.counter(p, slot);
            }
        }
        t[Term::Tempo.index()][pos.side()] = m.tempo;
        for lines in m.lines.iter().filter(|l| l.units != 0) {
            let t = &mut t[Term::Lines.index()];
            match counted_cells(lines, pos) {
                Some(counted) => lines_by_sets(lines, pos, counted, t),
                None => lines_by_cells(lines, pos, t),
            }
        }
        if m.connection != 0 {
            connection_term(&self.v.rules.ends, pos.board(), (m.connection, &mut self.conn), &mut t[Term::Connection.index()]);
        }
        if m.stores != 0
            && let Some(sw) = &self.v.rules.sowing
        {
            for p in Player::both() {
                let quarters = 4 * i32::from(pos.seeds()[sw.store[p] as usize]) + sw.side_seeds(pos.seeds(), p) as i32;
                t[Term::Stores.index()][p] = m.stores * quarters;
            }
        }
        if m.threats != 0 {
            threats_term(m, pos, &mut t[Term::Threats.index()]);
        }
        if m.royal != 0 {
            self.royal_term(pos, &mut t[Term::Royal.index()]);
        }
        if !m.runners.is_empty() {
            self.routes_term(pos, &mut t[Term::Routes.index()]);
        }
        if m.level_units != 0 {
            attributes_term(m, pos, &mut t[Term::Attributes.index()]);
        }
        if self.script
            && let Some(s) = &self.v.script
        {
            for p in Player::both() {
                let points = s.evaluate(pos, p)?;
                let u = (points as i128 * m.script as i128).clamp(-(EVAL_MAX as i128), EVAL_MAX as i128);
                t[Term::Script.index()][p] = u as i32;
            }
        }
        Ok(())
    }
}

impl Evaluator<'_> {
    /// The progress towards `zone_filled` goals (the pieces nearest each goal, as many as it
    /// has cells) and the fill term (the goal's cells held).
    fn goal_terms(&mut self, pos: &Position, t: &mut [ByPlayer<i32>; Term::COUNT]) {
        let m = self.m;
        let n = m.cells;
        for goal in &m.goals {
            for p in Player::both() {
                let need = goal.need[p];
                let mut held = 0i64;
                for &c in &goal.cells[p] {
                    if pos.board()[c as usize].is_of(p) {
                        held += 1;
                    }
                }
                let board = pos.board();
                let progress = pos.cells_of(p).map(|cell| goal.progress[board[cell as usize].index() * n + cell as usize]);
                t[Term::Progress.index()][p] += sum_of_largest(progress, need, &mut self.best);
                if need > 0 {
                    t[Term::Fill.index()][p] += (m.fill as i64 * held * held / need as i64) as i32;
                }
            }
        }
    }

    /// The territory term: where the count scores regions, the regions each player alone
    /// borders (an estimate); else the empty cells a player's pieces reach in fewer moves.
    fn territory_term(&mut self, pos: &Position, t: &mut ByPlayer<i32>) {
        let units = self.m.territory;
        if let Some(n) = self.v.rules.score.as_ref().and_then(|s| s.territory.as_ref()) {
            let won = crate::rules::groups::territory_estimate(n, pos.board());
            for p in Player::both() {
                t[p] += units * won[p] as i32;
            }
            return;
        }
        for p in Player::both() {
            self.distances(pos, p);
        }
        let [a, b] = &self.dist;
        for (cell, &code) in pos.board().iter().enumerate() {
            if code.is_empty() && a[cell] != b[cell] {
                let p = if a[cell] < b[cell] { Player::FIRST } else { Player::FIRST.other() };
                t[p] += units;
            }
        }
    }

    /// The royal term: each of a player's royal pieces (of a royal kind, or crowned) that the
    /// opponent attacks costs it `royal` units.
    fn royal_term(&self, pos: &Position, t: &mut ByPlayer<i32>) {
        let r = &self.v.rules;
        let board = pos.board();
        for p in Player::both() {
            let codes = r.royal_codes[p];
            let royal = |c: u16| codes >> board[c as usize].index() & 1 != 0 || r.crown.is_some_and(|k| pos.attr(c, k.marker) != 0);
            for cell in pos.cells_of(p).filter(|&c| royal(c)) {
                if crate::attack::attacker(r, pos.view(), p.other(), cell).is_some() {
                    t[p] -= self.m.royal;
                }
            }
        }
    }

    /// The routes term: for each royal runner, the cells of its winning zone it reaches in one
    /// move on the current board, and its moves after which one more reaches the zone (the
    /// runner moved there, everything else standing).
    fn routes_term(&mut self, pos: &Position, t: &mut ByPlayer<i32>) {
        let m = self.m;
        for p in Player::both() {
            for (zone, code, from) in runners_of(m, pos, p) {
                let (one, two) = self.ways(pos, code, from, zone);
                t[p] += m.escape * one.min(MAX_ESCAPES) as i32 + m.route * two.min(MAX_ROUTES) as i32;
            }
        }
    }

    /// Whether a royal runner of `p` reaches its winning zone in one move (the search meets
    /// that as a check).
    pub(crate) fn runner_escapes(&mut self, pos: &Position, p: Player) -> bool {
        runners_of(self.m, pos, p).any(|(zone, code, from)| self.reach(pos.view(), code, from) & zone != 0)
    }

    /// The runner `code` on `from`: how many cells of `zone` one move reaches, and how many of
    /// its other landings reach `zone` with one more (counting stops past [`MAX_ROUTES`]).
    fn ways(&mut self, pos: &Position, code: PieceCode, from: u16, zone: u128) -> (u32, u32) {
        let view = pos.view();
        let first = self.reach(view, code, from);
        let mut board = std::mem::take(&mut self.board);
        board.clear();
        board.extend_from_slice(pos.board());
        board[from as usize] = PieceCode::EMPTY;
        let mut two = 0;
        for c in CellSet::from_bits(first & !zone) {
            board[c as usize] = code;
            let occupied = (view.occupied & !(1u128 << from)) | 1u128 << c;
            let moved = crate::rules::BoardView { board: &board, occupied, en_passant: [crate::geometry::NONE; 2], ..view };
            two += u32::from(self.reach(moved, code, c) & zone != 0);
            board[c as usize] = PieceCode::EMPTY;
            if two > MAX_ROUTES {
                break;
            }
        }
        self.board = board;
        ((first & zone).count_ones(), two)
    }

    /// The cells the piece `code` on `from` reaches in one move on `view` (its forms' moves
    /// to empty cells).
    fn reach(&mut self, view: crate::rules::BoardView, code: PieceCode, from: u16) -> u128 {
        let r = &self.v.rules;
        let forms = &r.pieces[code.index()].quiet;
        // (On the rays where every form has its cells as a set: a rook-moving king.)
        if let Some(cells) = forms.iter().try_fold(0u128, |s, f| Some(s | f.reach_set(&r.geometry, view, from)?)) {
            return cells;
        }
        self.cells.clear();
        for form in forms {
            form.reach_on(&r.geometry, view, from, &mut self.scratch, &mut self.cells);
        }
        self.cells.iter().fold(0u128, |s, &c| s | 1u128 << c)
    }
}

/// `p`'s royal runners on the board ([`crate::rules::eval::Runner`]): each with its winning
/// zone, its code and its cell.
fn runners_of<'m>(m: &'m EvalModel, pos: &'m Position, p: Player) -> impl Iterator<Item = (u128, PieceCode, u16)> + 'm {
    m.runners.iter().flat_map(move |runner| {
        pos.cells_of(p)
            .map(move |from| (from, pos.board()[from as usize]))
            .filter_map(move |(from, code)| runner.kinds.contains(code.kind()).then_some((runner.zone[p], code, from)))
    })
}

/// The attributes term: each piece whose move distance is an attribute is worth the points of
/// its table at that attribute's value (the last entry past the table's end).
fn attributes_term(m: &EvalModel, pos: &Position, t: &mut ByPlayer<i32>) {
    let board = pos.board();
    let points = |cell: u16| {
        m.levels[board[cell as usize].index()]
            .as_ref()
            .map_or(0, |(slot, tab)| tab[(pos.attr(cell, *slot).max(0) as usize).min(tab.len() - 1)])
    };
    for p in Player::both() {
        t[p] = m.level_units * pos.cells_of(p).map(points).sum::<i32>();
    }
}

/// The threats term: per player, the empty cells that would complete one of its open windows
/// (the window's other cells all its counted pieces), each once, weighed by its row's parity
/// for that player; none above a threat of the opponent's in its column (the lower one is
/// decided first). On the cell sets (the model has threats only on boards of at most 128 cells).
fn threats_term(m: &EvalModel, pos: &Position, t: &mut ByPlayer<i32>) {
    let mut threats = ByPlayer::new(0u128, 0u128);
    for lines in &m.lines {
        let Some(counted) = counted_cells(lines, pos) else { continue };
        for p in Player::both() {
            let blockers = pos.occupied(p.other()) | (pos.occupied(p) & !counted[p]);
            let mine = counted[p];
            for &w in &lines.masks {
                if w & blockers == 0 && (w & mine).count_ones() as usize + 1 == lines.length {
                    threats[p] |= w & !mine;
                }
            }
        }
    }
    if threats[Player::FIRST] | threats[Player::SECOND] == 0 {
        return;
    }
    let shape = &m.threat_shape;
    for col in &shape.columns {
        // Whether each player's threats are already under one of the opponent's.
        let mut covered = [false; 2];
        for &c in col {
            let bit = 1u128 << c;
            let here = Player::both().map(|p| threats[p] & bit != 0);
            for p in Player::both() {
                if here[p.index()] && !covered[p.index()] {
                    t[p] += m.threats * i32::from(shape.parity[p][c as usize]);
                }
            }
            for p in Player::both() {
                covered[p.other().index()] |= here[p.index()];
            }
        }
    }
}

/// The connection term: each player loses `units` per piece it still needs to place to win by
/// a `connected` end, by the nearest of them where there are several (Havannah's fork and
/// bridge: the one it is closest to; a player who can no longer join any, as many as the board
/// has cells); a misère connection counts the other way, each one.
fn connection_term(
    ends: &[crate::rules::EndRule],
    board: &[crate::piece::PieceCode],
    (units, scratch): (i32, &mut crate::rules::connect::Scratch),
    t: &mut ByPlayer<i32>,
) {
    for p in Player::both() {
        let mut nearest: Option<u32> = None;
        for e in ends {
            if let crate::rules::EndKind::Connected(c) = &e.kind {
                let need = c.needed(board, p, scratch).unwrap_or(board.len() as u32);
                if c.win {
                    nearest = Some(nearest.map_or(need, |n| n.min(need)));
                } else {
                    t[p] += units * need as i32;
                }
            }
        }
        if let Some(need) = nearest {
            t[p] -= units * need as i32;
        }
    }
}

/// Formats units as pieces (`+1.25`).
pub(crate) fn pieces(units: i32) -> String {
    format!("{:+.2}", units as f64 / (100 * UNITS_PER_POINT) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::rng;
    use crate::piece::PieceCode;
    use rand::RngExt;

    /// Over random games in every shipped variant (and Bivouac with compulsory maximal
    /// captures): wherever the legal list is said to hold every kernel move, its length is the
    /// mobility of the player to move, and a score given it is the score that counts it.
    #[test]
    fn a_list_of_every_kernel_move_is_the_mobility() {
        let mut cases: Vec<(String, Vec<(String, String)>)> = crate::variant::shipped_names().into_iter().map(|n| (n, vec![])).collect();
        cases.push(("bivouac".into(), vec![("captures".into(), "compulsory_maximal".into())]));
        for (name, options) in &cases {
            let v = Variant::load(name, options).unwrap();
            let mut evaluator = Evaluator::new(&v);
            let (mut listed, mut captures, mut before_filters) = (0, 0, 0);
            let mut list = Vec::new();
            v.random_positions(23, 6, 120, |pos, moves| {
                let side = pos.side();
                // The count answered with the list: the same list, and the moves before
                // castling, promotion choices and the check test.
                if let Some(k) = v.legal_moves_and_mobility(pos, &mut list).unwrap() {
                    assert_eq!(
                        k,
                        movegen::mobility(&v.rules, pos, side, &mut Vec::new()),
                        "{name} {options:?} at {}",
                        pos.to_text(&v.rules)
                    );
                    before_filters += 1;
                }
                assert_eq!(list, *moves);
                if v.lists_every_kernel_move(pos, moves) {
                    let side = pos.side();
                    let n = movegen::mobility(&v.rules, pos, side, &mut Vec::new());
                    assert_eq!(n, moves.len(), "{name} {options:?} at {}", pos.to_text(&v.rules));
                    let known = evaluator.score_counted(pos, Some(n)).unwrap();
                    assert_eq!(known, evaluator.score(pos).unwrap());
                    listed += 1;
                    captures += moves.iter().any(crate::notation::Move::is_capture) as u32;
                }
            });
            // Where it should hold: permissive captures (Lielow's by landing, Bivouac's
            // jumps), and compulsory ones where there is none to make (checkers).
            if matches!(name.as_str(), "lielow" | "lielow-ludii" | "checkers" | "bivouac" | "othello" | "breakthrough") {
                assert!(listed > 50, "{name} {options:?}: only {listed} lists");
            }
            if matches!(name.as_str(), "lielow" | "bivouac") && options.is_empty() {
                assert!(captures > 10, "{name}: only {captures} lists with captures");
            }
            // And where only castling, promotion choices, the check test or the drop-mate
            // test stand between the kernel's moves and the list.
            if matches!(name.as_str(), "chess" | "capablanca" | "minishogi" | "shatranj" | "antichess") {
                assert!(before_filters > 50, "{name}: only {before_filters} lists counted before the filters");
            }
        }
    }

    /// The material and progress summed on the cell sets by groups of equal value are the sums
    /// piece by piece, over random games in every shipped variant; and the groups are used in
    /// the variants whose tables vary by cell (checkers' progress, Othello's material).
    #[test]
    fn material_and_progress_by_groups_are_the_sums_by_piece() {
        let mut grouped = 0;
        for name in crate::variant::shipped_names() {
            let v = Variant::load(&name, &[]).unwrap();
            let m = &v.rules.eval;
            if !m.classes.is_empty() {
                grouped += 1;
                if matches!(name.as_str(), "checkers" | "othello") {
                    assert!(m.classes.iter().any(|g| g.len() > 1), "{name}: one group a code");
                }
            }
            v.random_positions(29, 4, 120, |pos, _| {
                assert_eq!(material_and_progress(m, pos), material_and_progress_by_piece(m, pos), "{name} at {}", pos.to_text(&v.rules));
            });
        }
        assert!(grouped > 10, "only {grouped} variants group their cells");
    }

    /// Against sorting: random lists (ties, negatives, fewer values than asked) and every count
    /// from 0 (a player with no goal cells) past the small array's size.
    #[test]
    fn the_largest_values_sum_as_sorted() {
        let mut g = rng(3);
        let mut scratch = Vec::new();
        for _ in 0..500 {
            let len = g.random_range(0..30usize);
            let values: Vec<i32> = (0..len).map(|_| g.random_range(-5..6)).collect();
            let mut sorted = values.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            for need in 0..=TOP + 3 {
                let expected: i32 = sorted.iter().take(need).sum();
                assert_eq!(sum_of_largest(values.iter().copied(), need, &mut scratch), expected, "{values:?}, {need}");
            }
        }
    }

    /// The position with every piece moved to its mirror cell and given to the other player,
    /// and the other player to decide: the same game seen from the other side.
    fn mirrored(v: &Variant, pos: &Position, mirror: impl Fn(u8, u8) -> (u8, u8)) -> Position {
        let r = &v.rules;
        let g = &r.geometry;
        let mut out = pos.clone();
        for c in g.cells() {
            out.clear_cell(&r.zobrist, c.0);
        }
        for c in g.cells() {
            let code = pos.piece(c.0);
            if code.is_empty() {
                continue;
            }
            let (x, y) = g.coords(c);
            let (mx, my) = mirror(x, y);
            let to = g.at(mx as i32, my as i32).expect("the board is symmetric");
            let attrs: Vec<i32> = (0..r.nattr() as u8).map(|s| pos.attr(c.0, s)).collect();
            out.put(&r.zobrist, to.0, PieceCode::new(code.kind(), code.owner().other()), &attrs);
        }
        for (slot, _) in r.counters.iter().enumerate() {
            let (a, b) = (pos.counter(Player::FIRST, slot as u8), pos.counter(Player::SECOND, slot as u8));
            out.set_counter(Player::FIRST, slot as u8, b);
            out.set_counter(Player::SECOND, slot as u8, a);
        }
        out.set_side(&r.zobrist, pos.side().other());
        out
    }

    /// In a variant whose rules are the same for both players under `mirror`, the evaluation of
    /// a position for one player is that of the mirrored position for the other, term by term;
    /// so (own minus opponent's) changes sign when the players' pieces are swapped.
    fn antisymmetric(name: &str, mirror: impl Fn(u8, u8) -> (u8, u8) + Copy) {
        let v = Variant::load(name, &[]).unwrap();
        // The threats term is the one the players' order makes asymmetric (odd rows are the
        // first player's; see `threats_count_by_parity_below_the_opponents`): left out here.
        let model = EvalModel { threats: 0, ..v.rules.eval.clone() };
        let mut ev = Evaluator::with_model(&v, &model);
        let mut r = rng(3);
        let mut moves = Vec::new();
        let mut checked = 0;
        for game in 0..10 {
            let mut pos = v.start();
            for ply in 0..60 {
                v.legal_moves(&mut pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                if ply % 7 == game % 7 && pos.continuation().is_none() {
                    let mut m = mirrored(&v, &pos, mirror);
                    let a = ev.breakdown(&mut pos).unwrap();
                    let b = ev.breakdown(&mut m).unwrap();
                    for ((t, x), (_, y)) in a.terms.iter().zip(&b.terms) {
                        assert_eq!(x.0, [y.0[1], y.0[0]], "{name} {t}: {}", pos.to_text(&v.rules));
                    }
                    assert_eq!(a.total(Player::FIRST), -b.total(Player::FIRST));
                    assert_eq!(ev.score(&mut pos).unwrap(), ev.score(&mut m).unwrap());
                    checked += 1;
                }
                let mv = moves[r.random_range(0..moves.len())];
                v.make(&mut pos, &mv).unwrap();
            }
        }
        // (Tic-tac-toe's ten games give a dozen positions; the others' several dozen.)
        assert!(checked >= 10, "{name}: {checked}");
    }

    #[test]
    fn the_evaluation_is_antisymmetric() {
        // Two armies facing each other: the board turned half round (a1 ↔ h8 in checkers, whose
        // dark squares a mirror would not keep).
        for name in [
            "checkers",
            "basileus",
            "bivouac",
            "hostile-bivouac",
            "lielow",
            "lielow-ludii",
            "breakthrough",
            "othello",
            "international",
            "russian",
            "brazilian",
            "dobutsu",
            "amazons",
        ] {
            let g = Variant::load(name, &[]).unwrap().rules.geometry.clone();
            let (files, ranks) = (g.files, g.ranks);
            antisymmetric(name, move |x, y| (files - 1 - x, ranks - 1 - y));
        }
        // Pyramida: both race up; the players' stones start on alternate files, so the mirror
        // is left to right (a ↔ u).
        for name in ["pyramida", "pyramida-calm"] {
            let files = Variant::load(name, &[]).unwrap().rules.geometry.files;
            antisymmetric(name, move |x, y| (files - 1 - x, y));
        }
        // Placement games: the colours swapped, and the board mirrored left to right.
        for name in ["tic-tac-toe", "connect-four"] {
            let files = Variant::load(name, &[]).unwrap().rules.geometry.files;
            antisymmetric(name, move |x, y| (files - 1 - x, y));
        }
    }

    /// The terms of `v` after `moves`, for the player to decide and the other.
    fn term_after(v: &Variant, moves: &str, term: Term) -> [i32; 2] {
        let mut pos = v.start();
        for m in moves.split_whitespace() {
            v.play(&mut pos, m).unwrap();
        }
        let e = Evaluator::new(v).breakdown(&mut pos).unwrap();
        let x = e.terms.iter().find(|(t, _)| *t == term).unwrap().1;
        [x[pos.side()], x[pos.side().other()]]
    }

    #[test]
    fn threats_count_by_parity_below_the_opponents() {
        let v = Variant::load("connect-four", &[]).unwrap();
        let u = v.rules.eval.threats;
        assert_eq!(u, 150);
        // White (first) holds b1 d1 b2 c2 d2, black c1 g1 g2 g3, black to move. White's
        // threats: a2 and e2, on the second row (even: black's parity), once each; black's:
        // g4, on an even row, three times.
        let moves = "@b1 @c1 @d1 @g1 @b2 @g2 @c2 @g3 @d2";
        assert_eq!(term_after(&v, moves, Term::Threats), [3 * u, 2 * u]);
        // Black's e1 makes e2 playable (still white's threat); white takes a1 and black fills
        // a2: white is left with e2, black still has g4.
        assert_eq!(term_after(&v, &format!("{moves} @e1 @a1 @a2"), Term::Threats), [u, 3 * u]);
        let m = &v.rules.eval.threat_shape;
        assert_eq!(m.columns.len(), 7);
        assert!(m.columns.iter().all(|c| c.len() == 6));
        let a1 = v.rules.geometry.parse_cell("a1").unwrap().0 as usize;
        let a2 = v.rules.geometry.parse_cell("a2").unwrap().0 as usize;
        assert_eq!((m.parity[Player::FIRST][a1], m.parity[Player::FIRST][a2]), (3, 1));
        assert_eq!((m.parity[Player::SECOND][a1], m.parity[Player::SECOND][a2]), (1, 3));
        // Tic-tac-toe: nothing falls, no threats term.
        assert_eq!(Variant::load("tic-tac-toe", &[]).unwrap().rules.eval.threats, 0);
    }

    /// Brandubh's king, counted by hand on the board. After `d6-f6 d5-d6 a4-a5 d4-d5` the king
    /// on d5 reaches c5, b5, e5, f5, g5 and the empty throne d4 (d6, a5 and d3 are taken): no
    /// corner in one move, and only from g5 one more does (g6 empty, then g7):
    /// a route (150 points). After `b4-b3 d5-g5` he reaches g7 in one move (600), and of his other
    /// landings (g6, f5 to b5) only g6 leads on to a corner (f5 lies between f6 and f4,
    /// attackers): 150 more. Black has no runner.
    /// What the search takes on trust from `runner_escapes` (a runner's threat met as a check,
    /// a runner's escape scored as won without a search), held to the game's own play over
    /// random Brandubh and Hnefatafl games: a player's runner reaches its zone in one move
    /// exactly when one of its legal moves ends the game by that zone, won by it.
    #[test]
    fn a_runner_escapes_exactly_when_a_legal_move_wins_by_its_zone() {
        for name in ["brandubh", "hnefatafl"] {
            let v = Variant::load(name, &[]).unwrap();
            let zone = v.rules.ends.iter().find(|e| matches!(e.kind, crate::rules::EndKind::ZoneReached { .. })).unwrap().reason.clone();
            let mut e = Evaluator::new(&v);
            let (mut escapes, mut seen) = (0, 0);
            v.random_positions(3, 30, 400, |pos, _| {
                if pos.result().is_some() {
                    return;
                }
                let me = pos.side();
                let mut moves = Vec::new();
                v.legal_moves(pos, &mut moves).unwrap();
                let wins = moves.iter().any(|m| {
                    v.make(pos, m).unwrap();
                    let won = pos.result().is_some_and(|r| r.winner == crate::outcome::Winner::Player(me) && r.reason == zone);
                    pos.undo();
                    won
                });
                assert_eq!(e.runner_escapes(pos, me), wins, "{name}: {}", pos.to_text(&v.rules));
                escapes += usize::from(wins);
                seen += 1;
            });
            assert!(escapes > 20 && escapes < seen, "{name}: {escapes} escapes in {seen} positions");
        }
    }

    #[test]
    fn a_royal_runner_counts_its_ways_to_the_zone() {
        let v = Variant::load("brandubh", &[]).unwrap();
        let u = UNITS_PER_POINT;
        let opening = "d6-f6 d5-d6 a4-a5 d4-d5";
        assert_eq!(term_after(&v, opening, Term::Routes), [0, 150 * u]);
        assert_eq!(term_after(&v, &format!("{opening} b4-b3 d5-g5"), Term::Routes), [0, 750 * u]);
        assert_eq!(term_after(&v, "", Term::Routes), [0, 0]);
        // The search meets the king one move from g7 as a check.
        let mut pos = v.start();
        for m in format!("{opening} b4-b3").split_whitespace() {
            v.play(&mut pos, m).unwrap();
        }
        let mut e = Evaluator::new(&v);
        assert!(!e.runner_escapes(&pos, Player::SECOND));
        v.play(&mut pos, "d5-g5").unwrap();
        assert!(e.runner_escapes(&pos, Player::SECOND) && !e.runner_escapes(&pos, Player::FIRST));
    }

    #[test]
    fn a_royal_piece_attacked_costs_its_owner() {
        let v = Variant::load("lielow", &[]).unwrap();
        let u = v.rules.eval.royal;
        assert_eq!(u, 500);
        // A random game of Lielow: after white's d3-d5 (level 3), black's king, the crowned
        // stack, stands where a white stack lands exactly; white's is safe.
        let moves = "f2-g1 b7-a6 g1-e1 d7-e8 e2-d3 e8-g8 h2-g1 c7-c8 e1-h1 e7-d7 h1-d1 c8-c6 d2-e3 a7-off \
                     d1-d6 d7-d5 a2-b3 a6-off b2-a3 d5-a8 c2-c1 c6-c3";
        assert_eq!(term_after(&v, moves, Term::Royal), [0, 0]);
        assert_eq!(term_after(&v, &format!("{moves} d3-d5"), Term::Royal), [-u, 0]);
        // Chess: check is illegal and the king is never captured; no royal term.
        assert_eq!(Variant::load("chess", &[]).unwrap().rules.eval.royal, 0);
    }

    #[test]
    fn lines_on_the_sets_are_the_lines_cell_by_cell() {
        let mut via_codes = 0;
        for name in ["connect-four", "tic-tac-toe"] {
            let v = Variant::load(name, &[]).unwrap();
            let lines = &v.rules.eval.lines;
            assert!(!lines.is_empty() && lines.iter().all(|l| !l.masks.is_empty()), "{name}");
            let mut scored = 0;
            v.random_positions(9, 20, 100, |pos, _| {
                for l in lines {
                    let (mut a, mut b) = (ByPlayer::new(0, 0), ByPlayer::new(0, 0));
                    lines_by_sets(l, pos, counted_cells(l, pos).unwrap(), &mut a);
                    lines_by_cells(l, pos, &mut b);
                    assert_eq!(a, b, "{name} in {}", pos.to_text(&v.rules));
                    // The same with the counted pieces read from the per-code sets (as when
                    // some kind does not count).
                    let by_code = Lines { every_kind: false, ..l.clone() };
                    if let Some(counted) = counted_cells(&by_code, pos) {
                        let mut c = ByPlayer::new(0, 0);
                        lines_by_sets(&by_code, pos, counted, &mut c);
                        assert_eq!(c, b, "{name}");
                        via_codes += 1;
                    }
                    scored += (b[Player::FIRST] != 0) as u32;
                }
            });
            assert!(scored > 50, "{name}: {scored}");
        }
        assert!(via_codes > 50, "{via_codes} positions read from the per-code sets");
    }

    #[test]
    fn territory_on_the_sets_is_the_search_by_lists() {
        // (Hnefatafl's rooks may not stop on the throne or a corner, but pass over the throne.)
        for name in ["amazons", "breakthrough", "hnefatafl", "brandubh"] {
            let v = Variant::load(name, &[]).unwrap();
            let mut e = Evaluator::new(&v);
            let (mut on_sets, mut reached, mut by_fills) = (0, 0, 0);
            v.random_positions(17, 4, 60, |pos, _| {
                for p in Player::both() {
                    e.distances(pos, p);
                    let sets = e.dist[p.index()].clone();
                    // The same start, searched a cell of the frontier at a time on the sets.
                    e.dist[p.index()].iter_mut().for_each(|d| {
                        if *d != 0 {
                            *d = u8::MAX
                        }
                    });
                    e.frontier.retain(|&c| e.dist[p.index()][c as usize] == 0);
                    by_fills += u32::from(!e.fills.is_empty() && e.movers.iter().all(|c| e.fills[c.index()].is_some()));
                    if e.distances_on_sets(pos, p) {
                        assert_eq!(sets, e.dist[p.index()], "{name} {p:?} by cells of the frontier in {}", pos.to_text(&v.rules));
                    }
                    // The same start, searched a cell at a time.
                    e.dist[p.index()].iter_mut().for_each(|d| {
                        if *d != 0 {
                            *d = u8::MAX
                        }
                    });
                    e.frontier.retain(|&c| e.dist[p.index()][c as usize] == 0);
                    e.distances_by_lists(pos, p);
                    assert_eq!(sets, e.dist[p.index()], "{name} {p:?} in {}", pos.to_text(&v.rules));
                    on_sets += e.distances_on_sets(pos, p) as u32;
                    reached += sets.iter().filter(|&&d| d > 1 && d < u8::MAX).count();
                }
            });
            assert!(on_sets > 100 && reached > 1000, "{name}: {on_sets} searches on the sets, {reached} cells two or more moves away");
            if name == "amazons" {
                assert!(by_fills > 100, "{name}: only {by_fills} searches by shifts");
            }
        }
    }

    #[test]
    fn open_lines_by_hand() {
        // Tic-tac-toe: X on b2, O on a1, X to move. The diagonal a1–c3 holds both: open for
        // neither. X's open lines: rank 2, file b, the diagonal a3–c1 (one mark each); O's: rank
        // 1 and file a. 4 points × 1² per open line, in units of a tenth of a point.
        let v = Variant::load("tic-tac-toe", &[]).unwrap();
        let lines = |text: &str| {
            let mut pos = Position::from_text(&v.rules, text).unwrap();
            let e = Evaluator::new(&v).breakdown(&mut pos).unwrap();
            e.terms.iter().find(|(x, _)| *x == Term::Lines).unwrap().1.0
        };
        assert_eq!(lines("3/1X1/O2 white 2"), [120, 80]);
        // X adds c1: rank 1 is now blocked for O; X's diagonal a3–c1 holds 2 (4 × 4 points) and
        // file c holds 1: X 4 + 4 + 16 + 4 = 28 points, O only file a: 4.
        assert_eq!(lines("3/1X1/O1X black 3"), [280, 40]);
    }

    #[test]
    fn terms_by_hand() {
        // Checkers: a white man on b2, a black king on g7; white to move.
        let v = Variant::load("checkers", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "4/3k/4/4/4/4/M3/4 white 0").unwrap();
        let e = Evaluator::new(&v).breakdown(&mut pos).unwrap();
        let term = |t: Term| e.terms.iter().find(|(x, _)| *x == t).unwrap().1;
        // Material: 100 and 140 points, 1000 and 1400 units.
        assert_eq!(term(Term::Material).0, [1000, 1400]);
        // Mobility: the man has a1... b2-a3 and b2-c3; the king four diagonal steps from g7
        // (f8, h8, f6, h6): 2 and 4 moves at 3 points each.
        assert_eq!(term(Term::Mobility).0, [60, 120]);
        // Progress: the man is 6 steps from rank 8 (its longest way is 7, from rank 1): the
        // king's 40 more points × (7 - 6 + 1) / 8 = 10 points; the king has no goal.
        assert_eq!(term(Term::Progress).0, [100, 0]);
        assert_eq!(e.total(Player::FIRST), 1000 + 60 + 100 - 1400 - 120);
    }

    #[test]
    fn territory_by_hand() {
        // Amazons: white's amazon on a1 is walled in by arrows on a2, b1 and b2; black's on j10
        // reaches every one of the 95 empty cells (a queen crosses an open board in two moves).
        let v = Variant::load("amazons", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "9q/10/10/10/10/10/10/10/XX8/QX8 white").unwrap();
        let e = Evaluator::new(&v).breakdown(&mut pos).unwrap();
        let term = |t: Term| e.terms.iter().find(|(x, _)| *x == t).unwrap().1;
        assert_eq!(term(Term::Territory).0, [0, 95 * 100]);
        // Opened on b2 (that arrow gone): white's amazon reaches the a1-j10 diagonal in one
        // move, but so does black's from the other end: ties count for nobody, and every other
        // cell is as near or nearer for black (white needs two moves for all of them).
        let mut pos = Position::from_text(&v.rules, "9q/10/10/10/10/10/10/10/X9/QX8 white").unwrap();
        let e = Evaluator::new(&v).breakdown(&mut pos).unwrap();
        let t = e.terms.iter().find(|(x, _)| *x == Term::Territory).unwrap().1;
        assert_eq!(t.0[0], 0);
    }

    #[test]
    fn overrides_and_the_script_term() {
        let v = Variant::load("tests/scripted/evaluate/variant.toml", &[]).unwrap();
        let king = v.rules.kind_by_name("king").unwrap();
        assert_eq!(v.rules.eval.value(king), 300);
        // White men on c3 (on the long diagonal) and e3; black men on f6 and g7 (both on it).
        let mut pos = Position::from_text(&v.rules, "4/3m/2m1/4/4/1MM1/4/4 white 0").unwrap();
        let e = Evaluator::new(&v).breakdown(&mut pos).unwrap();
        let terms: Vec<Term> = e.terms.iter().map(|(t, _)| *t).collect();
        assert_eq!(terms, vec![Term::Material, Term::Progress, Term::Script], "mobility is weighted 0");
        // 5 and 10 points, times the weight 2, in units of a tenth of a point.
        assert_eq!(e.terms[2].1.0, [100, 200]);
        // A hook that writes to the position is refused, naming the hook.
        let w = Variant::load("tests/scripted/evaluate_writes/variant.toml", &[]).unwrap();
        let mut pos = w.start();
        let err = Evaluator::new(&w).score(&mut pos).unwrap_err().to_string();
        assert!(err.contains("`evaluate`") && err.contains("may only read it"), "{err}");
        assert_eq!(pos, w.start());
    }

    #[test]
    fn pieces_are_written_as_pieces() {
        assert_eq!(pieces(1250), "+1.25");
        assert_eq!(pieces(-30), "-0.03");
    }
}
