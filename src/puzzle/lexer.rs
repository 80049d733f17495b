//! The lexer: one line of `.zebra` text into tokens.
//!
//! The format is line-based, so the lexer works a line at a time and the
//! parser recovers from an error at the next line. A line yields its tokens
//! or its first error; comments (`#` to the end of the line, outside quotes)
//! yield nothing.
//!
//! Tokens: words (a letter or `_`, then letters, combining marks, digits,
//! `_` and `'`),
//! quoted strings (`"..."`, escapes `\"` and `\\` only, on one line),
//! unsigned integers, and the punctuation `: . = != < <= > >= + - | { } ,`.
//! Every span lies on `char` boundaries of the source.
//!
//! The lexer does not normalize: tokens keep the source's text and spans,
//! so carets point into the text as written; the parser reads names in
//! NFC. Invisible characters (zero-width spaces and joiners, bidi controls,
//! other format characters) are errors anywhere but in a comment.

use std::ops::Range;

use super::diagnostic::ErrorKind;
use super::text::{invisible, is_combining_mark};

/// A token's kind and contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok<'s> {
    /// A bare word: a name or a keyword.
    Word(&'s str),
    /// A quoted string, unescaped.
    Str(String),
    /// An unsigned integer; `None` if it does not fit in a `u64`.
    Int(Option<u64>),
    Colon,
    Dot,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Bar,
    LBrace,
    RBrace,
    Comma,
}

impl Tok<'_> {
    /// How the token reads in a message: ``word `red` ``, `` `=` ``.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("word `{w}`"),
            Tok::Str(_) => "a quoted string".to_owned(),
            Tok::Int(_) => "a number".to_owned(),
            other => format!("`{}`", other.symbol()),
        }
    }

    /// The punctuation as written (empty for words, strings, numbers).
    pub(crate) fn symbol(&self) -> &'static str {
        match self {
            Tok::Colon => ":",
            Tok::Dot => ".",
            Tok::Eq => "=",
            Tok::Ne => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Bar => "|",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Word(_) | Tok::Str(_) | Tok::Int(_) => "",
        }
    }
}

/// A token and where it is (byte offsets into the whole source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token<'s> {
    pub(crate) tok: Tok<'s>,
    pub(crate) span: Range<usize>,
}

/// A lexing error: what, where, and the caption under the caret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LexError {
    pub(crate) kind: ErrorKind,
    pub(crate) message: String,
    pub(crate) span: Range<usize>,
    pub(crate) expected: String,
}

/// Whether `c` may start a bare word.
pub(crate) fn is_word_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

/// Whether `c` may continue a bare word.
pub(crate) fn is_word_continue(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\'' || is_combining_mark(c)
}

/// The error for an invisible character at byte `at`; `place` says where
/// it is (`a name`, `a quoted string`), if anywhere in particular.
fn invisible_error(c: char, what: &str, at: usize, place: Option<&str>) -> LexError {
    let place = place.map_or_else(String::new, |p| format!(" in {p}"));
    LexError {
        kind: ErrorKind::InvisibleCharacter,
        message: format!("invisible character U+{:04X} ({what}){place}", c as u32),
        span: at..at + c.len_utf8(),
        expected: "nothing invisible: delete it".to_owned(),
    }
}

