//! The example puzzles of `examples/puzzles/` against their sources: each
//! solution is checked value by value against the data file it was taken
//! from (renamed where the example renames), never against bitfd's own
//! output.

mod common;

use bitfd::puzzle::print::{Verdict, answer};
use bitfd::puzzle::{self, Puzzle, PuzzleModel};
use bitfd::{Outcome, SearchOptions, Solver};
use common::load_json;
use serde_json::Value;

fn example(name: &str) -> Puzzle {
    let path = format!("{}/examples/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    puzzle::parse(&text).unwrap_or_else(|e| panic!("{path}:\n{e}"))
}

fn solve_all(puzzle: &Puzzle) -> (PuzzleModel, Outcome) {
    let pm = puzzle.to_model();
    let outcome = Solver::new(pm.model()).all(&SearchOptions::default());
    (pm, outcome)
}

fn data_puzzle(file: &str, id: &str) -> Value {
    load_json(&format!("zebra/{file}"))["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no puzzle {id} in {file}"))
        .clone()
}

/// Asserts that the unique solution puts every value of `expected` (a data
/// file's `expected.solution`) in its stated house, after renaming.
fn assert_solution(name: &str, expected: &Value, rename: &[(&str, &str)]) {
    let puzzle = example(name);
    let (pm, outcome) = solve_all(&puzzle);
    assert_eq!(Verdict::of(&outcome), Verdict::Unique, "{name}");
    let stated = expected.as_object().expect("a solution record");
    assert_eq!(
        stated.len(),
        puzzle
            .groups()
            .iter()
            .map(|g| g.values.len())
            .sum::<usize>()
    );
    for (value, house) in stated {
        let ours = rename
            .iter()
            .find(|(from, _)| from == value)
            .map_or(value.as_str(), |(_, to)| to);
        let v = puzzle
            .lookup(ours)
            .unwrap_or_else(|| panic!("{name}: no value {ours}"));
        assert_eq!(
            u64::from(pm.house(&outcome.solutions[0], v)),
            house.as_u64().expect("a house"),
            "{name}: {ours}"
        );
    }
}

fn answers(name: &str) -> Vec<String> {
    let puzzle = example(name);
    let (pm, outcome) = solve_all(&puzzle);
    puzzle
        .asks()
        .iter()
        .map(|a| answer(&puzzle, &pm, a, &outcome.solutions[0]).to_string())
        .collect()
}

#[test]
fn classic_zebra_answers_norwegian_and_japanese() {
    assert_eq!(
        answers("zebra.zebra"),
        [
            "Who drinks water? Norwegian",
            "Who owns the zebra? Japanese"
        ]
    );
    let p = data_puzzle("exercism.json", "exercism-zebra-puzzle");
    assert_solution("zebra.zebra", &p["expected"]["solution"], &[]);
}

#[test]
fn board_game_edition_is_the_classic_with_games_for_brands() {
    // Seed 003 renames the cigarettes; its answers are the classic's.
    let rename = [
        ("Old Gold", "Snakes and Ladders"),
        ("Kools", "Cluedo"),
        ("Chesterfields", "Pictionary"),
        ("Lucky Strike", "Travel the World"),
        ("Parliaments", "Backgammon"),
    ];
    let p = data_puzzle("exercism.json", "exercism-zebra-puzzle");
    assert_solution("boardgames.zebra", &p["expected"]["solution"], &rename);
    assert_eq!(
        answers("boardgames.zebra"),
        [
            "Who drinks water? Norwegian",
            "Who owns the zebra? Japanese"
        ]
    );
    assert_eq!(example("boardgames.zebra").clues().len(), 14);
}

#[test]
fn oz_zebra_is_the_tutorials_record() {
    let p = data_puzzle("mozart_oz.json", "oz-fdt-zebra");
    assert_solution("oz.zebra", &p["expected"]["solution"], &[]);
}

#[test]
fn einstein_fish_is_owned_by_the_german() {
    let rename = [("dog", "dogs"), ("horse", "horses"), ("zebra", "fish")];
    let p = data_puzzle("rosetta.json", "rosetta-zebra-puzzle");
    assert_solution("einstein.zebra", &p["expected"]["solution"], &rename);
    assert_eq!(answers("einstein.zebra"), ["Who owns the fish? German"]);
}

#[test]
fn zebralogic_example_is_the_prompts_answer() {
    let p = data_puzzle("zebralogic_example.json", "zebralogic-prompt-example-3x2");
    assert_solution("zebralogic.zebra", &p["expected"]["solution"], &[]);
}

#[test]
fn no_solution_example_fails_at_the_root() {
    let puzzle = example("nosolution.zebra");
    let (_, outcome) = solve_all(&puzzle);
    let expected = data_puzzle("derived_variants.json", "oz-extra-english-first");
    assert_eq!(
        Some(outcome.stats.solutions),
        expected["expected"]["solutions"].as_u64()
    );
    assert!(matches!(
        Verdict::of(&outcome),
        Verdict::NoSolution(Some(_))
    ));
    assert_eq!(outcome.stats.nodes, 1);
}

#[test]
fn no_solution_example_names_the_two_contradicting_clues() {
    let puzzle = example("nosolution.zebra");
    let conflict = puzzle
        .root_conflict(bitfd::Strength::Domain)
        .expect("the root fails");
    let texts: Vec<String> = conflict
        .iter()
        .map(|&i| puzzle.relation_text(&puzzle.clues()[i].relation))
        .collect();
    // The Norwegian is in house 1 (clue 5), and so is the added Englishman.
    assert_eq!(texts, ["norwegian = 1", "english = 1"]);
    assert_eq!(
        example("oz.zebra").root_conflict(bitfd::Strength::Domain),
        None
    );
}

#[test]
fn several_example_has_the_derived_count() {
    let puzzle = example("several.zebra");
    let (_, outcome) = solve_all(&puzzle);
    let expected = data_puzzle("derived_variants.json", "exercism-green-next-to-ivory");
    assert_eq!(
        Some(outcome.stats.solutions),
        expected["expected"]["solutions"].as_u64()
    );
    assert_eq!(Verdict::of(&outcome), Verdict::Exactly(2));
}

#[test]
fn every_example_round_trips_through_the_writer() {
    let dir = format!("{}/examples/puzzles", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("examples") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "zebra") {
            continue;
        }
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let puzzle = example(&name);
        let again = puzzle::parse(&puzzle.to_string()).expect("the writer's text parses");
        assert_eq!(again, puzzle, "{name}");
        seen += 1;
    }
    assert!(seen >= 7, "{seen} examples");
}
