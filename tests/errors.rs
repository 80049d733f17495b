//! Misuse of the public API: every [`ModelError`] variant is reachable and
//! reads as a lowercase message without a final period, and hostile input
//! (values outside `0..=63`, extreme integers, empty domains, variables of
//! another model, oversized groups) gives an error or a correct answer,
//! never a panic. Correct answers are checked against brute force over the
//! initial domains with [`Model::check`].

use bitfd::{
    Constraint, ConstraintId, Domain, Engine, MAX_GROUP, Mode, Model, ModelError, SearchOptions,
    SearchStatus, Solver, Strength, VarId,
};

/// The values a hostile caller may pass where `0..=63` is expected.
const OUT_OF_RANGE: [i64; 6] = [-1, 64, 65, i64::MAX, i64::MIN, -63];

/// A model with `n` variables `x0..` over `lo..=hi`.
fn model_with(n: usize, lo: i64, hi: i64) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let vars = (0..n)
        .map(|i| m.int_var(&format!("x{i}"), lo, hi).expect("valid domain"))
        .collect();
    (m, vars)
}

/// Asserts the house style of an error message: it starts lowercase (or
/// with a digit, sign or quote) and has no final period.
fn assert_message_style(error: &ModelError) {
    let text = error.to_string();
    let first = text.chars().next().expect("a non-empty message");
    assert!(!first.is_uppercase(), "{text:?} starts uppercase");
    assert!(!text.ends_with('.'), "{text:?} ends with a period");
    assert!(!text.ends_with(char::is_whitespace), "{text:?}");
    // `Error` is implemented, so `?` into `Box<dyn Error>` works.
    let boxed: Box<dyn std::error::Error> = Box::new(error.clone());
    assert_eq!(boxed.to_string(), text);
}

/// The number of full assignments of the initial domains that
/// [`Model::check`] accepts: an oracle independent of the propagators.
fn brute_force_count(model: &Model) -> u64 {
    let domains: Vec<Vec<u8>> = model.domains().iter().map(|d| d.iter().collect()).collect();
    let mut values: Vec<u8> = domains.iter().map(|d| d[0]).collect();
    let mut at = vec![0usize; domains.len()];
    let mut count = 0;
    loop {
        count += u64::from(model.check(&values).is_ok());
        // Next assignment, odometer style.
        let mut i = 0;
        loop {
            if i == domains.len() {
                return count;
            }
            at[i] += 1;
            if at[i] < domains[i].len() {
                values[i] = domains[i][at[i]];
                break;
            }
            at[i] = 0;
            values[i] = domains[i][0];
            i += 1;
        }
    }
}

/// Solves in every mode and strength-independent order, and checks the
/// count against brute force and every solution against the model.
fn assert_agrees_with_brute_force(model: &Model) {
    let want = brute_force_count(model);
    let outcome = Solver::new(model).solve(&SearchOptions::default(), Mode::All);
    assert_eq!(outcome.status, SearchStatus::Complete);
    assert_eq!(outcome.solutions.len() as u64, want, "{model:?}");
    for solution in &outcome.solutions {
        assert_eq!(model.check(solution.values()), Ok(()));
    }
    let counted = Solver::new(model).count(&SearchOptions::default());
    assert_eq!(counted.stats.solutions, want);
}

// ---------------------------------------------------------------------------
// Each variant, produced through the public API, with its message.

#[test]
fn duplicate_name_is_reported_with_the_name() {
    let mut m = Model::new();
    m.int_var("x", 1, 3).expect("fresh");
    let error = m.int_var("x", 1, 3).expect_err("taken");
    assert_eq!(error, ModelError::DuplicateName { name: "x".into() });
    assert_message_style(&error);
    assert!(error.to_string().contains("`x`"));
    // The failed declaration added nothing.
    assert_eq!(m.len(), 1);
}

#[test]
fn unknown_name_is_reported_with_the_name() {
    let mut m = Model::new();
    m.int_var("x", 1, 3).expect("fresh");
    let error = m.var("y").expect_err("not declared");
    assert_eq!(error, ModelError::UnknownName { name: "y".into() });
    assert_message_style(&error);
    assert_eq!(
        m.var("").expect_err("empty name").to_string(),
        "no variable is named ``"
    );
}

