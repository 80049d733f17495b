//! Zebra puzzle generation: draw a solution, write true clues until the
//! solution is unique, then remove clues while it stays unique.
//!
//! The loop is the one puzzle generators run (ZebraLogic's, reasoning-gym's),
//! with bitfd as the uniqueness checker. The model is built once from a pool
//! of true clues, and clues are switched on and off in one reusable
//! [`Solver`] rather than rebuilt ([`Puzzle::minimized`]).
//!
//! # Determinism
//!
//! Everything random comes from one [`SplitMix64`] seeded by
//! [`GenerateOptions::seed`], consumed in a fixed order, so the same options
//! give the same puzzle, byte for byte, on every machine.
//!
//! # Clue kinds
//!
//! The kinds of `../shared/data/README.md`, each with an English sentence as
//! its label: same house, at, not at, next to, directly left, left of, one
//! house between, two houses between, not same house.

use std::fmt;

use crate::check::{Rating, SplitMix64};
use crate::model::Strength;
#[cfg(feature = "serde")]
use crate::puzzle::english::{self, Style};
use crate::puzzle::{Ask, Clue, Cmp, Group, Operand, Puzzle, Relation, Target, ValueRef};
use crate::search::{SearchOptions, Solver};

/// Built-in attribute groups: a group name and values, all value names
/// distinct across groups so that clues never need `group.value`.
const WORDS: &[(&str, &[&str])] = &[
    (
        "nationality",
        &[
            "Brit",
            "Swede",
            "Dane",
            "Norwegian",
            "German",
            "Japanese",
            "Spaniard",
            "Italian",
            "Greek",
            "Finn",
        ],
    ),
    (
        "color",
        &[
            "red", "green", "white", "yellow", "blue", "ivory", "purple", "orange", "black", "pink",
        ],
    ),
    (
        "pet",
        &[
            "dog", "cat", "bird", "horse", "fish", "zebra", "snail", "fox", "rabbit", "hamster",
        ],
    ),
    (
        "drink",
        &[
            "tea", "coffee", "milk", "beer", "water", "juice", "cocoa", "lemonade", "cider", "soda",
        ],
    ),
    (
        "hobby",
        &[
            "chess",
            "painting",
            "gardening",
            "cooking",
            "hiking",
            "knitting",
            "fishing",
            "dancing",
            "singing",
            "reading",
        ],
    ),
    (
        "fruit",
        &[
            "apple", "banana", "cherry", "grape", "kiwi", "mango", "melon", "pear", "plum", "lime",
        ],
    ),
    (
        "sport",
        &[
            "tennis", "soccer", "golf", "rugby", "hockey", "cricket", "boxing", "rowing", "skiing",
            "judo",
        ],
    ),
    (
        "car",
        &[
            "Ford", "Toyota", "Honda", "Volvo", "Fiat", "Audi", "Tesla", "Mazda", "Skoda", "Kia",
        ],
    ),
    (
        "flower",
        &[
            "rose", "tulip", "daisy", "lily", "orchid", "violet", "poppy", "iris", "lotus", "aster",
        ],
    ),
    (
        "job",
        &[
            "doctor", "teacher", "pilot", "baker", "lawyer", "farmer", "nurse", "chef", "artist",
            "judge",
        ],
    ),
    (
        "music",
        &[
            "jazz", "blues", "rock", "folk", "opera", "reggae", "techno", "punk", "swing", "gospel",
        ],
    ),
    (
        "food",
        &[
            "pizza", "pasta", "sushi", "tacos", "curry", "salad", "soup", "steak", "ramen", "bagel",
        ],
    ),
];

/// The all-different strength of the uniqueness checks while generating.
/// A verdict does not depend on the strength (only the search tree does),
/// and on generated 5x5 puzzles value strength with each-value-held checks
/// about twice as fast as domain strength for the same number of nodes.
/// The rating of the finished puzzle uses the default, domain strength.
const CHECK_STRENGTH: Strength = Strength::Value;

/// The most houses a generated puzzle may have (the word lists' length).
pub const MAX_HOUSES: u8 = 10;
/// The most groups a generated puzzle may have.
pub const MAX_GROUPS: usize = WORDS.len();

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenerateOptions {
    /// Houses, `2..=MAX_HOUSES`.
    pub houses: u8,
    /// Attribute groups, `1..=MAX_GROUPS`.
    pub groups: usize,
    /// The seed: the same options give the same puzzle.
    pub seed: u64,
}

