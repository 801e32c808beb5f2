//! Attacks run backwards: which piece could capture on a given cell, found by looking out from
//! that cell instead of generating the opponent's moves: the tables of the attack query
//! ([`crate::attack`], which check, castling and the end conditions ask).
//!
//! At load, every capturing step and fixed-distance leap becomes an entry of the target cell
//! (source cell, piece code, what it may capture there), its zone conditions already applied;
//! every capturing slide becomes an entry of its reverse direction (code, range, what it may
//! capture, conditions). A query walks each reverse direction from the cell to the first piece
//! and looks it up, and reads the cell's fixed entries. Slides with a hurdle are entries too: a
//! hop (a grasshopper) attacks the cell just beyond the first piece in its line, so the query
//! looks past an occupied neighbour to the next piece; a screen slide (a cannon) attacks the
//! second piece in its line, so the query looks past the first piece to the next one. A lame
//! leap's entry names its leg, which must be empty. Such pieces can also give check by a move
//! that fills or empties a cell off the lines the pin test watches, which [`Attacks::indirect`]
//! tells the legality test. Forms these tables cannot hold (capture chains, leaps whose
//! distance is an attribute, slides with path zones, that pass over pieces or stop at the first
//! empty cell, forms limited by a piece count, any form on a board of more than 128 cells)
//! mark their piece code as `complex`: the query tries those pieces by generating their
//! captures. A leap whose distance is an attribute (Lielow's stacks) is complex to the tables
//! that read only the board, but has entries of its own that also read the attribute
//! ([`Attacks::attribute_attacker`]): (source cell, code, victims, attribute, the distance it
//! must hold); a code whose only such forms are these is [`Attacks::attributed`], and the
//! query does not generate its captures. Which codes are complex is decided here, once, at load.

use super::movement::{BoardView, Cond, Distance, Form, Hurdle, lame_path as lame_path_of, victim};
use super::{CodeSet, PieceRules};
use crate::geometry::{CellTable, Geometry, NONE};
use crate::piece::PieceCode;

/// A slider that captures along one direction.
#[derive(Clone, Debug)]
struct Line {
    code: PieceCode,
    max: u8,
    capture: CodeSet,
    cond: Cond,
}

/// A capture by a step or fixed leap onto a target cell: (source cell, code, victims, the
/// cells that must be empty: a lame leap's leg or its path's cells, [`NONE`] where unused).
type Point = (u16, PieceCode, CodeSet, [u16; 2]);

/// A capture by a leap whose distance is an attribute onto a target cell: (source cell, code,
/// victims, the attribute's slot, the value it must hold there: the leap's distance).
type AttrPoint = (u16, PieceCode, CodeSet, u8, i32);

/// Per reverse direction (an interned vector), the line pieces found along it.
type Lines = Vec<(u16, Vec<Line>)>;

/// The compiled reverse attack tables of a ruleset.
#[derive(Clone, Debug)]
pub(crate) struct Attacks {
    /// Per owner of the victim (the first player, the second, or none: an empty cell), per
    /// target cell: (source cell, code, victims, a cell that must be empty or [`NONE`]) of
    /// captures by a step or a fixed leap (the cell: a lame leap's leg). An entry is kept under
    /// each owner one of whose codes it may capture, in the same order, so a query reads only
    /// the entries that can take its piece and finds the same attacker first.
    points: [CellTable<Point>; 3],
    /// Per reverse direction (an interned vector): the sliders that capture coming the other way.
    lines: Lines,
    /// The same for hopping slides, which capture just beyond the first piece in their line.
    hops: Lines,
    /// The same for screen slides, which capture the second piece in their line.
    screens: Lines,
    /// The codes whose captures depend on a cell the pin test does not watch (a hop's or a
    /// screen's hurdle, a lame leap's leg): a move that fills or empties such a cell can give
    /// check, so the legality test plays every move while one of them is on the board.
    pub(crate) indirect: CodeSet,
    /// The codes some of whose captures these tables do not hold.
    pub(crate) complex: CodeSet,
    /// Per owner class of the victim (as [`Attacks::points`]), per target cell: the captures
    /// by leaps whose distance is an attribute ([`Attacks::attribute_attacker`]).
    attr_points: [CellTable<AttrPoint>; 3],
    /// The complex codes whose every capture not in the board-only tables is in
    /// [`Attacks::attr_points`]: the attack query need not generate theirs.
    pub(crate) attributed: CodeSet,
    /// The codes of the plain sliders ([`Attacks::lines`]' pieces): where none stands on a
    /// reverse direction's ray from the target, the query need not walk it.
    pub(crate) sliders: CodeSet,
    /// Per owner class and target cell, the source cells of its [`Attacks::points`] entries
    /// (all ones past 128 cells): where no enemy piece stands on one, they need not be read.
    point_sources: [Vec<u128>; 3],
    /// Per target cell, the cells of the rays along [`Attacks::lines`]' reverse directions
    /// (all ones where a direction has no ray): where no slider stands on one, no line is walked.
    line_cells: Vec<u128>,
}