#[test]
fn value_out_of_range_is_reported_for_every_hostile_domain_bound() {
    for v in OUT_OF_RANGE {
        let mut m = Model::new();
        for error in [
            m.int_var("a", v, 5).expect_err("low bound"),
            m.int_var("b", 0, v).expect_err("high bound"),
            m.var_in("c", &[1, v]).expect_err("listed value"),
        ] {
            assert!(
                matches!(error, ModelError::ValueOutOfRange { value, .. } if value == v),
                "{error:?}"
            );
            assert_message_style(&error);
        }
        assert!(m.is_empty(), "nothing was declared");
    }
    let mut m = Model::new();
    let x = m.int_var("x", 0, 63).expect("the full range is fine");
    assert_eq!(m.domain(x), Domain::FULL);
}

#[test]
fn value_out_of_range_is_reported_for_every_hostile_constant() {
    for v in OUT_OF_RANGE {
        let (mut m, xs) = model_with(2, 0, 9);
        let (x, y) = (xs[0], xs[1]);
        let values = [
            m.equal_value(x, v),
            m.not_equal_value(x, v),
            m.in_set(x, &[0, v]),
            m.distance(x, y, v),
            m.not_distance(x, y, v),
        ];
        for result in values {
            let error = result.expect_err("out of 0..=63");
            assert!(matches!(error, ModelError::ValueOutOfRange { value, .. } if value == v));
            assert_message_style(&error);
        }
        if !(-63..=63).contains(&v) {
            for result in [
                m.offset(x, y, v),
                m.less_offset(x, y, v),
                m.all_different_offsets(&[x, y], &[0, v], Strength::Value),
            ] {
                let error = result.expect_err("out of -63..=63");
                assert!(matches!(error, ModelError::ValueOutOfRange { value, .. } if value == v));
                assert_message_style(&error);
            }
        }
        assert_eq!(m.constraint_count(), 0, "nothing was posted");
    }
}

#[test]
fn value_out_of_range_is_reported_for_hostile_constants_posted_as_data() {
    let (mut m, xs) = model_with(2, 0, 9);
    let (x, y) = (xs[0], xs[1]);
    let hostile = [
        Constraint::EqualValue { x, v: -1 },
        Constraint::EqualValue { x, v: 64 },
        Constraint::NotEqualValue { x, v: i32::MIN },
        Constraint::Offset { x, y, c: i32::MAX },
        Constraint::Offset { x, y, c: -64 },
        Constraint::Distance { x, y, c: -1 },
        Constraint::NotDistance { x, y, c: 64 },
        Constraint::Less { x, y, c: i32::MIN },
        Constraint::AllDifferent {
            vars: vec![x, y].into(),
            offsets: vec![0, i32::MAX],
            strength: Strength::Domain,
        },
    ];
    for constraint in hostile {
        let error = m.post(constraint.clone()).expect_err("out of range");
        assert!(
            matches!(error, ModelError::ValueOutOfRange { .. }),
            "{constraint:?}: {error:?}"
        );
        assert_message_style(&error);
    }
    assert_eq!(m.constraint_count(), 0);
}

#[test]
fn empty_domain_is_reported_for_every_way_to_declare_one() {
    let mut m = Model::new();
    for error in [
        m.int_var("a", 5, 3).expect_err("lo > hi"),
        m.var_in("b", &[]).expect_err("no values"),
        m.var_with_domain("c", Domain::EMPTY).expect_err("empty"),
    ] {
        assert!(matches!(error, ModelError::EmptyDomain { .. }), "{error:?}");
        assert_message_style(&error);
    }
    assert!(m.is_empty());
    // The names were not taken by the failed declarations.
    m.int_var("a", 3, 3).expect("a is still free");
}

#[test]
fn foreign_variable_is_reported_by_every_constraint() {
    let (mut m, xs) = model_with(2, 0, 9);
    let (other, theirs) = model_with(3, 0, 9);
    // Index 0 exists in both models: only the model tag tells them apart.
    let foreign = theirs[0];
    let (x, y) = (xs[0], xs[1]);
    let results = [
        m.equal(x, foreign),
        m.equal_value(foreign, 1),
        m.not_equal(foreign, y),
        m.not_equal_value(foreign, 1),
        m.in_set(foreign, &[1]),
        m.offset(x, foreign, 1),
        m.distance(foreign, y, 1),
        m.not_distance(x, foreign, 1),
        m.less(x, foreign),
        m.all_different(&[x, y, foreign], Strength::Domain),
        m.all_different_offsets(&[x, foreign], &[0, 1], Strength::Value),
        m.each_value_held(&[x, y, foreign], Domain::range(0, 1)),
        // Index 2 is out of this model's range altogether.
        m.equal(x, theirs[2]),
    ];
    for result in results {
        let error = result.expect_err("foreign");
        assert!(
            matches!(error, ModelError::ForeignVariable { .. }),
            "{error:?}"
        );
        assert_message_style(&error);
    }
    assert_eq!(m.constraint_count(), 0);
    assert_eq!(other.len(), 3);
}

