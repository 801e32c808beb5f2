//! Piece kinds (symbols, royalty, attributes) and, per piece code, its compiled movement,
//! promotion, leaving the game and attribute effects; and the capture policy.

use super::{R, V};
use crate::cellset::CellSet;
use crate::geometry::{Cell, CellTable, Geometry, ZoneSet};
use crate::piece::{ByPlayer, KindId, PieceCode, Player};
use crate::rules::error::LoadError;
use crate::rules::movement::{Compiled, Cond, PieceCtx, forms_may_overlap};
use crate::rules::names::Names;
use crate::rules::raw::{
    CastlingSection, RawConvert, RawDirs, RawDrop, RawExit, RawExplode, RawForm, RawPiece, RawPromote, RawSymbols, TextOrBool,
};
use crate::rules::validate::Src;
use crate::rules::*;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

/// The attribute that marks the crowned piece (added to every kind when `[crown]` is declared).
pub(crate) const CROWN: &str = "crown";

/// The attribute names, sorted: every kind's attributes, and `crown` with a crown.
pub(super) fn stage_attributes(v: &V) -> R<Vec<String>> {
    let mut a: Vec<String> = v.m.pieces.values().flat_map(|p| p.val.attributes.keys().cloned()).collect();
    if v.m.crown.is_some() {
        a.push(CROWN.to_string());
    }
    a.sort();
    a.dedup();
    if a.len() > crate::rules::MAX_ATTRIBUTES {
        let max = crate::rules::MAX_ATTRIBUTES;
        return Err(LoadError::plain(format!(
            "a variant may declare at most {max} attributes; this one has {}: {}",
            a.len(),
            a.join(", ")
        )));
    }
    Ok(a)
}

/// The piece kinds with their symbols and attribute slots.
pub(super) fn stage_kinds(v: &V, players: &ByPlayer<String>, attributes: &[String]) -> R<Vec<KindDef>> {
    // (A sowing game moves seeds, not pieces: it may declare none.)
    if v.m.pieces.is_empty() && v.m.sowing.is_none() {
        return Err(LoadError::at(v.file(v.main_file()), 0..0, "the variant declares no [pieces]", "expected [pieces.NAME] tables"));
    }
    if v.m.pieces.len() > 60 {
        return Err(LoadError::plain("a variant may have at most 60 piece kinds"));
    }
    let slot = |n: &str| attributes.iter().position(|a| a == n).expect("collected from the kinds") as u8;
    let mut kinds = Vec::new();
    let mut seen: BTreeMap<char, String> = BTreeMap::new();
    for (name, p) in &v.m.pieces {
        let (f, raw) = (p.file, &p.val);
        let symbols = symbols(v, f, name, raw, players)?;
        for p in Player::both() {
            if let Some(other) = seen.insert(symbols[p], name.clone()) {
                let msg = format!("symbol `{}` is used twice (by `{other}` and `{name}`)", symbols[p]);
                return Err(v.err(f, raw.symbol.span(), msg, "here"));
            }
        }
        if symbols[Player::FIRST] == symbols[Player::SECOND] {
            return Err(v.err(f, raw.symbol.span(), "the two players need different symbols", "here"));
        }
        let mut attrs =
            raw.attributes.iter().map(|(n, x)| Ok((slot(n), v.int32(f, x, &format!("attribute `{n}`"))?))).collect::<R<Vec<_>>>()?;
        if v.m.crown.is_some() && !raw.attributes.contains_key(CROWN) {
            // Every piece carries the crown marker, 0 until it is crowned.
            attrs.push((slot(CROWN), 0));
            attrs.sort();
        }
        let description = raw.description.clone().unwrap_or_default();
        kinds.push(KindDef { name: name.clone(), description, symbols, royal: raw.royal, attributes: attrs });
    }
    Ok(kinds)
}

/// A kind's symbols for both players.
fn symbols(v: &V, f: usize, name: &str, raw: &RawPiece, players: &ByPlayer<String>) -> R<ByPlayer<char>> {
    let sym = |s: &str| -> R<char> {
        let mut it = s.chars();
        match (it.next(), it.next()) {
            (Some(c), None) if c.is_alphabetic() => Ok(c),
            _ => Err(v.err(f, raw.symbol.span(), format!("piece `{name}`: a symbol is one letter"), "here")),
        }
    };
    match raw.symbol.get_ref() {
        RawSymbols::One(s) => {
            let c = sym(s)?;
            Ok(ByPlayer::new(c.to_ascii_uppercase(), c.to_ascii_lowercase()))
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
                let msg = format!("piece `{name}`: symbols are given for {} and {} only", players.0[0], players.0[1]);
                return Err(v.err(f, raw.symbol.span(), msg, "here"));
            }
            Ok(out)
        }
    }
}

impl V<'_> {
    /// A set of kinds by name; no list means every kind.
    pub(crate) fn kind_set(&self, f: usize, names: &Option<Vec<Spanned<String>>>, kinds: &[KindDef]) -> R<KindSet> {
        let Some(names) = names else {
            return Ok(KindSet::ALL);
        };
        let known = Names::new("piece kind", kinds.iter().map(|k| k.name.as_str()));
        let mut set = KindSet::EMPTY;
        for n in names {
            set = set.with(KindId(self.lookup(f, n.span(), &known, n.get_ref(), "", "not a kind of this variant")? as u8));
        }
        Ok(set)
    }
}

