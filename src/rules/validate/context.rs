//! The validator's context, which every stage and every construct's reading code shares: the
//! merged files, the options in force, and errors that point into the file.

use super::merge::Merged;
use crate::piece::{ByPlayer, Player};
use crate::rules::error::{LoadError, SourceFile};
use crate::rules::names::Names;
use crate::rules::options::Options;
use std::ops::Range;
use toml::Spanned;

/// The validator's state: the merged files and the options in force.
pub(in crate::rules) struct V<'a> {
    pub(in crate::rules) m: &'a Merged,
    pub(in crate::rules) opts: Options,
}

pub(in crate::rules) type R<T> = Result<T, LoadError>;

impl V<'_> {
    pub(in crate::rules) fn file(&self, i: usize) -> &SourceFile {
        &self.m.files[i]
    }

    /// An error pointing at `span` of file `file`.
    pub(in crate::rules) fn err(&self, file: usize, span: Range<usize>, msg: impl Into<String>, label: impl Into<String>) -> LoadError {
        LoadError::at(self.file(file), span, msg, label)
    }

    pub(in crate::rules) fn main_file(&self) -> usize {
        self.m.files.len() - 1
    }

    /// A player by its exact name; a miss is "`name` is not a player" at `span`.
    pub(in crate::rules) fn player(
        &self,
        file: usize,
        span: Range<usize>,
        players: &ByPlayer<String>,
        name: &str,
        label: &str,
    ) -> R<Player> {
        Player::both()
            .into_iter()
            .find(|&p| players[p] == name)
            .ok_or_else(|| self.err(file, span, format!("`{name}` is not a player"), label))
    }

    /// A 32-bit integer written in the file (attribute values, counters, effects: what a
    /// position stores); anything outside that range is an error at the value, never cut.
    pub(in crate::rules) fn int32(&self, file: usize, x: &Spanned<i64>, what: &str) -> R<i32> {
        i32::try_from(*x.get_ref()).map_err(|_| {
            self.err(file, x.span(), format!("{what} {} is out of range", x.get_ref()), "out of range").with_help(format!(
                "{what} is an integer from {} to {}",
                i32::MIN,
                i32::MAX
            ))
        })
    }

    /// Looks a name up; a miss is `unknown NOUN `name`CONTEXT` at `span`, with "did you mean".
    pub(in crate::rules) fn lookup(
        &self,
        file: usize,
        span: Range<usize>,
        names: &Names,
        name: &str,
        context: &str,
        label: &str,
    ) -> R<usize> {
        names.index(name).ok_or_else(|| {
            let e = self.err(file, span, format!("{}{context}", names.unknown(name)), label);
            match names.hint(name) {
                Some(h) => e.with_help(h),
                None => e,
            }
        })
    }
}
