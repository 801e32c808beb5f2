//! Where two rule sets of one game behave differently: `boardlab diff A B`.
//!
//! Both rule sets walk the same positions in step: every line to a depth from the start, the
//! scenarios of A's folder, and seeded random games along moves both accept. At each position
//! the two lists of legal moves and the results are compared, and each common move is played
//! under both and the positions it leads to compared: the board (pieces, attributes), the
//! counters, who decides next (a continuation, an extra move) and the result. Where they part,
//! the line stops (the two games no longer share a position).
//!
//! Differences are grouped by what differs, in words that do not depend on the position ("after
//! a stone's move: A gives the mover an extra move, B passes to the opponent"), each group with
//! its count and its first example: the moves that lead there and the board.

use crate::notation::Move;
use crate::outcome::Winner;
use crate::piece::{PieceCode, Player};
use crate::script::ScriptError;
use crate::state::Position;
use crate::variant::Variant;
use rand::{RngExt, SeedableRng};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

/// How far to look.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Every line from the start to this many plies.
    pub depth: u32,
    /// Seeded random games along moves both rule sets accept, up to 300 plies each.
    pub games: u64,
    pub seed: u64,
    /// At most this many positions are compared (the walk stops there and says so).
    pub max_positions: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config { depth: 4, games: 100, seed: 1, max_positions: 20_000 }
    }
}

/// Why two rule sets cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    #[error("{0}")]
    Script(#[from] ScriptError),
    /// The rule sets are not of one game: their boards, pieces, attributes or counters differ,
    /// or B cannot read A's positions.
    #[error("cannot compare {a} and {b}: {why}; diff compares rule sets of one board and one set of pieces")]
    OtherGame { a: String, b: String, why: String },
}

/// One example of a kind of difference.
#[derive(Clone, Debug)]
pub(crate) struct Example {
    /// The moves from the start (or a scenario's position) to the position.
    pub(crate) line: Vec<String>,
    /// Where the line starts, when not the initial position (a scenario's name).
    pub(crate) from: Option<String>,
    /// The position where the rule sets part, as A draws it.
    pub(crate) board: String,
    /// What differs there, with the actual moves, pieces and values.
    pub(crate) details: Vec<String>,
}

/// A kind of difference: its words, how many positions show it, and the first of them.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) headline: String,
    pub(crate) count: usize,
    pub(crate) example: Example,
}

/// What `diff` found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The rule sets as named, with their options (`basileus (capture_choice=maximum)`).
    pub(crate) a: String,
    pub(crate) b: String,
    pub(crate) positions: usize,
    pub(crate) differing: usize,
    pub(crate) groups: Vec<Group>,
    /// The walk stopped at [`Config::max_positions`].
    pub(crate) truncated: bool,
}

/// Compares `a` and `b` (see the module's description).
///
/// # Errors
/// A hook failed, or the rule sets are not of one game.
pub fn diff(a: &Variant, b: &Variant, cfg: &Config) -> Result<Report, DiffError> {
    let mut w = Walk { a, b, cfg, seen: HashSet::new(), groups: BTreeMap::new(), order: Vec::new(), differing: 0, truncated: false };
    let (pa, pb) = (a.start(), b.start());
    let pb = w.check_same(&pa, pb)?;
    // Half the budget for the lines from the start, level by level (so a deep level that does
    // not fit leaves the budget to the scenarios and the random games, which reach further).
    w.levels(&pa, &pb, None, cfg.depth, cfg.max_positions / 2)?;
    for (name, pa, pb) in scenario_roots(a, b) {
        w.levels(&pa, &pb, Some(name), 1, cfg.max_positions)?;
    }
    for g in 0..cfg.games {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(cfg.seed.wrapping_mul(0x9E37_79B9).wrapping_add(g));
        w.random_game(&mut pa.clone(), &mut pb.clone(), &mut rng)?;
    }
    let groups = w.order.iter().map(|k| w.groups[k].clone()).collect();
    Ok(Report { a: label(a), b: label(b), positions: w.seen.len(), differing: w.differing, groups, truncated: w.truncated })
}

/// A rule set's name with the options set on it.
fn label(v: &Variant) -> String {
    let opts: Vec<String> = v.overrides.iter().map(|(k, x)| format!("{k}={x}")).collect();
    if opts.is_empty() { v.name().to_string() } else { format!("{} ({})", v.name(), opts.join(", ")) }
}

