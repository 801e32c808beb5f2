//! Raw TOML → [`Ruleset`], in named stages: options, geometry, players, zones, pieces, movement,
//! captures, ends, setup, hooks. Each stage reports its problems as a [`LoadError`] pointing
//! into the file that wrote the offending value.

use super::error::{LoadError, SourceFile, did_you_mean};
use super::options::{OptionDecl, OptionType, OptionValue, Options, move_limit_decl};
use super::raw::*;
use super::*;
use crate::geometry::{Cell, Geometry, compass_vector};
use crate::piece::{ByPlayer, KindId, Player, code, code_count};
use std::collections::BTreeMap;
use toml::Spanned;

/// A value together with the index of the file that wrote it.
#[derive(Clone, Debug)]
pub struct Src<T> {
    pub file: usize,
    pub val: T,
}

/// An option as merged along an `extends` chain.
#[derive(Clone, Debug)]
pub struct MergedOption {
    pub decl: Src<RawOption>,
    /// A later file's new default.
    pub default: Option<Src<Spanned<toml::Value>>>,
    pub description: Option<String>,
}

/// A variant's sections merged along its `extends` chain: each section remembers its file.
#[derive(Clone, Debug, Default)]
pub struct Merged {
    pub files: Vec<SourceFile>,
    /// Variant names, most derived first.
    pub chain: Vec<String>,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub script: Option<Src<Spanned<String>>>,
    pub board: Option<Src<RawBoard>>,
    pub players: Option<Src<RawPlayers>>,
    pub zones: BTreeMap<String, Src<Spanned<RawZone>>>,
    pub counters: BTreeMap<String, i64>,
    pub pieces: BTreeMap<String, Src<RawPiece>>,
    pub captures: Option<Src<RawCaptures>>,
    pub ends: Option<Src<Vec<RawEnd>>>,
    pub setup: Option<Src<RawSetup>>,
    pub options: BTreeMap<String, MergedOption>,
    pub hooks: Option<Src<RawHooks>>,
    pub crown: Option<Src<RawCrown>>,
    pub display: Option<Src<RawDisplay>>,
}

impl Merged {
    /// Lays one file's sections over what the files before it (its bases) said.
    pub fn overlay(&mut self, file: usize, raw: RawVariant, name: &str) {
        self.chain.insert(0, name.to_string());
        self.name = name.to_string();
        if raw.title.is_some() {
            self.title = raw.title;
        }
        if raw.description.is_some() {
            self.description = raw.description;
        }
        if let Some(s) = raw.script {
            self.script = Some(Src { file, val: s });
        }
        if let Some(b) = raw.board {
            self.board = Some(Src { file, val: b });
        }
        if let Some(p) = raw.players {
            self.players = Some(Src { file, val: p });
        }
        for (k, z) in raw.zones {
            self.zones.insert(k, Src { file, val: z });
        }
        self.counters.extend(raw.counters);
        for (k, p) in raw.pieces {
            self.pieces.insert(k, Src { file, val: p });
        }
        if let Some(c) = raw.captures {
            self.captures = Some(Src { file, val: c });
        }
        if let Some(e) = raw.ends {
            self.ends = Some(Src { file, val: e });
        }
        if let Some(s) = raw.setup {
            self.setup = Some(Src { file, val: s });
        }
        if let Some(c) = raw.crown {
            self.crown = Some(Src { file, val: c });
        }
        if let Some(d) = raw.display {
            self.display = Some(Src { file, val: d });
        }
        if let Some(h) = raw.hooks {
            self.hooks = Some(Src { file, val: h });
        }
        for (k, o) in raw.options {
            match self.options.get_mut(&k) {
                Some(existing) if o.values.is_none() && o.min.is_none() && o.max.is_none() => {
                    if let Some(d) = o.default {
                        existing.default = Some(Src { file, val: d });
                    }
                    if o.description.is_some() {
                        existing.description = o.description;
                    }
                }
                _ => {
                    self.options.insert(k, MergedOption { decl: Src { file, val: o }, default: None, description: None });
                }
            }
        }
    }
}

struct V<'a> {
    m: &'a Merged,
    opts: Options,
}

type R<T> = Result<T, LoadError>;

impl V<'_> {
    fn file(&self, i: usize) -> &SourceFile {
        &self.m.files[i]
    }

    fn err(&self, file: usize, span: std::ops::Range<usize>, msg: impl Into<String>, label: impl Into<String>) -> LoadError {
        LoadError::at(self.file(file), span, msg, label)
    }

    fn main_file(&self) -> usize {
        self.m.files.len() - 1
    }
}

/// Builds the ruleset of a merged variant with the given option overrides (`name`, `value`).
///
/// # Errors
/// The first problem found, pointing into the file that caused it.
pub fn validate(m: &Merged, overrides: &[(String, String)]) -> R<Ruleset> {
    let mut v = V { m, opts: Options::default() };
    v.opts = stage_options(&v, overrides)?;
    let (mut geometry, files_of_board) = stage_geometry(&v)?;
    let (player_names, first, forward) = stage_players(&v)?;
    let zones = stage_zones(&v, &mut geometry, &player_names, files_of_board)?;
    let kinds = stage_kinds(&v, &player_names)?;
    let attributes: Vec<String> = {
        let mut a: Vec<String> = m.pieces.values().flat_map(|p| p.val.attributes.keys().cloned()).collect();
        if m.crown.is_some() {
            a.push(CROWN.to_string());
        }
        a.sort();
        a.dedup();
        a
    };
    let kinds: Vec<KindDef> = kinds
        .into_iter()
        .map(|mut k| {
            let raw = &m.pieces[&k.name].val;
            k.attributes = raw.attributes.iter().map(|(n, v)| (attributes.iter().position(|a| a == n).unwrap() as u8, *v as i32)).collect();
            if m.crown.is_some() && !k.attributes.iter().any(|&(s, _)| attributes[s as usize] == CROWN) {
                // Every piece carries the crown marker, 0 until it is crowned.
                k.attributes.push((attributes.iter().position(|a| a == CROWN).unwrap() as u8, 0));
                k.attributes.sort();
            }
            k
        })
        .collect();
    if attributes.len() > 16 {
        // make/undo carry a piece's attributes in a fixed array of 16.
        return Err(LoadError::plain(format!(
            "a variant may declare at most 16 attributes; this one has {}: {}",
            attributes.len(),
            attributes.join(", ")
        )));
    }
    let counters: Vec<(String, i32)> = m.counters.iter().map(|(k, v)| (k.clone(), *v as i32)).collect();
    let counter_names: Vec<String> = counters.iter().map(|(n, _)| n.clone()).collect();
    let ctx = PieceCtx { kinds: &kinds, counters: &counter_names, zones: &zones, forward: &forward, attributes: &attributes };
    let mut pieces = vec![PieceRules::default(); code_count(kinds.len())];
    let mut dedup = false;
    for (ki, k) in kinds.iter().enumerate() {
        let raw = &m.pieces[&k.name];
        for p in Player::both() {
            let c = code(KindId(ki as u8), p) as usize;
            pieces[c] = stage_movement(&v, raw, p, &ctx, &mut geometry, &mut dedup)?;
        }
    }
    let captures = stage_captures(&v)?;
    let ends = stage_ends(&v, &zones, &geometry)?;
    let setup = stage_setup(&v, &geometry, &kinds, &player_names, attributes.len())?;
    let hooks = stage_hooks(&v, &kinds, &geometry)?;
    let crown = stage_crown(&v, &attributes)?;
    let display_attribute = match &m.display {
        Some(d) => Some(attributes.iter().position(|a| a == d.val.attribute.get_ref()).ok_or_else(|| {
            v.err(
                d.file,
                d.val.attribute.span(),
                format!("unknown attribute `{}`", d.val.attribute.get_ref()),
                "declare it under [pieces.NAME.attributes]",
            )
        })? as u8),
        None => None,
    };
    let move_limit = match v.opts.get("move_limit") {
        Some(OptionValue::Int(i)) => *i as u32,
        _ => 0,
    };
    let zobrist = Zobrist::new(geometry.len(), code_count(kinds.len()));
    let royal_ends_game = ends.iter().any(|e| matches!(e.kind, EndKind::RoyalCaptured));
    let repetition = ends.iter().any(|e| matches!(e.kind, EndKind::Repetition { .. }));
    let end_checks = ends.iter().any(|e| {
        matches!(e.kind, EndKind::RoyalCaptured | EndKind::RoyalLeftBoard | EndKind::ZoneFilled(_) | EndKind::PiecesAtMost { .. })
    });
    Ok(Ruleset {
        name: m.name.clone(),
        title: m.title.clone().unwrap_or_else(|| m.name.clone()),
        description: m.description.clone().unwrap_or_default(),
        geometry,
        player_names,
        first,
        forward,
        kinds,
        attributes,
        counters,
        pieces,
        captures,
        ends,
        setup,
        options: v.opts,
        hooks,
        move_limit,
        zobrist,
        dedup,
        royal_ends_game,
        repetition,
        end_checks,
        crown,
        display_attribute,
        zones: zones.into_iter().collect(),
    })
}

