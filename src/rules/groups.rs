//! Groups and liberties: capture by liberties (`liberties = { … }` on a piece kind, Go's
//! capture), the refusal of a suicide, and the count of empty regions that one player's pieces
//! alone border (`[rules] points_territory`, area scoring). A group is a player's pieces joined
//! along declared directions; its liberties are the empty cells next to it. Every walk is a
//! flood fill over per-cell neighbour lists with a bit per cell and a stack of cells held on
//! the machine stack (boards of up to [`MAX_CELLS`] cells; nothing is allocated), so it serves
//! 19 × 19 as well as boards that fit a cell set.

use crate::geometry::{Cell, Geometry, NONE};
use crate::piece::{ByPlayer, PieceCode, Player};

/// The largest board a group walk handles (a load error beyond: see the validator).
pub(crate) const MAX_CELLS: usize = 512;

/// Per cell, its neighbours along a list of directions (`NONE` off the board or on a hole).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Neighbours {
    adj: Vec<u16>,
    stride: usize,
}

impl Neighbours {
    /// The neighbour table of `dirs` on `g`.
    pub(crate) fn new(g: &Geometry, dirs: &[(i8, i8)]) -> Neighbours {
        let mut adj = Vec::with_capacity(g.len() * dirs.len());
        for c in 0..g.len() as u16 {
            adj.extend(dirs.iter().map(|&d| g.offset(Cell(c), d)));
        }
        Neighbours { adj, stride: dirs.len() }
    }

    /// The neighbours of `c` (some may be `NONE`).
    #[inline(always)]
    pub(crate) fn of(&self, c: u16) -> &[u16] {
        let s = c as usize * self.stride;
        &self.adj[s..s + self.stride]
    }
}

/// `liberties = { … }` on a piece kind, compiled: when a piece of the kind lands, each enemy
/// group next to it left without a liberty is taken; then, where its own group has none, the
/// move was a suicide (refused by move generation, or with `suicide` that group is taken).
#[derive(Clone, Debug)]
pub(crate) struct Liberties {
    /// What joins pieces into groups, and where their liberties are.
    pub(crate) n: Neighbours,
    /// `suicide = "allowed"`: a landing that leaves its own group without a liberty is legal,
    /// and takes that group.
    pub(crate) suicide: bool,
}

/// `[rules] ko`: which earlier positions a move may not bring back. A position is compared by
/// its repetition key (placement, attribute values, counters), with or without the player to
/// move; a pass is never refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Ko {
    #[default]
    None,
    /// Not the position before the opponent's last move (the board just before it, the same
    /// player to move): the immediate recapture of a ko.
    Simple,
    /// Not any earlier position, whoever was to move then (positional superko).
    Positional,
    /// Not any earlier position with the same player to move (situational superko).
    Situational,
}

/// The Go family's keys beside the pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoKeys {
    /// `[rules] ko`: which earlier positions a move may not bring back.
    pub(crate) ko: Ko,
    /// `[ai] random`: what random players and playouts leave out while another move is left.
    pub(crate) random: RandomPolicy,
    /// `[board] draw = "intersections"`: diagrams draw cells as the crossings of lines.
    pub(crate) intersections: bool,
}

/// `[ai] random`: the moves random players and playouts leave out while another is left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RandomPolicy {
    /// `pass = "last"`: a pass only when no other move is left.
    pub(crate) pass_last: bool,
    /// `own_eyes = false`: no drop of a kind with `liberties` on a one-cell eye of the player's.
    pub(crate) no_own_eyes: bool,
}

/// A bit per cell: the cells a walk has reached.
struct Seen([u64; MAX_CELLS / 64]);

impl Seen {
    #[inline(always)]
    fn new() -> Seen {
        Seen([0; MAX_CELLS / 64])
    }

    /// Marks `c`; whether it was new.
    #[inline(always)]
    fn insert(&mut self, c: u16) -> bool {
        let (w, b) = (c as usize >> 6, c & 63);
        let new = self.0[w] >> b & 1 == 0;
        self.0[w] |= 1 << b;
        new
    }
}

/// Walks the group of the piece on `start` (its owner's pieces joined to it), calling `visit`
/// on each of its cells and `empty` on each empty neighbour (once per edge, not per cell); a
/// `true` from `empty` stops the walk and is returned.
#[inline]
fn walk(n: &Neighbours, board: &[PieceCode], start: u16, mut visit: impl FnMut(u16), mut empty: impl FnMut(u16) -> bool) -> bool {
    let owner = board[start as usize].owner();
    let mut seen = Seen::new();
    let mut stack = [0u16; MAX_CELLS];
    seen.insert(start);
    stack[0] = start;
    let mut len = 1;
    while len > 0 {
        len -= 1;
        let c = stack[len];
        visit(c);
        for &x in n.of(c) {
            if x == NONE {
                continue;
            }
            let code = board[x as usize];
            if code.is_empty() {
                if empty(x) {
                    return true;
                }
            } else if code.is_of(owner) && seen.insert(x) {
                stack[len] = x;
                len += 1;
            }
        }
    }
    false
}

