//! Instruction-count workloads, run under callgrind by `scripts/icount`.
//!
//! Wall time on a shared machine drifts too much to guard the speed of a
//! change; instruction counts do not. Each workload prepares its inputs
//! (parsing, generating), checks its answer against an independent figure
//! once, then runs its measured step a given number of times. The script
//! runs every workload twice under callgrind, with a short and a long loop,
//! and divides the difference by the difference in runs: what remains is
//! the count of one run, without the set-up.
//!
//! ```text
//! icount --list             one line a workload: name, short loop, long loop
//! icount WORKLOAD RUNS      prepare WORKLOAD, then run it RUNS times
//! icount --stats            each workload's search statistics (no loop)
//! icount --rank             Norvig's top95 by tree size at both strengths
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::process::ExitCode;

use bitfd::generate::{GenerateOptions, generate};
use bitfd::puzzle::english::{self, Style};
use bitfd::{Mode, Model, SearchOptions, Solver, Stats, Strength};

/// A measured step, prepared: each call runs it once.
type Step = Box<dyn FnMut() -> Stats>;

/// One workload: its name, the two loop lengths the script runs, and how
/// to prepare it.
struct Workload {
    name: &'static str,
    /// Runs in the short and the long loop; their difference divides the
    /// difference in counts.
    loops: (u32, u32),
    prepare: fn() -> Step,
}

/// The seeds of the generated 5x5 puzzles of the uniqueness workloads.
const PUZZLES: u64 = 20;

/// The hard 9x9 sudoku: the hardest of Norvig's top95 by tree size with
/// domain all-different, and among the hardest with value all-different
/// (`icount --rank` ranks them).
const HARD_SUDOKU: &str = "top95-0025";

/// The 17-clue sudoku that propagation at domain strength solves at the
/// root (`m404-9-hardToBruteForce`, also known as the Wikipedia 17-clue).
const WIKI17: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "zebra-classic",
        loops: (50, 150),
        prepare: || zebra_step(common::FULL),
    },
    Workload {
        name: "zebra-classic-value",
        loops: (50, 150),
        prepare: || zebra_step(common::VALUE),
    },
    Workload {
        name: "zebra-oz",
        loops: (50, 150),
        prepare: || oz_step(oz_settings(Strength::Value, false)),
    },
    Workload {
        name: "zebra-oz-full",
        loops: (50, 150),
        prepare: || oz_step(oz_settings(Strength::Domain, true)),
    },
    Workload {
        name: "queens-10",
        loops: (2, 6),
        prepare: queens_step,
    },
    Workload {
        name: "check-5x5-value",
        loops: (5, 15),
        prepare: || uniqueness_step(Strength::Value),
    },
    Workload {
        name: "check-5x5-domain",
        loops: (5, 15),
        prepare: || uniqueness_step(Strength::Domain),
    },
    Workload {
        name: "sudoku-hard-value",
        loops: (2, 6),
        prepare: || sudoku_step(&top95(HARD_SUDOKU), Strength::Value),
    },
    Workload {
        name: "sudoku-hard-domain",
        loops: (2, 6),
        prepare: || sudoku_step(&top95(HARD_SUDOKU), Strength::Domain),
    },
    Workload {
        name: "sudoku-wiki17-value",
        loops: (5, 15),
        prepare: || sudoku_step(WIKI17, Strength::Value),
    },
    Workload {
        name: "sudoku-wiki17-domain",
        loops: (5, 15),
        prepare: || sudoku_step(WIKI17, Strength::Domain),
    },
    Workload {
        name: "english-read-6x6",
        loops: (20, 60),
        prepare: || english_step(false),
    },
    Workload {
        name: "english-check-6x6",
        loops: (20, 60),
        prepare: || english_step(true),
    },
];

/// Building the classic zebra and finding all its solutions, as
/// `benches/solve.rs` times it.
fn zebra_step(rows: common::Rows) -> Step {
    expect_solutions(&common::classic_zebra(rows), 1);
    Box::new(move || {
        let m = common::classic_zebra(rows);
        Solver::new(&m)
            .solve(&SearchOptions::default(), Mode::Count)
            .stats
    })
}

fn oz_settings(strength: Strength, each_value_held: bool) -> common::ZebraSettings {
    common::ZebraSettings {
        strength,
        each_value_held,
        alphabetical: true,
    }
}

/// The Oz tutorial's zebra: the engine's build and the search to
/// exhaustion.
fn oz_step(settings: common::ZebraSettings) -> Step {
    let oz = common::load_json("zebra/mozart_oz.json")["puzzles"][0].clone();
    let model = common::zebra_model(&oz, settings).model;
    expect_solutions(&model, 1);
    Box::new(move || Solver::new(&model).count(&SearchOptions::default()).stats)
}

/// Counting the 724 solutions of 10-queens (OEIS A000170).
fn queens_step() -> Step {
    let known = common::load_json("known_counts.json");
    let expected = known["sequences"]["A000170"]["terms"][10]
        .as_u64()
        .expect("a term");
    let (model, _) = common::queens_model(10, Strength::Value);
    expect_solutions(&model, expected);
    Box::new(move || Solver::new(&model).count(&SearchOptions::default()).stats)
}