/// Every piece code's rules, whether move lists need deduplicating, and the codes each player
/// may drop.
pub(super) fn stage_pieces(v: &V, ctx: &PieceCtx, g: &mut Geometry) -> R<(Vec<PieceRules>, bool, Drops)> {
    let mut pieces = vec![PieceRules::default(); PieceCode::count(ctx.kinds.len())];
    let mut dedup = false;
    let mut drops = Drops::default();
    for (ki, k) in ctx.kinds.iter().enumerate() {
        let raw = &v.m.pieces[&k.name];
        for p in Player::both() {
            let mut rules = stage_piece(v, raw, p, ctx, g, &k.name)?;
            rules.to_hand = in_hand(v, raw, ctx, &k.name)?;
            dedup |= may_repeat(g, &rules);
            let code = PieceCode::new(KindId(ki as u8), p);
            match &rules.drop {
                Some(d) if d.gate => {
                    let cells = d.cells.iter().fold(0u128, |s, &c| s | 1 << c);
                    let gating = drops.gating.get_or_insert_with(Default::default);
                    gating.codes[p].push((code, cells));
                    gating.cells[p] |= cells;
                }
                Some(_) => drops.by[p].push(code),
                None => {}
            }
            pieces[code.index()] = rules;
        }
    }
    // Each drop carries its kind's letter; a player who may drop more than one kind writes it:
    // `K@c3` (a gated piece's always: `/H@b1`).
    for p in Player::both() {
        let written = drops[p].len() > 1;
        let gated = drops.gating.as_ref().map_or(&[][..], |g| &g.codes[p][..]).iter().map(|(c, _)| c);
        for c in drops.by[p].iter().chain(gated) {
            let letter = ctx.kinds[c.kind().0 as usize].symbols[p].to_ascii_uppercase();
            if let Some(d) = &mut pieces[c.index()].drop {
                d.letter = if letter.is_ascii() { letter as u8 } else { b'?' };
                d.written = written || d.gate;
            }
        }
    }
    Ok((pieces, dedup, drops))
}

/// The kinds dropped from a hand (`supply = "hand"`), whose counters the kernel declares.
pub(crate) fn hand_kinds(v: &V) -> R<Vec<String>> {
    let mut out = Vec::new();
    for (name, raw) in &v.m.pieces {
        let drop = raw.val.drop.as_ref().map(|d| d.get_ref());
        if let Some(s) = drop.and_then(|d| d.supply.as_ref())
            && v.word(raw.file, s, &["unlimited", "hand"])? == "hand"
            && drop.is_some_and(|d| d.from_hand_of.is_none())
        {
            out.push(name.clone());
        }
    }
    Ok(out)
}

/// `supply = "hand"`: the counter slot a drop takes its piece from: the kind's own, or with
/// `from_hand_of` the named kind's (which must be dropped from a hand of its own).
fn hand_slot(v: &V, f: usize, raw: &RawDrop, ctx: &PieceCtx, kind: &str) -> R<Option<u8>> {
    let mut hand = None;
    let from_hand = matches!(&raw.supply, Some(s) if v.word(f, s, &["unlimited", "hand"])? == "hand");
    if let Some(of) = &raw.from_hand_of {
        let known = Names::new("piece kind", ctx.kinds.iter().map(|k| k.name.as_str()));
        v.lookup(f, of.span(), &known, of.get_ref(), " in `from_hand_of`", "not a kind of this variant")?;
        let name = hand_counter(of.get_ref());
        let but = if !from_hand {
            "but this drop's supply is not \"hand\"".to_string()
        } else if of.get_ref() == kind {
            "but that is this kind".to_string()
        } else if !ctx.counters.contains(&name.as_str()) {
            format!("but a {} is not dropped from a hand of its own", of.get_ref())
        } else {
            String::new()
        };
        if !but.is_empty() {
            let e = v.err(f, of.span(), "`from_hand_of` drops this kind from another kind's pieces in hand", but);
            return Err(e.with_help("drop = { supply = \"hand\", from_hand_of = \"lance\" }, the lance's own drop = { supply = \"hand\" }"));
        }
    }
    if from_hand {
        let name = hand_counter(raw.from_hand_of.as_ref().map_or(kind, |k| k.get_ref().as_str()));
        hand = Some(ctx.counters.iter().position(|c| *c == name).expect("hand counters are declared before pieces") as u8);
    }
    Ok(hand)
}

fn stage_drop(v: &V, f: usize, d: &Spanned<RawDrop>, p: Player, ctx: &PieceCtx, g: &Geometry, kind: &str) -> R<DropRule> {
    let raw = d.get_ref();
    let (cells, zone) = match &raw.zone {
        Some(z) if z.get_ref() != "board" => {
            let m = v.zone_named(f, z.get_ref(), z.span(), ctx.zones, p)?;
            (g.cells().filter(|c| g.zones_of(c.0).meets(m)).map(|c| c.0).collect(), Some(z.get_ref().clone()))
        }
        _ => (g.cells().map(|c| c.0).collect(), None),
    };
    let hand = hand_slot(v, f, raw, ctx, kind)?;
    let (fall, gravity) = match &raw.gravity {
        None => (Vec::new(), None),
        Some(dirs) => {
            let ds = crate::rules::movement::dirs_of(v, f, dirs, ctx.forward[p], false)?;
            let [d] = ds[..] else {
                return Err(v.err(f, dirs.span(), "gravity is one direction (like \"s\")", "here"));
            };
            let fall = g.cells().map(|c| {
                let (x, y) = g.coords(c);
                g.at(x as i32 + d.0 as i32, y as i32 + d.1 as i32).map_or(crate::geometry::NONE, |n| n.0)
            });
            (fall.collect(), Some(d))
        }
    };
    let file_block = match &raw.not_on_file_with {
        None => None,
        Some(k) => {
            let known = Names::new("piece kind", ctx.kinds.iter().map(|k| k.name.as_str()));
            let i = v.lookup(f, k.span(), &known, k.get_ref(), " in `not_on_file_with`", "not a kind of this variant")?;
            let limit = match &raw.file_limit {
                None => 1,
                Some(n) if (1..=g.ranks as i64).contains(n.get_ref()) => *n.get_ref() as u8,
                Some(n) => {
                    let e = v.err(f, n.span(), format!("a file holds 1 to {} pieces, not {}", g.ranks, n.get_ref()), "here");
                    return Err(e.with_help("file_limit = 2: a drop is refused where the file already holds 2 of them"));
                }
            };
            Some((PieceCode::new(KindId(i as u8), p), limit))
        }
    };
    if let (Some(n), None) = (&raw.file_limit, &raw.not_on_file_with) {
        let e = v.err(f, n.span(), "`file_limit` limits the pieces `not_on_file_with` names", "but it names none");
        return Err(e.with_help("not_on_file_with = \"pawn\", file_limit = 2"));
    }
    let (no_mate, mate_loses) = drop_mate_reading(v, f, raw)?;
    let beside = beside_table(v, f, raw, g)?;
    let gate = gate_reading(v, f, raw, hand, g)?;
    Ok(DropRule {
        gate,
        cells,
        fall,
        letter: 0,
        written: false,
        zone,
        gravity,
        must_convert: false,
        hand,
        borrowed: raw.from_hand_of.is_some(),
        file_block,
        no_mate,
        mate_loses,
        beside,
        sets: None,
    })
}

