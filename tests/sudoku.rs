//! Sudoku boards of `../shared/data/sudoku/`: stated solutions, uniqueness
//! and exact counts, all from the data files; every board the solver reports
//! is checked against the rules directly (rows, columns, boxes, givens).

mod common;

use bitfd::{Domain, Engine, Mode, NodeKind, SearchOptions, SearchStatus, Solver, Strength, Tree};
use common::{
    ExpectedCount, Sudoku, SudokuSettings, load_json, reveal_every, sudoku_alphabet, sudoku_model,
    sudoku_model_with, sudoku_with_given_domains,
};
use serde_json::Value;

/// The puzzles of a `sudoku-1` or `sudoku-multi-1` file.
fn puzzles(file: &str) -> Vec<Value> {
    load_json(file)["puzzles"]
        .as_array()
        .expect("puzzles")
        .clone()
}

fn text<'a>(puzzle: &'a Value, key: &str) -> &'a str {
    puzzle[key]
        .as_str()
        .unwrap_or_else(|| panic!("{} has no {key}", puzzle["id"]))
}

/// The box size of a puzzle: its own `box`, or the file's.
fn box_size(puzzle: &Value, file_box: Option<u64>) -> usize {
    puzzle["box"].as_u64().or(file_box).expect("box size") as usize
}

/// Whether `board` (a puzzle string, no blanks) fills every row, column and
/// box with each symbol once and keeps every given of `puzzle`: the rules
/// themselves, independent of the model.
fn is_valid_completion(box_size: usize, puzzle: &str, board: &str) -> bool {
    let alphabet = sudoku_alphabet(box_size);
    let side = box_size * box_size;
    let board: Vec<char> = board.chars().collect();
    if board.len() != side * side || !board.iter().all(|&c| alphabet.contains(c)) {
        return false;
    }
    let keeps_givens = puzzle
        .chars()
        .zip(&board)
        .all(|(given, &cell)| given == '.' || given == cell);
    let unit_ok = |cells: &mut dyn Iterator<Item = usize>| {
        let mut seen: Vec<char> = cells.map(|i| board[i]).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len() == side
    };
    keeps_givens
        && (0..side).all(|r| unit_ok(&mut (0..side).map(|c| r * side + c)))
        && (0..side).all(|c| unit_ok(&mut (0..side).map(|r| r * side + c)))
        && (0..side).all(|b| {
            let (top, left) = (b / box_size * box_size, b % box_size * box_size);
            unit_ok(&mut (0..side).map(|i| (top + i / box_size) * side + left + i % box_size))
        })
}

/// Solves with `Mode::AtMost(cap)`, checks every board found against the
/// model and the rules, and returns them rendered.
fn boards_up_to(sudoku: &Sudoku, puzzle: &str, cap: u64) -> Vec<String> {
    let outcome = Solver::new(&sudoku.model).solve(&SearchOptions::default(), Mode::AtMost(cap));
    assert!(!outcome.status.is_cut_short());
    outcome
        .solutions
        .iter()
        .map(|s| {
            assert_eq!(sudoku.model.check(s.values()), Ok(()), "model check");
            let board = sudoku.render(s.values());
            assert!(
                is_valid_completion(sudoku.box_size, puzzle, &board),
                "{board} breaks the rules of {puzzle}"
            );
            board
        })
        .collect()
}

/// Every puzzle of a uniquely solvable set solves to its stated solution,
/// and to nothing else (searching for a second one finds none).
fn assert_unique_stated_solutions(file: &str) {
    let data = load_json(file);
    let file_box = data["box"].as_u64();
    for puzzle in data["puzzles"].as_array().expect("puzzles") {
        let id = &puzzle["id"];
        assert_eq!(
            puzzle["solutions"].as_u64(),
            Some(1),
            "{id}: data says unique"
        );
        let line = text(puzzle, "puzzle");
        let sudoku = sudoku_model(box_size(puzzle, file_box), line);
        let boards = boards_up_to(&sudoku, line, 2);
        assert_eq!(boards, [text(puzzle, "solution")], "{id}");
    }
}

