//! The connection end condition (`connected`, issue 51 part 3): a player wins when one chain of
//! its pieces (cells joined by the board's adjacency, `directions`) touches its part of every
//! goal the condition names (Hex's two sides, Y's three), or of `at_least` of them (Havannah's
//! fork: three of six edges; its bridge: two of six corners, each cell of one zone a goal with
//! `each_cell`). Read once into [`Connection`] (a bit per goal per cell, per player, and the
//! neighbour table); judged after a move from the cell where the move's piece stands, since
//! any new chain of the mover's runs through it; and measured for the machine player as the
//! pieces a player still needs to place to connect ([`Connection::needed`]).

use super::KindSet;
use crate::cellset::CellSet;
use crate::geometry::CellTable;
use crate::piece::{ByPlayer, PieceCode, Player};

/// The most goals one connection may join (zones, or with `each_cell` their cells).
pub(crate) const MAX_GOALS: usize = 16;

/// A declared connection: whose chain joins what.
#[derive(Clone, Debug)]
pub(crate) struct Connection {
    /// Per player, per cell: a bit per goal (a zone of the list, or with `each_cell` one of its
    /// cells) whose player's part holds the cell.
    pub(crate) marks: ByPlayer<Vec<u16>>,
    /// Per player, how many goals it has (its goals are the bits below that).
    pub(crate) goals: ByPlayer<u32>,
    /// Per player, how many of its goals one chain must touch (`at_least`; default: all).
    pub(crate) at_least: ByPlayer<u32>,
    /// Whether each cell of a listed zone is a goal of its own (`each_cell`).
    pub(crate) each_cell: bool,
    /// The kinds whose pieces make chains (default: every kind).
    pub(crate) kinds: KindSet,
    /// Per cell, its neighbours (the chain's adjacency).
    pub(crate) neighbours: CellTable<u16>,
    /// Per cell, its neighbours as a cell set, where the board is small enough for the
    /// searches to go a level of cells at a time ([`NeighbourSets::of`]).
    pub(crate) neighbour_sets: NeighbourSets,
    /// `true`: joining wins; `false`: it loses (a misère connection).
    pub(crate) win: bool,
}

impl Connection {
    /// Whether `code` is a piece of `p` that counts in a chain.
    #[inline]
    fn links(&self, code: PieceCode, p: Player) -> bool {
        code.is_of(p) && self.kinds.contains(code.kind())
    }

    /// The owner of the piece on `to`, if that piece's chain touches enough of its owner's
    /// goals. On a board of at most 128 cells the chain is a cell set and a stack on the call
    /// stack; a larger board floods [`CellBits`] (no allocation per move either way).
    pub(crate) fn joined_at(&self, board: &[PieceCode], to: u16) -> Option<Player> {
        let code = *board.get(to as usize)?;
        if code.is_empty() || !self.kinds.contains(code.kind()) {
            return None;
        }
        let p = code.owner();
        let (marks, need) = (&self.marks[p], self.at_least[p]);
        let mut got = 0u16;
        if !crate::cellset::CellSet::fits(board.len()) {
            let mut seen = CellBits::new();
            let joined = seen.flood(
                to,
                &self.neighbours,
                |c| self.links(board[c as usize], p),
                |c| {
                    got |= marks[c as usize];
                    got.count_ones() >= need
                },
            );
            return joined.then_some(p);
        }
        let (mut seen, mut stack, mut top) = (1u128 << to, [0u16; 128], 1);
        stack[0] = to;
        while top > 0 {
            top -= 1;
            let c = stack[top];
            got |= marks[c as usize];
            if got.count_ones() >= need {
                return Some(p);
            }
            for &n in self.neighbours.get(c) {
                if seen & (1u128 << n) == 0 && self.links(board[n as usize], p) {
                    seen |= 1u128 << n;
                    stack[top] = n;
                    top += 1;
                }
            }
        }
        None
    }

