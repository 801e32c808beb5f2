//! Game quality: what self-play's games say about a variant beyond who won. Each metric is one
//! [`Metric`] constant, its name and definition beside the code (after Ludii's
//! `Evaluation/src/metrics`, adapted as each comment says): it reads one [`GameRecord`] and gives a
//! [`Sample`]; [`Quality::of`] summarizes the samples of many games with a 95 % interval.
//!
//! The metrics that follow the evaluation read [`GameRecord::eval`]: the variant's own
//! evaluation ([`crate::ai::Evaluator`], so `[ai.eval]` shapes them) of every position where a
//! decision was made, as white's score. Records written before it was kept make those metrics
//! unavailable, not wrong. The opening table is [`super::openings`].
//!
//! Everything here is a function of the game records alone, in index order: a report is the
//! same for any number of threads and for shards merged from files.

#[cfg(test)]
use super::GameRecord;
use super::game::Game;
use super::{MOVE_LIMIT_REASON, Share, same, wilson};
use crate::ai::Evaluator;
use crate::ai::eval::EVAL_MAX;
use crate::notation::Move;
use crate::outcome::Winner;
use crate::rules::eval::UNITS_PER_POINT;
use crate::script::ScriptError;
use crate::state::Position;
use crate::variant::Variant;

/// Evaluation units per ordinary piece (a value of 100 points).
pub(crate) const UNITS_PER_PIECE: i32 = 100 * UNITS_PER_POINT;

/// How far ahead the evaluation must put a player for it to lead: half an ordinary piece. A
/// piece lost or won moves the lead; the positional terms of one move (a step of progress, 10
/// points; the tempo, 5; a few moves of mobility, 3 each) do not.
pub(crate) const LEAD_MARGIN: i32 = UNITS_PER_PIECE / 2;

/// By how much a move's one-ply value must beat every other move's for it to be the only
/// sensible one: a whole ordinary piece, the smallest difference the evaluation calls material
/// (a capture, a piece saved); smaller gaps are positional terms that a one-ply look does not
/// rank reliably.
pub(crate) const NEAR_FORCED_MARGIN: i32 = UNITS_PER_PIECE;

/// Whether the player to decide in `pos` has a single sensible move among `moves` (its legal
/// moves, at least one): there is only one, or one move's one-ply value beats every other's by
/// [`NEAR_FORCED_MARGIN`]. A move's one-ply value, from the mover's point of view, is the
/// result it declares (a win above any evaluation, a loss below, a draw 0) or else the
/// evaluation of the position it leads to. Two winning moves are two sensible moves. Costs a
/// make, an evaluation and an undo per legal move; `pos` is left as it was.
///
/// # Errors
/// A script hook failed (the position is then as it was).
pub(crate) fn near_forced(v: &Variant, ev: &mut Evaluator, pos: &mut Position, moves: &[Move]) -> Result<bool, ScriptError> {
    if moves.len() == 1 {
        return Ok(true);
    }
    let me = pos.side();
    let win = 2 * EVAL_MAX as i64;
    let (mut best, mut second) = (i64::MIN, i64::MIN);
    for m in moves {
        v.make(pos, m)?;
        let value = match pos.result().map(|r| r.winner) {
            Some(Winner::Player(p)) => Ok(if p == me { win } else { -win }),
            Some(Winner::Draw) => Ok(0),
            None => ev.score(pos).map(|e| if pos.side() == me { e as i64 } else { -(e as i64) }),
        };
        pos.undo();
        let value = value?;
        if value > best {
            second = best;
            best = value;
        } else if value > second {
            second = value;
        }
    }
    Ok(best - second >= NEAR_FORCED_MARGIN as i64)
}

/// What one metric makes of one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Sample {
    /// The record lacks what the metric reads (a file written before it was recorded).
    Missing,
    /// The metric does not apply to this game (a draw, for the winner's metrics).
    Skip,
    /// A game counted in a share, or not.
    Yes(bool),
    /// A number averaged over games.
    Num(f64),
}

