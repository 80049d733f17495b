//! Solve benchmarks: one group per family (zebra, queens, sudoku).
//!
//! Parsing happens outside the timed closures; the expected solution count
//! is asserted once before timing. Zebra benches time model building and
//! search together, as a puzzle generator pays both.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::num::NonZeroUsize;

use bitfd::{Mode, Model, SearchOptions, Solver, Strength};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::Value;

fn count(model: &Model) -> u64 {
    Solver::new(model)
        .count(&SearchOptions::default())
        .stats
        .solutions
}

fn zebra(c: &mut Criterion) {
    let mut group = c.benchmark_group("zebra");
    for (name, rows) in [
        ("classic/build+all", common::FULL),
        ("classic-value/build+all", common::VALUE),
    ] {
        assert_eq!(count(&common::classic_zebra(rows)), 1);
        group.bench_function(name, |b| {
            b.iter(|| {
                let m = common::classic_zebra(rows);
                black_box(
                    Solver::new(&m)
                        .solve(&SearchOptions::default(), Mode::Count)
                        .stats,
                )
            })
        });
    }
    // A generator's loop: each model built into the storage of the last,
    // and solved by a solver that keeps its own.
    let mut model = common::classic_zebra(common::FULL);
    let mut solver = Solver::new(&model);
    model.clear();
    common::post_classic_zebra(&mut model, common::FULL);
    solver.load(&model);
    assert_eq!(solver.count(&SearchOptions::default()).stats.solutions, 1);
    group.bench_function("classic/rebuild+all-in-reused-storage", |b| {
        b.iter(|| {
            model.clear();
            common::post_classic_zebra(&mut model, common::FULL);
            solver.load(&model);
            black_box(solver.solve(&SearchOptions::default(), Mode::Count).stats)
        })
    });
    let oz: Value = common::load_json("zebra/mozart_oz.json")["puzzles"][0].clone();
    let settings = common::ZebraSettings {
        strength: Strength::Value,
        each_value_held: false,
        alphabetical: true,
    };
    let oz_model = common::zebra_model(&oz, settings).model;
    assert_eq!(count(&oz_model), 1);
    group.bench_function("oz-semantics/search", |b| {
        b.iter(|| {
            black_box(
                Solver::new(&oz_model)
                    .count(&SearchOptions::default())
                    .stats,
            )
        })
    });
    let oz_full = common::zebra_model(&oz, common::ZebraSettings::default()).model;
    group.bench_function("oz-full-strength/search", |b| {
        b.iter(|| black_box(Solver::new(&oz_full).count(&SearchOptions::default()).stats))
    });
    group.finish();
}

fn queens_counts(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens");
    group.sample_size(10);
    let known = common::load_json("known_counts.json");
    let terms = known["sequences"]["A000170"]["terms"]
        .as_array()
        .expect("terms")
        .clone();
    for n in [8usize, 10, 12] {
        let (m, _) = common::queens_model(n, Strength::Value);
        assert_eq!(count(&m), terms[n].as_u64().expect("term"));
        group.bench_with_input(BenchmarkId::new("count", n), &m, |b, m| {
            b.iter(|| black_box(count(m)))
        });
    }
    // The same counts split over both cores of this machine.
    let two = NonZeroUsize::new(2).expect("not zero");
    let options = SearchOptions::default();
    for n in [10usize, 12] {
        let (m, _) = common::queens_model(n, Strength::Value);
        let parallel = Solver::new(&m).count_parallel(&options, two).stats;
        assert_eq!(parallel.solutions, terms[n].as_u64().expect("term"));
        group.bench_with_input(BenchmarkId::new("count-2-threads", n), &m, |b, m| {
            b.iter(|| black_box(Solver::new(m).count_parallel(&options, two).stats))
        });
    }
    group.finish();
}