/// `gate = true`: a kind in hand placed only by gating (see [`crate::rules::Gating`]), which
/// needs a hand, cells that fit a position's 128-bit sets and no other rule for where it lands.
fn gate_reading(v: &V, f: usize, raw: &RawDrop, hand: Option<u8>, g: &Geometry) -> R<bool> {
    let Some(gate) = raw.gate.as_ref().filter(|b| *b.get_ref()) else { return Ok(false) };
    let but = if hand.is_none() {
        "but its supply is not \"hand\" (a gated piece comes from the hand)"
    } else if g.len() > 128 {
        "but gates are kept for boards of at most 128 cells"
    } else if raw.gravity.is_some()
        || raw.not_on_file_with.is_some()
        || raw.beside_own.is_some()
        || raw.must_convert.is_some()
        || raw.no_mate.is_some()
    {
        "but it is combined with another rule for where the piece lands (gravity, must_convert, not_on_file_with, beside_own, no_mate)"
    } else {
        return Ok(true);
    };
    let e = v.err(f, gate.span(), "`gate = true` places this kind only on a gate its owner's piece leaves", but);
    Err(e.with_help("drop = { supply = \"hand\", zone = \"first_rank\", gate = true }"))
}

/// How a drop's `no_mate` reads a mating drop: (not legal, legal and losing).
fn drop_mate_reading(v: &V, f: usize, raw: &RawDrop) -> R<(bool, bool)> {
    Ok(match &raw.no_mate {
        None => (false, false),
        Some(s) => {
            match v.setting(f, s)? {
                TextOrBool::Bool(b) => (b, false),
                TextOrBool::Text(t) if t == "illegal" => (true, false),
                TextOrBool::Text(t) if t == "loses" => (false, true),
                TextOrBool::Text(t) if t == "allowed" => (false, false),
                TextOrBool::Text(t) => {
                    let e = v.err(f, s.span(), format!("`no_mate = \"{t}\"` is not a reading of a mating drop"), "this value");
                    return Err(e.with_help("write true or \"illegal\" (not listed), \"loses\" (listed; the mate loses for the dropper), or false or \"allowed\""));
                }
            }
        }
    })
}

/// `beside_own`: per cell, its neighbours (empty without the rule).
fn beside_table(v: &V, f: usize, raw: &RawDrop, g: &Geometry) -> R<Vec<Vec<u16>>> {
    Ok(match &raw.beside_own {
        Some(b) if *b.get_ref() => {
            if raw.gravity.is_some() || raw.not_on_file_with.is_some() || raw.must_convert.as_ref().is_some_and(|m| *m.get_ref()) {
                let e = v.err(f, b.span(), "`beside_own` is not combined with `gravity`, `must_convert` or `not_on_file_with`", "here");
                return Err(e.with_help("keep one rule for where the piece may be dropped"));
            }
            let around = |c: Cell| {
                let (x, y) = g.coords(c);
                crate::geometry::COMPASS
                    .iter()
                    .filter_map(move |&(_, (dx, dy))| g.at(x as i32 + dx as i32, y as i32 + dy as i32))
                    .map(|n| n.0)
            };
            g.cells().map(|c| around(c).collect()).collect()
        }
        _ => Vec::new(),
    })
}

/// The hand counter a capture of this kind raises for the captor (under `[captures] to_hand`):
/// that of the kind it becomes (`in_hand`, default itself), if that kind is dropped from a hand.
fn in_hand(v: &V, raw: &Src<RawPiece>, ctx: &PieceCtx, kind: &str) -> R<Option<u8>> {
    let slot = |k: &str| ctx.counters.iter().position(|c| *c == hand_counter(k)).map(|i| i as u8);
    let Some(target) = &raw.val.in_hand else { return Ok(slot(kind)) };
    // (Declared at all: a `to_hand` bound to an option may be off in some settings, and then
    // `in_hand` is simply idle.)
    if v.m.captures.as_ref().is_none_or(|c| c.val.to_hand.is_none()) {
        // Captured pieces always leave the game: the key would say nothing.
        let e = v.err(raw.file, target.span(), "`in_hand` says which hand a captured piece goes to", "but captured pieces leave the game");
        return Err(e.with_help("add `to_hand = true` under [captures], or remove `in_hand`"));
    }
    let known = Names::new("piece kind", ctx.kinds.iter().map(|k| k.name.as_str()));
    let k = v.lookup(raw.file, target.span(), &known, target.get_ref(), " in `in_hand`", "not a kind of this variant")?;
    let name = &ctx.kinds[k].name;
    match slot(name) {
        Some(s) => Ok(Some(s)),
        None => Err(v
            .err(raw.file, target.span(), format!("`{name}` is not dropped from a hand, so it cannot be held in one"), "here")
            .with_help(format!("give `{name}` drop = {{ supply = \"hand\" }}"))),
    }
}

