//! Zones: named sets of cells, shared or per player, built from cells, rectangles, files,
//! ranks and unions of zones defined before them.

use super::{R, V};
use crate::geometry::{Cell, Geometry, ZoneSet};
use crate::piece::{ByPlayer, Player};
use crate::rules::names::Names;
use crate::rules::raw::RawZone;
use crate::rules::validate::Src;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

/// The zones by name, as per-player zone masks (a shared zone has the same mask twice).
pub(crate) type ZoneMap = BTreeMap<String, ByPlayer<ZoneSet>>;

fn zone_cells(v: &V, f: usize, g: &Geometry, z: &RawZone, done: &ZoneMap, player: Player) -> R<Vec<Cell>> {
    let mut cells = Vec::new();
    for c in &z.cells {
        cells.push(g.parse_cell(c.get_ref()).map_err(|e| v.err(f, c.span(), format!("zone cell {e}"), "not a cell of this board"))?);
    }
    if !z.rect.is_empty() {
        if z.rect.len() != 2 {
            return Err(v.err(f, z.rect[0].span(), "a rect is two opposite corners, like [\"b2\", \"e5\"]", "here"));
        }
        let a = crate::geometry::parse_coords(z.rect[0].get_ref()).map_err(|e| v.err(f, z.rect[0].span(), e.to_string(), "here"))?;
        let b = crate::geometry::parse_coords(z.rect[1].get_ref()).map_err(|e| v.err(f, z.rect[1].span(), e.to_string(), "here"))?;
        for c in g.cells() {
            let (cf, cr) = g.coords(c);
            let (cf, cr) = (cf as i32, cr as i32);
            if cf >= a.0.min(b.0) && cf <= a.0.max(b.0) && cr >= a.1.min(b.1) && cr <= a.1.max(b.1) {
                cells.push(c);
            }
        }
    }
    for fl in &z.files {
        let s = fl.get_ref();
        if s.len() != 1 || !s.as_bytes()[0].is_ascii_lowercase() || (s.as_bytes()[0] - b'a') >= g.files {
            return Err(v.err(f, fl.span(), format!("`{s}` is not a file of this board"), "here"));
        }
        let fi = s.as_bytes()[0] - b'a';
        cells.extend(g.cells().filter(|&c| g.coords(c).0 == fi));
    }
    for r in &z.ranks {
        let ri = *r.get_ref();
        if !(1..=g.ranks as i64).contains(&ri) {
            return Err(v.err(f, r.span(), format!("rank {ri} is not on this board (ranks 1 to {})", g.ranks), "here"));
        }
        cells.extend(g.cells().filter(|&c| g.coords(c).1 as i64 == ri - 1));
    }
    for u in &z.union {
        let known = Names::new("zone", done.keys().map(String::as_str));
        v.lookup(f, u.span(), &known, u.get_ref(), " (a union names zones defined before it)", "here")?;
        let m = &done[u.get_ref()];
        cells.extend(g.cells().filter(|&c| g.zones_of(c.0).meets(m[player])));
    }
    cells.sort();
    cells.dedup();
    Ok(cells)
}

