//! `bitfd solve`: the grid, the answers, the verdict and the statistics of
//! each puzzle, as text or one JSON document a line; many puzzles on every
//! core, printed in input order.

use std::fmt::Write as _;
use std::io;
use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::time::Duration;

use bitfd::puzzle::print::{Answer, Grid, Verdict, answer, blame, cite};
use bitfd::puzzle::{self, Puzzle, PuzzleModel};
use bitfd::{Mode, Outcome, Trace, Tree};
use serde_json::{Value, json};

use super::args::{SolveArgs, TreeFormat};
use super::batch::{Output, Terminal, run_ordered};
use super::input::{Item, Loaded};
use super::{
    BOLD, DIM, ERROR, GOOD, INPUT_ERROR, WARN, count_parallel, exit_code, search, stats_line,
};

/// Runs `bitfd solve`.
pub(crate) fn solve(args: &SolveArgs) -> io::Result<ExitCode> {
    let mode = if args.all {
        Mode::All
    } else if args.count {
        Mode::Count
    } else if let Some(n) = args.max {
        Mode::AtMost(n)
    } else {
        Mode::AtMost(2)
    };
    let Some(source) = args.batch.source() else {
        return Ok(ExitCode::from(INPUT_ERROR));
    };
    // Several inputs get a header each.
    let several = source.len().is_none_or(|n| n > 1);
    let threads = args.batch.jobs.threads();
    // A single puzzle's count runs on the threads the batch would have had
    // (the counts and statistics are the same on any number).
    let count_threads = if several { 1 } else { threads };
    let mut terminal = Terminal::new(source.len());
    let work = |i: usize, item: Item| match item.load() {
        Ok(loaded) => solve_one(args, mode, &loaded, several.then_some(i), count_threads),
        Err(e) => Output::load_error(&e, args.json),
    };
    run_ordered(threads, source, work, &mut terminal)?;
    Ok(exit_code(terminal.finish()?))
}

/// Solves one puzzle; `header` is its index when several are solved. A
/// count with nothing recorded runs on `count_threads` threads.
fn solve_one(
    args: &SolveArgs,
    mode: Mode,
    loaded: &Loaded,
    header: Option<usize>,
    count_threads: usize,
) -> Output {
    let strength = args.search.strength();
    let puzzle = &loaded.puzzle;
    let pm = puzzle.to_model_with(strength);
    let model = pm.model();
    let options = args.search.options();
    // The recorders, only when asked for: `()` records nothing.
    let (outcome, time, tree, trace) = match (args.tree, args.trace) {
        (None, false) => {
            let (outcome, time) = match NonZeroUsize::new(count_threads) {
                Some(threads) if mode == Mode::Count && threads.get() > 1 => {
                    count_parallel(model, &options, threads)
                }
                _ => search(model, &options, mode, &mut ()),
            };
            (outcome, time, None, None)
        }
        (Some(_), false) => {
            let mut tree = Tree::new(model, &options);
            let (outcome, time) = search(model, &options, mode, &mut tree);
            (outcome, time, Some(tree), None)
        }
        (None, true) => {
            let mut trace = Trace::new(model);
            let (outcome, time) = search(model, &options, mode, &mut trace);
            (outcome, time, None, Some(trace))
        }
        (Some(_), true) => {
            let mut both = (Tree::new(model, &options), Trace::new(model));
            let (outcome, time) = search(model, &options, mode, &mut both);
            (outcome, time, Some(both.0), Some(both.1))
        }
    };
    let conflict = match Verdict::of(&outcome) {
        Verdict::NoSolution(Some(_)) => puzzle.root_conflict(strength),
        _ => None,
    };
    let solved = Solved {
        loaded,
        pm: &pm,
        outcome: &outcome,
        time,
        conflict,
    };
    let mut out = String::new();
    if args.json {
        writeln!(out, "{}", solve_json(&solved)).expect("writing to a String");
    } else {
        if let Some(i) = header {
            if i > 0 {
                out.push('\n');
            }
            writeln!(out, "{DIM}==> {} <=={DIM:#}", loaded.input.name)
                .expect("writing to a String");
        }
        write_solve_text(&mut out, &solved, mode);
        if let Some(trace) = trace {
            write!(out, "\n{trace}").expect("writing to a String");
        }
        if let (Some(tree), Some(format)) = (tree, args.tree) {
            let rendered = match format {
                TreeFormat::Text => tree.to_string(),
                TreeFormat::Dot => tree.to_dot(),
                TreeFormat::Json => tree.to_json(),
            };
            out.push('\n');
            out.push_str(&rendered);
            if !rendered.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    Output {
        out,
        ..Output::default()
    }
}

/// What one puzzle's search came to, for printing.
struct Solved<'a> {
    loaded: &'a Loaded,
    pm: &'a PuzzleModel,
    outcome: &'a Outcome,
    time: Duration,
    /// The clues that contradict each other, when the root failed.
    conflict: Option<Vec<usize>>,
}

fn write_solve_text(out: &mut String, solved: &Solved<'_>, mode: Mode) {
    let Solved {
        loaded,
        pm,
        outcome,
        time,
        ref conflict,
    } = *solved;
    let puzzle: &Puzzle = &loaded.puzzle;
    // Writing to a String cannot fail.
    let mut line = |text: std::fmt::Arguments<'_>| {
        out.write_fmt(text).expect("writing to a String");
        out.push('\n');
    };
    line(format_args!(
        "{BOLD}{}{BOLD:#}",
        puzzle.title().unwrap_or(&loaded.input.name)
    ));
    let verdict = Verdict::of(outcome);
    let numbered = outcome.solutions.len() > 1 || !verdict.is_unique();
    for (k, solution) in outcome.solutions.iter().enumerate() {
        line(format_args!(""));
        if numbered {
            line(format_args!("{BOLD}solution {}{BOLD:#}", k + 1));
        }
        let grid = Grid::new(puzzle, pm, solution).to_string();
        for (n, row) in grid.lines().enumerate() {
            if n == 0 {
                line(format_args!("{DIM}{row}{DIM:#}"));
            } else {
                line(format_args!("{row}"));
            }
        }
        let answers: Vec<Answer> = puzzle
            .asks()
            .iter()
            .map(|a| answer(puzzle, pm, a, solution))
            .collect();
        if !answers.is_empty() {
            line(format_args!(""));
        }
        for a in answers {
            line(format_args!("{a}"));
        }
    }
    line(format_args!(""));
    let style = match verdict {
        Verdict::Unique => GOOD,
        Verdict::NoSolution(_) => ERROR,
        _ => WARN,
    };
    let mut sentence = verdict.sentence(mode);
    if let Verdict::NoSolution(root) = verdict {
        match root {
            Some(c) => write!(sentence, ": {} fails at the root", blame(puzzle, pm, c)),
            None => write!(sentence, ": every branch of the search fails"),
        }
        .expect("writing to a String");
    }
    line(format_args!("{style}{sentence}{style:#}"));
    if let Some(clues) = conflict {
        line(format_args!("these clues contradict each other:"));
        for i in clues {
            line(format_args!("  {}", cite(puzzle, *i)));
        }
    }
    line(format_args!("{}", stats_line(&outcome.stats, time)));
}

