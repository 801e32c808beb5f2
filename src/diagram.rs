//! Board diagrams: a position drawn as an SVG picture for a rules sheet, a puzzle or the docs,
//! and that picture as PNG.
//!
//! [`svg`] accepts any loaded variant and decides everything from its data, nothing from its
//! name: the board's shape from the geometry (a full rectangle; the cells of one colour of a
//! checkered grid, drawn on that grid with the unused squares light, as checkers' dark squares
//! or Pyramida's triangle; missing cells of any other board are holes), pieces as discs in
//! their owner's colour with the kind's symbol when there are several kinds and the displayed
//! attribute's value (Lielow's levels), royal and crowned pieces with a gold ring, the zones the
//! designer marked and the zones the rules use (promotion, exit, zones to fill) shaded, the last
//! move's cells highlighted with an arrow along its path, captured cells crossed, coordinates
//! along the left and bottom edges, and a caption (who is to move or the result, the last move,
//! counters, a legend).
//!
//! The text is plain SVG 1.1, deterministic (numbers are rounded to a tenth and written without
//! locale), and names only the generic `sans-serif` font family, so it needs no font files and
//! can be snapshot-tested. [`png`] renders it with `resvg`, in the font inside the binary.

use crate::geometry::{Cell, Geometry, NONE, ZoneSet};
use crate::notation::{Move, MoveKind};
use crate::piece::{KindId, PieceCode, Player};
use crate::state::Position;
use crate::variant::Variant;
use std::fmt::Write;

/// How to draw a diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Seen from the second player's side: the board turned half a turn.
    pub flip: bool,
    /// The caption under the board (status, last move, counters, legend); without it, only the
    /// board and its coordinates.
    pub caption: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { flip: false, caption: true }
    }
}

/// The side of a square, in SVG units (pixels at scale 1).
const CELL: f64 = 40.0;
/// The space around everything.
const MARGIN: f64 = 12.0;
/// The band for coordinates, left of and below the board.
const COORDS: f64 = 22.0;
/// The caption's font size and line height.
const FONT: f64 = 13.0;
const LINE: f64 = 19.0;
/// The PNG's pixels per SVG unit: sharp when printed or shown on a dense screen.
pub const PNG_SCALE: f32 = 2.0;

/// Squares of a full board (a light and a slightly darker tone, so diagonals can be followed).
const FULL_LIGHT: &str = "#f1e4c6";
const FULL_DARK: &str = "#e2cfa5";
/// A board of one colour of a checkered grid: its cells, and the unused squares between them.
const PLAYED: &str = "#b58a5c";
const UNUSED: &str = "#f3e6cc";
const GRID: &str = "#8c7553";
/// The ground of a board drawn as lines (`draw = "intersections"`).
const WOOD: &str = "#dcb35c";
const INK: &str = "#222222";
/// The last move: its squares, its path, what it captured; a royal or crowned piece's ring.
const HIGHLIGHT: &str = "#ffd43b";
const ARROW: &str = "#1c5fa8";
const CAPTURED: &str = "#d62828";
const GOLD: &str = "#d9a400";
/// The ring of a royal piece in check.
const CHECK: &str = "#d62828";

/// Zone shades: (on a full board's light squares, on a checkered board's played squares). Both
/// keep white and black discs readable.
const ZONE_COLOURS: [(&str, &str); 8] = [
    ("#a9cce8", "#6b9cc4"),
    ("#f4bf8e", "#cf8a4e"),
    ("#b9dca6", "#79ad62"),
    ("#d2bde4", "#9a7cb8"),
    ("#f2aaaa", "#c96a6a"),
    ("#a3d9d2", "#5fa89e"),
    ("#e9d57e", "#b89d35"),
    ("#cfcfcf", "#8f8f8f"),
];

/// A player's disc: fill, outline, letter.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Colours {
    fill: &'static str,
    stroke: &'static str,
    text: &'static str,
}

/// Players named after a colour are drawn in it; others are white (first) and black (second).
const NAMED_COLOURS: [(&str, Colours); 12] = [
    ("white", Colours { fill: "#fbfaf5", stroke: "#333333", text: "#222222" }),
    ("black", Colours { fill: "#2a2a2a", stroke: "#000000", text: "#f5f5f5" }),
    ("red", Colours { fill: "#c0392b", stroke: "#6e1e16", text: "#ffffff" }),
    ("blue", Colours { fill: "#2e6db4", stroke: "#173a63", text: "#ffffff" }),
    ("green", Colours { fill: "#2e8b57", stroke: "#17462b", text: "#ffffff" }),
    ("yellow", Colours { fill: "#f4d03f", stroke: "#7d6608", text: "#222222" }),
    ("orange", Colours { fill: "#e67e22", stroke: "#7e4510", text: "#222222" }),
    ("purple", Colours { fill: "#7d3c98", stroke: "#3f1e4d", text: "#ffffff" }),
    ("brown", Colours { fill: "#8b5a2b", stroke: "#452d15", text: "#ffffff" }),
    ("grey", Colours { fill: "#8c8c8c", stroke: "#3c3c3c", text: "#ffffff" }),
    ("gray", Colours { fill: "#8c8c8c", stroke: "#3c3c3c", text: "#ffffff" }),
    ("pink", Colours { fill: "#f1a7c1", stroke: "#8a3d58", text: "#222222" }),
];

fn player_colours(v: &Variant) -> [Colours; 2] {
    let named = |p: Player| NAMED_COLOURS.iter().find(|(n, _)| v.rules.player_name(p).eq_ignore_ascii_case(n)).map(|(_, c)| *c);
    match (named(Player::FIRST), named(Player::SECOND)) {
        (Some(a), Some(b)) if a != b => [a, b],
        _ => [NAMED_COLOURS[0].1, NAMED_COLOURS[1].1],
    }
}

/// A shaded set of cells and what the legend calls it.
struct Layer {
    label: String,
    cells: Vec<bool>,
    size: usize,
    /// A player's own shade (light, dark) instead of the next zone colour: the zones a
    /// connection asks a player to join, in a tint of that player's colour.
    tint: Option<(&'static str, &'static str)>,
}

impl Layer {
    /// The layer's shade: its tint, or the `i`-th zone colour (light, or dark on a checkered board).
    fn fill(&self, i: usize, checkered: bool) -> &'static str {
        let (light, dark) = self.tint.unwrap_or(ZONE_COLOURS[i % ZONE_COLOURS.len()]);
        if checkered { dark } else { light }
    }
}

