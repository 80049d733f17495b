//! The parser: `.zebra` text into a checked [`Puzzle`], collecting every
//! error of the file.
//!
//! Two passes. The first reads each line into a statement with its names
//! still as text and spans (a syntax error costs the rest of its line only);
//! the second resolves names and checks numbers against `houses`, wherever
//! the statements are in the file. The puzzle is returned only if both
//! passes found nothing wrong; otherwise every diagnostic is returned, in
//! source order, at most [`MAX_ERRORS`] of them.

use std::ops::Range;

use hashbrown::HashMap;

use super::ast::{Ask, Clue, Cmp, Group, Operand, Puzzle, Relation, Target, ValueRef};
use super::diagnostic::{Diagnostic, ErrorKind, LineIndex, ParseErrors, Spot};
use super::lexer::{LexError, Tok, Token, lex_line};
use super::suggest::nearest;
use super::{
    MAX_ASKS, MAX_CLUES, MAX_ERRORS, MAX_GROUPS, MAX_HOUSES, MAX_LINE_BYTES, MAX_NAME_CHARS,
    MAX_SOURCE_BYTES,
};

/// The statement keywords, for "did you mean" on an unknown statement.
const KEYWORDS: [&str; 3] = ["title", "houses", "ask"];

/// Parses a whole source; see [`super::parse`].
pub(crate) fn parse(source: &str) -> Result<Puzzle, ParseErrors> {
    let mut errors = Errors::new(source);
    if source.len() > MAX_SOURCE_BYTES {
        errors.add(errors.error(
            ErrorKind::FileTooLarge,
            0..0,
            format!(
                "the puzzle is {} bytes long; the limit is {MAX_SOURCE_BYTES}",
                source.len()
            ),
            "a smaller file",
        ));
        return Err(errors.finish());
    }
    let syntax = read_statements(source, &mut errors);
    let puzzle = Resolver::new(&syntax, &mut errors).resolve(&syntax);
    match puzzle {
        Some(p) if errors.is_empty() => Ok(p),
        _ => Err(errors.finish()),
    }
}

/// The diagnostics of one source, capped at [`MAX_ERRORS`].
struct Errors<'s> {
    index: LineIndex<'s>,
    list: Vec<Diagnostic>,
    omitted: usize,
}

