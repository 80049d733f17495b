//! `bitfd solve`: the grid, the answers, the verdict and the statistics of
//! each puzzle, as text or one JSON document a line.
//!
//! Two ways to run: `--all` and `--max N` print each solution as soon as
//! the search finds it ([`Solver::solve_each`]) and hold none of them, so
//! a puzzle with billions of solutions streams in constant memory and a
//! closed output (`| head`) stops the search at once; these run one puzzle
//! after another. Every other mode holds at most two solutions, and many
//! puzzles run on every core, printed in input order.
//!
//! Where the recordings go ([`Plan`]): the text tree and the trace after
//! the result; a DOT or JSON tree alone on standard output, as one
//! document; with `--json`, inside the JSON; with `--tree-out FILE` or
//! `--trace-out FILE`, to the file (numbered when there are several
//! puzzles).

use std::fmt::Write as _;
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitfd::puzzle::english::AnswerGrid;
use bitfd::puzzle::print::{Answer, Grid, Verdict, answer, blame, cite};
use bitfd::puzzle::{self, MinimalConflict, Puzzle, PuzzleModel};
use bitfd::{
    Mode, Model, Observer, Outcome, SearchOptions, SearchStatus, Solution, Solver, Stats, Trace,
    Tree,
};
use serde_json::{Value, json};

use super::args::{SolveArgs, TreeFormat};
use super::batch::{Output, Terminal, run_ordered};
use super::input::{Item, Loaded, Source};
use super::writer::{Closed, Pipe};
use super::{
    BOLD, DIM, ERROR, GOOD, INPUT_ERROR, USAGE_ERROR, WARN, count_parallel, exit_code, stats_line,
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
    let plan = match Plan::new(args, several) {
        Ok(plan) => plan,
        Err(message) => {
            writeln!(anstream::stderr(), "{ERROR}error:{ERROR:#} {message}")?;
            return Ok(ExitCode::from(USAGE_ERROR));
        }
    };
    if args.all || args.max.is_some() {
        return stream(args, &plan, mode, source);
    }
    let threads = args.batch.jobs.threads();
    // A single puzzle's count runs on the threads the batch would have had
    // (the counts and statistics are the same on any number).
    let count_threads = if several { 1 } else { threads };
    let mut terminal = Terminal::new(source.len());
    let work = |i: usize, item: Item| match item.load() {
        Ok(loaded) => solve_one(args, &plan, mode, &loaded, i, count_threads),
        Err(e) => Output::load_error(&e, args.json),
    };
    run_ordered(threads, source, work, &mut terminal)?;
    let (failed, unknown) = terminal.finish()?;
    Ok(exit_code(failed, unknown))
}

/// Where a recording (`--tree`, `--trace`) goes.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Dest {
    /// After the text result, on standard output: the text tree and the
    /// trace, which are for people.
    After,
    /// Alone on standard output, in place of the result: a DOT or JSON
    /// tree, a document for a tool.
    Alone,
    /// Inside the JSON document (`--json`).
    Json,
    /// To this file (`--tree-out`, `--trace-out`); with several inputs,
    /// each to its own ([`Plan::file`]).
    File(PathBuf),
}

/// Where each output of a run goes, decided once before any search.
#[derive(Debug)]
struct Plan {
    tree: Option<Dest>,
    trace: Option<Dest>,
    /// Whether there are (or may be, for a stream) several inputs.
    several: bool,
}