/// A light and a dark tint of each named player colour ([`NAMED_COLOURS`]), for the player's
/// own zones.
const TINTS: [(&str, (&str, &str)); 12] = [
    ("white", ("#f4f1e8", "#d6d2c4")),
    ("black", ("#a6a6a6", "#6e6e6e")),
    ("red", ("#f2aaaa", "#c96a6a")),
    ("blue", ("#a9cce8", "#6b9cc4")),
    ("green", ("#b9dca6", "#79ad62")),
    ("yellow", ("#f5e59a", "#c9ad3a")),
    ("orange", ("#f4bf8e", "#cf8a4e")),
    ("purple", ("#d2bde4", "#9a7cb8")),
    ("brown", ("#dcc0a2", "#a67c52")),
    ("grey", ("#d6d6d6", "#8f8f8f")),
    ("gray", ("#d6d6d6", "#8f8f8f")),
    ("pink", ("#f7cddc", "#c98aa2")),
];

/// The tint of `p`'s colour (as [`player_colours`] chooses it).
fn tint_of(v: &Variant, p: Player) -> Option<(&'static str, &'static str)> {
    let fill = player_colours(v)[p.index()].fill;
    let name = NAMED_COLOURS.iter().find(|(_, c)| c.fill == fill).map(|(n, _)| *n)?;
    TINTS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// What a grid point of the board's rectangle is drawn as.
#[derive(Clone, Copy, PartialEq)]
enum Square {
    Cell(Cell),
    /// A square of the grid that is not a cell (the light squares of a checkers board).
    Unused,
    /// Nothing: off the board's shape, or a hole.
    Gap,
}

/// The squares to draw, `file + rank * files`. When every cell has the same colour on the
/// checkered grid (checkers' dark squares, Pyramida's light ones), the board is that part of a
/// checkered board: a missing grid point with at least two cells beside it (orthogonally) is
/// drawn as an unused square. Otherwise a missing grid point is a gap.
fn squares(g: &Geometry) -> Vec<Square> {
    let (files, ranks) = (g.files as i32, g.ranks as i32);
    let one_colour = {
        let mut colours = g.cells().map(|c| g.is_dark(c));
        let first = colours.next();
        colours.all(|d| Some(d) == first)
    };
    let mut out = Vec::with_capacity((files * ranks) as usize);
    for r in 0..ranks {
        for f in 0..files {
            out.push(match g.at(f, r) {
                Some(c) => Square::Cell(c),
                None if one_colour && g.len() > 1 => {
                    let beside = [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().filter(|(df, dr)| g.at(f + df, r + dr).is_some()).count();
                    if beside >= 2 { Square::Unused } else { Square::Gap }
                }
                None => Square::Gap,
            });
        }
    }
    out
}

/// The zones to shade, most specific first: the zones the designer gave a display mark, then
/// the zones the rules use (promotion, leaving the board, a zone to fill) that are not already
/// shaded. A zone that differs per player is one layer per player.
fn layers(v: &Variant) -> Vec<Layer> {
    let r = &v.rules;
    let g = &r.geometry;
    let cells_of = |z: Option<ZoneSet>| -> Vec<bool> { g.cells().map(|c| z.is_some_and(|m| g.zones_of(c.0).meets(m))).collect() };
    // The designer's name for a set of cells, if a zone has exactly those cells for `p`.
    let name_of = |cells: &[bool], p: Player, otherwise: &str| -> String {
        let found = r.zones.iter().find(|(_, m)| cells_of(Some(m[p])) == cells).map(|(n, _)| n.replace('_', " "));
        found.unwrap_or_else(|| otherwise.to_string())
    };
    let mut out: Vec<Layer> = Vec::new();
    for (zone, _) in &v.marks {
        let Some((_, masks)) = r.zones.iter().find(|(n, _)| n == zone) else { continue };
        let name = zone.replace('_', " ");
        let cells = Player::both().map(|p| cells_of(Some(masks[p])));
        per_player(&mut out, cells, |p, both| (if both { format!("{name} ({})", r.player_name(p)) } else { name.clone() }, None));
    }
    // The kinds that promote in the same cells, one layer and one role for them all ("sente
    // bishop, knight and pawn promote").
    let mut promoting: Vec<([Vec<bool>; 2], Vec<String>)> = Vec::new();
    for k in 0..r.kinds.len() {
        let promote =
            Player::both().map(|p| cells_of(r.pieces[PieceCode::new(KindId(k as u8), p).index()].promote.as_ref().map(|x| x.zone)));
        let name = r.kinds[k].name.replace('_', " ");
        match promoting.iter_mut().find(|(cells, _)| *cells == promote) {
            Some((_, kinds)) => kinds.push(name),
            None => promoting.push((promote, vec![name])),
        }
    }
    for (promote, kinds) in &promoting {
        let (last, rest) = kinds.split_last().expect("a group has a kind");
        let verb = if rest.is_empty() { "promotes" } else { "promote" };
        let subject = if rest.is_empty() { last.clone() } else { format!("{} and {last}", rest.join(", ")) };
        per_player(&mut out, promote.clone(), |p, both| {
            let who = if both { format!("{} ", r.player_name(p)) } else { String::new() };
            (name_of(&promote[p.index()], p, "promotion"), Some(format!("{who}{subject} {verb}")))
        });
    }
    for (k, _) in r.kinds.iter().enumerate() {
        let rules = |p| &r.pieces[PieceCode::new(KindId(k as u8), p).index()];
        let exit = Player::both().map(|p| cells_of(rules(p).exit.as_ref().map(|x| x.zone)));
        per_player(&mut out, exit.clone(), |p, both| {
            let role = if both { format!("{} leaves the board", r.player_name(p)) } else { "leaving the board".to_string() };
            (name_of(&exit[p.index()], p, "exit"), Some(role))
        });
    }
    for e in &r.ends {
        if let crate::rules::EndKind::ZoneFilled(by) = &e.kind {
            let cells = Player::both().map(|p| {
                let mut v = vec![false; g.len()];
                by[p].iter().for_each(|&c| v[c as usize] = true);
                v
            });
            per_player(&mut out, cells.clone(), |p, both| {
                let role = if both { format!("{} wins by filling it", r.player_name(p)) } else { "filling it wins".to_string() };
                (name_of(&cells[p.index()], p, "goal"), Some(role))
            });
        }
        if let crate::rules::EndKind::ZoneReached { cells, .. } = &e.kind {
            let cells = Player::both().map(|p| cells[p].clone());
            per_player(&mut out, cells.clone(), |p, both| {
                let role = if both { format!("{} wins by reaching it", r.player_name(p)) } else { "reaching it wins".to_string() };
                (name_of(&cells[p.index()], p, "goal"), Some(role))
            });
        }
    }
    connection_layers(v, &mut out);
    // The most specific zone shows where zones overlap (a goal inside a camp); the sort is
    // stable, so equal sizes keep the order above.
    out.sort_by_key(|l| l.size);
    out
}

/// The zones each player's chain must join (a `connected` end: Hex's sides), one layer per
/// player in a tint of its colour where they differ.
fn connection_layers(v: &Variant, out: &mut Vec<Layer>) {
    let r = &v.rules;
    for e in &r.ends {
        let crate::rules::EndKind::Connected(c) = &e.kind else { continue };
        let cells = Player::both().map(|p| c.marks[p].iter().map(|&m| m != 0).collect::<Vec<bool>>());
        per_player(out, cells.clone(), |p, both| {
            let role = match (c.at_least[p] < c.goals[p], both) {
                (false, true) => format!("{} joins them", r.player_name(p)),
                (false, false) => "joining them wins".to_string(),
                (true, true) => format!("{} joins {} of them", r.player_name(p), c.at_least[p]),
                (true, false) => format!("joining {} of them wins", c.at_least[p]),
            };
            let zone = if c.each_cell { "goal cells" } else { "sides" };
            (zone.to_string(), Some(role))
        });
        if cells[0] != cells[1] {
            for p in Player::both() {
                if let Some(l) = out.iter_mut().find(|l| l.cells == cells[p.index()] && l.tint.is_none()) {
                    l.tint = tint_of(v, p);
                }
            }
        }
    }
}

/// Adds a zone or a rule's cells for each player: one layer when they are the same for both,
/// else one per player. `label(player, per_player)` gives the zone's name and the rule's role
/// in it ("far rank", "white man promotes"); cells already shaded get the role added to their
/// label ("top (leaving the board)"). Empty sets are skipped.
fn per_player(out: &mut Vec<Layer>, cells: [Vec<bool>; 2], label: impl Fn(Player, bool) -> (String, Option<String>)) {
    let both = cells[0] != cells[1];
    for p in Player::both() {
        if p == Player::SECOND && !both {
            break;
        }
        let set = &cells[p.index()];
        let size = set.iter().filter(|&&b| b).count();
        if size == 0 {
            continue;
        }
        let (zone, role) = label(p, both);
        match out.iter_mut().find(|l| &l.cells == set) {
            Some(l) => {
                if let Some(role) = role.filter(|r| !l.label.contains(r.as_str())) {
                    l.label = format!("{} ({role})", l.label);
                }
            }
            None => {
                let label = match role {
                    Some(role) => format!("{zone} ({role})"),
                    None => zone,
                };
                out.push(Layer { label, cells: set.clone(), size, tint: None });
            }
        }
    }
}

/// A number as SVG text: rounded to a tenth, without a trailing `.0`.
fn num(x: f64) -> String {
    let t = (x * 10.0).round() / 10.0;
    if t == t.trunc() { format!("{}", t as i64) } else { format!("{t:.1}") }
}

/// Text escaped for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// An estimate of a text's width in the caption font (for laying out the legend; generous).
fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.55
}

/// Where things go: the board's grid points in SVG coordinates.
struct Frame {
    files: i32,
    ranks: i32,
    flip: bool,
    /// A hex board: cells are hexagons, each rank half a cell right of the one below.
    hex: bool,
    /// The board's top-left corner.
    x0: f64,
    y0: f64,
}

impl Frame {
    /// The frame [`svg`] draws a board of `g` in (the caption changes nothing above it).
    fn of(g: &Geometry, opts: Options) -> Frame {
        let top = if letters_on_top(g, opts.flip) { COORDS } else { 0.0 };
        Frame { files: g.files as i32, ranks: g.ranks as i32, flip: opts.flip, hex: g.hex, x0: MARGIN + COORDS, y0: MARGIN + top }
    }

    /// The top-left corner of the square of a grid point (may lie outside the board).
    fn corner(&self, f: i32, r: i32) -> (f64, f64) {
        let (col, row) = if self.flip { (self.files - 1 - f, r) } else { (f, self.ranks - 1 - r) };
        (self.x0 + col as f64 * CELL, self.y0 + row as f64 * CELL)
    }

    fn centre(&self, f: i32, r: i32) -> (f64, f64) {
        if self.hex {
            return self.hex_centre(f, r);
        }
        let (x, y) = self.corner(f, r);
        (x + CELL / 2.0, y + CELL / 2.0)
    }

    fn cell_centre(&self, g: &Geometry, c: u16) -> (f64, f64) {
        let (f, r) = g.coords(Cell(c));
        self.centre(f as i32, r as i32)
    }
}

// ---- hexagonal boards (issue 51, part 2) ----

/// A hexagon's circumradius: its centre to a corner (pointy-top hexagons `CELL` wide).
const HEX_R: f64 = CELL / 1.732_050_807_568_877_2;
/// The distance between two ranks' centres.
const HEX_ROW: f64 = 1.5 * HEX_R;

impl Frame {
    /// The board's width and height.
    fn size(&self) -> (f64, f64) {
        if self.hex {
            ((self.files as f64 + (self.ranks - 1) as f64 / 2.0) * CELL, (self.ranks - 1) as f64 * HEX_ROW + 2.0 * HEX_R)
        } else {
            (self.files as f64 * CELL, self.ranks as f64 * CELL)
        }
    }

    /// A hex cell's centre: rank `r` is shifted right by half a cell per rank above rank 1
    /// (turned half a turn when flipped).
    fn hex_centre(&self, f: i32, r: i32) -> (f64, f64) {
        let (cf, cr) = if self.flip { (self.files - 1 - f, self.ranks - 1 - r) } else { (f, r) };
        let x = self.x0 + CELL / 2.0 + (cf as f64 + cr as f64 / 2.0) * CELL;
        let y = self.y0 + HEX_R + (self.ranks - 1 - cr) as f64 * HEX_ROW;
        (x, y)
    }

    /// The six corners of the hexagon of a cell, as SVG points.
    fn hexagon(&self, f: i32, r: i32) -> String {
        let (x, y) = self.hex_centre(f, r);
        let pts: Vec<String> = (0..6)
            .map(|i| {
                let a = std::f64::consts::PI / 3.0 * i as f64 + std::f64::consts::PI / 6.0;
                format!("{},{}", num(x + HEX_R * a.cos()), num(y + HEX_R * a.sin()))
            })
            .collect();
        pts.join(" ")
    }
}

/// A hex board's cells: hexagons in their zone's shade or the board's tone, the last move's
/// cells highlighted, and the board's outline as the hexagons' own edges.
fn hex_cells(g: &Geometry, (shade, layers): (&[Option<usize>], &[Layer]), marked: &[u16], frame: &Frame) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "<g id=\"squares\" stroke=\"{GRID}\" stroke-width=\"1\">");
    for c in g.cells() {
        let (f, r) = g.coords(c);
        let fill = match shade[c.0 as usize] {
            Some(i) => layers[i].fill(i, false),
            None => FULL_LIGHT,
        };
        let _ = writeln!(s, "<polygon points=\"{}\" fill=\"{fill}\"/>", frame.hexagon(f as i32, r as i32));
    }
    let _ = writeln!(s, "</g>");
    if !marked.is_empty() {
        let _ = writeln!(s, "<g id=\"last-move\" fill=\"{HIGHLIGHT}\" fill-opacity=\"0.55\">");
        for (i, &c) in marked.iter().enumerate() {
            if !marked[..i].contains(&c) {
                let (f, r) = g.coords(Cell(c));
                let _ = writeln!(s, "<polygon points=\"{}\"/>", frame.hexagon(f as i32, r as i32));
            }
        }
        let _ = writeln!(s, "</g>");
    }
    s
}

