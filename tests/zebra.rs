//! The zebra puzzles of `../shared/data/zebra/`: counts, answers and the Oz
//! tutorial's search tree, all against the values stated in the data files;
//! and the hand-built classic zebra of `examples/zebra.rs`.

mod common;

#[path = "../examples/zebra.rs"]
#[allow(dead_code, reason = "the example's `main` is not called here")]
mod classic;

use bitfd::{Mode, Outcome, SearchOptions, SearchStatus, Solution, Solver, Strength};
use bitfd::{ValueOrder, VarOrder};
use common::{ExpectedCount, ZebraSettings, data_dir, load_json, zebra_model};
use serde_json::{Value, json};

fn oz_puzzle() -> Value {
    load_json("zebra/mozart_oz.json")["puzzles"][0].clone()
}

#[test]
fn oz_semantics_give_the_tutorials_33_nodes() {
    let puzzle = oz_puzzle();
    let expected = &puzzle["reproducing_33_nodes"]["result"];
    let settings = ZebraSettings {
        strength: Strength::Value,
        each_value_held: false,
        alphabetical: true,
    };
    let zebra = zebra_model(&puzzle, settings);
    let outcome = Solver::new(&zebra.model).all(&SearchOptions::default());
    assert_eq!(
        outcome.stats.nodes,
        puzzle["expected"]["search_tree_nodes"].as_u64().expect("n")
    );
    assert_eq!(
        outcome.stats.choices,
        expected["choice"].as_u64().expect("n")
    );
    assert_eq!(
        outcome.stats.failures,
        expected["failed"].as_u64().expect("n")
    );
    assert_eq!(
        outcome.stats.solutions,
        expected["solved"].as_u64().expect("n")
    );
}

#[test]
fn oz_variants_match_the_data_files_comparison_counts() {
    let puzzle = oz_puzzle();
    let others = &puzzle["reproducing_33_nodes"]["other_settings_for_comparison"];
    let cases = [
        (
            "value-distinct, ties by group order as written",
            Strength::Value,
            false,
        ),
        (
            "domain-consistent all-different, alphabetical ties",
            Strength::Domain,
            true,
        ),
        (
            "domain-consistent all-different, ties by group order",
            Strength::Domain,
            false,
        ),
    ];
    for (key, strength, alphabetical) in cases {
        let settings = ZebraSettings {
            strength,
            each_value_held: false,
            alphabetical,
        };
        let zebra = zebra_model(&puzzle, settings);
        let outcome = Solver::new(&zebra.model).all(&SearchOptions::default());
        let want = &others[key];
        assert_eq!(
            outcome.stats.nodes,
            want["nodes"].as_u64().expect("n"),
            "{key}"
        );
        assert_eq!(
            outcome.stats.choices,
            want["choice"].as_u64().expect("n"),
            "{key}"
        );
        assert_eq!(
            outcome.stats.failures,
            want["failed"].as_u64().expect("n"),
            "{key}"
        );
    }
}

#[test]
fn oz_solution_is_the_tutorials_record() {
    let puzzle = oz_puzzle();
    let zebra = zebra_model(&puzzle, ZebraSettings::default());
    let outcome = Solver::new(&zebra.model).solve(&SearchOptions::default(), Mode::All);
    assert_eq!(outcome.solutions.len(), 1);
    let solution = &outcome.solutions[0];
    for (name, house) in puzzle["expected"]["solution"].as_object().expect("record") {
        assert_eq!(
            solution.value_of(name).map(u64::from),
            house.as_u64(),
            "{name}"
        );
    }
}

/// Every puzzle of every `zebra/*.json` file, with its file name, in file
/// name order.
fn data_puzzles() -> Vec<(String, Value)> {
    let mut files: Vec<String> = std::fs::read_dir(data_dir().join("zebra"))
        .expect("the zebra data folder")
        .map(|entry| entry.expect("a folder entry").file_name())
        .filter_map(|name| name.to_str().map(str::to_owned))
        .filter(|name| name.ends_with(".json"))
        .collect();
    files.sort();
    let mut puzzles = Vec::new();
    for file in files {
        let data = load_json(&format!("zebra/{file}"));
        assert_eq!(data["format"], "bitfd-test-data/zebra-1", "{file}");
        for puzzle in data["puzzles"].as_array().expect("puzzles") {
            puzzles.push((file.clone(), puzzle.clone()));
        }
    }
    puzzles
}

