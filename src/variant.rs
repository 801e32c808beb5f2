//! A playable variant: its files found and merged along `extends`, options applied, rules
//! validated, script compiled; and the game operations that involve hooks (legal moves, make,
//! checked play, results, why a move is illegal).
//!
//! Variants are found, in order: a path to a `.toml` file or to a folder holding
//! `variant.toml`; `variants/NAME/` in the current directory; the variants shipped inside the
//! binary. `extends = "other"` looks beside the extending variant first, then among the shipped
//! ones.

use crate::geometry::NONE;
use crate::movegen::{self, MoveList};
use crate::notation::{Move, MoveKind};
use crate::outcome::Outcome;
use crate::piece;
use crate::rules::validate::{Merged, validate};
use crate::rules::{EndKind, LoadError, NoMoves, RepetitionResult, Ruleset, SourceFile, raw::RawVariant};
use crate::script::{Script, ScriptError};
use crate::state::Position;
use include_dir::{Dir, include_dir};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The variants shipped with boardlab.
pub static SHIPPED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/variants");

/// Where a variant's files live.
#[derive(Clone, Debug)]
pub enum Origin {
    Disk(PathBuf),
    Shipped(String),
}

impl Origin {
    fn read(&self, file: &str) -> Option<(String, String)> {
        match self {
            Origin::Disk(dir) => {
                let p = dir.join(file);
                std::fs::read_to_string(&p).ok().map(|t| (p.display().to_string(), t))
            }
            Origin::Shipped(name) => {
                let path = format!("{name}/{file}");
                SHIPPED.get_file(&path).and_then(|f| f.contents_utf8()).map(|t| (format!("variants/{path}"), t.to_string()))
            }
        }
    }

    /// The folder for display.
    pub fn describe(&self) -> String {
        match self {
            Origin::Disk(d) => d.display().to_string(),
            Origin::Shipped(n) => format!("(shipped) variants/{n}"),
        }
    }
}

/// The names of the shipped variants, sorted.
pub fn shipped_names() -> Vec<String> {
    let mut v: Vec<String> =
        SHIPPED.dirs().filter(|d| d.get_file(d.path().join("variant.toml")).is_some()).map(|d| d.path().display().to_string()).collect();
    v.sort();
    v
}

/// Finds a variant by name or path: (origin, file name in it, variant name).
fn locate(spec: &str) -> Result<(Origin, String, String), LoadError> {
    let p = Path::new(spec);
    if spec.ends_with(".toml") && p.is_file() {
        let dir = p.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        let dir = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir };
        let file = p.file_name().unwrap().to_string_lossy().to_string();
        let name = if file == "variant.toml" {
            dir.file_name().map_or("variant".into(), |n| n.to_string_lossy().to_string())
        } else {
            file.trim_end_matches(".toml").to_string()
        };
        return Ok((Origin::Disk(dir), file, name));
    }
    if p.is_dir() && p.join("variant.toml").is_file() && (spec.contains('/') || spec.contains('\\') || spec.starts_with('.')) {
        let name =
            p.canonicalize().ok().and_then(|c| c.file_name().map(|n| n.to_string_lossy().to_string())).unwrap_or_else(|| spec.to_string());
        return Ok((Origin::Disk(p.to_path_buf()), "variant.toml".into(), name));
    }
    let local = Path::new("variants").join(spec);
    if local.join("variant.toml").is_file() {
        return Ok((Origin::Disk(local), "variant.toml".into(), spec.to_string()));
    }
    if SHIPPED.get_file(format!("{spec}/variant.toml")).is_some() {
        return Ok((Origin::Shipped(spec.to_string()), "variant.toml".into(), spec.to_string()));
    }
    let names = shipped_names();
    let mut e = LoadError::plain(format!("unknown variant `{spec}`; the shipped variants are: {}", names.join(", ")));
    if let Some(h) = crate::rules::error::did_you_mean(spec, names.iter().map(String::as_str)) {
        e = e.with_help(h);
    }
    Err(e)
}

