//! Standard Algebraic Notation (SAN) as input, for any variant whose pieces have one-letter
//! symbols: `Nc3`, `exd5`, `Nbd2`, `R1e2`, `e8=Q` (or `e8Q`), `+`/`#`/`!`/`?` suffixes
//! ignored. Castling (`O-O`) and drops (`N@f3`) are already boardlab's canonical notation.
//!
//! Nothing here knows a game: the letter of a kind is its first player's symbol in upper case;
//! a move written with no letter is a move of the variant's pawn-like kind, the kind with
//! strictly the most pieces in the start position (chess's pawns, xiangqi's soldiers; a
//! variant with no such kind writes every piece's letter). A SAN text is resolved by matching
//! it against the legal moves: the kind of the piece moved, the landing, the disambiguation
//! (the start cell's file, rank or both), the capture mark, the promotion's letter.

use crate::geometry::Cell;
use crate::geometry::Geometry;
use crate::notation::{Move, MoveKind, Placed};
use crate::piece::{KindId, Player};
use crate::rules::Ruleset;
use crate::state::Position;

/// A SAN text read against a board, not yet matched against the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct San {
    /// The letter written before the move (upper case), `None` for the pawn-like kind.
    pub(crate) piece: Option<char>,
    /// What is written between the letter and the landing (`b` in `Nbd2`, `1` in `R1e2`).
    pub(crate) from: String,
    pub(crate) capture: bool,
    pub(crate) to: u16,
    pub(crate) promote: Option<char>,
    /// A gated piece (`Nc3/H`, Fairy-Stockfish's S-chess SAN).
    pub(crate) gate: Option<Placed>,
}

/// `text` without SAN's closing marks (`+`, `#`, `!`, `?`) and surrounding blanks.
pub(crate) fn strip_marks(text: &str) -> &str {
    text.trim().trim_end_matches(['+', '#', '!', '?'])
}

/// Reads a SAN text; `None` when it is not SAN on this board.
pub(crate) fn parse(text: &str, g: &Geometry) -> Option<San> {
    let (t, gate) = match strip_marks(text).split_once('/') {
        Some((t, p)) => (t, Some(Placed::parse(p, g).ok()?)),
        None => (strip_marks(text), None),
    };
    let (piece, rest) = match t.chars().next()? {
        c if c.is_ascii_uppercase() => (Some(c), &t[1..]),
        _ => (None, t),
    };
    // The promotion: `=Q`, or an upper-case letter after the landing (`e8Q`).
    let (rest, promote) = match rest.char_indices().last()? {
        (i, c) if c.is_ascii_uppercase() => (rest[..i].strip_suffix('=').unwrap_or(&rest[..i]), Some(c)),
        _ => (rest, None),
    };
    // The landing: the shortest ending that starts with a letter and names a cell (`d2` in
    // `bd2`, `a10` in `Ra10`).
    let at = (0..rest.len())
        .rev()
        .find(|&i| rest.is_char_boundary(i) && rest.as_bytes()[i].is_ascii_lowercase() && g.parse_cell(&rest[i..]).is_ok())?;
    let to = g.parse_cell(&rest[at..]).ok()?.0;
    let before = &rest[..at];
    let (from, capture) = match before.strip_suffix('x') {
        Some(f) => (f, true),
        None => (before, false),
    };
    let plain = from.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    (plain && from.len() <= 6).then(|| San { piece, from: from.to_string(), capture, to, promote, gate })
}

/// The kind a SAN move with no letter moves: the one with strictly the most pieces of the
/// first player in the start position.
pub(crate) fn pawn_kind(rules: &Ruleset, start: &Position) -> Option<KindId> {
    let mut count = vec![0usize; rules.kinds.len()];
    for &c in start.board() {
        if !c.is_empty() && c.owner() == Player::FIRST {
            count[c.kind().0 as usize] += 1;
        }
    }
    let most = *count.iter().max()?;
    let mut at = count.iter().enumerate().filter(|(_, n)| **n == most && most > 0);
    match (at.next(), at.next()) {
        (Some((k, _)), None) => Some(KindId(k as u8)),
        _ => None,
    }
}