/// Lexes `line`, which starts at byte `offset` of the source and holds no
/// newline, into `out` (cleared first).
pub(crate) fn lex_line<'s>(
    line: &'s str,
    offset: usize,
    out: &mut Vec<Token<'s>>,
) -> Result<(), LexError> {
    out.clear();
    let mut chars = line.char_indices().peekable();
    let mut last = ' ';
    while let Some((i, c)) = chars.next() {
        let at = offset + i;
        if let Some(what) = invisible(c) {
            // In a name when it touches one: `Red\u{200B}` or `\u{200B}Red`.
            let next = chars.peek().map_or(' ', |&(_, d)| d);
            let in_name = is_word_continue(last) || is_word_start(next);
            return Err(invisible_error(c, what, at, in_name.then_some("a name")));
        }
        let one = |tok| Token {
            tok,
            span: at..at + c.len_utf8(),
        };
        match c {
            ' ' | '\t' => {}
            '#' => break,
            ':' => out.push(one(Tok::Colon)),
            '.' => out.push(one(Tok::Dot)),
            '+' => out.push(one(Tok::Plus)),
            '-' => out.push(one(Tok::Minus)),
            '|' => out.push(one(Tok::Bar)),
            '{' => out.push(one(Tok::LBrace)),
            '}' => out.push(one(Tok::RBrace)),
            ',' => out.push(one(Tok::Comma)),
            '=' => {
                if chars.next_if(|&(_, d)| d == '=').is_some() {
                    return Err(LexError {
                        kind: ErrorKind::UnexpectedCharacter,
                        message: "`==` is not an operator".to_owned(),
                        span: at..at + 2,
                        expected: "write equality as a single `=`".to_owned(),
                    });
                }
                out.push(one(Tok::Eq));
            }
            '<' | '>' => {
                let strict = if c == '<' { Tok::Lt } else { Tok::Gt };
                if chars.next_if(|&(_, d)| d == '=').is_some() {
                    let tok = if c == '<' { Tok::Le } else { Tok::Ge };
                    out.push(Token {
                        tok,
                        span: at..at + 2,
                    });
                } else {
                    out.push(one(strict));
                }
            }
            '!' => {
                if chars.next_if(|&(_, d)| d == '=').is_none() {
                    return Err(LexError {
                        kind: ErrorKind::UnexpectedCharacter,
                        message: "unexpected character `!`".to_owned(),
                        span: at..at + 1,
                        expected: "`!=`".to_owned(),
                    });
                }
                out.push(Token {
                    tok: Tok::Ne,
                    span: at..at + 2,
                });
            }
            '"' => {
                let (text, end) = lex_string(line, offset, i)?;
                // Skip the string's characters: `end` is just past its
                // closing quote.
                while chars.next_if(|&(j, _)| offset + j < end).is_some() {}
                out.push(Token {
                    tok: Tok::Str(text),
                    span: at..end,
                });
            }
            '0'..='9' => {
                let mut value = Some(u64::from(c as u8 - b'0'));
                let mut end = at + 1;
                while let Some((j, d)) = chars.next_if(|&(_, d)| d.is_ascii_digit()) {
                    let digit = u64::from(d as u8 - b'0');
                    value = value
                        .and_then(|v| v.checked_mul(10))
                        .and_then(|v| v.checked_add(digit));
                    end = offset + j + 1;
                }
                out.push(Token {
                    tok: Tok::Int(value),
                    span: at..end,
                });
            }
            c if is_word_start(c) => {
                let mut end = at + c.len_utf8();
                last = c;
                while let Some((j, d)) = chars.next_if(|&(_, d)| is_word_continue(d)) {
                    end = offset + j + d.len_utf8();
                    last = d;
                }
                out.push(Token {
                    tok: Tok::Word(&line[at - offset..end - offset]),
                    span: at..end,
                });
            }
            c => return Err(unexpected(c, at)),
        }
        if !is_word_start(c) {
            // (A word sets `last` to its own last character.)
            last = c;
        }
    }
    Ok(())
}

/// The error for a character that starts no token.
fn unexpected(c: char, at: usize) -> LexError {
    let span = at..at + c.len_utf8();
    if c.is_control() {
        return LexError {
            kind: ErrorKind::UnexpectedCharacter,
            message: format!("unexpected control character U+{:04X}", c as u32),
            span,
            expected: "text: names, numbers, operators".to_owned(),
        };
    }
    let expected = match c {
        '\'' | '`' | '\u{201c}' | '\u{201d}' | '\u{2018}' | '\u{2019}' => {
            "quote names and sentences with straight double quotes: \"...\"".to_owned()
        }
        _ => "a name, a number, a quoted string or an operator".to_owned(),
    };
    LexError {
        kind: ErrorKind::UnexpectedCharacter,
        message: format!("unexpected character `{c}`"),
        span,
        expected,
    }
}

