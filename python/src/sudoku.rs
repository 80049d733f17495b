//! `Sudoku`: boards of 9x9 to 36x36, one line each, solved and checked.

use bitfd::sudoku::{Board, BoardError, SudokuModel};
use bitfd::{SearchOptions, Strength};
use pyo3::prelude::*;

use crate::errors::parse_error_at;
use crate::model::{Model, strength};
use crate::puzzle::{Check, check_model};
use crate::solver::search_options;

/// A sudoku board of 9x9, 16x16, 25x25 or 36x36 cells, read from one line
/// (`.` a blank; `0` too on a 9x9 board). Cell values are `1..=n`.
///
/// >>> s = Sudoku.parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
/// >>> s.size, s.givens
/// (9, 30)
/// >>> s.solve()[:9]
/// '534678912'
/// >>> s.check().verdict
/// 'unique'
#[pyclass(module = "bitfd", frozen)]
pub(crate) struct Sudoku {
    board: Board,
}

impl Sudoku {
    fn sudoku_model(&self, strength: Strength, box_line: bool) -> SudokuModel {
        let mut sm = self.board.to_model(strength);
        if box_line {
            sm.add_box_line();
        }
        sm
    }
}

/// The search settings of a sudoku call, read.
fn settings(
    strength_name: &str,
    var_order: &str,
    value_order: &str,
    node_limit: Option<u64>,
    time_limit: Option<f64>,
) -> PyResult<(Strength, SearchOptions)> {
    Ok((
        strength(strength_name)?,
        search_options(var_order, value_order, node_limit, time_limit)?,
    ))
}

#[pymethods]
impl Sudoku {
    /// Reads a board from a line; raises `ParseError` for a length that is
    /// no board size or a symbol outside the board's alphabet.
    #[staticmethod]
    fn parse(py: Python<'_>, line: &str) -> PyResult<Sudoku> {
        Board::parse(line)
            .map(|board| Sudoku { board })
            .map_err(|e| {
                let column = match &e {
                    BoardError::Symbol { column, .. } => Some(*column as u64),
                    _ => None,
                };
                parse_error_at(py, e.to_string(), Some(1), column, None)
            })
    }

    /// The side: 9, 16, 25 or 36.
    #[getter]
    fn size(&self) -> usize {
        self.board.size()
    }

    /// The side of a box: 3, 4, 5 or 6.
    #[getter]
    fn box_size(&self) -> usize {
        self.board.box_size()
    }

    /// The number of given cells.
    #[getter]
    fn givens(&self) -> usize {
        self.board.givens()
    }

    /// The cells row by row: the value of a given, `None` for a blank.
    #[getter]
    fn cells(&self) -> Vec<Option<u32>> {
        self.board
            .cells()
            .iter()
            .map(|c| c.map(u32::from))
            .collect()
    }

    /// The board as a `Model`: a variable a cell, all-different and
    /// each-value-held for every row, column and box; with `box_line`, the
    /// box-line intersections too (they prune what no single unit sees).
    #[pyo3(signature = (strength = "domain", *, box_line = false))]
    fn model(&self, strength: &str, box_line: bool) -> PyResult<Model> {
        let sm = self.sudoku_model(crate::model::strength(strength)?, box_line);
        Ok(Model::wrap(sm.model().clone()))
    }

    /// The first solution as a board line, or `None` if there is none (or
    /// a limit stopped the search first).
    #[pyo3(signature = (*, strength = "domain", box_line = false, var_order = "first-fail", value_order = "min", node_limit = None, time_limit = None))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn solve(
        &self,
        py: Python<'_>,
        strength: &str,
        box_line: bool,
        var_order: &str,
        value_order: &str,
        node_limit: Option<u64>,
        time_limit: Option<f64>,
    ) -> PyResult<Option<String>> {
        let (strength, options) =
            settings(strength, var_order, value_order, node_limit, time_limit)?;
        Ok(py.detach(|| {
            let sm = self.sudoku_model(strength, box_line);
            let outcome = bitfd::Solver::new(sm.model()).first(&options);
            outcome.solutions.first().map(|s| sm.line(s))
        }))
    }

    /// Whether the board has exactly one solution, as `check` for a puzzle;
    /// the solutions' variables are the cells (`r1c1`, ...).
    #[pyo3(signature = (*, strength = "domain", box_line = false, var_order = "first-fail", value_order = "min", node_limit = None, time_limit = None))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn check(
        &self,
        py: Python<'_>,
        strength: &str,
        box_line: bool,
        var_order: &str,
        value_order: &str,
        node_limit: Option<u64>,
        time_limit: Option<f64>,
    ) -> PyResult<Check> {
        let (strength, options) =
            settings(strength, var_order, value_order, node_limit, time_limit)?;
        Ok(py.detach(|| {
            let sm = self.sudoku_model(strength, box_line);
            let mut solver = bitfd::Solver::new(sm.model());
            check_model(sm.model(), &mut solver, &options, false)
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "Sudoku(size={}, givens={})",
            self.board.size(),
            self.board.givens()
        )
    }
}
