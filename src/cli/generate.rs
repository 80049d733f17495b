//! `bitfd generate`: seeded zebra puzzles with a unique solution and a
//! minimal set of clues ([`bitfd::generate`]), made on every core and
//! written in seed order, to files or to stdout.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bitfd::generate::{GenerateError, GenerateOptions, english_line, generate_with};

use super::args::GenerateArgs;
use super::batch::{Output, Sink, Terminal, run_ordered};
use super::{ERROR, INPUT_ERROR, USAGE_ERROR, exit_code};

/// Runs `bitfd generate`.
pub(crate) fn generate(args: &GenerateArgs) -> io::Result<ExitCode> {
    let Some(last) = args.seed.checked_add(args.count - 1) else {
        writeln!(
            anstream::stderr(),
            "{ERROR}error:{ERROR:#} --seed {} with --count {} runs past the largest seed, {}",
            args.seed,
            args.count,
            u64::MAX
        )?;
        return Ok(ExitCode::from(USAGE_ERROR));
    };
    let controls = args.controls();
    let d = controls.difficulty;
    if d.min_nodes > d.max_nodes || d.min_failures > d.max_failures {
        writeln!(
            anstream::stderr(),
            "{ERROR}error:{ERROR:#} the difficulty range is empty: a minimum is above its maximum"
        )?;
        return Ok(ExitCode::from(USAGE_ERROR));
    }
    if let Some(dir) = &args.out {
        if let Err(e) = std::fs::create_dir_all(dir) {
            writeln!(
                anstream::stderr(),
                "{ERROR}error:{ERROR:#} {}: cannot make the folder: {e}",
                dir.display()
            )?;
            return Ok(ExitCode::from(INPUT_ERROR));
        }
    }
    let (houses, groups) = (args.houses, usize::from(args.groups));
    let style = args.english.then(|| args.style.style());
    let work = |_: usize, seed: u64| {
        let options = GenerateOptions {
            houses,
            groups,
            seed,
        };
        let text = generate_with(&options, &controls).map(|g| match style {
            None => g.puzzle.to_string(),
            Some(style) => english_line(&g, &options, style),
        });
        (seed, text)
    };
    let mut sink = Files {
        terminal: Terminal::new(Some(args.count)),
        dir: args.out.as_deref(),
        several: args.count > 1 && !args.english,
        houses,
        groups,
        extension: if args.english { "json" } else { "zebra" },
        first: true,
    };
    run_ordered(args.jobs.threads(), args.seed..=last, work, &mut sink)?;
    let (failed, unknown) = sink.terminal.finish()?;
    Ok(exit_code(failed, unknown))
}

/// Where generated puzzles go: files in `dir` (their paths to stdout), or
/// stdout.
struct Files<'a> {
    terminal: Terminal,
    dir: Option<&'a Path>,
    /// Whether stdout gets a header before each puzzle.
    several: bool,
    houses: u8,
    groups: usize,
    /// The files' extension: `zebra`, or `json` for English lines.
    extension: &'static str,
    /// Whether nothing was emitted yet.
    first: bool,
}

impl Sink<(u64, Result<String, GenerateError>)> for Files<'_> {
    fn emit(&mut self, (seed, text): (u64, Result<String, GenerateError>)) -> io::Result<()> {
        let options = GenerateOptions {
            houses: self.houses,
            groups: self.groups,
            seed,
        };
        let name = format!("{}.{}", options.id(), self.extension);
        let output = match (text, self.dir) {
            (Err(e), _) => Output {
                err: format!("{ERROR}error:{ERROR:#} seed {seed}: {e}\n"),
                failed: true,
                ..Output::default()
            },
            (Ok(text), Some(dir)) => write_file(&dir.join(&name), &text),
            (Ok(text), None) => {
                let mut out = String::new();
                if self.several {
                    if !self.first {
                        out.push('\n');
                    }
                    out.push_str(&format!("# ==> {name} <==\n"));
                }
                out.push_str(&text);
                Output {
                    out,
                    ..Output::default()
                }
            }
        };
        self.first = false;
        self.terminal.write(&output)
    }

    fn idle(&mut self) -> io::Result<()> {
        self.terminal.flush()
    }
}

/// Writes one puzzle; the output names the file, or says why it could not
/// be written.
fn write_file(path: &PathBuf, text: &str) -> Output {
    match std::fs::write(path, text) {
        Ok(()) => Output {
            out: format!("{}\n", path.display()),
            ..Output::default()
        },
        Err(e) => Output {
            err: format!(
                "{ERROR}error:{ERROR:#} {}: cannot write: {e}\n",
                path.display()
            ),
            failed: true,
            ..Output::default()
        },
    }
}