/// Whether a hex board writes some file's letter above the board ([`hex_coordinates`]): a file
/// with no cell on the rank drawn lowest and one on the rank drawn highest.
fn letters_on_top(g: &Geometry, flip: bool) -> bool {
    let (low, high) = if flip { (g.ranks as i32 - 1, 0) } else { (0, g.ranks as i32 - 1) };
    g.hex && (0..g.files as i32).any(|f| g.at(f, low).is_none() && g.at(f, high).is_some())
}

/// A hex board's coordinates: each file's letter under its cell drawn lowest, each rank's
/// number left of its cell drawn leftmost (the board turned half a turn when flipped). A file
/// with no cell on the bottom rank but one on the top rank (a hexagon's left half, whose
/// lowest cells line the lower left edge beside the rank numbers) has its letter above it.
fn hex_coordinates(g: &Geometry, frame: &Frame) -> String {
    let mut s = format!("<g id=\"coordinates\" font-size=\"{FONT}\" fill=\"#555555\" text-anchor=\"middle\">\n");
    // Drawn lowest: the lowest rank, or the highest when flipped; drawn leftmost likewise.
    let order = |n: i32| -> Vec<i32> { if frame.flip { (0..n).rev().collect() } else { (0..n).collect() } };
    let (bottom, top) = (order(frame.ranks)[0], *order(frame.ranks).last().unwrap_or(&0));
    for f in 0..frame.files {
        let Some(low) = order(frame.ranks).into_iter().find(|&r| g.at(f, r).is_some()) else { continue };
        let (x, y) = if low != bottom && g.at(f, top).is_some() {
            let (x, y) = frame.hex_centre(f, top);
            (x + CELL / 4.0, y - HEX_R - 12.0)
        } else {
            let (x, y) = frame.hex_centre(f, low);
            (x - CELL / 4.0, y + HEX_R + 12.0)
        };
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", num(x), num(y + FONT * 0.36), crate::geometry::file_letter(f as u8));
    }
    for r in 0..frame.ranks {
        let Some(first) = order(frame.files).into_iter().find(|&f| g.at(f, r).is_some()) else { continue };
        let (x, y) = frame.hex_centre(first, r);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", num(x - CELL / 2.0 - 11.0), num(y + FONT * 0.36), r + 1);
    }
    s.push_str("</g>\n");
    s
}

