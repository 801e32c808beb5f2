//! Reading a script without running it, for `boardlab check`: calls that can only fail, and
//! names written as text that the variant does not have.
//!
//! Errors (the script would fail when it gets there):
//! - a call to a function defined nowhere: not in the script, not by the boardlab API
//!   ([`super::api`]), not by Rhai (its packages and keywords); or with a number of arguments no
//!   definition takes; `Fn("name")` of such a function;
//! - a text passed where the API expects a cell, zone, player, kind, attribute, counter,
//!   option or direction that the variant does not have (`place(c, "pawnn", me)`);
//! - a read of a variable the function cannot see: a closure reading its maker's variable (no
//!   capture under `no_closure`), a function reading the top level (never run), a name defined
//!   nowhere in the function.
//!
//! Warnings (legal, but never true): a text compared with `kind(…)`, `owner(…)`, `side()` or
//! `opponent(…)` that no piece kind or player has (`kind(c) == "pawnn"`).
//!
//! Each finding names the line, the column and the function it is in (a hook, a helper, a
//! closure in one, or the top level). A script function with the name and arity of an API
//! function replaces it, so its calls are not checked as the API's.

use super::api::{self, NameParam};
use crate::rules::names::Names;
use crate::rules::{Hook, Ruleset, SourceFile};
use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};
use rhai::{AST, ASTNode, Engine, Expr, FnCallExpr, FnPtr, Stmt};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How bad a finding is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Severity {
    /// The script fails when it gets there.
    Error,
    /// Legal, but most likely not what was meant.
    Warning,
}

/// One thing found in a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) severity: Severity,
    /// 1-based line and column of what is marked, and its length in bytes.
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) len: usize,
    /// Where it is: ``hook `after_move` ``, ``fn `helper` ``, `a closure in …`, `the top level`.
    pub(crate) function: String,
    pub(crate) message: String,
    /// The label under the marked text.
    pub(crate) label: String,
    pub(crate) help: Option<String>,
}

/// Calls Rhai handles itself rather than through a registered function (any arity).
const KEYWORDS: &[&str] = &["print", "debug", "type_of", "eval", "Fn", "call", "curry", "is_shared", "is_def_var", "is_def_fn", "this"];

/// What the script is checked against.
struct Known<'a> {
    rules: &'a Ruleset,
    /// The script's lines, to find a text in a constant array (which has one position).
    lines: Vec<&'a str>,
    /// Every function a call can reach, by name: the arities it takes.
    functions: BTreeMap<String, BTreeSet<usize>>,
    /// The script's own functions (name, arity): they replace API functions of that shape.
    script: BTreeSet<(String, usize)>,
    /// Map keys and property names in the script: `obj.method()` may call a function a map
    /// holds under that name.
    properties: BTreeSet<String>,
}

impl Known<'_> {
    /// Where `"text"` is written at or after `pos` on its line (`pos` itself if not found).
    fn find(&self, pos: rhai::Position, text: &str) -> rhai::Position {
        let (Some(line), Some(col)) = (pos.line(), pos.position()) else { return pos };
        let Some(l) = self.lines.get(line - 1) else { return pos };
        let from = l.char_indices().nth(col - 1).map_or(l.len(), |(i, _)| i);
        match l[from..].find(&format!("\"{text}\"")) {
            Some(i) => rhai::Position::new(line as u16, (l[..from + i].chars().count() + 1) as u16),
            None => pos,
        }
    }
}

