//! Reading one clue sentence into relations.
//!
//! The reader does not parse English grammar. It finds three kinds of thing
//! in a sentence and decides from what it found:
//! 1. *value mentions*: the puzzle's values, matched word by word on the
//!    canonical singular forms of [`words`](super::words), longest value
//!    first (`boba tea` before `tea`), wherever they stand in the noun
//!    phrase (`the person who loves fantasy books`, `the cat lover`);
//! 2. *house references*: `the third house`, `house 3`, `the middle
//!    house`, `the top floor`, `one of the ends`, and counts (`two houses
//!    between`);
//! 3. *phrasing words*: negation (`not`), adjacency (`next to`, `adjacent`,
//!    `neighbours`), direction (`left`, `right`, `before`, `after`,
//!    `higher`, `lower`), immediacy (`directly`, `immediately`, `just`),
//!    `between`, `same`, `different`.
//!
//! The first value mentioned is the subject: in `X is directly left of Y`,
//! `X` is one house left of `Y`. A sentence that restates the frame (`There
//! are five houses.`, a sentence listing a whole group, `One of the men
//! drinks water.`) reads as no constraint. Anything else that does not fit
//! is reported with the mentions found and the words not placed: the reader
//! never drops a sentence silently and never guesses between readings.
//!
//! A name declared in two groups (reasoning-gym's `alice` as a name and as a
//! child) is resolved by the words before it in its phrase: a word that
//! describes one of the candidate groups only (`child` in `the person's
//! child is named Alice`) picks that group; with no such word, the group of
//! people's names takes a bare name; otherwise the mention is ambiguous.

use std::ops::Range;

use hashbrown::HashMap;

use super::words::{self, Token, Word};
use crate::puzzle::ast::{Cmp, Group, Operand, Relation, ValueRef};
use crate::puzzle::diagnostic::ErrorKind;

/// What the reader knows of a puzzle's frame: its houses and the words of
/// its values and groups.
#[derive(Debug)]
pub(crate) struct Vocabulary<'g> {
    houses: u8,
    /// The values' words (as keys) in a trie: a walk along a sentence's
    /// keys finds the longest value from any word in time proportional to
    /// the value's length.
    trie: Trie,
    /// Per group: the keys of the words that describe it (its name and its
    /// description line), without the words every description uses.
    cues: Vec<Vec<String>>,
    /// The group of people's names, which takes a bare name no cue claims.
    person_names: Option<usize>,
    /// Per group: its name and values as written, for messages.
    names: &'g [Group],
}

/// The values' words in a trie: node 0 is the root, `edges` maps (node,
/// key) to the child, `values[node]` lists the values whose words end
/// there (several: a name in two groups). One map for all edges rather than
/// one a node: building the vocabulary is part of reading every puzzle.
#[derive(Debug)]
struct Trie {
    edges: HashMap<(u32, String), u32>,
    values: Vec<Vec<ValueRef>>,
}

/// A lookup key of [`Trie::edges`] that borrows the word; it hashes as
/// `(u32, String)` does (a tuple hashes its fields in order).
#[derive(Hash)]
struct Edge<'a>(u32, &'a str);

impl hashbrown::Equivalent<(u32, String)> for Edge<'_> {
    fn equivalent(&self, key: &(u32, String)) -> bool {
        self.0 == key.0 && self.1 == key.1
    }
}

impl Trie {
    fn new() -> Trie {
        Trie {
            edges: HashMap::new(),
            values: vec![Vec::new()],
        }
    }

    /// The child of `node` along `key`.
    fn child(&self, node: u32, key: &str) -> Option<u32> {
        self.edges.get(&Edge(node, key)).copied()
    }

