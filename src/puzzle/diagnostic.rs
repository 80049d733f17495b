//! Diagnostics: what is wrong with a puzzle file, and where.
//!
//! A [`Diagnostic`] is plain data: a kind, a message, the byte span of the
//! spot in the source with its line and column, the text to print under the
//! caret (what was expected there), related spots, and notes. The library
//! renders it as one plain line (`3:14: error[unknown-name]: ...`); the
//! `bitfd` binary renders it with source excerpts and carets. The parser
//! collects every error of a file into one [`ParseErrors`].
//!
//! Invariant: `span.start <= span.end <= source.len()` and both ends lie on
//! `char` boundaries of the source the diagnostic was made for.

use std::fmt;
use std::ops::Range;

/// The kind of a [`Diagnostic`]: one per distinct mistake, with a stable
/// short code for documentation and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not UTF-8 text.
    NotUtf8,
    /// The input is larger than [`MAX_SOURCE_BYTES`](super::MAX_SOURCE_BYTES).
    FileTooLarge,
    /// A line is longer than [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES).
    LineTooLong,
    /// A character that starts no token.
    UnexpectedCharacter,
    /// An invisible character (a zero-width space or joiner, a bidi
    /// control, another format character) in a name or a quoted string.
    InvisibleCharacter,
    /// A quoted string with no closing quote on its line.
    UnterminatedString,
    /// A backslash escape other than `\"` and `\\`.
    UnknownEscape,
    /// A line that is no statement the format knows.
    UnknownStatement,
    /// A statement that does not continue the way it must.
    Syntax,
    /// A name (value or group) that is not declared.
    UnknownName,
    /// An unqualified value name declared in more than one group.
    AmbiguousName,
    /// A name, group or statement given twice.
    Duplicate,
    /// A number outside its range (houses, house numbers, offsets).
    OutOfRange,
    /// A group with more values than there are houses.
    GroupTooLarge,
    /// A name longer than [`MAX_NAME_CHARS`](super::MAX_NAME_CHARS), or empty.
    BadName,
    /// The file has no `houses N` statement.
    MissingHouses,
    /// The file exceeds a count limit (groups, constraints, questions).
    TooMany,
    /// An English sentence the reader cannot turn into a clue or a question.
    UnreadableSentence,
}

impl ErrorKind {
    /// A short, stable, kebab-case code: `unknown-name`.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::NotUtf8 => "not-utf8",
            ErrorKind::FileTooLarge => "file-too-large",
            ErrorKind::LineTooLong => "line-too-long",
            ErrorKind::UnexpectedCharacter => "unexpected-character",
            ErrorKind::InvisibleCharacter => "invisible-character",
            ErrorKind::UnterminatedString => "unterminated-string",
            ErrorKind::UnknownEscape => "unknown-escape",
            ErrorKind::UnknownStatement => "unknown-statement",
            ErrorKind::Syntax => "syntax",
            ErrorKind::UnknownName => "unknown-name",
            ErrorKind::AmbiguousName => "ambiguous-name",
            ErrorKind::Duplicate => "duplicate",
            ErrorKind::OutOfRange => "out-of-range",
            ErrorKind::GroupTooLarge => "group-too-large",
            ErrorKind::BadName => "bad-name",
            ErrorKind::MissingHouses => "missing-houses",
            ErrorKind::TooMany => "too-many",
            ErrorKind::UnreadableSentence => "unreadable-sentence",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A spot in the source: a byte span with its 1-based line and column (the
/// column counts `char`s, not bytes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spot {
    /// Byte offsets into the source.
    pub span: Range<usize>,
    /// Line of `span.start`, from 1.
    pub line: u32,
    /// Column of `span.start` in `char`s, from 1.
    pub column: u32,
}

/// One error in a puzzle file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of mistake this is.
    pub kind: ErrorKind,
    /// The headline, lowercase with no final period: ``unknown name `Englishmann` ``.
    pub message: String,
    /// Where the mistake is.
    pub spot: Spot,
    /// What to print under the caret: what was expected there.
    pub expected: String,
    /// Other spots that explain this one (the first declaration of a
    /// duplicate), each with its own caption.
    pub related: Vec<(Spot, String)>,
    /// Further lines: candidates, suggestions (`help: did you mean ...`).
    pub notes: Vec<String>,
}