/// Which cells may hold an attacker, for [`Attacks::attacker_among`]: supersets of the cells
/// of the attacking side's pieces, and of those of [`Attacks::sliders`]' codes among them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Among {
    pub(crate) pieces: u128,
    pub(crate) sliders: u128,
}

impl Among {
    /// Any cell (not known).
    pub(crate) const ANY: Among = Among { pieces: u128::MAX, sliders: u128::MAX };
}

/// The tables being built: one entry list per target cell, and the line tables.
struct Builder {
    points: Vec<Vec<Point>>,
    attr_points: Vec<Vec<AttrPoint>>,
    /// The codes with a capturing leap whose distance is an attribute (entered in `attr_points`).
    attr_leaps: CodeSet,
    lines: Lines,
    hops: Lines,
    screens: Lines,
    complex: CodeSet,
    indirect: CodeSet,
}

impl Builder {
    /// Enters the capturing form `form` of the piece `code` (see the module's comment); a form
    /// the tables cannot hold marks the code complex.
    fn add(&mut self, g: &mut Geometry, code: PieceCode, form: &Form) {
        let bit: CodeSet = 1 << code.index();
        match form {
            Form::Step { targets, capture, .. } => {
                for from in 0..g.len() as u16 {
                    for &to in targets.get(from) {
                        self.points[to as usize].push((from, code, *capture, [NONE; 2]));
                    }
                }
            }
            // (A leap blocked along its path: where the path has at most two cells.)
            Form::Leap { vecs, distance: Distance::Fixed(d), capture, cond, lame, lame_path, .. }
                if cond.same_zone.is_empty()
                    && (!*lame_path
                        || vecs.iter().all(|&(x, y)| lame_path_of(x as i32 * *d as i32, y as i32 * *d as i32).count() <= 2)) =>
            {
                if *lame {
                    self.indirect |= bit;
                }
                self.add_leap(g, code, vecs, *d, *capture, cond, (*lame, *lame_path));
            }
            // (Passing over anything: the board plays no part but the source and the victim.)
            Form::Leap { vecs, distance: Distance::Attribute(slot), capture, cond, lame: false, .. }
                if cond.same_zone.is_empty() && !cond.en_passant =>
            {
                self.attr_leaps |= bit;
                self.add_attr_leap(g, code, vecs, *slot, *capture, cond);
            }
            // (A path zone is read along the line: see `Line::path_clear`; not for a hop.)
            Form::Slide { vecs, stop_first: false, max, capture, cond, hurdle, pass_over, .. }
                if (cond.path.is_empty() || *hurdle != Hurdle::Hop)
                    && cond.same_zone.is_empty()
                    && (*hurdle == Hurdle::None || *pass_over == 0) =>
            {
                let table = match hurdle {
                    Hurdle::None => &mut self.lines,
                    Hurdle::Hop => &mut self.hops,
                    // (A screen slide's captures are the same whatever its quiet moves.)
                    Hurdle::Screen | Hurdle::ScreenAlways => &mut self.screens,
                };
                if *hurdle != Hurdle::None {
                    self.indirect |= bit;
                }
                for &v in vecs {
                    let (dx, dy) = g.vector(v);
                    let back = g.intern_vector((-dx, -dy));
                    let line = Line { code, max: *max, capture: *capture, cond: cond.clone() };
                    match table.iter_mut().find(|(b, _)| *b == back) {
                        Some((_, ls)) => ls.push(line),
                        None => table.push((back, vec![line])),
                    }
                }
            }
            _ => self.complex |= bit,
        }
    }

