//! `bitfd sudoku`: boards of 9x9 to 36x36, one a line, each solved (or its
//! solutions counted) on every core and printed in input order, then a
//! summary with puzzles per second.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitfd::puzzle::print::Verdict;
use bitfd::sudoku::Board;
use bitfd::{Mode, Restarts, VarOrder};

use super::args::{BoxLine, SudokuArgs, Views};
use super::batch::{Output, Sink, Terminal, run_ordered};
use super::input::Lines;
use super::{ERROR, INPUT_ERROR, exit_code, search};

/// The longest sudoku line read; longer lines are reported and skipped.
const MAX_BOARD_LINE: usize = 4096;

/// What the boards of one run came to.
#[derive(Debug, Default)]
struct Tally {
    boards: u64,
    unique: u64,
    several: u64,
    none: u64,
    unknown: u64,
    malformed: u64,
    /// The time spent building and searching, summed over the boards.
    busy: Duration,
}

/// One line's result: its output, and for a board its verdict and the
/// time its search took.
type Solved = (Output, Option<(Verdict, Duration)>);

/// Runs `bitfd sudoku`.
pub(crate) fn sudoku(args: &SudokuArgs) -> io::Result<ExitCode> {
    let path = args.file.as_deref().unwrap_or(Path::new("-"));
    let mut lines = match Lines::open(path, MAX_BOARD_LINE) {
        Ok(lines) => lines,
        Err(message) => {
            writeln!(anstream::stderr(), "{ERROR}error:{ERROR:#} {message}")?;
            return Ok(ExitCode::from(INPUT_ERROR));
        }
    };
    let name = lines.name.clone();
    if lines.starts_like_json() {
        writeln!(
            anstream::stderr(),
            "{ERROR}error:{ERROR:#} {name} looks like JSON, but `bitfd sudoku` reads one board \
             a line (81, 256, 625 or 1296 symbols, row by row, `.` for a blank)\n  \
             = help: for the JSON form of the shared test data, take the boards out \
             first: jq -r '.puzzles[].puzzle' {name} | bitfd sudoku"
        )?;
        return Ok(ExitCode::from(INPUT_ERROR));
    }
    // Comments never reach the workers.
    let lines = lines.filter(|(_, line)| {
        line.as_ref()
            .map_or(true, |l| l.trim_ascii_start().first() != Some(&b'#'))
    });
    let work = |_: usize, (number, line): (u64, Result<Vec<u8>, String>)| {
        let board = line.and_then(|bytes| {
            let text = String::from_utf8(bytes).map_err(|_| "the line is not UTF-8 text")?;
            Board::parse(&text).map_err(|e| e.to_string())
        });
        match board {
            Ok(board) => solve_board(args, &board),
            Err(problem) => {
                let output = Output {
                    err: format!("{ERROR}error:{ERROR:#} {name}:{number}: {problem}\n"),
                    failed: true,
                    ..Output::default()
                };
                (output, None)
            }
        }
    };
    let mut sink = Boards {
        terminal: Terminal::new(None),
        tally: Tally::default(),
    };
    run_ordered(args.jobs.threads(), lines, work, &mut sink)?;
    let Boards { terminal, tally } = sink;
    let (failed, unknown) = terminal.finish()?;
    let mut out = anstream::stdout().lock();
    writeln!(out, "{}", summary(&tally))?;
    out.flush()?;
    Ok(exit_code(failed, unknown))
}

/// Solves one board (or counts its solutions).
fn solve_board(args: &SudokuArgs, board: &Board) -> Solved {
    let mode = if args.count {
        Mode::Count
    } else {
        Mode::AtMost(2)
    };
    let started = Instant::now();
    let mut sm = board.to_model(args.search.strength());
    // From 16x16 on the bands cost more than they prune: without them the
    // most costly class holds built-in all-differents only, and runs by
    // rounds.
    let box_line = args.box_line.unwrap_or(if board.size() >= 16 {
        BoxLine::Off
    } else {
        BoxLine::On
    });
    if box_line == BoxLine::On {
        sm.add_box_line();
    }
    if args.views == Views::On {
        sm.add_views(args.search.strength());
    }

    let mut options = args.search.options();
    // Large boards are won by learning where the conflicts are; on small
    // ones that costs more than it saves.
    if board.size() >= 25 {
        if !args.search.var_order_chosen() {
            options.var_order = VarOrder::DomWdeg;
        }
        if !args.search.probe_chosen() {
            options.probe = true;
        }
        if !args.search.restarts_chosen() {
            options.restarts = Restarts::Geometric {
                // Large boards gain from longer first runs.
                first: args.search.restart_first().unwrap_or(40),
            };
        }
    }
    let (outcome, _) = search(sm.model(), &options, mode, &mut ());
    let busy = started.elapsed();
    let verdict = Verdict::of(&outcome);
    let first = outcome.solutions.first().map(|s| sm.line(s));
    let shown = match (args.count, verdict, first) {
        (true, Verdict::Unknown(status, n), _) => format!("{n} or more ({status})"),
        (true, _, _) => outcome.stats.solutions.to_string(),
        (false, Verdict::Unique, Some(s)) => s,
        (false, Verdict::NoSolution(_), _) => "no solution".to_owned(),
        (false, Verdict::Unknown(status, _), _) => format!("unknown ({status})"),
        (false, _, Some(s)) => format!("{s} (not unique)"),
        (false, _, None) => "unknown".to_owned(),
    };
    let output = Output {
        out: format!("{shown}\n"),
        unknown: matches!(verdict, Verdict::Unknown(..)),
        ..Output::default()
    };
    (output, Some((verdict, busy)))
}

/// Prints each line's result and counts the verdicts.
struct Boards {
    terminal: Terminal,
    tally: Tally,
}

impl Sink<Solved> for Boards {
    fn emit(&mut self, (output, board): Solved) -> io::Result<()> {
        let tally = &mut self.tally;
        match board {
            None => tally.malformed += 1,
            Some((verdict, busy)) => {
                tally.boards += 1;
                tally.busy += busy;
                match verdict {
                    Verdict::Unique => tally.unique += 1,
                    Verdict::Exactly(_) | Verdict::AtLeast(_) => tally.several += 1,
                    Verdict::NoSolution(_) => tally.none += 1,
                    Verdict::Unknown(..) => tally.unknown += 1,
                }
            }
        }
        self.terminal.write(&output)
    }

    fn idle(&mut self) -> io::Result<()> {
        self.terminal.flush()
    }
}

/// `3 puzzles: 2 unique, 1 not unique, 0 without solution; 812.3 puzzles/s
/// per core`: the rate is the boards over the time their searches took,
/// summed (so it does not depend on --jobs, and says so).
fn summary(tally: &Tally) -> String {
    let rate = if tally.busy.is_zero() {
        0.0
    } else {
        tally.boards as f64 / tally.busy.as_secs_f64()
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut summary = format!(
        "{}: {} unique, {} not unique, {} without solution",
        plural(tally.boards, "puzzle", "puzzles"),
        tally.unique,
        tally.several,
        tally.none
    );
    if tally.unknown > 0 {
        write!(summary, ", {} unknown (limit)", tally.unknown).expect("a String");
    }
    if tally.malformed > 0 {
        let lines = plural(tally.malformed, "malformed line", "malformed lines");
        write!(summary, ", {lines}").expect("a String");
    }
    write!(summary, "; {rate:.1} puzzles/s per core").expect("a String");
    summary
}
