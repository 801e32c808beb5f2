//! Numbered squares, as draughts writes its moves (PDN): `11-15` for a step, `22x13` or the
//! whole chain `22x15x6` for a capture, for a variant whose `[notation] moves = "numbered"`.
//!
//! Nothing here knows a game: every cell of the board is numbered (a draughts board declares
//! only its dark cells), from 1 on the back rank of the player `[notation] square_one` names
//! (by default the player who moves second, PDN's usual orientation), rank by rank towards the
//! other side, each rank from left to right as the other player sees the board (that player
//! sitting opposite). English draughts (`square_one = "first"`: its first player, PDN's Black,
//! holds 1–12) and international draughts (1–50, the second player's men on 1–20) both come out
//! as their PDN standards.

use crate::geometry::Cell;
use crate::geometry::Geometry;
use crate::notation::{Move, MoveKind};
use crate::rules::{MoveStyle, Ruleset};

/// The numbers of a board's cells.
#[derive(Clone, Debug)]
pub(crate) struct Numbering {
    /// cell → its number (from 1).
    number: Vec<u16>,
    /// number − 1 → cell.
    cell: Vec<u16>,
}

/// A numbered move as typed: its squares (as cells) and whether it is written as a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NumberedText {
    pub(crate) cells: Vec<u16>,
    pub(crate) capture: bool,
}

impl Numbering {
    /// The numbering of a variant that writes its moves numbered, else `None`.
    pub(crate) fn of(rules: &Ruleset) -> Option<Numbering> {
        match rules.move_style {
            MoveStyle::Numbered { square_one } => Some(Numbering::new(&rules.geometry, rules.forward[square_one])),
            _ => None,
        }
    }

    /// The numbering of `g` when square 1's player moves `forward` (+1: towards higher ranks,
    /// so its back rank is rank 1 and the player opposite sees file `a` on its right).
    pub(crate) fn new(g: &Geometry, forward: i8) -> Numbering {
        let (files, ranks) = (g.files as i32, g.ranks as i32);
        let mut cell = Vec::with_capacity(g.len());
        for r in 0..ranks {
            for f in 0..files {
                // Seen from the player opposite square 1's side.
                let (file, rank) = if forward > 0 { (files - 1 - f, r) } else { (f, ranks - 1 - r) };
                if let Some(c) = g.at(file, rank) {
                    cell.push(c.0);
                }
            }
        }
        let mut number = vec![0u16; g.len()];
        for (i, &c) in cell.iter().enumerate() {
            number[c as usize] = i as u16 + 1;
        }
        Numbering { number, cell }
    }

    /// The number of a cell.
    pub(crate) fn number(&self, cell: u16) -> u16 {
        self.number[cell as usize]
    }

    /// The cell of a number, if the board has it.
    pub(crate) fn cell(&self, number: u16) -> Option<u16> {
        self.cell.get(usize::from(number).checked_sub(1)?).copied()
    }

    /// A move's numbered text (`11-15`, `22x15x6`: every landing of a chain); `None` for a move
    /// numbers do not write (a drop, a pass, leaving the board, a second part).
    pub(crate) fn write(&self, m: &Move) -> Option<String> {
        if m.kind != MoveKind::Normal || m.is_empty() {
            return None;
        }
        let sep = if m.is_capture() { "x" } else { "-" };
        let mut s = self.number(m.from).to_string();
        for &c in m.landings() {
            s.push_str(sep);
            s.push_str(&self.number(c).to_string());
        }
        Some(s)
    }

    /// Reads a numbered text: numbers joined by `-` (one step) or by `x` or `:` (a capture:
    /// its start and end, or every landing). `None` when the text is not numbers of this board.
    pub(crate) fn parse(&self, text: &str) -> Option<NumberedText> {
        let t = text.trim();
        let capture = t.contains(['x', 'X', ':']);
        if capture && t.contains('-') {
            return None;
        }
        let parts: Vec<&str> = t.split(['x', 'X', ':', '-']).collect();
        if parts.len() < 2 || parts.len() > self.cell.len() + 1 || (!capture && parts.len() > 2) {
            return None;
        }
        let cells = parts
            .iter()
            .map(|p| (p.len() <= 5).then(|| p.parse::<u16>().ok()).flatten().and_then(|n| self.cell(n)))
            .collect::<Option<Vec<u16>>>()?;
        Some(NumberedText { cells, capture })
    }
}

impl NumberedText {
    /// Whether a legal move is written so: the same start, and either every landing or (two
    /// squares) the same end; a capture written with `x`.
    pub(crate) fn names(&self, m: &Move) -> bool {
        let (from, rest) = (self.cells[0], &self.cells[1..]);
        m.kind == MoveKind::Normal
            && m.from == from
            && m.is_capture() == self.capture
            && (m.landings() == rest || (rest.len() == 1 && m.to() == Some(rest[0])))
    }
}

/// The cell names of a numbered text, for messages (`11-15` is c3-d4).
pub(crate) fn describe(t: &NumberedText, g: &Geometry) -> String {
    let sep = if t.capture { "x" } else { "-" };
    t.cells.iter().map(|&c| g.name(Cell(c)).to_string()).collect::<Vec<_>>().join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// The PDN standards: English draughts' first player (PDN's Black) on 1–12 with 1 on the
    /// far right of its back rank as it sees the board from behind (g1 here); international
    /// draughts' first player (White) on 31–50, 46 on a1, 5 on j10 (the long diagonal).
    #[test]
    fn standard_numberings() {
        let v = Variant::load("checkers", &[]).unwrap();
        let n = Numbering::of(&v.rules).unwrap();
        let g = &v.rules.geometry;
        let at = |x: u16| g.name(Cell(n.cell(x).unwrap())).to_string();
        assert_eq!([at(1), at(4), at(5), at(11), at(15), at(29), at(32)], ["g1", "a1", "h2", "c3", "d4", "h8", "b8"]);
        assert_eq!(n.cell(33), None);
        assert_eq!(n.cell(0), None);
        let i = Variant::load("international", &[]).unwrap();
        let n = Numbering::of(&i.rules).unwrap();
        let g = &i.rules.geometry;
        let at = |x: u16| g.name(Cell(n.cell(x).unwrap())).to_string();
        assert_eq!([at(1), at(5), at(6), at(46), at(50)], ["b10", "j10", "a9", "a1", "i1"]);
    }

    #[test]
    fn reads_and_writes() {
        let v = Variant::load("checkers", &[]).unwrap();
        let n = Numbering::of(&v.rules).unwrap();
        let t = n.parse("11-15").unwrap();
        assert_eq!(describe(&t, &v.rules.geometry), "c3-d4");
        assert!(n.parse("22x15x6").unwrap().capture);
        assert!(n.parse("22:15").unwrap().capture);
        for bad in ["11", "11-15-19", "0-4", "33-1", "a-b", "11x15-19", "", "99999999-1"] {
            assert_eq!(n.parse(bad), None, "{bad}");
        }
        let m = v.start().clone();
        let mut pos = m;
        let mv = v.find_move(&mut pos, "11-15").unwrap();
        assert_eq!(mv.text(&v.rules.geometry), "c3-d4");
        assert_eq!(n.write(&mv).as_deref(), Some("11-15"));
    }
}
