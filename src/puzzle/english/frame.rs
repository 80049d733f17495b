//! The frame of an English puzzle: the house count, the attribute lists, the
//! numbered clues and the question, found line by line.
//!
//! A line is, in this order of precedence:
//! * a *clue* if it starts with a number and `.` or `)` (`12. Eric is ...`),
//!   or, after a line that announces clues (`## Clues:`), with a bullet;
//! * an *attribute list* if, before the first clue, it holds a colon with
//!   values after it: backticked (`` `Arnold`, `Eric` ``) or separated by
//!   commas (`carol, arnold, alice and bob`); the words before the colon
//!   describe the group and give it its name (`People have unique hair
//!   colors` is `HairColor`);
//! * a *question* if it holds a `?`;
//! * prose otherwise, where only the house count is looked for (`There are
//!   5 houses`, `five houses`).
//!
//! Invariant: every span handed to diagnostics lies on char boundaries of
//! the source, and every limit of the `.zebra` parser holds here too.

use std::ops::Range;

use super::clue::{self, PerGroup, Reading, Unread, Vocabulary};
use super::words::{self, HIGH, Kw, Lexicon, ONES, Token, WordId, load8};
use crate::puzzle::ast::{Ask, Clue, Group, Puzzle, Target, ValueRef};
use crate::puzzle::diagnostic::{Diagnostic, ErrorKind, LineIndex, ParseErrors, Spot};
use crate::puzzle::{
    MAX_ASKS, MAX_CLUES, MAX_ERRORS, MAX_GROUPS, MAX_HOUSES, MAX_LINE_BYTES, MAX_NAME_CHARS,
    MAX_SOURCE_BYTES, text,
};

/// The diagnostics of one source, capped at [`MAX_ERRORS`].
struct Errors<'s> {
    index: LineIndex<'s>,
    list: Vec<Diagnostic>,
    omitted: usize,
}

impl Errors<'_> {
    fn add(&mut self, kind: ErrorKind, span: Range<usize>, message: String, expected: &str) {
        self.push(Diagnostic {
            kind,
            message,
            spot: self.index.spot(span),
            expected: expected.to_owned(),
            related: Vec::new(),
            notes: Vec::new(),
        });
    }

    fn push(&mut self, d: Diagnostic) {
        if self.list.len() >= MAX_ERRORS {
            self.omitted += 1;
        } else {
            self.list.push(d);
        }
    }

    fn unread(&mut self, u: Unread) {
        let d = Diagnostic {
            kind: u.kind,
            message: u.message,
            spot: self.index.spot(u.span),
            expected: u.expected,
            related: Vec::new(),
            notes: u.notes,
        };
        self.push(d);
    }

    fn spot(&self, span: Range<usize>) -> Spot {
        self.index.spot(span)
    }
}

/// A line of the source: its text (without `\r`), where it starts, and
/// whether it holds printable ASCII and tabs only.
struct Line<'s> {
    text: &'s str,
    start: usize,
    printable: bool,
}

/// An attribute list as found.
struct ListSyn<'s> {
    description: &'s str,
    values: Vec<(&'s str, Range<usize>)>,
    span: Range<usize>,
}

/// A sentence (a clue or a question), where it starts, and whether its
/// line holds printable ASCII and tabs only.
struct SentenceSyn<'s> {
    text: &'s str,
    start: usize,
    printable: bool,
}

