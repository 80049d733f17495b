//! The puzzle tools: `.zebra`, English and JSON text in, `Puzzle` (and
//! English text and the graders' grid out), and `check` / `check_many`, the
//! uniqueness verdict with its first two solutions.
//!
//! `check_many` parses and checks on every core with the interpreter
//! released, each worker taking the next puzzle from a shared counter, and
//! hands the results back in input order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use bitfd::check::{MinimizeError, Uniqueness};
use bitfd::puzzle::english::{self, AnswerGrid, Style};
use bitfd::puzzle::{self, ParseErrors};
use bitfd::{SearchOptions, SearchStatus, Solution, Strength};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::errors::{EnglishError, NotUniqueError, parse_error, parse_error_at};
use crate::model::Model;
use crate::solver::{Stats, search_options, solution_dict, status_str};

/// A zebra puzzle: houses, groups of values, clues and questions.
///
/// >>> p = Puzzle.parse("houses 2\ncolor: red blue\nred = 2\n")
/// >>> p.houses, p.groups, p.clue_count
/// (2, [('color', ['red', 'blue'])], 1)
/// >>> Solver(p.model()).all()
/// [{'red': 2, 'blue': 1}]
#[pyclass(module = "bitfd", frozen)]
pub(crate) struct Puzzle {
    inner: puzzle::Puzzle,
}

#[pymethods]
impl Puzzle {
    /// Parses `.zebra` text (`format="zebra"`, the default) or English
    /// text (`format="english"`: ZebraLogic, reasoning-gym or classic
    /// numbered clues); raises `ParseError` with every diagnostic.
    #[staticmethod]
    #[pyo3(signature = (text, format = "zebra"))]
    fn parse(py: Python<'_>, text: &str, format: &str) -> PyResult<Puzzle> {
        Format::of(format)?
            .parse(text)
            .map(|inner| Puzzle { inner })
            .map_err(|e| parse_error(py, &e, ""))
    }

