//! Oracle property tests: every built-in propagator against brute force.
//!
//! One harness, [`check`], serves every constraint kind. It is handed a way
//! to post the constraint and `holds`, the constraint's meaning written here
//! over plain `u8` tuples, with no bitfd code in it. A generated [`Case`] is
//! 2–4 variables with random non-empty domains over `0..=8`. The harness
//! enumerates every tuple of the input domains ([`Truth::by_enumeration`]),
//! runs `Engine::propagate` on a one-constraint model, and checks the
//! propagator contract of `src/propagators/mod.rs` ([`check_against`]):
//!
//! 1. **sound:** every tuple that satisfies `holds` survives, and
//!    propagation does not fail while one exists;
//! 2. **exact when fixed:** all-singleton domains fail iff `!holds` (one
//!    satisfying and one violating tuple of each case are posted fixed);
//! 3. **strong:** a domain-consistent propagator leaves exactly the
//!    supported values; a bounds-consistent one leaves exactly the supported
//!    bounds and removes nothing between them;
//! 4. **a true fixpoint:** a second model whose initial domains are the
//!    first run's output propagates to the same domains (the engine has no
//!    public re-queue, so this is how "running again changes nothing" is
//!    observed from outside).
//!
//! Groups of up to twelve variables are too many for the enumeration: for
//! the all-different over them ([`group_case`]) the same checks run against
//! [`Truth::of_all_different`], a backtracking search for an assignment of
//! distinct values through each supported value.
//!
//! The oracle's own arithmetic works on raw bits, not on `Domain`'s
//! operations, so a wrong domain primitive cannot hide a wrong propagator.
//! The `oracle_rejects_*` tests show that each check can fail.

use bitfd::propagator::{Conflict, Ctx, Event, Propagation, Propagator, Status, Subscriptions};
use bitfd::{ConstraintId, Domain, Engine, Model, ModelError, Strength, VarId};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::{TestCaseError, TestRunner};

/// Generated cases per property: all of them together run in well under a
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

/// One generated input: the variables' initial domains.
#[derive(Clone, Debug)]
struct Case {
    /// Non-empty subsets of `0..=TOP`, one a variable.
    doms: Vec<Domain>,
    /// Chooses which satisfying and which violating tuple are posted fixed.
    pick: usize,
}

impl Case {
    /// The variable that `i` selects among the case's variables.
    fn var(&self, i: &Index) -> usize {
        i.index(self.doms.len())
    }

    /// Variables selected by `picks`, in order, repeats kept.
    fn group(&self, picks: &[Index]) -> Vec<usize> {
        picks.iter().map(|i| self.var(i)).collect()
    }

    /// Variables selected by `picks`, in order, each at most once.
    fn distinct_group(&self, picks: &[Index]) -> Vec<usize> {
        let mut group = Vec::new();
        for x in self.group(picks) {
            if !group.contains(&x) {
                group.push(x);
            }
        }
        group
    }

    /// All-different offsets from raw draws, raised where needed so that
    /// every shifted initial domain stays at or above 0 (it cannot pass 63).
    fn offsets(&self, group: &[usize], raw: &[i64]) -> Vec<i64> {
        group
            .iter()
            .zip(raw)
            .map(|(&x, &o)| o.max(-i64::from(low(self.doms[x].bits()))))
            .collect()
    }
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(1u64..1 << (TOP + 1), 2..=4),
        any::<usize>(),
    )
        .prop_map(|(bits, pick)| Case {
            doms: bits.into_iter().map(Domain::from_bits).collect(),
            pick,
        })
}

/// The largest group [`group_case`] makes.
const GROUP: usize = 12;