/// Parses a whole English puzzle; see [`super::parse`].
pub(crate) fn parse(source: &str) -> Result<Puzzle, ParseErrors> {
    if source.len() > MAX_SOURCE_BYTES {
        let mut errors = Errors {
            index: LineIndex::new(source),
            list: Vec::new(),
            omitted: 0,
        };
        errors.add(
            ErrorKind::FileTooLarge,
            0..0,
            format!(
                "the puzzle is {} bytes long; the limit is {MAX_SOURCE_BYTES}",
                source.len()
            ),
            "a smaller file",
        );
        return Err(ParseErrors::new(errors.list, errors.omitted));
    }
    let Lines {
        lines,
        starts,
        long,
    } = split_lines(source);
    let mut errors = Errors {
        index: LineIndex::with_starts(source, starts),
        list: Vec::new(),
        omitted: 0,
    };
    for (at, len) in long {
        errors.add(
            ErrorKind::LineTooLong,
            at..at,
            format!("line is {len} bytes long; the limit is {MAX_LINE_BYTES}"),
            "a shorter line",
        );
    }
    // The words of the whole text, read into one lexicon; `tokens` is the
    // buffer each line or sentence is cut into.
    let mut lexicon = Lexicon::new();
    let mut tokens = Vec::with_capacity(64);
    let mut lists: Vec<ListSyn<'_>> = Vec::with_capacity(8);
    let mut clues: Vec<SentenceSyn<'_>> = Vec::with_capacity(lines.len());
    let mut questions: Vec<SentenceSyn<'_>> = Vec::new();
    let mut prose_count: Option<(u64, Range<usize>)> = None;
    let mut clue_header = false;
    for line in &lines {
        // `trimmed` ends in no whitespace, nor does any of its suffixes.
        let untrimmed_end = line.text.trim_start();
        let trimmed = untrimmed_end.trim_end();
        if trimmed.is_empty() {
            continue;
        }
        let lead = line.text.len() - untrimmed_end.len();
        if let Some(body) = numbered(trimmed) {
            let at = line.start + lead + (trimmed.len() - body.len());
            clues.push(SentenceSyn {
                text: body,
                start: at,
                printable: line.printable,
            });
            continue;
        }
        let unbulleted = trimmed.trim_start_matches(['-', '*', '\u{2022}', '\u{2013}']);
        let bulleted = unbulleted.len() < trimmed.len();
        let body = unbulleted.trim_start();
        let body_at = line.start + lead + (trimmed.len() - body.len());
        if clue_header && bulleted && !body.is_empty() {
            clues.push(SentenceSyn {
                text: body,
                start: body_at,
                printable: line.printable,
            });
            continue;
        }
        if clues.is_empty() {
            if let Some(list) = attribute_list(body, body_at) {
                lists.push(list);
                continue;
            }
        }
        if body.contains('?') {
            // Each question runs from the start of its sentence to its `?`;
            // a line may ask several (`Who drinks water? Who owns the zebra?`).
            let mut from = 0;
            while let Some(q) = body[from..].find('?').map(|q| from + q) {
                let head = &body[from..q];
                let start = head.rfind(['.', '!']).map_or(from, |i| from + i + 1);
                let text = body[start..=q].trim_start();
                let at = body_at + q + 1 - text.len();
                if text.len() > 1 {
                    questions.push(SentenceSyn {
                        text,
                        start: at,
                        printable: line.printable,
                    });
                }
                from = q + 1;
                // `??` closes the same question.
                while body[from..].starts_with('?') {
                    from += 1;
                }
            }
            continue;
        }
        let lower = body.to_lowercase();
        if lower.contains("clue") && body.trim_end().ends_with(':') || lower.starts_with("## clue")
        {
            clue_header = true;
        }
        if prose_count.is_none() {
            prose_count = house_count(body, body_at, &mut lexicon, &mut tokens, true);
        }
    }

    // The house count: from the prose, else from a clue (`1. There are five
    // houses.`), else from the lists when they all have one length.
    let mut counted = prose_count;
    for c in &clues {
        if counted.is_some() {
            break;
        }
        counted = house_count(c.text, c.start, &mut lexicon, &mut tokens, false)
            .filter(|(_, span)| tokens.last().is_some_and(|t| t.span.end == span.end));
    }
    let houses = match counted {
        Some((k, span)) => {
            if k == 0 || k > u64::from(MAX_HOUSES) {
                errors.add(
                    ErrorKind::OutOfRange,
                    span,
                    format!("{k} houses; a puzzle has 1 to {MAX_HOUSES}"),
                    "a number of houses from 1 to 63",
                );
                None
            } else {
                Some(k as u8)
            }
        }
        None => {
            let sizes: Vec<usize> = lists.iter().map(|l| l.values.len()).collect();
            match sizes.first() {
                Some(&k) if sizes.iter().all(|&s| s == k) && k <= usize::from(MAX_HOUSES) => {
                    Some(k as u8)
                }
                _ => {
                    errors.add(
                        ErrorKind::MissingHouses,
                        0..0,
                        "the text does not say how many houses there are".to_owned(),
                        "a sentence such as `There are 5 houses`",
                    );
                    None
                }
            }
        }
    };

    // Each list's description cut into words, once: for the group's name
    // and for its cue words.
    let mut descriptions = PerGroup::with_capacity(lists.len(), 8);
    let groups = read_groups(
        &lists,
        houses,
        &mut errors,
        &mut lexicon,
        &mut tokens,
        &mut descriptions,
    );
    if lists.is_empty() {
        errors.add(
            ErrorKind::Syntax,
            0..0,
            "the text lists no attribute values".to_owned(),
            "a list a line: `- Each person has a unique name: `Arnold`, `Eric``",
        );
    }
    let (Some(houses), Some(groups)) = (houses, groups) else {
        return Err(ParseErrors::new(errors.list, errors.omitted));
    };
    let mut vocab = Vocabulary::with_lexicon(houses, &groups, &descriptions, lexicon, tokens);

    // Sentences become quoted labels and questions in the `.zebra` form, which
    // refuses control and invisible characters (they cannot be told apart
    // on screen): refuse them here too.
    let clean = |c: &SentenceSyn<'_>, errors: &mut Errors<'_>| {
        // Most sentences are printable ASCII, as the line split found.
        if c.printable {
            return true;
        }
        let bad = c.text.char_indices().find(|&(_, ch)| {
            if ch.is_ascii() {
                // No ASCII character is invisible.
                ch.is_ascii_control() && ch != '\t'
            } else {
                ch.is_control() || text::invisible(ch).is_some()
            }
        });
        match bad {
            None => true,
            Some((i, ch)) => {
                let at = c.start + i;
                let (kind, what) = match text::invisible(ch) {
                    Some(what) => (
                        ErrorKind::InvisibleCharacter,
                        format!("invisible character U+{:04X} ({what})", u32::from(ch)),
                    ),
                    None => (
                        ErrorKind::UnexpectedCharacter,
                        format!("unexpected control character U+{:04X}", u32::from(ch)),
                    ),
                };
                errors.add(
                    kind,
                    at..at + ch.len_utf8(),
                    format!("{what} in a sentence"),
                    "nothing invisible: delete it",
                );
                false
            }
        }
    };
    clues.retain(|c| clean(c, &mut errors));
    questions.retain(|q| clean(q, &mut errors));
    let mut puzzle_clues = Vec::with_capacity(clues.len());
    let mut clue_spots = Vec::with_capacity(clues.len());
    for (i, c) in clues.iter().enumerate() {
        let span = c.start..c.start + c.text.len();
        if i == MAX_CLUES {
            errors.add(
                ErrorKind::TooMany,
                span,
                format!("more than {MAX_CLUES} clues"),
                "fewer clues",
            );
            break;
        }
        match clue::read(&mut vocab, c.text, c.start) {
            Ok(Reading::One(relation)) => {
                puzzle_clues.push(Clue {
                    label: Some(c.text.to_owned()),
                    relation,
                });
                clue_spots.push(errors.spot(span));
            }
            Ok(Reading::Several(relations)) => {
                for relation in relations {
                    puzzle_clues.push(Clue {
                        label: Some(c.text.to_owned()),
                        relation,
                    });
                    clue_spots.push(errors.spot(span.clone()));
                }
            }
            Ok(Reading::Frame) => {}
            Err(u) => errors.unread(u),
        }
    }
    let mut asks = Vec::with_capacity(questions.len().min(MAX_ASKS));
    for (i, q) in questions.iter().enumerate() {
        if i == MAX_ASKS {
            errors.add(
                ErrorKind::TooMany,
                q.start..q.start + q.text.len(),
                format!("more than {MAX_ASKS} questions"),
                "fewer questions",
            );
            break;
        }
        match read_question(&mut vocab, &groups, q.text, q.start) {
            Ok(Some(ask)) => asks.push(ask),
            Ok(None) => {}
            Err(u) => errors.unread(u),
        }
    }
    if !errors.list.is_empty() || errors.omitted > 0 {
        return Err(ParseErrors::new(errors.list, errors.omitted));
    }
    Ok(Puzzle {
        title: None,
        houses,
        groups,
        clues: puzzle_clues,
        asks,
        clue_spots,
    })
}