impl<'s> Errors<'s> {
    fn new(source: &'s str) -> Errors<'s> {
        Errors {
            index: LineIndex::new(source),
            list: Vec::new(),
            omitted: 0,
        }
    }

    fn spot(&self, span: Range<usize>) -> Spot {
        self.index.spot(span)
    }

    fn error(
        &self,
        kind: ErrorKind,
        span: Range<usize>,
        message: impl Into<String>,
        expected: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            kind,
            message: message.into(),
            spot: self.spot(span),
            expected: expected.into(),
            related: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn add(&mut self, d: Diagnostic) {
        if self.is_full() {
            self.omitted += 1;
        } else {
            self.list.push(d);
        }
    }

    /// Whether no more diagnostics are kept (so skip costly suggestions).
    fn is_full(&self) -> bool {
        self.list.len() >= MAX_ERRORS
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted == 0
    }

    fn finish(self) -> ParseErrors {
        ParseErrors::new(self.list, self.omitted)
    }
}

// ---------------------------------------------------------------------------
// Pass 1: lines into statements.
// ---------------------------------------------------------------------------

/// A name as written, quoted or not.
#[derive(Clone, Debug)]
struct Name {
    text: String,
    span: Range<usize>,
}

/// A reference to a value, not yet resolved.
#[derive(Clone, Debug)]
enum RefSyn {
    Bare(Name),
    Qualified { group: Name, value: Name },
}

impl RefSyn {
    fn span(&self) -> Range<usize> {
        match self {
            RefSyn::Bare(n) => n.span.clone(),
            RefSyn::Qualified { group, value } => group.span.start..value.span.end,
        }
    }
}

/// A number as written: `None` if it overflowed a `u64`.
#[derive(Clone, Debug)]
struct Num {
    value: Option<u64>,
    span: Range<usize>,
}

/// An operand: a value or a house number.
#[derive(Clone, Debug)]
enum OpSyn {
    Ref(RefSyn),
    Int(Num),
}

impl OpSyn {
    fn span(&self) -> Range<usize> {
        match self {
            OpSyn::Ref(r) => r.span(),
            OpSyn::Int(n) => n.span.clone(),
        }
    }
}

/// A clue's relation, not yet resolved.
#[derive(Clone, Debug)]
enum Body {
    /// `left = right [+|- offset]`.
    Equal {
        left: OpSyn,
        right: OpSyn,
        /// `(negative, magnitude)`.
        offset: Option<(bool, Num)>,
    },
    /// `left != right`.
    NotEqual { left: OpSyn, right: OpSyn },
    /// `|a - b| = d` or `|a - b| != d`.
    Distance {
        a: RefSyn,
        b: RefSyn,
        equal: bool,
        d: Num,
    },
    /// `t0 op t1 [op t2]`: two or three terms (checked in pass 1).
    Chain {
        terms: Vec<OpSyn>,
        ops: Vec<(Cmp, Range<usize>)>,
    },
    /// `a in {h, ...}`.
    In { a: RefSyn, set: Vec<Num> },
    /// A sentence alone, for the English reader: one relation, several or
    /// none (a sentence that restates the frame).
    Sentence(String),
}

#[derive(Debug)]
struct ClueSyn {
    label: Option<String>,
    body: Body,
    span: Range<usize>,
}

#[derive(Debug)]
struct AskSyn {
    question: Option<String>,
    target: OpSyn,
    group: Option<Name>,
}

#[derive(Debug)]
struct GroupSyn {
    name: Name,
    values: Vec<Name>,
}

/// The statements of a file, by kind, in source order.
#[derive(Debug, Default)]
struct Syntax {
    titles: Vec<(String, Range<usize>)>,
    /// The number and the whole statement's span.
    houses: Vec<(Num, Range<usize>)>,
    groups: Vec<GroupSyn>,
    clues: Vec<ClueSyn>,
    asks: Vec<AskSyn>,
    /// Lines that start with a word no statement starts with; whether that
    /// is a value missing its operator is known only in pass 2.
    unknown: Vec<UnknownSyn>,
}

/// A line that starts with an unknown word.
#[derive(Debug)]
struct UnknownSyn {
    word: String,
    span: Range<usize>,
    /// The token after the word (or the end of the line), and how it reads.
    next: Range<usize>,
    found: String,
    /// Whether the next token is a name, as in a group without its colon.
    next_is_name: bool,
}

/// A syntax error on one line.
#[derive(Debug)]
struct SynErr {
    kind: ErrorKind,
    message: String,
    span: Range<usize>,
    expected: String,
    notes: Vec<String>,
}

impl From<LexError> for SynErr {
    fn from(e: LexError) -> SynErr {
        SynErr {
            kind: e.kind,
            message: e.message,
            span: e.span,
            expected: e.expected,
            notes: Vec::new(),
        }
    }
}

fn read_statements(source: &str, errors: &mut Errors<'_>) -> Syntax {
    let mut syntax = Syntax::default();
    let mut tokens = Vec::new();
    let mut offset = 0;
    // A byte-order mark is not part of the text.
    let body = source.strip_prefix('\u{feff}').unwrap_or(source);
    offset += source.len() - body.len();
    for raw in body.split('\n') {
        let start = offset;
        offset += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.len() > MAX_LINE_BYTES {
            let at = start + floor_char_boundary(line, MAX_LINE_BYTES);
            let end = at + line[at - start..].chars().next().map_or(0, char::len_utf8);
            let d = errors.error(
                ErrorKind::LineTooLong,
                at..end,
                format!(
                    "line is {} bytes long; the limit is {MAX_LINE_BYTES}",
                    line.len()
                ),
                "a shorter line",
            );
            errors.add(d);
            continue;
        }
        let result = lex_line(line, start, &mut tokens)
            .map_err(SynErr::from)
            .and_then(|()| {
                let mut line = Line {
                    toks: &tokens,
                    pos: 0,
                    end: start + line.len(),
                };
                line.statement(&mut syntax)
            });
        if let Err(e) = result {
            let mut d = errors.error(e.kind, e.span, e.message, e.expected);
            d.notes = e.notes;
            errors.add(d);
        }
    }
    syntax
}

/// The largest char boundary of `s` at or below `i`.
fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A cursor over one line's tokens.
struct Line<'t, 's> {
    toks: &'t [Token<'s>],
    pos: usize,
    /// Byte offset of the line's end, where "expected X" points when the
    /// line runs out.
    end: usize,
}

impl<'s> Line<'_, 's> {
    fn peek(&self) -> Option<&Tok<'s>> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok<'s>> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
    }

    fn bump(&mut self) -> Option<&Token<'s>> {
        let t = self.toks.get(self.pos);
        self.pos += 1;
        t
    }

    /// The span of the next token, or the end of the line.
    fn here(&self) -> Range<usize> {
        self.toks
            .get(self.pos)
            .map_or(self.end..self.end, |t| t.span.clone())
    }

    /// "expected `what`, found ..." at the next token.
    fn expected(&self, what: &str) -> SynErr {
        let found = self
            .peek()
            .map_or_else(|| "the end of the line".to_owned(), Tok::describe);
        SynErr {
            kind: ErrorKind::Syntax,
            message: format!("expected {what}, found {found}"),
            span: self.here(),
            expected: what.to_owned(),
            notes: Vec::new(),
        }
    }

    fn expect(&mut self, tok: &Tok<'_>, what: &str) -> Result<Range<usize>, SynErr> {
        if self.peek() == Some(tok) {
            Ok(self.bump().expect("peeked").span.clone())
        } else {
            Err(self.expected(what))
        }
    }

    /// Requires the line to be over.
    fn finish(&self) -> Result<(), SynErr> {
        if self.peek().is_none() {
            Ok(())
        } else {
            let mut e = self.expected("the end of the line");
            e.notes
                .push("note: a line holds one statement; `#` starts a comment".to_owned());
            Err(e)
        }
    }

    /// The span from token `from` to the last token read.
    fn span_from(&self, from: usize) -> Range<usize> {
        let first = &self.toks[from].span;
        let last = self.toks[..self.pos.min(self.toks.len())]
            .last()
            .map_or(first.end, |t| t.span.end);
        first.start..last
    }

    fn statement(&mut self, syntax: &mut Syntax) -> Result<(), SynErr> {
        let (first, second) = match (self.peek(), self.peek_at(1)) {
            (None, _) => return Ok(()),
            (Some(a), b) => (a.clone(), b.cloned()),
        };
        match (&first, &second) {
            (Tok::Word(_) | Tok::Str(_), Some(Tok::Colon)) => self.group(syntax),
            (Tok::Word("title"), _) => self.title(syntax),
            (Tok::Word("houses"), _) => self.houses(syntax),
            (Tok::Word("ask"), _) => self.ask(syntax),
            // A sentence alone: the English reader reads it in pass 2.
            (Tok::Str(label), None) => {
                let label = label.clone();
                let span = self.here();
                self.bump();
                syntax.clues.push(ClueSyn {
                    label: Some(label.clone()),
                    body: Body::Sentence(label),
                    span,
                });
                Ok(())
            }
            // `"orange juice" in {1, 2}`: a quoted value before `in` is no label.
            (Tok::Str(_), Some(Tok::Word("in"))) => self.clue(None, syntax),
            (Tok::Str(label), Some(Tok::Word(_) | Tok::Str(_) | Tok::Int(_) | Tok::Bar)) => {
                let label = label.clone();
                self.bump();
                self.clue(Some(label), syntax)
            }
            (Tok::Word(w), next) if !continues_clue(next.as_ref()) => {
                let span = self.here();
                self.bump();
                syntax.unknown.push(UnknownSyn {
                    word: (*w).to_owned(),
                    span,
                    next: self.here(),
                    found: next
                        .as_ref()
                        .map_or_else(|| "the end of the line".to_owned(), Tok::describe),
                    next_is_name: matches!(next, Some(Tok::Word(_) | Tok::Str(_))),
                });
                Ok(())
            }
            _ => self.clue(None, syntax),
        }
    }

    fn title(&mut self, syntax: &mut Syntax) -> Result<(), SynErr> {
        let start = self.pos;
        self.bump();
        let Some(Tok::Str(text)) = self.peek().cloned() else {
            return Err(self.expected("a quoted title: title \"...\""));
        };
        self.bump();
        self.finish()?;
        syntax.titles.push((text, self.span_from(start)));
        Ok(())
    }

    fn houses(&mut self, syntax: &mut Syntax) -> Result<(), SynErr> {
        let start = self.pos;
        self.bump();
        let n = self.number("the number of houses")?;
        self.finish()?;
        syntax.houses.push((n, self.span_from(start)));
        Ok(())
    }

    fn group(&mut self, syntax: &mut Syntax) -> Result<(), SynErr> {
        let name = self.name("a group name")?;
        self.bump(); // the colon
        let mut values = Vec::new();
        while let Some(tok) = self.peek() {
            if let Tok::Int(_) = tok {
                let mut e = self.expected("a value name");
                e.notes.push(
                    "help: a bare number is a house number; quote a value that is a number: \"42\""
                        .to_owned(),
                );
                return Err(e);
            }
            values.push(self.name("a value name")?);
        }
        if values.is_empty() {
            return Err(self.expected("at least one value after `:`"));
        }
        syntax.groups.push(GroupSyn { name, values });
        Ok(())
    }

    fn ask(&mut self, syntax: &mut Syntax) -> Result<(), SynErr> {
        self.bump();
        // The first quoted string is the question when a target follows it.
        let question = match (self.peek(), self.peek_at(1)) {
            (Some(Tok::Str(q)), Some(Tok::Word(_) | Tok::Str(_) | Tok::Int(_))) => {
                let q = q.clone();
                self.bump();
                Some(q)
            }
            _ => None,
        };
        let target = self.operand("a value name or a house number to ask about")?;
        let group = match self.peek() {
            Some(Tok::Word(_) | Tok::Str(_)) => Some(self.name("a group name")?),
            _ => None,
        };
        self.finish()?;
        syntax.asks.push(AskSyn {
            question,
            target,
            group,
        });
        Ok(())
    }

    fn clue(&mut self, label: Option<String>, syntax: &mut Syntax) -> Result<(), SynErr> {
        let start = self.pos;
        let body = self.body()?;
        self.finish()?;
        syntax.clues.push(ClueSyn {
            label,
            body,
            span: self.span_from(start),
        });
        Ok(())
    }

    fn body(&mut self) -> Result<Body, SynErr> {
        if self.peek() == Some(&Tok::Bar) {
            self.bump();
            let a = self.reference("a value name")?;
            self.expect(&Tok::Minus, "`-` between the two names of `|a - b|`")?;
            let b = self.reference("a value name")?;
            self.expect(&Tok::Bar, "`|` to close `|a - b|`")?;
            let equal = match self.peek() {
                Some(Tok::Eq) => true,
                Some(Tok::Ne) => false,
                _ => return Err(self.expected("`=` or `!=` after `|a - b|`")),
            };
            self.bump();
            let d = self.number("a distance")?;
            return Ok(Body::Distance { a, b, equal, d });
        }
        let left = self.operand("a clue: a value name, a house number or `|`")?;
        let op = self.peek().cloned();
        match op {
            Some(Tok::Eq) => {
                self.bump();
                let right = self.operand("a value name or a house number")?;
                let offset = match self.peek() {
                    Some(Tok::Plus | Tok::Minus) => {
                        let negative = self.peek() == Some(&Tok::Minus);
                        self.bump();
                        Some((negative, self.number("a number (the offset)")?))
                    }
                    _ => None,
                };
                Ok(Body::Equal {
                    left,
                    right,
                    offset,
                })
            }
            Some(Tok::Ne) => {
                self.bump();
                let right = self.operand("a value name or a house number")?;
                if let Some(Tok::Plus | Tok::Minus) = self.peek() {
                    let mut e = self.expected("the end of the clue");
                    e.message = "an offset (`+ c`, `- c`) goes with `=` only".to_owned();
                    return Err(e);
                }
                Ok(Body::NotEqual { left, right })
            }
            Some(Tok::Lt | Tok::Le | Tok::Gt | Tok::Ge) => self.chain(left),
            Some(Tok::Word("in")) => {
                let OpSyn::Ref(a) = left else {
                    return Err(SynErr {
                        kind: ErrorKind::Syntax,
                        message: "`in` needs a value on its left".to_owned(),
                        span: left.span(),
                        expected: "a value name".to_owned(),
                        notes: Vec::new(),
                    });
                };
                self.bump();
                self.expect(&Tok::LBrace, "`{` to open a set of houses")?;
                let mut set = vec![self.number("a house number")?];
                while self.peek() == Some(&Tok::Comma) {
                    self.bump();
                    set.push(self.number("a house number")?);
                }
                self.expect(&Tok::RBrace, "`,` or `}`")?;
                Ok(Body::In { a, set })
            }
            _ => Err(self.expected("an operator: `=`, `!=`, `<`, `<=`, `>`, `>=` or `in`")),
        }
    }

    /// `t0 op t1 [op t2]`, the first term read already.
    fn chain(&mut self, first: OpSyn) -> Result<Body, SynErr> {
        let mut terms = vec![first];
        let mut ops = Vec::new();
        while let Some(op) = self.peek().and_then(cmp_of) {
            let span = self.bump().expect("peeked").span.clone();
            if ops.len() == 2 {
                return Err(SynErr {
                    kind: ErrorKind::Syntax,
                    message: "a chain has at most three terms".to_owned(),
                    span,
                    expected: "the end of the line".to_owned(),
                    notes: vec!["help: write one clue a line: `a < b`, `b < c`".to_owned()],
                });
            }
            ops.push((op, span));
            terms.push(self.operand("a value name or a house number")?);
        }
        let mixed = match ops.as_slice() {
            [(first, _), (second, span)] => {
                (!matches!((first, second), (Cmp::Lt, Cmp::Lt) | (Cmp::Gt, Cmp::Gt)))
                    .then(|| (*first, span.clone()))
            }
            _ => None,
        };
        if let Some((first, span)) = mixed {
            return Err(SynErr {
                kind: ErrorKind::Syntax,
                message: "a chain `a < x < b` takes `<` twice or `>` twice".to_owned(),
                span,
                expected: format!("`{}`", if first == Cmp::Gt { ">" } else { "<" }),
                notes: vec!["help: write other comparisons one a line".to_owned()],
            });
        }
        Ok(Body::Chain { terms, ops })
    }

    fn operand(&mut self, what: &str) -> Result<OpSyn, SynErr> {
        match self.peek() {
            Some(Tok::Int(value)) => {
                let value = *value;
                let span = self.bump().expect("peeked").span.clone();
                Ok(OpSyn::Int(Num { value, span }))
            }
            Some(Tok::Word(_) | Tok::Str(_)) => Ok(OpSyn::Ref(self.reference(what)?)),
            _ => Err(self.expected(what)),
        }
    }

    fn reference(&mut self, what: &str) -> Result<RefSyn, SynErr> {
        let first = self.name(what)?;
        if self.peek() != Some(&Tok::Dot) {
            return Ok(RefSyn::Bare(first));
        }
        self.bump();
        let value = self.name("a value name after `group.`")?;
        Ok(RefSyn::Qualified {
            group: first,
            value,
        })
    }

    fn name(&mut self, what: &str) -> Result<Name, SynErr> {
        let (text, span) = match self.peek() {
            Some(Tok::Word(w)) => (super::text::nfc(w).into_owned(), self.here()),
            Some(Tok::Str(s)) => (super::text::nfc(s).into_owned(), self.here()),
            _ => return Err(self.expected(what)),
        };
        // Names are compared in NFC: `Cafe` + U+0301 is `Café`. The span
        // stays the source's, so carets point at the text as written.
        let chars = text.chars().count();
        if text.is_empty() || chars > MAX_NAME_CHARS {
            let message = if text.is_empty() {
                "a name cannot be empty".to_owned()
            } else {
                format!("a name of {chars} characters; the limit is {MAX_NAME_CHARS}")
            };
            return Err(SynErr {
                kind: ErrorKind::BadName,
                message,
                span,
                expected: format!("a name of 1 to {MAX_NAME_CHARS} characters"),
                notes: Vec::new(),
            });
        }
        self.bump();
        Ok(Name { text, span })
    }

    fn number(&mut self, what: &str) -> Result<Num, SynErr> {
        match self.peek() {
            Some(Tok::Int(value)) => {
                let value = *value;
                let span = self.bump().expect("peeked").span.clone();
                Ok(Num { value, span })
            }
            _ => Err(self.expected(what)),
        }
    }
}