/// Checks a script's calls and names against a variant. A script that does not compile gives
/// no findings (loading reports it).
pub(crate) fn lint(file: &SourceFile, rules: &Ruleset) -> Vec<Finding> {
    let mut engine = Engine::new();
    engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    engine.disable_symbol("eval");
    let ctx = std::rc::Rc::new(std::cell::RefCell::new(super::Ctx::default()));
    api::register(&mut engine, &ctx);
    let Ok(ast) = engine.compile(&file.text) else { return Vec::new() };
    let lines = file.text.lines().collect();
    let mut known = Known { rules, lines, functions: registered(&engine), script: BTreeSet::new(), properties: BTreeSet::new() };
    for f in ast.iter_functions() {
        known.functions.entry(f.name.to_string()).or_default().insert(f.params.len());
        known.script.insert((f.name.to_string(), f.params.len()));
    }
    ast.walk(&mut |path: &[ASTNode]| {
        match path.last() {
            Some(ASTNode::Expr(Expr::Map(m, _))) => known.properties.extend(m.0.iter().map(|(k, _)| k.name.to_string())),
            Some(ASTNode::Expr(Expr::Property(p, _))) => {
                known.properties.insert(p.2.to_string());
            }
            _ => {}
        }
        true
    });
    let places = Places::of(&ast);
    let mut out = Vec::new();
    variables(&ast, &places, &mut out);
    let mut current = None;
    ast.walk(&mut |path: &[ASTNode]| {
        let Some(node) = path.last() else { return true };
        if path.len() == 1 {
            current = places.root(node.position());
        }
        let label = places.label(current);
        match node {
            ASTNode::Stmt(Stmt::FnCall(x, pos)) => function_call(&known, &label, x, *pos, &mut out),
            ASTNode::Expr(e) => expression(&known, &label, e, &mut out),
            _ => {}
        }
        true
    });
    out.sort_by(|a, b| (a.line, a.column, &a.message).cmp(&(b.line, b.column, &b.message)));
    out.dedup();
    out
}

/// A line and a column.
type At = (usize, usize);

fn at(p: rhai::Position) -> At {
    (p.line().unwrap_or(0), p.position().unwrap_or(0))
}

/// A function's body: where it starts and ends (`None` for a closure whose body is one
/// expression: Rhai gives it no end), and the function's name (`anon$…` for a closure).
type Body = (At, Option<At>, String);

/// Where each function's body lies in the script, to say which function a node is in. A walk of
/// the script visits the top level, then each function's body (a closure's too) from its own
/// statements: the function a node is in is the one its walk's root statement is in.
struct Places {
    bodies: Vec<Body>,
}

impl Places {
    fn of(ast: &AST) -> Places {
        let end = |p: rhai::Position| (!p.is_none()).then(|| at(p));
        let bodies = ast.iter_fn_def().map(|f| (at(f.body.start_position()), end(f.body.end_position()), f.name.to_string())).collect();
        Places { bodies }
    }

    /// The function (an index into `bodies`; `None`: the top level) of a walk's root statement:
    /// the closure whose one-expression body it is, else the innermost body around it.
    fn root(&self, pos: rhai::Position) -> Option<usize> {
        let p = at(pos);
        if let Some(i) = self.bodies.iter().position(|b| b.1.is_none() && b.0 == p) {
            return Some(i);
        }
        self.innermost(p, |_| true)
    }

    /// The innermost body with an end around `p` whose name passes `keep`.
    fn innermost(&self, p: At, keep: impl Fn(&str) -> bool) -> Option<usize> {
        self.bodies
            .iter()
            .enumerate()
            .filter_map(|(i, (a, b, n))| b.map(|b| (i, (*a, b), n)))
            .filter(|&(_, (a, b), n)| a <= p && p <= b && keep(n))
            .min_by_key(|&(_, (a, b), _)| (b.0 - a.0, b.1.abs_diff(a.1)))
            .map(|(i, ..)| i)
    }

    fn is_closure(&self, f: usize) -> bool {
        self.bodies[f].2.starts_with("anon$")
    }

    /// The named function a closure's body lies in (the one that makes it).
    fn enclosing(&self, f: usize) -> Option<usize> {
        self.innermost(self.bodies[f].0, |n| !n.starts_with("anon$"))
    }

    /// ``hook `after_move` ``, ``fn `helper` ``, `a closure in …`, or `the top level`.
    fn label(&self, f: Option<usize>) -> String {
        let named = |name: &str| match Hook::ALL.into_iter().find(|h| h.name() == name) {
            Some(_) => format!("hook `{name}`"),
            None => format!("fn `{name}`"),
        };
        match f {
            None => "the top level".into(),
            Some(f) if self.is_closure(f) => match self.enclosing(f) {
                Some(n) => format!("a closure in {}", named(&self.bodies[n].2)),
                None => "a closure".into(),
            },
            Some(f) => named(&self.bodies[f].2),
        }
    }
}

