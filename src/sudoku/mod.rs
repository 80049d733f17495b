//! Sudoku boards of 9x9, 16x16, 25x25 and 36x36, one line each, as models.
//!
//! A board is a line of `n * n` symbols, row by row; its length says its
//! size. Each size has its alphabet ([`alphabet`]), and `.` is a blank (on a
//! 9x9 board `0` is a blank too; on 16x16 and 36x36 boards `0` is a digit).
//! Letters may be lower case. Symbol `i` of the alphabet is the value
//! `i + 1`, so a 36x36 board's values `1..=36` fit in a domain.
//!
//! The model has one variable a cell (a given is a variable with one value)
//! and, for every row, column and box, an all-different and an
//! each-value-held (every value `1..=n` is somewhere in the unit), labelled
//! `row 3`, `column 5`, `box 9`. [`SudokuModel::add_box_line`] adds the
//! box-line intersections of every band (`bitfd sudoku` adds them below
//! 25x25);
//! [`SudokuModel::add_views`] the dual viewpoints, where each value goes in
//! each unit, channeled to the cells.

use std::fmt;

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::model::{Model, Strength};
use crate::search::Solution;

mod intersections;
mod views;

use intersections::Band;
use views::Channel;

/// The symbols of a board of side `size`, in value order; `None` for a size
/// that is not 9, 16, 25 or 36.
pub fn alphabet(size: usize) -> Option<&'static str> {
    match size {
        9 => Some("123456789"),
        16 => Some("0123456789ABCDEF"),
        25 => Some("ABCDEFGHIJKLMNOPQRSTUVWXY"),
        36 => Some("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        _ => None,
    }
}