/// Finds the base of an `extends`: beside the extending variant, then shipped.
fn locate_base(from: &Origin, name: &str) -> Option<Origin> {
    if let Origin::Disk(dir) = from {
        let sib = dir.join("..").join(name);
        if sib.join("variant.toml").is_file() {
            return Some(Origin::Disk(sib));
        }
    }
    if SHIPPED.get_file(format!("{name}/variant.toml")).is_some() {
        return Some(Origin::Shipped(name.to_string()));
    }
    None
}

/// Parses one file's TOML, with a diagnostic on error.
fn parse_file(file: &SourceFile) -> Result<RawVariant, LoadError> {
    toml::from_str::<RawVariant>(&file.text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let msg = e.message().trim().to_string();
        let mut err = LoadError::at(file, span, format!("invalid variant file: {msg}"), "here");
        if let Some(field) = msg.strip_prefix("unknown field `").and_then(|r| r.split('`').next()) {
            // toml lists the expected fields after "expected one of".
            let known: Vec<&str> = msg.split('`').skip(3).step_by(2).collect();
            if let Some(h) = crate::rules::error::did_you_mean(field, known.iter().copied()) {
                err = err.with_help(h);
            }
        }
        err
    })
}

/// Reads a variant's files along its `extends` chain, base first.
pub fn read_merged(spec: &str) -> Result<(Merged, Origin, Vec<Origin>), LoadError> {
    let (origin, file, name) = locate(spec)?;
    let mut chain: Vec<(Origin, SourceFile, RawVariant, String)> = Vec::new();
    let (mut cur_origin, mut cur_file, mut cur_name) = (origin.clone(), file, name);
    loop {
        let (display, text) =
            cur_origin.read(&cur_file).ok_or_else(|| LoadError::plain(format!("cannot read {} in {}", cur_file, cur_origin.describe())))?;
        let sf = SourceFile { name: display, text };
        let raw = parse_file(&sf)?;
        let ext = raw.extends.clone();
        chain.push((cur_origin.clone(), sf, raw, cur_name.clone()));
        let Some(ext) = ext else { break };
        if chain.iter().any(|(_, _, _, n)| n == ext.get_ref()) {
            let sf = &chain.last().unwrap().1;
            return Err(LoadError::at(sf, ext.span(), "`extends` goes round in a circle", "here"));
        }
        let Some(base) = locate_base(&cur_origin, ext.get_ref()) else {
            let sf = &chain.last().unwrap().1;
            let names = shipped_names();
            let mut e = LoadError::at(
                sf,
                ext.span(),
                format!("`extends`: no variant `{}` beside this one or shipped", ext.get_ref()),
                "this variant",
            );
            if let Some(h) = crate::rules::error::did_you_mean(ext.get_ref(), names.iter().map(String::as_str)) {
                e = e.with_help(h);
            }
            return Err(e);
        };
        if chain.len() > 16 {
            return Err(LoadError::plain("`extends` chain is longer than 16"));
        }
        cur_origin = base;
        cur_file = "variant.toml".into();
        cur_name = ext.get_ref().clone();
    }
    let mut m = Merged::default();
    let mut origins = Vec::new();
    // Base first, so later (more derived) files override.
    for (i, (o, sf, raw, name)) in chain.into_iter().rev().enumerate() {
        origins.push(o);
        m.files.push(sf);
        let name = raw.name.clone().unwrap_or(name);
        m.overlay(i, raw, &name);
    }
    Ok((m, origin, origins))
}

/// A loaded variant: rules for one option assignment, plus its script.
pub struct Variant {
    pub rules: Rc<Ruleset>,
    pub script: Option<Script>,
    pub merged: Merged,
    pub origin: Origin,
    /// Where each of `merged.files` lives (a designer's variant may extend a shipped one).
    pub file_origins: Vec<Origin>,
    /// The name or path it was loaded by.
    pub spec: String,
    pub overrides: Vec<(String, String)>,
    /// Hooks that run, with the script's definitions taken into account.
    after_move: Option<crate::rules::HookFilter>,
    allow_move: Option<crate::rules::HookFilter>,
    generate: bool,
    outcome_hook: bool,
    /// Zone display marks for empty cells, smallest zone first (it wins where zones overlap).
    pub marks: Vec<(String, char)>,
}

