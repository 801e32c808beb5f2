//! Sweeps: which value of an option makes the best game? One self-play study per setting (every
//! combination of the values given, or a seeded sample of them), each with the same players,
//! seeds and openings, ranked by a metric of the report with its 95 % interval and its
//! difference from the first setting; an SVG chart of the metric against the settings.
//!
//! The games go to one JSON-lines file, each record naming its rule set, so a sweep stopped by
//! Ctrl-C resumes (`--resume-from`) and a sweep played as shards merges (`--from`) exactly as a
//! study does ([`crate::selfplay`]).

use crate::selfplay::quality::{Measure, Unit};
use crate::selfplay::svg_escape as esc;
use crate::selfplay::{self, Config, GameRecord, Report, SelfplayError, Sink};
use std::fmt::Write;

/// The most settings one sweep plays.
pub(crate) const MAX_POINTS: usize = 1000;

/// Why a sweep could not be played.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SweepError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Study(#[from] SelfplayError),
}

/// A metric a sweep ranks by: its name on the command line, the report's metric, and which way
/// is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct By {
    pub(crate) key: &'static str,
    metric: &'static str,
    higher: bool,
}

/// Every metric a sweep ranks by (`--by`).
pub(crate) const BY: [By; 11] = [
    By { key: "balance", metric: "balance", higher: true },
    By { key: "decisiveness", metric: "completion (a winner)", higher: true },
    By { key: "draws", metric: "draws by a rule", higher: false },
    By { key: "move-limit", metric: "stopped by the move limit", higher: false },
    By { key: "length", metric: "duration (plies)", higher: false },
    By { key: "branching", metric: "branching factor (per game)", higher: true },
    By { key: "forced", metric: "forced (one legal move)", higher: false },
    By { key: "drama", metric: "drama (winner's mean deficit)", higher: true },
    By { key: "lead-changes", metric: "lead changes", higher: true },
    By { key: "comebacks", metric: "won from behind", higher: true },
    By { key: "swing", metric: "evaluation swing per ply", higher: true },
];

impl By {
    /// The metric named `key` on the command line.
    ///
    /// # Errors
    /// Not one of [`BY`]: the message lists them.
    pub(crate) fn parse(key: &str) -> Result<By, SweepError> {
        BY.iter().copied().find(|b| b.key == key).ok_or_else(|| {
            let keys: Vec<&str> = BY.iter().map(|b| b.key).collect();
            SweepError::Usage(format!("--by {}: expected one of {}", crate::files::quote(key), keys.join(", ")))
        })
    }

    /// Whether the metric follows the evaluation (random games then need `--metrics full`).
    pub(crate) fn needs_evaluation(self) -> bool {
        crate::selfplay::quality::METRICS.iter().any(|m| m.name == self.metric && m.needs == crate::selfplay::quality::Needs::Evaluation)
    }

    fn measure(self, r: &Report) -> &Measure {
        r.quality.measures.iter().find(|m| m.name == self.metric).expect("every --by names a metric")
    }
}

/// One setting of a sweep: a variant and the options given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Point {
    pub(crate) variant: String,
    pub(crate) sets: Vec<(String, String)>,
}

/// What a sweep covers: the variants, each option's values, and how many points to sample.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    pub(crate) variants: Vec<String>,
    /// Options swept (name and values, at least one value each) and options fixed (one value).
    pub(crate) axes: Vec<(String, Vec<String>)>,
    /// Play only this many points, drawn with the sweep's seed (the first point always).
    pub(crate) sample: Option<usize>,
}

impl Grid {
    /// The axes of `--set NAME=V1,V2,…` items.
    ///
    /// # Errors
    /// An item without `=` or with an empty value.
    pub(crate) fn axes(sets: &[String]) -> Result<Vec<(String, Vec<String>)>, SweepError> {
        sets.iter()
            .map(|s| {
                let (name, values) = s
                    .split_once('=')
                    .ok_or_else(|| SweepError::Usage(format!("--set {}: expected NAME=V1,V2,…", crate::files::quote(s))))?;
                let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
                if values.iter().any(String::is_empty) {
                    return Err(SweepError::Usage(format!("--set {}: an empty value", crate::files::quote(s))));
                }
                Ok((name.trim().to_string(), values))
            })
            .collect()
    }

