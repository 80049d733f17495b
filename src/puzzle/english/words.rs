//! Words: English text cut into tokens, and the forms tokens are compared in.
//!
//! A token is a run of letters and digits; every other character separates
//! tokens (`colonial-style` is `colonial`, `style`; `name/alice` is `name`,
//! `alice`). An apostrophe inside a word is kept only as a mark: `bachelor's`
//! is the token `bachelor` with `possessive` set, `mothers'` is `mothers`,
//! and a final `n't` becomes a separate `not` token (`doesn't` is `does`,
//! `not`). Each token carries two forms:
//! * `word`: the word in lower case, for the phrasing words (`left`, `next`);
//! * `key`: `word` made canonical (`British` and `brit` are one key, so are
//!   `February` and `feb`) and singular (`horses` is `horse`, `lilies` is
//!   `lily`), for comparing the puzzle's values with the words of a clue.
//!
//! Both a value and a clue go through the same [`key`] function, so the
//! comparison is symmetric: whatever form a list gives, the clue may use the
//! other.
//!
//! The readers see a word through a [`Lexicon`]: each distinct string of a
//! puzzle gets a small id, and its key, its phrasing word ([`Kw`]) and the
//! numbers it spells are worked out once, when it is first seen. The words
//! of the phrasing families that every puzzle uses (`the`, `person`,
//! `directly`, `left`: [`PHRASING_VOCABULARY`], one table) are worked out
//! once for all puzzles, in a table every lexicon shares. That table holds
//! every word of the readers' word tables (phrasing words, numbers in
//! words, stop words), so a puzzle's own new word is looked up in none of
//! them. A clue then reads as integer comparisons, and a word costs one
//! lookup: a word of at most seven bytes (nearly every word) is one
//! number, its short form, read from the text in one load of eight bytes
//! that also tells where the word ends, lower-cased by its case bits, and
//! found and compared as that number; a longer word is cut a byte at a
//! time, hashed and compared a byte at a time. The tokenizer's loop looks
//! a short word up in place (the fixed table, then the puzzle's own) and
//! only a word it does not find as a word — new, long, or met so far only
//! as a key — leaves the loop for [`Lexicon::plain_word`].

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

/// A string's id in a [`Lexicon`]: the index of its entry. Two ids of one
/// lexicon are equal exactly when their strings are.
pub(crate) type WordId = u32;

/// One word of a text: ids into the [`Lexicon`] that cut it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    /// The word in lower case.
    pub(crate) word: WordId,
    /// The word's [`key`], compared with values' words.
    pub(crate) key: WordId,
    /// The phrasing word it is, if any.
    pub(crate) kw: Kw,
    /// Byte span in the text it was cut from (for a `not` made from `n't`,
    /// the span of `n't`).
    pub(crate) span: Range<usize>,
    /// Whether the word was written with `'s` or a final `'`.
    pub(crate) possessive: bool,
}

/// The phrasing words the readers test for. Words that every reader treats
/// alike share a variant (`never` is [`Kw::Not`]); a word tested on its own
/// anywhere has its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kw {
    /// No phrasing word.
    Other,
    /// `not`, `never`, `neither`, `nor`.
    Not,
    Next,
    To,
    Door,
    By,
    Beside,
    /// `adjacent`, `neighbor(s)`, `neighbour(s)`, `neighboring`, `neighbouring`.
    Adjacent,
    Left,
    Before,
    /// `lower`, `below`, `earlier`, `precedes`, `preceding`.
    Leftward,
    Right,
    After,
    /// `higher`, `above`, `later`, `follows`, `following`.
    Rightward,
    /// `directly`, `immediately`, `just`.
    Directly,
    Between,
    Same,
    /// `different`, `differ`.
    Different,
    /// `order`, `respectively`.
    Order,
    /// `middle`, `centre`, `center`.
    Middle,
    /// `last`, `top`, `rightmost`, `final`.
    Last,
    /// `bottom`, `leftmost`.
    Bottom,
    Far,
    /// `end`, `ends`.
    End,
    Number,
    One,
    Of,
    Where,
    Who,
    Which,
    What,
    Whose,
    House,
    Houses,
    Floors,
    Position,
    /// The other nouns for a house: `floor`, `positions`, `home`, `spot`.
    HouseNoun,
}

/// The phrasing words and the [`Kw`] each is: one table, read once, when
/// the fixed vocabulary is built (every word here is in
/// [`PHRASING_VOCABULARY`]; a test checks).
#[rustfmt::skip]
const KEYWORDS: &[(&str, Kw)] = &[
    ("not", Kw::Not), ("never", Kw::Not), ("neither", Kw::Not), ("nor", Kw::Not),
    ("next", Kw::Next), ("to", Kw::To), ("door", Kw::Door), ("by", Kw::By),
    ("beside", Kw::Beside), ("adjacent", Kw::Adjacent), ("neighbor", Kw::Adjacent),
    ("neighbors", Kw::Adjacent), ("neighbour", Kw::Adjacent), ("neighbours", Kw::Adjacent),
    ("neighboring", Kw::Adjacent), ("neighbouring", Kw::Adjacent), ("left", Kw::Left),
    ("before", Kw::Before), ("lower", Kw::Leftward), ("below", Kw::Leftward),
    ("earlier", Kw::Leftward), ("precedes", Kw::Leftward), ("preceding", Kw::Leftward),
    ("right", Kw::Right), ("after", Kw::After), ("higher", Kw::Rightward),
    ("above", Kw::Rightward), ("later", Kw::Rightward), ("follows", Kw::Rightward),
    ("following", Kw::Rightward), ("directly", Kw::Directly), ("immediately", Kw::Directly),
    ("just", Kw::Directly), ("between", Kw::Between), ("same", Kw::Same),
    ("different", Kw::Different), ("differ", Kw::Different), ("order", Kw::Order),
    ("respectively", Kw::Order), ("middle", Kw::Middle), ("centre", Kw::Middle),
    ("center", Kw::Middle), ("last", Kw::Last), ("top", Kw::Last), ("rightmost", Kw::Last),
    ("final", Kw::Last), ("bottom", Kw::Bottom), ("leftmost", Kw::Bottom), ("far", Kw::Far),
    ("end", Kw::End), ("ends", Kw::End), ("number", Kw::Number), ("one", Kw::One),
    ("of", Kw::Of), ("where", Kw::Where), ("who", Kw::Who), ("which", Kw::Which),
    ("what", Kw::What), ("whose", Kw::Whose), ("house", Kw::House), ("houses", Kw::Houses),
    ("floors", Kw::Floors), ("position", Kw::Position), ("floor", Kw::HouseNoun),
    ("positions", Kw::HouseNoun), ("home", Kw::HouseNoun), ("spot", Kw::HouseNoun),
];

impl Kw {
    /// The phrasing word `norm` (in lower case) is ([`KEYWORDS`]).
    fn of(norm: &str) -> Kw {
        KEYWORDS
            .iter()
            .find(|(w, _)| *w == norm)
            .map_or(Kw::Other, |&(_, kw)| kw)
    }

    /// Whether the word is a noun for a house, or a floor of one building.
    pub(crate) fn is_house_noun(self) -> bool {
        matches!(
            self,
            Kw::House | Kw::Houses | Kw::Floors | Kw::Position | Kw::HouseNoun
        )
    }
}

/// What a lexicon knows of one string, computed when it is first seen.
#[derive(Clone, Debug)]
struct Entry {
    /// The string's bytes in its [`Strings::text`]: `start..end`.
    start: u32,
    end: u32,
    /// [`fingerprint`] of the string: the hash is compared before the
    /// bytes and kept for the slots' growth; a string of at most
    /// [`SHORT`] bytes is compared by its short form alone.
    hash: u64,
    short: u64,
    // The fields below hold for a string seen as a word (`key` is not
    // `NO_KEY`); a key alone has the defaults.
    /// The id of the string's [`key`]; [`NO_KEY`] for a string interned
    /// only as a key, whose own key is never asked for.
    key: WordId,
    kw: Kw,
    /// Whether the word says nothing of a group in a description
    /// ([`Lexicon::is_stop_word`]), once asked.
    stop: Option<bool>,
    /// Whether the word is one of [`NAME_COMMON_WORDS`] (only a fixed
    /// entry may be).
    name_common: bool,
    /// [`cardinal`], [`ordinal`] and [`digits`] of the string.
    cardinal: Option<u64>,
    ordinal: Option<u64>,
    digits: Option<u64>,
}

