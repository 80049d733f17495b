//! Generated puzzles with the CLI's controls (`bitfd generate`): sizes,
//! a first seed and a count (puzzle k has seed S+k) or a list of seeds,
//! English JSON lines in a style, files in a folder, worker threads. The
//! same arguments give the same puzzles and bytes as the CLI, whatever the
//! number of threads.

use std::path::PathBuf;

use bitfd::generate::{
    ClueKind, Controls as GenerateControls, Difficulty, GenerateError, GenerateOptions, Generated,
    MAX_GROUPS, MAX_HOUSES, english_line, generate_with,
};
use bitfd::puzzle::english::Style;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::errors::range_error;
use crate::puzzle::{Puzzle, run_ordered, style_of, thread_count};

/// The options of one generated puzzle, checked: a size outside the word
/// lists is a `RangeError` (one outside the integer types, an
/// `OverflowError` from the argument's conversion).
fn generate_options(
    py: Python<'_>,
    houses: u8,
    groups: usize,
    seed: u64,
) -> PyResult<GenerateOptions> {
    if !(2..=MAX_HOUSES).contains(&houses) {
        let message = GenerateError::Houses(houses).to_string();
        return Err(range_error(py, houses.into(), message));
    }
    if !(1..=MAX_GROUPS).contains(&groups) {
        let message = GenerateError::Groups(groups).to_string();
        return Err(range_error(py, groups as i128, message));
    }
    Ok(GenerateOptions {
        houses,
        groups,
        seed,
    })
}

/// The seeds of a batch: `seeds`, or `count` seeds from `seed` as the CLI
/// counts them (S, S+1, ...); a run past the largest seed is a `RangeError`.
fn seeds_of(
    py: Python<'_>,
    seeds: Option<Vec<u64>>,
    seed: Option<u64>,
    count: Option<u64>,
) -> PyResult<Vec<u64>> {
    match (seeds, seed, count) {
        (Some(seeds), None, None) => Ok(seeds),
        (None, seed, count) => {
            let (seed, count) = (seed.unwrap_or(0), count.unwrap_or(1));
            if count == 0 {
                return Ok(Vec::new());
            }
            let last = seed.checked_add(count - 1).ok_or_else(|| {
                range_error(
                    py,
                    i128::from(seed) + i128::from(count) - 1,
                    format!(
                        "seed {seed} with count {count} runs past the largest seed, {}",
                        u64::MAX
                    ),
                )
            })?;
            Ok((seed..=last).collect())
        }
        _ => Err(PyValueError::new_err(
            "give either seeds or seed and count, not both",
        )),
    }
}

/// What the generator may draw and which ratings it keeps: `bitfd
/// generate`'s `--kinds`, `--min-nodes`, `--max-nodes`, `--min-failures`,
/// `--max-failures`, `--guessing` and `--attempts`. Every argument is
/// optional; the default allows every clue kind and any rating. `kinds`
/// are the CLI's names: `same`, `at`, `not-at`, `next-to`,
/// `directly-left`, `left-of`, `one-between`, `two-between`, `not-same`.
/// `guessing=True` keeps only puzzles that need a guess, `False` only those
/// propagation alone solves. Attempt 0 is the seed itself; each later one
/// draws from a seed derived from it, so the same arguments give the same
/// puzzle on every machine. A `ValueError` for an unknown kind, no kind,
/// or an empty range; the generator raises a `ValueError` when the kinds
/// cannot make a unique puzzle or no attempt rates in the range.
///
/// >>> c = Controls(kinds=["at", "next-to", "same"], guessing=False)
/// >>> c
/// Controls(kinds=['same', 'at', 'next-to'], min_nodes=0, max_nodes=None, min_failures=0, max_failures=None, guessing=False, attempts=1000)
/// >>> p = generate(5, 4, seed=3, controls=c)
/// >>> check(p, rate=True).rating.propagation_only
/// True
#[pyclass(module = "bitfd", frozen, from_py_object)]
#[derive(Clone)]
pub(crate) struct Controls {
    inner: GenerateControls,
}

