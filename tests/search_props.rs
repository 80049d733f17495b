//! Search property tests: on random small models, every search finds
//! exactly the solutions that brute force finds.
//!
//! A generated model has 2–6 variables with random non-empty domains within
//! `0..=8` and 1–6 random constraints of every kind, both all-different
//! strengths (over random subsets, offsets included) and each-value-held.
//! The oracle enumerates every tuple of the initial domains and checks it
//! with [`Spec::holds`], an evaluator written here with no bitfd code in it.
//! For every [`VarOrder`] × [`ValueOrder`] the tests then claim:
//!
//! * `Solver::all` finds the brute-force solution set, each solution once,
//!   and runs to completion;
//! * `stats.nodes == choices + failures + solutions`, and the root is the
//!   failing node exactly when `root_failure` is set;
//! * every solution passes `Model::check`;
//! * `Mode::Count` walks the same tree (equal stats) and keeps nothing;
//! * `Mode::AtMost(2)` and `Mode::First` return the first `min(2, n)` and
//!   `min(1, n)` solutions of the all-solutions list;
//! * the `Solver::solutions` iterator yields the all-solutions list.
//!
//! The searches that restart (with nogoods recorded at each restart) are
//! checked the same way, with runs of one or two failed leaves so that
//! small models restart often, and so are searches that probe the root.
//!
//! One `Solver` serves all of a model's searches, so these also claim that a
//! solver is reusable. A second property mixes a user propagator ([`SumIs`],
//! `x + y = k` on bounds) into the random models.

use std::num::NonZeroUsize;

use bitfd::propagator::{Ctx, Event, Propagation, Propagator, Status, Subscriptions};
use bitfd::{
    ConstraintId, Domain, Mode, Model, ModelError, Restarts, SearchOptions, SearchStatus, Solver,
    Strength, ValueOrder, VarId, VarOrder,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Generated models per property: both properties together take about a
/// second in release.
const CASES: u32 = 512;

/// The largest value in a generated domain.
const TOP: u8 = 8;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        ..ProptestConfig::default()
    }
}

/// The variable orders, each with reasoning from the last conflict off
/// and, for the two that search hard instances, on; the restarts, with
/// runs short enough to restart on small models; and singleton probing at
/// the root (last).
const VAR_ORDERS: [(VarOrder, bool, Restarts, bool); 11] = [
    (VarOrder::FirstFail, false, Restarts::Off, false),
    (VarOrder::InputOrder, false, Restarts::Off, false),
    (VarOrder::LargestDomain, false, Restarts::Off, false),
    (VarOrder::DomWdeg, false, Restarts::Off, false),
    (VarOrder::FirstFail, true, Restarts::Off, false),
    (VarOrder::DomWdeg, true, Restarts::Off, false),
    (
        VarOrder::DomWdeg,
        true,
        Restarts::Geometric { first: 1 },
        false,
    ),
    (VarOrder::DomWdeg, false, Restarts::Luby { unit: 1 }, false),
    (
        VarOrder::InputOrder,
        false,
        Restarts::Geometric { first: 2 },
        false,
    ),
    (VarOrder::FirstFail, false, Restarts::Off, true),
    (
        VarOrder::DomWdeg,
        true,
        Restarts::Geometric { first: 1 },
        true,
    ),
];

const VALUE_ORDERS: [ValueOrder; 3] = [ValueOrder::Min, ValueOrder::Max, ValueOrder::Split];

/// One constraint of a generated model, over variable positions.
#[derive(Clone, Debug)]
enum Spec {
    Equal(usize, usize),
    EqualValue(usize, u8),
    NotEqual(usize, usize),
    NotEqualValue(usize, u8),
    InSet(usize, Vec<u8>),
    Offset(usize, usize, i64),
    Distance(usize, usize, i64),
    NotDistance(usize, usize, i64),
    Less(usize, usize, i64),
    AllDifferent {
        group: Vec<usize>,
        /// One a member, or empty for none.
        offsets: Vec<i64>,
        strength: Strength,
    },
    EachValueHeld {
        group: Vec<usize>,
        /// At most `group.len()` of them.
        values: Vec<u8>,
    },
    /// `x + y = k`, by the user propagator [`SumIs`].
    Sum(usize, usize, i64),
}