/// The kind a letter names: the kind whose first player's symbol is that letter.
fn kind_of_letter(rules: &Ruleset, letter: char) -> Option<KindId> {
    rules.kinds.iter().position(|k| k.symbols[Player::FIRST].to_ascii_uppercase() == letter).map(|i| KindId(i as u8))
}

/// Whether a start cell's name fits what the SAN wrote before the landing: nothing, its file
/// (letters), its rank (digits) or the whole cell.
fn fits(from: &str, name: &str) -> bool {
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let file = &name[..name.len() - digits.len()];
    from.is_empty() || from == name || from == file || from == digits
}

/// Why a SAN text names no single legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unresolved {
    /// No legal move is written so.
    None,
    /// More than one: their canonical texts.
    Ambiguous(Vec<String>),
}

/// The legal move `san` names in `pos` (`pawn`: the variant's [`pawn_kind`]).
///
/// # Errors
/// No legal move, or several, are written so.
pub(crate) fn resolve(san: &San, rules: &Ruleset, pos: &Position, pawn: Option<KindId>, legal: &[Move]) -> Result<Move, Unresolved> {
    let found = matching(san, rules, pos, pawn, legal);
    match found[..] {
        [m] => Ok(*m),
        [] => Err(Unresolved::None),
        _ => Err(Unresolved::Ambiguous(found.iter().map(|m| m.text(&rules.geometry)).collect())),
    }
}

/// The legal moves a SAN text fits (what [`resolve`] chooses from).
fn matching<'a>(san: &San, rules: &Ruleset, pos: &Position, pawn: Option<KindId>, legal: &'a [Move]) -> Vec<&'a Move> {
    let kind = match san.piece {
        Some(l) => kind_of_letter(rules, l),
        None => pawn,
    };
    let Some(kind) = kind else { return vec![] };
    let g = &rules.geometry;
    let matches = |m: &&Move| {
        let promote_ok = match (m.kind, san.promote) {
            (MoveKind::Promote { letter, .. }, Some(c)) => letter as char == c,
            (MoveKind::Normal | MoveKind::Promote { stay: true, .. }, None) => true,
            (MoveKind::Then { .. }, None) => m.gated().is_some(),
            _ => false,
        };
        let gate_ok = match (m.gated(), san.gate) {
            (None, None) => true,
            (Some((_, at, letter)), Some(p)) => p.names(letter, at),
            _ => false,
        };
        promote_ok
            && gate_ok
            && m.len() == 1
            && m.to() == Some(san.to)
            && pos.piece(m.from).kind() == kind
            && !pos.piece(m.from).is_empty()
            && (!san.capture || m.is_capture())
            && fits(&san.from, g.name(Cell(m.from)))
    };
    legal.iter().filter(matches).collect()
}