    /// How many more pieces `p` must place, at the least, for one chain to touch enough of its
    /// goals: a path through `p`'s pieces (free) and empty cells (one each), never through
    /// the other player's pieces; for three goals or more, the cheapest cell to meet at,
    /// summing the paths from the `at_least` nearest goals to it. `None`: no chain can join
    /// them any more. `s` is scratch (kept by the caller, so that an evaluation allocates
    /// nothing once it has grown).
    pub(crate) fn needed(&self, board: &[PieceCode], p: Player, s: &mut Scratch) -> Option<u32> {
        // Per cell: 0 for a piece of the chain, 1 for an empty cell, BLOCKED for the others.
        s.cost.clear();
        s.cost.extend(board.iter().map(|&code| {
            if self.links(code, p) {
                0
            } else if code.is_empty() {
                1
            } else {
                BLOCKED
            }
        }));
        if self.at_least[p] == 2 && self.goals[p] > 2 { self.nearest_pair(p, s) } else { self.meeting(p, s) }
    }

    /// [`Connection::needed`] in general, once `s.cost` is filled: a search from each goal,
    /// then the cheapest cell for the `at_least` nearest of them to meet at.
    fn meeting(&self, p: Player, s: &mut Scratch) -> Option<u32> {
        let n = s.cost.len();
        let (goals, k) = (self.goals[p] as usize, self.at_least[p] as usize);
        s.dist.clear();
        s.dist.resize(goals * n, u32::MAX);
        // (The same distances, where the board allows, a level of cells at a time on sets.)
        match &self.neighbour_sets {
            NeighbourSets::None => {
                for z in 0..goals {
                    let starts = (0..n).filter(|&c| self.marks[p][c] & (1 << z) != 0);
                    distances(&self.neighbours, starts, &s.cost, &mut s.dist[z * n..(z + 1) * n], (&mut s.cur, &mut s.next), None);
                }
            }
            NeighbourSets::Sets(bits) => match bits.len() / n.max(1) {
                ..=2 => distances_on_words::<2>(bits, &self.marks[p], goals, &s.cost, &mut s.dist),
                3..=4 => distances_on_words::<4>(bits, &self.marks[p], goals, &s.cost, &mut s.dist),
                5..=6 => distances_on_words::<6>(bits, &self.marks[p], goals, &s.cost, &mut s.dist),
                _ => distances_on_words::<8>(bits, &self.marks[p], goals, &s.cost, &mut s.dist),
            },
        }
        let mut best = None;
        for c in (0..n).filter(|&c| s.cost[c] != BLOCKED) {
            // The k smallest of the goals' distances, in order (kept by insertion: a sort of
            // every goal's cost more than the searches' tail).
            let mut near = [u32::MAX; MAX_GOALS];
            for z in 0..goals {
                let d = s.dist[z * n + c];
                if d < near[k - 1] {
                    let mut i = k - 1;
                    while i > 0 && near[i - 1] > d {
                        near[i] = near[i - 1];
                        i -= 1;
                    }
                    near[i] = d;
                }
            }
            if near[k - 1] == u32::MAX {
                continue;
            }
            // The meeting cell is counted in each of the k paths: once is enough.
            let sum = near[..k].iter().sum::<u32>() - (k as u32 - 1) * u32::from(s.cost[c]);
            best = Some(best.map_or(sum, |b: u32| b.min(sum)));
        }
        best
    }
}