/// Why a puzzle could not be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// Houses outside `2..=MAX_HOUSES`.
    Houses(u8),
    /// Groups outside `1..=MAX_GROUPS`.
    Groups(usize),
    /// [`Controls::kinds`] is empty.
    NoKinds,
    /// The allowed kinds ran out of new true clues before the solution was
    /// unique.
    Unpinnable,
    /// None of this many attempts rated in [`Controls::difficulty`].
    NoneInRange(u32),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Houses(n) => {
                write!(f, "{n} houses: generated puzzles have 2 to {MAX_HOUSES}")
            }
            GenerateError::Groups(n) => {
                write!(f, "{n} groups: generated puzzles have 1 to {MAX_GROUPS}")
            }
            GenerateError::NoKinds => f.write_str("no clue kind is allowed"),
            GenerateError::Unpinnable => f.write_str(
                "the allowed clue kinds cannot make the solution unique at this size; allow more kinds",
            ),
            GenerateError::NoneInRange(k) => write!(
                f,
                "none of {k} puzzles drawn rated in the difficulty range; widen it"
            ),
        }
    }
}

impl std::error::Error for GenerateError {}

impl GenerateOptions {
    /// The puzzle's name, `gen-HxG-seedN` (houses x groups, and the seed):
    /// the CLI names its files and English records with it.
    pub fn id(&self) -> String {
        format!("gen-{}x{}-seed{}", self.houses, self.groups, self.seed)
    }
}

/// A generated puzzle, its solution and its rating.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle: groups, a minimal set of clues, and two questions.
    pub puzzle: Puzzle,
    /// `solution[g][v]`: the house of value `v` of group `g`.
    pub solution: Vec<Vec<u8>>,
    /// Its difficulty ([`Solver::rate`]).
    pub rating: Rating,
    /// Clues drawn before minimizing.
    pub drawn: usize,
}

/// One generated puzzle as a JSON line of English text in `style`, for
/// benchmark builders (`bitfd generate --english` writes these): `id`,
/// `size` (`"H*G"`), `style` ([`Style::name`]), `text`, `solution`
/// (ZebraLogic's grid: a header `House` and the capitalized group names,
/// one row a house), `rating` (`nodes`, `failures`, `needsGuessing`),
/// `clues` and `seed`. The line ends in a newline.
///
/// `options` must be the ones `g` was generated with.
#[cfg(feature = "serde")]
pub fn english_line(g: &Generated, options: &GenerateOptions, style: Style) -> String {
    // Generated clues are all of kinds the writer phrases.
    let text = english::write(&g.puzzle, style).unwrap_or_default();
    let mut header = vec!["House".to_owned()];
    header.extend(
        g.puzzle
            .groups()
            .iter()
            .map(|group| english::capitalized(&group.name)),
    );
    let rows: Vec<Vec<String>> = (1..=options.houses)
        .map(|h| {
            let mut row = vec![h.to_string()];
            for (gi, group) in g.puzzle.groups().iter().enumerate() {
                let cell = (0..group.values.len())
                    .find(|&v| g.solution[gi][v] == h)
                    .map_or_else(String::new, |v| group.values[v].clone());
                row.push(cell);
            }
            row
        })
        .collect();
    let line = serde_json::json!({
        "id": options.id(),
        "size": format!("{}*{}", options.houses, options.groups),
        "style": style.name(),
        "text": text,
        "solution": { "header": header, "rows": rows },
        "rating": {
            "nodes": g.rating.nodes,
            "failures": g.rating.failures,
            "needsGuessing": !g.rating.propagation_only,
        },
        "clues": g.puzzle.clues().len(),
        "seed": options.seed,
    });
    format!("{line}\n")
}