/// The zone of the cells where the start position has `p`'s pieces of `kind`: where an
/// `initial` form may start (made once per kind and player, and kept among the zones).
#[allow(clippy::too_many_arguments)]
fn initial_zone(v: &V, f: usize, span: Range<usize>, ctx: &PieceCtx, g: &mut Geometry, kind: &str, p: Player, cond: &Cond) -> R<ZoneSet> {
    if !cond.from.is_empty() {
        let e = v.err(f, span, "`initial` says where the form starts", "and so does `from`");
        return Err(e.with_help("keep one of them: `initial` means the cells where the start position has this piece"));
    }
    let name = format!("initial {kind}@{}", p.index());
    if let Some(id) = g.zone_id(&name) {
        return Ok(ZoneSet::one(id));
    }
    let k = ctx.kinds.iter().position(|k| k.name == kind).expect("a kind of this variant");
    let code = PieceCode::new(KindId(k as u8), p);
    let cells: Vec<Cell> = (0..g.len()).filter(|&c| ctx.start[c] == code).map(|c| Cell(c as u16)).collect();
    let id = g.add_zone(&name, &cells).map_err(|e| v.err(f, span, e.to_string(), "here"))?;
    Ok(ZoneSet::one(id))
}

/// How one piece code moves.
fn stage_piece(v: &V, raw: &Src<RawPiece>, p: Player, ctx: &PieceCtx, g: &mut Geometry, kind: &str) -> R<PieceRules> {
    let f = raw.file;
    let mut rules = PieceRules::default();
    stage_forms(v, raw, p, ctx, g, kind, &mut rules)?;
    rules.any_jump = CellTable::build(g.len(), |c, out| {
        for j in &rules.jumps {
            out.extend(j.table.get(c).iter().map(|&(o, l)| (o, l, j.victims)));
        }
    });
    if let Some(pr) = &raw.val.promote {
        rules.promote = Some(stage_promotion(v, f, pr, p, ctx, kind)?);
    }
    if let Some(x) = &raw.val.exit {
        rules.exit = Some(stage_exit(v, f, x, p, ctx)?);
    }
    for e in &raw.val.effects {
        rules.effects.push(effect(v, f, e, ctx.attributes)?);
    }
    if let Some(c) = &raw.val.convert {
        rules.convert = Some(stage_convert(v, f, c, p, ctx, g)?);
    }
    if let Some(x) = &raw.val.push {
        rules.push = Some(super::push::stage_push(v, f, x, p, ctx, g)?);
    }
    if let Some(c) = &raw.val.custodian {
        rules.custodian = Some(super::custodian::stage_custodian(v, f, c, p, ctx, g)?);
    }
    if let Some(s) = &raw.val.surround {
        rules.surround = Some(super::custodian::stage_surround(v, f, s, p, ctx, g)?);
    }
    if let Some(l) = &raw.val.liberties {
        rules.liberties = Some(super::groups::stage_liberties(v, f, l, ctx.forward[p], g)?);
    }
    if let Some(d) = &raw.val.drop {
        rules.drop = Some(stage_drop(v, f, d, p, ctx, g, kind)?);
        if let Some(m) = &d.get_ref().must_convert
            && *m.get_ref()
        {
            if rules.convert.is_none() {
                let e = v.err(f, m.span(), "`must_convert` needs the kind to convert something", "here");
                return Err(e.with_help("give the kind `convert = { bracket = \"all\" }` (or `adjacent = …`)"));
            }
            if let Some(d) = &mut rules.drop {
                d.must_convert = true;
            }
        }
        if let Some(d) = &mut rules.drop
            && rules.liberties.is_none()
        {
            // (A drop under the liberty rule is tested cell by cell: a suicide is refused.)
            d.sets = crate::rules::setwise::DropSets::of(d, rules.convert.as_ref(), g.len(), ctx.kinds.len());
        }
    }
    rules.unconditional = rules.limits.iter().all(|&l| l == u16::MAX) && rules.thens.iter().all(Option::is_none);
    rules.steps = steps(&rules, g.len());
    Ok(rules)
}

/// The piece's movement forms (`moves`, or `betza`), compiled into `rules`: its quiet forms
/// with their limits and second parts, its capture chains, and each form in words.
fn stage_forms(v: &V, raw: &Src<RawPiece>, p: Player, ctx: &PieceCtx, g: &mut Geometry, kind: &str, rules: &mut PieceRules) -> R<()> {
    let f = raw.file;
    let betza = match &raw.val.betza {
        None => None,
        Some(b) => {
            if let Some(m) = raw.val.moves.first() {
                let e = v.err(f, m.span(), "a piece's movement is `moves` or `betza`, not both", "these moves");
                return Err(e.with_help("keep one of them"));
            }
            if g.hex {
                let e = v.err(f, b.span(), "Betza's notation describes moves on a square board", "but this board is hex");
                return Err(e.with_help("write the piece's `moves` with the hex directions (e, ne, nw, w, sw, se, orthogonal, diagonal)"));
            }
            Some(crate::rules::betza::forms(b).map_err(|why| v.err(f, b.span(), format!("Betza notation: {why}"), "here"))?)
        }
    };
    for form in betza.as_ref().unwrap_or(&raw.val.moves) {
        if let Some(pl) = &form.get_ref().place {
            let e = v.err(f, pl.span(), "`place` names what the second part of a turn places", "but this form has no `then`");
            return Err(e.with_help("write it inside the form's then: then = { place = \"arrow\", slide = \"all\" }"));
        }
        let Some(mut spec) = v.form(f, form, p, ctx)? else { continue };
        if let Some(i) = &form.get_ref().initial
            && *i.get_ref()
        {
            spec.cond.from = initial_zone(v, f, i.span(), ctx, g, kind, p, &spec.cond)?;
        }
        let then = match &form.get_ref().then {
            Some(t) => stage_then(v, f, t, p, ctx, g)?,
            None => None,
        };
        let note = match &then {
            Some((_, words)) => format!("{}, {words}", spec.note),
            None => spec.note.clone(),
        };
        rules.notes.push(note);
        match spec.compile(g) {
            Compiled::Jump(j) => {
                if let Some(t) = &form.get_ref().then {
                    let e = v.err(f, t.span(), "a turn's second part follows a move", "but this form is a capture chain");
                    return Err(e.with_help("give `then` to a step, slide, leap or walk"));
                }
                rules.flies |= j.flying.is_some();
                rules.jumps.push(j);
            }
            Compiled::Quiet(q) => {
                if spec.cond.en_passant && matches!(q, crate::rules::Form::Slide { .. } | crate::rules::Form::Leap { .. }) {
                    rules.en_passant.push(rules.quiet.len());
                }
                rules.quiet.push(q);
                rules.limits.push(spec.limit);
                rules.calm.push(spec.calm);
                rules.thens.push(then.map(|(t, _)| t));
            }
        }
    }
    Ok(())
}

