//! Search trees and deduction traces: snapshots of the renderings for the
//! zebra family, 6-queens and a hard sudoku (stored in the top-level
//! `snapshots/`), byte-identical renderings across runs and threads, trees
//! that agree with the search statistics node for node, and traces whose
//! removals replay to the engine's own fixpoint.

mod common;

use bitfd::{
    ConstraintId, Domain, Engine, Mode, Model, NodeKind, SearchOptions, SearchStatus, Solver,
    Stats, StepKind, Strength, Trace, Tree, TreeStats,
};
use common::{ZebraSettings, load_json, sudoku_with_given_domains, zebra_model};
use serde_json::Value;

/// Oz's semantics for its zebra: value all-different, no each-value-held,
/// variables declared alphabetically (as an Oz record's features).
const OZ: ZebraSettings = ZebraSettings {
    strength: Strength::Value,
    each_value_held: false,
    alphabetical: true,
};

/// Full strength: domain all-different plus each-value-held, group order.
const FULL: ZebraSettings = ZebraSettings {
    strength: Strength::Domain,
    each_value_held: true,
    alphabetical: false,
};

/// A puzzle object of a zebra data file, by id.
fn zebra_puzzle(file: &str, id: &str) -> Value {
    let data = load_json(file);
    data["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no puzzle {id} in {file}"))
        .clone()
}

/// N-queens: `q{i}` is the row of the queen in column `i`, rows `1..=n`.
fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q: Vec<_> = (1..=n)
        .map(|i| {
            m.int_var(&format!("q{i}"), 1, n as i64)
                .expect("fresh name")
        })
        .collect();
    let rows = m.all_different(&q, Strength::Value).expect("valid");
    m.set_label(rows, "One queen a row.");
    // q_i + i differ on a rising diagonal; q_i - i + n (kept >= 1) on a falling one.
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| n as i64 - i).collect();
    let rising = m
        .all_different_offsets(&q, &up, Strength::Value)
        .expect("valid");
    m.set_label(rising, "One queen a rising diagonal.");
    let falling = m
        .all_different_offsets(&q, &down, Strength::Value)
        .expect("valid");
    m.set_label(falling, "One queen a falling diagonal.");
    m
}

/// One model of the suite, with its search.
struct Case {
    name: &'static str,
    model: Model,
    options: SearchOptions,
    mode: Mode,
    /// Whether to keep the trace as a snapshot too (the sudoku's is long).
    trace_snapshot: bool,
}

/// Every model of the suite, freshly built from the data files.
fn cases() -> Vec<Case> {
    let oz = zebra_puzzle("zebra/mozart_oz.json", "oz-fdt-zebra");
    let classic = zebra_puzzle("zebra/exercism.json", "exercism-zebra-puzzle");
    let two = zebra_puzzle(
        "zebra/derived_variants.json",
        "exercism-green-next-to-ivory",
    );
    let none = zebra_puzzle("zebra/derived_variants.json", "oz-extra-english-first");
    let none_by_search = zebra_puzzle("zebra/derived_variants.json", "oz-green-is-white-plus-1");
    let hard = load_json("sudoku/norvig_hardest.json")["puzzles"][1]["puzzle"]
        .as_str()
        .expect("puzzle line")
        .to_owned();
    let case = |name, model, trace_snapshot| Case {
        name,
        model,
        options: SearchOptions::default(),
        mode: Mode::All,
        trace_snapshot,
    };
    vec![
        case("zebra_classic", zebra_model(&classic, FULL).model, true),
        case("zebra_oz_semantics", zebra_model(&oz, OZ).model, true),
        case("zebra_oz_full_strength", zebra_model(&oz, FULL).model, true),
        case(
            "zebra_green_next_to_ivory_2_solutions",
            zebra_model(&two, FULL).model,
            true,
        ),
        case(
            "zebra_oz_extra_english_first_0_solutions",
            zebra_model(&none, OZ).model,
            true,
        ),
        case(
            "zebra_oz_green_is_white_plus_1_0_solutions",
            zebra_model(&none_by_search, OZ).model,
            true,
        ),
        case("queens_6_all_solutions", queens(6), true),
        case(
            "sudoku_norvig_hardest_0002",
            sudoku_with_given_domains(&hard, false),
            false,
        ),
    ]
}

/// Records the tree and the trace of one search at once.
fn record(case: &Case) -> (Tree, Trace, bitfd::Outcome) {
    let mut tree = Tree::new(&case.model, &case.options);
    let mut trace = Trace::new(&case.model);
    let outcome = Solver::new(&case.model).solve_observed(
        &case.options,
        case.mode,
        &mut (&mut tree, &mut trace),
    );
    (tree, trace, outcome)
}

