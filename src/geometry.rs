//! Cells, coordinates, directions, neighbour tables and zones.
//!
//! A board is a rectangle of `files × ranks` grid points of which some exist as cells. Cells are
//! numbered densely (rank by rank from `a1`) so that per-cell tables are plain arrays. Every
//! direction vector a ruleset uses is interned once, and its neighbour table (`vector × cell →
//! cell`) is computed at load, so move generation never computes coordinates.

use crate::cellset::CellSet;
use std::fmt;

/// A cell index into the board's dense numbering.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

/// "No cell": off the board or a hole.
pub(crate) const NONE: u16 = u16::MAX;

/// The eight compass directions, as (file delta, rank delta), in the order of their names.
pub(crate) const COMPASS: [(&str, (i8, i8)); 8] =
    [("n", (0, 1)), ("ne", (1, 1)), ("e", (1, 0)), ("se", (1, -1)), ("s", (0, -1)), ("sw", (-1, -1)), ("w", (-1, 0)), ("nw", (-1, 1))];

// ---- Hexagonal boards (issue 51, part 2) ----

/// The six directions of a hex board, as (file delta, rank delta) on its grid: a hex board is
/// the grid of a rhombus whose rank `r` is drawn shifted right by half a cell per rank above
/// rank 1, so that `(0, 1)` is up and to the right. Counter-clockwise from east.
pub(crate) const HEX_COMPASS: [(&str, (i8, i8)); 6] =
    [("e", (1, 0)), ("ne", (0, 1)), ("nw", (-1, 1)), ("w", (-1, 0)), ("sw", (0, -1)), ("se", (1, -1))];

/// The six diagonals of a hex board (each between two of [`HEX_COMPASS`], two cells' width
/// away: Gliński's bishop), counter-clockwise from east-north-east.
pub(crate) const HEX_DIAGONALS: [(i8, i8); 6] = [(1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2), (2, -1)];

/// The vector of a compass name on a square (`hex` false) or hex board.
pub(crate) fn compass_vector_on(name: &str, hex: bool) -> Option<(i8, i8)> {
    if hex { HEX_COMPASS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d) } else { compass_vector(name) }
}

// ---- end of hexagonal boards ----

/// The compass index of a unit vector (its place in [`COMPASS`]), or 255.
pub(crate) fn compass_index(v: (i8, i8)) -> u8 {
    COMPASS.iter().position(|(_, d)| *d == v).map_or(255, |i| i as u8)
}

