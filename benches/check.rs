//! Generator workloads: uniqueness checks, a check with a clue switched off
//! against a solve of the smaller model, generation with minimization, and
//! a batch of checks on every core (scoped threads, and rayon with ordered
//! results as `bitfd check` runs them).
//!
//! Inputs are generated puzzles (fixed seeds), built outside the timed
//! closures; each is asserted unique once before timing.

use std::hint::black_box;

use bitfd::generate::{GenerateOptions, generate};
use bitfd::puzzle::{Origin, Puzzle};
use bitfd::{ConstraintId, SearchOptions, Solver, Strength};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;

fn puzzles(houses: u8, groups: usize, count: u64) -> Vec<Puzzle> {
    (0..count)
        .map(|seed| {
            generate(&GenerateOptions {
                houses,
                groups,
                seed,
            })
            .expect("valid size")
            .puzzle
        })
        .collect()
}

fn clue_ids(p: &bitfd::puzzle::PuzzleModel) -> Vec<ConstraintId> {
    p.model()
        .constraint_ids()
        .filter(|&id| matches!(p.origin(id), Origin::Clue(_)))
        .collect()
}

fn uniqueness(c: &mut Criterion) {
    let options = SearchOptions::default();
    let mut group = c.benchmark_group("uniqueness");
    for (houses, groups) in [(5u8, 5usize), (6, 6)] {
        let set = puzzles(houses, groups, 20);
        for strength in [Strength::Domain, Strength::Value] {
            let mut solvers: Vec<Solver> = set
                .iter()
                .map(|p| Solver::new(p.to_model_with(strength).model()))
                .collect();
            for s in &mut solvers {
                assert!(s.uniqueness(&options).is_unique());
            }
            group.throughput(Throughput::Elements(solvers.len() as u64));
            let id = format!("{houses}x{groups}/{strength}");
            group.bench_function(BenchmarkId::new("check", id), |b| {
                b.iter(|| {
                    for s in &mut solvers {
                        black_box(s.uniqueness(&options).is_unique());
                    }
                })
            });
        }
    }
    group.finish();
}

/// A generator's inner step: drop one clue and check. Switching it off in
/// the built solver should cost no more than solving the smaller puzzle,
/// which must be parsed... here, built, from scratch.
fn clue_removed(c: &mut Criterion) {
    let options = SearchOptions::default();
    let puzzle = &puzzles(5, 5, 1)[0];
    let pm = puzzle.to_model();
    let ids = clue_ids(&pm);
    let dropped = ids[0];
    let mut smaller = puzzle.clone();
    smaller.remove_clue(0);
    let mut group = c.benchmark_group("clue-removed");
    let mut solver = Solver::new(pm.model());
    group.bench_function("switch-off-in-reused-solver", |b| {
        b.iter(|| {
            solver.engine_mut().set_enabled(dropped, false);
            let verdict = solver.uniqueness(&options).is_unique();
            solver.engine_mut().set_enabled(dropped, true);
            black_box(verdict)
        })
    });
    group.bench_function("build-and-solve-smaller-model", |b| {
        b.iter(|| {
            let pm = smaller.to_model();
            black_box(Solver::new(pm.model()).uniqueness(&options).is_unique())
        })
    });
    let small_pm = smaller.to_model();
    let mut small_solver = Solver::new(small_pm.model());
    group.bench_function("solve-smaller-model-prebuilt", |b| {
        b.iter(|| black_box(small_solver.uniqueness(&options).is_unique()))
    });
    group.finish();
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate+minimize");
    group.sample_size(10);
    for (houses, groups) in [(6u8, 6usize), (8, 8)] {
        let mut seed = 0;
        group.bench_function(
            BenchmarkId::from_parameter(format!("{houses}x{groups}")),
            |b| {
                b.iter(|| {
                    seed += 1;
                    black_box(
                        generate(&GenerateOptions {
                            houses,
                            groups,
                            seed,
                        })
                        .expect("valid"),
                    )
                })
            },
        );
    }
    group.finish();
}

fn batch(c: &mut Criterion) {
    let options = SearchOptions::default();
    let set = puzzles(5, 5, 64);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group("batch");
    group.throughput(Throughput::Elements(set.len() as u64));
    group.bench_function(format!("parse-build-check-5x5-on-{threads}-threads"), |b| {
        let texts: Vec<String> = set.iter().map(|p| p.to_string()).collect();
        b.iter(|| {
            std::thread::scope(|scope| {
                for chunk in texts.chunks(texts.len().div_ceil(threads)) {
                    scope.spawn(move || {
                        for text in chunk {
                            let puzzle = bitfd::puzzle::parse(text).expect("generated text parses");
                            let pm = puzzle.to_model();
                            black_box(Solver::new(pm.model()).uniqueness(&options).is_unique());
                        }
                    });
                }
            })
        })
    });
    // What `bitfd check` does with each input, on rayon as the CLI runs it:
    // results collected in input order, one thread and every core.
    for threads in [1, threads] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let texts: Vec<String> = set.iter().map(|p| p.to_string()).collect();
        group.bench_function(
            format!("parse-build-check-5x5-rayon-ordered-on-{threads}-threads"),
            |b| {
                b.iter(|| {
                    let verdicts: Vec<bool> = pool.install(|| {
                        texts
                            .par_iter()
                            .map(|text| {
                                let puzzle =
                                    bitfd::puzzle::parse(text).expect("generated text parses");
                                let pm = puzzle.to_model();
                                Solver::new(pm.model()).uniqueness(&options).is_unique()
                            })
                            .collect()
                    });
                    black_box(verdicts)
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, uniqueness, clue_removed, generation, batch);
criterion_main!(benches);