#[test]
fn uncoverable_values_are_reported_when_values_outnumber_variables() {
    let (mut m, xs) = model_with(3, 0, 9);
    let error = m
        .each_value_held(&xs, Domain::range(0, 3))
        .expect_err("4 values, 3 variables");
    assert_eq!(error, ModelError::UncoverableValues { values: 4, vars: 3 });
    assert_message_style(&error);
    let error = m
        .each_value_held(&[], Domain::singleton(0))
        .expect_err("1 value, no variable");
    assert_eq!(error, ModelError::UncoverableValues { values: 1, vars: 0 });
    // As many values as variables is fine.
    m.each_value_held(&xs, Domain::range(0, 2))
        .expect("3 and 3");
}

#[test]
fn too_many_variables_are_reported_for_a_group_of_65() {
    let (mut m, xs) = model_with(MAX_GROUP + 1, 0, 63);
    for result in [
        m.all_different(&xs, Strength::Domain),
        m.all_different(&xs, Strength::Value),
        m.all_different_offsets(&xs, &[0; MAX_GROUP + 1], Strength::Value),
        m.each_value_held(&xs, Domain::range(0, 1)),
    ] {
        let error = result.expect_err("65 variables");
        assert_eq!(
            error,
            ModelError::TooManyVariables {
                found: 65,
                limit: 64
            }
        );
        assert_message_style(&error);
    }
    // 64 is the limit, and allowed.
    m.all_different(&xs[..MAX_GROUP], Strength::Domain)
        .expect("64 variables");
    m.each_value_held(&xs[..MAX_GROUP], Domain::FULL)
        .expect("64 variables, 64 values");
}

#[test]
fn offset_count_mismatch_is_reported_both_ways() {
    let (mut m, xs) = model_with(3, 0, 9);
    for (offsets, error) in [
        (
            vec![0, 1],
            m.all_different_offsets(&xs, &[0, 1], Strength::Value),
        ),
        (
            vec![0, 1, 2, 3],
            m.all_different_offsets(&xs, &[0, 1, 2, 3], Strength::Domain),
        ),
    ] {
        let error = error.expect_err("mismatch");
        assert_eq!(
            error,
            ModelError::OffsetCountMismatch {
                vars: 3,
                offsets: offsets.len()
            }
        );
        assert_message_style(&error);
    }
    let error = m
        .post(Constraint::AllDifferent {
            vars: xs.clone().into(),
            offsets: vec![1],
            strength: Strength::Domain,
        })
        .expect_err("posted as data");
    assert_eq!(
        error,
        ModelError::OffsetCountMismatch {
            vars: 3,
            offsets: 1
        }
    );
    // No offsets at all means "all zero" when posted as data.
    m.post(Constraint::AllDifferent {
        vars: xs.into(),
        offsets: Vec::new(),
        strength: Strength::Domain,
    })
    .expect("no offsets");
}

#[test]
fn shifted_all_different_domains_must_stay_in_range() {
    let (mut m, xs) = model_with(2, 0, 63);
    for offsets in [[0, 1], [-1, 0], [63, 0], [0, -63]] {
        let error = m
            .all_different_offsets(&xs, &offsets, Strength::Domain)
            .expect_err("a shifted value leaves 0..=63");
        assert!(
            matches!(error, ModelError::ValueOutOfRange { .. }),
            "{error:?}"
        );
        assert_message_style(&error);
    }
    let (mut m, xs) = model_with(2, 60, 62);
    m.all_different_offsets(&xs, &[1, -60], Strength::Domain)
        .expect("61..=63 and 0..=2 are in range");
    let error = m
        .all_different_offsets(&xs, &[2, 0], Strength::Domain)
        .expect_err("62 + 2 = 64");
    assert_eq!(
        error,
        ModelError::ValueOutOfRange {
            value: 64,
            what: "a shifted all-different value (0..=63)"
        }
    );
}

#[test]
fn every_variant_message_is_lowercase_without_a_final_period() {
    // The messages of every variant, including values a caller may not
    // produce through the API.
    let errors = [
        ModelError::DuplicateName { name: "X".into() },
        ModelError::UnknownName {
            name: "Zebra".into(),
        },
        ModelError::ValueOutOfRange {
            value: i64::MIN,
            what: "a value (0..=63)",
        },
        ModelError::EmptyDomain { name: "E.".into() },
        ModelError::ForeignVariable { index: usize::MAX },
        ModelError::UncoverableValues {
            values: 64,
            vars: 0,
        },
        ModelError::TooManyVariables {
            found: usize::MAX,
            limit: 64,
        },
        ModelError::OffsetCountMismatch {
            vars: 0,
            offsets: 1,
        },
    ];
    for error in &errors {
        assert_message_style(error);
    }
    // A user's name may end in a period; the message quotes it.
    assert_eq!(
        errors[3].to_string(),
        "variable `E.` has an empty initial domain"
    );
}