    fn insert(&mut self, keys: &[Word<'_>], value: ValueRef) {
        let mut node = 0;
        for k in keys {
            node = match self.child(node, k) {
                Some(child) => child,
                None => {
                    let child = self.values.len() as u32;
                    self.values.push(Vec::new());
                    self.edges.insert((node, k.as_str().to_owned()), child);
                    child
                }
            };
        }
        let here = &mut self.values[node as usize];
        if !here.contains(&value) {
            here.push(value);
        }
    }
}

/// Whether `word` is one of [`DESCRIPTION_STOP_WORDS`] (sorted).
fn is_description_stop_word(word: &str) -> bool {
    DESCRIPTION_STOP_WORDS.binary_search(&word).is_ok()
}

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

impl<'g> Vocabulary<'g> {
    /// The vocabulary of a puzzle's groups; `descriptions[g]`, if given, is
    /// the text that introduced group `g` (`People have unique hair colors`).
    pub(crate) fn new(houses: u8, groups: &'g [Group], descriptions: &[String]) -> Vocabulary<'g> {
        let mut cues = Vec::with_capacity(groups.len());
        for (g, group) in groups.iter().enumerate() {
            let mut keys = Vec::new();
            let name_words = split_name(&group.name);
            let description = descriptions.get(g).map_or("", String::as_str);
            for t in name_words
                .iter()
                .flat_map(|w| words::tokens(w, 0))
                .chain(words::tokens(description, 0))
            {
                let stop = is_description_stop_word(&t.norm)
                    || is_description_stop_word(&words::singular(&t.norm));
                if !stop && !keys.iter().any(|k| t.key == *k) {
                    keys.push(t.key.into_owned());
                }
            }
            // Generators that list both the animals people keep and their
            // pets, with the same values, tell them apart by phrasing alone:
            // ZebraLogic writes `the cat lover`, `the bird keeper`, `the fish
            // enthusiast` for the animals and `has a cat`, `owns a dog`, `a
            // pet bird` for the pets.
            let extra: &[&str] = if keys.iter().any(|k| *k == words::key("animal")) {
                &["lover", "keeper", "enthusiast", "owner"]
            } else if keys.iter().any(|k| *k == words::key("pet")) {
                &["has", "owns", "own"]
            } else {
                &[]
            };
            for w in extra {
                let k = words::key(w);
                if !keys.iter().any(|x| *x == k) {
                    keys.push(k.into_owned());
                }
            }
            cues.push(keys);
        }
        let person_names = (0..groups.len()).find(|&g| {
            let name = groups[g].name.to_lowercase();
            cues[g] == ["name"] || matches!(name.as_str(), "name" | "names" | "first name")
        });
        let mut trie = Trie::new();
        for (g, group) in groups.iter().enumerate() {
            let name_words = split_name(&group.name);
            let prefix: Vec<Word<'_>> = name_words
                .iter()
                .flat_map(|w| words::tokens(w, 0))
                .map(|t| t.key)
                .collect();
            for (v, value) in group.values.iter().enumerate() {
                let value_ref = ValueRef { group: g, value: v };
                let keys: Vec<Word<'_>> =
                    words::tokens(value, 0).into_iter().map(|t| t.key).collect();
                if keys.is_empty() {
                    continue;
                }
                // A value renamed for uniqueness (`child alice`, `child/alice`
                // in group `child`) is also mentioned without the group's words.
                if !prefix.is_empty() && keys.len() > prefix.len() && keys.starts_with(&prefix) {
                    trie.insert(&keys[prefix.len()..], value_ref);
                }
                trie.insert(&keys, value_ref);
            }
        }
        Vocabulary {
            houses,
            trie,
            cues,
            person_names,
            names: groups,
        }
    }

    /// The number of houses.
    pub(crate) fn houses(&self) -> u8 {
        self.houses
    }

    /// The cue words of group `g`.
    pub(crate) fn cues(&self, g: usize) -> &[String] {
        &self.cues[g]
    }

    /// The value mentions in `tokens`, left to right, longest match first.
    pub(crate) fn mentions(&self, tokens: &[Token]) -> Vec<Mention<'_>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            // The longest value starting at word `i`.
            let mut best: Option<(usize, &[ValueRef])> = None;
            let mut node = 0;
            for (len, t) in tokens[i..].iter().enumerate() {
                match self.trie.child(node, t.key.as_str()) {
                    Some(child) => node = child,
                    None => break,
                }
                if !self.trie.values[node as usize].is_empty() {
                    best = Some((len + 1, &self.trie.values[node as usize]));
                }
            }
            match best {
                Some((len, candidates)) => {
                    out.push(Mention {
                        first: i,
                        end: i + len,
                        candidates,
                        value: None,
                    });
                    i += len;
                }
                None => i += 1,
            }
        }
        out
    }

