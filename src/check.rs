//! What `boardlab check` looks at beyond loading a variant once: the variant under every
//! setting of its options (a setting bound to an option value that breaks the rules shows up
//! only when that value is chosen), and its script's calls and names ([`crate::script::lint`]).
//!
//! Which settings: every combination of the options' values when there are at most
//! [`MAX_COMBINATIONS`]; otherwise each value of each option with the others at their defaults.
//! A choice or a switch takes each of its values; an integer option takes its `min`, its `max`,
//! its default and its `also` values. Options given with `--set` keep the given value. The
//! built-in `move_limit` (which every value of loads the same way) is left at its value unless
//! the variant declares it.

use crate::rules::{OptionType, OptionValue, Options};
use crate::script::lint::{Finding, lint};
use crate::variant::Variant;

/// The most option settings `check` loads one by one; beyond it, one option varies at a time.
pub(crate) const MAX_COMBINATIONS: usize = 64;

/// One option setting as `(name, value)` pairs: every option's value, in declaration order.
pub(crate) type Setting = Vec<(String, String)>;

/// A setting under which the variant does not load or cannot list its first moves.
#[derive(Clone, Debug)]
pub(crate) struct Broken {
    /// The options that differ from their defaults (empty: the defaults themselves).
    pub(crate) changed: Vec<(String, String)>,
    /// The diagnostic or the error, rendered.
    pub(crate) error: String,
}

impl Broken {
    /// `with captures=compulsory_maximal, army_min=0` (or `with the default options`).
    pub(crate) fn heading(&self) -> String {
        if self.changed.is_empty() {
            "with the default options".into()
        } else {
            let parts: Vec<String> = self.changed.iter().map(|(n, v)| format!("{n}={v}")).collect();
            format!("with {}", parts.join(", "))
        }
    }
}

/// What sweeping the option settings found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sweep {
    /// The settings tried (the one already loaded included).
    pub(crate) settings: usize,
    /// Whether every combination was tried (or one option at a time).
    pub(crate) all_combinations: bool,
    /// The settings whose start position's moves were listed (fewer than `settings` when the
    /// listing ran out of [`MOVES_BUDGET`]: a runaway hook takes long to stop each time).
    pub(crate) moves_listed: usize,
    pub(crate) broken: Vec<Broken>,
}

impl Sweep {
    /// The broken settings grouped by their error (in the order first met): the headings of the
    /// settings that share it, and the error once.
    pub(crate) fn grouped(&self) -> Vec<(Vec<String>, &str)> {
        let mut out: Vec<(Vec<String>, &str)> = Vec::new();
        for b in &self.broken {
            match out.iter_mut().find(|(_, e)| *e == b.error) {
                Some((hs, _)) => hs.push(b.heading()),
                None => out.push((vec![b.heading()], &b.error)),
            }
        }
        out
    }
}

/// How long `check` spends listing start positions' moves, over all settings.
pub(crate) const MOVES_BUDGET: std::time::Duration = std::time::Duration::from_millis(1000);

/// What reading the variant's script found ([`crate::script::lint`]): nothing without one.
pub(crate) fn script(v: &Variant) -> Vec<Finding> {
    v.script.as_ref().map_or_else(Vec::new, |s| lint(&s.file, &v.rules))
}