/// The uniqueness checks of generated 5x5 puzzles in solvers built once, as
/// a generator runs them; one run checks all of them.
fn uniqueness_step(strength: Strength) -> Step {
    let mut solvers: Vec<Solver> = (0..PUZZLES)
        .map(|seed| {
            let options = GenerateOptions {
                houses: 5,
                groups: 5,
                seed,
            };
            let puzzle = generate(&options).expect("a valid size").puzzle;
            Solver::new(puzzle.to_model_with(strength).model())
        })
        .collect();
    let options = SearchOptions::default();
    for s in &mut solvers {
        // The generator's own promise, checked by the value strength too.
        assert!(s.uniqueness(&options).is_unique(), "generated unique");
    }
    Box::new(move || {
        let mut total = Stats::default();
        for s in &mut solvers {
            let stats = s.solve(&options, Mode::AtMost(2)).stats;
            total.nodes += stats.nodes;
        }
        total
    })
}

/// Reading a generated 6x6 puzzle in ZebraLogic's English, and with
/// `check` its uniqueness check too, as `benches/english.rs` times them.
fn english_step(check: bool) -> Step {
    let g = generate(&GenerateOptions {
        houses: 6,
        groups: 6,
        seed: 1,
    })
    .expect("a valid size");
    let text =
        english::write(&g.puzzle, Style::ZebraLogic).expect("generated clues have sentences");
    // The text read back has one solution, the generator's.
    let p = english::parse(&text).expect("the text reads");
    let pm = p.to_model();
    let outcome = Solver::new(pm.model()).solve(&SearchOptions::default(), Mode::AtMost(2));
    assert_eq!(outcome.solutions.len(), 1, "a unique puzzle");
    for (group, houses) in g.solution.iter().enumerate() {
        for (value, &house) in houses.iter().enumerate() {
            let v = bitfd::puzzle::ValueRef { group, value };
            assert_eq!(
                pm.house(&outcome.solutions[0], v),
                house,
                "the generator's solution"
            );
        }
    }
    Box::new(move || {
        let p = english::parse(black_box(&text)).expect("reads");
        if !check {
            return Stats::default();
        }
        let pm = p.to_model();
        Solver::new(pm.model())
            .solve(&SearchOptions::default(), Mode::AtMost(2))
            .stats
    })
}

/// The board of Norvig's top95 with this id.
fn top95(id: &str) -> String {
    let top95 = common::load_json("sudoku/norvig_top95.json");
    let puzzles = top95["puzzles"].as_array().expect("puzzles");
    let puzzle = puzzles.iter().find(|p| p["id"] == id).expect("a known id");
    puzzle["puzzle"].as_str().expect("a board").to_owned()
}

/// A 9x9 board's uniqueness check: the engine's build and the search for
/// a second solution.
fn sudoku_step(board: &str, strength: Strength) -> Step {
    let settings = common::SudokuSettings {
        strength,
        ..common::SudokuSettings::default()
    };
    let model = common::sudoku_model_with(3, board, settings).model;
    let options = SearchOptions::default();
    // The sources state one solution for each of these boards.
    let outcome = Solver::new(&model).solve(&options, Mode::AtMost(2));
    assert_eq!(outcome.stats.solutions, 1, "a unique board");
    Box::new(move || Solver::new(&model).solve(&options, Mode::AtMost(2)).stats)
}

/// Asserts the number of solutions before anything is measured.
fn expect_solutions(model: &Model, expected: u64) {
    let found = Solver::new(model)
        .count(&SearchOptions::default())
        .stats
        .solutions;
    assert_eq!(found, expected, "the workload's known answer");
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; with nothing else, list.
    let args: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "--bench")
        .collect();
    match args.as_slice() {
        [] | ["--list"] => {
            for w in WORKLOADS {
                println!("{} {} {}", w.name, w.loops.0, w.loops.1);
            }
            ExitCode::SUCCESS
        }
        ["--stats"] => {
            for w in WORKLOADS {
                let stats = (w.prepare)()();
                println!("{}: {stats:?}", w.name);
            }
            ExitCode::SUCCESS
        }
        ["--rank"] => {
            let top95 = common::load_json("sudoku/norvig_top95.json");
            for p in top95["puzzles"].as_array().expect("puzzles") {
                let board = p["puzzle"].as_str().expect("a board");
                let nodes = [Strength::Value, Strength::Domain].map(|strength| {
                    let settings = common::SudokuSettings {
                        strength,
                        ..common::SudokuSettings::default()
                    };
                    let model = common::sudoku_model_with(3, board, settings).model;
                    let options = SearchOptions::default();
                    Solver::new(&model)
                        .solve(&options, Mode::AtMost(2))
                        .stats
                        .nodes
                });
                println!("{} {} {}", p["id"], nodes[0], nodes[1]);
            }
            ExitCode::SUCCESS
        }
        [name, runs] => {
            let (Some(w), Ok(runs)) = (WORKLOADS.iter().find(|w| w.name == *name), runs.parse())
            else {
                eprintln!("icount: unknown workload {name:?} or bad run count {runs:?}");
                return ExitCode::from(2);
            };
            let mut step = (w.prepare)();
            for _ in 0..runs {
                black_box(step());
            }
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: icount [--list | --stats | --rank | WORKLOAD RUNS]");
            ExitCode::from(2)
        }
    }
}