// ---------------------------------------------------------------------------
// Hostile but valid models: they must solve, correctly.

#[test]
fn values_at_both_ends_of_the_range_solve_correctly() {
    let (mut m, xs) = model_with(2, 0, 63);
    let (x, y) = (xs[0], xs[1]);
    m.offset(x, y, 63).expect("largest offset");
    let outcome = Solver::new(&m).all(&SearchOptions::default());
    assert_eq!(outcome.solutions.len(), 1);
    assert_eq!((outcome.solutions[0][x], outcome.solutions[0][y]), (63, 0));

    let (mut m, xs) = model_with(2, 0, 63);
    m.less_offset(xs[0], xs[1], -62).expect("x < y - 62");
    // Only x = 0, y = 63 has x < y - 62.
    assert_eq!(
        Solver::new(&m)
            .count(&SearchOptions::default())
            .stats
            .solutions,
        1
    );

    let (mut m, xs) = model_with(2, 0, 63);
    m.distance(xs[0], xs[1], 63).expect("largest distance");
    assert_eq!(
        Solver::new(&m)
            .count(&SearchOptions::default())
            .stats
            .solutions,
        2
    );
}

#[test]
fn repeated_variables_in_groups_solve_as_brute_force_says() {
    for strength in [Strength::Value, Strength::Domain] {
        // x != x: no solution.
        let (mut m, xs) = model_with(2, 1, 3);
        m.all_different(&[xs[0], xs[0]], strength).expect("valid");
        assert_agrees_with_brute_force(&m);

        // x + 0 != x + 1 always holds.
        let (mut m, xs) = model_with(2, 1, 3);
        m.all_different_offsets(&[xs[0], xs[0]], &[0, 1], strength)
            .expect("valid");
        assert_agrees_with_brute_force(&m);

        // x, y, x + 1 pairwise different.
        let (mut m, xs) = model_with(2, 1, 4);
        m.all_different_offsets(&[xs[0], xs[1], xs[0]], &[0, 0, 1], strength)
            .expect("valid");
        assert_agrees_with_brute_force(&m);

        // A repeat with more variables than values but a Hall set.
        let (mut m, xs) = model_with(3, 1, 3);
        m.all_different(&[xs[0], xs[1], xs[2], xs[1]], strength)
            .expect("valid");
        assert_agrees_with_brute_force(&m);
    }
    // One variable cannot hold two values.
    let (mut m, xs) = model_with(2, 1, 3);
    m.each_value_held(&[xs[0], xs[0]], Domain::range(1, 2))
        .expect("two values, two entries");
    assert_agrees_with_brute_force(&m);
    // But two entries of x and one of y can hold two values.
    let (mut m, xs) = model_with(2, 1, 3);
    m.each_value_held(&[xs[0], xs[0], xs[1]], Domain::range(1, 2))
        .expect("valid");
    assert_agrees_with_brute_force(&m);
}

/// A constraint posted on the variables `x` and `y` of a small model.
type Post = fn(&mut Model, VarId, VarId) -> Result<ConstraintId, ModelError>;

#[test]
fn degenerate_constraints_solve_as_brute_force_says() {
    let cases: [Post; 11] = [
        |m, x, _| m.in_set(x, &[]),
        |m, x, _| m.equal(x, x),
        |m, x, _| m.not_equal(x, x),
        |m, x, _| m.offset(x, x, 0),
        |m, x, _| m.offset(x, x, 1),
        |m, x, _| m.distance(x, x, 0),
        |m, x, _| m.not_distance(x, x, 0),
        |m, x, _| m.less(x, x),
        |m, x, _| m.less_eq(x, x),
        |m, _, _| m.all_different(&[], Strength::Domain),
        |m, _, _| m.each_value_held(&[], Domain::EMPTY),
    ];
    for (i, post) in cases.iter().enumerate() {
        let (mut m, xs) = model_with(2, 0, 3);
        post(&mut m, xs[0], xs[1]).unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_agrees_with_brute_force(&m);
    }
}

