//! Zebra puzzles in English: the text people publish, read into a [`Puzzle`].
//!
//! The reader knows the phrasing families of the generators that write most
//! zebra puzzles today and of the classic puzzles:
//! * **ZebraLogic** (grid mode): `There are 5 houses, numbered 1 to 5 ...`,
//!   one list a line with backticked values (`` - Each person has a unique
//!   name: `Arnold`, `Eric` ``), `## Clues:` and numbered clues;
//! * **reasoning-gym** `zebra_puzzles`: `There are 4 houses (numbered 1 on
//!   the left ...)`, comma lists after a colon, numbered clues, and a
//!   question (`What is Name of the person who lives in House 1?`);
//! * **classic** puzzles in numbered sentences (`1. There are five houses.`
//!   `2. The Englishman lives in the red house.`), with their values listed
//!   one group a line (`Colors: red, green, ivory, yellow, blue`).
//!
//! [`parse`] reads the whole text; [`read_sentence`] reads one clue against
//! a puzzle's houses and groups (the `.zebra` format uses it for a clue
//! line that is only a sentence). How a sentence is read — value mentions,
//! house references, phrasing words — is described in the `clue` module
//! below; in short, values are found by their own words inside the noun
//! phrase (case and plural do not matter, the longest value wins), and a
//! sentence that fits no clue kind is an error with the values it did find
//! and the words it could not place. The reader never guesses: a name
//! declared in two groups that the words around it do not settle is an
//! [`ErrorKind::AmbiguousName`](super::ErrorKind::AmbiguousName) error.
//!
//! Every clue keeps its sentence as its label, so traces, trees and the "no
//! solution" message quote the puzzle's own words. Hostile text meets the
//! `.zebra` parser's limits ([`MAX_SOURCE_BYTES`](super::MAX_SOURCE_BYTES),
//! [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES) and the counts): a diagnostic,
//! never a panic.

mod clue;
mod frame;
mod words;
mod write;

pub(crate) use write::capitalized;
pub use write::{Style, WriteError, write};

use super::ast::{Puzzle, Relation};
use super::diagnostic::{Diagnostic, LineIndex, ParseErrors};
use super::encode::PuzzleModel;
use crate::search::Solution;

/// Reads an English zebra puzzle into a checked puzzle.
///
/// Each clue becomes one or more [`Clue`](super::Clue)s labelled with its
/// sentence; a sentence that restates the frame (`There are five houses.`)
/// becomes none. Groups are named from their descriptions (`People have
/// unique hair colors` is `HairColor`).
///
/// # Errors
///
/// Every problem found, as [`ParseErrors`]: no house count, no lists, a
/// list larger than the street, a sentence that fits no clue kind
/// ([`ErrorKind::UnreadableSentence`](super::ErrorKind::UnreadableSentence), with the values found and the words
/// not placed), a name the words do not assign to one group
/// ([`ErrorKind::AmbiguousName`](super::ErrorKind::AmbiguousName)), a house that does not exist, and the
/// size limits of the `.zebra` parser.
///
/// # Examples
///
/// ```
/// use bitfd::puzzle::{english, print::answer};
/// use bitfd::{SearchOptions, Solver};
///
/// let text = "\
/// There are 3 houses, numbered 1 to 3 from left to right.
///  - Each person has a unique name: `Peter`, `Eric`, `Arnold`
///  - Each person has a unique favorite drink: `tea`, `water`, `milk`
///
/// ## Clues:
/// 1. Peter is in the second house.
/// 2. Arnold is directly left of the one who only drinks water.
/// 3. The one who only drinks water is directly left of the person who likes milk.
///
/// Who drinks tea?
/// ";
/// let puzzle = english::parse(text)?;
/// assert_eq!(puzzle.relation_text(&puzzle.clues()[1].relation), "water = Arnold + 1");
/// let pm = puzzle.to_model();
/// let outcome = Solver::new(pm.model()).all(&SearchOptions::default());
/// assert_eq!(outcome.solutions.len(), 1);
/// let a = answer(&puzzle, &pm, &puzzle.asks()[0], &outcome.solutions[0]);
/// assert_eq!(a.to_string(), "Who drinks tea? Arnold");
///
/// // A sentence the reader cannot place is an error, never a silent skip.
/// let bad = text.replace("likes milk.", "likes milk, probably.\n4. Eric dances.");
/// let errors = english::parse(&bad).unwrap_err();
/// let message = errors.diagnostics()[0].to_string();
/// assert!(message.starts_with("9:4: error[unreadable-sentence]"), "{message}");
/// assert!(message.contains("`dances`"), "{message}");
/// # Ok::<(), bitfd::puzzle::ParseErrors>(())
/// ```
pub fn parse(text: &str) -> Result<Puzzle, ParseErrors> {
    frame::parse(text)
}

