//! Attacks run backwards: which piece could capture on a given cell, found by looking out from
//! that cell instead of generating the opponent's moves (the check test).
//!
//! At load, every capturing step and fixed-distance leap becomes an entry of the target cell
//! (source cell, piece code, what it may capture there), its zone conditions already applied;
//! every capturing slide becomes an entry of its reverse direction (code, range, what it may
//! capture, conditions). A query walks each reverse direction from the cell to the first piece
//! and looks it up, and reads the cell's fixed entries. Forms these tables cannot hold (capture
//! chains, leaps whose distance is an attribute, lame leaps, slides with path zones, screens or
//! that stop at the first empty cell, forms limited by a piece count) mark their piece code as `complex`: the
//! check test tries those pieces by generating their captures.

use super::movement::{Cond, Distance, Form, Hurdle, victim};
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

/// The compiled reverse attack tables of a ruleset.
#[derive(Clone, Debug)]
pub struct Attacks {
    /// Per target cell: (source cell, code, victims) of captures by a step or a fixed leap.
    points: CellTable<(u16, PieceCode, CodeSet)>,
    /// Per reverse direction (an interned vector): the sliders that capture coming the other way.
    lines: Vec<(u16, Vec<Line>)>,
    /// The codes some of whose captures these tables do not hold.
    pub complex: CodeSet,
}

impl Attacks {
    /// The tables for `pieces` (indexed by code) on `g` (reverse vectors are interned into it).
    pub fn build(g: &mut Geometry, pieces: &[PieceRules]) -> Attacks {
        let n = g.len();
        let mut points: Vec<Vec<(u16, PieceCode, CodeSet)>> = vec![Vec::new(); n];
        let mut lines: Vec<(u16, Vec<Line>)> = Vec::new();
        let mut complex: CodeSet = 0;
        for (ci, p) in pieces.iter().enumerate().skip(1) {
            let code = PieceCode::from_index(ci);
            if !p.jumps.is_empty() {
                complex |= 1 << ci;
            }
            for (form, &limit) in p.quiet.iter().zip(&p.limits) {
                if !form.captures() {
                    continue;
                }
                if limit != u16::MAX {
                    complex |= 1 << ci;
                    continue;
                }
                match form {
                    Form::Step { targets, capture, .. } => {
                        for from in 0..n as u16 {
                            for &to in targets.get(from) {
                                points[to as usize].push((from, code, *capture));
                            }
                        }
                    }
                    Form::Leap { vecs, distance: Distance::Fixed(d), capture, cond, lame: false, .. } if cond.same_zone.is_empty() => {
                        for from in 0..n as u16 {
                            if !cond.start_ok(g, from) {
                                continue;
                            }
                            let (f0, r0) = g.coords(crate::Cell(from));
                            for &(dx, dy) in vecs {
                                let to = g.at(f0 as i32 + dx as i32 * *d as i32, r0 as i32 + dy as i32 * *d as i32);
                                if let Some(to) = to.filter(|t| cond.land_ok(g, from, t.0)) {
                                    points[to.0 as usize].push((from, code, *capture));
                                }
                            }
                        }
                    }
                    Form::Slide { vecs, stop_first: false, max, capture, cond, hurdle: Hurdle::None, .. }
                        if cond.path.is_empty() && cond.same_zone.is_empty() =>
                    {
                        for &v in vecs {
                            let (dx, dy) = g.vector(v);
                            let back = g.intern_vector((-dx, -dy));
                            let line = Line { code, max: *max, capture: *capture, cond: cond.clone() };
                            match lines.iter_mut().find(|(b, _)| *b == back) {
                                Some((_, ls)) => ls.push(line),
                                None => lines.push((back, vec![line])),
                            }
                        }
                    }
                    _ => complex |= 1 << ci,
                }
            }
        }
        let points = CellTable::build(n, |c, out| out.extend_from_slice(&points[c as usize]));
        Attacks { points, lines, complex }
    }

    /// The cells of pieces that shield the piece `victim_code` on `at` from a slider: along a
    /// reverse direction, the first piece is of the victim's side and the next is a slider
    /// that would capture on `at` once the first has gone (a pin). A cell mask.
    pub fn pinned(&self, g: &Geometry, board: &[PieceCode], at: u16, victim_code: PieceCode) -> u128 {
        let mut pins = 0u128;
        for (back, ls) in &self.lines {
            let (shield, d1) = first_piece(g, board, *back, at);
            if shield == NONE || board[shield as usize].owner() != victim_code.owner() {
                continue;
            }
            let (c, d2) = first_piece(g, board, *back, shield);
            if c != NONE && ls.iter().any(|l| l.hits(g, board[c as usize], d1 + d2, victim_code, c, at)) {
                pins |= 1u128 << shield;
            }
        }
        pins
    }

    /// A cell from which a piece (of a code the tables hold) could capture the piece `victim` on
    /// `at`, if there is one: a step or leap landing there, or a slider with nothing between.
    pub fn attacker(&self, g: &Geometry, board: &[PieceCode], at: u16, victim_code: PieceCode) -> Option<u16> {
        for &(src, code, caps) in self.points.get(at) {
            if board[src as usize] == code && victim(victim_code, caps) {
                return Some(src);
            }
        }
        for (back, ls) in &self.lines {
            let (c, dist) = first_piece(g, board, *back, at);
            if c != NONE && ls.iter().any(|l| l.hits(g, board[c as usize], dist, victim_code, c, at)) {
                return Some(c);
            }
        }
        None
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
