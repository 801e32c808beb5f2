//! A machine player that searches with the evaluation of another variant file of the same game:
//! `ENGINE@eval=FILE` (`ab:d3@eval=/tmp/lielow-tuned`). FILE is a variant as every command takes
//! one (a folder, a `.toml` file or a name) whose rules and script are the game's own; only its
//! `[ai]` section (`[ai.eval]` values and weights, `[ai] nodes`) may differ. So the arena can
//! pit two evaluations of one game against each other (`tune`'s weights against the defaults)
//! with nothing else changed: the same kernel lists and makes the moves for both.
//!
//! FILE is loaded once per game variant (with the game's option settings) and kept for the
//! run; [`prepare`] loads and checks it before any game is played, so a wrong file is a usage
//! error rather than a lost game.

use super::Engine;
use crate::rules::{EvalModel, Ruleset};
use crate::variant::Variant;
use std::sync::{Arc, Mutex};

/// `ENGINE@eval=FILE` as written: the engine (alpha-beta or MCTS) and the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvaluatedSpec {
    pub(crate) engine: Engine,
    pub(crate) file: String,
}

/// An [`EvaluatedSpec`] held for the whole run, so that [`Engine`] stays `Copy` (as
/// [`super::engine::External`] is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluated(&'static EvaluatedSpec);

/// The variants loaded for evaluated engines: (the game's rules, the spec, the variant of FILE).
/// The game's rules are kept alive here, so that their address names them for the run.
type Loaded = Vec<(Arc<Ruleset>, &'static EvaluatedSpec, &'static Variant)>;
static LOADED: Mutex<Loaded> = Mutex::new(Vec::new());

/// The one stored value equal to `spec` in `store`, stored (for the whole run) if it is new: an
/// engine's spec becomes a `Copy` handle that compares by value.
pub(crate) fn intern<T: PartialEq + 'static>(store: &std::sync::Mutex<Vec<&'static T>>, spec: T) -> &'static T {
    let mut store = store.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = store.iter().find(|s| ***s == spec) {
        return s;
    }
    let s: &'static T = Box::leak(Box::new(spec));
    store.push(s);
    s
}

impl Evaluated {
    /// The stored spec equal to `spec`, stored now if it is new.
    pub(crate) fn intern(spec: EvaluatedSpec) -> Evaluated {
        static STORE: Mutex<Vec<&'static EvaluatedSpec>> = Mutex::new(Vec::new());
        Evaluated(intern(&STORE, spec))
    }

    pub(crate) fn spec(self) -> &'static EvaluatedSpec {
        self.0
    }

    /// The variant of FILE for games of `game`: loaded with the game's option settings the first
    /// time, and checked to have the same rules and script.
    ///
    /// # Errors
    /// FILE does not load, or its rules or script are not the game's (the message says which).
    pub(crate) fn variant_for(self, game: &Variant) -> Result<&'static Variant, String> {
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, v)) = loaded.iter().find(|(r, s, _)| Arc::ptr_eq(r, &game.rules) && std::ptr::eq(*s, self.0)) {
            return Ok(v);
        }
        let file = &self.0.file;
        let v = Variant::load(file, &game.overrides).map_err(|e| format!("@eval={file}: {}", e.render(false)))?;
        if let Some(why) = differs(game, &v) {
            return Err(format!(
                "@eval={file}: {why}; only its [ai] section (the evaluation, the node budget) may differ from {}'s",
                game.name()
            ));
        }
        let v: &'static Variant = Box::leak(Box::new(v));
        loaded.push((game.rules.clone(), self.0, v));
        Ok(v)
    }
}

/// Why `other` is not the same game as `game` (`None`: it is, [`EvalModel`] aside).
fn differs(game: &Variant, other: &Variant) -> Option<&'static str> {
    // The rules as data, with what only names or scores them left out (a copy in a folder of
    // another name, without a `name` key, is named after its folder).
    let bare = |r: &Ruleset| {
        let r = Ruleset { eval: EvalModel::default(), name: String::new(), title: String::new(), description: String::new(), ..r.clone() };
        format!("{r:?}")
    };
    if bare(&game.rules) != bare(&other.rules) {
        return Some("its rules are not the game's");
    }
    let script = |v: &Variant| v.script.as_ref().map(|s| s.file.text.clone());
    if script(game) != script(other) {
        return Some("its script is not the game's");
    }
    None
}

/// Loads and checks, for games of `v`, the file of an evaluated engine (other engines need
/// nothing): run before the first game, so that a wrong file stops the command at once.
///
/// # Errors
/// As [`Evaluated::variant_for`].
pub(crate) fn prepare(v: &Variant, e: Engine) -> Result<(), String> {
    match e {
        Engine::Evaluated(x) => x.variant_for(v).map(|_| ()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_must_be_the_same_game() {
        let game = Variant::load("lielow", &[]).unwrap();
        let e = |file: &str| match Engine::parse(&format!("ab:d1@eval={file}")).unwrap() {
            Engine::Evaluated(x) => x,
            other => panic!("{other:?}"),
        };
        // The same file is the same game.
        assert!(std::ptr::eq(
            e("lielow").variant_for(&game).unwrap().rules.as_ref(),
            e("lielow").variant_for(&game).unwrap().rules.as_ref()
        ));
        // Another game, or a file that is not there, is refused with the reason.
        let err = e("checkers").variant_for(&game).map(|_| ()).unwrap_err();
        assert!(err.contains("its rules are not the game's"), "{err}");
        assert!(e("no/such/dir").variant_for(&game).is_err());
        // Under another option setting the file is loaded with the game's options.
        let ludii = game.with_options(&[("off_board".into(), "one_beyond".into())]).unwrap();
        let v = e("lielow").variant_for(&ludii).unwrap();
        assert_eq!(v.overrides, ludii.overrides);
    }
}
