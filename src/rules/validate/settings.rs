//! Options and settings: the declared options with their defaults and the values in force, a
//! setting that is written directly or taken from an option, and `when` conditions.

use super::{R, V};
use crate::rules::error::{LoadError, did_you_mean};
use crate::rules::names::Names;
use crate::rules::options::{MOVE_LIMIT_MAX, OptionDecl, OptionType, OptionValue, Options, move_limit_decl};
use crate::rules::raw::{Setting, TextOrBool, TextOrInt};
use std::collections::BTreeMap;
use toml::Spanned;

fn toml_to_option_value(v: &toml::Value) -> Option<OptionValue> {
    match v {
        toml::Value::String(s) => Some(OptionValue::Text(s.clone())),
        toml::Value::Integer(i) => Some(OptionValue::Int(*i)),
        toml::Value::Boolean(b) => Some(OptionValue::Bool(*b)),
        _ => None,
    }
}

pub(super) fn stage_options(v: &V, overrides: &[(String, String)]) -> R<Options> {
    let mut decls = Vec::new();
    for (name, mo) in &v.m.options {
        let f = mo.decl.file;
        let raw = &mo.decl.val;
        let declared_in = v.m.chain.get(v.m.chain.len() - 1 - f.min(v.m.chain.len() - 1)).cloned().unwrap_or_default();
        let ty = match (&raw.values, &raw.min, &raw.max) {
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
            (None, Some(min), Some(max)) => int_option(v, f, name, min, max, &raw.also)?,
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
            let known = Names::new("option", decls.iter().map(|d| d.name.as_str()));
            let name_q = crate::files::quote(name);
            let e = LoadError::plain(format!("unknown option `{name_q}` for {}; its options are: {}", v.m.name, known.list()));
            return Err(match known.hint(name) {
                Some(h) => e.with_help(h),
                None => e,
            });
        };
        let val = d.ty.parse(text).map_err(|e| LoadError::plain(format!("option `{name}`: {e}")))?;
        values.insert(name.clone(), val);
    }
    Ok(Options { decls, values })
}

/// An integer option's range; `move_limit` (a number of plies) stays within the built-in one.
fn int_option(v: &V, f: usize, name: &str, min: &Spanned<i64>, max: &Spanned<i64>, also: &[Spanned<i64>]) -> R<OptionType> {
    let (lo, hi) = (*min.get_ref(), *max.get_ref());
    if lo > hi {
        return Err(v.err(f, max.span(), format!("option `{name}`: max {hi} is below min {lo}"), "max"));
    }
    if name == "move_limit" {
        for x in std::iter::once(min).chain(std::iter::once(max)).chain(also) {
            if !(0..=MOVE_LIMIT_MAX).contains(x.get_ref()) {
                let msg = format!("option `move_limit`: {} is out of range", x.get_ref());
                return Err(v
                    .err(f, x.span(), msg, "out of range")
                    .with_help(format!("move_limit counts plies, from 0 to {MOVE_LIMIT_MAX}")));
            }
        }
    }
    Ok(OptionType::Int { min: lo, max: hi, also: also.iter().map(|a| *a.get_ref()).collect() })
}

/// Turns an option value into a setting's type.
pub(crate) trait FromOption: Sized + Clone {
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

impl FromOption for TextOrBool {
    fn from_option(v: &OptionValue) -> Option<TextOrBool> {
        match v {
            OptionValue::Bool(b) => Some(TextOrBool::Bool(*b)),
            OptionValue::Text(s) => Some(TextOrBool::Text(s.clone())),
            OptionValue::Int(_) => None,
        }
    }
    fn describe() -> &'static str {
        "true, false or a word"
    }
}

impl V<'_> {
    /// Resolves a setting under the options in force.
    pub(crate) fn setting<T: FromOption>(&self, file: usize, s: &Spanned<Setting<T>>) -> R<T> {
        match s.get_ref() {
            Setting::Value(x) => Ok(x.clone()),
            Setting::Option(r) => {
                let Some(val) = self.opts.get(&r.option) else {
                    let known = Names::new("option", self.opts.decls.iter().map(|d| d.name.as_str()));
                    return Err(self.lookup(file, s.span(), &known, &r.option, "", "refers to it").unwrap_err());
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
    pub(crate) fn word(&self, file: usize, s: &Spanned<Setting<String>>, allowed: &[&str]) -> R<String> {
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
    pub(crate) fn when(&self, file: usize, w: &Option<Spanned<String>>) -> R<bool> {
        let Some(w) = w else { return Ok(true) };
        eval_when(&self.opts, w.get_ref()).map_err(|e| self.err(file, w.span(), e.to_string(), "in this condition"))
    }
}

/// Why a `when` condition cannot be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum WhenError {
    #[error("`{0}` is not a condition; write `option == value` or `option != value`")]
    NotACondition(String),
    #[error("unknown option `{}`", crate::files::quote(.0))]
    UnknownOption(String),
    #[error(transparent)]
    Value(#[from] crate::rules::ValueError),
}

/// Evaluates an option condition such as `captures == compulsory_maximal && army_min != 3`.
///
/// # Errors
/// Unknown options, values the option cannot take, or text that is not a condition.
pub(crate) fn eval_when(opts: &Options, text: &str) -> Result<bool, WhenError> {
    let mut all = true;
    for part in text.split("&&") {
        let (name, value, eq) = if let Some((a, b)) = part.split_once("!=") {
            (a.trim(), b.trim(), false)
        } else if let Some((a, b)) = part.split_once("==") {
            (a.trim(), b.trim(), true)
        } else {
            return Err(WhenError::NotACondition(part.trim().to_string()));
        };
        let d = opts.decl(name).ok_or_else(|| WhenError::UnknownOption(name.to_string()))?;
        let val = d.ty.parse(value.trim_matches('"'))?;
        let cur = opts.get(name).expect("declared options have values");
        all &= (cur == &val) == eq;
    }
    Ok(all)
}

/// The `move_limit` option in force (0: none).
pub(super) fn move_limit(opts: &Options) -> u32 {
    match opts.get("move_limit") {
        // Within 0..=MOVE_LIMIT_MAX: the option's declaration is checked (`int_option`).
        Some(OptionValue::Int(i)) => u32::try_from(*i).unwrap_or(u32::MAX),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn when_conditions() {
        let v = crate::variant::Variant::load("bivouac", &[("slide".into(), "one_hop".into())]).unwrap();
        let o = &v.rules.options;
        assert_eq!(eval_when(o, "slide == one_hop"), Ok(true));
        assert_eq!(eval_when(o, "slide != one_hop"), Ok(false));
        assert_eq!(eval_when(o, "slide == one_hop && army_min == 3"), Ok(true));
        assert!(eval_when(o, "slide = one_hop").is_err());
        assert!(eval_when(o, "nope == 1").unwrap_err().to_string().contains("unknown option"));
        assert!(eval_when(o, "slide == sideways").is_err());
    }
}
