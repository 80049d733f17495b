//! Solve benchmarks: one group per family (zebra, queens, sudoku).
//!
//! Parsing happens outside the timed closures; the expected solution count
//! is asserted once before timing. Zebra benches time model building and
//! search together, as a puzzle generator pays both.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use bitfd::{Domain, Mode, Model, SearchOptions, Solver, Strength, VarId};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::Value;

/// The classic zebra puzzle (Life 1962), written out by hand.
fn classic_zebra() -> Model {
    let mut m = Model::with_capacity(25, 30);
    let groups = [
        [
            "Englishman",
            "Spaniard",
            "Ukrainian",
            "Norwegian",
            "Japanese",
        ],
        ["red", "green", "ivory", "yellow", "blue"],
        ["dog", "snails", "fox", "horse", "zebra"],
        ["coffee", "tea", "milk", "orange juice", "water"],
        [
            "Old Gold",
            "Kools",
            "Chesterfields",
            "Lucky Strike",
            "Parliaments",
        ],
    ];
    let mut vars = [[None::<VarId>; 5]; 5];
    for (g, names) in groups.iter().enumerate() {
        for (i, name) in names.iter().enumerate() {
            vars[g][i] = Some(m.int_var(name, 1, 5).expect("fresh"));
        }
    }
    let v = |g: usize, i: usize| vars[g][i].expect("declared");
    for g in 0..5 {
        let group: Vec<VarId> = (0..5).map(|i| v(g, i)).collect();
        m.all_different(&group, Strength::Domain).expect("valid");
        m.each_value_held(&group, Domain::range(1, 5))
            .expect("valid");
    }
    m.equal(v(0, 0), v(1, 0)).expect("valid");
    m.equal(v(0, 1), v(2, 0)).expect("valid");
    m.equal(v(3, 0), v(1, 1)).expect("valid");
    m.equal(v(0, 2), v(3, 1)).expect("valid");
    m.offset(v(1, 1), v(1, 2), 1).expect("valid");
    m.equal(v(4, 0), v(2, 1)).expect("valid");
    m.equal(v(4, 1), v(1, 3)).expect("valid");
    m.equal_value(v(3, 2), 3).expect("valid");
    m.equal_value(v(0, 3), 1).expect("valid");
    m.distance(v(4, 2), v(2, 2), 1).expect("valid");
    m.distance(v(4, 1), v(2, 3), 1).expect("valid");
    m.equal(v(4, 3), v(3, 3)).expect("valid");
    m.equal(v(0, 4), v(4, 4)).expect("valid");
    m.distance(v(0, 3), v(1, 4), 1).expect("valid");
    m
}

fn queens(n: usize) -> Model {
    let mut m = Model::with_capacity(n, 3);
    let vars: Vec<VarId> = (0..n)
        .map(|i| m.int_var(&format!("q{i}"), 0, n as i64 - 1).expect("fresh"))
        .collect();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| n as i64 - 1 - i).collect();
    m.all_different(&vars, Strength::Value).expect("valid");
    m.all_different_offsets(&vars, &up, Strength::Value)
        .expect("valid");
    m.all_different_offsets(&vars, &down, Strength::Value)
        .expect("valid");
    m
}

fn sudoku(givens: &str) -> Model {
    let mut m = Model::with_capacity(81, 108);
    let cells: Vec<VarId> = (0..81)
        .map(|i| {
            m.int_var(&format!("r{}c{}", i / 9 + 1, i % 9 + 1), 1, 9)
                .expect("fresh")
        })
        .collect();
    let mut units: Vec<Vec<VarId>> = Vec::new();
    for r in 0..9 {
        units.push((0..9).map(|c| cells[r * 9 + c]).collect());
    }
    for c in 0..9 {
        units.push((0..9).map(|r| cells[r * 9 + c]).collect());
    }
    for b in 0..9 {
        let (r0, c0) = (b / 3 * 3, b % 3 * 3);
        units.push(
            (0..9)
                .map(|k| cells[(r0 + k / 3) * 9 + c0 + k % 3])
                .collect(),
        );
    }
    for unit in &units {
        m.all_different(unit, Strength::Domain).expect("valid");
        m.each_value_held(unit, Domain::range(1, 9)).expect("valid");
    }
    for (i, ch) in givens.chars().enumerate() {
        if let Some(d) = ch.to_digit(10).filter(|&d| d > 0) {
            m.equal_value(cells[i], i64::from(d)).expect("valid");
        }
    }
    m
}

fn count(model: &Model) -> u64 {
    Solver::new(model)
        .count(&SearchOptions::default())
        .stats
        .solutions
}

fn zebra(c: &mut Criterion) {
    let mut group = c.benchmark_group("zebra");
    assert_eq!(count(&classic_zebra()), 1);
    group.bench_function("classic/build+all", |b| {
        b.iter(|| {
            let m = classic_zebra();
            black_box(
                Solver::new(&m)
                    .solve(&SearchOptions::default(), Mode::Count)
                    .stats,
            )
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
        let m = queens(n);
        assert_eq!(count(&m), terms[n].as_u64().expect("term"));
        group.bench_with_input(BenchmarkId::new("count", n), &m, |b, m| {
            b.iter(|| black_box(count(m)))
        });
    }
    group.finish();
}

fn sudoku_sets(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku");
    let top95 = common::load_json("sudoku/norvig_top95.json");
    let puzzles: Vec<Model> = top95["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .map(|p| sudoku(p["puzzle"].as_str().expect("puzzle")))
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
    group.finish();
}

criterion_group!(benches, zebra, queens_counts, sudoku_sets);
criterion_main!(benches);