pub(super) fn stage_zones(v: &V, g: &mut Geometry, players: &ByPlayer<String>) -> R<ZoneMap> {
    let mut done = ZoneMap::new();
    // Zones may refer to zones defined before them in a union; resolve in dependency order by
    // trying repeatedly (the number of zones is small).
    let mut pending: Vec<(&String, &Src<Spanned<RawZone>>)> = v.m.zones.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut next = Vec::new();
        for (name, z) in pending {
            let raw = z.val.get_ref();
            let deps_ready = raw.union.iter().all(|u| done.contains_key(u.get_ref()) || !v.m.zones.contains_key(u.get_ref()))
                && raw
                    .by_player
                    .values()
                    .all(|bp| bp.union.iter().all(|u| done.contains_key(u.get_ref()) || !v.m.zones.contains_key(u.get_ref())));
            if !deps_ready {
                next.push((name, z));
                continue;
            }
            let f = z.file;
            let mut masks = ByPlayer::new(ZoneSet::EMPTY, ZoneSet::EMPTY);
            if raw.by_player.is_empty() {
                // A shared zone is shared only if its cells are: a union of a zone that differs
                // per player differs per player too, each player's from that player's cells.
                let cells =
                    ByPlayer::new(zone_cells(v, f, g, raw, &done, Player::FIRST)?, zone_cells(v, f, g, raw, &done, Player::SECOND)?);
                if cells[Player::FIRST] == cells[Player::SECOND] {
                    let id = g.add_zone(name, &cells[Player::FIRST]).map_err(|e| v.err(f, z.val.span(), e.to_string(), "here"))?;
                    masks = ByPlayer::new(ZoneSet::one(id), ZoneSet::one(id));
                } else {
                    for p in [Player::FIRST, Player::SECOND] {
                        let id = g
                            .add_zone(&format!("{name}@{}", players[p]), &cells[p])
                            .map_err(|e| v.err(f, z.val.span(), e.to_string(), "here"))?;
                        masks[p] = ZoneSet::one(id);
                    }
                }
            } else {
                for (pname, pz) in &raw.by_player {
                    let p = v.player(f, z.val.span(), players, pname, "in this zone")?;
                    let cells = zone_cells(v, f, g, pz, &done, p)?;
                    let id = g.add_zone(&format!("{name}@{pname}"), &cells).map_err(|e| v.err(f, z.val.span(), e.to_string(), "here"))?;
                    masks[p] = ZoneSet::one(id);
                }
            }
            done.insert(name.clone(), masks);
        }
        if next.len() == before {
            let (name, z) = next[0];
            return Err(v.err(z.file, z.val.span(), format!("zone `{name}` is part of a cycle of unions"), "here"));
        }
        pending = next;
    }
    Ok(done)
}

impl V<'_> {
    /// The mask of an optional zone setting for player `p` (empty when absent).
    pub(crate) fn zone_ref(
        &self,
        f: usize,
        s: &Option<Spanned<crate::rules::raw::Setting<String>>>,
        zones: &ZoneMap,
        p: Player,
    ) -> R<ZoneSet> {
        let Some(s) = s else { return Ok(ZoneSet::EMPTY) };
        let name = self.setting(f, s)?;
        self.zone_named(f, &name, s.span(), zones, p)
    }

    /// The mask of a named zone for player `p` ([`ZoneSet::BOARD`] for `board`, the whole
    /// board).
    pub(crate) fn zone_named(&self, f: usize, name: &str, span: Range<usize>, zones: &ZoneMap, p: Player) -> R<ZoneSet> {
        if name == "board" {
            return Ok(ZoneSet::BOARD);
        }
        let known = Names::new("zone", zones.keys().map(String::as_str));
        self.lookup(f, span, &known, name, "", "not a zone of this variant")?;
        Ok(zones[name][p])
    }
}

#[cfg(test)]
mod tests {
    use crate::piece::Player;

    /// A shared zone made as a union of a zone that differs per player holds, for each player,
    /// that player's cells: white's far rank is the 8th, black's the 1st.
    #[test]
    fn a_union_of_a_per_player_zone_is_per_player() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("union.toml");
        std::fs::write(
            &path,
            r#"
name = "union"
extends = "chess"
[zones.far_rank]
by_player = { white = { ranks = [8] }, black = { ranks = [1] } }
[zones.corner]
cells = ["a4"]
[zones.goal]
union = ["far_rank", "corner"]
"#,
        )
        .unwrap();
        let v = crate::variant::Variant::load(path.to_str().unwrap(), &[]).unwrap();
        let g = &v.rules.geometry;
        let cells = |p: Player| -> Vec<String> {
            let m = v.rules.zone_mask("goal", p).unwrap();
            g.cells().filter(|c| g.zones_of(c.0).meets(m)).map(|c| g.name(c).to_string()).collect()
        };
        let (white, black) = (cells(Player::FIRST), cells(Player::SECOND));
        assert_eq!(white.len(), 9, "{white:?}");
        assert!(white.contains(&"e8".to_string()) && white.contains(&"a4".to_string()) && !white.contains(&"e1".to_string()), "{white:?}");
        assert!(black.contains(&"e1".to_string()) && black.contains(&"a4".to_string()) && !black.contains(&"e8".to_string()), "{black:?}");
    }
}
