//! The import graph of `src/`: each file a node, each path it names into another file of the
//! crate an edge (`use` trees, and `crate::`, `super::`, `self::` paths and names imported as
//! modules, also inside macros and attributes; test code left out). The modules are layered
//! ([`LAYERS`], bottom first) and the graph must keep to the layers:
//! - every file of the crate stands in a layer;
//! - crate code names items from the module that defines them, never through the crate root
//!   (`lib.rs`'s re-exports are for the binary, the tests and the benches);
//! - no circle between files;
//! - an edge from a lower layer to a higher one is one of [`BACK_EDGES`], each with its reason
//!   (at most 12), and each of those still exists.
//!
//! A folder's face (its `mod.rs`, or `x.rs` beside a folder `x/`) and its own files may name
//! each other (the face declares and re-exports them; they take its shared items): those edges
//! are neither circles nor layer crossings. Any other edge counts.
//!
//! The reading is lexical (comments, strings and `#[cfg(test)]` items removed), made for this
//! crate's style: a path through a name imported with a glob (`use x::*`) is not followed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first. An entry names a module (`rules`) or one file's module
/// (`serve::games`); a file takes the layer of the longest entry that is its module or an
/// ancestor of it. Names of modules not in the tree are allowed (work on other branches).
const LAYERS: &[&[&str]] = &[
    // Leaves: cache hints, files, interruption, progress.
    &["cache", "files", "interrupt", "progress"],
    // Vocabulary: cells and sets of them, players and pieces, results, game records, the
    // board text (the variant file's setup rows and the position line share it).
    &["geometry", "cellset", "piece", "outcome", "record", "board_text"],
    // The validated rules: data, and pure functions of them over views of a board.
    &["rules"],
    // Moves and their text.
    &["notation"],
    // The position: make/undo, the position line (`state::text`), pushes.
    &["state"],
    // What is decided once at load from the rules' constructs, for the kernel to read.
    &["plan"],
    // Legal moves; positions and moves in other notations (numbered squares, SAN, FEN, the
    // engine protocols' coordinates and SFEN).
    &["movegen", "numbered", "san", "protocol::coords", "protocol::sfen"],
    // The attack query (tables, then generated captures for the pieces they do not hold); what
    // asks it: castling, the FEN's standing result.
    &["attack"],
    &["movegen::castling", "fen"],
    &["explain"],
    &["script"],
    &["placewalk"],
    // A playable variant: rules, script, hooks.
    &["variant"],
    &["render", "diagram", "scenario", "autosave"],
    // Machine players.
    &["ai"],
    &["perft", "protocol", "selfplay", "records", "solve"],
    &["session", "arena", "sweep", "workflow", "diff", "check", "tune"],
    &["repl", "serve"],
    &["cli"],
];

/// The edges that run against the layers and stay, each with why (at most 12):
/// (from, to, reason), paths from the crate's root.
const BACK_EDGES: &[(&str, &str, &str)] = &[];

/// The most edges against the layers that may stay.
const MAX_BACK_EDGES: usize = 12;

#[test]
fn the_import_graph_keeps_to_the_layers() {
    let crate_ = Crate::read(&crate::root().join("src"));
    let mut problems = Vec::new();
    for (file, m) in &crate_.files {
        if layer_of(m).is_none() && !m.is_empty() {
            problems.push(format!("{} is in no layer: place `{}` in LAYERS", file.display(), m.join("::")));
        }
    }
    let edges = crate_.edges(&mut problems);
    problems.extend(circles(&edges));
    problems.extend(back_edges(&crate_, &edges));
    assert!(BACK_EDGES.len() <= MAX_BACK_EDGES, "{} edges against the layers are allowed, at most {MAX_BACK_EDGES}", BACK_EDGES.len());
    assert!(problems.is_empty(), "the import graph of src/ breaks its layers:\n{}", problems.join("\n"));
}

