//! Texel's method: the evaluation `e` of a position predicts its game's result `r` (1, ½, 0 for
//! the player to decide) as `sigmoid(K·e)`; the error is the mean of `(r − sigmoid(K·e))²`. K is
//! fitted first with the numbers as they are (so that K reads the evaluation's scale), then the
//! numbers are moved by a local search: each parameter in turn a step up or down, kept when the
//! error falls, the step growing while it does and halving when neither way helps, until every
//! step is below its resolution (a value's or a point's one, a weight's thousandth) or the sweeps
//! run out.
//!
//! Every candidate is a model built by the loader's own builder from numbers a variant file can
//! hold (values whole points from 0 to 100000, weights thousandths from 0 to 100, points whole
//! from −100000 to 100000), so the fitted
//! model is what the file then loads.

use super::features::Data;
use crate::rules::eval::{POINTS_RANGE, build_model};
use crate::rules::{EvalModel, Ruleset, Term};

/// The range `[ai.eval] values` accepts.
pub(crate) const VALUE_RANGE: (i32, i32) = (0, 100_000);
/// The range `[ai.eval] weights` accepts.
pub(crate) const WEIGHT_RANGE: (f64, f64) = (0.0, 100.0);

/// A number the fit may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Param {
    /// A kind's value (by kind index).
    Value(usize),
    /// A term's weight.
    Weight(Term),
    /// The attributes term's points of a kind (by index) at a value of its distance attribute.
    Points(usize, usize),
}

/// The numbers of `[ai.eval]`: every kind's value, every term's weight, and the attributes
/// term's points of the kinds that move by an attribute's distance.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Numbers {
    pub(crate) values: Vec<i32>,
    pub(crate) weights: [f64; Term::COUNT],
    pub(crate) points: Vec<Option<Vec<i32>>>,
}

impl Numbers {
    /// The numbers a model was built with.
    pub(crate) fn of(m: &EvalModel) -> Numbers {
        Numbers { values: m.values.clone(), weights: m.weights, points: m.attribute_points.clone() }
    }

    /// The model of these numbers for `r`.
    pub(crate) fn model(&self, r: &Ruleset) -> EvalModel {
        let overrides: Vec<Option<i32>> = self.values.iter().map(|&v| Some(v)).collect();
        EvalModel { implicit_takes: r.eval.implicit_takes, ..build_model(r, &overrides, &self.points, &self.weights, r.eval.nodes) }
    }

    pub(crate) fn get(&self, p: Param) -> f64 {
        match p {
            Param::Value(k) => self.values[k] as f64,
            Param::Weight(t) => self.weights[t.index()],
            Param::Points(k, i) => self.points[k].as_ref().map_or(0.0, |p| f64::from(p[i])),
        }
    }

    /// These numbers with `p` moved by `by`, clamped to its range and rounded to its resolution.
    pub(crate) fn moved(&self, p: Param, by: f64) -> Numbers {
        let mut n = self.clone();
        match p {
            Param::Value(k) => n.values[k] = clamp_value(self.values[k] as f64 + by),
            Param::Weight(t) => n.weights[t.index()] = clamp_weight(self.weights[t.index()] + by),
            Param::Points(k, i) => {
                if let Some(p) = n.points[k].as_mut() {
                    p[i] = (f64::from(p[i]) + by).round().clamp(*POINTS_RANGE.start() as f64, *POINTS_RANGE.end() as f64) as i32;
                }
            }
        }
        n
    }
}

/// A value as `[ai.eval]` holds it: whole points, in range.
pub(crate) fn clamp_value(x: f64) -> i32 {
    x.round().clamp(VALUE_RANGE.0 as f64, VALUE_RANGE.1 as f64) as i32
}

