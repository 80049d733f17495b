//! The English reader against the shared data: published ZebraLogic puzzles
//! solve from their text alone to their published grids, and every clue
//! sentence of the zebra data with a structured reading is read to that same
//! constraint. Expected values come from the data files only.

mod common;

use bitfd::puzzle::{self, Cmp, Operand, Puzzle, Relation, ValueRef, english};
use bitfd::{SearchOptions, Solver};
use common::load_json;
use common::zebra_text::{groups_text, quoted, str_of};
use serde_json::Value;

/// Every solution of a puzzle (the data puzzles are small).
fn solve(puzzle: &Puzzle) -> (puzzle::PuzzleModel, Vec<bitfd::Solution>) {
    let pm = puzzle.to_model();
    let outcome = Solver::new(pm.model()).all(&SearchOptions::default());
    (pm, outcome.solutions)
}

#[test]
fn every_zebralogic_dev_puzzle_solves_from_its_text_to_its_published_grid() {
    let data = load_json("english/zebralogic_dev.json");
    let puzzles = data["puzzles"].as_array().expect("puzzles");
    assert_eq!(puzzles.len(), 50);
    let mut failures = Vec::new();
    let mut solved = 0;
    for p in puzzles {
        let id = str_of(&p["id"]);
        let puzzle = match english::parse(str_of(&p["text"])) {
            Ok(puzzle) => puzzle,
            Err(e) => {
                failures.push(format!("{id}: {e}"));
                continue;
            }
        };
        let (pm, solutions) = solve(&puzzle);
        if solutions.len() != 1 {
            failures.push(format!("{id}: {} solutions", solutions.len()));
            continue;
        }
        let grid = english::AnswerGrid::new(&puzzle, &pm, &solutions[0]);
        let expected = &p["solution"];
        let header = expected["header"].as_array().expect("header");
        let rows = expected["rows"].as_array().expect("rows");
        // Graders look cells up by the column's name, as the published grid
        // names it.
        let names: Vec<&str> = header.iter().map(str_of).collect();
        if grid.header != names {
            failures.push(format!("{id}: columns {:?} are not {names:?}", grid.header));
            continue;
        }
        let mut same = grid.rows.len() == rows.len();
        for (got, want) in grid.rows.iter().zip(rows) {
            let want = want.as_array().expect("row");
            for (g, w) in got.iter().zip(want) {
                same &= g.eq_ignore_ascii_case(str_of(w));
            }
        }
        if !same {
            failures.push(format!("{id}: grid {:?} is not {rows:?}", grid.rows));
            continue;
        }
        solved += 1;
    }
    assert!(
        failures.is_empty(),
        "{solved}/50 solved; failures:\n{}",
        failures.join("\n")
    );
}

/// The multiple-choice questions: `What is <Header> of the person who lives
/// in House N?`. The column is the header's, the answer the value there.
#[test]
fn every_zebralogic_dev_multiple_choice_answer_comes_out_right() {
    let data = load_json("english/zebralogic_dev.json");
    let mut asked = 0;
    for p in data["puzzles"].as_array().expect("puzzles") {
        let id = str_of(&p["id"]);
        let puzzle = english::parse(str_of(&p["text"])).expect("reads");
        let (pm, solutions) = solve(&puzzle);
        assert_eq!(solutions.len(), 1, "{id}");
        let header: Vec<&str> = p["solution"]["header"]
            .as_array()
            .expect("header")
            .iter()
            .map(str_of)
            .collect();
        for q in p["questions"].as_array().expect("questions") {
            // Ask the reader the question, with the column named as the
            // puzzle's own header names it.
            let text = str_of(&q["question"]);
            let column = header
                .iter()
                .position(|h| text.contains(&format!("What is {h} of")))
                .expect("a question about a column");
            let house: u8 = text
                .rsplit("House ")
                .next()
                .and_then(|s| s.trim_end_matches('?').parse().ok())
                .expect("a house number");
            // The reader reads the question itself: the columns are named
            // as the header names them (`Food` for `something unique for
            // lunch`).
            let with_question = format!("{}\n{text}\n", str_of(&p["text"]));
            let ask = english::parse(&with_question)
                .unwrap_or_else(|e| panic!("{id}: {text}: {e}"))
                .asks()[0]
                .clone();
            assert_eq!(ask.target, puzzle::Target::House(house), "{id}: {text}");
            assert_eq!(ask.group, Some(column - 1), "{id}: {text}");
            let answer = puzzle::print::answer(&puzzle, &pm, &ask, &solutions[0]);
            let choices: Vec<&str> = q["choices"]
                .as_array()
                .expect("choices")
                .iter()
                .map(str_of)
                .collect();
            assert!(
                choices
                    .iter()
                    .any(|c| c.eq_ignore_ascii_case(&answer.answer)),
                "{id}: {text} answered {} is not a choice",
                answer.answer
            );
            assert!(
                answer.answer.eq_ignore_ascii_case(str_of(&q["answer"])),
                "{id}: {text}: {} is not {}",
                answer.answer,
                q["answer"]
            );
            asked += 1;
        }
    }
    assert!(asked >= 50, "only {asked} questions");
}