/// Checks `text` against `snapshots/<name>.snap`.
fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// Snapshots the tree, the trace (if kept) and the profile of the named case.
fn snapshot_case(name: &str) -> (Tree, Trace, bitfd::Outcome) {
    let case = cases()
        .into_iter()
        .find(|c| c.name == name)
        .expect("a case of the suite");
    let (tree, trace, outcome) = record(&case);
    snapshot(&format!("{name}.tree"), &tree.to_string());
    if case.trace_snapshot {
        snapshot(&format!("{name}.trace"), &trace.to_string());
    }
    snapshot(&format!("{name}.profile"), &trace.profile().to_string());
    (tree, trace, outcome)
}

#[test]
fn classic_zebra_tree_and_trace_are_as_reviewed() {
    let (tree, _, outcome) = snapshot_case("zebra_classic");
    assert_eq!(outcome.solutions.len(), 1);
    assert_eq!(tree.status(), Some(SearchStatus::Complete));
}

#[test]
fn oz_semantics_tree_has_the_tutorials_33_nodes() {
    let (tree, _, _) = snapshot_case("zebra_oz_semantics");
    let stats = tree.stats();
    assert_eq!(
        (stats.nodes, stats.choices, stats.failures, stats.solutions),
        (33, 16, 16, 1)
    );
}

#[test]
fn oz_zebra_at_full_strength_tree_and_trace_are_as_reviewed() {
    let (tree, _, _) = snapshot_case("zebra_oz_full_strength");
    assert_eq!(tree.stats().solutions, 1);
}

#[test]
fn multi_solution_variant_tree_numbers_both_solutions() {
    let (tree, _, outcome) = snapshot_case("zebra_green_next_to_ivory_2_solutions");
    assert_eq!(outcome.solutions.len(), 2);
    let text = tree.to_string();
    assert!(text.contains("  solution 1\n") && text.contains("  solution 2\n"));
}

#[test]
fn zero_solution_variant_fails_at_the_root_naming_the_constraint() {
    let (tree, _, outcome) = snapshot_case("zebra_oz_extra_english_first_0_solutions");
    assert_eq!(outcome.solutions.len(), 0);
    assert_eq!(tree.stats().nodes, 1);
    assert_eq!(
        tree.nodes()[0].kind,
        NodeKind::Failed {
            by: outcome.root_failure
        }
    );
}

#[test]
fn zero_solution_variant_found_by_search_ends_in_failures_only() {
    let (tree, _, outcome) = snapshot_case("zebra_oz_green_is_white_plus_1_0_solutions");
    assert_eq!(outcome.solutions.len(), 0);
    let stats = tree.stats();
    assert_eq!(stats.solutions, 0);
    assert!(stats.choices >= 1);
    assert_eq!(
        stats.failures,
        stats.choices + 1,
        "a binary tree of failures"
    );
}

#[test]
fn six_queens_tree_lists_all_4_solutions() {
    let (tree, _, outcome) = snapshot_case("queens_6_all_solutions");
    // OEIS A000170: 6-queens has 4 solutions.
    assert_eq!(outcome.solutions.len(), 4);
    assert_eq!(tree.stats().solutions, 4);
}

#[test]
fn hard_sudoku_tree_is_as_reviewed() {
    let (tree, _, outcome) = snapshot_case("sudoku_norvig_hardest_0002");
    assert_eq!(outcome.solutions.len(), 1);
    let expected = load_json("sudoku/norvig_hardest.json")["puzzles"][1]["solution"]
        .as_str()
        .expect("solution line")
        .to_owned();
    let found: String = outcome.solutions[0]
        .values()
        .iter()
        .map(|v| char::from(b'0' + v))
        .collect();
    assert_eq!(found, expected);
    assert!(tree.stats().choices > 0, "a hard one needs search");
}

#[test]
fn oz_tree_renders_as_dot_with_the_explorers_shapes() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "zebra_oz_semantics")
        .expect("case");
    let (tree, _, _) = record(&case);
    let dot = tree.to_dot();
    assert_eq!(dot.matches("shape=circle").count(), 16);
    assert_eq!(dot.matches("shape=square").count(), 16);
    assert_eq!(dot.matches("shape=diamond").count(), 1);
    assert_eq!(dot.matches(" -> ").count(), 32);
    snapshot("zebra_oz_semantics.dot", &dot);
}

