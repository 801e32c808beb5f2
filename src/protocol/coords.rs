//! Moves in UCI's coordinate form, for every variant: the start cell then the landing cell
//! (`e2e4`), a promotion's letter in lower case after them (`e7e8q`), castling as the king's
//! move (`e1g1`), a drop as the kind's letter, `@` and the cell (`P@e4`), a pass as `0000`
//! (read also as Fairy-Stockfish writes it, a move from a cell to itself: `e2e2`).
//!
//! Extensions for what UCI has no form for (documented in `docs/protocols.md`): a capture chain
//! writes every landing in order (`c3e5g7`), a two-part turn adds a comma and the second part
//! from the landing (`d1d7,d7g7`: Amazons' arrow, Fairy-Stockfish's form), leaving the board is
//! written as boardlab writes it (`e2-off`).
//!
//! USI's dialect ([`Dialect::Usi`], `boardlab usi` and `usi:PATH` players) has the same shapes
//! with shogi's cell names: files numbered from the right, ranks lettered from the top
//! (`7g7f`), `P*5e` for a drop and `+` after a promotion (`2b3c+`).
//!
//! The translation back ([`find`]) matches the text against the legal moves' forms, so both
//! directions are one definition ([`text`]) and cannot drift apart.

use crate::geometry::Cell;
use crate::geometry::Geometry;
use crate::notation::{Move, MoveKind};
use crate::rules::Ruleset;
use crate::state::Position;

/// Which protocol's coordinates: UCI's cell names (`e2`, `a10`), or USI's, files numbered from
/// the right and ranks lettered from the top as the first player sees the board (`7g`), with
/// `*` for a drop (`P*5e`) and `+` for a promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Usi,
}

impl Dialect {
    /// A cell's name in this dialect.
    pub(crate) fn cell(self, c: u16, g: &Geometry) -> String {
        match self {
            Dialect::Uci => g.name(Cell(c)).to_string(),
            Dialect::Usi => {
                let (f, r) = g.coords(Cell(c));
                // Rank letters run out after `z` (a board of 27 ranks or more): the top ones
                // then repeat the last letter, and such moves do not read back.
                let rank = b'a'.saturating_add(g.ranks.saturating_sub(1 + r)).min(b'z');
                format!("{}{}", g.files - f, rank as char)
            }
        }
    }
}

/// The UCI form of a move (see the module documentation).
pub fn text(m: &Move, g: &Geometry) -> String {
    text_in(Dialect::Uci, m, g)
}

/// The form of a move in a dialect: [`text`] for UCI; for USI the same shape with USI's cell
/// names, `P*5e` for a drop and a `+` after a promotion.
pub(crate) fn text_in(d: Dialect, m: &Move, g: &Geometry) -> String {
    let name = |c: u16| d.cell(c, g);
    match m.kind {
        MoveKind::Pass => "0000".into(),
        // The pie rule's swap: the word, as Hex programs write it.
        MoveKind::Swap => "swap".into(),
        MoveKind::Off { .. } | MoveKind::Sow => m.text(g),
        MoveKind::Drop { letter, .. } => {
            let to = m.to().map(name).unwrap_or_default();
            let at = if d == Dialect::Usi { '*' } else { '@' };
            // USI writes a drop's piece in upper case whoever drops it.
            let letter = if d == Dialect::Usi { letter.to_ascii_uppercase() } else { letter };
            if letter.is_ascii_alphanumeric() { format!("{}{at}{to}", letter as char) } else { format!("{at}{to}") }
        }
        MoveKind::Normal | MoveKind::Then { .. } | MoveKind::Promote { .. } | MoveKind::Castle { .. } => {
            if let Some((_, at, letter)) = m.gated() {
                // Fairy-Stockfish's gating: the letter after the move (`b1c3h`); a gate on a
                // castling rook's cell names the rook's cell first (`h1e1h`).
                let l = (letter as char).to_ascii_lowercase();
                return match m.castling() {
                    Some((rook, _)) if at == rook => format!("{}{}{l}", name(rook), name(m.from)),
                    _ => format!("{}{l}", text_in(d, &m.without_gate(), g)),
                };
            }
            if let (Some((rook, _)), Some(to)) = (m.castling(), m.to())
                && g.coords(Cell(m.from)).0.abs_diff(g.coords(Cell(to)).0) <= 1
            {
                // A king's move of one cell (or none) would read as a step: the king takes its
                // rook instead (`f1h1`), as Fairy-Stockfish writes it.
                return format!("{}{}", name(m.from), name(rook));
            }
            let mut s = name(m.from);
            for &c in m.landings() {
                s.push_str(&name(c));
            }
            match m.kind {
                MoveKind::Then { at, .. } => {
                    s.push(',');
                    s.push_str(&m.to().map(name).unwrap_or_default());
                    s.push_str(&name(at));
                }
                // Declining to promote is the plain move.
                MoveKind::Promote { stay: true, .. } => {}
                MoveKind::Promote { .. } if d == Dialect::Usi => s.push('+'),
                MoveKind::Promote { letter, .. } => s.push((letter as char).to_ascii_lowercase()),
                _ => {}
            }
            s
        }
    }
}

