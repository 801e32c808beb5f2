//! `push = { … }` on a piece kind, compiled for one owner (run after a move by `state::push`).

use super::{R, V};
use crate::geometry::{CellTable, Geometry};
use crate::piece::Player;
use crate::rules::movement::{PieceCtx, dirs_of};
use crate::rules::raw::{RawDirs, RawPush, Setting};
use crate::rules::{Chooser, ColumnRetreat, Push};
use toml::Spanned;

pub(super) fn stage_push(v: &V, f: usize, x: &Spanned<RawPush>, p: Player, ctx: &PieceCtx, g: &Geometry) -> R<Push> {
    let raw = x.get_ref();
    let enemy = p.other();
    let word = |s: &Option<Spanned<Setting<String>>>, allowed: &[&str]| -> R<Option<String>> {
        s.as_ref().map(|s| v.word(f, s, allowed)).transpose()
    };
    let flag = |s: &Option<Spanned<Setting<bool>>>, default: bool| -> R<bool> {
        Ok(s.as_ref().map(|s| v.setting(f, s)).transpose()?.unwrap_or(default))
    };
    let column = match word(&raw.column, &["none", "lowest_empty_below", "lowest_only", "lowest_empty_any"])?.as_deref() {
        Some("lowest_empty_below") => Some(ColumnRetreat::LowestEmptyBelow),
        Some("lowest_only") => Some(ColumnRetreat::LowestOnly),
        Some("lowest_empty_any") => Some(ColumnRetreat::LowestEmptyAny),
        _ => None,
    };
    // Directions as (dx, dy), per cell the cell that way.
    let next = |d: (i8, i8)| -> Vec<u16> { g.cells().map(|c| g.offset(c, d)).collect() };
    let dirs =
        |d: &Option<Spanned<RawDirs>>, fwd: i8| -> R<Vec<(i8, i8)>> { d.as_ref().map_or(Ok(Vec::new()), |d| dirs_of(v, f, d, fwd, false)) };
    let contact_dirs = dirs(&raw.contact, ctx.forward[p])?;
    let contact = g.neighbour_table(&contact_dirs);
    // A victim retreats along its owner's directions.
    let retreat: Vec<Vec<u16>> = dirs(&raw.retreat, ctx.forward[enemy])?.into_iter().map(next).collect();
    if column.is_none() && contact_dirs.is_empty() {
        let e = v.err(f, x.span(), "`push` needs a column attack or `contact` directions", "it would push nothing");
        return Err(e.with_help("e.g. push = { contact = \"diagonal\", retreat = \"backward_diagonal\" }"));
    }
    if retreat.is_empty() {
        let e = v.err(f, x.span(), "`push` needs `retreat` directions", "a victim would have nowhere to go");
        return Err(e.with_help("e.g. retreat = \"backward_diagonal\" (the victim's backward, diagonally)"));
    }
    let last_piece_retreat = match &raw.last_piece_retreat {
        None => 1,
        Some(s) => {
            let n = v.setting(f, s)?;
            if !(1..=30).contains(&n) {
                return Err(v.err(f, s.span(), format!("`last_piece_retreat` is from 1 to 30, not {n}"), "here"));
            }
            n as u16
        }
    };
    // The file of each cell, from the enemy's back edge forward.
    let fwd = ctx.forward[enemy];
    let file = CellTable::build(g.len(), |c, out| {
        let x = g.coords(crate::geometry::Cell(c)).0 as i32;
        let mut ranks: Vec<i32> = (0..g.ranks as i32).collect();
        if fwd < 0 {
            ranks.reverse();
        }
        out.extend(ranks.into_iter().filter_map(|r| g.at(x, r)).map(|c| c.0));
    });
    let mut names: Vec<u16> = g.cells().map(|c| c.0).collect();
    names.sort_by(|a, b| g.name(crate::geometry::Cell(*a)).cmp(g.name(crate::geometry::Cell(*b))));
    let mut order = vec![0u16; g.len()];
    for (i, c) in names.into_iter().enumerate() {
        order[c as usize] = i as u16;
    }
    Ok(Push {
        forward_only: flag(&raw.forward_only, false)?,
        forward: ctx.forward[p],
        column,
        file,
        contact,
        retreat,
        last_piece_retreat,
        edge_immune: word(&raw.edge, &["blocked", "immune"])?.as_deref() == Some("immune"),
        all_victims: word(&raw.victims, &["one", "all"])?.as_deref() == Some("all"),
        chooser: match word(&raw.chooser, &["attacker", "owner"])?.as_deref() {
            Some("owner") => Chooser::Owner,
            _ => Chooser::Attacker,
        },
        extra_move: word(&raw.blocked, &["extra_move", "nothing"])?.as_deref() == Some("extra_move"),
        in_continuation: flag(&raw.in_continuation, true)?,
        order,
        tags: ("extra_move".into(), "retreat".into(), g.cells().map(|c| format!("retreat_from_{}", g.name(c)).into()).collect()),
    })
}
