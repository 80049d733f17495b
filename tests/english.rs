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
        assert_eq!(grid.header.len(), header.len(), "{id}: columns");
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
    let mut read_by_reader = 0;
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
            // The reader reads the question itself where the header names
            // the column with the words of its list (`MusicGenre`); else
            // (`Food` for `something unique for lunch`) the column is the
            // header's.
            let with_question = format!("{}\n{text}\n", str_of(&p["text"]));
            let ask = match english::parse(&with_question) {
                Ok(q) => {
                    read_by_reader += 1;
                    q.asks()[0].clone()
                }
                Err(_) => puzzle::Ask {
                    question: Some(text.to_owned()),
                    target: puzzle::Target::House(house),
                    group: Some(column - 1), // column 0 is `House`
                },
            };
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
    eprintln!(
        "{asked} multiple-choice answers right, {read_by_reader} of the questions read by the reader"
    );
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