#[cfg(feature = "serde")]
#[test]
fn oz_tree_serializes_to_json_with_every_node() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "zebra_oz_semantics")
        .expect("case");
    let (tree, _, _) = record(&case);
    let json = tree.to_json();
    let value: Value = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(value["format"], "bitfd-tree");
    assert_eq!(value["nodes"].as_array().expect("nodes").len(), 33);
    assert_eq!(value["stats"]["nodes"], 33);
    assert_eq!(value["nodes"][32]["kind"], "solution");
}

#[cfg(feature = "serde")]
#[test]
fn json_lists_the_branches_a_node_limit_left_unexplored() {
    let oz = zebra_puzzle("zebra/mozart_oz.json", "oz-fdt-zebra");
    let model = zebra_model(&oz, OZ).model;
    let (tree, _) = Tree::record(&model, &SearchOptions::default().node_limit(6), Mode::All);
    let json = tree.to_json();
    let value: Value = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(value["status"], "node limit");
    assert_eq!(
        value["unexplored"].as_array().expect("list").len(),
        tree.unexplored().len()
    );
    snapshot("zebra_oz_semantics_node_limit_6.json", &json);
}

/// Counts the tree independently of [`Tree::stats`], checking its shape on
/// the way: every parent is an earlier choice one level up, a left child
/// takes the parent's branch and a right child its negation, no choice has
/// more than two children, and (for a complete search) each has exactly two.
fn count_tree(tree: &Tree) -> Stats {
    let nodes = tree.nodes();
    let mut stats = Stats::default();
    let mut children = vec![0u32; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        assert_eq!(node.id, i as u64, "nodes are numbered in order");
        stats.nodes += 1;
        stats.max_depth = stats.max_depth.max(node.depth);
        match node.kind {
            NodeKind::Choice { .. } => stats.choices += 1,
            NodeKind::Failed { by } => {
                stats.failures += 1;
                assert!(by.is_some(), "every failure names a constraint");
            }
            NodeKind::Solution { index } => {
                stats.solutions += 1;
                assert_eq!(index, stats.solutions, "solutions numbered in order");
            }
        }
        let Some(parent) = node.parent else {
            assert_eq!((i, node.depth), (0, 0), "only the root has no parent");
            continue;
        };
        let p = &nodes[parent as usize];
        assert!(parent < node.id);
        assert_eq!(node.depth, p.depth + 1);
        let NodeKind::Choice { branch } = p.kind else {
            panic!("node {i}'s parent is not a choice");
        };
        let expected = if children[parent as usize] == 0 {
            branch
        } else {
            branch.negate()
        };
        assert_eq!(node.decision, Some(expected), "node {i}'s decision");
        children[parent as usize] += 1;
        assert!(children[parent as usize] <= 2);
    }
    if tree.status() == Some(SearchStatus::Complete) {
        for (node, &n) in nodes.iter().zip(&children) {
            if let NodeKind::Choice { .. } = node.kind {
                assert_eq!(n, 2, "a complete search takes both branches");
            }
        }
        assert!(tree.unexplored().is_empty());
    }
    stats
}

#[test]
fn every_recorded_tree_agrees_with_the_search_statistics() {
    for case in cases() {
        let (tree, _, outcome) = record(&case);
        let counted = count_tree(&tree);
        let want = outcome.stats;
        assert_eq!(
            (
                counted.nodes,
                counted.choices,
                counted.failures,
                counted.solutions,
                counted.max_depth
            ),
            (
                want.nodes,
                want.choices,
                want.failures,
                want.solutions,
                want.max_depth
            ),
            "{}",
            case.name
        );
        assert_eq!(tree.stats(), TreeStats::from(want), "{}", case.name);
        assert_eq!(want.nodes, want.choices + want.failures + want.solutions);
        // The text has one line a node, plus header and footer.
        assert_eq!(
            tree.to_string().lines().count() as u64,
            want.nodes + 2,
            "{}",
            case.name
        );
    }
}

/// Every rendering of every case, concatenated.
fn render_all() -> Vec<String> {
    cases()
        .iter()
        .map(|case| {
            let (tree, trace, _) = record(case);
            let mut all = tree.to_string();
            all.push_str(&tree.to_dot());
            all.push_str(&trace.to_string());
            all.push_str(&trace.profile().to_string());
            #[cfg(feature = "serde")]
            all.push_str(&tree.to_json());
            all
        })
        .collect()
}