    /// Picks the value of each mention with several candidates, by the cue
    /// words before it (back to the previous mention).
    fn resolve(&self, tokens: &[Token], mentions: &mut [Mention]) -> Result<(), Unread> {
        let mut from = 0;
        for k in 0..mentions.len() {
            let next_first = mentions.get(k + 1).map(|n| n.first);
            let m = &mut mentions[k];
            let context = &tokens[from..m.first];
            from = m.end;
            if let [only] = m.candidates[..] {
                m.value = Some(only);
                continue;
            }
            let groups: Vec<usize> = m.candidates.iter().map(|v| v.group).collect();
            // The words a group alone among the candidates is described by.
            let distinct: Vec<Vec<&String>> = groups
                .iter()
                .map(|&g| {
                    self.cues[g]
                        .iter()
                        .filter(|c| groups.iter().all(|&h| h == g || !self.cues[h].contains(*c)))
                        .collect()
                })
                .collect();
            let claims = |t: &Token| -> Vec<usize> {
                (0..groups.len())
                    .filter(|&i| distinct[i].iter().any(|c| t.key == **c))
                    .collect()
            };
            // The nearest describing word decides, as a modifier attaches to
            // the nearest noun: the word right after the mention (`the cat
            // lover`), then the words before it, nearest first.
            let after = tokens
                .get(m.end)
                .filter(|_| next_first.is_none_or(|n| m.end < n));
            let mut claimed: Vec<usize> = after.map(&claims).unwrap_or_default();
            if claimed.is_empty() {
                for t in context.iter().rev() {
                    claimed = claims(t);
                    if !claimed.is_empty() {
                        break;
                    }
                }
            }
            let pick = match claimed[..] {
                [i] => Some(i),
                [] => self
                    .person_names
                    .and_then(|p| groups.iter().position(|&g| g == p)),
                _ => None,
            };
            match pick {
                Some(i) => m.value = Some(m.candidates[i]),
                None => {
                    let span = tokens[m.first].span.start..tokens[m.end - 1].span.end;
                    let listed: Vec<String> = m
                        .candidates
                        .iter()
                        .map(|v| format!("`{}`", self.names[v.group].name))
                        .collect();
                    return Err(Unread {
                        kind: ErrorKind::AmbiguousName,
                        message: format!(
                            "`{}` is a value of {}: the words around it do not say which",
                            self.value_name(m.candidates[0]),
                            join_or(&listed)
                        ),
                        span,
                        expected: "words that name the group, such as the group's own".to_owned(),
                        notes: vec![format!(
                            "help: say which, as the list does: {}",
                            m.candidates
                                .iter()
                                .map(|v| format!(
                                    "`{}`'s words ({})",
                                    self.names[v.group].name,
                                    self.cues[v.group].join(" ")
                                ))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )],
                    });
                }
            }
        }
        Ok(())
    }

    fn value_name(&self, v: ValueRef) -> &str {
        &self.names[v.group].values[v.value]
    }
}

/// `HairColor`, `hair_color`, `hair color` -> `hair`, `color`.
pub(crate) fn split_name(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A value mention: tokens `first..end`, the values those words name, and
/// (once resolved) the one meant.
#[derive(Clone, Debug)]
pub(crate) struct Mention<'v> {
    pub(crate) first: usize,
    pub(crate) end: usize,
    pub(crate) candidates: &'v [ValueRef],
    pub(crate) value: Option<ValueRef>,
}

