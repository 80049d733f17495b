//! The `bitfd` command line: `solve`, `check` and `sudoku`.
//!
//! Thin by design: it parses arguments (clap), reads files and standard
//! input within the library's size limits, times the searches, prints
//! through the library's printers ([`bitfd::puzzle::print`]), renders
//! diagnostics with source excerpts (codespan-reporting), and picks the exit
//! code. Results go to stdout, errors to stderr. Colour goes through
//! anstream: only on a terminal, never with `NO_COLOR`, unless `--color`
//! says otherwise.
//!
//! Exit codes: 0 when every input was answered (no solution is an answer),
//! 1 for an input error (unreadable file, parse error, malformed board; for
//! `check` also a puzzle that is not unique), 2 for a usage error.

use std::fmt::Write as _;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anstyle::{AnsiColor, Style};
use bitfd::puzzle::print::{Answer, Grid, Verdict, answer, blame, cite};
use bitfd::puzzle::{self, ErrorKind, ParseErrors, Puzzle, PuzzleModel};
use bitfd::sudoku::Board;
use bitfd::{
    Mode, Model, Observer, Outcome, SearchOptions, Solver, Stats, Strength, ValueOrder, VarOrder,
};
use clap::{Args, Parser, Subcommand, ValueEnum};
use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config, Styles, StylesWriter, termcolor};
use serde_json::{Value, json};

/// Exit code: an input could not be read or parsed, or `check` found a
/// puzzle without exactly one solution.
const INPUT_ERROR: u8 = 1;

/// The longest sudoku line read; longer lines are reported and skipped.
const MAX_BOARD_LINE: usize = 4096;

const ABOUT: &str = "Solve zebra puzzles written as .zebra text files, and sudoku boards.";