// ---------------------------------------------------------------- options

fn toml_to_option_value(v: &toml::Value) -> Option<OptionValue> {
    match v {
        toml::Value::String(s) => Some(OptionValue::Text(s.clone())),
        toml::Value::Integer(i) => Some(OptionValue::Int(*i)),
        toml::Value::Boolean(b) => Some(OptionValue::Bool(*b)),
        _ => None,
    }
}

fn stage_options(v: &V, overrides: &[(String, String)]) -> R<Options> {
    let mut decls = Vec::new();
    for (name, mo) in &v.m.options {
        let f = mo.decl.file;
        let raw = &mo.decl.val;
        let declared_in = v.m.chain.get(v.m.chain.len() - 1 - f.min(v.m.chain.len() - 1)).cloned().unwrap_or_default();
        let ty = match (&raw.values, raw.min, raw.max) {
            (Some(vals), None, None) => {
                let items: Vec<OptionValue> = vals.get_ref().iter().filter_map(toml_to_option_value).collect();
                if items.len() != vals.get_ref().len() || items.is_empty() {
                    return Err(v.err(f, vals.span(), format!("option `{name}`: values must be words, or true and false"), "here"));
                }
                if items.iter().all(|i| matches!(i, OptionValue::Bool(_))) {
                    OptionType::Bool
                } else if items.iter().all(|i| matches!(i, OptionValue::Text(_))) {
                    OptionType::Choice(items.iter().map(|i| i.to_string()).collect())
                } else {
                    return Err(v.err(f, vals.span(), format!("option `{name}`: mixed value types"), "all words, or true and false"));
                }
            }
            (None, Some(min), Some(max)) => OptionType::Int { min, max, also: raw.also.clone() },
            _ => {
                let span = raw.default.as_ref().map(|d| d.span()).unwrap_or(0..0);
                return Err(v
                    .err(f, span, format!("option `{name}` needs `values` (a choice) or `min` and `max` (an integer)"), "declared here")
                    .with_help("e.g. values = [\"any\", \"maximum\"], or min = 0 and max = 11"));
            }
        };
        let (dfile, dval) = match &mo.default {
            Some(d) => (d.file, Some(&d.val)),
            None => (f, raw.default.as_ref()),
        };
        let default = match dval {
            Some(d) => {
                let val = toml_to_option_value(d.get_ref())
                    .ok_or_else(|| v.err(dfile, d.span(), "an option's default must be a word, an integer or a boolean", "here"))?;
                ty.check(&val).map_err(|e| v.err(dfile, d.span(), format!("option `{name}`: bad default: {e}"), "this value"))?;
                val
            }
            None => match &ty {
                OptionType::Choice(c) => OptionValue::Text(c[0].clone()),
                // A switch defaults to the first value listed, like a choice.
                OptionType::Bool => raw
                    .values
                    .as_ref()
                    .and_then(|vs| vs.get_ref().first().and_then(toml_to_option_value))
                    .unwrap_or(OptionValue::Bool(false)),
                OptionType::Int { min, .. } => OptionValue::Int(*min),
            },
        };
        decls.push(OptionDecl {
            name: name.clone(),
            description: mo.description.clone().or_else(|| raw.description.clone()).unwrap_or_default(),
            ty,
            default,
            declared_in,
        });
    }
    if !decls.iter().any(|d| d.name == "move_limit") {
        decls.push(move_limit_decl(v.m.chain.last().map(String::as_str).unwrap_or("")));
    }
    let mut values: BTreeMap<String, OptionValue> = decls.iter().map(|d| (d.name.clone(), d.default.clone())).collect();
    for (name, text) in overrides {
        let Some(d) = decls.iter().find(|d| &d.name == name) else {
            let known: Vec<&str> = decls.iter().map(|d| d.name.as_str()).collect();
            let mut e = LoadError::plain(format!("unknown option `{name}` for {}; its options are: {}", v.m.name, known.join(", ")));
            if let Some(h) = did_you_mean(name, known.iter().copied()) {
                e = e.with_help(h);
            }
            return Err(e);
        };
        let val = d.ty.parse(text).map_err(|e| LoadError::plain(format!("option `{name}`: {e}")))?;
        values.insert(name.clone(), val);
    }
    Ok(Options { decls, values })
}

/// Turns an option value into a setting's type.
trait FromOption: Sized + Clone {
    fn from_option(v: &OptionValue) -> Option<Self>;
    fn describe() -> &'static str;
}

impl FromOption for bool {
    fn from_option(v: &OptionValue) -> Option<bool> {
        match v {
            OptionValue::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn describe() -> &'static str {
        "true or false"
    }
}

impl FromOption for i64 {
    fn from_option(v: &OptionValue) -> Option<i64> {
        match v {
            OptionValue::Int(i) => Some(*i),
            _ => None,
        }
    }
    fn describe() -> &'static str {
        "an integer"
    }
}

impl FromOption for String {
    fn from_option(v: &OptionValue) -> Option<String> {
        match v {
            OptionValue::Text(s) => Some(s.clone()),
            OptionValue::Bool(b) => Some(b.to_string()),
            OptionValue::Int(i) => Some(i.to_string()),
        }
    }
    fn describe() -> &'static str {
        "a word"
    }
}

impl FromOption for TextOrInt {
    fn from_option(v: &OptionValue) -> Option<TextOrInt> {
        match v {
            OptionValue::Int(i) => Some(TextOrInt::Int(*i)),
            OptionValue::Text(s) => Some(TextOrInt::Text(s.clone())),
            OptionValue::Bool(b) => Some(TextOrInt::Text(b.to_string())),
        }
    }
    fn describe() -> &'static str {
        "a word or an integer"
    }
}

