//! Shared helpers for integration tests: loading the external test data in
//! `../shared/data` (its README documents the JSON form) into models.

#![allow(dead_code, reason = "each test binary uses a different part")]

use std::path::PathBuf;

use bitfd::{ConstraintId, Domain, Model, Strength, VarId};
use serde_json::Value;

/// The shared test data folder: `BITFD_DATA`, or `../shared/data` beside the
/// checkout.
pub(crate) fn data_dir() -> PathBuf {
    std::env::var_os("BITFD_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
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