/// The fixed point of a metric's samples: 2⁻²⁰ (a millionth), far below what a report shows.
const FIXED: f64 = (1u64 << 20) as f64;
const _: () = assert!(FIXED == (1 << 20) as f64, "Samples::add's shares are 1 << 20");

/// One metric's samples, summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Samples {
    pub(crate) n: u64,
    /// Samples above ½ (a share's games).
    pub(crate) yes: u64,
    /// The samples and their squares in fixed point ([`FIXED`]).
    sum: i128,
    squares: i128,
    pub(crate) min: f64,
    pub(crate) max: f64,
    pub(crate) missing: u64,
    pub(crate) skipped: u64,
}

impl Samples {
    pub(crate) fn add(&mut self, s: Sample) {
        match s {
            Sample::Missing => self.missing += 1,
            Sample::Skip => self.skipped += 1,
            // (1 and 0 in fixed point are known: no float work.)
            Sample::Yes(b) => self.fixed(if b { 1 << 20 } else { 0 }, if b { 1.0 } else { 0.0 }),
            Sample::Num(x) => self.number(x),
        }
    }

    fn number(&mut self, x: f64) {
        // (Through i64 where it fits: a float's conversion to i128 is a call, to i64 an
        // instruction; the value is the same.)
        let r = (x * FIXED).round();
        self.fixed(if r.abs() < 9.0e18 { i128::from(r as i64) } else { r as i128 }, x);
    }

    /// Adds sample `x`, `q` in fixed point.
    fn fixed(&mut self, q: i128, x: f64) {
        self.sum += q;
        self.squares += q * q;
        (self.min, self.max) = if self.n == 0 { (x, x) } else { (self.min.min(x), self.max.max(x)) };
        self.n += 1;
        self.yes += u64::from(x > 0.5);
    }

    /// The samples' mean (0 for none).
    pub(crate) fn mean(&self) -> f64 {
        if self.n == 0 { 0.0 } else { self.sum as f64 / FIXED / self.n as f64 }
    }

    /// The samples' standard deviation (0 for fewer than two).
    pub(crate) fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let (n, s, q) = (self.n as f64, self.sum as f64, self.squares as f64);
        (((q - s * s / n) / (n - 1.0)).max(0.0)).sqrt() / FIXED
    }
}

/// How a metric's samples are summarized, and compared between two rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A share of games: Wilson's interval; differences by Newcombe's.
    Share,
    /// A mean over games: the normal interval; differences by Welch's.
    Mean,
    /// The first player's points (1, ½, 0) as a share of the games: Wilson's interval, as the
    /// results section gives it; differences by Newcombe's.
    Score,
    /// 1 − |2·score − 1| from the first player's score and its interval (folded at 50 %).
    Balance,
}

/// What a metric's value is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// A share, 0 to 1, shown in percent.
    Percent,
    Plies,
    Turns,
    /// Legal moves.
    Moves,
    /// A count per game.
    Count,
    /// Evaluation in ordinary pieces.
    Pieces,
}

/// What part of a game record a metric reads (to say why it is unavailable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Needs {
    Results,
    Turns,
    Evaluation,
    Look,
}

impl Needs {
    /// Why the games lack it.
    pub(crate) fn missing(self) -> &'static str {
        match self {
            Needs::Results => "the games lack it",
            Needs::Turns => "the games carry no turn count (files written before it was recorded)",
            Needs::Evaluation => "the games carry no evaluation (random players' games are evaluated only with --metrics full)",
            Needs::Look => "measured only when a player searches (ab, mcts): a one-ply look at every move costs more than a random game",
        }
    }
}

/// A game-quality metric: one game's sample, and how samples are summarized.
pub(crate) struct Metric {
    /// Its name in reports.
    pub(crate) name: &'static str,
    /// Its definition in one sentence (docs/selfplay.md gives it in full, and a test holds
    /// that page's table to it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) definition: &'static str,
    pub(crate) kind: Kind,
    pub(crate) unit: Unit,
    /// What the games must record for it.
    pub(crate) needs: Needs,
    /// What one game says.
    pub(crate) sample: fn(&Game) -> Sample,
}

