//! `custodian = { … }` and `surround = { … }` on a piece kind, compiled for one owner: the
//! neighbour tables of their directions, the codes of their kinds, the hostile zones resolved
//! for the victims' owner (see `rules::custodian`).

use super::{R, V};
use crate::geometry::{Geometry, NONE};
use crate::piece::Player;
use crate::rules::custodian::{Custodian, Hostile, HostileWhen, Shieldwall, Surround};
use crate::rules::movement::{PieceCtx, dirs_of};
use crate::rules::raw::{RawCustodian, RawDirs, RawHostile, RawShieldwall, RawSurround};
use crate::rules::{CodeSet, KindSet, enemy_codes};
use toml::Spanned;

/// A direction (files, ranks) and, per cell, the neighbour that way (or `NONE`).
type DirTable = ((i8, i8), Vec<u16>);

/// The directions of `d` (default orthogonal), each with its neighbour table.
fn tables(v: &V, f: usize, d: &Option<Spanned<RawDirs>>, fwd: i8, g: &Geometry) -> R<Vec<DirTable>> {
    let dirs = match d {
        Some(d) => dirs_of(v, f, d, fwd, false)?,
        None => vec![(0, 1), (1, 0), (0, -1), (-1, 0)],
    };
    Ok(dirs.into_iter().map(|dir| (dir, next_table(g, dir))).collect())
}

/// Per cell, the neighbour along `dir` (or `NONE`).
fn next_table(g: &Geometry, dir: (i8, i8)) -> Vec<u16> {
    g.cells().map(|c| g.offset(c, dir)).collect()
}

/// The codes of `p`'s own kinds in `kinds`.
fn own_codes(kinds: KindSet, p: Player) -> CodeSet {
    enemy_codes(kinds, p.other())
}

/// A mover's custodian capture, for owner `p`.
pub(super) fn stage_custodian(v: &V, f: usize, c: &Spanned<RawCustodian>, p: Player, ctx: &PieceCtx, g: &Geometry) -> R<Custodian> {
    let raw = c.get_ref();
    let dirs = tables(v, f, &raw.directions, ctx.forward[p], g)?;
    let hostile = raw.hostile.iter().map(|h| hostile(v, f, h, p, ctx)).collect::<R<Vec<_>>>()?;
    let anvils = own_codes(v.kind_set(f, &raw.anvils, ctx.kinds)?, p);
    let shieldwall = raw.shieldwall.as_ref().map(|w| shieldwall(v, f, w, p, ctx, g, &dirs)).transpose()?;
    Ok(Custodian {
        victims: enemy_codes(v.kind_set(f, &raw.victims, ctx.kinds)?, p),
        anvils,
        hostile,
        shieldwall,
        next: dirs.into_iter().map(|(_, t)| t).collect(),
    })
}

/// A hostile zone, resolved for the victims' owner (the enemy of `p`).
fn hostile(v: &V, f: usize, h: &Spanned<RawHostile>, p: Player, ctx: &PieceCtx) -> R<Hostile> {
    let raw = h.get_ref();
    let zone = v.zone_named(f, raw.zone.get_ref(), raw.zone.span(), ctx.zones, p.other())?;
    let when = match raw.when.as_ref().map(|w| v.word(f, w, &["any", "empty", "occupied"])).transpose()?.as_deref() {
        Some("empty") => HostileWhen::Empty,
        Some("occupied") => HostileWhen::Occupied,
        _ => HostileWhen::Always,
    };
    Ok(Hostile { zone, when })
}

/// The shieldwall: its least row, spared kinds, and each direction's perpendicular tables.
fn shieldwall(v: &V, f: usize, w: &Spanned<RawShieldwall>, p: Player, ctx: &PieceCtx, g: &Geometry, dirs: &[DirTable]) -> R<Shieldwall> {
    if g.hex {
        // A row along a hex board's edge has two cells on its inner side, not one in front.
        let e = v.err(f, w.span(), "the shieldwall needs the cell in front of each piece of a row", "but this board is hex");
        return Err(e.with_help("a shieldwall works on square boards; custodian capture itself works on hex boards"));
    }
    let raw = w.get_ref();
    let min = match &raw.min {
        None => 2,
        Some(s) => {
            let n = v.setting(f, s)?;
            if !(1..=99).contains(&n) {
                return Err(v.err(f, s.span(), format!("a shieldwall's `min` is 1 to 99 pieces, not {n}"), "here"));
            }
            n as u16
        }
    };
    let spare = match &raw.spare {
        None => 0,
        some => enemy_codes(v.kind_set(f, some, ctx.kinds)?, p),
    };
    let sides = dirs.iter().map(|&((dx, dy), _)| [next_table(g, (-dy, dx)), next_table(g, (dy, -dx))]).collect();
    Ok(Shieldwall { min, spare, sides })
}

/// A victim kind's `surround`, for owner `p` (the piece's own owner).
pub(super) fn stage_surround(v: &V, f: usize, s: &Spanned<RawSurround>, p: Player, ctx: &PieceCtx, g: &Geometry) -> R<Surround> {
    let raw = s.get_ref();
    let sides: Vec<Vec<u16>> = tables(v, f, &raw.directions, ctx.forward[p], g)?.into_iter().map(|(_, t)| t).collect();
    let zone = raw.zone.as_ref().map(|_| v.zone_ref(f, &raw.zone, ctx.zones, p)).transpose()?;
    let edge_closed = raw.edge.as_ref().map(|e| v.word(f, e, &["immune", "closed"])).transpose()?.as_deref() == Some("closed");
    debug_assert!(sides.iter().all(|t| t.len() == g.len() && t.iter().all(|&c| c == NONE || (c as usize) < g.len())));
    Ok(Surround { sides, zone, edge_closed })
}

/// Custodian captures are made by make, not listed by the attack query: a rule that asks whether
/// a piece is attacked (`[rules] check = "illegal"`, `give_check = false`, an end's `if_attacked`
/// or `safe`) would not see them as threats, and would silently answer wrong. Refused at that
/// key, naming the kind with `custodian`, until the attack query knows enclosures.
pub(super) fn refuse_unseen_threats(v: &V, check_illegal: bool, no_giving_check: bool) -> R<()> {
    let Some(kind) = v.m.pieces.iter().find_map(|(name, p)| p.val.custodian.as_ref().map(|_| name)) else { return Ok(()) };
    let mut asks = Vec::new();
    if let Some(r) = &v.m.rules {
        if let Some(c) = r.val.check.as_ref().filter(|_| check_illegal) {
            asks.push((r.file, c.span(), "`check = \"illegal\"`"));
        }
        if let Some(g) = r.val.give_check.as_ref().filter(|_| no_giving_check) {
            asks.push((r.file, g.span(), "`give_check = false`"));
        }
    }
    for e in v.m.ends.iter().flatten() {
        if !v.when(e.file, &e.val.when)? {
            continue;
        }
        if let Some(k) = e.val.if_attacked.as_ref().and_then(|k| k.first()) {
            asks.push((e.file, k.span(), "`if_attacked`"));
        }
        if let Some(s) = &e.val.safe
            && v.setting(e.file, s)?
        {
            asks.push((e.file, s.span(), "`safe = true`"));
        }
    }
    match asks.first() {
        None => Ok(()),
        Some((f, span, what)) => {
            let msg = format!(
                "{what} asks whether a piece is attacked, but custodian captures (`{kind}` has `custodian`) are not moves the attack query sees"
            );
            Err(v
                .err(*f, span.clone(), msg, "would miss enclosures")
                .with_help("leave this rule out, or decide the end with a hook until the attack query knows custodian captures"))
        }
    }
}