/// The vector of a compass name.
pub(crate) fn compass_vector(name: &str) -> Option<(i8, i8)> {
    COMPASS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// The letters of a file index (0 → `a`).
pub(crate) fn file_letter(file: u8) -> char {
    (b'a' + file) as char
}

/// A set of zones (at most 64), as the zones a cell belongs to or the zones a condition names.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ZoneSet(u64);

impl ZoneSet {
    /// No zone (a condition that does not constrain).
    pub(crate) const EMPTY: ZoneSet = ZoneSet(0);
    /// The built-in zone `board`: every cell of every board holds it (the last of the 64 bits;
    /// a variant's own zones take the others).
    pub(crate) const BOARD: ZoneSet = ZoneSet(1 << 63);

    /// The set of one zone, by id.
    pub(crate) const fn one(id: u8) -> ZoneSet {
        ZoneSet(1 << id)
    }

    #[inline(always)]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the sets share a zone.
    #[inline(always)]
    pub(crate) fn meets(self, other: ZoneSet) -> bool {
        self.0 & other.0 != 0
    }
}

impl std::ops::BitOr for ZoneSet {
    type Output = ZoneSet;
    #[inline(always)]
    fn bitor(self, o: ZoneSet) -> ZoneSet {
        ZoneSet(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for ZoneSet {
    #[inline(always)]
    fn bitor_assign(&mut self, o: ZoneSet) {
        self.0 |= o.0;
    }
}

impl std::ops::BitAnd for ZoneSet {
    type Output = ZoneSet;
    #[inline(always)]
    fn bitand(self, o: ZoneSet) -> ZoneSet {
        ZoneSet(self.0 & o.0)
    }
}

/// Board geometry: which grid points exist, their names, and neighbour tables.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub(crate) files: u8,
    pub(crate) ranks: u8,
    /// `file + rank * files` → cell, or [`NONE`].
    grid: Vec<u16>,
    /// cell → (file, rank), both from 0.
    coords: Vec<(u8, u8)>,
    names: Vec<String>,
    /// Interned direction vectors.
    vectors: Vec<(i8, i8)>,
    /// `vector * cells + cell` → neighbour cell or [`NONE`].
    nbr: Vec<u16>,
    /// `vector * cells + cell` → the cells reached by repeating the vector from the cell (not
    /// the cell itself), on boards of at most 128 cells (else empty).
    rays: Vec<u128>,
    /// Per vector: whether each step along it goes to a higher cell index (`Some(true)`), a lower
    /// one (`Some(false)`), or either (`None`: its rays are not used). The nearest piece on a ray
    /// is then its lowest (or highest) occupied cell.
    ray_up: Vec<Option<bool>>,
    /// cell → bit set of the zones it belongs to.
    zone_bits: Vec<ZoneSet>,
    zone_names: Vec<String>,
    /// A hex board (`[board] geometry = "hex"`): six neighbours per cell ([`HEX_COMPASS`]),
    /// drawn as hexagons.
    pub(crate) hex: bool,
}

impl Geometry {
    /// A geometry with the given existing grid points (`exists(file, rank)`).
    pub(crate) fn new(files: u8, ranks: u8, exists: impl Fn(u8, u8) -> bool) -> Geometry {
        let mut grid = vec![NONE; files as usize * ranks as usize];
        let mut coords = Vec::new();
        let mut names = Vec::new();
        for r in 0..ranks {
            for f in 0..files {
                if exists(f, r) {
                    grid[f as usize + r as usize * files as usize] = coords.len() as u16;
                    coords.push((f, r));
                    names.push(format!("{}{}", file_letter(f), r + 1));
                }
            }
        }
        let n = coords.len();
        Geometry {
            files,
            ranks,
            grid,
            coords,
            names,
            vectors: Vec::new(),
            nbr: Vec::new(),
            rays: Vec::new(),
            ray_up: Vec::new(),
            zone_bits: vec![ZoneSet::BOARD; n],
            zone_names: Vec::new(),
            hex: false,
        }
    }

    /// The number of existing cells.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.coords.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// All cells in index order (`a1`, `b1`, …, then the next rank).
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.coords.len() as u16).map(Cell)
    }

    /// The cell at a grid point, if it exists (coordinates may be out of range).
    #[inline]
    pub(crate) fn at(&self, file: i32, rank: i32) -> Option<Cell> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let c = self.grid[file as usize + rank as usize * self.files as usize];
        (c != NONE).then_some(Cell(c))
    }

    /// The cell `(dx, dy)` from `c` in files and ranks, or [`NONE`] where there is none.
    #[inline]
    pub(crate) fn offset(&self, c: Cell, (dx, dy): (i8, i8)) -> u16 {
        let (x, y) = self.coords(c);
        self.at(x as i32 + dx as i32, y as i32 + dy as i32).map_or(NONE, |n| n.0)
    }

    /// Per cell, the cells one of `dirs` away, in the order of `dirs` (those off the board left
    /// out): what "adjacent" means for a hook filter, a push's contact or an end condition.
    pub(crate) fn neighbour_table(&self, dirs: &[(i8, i8)]) -> CellTable<u16> {
        CellTable::build(self.len(), |c, out| out.extend(dirs.iter().map(|&d| self.offset(Cell(c), d)).filter(|&n| n != NONE)))
    }

    /// Whether a grid point lies inside the rectangle (whether or not it is a cell).
    #[inline]
    pub(crate) fn in_rect(&self, file: i32, rank: i32) -> bool {
        file >= 0 && rank >= 0 && file < self.files as i32 && rank < self.ranks as i32
    }

    /// (file, rank) of a cell, both counted from 0.
    #[inline]
    pub(crate) fn coords(&self, c: Cell) -> (u8, u8) {
        self.coords[c.0 as usize]
    }

    pub fn name(&self, c: Cell) -> &str {
        &self.names[c.0 as usize]
    }

    /// Whether a cell is dark: (file + rank) even with `a` = 1 and rank 1 = 1, so `a1` is dark.
    pub(crate) fn is_dark(&self, c: Cell) -> bool {
        let (f, r) = self.coords(c);
        (f as u32 + r as u32).is_multiple_of(2)
    }

    /// Parses a cell name, leniently on case.
    ///
    /// # Errors
    /// The text is not a cell name, or names no cell of this board.
    pub fn parse_cell(&self, text: &str) -> Result<Cell, CellError> {
        let (f, r) = parse_coords(text)?;
        self.at(f, r).ok_or_else(|| CellError::OffBoard(text.trim().to_ascii_lowercase()))
    }

    /// The (file, rank) offsets of an interned vector.
    pub(crate) fn vector(&self, v: u16) -> (i8, i8) {
        self.vectors[v as usize]
    }

    /// Interns a direction vector, building its neighbour table, and returns its index. Every
    /// vector a variant can write fits: at most 30 cells each way makes 61 × 61 - 1 of them.
    pub(crate) fn intern_vector(&mut self, v: (i8, i8)) -> u16 {
        if let Some(i) = self.vectors.iter().position(|&w| w == v) {
            return i as u16;
        }
        let n = self.len();
        self.nbr.reserve(n);
        for c in 0..n {
            let (f, r) = self.coords[c];
            let t = self.at(f as i32 + v.0 as i32, r as i32 + v.1 as i32);
            self.nbr.push(t.map_or(NONE, |t| t.0));
        }
        self.vectors.push(v);
        let i = self.vectors.len() - 1;
        if CellSet::fits(n) {
            let nbr = &self.nbr[i * n..];
            let up = (0..n).filter(|&c| nbr[c] != NONE).map(|c| nbr[c] as usize > c).collect::<Vec<_>>();
            self.ray_up.push(if up.iter().all(|&u| u) {
                Some(true)
            } else if up.iter().all(|&u| !u) {
                Some(false)
            } else {
                None
            });
            for c in 0..n {
                let (mut ray, mut at) = (CellSet::EMPTY, nbr[c]);
                while at != NONE && !ray.contains(at) {
                    ray.insert(at);
                    at = nbr[at as usize];
                }
                self.rays.push(ray.bits());
            }
        }
        u16::try_from(i).expect("fewer than 65,536 distinct vectors")
    }

    /// The cells along interned vector `v` from `c` (not `c` itself), and whether they run to
    /// higher cell indices: `None` past 128 cells or where the vector's steps do not all run
    /// the same way.
    #[inline(always)]
    pub(crate) fn ray(&self, v: u16, c: u16) -> Option<(u128, bool)> {
        let up = (*self.ray_up.get(v as usize)?)?;
        Some((self.rays[v as usize * self.coords.len() + c as usize], up))
    }

    /// The neighbour of `c` along interned vector `v`, or [`NONE`].
    #[inline(always)]
    pub(crate) fn step(&self, v: u16, c: u16) -> u16 {
        // SAFETY-free fast path: tables are sized vectors × cells at intern time.
        self.nbr[v as usize * self.coords.len() + c as usize]
    }

    /// The id of the zone named `name`, if there is one.
    pub(crate) fn zone_id(&self, name: &str) -> Option<u8> {
        self.zone_names.iter().position(|n| n == name).map(|i| i as u8)
    }

    /// Adds a zone and returns its bit index.
    ///
    /// # Errors
    /// More than 63 zones (the 64th is `board`).
    pub(crate) fn add_zone(&mut self, name: &str, cells: &[Cell]) -> Result<u8, TooManyZones> {
        let id = self.zone_names.len();
        if id >= 63 {
            return Err(TooManyZones);
        }
        self.zone_names.push(name.to_string());
        for c in cells {
            self.zone_bits[c.0 as usize] |= ZoneSet::one(id as u8);
        }
        Ok(id as u8)
    }

    /// The zone bit set of a cell.
    #[inline(always)]
    pub(crate) fn zones_of(&self, c: u16) -> ZoneSet {
        self.zone_bits[c as usize]
    }
}