/// Why a move could not be played.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PlayError {
    #[error("{0}")]
    Illegal(String),
    #[error("{0}")]
    Script(#[from] ScriptError),
}

impl Variant {
    /// Loads a variant by name or path with option overrides (`name`, `value`).
    ///
    /// # Errors
    /// Any problem in the files, the options or the script, as a diagnostic.
    pub fn load(spec: &str, overrides: &[(String, String)]) -> Result<Variant, LoadError> {
        let (merged, origin, origins) = read_merged(spec)?;
        Variant::build(merged, origin, origins, spec, overrides)
    }

    /// The same variant under other option overrides (files are not re-read).
    ///
    /// # Errors
    /// An unknown option or a bad value.
    pub fn with_options(&self, overrides: &[(String, String)]) -> Result<Variant, LoadError> {
        Variant::build(self.merged.clone(), self.origin.clone(), self.file_origins.clone(), &self.spec, overrides)
    }

    fn build(
        merged: Merged,
        origin: Origin,
        file_origins: Vec<Origin>,
        spec: &str,
        overrides: &[(String, String)],
    ) -> Result<Variant, LoadError> {
        let rules = Rc::new(validate(&merged, overrides)?);
        let mut script = None;
        if let Some(s) = &merged.script {
            let file_name = s.val.get_ref();
            // The script lives beside the file that named it.
            let sf = &merged.files[s.file];
            let dir_origin = file_origins.get(s.file).cloned().unwrap_or_else(|| origin.clone());
            let (display, text) = dir_origin
                .read(file_name)
                .ok_or_else(|| LoadError::at(sf, s.val.span(), format!("cannot read the script `{file_name}`"), "named here"))?;
            script = Some(Script::compile(SourceFile { name: display, text }, rules.clone())?);
        }
        // Hooks declared in [hooks] must exist in the script.
        let declared = merged.hooks.as_ref();
        if let Some(h) = declared {
            let sf = &merged.files[h.file];
            let named = [
                ("after_move", h.val.after_move.as_ref().map(|x| x.span())),
                ("allow_move", h.val.allow_move.as_ref().map(|x| x.span())),
                ("generate_moves", h.val.generate_moves.as_ref().map(|x| x.span())),
                ("outcome", h.val.outcome.as_ref().map(|x| x.span())),
            ];
            for (name, span) in named {
                if let Some(span) = span
                    && !script.as_ref().is_some_and(|s| s.defines(name))
                {
                    return Err(LoadError::at(
                        sf,
                        span,
                        format!("hook `{name}` is configured but the script defines no `fn {name}`"),
                        "configured here",
                    ));
                }
            }
        }
        let defined = |n: &str| script.as_ref().is_some_and(|s| s.defines(n));
        let mentioned = |f: fn(&crate::rules::raw::RawHooks) -> bool| declared.is_some_and(|h| f(&h.val));
        let pick = |n: &str, filt: &Option<crate::rules::HookFilter>, m: bool| -> Option<crate::rules::HookFilter> {
            if !defined(n) {
                None
            } else if m {
                filt.clone()
            } else {
                Some(crate::rules::HookFilter::always())
            }
        };
        let after_move = pick("after_move", &rules.hooks.after_move, mentioned(|h| h.after_move.is_some()));
        let allow_move = pick("allow_move", &rules.hooks.allow_move, mentioned(|h| h.allow_move.is_some()));
        let generate = defined("generate_moves") && (!mentioned(|h| h.generate_moves.is_some()) || rules.hooks.generate_moves);
        let outcome_hook = defined("outcome") && (!mentioned(|h| h.outcome.is_some()) || rules.hooks.outcome);
        let mut marks: Vec<(usize, String, char)> = Vec::new();
        for (name, z) in &merged.zones {
            if let Some(mk) = &z.val.get_ref().mark {
                let ch = mk.chars().next().unwrap_or('.');
                let size = rules
                    .zone_mask(name, crate::Player::FIRST)
                    .map_or(0, |m| rules.geometry.cells().filter(|c| rules.geometry.zones_of(c.0) & m != 0).count());
                marks.push((size, name.clone(), ch));
            }
        }
        marks.sort();
        let marks = marks.into_iter().map(|(_, n, c)| (n, c)).collect();
        Ok(Variant {
            marks,
            file_origins,
            rules,
            script,
            merged,
            origin,
            spec: spec.to_string(),
            overrides: overrides.to_vec(),
            after_move,
            allow_move,
            generate,
            outcome_hook,
        })
    }