/// Reads of variables a function cannot see. A function (a hook, a helper, a closure) sees its
/// parameters and its own `let`, `const`, loop and `catch` variables, nothing else: boardlab never
/// runs the script's top level (so its constants do not exist when a hook runs, not even as
/// `global::NAME`), and closures capture nothing (Rhai's `no_closure`). Each such read fails with
/// "Variable not found" when its line runs. A name declared anywhere in the function counts as
/// seen (blocks are not told apart), so what is reported can only fail.
fn variables(ast: &AST, places: &Places, out: &mut Vec<Finding>) {
    // Per function (`None`: the top level), the names it declares; the reads, with their function.
    let mut declared: BTreeMap<Option<usize>, BTreeSet<String>> = BTreeMap::new();
    for (i, f) in ast.iter_fn_def().enumerate() {
        declared.entry(Some(i)).or_default().extend(f.params.iter().map(|p| p.to_string()));
    }
    let mut reads = Vec::new();
    let mut current = None;
    ast.walk(&mut |path: &[ASTNode]| {
        let Some(node) = path.last() else { return true };
        if path.len() == 1 {
            current = places.root(node.position());
        }
        let names = declared.entry(current).or_default();
        match node {
            ASTNode::Stmt(Stmt::Var(x, ..)) => _ = names.insert(x.0.name.to_string()),
            ASTNode::Stmt(Stmt::For(x, _)) => names.extend([Some(&x.0), x.1.as_ref()].into_iter().flatten().map(|v| v.name.to_string())),
            ASTNode::Stmt(Stmt::TryCatch(x, _)) => {
                if let Expr::Variable(v, ..) = &x.expr {
                    names.insert(v.1.to_string());
                }
            }
            ASTNode::Expr(Expr::Variable(v, _, pos)) if v.2.is_empty() => reads.push((current, v.1.to_string(), *pos)),
            _ => {}
        }
        true
    });
    let none = BTreeSet::new();
    let declares = |f: Option<usize>, name: &str| declared.get(&f).is_some_and(|d| d.contains(name));
    for (f, name, pos) in reads {
        let Some(i) = f else { continue };
        if declares(f, &name) {
            continue;
        }
        let label = places.label(f);
        let (message, mark, help) = if places.is_closure(i) && places.enclosing(i).is_some_and(|o| declares(Some(o), &name)) {
            let msg = format!("{label} reads `{name}`, a variable of the function around it: closures here capture nothing");
            let help = format!("pass it in: `(|{name}, x| …).curry({name})`, or write a `for` loop instead of the closure");
            (msg, "not visible in the closure", Some(help))
        } else if declares(None, &name) {
            let msg =
                format!("{label} reads `{name}`, defined at the top level: a function cannot see the top level, which boardlab never runs");
            let help = format!("define `{name}` inside the function, or make it a function: `fn {}() {{ … }}`", name.to_lowercase());
            (msg, "not visible here", Some(help))
        } else {
            let own = declared.get(&f).unwrap_or(&none);
            let msg = format!("{label} reads `{name}`, which it never defines");
            (msg, "no such variable", Names::new("variable", own.iter().map(String::as_str)).hint(&name))
        };
        out.push(finding(Severity::Error, &label, pos, name.len(), message, mark, help));
    }
}

/// The functions an engine has (registered and Rhai's packages), by name: their arities.
fn registered(engine: &Engine) -> BTreeMap<String, BTreeSet<usize>> {
    let mut out: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let json = engine.gen_fn_metadata_to_json(true).unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
    for f in value["functions"].as_array().into_iter().flatten() {
        if let (Some(name), Some(n)) = (f["name"].as_str(), f["numParams"].as_u64()) {
            out.entry(name.to_string()).or_default().insert(n as usize);
        }
    }
    out
}

/// Checks a call written as a statement or an expression.
fn function_call(known: &Known, label: &str, x: &FnCallExpr, pos: rhai::Position, out: &mut Vec<Finding>) {
    if x.is_operator_call() || !is_name(&x.name) {
        if matches!(x.name.as_str(), "==" | "!=") && x.args.len() == 2 {
            compared(known, label, &x.args[0], &x.args[1], out);
            compared(known, label, &x.args[1], &x.args[0], out);
        }
        return;
    }
    if x.is_qualified() {
        return;
    }
    if call(known, label, x, x.args.len(), pos, out) {
        names_in_args(known, label, x, 0, out);
    }
    if x.name == "Fn"
        && let Some(Expr::StringConstant(s, p)) = x.args.first()
    {
        fn_pointer(known, label, s, *p, out);
    }
}