// ---- end of hexagonal boards ----

/// The side of a cell's square in [`svg`]'s units: a cell is hit within half of it of its centre.
pub(crate) const CELL_SIDE: f64 = CELL;

/// Where [`svg`] with these options draws the centre of each cell, in the picture's units, in
/// cell order: a page showing the picture finds which cell a click is on (`boardlab serve`).
pub(crate) fn cell_centres(v: &Variant, opts: Options) -> Vec<(f64, f64)> {
    let g = &v.rules.geometry;
    let frame = Frame::of(g, opts);
    g.cells().map(|c| frame.cell_centre(g, c.0)).collect()
}

/// The position as an SVG picture. `last` is the move that led to it (highlighted, with its
/// captures crossed), if any.
pub fn svg(v: &Variant, pos: &Position, last: Option<&Move>, opts: Options) -> String {
    let r = &v.rules;
    let g = &r.geometry;
    let frame = Frame::of(g, opts);
    let (board_w, board_h) = frame.size();
    let squares = squares(g);
    let layers = layers(v);
    // Each cell shows its most specific zone.
    let shade: Vec<Option<usize>> = g.cells().map(|c| layers.iter().position(|l| l.cells[c.0 as usize])).collect();
    let checkered = squares.contains(&Square::Unused);
    let colours = player_colours(v);

    let caption = if opts.caption { caption(v, pos, last, &layers, &shade, checkered) } else { Caption::default() };
    let content_w = (COORDS + board_w).max(caption.width);
    let width = (2.0 * MARGIN + content_w).ceil();
    let caption_top = frame.y0 + board_h + COORDS + 6.0;
    let height = if caption.rows.is_empty() { frame.y0 + board_h + COORDS + MARGIN } else { caption_top + caption.height + MARGIN };
    let height = height.ceil();

    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">",
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(s, "<title>{}: {}</title>", esc(&r.title), esc(&crate::render::status(v, pos)));
    let _ = writeln!(s, "<desc>{}</desc>", esc(&pos.to_text(r)));
    let _ = writeln!(s, "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>", num(width), num(height));

    let path = last.map_or(vec![], last_path);
    if g.hex {
        s.push_str(&hex_cells(g, (&shade, &layers), &path, &frame));
    } else if r.go.intersections {
        s.push_str(&lines(g, &frame));
        s.push_str(&last_move(g, last, &path, &frame));
    } else {
        s.push_str(&square_cells(g, &squares, (&shade, &layers), checkered, &frame));
        s.push_str(&outline(&squares, &frame));
        s.push_str(&last_move(g, last, &path, &frame));
    }

    s.push_str(&pieces(v, pos, &frame, colours));
    s.push_str(&sowing_pits(v, pos, &frame));
    if let Some(m) = last {
        s.push_str(&arrow(g, m, &path, &frame));
        s.push_str(&captures(g, pos, m, &frame));
    }
    s.push_str(&if g.hex { hex_coordinates(g, &frame) } else { coordinates(&frame, board_h) });
    if !caption.rows.is_empty() {
        s.push_str(&caption.draw(MARGIN, caption_top));
    }
    s.push_str("</svg>\n");
    s
}

