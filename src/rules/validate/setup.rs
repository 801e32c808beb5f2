//! The start position, the crown and the display attribute.

use super::pieces::CROWN;
use super::{R, V};
use crate::geometry::{Cell, Geometry};
use crate::piece::{ByPlayer, KindId, PieceCode, Player};
use crate::rules::names::Names;
use crate::rules::{Crown, KindDef, Setup};

/// The crown, if the variant declares one.
pub(super) fn stage_crown(v: &V, attributes: &[String]) -> R<Option<Crown>> {
    let Some(c) = &v.m.crown else { return Ok(None) };
    let f = c.file;
    let name = c.val.attribute.get_ref();
    let by = attributes.iter().position(|a| a == name && a != CROWN).ok_or_else(|| {
        let e = v.err(f, c.val.attribute.span(), format!("unknown attribute `{name}`"), "the crown goes by this attribute");
        match Names::new("attribute", attributes.iter().map(String::as_str)).hint(name) {
            Some(h) => e.with_help(h),
            None => e,
        }
    })?;
    let both = match &c.val.update {
        None => true,
        Some(u) => v.word(f, u, &["both", "mover"])? == "both",
    };
    let marker = attributes.iter().position(|a| a == CROWN).expect("added with the crown") as u8;
    Ok(Some(Crown { by: by as u8, marker, both }))
}

/// The start position: `rows` in the board grammar, then pieces by player and kind.
pub(super) fn stage_setup(v: &V, g: &Geometry, kinds: &[KindDef], players: &ByPlayer<String>, nattr: usize) -> R<Setup> {
    let mut board = vec![PieceCode::EMPTY; g.len()];
    let mut attrs = vec![0i32; g.len() * nattr];
    let Some(s) = &v.m.setup else {
        return Ok(Setup { board, attrs });
    };
    let f = s.file;
    let put = |board: &mut Vec<PieceCode>, attrs: &mut Vec<i32>, c: Cell, code_: PieceCode| {
        board[c.0 as usize] = code_;
        for &(slot, init) in &kinds[code_.kind().0 as usize].attributes {
            attrs[c.0 as usize * nattr + slot as usize] = init;
        }
    };
    if let Some(rows) = &s.val.rows {
        let lookup = |ch: char| -> Option<PieceCode> {
            for (i, k) in kinds.iter().enumerate() {
                for p in Player::both() {
                    if k.symbols[p] == ch {
                        return Some(PieceCode::new(KindId(i as u8), p));
                    }
                }
            }
            None
        };
        let kind_attrs = |c: PieceCode| kinds[c.kind().0 as usize].attributes.clone();
        let (b, a) = crate::board_text::parse_board(g, rows.get_ref(), &lookup, &kind_attrs, nattr)
            .map_err(|e| v.err(f, rows.span(), format!("setup rows: {e}"), "in these rows"))?;
        board = b;
        attrs = a;
    }
    let known = Names::new("piece kind", kinds.iter().map(|k| k.name.as_str()));
    for (pname, per_kind) in &s.val.pieces {
        let span = per_kind.values().flatten().next().map(|c| c.span()).unwrap_or(0..0);
        let p = v.player(f, span, players, pname, "setup for an unknown player")?;
        for (kname, cells) in per_kind {
            let span = cells.first().map(|c| c.span()).unwrap_or(0..0);
            let k = v.lookup(f, span, &known, kname, " in the setup", "here")?;
            for c in cells {
                let cell =
                    g.parse_cell(c.get_ref()).map_err(|e| v.err(f, c.span(), format!("setup cell {e}"), "not a cell of this board"))?;
                if !board[cell.0 as usize].is_empty() {
                    return Err(v.err(f, c.span(), format!("setup puts two pieces on {}", g.name(cell)), "already occupied"));
                }
                put(&mut board, &mut attrs, cell, PieceCode::new(KindId(k as u8), p));
            }
        }
    }
    Ok(Setup { board, attrs })
}

/// `[notation] moves`, `square_one` and `pdn` (their values are checked as the TOML is read).
pub(super) fn stage_move_style(v: &V, first: Player) -> (crate::rules::MoveStyle, Option<u8>) {
    use crate::rules::MoveStyle;
    use crate::rules::raw::{RawMoveStyle, RawSeat};
    let Some(n) = &v.m.notation else { return (MoveStyle::Boardlab, None) };
    let style = match n.val.moves {
        None | Some(RawMoveStyle::Boardlab) => MoveStyle::Boardlab,
        Some(RawMoveStyle::San) => MoveStyle::San,
        Some(RawMoveStyle::Numbered) => {
            // PDN's usual orientation: square 1 on the back rank of the player who moves second.
            let square_one = if n.val.square_one == Some(RawSeat::First) { first } else { first.other() };
            MoveStyle::Numbered { square_one }
        }
    };
    (style, n.val.pdn)
}

/// The attribute `show` writes beside each piece, if one is declared.
/// `[notation] fairy_stockfish`: a name as Fairy-Stockfish spells its variants (lower-case
/// letters, digits, `-` and `_`, at most 40 characters).
pub(super) fn stage_fairy_stockfish(v: &V) -> R<Option<String>> {
    let Some(n) = &v.m.notation else { return Ok(None) };
    let Some(name) = &n.val.fairy_stockfish else { return Ok(None) };
    let text = name.get_ref();
    let fits = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
    if text.is_empty() || text.len() > 40 || !text.chars().all(fits) {
        return Err(v.err(
            n.file,
            name.span(),
            "not a Fairy-Stockfish variant name",
            "lower-case letters, digits, `-` and `_`, as in `chess` or `minishogi`",
        ));
    }
    Ok(Some(text.clone()))
}

/// `[notation] fen_checks`: a declared counter (its slot), written in a FEN's check field.
pub(super) fn stage_fen_checks(v: &V, counters: &[&str]) -> R<Option<u8>> {
    let Some(n) = &v.m.notation else { return Ok(None) };
    let Some(name) = &n.val.fen_checks else { return Ok(None) };
    let known = Names::new("counter", counters.iter().copied());
    let slot = v.lookup(n.file, name.span(), &known, name.get_ref(), "", "declare it under [counters]")?;
    Ok(Some(slot as u8))
}

pub(super) fn stage_display(v: &V, attributes: &[String]) -> R<Option<u8>> {
    let Some(d) = &v.m.display else { return Ok(None) };
    let known = Names::new("attribute", attributes.iter().map(String::as_str));
    let slot =
        v.lookup(d.file, d.val.attribute.span(), &known, d.val.attribute.get_ref(), "", "declare it under [pieces.NAME.attributes]")?;
    Ok(Some(slot as u8))
}
