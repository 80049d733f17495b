//! English out: a [`Puzzle`] written as the text of one of the phrasing
//! families the reader knows, with its attribute lists and its questions,
//! so that the text alone defines the puzzle.
//!
//! Invariant (what the round-trip tests check): [`super::parse`] reads the
//! text back to a puzzle with the same houses, values and solutions. A value
//! is always named as `the person whose <group> is <value>`, so a value is
//! never taken for another group's and never needs a describing word.

use std::fmt::{self, Write as _};

use super::words;
use crate::puzzle::ast::{Ask, Cmp, Operand, Puzzle, Relation, Target, ValueRef};

/// A family of phrasing for [`write()`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// ZebraLogic's grid mode: backticked lists and `## Clues:`.
    ZebraLogic,
    /// reasoning-gym's `zebra_puzzles`: comma lists and a question.
    ReasoningGym,
    /// The classic puzzles: a list a line and numbered sentences.
    Classic,
}

impl Style {
    /// Every style, in the CLI's order (its default first).
    pub const ALL: [Style; 3] = [Style::ZebraLogic, Style::ReasoningGym, Style::Classic];

    /// The style's name as the CLI's `--style` spells it: `zebralogic`,
    /// `reasoning-gym` or `classic`.
    pub fn name(self) -> &'static str {
        match self {
            Style::ZebraLogic => "zebralogic",
            Style::ReasoningGym => "reasoning-gym",
            Style::Classic => "classic",
        }
    }

    /// The style [`Style::name`] spells `name`, if any.
    pub fn from_name(name: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Why a puzzle could not be written in English: a relation that has no
/// sentence the reader reads back (an offset other than one house, `<=` or
/// `>=`, a chain through a house number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// The index of the clue.
    pub clue: usize,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clue {} has no English sentence", self.clue + 1)
    }
}

impl std::error::Error for WriteError {}

/// Writes `puzzle` as English text in `style`: the frame, the lists, one
/// numbered sentence a clue and the questions.
///
/// # Errors
///
/// [`WriteError`] for a clue whose relation has no sentence (see there).
///
/// # Examples
///
/// ```
/// use bitfd::puzzle::{self, english};
///
/// let p = puzzle::parse("houses 3\ncolor: red green blue\npet: dog cat fish\nred = 1\ndog = red + 1\n|cat - dog| = 1\ncat != 1\n")?;
/// let text = english::write(&p, english::Style::Classic).expect("every clue has a sentence");
/// assert!(text.contains("1. The person whose color is red lives in the first house."), "{text}");
/// let back = english::parse(&text)?;
/// assert_eq!(back.clues().len(), p.clues().len());
/// # Ok::<(), puzzle::ParseErrors>(())
/// ```
pub fn write(puzzle: &Puzzle, style: Style) -> Result<String, WriteError> {
    let n = puzzle.houses();
    let mut out = String::new();
    let write_err = |_| WriteError { clue: usize::MAX };
    match style {
        Style::ZebraLogic => {
            writeln!(
                out,
                "There are {n} houses, numbered 1 to {n} from left to right, as seen from across \
                 the street. Each house is occupied by a different person. Each house has a \
                 unique attribute for each of the following characteristics:"
            )
            .map_err(write_err)?;
            for g in puzzle.groups() {
                let values: Vec<String> = g.values.iter().map(|v| format!("`{v}`")).collect();
                writeln!(
                    out,
                    " - Each person has a unique {}: {}",
                    spoken(&g.name),
                    values.join(", ")
                )
                .map_err(write_err)?;
            }
            out.push_str("\n## Clues:\n");
        }
        Style::ReasoningGym => {
            writeln!(
                out,
                "This is a logic puzzle. There are {n} houses (numbered 1 on the left, {n} on the \
                 right), from the perspective of someone standing across the street from them. \
                 Each has a different person in them. They have different characteristics:"
            )
            .map_err(write_err)?;
            for g in puzzle.groups() {
                writeln!(
                    out,
                    " - Each person has a unique {}: {}",
                    spoken(&g.name),
                    g.values.join(", ")
                )
                .map_err(write_err)?;
            }
            out.push('\n');
        }
        Style::Classic => {
            writeln!(
                out,
                "There are {} houses in a row, numbered 1 to {n} from left to right.\n",
                words::cardinal_word(n)
            )
            .map_err(write_err)?;
            for g in puzzle.groups() {
                writeln!(
                    out,
                    "{}: {}",
                    capitalized(&spoken(&g.name)),
                    g.values.join(", ")
                )
                .map_err(write_err)?;
            }
            out.push('\n');
        }
    }
    for (i, clue) in puzzle.clues().iter().enumerate() {
        let sentence = sentence(puzzle, &clue.relation, style).ok_or(WriteError { clue: i })?;
        writeln!(out, "{}. {}", i + 1, capitalized(&sentence)).map_err(write_err)?;
    }
    if !puzzle.asks().is_empty() {
        out.push('\n');
        for ask in puzzle.asks() {
            writeln!(out, "{}", question(puzzle, ask)).map_err(write_err)?;
        }
    }
    Ok(out)
}

/// A group's name as words: `HairColor` and `hair_color` are `hair color`.
fn spoken(name: &str) -> String {
    super::clue::split_name(name).join(" ")
}

