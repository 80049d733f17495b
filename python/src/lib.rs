//! `bitfd` for Python: the kernel ([`model`], [`solver`]) and the puzzle
//! tools ([`puzzle`]) as the extension module `bitfd._bitfd`, which the
//! pure-Python package `bitfd` re-exports.
//!
//! The boundary's contract:
//! * every error a user can cause is a Python exception, never a Rust panic:
//!   [`ModelError`] (a `ValueError`) carries the Rust [`bitfd::ModelError`]'s
//!   message, [`ParseError`] (a `ModelError`) the parser's diagnostics, and
//!   handles of another model are refused here, before the library (which
//!   panics on them in a few read-only calls) ever sees them;
//! * values cross as `int`s and `str`s, solutions as `dict`s name -> value;
//! * searches and batches run with the interpreter released (`detach`), so
//!   other Python threads go on while Rust works.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod model;
mod puzzle;
mod solver;
mod sudoku;

create_exception!(
    bitfd,
    ModelError,
    PyValueError,
    "Something passed to a Model is wrong: an unknown or duplicate name, a \
value out of range, an empty domain, a handle of another model. The message \
is the Rust library's."
);
create_exception!(
    bitfd,
    ParseError,
    ModelError,
    "A puzzle's text could not be read. The message holds every diagnostic, \
one a line (`line:column: error[code]: message`); `diagnostics` lists them."
);

/// The Python exception for a Rust model error, with its message.
pub(crate) fn model_error(e: &bitfd::ModelError) -> PyErr {
    ModelError::new_err(e.to_string())
}

/// The extension module: its classes, functions and exceptions.
#[pymodule]
fn _bitfd(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ModelError", m.py().get_type::<ModelError>())?;
    m.add("ParseError", m.py().get_type::<ParseError>())?;
    m.add_class::<model::Var>()?;
    m.add_class::<model::Constraint>()?;
    m.add_class::<model::Model>()?;
    m.add_class::<solver::Stats>()?;
    m.add_class::<solver::Solver>()?;
    m.add_class::<solver::SolutionIter>()?;
    m.add_class::<solver::Tree>()?;
    m.add_class::<solver::Trace>()?;
    m.add_class::<puzzle::Puzzle>()?;
    m.add_class::<puzzle::Check>()?;
    m.add_class::<puzzle::Rating>()?;
    m.add_class::<sudoku::Sudoku>()?;
    m.add_function(wrap_pyfunction!(puzzle::check, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::check_many, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::parse_zebra, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::generate, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::generate_many, m)?)?;
    Ok(())
}