/// The `.zebra` frame (houses and groups) of a `zebra-1` puzzle object.
fn frame_text(p: &Value) -> String {
    format!("houses {}\n{}", p["houses"], groups_text(p))
}

fn value_of(puzzle: &Puzzle, v: &Value) -> ValueRef {
    let n = str_of(v);
    puzzle
        .lookup(n)
        .or_else(|| {
            // `group/value`: qualified in the data.
            let (g, v) = n.split_once('/')?;
            puzzle.lookup(&format!("{g}.{v}"))
        })
        .unwrap_or_else(|| panic!("{n} is a value"))
}

/// A relation in one canonical form, so that two ways of writing the same
/// constraint compare equal: symmetric relations with their values sorted,
/// `a > b` as `b < a`, `a = b - c` as `b = a + c`.
fn canonical(r: &Relation) -> Relation {
    match r.clone() {
        Relation::Same { a, b, offset } if offset < 0 || (offset == 0 && b < a) => Relation::Same {
            a: b,
            b: a,
            offset: -offset,
        },
        Relation::Differ { a, b } if b < a => Relation::Differ { a: b, b: a },
        Relation::Distance { a, b, distance } if b < a => Relation::Distance {
            a: b,
            b: a,
            distance,
        },
        Relation::NotDistance { a, b, distance } if b < a => Relation::NotDistance {
            a: b,
            b: a,
            distance,
        },
        Relation::Compare {
            left,
            op: Cmp::Gt,
            right,
        } => Relation::Compare {
            left: right,
            op: Cmp::Lt,
            right: left,
        },
        other => other,
    }
}

/// The structured reading of a data clue, as relations.
fn expected_relations(puzzle: &Puzzle, c: &Value) -> Vec<Relation> {
    if str_of(&c["kind"]) == "all" {
        return c["constraints"]
            .as_array()
            .expect("constraints")
            .iter()
            .flat_map(|x| expected_relations(puzzle, x))
            .collect();
    }
    let args = c["args"].as_array().expect("args");
    let v = |i: usize| value_of(puzzle, &args[i]);
    let int = |i: usize| args[i].as_i64().expect("a number");
    let r = match str_of(&c["kind"]) {
        "none" => return Vec::new(),
        "same" => Relation::Same {
            a: v(0),
            b: v(1),
            offset: 0,
        },
        "neq" => Relation::Differ { a: v(0), b: v(1) },
        "at" => Relation::At {
            a: v(0),
            house: int(1) as u8,
        },
        "not_at" => Relation::NotAt {
            a: v(0),
            house: int(1) as u8,
        },
        "in" => Relation::In {
            a: v(0),
            houses: args[1]
                .as_array()
                .expect("set")
                .iter()
                .map(|h| h.as_i64().expect("house") as u8)
                .collect(),
        },
        "offset" => Relation::Same {
            a: v(0),
            b: v(1),
            offset: int(2) as i8,
        },
        "distance" => Relation::Distance {
            a: v(0),
            b: v(1),
            distance: int(2) as u8,
        },
        "not_distance" => Relation::NotDistance {
            a: v(0),
            b: v(1),
            distance: int(2) as u8,
        },
        "less" => Relation::Compare {
            left: Operand::Value(v(0)),
            op: Cmp::Lt,
            right: Operand::Value(v(1)),
        },
        "between" => Relation::Between {
            low: Operand::Value(v(0)),
            mid: Operand::Value(v(1)),
            high: Operand::Value(v(2)),
        },
        other => panic!("unknown kind {other}"),
    };
    vec![r]
}

/// A derived variant changes one clue's reading but keeps its sentence:
/// there the sentence does not carry the clue. Its `change` names the clue
/// (`clue 7 reversed ...`); removed and added clues keep sentence and
/// reading together.
fn changed_clue(p: &Value) -> Option<i64> {
    let change = p["change"].as_str()?;
    if change.contains("removed") || change.contains("added") {
        return None;
    }
    change
        .strip_prefix("clue ")?
        .split(' ')
        .next()?
        .parse()
        .ok()
}

const ZEBRA_FILES: [&str; 6] = [
    "zebra/exercism.json",
    "zebra/rosetta.json",
    "zebra/reasoning_gym.json",
    "zebra/zebralogic_example.json",
    "zebra/mozart_oz.json",
    "zebra/derived_variants.json",
];

