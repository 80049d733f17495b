//! Reading inputs: puzzle files and standard input within the library's
//! size limits, JSON lines one bounded line at a time, and rendering a
//! file's diagnostics with source excerpts (codespan-reporting).
//!
//! Reading happens on one thread, in input order ([`Source`] yields
//! [`Item`]s); parsing happens on the workers ([`Item::load`]), which
//! return what went wrong as text for stderr, so that messages come out
//! in input order too.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use bitfd::puzzle::{self, ErrorKind, ParseErrors, Puzzle};
use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config, Styles, StylesWriter, termcolor};
use serde_json::Value;
use unicode_width::UnicodeWidthStr as _;

use super::ERROR;
use super::args::InputFormat;

/// A file's name as messages show it: `<stdin>` for `-`.
pub(crate) fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Standard input gave nothing at all. Closed (`<&-`) or empty, it reads
/// as an empty file, which is no puzzle: say so rather than parse it.
const EMPTY_STDIN: &str = "<stdin>: standard input is empty (closed, or nothing was piped \
    in): pipe the input in, or name a file";

/// Reads a whole puzzle file (`-`: standard input), at most
/// [`puzzle::MAX_SOURCE_BYTES`] of it.
///
/// # Errors
///
/// The message for stderr: the file cannot be read or is too large.
fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let name = display_name(path);
    let limit = puzzle::MAX_SOURCE_BYTES as u64;
    let mut bytes = Vec::new();
    let read = if is_stdin(path) {
        io::stdin().lock().take(limit + 1).read_to_end(&mut bytes)
    } else {
        File::open(path).and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("{name}: cannot read: {e}"))?;
    if bytes.is_empty() && is_stdin(path) {
        return Err(EMPTY_STDIN.to_owned());
    }
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{name}: the file is larger than {} bytes (the limit for a puzzle)",
            puzzle::MAX_SOURCE_BYTES
        ));
    }
    Ok(bytes)
}

/// Which input something came from, as messages and JSON name it.
#[derive(Clone, Debug)]
pub(crate) struct Input {
    /// The name messages show: `file.zebra`, `<stdin>`, `puzzles.jsonl:3`.
    pub(crate) name: String,
    /// The file it is in: `file.zebra`, `<stdin>`, `puzzles.jsonl`.
    pub(crate) file: String,
    /// The line of a JSON-lines input.
    pub(crate) line: Option<u64>,
}

impl Input {
    /// A whole file (`-`: standard input).
    pub(crate) fn file(path: &Path) -> Input {
        let name = display_name(path);
        Input {
            file: name.clone(),
            name,
            line: None,
        }
    }
}

/// One input of a batch, read but not parsed.
#[derive(Debug)]
pub(crate) struct Item {
    /// Where it came from.
    pub(crate) input: Input,
    /// What was read.
    pub(crate) body: Body,
}

/// What was read for an [`Item`].
#[derive(Debug)]
pub(crate) enum Body {
    /// A `.zebra` file's bytes.
    Zebra(Vec<u8>),
    /// An English puzzle's bytes.
    English(Vec<u8>),
    /// One line of JSON.
    Json(Vec<u8>),
    /// It could not be read: the message says why.
    Unreadable(String),
}

/// A parsed input.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// Where it came from.
    pub(crate) input: Input,
    /// The JSON object's `id`, if it has one.
    pub(crate) id: Option<Value>,
    /// The puzzle.
    pub(crate) puzzle: Puzzle,
    /// Whether it was read from English text (its JSON output then adds
    /// the grid in the form graders use).
    pub(crate) english: bool,
}

/// Why an input gave no puzzle.
#[derive(Debug)]
pub(crate) struct LoadError {
    /// Where it came from.
    pub(crate) input: Input,
    /// A one-paragraph message, for JSON output.
    pub(crate) message: String,
    /// What stderr shows, styled: diagnostics with source excerpts, or
    /// `error: message`.
    pub(crate) rendered: String,
}

impl Item {
    /// Reads a puzzle file (`-`: standard input) in the format `from`
    /// names, or by its name: `.txt` is English, anything else `.zebra`. A
    /// file that cannot be read gives an [`Body::Unreadable`] item.
    pub(crate) fn read(path: &Path, from: Option<InputFormat>) -> Item {
        let format = from.unwrap_or_else(|| format_of(path));
        let body = match (read_file(path), format) {
            (Ok(bytes), InputFormat::Zebra) => Body::Zebra(bytes),
            (Ok(bytes), InputFormat::English) => Body::English(bytes),
            (Err(message), _) => Body::Unreadable(message),
        };
        Item {
            input: Input::file(path),
            body,
        }
    }