/// The model settings the counts must agree under: the default (domain
/// all-different with each-value-held), Oz's value all-different without
/// it, and the two mixes.
fn settings() -> Vec<(&'static str, ZebraSettings)> {
    let with = |strength, each_value_held| ZebraSettings {
        strength,
        each_value_held,
        alphabetical: false,
    };
    vec![
        ("domain + each-value-held", with(Strength::Domain, true)),
        ("value, no each-value-held", with(Strength::Value, false)),
        ("value + each-value-held", with(Strength::Value, true)),
        ("domain, no each-value-held", with(Strength::Domain, false)),
    ]
}

fn id(puzzle: &Value) -> &str {
    puzzle["id"].as_str().expect("id")
}

fn expected_count(puzzle: &Value) -> ExpectedCount {
    ExpectedCount::of_expected(&puzzle["expected"])
        .unwrap_or_else(|| panic!("{}: no expected count", id(puzzle)))
}

/// Searches for the expected number of solutions: all of them for an exact
/// count, the first `n` for a capped one.
fn solve_expected(
    puzzle: &Value,
    settings: ZebraSettings,
    options: &SearchOptions,
) -> (common::Zebra, Outcome) {
    let zebra = zebra_model(puzzle, settings);
    let mode = match expected_count(puzzle) {
        ExpectedCount::Exact(_) => Mode::All,
        ExpectedCount::AtLeast(n) => Mode::AtMost(n),
    };
    let outcome = Solver::new(&zebra.model).solve(options, mode);
    (zebra, outcome)
}

/// The house of `name` in `solution`.
fn house(solution: &Solution, name: &str) -> i64 {
    i64::from(
        solution
            .value_of(name)
            .unwrap_or_else(|| panic!("no value named {name}")),
    )
}

/// Whether a clue of the JSON holds when each value is in house
/// `pos(value)`: the data README's table, read directly, not through the
/// model.
fn clue_holds(clue: &Value, pos: &dyn Fn(&str) -> i64) -> bool {
    let kind = clue["kind"].as_str().expect("kind");
    if kind == "all" {
        let parts = clue["constraints"].as_array().expect("constraints");
        return parts.iter().all(|c| clue_holds(c, pos));
    }
    let args = clue["args"].as_array().expect("args");
    let at = |i: usize| pos(args[i].as_str().expect("value name"));
    let int = |i: usize| args[i].as_i64().expect("number");
    match kind {
        "none" => true,
        "same" => at(0) == at(1),
        "neq" => at(0) != at(1),
        "at" => at(0) == int(1),
        "not_at" => at(0) != int(1),
        "in" => args[1]
            .as_array()
            .expect("houses")
            .iter()
            .any(|h| h.as_i64() == Some(at(0))),
        "offset" => at(0) == at(1) + int(2),
        "distance" => (at(0) - at(1)).abs() == int(2),
        "not_distance" => (at(0) - at(1)).abs() != int(2),
        "less" => at(0) < at(1),
        "between" => at(0) < at(1) && at(1) < at(2),
        other => panic!("unknown clue kind {other}"),
    }
}

/// The checks every reported solution must pass: the model's own checker,
/// every group a permutation of the houses, and every clue of the JSON.
fn assert_solution_is_sound(puzzle: &Value, zebra: &common::Zebra, solution: &Solution) {
    let id = id(puzzle);
    assert_eq!(zebra.model.check(solution.values()), Ok(()), "{id}");
    let houses = zebra.houses;
    for group in puzzle["groups"].as_array().expect("groups") {
        let mut taken: Vec<i64> = group["values"]
            .as_array()
            .expect("values")
            .iter()
            .map(|v| house(solution, v.as_str().expect("value")))
            .collect();
        taken.sort_unstable();
        assert_eq!(taken, (1..=houses).collect::<Vec<_>>(), "{id}: {group}");
    }
    let pos = |name: &str| house(solution, name);
    for clue in puzzle["clues"].as_array().expect("clues") {
        assert!(clue_holds(clue, &pos), "{id}: clue {} fails", clue["n"]);
    }
}

