//! The hooks a script may define, each in one place: its name and parameters ([`Hook`]), how
//! `[hooks]` configures it, and the filter that keeps it from running where it cannot matter.
//! Adding a hook is adding a [`Hook`] variant (and its field in `raw::RawHooks`), then
//! following the compiler (the script host calls hooks through `script::Script`).

use super::raw::{RawHook, RawHookFilter, RawHooks};
use super::validate::context::{R, V};
use super::validate::settings::eval_when;
use super::validate::zones::ZoneMap;
use super::{KindDef, KindSet};
use crate::geometry::{Cell, CellTable, Geometry, ZoneSet};
use crate::piece::{ByPlayer, Player};
use toml::Spanned;

/// A hook: a script function with a name the kernel knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Hook {
    /// `after_move(m)`: after the kernel's part of every move (filtered).
    AfterMove,
    /// `allow_move(m)`: may refuse a move the kernel generated (filtered).
    AllowMove,
    /// `generate_moves()`: adds moves the kernel cannot generate.
    GenerateMoves,
    /// `outcome()`: may declare a result after each move.
    Outcome,
    /// `evaluate(player)`: a term of the machine player's evaluation (read-only).
    Evaluate,
}

impl Hook {
    pub(crate) const ALL: [Hook; 5] = [Hook::AfterMove, Hook::AllowMove, Hook::GenerateMoves, Hook::Outcome, Hook::Evaluate];

    /// The script function's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Hook::AfterMove => "after_move",
            Hook::AllowMove => "allow_move",
            Hook::GenerateMoves => "generate_moves",
            Hook::Outcome => "outcome",
            Hook::Evaluate => "evaluate",
        }
    }

    /// How many parameters the function takes.
    pub(crate) fn arity(self) -> usize {
        match self {
            Hook::AfterMove | Hook::AllowMove | Hook::Evaluate => 1,
            Hook::GenerateMoves | Hook::Outcome => 0,
        }
    }

    /// Whether a filter decides per move if the hook runs (otherwise it is on or off).
    pub(crate) fn per_move(self) -> bool {
        matches!(self, Hook::AfterMove | Hook::AllowMove)
    }

    /// The hook's entry in a `[hooks]` table.
    pub(crate) fn raw(self, h: &RawHooks) -> Option<&Spanned<RawHook>> {
        match self {
            Hook::AfterMove => h.after_move.as_ref(),
            Hook::AllowMove => h.allow_move.as_ref(),
            Hook::GenerateMoves => h.generate_moves.as_ref(),
            Hook::Outcome => h.outcome.as_ref(),
            Hook::Evaluate => h.evaluate.as_ref(),
        }
    }
}

/// When a hook runs.
#[derive(Clone, Debug, Default)]
pub(crate) struct HookFilter {
    /// Kinds whose moves trigger the hook.
    pub(crate) kinds: KindSet,
    pub(crate) captures_only: bool,
    pub(crate) forward_only: bool,
    /// Only moves whose landing has an enemy piece beside it or in its file (see [`Near`]).
    pub(crate) near: Option<Near>,
    /// Only moves that land in this zone (per player: the mover's part).
    pub(crate) to: Option<ByPlayer<ZoneSet>>,
    /// Only while the mover's counter (slot) is within `min..=max`.
    pub(crate) counter: Option<(u8, i32, i32)>,
}

/// A hook filter on where the enemy stands: an enemy piece on one of `adjacent`'s cells of the
/// landing, or (with `same_file`) anywhere in the landing's file.
#[derive(Clone, Debug)]
pub(crate) struct Near {
    pub(crate) adjacent: CellTable<u16>,
    pub(crate) file: Option<CellTable<u16>>,
}

impl HookFilter {
    /// An unfiltered hook.
    pub(crate) fn always() -> HookFilter {
        HookFilter { kinds: KindSet::ALL, ..HookFilter::default() }
    }

    /// Whether the filter lets every move through.
    pub(crate) fn is_always(&self) -> bool {
        self.kinds == KindSet::ALL
            && !self.captures_only
            && !self.forward_only
            && self.near.is_none()
            && self.to.is_none()
            && self.counter.is_none()
    }
}

