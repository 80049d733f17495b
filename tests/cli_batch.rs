//! The binary's batch and generator commands: `check` and `solve` over many
//! files and JSON lines on several threads, `check --json`, `minimize` and
//! `generate`. Expected values come from elsewhere: one-by-one runs, the
//! data files' counts, the model's own `check`, and uniqueness verdicts
//! computed here through the library; snapshots pin only what users see.

#![cfg(feature = "cli")]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use bitfd::generate::{GenerateOptions, generate};
use bitfd::puzzle::{self, Puzzle, ValueRef};
use bitfd::{SearchOptions, Solver};
use common::cli::{Run, run, settings};
use common::zebra_text::{data_puzzles, str_of, zebra_text};
use common::{ExpectedCount, ZebraSettings, zebra_model};
use serde_json::Value;

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

fn unique(p: &Puzzle) -> bool {
    let pm = p.to_model();
    Solver::new(pm.model())
        .uniqueness(&SearchOptions::default())
        .is_unique()
}

/// The examples, generated puzzles of several sizes (so that later ones
/// often finish first), a file that does not parse and one that is missing,
/// the failures at different places.
fn many_files(dir: &Path) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = fs::read_dir(root.join("examples/puzzles"))
        .expect("examples")
        .map(|e| e.expect("an entry").path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".zebra"))
        .collect();
    files.sort();
    for seed in 0..120u64 {
        let (houses, groups) = [(3, 3), (7, 6), (4, 5), (6, 6)][seed as usize % 4];
        let g = generate(&GenerateOptions {
            houses,
            groups,
            seed,
        })
        .expect("a valid size");
        let path = dir.join(format!("g{seed:03}.zebra"));
        fs::write(&path, g.puzzle.to_string()).expect("written");
        files.push(path_str(&path).to_owned());
    }
    let bad = root.join("tests/bad/unknown_name.zebra");
    files.insert(3, path_str(&bad).to_owned());
    files.insert(60, path_str(&dir.join("missing.zebra")).to_owned());
    files.push(path_str(&bad).to_owned());
    files
}

