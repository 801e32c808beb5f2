//! Forsyth–Edwards Notation for chess-like variants: `BOARD SIDE [CASTLING [EP [CLOCK [MOVE]]]]`.
//!
//! The board field is the position text's (piece symbols, the first player's in upper case,
//! digits for empty cells, ranks from the top). `w` is the first player and `b` the second.
//! Castling is `-` or letters: `K`/`Q` (`k`/`q` for the second player) for the outermost rook
//! on the king's east or west, or a file letter for the rook on that file (Shredder-FEN, for
//! Chess960). The en passant field names the cell a double step passed. The clock (plies since
//! a capture or a pawn move) is kept where the variant has a `quiet_moves` rule, and the move
//! number sets the ply. A variant whose pieces carry attributes has no FEN: its position text
//! says more.
//!
//! Fairy-Stockfish's extensions: the pieces in hand follow the board in brackets
//! (`rbsgk/4p/5/P4/KGSBR[Pp] w - - 0 1`, the first player's in upper case, `[-]` or `[]` for
//! none); a promoted piece (one that demotes when captured) is `+` and the letter of the kind it
//! was (`+P`, a tokin) or its own letter and `~` (`Q~`, crazyhouse's promoted queen): see
//! [`board`]. A counter the variant names in `[notation] fen_checks` is written after the en
//! passant field as `FIRST+SECOND` (three-check's `3+3`). Castling and en passant may be left
//! out when the variant has neither (`… w 0 1`, as Fairy-Stockfish writes its start positions).

use crate::geometry::NONE;
use crate::piece::{ByPlayer, PieceCode, Player};
use crate::rules::Ruleset;
use crate::rules::castling::{EAST, WEST};
use crate::state::{Position, PositionError};

mod board;
#[cfg(test)]
mod tests;

/// The largest move number a FEN may give (so the ply it makes stays in range).
const MAX_MOVE_NUMBER: u32 = 1_000_000;

/// The most pieces of one kind a FEN's hand may hold for one player.
const MAX_IN_HAND: i32 = 1000;

/// Whether `text` reads as a FEN rather than a position text: its third field (after the
/// board and the side) is a castling field, not a ply or a `key=value`.
pub(crate) fn looks_like_fen(text: &str) -> bool {
    let f: Vec<&str> = text.split_whitespace().collect();
    f.len() >= 2
        && matches!(f[1], "w" | "b")
        && (f[0].ends_with(']')
            || f.len() >= 3 && (f[2] == "-" || f[2].chars().all(|c| c.is_ascii_alphabetic()) || f[2].chars().all(|c| c.is_ascii_digit())))
}

/// A FEN's fields, the optional ones filled in: `BOARD SIDE CASTLING EP [CHECKS] CLOCK MOVE`.
struct Fields<'a> {
    board: &'a str,
    side: Player,
    castling: &'a str,
    ep: &'a str,
    /// The check field's two values (`3+3`), if written.
    checks: Option<(i32, i32)>,
    /// Lichess's trailing field of the checks each player has given (`+2+0`), if written.
    given: Option<(i32, i32)>,
    /// The check field as written (either form), for an error.
    checks_text: Option<&'a str>,
    clock: u32,
    fullmove: u32,
}

/// Splits a FEN into its fields: castling and en passant may be left out together
/// (`BOARD SIDE CLOCK MOVE`, as Fairy-Stockfish writes shogi-like start positions), the
/// trailing fields too; a check field (`3+3`) may follow the en passant field, or Lichess's
/// field of checks given (`+2+0`) the move number.
fn fields(text: &str) -> Result<Fields<'_>, String> {
    let mut f: Vec<&str> = text.split_whitespace().collect();
    let mut checks_text = None;
    let given = match f.last().copied().filter(|t| t.starts_with('+')) {
        Some(t) => {
            f.pop();
            checks_text = Some(t);
            Some(check_pair(&t[1..], t, "+N+N")?)
        }
        None => None,
    };
    if f.get(2).is_some_and(|t| t.chars().all(|c| c.is_ascii_digit())) {
        f.splice(2..2, ["-", "-"]);
    }
    let checks = match f.get(4).copied().filter(|t| t.contains('+')) {
        Some(t) => {
            f.remove(4);
            checks_text = Some(t);
            Some(check_pair(t, t, "N+N")?)
        }
        None => None,
    };
    if f.len() < 2 || f.len() > 6 {
        return Err(format!("expected BOARD SIDE [CASTLING [EP [CHECKS] [CLOCK [MOVE]]]], got {} fields", f.len()));
    }
    let side = match f[1] {
        "w" => Player::FIRST,
        "b" => Player::SECOND,
        s => return Err(format!("the side to move is w or b, not `{s}`", s = crate::files::quote(s))),
    };
    let number = |i: usize, what: &str, default: u32| -> Result<u32, String> {
        f.get(i).map_or(Ok(default), |t| t.parse().map_err(|_| format!("the {what} `{t}` is not a number", t = crate::files::quote(t))))
    };
    let (clock, fullmove) = (number(4, "half-move clock", 0)?, number(5, "move number", 1)?);
    if fullmove > MAX_MOVE_NUMBER {
        return Err(format!("the move number {fullmove} is past the limit of {MAX_MOVE_NUMBER}"));
    }
    let (castling, ep) = (f.get(2).copied().unwrap_or("-"), f.get(3).copied().unwrap_or("-"));
    Ok(Fields { board: f[0], side, castling, ep, checks, given, checks_text, clock, fullmove })
}

