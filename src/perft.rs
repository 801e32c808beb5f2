//! Perft: the number of leaf nodes of the move tree to a depth (the last level counted, or
//! with [`perft_made`] every leaf made); and the
//! per-variant perft files (`variants/NAME/perft.txt`).
//!
//! A perft file has one check per line:
//! `DEPTH COUNT [moves=M1,M2,…] [position="TEXT"] [set=name:value,…] [# comment]`.
//! Lines starting with `#` are comments. Write in the comment whether the count was checked by
//! hand or by an independent program, or is a regression value.

use crate::ai::SearchError;
use crate::interrupt;
use crate::movegen::MoveList;
use crate::state::Position;
use crate::variant::{MoveListError, Variant};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The deepest perft boardlab runs (deeper would only overflow the stack, never finish).
pub(crate) const MAX_DEPTH: u32 = 64;

/// A perft depth beyond [`MAX_DEPTH`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("perft depth {0} is too deep; the limit is {MAX_DEPTH}")]
pub(crate) struct TooDeep(pub(crate) u32);

/// Checks a perft depth a person asked for.
///
/// # Errors
/// The depth is over [`MAX_DEPTH`].
pub(crate) fn check_depth(depth: u32) -> Result<u32, TooDeep> {
    if depth > MAX_DEPTH { Err(TooDeep(depth)) } else { Ok(depth) }
}

/// Counts the leaves at `depth`. A finished game is a leaf with no children.
///
/// The last level is counted, not made: every legal move leads to a node that counts 1 at
/// depth 0, finished or not, so the count of the moves is the count of the leaves ("bulk
/// counting", as shakmaty's perft does). [`perft_made`] makes every leaf instead, and so does
/// this where the script has an `after_move` or `outcome` hook: a leaf's hooks cannot change
/// the count, but one that fails must fail it rather than leave a plausible number.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed (checked at every node two or more plies from
/// the leaves, so it costs nothing measurable).
///
/// The tree is walked by the general kernel, its last level counted on the cell sets where the
/// plan allows ([`crate::Variant::count_moves`]); in a game where pieces are only placed, by
/// the walk of placements that self-play's random players take too
/// ([`crate::placewalk::PlaceWalk`]). The count is the same.
pub fn perft(v: &Variant, pos: &mut Position, depth: u32) -> Result<u64, SearchError> {
    perft_walked(v, pos, depth, false)
}

/// [`perft`] with every leaf made and unmade (hooks included; on the walk of placements
/// where [`perft`] takes it): the same count, and a measure of make/undo speed rather than of
/// move generation.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed.
pub fn perft_made(v: &Variant, pos: &mut Position, depth: u32) -> Result<u64, SearchError> {
    perft_walked(v, pos, depth, true)
}

/// [`perft`] (with `made`, [`perft_made`]): on the walk of placements where it applies, else
/// by the general kernel.
fn perft_walked(v: &Variant, pos: &mut Position, depth: u32, made: bool) -> Result<u64, SearchError> {
    match v.place_walk().filter(|w| w.applies(pos, depth)) {
        Some(walk) => Ok(walk.perft(pos, depth, made)?),
        None => perft_general(v, pos, depth, made),
    }
}

/// [`perft`] (with `made`, [`perft_made`]) by the general kernel whatever the rules, as the
/// search, self-play and the REPL use it (`perft --general`): every node a [`Position`], made
/// and undone through [`Variant::make`], its moves listed by the variant; without `made`, the
/// last level counted as the search's mobility counts it ([`Variant::count_moves`], where the
/// plan allows; else the length of its list). Never the walk of placements.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed.
pub fn perft_general(v: &Variant, pos: &mut Position, depth: u32, made: bool) -> Result<u64, SearchError> {
    let mut lists: Vec<MoveList> = (0..=depth).map(|_| Vec::with_capacity(64)).collect();
    perft_inner(v, pos, depth, &mut lists, if made || v.hooks_after_moves() { Leaves::Made } else { Leaves::Counted })
}

/// [`perft`] by the reference mode ([`Variant::reference_moves`]): every node's moves listed
/// through the simplest code, with no shortcut of the plan (no count on the cell sets, no walk
/// of placements), and every leaf made (`perft --reference`). Slow by design: what the
/// shortcuts are held equal to.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed.
pub(crate) fn perft_reference(v: &Variant, pos: &mut Position, depth: u32) -> Result<u64, SearchError> {
    if depth == 0 {
        return Ok(1);
    }
    if depth >= 2 {
        interrupt::check()?;
    }
    let mut list = Vec::new();
    v.reference_moves(pos, &mut list)?;
    let mut n = 0;
    for m in &list {
        v.make(pos, m)?;
        n += perft_reference(v, pos, depth - 1)?;
        pos.undo();
    }
    Ok(n)
}

