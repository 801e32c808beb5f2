//! The game lines a session keeps, as a list a front end can show and move along: the lines
//! edits replaced ([`Session::earlier`], oldest first), the current one, and the lines `undo`
//! left ([`Session::later`]). `undo` at the start of a line and `redo` at its end move one step
//! along this list; [`Session::switch_line`] moves any number of steps at once.
//!
//! [`Session::play_keeping_line`] is how the web page plays: a move from an earlier ply, which
//! drops the plies ahead in the REPL, first keeps the whole line as an earlier one.

use super::{CommandError, Line, Reply, Saved, Session};
use crate::notation::Move;

/// One game line, for a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineView {
    /// The variant it is played in.
    pub(crate) variant: String,
    /// Its moves from its start: those played up to its cursor, then those ahead.
    pub(crate) moves: Vec<String>,
    /// How many of `moves` are played (where the line was left).
    pub(crate) cursor: usize,
    /// The ply of its start position.
    pub(crate) start_ply: u32,
    /// The edit between it and its neighbour toward the current line (`None` for the current).
    pub(crate) edit: Option<String>,
}

impl Line {
    fn view(&self) -> LineView {
        let g = &self.variant.rules.geometry;
        LineView {
            variant: self.variant.name().to_string(),
            moves: self.played.iter().chain(self.undone.iter().rev()).map(|m| m.text(g)).collect(),
            cursor: self.played.len(),
            start_ply: self.start.ply(),
            edit: Some(self.edit.clone()),
        }
    }
}

impl Session {
    /// Every line kept, in order: the earlier ones (oldest first), the current one (at index
    /// `earlier.len()`), then the later ones (the next one first).
    pub(crate) fn lines(&self) -> Vec<LineView> {
        let g = &self.variant.rules.geometry;
        let current = LineView {
            variant: self.variant.name().to_string(),
            moves: self.played.iter().chain(self.undone.iter().rev()).map(|m| m.text(g)).collect(),
            cursor: self.played.len(),
            start_ply: self.start.ply(),
            edit: None,
        };
        let mut all: Vec<LineView> = self.earlier.iter().map(Line::view).collect();
        all.push(current);
        all.extend(self.later.iter().rev().map(Line::view));
        all
    }

    /// Back to the line before this one (what `undo` does at the start of a line); the edit
    /// that separated them, or `None` when there is none.
    pub(super) fn line_back(&mut self) -> Option<String> {
        let line = self.earlier.pop()?;
        let edit = line.edit.clone();
        let current = self.take_line(edit.clone());
        self.later.push(current);
        self.put_line(line);
        Some(edit)
    }

    /// On to the line `undo` left (what `redo` does at the end of a line).
    pub(super) fn line_forward(&mut self) -> Option<String> {
        let line = self.later.pop()?;
        let edit = line.edit.clone();
        let current = self.take_line(edit.clone());
        self.earlier.push(current);
        self.put_line(line);
        Some(edit)
    }

    /// Makes line `index` of [`Session::lines`] the current one, each line left where it was
    /// looked at; the order of the lines does not change.
    ///
    /// # Errors
    /// No line has that index; the session is unchanged.
    pub(crate) fn switch_line(&mut self, index: usize) -> Result<(), CommandError> {
        let here = self.earlier.len();
        let count = here + 1 + self.later.len();
        if index >= count {
            return Err(CommandError::Rejected(format!("no line {index}: this game keeps {count} (0 to {})", count - 1)));
        }
        for _ in index..here {
            self.line_back();
        }
        for _ in here..index {
            self.line_forward();
        }
        Ok(())
    }