impl Plan {
    /// The plan for `args`.
    ///
    /// # Errors
    ///
    /// A usage error when two documents would share standard output: a
    /// DOT or JSON tree with the trace, or with several puzzles.
    fn new(args: &SolveArgs, several: bool) -> Result<Plan, String> {
        let tree = args.tree.map(|format| match (&args.tree_out, format) {
            (Some(path), _) => Dest::File(path.clone()),
            (None, _) if args.json => Dest::Json,
            (None, TreeFormat::Text) => Dest::After,
            (None, TreeFormat::Dot | TreeFormat::Json) => Dest::Alone,
        });
        let trace = args.trace.then(|| match &args.trace_out {
            Some(path) => Dest::File(path.clone()),
            None if args.json => Dest::Json,
            None => Dest::After,
        });
        if tree == Some(Dest::Alone) {
            let format = match args.tree {
                Some(TreeFormat::Dot) => "dot",
                _ => "json",
            };
            if several {
                return Err(format!(
                    "--tree {format} writes one document to standard output, and there may be \
                     several puzzles: give --tree-out FILE (each puzzle's tree then goes to its \
                     own file, FILE with the puzzle's number before the extension)"
                ));
            }
            if trace == Some(Dest::After) {
                return Err(format!(
                    "--tree {format} and --trace would both write to standard output: give \
                     --tree-out FILE or --trace-out FILE"
                ));
            }
        }
        Ok(Plan {
            tree,
            trace,
            several,
        })
    }

    /// Whether the result (grid, verdict, statistics; or the JSON
    /// document) goes to standard output: not when the tree takes it.
    fn result_shown(&self) -> bool {
        self.tree != Some(Dest::Alone)
    }

    /// The file for input `index`'s recording: `path` itself for a single
    /// input; with several, the input's number (from 1) goes before the
    /// extension: `tree.dot` becomes `tree.1.dot`, `tree` becomes `tree.1`.
    fn file(&self, path: &Path, index: usize) -> PathBuf {
        if !self.several {
            return path.to_owned();
        }
        let number = index + 1;
        let name = match (path.file_stem(), path.extension()) {
            (Some(stem), Some(ext)) => format!(
                "{}.{number}.{}",
                stem.to_string_lossy(),
                ext.to_string_lossy()
            ),
            _ => format!(
                "{}.{number}",
                path.file_name().unwrap_or_default().to_string_lossy()
            ),
        };
        path.with_file_name(name)
    }
}

/// One search of a puzzle, run with whatever observer the recorders make.
trait Search {
    /// Runs the search, reporting to `observer`.
    fn run<O: Observer>(&mut self, observer: &mut O) -> Outcome;
}

/// Runs `search` with the recorders `--tree` and `--trace` ask for (`()`
/// records nothing, at no cost), and returns what they recorded.
fn recorded(
    args: &SolveArgs,
    model: &Model,
    options: &SearchOptions,
    search: &mut impl Search,
) -> (Outcome, Option<Tree>, Option<Trace>) {
    let tree = args.tree.map(|_| {
        let mut tree = Tree::new(model, options);
        tree.set_record_limit(args.record_limit);
        tree
    });
    let trace = args.trace.then(|| {
        let mut trace = Trace::new(model);
        trace.set_record_limit(args.record_limit);
        trace
    });
    match (tree, trace) {
        (None, None) => (search.run(&mut ()), None, None),
        (Some(mut tree), None) => (search.run(&mut tree), Some(tree), None),
        (None, Some(mut trace)) => (search.run(&mut trace), None, Some(trace)),
        (Some(tree), Some(trace)) => {
            let mut both = (tree, trace);
            let outcome = search.run(&mut both);
            (outcome, Some(both.0), Some(both.1))
        }
    }
}

/// A search that keeps its solutions (at most two, in the batch modes).
struct Keeping<'a> {
    solver: Solver,
    options: &'a SearchOptions,
    mode: Mode,
}

impl Search for Keeping<'_> {
    fn run<O: Observer>(&mut self, observer: &mut O) -> Outcome {
        self.solver
            .solve_observed(self.options, self.mode, observer)
    }
}

/// A search that hands each solution to `each` as it is found.
struct Each<'a, F> {
    solver: Solver,
    options: &'a SearchOptions,
    mode: Mode,
    each: F,
}

impl<F: FnMut(Solution) -> ControlFlow<()>> Search for Each<'_, F> {
    fn run<O: Observer>(&mut self, observer: &mut O) -> Outcome {
        self.solver
            .solve_each(self.options, self.mode, observer, &mut self.each)
    }
}

