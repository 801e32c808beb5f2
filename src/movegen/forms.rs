//! A movement form's moves on a board: the generation (and counting) of the moves the forms of
//! [`crate::rules::movement`] describe, kept beside the move type they build.

use crate::geometry::compass_index;
use crate::geometry::{Geometry, NONE, ZoneSet};
use crate::notation::Move;
use crate::piece::PieceCode;
use crate::rules::CodeSet;
use crate::rules::movement::{BoardView, Cond, Distance, Form, Hurdle, LeapEnd, OffBoard, before_first, victim};

impl Form {
    /// Appends to `out` the empty cells a piece on `from` can move to by this form on the board
    /// `b` (what a search over the pieces' movement needs, without building moves: steps and
    /// plain slides directly, other forms through `moves`, which is overwritten).
    #[inline]
    pub(crate) fn reach_on(&self, g: &Geometry, b: BoardView, from: u16, moves: &mut Vec<Move>, out: &mut Vec<u16>) {
        match self {
            Form::Step { targets, .. } => out.extend(targets.get(from).iter().copied().filter(|&to| b.board[to as usize].is_empty())),
            Form::Slide { vecs, pass_over: 0, stop_first: false, max, cond, hurdle: Hurdle::None | Hurdle::Screen, .. }
                if cond.path.is_empty() =>
            {
                // (A screen slide's quiet moves are a plain slide's.)
                if !cond.start_ok(g, from) {
                    return;
                }
                for &v in vecs {
                    let mut cur = from;
                    for _ in 0..*max {
                        cur = g.step(v, cur);
                        if cur == NONE || !b.board[cur as usize].is_empty() {
                            break;
                        }
                        if cond.land_ok(g, from, cur) {
                            out.push(cur);
                        }
                    }
                }
            }
            _ => {
                moves.clear();
                self.generate(g, b, from, ZoneSet::EMPTY, moves);
                out.extend(moves.iter().filter(|m| !m.is_capture()).filter_map(Move::to));
            }
        }
    }

    /// The captures among the moves [`Form::generate`] would append (a walk captures nothing).
    pub(crate) fn generate_captures(&self, g: &Geometry, b: BoardView, from: u16, out: &mut Vec<Move>) {
        if self.captures() {
            self.generate_into(g, b, from, &mut CapturesOnly(out));
        }
    }

    /// Appends the moves of the piece on `from` by this form. `avoid`: zones a walk does not
    /// pass through (where its piece would leave the game).
    pub(crate) fn generate(&self, g: &Geometry, b: BoardView, from: u16, avoid: ZoneSet, out: &mut Vec<Move>) {
        match self {
            Form::Walk { vecs, steps, cond } => {
                if cond.start_ok(g, from) {
                    let start = out.len();
                    walk(g, b.board, (from, avoid), from, vecs, *steps, cond, start, out);
                }
            }
            _ => self.generate_into(g, b, from, out),
        }
    }

    /// How many moves [`Form::generate`] would append, without listing them where the form
    /// allows (a walk, which compares its ends, is listed in `scratch`): what the evaluation's
    /// mobility asks.
    pub(crate) fn count(&self, g: &Geometry, b: BoardView, from: u16, avoid: ZoneSet, scratch: &mut Vec<Move>) -> usize {
        self.count_listless(g, b, from).unwrap_or_else(|| {
            scratch.clear();
            self.generate(g, b, from, avoid, scratch);
            scratch.len()
        })
    }

    /// [`Form::count`] where no list is needed: every form but a walk (`None`), which lists its
    /// landings to tell twice-reached cells apart.
    #[inline]
    pub(crate) fn count_listless(&self, g: &Geometry, b: BoardView, from: u16) -> Option<usize> {
        if matches!(self, Form::Walk { .. }) {
            return None;
        }
        if let Some((quiet, captures)) = self.count_on_rays(g, b, from) {
            return Some(quiet + captures);
        }
        let mut n = Count(0);
        self.generate_into(g, b, from, &mut n);
        Some(n.0)
    }

    /// [`Form::generate`] into any output (`false`: a walk, which only a list holds, was not
    /// generated).
    #[inline]
    pub(crate) fn generate_out<O: MoveOut>(&self, g: &Geometry, b: BoardView, from: u16, out: &mut O) -> bool {
        if matches!(self, Form::Walk { .. }) {
            return false;
        }
        self.generate_into(g, b, from, out);
        true
    }

