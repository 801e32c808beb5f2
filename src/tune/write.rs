//! `[ai.eval]` as text: the snippet `tune` prints, and the same numbers written into a variant
//! file with everything else in it kept as it was (comments, order, spacing), through
//! `toml_edit`. An entry already there keeps its place and its comment, and only its number
//! changes; a new one is added to its table; a missing `[ai.eval]` section is added at the end.

use toml_edit::{DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// The `[ai.eval]` numbers to write: values and points by kind name, weights by term name, and `[ai] nodes`
/// where the file must restate its base's (a file's `[ai]` replaces its base's whole).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Entries {
    pub(crate) values: Vec<(String, i64)>,
    pub(crate) weights: Vec<(String, f64)>,
    /// The attributes term's points by kind name.
    pub(crate) points: Vec<(String, Vec<i64>)>,
    pub(crate) nodes: Option<i64>,
}

/// A weight as TOML writes it: whole numbers as integers (`mobility = 0`), others with their
/// thousandths (`0.425`).
fn weight_value(w: f64) -> Value {
    if w.fract() == 0.0 && w.abs() < 1e15 { Value::from(w as i64) } else { Value::from(w) }
}

/// The entries as a section to paste into a variant file.
pub(crate) fn snippet(e: &Entries) -> String {
    let mut doc = DocumentMut::new();
    // (An empty document gains the section through the same edit as a file.)
    set_all(doc.as_table_mut(), false, e).expect("a new document takes the section");
    doc.to_string().trim_start().to_string()
}

/// `text` (a variant file) with the entries set in its `[ai.eval]`.
///
/// # Errors
/// The text is not TOML, or `ai`, `ai.eval`, `values` or `weights` is there but not a table.
pub(crate) fn edit(text: &str, e: &Entries) -> Result<String, String> {
    let mut doc: DocumentMut = text.parse().map_err(|err: toml_edit::TomlError| format!("not TOML: {}", err.message()))?;
    set_all(doc.as_table_mut(), false, e)?;
    Ok(doc.to_string())
}

/// Sets the entries under `root` (the document's top level).
fn set_all(root: &mut dyn TableLike, inline: bool, e: &Entries) -> Result<(), String> {
    let (ai, ai_inline) = child(root, inline, "ai", Shape::Implicit)?;
    if let Some(n) = e.nodes {
        set(ai, ai_inline, "nodes", Value::from(n));
    }
    let (eval, eval_inline) = child(ai, ai_inline, "eval", Shape::Section)?;
    if !e.values.is_empty() {
        let (values, inline) = child(eval, eval_inline, "values", Shape::Inline)?;
        for (k, v) in &e.values {
            set(values, inline, k, Value::from(*v));
        }
    }
    if !e.weights.is_empty() {
        let (weights, inline) = child(eval, eval_inline, "weights", Shape::Inline)?;
        for (k, w) in &e.weights {
            set(weights, inline, k, weight_value(*w));
        }
    }
    if !e.points.is_empty() {
        let (points, inline) = child(eval, eval_inline, "attributes", Shape::Inline)?;
        for (k, list) in &e.points {
            set(points, inline, k, Value::Array(list.iter().map(|&x| Value::from(x)).collect()));
        }
    }
    Ok(())
}

/// How a missing table is added.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// A table with no header of its own (`[ai]` when only `[ai.eval]` is written).
    Implicit,
    /// A `[section]`, after a blank line.
    Section,
    /// An inline table (`values = { … }`).
    Inline,
}

/// The table `key` of `parent` (created as `shape` says when missing), and whether it is inline.
fn child<'a>(parent: &'a mut dyn TableLike, parent_inline: bool, key: &str, shape: Shape) -> Result<(&'a mut dyn TableLike, bool), String> {
    if !parent.contains_key(key) {
        let item = if parent_inline || shape == Shape::Inline {
            Item::Value(Value::InlineTable(InlineTable::new()))
        } else {
            let mut t = Table::new();
            t.set_implicit(shape == Shape::Implicit);
            t.decor_mut().set_prefix("\n");
            Item::Table(t)
        };
        parent.insert(key, item);
    }
    let item = parent.get_mut(key).expect("just made");
    let inline = item.is_inline_table();
    match item.as_table_like_mut() {
        Some(t) => Ok((t, inline)),
        None => Err(format!("`{key}` is there but is not a table")),
    }
}