/// Two counts joined by `+` (`3+3`; `2+0` of Lichess's `+2+0`); `field` is the whole field as
/// written and `form` its expected shape, for the error.
fn check_pair(t: &str, field: &str, form: &str) -> Result<(i32, i32), String> {
    let bad = || format!("the check field `{}` is not {form}", crate::files::quote(field));
    let (a, b) = t.split_once('+').ok_or_else(bad)?;
    let n = |x: &str| x.parse::<u16>().map(i32::from).map_err(|_| bad());
    Ok((n(a)?, n(b)?))
}

impl Position {
    /// Reads a position line or a FEN (see [`Position::from_line`] and [`read`]): a FEN,
    /// which cannot carry a result, is judged as it stands.
    ///
    /// # Errors
    /// The field that is wrong, and why.
    pub fn from_text(rules: &Ruleset, text: &str) -> Result<Position, PositionError> {
        crate::notation::check_length("the position text", text, crate::notation::MAX_POSITION_TEXT)
            .map_err(|e| PositionError(e.to_string()))?;
        if looks_like_fen(text) { read(rules, text) } else { Position::from_line(rules, text) }
    }
}

/// Reads a FEN.
///
/// # Errors
/// The field that is wrong, and why.
pub fn read(rules: &Ruleset, text: &str) -> Result<Position, PositionError> {
    let bad = |m: String| PositionError(format!("FEN: {m}"));
    crate::notation::check_length("the FEN", text, crate::notation::MAX_POSITION_TEXT).map_err(|e| bad(e.to_string()))?;
    if !rules.attributes.is_empty() {
        return Err(bad("this variant's pieces carry attributes, which a FEN cannot write; use its position text".into()));
    }
    let f = fields(text).map_err(bad)?;
    let ply = 2 * f.fullmove.max(1).saturating_sub(1) + if f.side == rules.first { 0 } else { 1 };
    let (board, hand) = board::read(rules, f.board)?;
    let mut line = format!("{board} {} {ply}", rules.player_name(f.side));
    let mut counters: Vec<String> = hand.into_iter().collect();
    // Checks given count down from the counter's start value.
    let left = f.checks.or(f
        .given
        .map(|(a, b)| rules.fen_checks.map_or((a, b), |s| (rules.counters[s as usize].1 - a, rules.counters[s as usize].1 - b))));
    match (left, rules.fen_checks) {
        (Some((a, b)), Some(slot)) => counters.push(format!("{}:{}:{}", rules.counters[slot as usize].0, a.max(0), b.max(0))),
        (Some(_), None) => {
            let field = f.checks_text.unwrap_or_default();
            return Err(bad(format!("`{field}`: this variant counts no checks (it has no [notation] fen_checks)")));
        }
        (None, _) => {}
    }
    if !counters.is_empty() {
        line.push_str(&format!(" counters={}", counters.join(",")));
    }
    if f.clock > 0 && rules.clock.is_some() {
        line.push_str(&format!(" clock={}", f.clock));
    }
    let mut pos = Position::from_line(rules, &line).map_err(|e| bad(e.0))?;
    if f.ep != "-" {
        let (at, piece) = en_passant(rules, &pos, f.side, f.ep).map_err(bad)?;
        let g = &rules.geometry;
        line.push_str(&format!(" ep={}/{}", g.name(crate::geometry::Cell(at)), g.name(crate::geometry::Cell(piece))));
        pos = Position::from_line(rules, &line).map_err(|e| bad(e.0))?;
    }
    if f.castling != "-" {
        read_castling(rules, &mut pos, f.castling).map_err(bad)?;
    }
    // A FEN cannot say that the game is over: a finished game reads back finished by judging
    // the position as it stands.
    if pos.result().is_none() && pos.continuation().is_none() {
        let mover = pos.side().other();
        let by = |c: u16| pos.board()[c as usize].owner().other();
        let safe = |c: u16| crate::attack::attacker(rules, pos.view(), by(c), c).is_none();
        let r =
            crate::rules::ends::standing_result(rules, pos.board(), pos.counts(), pos.counters(), pos.prisoners(), pos.ply(), mover, safe);
        pos.set_result(r);
    }
    Ok(pos)
}