/// Which perft: every leaf made or the last level counted, and on which kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mode {
    /// Every leaf made ([`perft_made`]).
    pub(crate) made: bool,
    /// The general kernel even where the walk of placements would do ([`perft_general`]).
    pub(crate) general: bool,
    /// The reference mode ([`perft_reference`]): no shortcut, every leaf made.
    pub(crate) reference: bool,
}

/// How [`perft_inner`] reaches the leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaves {
    /// Every leaf made and undone.
    Made,
    /// The last level counted: on the cell sets where the plan allows, else by listing.
    Counted,
}

/// The most threads a perft may split its root moves over.
pub(crate) const MAX_THREADS: usize = 256;

/// [`perft`] (or as `mode` says, [`perft_made`] or [`perft_general`]) with the root moves shared out over `threads`
/// threads, each taking the next unplayed root move (so a big subtree does not leave the others
/// idle for long). The count is the same for any number of threads. When a progress line
/// listens ([`crate::progress`]), the root moves are shared out even to one thread, and this
/// thread reports the root moves done and the leaves counted with their rate.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed (every thread stops).
pub(crate) fn perft_threads(v: &Variant, pos: &Position, depth: u32, mode: Mode, threads: usize) -> Result<u64, SearchError> {
    let threads = threads.clamp(1, MAX_THREADS);
    let run = |pos: &mut Position, depth: u32| match mode {
        Mode { reference: true, .. } => perft_reference(v, pos, depth),
        Mode { made, general: true, .. } => perft_general(v, pos, depth, made),
        Mode { made: true, .. } => perft_made(v, pos, depth),
        Mode { made: false, .. } => perft(v, pos, depth),
    };
    let watched = crate::progress::active();
    if depth < 2 || (threads == 1 && !watched) {
        return run(&mut pos.clone(), depth);
    }
    let mut roots = Vec::new();
    if mode.reference {
        v.reference_moves(&mut pos.clone(), &mut roots)?;
    } else {
        v.legal_moves(&mut pos.clone(), &mut roots)?;
    }
    let next = AtomicUsize::new(0);
    let (done, leaves) = (AtomicUsize::new(0), AtomicU64::new(0));
    let results: Vec<Result<u64, SearchError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(roots.len()))
            .map(|_| {
                let (next, roots, run, done, leaves) = (&next, &roots, &run, &done, &leaves);
                s.spawn(move || {
                    let mut here = pos.clone();
                    let mut n = 0;
                    while let Some(m) = roots.get(next.fetch_add(1, Ordering::Relaxed)) {
                        v.make(&mut here, m)?;
                        let k = run(&mut here, depth - 1)?;
                        here.undo();
                        n += k;
                        leaves.fetch_add(k, Ordering::Relaxed);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(n)
                })
            })
            .collect();
        if watched {
            let start = std::time::Instant::now();
            // Drawn at least once, however quick the count.
            loop {
                let (d, n) = (done.load(Ordering::Relaxed), leaves.load(Ordering::Relaxed));
                let rate = crate::progress::rate(n, "leaves", start);
                crate::progress::report(&format!("perft {depth}: {d} of {} root moves, {rate} (Ctrl-C stops)", roots.len()));
                if handles.iter().all(|h| h.is_finished()) {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        }
        handles.into_iter().map(|h| h.join().expect("a perft thread panicked")).collect()
    });
    results.into_iter().sum()
}

fn perft_inner(v: &Variant, pos: &mut Position, depth: u32, lists: &mut [MoveList], leaves: Leaves) -> Result<u64, SearchError> {
    if depth == 0 {
        return Ok(1);
    }
    if depth >= 2 {
        interrupt::check()?;
    }
    if leaves == Leaves::Counted
        && depth == 1
        && let Some(n) = v.count_moves(pos)
    {
        return Ok(n);
    }
    let (list, rest) = lists.split_first_mut().expect("one list per level");
    v.legal_moves(pos, list)?;
    if leaves == Leaves::Counted && depth == 1 {
        return Ok(list.len() as u64);
    }
    if depth == 1 {
        // Every leaf made and undone, counted here rather than by a call for each.
        for m in list.iter() {
            v.make(pos, m)?;
            pos.undo();
        }
        return Ok(list.len() as u64);
    }
    let mut n = 0;
    for m in list.iter() {
        v.make(pos, m)?;
        n += perft_inner(v, pos, depth - 1, rest, leaves)?;
        pos.undo();
    }
    Ok(n)
}