    /// Parses the input.
    ///
    /// # Errors
    ///
    /// What went wrong, rendered for stderr and as one message.
    pub(crate) fn load(self) -> Result<Loaded, LoadError> {
        let Item { input, body } = self;
        let fail = |input: Input, message: String| {
            let rendered = format!("{ERROR}error:{ERROR:#} {message}\n");
            Err(LoadError {
                input,
                message,
                rendered,
            })
        };
        match body {
            Body::Unreadable(message) => fail(input, message),
            Body::English(bytes) => match puzzle::english::parse_bytes(&bytes) {
                Ok(puzzle) => Ok(Loaded {
                    input,
                    id: None,
                    puzzle,
                    english: true,
                }),
                Err(errors) => Err(LoadError {
                    message: format!("{}: {}", input.name, first_line(&errors.to_string())),
                    rendered: render_diagnostics(&input.name, &bytes, &errors),
                    input,
                }),
            },
            Body::Zebra(bytes) => match puzzle::parse_bytes(&bytes) {
                Ok(puzzle) => Ok(Loaded {
                    input,
                    id: None,
                    puzzle,
                    english: false,
                }),
                Err(errors) => Err(LoadError {
                    message: format!("{}: {}", input.name, first_line(&errors.to_string())),
                    rendered: render_diagnostics(&input.name, &bytes, &errors),
                    input,
                }),
            },
            Body::Json(bytes) => {
                let value: Value = match serde_json::from_slice(&bytes) {
                    Ok(value) => value,
                    Err(e) => {
                        let message = format!("{}: not JSON: {e}", input.name);
                        return fail(input, message);
                    }
                };
                match puzzle::from_json(&value) {
                    Ok(puzzle) => Ok(Loaded {
                        id: value.get("id").cloned(),
                        input,
                        puzzle,
                        english: false,
                    }),
                    Err(e) => {
                        let message = format!("{}: {e}", input.name);
                        fail(input, message)
                    }
                }
            }
        }
    }
}