    /// Enters a fixed leap of `d` steps along each of `vecs` (a lame one names its leg).
    #[allow(clippy::too_many_arguments)]
    fn add_leap(&mut self, g: &Geometry, code: PieceCode, vecs: &[(i8, i8)], d: u8, capture: CodeSet, cond: &Cond, lame: (bool, bool)) {
        for from in 0..g.len() as u16 {
            if !cond.start_ok(g, from) {
                continue;
            }
            let (f0, r0) = g.coords(crate::geometry::Cell(from));
            for &(dx, dy) in vecs {
                let (tf, tr) = (f0 as i32 + dx as i32 * d as i32, r0 as i32 + dy as i32 * d as i32);
                // A lame leap's leg: the cell one step short of the landing (along its path, the
                // cells of the path).
                let mut leg = [NONE; 2];
                let (step_x, step_y) = (dx as i32 * d as i32, dy as i32 * d as i32);
                let cells: Vec<(i32, i32)> = match lame {
                    (false, _) => Vec::new(),
                    (true, false) => vec![(step_x - step_x.signum(), step_y - step_y.signum())],
                    (true, true) => lame_path_of(step_x, step_y).collect(),
                };
                let mut off = false;
                for (i, (x, y)) in cells.into_iter().enumerate() {
                    match g.at(f0 as i32 + x, r0 as i32 + y) {
                        Some(c) => leg[i] = c.0,
                        None => off = true,
                    }
                }
                if off {
                    continue;
                }
                if let Some(to) = g.at(tf, tr).filter(|t| cond.land_ok(g, from, t.0)) {
                    self.points[to.0 as usize].push((from, code, capture, leg));
                }
            }
        }
    }

    /// Enters a leap along each of `vecs` whose distance is the value of attribute `slot`: from
    /// each start, every distance that lands on the board (a longer one leaves it).
    fn add_attr_leap(&mut self, g: &Geometry, code: PieceCode, vecs: &[(i8, i8)], slot: u8, capture: CodeSet, cond: &Cond) {
        let longest = g.files.max(g.ranks) as i32;
        for from in (0..g.len() as u16).filter(|&c| cond.start_ok(g, c)) {
            let (f0, r0) = g.coords(crate::geometry::Cell(from));
            for d in 1..=longest {
                for &(dx, dy) in vecs {
                    if let Some(to) = g.at(f0 as i32 + dx as i32 * d, r0 as i32 + dy as i32 * d).filter(|t| cond.land_ok(g, from, t.0)) {
                        self.attr_points[to.0 as usize].push((from, code, capture, slot, d));
                    }
                }
            }
        }
    }

    /// The finished tables, with the cell masks that let a query skip what cannot hit.
    fn finish(self, g: &Geometry) -> Attacks {
        let n = g.len();
        let Builder { points, attr_points, attr_leaps, lines, hops, screens, complex, indirect } = self;
        let class_codes =
            |owner: usize| (0..128).filter(|&i| owner_class(PieceCode::from_index(i)) == owner).fold(0, |s: CodeSet, i| s | 1 << i);
        let points = [0, 1, 2].map(|owner| {
            let codes = class_codes(owner);
            CellTable::build(n, |c, out: &mut Vec<Point>| {
                out.extend(points[c as usize].iter().filter(|e| e.2 & codes != 0));
            })
        });
        let attr_points = [0, 1, 2].map(|owner| {
            let codes = class_codes(owner);
            CellTable::build(n, |c, out: &mut Vec<AttrPoint>| {
                out.extend(attr_points[c as usize].iter().filter(|e| e.2 & codes != 0));
            })
        });
        let sliders = lines.iter().flat_map(|(_, ls)| ls).fold(0, |s: CodeSet, l| s | 1 << l.code.index());
        let point_sources = [0, 1, 2].map(|class: usize| {
            let sources = |c: u16| points[class].get(c).iter().fold(0u128, |s, e| s | 1u128 << e.0);
            (0..n as u16).map(|c| if n > 128 { u128::MAX } else { sources(c) }).collect()
        });
        let line_cells =
            (0..n as u16).map(|c| lines.iter().fold(0u128, |s, (back, _)| s | g.ray(*back, c).map_or(u128::MAX, |(ray, _)| ray))).collect();
        let (attributed, complex) = (attr_leaps & !complex, complex | attr_leaps);
        Attacks { points, attr_points, attributed, lines, hops, screens, indirect, complex, sliders, point_sources, line_cells }
    }
}