    /// Reads one puzzle object of the shared test data's JSON form
    /// (`bitfd-test-data/zebra-1`); raises `ParseError` on a problem (with
    /// `line` and `column` for text that is not JSON, `path` for a value
    /// that is not a puzzle).
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Puzzle> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            let (line, column) = (e.line() as u64, e.column() as u64);
            parse_error_at(py, format!("not JSON: {e}"), Some(line), Some(column), None)
        })?;
        puzzle::from_json(&value)
            .map(|inner| Puzzle { inner })
            .map_err(|e| parse_error_at(py, e.to_string(), None, None, Some(e.path())))
    }

    /// The puzzle as English text in `style` (`"zebralogic"`,
    /// `"reasoning-gym"` or `"classic"`), which `Puzzle.parse(text,
    /// format="english")` reads back to the same solutions; raises
    /// `EnglishError` for a clue no English sentence says (an offset other
    /// than one house, `<=`).
    ///
    /// >>> p = Puzzle.parse("houses 2\ncolor: red blue\nred = 2\n")
    /// >>> print(p.to_english("classic"))
    /// There are two houses in a row, numbered 1 to 2 from left to right.
    /// <BLANKLINE>
    /// Color: red, blue
    /// <BLANKLINE>
    /// 1. The person whose color is red lives in the second house.
    /// <BLANKLINE>
    #[pyo3(signature = (style = "zebralogic"))]
    fn to_english(&self, py: Python<'_>, style: &str) -> PyResult<String> {
        english::write(&self.inner, style_of(style)?).map_err(|e| {
            let err = EnglishError::new_err(e.to_string());
            // Only memory can make this fail; the message names the clue.
            let _ = err.value(py).setattr("clue", e.clue);
            err
        })
    }

    /// The graders' grid (ZebraLogic's) of the puzzle's first solution: a
    /// dict with `header` (`["House", group names...]`) and `rows` (one a
    /// house, `["1", value, ...]`, `""` for a house without a value of a
    /// group smaller than the street); `None` when there is no solution.
    /// Whether it is the only solution is `check`'s to say.
    ///
    /// >>> Puzzle.parse("houses 2\ncolor: red blue\nred = 2\n").answer_grid()
    /// {'header': ['House', 'color'], 'rows': [['1', 'blue'], ['2', 'red']]}
    #[pyo3(signature = (*, strength = "domain", node_limit = None, time_limit = None))]
    fn answer_grid<'py>(
        &self,
        py: Python<'py>,
        strength: &str,
        node_limit: Option<u64>,
        time_limit: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let strength = crate::model::strength(strength)?;
        let options = search_options("first-fail", "min", node_limit, time_limit)?;
        let inner = &self.inner;
        let grid = py.detach(|| {
            let pm = inner.to_model_with(strength);
            let first = bitfd::Solver::new(pm.model()).first(&options).solutions;
            first.first().map(|s| AnswerGrid::new(inner, &pm, s))
        });
        grid.map(|g| {
            let d = PyDict::new(py);
            d.set_item("header", g.header)?;
            d.set_item("rows", g.rows)?;
            Ok(d)
        })
        .transpose()
    }

    /// The title, if the puzzle has one.
    #[getter]
    fn title(&self) -> Option<&str> {
        self.inner.title()
    }

    /// The number of houses, numbered `1..=houses`.
    #[getter]
    fn houses(&self) -> u8 {
        self.inner.houses()
    }

    /// The groups as `(name, values)` pairs, in file order.
    #[getter]
    fn groups(&self) -> Vec<(String, Vec<String>)> {
        self.inner
            .groups()
            .iter()
            .map(|g| (g.name.clone(), g.values.clone()))
            .collect()
    }

    /// The number of clues.
    #[getter]
    fn clue_count(&self) -> usize {
        self.inner.clues().len()
    }

    /// The puzzle as a `Model`: one variable a value, named after it (or
    /// `group.value` when the name is in several groups), its domain the
    /// houses; all-different at `strength` for each group.
    #[pyo3(signature = (strength = "domain"))]
    fn model(&self, strength: &str) -> PyResult<Model> {
        let pm = self.inner.to_model_with(crate::model::strength(strength)?);
        Ok(Model::wrap(pm.model().clone()))
    }

    /// A copy with a minimal set of clues: removing any clue that is left
    /// makes the solution not unique. `seed` decides the order clues are
    /// tried in; raises `ValueError` if the puzzle is not unique to begin
    /// with. When a limit cuts a clue's check short, the clue stays and a
    /// `RuntimeWarning` says the set may not be minimal.
    #[pyo3(signature = (seed = 0, *, strength = "domain", node_limit = None, time_limit = None))]
    fn minimize(
        &self,
        py: Python<'_>,
        seed: u64,
        strength: &str,
        node_limit: Option<u64>,
        time_limit: Option<f64>,
    ) -> PyResult<Puzzle> {
        let strength = crate::model::strength(strength)?;
        let options = search_options("first-fail", "min", node_limit, time_limit)?;
        let inner = &self.inner;
        let (inner, minimized) = py
            .detach(|| inner.minimized(seed, strength, &options))
            .map_err(|e| {
                let MinimizeError::NotUnique(u) = &e;
                let verdict = match u {
                    Uniqueness::None { .. } => "no solution",
                    Uniqueness::Several { .. } => "not unique",
                    _ => "unknown",
                };
                let err = NotUniqueError::new_err(e.to_string());
                // Only memory can make this fail; the message says it too.
                let _ = err.value(py).setattr("verdict", verdict);
                err
            })?;
        let cut = minimized.cut_short.len();
        if cut > 0 {
            // Still unique, but a clue kept only because its check was cut
            // short may not be needed.
            let message = format!(
                "{cut} clue check{} cut short by the limit: the set may not be minimal",
                if cut == 1 { " was" } else { "s were" }
            );
            let message = std::ffi::CString::new(message).expect("no NUL in the message");
            let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
            PyErr::warn(py, &category, &message, 1)?;
        }
        Ok(Puzzle { inner })
    }

    /// The puzzle as `.zebra` text.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let title = match self.inner.title() {
            Some(t) => PyString::new(py, t).repr()?.to_string(),
            None => "None".to_owned(),
        };
        Ok(format!(
            "Puzzle(title={title}, houses={}, groups={}, clues={})",
            self.inner.houses(),
            self.inner.groups().len(),
            self.inner.clues().len()
        ))
    }
}

/// Parses `.zebra` text: the same as `Puzzle.parse`.
#[pyfunction]
pub(crate) fn parse_zebra(py: Python<'_>, text: &str) -> PyResult<Puzzle> {
    Puzzle::parse(py, text, "zebra")
}

