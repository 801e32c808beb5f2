//! Boards and variant descriptions as text for a person (the REPL, `show`, snapshots).

use crate::geometry::Cell;
use crate::piece::ByPlayer;
use crate::rules::raw::RawVariant;
use crate::state::Position;
use crate::variant::Variant;
use std::fmt::Write;

/// Colours for a terminal, or none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub(crate) color: bool,
}

impl Style {
    pub const PLAIN: Style = Style { color: false };

    fn paint(&self, code: &str, s: &str) -> String {
        if self.color { format!("\x1b[{code}m{s}\x1b[0m") } else { s.to_string() }
    }
}

/// The board with coordinates, the side to move or the result, and the state that matters.
/// `last` marks the cells of the last move, in brackets (parentheses when plain), and the cells
/// it captured on (an emptied one shows `x`).
pub(crate) fn board(v: &Variant, pos: &Position, last: Option<&crate::notation::Move>, style: Style) -> String {
    let r = &v.rules;
    let g = &r.geometry;
    let mut s = String::new();
    let marked: Vec<u16> = last
        .map(|m| {
            (m.from != crate::geometry::NONE).then_some(m.from).into_iter().chain(m.landings().iter().copied()).chain(m.victims()).collect()
        })
        .unwrap_or_default();
    let captured: Vec<u16> = last.map(|m| m.victims().collect()).unwrap_or_default();
    // With a display attribute, each cell shows the symbol, the value and `*` on a crowned piece.
    let width = if r.sowing.is_some() {
        4 // sowing: a count of seeds of up to two digits, and the marks
    } else if r.display_attribute.is_some() {
        5
    } else {
        3
    };
    // A hex board: a space more per cell, each rank half a cell right of the one below.
    let (gap, width) = if g.hex { (" ", width + 1) } else { ("", width) };
    for rank in (0..g.ranks as i32).rev() {
        let _ = write!(s, "{:>3} ", rank + 1);
        if g.hex {
            s.push_str(&" ".repeat(rank as usize * width / 2));
        }
        for f in 0..g.files as i32 {
            s.push_str(&match g.at(f, rank) {
                None => " ".repeat(width),
                Some(c) => cell_text(v, pos, c, marked.contains(&c.0), captured.contains(&c.0), style) + gap,
            });
        }
        let trimmed = s.trim_end_matches(' ').len();
        s.truncate(trimmed);
        s.push('\n');
    }
    s.push_str("    ");
    for f in 0..g.files {
        let _ = write!(s, "{:^width$}", crate::geometry::file_letter(f));
    }
    let trimmed = s.trim_end_matches(' ').len();
    s.truncate(trimmed);
    s.push('\n');
    s.push_str(&state_lines(v, pos));
    s.push_str(&status(v, pos));
    s.push('\n');
    s
}

/// One cell: its piece (or the zone mark of an empty cell), the display attribute, and the
/// last move's mark.
fn cell_text(v: &Variant, pos: &Position, c: Cell, is_last: bool, captured: bool, style: Style) -> String {
    let r = &v.rules;
    if let Some(sw) = &r.sowing {
        return sowing_cell(sw, pos, c, is_last, style);
    }
    let code = pos.board()[c.0 as usize];
    let mut label = match (code.is_empty(), captured) {
        (true, true) => '×',
        (true, false) => zone_mark(v, c),
        (false, _) => r.symbol(code),
    }
    .to_string();
    if let Some(slot) = r.display_attribute {
        if !code.is_empty() {
            label.push_str(&pos.attr(c.0, slot).to_string());
            let crowned = r.crown.is_some_and(|k| pos.attr(c.0, k.marker) != 0);
            label.push(if crowned { '*' } else { ' ' });
        } else {
            label.push_str("  ");
        }
    }
    let body = if code.is_empty() {
        style.paint("2", &label)
    } else if code.owner() == crate::piece::Player::FIRST {
        style.paint("1;37", &label)
    } else {
        style.paint("1;31", &label)
    };
    match (is_last, style.color) {
        (true, true) => format!("[{body}]"),
        (true, false) => format!("({body})"),
        (false, _) => format!(" {body} "),
    }
}