#[pymethods]
impl Controls {
    #[new]
    #[pyo3(signature = (*, kinds = None, min_nodes = None, max_nodes = None, min_failures = None, max_failures = None, guessing = None, attempts = 1000))]
    fn new(
        kinds: Option<Vec<String>>,
        min_nodes: Option<u64>,
        max_nodes: Option<u64>,
        min_failures: Option<u64>,
        max_failures: Option<u64>,
        guessing: Option<bool>,
        attempts: u32,
    ) -> PyResult<Controls> {
        let kinds = match kinds {
            None => ClueKind::ALL.to_vec(),
            Some(names) => names
                .iter()
                .map(|name| {
                    ClueKind::from_name(name).ok_or_else(|| {
                        let known: Vec<&str> = ClueKind::ALL.iter().map(|k| k.name()).collect();
                        PyValueError::new_err(format!(
                            "unknown clue kind {name:?}: expected one of {}",
                            known.join(", ")
                        ))
                    })
                })
                .collect::<PyResult<_>>()?,
        };
        if kinds.is_empty() {
            return Err(PyValueError::new_err(GenerateError::NoKinds.to_string()));
        }
        let all = Difficulty::default();
        let difficulty = Difficulty {
            min_nodes: min_nodes.unwrap_or(all.min_nodes),
            max_nodes: max_nodes.unwrap_or(all.max_nodes),
            min_failures: min_failures.unwrap_or(all.min_failures),
            max_failures: max_failures.unwrap_or(all.max_failures),
            guessing,
        };
        if difficulty.min_nodes > difficulty.max_nodes
            || difficulty.min_failures > difficulty.max_failures
        {
            return Err(PyValueError::new_err(
                "the difficulty range is empty: a minimum is above its maximum",
            ));
        }
        if attempts == 0 {
            return Err(PyValueError::new_err("attempts must be at least 1"));
        }
        Ok(Controls {
            inner: GenerateControls {
                kinds,
                difficulty,
                attempts,
            },
        })
    }

    /// The allowed kinds, in the generator's order.
    #[getter]
    fn kinds(&self) -> Vec<&'static str> {
        ClueKind::ALL
            .into_iter()
            .filter(|k| self.inner.kinds.contains(k))
            .map(ClueKind::name)
            .collect()
    }

    fn __repr__(&self) -> String {
        let d = &self.inner.difficulty;
        let most = |n: u64| {
            if n == u64::MAX {
                "None".to_owned()
            } else {
                n.to_string()
            }
        };
        let guessing = match d.guessing {
            None => "None",
            Some(true) => "True",
            Some(false) => "False",
        };
        // As Python writes a list of strings.
        let kinds: Vec<String> = self.kinds().iter().map(|k| format!("'{k}'")).collect();
        format!(
            "Controls(kinds=[{}], min_nodes={}, max_nodes={}, min_failures={}, max_failures={}, \
             guessing={guessing}, attempts={})",
            kinds.join(", "),
            d.min_nodes,
            most(d.max_nodes),
            d.min_failures,
            most(d.max_failures),
            self.inner.attempts
        )
    }
}

/// Generates every `options` under `controls` on `threads` threads,
/// detached, in order.
fn generate_all(
    py: Python<'_>,
    options: &[GenerateOptions],
    controls: &GenerateControls,
    threads: usize,
) -> PyResult<Vec<Generated>> {
    let results = py
        .detach(|| run_ordered(options, threads, |o| generate_with(o, controls)))
        .ok_or_else(|| PyRuntimeError::new_err("a generator worker thread panicked"))?;
    // The sizes were checked: what is left is the controls (kinds that
    // cannot pin a solution, a range no attempt met).
    results
        .into_iter()
        .map(|r| r.map_err(|e| PyValueError::new_err(e.to_string())))
        .collect()
}

