//! The board (which grid points are cells) and the players (names, order, forward).

use super::{R, V};
use crate::geometry::Geometry;
use crate::piece::{ByPlayer, Player};
use crate::rules::error::LoadError;
use toml::Spanned;

pub(super) fn stage_geometry(v: &V) -> R<Geometry> {
    let Some(b) = &v.m.board else {
        return Err(LoadError::at(v.file(v.main_file()), 0..0, "the variant has no [board]", "expected a [board] table")
            .with_help("add [board] with files and ranks"));
    };
    let f = b.file;
    let raw = &b.val;
    let (files, ranks) = (*raw.files.get_ref(), *raw.ranks.get_ref());
    if !(1..=26).contains(&files) {
        return Err(v.err(f, raw.files.span(), format!("a board has 1 to 26 files, not {files}"), "out of range"));
    }
    if !(1..=99).contains(&ranks) {
        return Err(v.err(f, raw.ranks.span(), format!("a board has 1 to 99 ranks, not {ranks}"), "out of range"));
    }
    let parity = match raw.cells.as_ref().map(|c| c.get_ref().as_str()) {
        None | Some("all") => None,
        Some("dark") => Some(0),
        Some("light") => Some(1),
        Some(other) => {
            let c = raw.cells.as_ref().unwrap();
            return Err(v.err(f, c.span(), format!("`{other}` is not a cell rule; expected all, dark or light"), "here"));
        }
    };
    let mut mask: Option<Vec<Vec<bool>>> = None;
    if let Some(m) = &raw.mask {
        let rows: Vec<Vec<bool>> = m
            .get_ref()
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).map(|c| c != '-').collect::<Vec<bool>>())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != ranks as usize || rows.iter().any(|r| r.len() != files as usize) {
            return Err(v
                .err(f, m.span(), format!("the mask must have {ranks} rows of {files} marks"), "this mask")
                .with_help("one row per rank, top rank first; `-` for no cell, any other mark for a cell"));
        }
        mask = Some(rows);
    }
    let (files, ranks) = (files as u8, ranks as u8);
    let mut g = Geometry::new(files, ranks, |fi, ri| {
        let par_ok = parity.is_none_or(|p| (fi as u32 + ri as u32) % 2 == p);
        let mask_ok = mask.as_ref().is_none_or(|m| m[(ranks - 1 - ri) as usize][fi as usize]);
        par_ok && mask_ok
    });
    if !raw.holes.is_empty() {
        let mut holes = Vec::new();
        for h in &raw.holes {
            let c = g.parse_cell(h.get_ref()).map_err(|e| v.err(f, h.span(), e.to_string(), "not a cell"))?;
            holes.push(g.coords(c));
        }
        let old = g.clone();
        g = Geometry::new(files, ranks, |fi, ri| old.at(fi as i32, ri as i32).is_some() && !holes.contains(&(fi, ri)));
    }
    if g.is_empty() {
        return Err(v.err(f, raw.files.span(), "the board has no cells", "here"));
    }
    g.hex = v.hex_board()?;
    Ok(g)
}

impl V<'_> {
    /// Whether `[board] geometry = "hex"` (a hex board); any other word than `square` or `hex`
    /// is an error at it.
    pub(in crate::rules) fn hex_board(&self) -> R<bool> {
        let Some(b) = &self.m.board else { return Ok(false) };
        match b.val.geometry.as_ref() {
            None => Ok(false),
            Some(gm) => match gm.get_ref().as_str() {
                "square" => Ok(false),
                "hex" => Ok(true),
                other => Err(self
                    .err(b.file, gm.span(), format!("`{other}` is not a board geometry"), "here")
                    .with_help("expected square (the default) or hex")),
            },
        }
    }
}

pub(super) fn stage_players(v: &V) -> R<(ByPlayer<String>, Player, ByPlayer<i8>)> {
    let Some(p) = &v.m.players else {
        return Ok((ByPlayer::new("white".into(), "black".into()), Player::FIRST, ByPlayer::new(1, -1)));
    };
    let f = p.file;
    let names = p.val.names.get_ref();
    if names.len() != 2 || names[0] == names[1] || names.iter().any(|n| n.is_empty() || n.contains(char::is_whitespace)) {
        return Err(v.err(f, p.val.names.span(), "a game has exactly two players with different one-word names", "here"));
    }
    // (A record says `draw` where no one won: a player of that name would make it ambiguous.)
    if names.iter().any(|n| n.eq_ignore_ascii_case("draw")) {
        return Err(v.err(f, p.val.names.span(), "a player may not be called `draw`: records use it for a drawn game", "here"));
    }
    let pn = ByPlayer::new(names[0].to_ascii_lowercase(), names[1].to_ascii_lowercase());
    let find = |s: &Spanned<String>| -> R<Player> {
        Player::both().into_iter().find(|&x| pn[x] == s.get_ref().to_ascii_lowercase()).ok_or_else(|| {
            v.err(f, s.span(), format!("`{}` is not a player; players are {} and {}", s.get_ref(), pn.0[0], pn.0[1]), "unknown player")
        })
    };
    let first = match &p.val.first {
        Some(s) => find(s)?,
        None => Player::FIRST,
    };
    if first != Player::FIRST {
        let s = p.val.first.as_ref().unwrap();
        return Err(v.err(f, s.span(), "the player who moves first must be listed first in `names`", "here"));
    }
    let mut forward = ByPlayer::new(1, -1);
    for (name, dir) in &p.val.forward {
        let pl = v.player(f, dir.span(), &pn, name, "unknown player")?;
        forward[pl] = match dir.get_ref().as_str() {
            "north" | "up" => 1,
            "south" | "down" => -1,
            other => {
                return Err(v.err(f, dir.span(), format!("`{other}` is not a forward direction; expected north or south"), "here"));
            }
        };
    }
    Ok((pn, first, forward))
}