/// Generates a puzzle with a unique solution and a minimal set of clues.
///
/// ```
/// use bitfd::generate::{GenerateOptions, generate};
///
/// let g = generate(&GenerateOptions { houses: 4, groups: 3, seed: 7 })?;
/// // The puzzle, written as `.zebra` text, parses back and is unique.
/// let text = g.puzzle.to_string();
/// let again = bitfd::puzzle::parse(&text).expect("the writer's output parses");
/// let pm = again.to_model();
/// let mut solver = bitfd::Solver::new(pm.model());
/// assert!(solver.uniqueness(&bitfd::SearchOptions::default()).is_unique());
/// # Ok::<(), bitfd::generate::GenerateError>(())
/// ```
///
/// # Errors
///
/// [`GenerateError`] when the size is outside the supported range.
pub fn generate(options: &GenerateOptions) -> Result<Generated, GenerateError> {
    generate_with(options, &Controls::default())
}

/// Generates a puzzle of the allowed clue kinds whose rating lies in the
/// difficulty range.
///
/// Attempt 0 draws from [`GenerateOptions::seed`] (so the default controls
/// give [`generate`]'s puzzle); each later attempt draws from a seed derived
/// from it and the attempt number, until a rating fits. The result depends
/// on the options and controls only, never on the thread or machine.
///
/// ```
/// use bitfd::generate::{ClueKind, Controls, Difficulty, GenerateOptions, generate_with};
///
/// let controls = Controls {
///     kinds: vec![ClueKind::At, ClueKind::NextTo, ClueKind::Same],
///     difficulty: Difficulty { guessing: Some(false), ..Difficulty::default() },
///     ..Controls::default()
/// };
/// let g = generate_with(&GenerateOptions { houses: 5, groups: 4, seed: 3 }, &controls)?;
/// assert!(g.rating.propagation_only);
/// assert!(g.puzzle.clues().iter().all(|c| controls.kinds.contains(&ClueKind::of(&c.relation).unwrap())));
/// # Ok::<(), bitfd::generate::GenerateError>(())
/// ```
///
/// # Errors
///
/// [`GenerateError`] when the size is outside the supported range, when no
/// kind is allowed, when the allowed kinds cannot pin a solution down
/// (`same` alone says nothing of positions), or when no attempt rated in
/// the range.
pub fn generate_with(
    options: &GenerateOptions,
    controls: &Controls,
) -> Result<Generated, GenerateError> {
    let (n, m) = (options.houses, options.groups);
    if !(2..=MAX_HOUSES).contains(&n) {
        return Err(GenerateError::Houses(n));
    }
    if !(1..=MAX_GROUPS).contains(&m) {
        return Err(GenerateError::Groups(m));
    }
    // In the fixed order of `ClueKind::ALL`, so the caller's order and
    // repeats change nothing.
    let kinds: Vec<ClueKind> = ClueKind::ALL
        .into_iter()
        .filter(|k| controls.kinds.contains(k))
        .collect();
    if kinds.is_empty() {
        return Err(GenerateError::NoKinds);
    }
    for attempt in 0..controls.attempts.max(1) {
        let seed = if attempt == 0 {
            options.seed
        } else {
            SplitMix64::new(options.seed ^ u64::from(attempt).wrapping_mul(0xD1B5_4A32_D192_ED03))
                .next_u64()
        };
        let g = generate_once(n, m, seed, options.seed, &kinds)?;
        if controls.difficulty.accepts(&g.rating) {
            return Ok(g);
        }
    }
    Err(GenerateError::NoneInRange(controls.attempts.max(1)))
}