    /// How many of the moves [`Form::generate`] would append do not capture, and how many do
    /// (`None`: a walk): a plain slide's on its rays, other forms' through [`Split`].
    #[inline]
    pub(crate) fn count_split(&self, g: &Geometry, b: BoardView, from: u16) -> Option<(usize, usize)> {
        if matches!(self, Form::Walk { .. }) {
            return None;
        }
        if let Some(n) = self.count_on_rays(g, b, from) {
            return Some(n);
        }
        let mut n = Split::default();
        self.generate_into(g, b, from, &mut n);
        Some((n.quiet, n.captures))
    }

    /// A slide's moves counted on its rays, apart (those that do not capture, those that do):
    /// a slide that stops at the first piece, capturing it if it may, with no zone condition
    /// but on its start (`None`: another form, or a vector without rays).
    #[inline(always)]
    fn count_on_rays(&self, g: &Geometry, b: BoardView, from: u16) -> Option<(usize, usize)> {
        let (vecs, max, capture, cond) = self.plain_slide()?;
        if !cond.is_plain() && !cond.start_ok(g, from) {
            return Some((0, 0));
        }
        count_slides(g, b, from, vecs, max, capture, cond.capture_only)
    }

    /// [`Form::generate`] for every form but a walk.
    #[inline(always)]
    fn generate_into<O: MoveOut>(&self, g: &Geometry, b: BoardView, from: u16, out: &mut O) {
        match self {
            Form::Walk { .. } => unreachable!("a walk is listed by generate"),
            Form::Step { targets, capture, quiet, en_passant } => {
                for &to in targets.get(from) {
                    let tc = b.board[to as usize];
                    if tc.is_empty() {
                        if *quiet {
                            out.push(Move::quiet(from, to));
                        } else if *en_passant && to == b.en_passant[0] && victim(b.board[b.en_passant[1] as usize], *capture) {
                            out.push(Move::capture_at(from, to, b.en_passant[1]));
                        }
                    } else if victim(tc, *capture) {
                        out.push(Move::replace(from, to));
                    }
                }
            }
            Form::Slide { vecs, pass_over, stop_first, max, capture, cond, hurdle, .. } => {
                if cond.start_ok(g, from) {
                    // (Without zones, no cell of the way need be asked about.)
                    let zoned = !cond.is_plain();
                    for &v in vecs {
                        slide(g, b.board, from, v, (*pass_over, *stop_first, *max, *hurdle), *capture, (cond, zoned), out);
                    }
                }
            }
            Form::Leap { vecs, distance, capture, off, off_per_direction, cond, lame, lame_path, rays } => {
                if !cond.start_ok(g, from) {
                    return;
                }
                let d = match distance {
                    Distance::Fixed(d) => *d as i32,
                    Distance::Attribute(s) => b.attrs[from as usize * b.nattr + *s as usize],
                };
                if d <= 0 {
                    return;
                }
                match rays.as_ref().map(|r| r.ends(from, d)) {
                    Some(ends) => out.leap_ends(b.board, from, ends, (*capture, *off_per_direction, cond.capture_only)),
                    None => {
                        let lame = if *lame_path {
                            Lame::Path
                        } else if *lame {
                            Lame::Leg
                        } else {
                            Lame::No
                        };
                        leap(g, b.board, from, d, vecs, (*capture, *off, *off_per_direction, lame), cond, out)
                    }
                }
            }
        }
    }
}

/// Where a form's moves go: a list, or only their number.
pub(crate) trait MoveOut {
    fn push(&mut self, m: Move);

    /// The moves of a leap to its `ends` from the load-time table ([`leap_ends`]); a [`Count`]
    /// counts them without a branch per landing.
    #[inline(always)]
    fn leap_ends(&mut self, board: &[PieceCode], from: u16, ends: &[LeapEnd], flags: (CodeSet, bool, bool))
    where
        Self: Sized,
    {
        leap_ends(board, from, ends, flags, self);
    }
}

impl MoveOut for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
}

/// The captures of a list, the other moves dropped as they come.
struct CapturesOnly<'a>(&'a mut Vec<Move>);

impl MoveOut for CapturesOnly<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        if m.is_capture() {
            self.0.push(m);
        }
    }
}

/// A count of moves (the moves themselves are dropped).
pub(crate) struct Count(pub(crate) usize);

