//! The documentation's examples of the command line, run: every
//! ```` ```console ```` block of `README.md` and `docs/*.md` holds
//! `$ bitfd ...` commands, each followed by what it prints (standard
//! output, then standard error). This test runs each command in the
//! package root and compares, times aside, so the docs cannot drift from
//! the binary.

#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One documented command and the output the doc shows for it.
struct Example {
    /// `docs/format.md:29`.
    at: String,
    args: Vec<String>,
    shown: String,
}

/// The console examples of one Markdown file.
fn examples(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).expect("a doc");
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .expect("in the package")
        .display()
        .to_string();
    let mut examples = Vec::new();
    // The fence's indentation inside a console block, which every line of
    // the block has too (a block in a list item is indented).
    let mut block: Option<usize> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match block {
            None if trimmed == "```console" => block = Some(indent),
            None => {}
            Some(_) if trimmed == "```" => block = None,
            Some(indent) => {
                let line = line.get(indent..).unwrap_or_default();
                if let Some(command) = line.strip_prefix("$ ") {
                    let mut words = command.split_whitespace().map(str::to_owned);
                    assert_eq!(
                        words.next().as_deref(),
                        Some("bitfd"),
                        "{name}:{}: a documented command runs bitfd",
                        n + 1
                    );
                    examples.push(Example {
                        at: format!("{name}:{}", n + 1),
                        args: words.collect(),
                        shown: String::new(),
                    });
                } else {
                    let example = examples.last_mut().unwrap_or_else(|| {
                        panic!("{name}:{}: output before any `$ bitfd` command", n + 1)
                    });
                    example.shown.push_str(line);
                    example.shown.push('\n');
                }
            }
        }
    }
    examples
}

/// `text` with every `time 0.051 ms` (or `1.234 s`) made `time [time]`,
/// and the blank ends of lines and of the text dropped.
fn comparable(text: &str) -> String {
    let mut out = String::new();
    for line in text.trim_end().lines() {
        let mut rest = line;
        while let Some(at) = rest.find("time ") {
            out.push_str(&rest[..at + 5]);
            rest = &rest[at + 5..];
            let number = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            let unit = [" ms", " s"]
                .into_iter()
                .find(|unit| rest[number..].starts_with(unit));
            if let (true, Some(unit)) = (number > 0, unit) {
                out.push_str("[time]");
                rest = &rest[number + unit.len()..];
            }
        }
        out.push_str(rest.trim_end());
        out.push('\n');
    }
    out
}

fn docs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_documented_command_prints_what_the_docs_show() {
    let all: Vec<Example> = docs().iter().flat_map(|p| examples(p)).collect();
    assert!(all.len() >= 4, "the docs' console examples are found");
    for example in all {
        let out = Command::new(env!("CARGO_BIN_EXE_bitfd"))
            .args(&example.args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR")
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            comparable(&printed),
            comparable(&example.shown),
            "{}: `bitfd {}` prints something else than the doc shows",
            example.at,
            example.args.join(" ")
        );
    }
}

#[test]
fn times_are_compared_as_placeholders() {
    assert_eq!(
        comparable("nodes 9, time 0.051 ms  \ntime 1.5 s; time x\n\n"),
        "nodes 9, time [time]\ntime [time]; time x\n"
    );
    // A doc that differs from the binary in anything else does not pass.
    assert_ne!(
        comparable("propagations 180, time 0.051 ms"),
        comparable("propagations 125, time 0.020 ms")
    );
}
