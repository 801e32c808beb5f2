//! Moves and positions as text.
//!
//! Moves: `from-to` for a step or slide, `from` then `x` before each landing for a capture
//! (`c3xc5xe5`), `from-off` / `from-off:dir` for leaving the board, `pass`. Parsing is strict on
//! cells and lenient on case.
//!
//! Board text (setup rows and the position line): ranks from the top, separated by `/` or line
//! breaks; in a rank, one mark per existing cell from file `a`: a piece symbol (optionally
//! followed by `[v,…]`, its attribute values), `.` for an empty cell, or a number for that many
//! empty cells.
//!
//! The position line: `BOARD SIDE PLY` then optional fields: `counters=name:white:black,…`,
//! `cont=PLAYER:TURN:TAG:NORMAL:MOVE,MOVE…`, `result="white wins: reason"`.

use crate::geometry::{CellError, Geometry, NONE, compass_name};
use crate::piece::PieceCode;
use std::fmt::Write;

/// The longest capture chain a move can hold.
pub const MAX_PATH: usize = 16;

/// What a move does besides landing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Steps, slides, leaps and captures: the piece lands on `path[len-1]`.
    Normal,
    /// Leaves the board; `dir` is a vector in the geometry's compass order, or 255 for none.
    Off {
        dir: u8,
    },
    Pass,
}

/// One decision: a move of one piece (possibly a capture chain), leaving the board, or a pass.
#[derive(Copy, Clone, Debug)]
pub struct Move {
    pub kind: MoveKind,
    pub from: u16,
    pub len: u8,
    pub path: [u16; MAX_PATH],
    /// The captured cell at each landing, or [`NONE`].
    pub victims: [u16; MAX_PATH],
}

impl PartialEq for Move {
    /// The same move: kind, start, landings and what each landing captures (the entries past
    /// `len` are scratch space and not compared).
    fn eq(&self, o: &Move) -> bool {
        self.kind == o.kind
            && self.from == o.from
            && self.len == o.len
            && self.path[..self.len as usize] == o.path[..o.len as usize]
            && self.victims[..self.len as usize] == o.victims[..o.len as usize]
    }
}

impl Eq for Move {}

impl Move {
    pub const PASS: Move = Move { kind: MoveKind::Pass, from: NONE, len: 0, path: [NONE; MAX_PATH], victims: [NONE; MAX_PATH] };

    /// A step or slide to an empty cell.
    pub fn quiet(from: u16, to: u16) -> Move {
        let mut m = Move { kind: MoveKind::Normal, from, len: 1, path: [NONE; MAX_PATH], victims: [NONE; MAX_PATH] };
        m.path[0] = to;
        m
    }

    /// A capture by landing on `to`.
    pub fn replace(from: u16, to: u16) -> Move {
        let mut m = Move::quiet(from, to);
        m.victims[0] = to;
        m
    }

    pub fn off(from: u16, dir: u8) -> Move {
        Move { kind: MoveKind::Off { dir }, from, len: 0, path: [NONE; MAX_PATH], victims: [NONE; MAX_PATH] }
    }

    #[inline]
    pub fn is_capture(&self) -> bool {
        self.victims[..self.len as usize].iter().any(|&v| v != NONE)
    }

    /// The number of pieces captured.
    #[inline]
    pub fn captures(&self) -> usize {
        self.victims[..self.len as usize].iter().filter(|&&v| v != NONE).count()
    }

    /// The landing cell, if the piece stays on the board.
    #[inline]
    pub fn to(&self) -> Option<u16> {
        (self.kind == MoveKind::Normal && self.len > 0).then(|| self.path[self.len as usize - 1])
    }

    pub fn landings(&self) -> &[u16] {
        &self.path[..self.len as usize]
    }