/// A piece's promotion: the zone, the kind (or kinds to choose from, each written by its
/// letter) and when it happens.
fn stage_promotion(v: &V, f: usize, pr: &RawPromote, p: Player, ctx: &PieceCtx, kind: &str) -> R<Promotion> {
    let known = Names::new("piece kind", ctx.kinds.iter().map(|k| k.name.as_str()));
    let names = pr.to.get_ref().names();
    let span = pr.to.span();
    let Some(first) = names.first() else {
        return Err(v
            .err(f, span, "a promotion needs a kind to promote to", "here")
            .with_help("to = \"queen\" or to = [\"queen\", \"rook\"]"));
    };
    let to = v.lookup(f, span.clone(), &known, first, "", "promotes to this")?;
    let mut choices = Vec::new();
    if names.len() > 1 {
        for n in &names {
            let k = v.lookup(f, span.clone(), &known, n, "", "promotes to this")?;
            let letter = ctx.kinds[k].symbols[Player::FIRST].to_ascii_uppercase() as u8;
            if choices.iter().any(|&(_, l)| l == letter) {
                let e = v.err(f, span.clone(), "each promotion choice is written by its letter", "two kinds share a letter");
                return Err(e.with_help("give the kinds distinct symbols, or list each kind once"));
            }
            choices.push((PieceCode::new(KindId(k as u8), p), letter));
        }
    }
    let zone = v.zone_named(f, pr.zone.get_ref(), pr.zone.span(), ctx.zones, p)?;
    let at = match &pr.at {
        Some(s) => match v.word(f, s, &["any_landing", "end_of_move", "from_or_to"])?.as_str() {
            "end_of_move" => PromoteAt::EndOfMove,
            "from_or_to" => PromoteAt::FromOrTo,
            _ => PromoteAt::AnyLanding,
        },
        None => PromoteAt::AnyLanding,
    };
    if let (PromoteAt::EndOfMove | PromoteAt::FromOrTo, Some(e)) = (at, &pr.ends_chain) {
        // Promotion at the end of the move never happens inside a chain.
        return Err(v
            .err(
                f,
                e.span(),
                "`ends_chain` says what promotion inside a chain does",
                "but this piece is promoted only at the end of a move",
            )
            .with_help("remove `ends_chain`, or write at = \"any_landing\""));
    }
    let ends_chain = pr.ends_chain.as_ref().is_none_or(|e| *e.get_ref());
    let stay = choices.iter().position(|(c, _)| ctx.kinds[c.kind().0 as usize].name == kind).map(|i| i as u8);
    let forced = match &pr.forced_in {
        None => ZoneSet::EMPTY,
        Some(z) if stay.is_none() => {
            return Err(v
                .err(f, z.span(), "`forced_in` takes away the choice to stay unpromoted", "but this piece has none")
                .with_help(format!("list `{kind}` itself among `to` (promoting is then optional outside the zone), or drop `forced_in`")));
        }
        Some(z) => v.zone_named(f, z.get_ref(), z.span(), ctx.zones, p)?,
    };
    let forced_name = pr.forced_in.as_ref().map(|z| z.get_ref().clone()).unwrap_or_default();
    let mut limits = vec![u32::MAX; choices.len()];
    for (name, n) in pr.limits.iter().flatten() {
        let k = v.lookup(f, name.span(), &known, name.get_ref(), " in `limits`", "not a kind of this variant")?;
        let Some(i) = choices.iter().position(|(c, _)| c.kind().0 as usize == k) else {
            let e = v.err(f, name.span(), format!("`{}` is not among this promotion's choices", name.get_ref()), "limited here");
            return Err(e.with_help("a limit applies to a kind listed in `to`"));
        };
        let most = *n.get_ref();
        if !(0..=i64::from(u16::MAX)).contains(&most) {
            return Err(v.err(f, n.span(), format!("a limit is 0 to 65535 pieces, not {most}"), "here"));
        }
        limits[i] = most as u32;
    }
    Ok(Promotion { zone, to: KindId(to as u8), choices, ends_chain, at, forced, forced_name, stay, limits })
}

