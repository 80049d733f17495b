//! Shared helpers for integration tests: loading the external test data in
//! `../shared/data` (its README documents the JSON form) into models.

#![allow(dead_code, reason = "each test binary uses a different part")]

// Only tests run the binary (the examples include this folder too).
#[cfg(all(test, feature = "cli"))]
pub(crate) mod cli;
pub(crate) mod zebra_text;

use std::path::PathBuf;

use bitfd::{ConstraintId, Domain, Model, Strength, VarId};
use serde_json::Value;

/// The shared test data folder: `BITFD_DATA`, or `../shared/data` beside the
/// checkout. A test that needs it and does not find it fails with one
/// message that says where it looked and how to point elsewhere.
pub(crate) fn data_dir() -> PathBuf {
    let dir = std::env::var_os("BITFD_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    assert!(
        dir.is_dir(),
        "the shared test data is not at {}: check out the shared data beside \
         the repository (../shared/data) or set BITFD_DATA to its folder",
        dir.display()
    );
    dir
}

/// Reads and parses a JSON file under the data folder.
pub(crate) fn load_json(relative: &str) -> Value {
    let path = data_dir().join(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

/// How to build a zebra model from the JSON.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ZebraSettings {
    /// All-different strength for each group.
    pub(crate) strength: Strength,
    /// Whether each group also gets each-value-held.
    pub(crate) each_value_held: bool,
    /// Declare the variables sorted by name (Oz's record arity order)
    /// instead of group by group.
    pub(crate) alphabetical: bool,
}

impl Default for ZebraSettings {
    fn default() -> ZebraSettings {
        ZebraSettings {
            strength: Strength::Domain,
            each_value_held: true,
            alphabetical: false,
        }
    }
}

/// A zebra puzzle from the JSON, built into a model.
pub(crate) struct Zebra {
    pub(crate) model: Model,
    pub(crate) houses: i64,
    /// Group name and its variables.
    pub(crate) groups: Vec<(String, Vec<VarId>)>,
    /// Clue constraints, with the clue number.
    pub(crate) clues: Vec<(i64, ConstraintId)>,
}

/// Builds the model of one puzzle object of a `zebra-1` file.
pub(crate) fn zebra_model(puzzle: &Value, settings: ZebraSettings) -> Zebra {
    let houses = puzzle["houses"].as_i64().expect("houses");
    let mut names: Vec<(String, String)> = Vec::new(); // (value, group)
    for g in puzzle["groups"].as_array().expect("groups") {
        let group = g["name"].as_str().expect("group name").to_owned();
        for v in g["values"].as_array().expect("values") {
            names.push((v.as_str().expect("value").to_owned(), group.clone()));
        }
    }
    let mut order = names.clone();
    if settings.alphabetical {
        order.sort();
    }
    let mut model = Model::new();
    for (name, _) in &order {
        model.int_var(name, 1, houses).expect("fresh name");
    }
    let mut groups: Vec<(String, Vec<VarId>)> = Vec::new();
    for (name, group) in &names {
        let x = model.var(name).expect("declared");
        match groups.iter_mut().find(|(g, _)| g == group) {
            Some((_, vars)) => vars.push(x),
            None => groups.push((group.clone(), vec![x])),
        }
    }
    for (_, vars) in &groups {
        model.all_different(vars, settings.strength).expect("valid");
        if settings.each_value_held && vars.len() as i64 == houses {
            model
                .each_value_held(vars, Domain::range(1, houses as u8))
                .expect("valid");
        }
    }
    let mut clues = Vec::new();
    for clue in puzzle["clues"].as_array().expect("clues") {
        let n = clue["n"].as_i64().unwrap_or(0);
        let text = clue["text"].as_str().unwrap_or("");
        for id in post_clue(&mut model, clue) {
            model.set_label(id, text);
            clues.push((n, id));
        }
    }
    Zebra {
        model,
        houses,
        groups,
        clues,
    }
}

fn post_clue(model: &mut Model, clue: &Value) -> Vec<ConstraintId> {
    let kind = clue["kind"].as_str().expect("kind");
    if kind == "all" {
        return clue["constraints"]
            .as_array()
            .expect("constraints")
            .iter()
            .flat_map(|c| post_clue(model, c))
            .collect();
    }
    if kind == "none" {
        return Vec::new();
    }
    let args = clue["args"].as_array().expect("args");
    let var = |i: usize| {
        let name = args[i].as_str().expect("value name");
        model
            .var(name)
            .unwrap_or_else(|_| panic!("unknown value {name}"))
    };
    let int = |i: usize| args[i].as_i64().expect("number");
    let id = match kind {
        "same" => {
            let (a, b) = (var(0), var(1));
            model.equal(a, b)
        }
        "neq" => {
            let (a, b) = (var(0), var(1));
            model.not_equal(a, b)
        }
        "at" => {
            let a = var(0);
            model.equal_value(a, int(1))
        }
        "not_at" => {
            let a = var(0);
            model.not_equal_value(a, int(1))
        }
        "in" => {
            let a = var(0);
            let set: Vec<i64> = args[1]
                .as_array()
                .expect("set")
                .iter()
                .map(|v| v.as_i64().expect("int"))
                .collect();
            model.in_set(a, &set)
        }
        "offset" => {
            let (a, b) = (var(0), var(1));
            model.offset(a, b, int(2))
        }
        "distance" => {
            let (a, b) = (var(0), var(1));
            model.distance(a, b, int(2))
        }
        "not_distance" => {
            let (a, b) = (var(0), var(1));
            model.not_distance(a, b, int(2))
        }
        "less" => {
            let (a, b) = (var(0), var(1));
            model.less(a, b)
        }
        "between" => {
            let (a, x, b) = (var(0), var(1), var(2));
            let first = model.less(a, x).expect("valid");
            let second = model.less(x, b).expect("valid");
            return vec![first, second];
        }
        other => panic!("unknown clue kind {other}"),
    };
    vec![id.expect("valid clue")]
}

/// An expected solution count from the data: exact, or a lower bound when
/// the data's counter stopped at a cap (`">=1000"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExpectedCount {
    /// Exactly this many solutions.
    Exact(u64),
    /// At least this many solutions (the data's counter stopped there).
    AtLeast(u64),
}

