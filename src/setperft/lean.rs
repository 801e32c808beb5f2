//! Perft on the cell sets for pieces that carry attribute values ([`crate::rules::MakePath::Lean`]): every
//! piece's moves are leaps read from their tables (a distance fixed or read from one of the
//! piece's attributes, landing on an empty cell or on a victim, or leaving the board), a move
//! applies the piece's attribute effects and updates the crown, and a game ends only when a
//! royal or crowned piece is taken or leaves the board, or a player has no move (Lielow).
//!
//! A node is one 64-cell set per piece code, every cell's attribute values (in a byte each:
//! the walk applies while no value can leave a byte's range within the depth), each player's
//! highest value of the crown's attribute ([`Top`]) and the side to move, copied to make a
//! move; the last level's moves are counted on the sets. No hash, history or log is kept: no
//! rule here reads them. The counts are the general perft's (a test
//! holds them equal from random positions under every option of the shipped games it applies
//! to).

use crate::interrupt::Interrupted;
use crate::piece::{PieceCode, Player};
use crate::rules::ends::EndKind;
use crate::rules::movement::{Distance, Form};
use crate::rules::{CodeSet, Crown, Effect, MAX_ATTRIBUTES, Ruleset};
use crate::state::{Position, Top, apply_effects, crown_move};

/// The most piece codes a node holds (the empty code's set among them, unused).
const CODES: usize = 8;
/// The most attribute values a node holds (cells × attributes).
const VALUES: usize = 128;
/// A move's landing when it leaves the board.
const OFF: u8 = u8::MAX;

#[derive(Clone, Copy)]
pub(super) struct Node {
    sets: [u64; CODES],
    vals: [i8; VALUES],
    top: [Top; 2],
    side: Player,
}

/// A move on the sets: the piece's code, its start, and its landing ([`OFF`]: it leaves the
/// board). What it takes is what stands on the landing.
#[derive(Clone, Copy)]
pub(super) struct LeanMove {
    code: u8,
    from: u8,
    to: u8,
}

/// One leap form of a piece code, as cell sets.
struct Leap {
    /// By `from × max + d − 1`: the cells a leap of `d` lands on, and its moves off the board.
    cells: Vec<(u64, u8)>,
    /// The longest distance tabled (a longer leap ends as it does).
    max: i32,
    distance: Distance,
    /// The form's piece-count limit (`u16::MAX`: none).
    limit: u16,
    /// Whether it lands on empty cells.
    quiet: bool,
    /// What it captures by landing.
    take: CodeSet,
}

/// The rules read once, at load, for perft on the sets of pieces with attributes (see the
/// module's text).
pub(crate) struct LeanPerft {
    ncodes: usize,
    cells: u64,
    nattr: usize,
    /// By code: its leaps, and its attribute effects.
    leaps: Vec<Vec<Leap>>,
    effects: Vec<Vec<Effect>>,
    /// The codes of royal kinds.
    royal: CodeSet,
    crown: Option<Crown>,
    /// Whether taking a royal piece, and moving one off the board, ends the game.
    royal_taken_ends: bool,
    royal_left_ends: bool,
    /// Whether some leap has a piece-count limit (then the mover's pieces are counted).
    limits: bool,
    move_limit: u32,
    /// The most a move's effects change a value by (a value set is within a byte).
    step: i64,
}