/// Where a piece leaves the game, and the counter its leaving raises.
fn stage_exit(v: &V, f: usize, x: &RawExit, p: Player, ctx: &PieceCtx) -> R<Exit> {
    let zone = v.zone_named(f, x.zone.get_ref(), x.zone.span(), ctx.zones, p)?;
    let known = Names::new("counter", ctx.counters.iter().copied());
    let counter = match &x.counter {
        None => None,
        Some(c) => Some(v.lookup(f, c.span(), &known, c.get_ref(), "", "declare it under [counters]")? as u8),
    };
    Ok(Exit { zone, counter })
}

/// The targets of the piece's quiet forms per cell, in form order, where they are all steps
/// capturing by landing the same codes (see [`PieceRules::steps`]); reads `unconditional`,
/// set before.
fn steps(rules: &PieceRules, cells: usize) -> Option<StepTargets> {
    // Every field named: a new one does not compile until it is decided here.
    let capture = match rules.quiet.first()? {
        Form::Step { capture, .. } => *capture,
        _ => return None,
    };
    let step = |f: &Form| matches!(f, Form::Step { targets: _, capture: c, quiet: true, en_passant: false } if *c == capture);
    let ok = rules.quiet.iter().all(step) && rules.unconditional && rules.exit.is_none();
    ok.then(|| {
        let targets = CellTable::build(cells, |c, out| {
            for f in &rules.quiet {
                if let Form::Step { targets, .. } = f {
                    out.extend_from_slice(targets.get(c));
                }
            }
        });
        let sets = step_sets(&targets, cells);
        StepTargets { targets, capture, sets }
    })
}

/// A table of step targets as one cell set per cell (`None` past 128 cells, or where a cell's
/// targets repeat: a set would count them once, the list twice).
fn step_sets(table: &CellTable<u16>, cells: usize) -> Option<Vec<u128>> {
    if !CellSet::fits(cells) {
        return None;
    }
    (0..cells as u16)
        .map(|c| {
            let targets = table.get(c);
            let set: CellSet = targets.iter().copied().collect();
            (set.count() as usize == targets.len()).then_some(set.bits())
        })
        .collect()
}

/// The second part of a turn (`then`): the kind it places, and a quiet form (no capture, no
/// further `then`) that says where from the landing; with its words for the rules description.
fn stage_then(v: &V, f: usize, t: &Spanned<RawForm>, p: Player, ctx: &PieceCtx, g: &mut Geometry) -> R<Option<(Then, String)>> {
    let raw = t.get_ref();
    let Some(place) = &raw.place else {
        let e = v.err(f, t.span(), "a turn's second part places a piece", "this `then` names none");
        return Err(e.with_help("add place = \"KIND\", e.g. then = { place = \"arrow\", slide = \"all\" }"));
    };
    let known = Names::new("piece kind", ctx.kinds.iter().map(|k| k.name.as_str()));
    let kind = v.lookup(f, place.span(), &known, place.get_ref(), "", "placed here")?;
    if let Some(inner) = &raw.then {
        return Err(v.err(f, inner.span(), "a turn has at most two parts", "a third part here"));
    }
    if let Some(i) = &raw.initial {
        let e = v.err(f, i.span(), "`initial` says where a piece's move starts", "but a second part starts from the landing");
        return Err(e.with_help("give `initial` to the first part of the turn"));
    }
    let Some(spec) = v.form(f, t, p, ctx)? else { return Ok(None) };
    if spec.capture != 0 {
        let at = raw.capture.as_ref().map(|c| c.span()).or(raw.victims.as_ref().and_then(|x| x.first()).map(|x| x.span()));
        return Err(v
            .err(f, at.unwrap_or(t.span()), "a placed piece goes to an empty cell", "so it captures nothing")
            .with_help("remove `capture`"));
    }
    let words = format!("then places a {} from where it landed: {}", place.get_ref(), spec.note);
    match spec.compile(g) {
        Compiled::Quiet(form) => {
            // (The kernel declares a hand kind's counter under this name.)
            let hand = ctx.counters.iter().position(|c| *c == hand_counter(place.get_ref())).map(|s| s as u8);
            Ok(Some((Then { code: PieceCode::new(KindId(kind as u8), p), form, hand }, words)))
        }
        Compiled::Jump(_) => {
            Err(v.err(f, t.span(), "a turn's second part places a piece where a step, slide, leap or walk goes", "not a jump"))
        }
    }
}

/// What a piece converts when it lands: per direction, the next-cell table of its lines and of
/// its neighbours, and the kinds that change owner.
fn stage_convert(v: &V, f: usize, c: &Spanned<RawConvert>, p: Player, ctx: &PieceCtx, g: &Geometry) -> R<Convert> {
    let raw = c.get_ref();
    let table = |dirs: &Option<Spanned<RawDirs>>| -> R<Vec<Vec<u16>>> {
        let Some(d) = dirs else { return Ok(Vec::new()) };
        let ds = crate::rules::movement::dirs_of(v, f, d, ctx.forward[p], false)?;
        Ok(ds
            .iter()
            .map(|&(dx, dy)| {
                g.cells()
                    .map(|c| {
                        let (x, y) = g.coords(c);
                        g.at(x as i32 + dx as i32, y as i32 + dy as i32).map_or(crate::geometry::NONE, |n| n.0)
                    })
                    .collect()
            })
            .collect())
    };
    let (bracket, adjacent) = (table(&raw.bracket)?, table(&raw.adjacent)?);
    if bracket.is_empty() && adjacent.is_empty() {
        let e = v.err(f, c.span(), "`convert` needs `bracket` or `adjacent` directions", "here");
        return Err(e.with_help(
            "`bracket = \"all\"`: lines of enemy pieces closed by one of the mover's (Othello); `adjacent = \"all\"`: enemy neighbours",
        ));
    }
    Ok(Convert { bracket, adjacent, kinds: v.kind_set(f, &raw.kinds, ctx.kinds)? })
}