/// The squares: cells in their zone's shade (`shade`, a layer per cell) or the board's tones,
/// unused squares light.
fn square_cells(g: &Geometry, squares: &[Square], (shade, layers): (&[Option<usize>], &[Layer]), checkered: bool, frame: &Frame) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "<g id=\"squares\" stroke=\"{GRID}\" stroke-width=\"0.8\">");
    for rk in 0..frame.ranks {
        for f in 0..frame.files {
            let fill = match squares[(f + rk * frame.files) as usize] {
                Square::Gap => continue,
                Square::Unused => UNUSED,
                Square::Cell(c) => match shade[c.0 as usize] {
                    Some(i) => layers[i].fill(i, checkered),
                    None if checkered => PLAYED,
                    None if g.is_dark(c) => FULL_DARK,
                    None => FULL_LIGHT,
                },
            };
            let (x, y) = frame.corner(f, rk);
            let _ = writeln!(s, "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>", num(x), num(y));
        }
    }
    let _ = writeln!(s, "</g>");
    s
}

/// A board drawn as lines (`[board] draw = "intersections"`): a wooden ground, and through
/// each cell's centre a line to each orthogonal neighbour, so that the cells are the lines'
/// crossings (Go's board); the outer lines drawn heavier.
fn lines(g: &Geometry, frame: &Frame) -> String {
    let (x0, y0) = frame.corner(0, frame.ranks - 1);
    let (w, h) = (frame.files as f64 * CELL, frame.ranks as f64 * CELL);
    let mut s = String::new();
    let _ =
        writeln!(s, "<rect id=\"ground\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{WOOD}\"/>", num(x0), num(y0), num(w), num(h));
    let (mut inner, mut edge) = (String::new(), String::new());
    for c in g.cells() {
        let (x, y) = frame.cell_centre(g, c.0);
        for dir in [(1, 0), (0, 1)] {
            let n = g.offset(c, dir);
            if n == NONE {
                continue;
            }
            let (nx, ny) = frame.cell_centre(g, n);
            // A line along the board's border is heavier.
            let side = |d: (i8, i8)| g.offset(c, d) == NONE && g.offset(Cell(n), d) == NONE;
            let border = if dir.0 == 1 { side((0, 1)) || side((0, -1)) } else { side((1, 0)) || side((-1, 0)) };
            let _ = write!(if border { &mut edge } else { &mut inner }, "M{} {}L{} {}", num(x), num(y), num(nx), num(ny));
        }
    }
    let _ = writeln!(s, "<path id=\"lines\" d=\"{inner}\" stroke=\"{INK}\" stroke-width=\"1\" fill=\"none\"/>");
    let _ = writeln!(s, "<path id=\"outline\" d=\"{edge}\" stroke=\"{INK}\" stroke-width=\"2\" fill=\"none\" stroke-linecap=\"square\"/>");
    s
}

/// The cells move `m` went through: its start and landings (a drop has no start: only its
/// landing; a pass none).
fn last_path(m: &Move) -> Vec<u16> {
    if m.kind != MoveKind::Pass && (m.from != NONE || m.dropped().is_some()) {
        (m.from != NONE).then_some(m.from).into_iter().chain(m.landings().iter().copied()).collect()
    } else {
        vec![]
    }
}

/// The last move's squares (`path`), under the pieces. A two-part turn's placed piece
/// (Amazons' arrow) is marked too, but not on the arrow's path.
fn last_move(g: &Geometry, last: Option<&Move>, path: &[u16], frame: &Frame) -> String {
    let mut s = String::new();
    let marked: Vec<u16> = path.iter().copied().chain(last.and_then(|m| m.placed()).map(|(_, at)| at)).collect();
    if !marked.is_empty() {
        let _ = writeln!(s, "<g id=\"last-move\" fill=\"{HIGHLIGHT}\" fill-opacity=\"0.55\">");
        for (i, &c) in marked.iter().enumerate() {
            if marked[..i].contains(&c) {
                continue;
            }
            let (f, rk) = g.coords(Cell(c));
            let (x, y) = frame.corner(f as i32, rk as i32);
            let _ = writeln!(s, "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"/>", num(x), num(y));
        }
        let _ = writeln!(s, "</g>");
    }
    s
}

/// The board's outline: every edge of a drawn square that no other drawn square shares.
fn outline(squares: &[Square], frame: &Frame) -> String {
    let drawn =
        |f: i32, r: i32| f >= 0 && r >= 0 && f < frame.files && r < frame.ranks && squares[(f + r * frame.files) as usize] != Square::Gap;
    let mut d = String::new();
    for r in 0..frame.ranks {
        for f in 0..frame.files {
            if !drawn(f, r) {
                continue;
            }
            // The four corners in board terms, so that flipping needs no special case.
            let (x, y) = frame.corner(f, r);
            let (x1, y1) = (x + CELL, y + CELL);
            let (n, s, e, w) = if frame.flip { (r - 1, r + 1, f - 1, f + 1) } else { (r + 1, r - 1, f + 1, f - 1) };
            let mut edge = |a: (f64, f64), b: (f64, f64)| {
                let _ = write!(d, "M{} {}L{} {}", num(a.0), num(a.1), num(b.0), num(b.1));
            };
            if !drawn(f, n) {
                edge((x, y), (x1, y));
            }
            if !drawn(f, s) {
                edge((x, y1), (x1, y1));
            }
            if !drawn(e, r) {
                edge((x1, y), (x1, y1));
            }
            if !drawn(w, r) {
                edge((x, y), (x, y1));
            }
        }
    }
    format!("<path id=\"outline\" d=\"{d}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"2\" stroke-linecap=\"square\"/>\n")
}

/// The pieces: a disc in the owner's colour, the kind's symbol when there are several kinds,
/// the displayed attribute's value, a gold ring on a royal or crowned piece.
fn pieces(v: &Variant, pos: &Position, frame: &Frame, colours: [Colours; 2]) -> String {
    let r = &v.rules;
    let g = &r.geometry;
    let letters = r.kinds.len() > 1;
    // Under the check rule, the royal pieces of a player in check ring red.
    let checked = r.check_illegal && pos.result().is_none() && v.in_check(pos);
    let mut s = "<g id=\"pieces\" font-weight=\"bold\" text-anchor=\"middle\" stroke-width=\"1.5\">\n".to_string();
    for c in g.cells() {
        let code = pos.board()[c.0 as usize];
        if code.is_empty() {
            continue;
        }
        let (x, y) = frame.cell_centre(g, c.0);
        let col = colours[code.owner().index()];
        let ringed = r.kind(code.kind()).royal || r.crown.is_some_and(|k| pos.attr(c.0, k.marker) != 0);
        if ringed {
            let ring = if checked && code.owner() == pos.side() && r.kind(code.kind()).royal { CHECK } else { GOLD };
            let _ = writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"17.5\" fill=\"none\" stroke=\"{ring}\" stroke-width=\"3.5\"/>",
                num(x),
                num(y)
            );
        }
        let _ = writeln!(s, "<circle cx=\"{}\" cy=\"{}\" r=\"14.5\" fill=\"{}\" stroke=\"{}\"/>", num(x), num(y), col.fill, col.stroke);
        let mut label = String::new();
        if letters {
            label.extend(r.symbol(code).to_uppercase());
        }
        if let Some(slot) = r.display_attribute {
            label.push_str(&pos.attr(c.0, slot).to_string());
        }
        if !label.is_empty() {
            let size = if label.chars().count() > 2 { 11.0 } else { 15.0 };
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text>",
                num(x),
                num(y + size * 0.36),
                num(size),
                col.text,
                esc(&label)
            );
        }
    }
    s.push_str("</g>\n");
    s
}