/// The layer of a module (`None`: no entry covers it).
fn layer_of(m: &[String]) -> Option<usize> {
    let key = m.join("::");
    let mut best: Option<(usize, usize)> = None;
    for (i, layer) in LAYERS.iter().enumerate() {
        for e in layer.iter() {
            let covers = key == *e || key.starts_with(&format!("{e}::"));
            if covers && best.is_none_or(|(len, _)| e.len() > len) {
                best = Some((e.len(), i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// A lexical token: an identifier (or keyword, or number), `::`, or another character.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Id(String),
    Sep,
    P(char),
}

/// The crate's files by module path, and each file's tokens (test items removed).
struct Crate {
    files: BTreeMap<PathBuf, Vec<String>>,
    modules: BTreeMap<Vec<String>, PathBuf>,
    tokens: BTreeMap<PathBuf, Vec<Tok>>,
    root: PathBuf,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut c = Crate { files: BTreeMap::new(), modules: BTreeMap::new(), tokens: BTreeMap::new(), root: src.parent().unwrap().into() };
        c.load(Vec::new(), src.join("lib.rs"));
        c
    }

    /// Reads a module's file and, in turn, the files of the modules it declares.
    fn load(&mut self, m: Vec<String>, path: PathBuf) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let toks = without_tests(tokens(&text));
        let dir = match path.file_name().and_then(|n| n.to_str()) {
            Some("mod.rs" | "lib.rs") => path.parent().unwrap().to_path_buf(),
            _ => path.with_extension(""),
        };
        let children: Vec<String> = toks
            .windows(3)
            .filter_map(|w| match w {
                [Tok::Id(k), Tok::Id(name), Tok::P(';')] if k == "mod" => Some(name.clone()),
                _ => None,
            })
            .collect();
        let rel = path.strip_prefix(&self.root).unwrap().to_path_buf();
        self.files.insert(rel.clone(), m.clone());
        self.modules.insert(m.clone(), rel.clone());
        self.tokens.insert(rel, toks);
        for name in children {
            let file = [dir.join(format!("{name}.rs")), dir.join(&name).join("mod.rs")].into_iter().find(|p| p.exists());
            let file = file.unwrap_or_else(|| panic!("{}: no file for `mod {name};`", path.display()));
            self.load([m.clone(), vec![name]].concat(), file);
        }
    }

    /// Every edge between two files (with the names that make it), and in `problems` every
    /// path through the crate root.
    fn edges(&self, problems: &mut Vec<String>) -> BTreeMap<(PathBuf, PathBuf), BTreeSet<String>> {
        let mut out: BTreeMap<(PathBuf, PathBuf), BTreeSet<String>> = BTreeMap::new();
        for (file, m) in &self.files {
            if m.is_empty() {
                continue; // lib.rs: the table of contents
            }
            for path in paths(&self.tokens[file], |name| self.modules.contains_key(&[m.clone(), vec![name.into()]].concat())) {
                let Some((target, named)) = self.resolve(m, &path) else { continue };
                if target.is_empty() {
                    problems.push(format!(
                        "{} names `{}` through the crate root: name its defining module",
                        file.display(),
                        path.join("::")
                    ));
                    continue;
                }
                let to = &self.modules[&target];
                if to != file && !face_and_own(m, &target) {
                    out.entry((file.clone(), to.clone())).or_default().insert(named);
                }
            }
        }
        out
    }

    /// The deepest module a path reaches from module `m`, and the name it takes there.
    fn resolve(&self, m: &[String], path: &[String]) -> Option<(Vec<String>, String)> {
        let (mut at, mut rest) = match path.first()?.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (m.to_vec(), &path[1..]),
            "super" => (m[..m.len().saturating_sub(1)].to_vec(), &path[1..]),
            _ => (m.to_vec(), path),
        };
        while rest.first().is_some_and(|s| s == "super") {
            at.pop();
            rest = &rest[1..];
        }
        let start = at.len();
        while let Some(s) = rest.first() {
            let next = [at.clone(), vec![s.clone()]].concat();
            if !self.modules.contains_key(&next) {
                break;
            }
            at = next;
            rest = &rest[1..];
        }
        if path[0] != "crate" && path[0] != "self" && path[0] != "super" && at.len() == start {
            return None; // not a path into the crate
        }
        // The name taken there, or the module itself (`use crate::rules;`).
        let named = rest.first().or(path.last()).cloned().unwrap_or_default();
        Some((at, named))
    }
}

/// Whether one module is the face of the other's folder: its parent (`mod.rs`).
fn face_and_own(a: &[String], b: &[String]) -> bool {
    let parent = |x: &[String], y: &[String]| x.len() + 1 == y.len() && y.starts_with(x);
    parent(a, b) || parent(b, a)
}

/// The paths a file's tokens name that may lead into the crate: `use` trees (each leaf a
/// path), and `crate::`, `super::`, `self::` paths and paths from a name a `use` imported as
/// a module or a child module (`is_child`).
fn paths(toks: &[Tok], is_child: impl Fn(&str) -> bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == Tok::Id("use".into()) {
            let end = (i..toks.len()).find(|&j| toks[j] == Tok::P(';')).unwrap_or(toks.len());
            for (leaf, alias) in use_tree(&toks[i + 1..end]) {
                aliases.insert(alias, leaf.clone());
                out.push(leaf);
            }
            i = end;
            continue;
        }
        let after_sep = i > 0 && toks[i - 1] == Tok::Sep;
        if let Tok::Id(head) = &toks[i]
            && !after_sep
            && toks.get(i + 1) == Some(&Tok::Sep)
        {
            let mut path = match head.as_str() {
                "crate" | "super" | "self" => vec![head.clone()],
                h if aliases.contains_key(h) => aliases[h].clone(),
                h if is_child(h) => vec!["self".into(), h.into()],
                _ => Vec::new(),
            };
            let mut j = i + 1;
            while toks.get(j) == Some(&Tok::Sep) {
                match toks.get(j + 1) {
                    Some(Tok::Id(s)) => path.push(s.clone()),
                    _ => break,
                }
                j += 2;
            }
            if !path.is_empty() {
                out.push(path);
            }
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

/// The leaves of a `use` tree (without `use` and `;`), each with the name it binds.
fn use_tree(toks: &[Tok]) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    tree(toks, &mut 0, Vec::new(), &mut out);
    out
}

fn tree(toks: &[Tok], i: &mut usize, mut prefix: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    loop {
        match toks.get(*i) {
            Some(Tok::Id(s)) if s == "as" => {
                let alias = match toks.get(*i + 1) {
                    Some(Tok::Id(a)) => a.clone(),
                    _ => String::new(),
                };
                out.push((prefix, alias));
                *i += 2;
                return;
            }
            Some(Tok::Id(s)) => {
                prefix.push(s.clone());
                *i += 1;
            }
            Some(Tok::Sep) => *i += 1,
            Some(Tok::P('{')) => {
                *i += 1;
                while !matches!(toks.get(*i), Some(Tok::P('}')) | None) {
                    tree(toks, i, prefix.clone(), out);
                    if toks.get(*i) == Some(&Tok::P(',')) {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            _ => break, // `,`, `}`, `*` or the end
        }
    }
    if toks.get(*i) == Some(&Tok::P('*')) {
        *i += 1;
    }
    if prefix.last().is_some_and(|s| s == "self") {
        prefix.pop(); // `use a::{self}` binds `a`
    }
    if let Some(name) = prefix.last().cloned() {
        out.push((prefix, name));
    }
}

/// The files in circles (strongly connected groups of two or more), with the edges between
/// them.
fn circles(edges: &BTreeMap<(PathBuf, PathBuf), BTreeSet<String>>) -> Vec<String> {
    let mut next: BTreeMap<&PathBuf, Vec<&PathBuf>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
    }
    let reach = |from: &PathBuf| {
        let mut seen = BTreeSet::from([from.clone()]);
        let mut todo = vec![from];
        while let Some(x) = todo.pop() {
            for &y in next.get(x).into_iter().flatten() {
                if seen.insert(y.clone()) {
                    todo.push(y);
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&PathBuf, BTreeSet<PathBuf>> = next.keys().map(|&a| (a, reach(a))).collect();
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for (&a, ra) in &reaches {
        let group: BTreeSet<&PathBuf> =
            ra.iter().filter_map(|b| reaches.get_key_value(b)).filter(|(_, rb)| rb.contains(a)).map(|(b, _)| *b).collect();
        if group.len() < 2 || !done.insert(group.clone()) {
            continue;
        }
        let ties: Vec<String> = edges
            .iter()
            .filter(|((x, y), _)| group.contains(x) && group.contains(y))
            .map(|((x, y), names)| {
                format!("    {} -> {}: {}", x.display(), y.display(), names.iter().cloned().collect::<Vec<_>>().join(", "))
            })
            .collect();
        out.push(format!("a circle of {} files:\n{}", group.len(), ties.join("\n")));
    }
    out
}

/// The edges against the layers that are not allowed, and the allowed ones that are gone.
fn back_edges(c: &Crate, edges: &BTreeMap<(PathBuf, PathBuf), BTreeSet<String>>) -> Vec<String> {
    let mut out = Vec::new();
    let allowed: BTreeSet<(PathBuf, PathBuf)> = BACK_EDGES.iter().map(|(a, b, _)| (PathBuf::from(a), PathBuf::from(b))).collect();
    let mut found = BTreeSet::new();
    for ((a, b), names) in edges {
        let (la, lb) = (layer_of(&c.files[a]), layer_of(&c.files[b]));
        if la.zip(lb).is_some_and(|(la, lb)| la < lb) {
            found.insert((a.clone(), b.clone()));
            if !allowed.contains(&(a.clone(), b.clone())) {
                let names = names.iter().cloned().collect::<Vec<_>>().join(", ");
                out.push(format!(
                    "{} -> {} runs up the layers ({names}): turn it round, or list it in BACK_EDGES with why",
                    a.display(),
                    b.display()
                ));
            }
        }
    }
    for (a, b) in allowed.difference(&found) {
        out.push(format!("BACK_EDGES lists {} -> {}, which no longer runs up the layers: take it out", a.display(), b.display()));
    }
    out
}

/// The tokens of Rust source: comments, string and character literals and lifetimes left out.
fn tokens(text: &str) -> Vec<Tok> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let rest = |k: usize| s.get(i + k).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && rest(1) == Some('/') {
            i = (i..s.len()).find(|&j| s[j] == '\n').unwrap_or(s.len());
        } else if c == '/' && rest(1) == Some('*') {
            i = block_comment_end(&s, i);
        } else if string_starts(&s[i..]) {
            i = string_end(&s, i);
        } else if c == '\'' {
            i = quote_end(&s, i);
        } else if c.is_alphanumeric() || c == '_' {
            let j = (i..s.len()).find(|&j| !(s[j].is_alphanumeric() || s[j] == '_')).unwrap_or(s.len());
            out.push(Tok::Id(s[i..j].iter().collect()));
            i = j;
        } else if c == ':' && rest(1) == Some(':') {
            out.push(Tok::Sep);
            i += 2;
        } else {
            out.push(Tok::P(c));
            i += 1;
        }
    }
    out
}

/// Past a (nested) block comment that starts at `i`.
fn block_comment_end(s: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < s.len() {
        if s[i] == '/' && s.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Whether a string literal starts here: `"`, `b"`, `r"`, `r#"`, `br"`, `br#"`.
fn string_starts(s: &[char]) -> bool {
    let s = if s.first() == Some(&'b') { &s[1..] } else { s };
    let s = if s.first() == Some(&'r') { &s[1 + s[1..].iter().take_while(|&&c| c == '#').count()..] } else { s };
    s.first() == Some(&'"')
}

/// Past a string literal (`"…"`, `b"…"`, `r#"…"#`, `br"…"`) that starts at `i`.
fn string_end(s: &[char], mut i: usize) -> usize {
    if s[i] == 'b' {
        i += 1;
    }
    if s[i] == 'r' {
        let hashes = (i + 1..s.len()).take_while(|&j| s[j] == '#').count();
        let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
        let body = i + 2 + hashes;
        return (body..s.len()).find(|&j| s[j..].starts_with(&close)).map_or(s.len(), |j| j + close.len());
    }
    i += 1;
    while i < s.len() && s[i] != '"' {
        i += if s[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

/// Past a character literal or a lifetime that starts at `i`.
fn quote_end(s: &[char], i: usize) -> usize {
    if s.get(i + 1) == Some(&'\\') {
        return (i + 2..s.len()).find(|&j| s[j] == '\'').map_or(s.len(), |j| j + 1);
    }
    if s.get(i + 2) == Some(&'\'') {
        return i + 3; // 'x'
    }
    i + 1 // a lifetime: its name is read as an identifier, which names nothing
}

/// The tokens without the items marked `#[cfg(test)]` (a test module, a test helper).
fn without_tests(toks: Vec<Tok>) -> Vec<Tok> {
    let mark: Vec<Tok> =
        ["#", "[", "cfg", "(", "test", ")", "]"]
            .iter()
            .map(|t| {
                if t.len() == 1 && !t.chars().all(char::is_alphanumeric) {
                    Tok::P(t.chars().next().unwrap())
                } else {
                    Tok::Id(t.to_string())
                }
            })
            .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i..].starts_with(&mark) {
            i = item_end(&toks, i + mark.len());
        } else {
            out.push(toks[i].clone());
            i += 1;
        }
    }
    out
}

/// Past the item that starts at `i`: its `;` or its closing brace, at depth 0.
fn item_end(toks: &[Tok], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < toks.len() {
        match toks[i] {
            Tok::P('{') => depth += 1,
            Tok::P('}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            Tok::P(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

#[test]
fn the_reader_finds_paths_in_use_trees_and_code() {
    let toks =
        tokens("use crate::a::{b::{self, C}, d as e};\n// crate::x::y\nfn f() { let s = \"crate::q::r\"; e::g(); b::h(); crate::k::l(); }");
    let got = paths(&toks, |_| false);
    let want: Vec<Vec<&str>> = vec![
        vec!["crate", "a", "b"],
        vec!["crate", "a", "b", "C"],
        vec!["crate", "a", "d"],
        vec!["crate", "a", "d", "g"],
        vec!["crate", "a", "b", "h"],
        vec!["crate", "k", "l"],
    ];
    assert_eq!(got, want.iter().map(|p| p.iter().map(|s| s.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>());
    // Literals and lifetimes hide nothing and reveal nothing.
    let toks =
        tokens("fn g<'a>(x: &'a str) { let q = '\"'; let r = r#\"crate::r::s\"#; let b = b\"crate::t\"; let e = '\\''; crate::u::v(q); }");
    assert_eq!(paths(&toks, |_| false), vec![vec!["crate".to_string(), "u".into(), "v".into()]]);
    let kept = without_tests(tokens("fn a() {}\n#[cfg(test)]\nmod tests { use crate::z; }\n#[cfg(test)]\nmod more;\nfn b() {}"));
    assert!(!kept.contains(&Tok::Id("z".into())) && !kept.contains(&Tok::Id("more".into())) && kept.contains(&Tok::Id("b".into())));
}
