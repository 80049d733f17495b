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

use arrayvec::ArrayVec;
use hashbrown::HashMap;

use super::words::{self, Kw, Lexicon, Token, WordId};
use crate::puzzle::ast::{Cmp, Group, Operand, Relation, ValueRef};
use crate::puzzle::diagnostic::ErrorKind;

/// What the reader knows of a puzzle's frame: its houses and the words of
/// its values and groups.
#[derive(Debug)]
pub(crate) struct Vocabulary<'g> {
    houses: u8,
    /// The strings of the puzzle's values, groups and sentences read so far.
    lexicon: Lexicon,
    /// The values' words (as keys) in a trie: a walk along a sentence's
    /// keys finds the longest value from any word in time proportional to
    /// the value's length.
    trie: Trie,
    /// Per group: the keys of the words that describe it (its name and its
    /// description line), without the words every description uses.
    cues: PerGroup<WordId>,
    /// Per group: the keys of its name's words as [`split_name`] cuts them
    /// (`PhoneModel` is `phone`, `model`), for questions that name a group.
    name_words: PerGroup<WordId>,
    /// The group of people's names, which takes a bare name no cue claims.
    person_names: Option<usize>,
    /// Per group: its name and values as written, for messages.
    names: &'g [Group],
    /// The buffers of the sentence being read: one set for all sentences.
    scratch: Scratch,
}

/// A list per group, the lists one after the other in one array
/// (building a vocabulary is part of reading every puzzle: one allocation,
/// not one a group). Lists are built in group order: items pushed, then
/// [`PerGroup::close`] ends the group's list.
#[derive(Debug)]
pub(crate) struct PerGroup<T> {
    items: Vec<T>,
    /// `ends[g]`: where group `g`'s list ends in `items`; it starts where
    /// the previous one ends.
    ends: Vec<usize>,
}