impl Spec {
    /// Whether the full assignment `t` satisfies the constraint.
    fn holds(&self, t: &[u8]) -> bool {
        let at = |x: usize| i64::from(t[x]);
        match self {
            Spec::Equal(x, y) => t[*x] == t[*y],
            Spec::EqualValue(x, v) => t[*x] == *v,
            Spec::NotEqual(x, y) => t[*x] != t[*y],
            Spec::NotEqualValue(x, v) => t[*x] != *v,
            Spec::InSet(x, set) => set.contains(&t[*x]),
            Spec::Offset(x, y, c) => at(*x) == at(*y) + c,
            Spec::Distance(x, y, c) => (at(*x) - at(*y)).abs() == *c,
            Spec::NotDistance(x, y, c) => (at(*x) - at(*y)).abs() != *c,
            Spec::Less(x, y, c) => at(*x) < at(*y) + c,
            Spec::AllDifferent { group, offsets, .. } => {
                let shifted = |k: usize| at(group[k]) + offsets.get(k).copied().unwrap_or_default();
                (0..group.len()).all(|i| (0..i).all(|j| shifted(i) != shifted(j)))
            }
            Spec::EachValueHeld { group, values } => {
                values.iter().all(|&v| group.iter().any(|&x| t[x] == v))
            }
            Spec::Sum(x, y, k) => at(*x) + at(*y) == *k,
        }
    }

    /// Posts the constraint on the model's variables `v`.
    fn post(&self, m: &mut Model, v: &[VarId]) -> Result<ConstraintId, ModelError> {
        let members = |group: &[usize]| -> Vec<VarId> { group.iter().map(|&x| v[x]).collect() };
        match self {
            Spec::Equal(x, y) => m.equal(v[*x], v[*y]),
            Spec::EqualValue(x, value) => m.equal_value(v[*x], i64::from(*value)),
            Spec::NotEqual(x, y) => m.not_equal(v[*x], v[*y]),
            Spec::NotEqualValue(x, value) => m.not_equal_value(v[*x], i64::from(*value)),
            Spec::InSet(x, set) => {
                let set: Vec<i64> = set.iter().map(|&value| i64::from(value)).collect();
                m.in_set(v[*x], &set)
            }
            Spec::Offset(x, y, c) => m.offset(v[*x], v[*y], *c),
            Spec::Distance(x, y, c) => m.distance(v[*x], v[*y], *c),
            Spec::NotDistance(x, y, c) => m.not_distance(v[*x], v[*y], *c),
            Spec::Less(x, y, c) => m.less_offset(v[*x], v[*y], *c),
            Spec::AllDifferent {
                group,
                offsets,
                strength,
            } => {
                if offsets.is_empty() {
                    m.all_different(&members(group), *strength)
                } else {
                    m.all_different_offsets(&members(group), offsets, *strength)
                }
            }
            Spec::EachValueHeld { group, values } => {
                let values = values
                    .iter()
                    .fold(Domain::EMPTY, |d, &value| d | Domain::singleton(value));
                m.each_value_held(&members(group), values)
            }
            Spec::Sum(x, y, k) => m.post_propagator(SumIs {
                x: v[*x],
                y: v[*y],
                k: i32::try_from(*k).expect("small sums"),
            }),
        }
    }
}

/// A user propagator: `x + y = k`, on bounds, looping to its own fixpoint.
#[derive(Debug)]
struct SumIs {
    x: VarId,
    y: VarId,
    k: i32,
}

impl Propagator for SumIs {
    fn name(&self) -> &'static str {
        "sum-is"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on(self.x, Event::Bounds);
        subs.on(self.y, Event::Bounds);
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        loop {
            // x = k - y lies within k - max(y) ..= k - min(y), and y alike.
            let (ylo, yhi) = ctx.bounds(self.y)?;
            let mut changed = ctx.at_least(self.x, self.k - i32::from(yhi))?;
            changed |= ctx.at_most(self.x, self.k - i32::from(ylo))?;
            let (xlo, xhi) = ctx.bounds(self.x)?;
            changed |= ctx.at_least(self.y, self.k - i32::from(xhi))?;
            changed |= ctx.at_most(self.y, self.k - i32::from(xlo))?;
            // A hole at a bound may move it again: stop only when stable.
            if !changed {
                return Ok(Status::Fixpoint);
            }
        }
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        Some(i32::from(value(self.x)) + i32::from(value(self.y)) == self.k)
    }
}

