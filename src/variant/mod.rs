//! A playable variant: its files found and merged along `extends` ([`locate`]), options
//! applied, rules validated, script compiled and its hooks matched with `[hooks]`; the game
//! operations that involve hooks are in [`play`].

mod ko;
mod locate;
mod play;
mod reference;
// Sowing (mancala).
mod sow;

pub use locate::shipped_names;
pub(crate) use locate::{MAX_FILE_BYTES, Origin, SHIPPED, all_variants, read_merged};
pub(crate) use play::{Judged, MoveListError, PlayError};

use crate::rules::validate::{Merged, validate};
use crate::rules::{Hook, HookFilter, HookSetting, LoadError, Ruleset, SourceFile};
use crate::script::Script;
use crate::state::Position;
use std::sync::Arc;

/// A loaded variant: rules for one option assignment, plus its script.
pub struct Variant {
    pub rules: Arc<Ruleset>,
    pub script: Option<Script>,
    pub(crate) merged: Merged,
    pub(crate) origin: Origin,
    /// Where each of `merged.files` lives (a designer's variant may extend a shipped one).
    pub(crate) file_origins: Vec<Origin>,
    /// The name or path it was loaded by.
    pub spec: String,
    pub overrides: Vec<(String, String)>,
    /// The hooks that run (the script defines them and `[hooks]` leaves them on), by [`Hook`].
    hooks: [Option<HookFilter>; Hook::ALL.len()],
    /// Zone display marks for empty cells, smallest zone first (it wins where zones overlap).
    pub(crate) marks: Vec<(String, char)>,
    /// Every shortcut the kernel may take, decided once at load from the rules and the hooks.
    pub(crate) plan: crate::plan::Plan,
    /// The walk of placements on the cell sets, where the plan allows it ([`crate::plan::Plan::places`])
    /// and its tables fit (built once at load; perft and self-play's random players take it).
    place_walk: Option<crate::placewalk::PlaceWalk>,
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
    pub(crate) fn with_options(&self, overrides: &[(String, String)]) -> Result<Variant, LoadError> {
        Variant::build(self.merged.clone(), self.origin.clone(), self.file_origins.clone(), &self.spec, overrides)
    }

    fn build(
        merged: Merged,
        origin: Origin,
        file_origins: Vec<Origin>,
        spec: &str,
        overrides: &[(String, String)],
    ) -> Result<Variant, LoadError> {
        let rules = Arc::new(validate(&merged, overrides)?);
        let script = match &merged.script {
            None => None,
            Some(s) => {
                // The script lives beside the file that named it.
                let file_name = s.val.get_ref();
                let dir = file_origins.get(s.file).cloned().unwrap_or_else(|| origin.clone());
                let (display, text) = dir.read(file_name).ok_or_else(|| {
                    let why = dir.why_unreadable(file_name);
                    LoadError::at(&merged.files[s.file], s.val.span(), format!("cannot read the script `{file_name}`: {why}"), "named here")
                })?;
                Some(Script::compile(SourceFile { name: display, text }, rules.clone())?)
            }
        };
        let hooks = active_hooks(&merged, &rules, script.as_ref())?;
        let marks = zone_marks(&merged, &rules);
        let plan = crate::plan::Plan::of(&rules, &hooks);
        let place_walk = if plan.places { crate::placewalk::PlaceWalk::of(&rules) } else { None };
        Ok(Variant {
            plan,
            place_walk,
            marks,
            file_origins,
            rules,
            script,
            merged,
            origin,
            spec: spec.to_string(),
            overrides: overrides.to_vec(),
            hooks,
        })
    }

    pub fn name(&self) -> &str {
        &self.rules.name
    }

    /// The walk on the cell sets of a game where pieces are only placed, where the plan
    /// chose it and its tables fit (perft and self-play's random players walk it).
    pub(crate) fn place_walk(&self) -> Option<&crate::placewalk::PlaceWalk> {
        self.place_walk.as_ref()
    }

    /// The start position.
    pub fn start(&self) -> Position {
        Position::start(&self.rules)
    }

    /// The filter of a hook that runs, or `None` when it does not.
    pub(crate) fn hook(&self, h: Hook) -> Option<&HookFilter> {
        self.hooks[h as usize].as_ref()
    }