/// Sets `key` to `v`, keeping the comment and spacing around a value already there on its own
/// line (`inline`: in an inline table, which holds no comment, the spacing is made anew).
fn set(t: &mut dyn TableLike, inline: bool, key: &str, mut v: Value) {
    match t.get_mut(key).and_then(Item::as_value_mut) {
        Some(old) if inline => *old = v,
        Some(old) => {
            *v.decor_mut() = old.decor().clone();
            *old = v;
        }
        None => {
            t.insert(key, Item::Value(v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries() -> Entries {
        Entries {
            values: vec![("stack".into(), 143)],
            weights: vec![("mobility".into(), 0.425), ("material".into(), 1.0)],
            points: vec![],
            nodes: None,
        }
    }

    #[test]
    fn points_are_written_as_a_list_per_kind() {
        let e = Entries { points: vec![("stack".into(), vec![10, 0, -5])], ..entries() };
        let text = "[ai.eval]\nattributes = { stack = [1], other = [2] } # fitted\n";
        assert_eq!(
            edit(text, &e).unwrap(),
            "[ai.eval]\nattributes = { stack = [10, 0, -5], other = [2] } # fitted\nvalues = { stack = 143 }\nweights = { mobility = 0.425, material = 1 }\n"
        );
    }

    #[test]
    fn a_file_without_the_section_gains_it_at_the_end() {
        let text = "# My game.\nname = \"x\" # its name\n\n[board]\nfiles = 8 # wide\nranks = 8\n";
        let out = edit(text, &entries()).unwrap();
        assert!(out.starts_with(text), "{out}");
        assert_eq!(&out[text.len()..], "\n[ai.eval]\nvalues = { stack = 143 }\nweights = { mobility = 0.425, material = 1 }\n");
        assert_eq!(snippet(&entries()), "[ai.eval]\nvalues = { stack = 143 }\nweights = { mobility = 0.425, material = 1 }\n");
    }

    #[test]
    fn numbers_change_in_place_and_comments_stay() {
        let text = "[ai]\nnodes = 5000 # fast\n\n# Tuned by hand.\n[ai.eval]\nvalues = { stack = 100, king = 0 } # kings are results\nweights = { mobility = 2 }\n\n[setup]\nrows = \"8\"\n";
        let out = edit(text, &entries()).unwrap();
        assert_eq!(
            out,
            "[ai]\nnodes = 5000 # fast\n\n# Tuned by hand.\n[ai.eval]\nvalues = { stack = 143, king = 0 } # kings are results\nweights = { mobility = 0.425, material = 1 }\n\n[setup]\nrows = \"8\"\n"
        );
        // Sub-tables and dotted keys are tables too.
        let text = "[ai.eval.weights]\nmobility = 3 # three\n";
        assert_eq!(
            edit(text, &entries()).unwrap(),
            "[ai.eval]\nvalues = { stack = 143 }\n[ai.eval.weights]\nmobility = 0.425 # three\nmaterial = 1\n"
        );
        let text = "[ai]\neval.weights.mobility = 3\n";
        let out = edit(text, &entries()).unwrap();
        assert!(out.contains("eval.weights.mobility = 0.425") && out.contains("stack = 143"), "{out}");
        let text = "ai = { nodes = 7 }\n";
        assert_eq!(
            edit(text, &entries()).unwrap(),
            "ai = { nodes = 7 , eval = { values = { stack = 143 }, weights = { mobility = 0.425, material = 1 } } }\n"
        );
    }

    #[test]
    fn what_is_not_a_table_is_refused() {
        assert!(edit("ai = 3\n", &entries()).unwrap_err().contains("`ai` is there but is not a table"));
        assert!(edit("[ai]\neval = \"x\"\n", &entries()).is_err());
        assert!(edit("[ai\n", &entries()).unwrap_err().starts_with("not TOML"));
        // Nodes restated from a base.
        let e = Entries { nodes: Some(300000), ..entries() };
        assert!(edit("name = \"x\"\n", &e).unwrap().contains("[ai]\nnodes = 300000\n"));
    }
}
