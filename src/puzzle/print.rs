//! Printing results: the solution grid, the answers to the questions, the
//! verdict on a search, and the constraint to blame when there is no
//! solution. The `bitfd` binary and the snapshot tests print through these,
//! so the snapshots pin what users see.

use std::fmt;

use crate::ids::ConstraintId;
use crate::observer::SearchStatus;
use crate::search::{Mode, Outcome, Solution};

use super::ast::{Ask, Puzzle, Target};
use super::encode::{Origin, PuzzleModel};
use super::parser::quote;

/// A solution as a table: houses as columns, one row per group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// `(group name, value in house 1, ..., value in house N)`; `None` for a
    /// house that holds no value of a group smaller than the street.
    pub rows: Vec<(String, Vec<Option<String>>)>,
}

impl Grid {
    /// The grid of `solution`.
    pub fn new(puzzle: &Puzzle, pm: &PuzzleModel, solution: &Solution) -> Grid {
        let houses = usize::from(puzzle.houses());
        let rows = puzzle
            .groups()
            .iter()
            .enumerate()
            .map(|(g, group)| {
                let mut cells = vec![None; houses];
                for (v, name) in group.values.iter().enumerate() {
                    let h = pm.house(solution, super::ValueRef { group: g, value: v });
                    if let Some(cell) = cells.get_mut(usize::from(h).wrapping_sub(1)) {
                        *cell = Some(name.clone());
                    }
                }
                (group.name.clone(), cells)
            })
            .collect();
        Grid { rows }
    }
}

impl fmt::Display for Grid {
    /// Aligned columns, two spaces apart; a header row numbers the houses,
    /// and `-` marks an empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let houses = self.rows.first().map_or(0, |(_, cells)| cells.len());
        let header: Vec<String> = (1..=houses).map(|h| h.to_string()).collect();
        let cell = |c: &Option<String>| c.clone().unwrap_or_else(|| "-".to_owned());
        // Display width, not `char`s: `猫` takes two columns, `e` + U+0301
        // one.
        let width = super::text::display_width;
        let mut widths = vec![width("house")];
        widths.extend(header.iter().map(|h| width(h)));
        for (name, cells) in &self.rows {
            widths[0] = widths[0].max(width(name));
            for (i, c) in cells.iter().enumerate() {
                widths[i + 1] = widths[i + 1].max(width(&cell(c)));
            }
        }
        let pad = |s: &mut String, text: &str, w: usize| {
            s.push_str(text);
            let fill = w.saturating_sub(width(text));
            s.extend(std::iter::repeat_n(' ', fill));
        };
        let mut line = |first: &str, rest: &mut dyn Iterator<Item = String>| {
            let mut s = String::new();
            pad(&mut s, first, widths[0]);
            for (i, c) in rest.enumerate() {
                s.push_str("  ");
                pad(&mut s, &c, widths[i + 1]);
            }
            writeln!(f, "{}", s.trim_end())
        };
        line("house", &mut header.iter().cloned())?;
        for (name, cells) in &self.rows {
            line(name, &mut cells.iter().map(cell))?;
        }
        Ok(())
    }
}

/// A question and its answer in one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The question as the puzzle asks it, or a description of it.
    pub question: String,
    /// The answer: a value name, a house number, or `-` when a group
    /// smaller than the street has no value in that house.
    pub answer: String,
}

impl fmt::Display for Answer {
    /// `Who drinks water? Norwegian`, or `house of zebra: 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.question.ends_with('?') {
            write!(f, "{} {}", self.question, self.answer)
        } else {
            write!(f, "{}: {}", self.question, self.answer)
        }
    }
}

/// The answer to `ask` in `solution`.
pub fn answer(puzzle: &Puzzle, pm: &PuzzleModel, ask: &Ask, solution: &Solution) -> Answer {
    let house = match ask.target {
        Target::Value(v) => pm.house(solution, v),
        Target::House(h) => h,
    };
    let answer = match ask.group {
        None => house.to_string(),
        Some(g) => {
            let values = &puzzle.groups()[g].values;
            (0..values.len())
                .find(|&v| pm.house(solution, super::ValueRef { group: g, value: v }) == house)
                .map_or_else(|| "-".to_owned(), |v| values[v].clone())
        }
    };
    Answer {
        question: question_text(puzzle, ask),
        answer,
    }
}

