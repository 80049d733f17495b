//! `bitfd translate`: an English puzzle as `.zebra` text, each clue's
//! sentence in quotes beside the relation it was read as
//! ([`bitfd::puzzle::english::parse`], then the puzzle's `Display`).

use std::io::{self, Write};
use std::process::ExitCode;

use super::INPUT_ERROR;
use super::args::{InputFormat, TranslateArgs};
use super::input::Item;

/// Runs `bitfd translate`.
pub(crate) fn translate(args: &TranslateArgs) -> io::Result<ExitCode> {
    // English unless the file says `.zebra` (whose sentence-only clue lines
    // the English reader reads too).
    let zebra = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zebra"));
    let from = args.from.unwrap_or(if zebra {
        InputFormat::Zebra
    } else {
        InputFormat::English
    });
    let item = Item::read(&args.file, Some(from));
    match item.load() {
        Ok(loaded) => {
            let mut out = io::stdout().lock();
            write!(out, "{}", loaded.puzzle)?;
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            anstream::stderr().write_all(e.rendered.as_bytes())?;
            Ok(ExitCode::from(INPUT_ERROR))
        }
    }
}