/// The en passant field's cell and the cell of the piece that passed it (one step further
/// along the forward of its owner, the player not to move). The field may list several cells
/// (`h5h6`: Fairy-Stockfish lists every cell a capture could land on for some pawns); the one
/// that is empty with the opponent's piece just beyond it is taken.
fn en_passant(rules: &Ruleset, pos: &Position, side: Player, field: &str) -> Result<(u16, u16), String> {
    let g = &rules.geometry;
    let mover = side.other();
    // Cell names: letters, then digits (`h6`, `a10`); every one must be a cell.
    let mut cells = Vec::new();
    let mut rest = field;
    while !rest.is_empty() {
        let letters = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let end = rest[letters..].find(|c: char| !c.is_ascii_digit()).map_or(rest.len(), |i| letters + i);
        // Neither a letter nor a digit: that one character, to be refused below.
        let end = if end == 0 { rest.chars().next().map_or(1, char::len_utf8) } else { end };
        let (name, tail) = rest.split_at(end);
        rest = tail;
        cells.push(g.parse_cell(name).map_err(|_| format!("the en passant field `{}` is not a cell", crate::files::quote(field)))?);
    }
    let mut first_error = None;
    for at in cells {
        let (file, rank) = g.coords(at);
        let Some(piece) = g.at(file as i32, rank as i32 + rules.forward[mover] as i32) else {
            first_error.get_or_insert_with(|| format!("no cell beyond {}", g.name(at)));
            continue;
        };
        if pos.board()[at.0 as usize].is_empty() && pos.board()[piece.0 as usize].is_of(mover) {
            return Ok((at.0, piece.0));
        }
        first_error.get_or_insert_with(|| {
            format!(
                "en passant on {}: the piece on {} is not the one that just moved (none of {}'s)",
                g.name(at),
                g.name(piece),
                rules.player_name(mover)
            )
        });
    }
    Err(first_error.unwrap_or_else(|| "an empty en passant field".into()))
}

/// Reads a FEN's castling field (`KQkq`, or files for Chess960's rooks) into `pos`'s rights;
/// where the rules gate, also its gates, as Fairy-Stockfish writes them (S-chess's
/// `KQBCDFGkqbcdfg`): while a player holds a gated kind in hand, a file is a gate on it, `K`
/// and `Q` gates on the king's and the rook's cells too, and a king on a gate with no `K` or
/// `Q` castles with each rook on a gate (Chess960's `ABCDEFGHabcdefgh`).
fn read_castling(rules: &Ruleset, pos: &mut Position, castling: &str) -> Result<(), String> {
    let g = &rules.geometry;
    let c = rules
        .castling
        .as_ref()
        .ok_or_else(|| format!("this variant has no castling, so `{}` means nothing", crate::files::quote(castling)))?;
    let mut rights = crate::rules::CastleRights::NONE;
    let mut gates = ByPlayer::new(0u128, 0);
    for ch in castling.chars() {
        let p = if ch.is_ascii_uppercase() { Player::FIRST } else { Player::SECOND };
        let board = pos.board();
        if let Some(cell) = gate_letter(rules, pos, p, ch) {
            gates[p] |= 1 << cell;
            continue;
        }
        let rook = match ch.to_ascii_lowercase() {
            'k' => c.outermost_rook(g, board, p, EAST, None),
            'q' => c.outermost_rook(g, board, p, WEST, None),
            l => {
                let file = (0..g.files).find(|&x| crate::geometry::file_letter(x) == l);
                let file = file.ok_or_else(|| format!("`{ch}` in the castling field is neither K, Q nor a file"))?;
                [EAST, WEST].into_iter().map(|s| c.outermost_rook(g, board, p, s, Some(file))).find(|&r| r != NONE).unwrap_or(NONE)
            }
        };
        if rook == NONE {
            return Err(format!("castling `{ch}`: no rook of {} ready beside its king there", rules.player_name(p)));
        }
        let king = c.king_on_rank(g, board, p, rook).unwrap_or(NONE);
        rights.set(p, if rook > king { EAST } else { WEST }, rook);
        if rules.drops.gating.is_some() && pos.gated_in_hand(rules, p) {
            gates[p] |= 1 << rook | if king == NONE { 0 } else { 1 << king };
        }
    }
    if rules.drops.gating.is_some() {
        for p in Player::both() {
            let on_gate = |cell: u16| gates[p] & 1 << cell != 0;
            let king = (0..g.len() as u16).find(|&x| on_gate(x) && pos.board()[x as usize] == PieceCode::new(c.king, p));
            if let Some(king) = king.filter(|_| rights.iter().all(|(q, _, _)| q != p)) {
                for r in (0..g.len() as u16).filter(|&x| on_gate(x) && pos.board()[x as usize].is_of(p)) {
                    let side = if r > king { EAST } else { WEST };
                    if c.rooks.contains(pos.board()[r as usize].kind()) && c.sides[side].is_some() {
                        rights.set(p, side, r);
                    }
                }
            }
        }
        pos.set_gates(gates);
    }
    pos.set_castle_rights(rules, rights);
    Ok(())
}