    pub fn name(&self) -> &str {
        &self.rules.name
    }

    /// The start position.
    pub fn start(&self) -> Position {
        Position::start(&self.rules)
    }

    /// Whether any hook may run during play.
    pub fn has_hooks(&self) -> bool {
        self.after_move.is_some() || self.allow_move.is_some() || self.generate || self.outcome_hook
    }

    fn hook_applies(&self, f: &crate::rules::HookFilter, pos: &Position, mv: &Move) -> bool {
        if mv.kind == MoveKind::Pass || mv.from == NONE {
            return f.kinds == 0 && !f.captures_only && !f.forward_only && f.near.is_none();
        }
        let code = pos.board[mv.from as usize];
        if code == 0 {
            return false;
        }
        (f.kinds == 0 || f.kinds & (1u64 << piece::kind(code).0) != 0)
            && (!f.captures_only || mv.is_capture())
            && (!f.forward_only || {
                let g = &self.rules.geometry;
                mv.to().is_some_and(|t| {
                    let r0 = g.coords(crate::Cell(mv.from)).1 as i32;
                    let r1 = g.coords(crate::Cell(t)).1 as i32;
                    (r1 - r0) * self.rules.forward[piece::owner(code)] as i32 > 0
                })
            })
            && f.near.as_ref().is_none_or(|n| {
                let Some(to) = mv.to() else { return false };
                let enemy = piece::owner(code).other();
                let is_enemy = |c: &u16| {
                    let x = pos.board[*c as usize];
                    x != 0 && piece::owner(x) == enemy
                };
                n.adjacent.get(to).iter().any(is_enemy) || n.file.as_ref().is_some_and(|t| t.get(to).iter().any(is_enemy))
            })
    }

    /// Whether playing `mv` in `pos` calls the `after_move` hook (for `trace`).
    pub fn after_move_runs(&self, pos: &Position, mv: &Move) -> bool {
        let listed = pos.cont.as_ref().is_some_and(|c| c.moves.contains(mv));
        self.after_move.as_ref().is_some_and(|f| listed || self.hook_applies(f, pos, mv))
    }

    /// The legal moves of `pos` (empty when the game is over).
    ///
    /// # Errors
    /// A script hook failed.
    pub fn legal_moves(&self, pos: &mut Position, out: &mut MoveList) -> Result<(), ScriptError> {
        out.clear();
        if pos.result.is_some() {
            return Ok(());
        }
        if let Some(c) = &pos.cont {
            out.extend_from_slice(&c.moves);
            if !c.normal {
                return Ok(());
            }
        }
        let start = out.len();
        if self.allow_move.is_none() && !self.generate {
            movegen::normal_moves(&self.rules, pos, out);
        } else {
            self.filtered_moves(pos, out, &mut Vec::new())?;
        }
        if pos.cont.is_some() && start > 0 {
            movegen::dedup(out);
        }
        if out.is_empty()
            && let Some((_, NoMoves::Pass)) = self.rules.no_moves_rule()
        {
            out.push(Move::PASS);
        }
        Ok(())
    }