/// The final positions of A's scenarios that have no options of their own, under both rules.
fn scenario_roots(a: &Variant, b: &Variant) -> Vec<(String, Position, Position)> {
    let mut out = Vec::new();
    let crate::variant::Origin::Disk(dir) = &a.origin else { return out };
    let Ok(rd) = std::fs::read_dir(dir.join("scenarios")) else { return out };
    let mut files: Vec<_> = rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
    files.sort();
    for p in files {
        let Ok(text) = crate::files::read_to_string_limited(&p, crate::scenario::MAX_TEXT_FILE_BYTES) else { continue };
        let Ok(sc) = toml::from_str::<crate::scenario::Scenario>(&text) else { continue };
        if !sc.set.is_empty() {
            continue; // a scenario with options of its own describes another rule set
        }
        let start = |v: &Variant| match &sc.position {
            Some(t) => Position::from_text(&v.rules, t).ok(),
            None => Some(v.start()),
        };
        let (Some(mut pa), Some(mut pb)) = (start(a), start(b)) else { continue };
        if a.play_all(&mut pa, &sc.moves).is_ok() && b.play_all(&mut pb, &sc.moves).is_ok() {
            let name = p.file_stem().map_or(String::new(), |s| s.to_string_lossy().to_string());
            out.push((format!("scenario {name}"), pa, pb));
        }
    }
    let _ = a.take_output();
    let _ = b.take_output();
    out
}

struct Walk<'a> {
    a: &'a Variant,
    b: &'a Variant,
    cfg: &'a Config,
    /// The positions compared (A's hash and B's text agree while the walk goes on).
    seen: HashSet<u64>,
    groups: BTreeMap<String, Group>,
    /// Group keys in the order first found.
    order: Vec<String>,
    differing: usize,
    truncated: bool,
}

/// What one position's comparison found: the moves both accept (to walk on).
struct Found {
    common: Vec<(Move, Move)>,
}

/// One position's visit: where the walk reached it (for its example), the kinds of
/// difference it was counted under, and whether it differs at all.
struct Visit<'x> {
    line: &'x [String],
    from: &'x Option<String>,
    here: Vec<String>,
    differs: bool,
}

/// A position's legal moves under one rule set, and their texts.
struct Listed {
    moves: Vec<Move>,
    texts: Vec<String>,
}

impl Listed {
    fn of(v: &Variant, pos: &mut Position) -> Result<Listed, DiffError> {
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves)?;
        let texts = moves.iter().map(|m| m.text(&v.rules.geometry)).collect();
        Ok(Listed { moves, texts })
    }
}