/// Whether `m`, a move of `pos`, promotes its piece with no choice of kind (a shogi pawn
/// reaching the far rank): the kernel plays it as a plain move, with nothing to write for the
/// choice, but USI writes every promotion with `+` (`1d1e+`), as Fairy-Stockfish does.
pub(crate) fn promotes_alone(rules: &Ruleset, pos: &Position, m: &Move) -> bool {
    if m.kind != MoveKind::Normal || m.from as usize >= pos.board().len() {
        return false;
    }
    let code = pos.piece(m.from);
    !code.is_empty() && rules.pieces[code.index()].promote.as_ref().is_some_and(|p| p.choices.is_empty() && m.reaches(&rules.geometry, p))
}

/// [`text_in`] for a move of `pos`: in USI, a promotion with no choice of kind is written with
/// `+` too ([`promotes_alone`]).
pub(crate) fn text_at(d: Dialect, m: &Move, rules: &Ruleset, pos: &Position) -> String {
    let mut s = text_in(d, m, &rules.geometry);
    if d == Dialect::Usi && promotes_alone(rules, pos, m) {
        s.push('+');
    }
    s
}

/// [`find_in`] among the legal moves of `pos`: also reads a promotion with no choice of kind
/// written with USI's `+` (`1d1e+`, [`promotes_alone`]), and without it.
///
/// # Errors
/// As [`find`].
pub(crate) fn find_at(d: Dialect, text: &str, legal: &[Move], rules: &Ruleset, pos: &Position) -> Result<Move, MoveTextError> {
    let g = &rules.geometry;
    find_in(d, text, legal, g).or_else(|e| {
        let core = text.trim().strip_suffix('+').filter(|_| d == Dialect::Usi).ok_or_else(|| e.clone())?;
        legal.iter().find(|m| promotes_alone(rules, pos, m) && text_in(d, m, g).eq_ignore_ascii_case(core)).copied().ok_or(e)
    })
}

/// The legal move `uci` names: the first of `legal` whose [`text`] is `uci` (letters in any
/// case), or a castling written as the king taking its own rook (`e1h1`, as Chess960 GUIs
/// send it).
///
/// # Errors
/// No legal move is written so: the text quoted, and why.
pub fn find(uci: &str, legal: &[Move], g: &Geometry) -> Result<Move, MoveTextError> {
    find_in(Dialect::Uci, uci, legal, g)
}

