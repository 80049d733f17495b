//! Words: English text cut into tokens, and the forms tokens are compared in.
//!
//! A token is a run of letters and digits; every other character separates
//! tokens (`colonial-style` is `colonial`, `style`; `name/alice` is `name`,
//! `alice`). An apostrophe inside a word is kept only as a mark: `bachelor's`
//! is the token `bachelor` with `possessive` set, `mothers'` is `mothers`,
//! and a final `n't` becomes a separate `not` token (`doesn't` is `does`,
//! `not`). Each token carries two forms:
//! * `norm`: the word in lower case, for the phrasing words (`left`, `next`);
//! * `key`: `norm` made canonical (`British` and `brit` are one key, so are
//!   `February` and `feb`) and singular (`horses` is `horse`, `lilies` is
//!   `lily`), for comparing the puzzle's values with the words of a clue.
//!
//! Both a value and a clue go through the same [`key`] function, so the
//! comparison is symmetric: whatever form a list gives, the clue may use the
//! other.

use std::ops::Range;

/// One word of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    /// The word in lower case.
    pub(crate) norm: String,
    /// The canonical singular form, compared with values' words.
    pub(crate) key: String,
    /// Byte span in the text it was cut from (for a `not` made from `n't`,
    /// the span of `n't`).
    pub(crate) span: Range<usize>,
    /// Whether the word was written with `'s` or a final `'`.
    pub(crate) possessive: bool,
}

/// Cuts `text` into tokens; spans are offset by `base`.
pub(crate) fn tokens(text: &str, base: usize) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if !c.is_alphanumeric() {
            chars.next();
            continue;
        }
        // A word: letters, digits, and apostrophes followed by a letter.
        let mut end = start;
        let mut apostrophe = None;
        while let Some(&(i, c)) = chars.peek() {
            if c.is_alphanumeric() || crate::puzzle::text::is_combining_mark(c) {
                end = i + c.len_utf8();
                chars.next();
            } else if is_apostrophe(c) && apostrophe.is_none() {
                apostrophe = Some(i);
                end = i + c.len_utf8();
                chars.next();
            } else {
                break;
            }
        }
        // A letter followed by a digit starts a new token (`F150` and
        // `F-150` are both `f`, `150`); `1st` stays one token.
        let word = &text[start..end];
        let mut from = 0;
        let mut prev: Option<char> = None;
        for (i, c) in word.char_indices() {
            if c.is_ascii_digit() && prev.is_some_and(char::is_alphabetic) {
                push_word(&word[from..i], base + start + from, &mut out);
                from = i;
            }
            prev = Some(c);
        }
        push_word(&word[from..], base + start + from, &mut out);
    }
    out
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}')
}