impl MoveOut for Count {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    /// As [`leap_ends`] counts: a landing on an empty cell (unless the leap only captures) or
    /// on a victim (never an empty cell) is one move; leaving the board is one move per
    /// direction, or one in all.
    #[inline(always)]
    fn leap_ends(&mut self, board: &[PieceCode], _: u16, ends: &[LeapEnd], (capture, per_direction, capture_only): (CodeSet, bool, bool)) {
        let (mut n, mut off) = (0usize, false);
        for &e in ends {
            match e {
                LeapEnd::Land(to) => {
                    let tc = board[to as usize];
                    n += usize::from(tc.is_empty() & !capture_only) + usize::from(victim(tc, capture));
                }
                LeapEnd::Off(_) => {
                    n += usize::from(per_direction);
                    off = true;
                }
            }
        }
        self.0 += n + usize::from(off && !per_direction);
    }
}

/// Moves counted apart (the moves themselves dropped): those that capture and the others.
#[derive(Default)]
pub(crate) struct Split {
    pub(crate) quiet: usize,
    pub(crate) captures: usize,
}

impl MoveOut for Split {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        if m.is_capture() {
            self.captures += 1;
        } else {
            self.quiet += 1;
        }
    }
}

/// One slide direction: empty cells, then (after up to `pass_over` passed pieces) a capture.
#[allow(clippy::too_many_arguments)]
#[inline]
fn slide<O: MoveOut>(
    g: &Geometry,
    board: &[PieceCode],
    from: u16,
    v: u16,
    (pass_over, stop_first, max, hurdle): (u8, bool, u8, Hurdle),
    capture: CodeSet,
    (cond, zoned): (&Cond, bool),
    out: &mut O,
) {
    match hurdle {
        Hurdle::Hop => return hop(g, board, from, v, max, capture, cond, out),
        Hurdle::Screen => return screened(g, board, from, v, (max, false), capture, cond, out),
        Hurdle::ScreenAlways => return screened(g, board, from, v, (max, true), capture, cond, out),
        Hurdle::None => {}
    }
    let mut cur = from;
    let mut passed = 0u8;
    let mut dist = 0u8;
    loop {
        cur = g.step(v, cur);
        if cur == NONE {
            break;
        }
        dist += 1;
        if dist > max || (zoned && !cond.path_ok(g, cur)) {
            break;
        }
        let tc = board[cur as usize];
        if tc.is_empty() {
            if !cond.capture_only && (!zoned || cond.land_ok(g, from, cur)) {
                out.push(Move::quiet(from, cur));
                if stop_first {
                    break;
                }
            }
            continue;
        }
        if passed == 0 && victim(tc, capture) && (!zoned || cond.land_ok(g, from, cur)) {
            out.push(Move::replace(from, cur));
        }
        if pass_over == 255 || passed < pass_over {
            passed = passed.saturating_add(1);
        } else {
            break;
        }
    }
}

/// A hop along direction `v` (the grasshopper): over empty cells to the first piece, then onto
/// the cell just beyond it, empty or holding a victim.
#[allow(clippy::too_many_arguments)]
#[inline]
fn hop<O: MoveOut>(g: &Geometry, board: &[PieceCode], from: u16, v: u16, max: u8, capture: CodeSet, cond: &Cond, out: &mut O) {
    let mut cur = from;
    let mut dist = 0u8;
    loop {
        cur = g.step(v, cur);
        dist += 1;
        if cur == NONE || dist > max || !cond.path_ok(g, cur) {
            return;
        }
        if !board[cur as usize].is_empty() {
            break;
        }
    }
    cur = g.step(v, cur);
    dist += 1;
    if cur == NONE || dist > max || !cond.path_ok(g, cur) || !cond.land_ok(g, from, cur) {
        return;
    }
    let tc = board[cur as usize];
    if tc.is_empty() {
        if !cond.capture_only {
            out.push(Move::quiet(from, cur));
        }
    } else if victim(tc, capture) {
        out.push(Move::replace(from, cur));
    }
}

