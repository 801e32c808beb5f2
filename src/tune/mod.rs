//! `boardlab tune VARIANT`: the evaluation's numbers (`[ai.eval]` values, weights and points) fitted to
//! the results of self-play games by Texel's method, so that a new game gets a fair evaluation
//! without tuning by hand.
//!
//! 1. [`games`]: seeded games of an engine against itself, with random openings; their quiet
//!    positions, each labelled with its game's result for the player to decide (every tenth
//!    game held out, to measure the fit).
//! 2. [`features`]: each position read once, so that its evaluation under any numbers is a few
//!    table look-ups in the model the loader builds from those numbers.
//! 3. [`fit`]: K for `sigmoid(K·eval)` with the numbers as they are, then a local search over the
//!    values of the kinds, the weights of the terms that matter in this game and a distance
//!    attribute's points per value, each kept to what a variant file can hold.
//! 4. [`write`]: the numbers as an `[ai.eval]` section to paste, or written into the variant's
//!    file (atomically, the rest of the file kept; checked by loading it again).
//!
//! Every count has a limit, a progress line shows on a terminal, Ctrl-C stops the games (the fit
//! then uses those finished) or the fit (keeping the best numbers so far), and the same seed gives
//! the same numbers whatever the number of threads.

mod features;
mod fit;
mod games;
mod write;

use crate::rules::Term;
use crate::variant::{Origin, Variant};
use fit::{Numbers, Param};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

pub(crate) use games::Plan;

/// The most games `tune` plays.
pub(crate) const MAX_GAMES: u64 = 100_000;
/// The most positions it reads.
pub(crate) const MAX_POSITIONS: usize = 5_000_000;
/// The most sweeps of the local search.
pub(crate) const MAX_SWEEPS: u32 = 100_000;

/// What to do.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub(crate) plan: Plan,
    /// Sweeps of the local search at most.
    pub(crate) sweeps: u32,
    /// Kinds and terms whose numbers stay as they are (by name).
    pub(crate) keep: Vec<String>,
    /// The kind whose value is the numbers' scale and stays (`--unit`): `None` for the kind with
    /// the most pieces at the start, `Some("none")` for no unit (every value is fitted).
    pub(crate) unit: Option<String>,
}

/// Why tuning could not be done.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TuneError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Search(#[from] crate::ai::SearchError),
    #[error(transparent)]
    Script(#[from] crate::script::ScriptError),
    /// The variant's file cannot take the numbers (built in, read-only, not TOML…).
    #[error("{0}")]
    Write(String),
    /// The games say nothing the evaluation can learn from.
    #[error("{0}")]
    NoSignal(String),
}

/// A parameter with its name, and its number before and after.
#[derive(Clone, Debug)]
pub(crate) struct Change {
    pub(crate) param: Param,
    pub(crate) name: String,
    pub(crate) was: f64,
    pub(crate) now: f64,
}

/// What tuning found.
#[derive(Clone, Debug)]
pub(crate) struct Tuning {
    pub(crate) variant: String,
    pub(crate) plan: Plan,
    /// The unit's name and value (see [`unit`]).
    pub(crate) unit: Option<(String, i32)>,
    pub(crate) games: u64,
    pub(crate) seen: u64,
    /// Positions fitted, and held out.
    pub(crate) positions: (usize, usize),
    pub(crate) k: f64,
    pub(crate) changes: Vec<Change>,
    /// Errors before and after: (fitted, held out).
    pub(crate) before: (f64, f64),
    pub(crate) after: (f64, f64),
    pub(crate) fitted: fit::Fitted,
    pub(crate) games_interrupted: bool,
    pub(crate) seconds: f64,
    /// The `[ai.eval]` to write: the file's own entries with the fitted numbers.
    pub(crate) entries: write::Entries,
}

impl Tuning {
    /// Whether Ctrl-C cut the games or the fit short (then nothing is written).
    pub(crate) fn interrupted(&self) -> bool {
        self.games_interrupted || self.fitted.interrupted
    }
}

