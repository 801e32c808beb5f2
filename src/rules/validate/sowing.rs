//! `[sowing]` read into [`Sowing`]: the track, each player's pits and store, the skips, the
//! capture rule, feeding and the end; every mistake reported at its key.

use super::{R, V};
use crate::geometry::{Geometry, NONE};
use crate::piece::{ByPlayer, Player};
use crate::rules::error::did_you_mean;
use crate::rules::raw::RawSowing;
use crate::rules::sowing::{GrandSlam, MAX_SEEDS, SowCapture, SowEnd, Sowing};
use std::collections::BTreeMap;
use toml::Spanned;

/// The most seeds one pit may hold at the start.
const MAX_START: i64 = 1000;

/// `[sowing]`, if declared.
pub(super) fn stage_sowing(v: &V, g: &Geometry, players: &ByPlayer<String>) -> R<Option<Sowing>> {
    let Some(src) = &v.m.sowing else {
        return Ok(None);
    };
    let (f, raw) = (src.file, &src.val);
    let circuit = cell_list(v, f, raw.track.get_ref(), g, "track")?;
    if circuit.len() < 2 {
        return Err(v.err(f, raw.track.span(), "the track needs at least two cells", "too short"));
    }
    let pits = per_player(v, f, &raw.pits, players, "pits", |list| cell_list(v, f, list.get_ref(), g, "pit"))?;
    let store = per_player(v, f, &raw.stores, players, "stores", |s| cell(v, f, s, g, "store"))?;
    check_places(v, f, raw, &circuit, &pits, &store, g)?;
    let skips = words(v, f, &raw.skip, &["origin", "opponent_store"])?;
    let skip_store = skips.iter().any(|w| w == "opponent_store");
    let track = ByPlayer::new(
        circuit.iter().copied().filter(|&c| !(skip_store && c == store[Player::FIRST.other()])).collect::<Vec<u16>>(),
        circuit.iter().copied().filter(|&c| !(skip_store && c == store[Player::FIRST])).collect::<Vec<u16>>(),
    );
    if track.0.iter().any(|t| t.len() < 2) {
        return Err(v.err(f, raw.track.span(), "each player's track needs at least two cells besides the skipped store", "too short"));
    }
    let place = track.map(|t| places(t, g.len()));
    let (owner, opposite) = owners_and_opposites(&pits, &store, g.len());
    let n = *raw.seeds.get_ref();
    if !(0..=MAX_START).contains(&n) {
        return Err(v
            .err(f, raw.seeds.span(), format!("seeds = {n} is out of range"), "out of range")
            .with_help(format!("the seeds in each pit at the start: 0 to {MAX_START}")));
    }
    let mut start = vec![0u16; g.len()];
    for p in Player::both() {
        for &c in &pits[p] {
            start[c as usize] = n as u16;
        }
    }
    let total: u32 = start.iter().map(|&s| u32::from(s)).sum();
    if total > MAX_SEEDS {
        return Err(v
            .err(f, raw.seeds.span(), format!("{total} seeds in all is too many"), "too many")
            .with_help(format!("at most {MAX_SEEDS} seeds on the board")));
    }
    let capture = capture(v, f, raw, &opposite)?;
    let end = match one_word(v, f, &raw.end, &["side_empty", "no_move"])?.as_deref() {
        Some("no_move") => SowEnd::NoMove,
        _ => SowEnd::SideEmpty,
    };
    let flag = |b: &Option<Spanned<bool>>| b.as_ref().is_some_and(|b| *b.get_ref());
    let mut listed = circuit.clone();
    listed.extend(Player::both().map(|p| store[p]).into_iter().filter(|c| !circuit.contains(c)));
    Ok(Some(Sowing {
        listed,
        track,
        place,
        pits,
        store,
        owner,
        opposite,
        skip_origin: skips.iter().any(|w| w == "origin"),
        extra_move: flag(&raw.extra_move),
        capture,
        feed: flag(&raw.feed),
        end,
        majority: flag(&raw.majority),
        start,
        tag: "extra_move".into(),
    }))
}

/// Per cell, its place on `track` (`u16::MAX`: not on it).
fn places(track: &[u16], cells: usize) -> Vec<u16> {
    let mut v = vec![u16::MAX; cells];
    for (i, &c) in track.iter().enumerate() {
        v[c as usize] = i as u16;
    }
    v
}

/// Per cell, the player whose pit or store it is, and the pit facing it (pit `i` of one player
/// faces pit `n − 1 − i` of the other, where both have `n`).
fn owners_and_opposites(pits: &ByPlayer<Vec<u16>>, store: &ByPlayer<u16>, cells: usize) -> (Vec<Option<Player>>, Vec<u16>) {
    let mut owner = vec![None; cells];
    for p in Player::both() {
        for &c in pits[p].iter().chain([&store[p]]) {
            owner[c as usize] = Some(p);
        }
    }
    let mut opposite = vec![NONE; cells];
    let (a, b) = (&pits[Player::FIRST], &pits[Player::FIRST.other()]);
    if a.len() == b.len() {
        for (i, &c) in a.iter().enumerate() {
            opposite[c as usize] = b[b.len() - 1 - i];
            opposite[b[b.len() - 1 - i] as usize] = c;
        }
    }
    (owner, opposite)
}