    /// Normal moves with hooks: all pseudo-legal moves, script additions, the `allow_move`
    /// filter, then the capture policy. Refused moves and their reasons go to `refused`.
    fn filtered_moves(&self, pos: &mut Position, out: &mut MoveList, refused: &mut Vec<(Move, String)>) -> Result<(), ScriptError> {
        let start = out.len();
        let side = pos.side;
        movegen::captures(&self.rules, &mut pos.board, side, out);
        movegen::quiet_moves(&self.rules, pos, side, out);
        if self.generate
            && let Some(s) = &self.script
        {
            let extra = s.generate_moves(pos, &self.rules)?;
            out.extend(extra);
        }
        if let (Some(f), Some(s)) = (&self.allow_move, &self.script) {
            let mut i = start;
            while i < out.len() {
                let m = out[i];
                if self.hook_applies(f, pos, &m) {
                    let map = s.move_map(&self.rules, pos, &m, &[]);
                    let doing = format!("while checking {}", m.text(&self.rules.geometry));
                    if let Some(reason) = s.allow_move(pos, map, &doing)? {
                        refused.push((m, reason));
                        out.remove(i);
                        continue;
                    }
                }
                i += 1;
            }
        }
        movegen::finish(&self.rules, out, start);
        Ok(())
    }

    /// Plays a move known to be legal: the kernel's part, hooks, then end conditions.
    ///
    /// # Errors
    /// A script hook failed; the position is then as it was before the move.
    pub fn make(&self, pos: &mut Position, mv: &Move) -> Result<(), ScriptError> {
        let rules = &*self.rules;
        let decider = pos.side;
        // A move a continuation lists always calls the hook; a normal move follows the filter.
        let listed = pos.cont.as_ref().is_some_and(|c| c.moves.contains(mv));
        let hook = self.after_move.as_ref().filter(|f| listed || self.hook_applies(f, pos, mv)).is_some();
        let mut captured_kinds = Vec::new();
        if hook {
            for v in mv.victims() {
                let c = pos.board[v as usize];
                if c != 0 {
                    captured_kinds.push(rules.kind(piece::kind(c)).name.clone());
                }
            }
        }
        let map = hook.then(|| self.script.as_ref().map(|s| s.move_map(rules, pos, mv, &captured_kinds))).flatten();
        let fx = pos.make_kernel(rules, mv);
        if let (Some(map), Some(s)) = (map, &self.script) {
            let doing = format!("while playing {}", mv.text(&rules.geometry));
            if let Err(e) = s.after_move(pos, map, &doing) {
                pos.undo();
                return Err(e);
            }
        }
        if self.outcome_hook
            && pos.result.is_none()
            && let Some(s) = &self.script
            && let Err(e) = s.outcome(pos)
        {
            pos.undo();
            return Err(e);
        }
        if rules.end_checks && pos.result.is_none() {
            pos.result = self.end_conditions(pos, &fx, decider);
        }
        if rules.repetition {
            pos.record();
            if pos.result.is_none() {
                for e in &rules.ends {
                    if let EndKind::Repetition { count, result } = e.kind
                        && pos.repetitions() >= count as usize
                    {
                        let mover = decider;
                        pos.result = Some(match result {
                            RepetitionResult::Loss => Outcome::win(mover.other(), e.reason.as_str()),
                            RepetitionResult::Draw => Outcome::draw(e.reason.as_str()),
                        });
                        break;
                    }
                }
            }
        }
        if pos.result.is_none() && rules.move_limit > 0 && pos.ply >= rules.move_limit {
            pos.result = Some(Outcome::draw("move limit"));
        }
        Ok(())
    }

    fn end_conditions(&self, pos: &Position, fx: &crate::state::MoveEffects, mover: crate::Player) -> Option<Outcome> {
        let rules = &*self.rules;
        for e in &rules.ends {
            match &e.kind {
                EndKind::RoyalCaptured => {
                    if let Some(victim) = fx.royal_victim {
                        return Some(Outcome::win(victim.other(), e.reason.as_str()));
                    }
                }
                EndKind::RoyalLeftBoard => {
                    if let Some(owner) = fx.royal_left {
                        return Some(Outcome::win(owner.other(), e.reason.as_str()));
                    }
                }
                EndKind::ZoneFilled(cells) => {
                    for p in [mover, mover.other()] {
                        let z = &cells[p];
                        if !z.is_empty() && z.iter().all(|&c| pos.board[c as usize] != 0 && piece::owner(pos.board[c as usize]) == p) {
                            return Some(Outcome::win(p, e.reason.as_str()));
                        }
                    }
                }
                EndKind::PiecesAtMost { count, win } => {
                    for p in [mover.other(), mover] {
                        if (pos.counts[p] as i64) <= *count {
                            return Some(Outcome::win(if *win { p } else { p.other() }, e.reason.as_str()));
                        }
                    }
                }
                EndKind::NoMoves(_) | EndKind::Repetition { .. } => {}
            }
        }
        None
    }