/// A case for one group of 1 to [`GROUP`] variables, all of the case's:
/// domains within a window of values as wide as the group, one narrower or
/// up to two wider, from the lowest value up to 3, each value in about a
/// quarter or half of the domains; so that groups fail, prune and hold
/// alike.
fn group_case() -> impl Strategy<Value = Case> {
    (1..=GROUP)
        .prop_flat_map(|n| {
            (
                prop::collection::vec((any::<u16>(), any::<u16>(), any::<bool>()), n),
                0u32..4,
                0usize..4,
                any::<usize>(),
            )
        })
        .prop_map(|(masks, base, extra, pick)| {
            let width = (masks.len() + extra).saturating_sub(1).max(1);
            let window = (1u64 << width) - 1;
            let doms = masks
                .into_iter()
                .map(|(a, b, sparse)| {
                    let drawn = if sparse { a & b } else { a };
                    let d = u64::from(drawn) & window;
                    let d = if d == 0 {
                        1 << (usize::from(b) % width)
                    } else {
                        d
                    };
                    Domain::from_bits(d << base)
                })
                .collect();
            Case { doms, pick }
        })
}

/// The group of all of `case`'s variables: in declaration order, or from
/// a later one round (as the case's `pick` says), so that both the group
/// read as one block and the one read variable by variable run.
fn whole_group(case: &Case) -> Vec<usize> {
    let n = case.doms.len();
    let mut group: Vec<usize> = (0..n).collect();
    group.rotate_left(case.pick / 3 % n);
    group
}

/// What a propagator promises beyond soundness, exactness and a fixpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Promise {
    /// Exactly the supported values survive.
    Domain,
    /// The bounds are exactly the supported bounds; values between them stay.
    Bounds,
    /// Nothing more.
    Sound,
}

/// The result of propagating one model: the domains, or the failing
/// constraint.
type Run = Result<Vec<Domain>, ConstraintId>;

/// Builds a model with `doms`, posts the constraint, propagates.
fn run<P>(doms: &[Domain], post: &P) -> Run
where
    P: Fn(&mut Model, &[VarId]) -> Result<ConstraintId, ModelError>,
{
    let mut model = Model::new();
    let vars: Vec<VarId> = doms
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            model
                .var_with_domain(&format!("x{i}"), d)
                .expect("generated domains are non-empty")
        })
        .collect();
    post(&mut model, &vars).expect("generated constants are in range");
    let mut engine = Engine::new(&model);
    engine.propagate()?;
    Ok(engine.domains().collect())
}

/// The values of a bitmask, ascending; the oracle's own iteration.
fn values(bits: u64) -> Vec<u8> {
    (0..64u8).filter(|&v| bits >> v & 1 == 1).collect()
}

fn low(bits: u64) -> u8 {
    bits.trailing_zeros() as u8
}

fn high(bits: u64) -> u8 {
    63 - bits.leading_zeros() as u8
}