impl Walk<'_> {
    /// B's start, checked to be A's start read by B's rules, once the two are known to share
    /// what the walk reads by index ([`same_game`]).
    fn check_same(&self, pa: &Position, pb: Position) -> Result<Position, DiffError> {
        let other = |why: String| DiffError::OtherGame { a: self.a.name().to_string(), b: self.b.name().to_string(), why };
        same_game(&self.a.rules, &self.b.rules).map_err(other)?;
        let text = pa.to_text(&self.a.rules);
        Position::from_text(&self.b.rules, &text).map_err(|e| other(format!("B cannot read A's start ({e})")))?;
        Ok(pb)
    }

    fn name(&self, p: Player) -> String {
        self.a.rules.player_name(p).to_string()
    }

    /// Counts the visited position (`pos`, A's) under a kind of difference, once per position;
    /// a new kind keeps it as its example, with `details`.
    fn record(&mut self, visit: &mut Visit, headline: String, details: Vec<String>, pos: &Position) {
        visit.differs = true;
        if visit.here.contains(&headline) {
            return;
        }
        visit.here.push(headline.clone());
        match self.groups.get_mut(&headline) {
            Some(g) => g.count += 1,
            None => {
                // The board is drawn only for a group's first example.
                let example = Example {
                    line: visit.line.to_vec(),
                    from: visit.from.clone(),
                    board: crate::render::board(self.a, pos, None, crate::render::Style::PLAIN),
                    details,
                };
                self.order.push(headline.clone());
                self.groups.insert(headline.clone(), Group { headline, count: 1, example });
            }
        }
    }

    /// Compares one position; records what differs; returns the moves both accept whose
    /// results agree (the walk goes on along them). None when the position was seen already.
    fn compare(
        &mut self,
        pa: &mut Position,
        pb: &mut Position,
        line: &[String],
        from: &Option<String>,
    ) -> Result<Option<Found>, DiffError> {
        if self.seen.len() >= self.cfg.max_positions {
            self.truncated = true;
            return Ok(None);
        }
        if !self.seen.insert(pa.hash()) {
            return Ok(None);
        }
        let mut visit = Visit { line, from, here: Vec::new(), differs: false };
        // The result of the position itself.
        let (ra, rb) = (self.a.outcome(pa)?, self.b.outcome(pb)?);
        if ra != rb {
            self.results_differ(&mut visit, pa, ra.as_ref(), rb.as_ref());
        }
        let (la, lb) = (Listed::of(self.a, pa)?, Listed::of(self.b, pb)?);
        self.moves_in_one(&mut visit, pa, &la, &lb);
        let common = if ra.is_some() || rb.is_some() { vec![] } else { self.play_common(Some(&mut visit), pa, pb, &la, &lb)? };
        self.differing += usize::from(visit.differs);
        Ok(Some(Found { common }))
    }

    /// Records that the position's result is `ra` in A and `rb` in B.
    fn results_differ(
        &mut self,
        visit: &mut Visit,
        pa: &Position,
        ra: Option<&crate::outcome::Outcome>,
        rb: Option<&crate::outcome::Outcome>,
    ) {
        let side = pa.side();
        let headline = format!(
            "the position's result: A {}, B {}",
            self.result_words(ra, side, "the player to move"),
            self.result_words(rb, side, "the player to move")
        );
        let details = vec![format!(
            "A: {}; B: {}",
            ra.map_or("the game goes on".into(), |o| o.describe(&self.a.rules.player_names)),
            rb.map_or("the game goes on".into(), |o| o.describe(&self.b.rules.player_names))
        )];
        self.record(visit, headline, details, pa);
    }

    /// Records the moves legal in one rule set and not the other: one group per kind of move
    /// (the piece, capture or not, the decision pending).
    fn moves_in_one(&mut self, visit: &mut Visit, pa: &Position, la: &Listed, lb: &Listed) {
        for (mine, theirs, who, other) in [(la, lb, "A", "B"), (lb, la, "B", "A")] {
            let only = (0..mine.texts.len()).filter(|&i| !theirs.texts.contains(&mine.texts[i]));
            let mut kinds: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for i in only {
                kinds.entry(self.move_words(pa, &mine.moves[i])).or_default().push(mine.texts[i].clone());
            }
            for (words, texts) in kinds {
                let headline = format!("{words}: legal in {who}, not in {other}");
                let details = vec![format!("only in {who}: {}", texts.join(", "))];
                self.record(visit, headline, details, pa);
            }
        }
    }

    /// Plays each move both accept under both: returns those whose results agree (the walk
    /// goes on along them) and records how the others differ (when visiting a new position).
    fn play_common(
        &mut self,
        mut visit: Option<&mut Visit>,
        pa: &mut Position,
        pb: &mut Position,
        la: &Listed,
        lb: &Listed,
    ) -> Result<Vec<(Move, Move)>, DiffError> {
        let mut common = Vec::new();
        for (i, m) in la.moves.iter().enumerate() {
            let Some(j) = lb.texts.iter().position(|t| *t == la.texts[i]) else { continue };
            let n = lb.moves[j];
            let mover = pa.side();
            self.a.make(pa, m)?;
            self.b.make(pb, &n)?;
            let parts = self.after(pa, pb, m, mover)?;
            pa.undo();
            pb.undo();
            match (parts, visit.as_deref_mut()) {
                (None, _) => common.push((*m, n)),
                (Some((words, mut details)), Some(visit)) => {
                    let headline = format!("after {}: {words}", self.move_words(pa, m));
                    details.insert(0, format!("the move: {}", la.texts[i]));
                    self.record(visit, headline, details, pa);
                }
                (Some(_), None) => {}
            }
        }
        Ok(common)
    }

    /// How the positions after one move differ (position-independent words, and the details),
    /// or None when they agree.
    fn after(&self, pa: &mut Position, pb: &mut Position, m: &Move, mover: Player) -> Result<Option<(String, Vec<String>)>, DiffError> {
        let (a, b) = (self.a, self.b);
        let mut words = Vec::new();
        let mut details = Vec::new();
        // Who decides next.
        let next = |p: &Position| (p.side(), p.continuation().map(|c| c.tag.clone()));
        if next(pa) != next(pb) {
            let say = |p: &Position| match p.continuation() {
                Some(c) if c.player == mover => format!("gives the mover another decision (`{}`)", c.tag),
                Some(c) => format!("hands the opponent a decision (`{}`)", c.tag),
                None if p.side() == mover => "lets the mover play again".to_string(),
                None => "passes the turn to the opponent".to_string(),
            };
            words.push(format!("A {}, B {}", say(pa), say(pb)));
            let who = |p: &Position| match p.continuation() {
                Some(c) => format!("{} decides (`{}`)", self.name(c.player), c.tag),
                None => format!("{} to move", self.name(p.side())),
            };
            details.push(format!("A: {}; B: {}", who(pa), who(pb)));
        }
        // The result.
        let (ra, rb) = (a.outcome(pa)?, b.outcome(pb)?);
        if ra != rb {
            words.push(format!(
                "A {}, B {}",
                self.result_words(ra.as_ref(), mover, "the mover"),
                self.result_words(rb.as_ref(), mover, "the mover")
            ));
            let say = |v: &Variant, r: &Option<crate::outcome::Outcome>| {
                r.as_ref().map_or("the game goes on".into(), |o| o.describe(&v.rules.player_names))
            };
            details.push(format!("A: {}; B: {}", say(a, &ra), say(b, &rb)));
        }
        // The board: cells by their part in the move.
        let g = &a.rules.geometry;
        let mut cells = Vec::new();
        for c in g.cells() {
            let (x, y) = (pa.board()[c.0 as usize], pb.board()[c.0 as usize]);
            let attrs_differ = !x.is_empty() && x == y && (0..a.rules.nattr() as u8).any(|s| pa.attr(c.0, s) != pb.attr(c.0, s));
            if x == y && !attrs_differ {
                continue;
            }
            let role = role(m, c.0);
            if x != y {
                words.push(format!("{role} A leaves {}, B {}", self.piece_words(x, mover), self.piece_words(y, mover)));
                cells.push(format!("{}: {} / {}", g.name(c), self.piece_words(x, mover), self.piece_words(y, mover)));
            } else {
                let names: Vec<String> = (0..a.rules.nattr())
                    .filter(|&s| pa.attr(c.0, s as u8) != pb.attr(c.0, s as u8))
                    .map(|s| a.rules.attributes[s].clone())
                    .collect();
                words.push(format!("{role} the piece's {} differs", names.join(" and ")));
                for s in 0..a.rules.nattr() as u8 {
                    if pa.attr(c.0, s) != pb.attr(c.0, s) {
                        cells.push(format!("{} {}: {} / {}", g.name(c), a.rules.attributes[s as usize], pa.attr(c.0, s), pb.attr(c.0, s)));
                    }
                }
            }
        }
        if !cells.is_empty() {
            details.push(format!("cells (A / B): {}", cells.join(", ")));
        }
        // The counters.
        for (i, (name, _)) in a.rules.counters.iter().enumerate() {
            for p in Player::both() {
                let (x, y) = (pa.counter(p, i as u8), pb.counter(p, i as u8));
                if x != y {
                    let whose = if p == mover { "the mover's" } else { "the opponent's" };
                    words.push(format!("{whose} counter `{name}` differs"));
                    details.push(format!("counter {name} of {}: A {x}, B {y}", self.name(p)));
                }
            }
        }
        words.dedup();
        Ok((!words.is_empty()).then(|| (words.join("; "), details)))
    }

    /// A result in words relative to `player`, called `who`: "ends the game, the mover winning
    /// (army destroyed)"; a position's own result is told relative to the player to move (who
    /// did not make the move that ended it).
    fn result_words(&self, r: Option<&crate::outcome::Outcome>, player: Player, who: &str) -> String {
        match r {
            None => "goes on".to_string(),
            Some(o) => match o.winner {
                Winner::Draw => format!("ends in a draw ({})", o.reason),
                Winner::Player(p) if p == player => format!("ends the game, {who} winning ({})", o.reason),
                Winner::Player(_) => format!("ends the game, {who} losing ({})", o.reason),
            },
        }
    }

    /// "a stone's capture", "a king's move", "a pass", "a stone's `retreat` move".
    fn move_words(&self, pos: &Position, m: &Move) -> String {
        let r = &self.a.rules;
        if let Some(code) = m.dropped() {
            return format!("a {} drop", r.kind(code.kind()).name);
        }
        if m.from == crate::geometry::NONE {
            return "a pass".into();
        }
        let code = pos.board()[m.from as usize];
        let kind = if code.is_empty() { "piece".to_string() } else { r.kind(code.kind()).name.clone() };
        let what = if m.is_capture() { "capture" } else { "move" };
        match pos.continuation() {
            Some(c) => format!("a {kind}'s {what} in `{}`", c.tag),
            None => format!("a {kind}'s {what}"),
        }
    }

    /// "the mover's king", "the opponent's man", "nothing".
    fn piece_words(&self, code: PieceCode, mover: Player) -> String {
        if code.is_empty() {
            return "nothing".into();
        }
        let whose = if code.owner() == mover { "the mover's" } else { "the opponent's" };
        format!("{whose} {}", self.a.rules.kind(code.kind()).name)
    }

    /// Every line to `depth` plies from the position, level by level; a level is walked only
    /// while the positions compared stay under `budget`. Lines are kept as moves and replayed,
    /// so a wide level costs little memory.
    fn levels(&mut self, pa: &Position, pb: &Position, from: Option<String>, depth: u32, budget: usize) -> Result<(), DiffError> {
        let mut level: Vec<Vec<(Move, Move)>> = vec![vec![]];
        for d in 0..=depth {
            let mut next = Vec::new();
            for line in &level {
                if self.seen.len() >= budget.min(self.cfg.max_positions) {
                    return Ok(());
                }
                let (mut xa, mut xb) = (pa.clone(), pb.clone());
                for (m, n) in line {
                    self.a.make(&mut xa, m)?;
                    self.b.make(&mut xb, n)?;
                }
                let texts: Vec<String> = line.iter().map(|(m, _)| m.text(&self.a.rules.geometry)).collect();
                let Some(found) = self.compare(&mut xa, &mut xb, &texts, &from)? else { continue };
                if d < depth {
                    for mn in found.common {
                        let mut l = line.clone();
                        l.push(mn);
                        next.push(l);
                    }
                }
            }
            let _ = (self.a.take_output(), self.b.take_output());
            level = next;
        }
        Ok(())
    }

    /// A seeded random game along moves both accept with the same effect.
    fn random_game(&mut self, pa: &mut Position, pb: &mut Position, rng: &mut rand_pcg::Pcg64Mcg) -> Result<(), DiffError> {
        let mut line = Vec::new();
        let mut made = 0;
        for _ in 0..300 {
            let common = match self.compare(pa, pb, &line, &None)? {
                Some(f) => f.common,
                // Seen before: walk on along the moves both accept.
                None if !self.truncated => self.common_moves(pa, pb)?,
                None => break,
            };
            if common.is_empty() {
                break;
            }
            let (m, n) = common[rng.random_range(0..common.len())];
            self.a.make(pa, &m)?;
            self.b.make(pb, &n)?;
            line.push(m.text(&self.a.rules.geometry));
            made += 1;
        }
        for _ in 0..made {
            pa.undo();
            pb.undo();
        }
        let _ = (self.a.take_output(), self.b.take_output());
        Ok(())
    }

    /// The moves both accept whose positions agree, without recording anything.
    fn common_moves(&mut self, pa: &mut Position, pb: &mut Position) -> Result<Vec<(Move, Move)>, DiffError> {
        let (la, lb) = (Listed::of(self.a, pa)?, Listed::of(self.b, pb)?);
        self.play_common(None, pa, pb, &la, &lb)
    }
}

