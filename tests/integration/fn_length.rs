//! No function in `src/` is longer than [`LIMIT`] lines (the project's guide; issue 49), except
//! the flat tables listed in [`EXCEPTIONS`]. A function's length runs from the line of its `fn`
//! to the line of its closing brace, both counted; braces inside strings, characters and
//! comments do not count. This reads the source the way `fnlen.py` (the team's yardstick) does.

use std::path::Path;

/// The longest a function may be, in lines.
const LIMIT: usize = 80;

/// Functions allowed to be longer (path under `src/`, name), each with its reason.
const EXCEPTIONS: &[(&str, &str)] = &[
    // A flat registration table: one line per script function, nothing to split.
    ("script/api.rs", "register"),
];

/// A function found in a file: its name, the line of its `fn` (from 1) and its length.
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    line: usize,
    lines: usize,
}

/// The name of the function a line declares, if it starts with one: visibility, then any of
/// `const`, `async`, `unsafe`, `extern "abi"`, then `fn name`.
fn declared(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    if let Some(r) = rest.strip_prefix("pub") {
        let r = match r.strip_prefix('(') {
            Some(inner) => &inner[inner.find(')')? + 1..],
            None => r,
        };
        if !r.starts_with(char::is_whitespace) {
            return None;
        }
        rest = r.trim_start();
    }
    loop {
        let word_end = rest.find(|c: char| !c.is_alphanumeric() && c != '_').unwrap_or(rest.len());
        match &rest[..word_end] {
            "const" | "async" | "unsafe" if rest[word_end..].starts_with(char::is_whitespace) => rest = rest[word_end..].trim_start(),
            "extern" => {
                let abi = rest[word_end..].trim_start().strip_prefix('"')?;
                rest = abi[abi.find('"')? + 1..].trim_start();
            }
            "fn" if rest[word_end..].starts_with(char::is_whitespace) => {
                let name = rest[word_end..].trim_start();
                let end = name.find(|c: char| !c.is_alphanumeric() && c != '_').unwrap_or(name.len());
                return (end > 0).then(|| &name[..end]);
            }
            _ => return None,
        }
    }
}

/// What the reader is inside of at the end of a line.
#[derive(Clone, Copy, PartialEq)]
enum Inside {
    Code,
    /// A block comment, nested this deep.
    Comment(usize),
    /// A string; raw with this many `#`s, or not raw (`None`).
    Str(Option<usize>),
}

/// A line's code with strings, characters and comments removed (their braces do not count).
fn code_of(line: &str, inside: &mut Inside) -> String {
    let c: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        let at = |s: &str| s.chars().enumerate().all(|(k, x)| c.get(i + k) == Some(&x));
        match *inside {
            Inside::Comment(depth) => {
                if at("*/") {
                    *inside = if depth == 1 { Inside::Code } else { Inside::Comment(depth - 1) };
                    i += 2;
                } else if at("/*") {
                    *inside = Inside::Comment(depth + 1);
                    i += 2;
                } else {
                    i += 1;
                }
            }
            Inside::Str(None) => {
                match c[i] {
                    '\\' => i += 1,
                    '"' => *inside = Inside::Code,
                    _ => {}
                }
                i += 1;
            }
            Inside::Str(Some(hashes)) => {
                if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                    *inside = Inside::Code;
                    i += hashes;
                }
                i += 1;
            }
            Inside::Code => {
                if at("//") {
                    break;
                }
                if at("/*") {
                    *inside = Inside::Comment(1);
                    i += 2;
                    continue;
                }
                if c[i] == '"' {
                    *inside = Inside::Str(None);
                    i += 1;
                    continue;
                }
                // A raw string: r"…", r#"…"#, br"…" (not an identifier ending in r).
                let word_before = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
                if c[i] == 'r' && !(word_before && c[i - 1] != 'b') {
                    let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
                    if c.get(i + 1 + hashes) == Some(&'"') {
                        *inside = Inside::Str(Some(hashes));
                        i += hashes + 2;
                        continue;
                    }
                }
                // A character literal ('{', '\'', '\u{7b}'), not a lifetime ('a).
                if c[i] == '\'' {
                    let len = match (c.get(i + 1), c.get(i + 2)) {
                        (Some('\\'), _) => c.get(i + 3..).and_then(|r| r.iter().position(|&x| x == '\'')).map(|p| p + 4),
                        (Some(_), Some('\'')) => Some(3),
                        _ => None,
                    };
                    if let Some(len) = len {
                        i += len;
                        continue;
                    }
                }
                out.push(c[i]);
                i += 1;
            }
        }
    }
    out
}