    /// Every setting, in order (the variants outermost, then each option as given, its values
    /// in order), or the sample of them: the first point and `sample − 1` others drawn with
    /// `seed`, kept in that order.
    ///
    /// # Errors
    /// More than [`MAX_POINTS`] settings to play.
    pub(crate) fn points(&self, seed: u64) -> Result<Vec<Point>, SweepError> {
        let total = self.axes.iter().fold(self.variants.len() as u128, |n, (_, v)| n.saturating_mul(v.len() as u128));
        let n = self.sample.map_or(total, |s| (s as u128).min(total));
        if n > MAX_POINTS as u128 {
            return Err(SweepError::Usage(format!("{total} settings: a sweep plays at most {MAX_POINTS} (--sample N draws some of them)")));
        }
        let chosen: Vec<u128> = if n == total { (0..total).collect() } else { sample(total, n as usize, seed) };
        Ok(chosen.into_iter().map(|i| self.point(i)).collect())
    }

    /// The setting at grid index `i` (the last option varies fastest).
    fn point(&self, mut i: u128) -> Point {
        let mut sets = Vec::with_capacity(self.axes.len());
        for (name, values) in self.axes.iter().rev() {
            let k = values.len() as u128;
            sets.push((name.clone(), values[(i % k) as usize].clone()));
            i /= k;
        }
        sets.reverse();
        Point { variant: self.variants[i as usize].clone(), sets }
    }
}

/// `n` of the indices `0..total` (n < total): 0 and `n − 1` others drawn with `seed`, in order.
fn sample(total: u128, n: usize, seed: u64) -> Vec<u128> {
    let mut rng = crate::ai::rng(selfplay::game_seed(seed, 0x0073_7765_6570));
    let mut chosen = std::collections::BTreeSet::from([0u128]);
    while chosen.len() < n {
        chosen.insert(rand::RngExt::random_range(&mut rng, 1..total));
    }
    chosen.into_iter().collect()
}

/// A played sweep: each setting's report, in the grid's order, and how to rank them.
pub(crate) struct Sweep {
    pub(crate) points: Vec<(Point, Report)>,
    pub(crate) by: By,
    /// The options that vary (named in each row; the others are the same everywhere).
    varying: Vec<String>,
    several_variants: bool,
    /// Ctrl-C stopped the sweep: the table covers the settings finished.
    pub(crate) interrupted: bool,
}

/// Plays a sweep: one study of `cfg` per point, each new game to `sink` (where there is one); the games of
/// `resumed` are not played again. Ctrl-C stops it with the settings finished.
///
/// # Errors
/// A setting does not load or its study fails (the message names the setting).
pub(crate) fn run(
    points: Vec<Point>,
    cfg: &Config,
    by: By,
    progress: bool,
    resumed: &[GameRecord],
    mut sink: Option<Sink>,
) -> Result<Sweep, SweepError> {
    let mut played = Vec::with_capacity(points.len());
    let mut interrupted = false;
    for p in points {
        let r = selfplay::run_into(&p.variant, &p.sets, cfg, progress, resumed, sink.as_mut().map(|s| &mut **s as crate::selfplay::Sink))
            .map_err(|e| match e {
            SelfplayError::Load(m) => SweepError::Usage(format!("{}: {m}", label(&p, true, &[]))),
            e => e.into(),
        })?;
        interrupted = r.interrupted;
        played.push((p, r));
        if interrupted {
            break;
        }
    }
    Ok(Sweep::new(played, by, interrupted))
}