/// Reads English bytes: as [`parse`], after checking that they are UTF-8.
///
/// # Errors
///
/// As [`parse`]; bytes that are not UTF-8 give one
/// [`ErrorKind::NotUtf8`](super::ErrorKind::NotUtf8) diagnostic, as [`super::parse_bytes`] does.
pub fn parse_bytes(bytes: &[u8]) -> Result<Puzzle, ParseErrors> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        // The `.zebra` entry point builds the same diagnostic.
        Err(_) => super::parse_bytes(bytes),
    }
}

/// Reads one clue sentence against `puzzle`'s houses and groups (its clues
/// and questions are not used).
///
/// Returns the relations the sentence says: usually one; several for a
/// sentence such as `Fletcher does not live on either the top or the bottom
/// floor`; none for a sentence that restates the frame (`There are five
/// houses.`). Group names serve as the words that tell apart a name
/// declared in two groups (`child` for a group `child`).
///
/// # Errors
///
/// One diagnostic, as [`ParseErrors`], positioned in `sentence` (line 1,
/// columns from 1): the sentence fits no clue kind, a name is ambiguous, or
/// a house does not exist.
///
/// # Examples
///
/// ```
/// use bitfd::puzzle::{self, english};
///
/// let p = puzzle::parse("houses 5\ncolor: red green ivory yellow blue\npet: dog fox zebra snails horse\n")?;
/// let r = english::read_sentence(&p, "The green house is immediately to the right of the ivory house.")
///     .expect("a clue the reader knows");
/// assert_eq!(p.relation_text(&r[0]), "green = ivory + 1");
/// let e = english::read_sentence(&p, "The fox sleeps.").unwrap_err();
/// assert_eq!(e.diagnostics()[0].kind, puzzle::ErrorKind::UnreadableSentence);
/// # Ok::<(), puzzle::ParseErrors>(())
/// ```
pub fn read_sentence(puzzle: &Puzzle, sentence: &str) -> Result<Vec<Relation>, ParseErrors> {
    let mut vocab = clue::Vocabulary::new(puzzle.houses(), puzzle.groups());
    read_clue(&mut vocab, sentence).map_err(|d| ParseErrors::new(vec![*d], 0))
}

pub(crate) use clue::Vocabulary;

/// [`read_sentence`] with the vocabulary built.
pub(crate) fn read_clue(
    vocab: &mut Vocabulary<'_>,
    sentence: &str,
) -> Result<Vec<Relation>, Box<Diagnostic>> {
    match clue::read(vocab, sentence, 0) {
        Ok(clue::Reading::One(r)) => Ok(vec![r]),
        Ok(clue::Reading::Several(r)) => Ok(r),
        Ok(clue::Reading::Frame) => Ok(Vec::new()),
        Err(u) => Err(Box::new(Diagnostic {
            kind: u.kind,
            message: u.message,
            spot: LineIndex::new(sentence).spot(u.span),
            expected: u.expected,
            related: Vec::new(),
            notes: u.notes,
        })),
    }
}

/// A solution as graders use it (ZebraLogic's grid): a header `["House",
/// group names...]` and one row a house, `["1", value, ...]`, cells spelled
/// as the lists spell the values (empty for a house without a value of a
/// group smaller than the street).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerGrid {
    /// `House`, then the group names in declaration order.
    pub header: Vec<String>,
    /// One row a house, in house order.
    pub rows: Vec<Vec<String>>,
}

impl AnswerGrid {
    /// The grid of `solution`.
    pub fn new(puzzle: &Puzzle, pm: &PuzzleModel, solution: &Solution) -> AnswerGrid {
        let grid = super::print::Grid::new(puzzle, pm, solution);
        let mut header = vec!["House".to_owned()];
        header.extend(grid.rows.iter().map(|(name, _)| name.clone()));
        let rows = (0..usize::from(puzzle.houses()))
            .map(|h| {
                let mut row = vec![(h + 1).to_string()];
                row.extend(
                    grid.rows
                        .iter()
                        .map(|(_, cells)| cells[h].clone().unwrap_or_default()),
                );
                row
            })
            .collect();
        AnswerGrid { header, rows }
    }
}
