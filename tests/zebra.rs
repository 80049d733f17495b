//! The zebra puzzles of `../shared/data/zebra/`: counts, answers and the Oz
//! tutorial's search tree, all against the values stated in the data files.

mod common;

use bitfd::{Mode, SearchOptions, Solver, Strength};
use common::{ZebraSettings, load_json, zebra_model};
use serde_json::Value;

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