impl Connection {
    /// [`Connection::needed`] for any two of several goals (Havannah's bridge): one search from
    /// every goal at once, each cell labelled with the goal it was reached from (a goal's cell
    /// with its own). The shortest path between two goals crosses, somewhere, from a cell of
    /// one label to a neighbour of another: it costs their two distances. A cell in two goals
    /// joins them by itself.
    fn nearest_pair(&self, p: Player, s: &mut Scratch) -> Option<u32> {
        let n = s.cost.len();
        let marks = &self.marks[p];
        s.dist.clear();
        s.dist.resize(n, u32::MAX);
        s.label.clear();
        s.label.extend(marks.iter().map(|&m| m & m.wrapping_neg()));
        let starts = (0..n).filter(|&c| marks[c] != 0);
        distances(&self.neighbours, starts, &s.cost, &mut s.dist, (&mut s.cur, &mut s.next), Some(&mut s.label));
        let mut best = u32::MAX;
        for c in (0..n).filter(|&c| s.dist[c] != u32::MAX) {
            if marks[c].count_ones() >= 2 {
                best = best.min(u32::from(s.cost[c]));
            }
            for &x in self.neighbours.get(c as u16) {
                if s.dist[x as usize] != u32::MAX && s.label[x as usize] != s.label[c] {
                    best = best.min(s.dist[c] + s.dist[x as usize]);
                }
            }
        }
        (best != u32::MAX).then_some(best)
    }
}

/// A cell no chain of the player can pass (the other player's piece).
const BLOCKED: u8 = u8::MAX;

/// The pieces needed to reach each cell from the cells of `starts`, into `dist` (every entry
/// `u32::MAX` on entry): a 0-1 breadth-first search, level by level, where entering a cell
/// costs `cost` (0 or 1, never a `BLOCKED` cell) and a distance counts the cell's own cost.
/// With `label`, each cell reached takes the label of the cell it was reached from.
fn distances(
    neighbours: &CellTable<u16>,
    starts: impl Iterator<Item = usize>,
    cost: &[u8],
    dist: &mut [u32],
    (cur, next): (&mut Vec<u16>, &mut Vec<u16>),
    mut label: Option<&mut Vec<u16>>,
) {
    cur.clear();
    next.clear();
    for c in starts.filter(|&c| cost[c] != BLOCKED) {
        dist[c] = u32::from(cost[c]);
        if cost[c] == 0 { cur.push(c as u16) } else { next.push(c as u16) }
    }
    let mut level = 0;
    loop {
        let mut i = 0;
        while let Some(&c) = cur.get(i) {
            i += 1;
            if dist[c as usize] != level {
                continue; // reached again more cheaply
            }
            for &x in neighbours.get(c) {
                let k = cost[x as usize];
                if k != BLOCKED && level + u32::from(k) < dist[x as usize] {
                    dist[x as usize] = level + u32::from(k);
                    if let Some(l) = label.as_deref_mut() {
                        l[x as usize] = l[c as usize];
                    }
                    if k == 0 { cur.push(x) } else { next.push(x) }
                }
            }
        }
        if next.is_empty() {
            return;
        }
        std::mem::swap(cur, next);
        next.clear();
        level += 1;
    }
}

/// Per cell, its neighbours as a cell set: what [`Connection::needed`] searches with, a level
/// of cells at a time.
#[derive(Clone, Debug, Default)]
pub(crate) enum NeighbourSets {
    /// The searches go cell by cell: a board past [`WIDE_CELLS`] cells.
    #[default]
    None,
    /// A board of at most [`WIDE_CELLS`] cells: 2, 4, 6 or 8 words each (the fewest that hold
    /// the board), cell `c`'s from `c` times that.
    Sets(Vec<u64>),
}

/// The most cells a board searched on [`NeighbourSets::Sets`] sets has.
const WIDE_CELLS: usize = 8 * 64;

impl NeighbourSets {
    /// The sets of a board of `cells` cells whose adjacency is `neighbours`.
    pub(crate) fn of(neighbours: &CellTable<u16>, cells: usize) -> NeighbourSets {
        if cells > WIDE_CELLS {
            return NeighbourSets::None;
        }
        let words = match cells.div_ceil(64) {
            ..=2 => 2,
            3..=4 => 4,
            5..=6 => 6,
            _ => 8,
        };
        let mut bits = vec![0u64; cells * words];
        for c in 0..cells as u16 {
            for &x in neighbours.get(c) {
                bits[c as usize * words + x as usize / 64] |= 1 << (x % 64);
            }
        }
        NeighbourSets::Sets(bits)
    }
}