/// The first player's points in a game: 1 a win, ½ a draw, 0 a loss.
fn points(g: &Game) -> f64 {
    g.first_points()
}

/// The winner's sign: +1 when the first seat won, −1 when the second did, None for a draw.
fn winner_sign(g: &Game) -> Option<i64> {
    g.winner.map(|seat| if seat == 0 { 1 } else { -1 })
}

/// The evaluation of a decided game's positions from the winner's point of view (Skip for a
/// draw or a game without positions, Missing without the evaluation).
fn winner_view(g: &Game) -> Result<Vec<i64>, Sample> {
    let e = g.eval.ok_or(Sample::Missing)?;
    let w = winner_sign(g).ok_or(Sample::Skip)?;
    if e.is_empty() {
        return Err(Sample::Skip);
    }
    Ok(e.iter().map(|&x| w * x as i64).collect())
}

/// Ludii's AdvantageP1 counts the first player's wins; we count its points (a draw half), so
/// that the score and the balance agree in games with draws.
pub(crate) const FIRST_PLAYER_SCORE: Metric = Metric {
    name: "first player's score",
    definition: "(first player's wins + half the draws) / games",
    kind: Kind::Score,
    unit: Unit::Percent,
    needs: Needs::Results,
    sample: |g| Sample::Num(points(g)),
};

/// Ludii's Balance: 1 − |white's win rate − black's win rate|, which with two players is
/// 1 − |2·score − 1| (white wins − black wins = 2·score − 1), so its interval follows from the
/// score's.
pub(crate) const BALANCE: Metric = Metric {
    name: "balance",
    definition: "1 − |first player's wins − second's| / games",
    kind: Kind::Balance,
    unit: Unit::Percent,
    needs: Needs::Results,
    sample: |g| Sample::Num(points(g)),
};

/// Ludii's Completion: the games with a winner.
pub(crate) const COMPLETION: Metric = Metric {
    name: "completion (a winner)",
    definition: "games either player won / games",
    kind: Kind::Share,
    unit: Unit::Percent,
    needs: Needs::Results,
    sample: |g| Sample::Yes(!same(g.result, "draw")),
};

/// Ludii's Drawishness: draws the rules declared, the move limit's not included.
pub(crate) const DRAWS_BY_RULE: Metric = Metric {
    name: "draws by a rule",
    definition: "draws the rules declared (repetition, no moves, a draw condition) / games",
    kind: Kind::Share,
    unit: Unit::Percent,
    needs: Needs::Results,
    sample: |g| Sample::Yes(same(g.result, "draw") && !same(g.reason, MOVE_LIMIT_REASON)),
};

/// Ludii's Timeouts: games the move limit stopped.
pub(crate) const MOVE_LIMIT: Metric = Metric {
    name: "stopped by the move limit",
    definition: "games the move limit ended / games",
    kind: Kind::Share,
    unit: Unit::Percent,
    needs: Needs::Results,
    sample: |g| Sample::Yes(same(g.reason, MOVE_LIMIT_REASON)),
};

/// Ludii's DurationMoves: decisions per game (a continuation's extra decisions count).
pub(crate) const DURATION_PLIES: Metric = Metric {
    name: "duration (plies)",
    definition: "decisions per game",
    kind: Kind::Mean,
    unit: Unit::Plies,
    needs: Needs::Results,
    sample: |g| Sample::Num(g.plies as f64),
};

/// Ludii's DurationTurns: turns per game, a turn being a run of decisions by one player.
pub(crate) const DURATION_TURNS: Metric = Metric {
    name: "duration (turns)",
    definition: "turns per game, a turn being a run of consecutive decisions by one player",
    kind: Kind::Mean,
    unit: Unit::Turns,
    needs: Needs::Turns,
    sample: |g| g.turns.map_or(Sample::Missing, |t| Sample::Num(t as f64)),
};

