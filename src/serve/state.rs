//! A game as the page and other clients see it: JSON built from the session, never a second
//! copy of the rules (docs/web.md, "The game's state").

use crate::diagram;
use crate::geometry::{Cell, NONE};
use crate::notation::Move;
use crate::session::Session;
use serde_json::{Value, json};

/// The game's state: variant, position text, FEN where the variant has one, side to move,
/// status, result, the legal moves with the cells each touches, and the history.
///
/// # Errors
/// A script hook failed while listing the legal moves (its message).
pub(crate) fn of(id: u64, s: &mut Session) -> Result<Value, crate::script::ScriptError> {
    let v = s.variant.clone();
    let r = &v.rules;
    let g = &r.geometry;
    let mut legal = Vec::new();
    v.legal_moves(&mut s.pos, &mut legal)?;
    let _ = v.take_output();
    let start_ply = s.start.ply();
    Ok(json!({
        "id": id,
        "variant": v.name(),
        "title": r.title,
        "players": [r.player_name(crate::piece::Player::FIRST), r.player_name(crate::piece::Player::SECOND)],
        "position": s.pos.to_text(r),
        "fen": crate::fen::write(r, &s.pos).ok(),
        "side": r.player_name(s.pos.side()),
        "ply": s.pos.ply(),
        "status": crate::render::status(&v, &s.pos),
        "result": s.pos.result().map(|o| o.describe(&r.player_names)),
        "legal": legal.iter().map(|m| legal_move(s, m)).collect::<Vec<_>>(),
        "history": s.played.iter().map(|m| m.text(g)).collect::<Vec<_>>(),
        "ahead": s.undone.iter().rev().map(|m| m.text(g)).collect::<Vec<_>>(),
        "start_ply": start_ply,
        "last": s.played.last().map(|m| touched(s, m)),
    }))
}

/// A cell's name, or null for none.
fn name(s: &Session, c: u16) -> Value {
    if c == NONE { Value::Null } else { Value::from(s.variant.rules.geometry.name(Cell(c))) }
}

/// The cells a move touches: where it starts (null for a drop or a pass), every landing in
/// order (`to` is the last), what it captures, the cell a second part places on (Amazons'
/// arrow), the piece a drop or a promotion puts down (its symbol), and a gated piece with its
/// cell (`H@b1`).
fn touched(s: &Session, m: &Move) -> Value {
    let r = &s.variant.rules;
    json!({
        "from": name(s, m.from),
        "to": m.to().map_or(Value::Null, |c| name(s, c)),
        "landings": m.landings().iter().map(|&c| name(s, c)).collect::<Vec<_>>(),
        "captured": m.victims().map(|c| name(s, c)).collect::<Vec<_>>(),
        "placed": m.placed().map_or(Value::Null, |(_, at)| name(s, at)),
        "drop": m.dropped().map(|code| r.symbol(code).to_string()),
        "promote": m.promoted().map(|code| r.symbol(code).to_string()),
        "gate": m.gated().map(|(code, at, _)| format!("{}@{}", r.symbol(code), r.geometry.name(Cell(at)))),
    })
}

fn legal_move(s: &Session, m: &Move) -> Value {
    let mut v = touched(s, m);
    v["text"] = Value::from(m.text(&s.variant.rules.geometry));
    v
}

/// The board as the page draws it: the SVG of `show --svg` (last move marked) and where each
/// cell's centre is in it, so a click finds its cell.
pub(crate) fn board(s: &Session, flip: bool) -> Value {
    let opts = diagram::Options { flip, caption: true };
    let g = &s.variant.rules.geometry;
    let centres = diagram::cell_centres(&s.variant, opts);
    let cells: serde_json::Map<String, Value> = g.cells().zip(centres).map(|(c, (x, y))| (g.name(c).to_string(), json!([x, y]))).collect();
    json!({
        "svg": diagram::svg(&s.variant, &s.pos, s.played.last(), opts),
        "cells": cells,
        "cell_side": diagram::CELL_SIDE,
    })
}