/// [`find`] in a dialect.
///
/// # Errors
/// As [`find`].
pub fn find_in(d: Dialect, text: &str, legal: &[Move], g: &Geometry) -> Result<Move, MoveTextError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveTextError::Empty);
    }
    let name = |c: u16| d.cell(c, g);
    let castles_onto_rook = |m: &Move| matches!(m.kind, MoveKind::Castle { rook_from, .. } if format!("{}{}", name(m.from), name(rook_from)).eq_ignore_ascii_case(t));
    legal
        .iter()
        .find(|m| text_in(d, m, g).eq_ignore_ascii_case(t))
        .or_else(|| legal.iter().find(|m| castles_onto_rook(m)))
        // Fairy-Stockfish writes a pass as a move from a cell to itself (janggi's `e2e2`).
        .or_else(|| legal.iter().find(|m| **m == Move::PASS && to_itself(t, &name, g.len())))
        .copied()
        .ok_or_else(|| MoveTextError::NotLegal(crate::files::quote(t)))
}

/// Whether `t` names one cell twice (`e2e2`).
fn to_itself(t: &str, name: &impl Fn(u16) -> String, cells: usize) -> bool {
    if !t.is_ascii() || !t.len().is_multiple_of(2) {
        return false;
    }
    let (a, b) = t.split_at(t.len() / 2);
    a.eq_ignore_ascii_case(b) && (0..cells as u16).any(|c| name(c).eq_ignore_ascii_case(a))
}