impl ExpectedCount {
    /// Reads a count written as a number (`31`) or a capped string
    /// (`">=1000"`); `None` for anything else (`"not computed (...)"`).
    pub(crate) fn parse(value: &Value) -> Option<ExpectedCount> {
        if let Some(n) = value.as_u64() {
            return Some(ExpectedCount::Exact(n));
        }
        let text = value.as_str()?.trim();
        let bound = text.strip_prefix(">=")?.trim();
        bound.parse().ok().map(ExpectedCount::AtLeast)
    }

    /// The count of a puzzle's `expected` block: `solutions_computed` when
    /// it is given, else `solutions` (the derived variants have only that).
    pub(crate) fn of_expected(expected: &Value) -> Option<ExpectedCount> {
        ExpectedCount::parse(&expected["solutions_computed"])
            .or_else(|| ExpectedCount::parse(&expected["solutions"]))
    }
}

/// The symbols of a sudoku of the given box size, in value order: the
/// `i`-th symbol stands for the value `i + 1` (the alphabets named in
/// `sudoku/michael404_multisize.json`).
///
/// # Panics
///
/// For a box size other than 3, 4, 5 or 6.
pub(crate) fn sudoku_alphabet(box_size: usize) -> &'static str {
    match box_size {
        3 => "123456789",
        4 => "0123456789ABCDEF",
        5 => "ABCDEFGHIJKLMNOPQRSTUVWXY",
        6 => "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        _ => panic!("no sudoku alphabet for box size {box_size}"),
    }
}

/// How to build a sudoku model.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SudokuSettings {
    /// All-different strength for each row, column and box.
    pub(crate) strength: Strength,
    /// Whether each unit also gets each-value-held ("hidden singles").
    pub(crate) each_value_held: bool,
}

impl Default for SudokuSettings {
    fn default() -> SudokuSettings {
        SudokuSettings {
            strength: Strength::Domain,
            each_value_held: true,
        }
    }
}

