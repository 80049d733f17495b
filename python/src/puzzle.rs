//! The puzzle tools: `.zebra` and JSON text in, `Puzzle`, and `check` /
//! `check_many`, the uniqueness verdict with its first two solutions.
//!
//! `check_many` parses and checks on every core with the interpreter
//! released, each worker taking the next puzzle from a shared counter, and
//! hands the results back in input order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use bitfd::check::Uniqueness;
use bitfd::generate::{
    GenerateError, GenerateOptions, MAX_GROUPS, MAX_HOUSES, generate as generate_puzzle,
};
use bitfd::puzzle::{self, ParseErrors};
use bitfd::{SearchOptions, SearchStatus, Solution, Strength};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::ParseError;
use crate::model::Model;
use crate::solver::{Stats, search_options, solution_dict, status_str};

/// The Python exception for a parse failure: every diagnostic, one a line,
/// prefixed with `prefix`; the list is the exception's `diagnostics`.
fn parse_error(py: Python<'_>, e: &ParseErrors, prefix: &str) -> PyErr {
    let lines: Vec<String> = e.diagnostics().iter().map(|d| d.to_string()).collect();
    let mut message = format!("{prefix}{}", lines.join("\n"));
    if e.omitted() > 0 {
        message.push_str(&format!("\n({} more errors)", e.omitted()));
    }
    let err = ParseError::new_err(message);
    // Setting an attribute on a fresh exception cannot fail but for memory.
    let _ = err.value(py).setattr("diagnostics", lines);
    err
}

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
    /// Parses `.zebra` text; raises `ParseError` with every diagnostic.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<Puzzle> {
        puzzle::parse(text)
            .map(|inner| Puzzle { inner })
            .map_err(|e| parse_error(py, &e, ""))
    }

    /// Reads one puzzle object of the shared test data's JSON form
    /// (`bitfd-test-data/zebra-1`); raises `ParseError` on a problem.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Puzzle> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ParseError::new_err(format!("not JSON: {e}")))?;
        puzzle::from_json(&value)
            .map(|inner| Puzzle { inner })
            .map_err(|e| ParseError::new_err(e.to_string()))
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
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
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
    Puzzle::parse(py, text)
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
    Text(String),
}

impl Input {
    fn of(arg: PuzzleArg<'_>) -> Input {
        match arg {
            PuzzleArg::Puzzle(p) => Input::Puzzle(p.inner.clone()),
            PuzzleArg::Text(t) => Input::Text(t),
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
            Input::Text(t) => puzzle::parse(t).map(|p| check_puzzle(&p, strength, options, rate)),
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
#[pyo3(signature = (puzzle, *, strength = "domain", var_order = "first-fail", value_order = "min", node_limit = None, time_limit = None, rate = false))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn check(
    py: Python<'_>,
    puzzle: PuzzleArg<'_>,
    strength: &str,
    var_order: &str,
    value_order: &str,
    node_limit: Option<u64>,
    time_limit: Option<f64>,
    rate: bool,
) -> PyResult<Check> {
    let strength = crate::model::strength(strength)?;
    let options = search_options(var_order, value_order, node_limit, time_limit)?;
    let input = Input::of(puzzle);
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
#[pyo3(signature = (puzzles, *, strength = "domain", var_order = "first-fail", value_order = "min", node_limit = None, time_limit = None, rate = false, threads = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn check_many(
    py: Python<'_>,
    puzzles: Vec<PuzzleArg<'_>>,
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
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let inputs: Vec<Input> = puzzles.into_iter().map(Input::of).collect();
    let threads = threads.unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()));
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

/// `f` of every item on `threads` threads, in input order; `None` if a
/// worker panicked.
fn run_ordered<T: Sync, R: Send>(
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

/// The options of one generated puzzle, checked.
fn generate_options(houses: u8, groups: usize, seed: u64) -> PyResult<GenerateOptions> {
    if !(2..=MAX_HOUSES).contains(&houses) {
        return Err(PyValueError::new_err(
            GenerateError::Houses(houses).to_string(),
        ));
    }
    if !(1..=MAX_GROUPS).contains(&groups) {
        return Err(PyValueError::new_err(
            GenerateError::Groups(groups).to_string(),
        ));
    }
    Ok(GenerateOptions {
        houses,
        groups,
        seed,
    })
}

/// Generates a puzzle with a unique solution and a minimal set of clues;
/// the same arguments give the same puzzle. Raises `ValueError` for a size
/// outside 2..=10 houses, 1..=12 groups (the generator's word lists).
///
/// >>> p = generate(4, 3, seed=7)
/// >>> p.houses, len(p.groups), check(p).verdict
/// (4, 3, 'unique')
/// >>> str(generate(4, 3, seed=7)) == str(p)
/// True
#[pyfunction]
#[pyo3(signature = (houses, groups, *, seed = 0))]
pub(crate) fn generate(py: Python<'_>, houses: u8, groups: usize, seed: u64) -> PyResult<Puzzle> {
    let options = generate_options(houses, groups, seed)?;
    py.detach(|| generate_puzzle(&options))
        .map(|g| Puzzle { inner: g.puzzle })
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Generates one puzzle a seed, on every core (or `threads`), with the
/// interpreter released; the puzzles come in the seeds' order, each the
/// one `generate` gives for its seed.
///
/// >>> [str(p) == str(generate(4, 3, seed=s)) for s, p in zip([1, 2], generate_many(4, 3, [1, 2]))]
/// [True, True]
#[pyfunction]
#[pyo3(signature = (houses, groups, seeds, *, threads = None))]
pub(crate) fn generate_many(
    py: Python<'_>,
    houses: u8,
    groups: usize,
    seeds: Vec<u64>,
    threads: Option<usize>,
) -> PyResult<Vec<Puzzle>> {
    let options: Vec<GenerateOptions> = seeds
        .iter()
        .map(|&seed| generate_options(houses, groups, seed))
        .collect::<PyResult<_>>()?;
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let threads = threads.unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()));
    let results = py
        .detach(|| run_ordered(&options, threads, generate_puzzle))
        .ok_or_else(|| PyRuntimeError::new_err("a generate_many worker thread panicked"))?;
    results
        .into_iter()
        .map(|r| {
            r.map(|g| Puzzle { inner: g.puzzle })
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })
        .collect()
}
