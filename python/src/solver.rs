//! `Solver`, `Stats` and the solution iterator: search from Python.
//!
//! Every search runs with the interpreter released. A solution crosses as
//! a new `dict` name -> value in declaration order; the Rust solutions
//! never leave this module.

use std::time::Duration;

use bitfd::{Mode, SearchOptions, SearchStatus, Solution, ValueOrder, VarOrder};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::model::Model;
use crate::puzzle::{Check, check_model};

/// Search statistics, frozen: every node of the tree counts, the root
/// included, and `nodes = choices + failures + solutions` for a search that
/// ran to the end.
#[pyclass(
    module = "bitfd",
    frozen,
    eq,
    hash,
    skip_from_py_object,
    name = "Stats"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Stats(pub(crate) bitfd::Stats);

#[pymethods]
impl Stats {
    /// Every node of the tree: choices + failures + solutions.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }
    /// Choice nodes.
    #[getter]
    fn choices(&self) -> u64 {
        self.0.choices
    }
    /// Failed leaves.
    #[getter]
    fn failures(&self) -> u64 {
        self.0.failures
    }
    /// Solution leaves.
    #[getter]
    fn solutions(&self) -> u64 {
        self.0.solutions
    }
    /// The depth of the deepest node (the root has depth 0).
    #[getter]
    fn max_depth(&self) -> u32 {
        self.0.max_depth
    }
    /// Propagator runs.
    #[getter]
    fn propagations(&self) -> u64 {
        self.0.propagations
    }

    fn __repr__(&self) -> String {
        let s = &self.0;
        format!(
            "Stats(nodes={}, choices={}, failures={}, solutions={}, max_depth={}, propagations={})",
            s.nodes, s.choices, s.failures, s.solutions, s.max_depth, s.propagations
        )
    }
}

/// Reads the search options of the Python keyword arguments.
pub(crate) fn search_options(
    var_order: &str,
    value_order: &str,
    node_limit: Option<u64>,
    time_limit: Option<f64>,
) -> PyResult<SearchOptions> {
    let var_order = match var_order {
        "first-fail" => VarOrder::FirstFail,
        "input-order" => VarOrder::InputOrder,
        "largest-domain" => VarOrder::LargestDomain,
        "dom-wdeg" => VarOrder::DomWdeg,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown var_order {var_order:?}: expected \"first-fail\", \"input-order\", \
                 \"largest-domain\" or \"dom-wdeg\""
            )));
        }
    };
    let value_order = match value_order {
        "min" => ValueOrder::Min,
        "max" => ValueOrder::Max,
        "split" => ValueOrder::Split,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown value_order {value_order:?}: expected \"min\", \"max\" or \"split\""
            )));
        }
    };
    let mut options = SearchOptions::default()
        .var_order(var_order)
        .value_order(value_order);
    options.node_limit = node_limit;
    if let Some(seconds) = time_limit {
        let limit = Duration::try_from_secs_f64(seconds).map_err(|_| {
            PyValueError::new_err(format!(
                "time_limit must be a finite number of seconds >= 0, got {seconds}"
            ))
        })?;
        options.time_limit = Some(limit);
    }
    Ok(options)
}

/// A solution as a new `dict` name -> value, in declaration order.
pub(crate) fn solution_dict<'py>(py: Python<'py>, s: &Solution) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, v) in s.iter() {
        d.set_item(name, v)?;
    }
    Ok(d)
}

/// Why a search ended, as Python sees it.
pub(crate) fn status_str(status: SearchStatus) -> &'static str {
    match status {
        SearchStatus::Complete => "complete",
        SearchStatus::SolutionLimit => "solution limit",
        SearchStatus::NodeLimit => "node limit",
        SearchStatus::TimeLimit => "time limit",
    }
}

fn order_names(options: &SearchOptions) -> (String, String) {
    (
        options.var_order.to_string(),
        options.value_order.to_string(),
    )
}