/// Parses English zebra text (ZebraLogic, reasoning-gym or classic numbered
/// clues): the same as `Puzzle.parse(text, format="english")`. A sentence
/// the reader cannot place raises `ParseError` with its line and column.
///
/// >>> text = "There are 2 houses.\nColors: red, blue\n1. The red house is in the second house.\n"
/// >>> parse_english(text).answer_grid()["rows"]
/// [['1', 'blue'], ['2', 'red']]
/// >>> try:
/// ...     parse_english(text + "2. The red house sings.\n")
/// ... except ParseError as e:
/// ...     (e.line, e.column, e.code)
/// (4, 4, 'unreadable-sentence')
#[pyfunction]
pub(crate) fn parse_english(py: Python<'_>, text: &str) -> PyResult<Puzzle> {
    Puzzle::parse(py, text, "english")
}

/// A text format of puzzles.
#[derive(Clone, Copy)]
pub(crate) enum Format {
    /// The `.zebra` format.
    Zebra,
    /// English text.
    English,
}

impl Format {
    /// Reads a format's name: `"zebra"` or `"english"`.
    pub(crate) fn of(name: &str) -> PyResult<Format> {
        match name {
            "zebra" => Ok(Format::Zebra),
            "english" => Ok(Format::English),
            _ => Err(PyValueError::new_err(format!(
                "unknown format {name:?}: expected \"zebra\" or \"english\""
            ))),
        }
    }

    fn parse(self, text: &str) -> Result<puzzle::Puzzle, ParseErrors> {
        match self {
            Format::Zebra => puzzle::parse(text),
            Format::English => english::parse(text),
        }
    }
}

/// Reads an English style's name, as the CLI's `--style` spells it.
pub(crate) fn style_of(name: &str) -> PyResult<Style> {
    Style::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown style {name:?}: expected \"zebralogic\", \"reasoning-gym\" or \"classic\""
        ))
    })
}

impl Puzzle {
    /// Wraps a library puzzle.
    pub(crate) fn wrap(inner: puzzle::Puzzle) -> Puzzle {
        Puzzle { inner }
    }
}

/// What `check` found: the verdict, up to two solutions, where they differ,
/// and the search's statistics.
#[pyclass(module = "bitfd", frozen)]
pub(crate) struct Check {
    verdict: &'static str,
    /// Why an `unknown` search stopped; `None` otherwise.
    limit: Option<&'static str>,
    /// Why the uniqueness search ended.
    status: SearchStatus,
    /// None, one (unique) or the first two (not unique).
    solutions: Vec<Solution>,
    /// `(variable, first, second)` for every variable the two differ on.
    differences: Vec<(String, u8, u8)>,
    /// The constraint that failed at the root, described.
    failed_at_root: Option<String>,
    stats: bitfd::Stats,
    /// The difficulty rating, when asked for and the puzzle is unique.
    rating: Option<bitfd::check::Rating>,
}

#[pymethods]
impl Check {
    /// `"unique"`, `"not unique"`, `"no solution"` or `"unknown"` (a node
    /// or time limit stopped the search first).
    #[getter]
    fn verdict(&self) -> &'static str {
        self.verdict
    }

    /// Whether the puzzle has exactly one solution.
    #[getter]
    fn is_unique(&self) -> bool {
        self.verdict == "unique"
    }

    /// For `"unknown"`: `"node limit"` or `"time limit"`; else `None`.
    #[getter]
    fn limit(&self) -> Option<&'static str> {
        self.limit
    }

    /// The solutions found, as dicts value -> house: none, the only one,
    /// or the first two.
    #[getter]
    fn solutions<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.solutions
            .iter()
            .map(|s| solution_dict(py, s))
            .collect()
    }

    /// For `"not unique"`: `(variable, first, second)` for each variable on
    /// which the two solutions differ, in declaration order.
    #[getter]
    fn differences(&self) -> Vec<(String, u8, u8)> {
        self.differences.clone()
    }

    /// For `"no solution"` found by propagation alone: the clue (or group
    /// constraint) that failed, by its sentence; else `None`.
    #[getter]
    fn failed_at_root(&self) -> Option<String> {
        self.failed_at_root.clone()
    }

    /// The uniqueness search's statistics.
    #[getter]
    fn stats(&self) -> Stats {
        Stats(self.stats)
    }

    /// The difficulty rating (`check(..., rate=True)` of a unique puzzle,
    /// within the limits given); else `None`.
    #[getter]
    fn rating(&self) -> Option<Rating> {
        self.rating.map(Rating)
    }

    fn __repr__(&self) -> String {
        format!(
            "Check(verdict='{}', solutions={}, nodes={}, failures={})",
            self.verdict,
            self.solutions.len(),
            self.stats.nodes,
            self.stats.failures
        )
    }
}