impl<T> Default for PerGroup<T> {
    fn default() -> PerGroup<T> {
        PerGroup {
            items: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl<T: Clone> PerGroup<T> {
    /// Room for `groups` lists of about `each` items.
    pub(crate) fn with_capacity(groups: usize, each: usize) -> PerGroup<T> {
        PerGroup {
            items: Vec::with_capacity(each * groups),
            ends: Vec::with_capacity(groups),
        }
    }

    /// The list being built: the items after the last closed list.
    fn open(&self) -> &[T] {
        &self.items[self.ends.last().copied().unwrap_or(0)..]
    }

    /// Adds `item` to the list being built.
    fn push(&mut self, item: T) {
        self.items.push(item);
    }

    /// Adds `items` to the list being built.
    pub(crate) fn extend_from_slice(&mut self, items: &[T]) {
        self.items.extend_from_slice(items);
    }

    /// Ends the list being built: it is the next group's.
    pub(crate) fn close(&mut self) {
        self.ends.push(self.items.len());
    }

    /// Group `g`'s list, if it has one.
    fn try_get(&self, g: usize) -> Option<&[T]> {
        let end = *self.ends.get(g)?;
        let start = g.checked_sub(1).map_or(0, |p| self.ends[p]);
        Some(&self.items[start..end])
    }

    /// Group `g`'s list (every group has one).
    fn get(&self, g: usize) -> &[T] {
        let start = if g == 0 { 0 } else { self.ends[g - 1] };
        &self.items[start..self.ends[g]]
    }
}

/// The values' words in a trie: node 0 is the root, `roots[key id]` is the
/// root's child along that key (0 for none: the root is no one's child),
/// `edges` maps (node, key id) to the child for the other nodes, and the
/// values whose words end at a node (several: a name in two groups) are
/// `values[offsets[node]..offsets[node + 1]]`, in the order they were
/// inserted. One map for all edges and one list for all values rather than
/// one a node: building the vocabulary is part of reading every puzzle.
/// Every word of a sentence steps from the root, so that step is an index
/// (key ids are small and dense: the lexicon's); most values are one word,
/// so `edges` is mostly empty.
#[derive(Debug)]
struct Trie {
    roots: Vec<u32>,
    edges: HashMap<(u32, WordId), u32>,
    /// The number of nodes, the root included.
    nodes: u32,
    /// While building: (node, value) in insertion order; after
    /// [`Trie::finish`], sorted by node.
    ends: Vec<(u32, ValueRef)>,
    offsets: Vec<u32>,
    values: Vec<ValueRef>,
}

impl Trie {
    fn with_capacity(words: usize) -> Trie {
        Trie {
            roots: Vec::new(),
            edges: HashMap::new(),
            nodes: 1,
            ends: Vec::with_capacity(words),
            offsets: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The child of `node` along `key`.
    fn child(&self, node: u32, key: WordId) -> Option<u32> {
        if node == 0 {
            return self.roots.get(key as usize).copied().filter(|&c| c != 0);
        }
        self.edges.get(&(node, key)).copied()
    }

    fn insert(&mut self, keys: &[WordId], value: ValueRef) {
        let mut node = 0;
        for &k in keys {
            node = match self.child(node, k) {
                Some(child) => child,
                None => {
                    let child = self.nodes;
                    self.nodes += 1;
                    if node == 0 {
                        let k = k as usize;
                        if self.roots.len() <= k {
                            self.roots.resize(k + 1, 0);
                        }
                        self.roots[k] = child;
                    } else {
                        self.edges.insert((node, k), child);
                    }
                    child
                }
            };
        }
        self.ends.push((node, value));
    }

    /// Lays the values out by node, each node's values once, in the order
    /// first inserted.
    fn finish(&mut self) {
        // A stable sort keeps each node's values in insertion order.
        self.ends.sort_by_key(|&(node, _)| node);
        self.offsets = Vec::with_capacity(self.nodes as usize + 1);
        self.values = Vec::with_capacity(self.ends.len());
        let mut e = 0;
        for node in 0..self.nodes {
            self.offsets.push(self.values.len() as u32);
            let first = self.values.len();
            while e < self.ends.len() && self.ends[e].0 == node {
                let v = self.ends[e].1;
                if !self.values[first..].contains(&v) {
                    self.values.push(v);
                }
                e += 1;
            }
        }
        self.offsets.push(self.values.len() as u32);
    }

    /// The values whose words end at `node`.
    fn values_at(&self, node: u32) -> &[ValueRef] {
        let n = node as usize;
        &self.values[self.offsets[n] as usize..self.offsets[n + 1] as usize]
    }
}

impl<'g> Vocabulary<'g> {
    /// The vocabulary of a puzzle's houses and groups, for reading
    /// sentences alone.
    pub(crate) fn new(houses: u8, groups: &'g [Group]) -> Vocabulary<'g> {
        Vocabulary::with_lexicon(
            houses,
            groups,
            &PerGroup::default(),
            Lexicon::new(),
            Vec::new(),
        )
    }

    /// The vocabulary of a puzzle's groups; `descriptions`, if given, holds
    /// the text that introduced each group (`People have unique hair
    /// colors`) cut into tokens by `lexicon`.
    /// `lexicon` may hold strings already (the frame's words): it goes on
    /// to hold the sentences' words; `tokens` is a buffer to cut them into.
    pub(crate) fn with_lexicon(
        houses: u8,
        groups: &'g [Group],
        descriptions: &PerGroup<Token>,
        mut lexicon: Lexicon,
        mut tokens: Vec<Token>,
    ) -> Vocabulary<'g> {
        // Per group: the keys of its name's words (`PhoneModel` is `phone`,
        // `model`).
        let mut name_keys = PerGroup::with_capacity(groups.len(), 4);
        let mut cues = PerGroup::with_capacity(groups.len(), 4);
        let mut name_words = PerGroup::with_capacity(groups.len(), 4);
        // The keys of the words that tell animals from pets (below).
        let (animal, pet) = (words::key("animal"), words::key("pet"));
        let mut word = String::new();
        for (g, group) in groups.iter().enumerate() {
            let add = |lexicon: &mut Lexicon, t: &Token, cues: &mut PerGroup<WordId>| {
                let stop = lexicon.is_stop_word(t.word);
                if !stop && !cues.open().contains(&t.key) {
                    cues.push(t.key);
                }
            };
            for_each_name_word(&group.name, &mut word, |w| {
                lexicon.tokens(w, 0, &mut tokens);
                for t in &tokens {
                    name_keys.push(t.key);
                    add(&mut lexicon, t, &mut cues);
                }
                // The key of the whole word: its token's, if it is one.
                name_words.push(match tokens[..] {
                    [ref t] if t.span.len() == w.len() => t.key,
                    _ => lexicon.intern(&words::key(w)),
                });
            });
            for t in descriptions.try_get(g).unwrap_or_default() {
                add(&mut lexicon, t, &mut cues);
            }
            // Generators that list both the animals people keep and their
            // pets, with the same values, tell them apart by phrasing alone:
            // ZebraLogic writes `the cat lover`, `the bird keeper`, `the fish
            // enthusiast` for the animals and `has a cat`, `owns a dog`, `a
            // pet bird` for the pets.
            let has = |lexicon: &Lexicon, keys: &[WordId], k: &str| {
                keys.iter().any(|&x| lexicon.text(x) == k)
            };
            let extra: &[&str] = if has(&lexicon, cues.open(), &animal) {
                &["lover", "keeper", "enthusiast", "owner"]
            } else if has(&lexicon, cues.open(), &pet) {
                &["has", "owns", "own"]
            } else {
                &[]
            };
            for w in extra {
                let k = lexicon.intern(&words::key(w));
                if !cues.open().contains(&k) {
                    cues.push(k);
                }
            }
            cues.close();
            name_keys.close();
            name_words.close();
        }
        let person_names = (0..groups.len()).find(|&g| {
            // ASCII case is the whole of Unicode's here: no other character
            // lowercases to a letter of these words.
            let name = &groups[g].name;
            matches!(cues.get(g), [k] if lexicon.text(*k) == "name")
                || ["name", "names", "first name"]
                    .iter()
                    .any(|n| name.eq_ignore_ascii_case(n))
        });
        let words: usize = groups.iter().map(|g| 2 * g.values.len()).sum();
        let mut trie = Trie::with_capacity(words);
        let mut keys: Vec<WordId> = Vec::with_capacity(8);
        for (g, group) in groups.iter().enumerate() {
            let prefix = name_keys.get(g);
            for (v, value) in group.values.iter().enumerate() {
                let value_ref = ValueRef { group: g, value: v };
                lexicon.tokens(value, 0, &mut tokens);
                keys.clear();
                keys.extend(tokens.iter().map(|t| t.key));
                if keys.is_empty() {
                    continue;
                }
                // A value renamed for uniqueness (`child alice`, `child/alice`
                // in group `child`) is also mentioned without the group's words.
                if !prefix.is_empty() && keys.len() > prefix.len() && keys.starts_with(prefix) {
                    trie.insert(&keys[prefix.len()..], value_ref);
                }
                trie.insert(&keys, value_ref);
            }
        }
        trie.finish();
        Vocabulary {
            houses,
            lexicon,
            trie,
            cues,
            name_words,
            person_names,
            names: groups,
            scratch: Scratch {
                tokens,
                mentions: Vec::with_capacity(8),
                values: Vec::with_capacity(8),
                used: Vec::with_capacity(64),
                refs: Vec::with_capacity(4),
            },
        }
    }

    /// The strings of the puzzle's words.
    pub(crate) fn lexicon(&self) -> &Lexicon {
        &self.lexicon
    }

    /// Cuts `text` into the vocabulary's token buffer and runs `read` on
    /// the tokens; spans are offset by `base`.
    pub(crate) fn with_tokens<R>(
        &mut self,
        text: &str,
        base: usize,
        read: impl FnOnce(&Vocabulary<'g>, &[Token]) -> R,
    ) -> R {
        let mut tokens = std::mem::take(&mut self.scratch.tokens);
        self.lexicon.tokens(text, base, &mut tokens);
        let r = read(self, &tokens);
        self.scratch.tokens = tokens;
        r
    }

    /// The number of houses.
    pub(crate) fn houses(&self) -> u8 {
        self.houses
    }

    /// The keys of group `g`'s name's words.
    pub(crate) fn name_words(&self, g: usize) -> &[WordId] {
        self.name_words.get(g)
    }

    /// The cue words of group `g`.
    pub(crate) fn cues(&self, g: usize) -> &[WordId] {
        self.cues.get(g)
    }

    /// The value mentions in `tokens` into `out` (cleared first), left to
    /// right, longest match first.
    pub(crate) fn mentions(&self, tokens: &[Token], out: &mut Vec<Mention>) {
        out.clear();
        let mut i = 0;
        while i < tokens.len() {
            // Most words start no value: one look at the root's children.
            let Some(mut node) = self.trie.child(0, tokens[i].key) else {
                i += 1;
                continue;
            };
            // The longest value starting at word `i`.
            let mut best: Option<(usize, u32)> = None;
            let mut len = 1;
            loop {
                if !self.trie.values_at(node).is_empty() {
                    best = Some((len, node));
                }
                match tokens
                    .get(i + len)
                    .and_then(|t| self.trie.child(node, t.key))
                {
                    Some(child) => {
                        node = child;
                        len += 1;
                    }
                    None => break,
                }
            }
            match best {
                Some((len, node)) => {
                    out.push(Mention {
                        first: i,
                        end: i + len,
                        node,
                        value: None,
                    });
                    i += len;
                }
                None => i += 1,
            }
        }
    }

    /// The values a mention's words name (several: a name in two groups).
    pub(crate) fn candidates(&self, m: &Mention) -> &[ValueRef] {
        self.trie.values_at(m.node)
    }

    /// Picks the value of each mention with several candidates, by the cue
    /// words before it (back to the previous mention).
    fn resolve(&self, tokens: &[Token], mentions: &mut [Mention]) -> Result<(), Unread> {
        let mut from = 0;
        for k in 0..mentions.len() {
            let next_first = mentions.get(k + 1).map(|n| n.first);
            let m = &mut mentions[k];
            let candidates = self.trie.values_at(m.node);
            let context = &tokens[from..m.first];
            from = m.end;
            if let [only] = candidates[..] {
                m.value = Some(only);
                continue;
            }
            let groups: Vec<usize> = candidates.iter().map(|v| v.group).collect();
            // The words a group alone among the candidates is described by.
            let distinct: Vec<Vec<WordId>> = groups
                .iter()
                .map(|&g| {
                    self.cues
                        .get(g)
                        .iter()
                        .copied()
                        .filter(|c| {
                            groups
                                .iter()
                                .all(|&h| h == g || !self.cues.get(h).contains(c))
                        })
                        .collect()
                })
                .collect();
            let claims = |t: &Token| -> Vec<usize> {
                (0..groups.len())
                    .filter(|&i| distinct[i].contains(&t.key))
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
                Some(i) => m.value = Some(candidates[i]),
                None => {
                    let span = tokens[m.first].span.start..tokens[m.end - 1].span.end;
                    let listed: Vec<String> = candidates
                        .iter()
                        .map(|v| format!("`{}`", self.names[v.group].name))
                        .collect();
                    return Err(Unread {
                        kind: ErrorKind::AmbiguousName,
                        message: format!(
                            "`{}` is a value of {}: the words around it do not say which",
                            self.value_name(candidates[0]),
                            join_or(&listed)
                        ),
                        span,
                        expected: "words that name the group, such as the group's own".to_owned(),
                        notes: vec![format!(
                            "help: say which, as the list does: {}",
                            candidates
                                .iter()
                                .map(|v| format!(
                                    "`{}`'s words ({})",
                                    self.names[v.group].name,
                                    self.cue_text(v.group)
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

    /// The cue words of group `g`, for messages.
    fn cue_text(&self, g: usize) -> String {
        let cues: Vec<&str> = self
            .cues
            .get(g)
            .iter()
            .map(|&k| self.lexicon.text(k))
            .collect();
        cues.join(" ")
    }

    fn value_name(&self, v: ValueRef) -> &str {
        &self.names[v.group].values[v.value]
    }
}

/// `HairColor`, `hair_color`, `hair color` -> `hair`, `color`.
pub(crate) fn split_name(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_name_word(name, &mut String::new(), |w| out.push(w.to_owned()));
    out
}

/// Runs `f` on each word of `name` as [`split_name`] cuts it, in lower
/// case, built in `word` (a buffer: no allocation a word).
pub(crate) fn for_each_name_word(name: &str, word: &mut String, mut f: impl FnMut(&str)) {
    word.clear();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                f(word);
                word.clear();
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            f(word);
            word.clear();
        }
        prev_lower = c.is_lowercase();
        if c.is_ascii() {
            word.push(c.to_ascii_lowercase());
        } else {
            word.extend(c.to_lowercase());
        }
    }
    if !word.is_empty() {
        f(word);
    }
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A value mention: tokens `first..end`, the trie node where those words
/// end (its values are the [`Vocabulary::candidates`]), and (once
/// resolved) the value meant.
#[derive(Clone, Debug)]
pub(crate) struct Mention {
    pub(crate) first: usize,
    pub(crate) end: usize,
    node: u32,
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
    /// One constraint (nearly every sentence): no list to allocate.
    One(Relation),
    /// Several constraints (`neither the top nor the bottom floor`).
    Several(Vec<Relation>),
    /// It restates the frame: no constraint.
    Frame,
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

/// A house reference found in a sentence: one house, or the two ends.
#[derive(Clone, Debug)]
struct HouseRef {
    houses: ArrayVec<u8, 2>,
}

/// The buffers [`read`] fills for each sentence, kept from one sentence to
/// the next so that reading a clue allocates only what it returns.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    tokens: Vec<Token>,
    mentions: Vec<Mention>,
    values: Vec<ValueRef>,
    used: Vec<bool>,
    refs: Vec<HouseRef>,
}

/// Reads one sentence. `sentence` starts at byte `base` of the text that
/// spans refer to.
pub(crate) fn read(
    vocab: &mut Vocabulary<'_>,
    sentence: &str,
    base: usize,
) -> Result<Reading, Unread> {
    let mut scratch = std::mem::take(&mut vocab.scratch);
    vocab.lexicon.tokens(sentence, base, &mut scratch.tokens);
    let reading = read_tokens(vocab, &mut scratch, sentence, base);
    vocab.scratch = scratch;
    reading
}

/// [`read`] with the sentence cut into `scratch.tokens`.
fn read_tokens(
    vocab: &Vocabulary<'_>,
    scratch: &mut Scratch,
    sentence: &str,
    base: usize,
) -> Result<Reading, Unread> {
    let Scratch {
        tokens,
        mentions,
        values,
        used,
        refs,
    } = scratch;
    let tokens = &tokens[..];
    let lex = vocab.lexicon();
    let whole = base..base + sentence.trim_end().len();
    vocab.mentions(tokens, mentions);
    vocab.resolve(tokens, mentions)?;
    values.clear();
    values.extend(mentions.iter().filter_map(|m| m.value));
    used.clear();
    used.resize(tokens.len(), false);
    for m in mentions.iter() {
        used[m.first..m.end].iter_mut().for_each(|u| *u = true);
    }
    let values = &values[..];
    let n = vocab.houses;
    // House references and counts, among the words no value claimed.
    refs.clear();
    let mut count: Option<(u64, usize)> = None;
    let free = |i: usize, used: &[bool]| i < tokens.len() && !used[i];
    let noun_ahead = |i: usize, used: &[bool]| {
        (i + 1..(i + 8).min(tokens.len()))
            .take_while(|&j| !used[j])
            .any(|j| tokens[j].kw.is_house_noun())
    };
    let mut i = 0;
    while i < tokens.len() {
        let w = tokens[i].kw;
        // Only a number or a word of places (`middle`, `end`, `house`)
        // starts a reference, among the words no value took.
        if used[i]
            || (w == Kw::Other
                && lex.cardinal(tokens[i].word).is_none()
                && lex.ordinal(tokens[i].word).is_none())
        {
            i += 1;
            continue;
        }
        let span = tokens[i].span.clone();
        let next = tokens.get(i + 1).filter(|_| free(i + 1, used));
        let one = |k: u64| ArrayVec::from_iter([k]);
        let found: Option<(ArrayVec<u64, 2>, usize)> =
            if let Some(k) = lex.ordinal(tokens[i].word).filter(|_| noun_ahead(i, used)) {
                Some((one(k), 1))
            } else if w == Kw::Middle && noun_ahead(i, used) {
                if n % 2 == 0 {
                    return Err(Unread {
                        kind: ErrorKind::OutOfRange,
                        message: format!("there is no middle house among {n} houses"),
                        span,
                        expected: "a house number".to_owned(),
                        notes: Vec::new(),
                    });
                }
                Some((one(u64::from(n).div_ceil(2)), 1))
            } else if w == Kw::Last && noun_ahead(i, used) {
                Some((one(u64::from(n)), 1))
            } else if w == Kw::Bottom && noun_ahead(i, used) {
                Some((one(1), 1))
            } else if w == Kw::Far && next.is_some_and(|t| t.kw == Kw::Left) {
                Some((one(1), 2))
            } else if w == Kw::Far && next.is_some_and(|t| t.kw == Kw::Right) {
                Some((one(u64::from(n)), 2))
            } else if w == Kw::End {
                Some((ArrayVec::from([1, u64::from(n)]), 1))
            } else if let Some(k) = next
                .and_then(|t| lex.digits(t.word))
                .filter(|_| w.is_house_noun())
            {
                Some((one(k), 2))
            } else if let Some(k) = tokens
                .get(i + 2)
                .filter(|t| {
                    w.is_house_noun()
                        && next.is_some_and(|n| n.kw == Kw::Number)
                        && !used[i + 2]
                        && lex.digits(t.word).is_some()
                })
                .and_then(|t| lex.digits(t.word))
            {
                Some((one(k), 3))
            } else {
                if let Some(k) = lex.cardinal(tokens[i].word) {
                    if next.is_some_and(|t| t.kw.is_house_noun()) && count.is_none() {
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
                let mut list = ArrayVec::new();
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
    let (used, refs) = (&used[..], &refs[..]);
    // The phrasing words, among the tokens left, in one pass.
    let follows = |i: usize, after: &[Kw]| tokens.get(i + 1).is_some_and(|t| after.contains(&t.kw));
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
        match t.kw {
            Kw::Not => negated = true,
            Kw::Next => adjacent |= follows(i, &[Kw::To, Kw::Door]),
            Kw::Adjacent | Kw::Beside => adjacent = true,
            Kw::Left | Kw::Before | Kw::Leftward => d = -1,
            // `right` before `next`, `after`, `before`, `beside` or `by`
            // intensifies (`right next to`); it is a direction otherwise.
            Kw::Right if follows(i, &[Kw::Next, Kw::After, Kw::Before, Kw::Beside, Kw::By]) => {
                immediate = true;
            }
            Kw::Right | Kw::After | Kw::Rightward => d = 1,
            Kw::Directly => immediate = true,
            Kw::Between => between = true,
            Kw::Same => same = true,
            Kw::Different => different = true,
            Kw::Order => ordered = true,
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
        for r in refs {
            let list: Vec<String> = r.houses.iter().map(u8::to_string).collect();
            notes.push(format!("note: house found: {}", list.join(" or ")));
        }
        let unplaced: Vec<String> = (0..tokens.len())
            .filter(|&i| !used[i])
            .filter(|&i| {
                let x = lex.text(tokens[i].word);
                !PHRASING_WORDS.contains(&x) && !tokens[i].kw.is_house_noun()
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

    match (values, refs) {
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
                return Ok(Reading::One(if negated {
                    Relation::NotDistance { a, b, distance }
                } else {
                    Relation::Distance { a, b, distance }
                }));
            }
            if adjacent && n >= 2 {
                return Ok(Reading::One(if negated {
                    Relation::NotDistance { a, b, distance: 1 }
                } else {
                    Relation::Distance { a, b, distance: 1 }
                }));
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
                    return Ok(Reading::One(relation));
                }
                let op = match (direction < 0, negated) {
                    (true, false) => Cmp::Lt,
                    (true, true) => Cmp::Ge,
                    (false, false) => Cmp::Gt,
                    (false, true) => Cmp::Le,
                };
                return Ok(Reading::One(Relation::Compare {
                    left: Operand::Value(a),
                    op,
                    right: Operand::Value(b),
                }));
            }
            if negated || (different && !same) {
                return Ok(Reading::One(Relation::Differ { a, b }));
            }
            Ok(Reading::One(Relation::Same { a, b, offset: 0 }))
        }
        ([a], [r]) if !adjacent && !between && directions == 0 => {
            let a = *a;
            Ok(match (&r.houses[..], negated) {
                ([h], false) => Reading::One(Relation::At { a, house: *h }),
                (hs, false) => Reading::One(Relation::In {
                    a,
                    houses: sorted(hs),
                }),
                (hs, true) => Reading::Several(
                    sorted(hs)
                        .into_iter()
                        .map(|house| Relation::NotAt { a, house })
                        .collect(),
                ),
            })
        }
        // `either the top or the bottom floor`: two references, one set.
        ([a], rs) if rs.len() > 1 && !adjacent && !between && directions == 0 => {
            let a = *a;
            let all: Vec<u8> = rs.iter().flat_map(|r| r.houses.iter().copied()).collect();
            let hs = sorted(&all);
            Ok(Reading::Several(if negated {
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
                return Ok(Reading::One(Relation::At {
                    a,
                    house: target as u8,
                }));
            }
            let op = match (direction < 0, negated) {
                (true, false) => Cmp::Lt,
                (true, true) => Cmp::Ge,
                (false, false) => Cmp::Gt,
                (false, true) => Cmp::Le,
            };
            Ok(Reading::One(Relation::Compare {
                left: Operand::Value(a),
                op,
                right: Operand::House(h),
            }))
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
            Ok(Reading::One(Relation::Between {
                low: Operand::Value(*low),
                mid: Operand::Value(*mid),
                high: Operand::Value(*high),
            }))
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
        ([_], []) if !relation_words && !negated && starts_with_one_of(tokens) => {
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
    matches!(tokens, [a, b, ..] if a.kw == Kw::One && b.kw == Kw::Of)
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
    fn names_split_into_their_words_in_one_buffer() {
        // The cuts `split_name`'s documentation gives, and a name in
        // Unicode; the buffer is reused from one name to the next.
        let mut word = String::new();
        for (name, expected) in [
            ("HairColor", &["hair", "color"][..]),
            ("hair_color", &["hair", "color"]),
            ("hair color", &["hair", "color"]),
            ("PhoneModel2", &["phone", "model2"]),
            ("ÉcoleType", &["école", "type"]),
            ("__", &[]),
        ] {
            let mut words = Vec::new();
            for_each_name_word(name, &mut word, |w| words.push(w.to_owned()));
            assert_eq!(words, expected, "{name}");
            assert_eq!(split_name(name), expected, "{name}");
        }
    }

    #[test]
    fn per_group_lists_keep_each_group_apart() {
        let mut lists = PerGroup::with_capacity(3, 2);
        lists.extend_from_slice(&[1, 2]);
        assert_eq!(lists.open(), [1, 2]);
        lists.close();
        // An empty list between two others.
        lists.close();
        lists.push(7);
        assert_eq!(lists.open(), [7]);
        lists.close();
        assert_eq!(lists.get(0), [1, 2]);
        assert!(lists.get(1).is_empty());
        assert_eq!(lists.get(2), [7]);
    }
}