/// [`distances`] on a board of at most `64 × W` cells, a level of cells at a time on cell sets:
/// the cells of a goal of cost 0 and every cost-0 cell joined to them are at 0; each next level
/// is the empty cells next to the last (or of the goal, for the first) and the cost-0 cells
/// joined to those (the same distances: a 0-1 search's are unique). For each of the `goals` goals
/// whose cells `marks` holds (a bit per goal), the distances of every cell, into
/// `dist[goal × cells..]`; `cost` as [`distances`] takes it. `neighbours`: [`NeighbourSets::Sets`]'s.
fn distances_on_words<const W: usize>(neighbours: &[u64], marks: &[u16], goals: usize, cost: &[u8], dist: &mut [u32]) {
    type Set<const W: usize> = [u64; W];
    let n = cost.len();
    let (mut own, mut empty, mut starts) = ([0u64; W], [0u64; W], [[0u64; W]; MAX_GOALS]);
    for (c, (&k, &m)) in cost.iter().zip(marks).enumerate() {
        let (w, b) = (c / 64, c % 64);
        own[w] |= u64::from(k == 0) << b;
        empty[w] |= u64::from(k == 1) << b;
        for z in CellSet::from_bits(m.into()) {
            starts[z as usize][w] |= 1 << b;
        }
    }
    let next_to = |set: &Set<W>| {
        let mut out = [0u64; W];
        for (w, &word) in set.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                let c = w * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                for (o, &x) in out.iter_mut().zip(&neighbours[c * W..(c + 1) * W]) {
                    *o |= x;
                }
            }
        }
        out
    };
    let any = |s: &Set<W>| s.iter().any(|&w| w != 0);
    // `x` with every `own` cell joined to it that no earlier level holds.
    let joined = |x: Set<W>, reached: &Set<W>| {
        let (mut all, mut new) = (x, x);
        while any(&new) {
            let near = next_to(&new);
            for i in 0..W {
                new[i] = near[i] & own[i] & !all[i] & !reached[i];
                all[i] |= new[i];
            }
        }
        all
    };
    for (z, from) in starts.iter().enumerate().take(goals) {
        let dist = &mut dist[z * n..(z + 1) * n];
        let mut reached = [0u64; W];
        let mut level = joined(std::array::from_fn(|i| from[i] & own[i]), &reached);
        let mut d = 0u32;
        loop {
            for (w, &word) in level.iter().enumerate() {
                reached[w] |= word;
                let mut b = word;
                while b != 0 {
                    dist[w * 64 + b.trailing_zeros() as usize] = d;
                    b &= b - 1;
                }
            }
            let near = next_to(&level);
            let next: Set<W> = std::array::from_fn(|i| ((near[i] & empty[i]) | if d == 0 { from[i] & empty[i] } else { 0 }) & !reached[i]);
            if !any(&next) {
                break;
            }
            level = joined(next, &reached);
            d += 1;
        }
    }
}

/// What [`Connection::needed`] works in: each cell's cost, each goal's distances to every cell,
/// the two levels of the search.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    cost: Vec<u8>,
    /// [`Connection::nearest_pair`]: the goal each cell was reached from.
    label: Vec<u16>,
    dist: Vec<u32>,
    cur: Vec<u16>,
    next: Vec<u16>,
}

/// The most cells a board has (26 files × 99 ranks, `validate/board.rs`).
const MAX_CELLS: usize = 26 * 99;

/// A set of cells of any board, on the call stack: what a flood fill on a board too large for
/// a [`crate::cellset::CellSet`] marks, without allocating.
pub(crate) struct CellBits([u64; MAX_CELLS.div_ceil(64)]);

