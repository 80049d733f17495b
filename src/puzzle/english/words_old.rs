//! The tokenizer before its rewrite, kept only while the differential test
//! runs against it.
#![allow(dead_code, reason = "a reference for a test")]
use std::borrow::Cow;
use std::ops::{Deref, Range};

/// A word form: a slice of the text, a fixed word, or a string made for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Word<'s>(Cow<'s, str>);

impl<'s> Word<'s> {
    /// The form as text.
    pub(super) fn as_str(&self) -> &str {
        &self.0
    }

    /// The form as an owned string.
    pub(super) fn into_owned(self) -> String {
        self.0.into_owned()
    }
}

impl Deref for Word<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<&str> for Word<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<str> for Word<'_> {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<String> for Word<'_> {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

/// One word of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Token<'s> {
    /// The word in lower case.
    pub(super) norm: Word<'s>,
    /// The canonical singular form, compared with values' words.
    pub(super) key: Word<'s>,
    /// Byte span in the text it was cut from (for a `not` made from `n't`,
    /// the span of `n't`).
    pub(super) span: Range<usize>,
    /// Whether the word was written with `'s` or a final `'`.
    pub(super) possessive: bool,
}

/// Cuts `text` into tokens; spans are offset by `base`.
pub(super) fn tokens(text: &str, base: usize) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 5 + 1);
    // Invariant: `i` is on a char boundary. ASCII bytes are read as bytes;
    // other characters are decoded.
    let char_at = |i: usize| text[i..].chars().next().unwrap_or(' ');
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            if !b.is_ascii_alphanumeric() {
                i += 1;
                continue;
            }
        } else {
            let c = char_at(i);
            if !c.is_alphanumeric() {
                i += c.len_utf8();
                continue;
            }
        }
        // A word: letters, digits, combining marks, and one apostrophe.
        let start = i;
        let mut apostrophe = false;
        let mut digits = false;
        while i < bytes.len() {
            let b = bytes[i];
            let (inside, len, is_apostrophe) = if b.is_ascii() {
                digits |= b.is_ascii_digit();
                (b.is_ascii_alphanumeric(), 1, b == b'\'')
            } else {
                let c = char_at(i);
                (
                    c.is_alphanumeric() || crate::puzzle::text::is_combining_mark(c),
                    c.len_utf8(),
                    c == '\u{2019}',
                )
            };
            if inside || (is_apostrophe && !apostrophe) {
                apostrophe |= is_apostrophe;
                i += len;
            } else {
                break;
            }
        }
        // A letter followed by a digit starts a new token (`F150` and
        // `F-150` are both `f`, `150`); `1st` stays one token.
        let word = &text[start..i];
        let mut from = 0;
        if digits {
            let mut prev: Option<char> = None;
            for (k, c) in word.char_indices() {
                if c.is_ascii_digit() && prev.is_some_and(char::is_alphabetic) {
                    push_word(&word[from..k], base + start + from, &mut out);
                    from = k;
                }
                prev = Some(c);
            }
        }
        push_word(&word[from..], base + start + from, &mut out);
    }
    out
}

/// Splits one raw word (letters, digits, at most one apostrophe) into tokens.
fn push_word<'s>(raw: &'s str, at: usize, out: &mut Vec<Token<'s>>) {
    // The common case: a word without an apostrophe already in lower case
    // borrows the text for both forms.
    let plain = raw
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if plain {
        out.push(Token {
            norm: Word(Cow::Borrowed(raw)),
            key: Word(key_cow(raw)),
            span: at..at + raw.len(),
            possessive: false,
        });
        return;
    }
    let lower = raw.to_lowercase();
    let apostrophe = lower.find(['\'', '\u{2019}']);
    let Some(i) = apostrophe else {
        out.push(token(lower, at..at + raw.len(), false));
        return;
    };
    let (head, tail) = lower.split_at(i);
    // `tail` starts with the apostrophe (one or three bytes).
    let after: String = tail.chars().skip(1).collect();
    if after == "t" && head.ends_with('n') && head.len() > 1 {
        // `doesn't` -> `does` `not`; `can't` -> `ca` `not` is harmless.
        let stem = &head[..head.len() - 1];
        // The cut in the raw word (lower case may change byte lengths):
        // just before the `n` that precedes the apostrophe.
        let raw_apostrophe = raw.find(['\'', '\u{2019}']).unwrap_or(raw.len());
        let cut = at + raw_apostrophe.saturating_sub(1);
        out.push(token(stem.to_owned(), at..cut, false));
        out.push(token("not".to_owned(), cut..at + raw.len(), false));
        return;
    }
    let possessive = after.is_empty() || after == "s";
    let word = if possessive {
        head.to_owned()
    } else {
        // `o'clock`, `O'Brien`: one word without the apostrophe.
        format!("{head}{after}")
    };
    if !word.is_empty() {
        out.push(token(word, at..at + raw.len(), possessive));
    }
}