/// The gate a castling field's file letter names (`B`: b1 for white), where the rules gate and
/// `p` holds a gated kind in hand: the cell of that file where `p`'s gated kinds enter and one
/// of its pieces stands.
fn gate_letter(rules: &Ruleset, pos: &Position, p: Player, ch: char) -> Option<u16> {
    let gating = rules.drops.gating.as_ref()?;
    let g = &rules.geometry;
    let file = (0..g.files).find(|&x| crate::geometry::file_letter(x) == ch.to_ascii_lowercase())?;
    if matches!(ch.to_ascii_lowercase(), 'k' | 'q') || !pos.gated_in_hand(rules, p) {
        return None;
    }
    let mut cells = (0..g.ranks).filter_map(|r| g.at(file as i32, r as i32)).map(|c| c.0);
    cells.find(|&c| gating.cells[p] & 1 << c != 0 && pos.board()[c as usize].is_of(p))
}

/// The letters a FEN's castling field gives `p`'s gates ([`read_castling`]): each gate's file,
/// but those its castling letters imply (the king's, the castling rooks'); none while `p` holds
/// no gated kind in hand.
fn gate_letters(rules: &Ruleset, pos: &Position, p: Player) -> String {
    let g = &rules.geometry;
    if rules.drops.gating.is_none() || !pos.gated_in_hand(rules, p) {
        return String::new();
    }
    let rights: Vec<u16> = pos.castle_rights().iter().filter(|&(q, _, _)| q == p).map(|(_, _, r)| r).collect();
    let king = rules.castling.as_ref().and_then(|c| rights.first().and_then(|&r| c.king_on_rank(g, pos.board(), p, r)));
    let files = crate::cellset::CellSet::from_bits(pos.gates()[p]).into_iter().filter(|c| !rights.contains(c) && Some(*c) != king);
    let mut files: Vec<u8> = files.map(|c| g.coords(crate::geometry::Cell(c)).0).collect();
    files.sort_unstable();
    files.dedup();
    let letters = files.into_iter().map(crate::geometry::file_letter);
    letters.map(|l| if p == Player::FIRST { l.to_ascii_uppercase() } else { l }).collect()
}

/// Writes a position as a FEN.
///
/// # Errors
/// The variant's pieces carry attributes (a FEN cannot write them).
pub fn write(rules: &Ruleset, pos: &Position) -> Result<String, PositionError> {
    if !rules.attributes.is_empty() {
        return Err(PositionError("this variant's pieces carry attributes, which a FEN cannot write; use `position`".into()));
    }
    let g = &rules.geometry;
    let text = pos.to_text(rules);
    let board = board::write(rules, pos, text.split_whitespace().next().unwrap_or_default());
    let side = if pos.side() == Player::FIRST { "w" } else { "b" };
    let mut castling = String::new();
    if let Some(c) = &rules.castling {
        for p in Player::both() {
            for (_, s, rook) in pos.castle_rights().iter().filter(|&(q, _, _)| q == p) {
                let letter = if c.outermost_rook(g, pos.board(), p, s, None) == rook {
                    if s == EAST { 'k' } else { 'q' }
                } else {
                    crate::geometry::file_letter(g.coords(crate::geometry::Cell(rook)).0)
                };
                castling.push(if p == Player::FIRST { letter.to_ascii_uppercase() } else { letter });
            }
            castling.push_str(&gate_letters(rules, pos, p));
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = pos.en_passant().map_or("-".to_string(), |(at, _)| g.name(crate::geometry::Cell(at)).to_string());
    let fullmove = pos.ply() / 2 + 1;
    let checks = rules
        .fen_checks
        .map_or(String::new(), |slot| format!("{}+{} ", pos.counter(Player::FIRST, slot), pos.counter(Player::SECOND, slot)));
    Ok(format!("{board} {side} {castling} {ep} {checks}{} {fullmove}", pos.clock()))
}