/// A sudoku board built into a model: one variable a cell, values
/// `1..=side`.
#[derive(Debug)]
pub(crate) struct Sudoku {
    pub(crate) model: Model,
    /// Cells per box side: 3 for the classic 9x9.
    pub(crate) box_size: usize,
    /// Cells per row: `box_size * box_size`.
    pub(crate) side: usize,
    /// The cell variables, row by row.
    pub(crate) cells: Vec<VarId>,
    /// The given value of each cell, row by row.
    pub(crate) givens: Vec<Option<u8>>,
}

impl Sudoku {
    /// The rows, columns and boxes, each as the cell indices it holds.
    pub(crate) fn units(&self) -> Vec<Vec<usize>> {
        sudoku_units(self.box_size)
    }

    /// A solution's cell values as a puzzle string in the board's alphabet.
    pub(crate) fn render(&self, values: &[u8]) -> String {
        let alphabet = sudoku_alphabet(self.box_size).as_bytes();
        self.cells
            .iter()
            .map(|x| char::from(alphabet[usize::from(values[x.index()]) - 1]))
            .collect()
    }
}

/// The rows, columns and boxes of a sudoku with the given box size, each as
/// the (row-major) cell indices it holds.
pub(crate) fn sudoku_units(box_size: usize) -> Vec<Vec<usize>> {
    let side = box_size * box_size;
    let mut units = Vec::with_capacity(3 * side);
    for r in 0..side {
        units.push((0..side).map(|c| r * side + c).collect());
    }
    for c in 0..side {
        units.push((0..side).map(|r| r * side + c).collect());
    }
    for b in 0..side {
        let (top, left) = (b / box_size * box_size, b % box_size * box_size);
        units.push(
            (0..side)
                .map(|i| (top + i / box_size) * side + left + i % box_size)
                .collect(),
        );
    }
    units
}

/// The sudoku of a puzzle string (row by row, `.` for a blank, symbols from
/// [`sudoku_alphabet`]) with domain all-different and each-value-held on
/// every unit, and each given posted with `equal_value`.
///
/// # Panics
///
/// If the string has the wrong length or a symbol outside the alphabet.
pub(crate) fn sudoku_model(box_size: usize, puzzle: &str) -> Sudoku {
    sudoku_model_with(box_size, puzzle, SudokuSettings::default())
}

/// A 9x9 sudoku from its 81-character line: cells `r{row}c{col}`, givens as
/// fixed initial domains, domain-consistent all-different a row, column and
/// box, labelled, each followed by an each-value-held when
/// `each_value_held`.
pub(crate) fn sudoku_with_given_domains(line: &str, each_value_held: bool) -> Model {
    let mut m = Model::new();
    let cells: Vec<_> = line
        .chars()
        .enumerate()
        .map(|(i, ch)| {
            let name = format!("r{}c{}", i / 9 + 1, i % 9 + 1);
            let domain = match ch.to_digit(10) {
                Some(v) => Domain::singleton(v as u8),
                None => Domain::range(1, 9),
            };
            m.var_with_domain(&name, domain).expect("fresh name")
        })
        .collect();
    for k in 0..9 {
        let row: Vec<_> = (0..9).map(|j| cells[k * 9 + j]).collect();
        let col: Vec<_> = (0..9).map(|j| cells[j * 9 + k]).collect();
        let boxed: Vec<_> = (0..9)
            .map(|j| cells[(k / 3 * 3 + j / 3) * 9 + k % 3 * 3 + j % 3])
            .collect();
        for (vars, what) in [(row, "row"), (col, "column"), (boxed, "box")] {
            let c = m.all_different(&vars, Strength::Domain).expect("valid");
            m.set_label(c, format!("Each digit once in {what} {}.", k + 1));
            if each_value_held {
                m.each_value_held(&vars, Domain::range(1, 9))
                    .expect("as many cells as values");
            }
        }
    }
    m
}