/// Solves input `index` in a batch mode (at most two solutions kept). A
/// count with nothing recorded runs on `count_threads` threads.
fn solve_one(
    args: &SolveArgs,
    plan: &Plan,
    mode: Mode,
    loaded: &Loaded,
    index: usize,
    count_threads: usize,
) -> Output {
    let strength = args.search.strength();
    let puzzle = &loaded.puzzle;
    let pm = puzzle.to_model_with(strength);
    let model = pm.model();
    let options = args.search.options();
    let started = Instant::now();
    let parallel = NonZeroUsize::new(count_threads)
        .filter(|t| mode == Mode::Count && t.get() > 1 && args.tree.is_none() && !args.trace);
    let (outcome, time, tree, trace) = match parallel {
        Some(threads) => {
            let (outcome, time) = count_parallel(model, &options, threads);
            (outcome, time, None, None)
        }
        None => {
            let mut search = Keeping {
                solver: Solver::new(model),
                options: &options,
                mode,
            };
            let (outcome, tree, trace) = recorded(args, model, &options, &mut search);
            (outcome, started.elapsed(), tree, trace)
        }
    };
    let mut output = Output {
        unknown: outcome.status.is_cut_short(),
        ..Output::default()
    };
    let recordings = Recordings::new(args, plan, index, tree.as_ref(), trace.as_ref());
    let solved = Solved {
        loaded,
        pm: &pm,
        conflict: conflict(puzzle, strength, &options, &outcome),
        outcome: &outcome,
        time,
        json: recordings.json.clone(),
    };
    let out = &mut output.out;
    if !plan.result_shown() {
        // The tree takes standard output alone.
    } else if args.json {
        writeln!(out, "{}", solve_json(&solved)).expect("writing to a String");
    } else {
        let header = plan.several.then_some(index);
        out.push_str(&prelude(loaded, header));
        let verdict = Verdict::of(&outcome);
        let numbered = outcome.solutions.len() > 1 || !verdict.is_unique();
        for (k, solution) in outcome.solutions.iter().enumerate() {
            let number = numbered.then_some(k as u64 + 1);
            out.push_str(&solution_text(puzzle, &pm, solution, number));
        }
        out.push_str(&verdict_text(&solved, mode));
    }
    out.push_str(&recordings.stdout);
    output.err = recordings.write_files();
    output.failed = !output.err.is_empty();
    output
}

/// The clues that contradict each other, each one needed (checked by
/// searches within the limits of `options`), when the root failed.
fn conflict(
    puzzle: &Puzzle,
    strength: bitfd::Strength,
    options: &bitfd::SearchOptions,
    outcome: &Outcome,
) -> Option<MinimalConflict> {
    match Verdict::of(outcome) {
        Verdict::NoSolution(Some(_)) => puzzle.minimal_conflict(strength, options),
        _ => None,
    }
}

/// The recordings of one search, rendered and sorted by where they go.
struct Recordings {
    /// For standard output, after the result (or alone).
    stdout: String,
    /// The keys the JSON document gets: `tree`, `trace`.
    json: Vec<(&'static str, Value)>,
    /// `(file, text)` for each recording that goes to a file.
    files: Vec<(PathBuf, String)>,
}

impl Recordings {
    /// Renders `tree` and `trace` where `plan` sends them; `index` is the
    /// input's.
    fn new(
        args: &SolveArgs,
        plan: &Plan,
        index: usize,
        tree: Option<&Tree>,
        trace: Option<&Trace>,
    ) -> Recordings {
        let mut recordings = Recordings {
            stdout: String::new(),
            json: Vec::new(),
            files: Vec::new(),
        };
        if let (Some(trace), Some(dest)) = (trace, &plan.trace) {
            recordings.put(plan, index, "trace", dest, trace.to_string(), None);
        }
        if let (Some(tree), Some(dest), Some(format)) = (tree, &plan.tree, args.tree) {
            let (text, value) = match format {
                TreeFormat::Text => (tree.to_string(), None),
                TreeFormat::Dot => (tree.to_dot(), None),
                TreeFormat::Json => (tree.to_json(), serde_json::to_value(tree).ok()),
            };
            recordings.put(plan, index, "tree", dest, text, value);
        }
        recordings
    }

