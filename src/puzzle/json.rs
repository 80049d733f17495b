//! The JSON form of a puzzle: [`from_json`] reads the puzzle objects of the
//! shared test data (format `bitfd-test-data/zebra-1`), so that data and
//! other programs' puzzles can be piped into `bitfd` one object a line.
//!
//! ```json
//! {"id": "tiny", "title": "A tiny puzzle", "houses": 2,
//!  "groups": [{"name": "color", "values": ["red", "blue"]},
//!             {"name": "pet", "values": ["dog", "cat"]}],
//!  "clues": [{"text": "The dog is in the red house.", "kind": "same", "args": ["dog", "red"]},
//!            {"text": "Blue is first.", "kind": "at", "args": ["blue", 1]}],
//!  "questions": [{"text": "Who has the cat?", "value": "cat", "group": "color"}]}
//! ```
//!
//! Clue kinds and their `args` (`a`, `b`, `x` name values; `h` is a house
//! number, `c` a distance or offset): `same a b` (`a = b`), `neq a b`,
//! `at a h`, `not_at a h`, `in a [h, ...]`, `offset a b c` (`a = b + c`),
//! `distance a b c` (`|a - b| = c`), `not_distance a b c`, `less a b`
//! (`a < b`), `between a x b` (`a < x < b`); `all` with `constraints`, a
//! list of such objects sharing the clue's `text`; `none` (a sentence with
//! no constraint, skipped). A value is named bare when the name is in one
//! group only, else `group/value` (or `group.value`, as in `.zebra` text).
//!
//! Questions: `{"value": v, "group": g}` asks for the value of group `g` in
//! `v`'s house; with `answer_value` instead of `group`, the group is that
//! value's; `{"value": v}` alone asks for `v`'s house; `{"house": h,
//! "group": g}` for `g`'s value in house `h`. A question with none of
//! these ("Who lives where?") is skipped. Other fields (`id`, `n`, `note`,
//! `expected`, ...) are ignored.
//!
//! The puzzle returned satisfies every invariant the `.zebra` parser
//! establishes (see [`Puzzle`]), under the same limits; anything else is a
//! [`JsonError`] naming the spot (`clues[3].args[0]`) and what is wrong.

use std::fmt;

use serde_json::{Map, Value};

use super::ast::{Ask, Clue, Cmp, Group, Operand, Puzzle, Relation, Target, ValueRef};
use super::suggest::nearest;
use super::{MAX_ASKS, MAX_CLUES, MAX_GROUPS, MAX_HOUSES, MAX_NAME_CHARS};

/// Why a JSON value is not a puzzle: where, and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The spot, as a path from the puzzle object: `clues[3].args[0]`;
    /// empty for the object itself.
    path: String,
    /// What is wrong, lowercase, without a final period.
    message: String,
}

impl JsonError {
    fn new(path: &str, message: impl Into<String>) -> JsonError {
        JsonError {
            path: path.to_owned(),
            message: message.into(),
        }
    }