impl LeanPerft {
    /// Perft on the sets for `rules`, whose constructs the plan found fit for it
    /// ([`crate::plan::WalkKind::Lean`]), where the board, the codes, the attributes and the
    /// pieces' forms fit the tables.
    pub(crate) fn of(rules: &Ruleset) -> Option<LeanPerft> {
        let sw = rules.setwise.as_ref()?;
        let (ncodes, nattr) = (sw.codes.len(), rules.nattr());
        let fits = sw.cells >> 64 == 0
            && ncodes <= CODES
            && nattr <= 16
            && rules.geometry.len() * nattr <= VALUES
            && rules.crown.is_none_or(|c| (c.by as usize) < nattr && (c.marker as usize) < nattr);
        if !fits {
            return None;
        }
        let g = &rules.geometry;
        let mut leaps = vec![Vec::new()];
        for c in 1..ncodes {
            let pr = &rules.pieces[c];
            if !pr.jumps.is_empty() || pr.promote.is_some() {
                return None;
            }
            let steps = sw.codes[c].steps.as_ref()?;
            if !steps.quiet.is_empty() || !steps.take.is_empty() || !steps.masks.is_empty() || !steps.fixed() {
                return None;
            }
            let mut mine = Vec::new();
            for (form, &limit) in pr.quiet.iter().zip(&pr.limits) {
                let Form::Leap { distance, capture, off_per_direction, cond, lame: false, rays: Some(r), .. } = form else {
                    return None;
                };
                let (max, cells) = r.landing_sets(g, cond, *off_per_direction)?;
                let cells = cells.into_iter().map(|(s, off)| (s as u64, off)).collect();
                let take = *capture & ((1 << ncodes) - 1) & !1;
                mine.push(Leap { cells, max, distance: *distance, limit, quiet: !cond.capture_only, take });
            }
            leaps.push(mine);
        }
        let effects: Vec<Vec<Effect>> =
            (0..ncodes).map(|c| rules.pieces[c].effects.iter().filter(|e| (e.slot as usize) < nattr).cloned().collect()).collect();
        if effects.iter().flatten().any(|e| e.set.is_some_and(|v| i8::try_from(v).is_err())) {
            return None;
        }
        let step = effects.iter().flatten().filter(|e| e.set.is_none()).map(|e| (e.add as i64).abs()).max().unwrap_or(0);
        let royal = (1..ncodes).filter(|&c| rules.kind(PieceCode::from_index(c).kind()).royal).fold(0, |s, c| s | 1 << c);
        let has = |k: fn(&EndKind) -> bool| rules.ends.iter().any(|e| k(&e.kind));
        Some(LeanPerft {
            ncodes,
            cells: sw.cells as u64,
            nattr,
            limits: leaps.iter().flatten().any(|l| l.limit != u16::MAX),
            leaps,
            effects,
            royal,
            crown: rules.crown,
            royal_taken_ends: has(|k| matches!(k, EndKind::RoyalCaptured { .. })),
            royal_left_ends: has(|k| matches!(k, EndKind::RoyalLeftBoard)),
            move_limit: rules.move_limit,
            step,
        })
    }

    /// Whether perft from `pos` to `depth` may walk the sets (as [`super::SetPerft::applies`]),
    /// every attribute value staying within a byte's range however the moves change them.
    pub(crate) fn applies(&self, pos: &Position, depth: u32) -> bool {
        let cells = pos.board().len() as u16;
        let widest = (0..cells).flat_map(|c| (0..self.nattr).map(move |s| (c, s as u8))).map(|(c, s)| (pos.attr(c, s) as i64).abs()).max();
        pos.result().is_none()
            && pos.continuation().is_none()
            && pos.cells_by_code().len() == self.ncodes
            && (self.move_limit == 0 || pos.ply() as u64 + depth as u64 <= self.move_limit as u64)
            && widest.unwrap_or(0) + depth as i64 * self.step <= i8::MAX as i64
    }

    /// The number of move sequences `depth` long from `pos`; with `made`, every last move is
    /// made too (on the sets).
    ///
    /// # Errors
    /// Ctrl-C was pressed.
    pub(crate) fn perft(&self, pos: &Position, depth: u32, made: bool) -> Result<u64, Interrupted> {
        let mut node = Node { sets: [0; CODES], vals: [0; VALUES], top: [Top::UNKNOWN; 2], side: pos.side() };
        for (s, &c) in node.sets.iter_mut().zip(pos.cells_by_code()) {
            *s = c as u64;
        }
        for cell in 0..pos.board().len() as u16 {
            for slot in 0..self.nattr {
                // Within a byte: `applies` said so.
                node.vals[cell as usize * self.nattr + slot] = pos.attr(cell, slot as u8) as i8;
            }
        }
        let mut lists: Vec<Vec<LeanMove>> = (0..=depth).map(|_| Vec::with_capacity(64)).collect();
        super::perft_tree(self, &node, depth, made, &mut lists)
    }

