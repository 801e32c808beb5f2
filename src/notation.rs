//! Moves and positions as text.
//!
//! Moves: `from-to` for a step or slide, `from` then `x` before each landing for a capture
//! (`c3xc5xe5`), `from-off` / `from-off:dir` for leaving the board, `@c3` for a piece dropped
//! (placed) on c3 (`K@c3` with the kind's letter when a player may drop more than one kind),
//! `/cell` after a move for the piece its form then places (Amazons' `d1-d7/g7`), `pass`. Parsing is strict on cells and lenient on case.
//!
//! Board text (setup rows and the position line) is read and written by `board_text`, and
//! the position line by `position_text`; its form:
//!
//! The position line: `BOARD SIDE PLY` then optional fields: `counters=name:white:black,…`,
//! `cont=PLAYER:TURN:TAG:NORMAL:MOVE,MOVE…`, `ep=CELL/CELL` (the cell open to an en passant
//! capture, the piece that passed it), `result="white wins: reason"`.

use crate::geometry::{CellError, Geometry, NONE, compass_name};
use crate::piece::PieceCode;
use std::fmt::Write;

/// How many landings a move holds in itself. A longer capture chain keeps its landings and
/// victims in a table shared by the whole process, so a chain has no length limit
/// while a move stays a small `Copy` value (moves are copied in every hot loop).
pub const INLINE_PATH: usize = 16;

/// What a move does besides landing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Steps, slides, leaps and captures: the piece lands on the last landing.
    Normal,
    /// Leaves the board; `dir` is a vector in the geometry's compass order, or 255 for none.
    Off {
        dir: u8,
    },
    /// A piece of `code` placed on the move's one landing (`from` is [`NONE`]); `letter` is its
    /// symbol in upper case, written before `@` when `written` (the mover may drop more than one
    /// kind) and accepted there in any case.
    Drop {
        code: PieceCode,
        letter: u8,
        written: bool,
    },
    Pass,
    /// A move like [`MoveKind::Normal`], after which a piece of `code` is placed on `at` (a
    /// two-part turn: Amazons' arrow).
    Then {
        code: PieceCode,
        at: u16,
    },
    /// A move like [`MoveKind::Normal`] whose piece is promoted to `code`, one of its
    /// promotion's choices (`letter`: its symbol in upper case, written `=Q` after the move).
    Promote {
        code: PieceCode,
        letter: u8,
    },
    /// Castling: the king goes from `from` to the move's one landing and the rook from
    /// `rook_from` to `rook_to`; written `O-O` when the rook stands on the king's east (higher
    /// files), `O-O-O` on its west.
    Castle {
        rook_from: u16,
        rook_to: u16,
    },
}

/// One decision: a move of one piece (possibly a capture chain of any length), leaving the
/// board, or a pass.
#[derive(Copy, Clone, Debug)]
pub struct Move {
    pub kind: MoveKind,
    pub from: u16,
    /// The number of landings.
    pub(crate) len: u16,
    /// The landings while `len <= INLINE_PATH`; for a longer chain `path[0]` and `path[1]` hold
    /// its index in the shared table and the entries here are not used.
    pub(crate) path: [u16; INLINE_PATH],
    /// The captured cell at each landing, or [`NONE`] (while `len <= INLINE_PATH`).
    pub(crate) victims: [u16; INLINE_PATH],
}

impl PartialEq for Move {
    /// The same move: kind, start, landings and what each landing captures (the entries past
    /// `len` are scratch space and not compared; long chains are stored once, so the same
    /// index is the same chain).
    fn eq(&self, o: &Move) -> bool {
        let n = self.len as usize;
        self.kind == o.kind
            && self.from == o.from
            && self.len == o.len
            && if n <= INLINE_PATH {
                self.path[..n] == o.path[..n] && self.victims[..n] == o.victims[..n]
            } else {
                self.path[..2] == o.path[..2]
            }
    }
}

impl Eq for Move {}

impl Move {
    pub const PASS: Move = Move { kind: MoveKind::Pass, from: NONE, len: 0, path: [NONE; INLINE_PATH], victims: [NONE; INLINE_PATH] };

