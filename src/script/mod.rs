//! The Rhai host: a sandboxed engine, a variant's script compiled once, and typed wrappers for
//! the hooks the kernel knows.
//!
//! Hooks are the script functions with these names: `after_move(m)`, `allow_move(m)`,
//! `generate_moves()`, `outcome()`, `evaluate(player)`. Other functions are the script's own helpers. During a hook
//! call the position is lent to the script API ([`api`]) and handed back afterwards, whatever
//! happens; every write goes through the position's logged setters, so undo reverts it.

pub mod api;
pub(crate) mod lint;

use crate::notation::{Move, MoveText};
use crate::rules::{Hook, LoadError, Ruleset, SourceFile};
use crate::state::Position;
use rhai::{AST, CallFnOptions, Dynamic, Engine, Scope};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Limits that stop a runaway script.
pub(crate) const MAX_OPERATIONS: u64 = 2_000_000;
pub(crate) const MAX_CALL_LEVELS: usize = 64;
/// The most lines a script's output keeps between two takes (the rest is counted, not kept).
pub(crate) const MAX_OUTPUT_LINES: usize = 1000;

/// What the script API works on during a hook call.
#[derive(Default)]
pub(crate) struct Ctx {
    pub(crate) rules: Option<Arc<Ruleset>>,
    pub(crate) pos: Position,
    /// Lines the script printed.
    pub(crate) output: Vec<String>,
    /// Lines printed past [`MAX_OUTPUT_LINES`] since the output was last taken.
    pub(crate) cut: usize,
    /// Cell and player names, made once so the API hands out shared strings, not new ones.
    pub(crate) names: Vec<rhai::ImmutableString>,
    pub(crate) players: Vec<rhai::ImmutableString>,
}

/// A variant's script: its text, checked at load and compiled once per thread that calls its
/// hooks. A Rhai engine cannot be shared between threads, so each thread gets its own copy
/// (compiled on its first hook call); the loaded variant is then `Send + Sync`, and self-play
/// threads share one.
pub struct Script {
    pub(crate) file: SourceFile,
    rules: Arc<Ruleset>,
    defined: Vec<Hook>,
    id: u64,
}

/// Ids for [`Script`]s, to find each thread's compiled copy.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's compiled scripts, by [`Script`] id.
    static COMPILED: RefCell<Vec<(u64, Rc<Compiled>)>> = const { RefCell::new(Vec::new()) };
}

impl Script {
    /// Compiles a script and checks its hooks' signatures.
    ///
    /// # Errors
    /// A syntax error, or a hook with the wrong number of parameters, with file, line and column.
    pub(crate) fn compile(file: SourceFile, rules: Arc<Ruleset>) -> Result<Script, LoadError> {
        let compiled = Compiled::compile(file.clone(), rules.clone())?;
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let defined = compiled.defined.clone();
        COMPILED.with(|c| c.borrow_mut().push((id, Rc::new(compiled))));
        Ok(Script { file, rules, defined, id })
    }

    /// This thread's compiled copy, if it has one.
    fn compiled_here(&self) -> Option<Rc<Compiled>> {
        COMPILED.with(|c| c.borrow().iter().find(|(i, _)| *i == self.id).map(|(_, x)| x.clone()))
    }

    /// This thread's compiled copy, compiled now if this thread has none yet (for `hook`).
    ///
    /// # Errors
    /// The script does not compile here (it did at load, so this is not expected).
    fn here(&self, hook: Hook) -> Result<Rc<Compiled>, ScriptError> {
        if let Some(c) = self.compiled_here() {
            return Ok(c);
        }
        let c = Rc::new(Compiled::compile(self.file.clone(), self.rules.clone()).map_err(|e| {
            let cause = ScriptCause::Runtime(format!("the script does not compile on this thread: {}", e.message));
            ScriptError { hook, file: self.file.name.clone(), line: None, column: None, doing: String::new(), cause }
        })?);
        COMPILED.with(|x| x.borrow_mut().push((self.id, c.clone())));
        Ok(c)
    }