/// [`Entry::key`] of a string not yet seen as a word.
const NO_KEY: WordId = WordId::MAX;

/// Interned strings and what is known of each, found by their [`fingerprint`].
#[derive(Debug)]
struct Strings {
    /// The entries by the [`fingerprint`] of their string, in open addressing with
    /// linear probing: a slot holds an entry's index + 1, or 0 when empty.
    /// Invariant: a power of two long and at most half full, so that a
    /// probe soon meets the entry or an empty slot (a word missing from the
    /// fixed table, as most of a puzzle's own words are, costs about one
    /// slot).
    slots: Vec<u32>,
    entries: Vec<Entry>,
    /// Every string, one after the other.
    text: String,
}

impl Strings {
    /// No strings, with room for `n`.
    fn with_capacity(n: usize) -> Strings {
        Strings {
            slots: vec![0; (2 * n).next_power_of_two().max(16)],
            entries: Vec::with_capacity(n),
            text: String::with_capacity(8 * n),
        }
    }

    /// The first slot to probe for `hash`.
    fn home(&self, hash: u64) -> usize {
        hash as usize & (self.slots.len() - 1)
    }

    /// Files entry `i` (of hash `hash`) in the first empty slot of its probe.
    fn place(&mut self, hash: u64, i: WordId) {
        let mask = self.slots.len() - 1;
        let mut s = self.home(hash);
        while self.slots[s] != 0 {
            s = (s + 1) & mask;
        }
        self.slots[s] = i + 1;
    }

    /// The string of entry `i`.
    fn bytes(&self, e: &Entry) -> &[u8] {
        &self.text.as_bytes()[e.start as usize..e.end as usize]
    }

    /// The index of the entry of the string of [`fingerprint`] `(hash,
    /// short)`; `matches` compares a long string's bytes.
    fn find(&self, hash: u64, short: u64, matches: impl Fn(&[u8]) -> bool) -> Option<WordId> {
        let mask = self.slots.len() - 1;
        let mut s = self.home(hash);
        loop {
            let i = self.slots[s].checked_sub(1)?;
            let e = &self.entries[i as usize];
            let hit = if short == LONG {
                e.hash == hash && matches(self.bytes(e))
            } else {
                e.short == short
            };
            if hit {
                return Some(i);
            }
            s = (s + 1) & mask;
        }
    }

    /// The index of the entry of the string of at most [`SHORT`] bytes
    /// whose short form is `short` ([`fingerprint`]).
    #[inline(always)]
    fn find_short(&self, short: u64) -> Option<WordId> {
        let mask = self.slots.len() - 1;
        let mut s = self.home(hash_short(short));
        loop {
            let i = self.slots[s].checked_sub(1)?;
            if self.entries[i as usize].short == short {
                return Some(i);
            }
            s = (s + 1) & mask;
        }
    }

    /// Adds `s`, of hash `hash` ([`fingerprint`]), not interned yet;
    /// returns its index.
    fn insert(&mut self, s: &str, hash: u64) -> WordId {
        let i = self.entries.len() as WordId;
        let start = self.text.len() as u32;
        self.text.push_str(s);
        self.entries.push(Entry {
            start,
            end: self.text.len() as u32,
            hash,
            short: short_form(s.as_bytes()),
            key: NO_KEY,
            kw: Kw::Other,
            stop: None,
            name_common: false,
            cardinal: None,
            ordinal: None,
            digits: None,
        });
        if 2 * self.entries.len() > self.slots.len() {
            // Twice the slots, every entry filed again.
            self.slots = vec![0; 2 * self.slots.len()];
            for j in 0..self.entries.len() {
                self.place(self.entries[j].hash, j as WordId);
            }
        } else {
            self.place(hash, i);
        }
        i
    }
}

/// The distinct strings of one puzzle (its words in lower case and their
/// keys), each with an id and what the readers ask of it, computed once per
/// string rather than once per occurrence.
///
/// The words every puzzle uses, [`PHRASING_VOCABULARY`], the words
/// [`key`]'s tables spell ([`CANONICAL`], [`IRREGULAR`]) and their keys,
/// are interned once for all puzzles, with all a lexicon knows of them, in
/// one shared table (`fixed`, ids `0..fixed.entries.len()`); a lexicon
/// interns only the puzzle's other strings (`own`, the ids after). A word
/// is looked for in the fixed table first.
///
/// Invariant: every string is interned once (in `fixed` or in `own`), so
/// ids compare as strings do; every entry of `fixed` is a word (its key
/// worked out); `own` holds at most the text's words and their keys, so
/// its size is bounded by the text's.
#[derive(Debug)]
pub(crate) struct Lexicon {
    fixed: &'static Strings,
    own: Strings,
    /// A word being lower-cased.
    lower: String,
}

/// The words of the phrasing families that any puzzle may use, whatever its
/// values: [`Kw`]'s words, the frame's words (`There are 5 houses, numbered
/// 1 to 5 from left to right`, `Each person has a unique ...`), the words
/// of clues and questions around the values (`the person whose ... is`,
/// `who lives in`, `next to each other`), and the numbers in words. They
/// and their keys make the shared table every [`Lexicon`] starts with.
/// Every word of [`KEYWORDS`], [`CARDINAL_WORDS`], [`ORDINAL_WORDS`],
/// [`NAME_COMMON_WORDS`] and [`DESCRIPTION_STOP_WORDS`] must be here (a
/// test checks): a puzzle's own words are never looked up in those
/// tables. Any other word missing here is interned at its first use in a
/// puzzle, so for the rest the list is about speed alone.
#[rustfmt::skip]
const PHRASING_VOCABULARY: &[&str] = &[
    // Articles, pronouns, verbs and joining words.
    "a", "an", "the", "is", "are", "was", "be", "been", "it", "its", "this",
    "that", "there", "they", "them", "their", "he", "she", "his", "her", "and",
    "or", "either", "nor", "neither", "not", "never", "no", "does", "doesn",
    "do", "did", "has", "have", "had", "as", "at", "by", "for", "from", "in",
    "into", "on", "of", "to", "with", "than", "each", "every", "other", "own",
    "owns", "lives", "live", "living", "likes", "like", "loves", "love",
    "keeps", "keep", "also", "only", "somewhere", "anywhere",
    // People and houses.
    "person", "people", "one", "man", "woman", "men", "women", "someone",
    "who", "whose", "which", "what", "where", "house", "houses", "home",
    "floor", "floors", "position", "positions", "spot", "street", "row",
    "name", "named", "numbered", "number",
    // Places and relations.
    "left", "right", "next", "door", "beside", "adjacent", "neighbor",
    "neighbors", "neighbour", "neighbours", "neighboring", "neighbouring",
    "before", "after", "lower", "below", "earlier", "precedes", "preceding",
    "higher", "above", "later", "follows", "following", "directly",
    "immediately", "just", "between", "same", "different", "differ", "order",
    "respectively", "middle", "centre", "center", "last", "top", "rightmost",
    "final", "bottom", "leftmost", "far", "end", "ends", "seen", "across",
    // The frame's words.
    "occupied", "unique", "attribute", "attributes", "characteristic",
    "characteristics", "clue", "clues", "puzzle", "logic", "question",
    "answer", "distinct", "kind", "type", "types", "favorite", "favourite",
    "all", "everyone", "everybody", "something", "level", "prefer", "prefers",
    "use", "uses", "accompanied",
    // The singulars of `does` and `has`, for the stop words.
    "doe", "ha",
    // Numbers.
    "zero", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
    "seventeen", "eighteen", "nineteen", "twenty", "first", "second", "third",
    "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth",
];

/// Room a new lexicon keeps for the strings of one puzzle (a 6x6 one has
/// about 100 besides the fixed vocabulary).
const ROOM: usize = 128;