fn token(norm: String, span: Range<usize>, possessive: bool) -> Token<'static> {
    let key = Word(Cow::Owned(key(&norm)));
    Token {
        norm: Word(Cow::Owned(norm)),
        key,
        span,
        possessive,
    }
}

/// The canonical singular stem of a lower-case word: `horses` and `horse`
/// are `hors`, `paints` and `painting` are `paint`, `British` and `brit` are
/// `brit`.
pub(super) fn key(norm: &str) -> String {
    key_cow(norm).into_owned()
}

/// [`key`], borrowing `norm` or a fixed word where it can.
fn key_cow(norm: &str) -> Cow<'_, str> {
    let word = canonical(norm).unwrap_or(norm);
    let single = singular_cow(word);
    if let Some(c) = canonical(&single) {
        return Cow::Borrowed(c);
    }
    match single {
        Cow::Borrowed(w) => Cow::Borrowed(stem(w)),
        Cow::Owned(w) => Cow::Owned(stem(&w).to_owned()),
    }
}

/// A verb's `-ing` and a final `e` cut off (`dancing`, `dance` -> `danc`;
/// `knitting`, `knit` -> `knit`), so that a value written as an activity
/// meets the verb a clue uses. Both sides of every comparison are cut the
/// same way, so a cut that is not a real stem still compares right.
fn stem(word: &str) -> &str {
    if !word.is_ascii() {
        return word;
    }
    let mut w = word;
    if w.len() >= 6 {
        if let Some(s) = w.strip_suffix("ing") {
            w = s;
            let b = w.as_bytes();
            let n = b.len();
            // `knitt` -> `knit`: the doubled consonant of the -ing form.
            if n >= 2 && b[n - 1] == b[n - 2] && b"bdgmnprt".contains(&b[n - 1]) {
                w = &w[..n - 1];
            }
        }
    }
    if w.len() >= 4 {
        if let Some(s) = w.strip_suffix('e') {
            w = s;
        }
    }
    w
}

/// Words written more than one way in the published puzzles: demonyms and
/// their nouns (`British` and `brit`), month names and their abbreviations.
fn canonical(word: &str) -> Option<&'static str> {
    // Every word below starts with one of these letters: most words of a
    // sentence (`the`, `house`, `left`) are turned away by one test.
    if !starts_with_one_of(word, const { letters(b"abcdefgijmnopsw") }) {
        return None;
    }
    Some(match word {
        "british" | "briton" | "brit" => "brit",
        "english" | "englishman" | "englishmen" | "englishwoman" => "english",
        "spanish" | "spaniard" => "spanish",
        "swedish" | "swede" => "swede",
        "danish" | "dane" => "dane",
        "french" | "frenchman" | "frenchwoman" => "french",
        "dutch" | "dutchman" | "dutchwoman" => "dutch",
        "irish" | "irishman" | "irishwoman" => "irish",
        "scottish" | "scot" | "scotsman" | "scotswoman" => "scot",
        "welsh" | "welshman" | "welshwoman" => "welsh",
        "finnish" | "finn" => "finn",
        "polish" | "pole" => "pole",
        "january" | "jan" => "jan",
        "february" | "feb" => "feb",
        "march" | "mar" => "mar",
        "april" | "apr" => "apr",
        "june" | "jun" => "jun",
        "july" | "jul" => "jul",
        "august" | "aug" => "aug",
        "september" | "sept" | "sep" => "sep",
        "october" | "oct" => "oct",
        "november" | "nov" => "nov",
        "december" | "dec" => "dec",
        "grey" | "gray" => "gray",
        "colour" | "color" => "color",
        "favourite" | "favorite" => "favorite",
        _ => return None,
    })
}

/// The set of ASCII lower-case `letters`, a bit a letter, for
/// [`starts_with_one_of`].
const fn letters(letters: &[u8]) -> u32 {
    let mut mask = 0u32;
    let mut i = 0;
    while i < letters.len() {
        mask |= 1 << (letters[i] - b'a');
        i += 1;
    }
    mask
}