/// A generated model: initial domains and constraints.
#[derive(Clone, Debug)]
struct RandomModel {
    doms: Vec<Domain>,
    specs: Vec<Spec>,
}

impl RandomModel {
    fn build(&self) -> Model {
        let mut model = Model::new();
        let vars: Vec<VarId> = self
            .doms
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                model
                    .var_with_domain(&format!("x{i}"), d)
                    .expect("generated domains are non-empty")
            })
            .collect();
        for spec in &self.specs {
            spec.post(&mut model, &vars)
                .expect("generated constraints are valid");
        }
        model
    }

    /// Every tuple of the initial domains that satisfies every constraint,
    /// in lexicographic order.
    fn brute_force(&self) -> Vec<Vec<u8>> {
        let lists: Vec<Vec<u8>> = self
            .doms
            .iter()
            .map(|d| (0..64u8).filter(|&v| d.bits() >> v & 1 == 1).collect())
            .collect();
        let mut at = vec![0usize; lists.len()];
        let mut found = Vec::new();
        loop {
            let t: Vec<u8> = at.iter().zip(&lists).map(|(&k, l)| l[k]).collect();
            if self.specs.iter().all(|s| s.holds(&t)) {
                found.push(t);
            }
            // Odometer step, the last variable fastest.
            let mut i = lists.len();
            loop {
                if i == 0 {
                    return found;
                }
                i -= 1;
                at[i] += 1;
                if at[i] < lists[i].len() {
                    break;
                }
                at[i] = 0;
            }
        }
    }
}

fn domains() -> impl Strategy<Value = Vec<Domain>> {
    prop::collection::vec((1u64..1 << (TOP + 1)).prop_map(Domain::from_bits), 2..=6)
}

/// A group of variable positions: mostly distinct, sometimes with repeats.
fn group(n: usize) -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        3 => prop::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n).prop_shuffle(),
        1 => prop::collection::vec(0..n, 1..=n),
    ]
}

/// One built-in constraint over the variables of `doms`.
fn builtin(doms: &[Domain]) -> impl Strategy<Value = Spec> + use<> {
    let n = doms.len();
    let lows: Vec<i64> = doms
        .iter()
        .map(|d| i64::from(d.bits().trailing_zeros()))
        .collect();
    let value = 0u8..=TOP + 1;
    prop_oneof![
        (0..n, 0..n).prop_map(|(x, y)| Spec::Equal(x, y)),
        (0..n, value.clone()).prop_map(|(x, v)| Spec::EqualValue(x, v)),
        (0..n, 0..n).prop_map(|(x, y)| Spec::NotEqual(x, y)),
        (0..n, value.clone()).prop_map(|(x, v)| Spec::NotEqualValue(x, v)),
        (0..n, prop::collection::vec(value.clone(), 0..=5)).prop_map(|(x, s)| Spec::InSet(x, s)),
        (0..n, 0..n, -4i64..=4).prop_map(|(x, y, c)| Spec::Offset(x, y, c)),
        (0..n, 0..n, 0i64..=4).prop_map(|(x, y, c)| Spec::Distance(x, y, c)),
        (0..n, 0..n, 0i64..=3).prop_map(|(x, y, c)| Spec::NotDistance(x, y, c)),
        (0..n, 0..n, -2i64..=2).prop_map(|(x, y, c)| Spec::Less(x, y, c)),
        (
            group(n),
            prop::collection::vec(-4i64..=4, n),
            any::<bool>(),
            prop_oneof![Just(Strength::Value), Just(Strength::Domain)],
        )
            .prop_map(move |(group, raw, shifted, strength)| {
                // Offsets keep every shifted initial domain at or above 0.
                let offsets = if shifted {
                    group
                        .iter()
                        .zip(&raw)
                        .map(|(&x, &o)| o.max(-lows[x]))
                        .collect()
                } else {
                    Vec::new()
                };
                Spec::AllDifferent {
                    group,
                    offsets,
                    strength,
                }
            }),
        (
            group(n),
            prop::sample::subsequence((0..=TOP + 1).collect::<Vec<u8>>(), 0..=4)
        )
            .prop_map(|(group, mut values)| {
                values.truncate(group.len());
                Spec::EachValueHeld { group, values }
            }),
    ]
}