    /// Where the problem is: a path such as `clues[3].args[0]`, empty for
    /// the puzzle object as a whole.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong there.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for JsonError {
    /// `clues[3].args[0]: unknown value `gren` (did you mean `green`?)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for JsonError {}

type Result<T> = std::result::Result<T, JsonError>;

/// How deep `all` clues may nest.
const MAX_NESTING: usize = 8;

/// Reads a puzzle object of the `bitfd-test-data/zebra-1` JSON form.
///
/// ```
/// let text = r#"{"houses": 2,
///   "groups": [{"name": "color", "values": ["red", "blue"]}],
///   "clues": [{"text": "Red is second.", "kind": "at", "args": ["red", 2]}],
///   "questions": [{"value": "blue"}]}"#;
/// let value: serde_json::Value = serde_json::from_str(text).expect("JSON");
/// let puzzle = bitfd::puzzle::from_json(&value)?;
/// assert_eq!(
///     puzzle.to_string(),
///     "houses 2\n\ncolor: red blue\n\n\"Red is second.\" red = 2\n\nask blue\n"
/// );
/// # Ok::<(), bitfd::puzzle::JsonError>(())
/// ```
///
/// # Errors
///
/// A [`JsonError`] for the first problem found: a missing or mistyped
/// field, an unknown clue kind or value name, a house, offset or distance
/// out of range, a duplicate or badly formed name, a group larger than the
/// street, or a limit of the format exceeded.
pub fn from_json(value: &Value) -> Result<Puzzle> {
    let object = value
        .as_object()
        .ok_or_else(|| JsonError::new("", "expected a puzzle object ({\"houses\": ...})"))?;
    let houses = read_houses(object)?;
    let title = match object.get("title") {
        None | Some(Value::Null) => None,
        Some(t) => Some(text(t, "title")?.to_owned()),
    };
    let mut puzzle = Puzzle {
        title,
        houses,
        groups: read_groups(object, houses)?,
        clues: Vec::new(),
        asks: Vec::new(),
        clue_spots: Vec::new(),
    };
    if let Some(clues) = object.get("clues") {
        for (i, clue) in array(clues, "clues")?.iter().enumerate() {
            let path = format!("clues[{i}]");
            let clue = as_object(clue, &path)?;
            let label = match clue.get("text") {
                None | Some(Value::Null) => None,
                Some(t) => Some(text(t, &format!("{path}.text"))?)
                    .filter(|t| !t.is_empty())
                    .map(str::to_owned),
            };
            let mut relations = Vec::new();
            read_relations(&puzzle, clue, &path, 0, &mut relations)?;
            for relation in relations {
                if puzzle.clues.len() == MAX_CLUES {
                    return Err(JsonError::new(
                        &path,
                        format!("more than {MAX_CLUES} clues"),
                    ));
                }
                puzzle.clues.push(Clue {
                    label: label.clone(),
                    relation,
                });
            }
        }
    }
    if let Some(questions) = object.get("questions") {
        for (i, q) in array(questions, "questions")?.iter().enumerate() {
            let path = format!("questions[{i}]");
            if let Some(ask) = read_ask(&puzzle, as_object(q, &path)?, &path)? {
                if puzzle.asks.len() == MAX_ASKS {
                    return Err(JsonError::new(
                        &path,
                        format!("more than {MAX_ASKS} questions"),
                    ));
                }
                puzzle.asks.push(ask);
            }
        }
    }
    Ok(puzzle)
}

fn read_houses(object: &Map<String, Value>) -> Result<u8> {
    let value = object
        .get("houses")
        .ok_or_else(|| JsonError::new("houses", "missing: the number of houses"))?;
    match value.as_u64() {
        Some(n) if (1..=u64::from(MAX_HOUSES)).contains(&n) => Ok(n as u8),
        _ => Err(JsonError::new(
            "houses",
            format!("expected a number of houses from 1 to {MAX_HOUSES}, found {value}"),
        )),
    }
}

fn read_groups(object: &Map<String, Value>, houses: u8) -> Result<Vec<Group>> {
    let list = array(
        object
            .get("groups")
            .ok_or_else(|| JsonError::new("groups", "missing: the attribute groups"))?,
        "groups",
    )?;
    if list.is_empty() {
        return Err(JsonError::new(
            "groups",
            "a puzzle needs at least one group",
        ));
    }
    if list.len() > MAX_GROUPS {
        return Err(JsonError::new(
            "groups",
            format!("{} groups: at most {MAX_GROUPS}", list.len()),
        ));
    }
    let mut groups: Vec<Group> = Vec::with_capacity(list.len());
    for (g, group) in list.iter().enumerate() {
        let path = format!("groups[{g}]");
        let group = as_object(group, &path)?;
        let name_path = format!("{path}.name");
        let name = name(field(group, "name", &path)?, &name_path)?;
        if groups.iter().any(|other| other.name == name) {
            return Err(JsonError::new(
                &name_path,
                format!("a second group called `{name}`"),
            ));
        }
        let values_path = format!("{path}.values");
        let list = array(field(group, "values", &path)?, &values_path)?;
        if list.is_empty() || list.len() > usize::from(houses) {
            return Err(JsonError::new(
                &values_path,
                format!(
                    "group `{name}` has {} values: a group has 1 to {houses} (one a house at most)",
                    list.len()
                ),
            ));
        }
        let mut values: Vec<String> = Vec::with_capacity(list.len());
        for (v, value) in list.iter().enumerate() {
            let value_path = format!("{values_path}[{v}]");
            let value = self::name(value, &value_path)?;
            if values.contains(&value) {
                return Err(JsonError::new(
                    &value_path,
                    format!("`{value}` twice in group `{name}`"),
                ));
            }
            values.push(value);
        }
        groups.push(Group { name, values });
    }
    Ok(groups)
}

/// The relations of one clue object (several for `all`, none for `none`).
fn read_relations(
    puzzle: &Puzzle,
    clue: &Map<String, Value>,
    path: &str,
    depth: usize,
    out: &mut Vec<Relation>,
) -> Result<()> {
    let kind_path = format!("{path}.kind");
    let kind = text(field(clue, "kind", path)?, &kind_path)?;
    match kind {
        "none" => Ok(()),
        "all" => {
            if depth == MAX_NESTING {
                return Err(JsonError::new(
                    path,
                    format!("`all` clues nested more than {MAX_NESTING} deep"),
                ));
            }
            let list_path = format!("{path}.constraints");
            let list = array(field(clue, "constraints", path)?, &list_path)?;
            for (i, c) in list.iter().enumerate() {
                let c_path = format!("{list_path}[{i}]");
                read_relations(puzzle, as_object(c, &c_path)?, &c_path, depth + 1, out)?;
            }
            Ok(())
        }
        _ => {
            out.push(read_relation(puzzle, kind, clue, path)?);
            Ok(())
        }
    }
}

/// The clue kinds [`read_relation`] knows, for the error message.
const KINDS: &str =
    "same, neq, at, not_at, in, offset, distance, not_distance, less, between, all, none";

fn read_relation(
    puzzle: &Puzzle,
    kind: &str,
    clue: &Map<String, Value>,
    path: &str,
) -> Result<Relation> {
    let arity = match kind {
        "same" | "neq" | "at" | "not_at" | "in" | "less" => 2,
        "offset" | "distance" | "not_distance" | "between" => 3,
        _ => {
            return Err(JsonError::new(
                &format!("{path}.kind"),
                format!("unknown clue kind `{kind}` (the kinds: {KINDS})"),
            ));
        }
    };
    let args_path = format!("{path}.args");
    let args = array(field(clue, "args", path)?, &args_path)?;
    if args.len() != arity {
        return Err(JsonError::new(
            &args_path,
            format!("`{kind}` takes {arity} arguments, found {}", args.len()),
        ));
    }
    let arg_path = |i: usize| format!("{args_path}[{i}]");
    let value = |i: usize| value_ref(puzzle, &args[i], &arg_path(i));
    let house = |i: usize| house(puzzle, &args[i], &arg_path(i));
    let apart = |i: usize| apart(puzzle, &args[i], &arg_path(i));
    Ok(match kind {
        "same" => Relation::Same {
            a: value(0)?,
            b: value(1)?,
            offset: 0,
        },
        "neq" => Relation::Differ {
            a: value(0)?,
            b: value(1)?,
        },
        "at" => Relation::At {
            a: value(0)?,
            house: house(1)?,
        },
        "not_at" => Relation::NotAt {
            a: value(0)?,
            house: house(1)?,
        },
        "in" => {
            let a = value(0)?;
            let set_path = arg_path(1);
            let set = array(&args[1], &set_path)?;
            if set.is_empty() {
                return Err(JsonError::new(&set_path, "an empty set of houses"));
            }
            let mut houses = Vec::with_capacity(set.len());
            for (i, h) in set.iter().enumerate() {
                houses.push(self::house(puzzle, h, &format!("{set_path}[{i}]"))?);
            }
            houses.sort_unstable();
            houses.dedup();
            Relation::In { a, houses }
        }
        "offset" => {
            let (a, b) = (value(0)?, value(1)?);
            let c = &args[2];
            let limit = i64::from(puzzle.houses);
            match c.as_i64() {
                Some(c) if c.abs() < limit => Relation::Same {
                    a,
                    b,
                    offset: c as i8,
                },
                _ => {
                    return Err(JsonError::new(
                        &arg_path(2),
                        format!(
                            "expected an offset from {} to {}, found {c}",
                            1 - limit,
                            limit - 1
                        ),
                    ));
                }
            }
        }
        "distance" => Relation::Distance {
            a: value(0)?,
            b: value(1)?,
            distance: apart(2)?,
        },
        "not_distance" => Relation::NotDistance {
            a: value(0)?,
            b: value(1)?,
            distance: apart(2)?,
        },
        "less" => Relation::Compare {
            left: Operand::Value(value(0)?),
            op: Cmp::Lt,
            right: Operand::Value(value(1)?),
        },
        // "between": arity 3, checked above.
        _ => Relation::Between {
            low: Operand::Value(value(0)?),
            mid: Operand::Value(value(1)?),
            high: Operand::Value(value(2)?),
        },
    })
}

fn read_ask(puzzle: &Puzzle, q: &Map<String, Value>, path: &str) -> Result<Option<Ask>> {
    let question = match q.get("text") {
        None | Some(Value::Null) => None,
        Some(t) => Some(text(t, &format!("{path}.text"))?.to_owned()),
    };
    let group = |key: &str| -> Result<Option<usize>> {
        let Some(g) = q.get(key) else {
            return Ok(None);
        };
        let g_path = format!("{path}.{key}");
        let name = text(g, &g_path)?;
        match puzzle.group_index(name) {
            Some(g) => Ok(Some(g)),
            None => {
                let hint = nearest(name, puzzle.groups.iter().map(|g| g.name.as_str()))
                    .map_or_else(String::new, |n| format!(" (did you mean `{n}`?)"));
                Err(JsonError::new(
                    &g_path,
                    format!("unknown group `{name}`{hint}"),
                ))
            }
        }
    };
    if let Some(h) = q.get("house") {
        let house = house(puzzle, h, &format!("{path}.house"))?;
        let Some(group) = group("group")? else {
            return Err(JsonError::new(
                path,
                "a question about a house needs a `group`",
            ));
        };
        return Ok(Some(Ask {
            question,
            target: Target::House(house),
            group: Some(group),
        }));
    }
    let Some(v) = q.get("value") else {
        return Ok(None);
    };
    let target = value_ref(puzzle, v, &format!("{path}.value"))?;
    let group = match group("group")? {
        Some(g) => Some(g),
        None => match q.get("answer_value") {
            Some(w) => Some(value_ref(puzzle, w, &format!("{path}.answer_value"))?.group),
            None => None,
        },
    };
    Ok(Some(Ask {
        question,
        target: Target::Value(target),
        group,
    }))
}

/// A value named in a clue or question: bare, `group/value` or
/// `group.value`.
fn value_ref(puzzle: &Puzzle, v: &Value, path: &str) -> Result<ValueRef> {
    let name = text(v, path)?;
    if let Some(found) = puzzle.lookup(name) {
        return Ok(found);
    }
    let slashed = name.match_indices('/').find_map(|(i, _)| {
        let g = puzzle.group_index(&name[..i])?;
        let v = puzzle.groups[g]
            .values
            .iter()
            .position(|x| *x == name[i + 1..])?;
        Some(ValueRef { group: g, value: v })
    });
    if let Some(found) = slashed {
        return Ok(found);
    }
    if puzzle.is_ambiguous(name) {
        let candidates: Vec<String> = puzzle
            .groups
            .iter()
            .filter(|g| g.values.iter().any(|x| x == name))
            .map(|g| format!("`{}/{name}`", g.name))
            .collect();
        return Err(JsonError::new(
            path,
            format!(
                "`{name}` is in several groups: write {}",
                candidates.join(" or ")
            ),
        ));
    }
    let all = puzzle
        .groups
        .iter()
        .flat_map(|g| g.values.iter().map(String::as_str));
    let hint = nearest(name, all).map_or_else(String::new, |n| format!(" (did you mean `{n}`?)"));
    Err(JsonError::new(
        path,
        format!("unknown value `{name}`{hint}"),
    ))
}

/// A house number, `1..=houses`.
fn house(puzzle: &Puzzle, v: &Value, path: &str) -> Result<u8> {
    match v.as_u64() {
        Some(h) if (1..=u64::from(puzzle.houses)).contains(&h) => Ok(h as u8),
        _ => Err(JsonError::new(
            path,
            format!(
                "expected a house number from 1 to {}, found {v}",
                puzzle.houses
            ),
        )),
    }
}

/// A distance, `0..houses`.
fn apart(puzzle: &Puzzle, v: &Value, path: &str) -> Result<u8> {
    match v.as_u64() {
        Some(d) if d < u64::from(puzzle.houses) => Ok(d as u8),
        _ => Err(JsonError::new(
            path,
            format!(
                "expected a distance from 0 to {}, found {v}",
                puzzle.houses - 1
            ),
        )),
    }
}

/// A group or value name: text of 1 to [`MAX_NAME_CHARS`] characters.
/// Read in NFC, as the `.zebra` text form reads names.
fn name(v: &Value, path: &str) -> Result<String> {
    let name = super::text::nfc(text(v, path)?).into_owned();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(JsonError::new(
            path,
            format!("a name has 1 to {MAX_NAME_CHARS} characters, found {chars}"),
        ));
    }
    Ok(name)
}