    /// Puts one rendering where `dest` says; `value` is its JSON form, if
    /// it has one (else the JSON document gets the text as a string).
    fn put(
        &mut self,
        plan: &Plan,
        index: usize,
        key: &'static str,
        dest: &Dest,
        mut text: String,
        value: Option<Value>,
    ) {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        match dest {
            Dest::After => {
                self.stdout.push('\n');
                self.stdout.push_str(&text);
            }
            Dest::Alone => self.stdout.push_str(&text),
            Dest::Json => self
                .json
                .push((key, value.unwrap_or_else(|| Value::from(text)))),
            Dest::File(path) => self.files.push((plan.file(path, index), text)),
        }
    }

    /// Writes the files; what went wrong, for stderr.
    fn write_files(&self) -> String {
        let mut err = String::new();
        for (path, text) in &self.files {
            if let Err(e) = std::fs::write(path, text) {
                writeln!(
                    err,
                    "{ERROR}error:{ERROR:#} {}: cannot write: {e}",
                    path.display()
                )
                .expect("writing to a String");
            }
        }
        err
    }
}

/// Runs `--all` and `--max N`: the inputs one after another, each
/// solution handed to the writer thread as soon as it is found.
fn stream(args: &SolveArgs, plan: &Plan, mode: Mode, source: Source) -> io::Result<ExitCode> {
    let pipe = Pipe::start()?;
    let (mut failed, mut unknown) = (false, false);
    let run = || -> Result<(), Closed> {
        for (index, item) in source.enumerate() {
            match item.load() {
                Ok(loaded) => {
                    let output = stream_one(args, plan, mode, &loaded, index, &pipe)?;
                    failed |= output.failed;
                    unknown |= output.unknown;
                }
                Err(e) => {
                    let output = Output::load_error(&e, args.json);
                    failed = true;
                    pipe.err(output.err)?;
                    pipe.out(output.out)?;
                }
            }
        }
        Ok(())
    };
    // When the writer closed, its error says why.
    let _ = run();
    pipe.finish()?;
    Ok(exit_code(failed, unknown))
}

/// Solves input `index` in a streaming mode, sending each solution to the
/// writer as it is found; the verdict, the statistics and the recordings
/// follow. Returns how it went (its text is sent).
///
/// # Errors
///
/// [`Closed`] when the writer stopped: the search stops there.
fn stream_one(
    args: &SolveArgs,
    plan: &Plan,
    mode: Mode,
    loaded: &Loaded,
    index: usize,
    pipe: &Pipe,
) -> Result<Output, Closed> {
    let strength = args.search.strength();
    let puzzle = &loaded.puzzle;
    let pm = puzzle.to_model_with(strength);
    let model = pm.model();
    let options = args.search.options();
    let shown = plan.result_shown();
    if shown && !args.json {
        pipe.out(prelude(loaded, plan.several.then_some(index)))?;
    }
    // The JSON document's part before its solutions, and each solution
    // after it, written once the first solution is found (a root failure,
    // which comes before the `solutions` key, can only be known then).
    let mut json = args.json.then(|| JsonStream::new(loaded, &pm));
    let mut sent = Ok(());
    let mut found = 0u64;
    // Time spent making the solutions' text, which is not the search's.
    let mut writing = Duration::ZERO;
    let started = Instant::now();
    let each = |solution: Solution| {
        if !shown {
            return ControlFlow::Continue(());
        }
        let start = Instant::now();
        found += 1;
        let text = match &mut json {
            Some(json) => json.solution(&solution),
            None => solution_text(puzzle, &pm, &solution, Some(found)),
        };
        sent = pipe.out(text);
        writing += start.elapsed();
        match sent {
            Ok(()) => ControlFlow::Continue(()),
            Err(Closed) => ControlFlow::Break(()),
        }
    };
    let mut search = Each {
        solver: Solver::new(model),
        options: &options,
        mode,
        each,
    };
    let (outcome, tree, trace) = recorded(args, model, &options, &mut search);
    drop(search);
    sent?;
    let time = started.elapsed().saturating_sub(writing);
    let recordings = Recordings::new(args, plan, index, tree.as_ref(), trace.as_ref());
    let solved = Solved {
        loaded,
        pm: &pm,
        conflict: conflict(puzzle, strength, &options, &outcome),
        outcome: &outcome,
        time,
        json: recordings.json.clone(),
    };
    match json {
        _ if !shown => {}
        Some(json) => pipe.out(json.finish(&solved))?,
        None => pipe.out(verdict_text(&solved, mode))?,
    }
    pipe.out(recordings.stdout.clone())?;
    let err = recordings.write_files();
    let output = Output {
        failed: !err.is_empty(),
        unknown: outcome.status.is_cut_short(),
        ..Output::default()
    };
    pipe.err(err)?;
    Ok(output)
}

/// A JSON document written in parts: what comes before its `solutions`,
/// each solution, and what comes after. Together they are byte for byte
/// the document [`solve_json`] makes with every solution in it.
struct JsonStream<'a> {
    loaded: &'a Loaded,
    pm: &'a PuzzleModel,
    /// The head, once written: `{"file":...,"solutions":[`.
    head: Option<String>,
}