// ---- Sowing (mancala) ----

/// A cell of a sowing board: the seeds of a pit or store (`.` for none of them), the pit the
/// last move sowed marked.
fn sowing_cell(sw: &crate::rules::sowing::Sowing, pos: &Position, c: Cell, is_last: bool, style: Style) -> String {
    let label = if sw.owner[c.0 as usize].is_some() { format!("{:>2}", pos.seeds()[c.0 as usize]) } else { " .".to_string() };
    let body = match sw.owner[c.0 as usize] {
        Some(p) if p == crate::piece::Player::FIRST => style.paint("1;37", &label),
        Some(_) => style.paint("1;31", &label),
        None => style.paint("2", &label),
    };
    match (is_last, style.color) {
        (true, true) => format!("[{body}]"),
        (true, false) => format!("({body})"),
        (false, _) => format!(" {body} "),
    }
}

/// The attributes a board does not show on its cells (all but the displayed one and the crown
/// marker), each with its pieces' values: (`level`, [`Pe4=2`, …]), only those some piece has.
pub(crate) fn hidden_attributes(v: &Variant, pos: &Position) -> Vec<(String, Vec<String>)> {
    let r = &v.rules;
    let g = &r.geometry;
    let mut out = Vec::new();
    for (slot, name) in r.attributes.iter().enumerate() {
        if Some(slot as u8) == r.display_attribute || r.crown.is_some_and(|k| k.marker as usize == slot) {
            continue;
        }
        let items: Vec<String> = g
            .cells()
            .filter(|c| {
                let code = pos.board()[c.0 as usize];
                !code.is_empty() && r.kind(code.kind()).attributes.iter().any(|&(sl, _)| sl as usize == slot)
            })
            .map(|c| format!("{}{}={}", r.symbol(pos.board()[c.0 as usize]), g.name(c), pos.attr(c.0, slot as u8)))
            .collect();
        if !items.is_empty() {
            out.push((name.clone(), items));
        }
    }
    out
}

/// The counters that hold pieces in hand (a kind dropped from the hand), with the kind's symbols.
pub(crate) fn hand_slots(v: &Variant) -> Vec<(u8, ByPlayer<char>)> {
    let r = &v.rules;
    r.hand_kinds().into_iter().map(|(k, slot)| (slot, r.kinds[k.0 as usize].symbols)).collect()
}

/// The hands in one line, each piece in hand by its symbol (`C` twice is `CC`, five or more
/// `C×5`): `in hand: white CC, black none`; `None` when no kind is dropped from a hand.
pub(crate) fn hands_line(v: &Variant, pos: &Position) -> Option<String> {
    let r = &v.rules;
    let hands = hand_slots(v);
    if hands.is_empty() {
        return None;
    }
    let held: Vec<String> = crate::piece::Player::both()
        .iter()
        .map(|&p| {
            let mut h = String::new();
            for &(slot, sym) in &hands {
                match pos.counter(p, slot) {
                    n @ 1..=4 => h.extend(std::iter::repeat_n(sym[p], n as usize)),
                    n if n >= 5 => h.push_str(&format!("{}×{n}", sym[p])),
                    _ => {}
                }
            }
            format!("{} {}", r.player_name(p), if h.is_empty() { "none" } else { &h })
        })
        .collect();
    Some(format!("in hand: {}", held.join(", ")))
}