#[test]
fn every_zebra_puzzle_has_its_expected_solution_count_under_every_setting() {
    let puzzles = data_puzzles();
    assert!(puzzles.len() >= 21, "six files, 21 puzzles");
    for (file, puzzle) in &puzzles {
        let want = expected_count(puzzle);
        for (name, settings) in settings() {
            let (zebra, outcome) = solve_expected(puzzle, settings, &SearchOptions::default());
            let found = outcome.solutions.len() as u64;
            let at = format!("{file} {}, {name}", id(puzzle));
            match want {
                ExpectedCount::Exact(n) => {
                    assert_eq!(outcome.status, SearchStatus::Complete, "{at}");
                    assert_eq!(found, n, "{at}");
                    // Counting without keeping agrees with listing.
                    let counted = Solver::new(&zebra.model).count(&SearchOptions::default());
                    assert_eq!(counted.stats.solutions, n, "{at}: count mode");
                }
                ExpectedCount::AtLeast(n) => assert_eq!(found, n, "{at}"),
            }
        }
    }
}

#[test]
fn every_zebra_puzzle_count_agrees_across_search_orders() {
    let orders = [
        VarOrder::FirstFail,
        VarOrder::InputOrder,
        VarOrder::LargestDomain,
    ];
    let values = [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split];
    for (file, puzzle) in data_puzzles() {
        let want = expected_count(&puzzle);
        for var_order in orders {
            for value_order in values {
                let options = SearchOptions::default()
                    .var_order(var_order)
                    .value_order(value_order);
                let (_, outcome) = solve_expected(&puzzle, ZebraSettings::default(), &options);
                let n = match want {
                    ExpectedCount::Exact(n) | ExpectedCount::AtLeast(n) => n,
                };
                assert_eq!(
                    outcome.solutions.len() as u64,
                    n,
                    "{file} {}, {var_order}, {value_order}",
                    id(&puzzle)
                );
            }
        }
    }
}