/// The sweep of reports merged from files (`sweep --from`): each point's report is the one of
/// its rule set; a point no file has is left out with a warning.
///
/// # Errors
/// A file cannot be read, or its games are of several studies.
pub(crate) fn merged(
    points: Vec<Point>,
    files: &[std::path::PathBuf],
    by: By,
    opening_plies: usize,
) -> Result<(Sweep, Vec<String>), SweepError> {
    let m = selfplay::jsonl::merge(files, false, opening_plies)?;
    let mut warnings = m.warnings;
    let mut reports = m.reports;
    let mut played = Vec::new();
    for p in points {
        let sets = selfplay::with_move_limit(&p.sets);
        let v = crate::variant::Variant::load(&p.variant, &sets).map_err(|e| SweepError::Usage(e.render(false)))?;
        let sorted: std::collections::BTreeMap<&str, &str> = v.overrides.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
        let title = selfplay::title(v.name(), sorted.into_iter());
        match reports.iter().position(|r| r.title == title) {
            Some(k) => played.push((p, reports.swap_remove(k))),
            None => warnings.push(format!("no games of {title} in these files")),
        }
    }
    Ok((Sweep::new(played, by, false), warnings))
}

/// The label of a point in a table: the variant when several are swept, then the options in
/// `varying` (every option when `varying` is empty).
fn label(p: &Point, variant: bool, varying: &[String]) -> String {
    let opts: Vec<String> =
        p.sets.iter().filter(|(k, _)| varying.is_empty() || varying.contains(k)).map(|(k, v)| format!("{k}={v}")).collect();
    match (variant, opts.is_empty()) {
        (true, true) => p.variant.clone(),
        (true, false) => format!("{} {}", p.variant, opts.join(" ")),
        (false, true) => "(as given)".into(),
        (false, false) => opts.join(" "),
    }
}

impl Sweep {
    fn new(points: Vec<(Point, Report)>, by: By, interrupted: bool) -> Sweep {
        let several_variants = points.windows(2).any(|w| w[0].0.variant != w[1].0.variant);
        let mut varying: Vec<String> = Vec::new();
        if let Some((first, _)) = points.first() {
            for (k, v) in &first.sets {
                if points.iter().any(|(p, _)| p.sets.iter().any(|(k2, v2)| k2 == k && v2 != v)) {
                    varying.push(k.clone());
                }
            }
        }
        Sweep { points, by, varying, several_variants, interrupted }
    }

    fn label(&self, p: &Point) -> String {
        label(p, self.several_variants, &self.varying)
    }

    /// The settings from best to worst by the metric (unavailable last; ties in the grid's
    /// order): indices into `points`.
    pub(crate) fn ranking(&self) -> Vec<usize> {
        let value = |k: usize| {
            let m = self.by.measure(&self.points[k].1);
            if m.unavailable.is_some() {
                f64::NEG_INFINITY
            } else if self.by.higher {
                m.value
            } else {
                -m.value
            }
        };
        let mut order: Vec<usize> = (0..self.points.len()).collect();
        order.sort_by(|&a, &b| value(b).total_cmp(&value(a)).then(a.cmp(&b)));
        order
    }

    /// The difference of setting `k`'s metric from the first setting's, with its 95 % interval
    /// (shares and the balance by Newcombe's method from the two intervals, means by Welch's),
    /// and whether it is significant (both settings judged, the interval excluding 0).
    fn against_first(&self, k: usize) -> Option<(f64, f64, f64, bool)> {
        let (a, b) = (&self.points.first()?.1, &self.points[k].1);
        let (x, y) = (self.by.measure(a), self.by.measure(b));
        if k == 0 || x.unavailable.is_some() || y.unavailable.is_some() {
            return None;
        }
        let d = y.value - x.value;
        let (lo, hi) = selfplay::difference_interval(x, y);
        let judged = a.judged().is_ok() && b.judged().is_ok();
        Some((d, lo, hi, judged && (lo > 0.0 || hi < 0.0)))
    }
}