/// A slide along direction `v` with a screen (xiangqi's cannon): quiet moves up to the first
/// piece; past it, a capture of the next piece only. With `always` (janggi's cannon) the quiet
/// moves are the empty cells past the screen instead. A screen of a code in `cond.screen_not`
/// gives no move beyond it.
#[allow(clippy::too_many_arguments)]
#[inline]
fn screened<O: MoveOut>(
    g: &Geometry,
    board: &[PieceCode],
    from: u16,
    v: u16,
    (max, always): (u8, bool),
    capture: CodeSet,
    cond: &Cond,
    out: &mut O,
) {
    let mut cur = from;
    let mut dist = 0u8;
    let mut screen = false;
    loop {
        cur = g.step(v, cur);
        if cur == NONE {
            return;
        }
        dist += 1;
        if dist > max || !cond.path_ok(g, cur) {
            return;
        }
        let tc = board[cur as usize];
        if tc.is_empty() {
            if screen == always && !cond.capture_only && cond.land_ok(g, from, cur) {
                out.push(Move::quiet(from, cur));
            }
        } else if !screen {
            if cond.screen_not >> tc.index() & 1 != 0 {
                return;
            }
            screen = true;
        } else {
            if victim(tc, capture) && cond.land_ok(g, from, cur) {
                out.push(Move::replace(from, cur));
            }
            return;
        }
    }
}

/// The moves of a slide with no zone condition that stops at the first piece (capturing it
/// if it is a victim), counted on the rays: its empty cells before the first piece, up to
/// `max` cells out, and apart its captures (`None` where a vector has no rays).
#[inline]
fn count_slides(
    g: &Geometry,
    b: BoardView,
    from: u16,
    vecs: &[u16],
    max: u8,
    capture: CodeSet,
    capture_only: bool,
) -> Option<(usize, usize)> {
    let (mut quiet, mut captures) = (0, 0);
    for &v in vecs {
        let (ray, up) = g.ray(v, from)?;
        let (open, first) = before_first(ray, up, b.occupied);
        let empty = open.count_ones() as usize;
        if !capture_only {
            quiet += empty.min(max as usize);
        }
        if first != NONE && empty < max as usize && victim(b.board[first as usize], capture) {
            captures += 1;
        }
    }
    Some((quiet, captures))
}

/// What blocks a leap on its way.
#[derive(Clone, Copy, PartialEq)]
enum Lame {
    /// Nothing: it passes over anything.
    No,
    /// A piece one step short of the landing.
    Leg,
    /// A piece on any cell of its path ([`crate::rules::movement::lame_path`]).
    Path,
}

/// Leaps of exactly `d` cells in each direction, and leaving the board where allowed.
#[allow(clippy::too_many_arguments)]
#[inline]
fn leap<O: MoveOut>(
    g: &Geometry,
    board: &[PieceCode],
    from: u16,
    d: i32,
    vecs: &[(i8, i8)],
    (capture, off, per_direction, lame): (CodeSet, OffBoard, bool, Lame),
    cond: &Cond,
    out: &mut O,
) {
    let (f0, r0) = g.coords(crate::geometry::Cell(from));
    let mut off_done = false;
    for &(dx, dy) in vecs {
        let tf = f0 as i32 + dx as i32 * d;
        let tr = r0 as i32 + dy as i32 * d;
        if lame == Lame::Leg {
            // The cell one step short of the landing must be an empty cell.
            let leg = g.at(tf - (dx as i32).signum(), tr - (dy as i32).signum());
            if leg.is_none_or(|c| !board[c.0 as usize].is_empty()) {
                continue;
            }
        }
        if lame == Lame::Path
            && crate::rules::movement::lame_path(dx as i32 * d, dy as i32 * d)
                .any(|(x, y)| g.at(f0 as i32 + x, r0 as i32 + y).is_none_or(|c| !board[c.0 as usize].is_empty()))
        {
            continue;
        }
        if g.in_rect(tf, tr) {
            let Some(to) = g.at(tf, tr) else { continue };
            if !cond.land_ok(g, from, to.0) {
                continue;
            }
            let tc = board[to.0 as usize];
            if tc.is_empty() {
                if !cond.capture_only {
                    out.push(Move::quiet(from, to.0));
                }
            } else if victim(tc, capture) {
                out.push(Move::replace(from, to.0));
            }
            continue;
        }
        let allowed = match off {
            OffBoard::No => false,
            OffBoard::AnyDistance => true,
            OffBoard::OneBeyond => g.in_rect(tf - dx as i32, tr - dy as i32),
        };
        if !allowed {
            continue;
        }
        if per_direction {
            out.push(Move::off(from, compass_index((dx, dy))));
        } else if !off_done {
            off_done = true;
            out.push(Move::off(from, 255));
        }
    }
}