fn solve_json(solved: &Solved<'_>) -> Value {
    let (loaded, pm, outcome) = (solved.loaded, solved.pm, solved.outcome);
    let puzzle = &loaded.puzzle;
    let verdict = Verdict::of(outcome);
    let solutions: Vec<Value> = outcome
        .solutions
        .iter()
        .map(|s| {
            let grid: Vec<Value> = Grid::new(puzzle, pm, s)
                .rows
                .into_iter()
                .map(|(group, cells)| json!({ "group": group, "values": cells }))
                .collect();
            let answers: Vec<Value> = puzzle
                .asks()
                .iter()
                .map(|a| {
                    let a = answer(puzzle, pm, a, s);
                    json!({ "question": a.question, "answer": a.answer })
                })
                .collect();
            json!({ "grid": grid, "answers": answers })
        })
        .collect();
    let root_failure = match verdict {
        Verdict::NoSolution(Some(c)) => {
            let mut failure = root_failure_json(puzzle, pm, c);
            let clues: Vec<Value> = solved
                .conflict
                .iter()
                .flatten()
                .map(|&i| clue_json(puzzle, i))
                .collect();
            failure["conflictingClues"] = Value::from(clues);
            failure
        }
        _ => Value::Null,
    };
    let s = &outcome.stats;
    json!({
        "file": loaded.input.file,
        "line": loaded.input.line,
        "id": loaded.id,
        "title": puzzle.title(),
        "houses": puzzle.houses(),
        "verdict": verdict_word(verdict),
        "status": outcome.status.to_string(),
        "solutions": solutions,
        "rootFailure": root_failure,
        "statistics": {
            "nodes": s.nodes,
            "failures": s.failures,
            "nSolutions": s.solutions,
            "propagations": s.propagations,
            "solveTime": solved.time.as_secs_f64(),
            "choices": s.choices,
            "peakDepth": s.max_depth,
        },
    })
}

/// The constraint that failed at the root: its description, and the line
/// of its clue when a clue failed.
pub(crate) fn root_failure_json(
    puzzle: &Puzzle,
    pm: &PuzzleModel,
    c: bitfd::ConstraintId,
) -> Value {
    let clue = match pm.origin(c) {
        puzzle::Origin::Clue(i) => clue_json(puzzle, i),
        _ => Value::Null,
    };
    json!({
        "constraint": pm.model().describe(c),
        "line": clue.get("line"),
        "clue": clue,
    })
}

/// A clue: its line (for a file), sentence and relation.
fn clue_json(puzzle: &Puzzle, i: usize) -> Value {
    let clue = &puzzle.clues()[i];
    json!({
        "line": puzzle.clue_line(i),
        "label": clue.label,
        "relation": puzzle.relation_text(&clue.relation),
    })
}

/// The verdict as one word for JSON: unique, not unique, no solution, unknown.
fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Unique => "unique",
        Verdict::Exactly(_) => "not unique",
        Verdict::AtLeast(n) if n >= 2 => "not unique",
        Verdict::NoSolution(_) => "no solution",
        Verdict::AtLeast(_) | Verdict::Unknown(..) => "unknown",
    }
}
