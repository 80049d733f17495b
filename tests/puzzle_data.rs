//! Every zebra puzzle of `../shared/data/zebra/*.json` through the `.zebra`
//! format: the test writes each puzzle as `.zebra` text (its own writer,
//! independent of the library's), parses it, solves it, and checks the
//! solution count, the stated solution and the answers to the questions
//! against the data file.

mod common;

use bitfd::puzzle::print::answer;
use bitfd::puzzle::{self, Puzzle, PuzzleModel};
use bitfd::{SearchOptions, Solution, Solver};
use common::zebra_text::{data_puzzles, questions, str_of, zebra_text};

fn parse_generated(id: &str, text: &str) -> Puzzle {
    puzzle::parse(text).unwrap_or_else(|e| panic!("{id} does not parse:\n{e}\n---\n{text}"))
}

fn all_solutions(pm: &PuzzleModel) -> Vec<Solution> {
    let outcome = Solver::new(pm.model()).all(&SearchOptions::default());
    assert!(!outcome.status.is_cut_short());
    outcome.solutions
}

#[test]
fn every_data_puzzle_has_the_files_solution_count_through_the_format() {
    for (file, p) in data_puzzles() {
        let id = format!("{file}: {}", str_of(&p["id"]));
        let puzzle = parse_generated(&id, &zebra_text(&p));
        let pm = puzzle.to_model();
        let solutions = all_solutions(&pm);
        let expected = &p["expected"];
        let count = expected["solutions_computed"]
            .as_u64()
            .or_else(|| expected["solutions"].as_u64())
            .unwrap_or_else(|| panic!("{id}: no exact count"));
        assert_eq!(solutions.len() as u64, count, "{id}");
        for s in &solutions {
            assert_eq!(pm.model().check(s.values()), Ok(()), "{id}");
        }
    }
}

#[test]
fn every_stated_data_solution_is_the_one_found() {
    let mut checked = 0;
    for (file, p) in data_puzzles() {
        let Some(stated) = p["expected"]["solution"].as_object() else {
            continue;
        };
        let id = format!("{file}: {}", str_of(&p["id"]));
        let puzzle = parse_generated(&id, &zebra_text(&p));
        let pm = puzzle.to_model();
        let solutions = all_solutions(&pm);
        assert_eq!(solutions.len(), 1, "{id}");
        for (value, house) in stated {
            let v = puzzle
                .lookup(value)
                .unwrap_or_else(|| panic!("{id}: no value {value}"));
            assert_eq!(
                u64::from(pm.house(&solutions[0], v)),
                house.as_u64().expect("a house"),
                "{id}: {value}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} stated solutions");
}

#[test]
fn every_data_question_has_its_stated_answer_in_every_solution() {
    let mut checked = 0;
    for (file, p) in data_puzzles() {
        let id = format!("{file}: {}", str_of(&p["id"]));
        let puzzle = parse_generated(&id, &zebra_text(&p));
        let pm = puzzle.to_model();
        let solutions = all_solutions(&pm);
        let stated = questions(&p);
        assert_eq!(puzzle.asks().len(), stated.len(), "{id}");
        for (ask, q) in puzzle.asks().iter().zip(&stated) {
            let Some(expected) = &q.answer else { continue };
            // Entailed: the same answer in every solution.
            for s in &solutions {
                let a = answer(&puzzle, &pm, ask, s);
                assert_eq!(a.question, q.text, "{id}");
                assert_eq!(&a.answer, expected, "{id}: {}", q.text);
            }
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} answers checked");
}

#[test]
fn every_data_puzzle_survives_the_writer_round_trip() {
    for (file, p) in data_puzzles() {
        let id = format!("{file}: {}", str_of(&p["id"]));
        let puzzle = parse_generated(&id, &zebra_text(&p));
        let written = puzzle.to_string();
        let again = parse_generated(&id, &written);
        assert_eq!(again, puzzle, "{id}:\n{written}");
        assert_eq!(again.to_string(), written, "{id}: the writer is canonical");
    }
}

#[cfg(feature = "serde")]
#[test]
fn every_data_puzzle_reads_from_json_as_from_independent_text() {
    for (file, p) in data_puzzles() {
        let id = format!("{file}: {}", str_of(&p["id"]));
        let from_text = parse_generated(&id, &zebra_text(&p));
        let from_json = puzzle::from_json(&p).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(from_json, from_text, "{id}");
    }
}