/// As [`sudoku_model`], with the given settings.
///
/// # Panics
///
/// As [`sudoku_model`].
pub(crate) fn sudoku_model_with(box_size: usize, puzzle: &str, settings: SudokuSettings) -> Sudoku {
    let alphabet = sudoku_alphabet(box_size);
    let side = box_size * box_size;
    let givens: Vec<Option<u8>> = puzzle
        .chars()
        .map(|ch| {
            (ch != '.').then(|| {
                let i = alphabet
                    .find(ch)
                    .unwrap_or_else(|| panic!("{ch:?} is not a symbol of a {side}x{side} sudoku"));
                u8::try_from(i + 1).expect("at most 36 symbols")
            })
        })
        .collect();
    assert_eq!(givens.len(), side * side, "a {side}x{side} board");
    let units = sudoku_units(box_size);
    let mut model = Model::with_capacity(side * side, 2 * units.len() + side * side);
    let hi = i64::try_from(side).expect("small");
    let cells: Vec<VarId> = (0..side * side)
        .map(|i| {
            let name = format!("r{}c{}", i / side + 1, i % side + 1);
            model.int_var(&name, 1, hi).expect("fresh name, 1..=36")
        })
        .collect();
    let all_values = Domain::range(1, u8::try_from(side).expect("small"));
    for unit in &units {
        let vars: Vec<VarId> = unit.iter().map(|&i| cells[i]).collect();
        model
            .all_different(&vars, settings.strength)
            .expect("at most 36 cells");
        if settings.each_value_held {
            model
                .each_value_held(&vars, all_values)
                .expect("as many cells as values");
        }
    }
    for (&x, given) in cells.iter().zip(&givens) {
        if let Some(v) = given {
            let id = model.equal_value(x, i64::from(*v)).expect("1..=36");
            model.set_label(id, "given");
        }
    }
    Sudoku {
        model,
        box_size,
        side,
        cells,
        givens,
    }
}

/// `puzzle` with every `step`-th blank filled in from `solution`: a board
/// with more givens and (when `puzzle` has only `solution`) the same
/// unique solution.
pub(crate) fn reveal_every(step: usize, puzzle: &str, solution: &str) -> String {
    let mut blanks = 0;
    puzzle
        .chars()
        .zip(solution.chars())
        .map(|(given, answer)| {
            if given != '.' {
                return given;
            }
            blanks += 1;
            if blanks % step == 0 { answer } else { '.' }
        })
        .collect()
}

/// A board of `michael404_multisize.json` by its id, with every `reveal`-th
/// blank filled in from its stated solution (none for 0), and its box size.
pub(crate) fn multisize_board(id: &str, reveal: usize) -> (usize, String) {
    let data = load_json("sudoku/michael404_multisize.json");
    let puzzle = data["puzzles"]
        .as_array()
        .expect("puzzles")
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no board {id}"));
    let text = |key: &str| puzzle[key].as_str().expect("a board").to_owned();
    let line = match reveal {
        0 => text("puzzle"),
        step => reveal_every(step, &text("puzzle"), &text("solution")),
    };
    (puzzle["box"].as_u64().expect("box") as usize, line)
}

/// N-queens with one variable a row (its queen's column, `0..n`) and three
/// all-different constraints with offsets: columns `x_i`, diagonals
/// `x_i + i` and anti-diagonals `x_i - i + (n - 1)`, the offsets keeping
/// every shifted value in `0..=63`.
///
/// # Panics
///
/// For `n > 32` (the diagonals would leave `0..=63`).
pub(crate) fn queens_model(n: usize, strength: Strength) -> (Model, Vec<VarId>) {
    assert!(n <= 32, "diagonal values must stay in 0..=63");
    let mut model = Model::with_capacity(n, 3);
    let rows = queens_rows(&mut model, n);
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| n as i64 - 1 - i).collect();
    let columns = model.all_different(&rows, strength).expect("valid");
    model.set_label(columns, "no two queens share a column");
    let diagonals = model
        .all_different_offsets(&rows, &up, strength)
        .expect("x_i + i stays in 0..=63");
    model.set_label(diagonals, "no two queens share a diagonal");
    let anti = model
        .all_different_offsets(&rows, &down, strength)
        .expect("x_i - i + n - 1 stays in 0..=63");
    model.set_label(anti, "no two queens share an anti-diagonal");
    (model, rows)
}

