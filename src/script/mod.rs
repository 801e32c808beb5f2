//! The Rhai host: a sandboxed engine, a variant's script compiled once, and typed wrappers for
//! the hooks the kernel knows.
//!
//! Hooks are the script functions with these names: `after_move(m)`, `allow_move(m)`,
//! `generate_moves()`, `outcome()`. Other functions are the script's own helpers. During a hook
//! call the position is lent to the script API ([`api`]) and handed back afterwards, whatever
//! happens; every write goes through the position's logged setters, so undo reverts it.

pub mod api;

use crate::notation::Move;
use crate::rules::{LoadError, Ruleset, SourceFile};
use crate::state::Position;
use rhai::{AST, CallFnOptions, Dynamic, Engine, Scope};
use std::cell::RefCell;
use std::rc::Rc;

/// The hook names the kernel calls, with their parameter counts.
pub const HOOKS: [(&str, usize); 4] = [("after_move", 1), ("allow_move", 1), ("generate_moves", 0), ("outcome", 0)];

/// Limits that stop a runaway script.
pub const MAX_OPERATIONS: u64 = 2_000_000;
pub const MAX_CALL_LEVELS: usize = 64;

/// What the script API works on during a hook call.
#[derive(Default)]
pub struct Ctx {
    pub rules: Option<Rc<Ruleset>>,
    pub pos: Position,
    /// Lines the script printed.
    pub output: Vec<String>,
    /// Cell and player names, made once so the API hands out shared strings, not new ones.
    pub names: Vec<rhai::ImmutableString>,
    pub players: Vec<rhai::ImmutableString>,
}

/// A compiled script and its engine.
pub struct Script {
    engine: Engine,
    ast: AST,
    pub file: SourceFile,
    ctx: Rc<RefCell<Ctx>>,
    defined: Vec<&'static str>,
}

/// A script error during play: which hook, where, and what.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct ScriptError(pub String);

impl Script {
    /// Compiles a script and checks its hooks' signatures.
    ///
    /// # Errors
    /// A syntax error, or a hook with the wrong number of parameters, with file, line and column.
    pub fn compile(file: SourceFile, rules: Rc<Ruleset>) -> Result<Script, LoadError> {
        let names = rules.geometry.cells().map(|c| rules.geometry.name(c).into()).collect();
        let players = crate::Player::both().iter().map(|&p| rules.player_name(p).into()).collect();
        let ctx = Rc::new(RefCell::new(Ctx { rules: Some(rules), names, players, ..Ctx::default() }));
        let mut engine = Engine::new();
        engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
        engine.disable_symbol("eval");
        engine.set_max_operations(MAX_OPERATIONS);
        engine.set_max_call_levels(MAX_CALL_LEVELS);
        engine.set_max_expr_depths(64, 32);
        engine.set_max_string_size(10_000);
        engine.set_max_array_size(10_000);
        engine.set_max_map_size(1_000);
        {
            let c = ctx.clone();
            engine.on_print(move |s| c.borrow_mut().output.push(s.to_string()));
            let c = ctx.clone();
            engine.on_debug(move |s, _, _| c.borrow_mut().output.push(s.to_string()));
        }
        api::register(&mut engine, &ctx);
        let ast = engine.compile(&file.text).map_err(|e| {
            let p = e.position();
            LoadError::at_line(
                &file,
                p.line().unwrap_or(1),
                p.position().unwrap_or(1),
                format!("script syntax error: {}", e.err_type()),
                "here",
            )
        })?;
        let mut defined = Vec::new();
        for f in ast.iter_functions() {
            if let Some((name, arity)) = HOOKS.iter().find(|(n, _)| *n == f.name) {
                if f.params.len() != *arity {
                    let (line, col) = find_fn(&file.text, name);
                    return Err(LoadError::at_line(
                        &file,
                        line,
                        col,
                        format!(
                            "hook `{name}` takes {arity} parameter{}, this one takes {}",
                            if *arity == 1 { "" } else { "s" },
                            f.params.len()
                        ),
                        "this hook",
                    ));
                }
                defined.push(*name);
            }
        }
        Ok(Script { engine, ast, file, ctx, defined })
    }