    /// Plays `m` through [`Session::execute`] (its guard, its hooks), dropping no line: when
    /// it is played from an earlier ply and is not the next move of the history, the whole
    /// line, plies ahead included, is first kept as an earlier line (`undo` at the start of the
    /// new line, or [`Session::switch_line`], returns to it); the later lines stay (the REPL's
    /// move drops them, as an undo stack does). A failing move changes nothing.
    ///
    /// # Errors
    /// As [`Session::execute`].
    pub(crate) fn play_keeping_line(&mut self, m: Move) -> Result<Reply, CommandError> {
        let text = m.text(&self.variant.rules.geometry);
        let branches = self.undone.last().is_some_and(|next| *next != m);
        // The whole session only when a line is kept: `execute` guards the rest itself.
        let saved = branches.then(|| Saved::of(self));
        let later = std::mem::take(&mut self.later);
        if branches {
            let ply = self.pos.ply();
            self.keep_line(&format!("a new line from ply {ply}: {text}"));
        }
        let r = self.execute(&text);
        if let (Err(_), Some(saved)) = (&r, saved) {
            saved.restore(self);
        }
        self.later = later;
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Style;

    fn session() -> Session {
        let mut s = Session::new("checkers", &[], Style::PLAIN).unwrap();
        // Two plies, then back to the start: the game is c3-d4 f6-g5 with both ahead.
        for l in ["c3-d4", "f6-g5", "goto 0"] {
            s.execute(l).unwrap();
        }
        s
    }

    fn play(s: &mut Session, text: &str) -> Result<Reply, CommandError> {
        let m = s.resolve(text)?;
        s.play_keeping_line(m)
    }

    #[test]
    fn a_move_from_an_earlier_ply_keeps_the_old_line() {
        let mut s = session();
        play(&mut s, "a3-b4").unwrap();
        let lines = s.lines();
        assert_eq!(lines.len(), 2);
        // The old line, as it was left: at its start, both plies ahead.
        assert_eq!((lines[0].moves.clone(), lines[0].cursor), (vec!["c3-d4".to_string(), "f6-g5".to_string()], 0));
        assert_eq!(lines[0].edit.as_deref(), Some("a new line from ply 0: a3-b4"));
        assert_eq!((lines[1].moves.clone(), lines[1].cursor, lines[1].edit.clone()), (vec!["a3-b4".to_string()], 1, None));
        // Back to it and forward again: the same two lines, the current one moved.
        s.switch_line(0).unwrap();
        assert_eq!(s.undone.len(), 2);
        assert_eq!(s.lines()[1].moves, vec!["a3-b4"]);
        assert!(s.switch_line(2).is_err());
        // A second new line from the first one's start: the three lines stay, in order.
        play(&mut s, "e3-f4").unwrap();
        let moves: Vec<Vec<String>> = s.lines().into_iter().map(|l| l.moves).collect();
        assert_eq!(moves, [vec!["c3-d4", "f6-g5"], vec!["e3-f4"], vec!["a3-b4"]]);
        s.switch_line(2).unwrap();
        assert_eq!((s.played.len(), s.earlier.len()), (1, 2));
        // A move at the end of a line drops none of the others.
        play(&mut s, "f6-e5").unwrap();
        s.switch_line(0).unwrap();
        assert_eq!(s.lines().len(), 3);
    }

    #[test]
    fn the_next_move_or_a_refused_one_keeps_no_line() {
        let mut s = session();
        // The next move of the history steps forward.
        play(&mut s, "c3-d4").unwrap();
        assert_eq!((s.lines().len(), s.undone.len(), s.played.len()), (1, 1, 1));
        // At the end of the history: no line to keep.
        play(&mut s, "f6-g5").unwrap();
        play(&mut s, "a3-b4").unwrap();
        assert_eq!(s.lines().len(), 1);
    }

    #[test]
    fn a_failing_move_keeps_every_line_as_it_was() {
        // Its after_move hook fails on c3-d4.
        let mut s = Session::new("tests/scripted/runtime_error/variant.toml", &[], Style::PLAIN).unwrap();
        for l in ["a3-b4", "f6-g5", "goto 0"] {
            s.execute(l).unwrap();
        }
        play(&mut s, "e3-f4").unwrap();
        s.switch_line(0).unwrap();
        let before = s.lines();
        assert_eq!(before.len(), 2);
        // From an earlier ply (a line would be kept)...
        assert!(play(&mut s, "c3-d4").is_err());
        assert_eq!(s.lines(), before);
        assert_eq!((s.played.len(), s.undone.len(), s.earlier.len(), s.later.len()), (0, 2, 0, 1));
        // ...and at the end of the line (none would be): the later line stays.
        s.execute("goto 2").unwrap();
        let before = s.lines();
        assert!(play(&mut s, "c3-d4").is_err());
        assert_eq!(s.lines(), before);
        assert_eq!(s.later.len(), 1);
    }
}
