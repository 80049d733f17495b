//! `bitfd sudoku`: boards of 9x9 to 36x36, one a line, each solved (or its
//! solutions counted), then a summary with puzzles per second.

use std::fmt::Write as _;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitfd::Mode;
use bitfd::puzzle::print::Verdict;
use bitfd::sudoku::Board;

use super::args::SudokuArgs;
use super::input::read_bounded_line;
use super::{ERROR, INPUT_ERROR, search};

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
}

/// Runs `bitfd sudoku`.
pub(crate) fn sudoku(args: &SudokuArgs) -> io::Result<ExitCode> {
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