/// Whether the token after a leading word makes the line a clue.
fn continues_clue(next: Option<&Tok<'_>>) -> bool {
    matches!(
        next,
        Some(
            Tok::Eq
                | Tok::Ne
                | Tok::Lt
                | Tok::Le
                | Tok::Gt
                | Tok::Ge
                | Tok::Dot
                | Tok::Word("in")
                | Tok::Plus
                | Tok::Minus
        )
    )
}

fn cmp_of(tok: &Tok<'_>) -> Option<Cmp> {
    match tok {
        Tok::Lt => Some(Cmp::Lt),
        Tok::Le => Some(Cmp::Le),
        Tok::Gt => Some(Cmp::Gt),
        Tok::Ge => Some(Cmp::Ge),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Pass 2: names and numbers.
// ---------------------------------------------------------------------------

/// Resolves the statements of one file against its groups and houses.
struct Resolver<'x, 's> {
    errors: &'x mut Errors<'s>,
    /// The number of houses, if stated once and in range.
    houses: Option<u8>,
    /// The bound for house numbers: `houses`, or 63 when unknown.
    limit: u8,
    /// The groups kept (duplicates and extras dropped), with the spans of
    /// their names and values.
    groups: Vec<Group>,
    group_spans: Vec<(Range<usize>, Vec<Range<usize>>)>,
    /// Value name to the values of that name. Looked up, never iterated.
    by_name: HashMap<String, Vec<ValueRef>>,
}

impl<'x, 's> Resolver<'x, 's> {
    fn new(syntax: &Syntax, errors: &'x mut Errors<'s>) -> Resolver<'x, 's> {
        let mut r = Resolver {
            errors,
            houses: None,
            limit: MAX_HOUSES,
            groups: Vec::new(),
            group_spans: Vec::new(),
            by_name: HashMap::new(),
        };
        r.read_houses(syntax);
        r.read_groups(syntax);
        r
    }

    fn read_houses(&mut self, syntax: &Syntax) {
        let Some((first, first_span)) = syntax.houses.first() else {
            // A misspelt `houses` line has its own diagnostic already.
            let misspelt = syntax
                .unknown
                .iter()
                .any(|u| nearest(&u.word, KEYWORDS.iter().copied()) == Some("houses"));
            if misspelt {
                return;
            }
            let d = self.errors.error(
                ErrorKind::MissingHouses,
                0..0,
                "the puzzle does not say how many houses there are",
                "a line `houses N`, N from 1 to 63",
            );
            self.errors.add(d);
            return;
        };
        for (_, span) in &syntax.houses[1..] {
            let mut d = self.errors.error(
                ErrorKind::Duplicate,
                span.clone(),
                "`houses` is given twice",
                "one `houses` line",
            );
            d.related.push((
                self.errors.spot(first_span.clone()),
                "first given here".to_owned(),
            ));
            self.errors.add(d);
        }
        match first.value {
            Some(n @ 1..=63) => {
                self.houses = Some(n as u8);
                self.limit = n as u8;
            }
            _ => {
                let d = self.errors.error(
                    ErrorKind::OutOfRange,
                    first.span.clone(),
                    match first.value {
                        Some(n) => format!("{n} houses are out of range"),
                        None => "a number of houses this large is out of range".to_owned(),
                    },
                    "a number of houses from 1 to 63",
                );
                self.errors.add(d);
            }
        }
        for (_, span) in &syntax.titles[1.min(syntax.titles.len())..] {
            let mut d = self.errors.error(
                ErrorKind::Duplicate,
                span.clone(),
                "`title` is given twice",
                "one `title` line",
            );
            d.related.push((
                self.errors.spot(syntax.titles[0].1.clone()),
                "first given here".to_owned(),
            ));
            self.errors.add(d);
        }
    }

    fn read_groups(&mut self, syntax: &Syntax) {
        for g in &syntax.groups {
            if let Some(i) = self.groups.iter().position(|x| x.name == g.name.text) {
                let mut d = self.errors.error(
                    ErrorKind::Duplicate,
                    g.name.span.clone(),
                    format!("group `{}` is declared twice", g.name.text),
                    "a new group name",
                );
                d.related.push((
                    self.errors.spot(self.group_spans[i].0.clone()),
                    "first declared here".to_owned(),
                ));
                self.errors.add(d);
                continue;
            }
            if self.groups.len() == MAX_GROUPS {
                let d = self.errors.error(
                    ErrorKind::TooMany,
                    g.name.span.clone(),
                    format!("more than {MAX_GROUPS} groups"),
                    format!("at most {MAX_GROUPS} groups"),
                );
                self.errors.add(d);
                break;
            }
            let mut values: Vec<String> = Vec::with_capacity(g.values.len());
            let mut spans: Vec<Range<usize>> = Vec::with_capacity(g.values.len());
            for v in &g.values {
                if let Some(i) = values.iter().position(|x| *x == v.text) {
                    let mut d = self.errors.error(
                        ErrorKind::Duplicate,
                        v.span.clone(),
                        format!("`{}` occurs twice in group `{}`", v.text, g.name.text),
                        "a value not yet in this group",
                    );
                    d.related
                        .push((self.errors.spot(spans[i].clone()), "first here".to_owned()));
                    self.errors.add(d);
                    continue;
                }
                values.push(v.text.clone());
                spans.push(v.span.clone());
            }
            if let Some(h) = self.houses.filter(|&h| values.len() > usize::from(h)) {
                let extra = spans[usize::from(h)].clone();
                let d = self.errors.error(
                    ErrorKind::GroupTooLarge,
                    extra,
                    format!(
                        "group `{}` has {} values but there are only {h} houses",
                        g.name.text,
                        values.len()
                    ),
                    format!("at most {h} values, one a house"),
                );
                self.errors.add(d);
            }
            let group = self.groups.len();
            for (value, name) in values.iter().enumerate() {
                self.by_name
                    .entry(name.clone())
                    .or_default()
                    .push(ValueRef { group, value });
            }
            self.groups.push(Group {
                name: g.name.text.clone(),
                values,
            });
            self.group_spans.push((g.name.span.clone(), spans));
        }
    }

    /// Lines that start with an unknown word: a value missing its
    /// operator, or an unknown statement.
    fn unknown_statements(&mut self, syntax: &Syntax) {
        for u in &syntax.unknown {
            if self.by_name.contains_key(&u.word) {
                let d = Diagnostic {
                    notes: vec![
                        "note: a clue relates a value to another or to a house: `a = b`, `a = 3`"
                            .to_owned(),
                    ],
                    ..self.errors.error(
                        ErrorKind::Syntax,
                        u.next.clone(),
                        format!("expected an operator after `{}`, found {}", u.word, u.found),
                        "an operator: `=`, `!=`, `<`, `<=`, `>`, `>=` or `in`",
                    )
                };
                self.errors.add(d);
                continue;
            }
            let mut d = self.errors.error(
                ErrorKind::UnknownStatement,
                u.span.clone(),
                format!("unknown statement `{}`", u.word),
                "a statement",
            );
            if let Some(k) = nearest(&u.word, KEYWORDS.iter().copied()) {
                d.notes.push(format!("help: did you mean `{k}`?"));
            } else if u.next_is_name {
                d.notes.push(format!(
                    "help: a group needs a colon after its name: `{}: ...`",
                    u.word
                ));
            }
            d.notes.push(
                "note: a line is `title \"...\"`, `houses N`, a group `name: value ...`, a clue such as `a = b`, or `ask ...`"
                    .to_owned(),
            );
            self.errors.add(d);
        }
    }

    fn resolve(mut self, syntax: &Syntax) -> Option<Puzzle> {
        self.unknown_statements(syntax);
        let mut clues = Vec::with_capacity(syntax.clues.len());
        let mut clue_spots = Vec::with_capacity(syntax.clues.len());
        for (i, c) in syntax.clues.iter().enumerate() {
            if i == MAX_CLUES {
                let d = self.errors.error(
                    ErrorKind::TooMany,
                    c.span.clone(),
                    format!("more than {MAX_CLUES} clues"),
                    format!("at most {MAX_CLUES} clues"),
                );
                self.errors.add(d);
                break;
            }
            if let Body::Sentence(text) = &c.body {
                for relation in self.sentence(text, c.span.clone()) {
                    clues.push(Clue {
                        label: c.label.clone(),
                        relation,
                    });
                    clue_spots.push(self.errors.spot(c.span.clone()));
                }
                continue;
            }
            if let Some(relation) = self.relation(&c.body) {
                clues.push(Clue {
                    label: c.label.clone(),
                    relation,
                });
                clue_spots.push(self.errors.spot(c.span.clone()));
            }
        }
        let mut asks = Vec::with_capacity(syntax.asks.len());
        for (i, a) in syntax.asks.iter().enumerate() {
            if i == MAX_ASKS {
                let d = self.errors.error(
                    ErrorKind::TooMany,
                    a.target.span(),
                    format!("more than {MAX_ASKS} questions"),
                    format!("at most {MAX_ASKS} questions"),
                );
                self.errors.add(d);
                break;
            }
            if let Some(ask) = self.ask(a) {
                asks.push(ask);
            }
        }
        Some(Puzzle {
            title: syntax.titles.first().map(|(t, _)| t.clone()),
            houses: self.houses?,
            groups: self.groups,
            clues,
            asks,
            clue_spots,
        })
    }

    /// The relations of a sentence-only clue line, read by the English
    /// reader against the groups; its diagnostics point at the quoted
    /// sentence (escapes make positions inside it differ from the source).
    fn sentence(&mut self, text: &str, span: Range<usize>) -> Vec<Relation> {
        let Some(houses) = self.houses else {
            return Vec::new();
        };
        let mut vocab = super::english::Vocabulary::new(houses, &self.groups);
        match super::english::read_clue(&mut vocab, text) {
            Ok(relations) => relations,
            Err(mut d) => {
                d.spot = self.errors.spot(span);
                d.notes.push(
                    "help: write the relation after the sentence: \"The Englishman lives in the red house.\" Englishman = red"
                        .to_owned(),
                );
                self.errors.add(*d);
                Vec::new()
            }
        }
    }

    fn relation(&mut self, body: &Body) -> Option<Relation> {
        match body {
            Body::Sentence(_) => None,
            Body::Equal {
                left,
                right,
                offset,
            } => {
                let l = self.operand(left);
                let r = self.operand(right);
                let off = match offset {
                    Some((negative, n)) => {
                        let m = self.magnitude(n, "an offset")?;
                        Some(if *negative { -(m as i8) } else { m as i8 })
                    }
                    None => None,
                };
                match (l?, r?, off) {
                    (Operand::Value(a), Operand::Value(b), off) => Some(Relation::Same {
                        a,
                        b,
                        offset: off.unwrap_or(0),
                    }),
                    (Operand::Value(a), Operand::House(house), None)
                    | (Operand::House(house), Operand::Value(a), None) => {
                        Some(Relation::At { a, house })
                    }
                    (Operand::House(_), Operand::House(_), _) => {
                        self.no_value(left.span().start..right.span().end)
                    }
                    (_, _, Some(_)) => {
                        let span = offset.as_ref().map_or(0..0, |(_, n)| n.span.clone());
                        let d = self.errors.error(
                            ErrorKind::Syntax,
                            span,
                            "an offset needs a value on both sides of `=`",
                            "`a = b + c` with values `a` and `b`",
                        );
                        self.errors.add(d);
                        None
                    }
                }
            }
            Body::NotEqual { left, right } => {
                let l = self.operand(left);
                let r = self.operand(right);
                match (l?, r?) {
                    (Operand::Value(a), Operand::Value(b)) => Some(Relation::Differ { a, b }),
                    (Operand::Value(a), Operand::House(house))
                    | (Operand::House(house), Operand::Value(a)) => {
                        Some(Relation::NotAt { a, house })
                    }
                    (Operand::House(_), Operand::House(_)) => {
                        self.no_value(left.span().start..right.span().end)
                    }
                }
            }
            Body::Distance { a, b, equal, d } => {
                let a = self.reference(a);
                let b = self.reference(b);
                let distance = self.magnitude(d, "a distance");
                let (a, b, distance) = (a?, b?, distance?);
                Some(if *equal {
                    Relation::Distance { a, b, distance }
                } else {
                    Relation::NotDistance { a, b, distance }
                })
            }
            Body::Chain { terms, ops } => {
                let resolved: Vec<Option<Operand>> =
                    terms.iter().map(|t| self.operand(t)).collect();
                let resolved: Vec<Operand> = resolved.into_iter().collect::<Option<_>>()?;
                if !resolved.iter().any(|t| matches!(t, Operand::Value(_))) {
                    let first = terms.first().map_or(0..0, OpSyn::span);
                    let last = terms.last().map_or(0..0, OpSyn::span);
                    return self.no_value(first.start..last.end);
                }
                match (resolved.as_slice(), ops.as_slice()) {
                    ([left, right], [(op, _)]) => Some(Relation::Compare {
                        left: *left,
                        op: *op,
                        right: *right,
                    }),
                    ([a, x, b], [(Cmp::Lt, _), _]) => Some(Relation::Between {
                        low: *a,
                        mid: *x,
                        high: *b,
                    }),
                    ([a, x, b], _) => Some(Relation::Between {
                        low: *b,
                        mid: *x,
                        high: *a,
                    }),
                    _ => None,
                }
            }
            Body::In { a, set } => {
                let a = self.reference(a);
                let mut houses = Vec::with_capacity(set.len());
                let mut ok = true;
                for n in set {
                    match self.house(n) {
                        Some(h) => houses.push(h),
                        None => ok = false,
                    }
                }
                houses.sort_unstable();
                houses.dedup();
                let a = a?;
                ok.then_some(Relation::In { a, houses })
            }
        }
    }

    fn no_value<T>(&mut self, span: Range<usize>) -> Option<T> {
        let d = self.errors.error(
            ErrorKind::Syntax,
            span,
            "this compares house numbers only",
            "a value name on at least one side",
        );
        self.errors.add(d);
        None
    }

    fn ask(&mut self, a: &AskSyn) -> Option<Ask> {
        let target = match &a.target {
            OpSyn::Ref(r) => self.reference(r).map(Target::Value),
            OpSyn::Int(n) => {
                let house = self.house(n);
                if a.group.is_none() {
                    let d = self.errors.error(
                        ErrorKind::Syntax,
                        n.span.clone(),
                        "a question about a house needs a group",
                        "a group name after the house number",
                    );
                    self.errors.add(d);
                    return None;
                }
                house.map(Target::House)
            }
        };
        let group = match &a.group {
            Some(name) => Some(self.group_named(name)?),
            None => None,
        };
        Some(Ask {
            question: a.question.clone(),
            target: target?,
            group,
        })
    }

    fn operand(&mut self, op: &OpSyn) -> Option<Operand> {
        match op {
            OpSyn::Ref(r) => self.reference(r).map(Operand::Value),
            OpSyn::Int(n) => self.house(n).map(Operand::House),
        }
    }

    /// A house number: `1..=houses`.
    fn house(&mut self, n: &Num) -> Option<u8> {
        match n.value {
            Some(h) if h >= 1 && h <= u64::from(self.limit) => Some(h as u8),
            _ => {
                let d = self.errors.error(
                    ErrorKind::OutOfRange,
                    n.span.clone(),
                    match n.value {
                        Some(h) => format!("house {h} is out of range"),
                        None => "a house number this large is out of range".to_owned(),
                    },
                    format!("a house number from 1 to {}", self.limit),
                );
                self.errors.add(d);
                None
            }
        }
    }

    /// An offset or distance: `0..houses`.
    fn magnitude(&mut self, n: &Num, what: &str) -> Option<u8> {
        match n.value {
            Some(m) if m < u64::from(self.limit) => Some(m as u8),
            _ => {
                let mut d = self.errors.error(
                    ErrorKind::OutOfRange,
                    n.span.clone(),
                    match n.value {
                        Some(m) => format!("{what} of {m} is out of range"),
                        None => format!("{what} this large is out of range"),
                    },
                    format!("{what} from 0 to {}", self.limit - 1),
                );
                if let Some(h) = self.houses {
                    d.notes.push(format!(
                        "note: with {h} houses, two houses are at most {} apart",
                        h - 1
                    ));
                }
                self.errors.add(d);
                None
            }
        }
    }

    fn group_named(&mut self, name: &Name) -> Option<usize> {
        if let Some(g) = self.groups.iter().position(|g| g.name == name.text) {
            return Some(g);
        }
        if self.errors.is_full() {
            self.errors.omitted += 1;
            return None;
        }
        let mut d = self.errors.error(
            ErrorKind::UnknownName,
            name.span.clone(),
            format!("unknown group `{}`", name.text),
            "a group name",
        );
        if let Some(s) = nearest(&name.text, self.groups.iter().map(|g| g.name.as_str())) {
            d.notes.push(format!("help: did you mean `{}`?", quote(s)));
        } else if let Some(v) = self.by_name.get(&name.text).and_then(|v| v.first()) {
            d.notes.push(format!(
                "note: `{}` is a value of group `{}`",
                name.text,
                quote(&self.groups[v.group].name)
            ));
        }
        self.errors.add(d);
        None
    }

    fn reference(&mut self, r: &RefSyn) -> Option<ValueRef> {
        match r {
            RefSyn::Bare(name) => {
                let found = self.by_name.get(&name.text).map(Vec::as_slice);
                match found {
                    Some([v]) => return Some(*v),
                    Some(candidates) if candidates.len() > 1 => {
                        let names: Vec<String> =
                            candidates.iter().map(|v| self.qualified(*v)).collect();
                        let d = Diagnostic {
                            notes: vec![format!("note: candidates: {}", names.join(", "))],
                            ..self.errors.error(
                                ErrorKind::AmbiguousName,
                                name.span.clone(),
                                format!(
                                    "`{}` is ambiguous: {} groups have a value of that name",
                                    name.text,
                                    candidates.len()
                                ),
                                format!("a qualified name such as {}", names[0]),
                            )
                        };
                        self.errors.add(d);
                        return None;
                    }
                    _ => {}
                }
                if self.errors.is_full() {
                    self.errors.omitted += 1;
                    return None;
                }
                let mut d = self.errors.error(
                    ErrorKind::UnknownName,
                    name.span.clone(),
                    format!("unknown name `{}`", name.text),
                    "a value declared in a group",
                );
                let all = self
                    .groups
                    .iter()
                    .flat_map(|g| g.values.iter().map(String::as_str));
                if let Some(s) = nearest(&name.text, all) {
                    d.notes
                        .push(format!("help: did you mean {}?", self.spell(s)));
                } else if let Some(g) = self.groups.iter().find(|g| g.name == name.text) {
                    d.notes.push(format!(
                        "note: `{}` is a group; name one of its values, such as `{}`",
                        name.text,
                        quote(&g.values[0])
                    ));
                }
                self.errors.add(d);
                None
            }
            RefSyn::Qualified { group, value } => {
                let g = self.group_named(group)?;
                if let Some(v) = self.groups[g].values.iter().position(|x| *x == value.text) {
                    return Some(ValueRef { group: g, value: v });
                }
                let mut d = self.errors.error(
                    ErrorKind::UnknownName,
                    value.span.clone(),
                    format!("group `{}` has no value `{}`", group.text, value.text),
                    format!("a value of group `{}`", group.text),
                );
                let values = self.groups[g].values.iter().map(String::as_str);
                if let Some(s) = nearest(&value.text, values) {
                    d.notes.push(format!("help: did you mean `{}`?", quote(s)));
                }
                self.errors.add(d);
                None
            }
        }
    }

    /// How to write a suggested value name: bare, or each qualified form
    /// when it is ambiguous.
    fn spell(&self, name: &str) -> String {
        match self.by_name.get(name).map(Vec::as_slice) {
            Some(many @ [_, _, ..]) => many
                .iter()
                .map(|v| self.qualified(*v))
                .collect::<Vec<_>>()
                .join(" or "),
            _ => format!("`{}`", quote(name)),
        }
    }

    /// `` `group.value` ``, quoted where needed.
    fn qualified(&self, v: ValueRef) -> String {
        let g = &self.groups[v.group];
        format!("`{}.{}`", quote(&g.name), quote(&g.values[v.value]))
    }
}

/// A name as it must be written: bare if it is a word, quoted otherwise.
pub(crate) fn quote(name: &str) -> std::borrow::Cow<'_, str> {
    if is_bare_word(name) {
        std::borrow::Cow::Borrowed(name)
    } else {
        let mut s = String::with_capacity(name.len() + 2);
        s.push('"');
        for c in name.chars() {
            if c == '"' || c == '\\' {
                s.push('\\');
            }
            s.push(c);
        }
        s.push('"');
        std::borrow::Cow::Owned(s)
    }
}

/// Whether `name` reads back as itself when written without quotes: a word
/// that is no keyword.
pub(crate) fn is_bare_word(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(super::lexer::is_word_start)
        && chars.all(super::lexer::is_word_continue)
        && !matches!(name, "title" | "houses" | "ask" | "in")
}