/// Kings (crowned pieces), attributes not drawn on the board, and counters, a line each.
fn state_lines(v: &Variant, pos: &Position) -> String {
    let r = &v.rules;
    let g = &r.geometry;
    let mut s = String::new();
    if let Some(k) = r.crown {
        let kings: Vec<String> = crate::piece::Player::both()
            .iter()
            .map(|&p| {
                let at = g.cells().find(|c| {
                    let code = pos.board()[c.0 as usize];
                    !code.is_empty() && code.owner() == p && pos.attr(c.0, k.marker) != 0
                });
                match at {
                    Some(c) => format!("{} {} ({} {})", r.player_name(p), g.name(c), r.attributes[k.by as usize], pos.attr(c.0, k.by)),
                    None => format!("{} none yet", r.player_name(p)),
                }
            })
            .collect();
        let _ = writeln!(s, "kings (*): {}", kings.join(", "));
    }
    for (name, items) in hidden_attributes(v, pos) {
        let _ = writeln!(s, "{name}: {}", items.join(" "));
    }
    let hands = hand_slots(v);
    if let Some(line) = hands_line(v, pos) {
        let _ = writeln!(s, "{line}");
    }
    if r.drops.gating.is_some() {
        // Gating's gates: where a piece in hand may still enter.
        let each: Vec<String> = crate::piece::Player::both()
            .iter()
            .map(|&p| {
                let cells: Vec<&str> = crate::cellset::CellSet::from_bits(pos.gates()[p]).into_iter().map(|c| g.name(Cell(c))).collect();
                format!("{} {}", r.player_name(p), if cells.is_empty() { "none".to_string() } else { cells.join(" ") })
            })
            .collect();
        let _ = writeln!(s, "gates: {}", each.join(", "));
    }
    if let Some(score) = &r.score {
        let t = score.totals(pos.board(), pos.prisoners());
        let each: Vec<String> = crate::piece::Player::both().iter().map(|&p| format!("{} {}", r.player_name(p), t[p])).collect();
        let _ = writeln!(s, "points: {}", each.join(", "));
        if score.keeps_prisoners() {
            let taken = pos.prisoners();
            let each: Vec<String> = crate::piece::Player::both().iter().map(|&p| format!("{} {}", r.player_name(p), taken[p])).collect();
            let _ = writeln!(s, "prisoners: {}", each.join(", "));
        }
    }
    for (i, (name, _)) in r.counters.iter().enumerate() {
        if hands.iter().any(|&(slot, _)| slot as usize == i) {
            continue;
        }
        let vals: Vec<String> =
            crate::piece::Player::both().iter().map(|&p| format!("{} {}", r.player_name(p), pos.counter(p, i as u8))).collect();
        let _ = writeln!(s, "{name}: {}", vals.join(", "));
    }
    s
}

/// The mark of an empty cell: its zone's display mark, or `.`.
fn zone_mark(v: &Variant, c: Cell) -> char {
    let g = &v.rules.geometry;
    for (name, mark) in &v.marks {
        if let Some(m) = v.rules.zone_mask(name, crate::piece::Player::FIRST)
            && g.zones_of(c.0).meets(m)
        {
            return *mark;
        }
    }
    '.'
}

/// "white to move", "black to decide: retreat (continuation)", or the result.
pub(crate) fn status(v: &Variant, pos: &Position) -> String {
    let r = &v.rules;
    if let Some(res) = pos.result() {
        return res.describe(&r.player_names);
    }
    let mut p = pos.clone();
    if let Ok(Some(res)) = v.outcome(&mut p) {
        return res.describe(&r.player_names);
    }
    match pos.continuation() {
        Some(c) => {
            format!("{} to decide: {} (continuation of {}'s turn)", r.player_name(c.player), c.tag.replace('_', " "), r.player_name(c.turn))
        }
        None if r.check_illegal && v.in_check(pos) => format!("{} to move, in check", r.player_name(pos.side())),
        None => format!("{} to move", r.player_name(pos.side())),
    }
}

/// The legend of zone marks, if the variant shows any.
pub(crate) fn legend(v: &Variant) -> String {
    v.marks.iter().map(|(z, m)| format!("{m} = {}", z.replace('_', " "))).collect::<Vec<_>>().join(", ")
}

/// The variant after `extends`, as TOML, each section headed by where it came from.
pub(crate) fn resolved(v: &Variant) -> String {
    let mut out = how_pieces_move(v);
    out.push('\n');
    out.push_str(&resolved_toml(v));
    out
}

