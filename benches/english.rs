//! English benchmarks: reading a 6x6 English puzzle and checking that it is
//! unique (what a grader pays per puzzle), reading it alone, and generating and minimizing a
//! 6x6 puzzle with its English JSON line (what a benchmark builder pays per
//! puzzle).
//!
//! The inputs are generated puzzles (seeded), so the bench needs no data
//! files; the text is written outside the timed closures and checked to be
//! unique once before timing.

use std::hint::black_box;

use bitfd::generate::{GenerateOptions, english_line, generate};
use bitfd::puzzle::english::{self, Style};
use bitfd::{SearchOptions, Solver};
use criterion::{Criterion, criterion_group, criterion_main};

fn read_and_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("english");
    for (name, style) in [
        ("read+check/6x6-zebralogic", Style::ZebraLogic),
        ("read+check/6x6-classic", Style::Classic),
    ] {
        let g = generate(&GenerateOptions {
            houses: 6,
            groups: 6,
            seed: 1,
        })
        .expect("a size in range");
        let text = english::write(&g.puzzle, style).expect("generated clues have sentences");
        let p = english::parse(&text).expect("the text reads");
        let pm = p.to_model();
        assert!(
            Solver::new(pm.model())
                .uniqueness(&SearchOptions::default())
                .is_unique()
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                let p = english::parse(black_box(&text)).expect("reads");
                let pm = p.to_model();
                black_box(Solver::new(pm.model()).uniqueness(&SearchOptions::default()))
            })
        });
        // The reading alone, so that the reader's share of the above shows.
        let read = name.replace("read+check", "read");
        group.bench_function(read, |b| {
            b.iter(|| black_box(english::parse(black_box(&text)).expect("reads")))
        });
    }
    // What a benchmark builder pays per puzzle: draw, check unique,
    // minimize, rate, write in English and as the JSON line of
    // `bitfd generate --english`.
    let mut seed = 0;
    group.bench_function("generate+minimize+json-line/6x6-zebralogic", |b| {
        b.iter(|| {
            seed += 1;
            let options = GenerateOptions {
                houses: 6,
                groups: 6,
                seed,
            };
            let g = generate(&options).expect("a size in range");
            black_box(english_line(&g, &options, Style::ZebraLogic))
        })
    });
    group.finish();
}

criterion_group!(benches, read_and_check);
criterion_main!(benches);