/// N-queens with pairwise constraints only: for rows `i < j`,
/// `x_i != x_j` and `|x_i - x_j| != j - i`.
///
/// # Panics
///
/// For `n > 64`.
pub(crate) fn queens_pairwise_model(n: usize) -> (Model, Vec<VarId>) {
    assert!(n <= 64, "columns are values 0..=63");
    let mut model = Model::with_capacity(n, n * n);
    let rows = queens_rows(&mut model, n);
    for j in 0..n {
        for i in 0..j {
            model.not_equal(rows[i], rows[j]).expect("valid");
            model
                .not_distance(rows[i], rows[j], (j - i) as i64)
                .expect("distance below 64");
        }
    }
    (model, rows)
}

fn queens_rows(model: &mut Model, n: usize) -> Vec<VarId> {
    (0..n)
        .map(|i| {
            model
                .int_var(&format!("row{}", i + 1), 0, n as i64 - 1)
                .expect("fresh name, 0..n")
        })
        .collect()
}

/// How the classic zebra's rows are constrained.
#[derive(Clone, Copy)]
pub(crate) struct Rows {
    /// The all-different's strength.
    pub(crate) strength: Strength,
    /// Whether each row also gets each-value-held (redundant with a domain
    /// all-different over five values, as a zebra row is: it changes no
    /// node of the tree, only what the build does).
    pub(crate) each_value_held: bool,
}

/// Domain all-different and each-value-held, as `examples/zebra.rs` posts
/// them.
pub(crate) const FULL: Rows = Rows {
    strength: Strength::Domain,
    each_value_held: true,
};

/// Value all-different alone: the weakest rows that give the same tree.
pub(crate) const VALUE: Rows = Rows {
    strength: Strength::Value,
    each_value_held: false,
};

/// The classic zebra puzzle (Life 1962), written out by hand.
pub(crate) fn classic_zebra(rows: Rows) -> Model {
    let mut m = Model::with_capacity(25, 30);
    post_classic_zebra(&mut m, rows);
    m
}

/// Declares the classic zebra puzzle's variables and constraints in `m`,
/// an empty model.
pub(crate) fn post_classic_zebra(m: &mut Model, rows: Rows) {
    let groups = [
        [
            "Englishman",
            "Spaniard",
            "Ukrainian",
            "Norwegian",
            "Japanese",
        ],
        ["red", "green", "ivory", "yellow", "blue"],
        ["dog", "snails", "fox", "horse", "zebra"],
        ["coffee", "tea", "milk", "orange juice", "water"],
        [
            "Old Gold",
            "Kools",
            "Chesterfields",
            "Lucky Strike",
            "Parliaments",
        ],
    ];
    let mut vars = [[None::<VarId>; 5]; 5];
    for (g, names) in groups.iter().enumerate() {
        for (i, name) in names.iter().enumerate() {
            vars[g][i] = Some(m.int_var(name, 1, 5).expect("fresh"));
        }
    }
    let v = |g: usize, i: usize| vars[g][i].expect("declared");
    for g in 0..5 {
        // On the stack, as a caller who knows the group's size writes it:
        // a `Vec` here would time the harness's allocations too.
        let group: [VarId; 5] = std::array::from_fn(|i| v(g, i));
        m.all_different(&group, rows.strength).expect("valid");
        if rows.each_value_held {
            m.each_value_held(&group, Domain::range(1, 5))
                .expect("valid");
        }
    }
    m.equal(v(0, 0), v(1, 0)).expect("valid");
    m.equal(v(0, 1), v(2, 0)).expect("valid");
    m.equal(v(3, 0), v(1, 1)).expect("valid");
    m.equal(v(0, 2), v(3, 1)).expect("valid");
    m.offset(v(1, 1), v(1, 2), 1).expect("valid");
    m.equal(v(4, 0), v(2, 1)).expect("valid");
    m.equal(v(4, 1), v(1, 3)).expect("valid");
    m.equal_value(v(3, 2), 3).expect("valid");
    m.equal_value(v(0, 3), 1).expect("valid");
    m.distance(v(4, 2), v(2, 2), 1).expect("valid");
    m.distance(v(4, 1), v(2, 3), 1).expect("valid");
    m.equal(v(4, 3), v(3, 3)).expect("valid");
    m.equal(v(0, 4), v(4, 4)).expect("valid");
    m.distance(v(0, 3), v(1, 4), 1).expect("valid");
}