/// Why two rule sets are not of one game, if they are not: the walk reads both positions by
/// A's cell numbers, piece codes, attribute slots and counter indices, so these must mean the
/// same under B (a piece code of a kind B lacks would index past B's tables).
fn same_game(a: &crate::rules::Ruleset, b: &crate::rules::Ruleset) -> Result<(), String> {
    let (ga, gb) = (&a.geometry, &b.geometry);
    let cells = |g: &crate::geometry::Geometry| g.cells().map(|c| g.name(c).to_string()).collect::<Vec<_>>();
    if (ga.files, ga.ranks) != (gb.files, gb.ranks) || cells(ga) != cells(gb) {
        return Err(format!(
            "the boards differ (A: {}×{}, {} cells; B: {}×{}, {} cells)",
            ga.files,
            ga.ranks,
            ga.len(),
            gb.files,
            gb.ranks,
            gb.len()
        ));
    }
    let kinds =
        |r: &crate::rules::Ruleset| r.kinds.iter().map(|k| format!("{} ({})", k.name, k.symbols[Player::FIRST])).collect::<Vec<_>>();
    if kinds(a) != kinds(b) {
        let (ka, kb) = (kinds(a), kinds(b));
        let only = |x: &[String], y: &[String]| x.iter().filter(|k| !y.contains(k)).cloned().collect::<Vec<_>>().join(", ");
        let (oa, ob) = (only(&ka, &kb), only(&kb, &ka));
        let why = match (oa.is_empty(), ob.is_empty()) {
            (true, true) => format!("the pieces are declared in another order (A: {}; B: {})", ka.join(", "), kb.join(", ")),
            (false, true) => format!("only A has {oa}"),
            (true, false) => format!("only B has {ob}"),
            (false, false) => format!("only A has {oa}; only B has {ob}"),
        };
        return Err(format!("the pieces differ: {why}"));
    }
    if a.attributes != b.attributes {
        return Err(format!("the pieces' attributes differ (A: [{}]; B: [{}])", a.attributes.join(", "), b.attributes.join(", ")));
    }
    let counters = |r: &crate::rules::Ruleset| r.counters.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    if counters(a) != counters(b) {
        return Err(format!("the counters differ (A: [{}]; B: [{}])", counters(a).join(", "), counters(b).join(", ")));
    }
    Ok(())
}