/// How `[hooks]` sets one hook.
#[derive(Clone, Debug, Default)]
pub(crate) enum HookSetting {
    /// Not in `[hooks]`: a hook the script defines always runs.
    #[default]
    Unmentioned,
    /// `false`, or a filter whose `when` is false.
    Off,
    On(HookFilter),
}

/// The `[hooks]` settings, by [`Hook`].
#[derive(Clone, Debug, Default)]
pub(crate) struct HookRules {
    settings: [HookSetting; Hook::ALL.len()],
}

impl HookRules {
    pub(crate) fn get(&self, h: Hook) -> &HookSetting {
        &self.settings[h as usize]
    }
}

/// The `[hooks]` table in force.
pub(super) fn stage_hooks(v: &V, kinds: &[KindDef], g: &Geometry, zones: &ZoneMap, counters: &[&str]) -> R<HookRules> {
    let mut rules = HookRules::default();
    let Some(raw) = &v.m.hooks else { return Ok(rules) };
    for h in Hook::ALL {
        let Some(x) = h.raw(&raw.val) else { continue };
        rules.settings[h as usize] = match x.get_ref() {
            RawHook::Always(true) => HookSetting::On(HookFilter::always()),
            RawHook::Always(false) => HookSetting::Off,
            RawHook::Filter(fl) => match filter(v, raw.file, x.span(), fl, kinds, g, zones, counters)? {
                Some(f) => HookSetting::On(f),
                None => HookSetting::Off,
            },
        };
    }
    Ok(rules)
}

/// A hook filter; `None` when its `when` condition is false.
#[allow(clippy::too_many_arguments)]
fn filter(
    v: &V,
    f: usize,
    span: std::ops::Range<usize>,
    fl: &RawHookFilter,
    kinds: &[KindDef],
    g: &Geometry,
    zones: &ZoneMap,
    counters: &[&str],
) -> R<Option<HookFilter>> {
    if let Some(w) = &fl.when
        && !eval_when(&v.opts, w).map_err(|e| v.err(f, span.clone(), e.to_string(), "in this hook's condition"))?
    {
        return Ok(None);
    }
    let known = super::names::Names::new("piece kind", kinds.iter().map(|d| d.name.as_str()));
    let mut kset = if fl.kinds.is_empty() { KindSet::ALL } else { KindSet::EMPTY };
    for k in &fl.kinds {
        kset = kset.with(crate::piece::KindId(v.lookup(f, span.clone(), &known, k, " in a hook filter", "here")? as u8));
    }
    let captures_only = match &fl.captures_only {
        None => false,
        Some(s) => v.setting(f, &Spanned::new(span.clone(), s.clone()))?,
    };
    let near = match &fl.enemy_adjacent {
        None if fl.enemy_in_file != Some(true) => None,
        adj => {
            let vecs = match adj {
                Some(d) => super::movement::dirs_of(v, f, &Spanned::new(span.clone(), d.clone()), 1, false)?,
                None => Vec::new(),
            };
            let adjacent = g.neighbour_table(&vecs);
            let file = (fl.enemy_in_file == Some(true)).then(|| {
                CellTable::build(g.len(), |c, out| {
                    let x = g.coords(Cell(c)).0;
                    out.extend(g.cells().filter(|t| t.0 != c && g.coords(*t).0 == x).map(|t| t.0));
                })
            });
            Some(Near { adjacent, file })
        }
    };
    let to = match &fl.to {
        None => None,
        Some(z) if z == "board" => None,
        Some(z) => Some(ByPlayer::new(
            v.zone_named(f, z, span.clone(), zones, Player::FIRST)?,
            v.zone_named(f, z, span.clone(), zones, Player::SECOND)?,
        )),
    };
    let counter = match &fl.counter {
        None => None,
        Some(c) => {
            let known = super::names::Names::new("counter", counters.iter().copied());
            let slot = v.lookup(f, span.clone(), &known, &c.name, " in a hook filter", "declare it under [counters]")? as u8;
            let bound = |x: Option<i64>, default: i32| x.map_or(default, |x| x.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
            Some((slot, bound(c.min, i32::MIN), bound(c.max, i32::MAX)))
        }
    };
    Ok(Some(HookFilter { kinds: kset, captures_only, forward_only: fl.forward_only.unwrap_or(false), near, to, counter }))
}