    /// Undoes the last move.
    pub fn undo(&self, pos: &mut Position) {
        pos.undo();
    }

    /// The result of `pos`: a declared result, or what having no legal move means.
    ///
    /// # Errors
    /// A script hook failed while listing moves.
    pub fn outcome(&self, pos: &mut Position) -> Result<Option<Outcome>, ScriptError> {
        if let Some(r) = &pos.result {
            return Ok(Some(r.clone()));
        }
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves)?;
        if !moves.is_empty() {
            return Ok(None);
        }
        let (reason, rule) = match self.rules.no_moves_rule() {
            Some((e, n)) => (e.reason.as_str(), n),
            None => ("no moves", NoMoves::Loss),
        };
        Ok(Some(match rule {
            NoMoves::Loss => Outcome::win(pos.side.other(), reason),
            NoMoves::Draw | NoMoves::Pass => Outcome::draw(reason),
        }))
    }

    /// Finds the legal move a text names, or says why there is none.
    ///
    /// # Errors
    /// Unparsable text or an illegal move, with the reason; a failing hook.
    pub fn find_move(&self, pos: &mut Position, text: &str) -> Result<Move, PlayError> {
        let mv = Move::parse(text, &self.rules.geometry).map_err(PlayError::Illegal)?;
        let mut legal = Vec::new();
        self.legal_moves(pos, &mut legal)?;
        if let Some(m) = legal.iter().find(|m| **m == mv) {
            return Ok(*m);
        }
        Err(PlayError::Illegal(self.explain_move(pos, &mv, &legal)?))
    }

    /// Parses and plays a move, or says why it is not legal (the position is then unchanged).
    ///
    /// # Errors
    /// See [`find_move`](Self::find_move) and [`make`](Self::make).
    pub fn play(&self, pos: &mut Position, text: &str) -> Result<Move, PlayError> {
        let m = self.find_move(pos, text)?;
        self.make(pos, &m)?;
        Ok(m)
    }

    /// Why `mv` is not legal in `pos`.
    ///
    /// # Errors
    /// A failing hook.
    pub fn explain_move(&self, pos: &mut Position, mv: &Move, legal: &[Move]) -> Result<String, ScriptError> {
        if let Some(r) = &pos.result {
            return Ok(format!("the game is over ({})", r.describe(&self.rules.player_names)));
        }
        let mut pseudo = Vec::new();
        let mut refused = Vec::new();
        if pos.cont.as_ref().is_none_or(|c| c.normal) {
            let side = pos.side;
            movegen::captures(&self.rules, &mut pos.board, side, &mut pseudo);
            movegen::quiet_moves(&self.rules, pos, side, &mut pseudo);
            if self.allow_move.is_some() || self.generate {
                let mut tmp = Vec::new();
                self.filtered_moves(pos, &mut tmp, &mut refused)?;
            }
        }
        Ok(movegen::explain(&self.rules, pos, mv, legal, &pseudo, &refused))
    }

    /// Plays a list of moves from `pos`; on the first bad one says `move N (text): reason`.
    ///
    /// # Errors
    /// The first move that cannot be played, with its index from 1; the position is left after
    /// the moves before it.
    pub fn play_all(&self, pos: &mut Position, moves: &[String]) -> Result<(), String> {
        for (i, t) in moves.iter().enumerate() {
            self.play(pos, t).map_err(|e| format!("move {} ({}): {}", i + 1, t, e))?;
        }
        Ok(())
    }

    /// Takes what scripts printed since the last call.
    pub fn take_output(&self) -> Vec<String> {
        self.script.as_ref().map(|s| s.take_output()).unwrap_or_default()
    }

    /// The resolved variant as TOML with comments saying where each section came from.
    pub fn resolved_text(&self) -> String {
        crate::render::resolved(self)
    }
}