/// Every tuple of the domains, the first variable varying slowest.
fn tuples(doms: &[Domain]) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    for d in doms {
        let vals = values(d.bits());
        all = all
            .into_iter()
            .flat_map(|t| {
                vals.iter().map(move |&v| {
                    let mut t = t.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    all
}

fn show(doms: &[Domain]) -> String {
    let parts: Vec<String> = doms.iter().map(ToString::to_string).collect();
    parts.join(" ")
}

/// What holds on a case's input domains, as the oracle finds it.
#[derive(Clone, Debug)]
struct Truth {
    /// Each variable's supported values: the projection of the solutions.
    support: Vec<u64>,
    /// A solution, if there is one: the one the case's `pick` selects.
    good: Option<Vec<u8>>,
    /// A tuple of the input domains that violates the constraint, if there
    /// is one: the one the case's `pick` selects.
    bad: Option<Vec<u8>>,
}

impl Truth {
    /// By enumerating every tuple of `case`'s domains.
    fn by_enumeration<H: Fn(&[u8]) -> bool>(case: &Case, holds: H) -> Truth {
        let (good, bad): (Vec<Vec<u8>>, Vec<Vec<u8>>) =
            tuples(&case.doms).into_iter().partition(|t| holds(t));
        let support = (0..case.doms.len())
            .map(|i| good.iter().fold(0, |s, t| s | 1 << t[i]))
            .collect();
        let pick = |all: &[Vec<u8>]| (!all.is_empty()).then(|| all[case.pick % all.len()].clone());
        Truth {
            support,
            good: pick(&good),
            bad: pick(&bad),
        }
    }

    /// For `t[group[k]] + offsets[k]` pairwise different (`group` distinct
    /// variables, all of `case`'s; no offsets: all zero), by backtracking:
    /// a value is supported when some assignment of distinct shifted values
    /// to the whole group gives it. A violating tuple puts two variables on
    /// one shifted value.
    fn of_all_different(case: &Case, group: &[usize], offsets: &[i64]) -> Truth {
        let n = group.len();
        assert!(
            (0..case.doms.len()).all(|x| group.contains(&x)),
            "every variable in the group once"
        );
        let off = |k: usize| offsets.get(k).copied().unwrap_or(0);
        // Position k's values shifted, as a set (offsets keep them within
        // 0..=63).
        let shifted: Vec<u64> = (0..n)
            .map(|k| {
                values(case.doms[group[k]].bits())
                    .into_iter()
                    .fold(0, |s, v| s | 1 << (i64::from(v) + off(k)))
            })
            .collect();
        // The search takes the positions with fewer values first.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&k| shifted[k].count_ones());
        let mut support = vec![0u64; case.doms.len()];
        let mut good = None;
        let mut at = vec![0u64; n];
        // No assignment at all: nothing is supported (and the searches
        // below, one a value, would each fail the long way).
        let solvable = distinct_completion(&shifted, &order, &mut at, 0);
        for k in (0..n).filter(|_| solvable) {
            for v in values(shifted[k]) {
                let value = i64::from(v) - off(k);
                if support[group[k]] >> value & 1 == 1 {
                    continue;
                }
                // Position k on v, the others searched.
                let mut only = shifted.clone();
                only[k] = 1 << v;
                if distinct_completion(&only, &order, &mut at, 0) {
                    let mut tuple = vec![0u8; case.doms.len()];
                    for (j, &a) in at.iter().enumerate() {
                        let w = i64::from(a.trailing_zeros()) - off(j);
                        tuple[group[j]] = u8::try_from(w).expect("a value");
                        support[group[j]] |= 1 << w;
                    }
                    good.get_or_insert(tuple);
                }
            }
        }
        // A clash: the first pair of positions, from the pick on, that can
        // share a shifted value, the others at their lowest values.
        let pairs: Vec<(usize, usize)> = pairs(n).filter(|(i, j)| i < j).collect();
        let bad = (0..pairs.len()).find_map(|r| {
            let (i, j) = pairs[(case.pick + r) % pairs.len()];
            let shared = shifted[i] & shifted[j];
            (shared != 0).then(|| {
                let v = i64::from(shared.trailing_zeros());
                let mut tuple: Vec<u8> = case.doms.iter().map(|d| low(d.bits())).collect();
                tuple[group[i]] = u8::try_from(v - off(i)).expect("a value");
                tuple[group[j]] = u8::try_from(v - off(j)).expect("a value");
                tuple
            })
        });
        Truth { support, good, bad }
    }
}

/// Whether the positions `order[r..]` can take values of `shifted` (a set
/// a position) distinct from each other and from those `at` gives
/// `order[..r]` (one-bit sets); if so, `at` gives them such values.
fn distinct_completion(shifted: &[u64], order: &[usize], at: &mut [u64], r: usize) -> bool {
    let Some(&k) = order.get(r) else {
        return true;
    };
    let taken = order[..r].iter().fold(0, |t, &j| t | at[j]);
    let mut left = shifted[k] & !taken;
    while left != 0 {
        at[k] = left & left.wrapping_neg();
        left &= left - 1;
        if distinct_completion(shifted, order, at, r + 1) {
            return true;
        }
    }
    false
}

/// The shared oracle: checks the propagator that `post` creates against
/// `holds` on `case`, for the claims in the file's doc.
fn check<P, H>(case: &Case, promise: Promise, post: P, holds: H) -> Result<(), TestCaseError>
where
    P: Fn(&mut Model, &[VarId]) -> Result<ConstraintId, ModelError>,
    H: Fn(&[u8]) -> bool,
{
    check_against(case, promise, post, &Truth::by_enumeration(case, holds))
}

/// The claims of the file's doc for the propagator that `post` creates on
/// `case`, whose solutions `truth` describes.
fn check_against<P>(
    case: &Case,
    promise: Promise,
    post: P,
    truth: &Truth,
) -> Result<(), TestCaseError>
where
    P: Fn(&mut Model, &[VarId]) -> Result<ConstraintId, ModelError>,
{
    let input = &case.doms;
    let out = run(input, &post);
    let at = format!("input {}, output {:?}", show(input), out);
    let support = &truth.support;

    // 1. Sound: every solution survives, that is every supported value.
    if let Some(solution) = &truth.good {
        let Ok(doms) = &out else {
            return Err(TestCaseError::fail(format!(
                "failed although {solution:?} satisfies the constraint; {at}"
            )));
        };
        for (i, (d, &s)) in doms.iter().zip(support).enumerate() {
            prop_assert!(
                s & !d.bits() == 0,
                "x{} lost supported values {}; {}",
                i,
                Domain::from_bits(s & !d.bits()),
                at
            );
        }
    }

    // 2. Exact when fixed: one solution stays whole, one non-solution fails.
    let fixed = |t: &[u8]| -> Vec<Domain> { t.iter().map(|&v| Domain::singleton(v)).collect() };
    if let Some(t) = &truth.good {
        let doms = fixed(t);
        prop_assert_eq!(
            run(&doms, &post),
            Ok(doms.clone()),
            "fixed solution {:?} was refused",
            t
        );
    }
    if let Some(t) = &truth.bad {
        prop_assert!(
            run(&fixed(t), &post).is_err(),
            "fixed non-solution {:?} was accepted",
            t
        );
    }

    // 3. Strong: compare with the projection of the solutions.
    match promise {
        Promise::Sound => {}
        Promise::Domain | Promise::Bounds if truth.good.is_none() => {
            prop_assert!(out.is_err(), "no solution, yet no failure; {}", at);
        }
        Promise::Domain => {
            let doms = out.as_ref().expect("checked by soundness");
            let bits: Vec<u64> = doms.iter().map(|d| d.bits()).collect();
            prop_assert_eq!(&bits, support, "not the supported values; {}", at);
        }
        Promise::Bounds => {
            let doms = out.as_ref().expect("checked by soundness");
            for (i, (d, &s)) in doms.iter().zip(support).enumerate() {
                let (lo, hi) = (low(s), high(s));
                let between = input[i].bits() & (u64::MAX << lo) & (u64::MAX >> (63 - hi));
                prop_assert_eq!(
                    d.bits(),
                    between,
                    "x{} should be its input within {}..={}; {}",
                    i,
                    lo,
                    hi,
                    at
                );
            }
        }
    }

    // 4. A true fixpoint: starting from the output, nothing more goes.
    if let Ok(doms) = &out {
        let again = run(doms, &post);
        prop_assert_eq!(&again, &out, "second run moved; {}", at);
    }

    Ok(())
}

/// Distinct pairs of positions `(i, j)` of a group.
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
}

/// `t[group[k]] + offsets[k]` pairwise different; offsets empty means none.
fn all_distinct(t: &[u8], group: &[usize], offsets: &[i64]) -> bool {
    let shifted = |k: usize| i64::from(t[group[k]]) + offsets.get(k).copied().unwrap_or(0);
    pairs(group.len()).all(|(i, j)| shifted(i) != shifted(j))
}

/// Posts an all-different, with offsets when there are any.
fn post_all_different(
    m: &mut Model,
    v: &[VarId],
    group: &[usize],
    offsets: &[i64],
    strength: Strength,
) -> Result<ConstraintId, ModelError> {
    let vars: Vec<VarId> = group.iter().map(|&x| v[x]).collect();
    if offsets.is_empty() {
        m.all_different(&vars, strength)
    } else {
        m.all_different_offsets(&vars, offsets, strength)
    }
}

/// The first `limit` values of `bits`: an each-value-held set the group
/// can cover.
fn first_values(bits: u64, limit: usize) -> u64 {
    values(bits)
        .into_iter()
        .take(limit)
        .fold(0, |s, v| s | 1 << v)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn equal_keeps_exactly_the_supported_values(
        case in case(), x in any::<Index>(), y in any::<Index>(),
    ) {
        let (x, y) = (case.var(&x), case.var(&y));
        check(&case, Promise::Domain, |m, v| m.equal(v[x], v[y]), |t| t[x] == t[y])?;
    }

    #[test]
    fn equal_value_keeps_exactly_the_supported_values(
        case in case(), x in any::<Index>(), value in 0u8..=TOP + 2,
    ) {
        let x = case.var(&x);
        check(
            &case,
            Promise::Domain,
            |m, v| m.equal_value(v[x], i64::from(value)),
            |t| t[x] == value,
        )?;
    }

    #[test]
    fn not_equal_keeps_exactly_the_supported_values(
        case in case(), x in any::<Index>(), y in any::<Index>(),
    ) {
        let (x, y) = (case.var(&x), case.var(&y));
        check(&case, Promise::Domain, |m, v| m.not_equal(v[x], v[y]), |t| t[x] != t[y])?;
    }

    #[test]
    fn not_equal_value_keeps_exactly_the_supported_values(
        case in case(), x in any::<Index>(), value in 0u8..=TOP + 2,
    ) {
        let x = case.var(&x);
        check(
            &case,
            Promise::Domain,
            |m, v| m.not_equal_value(v[x], i64::from(value)),
            |t| t[x] != value,
        )?;
    }

    #[test]
    fn in_set_keeps_exactly_the_supported_values(
        case in case(),
        x in any::<Index>(),
        set in prop::collection::vec(0u8..=TOP + 2, 0..=5),
    ) {
        let x = case.var(&x);
        let listed: Vec<i64> = set.iter().map(|&v| i64::from(v)).collect();
        check(&case, Promise::Domain, |m, v| m.in_set(v[x], &listed), |t| set.contains(&t[x]))?;
    }

    #[test]
    fn offset_keeps_exactly_the_supported_values(
        case in case(), x in any::<Index>(), y in any::<Index>(), c in -9i64..=9,
    ) {
        let (x, y) = (case.var(&x), case.var(&y));
        check(
            &case,
            Promise::Domain,
            |m, v| m.offset(v[x], v[y], c),
            |t| i64::from(t[x]) == i64::from(t[y]) + c,
        )?;
    }

    #[test]
    fn distance_keeps_exactly_the_supported_values(
        case in case(), x in any::<Index>(), y in any::<Index>(), c in 0i64..=9,
    ) {
        let (x, y) = (case.var(&x), case.var(&y));
        check(
            &case,
            Promise::Domain,
            |m, v| m.distance(v[x], v[y], c),
            |t| (i64::from(t[x]) - i64::from(t[y])).abs() == c,
        )?;
    }

    #[test]
    fn not_distance_keeps_exactly_the_supported_values(
        case in case(), x in any::<Index>(), y in any::<Index>(), c in 0i64..=3,
    ) {
        let (x, y) = (case.var(&x), case.var(&y));
        check(
            &case,
            Promise::Domain,
            |m, v| m.not_distance(v[x], v[y], c),
            |t| (i64::from(t[x]) - i64::from(t[y])).abs() != c,
        )?;
    }

    #[test]
    fn less_offset_keeps_exactly_the_supported_bounds(
        case in case(), x in any::<Index>(), y in any::<Index>(), c in -2i64..=2,
    ) {
        let (x, y) = (case.var(&x), case.var(&y));
        check(
            &case,
            Promise::Bounds,
            |m, v| m.less_offset(v[x], v[y], c),
            |t| i64::from(t[x]) < i64::from(t[y]) + c,
        )?;
    }

    #[test]
    fn all_different_domain_keeps_exactly_the_supported_values(
        case in case(),
        picks in prop::collection::vec(any::<Index>(), 1..=4),
        raw in prop::collection::vec(-4i64..=4, 4),
        shifted in any::<bool>(),
    ) {
        let group = case.distinct_group(&picks);
        let offsets = if shifted { case.offsets(&group, &raw) } else { Vec::new() };
        check(
            &case,
            Promise::Domain,
            |m, v| post_all_different(m, v, &group, &offsets, Strength::Domain),
            |t| all_distinct(t, &group, &offsets),
        )?;
    }

    #[test]
    fn all_different_domain_keeps_exactly_the_supported_values_of_groups_up_to_twelve(
        case in group_case(),
        raw in prop::collection::vec(-4i64..=4, GROUP),
        shifted in any::<bool>(),
    ) {
        let group = whole_group(&case);
        let offsets = if shifted { case.offsets(&group, &raw) } else { Vec::new() };
        let truth = Truth::of_all_different(&case, &group, &offsets);
        check_against(
            &case,
            Promise::Domain,
            |m, v| post_all_different(m, v, &group, &offsets, Strength::Domain),
            &truth,
        )?;
    }

    #[test]
    fn all_different_domain_with_a_repeated_variable_never_removes_a_solution(
        case in case(),
        picks in prop::collection::vec(any::<Index>(), 1..=5),
        raw in prop::collection::vec(-4i64..=4, 5),
        shifted in any::<bool>(),
    ) {
        let group = case.group(&picks);
        let offsets = if shifted { case.offsets(&group, &raw) } else { Vec::new() };
        check(
            &case,
            Promise::Sound,
            |m, v| post_all_different(m, v, &group, &offsets, Strength::Domain),
            |t| all_distinct(t, &group, &offsets),
        )?;
    }

    #[test]
    fn all_different_value_never_removes_a_solution_and_clears_fixed_values(
        case in case(),
        picks in prop::collection::vec(any::<Index>(), 1..=5),
        raw in prop::collection::vec(-4i64..=4, 5),
        shifted in any::<bool>(),
    ) {
        let group = case.group(&picks);
        let offsets = if shifted { case.offsets(&group, &raw) } else { Vec::new() };
        let post = |m: &mut Model, v: &[VarId]| {
            post_all_different(m, v, &group, &offsets, Strength::Value)
        };
        check(&case, Promise::Sound, post, |t| all_distinct(t, &group, &offsets))?;
        // Value strength's own promise: a fixed variable's (shifted) value
        // is gone from every other variable of the group.
        if let Ok(doms) = run(&case.doms, &post) {
            let off = |k: usize| offsets.get(k).copied().unwrap_or(0);
            for (i, j) in pairs(group.len()) {
                let (xi, xj) = (group[i], group[j]);
                let fixed = doms[xi].bits();
                if xi == xj || !fixed.is_power_of_two() {
                    continue;
                }
                let taken = i64::from(low(fixed)) + off(i) - off(j);
                let present = (0..64).contains(&taken) && doms[xj].bits() >> taken & 1 == 1;
                prop_assert!(
                    !present,
                    "x{} = {} leaves {} in x{}: {}",
                    xi, low(fixed), taken, xj, show(&doms)
                );
            }
        }
    }

    #[test]
    fn each_value_held_never_removes_a_solution_and_fixes_sole_holders(
        case in case(),
        picks in prop::collection::vec(any::<Index>(), 1..=5),
        wanted in 0u64..1 << (TOP + 2),
    ) {
        let group = case.group(&picks);
        let must = first_values(wanted, group.len());
        let post = |m: &mut Model, v: &[VarId]| {
            let vars: Vec<VarId> = group.iter().map(|&x| v[x]).collect();
            m.each_value_held(&vars, Domain::from_bits(must))
        };
        let holds = |t: &[u8]| values(must).iter().all(|v| group.iter().any(|&x| t[x] == *v));
        check(&case, Promise::Sound, post, holds)?;
        // Its own promise: every value has a holder, and a value that only
        // one position of the group can take is fixed there.
        if let Ok(doms) = run(&case.doms, &post) {
            for v in values(must) {
                let holders: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&x| doms[x].bits() >> v & 1 == 1)
                    .collect();
                prop_assert!(!holders.is_empty(), "{} has no holder: {}", v, show(&doms));
                if let [x] = holders[..] {
                    prop_assert_eq!(
                        doms[x].bits(),
                        1 << v,
                        "x{} is {}'s only holder but not fixed: {}",
                        x, v, show(&doms)
                    );
                }
            }
        }
    }
}

/// A deliberately wrong propagator for `x <= y`, to show the oracle catches
/// each kind of mistake.
#[derive(Debug)]
struct Faulty {
    x: VarId,
    y: VarId,
    fault: Fault,
}

#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Also removes x's minimum, which may be a solution's.
    DropsASolution,
    /// Prunes nothing, not even on a violated fixed pair.
    DoesNothing,
    /// Removes one unsupported value of x a run, and claims a fixpoint.
    StopsEarly,
    /// Fails a violated fixed pair and prunes nothing else.
    ChecksOnlyWhenFixed,
}

impl Propagator for Faulty {
    fn name(&self) -> &'static str {
        "faulty"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        subs.on(self.x, Event::Changed);
        subs.on(self.y, Event::Changed);
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        let (_, yhi) = ctx.bounds(self.y)?;
        let (xlo, xhi) = ctx.bounds(self.x)?;
        match self.fault {
            Fault::DropsASolution => {
                ctx.at_most(self.x, i32::from(yhi))?;
                ctx.remove(self.x, u32::from(xlo))?;
            }
            Fault::DoesNothing => {}
            Fault::StopsEarly => {
                if xhi > yhi {
                    ctx.remove(self.x, u32::from(xhi))?;
                }
            }
            Fault::ChecksOnlyWhenFixed => {
                if xlo == xhi && ctx.dom(self.y).is_fixed() && xlo > yhi {
                    return Err(Conflict);
                }
            }
        }
        Ok(Status::Fixpoint)
    }
}

