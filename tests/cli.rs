//! The `bitfd` binary as a user meets it: output snapshots (insta, in the
//! top-level `snapshots/`) for `solve`, `--json`, `check`, `sudoku`, every
//! bad input of `tests/bad/`, and `--help`; plus exit codes, streams and
//! colour. Times are redacted, so the snapshots are byte-stable. The
//! snapshots pin what users see; the truth of the answers is checked in
//! `puzzle_examples.rs` and below against the data files.

#![cfg(feature = "cli")]

mod common;

use std::path::Path;
use std::process::Command;

use common::cli::{Run, relative, run, settings};
use common::{data_dir, load_json};
use serde_json::Value;

#[test]
fn solve_prints_grid_answers_verdict_and_statistics_for_every_example() {
    settings().bind(|| {
        insta::glob!("..", "examples/puzzles/*.zebra", |path| {
            let r = run(&["solve", &relative(path)], None);
            assert_eq!(r.code, 0, "{}", r.stderr);
            insta::assert_snapshot!("solve", r.render());
        });
    });
}

#[test]
fn solve_readme_command_answers_norwegian_and_japanese() {
    let r = run(&["solve", "examples/puzzles/zebra.zebra"], None);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("Who drinks water? Norwegian\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Who owns the zebra? Japanese\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("\nunique solution\n"));
    assert!(r.stderr.is_empty());
}

#[test]
fn solve_modes_all_count_and_max() {
    settings().bind(|| {
        let several = "examples/puzzles/several.zebra";
        insta::assert_snapshot!(
            "solve_all",
            run(&["solve", "--all", several], None).render()
        );
        insta::assert_snapshot!(
            "solve_count",
            run(&["solve", "--count", several], None).render()
        );
        insta::assert_snapshot!(
            "solve_max_1",
            run(&["solve", "--max", "1", several], None).render()
        );
    });
}

#[test]
fn a_single_count_is_the_same_on_any_number_of_threads() {
    // Two groups of five and no clue: 5! x 5! = 14,400 solutions, in a tree
    // large enough (28,799 nodes) that the count is split among threads.
    let text = b"title \"Two groups, no clues\"\nhouses 5\n\
        color: red green ivory yellow blue\npet: dog snails fox horse zebra\n";
    let statistics: Vec<Value> = ["1", "2", "3"]
        .iter()
        .map(|jobs| {
            let r = run(&["solve", "--count", "--json", "-j", jobs, "-"], Some(text));
            assert_eq!(r.code, 0, "{}", r.stderr);
            let doc: Value = serde_json::from_str(&r.stdout).expect("one JSON line");
            let mut stats = doc["statistics"].clone();
            stats
                .as_object_mut()
                .expect("an object")
                .remove("solveTime");
            stats
        })
        .collect();
    assert_eq!(statistics[0]["nSolutions"], 120 * 120);
    assert!(statistics[0]["nodes"].as_u64().expect("nodes") > 10_000);
    assert_eq!(statistics[1], statistics[0]);
    assert_eq!(statistics[2], statistics[0]);
}

#[test]
fn solve_reads_several_files_and_standard_input() {
    let text = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/puzzles/zebralogic.zebra"),
    )
    .expect("example");
    let r = run(
        &["solve", "-", "examples/puzzles/nosolution.zebra"],
        Some(&text),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    settings().bind(|| insta::assert_snapshot!("solve_stdin_and_file", r.render()));
}

#[test]
fn solve_search_flags_change_the_search_not_the_answer() {
    let default = run(&["solve", "--count", "examples/puzzles/oz.zebra"], None);
    let oz = run(
        &[
            "solve",
            "--count",
            "--all-different",
            "value",
            "--var-order",
            "input-order",
            "--value-order",
            "max",
            "examples/puzzles/oz.zebra",
        ],
        None,
    );
    assert_eq!(oz.code, 0);
    let nodes = |r: &Run| {
        r.stdout
            .lines()
            .find_map(|l| l.strip_prefix("nodes "))
            .and_then(|l| l.split(',').next())
            .map(str::to_owned)
    };
    assert!(default.stdout.contains("unique solution"));
    assert!(oz.stdout.contains("unique solution"));
    assert_ne!(nodes(&default), nodes(&oz));
    let limited = run(
        &[
            "solve",
            "--node-limit",
            "3",
            "--all-different",
            "value",
            "examples/puzzles/oz.zebra",
        ],
        None,
    );
    assert!(
        limited
            .stdout
            .contains("unknown: the search stopped at the node limit"),
        "{}",
        limited.stdout
    );
}

#[test]
fn solve_trace_and_tree_show_the_search_that_was_run() {
    let r = run(
        &[
            "solve",
            "--trace",
            "--tree",
            "text",
            "examples/puzzles/zebra.zebra",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let stats = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|l| l.split(',').next())
        .expect("the statistics line");
    let tree = &r.stdout[r.stdout.find("# bitfd-tree 1").expect("a tree")..];
    // One line a node, between the header and the footer.
    let nodes = tree.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(nodes.to_string(), stats);
    assert!(tree.contains(&format!("# nodes {stats};")), "{tree}");
    assert!(r.stdout.contains("# bitfd-trace 1\nProgress: "));
    let dot = run(
        &["solve", "--tree", "dot", "examples/puzzles/zebra.zebra"],
        None,
    );
    assert!(dot.stdout.starts_with("digraph"), "{}", dot.stdout);
    let both = run(
        &["solve", "--json", "--trace", "examples/puzzles/zebra.zebra"],
        None,
    );
    assert_eq!(both.code, 0, "the JSON carries the trace");
    let doc: Value = serde_json::from_str(&both.stdout).expect("one JSON document");
    assert!(doc["trace"].as_str().is_some_and(|t| r.stdout.contains(t)));
    settings().bind(|| insta::assert_snapshot!("solve_trace_tree", r.render()));
}

/// Each JSON line with its time replaced, pretty-printed.
fn redacted_json(stdout: &str) -> String {
    stdout
        .lines()
        .map(|line| {
            let mut doc: Value = serde_json::from_str(line).expect("a JSON document a line");
            assert!(doc["statistics"]["solveTime"].is_f64());
            doc["statistics"]["solveTime"] = Value::from("[time]");
            serde_json::to_string_pretty(&doc).expect("serialises")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn solve_json_prints_one_document_per_puzzle() {
    let r = run(
        &[
            "solve",
            "--json",
            "examples/puzzles/zebra.zebra",
            "examples/puzzles/nosolution.zebra",
            "examples/puzzles/several.zebra",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let docs: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(docs.len(), 3);
    let verdicts: Vec<&str> = docs
        .iter()
        .map(|d| d["verdict"].as_str().expect("verdict"))
        .collect();
    assert_eq!(verdicts, ["unique", "no solution", "not unique"]);
    settings().bind(|| insta::assert_snapshot!("solve_json", redacted_json(&r.stdout)));
}

#[test]
fn check_prints_one_line_per_file_and_fails_unless_all_unique() {
    let unique = run(
        &[
            "check",
            "examples/puzzles/zebra.zebra",
            "examples/puzzles/oz.zebra",
        ],
        None,
    );
    assert_eq!(unique.code, 0, "{}", unique.stderr);
    let mut files: Vec<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/puzzles"))
            .expect("examples")
            .map(|e| relative(&e.expect("entry").path()))
            .filter(|p| p.ends_with(".zebra"))
            .collect();
    files.sort();
    files.push("tests/bad/unknown_name.zebra".to_owned());
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let r = run(&args, None);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().count(), files.len());
    settings().bind(|| insta::assert_snapshot!("check", r.render()));
}

fn sudoku_entries(file: &str) -> Vec<Value> {
    load_json(&format!("sudoku/{file}"))["puzzles"]
        .as_array()
        .expect("puzzles")
        .clone()
}

fn m404(id: &str) -> Value {
    sudoku_entries("michael404_multisize.json")
        .into_iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no board {id}"))
}

/// A stated solution of side `n` with one cell of each row and column
/// blanked (row `r`, column `7r mod n`): a large board that propagation
/// alone solves, uniquely, so the test stays fast.
fn blanked(solution: &str, n: usize) -> String {
    solution
        .chars()
        .enumerate()
        .map(|(i, c)| if i % n == (i / n * 7) % n { '.' } else { c })
        .collect()
}

/// The sudoku test input: boards of every size, each kind of verdict, a
/// comment, a blank line and two malformed lines. Returns the input and
/// the expected solution (`None`: not unique or none) of each board.
fn sudoku_input() -> (String, Vec<Option<String>>) {
    let mut lines = vec!["# boards from ../shared/data/sudoku".to_owned()];
    let mut expected = Vec::new();
    for p in sudoku_entries("norvig_top95.json").iter().take(3) {
        lines.push(p["puzzle"].as_str().expect("puzzle").to_owned());
        expected.push(p["solution"].as_str().map(str::to_owned));
    }
    lines.push(String::new());
    for id in [
        "m404-9-multipleSolutions",
        "m404-9-invalid",
        "m404-16-easy1",
    ] {
        let p = m404(id);
        lines.push(p["puzzle"].as_str().expect("puzzle").to_owned());
        expected.push(p["solution"].as_str().map(str::to_owned));
    }
    lines.push("12345678".to_owned());
    lines.push(format!("x{}", ".".repeat(80)));
    for (id, n) in [("m404-25-puzzel1", 25), ("m404-36-puzzel1", 36)] {
        let solution = m404(id)["solution"].as_str().expect("solution").to_owned();
        lines.push(blanked(&solution, n));
        expected.push(Some(solution));
    }
    (lines.join("\n") + "\n", expected)
}

#[test]
fn sudoku_solutions_match_the_data_files() {
    let (input, expected) = sudoku_input();
    let r = run(&["sudoku"], Some(input.as_bytes()));
    assert_eq!(r.code, 1, "two malformed lines");
    let out: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        out.len(),
        expected.len() + 1,
        "a line a board and the summary"
    );
    for (line, want) in out.iter().zip(&expected) {
        match want {
            Some(solution) => assert_eq!(line, solution),
            None => assert!(!line.chars().all(|c| c.is_ascii_alphanumeric()), "{line}"),
        }
    }
    assert!(
        r.stderr
            .contains("<stdin>:9: expected 81, 256, 625 or 1296 symbols"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("<stdin>:10: column 1"), "{}", r.stderr);
    settings().bind(|| insta::assert_snapshot!("sudoku", r.render()));
}

#[test]
fn sudoku_views_on_and_off_give_the_data_files_solutions() {
    // The dual viewpoints are redundant: on every board of the test input,
    // with them or without, the same lines, each the stated solution where
    // the data has one.
    let (input, expected) = sudoku_input();
    for views in ["on", "off"] {
        let r = run(&["sudoku", "--views", views], Some(input.as_bytes()));
        assert_eq!(r.code, 1, "--views {views}: two malformed lines");
        let out: Vec<&str> = r.stdout.lines().collect();
        assert_eq!(out.len(), expected.len() + 1, "--views {views}");
        for (line, want) in out.iter().zip(&expected) {
            match want {
                Some(solution) => assert_eq!(line, solution, "--views {views}"),
                None => assert!(!line.chars().all(|c| c.is_ascii_alphanumeric()), "{line}"),
            }
        }
    }
}

#[test]
fn sudoku_count_counts_every_solution() {
    let boards: Vec<String> = [
        "m404-9-multipleSolutions",
        "m404-9-manySolutions",
        "m404-9-invalid",
    ]
    .iter()
    .map(|id| m404(id)["puzzle"].as_str().expect("puzzle").to_owned())
    .collect();
    let r = run(
        &["sudoku", "--count"],
        Some((boards.join("\n") + "\n").as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let counts: Vec<&str> = r.stdout.lines().take(3).collect();
    // The data file's counts, computed by two independent counters.
    let want: Vec<String> = [
        "m404-9-multipleSolutions",
        "m404-9-manySolutions",
        "m404-9-invalid",
    ]
    .iter()
    .map(|id| m404(id)["solutions_computed"].to_string())
    .collect();
    assert_eq!(counts, want);
    settings().bind(|| insta::assert_snapshot!("sudoku_count", r.render()));
}

#[test]
fn every_bad_input_gets_its_diagnostic_and_exit_code_1() {
    settings().bind(|| {
        insta::glob!("bad/*.zebra", |path| {
            let r = run(&["solve", &relative(path)], None);
            assert_eq!(r.code, 1);
            assert!(r.stdout.is_empty(), "{}", r.stdout);
            assert!(r.stderr.starts_with("error["), "{}", r.stderr);
            insta::assert_snapshot!("bad", r.stderr);
        });
    });
}

#[test]
fn oversized_inputs_get_a_diagnostic_not_a_crash() {
    let long = format!("houses 2\ncolor: red {}\n", "b".repeat(20_000));
    let r = run(&["solve", "-"], Some(long.as_bytes()));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("error[line-too-long]"), "{}", r.stderr);
    assert!(r.stderr.len() < 1000, "the long line is not echoed");
    let huge = vec![b'#'; bitfd::puzzle::MAX_SOURCE_BYTES + 10];
    let r = run(&["solve", "-"], Some(&huge));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("larger than"), "{}", r.stderr);
    let r = run(&["sudoku"], Some(&vec![b'1'; 100_000]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("longer than"), "{}", r.stderr);
}

#[test]
fn a_missing_file_is_an_input_error_and_the_others_still_run() {
    let r = run(
        &[
            "solve",
            "no/such/file.zebra",
            "examples/puzzles/zebralogic.zebra",
        ],
        None,
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .starts_with("error: no/such/file.zebra: cannot read"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("unique solution"));
}

#[test]
fn usage_errors_exit_with_2_and_help_with_0() {
    for args in [
        &["solve"][..],
        &["solve", "--max", "0", "x"],
        &["frobnicate"],
        &["solve", "--all", "--count", "x"],
        &["check", "--jsonl", "x.jsonl", "y.zebra"],
        &["check", "--jobs", "0", "x"],
        &["minimize", "x.zebra"],
        &["generate", "--houses", "11", "--groups", "3", "--seed", "1"],
        &["generate", "--houses", "4", "--groups", "0", "--seed", "1"],
        &["generate", "--houses", "4", "--groups", "3"],
        &[
            "generate",
            "--houses",
            "3",
            "--groups",
            "3",
            "--seed",
            "18446744073709551615",
            "--count",
            "2",
        ],
        &[],
    ] {
        let r = run(args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
    }
    let r = run(&["--version"], None);
    assert_eq!(r.code, 0);
    settings().bind(|| {
        for command in ["solve", "check", "sudoku", "minimize", "generate"] {
            let r = run(&[command, "--help"], None);
            assert_eq!(r.code, 0);
            assert!(r.stdout.contains("Examples:"), "{command}");
            insta::assert_snapshot!(format!("help_{command}"), r.stdout);
        }
    });
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let plain = run(&["solve", "examples/puzzles/zebralogic.zebra"], None);
    assert!(!plain.stdout.contains('\u{1b}'), "a pipe gets no colour");
    let coloured = run(
        &[
            "--color",
            "always",
            "solve",
            "examples/puzzles/zebralogic.zebra",
        ],
        None,
    );
    assert!(coloured.stdout.contains("\u{1b}["), "{}", coloured.stdout);
    let bad = run(
        &["--color", "always", "solve", "tests/bad/unknown_name.zebra"],
        None,
    );
    assert!(bad.stderr.contains("\u{1b}["), "{}", bad.stderr);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bitfd"));
    let out = cmd
        .args(["solve", "examples/puzzles/zebralogic.zebra"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("CLICOLOR_FORCE", "1")
        .output()
        .expect("runs");
    // NO_COLOR wins over a forced colour.
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\u{1b}'));
}

#[test]
fn sudoku_given_json_names_the_line_format_and_how_to_get_lines() {
    // The shared data's JSON form, as a file and on standard input.
    let path = data_dir().join("sudoku/norvig_top95.json");
    let text = std::fs::read(&path).expect("the shared sudoku data");
    for r in [
        run(&["sudoku", path.to_str().expect("a UTF-8 path")], None),
        run(&["sudoku"], Some(&text)),
    ] {
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
        assert_eq!(
            r.stderr.lines().count(),
            2,
            "one error, not one a line: {}",
            r.stderr
        );
        assert!(r.stderr.contains("looks like JSON"), "{}", r.stderr);
        assert!(r.stderr.contains("one board a line"), "{}", r.stderr);
        assert!(r.stderr.contains(".puzzles[].puzzle"), "{}", r.stderr);
    }
    // A line-per-board file that starts with a board is read as ever.
    let r = run(&["sudoku"], Some(format!("{WIKI17_LINE}\n").as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// The 17-clue "wiki17" board, one line.
const WIKI17_LINE: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
