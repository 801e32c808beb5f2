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

use crate::geometry::{CellError, Geometry, NONE};
use crate::piece::PieceCode;
use std::fmt::Write;

/// What a move does besides landing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MoveKind {
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
    /// The pie rule's swap (`[rules] pie`): every piece on the board changes owner (and, with
    /// `pie_mirror`, cell); written `swap`.
    Swap,
    /// A move like [`MoveKind::Normal`], after which a piece of `code` is placed on `at` (a
    /// two-part turn: Amazons' arrow); `letter`: 0 where the placed kind goes without saying
    /// (written `/g7`), else its symbol in upper case (a gated piece: written `/H@b1`).
    Then {
        code: PieceCode,
        at: u16,
        letter: u8,
    },
    /// A move like [`MoveKind::Normal`] whose piece is promoted to `code`, one of its
    /// promotion's choices (`letter`: its symbol in upper case, written `=Q` after the move);
    /// `stay`: the choice is the piece's own kind (declining to promote: UCI, USI and SAN write
    /// it with no letter, `g7g8`, as Fairy-Stockfish does).
    Promote {
        code: PieceCode,
        letter: u8,
        stay: bool,
    },
    /// Castling: the king goes from `from` to the move's one landing and the rook from
    /// `rook_from` to the cell the move's second slot holds ([`Move::castling`]); written `O-O`
    /// when the rook stands on the king's east (higher files), `O-O-O` on its west. `gate`: a
    /// piece placed from the hand on the cell the king or the rook leaves (`O-O/H@e1`).
    Castle {
        rook_from: u16,
        gate: Gate,
    },
    /// Sowing (mancala): the seeds of the pit `from` sown along the mover's track; written as
    /// the pit alone (`c1`).
    Sow,
}

/// A castling's gated piece: its code ([`PieceCode::EMPTY`]: none) and letter, the letter's
/// high bit set where it enters on the rook's cell rather than the king's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Gate {
    code: PieceCode,
    mark: u8,
}

impl Gate {
    pub(crate) const NONE: Gate = Gate { code: PieceCode::EMPTY, mark: 0 };
    const ON_ROOK: u8 = 0x80;
}

/// One decision: a move of one piece (possibly a capture chain of any length), leaving the
/// board, or a pass.
///
/// Sixteen bytes, `Copy`: moves are copied in every hot loop (lists, ordering, the search's
/// tables). A move of one landing holds everything in itself: its landing and what that landing
/// captures. A chain of two landings or more holds its last landing and names the rest by its
/// index in the process-wide chain table, where each distinct chain is stored once (see
/// there why a table of distinct chains and not an arena per move list).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) kind: MoveKind,
    pub(crate) from: u16,
    /// The number of landings.
    pub(crate) len: u16,
    /// The last landing ([`NONE`] without one).
    last: u16,
    /// With at most one landing, what it captures ([`NONE`]: nothing) and 0; with more, the
    /// chain's index in the table, low half then high half. (So equal moves are equal fields:
    /// the same chain has the same index.)
    slot: [u16; 2],
}

const _: () = assert!(std::mem::size_of::<Move>() <= 16);

impl Move {
    pub const PASS: Move = Move { kind: MoveKind::Pass, from: NONE, len: 0, last: NONE, slot: [NONE, 0] };
    /// The pie rule's swap.
    pub const SWAP: Move = Move { kind: MoveKind::Swap, from: NONE, len: 0, last: NONE, slot: [NONE, 0] };

    /// A step or slide to an empty cell.
    pub(crate) fn quiet(from: u16, to: u16) -> Move {
        Move { kind: MoveKind::Normal, from, len: 1, last: to, slot: [NONE, 0] }
    }

    /// A capture by landing on `to`.
    pub(crate) fn replace(from: u16, to: u16) -> Move {
        Move::capture_at(from, to, to)
    }

    /// A capture that lands on `to` and takes the piece on `victim` (en passant).
    pub(crate) fn capture_at(from: u16, to: u16, victim: u16) -> Move {
        Move { kind: MoveKind::Normal, from, len: 1, last: to, slot: [victim, 0] }
    }

    /// A piece of `code`, whose letter is `letter`, dropped on `to` (written `@to`, or `L@to`
    /// when `written`).
    pub(crate) fn drop(code: PieceCode, letter: u8, written: bool, to: u16) -> Move {
        let mut m = Move::quiet(NONE, to);
        m.kind = MoveKind::Drop { code, letter, written };
        m
    }