/// The values `check` tries for an option, the default first.
fn values(ty: &OptionType, default: &OptionValue) -> Vec<OptionValue> {
    let mut out = vec![default.clone()];
    let more: Vec<OptionValue> = match ty {
        OptionType::Choice(c) => c.iter().map(|x| OptionValue::Text(x.clone())).collect(),
        OptionType::Bool => vec![OptionValue::Bool(false), OptionValue::Bool(true)],
        OptionType::Int { min, max, also } => [*min, *max].iter().chain(also).map(|&i| OptionValue::Int(i)).collect(),
    };
    for v in more {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The option settings to try for a variant loaded with `opts` (the values in force there are
/// kept for the options in `fixed`), the loaded one first; and whether they are every
/// combination.
pub(crate) fn settings(opts: &Options, fixed: &[String], declared_move_limit: bool) -> (Vec<Setting>, bool) {
    let current: Setting = opts.decls.iter().map(|d| (d.name.clone(), opts.get(&d.name).unwrap_or(&d.default).to_string())).collect();
    // Per option: the values to try (one, for an option that stays put).
    let choices: Vec<Vec<String>> = opts
        .decls
        .iter()
        .zip(&current)
        .map(|(d, (_, now))| {
            if fixed.contains(&d.name) || (d.name == "move_limit" && !declared_move_limit) {
                vec![now.clone()]
            } else {
                let mut vs: Vec<String> = values(&d.ty, &d.default).iter().map(ToString::to_string).collect();
                // The loaded value first: it is the setting already checked.
                vs.retain(|v| v != now);
                vs.insert(0, now.clone());
                vs
            }
        })
        .collect();
    let product = choices.iter().try_fold(1usize, |n, c| n.checked_mul(c.len())).unwrap_or(usize::MAX);
    let mut out: Vec<Setting> = Vec::new();
    if product <= MAX_COMBINATIONS {
        let mut idx = vec![0usize; choices.len()];
        loop {
            out.push(current.iter().zip(&choices).zip(&idx).map(|(((n, _), c), &i)| (n.clone(), c[i].clone())).collect());
            // The next combination, the last option fastest.
            let mut k = choices.len();
            loop {
                if k == 0 {
                    return (out, true);
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < choices[k].len() {
                    break;
                }
                idx[k] = 0;
            }
        }
    }
    out.push(current.clone());
    for (k, c) in choices.iter().enumerate() {
        for v in &c[1..] {
            let mut s = current.clone();
            s[k].1 = v.clone();
            out.push(s);
        }
    }
    (out, false)
}

/// Loads `v` (already loaded with its overrides) under every other option setting and lists
/// the start position's moves under each (a hook can fail there too).
pub(crate) fn sweep(v: &Variant, color: bool) -> Sweep {
    let fixed: Vec<String> = v.overrides.iter().map(|(n, _)| n.clone()).collect();
    let declared_move_limit = v.merged.options.contains_key("move_limit");
    let (all, every) = settings(&v.rules.options, &fixed, declared_move_limit);
    let defaults: Vec<(String, String)> = v.rules.options.decls.iter().map(|d| (d.name.clone(), d.default.to_string())).collect();
    let mut broken = Vec::new();
    let (started, mut moves_listed) = (std::time::Instant::now(), 0);
    for (i, s) in all.iter().enumerate() {
        let changed: Vec<(String, String)> = s.iter().filter(|p| !defaults.contains(p)).cloned().collect();
        let loaded;
        let variant = if i == 0 {
            v
        } else {
            match v.with_options(s) {
                Ok(x) => {
                    loaded = x;
                    &loaded
                }
                Err(e) => {
                    broken.push(Broken { changed, error: e.render(color) });
                    continue;
                }
            }
        };
        if started.elapsed() > MOVES_BUDGET {
            continue;
        }
        moves_listed += 1;
        let mut pos = variant.start();
        if let Err(e) = variant.legal_moves(&mut pos, &mut Vec::new()) {
            broken.push(Broken { changed, error: format!("the start position's moves: {e}") });
        }
        let _ = variant.take_output();
    }
    Sweep { settings: all.len(), all_combinations: every, moves_listed, broken }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_cover_every_value() {
        let v = Variant::load("bivouac", &[]).unwrap();
        // slide 2 × capture_from_run 2 × captures 2 × army_min (3, 0, 11) × no_moves 2 = 48.
        let (all, every) = settings(&v.rules.options, &[], false);
        assert!(every);
        assert_eq!(all.len(), 48);
        assert_eq!(all[0], settings(&v.rules.options, &[], false).0[0]);
        assert!(all.iter().any(|s| s.contains(&("army_min".into(), "11".into())) && s.contains(&("slide".into(), "one_hop".into()))));
        // A fixed option keeps its value; move_limit stays put unless declared.
        let v = Variant::load("bivouac", &[("slide".into(), "one_hop".into())]).unwrap();
        let (all, _) = settings(&v.rules.options, &["slide".into()], false);
        assert_eq!(all.len(), 24);
        assert!(all.iter().all(|s| s.contains(&("slide".into(), "one_hop".into())) && s.contains(&("move_limit".into(), "0".into()))));
        // Past 64 combinations, one option at a time.
        let (all, every) = settings(&v.rules.options, &[], true);
        assert!(!every);
        assert_eq!(all.len(), 1 + 1 + 1 + 1 + 2 + 1 + 1);
    }
}