/// What is wrong with a board line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardError {
    /// The line has a number of symbols that is no board size.
    Length {
        /// The number of symbols found.
        found: usize,
    },
    /// A symbol outside the board's alphabet.
    Symbol {
        /// Its position in the line, from 1.
        column: usize,
        /// The symbol.
        found: char,
        /// The board's side.
        size: usize,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Length { found } => write!(
                f,
                "expected 81, 256, 625 or 1296 symbols (a 9x9 to 36x36 board), found {found}"
            ),
            BoardError::Symbol {
                column,
                found,
                size,
            } => {
                let blanks = if *size == 9 { "`.` or `0`" } else { "`.`" };
                write!(
                    f,
                    "column {column}: {found:?} is not a symbol of a {size}x{size} board \
                     (expected one of {} or {blanks})",
                    alphabet(*size).unwrap_or("")
                )
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// A sudoku board: its side and its givens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// 9, 16, 25 or 36.
    size: usize,
    /// Row by row: `Some(v)` with `v` in `1..=size` for a given.
    cells: Vec<Option<u8>>,
}

impl Board {
    /// Reads a board from a line (surrounding whitespace ignored).
    ///
    /// ```
    /// let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    /// let board = bitfd::sudoku::Board::parse(line)?;
    /// assert_eq!(board.size(), 9);
    /// assert_eq!(board.cells()[0], Some(5));
    /// # Ok::<(), bitfd::sudoku::BoardError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`BoardError::Length`] if the line is no board size,
    /// [`BoardError::Symbol`] for a symbol outside the board's alphabet.
    pub fn parse(line: &str) -> Result<Board, BoardError> {
        let line = line.trim();
        let found = line.chars().count();
        let size = match found {
            81 => 9,
            256 => 16,
            625 => 25,
            1296 => 36,
            _ => return Err(BoardError::Length { found }),
        };
        let symbols = alphabet(size).expect("a board size");
        let cells = line
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if c == '.' || (size == 9 && c == '0') {
                    return Ok(None);
                }
                let upper = c.to_ascii_uppercase();
                symbols
                    .chars()
                    .position(|s| s == upper)
                    .map(|v| Some(v as u8 + 1))
                    .ok_or(BoardError::Symbol {
                        column: i + 1,
                        found: c,
                        size,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Board { size, cells })
    }

    /// The side: 9, 16, 25 or 36.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The side of a box: 3, 4, 5 or 6.
    pub fn box_size(&self) -> usize {
        self.size.isqrt()
    }

    /// The cells, row by row: `Some(v)`, `v` in `1..=size`, for a given.
    pub fn cells(&self) -> &[Option<u8>] {
        &self.cells
    }

    /// The number of givens.
    pub fn givens(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    /// The board's model, with all-different of the given strength.
    pub fn to_model(&self, strength: Strength) -> SudokuModel {
        let n = self.size;
        let b = self.box_size();
        let mut model = Model::with_capacity(n * n, 6 * n);
        let cells: Vec<VarId> = self
            .cells
            .iter()
            .enumerate()
            .map(|(i, given)| {
                let (lo, hi) = given.map_or((1, n as i64), |v| (i64::from(v), i64::from(v)));
                model
                    .int_var(&format!("r{}c{}", i / n + 1, i % n + 1), lo, hi)
                    .expect("distinct names, values 1..=36")
            })
            .collect();
        let every = Domain::range(1, n as u8);
        let mut post_unit = |name: String, unit: Vec<VarId>| {
            let c = model
                .all_different(&unit, strength)
                .expect("a unit has 36 cells or fewer");
            model.set_label(c, name.clone());
            let c: ConstraintId = model
                .each_value_held(&unit, every)
                .expect("a unit has as many cells as values");
            model.set_label(c, format!("{name}: every value"));
        };
        for r in 0..n {
            post_unit(
                format!("row {}", r + 1),
                (0..n).map(|c| cells[r * n + c]).collect(),
            );
        }
        for c in 0..n {
            post_unit(
                format!("column {}", c + 1),
                (0..n).map(|r| cells[r * n + c]).collect(),
            );
        }
        for k in 0..n {
            let (top, left) = (k / b * b, k % b * b);
            let unit = (0..n)
                .map(|i| cells[(top + i / b) * n + left + i % b])
                .collect();
            post_unit(format!("box {}", k + 1), unit);
        }
        SudokuModel { model, cells }
    }
}

/// A board's model and the variable of each cell.
#[derive(Clone, Debug)]
pub struct SudokuModel {
    model: Model,
    /// Row by row.
    cells: Vec<VarId>,
}

impl SudokuModel {
    /// The model, for [`Solver::new`](crate::Solver::new).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The cells' variables, row by row.
    pub fn cells(&self) -> &[VarId] {
        &self.cells
    }

    /// Adds, for every band of `b` rows and every band of `b` columns (`b`
    /// the box side), a redundant propagator of its box-line intersections:
    /// the values a line takes outside a box are those the box takes
    /// outside the line (see the module `intersections`). It changes no
    /// solution and prunes what no single unit sees. A band is a custom
    /// propagator in the most costly class, which then runs lowest first
    /// instead of by rounds: on 25x25 and 36x36 boards, searched by
    /// dom/wdeg with restarts, that costs more than the bands prune, and
    /// `bitfd sudoku` leaves them out there. Labelled `rows 1-3: box-line`,
    /// `columns 4-6: box-line`.
    ///
    /// ```
    /// use bitfd::{SearchOptions, Solver, Strength};
    /// use bitfd::sudoku::Board;
    ///
    /// let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    /// let mut sm = Board::parse(line)?.to_model(Strength::Domain);
    /// sm.add_box_line();
    /// let outcome = Solver::new(sm.model()).first(&SearchOptions::default());
    /// assert!(sm.line(&outcome.solutions[0]).starts_with("534678912"));
    /// # Ok::<(), bitfd::sudoku::BoardError>(())
    /// ```
    pub fn add_box_line(&mut self) {
        let n = self.cells.len().isqrt();
        let b = n.isqrt();
        for (lines, by_row) in [("rows", true), ("columns", false)] {
            for band in 0..b {
                // Line by line, each along its boxes: a row band's lines are
                // rows, a column band's columns.
                let cells = (0..b)
                    .flat_map(|l| (0..n).map(move |along| (band * b + l, along)))
                    .map(|(line, along)| {
                        let (r, c) = if by_row { (line, along) } else { (along, line) };
                        self.cells[r * n + c]
                    })
                    .collect();
                let c = self
                    .model
                    .post_propagator(Band::new(cells, b))
                    .expect("the board's own cells, no state");
                let first = band * b + 1;
                self.model
                    .set_label(c, format!("{lines} {first}-{}: box-line", first + b - 1));
            }
        }
    }

    /// Adds the dual viewpoints (see the module `views`): for every value
    /// `v` and every row, column and box, a variable for the position of
    /// `v` in that unit (`0..n`: along the row, down the column, row by
    /// row in the box), channeled to the unit's cells; and for every value
    /// an all-different of the given strength over its positions in the
    /// rows (they are distinct columns). It changes no solution's cells
    /// (the positions follow from them); the all-differents prune fish
    /// patterns (X-wing, swordfish) that no unit sees, and the search may
    /// branch on "where does 5 go in row 3" as on a cell. The variables
    /// are named `r3=5` (the column of 5 in row 3), `c3=5` and `b3=5`;
    /// labels `row 3: channel`, `5 by row: all-different`.
    ///
    /// ```
    /// use bitfd::{SearchOptions, Solver, Strength};
    /// use bitfd::sudoku::Board;
    ///
    /// let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    /// let mut sm = Board::parse(line)?.to_model(Strength::Domain);
    /// sm.add_views(Strength::Domain);
    /// let outcome = Solver::new(sm.model()).first(&SearchOptions::default());
    /// assert!(sm.line(&outcome.solutions[0]).starts_with("534678912"));
    /// # Ok::<(), bitfd::sudoku::BoardError>(())
    /// ```
    pub fn add_views(&mut self, strength: Strength) {
        let n = self.cells.len().isqrt();
        let b = n.isqrt();
        let units = [("row", 'r'), ("column", 'c'), ("box", 'b')];
        for (kind, (unit_name, letter)) in units.into_iter().enumerate() {
            // duals[u * n + v - 1]: the position of value v in unit u.
            let mut duals = Vec::with_capacity(n * n);
            for u in 0..n {
                let cells: Vec<VarId> = (0..n)
                    .map(|i| {
                        let (r, c) = match kind {
                            0 => (u, i),
                            1 => (i, u),
                            _ => (u / b * b + i / b, u % b * b + i % b),
                        };
                        self.cells[r * n + c]
                    })
                    .collect();
                let ys: Vec<VarId> = (1..=n)
                    .map(|v| {
                        self.model
                            .int_var(&format!("{letter}{}={v}", u + 1), 0, n as i64 - 1)
                            .expect("distinct names, positions 0..36")
                    })
                    .collect();
                let c = self
                    .model
                    .post_propagator(Channel::new(cells, ys.clone()))
                    .expect("the board's own variables, no state");
                self.model
                    .set_label(c, format!("{unit_name} {}: channel", u + 1));
                duals.extend(ys);
            }
            // A value's positions in the rows are distinct columns: the
            // value's rows matched to columns. Its positions in the columns
            // are distinct rows too, but an all-different there is the same
            // matching seen from the other side, which domain strength
            // already makes consistent: it would prune nothing more. In the
            // boxes the positions may repeat.
            if kind != 0 {
                continue;
            }
            for v in 1..=n {
                let group: Vec<VarId> = (0..n).map(|u| duals[u * n + v - 1]).collect();
                let c = self
                    .model
                    .all_different(&group, strength)
                    .expect("36 variables or fewer");
                self.model
                    .set_label(c, format!("{v} by {unit_name}: all-different"));
            }
        }
    }

    /// A solution as a board line in the board's alphabet.
    ///
    /// ```
    /// use bitfd::{SearchOptions, Solver, Strength};
    /// use bitfd::sudoku::Board;
    ///
    /// let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    /// let sm = Board::parse(line)?.to_model(Strength::Domain);
    /// let outcome = Solver::new(sm.model()).first(&SearchOptions::default());
    /// let solved = sm.line(&outcome.solutions[0]);
    /// assert!(solved.starts_with("534678912"));
    /// # Ok::<(), bitfd::sudoku::BoardError>(())
    /// ```
    pub fn line(&self, solution: &Solution) -> String {
        let size = self.cells.len().isqrt();
        let symbols: Vec<char> = alphabet(size).unwrap_or("").chars().collect();
        self.cells
            .iter()
            .map(|&x| {
                let v = usize::from(solution[x]);
                symbols.get(v.wrapping_sub(1)).copied().unwrap_or('?')
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_size_comes_from_the_line_length() {
        let err = Board::parse(&".".repeat(80)).expect_err("80 cells");
        assert_eq!(err, BoardError::Length { found: 80 });
        for n in [9, 16, 25, 36] {
            let board = Board::parse(&".".repeat(n * n)).expect("blank board");
            assert_eq!((board.size(), board.givens()), (n, 0));
        }
    }

    #[test]
    fn zero_is_blank_on_9x9_and_a_digit_on_16x16() {
        let nine = format!("0{}", ".".repeat(80));
        assert_eq!(Board::parse(&nine).expect("9x9").cells()[0], None);
        let sixteen = format!("0f{}", ".".repeat(254));
        let board = Board::parse(&sixteen).expect("16x16");
        assert_eq!(&board.cells()[..2], &[Some(1), Some(16)]);
    }

    #[test]
    fn a_foreign_symbol_names_its_column() {
        let line = format!("12x{}", ".".repeat(78));
        assert_eq!(
            Board::parse(&line).expect_err("x"),
            BoardError::Symbol {
                column: 3,
                found: 'x',
                size: 9
            }
        );
    }
}