/// The parameters the fit moves: the values of kinds whose value changes some position's
/// evaluation (where material counts at all), and the weights of the terms this game measures
/// (material aside: the values are its scale); less those `keep` names.
///
/// # Errors
/// A name in `keep` that is neither a kind nor a term.
fn parameters(v: &Variant, data: &features::Data, start: &Numbers, keep: &[String]) -> Result<Vec<Param>, TuneError> {
    check_names(v, keep)?;
    let base = fit::evals(data, &start.model(&v.rules));
    Ok(fitted_params(v, data, start, keep, &base))
}

/// Every name in `keep` is a kind or a term of `v`.
///
/// # Errors
/// One is neither.
fn check_names(v: &Variant, keep: &[String]) -> Result<(), TuneError> {
    let r = &v.rules;
    for name in keep {
        if r.kind_by_name(name).is_none() && !Term::ALL.iter().any(|t| t.name() == name) {
            let kinds: Vec<&str> = r.kinds.iter().map(|k| k.name.as_str()).collect();
            let terms: Vec<&str> = Term::ALL.iter().map(|t| t.name()).collect();
            return Err(TuneError::Usage(format!(
                "--keep {name}: not a piece kind nor an evaluation term of {} (kinds: {}; terms: {})",
                v.name(),
                kinds.join(", "),
                terms.join(", ")
            )));
        }
    }
    Ok(())
}

/// The parameters the fit moves (see [`parameters`]).
fn fitted_params(v: &Variant, data: &features::Data, start: &Numbers, keep: &[String], base: &[f64]) -> Vec<Param> {
    let r = &v.rules;
    let matters = |n: &Numbers| fit::evals(data, &n.model(r)) != *base;
    let mut params = Vec::new();
    if start.weights[Term::Material.index()] > 0.0 {
        for (k, kind) in r.kinds.iter().enumerate() {
            if !keep.contains(&kind.name) && matters(&start.moved(Param::Value(k), 50.0)) {
                params.push(Param::Value(k));
            }
        }
    }
    // The attributes term's points, each value of the attribute but the one pieces start with
    // (its points are the kind's value's); where they are fitted, the term's weight (which
    // only scales them) stays.
    let mut points = Vec::new();
    if !keep.iter().any(|k| k == Term::Attributes.name()) {
        for (k, table) in start.points.iter().enumerate() {
            let (Some(table), Some(start_at)) = (table, start_value(r, k)) else { continue };
            for i in (0..table.len()).filter(|&i| i != start_at) {
                if matters(&start.moved(Param::Points(k, i), 50.0)) {
                    points.push(Param::Points(k, i));
                }
            }
        }
    }
    for t in Term::ALL.into_iter().filter(|&t| t != Term::Material && !keep.iter().any(|k| k == t.name())) {
        if (t != Term::Attributes || points.is_empty()) && matters(&start.moved(Param::Weight(t), 0.5)) {
            params.push(Param::Weight(t));
        }
    }
    params.extend(points);
    params
}

/// The value kind `k`'s pieces start with of the attribute that sets their move distance.
fn start_value(r: &crate::rules::Ruleset, k: usize) -> Option<usize> {
    let code = crate::piece::PieceCode::new(crate::piece::KindId(k as u8), crate::piece::Player::FIRST);
    let (slot, _) = r.eval.levels[code.index()].as_ref()?;
    let v = r.kinds[k].attributes.iter().find(|(s, _)| s == slot).map_or(1, |&(_, v)| v);
    usize::try_from(v).ok()
}