/// Ludii's BranchingFactor: each game's mean number of legal moves per decision, averaged over
/// games (the report's branching line pools positions instead, so long games weigh more there).
pub(crate) const BRANCHING_FACTOR: Metric = Metric {
    name: "branching factor (per game)",
    definition: "each game's mean number of legal moves per decision, averaged over games (the branching line above pools all positions, so long games weigh more there)",
    kind: Kind::Mean,
    unit: Unit::Moves,
    needs: Needs::Results,
    sample: |g| {
        if g.branching.is_empty() {
            return Sample::Skip;
        }
        Sample::Num(g.branching.iter().map(|&b| b as f64).sum::<f64>() / g.branching.len() as f64)
    },
};

/// The complement of Ludii's DecisionMoves: each game's share of decisions with one legal move.
pub(crate) const FORCED: Metric = Metric {
    name: "forced (one legal move)",
    definition: "each game's share of decisions with a single legal move, averaged over games",
    kind: Kind::Mean,
    unit: Unit::Percent,
    needs: Needs::Results,
    sample: |g| {
        if g.branching.is_empty() {
            return Sample::Skip;
        }
        Sample::Num(g.branching.iter().filter(|&&b| b == 1).count() as f64 / g.branching.len() as f64)
    },
};

/// FORCED or nearly: each game's share of decisions with a single sensible move
/// ([`near_forced`]); no Ludii counterpart (its Clarity measures the spread of move values).
pub(crate) const SINGLE_SENSIBLE: Metric = Metric {
    name: "single sensible move",
    definition: "each game's share of decisions where one move stands out by a one-ply look (or is the only legal move), averaged over games",
    kind: Kind::Mean,
    unit: Unit::Percent,
    needs: Needs::Look,
    sample: |g| match g.near_forced {
        None => Sample::Missing,
        Some(_) if g.branching.is_empty() => Sample::Skip,
        Some(n) => Sample::Num(n as f64 / g.branching.len() as f64),
    },
};

/// Ludii's LeadChange counts changes of the set of leaders by an exact comparison of
/// evaluations; a static evaluation swings with every exchange of pieces, so here the lead
/// passes only when the other player gets [`LEAD_MARGIN`] ahead (a level position keeps the
/// last leader), and the count is per game rather than per move.
pub(crate) const LEAD_CHANGES: Metric = Metric {
    name: "lead changes",
    definition: "times per game the lead passes from one player to the other: a player leads from half a piece ahead until the other is half a piece ahead",
    kind: Kind::Mean,
    unit: Unit::Count,
    needs: Needs::Evaluation,
    sample: |g| {
        let Some(e) = g.eval else { return Sample::Missing };
        Sample::Num(lead_changes(e) as f64)
    },
};

/// How often the lead passes along white's evaluations `e` (see [`LEAD_CHANGES`]).
pub(crate) fn lead_changes(e: &[i32]) -> u32 {
    let mut leader: Option<bool> = None;
    let mut changes = 0;
    for &x in e {
        let now = if x >= LEAD_MARGIN {
            Some(true)
        } else if x <= -LEAD_MARGIN {
            Some(false)
        } else {
            leader
        };
        if leader.is_some() && now != leader {
            changes += 1;
        }
        leader = now;
    }
    changes
}

/// Drama as a share: the decided games whose winner was behind (by [`LEAD_MARGIN`]) at some
/// point.
pub(crate) const WON_FROM_BEHIND: Metric = Metric {
    name: "won from behind",
    definition: "decided games whose eventual winner was half a piece behind at some decision / decided games",
    kind: Kind::Share,
    unit: Unit::Percent,
    needs: Needs::Evaluation,
    sample: |g| match winner_view(g) {
        Ok(w) => Sample::Yes(w.iter().any(|&x| x <= -(LEAD_MARGIN as i64))),
        Err(s) => s,
    },
};