/// `time 0.051 ms` and `"solveTime":0.0001` replaced, so runs compare.
fn without_times(text: &str) -> String {
    text.lines()
        .map(|line| {
            if let Ok(mut doc) = serde_json::from_str::<Value>(line) {
                if doc["statistics"]["solveTime"].is_number() {
                    doc["statistics"]["solveTime"] = Value::from("[time]");
                }
                return doc.to_string();
            }
            match line.find(", time ") {
                Some(i) if line.starts_with("nodes ") => format!("{}, time [time]", &line[..i]),
                _ => line.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn with(command: &[&str], files: &[String]) -> Vec<String> {
    let mut args: Vec<String> = command.iter().map(|s| (*s).to_owned()).collect();
    args.extend(files.iter().cloned());
    args
}

fn run_strings(args: &[String], stdin: Option<&[u8]>) -> Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args, stdin)
}

#[test]
fn check_batch_prints_what_one_file_at_a_time_prints_in_input_order() {
    let dir = scratch("check_batch");
    let files = many_files(&dir);
    for json in [false, true] {
        let mode: &[&str] = if json {
            &["check", "--json"]
        } else {
            &["check"]
        };
        // The expected output: one run per file, concatenated.
        let (mut out, mut err, mut worst) = (String::new(), String::new(), 0);
        for f in &files {
            let r = run_strings(&with(mode, std::slice::from_ref(f)), None);
            out.push_str(&r.stdout);
            err.push_str(&r.stderr);
            worst = worst.max(r.code);
        }
        assert_eq!(worst, 1, "the bad files fail");
        for jobs in ["1", "2", "4"] {
            let mut command = mode.to_vec();
            command.extend(["--jobs", jobs]);
            let batch = run_strings(&with(&command, &files), None);
            assert_eq!(batch.code, worst, "--jobs {jobs}");
            assert_eq!(
                without_times(&batch.stdout),
                without_times(&out),
                "--jobs {jobs}"
            );
            assert_eq!(
                batch.stderr, err,
                "--jobs {jobs}: no progress bar in a pipe"
            );
        }
    }
}

#[test]
fn solve_batch_is_the_same_on_any_number_of_threads() {
    let dir = scratch("solve_batch");
    let files = many_files(&dir);
    // One by one, with the header and blank line a batch puts between files.
    let mut expected = String::new();
    for (i, f) in files.iter().enumerate() {
        let r = run_strings(&with(&["solve"], std::slice::from_ref(f)), None);
        if r.stdout.is_empty() {
            continue;
        }
        if i > 0 {
            expected.push('\n');
        }
        expected.push_str(&format!("==> {f} <==\n{}", r.stdout));
    }
    for jobs in ["1", "2"] {
        let batch = run_strings(&with(&["solve", "--jobs", jobs], &files), None);
        assert_eq!(batch.code, 1);
        assert_eq!(
            without_times(&batch.stdout),
            without_times(&expected),
            "--jobs {jobs}"
        );
    }
}

/// A data puzzle object as one JSON line.
fn line(p: &Value) -> String {
    serde_json::to_string(p).expect("serialises")
}

/// A JSON document without what names its input or varies between runs.
fn comparable(doc: &Value) -> Value {
    let mut doc = doc.clone();
    for key in ["file", "line", "id", "error"] {
        doc.as_object_mut().expect("an object").remove(key);
    }
    if doc["statistics"]["solveTime"].is_number() {
        doc["statistics"]["solveTime"] = Value::Null;
    }
    // A clue's line exists in a file only.
    if let Some(failure) = doc.get_mut("rootFailure").filter(|f| f.is_object()) {
        failure["line"] = Value::Null;
        if failure["clue"].is_object() {
            failure["clue"]["line"] = Value::Null;
        }
        if let Some(clues) = failure
            .get_mut("conflictingClues")
            .and_then(Value::as_array_mut)
        {
            for clue in clues {
                clue["line"] = Value::Null;
            }
        }
    }
    doc
}

fn documents(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON document a line"))
        .collect()
}

#[test]
fn jsonl_gives_what_zebra_files_of_the_same_puzzles_give() {
    let dir = scratch("jsonl_vs_files");
    let mut files = Vec::new();
    let mut lines = Vec::new();
    for (k, (_, p)) in data_puzzles().into_iter().enumerate() {
        // The .zebra text comes from the tests' own writer, not the library.
        let path = dir.join(format!("{k:02}-{}.zebra", str_of(&p["id"])));
        fs::write(&path, zebra_text(&p)).expect("written");
        files.push(path_str(&path).to_owned());
        lines.push(line(&p));
    }
    // A broken input at the same place in both.
    let bad = dir.join("broken.zebra");
    fs::write(&bad, "houses 3\ncolor: red green\nred = 7\n").expect("written");
    files.insert(5, path_str(&bad).to_owned());
    lines.insert(5, r#"{"houses": 3, "groups": [{"name": "color", "values": ["red", "green"]}], "clues": [{"kind": "at", "args": ["red", 7]}]}"#.to_owned());
    let jsonl = dir.join("all.jsonl");
    fs::write(&jsonl, lines.join("\n") + "\n").expect("written");

    for command in [&["check", "--json"][..], &["solve", "--json", "--count"]] {
        let from_files = run_strings(&with(command, &files), None);
        let mut args = with(command, &[]);
        args.extend(["--jsonl".to_owned(), path_str(&jsonl).to_owned()]);
        let from_lines = run_strings(&args, None);
        assert_eq!(from_files.code, 1, "{command:?}: the broken input");
        assert_eq!(from_lines.code, 1, "{command:?}: the broken input");
        let a = documents(&from_files.stdout);
        let b = documents(&from_lines.stdout);
        assert_eq!(a.len(), files.len(), "{command:?}: a document an input");
        assert_eq!(b.len(), files.len(), "{command:?}: a document a line");
        for (k, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(comparable(x), comparable(y), "{command:?}, input {k}");
        }
        assert_eq!(b[5]["verdict"], "error");
        assert_eq!(b[5]["line"], 6);
        assert!(b[6]["verdict"] != "error", "the rest still run");
        let at = format!(
            "{}:6: clues[0].args[1]: expected a house number from 1 to 3, found 7",
            path_str(&jsonl)
        );
        assert!(from_lines.stderr.contains(&at), "{}", from_lines.stderr);
    }
}

#[test]
fn jsonl_over_the_shared_data_counts_what_the_data_says() {
    let puzzles: Vec<Value> = data_puzzles().into_iter().map(|(_, p)| p).collect();
    let mut input: String = puzzles.iter().map(|p| line(p) + "\n").collect();
    // A malformed line in the middle: reported with its number, the rest run.
    let broken = 4;
    let mut text: Vec<&str> = input.lines().collect();
    text.insert(broken, "{\"houses\": 5, \"groups\": [");
    input = text.join("\n") + "\n";
    let count = run(
        &["solve", "--count", "--json", "--jsonl", "-"],
        Some(input.as_bytes()),
    );
    let check = run(&["check", "--json", "--jsonl", "-"], Some(input.as_bytes()));
    assert_eq!(count.code, 1, "the malformed line");
    assert_eq!(check.code, 1);
    assert!(
        count
            .stderr
            .contains(&format!("<stdin>:{}: not JSON", broken + 1)),
        "{}",
        count.stderr
    );
    let counts = documents(&count.stdout);
    let checks = documents(&check.stdout);
    assert_eq!(counts.len(), puzzles.len() + 1);
    assert_eq!(counts[broken]["verdict"], "error");
    assert_eq!(checks[broken]["line"], broken as u64 + 1);
    let mut k = 0;
    for (i, (n, c)) in counts.iter().zip(&checks).enumerate() {
        if i == broken {
            continue;
        }
        let p = &puzzles[k];
        k += 1;
        let id = str_of(&p["id"]);
        assert_eq!(n["id"], id);
        assert_eq!(c["id"], id);
        let found = n["statistics"]["nSolutions"].as_u64().expect("a count");
        let want = ExpectedCount::of_expected(&p["expected"]).expect("a count in the data");
        match want {
            ExpectedCount::Exact(want) => assert_eq!(found, want, "{id}"),
            ExpectedCount::AtLeast(want) => assert!(found >= want, "{id}"),
        }
        let verdict = match found {
            0 => "no solution",
            1 => "unique",
            _ => "not unique",
        };
        assert_eq!(c["verdict"], verdict, "{id}");
        assert_eq!(c["solutions"], found.min(2), "{id}");
    }
}

#[test]
fn check_json_witnesses_solve_the_model_and_differ_exactly_where_reported() {
    let data = common::load_json("zebra/derived_variants.json");
    let several: Vec<&Value> = data["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .filter(|p| p["expected"]["solutions"].as_u64().is_some_and(|n| n >= 2))
        .collect();
    assert!(several.len() >= 5, "only {} variants", several.len());
    let input: String = several.iter().map(|p| line(p) + "\n").collect();
    let r = run(&["check", "--json", "--jsonl", "-"], Some(input.as_bytes()));
    assert_eq!(r.code, 1, "none is unique");
    let docs = documents(&r.stdout);
    assert_eq!(docs.len(), several.len());
    for (p, doc) in several.iter().zip(&docs) {
        let id = str_of(&p["id"]);
        assert_eq!(doc["verdict"], "not unique", "{id}");
        // The model built here from the data, not through the CLI.
        let zebra = zebra_model(p, ZebraSettings::default());
        let model = &zebra.model;
        let witnesses: Vec<Vec<u8>> = doc["witnesses"]
            .as_array()
            .expect("witnesses")
            .iter()
            .map(|w| {
                let mut values = vec![0u8; model.len()];
                let w = w.as_object().expect("a map");
                assert_eq!(w.len(), model.len(), "{id}: every variable");
                for (name, house) in w {
                    let x = model.var(name).expect("a variable of the puzzle");
                    values[x.index()] = house
                        .as_u64()
                        .and_then(|h| u8::try_from(h).ok())
                        .expect("a house");
                }
                values
            })
            .collect();
        assert_eq!(witnesses.len(), 2, "{id}");
        for w in &witnesses {
            assert_eq!(model.check(w), Ok(()), "{id}: a witness is a solution");
        }
        let mut differ: Vec<String> = model
            .vars()
            .filter(|x| witnesses[0][x.index()] != witnesses[1][x.index()])
            .map(|x| model.name(x).to_owned())
            .collect();
        let mut reported: Vec<String> = Vec::new();
        for d in doc["differences"].as_array().expect("differences") {
            let name = d["variable"].as_str().expect("a name");
            let x = model.var(name).expect("a variable");
            assert_eq!(d["first"], witnesses[0][x.index()], "{id}: {name}");
            assert_eq!(d["second"], witnesses[1][x.index()], "{id}: {name}");
            assert_eq!(d["value"], name, "{id}: names are unique in the data");
            reported.push(name.to_owned());
        }
        differ.sort();
        reported.sort();
        assert!(!differ.is_empty(), "{id}: two different solutions");
        assert_eq!(reported, differ, "{id}");
    }
}

#[test]
fn check_names_where_solutions_differ_and_the_clue_that_fails() {
    let r = run(
        &[
            "check",
            "examples/puzzles/several.zebra",
            "examples/puzzles/nosolution.zebra",
            "tests/bad/unknown_name.zebra",
            "examples/puzzles/zebra.zebra",
        ],
        None,
    );
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(
        lines[0].contains("not unique (>= 2 solutions; nodes ")
            && lines[0].contains("): differ at "),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains(": no solution ("), "{}", lines[1]);
    assert!(lines[1].ends_with("fails at the root"), "{}", lines[1]);
    assert_eq!(lines[2], "tests/bad/unknown_name.zebra: error");
    assert!(
        lines[3].ends_with(": unique (nodes 9, failures 4)"),
        "{}",
        lines[3]
    );
    let json = run(
        &[
            "check",
            "--json",
            "examples/puzzles/zebra.zebra",
            "examples/puzzles/several.zebra",
            "examples/puzzles/nosolution.zebra",
        ],
        None,
    );
    assert_eq!(json.code, 1);
    let docs = documents(&json.stdout);
    assert_eq!(
        docs[0]["rating"]["nodes"], 9,
        "the classic zebra's 9-node tree"
    );
    assert!(
        docs[1]["rating"].is_null(),
        "no rating without a unique solution"
    );
    let pretty: Vec<String> = json
        .stdout
        .lines()
        .map(|l| {
            let mut doc: Value = serde_json::from_str(l).expect("JSON");
            doc["statistics"]["solveTime"] = Value::from("[time]");
            serde_json::to_string_pretty(&doc).expect("serialises")
        })
        .collect();
    settings().bind(|| insta::assert_snapshot!("check_json", pretty.join("\n")));
}

/// A generated puzzle with one redundant clue per value ("The dog is in
/// house 3."), added after its own clues.
fn padded_puzzle() -> (String, Puzzle) {
    let g = generate(&GenerateOptions {
        houses: 5,
        groups: 4,
        seed: 3,
    })
    .expect("a valid size");
    let mut text = g.puzzle.to_string();
    text.push_str("\n# The solution, spelt out: all redundant.\n");
    for (group, houses) in g.solution.iter().enumerate() {
        for (value, house) in houses.iter().enumerate() {
            let v = ValueRef { group, value };
            let name = g.puzzle.value_name(v);
            text.push_str(&format!(
                "\"The {name} is in house {house}.\" {} = {house}\n",
                g.puzzle.value_text(v)
            ));
        }
    }
    let original = puzzle::parse(&text).expect("the padded text parses");
    (text, original)
}

#[test]
fn minimize_writes_a_unique_puzzle_from_which_no_clue_can_go() {
    let dir = scratch("minimize");
    let (text, original) = padded_puzzle();
    let input = dir.join("padded.zebra");
    fs::write(&input, &text).expect("written");
    let output = dir.join("minimal.zebra");
    let r = run(
        &[
            "minimize",
            path_str(&input),
            "--seed",
            "5",
            "-o",
            path_str(&output),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty() && r.stderr.is_empty());
    let written = fs::read_to_string(&output).expect("the output file");
    let minimal = puzzle::parse(&written).expect("the output parses");
    // Unique, and minimal: checked here clue by clue, by rebuilding.
    assert!(unique(&minimal));
    assert!(minimal.clues().len() < original.clues().len());
    for i in 0..minimal.clues().len() {
        let mut fewer = minimal.clone();
        fewer.remove_clue(i);
        assert!(!unique(&fewer), "clue {i} could go too:\n{written}");
    }
    // The rest of the puzzle stays, and the clues kept are the input's, in order.
    assert_eq!(minimal.title(), original.title());
    assert_eq!(minimal.groups(), original.groups());
    assert_eq!(minimal.asks(), original.asks());
    let mut from = original.clues().iter();
    for clue in minimal.clues() {
        assert!(
            from.any(|c| c == clue),
            "{clue:?} is not the input's, in order"
        );
    }
    // The same seed on stdin gives the same bytes.
    let again = run(&["minimize", "-", "--seed", "5"], Some(text.as_bytes()));
    assert_eq!(again.code, 0);
    assert_eq!(again.stdout, written);
    let other = run(&["minimize", "-", "--seed", "6"], Some(text.as_bytes()));
    assert!(puzzle::parse(&other.stdout).is_ok_and(|p| unique(&p)));
    settings().bind(|| insta::assert_snapshot!("minimize", again.render()));
}

#[test]
fn minimize_says_when_a_limit_cut_clue_checks_short() {
    // All three facts, or any two, solve the puzzle at the root; with one
    // left, telling the other two values apart takes more than one node.
    let text = "houses 3\nx: a b c\na = 1\nb = 2\nc = 3\n";
    let args = ["minimize", "-", "--seed", "7", "--node-limit", "1"];
    let r = run(&args, Some(text.as_bytes()));
    assert_eq!(r.code, 3, "{}", r.stderr);
    let note = "2 clue checks were cut short by the node limit, so the set may not be minimal";
    let head = format!("# 2 of 3 clues kept by `bitfd minimize --seed 7`\n# {note}\n");
    assert!(r.stdout.starts_with(&head), "{}", r.stdout);
    assert!(
        r.stderr.contains(&format!("warning: <stdin>: {note}")),
        "{}",
        r.stderr
    );
    // What was kept is still unique: only its minimality is unproven.
    let kept = puzzle::parse(&r.stdout).expect("the output parses");
    assert!(unique(&kept));
    // Without the limit the same two clues are proved needed: no note.
    let free = run(&["minimize", "-", "--seed", "7"], Some(text.as_bytes()));
    assert_eq!(free.code, 0, "{}", free.stderr);
    assert!(free.stderr.is_empty(), "{}", free.stderr);
    assert!(!free.stdout.contains("cut short"), "{}", free.stdout);
    assert_eq!(
        puzzle::parse(&free.stdout).expect("parses").clues(),
        kept.clues()
    );
}

#[test]
fn minimize_refuses_a_puzzle_without_exactly_one_solution() {
    for (file, says) in [
        (
            "examples/puzzles/several.zebra",
            "not unique (>= 2 solutions): differ at ",
        ),
        ("examples/puzzles/nosolution.zebra", "no solution: "),
        ("tests/bad/unknown_name.zebra", "error[unknown-name]"),
        ("no/such/file.zebra", "cannot read"),
    ] {
        let r = run(&["minimize", file, "--seed", "1"], None);
        assert_eq!(r.code, 1, "{file}");
        assert!(r.stdout.is_empty(), "{file}");
        assert!(r.stderr.contains(says), "{file}: {}", r.stderr);
    }
}

#[test]
fn generate_is_deterministic_and_every_puzzle_checks_unique() {
    let dir = scratch("generate");
    let (one, two) = (dir.join("one"), dir.join("two"));
    let base = [
        "generate", "--houses", "5", "--groups", "4", "--seed", "10", "--count", "6",
    ];
    let mut runs = Vec::new();
    for (out, jobs) in [(&one, "1"), (&two, "2")] {
        let mut args = base.to_vec();
        args.extend(["--out", path_str(out), "--jobs", jobs]);
        let r = run(&args, None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        runs.push(r);
    }
    let names: Vec<String> = (10..16).map(|s| format!("gen-5x4-seed{s}.zebra")).collect();
    let listed: Vec<String> = names
        .iter()
        .map(|n| path_str(&one.join(n)).to_owned())
        .collect();
    assert_eq!(runs[0].stdout.lines().collect::<Vec<_>>(), listed);
    let texts: Vec<String> = names
        .iter()
        .map(|n| {
            let a = fs::read(one.join(n)).expect("written");
            let b = fs::read(two.join(n)).expect("written");
            assert_eq!(a, b, "{n}: the same bytes on 1 and 2 threads");
            String::from_utf8(a).expect("text")
        })
        .collect();
    for (i, a) in texts.iter().enumerate() {
        for b in &texts[i + 1..] {
            assert_ne!(a, b, "different seeds, different puzzles");
        }
        assert!(unique(&puzzle::parse(a).expect("parses")));
    }
    let mut check = vec!["check".to_owned()];
    check.extend(listed.iter().cloned());
    let r = run_strings(&check, None);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(r.stdout.matches(": unique (").count(), 6);
    // Without --out: the same texts, each after a header.
    let r = run(&base, None);
    let expected: Vec<String> = names
        .iter()
        .zip(&texts)
        .map(|(n, t)| format!("# ==> {n} <==\n{t}"))
        .collect();
    assert_eq!(r.stdout, expected.join("\n"));
    let single = run(
        &["generate", "--houses", "4", "--groups", "3", "--seed", "1"],
        None,
    );
    assert_eq!(single.code, 0);
    settings().bind(|| insta::assert_snapshot!("generate", single.render()));
}

#[test]
fn no_progress_bar_in_a_pipe_and_one_on_a_terminal() {
    let dir = scratch("progress");
    let puzzles: Vec<String> = data_puzzles().into_iter().map(|(_, p)| line(&p)).collect();
    // Long enough to pass the bar's delay: about a second on two cores.
    let lines: Vec<&str> = puzzles
        .iter()
        .map(String::as_str)
        .cycle()
        .take(20_000)
        .collect();
    let jsonl = dir.join("many.jsonl");
    fs::write(&jsonl, lines.join("\n") + "\n").expect("written");
    // `solve --count` answers every puzzle, so it exits with 0.
    let piped = run(&["solve", "--count", "--jsonl", path_str(&jsonl)], None);
    assert_eq!(
        piped.code,
        0,
        "{}",
        &piped.stderr[..piped.stderr.len().min(500)]
    );
    assert!(piped.stdout.lines().count() > 20_000);
    assert!(
        piped.stderr.is_empty(),
        "{}",
        &piped.stderr[..piped.stderr.len().min(500)]
    );
    // On a terminal (util-linux `script` makes one), the bar shows.
    let command = format!(
        "{} solve --count --jsonl {} > /dev/null",
        env!("CARGO_BIN_EXE_bitfd"),
        path_str(&jsonl)
    );
    match std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
    {
        Ok(out) => {
            let seen = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{seen:?}");
            assert!(
                seen.contains(" puzzles/s"),
                "no bar on a terminal: {seen:?}"
            );
        }
        Err(e) => eprintln!("no `script` to make a terminal ({e}): the terminal half is skipped"),
    }
}

#[test]
fn sudoku_batch_prints_each_boards_solution_in_input_order_on_any_threads() {
    let data = common::load_json("sudoku/norvig_top95.json");
    let boards: Vec<&Value> = data["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .collect();
    let mut lines: Vec<String> = boards
        .iter()
        .map(|p| str_of(&p["puzzle"]).to_owned())
        .collect();
    let bad = 40;
    lines.insert(bad, "12345".to_owned());
    lines.insert(0, "# Norvig's top95".to_owned());
    let input = lines.join("\n") + "\n";
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        let r = run(&["sudoku", "--jobs", jobs], Some(input.as_bytes()));
        assert_eq!(r.code, 1, "the malformed line");
        assert!(
            r.stderr.contains(&format!("<stdin>:{}: ", bad + 2)),
            "{}",
            r.stderr
        );
        let out: Vec<&str> = r.stdout.lines().collect();
        assert_eq!(
            out.len(),
            boards.len() + 1,
            "a line a board, and the summary"
        );
        for (line, p) in out.iter().zip(&boards) {
            assert_eq!(*line, str_of(&p["solution"]), "{}", p["id"]);
        }
        let summary = out[boards.len()];
        let cut = summary.rfind("; ").expect("a rate");
        assert_eq!(
            &summary[..cut],
            "95 puzzles: 95 unique, 0 not unique, 0 without solution, 1 malformed line"
        );
        outputs.push((
            r.stdout[..r.stdout.rfind("; ").expect("a rate")].to_owned(),
            r.stderr,
        ));
    }
    assert_eq!(outputs[0], outputs[1]);
}