#[test]
fn renderings_are_byte_identical_across_runs_and_threads() {
    let first = render_all();
    // Fresh models and solvers each time, in this thread and on four others.
    for _ in 0..2 {
        assert!(render_all() == first, "a rerun rendered differently");
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(render_all)).collect();
        for h in handles {
            assert!(h.join().expect("no panic") == first, "a thread differed");
        }
    });
}

#[test]
fn replaying_the_root_removals_gives_the_engines_root_fixpoint() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "zebra_classic")
        .expect("case");
    let (_, trace, _) = record(&case);
    let mut domains: Vec<Domain> = case.model.domains().to_vec();
    let mut replayed = 0;
    for step in trace.steps() {
        match &step.kind {
            StepKind::Progress { removals, .. } => {
                assert_eq!(step.depth, 0);
                for r in removals {
                    let d = &mut domains[r.var.index()];
                    // Each removal takes values that were there, and leaves
                    // exactly what the step says.
                    assert_eq!(*d & r.removed, r.removed, "removed values were present");
                    *d = *d - r.removed;
                    assert_eq!(*d, r.left);
                    replayed += 1;
                }
            }
            // The root's steps end where search starts.
            StepKind::Guess { .. } | StepKind::Solution { .. } => break,
            StepKind::Conflict { .. } => panic!("the classic zebra's root holds"),
        }
    }
    assert!(replayed > 0);
    let mut engine = Engine::new(&case.model);
    engine.propagate().expect("the root holds");
    for x in case.model.vars() {
        assert_eq!(domains[x.index()], engine.dom(x), "{}", case.model.name(x));
    }
}

#[test]
fn every_conflict_names_the_constraint_its_failed_node_blames() {
    for case in cases() {
        let (tree, trace, _) = record(&case);
        let failed: Vec<ConstraintId> = tree
            .nodes()
            .iter()
            .filter_map(|n| match n.kind {
                NodeKind::Failed { by } => Some(by.expect("a constraint failed")),
                _ => None,
            })
            .collect();
        let conflicts: Vec<ConstraintId> = trace
            .steps()
            .iter()
            .filter_map(|s| match s.kind {
                StepKind::Conflict { by } => Some(by),
                _ => None,
            })
            .collect();
        assert_eq!(conflicts, failed, "{}", case.name);
        let profile = trace.profile();
        let per_constraint: u64 = profile.rows.iter().map(|r| r.conflicts).sum();
        assert_eq!(per_constraint, failed.len() as u64, "{}", case.name);
    }
}

#[test]
fn profile_adds_up_to_the_traces_removals_and_the_propagation_count() {
    for case in cases() {
        let (_, trace, outcome) = record(&case);
        let profile = trace.profile();
        let removed: u64 = trace
            .steps()
            .iter()
            .filter_map(|s| match &s.kind {
                StepKind::Progress { removals, .. } => Some(
                    removals
                        .iter()
                        .map(|r| u64::from(r.removed.size()))
                        .sum::<u64>(),
                ),
                _ => None,
            })
            .sum();
        assert_eq!(
            profile.rows.iter().map(|r| r.removed).sum::<u64>(),
            removed,
            "{}",
            case.name
        );
        assert_eq!(
            profile.rows.iter().map(|r| r.runs).sum::<u64>(),
            outcome.stats.propagations,
            "{}",
            case.name
        );
    }
}

#[test]
fn a_node_limit_shows_the_branches_left_unexplored() {
    let oz = zebra_puzzle("zebra/mozart_oz.json", "oz-fdt-zebra");
    let model = zebra_model(&oz, OZ).model;
    let options = SearchOptions::default().node_limit(6);
    let (tree, outcome) = Tree::record(&model, &options, Mode::All);
    assert_eq!(outcome.status, SearchStatus::NodeLimit);
    assert_eq!(tree.stats().nodes, 6);
    let text = tree.to_string();
    assert!(text.starts_with("# bitfd-tree 1; var first-fail; value min;"));
    assert!(text.contains("; node limit 6;"));
    assert!(text.ends_with("; status node limit\n"));
    // Every open choice on the path to the last node shows its untaken branch.
    let unexplored = tree.unexplored();
    assert!(!unexplored.is_empty());
    assert_eq!(text.matches("  unexplored\n").count(), unexplored.len());
    count_tree(&tree);
    snapshot("zebra_oz_semantics_node_limit_6.tree", &text);
}

