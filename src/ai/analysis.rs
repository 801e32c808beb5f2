//! What the machine thinks, in words: the evaluation term by term for each player (`eval`), and
//! the best moves with their scores and lines (`hint`, `analyse`). The REPL and the command line
//! print the same texts.
//!
//! An analysis of n lines searches n times. The first search is exactly the one `hint` and
//! `ai` make (the same budget, the same generator), so the best move is the same whatever the
//! number of lines asked for. Each further search, with the same budget but no deeper than the
//! first went, finds the best of the moves not yet shown, so the later lines' scores compare
//! with the first's. Depth and node budgets make the whole analysis reproducible; a time budget
//! cannot (how far a search gets in a second depends on the machine and its load).

use super::eval::{Evaluator, pieces};
use super::{Budget, Engine, Rng, SearchError, SearchResult, search};
pub(crate) use crate::progress::thousands;
use crate::script::ScriptError;
use crate::state::Position;
use crate::variant::Variant;
use std::fmt::Write;

/// The most lines an analysis shows.
pub(crate) const MAX_LINES: usize = 20;

/// The moves of a principal variation an analysis shows.
const PV_SHOWN: usize = 10;

/// The best moves of a position, best first (each from its own search).
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub(crate) budget: Budget,
    pub lines: Vec<SearchResult>,
}

impl Analysis {
    /// Positions searched over all lines.
    pub(crate) fn nodes(&self) -> u64 {
        self.lines.iter().map(|l| l.nodes).sum()
    }

    /// The head line, without its newline: the budget, who decides, the positions searched
    /// and how to read the lines. No time: with a depth or node budget the whole text is the
    /// same on every run (the REPL adds the time after the head).
    pub(crate) fn head(&self, v: &Variant, pos: &Position) -> String {
        if self.lines.is_empty() {
            return format!("no move to analyse ({})", crate::render::status(v, pos));
        }
        let who = v.rules.player_name(pos.side());
        format!(
            "{} for {who}: {} positions; scores in pieces, + good for {who}; d: the depth searched",
            Engine::AlphaBeta(self.budget),
            thousands(self.nodes())
        )
    }

    /// One line per move with its score (for the player to decide), the depth searched and the
    /// line the search expects; then a note when a later line scores above the first.
    pub(crate) fn body(&self, v: &Variant) -> String {
        let g = &v.rules.geometry;
        let mut s = String::new();
        let width = self.lines.iter().filter_map(|l| l.best).map(|m| m.text(g).len()).max().unwrap_or(0);
        for (i, l) in self.lines.iter().enumerate() {
            let Some(m) = l.best else { continue };
            let mut pv: Vec<String> = l.pv.iter().take(PV_SHOWN).map(|m| m.text(g)).collect();
            if l.pv.len() > PV_SHOWN {
                pv.push("…".into());
            }
            let _ = writeln!(s, "{:>3}. {:<width$}  {:>10}  d{:<2}  {}", i + 1, m.text(g), l.score.to_string(), l.depth, pv.join(" "));
        }
        if self.lines.iter().skip(1).any(|l| l.score > self.lines[0].score) {
            let _ = writeln!(
                s,
                "(a later line scores above the first: the first search ran out of budget before comparing every move \
                 at its depth; the first is still the search's choice, the move `ai` plays)"
            );
        }
        s
    }

    /// The analysis as printed: [`Analysis::head`], then [`Analysis::body`].
    pub fn text(&self, v: &Variant, pos: &Position) -> String {
        format!("{}\n{}", self.head(v, pos), self.body(v))
    }
}

/// The `lines` best moves for the player to decide in `pos`: first the move [`super::think`]
/// chooses with `budget` and `rng` (the same search), then the best of the others, each
/// searched within `budget` and no deeper than the first.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed.
pub fn analyse(v: &Variant, pos: &Position, budget: Budget, lines: usize, rng: &mut Rng) -> Result<Analysis, SearchError> {
    let mut work = pos.clone();
    let best = search::search(v, &mut work, budget, rng)?;
    let Some(first) = best.best else { return Ok(Analysis { budget, lines: vec![] }) };
    // A search that completed no iteration (a tiny node budget) still caps the others at 1.
    let cap = best.depth.max(1);
    let mut found = vec![best];
    let mut except = vec![first];
    while found.len() < lines.clamp(1, MAX_LINES) {
        let r = search::search_limited(v, &mut work, budget, cap, rng, &except)?;
        let Some(m) = r.best else { break };
        except.push(m);
        found.push(r);
    }
    // The later lines best first among themselves; the first stays first, as `ai` would play
    // it, even where a later line scores above it (see [`Analysis::text`]).
    found[1..].sort_by_key(|l| std::cmp::Reverse(l.score));
    Ok(Analysis { budget, lines: found })
}

