//! The edges of the `bitfd` binary: bounded memory when solutions stream,
//! a closed output, recordings past their budget, `--jobs` out of range,
//! machine-readable output alone where it is asked for, the exit code of
//! an answer a limit left unknown, and the messages for input that is not
//! what it should be.

#![cfg(feature = "cli")]

mod common;

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::cli::run;
use serde_json::Value;

/// Two groups of eight and three clues: 5! x 8! = 4,838,400 solutions,
/// far more than a test prints, each found in a node or two.
const MILLIONS: &[u8] = b"houses 8\n\
    a: a1 a2 a3 a4 a5 a6 a7 a8\nb: b1 b2 b3 b4 b5 b6 b7 b8\n\
    a1 = 1\na2 = 2\na3 = 3\n";

/// The limit the issue sets on a stream's memory.
const MAX_RSS_KB: u64 = 50 * 1024;

/// A scratch folder for this test, emptied.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_edges-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Starts `bitfd args...` in the package root with `stdin` as its input
/// and its output piped.
fn spawn(args: &[&str], stdin: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_bitfd"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("CLICOLOR_FORCE")
        .stdin(std::fs::File::open(stdin).expect("the input"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// The peak resident set of a running process, in KiB (Linux's `VmHWM`),
/// or `None` once it is gone.
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Polls the child's peak memory every 10 ms until it exits (or
/// `deadline` passes: then it is killed), while `reader` runs on another
/// thread. Returns the highest peak seen and the exit code.
fn watch(child: &mut Child, deadline: Duration) -> (u64, Option<i32>) {
    let started = Instant::now();
    let mut peak = 0;
    loop {
        if let Some(kb) = peak_rss_kb(child.id()) {
            peak = peak.max(kb);
        }
        if let Some(status) = child.try_wait().expect("waits") {
            return (peak, status.code());
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return (peak, None);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
#[cfg(target_os = "linux")]
fn all_solutions_stream_through_a_pipe_in_little_memory() {
    let dir = scratch("stream");
    let input = dir.join("millions.zebra");
    std::fs::write(&input, MILLIONS).expect("written");
    // A search of millions of solutions, cut at two seconds: as many
    // solutions as the machine prints by then, each read as it comes.
    for json in [false, true] {
        let mut args = vec!["solve", "--all", "--time-limit", "2s", "-"];
        if json {
            args.insert(1, "--json");
        }
        let mut child = spawn(&args, &input);
        let stdout = child.stdout.take().expect("piped");
        let started = Instant::now();
        let reader = std::thread::spawn(move || {
            // (time of the first byte, bytes, solutions)
            let mut first = None;
            let (mut bytes, mut solutions) = (0u64, 0u64);
            let mut stdout = BufReader::new(stdout);
            let mut buffer = [0u8; 1 << 16];
            loop {
                let n = stdout.read(&mut buffer).expect("reads");
                if n == 0 {
                    break;
                }
                first.get_or_insert_with(|| started.elapsed());
                bytes += n as u64;
                let chunk = &buffer[..n];
                let mark: &[u8] = if json { b"\"grid\"" } else { b"solution " };
                solutions += chunk.windows(mark.len()).filter(|w| *w == mark).count() as u64;
            }
            (first, bytes, solutions)
        });
        let (peak, code) = watch(&mut child, Duration::from_secs(60));
        let elapsed = started.elapsed();
        let (first, bytes, solutions) = reader.join().expect("the reader");
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("piped")
            .read_to_string(&mut stderr)
            .expect("stderr");
        assert_eq!(
            code,
            Some(3),
            "a time limit leaves the answer unknown: {stderr}"
        );
        assert!(stderr.is_empty(), "{stderr}");
        assert!(
            solutions >= 20_000,
            "json {json}: {solutions} solutions in {bytes} bytes"
        );
        // Streamed: the first solution came long before the end.
        let first = first.expect("some output");
        assert!(
            first < elapsed / 2,
            "json {json}: first output after {first:?} of {elapsed:?}"
        );
        assert!(peak > 0, "the peak was read");
        assert!(
            peak < MAX_RSS_KB,
            "json {json}: peak RSS {peak} KiB while printing {bytes} bytes"
        );
    }
}

#[test]
fn a_closed_output_stops_the_stream_quietly() {
    let dir = scratch("closed");
    let input = dir.join("millions.zebra");
    std::fs::write(&input, MILLIONS).expect("written");
    for args in [
        &["solve", "--all", "-"][..],
        &["solve", "--all", "--json", "-"],
        &["solve", "--max", "1000000000", "-"],
    ] {
        // No limit: only the closed pipe can end this search soon.
        let mut child = spawn(args, &input);
        let mut stdout = child.stdout.take().expect("piped");
        let mut first = [0u8; 100];
        stdout.read_exact(&mut first).expect("some output");
        drop(stdout);
        let (peak, code) = watch(&mut child, Duration::from_secs(20));
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("piped")
            .read_to_string(&mut stderr)
            .expect("stderr");
        assert_eq!(code, Some(0), "{args:?} ends at once, quietly: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        if cfg!(target_os = "linux") {
            assert!(peak < MAX_RSS_KB, "{args:?}: peak RSS {peak} KiB");
        }
    }
}

/// The `nodes N` of a `solve` run's statistics line.
fn nodes(stdout: &str) -> u64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|l| l.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no statistics line in {stdout}"))
}

#[test]
fn streamed_solutions_are_numbered_and_the_same_as_text_and_json() {
    let several = "examples/puzzles/several.zebra";
    let text = run(&["solve", "--all", several], None);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let json = run(&["solve", "--all", "--json", several], None);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: Value = serde_json::from_str(&json.stdout).expect("one JSON document");
    let solutions = doc["solutions"].as_array().expect("solutions");
    // The puzzle's two solutions (its data file says so), each in the text.
    assert_eq!(solutions.len(), 2);
    assert_eq!(doc["statistics"]["nSolutions"], 2);
    assert_eq!(doc["verdict"], "not unique");
    for (k, solution) in solutions.iter().enumerate() {
        assert!(text.stdout.contains(&format!("\nsolution {}\n", k + 1)));
        for row in solution["grid"].as_array().expect("a grid") {
            let values: Vec<&str> = row["values"]
                .as_array()
                .expect("values")
                .iter()
                .map(|v| v.as_str().unwrap_or("-"))
                .collect();
            let group = row["group"].as_str().expect("a group");
            let printed = text
                .stdout
                .lines()
                .filter(|l| l.split_whitespace().next() == Some(group))
                .nth(k)
                .expect("the row in the text");
            // Columns are two spaces apart; a value may hold one.
            let printed: Vec<&str> = printed.split_whitespace().skip(1).collect();
            assert_eq!(printed.join(" "), values.join(" "));
        }
    }
    // A unique puzzle's one solution is numbered too: it is printed before
    // the search knows there is no second.
    let unique = run(&["solve", "--all", "examples/puzzles/zebra.zebra"], None);
    assert!(
        unique.stdout.contains("\nsolution 1\n"),
        "{}",
        unique.stdout
    );
    assert!(unique.stdout.contains("\nunique solution\n"));
}

#[test]
fn recordings_past_their_budget_are_truncated_and_say_so_in_every_format() {
    let dir = scratch("budget");
    let input = dir.join("millions.zebra");
    std::fs::write(&input, MILLIONS).expect("written");
    let input = input.to_str().expect("UTF-8");
    // A tree of 60 nodes, past a budget of 30.
    let limited = ["--node-limit", "60"];
    let plain = run(
        &[&["solve", "--count"][..], &limited, &[input]].concat(),
        None,
    );
    assert_eq!(plain.code, 3, "{}", plain.stderr);
    let unrecorded = nodes(&plain.stdout);
    assert_eq!(unrecorded, 60);
    let recorded = |extra: &[&str]| {
        let args = [
            &["solve", "--count", "--record-limit", "30"][..],
            &limited,
            extra,
            &[input],
        ]
        .concat();
        let r = run(&args, None);
        assert_eq!(r.code, 3, "{extra:?}: {}", r.stderr);
        r.stdout
    };
    let text = recorded(&["--tree", "text", "--trace"]);
    assert_eq!(nodes(&text), unrecorded, "the search is the same");
    assert!(text.contains("\n# truncated at 30 nodes: "), "{text}");
    assert!(text.contains("\n# truncated at 30 steps: "), "{text}");
    assert!(
        text.contains("\n# nodes 60; "),
        "the footer counts them all"
    );
    let tree_lines = text
        .lines()
        .skip_while(|l| !l.starts_with("# bitfd-tree"))
        .filter(|l| !l.starts_with('#'))
        .count();
    assert_eq!(tree_lines, 30);
    let dot = recorded(&["--tree", "dot"]);
    assert!(dot.contains("  label=\"truncated at 30 nodes"), "{dot}");
    let json = recorded(&["--tree", "json"]);
    let tree: Value = serde_json::from_str(&json).expect("the tree alone");
    assert_eq!(tree["truncated_at"], 30);
    assert_eq!(tree["stats"]["nodes"], 60);
    assert_eq!(tree["nodes"].as_array().map(Vec::len), Some(30));
    // The default budget is far above this tree: nothing is truncated.
    let whole = run(
        &[
            "solve",
            "--count",
            "--node-limit",
            "60",
            "--tree",
            "text",
            input,
        ],
        None,
    );
    assert!(!whole.stdout.contains("truncated"));
}

#[test]
fn too_many_jobs_is_a_usage_error_that_names_the_bound() {
    for jobs in ["100000", "1025", "0", "99999999999999999999999"] {
        let r = run(&["check", "-j", jobs, "examples/puzzles/zebra.zebra"], None);
        assert_eq!(r.code, 2, "-j {jobs}");
        assert!(r.stderr.contains("--jobs takes 1 to 1024"), "{}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    let r = run(
        &["check", "-j", "1024", "examples/puzzles/zebra.zebra"],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// Whether `dot` (Graphviz) runs here.
fn graphviz() -> bool {
    Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Checks that `text` is exactly one DOT graph: with Graphviz when it is
/// installed, else by its structure (one `digraph`, braces balanced
/// outside strings, nothing after the closing one).
fn assert_one_dot_graph(text: &str) {
    if graphviz() {
        let mut dot = Command::new("dot")
            .arg("-Tsvg")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("dot runs");
        let mut stdin = dot.stdin.take().expect("piped");
        let input = text.to_owned();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            let _ = stdin.write_all(input.as_bytes());
        });
        let out = dot.wait_with_output().expect("dot finishes");
        writer.join().expect("the writer");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
    }
    assert!(text.starts_with("digraph "), "{text}");
    assert_eq!(text.matches("digraph").count(), 1, "{text}");
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    let mut closed_at = None;
    for (i, c) in text.char_indices() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (_, false, '"') => in_string = !in_string,
            (false, _, '{') => depth += 1,
            (false, _, '}') => {
                depth -= 1;
                assert!(depth >= 0, "{text}");
                if depth == 0 {
                    closed_at.get_or_insert(i);
                }
            }
            _ => {}
        }
    }
    let end = closed_at.expect("the graph closes");
    assert_eq!(&text[end..], "}\n", "nothing after the graph");
}

#[test]
fn a_dot_or_json_tree_goes_alone_to_standard_output() {
    let zebra = "examples/puzzles/zebra.zebra";
    let r = run(&["solve", "--tree", "dot", zebra], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_one_dot_graph(&r.stdout);
    // Also with the solutions streaming (not printed: the tree has stdout).
    let r = run(&["solve", "--all", "--tree", "dot", zebra], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_one_dot_graph(&r.stdout);
    let r = run(&["solve", "--tree", "json", zebra], None);
    let tree: Value = serde_json::from_str(&r.stdout).expect("one JSON document, alone");
    assert_eq!(tree["format"], "bitfd-tree");
    assert_eq!(
        tree["stats"]["nodes"],
        nodes(&run(&["solve", zebra], None).stdout)
    );
    // Two documents cannot share standard output: a usage error says what
    // to do instead.
    let several = run(
        &["solve", "--tree", "dot", zebra, "examples/puzzles/oz.zebra"],
        None,
    );
    assert_eq!(several.code, 2);
    assert!(
        several.stderr.contains("--tree-out FILE"),
        "{}",
        several.stderr
    );
    assert!(several.stdout.is_empty());
    let with_trace = run(&["solve", "--tree", "dot", "--trace", zebra], None);
    assert_eq!(with_trace.code, 2);
    assert!(
        with_trace.stderr.contains("--trace-out FILE"),
        "{}",
        with_trace.stderr
    );
    // The text tree is for people: it follows the result, as before.
    let text = run(&["solve", "--tree", "text", zebra], None);
    assert!(text.stdout.starts_with("The zebra puzzle"));
    assert!(text.stdout.contains("\n# bitfd-tree 1"));
}

#[test]
fn tree_out_and_trace_out_write_one_document_a_file() {
    let dir = scratch("out");
    let (tree, trace) = (dir.join("tree.dot"), dir.join("trace"));
    let files = ["examples/puzzles/zebra.zebra", "examples/puzzles/oz.zebra"];
    let tree_s = tree.to_str().expect("UTF-8");
    let trace_s = trace.to_str().expect("UTF-8");
    let both = run(
        &[
            &["solve", "--tree", "dot", "--tree-out", tree_s],
            &["--trace", "--trace-out", trace_s][..],
            &files[..],
        ]
        .concat(),
        None,
    );
    assert_eq!(both.code, 0, "{}", both.stderr);
    // Standard output has the results only.
    assert!(!both.stdout.contains("digraph"));
    assert!(!both.stdout.contains("# bitfd-trace"));
    assert_eq!(both.stdout.matches("unique solution").count(), 2);
    for (k, file) in files.iter().enumerate() {
        let n = k + 1;
        let dot = std::fs::read_to_string(dir.join(format!("tree.{n}.dot"))).expect("a tree");
        assert_one_dot_graph(&dot);
        let alone = run(&["solve", "--tree", "dot", file], None);
        assert_eq!(dot, alone.stdout, "{file}");
        let text = std::fs::read_to_string(dir.join(format!("trace.{n}"))).expect("a trace");
        assert!(text.starts_with("# bitfd-trace 1\n"));
        let inline = run(&["solve", "--trace", file], None);
        assert!(inline.stdout.ends_with(&text), "{file}");
    }
    // One input: the file as named.
    let one = run(
        &["solve", "--tree", "text", "--tree-out", tree_s, files[0]],
        None,
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    let text = std::fs::read_to_string(&tree).expect("the tree");
    assert!(text.starts_with("# bitfd-tree 1;"));
    // A file that cannot be written is an input error, and says where.
    let bad = dir.join("no/such/folder/t.dot");
    let r = run(
        &[
            "solve",
            "--tree",
            "dot",
            "--tree-out",
            bad.to_str().expect("UTF-8"),
            files[0],
        ],
        None,
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("cannot write"), "{}", r.stderr);
}

#[test]
fn json_carries_the_tree_and_the_trace_when_asked() {
    let zebra = "examples/puzzles/zebra.zebra";
    let r = run(
        &["solve", "--json", "--tree", "json", "--trace", zebra],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 1, "one document a puzzle");
    let doc: Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(doc["verdict"], "unique");
    assert_eq!(doc["tree"]["format"], "bitfd-tree");
    assert_eq!(doc["tree"]["stats"]["nodes"], doc["statistics"]["nodes"]);
    let trace = doc["trace"].as_str().expect("the trace's text");
    let inline = run(&["solve", "--trace", zebra], None);
    assert!(inline.stdout.ends_with(trace));
    let dot = run(&["solve", "--json", "--tree", "dot", zebra], None);
    let doc: Value = serde_json::from_str(&dot.stdout).expect("JSON");
    assert_one_dot_graph(doc["tree"].as_str().expect("the DOT text"));
    // Streamed, the same.
    let all = run(&["solve", "--all", "--json", "--tree", "json", zebra], None);
    let doc: Value = serde_json::from_str(&all.stdout).expect("JSON");
    assert_eq!(doc["tree"]["stats"]["solutions"], 1);
    assert_eq!(doc["solutions"].as_array().map(Vec::len), Some(1));
}

/// A hard 9x9 board, with one solution (the first of Norvig's top95).
const HARD_SUDOKU: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// The empty 9x9 board: billions of solutions, a deep search for two.
const EMPTY_SUDOKU: &str =
    ".................................................................................";

#[test]
fn an_answer_a_limit_left_unknown_exits_with_3() {
    let oz = "examples/puzzles/oz.zebra";
    let limits: [&[&str]; 2] = [&["--node-limit", "2"], &["--time-limit", "0"]];
    for limit in limits {
        for mode in [&[][..], &["--count"], &["--all"], &["--max", "5"]] {
            let args = [&["solve"][..], mode, limit, &[oz]].concat();
            let r = run(&args, None);
            assert_eq!(r.code, 3, "{args:?}: {}", r.stderr);
            assert!(r.stdout.contains("unknown"), "{args:?}: {}", r.stdout);
        }
        let check = run(&[&["check"][..], limit, &[oz]].concat(), None);
        assert_eq!(check.code, 3, "{limit:?}");
        let sudoku = run(
            &[&["sudoku"][..], limit].concat(),
            Some(EMPTY_SUDOKU.as_bytes()),
        );
        assert_eq!(sudoku.code, 3, "{limit:?}: {}", sudoku.stdout);
        assert!(sudoku.stdout.starts_with("unknown ("), "{}", sudoku.stdout);
        let count = run(
            &[&["sudoku", "--count"][..], limit].concat(),
            Some(EMPTY_SUDOKU.as_bytes()),
        );
        assert_eq!(count.code, 3, "{limit:?}: {}", count.stdout);
    }
    // Answered: 0. An input error beside an unknown answer: 1.
    assert_eq!(run(&["solve", oz], None).code, 0);
    assert_eq!(run(&["sudoku"], Some(HARD_SUDOKU.as_bytes())).code, 0);
    let mixed = run(
        &[
            "solve",
            "--node-limit",
            "2",
            oz,
            "tests/bad/unknown_name.zebra",
        ],
        None,
    );
    assert_eq!(mixed.code, 1);
    // A limit that is not reached leaves a complete answer: 0.
    assert_eq!(run(&["solve", "--node-limit", "100000", oz], None).code, 0);
    let help = run(&["--help"], None);
    assert!(
        help.stdout
            .contains("3 a node or time limit left an answer unknown")
    );
    assert!(
        help.stdout
            .contains("for check a puzzle without exactly one solution")
    );
}

#[test]
fn an_empty_standard_input_is_an_error_that_says_so() {
    for args in [
        &["solve", "-"][..],
        &["check", "-"],
        &["solve", "--all", "-"],
        &["check", "--jsonl", "-"],
        &["sudoku"],
        &["minimize", "-", "--seed", "1"],
    ] {
        let r = run(args, Some(b""));
        assert_eq!(r.code, 1, "{args:?}");
        assert!(
            r.stderr.contains("standard input is empty"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn messages_name_the_problem_not_the_puzzle() {
    let max = run(
        &["solve", "--max", "0", "examples/puzzles/zebra.zebra"],
        None,
    );
    assert_eq!(max.code, 2);
    assert!(
        max.stderr.contains("--max 0 would show no solution"),
        "{}",
        max.stderr
    );
    assert!(!max.stderr.contains("18446744073709551615"));
    // A limit that stops minimize's first check blames the limit.
    let r = run(
        &[
            "minimize",
            "examples/puzzles/zebra.zebra",
            "--seed",
            "1",
            "--time-limit",
            "0",
        ],
        None,
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains("stopped at the time limit"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("not unique"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    // One board is one puzzle.
    let one = run(&["sudoku"], Some(HARD_SUDOKU.as_bytes()));
    let summary = one.stdout.lines().last().expect("a summary");
    assert!(summary.starts_with("1 puzzle: 1 unique,"), "{summary}");
    assert!(summary.ends_with(" puzzles/s per core"), "{summary}");
    // 101 errors: 100 shown, and one more counted in the singular.
    let mut text = String::from("houses 3\ncolor: red green blue\n");
    text.push_str(&"red = 9\n".repeat(101));
    let r = run(&["solve", "-"], Some(text.as_bytes()));
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("error: 1 more error in <stdin> not shown"),
        "{}",
        r.stderr
    );
}

/// Every command an `Examples:` line of a help text runs.
fn example_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Examples:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .flat_map(|l| l.split(['|', '&', ';', '>']).map(str::trim))
        .filter_map(|part| part.split_whitespace().next().map(str::to_owned))
        .collect()
}

#[test]
fn help_examples_run_only_commands_that_exist() {
    let subcommands = [
        "solve",
        "check",
        "sudoku",
        "minimize",
        "generate",
        "translate",
    ];
    let mut seen = 0;
    for command in [
        &[][..],
        &["solve"],
        &["check"],
        &["sudoku"],
        &["minimize"],
        &["generate"],
        &["translate"],
    ] {
        let help = run(&[command, &["--help"][..]].concat(), None).stdout;
        let mut lines = help.lines().skip_while(|l| *l != "Examples:").skip(1);
        while let Some(line) = lines.next().filter(|l| l.starts_with("  ")) {
            // A bitfd example runs a subcommand there is.
            for part in line.split('|').map(str::trim) {
                let mut words = part.split_whitespace();
                if words.next() == Some("bitfd") {
                    let sub = words.next().unwrap_or_default();
                    assert!(subcommands.contains(&sub), "{command:?}: {line}");
                    seen += 1;
                }
            }
        }
        for program in example_commands(&help) {
            // The file names redirections write to are not commands.
            let known = ["bitfd", "jq", "echo", "cat", "xargs", "new.zebra"];
            assert!(
                known.contains(&program.as_str()),
                "{command:?}: `{program}`"
            );
        }
    }
    assert!(seen > 15, "the examples were found");
}

#[test]
fn colliding_variable_names_are_numbered_as_documented() {
    // `x` is in groups a and c, so their variables are `a.x` and `c.x`; the
    // value `"a.x"` of c would be named `a.x` too, so it gets `#2`; the
    // value `"a.x#2"` of d would then collide with that, so it gets `#2`
    // in turn (docs/format.md, "The model names each value's variable").
    let text = "houses 3\na: x y z\nc: x \"a.x\" w\nd: \"a.x#2\" p q\n\
        a.x = 1\ny = 2\nc.x = 1\n\"a.x\" = 2\np = 1\n";
    let r = run(&["check", "--json", "-"], Some(text.as_bytes()));
    let doc: Value = serde_json::from_str(&r.stdout).expect("JSON");
    let witness = doc["witnesses"][0].as_object().expect("a witness");
    let mut names: Vec<&str> = witness.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["a.x", "a.x#2", "a.x#2#2", "c.x", "p", "q", "w", "y", "z"]
    );
    // `differences` names each cell's group and value, whatever its name.
    let cell = doc["differences"]
        .as_array()
        .expect("differences")
        .iter()
        .find(|d| d["variable"] == "a.x#2#2")
        .expect("the cell differs: only d's values are free");
    assert_eq!(
        (&cell["group"], &cell["value"]),
        (&Value::from("d"), &Value::from("a.x#2"))
    );
}

#[test]
fn an_invisible_character_gets_a_caret_at_its_place() {
    // `re` U+200B `d`: the character is at column 3 of line 3; it has no
    // width, so the caret goes under the `d` after it (column 3 on screen,
    // counting `re` as two).
    let input = "houses 2\ncolor: red blue\nre\u{200b}d = 1\n";
    let r = run(&["solve", "-"], Some(input.as_bytes()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("error[invisible-character]"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("U+200B (zero width space)"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(":3:3"), "{}", r.stderr);
    let caret = r
        .stderr
        .lines()
        .find(|l| l.contains('^'))
        .unwrap_or_else(|| panic!("no caret:\n{}", r.stderr));
    let source = r
        .stderr
        .lines()
        .find(|l| l.contains("= 1"))
        .expect("the source line");
    // The gutter (`3 │ `) is as wide on both lines; the caret is 2 columns
    // past where the source text starts.
    let text_start = source.find("re").expect("the text");
    let gutter: usize = source[..text_start].chars().count();
    let caret_at: usize = caret[..caret.find('^').expect("caret")].chars().count();
    assert_eq!(caret_at, gutter + 2, "{}", r.stderr);
}
