//! `bitfd check`: does each puzzle have exactly one solution? One line a
//! puzzle, naming the cells where two solutions differ or the clue that
//! fails; `--json` adds both solutions and the difficulty rating. Many
//! puzzles on every core, printed in input order.

use std::fmt::Write as _;
use std::io;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anstyle::Style;
use bitfd::check::{Difference, Rating, Uniqueness};
use bitfd::puzzle::print::blame;
use bitfd::puzzle::{Puzzle, PuzzleModel, ValueRef};
use bitfd::{Solution, Solver, Stats};
use serde_json::{Map, Value, json};

use super::args::CheckArgs;
use super::batch::{Output, Terminal, run_ordered};
use super::input::{Item, Loaded};
use super::solve::root_failure_json;
use super::{ERROR, GOOD, INPUT_ERROR, WARN, exit_code};

/// At most this many differing cells are named on a text line (JSON names
/// them all).
const CELLS_SHOWN: usize = 8;

/// Runs `bitfd check`.
pub(crate) fn check(args: &CheckArgs) -> io::Result<ExitCode> {
    let Some(source) = args.batch.source() else {
        return Ok(ExitCode::from(INPUT_ERROR));
    };
    let mut terminal = Terminal::new(source.len());
    let work = |_: usize, item: Item| match item.load() {
        Ok(loaded) => check_one(args, &loaded),
        Err(e) => {
            let mut output = Output::load_error(&e, args.json);
            if !args.json {
                output.out = format!("{}: {ERROR}error{ERROR:#}\n", e.input.name);
            }
            output
        }
    };
    run_ordered(args.batch.jobs.threads(), source, work, &mut terminal)?;
    let (failed, unknown) = terminal.finish()?;
    Ok(exit_code(failed, unknown))
}

/// What checking one puzzle found.
struct Checked<'a> {
    loaded: &'a Loaded,
    pm: &'a PuzzleModel,
    verdict: Uniqueness,
    /// The uniqueness search's statistics.
    stats: Stats,
    time: Duration,
    /// The rating, for a unique puzzle when asked.
    rating: Option<Rating>,
}

fn check_one(args: &CheckArgs, loaded: &Loaded) -> Output {
    let pm = loaded.puzzle.to_model_with(args.search.strength());
    let mut solver = Solver::new(pm.model());
    let started = Instant::now();
    let verdict = solver.uniqueness(&args.search.options());
    let stats = solver.stats();
    let time = started.elapsed();
    // Rating searches the whole tree again: only for JSON, only for a
    // unique puzzle (the tree of a puzzle with many solutions can be huge),
    // and within the node and time limits given (null when they cut it).
    let rating = if args.json && verdict.is_unique() {
        solver.rate_within(&args.search.options())
    } else {
        None
    };
    let checked = Checked {
        loaded,
        pm: &pm,
        verdict,
        stats,
        time,
        rating,
    };
    let out = if args.json {
        format!("{}\n", check_json(&checked))
    } else {
        check_text(&checked)
    };
    // A search cut short by a limit answers nothing: exit code 3 (unless
    // another puzzle is known not to be unique).
    let unknown = matches!(checked.verdict, Uniqueness::Unknown { .. });
    Output {
        out,
        err: String::new(),
        failed: !checked.verdict.is_unique() && !unknown,
        unknown,
    }
}

/// `name: unique (nodes 9, failures 4)`; for a puzzle that is not unique
/// the cells where two solutions differ, and for one without solution the
/// clue that fails.
fn check_text(c: &Checked<'_>) -> String {
    let words = Words::of(&c.loaded.puzzle, c.pm, &c.verdict);
    let stats = format!("nodes {}, failures {}", c.stats.nodes, c.stats.failures);
    let note = match words.qualifier {
        Some(q) => format!("{q}; {stats}"),
        None => stats,
    };
    let (style, word) = (words.style, words.word);
    let mut line = format!("{}: {style}{word}{style:#} ({note})", c.loaded.input.name);
    if let Some(detail) = words.detail {
        write!(line, ": {detail}").expect("writing to a String");
    }
    line.push('\n');
    line
}

/// A verdict in words, as `check` prints it.
pub(crate) struct Words {
    style: Style,
    /// `unique`, `not unique`, `no solution`, `unknown`.
    word: &'static str,
    /// `>= 2 solutions`, or the limit that stopped the search.
    qualifier: Option<String>,
    /// Where two solutions differ, or the clue that fails.
    detail: Option<String>,
}