/// Which puzzles a batch makes: the Python arguments every batch function
/// takes, as `bitfd generate` takes them.
struct Batch {
    houses: u8,
    groups: usize,
    seeds: Option<Vec<u64>>,
    seed: Option<u64>,
    count: Option<u64>,
    threads: Option<usize>,
    controls: Option<Controls>,
}

impl Batch {
    /// Checks the arguments and generates, in seed order: each puzzle with
    /// the options it was made with.
    fn run(self, py: Python<'_>) -> PyResult<(Vec<GenerateOptions>, Vec<Generated>)> {
        let options = seeds_of(py, self.seeds, self.seed, self.count)?
            .into_iter()
            .map(|seed| generate_options(py, self.houses, self.groups, seed))
            .collect::<PyResult<Vec<_>>>()?;
        let threads = thread_count(self.threads)?;
        let controls = self.controls.map(|c| c.inner).unwrap_or_default();
        let generated = generate_all(py, &options, &controls, threads)?;
        Ok((options, generated))
    }
}

/// Generates a puzzle with a unique solution and a minimal set of clues;
/// the same arguments give the same puzzle (`bitfd generate --houses H
/// --groups G --seed S`). Raises `RangeError` for a size outside 2..=10
/// houses, 1..=12 groups (the generator's word lists).
///
/// >>> p = generate(4, 3, seed=7)
/// >>> p.houses, len(p.groups), check(p).verdict
/// (4, 3, 'unique')
/// >>> str(generate(4, 3, seed=7)) == str(p)
/// True
#[pyfunction]
#[pyo3(signature = (houses, groups, *, seed = 0, controls = None))]
pub(crate) fn generate(
    py: Python<'_>,
    houses: u8,
    groups: usize,
    seed: u64,
    controls: Option<Controls>,
) -> PyResult<Puzzle> {
    let options = generate_options(py, houses, groups, seed)?;
    let controls = controls.map(|c| c.inner).unwrap_or_default();
    let g = generate_all(py, &[options], &controls, 1)?;
    Ok(Puzzle::wrap(
        g.into_iter().next().expect("one puzzle").puzzle,
    ))
}

/// Generates one puzzle a seed on every core (or `threads`), with the
/// interpreter released; the puzzles come in the seeds' order, each the one
/// `generate` gives for its seed. The seeds are `seeds`, or `count` of them
/// from `seed` (puzzle k has seed `seed + k`, as `bitfd generate --seed S
/// --count K` numbers them).
///
/// >>> [str(p) == str(generate(4, 3, seed=s)) for s, p in zip([1, 2], generate_many(4, 3, [1, 2]))]
/// [True, True]
/// >>> [str(p) for p in generate_many(4, 3, seed=1, count=2)] == [str(p) for p in generate_many(4, 3, [1, 2])]
/// True
#[pyfunction]
#[pyo3(signature = (houses, groups, seeds = None, *, seed = None, count = None, threads = None, controls = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn generate_many(
    py: Python<'_>,
    houses: u8,
    groups: usize,
    seeds: Option<Vec<u64>>,
    seed: Option<u64>,
    count: Option<u64>,
    threads: Option<usize>,
    controls: Option<Controls>,
) -> PyResult<Vec<Puzzle>> {
    let batch = Batch {
        houses,
        groups,
        seeds,
        seed,
        count,
        threads,
        controls,
    };
    let (_, generated) = batch.run(py)?;
    Ok(generated
        .into_iter()
        .map(|g| Puzzle::wrap(g.puzzle))
        .collect())
}