/// A legal move of `pos` in SAN, without the check mark (the caller, who can play the move,
/// adds `+` or `#`): `Nbd2`, `exd5`, `O-O`, `e8=Q`, `N@f3`. The start cell's file, rank or
/// both are written when the text would otherwise fit several of `legal` (every legal move of
/// `pos`), so the text reads back through [`resolve`] to `m`. `None` for a move SAN cannot
/// write (a capture chain, leaving the board, a two-part turn, a piece with no letter).
pub(crate) fn write(m: &Move, rules: &Ruleset, pos: &Position, pawn: Option<KindId>, legal: &[Move]) -> Option<String> {
    let g = &rules.geometry;
    let name = |c: u16| g.name(Cell(c));
    let promote = match m.kind {
        MoveKind::Castle { .. } => {
            let castle = if m.castles_east() == Some(true) { "O-O" } else { "O-O-O" };
            // Fairy-Stockfish's S-chess: the gated piece's letter and cell, `O-O/He1`.
            return Some(m.gated().map_or(castle.into(), |(_, at, l)| format!("{castle}/{}{}", l as char, name(at))));
        }
        MoveKind::Then { .. } if m.gated().is_some() => None,
        MoveKind::Pass => return Some("pass".into()),
        MoveKind::Swap => return Some("swap".into()),
        MoveKind::Drop { letter, .. } if letter.is_ascii_alphabetic() => return Some(format!("{}@{}", letter as char, name(m.to()?))),
        MoveKind::Drop { .. } => return Some(format!("@{}", name(m.to()?))),
        MoveKind::Promote { stay: true, .. } | MoveKind::Normal => None,
        MoveKind::Promote { letter, .. } => Some(letter as char),
        MoveKind::Off { .. } | MoveKind::Then { .. } => return None,
        MoveKind::Sow => return Some(m.text(g)),
    };
    let (to, code) = (m.to()?, pos.piece(m.from));
    if m.len() != 1 || code.is_empty() {
        return None;
    }
    let letter = rules.kind(code.kind()).symbols[Player::FIRST].to_ascii_uppercase();
    let piece = (Some(code.kind()) != pawn).then_some(letter);
    if piece.is_some_and(|l| !l.is_ascii_alphabetic() || kind_of_letter(rules, l) != Some(code.kind())) {
        return None;
    }
    let from_name = name(m.from);
    let digits = from_name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let file = &from_name[..from_name.len() - digits.len()];
    // A pawn-like capture always names its file, as chess writes `exd5`.
    let pawn_capture = piece.is_none() && m.is_capture();
    let tries: &[&str] = if pawn_capture { &[file, from_name] } else { &["", file, digits, from_name] };
    let gate = m.gated().map(|(_, _, l)| Placed { letter: Some(l as char), at: None });
    let mut san = San { piece, from: String::new(), capture: m.is_capture(), to, promote, gate };
    for &from in tries {
        san.from = from.to_string();
        if matching(&san, rules, pos, pawn, legal)[..] == [m] {
            break;
        }
    }
    let mut s = String::new();
    s.extend(piece);
    s.push_str(&san.from);
    if san.capture {
        s.push('x');
    }
    s.push_str(name(to));
    if let Some(p) = promote {
        s.push('=');
        s.push(p);
    }
    if let Some(Placed { letter: Some(l), .. }) = gate {
        s.push('/');
        s.push(l);
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn reads_the_forms() {
        let v = Variant::load("chess", &[]).unwrap();
        let g = &v.rules.geometry;
        let c = |n: &str| g.parse_cell(n).unwrap().0;
        let s = |t: &str| parse(t, g).unwrap();
        assert_eq!(s("Nbd2"), San { piece: Some('N'), from: "b".into(), capture: false, to: c("d2"), promote: None, gate: None });
        assert_eq!(s("exd5+"), San { piece: None, from: "e".into(), capture: true, to: c("d5"), promote: None, gate: None });
        assert_eq!(s("R1xe2#"), San { piece: Some('R'), from: "1".into(), capture: true, to: c("e2"), promote: None, gate: None });
        assert_eq!(s("e8=Q"), San { piece: None, from: "".into(), capture: false, to: c("e8"), promote: Some('Q'), gate: None });
        assert_eq!(s("dxe8N"), San { piece: None, from: "d".into(), capture: true, to: c("e8"), promote: Some('N'), gate: None });
        for not in ["", "N", "Nz9", "hello", "e9", "Ne4-e5", "x"] {
            assert_eq!(parse(not, g), None, "{not}");
        }
        let x = Variant::load("xiangqi", &[]).unwrap();
        let xc = x.rules.geometry.parse_cell("a10").unwrap().0;
        assert_eq!(parse("Ra10", &x.rules.geometry).unwrap().to, xc);
    }

    /// Expected values from pyffish (`get_san` of `b1c3h`, `e8g8h`, `h8e8h`).
    #[test]
    fn gating_is_written_as_fairy_stockfish_writes_it() {
        let v = Variant::load("seirawan", &[]).unwrap();
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1", "b1-c3/H@b1", "Nc3/H"),
            ("reb1k2r/ppppqppp/2nb1n2/4p3/4P3/N1P2N2/PB1PQPPP/RE2KBHR[h] b KQkqc - 3 7", "O-O/H@e8", "O-O/He8"),
            ("reb1k2r/ppppqppp/2nb1n2/4p3/4P3/N1P2N2/PB1PQPPP/RE2KBHR[h] b KQkqc - 3 7", "O-O/H@h8", "O-O/Hh8"),
        ];
        for (fen, text, san) in cases {
            let mut pos = crate::fen::read(&v.rules, fen).unwrap();
            let mut legal = Vec::new();
            v.legal_moves(&mut pos, &mut legal).unwrap();
            let m = v.find_move(&mut pos, text).unwrap();
            assert_eq!(write(&m, &v.rules, &pos, pawn_kind(&v.rules, &v.start()), &legal).as_deref(), Some(san), "{text}");
            assert_eq!(v.find_move(&mut pos, san).unwrap(), m, "{san} reads back");
        }
    }

    /// Expected values from python-chess (`Board.parse_san(…).uci()`, `Board.fen()`).
    #[test]
    fn typed_san_plays_the_move_python_chess_reads() {
        let v = Variant::load("chess", &[]).unwrap();
        let mut pos = v.start();
        let moves: Vec<String> = "e4 e5 Nf3 Nc6 Bb5 a6 O-O".split(' ').map(String::from).collect();
        v.play_all(&mut pos, &moves).unwrap();
        assert_eq!(crate::fen::write(&v.rules, &pos).unwrap(), "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4");
        let cases = [
            ("rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3", "Nbd2", "b1d2"),
            ("rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3", "Nfd2", "f3d2"),
            ("4k3/3P4/8/R7/8/8/8/R3K3 w - - 0 1", "R1a3", "a1a3"),
            ("4k3/3P4/8/R7/8/8/8/R3K3 w - - 0 1", "R5a3", "a5a3"),
            ("4k3/3P4/8/R7/8/8/8/R3K3 w - - 0 1", "d8=Q+", "d7d8q"),
            ("4k3/3P4/8/R7/8/8/8/R3K3 w - - 0 1", "d8N", "d7d8n"),
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", "e4d5"),
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e5", "e4e5"),
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "Ke2", "e1e2"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O+", "e1c1"),
        ];
        for (fen, san, uci) in cases {
            let mut p = crate::fen::read(&v.rules, fen).unwrap();
            let m = v.find_move(&mut p, san).unwrap_or_else(|e| panic!("{san}: {e}"));
            assert_eq!(crate::protocol::coords::text(&m, &v.rules.geometry), uci, "{san}");
        }
        // python-chess: AmbiguousMoveError, IllegalMoveError; and no piece of that letter.
        let mut p = crate::fen::read(&v.rules, cases[0].0).unwrap();
        let e = v.find_move(&mut p, "Nd2").unwrap_err().to_string();
        assert!(e.contains("b1-d2, f3-d2"), "{e}");
        let mut p = crate::fen::read(&v.rules, cases[2].0).unwrap();
        assert!(v.find_move(&mut p, "Rxa5").unwrap_err().to_string().contains("names no legal move"));
        assert!(v.find_move(&mut p, "Za3").is_err());
        // A pawn move that no pawn can make keeps boardlab's own error.
        assert!(v.find_move(&mut p, "h5").unwrap_err().to_string().contains("cannot read"));
    }

    #[test]
    fn pawn_like_kinds_are_derived() {
        let name = |v: &Variant| pawn_kind(&v.rules, &v.start()).map(|k| v.rules.kind(k).name.clone());
        assert_eq!(name(&Variant::load("chess", &[]).unwrap()).as_deref(), Some("pawn"));
        assert!(name(&Variant::load("xiangqi", &[]).unwrap()).is_some());
        // Minishogi has one piece of each kind: every move is written with its letter.
        assert_eq!(name(&Variant::load("minishogi", &[]).unwrap()), None);
    }
}