/// [`leap`]'s moves from its precomputed `ends`: the same moves in the same order.
#[inline]
fn leap_ends<O: MoveOut>(
    board: &[PieceCode],
    from: u16,
    ends: &[LeapEnd],
    (capture, per_direction, capture_only): (CodeSet, bool, bool),
    out: &mut O,
) {
    let mut off_done = false;
    for &e in ends {
        match e {
            LeapEnd::Land(to) => {
                let tc = board[to as usize];
                if tc.is_empty() {
                    if !capture_only {
                        out.push(Move::quiet(from, to));
                    }
                } else if victim(tc, capture) {
                    out.push(Move::replace(from, to));
                }
            }
            LeapEnd::Off(dir) => {
                if per_direction {
                    out.push(Move::off(from, dir));
                } else if !off_done {
                    off_done = true;
                    out.push(Move::off(from, 255));
                }
            }
        }
    }
}

/// The walk's remaining `left` steps from `at`: each step to an empty cell (`from`, the
/// walker's own cell, counts as empty; cells of the `avoid` zones are not passed through); a
/// landing other than `from` once per end cell.
#[allow(clippy::too_many_arguments)]
fn walk(
    g: &Geometry,
    board: &[PieceCode],
    (from, avoid): (u16, ZoneSet),
    at: u16,
    vecs: &[u16],
    left: u8,
    cond: &Cond,
    start: usize,
    out: &mut Vec<Move>,
) {
    for &v in vecs {
        let next = g.step(v, at);
        if next == NONE || (next != from && !board[next as usize].is_empty()) {
            continue;
        }
        if left > 1 {
            if !g.zones_of(next).meets(avoid) {
                walk(g, board, (from, avoid), next, vecs, left - 1, cond, start, out);
            }
        } else if next != from && cond.land_ok(g, from, next) {
            let m = Move::quiet(from, next);
            if !out[start..].contains(&m) {
                out.push(m);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Player;
    use crate::rules::movement::{Compiled, FormSpec, LeapRays, Shape, intern, named_dirs};

    /// A count of a leap's table ends is the length of their list, under every combination of
    /// the flags: ends on an empty cell, an own piece and a victim, and two that leave the board.
    #[test]
    fn a_count_of_leap_ends_is_the_length_of_their_list() {
        use crate::piece::KindId;
        let own = PieceCode::new(KindId(0), Player::FIRST);
        let foe = PieceCode::new(KindId(0), Player::SECOND);
        let board = [PieceCode::EMPTY, own, foe];
        let ends = [LeapEnd::Land(0), LeapEnd::Off(2), LeapEnd::Land(1), LeapEnd::Land(2), LeapEnd::Off(5)];
        let victims: CodeSet = 1 << foe.index();
        for capture in [0, victims] {
            for per_direction in [false, true] {
                for capture_only in [false, true] {
                    let flags = (capture, per_direction, capture_only);
                    let mut list = Vec::new();
                    leap_ends(&board, 3, &ends, flags, &mut list);
                    let mut n = Count(0);
                    n.leap_ends(&board, 3, &ends, flags);
                    assert_eq!(n.0, list.len(), "{flags:?}");
                }
            }
        }
        // The flags matter: the empty cell, the victim and each exit (4); capturing only, with no
        // victim, the two exits as one move (1).
        let mut n = Count(0);
        n.leap_ends(&board, 3, &ends, (victims, true, false));
        assert_eq!(n.0, 4);
        let mut n = Count(0);
        n.leap_ends(&board, 3, &ends, (0, false, true));
        assert_eq!(n.0, 1);
    }

    /// A slide over any piece that takes nothing, compiled as a step table, makes the moves
    /// of the slide itself in the same order: Bivouac's run, in every random position reached,
    /// from every cell of the board, against the slide's own generator.
    #[test]
    fn a_slide_over_any_piece_is_its_step_table() {
        let v = crate::variant::Variant::load("bivouac", &[]).unwrap();
        let mut g = v.rules.geometry.clone();
        let run = v.rules.zone_mask("run", Player::FIRST).unwrap();
        let cond = Cond { from: run, path: run, ..Cond::default() };
        let dirs = named_dirs("orthogonal", 1).unwrap();
        let shape = Shape::Slide { pass_over: 255, stop_first: false, max: u8::MAX, hurdle: Hurdle::None };
        let spec = FormSpec { shape, dirs, cond: cond.clone(), capture: 0, limit: u16::MAX, calm: false, note: String::new() };
        let Compiled::Quiet(step @ Form::Step { .. }) = spec.compile(&mut g) else { panic!("not compiled as a step") };
        let vecs = intern(&mut g, &spec.dirs);
        let slide =
            Form::Slide { vecs, pass_over: 255, stop_first: false, max: u8::MAX, capture: 0, cond, hurdle: Hurdle::None, land_cells: None };
        let (mut compared, mut moves) = (0, 0);
        v.random_positions(5, 4, 80, |pos, _| {
            for from in 0..g.len() as u16 {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                step.generate(&g, pos.view(), from, ZoneSet::EMPTY, &mut a);
                slide.generate(&g, pos.view(), from, ZoneSet::EMPTY, &mut b);
                assert_eq!(a, b, "from {} at {}", g.name(crate::geometry::Cell(from)), pos.to_text(&v.rules));
                compared += 1;
                moves += a.len();
            }
        });
        assert!(compared > 1000 && moves > 5000, "{compared} cells, {moves} moves");
    }

    /// A leap read from its table lists what the coordinates give: the same moves in the same
    /// order, over random games (Lielow's off-board settings, the chess family's leapers).
    #[test]
    fn leap_tables_agree_with_coordinates() {
        use rand::RngExt;
        let per = [("off_board".to_string(), "one_beyond".to_string()), ("off_board_moves".to_string(), "per_direction".to_string())];
        let (mut compared, mut tall) = (0, 0);
        for (name, set) in
            [("lielow", &[][..]), ("lielow", &per), ("lielow-ludii", &[]), ("xiangqi", &[]), ("chess", &[]), ("shatranj", &[])]
        {
            let v = crate::variant::Variant::load(name, set).unwrap();
            // Each leap with its table and without. A lame leap has no table: its leg is dropped
            // here, so that Xiangqi's elephant tests a table with a landing zone (`to = "own_side"`).
            let leaps: Vec<Vec<(Form, Form)>> = (v.rules.pieces.iter())
                .map(|pr| {
                    let leap = |f: &Form, table: bool| {
                        let mut f = f.clone();
                        if let Form::Leap { vecs, distance, off, cond, rays, lame, .. } = &mut f {
                            *lame = false;
                            *rays = if table { LeapRays::of(&v.rules.geometry, vecs, *distance, *off, cond) } else { None };
                        }
                        f
                    };
                    pr.quiet.iter().filter(|f| matches!(f, Form::Leap { .. })).map(|f| (leap(f, true), leap(f, false))).collect()
                })
                .collect();
            let mut rng = crate::ai::rng(9);
            let (mut moves, mut fast, mut slow) = (Vec::new(), Vec::new(), Vec::new());
            let mut pos = v.start();
            for ply in 1..1500 {
                if ply % 150 == 0 {
                    pos = v.start();
                }
                for from in 0..pos.board().len() as u16 {
                    let code = pos.board()[from as usize];
                    if code.is_empty() {
                        continue;
                    }
                    for (form, plain) in &leaps[code.index()] {
                        // Every fifth ply, stacks taller than play grows them (up to 20).
                        if let Form::Leap { distance: Distance::Attribute(s), .. } = form
                            && ply % 5 == 0
                        {
                            pos.set_attr(from, *s, rng.random_range(1..=20));
                        }
                        fast.clear();
                        slow.clear();
                        form.generate(&v.rules.geometry, pos.view(), from, ZoneSet::EMPTY, &mut fast);
                        plain.generate(&v.rules.geometry, pos.view(), from, ZoneSet::EMPTY, &mut slow);
                        assert_eq!(fast, slow, "{name} {set:?}: {from} at {}", pos.to_text(&v.rules));
                        compared += 1;
                        // Past the table's longest distance (its last row answers for it).
                        let g = &v.rules.geometry;
                        if let Form::Leap { distance: Distance::Attribute(s), .. } = form
                            && pos.attr(from, *s) > g.files.max(g.ranks) as i32 + 1
                        {
                            tall += 1;
                        }
                    }
                }
                v.legal_moves(&mut pos, &mut moves).unwrap();
                if moves.is_empty() {
                    pos = v.start();
                    continue;
                }
                v.make(&mut pos, &moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
        assert!(compared > 5000, "only {compared} leaps compared");
        assert!(tall > 100, "only {tall} leaps longer than the table");
    }
}
