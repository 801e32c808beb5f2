//! Load errors: one diagnostic type for TOML, validation and script problems, rendered once at
//! the edge (by `main`, the REPL, or a snapshot test) with file, line, column and a caret.

use miette::{Diagnostic, NamedSource, SourceSpan};
use std::ops::Range;

/// A source text a diagnostic can point into: a variant file or a script.
#[derive(Clone, Debug)]
pub(crate) struct SourceFile {
    /// The name shown to the designer (`variants/basileus/variant.toml`).
    pub(crate) name: String,
    pub(crate) text: String,
}

/// A problem with a variant's files.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct LoadError {
    pub message: String,
    #[source_code]
    pub(crate) src: Option<NamedSource<String>>,
    #[label("{label}")]
    pub(crate) span: Option<SourceSpan>,
    pub(crate) label: String,
    #[help]
    pub help: Option<String>,
}

impl LoadError {
    /// An error with no place in a file (a missing file, an unknown variant).
    pub(crate) fn plain(message: impl Into<String>) -> LoadError {
        LoadError { message: message.into(), src: None, span: None, label: String::new(), help: None }
    }

    /// An error pointing at a byte range of a file.
    pub(crate) fn at(file: &SourceFile, span: Range<usize>, message: impl Into<String>, label: impl Into<String>) -> LoadError {
        let len = file.text.len();
        let start = span.start.min(len);
        let end = span.end.clamp(start, len);
        LoadError {
            message: message.into(),
            src: Some(NamedSource::new(file.name.clone(), file.text.clone())),
            span: Some((start, end - start).into()),
            label: label.into(),
            help: None,
        }
    }

    /// An error at a 1-based line and column of a file.
    pub(crate) fn at_line(
        file: &SourceFile,
        line: usize,
        column: usize,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> LoadError {
        let offset = offset_of(&file.text, line, column);
        let end = (offset + 1).min(file.text.len());
        LoadError::at(file, offset..end, message, label)
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> LoadError {
        self.help = Some(help.into());
        self
    }

    /// Renders the diagnostic as plain text (no colour), as the tests and pipes see it.
    pub fn render_plain(&self) -> String {
        let mut out = String::new();
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor()).with_width(100);
        if handler.render_report(&mut out, self).is_err() {
            out = self.message.clone();
        }
        out
    }

    /// Renders with colour when `color` is set.
    pub fn render(&self, color: bool) -> String {
        if !color {
            return self.render_plain();
        }
        let mut out = String::new();
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode()).with_width(100);
        if handler.render_report(&mut out, self).is_err() {
            out = self.message.clone();
        }
        out
    }
}

/// The byte offset of a 1-based line and column.
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return offset + column.saturating_sub(1).min(l.len());
        }
        offset += l.len();
    }
    text.len()
}

/// "did you mean `x`?" for the closest known name, if one is close enough.
pub(crate) fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(f64, &str)> = None;
    for k in known {
        let score = strsim::jaro_winkler(word, k);
        if score > 0.75 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, k));
        }
    }
    best.map(|(_, k)| format!("did you mean `{k}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets() {
        assert_eq!(offset_of("ab\ncd\n", 2, 2), 4);
        assert_eq!(offset_of("ab", 9, 1), 2);
    }

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("figur", ["pawn", "figure"]).as_deref(), Some("did you mean `figure`?"));
        assert_eq!(did_you_mean("zzz", ["pawn", "figure"]), None);
    }
}