/// A depth-first search over a model, with its options. The solver copies
/// the model when made: changing the model afterwards does not change it.
///
/// >>> m = Model()
/// >>> x, y = m.int_var("x", 1, 4), m.int_var("y", 1, 4)
/// >>> m.distance(x, y, 3)
/// Constraint('distance', index=0)
/// >>> s = Solver(m, value_order="max")
/// >>> s.first()
/// {'x': 4, 'y': 1}
/// >>> [solution["x"] for solution in s]
/// [4, 1]
/// >>> s.count(), s.status
/// (2, 'complete')
#[pyclass(module = "bitfd")]
pub(crate) struct Solver {
    inner: bitfd::Solver,
    /// The model's copy, for the recorded searches (`tree`, `trace`).
    model: bitfd::Model,
    options: SearchOptions,
    /// Why the last search ended (`None` before the first).
    status: Option<SearchStatus>,
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (model, *, var_order = "first-fail", value_order = "min", node_limit = None, time_limit = None))]
    fn new(
        model: PyRef<'_, Model>,
        var_order: &str,
        value_order: &str,
        node_limit: Option<u64>,
        time_limit: Option<f64>,
    ) -> PyResult<Solver> {
        let options = search_options(var_order, value_order, node_limit, time_limit)?;
        Ok(Solver {
            inner: bitfd::Solver::new(&model.inner),
            model: model.inner.clone(),
            options,
            status: None,
        })
    }

    /// The first solution as a dict name -> value, or `None` if there is
    /// none (or a limit stopped the search first: see `status`).
    fn first<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let options = self.options;
        let inner = &mut self.inner;
        let outcome = py.detach(|| inner.first(&options));
        self.status = Some(outcome.status);
        outcome
            .solutions
            .first()
            .map(|s| solution_dict(py, s))
            .transpose()
    }

    /// Every solution, as dicts, in the order found.
    fn all<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let options = self.options;
        let inner = &mut self.inner;
        let outcome = py.detach(|| inner.all(&options));
        self.status = Some(outcome.status);
        outcome
            .solutions
            .iter()
            .map(|s| solution_dict(py, s))
            .collect()
    }

    /// The number of solutions, none of them kept.
    fn count(&mut self, py: Python<'_>) -> u64 {
        let options = self.options;
        let inner = &mut self.inner;
        let outcome = py.detach(|| inner.count(&options));
        self.status = Some(outcome.status);
        outcome.stats.solutions
    }

    /// The solutions one at a time, each found when asked for, by a search
    /// of its own (on a copy of this solver): `stats` on the iterator.
    fn __iter__(&self) -> SolutionIter {
        let solver = self.inner.clone();
        let options = self.options;
        SolutionIter {
            running: Running::new(solver, |s| s.solutions(&options)),
            done: false,
        }
    }

    /// Checks whether the model has exactly one solution, stopping at the
    /// second: the same result as `check` on a puzzle, on this solver (built
    /// once, so a repeated check builds nothing). With `rate`, a unique
    /// model is also rated.
    ///
    /// >>> m = Model()
    /// >>> x, y = m.int_var("x", 1, 2), m.int_var("y", 1, 2)
    /// >>> _ = m.all_different([x, y])
    /// >>> r = Solver(m).uniqueness()
    /// >>> r.verdict, r.differences
    /// ('not unique', [('x', 1, 2), ('y', 2, 1)])
    #[pyo3(signature = (*, rate = false))]
    fn uniqueness(&mut self, py: Python<'_>, rate: bool) -> Check {
        let options = self.options;
        let (model, inner) = (&self.model, &mut self.inner);
        let check = py.detach(|| check_model(model, inner, &options, rate));
        self.status = Some(check.search_status());
        check
    }

    /// Searches again in `mode` (`"all"`, `"first"` or `"count"`),
    /// recording the search tree: its stable text, DOT and JSON.
    #[pyo3(signature = (mode = "all"))]
    fn tree(&self, py: Python<'_>, mode: &str) -> PyResult<Tree> {
        let mode = search_mode(mode)?;
        let (model, options) = (&self.model, self.options);
        let (tree, outcome) = py.detach(|| bitfd::Tree::record(model, &options, mode));
        Ok(Tree {
            inner: tree,
            stats: outcome.stats,
            status: outcome.status,
        })
    }

    /// Searches again in `mode`, recording the deduction trace: which
    /// constraint removed which values, each guess and conflict.
    #[pyo3(signature = (mode = "all"))]
    fn trace(&self, py: Python<'_>, mode: &str) -> PyResult<Trace> {
        let mode = search_mode(mode)?;
        let (model, options) = (&self.model, self.options);
        let (trace, outcome) = py.detach(|| bitfd::Trace::record(model, &options, mode));
        Ok(Trace {
            inner: trace,
            stats: outcome.stats,
        })
    }

    /// The statistics of the last search (all zero before the first).
    #[getter]
    fn stats(&self) -> Stats {
        Stats(self.inner.stats())
    }

    /// Why the last search ended: `"complete"`, `"solution limit"`,
    /// `"node limit"` or `"time limit"`; `None` before the first search.
    #[getter]
    fn status(&self) -> Option<&'static str> {
        self.status.map(status_str)
    }

    fn __repr__(&self) -> String {
        let (var_order, value_order) = order_names(&self.options);
        let node_limit = self
            .options
            .node_limit
            .map_or_else(|| "None".to_owned(), |n| n.to_string());
        let time_limit = self
            .options
            .time_limit
            .map_or_else(|| "None".to_owned(), |t| t.as_secs_f64().to_string());
        format!(
            "Solver(var_order='{var_order}', value_order='{value_order}', \
             node_limit={node_limit}, time_limit={time_limit})"
        )
    }
}