impl V<'_> {
    /// Resolves a setting under the options in force.
    fn setting<T: FromOption>(&self, file: usize, s: &Spanned<Setting<T>>) -> R<T> {
        match s.get_ref() {
            Setting::Value(x) => Ok(x.clone()),
            Setting::Option(r) => {
                let Some(val) = self.opts.get(&r.option) else {
                    let known: Vec<&str> = self.opts.decls.iter().map(|d| d.name.as_str()).collect();
                    let mut e = self.err(file, s.span(), format!("unknown option `{}`", r.option), "refers to it");
                    if let Some(h) = did_you_mean(&r.option, known) {
                        e = e.with_help(h);
                    }
                    return Err(e);
                };
                match &r.map {
                    Some(map) => {
                        // Every value of the option must be mapped, so no option setting can fail later.
                        if let Some(d) = self.opts.decl(&r.option)
                            && let OptionType::Choice(all) = &d.ty
                            && let Some(missing) = all.iter().find(|x| !map.contains_key(*x))
                        {
                            return Err(self.err(
                                file,
                                s.span(),
                                format!("option `{}` value `{missing}` is not in this map", r.option),
                                "incomplete map",
                            ));
                        }
                        map.get(&val.to_string()).cloned().ok_or_else(|| {
                            self.err(file, s.span(), format!("option `{}` value `{val}` is not in this map", r.option), "incomplete map")
                        })
                    }
                    None => T::from_option(val).ok_or_else(|| {
                        self.err(
                            file,
                            s.span(),
                            format!("option `{}` has value `{val}`, but this setting needs {}", r.option, T::describe()),
                            "here",
                        )
                    }),
                }
            }
        }
    }

    /// Reads a word setting that must be one of `allowed`.
    fn word(&self, file: usize, s: &Spanned<Setting<String>>, allowed: &[&str]) -> R<String> {
        let w = self.setting(file, s)?;
        if allowed.contains(&w.as_str()) {
            Ok(w)
        } else {
            let mut e =
                self.err(file, s.span(), format!("`{w}` is not allowed here; expected one of: {}", allowed.join(", ")), "this value");
            if let Some(h) = did_you_mean(&w, allowed.iter().copied()) {
                e = e.with_help(h);
            }
            Err(e)
        }
    }

    /// Evaluates a `when` condition: `name == value` joined by `&&`.
    fn when(&self, file: usize, w: &Option<Spanned<String>>) -> R<bool> {
        let Some(w) = w else { return Ok(true) };
        eval_when(&self.opts, w.get_ref()).map_err(|e| self.err(file, w.span(), e, "in this condition"))
    }
}

/// Evaluates an option condition such as `captures == compulsory_maximal && army_min != 3`.
///
/// # Errors
/// Unknown options, values the option cannot take, or text that is not a condition.
pub fn eval_when(opts: &Options, text: &str) -> Result<bool, String> {
    let mut all = true;
    for part in text.split("&&") {
        let (name, value, eq) = if let Some((a, b)) = part.split_once("!=") {
            (a.trim(), b.trim(), false)
        } else if let Some((a, b)) = part.split_once("==") {
            (a.trim(), b.trim(), true)
        } else {
            return Err(format!("`{}` is not a condition; write `option == value` or `option != value`", part.trim()));
        };
        let d = opts.decl(name).ok_or_else(|| format!("unknown option `{name}`"))?;
        let val = d.ty.parse(value.trim_matches('"'))?;
        let cur = opts.get(name).expect("declared options have values");
        all &= (cur == &val) == eq;
    }
    Ok(all)
}

// ---------------------------------------------------------------- geometry

fn stage_geometry(v: &V) -> R<(Geometry, usize)> {
    let Some(b) = &v.m.board else {
        return Err(LoadError::at(v.file(v.main_file()), 0..0, "the variant has no [board]", "expected a [board] table")
            .with_help("add [board] with files and ranks"));
    };
    let f = b.file;
    let raw = &b.val;
    let (files, ranks) = (*raw.files.get_ref(), *raw.ranks.get_ref());
    if !(1..=26).contains(&files) {
        return Err(v.err(f, raw.files.span(), "a board has 1 to 26 files", "out of range"));
    }
    if !(1..=99).contains(&ranks) {
        return Err(v.err(f, raw.ranks.span(), "a board has 1 to 99 ranks", "out of range"));
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
            let c = g.parse_cell(h.get_ref()).map_err(|e| v.err(f, h.span(), e, "not a cell"))?;
            holes.push(g.coords(c));
        }
        let old = g.clone();
        g = Geometry::new(files, ranks, |fi, ri| old.at(fi as i32, ri as i32).is_some() && !holes.contains(&(fi, ri)));
    }
    if g.is_empty() {
        return Err(v.err(f, raw.files.span(), "the board has no cells", "here"));
    }
    Ok((g, f))
}