/// Checks `object.name(…)`: a call with the object as its first argument (unless a map in the
/// script may hold a function under that name).
fn method_call(known: &Known, label: &str, x: &FnCallExpr, pos: rhai::Position, out: &mut Vec<Finding>) {
    if !known.properties.contains(x.name.as_str()) && call(known, label, x, x.args.len() + 1, pos, out) {
        names_in_args(known, label, x, 1, out);
    }
}

/// Checks an expression node: calls, method calls, function pointers.
fn expression(known: &Known, label: &str, e: &Expr, out: &mut Vec<Finding>) {
    match e {
        Expr::FnCall(x, pos) => function_call(known, label, x, *pos, out),
        Expr::MethodCall(x, pos) => method_call(known, label, x, *pos, out),
        Expr::DynamicConstant(d, pos) => {
            if let Some(f) = d.read_lock::<FnPtr>()
                && !f.is_anonymous()
            {
                fn_pointer(known, label, f.fn_name(), *pos, out);
            }
        }
        _ => {}
    }
}

/// Whether a function name is an identifier (operators are called by their symbols).
fn is_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

fn finding(severity: Severity, label: &str, pos: rhai::Position, len: usize, message: String, mark: &str, help: Option<String>) -> Finding {
    Finding {
        severity,
        line: pos.line().unwrap_or(1),
        column: pos.position().unwrap_or(1),
        len: len.max(1),
        function: label.to_string(),
        message,
        label: mark.to_string(),
        help,
    }
}

/// Checks a call of `x` with `arity` arguments (the object of a method call counted); whether
/// it reaches an API function (so its name arguments can be checked).
fn call(known: &Known, label: &str, x: &FnCallExpr, arity: usize, pos: rhai::Position, out: &mut Vec<Finding>) -> bool {
    let name = x.name.as_str();
    if KEYWORDS.contains(&name) {
        return false;
    }
    let Some(arities) = known.functions.get(name) else {
        let help = Names::new("function", known.functions.keys().map(String::as_str)).hint(name);
        let msg = format!("{label} calls `{name}`, which is defined nowhere: not in the script, the boardlab API or Rhai");
        out.push(finding(Severity::Error, label, pos, name.len(), msg, "no such function", help));
        return false;
    };
    if !arities.contains(&arity) {
        let takes: Vec<String> = arities.iter().map(|a| a.to_string()).collect();
        let msg = format!(
            "{label} calls `{name}` with {arity} argument{}, but `{name}` takes {}",
            if arity == 1 { "" } else { "s" },
            takes.join(" or ")
        );
        out.push(finding(Severity::Error, label, pos, name.len(), msg, "wrong number of arguments", None));
        return false;
    }
    !known.script.contains(&(name.to_string(), arity))
}

/// Checks the texts written as arguments where the API function `x` expects names; `skip` is 1
/// for a method call (its first parameter is the object before the dot).
fn names_in_args(known: &Known, label: &str, x: &FnCallExpr, skip: usize, out: &mut Vec<Finding>) {
    let Some(params) = api::name_params(&x.name, x.args.len() + skip) else { return };
    for (arg, param) in x.args.iter().zip(params.iter().skip(skip)) {
        let Some(param) = param else { continue };
        for (text, pos) in texts(arg, *param == NameParam::Directions) {
            if let Err((msg, help)) = check_name(known.rules, *param, &text) {
                let pos = known.find(pos, &text);
                let msg = format!("{label} calls `{}` with \"{text}\": {msg}", x.name);
                out.push(finding(Severity::Error, label, pos, text.len() + 2, msg, "not a name of this variant", help));
            }
        }
    }
}