/// Runs the oracle on `x <= y` with `x, y` in `0..=8`, implemented by `fault`.
fn oracle_on_faulty(fault: Fault, promise: Promise, y: Domain) -> Result<(), TestCaseError> {
    let case = Case {
        doms: vec![Domain::range(0, TOP), y],
        pick: 0,
    };
    check(
        &case,
        promise,
        |m, v| {
            m.post_propagator(Faulty {
                x: v[0],
                y: v[1],
                fault,
            })
        },
        |t| t[0] <= t[1],
    )
}

#[test]
fn oracle_rejects_a_propagator_that_drops_a_solution() {
    let verdict = oracle_on_faulty(Fault::DropsASolution, Promise::Sound, Domain::range(0, 3));
    assert!(verdict.is_err(), "{verdict:?}");
}

#[test]
fn oracle_rejects_a_propagator_that_accepts_a_violating_assignment() {
    let verdict = oracle_on_faulty(Fault::DoesNothing, Promise::Sound, Domain::range(0, 3));
    assert!(verdict.is_err(), "{verdict:?}");
}

#[test]
fn oracle_rejects_a_propagator_that_claims_a_fixpoint_too_early() {
    // Holds when fixed and never removes a solution: only the fixpoint
    // check can catch it.
    let verdict = oracle_on_faulty(Fault::StopsEarly, Promise::Sound, Domain::range(0, 3));
    assert!(verdict.is_err(), "{verdict:?}");
}