/// The pieces in plain words: each kind, its symbols, what its description says, and how its
/// movement forms read (the same words `why` uses), as TOML comments.
pub(crate) fn how_pieces_move(v: &Variant) -> String {
    let r = &v.rules;
    let mut out = format!("# {}: how the pieces move\n", r.title);
    for (k, kind) in r.kinds.iter().enumerate() {
        let code = crate::piece::PieceCode::new(crate::piece::KindId(k as u8), crate::piece::Player::FIRST);
        let syms = format!("{}/{}", kind.symbols[crate::piece::Player::FIRST], kind.symbols[crate::piece::Player::FIRST.other()]);
        let royal = if kind.royal { ", royal" } else { "" };
        let _ = writeln!(out, "#   {} ({syms}{royal}): {}", kind.name, if kind.description.is_empty() { "-" } else { &kind.description });
        let notes = &r.pieces[code.index()].notes;
        if !notes.is_empty() {
            let _ = writeln!(out, "#     moves by: {}", notes.join("; "));
        }
    }
    if r.check_illegal {
        out.push_str("# check: a move may not leave a royal piece of the mover where the opponent could capture it\n");
    }
    out
}

fn resolved_toml(v: &Variant) -> String {
    let m = &v.merged;
    let from = |file: usize| -> String {
        let n = m.chain.len();
        let name = m.chain.get(n - 1 - file.min(n - 1)).cloned().unwrap_or_default();
        format!("# from {name} ({})", m.files[file].name)
    };
    let mut out = String::new();
    let _ = writeln!(out, "# {} resolved: {}", m.name, m.chain.join(" extends "));
    let mut head =
        RawVariant { name: Some(m.name.clone()), title: m.title.clone(), description: m.description.clone(), ..RawVariant::default() };
    if let Some(sc) = &m.script {
        head.script = Some(sc.val.clone());
    }
    out.push_str(&toml::to_string(&head).unwrap_or_default());
    let mut section = |file: usize, raw: RawVariant| {
        out.push('\n');
        out.push_str(&from(file));
        out.push('\n');
        out.push_str(&toml::to_string(&raw).unwrap_or_else(|e| format!("# (cannot print: {e})\n")));
    };
    if let Some(b) = &m.board {
        section(b.file, RawVariant { board: Some(b.val.clone()), ..Default::default() });
    }
    if let Some(p) = &m.players {
        section(p.file, RawVariant { players: Some(p.val.clone()), ..Default::default() });
    }
    for (k, z) in &m.zones {
        let mut r = RawVariant::default();
        r.zones.insert(k.clone(), z.val.clone());
        section(z.file, r);
    }
    for (k, c) in &m.counters {
        let mut r = RawVariant::default();
        r.counters.insert(k.clone(), c.val.clone());
        section(c.file, r);
    }
    for (k, p) in &m.pieces {
        let mut r = RawVariant::default();
        r.pieces.insert(k.clone(), p.val.clone());
        section(p.file, r);
    }
    if let Some(c) = &m.captures {
        section(c.file, RawVariant { captures: Some(c.val.clone()), ..Default::default() });
    }
    if let Some(ends) = &m.ends {
        // Each run of ends from one file as one section.
        for run in ends.chunk_by(|a, b| a.file == b.file) {
            section(run[0].file, RawVariant { ends: Some(run.iter().map(|e| e.val.clone()).collect()), ..Default::default() });
        }
    }
    if let Some(s) = &m.setup {
        section(s.file, RawVariant { setup: Some(s.val.clone()), ..Default::default() });
    }
    if let Some(h) = &m.hooks {
        section(h.file, RawVariant { hooks: Some(h.val.clone()), ..Default::default() });
    }
    if let Some(r) = &m.rules {
        section(r.file, RawVariant { rules: Some(r.val.clone()), ..Default::default() });
    }
    if let Some(w) = &m.sowing {
        section(w.file, RawVariant { sowing: Some(w.val.clone()), ..Default::default() });
    }
    if let Some(c) = &m.castling {
        section(c.file, RawVariant { castling: Some(c.val.clone()), ..Default::default() });
    }
    if let Some(a) = &m.ai {
        section(a.file, RawVariant { ai: Some(a.val.clone()), ..Default::default() });
    }
    out.push_str("\n# options (value in force; where the default was set)\n");
    for d in &v.rules.options.decls {
        let cur = v.rules.options.get(&d.name).map(|x| x.to_string()).unwrap_or_default();
        let _ = writeln!(out, "# {} = {cur}  (default {}, declared in {}; allowed: {})", d.name, d.default, d.declared_in, d.ty.describe());
    }
    out
}