    /// Makes `m` on `node`; whether the game goes on (it ends where a royal or crowned piece
    /// is taken or goes off the board). The general make's order: the victim taken, the piece lifted and landed
    /// with its effects applied, the crown updated.
    #[inline]
    fn play(&self, node: &mut Node, m: LeanMove) -> bool {
        let (n, code, from) = (self.nattr, m.code as usize, m.from as usize);
        let me = node.side;
        let by = self.crown.map(|c| c.by as usize);
        let marker = self.crown.map_or(0, |c| c.marker as usize);
        let mut vals = [0i32; MAX_ATTRIBUTES];
        for (v, &x) in vals[..n].iter_mut().zip(&node.vals[from * n..from * n + n]) {
            *v = x as i32;
        }
        node.sets[code] &= !(1 << from);
        node.vals[from * n..from * n + n].fill(0);
        let (mut over, mut captured) = (false, 0);
        if m.to == OFF {
            over = self.royal_left_ends && self.is_royal(code, vals[marker]);
            if let Some(by) = by {
                node.top[me.index()].removed(vals[by]);
            }
        } else {
            let to = m.to as usize;
            let bit = 1u64 << to;
            for c in 1..self.ncodes {
                if node.sets[c] & bit != 0 {
                    captured = 1;
                    over |= self.royal_taken_ends && self.is_royal(c, node.vals[to * n + marker] as i32);
                    if let Some(by) = by {
                        node.top[PieceCode::from_index(c).owner().index()].removed(node.vals[to * n + by] as i32);
                    }
                    node.sets[c] &= !bit;
                }
            }
            let before = by.map(|by| vals[by]);
            apply_effects(&self.effects[code], n, &mut vals, captured);
            if let (Some(by), Some(a)) = (by, before) {
                node.top[me.index()].moved(a, vals[by], to as u16);
            }
            node.sets[code] |= bit;
            for (x, &v) in node.vals[to * n..to * n + n].iter_mut().zip(&vals[..n]) {
                *x = v as i8;
            }
        }
        if let Some(c) = self.crown {
            self.update_crown(node, c, me);
            if c.both && captured > 0 {
                self.update_crown(node, c, me.other());
            }
        }
        node.side = me.other();
        !over
    }

    /// Whether a piece of code `c` is royal: of a royal kind, or crowned (`marked`: its value
    /// of the crown's marker).
    #[inline]
    fn is_royal(&self, c: usize, marked: i32) -> bool {
        self.royal >> c & 1 != 0 || (self.crown.is_some() && marked != 0)
    }

    /// `p`'s cells.
    #[inline]
    fn cells_of(&self, node: &Node, p: Player) -> u64 {
        (1 + p.index()..self.ncodes).step_by(2).fold(0, |s, c| s | node.sets[c])
    }

    /// The kernel's crown update on the node: `p`'s piece with the unique highest value of the
    /// crown's attribute takes the crown (from the last piece in cell order holding it); a tie
    /// or no piece leaves it where it is.
    fn update_crown(&self, node: &mut Node, c: Crown, p: Player) {
        let (n, by, marker) = (self.nattr, c.by as usize, c.marker as usize);
        let mine = self.cells_of(node, p);
        let vals = &node.vals;
        let mut top = node.top[p.index()];
        if top.count == 0 {
            top = Top::of(cells(mine).map(|cell| (cell, vals[cell as usize * n + by] as i32)));
        }
        let moved = crown_move(top, cells(mine), |cell| vals[cell as usize * n + marker] != 0);
        node.top[p.index()] = top;
        if let Some((holder, at)) = moved {
            if let Some(h) = holder {
                node.vals[h as usize * n + marker] = 0;
            }
            node.vals[at as usize * n + marker] = 1;
        }
    }

    /// The legal moves of `node` counted, and listed into `out` where it is given.
    fn moves(&self, node: &Node, mut out: Option<&mut Vec<LeanMove>>) -> u64 {
        let me = node.side;
        let all = node.sets[1..self.ncodes].iter().fold(0, |s, &x| s | x);
        let empty = self.cells & !all;
        let own = if self.limits { self.cells_of(node, me).count_ones() } else { 0 };
        let mut n = 0;
        let mut c = 1 + me.index();
        while c < self.ncodes {
            let mine = node.sets[c];
            for l in self.leaps[c].iter().filter(|l| mine != 0 && (l.limit == u16::MAX || own <= l.limit as u32)) {
                let victims = (1..self.ncodes).filter(|&v| l.take >> v & 1 != 0).fold(0, |s, v| s | node.sets[v]);
                let land = victims | if l.quiet { empty } else { 0 };
                let mut bits = mine;
                while bits != 0 {
                    let from = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let d = match l.distance {
                        Distance::Fixed(d) => d as i32,
                        Distance::Attribute(s) => node.vals[from * self.nattr + s as usize] as i32,
                    };
                    if d <= 0 {
                        continue;
                    }
                    let (cells, off) = l.cells[from * l.max as usize + d.min(l.max) as usize - 1];
                    let mut to = cells & land;
                    n += to.count_ones() as u64 + off as u64;
                    let Some(out) = out.as_deref_mut() else { continue };
                    while to != 0 {
                        out.push(LeanMove { code: c as u8, from: from as u8, to: to.trailing_zeros() as u8 });
                        to &= to - 1;
                    }
                    for _ in 0..off {
                        out.push(LeanMove { code: c as u8, from: from as u8, to: OFF });
                    }
                }
            }
            c += 2;
        }
        n
    }
}

