//! The types a batch hands between threads are `Send` (and the shared,
//! read-only ones `Sync`): `bitfd check` and `solve` run a solver per
//! puzzle on every core. A type that stops being `Send` fails to compile
//! here, naming it.

use bitfd::check::{Rating, Uniqueness};
use bitfd::generate::Generated;
use bitfd::puzzle::{Puzzle, PuzzleModel};
use bitfd::{Engine, Model, Outcome, SearchOptions, Solution, Solver, Stats, Trace, Tree};

const fn assert_send<T: Send>() {}
const fn assert_sync<T: Sync>() {}

// Checked when this file compiles.
const _: () = {
    assert_send::<Solver>();
    assert_send::<Engine>();
    assert_send::<Model>();
    assert_send::<Tree>();
    assert_send::<Trace>();
    assert_send::<Outcome>();
    assert_send::<Solution>();
    assert_send::<Stats>();
    assert_send::<Uniqueness>();
    assert_send::<Rating>();
    assert_send::<Puzzle>();
    assert_send::<PuzzleModel>();
    assert_send::<Generated>();
    // Shared by every worker of a batch.
    assert_sync::<Model>();
    assert_sync::<Puzzle>();
    assert_sync::<SearchOptions>();
};

#[test]
fn solvers_move_to_other_threads() {
    let puzzle = bitfd::puzzle::parse("houses 3\nx: a b c\na = 1\nb = 2\n").expect("parses");
    let pm = puzzle.to_model();
    let mut solver = Solver::new(pm.model());
    let verdict = std::thread::spawn(move || solver.uniqueness(&SearchOptions::default()))
        .join()
        .expect("the thread finishes");
    assert!(verdict.is_unique());
}