/// Perft split by first move: (move text, count), sorted by text.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed.
pub(crate) fn divide(v: &Variant, pos: &mut Position, depth: u32) -> Result<Vec<(String, u64)>, SearchError> {
    let mut moves = Vec::new();
    v.legal_moves(pos, &mut moves)?;
    let mut out = Vec::new();
    let (start, mut leaves) = (std::time::Instant::now(), 0);
    for (i, m) in moves.iter().enumerate() {
        crate::progress::report_with(|| {
            let rate = crate::progress::rate(leaves, "leaves", start);
            format!("perft {depth} --divide: {i} of {} root moves, {rate} (Ctrl-C stops)", moves.len())
        });
        v.make(pos, m)?;
        let n = if depth == 0 { 0 } else { perft(v, pos, depth - 1)? };
        pos.undo();
        leaves += n;
        out.push((m.text(&v.rules.geometry), n));
    }
    out.sort();
    Ok(out)
}

/// One line of a perft file.
#[derive(Clone, Debug, PartialEq)]
pub struct PerftCheck {
    pub line: usize,
    pub depth: u32,
    pub count: u64,
    pub moves: Vec<String>,
    pub(crate) position: Option<String>,
    pub options: Vec<(String, String)>,
    pub comment: String,
}

/// Reads a perft file.
///
/// # Errors
/// A line that does not follow the format, with its number.
pub fn parse_file(text: &str) -> Result<Vec<PerftCheck>, FileError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (body, comment) = match line.split_once(" #") {
            Some((b, c)) => (b, c.trim().to_string()),
            None => (line, String::new()),
        };
        let fields = crate::board_text::split_fields(body);
        let bad = |what: &str| FileError { line: i + 1, what: what.to_string() };
        if fields.len() < 2 {
            return Err(bad("expected DEPTH COUNT [moves=…] [position=\"…\"] [set=…]"));
        }
        let depth = fields[0].parse().map_err(|_| bad("DEPTH is not a number"))?;
        let count = fields[1].parse().map_err(|_| bad("COUNT is not a number"))?;
        let mut c = PerftCheck { line: i + 1, depth, count, moves: vec![], position: None, options: vec![], comment };
        for f in &fields[2..] {
            let (k, v) = f.split_once('=').ok_or_else(|| bad(&format!("`{f}` is not key=value", f = crate::files::quote(f))))?;
            match k {
                "moves" => c.moves = v.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect(),
                "position" => c.position = Some(v.trim_matches('"').to_string()),
                "set" => {
                    for kv in v.split(',') {
                        let (a, b) = kv.split_once(':').ok_or_else(|| bad("set is name:value,…"))?;
                        c.options.push((a.to_string(), b.to_string()));
                    }
                }
                _ => return Err(bad(&format!("unknown field `{k}`", k = crate::files::quote(k)))),
            }
        }
        out.push(c);
    }
    Ok(out)
}

/// Runs one check against a variant (loaded by name or path), returning the count found.
///
/// # Errors
/// The variant, position or moves could not be loaded or played.
pub fn run_check(spec: &str, c: &PerftCheck) -> Result<u64, CheckError> {
    let v = Variant::load(spec, &c.options).map_err(|e| CheckError::Load(e.render_plain()))?;
    let mut pos = match &c.position {
        Some(t) => Position::from_text(&v.rules, t).map_err(CheckError::Position)?,
        None => v.start(),
    };
    v.play_all(&mut pos, &c.moves)?;
    Ok(perft(&v, &mut pos, c.depth)?)
}

