//! Unicode text in names: NFC normalization, invisible characters, and
//! display width.
//!
//! Names are compared in NFC, so `Café` typed with a precomposed `é` and
//! `Cafe` + U+0301 (as macOS file names and some editors write it) are one
//! name. Invisible characters cannot be told apart on screen, so the lexer
//! refuses them in names and quoted strings. The solution grid pads by
//! display width, so CJK (two columns) and emoji names align.

use std::borrow::Cow;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
use unicode_width::UnicodeWidthStr;

/// `s` in Unicode Normalization Form C; borrowed when it already is (all
/// ASCII text is).
pub(crate) fn nfc(s: &str) -> Cow<'_, str> {
    if s.is_ascii() || is_nfc_quick(s.chars()) == IsNormalized::Yes {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.nfc().collect())
    }
}

/// The number of terminal columns `s` takes: 2 for a CJK ideograph or a
/// wide emoji, 0 for a combining mark, 1 for ASCII.
pub(crate) fn display_width(s: &str) -> usize {
    s.width()
}

/// Whether `c` is a combining mark, which may continue a bare word (after
/// a letter): `Cafe` + U+0301.
pub(crate) fn is_combining_mark(c: char) -> bool {
    unicode_normalization::char::is_combining_mark(c)
}

/// If `c` is an invisible character that a name must not hold, its
/// description: `zero width space`. Covers the format characters
/// (general category `Cf`: zero-width spaces and joiners, bidi controls,
/// the byte order mark inside a line, soft hyphen, ...) and a few
/// characters that draw as nothing (the combining grapheme joiner and the
/// Hangul fillers). Control characters are refused elsewhere.
pub(crate) fn invisible(c: char) -> Option<&'static str> {
    let name = match c {
        '\u{00AD}' => "soft hyphen",
        '\u{034F}' => "combining grapheme joiner",
        '\u{061C}' => "arabic letter mark",
        '\u{115F}' => "hangul choseong filler",
        '\u{1160}' => "hangul jungseong filler",
        '\u{180E}' => "mongolian vowel separator",
        '\u{200B}' => "zero width space",
        '\u{200C}' => "zero width non-joiner",
        '\u{200D}' => "zero width joiner",
        '\u{200E}' => "left-to-right mark",
        '\u{200F}' => "right-to-left mark",
        '\u{202A}' => "left-to-right embedding",
        '\u{202B}' => "right-to-left embedding",
        '\u{202C}' => "pop directional formatting",
        '\u{202D}' => "left-to-right override",
        '\u{202E}' => "right-to-left override",
        '\u{2060}' => "word joiner",
        '\u{2061}' => "function application",
        '\u{2062}' => "invisible times",
        '\u{2063}' => "invisible separator",
        '\u{2064}' => "invisible plus",
        '\u{2066}' => "left-to-right isolate",
        '\u{2067}' => "right-to-left isolate",
        '\u{2068}' => "first strong isolate",
        '\u{2069}' => "pop directional isolate",
        '\u{3164}' => "hangul filler",
        '\u{FEFF}' => "zero width no-break space, or byte order mark",
        '\u{FFA0}' => "halfwidth hangul filler",
        '\u{0600}'..='\u{0605}'
        | '\u{06DD}'
        | '\u{070F}'
        | '\u{0890}'..='\u{0891}'
        | '\u{08E2}'
        | '\u{206A}'..='\u{206F}'
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{110BD}'
        | '\u{110CD}'
        | '\u{13430}'..='\u{1343F}'
        | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0001}'
        | '\u{E0020}'..='\u{E007F}' => "format character",
        _ => return None,
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nfc_composes_and_borrows_what_is_composed() {
        assert_eq!(nfc("Cafe\u{301}"), "Caf\u{e9}");
        assert!(matches!(nfc("Caf\u{e9}"), Cow::Borrowed(_)));
        assert!(matches!(nfc("red"), Cow::Borrowed(_)));
    }

    #[test]
    fn widths_of_known_characters() {
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("猫"), 2);
        assert_eq!(display_width("Cafe\u{301}"), 4);
    }

    #[test]
    fn invisible_characters_are_named_and_letters_are_not() {
        assert_eq!(invisible('\u{200B}'), Some("zero width space"));
        assert_eq!(invisible('\u{202E}'), Some("right-to-left override"));
        assert_eq!(invisible('\u{E0041}'), Some("format character"));
        for c in ['a', '\u{e9}', '\u{301}', '猫', '\u{FE0F}', ' '] {
            assert_eq!(invisible(c), None, "{c:?}");
        }
    }
}