/// The unit: the kind whose value stays as it is, as Texel's tuners keep the pawn at 100. K is
/// fitted once with the numbers as they were, so the unit holds the evaluation to its scale
/// (where the search's fixed margins, a draw's contempt and delta pruning's two pieces, were
/// set) and the fit moves the other numbers against it. By default the kind with the most
/// pieces at the start (of those with a value; the first on a tie).
///
/// # Errors
/// `--unit` names no kind of the variant.
fn unit(v: &Variant, asked: Option<&str>) -> Result<Option<usize>, TuneError> {
    let r = &v.rules;
    match asked {
        Some("none") => Ok(None),
        Some(name) => r.kind_by_name(name).map(|k| Some(k.0 as usize)).ok_or_else(|| {
            let kinds: Vec<&str> = r.kinds.iter().map(|k| k.name.as_str()).collect();
            TuneError::Usage(format!("--unit {name}: not a piece kind of {} (kinds: {}; or none)", v.name(), kinds.join(", ")))
        }),
        None => {
            let start = v.start();
            let count = |k: usize| {
                crate::piece::Player::both()
                    .map(|p| start.count_code(crate::piece::PieceCode::new(crate::piece::KindId(k as u8), p)))
                    .iter()
                    .sum::<u32>()
            };
            let mut best: Option<(u32, usize)> = None;
            for k in (0..r.kinds.len()).filter(|&k| r.eval.values[k] > 0 && count(k) > 0) {
                if best.is_none_or(|(n, _)| count(k) > n) {
                    best = Some((count(k), k));
                }
            }
            Ok(best.map(|(_, k)| k))
        }
    }
}

/// A parameter's name as `[ai.eval]` writes it (`value stack`, `weight mobility`).
fn param_name(v: &Variant, p: Param) -> String {
    match p {
        Param::Value(k) => format!("value {}", v.rules.kinds[k].name),
        Param::Weight(t) => format!("weight {}", t.name()),
        Param::Points(k, i) => format!("points {} at {i}", v.rules.kinds[k].name),
    }
}

