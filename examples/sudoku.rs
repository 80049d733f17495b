//! Sudoku: 81 cells with values 1..=9, all different and each value held in
//! every row, column and box, the givens fixed with `equal_value`.
//!
//! The model is `sudoku_model` from `tests/common` (shared with the tests and
//! the benches). Pass a puzzle as one line, row by row, `.` for a blank;
//! boxes of 4, 5 or 6 (16x16, 25x25, 36x36) follow from the length. With no
//! argument it solves Arto Inkala's 2012 "world's hardest sudoku".
//!
//! ```text
//! cargo run --release --example sudoku
//! cargo run --release --example sudoku -- 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use bitfd::{Mode, SearchOptions, Solver};

/// Arto Inkala's 2012 puzzle, as in `sudoku/michael404_multisize.json`.
const INKALA_2012: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// The board of a puzzle string in rows, with box borders.
fn grid(box_size: usize, board: &str) -> String {
    let side = box_size * box_size;
    let cells: Vec<char> = board.chars().collect();
    let mut out = String::new();
    for r in 0..side {
        if r > 0 && r % box_size == 0 {
            let rule = vec!["-".repeat(2 * box_size - 1); box_size].join("-+-");
            out.push_str(&rule);
            out.push('\n');
        }
        let row: Vec<String> = (0..box_size)
            .map(|b| {
                let start = r * side + b * box_size;
                let block: Vec<String> = cells[start..start + box_size]
                    .iter()
                    .map(char::to_string)
                    .collect();
                block.join(" ")
            })
            .collect();
        out.push_str(&row.join(" | "));
        out.push('\n');
    }
    out
}

fn main() -> Result<(), String> {
    let puzzle = std::env::args()
        .nth(1)
        .unwrap_or_else(|| INKALA_2012.to_owned());
    let box_size = match puzzle.chars().count() {
        81 => 3,
        256 => 4,
        625 => 5,
        1296 => 6,
        n => return Err(format!("{n} cells: expected 81, 256, 625 or 1296")),
    };
    let alphabet = common::sudoku_alphabet(box_size);
    if let Some(bad) = puzzle.chars().find(|&c| c != '.' && !alphabet.contains(c)) {
        return Err(format!("{bad:?} is not one of `.{alphabet}`"));
    }
    let sudoku = common::sudoku_model(box_size, &puzzle);
    println!("{}", grid(box_size, &puzzle));

    // Two solutions at most: the first is the answer, a second would show
    // the puzzle is not a proper sudoku.
    let outcome = Solver::new(&sudoku.model).solve(&SearchOptions::default(), Mode::AtMost(2));
    match outcome.solutions.as_slice() {
        [] => println!("no solution"),
        [only] => println!(
            "{}the only solution",
            grid(box_size, &sudoku.render(only.values()))
        ),
        [first, ..] => println!(
            "{}one of several solutions",
            grid(box_size, &sudoku.render(first.values()))
        ),
    }
    let stats = outcome.stats;
    println!(
        "{} nodes ({} choices, {} failures), {} propagations",
        stats.nodes, stats.choices, stats.failures, stats.propagations
    );
    Ok(())
}