/// The texts written literally in an argument (an array of them too, where `arrays`).
fn texts(arg: &Expr, arrays: bool) -> Vec<(String, rhai::Position)> {
    match arg {
        Expr::StringConstant(s, pos) => vec![(s.to_string(), *pos)],
        Expr::Array(items, _) if arrays => items.iter().flat_map(|i| texts(i, false)).collect(),
        Expr::DynamicConstant(d, pos) if arrays => match d.read_lock::<rhai::Array>() {
            Some(a) => a.iter().filter_map(|x| x.read_lock::<rhai::ImmutableString>().map(|s| (s.to_string(), *pos))).collect(),
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Whether `text` names a thing of the kind `param` in the variant; if not, why and a hint.
fn check_name(rules: &Ruleset, param: NameParam, text: &str) -> Result<(), (String, Option<String>)> {
    let miss = |names: Names, text: &str| {
        let has = if names.list().is_empty() { "none".to_string() } else { names.list() };
        Err((format!("{} (this variant has: {has})", names.unknown(text)), names.hint(text)))
    };
    match param {
        NameParam::Cell => rules.geometry.parse_cell(text).map(|_| ()).map_err(|e| (e.to_string(), None)),
        NameParam::Zone if text == "board" || rules.zones.iter().any(|(z, _)| z == text) => Ok(()),
        NameParam::Zone => miss(Names::new("zone", rules.zones.iter().map(|(z, _)| z.as_str()).chain(["board"])), text),
        NameParam::Player if rules.parse_player(text).is_some() => Ok(()),
        NameParam::Player => miss(Names::new("player", rules.player_names.0.iter().map(String::as_str)), text),
        NameParam::Kind if rules.kind_by_name(text).is_some() => Ok(()),
        NameParam::Kind => miss(Names::new("piece kind", rules.kinds.iter().map(|k| k.name.as_str())), text),
        NameParam::Attribute if rules.attribute_slot(text).is_some() => Ok(()),
        NameParam::Attribute => miss(Names::new("attribute", rules.attributes.iter().map(String::as_str)), text),
        NameParam::Counter if rules.counter_slot(text).is_some() => Ok(()),
        NameParam::Counter => miss(Names::new("counter", rules.counters.iter().map(|(c, _)| c.as_str())), text),
        NameParam::Option if rules.options.decl(text).is_some() => Ok(()),
        NameParam::Option => miss(Names::new("option", rules.options.decls.iter().map(|d| d.name.as_str())), text),
        NameParam::Direction if crate::geometry::compass_vector_on(text, rules.geometry.hex).is_some() => Ok(()),
        NameParam::Direction => Err((format!("`{text}` is not a compass direction (n ne e se s sw w nw)"), None)),
        NameParam::Directions if crate::rules::movement::named_dirs_on(text, 1, rules.geometry.hex).is_some() => Ok(()),
        NameParam::Directions => Err((format!("`{text}` is not a direction (n ne e se s sw w nw, orthogonal, diagonal, all, …)"), None)),
    }
}

/// `kind(c) == "pawnn"`: a text compared with what a call returns that it can never be.
fn compared(known: &Known, label: &str, call: &Expr, other: &Expr, out: &mut Vec<Finding>) {
    let Expr::StringConstant(text, pos) = other else { return };
    let (name, arity) = match call {
        Expr::FnCall(x, _) if !x.is_qualified() && !x.is_operator_call() => (x.name.as_str(), x.args.len()),
        Expr::Dot(b, ..) => match &b.rhs {
            Expr::MethodCall(x, _) => (x.name.as_str(), x.args.len() + 1),
            _ => return,
        },
        _ => return,
    };
    let param = match (name, arity) {
        ("kind", 1) => NameParam::Kind,
        ("owner", 1) | ("side", 0) | ("opponent", 1) => NameParam::Player,
        _ => return,
    };
    // `kind` and `owner` say "" for an empty cell.
    if known.script.contains(&(name.to_string(), arity)) || (text.is_empty() && arity == 1 && name != "opponent") {
        return;
    }
    if let Err((msg, help)) = check_name(known.rules, param, text) {
        let msg = format!("{label} compares `{name}(…)` with \"{text}\", which it never returns: {msg}");
        out.push(finding(Severity::Warning, label, *pos, text.len() + 2, msg, "never equal", help));
    }
}

/// `Fn("name")`: a pointer to a function that must exist.
fn fn_pointer(known: &Known, label: &str, name: &str, pos: rhai::Position, out: &mut Vec<Finding>) {
    if !known.functions.contains_key(name) && !KEYWORDS.contains(&name) {
        let help = Names::new("function", known.functions.keys().map(String::as_str)).hint(name);
        let msg =
            format!("{label} makes a pointer to `{name}` (Fn), which is defined nowhere: not in the script, the boardlab API or Rhai");
        out.push(finding(Severity::Error, label, pos, name.len() + 2, msg, "no such function", help));
    }
}

/// Findings shown as diagnostics of the script file (no colour unless `color`), errors and
/// warnings marked as such.
pub(crate) fn render(file: &SourceFile, findings: &[Finding], color: bool) -> String {
    let theme = if color { miette::GraphicalTheme::unicode() } else { miette::GraphicalTheme::unicode_nocolor() };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    for (i, f) in findings.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let shown = Shown {
            f,
            src: NamedSource::new(file.name.clone(), file.text.clone()),
            offset: crate::rules::error::offset_of(&file.text, f.line, f.column),
        };
        if handler.render_report(&mut out, &shown).is_err() {
            out.push_str(&format!("{}:{}:{}: {}\n", file.name, f.line, f.column, f.message));
        }
    }
    out
}

/// A finding as a miette diagnostic.
struct Shown<'a> {
    f: &'a Finding,
    src: NamedSource<String>,
    offset: usize,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, fm: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.f.fmt(fm)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, fm: &mut fmt::Formatter<'_>) -> fmt::Result {
        fm.write_str(&self.f.message)
    }
}