    /// `self`, after which a piece of `code` is placed on `at`.
    pub(crate) fn then_place(mut self, code: PieceCode, at: u16) -> Move {
        self.kind = MoveKind::Then { code, at, letter: 0 };
        self
    }

    /// `self` (a move of one piece, or castling) with a piece of `code` (upper-case symbol
    /// `letter`) placed from the hand on `at`, the cell its piece (or castling's rook) leaves.
    pub(crate) fn gate(mut self, code: PieceCode, letter: u8, at: u16) -> Move {
        self.kind = match self.kind {
            MoveKind::Castle { rook_from, .. } => {
                let mark = if at == rook_from { letter | Gate::ON_ROOK } else { letter };
                MoveKind::Castle { rook_from, gate: Gate { code, mark } }
            }
            _ => MoveKind::Then { code, at, letter },
        };
        self
    }

    /// The piece a move places from the hand on a gate: its code, cell and upper-case letter.
    #[inline]
    pub(crate) fn gated(&self) -> Option<(PieceCode, u16, u8)> {
        match self.kind {
            MoveKind::Then { code, at, letter } if letter != 0 => Some((code, at, letter)),
            MoveKind::Castle { rook_from, gate } if !gate.code.is_empty() => {
                let at = if gate.mark & Gate::ON_ROOK != 0 { rook_from } else { self.from };
                Some((gate.code, at, gate.mark & !Gate::ON_ROOK))
            }
            _ => None,
        }
    }

    /// The move without its gated piece (itself when it gates none).
    pub(crate) fn without_gate(&self) -> Move {
        let mut plain = *self;
        match self.kind {
            MoveKind::Castle { rook_from, .. } => plain.kind = MoveKind::Castle { rook_from, gate: Gate::NONE },
            MoveKind::Then { letter, .. } if letter != 0 => plain.kind = MoveKind::Normal,
            _ => {}
        }
        plain
    }

    /// A castling's rook: where it stands and where it lands.
    #[inline]
    pub(crate) fn castling(&self) -> Option<(u16, u16)> {
        match self.kind {
            MoveKind::Castle { rook_from, .. } => Some((rook_from, self.slot[1])),
            _ => None,
        }
    }

    /// `self`, promoting its piece to `code` (written `=` and `letter` after the move).
    pub(crate) fn promote_to(mut self, code: PieceCode, letter: u8) -> Move {
        self.kind = MoveKind::Promote { code, letter, stay: false };
        self
    }

    /// The promotion choice that keeps the piece's own kind `code` (declining to promote).
    pub(crate) fn stay_as(mut self, code: PieceCode, letter: u8) -> Move {
        self.kind = MoveKind::Promote { code, letter, stay: true };
        self
    }

    /// Castling: the king from `king` to `king_to`, the rook from `rook_from` to `rook_to`.
    pub(crate) fn castle(king: u16, king_to: u16, rook_from: u16, rook_to: u16) -> Move {
        let mut m = Move::quiet(king, king_to);
        m.kind = MoveKind::Castle { rook_from, gate: Gate::NONE };
        // (A move of one landing holds no chain: the second slot is free.)
        m.slot[1] = rook_to;
        m
    }

    /// Whether a castling goes towards the east (`O-O`): its rook stands on a higher file of
    /// the king's rank, so at a higher cell index.
    pub(crate) fn castles_east(&self) -> Option<bool> {
        match self.kind {
            MoveKind::Castle { rook_from, .. } => Some(rook_from > self.from),
            _ => None,
        }
    }

    /// The kind a promotion with a choice makes the piece.
    #[inline]
    pub(crate) fn promoted(&self) -> Option<PieceCode> {
        match self.kind {
            MoveKind::Promote { code, .. } => Some(code),
            _ => None,
        }
    }

    /// The piece a two-part turn places after the move, and where (a gated piece too).
    #[inline]
    pub(crate) fn placed(&self) -> Option<(PieceCode, u16)> {
        match self.kind {
            MoveKind::Then { code, at, .. } => Some((code, at)),
            MoveKind::Castle { .. } => self.gated().map(|(code, at, _)| (code, at)),
            _ => None,
        }
    }