/// Why a text is not a cell of a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    #[error("empty cell name")]
    Empty,
    #[error("`{}` is not a cell name (a letter then a number, like e2)", crate::files::quote(.0))]
    NotAName(String),
    #[error("`{}` is not a cell name: ranks count from 1", crate::files::quote(.0))]
    RankZero(String),
    #[error("{} is not on the board", crate::files::quote(.0))]
    OffBoard(String),
}

/// A board has more than 63 zones of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a board may have at most 63 zones besides the built-in `board`")]
pub(crate) struct TooManyZones;

/// Parses `a1`-style text into (file, rank) from 0, without checking a board.
///
/// # Errors
/// The text is not a letter followed by a number from 1.
pub(crate) fn parse_coords(text: &str) -> Result<(i32, i32), CellError> {
    let t = text.trim();
    let mut chars = t.chars();
    let Some(letter) = chars.next() else {
        return Err(CellError::Empty);
    };
    let rest = chars.as_str();
    if !letter.is_ascii_alphabetic() || rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 3 {
        return Err(CellError::NotAName(t.to_string()));
    }
    let rank: i32 = rest.parse().map_err(|_| CellError::NotAName(t.to_string()))?;
    if rank == 0 {
        return Err(CellError::RankZero(t.to_string()));
    }
    let file = (letter.to_ascii_lowercase() as u8 - b'a') as i32;
    Ok((file, rank - 1))
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell holds the built-in zone `board`, whatever other zones it is in, and a
    /// variant's own zones stop at 63 (the 64th bit is `board`'s).
    #[test]
    fn every_cell_is_in_the_board_zone() {
        let mut g = Geometry::new(3, 3, |_, _| true);
        let a1 = g.parse_cell("a1").unwrap();
        g.add_zone("corner", &[a1]).unwrap();
        assert!(g.cells().all(|c| g.zones_of(c.0).meets(ZoneSet::BOARD)));
        assert!(!g.zones_of(g.parse_cell("b2").unwrap().0).meets(ZoneSet::one(0)));
        for i in 1..63 {
            g.add_zone(&format!("z{i}"), &[]).unwrap();
        }
        assert_eq!(g.add_zone("one too many", &[]), Err(TooManyZones));
    }

    #[test]
    fn names_and_neighbours() {
        let mut g = Geometry::new(3, 3, |f, r| (f + r) % 2 == 0);
        assert_eq!(g.len(), 5);
        let a1 = g.parse_cell("A1").unwrap();
        assert_eq!(g.name(a1), "a1");
        assert!(g.is_dark(a1));
        assert!(g.parse_cell("b1").is_err());
        assert!(g.parse_cell("d1").is_err());
        assert!(g.parse_cell("a0").is_err());
        let ne = g.intern_vector((1, 1));
        assert_eq!(g.intern_vector((1, 1)), ne);
        let b2 = g.step(ne, a1.0);
        assert_eq!(g.name(Cell(b2)), "b2");
        let c3 = g.step(ne, b2);
        assert_eq!(g.step(ne, c3), NONE);
    }

    /// A cell table answers each cell's items, and a cell it was not built for is a panic, not
    /// a read outside the table (no `unsafe` in `get`).
    #[test]
    fn cell_tables_read_only_their_own_items() {
        let t = CellTable::build(3, |c, out| out.extend(std::iter::repeat_n(c, c as usize)));
        assert_eq!((t.get(0), t.get(1), t.get(2)), (&[][..], &[1][..], &[2, 2][..]));
        for bad in [3, u16::MAX] {
            assert!(std::panic::catch_unwind(|| t.get(bad).len()).is_err(), "cell {bad}");
        }
        let empty = CellTable::<u16>::default();
        assert!(std::panic::catch_unwind(|| empty.get(0).len()).is_err());
        let shrinking =
            std::panic::catch_unwind(|| CellTable::build(2, |c, out: &mut Vec<u16>| if c == 0 { out.push(9) } else { out.clear() }));
        assert!(shrinking.is_err(), "a builder that takes items out is refused");
    }

    #[test]
    fn zones() {
        let mut g = Geometry::new(2, 2, |_, _| true);
        let cells = vec![g.parse_cell("a1").unwrap(), g.parse_cell("b2").unwrap()];
        let z = g.add_zone("diag", &cells).unwrap();
        let inside: Vec<Cell> = g.cells().filter(|c| g.zones_of(c.0).meets(ZoneSet::one(z))).collect();
        assert_eq!(inside, cells);
    }
}