/// The question's own sentence, or a description: `house of zebra`,
/// `nationality with water`, `name in house 1`.
pub fn question_text(puzzle: &Puzzle, ask: &Ask) -> String {
    if let Some(q) = &ask.question {
        return q.clone();
    }
    let group = |g: usize| quote(&puzzle.groups()[g].name).into_owned();
    match (ask.target, ask.group) {
        (Target::Value(v), None) => format!("house of {}", puzzle.value_text(v)),
        (Target::Value(v), Some(g)) => format!("{} with {}", group(g), puzzle.value_text(v)),
        (Target::House(h), Some(g)) => format!("{} in house {h}", group(g)),
        (Target::House(h), None) => format!("house {h}"),
    }
}

/// What a search says about a puzzle's solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution.
    Unique,
    /// Exactly this many solutions (more than one), all explored.
    Exactly(u64),
    /// At least this many: the search stopped at its solution limit.
    AtLeast(u64),
    /// No solution; the constraint that failed at the root, if the root
    /// itself failed.
    NoSolution(Option<ConstraintId>),
    /// A node or time limit stopped the search after this many solutions.
    Unknown(SearchStatus, u64),
}

impl Verdict {
    /// The verdict on `outcome`.
    pub fn of(outcome: &Outcome) -> Verdict {
        let n = outcome.stats.solutions;
        match outcome.status {
            SearchStatus::Complete => match n {
                0 => Verdict::NoSolution(outcome.root_failure),
                1 => Verdict::Unique,
                n => Verdict::Exactly(n),
            },
            SearchStatus::SolutionLimit => Verdict::AtLeast(n),
            status => Verdict::Unknown(status, n),
        }
    }

    /// Whether exactly one solution is known to exist.
    pub fn is_unique(self) -> bool {
        self == Verdict::Unique
    }

    /// A short verdict for one line: `unique`, `not unique (2+ solutions)`,
    /// `no solution`, `unknown (node limit, 0 solutions so far)`, as
    /// `bitfd check` prints it.
    pub fn short(self) -> String {
        match self {
            Verdict::Unique => "unique".to_owned(),
            Verdict::Exactly(n) => format!("not unique ({n} solutions)"),
            Verdict::AtLeast(n) => format!("not unique ({n}+ solutions)"),
            Verdict::NoSolution(_) => "no solution".to_owned(),
            Verdict::Unknown(status, n) => {
                format!("unknown ({status}, {} so far)", solutions(n))
            }
        }
    }

    /// The verdict as `bitfd solve` prints it after a search in `mode`:
    /// says how to learn more where the mode stopped early.
    pub fn sentence(self, mode: Mode) -> String {
        match (self, mode) {
            (Verdict::Unique, _) => "unique solution".to_owned(),
            (Verdict::Exactly(n), _) => format!("{n} solutions"),
            (Verdict::AtLeast(2), Mode::AtMost(2)) => {
                "not unique: 2 or more solutions (--count counts them, --all shows them)".to_owned()
            }
            (Verdict::AtLeast(n), _) => format!("{n} or more solutions (stopped at --max {n})"),
            (Verdict::NoSolution(_), _) => "no solution".to_owned(),
            (Verdict::Unknown(status, n), _) => {
                format!(
                    "unknown: the search stopped at the {status} after {}",
                    solutions(n)
                )
            }
        }
    }
}

/// `1 solution`, `2 solutions`, `0 solutions`.
fn solutions(n: u64) -> String {
    if n == 1 {
        "1 solution".to_owned()
    } else {
        format!("{n} solutions")
    }
}

/// A clue as messages cite it: its line and sentence (or relation).
///
/// `line 17: "The Englishman lives in the first house." (Englishman = 1)`.
pub fn cite(puzzle: &Puzzle, i: usize) -> String {
    let clue = &puzzle.clues()[i];
    let text = puzzle.relation_text(&clue.relation);
    let what = match &clue.label {
        Some(label) => format!("\"{label}\" ({text})"),
        None => text,
    };
    match puzzle.clue_line(i) {
        Some(line) => format!("line {line}: {what}"),
        None => what,
    }
}

/// Why a puzzle has no solution, when the root failed: the constraint, its
/// clue's line and sentence.
///
/// `line 17: "The Englishman lives in the first house." (Englishman = 1)`,
/// or `group nationality: all different`.
pub fn blame(puzzle: &Puzzle, pm: &PuzzleModel, c: ConstraintId) -> String {
    match pm.origin(c) {
        Origin::Clue(i) => cite(puzzle, i),
        Origin::AllDifferent(_) | Origin::EveryHouse(_) => pm.model().describe(c),
    }
}