#[test]
fn norvig_top95_all_solve_to_their_stated_solutions() {
    assert_unique_stated_solutions("sudoku/norvig_top95.json");
}

#[test]
fn norvig_hardest_all_solve_to_their_stated_solutions() {
    assert_unique_stated_solutions("sudoku/norvig_hardest.json");
}

#[test]
fn royle_17clue_first500_all_solve_to_their_stated_solutions() {
    assert_unique_stated_solutions("sudoku/royle_17clue_first500.json");
}

#[test]
fn magictour_top1465_all_solve_to_their_stated_solutions() {
    assert_unique_stated_solutions("sudoku/magictour_top1465.json");
}

#[test]
fn stated_solutions_obey_the_rules() {
    // The oracle itself: each file's stated solutions pass the rule checker,
    // and a board with one cell changed does not.
    for file in [
        "sudoku/norvig_top95.json",
        "sudoku/norvig_hardest.json",
        "sudoku/royle_17clue_first500.json",
        "sudoku/magictour_top1465.json",
        "sudoku/michael404_multisize.json",
    ] {
        let data = load_json(file);
        let file_box = data["box"].as_u64();
        for puzzle in data["puzzles"].as_array().expect("puzzles") {
            let Some(solution) = puzzle["solution"].as_str() else {
                continue;
            };
            let size = box_size(puzzle, file_box);
            let line = text(puzzle, "puzzle");
            assert!(
                is_valid_completion(size, line, solution),
                "{}",
                puzzle["id"]
            );
            let mut broken: Vec<char> = solution.chars().collect();
            broken.swap(0, 1);
            let broken: String = broken.into_iter().collect();
            assert!(
                !is_valid_completion(size, line, &broken),
                "{}",
                puzzle["id"]
            );
        }
    }
}

#[test]
fn serg_first200_give_their_exact_solution_counts() {
    for puzzle in puzzles("sudoku/serg_first200_nonunique.json") {
        let id = &puzzle["id"];
        let want = puzzle["solutions"].as_u64().expect("exact count");
        let sudoku = sudoku_model(3, text(&puzzle, "puzzle"));
        let outcome = Solver::new(&sudoku.model).count(&SearchOptions::default());
        assert_eq!(outcome.status, SearchStatus::Complete, "{id}");
        assert_eq!(outcome.stats.solutions, want, "{id}");
    }
}

#[test]
fn serg_boards_found_in_full_are_distinct_and_obey_the_rules() {
    // Every 20th puzzle, listed in full: as many distinct valid boards as the
    // data counts.
    for puzzle in puzzles("sudoku/serg_first200_nonunique.json")
        .iter()
        .step_by(20)
    {
        let id = &puzzle["id"];
        let want = puzzle["solutions"].as_u64().expect("exact count");
        let line = text(puzzle, "puzzle");
        let sudoku = sudoku_model(3, line);
        let mut boards = boards_up_to(&sudoku, line, u64::MAX);
        boards.sort();
        boards.dedup();
        assert_eq!(boards.len() as u64, want, "{id}");
    }
}

#[test]
fn value_strength_without_each_value_held_gives_the_same_counts() {
    // A weaker model explores a bigger tree; on every 10th Serg puzzle and
    // every 10th top95 puzzle it must still count the same.
    let settings = SudokuSettings {
        strength: Strength::Value,
        each_value_held: false,
    };
    let serg = puzzles("sudoku/serg_first200_nonunique.json");
    let top95 = puzzles("sudoku/norvig_top95.json");
    for puzzle in serg.iter().step_by(10).chain(top95.iter().step_by(10)) {
        let id = &puzzle["id"];
        let want = puzzle["solutions"].as_u64().expect("count");
        let sudoku = sudoku_model_with(3, text(puzzle, "puzzle"), settings);
        let outcome = Solver::new(&sudoku.model).count(&SearchOptions::default());
        assert_eq!(outcome.stats.solutions, want, "{id}");
    }
}

/// The `michael404_multisize.json` boards with the given box size.
fn multisize(box_size: u64) -> Vec<Value> {
    puzzles("sudoku/michael404_multisize.json")
        .into_iter()
        .filter(|p| p["box"].as_u64() == Some(box_size))
        .collect()
}