/// Whether a byte is printable ASCII or a tab.
fn printable(b: u8) -> bool {
    (b' '..0x7f).contains(&b) || b == b'\t'
}

/// The high bit of each byte of `w` below 0x20, at 0x7f or from 0x80 up
/// (not printable ASCII, or a tab), and maybe of bytes above such a byte:
/// zero exactly when every byte is printable ASCII, and the lowest bit set
/// is exact. A byte below 0x20 sets its high bit in `w - 0x20`, 0x7f in
/// `w + 1`, a byte from 0x80 up in `w`; carries and borrows only come from
/// such bytes.
fn unprintable(w: u64) -> u64 {
    (w | w.wrapping_add(ONES) | w.wrapping_sub(0x20 * ONES)) & HIGH
}

/// Where the line that starts at `from` ends (at its `\n`, or at the end
/// of `bytes`), and its first byte that is neither printable ASCII nor a
/// tab, if any: the split and the sentences' check of their characters in
/// one pass, which earns its place on `english-read-6x6` over a split and
/// a pass over each sentence. Eight bytes at a time: a word of
/// printable bytes (nearly every word of a text) holds no newline; once a
/// line has an odd byte, a word without a zero byte in it xor `\n`s.
fn line_end(bytes: &[u8], from: usize) -> (usize, Option<usize>) {
    let mut odd = None;
    let mut i = from;
    let look = |i: usize, b: u8, odd: &mut Option<usize>| {
        if b == b'\n' {
            return true;
        }
        if odd.is_none() && !printable(b) {
            *odd = Some(i);
        }
        false
    };
    // Sixteen bytes a turn while they are printable (most of a line).
    while i + 16 <= bytes.len()
        && unprintable(load8(bytes, i)) | unprintable(load8(bytes, i + 8)) == 0
    {
        i += 16;
    }
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*chunk);
        let x = w ^ (u64::from(b'\n') * ONES);
        let stop = match odd {
            None => unprintable(w),
            Some(_) => x.wrapping_sub(ONES) & !x & HIGH,
        };
        if stop != 0 {
            // The lowest byte marked is an odd byte or the newline (marks
            // above it may be false).
            let first = (stop.trailing_zeros() / 8) as usize;
            for (k, &b) in chunk.iter().enumerate().skip(first) {
                if look(i + k, b, &mut odd) {
                    return (i + k, odd);
                }
            }
        }
        i += 8;
    }
    for (k, &b) in bytes.get(i..).unwrap_or_default().iter().enumerate() {
        if look(i + k, b, &mut odd) {
            return (i + k, odd);
        }
    }
    (bytes.len(), odd)
}