/// Whether `word` starts with one of the `letters` (made by [`letters`]):
/// a test of one bit, that turns most words away from a long `match`.
fn starts_with_one_of(word: &str, letters: u32) -> bool {
    match word.as_bytes().first() {
        Some(&b @ b'a'..=b'z') => letters >> (b - b'a') & 1 == 1,
        _ => false,
    }
}

/// The singular of a lower-case English noun, by the regular rules and a few
/// irregular plurals; words that are not plurals come back unchanged (as far
/// as the rules can tell; both sides of a comparison get the same treatment).
pub(super) fn singular(word: &str) -> String {
    singular_cow(word).into_owned()
}

/// [`singular`], borrowing `word` or a fixed word where it can.
fn singular_cow(word: &str) -> Cow<'_, str> {
    // The irregular plurals below start with these letters.
    let irregular = if !starts_with_one_of(word, const { letters(b"cfgklmoptwh") }) {
        None
    } else {
        match word {
            "children" => Some("child"),
            "people" => Some("person"),
            "men" => Some("man"),
            "women" => Some("woman"),
            "mice" => Some("mouse"),
            "geese" => Some("goose"),
            "teeth" => Some("tooth"),
            "feet" => Some("foot"),
            "oxen" => Some("ox"),
            "wives" => Some("wife"),
            "knives" => Some("knife"),
            "lives" => Some("life"),
            "leaves" => Some("leaf"),
            "wolves" => Some("wolf"),
            "calves" => Some("calf"),
            "halves" => Some("half"),
            _ => None,
        }
    };
    if let Some(s) = irregular {
        return Cow::Borrowed(s);
    }
    let n = word.len();
    if !word.is_ascii() || n <= 3 {
        return Cow::Borrowed(word);
    }
    if let Some(stem) = word.strip_suffix("ies") {
        if n > 4 {
            return Cow::Owned(format!("{stem}y"));
        }
    }
    for suffix in ["ches", "shes", "sses", "xes", "zzes"] {
        if word.ends_with(suffix) {
            return Cow::Borrowed(&word[..n - 2]);
        }
    }
    if word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
        && !word.ends_with("ous")
    {
        return Cow::Borrowed(&word[..n - 1]);
    }
    Cow::Borrowed(word)
}

/// The number a word spells, for counts: `one` to `twenty`, or digits.
pub(super) fn cardinal(norm: &str) -> Option<u64> {
    const WORDS: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    // The words above start with one of these letters.
    if !starts_with_one_of(norm, const { letters(b"zotfsen") }) {
        return digits(norm);
    }
    if let Some(n) = WORDS.iter().position(|w| *w == norm) {
        return Some(n as u64);
    }
    digits(norm)
}

/// The number written in digits, if `norm` is all ASCII digits (at most 9 of them).
pub(super) fn digits(norm: &str) -> Option<u64> {
    if !norm.is_empty() && norm.len() <= 9 && norm.bytes().all(|b| b.is_ascii_digit()) {
        norm.parse().ok()
    } else {
        None
    }
}

/// The position an ordinal spells: `first` or `1st` is 1.
pub(super) fn ordinal(norm: &str) -> Option<u64> {
    const WORDS: [&str; 20] = [
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
        "twentieth",
    ];
    let first = norm.as_bytes().first().copied().unwrap_or(0);
    // The words above start with one of these letters.
    if starts_with_one_of(norm, const { letters(b"fstne") }) {
        if let Some(n) = WORDS.iter().position(|w| *w == norm) {
            return Some(n as u64 + 1);
        }
    }
    if !first.is_ascii_digit() {
        return None;
    }
    let split = norm.find(|c: char| !c.is_ascii_digit())?;
    let (number, suffix) = norm.split_at(split);
    if matches!(suffix, "st" | "nd" | "rd" | "th") {
        digits(number)
    } else {
        None
    }
}

/// The ordinal word for `n` (1-based), for writing English: `first`, `23rd`.
pub(super) fn ordinal_word(n: u8) -> String {
    const WORDS: [&str; 12] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth", "eleventh", "twelfth",
    ];
    match WORDS.get(usize::from(n).wrapping_sub(1)) {
        Some(w) => (*w).to_owned(),
        None => {
            let suffix = match (n % 10, n % 100) {
                (1, x) if x != 11 => "st",
                (2, x) if x != 12 => "nd",
                (3, x) if x != 13 => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
    }
}

/// The cardinal word for `n`, for writing English: `five`, `13`.
pub(super) fn cardinal_word(n: u8) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(usize::from(n))
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}
