//! The `.zebra` puzzle format: text in, [`Puzzle`] and [`Model`](crate::Model) out.
//!
//! A `.zebra` file describes a zebra puzzle (Einstein's riddle and its
//! kin): houses in a row, groups of attribute values, one value of each
//! group a house, and clues relating values and house numbers. The full
//! grammar, with examples, is in `docs/format.md`; in short:
//!
//! ```text
//! title "The zebra puzzle"          # a title, optional
//! houses 5                          # houses are numbered 1..=5
//! drink: coffee tea milk "orange juice" water
//! color: red green ivory yellow blue
//! "Milk is drunk in the middle house."  milk = 3
//! green = ivory + 1
//! |coffee - red| = 1
//! ask "Who drinks water?" water color
//! ```
//!
//! [`parse`] reads a file into a [`Puzzle`], checking everything it can: a
//! puzzle it returns always builds a valid model ([`Puzzle::to_model`]).
//! Errors come as [`ParseErrors`]: every [`Diagnostic`] of the file, each
//! with its line, column and what was expected. Printing a `Puzzle` gives
//! `.zebra` text back; [`print`](mod@print) shows solutions and answers.
//! With the `serde` feature, `from_json` reads the JSON form of the shared
//! test data (`bitfd-test-data/zebra-1`).
//!
//! # Limits
//!
//! Hostile input is rejected with a diagnostic, never a panic or unbounded
//! memory: a source of at most [`MAX_SOURCE_BYTES`], lines of at most
//! [`MAX_LINE_BYTES`], names of at most [`MAX_NAME_CHARS`] characters, at
//! most [`MAX_HOUSES`] houses (so at most that many values a group),
//! [`MAX_GROUPS`] groups, [`MAX_CLUES`] clues and [`MAX_ASKS`] questions,
//! and at most [`MAX_ERRORS`] diagnostics reported.

mod ast;
mod diagnostic;
mod encode;
pub mod english;
#[cfg(feature = "serde")]
mod json;
mod lexer;
mod parser;
pub mod print;
mod suggest;
mod text;
mod write;

pub use ast::{Ask, Clue, Cmp, Group, Operand, Puzzle, Relation, Target, ValueRef};
pub use diagnostic::{Diagnostic, ErrorKind, ParseErrors, Spot};
pub use encode::{MinimalConflict, Origin, PuzzleModel};
#[cfg(feature = "serde")]
pub use json::{JsonError, from_json};

/// The largest source [`parse`] reads: 1 MiB.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;
/// The longest line: 16 KiB (a group of 63 values of 64 characters fits).
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// The longest name (group or value), in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// The most houses: values are house numbers, and domains hold `0..=63`.
pub const MAX_HOUSES: u8 = 63;
/// The most groups.
pub const MAX_GROUPS: usize = 64;
/// The most clues.
pub const MAX_CLUES: usize = 10_000;
/// The most questions.
pub const MAX_ASKS: usize = 1_000;
/// The most diagnostics kept for one file; the rest are counted.
pub const MAX_ERRORS: usize = 100;

/// Parses `.zebra` text into a checked puzzle.
///
/// # Errors
///
/// Every problem found in the text, as [`ParseErrors`]: unknown statements,
/// syntax errors, unknown, misspelt, ambiguous or duplicate names, numbers
/// out of range, groups larger than the street, a missing `houses` line, and
/// the size limits of this module.
///
/// # Examples
///
/// ```
/// use bitfd::{SearchOptions, Solver};
/// use bitfd::puzzle::{self, print::answer};
///
/// let text = r#"
/// houses 3
/// name: Peter Eric Arnold
/// drink: tea water milk
/// "Peter is in the second house."  Peter = 2
/// "Arnold is directly left of the one who only drinks water."  water = Arnold + 1
/// "The one who only drinks water is directly left of the person who likes milk."  milk = water + 1
/// ask "Who drinks tea?" tea name
/// "#;
/// let puzzle = puzzle::parse(text)?;
/// let pm = puzzle.to_model();
/// let outcome = Solver::new(pm.model()).all(&SearchOptions::default());
/// assert_eq!(outcome.solutions.len(), 1);
/// let a = answer(&puzzle, &pm, &puzzle.asks()[0], &outcome.solutions[0]);
/// assert_eq!(a.to_string(), "Who drinks tea? Arnold");
///
/// // Mistakes are reported together, each with its position.
/// let errors = puzzle::parse("houses 3\nname: Peter Eric\nPeterr = 4\n").unwrap_err();
/// let messages: Vec<String> = errors.diagnostics().iter().map(|d| d.to_string()).collect();
/// assert_eq!(messages.len(), 2);
/// assert!(messages[0].starts_with("3:1: error[unknown-name]"));
/// assert!(messages[0].contains("did you mean `Peter`?"));
/// assert!(messages[1].starts_with("3:10: error[out-of-range]"));
/// # Ok::<(), puzzle::ParseErrors>(())
/// ```
pub fn parse(source: &str) -> Result<Puzzle, ParseErrors> {
    parser::parse(source)
}

/// Parses `.zebra` bytes: as [`parse`], after checking that they are UTF-8.
///
/// # Errors
///
/// As [`parse`]; bytes that are not UTF-8 give one
/// [`ErrorKind::NotUtf8`] diagnostic at the first bad byte (the valid text
/// before it is not parsed, so its line and column are exact).
pub fn parse_bytes(bytes: &[u8]) -> Result<Puzzle, ParseErrors> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            let at = e.valid_up_to();
            // An empty span at the bad byte: a char boundary both of the
            // bytes and of their lossy decoding, which renderers show.
            let spot = diagnostic::LineIndex::new(valid).spot(at..at);
            let d = Diagnostic {
                kind: ErrorKind::NotUtf8,
                message: format!("byte 0x{:02X} is not UTF-8 text", bytes[at]),
                spot,
                expected: "UTF-8 text".to_owned(),
                related: Vec::new(),
                notes: vec!["note: save the file as UTF-8".to_owned()],
            };
            Err(ParseErrors::new(vec![d], 0))
        }
    }
}