impl CellBits {
    pub(crate) fn new() -> CellBits {
        CellBits([0; MAX_CELLS.div_ceil(64)])
    }

    #[inline]
    pub(crate) fn has(&self, c: u16) -> bool {
        self.0[c as usize / 64] & (1 << (c % 64)) != 0
    }

    #[inline]
    pub(crate) fn add(&mut self, c: u16) {
        self.0[c as usize / 64] |= 1 << (c % 64);
    }

    /// Floods from `seed` (added to the set) through the cells not yet in the set for which
    /// `through` holds, adding each; `visit` sees every cell reached (the seed first) and stops
    /// the fill by returning `true`, which is then returned. The cells still to visit are a
    /// second set, taken lowest first: no stack, so no allocation on any board.
    pub(crate) fn flood(
        &mut self,
        seed: u16,
        neighbours: &CellTable<u16>,
        through: impl Fn(u16) -> bool,
        mut visit: impl FnMut(u16) -> bool,
    ) -> bool {
        let mut todo = CellBits::new();
        let mut low = seed as usize / 64;
        self.add(seed);
        todo.add(seed);
        while let Some(w) = (low..todo.0.len()).find(|&w| todo.0[w] != 0) {
            low = w;
            let c = (w * 64 + todo.0[w].trailing_zeros() as usize) as u16;
            todo.0[w] &= todo.0[w] - 1;
            if visit(c) {
                return true;
            }
            for &x in neighbours.get(c) {
                if !self.has(x) && through(x) {
                    self.add(x);
                    todo.add(x);
                    low = low.min(x as usize / 64);
                }
            }
        }
        false
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::piece::KindId;

    /// A 3 × 3 hex board: white joins files a and c, black ranks 1 and 3.
    fn hex3() -> (Connection, Geometry) {
        let mut g = Geometry::new(3, 3, |_, _| true);
        g.hex = true;
        let dirs: Vec<(i8, i8)> = crate::geometry::HEX_COMPASS.iter().map(|(_, d)| *d).collect();
        let neighbours = g.neighbour_table(&dirs);
        let mark = |f: &dyn Fn(u8, u8) -> u16| g.cells().map(|c| f(g.coords(c).0, g.coords(c).1)).collect::<Vec<u16>>();
        let white = mark(&|f, _| (f == 0) as u16 | ((f == 2) as u16) << 1);
        let black = mark(&|_, r| (r == 0) as u16 | ((r == 2) as u16) << 1);
        let two = ByPlayer::new(2, 2);
        (
            Connection {
                marks: ByPlayer::new(white, black),
                goals: two,
                at_least: two,
                each_cell: false,
                kinds: KindSet::ALL,
                neighbour_sets: NeighbourSets::of(&neighbours, 9),
                neighbours,
                win: true,
            },
            g,
        )
    }

    /// A board of `g` with one kind's pieces of the first player on `white`'s cells and of the
    /// second on `black`'s (for the connection and ring tests).
    pub(crate) fn board(g: &Geometry, white: &[&str], black: &[&str]) -> Vec<PieceCode> {
        let mut b = vec![PieceCode::EMPTY; g.len()];
        for (cells, p) in [(white, Player::FIRST), (black, Player::SECOND)] {
            for c in cells {
                b[g.parse_cell(c).unwrap().0 as usize] = PieceCode::new(KindId(0), p);
            }
        }
        b
    }

    /// a1-b1-c1 joins files a and c; a2 then b1 (a hex neighbour: b1 is a2's `se`) too; a1 and
    /// c1 alone do not; and nothing is joined through the other player's piece.
    #[test]
    fn chains_join_zones_by_hex_adjacency() {
        let (c, g) = hex3();
        let at = |b: &[PieceCode], x: &str| c.joined_at(b, g.parse_cell(x).unwrap().0);
        assert_eq!(at(&board(&g, &["a1", "b1", "c1"], &[]), "b1"), Some(Player::FIRST));
        assert_eq!(at(&board(&g, &["a2", "b1", "c1"], &[]), "c1"), Some(Player::FIRST));
        assert_eq!(at(&board(&g, &["a1", "c1"], &[]), "c1"), None);
        // a1 and b2 are not neighbours on a hex board (b2 is a1's diagonal).
        assert_eq!(at(&board(&g, &["a1", "b2", "c2"], &[]), "b2"), None);
        assert_eq!(at(&board(&g, &[], &["b1", "b2", "a3"]), "b2"), Some(Player::SECOND));
    }

    /// A hex board of 7 × 7 whose six goals are single cells (each a goal, as with
    /// `each_cell`), two of which are needed: Havannah's bridge on a small board.
    fn six_goals() -> (Connection, Geometry) {
        let (mut c, g) = hex3();
        let mut g7 = Geometry::new(7, 7, |_, _| true);
        g7.hex = true;
        let dirs: Vec<(i8, i8)> = crate::geometry::HEX_COMPASS.iter().map(|(_, d)| *d).collect();
        c.neighbours = g7.neighbour_table(&dirs);
        c.neighbour_sets = NeighbourSets::of(&c.neighbours, g7.len());
        let goals = ["a1", "g1", "a4", "d7", "g4", "g7"];
        let mut marks = vec![0u16; g7.len()];
        for (i, x) in goals.iter().enumerate() {
            marks[g7.parse_cell(x).unwrap().0 as usize] = 1 << i;
        }
        (c.marks, c.goals, c.at_least) = (ByPlayer::new(marks.clone(), marks), ByPlayer::new(6, 6), ByPlayer::new(2, 2));
        let _ = g;
        (c, g7)
    }

    /// Any two of six goals: the one search from every goal (labelled) finds what a search from
    /// each goal finds, on random boards; a chain touching two goals has joined them.
    #[test]
    fn two_of_many_goals_in_one_search() {
        let (c, g) = six_goals();
        let mut rng = crate::ai::rng(7);
        for _ in 0..300 {
            let b: Vec<PieceCode> = (0..g.len())
                .map(|_| match rand::RngExt::random_range(&mut rng, 0..5) {
                    0 => PieceCode::new(KindId(0), Player::FIRST),
                    1 => PieceCode::new(KindId(0), Player::SECOND),
                    _ => PieceCode::EMPTY,
                })
                .collect();
            for p in Player::both() {
                let mut s = Scratch::default();
                let one = c.needed(&b, p, &mut s);
                let each = c.meeting(p, &mut s);
                assert_eq!(one, each, "{p:?}");
            }
        }
        let at = |b: &[PieceCode], x: &str| c.joined_at(b, g.parse_cell(x).unwrap().0);
        let edge = ["a1", "b1", "c1", "d1", "e1", "f1"];
        assert_eq!(at(&board(&g, &edge, &[]), "c1"), None);
        assert_eq!(at(&board(&g, &[&edge[..], &["g1"]].concat(), &[]), "c1"), Some(Player::FIRST));
        assert_eq!(c.needed(&board(&g, &edge, &[]), Player::FIRST, &mut Scratch::default()), Some(1));
        assert_eq!(c.needed(&board(&g, &[], &[]), Player::FIRST, &mut Scratch::default()), Some(4));
    }

    /// `at_least` 2 of three zones (files a, c and e of a 5 × 5 hex board): the chain a1-b1-c1
    /// joins two, which is enough; the pieces needed are the cheapest two zones' path.
    #[test]
    fn at_least_some_of_the_zones() {
        let mut g = Geometry::new(5, 5, |_, _| true);
        g.hex = true;
        let dirs: Vec<(i8, i8)> = crate::geometry::HEX_COMPASS.iter().map(|(_, d)| *d).collect();
        let marks: Vec<u16> = g.cells().map(|x| [0, 2, 4].iter().position(|&f| f == g.coords(x).0).map_or(0, |i| 1 << i)).collect();
        let mut c = Connection {
            marks: ByPlayer::new(marks.clone(), marks),
            goals: ByPlayer::new(3, 3),
            at_least: ByPlayer::new(3, 3),
            each_cell: false,
            kinds: KindSet::ALL,
            neighbour_sets: NeighbourSets::of(&g.neighbour_table(&dirs), g.len()),
            neighbours: g.neighbour_table(&dirs),
            win: true,
        };
        let b = board(&g, &["a1", "b1", "c1"], &[]);
        assert_eq!(c.joined_at(&b, g.parse_cell("b1").unwrap().0), None);
        assert_eq!(c.needed(&b, Player::FIRST, &mut Scratch::default()), Some(2));
        c.at_least = ByPlayer::new(2, 2);
        assert_eq!(c.joined_at(&b, g.parse_cell("b1").unwrap().0), Some(Player::FIRST));
        assert_eq!(c.needed(&b, Player::FIRST, &mut Scratch::default()), Some(0));
        assert_eq!(c.needed(&board(&g, &[], &[]), Player::FIRST, &mut Scratch::default()), Some(3));
    }

    /// The pieces still needed: 3 on the empty board, 1 with a1 and c1 placed, 0 once joined,
    /// none possible when the other player holds a whole line across.
    #[test]
    fn needed_counts_the_empty_cells_of_the_shortest_chain() {
        let (c, g) = hex3();
        assert_eq!(c.needed(&board(&g, &[], &[]), Player::FIRST, &mut Scratch::default()), Some(3));
        assert_eq!(c.needed(&board(&g, &["a1", "c1"], &[]), Player::FIRST, &mut Scratch::default()), Some(1));
        assert_eq!(c.needed(&board(&g, &["a1", "b1", "c1"], &[]), Player::FIRST, &mut Scratch::default()), Some(0));
        assert_eq!(c.needed(&board(&g, &[], &["a1", "a2", "a3"]), Player::FIRST, &mut Scratch::default()), None);
        // Black's a1-a2-a3 joins ranks 1 and 3.
        assert_eq!(c.needed(&board(&g, &[], &["a1", "a2", "a3"]), Player::SECOND, &mut Scratch::default()), Some(0));
    }

    /// Over random games of the shipped connection games, the pieces each player still needs
    /// are the same searched on the cell sets and cell by cell (the connection's neighbour sets
    /// taken away): Hex and Y on one-word sets, Havannah (169 cells) and Havannah 10 (271) on
    /// wide ones.
    #[test]
    fn the_search_on_the_sets_needs_what_the_search_by_cells_needs() {
        for name in ["hex", "y", "havannah", "havannah10"] {
            let v = crate::Variant::load(name, &[]).unwrap();
            let ends: Vec<&Connection> = v
                .rules
                .ends
                .iter()
                .filter_map(|e| if let crate::rules::EndKind::Connected(c) = &e.kind { Some(c) } else { None })
                .collect();
            assert!(!ends.is_empty() && ends.iter().all(|c| !matches!(c.neighbour_sets, NeighbourSets::None)), "{name}");
            let (mut s, mut compared, mut far) = (Scratch::default(), 0, 0);
            v.random_positions(5, 6, 200, |pos, _| {
                for c in &ends {
                    let by_cells = Connection { neighbour_sets: NeighbourSets::None, ..(*c).clone() };
                    for p in Player::both() {
                        let sets = c.needed(pos.board(), p, &mut s);
                        assert_eq!(sets, by_cells.needed(pos.board(), p, &mut s), "{name} {p:?}: {}", pos.to_text(&v.rules));
                        compared += 1;
                        far += usize::from(sets.is_some_and(|n| n >= 3));
                    }
                }
            });
            assert!(compared > 500 && far > 100, "{name}: {compared} compared, {far} three pieces or more away");
        }
    }
}
