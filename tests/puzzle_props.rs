//! Property tests of the `.zebra` parser: hostile input (random bytes,
//! token soup, mutated example files) never panics or hangs; generated
//! puzzles survive the writer's round trip; and their models have exactly
//! the solutions a brute-force count of the clues' meaning finds.

use bitfd::puzzle::{self, Cmp, Operand, Puzzle, Relation, ValueRef};
use bitfd::{Mode, SearchOptions, Solver};
use proptest::prelude::*;

/// Parses, and if that works builds and searches (bounded), writes the
/// puzzle back and parses that: nothing may panic, and the round trip must
/// give the same puzzle.
fn exercise(bytes: &[u8]) {
    let Ok(p) = puzzle::parse_bytes(bytes) else {
        return;
    };
    let pm = p.to_model();
    let options = SearchOptions::default().node_limit(200);
    let _ = Solver::new(pm.model()).solve(&options, Mode::AtMost(2));
    let written = p.to_string();
    let again = puzzle::parse(&written).expect("the writer's output parses");
    assert_eq!(again, p, "{written}");
}

/// `cases` cases; failures are kept in `puzzle_props.proptest-regressions`
/// beside this file (committed, as for the other property tests).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig::with_cases(cases)
}

/// Fragments a `.zebra` file is made of, and some it is not.
const TOKENS: &[&str] = &[
    "houses",
    "title",
    "ask",
    "in",
    "3",
    "1",
    "0",
    "64",
    "99999999999999999999",
    "red",
    "green",
    "color",
    "pet",
    "dog",
    "cat",
    "\"orange juice\"",
    "\"a \\\" b\"",
    "\"",
    ":",
    ".",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "|",
    "{",
    "}",
    ",",
    "#",
    "\n",
    "\n",
    "\n",
    " ",
    "\t",
    "\r\n",
    "é",
    "\u{1b}",
    "\0",
    "==",
    "!",
    "\u{feff}",
];

fn example_texts() -> Vec<Vec<u8>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/puzzles");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("examples")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| std::fs::read(p).expect("readable"))
        .collect()
}

/// A mutation of a file: what to do at a position.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, &'static str),
    Duplicate(usize, usize),
    Flip(usize, u8),
}

fn mutate(mut text: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = text.len().max(1);
        match *m {
            Mutation::Delete(at, n) => {
                let at = at % len;
                let end = (at + n % 40).min(text.len());
                text.drain(at.min(text.len())..end);
            }
            Mutation::Insert(at, s) => {
                let at = (at % len).min(text.len());
                text.splice(at..at, s.bytes());
            }
            Mutation::Duplicate(at, n) => {
                let at = (at % len).min(text.len());
                let end = (at + n % 200).min(text.len());
                let copy = text[at..end].to_vec();
                text.splice(at..at, copy);
            }
            Mutation::Flip(at, b) => {
                if !text.is_empty() {
                    let at = at % text.len();
                    text[at] = b;
                }
            }
        }
    }
    text
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), prop::sample::select(TOKENS)).prop_map(|(a, s)| Mutation::Insert(a, s)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Flip(a, b)),
    ]
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        exercise(&bytes);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..120)) {
        let text: String = tokens.join(" ");
        exercise(text.as_bytes());
        exercise(tokens.concat().as_bytes());
    }

    #[test]
    fn mutated_example_files_never_panic(
        which in 0usize..16,
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let texts = example_texts();
        let text = texts[which % texts.len()].clone();
        exercise(&mutate(text, &mutations));
    }
}

// ---------------------------------------------------------------------------
// Generated puzzles, and a brute-force oracle for their meaning.
// ---------------------------------------------------------------------------

/// A generated puzzle: houses, group sizes, and clues over `(group, value)`
/// indices.
#[derive(Clone, Debug)]
struct Spec {
    houses: u8,
    sizes: Vec<usize>,
    clues: Vec<ClueSpec>,
    /// Whether value names repeat across groups (forcing `group.value`).
    shared_names: bool,
}

#[derive(Clone, Debug)]
enum Term {
    V(usize, usize),
    H(u8),
}