#[test]
fn every_reported_zebra_solution_passes_the_model_check_and_the_json_clues() {
    let mut checked = 0;
    for (_, puzzle) in data_puzzles() {
        for (name, settings) in settings() {
            let (zebra, outcome) = solve_expected(&puzzle, settings, &SearchOptions::default());
            for (i, solution) in outcome.solutions.iter().enumerate() {
                assert_solution_is_sound(&puzzle, &zebra, solution);
                assert!(
                    !outcome.solutions[..i].contains(solution),
                    "{}, {name}: solution {i} reported twice",
                    id(&puzzle)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn every_stated_zebra_solution_is_found() {
    let mut stated = 0;
    for (file, puzzle) in data_puzzles() {
        let Some(record) = puzzle["expected"]["solution"].as_object() else {
            continue;
        };
        stated += 1;
        for (name, settings) in settings() {
            let (_, outcome) = solve_expected(&puzzle, settings, &SearchOptions::default());
            let matches = |s: &Solution| {
                record
                    .iter()
                    .all(|(value, h)| h.as_i64() == Some(house(s, value)))
            };
            let at = format!("{file} {}, {name}", id(&puzzle));
            assert!(outcome.solutions.iter().any(matches), "{at}");
            if expected_count(&puzzle) == ExpectedCount::Exact(1) {
                assert!(matches(&outcome.solutions[0]), "{at}: the only solution");
            }
        }
    }
    assert!(stated >= 10, "most puzzles state a full solution");
}

/// Whether `question` holds when each value is in house `pos(value)`;
/// `None` for a question with no answer in the data ("Who lives where?").
fn question_holds(question: &Value, pos: &dyn Fn(&str) -> i64) -> Option<bool> {
    if let Some(answer) = question["answer_value"].as_str() {
        let value = question["value"].as_str().expect("value");
        return Some(pos(value) == pos(answer));
    }
    if let Some(h) = question["answer_house"].as_i64() {
        let value = question["value"].as_str().expect("value");
        return Some(pos(value) == h);
    }
    if let Some(answer) = question["answer"].as_str() {
        let h = question["house"].as_i64().expect("house");
        return Some(pos(answer) == h);
    }
    None
}

#[test]
fn every_zebra_question_holds_in_every_solution() {
    let mut answered = 0;
    for (file, puzzle) in data_puzzles() {
        let questions = puzzle["questions"].as_array().cloned().unwrap_or_default();
        for (name, settings) in settings() {
            let (_, outcome) = solve_expected(&puzzle, settings, &SearchOptions::default());
            for question in &questions {
                for solution in &outcome.solutions {
                    let pos = |name: &str| house(solution, name);
                    if let Some(holds) = question_holds(question, &pos) {
                        assert!(holds, "{file} {}, {name}: {question}", id(&puzzle));
                    }
                }
            }
        }
        answered += questions
            .iter()
            .filter(|q| {
                q.get("answer_value").is_some()
                    || q.get("answer_house").is_some()
                    || q.get("answer").is_some()
            })
            .count();
    }
    assert!(answered >= 6, "Exercism 2, Rosetta 1, reasoning-gym 3");
}

#[test]
fn derived_variants_include_zero_one_and_many_solution_puzzles() {
    let counts: Vec<u64> = data_puzzles()
        .iter()
        .filter(|(file, _)| file == "derived_variants.json")
        .map(|(_, p)| match expected_count(p) {
            ExpectedCount::Exact(n) => n,
            ExpectedCount::AtLeast(n) => n,
        })
        .collect();
    assert!(counts.contains(&0));
    assert!(counts.contains(&1));
    assert!(counts.iter().any(|&n| n > 1));
}

#[test]
fn the_clue_and_question_checkers_reject_a_wrong_grid() {
    // Exercism's grid, with water and coffee swapped and the zebra and the
    // fox swapped: both answers and clues 4 and 11 (coffee in the green
    // house, Chesterfields next to the fox) become false.
    let puzzle = load_json("zebra/exercism.json")["puzzles"][0].clone();
    let record = puzzle["expected"]["solution"].as_object().expect("grid");
    let grid = |name: &str| record[name].as_i64().expect("house");
    let swapped = |name: &str| match name {
        "water" => grid("coffee"),
        "coffee" => grid("water"),
        "zebra" => grid("fox"),
        "fox" => grid("zebra"),
        other => grid(other),
    };
    let questions = puzzle["questions"].as_array().expect("questions");
    for question in questions {
        assert_eq!(question_holds(question, &grid), Some(true), "{question}");
        assert_eq!(
            question_holds(question, &swapped),
            Some(false),
            "{question}"
        );
    }
    let failing: Vec<i64> = puzzle["clues"]
        .as_array()
        .expect("clues")
        .iter()
        .filter(|clue| !clue_holds(clue, &swapped))
        .map(|clue| clue["n"].as_i64().expect("n"))
        .collect();
    assert_eq!(failing, [4, 11]);
    assert!(
        puzzle["clues"]
            .as_array()
            .expect("clues")
            .iter()
            .all(|clue| clue_holds(clue, &grid))
    );
}

#[test]
fn capped_solution_counts_are_read_as_lower_bounds() {
    assert_eq!(
        ExpectedCount::parse(&json!(">=1000")),
        Some(ExpectedCount::AtLeast(1000))
    );
    assert_eq!(
        ExpectedCount::parse(&json!(31)),
        Some(ExpectedCount::Exact(31))
    );
    assert_eq!(
        ExpectedCount::parse(&json!("not computed (too slow)")),
        None
    );
    // `solutions_computed` wins over `solutions` when both are given.
    let expected = json!({"solutions": 1, "solutions_computed": ">=5"});
    assert_eq!(
        ExpectedCount::of_expected(&expected),
        Some(ExpectedCount::AtLeast(5))
    );
}

/// The hand-built classic zebra and its solutions under the default search.
fn classic_solutions() -> (classic::ClassicZebra, Vec<Solution>) {
    let zebra = classic::classic_zebra().expect("a valid model");
    let outcome = Solver::new(&zebra.model).solve(&SearchOptions::default(), Mode::All);
    assert_eq!(outcome.status, SearchStatus::Complete);
    (zebra, outcome.solutions)
}

#[test]
fn classic_zebra_has_exactly_one_solution() {
    let (zebra, solutions) = classic_solutions();
    assert_eq!(solutions.len(), 1);
    assert_eq!(zebra.model.check(solutions[0].values()), Ok(()));
    for var_order in [
        VarOrder::FirstFail,
        VarOrder::InputOrder,
        VarOrder::LargestDomain,
    ] {
        for value_order in [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split] {
            let options = SearchOptions::default()
                .var_order(var_order)
                .value_order(value_order);
            let outcome = Solver::new(&zebra.model).count(&options);
            assert_eq!(outcome.stats.solutions, 1, "{var_order}, {value_order}");
        }
    }
}

#[test]
fn classic_zebra_the_norwegian_drinks_water() {
    let (zebra, solutions) = classic_solutions();
    for solution in &solutions {
        assert_eq!(zebra.nationality_with(solution, "water"), "Norwegian");
    }
    // Exercism's canonical answer, from the data file.
    let puzzle = load_json("zebra/exercism.json");
    let cases = &puzzle["source"]["canonical_data_verbatim"]["cases"];
    assert_eq!(cases[0]["property"], "drinksWater");
    assert_eq!(cases[0]["expected"], "Norwegian");
}

#[test]
fn classic_zebra_the_japanese_owns_the_zebra() {
    let (zebra, solutions) = classic_solutions();
    for solution in &solutions {
        assert_eq!(zebra.nationality_with(solution, "zebra"), "Japanese");
    }
    let puzzle = load_json("zebra/exercism.json");
    let cases = &puzzle["source"]["canonical_data_verbatim"]["cases"];
    assert_eq!(cases[1]["property"], "ownsZebra");
    assert_eq!(cases[1]["expected"], "Japanese");
}

#[test]
fn classic_zebra_grid_is_the_exercism_files_grid() {
    let (_, solutions) = classic_solutions();
    let puzzle = load_json("zebra/exercism.json")["puzzles"][0].clone();
    let record = puzzle["expected"]["solution"].as_object().expect("grid");
    assert_eq!(record.len(), 25);
    for (name, h) in record {
        assert_eq!(
            house(&solutions[0], name),
            h.as_i64().expect("house"),
            "{name}"
        );
    }
}

#[test]
fn classic_zebra_labels_are_the_exercism_clue_sentences() {
    // Every hand-written clue carries its sentence verbatim, and every
    // sentence with a constraint is used: the example and the data file
    // state the same puzzle.
    let zebra = classic::classic_zebra().expect("a valid model");
    let puzzle = load_json("zebra/exercism.json")["puzzles"][0].clone();
    let mut sentences: Vec<&str> = puzzle["clues"]
        .as_array()
        .expect("clues")
        .iter()
        .filter(|clue| clue["kind"] != "none")
        .map(|clue| clue["text"].as_str().expect("text"))
        .collect();
    let mut labels: Vec<&str> = zebra
        .model
        .constraint_ids()
        .filter_map(|c| zebra.model.label(c))
        .collect();
    sentences.sort_unstable();
    labels.sort_unstable();
    assert_eq!(labels, sentences);
}

#[test]
fn classic_zebra_groups_are_the_exercism_files_groups() {
    let puzzle = load_json("zebra/exercism.json")["puzzles"][0].clone();
    let groups = puzzle["groups"].as_array().expect("groups");
    assert_eq!(groups.len(), classic::GROUPS.len());
    for (group, (name, values)) in groups.iter().zip(classic::GROUPS) {
        assert_eq!(group["name"], name);
        assert_eq!(group["values"], json!(values));
    }
    assert_eq!(puzzle["houses"], i64::from(classic::HOUSES));
}