/// Why a perft check could not be run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CheckError {
    /// The variant does not load (its diagnostic, rendered).
    #[error("{0}")]
    Load(String),
    #[error(transparent)]
    Position(#[from] crate::state::PositionError),
    #[error(transparent)]
    Moves(#[from] MoveListError),
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// A line of a perft file that does not follow the format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct FileError {
    pub(crate) line: usize,
    pub(crate) what: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_and_made_leaves_count_the_same_tree() {
        for (name, depth) in [("checkers", 6), ("pyramida", 3), ("chess", 3)] {
            let v = Variant::load(name, &[]).unwrap();
            let pos = v.start();
            let one = perft(&v, &mut pos.clone(), depth).unwrap();
            let made = Mode { made: true, ..Mode::default() };
            let general = Mode { general: true, ..Mode::default() };
            let reference = Mode { reference: true, ..Mode::default() };
            assert_eq!(perft_threads(&v, &pos, depth, Mode::default(), 2).unwrap(), one, "{name}");
            assert_eq!(perft_threads(&v, &pos, depth, made, 3).unwrap(), one, "{name}");
            assert_eq!(perft_threads(&v, &pos, depth, general, 2).unwrap(), one, "{name}");
            assert_eq!(perft_threads(&v, &pos, depth.min(4), reference, 2).unwrap(), perft(&v, &mut pos.clone(), depth.min(4)).unwrap());
            assert_eq!(perft_threads(&v, &pos, 1, Mode::default(), 2).unwrap(), perft(&v, &mut pos.clone(), 1).unwrap());
        }
    }

    /// English draughts' file with `edits` (text replaced) applied, loaded from a folder of its
    /// own.
    fn checkers_with(edits: &[(&str, &str)]) -> (tempfile::TempDir, Variant) {
        let mut text = include_str!("../variants/checkers/variant.toml").to_string();
        for (from, to) in edits {
            assert!(text.contains(from), "{from} is in checkers' file");
            text = text.replacen(from, to, 1);
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("variant.toml"), text).unwrap();
        let v = Variant::load(dir.path().to_str().unwrap(), &[]).unwrap();
        (dir, v)
    }

    /// The kernel's perft, its last level counted (on the sets where the plan allows) and with
    /// every leaf made (by the plain make where the plan allows), is the reference mode's from
    /// `pos` to `depth`.
    fn kernel_is_reference(v: &Variant, pos: &mut Position, depth: u32, at: &str) {
        let reference = perft_reference(v, pos, depth).unwrap();
        assert_eq!(perft_general(v, pos, depth, false).unwrap(), reference, "{} perft {depth} at {at}", v.name());
        assert_eq!(perft_general(v, pos, depth, true).unwrap(), reference, "{} perft {depth} made at {at}", v.name());
    }

    /// From random positions, the kernel's perft to depth 3 is the reference mode's in draughts
    /// with the capture policies and the promotion the shipped games do not take (optional
    /// captures, chains that may stop or take one piece, pieces taken at once, a man crowned
    /// in mid-chain jumping on as a king), on a 10×10 board (two-word sets), and with nine
    /// piece codes (two more kinds, never set up).
    #[test]
    fn the_kernel_counts_draughts_rules_as_the_reference_does() {
        let policy = "compulsory = true\nchain = \"must_continue\"\nremoval = \"end_of_chain\"";
        for (label, edits) in [
            ("optional, may stop, at once", vec![(policy, "compulsory = false\nchain = \"may_stop\"\nremoval = \"immediate\"")]),
            ("single jumps", vec![(policy, "compulsory = true\nchain = \"single\"")]),
            ("crowned in mid-chain", vec![("ends_chain = true", "ends_chain = false")]),
            (
                "nine codes",
                vec![(
                    "[captures]",
                    "[pieces.scout]\nsymbol = \"S\"\nmoves = [{ step = \"diagonal\" }]\n\n\
                 [pieces.guard]\nsymbol = \"G\"\nmoves = [{ step = \"diagonal\" }]\n\n[captures]",
                )],
            ),
            (
                "10x10",
                vec![
                    ("files = 8\nranks = 8", "files = 10\nranks = 10"),
                    ("mmmm\nmmmm\nmmmm\n4\n4\nMMMM\nMMMM\nMMMM", "mmmmm\nmmmmm\nmmmmm\n5\n5\n5\n5\nMMMMM\nMMMMM\nMMMMM"),
                    ("ranks = [8]", "ranks = [10]"),
                ],
            ),
        ] {
            let (_dir, v) = checkers_with(&edits);
            let mut positions = 0;
            v.random_positions(3, 4, 120, |pos, _| {
                let at = format!("{} ({label})", pos.to_text(&v.rules));
                kernel_is_reference(&v, pos, 3, &at);
                positions += 1;
            });
            assert!(positions > 100, "{label}: only {positions} positions");
        }
    }

    /// Kings scattered among enemy pieces (positions play seldom reaches: long chains that
    /// loop back over their own path): the kernel's perft 1 and 2 are the reference mode's, in
    /// English draughts and with immediate removal.
    #[test]
    fn scattered_kings_count_as_the_reference_does() {
        use rand::RngExt;
        let policy = "compulsory = true\nchain = \"must_continue\"\nremoval = \"end_of_chain\"";
        let (_dir, at_once) = checkers_with(&[(policy, "compulsory = true\nchain = \"must_continue\"\nremoval = \"immediate\"")]);
        let checkers = Variant::load("checkers", &[]).unwrap();
        let mut rng = crate::ai::rng(7);
        for v in [&checkers, &at_once] {
            let mut n = 0;
            for _ in 0..400 {
                // Eight rows of four dark cells, the top row first: white kings, black men
                // and kings, men off the crowning rows.
                let rows: Vec<String> = (0..8)
                    .map(|r| {
                        let (mut row, mut gap) = (String::new(), 0);
                        for _ in 0..4 {
                            let c = match rng.random_range(0..10) {
                                0 => Some('K'),
                                1 | 2 if r > 0 && r < 7 => Some('m'),
                                3 => Some('k'),
                                _ => None,
                            };
                            if let Some(c) = c {
                                if gap > 0 {
                                    row.push_str(&gap.to_string());
                                }
                                row.push(c);
                                gap = 0;
                            } else {
                                gap += 1;
                            }
                        }
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                        }
                        row
                    })
                    .collect();
                let text = format!("{} white 0", rows.join("/"));
                let Ok(mut pos) = Position::from_text(&v.rules, &text) else { continue };
                for depth in 1..=2 {
                    kernel_is_reference(v, &mut pos, depth, &text);
                }
                n += 1;
            }
            assert!(n > 300, "only {n} scattered positions");
        }
    }

    /// From random positions (crowns moving, kings taken and leaving the board, tall stacks),
    /// the kernel's perft is the reference mode's: Lielow under each of its options and all of
    /// them together (its default rules are held so in `plan::tests`, with every shipped game).
    #[test]
    fn the_kernel_counts_lielow_options_as_the_reference_does() {
        let set = |pairs: &[(&str, &str)]| pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let all = [("off_board", "one_beyond"), ("off_board_moves", "per_direction"), ("crown_update", "mover")];
        for options in [set(&all[..1]), set(&all[1..2]), set(&all[2..]), set(&all)] {
            let v = Variant::load("lielow", &options).unwrap();
            let mut positions = 0;
            v.random_positions(5, 30, 150, |pos, _| {
                let at = pos.to_text(&v.rules);
                kernel_is_reference(&v, pos, if positions % 8 == 0 { 3 } else { 2 }, &at);
                positions += 1;
            });
            assert!(positions > 300, "{options:?}: only {positions} positions");
        }
    }

    /// A crown that moves because a rival left the board: White's crowned a1 (level 1) is not
    /// the highest, d4 and h2 (level 3) tie for it; h2 leaving makes d4 the unique highest and
    /// so the king, which Black's d7 then takes (the game ends there). The kernel's perft to
    /// depth 5 is the reference mode's (a1 may move first, so that the highest value the
    /// position keeps is known before h2 leaves).
    #[test]
    fn a_rival_leaving_the_board_passes_the_crown() {
        let v = Variant::load("lielow", &[]).unwrap();
        let pos = Position::from_text(&v.rules, "p[1,1]7/3p[0,3]4/8/8/3P[0,3]4/8/7P[0,3]/P[1,1]7 white 10").unwrap();
        for depth in 1..=5 {
            kernel_is_reference(&v, &mut pos.clone(), depth, "the crown");
        }
        let mut after = pos.clone();
        let m = v.find_move(&mut after, "h2-off").unwrap();
        v.make(&mut after, &m).unwrap();
        assert!(after.to_text(&v.rules).contains("3P[1,3]4"), "d4 is crowned: {}", after.to_text(&v.rules));
    }

    #[test]
    fn divide_sums_to_perft() {
        let v = Variant::load("bivouac", &[]).unwrap();
        let mut pos = v.start();
        let rows = divide(&v, &mut pos, 2).unwrap();
        assert_eq!(rows.len(), 64);
        assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), perft(&v, &mut pos, 2).unwrap());
        assert_eq!(pos, v.start(), "perft leaves the position as it was");
    }
}