#[test]
fn first_solution_search_leaves_the_rest_unexplored() {
    let (tree, outcome) = Tree::record(&queens(6), &SearchOptions::default(), Mode::First);
    assert_eq!(outcome.status, SearchStatus::SolutionLimit);
    assert_eq!(tree.stats().solutions, 1);
    assert!(!tree.unexplored().is_empty());
    assert!(tree.to_string().ends_with("; status solution limit\n"));
}

#[test]
fn labels_and_names_with_line_breaks_stay_on_one_line() {
    let mut m = Model::new();
    let x = m.int_var("x\ty", 1, 2).expect("valid");
    let c = m.not_equal_value(x, 1).expect("valid");
    m.set_label(c, "two\nlines");
    let d = m.not_equal_value(x, 2).expect("valid");
    m.set_label(d, "no \"value\"\nleft");
    let (tree, outcome) = Tree::record(&m, &SearchOptions::default(), Mode::All);
    assert_eq!(outcome.solutions.len(), 0);
    assert_eq!(tree.to_string().lines().count(), 3);
    assert!(
        tree.to_string()
            .contains("root  failed by no \"value\"\\nleft\n")
    );
    assert!(
        tree.to_dot()
            .contains("tooltip=\"failed by no \\\"value\\\"\\\\nleft\"")
    );
    let (trace, _) = Trace::record(&m, &SearchOptions::default(), Mode::All);
    let text = trace.to_string();
    assert!(text.contains("Progress: two\\nlines\n  removed 1 from x\\ty, so x\\ty = 2\n"));
}

#[test]
fn a_tree_passed_to_a_second_search_records_only_that_search() {
    let model = queens(6);
    let options = SearchOptions::default();
    let mut tree = Tree::new(&model, &options);
    let mut trace = Trace::new(&model);
    let mut solver = Solver::new(&model);
    solver.solve_observed(&options, Mode::All, &mut (&mut tree, &mut trace));
    let (once_tree, once_trace) = (tree.to_string(), trace.to_string());
    solver.solve_observed(&options, Mode::All, &mut (&mut tree, &mut trace));
    assert_eq!(tree.to_string(), once_tree);
    assert_eq!(trace.to_string(), once_trace);
}

#[test]
fn a_node_limit_of_0_leaves_even_the_root_unexplored() {
    let model = queens(6);
    let options = SearchOptions::default().node_limit(0);
    let mut tree = Tree::new(&model, &options);
    let mut trace = Trace::new(&model);
    let mut solver = Solver::new(&model);
    // A full search first: the cut-short one after it must replace it.
    solver.solve_observed(
        &SearchOptions::default(),
        Mode::All,
        &mut (&mut tree, &mut trace),
    );
    let outcome = solver.solve_observed(&options, Mode::All, &mut (&mut tree, &mut trace));
    assert_eq!(outcome.status, SearchStatus::NodeLimit);
    let text = tree.to_string();
    assert_eq!(text.lines().nth(1), Some("root  unexplored"));
    assert!(text.ends_with(
        "# nodes 0; choices 0; failures 0; solutions 0; max depth 0; status node limit\n"
    ));
    assert_eq!(tree.to_dot().matches("shape=triangle").count(), 1);
    assert!(trace.steps().is_empty());
}

#[test]
fn a_tree_past_its_budget_keeps_the_first_nodes_and_says_so_in_every_rendering() {
    // 7-queens, every solution: hundreds of nodes; a budget of 50.
    let model = queens(7);
    let options = SearchOptions::default();
    let (full, unrecorded) = Tree::record(&model, &options, Mode::All);
    assert!(full.nodes().len() > 200, "a tree well past the budget");
    assert!(!full.is_truncated());
    let mut tree = Tree::new(&model, &options);
    tree.set_record_limit(50);
    let outcome = Solver::new(&model).solve_observed(&options, Mode::All, &mut tree);
    // The search is not changed by its recording.
    assert_eq!(outcome.stats, unrecorded.stats);
    assert_eq!(outcome.solutions, unrecorded.solutions);
    assert_eq!(outcome.status, SearchStatus::Complete);
    // The recording is the first 50 nodes of the whole tree, its counts
    // the whole search's.
    assert!(tree.is_truncated());
    assert_eq!(tree.nodes(), &full.nodes()[..50]);
    assert_eq!(tree.stats(), TreeStats::from(unrecorded.stats));
    assert_eq!(tree.status(), Some(SearchStatus::Complete));
    // The choices left open after the last node recorded are not made up
    // into unexplored branches: the search took them.
    assert!(tree.unexplored().is_empty());
    let note = "truncated at 50 nodes";
    let text = tree.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 50 + 3, "header, 50 nodes, the note, footer");
    assert_eq!(
        lines[51],
        "# truncated at 50 nodes: the nodes after these were not recorded"
    );
    // The footer is the full tree's.
    assert_eq!(lines.last(), full.to_string().lines().last().as_ref());
    let dot = tree.to_dot();
    assert!(dot.contains(&format!("label=\"{note}")), "{dot}");
    assert_eq!(dot.matches(" [shape=").count(), 50, "no unexplored node");
    let json: Value = serde_json::from_str(&tree.to_json()).expect("JSON");
    assert_eq!(json["truncated_at"], 50);
    assert!(
        json["truncated"]
            .as_str()
            .is_some_and(|t| t.starts_with(note))
    );
    assert_eq!(json["nodes"].as_array().map(Vec::len), Some(50));
    assert_eq!(json["stats"]["nodes"], unrecorded.stats.nodes);
    // A tree within its budget says nothing of one.
    for rendering in [full.to_string(), full.to_dot(), full.to_json()] {
        assert!(!rendering.contains("truncated"));
    }
}