/// Ludii's Drama: the mean, over a decided game's decisions, of how far the eventual winner's
/// evaluation is below the best player's; with two players, its deficit (0 when ahead).
pub(crate) const DRAMA: Metric = Metric {
    name: "drama (winner's mean deficit)",
    definition: "over a decided game's decisions, the mean of how far the eventual winner is behind (0 when ahead), in pieces, averaged over decided games",
    kind: Kind::Mean,
    unit: Unit::Pieces,
    needs: Needs::Evaluation,
    sample: |g| match winner_view(g) {
        Ok(w) => Sample::Num(w.iter().map(|&x| (-x).max(0) as f64).sum::<f64>() / w.len() as f64 / UNITS_PER_PIECE as f64),
        Err(s) => s,
    },
};

/// Ludii's DecisivenessMoves: the share of a decided game played before the eventual winner's
/// evaluation first exceeds the highest the loser ever had (its DecisivenessThreshold); 100 %
/// when that never happens before the end (only the last move decided it).
pub(crate) const DECISIVENESS: Metric = Metric {
    name: "decided after",
    definition: "in a decided game, the share of its decisions before the winner's evaluation first exceeds the highest the loser ever had",
    kind: Kind::Mean,
    unit: Unit::Percent,
    needs: Needs::Evaluation,
    sample: |g| {
        match winner_view(g) {
            Ok(w) => {
                // The loser's evaluation is the winner's negated: its best is minus the winner's worst.
                let threshold = -w.iter().copied().min().unwrap_or(0);
                let at = w.iter().position(|&x| x > threshold).unwrap_or(w.len());
                Sample::Num(at as f64 / w.len() as f64)
            }
            Err(s) => s,
        }
    },
};

/// Ludii's Stability is the variance of each player's evaluation over a game, which grows with
/// a steady one-sided trend as much as with swings; we take the mean change of the evaluation
/// from one decision to the next (in races it includes the tempo's half step changing hands).
pub(crate) const STABILITY: Metric = Metric {
    name: "evaluation swing per ply",
    definition: "mean |change| of the evaluation from one decision to the next, in pieces (lower: steadier)",
    kind: Kind::Mean,
    unit: Unit::Pieces,
    needs: Needs::Evaluation,
    sample: |g| {
        let Some(e) = g.eval else { return Sample::Missing };
        if e.len() < 2 {
            return Sample::Skip;
        }
        let sum: i64 = e.windows(2).map(|w| (w[1] as i64 - w[0] as i64).abs()).sum();
        Sample::Num(sum as f64 / (e.len() - 1) as f64 / UNITS_PER_PIECE as f64)
    },
};

/// Every metric, in the order reports show them.
pub(crate) const METRICS: &[Metric] = &[
    FIRST_PLAYER_SCORE,
    BALANCE,
    COMPLETION,
    DRAWS_BY_RULE,
    MOVE_LIMIT,
    DURATION_PLIES,
    DURATION_TURNS,
    BRANCHING_FACTOR,
    FORCED,
    SINGLE_SENSIBLE,
    LEAD_CHANGES,
    WON_FROM_BEHIND,
    DRAMA,
    DECISIVENESS,
    STABILITY,
];

/// One metric over some games.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Measure {
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
    pub(crate) unit: Unit,
    /// The value and its 95 % interval (0 when `n` is 0).
    pub(crate) value: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    /// The games it was measured on.
    pub(crate) n: u64,
    /// The games it applies to that lack what it reads.
    pub(crate) missing: u64,
    /// The games it does not apply to (draws, for the winner's metrics).
    pub(crate) skipped: u64,
    /// For means: the samples' standard deviation, least and greatest (for Welch's interval).
    pub(crate) sd: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
    /// Why there is no value, when `n` is 0.
    pub(crate) unavailable: Option<&'static str>,
}