impl fmt::Display for Diagnostic {
    /// `line:column: error[code]: message (expected)`, then the notes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: error[{}]: {}",
            self.spot.line, self.spot.column, self.kind, self.message
        )?;
        if !self.expected.is_empty() {
            write!(f, " ({})", self.expected)?;
        }
        for note in &self.notes {
            write!(f, "; {note}")?;
        }
        Ok(())
    }
}

/// Every error found in one puzzle file, in source order.
///
/// Never empty when returned by [`parse`](super::parse). At most
/// [`MAX_ERRORS`](super::MAX_ERRORS) are kept; [`ParseErrors::omitted`] says
/// how many more there were.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseErrors {
    diagnostics: Vec<Diagnostic>,
    omitted: usize,
}

impl ParseErrors {
    pub(crate) fn new(mut diagnostics: Vec<Diagnostic>, omitted: usize) -> ParseErrors {
        // Stable sort: errors on one line keep the order they were found in.
        diagnostics.sort_by_key(|d| d.spot.span.start);
        ParseErrors {
            diagnostics,
            omitted,
        }
    }

    /// The diagnostics, in source order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// How many further errors were found and not kept.
    pub fn omitted(&self) -> usize {
        self.omitted
    }
}

impl fmt::Display for ParseErrors {
    /// One diagnostic a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        if self.omitted > 0 {
            let errors = if self.omitted == 1 { "error" } else { "errors" };
            write!(f, "\n{} more {errors} not shown", self.omitted)?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseErrors {}

/// Maps byte offsets of one source to lines and columns.
#[derive(Debug)]
pub(crate) struct LineIndex<'s> {
    source: &'s str,
    /// Byte offset of each line's first character.
    starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    pub(crate) fn new(source: &'s str) -> LineIndex<'s> {
        let mut starts = vec![0];
        starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { source, starts }
    }

    /// The index of `source` from its line starts, found by the caller's
    /// own pass over the lines: 0, then the offset after each `\n`.
    pub(crate) fn with_starts(source: &'s str, starts: Vec<usize>) -> LineIndex<'s> {
        debug_assert_eq!(starts, LineIndex::new(source).starts);
        LineIndex { source, starts }
    }

    /// The spot of `span`, which must lie on char boundaries.
    pub(crate) fn spot(&self, span: Range<usize>) -> Spot {
        let line = self.starts.partition_point(|&s| s <= span.start) - 1;
        let start = self.starts[line];
        let column = self
            .source
            .get(start..span.start)
            .map_or(0, |s| s.chars().count());
        Spot {
            span,
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_count_lines_and_chars_from_one() {
        let index = LineIndex::new("ab\nçd e\n");
        assert_eq!(index.spot(0..1).line, 1);
        let s = index.spot(7..8); // `e`: line 2, after `çd ` (ç is 2 bytes)
        assert_eq!((s.line, s.column), (2, 4));
        let end = index.spot(9..9);
        assert_eq!((end.line, end.column), (3, 1));
    }

    #[test]
    fn display_is_one_line_with_position_code_and_expectation() {
        let d = Diagnostic {
            kind: ErrorKind::UnknownName,
            message: "unknown name `x`".into(),
            spot: Spot {
                span: 0..1,
                line: 2,
                column: 5,
            },
            expected: "a value name".into(),
            related: Vec::new(),
            notes: vec!["help: did you mean `y`?".into()],
        };
        assert_eq!(
            d.to_string(),
            "2:5: error[unknown-name]: unknown name `x` (a value name); help: did you mean `y`?"
        );
    }
}