    /// Whether playing a move runs a hook (one whose needs, in the load-time plan, include
    /// ending the game on a move: `after_move`, `outcome`): perft then plays its last ply rather
    /// than counting it, so a hook that fails fails the count.
    pub(crate) fn hooks_after_moves(&self) -> bool {
        self.plan.hooks.ends_on_move
    }
}

/// The hooks that run: those the script defines, unless `[hooks]` turns them off. A hook that
/// `[hooks]` configures but the script does not define is an error.
fn active_hooks(merged: &Merged, rules: &Ruleset, script: Option<&Script>) -> Result<[Option<HookFilter>; Hook::ALL.len()], LoadError> {
    let defined = |h: Hook| script.is_some_and(|s| s.defines(h));
    if let Some(raw) = &merged.hooks {
        for h in Hook::ALL {
            if let Some(x) = h.raw(&raw.val)
                && !defined(h)
            {
                let name = h.name();
                let msg = format!("hook `{name}` is configured but the script defines no `fn {name}`");
                return Err(LoadError::at(&merged.files[raw.file], x.span(), msg, "configured here"));
            }
        }
    }
    Ok(Hook::ALL.map(|h| match rules.hooks.get(h) {
        _ if !defined(h) => None,
        HookSetting::Unmentioned => Some(HookFilter::always()),
        HookSetting::Off => None,
        HookSetting::On(f) if h.per_move() => Some(f.clone()),
        HookSetting::On(_) => Some(HookFilter::always()),
    }))
}

/// Zone display marks for empty cells, smallest zone first.
fn zone_marks(merged: &Merged, rules: &Ruleset) -> Vec<(String, char)> {
    let mut marks: Vec<(usize, String, char)> = Vec::new();
    for (name, z) in &merged.zones {
        if let Some(mk) = &z.val.get_ref().mark {
            let ch = mk.chars().next().unwrap_or('.');
            let size = rules
                .zone_mask(name, crate::piece::Player::FIRST)
                .map_or(0, |m| rules.geometry.cells().filter(|c| rules.geometry.zones_of(c.0).meets(m)).count());
            marks.push((size, name.clone(), ch));
        }
    }
    marks.sort();
    marks.into_iter().map(|(_, n, c)| (n, c)).collect()
}