/// The one board whose `solutions_computed` is a cap, not a count: the data
/// says 100, but 101 distinct boards that pass the rule checker exist
/// (`michael404_16x16_multiple_solutions_board_has_more_than_the_100_the_data_states`),
/// so the data's counter must have stopped at 100.
const CAPPED_AT_100: &str = "m404-16-multipleSolutions";

/// Checks a `sudoku-multi-1` board: its stated solution when it has one, and
/// its computed count when the data has one (searching one past it).
fn assert_multisize_board(puzzle: &Value) {
    let id = &puzzle["id"];
    let size = box_size(puzzle, None);
    let line = text(puzzle, "puzzle");
    let sudoku = sudoku_model(size, line);
    let count = match ExpectedCount::parse(&puzzle["solutions_computed"]) {
        Some(ExpectedCount::Exact(n)) if id == CAPPED_AT_100 => Some(ExpectedCount::AtLeast(n)),
        count => count,
    };
    let cap = match count {
        Some(ExpectedCount::Exact(n)) => n + 1,
        Some(ExpectedCount::AtLeast(n)) => n,
        // Only the stated solution is known: it must be the first of at most 2.
        None => 2,
    };
    let boards = boards_up_to(&sudoku, line, cap);
    match count {
        Some(ExpectedCount::Exact(n) | ExpectedCount::AtLeast(n)) => {
            assert_eq!(boards.len() as u64, n, "{id}");
        }
        None => assert!(!boards.is_empty(), "{id}"),
    }
    if let Some(solution) = puzzle["solution"].as_str() {
        assert!(
            boards.iter().any(|b| b == solution),
            "{id}: stated solution"
        );
    }
    if let Some(listed) = puzzle["stated_solutions"].as_array() {
        let mut listed: Vec<&str> = listed.iter().map(|s| s.as_str().expect("board")).collect();
        let mut found: Vec<&str> = boards.iter().map(String::as_str).collect();
        listed.sort_unstable();
        found.sort_unstable();
        assert_eq!(found, listed, "{id}: the source lists every solution");
    }
}

#[test]
fn michael404_9x9_boards_give_their_stated_solutions_and_counts() {
    let boards = multisize(3);
    assert!(boards.len() >= 20);
    for puzzle in &boards {
        assert_multisize_board(puzzle);
    }
}

#[test]
fn michael404_many_solutions_board_gives_exactly_its_38_listed_boards() {
    let puzzle = multisize(3)
        .into_iter()
        .find(|p| p["name"] == "manySolutions")
        .expect("manySolutions");
    assert_eq!(
        puzzle["stated_solutions"].as_array().map(Vec::len),
        Some(38)
    );
    assert_multisize_board(&puzzle);
}

#[test]
fn michael404_16x16_boards_give_their_stated_solutions_and_counts() {
    let boards = multisize(4);
    assert_eq!(boards.len(), 5);
    for puzzle in &boards {
        assert_multisize_board(puzzle);
    }
}

#[test]
fn michael404_16x16_multiple_solutions_board_has_more_than_the_100_the_data_states() {
    // Data finding, not a solver claim: 101 distinct boards, each checked
    // by the rule checker alone, refute an exact count of 100.
    let puzzle = multisize(4)
        .into_iter()
        .find(|p| p["id"] == CAPPED_AT_100)
        .expect("the 16x16 multi-solution board");
    assert_eq!(puzzle["solutions_computed"].as_u64(), Some(100));
    let line = text(&puzzle, "puzzle");
    let mut boards = boards_up_to(&sudoku_model(4, line), line, 101);
    boards.sort();
    boards.dedup();
    assert_eq!(boards.len(), 101);
}

/// The 25x25 and 36x36 boards.
fn large_boards() -> Vec<Value> {
    let boards: Vec<Value> = multisize(5).into_iter().chain(multisize(6)).collect();
    assert_eq!(boards.len(), 14, "5 of 25x25 and 9 of 36x36");
    boards
}