/// The source's lines, without a byte-order mark or `\r`, with every
/// line's start for the [`LineIndex`] and whether it is printable ASCII
/// ([`line_end`]: one pass over the text serves all three); a line longer
/// than [`MAX_LINE_BYTES`] is left out and given as (where its diagnostic
/// points, its length).
fn split_lines(source: &str) -> Lines<'_> {
    let body = source.strip_prefix('\u{feff}').unwrap_or(source);
    let mut offset = source.len() - body.len();
    // Room for lines of 64 bytes on average, so that the lists rarely grow.
    let mut out = Vec::with_capacity(body.len() / 64 + 8);
    let mut starts = Vec::with_capacity(body.len() / 64 + 8);
    let mut long = Vec::new();
    let bytes = body.as_bytes();
    let mut from = 0;
    while from <= bytes.len() {
        let (end, odd) = line_end(bytes, from);
        let raw = &body[from..end];
        from = end + 1;
        let start = offset;
        // The first line starts at 0 for the index, before a byte-order mark.
        starts.push(if starts.is_empty() { 0 } else { start });
        offset += raw.len() + 1;
        let text = raw.strip_suffix('\r').unwrap_or(raw);
        if text.len() > MAX_LINE_BYTES {
            let mut at = MAX_LINE_BYTES;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            long.push((start + at, text.len()));
            continue;
        }
        // The first odd byte, if any, is the `\r` the text leaves out.
        let printable = odd.is_none_or(|k| k >= end - raw.len() + text.len());
        out.push(Line {
            text,
            start,
            printable,
        });
    }
    Lines {
        lines: out,
        starts,
        long,
    }
}

/// What [`split_lines`] finds.
struct Lines<'s> {
    lines: Vec<Line<'s>>,
    /// Every line's start, the first at 0.
    starts: Vec<usize>,
    /// The lines too long to read: where the diagnostic points, the length.
    long: Vec<(usize, usize)>,
}

/// The sentence of a numbered line (`12. Eric is ...`, `3) ...`), a line
/// that ends in no whitespace.
fn numbered(line: &str) -> Option<&str> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 6 {
        return None;
    }
    let rest = line[digits..].strip_prefix(['.', ')'])?;
    // Whitespace after the mark, then words.
    let body = rest.trim_start();
    (body.len() < rest.len() && !body.is_empty()).then_some(body)
}

/// An attribute list: words, a colon, then values.
fn attribute_list(body: &str, at: usize) -> Option<ListSyn<'_>> {
    let colon = body.find(':')?;
    let description = body[..colon].trim();
    let after = &body[colon + 1..];
    if after.trim().is_empty() {
        return None;
    }
    let after_at = at + colon + 1;
    let mut values = Vec::with_capacity(8);
    if after.contains('`') {
        // Backticked values: the text between each pair of backticks (a
        // byte scan: values are short, a search call each costs more).
        let mut ticks = after
            .bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'`')
            .map(|(i, _)| i);
        while let (Some(open), Some(close)) = (ticks.next(), ticks.next()) {
            values.push((
                &after[open + 1..close],
                after_at + open + 1..after_at + close,
            ));
        }
    } else {
        // Comma-separated values; `and`/`or` before the last one.
        let mut pieces: Vec<(usize, &str)> = Vec::new();
        let mut start = 0;
        for (i, c) in after.char_indices() {
            if c == ',' || c == ';' {
                pieces.push((start, &after[start..i]));
                start = i + 1;
            }
        }
        pieces.push((start, &after[start..]));
        if pieces.len() < 2 {
            // One piece: `a and b` or `a or b` still lists two.
            let (s, p) = pieces[0];
            let k = p.find(" and ").or_else(|| p.find(" or "))?;
            let word = if p[k..].starts_with(" and ") { 5 } else { 4 };
            pieces = vec![(s, &p[..k]), (s + k + word, &p[k + word..])];
        }
        for (s, piece) in pieces {
            let mut text = piece;
            let mut from = s;
            let trimmed = text.trim_start();
            from += text.len() - trimmed.len();
            text = trimmed;
            for lead in ["and ", "or "] {
                if let Some(t) = text.strip_prefix(lead) {
                    from += lead.len();
                    text = t.trim_start();
                    from += t.len() - text.len();
                }
            }
            let text = text.trim_end().trim_end_matches('.').trim_end();
            let text = text.trim_matches(['"', '\'']);
            if text.is_empty() {
                continue;
            }
            let inner = after[from..].find(text).map_or(from, |k| from + k);
            values.push((text, after_at + inner..after_at + inner + text.len()));
        }
        if values.len() < 2 {
            return None;
        }
    }
    if values.is_empty() {
        return None;
    }
    Some(ListSyn {
        description: description.trim_start_matches(['-', '*', '#']).trim(),
        values,
        span: at..at + body.len(),
    })
}

