//! N-queens against OEIS A000170 (`known_counts.json`): the all-different
//! encoding with offsets under both strengths and every search order, and a
//! pairwise encoding, all give the published counts; every solution is a
//! placement with no two queens attacking each other.

mod common;

use std::num::NonZeroUsize;

use bitfd::{Mode, SearchOptions, SearchStatus, Solver, Strength, ValueOrder, VarOrder};
use common::{load_json, queens_model, queens_pairwise_model};

/// OEIS A000170 as `known_counts.json` prints it: `terms[n - offset]` is the
/// number of solutions on an `n x n` board.
fn a000170(n: usize) -> u64 {
    let seq = &load_json("known_counts.json")["sequences"]["A000170"];
    let offset = seq["offset"].as_u64().expect("offset") as usize;
    seq["terms"][n - offset].as_u64().expect("term")
}

/// The board sizes counted in full: 1..=10, and 11 and 12 when optimised
/// (they take seconds in a debug build).
fn sizes() -> Vec<usize> {
    let last = if cfg!(debug_assertions) { 10 } else { 12 };
    (1..=last).collect()
}

const VAR_ORDERS: [VarOrder; 3] = [
    VarOrder::FirstFail,
    VarOrder::InputOrder,
    VarOrder::LargestDomain,
];
const VALUE_ORDERS: [ValueOrder; 3] = [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split];

/// Whether `cols` (the column of the queen of each row) puts no two queens
/// in the same column or diagonal: the rule itself, not the model.
fn no_two_attack(cols: &[u8]) -> bool {
    (0..cols.len()).all(|j| {
        (0..j).all(|i| {
            let (a, b) = (i64::from(cols[i]), i64::from(cols[j]));
            a != b && (a - b).abs() != (j - i) as i64
        })
    })
}

#[test]
fn oeis_a000170_is_the_published_sequence() {
    // The data file's first terms, so a misread file fails here first.
    let first: Vec<u64> = (0..=8).map(a000170).collect();
    assert_eq!(first, [1, 1, 0, 0, 2, 10, 4, 40, 92]);
}

#[test]
fn queens_counts_match_oeis_a000170() {
    for n in sizes() {
        let (model, _) = queens_model(n, Strength::Domain);
        let outcome = Solver::new(&model).count(&SearchOptions::default());
        assert!(!outcome.status.is_cut_short());
        assert_eq!(outcome.stats.solutions, a000170(n), "n = {n}");
    }
}

#[test]
fn parallel_counts_match_oeis_a000170_and_the_sequential_tree() {
    // The split opens 128 subtrees a thread, so from 8 queens on (some 800
    // nodes and more) the helper threads count most of the tree.
    for n in sizes() {
        let (model, _) = queens_model(n, Strength::Value);
        let options = SearchOptions::default();
        let sequential = Solver::new(&model).count(&options);
        for threads in [2, 3, 4] {
            let threads = NonZeroUsize::new(threads).expect("not zero");
            let parallel = Solver::new(&model).count_parallel(&options, threads);
            assert_eq!(parallel.status, SearchStatus::Complete);
            assert_eq!(parallel.stats.solutions, a000170(n), "n = {n}");
            assert_eq!(
                parallel.stats, sequential.stats,
                "n = {n}, {threads} threads"
            );
        }
    }
}

#[test]
fn empty_board_has_one_placement_as_oeis_a000170_says() {
    let (model, _) = queens_model(0, Strength::Domain);
    let outcome = Solver::new(&model).count(&SearchOptions::default());
    assert_eq!(outcome.stats.solutions, a000170(0));
}

#[test]
fn queens_counts_agree_across_strengths_and_every_search_order_up_to_8() {
    for n in 1..=8 {
        for strength in [Strength::Value, Strength::Domain] {
            let (model, _) = queens_model(n, strength);
            let mut solver = Solver::new(&model);
            for var_order in VAR_ORDERS {
                for value_order in VALUE_ORDERS {
                    let options = SearchOptions::default()
                        .var_order(var_order)
                        .value_order(value_order);
                    let outcome = solver.count(&options);
                    assert_eq!(
                        outcome.stats.solutions,
                        a000170(n),
                        "n = {n}, {strength}, {var_order}, {value_order}"
                    );
                }
            }
        }
    }
}

#[test]
fn pairwise_queens_encoding_matches_oeis_a000170() {
    let last = if cfg!(debug_assertions) { 9 } else { 10 };
    for n in 1..=last {
        let (model, _) = queens_pairwise_model(n);
        let outcome = Solver::new(&model).count(&SearchOptions::default());
        assert_eq!(outcome.stats.solutions, a000170(n), "n = {n}");
    }
}

#[test]
fn both_encodings_find_the_same_solutions_in_the_same_order_up_to_8() {
    // Same variables, same search order, and both encodings reject exactly
    // the attacking placements: the solution lists must be equal.
    for n in 1..=8 {
        let (offsets, _) = queens_model(n, Strength::Value);
        let (pairwise, _) = queens_pairwise_model(n);
        let options = SearchOptions::default().var_order(VarOrder::InputOrder);
        let a: Vec<Vec<u8>> = Solver::new(&offsets)
            .all(&options)
            .solutions
            .iter()
            .map(|s| s.values().to_vec())
            .collect();
        let b: Vec<Vec<u8>> = Solver::new(&pairwise)
            .all(&options)
            .solutions
            .iter()
            .map(|s| s.values().to_vec())
            .collect();
        assert_eq!(a, b, "n = {n}");
    }
}

#[test]
fn every_queens_solution_is_a_distinct_non_attacking_placement() {
    for n in 1..=9 {
        for strength in [Strength::Value, Strength::Domain] {
            let (model, rows) = queens_model(n, strength);
            let outcome = Solver::new(&model).solve(&SearchOptions::default(), Mode::All);
            let mut seen: Vec<Vec<u8>> = Vec::new();
            for solution in &outcome.solutions {
                assert_eq!(model.check(solution.values()), Ok(()), "n = {n}");
                let cols: Vec<u8> = rows.iter().map(|&x| solution[x]).collect();
                assert!(cols.iter().all(|&c| usize::from(c) < n), "{cols:?}");
                assert!(no_two_attack(&cols), "n = {n}: {cols:?} attacks");
                seen.push(cols);
            }
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len() as u64, a000170(n), "n = {n}, {strength}");
        }
    }
}

#[test]
fn first_solution_mode_stops_at_one_placement() {
    for n in [1, 4, 8, 12] {
        let (model, rows) = queens_model(n, Strength::Domain);
        let outcome = Solver::new(&model).first(&SearchOptions::default());
        assert_eq!(outcome.solutions.len(), 1, "n = {n}");
        let cols: Vec<u8> = rows.iter().map(|&x| outcome.solutions[0][x]).collect();
        assert!(no_two_attack(&cols), "n = {n}: {cols:?}");
    }
    for n in [2, 3] {
        let (model, _) = queens_model(n, Strength::Domain);
        let outcome = Solver::new(&model).first(&SearchOptions::default());
        assert!(outcome.solutions.is_empty(), "n = {n}: no placement exists");
    }
}