#[test]
fn oracle_rejects_a_propagator_weaker_than_it_promises() {
    // Checking only fixed pairs is sound, exact and idempotent...
    let sound = oracle_on_faulty(
        Fault::ChecksOnlyWhenFixed,
        Promise::Sound,
        Domain::range(0, 3),
    );
    assert!(sound.is_ok(), "{sound:?}");
    // ...but leaves x's values 4..=8, which no y in 0..=3 supports.
    let verdict = oracle_on_faulty(
        Fault::ChecksOnlyWhenFixed,
        Promise::Bounds,
        Domain::range(0, 3),
    );
    assert!(verdict.is_err(), "{verdict:?}");
}

#[test]
fn group_cases_fail_prune_and_hold_alike() {
    // The group property above can only show a wrong propagator on cases
    // where something is at stake: the generated groups must include
    // groups without a solution, groups whose supported values are fewer
    // than their values, and groups where every value is supported, of
    // every size, shifted or not.
    let mut runner = TestRunner::deterministic();
    let strategy = (group_case(), prop::collection::vec(-4i64..=4, GROUP));
    let (mut failing, mut pruned, mut whole) = ([0; GROUP + 1], [0; GROUP + 1], [0; GROUP + 1]);
    for round in 0..3_000 {
        let (case, raw) = strategy.new_tree(&mut runner).expect("a case").current();
        let group = whole_group(&case);
        let offsets = if round % 2 == 0 {
            case.offsets(&group, &raw)
        } else {
            Vec::new()
        };
        let truth = Truth::of_all_different(&case, &group, &offsets);
        let n = case.doms.len();
        if truth.good.is_none() {
            failing[n] += 1;
        } else if truth
            .support
            .iter()
            .zip(&case.doms)
            .any(|(&s, d)| s != d.bits())
        {
            pruned[n] += 1;
        } else {
            whole[n] += 1;
        }
    }
    for n in 3..=GROUP {
        assert!(
            failing[n] > 5 && pruned[n] > 5 && whole[n] > 5,
            "{n} variables: {} fail, {} prune, {} hold",
            failing[n],
            pruned[n],
            whole[n]
        );
    }
}