/// The evaluation of `pos`, term by term for each player, as printed by `eval`.
///
/// # Errors
/// The script's `evaluate` hook failed.
pub(crate) fn eval_text(v: &Variant, pos: &Position) -> Result<String, ScriptError> {
    let mut work = pos.clone();
    let e = Evaluator::new(v).breakdown(&mut work)?;
    let r = &v.rules;
    let (me, them) = (e.side, e.side.other());
    let (a, b) = (r.player_name(me), r.player_name(them));
    let mut s = String::new();
    let mut moves = Vec::new();
    v.legal_moves(&mut work, &mut moves)?;
    if moves.is_empty() {
        let _ = writeln!(s, "the game is over ({}); the evaluation of the final position:", crate::render::status(v, pos));
    }
    let w = a.len().max(b.len()).max(10);
    let _ = writeln!(s, "{:<10} {a:>w$} {b:>w$} {:>w$}  what it measures", "term", "difference");
    for (t, by) in &e.terms {
        let _ = writeln!(
            s,
            "{:<10} {:>w$} {:>w$} {:>w$}  {}",
            t.name(),
            pieces(by[me]),
            pieces(by[them]),
            pieces(by[me] - by[them]),
            t.describe()
        );
    }
    if e.terms.is_empty() {
        let _ = writeln!(s, "(this variant's rules give the evaluation nothing to measure)");
    }
    let _ = writeln!(s, "{:<10} {:>w$} {:>w$} {:>w$}", "total", "", "", pieces(e.total(me)));
    let _ = writeln!(s, "{}: {} for {a}, who decides (in pieces: 1.00 = a piece of value 100)", verdict(e.total(me)), pieces(e.total(me)));
    Ok(s)
}

/// A word for an evaluation.
fn verdict(units: i32) -> &'static str {
    match units {
        i32::MIN..=-3000 => "clearly behind",
        -2999..=-500 => "behind",
        -499..=499 => "about even",
        500..=2999 => "ahead",
        _ => "clearly ahead",
    }
}

/// After a machine move: what the search found (`+0.30, depth 7, 50,012 positions`).
pub(crate) fn summary(r: &SearchResult) -> String {
    format!("{}, depth {}, {} positions", r.score, r.depth, thousands(r.nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_distinct_and_best_first() {
        let v = Variant::load("checkers", &[]).unwrap();
        let pos = v.start();
        let a = analyse(&v, &pos, Budget::Depth(3), 3, &mut super::super::rng(1)).unwrap();
        assert_eq!(a.lines.len(), 3);
        let firsts: std::collections::HashSet<String> = a.lines.iter().map(|l| l.best.unwrap().text(&v.rules.geometry)).collect();
        assert_eq!(firsts.len(), 3, "three different moves");
        assert!(a.lines.windows(2).all(|w| w[0].score >= w[1].score));
        // More lines than moves: as many as there are (checkers' start has 7).
        let all = analyse(&v, &pos, Budget::Depth(1), 20, &mut super::super::rng(1)).unwrap();
        assert_eq!(all.lines.len(), 7);
        let text = all.text(&v, &pos);
        assert!(text.starts_with("ab:d1 for "), "{text}");
        assert!(!text.contains(" s "), "no time: the text is the same on every run: {text}");
        assert_eq!(text.lines().count(), 8, "{text}");
    }

    #[test]
    fn eval_text_lists_the_terms() {
        let v = Variant::load("checkers", &[]).unwrap();
        let t = eval_text(&v, &v.start()).unwrap();
        assert!(t.contains("material") && t.contains("mobility") && t.contains("about even"), "{t}");
    }
}