/// `There are 5 houses`, `five houses`: the count and its span. The
/// sentence's tokens are left in `tokens`: all of them, or with `early`
/// those up to the count.
fn house_count(
    sentence: &str,
    at: usize,
    lexicon: &mut Lexicon,
    tokens: &mut Vec<Token>,
    early: bool,
) -> Option<(u64, Range<usize>)> {
    let count = |lexicon: &Lexicon, t: &Token, next: &Token| {
        if matches!(next.kw, Kw::Houses | Kw::Floors) {
            lexicon.cardinal(t.word)
        } else {
            None
        }
    };
    lexicon.tokens_while(sentence, at, tokens, |lexicon, tokens| {
        !early || !matches!(tokens, [.., t, next] if count(lexicon, t, next).is_some())
    });
    tokens.windows(2).find_map(|w| {
        let k = count(lexicon, &w[0], &w[1])?;
        Some((k, w[0].span.start..w[1].span.end))
    })
}
/// The groups of the lists, checked: names, sizes, duplicates. Each
/// list's description's tokens are `descriptions`' list for its group.
fn read_groups(
    lists: &[ListSyn<'_>],
    houses: Option<u8>,
    errors: &mut Errors<'_>,
    lexicon: &mut Lexicon,
    tokens: &mut Vec<Token>,
    descriptions: &mut PerGroup<Token>,
) -> Option<Vec<Group>> {
    let mut groups: Vec<Group> = Vec::with_capacity(lists.len().min(MAX_GROUPS));
    let mut ok = true;
    for (g, list) in lists.iter().enumerate() {
        if g == MAX_GROUPS {
            errors.add(
                ErrorKind::TooMany,
                list.span.clone(),
                format!("more than {MAX_GROUPS} groups"),
                "fewer attribute lists",
            );
            return None;
        }
        let mut name = group_name(list.description, g, lexicon, tokens);
        descriptions.extend_from_slice(tokens);
        descriptions.close();
        let taken = |name: &str| groups.iter().any(|x| x.name == name);
        if taken(&name) {
            // The first free name of `Name2`, `Name3`, ...
            let base = std::mem::take(&mut name);
            name = (2..)
                .map(|k| format!("{base}{k}"))
                .find(|n| !taken(n))
                .expect("fewer groups than numbers");
        }
        if let Some(h) = houses {
            if list.values.len() > usize::from(h) {
                errors.add(
                    ErrorKind::GroupTooLarge,
                    list.span.clone(),
                    format!("{} values for {h} houses", list.values.len()),
                    "at most one value a house",
                );
                ok = false;
            }
        }
        let mut values: Vec<String> = Vec::with_capacity(list.values.len());
        for &(value, ref span) in &list.values {
            let value = text::nfc(value.trim()).into_owned();
            // Its length in characters, whether it has a word (a value has
            // one exactly when it has a letter or a digit), and its first
            // character that cannot be seen (no ASCII character is
            // invisible), in one pass.
            let (mut chars, mut has_word, mut unseen) = (0, false, None);
            for c in value.chars() {
                chars += 1;
                has_word |= c.is_alphanumeric();
                let bad = c.is_control() || !c.is_ascii() && text::invisible(c).is_some();
                if bad && unseen.is_none() {
                    unseen = Some(c);
                }
            }
            if value.is_empty() || chars > MAX_NAME_CHARS || !has_word {
                errors.add(
                    ErrorKind::BadName,
                    span.clone(),
                    format!("a value of {chars} characters, or without a word"),
                    "a value of 1 to 64 characters with a letter or digit",
                );
                ok = false;
                continue;
            }
            if let Some(c) = unseen {
                errors.add(
                    ErrorKind::InvisibleCharacter,
                    span.clone(),
                    format!(
                        "the value holds an invisible character (U+{:04X})",
                        u32::from(c)
                    ),
                    "visible characters",
                );
                ok = false;
                continue;
            }
            if values.contains(&value) {
                errors.add(
                    ErrorKind::Duplicate,
                    span.clone(),
                    format!("`{value}` is listed twice"),
                    "each value once",
                );
                ok = false;
                continue;
            }
            values.push(value);
        }
        groups.push(Group { name, values });
    }
    ok.then_some(groups)
}

/// ZebraLogic's list descriptions whose columns its published grids name
/// otherwise than the description's words do: graders look a cell up by
/// its column's name (ZeroEval's grid evaluation), so a grid read from a
/// ZebraLogic puzzle names these columns as ZebraLogic does. Matched on the
/// whole description (ASCII case aside), so that other texts keep the
/// names their own words give (`Each person has a unique sport` is
/// `Sport`).
const ZEBRALOGIC_COLUMNS: &[(&str, &str)] = &[
    ("Each person has a unique birthday month", "Birthday"),
    ("Everyone has something unique for lunch", "Food"),
    ("Each mother is accompanied by their child", "Children"),
    (
        "The mothers' names in different houses are unique",
        "Mother",
    ),
    ("People have unique favorite sports", "FavoriteSport"),
    ("Each person lives in a unique style of house", "HouseStyle"),
];

/// A group's name from its description: the words that are not common to
/// every description, singular and capitalized (`People have unique hair
/// colors` is `HairColor`), as ZebraLogic names the column where it names
/// it otherwise ([`ZEBRALOGIC_COLUMNS`]), or `GroupN` when no word is left.
pub(crate) fn group_name(
    description: &str,
    g: usize,
    lexicon: &mut Lexicon,
    tokens: &mut Vec<Token>,
) -> String {
    let description = description.trim();
    let zebralogic = ZEBRALOGIC_COLUMNS
        .iter()
        .find(|(words, _)| words.eq_ignore_ascii_case(description));
    if let Some(&(_, column)) = zebralogic {
        return column.to_owned();
    }
    let mut name = String::with_capacity(32);
    lexicon.tokens(description, 0, tokens);
    for t in tokens.iter() {
        if lexicon.is_name_common_word(t.word) {
            continue;
        }
        let norm = lexicon.text(t.word);
        let single = words::singular(norm);
        // Without the characters that draw as nothing (none is ASCII),
        // which the `.zebra` form refuses in a name (a description's words
        // may carry them).
        let visible = |&c: &char| c.is_ascii() || text::invisible(c).is_none();
        let mut chars = single.chars().filter(visible);
        if let Some(first) = chars.next() {
            name.extend(first.to_uppercase());
            name.extend(chars);
        }
        if name.len() > MAX_NAME_CHARS * 4 {
            break;
        }
    }
    // At most 56 characters, so that a number added to tell two groups
    // apart keeps it within the name limit; in NFC, as names are compared.
    if let std::borrow::Cow::Owned(composed) = text::nfc(&name) {
        name = composed;
    }
    if let Some((end, _)) = name.char_indices().nth(MAX_NAME_CHARS - 8) {
        name.truncate(end);
    }
    if name.is_empty() {
        format!("Group{}", g + 1)
    } else {
        name
    }
}

/// Reads a question: `What is Name of the person who lives in House 1?`,
/// `Who owns the zebra?`, `Where does Eric live?`. A question about the
/// whole grid (`Who lives where?`) asks nothing the grid does not show:
/// `None`.
fn read_question(
    vocab: &mut Vocabulary<'_>,
    groups: &[Group],
    sentence: &str,
    at: usize,
) -> Result<Option<Ask>, Unread> {
    vocab.with_tokens(sentence, at, |vocab, tokens| {
        question(vocab, groups, tokens, sentence, at)
    })
}

/// [`read_question`] with the sentence cut into `tokens`.
fn question(
    vocab: &Vocabulary<'_>,
    groups: &[Group],
    tokens: &[Token],
    sentence: &str,
    at: usize,
) -> Result<Option<Ask>, Unread> {
    let question = Some(sentence.to_owned());
    let span = at..at + sentence.len();
    let mut mentions = Vec::with_capacity(4);
    vocab.mentions(tokens, &mut mentions);
    // A question names few values; a mention with several candidates is
    // taken only if one candidate is left after the cue words.
    mentions.retain(|m| vocab.candidates(m).len() == 1);
    let first = tokens.first().map_or(Kw::Other, |t| t.kw);
    // `House 1`, `the first house`.
    let house = house_in(vocab.lexicon(), tokens, vocab.houses());
    // The group asked for is not the group of the value asked about
    // (`What is the pet of the one whose color is red?`).
    let exclude = match &mentions[..] {
        [m] => Some(vocab.candidates(m)[0].group),
        _ => None,
    };
    let asked_group = group_in(vocab, groups, sentence, at, tokens, &mentions, exclude);
    if let Some(h) = house {
        if let Some(g) = asked_group {
            return Ok(Some(Ask {
                question,
                target: Target::House(h),
                group: Some(g),
            }));
        }
    }
    let value: Option<ValueRef> = match &mentions[..] {
        [m] => Some(vocab.candidates(m)[0]),
        _ => None,
    };
    match (value, first) {
        (Some(v), Kw::Where) => Ok(Some(Ask {
            question,
            target: Target::Value(v),
            group: None,
        })),
        (Some(v), _)
            if tokens
                .iter()
                .any(|t| matches!(t.kw, Kw::Where | Kw::House | Kw::Position))
                && asked_group.is_none() =>
        {
            Ok(Some(Ask {
                question,
                target: Target::Value(v),
                group: None,
            }))
        }
        (Some(v), Kw::Who | Kw::Which | Kw::What | Kw::Whose) => {
            let g = asked_group
                .filter(|&g| g != v.group)
                .or_else(|| person_group(vocab, groups, v.group));
            match g {
                Some(g) => Ok(Some(Ask {
                    question,
                    target: Target::Value(v),
                    group: Some(g),
                })),
                None => Err(Unread {
                    kind: ErrorKind::UnreadableSentence,
                    message: "the question does not say which attribute it asks for".to_owned(),
                    span,
                    expected: "a question naming a group: `What is the Drink of Eric?`".to_owned(),
                    notes: Vec::new(),
                }),
            }
        }
        (None, _) if mentions.is_empty() && house.is_none() => Ok(None),
        _ => Err(Unread {
            kind: ErrorKind::UnreadableSentence,
            message: "cannot read the question".to_owned(),
            span,
            expected: "`Who owns the zebra?`, `What is Name of the person who lives in House 1?`"
                .to_owned(),
            notes: Vec::new(),
        }),
    }
}

/// The group a `who` question answers with: the group of people's names,
/// else the first group other than the one asked about.
fn person_group(vocab: &Vocabulary<'_>, groups: &[Group], asked: usize) -> Option<usize> {
    (0..groups.len())
        .find(|&g| g != asked && matches!(vocab.cues(g), [k] if vocab.lexicon().text(*k) == "name"))
        .or_else(|| (0..groups.len()).find(|&g| g != asked))
}

/// A house named in a question: `House 3`, `the third house`.
fn house_in(lexicon: &Lexicon, tokens: &[Token], houses: u8) -> Option<u8> {
    for (i, t) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1);
        let k = if t.kw == Kw::House {
            next.and_then(|n| lexicon.digits(n.word))
        } else if next.is_some_and(|n| n.kw == Kw::House) {
            lexicon.ordinal(t.word)
        } else {
            None
        };
        if let Some(k) = k.filter(|&k| k >= 1 && k <= u64::from(houses)) {
            return Some(k as u8);
        }
    }
    None
}

