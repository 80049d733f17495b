//! The command line's grammar (clap): subcommands, flags, help texts with
//! an example each, and the translation of flags into library options and
//! input sources. Nothing here runs a search.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use bitfd::generate::{MAX_GROUPS, MAX_HOUSES};
use bitfd::tree::DEFAULT_RECORD_LIMIT;
use bitfd::{Restarts, SearchOptions, Strength, ValueOrder, VarOrder};
use clap::{Args, Parser, Subcommand, ValueEnum};

use super::ERROR;
use super::input::Source;

const ABOUT: &str = "Solve zebra puzzles written as .zebra text files, and sudoku boards.";

const MAIN_EXAMPLES: &str = "\
Examples:
  bitfd solve examples/puzzles/zebra.zebra
  bitfd check examples/puzzles/*.zebra
  bitfd sudoku boards.txt
  bitfd minimize examples/puzzles/zebra.zebra --seed 1
  bitfd generate --houses 6 --groups 6 --seed 1 --count 100 --out puzzles/
  bitfd solve --json examples/puzzles/zebralogic-example.txt
  bitfd translate examples/puzzles/zebralogic-example.txt

The .zebra format is described in docs/format.md, English input in
docs/english.md (.txt files are read as English).
Exit codes: 0 every input answered (no solution is an answer); 1 an input
error, or for check a puzzle without exactly one solution; 2 a usage error;
3 a node or time limit left an answer unknown (and nothing made it 1).";

const SOLVE_EXAMPLES: &str = "\
Examples:
  bitfd solve examples/puzzles/zebra.zebra
  bitfd solve --all examples/puzzles/several.zebra
  bitfd solve --trace --tree text examples/puzzles/oz.zebra
  bitfd solve --count --var-order input-order examples/puzzles/*.zebra
  cat examples/puzzles/zebra.zebra | bitfd solve --json -
  jq -c '.puzzles[]' ../shared/data/zebra/rosetta.json | bitfd solve --jsonl -

Without --all, --count or --max, solve shows the first solution and looks
for a second one to tell whether the puzzle is unique. Many puzzles are
solved on every core; the output comes in input order, the same for any
--jobs. --all and --max print each solution as soon as it is found, one
puzzle after another. A --tree dot or json goes alone to standard output
(or to --tree-out FILE); with --json, the tree and the trace go inside
the JSON. Exits with 3 when a limit cut a search short.";

const CHECK_EXAMPLES: &str = "\
Examples:
  bitfd check examples/puzzles/*.zebra
  bitfd check --json examples/puzzles/several.zebra
  jq -c '.puzzles[]' ../shared/data/zebra/derived_variants.json | bitfd check --jsonl -
  bitfd generate --houses 5 --groups 5 --seed 7 > new.zebra && bitfd check new.zebra && echo unique

Prints one line per puzzle: unique; not unique, with the cells where two
solutions differ (a clue that tells them apart removes the second); or no
solution, with the clue that fails. --json adds both solutions and, for a
unique puzzle, its difficulty rating. Many puzzles are checked on every
core; the output comes in input order. Exits with 0 only if every puzzle
has exactly one solution: 1 if some puzzle has not (or an input is bad),
else 3 if a limit left some puzzle unknown.";

const SUDOKU_EXAMPLES: &str = "\
Examples:
  bitfd sudoku boards.txt
  echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 | bitfd sudoku
  bitfd sudoku --count boards.txt

One board a line, row by row: 81 symbols for 9x9 (1-9; `.` or `0` blank),
256 for 16x16 (0-9 A-F), 625 for 25x25 (A-Y), 1296 for 36x36 (0-9 A-Z);
`.` is a blank on every size. Empty lines and lines starting with `#` are
skipped. Prints each board's solution (or its count with --count), in
input order though boards are solved on every core, then how many puzzles
there were, how many were unique, and puzzles per second (per core: the
boards over the time their searches took). Exits with 3 when a limit left
a board unknown. The model is a cell a variable, an all-different and an
each-value-held a row, column and box, and on 9x9 boards the box-line
intersections of every band (--box-line says otherwise); boards of 25x25
and larger branch by dom/wdeg with restarts and probing at the root
unless --var-order, --restarts and --probe say otherwise.";

const MINIMIZE_EXAMPLES: &str = "\
Examples:
  bitfd minimize examples/puzzles/zebra.zebra --seed 1
  bitfd minimize big.zebra --seed 7 -o small.zebra && bitfd check small.zebra

The puzzle must have exactly one solution. Clues are dropped, in an order
drawn from the seed, while the solution stays unique: dropping any clue
that is left would let a second solution in. The title, the groups, the
questions and the kept clues' sentences stay. The same file and seed give
the same output on every machine. A node or time limit applies to each
clue's check; a clue whose check it cuts short stays without proof, and
the output says so in a comment (the set may not be minimal) and the exit
code is 3.";

const TRANSLATE_EXAMPLES: &str = "\
Examples:
  bitfd translate examples/puzzles/zebralogic-example.txt
  bitfd translate examples/puzzles/zebralogic-example.txt > new.zebra && bitfd check new.zebra

Reads an English puzzle (docs/english.md) and prints it as .zebra text: the
groups as the lists give them, then each clue's sentence in quotes with the
relation it was read as, so that the reading can be checked and fixed by
hand. A sentence that only restates the frame (\"There are five houses.\")
gives no line. A sentence the reader cannot place is an error with its line
and column, the values it found and the words it could not place.";

const GENERATE_EXAMPLES: &str = "\
Examples:
  bitfd generate --houses 5 --groups 4 --seed 1
  bitfd generate --houses 6 --groups 6 --seed 1 --count 100 --out puzzles/
  bitfd generate --houses 8 --groups 8 --seed 42 --count 10 --out p/ | xargs bitfd check
  bitfd generate --english --style reasoning-gym --houses 5 --groups 4 --seed 1 --count 3
  bitfd generate --english --houses 7 --groups 7 --seed 1 --count 1000 --kinds at,next-to,same,left-of --guessing yes --out p/

Each puzzle has a unique solution and a minimal set of clues. Puzzle k
(from 0) of a run has seed S+k. With --out it is written to
DIR/gen-HxG-seedN.zebra (H houses, G groups, seed N) and the path is
printed, one a line; without, the puzzles go to standard output, each
after a line `# ==> gen-HxG-seedN.zebra <==` when there are several. The
same arguments give the same bytes on every machine, whatever --jobs.
With --english, each puzzle is one JSON line of English text (file
DIR/gen-HxG-seedN.json with --out): id, size (\"H*G\"), style, text, the
solution grid, the rating (nodes, failures, whether it needs guessing) and
the seed. --kinds, --min-nodes/--max-nodes, --min-failures/--max-failures
and --guessing choose what is generated: for each seed, puzzles are drawn
(the first from the seed itself, then from seeds derived from it) until
one's rating lies in the range, at most --attempts of them.";

/// The `bitfd` command line.
#[derive(Debug, Parser)]
#[command(name = "bitfd", version, about = ABOUT, after_help = MAIN_EXAMPLES)]
#[command(arg_required_else_help = true)]
pub(crate) struct Cli {
    /// When to colour the output: auto colours a terminal unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub(crate) color: ColorWhen,

    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Solve puzzles: print the grid, the answers, the verdict and statistics.
    #[command(after_help = SOLVE_EXAMPLES)]
    Solve(SolveArgs),
    /// Check that each puzzle has exactly one solution (for authors and generators).
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// Solve sudoku boards (9x9 to 36x36), one a line.
    #[command(after_help = SUDOKU_EXAMPLES)]
    Sudoku(SudokuArgs),
    /// Drop clues from a unique puzzle while it stays unique: a minimal clue set.
    #[command(after_help = MINIMIZE_EXAMPLES)]
    Minimize(MinimizeArgs),
    /// Generate zebra puzzles with a unique solution and a minimal set of clues.
    #[command(after_help = GENERATE_EXAMPLES)]
    Generate(GenerateArgs),
    /// Print the .zebra form of an English puzzle, each sentence beside the relation it was read as.
    #[command(after_help = TRANSLATE_EXAMPLES)]
    Translate(TranslateArgs),
}

/// What format an input is in (`--from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum InputFormat {
    /// The .zebra format (docs/format.md).
    Zebra,
    /// English puzzle text: ZebraLogic, reasoning-gym or classic numbered clues (docs/english.md).
    English,
}

/// `bitfd translate`.
#[derive(Debug, Args)]
pub(crate) struct TranslateArgs {
    /// The puzzle file (English; `.zebra` files are read as .zebra); `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,

    /// Read the file as this format, whatever its name [default: .zebra
    /// files as .zebra, everything else as English].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) from: Option<InputFormat>,
}

/// `bitfd solve`.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// Print every solution.
    #[arg(long, conflicts_with_all = ["count", "max"])]
    pub(crate) all: bool,

    /// Count the solutions without printing them.
    #[arg(long, conflicts_with = "max")]
    pub(crate) count: bool,

    /// Stop after N solutions, printing each.
    #[arg(long, value_name = "N", value_parser = parse_max)]
    pub(crate) max: Option<u64>,

    /// Print one JSON document (a line) per puzzle instead of text.
    #[arg(long)]
    pub(crate) json: bool,

    /// Also print the deductions: which clue removed which houses, each
    /// guess and each conflict (after the result, or in the JSON).
    #[arg(long)]
    pub(crate) trace: bool,

    /// Write the trace to FILE instead (FILE.1, FILE.2, ... before the
    /// extension, when there are several puzzles).
    #[arg(long, value_name = "FILE", requires = "trace")]
    pub(crate) trace_out: Option<PathBuf>,

    /// Also print the search tree: one node a line (text, after the
    /// result), for Graphviz (dot) or as JSON; a dot or json tree goes
    /// alone to standard output, or into the --json document.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) tree: Option<TreeFormat>,

    /// Write the tree to FILE instead (numbered as --trace-out's).
    #[arg(long, value_name = "FILE", requires = "tree")]
    pub(crate) tree_out: Option<PathBuf>,

    /// The most nodes --tree and steps --trace record: past it the
    /// recording stops and says "truncated at N", and the search goes on.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_RECORD_LIMIT)]
    pub(crate) record_limit: u64,

    #[command(flatten)]
    pub(crate) batch: BatchArgs,

    #[command(flatten)]
    pub(crate) search: SearchArgs,
}

/// `--tree`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum TreeFormat {
    /// Indented text, one node a line (docs/tree-format.md).
    Text,
    /// Graphviz DOT.
    Dot,
    /// JSON.
    Json,
}

/// `bitfd check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Print one JSON object (a line) per puzzle: the verdict, both
    /// solutions and where they differ, the clue that fails, the rating.
    #[arg(long)]
    pub(crate) json: bool,

    #[command(flatten)]
    pub(crate) batch: BatchArgs,

    #[command(flatten)]
    pub(crate) search: SearchArgs,
}

/// Where a batch's puzzles come from, and how many threads work on them.
#[derive(Debug, Args)]
pub(crate) struct BatchArgs {
    /// Puzzle files: .zebra, or English text (.txt); `-` reads standard input.
    #[arg(
        value_name = "FILE",
        required_unless_present = "jsonl",
        conflicts_with = "jsonl"
    )]
    pub(crate) files: Vec<PathBuf>,

    /// Read every file as this format, whatever its name [default: .txt
    /// files as English, everything else, standard input too, as .zebra].
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "jsonl")]
    pub(crate) from: Option<InputFormat>,

    /// Read puzzles as JSON lines (`-`: standard input): one puzzle object a
    /// line, in the JSON form of the shared test data (docs/format.md).
    #[arg(long, value_name = "FILE", help_heading = "Batch")]
    pub(crate) jsonl: Option<PathBuf>,

    #[command(flatten)]
    pub(crate) jobs: Jobs,
}

/// `--jobs`: how many threads work on a batch.
#[derive(Debug, Args)]
pub(crate) struct Jobs {
    /// Worker threads, 1 to 1024 [default: one per core]. The output is the same for any number.
    #[arg(long = "jobs", short = 'j', value_name = "N", value_parser = parse_jobs, help_heading = "Batch")]
    jobs: Option<usize>,
}

/// The most threads `--jobs` takes: a fixed number, so that a command line
/// that works on one machine works on every other, far above the cores of
/// any machine bitfd runs on (more threads than cores only wait for each
/// other), and low enough that their stacks and start-up cost little.
pub(crate) const MAX_JOBS: usize = 1024;

/// Reads `--max`: a number of solutions, 1 or more.
fn parse_max(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err(
            "--max 0 would show no solution: give 1 or more (--count counts \
                      the solutions without showing them)"
                .to_owned(),
        ),
        Ok(n) => Ok(n),
        Err(_) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => Err(format!(
            "{text} is too large: --max takes 1 to {}",
            u64::MAX
        )),
        Err(_) => Err(format!("`{text}` is not a number of solutions")),
    }
}

/// Reads `--jobs`: a number from 1 to [`MAX_JOBS`].
fn parse_jobs(text: &str) -> Result<usize, String> {
    let range = format!("--jobs takes 1 to {MAX_JOBS} threads");
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<usize>() {
        Ok(n @ 1..=MAX_JOBS) => Ok(n),
        Ok(n) => Err(format!("{n} is out of range: {range}")),
        Err(_) if digits => Err(format!("{text} is out of range: {range}")),
        Err(_) => Err(format!("`{text}` is not a number: {range}")),
    }
}

impl Jobs {
    /// The number of worker threads: as asked, or one per core.
    pub(crate) fn threads(&self) -> usize {
        match self.jobs {
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

impl BatchArgs {
    /// The inputs: the JSON-lines file if given, else the files. `None`
    /// (after a message on stderr) if the JSON-lines file cannot be opened.
    pub(crate) fn source(&self) -> Option<Source> {
        let Some(path) = &self.jsonl else {
            return Some(Source::files(self.files.clone(), self.from));
        };
        match Source::json_lines(path) {
            Ok(source) => Some(source),
            Err(message) => {
                let _ = writeln!(anstream::stderr(), "{ERROR}error:{ERROR:#} {message}");
                None
            }
        }
    }
}

/// `bitfd sudoku`.
#[derive(Debug, Args)]
pub(crate) struct SudokuArgs {
    /// A file of boards, one a line; `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    pub(crate) file: Option<PathBuf>,

    /// Count each board's solutions instead of printing one.
    #[arg(long)]
    pub(crate) count: bool,

    /// Whether to add the box-line intersections of every band: a line's
    /// values outside a box are the box's values outside the line
    /// [default: on for 9x9, off for 16x16 and larger].
    #[arg(long, value_enum, value_name = "WHEN")]
    pub(crate) box_line: Option<BoxLine>,

    /// Whether to add the dual viewpoints: for each value and unit, a
    /// variable for where the value goes in the unit, channeled to the
    /// cells, with an all-different over the columns each value takes.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Views::Off)]
    pub(crate) views: Views,

    #[command(flatten)]
    pub(crate) jobs: Jobs,

    #[command(flatten)]
    pub(crate) search: SearchArgs,
}

/// `bitfd sudoku --box-line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum BoxLine {
    /// Add them: they prune what no single unit sees.
    On,
    /// Leave them out: each unit alone.
    Off,
}

/// `bitfd sudoku --views`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Views {
    /// Add them: fewer nodes on some boards, more work a node.
    On,
    /// Leave them out: the cells alone.
    Off,
}

/// `bitfd minimize`.
#[derive(Debug, Args)]
pub(crate) struct MinimizeArgs {
    /// The puzzle file (.zebra, or English text in a .txt file); `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,

    /// Read the file as this format, whatever its name [default: .txt
    /// files as English, everything else as .zebra].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) from: Option<InputFormat>,

    /// Chooses the order in which clues are tried; another seed may keep
    /// other clues.
    #[arg(long, value_name = "N")]
    pub(crate) seed: u64,

    /// Write the minimal puzzle here instead of to standard output.
    #[arg(long, short = 'o', value_name = "OUT")]
    pub(crate) output: Option<PathBuf>,

    #[command(flatten)]
    pub(crate) search: SearchArgs,
}

/// `bitfd generate`.
#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// Houses, 2 to 10.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=i64::from(MAX_HOUSES)))]
    pub(crate) houses: u8,

    /// Attribute groups, 1 to 12.
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u8).range(1..=MAX_GROUPS as i64))]
    pub(crate) groups: u8,

    /// The first puzzle's seed; puzzle k has seed S+k.
    #[arg(long, value_name = "S")]
    pub(crate) seed: u64,

    /// How many puzzles.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) count: u64,

    /// Write each puzzle to a file in this folder (made if missing).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,

    /// Write each puzzle as English text in a JSON line: id, size, style,
    /// text, solution (ZebraLogic's grid), rating and seed.
    #[arg(long)]
    pub(crate) english: bool,

    /// The family of phrasing of --english.
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = StyleArg::Zebralogic, requires = "english")]
    pub(crate) style: StyleArg,

    /// The clue kinds allowed, comma-separated [default: all]: same, at,
    /// not-at, next-to, directly-left, left-of, one-between, two-between,
    /// not-same.
    #[arg(long, value_name = "KINDS", value_delimiter = ',', value_parser = parse_kind)]
    pub(crate) kinds: Vec<bitfd::generate::ClueKind>,

    /// Only puzzles whose rating has at least N search nodes.
    #[arg(long, value_name = "N", help_heading = "Difficulty")]
    pub(crate) min_nodes: Option<u64>,

    /// Only puzzles whose rating has at most N search nodes.
    #[arg(long, value_name = "N", help_heading = "Difficulty")]
    pub(crate) max_nodes: Option<u64>,

    /// Only puzzles whose rating has at least N failures.
    #[arg(long, value_name = "N", help_heading = "Difficulty")]
    pub(crate) min_failures: Option<u64>,

    /// Only puzzles whose rating has at most N failures.
    #[arg(long, value_name = "N", help_heading = "Difficulty")]
    pub(crate) max_failures: Option<u64>,

    /// Only puzzles that need a guess (yes) or that propagation alone
    /// solves (no).
    #[arg(long, value_enum, value_name = "WHEN", help_heading = "Difficulty")]
    pub(crate) guessing: Option<Guessing>,

    /// Puzzles drawn per seed, at most, to find one in the difficulty range.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..), help_heading = "Difficulty")]
    pub(crate) attempts: u32,

    #[command(flatten)]
    pub(crate) jobs: Jobs,
}

/// `--guessing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Guessing {
    /// The puzzle needs at least one guess.
    Yes,
    /// Propagation alone solves the puzzle.
    No,
}

fn parse_kind(s: &str) -> Result<bitfd::generate::ClueKind, String> {
    use bitfd::generate::ClueKind;
    ClueKind::from_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = ClueKind::ALL.iter().map(|k| k.name()).collect();
        format!(
            "`{s}` is not a clue kind; the kinds are {}",
            names.join(", ")
        )
    })
}

impl GenerateArgs {
    /// The library's controls from the flags.
    pub(crate) fn controls(&self) -> bitfd::generate::Controls {
        use bitfd::generate::{ClueKind, Controls, Difficulty};
        let all = Difficulty::default();
        Controls {
            kinds: if self.kinds.is_empty() {
                ClueKind::ALL.to_vec()
            } else {
                self.kinds.clone()
            },
            difficulty: Difficulty {
                min_nodes: self.min_nodes.unwrap_or(all.min_nodes),
                max_nodes: self.max_nodes.unwrap_or(all.max_nodes),
                min_failures: self.min_failures.unwrap_or(all.min_failures),
                max_failures: self.max_failures.unwrap_or(all.max_failures),
                guessing: self.guessing.map(|g| g == Guessing::Yes),
            },
            attempts: self.attempts,
        }
    }
}

/// `--style`: a family of English phrasing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum StyleArg {
    /// ZebraLogic's grid mode: backticked lists, `## Clues:`.
    Zebralogic,
    /// reasoning-gym's zebra_puzzles: comma lists and a question.
    ReasoningGym,
    /// Classic numbered sentences, a list a line.
    Classic,
}

impl StyleArg {
    /// The library's style.
    pub(crate) fn style(self) -> bitfd::puzzle::english::Style {
        use bitfd::puzzle::english::Style;
        match self {
            StyleArg::Zebralogic => Style::ZebraLogic,
            StyleArg::ReasoningGym => Style::ReasoningGym,
            StyleArg::Classic => Style::Classic,
        }
    }
}

/// The search settings. The defaults are the strongest and fastest known:
/// domain-consistent all-different, first-fail, smallest value first.
#[derive(Debug, Args)]
#[command(next_help_heading = "Search")]
pub(crate) struct SearchArgs {
    /// Which variable to branch on [default: first-fail].
    #[arg(long, value_enum, value_name = "ORDER")]
    var_order: Option<VarOrderArg>,

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

    /// After a failed decision, branch on its variable again while it is
    /// open, before the variable order (reasoning from the last conflict)
    /// [default: off].
    #[arg(long, value_enum, value_name = "WHEN")]
    last_conflict: Option<LastConflictArg>,

    /// Restart from the root after a number of failed leaves, growing from
    /// run to run, keeping the conflict weights and recording what each
    /// run refuted as nogoods (the search stays complete)
    /// [default: off; sudoku: geometric for 25x25 and larger].
    #[arg(long, value_enum, value_name = "SCHEDULE")]
    restarts: Option<RestartsArg>,

    /// The failed leaves of the first run with --restarts geometric (each
    /// run after has 1.5 times as many), or of a unit with --restarts luby
    /// [default: 20; sudoku: 40 for 25x25 and larger].
    #[arg(long, value_name = "N")]
    restart_first: Option<u64>,

    /// Before the first branch, try every value of every open variable and
    /// remove those whose propagation fails, until none does (singleton
    /// probing) [default: off; sudoku: on for 25x25 and larger].
    #[arg(long, value_enum, value_name = "WHEN")]
    probe: Option<ProbeArg>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RestartsArg {
    /// One depth-first search.
    Off,
    /// Runs of --restart-first failed leaves, then 1.5 times as many each.
    Geometric,
    /// Runs of --restart-first failed leaves times the Luby sequence 1, 1,
    /// 2, 1, 1, 2, 4, ...
    Luby,
}

/// `--color`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum ColorWhen {
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
    /// The smallest domain per conflict weight (dom/wdeg): learns which
    /// constraints fail; for hard instances.
    DomWdeg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ProbeArg {
    /// Probe every value at the root.
    On,
    /// Branch from the root's propagation.
    Off,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LastConflictArg {
    /// Branch on the last failed decision's variable first.
    On,
    /// Follow the variable order alone.
    Off,
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

/// `--restart-first` when it is not given.
const DEFAULT_RESTART_FIRST: u64 = 20;

impl SearchArgs {
    /// The search options the flags ask for.
    pub(crate) fn options(&self) -> SearchOptions {
        SearchOptions {
            var_order: match self.var_order.unwrap_or(VarOrderArg::FirstFail) {
                VarOrderArg::FirstFail => VarOrder::FirstFail,
                VarOrderArg::InputOrder => VarOrder::InputOrder,
                VarOrderArg::LargestDomain => VarOrder::LargestDomain,
                VarOrderArg::DomWdeg => VarOrder::DomWdeg,
            },
            value_order: match self.value_order {
                ValueOrderArg::Min => ValueOrder::Min,
                ValueOrderArg::Max => ValueOrder::Max,
                ValueOrderArg::Split => ValueOrder::Split,
            },
            node_limit: self.node_limit,
            time_limit: self.time_limit,
            last_conflict: self.last_conflict == Some(LastConflictArg::On),
            restarts: match self.restarts {
                None | Some(RestartsArg::Off) => Restarts::Off,
                Some(RestartsArg::Geometric) => Restarts::Geometric {
                    first: self.restart_first.unwrap_or(DEFAULT_RESTART_FIRST),
                },
                Some(RestartsArg::Luby) => Restarts::Luby {
                    unit: self.restart_first.unwrap_or(DEFAULT_RESTART_FIRST),
                },
            },
            probe: self.probe == Some(ProbeArg::On),
        }
    }

    /// Whether `--var-order` was given.
    pub(crate) fn var_order_chosen(&self) -> bool {
        self.var_order.is_some()
    }

    /// Whether `--restarts` was given.
    pub(crate) fn restarts_chosen(&self) -> bool {
        self.restarts.is_some()
    }

    /// Whether `--probe` was given.
    pub(crate) fn probe_chosen(&self) -> bool {
        self.probe.is_some()
    }

    /// `--restart-first`, if it was given.
    pub(crate) fn restart_first(&self) -> Option<u64> {
        self.restart_first
    }

    /// The all-different strength the flags ask for.
    pub(crate) fn strength(&self) -> Strength {
        match self.all_different {
            StrengthArg::Domain => Strength::Domain,
            StrengthArg::Value => Strength::Value,
        }
    }
}

/// Reads `500ms`, `2s`, `1.5s`, `1m`, or a bare number of seconds.
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

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
    fn jobs_run_from_1_to_the_bound() {
        assert_eq!(parse_jobs("1"), Ok(1));
        assert_eq!(parse_jobs("1024"), Ok(MAX_JOBS));
        for bad in [
            "0",
            "1025",
            "100000",
            "99999999999999999999999",
            "-3",
            "x",
            "",
        ] {
            let message = parse_jobs(bad).expect_err(bad);
            assert!(message.contains("1 to 1024"), "{bad}: {message}");
        }
    }

    #[test]
    fn the_grammar_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn generate_ranges_are_the_generators() {
        let accepts = |houses: u64, groups: u64, count: u64| {
            let args = [
                "bitfd".to_owned(),
                "generate".to_owned(),
                "--seed=1".to_owned(),
                format!("--houses={houses}"),
                format!("--groups={groups}"),
                format!("--count={count}"),
            ];
            Cli::try_parse_from(args).is_ok()
        };
        let (houses, groups) = (u64::from(MAX_HOUSES), MAX_GROUPS as u64);
        assert!(accepts(2, 1, 1));
        assert!(accepts(houses, groups, 1));
        assert!(!accepts(1, 2, 1));
        assert!(!accepts(houses + 1, 2, 1));
        assert!(!accepts(3, 0, 1));
        assert!(!accepts(3, groups + 1, 1));
        assert!(!accepts(3, 3, 0));
    }
}
