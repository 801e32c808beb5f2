//! The text of PGN and PDN files: games of tag pairs (`[Event "…"]`) then movetext (move
//! numbers, moves, comments, NAGs, variations, the result). PDN is PGN's format for draughts;
//! the two differ in their tags and moves, not in their syntax, so one reader serves both.
//!
//! Reading keeps the tags, the moves of the main line (with where each stands in the text) and
//! the result; comments (`{…}`, `;…`), `%` escape lines, NAGs (`$1`), move numbers (`12.`,
//! `12...`) and variations (`(…)`, nested) are skipped.

/// One game of a PGN or PDN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Game {
    /// The tag pairs, in the order written.
    pub(crate) tags: Vec<(String, String)>,
    /// The main line's moves as written, with their line and column (from 1).
    pub(crate) moves: Vec<Token>,
    /// `1-0`, `0-1`, `1/2-1/2`, `*` (PDN also `2-0`, `1-1`, `0-2`, `0-0`); `*` when none was written.
    pub(crate) result: String,
    /// A comment written after the last move, for a reader (why the game ended).
    pub(crate) comment: Option<String>,
}

/// A move as written, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) text: String,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// A text that is not PGN/PDN: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub(crate) struct SyntaxError {
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) message: String,
}

/// The results PGN and PDN write after the moves.
const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"];

/// The most games one file may hold (a million).
pub(crate) const MAX_GAMES: usize = 1_000_000;

impl Game {
    /// A tag's value.
    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The game as text: the tags, a blank line, the moves numbered (`numbers[i]`: the move
    /// number written before move `i`, with `...` when it is the second player's), wrapped
    /// before 80 columns, the comment, the result, a blank line.
    pub(crate) fn to_text(&self, numbers: &[Option<String>]) -> String {
        let mut s = String::new();
        for (n, v) in &self.tags {
            s.push_str(&format!("[{n} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
        }
        s.push('\n');
        let mut words: Vec<String> = Vec::new();
        for (i, m) in self.moves.iter().enumerate() {
            if let Some(Some(n)) = numbers.get(i) {
                words.push(n.clone());
            }
            words.push(m.text.clone());
        }
        if let Some(c) = &self.comment {
            words.push(format!("{{{}}}", c.replace('}', ")")));
        }
        words.push(self.result.clone());
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 79 {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        s.push_str(&line);
        s.push_str("\n\n");
        s
    }
}

/// A cursor over the text that counts lines and columns.
struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
    /// Whether nothing but blanks came before on this line (a `%` there escapes the line).
    line_start: bool,
}

impl Lexer<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            (self.line, self.column, self.line_start) = (self.line + 1, 1, true);
        } else {
            self.column += 1;
            if !c.is_whitespace() {
                self.line_start = false;
            }
        }
        Some(c)
    }

    fn error(&self, message: impl Into<String>) -> SyntaxError {
        SyntaxError { line: self.line, column: self.column, message: message.into() }
    }

    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// A `{…}` comment, the `{` read; its text.
    fn comment(&mut self, at: (usize, usize)) -> Result<String, SyntaxError> {
        let mut s = String::new();
        loop {
            match self.bump() {
                Some('}') => return Ok(s.trim().to_string()),
                Some(c) => s.push(c),
                None => return Err(SyntaxError { line: at.0, column: at.1, message: "a comment `{` that is never closed".into() }),
            }
        }
    }

    /// A variation, the `(` read: skipped whole, with the variations and comments inside.
    fn variation(&mut self, at: (usize, usize)) -> Result<(), SyntaxError> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.bump() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => {
                    let here = (self.line, self.column - 1);
                    self.comment(here)?;
                }
                Some(';') => self.skip_line(),
                Some(_) => {}
                None => return Err(SyntaxError { line: at.0, column: at.1, message: "a variation `(` that is never closed".into() }),
            }
        }
        Ok(())
    }

    /// A tag pair, the `[` read: its name and value.
    fn tag(&mut self) -> Result<(String, String), SyntaxError> {
        let mut name = String::new();
        while self.peek().is_some_and(|c| c.is_whitespace()) {
            self.bump();
        }
        while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric() || *c == '_') {
            name.push(c);
            self.bump();
        }
        while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
            self.bump();
        }
        if name.is_empty() || self.bump() != Some('"') {
            return Err(self.error("a tag is written [Name \"value\"]"));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('\\') => value.extend(self.bump()),
                Some('"') => break,
                Some('\n') | None => return Err(self.error("a tag's value ends with `\"` on its line")),
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(self.error("a tag ends with `]`"));
        }
        Ok((name, value))
    }

    /// A word of movetext (a move, a move number, a result), up to a blank or a mark that
    /// starts something else.
    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek().filter(|c| !c.is_whitespace() && !"{}()[];$".contains(*c)) {
            w.push(c);
            self.bump();
        }
        w
    }
}