impl Sweep {
    /// The ranked table, the best setting named, and what the first setting is.
    pub(crate) fn text(&self) -> String {
        let mut s = self.head();
        let m0 = |k: usize| self.by.measure(&self.points[k].1);
        let labels: Vec<String> = self.points.iter().map(|(p, _)| self.label(p)).collect();
        let w = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0).max(7);
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let _ = writeln!(
            s,
            "  rank  {:<w$}  {:>11}  {:<30} {:<26} {:>7} {:>6} {:>7}",
            "setting",
            "distinct",
            format!("{} [95%]", self.by.key),
            "− first [95%]",
            "score",
            "draws",
            "length"
        );
        for (rank, k) in self.ranking().into_iter().enumerate() {
            let (_, r) = &self.points[k];
            let m = m0(k);
            let scale = if m.unit == Unit::Percent { 100.0 } else { 1.0 };
            let diff = match self.against_first(k) {
                None if k == 0 => "(the first setting)".to_string(),
                None => String::new(),
                Some((d, lo, hi, sig)) => {
                    format!("{:+.1} [{:+.1}, {:+.1}]{}", d * scale, lo * scale, hi * scale, if sig { " *" } else { "" })
                }
            };
            let _ = writeln!(
                s,
                "  {:>4}  {:<w$}  {:>11}  {:<30} {:<26} {:>7} {:>6} {:>7.1}",
                rank + 1,
                labels[k],
                format!("{}/{}", r.distinct, r.n),
                m.text().trim_start(),
                diff,
                pct(r.first_score.0),
                pct(r.draws.p),
                r.length.median
            );
        }
        s.push_str(&self.verdict(&labels));
        s
    }

    fn head(&self) -> String {
        let mut s = String::new();
        let Some((first, r)) = self.points.first() else { return "sweep: no setting played\n".into() };
        let variants = if self.several_variants { "several variants".to_string() } else { first.variant.clone() };
        let way = if self.by.higher { "higher is better" } else { "lower is better" };
        let _ = writeln!(s, "sweep of {variants}: {} settings, {} games each; ranked by {} ({way})", self.points.len(), r.n, self.by.key);
        if let Some((a, b)) = &r.players {
            let _ = writeln!(s, "players: {a} (first) against {b} (second), the same seeds and openings in every setting");
        }
        if r.tally.random_plies > 0 {
            let _ = writeln!(s, "openings: each game opens with {} random decisions (--random-plies)", r.tally.random_plies);
        }
        let fixed: Vec<String> = first.sets.iter().filter(|(k, _)| !self.varying.contains(k)).map(|(k, v)| format!("{k}={v}")).collect();
        if !fixed.is_empty() {
            let _ = writeln!(s, "options in every setting: {}", fixed.join(" "));
        }
        if self.interrupted {
            let _ = writeln!(s, "interrupted (Ctrl-C): the table covers the settings finished; --resume-from continues the sweep");
        }
        for (p, r) in &self.points {
            if let Err(why) = r.judged() {
                let _ = writeln!(s, "WARNING: {}: nothing judged ({why})", self.label(p));
            }
        }
        let _ = writeln!(s, "(− first: the difference from the first setting with its 95% interval; * where significant)");
        s
    }

    /// The best setting, and whether it differs significantly from the first.
    fn verdict(&self, labels: &[String]) -> String {
        let Some(&best) = self.ranking().first() else { return String::new() };
        let m = self.by.measure(&self.points[best].1);
        if m.unavailable.is_some() {
            return format!("best: none ({} is unavailable: {})\n", self.by.key, m.unavailable.unwrap_or_default());
        }
        let than = match self.against_first(best) {
            None => "the first setting itself".to_string(),
            Some((_, _, _, true)) => format!(
                "significantly {} than the first setting ({})",
                if self.by.higher == (m.value > self.by.measure(&self.points[0].1).value) { "better" } else { "worse" },
                labels[0]
            ),
            Some(_) => format!("not significantly different from the first setting ({})", labels[0]),
        };
        format!("best by {}: {} ({} {}), {than}\n", self.by.key, labels[best], self.by.key, m.text().trim_start())
    }

    /// An SVG chart: the metric of each setting, in the grid's order, with its 95 % interval.
    pub(crate) fn svg(&self) -> String {
        let n = self.points.len().max(1);
        let (left, top, pw, ph) = (70.0, 40.0, (60 * n).clamp(240, 1200) as f64, 260.0);
        // Room on the right and below for the slanted labels.
        let (w, h) = (left + pw + 220.0, top + ph + 170.0);
        let measures: Vec<&Measure> = self.points.iter().map(|(_, r)| self.by.measure(r)).collect();
        let scale = if measures.first().is_some_and(|m| m.unit == Unit::Percent) { 100.0 } else { 1.0 };
        let avail = || measures.iter().filter(|m| m.unavailable.is_none());
        let lo = avail().map(|m| m.lo * scale).fold(f64::INFINITY, f64::min).min(0.0);
        let hi = avail().map(|m| m.hi * scale).fold(f64::NEG_INFINITY, f64::max).max(lo + 1e-9);
        let y = |v: f64| top + ph - (v - lo) / (hi - lo) * ph;
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        );
        let unit = if scale == 100.0 { " (%)" } else { "" };
        let _ = writeln!(
            s,
            "<text x=\"{left}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}{unit} by setting, with 95% intervals</text>",
            esc(self.by.key)
        );
        let _ = writeln!(s, "<rect x=\"{left}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#cccccc\"/>");
        for t in 0..=4 {
            let v = lo + (hi - lo) * t as f64 / 4.0;
            let _ = writeln!(s, "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{v:.1}</text>", left - 6.0, y(v) + 4.0);
        }
        let step = pw / n as f64;
        for (k, ((p, _), m)) in self.points.iter().zip(&measures).enumerate() {
            let x = left + step * (k as f64 + 0.5);
            let _ = writeln!(
                s,
                "<text transform=\"translate({x:.1},{:.1}) rotate(40)\" font-size=\"11\">{}</text>",
                top + ph + 14.0,
                esc(&self.label(p))
            );
            if m.unavailable.is_some() {
                continue;
            }
            let colour = if k == 0 { "#999999" } else { "#4a7ab5" };
            let _ = writeln!(
                s,
                "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\"/>",
                y(m.lo * scale),
                y(m.hi * scale)
            );
            let _ = writeln!(
                s,
                "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{colour}\"><title>{}</title></circle>",
                y(m.value * scale),
                esc(&m.text())
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(variants: &[&str], sets: &[&str], sample: Option<usize>) -> Grid {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Grid { variants: variants.iter().map(|v| v.to_string()).collect(), axes: Grid::axes(&sets).unwrap(), sample }
    }

    fn texts(points: &[Point]) -> Vec<String> {
        points.iter().map(|p| label(p, true, &[])).collect()
    }

    #[test]
    fn the_grid_is_every_combination_the_last_option_fastest() {
        let g = grid(&["a", "b"], &["x=1,2", "y=p,q,r", "z=0"], None);
        let p = g.points(1).unwrap();
        assert_eq!(p.len(), 2 * 2 * 3);
        assert_eq!(texts(&p[..4]), ["a x=1 y=p z=0", "a x=1 y=q z=0", "a x=1 y=r z=0", "a x=2 y=p z=0"]);
        assert_eq!(texts(&p[11..]), ["b x=2 y=r z=0"]);
        // The row labels name only what varies.
        let s = Sweep::new(p.iter().cloned().map(|p| (p, Report::new("t".into(), &[], None))).collect(), BY[0], false);
        assert_eq!((s.varying.clone(), s.several_variants), (vec!["x".to_string(), "y".to_string()], true));
        assert_eq!(s.label(&p[4]), "a x=2 y=q");
    }

    #[test]
    fn a_sample_keeps_the_first_point_and_the_grid_order() {
        let g = grid(&["a"], &["x=0,1,2,3,4,5,6,7,8,9", "y=0,1,2,3,4,5,6,7,8,9"], Some(7));
        let p = g.points(5).unwrap();
        assert_eq!(p.len(), 7);
        assert_eq!(texts(&p[..1]), ["a x=0 y=0"]);
        let index = |p: &Point| p.sets[0].1.parse::<u32>().unwrap() * 10 + p.sets[1].1.parse::<u32>().unwrap();
        assert!(p.windows(2).all(|w| index(&w[0]) < index(&w[1])), "{:?}", texts(&p));
        // The same seed draws the same points; another seed others.
        assert_eq!(g.points(5).unwrap(), p);
        assert_ne!(g.points(6).unwrap(), p);
        // A sample as large as the grid is the grid.
        assert_eq!(grid(&["a"], &["x=1,2"], Some(9)).points(1).unwrap().len(), 2);
    }

    #[test]
    fn bad_sweeps_say_why() {
        let e = |r: Result<Vec<Point>, SweepError>| r.unwrap_err().to_string();
        assert!(Grid::axes(&["x".into()]).unwrap_err().to_string().contains("expected NAME=V1,V2"));
        assert!(Grid::axes(&["x=1,,2".into()]).unwrap_err().to_string().contains("an empty value"));
        let big = grid(&["a"], &["x=0,1,2,3,4,5,6,7,8,9", "y=0,1,2,3,4,5,6,7,8,9", "z=0,1,2,3,4,5,6,7,8,9,10"], None);
        assert!(e(big.points(1)).contains("1100 settings: a sweep plays at most 1000"));
        assert!(By::parse("fun").unwrap_err().to_string().contains("expected one of balance, decisiveness"));
        assert!(By::parse("drama").unwrap().needs_evaluation() && !By::parse("balance").unwrap().needs_evaluation());
    }

    /// Reports of `wins` of 40 games each (the rest lost), by hand: balance and draws rank as
    /// their direction says, and the difference from the first is Newcombe's.
    #[test]
    fn settings_rank_by_the_metric_and_its_direction() {
        let report = |wins: u64, draws: u64| {
            let games: Vec<GameRecord> = (0..40)
                .map(|i| GameRecord {
                    index: i,
                    line: format!("{i:x}").as_str().into(),
                    variant: "v".into(),
                    result: if i < wins {
                        "white"
                    } else if i < wins + draws {
                        "draw"
                    } else {
                        "black"
                    }
                    .into(),
                    reason: "r".into(),
                    plies: 10,
                    ..GameRecord::default()
                })
                .collect();
            Report::new("v".into(), &games, None)
        };
        let point = |x: &str| Point { variant: "v".into(), sets: vec![("x".into(), x.into())] };
        let points = || vec![(point("0"), report(40, 0)), (point("1"), report(20, 0)), (point("2"), report(10, 20))];
        let by_balance = Sweep::new(points(), By::parse("balance").unwrap(), false);
        // Balances: 0 %, 100 %, 1 − |2·0.5 − 1| = 100 % (10 wins, 20 draws: a score of 50 %).
        assert_eq!(by_balance.ranking(), [1, 2, 0]);
        let (d, lo, hi, sig) = by_balance.against_first(1).unwrap();
        assert!((d - 1.0).abs() < 1e-12 && lo > 0.0 && hi <= 1.0 && sig, "{d} {lo} {hi}");
        let text = by_balance.text();
        assert!(
            text.contains("best by balance: x=1 (balance 100.0%") && text.contains("significantly better than the first setting (x=0)"),
            "{text}"
        );
        let by_draws = Sweep::new(points(), By::parse("draws").unwrap(), false);
        assert_eq!(by_draws.ranking(), [0, 1, 2]);
        assert!(by_draws.svg().starts_with("<svg") && by_draws.svg().contains("draws"));
    }
}
