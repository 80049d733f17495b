//! `bitfd` for Python: the kernel ([`model`], [`solver`]) and the puzzle
//! tools ([`puzzle`]) as the extension module `bitfd._bitfd`, which the
//! pure-Python package `bitfd` re-exports.
//!
//! The boundary's contract:
//! * every error a user can cause is a Python exception, never a Rust panic:
//!   a subclass of `ModelError` (a `ValueError`; the hierarchy is in
//!   [`errors`]) with the Rust error's message and facts, `ParseError` with
//!   the parser's positioned diagnostics, and handles of another model are
//!   refused here, before the library (which panics on them in a few
//!   read-only calls) ever sees them;
//! * values cross as `int`s and `str`s, solutions as `dict`s name -> value;
//! * searches and batches run with the interpreter released (`detach`), so
//!   other Python threads go on while Rust works.

use pyo3::prelude::*;

mod errors;
mod generate;
mod model;
mod puzzle;
mod solver;
mod sudoku;

/// The extension module: its classes, functions and exceptions.
#[pymodule]
fn _bitfd(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
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
    m.add_class::<generate::Controls>()?;
    m.add_function(wrap_pyfunction!(solver::_uniqueness_rounds, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::check, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::check_many, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::parse_zebra, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::parse_english, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate_many, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate_english, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate_files, m)?)?;
    Ok(())
}
