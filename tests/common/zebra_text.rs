//! An independent writer of `.zebra` text for the puzzle objects of the
//! shared zebra data (`bitfd-test-data/zebra-1`): it shares no code with
//! the library's parser, writer or JSON reader, so tests can check those
//! against it.

use serde_json::Value;

use super::{data_dir, load_json};

/// A name as the format wants it: bare if it is a plain word, else quoted.
pub(crate) fn name(n: &str) -> String {
    let mut chars = n.chars();
    let word = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '\'')
        && !["title", "houses", "ask", "in"].contains(&n);
    if word { n.to_owned() } else { quoted(n) }
}

pub(crate) fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

pub(crate) fn str_of(v: &Value) -> &str {
    v.as_str().expect("a string in the data file")
}

/// One constraint of a clue, as a `.zebra` relation.
pub(crate) fn relation(c: &Value) -> String {
    let args = c["args"].as_array().expect("args");
    let n = |i: usize| name(str_of(&args[i]));
    let int = |i: usize| args[i].as_i64().expect("a number");
    match str_of(&c["kind"]) {
        "same" => format!("{} = {}", n(0), n(1)),
        "neq" => format!("{} != {}", n(0), n(1)),
        "at" => format!("{} = {}", n(0), int(1)),
        "not_at" => format!("{} != {}", n(0), int(1)),
        "in" => {
            let set: Vec<String> = args[1]
                .as_array()
                .expect("houses")
                .iter()
                .map(|h| h.as_i64().expect("house").to_string())
                .collect();
            format!("{} in {{{}}}", n(0), set.join(", "))
        }
        "offset" if int(2) < 0 => format!("{} = {} - {}", n(0), n(1), -int(2)),
        "offset" => format!("{} = {} + {}", n(0), n(1), int(2)),
        "distance" => format!("|{} - {}| = {}", n(0), n(1), int(2)),
        "not_distance" => format!("|{} - {}| != {}", n(0), n(1), int(2)),
        "less" => format!("{} < {}", n(0), n(1)),
        "between" => format!("{} < {} < {}", n(0), n(1), n(2)),
        other => panic!("clue kind {other} has no relation"),
    }
}

/// The group lines (`name: value value ...`) of a `zebra-1` puzzle object.
pub(crate) fn groups_text(p: &Value) -> String {
    let mut out = String::new();
    for g in p["groups"].as_array().expect("groups") {
        let values: Vec<String> = g["values"]
            .as_array()
            .expect("values")
            .iter()
            .map(|v| name(str_of(v)))
            .collect();
        out.push_str(&format!(
            "{}: {}\n",
            name(str_of(&g["name"])),
            values.join(" ")
        ));
    }
    out
}

/// The puzzle object of a `zebra-1` file as `.zebra` text.
pub(crate) fn zebra_text(p: &Value) -> String {
    let mut out = String::new();
    if let Some(title) = p["title"].as_str() {
        out.push_str(&format!("title {}\n", quoted(title)));
    }
    out.push_str(&format!("houses {}\n\n", p["houses"]));
    out.push_str(&groups_text(p));
    out.push('\n');
    for clue in p["clues"].as_array().expect("clues") {
        let text = quoted(clue["text"].as_str().unwrap_or(""));
        match str_of(&clue["kind"]) {
            "none" => out.push_str(&format!("# {}\n", clue["text"])),
            "all" => {
                for c in clue["constraints"].as_array().expect("constraints") {
                    out.push_str(&format!("{text}  {}\n", relation(c)));
                }
            }
            _ => out.push_str(&format!("{text}  {}\n", relation(clue))),
        }
    }
    for q in questions(p) {
        out.push_str(&format!("ask {} {}\n", quoted(&q.text), q.ask));
    }
    out
}

/// A question of the data file that the format can ask, with its answer.
pub(crate) struct Question {
    pub(crate) text: String,
    /// What follows `ask "..."`.
    pub(crate) ask: String,
    /// The stated answer, if the file states one.
    pub(crate) answer: Option<String>,
}

pub(crate) fn questions(p: &Value) -> Vec<Question> {
    let mut out = Vec::new();
    for q in p["questions"].as_array().into_iter().flatten() {
        let text = q["text"].as_str().unwrap_or("?").to_owned();
        let (ask, answer) = if let Some(h) = q["house"].as_i64() {
            let group = name(str_of(&q["group"]));
            (
                format!("{h} {group}"),
                q["answer"].as_str().map(str::to_owned),
            )
        } else if let Some(v) = q["value"].as_str() {
            match q["group"].as_str() {
                Some(g) => (
                    format!("{} {}", name(v), name(g)),
                    q["answer_value"].as_str().map(str::to_owned),
                ),
                None => (name(v), q["answer_house"].as_i64().map(|h| h.to_string())),
            }
        } else {
            continue; // "Who lives where?": the whole grid is the answer.
        };
        out.push(Question { text, ask, answer });
    }
    out
}

/// Every `(file, puzzle)` of the zebra data, files in name order.
pub(crate) fn data_puzzles() -> Vec<(String, Value)> {
    let dir = data_dir().join("zebra");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let json = load_json(&format!("zebra/{file}"));
        for p in json["puzzles"].as_array().expect("puzzles") {
            out.push((file.clone(), p.clone()));
        }
    }
    assert!(out.len() >= 20, "found only {} puzzles", out.len());
    out
}