impl Lexicon {
    /// A lexicon holding the fixed vocabulary ([`PHRASING_VOCABULARY`]).
    pub(crate) fn new() -> Lexicon {
        static FIXED: OnceLock<Strings> = OnceLock::new();
        static NONE: OnceLock<Strings> = OnceLock::new();
        let fixed = FIXED.get_or_init(|| {
            let mut build = Lexicon {
                fixed: NONE.get_or_init(|| Strings::with_capacity(0)),
                own: Strings::with_capacity(2 * PHRASING_VOCABULARY.len()),
                lower: String::new(),
            };
            // The words the tables of `key` and `singular` look up, so that
            // a puzzle's own word is none of them (`plain_key`).
            let spellings = CANONICAL.iter().chain(IRREGULAR).map(|&(w, _)| w);
            for w in PHRASING_VOCABULARY.iter().copied().chain(spellings) {
                build.intern_word(w);
            }
            // The keys too are words, so that no fixed entry is ever
            // completed later (a key's key is never longer: this ends).
            let mut i = 0;
            while i < build.own.entries.len() {
                let norm = build.text(i as WordId).to_owned();
                build.intern_word(&norm);
                i += 1;
            }
            for id in 0..build.own.entries.len() {
                build.is_stop_word(id as WordId);
                let common = NAME_COMMON_WORDS.binary_search(&build.text(id as WordId));
                build.own.entries[id].name_common = common.is_ok();
            }
            build.own
        });
        Lexicon {
            fixed,
            own: Strings::with_capacity(ROOM),
            lower: String::new(),
        }
    }

    /// Whether this lexicon is building the fixed table (it has none to
    /// start from): only then are the fixed tables of words consulted
    /// ([`PHRASING_VOCABULARY`]).
    fn building_fixed(&self) -> bool {
        self.fixed.entries.is_empty()
    }

    /// The entry of `id`.
    fn entry(&self, id: WordId) -> &Entry {
        let i = id as usize;
        match i.checked_sub(self.fixed.entries.len()) {
            None => &self.fixed.entries[i],
            Some(j) => &self.own.entries[j],
        }
    }

    /// The id of the string of [`fingerprint`] `(hash, short)`, if it was
    /// interned; `matches` compares a long string's bytes.
    fn probe(&self, hash: u64, short: u64, matches: impl Fn(&[u8]) -> bool) -> Option<WordId> {
        if let Some(id) = self.fixed.find(hash, short, &matches) {
            return Some(id);
        }
        let base = self.fixed.entries.len() as WordId;
        self.own.find(hash, short, matches).map(|i| base + i)
    }

    /// Whether `id` is a word that says nothing of which group a
    /// description describes (`each`, `person`, `has`:
    /// [`is_description_stop_word`]), in itself or in its [`singular`];
    /// worked out once per string.
    pub(crate) fn is_stop_word(&mut self, id: WordId) -> bool {
        if let Some(stop) = self.entry(id).stop {
            return stop;
        }
        let norm = self.text(id);
        // Every stop word is fixed, with its answer (a test checks): a
        // puzzle's own word is one only through a singular other than
        // itself.
        let single = singular(norm);
        let stop = (self.building_fixed() && is_description_stop_word(norm))
            || (single != norm && is_description_stop_word(&single));
        // Every fixed entry has its answer already.
        let j = id as usize - self.fixed.entries.len();
        self.own.entries[j].stop = Some(stop);
        stop
    }

    /// Whether `id` is a word a group's name leaves out
    /// ([`NAME_COMMON_WORDS`]).
    pub(crate) fn is_name_common_word(&self, id: WordId) -> bool {
        self.entry(id).name_common
    }

    /// The string of `id`.
    pub(crate) fn text(&self, id: WordId) -> &str {
        let i = id as usize;
        let (strings, e) = match i.checked_sub(self.fixed.entries.len()) {
            None => (self.fixed, &self.fixed.entries[i]),
            Some(j) => (&self.own, &self.own.entries[j]),
        };
        &strings.text[e.start as usize..e.end as usize]
    }

    /// The number `id` spells as a count ([`cardinal`]).
    pub(crate) fn cardinal(&self, id: WordId) -> Option<u64> {
        self.entry(id).cardinal
    }

    /// The position `id` spells as an ordinal ([`ordinal`]).
    pub(crate) fn ordinal(&self, id: WordId) -> Option<u64> {
        self.entry(id).ordinal
    }

    /// The number `id` writes in digits ([`digits`]).
    pub(crate) fn digits(&self, id: WordId) -> Option<u64> {
        self.entry(id).digits
    }

    /// The id of `s`, if it was interned.
    pub(crate) fn find(&self, s: &str) -> Option<WordId> {
        let (hash, short) = fingerprint(s.as_bytes());
        self.probe(hash, short, |t| same(t, s.as_bytes()))
    }

    /// The id of `s`, interned if new. A string interned this way (a key)
    /// is not yet a word: its key, phrasing word and numbers are worked out
    /// when [`Lexicon::tokens`] first meets it as a word.
    pub(crate) fn intern(&mut self, s: &str) -> WordId {
        let (hash, short) = fingerprint(s.as_bytes());
        match self.probe(hash, short, |t| same(t, s.as_bytes())) {
            Some(id) => id,
            None => self.fixed.entries.len() as WordId + self.own.insert(s, hash),
        }
    }

    /// The id of the lower-case word `norm` and of its key, both interned.
    fn intern_word(&mut self, norm: &str) -> (WordId, WordId, Kw) {
        let id = self.intern(norm);
        self.complete_word(id, norm)
    }

    /// [`Lexicon::intern_word`] of `norm`, interned already as `id`.
    fn complete_word(&mut self, id: WordId, norm: &str) -> (WordId, WordId, Kw) {
        let entry = self.entry(id);
        if entry.key != NO_KEY {
            return (id, entry.key, entry.kw);
        }
        // First seen as a word: what the readers ask of a word, worked out
        // (an entry of the puzzle's own: every fixed entry is a word).
        // Every phrasing word and number in words is in the fixed table (a
        // test checks), so a puzzle's own word is no phrasing word and
        // spells a number only in digits; only the fixed table's building
        // looks words up in those tables.
        let building_fixed = self.building_fixed();
        // Every word of `CANONICAL` and `IRREGULAR` is fixed (a test
        // checks): a puzzle's own word takes the key that skips their
        // lookups (it earns its place on `english-read-6x6`).
        let key = if building_fixed {
            key(norm)
        } else {
            plain_key(norm)
        };
        let key = match key {
            k if k == norm => id,
            k => self.intern(&k),
        };
        let digits = digits(norm);
        let (kw, cardinal, ordinal) = if building_fixed {
            (Kw::of(norm), cardinal(norm), ordinal(norm))
        } else {
            (Kw::Other, digits, ordinal_digits(norm))
        };
        let j = id as usize - self.fixed.entries.len();
        let entry = &mut self.own.entries[j];
        entry.key = key;
        entry.kw = kw;
        entry.cardinal = cardinal;
        entry.ordinal = ordinal;
        entry.digits = digits;
        (id, key, kw)
    }

    /// Cuts `text` into `out` (cleared first); spans are offset by `base`.
    ///
    /// One pass over the bytes ([`Lexicon::tokens_while`]): a word of ASCII
    /// letters and digits (nearly every word) is found in the table from
    /// the text itself, without a copy (a word of at most [`SHORT`] bytes
    /// by its short form, read in one load); other words take
    /// [`Lexicon::push_word`]'s general path.
    pub(crate) fn tokens(&mut self, text: &str, base: usize, out: &mut Vec<Token>) {
        self.tokens_while(text, base, out, |_, _| true);
    }