    /// A step or slide to an empty cell.
    pub fn quiet(from: u16, to: u16) -> Move {
        let mut m = Move { kind: MoveKind::Normal, from, len: 1, path: [NONE; INLINE_PATH], victims: [NONE; INLINE_PATH] };
        m.path[0] = to;
        m
    }

    /// A capture by landing on `to`.
    pub fn replace(from: u16, to: u16) -> Move {
        let mut m = Move::quiet(from, to);
        m.victims[0] = to;
        m
    }

    /// A capture that lands on `to` and takes the piece on `victim` (en passant).
    pub fn capture_at(from: u16, to: u16, victim: u16) -> Move {
        let mut m = Move::quiet(from, to);
        m.victims[0] = victim;
        m
    }

    /// A piece of `code`, whose letter is `letter`, dropped on `to` (written `@to`, or `L@to`
    /// when `written`).
    pub fn drop(code: PieceCode, letter: u8, written: bool, to: u16) -> Move {
        let mut m = Move::quiet(NONE, to);
        m.kind = MoveKind::Drop { code, letter, written };
        m
    }

    /// `self`, after which a piece of `code` is placed on `at`.
    pub fn then_place(mut self, code: PieceCode, at: u16) -> Move {
        self.kind = MoveKind::Then { code, at };
        self
    }

    /// `self`, promoting its piece to `code` (written `=` and `letter` after the move).
    pub fn promote_to(mut self, code: PieceCode, letter: u8) -> Move {
        self.kind = MoveKind::Promote { code, letter };
        self
    }

    /// Castling: the king from `king` to `king_to`, the rook from `rook_from` to `rook_to`.
    pub fn castle(king: u16, king_to: u16, rook_from: u16, rook_to: u16) -> Move {
        let mut m = Move::quiet(king, king_to);
        m.kind = MoveKind::Castle { rook_from, rook_to };
        m
    }

    /// Whether a castling goes towards the east (`O-O`): its rook stands on a higher file of
    /// the king's rank, so at a higher cell index.
    pub fn castles_east(&self) -> Option<bool> {
        match self.kind {
            MoveKind::Castle { rook_from, .. } => Some(rook_from > self.from),
            _ => None,
        }
    }

    /// The kind a promotion with a choice makes the piece.
    #[inline]
    pub fn promoted(&self) -> Option<PieceCode> {
        match self.kind {
            MoveKind::Promote { code, .. } => Some(code),
            _ => None,
        }
    }

    /// The piece a two-part turn places after the move, and where.
    #[inline]
    pub fn placed(&self) -> Option<(PieceCode, u16)> {
        match self.kind {
            MoveKind::Then { code, at } => Some((code, at)),
            _ => None,
        }
    }

    /// The code of the piece a drop places.
    #[inline]
    pub fn dropped(&self) -> Option<PieceCode> {
        match self.kind {
            MoveKind::Drop { code, .. } => Some(code),
            _ => None,
        }
    }

    pub fn off(from: u16, dir: u8) -> Move {
        Move { kind: MoveKind::Off { dir }, from, len: 0, path: [NONE; INLINE_PATH], victims: [NONE; INLINE_PATH] }
    }

    /// A move along `landings`, capturing `victims[i]` (or nothing: `NONE`) at landing `i`.
    ///
    /// # Panics
    /// When the two lists differ in length or hold more than 65,535 landings (callers bound
    /// them by the board's cells).
    pub fn along(from: u16, landings: &[u16], victims: &[u16]) -> Move {
        assert_eq!(landings.len(), victims.len(), "one victim entry per landing");
        let len = u16::try_from(landings.len()).expect("at most one landing per cell");
        let mut m = Move::quiet(from, NONE);
        m.len = len;
        if landings.len() <= INLINE_PATH {
            m.path[..landings.len()].copy_from_slice(landings);
            m.victims[..victims.len()].copy_from_slice(victims);
        } else {
            let i = long::intern(landings, victims);
            m.path[0] = i as u16;
            m.path[1] = (i >> 16) as u16;
        }
        m
    }