    /// The code of the piece a drop places.
    #[inline]
    pub(crate) fn dropped(&self) -> Option<PieceCode> {
        match self.kind {
            MoveKind::Drop { code, .. } => Some(code),
            _ => None,
        }
    }

    /// Sowing the pit `from` (`[sowing]`).
    pub(crate) fn sow(from: u16) -> Move {
        Move { kind: MoveKind::Sow, from, len: 0, last: NONE, slot: [NONE, 0] }
    }

    pub(crate) fn off(from: u16, dir: u8) -> Move {
        Move { kind: MoveKind::Off { dir }, from, len: 0, last: NONE, slot: [NONE, 0] }
    }

    /// A move along `landings`, capturing `victims[i]` (or nothing: `NONE`) at landing `i`.
    ///
    /// # Panics
    /// When the two lists differ in length or hold more than 65,535 landings (callers bound
    /// them by the board's cells).
    pub(crate) fn along(from: u16, landings: &[u16], victims: &[u16]) -> Move {
        assert_eq!(landings.len(), victims.len(), "one victim entry per landing");
        let len = u16::try_from(landings.len()).expect("at most one landing per cell");
        match landings {
            [] => Move { len: 0, last: NONE, ..Move::quiet(from, NONE) },
            [to] => Move::capture_at(from, *to, victims[0]),
            [.., last] => {
                let i = chains::intern(landings, victims);
                Move { kind: MoveKind::Normal, from, len, last: *last, slot: [i as u16, (i >> 16) as u16] }
            }
        }
    }

    /// The table's entry of a chain of two landings or more: its landings, then its victims.
    #[inline]
    fn chain(&self) -> &'static [u16] {
        chains::get(self.slot[0] as u32 | (self.slot[1] as u32) << 16)
    }

    /// The captured cell (or [`NONE`]) at each landing.
    #[inline(always)]
    pub(crate) fn victim_slots(&self) -> &[u16] {
        let n = self.len as usize;
        if n <= 1 { &self.slot[..n] } else { &self.chain()[n..] }
    }

    #[inline]
    pub(crate) fn is_capture(&self) -> bool {
        // (Most moves have one landing: its slot is read alone.)
        if self.len <= 1 { self.len == 1 && self.slot[0] != NONE } else { self.victim_slots().iter().any(|&v| v != NONE) }
    }

    /// The number of pieces captured.
    #[inline]
    pub fn captures(&self) -> usize {
        if self.len <= 1 {
            usize::from(self.len == 1 && self.slot[0] != NONE)
        } else {
            self.victim_slots().iter().filter(|&&v| v != NONE).count()
        }
    }

    /// The one landing's captured cell ([`NONE`]: nothing), where the move has one landing
    /// (read without the chain table).
    #[inline]
    pub(crate) fn single(&self) -> Option<(u16, u16)> {
        (self.len == 1).then_some((self.last, self.slot[0]))
    }

    /// The landing cell, if the piece stays on the board.
    #[inline]
    pub(crate) fn to(&self) -> Option<u16> {
        if matches!(self.kind, MoveKind::Off { .. } | MoveKind::Pass | MoveKind::Swap | MoveKind::Sow) || self.len == 0 {
            None
        } else {
            Some(self.last)
        }
    }

    /// The landing of a move with one (what [`Move::landings`] holds then).
    #[inline(always)]
    pub(crate) fn only_landing(&self) -> u16 {
        debug_assert_eq!(self.len, 1);
        self.last
    }

    /// The landings, in order (a chain's come from the table).
    #[inline(always)]
    pub fn landings(&self) -> &[u16] {
        match self.len {
            0 => &[],
            1 => std::slice::from_ref(&self.last),
            n => &self.chain()[..n as usize],
        }
    }

    /// The number of landings.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the move has no landing (a pass, or leaving the board).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub(crate) fn victims(&self) -> impl Iterator<Item = u16> + '_ {
        self.victim_slots().iter().copied().filter(|&v| v != NONE)
    }

    /// The canonical text of the move.
    pub fn text(&self, g: &Geometry) -> String {
        let mut s = String::new();
        self.write_text(g, &mut s);
        s
    }

    /// Appends [`Move::text`] to `s` (a caller that writes many keeps one buffer).
    pub(crate) fn write_text(&self, g: &Geometry, s: &mut String) {
        match self.kind {
            MoveKind::Pass => s.push_str("pass"),
            MoveKind::Swap => s.push_str("swap"),
            MoveKind::Sow => s.push_str(g.name(crate::geometry::Cell(self.from))),
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
                s.push_str(g.name(crate::geometry::Cell(self.last)));
            }
            MoveKind::Castle { .. } => s.push_str(if self.castles_east() == Some(true) { "O-O" } else { "O-O-O" }),
            MoveKind::Normal | MoveKind::Then { .. } | MoveKind::Promote { .. } => {
                s.push_str(g.name(crate::geometry::Cell(self.from)));
                let sep = if self.is_capture() { 'x' } else { '-' };
                for &c in self.landings() {
                    s.push(sep);
                    s.push_str(g.name(crate::geometry::Cell(c)));
                }
                if let MoveKind::Then { at, letter: 0, .. } = self.kind {
                    s.push('/');
                    s.push_str(g.name(crate::geometry::Cell(at)));
                }
                if let MoveKind::Promote { letter, .. } = self.kind {
                    s.push('=');
                    s.push(letter as char);
                }
            }
        }
        if let Some((_, at, letter)) = self.gated() {
            let _ = write!(s, "/{}@{}", letter as char, g.name(crate::geometry::Cell(at)));
        }
    }
}