/// Every function with a body in `text`, nested ones included.
fn functions(text: &str) -> Vec<Function> {
    let mut found = Vec::new();
    let mut inside = Inside::Code;
    // Open functions: name, line, the depth of braces outside it, whether its body is open.
    let mut open: Vec<(String, usize, usize, bool)> = Vec::new();
    let mut depth = 0usize;
    for (no, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l)) {
        if inside == Inside::Code
            && let Some(name) = declared(line)
        {
            open.push((name.to_string(), no, depth, false));
        }
        for ch in code_of(line, &mut inside).chars() {
            match ch {
                '{' => {
                    depth += 1;
                    if let Some(f) = open.last_mut()
                        && !f.3
                        && f.2 + 1 == depth
                    {
                        f.3 = true;
                    }
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if open.last().is_some_and(|f| f.3 && f.2 == depth) {
                        let (name, start, _, _) = open.pop().expect("an open function");
                        found.push(Function { name, line: start, lines: no - start + 1 });
                    }
                }
                // A declaration without a body (a trait's method, an extern function).
                ';' if open.last().is_some_and(|f| !f.3 && f.2 == depth) => {
                    open.pop();
                }
                _ => {}
            }
        }
    }
    found
}

/// Every `.rs` file under `dir`, as (path under `root`, text).
fn sources(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let name = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

#[test]
fn no_function_in_src_is_over_80_lines() {
    let src = crate::root().join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    assert!(files.len() > 50, "src/ read: {} files", files.len());
    let mut long = Vec::new();
    let mut excepted = Vec::new();
    for (path, text) in &files {
        for f in functions(text).into_iter().filter(|f| f.lines > LIMIT) {
            if EXCEPTIONS.contains(&(path.as_str(), f.name.as_str())) {
                excepted.push((path.clone(), f.name));
            } else {
                long.push(format!("src/{path}:{} `{}`: {} lines", f.line, f.name, f.lines));
            }
        }
    }
    assert!(long.is_empty(), "functions over {LIMIT} lines (split them into named steps):\n{}", long.join("\n"));
    // An exception that no longer applies goes, so that the list stays the truth.
    let stale: Vec<_> = EXCEPTIONS.iter().filter(|(p, n)| !excepted.iter().any(|(q, m)| q == p && m == n)).collect();
    assert!(stale.is_empty(), "no longer over {LIMIT} lines: remove them from EXCEPTIONS: {stale:?}");
}

#[test]
fn the_reader_counts_from_fn_to_its_closing_brace() {
    // 3 lines, 5 lines (a nested function of 1), braces in strings, characters and comments
    // ignored, a declaration without a body skipped, a lifetime not read as a character.
    let text = r##"pub(crate) fn a() {
    let s = "}{";
}
trait T {
    fn decl(&self);
}
const unsafe fn b<'x>(x: &'x str) -> char {
    fn inner() { let _ = '}'; }
    // } a comment
    /* } { */ let _ = r#"}"#;
    let _ = ('\'', '\u{7b}');
    '{'
}
extern "C" fn c() {}
"##;
    let got = functions(text);
    let want = [("a", 1, 3), ("inner", 8, 1), ("b", 7, 7), ("c", 14, 1)];
    let got: Vec<(&str, usize, usize)> = got.iter().map(|f| (f.name.as_str(), f.line, f.lines)).collect();
    assert_eq!(got, want);
    assert_eq!(declared("    pub async fn go()"), Some("go"));
    assert_eq!(declared("let fnord = 1;"), None);
    assert_eq!(declared("// fn not()"), None);
}