    /// Whether the script defines a hook.
    pub(crate) fn defines(&self, hook: Hook) -> bool {
        self.defined.contains(&hook)
    }

    /// Takes what the script printed (on this thread) since the last call.
    pub(crate) fn take_output(&self) -> Vec<String> {
        self.compiled_here().map(|c| c.take_output()).unwrap_or_default()
    }

    /// Runs `after_move`.
    ///
    /// # Errors
    /// The hook failed.
    pub(crate) fn after_move(&self, pos: &mut Position, m: api::HookMove, doing: &str) -> Result<(), ScriptError> {
        self.here(Hook::AfterMove)?.after_move(pos, m, doing)
    }

    /// Runs `allow_move`: `Ok(None)` to allow; `Ok(Some(reason))` to refuse.
    ///
    /// # Errors
    /// The hook failed or returned something else.
    pub(crate) fn allow_move(&self, pos: &mut Position, m: api::HookMove, doing: &str) -> Result<Option<String>, ScriptError> {
        self.read_only(Hook::AllowMove, pos, doing, |c, pos| c.allow_move(pos, m, doing))
    }

    /// Runs `generate_moves`: extra moves for the side to move, each checked against the
    /// position ([`api::check_script_move`]); a move the rules list already (`listed`) or the
    /// hook returned before is not added again.
    ///
    /// # Errors
    /// The hook failed or returned something other than moves the kernel can play, naming the
    /// move and what is wrong with it.
    pub(crate) fn generate_moves(&self, pos: &mut Position, rules: &Ruleset, listed: &[Move]) -> Result<Vec<Move>, ScriptError> {
        self.read_only(Hook::GenerateMoves, pos, "while listing moves", |c, pos| c.generate_moves(pos, rules, listed))
    }

    /// Runs a filter hook, which may only read the position: whatever it writes is undone, and
    /// a hook that wrote is an error naming it.
    fn read_only<T>(
        &self,
        hook: Hook,
        pos: &mut Position,
        doing: &str,
        call: impl FnOnce(&Compiled, &mut Position) -> Result<T, ScriptError>,
    ) -> Result<T, ScriptError> {
        let (hash, result) = (pos.hash(), pos.result().cloned());
        pos.begin();
        let compiled = self.here(hook)?;
        let r = call(&compiled, pos);
        let wrote = pos.hash() != hash || pos.result() != result.as_ref();
        pos.undo();
        let r = r?;
        if wrote {
            let why = format!("changed the position; `{}` may only read it (moves change it in `after_move`)", hook.name());
            let (file, doing) = (self.file.name.clone(), doing.to_string());
            return Err(ScriptError { hook, file, line: None, column: None, doing, cause: ScriptCause::Returned(why) });
        }
        Ok(r)
    }

    /// Runs `outcome`.
    ///
    /// # Errors
    /// The hook failed.
    pub(crate) fn outcome(&self, pos: &mut Position) -> Result<(), ScriptError> {
        self.here(Hook::Outcome)?.outcome(pos)
    }

    /// Runs `evaluate(player)`: the script's term of the evaluation for `player`, in points
    /// (100 = an ordinary piece). It may only read the position.
    ///
    /// # Errors
    /// The hook failed, wrote to the position, or returned something other than a number.
    pub fn evaluate(&self, pos: &mut Position, player: crate::piece::Player) -> Result<i64, ScriptError> {
        self.read_only(Hook::Evaluate, pos, "while evaluating a position", |c, pos| c.evaluate(pos, player))
    }
}

impl Drop for Script {
    fn drop(&mut self) {
        let id = self.id;
        // This thread's copy goes with it; other threads' copies stay until they end.
        let _ = COMPILED.try_with(|c| c.borrow_mut().retain(|(i, _)| *i != id));
    }
}

impl Ctx {
    /// Keeps a printed line, up to [`MAX_OUTPUT_LINES`].
    fn say(&mut self, line: &str) {
        if self.output.len() < MAX_OUTPUT_LINES {
            self.output.push(line.to_string());
        } else {
            self.cut += 1;
        }
    }
}

