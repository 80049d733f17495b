//! N-queens: place `n` queens on an `n x n` board so that no two attack.
//!
//! One variable a row holds its queen's column. Three all-different
//! constraints with offsets say that no two queens share a column (`x_i`), a
//! diagonal (`x_i + i`) or an anti-diagonal (`x_i - i + (n - 1)`; the
//! `n - 1` keeps every value in `0..=63`).
//!
//! ```text
//! cargo run --release --example queens -- 8
//! ```

use bitfd::{Mode, Model, ModelError, SearchOptions, Solver, Strength, VarId};

/// The model and its row variables.
fn queens(n: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let last = n as i64 - 1;
    let rows = (0..n)
        .map(|i| model.int_var(&format!("row{}", i + 1), 0, last))
        .collect::<Result<Vec<_>, _>>()?;
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| last - i).collect();
    let c = model.all_different(&rows, Strength::Domain)?;
    model.set_label(c, "no two queens share a column");
    let c = model.all_different_offsets(&rows, &up, Strength::Domain)?;
    model.set_label(c, "no two queens share a diagonal");
    let c = model.all_different_offsets(&rows, &down, Strength::Domain)?;
    model.set_label(c, "no two queens share an anti-diagonal");
    Ok((model, rows))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 8,
    };
    if !(1..=32).contains(&n) {
        return Err(format!("n must be in 1..=32, not {n}").into());
    }
    let (model, rows) = queens(n)?;
    let mut solver = Solver::new(&model);

    let first = solver.solve(&SearchOptions::default(), Mode::First);
    match first.solutions.first() {
        Some(solution) => {
            println!("a placement of {n} queens:");
            for &x in &rows {
                let line: Vec<&str> = (0..n)
                    .map(|c| {
                        if usize::from(solution[x]) == c {
                            "Q"
                        } else {
                            "."
                        }
                    })
                    .collect();
                println!("  {}", line.join(" "));
            }
        }
        None => println!("no placement of {n} queens exists"),
    }

    if n <= 12 {
        let count = solver.count(&SearchOptions::default());
        println!(
            "{} placements in all ({} search nodes)",
            count.stats.solutions, count.stats.nodes
        );
    }
    Ok(())
}