#[test]
fn a_trace_past_its_budget_ends_at_a_whole_node_and_says_so() {
    let model = queens(6);
    let options = SearchOptions::default();
    let (full, unrecorded) = Trace::record(&model, &options, Mode::All);
    assert!(full.steps().len() > 100);
    for limit in [0, 1, 7, 40, 99] {
        let mut trace = Trace::new(&model);
        trace.set_record_limit(limit);
        let outcome = Solver::new(&model).solve_observed(&options, Mode::All, &mut trace);
        assert_eq!(outcome.stats, unrecorded.stats, "limit {limit}");
        assert!(trace.is_truncated());
        let steps = trace.steps();
        assert!(steps.len() as u64 <= limit, "limit {limit}");
        // A prefix of the whole trace, ending where the next step starts a
        // node (a guess) or where the last node the budget held ended.
        assert_eq!(steps, &full.steps()[..steps.len()], "limit {limit}");
        if let Some(next) = full.steps().get(steps.len()) {
            assert!(
                matches!(next.kind, StepKind::Guess { .. }) || steps.is_empty(),
                "limit {limit}: {next:?}"
            );
        }
        let text = trace.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[lines.len() - 2],
            format!("# truncated at {limit} steps: the steps after these were not recorded")
        );
        // The footer and the profile count the whole search.
        assert_eq!(lines.last(), full.to_string().lines().last().as_ref());
        assert_eq!(trace.profile(), full.profile());
    }
    assert!(!full.to_string().contains("truncated"));
}

#[test]
fn a_traced_search_runs_the_propagators_an_untraced_one_runs() {
    // Sudokus with each-value-held beside every domain all-different: 71
    // propagators or more, so a queue of two words whose costly class runs
    // by rounds, those woken by a fixed variable first. Recording a trace
    // must not change that order: the same number of runs, the same tree.
    let hardest = load_json("sudoku/norvig_hardest.json");
    for puzzle in hardest["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .take(4)
    {
        let line = puzzle["puzzle"].as_str().expect("a board");
        let model = common::sudoku_model(3, line).model;
        assert!(model.constraint_count() > 64, "a queue of two words");
        let options = SearchOptions::default();
        let plain = Solver::new(&model).solve(&options, Mode::All);
        let mut trace = Trace::new(&model);
        let traced = Solver::new(&model).solve_observed(&options, Mode::All, &mut trace);
        assert_eq!(traced.stats, plain.stats, "{}", puzzle["id"]);
        assert_eq!(traced.solutions, plain.solutions, "{}", puzzle["id"]);
        let runs: u64 = trace.profile().rows.iter().map(|r| r.runs).sum();
        assert_eq!(runs, plain.stats.propagations, "{}", puzzle["id"]);
    }
    // A 25x25 board, every other blank filled from its stated solution:
    // 150 units and over 300 givens, so the queue wakes from lists.
    let (size, line) = common::multisize_board("m404-25-puzzel1", 2);
    let model = common::sudoku_model(size, &line).model;
    assert!(model.constraint_count() > 4 * 64, "wake lists");
    let options = SearchOptions::default();
    let plain = Solver::new(&model).solve(&options, Mode::All);
    let mut trace = Trace::new(&model);
    let traced = Solver::new(&model).solve_observed(&options, Mode::All, &mut trace);
    assert_eq!(traced.stats, plain.stats);
    assert_eq!(plain.stats.solutions, 1);
}