/// Engine build and search to exhaustion (every solution counted) of
/// sudoku boards at both strengths, each unit with each-value-held (the
/// model `tests/common`'s `sudoku_model` builds); the model is built once,
/// outside the timing. The id names each tree's nodes, so that a median
/// divided by them is the cost of a node.
fn sudoku_strengths(group: &mut BenchmarkGroup<'_, WallTime>) {
    let boards = [
        // The 17-clue board known as hard for brute force ("wiki17", from
        // Wikipedia's page on sudoku solving algorithms), which domain
        // all-different solves at the root.
        (
            "wiki17",
            common::multisize_board("m404-9-hardToBruteForce", 0),
        ),
        ("16x16-hard1", common::multisize_board("m404-16-hard1", 0)),
        // As they are, the 25x25 and 36x36 boards take minutes: these have
        // a blank in 16 (in 20) filled from the stated solution.
        (
            "25x25-puzzel1-every-16th-revealed",
            common::multisize_board("m404-25-puzzel1", 16),
        ),
        (
            "36x36-puzzel1-every-20th-revealed",
            common::multisize_board("m404-36-puzzel1", 20),
        ),
    ];
    for (name, (size, line)) in boards {
        for (strength, label) in [(Strength::Domain, "domain"), (Strength::Value, "value")] {
            let settings = common::SudokuSettings {
                strength,
                each_value_held: true,
            };
            let model = common::sudoku_model_with(size, &line, settings).model;
            let stats = Solver::new(&model).count(&SearchOptions::default()).stats;
            assert_eq!(stats.solutions, 1, "{name}");
            let id = format!("{label}-{}-nodes", stats.nodes);
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/build+all"), id),
                &model,
                |b, m| b.iter(|| black_box(count(m))),
            );
        }
    }
}

fn sudoku_sets(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku");
    let top95 = common::load_json("sudoku/norvig_top95.json");
    let puzzles: Vec<Model> = top95["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .map(|p| common::sudoku_model(3, p["puzzle"].as_str().expect("puzzle")).model)
        .collect();
    for m in &puzzles {
        assert_eq!(count(m), 1);
    }
    group.sample_size(10);
    group.bench_function("top95/all-95-unique-check", |b| {
        b.iter(|| {
            for m in &puzzles {
                black_box(
                    Solver::new(m)
                        .solve(&SearchOptions::default(), Mode::AtMost(2))
                        .stats,
                );
            }
        })
    });
    // Per puzzle: the easiest, the median and the hardest of the 95 by the
    // size of their search trees (a deterministic stand-in for ranking them
    // by time, which would depend on the machine).
    let mut by_nodes: Vec<(u64, usize)> = puzzles
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let stats = Solver::new(m)
                .solve(&SearchOptions::default(), Mode::AtMost(2))
                .stats;
            (stats.nodes, i)
        })
        .collect();
    by_nodes.sort_unstable();
    let picks = [
        ("easiest", by_nodes[0]),
        ("median", by_nodes[by_nodes.len() / 2]),
        ("hardest", by_nodes[by_nodes.len() - 1]),
    ];
    for (name, (nodes, i)) in picks {
        let id = format!("{name}-{nodes}-nodes");
        group.bench_with_input(
            BenchmarkId::new("top95/unique-check", id),
            &puzzles[i],
            |b, m| {
                b.iter(|| {
                    black_box(
                        Solver::new(m)
                            .solve(&SearchOptions::default(), Mode::AtMost(2))
                            .stats,
                    )
                })
            },
        );
    }
    // The median and the hardest again, with value all-different (and
    // each-value-held, as above): the cost of a node at either strength.
    let value = common::SudokuSettings {
        strength: Strength::Value,
        each_value_held: true,
    };
    for (name, (_, i)) in &picks[1..] {
        let line = top95["puzzles"][*i]["puzzle"].as_str().expect("puzzle");
        let model = common::sudoku_model_with(3, line, value).model;
        let stats = Solver::new(&model)
            .solve(&SearchOptions::default(), Mode::AtMost(2))
            .stats;
        assert_eq!(stats.solutions, 1);
        let id = format!("{name}-{}-nodes", stats.nodes);
        group.bench_with_input(
            BenchmarkId::new("top95-value/unique-check", id),
            &model,
            |b, m| {
                b.iter(|| {
                    black_box(
                        Solver::new(m)
                            .solve(&SearchOptions::default(), Mode::AtMost(2))
                            .stats,
                    )
                })
            },
        );
    }
    sudoku_strengths(&mut group);
    group.finish();
}

criterion_group!(benches, zebra, queens_counts, sudoku_sets);
criterion_main!(benches);