/// The format a file's name suggests: `.txt` is English, the rest `.zebra`.
pub(crate) fn format_of(path: &Path) -> InputFormat {
    let txt = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
    if txt {
        InputFormat::English
    } else {
        InputFormat::Zebra
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// The longest JSON line read: as large as a puzzle file may be.
const MAX_JSON_LINE: usize = puzzle::MAX_SOURCE_BYTES;

/// Where a batch's inputs come from, read in order on one thread.
pub(crate) enum Source {
    /// Puzzle files, `-` for standard input, and the format `--from` names.
    Files(std::vec::IntoIter<PathBuf>, Option<InputFormat>),
    /// A JSON-lines stream.
    Json(Lines),
}

impl Source {
    /// The puzzle files, in order, read as `from` says (or by their names).
    pub(crate) fn files(paths: Vec<PathBuf>, from: Option<InputFormat>) -> Source {
        Source::Files(paths.into_iter(), from)
    }

    /// A JSON-lines file (`-`: standard input).
    ///
    /// # Errors
    ///
    /// The message for stderr when the file cannot be opened.
    pub(crate) fn json_lines(path: &Path) -> Result<Source, String> {
        Lines::open(path, MAX_JSON_LINE).map(Source::Json)
    }

    /// How many inputs there are, when known before reading them.
    pub(crate) fn len(&self) -> Option<u64> {
        match self {
            Source::Files(paths, _) => Some(paths.len() as u64),
            Source::Json(_) => None,
        }
    }
}

impl Iterator for Source {
    type Item = Item;

    /// The next input; a line that cannot be read becomes a
    /// [`Body::Unreadable`] item.
    fn next(&mut self) -> Option<Item> {
        match self {
            Source::Files(paths, from) => {
                let from = *from;
                paths.next().map(|path| Item::read(&path, from))
            }
            Source::Json(lines) => {
                let (number, line) = lines.next()?;
                let at = format!("{}:{number}", lines.name);
                let body = match line {
                    Ok(bytes) => Body::Json(bytes),
                    Err(problem) => Body::Unreadable(format!("{at}: {problem}")),
                };
                let input = Input {
                    name: at,
                    file: lines.name.clone(),
                    line: Some(number),
                };
                Some(Item { input, body })
            }
        }
    }
}

/// The lines of a file or of standard input, numbered from 1, blank ones
/// skipped, each read whole but kept only up to a limit.
pub(crate) struct Lines {
    /// The file's name, as messages show it.
    pub(crate) name: String,
    /// The stream; `None` once it ended or failed.
    reader: Option<Box<dyn BufRead + Send>>,
    /// The longest line kept.
    max: usize,
    /// Lines read so far.
    number: u64,
    /// The current line.
    buffer: Vec<u8>,
}

impl Lines {
    /// The lines of `path` (`-`: standard input), each at most `max` bytes.
    ///
    /// # Errors
    ///
    /// The message for stderr when the file cannot be opened, or when
    /// standard input is empty.
    pub(crate) fn open(path: &Path, max: usize) -> Result<Lines, String> {
        let name = display_name(path);
        let reader: Box<dyn BufRead + Send> = if is_stdin(path) {
            let mut stdin = BufReader::new(io::stdin());
            // Waits for the first bytes (or the end): a program that
            // writes one line and then waits for its answer gets it.
            let first = stdin
                .fill_buf()
                .map_err(|e| format!("{name}: cannot read: {e}"))?;
            if first.is_empty() {
                return Err(EMPTY_STDIN.to_owned());
            }
            Box::new(stdin)
        } else {
            let file = File::open(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
            Box::new(BufReader::new(file))
        };
        Ok(Lines {
            name,
            reader: Some(reader),
            max,
            number: 0,
            buffer: Vec::new(),
        })
    }
}

impl Lines {
    /// Whether the stream starts, past white space, with `{` or `[`: a
    /// JSON document rather than lines (looks at the bytes buffered first,
    /// reads nothing more).
    pub(crate) fn starts_like_json(&mut self) -> bool {
        let Some(stream) = self.reader.as_mut() else {
            return false;
        };
        let first = stream.fill_buf().unwrap_or(&[]);
        matches!(
            first.iter().find(|b| !b.is_ascii_whitespace()),
            Some(b'{' | b'[')
        )
    }
}

impl Iterator for Lines {
    type Item = (u64, Result<Vec<u8>, String>);

    /// The next line that is not blank, with its number; what went wrong
    /// instead for a line that is too long, or that could not be read (then
    /// the stream ends).
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let stream = self.reader.as_mut()?;
            let read = read_bounded_line(stream, &mut self.buffer, self.max);
            self.number += 1;
            let line = match read {
                Ok(None) => {
                    self.reader = None;
                    return None;
                }
                Err(e) => {
                    self.reader = None;
                    Err(format!("cannot read: {e}"))
                }
                Ok(Some(false)) => Err(format!("the line is longer than {} bytes", self.max)),
                Ok(Some(true)) if self.buffer.iter().all(u8::is_ascii_whitespace) => continue,
                Ok(Some(true)) => Ok(std::mem::take(&mut self.buffer)),
            };
            return Some((self.number, line));
        }
    }
}

/// Renders every diagnostic of a file for stderr, with source excerpts,
/// styled (anstream strips the styles where colour is off).
pub(crate) fn render_diagnostics(name: &str, bytes: &[u8], errors: &ParseErrors) -> String {
    let source = displayable(bytes);
    let file = SimpleFile::new(name, source.as_str());
    let config = Config::default();
    let styles = Styles::default();
    let mut buffer = termcolor::Ansi::new(Vec::new());
    for d in errors.diagnostics() {
        let line_len = source
            .get(d.spot.span.start..)
            .and_then(|rest| rest.split('\n').next())
            .map_or(0, str::len);
        let mut report = Report::error()
            .with_code(d.kind.code())
            .with_message(&d.message);
        // A huge line is not worth printing: name the spot instead.
        if d.kind == ErrorKind::LineTooLong || line_len > 1000 {
            report = report.with_notes(vec![format!(
                "at {name}:{}:{}: {}",
                d.spot.line, d.spot.column, d.expected
            )]);
        } else {
            // A character of no width gets no caret: underline the one
            // after it too (the location stays the character's).
            let span = visible_span(&source, d.spot.span.clone());
            let caption = if span == d.spot.span {
                d.expected.clone()
            } else {
                "it is just before this character: delete it".to_owned()
            };
            let mut labels = vec![Label::primary((), span).with_message(caption)];
            for (spot, caption) in &d.related {
                labels.push(Label::secondary((), spot.span.clone()).with_message(caption));
            }
            report = report.with_labels(labels);
        }
        report = report.with_notes(d.notes.clone());
        // Writing to a Vec cannot fail; a rendering error loses one report.
        let _ = term::emit_to_write_style(
            &mut StylesWriter::new(&mut buffer, &styles),
            &config,
            &file,
            &report,
        );
    }
    let mut text = String::from_utf8_lossy(&buffer.into_inner()).into_owned();
    if errors.omitted() > 0 {
        let more = match errors.omitted() {
            1 => "1 more error".to_owned(),
            n => format!("{n} more errors"),
        };
        writeln!(text, "error: {more} in {name} not shown").expect("writing to a String");
    }
    text
}

/// The source as text safe to echo to a terminal, byte for byte the same
/// length so spans stay valid: control characters (but tab, newline and a
/// carriage return before a newline) become `?`, and bytes that are not
/// UTF-8 are decoded lossily (only a `not-utf8` diagnostic, at the first bad
/// byte, points into such a file).
fn displayable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let keep =
            !c.is_control() || c == '\t' || c == '\n' || (c == '\r' && chars.peek() == Some(&'\n'));
        if keep {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        }
    }
    out
}

