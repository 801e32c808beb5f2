//! The Go family's keys: `liberties = { … }` on a piece kind, `[rules] ko` and
//! `points_territory`, `[ai] random` (see `rules::groups`).

use super::{R, V};
use crate::geometry::Geometry;
use crate::rules::Score;
use crate::rules::groups::{GoKeys, Ko, Liberties, MAX_CELLS, Neighbours, RandomPolicy};
use crate::rules::movement::dirs_of;
use crate::rules::raw::RawLiberties;
use toml::Spanned;

/// The orthogonal directions, the default of `liberties`.
const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// A board larger than the group walks handle: a load error at `span`.
fn too_large(v: &V, f: usize, span: std::ops::Range<usize>, g: &Geometry, key: &str) -> crate::rules::error::LoadError {
    v.err(f, span, format!("`{key}` works on boards of at most {MAX_CELLS} cells, and this one has {}", g.len()), "here")
}

/// The Go family's keys beside the pieces (`[rules] ko`, `[ai] random`, `[board] draw`), and
/// `points_territory` added to the count of `points`.
pub(super) fn stage(v: &V, rules: &mut crate::rules::Ruleset) -> R<()> {
    rules.go = GoKeys { ko: stage_ko(v)?, random: stage_random(v)?, intersections: stage_draw(v)? };
    let lib = rules.pieces.iter().find_map(|p| p.liberties.as_ref());
    rules.score = stage_territory(v, rules.score.take(), &rules.geometry, lib)?;
    Ok(())
}

/// `liberties = { directions, suicide }` on a kind (`fwd`: its owner's forward, for relative
/// direction names).
pub(super) fn stage_liberties(v: &V, f: usize, raw: &Spanned<RawLiberties>, fwd: i8, g: &Geometry) -> R<Liberties> {
    if g.len() > MAX_CELLS {
        return Err(too_large(v, f, raw.span(), g, "liberties"));
    }
    let r = raw.get_ref();
    let dirs = match &r.directions {
        Some(d) => dirs_of(v, f, d, fwd, false)?,
        None => ORTHOGONAL.to_vec(),
    };
    let suicide = match &r.suicide {
        Some(s) => v.word(f, s, &["illegal", "allowed"])? == "allowed",
        None => false,
    };
    Ok(Liberties { n: Neighbours::new(g, &dirs), suicide })
}

/// `[rules] ko` (default `"none"`).
fn stage_ko(v: &V) -> R<Ko> {
    let Some((f, k)) = v.m.rules.as_ref().and_then(|r| r.val.ko.as_ref().map(|k| (r.file, k))) else { return Ok(Ko::None) };
    Ok(match v.word(f, k, &["none", "simple", "positional", "situational"])?.as_str() {
        "simple" => Ko::Simple,
        "positional" => Ko::Positional,
        "situational" => Ko::Situational,
        _ => Ko::None,
    })
}

/// `[rules] points_territory = true`: the count of `points` adds each player's regions, joined
/// along the directions of the first kind with `liberties` (orthogonal without one).
fn stage_territory(v: &V, score: Option<Score>, g: &Geometry, lib: Option<&Liberties>) -> R<Option<Score>> {
    let Some((f, t)) = v.m.rules.as_ref().and_then(|r| r.val.points_territory.as_ref().map(|t| (r.file, t))) else { return Ok(score) };
    if !*t.get_ref() {
        return Ok(score);
    }
    // `stage_score` made a count for `points_territory` alone.
    let Some(mut score) = score else { return Ok(None) };
    if g.len() > MAX_CELLS {
        return Err(too_large(v, f, t.span(), g, "points_territory"));
    }
    score.territory = Some(lib.map_or_else(|| Neighbours::new(g, &ORTHOGONAL), |l| l.n.clone()));
    Ok(Some(score))
}

/// `[ai] random = { pass, own_eyes }`.
fn stage_random(v: &V) -> R<RandomPolicy> {
    let Some((f, r)) = v.m.ai.as_ref().and_then(|a| a.val.random.as_ref().map(|r| (a.file, r))) else {
        return Ok(RandomPolicy::default());
    };
    let raw = r.get_ref();
    let pass_last = match &raw.pass {
        Some(p) => v.word(f, p, &["any", "last"])? == "last",
        None => false,
    };
    Ok(RandomPolicy { pass_last, no_own_eyes: raw.own_eyes.as_ref().is_some_and(|o| !*o.get_ref()) })
}

/// `[board] draw`: whether diagrams draw the board's cells as the crossings of lines
/// (`"intersections"`) rather than as squares (`"squares"`, the default).
fn stage_draw(v: &V) -> R<bool> {
    let Some((f, d)) = v.m.board.as_ref().and_then(|b| b.val.draw.as_ref().map(|d| (b.file, d))) else { return Ok(false) };
    match d.get_ref().as_str() {
        "squares" => Ok(false),
        "intersections" => Ok(true),
        w => Err(v.err(f, d.span(), format!("`{w}` is not a way to draw a board; expected one of: squares, intersections"), "this value")),
    }
}