/// Tunes `v` (loaded with the options to tune under); `report` hears how far it is.
///
/// # Errors
/// No position to learn from, no number to fit, a `--keep` name unknown, or a script hook failed.
pub(crate) fn tune(v: &Variant, cfg: &Config, report: &mut dyn FnMut(&str)) -> Result<Tuning, TuneError> {
    let t0 = Instant::now();
    let r = &v.rules;
    let start = Numbers::of(&r.eval);
    let ones = Numbers { weights: [1.0; Term::COUNT], ..start.clone() }.model(r);
    // Names checked before the games, so that a typo costs nothing.
    let unit = unit(v, cfg.unit.as_deref())?;
    let mut keep = cfg.keep.clone();
    keep.extend(unit.map(|k| r.kinds[k].name.clone()));
    check_names(v, &keep)?;
    let plan = &cfg.plan;
    let played = games::play(v, &ones, plan, &mut |g, n| {
        report(&format!("tune {}: {} of {} games played, {} positions", v.name(), g, plan.games, crate::progress::thousands(n as u64)))
    })?;
    // A Ctrl-C that stopped the games lets the fit run on what they gave.
    crate::interrupt::clear();
    let data = &played.data;
    let held = data.held_out.iter().filter(|&&h| h).count();
    if data.len() - held == 0 {
        let why = format!("no quiet position to fit in {} games ({} positions seen after the openings)", played.games, played.seen);
        return Err(TuneError::Usage(format!("{why}: play more games (--games), or fewer random plies")));
    }
    let params = parameters(v, data, &start, &keep)?;
    if params.is_empty() {
        return Err(TuneError::Usage(format!(
            "{}: no value or weight changes the evaluation of these positions: nothing to fit",
            v.name()
        )));
    }
    let before = fit::evals(data, &r.eval);
    let k = fit::fit_k(data, &before);
    if k <= fit::K_FLOOR {
        return Err(TuneError::NoSignal(format!(
            "{}: the evaluation as it is does not predict the results of these {} games (K ≈ 0: who wins does not follow its sign), so there is nothing to fit from; try another --engine or more --random-plies",
            v.name(),
            played.games
        )));
    }
    let err_before = (fit::error(data, &before, k, false), fit::error(data, &before, k, true));
    let fitted = fit::local_search(r, data, k, (&start, &params), cfg.sweeps, &mut |s, e| {
        report(&format!("tune {}: fitting {} numbers to {} positions, sweep {s}, error {e:.5}", v.name(), params.len(), data.len() - held))
    });
    let after = fit::evals(data, &fitted.numbers.model(r));
    let err_after = (fit::error(data, &after, k, false), fit::error(data, &after, k, true));
    let changes =
        params.iter().map(|&p| Change { param: p, name: param_name(v, p), was: start.get(p), now: fitted.numbers.get(p) }).collect();
    Ok(Tuning {
        variant: v.name().to_string(),
        plan: *plan,
        unit: unit.map(|k| (r.kinds[k].name.clone(), start.values[k])),
        games: played.games,
        seen: played.seen,
        positions: (data.len() - held, held),
        k,
        entries: entries(v, &fitted.numbers, &params),
        changes,
        before: err_before,
        after: err_after,
        fitted,
        games_interrupted: played.interrupted,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// The `[ai.eval]` to write: the entries the variant's files already give, with the fitted
/// numbers of `params` set.
fn entries(v: &Variant, n: &Numbers, params: &[Param]) -> write::Entries {
    let mut e = write::Entries::default();
    if let Some(ai) = &v.merged.ai {
        if let Some(raw) = &ai.val.eval {
            e.values = raw.values.iter().map(|(k, x)| (k.get_ref().clone(), *x.get_ref())).collect();
            e.weights = raw.weights.iter().map(|(k, x)| (k.get_ref().clone(), *x.get_ref())).collect();
            e.points = raw.attributes.iter().map(|(k, x)| (k.get_ref().clone(), x.get_ref().clone())).collect();
        }
        // The file written is the most derived; an `[ai]` from a base is replaced whole by its.
        if ai.file + 1 != v.merged.files.len() {
            e.nodes = ai.val.nodes.as_ref().map(|x| *x.get_ref());
        }
    }
    for &p in params {
        match p {
            Param::Value(k) => put(&mut e.values, &v.rules.kinds[k].name, n.values[k] as i64),
            Param::Weight(t) => put(&mut e.weights, t.name(), n.weights[t.index()]),
            Param::Points(k, _) => {
                let table = n.points[k].iter().flatten().map(|&x| i64::from(x)).collect();
                put(&mut e.points, &v.rules.kinds[k].name, table);
            }
        }
    }
    e
}

fn put<T>(list: &mut Vec<(String, T)>, key: &str, x: T) {
    match list.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = x,
        None => list.push((key.to_string(), x)),
    }
}

/// A number as the table shows it: values whole, weights to the thousandth.
fn number(p: Param, x: f64) -> String {
    match p {
        Param::Value(_) | Param::Points(..) => format!("{x:.0}"),
        Param::Weight(_) => format!("{x:.3}"),
    }
}

impl Tuning {
    /// The report: what was played, the numbers found, the errors, and the section to paste.
    pub(crate) fn text(&self) -> String {
        let p = &self.plan;
        let mut out = format!(
            "{}: tuned on {} games of {} against itself ({} random plies, seed {}): {} quiet positions of {} ({} fitted, {} held out), {:.1} s\n",
            self.variant,
            self.games,
            p.engine,
            p.random_plies,
            p.seed,
            crate::progress::thousands((self.positions.0 + self.positions.1) as u64),
            crate::progress::thousands(self.seen),
            crate::progress::thousands(self.positions.0 as u64),
            crate::progress::thousands(self.positions.1 as u64),
            self.seconds
        );
        if self.games_interrupted {
            out.push_str("(interrupted: the games finished before Ctrl-C only)\n");
        }
        let _ = writeln!(out, "K = {:.3e} per unit (result ≈ sigmoid(K × evaluation), fitted with the numbers as they were)", self.k);
        if let Some((name, value)) = &self.unit {
            let _ = writeln!(out, "unit: {name} = {value} (held: the scale of the other numbers; --unit none fits it too)");
        }
        let _ = writeln!(out, "{:<24} {:>10} {:>10}", "number", "was", "now");
        for c in &self.changes {
            let _ = writeln!(out, "{:<24} {:>10} {:>10}", c.name, number(c.param, c.was), number(c.param, c.now));
        }
        let end = match (self.fitted.interrupted, self.fitted.converged) {
            (true, _) => "stopped by Ctrl-C",
            (_, true) => "converged",
            _ => "stopped at the sweep limit",
        };
        let _ = writeln!(out, "mean squared error       {:>10} {:>10}  ({} sweeps, {end})", "before", "after", self.fitted.sweeps);
        let _ = writeln!(out, "  fitted positions       {:>10.5} {:>10.5}", self.before.0, self.after.0);
        if self.positions.1 > 0 {
            let _ = writeln!(out, "  held-out positions     {:>10.5} {:>10.5}", self.before.1, self.after.1);
        } else {
            out.push_str("  held-out positions              -          -  (none: every tenth game is held out)\n");
        }
        out.push('\n');
        out.push_str(&write::snippet(&self.entries));
        out
    }
}

/// The variant file `--write` changes: the most derived file of `v`, on disk.
///
/// # Errors
/// A variant built into boardlab.
fn file_of(v: &Variant) -> Result<PathBuf, TuneError> {
    match &v.origin {
        Origin::Shipped(name) => Err(TuneError::Write(format!(
            "{name} is built into boardlab and cannot be written: copy it first (`boardlab new my-{name} --from {name}`, or copy its folder) and tune the copy"
        ))),
        Origin::Disk(dir) => {
            let spec = std::path::Path::new(&v.spec);
            Ok(if v.spec.ends_with(".toml") && spec.is_file() { spec.to_path_buf() } else { dir.join("variant.toml") })
        }
    }
}

/// Writes the tuned numbers into `v`'s file (see [`write`]): refused for a variant built in or
/// a read-only file; written atomically; then the file is loaded again and must give the fitted
/// numbers, or the old text is put back. Returns the file written.
///
/// # Errors
/// As said, or the file cannot be read or written.
pub(crate) fn write_into(v: &Variant, t: &Tuning) -> Result<PathBuf, TuneError> {
    let path = file_of(v)?;
    let shown = path.display().to_string();
    let fail = |why: String| TuneError::Write(format!("{shown}: {why}"));
    let meta = std::fs::metadata(&path).map_err(|e| fail(e.to_string()))?;
    if meta.permissions().readonly() {
        return Err(fail("the file is read-only: nothing written (make it writable, or tune a copy)".into()));
    }
    let old = crate::files::read_to_string_limited(&path, crate::variant::MAX_FILE_BYTES).map_err(|e| fail(e.to_string()))?;
    let new = write::edit(&old, &t.entries).map_err(fail)?;
    crate::files::write(&path, &new).map_err(|e| fail(e.to_string()))?;
    // The file must now load with the numbers fitted; if not, it is put back as it was.
    let check = Variant::load(&v.spec, &v.overrides).map_err(|e| e.render(false)).and_then(|w| {
        let got = Numbers::of(&w.rules.eval);
        let same = t.changes.iter().all(|c| got.get(c.param) == c.now);
        if same { Ok(()) } else { Err("it loads with other numbers than those fitted".to_string()) }
    });
    if let Err(why) = check {
        crate::files::write(&path, &old).map_err(|e| fail(format!("{e} while putting the old text back")))?;
        return Err(fail(format!("the edited file did not load as fitted ({why}); it is as it was")));
    }
    Ok(path)
}

#[cfg(test)]
use crate::ai::Engine;
#[cfg(test)]
mod tests;