    /// [`Lexicon::tokens`], stopping after the word at which `more` (asked
    /// of the tokens so far, after each word) is false.
    ///
    /// Eight bytes at a time ([`load8`], [`letter_bytes`]): a word of at most
    /// [`SHORT`] ASCII letters that ends before an ASCII byte other than
    /// the apostrophe (nearly every word) is measured, lower-cased and
    /// looked up from one load, and the separators after it are skipped in
    /// the same load; any other word takes [`Lexicon::word`], which cuts it
    /// a byte (or a character) at a time (the eight-byte path earns its
    /// place on `english-read-6x6`).
    pub(crate) fn tokens_while(
        &mut self,
        text: &str,
        base: usize,
        out: &mut Vec<Token>,
        mut more: impl FnMut(&Lexicon, &[Token]) -> bool,
    ) {
        out.clear();
        let bytes = text.as_bytes();
        // Invariant: `i` is on a char boundary (every cut below is after an
        // ASCII byte or a whole character).
        let mut i = 0;
        while i < bytes.len() {
            let w = load8(bytes, i);
            let letters = letter_bytes(w);
            // The run of letters the load starts with: 8 when it holds no
            // end.
            let n = ((!letters & HIGH).trailing_zeros() / 8) as usize;
            if (1..=SHORT).contains(&n) {
                // An apostrophe or a character outside ASCII after the
                // letters continues the word: the general path. (A digit
                // after a letter starts a token of its own.)
                let after = (w >> (8 * n)) as u8;
                if after != b'\'' && after.is_ascii() {
                    self.push_plain(text, i..i + n, lowered(w, n), base, out);
                    // The next word starts at a letter, a digit or a byte
                    // outside ASCII: at or after the first byte from `0` up
                    // after this one, in the same load (a few separators are
                    // above `0` too: the loop's next turn skips them).
                    let stop = (at_least(w & !HIGH, b'0') | w) & (HIGH << (8 * n));
                    i += if stop == 0 {
                        8
                    } else {
                        (stop.trailing_zeros() / 8) as usize
                    };
                    if !more(self, out) {
                        return;
                    }
                    continue;
                }
            }
            if n == 0 {
                // Separators up to the next ASCII letter or digit, or the
                // next byte outside ASCII.
                let stop = (letters | digit_bytes(w) | w) & HIGH;
                if stop == 0 {
                    i += 8;
                    continue;
                }
                let k = (stop.trailing_zeros() / 8) as usize;
                if k > 0 {
                    i += k;
                    continue;
                }
                // A digit, or a character outside ASCII.
                if !bytes[i].is_ascii() {
                    let c = text[i..].chars().next().unwrap_or(' ');
                    if !c.is_alphanumeric() {
                        i += c.len_utf8();
                        continue;
                    }
                }
            }
            i = self.word(text, i, base, out);
            if !more(self, out) {
                return;
            }
        }
    }

    /// Cuts the word that starts at `start` (a letter or digit) into
    /// tokens and returns where it ends: letters, digits, combining marks
    /// and one apostrophe, a byte at a time. Any word may take this path
    /// ([`Lexicon::tokens_while`] takes it for all but the short plain
    /// words).
    fn word(&mut self, text: &str, start: usize, base: usize, out: &mut Vec<Token>) -> usize {
        let bytes = text.as_bytes();
        let char_at = |i: usize| text[i..].chars().next().unwrap_or(' ');
        // Its ASCII letters and digits first (the whole of nearly every
        // word).
        let mut i = start;
        let mut seen = 0u8;
        while let Some(&b) = bytes.get(i) {
            let class = BYTE_CLASS[usize::from(b)];
            if class == 0 {
                break;
            }
            seen |= class;
            i += 1;
        }
        // The rest of the word, if an apostrophe or a character outside
        // ASCII continues it: the word takes the general path.
        let mut apostrophe = false;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii() {
                let class = BYTE_CLASS[usize::from(b)];
                if class != 0 {
                    seen |= class;
                } else if b == b'\'' && !apostrophe {
                    apostrophe = true;
                    seen |= OTHER;
                } else {
                    break;
                }
                i += 1;
                continue;
            }
            let c = char_at(i);
            let quote = c == '\u{2019}' && !apostrophe;
            if quote || c.is_alphanumeric() || crate::puzzle::text::is_combining_mark(c) {
                apostrophe |= quote;
                seen |= OTHER;
                i += c.len_utf8();
            } else {
                break;
            }
        }
        if seen & (DIGIT | OTHER) == 0 {
            let short = lower_short(bytes, start, i - start);
            self.push_plain(text, start..i, short, base, out);
        } else if seen & DIGIT == 0 {
            self.push_word(&text[start..i], base + start, false, out);
        } else {
            let word = &text[start..i];
            // A letter followed by a digit starts a new token (`F150`
            // and `F-150` are both `f`, `150`); `1st` stays one token.
            let mut from = 0;
            let mut prev: Option<char> = None;
            for (k, c) in word.char_indices() {
                if c.is_ascii_digit() && prev.is_some_and(char::is_alphabetic) {
                    let piece = &word[from..k];
                    self.push_word(piece, base + start + from, is_plain(piece), out);
                    from = k;
                }
                prev = Some(c);
            }
            let piece = &word[from..];
            self.push_word(piece, base + start + from, is_plain(piece), out);
        }
        i
    }

    /// [`Lexicon::tokens`] a byte at a time: every word through
    /// [`Lexicon::word`], without the eight-byte path (the reference the
    /// tests compare that path with).
    #[cfg(test)]
    fn tokens_by_byte(&mut self, text: &str, base: usize, out: &mut Vec<Token>) {
        out.clear();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if BYTE_CLASS[usize::from(b)] == 0 {
                if b.is_ascii() {
                    i += 1;
                    continue;
                }
                let c = text[i..].chars().next().unwrap_or(' ');
                if !c.is_alphanumeric() {
                    i += c.len_utf8();
                    continue;
                }
            }
            i = self.word(text, i, base, out);
        }
    }

    /// Pushes the token of `text[word]`, ASCII letters and digits whose
    /// lower case has short form `short` ([`lower_short`]); spans are
    /// offset by `base`.
    /// Inline, with [`Lexicon::known_word`]: the tokenizer's common path.
    #[inline(always)]
    fn push_plain(
        &mut self,
        text: &str,
        word: Range<usize>,
        short: u64,
        base: usize,
        out: &mut Vec<Token>,
    ) {
        let span = base + word.start..base + word.end;
        let (word, key, kw) = match self.known_word(short) {
            Some(ids) => ids,
            None => self.plain_word(&text[word], short),
        };
        out.push(Token {
            word,
            key,
            kw,
            span,
            possessive: false,
        });
    }

    /// The ids and phrasing word of the word of short form `short`
    /// ([`lower_short`]), if the tables know it as a word: the common path
    /// of [`Lexicon::tokens`], inline (nearly every word of a text is short
    /// and seen before, most of them in the fixed table). `None` for a
    /// longer word, a new one, or one known only as a key:
    /// [`Lexicon::plain_word`] takes those.
    #[inline(always)]
    fn known_word(&self, short: u64) -> Option<(WordId, WordId, Kw)> {
        if short == LONG {
            return None;
        }
        if let Some(id) = self.fixed.find_short(short) {
            // Every fixed entry is a word.
            let e = &self.fixed.entries[id as usize];
            return Some((id, e.key, e.kw));
        }
        let j = self.own.find_short(short)?;
        let e = &self.own.entries[j as usize];
        (e.key != NO_KEY).then(|| (self.fixed.entries.len() as WordId + j, e.key, e.kw))
    }

    /// The ids and phrasing word of `raw`, ASCII letters and digits whose
    /// lower case has short form `short` ([`lower_short`]): found, or
    /// interned as a word.
    #[inline(never)]
    fn plain_word(&mut self, raw: &str, short: u64) -> (WordId, WordId, Kw) {
        let bytes = raw.as_bytes();
        // The stored string is in lower case: a letter's case bit set is
        // its lower case, and a digit has that bit set already.
        let hash = if short == LONG {
            hash_long(bytes.iter().map(|&b| b | 0x20))
        } else {
            hash_short(short)
        };
        let found = self.probe(hash, short, |t| {
            t.len() == bytes.len() && t.iter().zip(bytes).all(|(&x, &y)| x == y | 0x20)
        });
        match found {
            Some(id) if self.entry(id).key != NO_KEY => {
                let e = self.entry(id);
                (id, e.key, e.kw)
            }
            // New, or known only as a key: interned as a word (a new one
            // without a second search).
            _ => {
                let mut lower = std::mem::take(&mut self.lower);
                lower.clear();
                lower.push_str(raw);
                lower.make_ascii_lowercase();
                let id = match found {
                    Some(id) => id,
                    None => self.fixed.entries.len() as WordId + self.own.insert(&lower, hash),
                };
                let ids = self.complete_word(id, &lower);
                self.lower = lower;
                ids
            }
        }
    }

    /// Splits one raw word (letters, digits, at most one apostrophe) into
    /// tokens; `plain` is [`is_plain`] of `raw`.
    fn push_word(&mut self, raw: &str, at: usize, plain: bool, out: &mut Vec<Token>) {
        if plain {
            let short = lower_short(raw.as_bytes(), 0, raw.len());
            self.push_plain(raw, 0..raw.len(), short, at, out);
            return;
        }
        let lower = if raw.is_ascii() {
            raw.to_ascii_lowercase()
        } else {
            raw.to_lowercase()
        };
        let apostrophe = lower.find(['\'', '\u{2019}']);
        let Some(i) = apostrophe else {
            self.push_norm(&lower, at..at + raw.len(), false, out);
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
            self.push_norm(stem, at..cut, false, out);
            self.push_norm("not", cut..at + raw.len(), false, out);
            return;
        }
        let possessive = after.is_empty() || after == "s";
        let word = if possessive {
            Cow::Borrowed(head)
        } else {
            // `o'clock`, `O'Brien`: one word without the apostrophe.
            Cow::Owned(format!("{head}{after}"))
        };
        if !word.is_empty() {
            self.push_norm(&word, at..at + raw.len(), possessive, out);
        }
    }

    fn push_norm(
        &mut self,
        norm: &str,
        span: Range<usize>,
        possessive: bool,
        out: &mut Vec<Token>,
    ) {
        let (word, key, kw) = self.intern_word(norm);
        out.push(Token {
            word,
            key,
            kw,
            span,
            possessive,
        });
    }
}