/// A solver and the search running on it: the iterator borrows the solver
/// it owns, for as long as the Python iterator lives.
#[ouroboros::self_referencing]
struct Running {
    solver: bitfd::Solver,
    #[borrows(mut solver)]
    #[not_covariant]
    solutions: bitfd::Solutions<'this>,
}

/// The solutions of a search, one dict at a time, as the search finds
/// them; iterating holds no more memory than the search's depth needs.
#[pyclass(module = "bitfd")]
pub(crate) struct SolutionIter {
    running: Running,
    /// Set once the search has ended: `__next__` then stops at once.
    done: bool,
}

#[pymethods]
impl SolutionIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        if self.done {
            return Ok(None);
        }
        let running = &mut self.running;
        let next = py.detach(|| running.with_solutions_mut(|s| s.next()));
        match next {
            Some(s) => solution_dict(py, &s).map(Some),
            None => {
                self.done = true;
                Ok(None)
            }
        }
    }

    /// The statistics so far.
    #[getter]
    fn stats(&self) -> Stats {
        Stats(self.running.with_solutions(|s| s.stats()))
    }

    fn __repr__(&self) -> String {
        format!(
            "SolutionIter(solutions={}, done={})",
            self.running.with_solutions(|s| s.stats()).solutions,
            if self.done { "True" } else { "False" }
        )
    }
}

/// Reads a search mode for a recorded search.
fn search_mode(mode: &str) -> PyResult<Mode> {
    match mode {
        "all" => Ok(Mode::All),
        "first" => Ok(Mode::First),
        "count" => Ok(Mode::Count),
        _ => Err(PyValueError::new_err(format!(
            "unknown mode {mode:?}: expected \"all\", \"first\" or \"count\""
        ))),
    }
}

/// A recorded search tree. `str(tree)` is its stable text (one node a line,
/// indented by depth), `to_dot()` Graphviz input, `to_json()` JSON.
#[pyclass(module = "bitfd", frozen)]
pub(crate) struct Tree {
    inner: bitfd::Tree,
    stats: bitfd::Stats,
    status: SearchStatus,
}

#[pymethods]
impl Tree {
    /// The tree as Graphviz DOT.
    fn to_dot(&self) -> String {
        self.inner.to_dot()
    }

    /// The tree as JSON, pretty-printed, stable to the byte.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// The recorded search's statistics.
    #[getter]
    fn stats(&self) -> Stats {
        Stats(self.stats)
    }

    /// Why the recorded search ended.
    #[getter]
    fn status(&self) -> &'static str {
        status_str(self.status)
    }

    /// Whether the search had more nodes than the tree records.
    #[getter]
    fn is_truncated(&self) -> bool {
        self.inner.is_truncated()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Tree(nodes={}, status='{}')",
            self.stats.nodes,
            status_str(self.status)
        )
    }
}

/// A recorded deduction trace: `str(trace)` is its stable text,
/// `profile()` the table of what each constraint did.
#[pyclass(module = "bitfd", frozen)]
pub(crate) struct Trace {
    inner: bitfd::Trace,
    stats: bitfd::Stats,
}

#[pymethods]
impl Trace {
    /// Per constraint: runs, values removed, conflicts, as a text table.
    fn profile(&self) -> String {
        self.inner.profile().to_string()
    }

    /// The recorded search's statistics.
    #[getter]
    fn stats(&self) -> Stats {
        Stats(self.stats)
    }

    /// Whether the search had more steps than the trace records.
    #[getter]
    fn is_truncated(&self) -> bool {
        self.inner.is_truncated()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Trace(steps={}, nodes={})",
            self.inner.steps().len(),
            self.stats.nodes
        )
    }
}

/// The benchmark's reference (python/bench/bench_check.py): `rounds`
/// uniqueness checks of each solver, called from Rust with no Python in
/// between, as `benches/check.rs` calls them, in this very build. Returns
/// how many checks found a unique solution. Not part of the API.
#[pyfunction]
pub(crate) fn _uniqueness_rounds(
    py: Python<'_>,
    mut solvers: Vec<PyRefMut<'_, Solver>>,
    rounds: u64,
) -> u64 {
    let mut inner: Vec<(&mut bitfd::Solver, SearchOptions)> = solvers
        .iter_mut()
        .map(|s| {
            let s = &mut **s;
            (&mut s.inner, s.options)
        })
        .collect();
    py.detach(|| {
        let mut unique = 0;
        for _ in 0..rounds {
            for (solver, options) in &mut inner {
                unique += u64::from(solver.uniqueness(options).is_unique());
            }
        }
        unique
    })
}