#[test]
fn propagation_keeps_the_stated_solution_of_every_large_board() {
    // The boards themselves take the plain search minutes (their source
    // says its own solver needs millions of nodes). What can be checked
    // fast is soundness: fixing the cells one by one to the stated solution,
    // propagation never fails and never removes a stated value.
    for puzzle in large_boards() {
        let id = &puzzle["id"];
        let size = box_size(&puzzle, None);
        let solution = sudoku_model(size, text(&puzzle, "solution")).givens;
        let sudoku = sudoku_model(size, text(&puzzle, "puzzle"));
        let mut engine = Engine::new(&sudoku.model);
        for (&x, v) in sudoku.cells.iter().zip(&solution) {
            let v = v.expect("a full board");
            assert_eq!(engine.propagate(), Ok(()), "{id}");
            assert!(
                sudoku
                    .cells
                    .iter()
                    .zip(&solution)
                    .all(|(&y, w)| engine.dom(y).contains(u32::from(w.expect("full")))),
                "{id}: a stated value was removed"
            );
            engine.restrict(x, Domain::singleton(v));
        }
        assert_eq!(engine.propagate(), Ok(()), "{id}");
    }
}

#[test]
fn large_boards_with_every_8th_blank_revealed_solve_to_their_stated_solutions() {
    // Revealing a stated value keeps the stated solution a solution; the
    // boards whose source proves them unique stay unique.
    for puzzle in large_boards() {
        let id = &puzzle["id"];
        let size = box_size(&puzzle, None);
        let solution = text(&puzzle, "solution");
        let line = reveal_every(8, text(&puzzle, "puzzle"), solution);
        let boards = boards_up_to(&sudoku_model(size, &line), &line, 2);
        assert_eq!(boards.first().map(String::as_str), Some(solution), "{id}");
        let proven_unique = text(&puzzle, "source_note").contains("unique");
        if proven_unique {
            assert_eq!(boards.len(), 1, "{id}: the source proves it unique");
        }
    }
}

#[test]
fn invalid_boards_have_no_solution() {
    let invalid: Vec<Value> = puzzles("sudoku/michael404_multisize.json")
        .into_iter()
        .filter(|p| p["name"] == "invalid")
        .collect();
    assert_eq!(invalid.len(), 2, "a 9x9 and a 16x16");
    for puzzle in &invalid {
        assert_eq!(puzzle["solutions_computed"].as_u64(), Some(0));
        let sudoku = sudoku_model(box_size(puzzle, None), text(puzzle, "puzzle"));
        let outcome = Solver::new(&sudoku.model).count(&SearchOptions::default());
        assert_eq!(outcome.status, SearchStatus::Complete, "{}", puzzle["id"]);
        assert_eq!(outcome.stats.solutions, 0, "{}", puzzle["id"]);
    }
}

#[test]
fn givens_are_read_in_the_boards_alphabet() {
    // 16x16 boards use '0' as a digit: the first symbol, value 1.
    let sudoku = sudoku_model(4, &format!("0F{}", ".".repeat(254)));
    assert_eq!(sudoku.givens[..3], [Some(1), Some(16), None]);
    let sudoku = sudoku_model(3, &format!("19{}", ".".repeat(79)));
    assert_eq!(sudoku.givens[..3], [Some(1), Some(9), None]);
    assert_eq!(sudoku.model.len(), 81);
    assert_eq!(sudoku.units().len(), 27);
}

/// Every board the model of `line` (a board of box size `size`) at
/// `strength`, with each-value-held, has, sorted; `None` when the search
/// stopped at `node_limit` nodes first.
fn every_board(
    size: usize,
    line: &str,
    strength: Strength,
    node_limit: u64,
) -> Option<Vec<String>> {
    let settings = SudokuSettings {
        strength,
        each_value_held: true,
    };
    let sudoku = sudoku_model_with(size, line, settings);
    let options = SearchOptions::default().node_limit(node_limit);
    let outcome = Solver::new(&sudoku.model).solve(&options, Mode::All);
    if outcome.status.is_cut_short() {
        return None;
    }
    let mut boards: Vec<String> = outcome
        .solutions
        .iter()
        .map(|s| sudoku.render(s.values()))
        .collect();
    boards.sort_unstable();
    Some(boards)
}