impl std::error::Error for Shown<'_> {}

impl Diagnostic for Shown<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.f.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.f.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.f.len.min(self.src.inner().len().saturating_sub(self.offset)).max(1);
        Some(Box::new(std::iter::once(LabeledSpan::new(Some(self.f.label.clone()), self.offset, len))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(script: &str) -> Vec<String> {
        let v = crate::variant::Variant::load("checkers", &[]).unwrap();
        let file = SourceFile { name: "rules.rhai".into(), text: script.into() };
        lint(&file, &v.rules).into_iter().map(|f| format!("{}:{} {}", f.line, f.column, f.message)).collect()
    }

    #[test]
    fn parameters_are_read_from_the_signatures() {
        use NameParam::*;
        assert_eq!(api::name_params("place", 3), Some(vec![Some(Cell), Some(Kind), Some(Player)]));
        assert_eq!(api::name_params("set_counter", 3), Some(vec![Some(Player), Some(Counter), None]));
        assert_eq!(api::name_params("in_zone", 3), Some(vec![Some(Cell), Some(Zone), Some(Player)]));
        assert_eq!(api::name_params("place", 2), None);
        assert_eq!(api::name_params("cells", 0), Some(vec![]));
    }

    #[test]
    fn a_script_function_replaces_the_api_function_of_its_shape() {
        // Basileus's own `adjacent(a, b)` is not the API's `adjacent(cell, dirs)`.
        assert!(found("fn adjacent(a, b) { a == b }\nfn outcome() { adjacent(\"e3\", \"up\"); }").is_empty());
        assert_eq!(found("fn outcome() { adjacent(\"e3\", \"up\"); }").len(), 1);
    }

    #[test]
    fn closures_and_the_top_level_are_named() {
        let f = found("fn outcome() {\n  let k = pieces(\"white\").filter(|c| { let x = kindd(c); x });\n}\nnothing();\n");
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(f[0].starts_with("2:48 a closure in hook `outcome` calls `kindd`"), "{f:?}");
        assert!(f[1].starts_with("4:1 the top level calls `nothing`"), "{f:?}");
    }

    #[test]
    fn reads_of_variables_a_function_cannot_see_are_errors() {
        // A closure reading a local of its function; a hook reading a top-level constant; a typo.
        let script = "const LIMIT = 3;\nfn outcome() {\n  let me = side();\n  let mine = cells().filter(|c| owner(c) == me);\n  if mine.len() > LIMIT { draw(\"x\"); }\n  print(mee);\n}\n";
        let f = found(script);
        assert_eq!(f.len(), 3, "{f:?}");
        assert!(f[0].starts_with("4:45 a closure in hook `outcome` reads `me`, a variable of the function around it"), "{f:?}");
        assert!(f[1].starts_with("5:19 hook `outcome` reads `LIMIT`, defined at the top level"), "{f:?}");
        assert!(f[2].starts_with("6:9 hook `outcome` reads `mee`, which it never defines"), "{f:?}");
    }

    #[test]
    fn what_a_function_declares_itself_is_seen() {
        // Parameters, `let`, `const`, loop variables and counters, `catch`, closure parameters,
        // curried values; a top-level read of the top level.
        let script = "const K = 1;\nlet t = K;\nfn evaluate(player) {\n  const M = 2;\n  let n = 0;\n  for (c, i) in cells() { n += i; }\n  try { n += 1; } catch (err) { print(err); }\n  let f = |me, c| owner(c) == me;\n  let g = f.curry(player);\n  n + M + cells().filter(|c| kind(c) == \"man\").len()\n}\n";
        assert!(found(script).is_empty(), "{:?}", found(script));
    }
}