#[test]
fn a_group_of_64_over_all_64_values_finds_a_permutation() {
    for strength in [Strength::Value, Strength::Domain] {
        let (mut m, xs) = model_with(MAX_GROUP, 0, 63);
        m.all_different(&xs, strength).expect("64 variables");
        m.each_value_held(&xs, Domain::FULL).expect("64 values");
        m.equal_value(xs[0], 63).expect("the top value");
        let outcome = Solver::new(&m).first(&SearchOptions::default());
        let [solution] = outcome.solutions.as_slice() else {
            panic!("{strength}: one solution expected");
        };
        assert_eq!(m.check(solution.values()), Ok(()));
        let mut values = solution.values().to_vec();
        values.sort_unstable();
        assert_eq!(values, (0..=63).collect::<Vec<u8>>());
    }
}

#[test]
fn an_empty_model_has_one_empty_solution() {
    let m = Model::new();
    let outcome = Solver::new(&m).all(&SearchOptions::default());
    assert_eq!(outcome.solutions.len(), 1);
    assert!(outcome.solutions[0].values().is_empty());
    assert_eq!(outcome.stats.nodes, 1);
}

#[test]
fn limits_of_zero_stop_cleanly() {
    let (m, _) = model_with(3, 0, 3);
    let outcome = Solver::new(&m).solve(&SearchOptions::default().node_limit(0), Mode::All);
    assert_eq!(outcome.status, SearchStatus::NodeLimit);
    assert!(outcome.solutions.is_empty());
    let outcome = Solver::new(&m).solve(&SearchOptions::default(), Mode::AtMost(0));
    assert_eq!(outcome.status, SearchStatus::SolutionLimit);
    assert!(outcome.solutions.is_empty());
}

#[test]
fn a_solver_can_be_reused_after_a_failed_root() {
    let (mut m, xs) = model_with(2, 0, 3);
    m.not_equal(xs[0], xs[0]).expect("valid");
    let mut solver = Solver::new(&m);
    for _ in 0..2 {
        let outcome = solver.all(&SearchOptions::default());
        assert!(outcome.solutions.is_empty());
        assert_eq!(
            outcome.root_failure,
            Some(m.constraint_ids().next().expect("one"))
        );
    }
}

// ---------------------------------------------------------------------------
// Reading domains with a variable of another model.

#[test]
#[should_panic(expected = "belongs to another model")]
fn engine_dom_of_a_foreign_variable_panics_as_documented() {
    let (m, _) = model_with(2, 0, 3);
    let (_, theirs) = model_with(2, 10, 20);
    let engine = Engine::new(&m);
    // `dom` says: "Panics: if `x` is not a variable of the engine's model",
    // even where another model's variable has a position that exists here.
    let _ = engine.dom(theirs[0]);
}

#[test]
#[should_panic(expected = "belongs to another model")]
fn model_domain_of_a_foreign_variable_panics_as_documented() {
    let (m, _) = model_with(2, 0, 3);
    let (_, theirs) = model_with(2, 10, 20);
    let _ = m.domain(theirs[0]);
}

#[test]
#[should_panic(expected = "belongs to another model")]
fn indexing_a_solution_with_a_foreign_variable_panics() {
    let (m, _) = model_with(2, 0, 3);
    let (_, theirs) = model_with(2, 10, 20);
    let outcome = Solver::new(&m).first(&SearchOptions::default());
    let _ = outcome.solutions[0][theirs[0]];
}

/// A model cleared and built again into the same storage, solved by a
/// solver that reloads it: the variables of before belong to another
/// model, the names are the new ones, solutions found before keep theirs,
/// and each round counts what brute force counts.
#[test]
fn a_cleared_model_is_a_new_model_in_the_same_storage() {
    let (mut m, old) = model_with(3, 1, 3);
    m.all_different(&old, Strength::Value).expect("valid");
    let mut solver = Solver::new(&m);
    let before = solver.first(&SearchOptions::default()).solutions;
    for n in 2..6 {
        m.clear();
        assert!(m.is_empty());
        // The old variables are another model's now.
        assert_eq!(
            m.equal_value(old[0], 1),
            Err(ModelError::ForeignVariable { index: 0 })
        );
        let vars: Vec<VarId> = (0..n)
            .map(|i| {
                m.int_var(&format!("y{i}"), 0, n as i64)
                    .expect("fresh name")
            })
            .collect();
        m.all_different(&vars, Strength::Domain).expect("valid");
        assert_eq!(m.var("y0"), Ok(vars[0]));
        assert!(m.var("x0").is_err(), "the names of before are gone");
        solver.load(&m);
        let outcome = solver.count(&SearchOptions::default());
        assert_eq!(
            outcome.stats.solutions,
            brute_force_count(&m),
            "{n} variables"
        );
    }
    // A solution found before the clears still names its variables.
    assert_eq!(before[0].value_of("x0"), Some(1));
}