/// A model of built-in constraints only.
fn builtin_model() -> impl Strategy<Value = RandomModel> {
    domains().prop_flat_map(|doms| {
        let specs = prop::collection::vec(builtin(&doms), 1..=6);
        (Just(doms), specs).prop_map(|(doms, specs)| RandomModel { doms, specs })
    })
}

/// A model of built-in constraints and one or two [`SumIs`].
fn model_with_sums() -> impl Strategy<Value = RandomModel> {
    domains().prop_flat_map(|doms| {
        let n = doms.len();
        let sum = (0..n, 0..n, 0i64..=2 * i64::from(TOP)).prop_map(|(x, y, k)| Spec::Sum(x, y, k));
        let specs = prop::collection::vec(builtin(&doms), 0..=4);
        let sums = prop::collection::vec(sum, 1..=2);
        (Just(doms), specs, sums).prop_map(|(doms, mut specs, sums)| {
            // Sums first: posting order decides the queue order in a class.
            let mut all = sums;
            all.append(&mut specs);
            RandomModel { doms, specs: all }
        })
    })
}

/// The claims of the file's doc, for every variable and value order.
fn check_searches(case: &RandomModel) -> Result<(), TestCaseError> {
    let model = case.build();
    let expected = case.brute_force();
    let n = expected.len();
    let mut solver = Solver::new(&model);
    for (var_order, last_conflict, restarts, probe) in VAR_ORDERS {
        for value_order in VALUE_ORDERS {
            let opts = SearchOptions::default()
                .var_order(var_order)
                .value_order(value_order)
                .last_conflict(last_conflict)
                .restarts(restarts)
                .probe(probe);
            let at = format!(
                "{var_order} / {value_order} / last conflict {last_conflict} / {restarts:?} / \
                 probe {probe}"
            );

            let all = solver.all(&opts);
            prop_assert_eq!(all.status, SearchStatus::Complete, "{}", at);
            let found: Vec<Vec<u8>> = all.solutions.iter().map(|s| s.values().to_vec()).collect();
            let mut sorted = found.clone();
            sorted.sort();
            // `expected` is sorted and has no repeats, so this also says
            // that no solution is reported twice.
            prop_assert_eq!(&sorted, &expected, "solution set, {}", at);

            let s = all.stats;
            prop_assert_eq!(s.nodes, s.choices + s.failures + s.solutions, "{}", at);
            prop_assert_eq!(s.solutions, n as u64, "{}", at);
            let root_failed = s.nodes == 1 && s.failures == 1;
            prop_assert_eq!(all.root_failure.is_some(), root_failed, "{}", at);
            for t in &found {
                prop_assert_eq!(model.check(t), Ok(()), "{:?} fails the model, {}", t, at);
            }

            let count = solver.solve(&opts, Mode::Count);
            prop_assert!(count.solutions.is_empty(), "count kept solutions, {}", at);
            prop_assert_eq!(count.stats, all.stats, "count's tree, {}", at);
            let two_threads = NonZeroUsize::new(2).expect("not zero");
            let parallel = solver.count_parallel(&opts, two_threads);
            prop_assert_eq!(parallel.stats, all.stats, "parallel count's tree, {}", at);
            prop_assert_eq!(parallel.root_failure, all.root_failure, "{}", at);

            let two = solver.solve(&opts, Mode::AtMost(2));
            prop_assert_eq!(&two.solutions[..], &all.solutions[..n.min(2)], "{}", at);
            let first = solver.first(&opts);
            prop_assert_eq!(&first.solutions[..], &all.solutions[..n.min(1)], "{}", at);

            let streamed: Vec<_> = solver.solutions(&opts).collect();
            prop_assert_eq!(&streamed, &all.solutions, "iterator, {}", at);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_search_order_finds_exactly_the_brute_force_solutions(case in builtin_model()) {
        check_searches(&case)?;
    }

    #[test]
    fn a_user_propagator_in_random_models_finds_exactly_the_brute_force_solutions(
        case in model_with_sums(),
    ) {
        check_searches(&case)?;
    }
}
