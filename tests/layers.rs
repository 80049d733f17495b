//! The library's modules form layers: each top-level module of `src/` uses
//! only modules of lower layers (DESIGN.md's layout), so no two import each
//! other, directly or around a circle.
//!
//! Every `crate::` and `super::` path of the library's code counts, in `use`
//! lines and inline; paths to names the crate root re-exports count as paths
//! to the module that defines them. Test code (`#[cfg(test)]` modules and
//! files) and comments do not count.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may use the modules of lower layers
/// only.
const LAYERS: &[&[&str]] = &[
    &["ids", "domain", "buffer"],
    &["propagator"],
    &["propagators", "model", "observer"],
    &["engine"],
    &["search"],
    &["tree"],
    &["trace"],
    &["check", "sudoku"],
    &["puzzle"],
    &["generate"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// A use of module `to` by module `from`, at `place` (file and line).
#[derive(Debug)]
struct Use {
    from: String,
    to: String,
    place: String,
}

/// The library's source files, outside the binary (`main.rs`, `cli/`).
fn library_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "cli" {
                library_files(&path, out);
            }
        } else if name.ends_with(".rs") && name != "main.rs" {
            out.push(path);
        }
    }
}

/// The code of `text` without comments and without the bodies of
/// `#[cfg(test)]` modules; also the names of modules declared
/// `#[cfg(test)] mod name;` (files of test code).
fn code_only(text: &str) -> (Vec<(usize, String)>, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let (mut code, mut test_files) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        if line.starts_with("#[cfg(test)]") && next.contains("mod ") {
            let name = next.split("mod ").nth(1).unwrap_or("");
            if next.ends_with(';') {
                test_files.push(name.trim_end_matches(';').to_owned());
                i += 2;
                continue;
            }
            // Skip the module's body, braces balanced.
            let mut depth = 0i32;
            let mut j = i + 1;
            loop {
                depth += lines[j].matches('{').count() as i32;
                depth -= lines[j].matches('}').count() as i32;
                j += 1;
                if depth <= 0 || j == lines.len() {
                    break;
                }
            }
            i = j;
            continue;
        }
        let without_comment = match lines[i].find("//") {
            Some(at) => &lines[i][..at],
            None => lines[i],
        };
        code.push((i + 1, without_comment.to_owned()));
        i += 1;
    }
    (code, test_files)
}

/// The first segment of each path in a `{...}` group (one level deep).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut item = String::new();
    for ch in group.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                heads.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(ch);
    }
    heads.push(item);
    heads
        .iter()
        .map(|i| i.trim().split("::").next().unwrap_or("").trim().to_owned())
        .filter(|h| !h.is_empty())
        .collect()
}

/// The heads of the paths that follow `prefix` (`crate::` or the right
/// number of `super::`) in `code`, with the line each starts on.
fn path_heads(code: &[(usize, String)], prefix: &str) -> Vec<(usize, String)> {
    let joined: String = code.iter().map(|(_, l)| format!("{l}\n")).collect();
    let line_at = |offset: usize| {
        let newlines = joined[..offset].matches('\n').count();
        code[newlines].0
    };
    let mut heads = Vec::new();
    let mut from = 0;
    while let Some(found) = joined[from..].find(prefix) {
        let at = from + found;
        from = at + prefix.len();
        // `super::super::` is not a `super::` path one level up.
        let before = &joined[..at];
        if before.ends_with("super::")
            || before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &joined[from..];
        if rest.starts_with("super::") {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += i32::from(c == '{') - i32::from(c == '}');
                    depth == 0
                })
                .map_or(group.len(), |(k, _)| k);
            for head in group_heads(&group[..end]) {
                heads.push((line_at(at), head));
            }
        } else {
            let head: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            heads.push((line_at(at), head));
        }
    }
    heads
}