/// Splits one raw word (letters, digits, at most one apostrophe) into tokens.
fn push_word(raw: &str, at: usize, out: &mut Vec<Token>) {
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

fn token(norm: String, span: Range<usize>, possessive: bool) -> Token {
    let key = key(&norm);
    Token {
        norm,
        key,
        span,
        possessive,
    }
}

/// The canonical singular stem of a lower-case word: `horses` and `horse`
/// are `hors`, `paints` and `painting` are `paint`, `British` and `brit` are
/// `brit`.
pub(crate) fn key(norm: &str) -> String {
    let word = canonical(norm).unwrap_or(norm);
    let single = singular(word);
    match canonical(&single) {
        Some(c) => c.to_owned(),
        None => stem(&single),
    }
}

/// A verb's `-ing` and a final `e` cut off (`dancing`, `dance` -> `danc`;
/// `knitting`, `knit` -> `knit`), so that a value written as an activity
/// meets the verb a clue uses. Both sides of every comparison are cut the
/// same way, so a cut that is not a real stem still compares right.
fn stem(word: &str) -> String {
    if !word.is_ascii() {
        return word.to_owned();
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
    w.to_owned()
}

/// Words written more than one way in the published puzzles: demonyms and
/// their nouns (`British` and `brit`), month names and their abbreviations.
fn canonical(word: &str) -> Option<&'static str> {
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

/// The singular of a lower-case English noun, by the regular rules and a few
/// irregular plurals; words that are not plurals come back unchanged (as far
/// as the rules can tell; both sides of a comparison get the same treatment).
pub(crate) fn singular(word: &str) -> String {
    let irregular = match word {
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
    };
    if let Some(s) = irregular {
        return s.to_owned();
    }
    let n = word.len();
    if !word.is_ascii() || n <= 3 {
        return word.to_owned();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        if n > 4 {
            return format!("{stem}y");
        }
    }
    for suffix in ["ches", "shes", "sses", "xes", "zzes"] {
        if word.ends_with(suffix) {
            return word[..n - 2].to_owned();
        }
    }
    if word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
        && !word.ends_with("ous")
    {
        return word[..n - 1].to_owned();
    }
    word.to_owned()
}

/// The number a word spells, for counts: `one` to `twenty`, or digits.
pub(crate) fn cardinal(norm: &str) -> Option<u64> {
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
    if let Some(n) = WORDS.iter().position(|w| *w == norm) {
        return Some(n as u64);
    }
    digits(norm)
}

/// The number written in digits, if `norm` is all ASCII digits (at most 9 of them).
pub(crate) fn digits(norm: &str) -> Option<u64> {
    if !norm.is_empty() && norm.len() <= 9 && norm.bytes().all(|b| b.is_ascii_digit()) {
        norm.parse().ok()
    } else {
        None
    }
}

/// The position an ordinal spells: `first` or `1st` is 1.
pub(crate) fn ordinal(norm: &str) -> Option<u64> {
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
    if let Some(n) = WORDS.iter().position(|w| *w == norm) {
        return Some(n as u64 + 1);
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
pub(crate) fn ordinal_word(n: u8) -> String {
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
pub(crate) fn cardinal_word(n: u8) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(usize::from(n))
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norms(text: &str) -> Vec<String> {
        tokens(text, 0).into_iter().map(|t| t.norm).collect()
    }

    #[test]
    fn splits_on_punctuation_and_marks_possessives() {
        let t = tokens("The Norwegian's house, colonial-style.", 0);
        let n: Vec<&str> = t.iter().map(|t| t.norm.as_str()).collect();
        assert_eq!(n, ["the", "norwegian", "house", "colonial", "style"]);
        assert!(t[1].possessive);
        assert_eq!(t[1].span, 4..15);
    }

    #[test]
    fn contracted_not_becomes_its_own_token() {
        assert_eq!(norms("Eric doesn't live"), ["eric", "does", "not", "live"]);
    }

    #[test]
    fn keys_are_singular_and_canonical() {
        assert_eq!(key("horses"), key("horse"));
        assert_eq!(key("lilies"), "lily");
        assert_eq!(key("paints"), key("painting"));
        assert_eq!(key("knitting"), key("knits"));
        assert_eq!(key("dancing"), key("dance"));
        assert_eq!(key("british"), key("brit"));
        assert_eq!(key("february"), key("feb"));
        assert_eq!(key("children"), "child");
        assert_eq!(key("glass"), "glass");
        assert_eq!(key("boxes"), "box");
        let f150: Vec<String> = tokens("Ford F-150, ford f150", 0)
            .into_iter()
            .map(|t| t.key)
            .collect();
        assert_eq!(f150, ["ford", "f", "150", "ford", "f", "150"]);
    }

    #[test]
    fn numbers_in_words_and_digits() {
        assert_eq!(cardinal("five"), Some(5));
        assert_eq!(cardinal("12"), Some(12));
        assert_eq!(cardinal("99999999999"), None);
        assert_eq!(ordinal("third"), Some(3));
        assert_eq!(ordinal("22nd"), Some(22));
        assert_eq!(ordinal("nd"), None);
        for n in 1..=63u8 {
            assert_eq!(ordinal(&ordinal_word(n)), Some(u64::from(n)));
            assert_eq!(cardinal(&cardinal_word(n)), Some(u64::from(n)));
        }
    }
}