/// Whether the group of the piece on `start` has a liberty other than `filled` (a cell about
/// to be filled; `NONE` for none).
#[inline]
pub(crate) fn has_liberty(n: &Neighbours, board: &[PieceCode], start: u16, filled: u16) -> bool {
    // Most stones have an empty point beside them: no walk then.
    n.of(start).iter().any(|&x| x != NONE && x != filled && board[x as usize].is_empty()) || walk(n, board, start, |_| {}, |x| x != filled)
}

/// Appends the cells of the group of the piece on `start` to `out`.
pub(crate) fn group(n: &Neighbours, board: &[PieceCode], start: u16, out: &mut Vec<u16>) {
    walk(n, board, start, |c| out.push(c), |_| false);
}

/// What `p`'s piece placed on the empty cell `at` would do: the first neighbour of each enemy
/// group it leaves without a liberty (the groups it takes), and whether its own group would
/// then have a liberty (false: a suicide).
pub(crate) struct Placement {
    pub(crate) takes: smallvec::SmallVec<[u16; 4]>,
    pub(crate) breathes: bool,
}

/// [`Placement`] of `p`'s piece on the empty cell `at`, read from the board before it lands.
pub(crate) fn placement(n: &Neighbours, board: &[PieceCode], at: u16, p: Player) -> Placement {
    let mut out = Placement { takes: smallvec::SmallVec::new(), breathes: false };
    for &x in n.of(at) {
        if x == NONE {
            continue;
        }
        let code = board[x as usize];
        if code.is_empty() {
            out.breathes = true;
        } else if !code.is_of(p) && !has_liberty(n, board, x, at) && !out.takes.iter().any(|&t| same_group(n, board, t, x)) {
            out.takes.push(x);
        }
    }
    out.breathes |= !out.takes.is_empty();
    // Else it breathes through a group of its own that keeps another liberty.
    if !out.breathes {
        out.breathes = n.of(at).iter().any(|&x| x != NONE && board[x as usize].is_of(p) && has_liberty(n, board, x, at));
    }
    out
}

/// Whether `a` and `b` hold pieces of one group.
fn same_group(n: &Neighbours, board: &[PieceCode], a: u16, b: u16) -> bool {
    let mut found = false;
    walk(n, board, a, |c| found |= c == b, |_| false);
    found
}

/// Whether `p`'s piece placed on the empty cell `at` is legal under the liberty rule: it keeps
/// a liberty or takes an enemy group (`suicide`: a move that does neither is legal too). The
/// cheap test first: an empty neighbour.
#[inline]
pub(crate) fn placement_legal(n: &Neighbours, board: &[PieceCode], at: u16, p: Player, suicide: bool) -> bool {
    suicide || n.of(at).iter().any(|&x| x != NONE && board[x as usize].is_empty()) || placement(n, board, at, p).breathes
}

/// Per player, its pieces on `board`.
pub(crate) fn pieces(board: &[PieceCode]) -> ByPlayer<u32> {
    let mut n = ByPlayer::new(0u32, 0u32);
    for c in board.iter().filter(|c| !c.is_empty()) {
        n[c.owner()] += 1;
    }
    n
}

/// Per cell: for an empty cell, the players whose pieces border its region (the empty cells
/// joined to it along the directions), a bit per player (1 the first, 2 the second); 0 for
/// an occupied cell or a region no piece borders.
fn region_borders(n: &Neighbours, board: &[PieceCode], out: &mut [u8; MAX_CELLS]) {
    let mut seen = Seen::new();
    let (mut stack, mut members) = ([0u16; MAX_CELLS], [0u16; MAX_CELLS]);
    out[..board.len()].fill(0);
    for (c, &code) in board.iter().enumerate() {
        if !code.is_empty() || !seen.insert(c as u16) {
            continue;
        }
        let (mut size, mut borders, mut len) = (0, 0u8, 1);
        stack[0] = c as u16;
        while len > 0 {
            len -= 1;
            let at = stack[len];
            members[size] = at;
            size += 1;
            for &x in n.of(at) {
                if x == NONE {
                    continue;
                }
                let code = board[x as usize];
                if !code.is_empty() {
                    borders |= 1 << code.owner().index();
                } else if seen.insert(x) {
                    stack[len] = x;
                    len += 1;
                }
            }
        }
        for &m in &members[..size] {
            out[m as usize] = borders;
        }
    }
}

/// Per player, its pieces plus the empty cells of the regions (empty cells joined along the
/// directions) that only its pieces border: the area count. A region that touches both
/// players' pieces, or none, counts for neither.
pub(crate) fn area(n: &Neighbours, board: &[PieceCode]) -> ByPlayer<u32> {
    let mut borders = [0u8; MAX_CELLS];
    region_borders(n, board, &mut borders);
    let mut total = pieces(board);
    for (c, &code) in board.iter().enumerate() {
        match borders[c] {
            1 if code.is_empty() => total[Player::FIRST] += 1,
            2 if code.is_empty() => total[Player::SECOND] += 1,
            _ => {}
        }
    }
    total
}

