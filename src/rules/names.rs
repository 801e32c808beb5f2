//! Looking up the names a variant file uses (piece kinds, zones, attributes, counters, options,
//! players): one resolver, so every miss is reported the same way, with "did you mean".

use super::error::did_you_mean;

/// The names of one kind of thing, in id order (index = id).
#[derive(Clone, Debug)]
pub(crate) struct Names<'a> {
    noun: &'static str,
    items: Vec<&'a str>,
}

impl<'a> Names<'a> {
    /// `noun` is what the names name, in words (`piece kind`, `zone`).
    pub(crate) fn new(noun: &'static str, items: impl IntoIterator<Item = &'a str>) -> Names<'a> {
        Names { noun, items: items.into_iter().collect() }
    }

    /// The id of a name.
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        self.items.iter().position(|n| *n == name)
    }

    /// `unknown piece kind `figur``.
    pub(crate) fn unknown(&self, name: &str) -> String {
        format!("unknown {} `{name}`", self.noun)
    }

    /// "did you mean `figure`?" for the closest name, if one is close.
    pub(crate) fn hint(&self, name: &str) -> Option<String> {
        did_you_mean(name, self.items.iter().copied())
    }

    /// The names, comma-separated.
    pub(crate) fn list(&self) -> String {
        self.items.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_and_hints() {
        let n = Names::new("piece kind", ["pawn", "figure"]);
        assert_eq!(n.index("figure"), Some(1));
        assert_eq!(n.index("figur"), None);
        assert_eq!(n.unknown("figur"), "unknown piece kind `figur`");
        assert_eq!(n.hint("figur").as_deref(), Some("did you mean `figure`?"));
        assert_eq!(n.list(), "pawn, figure");
    }
}