/// One puzzle drawn from `seed`; `title_seed` is the seed the caller asked for.
fn generate_once(
    n: u8,
    m: usize,
    seed: u64,
    title_seed: u64,
    kinds: &[ClueKind],
) -> Result<Generated, GenerateError> {
    let mut rng = SplitMix64::new(seed);

    // The solution: a random permutation of the houses for each group.
    let groups: Vec<Group> = WORDS[..m]
        .iter()
        .map(|(name, values)| Group {
            name: (*name).to_owned(),
            values: values[..usize::from(n)]
                .iter()
                .map(|v| (*v).to_owned())
                .collect(),
        })
        .collect();
    let solution: Vec<Vec<u8>> = (0..m)
        .map(|_| {
            let mut houses: Vec<u8> = (1..=n).collect();
            for i in (1..houses.len()).rev() {
                houses.swap(i, rng.below(i + 1));
            }
            houses
        })
        .collect();
    let mut shell = from_parts(None, n, groups, Vec::new(), Vec::new());

    // Draw true clues until the pool pins the solution down; the pool is
    // rebuilt as a model only when it grows, and checked with one solver.
    let mut clues: Vec<Clue> = Vec::new();
    let options_search = SearchOptions::default();
    let mut batch = usize::from(n) * m;
    // Draws in a row that added nothing: past a bound, the allowed kinds
    // have no new true clue to give (a small street, few kinds).
    let mut stale = 0;
    let stale_limit = 64 * usize::from(n) * m;
    loop {
        while clues.len() < batch && stale < stale_limit {
            match draw_clue(&shell, &solution, kinds, &mut rng) {
                Some(clue) if !clues.iter().any(|c| c.relation == clue.relation) => {
                    clues.push(clue);
                    stale = 0;
                }
                _ => stale += 1,
            }
        }
        shell.clues = clues.clone();
        let pm = shell.to_model_with(CHECK_STRENGTH);
        if Solver::new(pm.model())
            .uniqueness(&options_search)
            .is_unique()
        {
            break;
        }
        if stale >= stale_limit {
            return Err(GenerateError::Unpinnable);
        }
        batch += usize::from(n) * m;
    }
    let drawn = clues.len();

    // Minimize in one reusable solver, in an order drawn from the seed.
    let kept_clues = shell
        .minimized(rng.next_u64(), CHECK_STRENGTH, &options_search)
        .expect("the pool was checked unique")
        .0
        .clues;

    // Two questions, in the classic style: who has the last group's first
    // value, and where the first group's last value lives.
    let last = ValueRef {
        group: m - 1,
        value: 0,
    };
    let first_last = ValueRef {
        group: 0,
        value: usize::from(n) - 1,
    };
    let mut asks = Vec::new();
    if m > 1 {
        asks.push(Ask {
            question: Some(format!(
                "Which {} goes with the {}?",
                shell.groups()[0].name,
                shell.value_name(last)
            )),
            target: Target::Value(last),
            group: Some(0),
        });
    }
    asks.push(Ask {
        question: Some(format!("Where is the {}?", shell.value_name(first_last))),
        target: Target::Value(first_last),
        group: None,
    });

    let title = format!("Generated {n}x{m} puzzle (seed {title_seed})");
    let groups = shell.groups().to_vec();
    let puzzle = from_parts(Some(title), n, groups, kept_clues, asks);
    let rating = Solver::new(puzzle.to_model().model()).rate();
    Ok(Generated {
        puzzle,
        solution,
        rating,
        drawn,
    })
}

/// A kind of clue the generator draws (the kinds of
/// `../shared/data/README.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClueKind {
    /// Two values in the same house.
    Same,
    /// A value in a given house.
    At,
    /// A value not in a given house.
    NotAt,
    /// Two values in neighbouring houses.
    NextTo,
    /// A value directly left of another.
    DirectlyLeft,
    /// A value somewhere left of another.
    LeftOf,
    /// One house between two values.
    OneBetween,
    /// Two houses between two values.
    TwoBetween,
    /// Two values in different houses.
    NotSame,
}

impl ClueKind {
    /// Every kind, in the order the generator draws from.
    pub const ALL: [ClueKind; 9] = [
        ClueKind::Same,
        ClueKind::At,
        ClueKind::NotAt,
        ClueKind::NextTo,
        ClueKind::DirectlyLeft,
        ClueKind::LeftOf,
        ClueKind::OneBetween,
        ClueKind::TwoBetween,
        ClueKind::NotSame,
    ];