#[derive(Clone, Debug)]
enum ClueSpec {
    Same(Term, Term, i8),
    Ne(Term, Term),
    Dist(Term, Term, u8, bool),
    Cmp(Term, &'static str, Term),
    Between(Term, Term, Term),
    In(Term, Vec<u8>),
}

fn value_name(spec: &Spec, g: usize, v: usize) -> String {
    // Some names need quotes, and with `shared_names` the same names occur
    // in every group.
    let base = if spec.shared_names {
        format!("v{v}")
    } else {
        format!("g{g}v{v}")
    };
    if v % 3 == 2 {
        format!("\"{base} x\"")
    } else {
        base
    }
}

fn term_text(spec: &Spec, t: &Term) -> String {
    match t {
        Term::V(g, v) if spec.shared_names => format!("group{g}.{}", value_name(spec, *g, *v)),
        Term::V(g, v) => value_name(spec, *g, *v),
        Term::H(h) => h.to_string(),
    }
}

fn spec_text(spec: &Spec) -> String {
    let mut s = format!("houses {}\n", spec.houses);
    for (g, &n) in spec.sizes.iter().enumerate() {
        let values: Vec<String> = (0..n).map(|v| value_name(spec, g, v)).collect();
        s.push_str(&format!("group{g}: {}\n", values.join(" ")));
    }
    for (i, c) in spec.clues.iter().enumerate() {
        let t = |x: &Term| term_text(spec, x);
        let body = match c {
            ClueSpec::Same(a, b, 0) => format!("{} = {}", t(a), t(b)),
            ClueSpec::Same(a, b, o) if *o > 0 => format!("{} = {} + {o}", t(a), t(b)),
            ClueSpec::Same(a, b, o) => format!("{} = {} - {}", t(a), t(b), -o),
            ClueSpec::Ne(a, b) => format!("{} != {}", t(a), t(b)),
            ClueSpec::Dist(a, b, d, eq) => {
                format!("|{} - {}| {} {d}", t(a), t(b), if *eq { "=" } else { "!=" })
            }
            ClueSpec::Cmp(a, op, b) => format!("{} {op} {}", t(a), t(b)),
            ClueSpec::Between(a, x, b) => format!("{} < {} < {}", t(a), t(x), t(b)),
            ClueSpec::In(a, set) => {
                let set: Vec<String> = set.iter().map(u8::to_string).collect();
                format!("{} in {{{}}}", t(a), set.join(", "))
            }
        };
        if i % 2 == 0 {
            s.push_str(&format!("\"Clue {i}: \\\"quoted\\\".\" {body}\n"));
        } else {
            s.push_str(&format!("{body}   # clue {i}\n"));
        }
    }
    s
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        1u8..=4,
        prop::collection::vec(1usize..=4, 1..=3),
        any::<bool>(),
    )
        .prop_flat_map(|(houses, sizes, shared_names)| {
            let sizes: Vec<usize> = sizes
                .into_iter()
                .map(|n| n.min(usize::from(houses)))
                .collect();
            let values: Vec<(usize, usize)> = sizes
                .iter()
                .enumerate()
                .flat_map(|(g, &n)| (0..n).map(move |v| (g, v)))
                .collect();
            let value = prop::sample::select(values).prop_map(|(g, v)| Term::V(g, v));
            let house = (1..=houses).prop_map(Term::H);
            let operand = prop_oneof![3 => value.clone(), 1 => house.clone()];
            let d = 0..houses;
            let clue = prop_oneof![
                (
                    value.clone(),
                    value.clone(),
                    -(houses as i8 - 1)..=(houses as i8 - 1)
                )
                    .prop_map(|(a, b, o)| ClueSpec::Same(a, b, o)),
                (value.clone(), house.clone()).prop_map(|(a, h)| ClueSpec::Same(a, h, 0)),
                (value.clone(), operand.clone()).prop_map(|(a, b)| ClueSpec::Ne(a, b)),
                (value.clone(), value.clone(), d, any::<bool>())
                    .prop_map(|(a, b, d, eq)| ClueSpec::Dist(a, b, d, eq)),
                (
                    value.clone(),
                    prop::sample::select(&["<", "<=", ">", ">="][..]),
                    operand.clone()
                )
                    .prop_map(|(a, op, b)| ClueSpec::Cmp(a, op, b)),
                (operand.clone(), value.clone(), operand.clone())
                    .prop_map(|(a, x, b)| ClueSpec::Between(a, x, b)),
                (value, prop::collection::vec(1..=houses, 1..4))
                    .prop_map(|(a, s)| ClueSpec::In(a, s)),
            ];
            let clues = prop::collection::vec(clue, 0..6);
            (Just(houses), Just(sizes), clues, Just(shared_names))
        })
        .prop_map(|(houses, sizes, clues, shared_names)| Spec {
            houses,
            sizes,
            clues,
            shared_names,
        })
}