/// Whether a piece's forms can produce the same move twice: two quiet forms reaching the same
/// cell, or two jump forms sharing a (jumped, landing) pair (the same chain built twice).
fn may_repeat(g: &Geometry, rules: &PieceRules) -> bool {
    if forms_may_overlap(g, &rules.quiet) {
        return true;
    }
    if rules.flies && rules.jumps.len() > 1 {
        // A flying jump's landings are found on the board: assume they may meet another form's.
        return true;
    }
    rules.jumps.len() > 1
        && g.cells().any(|c| {
            let mut pairs: Vec<(u16, u16)> = rules.jumps.iter().flat_map(|j| j.table.get(c.0).iter().copied()).collect();
            let n = pairs.len();
            pairs.sort();
            pairs.dedup();
            pairs.len() != n
        })
}

/// An attribute effect applied when the piece lands.
fn effect(v: &V, f: usize, e: &Spanned<crate::rules::raw::RawEffect>, attributes: &[String]) -> R<Effect> {
    let ef = e.get_ref();
    let known = Names::new("attribute", attributes.iter().map(String::as_str));
    let slot = v.lookup(f, ef.attribute.span(), &known, ef.attribute.get_ref(), "", "declare it under [pieces.NAME.attributes]")?;
    let on = match ef.on.as_ref().map(|o| (o.get_ref().as_str(), o.span())) {
        None | Some(("any", _)) => EffectOn::Any,
        Some(("quiet", _)) => EffectOn::Quiet,
        Some(("capture", _)) => EffectOn::Capture,
        Some((other, span)) => {
            return Err(v.err(f, span, format!("`{other}` is not allowed; expected quiet, capture or any"), "here"));
        }
    };
    if ef.add.is_some() == ef.set.is_some() {
        return Err(v.err(f, e.span(), "an effect has exactly one of `add` and `set`", "this effect"));
    }
    let name = ef.attribute.get_ref();
    let add = ef.add.as_ref().map(|x| v.int32(f, x, &format!("`add` to attribute `{name}`"))).transpose()?.unwrap_or(0);
    let set = ef.set.as_ref().map(|x| v.int32(f, x, &format!("`set` of attribute `{name}`"))).transpose()?;
    Ok(Effect { slot: slot as u8, on, add, set })
}

/// `[rules] check`: whether a move may leave one of the mover's royal pieces attacked. Needs a
/// royal kind to protect.
/// `[rules] check`: whether a move may leave the mover's royal piece attacked (`illegal`:
/// not); and `give_check`: whether it may attack the opponent's (`false`: not).
pub(super) fn stage_check(v: &V, kinds: &[KindDef]) -> R<(bool, bool)> {
    let Some(r) = &v.m.rules else { return Ok((false, false)) };
    let royal = kinds.iter().any(|k| k.royal);
    let no_royal = |at| {
        let e = v.err(r.file, at, "check protects a royal piece", "but no kind is royal");
        e.with_help("mark the king's kind with `royal = true`")
    };
    let illegal = match &r.val.check {
        None => false,
        Some(c) => v.word(r.file, c, &["allowed", "illegal"])? == "illegal",
    };
    if illegal && !royal {
        return Err(no_royal(r.val.check.as_ref().map(|c| c.span()).unwrap_or_default()));
    }
    let no_giving = match &r.val.give_check {
        None => false,
        Some(g) => !v.setting(r.file, g)?,
    };
    if no_giving && !royal {
        return Err(no_royal(r.val.give_check.as_ref().map(|c| c.span()).unwrap_or_default()));
    }
    Ok((illegal, no_giving))
}

/// `[rules] pass`: whether a player may pass at any turn.
pub(super) fn stage_pass(v: &V) -> R<bool> {
    match v.m.rules.as_ref().and_then(|r| r.val.pass.as_ref().map(|p| (r.file, p))) {
        None => Ok(false),
        Some((f, p)) => v.setting(f, p),
    }
}

/// `[rules] points`, `points_bonus` and `points_prisoners`: the count an end with `result =
/// "points"` uses. Territory scoring counts no piece: `points_territory` or `points_prisoners`
/// alone make a count (every kind 0 points).
pub(super) fn stage_score(v: &V, kinds: &[KindDef], players: &ByPlayer<String>) -> R<Option<Score>> {
    let Some(r) = &v.m.rules else { return Ok(None) };
    let counted = r.val.declares_count();
    let f = r.file;
    let empty = std::collections::BTreeMap::new();
    let points = match &r.val.points {
        Some(p) => p.get_ref(),
        None if counted => &empty,
        None => {
            if let Some((k, _)) = r.val.points_bonus.as_ref().and_then(|b| b.iter().next()) {
                return Err(v.err(f, k.span(), "`points_bonus` adds to a count of `points`", "but [rules] has no `points`"));
            }
            return Ok(None);
        }
    };
    let known = Names::new("piece kind", kinds.iter().map(|k| k.name.as_str()));
    let mut score = Score { points: vec![0.0; kinds.len()], bonus: ByPlayer::new(0.0, 0.0), territory: None, prisoners: 0.0 };
    let sane = |x: &Spanned<f64>| -> R<f64> {
        let n = *x.get_ref();
        if n.is_finite() && n.abs() <= 1e6 {
            Ok(n)
        } else {
            Err(v.err(f, x.span(), format!("points are numbers from -1000000 to 1000000, not {n}"), "here"))
        }
    };
    for (k, n) in points {
        score.points[v.lookup(f, k.span(), &known, k.get_ref(), "", "not a kind of this variant")?] = sane(n)?;
    }
    for (p, n) in r.val.points_bonus.iter().flatten() {
        score.bonus[v.player(f, p.span(), players, p.get_ref(), "unknown player")?] = sane(n)?;
    }
    if let Some(n) = &r.val.points_prisoners {
        score.prisoners = sane(n)?;
    }
    Ok(Some(score))
}