impl Words {
    /// The words for `verdict` on `puzzle`, built into `pm`.
    pub(crate) fn of(puzzle: &Puzzle, pm: &PuzzleModel, verdict: &Uniqueness) -> Words {
        let (style, word, qualifier, detail) = match verdict {
            Uniqueness::Unique(_) => (GOOD, "unique", None, None),
            Uniqueness::Several { differences, .. } => {
                let mut cells: Vec<String> = differences
                    .iter()
                    .take(CELLS_SHOWN)
                    .map(|d| {
                        let name = pm.model().name(d.var);
                        format!("{name} ({} vs {})", d.first, d.second)
                    })
                    .collect();
                if differences.len() > CELLS_SHOWN {
                    cells.push(format!("and {} more", differences.len() - CELLS_SHOWN));
                }
                let detail = format!("differ at {}", cells.join(", "));
                let qualifier = ">= 2 solutions".to_owned();
                (WARN, "not unique", Some(qualifier), Some(detail))
            }
            Uniqueness::None { failed_at_root } => {
                let why = match failed_at_root {
                    Some(constraint) => {
                        format!("{} fails at the root", blame(puzzle, pm, *constraint))
                    }
                    None => "every branch of the search fails".to_owned(),
                };
                (WARN, "no solution", None, Some(why))
            }
            Uniqueness::Unknown { status } => (WARN, "unknown", Some(status.to_string()), None),
        };
        Words {
            style,
            word,
            qualifier,
            detail,
        }
    }
}

impl std::fmt::Display for Words {
    /// `not unique (>= 2 solutions): differ at fox (1 vs 3)`, unstyled.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word)?;
        if let Some(q) = &self.qualifier {
            write!(f, " ({q})")?;
        }
        if let Some(d) = &self.detail {
            write!(f, ": {d}")?;
        }
        Ok(())
    }
}

/// The check as one JSON object.
fn check_json(c: &Checked<'_>) -> Value {
    let puzzle = &c.loaded.puzzle;
    let (word, witnesses, differences, root_failure) = match &c.verdict {
        Uniqueness::Unique(s) => ("unique", vec![solution_json(s)], Vec::new(), Value::Null),
        Uniqueness::Several {
            first,
            second,
            differences,
        } => (
            "not unique",
            vec![solution_json(first), solution_json(second)],
            differences_json(puzzle, c.pm, differences),
            Value::Null,
        ),
        Uniqueness::None { failed_at_root } => (
            "no solution",
            Vec::new(),
            Vec::new(),
            failed_at_root.map_or(Value::Null, |constraint| {
                root_failure_json(puzzle, c.pm, constraint)
            }),
        ),
        Uniqueness::Unknown { .. } => ("unknown", Vec::new(), Vec::new(), Value::Null),
    };
    let status = match &c.verdict {
        Uniqueness::Unknown { status } => Value::from(status.to_string()),
        _ => Value::Null,
    };
    let rating = c.rating.map_or(Value::Null, |r| {
        json!({
            "nodes": r.nodes,
            "failures": r.failures,
            "solutions": r.solutions,
            "propagationOnly": r.propagation_only,
            "rootPropagations": r.root_propagations,
        })
    });
    let s = &c.stats;
    json!({
        "file": c.loaded.input.file,
        "line": c.loaded.input.line,
        "id": c.loaded.id,
        "title": puzzle.title(),
        "verdict": word,
        "limit": status,
        "solutions": witnesses.len(),
        "witnesses": witnesses,
        "differences": differences,
        "rootFailure": root_failure,
        "rating": rating,
        "statistics": {
            "nodes": s.nodes,
            "failures": s.failures,
            "propagations": s.propagations,
            "solveTime": c.time.as_secs_f64(),
            "choices": s.choices,
            "peakDepth": s.max_depth,
        },
    })
}

/// A solution as `{variable: house}`, the variables named as the model
/// names them (a value, or `group.value` where the name is ambiguous).
fn solution_json(s: &Solution) -> Value {
    let map: Map<String, Value> = s
        .iter()
        .map(|(name, house)| (name.to_owned(), Value::from(house)))
        .collect();
    Value::Object(map)
}

/// Each differing cell: its variable, group and value, and its house in
/// each solution.
fn differences_json(puzzle: &Puzzle, pm: &PuzzleModel, differences: &[Difference]) -> Vec<Value> {
    // The way back from a variable to its value.
    let mut values: Vec<Option<ValueRef>> = vec![None; pm.model().len()];
    for (g, group) in puzzle.groups().iter().enumerate() {
        for v in 0..group.values.len() {
            let value = ValueRef { group: g, value: v };
            values[pm.var(value).index()] = Some(value);
        }
    }
    differences
        .iter()
        .map(|d| {
            let value = values[d.var.index()];
            json!({
                "variable": pm.model().name(d.var),
                "group": value.map(|v| &puzzle.groups()[v.group].name),
                "value": value.map(|v| puzzle.value_name(v)),
                "first": d.first,
                "second": d.second,
            })
        })
        .collect()
}