/// Reads one line (without its `\n` or `\r\n`) into `line`, keeping at
/// most `max` bytes: `None` at the end of the input, `Some(false)` if the
/// line was longer (the rest of it is skipped, never stored).
pub(crate) fn read_bounded_line(
    reader: &mut dyn BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    let mut any = false;
    let mut fits = true;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        if fits && line.len() + chunk.len() <= max {
            line.extend_from_slice(chunk);
        } else {
            fits = false;
        }
        reader.consume(used);
        if done {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(any.then_some(fits))
}

/// `span`, widened to the character after it on its line when it covers
/// only text of no display width (an invisible character), so that a caret
/// shows where it is; its start, the reported location, stays.
fn visible_span(source: &str, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let covered = source.get(span.clone()).unwrap_or("");
    if covered.is_empty() || covered.width() > 0 {
        return span;
    }
    let after = source[span.end..]
        .chars()
        .next()
        .filter(|&c| c != '\n' && c != '\r')
        .map_or(0, char::len_utf8);
    span.start..span.end + after
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_lines_skip_what_is_too_long() {
        let mut input: &[u8] = b"abc\r\n0123456789\nxy";
        let mut line = Vec::new();
        assert_eq!(
            read_bounded_line(&mut input, &mut line, 5).ok(),
            Some(Some(true))
        );
        assert_eq!(line, b"abc");
        assert_eq!(
            read_bounded_line(&mut input, &mut line, 5).ok(),
            Some(Some(false))
        );
        assert_eq!(
            read_bounded_line(&mut input, &mut line, 5).ok(),
            Some(Some(true))
        );
        assert_eq!(line, b"xy");
        assert_eq!(read_bounded_line(&mut input, &mut line, 5).ok(), Some(None));
    }

    #[test]
    fn displayable_keeps_lengths_and_hides_control_characters() {
        let text = displayable(b"a\x1b[31m\tb\r\nc\rd");
        assert_eq!(text, "a?[31m\tb\r\nc?d");
    }

    #[test]
    fn json_lines_are_numbered_and_blank_ones_skipped() {
        let text = "{\"a\": 1}\n\n  \n{\"b\": 2}\r\n";
        let reader: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.as_bytes().to_vec()));
        let source = Source::Json(Lines {
            name: "x.jsonl".to_owned(),
            reader: Some(reader),
            max: 100,
            number: 0,
            buffer: Vec::new(),
        });
        let items: Vec<(String, Option<u64>, String)> = source
            .map(|item| {
                let Body::Json(bytes) = item.body else {
                    panic!("a JSON line")
                };
                let text = String::from_utf8(bytes).expect("UTF-8");
                (item.input.name, item.input.line, text)
            })
            .collect();
        assert_eq!(
            items,
            [
                ("x.jsonl:1".to_owned(), Some(1), "{\"a\": 1}".to_owned()),
                ("x.jsonl:4".to_owned(), Some(4), "{\"b\": 2}".to_owned()),
            ]
        );
    }
}
