//! `bitfd minimize`: a unique puzzle with a minimal set of its clues, as
//! `.zebra` text ([`Puzzle::minimized`](bitfd::puzzle::Puzzle::minimized)).

use std::io::{self, Write};
use std::process::ExitCode;

use bitfd::Solver;
use bitfd::check::{MinimizeError, Uniqueness};

use super::args::MinimizeArgs;
use super::check::Words;
use super::input::Item;
use super::{ERROR, INPUT_ERROR, UNKNOWN, WARN};

/// Runs `bitfd minimize`.
pub(crate) fn minimize(args: &MinimizeArgs) -> io::Result<ExitCode> {
    let item = Item::read(&args.file, args.from);
    let name = item.input.name.clone();
    let puzzle = match item.load() {
        Ok(loaded) => loaded.puzzle,
        Err(e) => {
            anstream::stderr().write_all(e.rendered.as_bytes())?;
            return Ok(ExitCode::from(INPUT_ERROR));
        }
    };
    let strength = args.search.strength();
    let options = args.search.options();
    let (minimal, found) = match puzzle.minimized(args.seed, strength, &options) {
        Ok(minimized) => minimized,
        Err(MinimizeError::NotUnique(Uniqueness::Unknown { status })) => {
            // The puzzle is not to blame: the limit stopped the search first.
            writeln!(
                anstream::stderr(),
                "{ERROR}error:{ERROR:#} {name}: the search stopped at the {status} before it \
                 could tell whether the puzzle has exactly one solution, which minimize needs \
                 to know first (raise --node-limit or --time-limit, or leave them out)"
            )?;
            return Ok(ExitCode::from(UNKNOWN));
        }
        Err(MinimizeError::NotUnique(_)) => {
            // The verdict names variables of the model `minimized` built:
            // check again in a model whose names can be looked up.
            let pm = puzzle.to_model_with(strength);
            let verdict = Solver::new(pm.model()).uniqueness(&options);
            let words = Words::of(&puzzle, &pm, &verdict);
            writeln!(
                anstream::stderr(),
                "{ERROR}error:{ERROR:#} {name}: {words}; minimize needs a puzzle with exactly one solution"
            )?;
            return Ok(ExitCode::from(INPUT_ERROR));
        }
    };
    // A comment says what was done; parsing skips it.
    let total = puzzle.clues().len();
    let mut text = format!(
        "# {} of {total} {} kept by `bitfd minimize --seed {}`\n",
        minimal.clues().len(),
        if total == 1 { "clue" } else { "clues" },
        args.seed
    );
    // A clue whose check a limit stopped was kept without proof: the
    // puzzle is still unique, but the set may not be minimal. Say so in
    // the output and on standard error, and exit with UNKNOWN.
    let cut = found.cut_short.len();
    let unproven = (cut > 0).then(|| {
        let limit = match (options.node_limit, options.time_limit) {
            (Some(_), None) => "the node limit",
            (None, Some(_)) => "the time limit",
            _ => "a node or time limit",
        };
        format!(
            "{cut} clue {} cut short by {limit}, so the set may not be minimal",
            if cut == 1 { "check was" } else { "checks were" }
        )
    });
    if let Some(note) = &unproven {
        text.push_str(&format!("# {note}\n"));
    }
    text.push_str(&minimal.to_string());
    match &args.output {
        None => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                writeln!(
                    anstream::stderr(),
                    "{ERROR}error:{ERROR:#} {}: cannot write: {e}",
                    path.display()
                )?;
                return Ok(ExitCode::from(INPUT_ERROR));
            }
        }
    }
    if let Some(note) = unproven {
        writeln!(
            anstream::stderr(),
            "{WARN}warning:{WARN:#} {name}: {note} (raise --node-limit or --time-limit, or leave \
             them out)"
        )?;
        return Ok(ExitCode::from(UNKNOWN));
    }
    Ok(ExitCode::SUCCESS)
}
