//! Options: a variant's named ambiguities, with types, defaults and allowed values.
//!
//! Options are resolved before validation, so every setting bound to an option is a plain value
//! in the [`Ruleset`](super::Ruleset): move generation never looks an option up.

use std::collections::BTreeMap;
use std::fmt;

/// A value an option takes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum OptionValue {
    Text(String),
    Int(i64),
    Bool(bool),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Text(s) => write!(f, "{s}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// What values an option accepts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum OptionType {
    /// One of these words.
    Choice(Vec<String>),
    Bool,
    /// An integer in `min..=max`, or one of `also`.
    Int {
        min: i64,
        max: i64,
        also: Vec<i64>,
    },
}

impl OptionType {
    /// The allowed values in words, for help and errors.
    pub(crate) fn describe(&self) -> String {
        match self {
            OptionType::Choice(v) => v.join(", "),
            OptionType::Bool => "true, false".into(),
            OptionType::Int { min, max, also } => {
                let mut s = format!("an integer from {min} to {max}");
                for a in also {
                    s.push_str(&format!(" or {a}"));
                }
                s
            }
        }
    }

    /// Reads a value from text as `--set` and `set` give it.
    ///
    /// # Errors
    /// The value is not one this type accepts; the message lists what is.
    pub(crate) fn parse(&self, text: &str) -> Result<OptionValue, ValueError> {
        let t = text.trim();
        let value = match self {
            OptionType::Choice(c) if !c.iter().any(|x| x == t) => {
                return Err(ValueError::NotAllowed { value: t.to_string(), expected: format!("one of: {}", self.describe()) });
            }
            OptionType::Choice(_) => OptionValue::Text(t.to_string()),
            OptionType::Bool => match t {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                _ => return Err(ValueError::NotAllowed { value: t.to_string(), expected: "true or false".into() }),
            },
            OptionType::Int { .. } => {
                OptionValue::Int(t.parse().map_err(|_| ValueError::NotAnInteger { value: t.to_string(), expected: self.describe() })?)
            }
        };
        self.check(&value)?;
        Ok(value)
    }

    /// Checks that a value fits this type.
    ///
    /// # Errors
    /// The value does not fit; the error lists what is accepted.
    pub(crate) fn check(&self, v: &OptionValue) -> Result<(), ValueError> {
        let ok = match (self, v) {
            (OptionType::Choice(c), OptionValue::Text(t)) => c.contains(t),
            (OptionType::Bool, OptionValue::Bool(_)) => true,
            (OptionType::Int { min, max, also }, OptionValue::Int(i)) => (min..=max).contains(&i) || also.contains(i),
            _ => false,
        };
        if ok { Ok(()) } else { Err(ValueError::NotAllowed { value: v.to_string(), expected: self.describe() }) }
    }
}

/// A value an option does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ValueError {
    #[error("`{}` is not allowed; expected {expected}", crate::files::quote(value))]
    NotAllowed { value: String, expected: String },
    #[error("`{}` is not an integer; expected {expected}", crate::files::quote(value))]
    NotAnInteger { value: String, expected: String },
}

/// One declared option.
#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: String,
    pub(crate) description: String,
    pub(crate) ty: OptionType,
    pub(crate) default: OptionValue,
    /// The variant that declared it (differs from the loaded one when inherited).
    pub(crate) declared_in: String,
}

/// The declared options and the values in force.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub decls: Vec<OptionDecl>,
    pub(crate) values: BTreeMap<String, OptionValue>,
}

impl Options {
    pub(crate) fn get(&self, name: &str) -> Option<&OptionValue> {
        self.values.get(name)
    }

    pub(crate) fn decl(&self, name: &str) -> Option<&OptionDecl> {
        self.decls.iter().find(|d| d.name == name)
    }
}

/// The largest `move_limit` (a number of plies).
pub(crate) const MOVE_LIMIT_MAX: i64 = 1_000_000_000;

/// The option every game has: a draw after this many plies (0 = off).
pub(crate) fn move_limit_decl(declared_in: &str) -> OptionDecl {
    OptionDecl {
        name: "move_limit".into(),
        description: "the position after this many plies is a draw (0 = off)".into(),
        ty: OptionType::Int { min: 0, max: MOVE_LIMIT_MAX, also: vec![] },
        default: OptionValue::Int(0),
        declared_in: declared_in.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_values() {
        let c = OptionType::Choice(vec!["any".into(), "maximum".into()]);
        assert_eq!(c.parse("maximum").unwrap(), OptionValue::Text("maximum".into()));
        assert!(c.parse("max").unwrap_err().to_string().contains("any, maximum"));
        let i = OptionType::Int { min: 2, max: 10, also: vec![0] };
        assert_eq!(i.parse("0").unwrap(), OptionValue::Int(0));
        assert!(i.parse("1").is_err());
        assert!(i.parse("x").is_err());
        assert!(OptionType::Bool.parse("true").is_ok());
    }
}