impl Attacks {
    /// The tables for `pieces` (indexed by code) on `g` (reverse vectors are interned into it).
    /// On a board of more than 128 cells they hold nothing: every code is complex there, so
    /// the attack query generates every capture (the cell masks need at most 128 cells).
    pub(crate) fn build(g: &mut Geometry, pieces: &[PieceRules]) -> Attacks {
        let n = g.len();
        let mut b = Builder {
            points: vec![Vec::new(); n],
            attr_points: vec![Vec::new(); n],
            attr_leaps: 0,
            lines: Vec::new(),
            hops: Vec::new(),
            screens: Vec::new(),
            complex: 0,
            indirect: 0,
        };
        if n > 128 {
            b.complex = CodeSet::MAX;
            return b.finish(g);
        }
        for (ci, p) in pieces.iter().enumerate().skip(1) {
            let code = PieceCode::from_index(ci);
            if !p.jumps.is_empty() {
                b.complex |= 1 << ci;
            }
            for (form, &limit) in p.quiet.iter().zip(&p.limits) {
                if !form.captures() {
                    continue;
                }
                if limit != u16::MAX {
                    b.complex |= 1 << ci;
                    continue;
                }
                b.add(g, code, form);
            }
        }
        b.finish(g)
    }

    /// The cells of pieces that shield the piece `victim_code` on `at` from a slider: along a
    /// reverse direction, the first piece is of the victim's side and the next is a slider
    /// that would capture on `at` once the first has gone (a pin). A cell mask. `sliders`
    /// holds at least the cells of the pieces of [`Attacks::sliders`]' codes (all ones: not
    /// known): a direction whose ray meets none of them is not walked.
    pub(crate) fn pinned(&self, g: &Geometry, board: &[PieceCode], at: u16, victim_code: PieceCode, sliders: u128) -> u128 {
        let mut pins = 0u128;
        for (back, ls) in &self.lines {
            if !may_meet(g, *back, at, sliders) {
                continue;
            }
            let (shield, d1) = first_piece(g, board, *back, at);
            if shield == NONE || board[shield as usize].owner() != victim_code.owner() {
                continue;
            }
            let (c, d2) = first_piece(g, board, *back, shield);
            if c != NONE && ls.iter().any(|l| l.hits(g, board[c as usize], d1 + d2, victim_code, c, at) && l.path_clear(g, *back, at, c)) {
                pins |= 1u128 << shield;
            }
        }
        pins
    }

    /// A cell from which a piece of a code the tables hold could capture the piece `victim_code`
    /// on `at` of `board`, if there is one: a step or leap landing there, or a slider with
    /// nothing between (or its hurdle). The attacking side's pieces stand on cells of `among`:
    /// the entries whose sources hold none are not read, and a direction whose ray meets no
    /// slider is not walked. The table half of the attack query ([`crate::attack`]), which
    /// alone is the whole answer where the attacking side has no piece of a
    /// [`Attacks::complex`] code.
    #[inline]
    pub(crate) fn attacker_among(&self, g: &Geometry, board: &[PieceCode], at: u16, victim_code: PieceCode, among: Among) -> Option<u16> {
        let class = owner_class(victim_code);
        if self.point_sources[class][at as usize] & among.pieces != 0 {
            for &(src, code, caps, legs) in self.points[class].get(at) {
                let open = |leg: u16| leg == NONE || board[leg as usize].is_empty();
                if board[src as usize] == code && victim(victim_code, caps) && open(legs[0]) && open(legs[1]) {
                    return Some(src);
                }
            }
        }
        let sliders = among.sliders;
        if self.line_cells[at as usize] & sliders != 0 {
            for (back, ls) in &self.lines {
                if !may_meet(g, *back, at, sliders) {
                    continue;
                }
                let (c, dist) = first_piece(g, board, *back, at);
                if c != NONE && ls.iter().any(|l| l.hits(g, board[c as usize], dist, victim_code, c, at) && l.path_clear(g, *back, at, c)) {
                    return Some(c);
                }
            }
        }
        // A hop lands just beyond its hurdle: the neighbour on the way back is the hurdle.
        for (back, ls) in &self.hops {
            let hurdle = g.step(*back, at);
            if hurdle == NONE || board[hurdle as usize].is_empty() {
                continue;
            }
            let (c, dist) = first_piece(g, board, *back, hurdle);
            if c != NONE && ls.iter().any(|l| l.hits(g, board[c as usize], dist + 1, victim_code, c, at)) {
                return Some(c);
            }
        }
        // A screen slide captures the second piece in its line.
        for (back, ls) in &self.screens {
            let (screen, d1) = first_piece(g, board, *back, at);
            if screen == NONE {
                continue;
            }
            let (c, d2) = first_piece(g, board, *back, screen);
            let unscreened = |l: &Line| l.cond.screen_not >> board[screen as usize].index() & 1 != 0;
            if c != NONE
                && ls
                    .iter()
                    .any(|l| !unscreened(l) && l.hits(g, board[c as usize], d1 + d2, victim_code, c, at) && l.path_clear(g, *back, at, c))
            {
                return Some(c);
            }
        }
        None
    }