impl Check {
    /// Why the uniqueness search ended.
    pub(crate) fn search_status(&self) -> SearchStatus {
        self.status
    }
}

/// A difficulty rating, frozen: the whole tree's size under the fixed
/// rating strategy (first-fail, min value), comparable across runs.
#[pyclass(module = "bitfd", frozen, eq, hash, skip_from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Rating(bitfd::check::Rating);

#[pymethods]
impl Rating {
    /// Nodes of the whole search tree.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }
    /// Failed leaves: how often a guess was wrong.
    #[getter]
    fn failures(&self) -> u64 {
        self.0.failures
    }
    /// Solutions in the whole tree.
    #[getter]
    fn solutions(&self) -> u64 {
        self.0.solutions
    }
    /// Whether propagation alone solved it.
    #[getter]
    fn propagation_only(&self) -> bool {
        self.0.propagation_only
    }
    /// Propagator runs to reach the root fixpoint.
    #[getter]
    fn root_propagations(&self) -> u64 {
        self.0.root_propagations
    }

    fn __repr__(&self) -> String {
        let r = &self.0;
        format!(
            "Rating(nodes={}, failures={}, solutions={}, propagation_only={}, root_propagations={})",
            r.nodes,
            r.failures,
            r.solutions,
            if r.propagation_only { "True" } else { "False" },
            r.root_propagations
        )
    }
}

/// Checks one parsed puzzle: no Python inside, so it runs detached.
fn check_puzzle(
    p: &puzzle::Puzzle,
    strength: Strength,
    options: &SearchOptions,
    rate: bool,
) -> Check {
    let pm = p.to_model_with(strength);
    let mut solver = bitfd::Solver::new(pm.model());
    check_model(pm.model(), &mut solver, options, rate)
}

/// The uniqueness check of `solver`, a solver of `model` (which names the
/// variables and constraints in the result). No Python inside.
pub(crate) fn check_model(
    model: &bitfd::Model,
    solver: &mut bitfd::Solver,
    options: &SearchOptions,
    rate: bool,
) -> Check {
    let verdict = solver.uniqueness(options);
    let stats = solver.stats();
    let mut check = Check {
        verdict: "unknown",
        limit: None,
        status: SearchStatus::Complete,
        solutions: Vec::new(),
        differences: Vec::new(),
        failed_at_root: None,
        stats,
        rating: None,
    };
    match verdict {
        Uniqueness::Unique(s) => {
            check.verdict = "unique";
            check.solutions.push(s);
            // Rating searches the whole tree again, within the same limits.
            if rate {
                check.rating = solver.rate_within(options);
            }
        }
        Uniqueness::None { failed_at_root } => {
            check.verdict = "no solution";
            check.failed_at_root = failed_at_root.map(|c| model.describe(c));
        }
        Uniqueness::Several {
            first,
            second,
            differences,
        } => {
            check.verdict = "not unique";
            check.status = SearchStatus::SolutionLimit;
            check.differences = differences
                .iter()
                .map(|d| (model.name(d.var).to_owned(), d.first, d.second))
                .collect();
            check.solutions = vec![first, second];
        }
        Uniqueness::Unknown { status } => {
            check.limit = Some(status_str(status));
            check.status = status;
        }
    }
    check
}

/// A puzzle argument: a `Puzzle`, or `.zebra` text to parse.
#[derive(FromPyObject)]
pub(crate) enum PuzzleArg<'py> {
    /// Parsed already.
    Puzzle(PyRef<'py, Puzzle>),
    /// `.zebra` text.
    Text(String),
}

/// A puzzle argument taken out of Python, for a worker thread.
enum Input {
    Puzzle(puzzle::Puzzle),
    Text(String, Format),
}