    pub fn victims(&self) -> impl Iterator<Item = u16> + '_ {
        self.victims[..self.len as usize].iter().copied().filter(|&v| v != NONE)
    }

    /// The canonical text of the move.
    pub fn text(&self, g: &Geometry) -> String {
        let mut s = String::new();
        match self.kind {
            MoveKind::Pass => s.push_str("pass"),
            MoveKind::Off { dir } => {
                s.push_str(g.name(crate::Cell(self.from)));
                s.push_str("-off");
                if dir != 255 {
                    let v = crate::geometry::COMPASS[dir as usize].0;
                    let _ = write!(s, ":{v}");
                }
            }
            MoveKind::Normal => {
                s.push_str(g.name(crate::Cell(self.from)));
                let sep = if self.is_capture() { 'x' } else { '-' };
                for &c in self.landings() {
                    s.push(sep);
                    s.push_str(g.name(crate::Cell(c)));
                }
            }
        }
        s
    }
}

/// A move as a person typed it: its cells and whether it is written as a capture, not yet
/// matched against the legal moves (which know what each capture takes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    Pass,
    /// `e2-off` or `e2-off:n` (`dir` in the compass order, 255 for none).
    Off {
        from: u16,
        dir: u8,
    },
    /// `e2-e3`, or `c3xc5xe5` with `capture`.
    Path {
        from: u16,
        landings: Vec<u16>,
        capture: bool,
    },
}