/// The longest string that has a short form: nearly every word.
const SHORT: usize = 7;

/// The short form of a longer string: no short form has it (a short
/// form's top byte is its length, at most [`SHORT`]).
const LONG: u64 = u64::MAX;

/// A string of at most [`SHORT`] bytes as one number: its bytes, first
/// byte lowest, and its length in the top byte, so that two such strings
/// are equal exactly when their short forms are; [`LONG`] for a longer
/// string.
fn short_form(bytes: &[u8]) -> u64 {
    if bytes.len() > SHORT {
        return LONG;
    }
    let packed = bytes.iter().rev().fold(0, |p, &b| p << 8 | u64::from(b));
    packed | (bytes.len() as u64) << 56
}

/// The [`short_form`] of the lower case of `bytes[start..start + n]`,
/// ASCII letters and digits, from one load ([`load8`]).
fn lower_short(bytes: &[u8], start: usize, n: usize) -> u64 {
    if n > SHORT {
        return LONG;
    }
    lowered(load8(bytes, start), n)
}

/// The [`short_form`] of the lower case of the first `n` bytes of `w` (at
/// most [`SHORT`]), ASCII letters and digits: a letter's case bit set is
/// its lower case, and a digit has that bit set already.
fn lowered(w: u64, n: usize) -> u64 {
    ((w | CASE) & ((1 << (8 * n)) - 1)) | (n as u64) << 56
}

/// Every byte's high bit ([`letter_bytes`]).
pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

/// 1 in every byte.
pub(super) const ONES: u64 = 0x0101_0101_0101_0101;

/// The case bit of every byte: set, an ASCII letter is in lower case.
const CASE: u64 = 0x2020_2020_2020_2020;

/// The 8 bytes of `bytes` from `i` as one number, first byte lowest; past
/// the end of `bytes`, zeros (a separator).
pub(super) fn load8(bytes: &[u8], i: usize) -> u64 {
    match bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        Some(chunk) => u64::from_le_bytes(*chunk),
        None => {
            let rest = bytes.get(i..).unwrap_or_default();
            let mut chunk = [0u8; 8];
            chunk[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(chunk)
        }
    }
}

/// The high bit of each byte of `w` at or above `c` (at most 0x80), for
/// bytes below 0x80: `(x | 0x80) - c` borrows from no other byte.
fn at_least(w: u64, c: u8) -> u64 {
    ((w | HIGH) - ONES * u64::from(c)) & HIGH
}

/// The high bit of each byte of `w` that is an ASCII letter.
fn letter_bytes(w: u64) -> u64 {
    // A letter's lower case is its case bit set (the bit moves no other
    // byte into `a..=z`).
    let lower = (w & !HIGH) | CASE;
    at_least(lower, b'a') & !at_least(lower, b'z' + 1) & !w
}

/// The high bit of each byte of `w` that is an ASCII digit.
fn digit_bytes(w: u64) -> u64 {
    let ascii = w & !HIGH;
    at_least(ascii, b'0') & !at_least(ascii, b'9' + 1) & !w
}

/// A string's fingerprint for [`Lexicon`]'s tables: its hash and its
/// [`short_form`]. A short string's hash is [`hash_short`] of its short
/// form; a longer one's goes a byte at a time through a
/// rotate-xor-multiply (the FxHash step, [`hash_step`]), then
/// [`hash_finish`]. Words are short and the table private, so a hash that
/// resists chosen collisions buys nothing here; the text's size bounds the
/// table.
fn fingerprint(bytes: &[u8]) -> (u64, u64) {
    let short = short_form(bytes);
    if short == LONG {
        (hash_long(bytes.iter().copied()), short)
    } else {
        (hash_short(short), short)
    }
}

/// The hash of a longer string's bytes ([`fingerprint`]).
fn hash_long(bytes: impl Iterator<Item = u8>) -> u64 {
    hash_finish(bytes.fold(0, hash_step))
}

/// The hash of a short form: its high bytes folded into the low ones,
/// multiplied, then [`hash_finish`].
fn hash_short(short: u64) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    hash_finish((short ^ (short >> 29)).wrapping_mul(K))
}

/// One byte into a long string's hash ([`fingerprint`]).
fn hash_step(h: u64, b: u8) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K)
}

/// The end of a hash ([`fingerprint`]): the high half folded into the low
/// one, because the table takes its slot from the low bits.
fn hash_finish(h: u64) -> u64 {
    h ^ (h >> 32)
}

/// Whether two strings are equal, compared a byte at a time in place
/// (words are short: a call to the C library's `memcmp` costs more than
/// the comparison).
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Whether `raw` holds ASCII letters and digits only (no apostrophe).
fn is_plain(raw: &str) -> bool {
    raw.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// What a byte is to the tokenizer: [`LOWER`] (a lower-case ASCII letter
/// or a digit), [`UPPER`], or 0 (an ASCII separator, or a byte of a
/// character outside ASCII, which the tokenizer decodes; the apostrophe is
/// told apart where words are cut). [`DIGIT`] marks digits as well, for the
/// letter-digit cut.
const BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if c.is_ascii_lowercase() {
            LOWER
        } else if c.is_ascii_digit() {
            LOWER | DIGIT
        } else if c.is_ascii_uppercase() {
            UPPER
        } else {
            0
        };
        b += 1;
    }
    table
};
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const DIGIT: u8 = 4;
/// A word holds an apostrophe or a character outside ASCII: it takes the
/// general path of [`Lexicon::push_word`].
const OTHER: u8 = 8;

/// The canonical singular stem of a lower-case word: `horses` and `horse`
/// are `hors`, `paints` and `painting` are `paint`, `British` and `brit` are
/// `brit`. It borrows `norm` or a fixed word where it can.
pub(crate) fn key(norm: &str) -> Cow<'_, str> {
    let canon = canonical(norm);
    let word = canon.unwrap_or(norm);
    let single = singular(word);
    // A word the singular leaves as it is was looked up already (canonical
    // forms are their own canonical forms; a test checks).
    let unchanged = std::ptr::eq(single.as_ref(), word);
    if let Some(c) = if unchanged { canon } else { canonical(&single) } {
        return Cow::Borrowed(c);
    }
    stemmed(single)
}

/// [`key`] of a word that no table of [`canonical`] or [`singular`]
/// holds (a puzzle's own word: the fixed table holds all of theirs):
/// only its regular singular may be canonical (`swedes`, `britons`).
fn plain_key(norm: &str) -> Cow<'_, str> {
    let single = regular_singular(norm);
    if !std::ptr::eq(single.as_ref(), norm) {
        if let Some(c) = canonical(&single) {
            return Cow::Borrowed(c);
        }
    }
    stemmed(single)
}