/// The last move's path as an arrow from the start through each landing; a move off the board
/// points out of it in its direction.
fn arrow(g: &Geometry, m: &Move, path: &[u16], frame: &Frame) -> String {
    let mut pts: Vec<(f64, f64)> = path.iter().map(|&c| frame.cell_centre(g, c)).collect();
    if let MoveKind::Off { dir } = m.kind
        && let Some((_, (df, dr))) = crate::geometry::COMPASS.get(dir as usize)
    {
        let (f, r) = g.coords(Cell(m.from));
        pts.push(frame.centre(f as i32 + *df as i32, r as i32 + *dr as i32));
    }
    if pts.len() < 2 {
        return String::new();
    }
    // Stop short of the last centre, so the arrowhead points at the piece without hiding it.
    let (ax, ay) = pts[pts.len() - 2];
    let (bx, by) = pts[pts.len() - 1];
    let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
    if len == 0.0 {
        return String::new();
    }
    let (ux, uy) = ((bx - ax) / len, (by - ay) / len);
    let tip = (bx - ux * 16.0, by - uy * 16.0);
    let base = (tip.0 - ux * 13.0, tip.1 - uy * 13.0);
    let n = pts.len();
    pts[n - 1] = base;
    let line: Vec<String> = pts.iter().map(|(x, y)| format!("{},{}", num(*x), num(*y))).collect();
    let head = [tip, (base.0 - uy * 8.0, base.1 + ux * 8.0), (base.0 + uy * 8.0, base.1 - ux * 8.0)];
    let head: Vec<String> = head.iter().map(|(x, y)| format!("{},{}", num(*x), num(*y))).collect();
    format!(
        "<g id=\"arrow\" opacity=\"0.8\">\n<polyline points=\"{}\" fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n<polygon points=\"{}\" fill=\"{ARROW}\"/>\n</g>\n",
        line.join(" "),
        head.join(" ")
    )
}

/// Each captured cell: a cross over an emptied cell, a red frame inside a cell the capturing
/// piece now holds (a capture by landing, where a cross would hide the piece).
fn captures(g: &Geometry, pos: &Position, m: &Move, frame: &Frame) -> String {
    let victims: Vec<u16> = m.victims().collect();
    if victims.is_empty() {
        return String::new();
    }
    let mut s = format!("<g id=\"captured\" stroke=\"{CAPTURED}\" stroke-linecap=\"round\">\n");
    for c in victims {
        let (x, y) = frame.cell_centre(g, c);
        if pos.board()[c as usize].is_empty() {
            let (a, b) = (num(x - 11.0), num(x + 11.0));
            let (t, u) = (num(y - 11.0), num(y + 11.0));
            let _ = writeln!(s, "<path d=\"M{a} {t}L{b} {u}M{a} {u}L{b} {t}\" stroke-width=\"4.5\"/>");
        } else {
            let inset = CELL / 2.0 - 2.5;
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke-width=\"3\"/>",
                num(x - inset),
                num(y - inset),
                num(2.0 * inset),
                num(2.0 * inset)
            );
        }
    }
    s.push_str("</g>\n");
    s
}

/// File letters under the board, rank numbers left of it.
fn coordinates(frame: &Frame, board_h: f64) -> String {
    let mut s = format!("<g id=\"coordinates\" font-size=\"{FONT}\" fill=\"#555555\" text-anchor=\"middle\">\n");
    for f in 0..frame.files {
        let (x, _) = frame.centre(f, 0);
        let _ =
            writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", num(x), num(frame.y0 + board_h + 16.0), crate::geometry::file_letter(f as u8));
    }
    for r in 0..frame.ranks {
        let (_, y) = frame.centre(0, r);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", num(frame.x0 - COORDS / 2.0 - 1.0), num(y + FONT * 0.36), r + 1);
    }
    s.push_str("</g>\n");
    s
}