/// Why a sentence was not read: the pieces of a diagnostic, with a span in
/// the text the sentence was cut from.
#[derive(Clone, Debug)]
pub(crate) struct Unread {
    pub(crate) kind: ErrorKind,
    pub(crate) message: String,
    pub(crate) span: Range<usize>,
    pub(crate) expected: String,
    pub(crate) notes: Vec<String>,
}

/// What a sentence says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Constraints (one or more; several for `neither the top nor the
    /// bottom floor`).
    Relations(Vec<Relation>),
    /// It restates the frame: no constraint.
    Frame,
}

/// Nouns for a house, or a floor of one building.
fn is_house_noun(norm: &str) -> bool {
    matches!(
        norm,
        "house" | "houses" | "floor" | "floors" | "position" | "positions" | "home" | "spot"
    )
}

/// Words of the phrasing that the messages do not list as unplaced.
const PHRASING_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "is",
    "are",
    "was",
    "be",
    "who",
    "whose",
    "which",
    "that",
    "person",
    "one",
    "of",
    "in",
    "on",
    "at",
    "to",
    "and",
    "or",
    "with",
    "has",
    "have",
    "house",
    "houses",
    "lives",
    "live",
    "living",
    "there",
    "not",
    "does",
    "do",
    "somewhere",
    "directly",
    "immediately",
    "left",
    "right",
    "next",
    "each",
    "other",
    "between",
    "than",
    "floor",
    "man",
    "woman",
];

/// A house reference found in a sentence.
#[derive(Clone, Debug)]
struct HouseRef {
    houses: Vec<u8>,
}