/// The crate root's re-exports: name -> the module that defines it.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let (code, _) = code_only(lib);
    let joined: String = code.iter().map(|(_, l)| format!("{l} ")).collect();
    for item in joined.split(';') {
        let Some(path) = item.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = path.split_once("::") else {
            continue;
        };
        let names = names.trim().trim_start_matches('{').trim_end_matches('}');
        for name in names.split(',') {
            map.insert(name.trim().to_owned(), module.trim().to_owned());
        }
    }
    map
}

/// Every use of one top-level module by another in the library.
fn uses(src: &Path) -> Vec<Use> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let root_names = reexports(&lib);
    let mut files = Vec::new();
    library_files(src, &mut files);
    // Files of test code: declared `#[cfg(test)] mod name;`.
    let mut test_files = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let dir = path.parent().expect("in src");
        for name in code_only(&text).1 {
            test_files.push(dir.join(format!("{name}.rs")));
            test_files.push(dir.join(name).join("mod.rs"));
        }
    }
    let mut found = Vec::new();
    for path in files.iter().filter(|p| !test_files.contains(p)) {
        let rel = path.strip_prefix(src).expect("under src");
        let parts: Vec<&str> = rel.iter().map(|p| p.to_str().expect("UTF-8")).collect();
        if parts == ["lib.rs"] {
            continue;
        }
        let top = parts[0].trim_end_matches(".rs").to_owned();
        // How many `super::` reach the crate root from this file's module.
        let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
        let text = std::fs::read_to_string(path).expect("readable");
        let (code, _) = code_only(&text);
        let mut heads = path_heads(&code, "crate::");
        heads.extend(path_heads(&code, &"super::".repeat(depth)));
        for (line, head) in heads {
            let to = root_names.get(&head).cloned().unwrap_or(head);
            if to != top && layer_of(&to).is_some() {
                found.push(Use {
                    from: top.clone(),
                    to,
                    place: format!("{}:{line}", rel.display()),
                });
            }
        }
    }
    found
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = uses(&src);
    // The scan sees the uses it must: the engine runs the built-in
    // propagators, search drives the engine.
    for (from, to) in [("engine", "propagators"), ("search", "engine")] {
        assert!(
            found.iter().any(|u| u.from == from && u.to == to),
            "the scan finds {from} -> {to}"
        );
    }
    let mut wrong = Vec::new();
    for u in &found {
        let (Some(from), Some(to)) = (layer_of(&u.from), layer_of(&u.to)) else {
            wrong.push(format!("{} is in no layer ({})", u.from, u.place));
            continue;
        };
        if to >= from {
            wrong.push(format!("{} uses {} at {}", u.from, u.to, u.place));
        }
    }
    assert!(
        wrong.is_empty(),
        "uses against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    for line in lib.lines() {
        let line = line.trim();
        let declared = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("mod "));
        if let Some(name) = declared {
            let name = name.trim_end_matches(';');
            assert!(layer_of(name).is_some(), "module {name} has no layer");
        }
    }
}

#[test]
fn the_scan_reads_groups_inline_paths_and_supers() {
    let code: Vec<(usize, String)> = [
        "use crate::{engine::Engine, model::{Model, Posted}};",
        "let x = crate::search::solve(m);",
        "use super::super::ids::VarId;",
        "use super::Sibling;",
    ]
    .iter()
    .enumerate()
    .map(|(i, l)| (i + 1, (*l).to_owned()))
    .collect();
    let crate_heads: Vec<String> = path_heads(&code, "crate::")
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    assert_eq!(crate_heads, ["engine", "model", "search"]);
    let root_heads: Vec<(usize, String)> = path_heads(&code, "super::super::");
    assert_eq!(root_heads, [(3, "ids".to_owned())]);
    let one_up: Vec<(usize, String)> = path_heads(&code, "super::");
    assert_eq!(one_up, [(4, "Sibling".to_owned())]);
    let (kept, test_files) = code_only(
        "use crate::a; // crate::b\n#[cfg(test)]\nmod tests {\n    use crate::c;\n}\n#[cfg(test)]\nmod testing;\n",
    );
    assert_eq!(test_files, ["testing"]);
    let heads: Vec<String> = path_heads(&kept, "crate::")
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    assert_eq!(heads, ["a"]);
}