/// [`stem`] of a word that may be borrowed or made.
fn stemmed(word: Cow<'_, str>) -> Cow<'_, str> {
    match word {
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
    let mut w = word.as_bytes();
    if let [rest @ .., b'i', b'n', b'g'] = w {
        if w.len() >= 6 {
            w = rest;
            // `knitt` -> `knit`: the doubled consonant of the -ing form.
            if let [.., x, y] = w {
                if x == y && b"bdgmnprt".contains(y) {
                    w = &w[..w.len() - 1];
                }
            }
        }
    }
    if let [rest @ .., b'e'] = w {
        if w.len() >= 4 {
            w = rest;
        }
    }
    &word[..w.len()]
}

/// Words written more than one way in the published puzzles: demonyms and
/// their nouns (`British` and `brit`), month names and their abbreviations.
fn canonical(word: &str) -> Option<&'static str> {
    static FILTER: Filter = Filter::new(CANONICAL);
    lookup(CANONICAL, &FILTER, word)
}

/// [`canonical`]'s words and their canonical forms, sorted by word (a
/// test checks).
const CANONICAL: &[(&str, &str)] = &[
    ("apr", "apr"),
    ("april", "apr"),
    ("aug", "aug"),
    ("august", "aug"),
    ("brit", "brit"),
    ("british", "brit"),
    ("briton", "brit"),
    ("color", "color"),
    ("colour", "color"),
    ("dane", "dane"),
    ("danish", "dane"),
    ("dec", "dec"),
    ("december", "dec"),
    ("dutch", "dutch"),
    ("dutchman", "dutch"),
    ("dutchwoman", "dutch"),
    ("english", "english"),
    ("englishman", "english"),
    ("englishmen", "english"),
    ("englishwoman", "english"),
    ("favorite", "favorite"),
    ("favourite", "favorite"),
    ("feb", "feb"),
    ("february", "feb"),
    ("finn", "finn"),
    ("finnish", "finn"),
    ("french", "french"),
    ("frenchman", "french"),
    ("frenchwoman", "french"),
    ("gray", "gray"),
    ("grey", "gray"),
    ("irish", "irish"),
    ("irishman", "irish"),
    ("irishwoman", "irish"),
    ("jan", "jan"),
    ("january", "jan"),
    ("jul", "jul"),
    ("july", "jul"),
    ("jun", "jun"),
    ("june", "jun"),
    ("mar", "mar"),
    ("march", "mar"),
    ("nov", "nov"),
    ("november", "nov"),
    ("oct", "oct"),
    ("october", "oct"),
    ("pole", "pole"),
    ("polish", "pole"),
    ("scot", "scot"),
    ("scotsman", "scot"),
    ("scotswoman", "scot"),
    ("scottish", "scot"),
    ("sep", "sep"),
    ("sept", "sep"),
    ("september", "sep"),
    ("spaniard", "spanish"),
    ("spanish", "spanish"),
    ("swede", "swede"),
    ("swedish", "swede"),
    ("welsh", "welsh"),
    ("welshman", "welsh"),
    ("welshwoman", "welsh"),
];

/// A set of words as 1024 bits, a bit for each word's [`Filter::slot`]: one
/// load and one bit test turn away nearly every word of a sentence (`the`,
/// `house`, `left`) before any comparison with a table's words.
struct Filter([u64; 16]);

impl Filter {
    /// The filter of a table of (word, form) pairs.
    const fn new(table: &[(&str, &str)]) -> Filter {
        let mut filter = Filter([0; 16]);
        let mut i = 0;
        while i < table.len() {
            filter = filter.with(table[i].0);
            i += 1;
        }
        filter
    }

    /// The filter of a list of words.
    const fn of(words: &[&str]) -> Filter {
        let mut filter = Filter([0; 16]);
        let mut i = 0;
        while i < words.len() {
            filter = filter.with(words[i]);
            i += 1;
        }
        filter
    }

    const fn with(mut self, word: &str) -> Filter {
        let slot = Filter::slot(word.as_bytes());
        self.0[slot / 64] |= 1 << (slot % 64);
        self
    }

    /// A word's bit: its length and its first, second and last bytes mixed.
    const fn slot(w: &[u8]) -> usize {
        let (first, second, last) = match w {
            [] => (0, 0, 0),
            [a] => (*a, 0, *a),
            [a, b, ..] => (*a, *b, w[w.len() - 1]),
        };
        let h = (w.len() as u32)
            .wrapping_mul(0x9E37_79B1)
            .wrapping_add((first as u32) << 16 | (second as u32) << 8 | last as u32)
            .wrapping_mul(0x85EB_CA6B);
        (h >> 22) as usize
    }

    /// Whether `word` may be in the set.
    fn admits(&self, word: &str) -> bool {
        let slot = Filter::slot(word.as_bytes());
        self.0[slot / 64] >> (slot % 64) & 1 == 1
    }
}

/// The form `table` (sorted by word) gives `word`, if any.
fn lookup(
    table: &'static [(&'static str, &'static str)],
    filter: &Filter,
    word: &str,
) -> Option<&'static str> {
    if !filter.admits(word) {
        return None;
    }
    let i = table.binary_search_by(|(w, _)| (*w).cmp(word)).ok()?;
    Some(table[i].1)
}

/// Whether `word` is one of [`DESCRIPTION_STOP_WORDS`] (sorted).
fn is_description_stop_word(word: &str) -> bool {
    DESCRIPTION_STOP_WORDS.binary_search(&word).is_ok()
}

/// The words a group's name leaves out of its description's words (the
/// frame's `group_name`): those common to every description. Sorted, and
/// all in [`PHRASING_VOCABULARY`] (a test checks both), so that the fixed
/// table marks them once ([`Lexicon::is_name_common_word`]).
const NAME_COMMON_WORDS: &[&str] = &[
    "a",
    "accompanied",
    "all",
    "an",
    "and",
    "are",
    "as",
    "at",
    "by",
    "different",
    "distinct",
    "each",
    "every",
    "everybody",
    "everyone",
    "favorite",
    "favourite",
    "for",
    "from",
    "has",
    "have",
    "houses",
    "in",
    "is",
    "it",
    "its",
    "keep",
    "keeps",
    "kind",
    "level",
    "like",
    "likes",
    "live",
    "lives",
    "of",
    "on",
    "own",
    "owns",
    "people",
    "person",
    "prefer",
    "prefers",
    "something",
    "that",
    "the",
    "their",
    "them",
    "they",
    "this",
    "to",
    "type",
    "types",
    "unique",
    "use",
    "uses",
    "who",
    "whose",
    "with",
];

/// Words of a group's description that say nothing about which group it
/// is, sorted (a test checks) for [`is_description_stop_word`].
const DESCRIPTION_STOP_WORDS: &[&str] = &[
    "a",
    "all",
    "an",
    "and",
    "are",
    "as",
    "at",
    "attribute",
    "by",
    "characteristic",
    "different",
    "distinct",
    "do",
    "doe",
    "each",
    "every",
    "everybody",
    "everyone",
    "favorite",
    "for",
    "from",
    "ha",
    "has",
    "have",
    "he",
    "her",
    "his",
    "house",
    "in",
    "is",
    "it",
    "its",
    "kind",
    "level",
    "like",
    "live",
    "love",
    "of",
    "on",
    "one",
    "or",
    "own",
    "person",
    "prefer",
    "she",
    "something",
    "that",
    "the",
    "their",
    "them",
    "there",
    "they",
    "this",
    "to",
    "type",
    "unique",
    "use",
    "who",
    "whose",
    "with",
];

/// The singular of a lower-case English noun, by the regular rules and a few
/// irregular plurals; words that are not plurals come back unchanged (as far
/// as the rules can tell; both sides of a comparison get the same treatment).
/// It borrows `word` or a fixed word where it can.
pub(crate) fn singular(word: &str) -> Cow<'_, str> {
    static FILTER: Filter = Filter::new(IRREGULAR);
    let irregular = lookup(IRREGULAR, &FILTER, word);
    if let Some(s) = irregular {
        return Cow::Borrowed(s);
    }
    regular_singular(word)
}