/// A move as a person typed it: its cells and whether it is written as a capture, not yet
/// matched against the legal moves (which know what each capture takes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    Pass,
    /// `swap` (the pie rule).
    Swap,
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
    /// `O-O` (`east`) or `O-O-O`: castling (also written with zeros); `O-O/H@e1` with `then`,
    /// a piece gated on the cell the king or the rook leaves.
    Castle {
        east: bool,
        then: Option<Placed>,
    },
    /// `e2-e3`, or `c3xc5xe5` with `capture`; `d1-d7/g7` with `then`, the cell where the
    /// move's second part places a piece (`b1-c3/H@b1` or `b1-c3/H`: a piece gated on the cell
    /// left); `e7-e8=Q` with `promote`, the letter of the kind chosen (upper case).
    Path {
        from: u16,
        landings: Vec<u16>,
        capture: bool,
        then: Option<Placed>,
        promote: Option<char>,
    },
}

/// A move's second part as written after `/`: a cell (`/g7`), a kind's letter and a cell
/// (`/H@b1`), or a kind's letter alone (`/H`: the cell goes without saying).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub letter: Option<char>,
    pub at: Option<u16>,
}

impl Placed {
    /// Reads the text after `/`: `g7`, `H@b1`, `Hb1` (SAN's form) or `H`.
    pub(crate) fn parse(t: &str, g: &Geometry) -> Result<Placed, NotationError> {
        let letter_of = |l: &str| match l.chars().collect::<Vec<char>>()[..] {
            [c] if c.is_ascii_alphabetic() => Ok(Some(c.to_ascii_uppercase())),
            _ => Err(NotationError::Unreadable(t.to_string(), "a gated piece is written /H@b1 or /H, with one letter for its kind")),
        };
        Ok(match t.split_once('@') {
            Some((l, at)) => Placed { letter: letter_of(l)?, at: Some(g.parse_cell(&at.to_ascii_lowercase())?.0) },
            None => match g.parse_cell(&t.to_ascii_lowercase()) {
                Ok(c) => Placed { letter: None, at: Some(c.0) },
                Err(e) => match (letter_of(t), t.get(..1).map(letter_of), t.get(1..).map(|c| g.parse_cell(&c.to_ascii_lowercase()))) {
                    (Ok(l), _, _) => Placed { letter: l, at: None },
                    (_, Some(Ok(l)), Some(Ok(c))) => Placed { letter: l, at: Some(c.0) },
                    _ => return Err(e.into()),
                },
            },
        })
    }

    /// Whether a move's placed piece (`code`'s letter `letter`, 0 for one written by its cell
    /// alone, on `at`) is written so.
    pub(crate) fn names(&self, letter: u8, at: u16) -> bool {
        self.at.is_none_or(|c| c == at)
            && self.letter.is_none_or(|l| letter != 0 && l == letter as char)
            && (letter == 0) == self.letter.is_none()
    }