    /// The kind's name, as the command line spells it: `same`, `at`,
    /// `not-at`, `next-to`, `directly-left`, `left-of`, `one-between`,
    /// `two-between`, `not-same`.
    pub fn name(self) -> &'static str {
        match self {
            ClueKind::Same => "same",
            ClueKind::At => "at",
            ClueKind::NotAt => "not-at",
            ClueKind::NextTo => "next-to",
            ClueKind::DirectlyLeft => "directly-left",
            ClueKind::LeftOf => "left-of",
            ClueKind::OneBetween => "one-between",
            ClueKind::TwoBetween => "two-between",
            ClueKind::NotSame => "not-same",
        }
    }

    /// The kind named `name` ([`ClueKind::name`]).
    pub fn from_name(name: &str) -> Option<ClueKind> {
        ClueKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind of a relation the generator writes, if it is one.
    pub fn of(relation: &Relation) -> Option<ClueKind> {
        Some(match relation {
            Relation::Same { offset: 0, .. } => ClueKind::Same,
            Relation::Same { offset: 1, .. } => ClueKind::DirectlyLeft,
            Relation::At { .. } => ClueKind::At,
            Relation::NotAt { .. } => ClueKind::NotAt,
            Relation::Distance { distance: 1, .. } => ClueKind::NextTo,
            Relation::Distance { distance: 2, .. } => ClueKind::OneBetween,
            Relation::Distance { distance: 3, .. } => ClueKind::TwoBetween,
            Relation::Compare {
                left: Operand::Value(_),
                op: Cmp::Lt,
                right: Operand::Value(_),
            } => ClueKind::LeftOf,
            Relation::Differ { .. } => ClueKind::NotSame,
            _ => return None,
        })
    }
}

impl fmt::Display for ClueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a generated puzzle may be made of and how hard it may be: the
/// controls of [`generate_with`]. The default allows every kind and every
/// difficulty, and [`generate`] uses it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Controls {
    /// The clue kinds that may be drawn (not empty; order and repeats do
    /// not matter).
    pub kinds: Vec<ClueKind>,
    /// The ratings accepted.
    pub difficulty: Difficulty,
    /// Puzzles tried before giving up on the difficulty range: attempt 0 is
    /// the seed itself, attempt `k` a seed derived from it and `k`.
    pub attempts: u32,
}

impl Default for Controls {
    fn default() -> Controls {
        Controls {
            kinds: ClueKind::ALL.to_vec(),
            difficulty: Difficulty::default(),
            attempts: 1000,
        }
    }
}

/// A range of difficulty on the [`Rating`]: nodes and failures of the
/// rating's search (bounds inclusive), and whether it needs guessing. The
/// default accepts every puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Difficulty {
    /// Fewest nodes.
    pub min_nodes: u64,
    /// Most nodes.
    pub max_nodes: u64,
    /// Fewest failures.
    pub min_failures: u64,
    /// Most failures.
    pub max_failures: u64,
    /// `Some(true)`: only puzzles that need a guess; `Some(false)`: only
    /// puzzles propagation alone solves; `None`: either.
    pub guessing: Option<bool>,
}

impl Default for Difficulty {
    fn default() -> Difficulty {
        Difficulty {
            min_nodes: 0,
            max_nodes: u64::MAX,
            min_failures: 0,
            max_failures: u64::MAX,
            guessing: None,
        }
    }
}

impl Difficulty {
    /// Whether `rating` lies in the range.
    pub fn accepts(&self, rating: &Rating) -> bool {
        (self.min_nodes..=self.max_nodes).contains(&rating.nodes)
            && (self.min_failures..=self.max_failures).contains(&rating.failures)
            && self.guessing.is_none_or(|g| g != rating.propagation_only)
    }
}

/// Draws of a kind that does not fit (no house on that side, no second
/// group) before [`draw_clue`] gives up: with a kind that can fit, some
/// draw fits with high probability long before.
const MAX_DRAW_TRIES: u32 = 1000;