impl super::Tree for LeanPerft {
    type Node = Node;
    type Move = LeanMove;

    #[inline]
    fn walk(&self, node: &Node, out: Option<&mut Vec<LeanMove>>) -> u64 {
        self.moves(node, out)
    }

    #[inline]
    fn make(&self, node: &mut Node, m: LeanMove) -> bool {
        self.play(node, m)
    }
}

/// The cells of `set`, lowest first.
fn cells(mut set: u64) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as u16;
            set &= set - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use crate::perft::perft_general;
    use crate::variant::Variant;

    /// From random positions (crowns moving, kings taken and leaving the board, tall stacks),
    /// perft on the sets to depth 3, counted and with every leaf made, is the general kernel's:
    /// Lielow under each of its options and all of them together, and Lielow as Ludii reads it.
    #[test]
    fn the_lean_walk_counts_what_the_general_kernel_counts() {
        let set = |pairs: &[(&str, &str)]| pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let all = [("off_board", "one_beyond"), ("off_board_moves", "per_direction"), ("crown_update", "mover")];
        let cases = [
            ("lielow", set(&[])),
            ("lielow", set(&all[..1])),
            ("lielow", set(&all[1..2])),
            ("lielow", set(&all[2..])),
            ("lielow", set(&all)),
            ("lielow-ludii", set(&[])),
        ];
        for (name, options) in &cases {
            let v = Variant::load(name, options).unwrap();
            let mut positions = 0;
            v.random_positions(5, 30, 150, |pos, _| {
                let Some(sets) = v.set_perft(pos, 3) else { return };
                assert!(matches!(sets, crate::setperft::SetWalk::Lean(_)), "{name} {options:?} walks the leaps");
                let at = pos.to_text(&v.rules);
                for depth in 1..=3 {
                    let general = perft_general(&v, &mut pos.clone(), depth, false).unwrap();
                    assert_eq!(sets.perft(pos, depth, false).unwrap(), general, "{name} {options:?} perft {depth} at {at}");
                    assert_eq!(sets.perft(pos, depth, true).unwrap(), general, "{name} {options:?} perft {depth} made at {at}");
                }
                positions += 1;
            });
            assert!(positions > 300, "{name} {options:?}: only {positions} positions");
        }
    }

    /// A crown that moves because a rival left the board: White's crowned a1 (level 1) is not
    /// the highest, d4 and h2 (level 3) tie for it; h2 leaving makes d4 the unique highest and
    /// so the king, which Black's d7 then takes (the game ends there, so the depth-5 count
    /// misses White's replies). To depth 5, so that the walk knows White's highest before h2
    /// leaves (a1 moves first).
    #[test]
    fn a_rival_leaving_the_board_passes_the_crown() {
        let v = Variant::load("lielow", &[]).unwrap();
        let pos = crate::state::Position::from_text(&v.rules, "p[1,1]7/3p[0,3]4/8/8/3P[0,3]4/8/7P[0,3]/P[1,1]7 white 10").unwrap();
        let sets = v.set_perft(&pos, 5).expect("the leaps walk applies");
        for depth in 1..=5 {
            let general = perft_general(&v, &mut pos.clone(), depth, false).unwrap();
            assert_eq!(sets.perft(&pos, depth, false).unwrap(), general, "perft {depth}");
            assert_eq!(sets.perft(&pos, depth, true).unwrap(), general, "perft {depth} made");
        }
        let mut after = pos.clone();
        let m = v.find_move(&mut after, "h2-off").unwrap();
        v.make(&mut after, &m).unwrap();
        assert!(after.to_text(&v.rules).contains("3P[1,3]4"), "d4 is crowned: {}", after.to_text(&v.rules));
    }
}