impl Input {
    fn of(arg: PuzzleArg<'_>, format: Format) -> Input {
        match arg {
            PuzzleArg::Puzzle(p) => Input::Puzzle(p.inner.clone()),
            PuzzleArg::Text(t) => Input::Text(t, format),
        }
    }

    fn check(
        &self,
        strength: Strength,
        options: &SearchOptions,
        rate: bool,
    ) -> Result<Check, ParseErrors> {
        match self {
            Input::Puzzle(p) => Ok(check_puzzle(p, strength, options, rate)),
            Input::Text(t, format) => format
                .parse(t)
                .map(|p| check_puzzle(&p, strength, options, rate)),
        }
    }
}

/// Checks whether a puzzle (a `Puzzle` or `.zebra` text) has exactly one
/// solution, stopping at the second.
///
/// >>> r = check("houses 2\ncolor: red blue\nred = 1\n")
/// >>> r.verdict, r.solutions
/// ('unique', [{'red': 1, 'blue': 2}])
/// >>> check("houses 2\ncolor: red blue\n").differences
/// [('red', 1, 2), ('blue', 2, 1)]
#[pyfunction]
#[pyo3(signature = (puzzle, *, format = "zebra", strength = "domain", var_order = "first-fail", value_order = "min", node_limit = None, time_limit = None, rate = false))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn check(
    py: Python<'_>,
    puzzle: PuzzleArg<'_>,
    format: &str,
    strength: &str,
    var_order: &str,
    value_order: &str,
    node_limit: Option<u64>,
    time_limit: Option<f64>,
    rate: bool,
) -> PyResult<Check> {
    let strength = crate::model::strength(strength)?;
    let options = search_options(var_order, value_order, node_limit, time_limit)?;
    let input = Input::of(puzzle, Format::of(format)?);
    py.detach(|| input.check(strength, &options, rate))
        .map_err(|e| parse_error(py, &e, ""))
}

/// Checks many puzzles on every core (or `threads` of them), with the
/// interpreter released; the results come in input order. A text that does
/// not parse raises `ParseError` naming its index (the first such).
///
/// >>> texts = ["houses 2\ncolor: red blue\nred = 1\n", "houses 2\ncolor: red blue\n"]
/// >>> [r.verdict for r in check_many(texts)]
/// ['unique', 'not unique']
#[pyfunction]
#[pyo3(signature = (puzzles, *, format = "zebra", strength = "domain", var_order = "first-fail", value_order = "min", node_limit = None, time_limit = None, rate = false, threads = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn check_many(
    py: Python<'_>,
    puzzles: Vec<PuzzleArg<'_>>,
    format: &str,
    strength: &str,
    var_order: &str,
    value_order: &str,
    node_limit: Option<u64>,
    time_limit: Option<f64>,
    rate: bool,
    threads: Option<usize>,
) -> PyResult<Vec<Check>> {
    let strength = crate::model::strength(strength)?;
    let options = search_options(var_order, value_order, node_limit, time_limit)?;
    let threads = thread_count(threads)?;
    let format = Format::of(format)?;
    let inputs: Vec<Input> = puzzles.into_iter().map(|p| Input::of(p, format)).collect();
    let results = py
        .detach(|| {
            run_ordered(&inputs, threads, |input| {
                input.check(strength, &options, rate)
            })
        })
        .ok_or_else(|| PyRuntimeError::new_err("a check_many worker thread panicked"))?;
    let mut checks = Vec::with_capacity(results.len());
    for (i, r) in results.into_iter().enumerate() {
        checks.push(r.map_err(|e| parse_error(py, &e, &format!("puzzle #{i}: ")))?);
    }
    Ok(checks)
}

/// The worker threads of a batch: `threads`, or one a core; 0 is refused.
pub(crate) fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// `f` of every item on `threads` threads, in input order; `None` if a
/// worker panicked.
pub(crate) fn run_ordered<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Option<Vec<R>> {
    let next = AtomicUsize::new(0);
    let threads = threads.clamp(1, items.len().max(1));
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(item)));
        }
    };
    let parts = thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| h.join().ok())
            .collect::<Option<Vec<_>>>()
    })?;
    let mut slots: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    for (i, r) in parts.into_iter().flatten() {
        slots[i] = Some(r);
    }
    // Every index below `items.len()` was taken by exactly one worker.
    slots.into_iter().collect()
}
