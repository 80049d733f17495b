//! The `bitfd` command line: `solve`, `check`, `sudoku`, `minimize`,
//! `generate` and `translate`.
//!
//! Thin by design: this file parses the arguments (clap), sets the colour
//! choice, runs the subcommand and turns its result into the exit code;
//! each subcommand lives in its own file under `src/cli/`, reading inputs,
//! timing searches, printing through the library's printers
//! ([`bitfd::puzzle::print`]) and rendering diagnostics. Results go to
//! stdout, errors to stderr. Colour goes through anstream: only on a
//! terminal, never with `NO_COLOR`, unless `--color` says otherwise. Batches
//! of puzzles run on every core, printed in input order.
//!
//! Exit codes: 0 when every input was answered (no solution is an answer),
//! 1 for an input error (unreadable file, parse error, malformed board; for
//! `check` also a puzzle that is not unique), 2 for a usage error.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use cli::args::{Cli, ColorWhen, Command};
use cli::{ERROR, INPUT_ERROR};

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
        Command::Solve(args) => cli::solve(args),
        Command::Check(args) => cli::check(args),
        Command::Sudoku(args) => cli::sudoku(args),
        Command::Minimize(args) => cli::minimize(args),
        Command::Generate(args) => cli::generate(args),
        Command::Translate(args) => cli::translate(args),
    };
    match result {
        Ok(code) => code,
        // The reader of our output went away (`bitfd ... | head`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(anstream::stderr(), "{ERROR}error:{ERROR:#} {e}");
            ExitCode::from(INPUT_ERROR)
        }
    }
}