/// Draws one clue of one of `kinds` that holds in `solution`, with its
/// sentence; `None` when [`MAX_DRAW_TRIES`] draws found none that fits.
fn draw_clue(
    shell: &Puzzle,
    solution: &[Vec<u8>],
    kinds: &[ClueKind],
    rng: &mut SplitMix64,
) -> Option<Clue> {
    let n = shell.houses();
    let m = shell.groups().len();
    let house = |v: ValueRef| solution[v.group][v.value];
    // The value of group `g` in house `h`.
    let at = |g: usize, h: u8| ValueRef {
        group: g,
        value: solution[g]
            .iter()
            .position(|&x| x == h)
            .expect("a permutation"),
    };
    let name = |v: ValueRef| shell.value_name(v).to_owned();
    let mut tries = 0;
    loop {
        tries += 1;
        if tries > MAX_DRAW_TRIES {
            return None;
        }
        let kind = kinds[rng.below(kinds.len())];
        let a = ValueRef {
            group: rng.below(m),
            value: rng.below(usize::from(n)),
        };
        let other_group = |rng: &mut SplitMix64| {
            if m == 1 {
                None
            } else {
                Some((a.group + 1 + rng.below(m - 1)) % m)
            }
        };
        // A value of any group in house h other than `a` itself.
        let someone_at = |rng: &mut SplitMix64, h: u8| {
            let g = rng.below(m);
            let v = at(g, h);
            (v != a).then_some(v)
        };
        let (relation, sentence) = match kind {
            ClueKind::Same => {
                let Some(g) = other_group(rng) else { continue };
                let b = at(g, house(a));
                (
                    Relation::Same { a, b, offset: 0 },
                    format!("The {} and the {} are in the same house.", name(a), name(b)),
                )
            }
            ClueKind::At => {
                let h = house(a);
                (
                    Relation::At { a, house: h },
                    format!("The {} is in house {h}.", name(a)),
                )
            }
            ClueKind::NotAt => {
                let h = 1 + rng.below(usize::from(n)) as u8;
                if h == house(a) {
                    continue;
                }
                (
                    Relation::NotAt { a, house: h },
                    format!("The {} is not in house {h}.", name(a)),
                )
            }
            ClueKind::NextTo | ClueKind::OneBetween | ClueKind::TwoBetween => {
                let d: u8 = match kind {
                    ClueKind::NextTo => 1,
                    ClueKind::OneBetween => 2,
                    _ => 3,
                };
                let h = house(a);
                let targets: Vec<u8> = [h.checked_sub(d), h.checked_add(d)]
                    .into_iter()
                    .flatten()
                    .filter(|&t| (1..=n).contains(&t))
                    .collect();
                if targets.is_empty() {
                    continue;
                }
                let t = targets[rng.below(targets.len())];
                let Some(b) = someone_at(rng, t) else {
                    continue;
                };
                let sentence = match d {
                    1 => format!(
                        "The {} and the {} are next to each other.",
                        name(a),
                        name(b)
                    ),
                    2 => format!(
                        "There is one house between the {} and the {}.",
                        name(a),
                        name(b)
                    ),
                    _ => format!(
                        "There are two houses between the {} and the {}.",
                        name(a),
                        name(b)
                    ),
                };
                (Relation::Distance { a, b, distance: d }, sentence)
            }
            ClueKind::DirectlyLeft => {
                let h = house(a);
                if h == n {
                    continue;
                }
                let Some(b) = someone_at(rng, h + 1) else {
                    continue;
                };
                (
                    // pos(b) = pos(a) + 1
                    Relation::Same {
                        a: b,
                        b: a,
                        offset: 1,
                    },
                    format!("The {} is directly left of the {}.", name(a), name(b)),
                )
            }
            ClueKind::LeftOf => {
                let h = house(a);
                if h == n {
                    continue;
                }
                let t = h + 1 + rng.below(usize::from(n - h)) as u8;
                let Some(b) = someone_at(rng, t) else {
                    continue;
                };
                (
                    Relation::Compare {
                        left: Operand::Value(a),
                        op: Cmp::Lt,
                        right: Operand::Value(b),
                    },
                    format!("The {} is somewhere left of the {}.", name(a), name(b)),
                )
            }
            ClueKind::NotSame => {
                let Some(g) = other_group(rng) else { continue };
                let v = ValueRef {
                    group: g,
                    value: rng.below(usize::from(n)),
                };
                if house(v) == house(a) {
                    continue;
                }
                (
                    Relation::Differ { a, b: v },
                    format!(
                        "The {} and the {} are in different houses.",
                        name(a),
                        name(v)
                    ),
                )
            }
        };
        return Some(Clue {
            label: Some(sentence),
            relation,
        });
    }
}

