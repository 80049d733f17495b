//! What recording costs: the classic zebra (all solutions) solved with the
//! no-op `()` observer, with a [`Tree`], with a [`Trace`], and with both.
//!
//! `()` should time the same as plain `solve` (recording off costs
//! nothing); the others show what recording on costs. The tree and the trace
//! are made once, outside the timed loop, and start over at each search, so
//! the loop times the recording itself.
//!
//! Wall time on the shared machines drifts 1.3-1.5x between runs, more than
//! the difference measured here; compare instruction counts with
//! `valgrind --tool=callgrind` on a loop of solves instead (DESIGN.md).

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use bitfd::{Mode, SearchOptions, Solver, Trace, Tree};
use common::{ZebraSettings, load_json, zebra_model};
use criterion::{Criterion, criterion_group, criterion_main};

fn observe(c: &mut Criterion) {
    let puzzle = load_json("zebra/exercism.json")["puzzles"][0].clone();
    let model = zebra_model(&puzzle, ZebraSettings::default()).model;
    let options = SearchOptions::default();
    let mut solver = Solver::new(&model);
    assert_eq!(solver.solve(&options, Mode::All).solutions.len(), 1);

    let mut group = c.benchmark_group("observe/zebra");
    group.bench_function("solve", |b| {
        b.iter(|| black_box(solver.solve(black_box(&options), Mode::All)));
    });
    group.bench_function("unit", |b| {
        b.iter(|| black_box(solver.solve_observed(black_box(&options), Mode::All, &mut ())));
    });
    let mut tree = Tree::new(&model, &options);
    group.bench_function("tree", |b| {
        b.iter(|| black_box(solver.solve_observed(black_box(&options), Mode::All, &mut tree)));
    });
    group.bench_function("tree+new", |b| {
        b.iter(|| {
            let mut tree = Tree::new(&model, &options);
            black_box(solver.solve_observed(black_box(&options), Mode::All, &mut tree));
            tree
        });
    });
    let mut trace = Trace::new(&model);
    group.bench_function("trace", |b| {
        b.iter(|| black_box(solver.solve_observed(black_box(&options), Mode::All, &mut trace)));
    });
    group.finish();
}

criterion_group!(benches, observe);
criterion_main!(benches);