/// A per-cell list of items, flattened: the movement tables computed at load.
///
/// Built only by [`CellTable::build`] and never changed after: its offsets hold one start per
/// cell plus the end, non-decreasing and within the items. [`CellTable::get`] reads them with
/// checked indexing (no `unsafe`: measured at no cost in perft and search), so no call, from
/// any caller, can read outside the table.
#[derive(Clone, Debug, Default)]
pub(crate) struct CellTable<T> {
    offsets: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> CellTable<T> {
    /// Builds the table from a function appending each cell's items to the list it is given.
    ///
    /// # Panics
    /// If `f` takes items out of the list (a cell's items are what it appends).
    pub(crate) fn build(cells: usize, mut f: impl FnMut(u16, &mut Vec<T>)) -> CellTable<T> {
        let mut offsets = Vec::with_capacity(cells + 1);
        let mut items = Vec::new();
        offsets.push(0);
        for c in 0..cells {
            let before = items.len();
            f(c as u16, &mut items);
            assert!(items.len() >= before, "a cell table's builder only appends");
            offsets.push(u32::try_from(items.len()).expect("fewer than 2^32 items in a cell table"));
        }
        CellTable { offsets, items }
    }

    /// The items of cell `c`.
    ///
    /// # Panics
    /// If `c` is not a cell of the board the table was built for.
    #[inline(always)]
    pub(crate) fn get(&self, c: u16) -> &[T] {
        let c = c as usize;
        let (a, b) = (self.offsets[c] as usize, self.offsets[c + 1] as usize);
        &self.items[a..b]
    }
}