/// One item of a caption row.
enum Item {
    /// Plain text (bold for the status line).
    Text { text: String, bold: bool },
    /// A square swatch in a colour, then its label.
    Swatch { fill: &'static str, label: String },
    /// A gold ring, then its label.
    Ring { label: String },
    /// The rest of a swatch's or a ring's label, on the lines under it (see [`split`]).
    More { text: String },
}

impl Item {
    fn width(&self) -> f64 {
        match self {
            Item::Text { text, .. } => text_width(text, FONT),
            Item::Swatch { label, .. } | Item::Ring { label } | Item::More { text: label } => 18.0 + text_width(label, FONT),
        }
    }
}

/// An item much wider than `wrap` broken at spaces into lines that fit (a word longer than a
/// line stays whole): the first keeps the swatch or ring, the others follow under its label.
/// One a little wider stays whole (a word alone on a line reads worse than a wider picture).
fn split(item: Item, wrap: f64) -> Vec<Item> {
    if item.width() <= wrap * 1.25 {
        return vec![item];
    }
    let (text, lead) = match &item {
        Item::Text { text, .. } => (text.clone(), 0.0),
        Item::Swatch { label, .. } | Item::Ring { label } | Item::More { text: label } => (label.clone(), 18.0),
    };
    let mut parts: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let longer = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if !line.is_empty() && lead + text_width(&longer, FONT) > wrap {
            parts.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = longer;
        }
    }
    parts.push(line);
    let mut parts = parts.into_iter();
    let first = parts.next().unwrap_or_default();
    let rest = |text: String| match &item {
        Item::Text { bold, .. } => Item::Text { text, bold: *bold },
        _ => Item::More { text },
    };
    let head = match &item {
        Item::Swatch { fill, .. } => Item::Swatch { fill, label: first },
        Item::Ring { .. } => Item::Ring { label: first },
        _ => rest(first),
    };
    std::iter::once(head).chain(parts.map(rest)).collect()
}

/// The caption: rows of items, and its size.
#[derive(Default)]
struct Caption {
    rows: Vec<Vec<Item>>,
    width: f64,
    height: f64,
}

impl Caption {
    fn draw(&self, x0: f64, y0: f64) -> String {
        let mut s = format!("<g id=\"caption\" font-size=\"{FONT}\" fill=\"{INK}\">\n");
        for (i, row) in self.rows.iter().enumerate() {
            let base = y0 + i as f64 * LINE + FONT;
            let mut x = x0;
            for item in row {
                match item {
                    Item::Text { text, bold } => {
                        let weight = if *bold { " font-weight=\"bold\"" } else { "" };
                        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\"{weight}>{}</text>", num(x), num(base), esc(text));
                    }
                    Item::Swatch { fill, label } => {
                        let _ = writeln!(
                            s,
                            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{fill}\" stroke=\"{GRID}\" stroke-width=\"0.8\"/>",
                            num(x),
                            num(base - 11.0)
                        );
                        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", num(x + 18.0), num(base), esc(label));
                    }
                    Item::More { text } => {
                        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", num(x + 18.0), num(base), esc(text));
                    }
                    Item::Ring { label } => {
                        let _ = writeln!(
                            s,
                            "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"none\" stroke=\"{GOLD}\" stroke-width=\"2.5\"/>",
                            num(x + 6.0),
                            num(base - 5.0)
                        );
                        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", num(x + 18.0), num(base), esc(label));
                    }
                }
                x += item.width() + 16.0;
            }
        }
        s.push_str("</g>\n");
        s
    }
}

/// The caption's rows: the status, the last move, counters and other attributes, then the
/// legend (zones, piece letters, the gold ring), wrapped to the board's width.
fn caption(v: &Variant, pos: &Position, last: Option<&Move>, layers: &[Layer], shade: &[Option<usize>], checkered: bool) -> Caption {
    let r = &v.rules;
    let g = &r.geometry;
    let mut lines: Vec<Item> = vec![Item::Text { text: crate::render::status(v, pos), bold: true }];
    if let Some(m) = last {
        lines.push(Item::Text { text: format!("last move: {}", m.text(g)), bold: false });
    }
    // Pieces in hand in one line, as the text board writes them (not a counter a kind).
    let hands = crate::render::hand_slots(v);
    if let Some(line) = crate::render::hands_line(v, pos) {
        lines.push(Item::Text { text: line, bold: false });
    }
    for (i, (name, _)) in r.counters.iter().enumerate() {
        if hands.iter().any(|&(slot, _)| slot as usize == i) {
            continue;
        }
        let vals: Vec<String> = Player::both().iter().map(|&p| format!("{} {}", r.player_name(p), pos.counter(p, i as u8))).collect();
        lines.push(Item::Text { text: format!("{}: {}", name.replace('_', " "), vals.join(", ")), bold: false });
    }
    // Attributes not drawn on the discs (the displayed one and the crown marker are).
    for (name, items) in crate::render::hidden_attributes(v, pos) {
        lines.push(Item::Text { text: format!("{name}: {}", items.join(" ")), bold: false });
    }
    let mut legend: Vec<Item> = Vec::new();
    for (i, l) in layers.iter().enumerate() {
        if shade.contains(&Some(i)) {
            legend.push(Item::Swatch { fill: l.fill(i, checkered), label: l.label.clone() });
        }
    }
    if r.kinds.len() > 1 {
        let names: Vec<String> =
            r.kinds.iter().map(|k| format!("{} {}", k.symbols[Player::FIRST].to_uppercase(), k.name.replace('_', " "))).collect();
        legend.push(Item::Text { text: names.join(", "), bold: false });
    }
    if r.kinds.iter().any(|k| k.royal) {
        legend.push(Item::Ring { label: "royal".to_string() });
    }
    if let Some(k) = r.crown {
        legend.push(Item::Ring { label: format!("king (highest {})", r.attributes[k.by as usize].replace('_', " ")) });
    }
    if let Some(slot) = r.display_attribute {
        legend.push(Item::Text { text: format!("numbers: {}", r.attributes[slot as usize].replace('_', " ")), bold: false });
    }
    let wrap = (COORDS + g.files as f64 * CELL).max(320.0);
    // A line each; a line or a legend item too wide for the board is broken into lines (a
    // long legend would make a small board's picture wide and its board small).
    let mut rows: Vec<Vec<Item>> = lines.into_iter().flat_map(|i| split(i, wrap)).map(|i| vec![i]).collect();
    let mut row: Vec<Item> = Vec::new();
    let mut x = 0.0;
    for item in legend {
        let mut parts = split(item, wrap);
        if parts.len() > 1 {
            // A broken item has its lines to itself.
            if !row.is_empty() {
                rows.push(std::mem::take(&mut row));
            }
            rows.extend(parts.drain(..).map(|p| vec![p]));
            x = 0.0;
            continue;
        }
        let Some(item) = parts.pop() else { continue };
        let w = item.width();
        if !row.is_empty() && x + w > wrap {
            rows.push(std::mem::take(&mut row));
            x = 0.0;
        }
        x += w + 16.0;
        row.push(item);
    }
    if !row.is_empty() {
        rows.push(row);
    }
    let width = rows.iter().map(|row| row.iter().map(|i| i.width() + 16.0).sum::<f64>() - 16.0).fold(0.0, f64::max);
    let height = rows.len() as f64 * LINE;
    Caption { rows, width, height }
}