/// The capture rule and its settings.
fn capture(v: &V, f: usize, raw: &RawSowing, opposite: &[u16]) -> R<SowCapture> {
    let rule = one_word(v, f, &raw.capture, &["none", "own_empty", "counts"])?;
    let stray = |key: &str, span: std::ops::Range<usize>, needs: &str| {
        Err(v.err(f, span, format!("`{key}` applies only with capture = \"{needs}\""), "not used by this capture rule"))
    };
    if rule.as_deref() != Some("own_empty")
        && let Some(b) = &raw.capture_empty_opposite
    {
        return stray("capture_empty_opposite", b.span(), "own_empty");
    }
    if rule.as_deref() != Some("counts") {
        if let Some(c) = &raw.counts {
            return stray("counts", c.span(), "counts");
        }
        if let Some(c) = &raw.grand_slam {
            return stray("grand_slam", c.span(), "counts");
        }
    }
    Ok(match rule.as_deref() {
        Some("own_empty") => {
            if opposite.iter().all(|&c| c == NONE) {
                let span = raw.capture.as_ref().map(Spanned::span).unwrap_or_default();
                return Err(v
                    .err(f, span, "`own_empty` needs pits facing each other", "no opposite pits")
                    .with_help("give both players the same number of pits: pit i of one faces pit n − 1 − i of the other"));
            }
            SowCapture::OwnEmpty { empty_opposite: raw.capture_empty_opposite.as_ref().is_some_and(|b| *b.get_ref()) }
        }
        Some("counts") => {
            let Some(list) = &raw.counts else {
                let span = raw.capture.as_ref().map(Spanned::span).unwrap_or_default();
                return Err(v
                    .err(f, span, "capture = \"counts\" needs `counts`, the counts that capture", "counts missing")
                    .with_help("counts = [2, 3]"));
            };
            let mut counts = 0u64;
            for n in list.get_ref() {
                if !(1..=63).contains(n.get_ref()) {
                    return Err(v.err(f, n.span(), format!("count {} is out of range", n.get_ref()), "1 to 63"));
                }
                counts |= 1 << *n.get_ref();
            }
            let grand_slam = match one_word(v, f, &raw.grand_slam, &["no_capture", "capture", "illegal"])?.as_deref() {
                Some("capture") => GrandSlam::Capture,
                Some("illegal") => GrandSlam::Illegal,
                _ => GrandSlam::NoCapture,
            };
            SowCapture::Counts { counts, grand_slam }
        }
        _ => SowCapture::None,
    })
}

/// Pits and stores on the track, each cell one player's once, pits not stores.
fn check_places(
    v: &V,
    f: usize,
    raw: &RawSowing,
    circuit: &[u16],
    pits: &ByPlayer<Vec<u16>>,
    store: &ByPlayer<u16>,
    g: &Geometry,
) -> R<()> {
    let mut seen = vec![false; g.len()];
    for p in Player::both() {
        let list = &pits[p];
        if list.is_empty() {
            return Err(v.err(f, raw.pits.span(), "a player without pits cannot move", "empty list"));
        }
        for &c in list.iter().chain([&store[p]]) {
            let name = g.name(crate::geometry::Cell(c));
            if !circuit.contains(&c) && c != store[p] {
                return Err(v.err(f, raw.track.span(), format!("`{name}` is a pit but not on the track"), "add it here"));
            }
            if std::mem::replace(&mut seen[c as usize], true) {
                return Err(v.err(f, raw.pits.span(), format!("`{name}` is named twice among the pits and stores"), "one owner per cell"));
            }
        }
    }
    Ok(())
}

/// A per-player table: both players named, nothing else.
fn per_player<T, F: Fn(&Spanned<T>) -> R<U>, U>(
    v: &V,
    f: usize,
    table: &Spanned<BTreeMap<String, Spanned<T>>>,
    players: &ByPlayer<String>,
    key: &str,
    read: F,
) -> R<ByPlayer<U>> {
    for k in table.get_ref().keys() {
        v.player(f, table.span(), players, k, &format!("a key of `{key}`"))?;
    }
    let one = |p: Player| {
        let x = table
            .get_ref()
            .get(&players[p])
            .ok_or_else(|| v.err(f, table.span(), format!("`{key}` names no entry for `{}`", players[p]), "one entry per player"))?;
        read(x)
    };
    Ok(ByPlayer::new(one(Player::FIRST)?, one(Player::FIRST.other())?))
}

fn cell(v: &V, f: usize, c: &Spanned<String>, g: &Geometry, what: &str) -> R<u16> {
    g.parse_cell(c.get_ref()).map(|c| c.0).map_err(|e| v.err(f, c.span(), format!("{what} cell {e}"), "not a cell of this board"))
}

/// Cells, each once.
fn cell_list(v: &V, f: usize, list: &[Spanned<String>], g: &Geometry, what: &str) -> R<Vec<u16>> {
    let mut out = Vec::new();
    for c in list {
        let x = cell(v, f, c, g, what)?;
        if out.contains(&x) {
            return Err(v.err(f, c.span(), format!("`{}` is listed twice", c.get_ref()), "a second time"));
        }
        out.push(x);
    }
    Ok(out)
}

fn one_word(v: &V, f: usize, w: &Option<Spanned<String>>, allowed: &[&str]) -> R<Option<String>> {
    w.as_ref().map(|w| words(v, f, std::slice::from_ref(w), allowed).map(|mut x| x.remove(0))).transpose()
}

fn words(v: &V, f: usize, ws: &[Spanned<String>], allowed: &[&str]) -> R<Vec<String>> {
    ws.iter()
        .map(|w| {
            let s = w.get_ref();
            if allowed.contains(&s.as_str()) {
                return Ok(s.clone());
            }
            let e = v.err(f, w.span(), format!("`{s}` is not allowed here; expected one of: {}", allowed.join(", ")), "this value");
            Err(match did_you_mean(s, allowed.iter().copied()) {
                Some(h) => e.with_help(h),
                None => e,
            })
        })
        .collect()
}