/// Reads one sentence. `sentence` starts at byte `base` of the text that
/// spans refer to.
pub(crate) fn read(vocab: &Vocabulary<'_>, sentence: &str, base: usize) -> Result<Reading, Unread> {
    let tokens = words::tokens(sentence, base);
    let whole = base..base + sentence.trim_end().len();
    let mut mentions = vocab.mentions(&tokens);
    vocab.resolve(&tokens, &mut mentions)?;
    let values: Vec<ValueRef> = mentions.iter().filter_map(|m| m.value).collect();
    let mut used = vec![false; tokens.len()];
    for m in &mentions {
        used[m.first..m.end].iter_mut().for_each(|u| *u = true);
    }
    let n = vocab.houses;
    // House references and counts, among the words no value claimed.
    let mut refs: Vec<HouseRef> = Vec::new();
    let mut count: Option<(u64, usize)> = None;
    let free = |i: usize, used: &[bool]| i < tokens.len() && !used[i];
    let noun_ahead = |i: usize, used: &[bool]| {
        (i + 1..(i + 8).min(tokens.len()))
            .take_while(|&j| !used[j])
            .any(|j| is_house_noun(&tokens[j].norm))
    };
    let mut i = 0;
    while i < tokens.len() {
        if used[i] {
            i += 1;
            continue;
        }
        let w = tokens[i].norm.as_str();
        let span = tokens[i].span.clone();
        let next = tokens.get(i + 1).filter(|_| free(i + 1, &used));
        let found: Option<(Vec<u64>, usize)> =
            if let Some(k) = words::ordinal(w).filter(|_| noun_ahead(i, &used)) {
                Some((vec![k], 1))
            } else if matches!(w, "middle" | "centre" | "center") && noun_ahead(i, &used) {
                if n % 2 == 0 {
                    return Err(Unread {
                        kind: ErrorKind::OutOfRange,
                        message: format!("there is no middle house among {n} houses"),
                        span,
                        expected: "a house number".to_owned(),
                        notes: Vec::new(),
                    });
                }
                Some((vec![u64::from(n).div_ceil(2)], 1))
            } else if matches!(w, "last" | "top" | "rightmost" | "final") && noun_ahead(i, &used) {
                Some((vec![u64::from(n)], 1))
            } else if matches!(w, "bottom" | "leftmost") && noun_ahead(i, &used) {
                Some((vec![1], 1))
            } else if w == "far" && next.is_some_and(|t| t.norm == "left") {
                Some((vec![1], 2))
            } else if w == "far" && next.is_some_and(|t| t.norm == "right") {
                Some((vec![u64::from(n)], 2))
            } else if matches!(w, "end" | "ends") {
                Some((vec![1, u64::from(n)], 1))
            } else if is_house_noun(w) && next.is_some_and(|t| words::digits(&t.norm).is_some()) {
                let k = next.and_then(|t| words::digits(&t.norm)).unwrap_or(0);
                Some((vec![k], 2))
            } else if is_house_noun(w)
                && next.is_some_and(|t| t.norm == "number")
                && tokens
                    .get(i + 2)
                    .is_some_and(|t| !used[i + 2] && words::digits(&t.norm).is_some())
            {
                Some((vec![words::digits(&tokens[i + 2].norm).unwrap_or(0)], 3))
            } else {
                if let Some(k) = words::cardinal(w) {
                    if next.is_some_and(|t| is_house_noun(&t.norm)) && count.is_none() {
                        count = Some((k, i));
                        used[i] = true;
                        used[i + 1] = true;
                        i += 2;
                        continue;
                    }
                }
                None
            };
        match found {
            Some((houses, len)) => {
                let end = tokens[i + len - 1].span.end;
                let mut list = Vec::with_capacity(houses.len());
                for h in houses {
                    if h == 0 || h > u64::from(n) {
                        return Err(Unread {
                            kind: ErrorKind::OutOfRange,
                            message: format!("house {h} does not exist: the houses are 1 to {n}"),
                            span: span.start..end,
                            expected: format!("a house from 1 to {n}"),
                            notes: Vec::new(),
                        });
                    }
                    list.push(h as u8);
                }
                for u in &mut used[i..i + len] {
                    *u = true;
                }
                refs.push(HouseRef { houses: list });
                i += len;
            }
            None => i += 1,
        }
    }
    // The phrasing words, among the tokens left, in one pass.
    let follows = |i: usize, after: &[&str]| {
        tokens
            .get(i + 1)
            .is_some_and(|t| after.contains(&t.norm.as_str()))
    };
    let mut negated = false;
    let mut adjacent = false;
    // The last direction word decides; `directions` counts them.
    let mut direction = 0i32;
    let mut directions = 0;
    let mut immediate = false;
    let mut between = false;
    let mut same = false;
    let mut different = false;
    let mut ordered = false;
    for (i, t) in tokens.iter().enumerate() {
        if used[i] {
            continue;
        }
        let mut d = 0;
        match t.norm.as_str() {
            "not" | "never" | "neither" | "nor" => negated = true,
            "next" => adjacent |= follows(i, &["to", "door"]),
            "adjacent" | "beside" | "neighbor" | "neighbors" | "neighbour" | "neighbours"
            | "neighboring" | "neighbouring" => adjacent = true,
            "left" | "before" | "lower" | "below" | "earlier" | "precedes" | "preceding" => d = -1,
            // `right` before `next`, `after`, `before`, `beside` or `by`
            // intensifies (`right next to`); it is a direction otherwise.
            "right" if follows(i, &["next", "after", "before", "beside", "by"]) => {
                immediate = true;
            }
            "right" | "after" | "higher" | "above" | "later" | "follows" | "following" => d = 1,
            "directly" | "immediately" | "just" => immediate = true,
            "between" => between = true,
            "same" => same = true,
            "different" | "differ" => different = true,
            "order" | "respectively" => ordered = true,
            _ => {}
        }
        if d != 0 {
            direction = d;
            directions += 1;
        }
    }

    let unread = |message: String, expected: &str| {
        let mut notes = Vec::new();
        if !values.is_empty() {
            let found: Vec<String> = values
                .iter()
                .map(|&v| format!("`{}` ({})", vocab.value_name(v), vocab.names[v.group].name))
                .collect();
            notes.push(format!("note: values found: {}", found.join(", ")));
        }
        for r in &refs {
            let list: Vec<String> = r.houses.iter().map(u8::to_string).collect();
            notes.push(format!("note: house found: {}", list.join(" or ")));
        }
        let unplaced: Vec<String> = (0..tokens.len())
            .filter(|&i| !used[i])
            .filter(|&i| {
                let x = tokens[i].norm.as_str();
                !PHRASING_WORDS.contains(&x) && !is_house_noun(x)
            })
            .map(|i| {
                format!(
                    "`{}`",
                    &sentence[tokens[i].span.start - base..tokens[i].span.end - base]
                )
            })
            .collect();
        if !unplaced.is_empty() {
            notes.push(format!("note: words not placed: {}", unplaced.join(" ")));
        }
        Unread {
            kind: ErrorKind::UnreadableSentence,
            message,
            span: whole.clone(),
            expected: expected.to_owned(),
            notes,
        }
    };
    let relation_words = adjacent || directions > 0 || between || same || different;

    match (values.as_slice(), refs.as_slice()) {
        // `There are five houses.`
        ([], []) if count.is_some() && !relation_words => {
            let (k, _) = count.unwrap_or_default();
            if k != u64::from(n) {
                return Err(Unread {
                    kind: ErrorKind::OutOfRange,
                    message: format!("the sentence counts {k} houses; the puzzle has {n}"),
                    span: whole.clone(),
                    expected: format!("{n} houses"),
                    notes: Vec::new(),
                });
            }
            Ok(Reading::Frame)
        }
        ([a, b], []) => {
            let (a, b) = (*a, *b);
            if between {
                let Some((k, _)) = count else {
                    return Err(unread(
                        "`between` needs a count of houses (`one house between`) or three values"
                            .to_owned(),
                        "`there is one house between X and Y`",
                    ));
                };
                let d = k + 1;
                if d >= u64::from(n) {
                    return Err(Unread {
                        kind: ErrorKind::OutOfRange,
                        message: format!("{k} houses between two others need more than {n} houses"),
                        span: whole.clone(),
                        expected: format!("at most {} houses between", n.saturating_sub(2)),
                        notes: Vec::new(),
                    });
                }
                let distance = d as u8;
                return Ok(Reading::Relations(vec![if negated {
                    Relation::NotDistance { a, b, distance }
                } else {
                    Relation::Distance { a, b, distance }
                }]));
            }
            if adjacent && n >= 2 {
                return Ok(Reading::Relations(vec![if negated {
                    Relation::NotDistance { a, b, distance: 1 }
                } else {
                    Relation::Distance { a, b, distance: 1 }
                }]));
            }
            if directions > 0 {
                if immediate {
                    if negated {
                        return Err(unread(
                            "`not directly left/right of` has no relation of its own".to_owned(),
                            "a clue without `not`, or `not next to`",
                        ));
                    }
                    // `a is directly left of b`: pos(b) = pos(a) + 1.
                    let relation = if direction < 0 {
                        Relation::Same {
                            a: b,
                            b: a,
                            offset: 1,
                        }
                    } else {
                        Relation::Same { a, b, offset: 1 }
                    };
                    return Ok(Reading::Relations(vec![relation]));
                }
                let op = match (direction < 0, negated) {
                    (true, false) => Cmp::Lt,
                    (true, true) => Cmp::Ge,
                    (false, false) => Cmp::Gt,
                    (false, true) => Cmp::Le,
                };
                return Ok(Reading::Relations(vec![Relation::Compare {
                    left: Operand::Value(a),
                    op,
                    right: Operand::Value(b),
                }]));
            }
            if negated || (different && !same) {
                return Ok(Reading::Relations(vec![Relation::Differ { a, b }]));
            }
            Ok(Reading::Relations(vec![Relation::Same { a, b, offset: 0 }]))
        }
        ([a], [r]) if !adjacent && !between && directions == 0 => {
            let a = *a;
            Ok(Reading::Relations(match (&r.houses[..], negated) {
                ([h], false) => vec![Relation::At { a, house: *h }],
                (hs, false) => vec![Relation::In {
                    a,
                    houses: sorted(hs),
                }],
                (hs, true) => sorted(hs)
                    .into_iter()
                    .map(|house| Relation::NotAt { a, house })
                    .collect(),
            }))
        }
        // `either the top or the bottom floor`: two references, one set.
        ([a], rs) if rs.len() > 1 && !adjacent && !between && directions == 0 => {
            let a = *a;
            let all: Vec<u8> = rs.iter().flat_map(|r| r.houses.iter().copied()).collect();
            let hs = sorted(&all);
            Ok(Reading::Relations(if negated {
                hs.into_iter()
                    .map(|house| Relation::NotAt { a, house })
                    .collect()
            } else if let [h] = hs[..] {
                vec![Relation::At { a, house: h }]
            } else {
                vec![Relation::In { a, houses: hs }]
            }))
        }
        // `a is somewhere left of the third house`.
        ([a], [r]) if directions > 0 && !adjacent && !between && r.houses.len() == 1 => {
            let (a, h) = (*a, r.houses[0]);
            if immediate {
                let target = i64::from(h) + i64::from(direction);
                if !(1..=i64::from(n)).contains(&target) || negated {
                    return Err(unread(
                        "no house is there".to_owned(),
                        "a house inside the street",
                    ));
                }
                return Ok(Reading::Relations(vec![Relation::At {
                    a,
                    house: target as u8,
                }]));
            }
            let op = match (direction < 0, negated) {
                (true, false) => Cmp::Lt,
                (true, true) => Cmp::Ge,
                (false, false) => Cmp::Gt,
                (false, true) => Cmp::Le,
            };
            Ok(Reading::Relations(vec![Relation::Compare {
                left: Operand::Value(a),
                op,
                right: Operand::House(h),
            }]))
        }
        ([mid, low, high], []) if between && !negated => {
            // `x is somewhere between a and b in that order`; without an
            // order the sentence allows both and no single relation says it.
            if !ordered {
                return Err(unread(
                    "`between` two values without an order has no relation of its own".to_owned(),
                    "`X is somewhere between A and B, in that order`",
                ));
            }
            Ok(Reading::Relations(vec![Relation::Between {
                low: Operand::Value(*low),
                mid: Operand::Value(*mid),
                high: Operand::Value(*high),
            }]))
        }
        // A sentence naming a whole group, or several of its values, with no
        // relation: it restates that they differ.
        (vs, [])
            if vs.len() >= 3
                && !(adjacent || directions > 0 || between || same)
                && vs.iter().all(|v| v.group == vs[0].group) =>
        {
            Ok(Reading::Frame)
        }
        // `One of the men drinks water.`
        ([_], []) if !relation_words && !negated && starts_with_one_of(&tokens) => {
            Ok(Reading::Frame)
        }
        ([], _) => Err(unread(
            "no value of the puzzle is named in this sentence".to_owned(),
            "a clue naming one or two values",
        )),
        ([_], []) => Err(unread(
            "one value and nothing to relate it to".to_owned(),
            "a second value or a house",
        )),
        _ => Err(unread(
            format!(
                "cannot read {} value{} and {} house reference{} as one clue",
                values.len(),
                if values.len() == 1 { "" } else { "s" },
                refs.len(),
                if refs.len() == 1 { "" } else { "s" }
            ),
            "a clue relating two values, or a value and a house",
        )),
    }
}

fn starts_with_one_of(tokens: &[Token]) -> bool {
    matches!(tokens, [a, b, ..] if a.norm == "one" && b.norm == "of")
}

fn sorted(houses: &[u8]) -> Vec<u8> {
    let mut v = houses.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn description_stop_words_are_sorted_for_binary_search() {
        assert!(DESCRIPTION_STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        for w in DESCRIPTION_STOP_WORDS {
            assert!(is_description_stop_word(w), "{w}");
        }
        assert!(!is_description_stop_word("color"));
    }
}