impl Measure {
    /// Measures `m` over `games`.
    #[cfg(test)]
    pub(crate) fn of(m: &Metric, games: &[GameRecord]) -> Measure {
        let mut s = Samples::default();
        for g in games {
            s.add((m.sample)(&g.view()));
        }
        Measure::of_samples(m, &s)
    }

    /// Measures `m` from its samples.
    pub(crate) fn of_samples(m: &Metric, s: &Samples) -> Measure {
        let n = s.n;
        let (mean, sd) = (s.mean(), s.sd());
        let (value, lo, hi) = match m.kind {
            _ if n == 0 => (0.0, 0.0, 0.0),
            Kind::Share => {
                let sh = Share::new(s.yes, n);
                (sh.p, sh.lo, sh.hi)
            }
            Kind::Score => {
                let (lo, hi) = wilson(mean, n as f64);
                (mean, lo, hi)
            }
            Kind::Balance => balance(mean, wilson(mean, n as f64)),
            Kind::Mean => {
                // Kept within the samples' range: a share of positions never leaves 0–100 %.
                let half = 1.96 * sd / (n as f64).sqrt();
                (mean, (mean - half).max(s.min), (mean + half).min(s.max))
            }
        };
        let unavailable = (n == 0).then(|| if s.missing > 0 { m.needs.missing() } else { "no game it applies to" });
        Measure {
            name: m.name,
            kind: m.kind,
            unit: m.unit,
            value,
            lo,
            hi,
            n,
            missing: s.missing,
            skipped: s.skipped,
            sd,
            min: s.min,
            max: s.max,
            unavailable,
        }
    }

    /// The value in its unit (`51.2%`, `27.9`, `0.35`).
    pub(crate) fn show(&self, x: f64) -> String {
        // Adding 0 turns -0 into 0.
        let x = x + 0.0;
        match self.unit {
            Unit::Percent => format!("{:.1}%", x * 100.0),
            Unit::Plies | Unit::Turns | Unit::Moves => format!("{x:.1}"),
            Unit::Count | Unit::Pieces => format!("{x:.2}"),
        }
    }

    /// One report line's value: `51.2% [48.9% – 53.4%]`, or why it is unavailable.
    pub(crate) fn text(&self) -> String {
        match self.unavailable {
            Some(why) => format!("unavailable: {why}"),
            None => format!("{:>6} [{} – {}]", self.show(self.value), self.show(self.lo), self.show(self.hi)),
        }
    }

    /// Over which games, when not all of them: `(over 812 decided games)`,
    /// `(1200 games; 800 carry no evaluation)`.
    pub(crate) fn scope(&self) -> String {
        match (self.missing, self.skipped) {
            _ if self.n == 0 => String::new(),
            (0, 0) => String::new(),
            (0, _) => format!("(over {} games it applies to)", self.n),
            (m, _) => format!("({} games; {m} lack what it reads)", self.n),
        }
    }
}

/// BALANCE and its interval from the first player's score `s` and the score's interval: the
/// map s ↦ 1 − |2s − 1| folded at ½.
pub(crate) fn balance(s: f64, (lo, hi): (f64, f64)) -> (f64, f64, f64) {
    let b = |x: f64| 1.0 - (2.0 * x - 1.0).abs();
    let low = b(lo).min(b(hi));
    let high = if lo <= 0.5 && 0.5 <= hi { 1.0 } else { b(lo).max(b(hi)) };
    (b(s), low, high)
}

/// Every metric over a study's games.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Quality {
    pub(crate) measures: Vec<Measure>,
}

impl Quality {
    /// Every metric of [`METRICS`] from its samples (in the same order).
    pub(crate) fn of(samples: &[Samples]) -> Quality {
        Quality { measures: METRICS.iter().zip(samples).map(|(m, s)| Measure::of_samples(m, s)).collect() }
    }

    /// Every metric over `games`, each game counted (repeats too).
    #[cfg(test)]
    pub(crate) fn of_games(games: &[GameRecord]) -> Quality {
        Quality { measures: METRICS.iter().map(|m| Measure::of(m, games)).collect() }
    }