/// `s` with its first letter upper-case: `nationality` is `Nationality`.
pub(crate) fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The noun phrase of a value: `the person whose color is red`.
fn person(puzzle: &Puzzle, v: ValueRef) -> String {
    format!(
        "the person whose {} is {}",
        spoken(&puzzle.groups()[v.group].name),
        puzzle.value_name(v)
    )
}

fn house_phrase(h: u8) -> String {
    format!("the {} house", words::ordinal_word(h))
}

/// One clue as a sentence, or `None` if the reader could not read it back.
fn sentence(puzzle: &Puzzle, r: &Relation, style: Style) -> Option<String> {
    let p = |v: ValueRef| person(puzzle, v);
    let classic = style == Style::Classic;
    let s = match *r {
        Relation::Same { a, b, offset: 0 } => format!("{} is {}.", p(a), p(b)),
        // `a = b + 1`: b is directly left of a.
        Relation::Same { a, b, offset: 1 } if classic => {
            format!("{} lives immediately to the left of {}.", p(b), p(a))
        }
        Relation::Same { a, b, offset: 1 } => format!("{} is directly left of {}.", p(b), p(a)),
        Relation::Same { a, b, offset: -1 } if classic => {
            format!("{} lives immediately to the left of {}.", p(a), p(b))
        }
        Relation::Same { a, b, offset: -1 } => format!("{} is directly left of {}.", p(a), p(b)),
        Relation::Same { .. } => return None,
        Relation::At { a, house } if classic => {
            format!("{} lives in {}.", p(a), house_phrase(house))
        }
        Relation::At { a, house } => format!("{} is in {}.", p(a), house_phrase(house)),
        Relation::NotAt { a, house } if classic => {
            format!("{} does not live in {}.", p(a), house_phrase(house))
        }
        Relation::NotAt { a, house } => format!("{} is not in {}.", p(a), house_phrase(house)),
        Relation::Differ { a, b } if classic => {
            format!("{} and {} live in different houses.", p(a), p(b))
        }
        Relation::Differ { a, b } => format!("{} is not {}.", p(a), p(b)),
        Relation::Distance { a, b, distance: 1 } if classic => {
            format!("{} lives next to {}.", p(a), p(b))
        }
        Relation::Distance { a, b, distance: 1 } => {
            format!("{} and {} are next to each other.", p(a), p(b))
        }
        Relation::Distance { a, b, distance } if distance >= 2 => {
            format!(
                "There {} between {} and {}.",
                between(distance - 1),
                p(a),
                p(b)
            )
        }
        Relation::Distance { .. } => return None,
        Relation::NotDistance { a, b, distance: 1 } => {
            format!("{} and {} are not next to each other.", p(a), p(b))
        }
        Relation::NotDistance { a, b, distance } if distance >= 2 => format!(
            "It is not true that there {} between {} and {}.",
            between(distance - 1),
            p(a),
            p(b)
        ),
        Relation::NotDistance { .. } => return None,
        Relation::Compare { left, op, right } => {
            let side = |o: Operand| match o {
                Operand::Value(v) => p(v),
                Operand::House(h) => house_phrase(h),
            };
            if matches!(left, Operand::House(_)) {
                return None;
            }
            let direction = match op {
                Cmp::Lt => "left",
                Cmp::Gt => "right",
                Cmp::Le | Cmp::Ge => return None,
            };
            format!(
                "{} is somewhere to the {direction} of {}.",
                side(left),
                side(right)
            )
        }
        Relation::Between {
            low: Operand::Value(low),
            mid: Operand::Value(mid),
            high: Operand::Value(high),
        } => format!(
            "{} is somewhere between {} and {}, in that order.",
            p(mid),
            p(low),
            p(high)
        ),
        Relation::Between { .. } => return None,
        Relation::In { a, ref houses } => {
            let n = puzzle.houses();
            if houses[..] == [1, n] && n > 1 {
                format!("{} lives at one of the ends.", p(a))
            } else if let [h] = houses[..] {
                format!("{} is in {}.", p(a), house_phrase(h))
            } else if houses.len() == 2 {
                format!(
                    "{} is in the {} or the {} house.",
                    p(a),
                    words::ordinal_word(houses[0]),
                    words::ordinal_word(houses[1])
                )
            } else {
                return None;
            }
        }
    };
    Some(s)
}

/// `is one house`, `are two houses`.
fn between(k: u8) -> String {
    if k == 1 {
        "is one house".to_owned()
    } else {
        format!("are {} houses", words::cardinal_word(k))
    }
}

/// A question as the reader reads it back.
fn question(puzzle: &Puzzle, ask: &Ask) -> String {
    let group = |g: usize| spoken(&puzzle.groups()[g].name);
    match (ask.target, ask.group) {
        (Target::House(h), Some(g)) => {
            format!(
                "What is the {} of the person who lives in House {h}?",
                group(g)
            )
        }
        (Target::Value(v), Some(g)) => format!(
            "What is the {} of the one whose {} is {}?",
            group(g),
            group(v.group),
            puzzle.value_name(v)
        ),
        (Target::Value(v), None) => format!("In which house does {} live?", person(puzzle, v)),
        (Target::House(h), None) => format!("Who lives in House {h}?"),
    }
}