/// A weight as `tune` writes it: thousandths, in range.
pub(crate) fn clamp_weight(x: f64) -> f64 {
    ((x * 1000.0).round() / 1000.0).clamp(WEIGHT_RANGE.0, WEIGHT_RANGE.1)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The positions' evaluations under a model (training and held-out alike).
pub(crate) fn evals(data: &Data, m: &EvalModel) -> Vec<f64> {
    (0..data.len()).map(|i| data.eval(m, i)).collect()
}

/// The mean squared error of `sigmoid(k·e)` against the results, over the positions held out
/// (`held_out`) or the others.
pub(crate) fn error(data: &Data, evals: &[f64], k: f64, held_out: bool) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for (i, &e) in evals.iter().enumerate() {
        if data.held_out[i] == held_out {
            let d = data.results[i] as f64 - sigmoid(k * e);
            sum += d * d;
            n += 1;
        }
    }
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// The smallest K [`fit_k`] tells from none: at or below it, the evaluation does not predict the
/// results (or predicts them backwards), and scaling every number up would be all the fit did.
pub(crate) const K_FLOOR: f64 = 2e-7;

/// The K of least training error for these evaluations: a scan over powers of ten, then a
/// golden-section search around the best (on log K).
pub(crate) fn fit_k(data: &Data, evals: &[f64]) -> f64 {
    let err = |lk: f64| error(data, evals, 10f64.powf(lk), false);
    // K from 1e-7 to 1e-1 per unit (a piece is 1000 units).
    let mut best = (f64::INFINITY, -7.0);
    let mut lk = -7.0;
    while lk <= -1.0 + 1e-9 {
        let e = err(lk);
        if e < best.0 {
            best = (e, lk);
        }
        lk += 0.25;
    }
    let (mut a, mut b) = (best.1 - 0.25, best.1 + 0.25);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    10f64.powf((a + b) / 2.0)
}

/// Where a fit ended.
#[derive(Clone, Debug)]
pub(crate) struct Fitted {
    pub(crate) numbers: Numbers,
    /// Training error at the end.
    pub(crate) error: f64,
    /// Sweeps over the parameters made.
    pub(crate) sweeps: u32,
    /// Whether the steps all fell below their resolution (else the sweeps or Ctrl-C ended it).
    pub(crate) converged: bool,
    pub(crate) interrupted: bool,
}

/// A parameter's first step and its resolution (the smallest step tried).
fn steps(p: Param, start: f64) -> (f64, f64) {
    match p {
        // A fifth of the value (at least 5 points), down to a point.
        Param::Value(_) => ((start / 5.0).max(5.0), 1.0),
        Param::Weight(_) => ((start / 4.0).max(0.125), 0.001),
        // Ten points, down to a point.
        Param::Points(..) => (10.0, 1.0),
    }
}

/// The local search from `start` over `params`, at most `max_sweeps` sweeps; `report` hears of
/// each sweep (its number and the error).
pub(crate) fn local_search(
    r: &Ruleset,
    data: &Data,
    k: f64,
    (start, params): (&Numbers, &[Param]),
    max_sweeps: u32,
    report: &mut dyn FnMut(u32, f64),
) -> Fitted {
    let err = |n: &Numbers| error(data, &evals(data, &n.model(r)), k, false);
    let mut best = start.clone();
    let mut best_err = err(&best);
    let mut step: Vec<(f64, f64)> = params.iter().map(|&p| steps(p, start.get(p))).collect();
    let mut fitted = Fitted { numbers: best.clone(), error: best_err, sweeps: 0, converged: false, interrupted: false };
    while fitted.sweeps < max_sweeps {
        if crate::interrupt::check().is_err() {
            fitted.interrupted = true;
            break;
        }
        fitted.sweeps += 1;
        for (i, &p) in params.iter().enumerate() {
            let (s, min) = step[i];
            // Either way; then on in the way that helped, the step doubling.
            let mut moved = false;
            for dir in [1.0, -1.0] {
                let mut by = s * dir;
                loop {
                    let cand = best.moved(p, by);
                    if cand == best {
                        break;
                    }
                    let e = err(&cand);
                    if e >= best_err {
                        break;
                    }
                    (best, best_err, moved) = (cand, e, true);
                    by *= 2.0;
                }
                if moved {
                    break;
                }
            }
            step[i].0 = if moved { s } else { (s / 2.0).max(min / 2.0) };
        }
        report(fitted.sweeps, best_err);
        if step.iter().all(|&(s, min)| s < min) {
            fitted.converged = true;
            break;
        }
    }
    fitted.numbers = best;
    fitted.error = best_err;
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_to_what_a_file_holds() {
        assert_eq!(clamp_value(-3.0), 0);
        assert_eq!(clamp_value(123.6), 124);
        assert_eq!(clamp_value(1e9), 100_000);
        assert_eq!(clamp_weight(-0.5), 0.0);
        assert_eq!(clamp_weight(0.12345), 0.123);
        assert_eq!(clamp_weight(250.0), 100.0);
        // A thousandth written and read back is the same number.
        assert_eq!("0.123".parse::<f64>().unwrap(), clamp_weight(0.1234));
        let n = Numbers { values: vec![100, 5], weights: [1.0; Term::COUNT], points: vec![None, None] };
        assert_eq!(n.moved(Param::Value(1), -20.0).values, [100, 0]);
        assert_eq!(n.moved(Param::Weight(Term::Mobility), 200.0).weights[Term::Mobility.index()], 100.0);
    }

    #[test]
    fn k_is_found_from_the_results() {
        // Evaluations whose results follow sigmoid(0.002 e) exactly (as shares of wins).
        let mut data = Data::default();
        let mut evals = Vec::new();
        for i in -20..=20 {
            let e = i as f64 * 100.0;
            let p = sigmoid(0.002 * e);
            // Ten positions per evaluation, the share of wins p (rounded).
            let wins = (p * 10.0).round() as usize;
            for j in 0..10 {
                data.results.push(if j < wins { 1.0 } else { 0.0 });
                data.held_out.push(false);
                evals.push(e);
            }
        }
        let k = fit_k(&data, &evals);
        assert!((k - 0.002).abs() < 0.0004, "{k}");
    }
}