    /// The measure named `name`.
    #[cfg(test)]
    pub(crate) fn get(&self, name: &str) -> Option<&Measure> {
        self.measures.iter().find(|m| m.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/selfplay.md's table gives each metric's name and, first in its second column, the
    /// definition written here.
    #[test]
    fn the_docs_table_gives_every_definition() {
        let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/selfplay.md")).expect("docs/selfplay.md");
        let missing: Vec<String> = METRICS
            .iter()
            .map(|m| format!("| {} | {}", m.name, m.definition.replace('|', "\\|")))
            .filter(|row| !docs.lines().any(|l| l.starts_with(row)))
            .collect();
        assert!(missing.is_empty(), "docs/selfplay.md has no row starting:\n{}", missing.join("\n"));
    }

    fn game(result: &str, reason: &str, eval: Option<Vec<i32>>) -> GameRecord {
        let plies = eval.as_ref().map_or(0, Vec::len) as u32;
        GameRecord {
            variant: "x".into(),
            result: result.into(),
            reason: reason.into(),
            plies,
            branching: vec![2; plies as usize],
            eval,
            ..GameRecord::default()
        }
    }

    fn num(m: &Metric, g: &GameRecord) -> f64 {
        match (m.sample)(&g.view()) {
            Sample::Num(x) => x,
            s => panic!("{}: {s:?}", m.name),
        }
    }

    #[test]
    fn a_game_won_from_behind_by_hand() {
        // White's evaluation at five decisions, in units (1000 = a piece); white wins.
        // Lead: level, white (+0.6), black (-0.7: first change), white (+0.8: second), +0.2
        // keeps white's lead.
        let g = game("white", "r", Some(vec![0, 600, -700, 800, 200]));
        assert_eq!(lead_changes(g.eval.as_ref().unwrap()), 2);
        assert_eq!(num(&LEAD_CHANGES, &g), 2.0);
        // White was 0.7 behind: a comeback.
        assert_eq!((WON_FROM_BEHIND.sample)(&g.view()), Sample::Yes(true));
        // Its deficit: 0, 0, 0.7, 0, 0 over five decisions: 0.14 pieces.
        assert!((num(&DRAMA, &g) - 0.14).abs() < 1e-12);
        // The loser's best was +0.7 (when white was at -0.7); white first exceeds it at the
        // fourth decision (+0.8, index 3): 3 of 5 decisions before it was decided.
        assert!((num(&DECISIVENESS, &g) - 0.6).abs() < 1e-12);
        // Changes 0.6, 1.3, 1.5, 0.6 over four steps: 1.0 piece a ply.
        assert!((num(&STABILITY, &g) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_game_led_throughout_by_hand() {
        // Black wins, ahead from the second decision on: white's evaluation only falls.
        let g = game("black", "r", Some(vec![0, -400, -600, -1500]));
        assert_eq!(num(&LEAD_CHANGES, &g), 0.0);
        assert_eq!((WON_FROM_BEHIND.sample)(&g.view()), Sample::Yes(false));
        assert_eq!(num(&DRAMA, &g), 0.0);
        // Black's view: 0, 400, 600, 1500; the loser's best is 0 (the start), passed at once
        // after it: one decision of four.
        assert!((num(&DECISIVENESS, &g) - 0.25).abs() < 1e-12);
        // Level until the end (a sudden capture): only the end decided it.
        let sudden = game("white", "r", Some(vec![0, 300, -300, 0]));
        assert!((num(&DECISIVENESS, &sudden) - 1.0).abs() < 1e-12);
        assert_eq!(num(&LEAD_CHANGES, &sudden), 0.0);
        // A draw has no winner: the winner's metrics skip it.
        assert_eq!((DECISIVENESS.sample)(&game("draw", "r", Some(vec![0, 1])).view()), Sample::Skip);
    }

    #[test]
    fn shares_and_forced_positions_by_hand() {
        let mut a = game("white", "r", Some(vec![0, 0, 0, 0]));
        a.branching = vec![1, 5, 1, 3];
        a.near_forced = Some(3);
        a.turns = Some(3);
        let b = game("draw", MOVE_LIMIT_REASON, Some(vec![0, 0]));
        let c = game("draw", "stalemate", Some(vec![0, 0]));
        let d = game("black", "r", None);
        let games = [a.clone(), b, c, d];
        let q = Quality::of_games(&games);
        let get = |n: &str| q.get(n).unwrap().clone();
        // Two of four games have a winner; one draw by a rule, one by the limit.
        assert_eq!(
            (get("completion (a winner)").value, get("draws by a rule").value, get("stopped by the move limit").value),
            (0.5, 0.25, 0.25)
        );
        // White's points: 1 + 0.5 + 0.5 + 0 = 2 of 4: perfectly balanced.
        assert_eq!((get("first player's score").value, get("balance").value), (0.5, 1.0));
        // FORCED: game a 2 of 4, games b and c 0 of 2 (branching 2): mean 1/6; d has no
        // positions and is skipped.
        let f = get("forced (one legal move)");
        assert!((f.value - (0.5 / 3.0)).abs() < 1e-12 && f.n == 3 && f.skipped == 1, "{f:?}");
        // Single sensible: only game a was looked at (3 of 4); the three others lack the look.
        let s = get("single sensible move");
        assert_eq!((s.value, s.n, s.missing), (0.75, 1, 3));
        assert_eq!(get("duration (turns)").value, 3.0);
        // Game d carries no evaluation: the winner's metrics read only game a.
        let w = get("won from behind");
        assert_eq!((w.n, w.missing, w.skipped), (1, 1, 2));
        // Without any evaluation: unavailable, and why.
        let old = Quality::of_games(&[game("white", "r", None)]);
        assert_eq!(old.get("lead changes").unwrap().unavailable, Some(Needs::Evaluation.missing()));
        assert!(old.get("lead changes").unwrap().text().starts_with("unavailable: the games carry no evaluation"));
    }

    #[test]
    fn balance_folds_the_score_interval() {
        // A score of 60 % [50 %, 70 %]: balance 80 % [60 %, 100 %].
        let (b, lo, hi) = balance(0.6, (0.5, 0.7));
        assert!((b - 0.8).abs() < 1e-12 && (lo - 0.6).abs() < 1e-12 && hi == 1.0);
        // A score of 20 % [10 %, 30 %]: balance 40 % [20 %, 60 %].
        let (b, lo, hi) = balance(0.2, (0.1, 0.3));
        assert!((b - 0.4).abs() < 1e-12 && (lo - 0.2).abs() < 1e-12 && (hi - 0.6).abs() < 1e-12);
    }

    #[test]
    fn the_typical_game_has_the_median_length() {
        let mut games: Vec<GameRecord> = [3usize, 9, 5, 7].iter().map(|&n| game("white", "r", Some(vec![0; n]))).collect();
        for (i, g) in games.iter_mut().enumerate() {
            g.index = 10 + i as u64;
            g.line = format!("{i}").as_str().into();
        }
        games.push(GameRecord { index: 14, line: "4".into(), ..game("white", "r", None) });
        // Lengths 3, 5, 7, 9: the shorter middle one, 5 (game 12).
        let typical = |games: &[GameRecord]| crate::selfplay::tally::Tally::of(games, 1).typical().map(|t| t.index);
        assert_eq!(typical(&games), Some(12));
        assert_eq!(typical(&games[4..]), None);
        // Repeats do not move the median; a repeat with a lower index stands for its game.
        let mut again = games.clone();
        again.extend([1, 2, 3].map(|i| GameRecord { index: 20 + i, ..games[0].clone() }));
        assert_eq!(typical(&again), Some(12));
        again.push(GameRecord { index: 1, ..games[2].clone() });
        assert_eq!(typical(&again), Some(1));
    }
}