/// The key whose array a [`JsonStream`] fills, as it appears in a compact
/// document: quotes inside a string are escaped, so this text appears only
/// where the key is.
const SOLUTIONS_KEY: &str = "\"solutions\":[";

impl<'a> JsonStream<'a> {
    fn new(loaded: &'a Loaded, pm: &'a PuzzleModel) -> JsonStream<'a> {
        JsonStream {
            loaded,
            pm,
            head: None,
        }
    }

    /// The text for one more solution: the head before the first, a comma
    /// before the others.
    fn solution(&mut self, s: &Solution) -> String {
        let body = solution_json(self.loaded, self.pm, s).to_string();
        if self.head.is_some() {
            return format!(",{body}");
        }
        // The outcome is not known yet, but the keys before `solutions` do
        // not depend on it: they name the input, and the root failure,
        // which a solution found rules out.
        let unknown = Outcome {
            status: SearchStatus::Complete,
            solutions: Vec::new(),
            stats: Stats::default(),
            root_failure: None,
        };
        let doc = solve_json(&Solved {
            loaded: self.loaded,
            pm: self.pm,
            outcome: &unknown,
            time: Duration::ZERO,
            conflict: None,
            json: Vec::new(),
        })
        .to_string();
        let at = doc.find(SOLUTIONS_KEY).expect("a solutions key") + SOLUTIONS_KEY.len();
        let head = self.head.insert(doc[..at].to_owned());
        format!("{head}{body}")
    }

    /// The rest of the document, once the search is over.
    fn finish(self, solved: &Solved<'_>) -> String {
        let doc = solve_json(solved).to_string();
        let Some(head) = self.head else {
            return doc + "\n";
        };
        let at = doc.find(SOLUTIONS_KEY).expect("a solutions key") + SOLUTIONS_KEY.len();
        debug_assert_eq!(&doc[..at], head, "the head does not depend on the outcome");
        // `doc` has no solution: its array closes at once.
        format!("]{}\n", &doc[at + 1..])
    }
}

/// What one puzzle's search came to, for printing.
struct Solved<'a> {
    loaded: &'a Loaded,
    pm: &'a PuzzleModel,
    outcome: &'a Outcome,
    time: Duration,
    /// The clues that contradict each other, when the root failed.
    conflict: Option<MinimalConflict>,
    /// More keys for the JSON document: the recordings it carries.
    json: Vec<(&'static str, Value)>,
}