#[test]
fn every_structured_data_sentence_reads_to_its_own_constraint() {
    let mut read = 0;
    let mut failures = Vec::new();
    for file in ZEBRA_FILES {
        let data = load_json(file);
        for p in data["puzzles"].as_array().expect("puzzles") {
            let id = str_of(&p["id"]);
            let frame = puzzle::parse(&frame_text(p)).expect("the frame parses");
            for c in p["clues"].as_array().expect("clues") {
                if str_of(&c["kind"]) == "none" || changed_clue(p) == c["n"].as_i64() {
                    continue;
                }
                let sentence = str_of(&c["text"]);
                let mut want: Vec<Relation> = expected_relations(&frame, c)
                    .iter()
                    .map(canonical)
                    .collect();
                want.sort_by_key(|r| format!("{r:?}"));
                match english::read_sentence(&frame, sentence) {
                    Ok(got) => {
                        let mut got: Vec<Relation> = got.iter().map(canonical).collect();
                        got.sort_by_key(|r| format!("{r:?}"));
                        if got == want {
                            read += 1;
                        } else {
                            let show = |rs: &[Relation]| {
                                rs.iter()
                                    .map(|r| frame.relation_text(r))
                                    .collect::<Vec<_>>()
                                    .join("; ")
                            };
                            failures.push(format!(
                                "{id}: {sentence:?}: read {} not {}",
                                show(&got),
                                show(&want)
                            ));
                        }
                    }
                    Err(e) => failures.push(format!("{id}: {sentence:?}: {e}")),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{read} read right; failures:\n{}",
        failures.join("\n")
    );
    assert!(read > 150, "only {read} sentences");
}

#[test]
fn every_data_puzzle_rebuilt_from_groups_and_sentences_has_its_stated_solutions() {
    let mut checked = 0;
    for file in ZEBRA_FILES {
        let data = load_json(file);
        for p in data["puzzles"].as_array().expect("puzzles") {
            let id = str_of(&p["id"]);
            if changed_clue(p).is_some() {
                continue;
            }
            // The frame, then every sentence alone on its line: the `.zebra`
            // reader hands sentence-only lines to the English reader.
            let mut text = frame_text(p);
            for c in p["clues"].as_array().expect("clues") {
                text.push_str(&quoted(str_of(&c["text"])));
                text.push('\n');
            }
            let puzzle = puzzle::parse(&text).unwrap_or_else(|e| panic!("{id}: {e}\n{text}"));
            let (pm, solutions) = solve(&puzzle);
            let expected = &p["expected"];
            let count = expected["solutions_computed"]
                .as_u64()
                .or_else(|| expected["solutions"].as_u64())
                .expect("an exact count");
            assert_eq!(solutions.len() as u64, count, "{id}");
            if let Some(stated) = expected["solution"].as_object() {
                assert_eq!(count, 1, "{id}");
                for (value, house) in stated {
                    let v = value_of(&puzzle, &Value::String(value.clone()));
                    assert_eq!(
                        i64::from(pm.house(&solutions[0], v)),
                        house.as_i64().expect("a house"),
                        "{id}: {value}"
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 14, "only {checked} puzzles");
    eprintln!("{checked} data puzzles rebuilt from their sentences");
}

/// The command line on English input: `.txt` files, `--from english`,
/// `translate`, and the graders' grid in `solve --json`.
#[cfg(feature = "cli")]
mod cli {
    use super::common::cli::run;
    use super::*;

    /// The reasoning-gym example's published answer is `bob` (source: its
    /// gallery, as in ../shared/data/zebra/reasoning_gym.json).
    #[test]
    fn solve_json_on_a_txt_file_gives_the_graders_grid_and_the_answer() {
        let data = load_json("zebra/reasoning_gym.json");
        let stated = &data["puzzles"][0]["questions"][0];
        let r = run(
            &["solve", "--json", "examples/puzzles/reasoning-gym.txt"],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let doc: Value = serde_json::from_str(&r.stdout).expect("JSON");
        let solution = &doc["solutions"][0];
        assert_eq!(solution["answers"][0]["answer"], stated["answer"]);
        let table = &solution["table"];
        assert_eq!(table["header"][0], "House");
        let row1 = table["rows"][0].as_array().expect("a row");
        assert_eq!(row1[0], "1");
        assert_eq!(row1[1], stated["answer"]);
        // Every value of the data's solution is in its stated house.
        let expected = data["puzzles"][0]["expected"]["solution"]
            .as_object()
            .expect("a solution");
        for (value, house) in expected {
            let h = house.as_u64().expect("a house") as usize;
            let row = table["rows"][h - 1].as_array().expect("a row");
            assert!(row.iter().any(|c| c == value), "{value} not in house {h}");
        }
    }

    #[test]
    fn generate_english_writes_json_lines_whose_text_reads_back_to_their_solution() {
        for style in ["zebralogic", "reasoning-gym", "classic"] {
            let args = [
                "generate",
                "--english",
                "--style",
                style,
                "--houses",
                "5",
                "--groups",
                "4",
                "--seed",
                "3",
                "--count",
                "3",
                "--jobs",
                "2",
            ];
            let r = run(&args, None);
            assert_eq!(r.code, 0, "{}", r.stderr);
            assert_eq!(r.stdout, run(&args, None).stdout, "byte-stable");
            let lines: Vec<&str> = r.stdout.lines().collect();
            assert_eq!(lines.len(), 3);
            for (k, line) in lines.iter().enumerate() {
                let doc: Value = serde_json::from_str(line).expect("a JSON line");
                assert_eq!(doc["id"], format!("gen-5x4-seed{}", 3 + k));
                assert_eq!(doc["size"], "5*4");
                assert_eq!(doc["seed"], 3 + k as u64);
                let p = english::parse(str_of(&doc["text"])).expect("the text reads");
                let (pm, solutions) = solve(&p);
                assert_eq!(solutions.len(), 1);
                let grid = english::AnswerGrid::new(&p, &pm, &solutions[0]);
                assert_eq!(
                    serde_json::to_value(&grid.rows).expect("rows"),
                    doc["solution"]["rows"]
                );
                assert!(doc["rating"]["nodes"].as_u64().expect("nodes") >= 1);
            }
        }
    }

    /// The kind of a relation read back from a generated sentence, as
    /// `--kinds` names it (written here from the kinds' definitions, not
    /// from the generator's code).
    fn kind_name(r: &Relation) -> &'static str {
        match r {
            Relation::Same { offset: 0, .. } => "same",
            Relation::Same { offset: 1 | -1, .. } => "directly-left",
            Relation::At { .. } => "at",
            Relation::NotAt { .. } => "not-at",
            Relation::Distance { distance: 1, .. } => "next-to",
            Relation::Distance { distance: 2, .. } => "one-between",
            Relation::Distance { distance: 3, .. } => "two-between",
            Relation::Compare {
                left: Operand::Value(_),
                op: Cmp::Lt | Cmp::Gt,
                right: Operand::Value(_),
            } => "left-of",
            Relation::Differ { .. } => "not-same",
            other => panic!("a relation no kind writes: {other:?}"),
        }
    }

    #[test]
    fn generate_controls_keep_to_the_kinds_and_the_difficulty_range_on_any_thread_count() {
        let allowed = ["at", "next-to", "same", "left-of"];
        let kinds = allowed.join(",");
        for (style, guessing, min_nodes, max_nodes) in [
            ("zebralogic", "yes", 3, 40),
            ("classic", "no", 0, 1_000_000),
        ] {
            let args = |jobs: &'static str| {
                vec![
                    "generate".to_owned(),
                    "--english".to_owned(),
                    "--style".to_owned(),
                    style.to_owned(),
                    "--houses".to_owned(),
                    "5".to_owned(),
                    "--groups".to_owned(),
                    "4".to_owned(),
                    "--seed".to_owned(),
                    "7".to_owned(),
                    "--count".to_owned(),
                    "6".to_owned(),
                    "--kinds".to_owned(),
                    kinds.clone(),
                    "--min-nodes".to_owned(),
                    min_nodes.to_string(),
                    "--max-nodes".to_owned(),
                    max_nodes.to_string(),
                    "--guessing".to_owned(),
                    guessing.to_owned(),
                    "--jobs".to_owned(),
                    jobs.to_owned(),
                ]
            };
            fn as_strs(v: &[String]) -> Vec<&str> {
                v.iter().map(String::as_str).collect()
            }
            let one = run(&as_strs(&args("1")), None);
            assert_eq!(one.code, 0, "{}", one.stderr);
            let two = run(&as_strs(&args("2")), None);
            assert_eq!(one.stdout, two.stdout, "the same bytes with -j1 and -j2");
            let lines: Vec<&str> = one.stdout.lines().collect();
            assert_eq!(lines.len(), 6);
            for line in lines {
                let doc: Value = serde_json::from_str(line).expect("a JSON line");
                let p = english::parse(str_of(&doc["text"])).expect("the text reads");
                for c in p.clues() {
                    let k = kind_name(&c.relation);
                    assert!(allowed.contains(&k), "{k}: {:?}", c.label);
                }
                // The rating, computed again from the text, lies in the range.
                let rating = Solver::new(p.to_model().model()).rate();
                assert!(
                    (min_nodes..=max_nodes).contains(&rating.nodes),
                    "{} nodes",
                    rating.nodes
                );
                assert_eq!(rating.propagation_only, guessing == "no");
                assert_eq!(doc["rating"]["nodes"], rating.nodes);
                assert_eq!(doc["rating"]["failures"], rating.failures);
                assert_eq!(doc["rating"]["needsGuessing"], guessing == "yes");
            }
        }
    }

    #[test]
    fn generate_controls_that_cannot_be_met_are_errors_not_hangs() {
        let base = ["generate", "--houses", "4", "--groups", "3", "--seed", "1"];
        // `same` and `not-same` say nothing of positions.
        let r = run(&[&base[..], &["--kinds", "same,not-same"]].concat(), None);
        assert_ne!(r.code, 0);
        assert!(
            r.stderr.contains("cannot make the solution unique"),
            "{}",
            r.stderr
        );
        let r = run(&[&base[..], &["--kinds", "at,sideways"]].concat(), None);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr.contains("`sideways` is not a clue kind"),
            "{}",
            r.stderr
        );
        let r = run(
            &[&base[..], &["--min-nodes", "9", "--max-nodes", "3"]].concat(),
            None,
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        // No 4x3 puzzle needs a million nodes: every attempt is rejected.
        let r = run(
            &[&base[..], &["--min-nodes", "1000000", "--attempts", "5"]].concat(),
            None,
        );
        assert_ne!(r.code, 0);
        assert!(r.stderr.contains("none of 5 puzzles"), "{}", r.stderr);
    }

    #[test]
    fn generate_english_out_writes_one_json_file_a_puzzle() {
        let dir = std::env::temp_dir().join(format!("bitfd-english-out-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let dir_s = dir.to_str().expect("a UTF-8 path");
        let r = run(
            &[
                "generate",
                "--english",
                "--houses",
                "3",
                "--groups",
                "2",
                "--seed",
                "5",
                "--count",
                "3",
                "--out",
                dir_s,
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        for seed in 5..8 {
            let path = dir.join(format!("gen-3x2-seed{seed}.json"));
            let text = std::fs::read_to_string(&path).expect("the file");
            let doc: Value = serde_json::from_str(&text).expect("one JSON document");
            assert_eq!(doc["seed"], seed);
            assert_eq!(doc["size"], "3*2");
            assert!(r.stdout.contains(path.to_str().expect("UTF-8")));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn from_english_reads_standard_input_and_zebra_stays_the_default() {
        let text = std::fs::read("examples/puzzles/zebralogic-example.txt").expect("example");
        let r = run(&["solve", "--from", "english", "-"], Some(&text));
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains("Arnold  Peter  Eric"), "{}", r.stdout);
        let r = run(&["solve", "-"], Some(&text));
        assert_eq!(r.code, 1, "stdin is .zebra unless --from says otherwise");
    }

    #[test]
    fn translate_prints_zebra_text_that_reads_back_to_the_same_puzzle() {
        for file in [
            "examples/puzzles/classic.txt",
            "examples/puzzles/reasoning-gym.txt",
        ] {
            let r = run(&["translate", file], None);
            assert_eq!(r.code, 0, "{}", r.stderr);
            let english =
                english::parse(&std::fs::read_to_string(file).expect("example")).expect("reads");
            let zebra = puzzle::parse(&r.stdout).expect("the translation parses");
            assert_eq!(zebra, english, "{file}");
            assert!(
                r.stdout
                    .contains("\"The Norwegian lives in the first house.\" Norwegian = 1")
                    || !file.contains("classic")
            );
        }
    }

    #[test]
    fn an_unreadable_sentence_is_an_error_with_its_line_and_the_words_not_placed() {
        let text = "There are 2 houses.\n- Names: Eric, Arnold\n- Drinks: tea, milk\n\n1. Eric whistles.\n";
        let r = run(&["check", "--from", "english", "-"], Some(text.as_bytes()));
        assert_eq!(r.code, 1);
        assert!(
            r.stderr.contains("error[unreadable-sentence]"),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains(":5:4"), "{}", r.stderr);
        assert!(r.stderr.contains("`whistles`"), "{}", r.stderr);
    }

    #[test]
    fn check_json_on_an_english_puzzle_that_is_not_unique_names_the_differing_cells() {
        // The ZebraLogic example without its clue 3: Eric may drink milk or
        // tea, so two grids are left.
        let text = std::fs::read_to_string("examples/puzzles/zebralogic-example.txt")
            .expect("example")
            .replace(
                "3. The one who only drinks water is directly left of the person who likes milk.\n",
                "",
            );
        let r = run(
            &["check", "--json", "--from", "english", "-"],
            Some(text.as_bytes()),
        );
        assert_eq!(r.code, 1);
        let doc: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
        let differences = doc["differences"].as_array().expect("differences");
        assert!(!differences.is_empty(), "{doc}");
    }
}

/// Hostile text gets a diagnostic or a puzzle, never a panic: random
/// characters, and the example puzzles with words cut, doubled and swapped.
mod hostile {
    use super::*;
    use proptest::prelude::*;

    const EXAMPLES: [&str; 3] = [
        include_str!("../examples/puzzles/classic.txt"),
        include_str!("../examples/puzzles/reasoning-gym.txt"),
        include_str!("../examples/puzzles/zebralogic-example.txt"),
    ];

    /// Builds the model of whatever reads, so the puzzle's invariants are
    /// exercised too (the model builder asserts them).
    fn read(text: &str) {
        if let Ok(p) = english::parse(text) {
            let pm = p.to_model();
            let options = SearchOptions::default().node_limit(200);
            Solver::new(pm.model()).count(&options);
            // The .zebra form of what was read reads back the same.
            assert_eq!(puzzle::parse(&p.to_string()).as_ref(), Ok(&p));
        }
    }

    proptest! {
        #[test]
        fn random_text_never_panics(text in "(?s).{0,400}") {
            read(&text);
        }

        #[test]
        fn mutated_examples_never_panic(
            which in 0usize..3,
            edits in proptest::collection::vec((0usize..4000, 0usize..4, "[ a-zA-Z0-9`,.:?'\u{2019}\u{130}-]{0,12}"), 1..6),
        ) {
            let mut text = EXAMPLES[which].to_owned();
            for (at, op, insert) in edits {
                let mut at = at % (text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                match op {
                    0 => text.insert_str(at, &insert),
                    1 => {
                        let mut end = (at + insert.len()).min(text.len());
                        while !text.is_char_boundary(end) {
                            end += 1;
                        }
                        text.replace_range(at..end, "");
                    }
                    2 => {
                        let piece: String = text[at..].chars().take(20).collect();
                        text.insert_str(at, &piece);
                    }
                    _ => text.insert_str(at, "\n12. "),
                }
            }
            read(&text);
        }
    }

    #[test]
    fn a_count_between_houses_is_not_the_number_of_houses() {
        let text = "- Names: Eric, Arnold, Peter, Bob\n\n1. There are two houses between Eric and Bob.\n2. Arnold is in the second house.\n";
        let p = english::parse(text).expect("reads");
        assert_eq!(
            p.houses(),
            4,
            "from the lists, not from `two houses between`"
        );
        let text = "- Names: Eric, Arnold, Peter\n\n1. There are three houses.\n2. Eric is in the first house.\n";
        assert_eq!(english::parse(text).expect("reads").houses(), 3);
    }

    #[test]
    fn limits_give_diagnostics() {
        let long = format!(
            "There are 2 houses.\n- Names: a, b\n1. {}\n",
            "word ".repeat(5000)
        );
        let e = english::parse(&long).unwrap_err();
        assert_eq!(e.diagnostics()[0].kind, puzzle::ErrorKind::LineTooLong);
        let big = "x".repeat(puzzle::MAX_SOURCE_BYTES + 1);
        let e = english::parse(&big).unwrap_err();
        assert_eq!(e.diagnostics()[0].kind, puzzle::ErrorKind::FileTooLarge);
        let many = "There are 99 houses.\n- Names: a, b\n";
        let e = english::parse(many).unwrap_err();
        assert_eq!(e.diagnostics()[0].kind, puzzle::ErrorKind::OutOfRange);
        // Characters the .zebra form cannot quote.
        for bad in ['\u{1}', '\u{200B}'] {
            let text =
                format!("There are 2 houses.\n- Names: a, b\n1. a is in the first{bad} house.\n");
            let e = english::parse(&text).unwrap_err();
            assert!(
                matches!(
                    e.diagnostics()[0].kind,
                    puzzle::ErrorKind::UnexpectedCharacter | puzzle::ErrorKind::InvisibleCharacter
                ),
                "{e}"
            );
        }
        // A group named from a description whose words carry characters
        // that draw as nothing (the fuzzer's find: a combining grapheme
        // joiner): the name leaves them out, so the `.zebra` form, which
        // refuses them, reads back the same puzzle.
        for bad in ['\u{34F}', '\u{200B}', '\u{AD}'] {
            let text = format!("There are 2 houses.\n- Each person has a pla{bad}net: a, b\n");
            let p = english::parse(&text).expect("reads");
            // (A zero-width space breaks the word: `PlaNet`.)
            let name = &p.groups()[0].name;
            assert!(
                name.starts_with("Pla") && name.chars().all(|c| c.is_ascii_alphabetic()),
                "{bad:?} in {name:?}"
            );
            let again = puzzle::parse(&p.to_string()).expect("its translation parses");
            assert_eq!(again, p);
        }
        // A list with more values than houses.
        let e = english::parse("There are 2 houses.\n- Names: a, b, c\n").unwrap_err();
        assert_eq!(e.diagnostics()[0].kind, puzzle::ErrorKind::GroupTooLarge);
        // A name in two groups that nothing around it settles.
        let text = "There are 2 houses.\n- Pets: cat, dog\n- Toys: cat, ball\n1. The cat is in the first house.\n";
        let e = english::parse(text).unwrap_err();
        assert_eq!(e.diagnostics()[0].kind, puzzle::ErrorKind::AmbiguousName);
        // ... and one the words settle.
        let text = "There are 2 houses.\n- Each person has a pet: cat, dog\n- Each person has a toy: cat, ball\n1. The toy cat is in the first house.\n";
        let p = english::parse(text).expect("the word `toy` says which");
        assert_eq!(p.relation_text(&p.clues()[0].relation), "Toy.cat = 1");
    }
}

/// The phrasings docs/english.md lists, each read to its relation.
#[test]
fn every_documented_phrasing_reads_to_its_relation() {
    let frame = puzzle::parse("houses 5\nname: X Y P Q Eric\ncolor: red green blue white yellow\n")
        .expect("frame");
    let cases = [
        ("X is Y.", "X = Y"),
        ("X is the red one.", "X = red"),
        ("X lives in the red house.", "X = red"),
        ("X is not the red one.", "X != red"),
        ("X and red live in different houses.", "X != red"),
        ("X is in the third house.", "X = 3"),
        ("X is in house 3.", "X = 3"),
        ("X is in the middle house.", "X = 3"),
        ("X lives on the top floor.", "X = 5"),
        ("X is not in the first house.", "X != 1"),
        ("X lives at one of the ends.", "X in {1, 5}"),
        ("X is in the first or the last house.", "X in {1, 5}"),
        (
            "X does not live on either the top or the bottom floor.",
            "X != 1; X != 5",
        ),
        ("X is directly left of red.", "red = X + 1"),
        ("X is immediately to the right of red.", "X = red + 1"),
        ("X is right after red.", "X = red + 1"),
        ("X is somewhere to the left of red.", "X < red"),
        ("X comes before red.", "X < red"),
        ("X lives on a lower floor than red.", "X < red"),
        ("X is somewhere to the right of red.", "X > red"),
        ("X comes after red.", "X > red"),
        ("X lives on a higher floor than does red.", "X > red"),
        ("X and red are next to each other.", "|X - red| = 1"),
        ("X lives next to red.", "|X - red| = 1"),
        ("X's floor is adjacent to red's.", "|X - red| = 1"),
        ("X does not live next to red.", "|X - red| != 1"),
        ("There is one house between X and red.", "|X - red| = 2"),
        ("There are two houses between X and red.", "|X - red| = 3"),
        (
            "X is somewhere between P and Q, in that order.",
            "P < X < Q",
        ),
        ("There are five houses.", ""),
        ("X, Y, P, Q and Eric live in different houses.", ""),
    ];
    for (sentence, want) in cases {
        let got =
            english::read_sentence(&frame, sentence).unwrap_or_else(|e| panic!("{sentence}: {e}"));
        let got: Vec<String> = got.iter().map(|r| frame.relation_text(r)).collect();
        assert_eq!(got.join("; "), want, "{sentence}");
    }
}

/// English out and back: a generated puzzle written in each style reads
/// back to a puzzle with the same unique solution. `BITFD_ROUND_TRIPS`
/// sets how many puzzles (the default keeps the test quick).
#[test]
fn generated_puzzles_written_in_english_read_back_to_the_same_unique_solution() {
    use bitfd::generate::{GenerateOptions, generate};
    let total: usize = std::env::var("BITFD_ROUND_TRIPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let styles = [
        english::Style::ZebraLogic,
        english::Style::ReasoningGym,
        english::Style::Classic,
    ];
    let mut done = 0;
    let mut seed = 0u64;
    while done < total {
        seed += 1;
        let houses = 2 + (seed % 7) as u8; // 2 to 8
        let groups = 1 + ((seed / 7) % 8) as usize; // 1 to 8
        let style = styles[(seed % 3) as usize];
        let g = generate(&GenerateOptions {
            houses,
            groups,
            seed,
        })
        .expect("a size in range");
        let text = english::write(&g.puzzle, style).expect("generated clues have sentences");
        let back =
            english::parse(&text).unwrap_or_else(|e| panic!("seed {seed} {style:?}: {e}\n{text}"));
        assert_eq!(
            back.clues().len(),
            g.puzzle.clues().len(),
            "seed {seed}\n{text}"
        );
        // The columns keep the generator's names (capitalized, as its JSON
        // lines' solutions write them).
        let names = |p: &Puzzle| -> Vec<String> {
            p.groups().iter().map(|g| g.name.to_lowercase()).collect()
        };
        assert_eq!(
            names(&back),
            names(&g.puzzle),
            "seed {seed} {style:?}\n{text}"
        );
        assert_eq!(
            back.asks().len(),
            g.puzzle.asks().len(),
            "seed {seed}\n{text}"
        );
        for (a, b) in back.asks().iter().zip(g.puzzle.asks()) {
            assert_eq!(
                (a.target, a.group),
                (b.target, b.group),
                "seed {seed}\n{text}"
            );
        }
        // The clues read back to the relations written, in order.
        for (a, b) in back.clues().iter().zip(g.puzzle.clues()) {
            assert_eq!(
                canonical(&a.relation),
                canonical(&b.relation),
                "seed {seed}\n{text}"
            );
        }
        let (pm, solutions) = solve(&back);
        assert_eq!(solutions.len(), 1, "seed {seed} {style:?}\n{text}");
        for (gi, group) in back.groups().iter().enumerate() {
            for v in 0..group.values.len() {
                let house = pm.house(
                    &solutions[0],
                    ValueRef {
                        group: gi,
                        value: v,
                    },
                );
                assert_eq!(house, g.solution[gi][v], "seed {seed}: {}", group.values[v]);
            }
        }
        done += 1;
    }
    eprintln!("{done} generated puzzles read back to their unique solution");
}

/// English out and back on random puzzles, not only generated ones: random
/// groups and random clues of every kind the writer phrases (true or not,
/// so a puzzle may have no solution or many), written in every style, read
/// back to the same relations in order and to the same verdict (none,
/// several, or one solution, and then the same one).
mod random_round_trip {
    use super::*;
    use bitfd::check::Uniqueness;
    use proptest::prelude::*;

    const GROUPS: [(&str, [&str; 6]); 4] = [
        (
            "color",
            ["red", "green", "blue", "ivory", "yellow", "white"],
        ),
        ("pet", ["dog", "cat", "fox", "zebra", "snail", "horse"]),
        (
            "drink",
            ["tea", "milk", "coffee", "juice", "water", "cocoa"],
        ),
        (
            "flower",
            ["tulip", "lily", "rose", "daisy", "iris", "orchid"],
        ),
    ];

    /// One clue as `.zebra` text: `kind` picks the relation, `x`, `y`, `z`
    /// pick values (made distinct), `h` a house, `d` a distance.
    fn clue(
        names: &[&str],
        n: u8,
        (kind, x, y, z, h, d): (u8, usize, usize, usize, u8, u8),
    ) -> String {
        let k = names.len();
        let a = names[x % k];
        let b = names[(x + 1 + y % (k - 1)) % k];
        let h = 1 + h % n;
        let d = 1 + d % (n - 1);
        match kind % 12 {
            0 => format!("{a} = {h}"),
            1 => format!("{a} != {h}"),
            2 => format!("{a} = {b}"),
            3 => format!("{a} != {b}"),
            4 => format!("{a} = {b} + 1"),
            5 => format!("{a} = {b} - 1"),
            6 => format!("|{a} - {b}| = {d}"),
            7 => format!("|{a} - {b}| != {d}"),
            8 => format!("{a} < {b}"),
            9 => format!("{a} > {b}"),
            10 => format!("{a} in {{1, {n}}}"),
            _ => {
                // Three distinct values: `a < c < b`.
                let c = (0..k)
                    .map(|i| names[(x + 2 + z + i) % k])
                    .find(|c| *c != a && *c != b)
                    .unwrap_or(a);
                if c == a {
                    format!("{a} != {b}")
                } else {
                    format!("{a} < {c} < {b}")
                }
            }
        }
    }

    fn verdict(p: &Puzzle) -> (&'static str, Vec<Vec<u8>>) {
        let pm = p.to_model();
        // Contradictory random clues can take a long search to refute: a
        // node limit keeps each case short. Both sides hold the same
        // constraints, so a cut-short search is cut short on both.
        let options = SearchOptions::default().node_limit(3000);
        match Solver::new(pm.model()).uniqueness(&options) {
            Uniqueness::Unique(s) => {
                let houses = p
                    .groups()
                    .iter()
                    .enumerate()
                    .map(|(g, group)| {
                        (0..group.values.len())
                            .map(|v| pm.house(&s, ValueRef { group: g, value: v }))
                            .collect()
                    })
                    .collect();
                ("unique", houses)
            }
            Uniqueness::None { .. } => ("none", Vec::new()),
            Uniqueness::Several { .. } => ("several", Vec::new()),
            Uniqueness::Unknown { .. } => ("unknown", Vec::new()),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]
        #[test]
        fn random_puzzles_in_every_style_read_back_to_the_same_relations_and_verdict(
            n in 2u8..=6,
            m in 1usize..=4,
            clues in proptest::collection::vec(
                (any::<u8>(), any::<usize>(), any::<usize>(), any::<usize>(), any::<u8>(), any::<u8>()),
                0..14,
            ),
        ) {
            let mut text = format!("houses {n}\n");
            let mut names = Vec::new();
            for (group, values) in &GROUPS[..m] {
                let values = &values[..usize::from(n)];
                text.push_str(&format!("{group}: {}\n", values.join(" ")));
                names.extend_from_slice(values);
            }
            for c in &clues {
                text.push_str(&clue(&names, n, *c));
                text.push('\n');
            }
            let p = puzzle::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let want = verdict(&p);
            for style in [english::Style::ZebraLogic, english::Style::ReasoningGym, english::Style::Classic] {
                let english_text = english::write(&p, style)
                    .unwrap_or_else(|e| panic!("{style:?}: {e}\n{text}"));
                let back = english::parse(&english_text)
                    .unwrap_or_else(|e| panic!("{style:?}: {e}\n{english_text}"));
                let got: Vec<Relation> = back.clues().iter().map(|c| canonical(&c.relation)).collect();
                let sent: Vec<Relation> = p.clues().iter().map(|c| canonical(&c.relation)).collect();
                prop_assert_eq!(got, sent, "{:?}\n{}", style, english_text);
                prop_assert_eq!(verdict(&back), want.clone(), "{:?}\n{}", style, english_text);
            }
        }
    }
}