/// A puzzle made here rather than parsed: no source positions.
fn from_parts(
    title: Option<String>,
    houses: u8,
    groups: Vec<Group>,
    clues: Vec<Clue>,
    asks: Vec<Ask>,
) -> Puzzle {
    Puzzle {
        title,
        houses,
        groups,
        clues,
        asks,
        clue_spots: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{self, Uniqueness};
    use crate::ids::ConstraintId;
    use crate::puzzle::Origin;

    fn holds(g: &Generated) -> bool {
        let pm = g.puzzle.to_model();
        let mut values = vec![0u8; pm.model().len()];
        for (gi, group) in g.solution.iter().enumerate() {
            for (vi, &h) in group.iter().enumerate() {
                values[pm
                    .var(ValueRef {
                        group: gi,
                        value: vi,
                    })
                    .index()] = h;
            }
        }
        pm.model().check(&values).is_ok()
    }

    #[test]
    fn generated_puzzles_are_unique_minimal_and_true_to_their_solution() {
        for (houses, groups, seed) in [(3, 3, 1), (4, 4, 2), (5, 5, 3), (6, 4, 4)] {
            let g = generate(&GenerateOptions {
                houses,
                groups,
                seed,
            })
            .expect("valid size");
            assert!(holds(&g), "the drawn solution satisfies every kept clue");
            let pm = g.puzzle.to_model();
            let mut solver = Solver::new(pm.model());
            let verdict = solver.uniqueness(&SearchOptions::default());
            let Uniqueness::Unique(s) = verdict else {
                panic!("not unique: {verdict}")
            };
            for (gi, group) in g.solution.iter().enumerate() {
                for (vi, &h) in group.iter().enumerate() {
                    assert_eq!(
                        pm.house(
                            &s,
                            ValueRef {
                                group: gi,
                                value: vi
                            }
                        ),
                        h
                    );
                }
            }
            let clue_ids: Vec<ConstraintId> = pm
                .model()
                .constraint_ids()
                .filter(|&id| matches!(pm.origin(id), Origin::Clue(_)))
                .collect();
            assert!(check::is_minimal(
                &mut solver,
                &clue_ids,
                &SearchOptions::default()
            ));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_text() {
        let options = GenerateOptions {
            houses: 5,
            groups: 4,
            seed: 99,
        };
        let a = generate(&options).expect("valid").puzzle.to_string();
        let b = generate(&options).expect("valid").puzzle.to_string();
        assert_eq!(a, b);
        let c = generate(&GenerateOptions {
            seed: 100,
            ..options
        })
        .expect("valid")
        .puzzle
        .to_string();
        assert_ne!(a, c, "another seed, another puzzle");
    }

    #[test]
    fn default_controls_give_generate_and_controls_hold() {
        let options = GenerateOptions {
            houses: 5,
            groups: 4,
            seed: 11,
        };
        let plain = generate(&options).expect("valid");
        let with = generate_with(&options, &Controls::default()).expect("valid");
        assert_eq!(plain.puzzle, with.puzzle, "attempt 0 is the seed itself");
        let controls = Controls {
            kinds: vec![ClueKind::NotAt, ClueKind::NextTo, ClueKind::At],
            difficulty: Difficulty {
                min_failures: 1,
                ..Difficulty::default()
            },
            ..Controls::default()
        };
        for seed in 0..5 {
            let g = generate_with(&GenerateOptions { seed, ..options }, &controls).expect("met");
            assert!(holds(&g));
            assert!(g.rating.failures >= 1 && !g.rating.propagation_only);
            for c in g.puzzle.clues() {
                // The three kinds by their relations, as the kinds define them.
                assert!(
                    matches!(
                        c.relation,
                        Relation::NotAt { .. }
                            | Relation::At { .. }
                            | Relation::Distance { distance: 1, .. }
                    ),
                    "{:?}",
                    c.relation
                );
            }
        }
        // Order and repeats of the kinds change nothing.
        let shuffled = Controls {
            kinds: vec![
                ClueKind::At,
                ClueKind::NextTo,
                ClueKind::NotAt,
                ClueKind::At,
            ],
            ..controls.clone()
        };
        assert_eq!(
            generate_with(&options, &controls).expect("met").puzzle,
            generate_with(&options, &shuffled).expect("met").puzzle
        );
        let none = Controls {
            kinds: Vec::new(),
            ..Controls::default()
        };
        assert_eq!(
            generate_with(&options, &none).err(),
            Some(GenerateError::NoKinds)
        );
    }

    #[test]
    fn sizes_out_of_range_are_errors() {
        assert_eq!(
            generate(&GenerateOptions {
                houses: 1,
                groups: 3,
                seed: 0
            })
            .err(),
            Some(GenerateError::Houses(1))
        );
        assert_eq!(
            generate(&GenerateOptions {
                houses: 4,
                groups: 0,
                seed: 0
            })
            .err(),
            Some(GenerateError::Groups(0))
        );
    }
}