/// Why a text is not a move of a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error(transparent)]
    Cell(#[from] CellError),
    #[error("`{0}` is not a direction (n ne e se s sw w nw)")]
    Direction(String),
    #[error("cannot read `{0}`: {1}")]
    Unreadable(String, &'static str),
}

impl MoveText {
    /// Parses move text into its cells, without checking legality.
    ///
    /// # Errors
    /// The text is not a move of this board, with what is wrong.
    pub fn parse(text: &str, g: &Geometry) -> Result<MoveText, NotationError> {
        let t = text.trim().to_ascii_lowercase();
        let bad = |why: &'static str| NotationError::Unreadable(t.clone(), why);
        if t.is_empty() {
            return Err(NotationError::Empty);
        }
        if t == "pass" {
            return Ok(MoveText::Pass);
        }
        if let Some((from, rest)) = t.split_once("-off") {
            let from = g.parse_cell(from)?.0;
            let dir = match rest.strip_prefix(':') {
                None if rest.is_empty() => 255,
                None => return Err(bad("expected from-off or from-off:dir")),
                Some(d) => {
                    crate::geometry::COMPASS.iter().position(|(n, _)| *n == d).ok_or_else(|| NotationError::Direction(d.into()))? as u8
                }
            };
            return Ok(MoveText::Off { from, dir });
        }
        let (capture, quiet) = (t.contains('x'), t.contains('-'));
        if capture && quiet {
            return Err(bad("a move uses either - or x between its cells"));
        }
        let parts: Vec<&str> = t.split(['x', '-']).collect();
        if parts.len() < 2 {
            return Err(bad("expected from-to, fromxto(xto…), from-off or pass"));
        }
        if quiet && parts.len() > 2 {
            return Err(bad("a non-capturing move has one landing cell"));
        }
        if parts.len() - 1 > MAX_PATH {
            return Err(bad("more than 16 landings"));
        }
        let from = g.parse_cell(parts[0])?.0;
        let landings = parts[1..].iter().map(|p| g.parse_cell(p).map(|c| c.0)).collect::<Result<Vec<u16>, CellError>>()?;
        Ok(MoveText::Path { from, landings, capture })
    }

    /// Whether a legal move is written this way.
    pub fn names(&self, m: &Move) -> bool {
        match self {
            MoveText::Pass => m.kind == MoveKind::Pass,
            MoveText::Off { from, dir } => m.kind == (MoveKind::Off { dir: *dir }) && m.from == *from,
            MoveText::Path { from, landings, capture } => {
                m.kind == MoveKind::Normal && m.from == *from && m.landings() == &landings[..] && m.is_capture() == *capture
            }
        }
    }

    /// The start cell, if the move has one.
    pub fn from(&self) -> Option<u16> {
        match self {
            MoveText::Pass => None,
            MoveText::Off { from, .. } | MoveText::Path { from, .. } => Some(*from),
        }
    }

    /// The landings (none for a pass or leaving the board).
    pub fn landings(&self) -> &[u16] {
        match self {
            MoveText::Path { landings, .. } => landings,
            _ => &[],
        }
    }

    /// Whether the text is written as a capture.
    pub fn is_capture(&self) -> bool {
        matches!(self, MoveText::Path { capture: true, .. })
    }

    /// The move this text names when each `x` landing captures what stands there (how scripts
    /// and position texts write their moves).
    pub fn capturing_at_landings(&self) -> Move {
        match self {
            MoveText::Pass => Move::PASS,
            MoveText::Off { from, dir } => Move::off(*from, *dir),
            MoveText::Path { from, landings, capture } => {
                let mut m = Move::quiet(*from, NONE);
                m.len = landings.len() as u8;
                for (i, &c) in landings.iter().enumerate() {
                    m.path[i] = c;
                    if *capture {
                        m.victims[i] = c;
                    }
                }
                m
            }
        }
    }
}

/// The compass index of a unit vector, or 255.
pub fn compass_index(v: (i8, i8)) -> u8 {
    compass_name(v).and_then(|n| crate::geometry::COMPASS.iter().position(|(c, _)| *c == n)).map_or(255, |i| i as u8)
}

/// A board text that does not fit the board: which rank, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BoardTextError(pub String);

/// Parses board text (see the module docs) into board codes and attribute values.
///
/// `lookup` maps a symbol to a code; `kind_attrs` gives a code's (slot, initial value) list.
///
/// # Errors
/// A message naming the rank and what is wrong.
pub fn parse_board(
    g: &Geometry,
    text: &str,
    lookup: &dyn Fn(char) -> Option<PieceCode>,
    kind_attrs: &dyn Fn(PieceCode) -> Vec<(u8, i32)>,
    nattr: usize,
) -> Result<(Vec<PieceCode>, Vec<i32>), BoardTextError> {
    read_board(g, text, lookup, kind_attrs, nattr).map_err(BoardTextError)
}

fn read_board(
    g: &Geometry,
    text: &str,
    lookup: &dyn Fn(char) -> Option<PieceCode>,
    kind_attrs: &dyn Fn(PieceCode) -> Vec<(u8, i32)>,
    nattr: usize,
) -> Result<(Vec<PieceCode>, Vec<i32>), String> {
    let rows: Vec<&str> = text.split(['/', '\n']).map(str::trim).filter(|r| !r.is_empty()).collect();
    if rows.len() != g.ranks as usize {
        return Err(format!("expected {} ranks, found {}", g.ranks, rows.len()));
    }
    let mut board = vec![PieceCode::EMPTY; g.len()];
    let mut attrs = vec![0i32; g.len() * nattr];
    for (i, row) in rows.iter().enumerate() {
        let rank = g.ranks as usize - 1 - i;
        let cells: Vec<u16> = (0..g.files as i32).filter_map(|f| g.at(f, rank as i32)).map(|c| c.0).collect();
        let mut k = 0usize;
        let chars: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        let mut j = 0;
        while j < chars.len() {
            let ch = chars[j];
            if ch.is_ascii_digit() {
                let mut n = 0usize;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    n = n * 10 + chars[j].to_digit(10).unwrap() as usize;
                    j += 1;
                }
                k += n;
                continue;
            }
            if k >= cells.len() {
                return Err(format!("rank {} has more than its {} cells", rank + 1, cells.len()));
            }
            if ch == '.' {
                k += 1;
                j += 1;
                continue;
            }
            let code = lookup(ch).ok_or_else(|| format!("`{ch}` on rank {} is not a piece symbol", rank + 1))?;
            let c = cells[k] as usize;
            board[c] = code;
            for (slot, init) in kind_attrs(code) {
                attrs[c * nattr + slot as usize] = init;
            }
            j += 1;
            if j < chars.len() && chars[j] == '[' {
                let close = chars[j..].iter().position(|&x| x == ']').ok_or_else(|| format!("rank {}: `[` without `]`", rank + 1))? + j;
                let inner: String = chars[j + 1..close].iter().collect();
                let slots = kind_attrs(code);
                let vals: Vec<&str> = inner.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
                if vals.len() != slots.len() {
                    return Err(format!("rank {}: `{ch}` has {} attributes, {} given", rank + 1, slots.len(), vals.len()));
                }
                for ((slot, _), v) in slots.iter().zip(vals) {
                    attrs[c * nattr + *slot as usize] = v.parse().map_err(|_| format!("rank {}: `{v}` is not an integer", rank + 1))?;
                }
                j = close + 1;
            }
            k += 1;
        }
        if k != cells.len() {
            return Err(format!("rank {} has {} cells, {} given", rank + 1, cells.len(), k));
        }
    }
    Ok((board, attrs))
}