    /// A cell from which a leap whose distance is an attribute could capture the piece
    /// `victim_code` on `at` of `view`: a piece of the entry's code on its source, whose
    /// attribute holds the distance. The attribute half of the attack query, read after
    /// [`Attacks::attacker_among`]; with it, the whole answer for [`Attacks::attributed`] codes.
    #[inline]
    pub(crate) fn attribute_attacker(&self, view: &BoardView, at: u16, victim_code: PieceCode) -> Option<u16> {
        let (board, attrs, n) = (view.board, view.attrs, view.nattr);
        self.attr_points[owner_class(victim_code)].get(at).iter().find_map(|&(src, code, caps, slot, d)| {
            (board[src as usize] == code && attrs[src as usize * n + slot as usize] == d && victim(victim_code, caps)).then_some(src)
        })
    }
}

impl Line {
    /// Whether a piece of `code` on `from`, `dist` cells away along this line with nothing
    /// between, captures `victim_code` on `at` by it.
    #[inline]
    fn hits(&self, g: &Geometry, code: PieceCode, dist: u32, victim_code: PieceCode, from: u16, at: u16) -> bool {
        self.code == code
            && dist <= self.max as u32
            && victim(victim_code, self.capture)
            && self.cond.start_ok(g, from)
            && self.cond.land_ok(g, from, at)
    }
}

impl Line {
    /// Whether every cell from `at` (included) back along `back` to the piece on `from` (not
    /// included) lies in the line's path zone: the cells a slide with `path` passes and lands
    /// on. Always true without a path zone.
    #[inline]
    fn path_clear(&self, g: &Geometry, back: u16, at: u16, from: u16) -> bool {
        if self.cond.path.is_empty() {
            return true;
        }
        let mut c = at;
        while c != from && c != NONE {
            if !self.cond.path_ok(g, c) {
                return false;
            }
            c = g.step(back, c);
        }
        true
    }
}

/// The owner of a code as an index into [`Attacks`]' tables: 0 or 1, and 2 for the empty code.
#[inline(always)]
fn owner_class(code: PieceCode) -> usize {
    if code.is_empty() { 2 } else { code.owner().index() }
}

/// Whether the ray along `v` from `at` may meet a cell of `cells` (true where the geometry
/// keeps no ray for it).
#[inline(always)]
fn may_meet(g: &Geometry, v: u16, at: u16, cells: u128) -> bool {
    cells == u128::MAX || g.ray(v, at).is_none_or(|(ray, _)| ray & cells != 0)
}

/// The first piece along `v` from `from` (not counting it), and how many cells away; `NONE` at
/// the edge.
#[inline]
fn first_piece(g: &Geometry, board: &[PieceCode], v: u16, from: u16) -> (u16, u32) {
    let mut c = g.step(v, from);
    let mut dist = 1u32;
    while c != NONE && board[c as usize].is_empty() {
        c = g.step(v, c);
        dist += 1;
    }
    (c, dist)
}