/// Whether a relation holds when value `v` is in house `pos(v)`: the
/// format's meaning, written from the grammar, not from the model.
fn holds(r: &Relation, pos: &dyn Fn(ValueRef) -> i32) -> bool {
    let op = |o: Operand| match o {
        Operand::Value(v) => pos(v),
        Operand::House(h) => i32::from(h),
    };
    let cmp = |a: i32, c: Cmp, b: i32| match c {
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    };
    match r {
        Relation::Same { a, b, offset } => pos(*a) == pos(*b) + i32::from(*offset),
        Relation::At { a, house } => pos(*a) == i32::from(*house),
        Relation::Differ { a, b } => pos(*a) != pos(*b),
        Relation::NotAt { a, house } => pos(*a) != i32::from(*house),
        Relation::Distance { a, b, distance } => (pos(*a) - pos(*b)).abs() == i32::from(*distance),
        Relation::NotDistance { a, b, distance } => {
            (pos(*a) - pos(*b)).abs() != i32::from(*distance)
        }
        Relation::Compare { left, op: c, right } => cmp(op(*left), *c, op(*right)),
        Relation::Between { low, mid, high } => op(*low) < op(*mid) && op(*mid) < op(*high),
        Relation::In { a, houses } => houses.iter().any(|&h| i32::from(h) == pos(*a)),
    }
}

/// Counts the placements (each group's values in distinct houses, a full
/// group covering every house) that satisfy every clue, by enumeration.
fn brute_force_count(p: &Puzzle) -> u64 {
    brute_force_count_of(p, &|_| true)
}

/// [`brute_force_count`] with the clues `keep` says yes to (by index).
fn brute_force_count_of(p: &Puzzle, keep: &dyn Fn(usize) -> bool) -> u64 {
    let n = usize::from(p.houses());
    // Every injective placement of each group.
    let placements: Vec<Vec<Vec<i32>>> = p
        .groups()
        .iter()
        .map(|g| injections(g.values.len(), n))
        .collect();
    let mut count = 0;
    let mut choice = vec![0usize; placements.len()];
    loop {
        let pos = |v: ValueRef| placements[v.group][choice[v.group]][v.value];
        let clues = p.clues().iter().enumerate();
        if clues
            .filter(|&(i, _)| keep(i))
            .all(|(_, c)| holds(&c.relation, &pos))
        {
            count += 1;
        }
        // Next combination, odometer style.
        let mut g = 0;
        loop {
            if g == choice.len() {
                return count;
            }
            choice[g] += 1;
            if choice[g] < placements[g].len() {
                break;
            }
            choice[g] = 0;
            g += 1;
        }
    }
}

/// Every way to put `k` values in distinct houses `1..=n`.
fn injections(k: usize, n: usize) -> Vec<Vec<i32>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn go(k: usize, n: usize, current: &mut Vec<i32>, out: &mut Vec<Vec<i32>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for h in 1..=n as i32 {
            if !current.contains(&h) {
                current.push(h);
                go(k, n, current, out);
                current.pop();
            }
        }
    }
    go(k, n, &mut current, &mut out);
    out
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn generated_puzzles_parse_and_round_trip(spec in spec()) {
        let text = spec_text(&spec);
        let p = puzzle::parse(&text).unwrap_or_else(|e| panic!("{e}\n---\n{text}"));
        prop_assert_eq!(p.clues().len(), spec.clues.len());
        let written = p.to_string();
        let again = puzzle::parse(&written).unwrap_or_else(|e| panic!("{e}\n---\n{written}"));
        prop_assert_eq!(&again, &p);
        prop_assert_eq!(again.to_string(), written);
    }

    #[test]
    fn generated_puzzles_have_the_brute_force_solution_count(spec in spec()) {
        let p = puzzle::parse(&spec_text(&spec)).expect("generated text parses");
        let pm = p.to_model();
        let outcome = Solver::new(pm.model()).solve(&SearchOptions::default(), Mode::Count);
        prop_assert_eq!(outcome.stats.solutions, brute_force_count(&p), "{}", p);
    }
}

#[test]
fn a_root_conflict_names_clues_that_have_no_solution_and_each_is_needed() {
    // Generated puzzles (the strategy above, drawn deterministically):
    // when the root fails, the clues named have no placement between them
    // (brute force), and each one is needed: without it, some placement
    // satisfies the others.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut conflicts, mut dropped) = (0, 0);
    for _ in 0..2_000 {
        let spec = spec().new_tree(&mut runner).expect("a spec").current();
        let p = puzzle::parse(&spec_text(&spec)).expect("generated text parses");
        let Some(found) = p.minimal_conflict(bitfd::Strength::Domain, &SearchOptions::default())
        else {
            continue;
        };
        conflicts += 1;
        let at_root = p
            .root_conflict(bitfd::Strength::Domain)
            .expect("fails at the root");
        dropped += usize::from(at_root.len() > found.clues.len());
        assert!(found.proven, "no limit was set");
        let named = |i: usize| found.clues.contains(&i);
        assert_eq!(brute_force_count_of(&p, &named), 0, "{p}");
        for &i in &found.clues {
            let others = |j: usize| j != i && named(j);
            assert!(brute_force_count_of(&p, &others) > 0, "clue {i} of {p}");
        }
    }
    assert!(conflicts > 20, "root failures met: {conflicts}");
    assert!(dropped > 0, "some root sets shrink: {dropped}");
}