#[test]
fn domain_and_value_strength_find_the_same_boards_on_all_sudoku_data() {
    // Both strengths prune only what no solution uses, so they must find
    // the same boards. Every board of every file: the 9x9 sets whole, the
    // multi-size file's 9x9 and 16x16 boards as they are, its 25x25 and
    // 36x36 boards (minutes of search as they are) with every 8th blank
    // revealed. Each search stops at a node limit, which only the 16x16
    // board with more than a hundred solutions reaches (at both
    // strengths); domain strength, whose trees are never bigger, must
    // finish wherever value strength does.
    const NODES: u64 = 20_000;
    let (mut puzzles, mut compared, mut boards) = (0, 0, 0);
    for file in [
        "sudoku/norvig_top95.json",
        "sudoku/norvig_hardest.json",
        "sudoku/royle_17clue_first500.json",
        "sudoku/magictour_top1465.json",
        "sudoku/serg_first200_nonunique.json",
        "sudoku/michael404_multisize.json",
    ] {
        let data = load_json(file);
        let file_box = data["box"].as_u64();
        for puzzle in data["puzzles"].as_array().expect("puzzles") {
            let id = &puzzle["id"];
            let size = box_size(puzzle, file_box);
            let line = match size {
                3 | 4 => text(puzzle, "puzzle").to_owned(),
                _ => reveal_every(8, text(puzzle, "puzzle"), text(puzzle, "solution")),
            };
            puzzles += 1;
            let domain = every_board(size, &line, Strength::Domain, NODES);
            let value = every_board(size, &line, Strength::Value, NODES);
            match (domain, value) {
                (Some(domain), Some(value)) => {
                    assert_eq!(domain, value, "{id}");
                    compared += 1;
                    boards += domain.len();
                }
                (domain, value) => {
                    assert!(value.is_none(), "{id}: domain strength stopped short");
                    assert!(
                        domain.is_none() && id == CAPPED_AT_100,
                        "{id} stopped short"
                    );
                }
            }
        }
    }
    assert_eq!(compared, puzzles - 1, "all but the capped board");
    assert!(boards > 50_000, "{boards} boards");
}

/// Every serg board has the number of solutions its data states in the
/// library's sudoku model (box-line, and the dual viewpoints when `views`),
/// the boards in turn under first-fail, dom/wdeg, and dom/wdeg with the
/// last conflict.
fn assert_the_serg_counts(views: bool) {
    use bitfd::VarOrder;
    for (k, puzzle) in puzzles("sudoku/serg_first200_nonunique.json")
        .iter()
        .enumerate()
    {
        let id = &puzzle["id"];
        let want = puzzle["solutions"].as_u64().expect("exact count");
        let sm = library_model(text(puzzle, "puzzle"), views);
        let options = match k % 3 {
            0 => SearchOptions::default(),
            1 => SearchOptions::default().var_order(VarOrder::DomWdeg),
            _ => SearchOptions::default()
                .var_order(VarOrder::DomWdeg)
                .last_conflict(true),
        };
        let outcome = Solver::new(sm.model()).count(&options);
        assert_eq!(outcome.status, SearchStatus::Complete, "{id}");
        assert_eq!(outcome.stats.solutions, want, "{id}");
    }
}

#[test]
fn box_line_keeps_the_exact_counts_of_the_serg_boards() {
    // The box-line propagators are redundant: with them, every board still
    // has the number of solutions its data states.
    assert_the_serg_counts(false);
}

/// Fixing the stated cells of every large board, `chunk` at a time, in the
/// library's sudoku model (box-line, and the dual viewpoints when `views`):
/// propagation never fails and never removes a stated value.
fn assert_propagation_keeps_the_stated_solutions(views: bool, chunk: usize) {
    use bitfd::sudoku::Board;
    for puzzle in large_boards() {
        let id = &puzzle["id"];
        let solution = Board::parse(text(&puzzle, "solution")).expect("a full board");
        let sm = library_model(text(&puzzle, "puzzle"), views);
        let mut engine = Engine::new(sm.model());
        let stated = |engine: &Engine| {
            sm.cells()
                .iter()
                .zip(solution.cells())
                .all(|(&y, w)| engine.dom(y).contains(u32::from(w.expect("full"))))
        };
        for (cells, values) in sm.cells().chunks(chunk).zip(solution.cells().chunks(chunk)) {
            assert_eq!(engine.propagate(), Ok(()), "{id}");
            assert!(stated(&engine), "{id}: a stated value was removed");
            for (&x, v) in cells.iter().zip(values) {
                engine.restrict(x, Domain::singleton(v.expect("full")));
            }
        }
        assert_eq!(engine.propagate(), Ok(()), "{id}");
        assert!(stated(&engine), "{id}");
    }
}