/// A compiled script and its engine, for one thread.
struct Compiled {
    engine: Engine,
    ast: AST,
    file: SourceFile,
    ctx: Rc<RefCell<Ctx>>,
    defined: Vec<Hook>,
}

/// A script error during play: which hook, where in which script, what the kernel was doing,
/// and what went wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct ScriptError {
    pub(crate) hook: Hook,
    /// The script's name as shown to the designer.
    pub(crate) file: String,
    /// 1-based line and column, when the script engine knows them.
    pub(crate) line: Option<usize>,
    pub(crate) column: Option<usize>,
    /// What the kernel was doing (`while playing e2-e3`), or empty.
    pub(crate) doing: String,
    pub(crate) cause: ScriptCause,
}

/// What went wrong in a hook.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ScriptCause {
    /// The script failed while running (a thrown error, a bad call, the operation limit).
    Runtime(String),
    /// The hook returned something the kernel cannot use.
    Returned(String),
}

impl ScriptError {
    fn describe(&self) -> String {
        let place = match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", self.file),
            (Some(l), None) => format!("{}:{l}", self.file),
            _ => self.file.clone(),
        };
        let doing = if self.doing.is_empty() { String::new() } else { format!(" {}", self.doing) };
        match &self.cause {
            ScriptCause::Runtime(why) => format!("script error in hook `{}` ({place}){doing}: {why}", self.hook.name()),
            ScriptCause::Returned(why) => format!("hook `{}` ({place}){doing}: {why}", self.hook.name()),
        }
    }
}