    fn text(&self, g: &Geometry) -> String {
        let at = self.at.map_or(String::new(), |c| g.name(crate::geometry::Cell(c)).to_string());
        match self.letter {
            Some(l) if self.at.is_some() => format!("/{l}@{at}"),
            Some(l) => format!("/{l}"),
            None => format!("/{at}"),
        }
    }
}

/// The longest position text or FEN boardlab reads (64 KiB: a 26×26 board whose every piece
/// carries attributes fits many times over).
pub(crate) const MAX_POSITION_TEXT: usize = 64 << 10;

/// The longest list of moves boardlab reads from one text (`--moves`; 1 MiB).
pub(crate) const MAX_MOVES_TEXT: usize = 1 << 20;

/// Refuses a text longer than `limit` bytes, before anything reads it: `what` is longer than
/// the limit, with both sizes.
///
/// # Errors
/// The text is too long.
pub(crate) fn check_length(what: &str, text: &str, limit: usize) -> Result<(), TooLong> {
    if text.len() > limit {
        return Err(TooLong { what: what.to_string(), len: text.len(), limit });
    }
    Ok(())
}

/// A text longer than boardlab reads ([`check_length`]): what it is, its size and the limit,
/// in bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} is {len} bytes long; the limit is {limit} bytes")]
pub(crate) struct TooLong {
    pub(crate) what: String,
    pub(crate) len: usize,
    pub(crate) limit: usize,
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
    /// A gated piece written without its cell, where the move leaves two (castling).
    #[error("`{}` may gate on either cell the castling leaves: write which, {}", crate::files::quote(.0), .1.join(" or "))]
    WhichGate(String, Vec<String>),
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
        if t == "swap" {
            return Ok(MoveText::Swap);
        }
        let (castle, gate) = t.split_once('/').unwrap_or((&t, ""));
        let castle_then = || if gate.is_empty() { Ok(None) } else { Placed::parse(gate, g).map(Some) };
        match castle {
            "o-o" | "0-0" => return Ok(MoveText::Castle { east: true, then: castle_then()? }),
            "o-o-o" | "0-0-0" => return Ok(MoveText::Castle { east: false, then: castle_then()? }),
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
        if let Some((letter, to)) = text.trim().split_once('@')
            && !t.contains('/')
        {
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
            Some((m, at)) => (m, Some(Placed::parse(at, g)?)),
        };
        let (capture, quiet) = (t.contains('x'), t.contains('-'));
        if capture && quiet {
            return Err(bad("a move uses either - or x between its cells"));
        }
        let parts: Vec<&str> = t.split(['x', '-']).collect();
        if parts.len() < 2 {
            // A cell alone: a move with no landing (a pit sown, `c1`).
            return match (g.parse_cell(parts[0]), then, promote) {
                (Ok(c), None, None) if !capture && !quiet => {
                    Ok(MoveText::Path { from: c.0, landings: vec![], capture: false, then: None, promote: None })
                }
                _ => Err(bad("expected from-to, fromxto(xto…), from-off or pass")),
            };
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
            MoveText::Swap => m.kind == MoveKind::Swap,
            MoveText::Castle { east, then } => {
                m.castles_east() == Some(*east)
                    && match (then, m.gated()) {
                        (None, None) => true,
                        (Some(p), Some((_, at, letter))) => p.names(letter, at),
                        _ => false,
                    }
            }
            MoveText::Off { from, dir } => m.kind == (MoveKind::Off { dir: *dir }) && m.from == *from,
            MoveText::Drop { letter, to } => match m.kind {
                MoveKind::Drop { letter: l, .. } => m.to() == Some(*to) && letter.is_none_or(|c| l as char == c),
                _ => false,
            },
            MoveText::Path { from, landings, capture, then, promote } => {
                let kind_ok = match (m.kind, then, promote) {
                    (MoveKind::Normal, None, None) => true,
                    (MoveKind::Then { at, letter, .. }, Some(t), None) => t.names(letter, at),
                    (MoveKind::Promote { letter, .. }, None, Some(c)) => letter as char == *c,
                    // Castling may also be written as the king's move, `e1-g1`.
                    (MoveKind::Castle { .. }, None, None) => true,
                    (MoveKind::Sow, None, None) => true,
                    _ => false,
                };
                kind_ok && m.from == *from && m.landings() == &landings[..] && m.is_capture() == *capture
            }
        }
    }