#[test]
fn the_search_oracle_agrees_with_enumeration_on_small_groups() {
    // Truth::of_all_different stands in for the enumeration where that
    // is out of reach; where both reach, they must agree.
    let mut runner = TestRunner::deterministic();
    let strategy = (group_case(), prop::collection::vec(-4i64..=4, GROUP));
    let mut compared = 0;
    for round in 0..3_000 {
        let (case, raw) = strategy.new_tree(&mut runner).expect("a case").current();
        if case.doms.len() > 5 {
            continue;
        }
        let group = whole_group(&case);
        let offsets = if round % 2 == 0 {
            case.offsets(&group, &raw)
        } else {
            Vec::new()
        };
        let searched = Truth::of_all_different(&case, &group, &offsets);
        let enumerated = Truth::by_enumeration(&case, |t| all_distinct(t, &group, &offsets));
        assert_eq!(searched.support, enumerated.support, "{}", show(&case.doms));
        assert_eq!(searched.good.is_some(), enumerated.good.is_some());
        assert_eq!(searched.bad.is_some(), enumerated.bad.is_some());
        if let Some(t) = &searched.good {
            assert!(all_distinct(t, &group, &offsets), "{t:?} is no solution");
        }
        if let Some(t) = &searched.bad {
            assert!(!all_distinct(t, &group, &offsets), "{t:?} is a solution");
        }
        compared += 1;
    }
    assert!(compared > 500, "{compared} cases compared");
}