impl Compiled {
    fn compile(file: SourceFile, rules: Arc<Ruleset>) -> Result<Compiled, LoadError> {
        let names = rules.geometry.cells().map(|c| rules.geometry.name(c).into()).collect();
        let players = crate::piece::Player::both().iter().map(|&p| rules.player_name(p).into()).collect();
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
            engine.on_print(move |s| c.borrow_mut().say(s));
            let c = ctx.clone();
            engine.on_debug(move |s, _, _| c.borrow_mut().say(s));
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
            let Some(h) = Hook::ALL.into_iter().find(|h| h.name() == f.name) else { continue };
            if f.params.len() != h.arity() {
                let (line, col) = find_fn(&file.text, h.name());
                let (name, arity) = (h.name(), h.arity());
                let msg = format!(
                    "hook `{name}` takes {arity} parameter{}, this one takes {}",
                    if arity == 1 { "" } else { "s" },
                    f.params.len()
                );
                return Err(LoadError::at_line(&file, line, col, msg, "this hook"));
            }
            defined.push(h);
        }
        Ok(Compiled { engine, ast, file, ctx, defined })
    }

    /// Takes what the script printed since the last call.
    fn take_output(&self) -> Vec<String> {
        let mut ctx = self.ctx.borrow_mut();
        let mut out = std::mem::take(&mut ctx.output);
        let cut = std::mem::take(&mut ctx.cut);
        if cut > 0 {
            out.push(format!(
                "… {cut} more line{} cut (a script prints at most {MAX_OUTPUT_LINES} lines at a time)",
                if cut == 1 { "" } else { "s" }
            ));
        }
        out
    }

    /// A hook error with no place in the script.
    fn returned(&self, hook: Hook, doing: &str, why: String) -> ScriptError {
        let (file, doing) = (self.file.name.clone(), doing.to_string());
        ScriptError { hook, file, line: None, column: None, doing, cause: ScriptCause::Returned(why) }
    }

    /// Calls a hook with the position lent to the API.
    fn call(&self, hook: Hook, pos: &mut Position, args: impl rhai::FuncArgs, doing: &str) -> Result<Dynamic, ScriptError> {
        std::mem::swap(&mut self.ctx.borrow_mut().pos, pos);
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let r = self.engine.call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, hook.name(), args);
        std::mem::swap(&mut self.ctx.borrow_mut().pos, pos);
        r.map_err(|e| {
            // The failing line first: rhai wraps an error inside a function in the call's
            // error, at the call site; unwrap to the innermost and name the calls on the way.
            let mut e = *e;
            let mut calls = Vec::new();
            while let rhai::EvalAltResult::ErrorInFunctionCall(name, _, inner, at) = e {
                if let Some(l) = at.line() {
                    calls.push(format!("in `{name}`, called at line {l}"));
                }
                e = *inner;
            }
            let p = e.position();
            let mut why = match e {
                rhai::EvalAltResult::ErrorTooManyOperations(_) => format!("stopped after {MAX_OPERATIONS} operations (a runaway loop?)"),
                ref other => other.to_string(),
            };
            if !calls.is_empty() {
                calls.reverse();
                why = format!("{why} ({})", calls.join(", "));
            }
            let (file, doing) = (self.file.name.clone(), doing.to_string());
            ScriptError { hook, file, line: p.line(), column: p.position(), doing, cause: ScriptCause::Runtime(why) }
        })
    }

    fn after_move(&self, pos: &mut Position, m: api::HookMove, doing: &str) -> Result<(), ScriptError> {
        self.call(Hook::AfterMove, pos, (m,), doing).map(|_| ())
    }

    /// `Ok(None)` to allow; `Ok(Some(reason))` to refuse.
    fn allow_move(&self, pos: &mut Position, m: api::HookMove, doing: &str) -> Result<Option<String>, ScriptError> {
        let r = self.call(Hook::AllowMove, pos, (m,), doing)?;
        if r.is_unit() {
            return Ok(None);
        }
        if let Ok(b) = r.as_bool() {
            return Ok((!b).then(|| "refused by the rules script".to_string()));
        }
        if r.is_string() {
            return Ok(Some(r.into_string().unwrap_or_default()));
        }
        Err(self.returned(Hook::AllowMove, doing, format!("returned {}, expected true, false, a reason text or ()", r.type_name())))
    }

    /// Extra moves as text, for the side to move (see [`Script::generate_moves`]).
    fn generate_moves(&self, pos: &mut Position, rules: &Ruleset, listed: &[Move]) -> Result<Vec<Move>, ScriptError> {
        let doing = "while listing moves";
        let r = self.call(Hook::GenerateMoves, pos, (), doing)?;
        // Errors about what the hook returned point at the hook.
        let (line, column) = find_fn(&self.file.text, Hook::GenerateMoves.name());
        let bad = |why: String| ScriptError { line: Some(line), column: Some(column), ..self.returned(Hook::GenerateMoves, doing, why) };
        let texts = || bad("must return an array of move texts".into());
        let arr = r.try_cast::<rhai::Array>().ok_or_else(texts)?;
        let mut out: Vec<Move> = Vec::new();
        for d in arr {
            let t = d.into_string().map_err(|_| texts())?;
            let text = MoveText::parse(&t, &rules.geometry).map_err(|e| bad(format!("returned `{t}`: {e}")))?;
            api::check_script_move(rules, pos, &text).map_err(|e| bad(format!("returned `{t}`: {e}")))?;
            let m = text.capturing_at_landings();
            // A move is listed once. (A checked move cannot share its text with a different
            // move of the rules: `x` landings here hold pieces, a jump's landings are empty.)
            if !listed.contains(&m) && !out.contains(&m) {
                out.push(m);
            }
        }
        Ok(out)
    }

    fn outcome(&self, pos: &mut Position) -> Result<(), ScriptError> {
        self.call(Hook::Outcome, pos, (), "while checking the result").map(|_| ())
    }

    fn evaluate(&self, pos: &mut Position, player: crate::piece::Player) -> Result<i64, ScriptError> {
        let doing = "while evaluating a position";
        let name = self.ctx.borrow().players[player.index()].clone();
        let r = self.call(Hook::Evaluate, pos, (name,), doing)?;
        if let Ok(i) = r.as_int() {
            return Ok(i);
        }
        match r.as_float() {
            Ok(f) if f.is_finite() => Ok(f.round().clamp(-1e12, 1e12) as i64),
            _ => Err(self.returned(Hook::Evaluate, doing, format!("returned {}, expected a number", r.type_name()))),
        }
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