/// Where a cell is, by its part in a move: "on the start cell", "on the landing cell", "on a
/// cell passed through", "on a captured cell", "elsewhere".
fn role(m: &Move, c: u16) -> &'static str {
    if m.from == c {
        "on the start cell"
    } else if m.landings().last() == Some(&c) {
        "on the landing cell"
    } else if m.landings().contains(&c) {
        "on a cell passed through"
    } else if m.victims().any(|v| v == c) {
        "on a captured cell"
    } else {
        "elsewhere"
    }
}

impl Report {
    /// The report: a summary line, then each group (the first `shown`, or all) with its count
    /// and first example.
    pub(crate) fn text(&self, shown: Option<usize>) -> String {
        let mut out = String::new();
        let limit = if self.truncated { format!(" (stopped at the limit of {} positions)", self.positions) } else { String::new() };
        if self.groups.is_empty() {
            let _ = writeln!(out, "{} and {}: no differences in {} positions{limit}", self.a, self.b, self.positions);
            return out;
        }
        let n = self.groups.len();
        let _ = writeln!(out, "A = {}, B = {}", self.a, self.b);
        let _ = writeln!(
            out,
            "{} of {} positions differ{limit}; {n} kind{} of difference",
            self.differing,
            self.positions,
            if n == 1 { "" } else { "s" }
        );
        let shown = shown.unwrap_or(n).min(n);
        for (i, g) in self.groups.iter().take(shown).enumerate() {
            let e = &g.example;
            let _ = writeln!(out, "\n{}. {}", i + 1, g.headline);
            let _ = writeln!(out, "   {} position{} like this; the first:", g.count, if g.count == 1 { "" } else { "s" });
            let start = e.from.clone().unwrap_or_else(|| "the start".into());
            let line = if e.line.is_empty() { format!("at {start}") } else { format!("after {} (from {start})", e.line.join(" ")) };
            let _ = writeln!(out, "   {line}");
            for d in &e.details {
                let _ = writeln!(out, "   {d}");
            }
            for l in e.board.lines() {
                let _ = writeln!(out, "   {l}");
            }
        }
        if shown < n {
            let _ = writeln!(
                out,
                "\n… and {} more kind{} of difference (--all shows every one, --limit N the first N)",
                n - shown,
                if n - shown == 1 { "" } else { "s" }
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_set_does_not_differ_from_itself() {
        let v = Variant::load("pyramida", &[]).unwrap();
        let r = diff(&v, &v, &Config { depth: 2, games: 3, ..Config::default() }).unwrap();
        assert!(r.groups.is_empty(), "{}", r.text(None));
        assert!(r.positions > 10);
    }

    #[test]
    fn roles_of_cells() {
        let g = crate::geometry::Geometry::new(8, 8, |_, _| true);
        let c = |n: &str| g.parse_cell(n).unwrap().0;
        let mv = Move::capture_at(c("c3"), c("e5"), c("d4"));
        assert_eq!(role(&mv, c("c3")), "on the start cell");
        assert_eq!(role(&mv, c("e5")), "on the landing cell");
        assert_eq!(role(&mv, c("d4")), "on a captured cell");
        assert_eq!(role(&mv, c("a1")), "elsewhere");
    }
}