#[test]
fn box_line_propagation_keeps_the_stated_solution_of_every_large_board() {
    // As `propagation_keeps_the_stated_solution_of_every_large_board`, with
    // the box-line propagators of the library's own sudoku model (16 cells
    // at a time, to keep the test short).
    assert_propagation_keeps_the_stated_solutions(false, 16);
}

#[test]
fn box_line_and_dom_wdeg_solve_the_16x16_boards_to_their_stated_solutions() {
    use bitfd::VarOrder;
    use bitfd::sudoku::Board;
    for puzzle in multisize(4) {
        let id = &puzzle["id"];
        let Some(solution) = puzzle["solution"].as_str() else {
            continue;
        };
        let mut sm = Board::parse(text(&puzzle, "puzzle"))
            .expect("a board")
            .to_model(Strength::Domain);
        sm.add_box_line();
        let options = SearchOptions::default().var_order(VarOrder::DomWdeg);
        let outcome = Solver::new(sm.model()).solve(&options, Mode::AtMost(2));
        assert!(!outcome.solutions.is_empty(), "{id}");
        assert_eq!(sm.line(&outcome.solutions[0]), solution, "{id}");
        if puzzle["solutions_computed"].as_u64() == Some(1) {
            assert_eq!(outcome.stats.solutions, 1, "{id}: unique");
            assert_eq!(outcome.status, SearchStatus::Complete, "{id}");
        }
    }
}

/// The library's sudoku model of `line` with box-line and, when `views`,
/// the dual viewpoints.
fn library_model(line: &str, views: bool) -> bitfd::sudoku::SudokuModel {
    library_model_with(line, true, views)
}

/// A board's model as `bitfd sudoku` builds it at domain strength, with or
/// without the box-line bands and the dual viewpoints.
fn library_model_with(line: &str, box_line: bool, views: bool) -> bitfd::sudoku::SudokuModel {
    let mut sm = bitfd::sudoku::Board::parse(line)
        .expect("a board")
        .to_model(Strength::Domain);
    if box_line {
        sm.add_box_line();
    }
    if views {
        sm.add_views(Strength::Domain);
    }
    sm
}

#[test]
fn views_keep_the_exact_counts_of_the_serg_boards() {
    // The dual viewpoints are redundant: with them too (the positions follow
    // from the cells, so they add no solution), and the search may now
    // branch on positions.
    assert_the_serg_counts(true);
}

#[test]
fn views_find_the_same_boards_as_the_cells_alone_on_the_hard_9x9_sets() {
    // Every tenth puzzle of the two hard 9x9 sets: the unique stated
    // solution, with and without the views.
    for file in ["sudoku/norvig_top95.json", "sudoku/magictour_top1465.json"] {
        for puzzle in puzzles(file).iter().step_by(10) {
            let id = &puzzle["id"];
            for views in [false, true] {
                let sm = library_model(text(puzzle, "puzzle"), views);
                let outcome =
                    Solver::new(sm.model()).solve(&SearchOptions::default(), Mode::AtMost(2));
                assert_eq!(outcome.status, SearchStatus::Complete, "{id}");
                assert_eq!(outcome.solutions.len(), 1, "{id}: unique");
                assert_eq!(
                    sm.line(&outcome.solutions[0]),
                    text(puzzle, "solution"),
                    "{id}"
                );
            }
        }
    }
}

#[test]
fn views_propagation_keeps_the_stated_solution_of_every_large_board() {
    // The same with the dual viewpoints too.
    assert_propagation_keeps_the_stated_solutions(true, 64);
}