fn stage_players(v: &V) -> R<(ByPlayer<String>, Player, ByPlayer<i8>)> {
    let Some(p) = &v.m.players else {
        return Ok((ByPlayer::new("white".into(), "black".into()), Player::FIRST, ByPlayer::new(1, -1)));
    };
    let f = p.file;
    let names = p.val.names.get_ref();
    if names.len() != 2 || names[0] == names[1] || names.iter().any(|n| n.is_empty() || n.contains(char::is_whitespace)) {
        return Err(v.err(f, p.val.names.span(), "a game has exactly two players with different one-word names", "here"));
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
        let pl = Player::both()
            .into_iter()
            .find(|&x| &pn[x] == name)
            .ok_or_else(|| v.err(f, dir.span(), format!("`{name}` is not a player"), "unknown player"))?;
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

// ---------------------------------------------------------------- zones

fn zone_cells(v: &V, f: usize, g: &Geometry, z: &RawZone, done: &BTreeMap<String, ByPlayer<u64>>, player: Player) -> R<Vec<Cell>> {
    let mut cells = Vec::new();
    for c in &z.cells {
        cells.push(g.parse_cell(c.get_ref()).map_err(|e| v.err(f, c.span(), format!("zone cell {e}"), "not a cell of this board"))?);
    }
    if !z.rect.is_empty() {
        if z.rect.len() != 2 {
            return Err(v.err(f, z.rect[0].span(), "a rect is two opposite corners, like [\"b2\", \"e5\"]", "here"));
        }
        let a = crate::geometry::parse_coords(z.rect[0].get_ref()).map_err(|e| v.err(f, z.rect[0].span(), e, "here"))?;
        let b = crate::geometry::parse_coords(z.rect[1].get_ref()).map_err(|e| v.err(f, z.rect[1].span(), e, "here"))?;
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
        if ri == 0 || ri > g.ranks as u32 {
            return Err(v.err(f, r.span(), format!("rank {ri} is not on this board"), "here"));
        }
        cells.extend(g.cells().filter(|&c| g.coords(c).1 as u32 == ri - 1));
    }
    for u in &z.union {
        let m = done.get(u.get_ref()).ok_or_else(|| {
            let mut e = v.err(f, u.span(), format!("unknown zone `{}` (a union names zones defined before it)", u.get_ref()), "here");
            if let Some(h) = did_you_mean(u.get_ref(), done.keys().map(String::as_str)) {
                e = e.with_help(h);
            }
            e
        })?;
        cells.extend(g.cells().filter(|&c| g.zones_of(c.0) & m[player] != 0));
    }
    cells.sort();
    cells.dedup();
    Ok(cells)
}

fn stage_zones(v: &V, g: &mut Geometry, players: &ByPlayer<String>, _board_file: usize) -> R<BTreeMap<String, ByPlayer<u64>>> {
    let mut done: BTreeMap<String, ByPlayer<u64>> = BTreeMap::new();
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
            let mut masks = ByPlayer::new(0u64, 0u64);
            if raw.by_player.is_empty() {
                let cells = zone_cells(v, f, g, raw, &done, Player::FIRST)?;
                let id = g.add_zone(name, &cells).map_err(|e| v.err(f, z.val.span(), e, "here"))?;
                masks = ByPlayer::new(1 << id, 1 << id);
            } else {
                for (pname, pz) in &raw.by_player {
                    let p = Player::both()
                        .into_iter()
                        .find(|&p| &players[p] == pname)
                        .ok_or_else(|| v.err(f, z.val.span(), format!("`{pname}` is not a player"), "in this zone"))?;
                    let cells = zone_cells(v, f, g, pz, &done, p)?;
                    let id = g.add_zone(&format!("{name}@{pname}"), &cells).map_err(|e| v.err(f, z.val.span(), e, "here"))?;
                    masks[p] = 1 << id;
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

// ---------------------------------------------------------------- pieces

fn stage_kinds(v: &V, players: &ByPlayer<String>) -> R<Vec<KindDef>> {
    if v.m.pieces.is_empty() {
        return Err(LoadError::at(v.file(v.main_file()), 0..0, "the variant declares no [pieces]", "expected [pieces.NAME] tables"));
    }
    if v.m.pieces.len() > 60 {
        return Err(LoadError::plain("a variant may have at most 60 piece kinds"));
    }
    let mut kinds = Vec::new();
    let mut seen: BTreeMap<char, String> = BTreeMap::new();
    for (name, p) in &v.m.pieces {
        let f = p.file;
        let raw = &p.val;
        let sym = |s: &str| -> R<char> {
            let mut it = s.chars();
            match (it.next(), it.next()) {
                (Some(c), None) if c.is_alphabetic() => Ok(c),
                _ => Err(v.err(f, raw.symbol.span(), format!("piece `{name}`: a symbol is one letter"), "here")),
            }
        };
        let symbols = match raw.symbol.get_ref() {
            RawSymbols::One(s) => {
                let c = sym(s)?;
                ByPlayer::new(c.to_ascii_uppercase(), c.to_ascii_lowercase())
            }
            RawSymbols::ByPlayer(m) => {
                let mut out = ByPlayer::new(' ', ' ');
                for p in Player::both() {
                    let s = m
                        .get(&players[p])
                        .ok_or_else(|| v.err(f, raw.symbol.span(), format!("piece `{name}` has no symbol for {}", players[p]), "here"))?;
                    out[p] = sym(s)?;
                }
                if m.len() != 2 {
                    return Err(v.err(
                        f,
                        raw.symbol.span(),
                        format!("piece `{name}`: symbols are given for {} and {} only", players.0[0], players.0[1]),
                        "here",
                    ));
                }
                out
            }
        };
        for p in Player::both() {
            if let Some(other) = seen.insert(symbols[p], name.clone()) {
                return Err(v.err(
                    f,
                    raw.symbol.span(),
                    format!("symbol `{}` is used twice (by `{other}` and `{name}`)", symbols[p]),
                    "here",
                ));
            }
        }
        if symbols[Player::FIRST] == symbols[Player::SECOND] {
            return Err(v.err(f, raw.symbol.span(), "the two players need different symbols", "here"));
        }
        kinds.push(KindDef {
            name: name.clone(),
            description: raw.description.clone().unwrap_or_default(),
            symbols,
            royal: raw.royal,
            attributes: Vec::new(),
        });
    }
    Ok(kinds)
}

struct PieceCtx<'a> {
    kinds: &'a [KindDef],
    counters: &'a [String],
    zones: &'a BTreeMap<String, ByPlayer<u64>>,
    forward: &'a ByPlayer<i8>,
    attributes: &'a [String],
}

impl V<'_> {
    fn kind_set(&self, f: usize, names: &Option<Vec<Spanned<String>>>, kinds: &[KindDef]) -> R<KindSet> {
        let Some(names) = names else {
            return Ok(KindSet::MAX);
        };
        let mut set = 0;
        for n in names {
            let i = kinds.iter().position(|k| &k.name == n.get_ref()).ok_or_else(|| {
                let mut e = self.err(f, n.span(), format!("unknown piece kind `{}`", n.get_ref()), "not a kind of this variant");
                if let Some(h) = did_you_mean(n.get_ref(), kinds.iter().map(|k| k.name.as_str())) {
                    e = e.with_help(h);
                }
                e
            })?;
            set |= 1u64 << i;
        }
        Ok(set)
    }

    fn zone_ref(&self, f: usize, s: &Option<Spanned<Setting<String>>>, ctx: &PieceCtx, p: Player) -> R<u64> {
        let Some(s) = s else { return Ok(0) };
        let name = self.setting(f, s)?;
        self.zone_named(f, &name, s.span(), ctx.zones, p)
    }

    fn zone_named(&self, f: usize, name: &str, span: std::ops::Range<usize>, zones: &BTreeMap<String, ByPlayer<u64>>, p: Player) -> R<u64> {
        if name == "board" {
            return Ok(0);
        }
        match zones.get(name) {
            Some(m) => Ok(m[p]),
            None => {
                let mut e = self.err(f, span, format!("unknown zone `{name}`"), "not a zone of this variant");
                if let Some(h) = did_you_mean(name, zones.keys().map(String::as_str)) {
                    e = e.with_help(h);
                }
                Err(e)
            }
        }
    }
}

/// Direction sets by name, for a player whose forward is `fwd` (+1 north, -1 south).
pub(crate) fn named_dirs(name: &str, fwd: i8) -> Option<Vec<(i8, i8)>> {
    let all: Vec<(i8, i8)> = crate::geometry::COMPASS.iter().map(|(_, d)| *d).collect();
    let v = match name {
        "orthogonal" => all.iter().copied().filter(|d| d.0 == 0 || d.1 == 0).collect(),
        "diagonal" => all.iter().copied().filter(|d| d.0 != 0 && d.1 != 0).collect(),
        "all" => all,
        "forward" => vec![(0, fwd)],
        "backward" => vec![(0, -fwd)],
        "sideways" => vec![(1, 0), (-1, 0)],
        "forward_diagonal" => vec![(-1, fwd), (1, fwd)],
        "backward_diagonal" => vec![(-1, -fwd), (1, -fwd)],
        "forward_all" => vec![(-1, fwd), (0, fwd), (1, fwd)],
        "backward_all" => vec![(-1, -fwd), (0, -fwd), (1, -fwd)],
        other => vec![compass_vector(other)?],
    };
    Some(v)
}

const DIR_NAMES: &str = "orthogonal, diagonal, all, forward, backward, sideways, forward_diagonal, backward_diagonal, forward_all, backward_all, n, ne, e, se, s, sw, w, nw, or [dx, dy] vectors";

fn dirs_of(v: &V, f: usize, d: &Spanned<RawDirs>, fwd: i8, relative: bool) -> R<Vec<(i8, i8)>> {
    let mut out = Vec::new();
    let items: Vec<RawDir> = match d.get_ref() {
        RawDirs::One(s) => vec![RawDir::Name(s.clone())],
        RawDirs::List(l) => l.clone(),
    };
    for it in items {
        match it {
            RawDir::Name(n) => {
                let ds = named_dirs(&n, fwd).ok_or_else(|| {
                    let names: Vec<&str> = DIR_NAMES.split(", ").collect();
                    let mut e =
                        v.err(f, d.span(), format!("`{n}` is not a direction set"), "here").with_help(format!("expected {DIR_NAMES}"));
                    if let Some(h) = did_you_mean(&n, names) {
                        e = e.with_help(format!("{h} (expected {DIR_NAMES})"));
                    }
                    e
                })?;
                out.extend(ds);
            }
            RawDir::Vector([dx, dy]) => {
                if dx.abs() > 30 || dy.abs() > 30 || (dx == 0 && dy == 0) {
                    return Err(v.err(f, d.span(), "a vector is [dx, dy], not both 0, each at most 30", "here"));
                }
                let dy = if relative { dy * fwd as i64 } else { dy };
                out.push((dx as i8, dy as i8));
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn stage_movement(v: &V, raw: &Src<RawPiece>, p: Player, ctx: &PieceCtx, g: &mut Geometry, dedup: &mut bool) -> R<PieceRules> {
    let f = raw.file;
    let mut rules = PieceRules::default();
    let mut quiet_forms = 0;
    for form in &raw.val.moves {
        let span = form.span();
        let fm = form.get_ref();
        if !v.when(f, &fm.when)? {
            continue;
        }
        rules.notes.push(describe_form(v, f, fm, p)?);
        let kinds_given =
            [fm.step.is_some(), fm.slide.is_some(), fm.leap.is_some(), fm.jump.is_some(), fm.walk.is_some()].iter().filter(|x| **x).count();
        if kinds_given != 1 {
            return Err(v
                .err(f, span, "a movement form names exactly one of step, slide, leap, jump, walk", "this form")
                .with_help("e.g. { step = \"diagonal\" } or { jump = \"orthogonal\", victims = [\"pawn\"] }"));
        }
        let fwd = ctx.forward[p];
        let relative = fm.relative.unwrap_or(false);
        let same_zone = match &fm.same_zone {
            Some(zs) => {
                let mut m = 0;
                for z in zs {
                    m |= v.zone_named(f, z.get_ref(), z.span(), ctx.zones, p)?;
                }
                m
            }
            None => 0,
        };
        let cond = Cond {
            from: v.zone_ref(f, &fm.from, ctx, p)?,
            from_not: v.zone_ref(f, &fm.from_not, ctx, p)?,
            to: v.zone_ref(f, &fm.to, ctx, p)?,
            to_not: v.zone_ref(f, &fm.to_not, ctx, p)?,
            from_or_to: v.zone_ref(f, &fm.from_or_to, ctx, p)?,
            over: v.zone_ref(f, &fm.over, ctx, p)?,
            path: v.zone_ref(f, &fm.path, ctx, p)?,
            same_zone,
        };
        let capture = match &fm.capture {
            Some(c) if v.setting(f, c)? => enemy_codes(v.kind_set(f, &fm.victims, ctx.kinds)?, p),
            _ => 0,
        };
        let limit = match &fm.own_pieces_at_most {
            None => u16::MAX,
            Some(s) => {
                let n: i64 = v.setting(f, s)?;
                if !(0..u16::MAX as i64).contains(&n) {
                    return Err(v.err(f, s.span(), "own_pieces_at_most is a number of pieces, 0 or more", "here"));
                }
                if fm.jump.is_some() {
                    return Err(v.err(f, s.span(), "own_pieces_at_most applies to step, slide, leap and walk forms", "on a jump"));
                }
                n as u16
            }
        };
        if let Some(st) = &fm.steps
            && fm.walk.is_none()
        {
            return Err(v.err(f, st.span(), "`steps` belongs to a walk", "here"));
        }
        if let Some(d) = &fm.jump {
            let vecs: Vec<u8> = dirs_of(v, f, d, fwd, relative)?.into_iter().map(|x| g.intern_vector(x)).collect();
            let gg = &*g;
            let table = CellTable::build(gg.len(), |at, out| {
                if !cond.start_ok(gg, at) {
                    return;
                }
                for &vv in &vecs {
                    let over = gg.step(vv, at);
                    if over == crate::geometry::NONE {
                        continue;
                    }
                    let land = gg.step(vv, over);
                    if land == crate::geometry::NONE {
                        continue;
                    }
                    let zo = gg.zones_of(over);
                    if (cond.over != 0 && zo & cond.over == 0) || !cond.land_ok(gg, at, land) {
                        continue;
                    }
                    if cond.same_zone != 0 && zo & gg.zones_of(land) & cond.same_zone == 0 {
                        continue;
                    }
                    out.push((over, land));
                }
            });
            rules.jumps.push(Jump { table, victims: enemy_codes(v.kind_set(f, &fm.victims, ctx.kinds)?, p) });
            continue;
        }
        quiet_forms += 1;
        rules.limits.push(limit);
        if let Some(d) = &fm.walk {
            let vecs = dirs_of(v, f, d, fwd, relative)?.into_iter().map(|x| g.intern_vector(x)).collect();
            let steps = match &fm.steps {
                None => 2,
                Some(s) if (1..=8).contains(s.get_ref()) => *s.get_ref() as u8,
                Some(s) => return Err(v.err(f, s.span(), "a walk makes 1 to 8 steps", "here")),
            };
            rules.quiet.push(Form::Walk { vecs, steps, cond });
        } else if let Some(d) = &fm.step {
            let vecs: Vec<u8> = dirs_of(v, f, d, fwd, relative)?.into_iter().map(|x| g.intern_vector(x)).collect();
            let gg = &*g;
            let targets = CellTable::build(gg.len(), |from, out| {
                if !cond.start_ok(gg, from) {
                    return;
                }
                for &vv in &vecs {
                    let to = gg.step(vv, from);
                    if to == crate::geometry::NONE || !cond.land_ok(gg, from, to) {
                        continue;
                    }
                    if cond.same_zone != 0 && gg.zones_of(from) & gg.zones_of(to) & cond.same_zone == 0 {
                        continue;
                    }
                    out.push(to);
                }
            });
            rules.quiet.push(Form::Step { targets, capture });
        } else if let Some(d) = &fm.slide {
            let vecs = dirs_of(v, f, d, fwd, relative)?.into_iter().map(|x| g.intern_vector(x)).collect();
            let pass_over = match &fm.pass_over {
                None => 0,
                Some(s) => match v.setting(f, s)? {
                    TextOrInt::Text(t) if t == "none" => 0,
                    TextOrInt::Text(t) if t == "any" => 255,
                    TextOrInt::Int(i) if (0..255).contains(&i) => i as u8,
                    other => {
                        return Err(v.err(f, s.span(), format!("pass_over is none, any or a number of pieces, not {other:?}"), "here"));
                    }
                },
            };
            let stop_first = match &fm.stop {
                None => false,
                Some(s) => v.word(f, s, &["any", "first_empty"])? == "first_empty",
            };
            let max = fm.max_distance.as_ref().map_or(255, |m| (*m.get_ref()).min(255) as u8);
            rules.quiet.push(Form::Slide { vecs, pass_over, stop_first, max, capture, cond });
        } else if let Some(d) = &fm.leap {
            let vecs = dirs_of(v, f, d, fwd, relative)?;
            for &x in &vecs {
                g.intern_vector(x);
            }
            let distance = match &fm.distance {
                None => Distance::Fixed(1),
                Some(s) => match v.setting(f, s)? {
                    TextOrInt::Int(i) if (1..=30).contains(&i) => Distance::Fixed(i as u8),
                    TextOrInt::Text(t) => match ctx.attributes.iter().position(|a| *a == t) {
                        Some(slot) => Distance::Attribute(slot as u8),
                        None => {
                            let mut e = v.err(f, s.span(), format!("unknown attribute `{t}`"), "distance from this attribute");
                            if let Some(h) = did_you_mean(&t, ctx.attributes.iter().map(String::as_str)) {
                                e = e.with_help(h);
                            }
                            return Err(e);
                        }
                    },
                    other => {
                        return Err(v.err(f, s.span(), format!("a distance is 1 to 30 or an attribute name, not {other:?}"), "here"));
                    }
                },
            };
            let off = match &fm.off_board {
                None => OffBoard::No,
                Some(s) => match v.word(f, s, &["no", "any_distance", "one_beyond"])?.as_str() {
                    "any_distance" => OffBoard::AnyDistance,
                    "one_beyond" => OffBoard::OneBeyond,
                    _ => OffBoard::No,
                },
            };
            let off_per_direction = match &fm.off_moves {
                None => false,
                Some(s) => v.word(f, s, &["one_per_piece", "per_direction"])? == "per_direction",
            };
            rules.quiet.push(Form::Leap { vecs, distance, capture, off, off_per_direction, cond });
        }
    }
    if quiet_forms > 1 && forms_may_overlap(g, &rules) {
        *dedup = true;
    }
    rules.any_jump = CellTable::build(g.len(), |c, out| {
        for j in &rules.jumps {
            out.extend(j.table.get(c).iter().map(|&(o, l)| (o, l, j.victims)));
        }
    });
    if rules.jumps.len() > 1 {
        // Two jump forms that share a (jumped, landing) pair could build the same chain twice.
        let shared = g.cells().any(|c| {
            let mut pairs: Vec<(u16, u16)> = rules.jumps.iter().flat_map(|j| j.table.get(c.0).iter().copied()).collect();
            let n = pairs.len();
            pairs.sort();
            pairs.dedup();
            pairs.len() != n
        });
        if shared {
            *dedup = true;
        }
    }
    if let Some(pr) = &raw.val.promote {
        let to = ctx.kinds.iter().position(|k| &k.name == pr.to.get_ref()).ok_or_else(|| {
            let mut e = v.err(f, pr.to.span(), format!("unknown piece kind `{}`", pr.to.get_ref()), "promotes to this");
            if let Some(h) = did_you_mean(pr.to.get_ref(), ctx.kinds.iter().map(|k| k.name.as_str())) {
                e = e.with_help(h);
            }
            e
        })?;
        let zone = v.zone_named(f, pr.zone.get_ref(), pr.zone.span(), ctx.zones, p)?;
        rules.promote = Some(Promotion { zone, to: KindId(to as u8), ends_chain: pr.ends_chain });
    }
    if let Some(x) = &raw.val.exit {
        let zone = v.zone_named(f, x.zone.get_ref(), x.zone.span(), ctx.zones, p)?;
        let counter = match &x.counter {
            None => None,
            Some(c) => Some(ctx.counters.iter().position(|n| n == c.get_ref()).ok_or_else(|| {
                let mut e = v.err(f, c.span(), format!("unknown counter `{}`", c.get_ref()), "declare it under [counters]");
                if let Some(h) = did_you_mean(c.get_ref(), ctx.counters.iter().map(String::as_str)) {
                    e = e.with_help(h);
                }
                e
            })? as u8),
        };
        rules.exit = Some(Exit { zone, counter });
    }
    for e in &raw.val.effects {
        let ef = e.get_ref();
        let slot = ctx.attributes.iter().position(|a| a == ef.attribute.get_ref()).ok_or_else(|| {
            v.err(
                f,
                ef.attribute.span(),
                format!("unknown attribute `{}`", ef.attribute.get_ref()),
                "declare it under [pieces.NAME.attributes]",
            )
        })?;
        let on = match ef.on.as_ref().map(|o| o.get_ref().as_str()) {
            None | Some("any") => EffectOn::Any,
            Some("quiet") => EffectOn::Quiet,
            Some("capture") => EffectOn::Capture,
            Some(other) => {
                return Err(v.err(
                    f,
                    ef.on.as_ref().unwrap().span(),
                    format!("`{other}` is not allowed; expected quiet, capture or any"),
                    "here",
                ));
            }
        };
        if ef.add.is_some() == ef.set.is_some() {
            return Err(v.err(f, e.span(), "an effect has exactly one of `add` and `set`", "this effect"));
        }
        rules.effects.push(Effect { slot: slot as u8, on, add: ef.add.unwrap_or(0) as i32, set: ef.set.map(|s| s as i32) });
    }
    Ok(rules)
}

/// A movement form in words: `slide orthogonal, from run, within run, passing over any pieces`.
fn describe_form(v: &V, f: usize, fm: &RawForm, _p: Player) -> R<String> {
    let dirs = |d: &Spanned<RawDirs>| match d.get_ref() {
        RawDirs::One(s) => s.clone(),
        RawDirs::List(l) => l
            .iter()
            .map(|x| match x {
                RawDir::Name(n) => n.clone(),
                RawDir::Vector([a, b]) => format!("[{a}, {b}]"),
            })
            .collect::<Vec<_>>()
            .join(" "),
    };
    let mut s = if let Some(d) = &fm.step {
        format!("step {}", dirs(d))
    } else if let Some(d) = &fm.slide {
        format!("slide {}", dirs(d))
    } else if let Some(d) = &fm.leap {
        format!("leap {}", dirs(d))
    } else if let Some(d) = &fm.jump {
        format!("jump {}", dirs(d))
    } else if let Some(d) = &fm.walk {
        format!("walk {} steps {}", fm.steps.as_ref().map_or(2, |s| *s.get_ref()), dirs(d))
    } else {
        "form".to_string()
    };
    let zone = |x: &Option<Spanned<Setting<String>>>| -> R<Option<String>> { x.as_ref().map(|z| v.setting(f, z)).transpose() };
    let mut parts = Vec::new();
    if let Some(z) = zone(&fm.from)?.filter(|z| z != "board") {
        parts.push(format!("from {z}"));
    }
    if let Some(z) = zone(&fm.from_not)? {
        parts.push(format!("not from {z}"));
    }
    if let Some(z) = zone(&fm.to)? {
        parts.push(format!("to {z}"));
    }
    if let Some(z) = zone(&fm.to_not)? {
        parts.push(format!("not to {z}"));
    }
    if let Some(z) = zone(&fm.from_or_to)? {
        parts.push(format!("start or landing in {z}"));
    }
    if let Some(z) = zone(&fm.over)? {
        parts.push(format!("over {z}"));
    }
    if let Some(z) = zone(&fm.path)? {
        parts.push(format!("within {z}"));
    }
    if let Some(zs) = &fm.same_zone {
        let names: Vec<&str> = zs.iter().map(|z| z.get_ref().as_str()).collect();
        parts.push(format!(
            "{} in one {}",
            if fm.jump.is_some() { "jumped and landing cells" } else { "start and landing" },
            names.join(" or ")
        ));
    }
    if let Some(d) = &fm.distance {
        match v.setting(f, d)? {
            TextOrInt::Int(i) => parts.push(format!("exactly {i} cells")),
            TextOrInt::Text(t) => parts.push(format!("as far as its {t}")),
        }
    }
    if let Some(po) = &fm.pass_over {
        match v.setting(f, po)? {
            TextOrInt::Text(t) if t == "any" => parts.push("passing over any pieces".into()),
            TextOrInt::Int(n) if n > 0 => parts.push(format!("passing over up to {n} piece{}", if n == 1 { "" } else { "s" })),
            _ => {}
        }
    }
    if let Some(st) = &fm.stop
        && v.setting(f, st)? == "first_empty"
    {
        parts.push("stopping on the first empty cell".into());
    }
    if let Some(vs) = &fm.victims {
        let names: Vec<&str> = vs.iter().map(|x| x.get_ref().as_str()).collect();
        parts.push(format!("capturing only {}", names.join(" or ")));
    } else if fm.capture.as_ref().map(|c| v.setting(f, c)).transpose()?.unwrap_or(false) {
        parts.push("may capture by landing".into());
    }
    if let Some(o) = &fm.off_board
        && v.setting(f, o)? != "no"
    {
        parts.push("may leave the board".into());
    }
    if let Some(m) = &fm.max_distance {
        parts.push(format!("at most {} cells", m.get_ref()));
    }
    if let Some(n) = &fm.own_pieces_at_most {
        let n: i64 = v.setting(f, n)?;
        parts.push(format!("only while its side has at most {n} piece{} on the board", if n == 1 { "" } else { "s" }));
    }
    if !parts.is_empty() {
        s.push_str(", ");
        s.push_str(&parts.join(", "));
    }
    Ok(s)
}

/// Whether two of a piece's non-chaining forms can reach the same cell from the same start (then
/// the same move text could be generated twice and move lists must be deduplicated). Occupancy
/// is ignored, so this errs on the side of deduplicating.
fn forms_may_overlap(g: &Geometry, rules: &PieceRules) -> bool {
    let reach = |form: &Form, from: u16| -> Vec<u16> {
        let mut out = Vec::new();
        match form {
            Form::Step { targets, .. } => out.extend_from_slice(targets.get(from)),
            Form::Walk { vecs, steps, .. } => {
                let mut frontier = vec![from];
                for _ in 0..*steps {
                    frontier = frontier
                        .iter()
                        .flat_map(|&c| vecs.iter().map(move |&v| g.step(v, c)))
                        .filter(|&c| c != crate::geometry::NONE)
                        .collect();
                    frontier.sort();
                    frontier.dedup();
                }
                out.extend(frontier.into_iter().filter(|&c| c != from));
            }
            Form::Slide { vecs, max, cond, .. } => {
                for &v in vecs {
                    let mut cur = from;
                    for _ in 0..*max {
                        cur = g.step(v, cur);
                        if cur == crate::geometry::NONE || (cond.path != 0 && g.zones_of(cur) & cond.path == 0) {
                            break;
                        }
                        out.push(cur);
                    }
                }
            }
            Form::Leap { vecs, distance, .. } => {
                let (f0, r0) = g.coords(Cell(from));
                let ds: Vec<i32> = match distance {
                    Distance::Fixed(d) => vec![*d as i32],
                    Distance::Attribute(_) => (1..=g.files.max(g.ranks) as i32).collect(),
                };
                for &(dx, dy) in vecs {
                    for &d in &ds {
                        if let Some(c) = g.at(f0 as i32 + dx as i32 * d, r0 as i32 + dy as i32 * d) {
                            out.push(c.0);
                        }
                    }
                }
                // Leaving the board is one move per piece or per direction: never twice.
            }
        }
        out
    };
    g.cells().any(|c| {
        let mut seen: Vec<(u16, usize)> = Vec::new();
        for (i, f) in rules.quiet.iter().enumerate() {
            for t in reach(f, c.0) {
                if seen.iter().any(|&(u, j)| u == t && j != i) {
                    return true;
                }
                seen.push((t, i));
            }
        }
        false
    })
}

// ---------------------------------------------------------------- captures, ends

fn stage_captures(v: &V) -> R<CapturePolicy> {
    let mut pol = CapturePolicy { compulsory: false, chain: Chain::Single, removal: Removal::Immediate, maximum: false };
    let Some(c) = &v.m.captures else {
        return Ok(pol);
    };
    let f = c.file;
    if let Some(s) = &c.val.compulsory {
        pol.compulsory = v.setting(f, s)?;
    }
    if let Some(s) = &c.val.chain {
        pol.chain = match v.word(f, s, &["must_continue", "may_stop", "single"])?.as_str() {
            "must_continue" => Chain::MustContinue,
            "may_stop" => Chain::MayStop,
            _ => Chain::Single,
        };
    }
    if let Some(s) = &c.val.removal {
        pol.removal = match v.word(f, s, &["immediate", "end_of_chain"])?.as_str() {
            "end_of_chain" => Removal::EndOfChain,
            _ => Removal::Immediate,
        };
    }
    if let Some(s) = &c.val.maximum {
        pol.maximum = v.setting(f, s)?;
    }
    Ok(pol)
}

const END_CONDITIONS: [&str; 6] = ["royal_captured", "royal_left_board", "zone_filled", "pieces_at_most", "no_moves", "repetition"];

/// The attribute that marks the crowned piece (added to every kind when `[crown]` is declared).
pub const CROWN: &str = "crown";

fn stage_crown(v: &V, attributes: &[String]) -> R<Option<Crown>> {
    let Some(c) = &v.m.crown else { return Ok(None) };
    let f = c.file;
    let name = c.val.attribute.get_ref();
    let by = attributes.iter().position(|a| a == name && a != CROWN).ok_or_else(|| {
        let mut e = v.err(f, c.val.attribute.span(), format!("unknown attribute `{name}`"), "the crown goes by this attribute");
        if let Some(h) = did_you_mean(name, attributes.iter().map(String::as_str)) {
            e = e.with_help(h);
        }
        e
    })?;
    let both = match &c.val.update {
        None => true,
        Some(u) => v.word(f, u, &["both", "mover"])? == "both",
    };
    let marker = attributes.iter().position(|a| a == CROWN).expect("added with the crown") as u8;
    Ok(Some(Crown { by: by as u8, marker, both }))
}

fn stage_ends(v: &V, zones: &BTreeMap<String, ByPlayer<u64>>, g: &Geometry) -> R<Vec<EndRule>> {
    let mut out = Vec::new();
    let Some(ends) = &v.m.ends else {
        return Ok(out);
    };
    let f = ends.file;
    for e in &ends.val {
        if !v.when(f, &e.when)? {
            continue;
        }
        let cname = e.condition.get_ref().as_str();
        let need = |what: &str| v.err(f, e.condition.span(), format!("end condition `{cname}` needs `{what}`"), "this condition");
        let kind = match cname {
            "royal_captured" => EndKind::RoyalCaptured,
            "royal_left_board" => EndKind::RoyalLeftBoard,
            "zone_filled" => {
                let z = e.zone.as_ref().ok_or_else(|| need("zone"))?;
                let mut cells = ByPlayer::new(Vec::new(), Vec::new());
                for p in Player::both() {
                    let m = v.zone_named(f, z.get_ref(), z.span(), zones, p)?;
                    cells[p] = g.cells().filter(|c| g.zones_of(c.0) & m != 0).map(|c| c.0).collect();
                }
                EndKind::ZoneFilled(cells)
            }
            "pieces_at_most" => {
                let c = e.count.as_ref().ok_or_else(|| need("count"))?;
                let win = match &e.result {
                    None => false,
                    Some(r) => v.word(f, r, &["loss", "win"])? == "win",
                };
                EndKind::PiecesAtMost { count: v.setting(f, c)?, win }
            }
            "no_moves" => {
                let r = e.result.as_ref().ok_or_else(|| need("result"))?;
                EndKind::NoMoves(match v.word(f, r, &["loss", "draw", "pass"])?.as_str() {
                    "loss" => NoMoves::Loss,
                    "draw" => NoMoves::Draw,
                    _ => NoMoves::Pass,
                })
            }
            "repetition" => {
                let c = e.count.as_ref().ok_or_else(|| need("count"))?;
                let count = v.setting(f, c)?;
                let r = e.result.as_ref().ok_or_else(|| need("result"))?;
                let result = match v.word(f, r, &["loss", "draw"])?.as_str() {
                    "loss" => RepetitionResult::Loss,
                    _ => RepetitionResult::Draw,
                };
                if count == 0 {
                    continue; // 0 turns the rule off
                }
                if !(2..=1000).contains(&count) {
                    return Err(v.err(f, c.span(), "a repetition count is 2 or more (0 = off)", "here"));
                }
                EndKind::Repetition { count: count as u32, result }
            }
            other => {
                let mut err = v
                    .err(f, e.condition.span(), format!("unknown end condition `{other}`"), "here")
                    .with_help(format!("expected one of: {}", END_CONDITIONS.join(", ")));
                if let Some(h) = did_you_mean(other, END_CONDITIONS) {
                    err = err.with_help(format!("{h} (expected one of: {})", END_CONDITIONS.join(", ")));
                }
                return Err(err);
            }
        };
        let reason = e.reason.clone().unwrap_or_else(|| cname.replace('_', " "));
        out.push(EndRule { kind, reason });
    }
    Ok(out)
}

// ---------------------------------------------------------------- setup, hooks

fn stage_setup(v: &V, g: &Geometry, kinds: &[KindDef], players: &ByPlayer<String>, nattr: usize) -> R<Setup> {
    let mut board = vec![0u8; g.len()];
    let mut attrs = vec![0i32; g.len() * nattr];
    let Some(s) = &v.m.setup else {
        return Ok(Setup { board, attrs });
    };
    let f = s.file;
    let put = |board: &mut Vec<u8>, attrs: &mut Vec<i32>, c: Cell, code_: u8| {
        board[c.0 as usize] = code_;
        for &(slot, init) in &kinds[crate::piece::kind(code_).0 as usize].attributes {
            attrs[c.0 as usize * nattr + slot as usize] = init;
        }
    };
    if let Some(rows) = &s.val.rows {
        let lookup = |ch: char| -> Option<u8> {
            for (i, k) in kinds.iter().enumerate() {
                for p in Player::both() {
                    if k.symbols[p] == ch {
                        return Some(code(KindId(i as u8), p));
                    }
                }
            }
            None
        };
        let kind_attrs = |c: u8| kinds[crate::piece::kind(c).0 as usize].attributes.clone();
        let (b, a) = crate::notation::parse_board(g, rows.get_ref(), &lookup, &kind_attrs, nattr)
            .map_err(|e| v.err(f, rows.span(), format!("setup rows: {e}"), "in these rows"))?;
        board = b;
        attrs = a;
    }
    for (pname, per_kind) in &s.val.pieces {
        let p = Player::both().into_iter().find(|&p| &players[p] == pname).ok_or_else(|| {
            let span = per_kind.values().flatten().next().map(|c| c.span()).unwrap_or(0..0);
            v.err(f, span, format!("`{pname}` is not a player"), "setup for an unknown player")
        })?;
        for (kname, cells) in per_kind {
            let k = kinds.iter().position(|k| &k.name == kname).ok_or_else(|| {
                let span = cells.first().map(|c| c.span()).unwrap_or(0..0);
                let mut e = v.err(f, span, format!("unknown piece kind `{kname}` in the setup"), "here");
                if let Some(h) = did_you_mean(kname, kinds.iter().map(|k| k.name.as_str())) {
                    e = e.with_help(h);
                }
                e
            })?;
            for c in cells {
                let cell =
                    g.parse_cell(c.get_ref()).map_err(|e| v.err(f, c.span(), format!("setup cell {e}"), "not a cell of this board"))?;
                if board[cell.0 as usize] != 0 {
                    return Err(v.err(f, c.span(), format!("setup puts two pieces on {}", g.name(cell)), "already occupied"));
                }
                put(&mut board, &mut attrs, cell, code(KindId(k as u8), p));
            }
        }
    }
    Ok(Setup { board, attrs })
}

fn stage_hooks(v: &V, kinds: &[KindDef], g: &Geometry) -> R<HookRules> {
    let mut h = HookRules::default();
    let Some(raw) = &v.m.hooks else { return Ok(h) };
    let f = raw.file;
    let filt = |x: &Option<Spanned<RawHook>>| -> R<Option<HookFilter>> {
        let Some(x) = x else { return Ok(None) };
        match x.get_ref() {
            RawHook::Always(true) => Ok(Some(HookFilter::always())),
            RawHook::Always(false) => Ok(None),
            RawHook::Filter(fl) => {
                if let Some(w) = &fl.when
                    && !eval_when(&v.opts, w).map_err(|e| v.err(f, x.span(), e, "in this hook's condition"))?
                {
                    return Ok(None);
                }
                let mut kset = 0u64;
                for k in &fl.kinds {
                    let i = kinds.iter().position(|d| &d.name == k).ok_or_else(|| {
                        let mut e = v.err(f, x.span(), format!("unknown piece kind `{k}` in a hook filter"), "here");
                        if let Some(hh) = did_you_mean(k, kinds.iter().map(|d| d.name.as_str())) {
                            e = e.with_help(hh);
                        }
                        e
                    })?;
                    kset |= 1 << i;
                }
                let captures_only = match &fl.captures_only {
                    None => false,
                    Some(s) => v.setting(f, &Spanned::new(x.span(), s.clone()))?,
                };
                let near = match &fl.enemy_adjacent {
                    None if fl.enemy_in_file != Some(true) => None,
                    adj => {
                        let vecs = match adj {
                            Some(d) => dirs_of(v, f, &Spanned::new(x.span(), d.clone()), 1, false)?,
                            None => Vec::new(),
                        };
                        let adjacent = CellTable::build(g.len(), |c, out| {
                            let (x, y) = g.coords(Cell(c));
                            out.extend(vecs.iter().filter_map(|&(dx, dy)| g.at(x as i32 + dx as i32, y as i32 + dy as i32)).map(|t| t.0));
                        });
                        let file = (fl.enemy_in_file == Some(true)).then(|| {
                            CellTable::build(g.len(), |c, out| {
                                let x = g.coords(Cell(c)).0;
                                out.extend(g.cells().filter(|t| t.0 != c && g.coords(*t).0 == x).map(|t| t.0));
                            })
                        });
                        Some(Near { adjacent, file })
                    }
                };
                Ok(Some(HookFilter { kinds: kset, captures_only, forward_only: fl.forward_only.unwrap_or(false), near }))
            }
        }
    };
    h.after_move = filt(&raw.val.after_move)?;
    h.allow_move = filt(&raw.val.allow_move)?;
    h.generate_moves = filt(&raw.val.generate_moves)?.is_some();
    h.outcome = filt(&raw.val.outcome)?.is_some();
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn when_conditions() {
        let v = crate::Variant::load("bivouac", &[("slide".into(), "one_hop".into())]).unwrap();
        let o = &v.rules.options;
        assert_eq!(eval_when(o, "slide == one_hop"), Ok(true));
        assert_eq!(eval_when(o, "slide != one_hop"), Ok(false));
        assert_eq!(eval_when(o, "slide == one_hop && army_min == 3"), Ok(true));
        assert!(eval_when(o, "slide = one_hop").is_err());
        assert!(eval_when(o, "nope == 1").unwrap_err().contains("unknown option"));
        assert!(eval_when(o, "slide == sideways").is_err());
    }

    #[test]
    fn relative_directions_turn_with_forward() {
        assert_eq!(named_dirs("forward_diagonal", 1), Some(vec![(-1, 1), (1, 1)]));
        assert_eq!(named_dirs("forward_diagonal", -1), Some(vec![(-1, -1), (1, -1)]));
        assert_eq!(named_dirs("all", 1).unwrap().len(), 8);
        assert_eq!(named_dirs("ne", -1), Some(vec![(1, 1)]));
        assert_eq!(named_dirs("sideways-ish", 1), None);
    }
}