/// What comes before the solutions: a header naming the input when
/// several are solved (`header` is its index), and the title.
fn prelude(loaded: &Loaded, header: Option<usize>) -> String {
    let mut out = String::new();
    if let Some(i) = header {
        if i > 0 {
            out.push('\n');
        }
        writeln!(out, "{DIM}==> {} <=={DIM:#}", loaded.input.name).expect("writing to a String");
    }
    let title = loaded.puzzle.title().unwrap_or(&loaded.input.name);
    writeln!(out, "{BOLD}{title}{BOLD:#}").expect("writing to a String");
    out
}

/// One solution: its number (when numbered), the grid and the answers,
/// after a blank line.
fn solution_text(
    puzzle: &Puzzle,
    pm: &PuzzleModel,
    solution: &Solution,
    number: Option<u64>,
) -> String {
    let mut out = String::from("\n");
    // Writing to a String cannot fail.
    let mut line = |text: std::fmt::Arguments<'_>| {
        out.write_fmt(text).expect("writing to a String");
        out.push('\n');
    };
    if let Some(k) = number {
        line(format_args!("{BOLD}solution {k}{BOLD:#}"));
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
    out
}

/// What comes after the solutions: a blank line, the verdict, the clues
/// that contradict each other, the statistics.
fn verdict_text(solved: &Solved<'_>, mode: Mode) -> String {
    let Solved {
        loaded,
        pm,
        outcome,
        time,
        ref conflict,
        ..
    } = *solved;
    let puzzle: &Puzzle = &loaded.puzzle;
    let mut out = String::from("\n");
    // Writing to a String cannot fail.
    let mut line = |text: std::fmt::Arguments<'_>| {
        out.write_fmt(text).expect("writing to a String");
        out.push('\n');
    };
    let verdict = Verdict::of(outcome);
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
    if let Some(found) = conflict {
        if found.proven {
            line(format_args!("these clues contradict each other:"));
        } else {
            line(format_args!(
                "these clues contradict each other (a limit cut short the check that each is needed):"
            ));
        }
        for i in &found.clues {
            line(format_args!("  {}", cite(puzzle, *i)));
        }
    }
    line(format_args!("{}", stats_line(&outcome.stats, time)));
    out
}

fn solve_json(solved: &Solved<'_>) -> Value {
    let (loaded, pm, outcome) = (solved.loaded, solved.pm, solved.outcome);
    let puzzle = &loaded.puzzle;
    let verdict = Verdict::of(outcome);
    let solutions: Vec<Value> = outcome
        .solutions
        .iter()
        .map(|s| solution_json(loaded, pm, s))
        .collect();
    let root_failure = match verdict {
        Verdict::NoSolution(Some(c)) => {
            let mut failure = root_failure_json(puzzle, pm, c);
            let clues: Vec<Value> = solved
                .conflict
                .iter()
                .flat_map(|found| &found.clues)
                .map(|&i| clue_json(puzzle, i))
                .collect();
            failure["conflictingClues"] = Value::from(clues);
            if let Some(found) = &solved.conflict {
                failure["conflictMinimal"] = Value::from(found.proven);
            }
            failure
        }
        _ => Value::Null,
    };
    let s = &outcome.stats;
    let mut doc = json!({
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
    });
    for (key, value) in &solved.json {
        doc[*key] = value.clone();
    }
    doc
}

/// One solution as JSON: its grid and its answers; for a puzzle read from
/// English, also the grid as graders use it (ZebraLogic's `{"header":
/// [...], "rows": [[...]]}`).
fn solution_json(loaded: &Loaded, pm: &PuzzleModel, s: &Solution) -> Value {
    let puzzle = &loaded.puzzle;
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
    let mut doc = json!({ "grid": grid, "answers": answers });
    if loaded.english {
        let table = AnswerGrid::new(puzzle, pm, s);
        doc["table"] = json!({ "header": table.header, "rows": table.rows });
    }
    doc
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