/// Per player, an estimate of the empty cells it would count at the end: those of the regions
/// only its pieces border ([`area`]), and in the regions both border, the cells next to its
/// pieces and not to the opponent's (the evaluation's territory under area scoring).
pub(crate) fn territory_estimate(n: &Neighbours, board: &[PieceCode]) -> ByPlayer<u32> {
    let mut borders = [0u8; MAX_CELLS];
    region_borders(n, board, &mut borders);
    let mut won = ByPlayer::new(0u32, 0u32);
    for (c, &code) in board.iter().enumerate() {
        if !code.is_empty() {
            continue;
        }
        let near = match borders[c] {
            3 => n
                .of(c as u16)
                .iter()
                .filter(|&&x| x != NONE && !board[x as usize].is_empty())
                .fold(0u8, |m, &x| m | 1 << board[x as usize].owner().index()),
            b => b,
        };
        match near {
            1 => won[Player::FIRST] += 1,
            2 => won[Player::SECOND] += 1,
            _ => {}
        }
    }
    won
}

/// Whether the empty cell `at` is a one-cell eye of `p`: every neighbour along the directions
/// holds one of `p`'s pieces (an edge or a hole counts as one).
#[inline]
pub(crate) fn own_eye(n: &Neighbours, board: &[PieceCode], at: u16, p: Player) -> bool {
    n.of(at).iter().all(|&x| x == NONE || board[x as usize].is_of(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::piece::KindId;

    /// A 5 × 5 board from rows (top rank first): `X` first player, `O` second, `.` empty.
    fn board(rows: &str) -> (Neighbours, Vec<PieceCode>, Geometry) {
        let g = Geometry::new(5, 5, |_, _| true);
        let n = Neighbours::new(&g, &[(0, 1), (1, 0), (0, -1), (-1, 0)]);
        let mut b = vec![PieceCode::EMPTY; 25];
        for (r, line) in rows.lines().enumerate() {
            for (f, ch) in line.chars().enumerate() {
                let p = match ch {
                    'X' => Player::FIRST,
                    'O' => Player::SECOND,
                    _ => continue,
                };
                b[g.at(f as i32, 4 - r as i32).unwrap().0 as usize] = PieceCode::new(KindId(0), p);
            }
        }
        (n, b, g)
    }

    fn cell(g: &Geometry, name: &str) -> u16 {
        g.parse_cell(name).unwrap().0
    }

    #[test]
    fn a_group_without_a_liberty_is_taken_and_a_suicide_is_seen() {
        let (n, b, g) = board(".....\n.....\n.....\nOX...\n.O...");
        // X on b2 has liberties c2 and b3; O on a1 filling... a2 is O, b1 is O.
        let a1 = cell(&g, "a1");
        let pl = placement(&n, &b, a1, Player::FIRST);
        assert!(!pl.breathes && pl.takes.is_empty(), "a1 for X: no liberty, takes nothing");
        assert!(!placement_legal(&n, &b, a1, Player::FIRST, false));
        assert!(placement_legal(&n, &b, a1, Player::FIRST, true));
        // O on a1 joins a2 and b1, which keep liberties (a3, c1).
        assert!(placement_legal(&n, &b, a1, Player::SECOND, false));
        // X takes a2 by playing a3 (a2's last liberty besides a1, which is empty: not yet).
        assert!(placement(&n, &b, cell(&g, "a3"), Player::FIRST).takes.is_empty());
    }

    #[test]
    fn a_capture_makes_a_move_without_liberties_legal() {
        let (n, b, g) = board(".....\n.....\nX....\nOX...\n.O...");
        // X on a1 takes O's a2 (its liberties: a1 only, once a1 is filled) though a1 has no
        // empty neighbour.
        let pl = placement(&n, &b, cell(&g, "a1"), Player::FIRST);
        assert_eq!(pl.takes.as_slice(), &[cell(&g, "a2")]);
        assert!(pl.breathes);
    }

    #[test]
    fn area_counts_stones_and_regions_one_player_borders() {
        let (n, b, _) = board(".X.O.\nXX.OO\n.....\n.....\n.....");
        let a = area(&n, &b);
        // X: 3 stones + a5 (bordered by X only); O: 3 stones + e5; the rest touches both.
        assert_eq!((a[Player::FIRST], a[Player::SECOND]), (4, 4));
    }

    #[test]
    fn an_eye_is_an_empty_point_among_own_pieces() {
        let (n, b, g) = board(".X...\nX....\n.....\n.....\n.....");
        assert!(own_eye(&n, &b, cell(&g, "a5"), Player::FIRST));
        assert!(!own_eye(&n, &b, cell(&g, "a5"), Player::SECOND));
        assert!(!own_eye(&n, &b, cell(&g, "c3"), Player::FIRST));
    }
}