    /// The shared table's entry of a long chain: its landings, then its victims.
    #[cold]
    fn long_entry(&self) -> &'static [u16] {
        long::get(self.path[0] as u32 | (self.path[1] as u32) << 16)
    }

    /// The captured cell (or [`NONE`]) at each landing.
    #[inline]
    fn victim_slots(&self) -> &[u16] {
        let n = self.len as usize;
        if n <= INLINE_PATH { &self.victims[..n] } else { &self.long_entry()[n..] }
    }

    #[inline]
    pub fn is_capture(&self) -> bool {
        // (Most moves have one landing: its slot is read alone.)
        if self.len == 1 { self.victims[0] != NONE } else { self.victim_slots().iter().any(|&v| v != NONE) }
    }

    /// The number of pieces captured.
    #[inline]
    pub fn captures(&self) -> usize {
        if self.len == 1 { usize::from(self.victims[0] != NONE) } else { self.victim_slots().iter().filter(|&&v| v != NONE).count() }
    }

    /// The landing cell, if the piece stays on the board.
    #[inline]
    pub fn to(&self) -> Option<u16> {
        let n = self.len as usize;
        if matches!(self.kind, MoveKind::Off { .. } | MoveKind::Pass) || n == 0 {
            None
        } else if n <= INLINE_PATH {
            Some(self.path[n - 1])
        } else {
            Some(self.long_entry()[n - 1])
        }
    }

    /// The landings, in order (a long chain's come from the shared table).
    #[inline]
    pub fn landings(&self) -> &[u16] {
        let n = self.len as usize;
        if n <= INLINE_PATH { &self.path[..n] } else { &self.long_entry()[..n] }
    }

    /// The number of landings.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the move has no landing (a pass, or leaving the board).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn victims(&self) -> impl Iterator<Item = u16> + '_ {
        self.victim_slots().iter().copied().filter(|&v| v != NONE)
    }

    /// The canonical text of the move.
    pub fn text(&self, g: &Geometry) -> String {
        let mut s = String::new();
        match self.kind {
            MoveKind::Pass => s.push_str("pass"),
            MoveKind::Off { dir } => {
                s.push_str(g.name(crate::geometry::Cell(self.from)));
                s.push_str("-off");
                if dir != 255 {
                    let v = crate::geometry::COMPASS[dir as usize].0;
                    let _ = write!(s, ":{v}");
                }
            }
            MoveKind::Drop { letter, written, .. } => {
                if written {
                    s.push(letter as char);
                }
                s.push('@');
                s.push_str(g.name(crate::geometry::Cell(self.path[0])));
            }
            MoveKind::Castle { .. } => s.push_str(if self.castles_east() == Some(true) { "O-O" } else { "O-O-O" }),
            MoveKind::Normal | MoveKind::Then { .. } | MoveKind::Promote { .. } => {
                s.push_str(g.name(crate::geometry::Cell(self.from)));
                let sep = if self.is_capture() { 'x' } else { '-' };
                for &c in self.landings() {
                    s.push(sep);
                    s.push_str(g.name(crate::geometry::Cell(c)));
                }
                if let Some((_, at)) = self.placed() {
                    s.push('/');
                    s.push_str(g.name(crate::geometry::Cell(at)));
                }
                if let MoveKind::Promote { letter, .. } = self.kind {
                    s.push('=');
                    s.push(letter as char);
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
    /// `@c3`, or `K@c3` with the letter of the kind dropped (upper case).
    Drop {
        letter: Option<char>,
        to: u16,
    },
    /// `O-O` (`east`) or `O-O-O`: castling (also written with zeros).
    Castle {
        east: bool,
    },
    /// `e2-e3`, or `c3xc5xe5` with `capture`; `d1-d7/g7` with `then`, the cell where the
    /// move's second part places a piece; `e7-e8=Q` with `promote`, the letter of the kind
    /// chosen (upper case).
    Path {
        from: u16,
        landings: Vec<u16>,
        capture: bool,
        then: Option<u16>,
        promote: Option<char>,
    },
}

/// The longest position text or FEN boardlab reads (64 KiB: a 26×26 board whose every piece
/// carries attributes fits many times over).
pub const MAX_POSITION_TEXT: usize = 64 << 10;

/// The longest list of moves boardlab reads from one text (`--moves`; 1 MiB).
pub const MAX_MOVES_TEXT: usize = 1 << 20;

/// Refuses a text longer than `limit` bytes, before anything reads it: `what` is longer than
/// the limit, with both sizes.
///
/// # Errors
/// The text is too long.
pub fn check_length(what: &str, text: &str, limit: usize) -> Result<(), TooLong> {
    if text.len() > limit {
        return Err(TooLong { what: what.to_string(), len: text.len(), limit });
    }
    Ok(())
}

/// A text longer than boardlab reads ([`check_length`]): what it is, its size and the limit,
/// in bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} is {len} bytes long; the limit is {limit} bytes")]
pub struct TooLong {
    pub what: String,
    pub len: usize,
    pub limit: usize,
}

/// Why a text is not a move of a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error(transparent)]
    Cell(#[from] CellError),
    #[error("`{}` is not a direction (n ne e se s sw w nw)", crate::files::quote(.0))]
    Direction(String),
    #[error("cannot read `{}`: {}", crate::files::quote(.0), .1)]
    Unreadable(String, &'static str),
    /// Read as SAN ([`crate::san`]), the text names several legal moves: their texts.
    #[error("`{}` could be any of {}: write the start cell's file or rank (Nbd2, R1e2)", crate::files::quote(.0), .1.join(", "))]
    Ambiguous(String, Vec<String>),
    /// Read as SAN with a piece's letter, the text names no legal move.
    #[error("`{}` names no legal move (read as SAN: a piece's letter, then its landing)", crate::files::quote(.0))]
    NoSanMove(String),
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
        match t.as_str() {
            "o-o" | "0-0" => return Ok(MoveText::Castle { east: true }),
            "o-o-o" | "0-0-0" => return Ok(MoveText::Castle { east: false }),
            _ => {}
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
        if let Some((letter, to)) = text.trim().split_once('@') {
            let letter = match letter.chars().collect::<Vec<char>>()[..] {
                [] => None,
                [c] if c.is_alphabetic() => Some(c.to_ascii_uppercase()),
                _ => return Err(bad("a drop is written @cell, or K@cell with one letter for the kind")),
            };
            return Ok(MoveText::Drop { letter, to: g.parse_cell(&to.to_ascii_lowercase())?.0 });
        }
        let (body, promote) = match t.split_once('=') {
            None => (t.as_str(), None),
            Some((m, k)) => match k.chars().collect::<Vec<char>>()[..] {
                [c] if c.is_alphabetic() => (m, Some(c.to_ascii_uppercase())),
                _ => return Err(bad("a promotion is written =K after the move, with one letter for the kind")),
            },
        };
        let (t, then) = match body.split_once('/') {
            None => (body, None),
            Some((m, at)) => (m, Some(g.parse_cell(at)?.0)),
        };
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
        if parts.len() - 1 > g.len() {
            // Each landing of a capture takes a piece, and no piece twice: a chain has at most
            // one landing per cell of the board.
            return Err(bad("more landings than the board has cells"));
        }
        let from = g.parse_cell(parts[0])?.0;
        let landings = parts[1..].iter().map(|p| g.parse_cell(p).map(|c| c.0)).collect::<Result<Vec<u16>, CellError>>()?;
        Ok(MoveText::Path { from, landings, capture, then, promote })
    }

    /// Whether a legal move is written this way.
    pub fn names(&self, m: &Move) -> bool {
        match self {
            MoveText::Pass => m.kind == MoveKind::Pass,
            MoveText::Castle { east } => m.castles_east() == Some(*east),
            MoveText::Off { from, dir } => m.kind == (MoveKind::Off { dir: *dir }) && m.from == *from,
            MoveText::Drop { letter, to } => match m.kind {
                MoveKind::Drop { letter: l, .. } => m.to() == Some(*to) && letter.is_none_or(|c| l as char == c),
                _ => false,
            },
            MoveText::Path { from, landings, capture, then, promote } => {
                let kind_ok = match (m.kind, then, promote) {
                    (MoveKind::Normal, None, None) => true,
                    (MoveKind::Then { at, .. }, Some(t), None) => at == *t,
                    (MoveKind::Promote { letter, .. }, None, Some(c)) => letter as char == *c,
                    // Castling may also be written as the king's move, `e1-g1`.
                    (MoveKind::Castle { .. }, None, None) => true,
                    _ => false,
                };
                kind_ok && m.from == *from && m.landings() == &landings[..] && m.is_capture() == *capture
            }
        }
    }

    /// The start cell, if the move has one.
    pub fn from(&self) -> Option<u16> {
        match self {
            MoveText::Pass | MoveText::Drop { .. } | MoveText::Castle { .. } => None,
            MoveText::Off { from, .. } | MoveText::Path { from, .. } => Some(*from),
        }
    }

    /// The landings (none for a pass or leaving the board).
    pub fn landings(&self) -> &[u16] {
        match self {
            MoveText::Path { landings, .. } => landings,
            MoveText::Drop { to, .. } => std::slice::from_ref(to),
            _ => &[],
        }
    }

    /// Whether the text is written as a capture.
    pub fn is_capture(&self) -> bool {
        matches!(self, MoveText::Path { capture: true, .. })
    }

    /// The move this text names when each `x` landing captures what stands there (how scripts
    /// and position texts write their moves).
    ///
    /// A drop and castling are not among them (their pieces come from the rules): callers
    /// refuse [`MoveText::Drop`] and [`MoveText::Castle`] first; here they give a drop of no
    /// piece and a pass.
    pub fn capturing_at_landings(&self) -> Move {
        match self {
            MoveText::Pass | MoveText::Castle { .. } => Move::PASS,
            MoveText::Drop { letter, to } => Move::drop(PieceCode::EMPTY, letter.map_or(0, |c| c as u8), letter.is_some(), *to),
            MoveText::Off { from, dir } => Move::off(*from, *dir),
            MoveText::Path { from, landings, capture, then, .. } => {
                let victims: Vec<u16> = landings.iter().map(|&c| if *capture { c } else { NONE }).collect();
                let m = Move::along(*from, landings, &victims);
                match then {
                    Some(at) => m.then_place(PieceCode::EMPTY, *at),
                    None => m,
                }
            }
        }
    }

    /// The text as the canonical move text writes it (lower case, `x` or `-` as typed).
    pub fn text(&self, g: &Geometry) -> String {
        match self {
            MoveText::Pass => "pass".into(),
            MoveText::Castle { east } => (if *east { "O-O" } else { "O-O-O" }).into(),
            MoveText::Off { from, dir } => Move::off(*from, *dir).text(g),
            MoveText::Drop { .. } => self.capturing_at_landings().text(g),
            MoveText::Path { from, landings, capture, then, promote } => {
                let mut s = g.name(crate::geometry::Cell(*from)).to_string();
                for &c in landings {
                    s.push(if *capture { 'x' } else { '-' });
                    s.push_str(g.name(crate::geometry::Cell(c)));
                }
                if let Some(at) = then {
                    s.push('/');
                    s.push_str(g.name(crate::geometry::Cell(*at)));
                }
                if let Some(k) = promote {
                    s.push('=');
                    s.push(*k);
                }
                s
            }
        }
    }
}

/// The table of capture chains longer than [`INLINE_PATH`]: each distinct chain is stored once
/// for the life of the process (they are rare: a move of 17 captures or more), so a [`Move`]
/// names it by index and stays `Copy`.
mod long {
    use std::collections::HashMap;
    use std::sync::{OnceLock, RwLock};

    #[derive(Default)]
    struct Table {
        chains: Vec<&'static [u16]>,
        index: HashMap<&'static [u16], u32>,
    }

    fn table() -> &'static RwLock<Table> {
        static TABLE: OnceLock<RwLock<Table>> = OnceLock::new();
        TABLE.get_or_init(Default::default)
    }

    /// The index of the chain with these landings and victims, stored now if it is new.
    pub(super) fn intern(landings: &[u16], victims: &[u16]) -> u32 {
        let entry: Vec<u16> = landings.iter().chain(victims).copied().collect();
        if let Some(&i) = table().read().unwrap_or_else(|e| e.into_inner()).index.get(&entry[..]) {
            return i;
        }
        let mut t = table().write().unwrap_or_else(|e| e.into_inner());
        if let Some(&i) = t.index.get(&entry[..]) {
            return i;
        }
        let i = u32::try_from(t.chains.len()).expect("fewer than 4 billion distinct long chains");
        // Stored for the life of the process: moves are `Copy` and may be kept anywhere.
        let stored: &'static [u16] = Box::leak(entry.into_boxed_slice());
        t.chains.push(stored);
        t.index.insert(stored, i);
        i
    }

    /// The landings then the victims of chain `i`.
    pub(super) fn get(i: u32) -> &'static [u16] {
        table().read().unwrap_or_else(|e| e.into_inner()).chains[i as usize]
    }
}

/// The compass index of a unit vector, or 255.
pub fn compass_index(v: (i8, i8)) -> u8 {
    compass_name(v).and_then(|n| crate::geometry::COMPASS.iter().position(|(c, _)| *c == n)).map_or(255, |i| i as u8)
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
        for t in ["e2-d3", "c3xc5xe5", "h2-off", "a2-off:w", "pass", "a1xa3", "@c3", "K@c3", "d1-d7/g7", "a1xa3/a1"] {
            let m = parse(t).unwrap();
            assert_eq!(m.capturing_at_landings().text(&g), t);
            assert!(m.names(&m.capturing_at_landings()));
        }
        assert_eq!(parse("E2-D3").unwrap().capturing_at_landings().text(&g), "e2-d3");
        assert!(parse("e2-d3-d4").is_err());
        assert!(parse("e2xd3-d4").is_err());
        assert!(parse("e9-e8").unwrap_err().to_string().contains("not on the board"));
        assert!(parse("e2").is_err());
        assert!(parse("e2-e3/").is_err());
        assert!(parse("e2-e3/z9").is_err());
        assert!(parse("h2-off:up").is_err());
        assert_eq!(parse("k@C3").unwrap().text(&g), "K@c3");
        assert!(parse("@c9").is_err() && parse("KK@c3").is_err() && parse("1@c3").is_err());
        // `@c3` names a drop of any kind on c3; `K@c3` only the drop written with K.
        let k = Move::drop(PieceCode::EMPTY, b'K', true, 18);
        assert!(parse("@c3").unwrap().names(&k) && parse("K@c3").unwrap().names(&k) && !parse("Q@c3").unwrap().names(&k));
        // A capture text does not name the quiet move along the same cells, nor the reverse.
        assert!(!parse("a1xa3").unwrap().names(&parse("a1-a3").unwrap().capturing_at_landings()));
    }

    #[test]
    fn long_chains_are_whole_moves() {
        // A chain longer than a move holds in itself: stored once, equal by content.
        let g = Geometry::new(26, 26, |_, _| true);
        let landings: Vec<u16> = (0..40).map(|i| i * 2).collect();
        let victims: Vec<u16> = landings.iter().map(|c| c + 1).collect();
        let a = Move::along(500, &landings, &victims);
        let b = Move::along(500, &landings.clone(), &victims.clone());
        assert_eq!(a, b);
        assert_eq!((a.landings(), a.captures(), a.to()), (&landings[..], 40, Some(78)));
        assert_eq!(a.victims().collect::<Vec<_>>(), victims);
        let mut other = victims.clone();
        other[39] = 3;
        assert_ne!(a, Move::along(500, &landings, &other));
        let text = a.text(&g);
        let parsed = MoveText::parse(&text, &g).unwrap();
        assert_eq!(parsed.text(&g), text);
        assert!(parsed.names(&a));
        // At most one landing per cell of the board.
        let g = Geometry::new(2, 1, |_, _| true);
        assert!(MoveText::parse("a1xb1xa1xb1", &g).unwrap_err().to_string().contains("more landings than the board has cells"));
    }
}
