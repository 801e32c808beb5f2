//! Two rule sets' reports side by side: every result and quality metric with the difference
//! (B − A), its 95 % interval and whether it is significant.

use super::{Report, newcombe, wilson};
use std::fmt::Write;

/// Two reports side by side, with each difference and whether it exceeds its 95 % interval.
pub fn compare(a: &Report, b: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "A = {}, B = {}", a.title, b.title);
    // A difference between results the move limit decided, between too few games, or between
    // games the players repeat, says nothing about the rules.
    let why = [("A", a.judged()), ("B", b.judged())].into_iter().find_map(|(k, j)| j.err().map(|e| format!("in {k}, {e}")));
    let judge = why.is_none();
    if let Some(why) = why {
        let _ = writeln!(s, "(no difference is marked significant: {why})");
    }
    let _ = writeln!(s, "{:<34} {:>22} {:>22} {:>26}", "", "A", "B", "difference (B − A) [95%]");
    let mark = |lo: f64, hi: f64| if judge && (lo > 0.0 || hi < 0.0) { "  significant" } else { "" };
    // Shares: Newcombe's interval for the difference of two Wilson intervals.
    let prop = |name: &str, x: f64, y: f64, s: &mut String| {
        let (na, nb) = (a.distinct as f64, b.distinct as f64);
        let (lo, hi) = newcombe(x, wilson(x, na), y, wilson(y, nb));
        let _ = writeln!(
            s,
            "{name:<34} {:>22} {:>22} {:>+8.1} [{:+.1}, {:+.1}]{}",
            format!("{:.1}%", x * 100.0),
            format!("{:.1}%", y * 100.0),
            (y - x) * 100.0,
            lo * 100.0,
            hi * 100.0,
            mark(lo, hi)
        );
    };
    // Seats named as A names its players (and by seat where B names them otherwise).
    let wins = |k: usize| match (&a.names[k], &b.names[k]) {
        (x, y) if x == y => format!("{x} wins"),
        _ => format!("{} seat wins", ["first", "second"][k]),
    };
    prop(&wins(0), a.first.p, b.first.p, &mut s);
    prop(&wins(1), a.second.p, b.second.p, &mut s);
    prop("draws", a.draws.p, b.draws.p, &mut s);
    // Every quality metric: shares by Newcombe's interval, means by Welch's (kept within what
    // the data allow), the balance as a plain difference (its interval folds at 50 %).
    for (x, y) in a.quality.measures.iter().zip(&b.quality.measures) {
        let _ = writeln!(s, "{}", metric_row(x, y, judge).trim_end());
    }
    let plain = |name: &str, x: f64, y: f64, s: &mut String| {
        let _ = writeln!(s, "{name:<34} {x:>22.2} {y:>22.2} {:>+8.2}", y - x);
    };
    plain("median length (plies)", a.length.median, b.length.median, &mut s);
    plain("mean branching (all positions)", a.branching.mean, b.branching.mean, &mut s);
    let mut reasons: Vec<String> = a.reasons.iter().chain(&b.reasons).map(|r| r.0.clone()).collect();
    reasons.sort();
    reasons.dedup();
    for r in reasons {
        let get = |rep: &Report| rep.reasons.iter().find(|x| x.0 == r).map_or(0, |x| x.1);
        let _ = writeln!(s, "{:<34} {:>22} {:>22} {:>+8}", trunc(&r, 34), get(a), get(b), get(b) as i64 - get(a) as i64);
    }
    let _ = write!(s, "A {}B {}", a.speed_line(), b.speed_line());
    s
}

/// One quality metric of two rule sets as a row: both values, then [`metric_difference`].
fn metric_row(x: &super::quality::Measure, y: &super::quality::Measure, judge: bool) -> String {
    let show = |m: &super::quality::Measure| if m.unavailable.is_some() { "unavailable".to_string() } else { m.show(m.value) };
    format!("{:<34} {:>22} {:>22} {}", trunc(x.name, 34), show(x), show(y), metric_difference(x, y, judge))
}

/// The difference B − A of one quality metric with its 95 % interval, `significant` when the
/// interval excludes zero and `judge` allows: shares by Newcombe's interval, means by Welch's
/// (kept within what the data allow), the balance as a plain difference (its interval folds at
/// 50 %). Empty when either is unavailable.
pub(super) fn metric_difference(x: &super::quality::Measure, y: &super::quality::Measure, judge: bool) -> String {
    use super::quality::{Kind, Unit};
    if x.unavailable.is_some() || y.unavailable.is_some() {
        return String::new();
    }
    // Percent shares differ in points (one decimal, as the results); other units in their own.
    let (k, dp) = if x.unit == Unit::Percent { (100.0, 1) } else { (1.0, 2) };
    let d = (y.value - x.value) * k;
    let interval = if x.kind == Kind::Balance { None } else { Some(difference_interval(x, y)) };
    match interval {
        Some((lo, hi)) => {
            let mark = if judge && (lo > 0.0 || hi < 0.0) { "  significant" } else { "" };
            format!("{d:>+8.dp$} [{:+.dp$}, {:+.dp$}]{mark}", lo * k, hi * k)
        }
        None => format!("{d:>+8.dp$}"),
    }
}

/// The 95 % interval of the difference B − A of one metric measured on both: Newcombe's hybrid
/// score interval from the two intervals for shares, the score and the balance; Welch's for
/// means, kept within what the data allow.
pub(crate) fn difference_interval(x: &super::quality::Measure, y: &super::quality::Measure) -> (f64, f64) {
    use super::quality::Kind;
    match x.kind {
        Kind::Share | Kind::Score | Kind::Balance => newcombe(x.value, (x.lo, x.hi), y.value, (y.lo, y.hi)),
        Kind::Mean => {
            let half = 1.96 * (x.sd * x.sd / x.n as f64 + y.sd * y.sd / y.n as f64).sqrt();
            let d = y.value - x.value;
            ((d - half).max(y.min - x.max), (d + half).min(y.max - x.min))
        }
    }
}

fn trunc(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { s.chars().take(n - 1).collect::<String>() + "…" }
}