#[test]
fn the_large_board_search_proves_the_quick_large_boards_unique() {
    // The large boards that take `bitfd sudoku`'s large-board search
    // (dom/wdeg, restarts with nogoods and probing at the root) well under
    // a second: with the box-line bands, with and without the dual
    // viewpoints, and with neither, as `bitfd sudoku` builds them; with
    // that search and with dom/wdeg and the last conflict alone, each
    // solves to its stated
    // solution and is proven unique, as its source says, within a node
    // budget far above what they need. A search that restarts gives the
    // same statistics on a second run.
    use bitfd::{Restarts, VarOrder};
    let without = SearchOptions::default()
        .var_order(VarOrder::DomWdeg)
        .last_conflict(true)
        .node_limit(200_000);
    let with = without
        .last_conflict(false)
        .restarts(Restarts::Geometric { first: 40 })
        .probe(true);
    for id in [
        "m404-25-lowPairUnavoidable1",
        "m404-25-minimal2",
        "m404-25-minimal3",
    ] {
        let puzzle = large_boards()
            .into_iter()
            .find(|p| p["id"] == id)
            .expect("in the data");
        assert!(text(&puzzle, "source_note").contains("unique"), "{id}");
        // Box-line with and without the views, and neither (the default).
        for (box_line, views, options) in [(true, false), (true, true), (false, false)]
            .into_iter()
            .flat_map(|(b, v)| [(b, v, without), (b, v, with)])
        {
            let sm = library_model_with(text(&puzzle, "puzzle"), box_line, views);
            let outcome = Solver::new(sm.model()).solve(&options, Mode::AtMost(2));
            let at = format!(
                "{id} box-line {box_line} views {views} {:?}",
                options.restarts
            );
            assert_eq!(outcome.status, SearchStatus::Complete, "{at}");
            assert_eq!(outcome.solutions.len(), 1, "{at}: unique");
            assert_eq!(
                sm.line(&outcome.solutions[0]),
                text(&puzzle, "solution"),
                "{at}"
            );
            let again = Solver::new(sm.model()).solve(&options, Mode::AtMost(2));
            assert_eq!(again.stats, outcome.stats, "{at}");
        }
    }
}

/// Each node of `tree` as its parent, decision and kind, a failure without
/// the constraint that found it.
fn shape(tree: &Tree) -> Vec<String> {
    tree.nodes()
        .iter()
        .map(|node| {
            let kind = match node.kind {
                NodeKind::Failed { .. } => NodeKind::Failed { by: None },
                kind => kind,
            };
            format!("{:?} {:?} {kind:?}", node.parent, node.decision)
        })
        .collect()
}

#[test]
fn rounds_through_the_costly_class_search_the_same_trees_as_lowest_first() {
    // With its givens posted as constraints a board has more than 64
    // propagators, and the engine runs its domain all-differents by rounds;
    // with the givens as initial domains (54 propagators, a queue of one
    // word, and another posting order) it runs them lowest first. A fixpoint does not depend on the
    // order the propagators run in, so both must search the same tree,
    // node for node (a failure may be found by another unit).
    let options = SearchOptions::default();
    let mut nodes = 0;
    for puzzle in puzzles("sudoku/norvig_top95.json").iter().take(30) {
        let line = text(puzzle, "puzzle");
        let rounds = sudoku_model_with(3, line, SudokuSettings::default()).model;
        let lowest_first = sudoku_with_given_domains(line, true);
        assert!(Engine::new(&rounds).propagator_count() > 64);
        assert!(Engine::new(&lowest_first).propagator_count() <= 64);
        let (a, by_rounds) = Tree::record(&rounds, &options, Mode::AtMost(2));
        let (b, by_lowest) = Tree::record(&lowest_first, &options, Mode::AtMost(2));
        assert_eq!(shape(&a), shape(&b), "{}", puzzle["id"]);
        assert_eq!(by_rounds.stats.nodes, by_lowest.stats.nodes);
        nodes += by_rounds.stats.nodes;
    }
    assert!(nodes > 1_000, "the boards search: {nodes} nodes");
}