/// A string without control or invisible characters (which the `.zebra`
/// text form cannot hold either).
fn text<'v>(v: &'v Value, path: &str) -> Result<&'v str> {
    let s = v
        .as_str()
        .ok_or_else(|| JsonError::new(path, format!("expected a string, found {}", kind(v))))?;
    if let Some(c) = s.chars().find(|c| c.is_control()) {
        return Err(JsonError::new(
            path,
            format!("control character U+{:04X} in a string", c as u32),
        ));
    }
    if let Some((c, what)) = s
        .chars()
        .find_map(|c| super::text::invisible(c).map(|what| (c, what)))
    {
        return Err(JsonError::new(
            path,
            format!(
                "invisible character U+{:04X} ({what}) in a string",
                c as u32
            ),
        ));
    }
    Ok(s)
}

fn array<'v>(v: &'v Value, path: &str) -> Result<&'v Vec<Value>> {
    v.as_array()
        .ok_or_else(|| JsonError::new(path, format!("expected a list, found {}", kind(v))))
}

fn as_object<'v>(v: &'v Value, path: &str) -> Result<&'v Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| JsonError::new(path, format!("expected an object, found {}", kind(v))))
}

fn field<'v>(object: &'v Map<String, Value>, key: &str, path: &str) -> Result<&'v Value> {
    object.get(key).ok_or_else(|| {
        let at = if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        };
        JsonError::new(&at, "missing")
    })
}