/// Reads every game of a PGN or PDN text.
///
/// # Errors
/// The first thing that is not PGN/PDN, with its line and column; more than [`MAX_GAMES`].
pub(crate) fn parse(text: &str) -> Result<Vec<Game>, SyntaxError> {
    let mut lx = Lexer { chars: text.chars().peekable(), line: 1, column: 1, line_start: true };
    let mut games = Vec::new();
    let mut game = Game::default();
    // Whether the current game has movetext (a tag after it starts the next game).
    let mut in_moves = false;
    let mut last_comment = None;
    let finish = |game: &mut Game, games: &mut Vec<Game>, lx: &Lexer| {
        if games.len() >= MAX_GAMES {
            return Err(lx.error(format!("more than {MAX_GAMES} games in one file")));
        }
        games.push(std::mem::take(game));
        Ok(())
    };
    while let Some(c) = lx.peek() {
        let at = (lx.line, lx.column);
        match c {
            c if c.is_whitespace() => {
                lx.bump();
            }
            '%' if lx.line_start => lx.skip_line(),
            ';' => lx.skip_line(),
            '{' => {
                lx.bump();
                last_comment = Some(lx.comment(at)?);
            }
            '(' => {
                lx.bump();
                lx.variation(at)?;
            }
            ')' => return Err(lx.error("a `)` with no variation open")),
            '}' => return Err(lx.error("a `}` with no comment open")),
            '[' => {
                if in_moves {
                    // The game before had no result: it ends here.
                    game.result = "*".into();
                    finish(&mut game, &mut games, &lx)?;
                    in_moves = false;
                }
                lx.bump();
                let t = lx.tag()?;
                game.tags.push(t);
            }
            '$' => {
                lx.bump();
                lx.word();
            }
            _ => {
                let w = lx.word();
                if w.is_empty() {
                    return Err(lx.error(format!("`{c}` is not PGN")));
                }
                in_moves = true;
                if RESULTS.contains(&w.as_str()) {
                    game.result = w;
                    game.comment = last_comment.take();
                    finish(&mut game, &mut games, &lx)?;
                    in_moves = false;
                    continue;
                }
                // A move number (`12.`, `12...`), perhaps joined to its move (`12.e4`).
                let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let after = &w[digits..];
                let mv = if digits > 0 && after.starts_with('.') { after.trim_start_matches('.') } else { &w };
                if !mv.is_empty() {
                    let column = at.1 + (w.len() - mv.len());
                    game.moves.push(Token { text: mv.to_string(), line: at.0, column });
                    last_comment = None;
                }
            }
        }
    }
    if in_moves || !game.tags.is_empty() {
        game.result = "*".into();
        games.push(game);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_and_result_skipping_the_rest() {
        let text = "[Event \"a \\\"b\\\"\"]\n[Variant \"antichess\"]\n\n% escaped\n1. e4 {a comment (with parens)} e5 $1 2.Nf3 (2. d4 (2. c4) exd4) Nc6! ; to the end\n3... a6 1-0\n\n[Event \"2\"]\n1. 11-15 22x15x6 *\n";
        let g = parse(text).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tag("Event"), Some("a \"b\""));
        assert_eq!(g[0].tag("Variant"), Some("antichess"));
        let texts: Vec<&str> = g[0].moves.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["e4", "e5", "Nf3", "Nc6!", "a6"]);
        assert_eq!((g[0].moves[2].line, g[0].moves[2].column), (5, 41));
        assert_eq!(g[0].result, "1-0");
        let texts: Vec<&str> = g[1].moves.iter().map(|t| t.text.as_str()).collect();
        assert_eq!((texts, g[1].result.as_str()), (vec!["11-15", "22x15x6"], "*"));
    }

    #[test]
    fn errors_say_where() {
        let e = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(e("[Event \"x\"]\n1. e4 {never closed"), "line 2, column 7: a comment `{` that is never closed");
        assert_eq!(e("1. e4 (1. d4"), "line 1, column 7: a variation `(` that is never closed");
        assert_eq!(e("[Event x]"), "line 1, column 9: a tag is written [Name \"value\"]");
        assert_eq!(e("1. e4 )"), "line 1, column 7: a `)` with no variation open");
    }

    #[test]
    fn writes_what_it_reads() {
        let g = Game {
            tags: vec![("Event".into(), "x".into()), ("White".into(), "a \"q\"".into())],
            moves: ["e4", "e5", "Nf3"].iter().map(|t| Token { text: t.to_string(), line: 0, column: 0 }).collect(),
            result: "1/2-1/2".into(),
            comment: Some("agreed".into()),
        };
        let text = g.to_text(&[Some("1.".into()), None, Some("2.".into())]);
        assert_eq!(text, "[Event \"x\"]\n[White \"a \\\"q\\\"\"]\n\n1. e4 e5 2. Nf3 {agreed} 1/2-1/2\n\n");
        let back = parse(&text).unwrap();
        assert_eq!(back[0].tags, g.tags);
        assert_eq!(back[0].moves.iter().map(|t| &t.text).collect::<Vec<_>>(), ["e4", "e5", "Nf3"]);
        assert_eq!((back[0].result.as_str(), back[0].comment.as_deref()), ("1/2-1/2", Some("agreed")));
    }
}