/// Lexes the string whose opening quote is at byte `open` of `line`:
/// returns its unescaped text and the source offset just past its closing
/// quote.
fn lex_string(line: &str, offset: usize, open: usize) -> Result<(String, usize), LexError> {
    let mut text = String::new();
    let mut chars = line[open + 1..].char_indices();
    while let Some((j, c)) = chars.next() {
        let at = offset + open + 1 + j;
        match c {
            '"' => return Ok((text, at + 1)),
            '\\' => match chars.next() {
                Some((_, e @ ('"' | '\\'))) => text.push(e),
                Some((k, e)) => {
                    let end = offset + open + 1 + k + e.len_utf8();
                    return Err(LexError {
                        kind: ErrorKind::UnknownEscape,
                        message: format!("unknown escape `\\{e}`"),
                        span: at..end,
                        expected: "`\\\"` or `\\\\`".to_owned(),
                    });
                }
                None => break,
            },
            c if c.is_control() && c != '\t' => return Err(unexpected(c, at)),
            c if invisible(c).is_some() => {
                let what = invisible(c).unwrap_or_default();
                return Err(invisible_error(c, what, at, Some("a quoted string")));
            }
            c => text.push(c),
        }
    }
    Err(LexError {
        kind: ErrorKind::UnterminatedString,
        message: "unterminated string".to_owned(),
        span: offset + open..offset + open + 1,
        expected: "a closing `\"` on the same line".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(line: &str) -> Result<Vec<Tok<'_>>, LexError> {
        let mut out = Vec::new();
        lex_line(line, 0, &mut out)?;
        Ok(out.into_iter().map(|t| t.tok).collect())
    }

    #[test]
    fn lexes_every_operator() {
        let toks = lex(": . = != < <= > >= + - | { } ,").expect("lexes");
        let symbols: Vec<&str> = toks.iter().map(Tok::symbol).collect();
        assert_eq!(
            symbols,
            [
                ":", ".", "=", "!=", "<", "<=", ">", ">=", "+", "-", "|", "{", "}", ","
            ]
        );
    }

    #[test]
    fn words_strings_and_numbers_keep_their_text() {
        let toks = lex(r#"Old_Gold "orange \"juice\"" 42 Müller's"#).expect("lexes");
        assert_eq!(
            toks,
            [
                Tok::Word("Old_Gold"),
                Tok::Str("orange \"juice\"".into()),
                Tok::Int(Some(42)),
                Tok::Word("Müller's"),
            ]
        );
    }

    #[test]
    fn a_comment_ends_the_line_but_not_inside_quotes() {
        let toks = lex(r##""a # b" c # d e"##).expect("lexes");
        assert_eq!(toks, [Tok::Str("a # b".into()), Tok::Word("c")]);
    }

    #[test]
    fn huge_numbers_lex_as_overflow_not_panic() {
        assert_eq!(lex("99999999999999999999999"), Ok(vec![Tok::Int(None)]));
    }

    #[test]
    fn unterminated_string_points_at_its_opening_quote() {
        let err = lex(r#"a = "oops"#).expect_err("unterminated");
        assert_eq!(err.kind, ErrorKind::UnterminatedString);
        assert_eq!(err.span, 4..5);
    }

    #[test]
    fn rejects_double_equals_and_lone_bang_and_control_characters() {
        assert_eq!(
            lex("a == b").expect_err("==").kind,
            ErrorKind::UnexpectedCharacter
        );
        assert_eq!(lex("a ! b").expect_err("!").span, 2..3);
        assert_eq!(lex("a \u{1b}[31m").expect_err("escape").span, 2..3);
        assert_eq!(
            lex("\"a\u{7}\"").expect_err("bell in string").kind,
            ErrorKind::UnexpectedCharacter
        );
    }

    #[test]
    fn combining_marks_continue_a_word_and_keep_the_text_as_written() {
        assert_eq!(
            lex("Cafe\u{301} x"),
            Ok(vec![Tok::Word("Cafe\u{301}"), Tok::Word("x")])
        );
        // Not at a word's start.
        assert_eq!(
            lex("\u{301}a").expect_err("lone mark").kind,
            ErrorKind::UnexpectedCharacter
        );
    }

    #[test]
    fn invisible_characters_are_errors_at_them_but_not_in_comments() {
        let err = lex("ab\u{200b}c").expect_err("zwsp");
        assert_eq!(err.kind, ErrorKind::InvisibleCharacter);
        assert_eq!(err.span, 2..5);
        assert_eq!(
            err.message,
            "invisible character U+200B (zero width space) in a name"
        );
        let err = lex("a = \u{200c} b").expect_err("zwnj alone");
        assert_eq!(
            err.message,
            "invisible character U+200C (zero width non-joiner)"
        );
        let err = lex("\"a\u{202d}\"").expect_err("in quotes");
        assert_eq!(err.span, 2..5);
        assert!(
            err.message.ends_with("in a quoted string"),
            "{}",
            err.message
        );
        assert_eq!(lex("a # \u{200b}"), Ok(vec![Tok::Word("a")]));
    }

    #[test]
    fn unknown_escape_is_an_error() {
        assert_eq!(
            lex(r#""a\nb""#).expect_err("\\n").kind,
            ErrorKind::UnknownEscape
        );
    }

    #[test]
    fn spans_are_offset_into_the_whole_source() {
        let mut out = Vec::new();
        lex_line("ab <= 3", 100, &mut out).expect("lexes");
        let spans: Vec<_> = out.iter().map(|t| t.span.clone()).collect();
        assert_eq!(spans, [100..102, 103..105, 106..107]);
    }
}