/// [`singular`] by the regular rules alone: `lilies` is `lily`, `boxes`
/// is `box`, `horses` is `horse`; `glass`, `bus` and `axis` stay.
fn regular_singular(word: &str) -> Cow<'_, str> {
    let n = word.len();
    if n <= 3 || !word.is_ascii() {
        return Cow::Borrowed(word);
    }
    let cut = match word.as_bytes() {
        [.., b'i', b'e', b's'] if n > 4 => return Cow::Owned(format!("{}y", &word[..n - 3])),
        [.., b'c' | b's', b'h', b'e', b's']
        | [.., b's', b's', b'e', b's']
        | [.., b'x', b'e', b's']
        | [.., b'z', b'z', b'e', b's'] => 2,
        [.., b's' | b'u' | b'i', b's'] => 0,
        [.., b's'] => 1,
        _ => 0,
    };
    Cow::Borrowed(&word[..n - cut])
}

/// The irregular plurals [`singular`] knows and their singulars, sorted
/// by plural (a test checks).
const IRREGULAR: &[(&str, &str)] = &[
    ("calves", "calf"),
    ("children", "child"),
    ("feet", "foot"),
    ("geese", "goose"),
    ("halves", "half"),
    ("knives", "knife"),
    ("leaves", "leaf"),
    ("lives", "life"),
    ("men", "man"),
    ("mice", "mouse"),
    ("oxen", "ox"),
    ("people", "person"),
    ("teeth", "tooth"),
    ("wives", "wife"),
    ("wolves", "wolf"),
    ("women", "woman"),
];