/// Random games for tests that hold a short path against the legal list over many positions.
#[cfg(test)]
impl Variant {
    /// Plays `games` games of at most `plies` plies from the start, each move picked from the
    /// legal list by a generator seeded with `seed`; `visit` sees every position with its list
    /// before the pick (it may probe the position, and must leave it as it found it).
    pub(crate) fn random_positions(
        &self,
        seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&mut Position, &[crate::notation::Move]),
    ) {
        use rand::RngExt;
        let mut rng = crate::ai::rng(seed);
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut pos = self.start();
            for _ in 0..plies {
                self.legal_moves(&mut pos, &mut moves).unwrap();
                visit(&mut pos, &moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                self.make(&mut pos, &m).unwrap();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loaded_variant_is_shared_between_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Variant>();
        // Basileus's rule of the two basileis is a script hook (allow_move on every basileus
        // move with this option): each thread compiles its own copy on first use, and both
        // count the same tree.
        let v = Variant::load("basileus", &[("king_adjacency".into(), "forbidden".into())]).unwrap();
        let here = crate::perft::perft(&v, &mut v.start(), 3).unwrap();
        let there: Vec<u64> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..2).map(|_| s.spawn(|| crate::perft::perft(&v, &mut v.start(), 3).unwrap())).collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(there, vec![here, here]);
    }

    /// variants/chess after `moves` from its start.
    fn chess_after(moves: &[&str]) -> (Variant, crate::state::Position) {
        let v = Variant::load("variants/chess", &[]).unwrap();
        let mut pos = v.start();
        for t in moves {
            v.play(&mut pos, t).unwrap();
        }
        (v, pos)
    }

    #[test]
    fn check_is_illegal_and_named() {
        // variants/chess: `[rules] check = "illegal"`. After 1. e4 f6 2. Qh5+ black is in check;
        // g7-g6 blocks, Ke8-f7 walks into the queen's line, and moving another piece is refused.
        let (v, mut pos) = chess_after(&["e2-e4", "f7-f6", "d1-h5"]);
        assert!(v.in_check(&pos));
        assert_eq!(crate::render::status(&v, &pos), "black to move, in check");
        let mut legal = Vec::new();
        v.legal_moves(&mut pos, &mut legal).unwrap();
        let texts: Vec<String> = legal.iter().map(|m| m.text(&v.rules.geometry)).collect();
        assert_eq!(texts, ["g7-g6"], "only the block is legal");
        let err = v.play(&mut pos, "e8-f7").unwrap_err().to_string();
        assert!(err.contains("it leaves your king on f7 in check by the queen on h5"), "{err}");
        let err = v.play(&mut pos, "a7-a6").unwrap_err().to_string();
        assert!(err.contains("it leaves your king on e8 in check by the queen on h5"), "{err}");
    }

    #[test]
    fn en_passant_is_open_for_one_move() {
        let (v, mut pos) = chess_after(&["e2-e4", "a7-a6", "e4-e5", "d7-d5"]);
        let g = &v.rules.geometry;
        let cell = |t: &str| g.parse_cell(t).unwrap().0;
        assert_eq!(pos.en_passant(), Some((cell("d6"), cell("d5"))));
        // The position text keeps it, and reads back the same position (hash included).
        let text = pos.to_text(&v.rules);
        assert!(text.contains(" ep=d6/d5"), "{text}");
        let back = crate::state::Position::from_text(&v.rules, &text).unwrap();
        assert_eq!(back.hash(), pos.hash());
        // e5xd6 takes the pawn on d5; undo puts everything back.
        let before = pos.clone();
        let m = v.find_move(&mut pos, "e5xd6").unwrap();
        v.make(&mut pos, &m).unwrap();
        assert!(pos.piece(cell("d5")).is_empty() && !pos.piece(cell("d6")).is_empty());
        assert_eq!(pos.en_passant(), None);
        pos.undo();
        assert_eq!(pos, before);
        // One move later the cell is closed, and `why` says so.
        for t in ["a2-a3", "h7-h6"] {
            v.play(&mut pos, t).unwrap();
        }
        let err = v.play(&mut pos, "e5xd6").unwrap_err().to_string();
        assert!(err.contains("en passant only on the move right after"), "{err}");
        // A single step opens nothing.
        v.play(&mut pos, "b2-b3").unwrap();
        assert_eq!(pos.en_passant(), None);
    }

    #[test]
    fn promotion_is_a_choice() {
        let v = Variant::load("variants/chess", &[]).unwrap();
        // (Black keeps a pawn, so the knight's promotion leaves more than too little to mate.)
        let mut pos = crate::state::Position::from_text(&v.rules, "1n6/P6p/8/8/8/8/8/k6K white").unwrap();
        let err = v.play(&mut pos.clone(), "a7-a8").unwrap_err().to_string();
        assert!(err.contains("a7-a8 promotes: write the kind chosen, a7-a8=Q, a7-a8=R, a7-a8=B, a7-a8=N"), "{err}");
        // White's king on a1 is in check from the rook on h1: promoting does not answer it, and
        // `why` names the check, not the promotion.
        let mut pinned = crate::state::Position::from_text(&v.rules, "1n5k/P7/8/8/8/8/8/K6r white").unwrap();
        let err = v.play(&mut pinned, "a7-a8=Q").unwrap_err().to_string();
        assert!(err.contains("it leaves your king on a1 in check by the rook on h1"), "{err}");
        v.play(&mut pos, "a7xb8=n").unwrap(); // case does not matter
        assert_eq!(pos.to_text(&v.rules), "1N6/7p/8/8/8/8/8/k6K black 1");
    }

    #[test]
    fn checkmate_and_the_pawn_that_only_captures() {
        // Fool's mate: 1. f3 e5 2. g4 Qh4#, black wins by checkmate.
        let (v, mut pos) = chess_after(&["f2-f3", "e7-e5", "g2-g4", "d8-h4"]);
        assert_eq!(pos.result().map(|r| r.describe(&v.rules.player_names)), None, "decided when white looks for a move");
        assert_eq!(v.outcome(&mut pos).unwrap().unwrap().describe(&v.rules.player_names), "black wins: checkmate");
        // A pawn's diagonal is `capture = "only"`: e2-d3 onto an empty cell is not a move, e4xd5
        // onto a pawn is.
        let mut pos = v.start();
        assert!(v.play(&mut pos, "e2-d3").is_err());
        for t in ["e2-e4", "d7-d5", "e4xd5"] {
            v.play(&mut pos, t).unwrap();
        }
    }
}