/// Generates puzzles as English JSON lines, the bytes `bitfd generate
/// --english --style STYLE --houses H --groups G --seed S --count K` writes:
/// one line a puzzle (ending in a newline) with `id`, `size`, `style`,
/// `text`, `solution` (ZebraLogic's grid), `rating`, `clues` and `seed`.
/// `style` is `"zebralogic"`, `"reasoning-gym"` or `"classic"`; `seeds`
/// may replace `seed` and `count`, as in `generate_many`.
///
/// >>> import json
/// >>> [line] = generate_english(4, 3, seed=7, style="classic")
/// >>> record = json.loads(line)
/// >>> record["id"], record["style"], record["solution"]["header"]
/// ('gen-4x3-seed7', 'classic', ['House', 'Nationality', 'Color', 'Pet'])
/// >>> check(record["text"], format="english").verdict
/// 'unique'
#[pyfunction]
#[pyo3(signature = (houses, groups, seeds = None, *, seed = None, count = None, style = "zebralogic", threads = None, controls = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn generate_english(
    py: Python<'_>,
    houses: u8,
    groups: usize,
    seeds: Option<Vec<u64>>,
    seed: Option<u64>,
    count: Option<u64>,
    style: &str,
    threads: Option<usize>,
    controls: Option<Controls>,
) -> PyResult<Vec<String>> {
    let style = style_of(style)?;
    let batch = Batch {
        houses,
        groups,
        seeds,
        seed,
        count,
        threads,
        controls,
    };
    let (options, generated) = batch.run(py)?;
    Ok(lines(&generated, &options, Some(style)))
}

/// Each puzzle's text: `.zebra`, or its English JSON line in `style`.
fn lines(
    generated: &[Generated],
    options: &[GenerateOptions],
    style: Option<Style>,
) -> Vec<String> {
    generated
        .iter()
        .zip(options)
        .map(|(g, o)| match style {
            None => g.puzzle.to_string(),
            Some(style) => english_line(g, o, style),
        })
        .collect()
}

/// Writes generated puzzles to files in `out` (made if missing), as
/// `bitfd generate --out DIR` does: `gen-HxG-seedN.zebra`, or with
/// `english=True` `gen-HxG-seedN.json` holding the English JSON line in
/// `style`. Returns the paths written, in seed order. Raises `OSError` when
/// the folder cannot be made or a file written.
///
/// >>> import tempfile, pathlib
/// >>> with tempfile.TemporaryDirectory() as d:
/// ...     paths = generate_files(4, 3, d, seed=1, count=2)
/// ...     [pathlib.Path(p).name for p in paths], check(pathlib.Path(paths[0]).read_text()).verdict
/// (['gen-4x3-seed1.zebra', 'gen-4x3-seed2.zebra'], 'unique')
#[pyfunction]
#[pyo3(signature = (houses, groups, out, seeds = None, *, seed = None, count = None, english = false, style = "zebralogic", threads = None, controls = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn generate_files(
    py: Python<'_>,
    houses: u8,
    groups: usize,
    out: PathBuf,
    seeds: Option<Vec<u64>>,
    seed: Option<u64>,
    count: Option<u64>,
    english: bool,
    style: &str,
    threads: Option<usize>,
    controls: Option<Controls>,
) -> PyResult<Vec<PathBuf>> {
    let style = english.then(|| style_of(style)).transpose()?;
    let batch = Batch {
        houses,
        groups,
        seeds,
        seed,
        count,
        threads,
        controls,
    };
    let (options, generated) = batch.run(py)?;
    let texts = lines(&generated, &options, style);
    let extension = if english { "json" } else { "zebra" };
    let io_error = |path: &PathBuf, what: &str, e: std::io::Error| {
        PyOSError::new_err(format!("{}: cannot {what}: {e}", path.display()))
    };
    std::fs::create_dir_all(&out).map_err(|e| io_error(&out, "make the folder", e))?;
    let mut paths = Vec::with_capacity(texts.len());
    for (o, text) in options.iter().zip(texts) {
        let path = out.join(format!("{}.{extension}", o.id()));
        std::fs::write(&path, text).map_err(|e| io_error(&path, "write", e))?;
        paths.push(path);
    }
    Ok(paths)
}