/// Why a protocol's move text names no legal move ([`find`]); the text quoted, shortened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    #[error("empty move")]
    Empty,
    #[error("`{0}` is not a legal move here")]
    NotLegal(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai;
    use crate::state::Position;
    use crate::variant::Variant;
    use rand::RngExt;

    fn legal(v: &Variant, pos: &mut Position) -> Vec<Move> {
        let mut l = Vec::new();
        v.legal_moves(pos, &mut l).unwrap();
        l
    }

    /// Plays `text` (boardlab's notation) and returns the UCI form of the move.
    fn uci_of(v: &Variant, pos: &mut Position, t: &str) -> String {
        let m = v.find_move(pos, t).unwrap();
        text(&m, &v.rules.geometry)
    }

    #[test]
    fn chess_forms_are_ucis() {
        let v = Variant::load("chess", &[]).unwrap();
        let mut pos = v.start();
        assert_eq!(uci_of(&v, &mut pos, "e2-e4"), "e2e4");
        assert_eq!(uci_of(&v, &mut pos, "g1-f3"), "g1f3");
        // Castling is the king's two-square move; promotion a lower-case letter.
        let mut p = crate::fen::read(&v.rules, "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(uci_of(&v, &mut p, "O-O"), "e1g1");
        assert_eq!(uci_of(&v, &mut p, "O-O-O"), "e1c1");
        assert_eq!(uci_of(&v, &mut p, "b7xa8=N"), "b7a8n");
        assert_eq!(uci_of(&v, &mut p, "b7-b8=Q"), "b7b8q");
        let l = legal(&v, &mut p);
        let g = &v.rules.geometry;
        assert_eq!(find("e1g1", &l, g).unwrap().text(g), "O-O");
        assert_eq!(find("E1H1", &l, g).unwrap().text(g), "O-O", "king takes rook");
        assert_eq!(find("b7b8Q", &l, g).unwrap().text(g), "b7-b8=Q");
        assert!(find("b7b8", &l, g).is_err(), "a promotion names its piece");
        assert!(find("e2e4", &l, g).unwrap_err().to_string().contains("e2e4"));
        assert!(find("", &l, g).is_err());
    }

    #[test]
    fn gating_is_written_as_fairy_stockfish_writes_it() {
        let v = Variant::load("seirawan", &[]).unwrap();
        let mut p = crate::fen::read(&v.rules, "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 0 1").unwrap();
        let g = &v.rules.geometry;
        assert_eq!(uci_of(&v, &mut p, "O-O/H@e1"), "e1g1h");
        assert_eq!(uci_of(&v, &mut p, "O-O/E@h1"), "h1e1e");
        assert_eq!(uci_of(&v, &mut p, "O-O-O/H@a1"), "a1e1h");
        assert_eq!(uci_of(&v, &mut p, "a1-a5/E@a1"), "a1a5e");
        let l = legal(&v, &mut p);
        assert_eq!(find("h1e1e", &l, g).unwrap().text(g), "O-O/E@h1");
        assert_eq!(find("E1G1H", &l, g).unwrap().text(g), "O-O/H@e1");
        assert_eq!(find("e1h1", &l, g).unwrap().text(g), "O-O", "king takes rook, no gate");
        // A king castling one file: its step would read the same, so it takes its rook.
        let mut q = crate::fen::read(&v.rules, "4k3/8/8/8/8/8/8/5K1R[H] w K - 0 1").unwrap();
        assert_eq!(uci_of(&v, &mut q, "O-O"), "f1h1");
        assert_eq!(uci_of(&v, &mut q, "f1-g1"), "f1g1");
        assert_eq!(uci_of(&v, &mut q, "O-O/H@h1"), "h1f1h");
    }

    #[test]
    fn drops_and_passes() {
        let v = Variant::load("minishogi", &[]).unwrap();
        // After a capture, the captured piece is in hand: its drop is `L@cell`.
        let mut pos = v.start();
        let g = &v.rules.geometry;
        let mut rng = ai::rng(3);
        for _ in 0..40 {
            let l = legal(&v, &mut pos);
            if l.is_empty() {
                break;
            }
            if let Some(d) = l.iter().find(|m| m.dropped().is_some()) {
                let t = text(d, g);
                assert!(t.len() >= 4 && t.as_bytes()[1] == b'@' && t.as_bytes()[0].is_ascii_uppercase(), "{t}");
                return;
            }
            v.make(&mut pos, &l[rng.random_range(0..l.len())]).unwrap();
        }
        panic!("no drop in 40 random plies");
    }

    /// A pass reads as `0000` or as Fairy-Stockfish writes it, a cell twice (janggi's general
    /// on e2: `e2e2`, any cell in fact); a cell twice is no move where no pass is legal.
    #[test]
    fn a_pass_reads_as_a_cell_to_itself() {
        let v = Variant::load("janggi", &[]).unwrap();
        let mut pos = v.start();
        let g = &v.rules.geometry;
        let l = legal(&v, &mut pos);
        assert_eq!(find("0000", &l, g), Ok(Move::PASS));
        assert_eq!(find("e2e2", &l, g), Ok(Move::PASS));
        assert_eq!(find("E2E2", &l, g), Ok(Move::PASS));
        assert!(find("e2e", &l, g).is_err() && find("z9z9", &l, g).is_err() && find("é2é2", &l, g).is_err());
        let chess = Variant::load("chess", &[]).unwrap();
        let mut start = chess.start();
        assert!(find("e1e1", &legal(&chess, &mut start), &chess.rules.geometry).is_err());
    }

    /// Every legal move's UCI form names that move and no other, along random games of each
    /// variant (promotions, castling, drops, two-part turns, long ranks such as a10).
    #[test]
    fn every_move_round_trips() {
        for name in ["chess", "capablanca", "xiangqi", "minishogi", "amazons", "checkers", "connect-four", "othello"] {
            let v = Variant::load(name, &[]).unwrap();
            let g = &v.rules.geometry;
            let mut rng = ai::rng(7);
            for _game in 0..3 {
                let mut pos = v.start();
                for _ply in 0..60 {
                    let l = legal(&v, &mut pos);
                    if l.is_empty() || pos.result().is_some() {
                        break;
                    }
                    for m in &l {
                        let t = text(m, g);
                        assert_eq!(find(&t, &l, g), Ok(*m), "{name}: {t}");
                        assert_eq!(l.iter().filter(|o| text(o, g) == t).count(), 1, "{name}: {t} names two moves");
                    }
                    v.make(&mut pos, &l[rng.random_range(0..l.len())]).unwrap();
                }
            }
        }
    }
}
