//! The subcommands of the `bitfd` binary, one file each, and what they
//! share: styles, the timed search, the statistics line.
//!
//! * [`args`]: the grammar (clap) and the help texts;
//! * [`input`]: reading files and JSON lines, rendering diagnostics;
//! * [`batch`]: many puzzles on every core, output in input order, the
//!   progress bar;
//! * [`mod@solve`], [`mod@check`], [`mod@sudoku`], [`mod@minimize`],
//!   [`mod@generate`], [`mod@translate`]: the subcommands;
//! * [`writer`]: the thread that writes streaming output.
//!
//! Each subcommand returns the exit code, or an IO error on stdout.

pub(crate) mod args;
mod batch;
mod check;
mod generate;
mod input;
mod minimize;
mod solve;
mod sudoku;
mod translate;
mod writer;

use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anstyle::{AnsiColor, Style};
use bitfd::{Mode, Model, Observer, Outcome, SearchOptions, Solver, Stats};

pub(crate) use check::check;
pub(crate) use generate::generate;
pub(crate) use minimize::minimize;
pub(crate) use solve::solve;
pub(crate) use sudoku::sudoku;
pub(crate) use translate::translate;

/// Exit code: an input could not be read or parsed, or `check` found a
/// puzzle without exactly one solution.
pub(crate) const INPUT_ERROR: u8 = 1;

/// Exit code: the arguments make no sense (clap's own errors use it too).
pub(crate) const USAGE_ERROR: u8 = 2;

/// Exit code: a node or time limit stopped a search before it could
/// answer (and no input made the code 1). An answer cut short is not an
/// answer: a script must not take it for one.
pub(crate) const UNKNOWN: u8 = 3;

pub(crate) const ERROR: Style = AnsiColor::Red.on_default().bold();
const GOOD: Style = AnsiColor::Green.on_default().bold();
pub(crate) const WARN: Style = AnsiColor::Yellow.on_default().bold();
const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();

/// 1 if any input failed, else 3 if a limit left any answer unknown,
/// else 0.
fn exit_code(failed: bool, unknown: bool) -> ExitCode {
    if failed {
        ExitCode::from(INPUT_ERROR)
    } else if unknown {
        ExitCode::from(UNKNOWN)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs one search and times it (model to engine, and the search).
///
/// The search-tree and trace recorders (`solve --tree`, `--trace`) plug in
/// here: they are [`Observer`]s, passed in place of `()`.
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

/// Counts the solutions of `model` on `threads` threads
/// ([`Solver::count_parallel`]), and the time it took.
fn count_parallel(
    model: &Model,
    options: &SearchOptions,
    threads: NonZeroUsize,
) -> (Outcome, Duration) {
    let started = Instant::now();
    let outcome = Solver::new(model).count_parallel(options, threads);
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