    /// The map a hook receives for a move (see [`api::move_map`]).
    pub fn move_map(&self, rules: &Ruleset, pos: &Position, m: &Move, captured_kinds: &[String]) -> rhai::Map {
        api::move_map(&self.ctx.borrow(), rules, pos, m, captured_kinds)
    }

    /// Whether the script defines a hook.
    pub fn defines(&self, hook: &str) -> bool {
        self.defined.contains(&hook)
    }

    /// Takes what the script printed since the last call.
    pub fn take_output(&self) -> Vec<String> {
        std::mem::take(&mut self.ctx.borrow_mut().output)
    }

    /// Calls a hook with the position lent to the API.
    fn call(&self, hook: &str, pos: &mut Position, args: impl rhai::FuncArgs, doing: &str) -> Result<Dynamic, ScriptError> {
        std::mem::swap(&mut self.ctx.borrow_mut().pos, pos);
        let mut scope = Scope::new();
        let r = self.engine.call_fn_with_options::<Dynamic>(
            CallFnOptions::new().eval_ast(false).rewind_scope(true),
            &mut scope,
            &self.ast,
            hook,
            args,
        );
        std::mem::swap(&mut self.ctx.borrow_mut().pos, pos);
        r.map_err(|e| {
            let p = e.position();
            let place = match (p.line(), p.position()) {
                (Some(l), Some(c)) => format!("{}:{l}:{c}", self.file.name),
                (Some(l), None) => format!("{}:{l}", self.file.name),
                _ => self.file.name.clone(),
            };
            let what = match *e {
                rhai::EvalAltResult::ErrorTooManyOperations(_) => {
                    format!("stopped after {MAX_OPERATIONS} operations (a runaway loop?)")
                }
                ref other => other.to_string(),
            };
            ScriptError(format!("script error in hook `{hook}` ({place}) {doing}: {what}"))
        })
    }

    pub fn after_move(&self, pos: &mut Position, m: rhai::Map, doing: &str) -> Result<(), ScriptError> {
        self.call("after_move", pos, (m,), doing).map(|_| ())
    }

    /// `Ok(None)` to allow; `Ok(Some(reason))` to refuse.
    pub fn allow_move(&self, pos: &mut Position, m: rhai::Map, doing: &str) -> Result<Option<String>, ScriptError> {
        let r = self.call("allow_move", pos, (m,), doing)?;
        if r.is_unit() {
            return Ok(None);
        }
        if let Ok(b) = r.as_bool() {
            return Ok((!b).then(|| "refused by the rules script".to_string()));
        }
        if r.is_string() {
            return Ok(Some(r.into_string().unwrap_or_default()));
        }
        Err(ScriptError(format!(
            "hook `allow_move` ({}) {doing}: returned {}, expected true, false, a reason text or ()",
            self.file.name,
            r.type_name()
        )))
    }

    /// Extra moves as text, for the side to move.
    pub fn generate_moves(&self, pos: &mut Position, rules: &Ruleset) -> Result<Vec<Move>, ScriptError> {
        let r = self.call("generate_moves", pos, (), "while listing moves")?;
        let arr = r
            .try_cast::<rhai::Array>()
            .ok_or_else(|| ScriptError(format!("hook `generate_moves` ({}) must return an array of move texts", self.file.name)))?;
        let mut out = Vec::new();
        for d in arr {
            let t = d
                .into_string()
                .map_err(|_| ScriptError(format!("hook `generate_moves` ({}) must return an array of move texts", self.file.name)))?;
            out.push(
                api::parse_script_move(&t, rules)
                    .map_err(|e| ScriptError(format!("hook `generate_moves` ({}): `{t}`: {e}", self.file.name)))?,
            );
        }
        Ok(out)
    }

    pub fn outcome(&self, pos: &mut Position) -> Result<(), ScriptError> {
        self.call("outcome", pos, (), "while checking the result").map(|_| ())
    }
}

/// The 1-based line and column of `fn name` in a script (for errors rhai gives no place for).
fn find_fn(text: &str, name: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        if let Some(col) = line.find(&format!("fn {name}")) {
            return (i + 1, col + 1);
        }
    }
    (1, 1)
}
