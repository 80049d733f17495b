//! The zebra puzzle (Life International, 1962; Exercism's version), built
//! clue by clue through the API, each constraint labelled with its sentence.
//!
//! One variable per value (the Englishman, the red house, the zebra, ...)
//! holds its house number, 1 to 5. Each group of five values is a
//! permutation of the houses: all different, and every house taken.
//!
//! ```text
//! cargo run --example zebra
//! ```
//!
//! `tests/zebra.rs` includes this file to test the model it builds.

use bitfd::{Domain, Mode, Model, ModelError, SearchOptions, Solution, Solver, Strength, VarId};

/// The five groups: their names and values, in the order the model declares
/// the variables.
pub(crate) const GROUPS: [(&str, [&str; 5]); 5] = [
    (
        "nationality",
        [
            "Englishman",
            "Spaniard",
            "Ukrainian",
            "Norwegian",
            "Japanese",
        ],
    ),
    ("color", ["red", "green", "ivory", "yellow", "blue"]),
    ("pet", ["dog", "snails", "fox", "horse", "zebra"]),
    ("drink", ["coffee", "tea", "milk", "orange juice", "water"]),
    (
        "smoke",
        [
            "Old Gold",
            "Kools",
            "Chesterfields",
            "Lucky Strike",
            "Parliaments",
        ],
    ),
];

/// The number of houses (clue 1).
pub(crate) const HOUSES: u8 = 5;

/// The model of the puzzle, and its variables group by group.
#[derive(Debug)]
pub(crate) struct ClassicZebra {
    pub(crate) model: Model,
    /// `groups[g][i]` is the house of `GROUPS[g].1[i]`.
    pub(crate) groups: [[VarId; 5]; 5],
}

/// Builds the puzzle: the groups' permutations, then the clues 2 to 15.
pub(crate) fn classic_zebra() -> Result<ClassicZebra, ModelError> {
    let mut m = Model::new();
    let mut groups = Vec::with_capacity(GROUPS.len());
    for (_, values) in GROUPS {
        let mut vars = Vec::with_capacity(values.len());
        for name in values {
            vars.push(m.int_var(name, 1, i64::from(HOUSES))?);
        }
        let vars: [VarId; 5] = vars.try_into().expect("five values a group");
        // Clue 1: there are five houses, one value of each group in each.
        m.all_different(&vars, Strength::Domain)?;
        m.each_value_held(&vars, Domain::range(1, HOUSES))?;
        groups.push(vars);
    }
    let groups: [[VarId; 5]; 5] = groups.try_into().expect("five groups");
    let [
        [englishman, spaniard, ukrainian, norwegian, japanese],
        [red, green, ivory, yellow, blue],
        [dog, snails, fox, horse, _zebra],
        [coffee, tea, milk, orange_juice, _water],
        [old_gold, kools, chesterfields, lucky_strike, parliaments],
    ] = groups;

    let c = m.equal(englishman, red)?;
    m.set_label(c, "The Englishman lives in the red house.");
    let c = m.equal(spaniard, dog)?;
    m.set_label(c, "The Spaniard owns the dog.");
    let c = m.equal(coffee, green)?;
    m.set_label(c, "Coffee is drunk in the green house.");
    let c = m.equal(ukrainian, tea)?;
    m.set_label(c, "The Ukrainian drinks tea.");
    // "Right" is the higher house number: the accepted answers need it.
    let c = m.offset(green, ivory, 1)?;
    m.set_label(
        c,
        "The green house is immediately to the right of the ivory house.",
    );
    let c = m.equal(old_gold, snails)?;
    m.set_label(c, "The Old Gold smoker owns snails.");
    let c = m.equal(kools, yellow)?;
    m.set_label(c, "Kools are smoked in the yellow house.");
    let c = m.equal_value(milk, 3)?;
    m.set_label(c, "Milk is drunk in the middle house.");
    let c = m.equal_value(norwegian, 1)?;
    m.set_label(c, "The Norwegian lives in the first house.");
    let c = m.distance(chesterfields, fox, 1)?;
    m.set_label(
        c,
        "The man who smokes Chesterfields lives in the house next to the man with the fox.",
    );
    let c = m.distance(kools, horse, 1)?;
    m.set_label(
        c,
        "Kools are smoked in the house next to the house where the horse is kept.",
    );
    let c = m.equal(lucky_strike, orange_juice)?;
    m.set_label(c, "The Lucky Strike smoker drinks orange juice.");
    let c = m.equal(japanese, parliaments)?;
    m.set_label(c, "The Japanese smokes Parliaments.");
    let c = m.distance(norwegian, blue, 1)?;
    m.set_label(c, "The Norwegian lives next to the blue house.");

    Ok(ClassicZebra { model: m, groups })
}

impl ClassicZebra {
    /// The value of group `g` that lives in `house` in `solution`.
    pub(crate) fn in_house(&self, solution: &Solution, g: usize, house: u8) -> &'static str {
        let i = self.groups[g]
            .iter()
            .position(|&x| solution[x] == house)
            .expect("each house holds one value of each group");
        GROUPS[g].1[i]
    }

    /// The nationality of whoever shares a house with `value`.
    pub(crate) fn nationality_with(&self, solution: &Solution, value: &str) -> &'static str {
        let house = solution.value_of(value).expect("a value of the puzzle");
        self.in_house(solution, 0, house)
    }
}

fn main() -> Result<(), ModelError> {
    let zebra = classic_zebra()?;
    let outcome = Solver::new(&zebra.model).solve(&SearchOptions::default(), Mode::All);
    let [solution] = outcome.solutions.as_slice() else {
        println!("{} solutions, not one", outcome.solutions.len());
        return Ok(());
    };
    println!(
        "The {} drinks water.",
        zebra.nationality_with(solution, "water")
    );
    println!(
        "The {} owns the zebra.",
        zebra.nationality_with(solution, "zebra")
    );
    println!();

    let width = 14;
    let mut header = format!("{:<7}", "house");
    for (group, _) in GROUPS {
        header.push_str(&format!("{group:<width$}"));
    }
    println!("{}", header.trim_end());
    for house in 1..=HOUSES {
        let mut row = format!("{house:<7}");
        for g in 0..GROUPS.len() {
            row.push_str(&format!("{:<width$}", zebra.in_house(solution, g, house)));
        }
        println!("{}", row.trim_end());
    }
    let stats = outcome.stats;
    println!();
    println!(
        "{} search nodes ({} choices, {} failures)",
        stats.nodes, stats.choices, stats.failures
    );
    Ok(())
}