/// `[castling]`: the king's kind, the kinds it castles with, and per side the files the king
/// and the rook land on. The king's kind must be royal only if check matters, so it is not
/// required here; two different kinds, and landing files on the board, are.
pub(super) fn stage_castling(v: &V, kinds: &[KindDef], g: &Geometry) -> R<Option<Castling>> {
    let Some(c) = &v.m.castling else { return Ok(None) };
    // `castling = false`, or a section with no side: no castling (a derived variant's way to
    // take its base's away).
    let (f, CastlingSection::On(raw)) = (c.file, c.val.get_ref()) else { return Ok(None) };
    if raw.east.is_none() && raw.west.is_none() {
        return Ok(None);
    }
    let needs =
        |what: &str, help: &str| v.err(f, c.val.span(), format!("[castling] needs `{what}`"), "this section").with_help(help.to_string());
    let king_name = raw.king.as_ref().ok_or_else(|| needs("king", "king = \"king\": the kind that castles"))?;
    let rook_names = raw.rook.as_ref().ok_or_else(|| needs("rook", "rook = \"rook\": the kind (or kinds) it castles with"))?;
    let known = Names::new("piece kind", kinds.iter().map(|k| k.name.as_str()));
    let king = KindId(v.lookup(f, king_name.span(), &known, king_name.get_ref(), " in [castling]", "the king that castles")? as u8);
    let mut rooks = KindSet::EMPTY;
    for name in rook_names.get_ref().names() {
        let k = KindId(v.lookup(f, rook_names.span(), &known, name, " in [castling]", "what the king castles with")? as u8);
        if k == king {
            return Err(v.err(f, rook_names.span(), "a king castles with a piece of another kind", "the king's own kind"));
        }
        rooks = rooks.with(k);
    }
    let file = |t: &Spanned<String>| -> R<u8> {
        (0..g.files).find(|&x| crate::geometry::file_letter(x).to_string() == t.get_ref().to_ascii_lowercase()).ok_or_else(|| {
            v.err(f, t.span(), format!("`{}` is not a file of this board", t.get_ref()), "a file letter")
                .with_help(format!("files run from a to {}", crate::geometry::file_letter(g.files - 1)))
        })
    };
    let mut sides = [None, None];
    for (i, s) in [&raw.east, &raw.west].into_iter().enumerate() {
        if let Some(s) = s {
            let (k, r) = (file(&s.get_ref().king)?, file(&s.get_ref().rook)?);
            if k == r {
                return Err(v.err(f, s.span(), "the king and the rook land on different files", "the same file twice"));
            }
            sides[i] = Some((k, r));
        }
    }
    Ok(Some(Castling { king, rooks, sides }))
}

/// The capture policy: compulsory, chains, removal, maximum, identity, the hand, explosions.
pub(super) fn stage_captures(v: &V, kinds: &[KindDef], g: &Geometry) -> R<CapturePolicy> {
    let mut pol = CapturePolicy {
        compulsory: false,
        chain: Chain::Single,
        removal: Removal::Immediate,
        maximum: false,
        identity: Identity::Path,
        to_hand: false,
        explode: None,
    };
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
    if let Some(s) = &c.val.identity {
        pol.identity = match v.word(f, s, &["path", "captured_set"])?.as_str() {
            "captured_set" => Identity::CapturedSet,
            _ => Identity::Path,
        };
    }
    if let Some(s) = &c.val.to_hand {
        pol.to_hand = v.setting(f, s)?;
    }
    if let Some(x) = &c.val.explode {
        pol.explode = Some(stage_explode(v, f, x, kinds, g)?);
        if pol.to_hand || pol.chain != Chain::Single {
            let e = v.err(f, x.span(), "`explode` is not combined with `to_hand` or capture chains", "here");
            return Err(e.with_help("an explosion removes pieces of both players, which no hand or chain continues from"));
        }
    }
    Ok(pol)
}

/// `explode = { around, spare }`: the blast's neighbour table (all eight neighbours unless
/// `around` says) and the kinds it spares.
fn stage_explode(v: &V, f: usize, x: &Spanned<RawExplode>, kinds: &[KindDef], g: &Geometry) -> R<Explode> {
    let raw = x.get_ref();
    let dirs = match &raw.around {
        Some(d) => crate::rules::movement::dirs_of(v, f, d, 1, false)?,
        None => vec![(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)],
    };
    let around = CellTable::build(g.len(), |c, out| {
        let (x, y) = g.coords(crate::geometry::Cell(c));
        let mut seen = Vec::new();
        for &(dx, dy) in &dirs {
            if let Some(n) = g.at(x as i32 + dx as i32, y as i32 + dy as i32)
                && !seen.contains(&n.0)
            {
                seen.push(n.0);
                out.push(n.0);
            }
        }
    });
    let spare = match &raw.spare {
        Some(names) => v.kind_set(f, &Some(names.clone()), kinds)?,
        None => KindSet::EMPTY,
    };
    Ok(Explode { around, spare })
}

#[cfg(test)]
mod tests {
    use super::step_sets;
    use crate::geometry::CellTable;

    /// A cell's targets become one set, unless one repeats (a set would count it once, the
    /// list of moves twice) or the board is past a set's 128 cells.
    #[test]
    fn step_sets_hold_each_cells_targets_once() {
        let table = CellTable::build(3, |c, out| out.extend([(c + 1) % 3, (c + 2) % 3]));
        assert_eq!(step_sets(&table, 3), Some(vec![0b110, 0b101, 0b011]));
        let repeated = CellTable::build(3, |c, out| out.extend([(c + 1) % 3, (c + 1) % 3]));
        assert_eq!(step_sets(&repeated, 3), None);
        let wide = CellTable::build(129, |_, _| {});
        assert_eq!(step_sets(&wide, 129), None);
    }
}
