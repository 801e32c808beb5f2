//! Merging a variant's files along its `extends` chain: each section remembers the file that
//! wrote it, so a diagnostic points into the right file.

use crate::rules::SourceFile;
use crate::rules::raw::*;
use std::collections::BTreeMap;
use toml::Spanned;

/// The inherited end that `name` names ([`Merged::overlay_ends`]).
fn end_named(ends: &[Src<RawEnd>], name: &str) -> Option<usize> {
    let condition = |e: &RawEnd| e.condition.get_ref().as_str() == name;
    ends.iter().position(|e| e.val.name.as_ref().is_some_and(|n| n.get_ref() == name)).or_else(|| {
        let mut same = ends.iter().enumerate().filter(|(_, e)| e.val.name.is_none() && condition(&e.val));
        match (same.next(), same.next()) {
            (Some((i, _)), None) if ends.iter().filter(|e| condition(&e.val)).count() == 1 => Some(i),
            _ => ends.iter().position(|e| e.val.name.is_none() && e.val.reason.as_deref() == Some(name)),
        }
    })
}

/// A value together with the index of the file that wrote it.
#[derive(Clone, Debug)]
pub(crate) struct Src<T> {
    pub(crate) file: usize,
    pub(crate) val: T,
}

/// An option as merged along an `extends` chain.
#[derive(Clone, Debug)]
pub(crate) struct MergedOption {
    pub(crate) decl: Src<RawOption>,
    /// A later file's new default.
    pub(crate) default: Option<Src<Spanned<toml::Value>>>,
    pub(crate) description: Option<String>,
}

/// A variant's sections merged along its `extends` chain: each section remembers its file.
#[derive(Clone, Debug, Default)]
pub(crate) struct Merged {
    pub(crate) files: Vec<SourceFile>,
    /// Variant names, most derived first.
    pub(crate) chain: Vec<String>,
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) script: Option<Src<Spanned<String>>>,
    pub(crate) board: Option<Src<RawBoard>>,
    pub(crate) players: Option<Src<RawPlayers>>,
    pub(crate) zones: BTreeMap<String, Src<Spanned<RawZone>>>,
    pub(crate) counters: BTreeMap<String, Src<Spanned<i64>>>,
    pub(crate) pieces: BTreeMap<String, Src<RawPiece>>,
    pub(crate) captures: Option<Src<RawCaptures>>,
    /// `[[end]]`, each with its file: a later file's list replaces the base's whole, or, where
    /// one of its ends has a `name`, is merged into it by name ([`Merged::overlay_ends`]).
    pub(crate) ends: Option<Vec<Src<RawEnd>>>,
    pub(crate) setup: Option<Src<RawSetup>>,
    pub(crate) options: BTreeMap<String, MergedOption>,
    pub(crate) hooks: Option<Src<RawHooks>>,
    pub(crate) crown: Option<Src<RawCrown>>,
    pub(crate) display: Option<Src<RawDisplay>>,
    pub(crate) ai: Option<Src<RawAi>>,
    pub(crate) rules: Option<Src<RawRules>>,
    pub(crate) castling: Option<Src<toml::Spanned<CastlingSection>>>,
    /// `[notation]`; its `fairy_stockfish` name comes from the most derived file only.
    pub(crate) notation: Option<Src<RawNotation>>,
    /// `[sowing]` (replaced whole by a later file's).
    pub(crate) sowing: Option<Src<crate::rules::raw::RawSowing>>,
}

impl Merged {
    /// Lays one file's sections over what the files before it (its bases) said.
    pub(crate) fn overlay(&mut self, file: usize, raw: RawVariant, name: &str) {
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
        for (k, c) in raw.counters {
            self.counters.insert(k, Src { file, val: c });
        }
        for (k, p) in raw.pieces {
            self.pieces.insert(k, Src { file, val: p });
        }
        if let Some(c) = raw.captures {
            self.captures = Some(Src { file, val: c });
        }
        if let Some(e) = raw.ends {
            self.overlay_ends(file, e);
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
        if let Some(a) = raw.ai {
            self.ai = Some(Src { file, val: a });
        }
        if let Some(r) = raw.rules {
            self.rules = Some(Src { file, val: r });
        }
        if let Some(c) = raw.castling {
            self.castling = Some(Src { file, val: c });
        }
        if let Some(h) = raw.hooks {
            self.hooks = Some(Src { file, val: h });
        }
        self.overlay_notation(file, raw.notation);
        if let Some(w) = raw.sowing {
            self.sowing = Some(Src { file, val: w });
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

    /// `[[end]]`: a list without a `name` replaces the base's whole. Where an end has a name,
    /// the list merges into the base's: an end replaces the inherited end it names (in its
    /// place), or with `remove = true` takes it away; an end that names none is added. An end
    /// answers to its `name`, else to its condition where no other inherited end has that
    /// condition, else to its reason. A `remove` that names nothing stays, for validation to
    /// report at its key.
    fn overlay_ends(&mut self, file: usize, ends: Vec<RawEnd>) {
        let by_name = ends.iter().any(|e| e.name.is_some());
        let Some(base) = self.ends.as_mut().filter(|_| by_name) else {
            self.ends = Some(ends.into_iter().map(|val| Src { file, val }).collect());
            return;
        };
        for e in ends {
            let found = e.name.as_ref().and_then(|n| end_named(base, n.get_ref()));
            match found {
                Some(i) if e.remove.as_ref().is_some_and(|r| *r.get_ref()) => {
                    base.remove(i);
                }
                Some(i) => base[i] = Src { file, val: e },
                None => base.push(Src { file, val: e }),
            }
        }
    }

    /// `[notation]`: `moves`, `square_one` and `fen_checks` are inherited key by key; a base's
    /// `fairy_stockfish` name and `pdn` number never are (they name another game).
    fn overlay_notation(&mut self, file: usize, raw: Option<RawNotation>) {
        if let Some(n) = &mut self.notation {
            n.val.fairy_stockfish = None;
            n.val.pdn = None;
        }
        if let Some(mut n) = raw {
            if let Some(base) = &self.notation {
                n.moves = n.moves.or(base.val.moves);
                n.square_one = n.square_one.or(base.val.square_one);
                n.fen_checks = n.fen_checks.or_else(|| base.val.fen_checks.clone());
            }
            self.notation = Some(Src { file, val: n });
        }
    }
}