const MAIN_EXAMPLES: &str = "\
Examples:
  bitfd solve examples/puzzles/zebra.zebra
  bitfd check examples/puzzles/*.zebra
  bitfd sudoku boards.txt

The .zebra format is described in docs/format.md.
Exit codes: 0 answered (no solution is an answer), 1 input error, 2 usage error.";

const SOLVE_EXAMPLES: &str = "\
Examples:
  bitfd solve examples/puzzles/zebra.zebra
  bitfd solve --all examples/puzzles/several.zebra
  bitfd solve --count --var-order input-order examples/puzzles/*.zebra
  cat examples/puzzles/zebra.zebra | bitfd solve --json -

Without --all, --count or --max, solve shows the first solution and looks
for a second one to tell whether the puzzle is unique.";

const CHECK_EXAMPLES: &str = "\
Examples:
  bitfd check examples/puzzles/*.zebra
  generate-puzzle > new.zebra && bitfd check new.zebra && echo unique

Prints one line per file: unique, not unique (counting up to 2), or no
solution. Exits with 0 only if every puzzle has exactly one solution.";

const SUDOKU_EXAMPLES: &str = "\
Examples:
  bitfd sudoku boards.txt
  echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 | bitfd sudoku
  bitfd sudoku --count boards.txt

One board a line, row by row: 81 symbols for 9x9 (1-9; `.` or `0` blank),
256 for 16x16 (0-9 A-F), 625 for 25x25 (A-Y), 1296 for 36x36 (0-9 A-Z);
`.` is a blank on every size. Empty lines and lines starting with `#` are
skipped. Prints each board's solution (or its count with --count), then how
many puzzles there were, how many were unique, and puzzles per second.";

#[derive(Debug, Parser)]
#[command(name = "bitfd", version, about = ABOUT, after_help = MAIN_EXAMPLES)]
#[command(arg_required_else_help = true)]
struct Cli {
    /// When to colour the output: auto colours a terminal unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    color: ColorWhen,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve puzzles: print the grid, the answers, the verdict and statistics.
    #[command(after_help = SOLVE_EXAMPLES)]
    Solve(SolveArgs),
    /// Check that each puzzle has exactly one solution (for authors and generators).
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// Solve sudoku boards (9x9 to 36x36), one a line.
    #[command(after_help = SUDOKU_EXAMPLES)]
    Sudoku(SudokuArgs),
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// Puzzle files (.zebra); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Print every solution.
    #[arg(long, conflicts_with_all = ["count", "max"])]
    all: bool,

    /// Count the solutions without printing them.
    #[arg(long, conflicts_with = "max")]
    count: bool,

    /// Stop after N solutions, printing each.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max: Option<u64>,

    /// Print one JSON document (a line) per puzzle instead of text.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    search: SearchArgs,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Puzzle files (.zebra); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,

    #[command(flatten)]
    search: SearchArgs,
}

#[derive(Debug, Args)]
struct SudokuArgs {
    /// A file of boards, one a line; `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,

    /// Count each board's solutions instead of printing one.
    #[arg(long)]
    count: bool,

    #[command(flatten)]
    search: SearchArgs,
}

/// The search settings. The defaults are the strongest and fastest known:
/// domain-consistent all-different, first-fail, smallest value first.
#[derive(Debug, Args)]
#[command(next_help_heading = "Search")]
struct SearchArgs {
    /// Which variable to branch on.
    #[arg(long, value_enum, value_name = "ORDER", default_value_t = VarOrderArg::FirstFail)]
    var_order: VarOrderArg,

    /// Which value to try first.
    #[arg(long, value_enum, value_name = "ORDER", default_value_t = ValueOrderArg::Min)]
    value_order: ValueOrderArg,

    /// How hard each group's all-different prunes.
    #[arg(long, value_enum, value_name = "STRENGTH", default_value_t = StrengthArg::Domain)]
    all_different: StrengthArg,

    /// Stop a search after N nodes.
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,

    /// Stop a search after this long: 500ms, 2s, 1.5s, 1m (a bare number is seconds).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    time_limit: Option<Duration>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ColorWhen {
    /// Colour on a terminal, unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum VarOrderArg {
    /// The smallest domain first; ties to the earliest declared.
    FirstFail,
    /// The earliest declared unfixed variable.
    InputOrder,
    /// The largest domain first.
    LargestDomain,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ValueOrderArg {
    /// Try the smallest value, then exclude it.
    Min,
    /// Try the largest value, then exclude it.
    Max,
    /// Try the lower half of the domain, then the upper half.
    Split,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StrengthArg {
    /// Domain consistency: Hall sets, matching.
    Domain,
    /// Remove a fixed variable's value from the others (as Oz's FD.distinct).
    Value,
}

impl SearchArgs {
    fn options(&self) -> SearchOptions {
        SearchOptions {
            var_order: match self.var_order {
                VarOrderArg::FirstFail => VarOrder::FirstFail,
                VarOrderArg::InputOrder => VarOrder::InputOrder,
                VarOrderArg::LargestDomain => VarOrder::LargestDomain,
            },
            value_order: match self.value_order {
                ValueOrderArg::Min => ValueOrder::Min,
                ValueOrderArg::Max => ValueOrder::Max,
                ValueOrderArg::Split => ValueOrder::Split,
            },
            node_limit: self.node_limit,
            time_limit: self.time_limit,
        }
    }

    fn strength(&self) -> Strength {
        match self.all_different {
            StrengthArg::Domain => Strength::Domain,
            StrengthArg::Value => Strength::Value,
        }
    }
}

/// Reads `500ms`, `2s`, `1.5s`, `1m`, or a bare number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("unknown unit `{unit}`: use ms, s, m or h")),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a duration such as 500ms, 2s or 1m"))?;
    Duration::try_from_secs_f64(value * scale)
        .map_err(|_| format!("`{text}` is not a duration such as 500ms, 2s or 1m"))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version print to stdout and exit 0; usage errors exit 2.
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    match cli.color {
        ColorWhen::Auto => {}
        ColorWhen::Always => anstream::ColorChoice::Always.write_global(),
        ColorWhen::Never => anstream::ColorChoice::Never.write_global(),
    }
    let result = match &cli.command {
        Command::Solve(args) => solve(args),
        Command::Check(args) => check(args),
        Command::Sudoku(args) => sudoku(args),
    };
    match result {
        Ok(code) => code,
        // The reader of our output went away (`bitfd ... | head`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(
                anstream::stderr(),
                "{}error:{} {e}",
                ERROR,
                ERROR.render_reset()
            );
            ExitCode::from(INPUT_ERROR)
        }
    }
}

const ERROR: Style = AnsiColor::Red.on_default().bold();
const GOOD: Style = AnsiColor::Green.on_default().bold();
const WARN: Style = AnsiColor::Yellow.on_default().bold();
const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();

// ---------------------------------------------------------------------------
// Reading inputs.
// ---------------------------------------------------------------------------

/// A file's name as messages show it, and its bytes.
struct Input {
    name: String,
    bytes: Vec<u8>,
}

/// Reads a puzzle file (`-`: standard input), at most
/// [`puzzle::MAX_SOURCE_BYTES`] of it.
fn read_input(path: &Path) -> Result<Input, String> {
    let stdin = path.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    };
    let limit = puzzle::MAX_SOURCE_BYTES as u64;
    let mut bytes = Vec::new();
    let read = if stdin {
        io::stdin().lock().take(limit + 1).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("{name}: cannot read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{name}: the file is larger than {} bytes (the limit for a puzzle)",
            puzzle::MAX_SOURCE_BYTES
        ));
    }
    Ok(Input { name, bytes })
}

/// Reads and parses one puzzle file, reporting what goes wrong on stderr.
fn load_puzzle(path: &Path) -> Option<(Input, Puzzle)> {
    let input = match read_input(path) {
        Ok(input) => input,
        Err(message) => {
            let _ = writeln!(anstream::stderr(), "{ERROR}error:{ERROR:#} {message}");
            return None;
        }
    };
    match puzzle::parse_bytes(&input.bytes) {
        Ok(p) => Some((input, p)),
        Err(errors) => {
            let _ = report(&input, &errors);
            None
        }
    }
}

/// Renders every diagnostic of a file on stderr, with source excerpts.
fn report(input: &Input, errors: &ParseErrors) -> io::Result<()> {
    let source = displayable(&input.bytes);
    let file = SimpleFile::new(input.name.as_str(), source.as_str());
    let config = Config::default();
    let styles = Styles::default();
    let mut buffer = termcolor::Ansi::new(Vec::new());
    for d in errors.diagnostics() {
        let line_len = source
            .get(d.spot.span.start..)
            .and_then(|rest| rest.split('\n').next())
            .map_or(0, str::len);
        let mut report = Report::error()
            .with_code(d.kind.code())
            .with_message(&d.message);
        // A huge line is not worth printing: name the spot instead.
        if d.kind == ErrorKind::LineTooLong || line_len > 1000 {
            report = report.with_notes(vec![format!(
                "at {}:{}:{}: {}",
                input.name, d.spot.line, d.spot.column, d.expected
            )]);
        } else {
            let mut labels =
                vec![Label::primary((), d.spot.span.clone()).with_message(&d.expected)];
            for (spot, caption) in &d.related {
                labels.push(Label::secondary((), spot.span.clone()).with_message(caption));
            }
            report = report.with_labels(labels);
        }
        report = report.with_notes(d.notes.clone());
        term::emit_to_write_style(
            &mut StylesWriter::new(&mut buffer, &styles),
            &config,
            &file,
            &report,
        )
        .map_err(io::Error::other)?;
    }
    if errors.omitted() > 0 {
        writeln!(
            buffer,
            "error: {} more errors in {} not shown",
            errors.omitted(),
            input.name
        )?;
    }
    let mut stderr = anstream::stderr().lock();
    stderr.write_all(&buffer.into_inner())?;
    stderr.flush()
}

/// The source as text safe to echo to a terminal, byte for byte the same
/// length so spans stay valid: control characters (but tab, newline and a
/// carriage return before a newline) become `?`, and bytes that are not
/// UTF-8 are decoded lossily (only a `not-utf8` diagnostic, at the first bad
/// byte, points into such a file).
fn displayable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let keep =
            !c.is_control() || c == '\t' || c == '\n' || (c == '\r' && chars.peek() == Some(&'\n'));
        if keep {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Searching.
// ---------------------------------------------------------------------------

/// Runs one search and times it (model to engine, and the search).
///
/// The search-tree and trace recorders (`--tree`, `--trace`) plug in here:
/// they are [`Observer`]s, passed in place of `()`.
fn search<O: Observer>(
    model: &Model,
    options: &SearchOptions,
    mode: Mode,
    observer: &mut O,
) -> (Outcome, Duration) {
    let started = Instant::now();
    let mut solver = Solver::new(model);
    let outcome = solver.solve_observed(options, mode, observer);
    (outcome, started.elapsed())
}

/// `nodes 9, failures 4, propagations 180, time 0.051 ms`.
fn stats_line(stats: &Stats, time: Duration) -> String {
    format!(
        "nodes {}, failures {}, propagations {}, time {}",
        stats.nodes,
        stats.failures,
        stats.propagations,
        human(time)
    )
}

/// A duration in milliseconds (or seconds past one), three decimals.
fn human(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 1.0 {
        format!("{secs:.3} s")
    } else {
        format!("{:.3} ms", secs * 1000.0)
    }
}

// ---------------------------------------------------------------------------
// bitfd solve
// ---------------------------------------------------------------------------

fn solve(args: &SolveArgs) -> io::Result<ExitCode> {
    let options = args.search.options();
    let mode = if args.all {
        Mode::All
    } else if args.count {
        Mode::Count
    } else if let Some(n) = args.max {
        Mode::AtMost(n)
    } else {
        Mode::AtMost(2)
    };
    let mut out = BufWriter::new(anstream::stdout().lock());
    let mut failed = false;
    for (i, path) in args.files.iter().enumerate() {
        let Some((input, puzzle)) = load_puzzle(path) else {
            failed = true;
            continue;
        };
        let pm = puzzle.to_model_with(args.search.strength());
        let (outcome, time) = search(pm.model(), &options, mode, &mut ());
        let conflict = match Verdict::of(&outcome) {
            Verdict::NoSolution(Some(_)) => puzzle.root_conflict(args.search.strength()),
            _ => None,
        };
        let solved = Solved {
            input: &input,
            puzzle: &puzzle,
            pm: &pm,
            outcome: &outcome,
            time,
            conflict,
        };
        if args.json {
            writeln!(out, "{}", solve_json(&solved))?;
        } else {
            if args.files.len() > 1 {
                if i > 0 {
                    writeln!(out)?;
                }
                writeln!(out, "{DIM}==> {} <=={DIM:#}", input.name)?;
            }
            write_solve_text(&mut out, &solved, mode)?;
        }
        out.flush()?;
    }
    Ok(if failed {
        ExitCode::from(INPUT_ERROR)
    } else {
        ExitCode::SUCCESS
    })
}

/// What one puzzle's search came to, for printing.
struct Solved<'a> {
    input: &'a Input,
    puzzle: &'a Puzzle,
    pm: &'a PuzzleModel,
    outcome: &'a Outcome,
    time: Duration,
    /// The clues that contradict each other, when the root failed.
    conflict: Option<Vec<usize>>,
}

fn write_solve_text(out: &mut impl Write, solved: &Solved<'_>, mode: Mode) -> io::Result<()> {
    let Solved {
        input,
        puzzle,
        pm,
        outcome,
        time,
        ref conflict,
    } = *solved;
    writeln!(
        out,
        "{BOLD}{}{BOLD:#}",
        puzzle.title().unwrap_or(&input.name)
    )?;
    let verdict = Verdict::of(outcome);
    let numbered = outcome.solutions.len() > 1 || !verdict.is_unique();
    for (k, solution) in outcome.solutions.iter().enumerate() {
        writeln!(out)?;
        if numbered {
            writeln!(out, "{BOLD}solution {}{BOLD:#}", k + 1)?;
        }
        let grid = Grid::new(puzzle, pm, solution).to_string();
        for (n, line) in grid.lines().enumerate() {
            if n == 0 {
                writeln!(out, "{DIM}{line}{DIM:#}")?;
            } else {
                writeln!(out, "{line}")?;
            }
        }
        let answers: Vec<Answer> = puzzle
            .asks()
            .iter()
            .map(|a| answer(puzzle, pm, a, solution))
            .collect();
        if !answers.is_empty() {
            writeln!(out)?;
        }
        for a in answers {
            writeln!(out, "{a}")?;
        }
    }
    writeln!(out)?;
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
    writeln!(out, "{style}{sentence}{style:#}")?;
    if let Some(clues) = conflict {
        writeln!(out, "these clues contradict each other:")?;
        for i in clues {
            writeln!(out, "  {}", cite(puzzle, *i))?;
        }
    }
    writeln!(out, "{}", stats_line(&outcome.stats, time))
}

fn solve_json(solved: &Solved<'_>) -> Value {
    let Solved {
        input,
        puzzle,
        pm,
        outcome,
        time,
        ref conflict,
    } = *solved;
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
            let line = match pm.origin(c) {
                puzzle::Origin::Clue(i) => puzzle.clue_line(i),
                _ => None,
            };
            let clues: Vec<Value> = conflict
                .iter()
                .flatten()
                .map(|&i| {
                    let clue = &puzzle.clues()[i];
                    json!({
                        "line": puzzle.clue_line(i),
                        "label": clue.label,
                        "relation": puzzle.relation_text(&clue.relation),
                    })
                })
                .collect();
            json!({ "constraint": pm.model().describe(c), "line": line, "conflictingClues": clues })
        }
        _ => Value::Null,
    };
    let s = &outcome.stats;
    json!({
        "file": input.name,
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
            "solveTime": time.as_secs_f64(),
            "choices": s.choices,
            "peakDepth": s.max_depth,
        },
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

// ---------------------------------------------------------------------------
// bitfd check
// ---------------------------------------------------------------------------

fn check(args: &CheckArgs) -> io::Result<ExitCode> {
    let options = args.search.options();
    let mut out = BufWriter::new(anstream::stdout().lock());
    let mut all_unique = true;
    for path in &args.files {
        let Some((input, puzzle)) = load_puzzle(path) else {
            all_unique = false;
            let name = if path.as_os_str() == "-" {
                "<stdin>".to_owned()
            } else {
                path.display().to_string()
            };
            writeln!(out, "{name}: {ERROR}error{ERROR:#}")?;
            out.flush()?;
            continue;
        };
        let pm = puzzle.to_model_with(args.search.strength());
        let (outcome, _) = search(pm.model(), &options, Mode::AtMost(2), &mut ());
        let verdict = Verdict::of(&outcome);
        all_unique &= verdict.is_unique();
        let style = if verdict.is_unique() { GOOD } else { WARN };
        writeln!(
            out,
            "{}: {style}{}{style:#} (nodes {}, failures {})",
            input.name,
            verdict.short(),
            outcome.stats.nodes,
            outcome.stats.failures
        )?;
        out.flush()?;
    }
    Ok(if all_unique {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(INPUT_ERROR)
    })
}

// ---------------------------------------------------------------------------
// bitfd sudoku
// ---------------------------------------------------------------------------

/// What the boards of one run came to.
#[derive(Debug, Default)]
struct Tally {
    boards: u64,
    unique: u64,
    several: u64,
    none: u64,
    unknown: u64,
    malformed: u64,
}

fn sudoku(args: &SudokuArgs) -> io::Result<ExitCode> {
    let path = args.file.as_deref().filter(|p| p.as_os_str() != "-");
    let name = path.map_or_else(|| "<stdin>".to_owned(), |p| p.display().to_string());
    let mut reader: Box<dyn BufRead> = match path {
        Some(p) => match std::fs::File::open(p) {
            Ok(f) => Box::new(io::BufReader::new(f)),
            Err(e) => {
                writeln!(
                    anstream::stderr(),
                    "{ERROR}error:{ERROR:#} {name}: cannot read: {e}"
                )?;
                return Ok(ExitCode::from(INPUT_ERROR));
            }
        },
        None => Box::new(io::stdin().lock()),
    };
    let options = args.search.options();
    let mode = if args.count {
        Mode::Count
    } else {
        Mode::AtMost(2)
    };
    let mut out = BufWriter::new(anstream::stdout().lock());
    let mut tally = Tally::default();
    let mut line = Vec::new();
    let mut number = 0u64;
    let mut busy = Duration::ZERO;
    loop {
        let read = match read_bounded_line(&mut reader, &mut line, MAX_BOARD_LINE) {
            Ok(read) => read,
            Err(e) => {
                writeln!(
                    anstream::stderr(),
                    "{ERROR}error:{ERROR:#} {name}: cannot read: {e}"
                )?;
                tally.malformed += 1;
                break;
            }
        };
        let Some(complete) = read else { break };
        number += 1;
        let problem = if !complete {
            Some(format!("the line is longer than {MAX_BOARD_LINE} bytes"))
        } else {
            match std::str::from_utf8(&line) {
                Err(_) => Some("the line is not UTF-8 text".to_owned()),
                Ok(text) if text.trim().is_empty() || text.trim_start().starts_with('#') => {
                    continue;
                }
                Ok(text) => match Board::parse(text) {
                    Err(e) => Some(e.to_string()),
                    Ok(board) => {
                        let started = Instant::now();
                        let sm = board.to_model(args.search.strength());
                        let (outcome, _) = search(sm.model(), &options, mode, &mut ());
                        busy += started.elapsed();
                        tally.boards += 1;
                        let verdict = Verdict::of(&outcome);
                        match verdict {
                            Verdict::Unique => tally.unique += 1,
                            Verdict::Exactly(_) | Verdict::AtLeast(_) => tally.several += 1,
                            Verdict::NoSolution(_) => tally.none += 1,
                            Verdict::Unknown(..) => tally.unknown += 1,
                        }
                        let first = outcome.solutions.first().map(|s| sm.line(s));
                        let shown = match (args.count, verdict, first) {
                            (true, Verdict::Unknown(status, n), _) => {
                                format!("{n} or more ({status})")
                            }
                            (true, _, _) => outcome.stats.solutions.to_string(),
                            (false, Verdict::Unique, Some(s)) => s,
                            (false, Verdict::NoSolution(_), _) => "no solution".to_owned(),
                            (false, Verdict::Unknown(status, _), _) => {
                                format!("unknown ({status})")
                            }
                            (false, _, Some(s)) => format!("{s} (not unique)"),
                            (false, _, None) => "unknown".to_owned(),
                        };
                        writeln!(out, "{shown}")?;
                        out.flush()?;
                        None
                    }
                },
            }
        };
        if let Some(problem) = problem {
            tally.malformed += 1;
            out.flush()?;
            writeln!(
                anstream::stderr(),
                "{ERROR}error:{ERROR:#} {name}:{number}: {problem}"
            )?;
        }
    }
    let rate = if busy.is_zero() {
        0.0
    } else {
        tally.boards as f64 / busy.as_secs_f64()
    };
    let mut summary = format!(
        "{} puzzles: {} unique, {} not unique, {} without solution",
        tally.boards, tally.unique, tally.several, tally.none
    );
    if tally.unknown > 0 {
        write!(summary, ", {} unknown (limit)", tally.unknown).expect("a String");
    }
    if tally.malformed > 0 {
        write!(summary, ", {} malformed lines", tally.malformed).expect("a String");
    }
    writeln!(out, "{summary}; {rate:.1} puzzles/s")?;
    out.flush()?;
    Ok(if tally.malformed > 0 {
        ExitCode::from(INPUT_ERROR)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reads one line (without its `\n` or `\r\n`) into `line`, keeping at
/// most `max` bytes: `None` at the end of the input, `Some(false)` if the
/// line was longer (the rest of it is skipped, never stored).
fn read_bounded_line(
    reader: &mut dyn BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    let mut any = false;
    let mut fits = true;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        if fits && line.len() + chunk.len() <= max {
            line.extend_from_slice(chunk);
        } else {
            fits = false;
        }
        reader.consume(used);
        if done {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(any.then_some(fits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_units_or_bare_seconds() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("-1s").is_err());
    }

    #[test]
    fn bounded_lines_skip_what_is_too_long() {
        let mut input: &[u8] = b"abc\r\n0123456789\nxy";
        let mut line = Vec::new();
        assert_eq!(
            read_bounded_line(&mut input, &mut line, 5).ok(),
            Some(Some(true))
        );
        assert_eq!(line, b"abc");
        assert_eq!(
            read_bounded_line(&mut input, &mut line, 5).ok(),
            Some(Some(false))
        );
        assert_eq!(
            read_bounded_line(&mut input, &mut line, 5).ok(),
            Some(Some(true))
        );
        assert_eq!(line, b"xy");
        assert_eq!(read_bounded_line(&mut input, &mut line, 5).ok(), Some(None));
    }

    #[test]
    fn displayable_keeps_lengths_and_hides_control_characters() {
        let text = displayable(b"a\x1b[31m\tb\r\nc\rd");
        assert_eq!(text, "a?[31m\tb\r\nc?d");
    }
}