    /// The start cell, if the move has one.
    pub(crate) fn from(&self) -> Option<u16> {
        match self {
            MoveText::Pass | MoveText::Swap | MoveText::Drop { .. } | MoveText::Castle { .. } => None,
            MoveText::Off { from, .. } | MoveText::Path { from, .. } => Some(*from),
        }
    }

    /// The landings (none for a pass or leaving the board).
    pub(crate) fn landings(&self) -> &[u16] {
        match self {
            MoveText::Path { landings, .. } => landings,
            MoveText::Drop { to, .. } => std::slice::from_ref(to),
            _ => &[],
        }
    }

    /// Whether the text is written as a capture.
    pub(crate) fn is_capture(&self) -> bool {
        matches!(self, MoveText::Path { capture: true, .. })
    }

    /// The move this text names when each `x` landing captures what stands there (how scripts
    /// and position texts write their moves).
    ///
    /// A drop and castling are not among them (their pieces come from the rules): callers
    /// refuse [`MoveText::Drop`] and [`MoveText::Castle`] first; here they give a drop of no
    /// piece and a pass.
    pub(crate) fn capturing_at_landings(&self) -> Move {
        match self {
            MoveText::Pass | MoveText::Castle { .. } => Move::PASS,
            MoveText::Swap => Move::SWAP,
            MoveText::Drop { letter, to } => Move::drop(PieceCode::EMPTY, letter.map_or(0, |c| c as u8), letter.is_some(), *to),
            MoveText::Off { from, dir } => Move::off(*from, *dir),
            MoveText::Path { from, landings, capture, then, .. } => {
                let victims: Vec<u16> = landings.iter().map(|&c| if *capture { c } else { NONE }).collect();
                let m = Move::along(*from, landings, &victims);
                match then {
                    Some(Placed { at: Some(at), letter: None }) => m.then_place(PieceCode::EMPTY, *at),
                    _ => m,
                }
            }
        }
    }