/// The group a question asks for: the group whose name is a word of the
/// question (`What is Name of ...`), else whose cue words are.
fn group_in(
    vocab: &Vocabulary<'_>,
    groups: &[Group],
    sentence: &str,
    at: usize,
    tokens: &[Token],
    mentions: &[clue::Mention],
    exclude: Option<usize>,
) -> Option<usize> {
    let lexicon = vocab.lexicon();
    let in_mention = |i: usize| mentions.iter().any(|m| (m.first..m.end).contains(&i));
    // The keys of the words outside the mentions, a camel-case word split in
    // its words (`What is MusicGenre of ...` names `music`, `genre`). A key
    // the lexicon does not hold is no cue and no group's word: `NONE`.
    const NONE: WordId = WordId::MAX;
    let mut free: Vec<WordId> = Vec::with_capacity(tokens.len());
    let mut word = String::new();
    for (i, t) in tokens.iter().enumerate() {
        if in_mention(i) {
            continue;
        }
        let raw = sentence
            .get(t.span.start - at..t.span.end - at)
            .unwrap_or("");
        let mut bytes = raw.bytes();
        if bytes.next().is_some_and(|b| b.is_ascii_alphanumeric())
            && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            // A word in lower case after its first letter (`What`, `color`)
            // is one word, its token's.
            free.push(t.key);
            continue;
        }
        clue::for_each_name_word(raw, &mut word, |w| {
            let lower = w.to_lowercase();
            free.push(lexicon.find(&words::key(&lower)).unwrap_or(NONE));
        });
    }
    // The group's name as words (`PhoneModel` is `phone`, `model`), in a row.
    let by_name = (0..groups.len()).find(|&g| {
        let name = vocab.name_words(g);
        Some(g) != exclude && !name.is_empty() && free.windows(name.len()).any(|w| w == name)
    });
    by_name.or_else(|| {
        let hits: Vec<usize> = (0..groups.len())
            .filter(|&g| Some(g) != exclude)
            .filter(|&g| {
                vocab
                    .cues(g)
                    .iter()
                    .any(|&c| lexicon.text(c) != "name" && free.contains(&c))
            })
            .collect();
        match hits[..] {
            [g] => Some(g),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_split_gives_the_line_index_its_starts() {
        // Every spot of a source, from the starts split_lines finds and
        // from LineIndex's own pass, with a byte-order mark, `\r\n`, empty
        // lines, a character outside ASCII and a last line with and
        // without its newline.
        for source in [
            "",
            "a",
            "a\n",
            "\u{feff}There are 2 houses.\r\n\n - a: `x`, `\u{e9}`\nlast",
            "\n\nx\n\n",
        ] {
            let Lines { starts, .. } = split_lines(source);
            let ours = LineIndex::with_starts(source, starts);
            let theirs = LineIndex::new(source);
            for i in (0..=source.len()).filter(|&i| source.is_char_boundary(i)) {
                assert_eq!(ours.spot(i..i), theirs.spot(i..i), "{source:?} at {i}");
            }
        }
    }

    #[test]
    fn a_prose_count_is_found_as_far_as_the_words_go() {
        // Cut only up to its count, a prose line gives the count a whole
        // cut gives; a numbered sentence is cut whole.
        let mut lexicon = Lexicon::new();
        let mut tokens = Vec::new();
        let line = "There are 5 houses, numbered 1 to 5, and 7 floors.";
        let early = house_count(line, 10, &mut lexicon, &mut tokens, true);
        assert_eq!(early, Some((5, 20..28)));
        assert_eq!(tokens.len(), 4, "cut up to `houses`");
        let whole = house_count(line, 10, &mut lexicon, &mut tokens, false);
        assert_eq!(whole, early);
        assert_eq!(tokens.len(), 11, "cut whole");
        assert_eq!(
            house_count("No count here.", 0, &mut lexicon, &mut tokens, true),
            None
        );
    }

    #[test]
    fn values_are_checked_as_names_are() {
        // Each value that the `.zebra` form would refuse as a name, with
        // the diagnostic it gets: too long (65 characters, one outside
        // ASCII), without a letter or digit, holding an invisible or a
        // control character (in and outside ASCII), or listed twice.
        let long = format!("\u{e9}{}", "x".repeat(64));
        for (value, kind, message) in [
            (
                &long[..],
                ErrorKind::BadName,
                "a value of 65 characters, or without a word",
            ),
            (
                "--",
                ErrorKind::BadName,
                "a value of 2 characters, or without a word",
            ),
            (
                "a\u{200b}b",
                ErrorKind::InvisibleCharacter,
                "the value holds an invisible character (U+200B)",
            ),
            (
                "a\u{1}b",
                ErrorKind::InvisibleCharacter,
                "the value holds an invisible character (U+0001)",
            ),
            (
                "a\u{85}b",
                ErrorKind::InvisibleCharacter,
                "the value holds an invisible character (U+0085)",
            ),
            ("b", ErrorKind::Duplicate, "`b` is listed twice"),
        ] {
            let text = format!("There are 3 houses.\n- Names: `{value}`, `b`, `c`\n");
            let errors = parse(&text).expect_err(value);
            let d = &errors.diagnostics()[0];
            assert_eq!((d.kind, &d.message[..]), (kind, message), "{value:?}");
            // At the value, the second one for a duplicate.
            let column = if kind == ErrorKind::Duplicate { 16 } else { 11 };
            assert_eq!((d.spot.line, d.spot.column), (2, column), "{value:?}");
        }
        // Visible characters outside ASCII are a value's own.
        let p = parse("There are 2 houses.\n- Names: `Zo\u{eb}`, `\u{c5}sa`\n").expect("reads");
        assert_eq!(p.groups()[0].values, ["Zo\u{eb}", "\u{c5}sa"]);
    }

    #[test]
    fn lines_end_and_odd_bytes_are_found_at_every_position() {
        // Each odd byte at each place of a 19-byte line (two whole 8-byte
        // words and a remainder), and a newline at each place after it,
        // against the byte-by-byte rule.
        for bad in [
            '\u{0}', '\u{1f}', '\u{7f}', 'é', '\u{200b}', '\t', ' ', '~', '\r',
        ] {
            for at in 0..19 {
                for nl in [None, Some(3), Some(8), Some(at + 1), Some(18)] {
                    let mut text: Vec<char> = "The Brit is next to".chars().collect();
                    text[at] = bad;
                    if let Some(nl) = nl.filter(|&nl| nl != at && nl < text.len()) {
                        text[nl] = '\n';
                    }
                    let text: String = text.into_iter().collect();
                    let bytes = text.as_bytes();
                    let end = bytes
                        .iter()
                        .position(|&b| b == b'\n')
                        .unwrap_or(bytes.len());
                    let odd = bytes[..end].iter().position(|&b| !printable(b));
                    assert_eq!(line_end(bytes, 0), (end, odd), "{text:?}");
                }
            }
        }
        assert_eq!(line_end(b"", 0), (0, None));
        assert_eq!(line_end(b"ab\ncd\re", 3), (7, Some(5)));
        // A line is printable without the `\r` of its `\r\n`, and not
        // with one inside.
        let Lines { lines, .. } = split_lines("a b\r\nc\rd\r\n\te\u{e9}\n");
        let printable: Vec<bool> = lines.iter().map(|l| l.printable).collect();
        assert_eq!(printable, [true, false, false, true]);
    }
}