/// What a JSON value is, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tiny() -> Value {
        json!({
            "id": "tiny", "houses": 3,
            "groups": [
                {"name": "color", "values": ["red", "blue", "green"]},
                {"name": "fruit", "values": ["orange", "apple", "pear"]},
                {"name": "paint", "values": ["orange", "white", "black"]}
            ],
            "clues": [
                {"n": 1, "text": "There are three houses.", "kind": "none", "args": []},
                {"text": "Red is first.", "kind": "at", "args": ["red", 1]},
                {"text": "Both.", "kind": "all", "constraints": [
                    {"kind": "offset", "args": ["blue", "red", 1]},
                    {"kind": "in", "args": ["fruit/orange", [3, 1, 3]]}
                ]},
                {"kind": "between", "args": ["apple", "paint.orange", "pear"]}
            ],
            "questions": [
                {"text": "Where does everyone live?"},
                {"text": "Which colour has the apple?", "value": "apple", "group": "color"},
                {"value": "pear", "answer_value": "white"},
                {"house": 2, "group": "paint"}
            ]
        })
    }

    fn error(value: Value) -> String {
        from_json(&value).expect_err("an error").to_string()
    }

    #[test]
    fn reads_every_part_and_writes_it_back_as_zebra_text() {
        let puzzle = from_json(&tiny()).expect("a puzzle");
        assert_eq!(
            puzzle.to_string(),
            "houses 3\n\n\
             color: red blue green\n\
             fruit: orange apple pear\n\
             paint: orange white black\n\n\
             \"Red is first.\" red = 1\n\
             \"Both.\" blue = red + 1\n\
             \"Both.\" fruit.orange in {1, 3}\n\
             apple < paint.orange < pear\n\n\
             ask \"Which colour has the apple?\" apple color\n\
             ask pear paint\n\
             ask 2 paint\n"
        );
        // The text parses back to the same puzzle.
        assert_eq!(super::super::parse(&puzzle.to_string()), Ok(puzzle));
    }

    #[test]
    fn names_the_spot_of_an_unknown_value_with_a_suggestion() {
        let mut p = tiny();
        p["clues"][1]["args"][0] = json!("rde");
        assert_eq!(
            error(p),
            "clues[1].args[0]: unknown value `rde` (did you mean `red`?)"
        );
    }

    #[test]
    fn rejects_an_ambiguous_bare_name() {
        let mut p = tiny();
        p["clues"][1]["args"][0] = json!("orange");
        assert_eq!(
            error(p),
            "clues[1].args[0]: `orange` is in several groups: write `fruit/orange` or `paint/orange`"
        );
    }

    #[test]
    fn rejects_numbers_out_of_range() {
        let mut p = tiny();
        p["clues"][1]["args"][1] = json!(4);
        assert_eq!(
            error(p),
            "clues[1].args[1]: expected a house number from 1 to 3, found 4"
        );
        let mut p = tiny();
        p["clues"][2]["constraints"][0]["args"][2] = json!(-3);
        assert_eq!(
            error(p),
            "clues[2].constraints[0].args[2]: expected an offset from -2 to 2, found -3"
        );
        let mut p = tiny();
        p["houses"] = json!(64);
        assert_eq!(
            error(p),
            "houses: expected a number of houses from 1 to 63, found 64"
        );
    }

    #[test]
    fn rejects_malformed_structure() {
        assert_eq!(
            error(json!([1])),
            "expected a puzzle object ({\"houses\": ...})"
        );
        let mut p = tiny();
        p["clues"][1]["kind"] = json!("near");
        assert!(error(p).starts_with("clues[1].kind: unknown clue kind `near`"));
        let mut p = tiny();
        p["clues"][1]["args"] = json!(["red"]);
        assert_eq!(error(p), "clues[1].args: `at` takes 2 arguments, found 1");
        let mut p = tiny();
        p["groups"][0]["values"] = json!(["red", "blue", "red"]);
        assert_eq!(
            error(p),
            "groups[0].values[2]: `red` twice in group `color`"
        );
        let mut p = tiny();
        p["groups"][0]["values"] = json!(["a", "b", "c", "d"]);
        assert!(error(p).starts_with("groups[0].values: group `color` has 4 values"));
        let mut p = tiny();
        p["title"] = json!("two\nlines");
        assert_eq!(error(p), "title: control character U+000A in a string");
        let mut p = tiny();
        p["questions"][3] = json!({"house": 2});
        assert_eq!(
            error(p),
            "questions[3]: a question about a house needs a `group`"
        );
    }

    #[test]
    fn limits_nesting_of_all() {
        let mut clue = json!({"kind": "at", "args": ["red", 1]});
        for _ in 0..=MAX_NESTING {
            clue = json!({"kind": "all", "constraints": [clue]});
        }
        let mut p = tiny();
        p["clues"] = json!([clue]);
        assert!(error(p).contains("nested more than"));
    }
}