/// Writes board text: ranks from the top, `/` between them, runs of empty cells as numbers.
pub fn board_text(
    g: &Geometry,
    board: &[PieceCode],
    attrs: &[i32],
    nattr: usize,
    symbol: &dyn Fn(PieceCode) -> char,
    kind_attrs: &dyn Fn(PieceCode) -> Vec<(u8, i32)>,
) -> String {
    let mut s = String::new();
    for rank in (0..g.ranks as i32).rev() {
        let mut empty = 0;
        for f in 0..g.files as i32 {
            let Some(c) = g.at(f, rank) else { continue };
            let code = board[c.0 as usize];
            if code.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
                empty = 0;
            }
            s.push(symbol(code));
            let slots = kind_attrs(code);
            if !slots.is_empty() && slots.iter().any(|&(slot, init)| attrs[c.0 as usize * nattr + slot as usize] != init) {
                let vals: Vec<String> = slots.iter().map(|&(slot, _)| attrs[c.0 as usize * nattr + slot as usize].to_string()).collect();
                let _ = write!(s, "[{}]", vals.join(","));
            }
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Splits a position line into whitespace-separated fields, keeping `"…"` together.
pub fn split_fields(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for ch in text.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                cur.push(ch);
            }
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g() -> Geometry {
        Geometry::new(8, 8, |_, _| true)
    }

    #[test]
    fn move_text_round_trip() {
        let g = g();
        let parse = |t: &str| MoveText::parse(t, &g);
        for t in ["e2-d3", "c3xc5xe5", "h2-off", "a2-off:w", "pass", "a1xa3"] {
            let m = parse(t).unwrap();
            assert_eq!(m.capturing_at_landings().text(&g), t);
            assert!(m.names(&m.capturing_at_landings()));
        }
        assert_eq!(parse("E2-D3").unwrap().capturing_at_landings().text(&g), "e2-d3");
        assert!(parse("e2-d3-d4").is_err());
        assert!(parse("e2xd3-d4").is_err());
        assert!(parse("e9-e8").unwrap_err().to_string().contains("not on the board"));
        assert!(parse("e2").is_err());
        assert!(parse("h2-off:up").is_err());
        // A capture text does not name the quiet move along the same cells, nor the reverse.
        assert!(!parse("a1xa3").unwrap().names(&parse("a1-a3").unwrap().capturing_at_landings()));
    }

    #[test]
    fn board_round_trip() {
        use crate::piece::{KindId, Player};
        let g = Geometry::new(3, 2, |_, _| true);
        let (white, black) = (PieceCode::new(KindId(0), Player::FIRST), PieceCode::new(KindId(0), Player::SECOND));
        let lookup = |c: char| match c {
            'P' => Some(white),
            'p' => Some(black),
            _ => None,
        };
        let attrs = |_c: PieceCode| vec![(0u8, 1i32)];
        let (b, a) = parse_board(&g, "p2/.P[3].", &lookup, &attrs, 1).unwrap();
        let e = PieceCode::EMPTY;
        assert_eq!(b, vec![e, white, e, black, e, e]);
        assert_eq!(a[1], 3);
        let sym = |c: PieceCode| if c == white { 'P' } else { 'p' };
        assert_eq!(board_text(&g, &b, &a, 1, &sym, &attrs), "p2/1P[3]1");
        assert!(parse_board(&g, "p2/4", &lookup, &attrs, 1).is_err());
        assert!(parse_board(&g, "p2", &lookup, &attrs, 1).is_err());
        assert!(parse_board(&g, "q2/3", &lookup, &attrs, 1).is_err());
    }

    #[test]
    fn fields() {
        assert_eq!(split_fields("a b result=\"x y\""), vec!["a", "b", "result=\"x y\""]);
    }
}