/// The numbers in words [`cardinal`] reads, `zero` to `twenty`, in order.
const CARDINAL_WORDS: [&str; 21] = [
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

/// The number a word spells, for counts: `one` to `twenty`, or digits.
pub(crate) fn cardinal(norm: &str) -> Option<u64> {
    // The words above start with one of these letters.
    static FILTER: Filter = Filter::of(&CARDINAL_WORDS);
    if !FILTER.admits(norm) {
        return digits(norm);
    }
    if let Some(n) = CARDINAL_WORDS.iter().position(|w| *w == norm) {
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

/// The ordinals in words [`ordinal`] reads, `first` to `twentieth`, in
/// order.
const ORDINAL_WORDS: [&str; 20] = [
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

/// The position an ordinal spells: `first` or `1st` is 1.
pub(crate) fn ordinal(norm: &str) -> Option<u64> {
    static FILTER: Filter = Filter::of(&ORDINAL_WORDS);
    if FILTER.admits(norm) {
        if let Some(n) = ORDINAL_WORDS.iter().position(|w| *w == norm) {
            return Some(n as u64 + 1);
        }
    }
    ordinal_digits(norm)
}

/// The position an ordinal in digits spells: `1st` is 1, `22nd` is 22.
fn ordinal_digits(norm: &str) -> Option<u64> {
    if !norm.as_bytes().first().is_some_and(u8::is_ascii_digit) {
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

    #[test]
    fn tables_are_sorted_for_binary_search() {
        for table in [CANONICAL, IRREGULAR] {
            assert!(table.windows(2).all(|w| w[0].0 < w[1].0));
            for (w, form) in table {
                assert_eq!(lookup(table, &Filter::new(table), w), Some(*form));
            }
        }
        for (_, form) in CANONICAL {
            assert_eq!(
                canonical(form),
                Some(*form),
                "canonical forms are fixed points"
            );
        }
        assert_eq!(canonical("swedish"), Some("swede"));
        assert_eq!(canonical("house"), None);
    }

    /// The tokens of `text` and the lexicon that cut them.
    fn cut(text: &str) -> (Lexicon, Vec<Token>) {
        let mut lex = Lexicon::new();
        let mut out = Vec::new();
        lex.tokens(text, 0, &mut out);
        (lex, out)
    }

    fn norms(text: &str) -> Vec<String> {
        let (lex, t) = cut(text);
        t.iter().map(|t| lex.text(t.word).to_owned()).collect()
    }

    #[test]
    fn splits_on_punctuation_and_marks_possessives() {
        let (_, t) = cut("The Norwegian's house, colonial-style.");
        assert_eq!(
            norms("The Norwegian's house, colonial-style."),
            ["the", "norwegian", "house", "colonial", "style"]
        );
        assert!(t[1].possessive);
        assert_eq!(t[1].span, 4..15);
    }

    #[test]
    fn capitals_and_curly_apostrophes_outside_ascii() {
        let (_, t) = cut("Ève’s CAFÉ doesn’t");
        assert_eq!(norms("Ève’s CAFÉ doesn’t"), ["ève", "café", "does", "not"]);
        let spans: Vec<Range<usize>> = t.iter().map(|t| t.span.clone()).collect();
        assert_eq!(spans, [0..8, 9..14, 15..19, 19..24]);
        assert!(t[0].possessive && !t[1].possessive);
    }

    #[test]
    fn contracted_not_becomes_its_own_token() {
        assert_eq!(norms("Eric doesn't live"), ["eric", "does", "not", "live"]);
        let (_, t) = cut("Eric doesn't live");
        assert_eq!(t[2].kw, Kw::Not);
    }

    #[test]
    fn one_string_one_id() {
        // `Horses`, `horses` and `horse` share a key; `horses` twice is one word.
        let (lex, t) = cut("Horses horses horse HORSE");
        assert_eq!(t[0].word, t[1].word);
        assert_ne!(t[1].word, t[2].word);
        assert_eq!(t[2].word, t[3].word);
        assert!(t.iter().all(|x| x.key == t[0].key));
        assert_eq!(lex.text(t[0].key), "hors");
        assert_eq!(lex.find("horses"), Some(t[0].word));
        assert_eq!(lex.find("zebra"), None);
        // Long words that differ only in their last byte are two strings.
        let (lex, t) = cut("neighbourhood neighbourhoods neighbourhoot");
        assert_ne!(t[0].word, t[2].word);
        assert_eq!(lex.text(t[2].word), "neighbourhoot");
        assert_eq!(t[0].key, t[1].key);
        let (lex, t) = cut("the third house, house 12");
        assert_eq!(lex.ordinal(t[1].word), Some(3));
        assert_eq!(lex.digits(t[4].word), Some(12));
        assert_eq!(lex.cardinal(t[4].word), Some(12));
        assert!(t[2].kw.is_house_noun() && t[3].kw == Kw::House);
        assert_eq!(t[0].kw, Kw::Other);
    }

    #[test]
    fn fixed_vocabulary_is_read_as_any_word() {
        // The shared table knows each fixed word as a puzzle's own lexicon
        // would work it out.
        let lex = Lexicon::new();
        for w in PHRASING_VOCABULARY {
            assert!(w.bytes().all(|b| b.is_ascii_lowercase()), "{w}");
            let id = lex.find(w).expect("a fixed word is interned");
            let e = lex.entry(id);
            assert_eq!(lex.text(e.key), key(w), "{w}");
            assert_eq!(e.kw, Kw::of(w), "{w}");
            assert_eq!(e.cardinal, cardinal(w), "{w}");
            assert_eq!(e.ordinal, ordinal(w), "{w}");
            assert_eq!(e.digits, digits(w), "{w}");
        }
        // Every phrasing word and number in words is fixed: a puzzle's own
        // word is none of them.
        let tables = KEYWORDS.iter().map(|(w, _)| w);
        let tables = tables.chain(&CARDINAL_WORDS).chain(&ORDINAL_WORDS);
        let tables = tables.chain(NAME_COMMON_WORDS);
        for w in tables.chain(DESCRIPTION_STOP_WORDS) {
            assert!(PHRASING_VOCABULARY.contains(w), "{w}");
        }
        assert!(NAME_COMMON_WORDS.windows(2).all(|w| w[0] < w[1]));
        for w in NAME_COMMON_WORDS {
            assert!(lex.is_name_common_word(lex.find(w).expect("fixed")), "{w}");
        }
        assert!(!lex.is_name_common_word(lex.find("left").expect("fixed")));
        // Every fixed entry is a word, keys included, and knows whether
        // it is a stop word.
        for id in 0..lex.fixed.entries.len() as WordId {
            assert_ne!(lex.entry(id).key, NO_KEY, "{}", lex.text(id));
            assert!(lex.entry(id).stop.is_some(), "{}", lex.text(id));
        }
        // A puzzle's own words come after, and two lexicons agree on the
        // fixed ids.
        let (own, t) = cut("The Zebra is LEFT");
        assert_eq!(t[0].word, lex.find("the").expect("fixed"));
        assert_eq!(t[2].word, lex.find("is").expect("fixed"));
        assert!(t[1].word as usize >= lex.fixed.entries.len());
        assert_eq!(own.text(t[1].word), "zebra");
        assert_eq!(t[3].kw, Kw::Left);
    }

    /// A text's tokens and the strings (word, key) of each.
    type Cut = (Vec<Token>, Vec<(String, String)>);

    /// Both cuts of `text` (eight bytes at a time and a byte at a time),
    /// each by a fresh lexicon.
    fn both_cuts(text: &str) -> [Cut; 2] {
        let strings = |lex: &Lexicon, t: &[Token]| {
            t.iter()
                .map(|t| (lex.text(t.word).to_owned(), lex.text(t.key).to_owned()))
                .collect()
        };
        let (mut fast, mut slow) = (Lexicon::new(), Lexicon::new());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        fast.tokens(text, 7, &mut a);
        slow.tokens_by_byte(text, 7, &mut b);
        let (sa, sb) = (strings(&fast, &a), strings(&slow, &b));
        [(a, sa), (b, sb)]
    }

    #[test]
    fn eight_bytes_at_a_time_cut_as_one_at_a_time() {
        // Words of 1 to 9 bytes at every offset of a load, each followed
        // by every kind of byte the fast path must leave to the slow one
        // (apostrophes, a digit, a letter outside ASCII, a combining mark,
        // a curly quote) or may skip (spaces, punctuation, a tab, NUL),
        // then by the next word in the same load (one starting with a
        // letter or a digit after separators on either side of `0`,
        // `A`, `a`), and at the very end of the text.
        let words = [
            "a", "Ab", "the", "Eric", "HOUSE", "horses", "Norweg", "Japanes", "painting",
        ];
        let tails = [
            "",
            " ",
            ", ",
            "'s",
            "' ",
            "\u{2019}s",
            "9",
            "é",
            "e\u{301}",
            ".\n",
            "\t-",
            "\0x",
            "  \u{201c}x",
            "n't",
            "\u{a0}q",
            " 0",
            ". 9x",
            "/0",
            ":x",
            "@y",
            "[Q",
            "`r",
            "{s",
            "~t",
            " A",
            ", z",
        ];
        for lead in ["", " ", "12. ", "\u{e9} ", "`"] {
            for w in words {
                for tail in tails {
                    let text = format!("{lead}{w}{tail} {w}{tail}");
                    let [(a, sa), (b, sb)] = both_cuts(&text);
                    assert_eq!(a, b, "{text:?}");
                    assert_eq!(sa, sb, "{text:?}");
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
        #[test]
        fn any_text_cuts_as_one_byte_at_a_time(
            // Letters, digits and the bytes next to their ranges (`/`, `:`,
            // `@`, `[`, `` ` ``, `{`), separators, apostrophes, and characters
            // outside ASCII: letters, a combining mark, quotes and spaces.
            text in "[a-zA-Z0-9/:@\\[`{~?_ ,.'\\-\n\t\u{0}\u{7f}\u{e9}\u{c9}\u{301}\u{2019}\u{201c}\u{a0}\u{200b}]{0,40}"
        ) {
            let [(a, sa), (b, sb)] = both_cuts(&text);
            proptest::prop_assert_eq!(a, b);
            proptest::prop_assert_eq!(sa, sb);
        }
    }

    #[test]
    fn short_forms_tell_strings_apart_and_lower_the_case() {
        // Equal exactly when the strings are, up to SHORT bytes.
        assert_ne!(short_form(b"abcdefg"), short_form(b"abcdefh"));
        assert_ne!(short_form(b"a"), short_form(b"a\0"));
        assert_ne!(short_form(b""), LONG);
        assert_eq!(short_form(b"abcdefgh"), LONG);
        // From the middle of a text (one load) and from its end (fewer
        // than 8 bytes left), the lower case's short form.
        let text = b"Horses and HORSES";
        assert_eq!(lower_short(text, 0, 6), short_form(b"horses"));
        assert_eq!(lower_short(text, 11, 6), short_form(b"horses"));
        assert_eq!(lower_short(b"F150", 1, 3), short_form(b"150"));
        assert_eq!(lower_short(text, 0, 8), LONG);
        // A long word is found by its bytes, a short one by its form.
        let (lex, t) = cut("Horses neighbourhood NEIGHBOURHOOD");
        assert_eq!(lex.find("horses"), Some(t[0].word));
        assert_eq!(t[1].word, t[2].word);
    }

    #[test]
    fn description_stop_words_are_sorted_for_binary_search() {
        assert!(DESCRIPTION_STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        for w in DESCRIPTION_STOP_WORDS {
            assert!(is_description_stop_word(w), "{w}");
        }
        assert!(!is_description_stop_word("color"));
    }

    #[test]
    fn the_table_grows_and_keeps_every_string() {
        // Far more strings than the room a lexicon starts with.
        let word = |i: usize| -> String {
            let letter = |k: usize| char::from(b'a' + (k % 26) as u8);
            ['q', letter(i / 676), letter(i / 26), letter(i), 'q']
                .iter()
                .collect()
        };
        let text: String = (0..2000).map(|i| word(i) + " ").collect();
        let (lex, t) = cut(&text);
        assert_eq!(t.len(), 2000);
        for (i, tok) in t.iter().enumerate() {
            assert_eq!(lex.text(tok.word), word(i));
            assert_eq!(lex.find(&word(i)), Some(tok.word));
        }
        let mut ids: Vec<WordId> = t.iter().map(|tok| tok.word).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 2000, "distinct strings, distinct ids");
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
        let (lex, t) = cut("Ford F-150, ford f150");
        let f150: Vec<&str> = t.iter().map(|t| lex.text(t.key)).collect();
        assert_eq!(f150, ["ford", "f", "150", "ford", "f", "150"]);
    }

    #[test]
    fn a_word_outside_the_tables_keys_without_them() {
        // The tables' words are fixed, so no puzzle's own word is one.
        let lex = Lexicon::new();
        for (w, _) in CANONICAL.iter().chain(IRREGULAR) {
            assert!(lex.find(w).is_some(), "{w}");
        }
        // Every other word keys as `key` keys it: plurals and -ing forms,
        // plurals whose singular is canonical, words shorter than the
        // rules, and words outside ASCII.
        let words = [
            "horses", "lilies", "ties", "boxes", "churches", "bushes", "classes", "buzzes",
            "glass", "bus", "axis", "famous", "dancing", "knitting", "swimming", "ring", "swedes",
            "britons", "danes", "finns", "poles", "scots", "aprils", "colours", "greys", "cats",
            "oxes", "tea", "pie", "ice", "cafés", "écoles", "naïve", "x", "",
        ];
        for w in words {
            assert_eq!(plain_key(w), key(w), "{w}");
            assert_eq!(regular_singular(w), singular(w), "{w}");
        }
        // The keys themselves, worked out by hand from the rules.
        assert_eq!(plain_key("swedes"), "swede");
        assert_eq!(plain_key("britons"), "brit");
        assert_eq!(plain_key("swimming"), "swim");
        assert_eq!(plain_key("churches"), "church");
        assert_eq!(plain_key("ties"), "tie");
        assert_eq!(plain_key("axis"), "axis");
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

    #[test]
    fn capitalised_words_key_as_lower_case_ones() {
        // The fast path (an ASCII word lower-cased in the buffer) and the
        // general path (a word with an apostrophe or outside ASCII) give the
        // forms `key` gives the lower-case word.
        for w in [
            "horses", "Horses", "lilies", "Lilies", "dancing", "Dancing", "british", "British",
            "children", "Children", "glass", "boxes", "feb", "February", "ÉCOLES",
        ] {
            let (lex, t) = cut(w);
            assert_eq!(lex.text(t[0].word), w.to_lowercase());
            assert_eq!(lex.text(t[0].key), key(&w.to_lowercase()), "{w}");
        }
        // Filtered prefixes still reach the long matches.
        assert_eq!(key("swedish"), "swede");
        assert_eq!(singular("wolves"), "wolf");
        assert_eq!(ordinal("twelfth"), Some(12));
        assert_eq!(cardinal("seven"), Some(7));
        assert_eq!(ordinal("house"), None);
    }
}