/// Why a PNG could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("cannot read the SVG: {0}")]
    Svg(String),
    #[error("the picture is too large ({0}×{1} pixels)")]
    Size(u32, u32),
    #[error("cannot encode the PNG: {0}")]
    Encode(String),
}

/// The font every PNG's text is drawn in, inside the binary (DejaVu Sans, under its free
/// licence in `assets/fonts/LICENSE`): pictures look the same on every machine, and need no
/// fonts installed.
static FONT_FILE: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// A diagram's SVG text rendered to PNG bytes, `scale` pixels per SVG unit ([`PNG_SCALE`] for
/// sharp pictures). Text is drawn in the font inside the binary (DejaVu Sans), whatever the
/// system has.
///
/// # Errors
/// SVG text that does not parse, or a picture too large to allocate.
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options::default();
    let db = opt.fontdb_mut();
    db.load_font_data(FONT_FILE.to_vec());
    let family = "DejaVu Sans".to_string();
    db.set_sans_serif_family(family.clone());
    db.set_serif_family(family.clone());
    opt.font_family = family;
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PngError::Size(w, h))?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| PngError::Encode(e.to_string()))
}

// ---- Sowing (mancala) ----

/// The pits and stores of `[sowing]` with the seeds each holds: a pit is a round hollow with
/// its count, a store a long hollow over its whole file (the board's end), its count in the
/// middle; the side to move's pits rimmed darker.
fn sowing_pits(v: &Variant, pos: &Position, frame: &Frame) -> String {
    let Some(sw) = &v.rules.sowing else { return String::new() };
    let g = &v.rules.geometry;
    let mut s = "<g id=\"pits\" font-weight=\"bold\" text-anchor=\"middle\">\n".to_string();
    for p in Player::both() {
        let rim = if pos.side() == p && pos.result().is_none() { "#5a3210" } else { "#a07850" };
        for &c in &sw.pits[p] {
            let (x, y) = frame.cell_centre(g, c);
            let _ = writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#c8a070\" stroke=\"{rim}\" stroke-width=\"2.5\"/>",
                num(x),
                num(y),
                num(CELL * 0.42)
            );
            seed_count(&mut s, x, y, pos.seeds()[c as usize]);
        }
        let c = sw.store[p];
        let (f, _) = g.coords(Cell(c));
        let (x0, y0) = frame.corner(f as i32, frame.ranks - 1);
        let (_, y1) = frame.corner(f as i32, 0);
        let (x0, y0, y1) = (x0, y0.min(y1), y0.max(y1) + CELL);
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"#b88c5c\" stroke=\"#5a3210\" stroke-width=\"2.5\"/>",
            num(x0 + CELL * 0.08),
            num(y0 + CELL * 0.08),
            num(CELL * 0.84),
            num(y1 - y0 - CELL * 0.16),
            num(CELL * 0.42)
        );
        seed_count(&mut s, x0 + CELL / 2.0, (y0 + y1) / 2.0, pos.seeds()[c as usize]);
    }
    s.push_str("</g>\n");
    s
}

/// A count of seeds written at (x, y).
fn seed_count(s: &mut String, x: f64, y: f64, n: u16) {
    let size = if n > 99 { 13.0 } else { 17.0 };
    let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#2a1606\">{n}</text>", num(x), num(y + size * 0.36), num(size));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(name: &str) -> (usize, usize, usize) {
        let v = Variant::load(name, &[]).unwrap();
        let sq = squares(&v.rules.geometry);
        let count = |k: fn(&Square) -> bool| sq.iter().filter(|s| k(s)).count();
        (count(|s| matches!(s, Square::Cell(_))), count(|s| *s == Square::Unused), count(|s| *s == Square::Gap))
    }

    #[test]
    fn svg_shapes_follow_the_geometry() {
        // A full board: every grid point a cell.
        assert_eq!(shapes("basileus"), (72, 0, 0));
        // Checkers' dark squares on a whole 8×8 board.
        assert_eq!(shapes("checkers"), (32, 32, 0));
        // Pyramida: 97 cells on part of a checkered 21×14 grid, the rest of the rectangle empty.
        let (cells, unused, gaps) = shapes("pyramida");
        assert_eq!((cells, cells + unused + gaps), (97, 21 * 14));
        assert!(unused > 80 && gaps > 50, "{unused} unused, {gaps} gaps");
    }

    #[test]
    fn svg_is_deterministic_and_well_formed() {
        for name in crate::variant::shipped_names() {
            let v = Variant::load(&name, &[]).unwrap();
            let a = svg(&v, &v.start(), None, Options::default());
            let b = svg(&v, &v.start(), None, Options::default());
            assert_eq!(a, b);
            assert!(a.starts_with("<svg ") && a.ends_with("</svg>\n"));
            let opens = a.matches("<g ").count();
            assert_eq!(opens, a.matches("</g>").count(), "{name}");
        }
    }

    #[test]
    fn svg_numbers_are_rounded_to_a_tenth() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(14.54), "14.5");
        assert_eq!(num(-0.04), "0");
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn svg_flipped_puts_the_second_players_side_at_the_bottom() {
        let v = Variant::load("checkers", &[]).unwrap();
        let frame = Frame { files: 8, ranks: 8, flip: false, hex: false, x0: 0.0, y0: 0.0 };
        assert_eq!(frame.corner(0, 0), (0.0, 7.0 * CELL));
        let flipped = Frame { flip: true, ..frame };
        assert_eq!(flipped.corner(0, 0), (7.0 * CELL, 0.0));
        let a = svg(&v, &v.start(), None, Options { flip: true, caption: true });
        assert_ne!(a, svg(&v, &v.start(), None, Options::default()));
    }
}