    /// The text as the canonical move text writes it (lower case, `x` or `-` as typed).
    pub(crate) fn text(&self, g: &Geometry) -> String {
        match self {
            MoveText::Pass => "pass".into(),
            MoveText::Swap => "swap".into(),
            MoveText::Castle { east, then } => {
                format!("{}{}", if *east { "O-O" } else { "O-O-O" }, then.map_or(String::new(), |p| p.text(g)))
            }
            MoveText::Off { from, dir } => Move::off(*from, *dir).text(g),
            MoveText::Drop { .. } => self.capturing_at_landings().text(g),
            MoveText::Path { from, landings, capture, then, promote } => {
                let mut s = g.name(crate::geometry::Cell(*from)).to_string();
                for &c in landings {
                    s.push(if *capture { 'x' } else { '-' });
                    s.push_str(g.name(crate::geometry::Cell(c)));
                }
                if let Some(p) = then {
                    s.push_str(&p.text(g));
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

/// The table of capture chains of two landings or more: each distinct chain (its landings,
/// then what each landing captures) is stored once for the life of the process, and a [`Move`]
/// names it by index.
///
/// Why distinct chains in one table, and not each chain in its move list's own arena: a move
/// is `Copy` and outlives its list (a game's history, the search's killer and hash moves, a
/// record), so an index into a list could be read after the list changed or died. The table
/// grows only with the chains the rules can produce, not with the moves made: a study of
/// millions of games adds a chain the first time any game lists it (international draughts'
/// random self-play stored 1,899 distinct chains in its first 1,000 games, 4,514 in 4,000 and
/// 11,188 in 20,000: the growth slows as the games repeat chains, about 120 bytes each).
///
/// Reads take no lock: an entry is written once and never moves (segments of doubling size,
/// each allocated once). Each thread looks chains up in its own map first, so threads listing
/// the same chains do not contend for the writers' lock.
mod chains {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::hash::{BuildHasherDefault, Hasher};
    use std::sync::{LazyLock, Mutex, OnceLock};

    /// Segment `k` holds `FIRST << k` entries: the segments hold `u32::MAX - 63` in all.
    const FIRST: usize = 64;
    const SEGMENTS: usize = 26;
    const CAPACITY: usize = FIRST * ((1 << SEGMENTS) - 1);

    type Segment = Box<[OnceLock<Box<[u16]>>]>;
    type Index = HashMap<&'static [u16], u32, BuildHasherDefault<Fold>>;

    static STORED: [OnceLock<Segment>; SEGMENTS] = [const { OnceLock::new() }; SEGMENTS];
    static INDEX: LazyLock<Mutex<Index>> = LazyLock::new(Default::default);

    thread_local! {
        /// This thread's view of the index, and a buffer to build a key in.
        static LOCAL: RefCell<(Vec<u16>, Index)> = RefCell::new(Default::default());
    }

    /// A fast hash of a few small numbers (chains come from the rules, not from an adversary).
    #[derive(Default)]
    struct Fold(u64);

    impl Hasher for Fold {
        fn write(&mut self, bytes: &[u8]) {
            for c in bytes.chunks(8) {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                self.0 = (self.0.rotate_left(26) ^ u64::from_le_bytes(w)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
        }

        fn finish(&self) -> u64 {
            self.0
        }
    }

    /// Entry `i`'s segment and its place in it.
    pub(super) fn place(i: u32) -> (usize, usize) {
        let j = i as usize / FIRST + 1;
        let k = (usize::BITS - 1 - j.leading_zeros()) as usize;
        (k, i as usize - FIRST * ((1 << k) - 1))
    }

    /// The index of the chain with these landings and victims, stored now if it is new.
    ///
    /// # Panics
    /// When the table already holds `u32::MAX - 63` chains.
    pub(super) fn intern(landings: &[u16], victims: &[u16]) -> u32 {
        LOCAL.with_borrow_mut(|(key, seen)| {
            key.clear();
            key.extend_from_slice(landings);
            key.extend_from_slice(victims);
            if let Some(&i) = seen.get(&key[..]) {
                return i;
            }
            let i = shared(key);
            seen.insert(get(i), i);
            i
        })
    }

    /// [`intern`] in the table all threads share.
    #[cold]
    fn shared(key: &[u16]) -> u32 {
        let mut index = INDEX.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&i) = index.get(key) {
            return i;
        }
        let i = index.len();
        assert!(i < CAPACITY, "fewer than 4 billion distinct capture chains");
        let (k, at) = place(i as u32);
        let segment = STORED[k].get_or_init(|| (0..FIRST << k).map(|_| OnceLock::new()).collect());
        let stored: &'static [u16] = segment[at].get_or_init(|| key.into());
        index.insert(stored, i as u32);
        i as u32
    }

    /// The landings then the victims of chain `i`.
    ///
    /// # Panics
    /// When no chain `i` was stored (a move's index always names one).
    #[inline]
    pub(super) fn get(i: u32) -> &'static [u16] {
        let (k, at) = place(i);
        STORED[k].get().and_then(|s| s[at].get()).expect("a move names a stored chain")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g() -> Geometry {
        Geometry::new(8, 8, |_, _| true)
    }

    #[test]
    fn chains_are_stored_once_and_read_back_from_any_thread() {
        let m = Move::along(3, &[12, 21, 30], &[7, NONE, 25]);
        assert_eq!(m, Move::along(3, &[12, 21, 30], &[7, NONE, 25]));
        assert_eq!(m, std::thread::spawn(|| Move::along(3, &[12, 21, 30], &[7, NONE, 25])).join().unwrap());
        assert_ne!(m, Move::along(3, &[12, 21, 30], &[7, 16, 25]));
        assert_ne!(m, Move::along(3, &[12, 21, 31], &[7, NONE, 25]));
        assert_eq!((m.landings(), m.to(), m.captures(), m.is_capture()), (&[12u16, 21, 30][..], Some(30), 2, true));
        assert_eq!(m.victims().collect::<Vec<_>>(), [7, 25]);
        assert_eq!(m.single(), None);
        let quiet = Move::along(3, &[5, 7], &[NONE, NONE]);
        assert!(!quiet.is_capture() && quiet.captures() == 0);
        // One landing stays in the move itself.
        assert_eq!(Move::along(3, &[12], &[7]), Move::capture_at(3, 12, 7));
        assert_eq!(Move::capture_at(3, 12, 7).single(), Some((12, 7)));
    }

    #[test]
    fn chain_table_segments_meet_without_gaps() {
        assert_eq!([chains::place(0), chains::place(63), chains::place(64)], [(0, 0), (0, 63), (1, 0)]);
        assert_eq!([chains::place(191), chains::place(192)], [(1, 127), (2, 0)]);
        assert_eq!(chains::place(u32::MAX - 64), (25, (64 << 25) - 1));
        // Enough chains to fill the first segments: each reads back as written.
        let made: Vec<(Vec<u16>, Move)> =
            (0..300u16).map(|i| (vec![i, i + 1, 1000 + i], Move::along(9, &[i, i + 1, 1000 + i], &[NONE, i, NONE]))).collect();
        for (landings, m) in &made {
            assert_eq!(m.landings(), &landings[..]);
            assert_eq!(m.victims().collect::<Vec<_>>(), [landings[0]]);
        }
    }

    #[test]
    fn gated_pieces_are_written_after_the_move_and_read_back() {
        let g = g();
        let c = |n: &str| g.parse_cell(n).unwrap().0;
        let hawk = PieceCode::new(crate::piece::KindId(3), crate::piece::Player::FIRST);
        let knight = Move::quiet(c("b1"), c("c3")).gate(hawk, b'H', c("b1"));
        assert_eq!(knight.text(&g), "b1-c3/H@b1");
        assert_eq!(knight.gated(), Some((hawk, c("b1"), b'H')));
        assert_eq!(knight.without_gate(), Move::quiet(c("b1"), c("c3")));
        // Castling keeps its rook's cells and gates on the king's cell or the rook's.
        let castle = Move::castle(c("e1"), c("g1"), c("h1"), c("f1"));
        let (on_king, on_rook) = (castle.gate(hawk, b'H', c("e1")), castle.gate(hawk, b'H', c("h1")));
        assert_eq!((on_king.text(&g), on_rook.text(&g)), ("O-O/H@e1".to_string(), "O-O/H@h1".to_string()));
        assert_eq!((on_rook.castling(), on_rook.gated()), (Some((c("h1"), c("f1"))), Some((hawk, c("h1"), b'H'))));
        assert_eq!(on_rook.without_gate(), castle);
        assert_eq!(on_rook.placed(), Some((hawk, c("h1"))));
        // Each text names its own move: the letter and cell, the letter alone, SAN's `He1`.
        let names = |t: &str, m: &Move| MoveText::parse(t, &g).unwrap().names(m);
        assert!(names("b1-c3/H@b1", &knight) && names("b1-c3/h", &knight) && names("B1-C3/H@B1", &knight));
        assert!(!names("b1-c3", &knight) && !names("b1-c3/E", &knight) && !names("b1-c3/H@c1", &knight));
        assert!(!names("b1-c3/H", &Move::quiet(c("b1"), c("c3"))));
        assert!(names("O-O/H@e1", &on_king) && names("O-O/He1", &on_king) && !names("O-O/H@e1", &on_rook));
        assert!(names("O-O/H", &on_king) && names("O-O/H", &on_rook) && !names("O-O", &on_rook) && !names("O-O/H", &castle));
        // Amazons' arrow is still a cell alone, and a drop is not read from a gated text.
        assert_eq!(MoveText::parse("d1-d7/g7", &g).unwrap(), MoveText::parse("d1-d7/G7", &g).unwrap());
        assert!(matches!(MoveText::parse("b1-c3/H@b1", &g), Ok(MoveText::Path { .. })));
        assert!(MoveText::parse("b1-c3/HE", &g).is_err());
    }

    #[test]
    fn move_text_round_trip() {
        let g = g();
        let parse = |t: &str| MoveText::parse(t, &g);
        for t in ["e2-d3", "c3xc5xe5", "h2-off", "a2-off:w", "pass", "swap", "a1xa3", "@c3", "K@c3", "d1-d7/g7", "a1xa3/a1"] {
            let m = parse(t).unwrap();
            assert_eq!(m.capturing_at_landings().text(&g), t);
            assert!(m.names(&m.capturing_at_landings()));
        }
        assert_eq!(parse("E2-D3").unwrap().capturing_at_landings().text(&g), "e2-d3");
        assert!(parse("e2-d3-d4").is_err());
        assert!(parse("e2xd3-d4").is_err());
        assert!(parse("e9-e8").unwrap_err().to_string().contains("not on the board"));
        // A cell alone is a move with no landing (a pit sown); a cell off the board is not.
        assert!(matches!(parse("e2"), Ok(MoveText::Path { ref landings, .. }) if landings.is_empty()));
        assert!(parse("e9").is_err() && parse("e2x").is_err());
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
